// tests/support/half_exact.hpp: binary16 by its definition, in long double: the value of a
// bit pattern and correct rounding (to nearest, ties to even) found by search against exact
// midpoints. An oracle for float16 code that shares nothing with it.
#ifndef CK_TEST_HALF_EXACT_HPP
#define CK_TEST_HALF_EXACT_HPP

#include <cmath>
#include <cstdint>
#include <limits>

namespace ckt {

inline long double half_value(uint16_t h) {
    const int sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
    long double v;
    if (exp == 31) {
        v = man != 0 ? std::numeric_limits<long double>::quiet_NaN()
                     : std::numeric_limits<long double>::infinity();
    } else if (exp == 0) {
        v = std::ldexp(static_cast<long double>(man), -24);
    } else {
        v = std::ldexp(static_cast<long double>(1024 + man), exp - 25);
    }
    return sign != 0 ? -v : v;
}

// Positive half h as a value, with 0x7c00 standing for 2^16 (the upper neighbour of 65504).
inline long double half_pos(uint16_t h) {
    return h == 0x7c00 ? 65536.0L : half_value(h);
}

// Round to nearest, ties to even: the largest half below, then the exact midpoint. NaN gives
// the default quiet NaN 0x7e00.
inline uint16_t round_to_half(long double v) {
    if (std::isnan(v)) {
        return 0x7e00;
    }
    const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    const long double a = std::fabs(v);
    if (a >= 65520.0L) {
        return sign | 0x7c00;
    }
    uint16_t lo = 0, hi = 0x7bff;
    while (lo < hi) {
        const uint16_t mid = static_cast<uint16_t>((lo + hi + 1) / 2);
        if (half_pos(mid) <= a) {
            lo = mid;
        } else {
            hi = static_cast<uint16_t>(mid - 1);
        }
    }
    const long double below = half_pos(lo);
    if (below == a) {
        return sign | lo;
    }
    const long double midpoint = (below + half_pos(static_cast<uint16_t>(lo + 1))) / 2;
    uint16_t r = lo;
    if (a > midpoint || (a == midpoint && (lo & 1) != 0)) {
        r = static_cast<uint16_t>(lo + 1);
    }
    return sign | r;
}

}  // namespace ckt

#endif
