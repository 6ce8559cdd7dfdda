// tests/parallel/counts_test.cpp: counts that do not divide evenly into grains or threads
// (0, 1, fewer elements than threads, primes, one past a grain), for every thread count and
// a range of grains, through both entry points. Every element is checked against its
// formula and nothing outside the destination is written.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "par.hpp"

namespace {

using par::Leakless;

const size_t kCounts[] = {0, 1, 2, 3, 4, 5, 7, 13, 31, 64, 97, 127, 1009, 4099, 8193, 65537};
const int kThreads[] = {1, 2, 3, 4, 7};
const size_t kGrains[] = {1, 8, 24, 56, 4096, 4104, 0};

TEST_F(Leakless, ParallelStridedEveryCountThreadsAndGrain) {
    par::Kernel k("float64", "int32");
    ASSERT_TRUE(k.ok());
    std::vector<int32_t> in(65537);
    for (size_t i = 0; i < in.size(); ++i) in[i] = par::int_at(i);
    char *src = reinterpret_cast<char *>(in.data());
    const intptr_t ss = 4;
    for (size_t n : kCounts)
        for (int t : kThreads)
            for (size_t g : kGrains) {
                SCOPED_TRACE("count " + std::to_string(n) + " threads " + std::to_string(t) +
                             " grain " + std::to_string(g));
                std::vector<double> out(n + 2, NAN);
                ck_eval_ctx c = par::ctx(t, g);
                ASSERT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(out.data() + 1), 8,
                                              &src, &ss, n, &c),
                          CK_OK) << ck_last_error();
                ASSERT_TRUE(std::isnan(out[0]));
                ASSERT_TRUE(std::isnan(out[n + 1]));
                for (size_t i = 0; i < n; ++i)
                    ASSERT_EQ(out[i + 1], static_cast<double>(par::int_at(i))) << i;
            }
}

TEST_F(Leakless, ParallelAssignEveryCountAndThreads) {
    for (size_t n : kCounts) {
        const std::string dt = std::to_string(n) + " * float64";
        const std::string st = std::to_string(n) + " * int32";
        ckt::Array src(st.c_str());
        for (size_t i = 0; i < n; ++i) reinterpret_cast<int32_t *>(src.data())[i] = par::int_at(i);
        for (int t : kThreads)
            for (size_t g : {size_t{1}, size_t{40}, size_t{0}}) {
                SCOPED_TRACE("count " + std::to_string(n) + " threads " + std::to_string(t) +
                             " grain " + std::to_string(g));
                ckt::Array dst(dt.c_str());
                ck_eval_ctx c = par::ctx(t, g);
                ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
                for (size_t i = 0; i < n; ++i)
                    ASSERT_EQ(reinterpret_cast<double *>(dst.data())[i],
                              static_cast<double>(par::int_at(i))) << i;
            }
    }
}

TEST_F(Leakless, NonDimensionalOuterLevelsRunSerially) {
    // Scalar, var and pointer destinations: nothing to split, the result is ck_assign's.
    ck_eval_ctx c = par::ctx(4, 1);
    ckt::Array s("float32"), si("int16", "-7");
    ASSERT_EQ(ck_parallel_assign(s.get(), si.get(), &c), CK_OK);
    EXPECT_EQ(s.str(), "-7");
    ckt::Array v("var * float64"), vi("var * int8", "[1, 2, 3]");
    ASSERT_EQ(ck_parallel_assign(v.get(), vi.get(), &c), CK_OK) << ck_last_error();
    EXPECT_EQ(v.str(), "[1, 2, 3]");
    ckt::Array p("pointer[3 * float64]"), pi("3 * int32", "[4, 5, 6]");
    ASSERT_EQ(ck_parallel_assign(p.get(), pi.get(), &c), CK_OK) << ck_last_error();
    EXPECT_EQ(p.str(), "[4, 5, 6]");
    // A pointer source over a fixed destination is dereferenced first, as by ck_assign.
    ckt::Array q("3 * float64"), qi("pointer[3 * int32]", "[7, 8, 9]");
    ASSERT_EQ(ck_parallel_assign(q.get(), qi.get(), &c), CK_OK) << ck_last_error();
    EXPECT_EQ(q.str(), "[7, 8, 9]");
}

}  // namespace
