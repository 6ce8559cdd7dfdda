// tests/types/api/arrmeta_test.cpp: arrmeta layout (docs/design.md §6), default construction in C
// order, copy and release with exact reference counting (observed through an external
// memory block's release callback), and the data/external memory block kinds.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "tt.hpp"

namespace {

using Leakless = tt::TypesLeakless;
class TypesArrmeta : public Leakless {};

static_assert(sizeof(ck_fixed_dim_arrmeta) == 2 * sizeof(intptr_t), "docs/design.md §6");
static_assert(sizeof(ck_var_dim_arrmeta) == 3 * sizeof(intptr_t), "docs/design.md §6");
static_assert(sizeof(ck_pointer_arrmeta) == 2 * sizeof(intptr_t), "docs/design.md §6");
static_assert(sizeof(ck_var_data) == 2 * sizeof(void *), "docs/design.md §6");

struct Released {
    int count = 0;
};
void count_release(void *ctx) {
    static_cast<Released *>(ctx)->count++;
}

// arrmeta storage aligned for intptr_t.
std::vector<intptr_t> arrmeta_buffer(const ck_type *t) {
    return std::vector<intptr_t>(ck_type_arrmeta_size(t) / sizeof(intptr_t) + 1, -7);
}

TEST_F(TypesArrmeta, DefaultConstructThreeVarInt32) {
    tt::Type t("3 * var * int32");
    ASSERT_EQ(ck_type_arrmeta_size(t), tt::kFixedAm + tt::kVarAm);  // 40
    Released rel;
    char storage[4];
    ck_memblock *block = nullptr;
    ASSERT_EQ(ck_memblock_new_external(storage, sizeof storage, count_release, &rel, &block),
              CK_OK);
    auto buf = arrmeta_buffer(t);
    char *am = reinterpret_cast<char *>(buf.data());
    ASSERT_EQ(ck_arrmeta_default_construct(t, am, block), CK_OK);
    ck_fixed_dim_arrmeta fixed;
    ck_var_dim_arrmeta var;
    std::memcpy(&fixed, am + 0, sizeof fixed);
    std::memcpy(&var, am + tt::kFixedAm, sizeof var);
    EXPECT_EQ(fixed.dim_size, 3);
    EXPECT_EQ(fixed.stride, static_cast<intptr_t>(tt::kVarData)); // one ck_var_data per element
    EXPECT_EQ(var.blockref, block);
    EXPECT_EQ(var.stride, 4);
    EXPECT_EQ(var.offset, 0);
    EXPECT_EQ(buf[5], -7) << "wrote past the arrmeta";

    // A copy takes its own reference; each release drops exactly one.
    auto buf2 = arrmeta_buffer(t);
    char *am2 = reinterpret_cast<char *>(buf2.data());
    ck_arrmeta_copy(t, am2, am);
    EXPECT_EQ(std::memcmp(am, am2, tt::kFixedAm + tt::kVarAm), 0);
    ck_memblock_decref(block); // ours
    ck_arrmeta_release(t, am);
    EXPECT_EQ(rel.count, 0) << "the copy still holds the block";
    std::memcpy(&var, am + tt::kFixedAm, sizeof var);
    EXPECT_EQ(var.blockref, nullptr) << "release clears the reference";
    ck_arrmeta_release(t, am); // twice is harmless
    ck_arrmeta_release(t, am2);
    EXPECT_EQ(rel.count, 1);
}

TEST_F(TypesArrmeta, DefaultConstructCOrderStridesAndPointers) {
    tt::Type t("2 * pointer[3 * var * 4 * complex64]");
    // fixed @0, pointer @16, fixed @32, var @48, fixed @72; 88 bytes (at 64 bits).
    const size_t p_at = tt::kFixedAm, f2_at = p_at + tt::kPointerAm, v_at = f2_at + tt::kFixedAm,
                 f4_at = v_at + tt::kVarAm;
    ASSERT_EQ(ck_type_arrmeta_size(t), f4_at + tt::kFixedAm);
    Released rel;
    ck_memblock *block = nullptr;
    ASSERT_EQ(ck_memblock_new_external(nullptr, 0, count_release, &rel, &block), CK_OK);
    auto buf = arrmeta_buffer(t);
    char *am = reinterpret_cast<char *>(buf.data());
    ASSERT_EQ(ck_arrmeta_default_construct(t, am, block), CK_OK);
    ck_memblock_decref(block);
    EXPECT_EQ(rel.count, 0);
    ck_fixed_dim_arrmeta f0, f2, f4;
    ck_pointer_arrmeta p1;
    ck_var_dim_arrmeta v3;
    std::memcpy(&f0, am + 0, sizeof f0);
    std::memcpy(&p1, am + p_at, sizeof p1);
    std::memcpy(&f2, am + f2_at, sizeof f2);
    std::memcpy(&v3, am + v_at, sizeof v3);
    std::memcpy(&f4, am + f4_at, sizeof f4);
    EXPECT_EQ(f0.dim_size, 2);
    EXPECT_EQ(f0.stride, static_cast<intptr_t>(sizeof(char *)));
    EXPECT_EQ(p1.blockref, block);
    EXPECT_EQ(p1.offset, 0);
    EXPECT_EQ(f2.dim_size, 3);
    EXPECT_EQ(f2.stride, static_cast<intptr_t>(tt::kVarData));
    EXPECT_EQ(v3.blockref, block);
    EXPECT_EQ(v3.stride, 32); // 4 * complex64
    EXPECT_EQ(v3.offset, 0);
    EXPECT_EQ(f4.dim_size, 4);
    EXPECT_EQ(f4.stride, 8);
    ck_arrmeta_release(t, am);
    EXPECT_EQ(rel.count, 1) << "two levels held one reference each";
}

TEST_F(TypesArrmeta, DefaultConstructWithoutBlockAndFixedOnly) {
    tt::Type t("var * pointer[int8]");
    auto buf = arrmeta_buffer(t);
    char *am = reinterpret_cast<char *>(buf.data());
    ASSERT_EQ(ck_arrmeta_default_construct(t, am, nullptr), CK_OK);
    ck_var_dim_arrmeta v;
    std::memcpy(&v, am, sizeof v);
    EXPECT_EQ(v.blockref, nullptr);
    EXPECT_EQ(v.stride, static_cast<intptr_t>(sizeof(char *)));
    ck_arrmeta_release(t, am);

    tt::Type f("5 * 6 * 7 * uint16");
    auto fb = arrmeta_buffer(f);
    char *fm = reinterpret_cast<char *>(fb.data());
    ASSERT_EQ(ck_arrmeta_default_construct(f, fm, nullptr), CK_OK);
    const intptr_t want[] = {5, 84, 6, 14, 7, 2};
    EXPECT_EQ(std::memcmp(fm, want, sizeof want), 0);
    ck_arrmeta_release(f, fm); // no blockrefs: nothing to do

    // Scalars have no arrmeta; NULL is fine for them.
    EXPECT_EQ(ck_arrmeta_default_construct(ck_type_scalar(CK_TYPE_INT8), nullptr, nullptr),
              CK_OK);
    EXPECT_EQ(ck_arrmeta_default_construct(nullptr, fm, nullptr), CK_ERR_INVALID);
    EXPECT_EQ(ck_arrmeta_default_construct(f, nullptr, nullptr), CK_ERR_INVALID);
}

TEST_F(TypesArrmeta, DataBlocksAreAlignedAndZeroed) {
    for (size_t align : {1, 2, 4, 8, 16, 64, 4096}) {
        for (size_t size : {0, 1, 7, 100, 5000}) {
            ck_memblock *b = nullptr;
            ASSERT_EQ(ck_memblock_new_data(size, align, &b), CK_OK);
            EXPECT_EQ(ck_memblock_get_kind(b), CK_MEMBLOCK_DATA);
            char *p = ck_memblock_data(b);
            ASSERT_NE(p, nullptr);
            EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % align, 0u);
            EXPECT_EQ(ck_memblock_size(b), size);
            for (size_t i = 0; i < size; i++) {
                ASSERT_EQ(p[i], 0);
            }
            std::memset(p, 0xab, size);
            ck_memblock_incref(b);
            ck_memblock_decref(b);
            ck_memblock_decref(b);
        }
    }
    ck_memblock *b = nullptr;
    EXPECT_EQ(ck_memblock_new_data(8, 3, &b), CK_ERR_INVALID);
    EXPECT_EQ(ck_memblock_new_data(8, 8192, &b), CK_ERR_INVALID);
    EXPECT_EQ(ck_memblock_new_data(SIZE_MAX - 8, 8, &b), CK_ERR_NOMEM);
    EXPECT_EQ(b, nullptr);
    ck_memblock_incref(nullptr);
    ck_memblock_decref(nullptr);
}

TEST_F(TypesArrmeta, ExternalBlockReleasesOnceOnLastReference) {
    Released rel;
    char data[16];
    ck_memblock *b = nullptr;
    ASSERT_EQ(ck_memblock_new_external(data, sizeof data, count_release, &rel, &b), CK_OK);
    EXPECT_EQ(ck_memblock_get_kind(b), CK_MEMBLOCK_EXTERNAL);
    EXPECT_EQ(ck_memblock_data(b), data);
    EXPECT_EQ(ck_memblock_size(b), sizeof data);
    ck_memblock_incref(b);
    ck_memblock_decref(b);
    EXPECT_EQ(rel.count, 0);
    ck_memblock_decref(b);
    EXPECT_EQ(rel.count, 1);
    // No callback is fine too.
    ASSERT_EQ(ck_memblock_new_external(data, sizeof data, nullptr, nullptr, &b), CK_OK);
    ck_memblock_decref(b);
}

TEST_F(TypesArrmeta, MemoryBlocksUnderAllocationFailure) {
    ckt::for_each_alloc_failure([] {
        ck_memblock *d = nullptr, *e = nullptr, *a = nullptr;
        int rc = ck_memblock_new_data(100, 16, &d);
        if (rc == CK_OK) {
            rc = ck_memblock_new_external(nullptr, 0, nullptr, nullptr, &e);
        }
        if (rc == CK_OK) {
            rc = ck_arena_new(0, &a);
        }
        char *p = nullptr;
        if (rc == CK_OK) {
            rc = ck_arena_alloc(a, 10, 8, &p);
        }
        ck_memblock_decref(a);
        ck_memblock_decref(e);
        ck_memblock_decref(d);
        return rc;
    });
}

} // namespace
