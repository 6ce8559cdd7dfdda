// tests/parallel/reduce_test.cpp: ck_parallel_reduce gives the serial reduction's bits on 1,
// 2 and 16 threads and under every CPU target this machine runs: float sums, products, min
// and max of one contiguous run (split into chunks whose tree the calling thread finishes),
// exact integer and bool folds, rows split over a kept outer dimension (fixed and ragged),
// and the shapes that stay serial. The reference is the serial ck_reduce under the baseline
// target; that the one-run split really ran is seen in its one allocation (the chunks'
// partial results), which the serial kernel does not make.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "par.hpp"

namespace {

using par::ctx;

struct Wrapped {
    Wrapped(const char *type, std::vector<char> &data, const char *arrmeta = nullptr) : t(type) {
        EXPECT_EQ(ck_array_wrap(t.get(), arrmeta, data.data(), nullptr, &a), CK_OK) << ck_last_error();
    }
    ~Wrapped() { ck_array_free(a); }
    ckt::Type t;
    ck_array *a = nullptr;
};

std::vector<unsigned char> bytes_of(const ck_array *a) {
    const char *d = ck_array_data(a);
    return std::vector<unsigned char>(d, d + ck_type_data_size(ck_array_type(a)));
}

// The reduction `name` over `axes` of src into a new array: serially, or in parallel.
std::vector<unsigned char> run(const char *name, const ck_array *src, std::vector<int> axes,
                               int threads, size_t grain, int *allocations = nullptr) {
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_reduction_lookup(name, &c), CK_OK);
    ck_reduce_spec r = {c, axes.empty() ? nullptr : axes.data(), static_cast<int>(axes.size()), 0};
    ck_type *rt = nullptr;
    EXPECT_EQ(ck_reduce_result_type(&r, ck_array_type(src), nullptr, &rt), CK_OK) << ck_last_error();
    ck_array *out = nullptr;
    EXPECT_EQ(ck_array_new(rt, &out), CK_OK);
    ck_type_decref(rt);
    ck_alloc_stats before, after;
    ck_get_alloc_stats(&before);
    if (threads == 0) {
        EXPECT_EQ(ck_reduce(&r, out, src, nullptr), CK_OK) << ck_last_error();
    } else {
        const ck_eval_ctx cx = ctx(threads, grain);
        EXPECT_EQ(ck_parallel_reduce(&r, out, src, &cx), CK_OK) << ck_last_error();
    }
    ck_get_alloc_stats(&after);
    if (allocations != nullptr) *allocations = static_cast<int>(after.allocations - before.allocations);
    std::vector<unsigned char> b = bytes_of(out);
    ck_array_free(out);
    ck_callable_decref(c);
    return b;
}

// Every target, 1, 2 and 16 threads: the serial baseline's bits.
void expect_same_everywhere(const char *name, const ck_array *src, std::vector<int> axes,
                            size_t grain = 0) {
    ASSERT_EQ(ck_cpu_set_target_cap(CK_CPU_BASELINE), CK_OK);
    const std::vector<unsigned char> want = run(name, src, axes, 0, grain);
    for (ck_cpu_target t : ckt::runnable_targets()) {
        ASSERT_EQ(ck_cpu_set_target_cap(t), CK_OK);
        EXPECT_EQ(run(name, src, axes, 0, grain), want) << name << " serial on " << ck_cpu_target_name(t);
        for (int threads : {1, 2, 16}) {
            EXPECT_EQ(run(name, src, axes, threads, grain), want)
                << name << " on " << threads << " threads, " << ck_cpu_target_name(t);
        }
    }
    ck_cpu_set_target_cap(ckt::best_compiled_target());
}

class ParallelReduce : public par::Leakless {};

std::vector<char> random_doubles(size_t n, uint64_t seed, double lo, double hi) {
    std::vector<char> b(n * 8);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    for (size_t i = 0; i < n; i++) {
        const double v = u(rng) * std::ldexp(1.0, static_cast<int>(rng() % 40) - 20);
        std::memcpy(&b[i * 8], &v, 8);
    }
    return b;
}

TEST_F(ParallelReduce, OneRunOfFloatsGivesTheSerialBits) {
    const size_t n = (size_t(1) << 20) + 777;  // 16 chunks and a tail
    std::vector<char> d = random_doubles(n, 1, -1, 1);
    const std::string type = std::to_string(n) + " * float64";
    Wrapped a(type.c_str(), d);
    for (const char *name : {"sum", "min", "max"}) expect_same_everywhere(name, a.a, {});
    // the split ran: the chunks' partial results are its one allocation
    if (par::tbb_backend()) {
        int allocations = -1;
        run("sum", a.a, {}, 2, 0, &allocations);
        EXPECT_GE(allocations, 1);
        run("sum", a.a, {}, 1, 0, &allocations);
        EXPECT_EQ(allocations, 0) << "one thread: the serial kernel, built inline";
    }
    // products near 1, float32 sums, a NaN anywhere
    std::vector<char> p = random_doubles(n, 2, 0.999, 1.001);
    for (size_t i = 0; i < n; i++) {
        double v;
        std::memcpy(&v, &p[i * 8], 8);
        v = 1.0 + (v - 1.0) * 1e-3;
        std::memcpy(&p[i * 8], &v, 8);
    }
    Wrapped pa(type.c_str(), p);
    expect_same_everywhere("prod", pa.a, {});
    std::vector<char> f(n * 4);
    for (size_t i = 0; i < n; i++) {
        double v;
        std::memcpy(&v, &d[i * 8], 8);
        const float x = static_cast<float>(v);
        std::memcpy(&f[i * 4], &x, 4);
    }
    const std::string ftype = std::to_string(n) + " * float32";
    Wrapped fa(ftype.c_str(), f);
    expect_same_everywhere("sum", fa.a, {});
    const double nan = std::nan("");
    std::memcpy(&d[(n / 3) * 8], &nan, 8);
    Wrapped na(type.c_str(), d);
    expect_same_everywhere("max", na.a, {});
}

TEST_F(ParallelReduce, TwoDimensionsOfOneRunAndExactFolds) {
    // a C-order matrix reduced over both axes is one run too
    std::vector<char> d = random_doubles(1024 * 1031, 3, -1, 1);
    Wrapped a("1024 * 1031 * float64", d);
    expect_same_everywhere("sum", a.a, {});
    expect_same_everywhere("sum", a.a, {0, 1});
    // int64 sums wrap; exact, so any split folds to the same
    std::vector<char> ib(300000 * 8);
    std::mt19937_64 rng(4);
    for (size_t i = 0; i < 300000; i++) {
        const uint64_t v = rng();
        std::memcpy(&ib[i * 8], &v, 8);
    }
    Wrapped ia("300000 * int64", ib);
    for (const char *name : {"sum", "prod", "min", "max"}) expect_same_everywhere(name, ia.a, {});
    std::vector<char> bb(300000, 1);
    bb[123456] = 0;
    Wrapped ba("300000 * bool", bb);
    for (const char *name : {"all", "any"}) expect_same_everywhere(name, ba.a, {});
}

TEST_F(ParallelReduce, RowsSplitOverAKeptOuterDimension) {
    std::vector<char> d = random_doubles(2000 * 300, 5, -1, 1);
    Wrapped a("2000 * 300 * float64", d);
    expect_same_everywhere("sum", a.a, {1}, 4096);
    expect_same_everywhere("max", a.a, {-1}, 4096);
    expect_same_everywhere("sum", a.a, {0}, 4096);  // serial: the outer axis is reduced
    std::vector<char> e = random_doubles(200 * 30 * 20, 6, -1, 1);
    Wrapped b("200 * 30 * 20 * float64", e);
    expect_same_everywhere("sum", b.a, {1, 2}, 4096);
    expect_same_everywhere("prod", b.a, {2}, 4096);
    // ragged rows, from a literal
    std::string lit = "[";
    for (int i = 0; i < 3000; i++) {
        lit += i ? ", [" : "[";
        for (int j = 0; j < i % 17 + 1; j++) {
            lit += (j ? ", " : "") + std::to_string((i * 31 + j * 7) % 97 - 48) + ".25";
        }
        lit += "]";
    }
    lit += "]";
    ckt::Array v("3000 * var * float32", lit.c_str());
    expect_same_everywhere("sum", v.get(), {1}, 4096);
    expect_same_everywhere("min", v.get(), {1}, 4096);
}

// Rows read through pointers: each row copied into its own scratch, folded as serially.
TEST_F(ParallelReduce, RowsThroughPointers) {
    std::string lit = "[";
    for (int i = 0; i < 3000; i++) {
        lit += i ? ", [" : "[";
        for (int j = 0; j < 5; j++) {
            lit += (j ? ", " : "") + std::to_string((i * 31 + j * 7) % 97 - 48) + ".125";
        }
        lit += "]";
    }
    lit += "]";
    ckt::Array p("3000 * pointer[5 * float64]", lit.c_str());
    expect_same_everywhere("sum", p.get(), {1}, 4096);
    expect_same_everywhere("max", p.get(), {0}, 4096);
}

TEST_F(ParallelReduce, ErrorsAreTheSerialOnes) {
    ckt::Array a("2 * 0 * int32", "[[], []]"), out("2 * int32");
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_reduction_lookup("min", &c), CK_OK);
    const int axis = 1;
    ck_reduce_spec r = {c, &axis, 1, 0};
    const ck_eval_ctx cx = ctx(2, 1);
    EXPECT_EQ(ck_parallel_reduce(&r, out.get(), a.get(), &cx), CK_ERR_INVALID);
    EXPECT_EQ(std::string(ck_last_error()), "minimum: no elements to reduce (dimension 1 has size "
                                            "0), and minimum has no identity");
    ckt::Array v("3 * var * int32", "[[1], [], [2]]"), vo("3 * int32");
    EXPECT_EQ(ck_parallel_reduce(&r, vo.get(), v.get(), &cx), CK_ERR_INVALID);
    EXPECT_EQ(std::string(ck_last_error()), "reduced dimension 1 at [1]: a row of no elements to "
                                            "reduce, and minimum has no identity");
    EXPECT_EQ(ck_parallel_reduce(nullptr, vo.get(), v.get(), &cx), CK_ERR_INVALID);
    const ck_eval_ctx bad = ctx(-1);
    EXPECT_EQ(ck_parallel_reduce(&r, vo.get(), v.get(), &bad), CK_ERR_INVALID);
    ck_callable_decref(c);
}

TEST_F(ParallelReduce, AllocationFailureAtEveryPoint) {
    std::vector<char> d = random_doubles(300000, 7, -1, 1);
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_reduction_lookup("sum", &c), CK_OK);
    ck_reduce_spec r = {c, nullptr, 0, 0};
    double result = 0;
    const ck_eval_ctx cx = ctx(2);
    const int64_t points = ckt::for_each_alloc_failure([&]() {
        ck_type *st = nullptr;
        ck_array *src = nullptr, *out = nullptr;
        int rc = ck_type_parse("300000 * float64", &st);
        if (rc == CK_OK) rc = ck_array_wrap(st, nullptr, d.data(), nullptr, &src);
        if (rc == CK_OK) {
            rc = ck_array_wrap(ck_type_scalar(CK_TYPE_FLOAT64), nullptr,
                               reinterpret_cast<char *>(&result), nullptr, &out);
        }
        if (rc == CK_OK) rc = ck_parallel_reduce(&r, out, src, &cx);
        ck_array_free(out);
        ck_array_free(src);
        ck_type_decref(st);
        return rc;
    });
    EXPECT_GE(points, 3);
    ck_callable_decref(c);
}

}  // namespace
