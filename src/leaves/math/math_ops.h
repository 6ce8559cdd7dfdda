/* src/leaves/math/math_ops.h: the element functions of the LEAF loops of ufunc_list.h,
 * ck__uf_<name>_<in0>(a) and ck__uf_<name>_<in0>_<in1>(a, b), NumPy 1.24's definitions (its
 * loops.c.src and npymath), written per class of type. Included only from ufunc.dispatch.c
 * (compiled per CPU target), after targets/dispatch_target.h.
 *
 * Integers: computed in the unsigned type of their size (no signed overflow; results wrap
 * as NumPy's do). A zero divisor gives 0 (floor_divide, remainder, fmod), MIN // -1 gives MIN
 * and MIN % -1 gives 0; shifts by a count outside 0 .. width-1 (a negative one included)
 * give 0, or -1 for a right shift of a negative value; gcd and lcm of the magnitudes (lcm
 * wraps, and gcd(MIN, 0) is MIN, as NumPy's); reciprocal is 1 / x truncated, and of 0 what
 * NumPy gives on x86 (the conversion of inf: MIN for int32 and int64, 0 for the others).
 * bool: the truth values (any non-zero byte is true).
 * float32, float64: IEEE, libm's exact functions; floor_divide and remainder are NumPy's
 * divmod (fmod, then the quotient made Python's floor with the remainder's sign the
 * divisor's); a zero divisor gives a / b and fmod's NaN.
 * float16, bfloat16: computed in float32 and rounded once (NumPy's float16 loops), but the
 * functions of the bits (absolute, copysign, the tests, nextafter, spacing) work on the
 * bits.
 * complex: NumPy's lexicographic order for sign, fmax and fmin (a NaN imaginary part stops a
 * decision by the real parts alone); absolute is hypot of the parts. */
#ifndef CKERNEL_MATH_OPS_H
#define CKERNEL_MATH_OPS_H

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/float_formats.h"
#include "common/scalars.h"
#include "leaves/numeric/arith_ops.h" /* CK__OPAQUE */
#include "targets/dispatch_target.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================================
 * bool
 * ====================================================================================== */
#define CK__UF_T(a) ((a) != 0)
CK__HOT uint8_t ck__uf_absolute_bool(uint8_t a) {
    return (uint8_t)CK__UF_T(a);
}
CK__HOT uint8_t ck__uf_invert_bool(uint8_t a) {
    return (uint8_t)!CK__UF_T(a);
}
CK__HOT uint8_t ck__uf_logical_not_bool(uint8_t a) {
    return (uint8_t)!CK__UF_T(a);
}
CK__HOT uint8_t ck__uf_isnan_bool(uint8_t a) {
    (void)a;
    return 0;
}
CK__HOT uint8_t ck__uf_isinf_bool(uint8_t a) {
    (void)a;
    return 0;
}
CK__HOT uint8_t ck__uf_isfinite_bool(uint8_t a) {
    (void)a;
    return 1;
}
CK__HOT uint8_t ck__uf_bitwise_and_bool_bool(uint8_t a, uint8_t b) {
    return (uint8_t)(CK__UF_T(a) & CK__UF_T(b));
}
CK__HOT uint8_t ck__uf_bitwise_or_bool_bool(uint8_t a, uint8_t b) {
    return (uint8_t)(CK__UF_T(a) | CK__UF_T(b));
}
CK__HOT uint8_t ck__uf_bitwise_xor_bool_bool(uint8_t a, uint8_t b) {
    return (uint8_t)(CK__UF_T(a) ^ CK__UF_T(b));
}
CK__HOT uint8_t ck__uf_logical_xor_bool_bool(uint8_t a, uint8_t b) {
    return (uint8_t)(CK__UF_T(a) ^ CK__UF_T(b));
}
CK__HOT uint8_t ck__uf_fmax_bool_bool(uint8_t a, uint8_t b) {
    return (uint8_t)(CK__UF_T(a) | CK__UF_T(b));
}
CK__HOT uint8_t ck__uf_fmin_bool_bool(uint8_t a, uint8_t b) {
    return (uint8_t)(CK__UF_T(a) & CK__UF_T(b));
}
CK__HOT double ck__uf_divide_bool_bool(uint8_t a, uint8_t b) {
    return (double)CK__UF_T(a) / (double)CK__UF_T(b);
}

/* ======================================================================================
 * Integers: T, its unsigned type UT, the unsigned type WT the arithmetic runs in (at least
 * unsigned int), SIGNED, its width in bits, and MIN (0 for unsigned).
 * ====================================================================================== */
/* x < 0, spelled per signedness (no always-false comparison for the unsigned). */
#define CK__UF_NEG_1(x) ((x) < 0)
#define CK__UF_NEG_0(x) 0
#define CK__UF_DEF_INT(T, UT, WT, SIGNED, WIDTH, MIN)                                       \
    CK__HOT UT ck__uf_magnitude_##T(ck__ct_##T a) {                                         \
        return CK__UF_NEG_##SIGNED(a) ? (UT)((WT)0 - (WT)(UT)a) : (UT)a;                    \
    }                                                                                       \
    CK__HOT UT ck__uf_gcd_bits_##T(UT a, UT b) {                                            \
        while (a != 0) {                                                                    \
            const UT c = a;                                                                 \
            a = (UT)(b % a);                                                                \
            b = c;                                                                          \
        }                                                                                   \
        return b;                                                                           \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_absolute_##T(ck__ct_##T a) {                                  \
        return (ck__ct_##T)ck__uf_magnitude_##T(a);                                         \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_positive_##T(ck__ct_##T a) {                                  \
        return a;                                                                           \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_conjugate_##T(ck__ct_##T a) {                                 \
        return a;                                                                           \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_sign_##T(ck__ct_##T a) {                                      \
        return (ck__ct_##T)((a > 0) - (CK__UF_NEG_##SIGNED(a)));                            \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_square_##T(ck__ct_##T a) {                                    \
        return ck__multiply_##T(a, a); /* arith_ops.h's: wrapping */                        \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_reciprocal_##T(ck__ct_##T a) {                                \
        return a == 1 ? (ck__ct_##T)1                                                       \
               : SIGNED && a == (ck__ct_##T)-1 ? a                                          \
               : a == 0 ? (ck__ct_##T)(SIGNED && WIDTH >= 32 ? MIN : 0)                     \
                        : (ck__ct_##T)0;                                                    \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_invert_##T(ck__ct_##T a) {                                    \
        return (ck__ct_##T)~(UT)a;                                                          \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_logical_not_##T(ck__ct_##T a) {                                  \
        return (uint8_t)(a == 0);                                                           \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_isnan_##T(ck__ct_##T a) {                                        \
        (void)a;                                                                            \
        return 0;                                                                           \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_isinf_##T(ck__ct_##T a) {                                        \
        (void)a;                                                                            \
        return 0;                                                                           \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_isfinite_##T(ck__ct_##T a) {                                     \
        (void)a;                                                                            \
        return 1;                                                                           \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_bitwise_and_##T##_##T(ck__ct_##T a, ck__ct_##T b) {           \
        return (ck__ct_##T)((UT)a & (UT)b);                                                 \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_bitwise_or_##T##_##T(ck__ct_##T a, ck__ct_##T b) {            \
        return (ck__ct_##T)((UT)a | (UT)b);                                                 \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_bitwise_xor_##T##_##T(ck__ct_##T a, ck__ct_##T b) {           \
        return (ck__ct_##T)((UT)a ^ (UT)b);                                                 \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_left_shift_##T##_##T(ck__ct_##T a, ck__ct_##T b) {            \
        return (UT)b < WIDTH ? (ck__ct_##T)((WT)(UT)a << (UT)b) : (ck__ct_##T)0;            \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_right_shift_##T##_##T(ck__ct_##T a, ck__ct_##T b) {           \
        return (UT)b < WIDTH ? (ck__ct_##T)(a >> (UT)b)                                     \
                             : (ck__ct_##T)(CK__UF_NEG_##SIGNED(a) ? -1 : 0);               \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_gcd_##T##_##T(ck__ct_##T a, ck__ct_##T b) {                   \
        const UT x = ck__uf_magnitude_##T(a), y = ck__uf_magnitude_##T(b);                  \
        return (ck__ct_##T)ck__uf_gcd_bits_##T(x, y);                                       \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_lcm_##T##_##T(ck__ct_##T a, ck__ct_##T b) {                   \
        const UT x = ck__uf_magnitude_##T(a), y = ck__uf_magnitude_##T(b);                  \
        const UT g = ck__uf_gcd_bits_##T(x, y);                                             \
        return g == 0 ? (ck__ct_##T)0 : (ck__ct_##T)((WT)(x / g) * (WT)y);                  \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_logical_xor_##T##_##T(ck__ct_##T a, ck__ct_##T b) {              \
        return (uint8_t)((a != 0) ^ (b != 0));                                              \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_floor_divide_##T##_##T(ck__ct_##T a, ck__ct_##T b) {          \
        if (b == 0) {                                                                       \
            return 0;                                                                       \
        }                                                                                   \
        if (SIGNED && b == (ck__ct_##T)-1) {                                                \
            return (ck__ct_##T)((WT)0 - (WT)(UT)a); /* MIN // -1 wraps to MIN */            \
        }                                                                                   \
        const ck__ct_##T q = (ck__ct_##T)(a / b);                                           \
        const int inexact = (ck__ct_##T)(a % b) != 0;                                       \
        return inexact && CK__UF_NEG_##SIGNED(a) != CK__UF_NEG_##SIGNED(b)                  \
                   ? (ck__ct_##T)(q - 1)                                                    \
                   : q;                                                                     \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_remainder_##T##_##T(ck__ct_##T a, ck__ct_##T b) {             \
        if (b == 0 || (SIGNED && b == (ck__ct_##T)-1)) {                                    \
            return 0;                                                                       \
        }                                                                                   \
        const ck__ct_##T r = (ck__ct_##T)(a % b);                                           \
        return r != 0 && CK__UF_NEG_##SIGNED(r) != CK__UF_NEG_##SIGNED(b)                   \
                   ? (ck__ct_##T)(r + b)                                                    \
                   : r;                                                                     \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_fmod_##T##_##T(ck__ct_##T a, ck__ct_##T b) {                  \
        return b == 0 || (SIGNED && b == (ck__ct_##T)-1) ? (ck__ct_##T)0                    \
                                                         : (ck__ct_##T)(a % b);             \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_fmax_##T##_##T(ck__ct_##T a, ck__ct_##T b) {                  \
        return a >= b ? a : b;                                                              \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_fmin_##T##_##T(ck__ct_##T a, ck__ct_##T b) {                  \
        return a <= b ? a : b;                                                              \
    }                                                                                       \
    /* NumPy's: by squaring, wrapping; b < 0 is refused (the _bad test) before. */          \
    CK__HOT ck__ct_##T ck__uf_power_##T##_##T(ck__ct_##T a, ck__ct_##T b) {                 \
        if (b == 0 || a == 1) {                                                             \
            return 1;                                                                       \
        }                                                                                   \
        WT base = (WT)(UT)a, out = (b & 1) ? base : 1u;                                     \
        for (UT e = (UT)((UT)b >> 1); e > 0; e = (UT)(e >> 1)) {                            \
            base *= base;                                                                   \
            if (e & 1u) {                                                                   \
                out *= base;                                                                \
            }                                                                               \
        }                                                                                   \
        return (ck__ct_##T)out;                                                             \
    }                                                                                       \
    CK__HOT int ck__uf_power_##T##_##T##_bad(ck__ct_##T a, ck__ct_##T b) {                  \
        (void)a, (void)b;                                                                   \
        return CK__UF_NEG_##SIGNED(b);                                                      \
    }                                                                                       \
    CK__HOT double ck__uf_divide_##T##_##T(ck__ct_##T a, ck__ct_##T b) {                    \
        return (double)a / (double)b;                                                       \
    }

/* What a CHECKED loop's refused arguments are (CK_ERR_DOMAIN), by function. */
#define CK__UF_REFUSED_power "power: integers to negative integer powers are not allowed"

/* ======================================================================================
 * float32, float64: T, FT its C type, S the libm suffix (f or nothing), and its pi.
 * ====================================================================================== */
/* NumPy's divmod (npymath): the floor quotient, and *mod the remainder with the divisor's
 * sign; b == 0 gives a / b and fmod's NaN. */
#define CK__UF_DEF_DIVMOD(FT, S)                                                            \
    CK__HOT FT ck__uf_divmod##S(FT a, FT b, FT *mod) {                                      \
        FT m = fmod##S(a, b);                                                               \
        if (b == 0) {                                                                       \
            *mod = m;                                                                       \
            return a / b;                                                                   \
        }                                                                                   \
        FT div = (a - m) / b;                                                               \
        if (m != 0) {                                                                       \
            if ((b < 0) != (m < 0)) {                                                       \
                m += b;                                                                     \
                div -= (FT)1;                                                               \
            }                                                                               \
        } else {                                                                            \
            m = copysign##S((FT)0, b);                                                      \
        }                                                                                   \
        FT q;                                                                               \
        if (div != 0) {                                                                     \
            q = floor##S(div);                                                              \
            if (div - q > (FT)0.5) {                                                        \
                q += (FT)1;                                                                 \
            }                                                                               \
        } else {                                                                            \
            q = copysign##S((FT)0, a / b);                                                  \
        }                                                                                   \
        *mod = m;                                                                           \
        return q;                                                                           \
    }
CK__UF_DEF_DIVMOD(float, f)
CK__UF_DEF_DIVMOD(double, )

/* The float functions every float type computes the same way in its compute type FT. */
#define CK__UF_DEF_FLOAT_MATH(FT, S, PI)                                                    \
    CK__HOT FT ck__uf_spacing##S(FT a) {                                                    \
        return isinf(a) ? (FT)NAN                                                           \
               : a < 0  ? nextafter##S(a, -(FT)INFINITY) - a                                \
                        : nextafter##S(a, (FT)INFINITY) - a;                                \
    }                                                                                       \
    /* A NaN comes out as a + a, quiet: returned as it is, a signaling NaN kept its bits in  \
     * some of POWER's loops and not in others (the compiler moves a float through           \
     * conversions that quiet it or not). */                                               \
    CK__HOT FT ck__uf_sign##S(FT a) {                                                       \
        return a > 0 ? (FT)1 : a < 0 ? (FT)-1 : a == 0 ? (FT)0 : a + a;                     \
    }                                                                                       \
    CK__HOT FT ck__uf_heaviside##S(FT a, FT b) {                                            \
        return isnan(a) ? (FT)NAN : a == 0 ? b : a < 0 ? (FT)0 : (FT)1;                     \
    }                                                                                       \
    CK__HOT FT ck__uf_floor_divide##S(FT a, FT b) {                                         \
        FT m;                                                                               \
        return b == 0 ? a / b : ck__uf_divmod##S(a, b, &m);                                 \
    }                                                                                       \
    CK__HOT FT ck__uf_remainder##S(FT a, FT b) {                                            \
        FT m;                                                                               \
        (void)ck__uf_divmod##S(a, b, &m);                                                   \
        return m;                                                                           \
    }                                                                                       \
    CK__HOT FT ck__uf_deg2rad##S(FT a) {                                                    \
        return a * ((FT)PI / (FT)180);                                                      \
    }                                                                                       \
    CK__HOT FT ck__uf_rad2deg##S(FT a) {                                                    \
        return a * ((FT)180 / (FT)PI);                                                      \
    }
#define CK__UF_PI 3.141592653589793238462643383279502884
CK__UF_DEF_FLOAT_MATH(float, f, CK__UF_PI)
CK__UF_DEF_FLOAT_MATH(double, , CK__UF_PI)

/* A rounding function of x, a NaN quieted (x + x) as the vector rounding instructions quiet
 * it, where libm's scalar functions return a signaling NaN as it is: the same bits on every
 * target. Both sides are computed and one selected (no branch), so the loops vectorize. */
static inline float ck__uf_round_quietf(float x, float r) {
    const float quiet = x + x;
    return x != x ? quiet : r;
}
static inline double ck__uf_round_quiet(double x, double r) {
    const double quiet = x + x;
    return x != x ? quiet : r;
}
#define CK__UF_ROUND(f, x)                                                                  \
    _Generic((x), float: ck__uf_round_quietf, default: ck__uf_round_quiet)((x), f(x))
#define CK__UF_DEF_FLOAT(T, FT, S)                                                          \
    CK__HOT FT ck__uf_absolute_##T(FT a) {                                                  \
        return fabs##S(a);                                                                  \
    }                                                                                       \
    CK__HOT FT ck__uf_positive_##T(FT a) {                                                  \
        return a;                                                                           \
    }                                                                                       \
    CK__HOT FT ck__uf_conjugate_##T(FT a) {                                                 \
        return a;                                                                           \
    }                                                                                       \
    CK__HOT FT ck__uf_sign_##T(FT a) {                                                      \
        return ck__uf_sign##S(a);                                                           \
    }                                                                                       \
    CK__HOT FT ck__uf_square_##T(FT a) {                                                    \
        return a * a;                                                                       \
    }                                                                                       \
    CK__HOT FT ck__uf_reciprocal_##T(FT a) {                                                \
        return (FT)1 / a;                                                                   \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_logical_not_##T(FT a) {                                          \
        return (uint8_t)(a == 0);                                                           \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_isnan_##T(FT a) {                                                \
        return (uint8_t)(isnan(a) != 0);                                                    \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_isinf_##T(FT a) {                                                \
        return (uint8_t)(isinf(a) != 0);                                                    \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_isfinite_##T(FT a) {                                             \
        return (uint8_t)(isfinite(a) != 0);                                                 \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_signbit_##T(FT a) {                                              \
        return (uint8_t)(signbit(a) != 0);                                                  \
    }                                                                                       \
    CK__HOT FT ck__uf_floor_##T(FT a) {                                                     \
        return CK__UF_ROUND(floor##S, a);                                                   \
    }                                                                                       \
    CK__HOT FT ck__uf_ceil_##T(FT a) {                                                      \
        return CK__UF_ROUND(ceil##S, a);                                                    \
    }                                                                                       \
    CK__HOT FT ck__uf_trunc_##T(FT a) {                                                     \
        return CK__UF_ROUND(trunc##S, a);                                                   \
    }                                                                                       \
    CK__HOT FT ck__uf_rint_##T(FT a) {                                                      \
        return CK__UF_ROUND(rint##S, a);                                                    \
    }                                                                                       \
    CK__HOT FT ck__uf_sqrt_##T(FT a) {                                                      \
        return sqrt##S(a); /* IEEE's, correctly rounded (no errno: -fno-math-errno) */      \
    }                                                                                       \
    CK__HOT FT ck__uf_fabs_##T(FT a) {                                                      \
        return fabs##S(a);                                                                  \
    }                                                                                       \
    CK__HOT FT ck__uf_spacing_##T(FT a) {                                                   \
        return ck__uf_spacing##S(a);                                                        \
    }                                                                                       \
    CK__HOT FT ck__uf_deg2rad_##T(FT a) {                                                   \
        return ck__uf_deg2rad##S(a);                                                        \
    }                                                                                       \
    CK__HOT FT ck__uf_rad2deg_##T(FT a) {                                                   \
        return ck__uf_rad2deg##S(a);                                                        \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_logical_xor_##T##_##T(FT a, FT b) {                              \
        return (uint8_t)((a != 0) ^ (b != 0));                                              \
    }                                                                                       \
    CK__HOT FT ck__uf_floor_divide_##T##_##T(FT a, FT b) {                                  \
        return ck__uf_floor_divide##S(a, b);                                                \
    }                                                                                       \
    CK__HOT FT ck__uf_remainder_##T##_##T(FT a, FT b) {                                     \
        return ck__uf_remainder##S(a, b);                                                   \
    }                                                                                       \
    CK__HOT FT ck__uf_fmod_##T##_##T(FT a, FT b) {                                          \
        return fmod##S(a, b);                                                               \
    }                                                                                       \
    /* The first of a NaN-less pair only when it is larger (C's fmax on x86: of two equal   \
     * zeros the second). */                                                                \
    CK__HOT FT ck__uf_fmax_##T##_##T(FT a, FT b) {                                          \
        return (a > b || b != b) ? a : b;                                                   \
    }                                                                                       \
    CK__HOT FT ck__uf_fmin_##T##_##T(FT a, FT b) {                                          \
        return (a < b || b != b) ? a : b;                                                   \
    }                                                                                       \
    CK__HOT FT ck__uf_copysign_##T##_##T(FT a, FT b) {                                      \
        return copysign##S(a, b);                                                           \
    }                                                                                       \
    CK__HOT FT ck__uf_nextafter_##T##_##T(FT a, FT b) {                                     \
        return nextafter##S(a, b);                                                          \
    }                                                                                       \
    CK__HOT FT ck__uf_heaviside_##T##_##T(FT a, FT b) {                                     \
        return ck__uf_heaviside##S(a, b);                                                   \
    }                                                                                       \
    /* An int64 exponent outside int's range overflows or underflows as int's extreme. */   \
    CK__HOT FT ck__uf_ldexp_##T##_int32(FT a, int32_t b) {                                  \
        return ldexp##S(a, (int)b);                                                         \
    }                                                                                       \
    CK__HOT FT ck__uf_ldexp_##T##_int64(FT a, int64_t b) {                                  \
        return ldexp##S(a, b > INT32_MAX ? INT32_MAX : b < INT32_MIN ? INT32_MIN : (int)b); \
    }

/* ======================================================================================
 * float16, bfloat16: the bits, EXP the exponent field's mask; or float32 and one rounding.
 * ====================================================================================== */
#define CK__UF_EXP_float16 0x7c00u
#define CK__UF_EXP_bfloat16 0x7f80u
#define CK__UF_SIG_float16 10u
#define CK__UF_SIG_bfloat16 7u
#define CK__UF_DEF_NARROW1(name, T, EXPR)                                                   \
    CK__HOT uint16_t ck__uf_##name##_##T(uint16_t a) {                                      \
        const float x = ck__widen_##T(a);                                                   \
        return ck__narrow_##T(EXPR);                                                        \
    }
#define CK__UF_DEF_NARROW2(name, T, EXPR)                                                   \
    CK__HOT uint16_t ck__uf_##name##_##T##_##T(uint16_t a, uint16_t b) {                    \
        const float x = ck__widen_##T(a), y = ck__widen_##T(b);                             \
        return ck__narrow_##T(EXPR);                                                        \
    }
#define CK__UF_DEF_NARROW(T)                                                                \
    CK__HOT int ck__uf_isnan_bits_##T(uint16_t a) {                                         \
        return (a & 0x7fffu) > CK__UF_EXP_##T;                                              \
    }                                                                                       \
    /* NumPy's npy_half_nextafter, for any 16-bit sign-magnitude float: the neighbour of a  \
     * toward b by one unit of the bits; a NaN gives NaN, equal values a. */                \
    CK__HOT uint16_t ck__uf_nextafter_##T##_##T(uint16_t a, uint16_t b) {                   \
        if (ck__uf_isnan_bits_##T(a) || ck__uf_isnan_bits_##T(b)) {                         \
            return ck__narrow_##T(NAN);                                                     \
        }                                                                                   \
        if (ck__widen_##T(a) == ck__widen_##T(b)) {                                         \
            return a;                                                                       \
        }                                                                                   \
        if ((a & 0x7fffu) == 0) {                                                           \
            return (uint16_t)((b & 0x8000u) | 1u);                                          \
        }                                                                                   \
        const int toward_zero = (ck__widen_##T(a) > ck__widen_##T(b)) == ((a & 0x8000u) == 0); \
        return (uint16_t)(toward_zero ? a - 1u : a + 1u);                                   \
    }                                                                                       \
    /* NumPy's npy_half_spacing, for any 16-bit float of M significand bits: the distance   \
     * to the neighbour away from zero, positive, but to the one toward zero for a negative \
     * power of two; NaN for inf and NaN, inf past the largest value. */                    \
    CK__HOT uint16_t ck__uf_spacing_##T(uint16_t a) {                                       \
        const unsigned m = CK__UF_SIG_##T, e = a & CK__UF_EXP_##T, one = 1u << m;           \
        if (e == CK__UF_EXP_##T) {                                                          \
            return ck__narrow_##T(NAN);                                                     \
        }                                                                                   \
        if (a == (CK__UF_EXP_##T - 1u)) {                                                   \
            return (uint16_t)CK__UF_EXP_##T;                                                \
        }                                                                                   \
        const unsigned k = (a & 0x8000u) && (a & (one - 1u)) == 0 ? m + 1u : m;             \
        return (uint16_t)(e > (k << m)  ? e - (k << m)                                      \
                          : e > one     ? 1u << ((e >> m) - (k - m) - 1u)                   \
                                        : 1u);                                              \
    }                                                                                       \
    CK__HOT uint16_t ck__uf_absolute_##T(uint16_t a) {                                      \
        return (uint16_t)(a & 0x7fffu);                                                     \
    }                                                                                       \
    CK__HOT uint16_t ck__uf_fabs_##T(uint16_t a) {                                          \
        return (uint16_t)(a & 0x7fffu);                                                     \
    }                                                                                       \
    CK__HOT uint16_t ck__uf_positive_##T(uint16_t a) {                                      \
        return a;                                                                           \
    }                                                                                       \
    CK__HOT uint16_t ck__uf_conjugate_##T(uint16_t a) {                                     \
        return a;                                                                           \
    }                                                                                       \
    CK__HOT uint16_t ck__uf_sign_##T(uint16_t a) {                                          \
        return ck__uf_isnan_bits_##T(a) ? a                                                 \
               : (a & 0x7fffu) == 0     ? (uint16_t)0                                       \
                                        : ck__narrow_##T((a & 0x8000u) ? -1.0f : 1.0f);     \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_logical_not_##T(uint16_t a) {                                    \
        return (uint8_t)((a & 0x7fffu) == 0);                                               \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_isnan_##T(uint16_t a) {                                          \
        return (uint8_t)ck__uf_isnan_bits_##T(a);                                           \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_isinf_##T(uint16_t a) {                                          \
        return (uint8_t)((a & 0x7fffu) == CK__UF_EXP_##T);                                  \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_isfinite_##T(uint16_t a) {                                       \
        return (uint8_t)((a & CK__UF_EXP_##T) != CK__UF_EXP_##T);                           \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_signbit_##T(uint16_t a) {                                        \
        return (uint8_t)(a >> 15);                                                          \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_logical_xor_##T##_##T(uint16_t a, uint16_t b) {                  \
        return (uint8_t)(((a & 0x7fffu) != 0) ^ ((b & 0x7fffu) != 0));                      \
    }                                                                                       \
    CK__HOT uint16_t ck__uf_copysign_##T##_##T(uint16_t a, uint16_t b) {                    \
        return (uint16_t)((a & 0x7fffu) | (b & 0x8000u));                                   \
    }                                                                                       \
    /* NumPy's float16 loops: of two equal values the first. */                             \
    CK__HOT uint16_t ck__uf_fmax_##T##_##T(uint16_t a, uint16_t b) {                        \
        return (ck__widen_##T(a) >= ck__widen_##T(b) || ck__uf_isnan_bits_##T(b)) ? a : b;  \
    }                                                                                       \
    CK__HOT uint16_t ck__uf_fmin_##T##_##T(uint16_t a, uint16_t b) {                        \
        return (ck__widen_##T(a) <= ck__widen_##T(b) || ck__uf_isnan_bits_##T(b)) ? a : b;  \
    }                                                                                       \
    CK__HOT uint16_t ck__uf_ldexp_##T##_int32(uint16_t a, int32_t b) {                      \
        return ck__narrow_##T(ldexpf(ck__widen_##T(a), (int)b));                            \
    }                                                                                       \
    CK__HOT uint16_t ck__uf_ldexp_##T##_int64(uint16_t a, int64_t b) {                      \
        const int e = b > INT32_MAX ? INT32_MAX : b < INT32_MIN ? INT32_MIN : (int)b;       \
        return ck__narrow_##T(ldexpf(ck__widen_##T(a), e));                                 \
    }                                                                                       \
    CK__UF_DEF_NARROW1(sqrt, T, sqrtf(x))                                                   \
    CK__UF_DEF_NARROW1(square, T, x * x)                                                    \
    CK__UF_DEF_NARROW1(reciprocal, T, 1.0f / x)                                             \
    CK__UF_DEF_NARROW1(floor, T, CK__UF_ROUND(floorf, x))                                   \
    CK__UF_DEF_NARROW1(ceil, T, CK__UF_ROUND(ceilf, x))                                     \
    CK__UF_DEF_NARROW1(trunc, T, CK__UF_ROUND(truncf, x))                                   \
    CK__UF_DEF_NARROW1(rint, T, CK__UF_ROUND(rintf, x))                                     \
    CK__UF_DEF_NARROW1(deg2rad, T, ck__uf_deg2radf(x))                                      \
    CK__UF_DEF_NARROW1(rad2deg, T, ck__uf_rad2degf(x))                                      \
    CK__UF_DEF_NARROW2(floor_divide, T, ck__uf_floor_dividef(x, y))                         \
    CK__UF_DEF_NARROW2(remainder, T, ck__uf_remainderf(x, y))                               \
    CK__UF_DEF_NARROW2(fmod, T, fmodf(x, y))                                                \
    CK__UF_DEF_NARROW2(heaviside, T, ck__uf_heavisidef(x, y))

/* ======================================================================================
 * complex: T, its component type FT and libm suffix S.
 * ====================================================================================== */
/* NumPy's lexicographic order (a NaN imaginary part stops a decision by the real parts). */
#define CK__UF_NO_NAN(xi, yi) ((xi) == (xi) && (yi) == (yi))
#define CK__UF_CGT(xr, xi, yr, yi)                                                          \
    (((xr) > (yr) && CK__UF_NO_NAN(xi, yi)) || ((xr) == (yr) && (xi) > (yi)))
#define CK__UF_CLT(xr, xi, yr, yi)                                                          \
    (((xr) < (yr) && CK__UF_NO_NAN(xi, yi)) || ((xr) == (yr) && (xi) < (yi)))
#define CK__UF_CGE(xr, xi, yr, yi)                                                          \
    (((xr) > (yr) && CK__UF_NO_NAN(xi, yi)) || ((xr) == (yr) && (xi) >= (yi)))
#define CK__UF_CLE(xr, xi, yr, yi)                                                          \
    (((xr) < (yr) && CK__UF_NO_NAN(xi, yi)) || ((xr) == (yr) && (xi) <= (yi)))
#define CK__UF_DEF_COMPLEX(T, FT, S)                                                        \
    CK__HOT ck__ct_##T ck__uf_make_##T(FT re, FT im) {                                      \
        ck__ct_##T r = {{re, im}};                                                          \
        return r;                                                                           \
    }                                                                                       \
    CK__HOT FT ck__uf_absolute_##T(ck__ct_##T a) {                                          \
        return hypot##S(a.v[0], a.v[1]);                                                    \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_positive_##T(ck__ct_##T a) {                                  \
        return a;                                                                           \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_conjugate_##T(ck__ct_##T a) {                                 \
        return ck__uf_make_##T(a.v[0], -a.v[1]);                                            \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_sign_##T(ck__ct_##T a) {                                      \
        const FT r = a.v[0], i = a.v[1], z = 0;                                             \
        const FT s = CK__UF_CGT(r, i, z, z)   ? (FT)1                                       \
                     : CK__UF_CLT(r, i, z, z) ? (FT)-1                                      \
                     : (r == z && i == z)     ? z                                           \
                                              : (FT)NAN;                                    \
        return ck__uf_make_##T(s, z);                                                       \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_square_##T(ck__ct_##T a) { /* NumPy's: the product */         \
        return ck__multiply_##T(a, a);                                                      \
    }                                                                                       \
    /* NumPy's: divide by the larger part, as Smith's division of 1 by a. */                \
    CK__HOT ck__ct_##T ck__uf_reciprocal_##T(ck__ct_##T a) {                                \
        const FT r = a.v[0], i = a.v[1];                                                    \
        if (fabs##S(i) <= fabs##S(r)) {                                                     \
            const FT q = i / r;                                                             \
            FT t = i * q;                                                                   \
            CK__OPAQUE(t);                                                                  \
            const FT d = r + t;                                                             \
            return ck__uf_make_##T((FT)1 / d, -q / d);                                      \
        }                                                                                   \
        const FT q = r / i;                                                                 \
        FT t = r * q;                                                                       \
        CK__OPAQUE(t);                                                                      \
        const FT d = t + i;                                                                 \
        return ck__uf_make_##T(q / d, (FT)-1 / d);                                          \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_logical_not_##T(ck__ct_##T a) {                                  \
        return (uint8_t)(a.v[0] == 0 && a.v[1] == 0);                                       \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_isnan_##T(ck__ct_##T a) {                                        \
        return (uint8_t)(isnan(a.v[0]) || isnan(a.v[1]));                                   \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_isinf_##T(ck__ct_##T a) {                                        \
        return (uint8_t)(isinf(a.v[0]) || isinf(a.v[1]));                                   \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_isfinite_##T(ck__ct_##T a) {                                     \
        return (uint8_t)(isfinite(a.v[0]) && isfinite(a.v[1]));                             \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_rint_##T(ck__ct_##T a) {                                      \
        return ck__uf_make_##T(CK__UF_ROUND(rint##S, a.v[0]),                               \
                               CK__UF_ROUND(rint##S, a.v[1]));                              \
    }                                                                                       \
    CK__HOT uint8_t ck__uf_logical_xor_##T##_##T(ck__ct_##T a, ck__ct_##T b) {              \
        return (uint8_t)((a.v[0] != 0 || a.v[1] != 0) ^ (b.v[0] != 0 || b.v[1] != 0));      \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_fmax_##T##_##T(ck__ct_##T a, ck__ct_##T b) {                  \
        return CK__UF_CGE(a.v[0], a.v[1], b.v[0], b.v[1]) || b.v[0] != b.v[0] ||            \
                       b.v[1] != b.v[1]                                                     \
                   ? a                                                                      \
                   : b;                                                                     \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_fmin_##T##_##T(ck__ct_##T a, ck__ct_##T b) {                  \
        return CK__UF_CLE(a.v[0], a.v[1], b.v[0], b.v[1]) || b.v[0] != b.v[0] ||            \
                       b.v[1] != b.v[1]                                                     \
                   ? a                                                                      \
                   : b;                                                                     \
    }

/* ---- complex functions: libm's (C99 Annex G: its branch cuts and special values), as
 * NumPy's loops call them; exp2, expm1, log2, log10, log1p by NumPy's formulas over libm's
 * real and complex functions; power by NumPy's nc_pow (small integer exponents by
 * squaring with the textbook product, arith_ops.h's multiply, else libm's cpow) ---- */
#define CK__UF_CX_LIBM(name, T, CT, fn)                                                     \
    CK__HOT ck__ct_##T ck__uf_##name##_##T(ck__ct_##T a) {                                  \
        CT z;                                                                               \
        memcpy(&z, &a, sizeof z);                                                           \
        z = fn(z);                                                                          \
        memcpy(&a, &z, sizeof z);                                                           \
        return a;                                                                           \
    }
#define CK__UF_DEF_COMPLEX_MATH(T, FT, S, CT)                                               \
    CK__UF_CX_LIBM(exp, T, CT, cexp##S)                                                     \
    CK__UF_CX_LIBM(log, T, CT, clog##S)                                                     \
    CK__UF_CX_LIBM(sqrt, T, CT, csqrt##S)                                                   \
    CK__UF_CX_LIBM(sin, T, CT, csin##S)                                                     \
    CK__UF_CX_LIBM(cos, T, CT, ccos##S)                                                     \
    CK__UF_CX_LIBM(tan, T, CT, ctan##S)                                                     \
    CK__UF_CX_LIBM(arcsin, T, CT, casin##S)                                                 \
    CK__UF_CX_LIBM(arccos, T, CT, cacos##S)                                                 \
    CK__UF_CX_LIBM(arctan, T, CT, catan##S)                                                 \
    CK__UF_CX_LIBM(sinh, T, CT, csinh##S)                                                   \
    CK__UF_CX_LIBM(cosh, T, CT, ccosh##S)                                                   \
    CK__UF_CX_LIBM(tanh, T, CT, ctanh##S)                                                   \
    CK__UF_CX_LIBM(arcsinh, T, CT, casinh##S)                                               \
    CK__UF_CX_LIBM(arccosh, T, CT, cacosh##S)                                               \
    CK__UF_CX_LIBM(arctanh, T, CT, catanh##S)                                               \
    CK__HOT ck__ct_##T ck__uf_exp2_##T(ck__ct_##T a) {                                      \
        const FT ln2 = (FT)0.693147180559945309417232121458176568;                          \
        return ck__uf_exp_##T(ck__uf_make_##T(a.v[0] * ln2, a.v[1] * ln2));                 \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_log2_##T(ck__ct_##T a) {                                      \
        const FT log2e = (FT)1.442695040888963407359924681001892137;                        \
        const ck__ct_##T l = ck__uf_log_##T(a);                                             \
        return ck__uf_make_##T(l.v[0] * log2e, l.v[1] * log2e);                             \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_log10_##T(ck__ct_##T a) {                                     \
        const FT log10e = (FT)0.434294481903251827651128918916605082;                       \
        const ck__ct_##T l = ck__uf_log_##T(a);                                             \
        return ck__uf_make_##T(l.v[0] * log10e, l.v[1] * log10e);                           \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_expm1_##T(ck__ct_##T a) {                                     \
        const FT h = sin##S(a.v[1] / 2);                                                    \
        FT re = expm1##S(a.v[0]) * cos##S(a.v[1]), hh = 2 * h * h;                          \
        CK__OPAQUE(re);                                                                     \
        CK__OPAQUE(hh);                                                                     \
        return ck__uf_make_##T(re - hh, exp##S(a.v[0]) * sin##S(a.v[1]));                   \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_log1p_##T(ck__ct_##T a) {                                     \
        const FT l = hypot##S(a.v[0] + 1, a.v[1]);                                          \
        return ck__uf_make_##T(log##S(l), atan2##S(a.v[1], a.v[0] + 1));                    \
    }                                                                                       \
    CK__HOT ck__ct_##T ck__uf_power_##T##_##T(ck__ct_##T a, ck__ct_##T b) {                 \
        const FT ar = a.v[0], ai = a.v[1], br = b.v[0], bi = b.v[1];                        \
        if (br == 0 && bi == 0) {                                                           \
            return ck__uf_make_##T(1, 0);                                                   \
        }                                                                                   \
        if (ar == 0 && ai == 0) {                                                           \
            return br > 0 && bi == 0 ? ck__uf_make_##T(0, 0)                                \
                                     : ck__uf_make_##T((FT)NAN, (FT)NAN);                   \
        }                                                                                   \
        if (bi == 0 && br > -100 && br < 100 && (FT)(long)br == br) {                       \
            long n = (long)br;                                                              \
            if (n == 1) {                                                                   \
                return a;                                                                   \
            }                                                                               \
            if (n == 2) {                                                                   \
                return ck__multiply_##T(a, a);                                              \
            }                                                                               \
            if (n == 3) {                                                                   \
                return ck__multiply_##T(a, ck__multiply_##T(a, a));                         \
            }                                                                               \
            ck__ct_##T acc = ck__uf_make_##T(1, 0), p = a;                                  \
            n = n < 0 ? -n : n;                                                             \
            for (long mask = 1;; mask <<= 1) {                                              \
                if (n & mask) {                                                             \
                    acc = ck__multiply_##T(acc, p);                                         \
                }                                                                           \
                if (n < (mask << 1)) {                                                      \
                    break;                                                                  \
                }                                                                           \
                p = ck__multiply_##T(p, p);                                                 \
            }                                                                               \
            if (br < 0) { /* 1 / acc: Smith's division, as NumPy's */                       \
                acc = ck__trunc_divide_##T(ck__uf_make_##T(1, 0), acc);                     \
            }                                                                               \
            return acc;                                                                     \
        }                                                                                   \
        CT z, w;                                                                            \
        memcpy(&z, &a, sizeof z);                                                           \
        memcpy(&w, &b, sizeof w);                                                           \
        z = cpow##S(z, w);                                                                  \
        memcpy(&a, &z, sizeof z);                                                           \
        return a;                                                                           \
    }

/* ---- every scalar type by its kind ---- */
#define CK__UF_WIDE_1 unsigned
#define CK__UF_WIDE_2 unsigned
#define CK__UF_WIDE_4 uint32_t
#define CK__UF_WIDE_8 uint64_t
#define CK__UF_KIND_BOOL(n, psize, min)
#define CK__UF_KIND_SIGNED(n, psize, min)                                                   \
    CK__UF_DEF_INT(n, CK__SCALAR_UINT_##psize, CK__UF_WIDE_##psize, 1, 8 * psize, min)
#define CK__UF_KIND_UNSIGNED(n, psize, min)                                                 \
    CK__UF_DEF_INT(n, CK__SCALAR_UINT_##psize, CK__UF_WIDE_##psize, 0, 8 * psize, 0)
#define CK__UF_KIND_FLOAT(n, psize, min) CK__UF_KIND_FLOAT_##psize(n)
#define CK__UF_KIND_FLOAT_2(n) CK__UF_DEF_NARROW(n)
#define CK__UF_KIND_FLOAT_4(n) CK__UF_DEF_FLOAT(n, float, f)
#define CK__UF_KIND_FLOAT_8(n) CK__UF_DEF_FLOAT(n, double, )
#define CK__UF_KIND_COMPLEX(n, psize, min) CK__UF_KIND_COMPLEX_##psize(n)
#define CK__UF_KIND_COMPLEX_4(n)                                                            \
    CK__UF_DEF_COMPLEX(n, float, f) CK__UF_DEF_COMPLEX_MATH(n, float, f, float _Complex)
#define CK__UF_KIND_COMPLEX_8(n)                                                            \
    CK__UF_DEF_COMPLEX(n, double, ) CK__UF_DEF_COMPLEX_MATH(n, double, , double _Complex)
/* The signed types' minimum: the sign bit alone (the NA bits column holds it). */
#define CK__UF_KIND_ROW(E, n, part, psize, parts, kind, bits, exp, na, ...)                 \
    CK__UF_KIND_##kind(n, psize, (ck__ct_##n)(na))
CK_SCALAR_TABLE(CK__UF_KIND_ROW)

/* float_power of complex128: power's. */
#define ck__uf_float_power_complex128_complex128 ck__uf_power_complex128_complex128

/* ======================================================================================
 * Two results (ufunc_list.h's PAIR loops): the first returned, the second through *second.
 * divmod is floor_divide's and remainder's results, so the three agree on every value, as
 * NumPy's do; modf and frexp are libm's, float16 and bfloat16 through float32 (NumPy's).
 * ====================================================================================== */
#define CK__UF_DEF_DIVMOD_PAIR(T)                                                              \
    CK__HOT ck__ct_##T ck__uf_divmod_##T##_##T(ck__ct_##T a, ck__ct_##T b, ck__ct_##T *mod) { \
        *mod = ck__uf_remainder_##T##_##T(a, b);                                            \
        return ck__uf_floor_divide_##T##_##T(a, b);                                         \
    }
#define CK__UF_DEF_DIVMOD_ROW(E, n, part, psize, parts, kind, ...) CK__UF_DEF_DIVMOD_##kind(n)
#define CK__UF_DEF_DIVMOD_BOOL(n)
#define CK__UF_DEF_DIVMOD_SIGNED(n) CK__UF_DEF_DIVMOD_PAIR(n)
#define CK__UF_DEF_DIVMOD_UNSIGNED(n) CK__UF_DEF_DIVMOD_PAIR(n)
#define CK__UF_DEF_DIVMOD_FLOAT(n) CK__UF_DEF_DIVMOD_PAIR(n)
#define CK__UF_DEF_DIVMOD_COMPLEX(n)
CK_SCALAR_TABLE(CK__UF_DEF_DIVMOD_ROW)

#define CK__UF_DEF_MODF_FREXP(T, FT, S)                                                     \
    CK__HOT FT ck__uf_modf_##T(FT a, FT *integral) {                                        \
        return modf##S(a, integral);                                                        \
    }                                                                                       \
    CK__HOT FT ck__uf_frexp_##T(FT a, int32_t *exponent) {                                  \
        int e = 0;                                                                          \
        const FT m = frexp##S(a, &e);                                                       \
        *exponent = (int32_t)e;                                                             \
        return m;                                                                           \
    }
CK__UF_DEF_MODF_FREXP(float32, float, f)
CK__UF_DEF_MODF_FREXP(float64, double, )
#define CK__UF_DEF_MODF_FREXP_NARROW(T)                                                     \
    CK__HOT uint16_t ck__uf_modf_##T(uint16_t a, uint16_t *integral) {                      \
        float i;                                                                            \
        const float f = modff(ck__widen_##T(a), &i);                                        \
        *integral = ck__narrow_##T(i);                                                      \
        return ck__narrow_##T(f);                                                           \
    }                                                                                       \
    CK__HOT uint16_t ck__uf_frexp_##T(uint16_t a, int32_t *exponent) {                      \
        int e = 0;                                                                          \
        const float m = frexpf(ck__widen_##T(a), &e);                                       \
        *exponent = (int32_t)e;                                                             \
        return ck__narrow_##T(m);                                                           \
    }
CK__UF_DEF_MODF_FREXP_NARROW(float16)
CK__UF_DEF_MODF_FREXP_NARROW(bfloat16)

/* ======================================================================================
 * numexpr's functions that NumPy spells otherwise: copy(x), ones_like(x), real(x), imag(x)
 * of every type (a real type's real part is itself, its imaginary part +0), and
 * complex(re, im) (make_complex) of float32 and float64
 * ====================================================================================== */
#define CK__UF_ONE_BOOL(n) 1
#define CK__UF_ONE_SIGNED(n) 1
#define CK__UF_ONE_UNSIGNED(n) 1
#define CK__UF_ONE_FLOAT(n) CK__UF_ONE_FLOAT_##n
#define CK__UF_ONE_FLOAT_float16 0x3c00u /* the bits of 1 */
#define CK__UF_ONE_FLOAT_bfloat16 0x3f80u
#define CK__UF_ONE_FLOAT_float32 1.0f
#define CK__UF_ONE_FLOAT_float64 1.0
#define CK__UF_DEF_REAL_PARTS(n)                                                            \
    CK__HOT ck__ct_##n ck__uf_real_##n(ck__ct_##n a) {                                      \
        return a;                                                                           \
    }                                                                                       \
    CK__HOT ck__ct_##n ck__uf_imag_##n(ck__ct_##n a) {                                      \
        (void)a;                                                                            \
        return (ck__ct_##n)0;                                                               \
    }
#define CK__UF_DEF_NX_BOOL(n) CK__UF_DEF_REAL_PARTS(n)
#define CK__UF_DEF_NX_SIGNED(n) CK__UF_DEF_REAL_PARTS(n)
#define CK__UF_DEF_NX_UNSIGNED(n) CK__UF_DEF_REAL_PARTS(n)
#define CK__UF_DEF_NX_FLOAT(n) CK__UF_DEF_REAL_PARTS(n)
#define CK__UF_DEF_NX_COMPLEX(n)                                                            \
    CK__HOT ck__ct_##n ck__uf_ones_like_##n(ck__ct_##n a) {                                 \
        (void)a;                                                                            \
        return ck__uf_make_##n(1, 0);                                                       \
    }
#define CK__UF_DEF_NX_ONE(n, kind)                                                          \
    CK__HOT ck__ct_##n ck__uf_ones_like_##n(ck__ct_##n a) {                                 \
        (void)a;                                                                            \
        return (ck__ct_##n)CK__UF_ONE_##kind(n);                                            \
    }
#define CK__UF_DEF_NX_ONE_COMPLEX(n, kind)
#define CK__UF_DEF_NX_ONE_BOOL(n, kind) CK__UF_DEF_NX_ONE(n, kind)
#define CK__UF_DEF_NX_ONE_SIGNED(n, kind) CK__UF_DEF_NX_ONE(n, kind)
#define CK__UF_DEF_NX_ONE_UNSIGNED(n, kind) CK__UF_DEF_NX_ONE(n, kind)
#define CK__UF_DEF_NX_ONE_FLOAT(n, kind) CK__UF_DEF_NX_ONE(n, kind)
#define CK__UF_DEF_NX_ROW(E, n, part, psize, parts, kind, ...)                              \
    CK__HOT ck__ct_##n ck__uf_copy_##n(ck__ct_##n a) {                                      \
        return a;                                                                           \
    }                                                                                       \
    CK__UF_DEF_NX_##kind(n) CK__UF_DEF_NX_ONE_##kind(n, kind)
CK_SCALAR_TABLE(CK__UF_DEF_NX_ROW)
CK__HOT float ck__uf_real_complex64(ck__ct_complex64 a) {
    return a.v[0];
}
CK__HOT float ck__uf_imag_complex64(ck__ct_complex64 a) {
    return a.v[1];
}
CK__HOT double ck__uf_real_complex128(ck__ct_complex128 a) {
    return a.v[0];
}
CK__HOT double ck__uf_imag_complex128(ck__ct_complex128 a) {
    return a.v[1];
}
CK__HOT ck__ct_complex64 ck__uf_make_complex_float32_float32(float re, float im) {
    return ck__uf_make_complex64(re, im);
}
CK__HOT ck__ct_complex128 ck__uf_make_complex_float64_float64(double re, double im) {
    return ck__uf_make_complex128(re, im);
}

#ifdef __cplusplus
}
#endif

#endif
