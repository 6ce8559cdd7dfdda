// tests/callables/reduce_pointer_test.cpp: reductions and accumulations of sources that hold
// pointers (read through them into a scratch, kinds/reduce/materialize.c), through the public
// API: values worked out by hand, float folds bit for bit those of the same values held
// without pointers, a NULL pointer's error, what is refused, the tree, allocation failure.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "ckt_array.hpp"
#include "reduce_support.hpp"

namespace {

using rs::Kind;

struct Hand {
    Kind kind;
    const char *name, *type, *literal;
    std::vector<int> axes;
    unsigned flags;
    const char *want, *want_type;
};

const Hand kHand[] = {
    {Kind::reduce, "sum", "3 * pointer[int32]", "[1, 2, 3]", {99}, 0, "6", "int64"},
    {Kind::reduce, "sum", "2 * pointer[3 * int32]", "[[1, 2, 3], [4, 5, 6]]", {1}, 0,
     "[6, 15]", "2 * int64"},
    {Kind::reduce, "sum", "2 * pointer[3 * int32]", "[[1, 2, 3], [4, 5, 6]]", {0}, 0,
     "[5, 7, 9]", "3 * int64"},
    {Kind::reduce, "max", "pointer[2 * 3 * float32]", "[[1, 9, 3], [4, -5, 6]]", {0}, 0,
     "[4, 9, 6]", "3 * float32"},
    {Kind::reduce, "prod", "2 * pointer[2 * int8]", "[[1, 2], [3, 4]]", {0},
     CK_REDUCE_KEEPDIMS, "[[3, 8]]", "1 * 2 * int64"},
    {Kind::reduce, "any", "3 * pointer[bool]", "[false, true, false]", {0}, 0, "true", "bool"},
    {Kind::reduce, "min", "2 * pointer[?int16]", "[7, 3]", {0}, 0, "3", "?int16"},
    {Kind::accumulate, "cumsum", "3 * pointer[int32]", "[1, 2, 3]", {0}, 0, "[1, 3, 6]",
     "3 * int64"},
    {Kind::accumulate, "cummax", "2 * pointer[3 * float64]", "[[1, 5, 2], [0, 9, 1]]", {1}, 0,
     "[[1, 5, 5], [0, 9, 9]]", "2 * 3 * float64"},
};

TEST(ReducePointers, HandComputedCases) {
    for (const Hand &h : kHand) {
        const rs::Outcome o = rs::run(h.kind, h.name, h.type, h.literal, h.axes, h.flags);
        ASSERT_EQ(o.rc, CK_OK) << h.name << " of " << h.type << ": " << o.message;
        EXPECT_EQ(o.value, h.want) << h.name << " of " << h.type;
        EXPECT_EQ(o.type, h.want_type) << h.name << " of " << h.type;
    }
}

// A float sum's association depends on the run it folds: read through pointers into the
// scratch, the elements are one contiguous run, as without pointers.
TEST(ReducePointers, FloatSumsAreThoseOfTheValuesWithoutPointers) {
    std::string values = "[";
    double naive = 0.0;
    for (int i = 0; i < 3000; i++) {
        const double v = std::ldexp(static_cast<double>((i * 7919) % 2003) - 1001.0, i % 40 - 20);
        char buf[40];
        std::snprintf(buf, sizeof buf, "%s%.17g", i ? ", " : "", v);
        values += buf;
        naive += v;
    }
    values += "]";
    const rs::Outcome plain = rs::run(Kind::reduce, "sum", "3000 * float64", values.c_str(), {0});
    const rs::Outcome through =
        rs::run(Kind::reduce, "sum", "pointer[3000 * float64]", values.c_str(), {0});
    ASSERT_EQ(plain.rc, CK_OK) << plain.message;
    ASSERT_EQ(through.rc, CK_OK) << through.message;
    EXPECT_EQ(through.value, plain.value);
    EXPECT_EQ(through.type, "float64");
    // and it is a sum of these values: within the naive running sum's error bound
    EXPECT_NEAR(std::stod(through.value), naive, 1e-9 * std::fabs(naive) + 1e-3);
}

TEST(ReducePointers, ANullPointerIsAnErrorThatNamesTheElement) {
    const rs::Outcome o = rs::run(Kind::reduce, "sum", "3 * pointer[int32]", "[1, null, 3]", {0});
    EXPECT_EQ(o.rc, CK_ERR_UNINITIALIZED);
    EXPECT_NE(o.message.find("element 1 is NULL"), std::string::npos) << o.message;
    const rs::Outcome a =
        rs::run(Kind::accumulate, "cumsum", "2 * pointer[2 * int32]", "[[1, 2], null]", {1});
    EXPECT_EQ(a.rc, CK_ERR_UNINITIALIZED);
    EXPECT_NE(a.message.find("element 1 is NULL"), std::string::npos) << a.message;
}

TEST(ReducePointers, PointersWithVarDimensionsAreRefusedClearly) {
    const rs::Outcome o =
        rs::run(Kind::reduce, "sum", "2 * pointer[var * int32]", "[[1], [2, 3]]", {1});
    EXPECT_EQ(o.rc, CK_ERR_UNSUPPORTED);
    EXPECT_NE(o.message.find("both pointers and var dimensions"), std::string::npos)
        << o.message;
}

TEST(ReducePointers, TheTreeCopiesThenReduces) {
    const std::string t = ck_cpu_target_name(ckt::best_compiled_target());
    EXPECT_EQ(ckt::tree_text(rs::tree(Kind::reduce, "sum", "2 * pointer[3 * float32]", {1})),
              ckt::tree_text("materialize @0 +32  materialize_single  scratch=24 copy, reduce\n"
                             "  strided_dim @32 +40  strided_dim_single  size=2 dst_stride=12 src_stride=8\n"
                             "    pointer_src @72 +32  pointer_src_strided  target_offset=0\n"
                             "      strided_dim @104 +40  strided_dim_single  size=3 dst_stride=4 "
                             "src_stride=4\n"
                             "        leaf @144 +16  copy float32 strided [" + t + "]\n"
                             "  strided_dim @160 +40  strided_dim_single  size=2 dst_stride=4 src_stride=12\n"
                             "    reduce_dim @200 +48  reduce_dim_strided  size=3 src_stride=4 init, fold\n"
                             "      reduce_fill @248 +40  reduce_fill_strided  float32 0\n"
                             "      leaf @288 +16  accumulate add float32 [" + t + "]\n"));
}

TEST(ReducePointers, AllocationFailureAtEveryPoint) {
    EXPECT_GT(rs::alloc_failure_points(Kind::reduce, "sum", "2 * pointer[3 * float32]",
                                       "[[1, 2, 3], [4, 5, 6]]", {1}),
              3);
    EXPECT_GT(rs::alloc_failure_points(Kind::accumulate, "cumsum", "3 * pointer[int16]",
                                       "[1, 2, 3]", {0}),
              3);
}

}  // namespace
