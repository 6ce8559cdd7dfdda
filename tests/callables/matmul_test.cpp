// tests/callables/matmul_test.cpp: the built-in matmul through the C API: hand-computed
// products of matrices, of NumPy's 1-d operands (a row first, a column second, both: a dot
// product) and of stacks whose batch dimensions broadcast; the result types
// (ck_call_result_type without the unit dimensions), NumPy's selection (int8 @ uint8 is
// int16), bfloat16 summed in float32 and rounded once, the refusals (mismatched K, a scalar
// operand, var core dimensions, a destination without the result's dimension), and a clean
// failure at every allocation of a 1-d call's build. NumPy's bits on every type:
// python/tests/test_ufuncs.py.
#include <gtest/gtest.h>

#include <string>

#include "call_literals.hpp"
#include "ckernel/ckernel.h"
#include "ckt.hpp"

namespace {

std::string matmul(const char *ta, const char *a, const char *tb, const char *b,
                   const char *out = nullptr) {
    ck_callable *c = nullptr;
    if (ck_lookup("matmul", &c) != CK_OK) return ck_last_error();
    const std::string r = ckt::call(c, {{ta, a}, {tb, b}}, out);
    ck_callable_decref(c);
    return r;
}

std::string result_type(const char *ta, const char *tb) {
    ck_callable *c = nullptr;
    ck_type *a = nullptr, *b = nullptr, *r = nullptr;
    std::string s;
    int rc = ck_lookup("matmul", &c);
    if (rc == CK_OK) rc = ck_type_parse(ta, &a);
    if (rc == CK_OK) rc = ck_type_parse(tb, &b);
    const ck_type *ts[2] = {a, b};
    if (rc == CK_OK) rc = ck_call_result_type(c, 2, ts, nullptr, &r);
    char *text = nullptr;
    if (rc == CK_OK) rc = ck_type_format(r, &text);
    s = rc == CK_OK ? text : std::string(ck_status_name(rc)) + ": " + ck_last_error();
    ck_free(text);
    ck_type_decref(r);
    ck_type_decref(a);
    ck_type_decref(b);
    ck_callable_decref(c);
    return s;
}

TEST(Matmul, MatricesRowsColumnsAndDotProductsAsNumPy) {
    EXPECT_EQ(matmul("2 * 3 * int64", "[[1, 2, 3], [4, 5, 6]]", "3 * 2 * int64",
                     "[[1, 0], [0, 1], [1, 1]]"),
              "[[4, 5], [10, 11]]");
    EXPECT_EQ(matmul("3 * int64", "[1, 2, 3]", "3 * 2 * int64", "[[1, 0], [0, 1], [1, 1]]"),
              "[4, 5]");
    EXPECT_EQ(matmul("2 * 3 * int64", "[[1, 2, 3], [4, 5, 6]]", "3 * int64", "[1, 1, 1]"),
              "[6, 15]");
    EXPECT_EQ(matmul("3 * float64", "[1, 2, 3]", "3 * float64", "[1, 2, 3]"), "14");
    // stacks: (2, 2, 3) @ (3,) and (2, 1, 2, 2) @ (3, 2, 2), the batch broadcast
    EXPECT_EQ(matmul("2 * 2 * 3 * int32", "[[[1, 2, 3], [4, 5, 6]], [[1, 1, 1], [2, 2, 2]]]",
                     "3 * int32", "[1, 0, -1]"),
              "[[-2, -2], [0, 0]]");
    EXPECT_EQ(matmul("2 * 1 * 1 * 2 * int64", "[[[[1, 2]]], [[[3, 4]]]]", "3 * 2 * 1 * int64",
                     "[[[1], [1]], [[2], [0]], [[0], [3]]]"),
              "[[[[3]], [[2]], [[6]]], [[[7]], [[6]], [[12]]]]");
    // integers wrap as NumPy's; int8 @ uint8 is NumPy's int16 loop
    EXPECT_EQ(matmul("2 * int8", "[100, 100]", "2 * int8", "[2, 1]"), "44");  // 300 - 256
    EXPECT_EQ(matmul("2 * int8", "[-1, 2]", "2 * uint8", "[200, 100]"), "0");
    EXPECT_EQ(result_type("2 * int8", "2 * uint8"), "int16");
    EXPECT_EQ(matmul("2 * bool", "[true, false]", "2 * 2 * bool", "[[false, true], [true, true]]"),
              "[false, true]");
    // bfloat16: summed in float32, rounded once: 256 + 1 + 1 is 258 (each step in bfloat16
    // would stay at 256, whose spacing is 2)
    EXPECT_EQ(matmul("3 * bfloat16", "[256, 1, 1]", "3 * bfloat16", "[1, 1, 1]"), "258");
    EXPECT_EQ(matmul("0 * int64", "[]", "0 * 2 * int64", "[]"), "[0, 0]");  // an empty sum
}

TEST(Matmul, ResultTypesDropTheUnitDimensionsOfOneDimensionalOperands) {
    EXPECT_EQ(result_type("2 * 3 * float32", "3 * 4 * float32"), "2 * 4 * float32");
    EXPECT_EQ(result_type("3 * float32", "3 * 4 * float32"), "4 * float32");
    EXPECT_EQ(result_type("2 * 3 * float32", "3 * float32"), "2 * float32");
    EXPECT_EQ(result_type("3 * float32", "3 * float32"), "float32");
    EXPECT_EQ(result_type("5 * 1 * 2 * 3 * int8", "4 * 3 * 7 * int8"), "5 * 4 * 2 * 7 * int8");
    EXPECT_EQ(result_type("3 * float64", "6 * 3 * 4 * float64"), "6 * 4 * float64");
}

TEST(Matmul, MismatchesAndWhatItCannotTakeAreErrors) {
    EXPECT_EQ(matmul("2 * 3 * int64", "[[1, 2, 3], [4, 5, 6]]", "2 * 2 * int64", "[[1, 0], [0, 1]]")
                  .substr(0, 16),
              "CK_ERR_BROADCAST");
    EXPECT_EQ(matmul("3 * int64", "[1, 2, 3]", "int64", "2").substr(0, 16), "CK_ERR_BROADCAST");
    EXPECT_EQ(matmul("2 * var * int64", "[[1], [2]]", "1 * 2 * int64", "[[1, 2]]"),
              "CK_ERR_UNSUPPORTED: matmul: argument 0's core dimension 1 is var; matmul takes "
              "fixed dimensions");
    EXPECT_EQ(matmul("3 * int64", "[1, 2, 3]", "3 * 2 * int64", "[[1, 0], [0, 1], [1, 1]]",
                     "int64"),
              "CK_ERR_BROADCAST: matmul: the destination has no dimension; the product of a row "
              "(1-d first operand) and a matrix has one");
    // into another destination type: cast as any call's result is
    EXPECT_EQ(matmul("2 * int64", "[1, 2]", "2 * int64", "[3, 4]", "float32"), "11");
}

TEST(Matmul, EveryAllocationFailureOfAOneDimensionalCallIsClean) {
    const int64_t points = ckt::for_each_alloc_failure([] {
        const std::string r =
            matmul("3 * int64", "[1, 2, 3]", "2 * 3 * 2 * int64",
                   "[[[1, 0], [0, 1], [1, 1]], [[2, 0], [0, 2], [2, 2]]]");
        if (r.rfind("CK_ERR_NOMEM", 0) == 0) return CK_ERR_NOMEM;
        EXPECT_EQ(r, "[[4, 5], [8, 10]]");
        return r == "[[4, 5], [8, 10]]" ? CK_OK : CK_ERR_INTERNAL;
    });
    EXPECT_GT(points, 5);
}

}  // namespace
