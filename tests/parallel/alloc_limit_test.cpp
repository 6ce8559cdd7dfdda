// tests/parallel/alloc_limit_test.cpp: the allocation limit (ckernel/alloc.h) under threads:
// threads racing for the last bytes below it take exactly what fits, churning threads never
// hold more than it, and a refusal inside a parallel call's workers reaches the caller with
// the limit's message. Run under ThreadSanitizer in CI (tests/parallel/run_tsan.sh).
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "par.hpp"

namespace {

using ckt::Array;

// Every test starts and ends with nothing live and puts back the limit it found.
class AllocLimitThreads : public ::testing::Test {
  protected:
    void SetUp() override {
        saved_ = ck_get_alloc_limit();
        ck_jit_trim();  // compiled code kept for later builds is not a leak
        ASSERT_EQ(ck_get_alloc_live_bytes(), 0u) << "an earlier test left bytes live";
    }
    void TearDown() override {
        ck_set_alloc_limit(saved_);
        ck_jit_trim();
        EXPECT_EQ(ck_get_alloc_live_bytes(), 0u) << "the test left bytes live";
        EXPECT_EQ(ckt::live_allocations(), 0) << "the test left blocks live";
        ck_set_num_threads(0);
    }

  private:
    size_t saved_ = 0;
};

bool is_limit_message(const char *msg, size_t limit) {
    const std::string m = msg;
    return m.rfind("ckernel allocation limit: a request of ", 0) == 0 &&
           m.find(", above the limit of " + std::to_string(limit) + " (ck_set_alloc_limit)") !=
               std::string::npos;
}

// 8 threads released together ask for 400 blocks of 4096 bytes under a limit with room for
// 100 of them and 4095 bytes more: exactly 100 succeed, whatever the interleaving, and the
// other 300 are refused with the limit's message. Repeated to give the races a chance.
TEST_F(AllocLimitThreads, RacingThreadsTakeExactlyWhatFits) {
    constexpr int kThreads = 8, kTries = 50, kRounds = 20;
    constexpr size_t kBlock = 4096, kFit = 100;
    constexpr size_t kLimit = kFit * kBlock + kBlock - 1;  // 413695
    ck_set_alloc_limit(kLimit);
    for (int round = 0; round < kRounds; ++round) {
        std::atomic<int> ready{0};
        std::atomic<bool> go{false};
        std::vector<std::vector<void *>> got(kThreads);
        std::vector<int> refused(kThreads, 0), bad_messages(kThreads, 0);
        std::vector<std::thread> ts;
        for (int t = 0; t < kThreads; ++t) {
            ts.emplace_back([&, t] {
                ready.fetch_add(1);
                while (!go.load()) std::this_thread::yield();
                for (int i = 0; i < kTries; ++i) {
                    void *p = ck_malloc(kBlock);
                    if (p != nullptr) {
                        got[t].push_back(p);
                    } else {
                        ++refused[t];
                        if (ck_last_status() != CK_ERR_NOMEM || !is_limit_message(ck_last_error(), kLimit))
                            ++bad_messages[t];
                    }
                }
            });
        }
        while (ready.load() < kThreads) std::this_thread::yield();
        go.store(true);
        for (auto &th : ts) th.join();
        size_t held = 0;
        int refusals = 0, bad = 0;
        for (int t = 0; t < kThreads; ++t) {
            held += got[t].size();
            refusals += refused[t];
            bad += bad_messages[t];
        }
        EXPECT_EQ(held, kFit) << "round " << round;
        EXPECT_EQ(refusals, kThreads * kTries - static_cast<int>(kFit)) << "round " << round;
        EXPECT_EQ(bad, 0) << "round " << round;
        EXPECT_EQ(ck_get_alloc_live_bytes(), kFit * kBlock) << "round " << round;
        for (auto &v : got)
            for (void *p : v) ck_free(p);
        EXPECT_EQ(ck_get_alloc_live_bytes(), 0u) << "round " << round;
    }
}

// Threads contending for the one place under the limit: each takes a block, counts it,
// uncounts it and frees it, over and over, so that the place is asked for all the time. The
// counter goes up after a block exists and down before it is freed, so it never exceeds the
// blocks held: with the check-and-add atomic, never more than the one that fits.
TEST_F(AllocLimitThreads, ThreadsContendingForTheLastPlaceNeverBothGetIt) {
    constexpr int kThreads = 4, kCycles = 20000;
    constexpr size_t kBlock = 1000, kFit = 1;
    constexpr size_t kLimit = kFit * kBlock + kBlock - 1;  // 1999
    ck_set_alloc_limit(kLimit);
    std::atomic<int> held{0}, most{0}, successes{0}, bad_messages{0}, ready{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; ++t) {
        ts.emplace_back([&] {
            ready.fetch_add(1);
            while (!go.load()) std::this_thread::yield();
            for (int i = 0; i < kCycles; ++i) {
                void *p = ck_malloc(kBlock);
                if (p == nullptr) {
                    if (ck_last_status() != CK_ERR_NOMEM || !is_limit_message(ck_last_error(), kLimit))
                        bad_messages.fetch_add(1);
                    continue;
                }
                const int now = held.fetch_add(1) + 1;
                int m = most.load();
                while (now > m && !most.compare_exchange_weak(m, now)) {
                }
                successes.fetch_add(1);
                held.fetch_sub(1);
                ck_free(p);
            }
        });
    }
    while (ready.load() < kThreads) std::this_thread::yield();
    go.store(true);
    for (auto &th : ts) th.join();
    EXPECT_LE(most.load(), static_cast<int>(kFit));
    EXPECT_GT(successes.load(), 0);
    EXPECT_EQ(bad_messages.load(), 0);
}

// Threads allocating and freeing blocks of random sizes (ck_malloc and ck_calloc) against a
// limit: an observer sampling the live bytes, and every thread right after each success,
// never sees more than the limit.
TEST_F(AllocLimitThreads, ChurningThreadsNeverHoldMoreThanTheLimit) {
    constexpr int kThreads = 6, kSteps = 3000;
    constexpr size_t kLimit = 64 * 1024;
    ck_set_alloc_limit(kLimit);
    std::atomic<bool> done{false};
    std::atomic<size_t> seen_max{0};
    auto observe = [&] {
        const size_t live = ck_get_alloc_live_bytes();
        size_t m = seen_max.load();
        while (live > m && !seen_max.compare_exchange_weak(m, live)) {
        }
    };
    std::thread observer([&] {
        while (!done.load()) observe();
    });
    std::atomic<int> successes{0}, refusals{0}, bad_messages{0};
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; ++t) {
        ts.emplace_back([&, t] {
            std::mt19937 rng(static_cast<uint32_t>(1234 + t));
            std::vector<void *> mine;
            for (int i = 0; i < kSteps; ++i) {
                if (!mine.empty() && (rng() % 3 == 0 || mine.size() >= 16)) {
                    const size_t k = rng() % mine.size();
                    ck_free(mine[k]);
                    mine[k] = mine.back();
                    mine.pop_back();
                    continue;
                }
                const size_t n = 1 + rng() % 8192;
                void *p = (i % 2 == 0) ? ck_malloc(n) : ck_calloc(n, 1);
                if (p != nullptr) {
                    mine.push_back(p);
                    successes.fetch_add(1);
                    observe();
                } else {
                    refusals.fetch_add(1);
                    if (ck_last_status() != CK_ERR_NOMEM || !is_limit_message(ck_last_error(), kLimit))
                        bad_messages.fetch_add(1);
                }
            }
            for (void *p : mine) ck_free(p);
        });
    }
    for (auto &th : ts) th.join();
    done.store(true);
    observer.join();
    EXPECT_LE(seen_max.load(), kLimit);
    EXPECT_GT(successes.load(), 0);
    // 6 threads holding up to 16 blocks of 4 KiB on average: far more than 64 KiB is asked.
    EXPECT_GT(refusals.load(), 0);
    EXPECT_EQ(bad_messages.load(), 0);
}

// The destination's ragged rows are allocated by the workers from its arena: a limit that
// leaves room for the arrays but not for the rows is refused on a worker, and the caller gets
// CK_ERR_NOMEM with the limit's message (not the arena's or the parallel layer's own).
TEST_F(AllocLimitThreads, ARefusalInsideTheWorkersReachesTheCaller) {
    constexpr size_t rows = 6007;
    const auto lengths = par::row_lengths(rows, 3);
    {
        Array src("6007 * var * float32"), dst("6007 * var * float64");
        par::allocate_rows(src, lengths, 4);
        for (size_t r = 0; r < rows; ++r)
            for (size_t j = 0; j < lengths[r]; ++j) *par::var_elem<float>(src, r, j) = par::var_value(r, j);
        const size_t held = ck_get_alloc_live_bytes();
        const size_t limit = held + 1000;  // less than one arena chunk
        ck_set_alloc_limit(limit);
        ck_eval_ctx c = par::ctx(3, 256);
        const int rc = ck_parallel_assign(dst.get(), src.get(), &c);
        EXPECT_EQ(rc, CK_ERR_NOMEM) << ck_last_error();
        EXPECT_TRUE(is_limit_message(ck_last_error(), limit)) << ck_last_error();
        EXPECT_LE(ck_get_alloc_live_bytes(), limit);
        ck_set_alloc_limit(0);
    }
}

}  // namespace
