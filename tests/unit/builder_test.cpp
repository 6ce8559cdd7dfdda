// tests/unit/builder_test.cpp: ck_builder growth, zeroing, sizes, reset, destructor
// accounting and heap-allocation counts.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "ckt.hpp"

namespace {

class Builder : public ::testing::Test {
  protected:
    void SetUp() override { ck_builder_init(&b); }
    void TearDown() override {
        ck_builder_destroy(&b);
        EXPECT_EQ(ckt::live_allocations(), 0);
    }
    ck_builder b;
};

bool all_zero(const char *p, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (p[i] != 0) return false;
    return true;
}

TEST_F(Builder, StartsInlineZeroedWith128Bytes) {
    EXPECT_TRUE(ck_builder_is_inline(&b));
    EXPECT_EQ(ck_builder_capacity(&b), 128u);
    EXPECT_EQ(static_cast<void *>(ck_builder_root(&b)), static_cast<void *>(b.inline_buf));
    EXPECT_TRUE(all_zero(static_cast<char *>(ck_builder_at(&b, 0)), 128));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(ck_builder_root(&b)) % 16, 0u);
}

TEST_F(Builder, ReserveCountsTheChildPrefixReserveLeafDoesNot) {
    // 112 + 16 = 128 fits inline; 113 + 16 does not (at 64 bits; the prefix is 8 bytes at 32).
    const size_t P = sizeof(ck_prefix), fits = CK_BUILDER_INLINE_BYTES - P;
    ASSERT_EQ(ck_builder_reserve(&b, fits), CK_OK);
    EXPECT_TRUE(ck_builder_is_inline(&b));
    ASSERT_EQ(ck_builder_reserve_leaf(&b, CK_BUILDER_INLINE_BYTES), CK_OK);
    EXPECT_TRUE(ck_builder_is_inline(&b));
    ASSERT_EQ(ck_builder_reserve(&b, fits + 1), CK_OK);
    EXPECT_FALSE(ck_builder_is_inline(&b));
    EXPECT_GE(ck_builder_capacity(&b), CK_BUILDER_INLINE_BYTES + 1);
}

TEST_F(Builder, GrowthKeepsContentsZeroesTheTailAndIsAtLeastOnePointFiveX) {
    // Byte patterns everywhere but the root prefix, which TearDown's destroy reads.
    const size_t P = sizeof(ck_prefix);
    char *p = static_cast<char *>(ck_builder_at(&b, 0));
    for (size_t i = P; i < 128; ++i) p[i] = static_cast<char>(i + 1);
    ASSERT_EQ(ck_builder_reserve_leaf(&b, 129), CK_OK);
    size_t cap = ck_builder_capacity(&b);
    EXPECT_GE(cap, 192u);  // 1.5 x 128
    p = static_cast<char *>(ck_builder_at(&b, 0));  // re-fetched: the buffer moved
    EXPECT_NE(static_cast<void *>(p), static_cast<void *>(b.inline_buf));
    for (size_t i = P; i < 128; ++i) ASSERT_EQ(p[i], static_cast<char>(i + 1)) << i;
    EXPECT_TRUE(all_zero(p + 128, cap - 128));

    // Heap -> bigger heap: the realloc path.
    std::memset(p + P, 0x5A, cap - P);
    ASSERT_EQ(ck_builder_reserve(&b, cap), CK_OK);
    size_t cap2 = ck_builder_capacity(&b);
    EXPECT_GE(cap2, cap + sizeof(ck_prefix));
    EXPECT_GE(cap2, cap + cap / 2);
    p = static_cast<char *>(ck_builder_at(&b, 0));
    for (size_t i = P; i < cap; ++i) ASSERT_EQ(p[i], 0x5A) << i;
    EXPECT_TRUE(all_zero(p + cap, cap2 - cap));

    // Growth far past 1.5x takes exactly what is asked (or the size class above it).
    ASSERT_EQ(ck_builder_reserve_leaf(&b, 100000), CK_OK);
    EXPECT_GE(ck_builder_capacity(&b), 100000u);
    EXPECT_TRUE(all_zero(static_cast<char *>(ck_builder_at(&b, cap2)), 100000 - cap2));
    // Never shrinks.
    ASSERT_EQ(ck_builder_reserve_leaf(&b, 10), CK_OK);
    EXPECT_GE(ck_builder_capacity(&b), 100000u);
}

TEST_F(Builder, ImpossibleSizesFailCleanlyAndLeaveTheBuilderAsItWas) {
    // A byte past the root's prefix (whose destructor the teardown calls), at any pointer size.
    constexpr size_t kMark = sizeof(ck_prefix) + 5;
    static_cast<char *>(ck_builder_at(&b, 0))[kMark] = 9;
    EXPECT_EQ(ck_builder_reserve(&b, SIZE_MAX), CK_ERR_NOMEM);
    EXPECT_NE(std::strstr(ck_last_error(), "cannot be allocated"), nullptr) << ck_last_error();
    EXPECT_EQ(ck_builder_reserve(&b, SIZE_MAX - 8), CK_ERR_NOMEM);
    EXPECT_EQ(ck_builder_reserve_leaf(&b, SIZE_MAX), CK_ERR_NOMEM);
    EXPECT_EQ(ck_builder_reserve_leaf(&b, SIZE_MAX / 2), CK_ERR_NOMEM);
    EXPECT_TRUE(ck_builder_is_inline(&b));
    EXPECT_EQ(ck_builder_capacity(&b), 128u);
    EXPECT_EQ(static_cast<char *>(ck_builder_at(&b, 0))[kMark], 9);
    // From the heap state too.
    ASSERT_EQ(ck_builder_reserve_leaf(&b, 1000), CK_OK);
    size_t cap = ck_builder_capacity(&b);
    EXPECT_EQ(ck_builder_reserve_leaf(&b, SIZE_MAX / 2), CK_ERR_NOMEM);
    EXPECT_EQ(ck_builder_capacity(&b), cap);
    EXPECT_EQ(static_cast<char *>(ck_builder_at(&b, 0))[kMark], 9);
}

// A test kernel: one node of a chain, counting how often its destructor runs.
struct counting_node {
    ck_prefix base;
    int *destroyed;  // slot for this node, outside the buffer
    size_t has_child;
#if UINTPTR_MAX == UINT32_MAX
    char to_32_bytes[16];  // 32 bytes at 32 bits as at 64, for the buffer arithmetic below
#endif
};
constexpr size_t kNodeChild = CK_ALIGN_OFFSET(sizeof(counting_node));

void counting_destroy(ck_prefix *self) {
    counting_node *n = reinterpret_cast<counting_node *>(self);
    if (n->destroyed != nullptr) ++*n->destroyed;
    if (n->has_child) ck_prefix_destroy(ck_child(self, kNodeChild));
}
int counting_single(ck_prefix *self, char *dst, char *const *src) {
    counting_node *n = reinterpret_cast<counting_node *>(self);
    ++*dst;
    return n->has_child ? ck_call_single(ck_child(self, kNodeChild), dst, src) : CK_OK;
}

// Builds a chain of `depth` nodes, node i counting into slots[i].
int make_chain(ck_builder *b, size_t *off, int depth, int *slots) {
    for (int i = 0; i < depth; ++i) {
        const bool last = i + 1 == depth;
        int rc = last ? ck_builder_reserve_leaf(b, *off + sizeof(counting_node))
                      : ck_builder_reserve(b, *off + kNodeChild);
        if (rc != CK_OK) return rc;
        counting_node *n = static_cast<counting_node *>(ck_builder_at(b, *off));
        n->base.destructor = counting_destroy;
        n->destroyed = &slots[i];
        n->has_child = !last;
        ck_prefix_set_single(&n->base, counting_single);
        *off += last ? sizeof(counting_node) : kNodeChild;
    }
    return CK_OK;
}

TEST_F(Builder, EveryDestructorRunsExactlyOnce) {
    std::vector<int> slots(20, 0);
    size_t off = 0;
    ASSERT_EQ(make_chain(&b, &off, 20, slots.data()), CK_OK);
    EXPECT_EQ(off, 20 * sizeof(counting_node));
    char calls = 0;
    char *src = nullptr;
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), &calls, &src), CK_OK);
    EXPECT_EQ(calls, 20);
    ck_builder_destroy(&b);
    for (int i = 0; i < 20; ++i) EXPECT_EQ(slots[i], 1) << "node " << i;
    ck_builder_destroy(&b);  // a second destroy is harmless: the builder is empty
    for (int i = 0; i < 20; ++i) EXPECT_EQ(slots[i], 1) << "node " << i;
}

TEST_F(Builder, FailureMidChainDestroysOnlyWhatWasBuiltOnce) {
    std::vector<int> slots(20, 0);
    ckt::for_each_alloc_failure([&] {
        std::fill(slots.begin(), slots.end(), 0);
        ck_builder bb;
        ck_builder_init(&bb);
        size_t off = 0;
        int rc = make_chain(&bb, &off, 20, slots.data());
        ck_builder_destroy(&bb);
        // Nodes are built in order: a prefix of them ran their destructor once, the rest never.
        size_t built = 0;
        while (built < slots.size() && slots[built] == 1) ++built;
        for (size_t i = built; i < slots.size(); ++i) EXPECT_EQ(slots[i], 0) << i;
        if (rc == CK_OK) {
            EXPECT_EQ(built, 20u);
        }
        return rc;
    });
}

TEST_F(Builder, ResetDestroysAndTheBuilderIsReusable) {
    std::vector<int> slots(10, 0);
    size_t off = 0;
    ASSERT_EQ(make_chain(&b, &off, 10, slots.data()), CK_OK);
    EXPECT_FALSE(ck_builder_is_inline(&b));
    ck_builder_reset(&b);
    for (int i = 0; i < 10; ++i) EXPECT_EQ(slots[i], 1);
    EXPECT_TRUE(ck_builder_is_inline(&b));
    EXPECT_TRUE(all_zero(static_cast<char *>(ck_builder_at(&b, 0)), 128));
    off = 0;
    ASSERT_EQ(make_chain(&b, &off, 3, slots.data()), CK_OK);
    char calls = 0;
    char *src = nullptr;
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), &calls, &src), CK_OK);
    EXPECT_EQ(calls, 3);
    ck_builder_destroy(&b);  // now: the kernel points into `slots`
    EXPECT_EQ(slots[0], 2);
}

TEST_F(Builder, KernelsOfAtMost128BytesCostNoHeapAllocation) {
    ck_builder_destroy(&b);
    ASSERT_EQ(ckt_alloc_install(), CK_OK);
    std::vector<int> slots(5, 0);
    {
        ck_builder bb;
        ck_builder_init(&bb);
        size_t off = 0;
        // 4 nodes of 32 bytes fill the inline buffer exactly, every reserve included.
        static_assert(sizeof(counting_node) == 32, "the arithmetic below assumes it");
        ASSERT_EQ(make_chain(&bb, &off, 4, slots.data()), CK_OK);
        EXPECT_EQ(off, 128u);
        EXPECT_EQ(ckt_alloc_requests(), 0);
        ASSERT_EQ(ck_builder_reserve_leaf(&bb, 128), CK_OK);
        EXPECT_EQ(ckt_alloc_requests(), 0);
        ASSERT_EQ(ck_builder_reserve_leaf(&bb, 129), CK_OK);
        EXPECT_EQ(ckt_alloc_requests(), 1);
        ck_builder_destroy(&bb);
    }
    EXPECT_EQ(ckt_alloc_uninstall(), CK_OK);
}

}  // namespace
