/* src/leaves/math/vmath_ops.h: the vector kernels of the VMATH loops of ufunc_list.h:
 * ck__vm_<name>_<float32|float64>(out, a, b, n) computes n <= CK__VM_CHUNK elements of a
 * contiguous chunk (b only for two operands; out never overlaps them) with SLEEF's
 * deterministic functions for this target's ISA (leaves/simd: Sleef_finz_* where the CPU has
 * fused multiply-adds, else Sleef_cinz_*: each family gives the same bits on every ISA and in
 * every tail, ck_cpu_vector_math_fma), whole vectors first, then the tail in one
 * vector padded with copies of the last element (so that the padding raises no flag the
 * elements do not). Every result NaN is then the type's one quiet NaN (SLEEF's NaNs differ
 * in sign between its ISAs), and the few inputs where a SLEEF function is off by more than
 * its bound are recomputed (ck__vm_fix_<name>_<type>). An architecture with no vector
 * level here runs SLEEF's one-lane functions (leaves/simd/purec.h). logaddexp and
 * logaddexp2 are NumPy's formulas over SLEEF's exp/exp2 and log1p (float32's in float64).
 * Included only from ufunc.dispatch.c, after targets/dispatch_target.h. */
#ifndef CKERNEL_VMATH_OPS_H
#define CKERNEL_VMATH_OPS_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "leaves/math/ddmath.h"
#include "leaves/simd/simd.h"
#include "targets/cpu_internal.h"
#include "targets/dispatch_target.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Elements per chunk: 256 float64 are 2 KiB of stack per operand. */
#define CK__VM_CHUNK 256

/* The functions: X(name, NIN, f, ulp, F64, F32) with f SLEEF's (and libm's) name, ulp its
 * accuracy suffix (u10: 1.0 ULP; hypot's u05: 0.5), and F64, F32 FIX where the type has a
 * correction (ck__vm_fix_<name>_<type> below), else NONE. */
/* clang-format off */
#define CK__VMATH_LIST(X)                                                                   \
    X(exp,         1, exp,   u10, FIX,  NONE)                                               \
    X(exp2,        1, exp2,  u10, NONE, NONE)                                               \
    X(expm1,       1, expm1, u10, NONE, NONE)                                               \
    X(log,         1, log,   u10, NONE, NONE)                                               \
    X(log2,        1, log2,  u10, NONE, NONE)                                               \
    X(log10,       1, log10, u10, NONE, NONE)                                               \
    X(log1p,       1, log1p, u10, FIX,  FIX)                                                \
    X(cbrt,        1, cbrt,  u10, NONE, NONE)                                               \
    X(sin,         1, sin,   u10, NONE, NONE)                                               \
    X(cos,         1, cos,   u10, NONE, NONE)                                               \
    X(tan,         1, tan,   u10, NONE, NONE)                                               \
    X(arcsin,      1, asin,  u10, NONE, NONE)                                               \
    X(arccos,      1, acos,  u10, NONE, NONE)                                               \
    X(arctan,      1, atan,  u10, NONE, NONE)                                               \
    X(sinh,        1, sinh,  u10, FIX,  FIX)                                                \
    X(cosh,        1, cosh,  u10, FIX,  FIX)                                                \
    X(tanh,        1, tanh,  u10, NONE, FIX)                                                \
    X(arcsinh,     1, asinh, u10, FIX,  FIX)                                                \
    X(arccosh,     1, acosh, u10, FIX,  FIX)                                                \
    X(arctanh,     1, atanh, u10, NONE, FIX)                                                \
    X(arctan2,     2, atan2, u10, FIX,  FIX)                                                \
    X(hypot,       2, hypot, u05, FIX,  FIX)                                                \
    X(power,       2, pow,   u10, FIX,  FIX)                                                \
    X(float_power, 2, pow,   u10, FIX,  NONE)
/* clang-format on */

/* ---- one function over a chunk, per element type ----
 * SLEEF's FMA family where the CPU runs it (ck__vmath_fma: decided once per process,
 * so every kernel of a process, and the JIT's calls, agree), else its family without. */
#define CK__VM_LOOP(NIN, fn, FT, LANES, LOAD, STORE)                                      \
    do {                                                                                    \
        size_t i = 0;                                                                       \
        for (; i + LANES <= n; i += LANES) {                                                \
            STORE(out + i, CK__VM_CALL_##NIN(fn, LOAD, a + i, b + i));                      \
        }                                                                                   \
        if (i < n) {                                                                        \
            FT pa[LANES], pb[LANES], po[LANES];                                             \
            for (size_t k = 0; k < LANES; k++) {                                            \
                pa[k] = a[i + k < n ? i + k : n - 1];                                       \
                pb[k] = NIN == 2 ? b[i + k < n ? i + k : n - 1] : pa[k];                    \
            }                                                                               \
            STORE(po, CK__VM_CALL_##NIN(fn, LOAD, pa, pb));                                 \
            (void)pb;                                                                       \
            memcpy(out + i, po, (n - i) * sizeof(FT));                                      \
        }                                                                                   \
    } while (0)
/* One element (a fold's step, the JIT's call) runs on the narrowest vectors: the same bits,
 * less latency (a fold of arctan2 on avx512: SLEEF's 8 lanes 38 ns a call, its 2 lanes 32). */
#define CK__VM_KERNEL(name, NIN, f, u, FT, T, LANES, LOAD, STORE, SLEEF, SLEEF_FMA, LANES1, \
                        LOAD1, STORE1, SLEEF1, SLEEF1_FMA)                                  \
    CK__HOT void ck__vm_raw_##name##_##T(FT *out, const FT *a, const FT *b, size_t n) {     \
        const int fma = ck__vmath_fma();                                                    \
        if (n == 1 && CK__LIKELY(fma)) {                                                    \
            CK__VM_LOOP(NIN, SLEEF1_FMA(f, u), FT, LANES1, LOAD1, STORE1);                  \
        } else if (n == 1) {                                                                \
            CK__VM_LOOP(NIN, SLEEF1(f, u), FT, LANES1, LOAD1, STORE1);                      \
        } else if (CK__LIKELY(fma)) {                                                       \
            CK__VM_LOOP(NIN, SLEEF_FMA(f, u), FT, LANES, LOAD, STORE);                      \
        } else {                                                                            \
            CK__VM_LOOP(NIN, SLEEF(f, u), FT, LANES, LOAD, STORE);                          \
        }                                                                                   \
    }
#define CK__VM_CALL_1(fn, LOAD, pa, pb) fn(LOAD(pa))
#define CK__VM_CALL_2(fn, LOAD, pa, pb) fn(LOAD(pa), LOAD(pb))
#define CK__VM_KERNELS(name, NIN, f, u, ...)                                              \
    CK__VM_KERNEL(name, NIN, f, u, double, float64, CK__VMD_LANES, CK__VMD_LOAD,            \
                  CK__VMD_STORE, CK__SLEEF_D, CK__SLEEF_FMA_D, CK__VMD1_LANES, CK__VMD1_LOAD, \
                  CK__VMD1_STORE, CK__SLEEF1_D, CK__SLEEF1_FMA_D)                           \
    CK__VM_KERNEL(name, NIN, f, u, float, float32, CK__VMF_LANES, CK__VMF_LOAD,             \
                  CK__VMF_STORE, CK__SLEEF_F, CK__SLEEF_FMA_F, CK__VMF1_LANES, CK__VMF1_LOAD, \
                  CK__VMF1_STORE, CK__SLEEF1_F, CK__SLEEF1_FMA_F)
CK__VMATH_LIST(CK__VM_KERNELS)

/* ---- the corrections: inputs where SLEEF's result is off by more than its bound (found
 * by python/tests/test_ufuncs.py against mpmath), recomputed more precisely ----
 * float32: in float64 by SLEEF's float64 function (its error is 2^-29 of a float32 ULP),
 * rounded once, where SLEEF's float32 function overflows early (log1p past 1e38, sinh and
 * cosh past 88, arcsinh and arccosh past 1.8e19, power where its result is infinite
 * from finite arguments), is 1 ULP off (tanh, arcsinh and arctanh below 2^-12, arctan2 of
 * results below 1e-30) or more than half an ULP (hypot's results below 1e-30).
 * float64: in double-double (ddmath.h: the same bits on every host, whatever its long double),
 * rounded once, where SLEEF overflows early: exp in (709.78271114955750, 709.782712893384],
 * where exp(x) is still finite, sinh and cosh past 709, arcsinh and arccosh past 1.3e154
 * (log|x| + ln 2), log1p past 1e307 (log x: the 1/x it leaves out is below 2^-1000 of it),
 * power (and float_power) where its result is infinite from finite arguments (pow(DBL_MAX, 1)
 * is DBL_MAX); and where it is 1.08 ULP off, arctan2 of results below 1e-300 (without FMA),
 * which is the quotient itself (ck__vm_atan2_tiny). */
#define CK__VM_FIX_F(name, COND)                                                            \
    CK__HOT int ck__vm_needs_##name##_float32(const float *out, const float *a,             \
                                              const float *b, size_t n) {                   \
        int any = 0;                                                                        \
        for (size_t i = 0; i < n; i++) {                                                    \
            const float x = a[i], y = b[i], r0 = out[i];                                    \
            (void)x, (void)y, (void)r0;                                                     \
            any |= (COND);                                                                  \
        }                                                                                   \
        return any;                                                                         \
    }                                                                                       \
    CK__HOT void ck__vm_fix_##name##_float32(float *out, const float *a, const float *b,    \
                                             size_t n) {                                    \
        for (size_t i = 0; i < n; i++) {                                                    \
            const float x = a[i], y = b[i], r0 = out[i];                                    \
            (void)x, (void)y, (void)r0;                                                     \
            if (COND) {                                                                     \
                const double da = a[i], db = b[i];                                          \
                double r;                                                                   \
                ck__vm_raw_##name##_float64(&r, &da, &db, 1);                               \
                out[i] = (float)r;                                                          \
            }                                                                               \
        }                                                                                   \
    }
CK__VM_FIX_F(log1p, x > 1e38f)
CK__VM_FIX_F(sinh, fabsf(x) > 88.0f)
CK__VM_FIX_F(cosh, fabsf(x) > 88.0f)
CK__VM_FIX_F(tanh, fabsf(x) < 0x1p-12f)
CK__VM_FIX_F(arctanh, fabsf(x) < 0x1p-12f)
CK__VM_FIX_F(arcsinh, (fabsf(x) > 1.8e19f) | (fabsf(x) < 0x1p-12f))
CK__VM_FIX_F(arccosh, x > 1.8e19f)
CK__VM_FIX_F(power, isinf(r0) & isfinite(x) & isfinite(y))
CK__VM_FIX_F(arctan2, (fabsf(r0) < 1e-30f) & (r0 != 0))
CK__VM_FIX_F(hypot, fabsf(r0) < 1e-30f)

/* The float64 corrections' values. */
static inline double ck__vm_dd_exp(double x, int down) {
    return ck__dd_exp_scaled((ck__dd){x, 0.0}, down);
}
/* log x + ln 2 (arcsinh and arccosh past 1.3e154, where the rest is below 2^-1000 of it). */
static inline double ck__vm_dd_log2x(double x) {
    return isinf(x) ? x : ck__dd_add(ck__dd_log(x), ck__dd_ln2).hi;
}
/* pow(x, y) = e^(y log|x|) with the sign SLEEF gave its infinity (negative only for a
 * negative x and an odd integer y); pow(0, y < 0) is SLEEF's infinity itself. */
static inline double ck__vm_dd_pow(double x, double y, double r0) {
    if (x == 0) {
        return r0;
    }
    const ck__dd log_x = ck__dd_log(fabs(x));
    if (!(fabs(log_x.hi * y) <= 1000.0)) { /* far past either end (the product overflows) */
        return copysign(log_x.hi * y > 0 ? ldexp(0x1p1000, 1000) : 0.0, r0);
    }
    return copysign(ck__dd_exp_scaled(ck__dd_mul_d(log_x, y), 0), r0);
}
/* atan2(a, b) where the result is below 1e-300 (b > 0, |a / b| tiny): atan z = z - z^3/3 is
 * the quotient z rounded, but where z is exactly halfway between two subnormals (a quotient of
 * doubles can be a tie only there): atan z lies just toward zero of the tie, so the result is
 * the neighbour toward zero. The tie test: z = (ma / mb) 2^(ea - eb) with ma, mb in [1/2, 1);
 * ma / mb exact (its fma remainder 0) and 2^1075 z an odd integer. */
static inline double ck__vm_atan2_tiny(double a, double b, double r0) {
    if (!(b > 0)) {
        return r0;
    }
    const double q = a / b;
    if (fabs(q) >= 0x1p-1022) {
        return q;
    }
    int ea, eb;
    const double ma = frexp(fabs(a), &ea), mb = frexp(b, &eb);
    const double m = ma / mb;
    if (fma(-m, mb, ma) != 0) {
        return q;
    }
    const double twice = ldexp(m, ea - eb + 1075); /* exact: below 2^53 */
    if (twice != floor(twice) || fmod(twice, 2.0) != 1.0) {
        return q;
    }
    return copysign(ldexp((twice - 1.0) / 2.0, -1074), a);
}
#define CK__VM_FIX_D(name, COND, EXPR)                                                      \
    CK__HOT int ck__vm_needs_##name##_float64(const double *out, const double *a,           \
                                              const double *b, size_t n) {                  \
        int any = 0;                                                                        \
        for (size_t i = 0; i < n; i++) {                                                    \
            const double x = a[i], y = b[i], r0 = out[i];                                   \
            (void)x, (void)y, (void)r0;                                                     \
            any |= (COND);                                                                  \
        }                                                                                   \
        return any;                                                                         \
    }                                                                                       \
    CK__HOT void ck__vm_fix_##name##_float64(double *out, const double *a, const double *b, \
                                             size_t n) {                                    \
        for (size_t i = 0; i < n; i++) {                                                    \
            const double x = a[i], y = b[i], r0 = out[i];                                   \
            (void)y, (void)r0;                                                              \
            if (COND) {                                                                     \
                out[i] = (EXPR);                                                            \
            }                                                                               \
        }                                                                                   \
    }
CK__VM_FIX_D(exp, (x > 709.7827111495575) & (x <= 709.782712893384), ck__vm_dd_exp(x, 0))
CK__VM_FIX_D(sinh, fabs(x) > 709.0, isinf(x) ? x : copysign(ck__vm_dd_exp(fabs(x), 1), x))
CK__VM_FIX_D(cosh, fabs(x) > 709.0, isinf(x) ? fabs(x) : ck__vm_dd_exp(fabs(x), 1))
CK__VM_FIX_D(arcsinh, fabs(x) > 1.3e154, copysign(ck__vm_dd_log2x(fabs(x)), x))
CK__VM_FIX_D(arccosh, x > 1.3e154, ck__vm_dd_log2x(x))
CK__VM_FIX_D(log1p, x > 1e307, isinf(x) ? x : ck__dd_log(x).hi)
CK__VM_FIX_D(power, isinf(r0) & isfinite(x) & isfinite(y), ck__vm_dd_pow(x, y, r0))
CK__VM_FIX_D(float_power, isinf(r0) & isfinite(x) & isfinite(y), ck__vm_dd_pow(x, y, r0))
CK__VM_FIX_D(arctan2, (fabs(r0) < 1e-300) & (r0 != 0), ck__vm_atan2_tiny(x, y, r0))
/* hypot's results below 1e-300 (where SLEEF's are up to 1.8 ULP off): its own function of
 * the operands scaled by 2^600 (exact: they are below 1e-300 too), scaled back (exact but
 * for a subnormal result's one rounding). */
CK__HOT int ck__vm_needs_hypot_float64(const double *out, const double *a, const double *b,
                                      size_t n) {
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        any |= (fabs(out[i]) < 1e-300) & (out[i] != 0);
    }
    (void)a, (void)b;
    return any;
}
CK__HOT void ck__vm_fix_hypot_float64(double *out, const double *a, const double *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if ((fabs(out[i]) < 1e-300) & (out[i] != 0)) {
            const double sa = a[i] * 0x1p600, sb = b[i] * 0x1p600;
            double r;
            ck__vm_raw_hypot_float64(&r, &sa, &sb, 1);
            out[i] = r * 0x1p-600;
        }
    }
}
/* The functions without a correction in a type. */
#define CK__VM_NO_FIX(name, T, FT)                                                          \
    CK__HOT int ck__vm_needs_##name##_##T(const FT *out, const FT *a, const FT *b,          \
                                          size_t n) {                                       \
        (void)out, (void)a, (void)b, (void)n;                                               \
        return 0;                                                                           \
    }                                                                                       \
    CK__HOT void ck__vm_fix_##name##_##T(FT *out, const FT *a, const FT *b, size_t n) {     \
        (void)out, (void)a, (void)b, (void)n;                                               \
    }
/* The rows' NONE: that function has no correction in that type. */
#define CK__VM_FIXES_NONE(name, T, FT) CK__VM_NO_FIX(name, T, FT)
#define CK__VM_FIXES_FIX(name, T, FT)
#define CK__VM_NO_FIX_ROW(name, NIN, f, u, F64, F32)                                        \
    CK__VM_FIXES_##F64(name, float64, double) CK__VM_FIXES_##F32(name, float32, float)
CK__VMATH_LIST(CK__VM_NO_FIX_ROW)

/* ---- the kernels: raw, corrected, NaNs made one ----
 * out may be a or b (in place): the operands are then copied first, for the corrections
 * read them after out is written. Whether any element needs a correction is one vector
 * pass (most chunks need none: the conditions are written with & so that it vectorizes);
 * the corrections themselves run element by element. */
#define CK__VM_DEF_T(name, T, FT)                                                           \
    CK__HOT void ck__vm_##name##_##T(FT *out, const FT *a, const FT *b, size_t n) {         \
        FT ca[CK__VM_CHUNK], cb[CK__VM_CHUNK];                                              \
        if ((out < a + n && a < out + n) || (out < b + n && b < out + n)) {                 \
            memcpy(ca, a, n * sizeof(FT));                                                  \
            memcpy(cb, b, n * sizeof(FT));                                                  \
            a = ca, b = cb;                                                                 \
        }                                                                                   \
        ck__vm_raw_##name##_##T(out, a, b, n);                                              \
        if (CK__UNLIKELY(ck__vm_needs_##name##_##T(out, a, b, n))) {                        \
            ck__vm_fix_##name##_##T(out, a, b, n);                                          \
        }                                                                                   \
        for (size_t i = 0; i < n; i++) {                                                    \
            out[i] = out[i] != out[i] ? (FT)NAN : out[i];                                   \
        }                                                                                   \
    }
#define CK__VM_DEF(name, NIN, f, u, ...)                                                    \
    CK__VM_DEF_T(name, float64, double) CK__VM_DEF_T(name, float32, float)
CK__VMATH_LIST(CK__VM_DEF)

/* logaddexp(x, y) = log(e^x + e^y), NumPy's npy_logaddexp: x + ln 2 for x == y (infinities
 * of one sign too), else the larger plus log1p(exp(-|x - y|)), and x - y's NaN where that
 * is NaN; logaddexp2 in base 2 (log2(1 + t) as log1p(t) / ln 2, NumPy's npy_log2_1p). */
#define CK__VM_LOGADDEXP(name, T, FT, EXP, LN2, SCALE)                                      \
    CK__HOT void ck__vm_##name##_##T(FT *out, const FT *a, const FT *b, size_t n) {         \
        FT t[CK__VM_CHUNK], e[CK__VM_CHUNK];                                                \
        for (size_t i = 0; i < n; i++) {                                                    \
            const FT d = a[i] - b[i];                                                       \
            t[i] = d > 0 ? -d : d; /* -|d|; NaN stays NaN */                                \
        }                                                                                   \
        ck__vm_raw_##EXP##_##T(e, t, t, n);                                                 \
        ck__vm_raw_log1p_##T(t, e, e, n);                                                   \
        for (size_t i = 0; i < n; i++) {                                                    \
            const FT x = a[i], y = b[i], d = x - y, l = t[i] * (FT)(SCALE);                 \
            const FT r = x == y ? x + (FT)(LN2) : d > 0 ? x + l : d <= 0 ? y + l : d;       \
            out[i] = r != r ? (FT)NAN : r;                                                  \
        }                                                                                   \
    }
#define CK__VM_LN2 0.693147180559945309417232121458176568
#define CK__VM_LOG2E 1.442695040888963407359924681001892137
CK__VM_LOGADDEXP(logaddexp, float64, double, exp, CK__VM_LN2, 1.0)
CK__VM_LOGADDEXP(logaddexp2, float64, double, exp2, 1.0, CK__VM_LOG2E)
/* float32: the float64 formula, rounded once (the formula's cancellation, where the result
 * is much smaller than the larger argument, costs float64 a few bits it can spare). */
#define CK__VM_LOGADDEXP_F(name)                                                            \
    CK__HOT void ck__vm_##name##_float32(float *out, const float *a, const float *b,        \
                                         size_t n) {                                        \
        double x[CK__VM_CHUNK], y[CK__VM_CHUNK], r[CK__VM_CHUNK];                           \
        for (size_t i = 0; i < n; i++) {                                                    \
            x[i] = a[i];                                                                    \
            y[i] = b[i];                                                                    \
        }                                                                                   \
        ck__vm_##name##_float64(r, x, y, n);                                                \
        for (size_t i = 0; i < n; i++) {                                                    \
            out[i] = (float)r[i];                                                           \
        }                                                                                   \
    }
CK__VM_LOGADDEXP_F(logaddexp)
CK__VM_LOGADDEXP_F(logaddexp2)

#ifdef __cplusplus
}
#endif

#endif
