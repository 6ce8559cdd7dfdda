// tests/callables/native_test.cpp: plain C functions as callables' leaves, called through
// libffi (ck_callable_add_native): values of every supported kind of argument and result
// (float64, float32, int32, int64 with negative values, bool, mixed, complex) against the
// same functions called directly here, broadcasting over fixed and var dimensions, argument
// casts made by ckernel before the call, one to three arguments, the native leaf in
// ck_kernel_describe, allocation failure at every point of building and running a call, and
// the signatures libffi cannot express (float16) with their statuses and messages. In a
// build without libffi, only the refusal is checked.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "ckernel/callable.h"
#include "ckernel/config.h"
#include "ckt.hpp"
#include "call_literals.hpp"
#include "ckt_array.hpp"

namespace {

template <class F>
void (*as_fn(F *f))(void) {
    return reinterpret_cast<void (*)(void)>(f);
}

#if CK_WITH_FFI

using ckt::Array;
using ckt::Type;

// ---- the native functions (plain C ABI: no exceptions, C types only) ----
extern "C" {
float scale(float x, float y) { return 0.5f * x - y; }
int32_t sub3(int32_t a, int32_t b) { return a - 3 * b; }
int64_t mul_sub(int64_t a, int64_t b) { return a * b - 7; }
bool exclusive(bool a, bool b) { return a != b; }
double mixed(int32_t n, double x) { return n * x + 0.25; }
double negate(double x) { return -x; }
double fma3(double a, double b, double c) { return a * b + c; }
int8_t half8(int8_t v) { return static_cast<int8_t>(v / 2); }
uint16_t twice16(uint16_t v) { return static_cast<uint16_t>(2 * v); }
}

__extension__ typedef __complex__ double cdouble;
__extension__ typedef __complex__ float cfloat;
extern "C" cdouble conj_twice(cdouble z) {  // 2 re(z) - i im(z)
    cdouble r = z;
    __extension__ __real__ r = 2 * __extension__ __real__ z;
    __extension__ __imag__ r = -(__extension__ __imag__ z);
    return r;
}
extern "C" cfloat swap_parts(cfloat z) {  // im(z) + i re(z)
    cfloat r = z;
    __extension__ __real__ r = __extension__ __imag__ z;
    __extension__ __imag__ r = __extension__ __real__ z;
    return r;
}

// A callable `name` with one native signature.
ck_callable *native(const char *name, const char *sig, void (*fn)(void)) {
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_callable_new(name, &c), CK_OK) << ck_last_error();
    EXPECT_EQ(ck_callable_add_native(c, sig, fn), CK_OK) << sig << ": " << ck_last_error();
    return c;
}

using ckt::call;

// Exact text of a double (round-trips) for literals.
std::string lit(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// Rows of doubles as a literal "[[a, b], [c]]".
std::string rows_literal(const std::vector<std::vector<double>> &rows) {
    std::string s = "[";
    for (size_t i = 0; i < rows.size(); ++i) {
        s += i ? ", [" : "[";
        for (size_t j = 0; j < rows[i].size(); ++j) s += (j ? ", " : "") + lit(rows[i][j]);
        s += "]";
    }
    return s + "]";
}

// How ckernel formats an array of `type` holding `literal` (the expected side of a compare).
std::string formatted(const char *type, const std::string &literal) {
    Array a(type, literal.c_str());
    return a.str();
}

// A complex literal "re+imj" / "re-imj" with exact parts.
std::string complex_lit(double re, double im) {
    return lit(re) + (std::signbit(im) ? "-" : "+") + lit(std::fabs(im)) + "j";
}

TEST(Native, HypotOverVarRowsAndBroadcastAgainstAScalar) {
    ck_callable *c = native("hypot", "dd)d", as_fn(static_cast<double (*)(double, double)>(hypot)));
    const std::vector<std::vector<double>> x = {{3, 0.1, -5}, {}, {1e300, 7.25}};
    const std::vector<std::vector<double>> y = {{4, 0.2, 12}, {}, {1e300, -0.5}};
    std::vector<std::vector<double>> want = x, want_scalar = x;
    for (size_t i = 0; i < x.size(); ++i)
        for (size_t j = 0; j < x[i].size(); ++j) {
            want[i][j] = std::hypot(x[i][j], y[i][j]);
            want_scalar[i][j] = std::hypot(x[i][j], 2.5);
        }
    EXPECT_EQ(call(c, {{"3 * var * float64", rows_literal(x)}, {"3 * var * float64", rows_literal(y)}}),
              formatted("3 * var * float64", rows_literal(want)));
    EXPECT_EQ(call(c, {{"3 * var * float64", rows_literal(x)}, {"float64", "2.5"}}),
              formatted("3 * var * float64", rows_literal(want_scalar)));
    EXPECT_EQ(call(c, {{"float64", "2.5"}, {"3 * var * float64", rows_literal(x)}}),
              formatted("3 * var * float64", rows_literal(want_scalar)))
        << "hypot is symmetric: the scalar broadcasts from either side";
    // Fixed rows against a column: (2 x 1) with (1 x 3).
    EXPECT_EQ(call(c, {{"2 * 1 * float64", "[[3], [5]]"}, {"1 * 3 * float64", "[[4, 12, 0]]"}}),
              formatted("2 * 3 * float64",
                        "[[" + lit(std::hypot(3.0, 4.0)) + ", " + lit(std::hypot(3.0, 12.0)) +
                            ", " + lit(std::hypot(3.0, 0.0)) + "], [" + lit(std::hypot(5.0, 4.0)) +
                            ", " + lit(std::hypot(5.0, 12.0)) + ", " + lit(std::hypot(5.0, 0.0)) +
                            "]]"));
    ck_callable_decref(c);
}

TEST(Native, Float32Function) {
    ck_callable *c = native("scale", "ff)f", as_fn(scale));
    const float xs[] = {1.5f, -3.0f, 1e30f}, ys[] = {0.25f, 2.0f, -1e30f};
    std::string want = "[";
    for (int i = 0; i < 3; ++i) want += (i ? ", " : "") + lit(static_cast<double>(scale(xs[i], ys[i])));
    want += "]";
    EXPECT_EQ(call(c, {{"3 * float32", "[1.5, -3, 1e30]"}, {"3 * float32", "[0.25, 2, -1e30]"}}),
              formatted("3 * float32", want));
    ck_callable_decref(c);
}

TEST(Native, IntegerFunctionsWithNegativeValues) {
    ck_callable *i = native("sub3", "ii)i", as_fn(sub3));
    EXPECT_EQ(call(i, {{"4 * int32", "[10, -10, 0, -2147483647]"}, {"4 * int32", "[-4, 5, -1, 0]"}}),
              "[" + std::to_string(sub3(10, -4)) + ", " + std::to_string(sub3(-10, 5)) + ", " +
                  std::to_string(sub3(0, -1)) + ", " + std::to_string(sub3(-2147483647, 0)) + "]");
    ck_callable_decref(i);
    ck_callable *q = native("mul_sub", "qq)q", as_fn(mul_sub));
    EXPECT_EQ(call(q, {{"3 * int64", "[-3000000000, 5, -1]"}, {"3 * int64", "[3, -9, -1]"}}),
              "[" + std::to_string(mul_sub(-3000000000LL, 3)) + ", " +
                  std::to_string(mul_sub(5, -9)) + ", " + std::to_string(mul_sub(-1, -1)) + "]");
    ck_callable_decref(q);
    // Results narrower than ffi_arg: the sign (int8) and the width (uint16) survive.
    ck_callable *b = native("half8", "b)b", as_fn(half8));
    EXPECT_EQ(call(b, {{"3 * int8", "[-128, -3, 127]"}}), "[-64, -1, 63]");
    ck_callable_decref(b);
    ck_callable *h = native("twice16", "H)H", as_fn(twice16));
    EXPECT_EQ(call(h, {{"2 * uint16", "[40000, 7]"}}), "[14464, 14]") << "80000 mod 65536";
    ck_callable_decref(h);
}

TEST(Native, BoolFunction) {
    ck_callable *c = native("exclusive", "?\?)?" /* no trigraph */, as_fn(exclusive));
    const bool a[] = {false, false, true, true}, b[] = {false, true, false, true};
    std::string want = "[";
    for (int k = 0; k < 4; ++k) want += std::string(k ? ", " : "") + (exclusive(a[k], b[k]) ? "true" : "false");
    want += "]";
    EXPECT_EQ(call(c, {{"4 * bool", "[false, false, true, true]"},
                       {"4 * bool", "[false, true, false, true]"}}),
              want);
    ck_callable_decref(c);
}

TEST(Native, MixedInt32AndFloat64Arguments) {
    ck_callable *c = native("mixed", "id)d", as_fn(mixed));
    EXPECT_EQ(call(c, {{"3 * int32", "[-3, 0, 7]"}, {"3 * float64", "[1.5, 9, -0.125]"}}),
              formatted("3 * float64", "[" + lit(mixed(-3, 1.5)) + ", " + lit(mixed(0, 9)) + ", " +
                                           lit(mixed(7, -0.125)) + "]"));
    ck_callable_decref(c);
}

TEST(Native, ComplexArgumentsAndResults) {
    {  // A libffi without complex types (Debian's ppc64el) is refused by name, never run.
        ck_callable *probe = nullptr;
        ASSERT_EQ(ck_callable_new("probe", &probe), CK_OK);
        const int rc = ck_callable_add_native(probe, "Zd)Zd", as_fn(conj_twice));
        const std::string why = ck_last_error();
        ck_callable_decref(probe);
        if (rc == CK_ERR_UNSUPPORTED && why.find("without complex types") != std::string::npos) {
            GTEST_SKIP() << why;
        }
        ASSERT_EQ(rc, CK_OK) << why;
    }
    ck_callable *d = native("conj_twice", "Zd)Zd", as_fn(conj_twice));
    std::string want = "[";
    const double parts[2][2] = {{1.5, -2.25}, {-1, 0}};
    for (int k = 0; k < 2; ++k) {
        cdouble z;
        __extension__ __real__ z = parts[k][0];
        __extension__ __imag__ z = parts[k][1];
        const cdouble r = conj_twice(z);
        want += (k ? ", " : "") + complex_lit(__extension__ __real__ r, __extension__ __imag__ r);
    }
    want += "]";
    EXPECT_EQ(call(d, {{"2 * complex128", "[1.5-2.25j, -1+0j]"}}), formatted("2 * complex128", want));
    ck_callable_decref(d);
    ck_callable *f = native("swap_parts", "Zf)Zf", as_fn(swap_parts));
    EXPECT_EQ(call(f, {{"2 * complex64", "[1+2j, -0.5+8j]"}}), formatted("2 * complex64", "[2+1j, 8-0.5j]"));
    ck_callable_decref(f);
}

TEST(Native, ArgumentsAreCastBeforeTheCall) {
    ck_callable *c = native("hypot", "dd)d", as_fn(static_cast<double (*)(double, double)>(hypot)));
    // int32 arrays select (float64, float64) safely; ckernel casts them into aligned scratch.
    EXPECT_EQ(call(c, {{"3 * int32", "[3, 5, -8]"}, {"3 * int32", "[4, 12, 15]"}}),
              formatted("3 * float64", "[" + lit(std::hypot(3.0, 4.0)) + ", " +
                                           lit(std::hypot(5.0, 12.0)) + ", " +
                                           lit(std::hypot(-8.0, 15.0)) + "]"));
    // The result cast too: into an int32 destination (exact values pass the check).
    EXPECT_EQ(call(c, {{"3 * int32", "[3, 5, -8]"}, {"3 * int32", "[4, 12, 15]"}}, "3 * int32"),
              "[5, 13, 17]");
    // float32 arguments into the float function need no cast; float64 ones are unsafe.
    ck_callable *s = native("scale", "ff)f", as_fn(scale));
    EXPECT_EQ(call(s, {{"float64", "1"}, {"float64", "1"}}).substr(0, 12), "CK_ERR_TYPE:");
    EXPECT_EQ(call(s, {{"float64", "1"}, {"float64", "1"}}, nullptr,
                   ckt::ctx(CK_ERRMODE_FRACTIONAL, CK_EVAL_ALLOW_UNSAFE)),
              formatted("float32", lit(static_cast<double>(scale(1.0f, 1.0f)))));
    ck_callable_decref(s);
    ck_callable_decref(c);
}

TEST(Native, OneAndThreeArguments) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("multi", &c), CK_OK);
    ASSERT_EQ(ck_callable_add_native(c, "d)d", as_fn(negate)), CK_OK) << ck_last_error();
    ASSERT_EQ(ck_callable_add_native(c, "ddd)d", as_fn(fma3)), CK_OK) << ck_last_error();
    char *sigs = nullptr;
    ASSERT_EQ(ck_callable_signatures(c, &sigs), CK_OK);
    EXPECT_STREQ(sigs, "(float64) -> float64\n(float64, float64, float64) -> float64\n");
    ck_free(sigs);
    EXPECT_EQ(call(c, {{"3 * float64", "[1.5, -2, 0]"}}), "[-1.5, 2, -0]");
    EXPECT_EQ(call(c, {{"2 * 3 * float64", "[[1, 2, 3], [4, 5, 6]]"},
                       {"3 * float64", "[10, 20, 30]"},
                       {"float64", "0.5"}}),
              formatted("2 * 3 * float64",
                        "[[" + lit(fma3(1, 10, 0.5)) + ", " + lit(fma3(2, 20, 0.5)) + ", " +
                            lit(fma3(3, 30, 0.5)) + "], [" + lit(fma3(4, 10, 0.5)) + ", " +
                            lit(fma3(5, 20, 0.5)) + ", " + lit(fma3(6, 30, 0.5)) + "]]"));
    ck_callable_decref(c);
}

TEST(Native, DescribeShowsTheNativeLeaf) {
    double (*fn)(double, double) = hypot;
    ck_callable *c = native("hypot", "dd)d", as_fn(fn));
    Type st("3 * float64");
    ck_fixed_dim_arrmeta am = {3, 8};
    const ck_type *srcs[] = {st.get(), st.get()};
    const char *sams[] = {reinterpret_cast<const char *>(&am), reinterpret_cast<const char *>(&am)};
    for (ck_request req : {CK_REQUEST_SINGLE, CK_REQUEST_STRIDED}) {
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        ASSERT_EQ(ck_make_call(&b, &off, c, st.get(), reinterpret_cast<const char *>(&am), 2,
                               srcs, sams, req, nullptr),
                  CK_OK)
            << ck_last_error();
        char *text = nullptr;
        ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &text), CK_OK);
        const std::string t = text;
        ck_free(text);
        char addr[40];
        std::snprintf(addr, sizeof addr, "%p", reinterpret_cast<void *>(fn));
        EXPECT_NE(t.find("native @"), std::string::npos) << t;
        EXPECT_NE(t.find(std::string("  native_strided  dd)d fn=") + addr + "\n"), std::string::npos)
            << t;
        EXPECT_NE(t.find("+" + std::to_string(sizeof(ck_prefix) + sizeof(void *)) + "  native_strided"),
                  std::string::npos)
            << "{prefix, call}: " << t;
        // The kernel also runs when built by hand.
        double x[3] = {3, 5, 8}, y[3] = {4, 12, 15}, out[3] = {0, 0, 0};
        char *src[] = {reinterpret_cast<char *>(x), reinterpret_cast<char *>(y)};
        if (req == CK_REQUEST_SINGLE) {
            ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(out), src), CK_OK);
        } else {
            const intptr_t ss[] = {0, 0};  // the dimension kernel is strided over its rows
            ASSERT_EQ(ck_call_strided(ck_builder_root(&b), reinterpret_cast<char *>(out), 0, src, ss, 1),
                      CK_OK);
        }
        EXPECT_EQ(out[0], std::hypot(3.0, 4.0));
        EXPECT_EQ(out[1], std::hypot(5.0, 12.0));
        EXPECT_EQ(out[2], std::hypot(8.0, 15.0));
        ck_builder_destroy(&b);
    }
    ck_callable_decref(c);
}

TEST(Native, AllocationFailureAtEveryPointOfBuildingAndRunningACall) {
    // Everything is made inside the operation: the callable (process metadata, not counted),
    // its native signature, the types, the arrays, the kernel with its call interface.
    const std::string want = formatted(
        "3 * var * float64", "[[" + lit(std::hypot(3.0, 4.0)) + ", " + lit(std::hypot(5.0, 4.0)) +
                                 "], [], [" + lit(std::hypot(8.0, 15.0)) + "]]");
    const int64_t points = ckt::for_each_alloc_failure([&]() {
        ck_callable *c = nullptr;
        ck_type *t0 = nullptr, *t1 = nullptr;
        ck_array *a0 = nullptr, *a1 = nullptr, *out = nullptr;
        int rc = ck_callable_new("hypot_alloc", &c);
        if (rc == CK_OK)
            rc = ck_callable_add_native(c, "dd)d",
                                        as_fn(static_cast<double (*)(double, double)>(hypot)));
        if (rc == CK_OK) rc = ck_type_parse("3 * var * int32", &t0);
        if (rc == CK_OK) rc = ck_type_parse("var * 1 * float64", &t1);
        if (rc == CK_OK) rc = ck_array_parse(t0, "[[3, 5], [], [8]]", &a0);
        if (rc == CK_OK) rc = ck_array_parse(t1, "[[4], [12], [15]]", &a1);
        if (rc == CK_OK) {
            const ck_array *srcs[] = {a0, a1};
            rc = ck_call_new(c, 2, srcs, nullptr, &out);
        }
        if (rc == CK_OK) {
            char *s = nullptr;
            rc = ck_array_format(out, &s);
            if (rc == CK_OK && std::string(s) != want) ADD_FAILURE() << s << " != " << want;
            ck_free(s);
        }
        ck_array_free(out);
        ck_array_free(a0);
        ck_array_free(a1);
        ck_type_decref(t0);
        ck_type_decref(t1);
        ck_callable_decref(c);
        return rc;
    });
    EXPECT_GT(points, 0);
}

TEST(Native, SignaturesLibffiCannotExpressAreRefused) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("half", &c), CK_OK);
    EXPECT_EQ(ck_callable_add_native(c, "e)e", as_fn(negate)), CK_ERR_UNSUPPORTED);
    EXPECT_STREQ(ck_last_error(),
                 "ck_callable_add_native: e)e: argument of type float16 cannot be passed to a C "
                 "function: float16 has no libffi type (C _Float16 is passed in the low half of "
                 "an SSE register, which no libffi type describes)");
    EXPECT_EQ(ck_callable_add_native(c, "dd)e", as_fn(negate)), CK_ERR_UNSUPPORTED);
    EXPECT_STREQ(ck_last_error(),
                 "ck_callable_add_native: dd)e: result of type float16 cannot be passed to a C "
                 "function: float16 has no libffi type (C _Float16 is passed in the low half of "
                 "an SSE register, which no libffi type describes)");
    EXPECT_EQ(ck_callable_add_native(c, "(float64, float16) -> float64", as_fn(negate)),
              CK_ERR_UNSUPPORTED);
    char *sigs = nullptr;
    ASSERT_EQ(ck_callable_signatures(c, &sigs), CK_OK);
    EXPECT_STREQ(sigs, "") << "nothing was added";
    ck_free(sigs);
    // Other failures: a bad signature, a NULL function, the same arguments twice.
    EXPECT_EQ(ck_callable_add_native(c, "dx)d", as_fn(negate)), CK_ERR_PARSE);
    EXPECT_EQ(ck_callable_add_native(c, "d)d", nullptr), CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(), "ck_callable_add_native: NULL argument");
    ASSERT_EQ(ck_callable_add_native(c, "d)d", as_fn(negate)), CK_OK);
    EXPECT_EQ(ck_callable_add_native(c, "d)f", as_fn(negate)), CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(),
                 "ck_callable_add: half already has a signature for these arguments: (float64) "
                 "-> float64");
    ck_callable_decref(c);
}

#else  // !CK_WITH_FFI

TEST(Native, RefusedWithoutLibffi) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("hypot", &c), CK_OK);
    EXPECT_EQ(ck_callable_add_native(c, "dd)d",
                                     as_fn(static_cast<double (*)(double, double)>(hypot))),
              CK_ERR_UNSUPPORTED);
    EXPECT_STREQ(ck_last_error(),
                 "ck_callable_add_native: this build of ckernel has no libffi (configured with "
                 "CK_WITH_FFI=OFF or libffi not found)");
    ck_callable_decref(c);
}

#endif

}  // namespace
