// tests/parallel/ftz_test.cpp: CK_EVAL_FLUSH_DENORMALS and the caller's own mode. Every thread
// that runs a range runs it with FTZ and DAZ set under the flag (denormal results and inputs
// become zero), in the IEEE default without it whatever the caller set (in the caller's mode
// under CK_EVAL_HOST_FP_ENV), and afterwards every thread has its own MXCSR back: the caller's is checked directly, the workers' through a
// second call without the flag whose denormal results must survive. x86 only (elsewhere the
// flag does nothing, as documented).
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "par.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define CKT_HAVE_MXCSR 1
#endif

namespace {

using par::Leakless;

#ifdef CKT_HAVE_MXCSR
constexpr unsigned kDaz = 0x0040u, kFtz = 0x8000u;

// The control part of MXCSR: the exception flags (bits 0-5) are sticky status that any
// arithmetic (the test's own too) raises; they are not settings to restore.
unsigned csr() { return _mm_getcsr() & ~0x3Fu; }

// dst = src * factor, in double, at run time; records the MXCSR it ran under and the thread.
struct Scale : par::UserKernel<Scale> {
    double factor;
    std::atomic<unsigned> *csr_and, *csr_or;
    std::mutex *mu;
    std::set<std::thread::id> *ids;
    static int strided(ck_prefix *p, char *dst, intptr_t ds, char *const *src, const intptr_t *ss,
                       size_t n) {
        Scale *k = self(p);
        const unsigned csr = _mm_getcsr();
        k->csr_and->fetch_and(csr);
        k->csr_or->fetch_or(csr);
        {
            std::lock_guard<std::mutex> lock(*k->mu);
            k->ids->insert(std::this_thread::get_id());
        }
        const char *s = src[0];
        for (size_t i = 0; i < n; ++i, dst += ds, s += ss[0]) {
            double x;
            std::memcpy(&x, s, 8);
            const double y = x * k->factor;  // factor is read at run time: never folded
            std::memcpy(dst, &y, 8);
        }
        return CK_OK;
    }
};

struct ScaleRun {
    std::vector<double> out;
    unsigned csr_all = 0, csr_any = 0;  // AND and OR of the MXCSRs seen by the kernel
    size_t threads = 0;
};

ScaleRun scale(const std::vector<double> &in, double factor, int threads, unsigned flags) {
    std::atomic<unsigned> a{~0u}, o{0u};
    std::mutex mu;
    std::set<std::thread::id> ids;
    Scale k;
    k.factor = factor;
    k.csr_and = &a;
    k.csr_or = &o;
    k.mu = &mu;
    k.ids = &ids;
    ScaleRun r;
    r.out.assign(in.size(), -1.0);
    char *src = reinterpret_cast<char *>(const_cast<double *>(in.data()));
    const intptr_t ss = 8;
    ck_eval_ctx c = par::ctx(threads, 512, CK_ERRMODE_FRACTIONAL, flags);
    EXPECT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(r.out.data()), 8, &src, &ss,
                                  in.size(), &c),
              CK_OK) << ck_last_error();
    r.csr_all = a.load();
    r.csr_any = o.load();
    r.threads = ids.size();
    return r;
}

const double kTiny = std::ldexp(1.0, -1060);    // a denormal
const double kResult = std::ldexp(1.0, -1060);  // 2^-60 * 2^-1000: a denormal result

TEST_F(Leakless, FlushToZeroDuringTheCallOnlyOnEveryThread) {
    const unsigned before = csr();
    ASSERT_EQ(before & (kFtz | kDaz), 0u) << "the test process starts without FTZ/DAZ";
    const std::vector<double> normal(1 << 16, std::ldexp(1.0, -60));
    const std::vector<double> denormal(1 << 16, kTiny);
    for (int threads : {1, 2, 4}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        // FTZ: a denormal result is flushed, on every range.
        ScaleRun f = scale(normal, std::ldexp(1.0, -1000), threads, CK_EVAL_FLUSH_DENORMALS);
        EXPECT_EQ(csr(), before) << "the caller's MXCSR is restored";
        EXPECT_EQ(f.csr_all & (kFtz | kDaz), kFtz | kDaz) << "every range ran with FTZ and DAZ";
        for (double v : f.out) ASSERT_EQ(v, 0.0);
        // DAZ: a denormal input reads as zero even where the result would be normal.
        ScaleRun d = scale(denormal, std::ldexp(1.0, 100), threads, CK_EVAL_FLUSH_DENORMALS);
        EXPECT_EQ(csr(), before);
        for (double v : d.out) ASSERT_EQ(v, 0.0);

        // Without the flag, on the same threads (the workers of the calls above included),
        // denormals are kept: no thread kept FTZ/DAZ.
        ScaleRun n = scale(normal, std::ldexp(1.0, -1000), threads, 0);
        EXPECT_EQ(n.csr_any & (kFtz | kDaz), 0u) << "a thread kept FTZ/DAZ after a flushed call";
        for (double v : n.out) ASSERT_EQ(v, kResult);
        ScaleRun nd = scale(denormal, std::ldexp(1.0, 100), threads, 0);
        for (double v : nd.out) ASSERT_EQ(v, std::ldexp(1.0, -960));
        EXPECT_EQ(csr(), before);
    }
    // And on the caller itself, ordinary arithmetic keeps its denormals.
    volatile double x = std::ldexp(1.0, -60);
    EXPECT_NE(x * std::ldexp(1.0, -1000), 0.0) << "denormals work on the caller after the calls";
}

TEST_F(Leakless, ACallersOwnFlushIsNotTheKernelsButComesBack) {
    // A caller that runs with FTZ itself (set by hand, not by ckernel): its ranges (on the
    // workers too) run in the IEEE default, so the denormal results are kept, and the caller
    // has its FTZ back after the call.
    const unsigned before = csr();
    const unsigned saved = _mm_getcsr();
    _mm_setcsr(saved | kFtz);
    const std::vector<double> normal(1 << 16, std::ldexp(1.0, -60));
    ScaleRun r = scale(normal, std::ldexp(1.0, -1000), 2, 0);
    const unsigned after = csr();
    _mm_setcsr(saved);
    EXPECT_EQ(after, before | kFtz);
    EXPECT_EQ(r.csr_any & (kFtz | kDaz), 0u) << "a range ran with the caller's FTZ";
    for (double v : r.out) ASSERT_EQ(v, kResult);
}

TEST_F(Leakless, WithTheHostsModeTheCallersSettingsReachTheWorkers) {
    // CK_EVAL_HOST_FP_ENV: the caller's FTZ is the mode of every range, workers included.
    const unsigned before = csr();
    const unsigned saved = _mm_getcsr();
    _mm_setcsr(saved | kFtz);
    const std::vector<double> normal(1 << 16, std::ldexp(1.0, -60));
    ScaleRun r = scale(normal, std::ldexp(1.0, -1000), 2, CK_EVAL_HOST_FP_ENV);
    const unsigned after = csr();
    _mm_setcsr(saved);
    EXPECT_EQ(after, before | kFtz);
    EXPECT_EQ(r.csr_all & kFtz, kFtz) << "a worker ran without the caller's FTZ";
    for (double v : r.out) ASSERT_EQ(v, 0.0);
    // ... and the workers have their own mode back: a call without the flag keeps denormals.
    ScaleRun n = scale(normal, std::ldexp(1.0, -1000), 2, 0);
    EXPECT_EQ(n.csr_any & (kFtz | kDaz), 0u);
}

TEST_F(Leakless, FlushDenormalsThroughParallelAssign) {
    const unsigned before = csr();
    // float64 -> float32 of values that are denormal in float32: flushed under FTZ.
    ckt::Array src("100003 * float64");
    auto *v = reinterpret_cast<double *>(src.data());
    for (size_t i = 0; i < 100003; ++i) v[i] = std::ldexp(1.0, -140);
    for (size_t grain : {size_t{0}, size_t{1} << 30}) {  // parallel, and serial via ck_assign
        ckt::Array dst("100003 * float32"), keep("100003 * float32");
        ck_eval_ctx c = par::ctx(2, grain, CK_ERRMODE_NOCHECK, CK_EVAL_FLUSH_DENORMALS);
        ASSERT_EQ(ck_parallel_assign(dst.get(), src.get(), &c), CK_OK) << ck_last_error();
        EXPECT_EQ(csr(), before);
        for (size_t i = 0; i < 100003; ++i) ASSERT_EQ(reinterpret_cast<float *>(dst.data())[i], 0.0f) << i;
        c.flags = 0;
        ASSERT_EQ(ck_parallel_assign(keep.get(), src.get(), &c), CK_OK) << ck_last_error();
        for (size_t i = 0; i < 100003; ++i)
            ASSERT_EQ(reinterpret_cast<float *>(keep.data())[i], std::ldexp(1.0f, -140)) << i;
    }
}
#else
TEST_F(Leakless, FlushDenormalsIsANoOpHere) {
    GTEST_SKIP() << "no MXCSR on this architecture: CK_EVAL_FLUSH_DENORMALS does nothing";
}
#endif

}  // namespace
