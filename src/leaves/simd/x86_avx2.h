/* src/leaves/simd/x86_avx2.h: the AVX2 vector bodies (the avx2 target, x86-64-v3: AVX2,
 * FMA, F16C), each defined unless x86_avx512.h gave its own: float16 casts through F16C,
 * int64 -> float64 by hand (AVX2 has no vcvtqq2pd), float64 -> int32 in 4 lanes, the
 * float16 arithmetic's 8-lane vectors, the 8x8 transpose of 4-byte elements (with its
 * widening to float64) and the 4x4 one of 8-byte elements, the streaming lines in two
 * registers and the reductions' 256-bit minimum and maximum. Included through
 * leaves/simd/simd.h only. */
#ifndef CKERNEL_SIMD_X86_AVX2_H
#define CKERNEL_SIMD_X86_AVX2_H

#if !defined(__F16C__)
#  error "the avx2 target's flags (x86-64-v3) include F16C"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- casts (scalar_assign.dispatch.c) ---- */

#ifndef CK__SIMD_F16_CASTS
#  define CK__SIMD_F16_CASTS 1
CK__SIMD_BODY size_t ck__v_f32_from_f16(float *d, const uint16_t *s, size_t n) {
    size_t i = 0;
    for (; n - i >= 8; i += 8) {
        __m128i h = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        _mm256_storeu_ps(d + i, _mm256_cvtph_ps(h));
    }
    return i;
}

CK__SIMD_BODY size_t ck__v_f64_from_f16(double *d, const uint16_t *s, size_t n) {
    size_t i = 0;
    for (; n - i >= 8; i += 8) {
        __m128i h = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        __m256 f = _mm256_cvtph_ps(h);
        _mm256_storeu_pd(d + i, _mm256_cvtps_pd(_mm256_castps256_ps128(f)));
        _mm256_storeu_pd(d + i + 4, _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)));
    }
    return i;
}

CK__SIMD_BODY size_t ck__v_f16_from_f32(uint16_t *d, const float *s, size_t n, int checked,
                                        int inexact) {
    const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256 inf = _mm256_set1_ps(HUGE_VALF);
    size_t i = 0;
    if (!checked) {
        /* Two vectors a step: at one a step the loop ran at the speed of where it happened to
         * lie (0.029 or 0.032 ns/elem in cache, AMD EPYC, by the code before it). */
        for (; n - i >= 16; i += 16) {
            __m128i h0 = _mm256_cvtps_ph(_mm256_loadu_ps(s + i), CK__F16_RNE);
            __m128i h1 = _mm256_cvtps_ph(_mm256_loadu_ps(s + i + 8), CK__F16_RNE);
            _mm_storeu_si128((__m128i *)(void *)(d + i), h0);
            _mm_storeu_si128((__m128i *)(void *)(d + i + 8), h1);
        }
    }
    for (; n - i >= 8; i += 8) {
        __m256 v = _mm256_loadu_ps(s + i);
        __m128i h = _mm256_cvtps_ph(v, CK__F16_RNE);
        if (checked) {
            __m256 b = _mm256_cvtph_ps(h);
            __m256 bad = _mm256_and_ps(
                _mm256_cmp_ps(_mm256_and_ps(b, abs_mask), inf, _CMP_EQ_OQ),
                _mm256_cmp_ps(_mm256_and_ps(v, abs_mask), inf, _CMP_NEQ_UQ));
            if (inexact) { /* NaN -> NaN is allowed: an ordered compare */
                bad = _mm256_or_ps(bad, _mm256_cmp_ps(b, v, _CMP_NEQ_OQ));
            }
            if (_mm256_movemask_ps(bad) != 0) {
                return i;
            }
        }
        _mm_storeu_si128((__m128i *)(void *)(d + i), h);
    }
    return i;
}
#endif

#ifndef CK__SIMD_F64_FROM_I64
/* int64 -> float64 in AVX2, exactly as C's conversion (one rounding, in the current
 * rounding mode): x = hi * 2^32 + lo with hi signed and lo unsigned 32-bit halves. The
 * halves are placed into the significands of 2^84 * 1.5 + hi * 2^32 and 2^52 + lo (both
 * exact); subtracting 2^84 * 1.5 + 2^52 from the first is exact, and the final addition
 * rounds once to the nearest double of hi * 2^32 + lo = x. */
#  define CK__SIMD_F64_FROM_I64 1
CK__SIMD_BODY size_t ck__v_f64_from_i64(double *d, const int64_t *s, size_t n) {
    const __m256i lo_magic = _mm256_set1_epi64x(0x4330000000000000); /* 2^52 */
    const __m256i hi_magic = _mm256_set1_epi64x(0x4530000080000000); /* 2^84 + 2^63 */
    const __m256d all_magic = _mm256_set1_pd(0x1p84 + 0x1p63 + 0x1p52);
    size_t i = 0;
    for (; n - i >= 4; i += 4) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(s + i));
        /* lo: the low 32 bits under the exponent of 2^52 */
        __m256i lo = _mm256_blend_epi32(lo_magic, x, 0x55);
        /* hi: the high 32 bits, biased by 2^31 (xor of the sign bit), under 2^84 */
        __m256i hi = _mm256_srli_epi64(x, 32);
        hi = _mm256_xor_si256(hi, hi_magic);
        __m256d f = _mm256_sub_pd(_mm256_castsi256_pd(hi), all_magic);
        _mm256_storeu_pd(d + i, _mm256_add_pd(f, _mm256_castsi256_pd(lo)));
    }
    return i;
}
#endif

/* float64 -> int32 nocheck in 4 lanes: min(v, MAX) is MAX for a NaN v; the ordered mask
 * then clears that lane to 0.0 (the rules as in x86_sse2.h's 2-lane body). */
static inline __m128i ck__i32_from_f64x4(__m256d v) {
    __m256d ord = _mm256_cmp_pd(v, v, _CMP_ORD_Q);
    __m256d c = _mm256_and_pd(_mm256_min_pd(v, _mm256_set1_pd(2147483647.0)), ord);
    return _mm256_cvttpd_epi32(c);
}

#ifndef CK__SIMD_I32_FROM_F64
#  define CK__SIMD_I32_FROM_F64 1
CK__SIMD_BODY size_t ck__v_i32_from_f64(int32_t *d, const double *s, size_t n) {
    size_t i = 0;
    for (; n - i >= 8; i += 8) {
        __m128i a = ck__i32_from_f64x4(_mm256_loadu_pd(s + i));
        __m128i b = ck__i32_from_f64x4(_mm256_loadu_pd(s + i + 4));
        _mm256_storeu_si256((__m256i *)(void *)(d + i), _mm256_set_m128i(b, a));
    }
    if (n - i >= 4) {
        __m128i a = ck__i32_from_f64x4(_mm256_loadu_pd(s + i));
        _mm_storeu_si128((__m128i *)(void *)(d + i), a);
        i += 4;
    }
    return i; /* up to 3 left for the leaf's loop */
}
#endif

/* ---- float16 arithmetic in float32 vectors (arith.dispatch.c) ---- */

#ifndef CK__SIMD_HALF_VECTORS
#  define CK__SIMD_HALF_VECTORS 1
#  define CK__F16_LANES 8
typedef __m256 ck__vf;
CK__HOT ck__vf ck__vf_load_half(const uint16_t *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
}
CK__HOT void ck__vf_store_half(uint16_t *p, ck__vf v) {
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_cvtps_ph(v, CK__F16_RNE));
}
CK__HOT ck__vf ck__vf_set1(float x) {
    return _mm256_set1_ps(x);
}
#  define ck__vf_add _mm256_add_ps
#  define ck__vf_sub _mm256_sub_ps
#  define ck__vf_mul _mm256_mul_ps
#  define ck__vf_div _mm256_div_ps
#endif

/* ---- tile transposes (transpose.dispatch.c) ---- */

/* o[k] = column k of the 8 rows at p, p + row, ... */
CK__BLOCK_INLINE void load_transpose_8x8(const char *p, intptr_t row, __m256 o[8]) {
    __m256 r[8], t[8], w[8];
    for (int k = 0; k < 8; k++) {
        r[k] = _mm256_loadu_ps((const float *)(const void *)(p + k * row));
    }
    for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
        t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
    }
    for (int k = 0; k < 8; k += 4) {
        w[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44);
        w[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xEE);
        w[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44);
        w[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
    }
    for (int k = 0; k < 8; k++) {
        /* column k: the low lanes of w[k] and w[k + 4], or (k >= 4) their high lanes */
        o[k] = k < 4 ? _mm256_permute2f128_ps(w[k], w[k + 4], 0x20)
                     : _mm256_permute2f128_ps(w[k - 4], w[k], 0x31);
    }
}

#define CK__SIMD_BLOCK_4 1
enum { CK__B4 = 8, CK__VW4 = 32 };
CK__BLOCK_INLINE void block_4(char *dst, intptr_t du, const char *buf, intptr_t brow, size_t u,
                              size_t v, const int nt) {
    __m256 o[8];
    load_transpose_8x8(buf + (intptr_t)v * brow + (intptr_t)u * 4, brow, o);
    for (int k = 0; k < 8; k++) {
        float *p = (float *)(void *)(dst + (intptr_t)(u + (size_t)k) * du + (intptr_t)v * 4);
        if (nt) {
            _mm256_stream_ps(p, o[k]);
        } else {
            _mm256_storeu_ps(p, o[k]);
        }
    }
}

/* 8 u x 8 v: eight source rows' 8 elements become eight destination lines of float64. */
enum { CK__BW = 8, CK__VWW = 32 };
CK__BLOCK_INLINE void block_widen(char *dst, intptr_t du, const char *src, intptr_t sv,
                                  size_t u, size_t v, const int from_float, const int nt) {
    __m256 o[8];
    load_transpose_8x8(src + (intptr_t)v * sv + (intptr_t)u * 4, sv, o);
    for (int k = 0; k < 8; k++) {
        const __m128 lo = _mm256_castps256_ps128(o[k]), hi = _mm256_extractf128_ps(o[k], 1);
        const __m256d a = from_float ? _mm256_cvtps_pd(lo) : _mm256_cvtepi32_pd(_mm_castps_si128(lo));
        const __m256d b = from_float ? _mm256_cvtps_pd(hi) : _mm256_cvtepi32_pd(_mm_castps_si128(hi));
        double *p = (double *)(void *)(dst + (intptr_t)(u + (size_t)k) * du + (intptr_t)v * 8);
        if (nt) {
            _mm256_stream_pd(p, a);
            _mm256_stream_pd(p + 4, b);
        } else {
            _mm256_storeu_pd(p, a);
            _mm256_storeu_pd(p + 4, b);
        }
    }
}

#ifndef CK__SIMD_BLOCK_8
#  define CK__SIMD_BLOCK_8 1
enum { CK__B8 = 4, CK__VW8 = 32 };
CK__BLOCK_INLINE void block_8(char *dst, intptr_t du, const char *buf, intptr_t brow, size_t u,
                              size_t v, const int nt) {
    __m256d r[4];
    for (int k = 0; k < 4; k++) {
        r[k] = _mm256_loadu_pd((const double *)(const void *)(buf + (intptr_t)(v + (size_t)k) * brow + (intptr_t)u * 8));
    }
    const __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
    const __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
    const __m256d o[4] = {_mm256_permute2f128_pd(t0, t2, 0x20), _mm256_permute2f128_pd(t1, t3, 0x20),
                          _mm256_permute2f128_pd(t0, t2, 0x31), _mm256_permute2f128_pd(t1, t3, 0x31)};
    for (int k = 0; k < 4; k++) {
        double *p = (double *)(void *)(dst + (intptr_t)(u + (size_t)k) * du + (intptr_t)v * 8);
        if (nt) {
            _mm256_stream_pd(p, o[k]);
        } else {
            _mm256_storeu_pd(p, o[k]);
        }
    }
}
#endif

/* ---- streaming lines (streaming.dispatch.c): one 64-byte destination line each ---- */

#ifndef CK__SIMD_STREAM_LINES
#  define CK__SIMD_STREAM_LINES 1
CK__BLOCK_INLINE void ck__nt_line_copy(char *d, const char *s) {
    const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)s);
    const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(s + 32));
    _mm256_stream_si256((__m256i *)(void *)d, a);
    _mm256_stream_si256((__m256i *)(void *)(d + 32), b);
}
CK__BLOCK_INLINE void ck__nt_line_i32_f64(double *out, const char *p) {
    _mm256_stream_pd(out, _mm256_cvtepi32_pd(_mm_loadu_si128((const __m128i *)(const void *)p)));
    _mm256_stream_pd(out + 4,
                     _mm256_cvtepi32_pd(_mm_loadu_si128((const __m128i *)(const void *)(p + 16))));
}
CK__BLOCK_INLINE void ck__nt_line_f32_f64(double *out, const float *in) {
    _mm256_stream_pd(out, _mm256_cvtps_pd(_mm_loadu_ps(in)));
    _mm256_stream_pd(out + 4, _mm256_cvtps_pd(_mm_loadu_ps(in + 4)));
}
CK__BLOCK_INLINE void ck__nt_line_f64_f32(float *out, const double *in) {
    for (size_t j = 0; j < 16; j += 8) {
        const __m128 lo = _mm256_cvtpd_ps(_mm256_loadu_pd(in + j));
        const __m128 hi = _mm256_cvtpd_ps(_mm256_loadu_pd(in + j + 4));
        _mm256_stream_ps(out + j, _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1));
    }
}
CK__BLOCK_INLINE void ck__nt_line_f64_i32(char *out, const double *in) {
    for (size_t j = 0; j < 16; j += 8) {
        const __m128i lo = ck__i32_from_f64x4(_mm256_loadu_pd(in + j));
        const __m128i hi = ck__i32_from_f64x4(_mm256_loadu_pd(in + j + 4));
        _mm256_stream_si256((__m256i *)(void *)(out + j * 4), _mm256_set_m128i(hi, lo));
    }
}
/* The same lines from a strided source: 8 elements already in two 4-lane vectors, or
 * (float64 -> int32) 16 elements read by LD(j), j < 16. */
CK__BLOCK_INLINE void ck__nt_line_i32x8_f64(double *out, __m128i a, __m128i b) {
    _mm256_stream_pd(out, _mm256_cvtepi32_pd(a));
    _mm256_stream_pd(out + 4, _mm256_cvtepi32_pd(b));
}
CK__BLOCK_INLINE void ck__nt_line_f32x8_f64(double *out, __m128 a, __m128 b) {
    _mm256_stream_pd(out, _mm256_cvtps_pd(a));
    _mm256_stream_pd(out + 4, _mm256_cvtps_pd(b));
}
#  define CK__NT_LINE_F64_I32_BY(out, LD)                                                   \
    do {                                                                                    \
        for (size_t j_ = 0; j_ < 16; j_ += 4) {                                             \
            const __m256d v_ = _mm256_setr_pd(LD(j_), LD(j_ + 1), LD(j_ + 2), LD(j_ + 3));   \
            _mm_stream_si128((__m128i *)(void *)((out) + j_ * 4), ck__i32_from_f64x4(v_));  \
        }                                                                                   \
    } while (0)
#endif

/* ---- the reductions' minimum and maximum (reduce_ops.dispatch.c): 256 bits ---- */

#define CK__SIMD_MINMAX 1
#define CK__VPD __m256d
#define CK__VPS __m256
#define CK__WPD 4
#define CK__WPS 8
#define CK__PD_LOAD(p) _mm256_loadu_pd((const double *)(const void *)(p))
#define CK__PD_STORE(p, v) _mm256_storeu_pd((double *)(void *)(p), v)
#define CK__PD_UNORD(a, b) _mm256_cmp_pd(a, b, _CMP_UNORD_Q)
#define CK__PS_LOAD(p) _mm256_loadu_ps((const float *)(const void *)(p))
#define CK__PS_STORE(p, v) _mm256_storeu_ps((float *)(void *)(p), v)
#define CK__PS_UNORD(a, b) _mm256_cmp_ps(a, b, _CMP_UNORD_Q)
#define CK__PD(op) _mm256_##op##_pd
#define CK__PS(op) _mm256_##op##_ps

/* ---- SLEEF's two deterministic families (each gives the same bits on every ISA, vmath_ops.h):
 * CK__SLEEF_D(exp, u10) names the one without FMA, Sleef_cinz_expd4_u10avx, and
 * CK__SLEEF_FMA_D(exp, u10) the one with, Sleef_finz_expd4_u10avx2 ---- */
#ifndef CK__SIMD_SLEEF
#  define CK__SIMD_SLEEF 1
#  include <sleef.h>
#  define CK__VMD_LANES 4
#  define CK__VMF_LANES 8
#  define CK__VMD_LOAD _mm256_loadu_pd
#  define CK__VMD_STORE _mm256_storeu_pd
#  define CK__VMF_LOAD _mm256_loadu_ps
#  define CK__VMF_STORE _mm256_storeu_ps
#  define CK__SLEEF_D(f, u) Sleef_cinz_##f##d4_##u##avx
#  define CK__SLEEF_F(f, u) Sleef_cinz_##f##f8_##u##avx
#  define CK__SLEEF_FMA_D(f, u) Sleef_finz_##f##d4_##u##avx2
#  define CK__SLEEF_FMA_F(f, u) Sleef_finz_##f##f8_##u##avx2
#endif

#ifdef __cplusplus
}
#endif

#endif
