// tests/support/half_exact.hpp: binary16 by its definition, in long double: the value of a
// bit pattern and correct rounding (to nearest, ties to even) found by search against exact
// midpoints. An oracle for float16 code that shares nothing with it.
//
// The C++ names of the one implementation in tests/support/scalar_oracle.c (ckt_half_value,
// ckt_half_pos, ckt_round_to_half), which the composition fuzzer (C) uses too.
#ifndef CK_TEST_HALF_EXACT_HPP
#define CK_TEST_HALF_EXACT_HPP

#include <cstdint>

#include "scalar_oracle.h"

namespace ckt {

// The value of h (NaN for a NaN pattern, ±infinity for an infinity).
inline long double half_value(uint16_t h) {
    return ckt_half_value(h);
}

// Positive half h as a value, with 0x7c00 standing for 2^16 (the upper neighbour of 65504).
inline long double half_pos(uint16_t h) {
    return ckt_half_pos(h);
}

// Round to nearest, ties to even: the largest half below, then the exact midpoint. NaN gives
// the default quiet NaN 0x7e00.
inline uint16_t round_to_half(long double v) {
    return ckt_round_to_half(v);
}

}  // namespace ckt

#endif
