// tests/assign/var_test.cpp: ragged (var) dimensions: allocation of unallocated
// destinations, broadcasting of size 1, run-time size checks, uninitialized sources,
// var <-> fixed, nesting. Expected literals are written out by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

using ckt::Array;

class Var : public ::testing::Test {
  protected:
    void TearDown() override { EXPECT_EQ(ckt::live_allocations(), 0); }
};

TEST_F(Var, ScalarIntoUnallocatedAllocatesOne) {
    Array src("float64", "9.0");
    Array dst("var * int32");
    EXPECT_EQ(dst.str(), "null");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[9]");
}

TEST_F(Var, ScalarBroadcastsOverAnAllocatedRow) {
    Array src("int8", "9");
    Array dst("var * int32", "[3, 5, 7]");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[9, 9, 9]");
}

TEST_F(Var, VarIntoUnallocatedCopies) {
    Array src("var * int32", "[3, 5, 7]");
    Array dst("var * float64");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[3, 5, 7]");
    // An empty row is allocated (begin set, size 0), not left unallocated.
    Array esrc("var * int32", "[]");
    Array edst("var * int32");
    ASSERT_EQ(ck_assign(edst.get(), esrc.get(), nullptr), CK_OK);
    EXPECT_EQ(edst.str(), "[]");
}

TEST_F(Var, SizeOneBroadcastsOtherMismatchesFailAtRunTime) {
    Array one("var * int32", "[9]");
    Array dst("var * int32", "[0, 0, 0]");
    ASSERT_EQ(ck_assign(dst.get(), one.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[9, 9, 9]");
    Array two("var * int32", "[9, 2]");
    Array dst2("var * int32", "[0, 0, 0]");
    EXPECT_EQ(ck_assign(dst2.get(), two.get(), nullptr), CK_ERR_BROADCAST);
    EXPECT_STREQ(ck_last_error(),
                 "var dimension 0: cannot broadcast a source of size 2 into a destination of "
                 "size 3");
    EXPECT_EQ(dst2.str(), "[0, 0, 0]");
}

// A failing row is named by its dimension (counted from 0 at the outermost dimension of the
// destination) and the index of each enclosing dimension's element, as written by hand here.
struct RowCase {
    const char *dst_type, *dst_literal; /* dst_literal nullptr: a new (unallocated) array */
    const char *src_type, *src_literal, *message;
};

TEST_F(Var, ASizeErrorNamesTheDimensionAndTheRow) {
    const RowCase cases[] = {
        // Allocated destination rows: the middle row's sizes differ.
        {"3 * var * int32", "[[0, 0], [0, 0, 0], [0, 0]]", "3 * var * int32",
         "[[1, 2], [3, 4], [5, 6]]",
         "var dimension 1 at [1]: cannot broadcast a source of size 2 into a destination of size 3"},
        // var under a fixed dim: the first row, the last row.
        {"3 * 2 * int32", nullptr, "3 * var * int32", "[[1, 2, 3], [4, 5], [6, 7]]",
         "var dimension 1 at [0]: cannot broadcast a source of size 3 into a destination of size 2"},
        {"3 * 2 * int32", nullptr, "3 * var * int32", "[[1, 2], [4, 5], [6, 7, 8]]",
         "var dimension 1 at [2]: cannot broadcast a source of size 3 into a destination of size 2"},
        // var under var: the row inside the row.
        {"2 * var * 3 * int8", nullptr, "2 * var * var * int8", "[[[1, 2, 3]], [[1, 2, 3], [1, 2]]]",
         "var dimension 2 at [1][1]: cannot broadcast a source of size 2 into a destination of "
         "size 3"},
        // Under two fixed dims that C order would merge into one loop: still two indices.
        {"2 * 2 * 3 * int8", nullptr, "2 * 2 * var * int8",
         "[[[1, 2, 3], [1, 2, 3]], [[1, 2], [1, 2, 3]]]",
         "var dimension 2 at [1][0]: cannot broadcast a source of size 2 into a destination of "
         "size 3"},
        // Through a pointer: the pointer is not a dimension.
        {"2 * pointer[3 * int8]", nullptr, "2 * var * int8", "[[1, 2, 3], [1, 2, 3, 4]]",
         "var dimension 1 at [1]: cannot broadcast a source of size 4 into a destination of "
         "size 3"},
        // An unallocated source row is located too.
        {"3 * 2 * int32", nullptr, "3 * var * int32", "[[1, 2], null, [6, 7]]",
         "var dimension 1 at [1]: the source is not allocated (begin is NULL)"},
    };
    for (const RowCase &c : cases) {
        SCOPED_TRACE(std::string(c.dst_type) + " <- " + c.src_type + " " + c.src_literal);
        Array src(c.src_type, c.src_literal);
        Array dst = c.dst_literal != nullptr ? Array(c.dst_type, c.dst_literal) : Array(c.dst_type);
        EXPECT_NE(ck_assign(dst.get(), src.get(), nullptr), CK_OK);
        EXPECT_STREQ(ck_last_error(), c.message);
    }
}

TEST_F(Var, UnallocatedSourceIsUninitialized) {
    Array src("var * int32");
    Array fixed("3 * int32");
    EXPECT_EQ(ck_assign(fixed.get(), src.get(), nullptr), CK_ERR_UNINITIALIZED);
    Array var("var * int32");
    EXPECT_EQ(ck_assign(var.get(), src.get(), nullptr), CK_ERR_UNINITIALIZED);
    EXPECT_EQ(var.str(), "null");
}

TEST_F(Var, RaggedRowsIntoUnallocatedRows) {
    Array src("3 * var * int32", "[[1, 2, 3, 4, 5], [6], [7, 8, 9]]");
    Array dst("3 * var * float64");
    EXPECT_EQ(dst.str(), "[null, null, null]");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[[1, 2, 3, 4, 5], [6], [7, 8, 9]]");
    // Again into the now allocated rows: same sizes, values overwritten.
    Array src2("3 * var * int32", "[[5, 4, 3, 2, 1], [0], [-1, -2, -3]]");
    ASSERT_EQ(ck_assign(dst.get(), src2.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[[5, 4, 3, 2, 1], [0], [-1, -2, -3]]");
}

TEST_F(Var, FixedIntoVarAndVarIntoFixed) {
    Array fixed("3 * int16", "[1, 2, 3]");
    Array var("var * int64");
    ASSERT_EQ(ck_assign(var.get(), fixed.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(var.str(), "[1, 2, 3]");
    Array short_var("var * int64", "[0, 0]");
    EXPECT_EQ(ck_assign(short_var.get(), fixed.get(), nullptr), CK_ERR_BROADCAST);

    Array row("var * int32", "[4, 5, 6]");
    Array out("3 * float32");
    ASSERT_EQ(ck_assign(out.get(), row.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(out.str(), "[4, 5, 6]");
    Array single("var * int32", "[8]");
    ASSERT_EQ(ck_assign(out.get(), single.get(), nullptr), CK_OK);
    EXPECT_EQ(out.str(), "[8, 8, 8]");
    Array wrong("var * int32", "[1, 2]");
    EXPECT_EQ(ck_assign(out.get(), wrong.get(), nullptr), CK_ERR_BROADCAST);
}

TEST_F(Var, NestedRaggedDimensions) {
    Array src("2 * var * var * int32", "[[[1], [2, 3], []], [[4, 5, 6]]]");
    Array dst("2 * var * var * int64");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[[[1], [2, 3], []], [[4, 5, 6]]]");
    // A fixed inner dim broadcast into ragged outer rows.
    Array inner("2 * int32", "[7, 8]");
    Array dst2("var * var * int32", "[[0, 0], [0, 0], [0, 0]]");
    ASSERT_EQ(ck_assign(dst2.get(), inner.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst2.str(), "[[7, 8], [7, 8], [7, 8]]");
}

TEST_F(Var, UnallocatedDestinationWithAnOffsetIsAnError) {
    Array src("var * int32", "[1, 2]");
    Array dst("var * int32");
    reinterpret_cast<ck_var_dim_arrmeta *>(ck_array_arrmeta(dst.get()))->offset = 4;
    EXPECT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_ERR_INVALID);
    EXPECT_NE(std::strstr(ck_last_error(), "offset 4"), nullptr) << ck_last_error();
    reinterpret_cast<ck_var_dim_arrmeta *>(ck_array_arrmeta(dst.get()))->offset = 0;
}

// A row descriptor claiming more elements than the address space holds is refused before any
// element is touched (on either side).
TEST_F(Var, ImpossibleRowSizesAreRefused) {
    Array src("var * int32", "[1, 2, 3]");
    Array dst("var * int32", "[0, 0, 0]");
    ck_var_data *sv = reinterpret_cast<ck_var_data *>(src.data());
    const size_t real = sv->size;
    sv->size = SIZE_MAX;
    EXPECT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_ERR_INVALID);
    EXPECT_NE(std::strstr(ck_last_error(), "source row claims"), nullptr) << ck_last_error();
    sv->size = real;
    ck_var_data *dv = reinterpret_cast<ck_var_data *>(dst.data());
    dv->size = static_cast<size_t>(INTPTR_MAX) + 1;
    EXPECT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_ERR_INVALID);
    EXPECT_NE(std::strstr(ck_last_error(), "destination row claims"), nullptr) << ck_last_error();
    dv->size = 3;
    EXPECT_EQ(dst.str(), "[0, 0, 0]");
}

TEST_F(Var, CheckedErrorsInsideRaggedRows) {
    Array src("2 * var * float64", "[[1, 2], [3, 4.5]]");
    Array dst("2 * var * int32");
    EXPECT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_ERR_FRACTIONAL);
    EXPECT_NE(std::strstr(ck_last_error(), "4.5"), nullptr) << ck_last_error();
    ck_eval_ctx c = ckt::ctx(CK_ERRMODE_OVERFLOW);
    ASSERT_EQ(ck_assign(dst.get(), src.get(), &c), CK_OK);
    EXPECT_EQ(dst.str(), "[[1, 2], [3, 4]]");
}

TEST_F(Var, AnAllocatedRowHoldsWhatTheElementsArrmetaReaches) {
    // var * 2 * int32 whose elements are padded by the host: inner stride 8, so an element
    // reaches 12 bytes (not its 8-byte data size). A row the kernel allocates gives each
    // element its 12 bytes; elements closer than that, or reaching before their start, are
    // refused before anything is written (found by the composition fuzzer: a row sized by
    // the data size was overrun).
    ckt::Type t("var * 2 * int32");
    ck_memblock *arena = nullptr;
    ASSERT_EQ(ck_arena_new(0, &arena), CK_OK);
    int32_t src[600 * 2];
    for (int i = 0; i < 1200; ++i) src[i] = i;
    struct Meta {
        ck_var_dim_arrmeta v;
        ck_fixed_dim_arrmeta f;
    };
    const Meta sam = {{nullptr, 8, 0}, {2, 4}};
    auto run = [&](intptr_t row_stride, intptr_t inner_stride, ck_var_data *d) {
        const Meta dam = {{arena, row_stride, 0}, {2, inner_stride}};
        ck_var_data s = {reinterpret_cast<char *>(src), 600};
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        int rc = ck_make_assign(&b, &off, t.get(), reinterpret_cast<const char *>(&dam), t.get(),
                                reinterpret_cast<const char *>(&sam), CK_REQUEST_SINGLE, nullptr);
        char *sp = reinterpret_cast<char *>(&s);
        if (rc == CK_OK) rc = ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(d), &sp);
        ck_builder_destroy(&b);
        return rc;
    };
    ck_var_data d = {nullptr, 0};
    ASSERT_EQ(run(16, 8, &d), CK_OK) << ck_last_error();
    ASSERT_EQ(d.size, 600u);
    for (int i = 0; i < 600; ++i) {
        int32_t x0, x1;
        std::memcpy(&x0, d.begin + 16 * i, 4);
        std::memcpy(&x1, d.begin + 16 * i + 8, 4);
        ASSERT_EQ(x0, 2 * i) << i;
        ASSERT_EQ(x1, 2 * i + 1) << i;
    }
    ck_var_data e = {nullptr, 0};
    EXPECT_EQ(run(8, 8, &e), CK_ERR_INVALID);
    EXPECT_EQ(std::string(ck_last_error()),
              "var dimension 0: cannot allocate an unallocated destination with stride 8 for "
              "elements of 12 bytes");
    EXPECT_EQ(e.begin, nullptr);
    EXPECT_EQ(run(16, -4, &e), CK_ERR_INVALID);
    EXPECT_EQ(std::string(ck_last_error()),
              "var dimension 0: cannot allocate an unallocated destination whose element "
              "arrmeta reaches before the element's start");
    ck_memblock_decref(arena);
}

TEST_F(Var, RowSlotsAtOddAddressesAreReadAndWrittenWhole) {
    // 2 * var * int32 with the var slots 17 bytes apart (a host's packed layout): the slots
    // are read and written with memcpy, never through a misaligned ck_var_data pointer.
    ckt::Type t("2 * var * int32");
    ck_memblock *arena = nullptr;
    ASSERT_EQ(ck_arena_new(0, &arena), CK_OK);
    alignas(8) unsigned char sbuf[64] = {0}, dbuf[64] = {0};
    int32_t rows[2][2] = {{5, 6}, {7, 8}};
    for (int r = 0; r < 2; ++r) {
        const ck_var_data v = {reinterpret_cast<char *>(rows[r]), 2};
        std::memcpy(sbuf + 1 + 17 * r, &v, sizeof v);
    }
    struct Meta {
        ck_fixed_dim_arrmeta f;
        ck_var_dim_arrmeta v;
    };
    const Meta sam = {{2, 17}, {nullptr, 4, 0}}, dam = {{2, 17}, {arena, 4, 0}};
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = CK_EVAL_SRC_UNALIGNED | CK_EVAL_DST_UNALIGNED;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&b, &off, t.get(), reinterpret_cast<const char *>(&dam), t.get(),
                             reinterpret_cast<const char *>(&sam), CK_REQUEST_SINGLE, &ctx),
              CK_OK)
        << ck_last_error();
    char *sp = reinterpret_cast<char *>(sbuf + 1);
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(dbuf + 1), &sp), CK_OK)
        << ck_last_error();
    ck_builder_destroy(&b);
    for (int r = 0; r < 2; ++r) {
        ck_var_data v;
        std::memcpy(&v, dbuf + 1 + 17 * r, sizeof v);
        ASSERT_EQ(v.size, 2u);
        int32_t x[2];
        std::memcpy(x, v.begin, sizeof x);
        EXPECT_EQ(x[0], rows[r][0]);
        EXPECT_EQ(x[1], rows[r][1]);
    }
    ck_memblock_decref(arena);
}

}  // namespace
