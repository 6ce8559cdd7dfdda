// tests/types/unit/numtext_test.cpp: decimal text <-> float16/float32/float64. Expected
// strings are those of Python's repr() and NumPy's float16/float32 repr (shortest
// round-trip), and expected halves are worked out by hand from the decimal value. float32
// and float64 are read through fast_float and printed through double-conversion: millions
// of random bit patterns print and read back bit for bit; printed digits are the C
// library's correctly rounded printf digits at the same count, one digit fewer never reads
// back; reading is checked against the C library's strtod_l/strtof_l in the "C" locale
// (value and end, for any text, decimals around halfway points included, and where
// fast_float's grammar and strtod's differ); and neither a comma-decimal locale nor the
// caller's floating-point settings (rounding mode, flush-to-zero, denormals-are-zero)
// change anything.
// tests/host/numtext_test.py compares the printed text with Python's repr itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfenv>
#include <cfloat>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <locale.h>
#include <random>
#include <string>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64) || defined(__SSE2__)
#include <xmmintrin.h>
#define CKT_HAVE_MXCSR 1
#endif

extern "C" {
#include "common/float16.h"
#include "values/numtext.h"
#include "values/numtext_ff.h"
}
#include "int128.hpp"

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

// ---- float32 and float64: fast_float reads, double-conversion prints ----

uint64_t bits64(double d) {
    uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    return u;
}
uint32_t bits32(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}
double from64(uint64_t u) {
    double d;
    std::memcpy(&d, &u, sizeof d);
    return d;
}
float from32(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

// The C library in the "C" locale: the oracle for reading, and for digits (glibc's printf
// and strtod are correctly rounded).
locale_t c_locale() {
    static locale_t loc = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    return loc;
}
double libc_strtod(const char *s, const char **end) {
    char *e;
    const double d = strtod_l(s, &e, c_locale());
    *end = e;
    return d;
}
float libc_strtof(const char *s, const char **end) {
    char *e;
    const float f = strtof_l(s, &e, c_locale());
    *end = e;
    return f;
}
// "D.DDDe+XX" with `digits` significant digits, correctly rounded (ties to even), as
// (digits, exponent of the first one); the sign is dropped.
std::pair<std::string, int> printf_digits(double v, int digits) {
    locale_t old = uselocale(c_locale());
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, std::fabs(v));
    uselocale(old);
    std::string d;
    const char *p = buf;
    for (; *p != 'e'; p++) {
        if (*p != '.') d += *p;
    }
    return {d, std::atoi(p + 1)};
}
// The significant digits and the exponent of a text in repr layout ("-1.5e-07", "100.0").
std::pair<std::string, int> text_digits(const std::string &text) {
    std::string mant = text, d;
    int exp = 0;
    const size_t e = mant.find('e');
    if (e != std::string::npos) {
        exp = std::atoi(mant.c_str() + e + 1);
        mant = mant.substr(0, e);
    }
    if (!mant.empty() && mant[0] == '-') mant = mant.substr(1);
    const size_t point = mant.find('.');
    const std::string ip = mant.substr(0, point);
    const std::string fp = point == std::string::npos ? "" : mant.substr(point + 1);
    std::string all = ip + fp;
    int lead = static_cast<int>(ip.size()) - 1; // the exponent of all[0]
    size_t z = 0;
    while (z + 1 < all.size() && all[z] == '0') z++;
    all = all.substr(z);
    lead -= static_cast<int>(z);
    while (all.size() > 1 && all.back() == '0') all.pop_back();
    return {all, exp + lead};
}
bool is_power_of_two(double v) {
    const uint64_t b = bits64(v) & 0x7fffffffffffffffu;
    return b >= (uint64_t{1} << 52) ? (b & 0xfffffffffffffu) == 0 : (b & (b - 1)) == 0;
}

// What every finite value's text must satisfy: it reads back bit for bit (through ckernel and
// through the C library), its digits are the correctly rounded ones at that count (a power
// of two, whose lower neighbour is nearer, may take the other candidate), and one digit
// fewer, correctly rounded, does not read back.
template <typename F> void check_shortest(F v, ck__fkind k) {
    const double d = static_cast<double>(v);
    const std::string t = fmt(d, k);
    const char *end = nullptr;
    if (k == CK__F64) {
        ASSERT_EQ(bits64(ck__strtod_c(t.c_str(), &end)), bits64(d)) << t;
        ASSERT_EQ(*end, '\0') << t;
        ASSERT_EQ(bits64(libc_strtod(t.c_str(), &end)), bits64(d)) << t;
    } else {
        const float f = static_cast<float>(v);
        ASSERT_EQ(bits32(ck__strtof_c(t.c_str(), &end)), bits32(f)) << t;
        ASSERT_EQ(*end, '\0') << t;
        ASSERT_EQ(bits32(libc_strtof(t.c_str(), &end)), bits32(f)) << t;
    }
    ASSERT_EQ(t[0] == '-', std::signbit(d)) << t;
    if (d == 0) {
        return;
    }
    const auto mine = text_digits(t);
    const int n = static_cast<int>(mine.first.size());
    if (!is_power_of_two(d)) {
        ASSERT_EQ(printf_digits(d, n), mine) << t;
    }
    if (n > 1) {
        const auto fewer = printf_digits(d, n - 1);
        const std::string s = fewer.first.substr(0, 1) + "." + fewer.first.substr(1) + "e" +
                              std::to_string(fewer.second);
        if (k == CK__F64) {
            ASSERT_NE(bits64(libc_strtod(s.c_str(), &end)), bits64(d)) << t << " vs " << s;
        } else {
            ASSERT_NE(bits32(libc_strtof(s.c_str(), &end)), bits32(static_cast<float>(v)))
                << t << " vs " << s;
        }
    }
}

TEST(TypesNumText, Float64TiesTakeTheEvenDigitLikePython) {
    // Halfway between two shortest candidates: Python's repr (and correctly rounded printf)
    // takes the even last digit; double-conversion alone would take the one farther from 0.
    EXPECT_EQ(fmt(1125899906842624.25, CK__F64), "1125899906842624.2");
    EXPECT_EQ(fmt(1125899906842624.75, CK__F64), "1125899906842624.8");
    EXPECT_EQ(fmt(1125899906842625.25, CK__F64), "1125899906842625.2");
    EXPECT_EQ(fmt(-1125899906842625.75, CK__F64), "-1125899906842625.8");
    // 2^50 + k/4 for k odd is a tie at every k: both directions, against printf.
    for (int k = 1; k < 4000; k += 2) {
        const double v = 1125899906842624.0 + k * 0.25;
        check_shortest(v, CK__F64);
    }
    // Further down, ties one and two decimals further right (v = odd * 2^-(r+1)).
    for (uint64_t m = 1; m < 2000; m += 2) {
        check_shortest(std::ldexp(static_cast<double>((uint64_t{1} << 52) + m), -3), CK__F64);
        check_shortest(std::ldexp(static_cast<double>((uint64_t{1} << 52) + m), -6), CK__F64);
        check_shortest(std::ldexp(static_cast<double>((uint64_t{1} << 52) + m), -9), CK__F64);
    }
}

TEST(TypesNumText, Float32TiesTakeTheEvenDigitLikeNumPy) {
    EXPECT_EQ(fmt(2097152.25, CK__F32), "2097152.2");
    EXPECT_EQ(fmt(2097152.75, CK__F32), "2097152.8");
    EXPECT_EQ(fmt(1048576.125, CK__F32), "1048576.1");
    for (uint32_t m = 1; m < 4000; m += 2) {
        check_shortest(std::ldexp(static_cast<float>((uint32_t{1} << 23) + m), -2), CK__F32);
        check_shortest(std::ldexp(static_cast<float>((uint32_t{1} << 23) + m), -5), CK__F32);
    }
}

TEST(TypesNumText, RandomFloat64BitPatternsAreShortestAndReadBack) {
    std::mt19937_64 rng(20240611);
    for (int i = 0; i < 1000000; i++) {
        uint64_t b = rng();
        if (i % 16 == 1) {
            b &= 0x800fffffffffffffu; // subnormal (or zero)
        } else if (i % 16 == 2) {
            b |= 0x7fe0000000000000u; // the largest binade
        } else if (i % 16 == 3) {
            b &= 0x801fffffffffffffu; // the smallest normal binade and below
        }
        const double d = from64(b);
        if (std::isnan(d)) {
            ASSERT_EQ(fmt(d, CK__F64), "nan");
            continue;
        }
        check_shortest(d, CK__F64);
        if (HasFatalFailure()) return;
    }
}

TEST(TypesNumText, RandomFloat32BitPatternsAreShortestAndReadBack) {
    std::mt19937_64 rng(11);
    for (int i = 0; i < 1000000; i++) {
        uint32_t b = static_cast<uint32_t>(rng());
        if (i % 16 == 1) {
            b &= 0x807fffffu;
        } else if (i % 16 == 2) {
            b |= 0x7f000000u;
            b &= 0xff7fffffu;
        }
        const float f = from32(b);
        if (std::isnan(f)) {
            ASSERT_EQ(fmt(static_cast<double>(f), CK__F32), "nan");
            continue;
        }
        check_shortest(f, CK__F32);
        if (HasFatalFailure()) return;
    }
}

TEST(TypesNumText, EveryPowerOfTwoAndTheExtremesReadBack) {
    for (int e = -1074; e <= 1023; e++) {
        check_shortest(std::ldexp(1.0, e), CK__F64);
        check_shortest(-std::ldexp(1.0, e), CK__F64);
        check_shortest(std::nextafter(std::ldexp(1.0, e), 0.0), CK__F64);
        if (HasFatalFailure()) return;
    }
    for (int e = -149; e <= 127; e++) {
        check_shortest(std::ldexp(1.0f, e), CK__F32);
        check_shortest(std::nextafter(std::ldexp(1.0f, e), 0.0f), CK__F32);
        if (HasFatalFailure()) return;
    }
    for (uint64_t b : {uint64_t{1}, uint64_t{2}, uint64_t{0x000fffffffffffff},
                       uint64_t{0x0010000000000000}, uint64_t{0x7fefffffffffffff},
                       uint64_t{0x7feffffffffffffe}, uint64_t{0x3ff0000000000001}}) {
        check_shortest(from64(b), CK__F64);
    }
    for (uint32_t b = 1; b < 70000; b++) { // the smallest subnormal floats, every one
        check_shortest(from32(b), CK__F32);
        if (HasFatalFailure()) return;
    }
    EXPECT_EQ(fmt(from64(0x000fffffffffffff), CK__F64), "2.225073858507201e-308");
    EXPECT_EQ(fmt(std::numeric_limits<double>::min(), CK__F64), "2.2250738585072014e-308");
    EXPECT_EQ(fmt(static_cast<double>(std::numeric_limits<float>::min()), CK__F32),
              "1.1754944e-38");
    EXPECT_EQ(fmt(static_cast<double>(from32(0x007fffff)), CK__F32), "1.1754942e-38");
}

TEST(TypesNumText, LayoutFollowsPythonRepr) {
    // Fixed from 1e-4 up to below 1e16, on the shortest digits' exponent.
    EXPECT_EQ(fmt(9999999999999998.0, CK__F64), "9999999999999998.0");
    EXPECT_EQ(fmt(1e16, CK__F64), "1e+16");
    EXPECT_EQ(fmt(1.5e16, CK__F64), "1.5e+16");
    EXPECT_EQ(fmt(0.0001, CK__F64), "0.0001");
    EXPECT_EQ(fmt(0.00012345, CK__F64), "0.00012345");
    EXPECT_EQ(fmt(9.9999e-05, CK__F64), "9.9999e-05");
    EXPECT_EQ(fmt(1e100, CK__F64), "1e+100");
    EXPECT_EQ(fmt(1.5e-100, CK__F64), "1.5e-100");
    EXPECT_EQ(fmt(1e22, CK__F64), "1e+22");
    EXPECT_EQ(fmt(123.456, CK__F64), "123.456");
    EXPECT_EQ(fmt(-0.5, CK__F64), "-0.5");
    // `point` 0 (complex components): no ".0" on integral values in fixed layout only.
    EXPECT_EQ(fmt(100.0, CK__F64, 0), "100");
    EXPECT_EQ(fmt(1e16, CK__F64, 0), "1e+16");
    EXPECT_EQ(fmt(0.25, CK__F64, 0), "0.25");
    EXPECT_EQ(fmt(-std::numeric_limits<double>::infinity(), CK__F64, 0), "-inf");
    EXPECT_EQ(fmt(std::nan(""), CK__F32, 0), "nan");
    EXPECT_EQ(fmt(-std::nan(""), CK__F64), "nan"); // every NaN prints as nan
    EXPECT_EQ(fmt(-0.0, CK__F32), "-0.0");
    EXPECT_EQ(fmt(static_cast<double>(1e-4f), CK__F32), "0.0001"); // NumPy says 1e-04
    EXPECT_EQ(fmt(static_cast<double>(1e16f), CK__F32), "1e+16");
    EXPECT_EQ(fmt(static_cast<double>(123456.79f), CK__F32), "123456.79");
}

// Random text in strtod's alphabet and beyond: signs, points, exponents, hexadecimal, inf,
// nan and their spellings, white space, junk.
std::string random_text(std::mt19937_64 &rng) {
    static const char *const pieces[] = {
        "0", "1", "2", "5", "7", "9", "00", "123", "4503599627370497", ".", ".", "e", "E", "+",
        "-", "e+", "e-", "e3", "e-5", "e400", "e-400", " ", "\t", "\n", "x", "X", "0x", "0X",
        "p", "p-3", "a", "f", "inf", "INF", "infinity", "Infinity", "nan", "NaN", "nan(", ")",
        "nan(0x8)", ",", "j", "_", "999999999999999999999"};
    std::string s;
    const int n = static_cast<int>(rng() % 7);
    for (int i = 0; i < n; i++) {
        s += pieces[rng() % (sizeof pieces / sizeof pieces[0])];
    }
    return s;
}

TEST(TypesNumText, ReadsTheLanguageOfStrtod) {
    // The value and the end pointer of strtod in the "C" locale, for any text: decimals go
    // to fast_float, the rest (hexadecimal, inf, nan, no number) to strtod itself. Signs
    // where fast_float's grammar (no leading '+') and strtod's differ are among them.
    std::mt19937_64 rng(99);
    std::vector<std::string> texts = {
        "", " ", "+", "-", ".", "-.", "+.e1", "e5", "1e", "1e+", "1e-", "1E5", "1.e5", ".5e-1",
        "5.", "-0", "+0.0e0", "00000.00000", "+1.5", "+.5", "-.5", "+5.", "+-1", "-+1", "++1",
        "--1", "+ 1", "- 1", "+e1", "+inf", "+nan", "-nan", "+0x1p3", "-0x", "1e+-5", "1e-+5",
        "1..5", "1.5.5", "1e5.5", "1e5e5", "0x", "0x1p3", "-0X1.8P1", "0x.8", "0xg", "inf",
        "-Infinity", "infin", "nan", "NAN(123)", "nan(", " \t\n1.5x", "1,5", "1_000",
        "1e99999999999999999999", "1e-99999999999999999999", "-1e400", "1e-400",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "4.9406564584124654e-324",
        "1.7976931348623158e308", "1.7976931348623157e308", "1.797693134862315807e308",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999999"};
    for (int i = 0; i < 200000; i++) {
        texts.push_back(random_text(rng));
    }
    for (const std::string &t : texts) {
        const char *mine_end = nullptr, *ref_end = nullptr;
        const double mine = ck__strtod_c(t.c_str(), &mine_end);
        const double ref = libc_strtod(t.c_str(), &ref_end);
        ASSERT_EQ(mine_end - t.c_str(), ref_end - t.c_str()) << "'" << t << "'";
        if (std::isnan(ref)) {
            ASSERT_TRUE(std::isnan(mine)) << "'" << t << "'";
        } else {
            ASSERT_EQ(bits64(mine), bits64(ref)) << "'" << t << "'";
        }
        const float mine_f = ck__strtof_c(t.c_str(), &mine_end);
        const float ref_f = libc_strtof(t.c_str(), &ref_end);
        ASSERT_EQ(mine_end - t.c_str(), ref_end - t.c_str()) << "'" << t << "'";
        if (std::isnan(ref_f)) {
            ASSERT_TRUE(std::isnan(mine_f)) << "'" << t << "'";
        } else {
            ASSERT_EQ(bits32(mine_f), bits32(ref_f)) << "'" << t << "'";
        }
    }
}

// The exact decimal of n * 2^k (n > 0) as printf's %e writes it with every digit, trailing
// zeros dropped: "d.ddd...e+XX". Done in base-10^9 integers, for the midpoint of two
// adjacent doubles needs more bits than any double, and long double is no wider than double
// on some hosts (armhf) and a pair of doubles on others (ppc64le).
std::string exact_decimal_of(uint64_t n, int k) {
    std::vector<uint64_t> limbs;  // little-endian, base 10^9
    for (; n != 0; n /= 1000000000u) limbs.push_back(n % 1000000000u);
    auto multiply = [&limbs](uint64_t by) {
        uint64_t carry = 0;
        for (uint64_t &l : limbs) {
            const uint64_t v = l * by + carry;
            l = v % 1000000000u;
            carry = v / 1000000000u;
        }
        for (; carry != 0; carry /= 1000000000u) limbs.push_back(carry % 1000000000u);
    };
    // n * 2^k = n * 2^k (k >= 0), else n * 5^-k / 10^-k.
    int shift = 0;
    for (int left = k; left > 0; left -= 29) multiply(uint64_t{1} << std::min(left, 29));
    if (k < 0) {
        shift = -k;
        for (int left = -k; left > 0; left -= 13) {
            uint64_t p5 = 1;
            for (int i = 0; i < std::min(left, 13); i++) p5 *= 5;
            multiply(p5);
        }
    }
    std::string d = std::to_string(limbs.back());
    for (size_t i = limbs.size() - 1; i-- > 0;) {
        const std::string l = std::to_string(limbs[i]);
        d += std::string(9 - l.size(), '0') + l;
    }
    const int exp10 = static_cast<int>(d.size()) - 1 - shift;
    while (d.size() > 1 && d.back() == '0') d.pop_back();
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", exp10 < 0 ? '-' : '+', std::abs(exp10));
    return d.substr(0, 1) + (d.size() > 1 ? "." + d.substr(1) : "") + e;
}

// A positive finite double as n * 2^k with n an integer.
void integer_times_power(double v, uint64_t *n, int *k) {
    const uint64_t b = bits64(v);
    const int field = static_cast<int>(b >> 52);
    *n = (b & 0xfffffffffffffu) | (field != 0 ? uint64_t{1} << 52 : 0);
    *k = (field != 0 ? field : 1) - 1075;
}

// The exact decimal of a positive double, and of the midpoint between a positive double and
// the next one up.
std::string exact_decimal(double v) {
    uint64_t n;
    int k;
    integer_times_power(v, &n, &k);
    return exact_decimal_of(n, k);
}
std::string midpoint_decimal(double lo) {
    uint64_t n;
    int k;
    integer_times_power(lo, &n, &k);
    return exact_decimal_of(2 * n + 1, k - 1);
}

// The exact decimals against glibc's printf of the same midpoint held in a long double, on
// hosts whose long double holds every one (x87's 64-bit significand, binary128).
TEST(TypesNumText, ExactDecimalsArePrintfsDigits) {
    if (LDBL_MANT_DIG != 64 && LDBL_MANT_DIG != 113) {
        GTEST_SKIP() << "this host's long double (" << LDBL_MANT_DIG
                     << " significant bits) cannot hold a midpoint of two doubles";
    }
    std::mt19937_64 rng(11);
    auto printf_exact = [](long double v) {
        char buf[1200];
        locale_t old = uselocale(c_locale());
        std::snprintf(buf, sizeof buf, "%.800Le", v);
        uselocale(old);
        std::string s(buf);
        const size_t e = s.find('e');
        std::string mant = s.substr(0, e);
        while (mant.back() == '0') mant.pop_back();
        if (mant.back() == '.') mant.pop_back();
        return mant + s.substr(e);
    };
    const double fixed[] = {1.0, 0.5, 3.0, 1e300, 0x1p-1074, 0x1p-1022, DBL_MAX, 123.25};
    for (double lo : fixed) {
        EXPECT_EQ(exact_decimal(lo), printf_exact(lo)) << lo;
        if (lo != DBL_MAX) {
            const long double mid = (static_cast<long double>(lo) + std::nextafter(lo, HUGE_VAL)) / 2;
            EXPECT_EQ(midpoint_decimal(lo), printf_exact(mid)) << lo;
        }
    }
    for (int i = 0; i < 2000; i++) {
        uint64_t b = rng() & 0x7fefffffffffffffu;
        if (i % 4 == 0) b &= 0x001fffffffffffffu;
        const double lo = from64(b);
        if (lo == 0) continue;
        const long double mid = (static_cast<long double>(lo) + std::nextafter(lo, HUGE_VAL)) / 2;
        ASSERT_EQ(midpoint_decimal(lo), printf_exact(mid)) << b;
        ASSERT_EQ(exact_decimal(lo), printf_exact(lo)) << b;
    }
    EXPECT_EQ(exact_decimal(2.5), "2.5e+00");
    EXPECT_EQ(midpoint_decimal(1.0), "1.00000000000000011102230246251565404236316680908203125e+00");
}

void expect_reads_like_libc(const std::string &t) {
    const char *e1 = nullptr, *e2 = nullptr;
    const double a = ck__strtod_c(t.c_str(), &e1);
    const double b = libc_strtod(t.c_str(), &e2);
    ASSERT_EQ(bits64(a), bits64(b)) << t;
    ASSERT_EQ(e1, e2) << t;
    const float fa = ck__strtof_c(t.c_str(), &e1);
    const float fb = libc_strtof(t.c_str(), &e2);
    ASSERT_EQ(bits32(fa), bits32(fb)) << t;
    ASSERT_EQ(e1, e2) << t;
}

TEST(TypesNumText, ReadsEveryDecimalCorrectlyRounded) {
    std::mt19937_64 rng(5);
    // Random decimals: 1 to 40 significant digits, the point anywhere, exponents over the
    // whole range and past it both ways.
    for (int i = 0; i < 300000; i++) {
        std::string t = rng() % 2 ? "-" : "";
        const int nd = 1 + static_cast<int>(rng() % 40);
        const int point = static_cast<int>(rng() % (nd + 1));
        for (int k = 0; k < nd; k++) {
            if (k == point && k > 0) t += '.';
            t += static_cast<char>('0' + rng() % 10);
        }
        const int e = static_cast<int>(rng() % 700) - 350;
        t += "e" + std::to_string(e);
        expect_reads_like_libc(t);
        if (HasFatalFailure()) return;
    }
    // Halfway between adjacent doubles, exactly and a hair either side: the ties that need
    // every digit (hundreds of them for small values) to be read right.
    for (int i = 0; i < 20000; i++) {
        uint64_t b = rng() & 0x7fefffffffffffffu;
        if (i % 4 == 0) b &= 0x001fffffffffffffu; // subnormal and smallest normal
        const double lo = from64(b), hi = std::nextafter(lo, HUGE_VAL);
        if (std::isinf(hi)) continue;
        const std::string m = midpoint_decimal(lo);
        expect_reads_like_libc(m);
        const size_t e = m.find('e');
        expect_reads_like_libc(m.substr(0, e) + "000000000000000000001" + m.substr(e));
        std::string below = m.substr(0, e);
        // one unit less in the last digit, then nines: just below the midpoint
        size_t last = below.size() - 1;
        if (below[last] != '.' && below[last] > '0') {
            below[last]--;
            expect_reads_like_libc(below + "99999999999999999999" + m.substr(e));
        }
        if (HasFatalFailure()) return;
    }
    // Halfway between adjacent floats (exact doubles), the same way.
    for (int i = 0; i < 20000; i++) {
        uint32_t b = static_cast<uint32_t>(rng()) & 0x7f7fffffu;
        if (i % 4 == 0) b &= 0x00ffffffu;
        const float lo = from32(b), hi = std::nextafter(lo, HUGE_VALF);
        if (std::isinf(hi)) continue;
        const std::string m = exact_decimal((static_cast<double>(lo) + static_cast<double>(hi)) / 2);
        expect_reads_like_libc(m);
        const size_t e = m.find('e');
        expect_reads_like_libc(m.substr(0, e) + "00000000000000000001" + m.substr(e));
        if (HasFatalFailure()) return;
    }
    // Long texts: hundreds of significant digits (fast_float keeps 769 of them exactly and
    // the rest as whether any is not zero).
    for (int i = 0; i < 200; i++) {
        std::string t = "0.";
        const int nd = 700 + static_cast<int>(rng() % 300);
        for (int k = 0; k < nd; k++) t += static_cast<char>('0' + rng() % 10);
        t += "e" + std::to_string(static_cast<int>(rng() % 600) - 300);
        expect_reads_like_libc(t);
        expect_reads_like_libc(std::string(1000, '0') + "1.5");
        expect_reads_like_libc("1" + std::string(900, '0') + "e-900");
        if (HasFatalFailure()) return;
    }
}

// The literal parser hands numbers over split (ck__decimal_parts): the same values as the
// text itself gives, zeros, signs and saturated exponents included; with more than 19
// significant digits they are refused, and the caller reads the text (ck__strtod_c).
TEST(TypesNumText, SplitDecimalsReadAsTheirText) {
    struct Case {
        const char *int_digits, *frac_digits;
        int64_t exp10;
        int negative;
        const char *text;
    };
    const std::string zeros(1000, '0');
    const std::string many = "1" + std::string(900, '7');
    const Case cases[] = {
        {"0", "1", 0, 0, "0.1"},
        {"", "5", 0, 1, "-.5"},
        {"3", "", 0, 0, "3."},
        {"000123", "4500", -2, 0, "000123.4500e-2"},
        {"0", "000000000000000000000000123", 40, 1, "-0.000000000000000000000000123e40"},
        {"0", "0", 0, 1, "-0.0"},
        {"", "000", 12345, 0, ".000e12345"},
        {"1", "", CK__EXP10_SATURATED, 0, "1e99999999999999999999"},
        {"1", "", -CK__EXP10_SATURATED, 1, "-1e-99999999999999999999"},
        {"17976931348623158", "", 292, 0, "17976931348623158e292"},
        {"2", "4703282292062327208828439643411068618252990130716238221279284125033775363510437593",
         -324, 0, "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593e-324"},
        {zeros.c_str(), "25", 0, 0, nullptr},  // 1000 leading zeros: still two digits
        {"1234567890", "123456789", 0, 0, "1234567890.123456789"},  // 19 digits
        {"1234567890", "1234567890", 0, 1, "-1234567890.1234567890"}, // 20: refused
        {zeros.c_str(), "9999999999999999999", -5, 0, nullptr},     // 19 after the zeros
        {many.c_str(), "", -900, 0, nullptr},                       // 901 digits
    };
    for (const Case &c : cases) {
        const ck__decimal_parts parts = {c.int_digits, std::strlen(c.int_digits), c.frac_digits,
                                         std::strlen(c.frac_digits), c.exp10, c.negative};
        const std::string text =
            c.text != nullptr
                ? c.text
                : std::string(c.int_digits) + "." + c.frac_digits + "e" + std::to_string(c.exp10);
        // Significant digits: those after the leading zeros.
        const std::string all = std::string(c.int_digits) + c.frac_digits;
        const size_t first = all.find_first_not_of('0');
        const bool short_enough = first == std::string::npos || all.size() - first <= 19;
        const char *end = nullptr;
        double d = -1;
        float f = -1;
        if (!short_enough) {
            EXPECT_EQ(ck__decimal_to_double(&parts, &d), 0) << text;
            EXPECT_EQ(ck__decimal_to_float(&parts, &f), 0) << text;
            d = ck__strtod_c(text.c_str(), &end);
            f = ck__strtof_c(text.c_str(), &end);
        } else {
            ASSERT_EQ(ck__decimal_to_double(&parts, &d), 1) << text;
            ASSERT_EQ(ck__decimal_to_float(&parts, &f), 1) << text;
        }
        EXPECT_EQ(bits64(d), bits64(libc_strtod(text.c_str(), &end))) << text;
        EXPECT_EQ(bits32(f), bits32(libc_strtof(text.c_str(), &end))) << text;
    }
}

// Whether t is exactly one decimal number of strtod's grammar: nothing but digits, point,
// exponent letter and signs, not starting with white space, and all of it read by strtod.
bool is_strtod_decimal(const std::string &t) {
    if (t.empty() || t.find_first_not_of("0123456789.eE+-") != std::string::npos) {
        return false;
    }
    const char *end = nullptr;
    libc_strtod(t.c_str(), &end);
    return end == t.c_str() + t.size();
}

// Text goes to fast_float's from_chars by its span (ck__ff_text_to_double/float): exactly
// one decimal of strtod's grammar reads as strtod reads it, whatever its digits, zeros,
// sign and exponent, and nothing past the span is read; any other text is refused,
// strtod's own inf, nan and hexadecimal included, and those where from_chars's grammar
// differs from strtod's (a leading '+': from_chars has none, so "+-1" would be -1).
TEST(TypesNumText, DecimalTextReadsAsStrtodOrNotAtAll) {
    const std::string zeros(1000, '0');
    std::vector<std::string> texts = {
        "0.1", "-.5", ".5", "+.5", "3.", "+3.", "-3.", "000123.4500e-2",
        "-0.000000000000000000000000123e40", "-0.0", "+0", ".000e12345",
        "1e99999999999999999999", "-1e-99999999999999999999", "17976931348623158e292",
        "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593e-324",
        zeros + "1.25", "0." + zeros + "25e1000", "1" + std::string(900, '7') + "e-900",
        "+1.5", "1E+5", "1e-5", "",
        "+", "-", ".", "+.", "-.", "e5", ".e5", "+e5", "+-1", "-+1", "++1", "--1", "1e", "1e+",
        "1E-", "1e+-5", "1..5", "1.5.5", "1e5.5", "1e5e5", " 1", "1 ", "+ 1", "1,5", "1_0",
        "inf", "+inf", "-Infinity", "nan", "-nan", "nan(1)", "0x10", "-0x1p3", "+0x1p3", "0x"};
    std::mt19937_64 rng(41);
    for (int i = 0; i < 100000; i++) {
        texts.push_back(random_text(rng));
    }
    int accepted = 0;
    for (const std::string &t : texts) {
        // The span is followed by more digits: they are not part of the number.
        const std::string buffer = t + "97e1";
        const char *end = nullptr;
        double d = -1;
        float f = -1;
        const int rd = ck__ff_text_to_double(buffer.c_str(), t.size(), &d);
        const int rf = ck__ff_text_to_float(buffer.c_str(), t.size(), &f);
        if (!is_strtod_decimal(t)) {
            ASSERT_EQ(rd, 0) << "'" << t << "'";
            ASSERT_EQ(rf, 0) << "'" << t << "'";
            continue;
        }
        accepted++;
        ASSERT_EQ(rd, 1) << t;
        ASSERT_EQ(bits64(d), bits64(libc_strtod(t.c_str(), &end))) << t;
        ASSERT_EQ(rf, 1) << t;
        ASSERT_EQ(bits32(f), bits32(libc_strtof(t.c_str(), &end))) << t;
    }
    EXPECT_GT(accepted, 4000); // the random texts hold decimals too (about 5%)
}

// ---- short decimals (at most 19 significant digits): one 128-bit product in fast_float ----

using ckt::u128;

// w as decimal digits, or "" when w has more than 19.
std::string digits19(u128 w) {
    if (w >= static_cast<u128>(10000000000000000000u)) return "";
    return std::to_string(static_cast<uint64_t>(w));
}

// "<digits>e<q>", or with the point moved `point` digits in from the right
// ("12.345e7" for 12345e5 and point 3), which reads as the same value.
std::string with_point(const std::string &digits, int q, int point) {
    if (point <= 0 || point >= static_cast<int>(digits.size())) {
        return digits + "e" + std::to_string(q);
    }
    const size_t at = digits.size() - static_cast<size_t>(point);
    return digits.substr(0, at) + "." + digits.substr(at) + "e" + std::to_string(q + point);
}

TEST(TypesNumText, ShortDecimalsAtEveryPowerOfTenReadLikeTheCLibrary) {
    // Every power of ten of fast_float's 128-bit table (and past both ends, where the value
    // is 0 or infinity), with significands from 1 digit to 19, the largest (10^19 - 1) and
    // those around 2^53, 2^63 and 2^64 / 10 included: the C library's value for each, as
    // float64 and as float32.
    std::mt19937_64 rng(23);
    const uint64_t fixed[] = {1u,
                              9u,
                              10u,
                              4503599627370497u,
                              9007199254740991u,
                              9007199254740993u,
                              1844674407370955161u,
                              9223372036854775807u,
                              9223372036854775808u,
                              9999999999999999999u};
    for (int q = -360; q <= 330; q++) {
        std::vector<uint64_t> ws(std::begin(fixed), std::end(fixed));
        for (int nd = 1; nd <= 19; nd++) {
            uint64_t w = 1 + rng() % 9;
            for (int k = 1; k < nd; k++) w = w * 10 + rng() % 10;
            ws.push_back(w);
        }
        for (const uint64_t w : ws) {
            const std::string d = std::to_string(w);
            expect_reads_like_libc(with_point(d, q, static_cast<int>(rng() % d.size())));
            expect_reads_like_libc("-" + d + "e" + std::to_string(q));
            if (HasFatalFailure()) return;
        }
    }
    // Random short decimals over the whole range, leading and trailing zeros included.
    for (int i = 0; i < 300000; i++) {
        const int nd = 1 + static_cast<int>(rng() % 19);
        std::string d;
        for (int k = 0; k < nd; k++) d += static_cast<char>('0' + rng() % 10);
        const int q = static_cast<int>(rng() % 720) - 370;
        const int point = static_cast<int>(rng() % 20);
        expect_reads_like_libc(std::string(rng() % 3, '0') + with_point(d, q, point));
        if (HasFatalFailure()) return;
    }
}

// Halfway between two adjacent values of a format with `mbits` explicit significand bits:
// M x 2^j with M odd and mbits + 2 bits long. Written as w x 10^q with w of at most 19
// digits: j >= 0 takes 5^q out of M (M = 5^q k), j < 0 multiplies 5^-j in. The expected
// value, ties to even, is worked out from M: the neighbour (M - 1) / 2 or (M + 1) / 2
// whose last bit is 0, times 2^(j + 1). Returns false when no such w exists.
bool halfway_text(uint64_t M, int j, int q, std::string *text) {
    u128 w = M;
    if (j >= 0) {
        if (q < 0 || q > j) return false;
        for (int k = 0; k < q; k++) {
            if (w % 5 != 0) return false;
            w /= 5;
        }
        w <<= (j - q);
    } else {
        if (q != j) return false;
        for (int k = 0; k < -j; k++) w *= 5;
    }
    *text = digits19(w);
    if (text->empty()) return false;
    *text += "e" + std::to_string(q);
    return true;
}

TEST(TypesNumText, ShortDecimalsExactlyHalfwayTieToEven) {
    std::mt19937_64 rng(31);
    int qmin[2] = {0, 0}, qmax[2] = {0, 0}; // the powers of ten reached, float64 and float32
    for (int i = 0; i < 400000; i++) {
        const int single = i % 2;
        const int mbits = single ? 23 : 52;
        // q from -20 to 25; M a multiple of 5^q (for q > 0), odd, mbits + 2 bits long.
        const int q = static_cast<int>(rng() % 46) - 20;
        const int j = q >= 0 ? q + static_cast<int>(rng() % 12) : q;
        uint64_t p5 = 1;
        for (int k = 0; k < (q > 0 ? q : 0); k++) p5 *= 5;
        const uint64_t lo = (uint64_t{1} << (mbits + 1)) / p5 + 1;
        const uint64_t hi = (uint64_t{1} << (mbits + 2)) / p5;
        if (hi < lo) continue;
        uint64_t k = lo + rng() % (hi - lo + 1);
        k |= 1;
        const uint64_t M = k * p5;
        if (M >> (mbits + 1) != 1) continue;
        std::string t;
        if (!halfway_text(M, j, q, &t)) continue;
        // The even neighbour's significand, and its value (exact).
        const uint64_t down = (M - 1) / 2, up = (M + 1) / 2;
        const uint64_t even = (down % 2 == 0) ? down : up;
        const double want = std::ldexp(static_cast<double>(even), j + 1);
        const char *end = nullptr;
        if (single) {
            EXPECT_EQ(bits32(ck__strtof_c(t.c_str(), &end)), bits32(static_cast<float>(want)))
                << t;
        } else {
            EXPECT_EQ(bits64(ck__strtod_c(t.c_str(), &end)), bits64(static_cast<double>(want)))
                << t;
        }
        qmin[single] = std::min(qmin[single], q);
        qmax[single] = std::max(qmax[single], q);
        // One unit either side in the last digit: no longer a tie.
        const size_t e = t.find('e');
        const uint64_t w = std::stoull(t.substr(0, e));
        expect_reads_like_libc(std::to_string(w + 1) + t.substr(e));
        expect_reads_like_libc(std::to_string(w - 1) + t.substr(e));
        if (HasFailure()) return;
    }
    // Every power of ten at which a short decimal can be a tie was reached: float64 from
    // 10^-4 (5^4 M < 10^19) to 10^23 (5^23 < 2^54), float32 from 10^-16 to 10^10.
    EXPECT_EQ(qmin[0], -4);
    EXPECT_EQ(qmax[0], 23);
    EXPECT_EQ(qmin[1], -16);
    EXPECT_EQ(qmax[1], 10);
}

// ---- locale and floating-point environment ----

// Switches the process to a comma-decimal locale: an installed one, or de_DE.UTF-8 compiled
// into the build tree (tests/types/CMakeLists.txt, through LOCPATH). Gives "" when none.
std::string enter_comma_locale() {
    for (const char *name : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8",
                             "nl_NL.UTF-8", "ru_RU.UTF-8"}) {
        if (std::setlocale(LC_ALL, name) != nullptr && std::localeconv()->decimal_point[0] == ',') {
            return name;
        }
    }
#ifdef CK_TEST_LOCPATH
    setenv("LOCPATH", CK_TEST_LOCPATH, 1);
    if (std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr &&
        std::localeconv()->decimal_point[0] == ',') {
        return "de_DE.UTF-8";
    }
    unsetenv("LOCPATH");
#endif
    std::setlocale(LC_ALL, "C");
    return "";
}

TEST(TypesNumText, ACommaDecimalLocaleChangesNothing) {
    const std::string name = enter_comma_locale();
    if (name.empty()) {
        GTEST_SKIP() << "no comma-decimal locale is installed and localedef could not make one "
                        "(Debian: locales)";
    }
    // The locale is in force: the C library itself now stops at the point.
    char *e = nullptr;
    EXPECT_EQ(std::strtod("1.5", &e), 1.0) << name;
    EXPECT_EQ(std::strtod("1,5", &e), 1.5) << name;
    const char *end = nullptr;
    EXPECT_EQ(ck__strtod_c("1.5", &end), 1.5);
    EXPECT_EQ(*end, '\0');
    EXPECT_EQ(ck__strtod_c("1,5", &end), 1.0);
    EXPECT_EQ(*end, ',');
    EXPECT_EQ(ck__strtof_c("2.25e1", &end), 22.5f);
    EXPECT_EQ(ck__strtod_c("0x1.8p1", &end), 3.0); // hexadecimal: strtod's own path
    EXPECT_EQ(ck__strtod_c("-inf", &end), -std::numeric_limits<double>::infinity());
    EXPECT_EQ(h("0.1"), 0x2e66);
    EXPECT_EQ(fmt(1.5, CK__F64), "1.5");
    EXPECT_EQ(fmt(0.1, CK__F32), "0.1");
    EXPECT_EQ(fmt(1.5e-7, CK__F64), "1.5e-07");
    EXPECT_EQ(fmt(1125899906842624.25, CK__F64), "1125899906842624.2");
    EXPECT_EQ(fmt(ck__half_to_double(0x3c01), CK__F16), "1.001");
    std::mt19937_64 rng(3);
    for (int i = 0; i < 20000; i++) {
        const double d = from64(rng() & 0x7fefffffffffffffu);
        const std::string t = fmt(d, CK__F64);
        ASSERT_EQ(t.find(','), std::string::npos) << t;
        ASSERT_EQ(bits64(ck__strtod_c(t.c_str(), &end)), bits64(d)) << t;
    }
    std::setlocale(LC_ALL, "C");
    unsetenv("LOCPATH");
}

// Rounding mode and flush modes of the caller, set for one scope.
struct RoundingMode {
    int saved = std::fegetround();
    explicit RoundingMode(int mode) { std::fesetround(mode); }
    ~RoundingMode() { std::fesetround(saved); }
};

void expect_default_environment_results() {
    const char *end = nullptr;
    EXPECT_EQ(bits64(ck__strtod_c("0.1", &end)), bits64(0.1));
    EXPECT_EQ(bits64(ck__strtod_c("-0.1", &end)), bits64(-0.1));
    EXPECT_EQ(bits64(ck__strtod_c("1.2345678901234567", &end)), bits64(1.2345678901234567));
    EXPECT_EQ(bits64(ck__strtod_c("5e-324", &end)), uint64_t{1});
    EXPECT_EQ(bits64(ck__strtod_c("2.2250738585072011e-308", &end)), uint64_t{0x000fffffffffffff});
    EXPECT_EQ(bits32(ck__strtof_c("0.1", &end)), bits32(0.1f));
    EXPECT_EQ(bits32(ck__strtof_c("1e-45", &end)), uint32_t{1});
    EXPECT_EQ(bits32(ck__strtof_c("1.17549421e-38", &end)), uint32_t{0x007fffff});
    EXPECT_EQ(fmt(0.1, CK__F64), "0.1");
    EXPECT_EQ(fmt(2.0 / 3.0, CK__F64), "0.6666666666666666");
    EXPECT_EQ(fmt(from64(1), CK__F64), "5e-324");
    EXPECT_EQ(fmt(from64(0x000fffffffffffff), CK__F64), "2.225073858507201e-308");
    EXPECT_EQ(fmt(1125899906842624.25, CK__F64), "1125899906842624.2");
}

TEST(TypesNumText, TheCallersRoundingModeChangesNothing) {
    for (int mode : {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
        RoundingMode m(mode);
        expect_default_environment_results();
        EXPECT_EQ(std::fegetround(), mode); // given back
    }
}

#ifdef CKT_HAVE_MXCSR
TEST(TypesNumText, FlushToZeroAndDenormalsAreZeroChangeNothing) {
    const unsigned saved = _mm_getcsr();
    _mm_setcsr(saved | 0x8040u); // FTZ | DAZ, as -ffast-math sets them
    // Subnormal results compared as bits only: any arithmetic here would flush them.
    expect_default_environment_results();
    const unsigned after = _mm_getcsr();
    _mm_setcsr(saved);
    EXPECT_EQ(after & 0xffc0u, (saved | 0x8040u) & 0xffc0u); // the caller's modes given back
}
#endif

// A text and the value it must read as under any floating-point settings: its value
// rounded to nearest even, worked out in the default environment.
struct Expected {
    std::string text;
    int single;
    uint64_t bits; // a double's, or a float's in the low half
};

// An exact decimal "D[.DDD]e+XX" (no trailing zero) made a hair larger, or smaller: a 1
// appended far below its last digit, or its last digit one less and nines appended.
std::string hair_above(const std::string &m) {
    const size_t e = m.find('e');
    const std::string mant = m.substr(0, e);
    return mant + (mant.find('.') == std::string::npos ? "." : "") + "00000000000000000001" +
           m.substr(e);
}
std::string hair_below(const std::string &m) {
    const size_t e = m.find('e');
    std::string mant = m.substr(0, e);
    if (mant.find('.') == std::string::npos) mant += ".0";
    size_t last = mant.size() - 1;
    while (mant[last] == '0' || mant[last] == '.') last--; // borrow: ...d000 -> ...(d-1)999
    mant[last]--;
    for (size_t i = last + 1; i < mant.size(); i++) {
        if (mant[i] != '.') mant[i] = '9';
    }
    return mant + "99999999999999999999" + m.substr(e);
}

// Texts along each of fast_float's paths, with their nearest-even values from IEEE rules and
// round trips rather than from the reader:
//  - Clinger's (from_chars only, which takes it before the 128-bit product): an integer
//    below 2^53 (2^24) and 10^-22..10^22 (10^-10..10^10): the value is one correctly
//    rounded IEEE division or product of two exact operands;
//  - the 128-bit product: 17 (9) correctly rounded printf digits of a random value, normal
//    or subnormal, which read back to it;
//  - the big-integer comparison: midpoints of two adjacent values (their exact decimals,
//    midpoint_decimal), which tie to the even one, and a hair either side.
std::vector<Expected> environment_cases() {
    std::mt19937_64 rng(47);
    std::vector<Expected> cases;
    for (int i = 0; i < 2000; i++) {
        const uint64_t w = 1 + rng() % ((uint64_t{1} << 53) - 1);
        const int k = static_cast<int>(rng() % 23);
        double p10 = 1; // 10^k, exact: 10^22 = 5^22 x 2^22 and 5^22 < 2^53
        for (int j = 0; j < k; j++) p10 *= 10;
        const std::string ws = std::to_string(w);
        cases.push_back({ws + "e-" + std::to_string(k), 0,
                         bits64(static_cast<double>(w) / p10)});
        cases.push_back({ws + "e" + std::to_string(k), 0, bits64(static_cast<double>(w) * p10)});
        const uint32_t wf = 1 + static_cast<uint32_t>(rng() % ((1u << 24) - 1));
        const int kf = static_cast<int>(rng() % 11);
        float p10f = 1; // exact up to 10^10 (5^10 < 2^24)
        for (int j = 0; j < kf; j++) p10f *= 10;
        const std::string wfs = std::to_string(wf);
        cases.push_back({wfs + "e-" + std::to_string(kf), 1,
                         bits32(static_cast<float>(wf) / p10f)});
        cases.push_back({wfs + "e" + std::to_string(kf), 1, bits32(static_cast<float>(wf) * p10f)});
    }
    for (int i = 0; i < 4000; i++) {
        uint64_t b = rng() & 0x7fefffffffffffffu;
        if (i % 4 == 0) b &= 0x001fffffffffffffu; // subnormal and smallest normal
        const double d = from64(b);
        const auto dd = printf_digits(d, 17);
        cases.push_back({dd.first.substr(0, 1) + "." + dd.first.substr(1) + "e" +
                             std::to_string(dd.second),
                         0, b});
        uint32_t bf = static_cast<uint32_t>(rng()) & 0x7f7fffffu;
        if (i % 4 == 0) bf &= 0x00ffffffu;
        const auto fd = printf_digits(static_cast<double>(from32(bf)), 9);
        cases.push_back({"-" + fd.first.substr(0, 1) + "." + fd.first.substr(1) + "e" +
                             std::to_string(fd.second),
                         1, bf | 0x80000000u});
    }
    for (int i = 0; i < 2000; i++) {
        uint64_t b = rng() & 0x7fefffffffffffffu;
        if (i % 2 == 0) b &= 0x001fffffffffffffu;
        const double lo = from64(b), hi = std::nextafter(lo, HUGE_VAL);
        if (std::isinf(hi)) continue;
        const std::string m = midpoint_decimal(lo);
        cases.push_back({m, 0, (b & 1) == 0 ? b : b + 1});
        cases.push_back({hair_above(m), 0, b + 1});
        cases.push_back({hair_below(m), 0, b});
        const uint32_t bf = static_cast<uint32_t>(b >> 32) & 0x7f7fffffu;
        const float flo = from32(bf), fhi = std::nextafter(flo, HUGE_VALF);
        if (std::isinf(fhi)) continue;
        const std::string mf =
            exact_decimal((static_cast<double>(flo) + static_cast<double>(fhi)) / 2);
        cases.push_back({mf, 1, (bf & 1) == 0 ? bf : bf + 1});
        cases.push_back({hair_above(mf), 1, bf + 1});
        cases.push_back({hair_below(mf), 1, bf});
    }
    return cases;
}

// Reads every case both ways: ck__strtod_c/ck__strtof_c (split first, as the literal parser
// hands numbers over, then the text when the split does not decide it) and the whole text
// through from_chars (ck__ff_text_to_double/float). Compares bits only: under flush-to-zero
// any arithmetic here would change subnormals.
void expect_cases_read(const std::vector<Expected> &cases, const char *what) {
    for (const Expected &c : cases) {
        const char *end = nullptr;
        if (c.single) {
            ASSERT_EQ(bits32(ck__strtof_c(c.text.c_str(), &end)), c.bits) << what << " " << c.text;
            float f = 0;
            ASSERT_EQ(ck__ff_text_to_float(c.text.c_str(), c.text.size(), &f), 1) << c.text;
            ASSERT_EQ(bits32(f), c.bits) << what << " " << c.text;
        } else {
            ASSERT_EQ(bits64(ck__strtod_c(c.text.c_str(), &end)), c.bits) << what << " " << c.text;
            double d = 0;
            ASSERT_EQ(ck__ff_text_to_double(c.text.c_str(), c.text.size(), &d), 1) << c.text;
            ASSERT_EQ(bits64(d), c.bits) << what << " " << c.text;
        }
        ASSERT_EQ(end, c.text.c_str() + c.text.size()) << c.text;
    }
}

TEST(TypesNumText, EveryPathReadsNearestEvenUnderAnyRoundingAndFlushMode) {
    const std::vector<Expected> cases = environment_cases();
    ASSERT_GT(cases.size(), 20000u);
    expect_cases_read(cases, "default"); // the expected values themselves
    struct Mode {
        int round;
        bool flush; // MXCSR flush-to-zero and denormals-are-zero
        const char *what;
    };
    const Mode modes[] = {{FE_UPWARD, false, "upward"},
                          {FE_DOWNWARD, false, "downward"},
                          {FE_TOWARDZERO, false, "toward zero"},
#ifdef CKT_HAVE_MXCSR
                          {FE_TONEAREST, true, "FTZ+DAZ"},
                          {FE_UPWARD, true, "upward, FTZ+DAZ"},
                          {FE_TOWARDZERO, true, "toward zero, FTZ+DAZ"},
#endif
    };
    for (const Mode &m : modes) {
        RoundingMode r(m.round);
#ifdef CKT_HAVE_MXCSR
        const unsigned saved = _mm_getcsr();
        if (m.flush) _mm_setcsr(saved | 0x8040u);
#endif
        expect_cases_read(cases, m.what);
#ifdef CKT_HAVE_MXCSR
        const unsigned after = _mm_getcsr();
        _mm_setcsr(saved);
        EXPECT_EQ(after & 0x8040u, m.flush ? 0x8040u : 0u) << m.what; // given back
#endif
        EXPECT_EQ(std::fegetround(), m.round) << m.what;
        if (HasFatalFailure()) return;
    }
}

} // namespace
