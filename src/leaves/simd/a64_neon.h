/* src/leaves/simd/a64_neon.h: the aarch64 vector bodies (every aarch64 target: ASIMD from
 * ARMv8.0 on): the float16 casts through FCVTL/FCVTN, 8 halves a step. Included through
 * leaves/simd/simd.h only. */
#ifndef CKERNEL_SIMD_A64_NEON_H
#define CKERNEL_SIMD_A64_NEON_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- casts (scalar_assign.dispatch.c) ---- */

#define CK__SIMD_F16_CASTS 1
/* aarch64: FCVTL/FCVTN, 8 halves a step. They equal float16.h bit for bit (NaNs quieted
 * with their sign and top payload bits kept) while FPCR selects IEEE halves (AHP clear),
 * NaNs propagated (DN clear), no flushing (FZ, FZ16 clear) and round to nearest even; a
 * thread that set any of these gets the C code (0: nothing converted here). */
static inline int ck__a64_fpcr_ieee(void) {
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    return (fpcr & ((UINT64_C(1) << 19) | (UINT64_C(0xf) << 22))) == 0;
}

CK__SIMD_BODY size_t ck__v_f32_from_f16(float *d, const uint16_t *s, size_t n) {
    size_t i = 0;
    if (!ck__a64_fpcr_ieee()) {
        return 0;
    }
    for (; n - i >= 8; i += 8) {
        const float16x8_t h = vreinterpretq_f16_u16(vld1q_u16(s + i));
        const float32x4_t lo = vcvt_f32_f16(vget_low_f16(h)), hi = vcvt_high_f32_f16(h);
        vst1q_f32(d + i, lo);
        vst1q_f32(d + i + 4, hi);
    }
    return i;
}

CK__SIMD_BODY size_t ck__v_f64_from_f16(double *d, const uint16_t *s, size_t n) {
    size_t i = 0;
    if (!ck__a64_fpcr_ieee()) {
        return 0;
    }
    for (; n - i >= 8; i += 8) { /* half -> single -> double: both exact */
        const float16x8_t h = vreinterpretq_f16_u16(vld1q_u16(s + i));
        const float32x4_t lo = vcvt_f32_f16(vget_low_f16(h)), hi = vcvt_high_f32_f16(h);
        const float64x2_t r0 = vcvt_f64_f32(vget_low_f32(lo)), r1 = vcvt_high_f64_f32(lo);
        const float64x2_t r2 = vcvt_f64_f32(vget_low_f32(hi)), r3 = vcvt_high_f64_f32(hi);
        vst1q_f64(d + i, r0);
        vst1q_f64(d + i + 2, r1);
        vst1q_f64(d + i + 4, r2);
        vst1q_f64(d + i + 6, r3);
    }
    return i;
}

/* Lanes whose float32 -> float16 conversion fails the mode's checks, as the x86 bodies:
 * overflow to infinity from a finite value; with inexact, any change of value (NaN -> NaN
 * allowed: compared ordered). */
static inline uint32x4_t ck__f16_bad4(float32x4_t v, float32x4_t b, int inexact) {
    const float32x4_t inf = vdupq_n_f32(HUGE_VALF);
    uint32x4_t bad = vandq_u32(vceqq_f32(vabsq_f32(b), inf),
                               vmvnq_u32(vceqq_f32(vabsq_f32(v), inf)));
    if (inexact) {
        bad = vorrq_u32(bad, vandq_u32(vmvnq_u32(vceqq_f32(b, v)), vceqq_f32(v, v)));
    }
    return bad;
}

CK__SIMD_BODY size_t ck__v_f16_from_f32(uint16_t *d, const float *s, size_t n, int checked,
                                        int inexact) {
    size_t i = 0;
    if (!ck__a64_fpcr_ieee()) {
        return 0;
    }
    for (; n - i >= 8; i += 8) {
        const float32x4_t v0 = vld1q_f32(s + i), v1 = vld1q_f32(s + i + 4);
        const float16x8_t h = vcvt_high_f16_f32(vcvt_f16_f32(v0), v1);
        if (checked) {
            const uint32x4_t bad =
                vorrq_u32(ck__f16_bad4(v0, vcvt_f32_f16(vget_low_f16(h)), inexact),
                          ck__f16_bad4(v1, vcvt_high_f32_f16(h), inexact));
            if (vmaxvq_u32(bad) != 0) {
                return i;
            }
        }
        vst1q_u16(d + i, vreinterpretq_u16_f16(h));
    }
    return i;
}

/* ---- SLEEF's two deterministic families (each gives the same bits on every ISA, vmath_ops.h):
 * CK__SLEEF_D(exp, u10) names the one without FMA, Sleef_cinz_expd2_u10advsimdnofma, and
 * CK__SLEEF_FMA_D(exp, u10) the one with, Sleef_finz_expd2_u10advsimd ---- */
#ifndef CK__SIMD_SLEEF
#  define CK__SIMD_SLEEF 1
#  include <sleef.h>
#  define CK__VMD_LANES 2
#  define CK__VMF_LANES 4
#  define CK__VMD_LOAD vld1q_f64
#  define CK__VMD_STORE vst1q_f64
#  define CK__VMF_LOAD vld1q_f32
#  define CK__VMF_STORE vst1q_f32
#  define CK__SLEEF_D(f, u) Sleef_cinz_##f##d2_##u##advsimdnofma
#  define CK__SLEEF_F(f, u) Sleef_cinz_##f##f4_##u##advsimdnofma
#  define CK__SLEEF_FMA_D(f, u) Sleef_finz_##f##d2_##u##advsimd
#  define CK__SLEEF_FMA_F(f, u) Sleef_finz_##f##f4_##u##advsimd
#endif
/* The narrowest vectors of both families, for the kernels' calls of one element (a fold's
 * steps, whose speed is the functions' latency, lower on these): CK__SLEEF1_D and the rest,
 * the same functions whatever the target's widest. */
#ifndef CK__SIMD_SLEEF1
#  define CK__SIMD_SLEEF1 1
#  define CK__VMD1_LANES 2
#  define CK__VMF1_LANES 4
#  define CK__VMD1_LOAD vld1q_f64
#  define CK__VMD1_STORE vst1q_f64
#  define CK__VMF1_LOAD vld1q_f32
#  define CK__VMF1_STORE vst1q_f32
#  define CK__SLEEF1_D(f, u) Sleef_cinz_##f##d2_##u##advsimdnofma
#  define CK__SLEEF1_F(f, u) Sleef_cinz_##f##f4_##u##advsimdnofma
#  define CK__SLEEF1_FMA_D(f, u) Sleef_finz_##f##d2_##u##advsimd
#  define CK__SLEEF1_FMA_F(f, u) Sleef_finz_##f##f4_##u##advsimd
#endif

#ifdef __cplusplus
}
#endif

#endif
