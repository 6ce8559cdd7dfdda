// tests/types/unit/numtext_test.cpp: decimal text <-> float16/float32/float64. Expected
// strings are those of Python's repr() and NumPy's float16/float32 repr (shortest
// round-trip), and expected halves are worked out by hand from the decimal value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

extern "C" {
#include "common/float16.h"
#include "types/numtext.h"
}

namespace {

std::string fmt(double v, ck__fkind k, int point = 1) {
    char buf[64];
    size_t n = ck__format_float(v, k, point, buf);
    EXPECT_EQ(n, std::strlen(buf));
    return std::string(buf, n);
}

uint16_t h(const char *s) {
    const char *end = nullptr;
    uint16_t r = ck__strtoh_c(s, &end);
    EXPECT_EQ(*end, '\0') << s;
    return r;
}

TEST(TypesNumText, DecimalToHalfRoundsOnceFromTheDecimal) {
    EXPECT_EQ(h("1"), 0x3c00);
    EXPECT_EQ(h("-0"), 0x8000);
    EXPECT_EQ(h("0.1"), 0x2e66);
    EXPECT_EQ(h("65504"), 0x7bff);
    EXPECT_EQ(h("65519.99999999999999999999"), 0x7bff); // strtod alone would say 65520 (inf)
    EXPECT_EQ(h("65520"), 0x7c00);
    // 1 + 2^-11 is the midpoint of 1 and 1 + 2^-10: exactly it ties to even (1.0) ...
    EXPECT_EQ(h("1.00048828125"), 0x3c00);
    // ... a hair above rounds up, although strtod rounds the text to the midpoint itself.
    EXPECT_EQ(h("1.000488281250000000001"), 0x3c01);
    EXPECT_EQ(h("1.000488281249999999999"), 0x3c00);
    EXPECT_EQ(h("1.00146484375"), 0x3c02); // 1 + 3 * 2^-11: tie, even is up
    EXPECT_EQ(h("1.001464843749999999999"), 0x3c01);
    // 2^-25, half the smallest subnormal: ties to zero; anything above goes to 2^-24.
    EXPECT_EQ(h("2.98023223876953125e-8"), 0x0000);
    EXPECT_EQ(h("2.980232238769531250001e-8"), 0x0001);
    EXPECT_EQ(h("5.9604644775390625e-8"), 0x0001);
    EXPECT_EQ(h("6e-8"), 0x0001);
    EXPECT_EQ(h("1e-30"), 0x0000);
    EXPECT_EQ(h("-1e-30"), 0x8000);
    EXPECT_EQ(h("1e30"), 0x7c00);
}

TEST(TypesNumText, StrtodIgnoresNothingAndStopsAtTheEnd) {
    const char *end = nullptr;
    const char *s = "2.5e3,";
    EXPECT_EQ(ck__strtod_c(s, &end), 2500.0);
    EXPECT_EQ(end, s + 5);
    EXPECT_EQ(ck__strtof_c("0.1", &end), 0.1f);
}

TEST(TypesNumText, ShortestFloat64LikePythonRepr) {
    EXPECT_EQ(fmt(0.1, CK__F64), "0.1");
    EXPECT_EQ(fmt(1.0 / 3.0, CK__F64), "0.3333333333333333");
    EXPECT_EQ(fmt(2.0 / 3.0, CK__F64), "0.6666666666666666");
    EXPECT_EQ(fmt(0.1 + 0.2, CK__F64), "0.30000000000000004");
    EXPECT_EQ(fmt(100.0, CK__F64), "100.0");
    EXPECT_EQ(fmt(-2.5, CK__F64), "-2.5");
    EXPECT_EQ(fmt(0.0, CK__F64), "0.0");
    EXPECT_EQ(fmt(-0.0, CK__F64), "-0.0");
    EXPECT_EQ(fmt(1e16, CK__F64), "1e+16");
    EXPECT_EQ(fmt(1e15, CK__F64), "1000000000000000.0");
    EXPECT_EQ(fmt(123456789012345678.0, CK__F64), "1.2345678901234568e+17");
    EXPECT_EQ(fmt(0.0001, CK__F64), "0.0001");
    EXPECT_EQ(fmt(0.00001, CK__F64), "1e-05");
    EXPECT_EQ(fmt(1.5e-7, CK__F64), "1.5e-07");
    EXPECT_EQ(fmt(5e-324, CK__F64), "5e-324");
    EXPECT_EQ(fmt(std::numeric_limits<double>::max(), CK__F64), "1.7976931348623157e+308");
    EXPECT_EQ(fmt(9007199254740993.0, CK__F64), "9007199254740992.0");
    EXPECT_EQ(fmt(std::nan(""), CK__F64), "nan");
    EXPECT_EQ(fmt(-std::numeric_limits<double>::infinity(), CK__F64), "-inf");
    EXPECT_EQ(fmt(std::numeric_limits<double>::infinity(), CK__F64), "inf");
    EXPECT_EQ(fmt(2.0, CK__F64, 0), "2");
    EXPECT_EQ(fmt(-0.0, CK__F64, 0), "-0");
}

TEST(TypesNumText, ShortestFloat32AndFloat16LikeNumPy) {
    EXPECT_EQ(fmt(static_cast<double>(0.1f), CK__F32), "0.1");
    EXPECT_EQ(fmt(static_cast<double>(1.0f / 3.0f), CK__F32), "0.33333334");
    EXPECT_EQ(fmt(16777216.0, CK__F32), "16777216.0");
    EXPECT_EQ(fmt(static_cast<double>(std::numeric_limits<float>::max()), CK__F32),
              "3.4028235e+38");
    EXPECT_EQ(fmt(static_cast<double>(std::numeric_limits<float>::denorm_min()), CK__F32),
              "1e-45");
    EXPECT_EQ(fmt(ck__half_to_double(0x2e66), CK__F16), "0.1");
    EXPECT_EQ(fmt(65504.0, CK__F16), "65500.0");
    EXPECT_EQ(fmt(ck__half_to_double(0x0001), CK__F16), "6e-08");
    EXPECT_EQ(fmt(ck__half_to_double(0x3c01), CK__F16), "1.001");
    EXPECT_EQ(fmt(ck__half_to_double(0x3555), CK__F16), "0.3333");
}

TEST(TypesNumText, EveryHalfRoundTripsThroughItsShortestText) {
    for (uint32_t u = 0; u <= 0xffff; u++) {
        const uint16_t x = static_cast<uint16_t>(u);
        if (ck__half_is_nan(x)) {
            continue;
        }
        char buf[64];
        ck__format_float(ck__half_to_double(x), CK__F16, 1, buf);
        const char *end = nullptr;
        ASSERT_EQ(ck__strtoh_c(buf, &end), x) << buf;
        // binary16 never needs more than 5 significant digits.
        std::string s(buf);
        s = s.substr(0, s.find('e'));
        size_t digits = 0;
        bool leading = true;
        for (char c : s) {
            if (c >= '1' && c <= '9') {
                leading = false;
            }
            digits += !leading && c >= '0' && c <= '9';
        }
        if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) {
            digits -= digits > 1; // the ".0" that marks a float
        }
        ASSERT_LE(digits, 5u) << buf;
    }
}

TEST(TypesNumText, RandomFloat32AndFloat64RoundTrip) {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 200000; i++) {
        uint64_t bits = rng();
        double d;
        std::memcpy(&d, &bits, sizeof d);
        float f;
        uint32_t fb = static_cast<uint32_t>(bits >> 11);
        std::memcpy(&f, &fb, sizeof f);
        if (!std::isnan(d)) {
            char buf[64];
            ck__format_float(d, CK__F64, 1, buf);
            const char *end = nullptr;
            double back = ck__strtod_c(buf, &end);
            ASSERT_EQ(std::memcmp(&back, &d, sizeof d), 0) << buf;
        }
        if (!std::isnan(f)) {
            char buf[64];
            ck__format_float(static_cast<double>(f), CK__F32, 1, buf);
            const char *end = nullptr;
            float back = ck__strtof_c(buf, &end);
            ASSERT_EQ(std::memcmp(&back, &f, sizeof f), 0) << buf;
        }
    }
}

} // namespace
