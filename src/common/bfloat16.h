/* src/common/bfloat16.h: bfloat16 (float32's sign and 8-bit exponent, 7 stored significand
 * bits) conversions, as static inline bit manipulation (never installed). bfloat16 -> float
 * is exact (the bits shifted up: a NaN keeps its bits). float -> bfloat16 and double ->
 * bfloat16 round once to nearest, ties to even, subnormals included, in integer arithmetic
 * (whatever the caller's rounding mode or flush-to-zero); a NaN keeps its sign and the top
 * bits of its payload and comes out quiet, as AVX-512 BF16's vcvtneps2bf16 does. The names
 * ck__widen_<type> and ck__narrow_<type> (float and back) are those of every float type that
 * is computed in float32 (float16 too, float_formats.h). */
#ifndef CKERNEL_BFLOAT16_H
#define CKERNEL_BFLOAT16_H

#include <stdint.h>

#include "common/float16.h"

#ifdef __cplusplus
extern "C" {
#endif

static inline float ck__bfloat16_to_float(uint16_t b) {
    return ck__f32_from_bits((uint32_t)b << 16);
}

static inline double ck__bfloat16_to_double(uint16_t b) {
    return ck__float_to_double(ck__bfloat16_to_float(b));
}

/* The 16 dropped bits rounded to nearest even by adding 0x7fff plus the lowest kept bit (a
 * carry may bump the exponent, up to inf); branch-free, so loops vectorize. */
static inline uint16_t ck__float_to_bfloat16(float f) {
    const uint32_t x = ck__f32_bits(f);
    const uint32_t is_nan = ck__mask32((x & 0x7fffffffu) > 0x7f800000u);
    const uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
    const uint32_t nan = (x >> 16) | 0x40u;
    return (uint16_t)((nan & is_nan) | (rounded & ~is_nan));
}

/* Directly from the double's bits (through float would round twice). */
static inline uint16_t ck__double_to_bfloat16(double d) {
    uint64_t x = ck__f64_bits(d);
    const uint16_t sign = (uint16_t)((x >> 48) & 0x8000u);
    x &= UINT64_C(0x7fffffffffffffff);
    if (x >= UINT64_C(0x7ff0000000000000)) {
        if (x == UINT64_C(0x7ff0000000000000)) {
            return (uint16_t)(sign | 0x7f80u);
        }
        return (uint16_t)(sign | 0x7fc0u | ((x >> 45) & 0x7fu));
    }
    if (x >= UINT64_C(0x47eff00000000000)) { /* >= (2 - 2^-8) * 2^127: rounds to inf */
        return (uint16_t)(sign | 0x7f80u);
    }
    if (x >= UINT64_C(0x3810000000000000)) { /* >= 2^-126: normal */
        return (uint16_t)(sign | ck__shift_rne(x - (UINT64_C(896) << 52), 45));
    }
    if (x <= UINT64_C(0x3790000000000000)) { /* <= 2^-134, half the least subnormal */
        return sign;
    }
    /* d = m * 2^(e - 1075), in units of 2^-133: m >> (942 - e), a shift in [46, 53]. */
    const unsigned e = (unsigned)(x >> 52);
    const uint64_t m = (x & UINT64_C(0xfffffffffffff)) | (UINT64_C(1) << 52);
    return (uint16_t)(sign | ck__shift_rne(m, 942u - e));
}

/* An integer of up to 64 bits' magnitude, rounded once: above 2^32 the bits below bit 12
 * only decide ties (bfloat16 keeps 8 significant bits), so they are folded into one sticky
 * bit and the rest is exact in a double. */
static inline uint16_t ck__u64_to_bfloat16(uint64_t m) {
    if ((m >> 32) != 0) {
        m = (m & ~UINT64_C(0xfff)) | ((m & UINT64_C(0xfff)) != 0 ? UINT64_C(0x800) : 0u);
    }
    return ck__double_to_bfloat16((double)m);
}
static inline uint16_t ck__i64_to_bfloat16(int64_t v) {
    const uint64_t m = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
    return (uint16_t)((v < 0 ? 0x8000u : 0u) | ck__u64_to_bfloat16(m));
}

#ifdef __cplusplus
}
#endif

#endif
