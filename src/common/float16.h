/* src/common/float16.h: IEEE 754 binary16 (half) conversions, as static inline bit
 * manipulation, shared by the types layer and the assignment kernels (never installed).
 * All conversions are exact or round to nearest, ties to even, including subnormals;
 * they match IEEE hardware (F16C) and gcc's _Float16, NaNs included: a NaN keeps its sign
 * and the top bits of its payload and comes out quiet. double -> half rounds once, directly
 * from the double: going through float would round twice and be wrong near ties. */
#ifndef CKERNEL_FLOAT16_H
#define CKERNEL_FLOAT16_H

#include <stdint.h>
#include <string.h>

static inline uint32_t ck__f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static inline float ck__f32_from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline uint64_t ck__f64_bits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}
static inline double ck__f64_from_bits(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* Exact: every half is a float. */
static inline float ck__half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1fu) { /* inf, or NaN made quiet */
        return ck__f32_from_bits(sign | 0x7f800000u | (man << 13) | (man != 0 ? 0x400000u : 0));
    }
    if (exp == 0) {
        if (man == 0) {
            return ck__f32_from_bits(sign);
        }
        /* Subnormal: shift the leading one up to the implicit position. */
        uint32_t e = 113; /* float exponent of 2^-14, minus the shifts below */
        while ((man & 0x400u) == 0) {
            man <<= 1;
            e--;
        }
        return ck__f32_from_bits(sign | (e << 23) | ((man & 0x3ffu) << 13));
    }
    return ck__f32_from_bits(sign | ((exp + 112u) << 23) | (man << 13));
}

static inline double ck__half_to_double(uint16_t h) {
    return (double)ck__half_to_float(h);
}

/* q = value >> shift, rounded to nearest even; shift in [1, 63]. */
static inline uint64_t ck__shift_rne(uint64_t value, unsigned shift) {
    uint64_t q = value >> shift;
    uint64_t rem = value & ((UINT64_C(1) << shift) - 1);
    uint64_t half = UINT64_C(1) << (shift - 1);
    if (rem > half || (rem == half && (q & 1u) != 0)) {
        q++;
    }
    return q;
}

static inline uint16_t ck__float_to_half(float f) {
    uint32_t x = ck__f32_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    x &= 0x7fffffffu;
    if (x >= 0x7f800000u) {
        if (x == 0x7f800000u) {
            return (uint16_t)(sign | 0x7c00u);
        }
        return (uint16_t)(sign | 0x7e00u | ((x >> 13) & 0x3ffu));
    }
    if (x >= 0x477ff000u) { /* >= 65520, the midpoint of 65504 and 2^16: rounds to inf */
        return (uint16_t)(sign | 0x7c00u);
    }
    if (x >= 0x38800000u) { /* >= 2^-14: normal half; a carry may bump the exponent */
        return (uint16_t)(sign | ck__shift_rne(x - 0x38000000u, 13));
    }
    if (x <= 0x33000000u) { /* <= 2^-25: zero (2^-25 itself is a tie to even zero) */
        return sign;
    }
    /* Subnormal half: units of 2^-24. f = m * 2^(e - 150), so h = m >> (126 - e). */
    uint32_t e = x >> 23;
    uint32_t m = (x & 0x7fffffu) | 0x800000u;
    return (uint16_t)(sign | ck__shift_rne(m, 126u - e));
}

static inline uint16_t ck__double_to_half(double d) {
    uint64_t x = ck__f64_bits(d);
    uint16_t sign = (uint16_t)((x >> 48) & 0x8000u);
    x &= UINT64_C(0x7fffffffffffffff);
    if (x >= UINT64_C(0x7ff0000000000000)) {
        if (x == UINT64_C(0x7ff0000000000000)) {
            return (uint16_t)(sign | 0x7c00u);
        }
        return (uint16_t)(sign | 0x7e00u | ((x >> 42) & 0x3ffu));
    }
    if (x >= UINT64_C(0x40effe0000000000)) { /* >= 65520 */
        return (uint16_t)(sign | 0x7c00u);
    }
    if (x >= UINT64_C(0x3f10000000000000)) { /* >= 2^-14 */
        return (uint16_t)(sign | ck__shift_rne(x - (UINT64_C(1008) << 52), 42));
    }
    if (x <= UINT64_C(0x3e60000000000000)) { /* <= 2^-25 */
        return sign;
    }
    /* f = m * 2^(e - 1075); units of 2^-24, so h = m >> (1051 - e), shift in [43, 53]. */
    unsigned e = (unsigned)(x >> 52);
    uint64_t m = (x & UINT64_C(0xfffffffffffff)) | (UINT64_C(1) << 52);
    return (uint16_t)(sign | ck__shift_rne(m, 1051u - e));
}

static inline int ck__half_is_nan(uint16_t h) {
    return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
}

#endif
