// tests/types/api/bfloat16_test.cpp: bfloat16 end to end through the public API: its
// datashape, every one of its 65536 values as literal text and back (shortest digits,
// checked against a search of printf's correctly rounded digits with the definitional
// oracle of tests/support/scalar_oracle.c), decimal text rounded once, options and NA,
// arithmetic and comparisons through ck_call (computed in float32, rounded once), the
// selection it takes part in, reductions and accumulations, and its casts to and from
// float32 (bfloat16 is float32's top half: widening shifts the bits, narrowing rounds the
// low 16 bits to nearest even).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt_array.hpp"
#include "scalar_oracle.h"

namespace {

uint16_t bits_at(const ckt::Array &a, size_t i) {
    uint16_t h;
    std::memcpy(&h, a.data() + 2 * i, 2);
    return h;
}

// The fewest significant digits (1 to 4) whose correctly rounded text (printf) reads back to
// h through the oracle's rounding of the exact decimal (strtold: 64 bits, exact for these).
int shortest_digits(uint16_t h) {
    const long double v = ckt_bf16_value(h);
    for (int d = 1; d <= 9; d++) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*Le", d - 1, v);
        if (ckt_round_to_bf16(std::strtold(buf, nullptr)) == h) return d;
    }
    return -1;
}

int significant_digits(const std::string &text) {
    int n = 0, leading = 1, trailing_zeros = 0;
    for (char c : text) {
        if (c == 'e') break;
        if (c < '0' || c > '9') continue;
        if (leading && c == '0') continue;
        leading = 0;
        n++;
        trailing_zeros = c == '0' ? trailing_zeros + 1 : 0;
    }
    return n == 0 ? 1 : n - trailing_zeros;
}

TEST(Bfloat16, IsAScalarDatashape) {
    ckt::Type t("bfloat16");
    EXPECT_EQ(ck_type_get_id(t.get()), CK_TYPE_BFLOAT16);
    EXPECT_EQ(ck_type_data_size(t.get()), 2u);
    EXPECT_EQ(ck_type_data_alignment(t.get()), 2u);
    EXPECT_STREQ(ck_type_id_name(CK_TYPE_BFLOAT16), "bfloat16");
    ckt::Type o("3 * ?bfloat16");
    ckt::Array a("3 * ?bfloat16", "[1.5, NA, -0.0]");
    EXPECT_EQ(a.str(), "[1.5, NA, -0]");
    EXPECT_EQ(bits_at(a, 1), 0x7fe2u);  // the quiet NaN with 1954's low payload bits
}

// Every value prints with the fewest digits that read back, and reads back to itself.
TEST(Bfloat16, EveryValueRoundTripsThroughItsShortestText) {
    ckt::Array one("bfloat16");
    for (uint32_t u = 0; u < 0x10000u; u++) {
        const uint16_t h = static_cast<uint16_t>(u);
        std::memcpy(one.data(), &h, 2);
        const std::string text = one.str();
        const bool nan = (h & 0x7fffu) > 0x7f80u;
        if (nan) {
            ASSERT_EQ(text, "nan") << std::hex << u;
            continue;
        }
        ckt::Array back("bfloat16", text.c_str());
        ASSERT_EQ(bits_at(back, 0), h) << std::hex << u << " printed as " << text;
        if ((h & 0x7fffu) == 0x7f80u || (h & 0x7fffu) == 0) continue;  // inf, zeros
        ASSERT_EQ(significant_digits(text), shortest_digits(h)) << std::hex << u << ": " << text;
    }
}

// Decimal text is rounded once from its exact value, not through float32 or float64.
TEST(Bfloat16, DecimalTextRoundsOnceToNearestEven) {
    struct Case {
        const char *text;
        uint16_t bits;
    } cases[] = {
        {"1", 0x3f80},
        {"1.00390625", 0x3f80},            // 1 + 2^-8: a tie, to even
        {"1.00390625000000000001", 0x3f81},  // just above it (a double reads the tie)
        {"1.01171875", 0x3f82},            // 1 + 3 * 2^-8: a tie, to even (up)
        {"257", 0x4380},                   // 256 and 258 tie: 256
        {"3.3895313892515355e38", 0x7f7f},  // the largest finite
        {"9.1835496e-41", 0x0001},         // the least subnormal, 2^-133
        {"-0", 0x8000},
        {"inf", 0x7f80},
        {"-inf", 0xff80},
    };
    for (const Case &c : cases) {
        ckt::Array a("bfloat16", c.text);
        EXPECT_EQ(bits_at(a, 0), c.bits) << c.text;
    }
    ck_array *a = nullptr;
    ckt::Type t("bfloat16");
    EXPECT_EQ(ck_array_parse(t.get(), "3.4e38", &a), CK_ERR_OVERFLOW);  // rounds to inf
    EXPECT_NE(std::string(ck_last_error()).find("out of range for bfloat16"), std::string::npos)
        << ck_last_error();
    EXPECT_EQ(a, nullptr);
}

std::string call2(const char *name, const ckt::Array &x, const ckt::Array &y, const char *out_type,
                  const ck_eval_ctx *ctx = nullptr) {
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_lookup(name, &c), CK_OK);
    ckt::Array out(out_type);
    const ck_array *src[2] = {x.get(), y.get()};
    const int rc = ck_call(c, out.get(), 2, src, ctx);
    ck_callable_decref(c);
    return rc == CK_OK ? out.str() : std::string(ck_status_name(rc)) + ": " + ck_last_error();
}

// Arithmetic in float32, rounded once: 1 + 2^-8 ties to 1; 1/3 is 0x3eab; comparisons on
// the values; an NA operand gives NA.
TEST(Bfloat16, ArithmeticAndComparisonsThroughCall) {
    ckt::Array a("4 * bfloat16", "[1, 1, 3, 256]");
    ckt::Array b("4 * bfloat16", "[0.00390625, 0.01171875, 1, 1]");
    EXPECT_EQ(call2("add", a, b, "4 * bfloat16"), "[1, 1.016, 4, 256]");
    ckt::Array one("bfloat16", "1"), three("bfloat16", "3");
    ckt::Array q("bfloat16");
    {
        ck_callable *c = nullptr;
        ASSERT_EQ(ck_lookup("divide", &c), CK_OK);
        const ck_array *src[2] = {one.get(), three.get()};
        ASSERT_EQ(ck_call(c, q.get(), 2, src, nullptr), CK_OK) << ck_last_error();
        ck_callable_decref(c);
    }
    EXPECT_EQ(bits_at(q, 0), 0x3eabu);
    EXPECT_EQ(q.str(), "0.334");  // 0.333984375: three digits tell it from its neighbours
    EXPECT_EQ(call2("less", a, b, "4 * bool"), "[false, false, false, false]");
    EXPECT_EQ(call2("greater_equal", a, b, "4 * bool"), "[true, true, true, true]");
    ckt::Array o("2 * ?bfloat16", "[NA, 2]");
    EXPECT_EQ(call2("multiply", o, one, "2 * ?bfloat16"), "[NA, 2]");
    EXPECT_EQ(call2("maximum", a, b, "4 * bfloat16"), "[1, 1, 3, 256]");
}

// bfloat16 meets float16 in float32 (neither holds the other), meets int8 and uint8 as
// itself (it holds them), and float32 as float32.
TEST(Bfloat16, SelectionPromotesAsItsFormatAllows) {
    ckt::Array h("float16", "1.5"), g("bfloat16", "2"), i("int8", "-3"), u("uint8", "200"),
        f("float32", "0.25");
    EXPECT_EQ(call2("add", h, g, "float32"), "3.5");
    ck_callable *add = nullptr;
    ASSERT_EQ(ck_lookup("add", &add), CK_OK);
    struct Pair {
        const ckt::Array *x, *y;
        const char *want;
    } pairs[] = {{&h, &g, "float32"}, {&g, &i, "bfloat16"}, {&u, &g, "bfloat16"},
                 {&g, &f, "float32"}};
    for (const Pair &p : pairs) {
        const ck_array *src[2] = {p.x->get(), p.y->get()};
        ck_array *out = nullptr;
        ASSERT_EQ(ck_call_new(add, 2, src, nullptr, &out), CK_OK) << ck_last_error();
        char *t = nullptr;
        ASSERT_EQ(ck_type_format(ck_array_type(out), &t), CK_OK);
        EXPECT_STREQ(t, p.want);
        ck_free(t);
        ck_array_free(out);
    }
    ck_callable_decref(add);
}

// Casts: widening is exact, narrowing rounds once, checked modes refuse what does not fit.
TEST(Bfloat16, CastsToAndFromFloat32) {
    ckt::Array f("4 * float32", "[1.00390625, 1.0039064, 3.4e38, 1e-45]");
    ckt::Array g("4 * bfloat16");
    ASSERT_EQ(ck_assign(g.get(), f.get(), nullptr), CK_ERR_OVERFLOW);  // 3.4e38 -> inf
    ck_eval_ctx nocheck = CK_EVAL_CTX_INIT;
    nocheck.errmode = CK_ERRMODE_NOCHECK;
    ASSERT_EQ(ck_assign(g.get(), f.get(), &nocheck), CK_OK) << ck_last_error();
    EXPECT_EQ(bits_at(g, 0), 0x3f80u);  // the tie, to even
    EXPECT_EQ(bits_at(g, 1), 0x3f81u);  // the float32 just above it
    EXPECT_EQ(bits_at(g, 2), 0x7f80u);  // inf
    EXPECT_EQ(bits_at(g, 3), 0x0000u);  // far below the least subnormal
    ckt::Array w("4 * float32");
    ASSERT_EQ(ck_assign(w.get(), g.get(), nullptr), CK_OK);
    for (size_t i = 0; i < 4; i++) {
        uint32_t u;
        std::memcpy(&u, w.data() + 4 * i, 4);
        EXPECT_EQ(u, static_cast<uint32_t>(bits_at(g, i)) << 16) << i;  // exact: the bits
    }
    ck_eval_ctx inexact = CK_EVAL_CTX_INIT;
    inexact.errmode = CK_ERRMODE_INEXACT;
    ckt::Array x("float32", "0.1"), y("bfloat16");
    EXPECT_EQ(ck_assign(y.get(), x.get(), &inexact), CK_ERR_INEXACT);
    EXPECT_NE(std::string(ck_last_error()).find("float32 value 0.1 is not exact in bfloat16 "
                                                "(0.10009765625)"),
              std::string::npos)
        << ck_last_error();
}

// The literal of reduction `name` of x over every axis.
std::string reduce(const char *name, const ckt::Array &x, unsigned flags = 0) {
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_reduction_lookup(name, &c), CK_OK) << name;
    const ck_reduce_spec r = {c, nullptr, 0, flags};
    ck_array *out = nullptr;
    const int rc = ck_reduce_new(&r, x.get(), nullptr, &out);
    ck_callable_decref(c);
    if (rc != CK_OK) return std::string("error: ") + ck_last_error();
    char *text = nullptr;
    EXPECT_EQ(ck_array_format(out, &text), CK_OK);
    std::string result = text;
    ck_free(text);
    ck_array_free(out);
    return result;
}

// Sums fold in float32 lanes and round once into bfloat16: 300 ones sum to 300 (a float16
// or bfloat16 running sum would stop at 256); min and max select; NA skipped with skipna.
TEST(Bfloat16, ReductionsFoldInFloat32) {
    std::string ones = "[";
    for (int i = 0; i < 300; i++) ones += i ? ", 1" : "1";
    ones += "]";
    ckt::Array x("300 * bfloat16", ones.c_str());
    EXPECT_EQ(reduce("sum", x), "300");
    ckt::Array y("5 * ?bfloat16", "[3, NA, -7.5, 2, 0.5]");
    EXPECT_EQ(reduce("sum", y), "NA");
    EXPECT_EQ(reduce("sum", y, CK_REDUCE_SKIPNA), "-2");
    EXPECT_EQ(reduce("min", y, CK_REDUCE_SKIPNA), "-7.5");
    EXPECT_EQ(reduce("max", y, CK_REDUCE_SKIPNA), "3");
    EXPECT_EQ(reduce("prod", y, CK_REDUCE_SKIPNA), "-22.5");
}

}  // namespace
