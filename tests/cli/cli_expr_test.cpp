// tests/cli/cli_expr_test.cpp: `ckernel eval` and `ckernel explain --eval`: results worked
// out by hand, the tree written out, exit statuses 0/1/2 and their messages.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "ckernel/ckernel.h"
#include "cli_support.hpp"

namespace {

using ckt::Result;
using ckt::ckernel_baseline;
using ckt::run_shell;
using ckt::without_capacity;

TEST(CliExpr, TheIssuesExample) {
    Result r = ckernel_baseline("eval \"a * x + b\" --arg a float64 2 --arg x \"3 * int32\" "
                                "\"[1, 2, 3]\" --arg b float64 0.5");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[2.5, 4.5, 6.5]\n");
}

// numexpr's language: where, comparisons, ** (x ** 2 is square(x)), and a reduction at the
// root (1*4 + 2*5 + 3*6); the issue's examples, with the bool of all() and a chained compare.
TEST(CliExpr, NumexprsLanguageAndReductions) {
    Result r = ckernel_baseline("eval \"where(x > 1, x ** 2, -x)\" --arg x \"3 * float64\" "
                                "\"[0.5, 2, 3]\"");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[-0.5, 4, 9]\n");
    r = ckernel_baseline("eval \"sum(a * b)\" --arg a \"3 * float64\" \"[1, 2, 3]\" --arg b "
                         "\"3 * float64\" \"[4, 5, 6]\"");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "32\n");
    r = ckernel_baseline("eval \"all(0 < x <= 3)\" --arg x \"3 * int8\" \"[1, 2, 3]\"");
    EXPECT_EQ(r.out, "true\n");
    r = ckernel_baseline("eval \"sum(x, axis=1) // 2 % 3\" --arg x \"2 * 2 * int32\" "
                         "\"[[1, 2], [30, 4]]\"");
    EXPECT_EQ(r.out, "[1, 2]\n"); // (3 // 2) % 3, (34 // 2) % 3
    r = ckernel_baseline("eval --help");
    EXPECT_NE(r.out.find("where(x > 1, x ** 2, -x)"), std::string::npos) << r.out;
}

TEST(CliExpr, OutTypesModesBroadcastingAndNegation) {
    Result r = ckernel_baseline("eval 'a * x + b' --out '3 * int16' --errmode nocheck --arg a "
                                "float64 2 --arg x '3 * int32' '[1, 2, 3]' --arg b float64 0.5");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[2, 4, 6]\n");
    r = ckernel_baseline("eval 'x * 10 + y' --arg x '2 * 1 * int8' '[[1], [2]]' --arg y "
                         "'var * int64' '[5, 6, 7]'");
    EXPECT_EQ(r.out, "[[15, 16, 17], [25, 26, 27]]\n");
    r = ckernel_baseline("eval -x --arg x '2 * uint8' '[1, 0]'");
    EXPECT_EQ(r.out, "[255, 0]\n");
    r = ckernel_baseline("eval 'maximum(x, 0) / 2' --arg x '3 * float32' '[-1, 3, 5]'");
    EXPECT_EQ(r.out, "[0, 1.5, 2.5]\n");
}

TEST(CliExpr, Errors) {
    Result r = ckernel_baseline(
        "eval 'trunc_divide(x, y)' --arg x '2 * int32' '[1, 2]' --arg y int32 0");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_ZERO_DIVISION: expression column 1: trunc_divide: "
                     "integer division by zero at element [0]\n");
    r = ckernel_baseline("eval 'x / y' --arg x '2 * int32' '[1, -2]' --arg y int32 0");
    EXPECT_EQ(r.status, 0); // NumPy's true division
    EXPECT_EQ(r.out, "[inf, -inf]\n");
    r = ckernel_baseline("eval 'x +' --arg x int32 1");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_PARSE: expression: expected a number, a name or '(' "
                     "at column 4, found the end of the expression\n");
    r = ckernel_baseline("eval 'f(x) + g(x)' --arg x int32 1");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_TYPE: expression: no callable named 'f' at column 1, "
                     "'g' at column 8 (ckernel callables lists them)\n");
    r = ckernel_baseline("eval 'x + y' --arg x int32 1");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_INVALID: expression: its argument 'y' is not given\n");
    r = ckernel_baseline("eval 'x + 1'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_INVALID: expression: its argument 'x' is not given\n");
    // Literals only: a 0-d result, cast into --out; a node's error is the node's.
    r = ckernel_baseline("eval '2 + 3 * 4'");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "14\n");
    r = ckernel_baseline("eval '1 / 8.0' --out '2 * float32'");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "[0.125, 0.125]\n");
    r = ckernel_baseline("eval '1 + trunc_divide(1, 0)'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_ZERO_DIVISION: expression column 5: trunc_divide: "
                     "integer division by zero\n"); // computed when built: no element
    r = ckernel_baseline("eval 'x + 1' --arg x int32");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "ckernel: usage error: --arg needs a name, a type and a literal\nTry "
                     "'ckernel eval --help'.\n");
    r = ckernel_baseline("eval --help");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("usage: ckernel eval ", 0), 0u) << r.out;
    r = ckernel_baseline("--help");
    EXPECT_NE(r.out.find("\n  eval       evaluate an expression"), std::string::npos) << r.out;
}

TEST(CliExpr, ExplainShowsTheExpressionAndItsKernel) {
    Result r = ckernel_baseline("explain --eval '-x * 2 + float32(y)' --arg x '2 * int16' --arg "
                                "y float64");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(ckt::tree_text(without_capacity(r.out)),
              ckt::tree_text("expression (((-x) * 2:int64) + float32(y)) -> 2 * float32\n"
                             "strided_dim @0 +56  strided_dim_single  size=2 dst_stride=4 src_stride=[2, 0] "
                             "(broadcast)\n"
                             "  expr @56 +48  expr_strided  steps=4 chunk=1024 slots=2: (src0) -> t0; (t0, const) "
                             "-> t1; (src1) -> t0; (t1, t0) -> dst\n"
                             "    leaf @696 +16  negative int16|uint16 strided\n"
                             "    leaf @712 +16  multiply int16 strided [baseline]\n"
                             "    leaf @728 +16  cast float64 -> float32 (fractional) strided [baseline]\n"
                             "    call_args @744 +136  call_args_strided  args=[cast, pass] result=direct "
                             "chunk=1024\n"
                             "      leaf @880 +16  add float32 strided [baseline]\n"
                             "      leaf @896 +16  cast int16 -> float32 (fractional) strided [baseline]\n"
                             "total: 912 bytes in the kernel buffer; builder on the heap (capacity ?)\n"));
    r = ckernel_baseline("explain --eval 'x + 1'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_INVALID: expression: its argument 'x' is not given\n");
    r = ckernel_baseline("explain --eval '2 + 3'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_TRUE(ckt::tree_starts_with(r.out, "expression (2:int64 + 3:int64) -> int64\nexpr_literals @0 "))
        << r.out;
}

// explain --eval --jit: the whole expression as one jit leaf and the JIT's decision, or why
// not (without the plugin, or for a node it cannot compile exactly).
TEST(CliExpr, ExplainWithJitSaysWhatTheJitDid) {
    ck_jit_info jit;
    ck_jit_get_info(&jit);
    Result r = ckernel_baseline("explain --jit --eval 'a * x + b' --arg a float64 --arg x "
                                "'3 * int32' --arg b float64");
    EXPECT_EQ(r.status, 0) << r.out;
    if (jit.available) {
        // loads of a and x, multiply, load of b, add
        EXPECT_TRUE(ckt::tree_has(r.out, "\njit @0 +24  jit_single  fingerprint=")) << r.out;
        EXPECT_NE(r.out.find(" expression of 5 nodes (float64, int32, float64) -> float64 "
                             "(nocheck) nest=[3] "),
                  std::string::npos)
            << r.out;
        EXPECT_NE(r.out.find("\njit: compiled in "), std::string::npos) << r.out;
    } else {
        EXPECT_NE(r.out.find("\njit: not used: " + std::string(jit.status)), std::string::npos)
            << r.out;
    }
    r = ckernel_baseline(
        "explain --jit --eval 'trunc_divide(x, y)' --arg x '3 * int32' --arg y int32");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("\n  expr @"), std::string::npos) << r.out;
    if (jit.available) {
        EXPECT_NE(r.out.find("\njit: not used: the compile failed (integer divide is not "
                             "compiled"),
                  std::string::npos)
            << r.out;
    }
}

TEST(CliFpErrors, FloorDivideByZeroIsZeroOrWithFpErrorsAnErrorNamingTheElement) {
    Result r = ckernel_baseline("call floor_divide --in int64 7 --in int64 0");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "0\n");
    r = ckernel_baseline("call --fp-errors floor_divide --in int64 7 --in int64 0");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_ZERO_DIVISION: floor_divide: division by zero: "
                     "floor_divide(7, 0) at element [0]\n");
    r = ckernel_baseline("eval --fp-errors 'exp(x) + 1' --arg x '3 * float64' '[0, 1000, 1]'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_OVERFLOW: expression column 1: exp: overflow: "
                     "exp(1000) = inf at element [1]\n");
    r = ckernel_baseline("reduce --fp-errors subtract --in '2 * float64' '[inf, inf]'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_DOMAIN: subtract: invalid value: subtract(inf, "
                     "inf) = nan at element [1]\n");
    r = ckernel_baseline("call exp --in '3 * float64' '[0, -inf, inf]'");
    EXPECT_EQ(r.out, "[1, 0, inf]\n");
}

// The vector math's two SLEEF families (ck_cpu_vector_math_fma): `ckernel info` says which
// runs, CKERNEL_VMATH_FMA=off chooses the one without fused multiply-adds, and the two give
// other last bits for some inputs (exp(-2.1478129414411407) = 0.116739194235907915127...,
// mpmath), each within 1 ULP of the exact value (x87's expl here: 64 bits of significand).
TEST(CliVectorMath, InfoNamesTheFamilyAndTheEnvironmentChoosesTheOneWithoutFma) {
    const char *reason = nullptr;
    const bool fma = ck_cpu_vector_math_fma(&reason) != 0;
    Result r = ckernel_baseline("info");
    EXPECT_NE(r.out.find(std::string("  vector math:   SLEEF " CK_SLEEF_VERSION ", ") +
                         (fma ? "with" : "without") + " fused multiply-adds (" + reason + ")\n"),
              std::string::npos)
        << r.out;
    r = run_shell(std::string("CKERNEL_VMATH_FMA=off ") + CK_CLI_PATH + " info --json");
    EXPECT_NE(r.out.find("\"vector_math\": {\"library\": \"SLEEF " CK_SLEEF_VERSION
                         "\", \"fma\": false, \"reason\": \"CKERNEL_VMATH_FMA=off\"}"),
              std::string::npos)
        << r.out;
    r = run_shell(std::string("CKERNEL_VMATH_FMA=maybe ") + CK_CLI_PATH +
                  " call exp --in float64 1");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_INVALID: CKERNEL_VMATH_FMA='maybe' is neither on "
                     "nor off\n");
    if (!fma) GTEST_SKIP() << "this CPU runs only the family without FMA: " << reason;
    const std::string call = std::string(CK_CLI_PATH) + " call exp --in float64 -2.1478129414411407";
    const Result with = run_shell(call), without = run_shell("CKERNEL_VMATH_FMA=off " + call);
    ASSERT_EQ(with.status, 0) << with.out;
    ASSERT_EQ(without.status, 0) << without.out;
    EXPECT_NE(with.out, without.out);
#if defined(__x86_64__) || defined(__aarch64__)
    const long double exact = expl(static_cast<long double>(-2.1478129414411407));
    const long double ulp = 0x1p-56L;  // of 0.1167, in [2^-4, 2^-3)
    EXPECT_LE(fabsl(std::strtold(with.out.c_str(), nullptr) - exact), ulp) << with.out;
    EXPECT_LE(fabsl(std::strtold(without.out.c_str(), nullptr) - exact), ulp) << without.out;
#endif
}

}  // namespace
