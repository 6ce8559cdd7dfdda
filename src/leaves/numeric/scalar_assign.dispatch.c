/* src/leaves/numeric/scalar_assign.dispatch.c: the scalar assignment leaves, every (dst, src) pair
 * of the scalar table's types in every concrete error mode, single and strided, per
 * docs/design.md §7.
 *
 * This file is compiled once per CPU target with CK_CPU_TARGET_CURRENT defined (baseline,
 * avx2, avx512; on aarch64 baseline, asimdhp, sve); every non-static symbol is spelled through CK_TARGET_NAME, so the table is
 * ck__scalar_leaves_baseline, ck__scalar_leaves_avx2, ... Everything else is static.
 *
 * How a conversion is put together (one macro family per concern):
 *   1. read:  each source type is read into a canonical value of its class:
 *             i = int64_t (bool and signed ints), u = uint64_t (unsigned ints),
 *             f = double (float16, float64), s = float (float32 and bfloat16, whose
 *             values are floats exactly; converted to double,
 *             exactly, wherever a check needs it: the nocheck float32 -> int saturation
 *             is done in float because gcc narrows double comparisons of a float back to
 *             float and then no longer vectorizes the loop),
 *             c = a pair of doubles (complex64, complex128).
 *   2. store: each destination type has one store function per class (st_<dst>_<class>)
 *             that applies the rules of §7, writes the element only on success, and
 *             returns the status. The mode is a parameter that is always a compile-time
 *             constant, so after inlining the nocheck stores have no checks at all.
 *   3. leaf:  per pair and mode, a single and a strided function; the strided one has a
 *             contiguous fast path whose nocheck loop the compiler vectorizes, a path for
 *             a broadcast (stride 0) source that converts once, and the general loop.
 * Same-type pairs are bit-exact copies in every mode. Pairs where every source value is
 * exactly representable in the destination (int8 -> int32, float32 -> float64, ...) cannot
 * fail, so their checked leaves are compiled as nocheck (and vectorize too).
 *
 * Errors are reported by one cold function that re-reads the failing source element and
 * formats the message; a checked result, when there is no error, always equals the nocheck
 * result, which the INEXACT message uses to print what the value would have become.
 *
 * Leaves assume aligned elements: the composition wraps them in the unaligned kernel
 * otherwise. No C undefined behaviour: every float -> int cast is of a value already known
 * to be in range (clamped in nocheck, checked otherwise). int -> narrower signed int uses
 * the implementation-defined modulo conversion of gcc and clang (two's complement wrap). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/float_formats.h"
#include "common/internal.h"
#include "targets/dispatch_target.h"
#include "leaves/numeric/scalar_leaves.h"
#include "leaves/simd/simd.h"
#include "common/scalars.h"
#include "values/numtext.h"

/* ---- element storage ---- */
/* The canonical value of a complex source. */
typedef struct ck__cpair {
    double re, im;
} ck__cpair;

/* ---- the types, from the scalar table (common/scalars.h): CK__CT(int8) is int8_t, CK__ID
 * its id, CK__KIND and CK__BITS its kind and value bits (magnitude or significand),
 * CK__EXP its exponent bits ---- */
#define CK__CT(T) ck__ct_##T
#define CK__ID(T) ck__id_##T
#define CK__KIND(T) ck__kind_##T
#define CK__BITS(T) ck__bits_##T
#define CK__EXP(T) ck__exp_bits_##T

/* 1 when every value of the source kind/bits/exponent bits is exactly a value of the
 * destination, so no check can fail. Called with constants only: it folds away. */
static inline int ck__lossless(int dk, int db, int de, int sk, int sb, int se) {
    if (sk == CK__SCALAR_KIND_BOOL) {
        return 1; /* 0 and 1 fit everywhere */
    }
    switch (dk) {
    case CK__SCALAR_KIND_SIGNED:
        return (sk == CK__SCALAR_KIND_SIGNED || sk == CK__SCALAR_KIND_UNSIGNED) && sb <= db;
    case CK__SCALAR_KIND_UNSIGNED:
        return sk == CK__SCALAR_KIND_UNSIGNED && sb <= db;
    case CK__SCALAR_KIND_FLOAT: /* ints by magnitude bits, floats by precision and range */
        return sk != CK__SCALAR_KIND_COMPLEX && sb <= db && se <= de;
    case CK__SCALAR_KIND_COMPLEX:
        return sb <= db && se <= de;
    default:
        return 0; /* bool destinations: only bool (a copy) */
    }
}
#define CK__EFFECTIVE_MODE(D, S, mode)                                                      \
    (ck__lossless(CK__KIND(D), CK__BITS(D), CK__EXP(D), CK__KIND(S), CK__BITS(S),           \
                  CK__EXP(S))                                                                 \
         ? CK_ERRMODE_NOCHECK                                                                 \
         : (mode))

/* ======================================================================================
 * 1. Reading a source element into its canonical value.
 * ====================================================================================== */
CK__HOT int64_t rd_bool(const uint8_t *p) {
    return *p != 0; /* any non-zero byte is true */
}
CK__HOT int64_t rd_int8(const int8_t *p) {
    return *p;
}
CK__HOT int64_t rd_int16(const int16_t *p) {
    return *p;
}
CK__HOT int64_t rd_int32(const int32_t *p) {
    return *p;
}
CK__HOT int64_t rd_int64(const int64_t *p) {
    return *p;
}
CK__HOT uint64_t rd_uint8(const uint8_t *p) {
    return *p;
}
CK__HOT uint64_t rd_uint16(const uint16_t *p) {
    return *p;
}
CK__HOT uint64_t rd_uint32(const uint32_t *p) {
    return *p;
}
CK__HOT uint64_t rd_uint64(const uint64_t *p) {
    return *p;
}
CK__HOT double rd_float16(const uint16_t *p) {
    return ck__half_to_double(*p);
}
CK__HOT float rd_bfloat16(const uint16_t *p) {
    return ck__bfloat16_to_float(*p);
}
CK__HOT float rd_float32(const float *p) {
    return *p;
}
CK__HOT double rd_float64(const double *p) {
    return *p;
}
CK__HOT ck__cpair rd_complex64(const ck__ct_complex64 *p) {
    ck__cpair c = {ck__float_to_double(p->v[0]), ck__float_to_double(p->v[1])};
    return c;
}
CK__HOT ck__cpair rd_complex128(const ck__ct_complex128 *p) {
    ck__cpair c = {p->v[0], p->v[1]};
    return c;
}

/* ======================================================================================
 * 2. Storing a canonical value into a destination: st_<dst>_<class>(out, value, mode).
 * Checked modes include the checks of the modes before them, so each check is guarded
 * by `mode >= <the mode that introduces it>`.
 * ====================================================================================== */
#define CK__CHECKED(mode) ((mode) >= CK_ERRMODE_OVERFLOW)
#define CK__FRACTIONAL(mode) ((mode) >= CK_ERRMODE_FRACTIONAL)
#define CK__INEXACT(mode) ((mode) >= CK_ERRMODE_INEXACT)

/* A float32 source into a destination whose rules do not need float arithmetic: through
 * double, exactly. */
#define CK__DEF_STORE_FROM_SINGLE(D)                                                        \
    CK__HOT int st_##D##_s(CK__CT(D) * o, float v, const int mode) {                        \
        return st_##D##_f(o, ck__float_to_double(v), mode);                                 \
    }

/* A complex source into a real (or bool) destination: in checked modes a non-zero
 * imaginary part (NaN included: NaN != 0) is an error before anything else; then the real
 * part follows the rules of a real source. */
#define CK__DEF_STORE_FROM_COMPLEX(D)                                                       \
    CK__HOT int st_##D##_c(CK__CT(D) * o, ck__cpair v, const int mode) {                    \
        if (CK__CHECKED(mode) && v.im != 0) {                                               \
            return CK_ERR_IMAGINARY;                                                        \
        }                                                                                   \
        return st_##D##_f(o, v.re, mode);                                                   \
    }                                                                                       \
    CK__DEF_CHECK_NONE(D, c, ck__cpair)

/* chk_<dst>_<class>(value, r, mode), for the block loops (see CK__BLOCKABLE): given a
 * source value and its nocheck result r, 1 exactly when the checked store of the value
 * fails (when it does not, the checked result is r). Only loads, compares and bit
 * operations: a block of them vectorizes (gcc keeps branches, and then scalar code, for
 * selects against constants that a later test can be threaded through). Pairs that are
 * not blocked get this stand-in, never called. */
#define CK__DEF_CHECK_NONE(D, CLS, VT)                                                      \
    CK__HOT int chk_##D##_##CLS(VT v, CK__CT(D) r, const int mode) {                        \
        (void)v;                                                                            \
        (void)r;                                                                            \
        (void)mode;                                                                         \
        return 1;                                                                           \
    }

/* ---- bool: nocheck x != 0; checked: the value must be exactly 0 or 1 ---- */
CK__HOT int st_bool_i(uint8_t *o, int64_t v, const int mode) {
    if (CK__CHECKED(mode) && (v != 0 && v != 1)) {
        return CK_ERR_OVERFLOW;
    }
    *o = (uint8_t)(v != 0);
    return CK_OK;
}
CK__HOT int st_bool_u(uint8_t *o, uint64_t v, const int mode) {
    if (CK__CHECKED(mode) && v > 1) {
        return CK_ERR_OVERFLOW;
    }
    *o = (uint8_t)(v != 0);
    return CK_OK;
}
CK__HOT int st_bool_f(uint8_t *o, double v, const int mode) {
    if (CK__CHECKED(mode) && !(v == 0 || v == 1)) { /* NaN fails too */
        return CK_ERR_OVERFLOW;
    }
    *o = (uint8_t)(v != 0); /* NaN != 0: true */
    return CK_OK;
}
CK__DEF_STORE_FROM_SINGLE(bool)
CK__HOT int chk_bool_i(int64_t v, uint8_t r, const int mode) {
    (void)mode;
    return v != (int64_t)r; /* r is v != 0: equal for 0 and 1 only */
}
CK__HOT int chk_bool_u(uint64_t v, uint8_t r, const int mode) {
    (void)mode;
    return v != (uint64_t)r;
}
CK__HOT int chk_bool_f(double v, uint8_t r, const int mode) {
    (void)mode;
    return v != (double)r; /* NaN: true */
}
CK__HOT int chk_bool_s(float v, uint8_t r, const int mode) {
    return chk_bool_f((double)v, r, mode);
}
CK__DEF_CHECK_NONE(bool, c, ck__cpair)
CK__HOT int st_bool_c(uint8_t *o, ck__cpair v, const int mode) {
    if (CK__CHECKED(mode)) {
        if (v.im != 0) {
            return CK_ERR_IMAGINARY;
        }
        return st_bool_f(o, v.re, mode);
    }
    *o = (uint8_t)(v.re != 0 || v.im != 0);
    return CK_OK;
}

/* ---- integers ----
 * From integers: nocheck wraps (modulo 2^bits), checked modes check the range.
 * From floats: nocheck truncates toward zero and saturates, NaN -> 0; checked: NaN or a
 * truncated value out of range is OVERFLOW (range first), then in FRACTIONAL and INEXACT
 * a non-integral value is FRACTIONAL.
 * Bounds, all exact:
 *   LO_EXCL   the largest double whose truncation is below MIN (MIN - 1, or for int64 the
 *             double just below -2^63, since -2^63 - 1 is not a double)
 *   HI_EXCL   2^k = MAX + 1: every value >= it truncates above MAX
 *   HI_CLAMP  the largest double <= MAX, and HI_CLAMP_F the largest float <= MAX: MAX
 *             itself when it is exact; otherwise the value just below 2^k, and values
 *             >= HI_EXCL are set to MAX after the cast.
 * The nocheck paths only ever cast a value clamped into [MIN, HI_CLAMP], so the cast is
 * defined, and they are branch-free selects: they vectorize. */
#define CK__DEF_SINT_STORES(D, MIN, MAX, LO_EXCL, HI_EXCL, HI_CLAMP, HI_CLAMP_F)            \
    CK__HOT int st_##D##_i(CK__CT(D) * o, int64_t v, const int mode) {                      \
        if (CK__CHECKED(mode) && (v < (MIN) || v > (MAX))) {                                \
            return CK_ERR_OVERFLOW;                                                         \
        }                                                                                   \
        *o = (CK__CT(D))v;                                                                  \
        return CK_OK;                                                                       \
    }                                                                                       \
    CK__HOT int st_##D##_u(CK__CT(D) * o, uint64_t v, const int mode) {                     \
        if (CK__CHECKED(mode) && v > (uint64_t)(MAX)) {                                     \
            return CK_ERR_OVERFLOW;                                                         \
        }                                                                                   \
        *o = (CK__CT(D))v;                                                                  \
        return CK_OK;                                                                       \
    }                                                                                       \
    /* r is v wrapped: in range exactly when it is v */                                    \
    CK__HOT int chk_##D##_i(int64_t v, CK__CT(D) r, const int mode) {                       \
        (void)mode;                                                                         \
        return (int64_t)r != v;                                                             \
    }                                                                                       \
    CK__HOT int chk_##D##_u(uint64_t v, CK__CT(D) r, const int mode) {                      \
        (void)mode;                                                                         \
        return ((int64_t)r < 0) | ((uint64_t)(int64_t)r != v);                              \
    }                                                                                       \
    CK__DEF_FLOAT_TO_INT_STORES(D, MIN, MAX, LO_EXCL, HI_EXCL, HI_CLAMP, HI_CLAMP_F)

#define CK__DEF_UINT_STORES(D, MAX, HI_EXCL, HI_CLAMP, HI_CLAMP_F)                          \
    CK__HOT int st_##D##_i(CK__CT(D) * o, int64_t v, const int mode) {                      \
        if (CK__CHECKED(mode) && (v < 0 || (uint64_t)v > (MAX))) {                          \
            return CK_ERR_OVERFLOW;                                                         \
        }                                                                                   \
        *o = (CK__CT(D))v;                                                                  \
        return CK_OK;                                                                       \
    }                                                                                       \
    CK__HOT int st_##D##_u(CK__CT(D) * o, uint64_t v, const int mode) {                     \
        if (CK__CHECKED(mode) && v > (MAX)) {                                               \
            return CK_ERR_OVERFLOW;                                                         \
        }                                                                                   \
        *o = (CK__CT(D))v;                                                                  \
        return CK_OK;                                                                       \
    }                                                                                       \
    CK__HOT int chk_##D##_i(int64_t v, CK__CT(D) r, const int mode) {                       \
        (void)mode;                                                                         \
        return (v < 0) | ((uint64_t)r != (uint64_t)v);                                      \
    }                                                                                       \
    CK__HOT int chk_##D##_u(uint64_t v, CK__CT(D) r, const int mode) {                      \
        (void)mode;                                                                         \
        return (uint64_t)r != v;                                                            \
    }                                                                                       \
    CK__DEF_FLOAT_TO_INT_STORES(D, 0, MAX, -1.0, HI_EXCL, HI_CLAMP, HI_CLAMP_F)

/* Saturating truncation of v (of type FT, already not NaN-checked) into D, clamping with
 * FT bounds; the `if` on constants folds away. */
#define CK__SATURATE(D, FT, v, MIN, MAX, HI_EXCL, HI_CLAMP)                                 \
    FT c = (v) == (v) ? (v) : (FT)0; /* NaN -> 0 */                                         \
    c = c < (FT)(MIN) ? (FT)(MIN) : c;                                                      \
    c = c > (HI_CLAMP) ? (HI_CLAMP) : c;                                                    \
    CK__CT(D) r = (CK__CT(D))c;                                                             \
    if ((double)(HI_CLAMP) != (double)(MAX)) { /* MAX is not exact in FT */                 \
        r = (v) >= (FT)(HI_EXCL) ? (CK__CT(D))(MAX) : r;                                    \
    }                                                                                       \
    *o = r;                                                                                 \
    return CK_OK

#define CK__DEF_FLOAT_TO_INT_STORES(D, MIN, MAX, LO_EXCL, HI_EXCL, HI_CLAMP, HI_CLAMP_F)    \
    CK__HOT int st_##D##_f(CK__CT(D) * o, double v, const int mode) {                       \
        if (CK__CHECKED(mode)) {                                                            \
            if (!(v > (LO_EXCL) && v < (HI_EXCL))) { /* NaN fails too */                    \
                return CK_ERR_OVERFLOW;                                                     \
            }                                                                               \
            CK__CT(D) r = (CK__CT(D))v; /* in range: truncation is defined */               \
            if (CK__FRACTIONAL(mode) && (double)r != v) {                                   \
                return CK_ERR_FRACTIONAL;                                                   \
            }                                                                               \
            *o = r;                                                                         \
            return CK_OK;                                                                   \
        }                                                                                   \
        CK__SATURATE(D, double, v, MIN, MAX, HI_EXCL, HI_CLAMP);                            \
    }                                                                                       \
    CK__HOT int st_##D##_s(CK__CT(D) * o, float v, const int mode) {                        \
        if (CK__CHECKED(mode)) {                                                            \
            return st_##D##_f(o, (double)v, mode);                                          \
        }                                                                                   \
        CK__SATURATE(D, float, v, MIN, MAX, HI_EXCL, HI_CLAMP_F);                           \
    }                                                                                       \
    /* r is v truncated and saturated (NaN -> 0). Integral and in range: r is v, and v is   \
     * below HI_EXCL (2^63 saturates to INT64_MAX, whose double is 2^63). In range: v - r,  \
     * exact near the range (and large away from it), is in (-1, 1), and again v is below  \
     * HI_EXCL; NaN fails both. */                                                          \
    CK__HOT int chk_##D##_f(double v, CK__CT(D) r, const int mode) {                        \
        double b = (double)r;                                                               \
        int bad = v >= (HI_EXCL);                                                           \
        if (CK__FRACTIONAL(mode)) {                                                         \
            return bad | (b != v);                                                          \
        }                                                                                   \
        double diff = v - b;                                                                \
        return bad | ((diff < 1.0) == 0) | ((diff > -1.0) == 0);                            \
    }                                                                                       \
    CK__HOT int chk_##D##_s(float v, CK__CT(D) r, const int mode) {                         \
        return chk_##D##_f((double)v, r, mode);                                             \
    }                                                                                       \
    CK__DEF_STORE_FROM_COMPLEX(D)

/* clang-format off */
/*                  type   MIN        MAX        LO_EXCL                HI_EXCL
 *                         HI_CLAMP                 HI_CLAMP_F */
CK__DEF_SINT_STORES(int8,  INT8_MIN,  INT8_MAX,  -129.0,                128.0,
                           127.0,                   127.0f)
CK__DEF_SINT_STORES(int16, INT16_MIN, INT16_MAX, -32769.0,              32768.0,
                           32767.0,                 32767.0f)
CK__DEF_SINT_STORES(int32, INT32_MIN, INT32_MAX, -2147483649.0,         2147483648.0,
                           2147483647.0,            0x1.fffffep30f)
CK__DEF_SINT_STORES(int64, INT64_MIN, INT64_MAX, -0x1.0000000000001p63, 0x1p63,
                           0x1.fffffffffffffp62,    0x1.fffffep62f)
/*                  type    MAX         HI_EXCL       HI_CLAMP              HI_CLAMP_F */
CK__DEF_UINT_STORES(uint8,  UINT8_MAX,  256.0,        255.0,                255.0f)
CK__DEF_UINT_STORES(uint16, UINT16_MAX, 65536.0,      65535.0,              65535.0f)
CK__DEF_UINT_STORES(uint32, UINT32_MAX, 4294967296.0, 4294967295.0,         0x1.fffffep31f)
CK__DEF_UINT_STORES(uint64, UINT64_MAX, 0x1p64,       0x1.fffffffffffffp63, 0x1.fffffep63f)
/* clang-format on */

/* ---- real floats ----
 * ROUND(double) rounds to the destination (IEEE round to nearest even, overflow -> ±inf),
 * BACK(T) converts the result back to double (exactly). From integers: nocheck rounds to
 * nearest (one rounding: int64 -> double is exact whenever the half result is finite, and
 * C's int -> float conversions round once); checked: a finite source that becomes inf is
 * OVERFLOW (float16 only); INEXACT: the result must convert back to the source value.
 * From floats: the same, with NaN -> NaN allowed in INEXACT. */
#define CK__DEF_FLOAT_STORES(D, FROM_I64, FROM_U64, ROUND, BACK)                            \
    CK__HOT int st_##D##_i(CK__CT(D) * o, int64_t v, const int mode) {                      \
        CK__CT(D) r = FROM_I64(v);                                                          \
        if (CK__CHECKED(mode)) {                                                            \
            double b = BACK(r);                                                             \
            if (isinf(b)) {                                                                 \
                return CK_ERR_OVERFLOW;                                                     \
            }                                                                               \
            /* b is an integer in [-2^63, 2^63]; only 2^63 is out of int64's range */       \
            if (CK__INEXACT(mode) && (b >= 0x1p63 || (int64_t)b != v)) {                    \
                return CK_ERR_INEXACT;                                                      \
            }                                                                               \
        }                                                                                   \
        *o = r;                                                                             \
        return CK_OK;                                                                       \
    }                                                                                       \
    CK__HOT int st_##D##_u(CK__CT(D) * o, uint64_t v, const int mode) {                     \
        CK__CT(D) r = FROM_U64(v);                                                          \
        if (CK__CHECKED(mode)) {                                                            \
            double b = BACK(r);                                                             \
            if (isinf(b)) {                                                                 \
                return CK_ERR_OVERFLOW;                                                     \
            }                                                                               \
            if (CK__INEXACT(mode) && (b >= 0x1p64 || (uint64_t)b != v)) {                   \
                return CK_ERR_INEXACT;                                                      \
            }                                                                               \
        }                                                                                   \
        *o = r;                                                                             \
        return CK_OK;                                                                       \
    }                                                                                       \
    CK__HOT int st_##D##_f(CK__CT(D) * o, double v, const int mode) {                       \
        CK__CT(D) r = ROUND(v);                                                             \
        if (CK__CHECKED(mode)) {                                                            \
            double b = BACK(r);                                                             \
            if (isinf(b) && !isinf(v)) {                                                    \
                return CK_ERR_OVERFLOW;                                                     \
            }                                                                               \
            if (CK__INEXACT(mode) && b != v && v == v) {                                    \
                return CK_ERR_INEXACT;                                                      \
            }                                                                               \
        }                                                                                   \
        *o = r;                                                                             \
        return CK_OK;                                                                       \
    }                                                                                       \
    CK__DEF_CHECK_NONE(D, i, int64_t)                                                       \
    CK__DEF_CHECK_NONE(D, u, uint64_t)                                                      \
    CK__HOT int chk_##D##_f(double v, CK__CT(D) r, const int mode) {                        \
        double b = BACK(r);                                                                 \
        return (ck__isinf(b) & (ck__isinf(v) == 0)) |                                       \
               (CK__INEXACT(mode) & (b != v) & (v == v));                                   \
    }                                                                                       \
    CK__DEF_STORE_FROM_COMPLEX(D)

/* float32 and float64 from a float32 source: through double, exactly. */
#define CK__DEF_FLOAT_FROM_SINGLE(D)                                                        \
    CK__DEF_STORE_FROM_SINGLE(D)                                                            \
    CK__HOT int chk_##D##_s(float v, CK__CT(D) r, const int mode) {                         \
        return chk_##D##_f(ck__float_to_double(v), r, mode);                                \
    }

/* Branch-free isinf (C's isinf may be a library call or a branch). */
CK__HOT int ck__isinf(double x) {
    return (x == HUGE_VAL) | (x == -HUGE_VAL);
}
CK__HOT int ck__isinff(float x) {
    return (x == HUGE_VALF) | (x == -HUGE_VALF);
}

#define CK__HALF_FROM_I64(v) ck__double_to_half((double)(v))
#define CK__HALF_FROM_U64(v) ck__double_to_half((double)(v))
#define CK__F32_CONV(v) ((float)(v))
#define CK__F64_CONV(v) ((double)(v))

CK__DEF_FLOAT_STORES(float16, CK__HALF_FROM_I64, CK__HALF_FROM_U64, ck__double_to_half,
                     ck__half_to_double)
CK__DEF_FLOAT_STORES(bfloat16, ck__i64_to_bfloat16, ck__u64_to_bfloat16, ck__double_to_bfloat16,
                     ck__bfloat16_to_double)
CK__DEF_FLOAT_STORES(float32, CK__F32_CONV, CK__F32_CONV, CK__F32_CONV, CK__F64_CONV)
CK__DEF_FLOAT_STORES(float64, CK__F64_CONV, CK__F64_CONV, CK__F64_CONV, CK__F64_CONV)
CK__DEF_FLOAT_FROM_SINGLE(float32)
CK__DEF_FLOAT_FROM_SINGLE(float64)

/* float32 (or bfloat16, read as a float) -> float16 or bfloat16 directly from the float (one
 * rounding, as from the exact double), in float arithmetic, so that the loop vectorizes on
 * every target; the same rules as st_<type>_f. */
#define CK__DEF_NARROW_FROM_SINGLE(T)                                                       \
    CK__HOT int st_##T##_s(uint16_t *o, float v, const int mode) {                          \
        const uint16_t r = ck__narrow_##T(v);                                               \
        if (CK__CHECKED(mode)) {                                                            \
            const float b = ck__widen_##T(r);                                               \
            if (ck__isinff(b) && !ck__isinff(v)) {                                          \
                return CK_ERR_OVERFLOW;                                                     \
            }                                                                               \
            if (CK__INEXACT(mode) && b != v && v == v) {                                    \
                return CK_ERR_INEXACT;                                                      \
            }                                                                               \
        }                                                                                   \
        *o = r;                                                                             \
        return CK_OK;                                                                       \
    }                                                                                       \
    CK__HOT int chk_##T##_s(float v, uint16_t r, const int mode) {                          \
        const float b = ck__widen_##T(r);                                                   \
        return (ck__isinff(b) & (ck__isinff(v) == 0)) |                                     \
               (CK__INEXACT(mode) & (b != v) & (v == v));                                   \
    }
CK__DEF_NARROW_FROM_SINGLE(float16)
CK__DEF_NARROW_FROM_SINGLE(bfloat16)

/* ---- complex: each part by the rules of the component type; a real source gives an
 * imaginary part of +0. Both parts are checked before either is written. ---- */
/* A real source kind K (value type T) into complex D: the real part by COMP's rules. */
#define CK__DEF_COMPLEX_FROM_REAL(D, COMP, K, T)                                            \
    CK__HOT int st_##D##_##K(CK__CT(D) * o, T v, const int mode) {                          \
        CK__CT(COMP) re;                                                                    \
        int rc = st_##COMP##_##K(&re, v, mode);                                             \
        if (rc != CK_OK) {                                                                  \
            return rc;                                                                      \
        }                                                                                   \
        o->v[0] = re;                                                                       \
        o->v[1] = 0;                                                                        \
        return CK_OK;                                                                       \
    }
#define CK__DEF_COMPLEX_STORES(D, COMP)                                                     \
    CK__DEF_COMPLEX_FROM_REAL(D, COMP, i, int64_t)                                          \
    CK__DEF_COMPLEX_FROM_REAL(D, COMP, u, uint64_t)                                         \
    CK__DEF_COMPLEX_FROM_REAL(D, COMP, f, double)                                           \
    CK__HOT int st_##D##_s(CK__CT(D) * o, float v, const int mode) {                        \
        return st_##D##_f(o, ck__float_to_double(v), mode);                                 \
    }                                                                                       \
    CK__HOT int st_##D##_c(CK__CT(D) * o, ck__cpair v, const int mode) {                    \
        CK__CT(COMP) re, im;                                                                \
        int rc = st_##COMP##_f(&re, v.re, mode);                                            \
        if (rc == CK_OK) {                                                                  \
            rc = st_##COMP##_f(&im, v.im, mode);                                            \
        }                                                                                   \
        if (rc != CK_OK) {                                                                  \
            return rc;                                                                      \
        }                                                                                   \
        o->v[0] = re;                                                                       \
        o->v[1] = im;                                                                       \
        return CK_OK;                                                                       \
    }

CK__DEF_COMPLEX_STORES(complex64, float32)
CK__DEF_COMPLEX_STORES(complex128, float64)
#define CK__DEF_COMPLEX_CHECKS_NONE(D)                                                      \
    CK__DEF_CHECK_NONE(D, i, int64_t)                                                       \
    CK__DEF_CHECK_NONE(D, u, uint64_t)                                                      \
    CK__DEF_CHECK_NONE(D, f, double)                                                        \
    CK__DEF_CHECK_NONE(D, s, float)                                                         \
    CK__DEF_CHECK_NONE(D, c, ck__cpair)
CK__DEF_COMPLEX_CHECKS_NONE(complex64)
CK__DEF_COMPLEX_CHECKS_NONE(complex128)

/* ======================================================================================
 * Error messages (cold): "<src> value <v> is out of range for <dst>" and friends.
 * ====================================================================================== */
/* The value of one element of scalar type `id` at p (aligned), as literals print it
 * (arrays/literal_format.c): floats with the fewest digits that identify them in their own
 * type, or, when `exact`, in double: a float32 0.1f then prints as 0.10000000149011612,
 * which shows why it is inexact. Complex values in Python's spelling, "(-10.25+0.125j)". */
#define CK__VALUE_TEXT 96
static void ck__format_element(char buf[CK__VALUE_TEXT], int id, const char *p, int exact) {
    const size_t cap = CK__VALUE_TEXT;
    char text[40];
    if (id == CK_TYPE_BOOL) {
        snprintf(buf, cap, "%s", *(const uint8_t *)p != 0 ? "true" : "false");
        return;
    }
    if (!ck__scalar_is_floating((ck_type_id)id)) {
        (void)ck__format_number(id, p, 0, text);
        snprintf(buf, cap, "%s", text);
        return;
    }
    const ck__fkind k = ck__fkind_of(id), shown = exact ? CK__F64 : k;
    if (!ck__scalar_is_complex((ck_type_id)id)) {
        (void)ck__format_float(ck__fkind_load(k, p), shown, 0, text);
        snprintf(buf, cap, "%s", text);
        return;
    }
    char im[40];
    (void)ck__format_float(ck__fkind_load(k, p), shown, 0, text);
    (void)ck__format_float(ck__fkind_load(k, p + ck__scalar_info((ck_type_id)id)->part_size),
                           shown, 0, im);
    snprintf(buf, cap, "(%s%s%sj)", text, im[0] == '-' ? "" : "+", im);
}

/* Records the message for a failed element and returns `status`. `nocheck` is the pair's
 * nocheck single leaf, which gives what the value would have become (it is passed in,
 * rather than looked up in the table, so that the table is not reachable from every leaf:
 * that made clang's inliner iterate over one call-graph cycle of all 3136 functions). */
static CK__COLD int ck__leaf_error(int status, int dst_id, int src_id, char *src_elem,
                                   ck_single_fn nocheck) {
    const char *dn = ck_type_id_name((ck_type_id)dst_id);
    const char *sn = ck_type_id_name((ck_type_id)src_id);
    char value[CK__VALUE_TEXT];
    ck__format_element(value, src_id, src_elem, 0);
    switch (status) {
    case CK_ERR_OVERFLOW:
        return ck_set_error(status, "%s value %s is out of range for %s", sn, value, dn);
    case CK_ERR_FRACTIONAL:
        return ck_set_error(status, "%s value %s has a fractional part (%s)", sn, value, dn);
    case CK_ERR_IMAGINARY:
        return ck_set_error(status, "%s value %s has a non-zero imaginary part (%s)", sn,
                            value, dn);
    case CK_ERR_INEXACT: {
        _Alignas(16) char result[16];
        char result_text[CK__VALUE_TEXT];
        nocheck(NULL, result, &src_elem);
        ck__format_element(result_text, dst_id, result, 1);
        return ck_set_error(status, "%s value %s is not exact in %s (%s)", sn, value, dn,
                            result_text);
    }
    default:
        return ck_set_error(status, "%s value %s cannot be assigned to %s", sn, value, dn);
    }
}

/* ======================================================================================
 * 3a. Vector bodies for the contiguous loops, per target (leaves/simd/: one header per ISA
 *     level).
 *
 * ck__fast_contig(dst, src, n, dst id, src id, mode) converts a prefix of a contiguous run
 * with intrinsics where this target has the instruction and returns its length (0 when it
 * has nothing for the pair); the leaf's own loops do the rest. All arguments but the
 * pointers and n are constants, so it folds to one call or to 0. Checked bodies stop before
 * the first block holding a failing element, so that the scalar loop reports it (and
 * writes nothing from it on). Each block is read whole before it is written.
 *
 * float16 <-> float32 use F16C (vcvtph2ps, vcvtps2ph with an explicit round to nearest
 * even, whatever MXCSR says), or on aarch64 FCVTL/FCVTN (under FPCR's defaults only).
 * They equal float16.h bit for bit, NaNs included: the hardware keeps the sign and the top
 * payload bits and sets the quiet bit, as float16.h does (tests/cast checks all halves and
 * a large float32 sample on every target). float64 -> float16 has no single-rounding instruction before AVX512-FP16 and stays in
 * C (going through float would round twice).
 * ====================================================================================== */
/* See above. The always-inline makes the constant tests fold in every leaf. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline size_t
ck__fast_contig(void *d, const void *s, size_t n, const int did, const int sid,
                const int mode) {
    (void)d;
    (void)s;
    (void)n;
    (void)did;
    (void)sid;
    (void)mode;
#ifdef CK__SIMD_F16_CASTS
    if (did == CK_TYPE_FLOAT32 && sid == CK_TYPE_FLOAT16) {
        return ck__v_f32_from_f16((float *)d, (const uint16_t *)s, n);
    }
    if (did == CK_TYPE_FLOAT64 && sid == CK_TYPE_FLOAT16) {
        return ck__v_f64_from_f16((double *)d, (const uint16_t *)s, n);
    }
    if (did == CK_TYPE_FLOAT16 && sid == CK_TYPE_FLOAT32) {
        return ck__v_f16_from_f32((uint16_t *)d, (const float *)s, n, CK__CHECKED(mode),
                                  CK__INEXACT(mode));
    }
#endif
#ifdef CK__SIMD_I32_FROM_F64
    if (did == CK_TYPE_INT32 && sid == CK_TYPE_FLOAT64 && !CK__CHECKED(mode)) {
        return ck__v_i32_from_f64((int32_t *)d, (const double *)s, n);
    }
#endif
#ifdef CK__SIMD_F64_FROM_I64
    if (did == CK_TYPE_FLOAT64 && sid == CK_TYPE_INT64 && !CK__CHECKED(mode)) {
        return ck__v_f64_from_i64((double *)d, (const int64_t *)s, n);
    }
#endif
    return 0;
}

/* Checked contiguous loops run in blocks: the nocheck body converts a block into a local
 * array, a branch-free pass checks every element against its result (chk_<dst>_<class>),
 * and when none fails the block is copied out (a checked result equals the nocheck one);
 * the first block with a failing element, and everything after it, goes to the scalar
 * loop, which reports the failing element exactly and writes nothing from it on. All three
 * passes vectorize. Real destinations and sources only; float destinations only from
 * floats (int -> float checks only INEXACT, and double -> half has branches), float16
 * ones only from float32. */
#define CK__BLOCK 64
static inline int ck__blockable(int dk, int db, int de, int sk, int sb, int se) {
#if !defined(__AVX2__)
    /* Baseline (SSE2): gcc 12 does not vectorize the check pass (an int32 result against a
     * double source has no common vector shape in 16 bytes), and the three passes were
     * slower than the scalar loop (float64 -> int32 fractional: 2.1 vs 1.45 ns/elem). */
    (void)dk, (void)db, (void)de, (void)sk, (void)sb, (void)se;
    return 0;
#else
    if (dk == CK__SCALAR_KIND_COMPLEX || sk == CK__SCALAR_KIND_COMPLEX ||
        ck__lossless(dk, db, de, sk, sb, se)) {
        return 0;
    }
    if (dk == CK__SCALAR_KIND_FLOAT) { /* a destination narrower than float32: from float32 */
        return sk == CK__SCALAR_KIND_FLOAT && (db >= 24 || sb == 24);
    }
    return 1;
#endif
}
#define CK__BLOCKABLE(D, S)                                                                 \
    ck__blockable(CK__KIND(D), CK__BITS(D), CK__EXP(D), CK__KIND(S), CK__BITS(S), CK__EXP(S))

/* ======================================================================================
 * 3. The leaves.
 * ====================================================================================== */

/* Same-type pairs: bit-exact copies (NaN payloads and non-0/1 bool bytes kept). */
#define CK__DEF_COPY_LOOP(SIZE, UT)                                                         \
    CK__HOT void ck__copy_##SIZE(char *dst, intptr_t ds, char *src, intptr_t ss,            \
                                       size_t n) {                                          \
        if (ds == (intptr_t)sizeof(UT) && ss == (intptr_t)sizeof(UT)) {                     \
            if (n != 0) {                                                                   \
                memmove(dst, src, n * sizeof(UT)); /* in-place assignment is allowed */     \
            }                                                                               \
            return;                                                                         \
        }                                                                                   \
        for (size_t i = 0; i < n; i++, dst += ds, src += ss) {                              \
            *(UT *)(void *)dst = *(const UT *)(const void *)src;                            \
        }                                                                                   \
    }
typedef struct ck__u32x2 {
    uint32_t v[2];
} ck__u32x2;
typedef struct ck__u64x2 {
    uint64_t v[2];
} ck__u64x2;
CK__DEF_COPY_LOOP(1, uint8_t)
CK__DEF_COPY_LOOP(2, uint16_t)
CK__DEF_COPY_LOOP(4, uint32_t)
CK__DEF_COPY_LOOP(8, uint64_t)
CK__DEF_COPY_LOOP(8a4, ck__u32x2) /* complex64: 8 bytes, 4-byte aligned */
CK__DEF_COPY_LOOP(16, ck__u64x2)

/* By the element's size and alignment (constants where it is called, so the switch folds). */
CK__HOT void ck__copy_strided(char *dst, intptr_t ds, char *src, intptr_t ss, size_t n,
                              size_t size, size_t align) {
    switch (size) {
    case 1:
        ck__copy_1(dst, ds, src, ss, n);
        break;
    case 2:
        ck__copy_2(dst, ds, src, ss, n);
        break;
    case 4:
        ck__copy_4(dst, ds, src, ss, n);
        break;
    case 8:
        if (align == 8) {
            ck__copy_8(dst, ds, src, ss, n);
        } else {
            ck__copy_8a4(dst, ds, src, ss, n); /* complex64: 8 bytes, 4-byte aligned */
        }
        break;
    default:
        ck__copy_16(dst, ds, src, ss, n);
        break;
    }
}

#define CK__NOCHECK(D, S) leaf_##D##_##S##_nocheck_single

/* Storing (st_) and checking (chk_) a source's canonical value in destination D: the
 * function of the value's class, which is the type its reader rd_<src> returns. */
#define CK__BY_CLASS(F, D, v)                                                               \
    _Generic((v), int64_t: F##_##D##_i, uint64_t: F##_##D##_u, double: F##_##D##_f,        \
             float: F##_##D##_s, ck__cpair: F##_##D##_c)

/* Per pair: cv_<dst>_<src> converts one element, loop_<dst>_<src> runs a strided loop.
 * Both take the mode as a constant; the mode leaves below instantiate them. */
#define CK__DEF_PAIR(D, S)                                                                  \
    static int leaf_##D##_##S##_nocheck_single(ck_prefix *self, char *dst,                  \
                                               char *const *src);                           \
    CK__HOT int cv_##D##_##S(CK__CT(D) * o, const CK__CT(S) * p, const int mode) {          \
        return CK__BY_CLASS(st, D, rd_##S(p))(o, rd_##S(p), mode);                          \
    }                                                                                       \
    CK__HOT int loop_##D##_##S(char *dst, intptr_t ds, char *src, intptr_t ss,              \
                                      size_t n, const int mode) {                           \
        typedef CK__CT(D) dst_t;                                                            \
        typedef CK__CT(S) src_t;                                                            \
        if (ds == (intptr_t)sizeof(dst_t) && ss == (intptr_t)sizeof(src_t)) {               \
            /* Contiguous: in nocheck (or a lossless pair) the status is the constant 0,    \
             * the exit disappears and the loop vectorizes. */                              \
            dst_t *d = (dst_t *)(void *)dst;                                                \
            const src_t *s = (const src_t *)(const void *)src;                              \
            size_t i = ck__fast_contig(d, s, n, CK__ID(D), CK__ID(S), mode);                \
            if (CK__CHECKED(mode) && CK__BLOCKABLE(D, S)) {                                 \
                for (; n - i >= CK__BLOCK; i += CK__BLOCK) {                                \
                    dst_t r[CK__BLOCK];                                                     \
                    int bad = 0;                                                            \
                    for (size_t k = 0; k < CK__BLOCK; k++) {                                \
                        (void)cv_##D##_##S(&r[k], &s[i + k], CK_ERRMODE_NOCHECK);           \
                    }                                                                       \
                    for (size_t k = 0; k < CK__BLOCK; k++) {                                \
                        bad |= CK__BY_CLASS(chk, D, rd_##S(&s[i + k]))(rd_##S(&s[i + k]),   \
                                                                       r[k], mode);         \
                    }                                                                       \
                    if (bad != 0) {                                                         \
                        break;                                                              \
                    }                                                                       \
                    memcpy(&d[i], r, sizeof r);                                             \
                }                                                                           \
            }                                                                               \
            for (; i < n; i++) {                                                            \
                int rc = cv_##D##_##S(&d[i], &s[i], mode);                                  \
                if (CK__UNLIKELY(rc != CK_OK)) {                                             \
                    return ck__leaf_error(rc, CK__ID(D), CK__ID(S),                         \
                                          src + i * sizeof(src_t), CK__NOCHECK(D, S));      \
                }                                                                           \
            }                                                                               \
            return CK_OK;                                                                   \
        }                                                                                   \
        if (ss == 0 && n != 0) {                                                            \
            /* Broadcast source: convert (and check) once, then fill. */                    \
            dst_t v;                                                                        \
            int rc = cv_##D##_##S(&v, (const src_t *)(const void *)src, mode);              \
            if (CK__UNLIKELY(rc != CK_OK)) {                                                 \
                return ck__leaf_error(rc, CK__ID(D), CK__ID(S), src,                        \
                                      CK__NOCHECK(D, S));                                   \
            }                                                                               \
            for (size_t i = 0; i < n; i++, dst += ds) {                                     \
                *(dst_t *)(void *)dst = v;                                                  \
            }                                                                               \
            return CK_OK;                                                                   \
        }                                                                                   \
        for (size_t i = 0; i < n; i++, dst += ds, src += ss) {                              \
            int rc = cv_##D##_##S((dst_t *)(void *)dst, (const src_t *)(const void *)src,   \
                                  mode);                                                    \
            if (CK__UNLIKELY(rc != CK_OK)) {                                                 \
                return ck__leaf_error(rc, CK__ID(D), CK__ID(S), src,                        \
                                      CK__NOCHECK(D, S));                                   \
            }                                                                               \
        }                                                                                   \
        return CK_OK;                                                                       \
    }                                                                                       \
    CK__DEF_LEAF(D, S, nocheck, CK_ERRMODE_NOCHECK)                                         \
    CK__DEF_LEAF(D, S, overflow, CK_ERRMODE_OVERFLOW)                                       \
    CK__DEF_LEAF(D, S, fractional, CK_ERRMODE_FRACTIONAL)                                   \
    CK__DEF_LEAF(D, S, inexact, CK_ERRMODE_INEXACT)

/* Strided leaves start on a 64-byte boundary (CK__KERNEL_ALIGN, common/internal.h). */

/* The two ABI functions of one pair in one mode. CK__ID(D) == CK__ID(S) is a constant: the
 * copy or the conversion branch is removed. */
#define CK__DEF_LEAF(D, S, MNAME, MODE)                                                     \
    static int leaf_##D##_##S##_##MNAME##_single(ck_prefix *self, char *dst,                \
                                                   char *const *src) {                      \
        (void)self;                                                                         \
        if (CK__ID(D) == CK__ID(S)) {                                                       \
            memcpy(dst, src[0], sizeof(CK__CT(D)));                                         \
            return CK_OK;                                                                   \
        }                                                                                   \
        int rc = cv_##D##_##S((CK__CT(D) *)(void *)dst,                                     \
                              (const CK__CT(S) *)(const void *)src[0],                      \
                              CK__EFFECTIVE_MODE(D, S, MODE));                              \
        if (CK__UNLIKELY(rc != CK_OK)) {                                                     \
            return ck__leaf_error(rc, CK__ID(D), CK__ID(S), src[0],                         \
                                  CK__NOCHECK(D, S));                                       \
        }                                                                                   \
        return CK_OK;                                                                       \
    }                                                                                       \
    static CK__KERNEL_ALIGN int leaf_##D##_##S##_##MNAME##_strided(                           \
        ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,                  \
        const intptr_t *src_stride, size_t count) {                                         \
        (void)self;                                                                         \
        if (CK__ID(D) == CK__ID(S)) {                                                       \
            ck__copy_strided(dst, dst_stride, src[0], src_stride[0], count,                 \
                             sizeof(CK__CT(D)), _Alignof(CK__CT(D)));                        \
            return CK_OK;                                                                   \
        }                                                                                   \
        return loop_##D##_##S(dst, dst_stride, src[0], src_stride[0], count,                \
                              CK__EFFECTIVE_MODE(D, S, MODE));                              \
    }

#define CK__DEF_ROW(D) CK__SCALAR_EACH_WITH_LATER(CK__DEF_PAIR, D)
CK__SCALAR_EXPAND(CK__SCALAR_EACH(CK__DEF_ROW))

/* ---- the table: [dst][src][mode], ck__scalar_leaves_<target> (declared by its users from
 * the generated list of compiled targets, scalar_assign.dispatch.h) ---- */
#define CK__CELL(D, S, MNAME)                                                               \
    {leaf_##D##_##S##_##MNAME##_single, leaf_##D##_##S##_##MNAME##_strided}
#define CK__TABLE_SRC(D, S)                                                                 \
    [CK__ID(S)] = {CK__CELL(D, S, nocheck), CK__CELL(D, S, overflow),                       \
                   CK__CELL(D, S, fractional), CK__CELL(D, S, inexact)},
#define CK__TABLE_DST(D) [CK__ID(D)] = {CK__SCALAR_EACH_WITH_LATER(CK__TABLE_SRC, D)},

const ck__leaf_table CK_TARGET_NAME(ck__scalar_leaves) = {
    CK__SCALAR_EXPAND(CK__SCALAR_EACH(CK__TABLE_DST))};
