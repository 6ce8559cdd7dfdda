// tests/parallel/workloads_test.cpp: every workload shape of the benchmark (issue 7) run in
// parallel, checked element by element against formulas and byte for byte against the
// serial path (ck_assign, or the kernel's own strided call). Sizes are smaller than the
// benchmark's but span many grains.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "par.hpp"

namespace {

using ckt::Array;
using par::Leakless;

constexpr size_t kN = 300007;  // prime: no grain divides it

// Both contexts under which every array workload runs: the default grain with two threads
// (the ordinary case) and a small grain with three (many ranges, a thread more than cores).
std::vector<ck_eval_ctx> contexts(ck_errmode mode = CK_ERRMODE_FRACTIONAL) {
    return {par::ctx(2, 0, mode), par::ctx(3, 4096, mode), par::ctx(4, 24, mode)};
}

template <class T>
T *as(const Array &a) {
    return reinterpret_cast<T *>(a.data());
}

// ---- 1. contiguous casts ----

TEST_F(Leakless, ContiguousInt32ToFloat64) {
    Array src("300007 * int32");
    for (size_t i = 0; i < kN; ++i) as<int32_t>(src)[i] = par::int_at(i);
    Array serial("300007 * float64");
    ASSERT_EQ(ck_assign(serial.get(), src.get(), nullptr), CK_OK);
    for (const ck_eval_ctx &c : contexts()) {
        Array dst("300007 * float64");
        ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
        for (size_t i = 0; i < kN; ++i)
            ASSERT_EQ(as<double>(dst)[i], static_cast<double>(par::int_at(i))) << i;
        EXPECT_TRUE(par::same_bytes(dst, serial));
    }
}

TEST_F(Leakless, ContiguousFloat64ToInt32NocheckTruncates) {
    Array src("300007 * float64");
    for (size_t i = 0; i < kN; ++i) as<double>(src)[i] = par::half_step_at(i) * 6.0 + 0.375;
    Array serial("300007 * int32");
    ck_eval_ctx nc = par::ctx(1, 0, CK_ERRMODE_NOCHECK);
    ASSERT_EQ(ck_assign(serial.get(), src.get(), &nc), CK_OK);
    for (const ck_eval_ctx &c : contexts(CK_ERRMODE_NOCHECK)) {
        Array dst("300007 * int32");
        ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
        for (size_t i = 0; i < kN; ++i)
            ASSERT_EQ(as<int32_t>(dst)[i],
                      static_cast<int32_t>(std::trunc(par::half_step_at(i) * 6.0 + 0.375)))
                << i;
        EXPECT_TRUE(par::same_bytes(dst, serial));
    }
}

TEST_F(Leakless, ContiguousFloat64ToInt32FractionalOnIntegralValues) {
    Array src("300007 * float64");
    for (size_t i = 0; i < kN; ++i) as<double>(src)[i] = static_cast<double>(par::int_at(i));
    for (const ck_eval_ctx &c : contexts()) {
        Array dst("300007 * int32");
        ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
        for (size_t i = 0; i < kN; ++i) ASSERT_EQ(as<int32_t>(dst)[i], par::int_at(i)) << i;
    }
}

TEST_F(Leakless, ContiguousFloat64ToFloat32) {
    Array src("300007 * float64");
    for (size_t i = 0; i < kN; ++i) as<double>(src)[i] = static_cast<double>(i) * 1.1 - 7.3;
    Array serial("300007 * float32");
    ASSERT_EQ(ck_assign(serial.get(), src.get(), nullptr), CK_OK);
    for (const ck_eval_ctx &c : contexts()) {
        Array dst("300007 * float32");
        ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
        for (size_t i = 0; i < kN; ++i)
            ASSERT_EQ(as<float>(dst)[i], static_cast<float>(static_cast<double>(i) * 1.1 - 7.3)) << i;
        EXPECT_TRUE(par::same_bytes(dst, serial));
    }
}

TEST_F(Leakless, ContiguousFloat32ToFloat16) {
    Array src("300007 * float32");
    for (size_t i = 0; i < kN; ++i) as<float>(src)[i] = static_cast<float>(par::half_step_at(i));
    std::vector<uint16_t> expect(2001);
    for (size_t k = 0; k < expect.size(); ++k) expect[k] = par::f16_bits_exact(par::half_step_at(k));
    for (const ck_eval_ctx &c : contexts()) {
        Array dst("300007 * float16");
        ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
        for (size_t i = 0; i < kN; ++i) ASSERT_EQ(as<uint16_t>(dst)[i], expect[i % 2001u]) << i;
    }
}

TEST_F(Leakless, ContiguousFloat64Copy) {
    Array src("300007 * float64");
    for (size_t i = 0; i < kN; ++i) as<double>(src)[i] = std::ldexp(static_cast<double>(i), -7);
    for (const ck_eval_ctx &c : contexts()) {
        Array dst("300007 * float64");
        ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
        EXPECT_TRUE(par::same_bytes(dst, src));
    }
}

// ---- 2. strided source (every second element), and reversed destinations ----

TEST_F(Leakless, StridedSourceEverySecondElement) {
    std::vector<int32_t> in(2 * kN);
    for (size_t i = 0; i < in.size(); ++i) in[i] = par::int_at(i);
    par::Kernel k("float64", "int32");
    ASSERT_TRUE(k.ok());
    char *src = reinterpret_cast<char *>(in.data());
    const intptr_t ss = 8;
    std::vector<double> serial(kN, -1.0);
    ASSERT_EQ(ck_call_strided(k.get(), reinterpret_cast<char *>(serial.data()), 8, &src, &ss, kN),
              CK_OK);
    for (const ck_eval_ctx &c : contexts()) {
        std::vector<double> out(kN, -1.0);
        ASSERT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(out.data()), 8, &src, &ss,
                                      kN, &c),
                  CK_OK) << ck_last_error();
        for (size_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], static_cast<double>(par::int_at(2 * i))) << i;
        EXPECT_EQ(out, serial);
    }
}

TEST_F(Leakless, NegativeStridesReverse) {
    std::vector<int32_t> in(kN);
    for (size_t i = 0; i < kN; ++i) in[i] = par::int_at(i);
    par::Kernel k("float64", "int32");
    ASSERT_TRUE(k.ok());
    char *src = reinterpret_cast<char *>(in.data() + kN - 1);
    const intptr_t ss = -4;
    for (const ck_eval_ctx &c : contexts()) {
        std::vector<double> out(kN + 2, -1.0);
        ASSERT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(out.data() + kN), -8, &src,
                                      &ss, kN, &c),
                  CK_OK) << ck_last_error();
        // Element i of the call goes to out[kN - i] from in[kN - 1 - i].
        EXPECT_EQ(out[0], -1.0);
        EXPECT_EQ(out[kN + 1], -1.0);
        for (size_t i = 0; i < kN; ++i)
            ASSERT_EQ(out[kN - i], static_cast<double>(par::int_at(kN - 1 - i))) << i;
    }
}

// ---- 3. 2-D, C order and transposed ----

constexpr size_t kR = 300, kC = 1001;

TEST_F(Leakless, TwoDimensionalCOrder) {
    Array src("300 * 1001 * int32");
    for (size_t i = 0; i < kR * kC; ++i) as<int32_t>(src)[i] = par::int_at(i);
    Array serial("300 * 1001 * float64");
    ASSERT_EQ(ck_assign(serial.get(), src.get(), nullptr), CK_OK);
    for (const ck_eval_ctx &c : contexts()) {
        Array dst("300 * 1001 * float64");
        ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
        for (size_t i = 0; i < kR * kC; ++i)
            ASSERT_EQ(as<double>(dst)[i], static_cast<double>(par::int_at(i))) << i;
        EXPECT_TRUE(par::same_bytes(dst, serial));
    }
}

TEST_F(Leakless, TwoDimensionalTransposedSource) {
    // The same bytes seen in Fortran order: element (r, c) at buffer index r + c * kR.
    Array src("300 * 1001 * int32");
    auto *m = reinterpret_cast<ck_fixed_dim_arrmeta *>(ck_array_arrmeta(src.get()));
    m[0].stride = 4;
    m[1].stride = 4 * static_cast<intptr_t>(kR);
    for (size_t i = 0; i < kR * kC; ++i) as<int32_t>(src)[i] = par::int_at(i);
    Array serial("300 * 1001 * float64");
    ASSERT_EQ(ck_assign(serial.get(), src.get(), nullptr), CK_OK);
    for (const ck_eval_ctx &c : contexts()) {
        Array dst("300 * 1001 * float64");
        ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
        for (size_t r = 0; r < kR; ++r)
            for (size_t col = 0; col < kC; ++col)
                ASSERT_EQ(as<double>(dst)[r * kC + col], static_cast<double>(par::int_at(r + col * kR)))
                    << r << "," << col;
        EXPECT_TRUE(par::same_bytes(dst, serial));
    }
}

TEST_F(Leakless, TwoDimensionalThroughParallelStrided) {
    // The element kernel of a row (1001 * float64 <- 1001 * int32, transposed), split by hand.
    std::vector<int32_t> in(kR * kC);
    for (size_t i = 0; i < in.size(); ++i) in[i] = par::int_at(i);
    ck_fixed_dim_arrmeta dam = {static_cast<intptr_t>(kC), 8};
    ck_fixed_dim_arrmeta sam = {static_cast<intptr_t>(kC), 4 * static_cast<intptr_t>(kR)};
    par::Kernel k("1001 * float64", reinterpret_cast<char *>(&dam), "1001 * int32",
                  reinterpret_cast<char *>(&sam), nullptr);
    ASSERT_TRUE(k.ok());
    char *src = reinterpret_cast<char *>(in.data());
    const intptr_t ss = 4;
    for (const ck_eval_ctx &c : {par::ctx(2, 1), par::ctx(3, 8008), par::ctx(2, 0)}) {
        std::vector<double> out(kR * kC, -1.0);
        ASSERT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(out.data()),
                                      8 * static_cast<intptr_t>(kC), &src, &ss, kR, &c),
                  CK_OK) << ck_last_error();
        for (size_t r = 0; r < kR; ++r)
            for (size_t col = 0; col < kC; ++col)
                ASSERT_EQ(out[r * kC + col], static_cast<double>(par::int_at(r + col * kR)));
    }
}

TEST_F(Leakless, BroadcastMissingAndSizeOneOuterDimensions) {
    Array row("1001 * int32"), one("1 * 1001 * int32");
    for (size_t i = 0; i < kC; ++i) {
        as<int32_t>(row)[i] = par::int_at(i);
        as<int32_t>(one)[i] = par::int_at(i + 5);
    }
    Array scalar("int16", "-1234");
    for (const ck_eval_ctx &c : contexts()) {
        Array a("300 * 1001 * float64"), b("300 * 1001 * float64"), s("300 * 1001 * float64");
        ASSERT_EQ(ck_parallel_assign(a.get(), row.get(), &c), CK_OK) << ck_last_error();
        ASSERT_EQ(ck_parallel_assign(b.get(), one.get(), &c), CK_OK) << ck_last_error();
        ASSERT_EQ(ck_parallel_assign(s.get(), scalar.get(), &c), CK_OK) << ck_last_error();
        for (size_t r = 0; r < kR; ++r)
            for (size_t col = 0; col < kC; ++col) {
                ASSERT_EQ(as<double>(a)[r * kC + col], static_cast<double>(par::int_at(col)));
                ASSERT_EQ(as<double>(b)[r * kC + col], static_cast<double>(par::int_at(col + 5)));
                ASSERT_EQ(as<double>(s)[r * kC + col], -1234.0);
            }
    }
}

// A located error's message with its row indices ("at [25000]") replaced by "at [row]".
std::string without_row(const std::string &msg) {
    return std::regex_replace(msg, std::regex(R"( at (\[[0-9]+\])+)"), " at [row]");
}

TEST_F(Leakless, ShapeErrorsAreThoseOfCkAssign) {
    struct Case {
        const char *dst, *src;
    } cases[] = {
        {"100000 * float64", "99999 * int32"},            // outer sizes differ
        {"50000 * 2 * float64", "50000 * 3 * int32"},     // inner sizes differ
        {"50000 * 2 * float64", "7 * 50000 * 2 * int32"}, // more source dimensions
        {"50000 * 2 * float64", "50000 * var * int32"},   // var -> fixed: sizes at run time
    };
    for (const Case &k : cases) {
        SCOPED_TRACE(std::string(k.dst) + " <- " + k.src);
        Array dst(k.dst), ref(k.dst), src(k.src);
        const int want = ck_assign(ref.get(), src.get(), nullptr);
        const std::string want_msg = ck_last_error();
        ck_eval_ctx c = par::ctx(2, 64);
        ck_clear_error();
        EXPECT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), want);
        // Every row of the var source is unallocated: the serial run reports row 0, a parallel
        // one whichever failing row won (docs/kernels.md §8.4). The rest of the text is equal.
        EXPECT_EQ(without_row(ck_last_error()), without_row(want_msg));
    }
}

// ---- 4. ragged rows: N * var * float32 -> N * var * float64 ----

TEST_F(Leakless, VarRowsIntoUnallocatedDestination) {
    constexpr size_t rows = 6007;
    const auto lengths = par::row_lengths(rows, 42);
    Array src("6007 * var * float32");
    par::allocate_rows(src, lengths, 4);
    for (size_t r = 0; r < rows; ++r)
        for (size_t j = 0; j < lengths[r]; ++j) *par::var_elem<float>(src, r, j) = par::var_value(r, j);
    Array serial("6007 * var * float64");
    ASSERT_EQ(ck_assign(serial.get(), src.get(), nullptr), CK_OK);
    for (const ck_eval_ctx &c : {par::ctx(2, 1024), par::ctx(3, 16), par::ctx(2, 0)}) {
        Array dst("6007 * var * float64");  // every row unallocated: allocated by the workers
        ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
        for (size_t r = 0; r < rows; ++r) {
            ASSERT_EQ(par::var_len<double>(dst, r), lengths[r]) << r;
            ASSERT_EQ(par::var_len<double>(serial, r), lengths[r]) << r;
            for (size_t j = 0; j < lengths[r]; ++j) {
                ASSERT_EQ(*par::var_elem<double>(dst, r, j), static_cast<double>(par::var_value(r, j)))
                    << r << "," << j;
                ASSERT_EQ(*par::var_elem<double>(dst, r, j), *par::var_elem<double>(serial, r, j));
            }
        }
    }
}

TEST_F(Leakless, VarRowsIntoAllocatedDestinationAndFixedRows) {
    constexpr size_t rows = 4001;
    const auto lengths = par::row_lengths(rows, 7);
    Array src("4001 * var * float32");
    par::allocate_rows(src, lengths, 4);
    for (size_t r = 0; r < rows; ++r)
        for (size_t j = 0; j < lengths[r]; ++j) *par::var_elem<float>(src, r, j) = par::var_value(r, j);
    Array dst("4001 * var * float64");
    par::allocate_rows(dst, lengths, 8);
    ck_eval_ctx c = par::ctx(2, 512);
    ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
    for (size_t r = 0; r < rows; ++r)
        for (size_t j = 0; j < lengths[r]; ++j)
            ASSERT_EQ(*par::var_elem<double>(dst, r, j), static_cast<double>(par::var_value(r, j)));

    // fixed rows -> var rows (allocated with the source's size) and a scalar broadcast.
    Array fixed("4001 * 3 * int32");
    for (size_t i = 0; i < rows * 3; ++i) as<int32_t>(fixed)[i] = par::int_at(i);
    Array vdst("4001 * var * int64");
    ASSERT_EQ(ck_parallel_assign(vdst.get(), fixed.get(), &c), CK_OK) << ck_last_error();
    for (size_t r = 0; r < rows; ++r) {
        ASSERT_EQ(par::var_len<int64_t>(vdst, r), 3u);
        for (size_t j = 0; j < 3; ++j) ASSERT_EQ(*par::var_elem<int64_t>(vdst, r, j), par::int_at(r * 3 + j));
    }
}

// ---- 5. pointer gather (and scatter) ----

TEST_F(Leakless, PointerGather) {
    constexpr size_t n = 100003;
    Array src("100003 * pointer[float64]");  // targets exist, zero-filled, in the arena
    auto *ptrs = reinterpret_cast<char **>(src.data());
    for (size_t i = 0; i < n; ++i) {
        const double v = par::half_step_at(i * 3);
        std::memcpy(ptrs[i], &v, sizeof v);
    }
    Array serial("100003 * float64");
    ASSERT_EQ(ck_assign(serial.get(), src.get(), nullptr), CK_OK);
    for (const ck_eval_ctx &c : contexts()) {
        Array dst("100003 * float64");
        ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(as<double>(dst)[i], par::half_step_at(i * 3)) << i;
        EXPECT_TRUE(par::same_bytes(dst, serial));
    }
}

TEST_F(Leakless, PointerScatter) {
    constexpr size_t n = 100003;
    Array src("100003 * int32");
    for (size_t i = 0; i < n; ++i) as<int32_t>(src)[i] = par::int_at(i);
    ck_eval_ctx c = par::ctx(3, 2048);
    Array dst("100003 * pointer[float64]");
    ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
    auto *ptrs = reinterpret_cast<char **>(dst.data());
    for (size_t i = 0; i < n; ++i) {
        double v;
        std::memcpy(&v, ptrs[i], sizeof v);
        ASSERT_EQ(v, static_cast<double>(par::int_at(i))) << i;
    }
}

// ---- 6. unaligned source and destination ----

TEST_F(Leakless, UnalignedSourceAndDestination) {
    std::vector<char> in(4 * kN + 1), out(8 * kN + 1 + 8);
    for (size_t i = 0; i < kN; ++i) {
        const int32_t v = par::int_at(i);
        std::memcpy(in.data() + 1 + 4 * i, &v, 4);
    }
    ck_eval_ctx kc = par::ctx(0, 0, CK_ERRMODE_FRACTIONAL, CK_EVAL_SRC_UNALIGNED | CK_EVAL_DST_UNALIGNED);
    par::Kernel k("float64", "int32", &kc);
    ASSERT_TRUE(k.ok());
    char *src = in.data() + 1;
    const intptr_t ss = 4;
    std::vector<char> serial(out.size(), 0x5a);
    ASSERT_EQ(ck_call_strided(k.get(), serial.data() + 1, 8, &src, &ss, kN), CK_OK);
    for (const ck_eval_ctx &c : contexts()) {
        std::fill(out.begin(), out.end(), static_cast<char>(0x5a));
        ASSERT_EQ(ck_parallel_strided(k.get(), out.data() + 1, 8, &src, &ss, kN, &c), CK_OK)
            << ck_last_error();
        for (size_t i = 0; i < kN; ++i) {
            double v;
            std::memcpy(&v, out.data() + 1 + 8 * i, 8);
            ASSERT_EQ(v, static_cast<double>(par::int_at(i))) << i;
        }
        EXPECT_EQ(out[0], 0x5a);
        EXPECT_EQ(out[8 * kN + 1], 0x5a);
        EXPECT_EQ(out, serial);
    }
}

// ---- several user threads at once, each with its own parallel call ----

TEST_F(Leakless, ConcurrentCallersShareTheWorkers) {
    constexpr int callers = 4;
    Array src("100003 * int32");
    for (size_t i = 0; i < 100003; ++i) as<int32_t>(src)[i] = par::int_at(i);
    std::vector<std::unique_ptr<Array>> dsts;
    for (int t = 0; t < callers; ++t) dsts.push_back(std::make_unique<Array>("100003 * float64"));
    std::vector<int> rcs(callers, -1);
    std::vector<std::thread> ts;
    for (int t = 0; t < callers; ++t)
        ts.emplace_back([&, t] {
            ck_eval_ctx c = par::ctx(2 + t % 2, 1024u << t);
            for (int rep = 0; rep < 5 && (rep == 0 || rcs[t] == CK_OK); ++rep)
                rcs[t] = ck_parallel_assign(dsts[t]->get(), src.get(), &c);
        });
    for (auto &t : ts) t.join();
    for (int t = 0; t < callers; ++t) {
        ASSERT_EQ(rcs[t], CK_OK) << t;
        for (size_t i = 0; i < 100003; ++i)
            ASSERT_EQ(as<double>(*dsts[t])[i], static_cast<double>(par::int_at(i))) << t << " " << i;
    }
}

}  // namespace
