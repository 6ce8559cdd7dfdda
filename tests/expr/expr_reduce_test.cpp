// Reductions inside expressions (sum prod min max any all, axis=): values worked out by hand
// (integers, and floats that are exact), types as NumPy 1.24 gives them (np.sum of int8 is
// int64; a reduction to one value is a NumPy scalar, typed by value beside arrays), the
// printed form, and the errors with their columns.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ckt.hpp"
#include "ckt_array.hpp"
#include "expr_support.hpp"

namespace {

using ckt::eval;
using ckt::parsed;

// "TYPE VALUE" of ck_expr_eval_new.
std::string typed(const char *text, const std::vector<ckt::ExprArg> &args) {
    const std::string v = eval(text, args);
    ck_expr *e = nullptr;
    if (ck_expr_parse(text, &e) != CK_OK) return v;
    std::vector<std::unique_ptr<ckt::Array>> arrays;
    std::vector<const ck_array *> srcs;
    std::vector<const char *> names;
    for (const auto &a : args) {
        arrays.push_back(std::make_unique<ckt::Array>(a.type, a.literal.c_str()));
        srcs.push_back(arrays.back()->get());
        names.push_back(a.name);
    }
    ck_array *out = nullptr;
    std::string t = "?";
    if (ck_expr_eval_new(e, static_cast<int>(srcs.size()), names.data(), srcs.data(), nullptr,
                         &out) == CK_OK) {
        char *s = nullptr;
        if (ck_type_format(ck_array_type(out), &s) == CK_OK) t = s;
        ck_free(s);
    }
    ck_array_free(out);
    ck_expr_decref(e);
    return t + " " + v;
}

TEST(ExprReduce, AtTheRoot) {
    // a dot product: 1*4 + 2*5 + 3*6
    EXPECT_EQ(typed("sum(a * b)", {{"a", "3 * float64", "[1, 2, 3]"}, {"b", "3 * float64", "[4, 5, 6]"}}),
              "float64 32");
    // rows: 1+4+9, 16+25+36; np.sum of int32 is int64
    EXPECT_EQ(typed("sum(x * x, axis=1)", {{"x", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]"}}),
              "2 * int64 [14, 77]");
    EXPECT_EQ(typed("prod(x + 1, axis=0)", {{"x", "2 * 3 * int8", "[[1, 2, 3], [4, 5, 6]]"}}),
              "3 * int64 [10, 18, 28]");
    EXPECT_EQ(typed("min(x - 10, axis=-1)", {{"x", "2 * 3 * uint8", "[[1, 2, 3], [4, 5, 6]]"}}),
              "2 * uint8 [247, 250]"); // uint8 wraps: 1 - 10 is 247, as NumPy's
    EXPECT_EQ(typed("any(x > 4, axis=1)", {{"x", "2 * 3 * float32", "[[1, 2, 3], [4, 5, 6]]"}}),
              "2 * bool [false, true]");
    EXPECT_EQ(typed("all(x < 7)", {{"x", "2 * 3 * float32", "[[1, 2, 3], [4, 5, 6]]"}}),
              "bool true");
    // axis=() reduces nothing: the operand in sum's type (np.sum(x, axis=()) of int8 is int64)
    EXPECT_EQ(typed("sum(x, axis=())", {{"x", "3 * int8", "[1, 2, -3]"}}), "3 * int64 [1, 2, -3]");
    // two axes of three, as a tuple or positionally
    EXPECT_EQ(typed("max(x, (0, 2))", {{"x", "2 * 2 * 2 * int16", "[[[1, 8], [3, 4]], [[5, 6], [7, 2]]]"}}),
              "2 * int16 [8, 7]");
    EXPECT_EQ(typed("max(x, axis=None)", {{"x", "2 * 2 * int16", "[[1, 8], [3, 4]]"}}), "int16 8");
}

TEST(ExprReduce, InsideAnExpressionTheyAreEvaluatedFirstAndBroadcast) {
    // a - sum(a, axis=0) / 4 over [[1, 2], [3, 4]]: sums [4, 6], quarters [1, 1.5]
    EXPECT_EQ(typed("a - sum(a, axis=0) / 4", {{"a", "2 * 2 * float64", "[[1, 2], [3, 4]]"}}),
              "2 * 2 * float64 [[0, 0.5], [2, 2.5]]");
    // np.max(x) + 1: two scalars, each its own type (np.int8(6) + 1 is an int64)
    EXPECT_EQ(typed("max(x, (0, -1)) + 1", {{"x", "2 * 3 * int8", "[[1, 2, 3], [4, 5, 6]]"}}),
              "int64 7");
    // sum(sum(x, axis=1) * 2) - prod(x): (3 + 7) * 2 - 24
    EXPECT_EQ(typed("sum(sum(x, axis=1) * 2) - prod(x)", {{"x", "2 * 2 * int8", "[[1, 2], [3, 4]]"}}),
              "int64 -4");
    // One value is a NumPy scalar: np.int64(6) beside int8 values is an int8 (6 fits)
    EXPECT_EQ(typed("x - sum(x)", {{"x", "3 * int8", "[1, 2, 3]"}}), "3 * int8 [-5, -4, -3]");
    // ... and np.int64(300) is not: int16
    EXPECT_EQ(typed("x - sum(x)", {{"x", "3 * int8", "[100, 100, 100]"}}), "3 * int16 [-200, -200, -200]");
    // Two reductions of the same argument and an argument used only inside one
    EXPECT_EQ(typed("sum(a * b) + sum(a) * c", {{"a", "3 * float64", "[1, 2, 3]"},
                                                {"b", "3 * float64", "[4, 5, 6]"},
                                                {"c", "2 * float64", "[1, 2]"}}),
              "2 * float64 [38, 44]");
}

TEST(ExprReduce, ResultTypeKnowsTypesNotValues) {
    // Without the values, one reduced value is typed by its type: int64, where
    // ck_expr_eval_new (and NumPy) types the value 6 as int8.
    EXPECT_EQ(ckt::result_type("x - sum(x)", {{"x", "3 * int8", ""}}), "3 * int64");
    EXPECT_EQ(ckt::result_type("sum(x * x, axis=1)", {{"x", "2 * 3 * int32", ""}}), "2 * int64");
    EXPECT_EQ(ckt::result_type("a - sum(a, axis=0) / 4", {{"a", "5 * 2 * float32", ""}}),
              "5 * 2 * float32");
}

TEST(ExprReduce, PrintedForm) {
    EXPECT_EQ(parsed("sum(a * b)"), "sum((a * b))");
    EXPECT_EQ(parsed("max(x, axis=-1) + min(x, (0, 1))"),
              "(max(x, axis=(-1,)) + min(x, axis=(0, 1)))");
    EXPECT_EQ(parsed("all(x < 1, axis=None)"), "all((x < 1:int64))");
}

TEST(ExprReduce, ErrorsNameTheColumn) {
    EXPECT_EQ(eval("1 + sum(x, axis=2)", {{"x", "3 * int8", "[1, 2, 3]"}}),
              "CK_ERR_INVALID: expression column 5: reduce: axis 2 is out of range for a source "
              "of 1 dimension");
    EXPECT_EQ(eval("min(x) * 2", {{"x", "0 * int8", "[]"}}),
              "CK_ERR_INVALID: expression column 1: minimum: no elements to reduce (dimension 0 "
              "has size 0), and minimum has no identity");
    EXPECT_EQ(eval("sum(x, axis=(0, 0))", {{"x", "2 * int8", "[1, 2]"}}),
              "CK_ERR_INVALID: expression column 1: reduce: axis 0 is given twice");
    EXPECT_EQ(parsed("sum(x, 1, 2)"),
              "CK_ERR_PARSE: expression: expected ')' (a reduction takes one operand and its "
              "axes) at column 9, found ','");
    EXPECT_EQ(parsed("sum(x, axis=)"),
              "CK_ERR_PARSE: expression: expected an axis (an integer) at column 13, found ')'");
    EXPECT_EQ(parsed("sum(x, axis=64)"),
              "CK_ERR_INVALID: expression: axis 64 at column 13 is out of range (arrays have at "
              "most 64 dimensions)");
    EXPECT_EQ(parsed("x = 1"),
              "CK_ERR_PARSE: expression: unexpected '=' at column 3 (comparisons are == and !=)");
    // An unknown name stays an error with reductions too
    EXPECT_EQ(eval("sum(x)", {{"x", "2 * int8", "[1, 2]"}, {"y", "2 * int8", "[1, 2]"}}).rfind(
                  "CK_ERR_INVALID: expression: ", 0),
              0u);
    // NA: the reduction of an option with NA is NA (no skipna in expressions)
    EXPECT_EQ(eval("sum(x) + 1", {{"x", "3 * ?int32", "[1, NA, 3]"}}), "NA");
}

TEST(ExprReduce, AKernelRefusesThem) {
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("sum(x) + 1", &e), CK_OK);
    EXPECT_EQ(ck_expr_reductions(e), 1);
    ckt::Array x("3 * int32", "[1, 2, 3]");
    ckt::Array out("int64");
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    const ck_type *st[] = {ck_array_type(x.get())};
    const char *sam[] = {ck_array_arrmeta(x.get())};
    EXPECT_EQ(ck_make_expr(&b, &off, e, ck_array_type(out.get()), ck_array_arrmeta(out.get()), 1,
                           nullptr, st, sam, CK_REQUEST_SINGLE, nullptr),
              CK_ERR_UNSUPPORTED);
    EXPECT_NE(std::string(ck_last_error()).find("sum(...): a reduction is evaluated by ck_expr_eval"),
              std::string::npos)
        << ck_last_error();
    ck_builder_destroy(&b);
    // ... which evaluate them
    const ck_array *src[] = {x.get()};
    ASSERT_EQ(ck_expr_eval(e, out.get(), 1, nullptr, src, nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(out.str(), "7");
    ck_expr_decref(e);
}

TEST(ExprReduce, AllocationFailureAtEveryPoint) {
    const int64_t points = ckt::for_each_alloc_failure([]() {
        ck_expr *e = nullptr;
        int rc = ck_expr_parse("a - sum(a * 2, axis=0) / 4 + max(a)", &e);
        ck_type *t = nullptr;
        ck_array *a = nullptr, *out = nullptr;
        if (rc == CK_OK) rc = ck_type_parse("2 * 2 * float64", &t);
        if (rc == CK_OK) rc = ck_array_parse(t, "[[1, 2], [3, 4]]", &a);
        const ck_array *src[] = {a};
        if (rc == CK_OK) rc = ck_expr_eval_new(e, 1, nullptr, src, nullptr, &out);
        char *s = nullptr;
        if (rc == CK_OK) rc = ck_array_format(out, &s);
        if (rc == CK_OK) {
            // sums of 2a over axis 0: [8, 12], quarters [2, 3]; max 4
            EXPECT_STREQ(s, "[[3, 3], [5, 5]]");
        }
        ck_free(s);
        ck_array_free(out);
        ck_array_free(a);
        ck_type_decref(t);
        ck_expr_decref(e);
        return rc;
    });
    EXPECT_GT(points, 10);
}

} // namespace
