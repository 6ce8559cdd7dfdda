/* src/leaves/simd/x86_avx512.h: the AVX-512 vector bodies (the avx512 target: F, BW, CD,
 * DQ and VL): float16 casts with masked tails, int64 -> float64 with vcvtqq2pd, float64 ->
 * int32 in 8 lanes, the float16 arithmetic's 16-lane vectors, the 8x8 float64 tile
 * transpose and the streaming lines of 64 bytes in one register. Included through
 * leaves/simd/simd.h only, before the lower levels, which fill in what is not here. */
#ifndef CKERNEL_SIMD_X86_AVX512_H
#define CKERNEL_SIMD_X86_AVX512_H

#ifdef __cplusplus
extern "C" {
#endif

/* The low `k` lanes (k < 16). */
static inline __mmask16 ck__tail16(size_t k) {
    return (__mmask16)((1u << k) - 1u);
}
static inline __mmask8 ck__tail8(size_t k) {
    return (__mmask8)((1u << k) - 1u);
}

/* ---- casts (scalar_assign.dispatch.c) ---- */

#define CK__SIMD_F16_CASTS 1
CK__SIMD_BODY size_t ck__v_f32_from_f16(float *d, const uint16_t *s, size_t n) {
    size_t i = 0;
    for (; n - i >= 16; i += 16) {
        __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        _mm512_storeu_ps(d + i, _mm512_cvtph_ps(h));
    }
    if (i < n) { /* masked tail: no scalar remainder */
        __mmask16 m = ck__tail16(n - i);
        __m256i h = _mm256_maskz_loadu_epi16(m, s + i);
        _mm512_mask_storeu_ps(d + i, m, _mm512_cvtph_ps(h));
    }
    return n;
}

CK__SIMD_BODY size_t ck__v_f64_from_f16(double *d, const uint16_t *s, size_t n) {
    size_t i = 0;
    for (; n - i >= 8; i += 8) {
        __m128i h = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        _mm512_storeu_pd(d + i, _mm512_cvtps_pd(_mm256_cvtph_ps(h)));
    }
    if (i < n) {
        __mmask8 m = ck__tail8(n - i);
        __m128i h = _mm_maskz_loadu_epi16(m, s + i);
        _mm512_mask_storeu_pd(d + i, m, _mm512_cvtps_pd(_mm256_cvtph_ps(h)));
    }
    return n;
}

/* Lanes (of m) whose float32 -> float16 conversion fails the checks of the mode. */
static inline __mmask16 ck__f16_bad16(__m512 v, __m256i h, __mmask16 m, int inexact) {
    const __m512 inf = _mm512_set1_ps(HUGE_VALF);
    __m512 b = _mm512_cvtph_ps(h);
    __m512 ab = _mm512_abs_ps(b), av = _mm512_abs_ps(v);
    __mmask16 bad = _mm512_mask_cmp_ps_mask(m, ab, inf, _CMP_EQ_OQ) &
                    _mm512_mask_cmp_ps_mask(m, av, inf, _CMP_NEQ_UQ);
    if (inexact) {
        bad |= _mm512_mask_cmp_ps_mask(m, b, v, _CMP_NEQ_OQ); /* NaN -> NaN is allowed */
    }
    return bad;
}

CK__SIMD_BODY size_t ck__v_f16_from_f32(uint16_t *d, const float *s, size_t n, int checked,
                                        int inexact) {
    size_t i = 0;
    for (; n - i >= 16; i += 16) {
        __m512 v = _mm512_loadu_ps(s + i);
        __m256i h = _mm512_cvtps_ph(v, CK__F16_RNE);
        if (checked && ck__f16_bad16(v, h, 0xffff, inexact) != 0) {
            return i;
        }
        _mm256_storeu_si256((__m256i *)(void *)(d + i), h);
    }
    if (i < n) {
        __mmask16 m = ck__tail16(n - i);
        __m512 v = _mm512_maskz_loadu_ps(m, s + i);
        __m256i h = _mm512_cvtps_ph(v, CK__F16_RNE);
        if (checked && ck__f16_bad16(v, h, m, inexact) != 0) {
            return i;
        }
        _mm256_mask_storeu_epi16(d + i, m, h);
    }
    return n;
}

/* int64 -> float64 with vcvtqq2pd (one rounding, in the current rounding mode, as C's
 * conversion). gcc already vectorizes the C loop with it, 512 bits wide, and in cache that
 * runs as fast as memcpy of the same bytes (the L2 bound); written out to load 32 elements
 * before storing them and to end in one masked step rather than a ymm step plus up to
 * three scalar conversions. */
#define CK__SIMD_F64_FROM_I64 1
CK__SIMD_BODY size_t ck__v_f64_from_i64(double *d, const int64_t *s, size_t n) {
    size_t i = 0;
    for (; n - i >= 32; i += 32) {
        __m512d a = _mm512_cvtepi64_pd(_mm512_loadu_si512(s + i));
        __m512d b = _mm512_cvtepi64_pd(_mm512_loadu_si512(s + i + 8));
        __m512d c = _mm512_cvtepi64_pd(_mm512_loadu_si512(s + i + 16));
        __m512d e = _mm512_cvtepi64_pd(_mm512_loadu_si512(s + i + 24));
        _mm512_storeu_pd(d + i, a);
        _mm512_storeu_pd(d + i + 8, b);
        _mm512_storeu_pd(d + i + 16, c);
        _mm512_storeu_pd(d + i + 24, e);
    }
    for (; n - i >= 8; i += 8) {
        _mm512_storeu_pd(d + i, _mm512_cvtepi64_pd(_mm512_loadu_si512(s + i)));
    }
    if (i < n) {
        __mmask8 m = ck__tail8(n - i);
        __m512d r = _mm512_cvtepi64_pd(_mm512_maskz_loadu_epi64(m, s + i));
        _mm512_mask_storeu_pd(d + i, m, r);
    }
    return n;
}

/* float64 -> int32 nocheck in 8 lanes (the rules as in x86_sse2.h's 2-lane body). */
static inline __m256i ck__i32_from_f64x8(__m512d v) {
    __mmask8 ord = _mm512_cmp_pd_mask(v, v, _CMP_ORD_Q);
    return _mm512_cvttpd_epi32(_mm512_maskz_min_pd(ord, v, _mm512_set1_pd(2147483647.0)));
}

#define CK__SIMD_I32_FROM_F64 1
CK__SIMD_BODY size_t ck__v_i32_from_f64(int32_t *d, const double *s, size_t n) {
    size_t i = 0;
    for (; n - i >= 16; i += 16) { /* two independent chains per iteration */
        __m256i a = ck__i32_from_f64x8(_mm512_loadu_pd(s + i));
        __m256i b = ck__i32_from_f64x8(_mm512_loadu_pd(s + i + 8));
        _mm256_storeu_si256((__m256i *)(void *)(d + i), a);
        _mm256_storeu_si256((__m256i *)(void *)(d + i + 8), b);
    }
    for (; n - i >= 8; i += 8) {
        _mm256_storeu_si256((__m256i *)(void *)(d + i),
                            ck__i32_from_f64x8(_mm512_loadu_pd(s + i)));
    }
    if (i < n) { /* masked tail: masked-off lanes load 0.0 and are not stored */
        __mmask8 m = ck__tail8(n - i);
        __m256i r = ck__i32_from_f64x8(_mm512_maskz_loadu_pd(m, s + i));
        _mm256_mask_storeu_epi32(d + i, m, r);
    }
    return n;
}

/* ---- float16 arithmetic in float32 vectors (arith.dispatch.c) ---- */

#define CK__SIMD_HALF_VECTORS 1
#define CK__F16_LANES 16
typedef __m512 ck__vf;
CK__HOT ck__vf ck__vf_load_half(const uint16_t *p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
CK__HOT void ck__vf_store_half(uint16_t *p, ck__vf v) {
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtps_ph(v, CK__F16_RNE));
}
CK__HOT ck__vf ck__vf_set1(float x) {
    return _mm512_set1_ps(x);
}
#define ck__vf_add _mm512_add_ps
#define ck__vf_sub _mm512_sub_ps
#define ck__vf_mul _mm512_mul_ps
#define ck__vf_div _mm512_div_ps

/* ---- tile transposes (transpose.dispatch.c): 8x8 blocks of 8-byte elements ---- */

#define CK__SIMD_BLOCK_8 1
enum { CK__B8 = 8, CK__VW8 = 64 };
CK__BLOCK_INLINE void block_8(char *dst, intptr_t du, const char *buf, intptr_t brow, size_t u,
                              size_t v, const int nt) {
    __m512d r[8], t[8], w[8];
    for (int k = 0; k < 8; k++) {
        r[k] = _mm512_loadu_pd((const double *)(const void *)(buf + (intptr_t)(v + (size_t)k) * brow + (intptr_t)u * 8));
    }
    /* pairs of rows interleaved, then 128-bit lanes gathered twice: lane l of r[k] holds
     * columns 2l and 2l + 1, so two lane shuffles put column m of every row together */
    for (int k = 0; k < 8; k += 2) {
        t[k] = _mm512_unpacklo_pd(r[k], r[k + 1]);
        t[k + 1] = _mm512_unpackhi_pd(r[k], r[k + 1]);
    }
    for (int k = 0; k < 8; k += 4) {
        w[k] = _mm512_shuffle_f64x2(t[k], t[k + 2], 0x88);
        w[k + 2] = _mm512_shuffle_f64x2(t[k], t[k + 2], 0xDD);
        w[k + 1] = _mm512_shuffle_f64x2(t[k + 1], t[k + 3], 0x88);
        w[k + 3] = _mm512_shuffle_f64x2(t[k + 1], t[k + 3], 0xDD);
    }
    for (int k = 0; k < 8; k++) {
        /* row u + k: columns k of every buffer row (k < 4: from w[k], w[k + 4] even lanes) */
        const __m512d o = k < 4 ? _mm512_shuffle_f64x2(w[k], w[k + 4], 0x88)
                                : _mm512_shuffle_f64x2(w[k - 4], w[k], 0xDD);
        double *p = (double *)(void *)(dst + (intptr_t)(u + (size_t)k) * du + (intptr_t)v * 8);
        if (nt) {
            _mm512_stream_pd(p, o);
        } else {
            _mm512_storeu_pd(p, o);
        }
    }
}

/* ---- streaming lines (streaming.dispatch.c): one 64-byte destination line each ---- */

#define CK__SIMD_STREAM_LINES 1
CK__BLOCK_INLINE void ck__nt_line_copy(char *d, const char *s) {
    _mm512_stream_si512((void *)d, _mm512_loadu_si512((const void *)s));
}
CK__BLOCK_INLINE void ck__nt_line_i32_f64(double *out, const char *p) {
    _mm512_stream_pd(out, _mm512_cvtepi32_pd(_mm256_loadu_si256((const __m256i *)(const void *)p)));
}
CK__BLOCK_INLINE void ck__nt_line_f32_f64(double *out, const float *in) {
    _mm512_stream_pd(out, _mm512_cvtps_pd(_mm256_loadu_ps(in)));
}
CK__BLOCK_INLINE void ck__nt_line_f64_f32(float *out, const double *in) {
    const __m256 lo = _mm512_cvtpd_ps(_mm512_loadu_pd(in));
    const __m256 hi = _mm512_cvtpd_ps(_mm512_loadu_pd(in + 8));
    _mm512_stream_ps(out, _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1));
}
CK__BLOCK_INLINE void ck__nt_line_f64_i32(char *out, const double *in) {
    const __m256i lo = ck__i32_from_f64x8(_mm512_loadu_pd(in));
    const __m256i hi = ck__i32_from_f64x8(_mm512_loadu_pd(in + 8));
    _mm512_stream_si512((void *)out, _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1));
}
/* The same lines from a strided source: 8 elements already in two 4-lane vectors, or
 * (float64 -> int32) 16 elements read by LD(j), j < 16. */
CK__BLOCK_INLINE void ck__nt_line_i32x8_f64(double *out, __m128i a, __m128i b) {
    _mm512_stream_pd(out, _mm512_cvtepi32_pd(_mm256_set_m128i(b, a)));
}
CK__BLOCK_INLINE void ck__nt_line_f32x8_f64(double *out, __m128 a, __m128 b) {
    _mm512_stream_pd(out, _mm512_cvtps_pd(_mm256_set_m128(b, a)));
}
#define CK__NT_LINE_F64_I32_BY(out, LD)                                                     \
    do {                                                                                    \
        for (size_t j_ = 0; j_ < 16; j_ += 8) {                                             \
            const __m512d v_ = _mm512_setr_pd(LD(j_), LD(j_ + 1), LD(j_ + 2), LD(j_ + 3),   \
                                              LD(j_ + 4), LD(j_ + 5), LD(j_ + 6), LD(j_ + 7)); \
            _mm256_stream_si256((__m256i *)(void *)((out) + j_ * 4), ck__i32_from_f64x8(v_)); \
        }                                                                                   \
    } while (0)

/* ---- SLEEF's two deterministic families (each gives the same bits on every ISA, vmath_ops.h):
 * CK__SLEEF_D(exp, u10) names the one without FMA, Sleef_cinz_expd8_u10avx512fnofma, and
 * CK__SLEEF_FMA_D(exp, u10) the one with, Sleef_finz_expd8_u10avx512f ---- */
#ifndef CK__SIMD_SLEEF
#  define CK__SIMD_SLEEF 1
#  include <sleef.h>
#  define CK__VMD_LANES 8
#  define CK__VMF_LANES 16
#  define CK__VMD_LOAD _mm512_loadu_pd
#  define CK__VMD_STORE _mm512_storeu_pd
#  define CK__VMF_LOAD _mm512_loadu_ps
#  define CK__VMF_STORE _mm512_storeu_ps
#  define CK__SLEEF_D(f, u) Sleef_cinz_##f##d8_##u##avx512fnofma
#  define CK__SLEEF_F(f, u) Sleef_cinz_##f##f16_##u##avx512fnofma
#  define CK__SLEEF_FMA_D(f, u) Sleef_finz_##f##d8_##u##avx512f
#  define CK__SLEEF_FMA_F(f, u) Sleef_finz_##f##f16_##u##avx512f
#endif

#ifdef __cplusplus
}
#endif

#endif
