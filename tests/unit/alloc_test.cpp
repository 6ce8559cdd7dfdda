// tests/unit/alloc_test.cpp: the allocator front end: counters, the user-allocator switch,
// overflow checks, the failure hook.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

extern "C" {
#include "common/internal.h"
}
#include "ckernel/config.h"
#include "ckt.hpp"

namespace {

TEST(Alloc, CountersFollowEveryBlock) {
    ck_alloc_stats a, b;
    ck_get_alloc_stats(&a);
    void *p = ck_malloc(10), *q = ck_calloc(3, 7);
    ASSERT_NE(p, nullptr);
    ASSERT_NE(q, nullptr);
    for (int i = 0; i < 21; ++i) EXPECT_EQ(static_cast<char *>(q)[i], 0);
    void *r = ck__realloc(p, 100000);  // moving or not, still one block
    ASSERT_NE(r, nullptr);
    ck_get_alloc_stats(&b);
    EXPECT_EQ(b.allocations - a.allocations, 2u);
    EXPECT_EQ(b.live - a.live, 2);
    ck_free(r);
    ck_free(q);
    ck_free(nullptr);
    ck_get_alloc_stats(&b);
    EXPECT_EQ(b.frees - a.frees, 2u);
    EXPECT_EQ(b.live, a.live);
}

TEST(Alloc, OverflowingCallocIsNullNotAWrap) {
    ck_alloc_stats a, b;
    ck_get_alloc_stats(&a);
    EXPECT_EQ(ck_calloc(SIZE_MAX, 2), nullptr);
    EXPECT_EQ(ck_calloc(SIZE_MAX / 2 + 2, 2), nullptr);
    EXPECT_EQ(ck_malloc(SIZE_MAX), nullptr);
    ck_get_alloc_stats(&b);
    EXPECT_EQ(b.failures - a.failures, 3u);
    EXPECT_EQ(b.live, a.live);
}

TEST(Alloc, GoodSizeIsNeverSmaller) {
    for (size_t n : {size_t{0}, size_t{1}, size_t{129}, size_t{1000}, size_t{1} << 20}) {
        EXPECT_GE(ck__good_size(n), n);
    }
#if CK_WITH_JEMALLOC
    // 129 bytes and the size record (alignof(max_align_t): 16 bytes, 8 on s390x) take
    // jemalloc's 160-byte class: 144 usable (152).
    EXPECT_EQ(ck__good_size(129), 160u - alignof(max_align_t));
    EXPECT_NE(std::strstr(ck_allocator_name(), "jemalloc"), nullptr);
#else
    EXPECT_STREQ(ck_allocator_name(), "system malloc");
#endif
}

TEST(Alloc, SwitchingAllocatorsNeedsNoLiveBlocks) {
    void *p = ck_malloc(8);
    ck_allocator def = ck_default_allocator();
    EXPECT_EQ(ck_set_allocator(&def), CK_ERR_INVALID);
    EXPECT_NE(std::strstr(ck_last_error(), "still live"), nullptr) << ck_last_error();
    ck_free(p);
    ck_allocator incomplete = def;
    incomplete.realloc = nullptr;
    EXPECT_EQ(ck_set_allocator(&incomplete), CK_ERR_INVALID);
    ASSERT_EQ(ck_set_allocator(&def), CK_OK);
    EXPECT_STREQ(ck_allocator_name(), "user allocator");
    ASSERT_EQ(ck_set_allocator(nullptr), CK_OK);
    EXPECT_STRNE(ck_allocator_name(), "user allocator");
}

TEST(Alloc, FailureHookFailsExactlyTheNthRequest) {
    ASSERT_EQ(ckt_alloc_install(), CK_OK);
    ckt_alloc_fail_at(3);
    void *a = ck_malloc(1), *b = ck_malloc(1), *c = ck_malloc(1), *d = ck_malloc(1);
    EXPECT_NE(a, nullptr);
    EXPECT_NE(b, nullptr);
    EXPECT_EQ(c, nullptr);
    EXPECT_NE(d, nullptr);
    EXPECT_TRUE(ckt_alloc_failed());
    EXPECT_EQ(ckt_alloc_requests(), 4);
    ck_free(a);
    ck_free(b);
    ck_free(d);
    ckt_alloc_fail_at(0);
    EXPECT_EQ(ckt_alloc_uninstall(), CK_OK);
}

// Blocks allocated on one thread and freed on another, from many threads at once.
TEST(Alloc, CrossThreadAllocateAndFree) {
    constexpr int kThreads = 8, kPer = 2000;
    std::vector<std::vector<void *>> blocks(kThreads);
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; ++t)
        ts.emplace_back([&, t] {
            for (int i = 0; i < kPer; ++i) {
                size_t n = static_cast<size_t>(1 + (i * 37 + t) % 5000);
                char *p = static_cast<char *>(ck_malloc(n));
                ASSERT_NE(p, nullptr);
                std::memset(p, t, n);
                blocks[t].push_back(p);
            }
        });
    for (auto &t : ts) t.join();
    ts.clear();
    for (int t = 0; t < kThreads; ++t)
        ts.emplace_back([&, t] {
            for (void *p : blocks[(t + 1) % kThreads]) ck_free(p);
        });
    for (auto &t : ts) t.join();
    EXPECT_EQ(ckt::live_allocations(), 0);
}

}  // namespace
