// tests/parallel/api_test.cpp: the settings (ck_set_num_threads / ck_get_num_threads), the
// backend name, argument checks, and how many threads a call really uses.
#include <gtest/gtest.h>

#include <sched.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "par.hpp"

namespace {

using par::Leakless;

// Hardware threads available to this process, counted independently of oneTBB.
int affinity_threads() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return static_cast<int>(std::thread::hardware_concurrency());
    return CPU_COUNT(&set);
}

TEST_F(Leakless, BackendNameMatchesTheBuild) {
    const std::string name = ck_parallel_backend();
#if CKT_WITH_TBB
    EXPECT_EQ(name.rfind("oneTBB 20", 0), 0u) << name;
    EXPECT_GT(name.size(), std::string("oneTBB 20").size()) << name;
#else
    EXPECT_EQ(name, "serial");
#endif
}

TEST_F(Leakless, NumThreadsDefaultsToTheHardwareAndCanBeSet) {
    ASSERT_EQ(ck_set_num_threads(0), CK_OK);
    const int hw = par::tbb_backend() ? affinity_threads() : 1;
    EXPECT_EQ(ck_get_num_threads(), hw);
    ASSERT_EQ(ck_set_num_threads(3), CK_OK);
    EXPECT_EQ(ck_get_num_threads(), par::tbb_backend() ? 3 : 1);
    ASSERT_EQ(ck_set_num_threads(1), CK_OK);
    EXPECT_EQ(ck_get_num_threads(), 1);
    ASSERT_EQ(ck_set_num_threads(64), CK_OK);  // more than the machine: allowed
    EXPECT_EQ(ck_get_num_threads(), par::tbb_backend() ? 64 : 1);

    ck_clear_error();
    EXPECT_EQ(ck_set_num_threads(-1), CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(), "ck_set_num_threads: -1 threads; use a positive count, or 0 "
                                  "for all hardware threads");
    EXPECT_EQ(ck_get_num_threads(), par::tbb_backend() ? 64 : 1);  // unchanged
    ASSERT_EQ(ck_set_num_threads(0), CK_OK);
    EXPECT_EQ(ck_get_num_threads(), hw);
}

TEST_F(Leakless, SetNumThreadsIsSafeFromManyThreads) {
    std::vector<std::thread> ts;
    for (int t = 1; t <= 4; ++t)
        ts.emplace_back([t] {
            for (int i = 0; i < 1000; ++i) {
                EXPECT_EQ(ck_set_num_threads(t), CK_OK);
                const int n = ck_get_num_threads();
                EXPECT_TRUE(n >= 1 && n <= 4) << n;
            }
        });
    for (auto &t : ts) t.join();
}

TEST_F(Leakless, ArgumentChecks) {
    par::Kernel k("float64", "int32");
    ASSERT_TRUE(k.ok());
    double out[4] = {0, 0, 0, 0};
    int32_t in[4] = {1, 2, 3, 4};
    char *src = reinterpret_cast<char *>(in);
    const intptr_t ss = 4;
    ck_eval_ctx bad = par::ctx(-2);

    EXPECT_EQ(ck_parallel_strided(nullptr, reinterpret_cast<char *>(out), 8, &src, &ss, 4, nullptr),
              CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(), "ck_parallel_strided: NULL kernel or kernel function");
    ck_prefix empty = {nullptr, nullptr};
    EXPECT_EQ(ck_parallel_strided(&empty, reinterpret_cast<char *>(out), 8, &src, &ss, 4, nullptr),
              CK_ERR_INVALID);
    EXPECT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(out), 8, nullptr, &ss, 4, nullptr),
              CK_ERR_INVALID);
    EXPECT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(out), 8, &src, nullptr, 4, nullptr),
              CK_ERR_INVALID);
    EXPECT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(out), 8, &src, &ss, 4, &bad),
              CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(), "ck_parallel_strided: max_threads is -2 in the evaluation "
                                  "context; use a positive count, or 0 for ck_get_num_threads()");
    // count 0 touches nothing, even with no source.
    EXPECT_EQ(ck_parallel_strided(k.get(), nullptr, 8, nullptr, nullptr, 0, nullptr), CK_OK);
    EXPECT_EQ(out[0], 0.0);
    ASSERT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(out), 8, &src, &ss, 4, nullptr),
              CK_OK) << ck_last_error();
    EXPECT_EQ(out[0], 1.0);
    EXPECT_EQ(out[3], 4.0);

    ckt::Array a("4 * float64"), b("4 * int32", "[1, 2, 3, 4]");
    EXPECT_EQ(ck_parallel_assign(nullptr, b.get(), nullptr), CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(), "ck_parallel_assign: NULL array");
    EXPECT_EQ(ck_parallel_assign(a.get(), nullptr, nullptr), CK_ERR_INVALID);
    EXPECT_EQ(ck_parallel_assign(a.get(), b.get(), &bad), CK_ERR_INVALID);
    EXPECT_EQ(a.str(), "[0, 0, 0, 0]");
    ck_eval_ctx badmode = par::ctx(2, 1, static_cast<ck_errmode>(7) /* in the enum's range (C++), not a mode */);
    EXPECT_EQ(ck_parallel_assign(a.get(), b.get(), &badmode), CK_ERR_INVALID);
    EXPECT_EQ(a.str(), "[0, 0, 0, 0]");
}

// A kernel that records which threads ran it (test-side bookkeeping under a mutex).
struct ThreadRecorder : par::UserKernel<ThreadRecorder> {
    std::mutex *mu;
    std::set<std::thread::id> *ids;
    static int strided(ck_prefix *p, char *dst, intptr_t ds, char *const *src, const intptr_t *ss,
                       size_t n) {
        ThreadRecorder *k = self(p);
        {
            std::lock_guard<std::mutex> lock(*k->mu);
            k->ids->insert(std::this_thread::get_id());
        }
        const char *s = src[0];
        for (size_t i = 0; i < n; ++i, dst += ds, s += ss[0]) std::memcpy(dst, s, 8);
        return CK_OK;
    }
};

std::set<std::thread::id> threads_used(int max_threads, size_t count, int repeats) {
    std::mutex mu;
    std::set<std::thread::id> ids;
    ThreadRecorder k;
    k.mu = &mu;
    k.ids = &ids;
    std::vector<double> in(count), out(count);
    for (size_t i = 0; i < count; ++i) in[i] = static_cast<double>(i);
    char *src = reinterpret_cast<char *>(in.data());
    const intptr_t ss = 8;
    ck_eval_ctx c = par::ctx(max_threads, 64);
    for (int r = 0; r < repeats; ++r) {
        EXPECT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(out.data()), 8, &src, &ss,
                                      count, &c),
                  CK_OK);
    }
    EXPECT_EQ(out, in);
    return ids;
}

TEST_F(Leakless, NeverMoreThreadsThanAsked) {
    const auto one = threads_used(1, 4096, 5);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(*one.begin(), std::this_thread::get_id());  // serial: on the caller
    for (int t : {2, 3}) EXPECT_LE(threads_used(t, 4096, 20).size(), static_cast<size_t>(t));
    // The default follows ck_set_num_threads.
    ASSERT_EQ(ck_set_num_threads(1), CK_OK);
    const auto dflt = threads_used(0, 4096, 5);
    EXPECT_EQ(dflt.size(), 1u);
    ASSERT_EQ(ck_set_num_threads(0), CK_OK);
}

// The caller's ranges wait (up to 20 s) until another thread has run a range, so the test
// shows that workers take part without depending on how fast they wake up.
struct WaitForWorker : par::UserKernel<WaitForWorker> {
    std::thread::id caller;
    std::atomic<int> *worker_ranges;
    static int strided(ck_prefix *p, char *, intptr_t, char *const *, const intptr_t *, size_t) {
        WaitForWorker *k = self(p);
        if (std::this_thread::get_id() != k->caller) {
            k->worker_ranges->fetch_add(1);
            return CK_OK;
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (k->worker_ranges->load() == 0 && std::chrono::steady_clock::now() < deadline)
            std::this_thread::yield();
        return CK_OK;
    }
};

TEST_F(Leakless, WorkersTakePartWhenThereAreSeveralCores) {
    if (!par::tbb_backend() || affinity_threads() < 2) GTEST_SKIP() << "one hardware thread";
    std::vector<double> out(4096);
    double one = 1.0;
    char *src = reinterpret_cast<char *>(&one);
    const intptr_t ss = 0;
    for (int trial = 0; trial < 3; ++trial) {
        std::atomic<int> worker_ranges{0};
        WaitForWorker k;
        k.caller = std::this_thread::get_id();
        k.worker_ranges = &worker_ranges;
        ck_eval_ctx c = par::ctx(2, 64);
        ASSERT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(out.data()), 8, &src, &ss,
                                      out.size(), &c),
                  CK_OK);
        EXPECT_GE(worker_ranges.load(), 1) << "no worker ran a range within 20 s";
    }
}

}  // namespace
