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

#ifdef __cplusplus
extern "C" {
#endif

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

/* float -> double as IEEE's convertFormat: a signaling NaN comes out quiet, as x86's and
 * Arm's conversions give it, and POWER's vector one (xvcvspdp). gcc converts POWER's scalars
 * with xscvspdpn, which keeps it signaling: there the NaN is quieted by hand (a select,
 * which vectorizes), so every path of a cast gives the same bits. */
static inline double ck__float_to_double(float f) {
    const double d = (double)f;
#if defined(__powerpc__)
    return d != d ? d + d : d;
#else
    return d;
#endif
}

/* All ones when c (0 or 1) is 1, else 0. */
static inline uint32_t ck__mask32(int c) {
    return 0u - (uint32_t)c;
}

/* Exact: every half is a float. Branch-free (selects only), so that loops over halves
 * vectorize on every target: normal halves rebias the exponent; a subnormal half is
 * man * 2^-24, computed exactly in float (an int -> float conversion of a value < 2^10 and a
 * product by a power of two, both exact whatever the rounding mode, and the result is a
 * normal float, so flush-to-zero does not apply); inf and NaN keep the sign and the payload,
 * and a NaN comes out quiet (as F16C's vcvtph2ps does). */
static inline float ck__half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t a = h & 0x7fffu;
    uint32_t man = h & 0x3ffu;
    uint32_t normal = (a << 13) + 0x38000000u; /* exponent + (127 - 15) */
    uint32_t special = 0x7f800000u | (man << 13) | (man != 0 ? 0x400000u : 0u);
    uint32_t sub = ck__f32_bits((float)(int32_t)man * 0x1p-24f);
    /* Selects by masks: with ?: gcc moves the float arithmetic into a branch (it may trap,
     * so it is not speculated back) and the loop no longer vectorizes. */
    uint32_t is_special = ck__mask32(a >= 0x7c00u), is_sub = ck__mask32(a < 0x0400u);
    uint32_t r = (special & is_special) | (sub & is_sub) | (normal & ~(is_special | is_sub));
    return ck__f32_from_bits(sign | r);
}

static inline double ck__half_to_double(uint16_t h) {
    return ck__float_to_double(ck__half_to_float(h));
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

/* Round to nearest even, branch-free (so that loops vectorize on every target) and
 * independent of the floating-point rounding mode:
 *   normal halves (|f| >= 2^-14): rebias the exponent and round the 13 dropped bits to
 *     nearest even by adding 0xfff plus the lowest kept bit (a carry may bump the exponent,
 *     up to inf for [65520, 65536));
 *   subnormal halves and zero (|f| < 2^-14): s = |f| * 2^24 (exact: a power of two) is the
 *     result in units of 2^-24, in [0, 1024); t = trunc(s) and the fraction s - t are exact,
 *     and t is rounded up on a fraction above 1/2, or of exactly 1/2 when t is odd (1024 is
 *     the smallest normal half, which is right);
 *   |f| >= 65520 (or inf): inf; NaN: quiet, keeping the sign and the top payload bits (as
 *     F16C's vcvtps2ph does). */
static inline uint16_t ck__float_to_half(float f) {
    uint32_t x = ck__f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t a = x & 0x7fffffffu;
    uint32_t is_sub = ck__mask32(a < 0x38800000u);
    uint32_t normal = (a - 0x38000000u + 0xfffu + ((a >> 13) & 1u)) >> 13;
    float s = ck__f32_from_bits(a & is_sub) * 0x1p24f;
    int32_t t = (int32_t)s; /* s in [0, 1024): the conversion is defined */
    float frac = s - (float)t;
    uint32_t up = (uint32_t)(frac > 0.5f) | ((uint32_t)(frac == 0.5f) & (uint32_t)t);
    uint32_t sub = (uint32_t)t + (up & 1u);
    uint32_t nan = 0x7e00u | ((a >> 13) & 0x3ffu);
    /* Selects by masks, as in ck__half_to_float. */
    uint32_t is_nan = ck__mask32(a > 0x7f800000u);
    uint32_t is_inf = ck__mask32(a >= 0x477ff000u) & ~is_nan; /* >= 65520: rounds to inf */
    uint32_t r = (nan & is_nan) | (0x7c00u & is_inf) | (sub & is_sub) |
                 (normal & ~(is_nan | is_inf | is_sub));
    return (uint16_t)(sign | r);
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

#ifdef __cplusplus
}
#endif

#endif
