// tests/expr/expr_test.cpp: fused expressions by hand: the issue's example, the grammar and
// its precedence, literal types, casts, named calls, unary minus (the built-in negative),
// parse errors with columns, unknown names, argument matching, broadcasting over fixed, var
// and pointer dimensions, options, misaligned data, errors inside nodes, chunks of more than
// one block, threads sharing one expression, the kernel tree, and allocation failure at every
// point of parsing, building and running. Expected values are computed by hand.
#include <atomic>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "ckt_array.hpp"
#include "expr_support.hpp"

namespace {

using ckt::eval;
using ckt::parsed;
using ckt::result_type;

TEST(Expr, TheIssueExample) {
    EXPECT_EQ(eval("a * x + b", {{"a", "float64", "2"}, {"x", "3 * int32", "[1, 2, 3]"},
                                 {"b", "float64", "0.5"}}),
              "[2.5, 4.5, 6.5]");
    // The sources in another order than the text's: matched by name.
    EXPECT_EQ(eval("a * x + b", {{"b", "float64", "0.5"}, {"x", "3 * int32", "[1, 2, 3]"},
                                 {"a", "float64", "2"}}),
              "[2.5, 4.5, 6.5]");
    // Into a destination of another type: the last result cast (2.5 -> 2 in nocheck).
    EXPECT_EQ(eval("a * x + b",
                   {{"a", "float64", "2"}, {"x", "3 * int32", "[1, 2, 3]"}, {"b", "float64", "0.5"}},
                   "3 * int16", ckt::ctx(CK_ERRMODE_NOCHECK)),
              "[2, 4, 6]");
    EXPECT_EQ(eval("a * x + b",
                   {{"a", "float64", "2"}, {"x", "3 * int32", "[1, 2, 3]"}, {"b", "float64", "0.5"}},
                   "3 * int16"),
              "CK_ERR_FRACTIONAL: expression column 7: float64 value 2.5 has a fractional part "
              "(int16)");
}

TEST(Expr, PrecedenceAndAssociativity) {
    EXPECT_EQ(parsed("a - b - c"), "((a - b) - c)");
    EXPECT_EQ(parsed("a / b / c"), "((a / b) / c)");
    EXPECT_EQ(parsed("a - b * c / d + e"), "((a - ((b * c) / d)) + e)");
    EXPECT_EQ(parsed("(a - b) * (c + d)"), "((a - b) * (c + d))");
    EXPECT_EQ(parsed("-a * b"), "((-a) * b)");
    EXPECT_EQ(parsed("a * -b"), "(a * (-b))");
    EXPECT_EQ(parsed("- - a"), "(-(-a))");
    EXPECT_EQ(parsed("minimum(a, b * 2) + hypot_unknown_free"), "(minimum(a, (b * 2:int64)) + hypot_unknown_free)");
    EXPECT_EQ(parsed("  a\t*\n(b)  "), "(a * b)");
    // Values: 10 - 4 - 3 = 3, not 10 - (4 - 3) = 9; 2 + 3 * 4 = 14.
    EXPECT_EQ(eval("a - b - c", {{"a", "int32", "10"}, {"b", "int32", "4"}, {"c", "int32", "3"}}), "3");
    EXPECT_EQ(eval("a + b * c", {{"a", "int32", "2"}, {"b", "int32", "3"}, {"c", "int32", "4"}}), "14");
    EXPECT_EQ(eval("(a + b) * c", {{"a", "int32", "2"}, {"b", "int32", "3"}, {"c", "int32", "4"}}), "20");
    // An argument used twice is one argument.
    EXPECT_EQ(eval("x * x - x", {{"x", "3 * int64", "[1, 2, 3]"}}), "[0, 2, 6]");
}

// A literal has the type Python gives the number (int64, uint64 beyond it, float64,
// complex128, bool); beside arrays selection types it by value as NumPy 1.24 does.
// A literal typed by value is that type's value, rounded as NumPy rounds it (0.1 beside
// float32 values is float32's 0.1), whatever the error mode: the mode checks the data's casts.
TEST(Expr, ValueTypedLiteralsRoundInEveryMode) {
    for (ck_errmode m : {CK_ERRMODE_NOCHECK, CK_ERRMODE_FRACTIONAL, CK_ERRMODE_INEXACT}) {
        // NumPy: np.array([1, 2], np.float32) * 0.1 -> [0.10000000149011612, 0.20000000298023224]
        EXPECT_EQ(eval("y * 0.1", {{"y", "2 * float32", "[1, 2]"}}, nullptr, ckt::ctx(m)),
                  "[0.1, 0.2]");
        EXPECT_EQ(eval("float64(y * 0.1)", {{"y", "2 * float32", "[1, 2]"}}, nullptr, ckt::ctx(m)),
                  "[0.10000000149011612, 0.20000000298023224]");
        // np.array([1, 2], np.float16) - (-1e-3) -> [1.0009765625, 2.001953125]
        EXPECT_EQ(eval("float64(x - -1e-3)", {{"x", "2 * float16", "[1, 2]"}}, nullptr, ckt::ctx(m)),
                  "[1.0009765625, 2.001953125]");
    }
    // A cast the mode checks still fails: 2.5 into an int8 signature is not typed by value
    EXPECT_EQ(eval("int8(2.5) + x", {{"x", "2 * int8", "[1, 2]"}}, nullptr,
                   ckt::ctx(CK_ERRMODE_FRACTIONAL))
                  .rfind("CK_ERR_", 0),
              0u);
}

TEST(Expr, LiteralTypes) {
    EXPECT_EQ(parsed("x + 0"), "(x + 0:int64)");
    EXPECT_EQ(parsed("x + -128"), "(x + -128:int64)");
    EXPECT_EQ(parsed("x + 9223372036854775807"), "(x + 9223372036854775807:int64)");
    EXPECT_EQ(parsed("x + 9223372036854775808"), "(x + 9223372036854775808:uint64)");
    EXPECT_EQ(parsed("x + -9223372036854775808"), "(x + -9223372036854775808:int64)");
    EXPECT_EQ(parsed("x + 2.5"), "(x + 2.5:float64)");
    EXPECT_EQ(parsed("x + 1e3"), "(x + 1000.0:float64)");
    EXPECT_EQ(parsed("x + .5"), "(x + 0.5:float64)");
    EXPECT_EQ(parsed("x + 3."), "(x + 3.0:float64)");
    EXPECT_EQ(parsed("x + 1E-2"), "(x + 0.01:float64)");
    EXPECT_EQ(parsed("x + -0.0"), "(x + -0.0:float64)");
    EXPECT_EQ(parsed("x + 007"), "(x + 7:int64)");
    EXPECT_EQ(parsed("x + 2j"), "(x + (0.0+2.0j):complex128)");
    EXPECT_EQ(parsed("x + -1.5j"), "(x + (-0.0-1.5j):complex128)");
    EXPECT_EQ(parsed("True | x & False"), "(True:bool | (x & False:bool))");
    EXPECT_EQ(parsed("x + inf - -inf + nan"), "(((x + inf:float64) - -inf:float64) + nan:float64)");
    // A minus in front of parentheses is the operation: -(2) is negative of an int64.
    EXPECT_EQ(parsed("x + -(2)"), "(x + (-2:int64))");
    // By value (NumPy 1.24: np.int8(100) + 100 wraps to -56; 200 is uint8, and int8 with
    // uint8 is int16; uint8 + 1 stays uint8 and wraps; uint8 & 300 is int16's loop).
    EXPECT_EQ(eval("x + 100", {{"x", "1 * int8", "[100]"}}), "[-56]");
    EXPECT_EQ(eval("x + 200", {{"x", "1 * int8", "[100]"}}), "[300]");
    EXPECT_EQ(eval("x + 1", {{"x", "2 * uint8", "[255, 0]"}}), "[0, 1]");
    EXPECT_EQ(eval("x - 1", {{"x", "2 * uint8", "[255, 0]"}}), "[254, 255]");
    EXPECT_EQ(eval("x + -1", {{"x", "2 * uint8", "[255, 0]"}}), "[254, -1]");
    EXPECT_EQ(result_type("x & 300", {{"x", "2 * uint8", "[1, 2]"}}), "2 * int16");
    EXPECT_EQ(result_type("x + 300", {{"x", "2 * uint8", "[1, 2]"}}), "2 * uint16");
    EXPECT_EQ(result_type("x + 70000.0", {{"x", "2 * float16", "[1, 2]"}}), "2 * float32");
    EXPECT_EQ(result_type("x + 2.5", {{"x", "2 * int8", "[1, 2]"}}), "2 * float64");
    EXPECT_EQ(result_type("x * 1j", {{"x", "2 * float32", "[1, 2]"}}), "2 * complex64");
    EXPECT_EQ(result_type("x * 1j", {{"x", "2 * float64", "[1, 2]"}}), "2 * complex128");
    EXPECT_EQ(result_type("x * 1e39j", {{"x", "2 * float32", "[1, 2]"}}), "2 * complex128");
    // float32 with a float literal is float32, the literal rounded once (float32(0.1)).
    EXPECT_EQ(eval("x * 0.1", {{"x", "1 * float32", "[1]"}}), "[0.1]");
    EXPECT_EQ(eval("float64(x * 0.1)", {{"x", "1 * float32", "[1]"}}), "[0.10000000149011612]");
    EXPECT_EQ(eval("x + 9223372036854775807", {{"x", "1 * int64", "[1]"}}), "[-9223372036854775808]");
    // Operations on literals alone are computed once, then typed by value too:
    // (2 + 3) is 5, a uint8 beside uint8 values.
    EXPECT_EQ(result_type("x + (2 + 3)", {{"x", "2 * uint8", "[1, 2]"}}), "2 * uint8");
}

TEST(Expr, Casts) {
    EXPECT_EQ(parsed("float64(x) + int8(3)"), "(float64(x) + int8(3:int64))");
    // float32(x) * 2: float32 with an int8 is float32; 16777217 rounds to 16777216 in float32.
    EXPECT_EQ(eval("float32(x) * 1", {{"x", "int32", "16777217"}}), "16777216");
    EXPECT_EQ(eval("float32(x) * 1", {{"x", "int32", "16777217"}}, nullptr,
                   ckt::ctx(CK_ERRMODE_INEXACT)),
              "CK_ERR_INEXACT: expression column 1: int32 value 16777217 is not exact in float32 "
              "(16777216)");
    EXPECT_EQ(eval("int8(x)", {{"x", "2 * int32", "[100, 300]"}}, nullptr,
                   ckt::ctx(CK_ERRMODE_NOCHECK)),
              "[100, 44]");
    EXPECT_EQ(eval("int8(x) + 1", {{"x", "2 * int32", "[100, 300]"}}),
              "CK_ERR_OVERFLOW: expression column 1: int32 value 300 is out of range for int8");
    // A cast of a literal is made when the kernel is built: its failure fails the build.
    EXPECT_EQ(eval("x + int8(300)", {{"x", "int32", "1"}}),
              "CK_ERR_OVERFLOW: expression column 5: int64 value 300 is out of range for int8");
    EXPECT_EQ(eval("x + int8(300)", {{"x", "int32", "1"}}, nullptr, ckt::ctx(CK_ERRMODE_NOCHECK)),
              "45");
    // A cast at the root into another destination type: two conversions, as written.
    EXPECT_EQ(eval("int8(x)", {{"x", "float64", "2.75"}}, "float64", ckt::ctx(CK_ERRMODE_NOCHECK)),
              "2");
    EXPECT_EQ(eval("float64(2.5) * x", {{"x", "int16", "2"}}), "5");
    EXPECT_EQ(eval("complex128(x) * 2", {{"x", "float32", "1.5"}}), "3+0j");
    EXPECT_EQ(eval("bool(x) * 2", {{"x", "2 * float64", "[0, 7]"}}, nullptr,
                   ckt::ctx(CK_ERRMODE_NOCHECK)),
              "[0, 2]");
    // The root is an argument: the expression is an assignment.
    EXPECT_EQ(eval("x", {{"x", "2 * int32", "[1, 2]"}}, "2 * float32"), "[1, 2]");
}

double hyp(double x, double y) {
    return std::sqrt(x * x + y * y);
}

TEST(Expr, NamedCalls) {
    EXPECT_EQ(eval("maximum(x, 0) + minimum(x, 0) * 10", {{"x", "4 * int32", "[-2, -1, 0, 3]"}}),
              "[-20, -10, 0, 3]");
    EXPECT_EQ(eval("logical_and(x, y)", {{"x", "3 * int8", "[0, 1, 2]"}, {"y", "float64", "1"}}),
              "[false, true, true]");
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("expr_test_hyp", &c), CK_OK);
    const int added = ck_callable_add_native(c, "dd)d", reinterpret_cast<void (*)(void)>(&hyp));
    if (added == CK_ERR_UNSUPPORTED) {
        ck_callable_decref(c);
        GTEST_SKIP() << "no libffi in this build: " << ck_last_error();
    }
    ASSERT_EQ(added, CK_OK) << ck_last_error();
    ASSERT_EQ(ck_register(c), CK_OK) << ck_last_error();
    ck_callable_decref(c);
    // int32 arguments are cast to the native's float64.
    EXPECT_EQ(eval("expr_test_hyp(x, y) / 5", {{"x", "2 * int32", "[3, 5]"}, {"y", "2 * int32", "[4, 12]"}}),
              "[1, 2.6]");
    EXPECT_EQ(eval("expr_test_hyp(x)", {{"x", "int32", "3"}}).rfind("CK_ERR_TYPE: expression column 1: ", 0), 0u);
    // The expression holds its callables: unregistered, they still serve it.
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("expr_test_hyp(x, 4)", &e), CK_OK);
    ASSERT_EQ(ck_unregister("expr_test_hyp"), CK_OK);
    ckt::Array x("float64", "3");
    ck_array *out = nullptr;
    const ck_array *src[] = {x.get()};
    ASSERT_EQ(ck_expr_eval_new(e, 1, nullptr, src, nullptr, &out), CK_OK) << ck_last_error();
    char *s = nullptr;
    ASSERT_EQ(ck_array_format(out, &s), CK_OK);
    EXPECT_STREQ(s, "5");
    ck_free(s);
    ck_array_free(out);
    ck_expr_decref(e);
    EXPECT_EQ(parsed("expr_test_hyp(x, 4)"),
              "CK_ERR_TYPE: expression: no callable named 'expr_test_hyp' at column 1 "
              "(ckernel callables lists them)");
}

std::atomic<int> counted_calls{0};
double counted(double x) {
    counted_calls++;
    return x + 1;
}

// Calls of constants are computed once, when planned, for the library's callables only: a
// user's function may have effects, so it runs per element at run time, never at build.
TEST(Expr, UserCallablesOfConstantsRunPerElement) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("expr_test_counted", &c), CK_OK);
    const int added = ck_callable_add_native(c, "d)d", reinterpret_cast<void (*)(void)>(&counted));
    if (added == CK_ERR_UNSUPPORTED) {
        ck_callable_decref(c);
        GTEST_SKIP() << "no libffi in this build: " << ck_last_error();
    }
    ASSERT_EQ(added, CK_OK) << ck_last_error();
    ASSERT_EQ(ck_register(c), CK_OK) << ck_last_error();
    ck_callable_decref(c);
    counted_calls = 0;
    ckt::Array x("3 * float64", "[1, 2, 3]");
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("expr_test_counted(2.0) * x + sqrt(4.0)", &e), CK_OK);
    const char *names[] = {"x"};
    const ck_type *types[] = {ck_array_type(x.get())};
    ck_type *rt = nullptr;
    ASSERT_EQ(ck_expr_result_type(e, 1, names, types, nullptr, &rt), CK_OK) << ck_last_error();
    ck_type_decref(rt);
    EXPECT_EQ(counted_calls.load(), 0); // planning computed sqrt(4.0), not the user's call
    ck_array *out = nullptr;
    const ck_array *src[] = {x.get()};
    ASSERT_EQ(ck_expr_eval_new(e, 1, names, src, nullptr, &out), CK_OK) << ck_last_error();
    EXPECT_EQ(counted_calls.load(), 3);
    char *s = nullptr;
    ASSERT_EQ(ck_array_format(out, &s), CK_OK);
    EXPECT_STREQ(s, "[5, 8, 11]");
    ck_free(s);
    ck_array_free(out);
    ck_expr_decref(e);
    ASSERT_EQ(ck_unregister("expr_test_counted"), CK_OK);
}

// Unary minus is the built-in negative: NumPy's np.negative (integers wrap, floats flip the
// sign bit, complex both parts; bool refused).
TEST(Expr, Negative) {
    EXPECT_EQ(eval("-x", {{"x", "3 * int8", "[-128, 1, 0]"}}), "[-128, -1, 0]");
    EXPECT_EQ(eval("-x", {{"x", "3 * uint8", "[1, 255, 0]"}}), "[255, 1, 0]");
    EXPECT_EQ(eval("-x", {{"x", "2 * uint64", "[1, 18446744073709551615]"}}),
              "[18446744073709551615, 1]");
    EXPECT_EQ(eval("-x", {{"x", "2 * int64", "[-9223372036854775808, 5]"}}),
              "[-9223372036854775808, -5]");
    EXPECT_EQ(eval("-x", {{"x", "3 * float64", "[0, -1.5, inf]"}}), "[-0, 1.5, -inf]");
    EXPECT_EQ(eval("-x", {{"x", "2 * float32", "[0.1, -0]"}}), "[-0.1, 0]");
    EXPECT_EQ(eval("-x", {{"x", "2 * float16", "[1.5, -0]"}}), "[-1.5, 0]");
    EXPECT_EQ(eval("-x", {{"x", "complex64", "1-2j"}}), "-1+2j");
    EXPECT_EQ(eval("-x", {{"x", "complex128", "0+0j"}}), "-0-0j");
    EXPECT_EQ(eval("- -x", {{"x", "int16", "7"}}), "7");
    EXPECT_EQ(eval("-x", {{"x", "bool", "true"}}),
              "CK_ERR_TYPE: expression column 1: negative: -bool is not defined (NumPy refuses "
              "it too); use logical_not, or cast to an integer type first");
    // The sign bit of a NaN is flipped, its payload kept.
    const uint64_t nan_bits = 0x7ff8000000000123ull, neg_bits = 0xfff8000000000123ull;
    double v;
    std::memcpy(&v, &nan_bits, sizeof v);
    ck_type *t = nullptr;
    ASSERT_EQ(ck_type_parse("float64", &t), CK_OK);
    ck_array *x = nullptr, *out = nullptr;
    ASSERT_EQ(ck_array_wrap(t, nullptr, reinterpret_cast<char *>(&v), nullptr, &x), CK_OK);
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("-x", &e), CK_OK);
    const ck_array *src[] = {x};
    ASSERT_EQ(ck_expr_eval_new(e, 1, nullptr, src, nullptr, &out), CK_OK) << ck_last_error();
    uint64_t got;
    std::memcpy(&got, ck_array_data(out), sizeof got);
    EXPECT_EQ(got, neg_bits);
    ck_array_free(out);
    ck_array_free(x);
    ck_expr_decref(e);
    ck_type_decref(t);
}

TEST(Expr, ParseErrorsGiveTheColumn) {
    struct Case {
        const char *text, *error;
    } cases[] = {
        {"a * ", "CK_ERR_PARSE: expression: expected a number, a name or '(' at column 5, found "
                 "the end of the expression"},
        {"", "CK_ERR_PARSE: expression: expected a number, a name or '(' at column 1, found the "
             "end of the expression"},
        {"a + (b * c", "CK_ERR_PARSE: expression: expected an operator or ')' (closing "
                       "the '(' at column 5) at column 11, found the end of the expression"},
        {"a b", "CK_ERR_PARSE: expression: expected an operator or the end at column 3, "
                "found the name 'b'"},
        {"a + )", "CK_ERR_PARSE: expression: expected a number, a name or '(' at column 5, "
                  "found ')'"},
        {"minimum(a, )", "CK_ERR_PARSE: expression: expected a number, a name or '(' at column "
                         "12, found ')'"},
        {"minimum(a b)", "CK_ERR_PARSE: expression: expected ',' or ')' at column 11, found the "
                         "name 'b'"},
        {"a $ b", "CK_ERR_PARSE: expression: unexpected character '$' at column 3 (expected a "
                  "number, a name, an operator, '(', ')' or ',')"},
        {"a + \x01", "CK_ERR_PARSE: expression: unexpected byte 0x01 at column 5"},
        {"2x", "CK_ERR_PARSE: expression: unexpected 'x' after the number at column 1"},
        {"x + 1e", "CK_ERR_PARSE: expression: expected the exponent's digits at column 7"},
        {"x + 1e+", "CK_ERR_PARSE: expression: expected the exponent's digits at column 8"},
        {"x + 1e999", "CK_ERR_PARSE: expression: the number at column 5 is out of the range of "
                      "float64"},
        {"x + -9223372036854775809", "CK_ERR_PARSE: expression: the integer at column 6 does "
                                     "not fit in int64 (write it with a point for a float64)"},
        {"x + 99999999999999999999", "CK_ERR_PARSE: expression: the integer at column 5 does not "
                                     "fit in 64 bits"},
        {"int8(a, b)", "CK_ERR_PARSE: expression: the cast int8(...) at column 1 takes one "
                       "argument, not 2"},
        {"float64()", "CK_ERR_PARSE: expression: the cast float64(...) at column 1 takes one "
                      "argument, not 0"},
        {"*a", "CK_ERR_PARSE: expression: expected a number, a name or '(' at column 1, found "
               "'*'"},
        {"a = b", "CK_ERR_PARSE: expression: unexpected '=' at column 3 (comparisons are == and "
                  "!=)"},
        {"a.b", "CK_ERR_PARSE: expression: expected the attribute real or imag after '.' at "
                "column 3, found the name 'b'"},
        {"a < ", "CK_ERR_PARSE: expression: expected a number, a name or '(' at column 5, found "
                 "the end of the expression"},
        {"a ** ** b", "CK_ERR_PARSE: expression: expected a number, a name or '(' at column 6, "
                      "found '**'"},
        {"a, b", "CK_ERR_PARSE: expression: expected an operator or the end at column 2, "
                 "found ','"},
    };
    for (const Case &c : cases) {
        EXPECT_EQ(parsed(c.text), c.error) << c.text;
    }
    // Nesting is bounded (the parser recurses): 200 levels parse, 201 do not.
    std::string deep = std::string(199, '(') + "x" + std::string(199, ')');
    EXPECT_EQ(parsed(deep.c_str()), "x");
    deep = std::string(200, '(') + "x" + std::string(200, ')');
    EXPECT_EQ(parsed(deep.c_str()),
              "CK_ERR_PARSE: expression: nested more than 200 levels deep at column 201");
    std::string minus(300, '-');
    EXPECT_EQ(parsed((minus + "x").c_str()).rfind("CK_ERR_PARSE: expression: nested more than 200", 0), 0u);
    // More than 16 names, more than 16 arguments of a call.
    EXPECT_EQ(parsed("a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q"),
              "CK_ERR_INVALID: expression: more than 16 argument names (the name at column 33)");
    EXPECT_EQ(parsed("minimum(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17)"),
              "CK_ERR_PARSE: expression: the call at column 1 has more than 16 arguments");
}

TEST(Expr, UnknownNamesAreListed) {
    EXPECT_EQ(parsed("foo(x) + bar(y, z) * foo(1) + minimum(x, y)"),
              "CK_ERR_TYPE: expression: no callable named 'foo' at column 1, 'bar' at column 10, "
              "'foo' at column 22 (ckernel callables lists them)");
    // A syntax error comes first.
    EXPECT_EQ(parsed("foo(x) +"),
              "CK_ERR_PARSE: expression: expected a number, a name or '(' at column 9, found the "
              "end of the expression");
}

TEST(Expr, ArgumentsAreMatchedByName) {
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("b * x + a * x", &e), CK_OK);
    ASSERT_EQ(ck_expr_nargs(e), 3);
    EXPECT_STREQ(ck_expr_arg_name(e, 0), "b");
    EXPECT_STREQ(ck_expr_arg_name(e, 1), "x");
    EXPECT_STREQ(ck_expr_arg_name(e, 2), "a");
    EXPECT_EQ(ck_expr_arg_name(e, 3), nullptr);
    ck_expr_decref(e);
    EXPECT_EQ(eval("a + b", {{"a", "int8", "1"}}),
              "CK_ERR_INVALID: expression: its argument 'b' is not given");
    EXPECT_EQ(eval("a + b", {{"a", "int8", "1"}, {"b", "int8", "1"}, {"c", "int8", "1"}}),
              "CK_ERR_INVALID: expression: 'c' is given, but the expression has no argument of "
              "that name");
    EXPECT_EQ(eval("a + b", {{"a", "int8", "1"}, {"a", "int8", "1"}, {"b", "int8", "1"}}),
              "CK_ERR_INVALID: expression: 'a' is given twice");
    EXPECT_EQ(eval("2 + 3", {{"a", "int8", "1"}}),
              "CK_ERR_INVALID: expression: 'a' is given, but the expression has no argument of "
              "that name");
    EXPECT_EQ(eval("2 + x", {}), "CK_ERR_INVALID: expression: its argument 'x' is not given");
    // Structs are no arguments.
    EXPECT_EQ(eval("a + 1", {{"a", "{x: int32}", "{x: 1}"}}),
              "CK_ERR_TYPE: expression: source 0 holds struct values; expressions take scalars "
              "(under dimensions, pointers and options)");
    // Nor is text, under dimensions or not (its type has no element to walk down to).
    EXPECT_EQ(eval("a + 1", {{"a", "2 * string", "[\"1\", \"2\"]"}}),
              "CK_ERR_TYPE: expression: source 0 holds string values; expressions take scalars "
              "(under dimensions, pointers and options)");
    EXPECT_EQ(eval("x * a", {{"x", "int8", "1"}, {"a", "fixed_string[3, 'utf32']", "\"ab\""}}),
              "CK_ERR_TYPE: expression: source 1 holds fixed_string values; expressions take "
              "scalars (under dimensions, pointers and options)");
    EXPECT_EQ(eval("a", {{"a", "pointer[bytes]", "\"x\""}}),
              "CK_ERR_TYPE: expression: source 0 holds bytes values; expressions take scalars "
              "(under dimensions, pointers and options)");
    // Selection failures name the node.
    // bool - int8 is int8: 1 - 2.
    EXPECT_EQ(eval("a - b * 2", {{"a", "bool", "true"}, {"b", "bool", "true"}}), "-1");
    EXPECT_EQ(eval("a * 2 - (a - b)", {{"a", "bool", "true"}, {"b", "bool", "true"}}),
              "CK_ERR_TYPE: expression column 12: subtract: bool - bool is not defined (NumPy "
              "refuses it too); cast an argument to an integer type to subtract");
    EXPECT_EQ(eval("dot(a, a)", {{"a", "3 * float64", "[1, 2, 3]"}}),
              "CK_ERR_UNSUPPORTED: expression column 1: dot takes core dimensions (blocks of "
              "elements); an expression calls elementwise callables");
}

TEST(Expr, BroadcastingOverFixedVarAndPointerDimensions) {
    EXPECT_EQ(eval("x * 10 + y", {{"x", "2 * 1 * int32", "[[1], [2]]"},
                                  {"y", "3 * float32", "[0.5, 1, 2]"}}),
              "[[10.5, 11, 12], [20.5, 21, 22]]");
    // Ragged rows: a var argument with a fixed one of size 1 per row and a scalar.
    EXPECT_EQ(eval("x * a + y", {{"x", "2 * var * int32", "[[1, 2, 3], [4]]"},
                                 {"a", "int64", "2"},
                                 {"y", "2 * 1 * int16", "[[100], [200]]"}}),
              "[[102, 104, 106], [208]]");
    EXPECT_EQ(eval("x + y", {{"x", "var * int32", "[1, 2]"}, {"y", "var * int32", "[10]"}}),
              "[11, 12]");
    // A row of 1 broadcasts; one of 3 against 2 does not.
    EXPECT_EQ(eval("x + y", {{"x", "2 * var * int32", "[[1, 2], [3]]"},
                             {"y", "2 * 2 * int32", "[[1, 1], [1, 1]]"}}),
              "[[2, 3], [4, 4]]");
    const std::string bad = eval("x + y", {{"x", "2 * var * int32", "[[1, 2], [3, 4, 5]]"},
                                           {"y", "2 * 2 * int32", "[[1, 1], [1, 1]]"}});
    EXPECT_EQ(bad.rfind("CK_ERR_BROADCAST: var dimension 1 at [1]: ", 0), 0u) << bad;
    EXPECT_EQ(eval("x + y", {{"x", "2 * int32", "[1, 2]"}, {"y", "3 * int32", "[1, 2, 3]"}}),
              "CK_ERR_BROADCAST: expression: cannot broadcast the arguments together: dimension "
              "0 has sizes 2 and 3");
    EXPECT_EQ(eval("x + 1", {{"x", "pointer[3 * int32]", "[1, 2, 3]"}}), "[2, 3, 4]");
    EXPECT_EQ(eval("x * y", {{"x", "2 * pointer[int16]", "[3, 4]"}, {"y", "2 * float64", "[0.5, 2]"}}),
              "[1.5, 8]");
    // Options: NA in an argument is NA in the result.
    EXPECT_EQ(eval("x * 2 + y", {{"x", "3 * ?int32", "[1, NA, 3]"}, {"y", "int32", "1"}}),
              "[3, NA, 7]");
}

TEST(Expr, ErrorsInsideANodeAreTheNodes) {
    EXPECT_EQ(eval("trunc_divide(x, y)",
                   {{"x", "3 * int32", "[6, 7, 8]"}, {"y", "3 * int32", "[3, 0, 1]"}}),
              "CK_ERR_ZERO_DIVISION: expression column 1: trunc_divide: integer division by "
              "zero at element [1]");
    EXPECT_EQ(eval("1 + trunc_divide(x, y - 2)", {{"x", "int32", "6"}, {"y", "int32", "2"}}),
              "CK_ERR_ZERO_DIVISION: expression column 5: trunc_divide: integer division by "
              "zero at element [0]");
    // / is NumPy's true division: integers divide as float64, a zero divisor gives inf.
    EXPECT_EQ(eval("x / y", {{"x", "3 * int32", "[6, 7, -8]"}, {"y", "3 * int32", "[4, 0, 0]"}}),
              "[1.5, inf, -inf]");
    // A cast of an argument in front of a node's leaf: that node's column.
    EXPECT_EQ(eval("x * 2 + y", {{"x", "float64", "0.75"}, {"y", "int64", "1"}}, "int32"),
              "CK_ERR_FRACTIONAL: expression column 7: float64 value 2.5 has a fractional part "
              "(int32)");
    EXPECT_EQ(eval("x - 5", {{"x", "2 * int32", "[6, 3]"}}, "2 * uint8"),
              "CK_ERR_OVERFLOW: expression column 3: int32 value -2 is out of range for uint8");
}

// Only an argument's NA is NA in the kernel (§15): an intermediate value with the bits of
// its option type's NA stays a value, and the later nodes run on it. -2147483648 + false is
// an ?int32 with the NA's bits (node by node it reads as NA, and no division runs); in the
// kernel it is divided: by 2 and 4 into values, by 0 into an error. Where c is NA no node
// runs at all. Nocheck mode: the checked modes refuse a call's result of the NA's bits.
TEST(Expr, AnIntermediateWithTheNAsBitsIsAValue) {
    ck_eval_ctx nocheck = CK_EVAL_CTX_INIT;
    nocheck.errmode = CK_ERRMODE_NOCHECK;
    const char *text = "trunc_divide(-2147483648 + c, a)";
    EXPECT_EQ(eval(text, {{"c", "?bool", "false"}, {"a", "2 * uint16", "[2, 4]"}}, nullptr, nocheck),
              "[-1073741824, -536870912]");
    EXPECT_EQ(eval(text, {{"c", "?bool", "false"}, {"a", "3 * uint16", "[2, 0, 4]"}}, nullptr,
                   nocheck),
              "CK_ERR_ZERO_DIVISION: expression column 1: trunc_divide: integer division by zero "
              "at element [1]");
    EXPECT_EQ(eval(text, {{"c", "?bool", "NA"}, {"a", "3 * uint16", "[2, 0, 4]"}}, nullptr, nocheck),
              "[NA, NA, NA]");
}

// An expression of literals only takes no sources: a 0-d result of the type selection gives
// (Python's numbers' types: 2 + 3 is an int64), cast and broadcast into a destination
// like any result, and a node's failure is the node's.
TEST(Expr, LiteralsOnly) {
    EXPECT_EQ(eval("2 + 3", {}), "5");
    EXPECT_EQ(eval("100 + 100", {}), "200"); // Python's ints: int64
    EXPECT_EQ(eval("7 / 2 * 2", {}), "7"); // true division, as NumPy's 7 / 2
    EXPECT_EQ(eval("trunc_divide(7, 2) * 2", {}), "6");
    EXPECT_EQ(eval("-(1.5 * 3)", {}), "-4.5");
    EXPECT_EQ(eval("-128", {}), "-128");                       // a literal as the root
    EXPECT_EQ(eval("float32(0.1)", {}), "0.1"); // a folded cast as the root: float32 0.1
    EXPECT_EQ(eval("float32(0.1)", {}, "float64"), "0.10000000149011612");
    EXPECT_EQ(eval("minimum(3, 300) + uint8(1)", {}), "4");
    // Into a destination of another type, and broadcast into dimensions.
    EXPECT_EQ(eval("2 + 3", {}, "float64"), "5");
    EXPECT_EQ(eval("1 / 4.0", {}, "3 * float32"), "[0.25, 0.25, 0.25]");
    EXPECT_EQ(eval("-128", {}, "2 * int16"), "[-128, -128]");
    EXPECT_EQ(eval("5 - 6", {}, "uint8"),
              "CK_ERR_OVERFLOW: expression column 3: int64 value -1 is out of range for uint8");
    // A node's error: its status and message, with its column (operations on literals are
    // computed when the kernel is built: no element).
    EXPECT_EQ(eval("1 + trunc_divide(1, 0)", {}),
              "CK_ERR_ZERO_DIVISION: expression column 5: trunc_divide: integer division by "
              "zero");
    EXPECT_EQ(eval("1 + 1 / 0", {}), "inf");
    EXPECT_EQ(eval("uint8(0 - 1)", {}),
              "CK_ERR_OVERFLOW: expression column 1: int64 value -1 is out of range for uint8");
    EXPECT_EQ(eval("int8(300)", {}),
              "CK_ERR_OVERFLOW: expression column 1: int64 value 300 is out of range for int8");
    // The result type, and the kernel of ck_make_expr, run with no sources at all.
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("2.5 * 2 - 1", &e), CK_OK);
    EXPECT_EQ(ck_expr_nargs(e), 0);
    ck_type *rt = nullptr;
    ASSERT_EQ(ck_expr_result_type(e, 0, nullptr, nullptr, nullptr, &rt), CK_OK);
    char *s = nullptr;
    ASSERT_EQ(ck_type_format(rt, &s), CK_OK);
    EXPECT_STREQ(s, "float64");
    ck_free(s);
    ck_type_decref(rt);
    ck_type *dt = nullptr;
    ASSERT_EQ(ck_type_parse("3 * float64", &dt), CK_OK);
    const ck_fixed_dim_arrmeta dm = {3, 8};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_expr(&b, &off, e, dt, reinterpret_cast<const char *>(&dm), 0, nullptr,
                           nullptr, nullptr, CK_REQUEST_SINGLE, nullptr),
              CK_OK)
        << ck_last_error();
    double d[3] = {0, 0, 0};
    EXPECT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(d), nullptr), CK_OK);
    EXPECT_EQ(d[0], 4.0);
    EXPECT_EQ(d[2], 4.0);
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &s), CK_OK);
    EXPECT_EQ(std::string(s).rfind("expr_literals @0 ", 0), 0u) << s;
    EXPECT_NE(std::string(s).find("\n  strided_dim @"), std::string::npos) << s;
    ck_free(s);
    ck_builder_destroy(&b);
    ck_type_decref(dt);
    ck_expr_decref(e);
}

// More elements than one chunk, and more intermediate results than one slot: exact integers.
TEST(Expr, ManyChunksAndSlots) {
    const int n = 5000;
    std::string lit = "[";
    for (int i = 0; i < n; i++) lit += (i > 0 ? ", " : "") + std::to_string(i - 2500);
    lit += "]";
    const std::string type = std::to_string(n) + " * int64";
    const std::string got =
        eval("(a * x * x + b * x + c) - (x - 1) * (x + 1) * (x * 0 + 2)",
             {{"x", type.c_str(), lit}, {"a", "int64", "3"}, {"b", "int64", "-7"},
              {"c", "int64", "11"}});
    std::string want = "[";
    for (int i = 0; i < n; i++) {
        const long long x = i - 2500;
        want += (i > 0 ? ", " : "") + std::to_string((3 * x * x - 7 * x + 11) - (x - 1) * (x + 1) * 2);
    }
    want += "]";
    EXPECT_EQ(got, want);
}

TEST(Expr, MisalignedData) {
    // float64 sources and destination one byte off their alignment.
    alignas(16) unsigned char xbuf[3 * 8 + 1], ybuf[8 + 1], obuf[3 * 8 + 1];
    const double xv[3] = {1.5, -2, 4}, yv = 0.25;
    std::memcpy(xbuf + 1, xv, sizeof xv);
    std::memcpy(ybuf + 1, &yv, sizeof yv);
    ck_type *xt = nullptr, *yt = nullptr;
    ASSERT_EQ(ck_type_parse("3 * float64", &xt), CK_OK);
    ASSERT_EQ(ck_type_parse("float64", &yt), CK_OK);
    ck_array *x = nullptr, *y = nullptr, *o = nullptr;
    ASSERT_EQ(ck_array_wrap(xt, nullptr, reinterpret_cast<char *>(xbuf + 1), nullptr, &x), CK_OK);
    ASSERT_EQ(ck_array_wrap(yt, nullptr, reinterpret_cast<char *>(ybuf + 1), nullptr, &y), CK_OK);
    ASSERT_EQ(ck_array_wrap(xt, nullptr, reinterpret_cast<char *>(obuf + 1), nullptr, &o), CK_OK);
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("x * 2 + y", &e), CK_OK);
    const ck_array *src[] = {x, y};
    ASSERT_EQ(ck_expr_eval(e, o, 2, nullptr, src, nullptr), CK_OK) << ck_last_error();
    double got[3];
    std::memcpy(got, obuf + 1, sizeof got);
    EXPECT_EQ(got[0], 3.25);
    EXPECT_EQ(got[1], -3.75);
    EXPECT_EQ(got[2], 8.25);
    ck_expr_decref(e);
    ck_array_free(x);
    ck_array_free(y);
    ck_array_free(o);
    ck_type_decref(xt);
    ck_type_decref(yt);
}

TEST(Expr, TheKernelTree) {
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("a * x + b", &e), CK_OK);
    ckt::Type a("float64"), x("4 * int32"), d("4 * float64");
    const ck_type *st[] = {a.get(), x.get(), a.get()};
    ck_type *rt = nullptr;
    ASSERT_EQ(ck_expr_result_type(e, 3, nullptr, st, nullptr, &rt), CK_OK);
    EXPECT_TRUE(ck_type_equal(rt, d.get()));
    ck_type_decref(rt);
    alignas(16) char xam[16], dam[16];
    ASSERT_EQ(ck_arrmeta_default_construct(x.get(), xam, nullptr), CK_OK);
    ASSERT_EQ(ck_arrmeta_default_construct(d.get(), dam, nullptr), CK_OK);
    const char *sam[] = {nullptr, xam, nullptr};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_expr(&b, &off, e, d.get(), dam, 3, nullptr, st, sam, CK_REQUEST_SINGLE,
                           nullptr),
              CK_OK)
        << ck_last_error();
    ck_expr_decref(e); // the kernel holds nothing of it
    char *text = nullptr;
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &text), CK_OK);
    const std::string t = text;
    ck_free(text);
    EXPECT_NE(t.find("expr_strided  steps=2 chunk=1024 slots=1: (src0, src1) -> t0; (t0, src2) "
                     "-> dst\n"),
              std::string::npos)
        << t;
    EXPECT_NE(t.find("call_args"), std::string::npos) << t;
    EXPECT_NE(t.find("cast int32 -> float64"), std::string::npos) << t;
    const double av = 2, bv = 0.5;
    const int32_t xv[4] = {1, 2, 3, -4};
    double out[4];
    char *src[] = {const_cast<char *>(reinterpret_cast<const char *>(&av)),
                   const_cast<char *>(reinterpret_cast<const char *>(xv)),
                   const_cast<char *>(reinterpret_cast<const char *>(&bv))};
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(out), src), CK_OK);
    EXPECT_EQ(out[0], 2.5);
    EXPECT_EQ(out[3], -7.5);
    ck_builder_destroy(&b);
}

// One expression, kernels built and run from several threads at once.
TEST(Expr, ThreadsShareAnExpression) {
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("x * x - 3 * x", &e), CK_OK);
    std::vector<std::thread> threads;
    std::vector<int> ok(4, 0);
    for (int t = 0; t < 4; t++) {
        threads.emplace_back([&, t]() {
            for (int i = 0; i < 50; i++) {
                const int64_t xv = t * 100 + i, want = xv * xv - 3 * xv;
                int64_t got = 0;
                ck_type *tp = nullptr;
                ck_array *x = nullptr, *o = nullptr;
                int64_t xs = xv;
                if (ck_type_parse("int64", &tp) != CK_OK) return;
                ck_array_wrap(tp, nullptr, reinterpret_cast<char *>(&xs), nullptr, &x);
                ck_array_wrap(tp, nullptr, reinterpret_cast<char *>(&got), nullptr, &o);
                const ck_array *src[] = {x};
                const int rc = ck_expr_eval(e, o, 1, nullptr, src, nullptr);
                ok[static_cast<size_t>(t)] += rc == CK_OK && got == want;
                ck_array_free(x);
                ck_array_free(o);
                ck_type_decref(tp);
            }
        });
    }
    for (auto &th : threads) th.join();
    for (int t = 0; t < 4; t++) EXPECT_EQ(ok[static_cast<size_t>(t)], 50) << t;
    ck_expr_decref(e);
}

TEST(Expr, AllocationFailureAtEveryPoint) {
    // Parse, result type, build (var dimensions: arena rows), run and free.
    const int64_t points = ckt::for_each_alloc_failure([]() {
        ck_expr *e = nullptr;
        int rc = ck_expr_parse("maximum(a * x, -x) + float32(b) / 3 - (x - 1) * (x + 1)", &e);
        ck_type *xt = nullptr, *at = nullptr;
        ck_array *x = nullptr, *a = nullptr, *out = nullptr;
        if (rc == CK_OK) rc = ck_type_parse("2 * var * int32", &xt);
        if (rc == CK_OK) rc = ck_type_parse("float64", &at);
        if (rc == CK_OK) rc = ck_array_parse(xt, "[[1, 2, 3], [4]]", &x);
        if (rc == CK_OK) rc = ck_array_parse(at, "2.5", &a);
        const char *names[] = {"x", "a", "b"};
        const ck_array *src[] = {x, a, a};
        if (rc == CK_OK) rc = ck_expr_eval_new(e, 3, names, src, nullptr, &out);
        char *s = nullptr;
        if (rc == CK_OK) rc = ck_array_format(out, &s);
        if (rc == CK_OK) {
            // NumPy: np.maximum(2.5 * x, -x) + np.float32(2.5) / 3 - (x-1)*(x+1), where
            // np.float32(2.5) / 3 is a float64 (two scalars: each keeps its own type)
            EXPECT_STREQ(s, "[[3.3333333333333335, 2.833333333333333, 0.3333333333333339], "
                            "[-4.166666666666666]]");
        }
        ck_free(s);
        ck_array_free(out);
        ck_array_free(x);
        ck_array_free(a);
        ck_type_decref(xt);
        ck_type_decref(at);
        ck_expr_decref(e);
        return rc;
    });
    EXPECT_GT(points, 5);
    // Literals only, into new and existing arrays (the wrapper and its constant step).
    const int64_t literal_points = ckt::for_each_alloc_failure([]() {
        ck_expr *e = nullptr;
        int rc = ck_expr_parse("minimum(2.5, 4) * 2 - 1", &e);
        ck_array *out = nullptr, *wide = nullptr;
        ck_type *wt = nullptr;
        if (rc == CK_OK) rc = ck_expr_eval_new(e, 0, nullptr, nullptr, nullptr, &out);
        if (rc == CK_OK) rc = ck_type_parse("4 * int16", &wt);
        if (rc == CK_OK) rc = ck_array_new(wt, &wide);
        if (rc == CK_OK) rc = ck_expr_eval(e, wide, 0, nullptr, nullptr, nullptr);
        if (rc == CK_OK) {
            double v;
            std::memcpy(&v, ck_array_data(out), sizeof v);
            EXPECT_EQ(v, 4.0);
            int16_t w[4];
            std::memcpy(w, ck_array_data(wide), sizeof w);
            EXPECT_EQ(w[3], 4);
        }
        ck_array_free(out);
        ck_array_free(wide);
        ck_type_decref(wt);
        ck_expr_decref(e);
        return rc;
    });
    EXPECT_GT(literal_points, 2);
    // A failing parse (the unknown-name list) holds nothing either.
    ckt::for_each_alloc_failure([]() {
        ck_expr *e = nullptr;
        const int rc = ck_expr_parse("nope(x) + nope2(y)", &e);
        EXPECT_EQ(rc == CK_ERR_TYPE || rc == CK_ERR_NOMEM, true) << ck_last_error();
        return rc == CK_ERR_TYPE ? CK_OK : rc;
    });
}

}  // namespace
