// tests/parallel/expr_test.cpp: ck_parallel_expr, an expression split over the destination's
// outermost dimension: for 1, 2 and 16 threads, composed and JIT kernels, the results are the
// serial ck_expr_eval's bit for bit and the values of formulas computed here (split rows,
// broadcast rows and columns, ragged rows inside a split, a ragged outer level and small work
// that run serially); errors from a node and from a ragged row with the serial status and
// message; allocation failure at every point. Run under ThreadSanitizer in CI
// (tests/parallel/run_tsan.sh).
#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "par.hpp"

namespace {

using par::Leakless;

const int kThreads[] = {1, 2, 16};
const unsigned kJitFlags[] = {CK_EVAL_NO_JIT, CK_EVAL_JIT};

// A parsed expression, released with the handle.
class Expr {
  public:
    explicit Expr(const char *text) {
        EXPECT_EQ(ck_expr_parse(text, &e_), CK_OK) << text << ": " << ck_last_error();
    }
    ~Expr() { ck_expr_decref(e_); }
    Expr(const Expr &) = delete;
    Expr &operator=(const Expr &) = delete;
    const ck_expr *get() const { return e_; }

  private:
    ck_expr *e_ = nullptr;
};

std::string trace(int threads, unsigned flags) {
    return "threads " + std::to_string(threads) +
           (flags == CK_EVAL_NO_JIT ? " composed" : " JIT when it compiles");
}

// Runs e over the sources serially (ck_expr_eval) into a new array of dst_type and in parallel
// into another, for every thread count and JIT flag (grain: 1 KiB, so that rows split), and
// hands both to `check`. Names are given in the order of `names`. With `compiles`, the JIT
// (when there is one) must have compiled the parallel run's row kernel under CK_EVAL_JIT.
void serial_and_parallel(const char *text, const char *dst_type, std::vector<const char *> names,
                         std::vector<const ck_array *> src,
                         const std::function<void(const ckt::Array &, const ckt::Array &)> &check,
                         bool compiles = false) {
    ck_jit_info info;
    ck_jit_get_info(&info);
    Expr e(text);
    const int n = static_cast<int>(src.size());
    for (unsigned flags : kJitFlags) {
        for (int t : kThreads) {
            SCOPED_TRACE(std::string(text) + ": " + trace(t, flags));
            const ck_eval_ctx c = par::ctx(t, 1024, CK_ERRMODE_FRACTIONAL, flags);
            ckt::Array serial(dst_type), parallel(dst_type);
            ASSERT_EQ(ck_expr_eval(e.get(), serial.get(), n, names.data(), src.data(), &c), CK_OK)
                << ck_last_error();
            ASSERT_EQ(ck_parallel_expr(e.get(), parallel.get(), n, names.data(), src.data(), &c),
                      CK_OK)
                << ck_last_error();
            if (compiles && flags == CK_EVAL_JIT && info.available) {
                const std::string d = ck_jit_last_decision();  // the build on this thread
                EXPECT_TRUE(d.rfind("compiled", 0) == 0 || d.rfind("cache hit", 0) == 0) << d;
            }
            check(serial, parallel);
        }
    }
}

TEST_F(Leakless, ParallelExprSplitsRowsBitForBit) {
    // a * x + b over 3000 x 64 elements, a float64, x int32, b a float64 scalar; the names in
    // another order than the expression's. Every value is a multiple of 1/8 under 2^30: exact.
    const int m = 3000, k = 64;
    const std::string s = std::to_string(m) + " * " + std::to_string(k);
    ckt::Array a((s + " * float64").c_str()), x((s + " * int32").c_str()), b("float64", "0.5");
    auto *pa = reinterpret_cast<double *>(a.data());
    auto *px = reinterpret_cast<int32_t *>(x.data());
    for (size_t i = 0; i < static_cast<size_t>(m * k); ++i) {
        pa[i] = par::half_step_at(i);
        px[i] = par::int_at(i) / 64;
    }
    serial_and_parallel("a * x + b", (s + " * float64").c_str(), {"x", "b", "a"},
                        {x.get(), b.get(), a.get()},
                        [&](const ckt::Array &serial, const ckt::Array &parallel) {
                            EXPECT_TRUE(par::same_bytes(serial, parallel));
                            const auto *o = reinterpret_cast<const double *>(parallel.data());
                            int wrong = 0;
                            for (size_t i = 0; i < static_cast<size_t>(m * k); ++i)
                                wrong += o[i] != par::half_step_at(i) * (par::int_at(i) / 64) + 0.5;
                            EXPECT_EQ(wrong, 0);
                        },
                        true);
}

TEST_F(Leakless, ParallelExprSplitsOneDimensionIntoRunsTheJitCompiles) {
    // sqrt(a) * b + c over 1-d arrays of 3 * 4096 + 77 elements (runs of 4096 split, the 77
    // after them on the calling thread), 2 * 4096 (no tail), b a float64 scalar: with
    // CK_EVAL_JIT the runs compile, and every count gives the serial call's bits, which are
    // the values computed here (squares of multiples of 1/8: exact).
    for (size_t n : {size_t{3 * 4096 + 77}, size_t{2 * 4096}}) {
        SCOPED_TRACE(n);
        const std::string s = std::to_string(n) + " * float64";
        ckt::Array a(s.c_str()), c(s.c_str()), b("float64", "0.5");
        auto *pa = reinterpret_cast<double *>(a.data());
        auto *pc = reinterpret_cast<double *>(c.data());
        for (size_t i = 0; i < n; ++i) {
            pa[i] = par::half_step_at(i) * par::half_step_at(i);
            pc[i] = static_cast<double>(i % 1000);
        }
        serial_and_parallel("sqrt(a) * b + c", s.c_str(), {"a", "b", "c"},
                            {a.get(), b.get(), c.get()},
                            [&](const ckt::Array &serial, const ckt::Array &parallel) {
                                EXPECT_TRUE(par::same_bytes(serial, parallel));
                                const auto *o = reinterpret_cast<const double *>(parallel.data());
                                size_t wrong = 0;
                                for (size_t i = 0; i < n; ++i)
                                    wrong += o[i] != std::fabs(par::half_step_at(i)) * 0.5 +
                                                         static_cast<double>(i % 1000);
                                EXPECT_EQ(wrong, 0u);
                            },
                            true);
    }
}

TEST_F(Leakless, ParallelExprReductionsGiveTheSerialBits) {
    // Reductions split across threads (each operand by ck_parallel_expr, each reduction by
    // ck_parallel_reduce) against the serial call (the root's fused pass): the values rounded
    // (sums of thirds), so an order of additions of its own would show.
    const int m = 3000, k = 64;
    const std::string s2 = std::to_string(m) + " * " + std::to_string(k);
    const std::string s1 = std::to_string(m * k);
    ckt::Array a((s2 + " * float64").c_str()), x((s1 + " * float64").c_str());
    auto *pa = reinterpret_cast<double *>(a.data());
    auto *px = reinterpret_cast<double *>(x.data());
    for (size_t i = 0; i < static_cast<size_t>(m * k); ++i) {
        pa[i] = par::half_step_at(i) / 3.0;
        px[i] = static_cast<double>(par::int_at(i)) / 7.0;
    }
    const auto same = [](const ckt::Array &serial, const ckt::Array &parallel) {
        EXPECT_TRUE(par::same_bytes(serial, parallel));
    };
    serial_and_parallel("a - sum(a, axis=0) / 4", (s2 + " * float64").c_str(), {"a"}, {a.get()},
                        same);
    serial_and_parallel("sum(a * a, axis=1)", (std::to_string(m) + " * float64").c_str(), {"a"},
                        {a.get()}, same);
    serial_and_parallel("sum(x * x)", "float64", {"x"}, {x.get()}, same);
    serial_and_parallel("max(x) - x", (s1 + " * float64").c_str(), {"x"}, {x.get()}, same);
}

TEST_F(Leakless, ParallelExprOfOneDimensionReportsErrorsAsSerially) {
    // trunc_divide by a zero at element 9000 of 3 * 4096 + 5, split into runs with CK_EVAL_JIT
    // (the division stays composed inside the compiled runs): the serial status and message.
    const size_t n = 3 * 4096 + 5;
    const std::string s = std::to_string(n) + " * int32";
    ckt::Array x(s.c_str()), y(s.c_str());
    auto *px = reinterpret_cast<int32_t *>(x.data());
    auto *py = reinterpret_cast<int32_t *>(y.data());
    for (size_t i = 0; i < n; ++i) {
        px[i] = static_cast<int32_t>(i);
        py[i] = 1 + static_cast<int32_t>(i % 5);
    }
    py[9000] = 0;
    Expr e("trunc_divide(x, y)");
    const char *names[] = {"x", "y"};
    const ck_array *src[] = {x.get(), y.get()};
    const ck_eval_ctx c = par::ctx(2, 1024, CK_ERRMODE_FRACTIONAL, CK_EVAL_JIT);
    ckt::Array serial(s.c_str()), parallel(s.c_str());
    ASSERT_EQ(ck_expr_eval(e.get(), serial.get(), 2, names, src, &c), CK_ERR_ZERO_DIVISION);
    const std::string want = ck_last_error();
    EXPECT_EQ(ck_parallel_expr(e.get(), parallel.get(), 2, names, src, &c), CK_ERR_ZERO_DIVISION);
    EXPECT_EQ(std::string(ck_last_error()), want);
    EXPECT_NE(want.find("[9000]"), std::string::npos) << want;
}

TEST_F(Leakless, ParallelExprBroadcastsRowsAndColumns) {
    // r * c + s - 1: r a row (64,) float64 (no outer dimension: every row), c a column
    // (2500, 1) float32, s (1, 64) int16 (an outer dimension of size 1).
    const int m = 2500, k = 64;
    ckt::Array r("64 * float64"), c("2500 * 1 * float32"), s("1 * 64 * int16");
    for (int j = 0; j < k; ++j) {
        reinterpret_cast<double *>(r.data())[j] = 0.25 * j - 3;
        reinterpret_cast<int16_t *>(s.data())[j] = static_cast<int16_t>(100 - 7 * j);
    }
    for (int i = 0; i < m; ++i) reinterpret_cast<float *>(c.data())[i] = 0.5f * (i % 301) - 20;
    serial_and_parallel(
        "r * c + s - 1", "2500 * 64 * float64", {"s", "r", "c"}, {s.get(), r.get(), c.get()},
        [&](const ckt::Array &serial, const ckt::Array &parallel) {
            EXPECT_TRUE(par::same_bytes(serial, parallel));
            const auto *o = reinterpret_cast<const double *>(parallel.data());
            int wrong = 0;
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < k; ++j)
                    wrong += o[i * k + j] !=
                             (0.25 * j - 3) * (0.5 * (i % 301) - 20) + (100 - 7 * j) - 1;
            EXPECT_EQ(wrong, 0);
        });
}

TEST_F(Leakless, ParallelExprRunsRaggedRowsInsideTheSplit) {
    // The outer dimension is fixed, the rows below it ragged: the destination's rows are
    // allocated by the workers from its arena. x * a + 1.0 with x `4000 * var * float32`.
    const size_t rows = 4000;
    const auto lengths = par::row_lengths(rows, 11, 40);
    ckt::Array x("4000 * var * float32"), a("float64", "-2");
    par::allocate_rows(x, lengths, 4);
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < lengths[i]; ++j) *par::var_elem<float>(x, i, j) = par::var_value(i, j);
    serial_and_parallel("x * a + 1.0", "4000 * var * float64", {"x", "a"}, {x.get(), a.get()},
                        [&](const ckt::Array &serial, const ckt::Array &parallel) {
                            EXPECT_EQ(serial.str(), parallel.str());
                            int wrong = 0;
                            for (size_t i = 0; i < rows; ++i) {
                                ASSERT_EQ(par::var_len<double>(parallel, i), lengths[i]) << i;
                                for (size_t j = 0; j < lengths[i]; ++j)
                                    wrong += *par::var_elem<double>(parallel, i, j) !=
                                             par::var_value(i, j) * -2.0 + 1.0;
                            }
                            EXPECT_EQ(wrong, 0);
                        });
}

TEST_F(Leakless, ParallelExprGoesSerialForARaggedOuterLevelAndSmallWork) {
    // A source whose outermost level is var cannot be split with the destination's rows.
    const size_t n = 20000;
    std::string lit = "[";
    for (size_t i = 0; i < n; ++i) lit += (i ? ", " : "") + std::to_string(par::int_at(i));
    lit += "]";
    ckt::Array v("var * int32", lit.c_str()), w("20000 * float64");
    for (size_t i = 0; i < n; ++i) reinterpret_cast<double *>(w.data())[i] = par::half_step_at(i);
    serial_and_parallel("v - w * 2", "20000 * float64", {"v", "w"}, {v.get(), w.get()},
                        [&](const ckt::Array &serial, const ckt::Array &parallel) {
                            EXPECT_TRUE(par::same_bytes(serial, parallel));
                            const auto *o = reinterpret_cast<const double *>(parallel.data());
                            int wrong = 0;
                            for (size_t i = 0; i < n; ++i)
                                wrong += o[i] != par::int_at(i) - par::half_step_at(i) * 2;
                            EXPECT_EQ(wrong, 0);
                        });
    // Three elements: under two grains of any size, so serial.
    ckt::Array p("3 * int8", "[1, -2, 3]");
    serial_and_parallel("-p / 2.0", "3 * float32", {"p"}, {p.get()},
                        [&](const ckt::Array &serial, const ckt::Array &parallel) {
                            EXPECT_EQ(serial.str(), "[-0.5, 1, -1.5]");
                            EXPECT_EQ(parallel.str(), "[-0.5, 1, -1.5]");
                        });
    // A scalar destination has no dimension to split.
    ckt::Array q("int64", "7");
    serial_and_parallel("q * q - 1", "int64", {"q"}, {q.get()},
                        [&](const ckt::Array &, const ckt::Array &parallel) {
                            EXPECT_EQ(parallel.str(), "48");
                        });
}

// Runs e serially and in parallel (2 threads, 1 KiB grains, composed) into two new arrays of
// dst_type; both must fail with `status`. Returns the two messages.
std::pair<std::string, std::string> both_fail(const char *text, const char *dst_type,
                                              std::vector<const char *> names,
                                              std::vector<const ck_array *> src, int status) {
    Expr e(text);
    const int n = static_cast<int>(src.size());
    const ck_eval_ctx c = par::ctx(2, 1024, CK_ERRMODE_FRACTIONAL, CK_EVAL_NO_JIT);
    ckt::Array d1(dst_type), d2(dst_type);
    EXPECT_EQ(ck_expr_eval(e.get(), d1.get(), n, names.data(), src.data(), &c), status);
    const std::string serial = ck_last_error();
    EXPECT_EQ(ck_parallel_expr(e.get(), d2.get(), n, names.data(), src.data(), &c), status);
    return {serial, ck_last_error()};
}

// x and y of 600 rows of k int32 (x = its flat index, y = 1 + that mod 5) with a zero divisor
// at row 345, element 7: `text` over them, serially and split (1 KiB grains: every row at
// least 4000 bytes, so each piece a worker runs is one row), both failing.
std::pair<std::string, std::string> zero_divisor(int k, const char *text) {
    const int m = 600;
    const std::string s = std::to_string(m) + " * " + std::to_string(k) + " * int32";
    ckt::Array x(s.c_str()), y(s.c_str());
    auto *px = reinterpret_cast<int32_t *>(x.data());
    auto *py = reinterpret_cast<int32_t *>(y.data());
    for (int i = 0; i < m * k; ++i) {
        px[i] = i;
        py[i] = 1 + i % 5;
    }
    py[345 * k + 7] = 0;
    return both_fail(text, s.c_str(), {"y", "x"}, {y.get(), x.get()}, CK_ERR_ZERO_DIVISION);
}

TEST_F(Leakless, ParallelExprNodeErrorsNameTheElementAsSerially) {
    // The zero at row 345, element 7. Serially the C-order rows are one coalesced run, which
    // the kernel cuts into chunks of 1024: the chunk's offset is added back, so the index is
    // the flat one, 345 * k + 7, whatever the chunks. Split, a worker's run is its rows: the
    // row's index and the element within it (proof that the rows ran split). Without oneTBB,
    // ck_parallel_expr is the serial call, message included.
    for (int k : {1024, 1000}) {
        const auto msgs =
            zero_divisor(k, k == 1024 ? "x + trunc_divide(x, y)" : "trunc_divide(x, y)");
        const std::string column = k == 1024 ? "5" : "1";
        const std::string head = "expression column " + column +
                                 ": trunc_divide: integer division by zero at element ";
        EXPECT_EQ(msgs.first, head + (k == 1024 ? "[353287]" : "[345007]"));
        EXPECT_EQ(msgs.second, par::tbb_backend() ? head + "[345][7]" : msgs.first);
    }
}

TEST_F(Leakless, ParallelExprRaggedRowErrorsNumberDimensionsAsSerially) {
    // Two ragged sources whose row 2345 differ in length: a located error, its dimension and
    // row numbered in the whole array by both.
    const size_t rows = 3000;
    auto lx = par::row_lengths(rows, 5, 30), ly = lx;
    lx[2345] = 4;
    ly[2345] = 3;
    ckt::Array x("3000 * var * float64"), y("3000 * var * float64");
    par::allocate_rows(x, lx, 8);
    par::allocate_rows(y, ly, 8);
    const auto msgs = both_fail("x * y", "3000 * var * float64", {"x", "y"}, {x.get(), y.get()},
                                CK_ERR_BROADCAST);
    EXPECT_EQ(msgs.first,
              "var dimension 1 at [2345]: cannot broadcast arguments of sizes 4 and 3 together");
    EXPECT_EQ(msgs.second, msgs.first);
}

TEST_F(Leakless, ParallelExprBuildErrorsAreTheSerialOnes) {
    ckt::Array x("5000 * int32"), o("5000 * int32");
    // An argument not given, an unknown name, a type no node accepts: the serial messages.
    auto m1 = both_fail("x + z", "5000 * int32", {"x"}, {x.get()}, CK_ERR_INVALID);
    EXPECT_EQ(m1.first, "expression: its argument 'z' is not given");
    EXPECT_EQ(m1.second, m1.first);
    auto m2 = both_fail("x * 2", "5000 * int32", {"w"}, {x.get()}, CK_ERR_INVALID);
    EXPECT_EQ(m2.second, m2.first);
    ckt::Array t("5000 * 2 * int32");
    auto m3 = both_fail("x * 2", "5000 * 3 * int32", {"x"}, {t.get()}, CK_ERR_BROADCAST);
    EXPECT_EQ(m3.second, m3.first);
    // The arguments themselves.
    Expr e("x + 1");
    const ck_array *src[] = {x.get()};
    const ck_array *none[] = {nullptr};
    EXPECT_EQ(ck_parallel_expr(nullptr, o.get(), 1, nullptr, src, nullptr), CK_ERR_INVALID);
    EXPECT_EQ(std::string(ck_last_error()),
              "ck_parallel_expr: NULL expression or array, or 1 sources");
    EXPECT_EQ(ck_parallel_expr(e.get(), o.get(), 0, nullptr, src, nullptr), CK_ERR_INVALID);
    EXPECT_EQ(ck_parallel_expr(e.get(), o.get(), 1, nullptr, none, nullptr), CK_ERR_INVALID);
    EXPECT_EQ(std::string(ck_last_error()), "ck_parallel_expr: source 0 is NULL");
    const ck_eval_ctx bad = par::ctx(-1);
    EXPECT_EQ(ck_parallel_expr(e.get(), o.get(), 1, nullptr, src, &bad), CK_ERR_INVALID);
    EXPECT_EQ(std::string(ck_last_error()),
              "ck_parallel_expr: max_threads is -1 in the evaluation context; use a positive "
              "count, or 0 for ck_get_num_threads()");
}

TEST_F(Leakless, ParallelExprAllocationFailureAtEveryPoint) {
    // The plan, the kernel (several steps with casts: more than the builder's inline bytes)
    // and the arrays; 2 threads over fixed dimensions (the rows' allocation order of a ragged
    // destination would be the scheduler's).
    std::vector<double> a(4096 * 16);
    std::vector<float> x(4096 * 16);
    for (size_t i = 0; i < a.size(); ++i) {
        a[i] = par::half_step_at(i);
        x[i] = static_cast<float>(par::int_at(i) % 1000);
    }
    std::vector<double> out(a.size());
    const ck_eval_ctx c = par::ctx(2, 1024, CK_ERRMODE_FRACTIONAL, CK_EVAL_NO_JIT);
    const int64_t points = ckt::for_each_alloc_failure([&]() {
        ck_expr *e = nullptr;
        ck_type *dt = nullptr, *xt = nullptr;
        ck_array *sa = nullptr, *sx = nullptr, *d = nullptr;
        int rc = ck_expr_parse("maximum(a * x, -x) + float32(a) / 3 - (x - 1) * int8(2)", &e);
        if (rc == CK_OK) rc = ck_type_parse("4096 * 16 * float64", &dt);
        if (rc == CK_OK) rc = ck_type_parse("4096 * 16 * float32", &xt);
        if (rc == CK_OK) rc = ck_array_wrap(dt, nullptr, reinterpret_cast<char *>(a.data()), nullptr, &sa);
        if (rc == CK_OK) rc = ck_array_wrap(xt, nullptr, reinterpret_cast<char *>(x.data()), nullptr, &sx);
        if (rc == CK_OK) rc = ck_array_wrap(dt, nullptr, reinterpret_cast<char *>(out.data()), nullptr, &d);
        const ck_array *src[] = {sa, sx};
        if (rc == CK_OK) rc = ck_parallel_expr(e, d, 2, nullptr, src, &c);
        if (rc == CK_OK) {
            // NumPy on the same values: the float32 quotient's bits come from a float32 divide.
            int wrong = 0;
            for (size_t i = 0; i < a.size(); ++i) {
                const double ax = a[i] * static_cast<double>(x[i]);
                const double mx = ax > -static_cast<double>(x[i]) ? ax : -static_cast<double>(x[i]);
                const float q = static_cast<float>(a[i]) / 3.0f;
                wrong += out[i] != mx + static_cast<double>(q) - (static_cast<double>(x[i]) - 1) * 2;
            }
            EXPECT_EQ(wrong, 0);
        }
        ck_array_free(d);
        ck_array_free(sx);
        ck_array_free(sa);
        ck_type_decref(xt);
        ck_type_decref(dt);
        ck_expr_decref(e);
        return rc;
    });
    EXPECT_GE(points, 5);
}

}  // namespace
