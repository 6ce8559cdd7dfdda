// ck_expr_bind: arguments bound to 0-d values become constants typed by value, as NumPy 1.24
// types 0-d arrays and NumPy scalars beside arrays. Expected types and values are NumPy's
// (np.int16(5) * np.array([1, 2, 3], np.int8) and so on, worked out in the comments).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ckt.hpp"
#include "ckt_array.hpp"
#include "expr_support.hpp"

namespace {

using ckt::ExprArg;
using ckt::failure;

struct Bound {
    const char *name, *type, *literal;
};

// "TYPE VALUE" of text with `bound` bound first and `args` passed when evaluated, or the
// status and message.
std::string eval_bound(const char *text, const std::vector<Bound> &bound,
                       const std::vector<ExprArg> &args) {
    ck_expr *e = nullptr, *b = nullptr;
    int rc = ck_expr_parse(text, &e);
    std::vector<std::unique_ptr<ckt::Array>> values, arrays;
    std::vector<const char *> bnames, names;
    std::vector<const ck_array *> bvals, srcs;
    for (const auto &v : bound) {
        values.push_back(std::make_unique<ckt::Array>(v.type, v.literal));
        bnames.push_back(v.name);
    }
    for (const auto &a : args) {
        arrays.push_back(std::make_unique<ckt::Array>(a.type, a.literal.c_str()));
        names.push_back(a.name);
    }
    for (auto &v : values) bvals.push_back(v->get());
    for (auto &a : arrays) srcs.push_back(a->get());
    if (rc == CK_OK) {
        rc = ck_expr_bind(e, static_cast<int>(bnames.size()), bnames.data(), bvals.data(), &b);
    }
    ck_array *out = nullptr;
    if (rc == CK_OK) {
        rc = ck_expr_eval_new(b, static_cast<int>(srcs.size()), names.data(), srcs.data(),
                              nullptr, &out);
    }
    std::string result;
    if (rc == CK_OK) {
        char *t = nullptr, *s = nullptr;
        rc = ck_type_format(ck_array_type(out), &t);
        if (rc == CK_OK) rc = ck_array_format(out, &s);
        if (rc == CK_OK) result = std::string(t) + " " + s;
        ck_free(t);
        ck_free(s);
    }
    if (rc != CK_OK) result = failure(rc);
    ck_array_free(out);
    ck_expr_decref(b);
    ck_expr_decref(e);
    return result;
}

TEST(ExprBind, ValuesAreTypedByValueBesideArrays) {
    // np.int16(5) * int8 array: 5 fits int8, so int8 (wrapping: 5 * 30 = 150 -> -106)
    EXPECT_EQ(eval_bound("a * b", {{"a", "int16", "5"}}, {{"b", "3 * int8", "[1, 2, 30]"}}),
              "3 * int8 [5, 10, -106]");
    // np.int16(300) does not fit int8: int16
    EXPECT_EQ(eval_bound("a * b", {{"a", "int16", "300"}}, {{"b", "3 * int8", "[1, 2, 30]"}}),
              "3 * int16 [300, 600, 9000]");
    // np.float64(0.5) * float32 array is float32; np.float64(1e300) keeps float64
    EXPECT_EQ(eval_bound("a * x", {{"a", "float64", "0.5"}}, {{"x", "2 * float32", "[1, 3]"}}),
              "2 * float32 [0.5, 1.5]");
    EXPECT_EQ(eval_bound("a * x", {{"a", "float64", "1e300"}}, {{"x", "2 * float32", "[1, 3]"}}),
              "2 * float64 [1e+300, 3e+300]");
    // A float value beside integer arrays is of a higher kind: its own type (float64)
    EXPECT_EQ(eval_bound("a + x", {{"a", "float32", "0.5"}}, {{"x", "2 * int8", "[1, 3]"}}),
              "2 * float32 [1.5, 3.5]");
    // np.uint8(200) - int8 array: uint8 beside int8 is int16
    EXPECT_EQ(eval_bound("a - x", {{"a", "uint8", "200"}}, {{"x", "2 * int8", "[1, -3]"}}),
              "2 * int16 [199, 203]");
}

TEST(ExprBind, AmongValuesAndLiteralsEachKeepsItsType) {
    // np.float32(2.5) / 3 is a float64 (no array: every operand its own type)
    EXPECT_EQ(eval_bound("a / 3", {{"a", "float32", "2.5"}}, {}), "float64 0.8333333333333334");
    // np.float32(1) + np.float32(2) stays float32; np.int8(100) + np.int16(1) is int16
    EXPECT_EQ(eval_bound("a + b", {{"a", "float32", "1"}, {"b", "float32", "2"}}, {}),
              "float32 3");
    EXPECT_EQ(eval_bound("a + b", {{"a", "int8", "100"}, {"b", "int16", "1"}}, {}), "int16 101");
    // Bound values and the unbound argument in its place: 2 * a + 3 * b with a bound to
    // np.float32(4) and b a float32 array: 2 * a is a float64 scalar (8), beside float32
    // values it is float32
    EXPECT_EQ(eval_bound("2 * a + 3 * b", {{"a", "float32", "4"}}, {{"b", "2 * float32", "[1, 2]"}}),
              "2 * float32 [11, 14]");
}

TEST(ExprBind, TheBoundExpressionKeepsTheOthersInOrder) {
    ck_expr *e = nullptr, *b = nullptr;
    ASSERT_EQ(ck_expr_parse("x * k + y - k", &e), CK_OK);
    ckt::Array k("int16", "7");
    const char *names[] = {"k"};
    const ck_array *vals[] = {k.get()};
    ASSERT_EQ(ck_expr_bind(e, 1, names, vals, &b), CK_OK) << ck_last_error();
    ASSERT_EQ(ck_expr_nargs(b), 2);
    EXPECT_STREQ(ck_expr_arg_name(b, 0), "x");
    EXPECT_STREQ(ck_expr_arg_name(b, 1), "y");
    char *s = nullptr;
    ASSERT_EQ(ck_expr_format(b, &s), CK_OK);
    EXPECT_STREQ(s, "(((x * 7:int16) + y) - 7:int16)");
    ck_free(s);
    ck_expr_decref(b);
    ck_expr_decref(e);
}

TEST(ExprBind, BadBindingsAreRefused) {
    EXPECT_EQ(eval_bound("a * b", {{"c", "int16", "5"}}, {{"b", "3 * int8", "[1, 2, 3]"}}),
              "CK_ERR_INVALID: ck_expr_bind: the expression has no argument named 'c'");
    EXPECT_EQ(eval_bound("a * b", {{"a", "2 * int16", "[5, 6]"}}, {{"b", "3 * int8", "[1, 2, 3]"}}),
              "CK_ERR_TYPE: ck_expr_bind: 'a' is bound to a value that is not one number (a "
              "0-d array of a bool, integer, float or complex type)");
    EXPECT_EQ(eval_bound("a * b", {{"a", "string", "\"x\""}}, {{"b", "3 * int8", "[1, 2, 3]"}}),
              "CK_ERR_TYPE: ck_expr_bind: 'a' is bound to a value that is not one number (a "
              "0-d array of a bool, integer, float or complex type)");
    ck_expr *out = nullptr;
    EXPECT_EQ(ck_expr_bind(nullptr, 0, nullptr, nullptr, &out), CK_ERR_INVALID);
    EXPECT_EQ(out, nullptr);
}

TEST(ExprBind, AllocationFailureAtEveryPoint) {
    const int64_t points = ckt::for_each_alloc_failure([]() {
        ck_expr *e = nullptr, *b = nullptr;
        int rc = ck_expr_parse("sqrt(x) * k + k", &e);
        ck_type *kt = nullptr;
        ck_array *k = nullptr;
        if (rc == CK_OK) rc = ck_type_parse("float32", &kt);
        if (rc == CK_OK) rc = ck_array_parse(kt, "4", &k);
        const char *names[] = {"k", "x"};
        const ck_array *vals[] = {k, k};
        if (rc == CK_OK) rc = ck_expr_bind(e, 2, names, vals, &b);
        ck_array *out = nullptr;
        if (rc == CK_OK) rc = ck_expr_eval_new(b, 0, nullptr, nullptr, nullptr, &out);
        if (rc == CK_OK) {
            float v = 0;
            std::memcpy(&v, ck_array_data(out), sizeof v);
            EXPECT_EQ(v, 12.0f); // sqrt(np.float32(4)) * np.float32(4) + np.float32(4)
            EXPECT_EQ(ck_type_get_id(ck_array_type(out)), CK_TYPE_FLOAT32);
        }
        ck_array_free(out);
        ck_array_free(k);
        ck_type_decref(kt);
        ck_expr_decref(b);
        ck_expr_decref(e);
        return rc;
    });
    EXPECT_GT(points, 3);
}

} // namespace
