// tests/cli/cli_reduce_test.cpp: `ckernel reduce`, `ckernel accumulate`, `ckernel call dot` and
// their `explain`s: results
// worked out by hand, the tree written out, exit statuses 0/1/2 and their messages.
#include <gtest/gtest.h>

#include <string>

#include "cli_support.hpp"

namespace {

using ckt::Result;

Result ckernel(const std::string &args) {
    return ckt::ckernel_baseline(args);
}
using ckt::without_capacity;

TEST(CliReduce, ResultsOverAxes) {
    struct Case {
        const char *args, *out;
    } cases[] = {
        {"reduce sum --axis 1 --in '2 * 3 * int32' '[[1, 2, 3], [4, 5, 6]]'", "[6, 15]\n"},
        // ragged: row sums, and column sums of left-aligned rows
        {"reduce sum --axis 1 --in '3 * var * int32' '[[1, 2], [], [3]]'", "[3, 0, 3]\n"},
        {"reduce sum --axis 0 --in '3 * var * int32' '[[1, 2], [], [3]]'", "[4, 2]\n"},
        {"reduce sum --axis=0 --in '2 * 3 * int32' '[[1, 2, 3], [4, 5, 6]]'", "[5, 7, 9]\n"},
        {"reduce sum --in '2 * 3 * int32' '[[1, 2, 3], [4, 5, 6]]'", "21\n"},
        {"reduce sum --axis -1,0 --keepdims --in '2 * 3 * int32' '[[1, 2, 3], [4, 5, 6]]'",
         "[[21]]\n"},
        {"reduce sum --axis '' --in '2 * int8' '[1, 2]'", "[1, 2]\n"},
        {"reduce prod --axis 1 --in '2 * 2 * float64' '[[1.5, 2], [-1, 0.25]]'", "[3, -0.25]\n"},
        {"reduce max --in '4 * int16' '[-7, 3, 12, 0]'", "12\n"},
        {"reduce min --in '3 * float32' '[2.5, nan, 1]'", "nan\n"},
        {"reduce all --axis 1 --in '2 * 2 * int32' '[[1, 2], [3, 0]]'", "[true, false]\n"},
        {"reduce any --in '0 * float64' '[]'", "false\n"},
        {"reduce sum --out int8 --in '2 * int8' '[100, 100]'", "-56\n"},
        {"reduce sum --in '3 * ?int32' '[1, NA, 3]'", "NA\n"},
        {"reduce sum --skipna --in '3 * ?int32' '[1, NA, 3]'", "4\n"},
        {"reduce min --skipna --axis 1 --in '2 * 2 * ?float64' '[[NA, NA], [2, NA]]'",
         "[NA, 2]\n"},
        {"reduce add --in '3 * uint8' '[200, 200, 200]'", "600\n"},
        {"reduce maximum --axis 0 --in '2 * 2 * bool' '[[false, true], [false, false]]'",
         "[false, true]\n"},
    };
    for (const Case &c : cases) {
        const Result r = ckernel(c.args);
        EXPECT_EQ(r.status, 0) << c.args << "\n" << r.out;
        EXPECT_EQ(r.out, c.out) << c.args;
    }
}

TEST(CliReduce, Errors) {
    Result r = ckernel("reduce min --in '0 * float64' '[]'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_INVALID: minimum: no elements to reduce (dimension "
                     "0 has size 0), and minimum has no identity\n");
    r = ckernel("reduce sum --axis 2 --in '2 * int32' '[1, 2]'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_INVALID: reduce: axis 2 is out of range for a "
                     "source of 1 dimension\n");
    r = ckernel("reduce subtract --in '2 * 2 * int32' '[[1, 2], [3, 4]]'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_INVALID: subtract has no identity: its reduction "
                     "starts from the first element and runs along one axis, not 2 (set an "
                     "identity with ck_callable_set_identity, or reduce one axis at a time)\n");
    r = ckernel("reduce subtract --in '3 * int32' '[8, 2, 1]'");  // (8 - 2) - 1
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "5\n");
    r = ckernel("reduce nosuch --in '2 * int32' '[1, 2]'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_TYPE: no callable named 'nosuch' (ckernel "
                     "callables lists them)\n");
    r = ckernel("reduce sum --axis 1,x --in '2 * int32' '[1, 2]'");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "ckernel: usage error: --axis takes axis numbers separated by commas (not "
                     "'1,x')\nTry 'ckernel reduce --help'.\n");
    r = ckernel("reduce sum --axis 1, --in '2 * int32' '[1, 2]'");
    EXPECT_EQ(r.status, 2);
    r = ckernel("reduce sum --in '2 * int32' '[1, 2]' --in int32 1");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "ckernel: usage error: a reduction takes one --in\nTry 'ckernel reduce "
                     "--help'.\n");
    r = ckernel("reduce --in int32 1");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "ckernel: usage error: missing NAME\nTry 'ckernel reduce --help'.\n");
    r = ckernel("reduce sum");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "ckernel: usage error: missing --in SRC LITERAL\nTry 'ckernel reduce "
                     "--help'.\n");
    r = ckernel("reduce sum --in '2 * int32'");
    EXPECT_EQ(r.status, 2);
    r = ckernel("reduce --help");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("usage: ckernel reduce ", 0), 0u) << r.out;
}

TEST(CliReduce, ExplainPrintsTheTree) {
    Result r = ckernel("explain --reduce sum --axis 0 --in '2 * 3 * int8'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(ckt::tree_text(without_capacity(r.out)),
              ckt::tree_text("reduce sum (add) -> 3 * int64\n"
                             "reduce_dim @0 +48  reduce_dim_single  size=2 src_stride=3 init, fold\n"
                             "  strided_dim @48 +40  strided_dim_strided  size=3 dst_stride=8 src_stride=0 "
                             "(broadcast)\n"
                             "    reduce_fill @88 +40  reduce_fill_strided  int64 0\n"
                             "  strided_dim @128 +40  strided_dim_strided  size=3 dst_stride=8 src_stride=1\n"
                             "    leaf @168 +16  accumulate add int64 from int8 [baseline]\n"
                             "total: 184 bytes in the kernel buffer; builder on the heap (capacity ?)\n"));
    r = ckernel("explain --reduce max --in '10 * float64'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(ckt::tree_text(r.out),
              ckt::tree_text("reduce max (maximum) -> float64\n"
                             "reduce_dim @0 +48  reduce_dim_single  size=10 src_stride=8 init, fold\n"
                             "  reduce_fill @48 +40  reduce_fill_strided  float64 -inf\n"
                             "  leaf @88 +16  accumulate maximum float64 [baseline]\n"
                             "total: 104 bytes in the kernel buffer; builder inline, no heap allocation "
                             "(capacity 128)\n"));
    r = ckernel("explain --reduce all --axis -1 --keepdims --out '2 * 1 * bool' --in '2 * 3 * "
                "float32'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out.rfind("reduce all (logical_and) -> 2 * 1 * bool\n", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("cast float32 -> bool (nocheck)"), std::string::npos) << r.out;
    r = ckernel("explain --reduce sum --in '2 * int32' 1");
    EXPECT_EQ(r.status, 2);
    r = ckernel("explain --reduce");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out,
              "ckernel: usage error: --reduce needs a name\nTry 'ckernel explain --help'.\n");
}

TEST(CliReduce, Accumulate) {
    struct Case {
        const char *args, *out;
    } cases[] = {
        {"accumulate cumsum --axis 0 --in '4 * int32' '[1, 2, 3, 4]'", "[1, 3, 6, 10]\n"},
        {"accumulate cumprod --axis=-1 --in '2 * 3 * float64' '[[1, 2, 3], [4, 5, 6]]'",
         "[[1, 2, 6], [4, 20, 120]]\n"},
        {"accumulate cummax --axis 0 --in '2 * 2 * int8' '[[1, 5], [3, 2]]'", "[[1, 5], [3, 5]]\n"},
        {"accumulate cummin --axis 1 --in '2 * var * float32' '[[3, 1, 2], []]'",
         "[[3, 1, 1], []]\n"},
        {"accumulate cumsum --axis 0 --out '3 * int8' --in '3 * int8' '[100, 100, 100]'",
         "[100, -56, 44]\n"},
    };
    for (const Case &c : cases) {
        const Result r = ckernel(c.args);
        EXPECT_EQ(r.status, 0) << c.args << "\n" << r.out;
        EXPECT_EQ(r.out, c.out) << c.args;
    }
    Result r = ckernel("accumulate cumsum --in '2 * int32' '[1, 2]'");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "ckernel: usage error: an accumulation takes one --axis\nTry 'ckernel "
                     "accumulate --help'.\n");
    r = ckernel("accumulate cumsum --axis 0 --keepdims --in '2 * int32' '[1, 2]'");
    EXPECT_EQ(r.status, 2);
    r = ckernel("accumulate cumsum --axis 0,1 --in '2 * 2 * int32' '[[1, 2], [3, 4]]'");
    EXPECT_EQ(r.status, 2);
    r = ckernel("explain --accumulate cumsum --axis 0 --in '10 * float64'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(ckt::tree_text(r.out),
              ckt::tree_text("accumulate cumsum (add) -> 10 * float64\n"
                             "accumulate_dim @0 +104  accumulate_dim_single  size=10 src_stride=8 dst_stride=8 "
                             "scan\n"
                             "  leaf @104 +16  scan add float64 [baseline]\n"
                             "total: 120 bytes in the kernel buffer; builder inline, no heap allocation "
                             "(capacity 128)\n"));
}

// dot through `ckernel call` (core dimensions: each argument a row, outer dimensions
// broadcast) and its tree through `ckernel explain --call`.
TEST(CliReduce, DotThroughCall) {
    struct Case {
        const char *args, *out;
        int status;
    } cases[] = {
        {"call dot --in '3 * float64' '[1, 2, 3]' --in '3 * float64' '[4, 5, 6]'", "32\n", 0},
        {"call dot --in '2 * 3 * int32' '[[1, 2, 3], [4, 5, 6]]' --in '3 * float64' "
         "'[0.5, 1, 2]'",
         "[8.5, 19]\n", 0},
        {"call dot --in '3 * var * int64' '[[1, 2], [], [3]]' --in '3 * var * int64' "
         "'[[1, 1], [], [2]]'",
         "[3, 0, 6]\n", 0},
        {"call dot --out '2 * float32' --in '2 * 2 * float64' '[[1, 2], [3, 4]]' --in "
         "'2 * float64' '[1, 1]'",
         "[3, 7]\n", 0},
        {"call dot --in '3 * float64' '[1, 2, 3]' --in '2 * float64' '[1, 1]'",
         "ckernel: error: CK_ERR_BROADCAST: dot: core dimension N is 3 in argument 0 and 2 in "
         "argument 1\n",
         1},
        {"call dot --in '2 * var * float64' '[[1], [2, 3]]' --in '2 * float64' '[1, 1]'",
         "ckernel: error: CK_ERR_BROADCAST: dot: core dimension 0 at [0]: rows of 1 and 2 "
         "elements\n",
         1},
    };
    for (const Case &c : cases) {
        const Result r = ckernel(c.args + std::string(" 2>&1"));
        EXPECT_EQ(r.status, c.status) << c.args << "\n" << r.out;
        EXPECT_EQ(r.out, c.out) << c.args;
    }
    const Result r = ckernel("explain --call dot --in '2 * 3 * int32' --in '3 * float64'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(ckt::tree_text(without_capacity(r.out)),
              ckt::tree_text("call dot -> 2 * float64\n"
                             "selected: (N * float64, N * float64) -> float64: 0 unsafe, 0 inexact, 1 safe, 0 "
                             "promote, 4 bytes wider\n"
                             "strided_dim @0 +56  strided_dim_single  size=2 dst_stride=8 src_stride=[12, 0] "
                             "(broadcast)\n"
                             "  core_call @56 +248  core_call_strided  args=[cast, pass] result=direct "
                             "scratch=64\n"
                             "    dot @304 +88  dot_single  dot float64 [baseline] x: size=3 stride=8, y: size=3 "
                             "stride=8\n"
                             "    strided_dim @392 +40  strided_dim_single  size=3 dst_stride=8 src_stride=4\n"
                             "      leaf @432 +16  cast int32 -> float64 (fractional) strided [baseline]\n"
                             "total: 448 bytes in the kernel buffer; builder on the heap (capacity ?)\n"));
}

TEST(CliReduce, CallablesListsTheNewBuiltIns) {
    const Result r = ckernel("callables");
    EXPECT_EQ(r.status, 0);
    for (const char *s : {"\nminimum\n  (bfloat16, bfloat16) -> bfloat16\n  (bool, bool) -> bool\n",
                          "\nmaximum\n",
                          "\nlogical_and\n  (bfloat16, bfloat16) -> bool\n  (bool, bool) -> bool\n"
                          "  (complex128, complex128) -> bool\n",
                          "\nlogical_or\n",
                          "\ndot\n  (N * bool, N * bool) -> bool\n  (N * complex128, N * complex128) -> "
                          "complex128\n"}) {
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
    }
}

}  // namespace
