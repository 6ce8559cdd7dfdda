// tests/parallel/fp_flags_test.cpp: the exception flags a parallel call's ranges raise on
// worker threads are the caller's after the call, as after a serial call; the caller's own
// flags stay raised. (Whether a worker ran a range depends on the machine's load: when none
// did, the test says so and skips.)
#include <gtest/gtest.h>

#include <atomic>
#include <cfenv>
#include <cstring>
#include <thread>
#include <vector>

#include "par.hpp"

namespace {

using par::Leakless;

// dst = src; a range that runs on another thread than the caller's divides by zero.
struct RaiseOffCaller : par::UserKernel<RaiseOffCaller> {
    std::thread::id caller;
    std::atomic<int> *off_caller;
    static int strided(ck_prefix *p, char *dst, intptr_t ds, char *const *src, const intptr_t *ss,
                       size_t n) {
        RaiseOffCaller *k = self(p);
        if (std::this_thread::get_id() != k->caller) {
            volatile double one = 1.0, zero = 0.0;
            volatile double inf = one / zero;
            (void)inf;
            k->off_caller->fetch_add(1);
        }
        const char *s = src[0];
        for (size_t i = 0; i < n; ++i, dst += ds, s += ss[0]) std::memcpy(dst, s, 8);
        return CK_OK;
    }
};

TEST_F(Leakless, FlagsRaisedOnWorkersAreTheCallers) {
    int runs_with_workers = 0;
    for (int attempt = 0; attempt < 20 && runs_with_workers < 3; ++attempt) {
        std::atomic<int> off{0};
        RaiseOffCaller k;
        k.caller = std::this_thread::get_id();
        k.off_caller = &off;
        const std::vector<double> in(1 << 18, 1.5);
        std::vector<double> out(in.size());
        char *src = reinterpret_cast<char *>(const_cast<double *>(in.data()));
        const intptr_t ss = 8;
        std::feclearexcept(FE_ALL_EXCEPT);
        volatile double big = 1e308;
        volatile double over = big * 10.0;  // the caller's own flag
        (void)over;
        ck_eval_ctx c = par::ctx(2, 4096);
        ASSERT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(out.data()), 8, &src, &ss,
                                      in.size(), &c),
                  CK_OK)
            << ck_last_error();
        const int raised = std::fetestexcept(FE_ALL_EXCEPT);
        std::feclearexcept(FE_ALL_EXCEPT);
        EXPECT_TRUE(raised & FE_OVERFLOW) << "the caller's own flag was lost";
        if (off.load() == 0) continue;  // the caller ran every range itself
        ++runs_with_workers;
        EXPECT_TRUE(raised & FE_DIVBYZERO) << "a worker's division by zero did not reach the caller";
        EXPECT_EQ(std::memcmp(out.data(), in.data(), in.size() * 8), 0);
    }
    if (runs_with_workers == 0) GTEST_SKIP() << "no worker ran a range in 20 calls";
}

}  // namespace
