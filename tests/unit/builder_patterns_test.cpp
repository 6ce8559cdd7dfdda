// tests/unit/builder_patterns_test.cpp: the five construction patterns of docs/kernels.md
// (compiled from the document itself), built, run single and strided, nested, moved with
// memcpy, and torn down under allocation failure.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "ckt.hpp"
#include "patterns.h"

namespace {

int int32_leaf(ck_builder *b, size_t *off, ck_request req, const void *) {
    return ex_make_int32_copy(b, off, req);
}

// A table mapping x -> 255 - x: an independent, obviously correct expectation.
struct Table {
    uint8_t v[256];
    Table() {
        for (int i = 0; i < 256; ++i) v[i] = static_cast<uint8_t>(255 - i);
    }
};
const Table kInvert;

int lookup_leaf(ck_builder *b, size_t *off, ck_request req, const void *) {
    return ex_make_lookup(b, off, kInvert.v, req);
}

struct Dim {
    intptr_t size, dst_stride, src_stride;
    ex_factory child;
    const void *child_arg;
};
int dim_factory(ck_builder *b, size_t *off, ck_request req, const void *arg) {
    const Dim *d = static_cast<const Dim *>(arg);
    return ex_make_strided_dim(b, off, d->size, d->dst_stride, d->src_stride, req, d->child,
                               d->child_arg);
}
// The patterns' sizes (docs/kernels.md states them for 64-bit hosts: 40, 16 and 24): a
// strided dimension is a prefix and three intptr_t fields, the deref a prefix, the lookup a
// prefix and a pointer.
constexpr size_t kDimBytes = CK_ALIGN_OFFSET(sizeof(ck_prefix) + 3 * sizeof(intptr_t));
constexpr size_t kLookupBytes = sizeof(ck_prefix) + sizeof(void *);
static_assert(!ckt::lp64 || (kDimBytes == 40 && kLookupBytes == 24), "docs/kernels.md");

struct Deref {
    ex_factory child;
    const void *child_arg;
};
int deref_factory(ck_builder *b, size_t *off, ck_request req, const void *arg) {
    const Deref *d = static_cast<const Deref *>(arg);
    return ex_make_deref(b, off, req, d->child, d->child_arg);
}

class Patterns : public ::testing::Test {
  protected:
    void SetUp() override { ck_builder_init(&b); }
    void TearDown() override {
        ck_builder_destroy(&b);
        EXPECT_EQ(ckt::live_allocations(), 0);
    }
    ck_builder b;
    size_t off = 0;
};

TEST_F(Patterns, TrivialLeafSingleAndStrided) {
    ASSERT_EQ(ex_make_int32_copy(&b, &off, CK_REQUEST_SINGLE), CK_OK);
    EXPECT_EQ(off, sizeof(ck_prefix));
    EXPECT_EQ(ck_builder_root(&b)->destructor, nullptr);
    int32_t s = -123456789, d = 0;
    char *sp = reinterpret_cast<char *>(&s);
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(&d), &sp), CK_OK);
    EXPECT_EQ(d, -123456789);

    ck_builder_reset(&b);
    off = 0;
    ASSERT_EQ(ex_make_int32_copy(&b, &off, CK_REQUEST_STRIDED), CK_OK);
    // Source every third element, destination reversed (negative stride).
    int32_t src[12], dst[4] = {0, 0, 0, 0};
    for (int i = 0; i < 12; ++i) src[i] = i * 10;
    char *srcp = reinterpret_cast<char *>(src);
    intptr_t ss = 3 * sizeof(int32_t);
    ASSERT_EQ(ck_call_strided(ck_builder_root(&b), reinterpret_cast<char *>(&dst[3]),
                              -static_cast<intptr_t>(sizeof(int32_t)), &srcp, &ss, 4),
              CK_OK);
    EXPECT_EQ(dst[3], 0);
    EXPECT_EQ(dst[2], 30);
    EXPECT_EQ(dst[1], 60);
    EXPECT_EQ(dst[0], 90);
}

TEST_F(Patterns, LeafWithDataCopiesUnalignedBytes) {
    ASSERT_EQ(ex_make_unaligned_copy(&b, &off, 7, CK_REQUEST_STRIDED), CK_OK);
    EXPECT_EQ(off, sizeof(ck_prefix) + sizeof(size_t));
    // Three 7-byte records at odd addresses, written at a different odd offset.
    unsigned char src[1 + 21], dst[3 + 21];
    for (int i = 0; i < 22; ++i) src[i] = static_cast<unsigned char>(i + 1);
    std::memset(dst, 0xEE, sizeof dst);
    char *sp = reinterpret_cast<char *>(src + 1);
    intptr_t ss = 7;
    ASSERT_EQ(ck_call_strided(ck_builder_root(&b), reinterpret_cast<char *>(dst + 3), 7, &sp,
                              &ss, 3),
              CK_OK);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(dst[i], 0xEE) << "wrote before the destination";
    for (int i = 0; i < 21; ++i) EXPECT_EQ(dst[3 + i], i + 2) << "byte " << i;
}

TEST_F(Patterns, LeafWithResourceOwnsAndFreesIt) {
    int64_t before = ckt::live_allocations();
    ASSERT_EQ(ex_make_lookup(&b, &off, kInvert.v, CK_REQUEST_SINGLE), CK_OK);
    EXPECT_EQ(ckt::live_allocations(), before + 1) << "the table lives on the heap";
    uint8_t s = 10, d = 0;
    char *sp = reinterpret_cast<char *>(&s);
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(&d), &sp), CK_OK);
    EXPECT_EQ(d, 245);
    ck_builder_destroy(&b);
    EXPECT_EQ(ckt::live_allocations(), before) << "the destructor freed the table";
}

TEST_F(Patterns, NestedPointerReadsThroughAndRejectsNull) {
    Deref d{int32_leaf, nullptr};
    ASSERT_EQ(ex_make_deref(&b, &off, CK_REQUEST_STRIDED, d.child, d.child_arg), CK_OK);
    EXPECT_EQ(off, 2 * sizeof(ck_prefix));
    int32_t values[3] = {7, -8, 9};
    int32_t *ptrs[3] = {&values[2], &values[0], &values[1]};
    int32_t out[3] = {0, 0, 0};
    char *sp = reinterpret_cast<char *>(ptrs);
    intptr_t ss = sizeof(int32_t *);
    ASSERT_EQ(ck_call_strided(ck_builder_root(&b), reinterpret_cast<char *>(out), 4, &sp, &ss, 3),
              CK_OK);
    EXPECT_EQ(out[0], 9);
    EXPECT_EQ(out[1], 7);
    EXPECT_EQ(out[2], -8);

    ptrs[1] = nullptr;
    out[2] = 42;
    EXPECT_EQ(ck_call_strided(ck_builder_root(&b), reinterpret_cast<char *>(out), 4, &sp, &ss, 3),
              CK_ERR_INVALID);
    EXPECT_NE(std::strstr(ck_last_error(), "NULL pointer at element 1"), nullptr)
        << ck_last_error();
    EXPECT_EQ(out[2], 42) << "nothing after the failing element is written";
}

TEST_F(Patterns, NestedStridedDimensionOverAChild) {
    // 4 x 3 int32 source, transposed into a 3 x 4 destination by the strides.
    Dim inner{3, 4 * 4, 4, int32_leaf, nullptr};
    int32_t src[4][3], dst[3][4];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j) src[i][j] = 100 * i + j;
    std::memset(dst, 0, sizeof dst);
    ASSERT_EQ(ex_make_strided_dim(&b, &off, 4, 4, 12, CK_REQUEST_SINGLE, dim_factory, &inner),
              CK_OK);
    EXPECT_EQ(off, 2 * kDimBytes + sizeof(ck_prefix));  // 2 * 40 + 16 at 64 bits
    EXPECT_TRUE(ck_builder_is_inline(&b));
    char *sp = reinterpret_cast<char *>(src);
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(dst), &sp), CK_OK);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_EQ(dst[j][i], 100 * i + j) << i << "," << j;
}

// strided(2) -> strided(3) -> deref -> strided(4) -> lookup: five levels, 160 bytes, which
// outgrows the inline buffer (on 64-bit hosts; 92 bytes on 32-bit ones fit), plus the
// lookup's own allocation.
struct Deep {
    Dim d3{4, 1, 1, lookup_leaf, nullptr};
    Deref ptr{dim_factory, &d3};
    Dim d2{3, 4, static_cast<intptr_t>(sizeof(void *)), deref_factory, &ptr};
    int build(ck_builder *b, size_t *off, ck_request req) const {
        return ex_make_strided_dim(b, off, 2, 12, 3 * static_cast<intptr_t>(sizeof(void *)), req,
                                   dim_factory, &d2);
    }
};

TEST_F(Patterns, FiveLevelsRunAndValuesAreRight) {
    Deep deep;
    ASSERT_EQ(deep.build(&b, &off, CK_REQUEST_SINGLE), CK_OK);
    EXPECT_EQ(off, 3 * kDimBytes + sizeof(ck_prefix) + kLookupBytes);
    EXPECT_EQ(ck_builder_is_inline(&b), off <= CK_BUILDER_INLINE_BYTES);
    uint8_t rows[6][4];
    const uint8_t *ptrs[2][3];
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 4; ++j) rows[i][j] = static_cast<uint8_t>(i * 16 + j);
        ptrs[i / 3][i % 3] = rows[5 - i];
    }
    uint8_t out[2][3][4];
    std::memset(out, 0, sizeof out);
    char *sp = reinterpret_cast<char *>(ptrs);
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(out), &sp), CK_OK);
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 4; ++j)
            EXPECT_EQ(out[i / 3][i % 3][j], 255 - ((5 - i) * 16 + j)) << i << "," << j;
}

TEST_F(Patterns, AllocationFailureAtEveryPointOfTheDeepBuildLeaksNothing) {
    ck_builder_destroy(&b);
    Deep deep;
    int64_t points = ckt::for_each_alloc_failure([&] {
        ck_builder bb;
        ck_builder_init(&bb);
        size_t o = 0;
        int rc = deep.build(&bb, &o, CK_REQUEST_STRIDED);
        ck_builder_destroy(&bb);
        return rc;
    });
    // At least the inline -> heap move (where it outgrows the buffer) and the lookup table;
    // growth may add more.
    const size_t bytes = 3 * kDimBytes + sizeof(ck_prefix) + kLookupBytes;
    EXPECT_GE(points, bytes > CK_BUILDER_INLINE_BYTES ? 2 : 1);
}

// Built kernels hold no pointer into their buffer: a builder copied elsewhere runs the same.
TEST_F(Patterns, BuilderMovedWithMemcpyStillRunsAndDestroys) {
    for (int heap = 0; heap < 2; ++heap) {
        ck_builder src_b;
        ck_builder_init(&src_b);
        size_t o = 0;
        Deep deep;
        Dim inner{3, 1, 1, lookup_leaf, nullptr};
        // the deep build outgrows the inline buffer at 64 bits; reserved on the heap anyway
        if (heap) {
            ASSERT_EQ(ck_builder_reserve(&src_b, CK_BUILDER_INLINE_BYTES + 1), CK_OK);
        }
        int rc = heap ? deep.build(&src_b, &o, CK_REQUEST_SINGLE)
                      : ex_make_strided_dim(&src_b, &o, 2, 3, 3, CK_REQUEST_SINGLE, dim_factory,
                                            &inner);
        ASSERT_EQ(rc, CK_OK);
        ASSERT_EQ(ck_builder_is_inline(&src_b), heap == 0);
        alignas(ck_builder) unsigned char storage[sizeof(ck_builder)];
        ck_builder *moved = reinterpret_cast<ck_builder *>(storage);
        std::memcpy(moved, &src_b, sizeof src_b);
        std::memset(&src_b, 0xA5, sizeof src_b);  // the old place is garbage now
        if (!heap) {
            uint8_t in[2][3] = {{0, 1, 2}, {3, 4, 5}}, out[2][3] = {};
            char *sp = reinterpret_cast<char *>(in);
            ASSERT_EQ(ck_call_single(ck_builder_root(moved), reinterpret_cast<char *>(out), &sp),
                      CK_OK);
            for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i / 3][i % 3], 255 - i);
        } else {
            uint8_t rows[6][4] = {};
            const uint8_t *ptrs[2][3];
            for (int i = 0; i < 6; ++i) ptrs[i / 3][i % 3] = rows[i];
            uint8_t out[2][3][4];
            char *sp = reinterpret_cast<char *>(ptrs);
            ASSERT_EQ(ck_call_single(ck_builder_root(moved), reinterpret_cast<char *>(out), &sp),
                      CK_OK);
            EXPECT_EQ(out[1][2][3], 255);
        }
        ck_builder_destroy(moved);
    }
}

}  // namespace
