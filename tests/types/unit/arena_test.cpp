// tests/types/unit/arena_test.cpp: the arena memory block: alignment, zero fill, chunk
// growth, dedicated chunks for large requests, errors, and 8 threads allocating at once
// (every allocation disjoint, aligned, zero, and intact after all threads finish).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "ckt.hpp"

namespace {

class TypesArena : public ::testing::Test {
protected:
    void TearDown() override { EXPECT_EQ(ckt::live_allocations(), 0); }
};

bool all_zero(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (p[i] != 0) {
            return false;
        }
    }
    return true;
}

TEST_F(TypesArena, AlignedZeroedAndDisjoint) {
    ck_memblock *a = nullptr;
    ASSERT_EQ(ck_arena_new(0, &a), CK_OK);
    EXPECT_EQ(ck_memblock_get_kind(a), CK_MEMBLOCK_ARENA);
    EXPECT_EQ(ck_memblock_data(a), nullptr);
    EXPECT_EQ(ck_memblock_size(a), 0u);
    EXPECT_EQ(ck_arena_bytes_used(a), 0u);
    struct Piece {
        char *p;
        size_t n;
    };
    std::vector<Piece> pieces;
    size_t requested = 0;
    for (size_t i = 0; i < 2000; i++) {
        const size_t align = size_t{1} << (i % 7); // 1 .. 64
        const size_t n = (i * 37) % 300;
        char *p = nullptr;
        ASSERT_EQ(ck_arena_alloc(a, n, align, &p), CK_OK) << ck_last_error();
        ASSERT_NE(p, nullptr);
        ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u);
        ASSERT_TRUE(all_zero(p, n));
        std::memset(p, static_cast<int>(i % 251) + 1, n);
        pieces.push_back({p, n});
        requested += n;
    }
    // Nothing was overwritten by a later allocation.
    for (size_t i = 0; i < pieces.size(); i++) {
        for (size_t k = 0; k < pieces[i].n; k++) {
            ASSERT_EQ(static_cast<unsigned char>(pieces[i].p[k]), i % 251 + 1);
        }
    }
    EXPECT_GE(ck_arena_bytes_used(a), requested);
    ck_memblock_decref(a);
}

TEST_F(TypesArena, ZeroSizeGivesAlignedNonNullPointers) {
    ck_memblock *a = nullptr;
    ASSERT_EQ(ck_arena_new(0, &a), CK_OK);
    for (size_t align : {1, 2, 8, 16, 4096}) {
        char *p = nullptr;
        ASSERT_EQ(ck_arena_alloc(a, 0, align, &p), CK_OK);
        EXPECT_NE(p, nullptr);
        EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u);
    }
    ck_memblock_decref(a);
}

TEST_F(TypesArena, LargeRequestsGetTheirOwnChunk) {
    ck_memblock *a = nullptr;
    ASSERT_EQ(ck_arena_new(256, &a), CK_OK);
    char *small1 = nullptr, *big = nullptr, *small2 = nullptr;
    ASSERT_EQ(ck_arena_alloc(a, 16, 8, &small1), CK_OK);
    ASSERT_EQ(ck_arena_alloc(a, 100000, 64, &big), CK_OK);
    ASSERT_EQ(ck_arena_alloc(a, 16, 8, &small2), CK_OK);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(big) % 64, 0u);
    EXPECT_TRUE(all_zero(big, 100000));
    // The small allocations still come from the first chunk, one after the other.
    EXPECT_EQ(small2, small1 + 16);
    std::memset(big, 0x5a, 100000);
    EXPECT_TRUE(all_zero(small1, 32));
    ck_memblock_decref(a);
}

TEST_F(TypesArena, RejectsBadArguments) {
    ck_memblock *a = nullptr;
    ASSERT_EQ(ck_arena_new(0, &a), CK_OK);
    char *p = nullptr;
    EXPECT_EQ(ck_arena_alloc(a, 8, 0, &p), CK_ERR_INVALID);
    EXPECT_EQ(ck_arena_alloc(a, 8, 3, &p), CK_ERR_INVALID);
    EXPECT_EQ(ck_arena_alloc(a, 8, 8192, &p), CK_ERR_INVALID);
    EXPECT_EQ(ck_arena_alloc(nullptr, 8, 8, &p), CK_ERR_INVALID);
    EXPECT_EQ(ck_arena_alloc(a, SIZE_MAX - 2, 8, &p), CK_ERR_NOMEM);
    ck_memblock *d = nullptr;
    ASSERT_EQ(ck_memblock_new_data(16, 8, &d), CK_OK);
    EXPECT_EQ(ck_arena_alloc(d, 8, 8, &p), CK_ERR_INVALID);
    EXPECT_NE(std::string(ck_last_error()).find("not an arena"), std::string::npos);
    ck_memblock_decref(d);
    ck_memblock_decref(a);
}

TEST_F(TypesArena, EightThreadsAllocateAtOnce) {
    ck_memblock *a = nullptr;
    ASSERT_EQ(ck_arena_new(0, &a), CK_OK);
    constexpr int kThreads = 8;
    constexpr int kPerThread = 20000;
    struct Record {
        char *p;
        uint32_t n;
        uint32_t tag;
    };
    std::vector<std::vector<Record>> records(kThreads);
    std::atomic<int> failures{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            while (!go.load()) {
                std::this_thread::yield();
            }
            auto &mine = records[t];
            mine.reserve(kPerThread);
            for (int i = 0; i < kPerThread; i++) {
                // Mostly ragged-row sizes, now and then a large one (dedicated chunk).
                const uint32_t n = (i % 997 == 0) ? 20000u : static_cast<uint32_t>((i * 13 + t) % 97);
                const size_t align = size_t{1} << ((i + t) % 5);
                char *p = nullptr;
                if (ck_arena_alloc(a, n, align, &p) != CK_OK || p == nullptr ||
                    reinterpret_cast<uintptr_t>(p) % align != 0 || !all_zero(p, n)) {
                    failures++;
                    continue;
                }
                const uint32_t tag = static_cast<uint32_t>(t * kPerThread + i);
                for (uint32_t k = 0; k < n; k++) {
                    p[k] = static_cast<char>((tag + k) & 0xff);
                }
                mine.push_back({p, n, tag});
            }
        });
    }
    go = true;
    for (auto &th : threads) {
        th.join();
    }
    EXPECT_EQ(failures.load(), 0);
    // Every byte still holds what its owner wrote, and no two allocations overlap.
    std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
    for (const auto &mine : records) {
        ASSERT_EQ(mine.size(), static_cast<size_t>(kPerThread));
        for (const Record &r : mine) {
            for (uint32_t k = 0; k < r.n; k++) {
                ASSERT_EQ(static_cast<unsigned char>(r.p[k]), (r.tag + k) & 0xff);
            }
            if (r.n > 0) {
                ranges.emplace_back(reinterpret_cast<uintptr_t>(r.p),
                                    reinterpret_cast<uintptr_t>(r.p) + r.n);
            }
        }
    }
    std::sort(ranges.begin(), ranges.end());
    for (size_t i = 1; i < ranges.size(); i++) {
        ASSERT_LE(ranges[i - 1].second, ranges[i].first);
    }
    ck_memblock_decref(a);
}

TEST_F(TypesArena, AllocationFailureLeavesNothing) {
    ckt::for_each_alloc_failure([] {
        ck_memblock *a = nullptr;
        int rc = ck_arena_new(64, &a);
        if (rc != CK_OK) {
            return rc;
        }
        for (int i = 0; i < 40 && rc == CK_OK; i++) {
            char *p = nullptr;
            rc = ck_arena_alloc(a, i % 3 == 0 ? 200 : 12, 8, &p);
        }
        ck_memblock_decref(a);
        return rc;
    });
}

} // namespace
