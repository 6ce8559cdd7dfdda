// tests/callables/reduce_var_test.cpp: reductions over ragged (var) dimensions, against
// values worked out by hand: a var axis reduced row by row (an empty row gives the
// identity, or is refused by min and max), an axis above a var one reduced column by column
// with the rows left-aligned (the result row as long as the longest), var dimensions kept
// above and below, keepdims; the errors (unallocated rows, shapes the fold cannot write);
// the trees; allocation failure at every point, the rows' allocations included.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "ckt_array.hpp"
#include "reduce_support.hpp"

namespace {

using rs::Outcome;

Outcome reduce(const char *name, const char *type, const char *literal, std::vector<int> axes,
               unsigned flags = 0) {
    return rs::run(rs::Kind::reduce, name, type, literal, axes, flags);
}

struct Hand {
    const char *name, *type, *literal;
    std::vector<int> axes;  // {99}: every axis
    unsigned flags;
    const char *want, *want_type;
};

const Hand kRagged[] = {
    // the var axis: row by row, an empty row is the identity
    {"sum", "3 * var * int32", "[[1, 2], [], [3]]", {1}, 0, "[3, 0, 3]", "3 * int64"},
    {"prod", "3 * var * int32", "[[1, 2], [], [3]]", {1}, 0, "[2, 1, 3]", "3 * int64"},
    {"all", "3 * var * float64", "[[1, 0], [], [nan]]", {1}, 0, "[false, true, true]", "3 * bool"},
    {"any", "3 * var * float64", "[[1, 0], [], [0]]", {-1}, 0, "[true, false, false]", "3 * bool"},
    {"max", "3 * var * int8", "[[1, 2], [-5], [3, 3]]", {1}, 0, "[2, -5, 3]", "3 * int8"},
    {"sum", "2 * var * float64", "[[1.5], [2, 3]]", {1}, CK_REDUCE_KEEPDIMS, "[[1.5], [5]]",
     "2 * 1 * float64"},
    // every axis
    {"sum", "3 * var * int32", "[[1, 2], [], [3]]", {99}, 0, "6", "int64"},
    {"min", "3 * var * int32", "[[1, 2], [7], [3]]", {0, 1}, 0, "1", "int32"},
    // the fixed axis above the var one: columns, rows left-aligned
    {"sum", "3 * var * int32", "[[1, 2], [], [3]]", {0}, 0, "[4, 2]", "var * int64"},
    {"max", "3 * var * int32", "[[1, 2], [4], [3, 0, 7]]", {0}, 0, "[4, 2, 7]", "var * int32"},
    {"all", "2 * var * float64", "[[1, 0], [2]]", {0}, 0, "[true, false]", "var * bool"},
    {"sum", "0 * var * int32", "[]", {0}, 0, "[]", "var * int64"},
    {"sum", "2 * var * int32", "[[], []]", {0}, 0, "[]", "var * int64"},
    {"sum", "3 * var * int32", "[[1], [2, 3], [4, 5, 6]]", {0}, CK_REDUCE_KEEPDIMS,
     "[[7, 8, 6]]", "1 * var * int64"},
    // a var axis reduced above another var one
    {"sum", "var * var * int32", "[[1, 2], [3], [4, 5, 6]]", {0}, 0, "[8, 7, 6]", "var * int64"},
    {"prod", "3 * var * var * int8", "[[[1, 2], [3]], [[4], [5, 6], [7]], []]", {0}, 0,
     "[[4, 2], [15, 6], [7]]", "var * var * int64"},
    // var kept above a reduced fixed axis, and fixed kept below a reduced var one
    {"sum", "var * 2 * int32", "[[1, 2], [3, 4], [5, 6]]", {1}, 0, "[3, 7, 11]", "var * int64"},
    {"sum", "var * 2 * int32", "[[1, 2], [3, 4]]", {0}, 0, "[4, 6]", "2 * int64"},
    {"sum", "var * var * int32", "[[1, 2], [3]]", {1}, 0, "[3, 3]", "var * int64"},
    {"sum", "2 * var * 2 * int32", "[[[1, 2], [3, 4]], [[5, 6]]]", {0, 2}, 0, "[14, 7]",
     "var * int64"},
    {"sum", "2 * var * 2 * int32", "[[[1, 2], [3, 4]], [[5, 6]]]", {0}, 0, "[[6, 8], [3, 4]]",
     "var * 2 * int64"},
    {"max", "2 * var * 2 * float32", "[[[1, 9], [3, 4]], [[5, 6]]]", {1}, 0, "[[3, 9], [5, 6]]",
     "2 * 2 * float32"},
    // a ragged row of one element does not broadcast in a reduction: it is one element
    {"sum", "2 * var * int32", "[[1], [2, 3]]", {0}, 0, "[3, 3]", "var * int64"},
};

TEST(ReduceVar, HandComputedCases) {
    for (const Hand &h : kRagged) {
        const Outcome o = reduce(h.name, h.type, h.literal, h.axes, h.flags);
        ASSERT_EQ(o.rc, CK_OK) << h.name << " of " << h.type << " " << h.literal << ": " << o.message;
        EXPECT_EQ(o.value, h.want) << h.name << " of " << h.type << " " << h.literal;
        EXPECT_EQ(o.type, h.want_type) << h.name << " of " << h.type << " " << h.literal;
    }
}

TEST(ReduceVar, MinAndMaxRefuseAnEmptyRow) {
    Outcome o = reduce("max", "3 * var * int32", "[[1, 2], [], [3]]", {1});
    EXPECT_EQ(o.rc, CK_ERR_INVALID);
    EXPECT_EQ(o.message, "reduced dimension 1 at [1]: a row of no elements to reduce, and "
                         "maximum has no identity");
    o = reduce("min", "var * int32", "[]", {0});
    EXPECT_EQ(o.rc, CK_ERR_INVALID);
    EXPECT_EQ(o.message, "reduced dimension 0: a row of no elements to reduce, and minimum has "
                         "no identity");
    // columns never are empty: a column exists where some row has an element
    o = reduce("min", "3 * var * int32", "[[], [5], []]", {0});
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "[5]");
}

TEST(ReduceVar, AnUnallocatedSourceRow) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_reduction_lookup("sum", &c), CK_OK);
    ckt::Array a("2 * var * int32", "[[1], null]");
    for (int axis : {0, 1}) {
        ck_reduce_spec r = {c, &axis, 1, 0};
        ck_array *out = nullptr;
        EXPECT_EQ(ck_reduce_new(&r, a.get(), nullptr, &out), CK_ERR_UNINITIALIZED) << axis;
        EXPECT_NE(std::string(ck_last_error()).find("at [1]"), std::string::npos) << ck_last_error();
        EXPECT_NE(std::string(ck_last_error()).find("the source is not allocated"), std::string::npos)
            << ck_last_error();
    }
    ck_callable_decref(c);
}

TEST(ReduceVar, ShapesTheFoldCannotWrite) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_reduction_lookup("sum", &c), CK_OK);
    const int axis = 0;
    ck_reduce_spec r = {c, &axis, 1, 0};
    // below the reduced axis, a var source needs a var destination (rows left-aligned)
    ckt::Array src("2 * var * int64", "[[1], [2, 3]]");
    ckt::Array fixed_dst("2 * int64");
    EXPECT_EQ(ck_reduce(&r, fixed_dst.get(), src.get(), nullptr), CK_ERR_BROADCAST);
    EXPECT_EQ(std::string(ck_last_error()),
              "add: cannot reduce 2 * var * int64 into 2 * int64: dimension 1, below a reduced "
              "one, is var in the source and fixed in the destination; it must be fixed in both "
              "or var in both");
    // a kept var destination with keepdims is fixed
    const int ax1 = 1;
    ck_reduce_spec rk = {c, &ax1, 1, CK_REDUCE_KEEPDIMS};
    ckt::Array vdst("2 * var * int64");
    EXPECT_EQ(ck_reduce(&rk, vdst.get(), src.get(), nullptr), CK_ERR_BROADCAST);
    // a var destination over memory with no arena cannot allocate its rows
    ckt::Type vt("var * int64");
    ck_var_dim_arrmeta m = {nullptr, 8, 0};
    ck_var_data slot = {nullptr, 0};
    ck_array *wrapped = nullptr;
    ASSERT_EQ(ck_array_wrap(vt.get(), reinterpret_cast<const char *>(&m),
                            reinterpret_cast<char *>(&slot), nullptr, &wrapped),
              CK_OK);
    EXPECT_EQ(ck_reduce(&r, wrapped, src.get(), nullptr), CK_ERR_INVALID);
    EXPECT_NE(std::string(ck_last_error()).find("no arena memory block"), std::string::npos)
        << ck_last_error();
    ck_array_free(wrapped);
    ck_callable_decref(c);
}

// The destination of a kept var axis above the reduced one is a var_dim's: a row already
// allocated must have the source's size.
TEST(ReduceVar, AnAllocatedDestinationRowOfAnotherSize) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_reduction_lookup("sum", &c), CK_OK);
    const int axis = 1;
    ck_reduce_spec r = {c, &axis, 1, 0};
    ckt::Array src("var * 2 * int64", "[[1, 2], [3, 4]]");
    ckt::Array dst("var * int64", "[0, 0, 0]");
    EXPECT_EQ(ck_reduce(&r, dst.get(), src.get(), nullptr), CK_ERR_BROADCAST);
    ckt::Array ok("var * int64", "[0, 0]");
    EXPECT_EQ(ck_reduce(&r, ok.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(ok.str(), "[3, 7]");
    ck_callable_decref(c);
}

// A kernel run again starts every row over: the grown rows are replaced by fresh ones.
TEST(ReduceVar, AKernelRunsAgainOnOtherRows) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_reduction_lookup("sum", &c), CK_OK);
    const int axis = 0;
    ck_reduce_spec r = {c, &axis, 1, 0};
    ckt::Array a("2 * var * int64", "[[1, 2, 3], [4]]"), b("2 * var * int64", "[[10], [20, 30]]");
    ckt::Array dst("var * int64");
    ck_builder bl;
    ck_builder_init(&bl);
    size_t off = 0;
    ASSERT_EQ(ck_make_reduce(&bl, &off, &r, ck_array_type(dst.get()), ck_array_arrmeta(dst.get()),
                             ck_array_type(a.get()), ck_array_arrmeta(a.get()), CK_REQUEST_SINGLE,
                             nullptr),
              CK_OK);
    char *s = a.data();
    ASSERT_EQ(ck_call_single(ck_builder_root(&bl), dst.data(), &s), CK_OK);
    EXPECT_EQ(dst.str(), "[5, 2, 3]");
    s = b.data();
    ASSERT_EQ(ck_call_single(ck_builder_root(&bl), dst.data(), &s), CK_OK);
    EXPECT_EQ(dst.str(), "[30, 30]");
    ck_builder_destroy(&bl);
    ck_callable_decref(c);
}

// A host's ragged data: rows whose elements start `offset` bytes into each row and lie
// `stride` bytes apart (arrmeta the library did not make), reduced over both axes.
TEST(ReduceVar, SourceRowsWithAnArrmetaOffsetAndStride) {
    // Each row: a 4-byte header, then int32 elements 8 bytes apart (the other 4 padding).
    int32_t row0[] = {-100, 1, -100, 2, -100, 3}, row1[] = {-100, 10, -100};
    ck_var_data rows[2] = {{reinterpret_cast<char *>(row0), 3}, {reinterpret_cast<char *>(row1), 1}};
    struct {
        ck_fixed_dim_arrmeta outer;
        ck_var_dim_arrmeta inner;
    } m = {{2, sizeof(ck_var_data)}, {nullptr, 8, 4}};
    ckt::Type t("2 * var * int32");
    ck_array *a = nullptr;
    ASSERT_EQ(ck_array_wrap(t.get(), reinterpret_cast<const char *>(&m),
                            reinterpret_cast<char *>(rows), nullptr, &a),
              CK_OK);
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_reduction_lookup("sum", &c), CK_OK);
    const char *want[] = {"[11, 2, 3]", "[6, 10]"};
    for (int axis : {0, 1}) {
        ck_reduce_spec r = {c, &axis, 1, 0};
        ck_array *out = nullptr;
        ASSERT_EQ(ck_reduce_new(&r, a, nullptr, &out), CK_OK) << ck_last_error();
        char *s = nullptr;
        ASSERT_EQ(ck_array_format(out, &s), CK_OK);
        EXPECT_STREQ(s, want[axis]) << axis;
        ck_free(s);
        ck_array_free(out);
    }
    ck_callable_decref(c);
    ck_array_free(a);
}

std::string tree(const char *name, const char *src, std::vector<int> axes) {
    return rs::tree(rs::Kind::reduce, name, src, axes);
}

TEST(ReduceVar, Trees) {
    const std::string t = ck_cpu_target_name(ckt::best_compiled_target());
    EXPECT_EQ(ckt::tree_text(tree("sum", "3 * var * float64", {1})),
              ckt::tree_text("strided_dim @0 +40  strided_dim_single  size=3 dst_stride=8 src_stride=16\n"
                             "  reduce_dim @40 +48  reduce_dim_strided  var(stride=8 offset=0) init, fold\n"
                             "    reduce_fill @88 +40  reduce_fill_strided  float64 0\n"
                             "    leaf @128 +16  accumulate add float64 [" + t + "]\n"));
    EXPECT_EQ(ckt::tree_text(tree("max", "3 * var * float64", {0})),
              ckt::tree_text("reduce_dim @0 +48  reduce_dim_single  size=3 src_stride=16 init, fold\n"
                             "  reduce_var_reset @48 +72  reduce_var_reset_strided  dst=var(stride=8 offset=0) "
                             "empty rows\n"
                             "  reduce_var_grow @120 +96  reduce_var_grow_strided  dst=var(stride=8 offset=0) "
                             "src=var(stride=8 offset=0) rows left-aligned: init, fold\n"
                             "    reduce_fill @216 +40  reduce_fill_strided  float64 -inf\n"
                             "    leaf @256 +16  accumulate maximum float64 [" + t + "]\n"));
    // a reduced var axis inside the fold of an outer one: a reduce_dim without init, which
    // refuses an empty row for max
    EXPECT_EQ(ckt::tree_text(tree("max", "2 * var * int32", {0, 1})),
              ckt::tree_text("reduce_dim @0 +48  reduce_dim_single  size=2 src_stride=16 init, fold\n"
                             "  reduce_fill @48 +40  reduce_fill_strided  int32 -2147483648\n"
                             "  reduce_dim @88 +48  reduce_dim_strided  var(stride=4 offset=0) fold (no "
                             "identity: refuses an empty row)\n"
                             "    leaf @136 +16  accumulate maximum int32 [" + t + "]\n"));
}

TEST(ReduceVar, AllocationFailureAtEveryPoint) {
    struct Case {
        const char *name, *type, *literal;
        std::vector<int> axes;
    } cases[] = {
        {"sum", "4 * var * int16", "[[1, 2], [3], [], [4, 5, 6]]", {0}},
        {"max", "3 * var * var * float64", "[[[1, 2], [3]], [[4], [5, 6], [7]], []]", {0}},
        {"sum", "var * 2 * int32", "[[1, 2], [3, 4]]", {1}},
        {"prod", "3 * var * int8", "[[1, 2], [], [3]]", {1}},
    };
    for (const Case &c : cases) {
        EXPECT_GT(rs::alloc_failure_points(rs::Kind::reduce, c.name, c.type, c.literal, c.axes), 3)
            << c.name << " " << c.type;
    }
}

}  // namespace
