// tests/types/unit/float16_test.cpp: src/common/float16.h against two independent references:
// an oracle built from the definition of binary16 (values by ldexp, rounding by exact
// comparison with the midpoint of the two neighbouring halves), and the compiler's _Float16
// where the C compiler has it (gcc 12). All 65536 halves; floats and doubles around every
// midpoint (ties and one ulp either side), subnormal and overflow edges, and a strided sweep
// over all floats.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

extern "C" {
#include "common/float16.h"
}
#include "float16_ref.h"

namespace {

// The value of a half from its fields, by definition.
double oracle_half_value(uint16_t h) {
    const int sign = h >> 15;
    const int exp = (h >> 10) & 31;
    const int man = h & 1023;
    double v;
    if (exp == 31) {
        v = man != 0 ? std::numeric_limits<double>::quiet_NaN()
                     : std::numeric_limits<double>::infinity();
    } else if (exp == 0) {
        v = std::ldexp(static_cast<double>(man), -24);
    } else {
        v = std::ldexp(static_cast<double>(1024 + man), exp - 25);
    }
    return sign != 0 ? -v : v;
}

// Value of the positive half with bits h, where 0x7c00 stands for 2^16 (the next binade's
// first value, so that values between 65504 and 65520 have an upper neighbour).
double oracle_pos_value(uint16_t h) {
    return h == 0x7c00 ? 65536.0 : oracle_half_value(h);
}

// Round-to-nearest-even of any non-NaN double to binary16, by searching the sorted positive
// halves and comparing with the midpoint, which is exactly representable in a double.
uint16_t oracle_to_half(double v) {
    const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    const double a = std::fabs(v);
    if (a >= 65520.0) {
        return sign | 0x7c00;
    }
    // Largest h in [0, 0x7bff] with value(h) <= a.
    uint16_t lo = 0, hi = 0x7bff;
    while (lo < hi) {
        uint16_t mid = static_cast<uint16_t>((lo + hi + 1) / 2);
        if (oracle_pos_value(mid) <= a) {
            lo = mid;
        } else {
            hi = static_cast<uint16_t>(mid - 1);
        }
    }
    const double below = oracle_pos_value(lo);
    if (below == a) {
        return sign | lo;
    }
    const double above = oracle_pos_value(static_cast<uint16_t>(lo + 1));
    const double midpoint = (below + above) / 2;
    uint16_t r;
    if (a < midpoint) {
        r = lo;
    } else if (a > midpoint) {
        r = static_cast<uint16_t>(lo + 1);
    } else {
        r = (lo & 1) == 0 ? lo : static_cast<uint16_t>(lo + 1);
    }
    return sign | r;
}

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}
float float_of(uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}
uint64_t bits_of(double d) {
    uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    return u;
}

// Expected half for a NaN input: same sign, quiet, top payload bits.
uint16_t expected_nan_from_float(uint32_t x) {
    return static_cast<uint16_t>(((x >> 16) & 0x8000) | 0x7e00 | ((x >> 13) & 0x3ff));
}

void check_float(float f) {
    const uint16_t got = ck__float_to_half(f);
    const uint32_t x = bits_of(f);
    if (std::isnan(f)) {
        ASSERT_EQ(got, expected_nan_from_float(x)) << std::hex << "float bits 0x" << x;
    } else {
        ASSERT_EQ(got, oracle_to_half(static_cast<double>(f)))
            << std::hex << "float bits 0x" << x << " = " << std::hexfloat << f;
    }
    if (ckt_ref_have_float16()) {
        ASSERT_EQ(got, ckt_ref_float_to_half(f)) << std::hex << "float bits 0x" << x;
    }
}

void check_double(double d) {
    const uint16_t got = ck__double_to_half(d);
    if (std::isnan(d)) {
        const uint64_t x = bits_of(d);
        const uint16_t want = static_cast<uint16_t>(((x >> 48) & 0x8000) | 0x7e00 |
                                                    ((x >> 42) & 0x3ff));
        ASSERT_EQ(got, want) << std::hex << "double bits 0x" << x;
    } else {
        ASSERT_EQ(got, oracle_to_half(d)) << std::hexfloat << d;
    }
    if (ckt_ref_have_float16()) {
        ASSERT_EQ(got, ckt_ref_double_to_half(d)) << std::hexfloat << d;
    }
}

TEST(TypesFloat16, AllHalvesToFloatAndBack) {
    if (!ckt_ref_have_float16()) {
        std::printf("note: this C compiler has no _Float16; checking against the oracle only\n");
    }
    for (uint32_t u = 0; u <= 0xffff; u++) {
        const uint16_t h = static_cast<uint16_t>(u);
        const float f = ck__half_to_float(h);
        const double want = oracle_half_value(h);
        if (std::isnan(want)) {
            ASSERT_TRUE(std::isnan(f)) << std::hex << u;
            // Quiet, same sign, payload moved to the top of the float's payload.
            const uint32_t x = bits_of(f);
            ASSERT_EQ(x, ((u & 0x8000u) << 16) | 0x7fc00000u | ((u & 0x3ffu) << 13)) << std::hex
                                                                                      << u;
            ASSERT_EQ(ck__float_to_half(f), static_cast<uint16_t>(u | 0x200)) << std::hex << u;
        } else {
            ASSERT_EQ(static_cast<double>(f), want) << std::hex << u;
            ASSERT_EQ(std::signbit(f), (u & 0x8000) != 0) << std::hex << u;
            // Every half is exactly a float and a double: both conversions give it back.
            ASSERT_EQ(ck__float_to_half(f), h) << std::hex << u;
            ASSERT_EQ(ck__double_to_half(ck__half_to_double(h)), h) << std::hex << u;
        }
        if (ckt_ref_have_float16()) {
            const float r = ckt_ref_half_to_float(h);
            ASSERT_EQ(bits_of(f), bits_of(r)) << std::hex << u;
        }
    }
}

TEST(TypesFloat16, KnownValues) {
    EXPECT_EQ(ck__float_to_half(1.0f), 0x3c00);
    EXPECT_EQ(ck__float_to_half(-2.0f), 0xc000);
    EXPECT_EQ(ck__float_to_half(65504.0f), 0x7bff);
    EXPECT_EQ(ck__float_to_half(65519.996f), 0x7bff);
    EXPECT_EQ(ck__float_to_half(65520.0f), 0x7c00); // tie: 65504 is odd, so up to inf
    EXPECT_EQ(ck__float_to_half(std::ldexp(1.0f, -14)), 0x0400); // smallest normal
    EXPECT_EQ(ck__float_to_half(std::ldexp(1.0f, -24)), 0x0001); // smallest subnormal
    EXPECT_EQ(ck__float_to_half(std::ldexp(1.0f, -25)), 0x0000); // tie to even zero
    EXPECT_EQ(ck__float_to_half(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
    EXPECT_EQ(ck__float_to_half(std::ldexp(3.0f, -25)), 0x0002); // 1.5 units: tie to even 2
    EXPECT_EQ(ck__float_to_half(-0.0f), 0x8000);
    EXPECT_EQ(ck__float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3c00); // tie to even
    EXPECT_EQ(ck__float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
    EXPECT_EQ(ck__float_to_half(std::numeric_limits<float>::infinity()), 0x7c00);
    // The double-rounding trap: 1 + 2^-11 + 2^-40 is above the tie, so it rounds up; as a
    // float it would first become exactly the tie and then round down to even.
    const double trap = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
    EXPECT_EQ(ck__double_to_half(trap), 0x3c01);
    EXPECT_EQ(ck__float_to_half(static_cast<float>(trap)), 0x3c00);
    EXPECT_EQ(ck__double_to_half(65519.99999999999), 0x7bff);
    EXPECT_EQ(ck__double_to_half(65520.0), 0x7c00);
    EXPECT_EQ(ck__double_to_half(std::ldexp(1.0, -25)), 0x0000);
    EXPECT_EQ(ck__double_to_half(std::ldexp(1.0, -25) + std::ldexp(1.0, -60)), 0x0001);
    EXPECT_EQ(ck__double_to_half(1e300), 0x7c00);
    EXPECT_EQ(ck__double_to_half(-1e-300), 0x8000);
}

TEST(TypesFloat16, FloatsAroundEveryMidpoint) {
    // For every pair of neighbouring finite halves (and the 65504/65536 overflow pair): the
    // midpoint itself and four floats either side of it, both signs.
    for (uint32_t u = 0; u < 0x7c00; u++) {
        const double lo = oracle_pos_value(static_cast<uint16_t>(u));
        const double hi = oracle_pos_value(static_cast<uint16_t>(u + 1));
        const float mid = static_cast<float>((lo + hi) / 2); // exact: 12 significant bits
        ASSERT_EQ(static_cast<double>(mid), (lo + hi) / 2);
        const uint32_t m = bits_of(mid);
        for (int d = -4; d <= 4; d++) {
            const float f = float_of(static_cast<uint32_t>(static_cast<int64_t>(m) + d));
            check_float(f);
            check_float(-f);
        }
    }
}

TEST(TypesFloat16, DoublesAroundEveryMidpoint) {
    for (uint32_t u = 0; u < 0x7c00; u++) {
        const double lo = oracle_pos_value(static_cast<uint16_t>(u));
        const double hi = oracle_pos_value(static_cast<uint16_t>(u + 1));
        const double mid = (lo + hi) / 2;
        const double cases[] = {mid,
                                std::nextafter(mid, 0.0),
                                std::nextafter(mid, 1e9),
                                lo,
                                std::nextafter(lo, 1e9),
                                // Values that are exactly a float midpoint-ish: would
                                // double-round through float.
                                mid + std::ldexp(mid, -40),
                                mid - std::ldexp(mid, -40)};
        for (double d : cases) {
            check_double(d);
            check_double(-d);
        }
    }
}

TEST(TypesFloat16, SpecialValues) {
    const float fl[] = {0.0f,
                        -0.0f,
                        std::numeric_limits<float>::infinity(),
                        -std::numeric_limits<float>::infinity(),
                        std::numeric_limits<float>::quiet_NaN(),
                        -std::numeric_limits<float>::quiet_NaN(),
                        std::numeric_limits<float>::signaling_NaN(),
                        float_of(0x7f800001u),
                        float_of(0xffbfffffu),
                        float_of(0x7fc00001u),
                        std::numeric_limits<float>::max(),
                        std::numeric_limits<float>::denorm_min(),
                        std::numeric_limits<float>::min()};
    for (float f : fl) {
        check_float(f);
    }
    const double dl[] = {0.0,
                         -0.0,
                         std::numeric_limits<double>::infinity(),
                         -std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN(),
                         std::numeric_limits<double>::signaling_NaN(),
                         std::numeric_limits<double>::max(),
                         std::numeric_limits<double>::denorm_min(),
                         std::numeric_limits<double>::min()};
    for (double d : dl) {
        check_double(d);
    }
}

TEST(TypesFloat16, StridedSweepOfAllFloats) {
    // Every 251st float bit pattern (17 million of them): all exponents, both signs, NaNs.
    for (uint64_t x = 0; x <= 0xffffffffull; x += 251) {
        check_float(float_of(static_cast<uint32_t>(x)));
        if (HasFatalFailure()) {
            return;
        }
    }
}

TEST(TypesFloat16, RandomDoubles) {
    std::mt19937_64 rng(20240603);
    // Random bit patterns concentrated on the exponents that matter (2^-30 .. 2^17).
    std::uniform_int_distribution<uint64_t> man(0, (uint64_t{1} << 52) - 1);
    std::uniform_int_distribution<int> exp(1023 - 30, 1023 + 17);
    for (int i = 0; i < 2000000; i++) {
        uint64_t x = (static_cast<uint64_t>(exp(rng)) << 52) | man(rng);
        if (i & 1) {
            x |= uint64_t{1} << 63;
        }
        double d;
        std::memcpy(&d, &x, sizeof d);
        check_double(d);
        if (HasFatalFailure()) {
            return;
        }
    }
}

} // namespace
