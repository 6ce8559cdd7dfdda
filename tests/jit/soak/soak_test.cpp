// tests/jit/soak_test.cpp: 10,000 distinct JIT kernels (each a nest never seen before, so
// each compiles) built, run, checked and destroyed on two threads: the compiled code is
// freed with its last kernel, so the resident set stays flat. Bounded in time: it stops at
// CK_JIT_SOAK_SECONDS (default 240) and says how far it got; CK_JIT_SOAK_KERNELS changes
// the count.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"

namespace {

long resident_kib() {
    FILE *f = std::fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;
    if (f != nullptr) {
        if (std::fscanf(f, "%ld %ld", &size, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return resident * 4;
}

long env_or(const char *name, long fallback) {
    const char *v = std::getenv(name);
    return v != nullptr && *v != '\0' ? std::atol(v) : fallback;
}

// One kernel: 16 int32 at a source stride of 4 * (1 + k) bytes into 16 float64.
bool build_run_check(long k, std::vector<int32_t> &src, double *dst) {
    ck_type *st = nullptr, *dt = nullptr;
    if (ck_type_parse("16 * int32", &st) != CK_OK || ck_type_parse("16 * float64", &dt) != CK_OK)
        return false;
    const intptr_t step = 1 + k;
    const ck_fixed_dim_arrmeta sm = {16, static_cast<intptr_t>(4 * step)}, dm = {16, 8};
    for (int i = 0; i < 16; ++i) src[static_cast<size_t>(i * step)] = static_cast<int32_t>(k + i);
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = CK_EVAL_JIT;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    bool ok = ck_make_assign(&b, &off, dt, reinterpret_cast<const char *>(&dm), st,
                             reinterpret_cast<const char *>(&sm), CK_REQUEST_SINGLE, &ctx) == CK_OK;
    ok = ok && ck_builder_root(&b)->destructor != nullptr; // the jit leaf, not a bare leaf
    char *s = reinterpret_cast<char *>(src.data());
    ok = ok && ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(dst), &s) == CK_OK;
    for (int i = 0; ok && i < 16; ++i) ok = dst[i] == static_cast<double>(k + i);
    ck_builder_destroy(&b);
    ck_type_decref(st);
    ck_type_decref(dt);
    return ok;
}

TEST(JitSoak, TenThousandKernelsLeaveTheResidentSetFlat) {
    ck_jit_info info;
    ck_jit_get_info(&info);
    if (!info.available) GTEST_SKIP() << "no JIT: " << info.status;
    const long total = env_or("CK_JIT_SOAK_KERNELS", 10000);
    const double budget = static_cast<double>(env_or("CK_JIT_SOAK_SECONDS", 240));
    const size_t codes0 = info.cached_codes;
    const auto t0 = std::chrono::steady_clock::now();
    std::atomic<long> next{0}, done{0}, wrong{0};
    std::atomic<long> rss_warm{0};
    const long warm = total / 10;
    auto worker = [&] {
        std::vector<int32_t> src(16 * (total + 2));
        double dst[16];
        for (;;) {
            const long k = next.fetch_add(1);
            if (k >= total) return;
            if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >
                budget)
                return;
            if (!build_run_check(k, src, dst)) wrong++;
            if (done.fetch_add(1) + 1 == warm) rss_warm = resident_kib();
        }
    };
    std::thread a(worker), b(worker);
    a.join();
    b.join();
    const long rss_end = resident_kib();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ck_jit_get_info(&info);
    std::printf("soak: %ld of %ld kernels in %.1f s; resident %ld KiB after %ld, %ld KiB at the "
                "end; %zu compiles in all\n",
                done.load(), total, secs, rss_warm.load(), warm, rss_end, info.compiles);
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_GE(done.load(), warm * 2) << "the time budget stopped the soak too early to judge";
    EXPECT_EQ(info.cached_codes, codes0) << "every kernel's code was freed";
    // Flat: LLVM's and the allocator's caches may settle a little after the warm-up.
    EXPECT_LT(rss_end - rss_warm.load(), 16 * 1024) << "resident set grew";
}

}  // namespace
