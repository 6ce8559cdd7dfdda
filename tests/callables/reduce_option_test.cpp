// tests/callables/reduce_option_test.cpp: reductions of options (?T), against values worked
// out by hand: without skipna NA propagates (a result is NA when any of its elements is);
// with skipna NA elements are left out, sum and prod give their identity where none is
// left and min and max give NA; folds over the inner axis and elementwise over an outer
// one, over ragged rows; destinations that are not options; the trees; allocation failure.
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
               unsigned flags, const char *dst_type = nullptr) {
    return rs::run(rs::Kind::reduce, name, type, literal, axes, flags, dst_type);
}

const unsigned SKIP = CK_REDUCE_SKIPNA;

struct Hand {
    const char *name, *type, *literal;
    std::vector<int> axes;
    unsigned flags;
    const char *want, *want_type;
};

const Hand kOptions[] = {
    // NA propagates: a fold meets one, and the result is NA
    {"sum", "4 * ?int32", "[1, NA, 3, 4]", {99}, 0, "NA", "?int64"},
    {"sum", "4 * ?int32", "[1, NA, 3, 4]", {99}, SKIP, "8", "?int64"},
    {"sum", "3 * 2 * ?float64", "[[1, NA], [2, 3], [NA, NA]]", {1}, 0, "[NA, 5, NA]",
     "3 * ?float64"},
    {"sum", "3 * 2 * ?float64", "[[1, NA], [2, 3], [NA, NA]]", {1}, SKIP, "[1, 5, 0]",
     "3 * ?float64"},
    {"prod", "3 * 2 * ?int8", "[[2, NA], [2, 3], [NA, NA]]", {1}, SKIP, "[2, 6, 1]", "3 * ?int64"},
    // min and max with skipna: NA where no element is left, else the extreme of the others
    {"min", "3 * 2 * ?float64", "[[1, NA], [2, 3], [NA, NA]]", {1}, SKIP, "[1, 2, NA]",
     "3 * ?float64"},
    {"max", "3 * 2 * ?int16", "[[1, NA], [2, 3], [NA, NA]]", {1}, SKIP, "[1, 3, NA]", "3 * ?int16"},
    {"min", "0 * ?int8", "[]", {99}, SKIP, "NA", "?int8"},
    // an outer axis: elementwise, each column's NA its own
    {"max", "3 * 2 * ?float64", "[[1, NA], [2, 3], [NA, 5]]", {0}, 0, "[NA, NA]", "2 * ?float64"},
    {"max", "3 * 2 * ?float64", "[[1, NA], [2, 3], [NA, NA]]", {0}, SKIP, "[2, 3]", "2 * ?float64"},
    {"min", "3 * 2 * ?float64", "[[NA, NA], [5, NA], [4, NA]]", {0}, SKIP, "[4, NA]",
     "2 * ?float64"},
    {"sum", "3 * 2 * ?int32", "[[1, NA], [2, 3], [4, 5]]", {0}, 0, "[7, NA]", "2 * ?int64"},
    {"sum", "3 * 2 * ?int32", "[[1, NA], [2, 3], [4, 5]]", {0}, SKIP, "[7, 8]", "2 * ?int64"},
    // all and any: truth values, NA propagated or left out
    {"all", "3 * ?float32", "[NA, 1, 2]", {99}, SKIP, "true", "?bool"},
    {"all", "3 * ?float32", "[NA, 1, 2]", {99}, 0, "NA", "?bool"},
    {"any", "3 * ?float32", "[NA, 0, 0]", {99}, SKIP, "false", "?bool"},
    // with skipna and an identity, a product that wraps onto the NA's bits (INT64_MIN, after
    // the third row) is a value and folds on: (-2^30 * 2^30 * 8) * 2 wraps to 0
    {"prod", "4 * var * ?int32", "[[-1073741824], [1073741824], [8], [2]]", {99}, SKIP, "0",
     "?int64"},
    // the extreme a maximum of a signed type starts from is its NA: the next value is used
    {"max", "3 * ?int32", "[-5, -7, -9]", {99}, 0, "-5", "?int32"},
    {"max", "2 * ?int8", "[-127, -127]", {99}, 0, "-127", "?int8"},
    {"min", "2 * ?uint8", "[254, 254]", {99}, 0, "254", "?uint8"},
    {"min", "2 * ?uint64", "[200, 7]", {99}, SKIP, "7", "?uint64"},
    // NaN is a value, not NA
    {"sum", "2 * ?float64", "[nan, 1]", {99}, SKIP, "nan", "?float64"},
    // ragged rows
    {"sum", "3 * var * ?int16", "[[1, NA], [], [NA]]", {1}, SKIP, "[1, 0, 0]", "3 * ?int64"},
    {"sum", "3 * var * ?int16", "[[1, NA], [], [NA]]", {1}, 0, "[NA, 0, NA]", "3 * ?int64"},
    {"max", "3 * var * ?int16", "[[1, NA], [], [NA, 7, 2]]", {0}, SKIP, "[1, 7, 2]",
     "var * ?int16"},
    {"max", "3 * var * ?int16", "[[1, NA], [], [NA, 7, 2]]", {0}, 0, "[NA, NA, 2]",
     "var * ?int16"},
    {"min", "2 * var * ?int16", "[[NA], []]", {1}, SKIP, "[NA, NA]", "2 * ?int16"},
    // no axis: the cast, NA copied
    {"sum", "3 * ?int16", "[1, NA, 2]", {}, 0, "[1, NA, 2]", "3 * ?int64"},
};

TEST(ReduceOption, HandComputedCases) {
    for (const Hand &h : kOptions) {
        const Outcome o = reduce(h.name, h.type, h.literal, h.axes, h.flags);
        const std::string what = std::string(h.name) + " of " + h.type + " " + h.literal +
                                 (h.flags ? " skipna" : "");
        ASSERT_EQ(o.rc, CK_OK) << what << ": " << o.message;
        EXPECT_EQ(o.value, h.want) << what;
        EXPECT_EQ(o.type, h.want_type) << what;
    }
}

TEST(ReduceOption, DestinationsThatAreNotOptions) {
    // skipna with an identity never gives NA: a plain destination is fine
    Outcome o = reduce("sum", "3 * ?int32", "[NA, 1, 2]", {99}, SKIP, "int64");
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "3");
    // NA propagating into one is refused when it happens
    o = reduce("sum", "3 * ?int32", "[1, 2, 3]", {99}, 0, "int64");
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "6");
    o = reduce("sum", "3 * ?int32", "[1, NA, 2]", {99}, 0, "int64");
    EXPECT_EQ(o.rc, CK_ERR_NA);
    EXPECT_EQ(o.message, "NA at element 1 cannot be accumulated into a destination that is not "
                         "an option type (leave NA out with skipna)");
    o = reduce("max", "2 * 2 * ?int32", "[[1, 2], [3, NA]]", {0}, 0, "2 * int32");
    EXPECT_EQ(o.rc, CK_ERR_NA);
    EXPECT_EQ(o.message, "NA at element 1 cannot be accumulated into a destination that is not "
                         "an option type (leave NA out with skipna)");
    // min and max with skipna need one: where no element is left the result is NA
    o = reduce("min", "3 * ?int32", "[NA, 1, 2]", {99}, SKIP, "int32");
    EXPECT_EQ(o.rc, CK_ERR_TYPE);
    EXPECT_EQ(o.message, "minimum: cannot reduce 3 * ?int32 into int32: with skipna, a reduction "
                         "without identity gives NA where no element is left; the destination "
                         "must be an option");
    // a plain source into an option destination: never NA
    o = reduce("max", "3 * int32", "[4, 1, 2]", {99}, 0, "?int32");
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "4");
    // ... except where the result is the NA's own bits, which read as NA, as assigning that
    // value would (min of uint8 starts from 255, ?uint8's NA: no start may beat an element)
    o = reduce("min", "2 * uint8", "[255, 255]", {99}, 0, "?uint8");
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "NA");
    o = reduce("min", "2 * 2 * uint8", "[[255, 254], [255, 255]]", {1}, 0, "2 * ?uint8");
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "[254, NA]");
    o = reduce("max", "2 * int8", "[-128, -127]", {99}, 0, "?int8");
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "-127");
    // an element cast from another option type could equal it too: refused
    o = reduce("min", "2 * ?uint16", "[255, 3]", {99}, 0, "?uint8");
    EXPECT_EQ(o.rc, CK_ERR_TYPE);
    // without skipna, min of zero elements is still refused
    o = reduce("min", "0 * ?int8", "[]", {99}, 0);
    EXPECT_EQ(o.rc, CK_ERR_INVALID);
}

// Long runs cross the kernel's runs of values and NA in every way.
TEST(ReduceOption, LongRunsAgainstALoop) {
    std::string lit = "[";
    int64_t sum_all = 0, sum_skip = 0;
    bool any_na = false;
    int32_t mx = INT32_MIN;
    for (int i = 0; i < 3000; i++) {
        const bool na = (i % 7 == 3) || (i >= 1000 && i < 1100);
        lit += i ? ", " : "";
        if (na) {
            lit += "NA";
            any_na = true;
        } else {
            const int v = (i * 37) % 101 - 50;
            lit += std::to_string(v);
            sum_skip += v;
            sum_all += v;
            mx = v > mx ? v : mx;
        }
    }
    lit += "]";
    (void)sum_all;
    Outcome o = reduce("sum", "3000 * ?int32", lit.c_str(), {99}, SKIP);
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, std::to_string(sum_skip));
    o = reduce("sum", "3000 * ?int32", lit.c_str(), {99}, 0);
    EXPECT_EQ(o.value, any_na ? "NA" : "?");
    o = reduce("max", "3000 * ?int32", lit.c_str(), {99}, SKIP);
    EXPECT_EQ(o.value, std::to_string(mx));
}

std::string tree(const char *name, const char *src, std::vector<int> axes, unsigned flags) {
    return rs::tree(rs::Kind::reduce, name, src, axes, flags);
}

TEST(ReduceOption, Trees) {
    const std::string t = ck_cpu_target_name(ckt::best_compiled_target());
    EXPECT_EQ(ckt::tree_text(tree("min", "3 * 2 * ?float64", {1}, SKIP)),
              ckt::tree_text("strided_dim @0 +40  strided_dim_single  size=3 dst_stride=8 src_stride=16\n"
                             "  reduce_dim @40 +48  reduce_dim_strided  size=2 src_stride=8 init, fold\n"
                             "    reduce_fill @88 +40  reduce_fill_strided  ?float64 NA\n"
                             "    reduce_option @128 +64  reduce_option_strided  skipna, NA until the first "
                             "element\n"
                             "      leaf @192 +16  accumulate minimum float64 [" + t + "]\n"
                             "      leaf @208 +16  copy float64 strided [" + t + "]\n"));
    EXPECT_EQ(ckt::tree_text(tree("sum", "3 * ?int8", {0}, 0)),
              ckt::tree_text("reduce_dim @0 +48  reduce_dim_single  size=3 src_stride=1 init, fold\n"
                             "  reduce_fill @48 +40  reduce_fill_strided  int64 0\n"
                             "  reduce_option @88 +64  reduce_option_strided  NA propagates\n"
                             "    leaf @152 +16  accumulate add int64 from int8 [" + t + "]\n"));
}

TEST(ReduceOption, AllocationFailureAtEveryPoint) {
    struct Case {
        const char *name, *type, *literal;
        std::vector<int> axes;
        unsigned flags;
    } cases[] = {
        {"min", "3 * var * ?int16", "[[1, NA], [], [NA, 7, 2]]", {0}, SKIP},
        {"sum", "3 * 2 * ?float32", "[[1, NA], [2, 3], [NA, NA]]", {1}, 0},
    };
    for (const Case &c : cases) {
        EXPECT_GT(rs::alloc_failure_points(rs::Kind::reduce, c.name, c.type, c.literal, c.axes,
                                           c.flags),
                  3)
            << c.name << " " << c.type;
    }
}

}  // namespace
