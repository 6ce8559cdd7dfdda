/* src/leaves/simd/x86_sse2.h: the SSE2 vector bodies (x86-64's baseline target), each
 * defined unless a higher level (x86_avx512.h, x86_avx2.h) gave its own: float64 -> int32
 * in 2 lanes, the 4x4 transpose of 4-byte elements (with its widening to float64) and the
 * 2x2 one of 8-byte elements, the streaming lines in four registers and the reductions'
 * 128-bit minimum and maximum. Included through leaves/simd/simd.h only. */
#ifndef CKERNEL_SIMD_X86_SSE2_H
#define CKERNEL_SIMD_X86_SSE2_H

#include <emmintrin.h>
#include <xmmintrin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- casts (scalar_assign.dispatch.c, and the streaming line below) ---- */

/* float64 -> int32, nocheck: the rules of CK__SATURATE in four vector operations. Lanes
 * that are NaN become 0.0 and the rest are clamped to at most INT32_MAX (min of a non-NaN
 * value), then the truncating conversion does the rest: it truncates toward zero whatever
 * the rounding mode, and every value whose truncation is below INT32_MIN (-inf included)
 * gives its "integer indefinite" result 0x80000000, which is INT32_MIN, the saturated
 * value (it raises the invalid flag, as the C loop's compares of NaN do; no result depends
 * on flags). gcc's own vectorization of the C loop keeps three 64-bit compare masks and
 * narrows each to 32-bit lanes with shuffles before blending (about 40 instructions per 8
 * elements in the avx2 target, 3.5x slower in cache). The higher levels' bodies (4 and 8
 * lanes) follow the same rules, so the contiguous leaf and the streaming loop give the
 * same bits on every target. */
static inline __m128i ck__i32_from_f64x2(__m128d v) {
    __m128d c = _mm_and_pd(_mm_min_pd(v, _mm_set1_pd(2147483647.0)), _mm_cmpord_pd(v, v));
    return _mm_cvttpd_epi32(c); /* the two results in the low half */
}

#ifndef CK__SIMD_I32_FROM_F64
#  define CK__SIMD_I32_FROM_F64 1
CK__SIMD_BODY size_t ck__v_i32_from_f64(int32_t *d, const double *s, size_t n) {
    size_t i = 0;
    for (; n - i >= 4; i += 4) {
        __m128i a = ck__i32_from_f64x2(_mm_loadu_pd(s + i));
        __m128i b = ck__i32_from_f64x2(_mm_loadu_pd(s + i + 2));
        _mm_storeu_si128((__m128i *)(void *)(d + i), _mm_unpacklo_epi64(a, b));
    }
    return i; /* up to 3 left for the leaf's loop */
}
#endif

/* ---- tile transposes (transpose.dispatch.c) ---- */

#ifndef CK__SIMD_BLOCK_4
#  define CK__SIMD_BLOCK_4 1
/* o[k] = column k of the 4 rows at p, p + row, ... */
CK__BLOCK_INLINE void load_transpose_4x4(const char *p, intptr_t row, __m128 o[4]) {
    __m128 r[4];
    for (int k = 0; k < 4; k++) {
        r[k] = _mm_loadu_ps((const float *)(const void *)(p + k * row));
    }
    const __m128 t0 = _mm_unpacklo_ps(r[0], r[1]), t1 = _mm_unpackhi_ps(r[0], r[1]);
    const __m128 t2 = _mm_unpacklo_ps(r[2], r[3]), t3 = _mm_unpackhi_ps(r[2], r[3]);
    o[0] = _mm_movelh_ps(t0, t2);
    o[1] = _mm_movehl_ps(t2, t0);
    o[2] = _mm_movelh_ps(t1, t3);
    o[3] = _mm_movehl_ps(t3, t1);
}

/* Two widened lanes of x (its low pair, or with `high` its high pair) as float64. */
CK__BLOCK_INLINE __m128d widen_pair(__m128 x, const int high, const int from_float) {
    const __m128 y = high ? _mm_movehl_ps(x, x) : x;
    return from_float ? _mm_cvtps_pd(y) : _mm_cvtepi32_pd(_mm_castps_si128(y));
}

enum { CK__B4 = 4, CK__VW4 = 16 };
CK__BLOCK_INLINE void block_4(char *dst, intptr_t du, const char *buf, intptr_t brow, size_t u,
                              size_t v, const int nt) {
    __m128 o[4];
    load_transpose_4x4(buf + (intptr_t)v * brow + (intptr_t)u * 4, brow, o);
    for (int k = 0; k < 4; k++) {
        float *p = (float *)(void *)(dst + (intptr_t)(u + (size_t)k) * du + (intptr_t)v * 4);
        if (nt) {
            _mm_stream_ps(p, o[k]);
        } else {
            _mm_storeu_ps(p, o[k]);
        }
    }
}

/* 4 u x 8 v: two 4x4 transposes give each of four destination rows a line of float64. */
enum { CK__BW = 4, CK__VWW = 16 };
CK__BLOCK_INLINE void block_widen(char *dst, intptr_t du, const char *src, intptr_t sv,
                                  size_t u, size_t v, const int from_float, const int nt) {
    __m128 lo[4], hi[4];
    const char *p0 = src + (intptr_t)v * sv + (intptr_t)u * 4;
    load_transpose_4x4(p0, sv, lo);
    load_transpose_4x4(p0 + 4 * sv, sv, hi);
    for (int k = 0; k < 4; k++) {
        const __m128d o[4] = {widen_pair(lo[k], 0, from_float), widen_pair(lo[k], 1, from_float),
                              widen_pair(hi[k], 0, from_float), widen_pair(hi[k], 1, from_float)};
        double *p = (double *)(void *)(dst + (intptr_t)(u + (size_t)k) * du + (intptr_t)v * 8);
        for (int h = 0; h < 4; h++) {
            if (nt) {
                _mm_stream_pd(p + 2 * h, o[h]);
            } else {
                _mm_storeu_pd(p + 2 * h, o[h]);
            }
        }
    }
}
#endif

#ifndef CK__SIMD_BLOCK_8
#  define CK__SIMD_BLOCK_8 1
enum { CK__B8 = 2, CK__VW8 = 16 };
CK__BLOCK_INLINE void block_8(char *dst, intptr_t du, const char *buf, intptr_t brow, size_t u,
                              size_t v, const int nt) {
    const __m128d r0 = _mm_loadu_pd((const double *)(const void *)(buf + (intptr_t)v * brow + (intptr_t)u * 8));
    const __m128d r1 = _mm_loadu_pd((const double *)(const void *)(buf + (intptr_t)(v + 1) * brow + (intptr_t)u * 8));
    const __m128d o[2] = {_mm_unpacklo_pd(r0, r1), _mm_unpackhi_pd(r0, r1)};
    for (int k = 0; k < 2; k++) {
        double *p = (double *)(void *)(dst + (intptr_t)(u + (size_t)k) * du + (intptr_t)v * 8);
        if (nt) {
            _mm_stream_pd(p, o[k]);
        } else {
            _mm_storeu_pd(p, o[k]);
        }
    }
}
#endif

/* ---- streaming lines (streaming.dispatch.c): one 64-byte destination line each ---- */

#ifndef CK__SIMD_STREAM_LINES
#  define CK__SIMD_STREAM_LINES 1
CK__BLOCK_INLINE void ck__nt_line_copy(char *d, const char *s) {
    for (size_t j = 0; j < 64; j += 16) {
        _mm_stream_si128((__m128i *)(void *)(d + j),
                         _mm_loadu_si128((const __m128i *)(const void *)(s + j)));
    }
}
CK__BLOCK_INLINE void ck__nt_line_i32_f64(double *out, const char *p) {
    for (size_t j = 0; j < 8; j += 4) {
        const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + j * 4));
        _mm_stream_pd(out + j, _mm_cvtepi32_pd(v));
        _mm_stream_pd(out + j + 2, _mm_cvtepi32_pd(_mm_unpackhi_epi64(v, v)));
    }
}
CK__BLOCK_INLINE void ck__nt_line_f32_f64(double *out, const float *in) {
    for (size_t j = 0; j < 8; j += 4) {
        const __m128 v = _mm_loadu_ps(in + j);
        _mm_stream_pd(out + j, _mm_cvtps_pd(v));
        _mm_stream_pd(out + j + 2, _mm_cvtps_pd(_mm_movehl_ps(v, v)));
    }
}
CK__BLOCK_INLINE void ck__nt_line_f64_f32(float *out, const double *in) {
    for (size_t j = 0; j < 16; j += 4) {
        const __m128 lo = _mm_cvtpd_ps(_mm_loadu_pd(in + j));
        const __m128 hi = _mm_cvtpd_ps(_mm_loadu_pd(in + j + 2));
        _mm_stream_ps(out + j, _mm_movelh_ps(lo, hi));
    }
}
CK__BLOCK_INLINE void ck__nt_line_f64_i32(char *out, const double *in) {
    for (size_t j = 0; j < 16; j += 4) {
        const __m128i lo = ck__i32_from_f64x2(_mm_loadu_pd(in + j));
        const __m128i hi = ck__i32_from_f64x2(_mm_loadu_pd(in + j + 2));
        _mm_stream_si128((__m128i *)(void *)(out + j * 4), _mm_unpacklo_epi64(lo, hi));
    }
}
/* The same lines from a strided source: 8 elements already in two 4-lane vectors, or
 * (float64 -> int32) 16 elements read by LD(j), j < 16. */
CK__BLOCK_INLINE void ck__nt_line_i32x8_f64(double *out, __m128i a, __m128i b) {
    _mm_stream_pd(out, _mm_cvtepi32_pd(a));
    _mm_stream_pd(out + 2, _mm_cvtepi32_pd(_mm_unpackhi_epi64(a, a)));
    _mm_stream_pd(out + 4, _mm_cvtepi32_pd(b));
    _mm_stream_pd(out + 6, _mm_cvtepi32_pd(_mm_unpackhi_epi64(b, b)));
}
CK__BLOCK_INLINE void ck__nt_line_f32x8_f64(double *out, __m128 a, __m128 b) {
    _mm_stream_pd(out, _mm_cvtps_pd(a));
    _mm_stream_pd(out + 2, _mm_cvtps_pd(_mm_movehl_ps(a, a)));
    _mm_stream_pd(out + 4, _mm_cvtps_pd(b));
    _mm_stream_pd(out + 6, _mm_cvtps_pd(_mm_movehl_ps(b, b)));
}
#  define CK__NT_LINE_F64_I32_BY(out, LD)                                                   \
    do {                                                                                    \
        for (size_t j_ = 0; j_ < 16; j_ += 4) {                                             \
            const __m128i r_ = _mm_unpacklo_epi64(                                          \
                ck__i32_from_f64x2(_mm_setr_pd(LD(j_), LD(j_ + 1))),                        \
                ck__i32_from_f64x2(_mm_setr_pd(LD(j_ + 2), LD(j_ + 3))));                   \
            _mm_stream_si128((__m128i *)(void *)((out) + j_ * 4), r_);                      \
        }                                                                                   \
    } while (0)
#endif

/* ---- the reductions' minimum and maximum (reduce_ops.dispatch.c): 128 bits ---- */

#ifndef CK__SIMD_MINMAX
#  define CK__SIMD_MINMAX 1
#  define CK__VPD __m128d
#  define CK__VPS __m128
#  define CK__WPD 2
#  define CK__WPS 4
#  define CK__PD_LOAD(p) _mm_loadu_pd((const double *)(const void *)(p))
#  define CK__PD_STORE(p, v) _mm_storeu_pd((double *)(void *)(p), v)
#  define CK__PD_UNORD(a, b) _mm_cmpunord_pd(a, b)
#  define CK__PS_LOAD(p) _mm_loadu_ps((const float *)(const void *)(p))
#  define CK__PS_STORE(p, v) _mm_storeu_ps((float *)(void *)(p), v)
#  define CK__PS_UNORD(a, b) _mm_cmpunord_ps(a, b)
#  define CK__PD(op) _mm_##op##_pd
#  define CK__PS(op) _mm_##op##_ps
#endif

/* ---- SLEEF's two deterministic families (each gives the same bits on every ISA, vmath_ops.h):
 * CK__SLEEF_D(exp, u10) names the one without FMA, Sleef_cinz_expd2_u10sse2, and
 * CK__SLEEF_FMA_D(exp, u10) the one with, Sleef_finz_expd2_u10avx2128 (SSE registers, AVX2
 * and FMA instructions: called only where ck__vmath_fma() says the CPU has them) ---- */
#ifndef CK__SIMD_SLEEF
#  define CK__SIMD_SLEEF 1
#  include <sleef.h>
#  define CK__VMD_LANES 2
#  define CK__VMF_LANES 4
#  define CK__VMD_LOAD _mm_loadu_pd
#  define CK__VMD_STORE _mm_storeu_pd
#  define CK__VMF_LOAD _mm_loadu_ps
#  define CK__VMF_STORE _mm_storeu_ps
#  define CK__SLEEF_D(f, u) Sleef_cinz_##f##d2_##u##sse2
#  define CK__SLEEF_F(f, u) Sleef_cinz_##f##f4_##u##sse2
#  define CK__SLEEF_FMA_D(f, u) Sleef_finz_##f##d2_##u##avx2128
#  define CK__SLEEF_FMA_F(f, u) Sleef_finz_##f##f4_##u##avx2128
#endif
/* The narrowest vectors of both families, for the kernels' calls of one element (a fold's
 * steps, whose speed is the functions' latency, lower on these): CK__SLEEF1_D and the rest,
 * the same functions whatever the target's widest. */
#ifndef CK__SIMD_SLEEF1
#  define CK__SIMD_SLEEF1 1
#  define CK__VMD1_LANES 2
#  define CK__VMF1_LANES 4
#  define CK__VMD1_LOAD _mm_loadu_pd
#  define CK__VMD1_STORE _mm_storeu_pd
#  define CK__VMF1_LOAD _mm_loadu_ps
#  define CK__VMF1_STORE _mm_storeu_ps
#  define CK__SLEEF1_D(f, u) Sleef_cinz_##f##d2_##u##sse2
#  define CK__SLEEF1_F(f, u) Sleef_cinz_##f##f4_##u##sse2
#  define CK__SLEEF1_FMA_D(f, u) Sleef_finz_##f##d2_##u##avx2128
#  define CK__SLEEF1_FMA_F(f, u) Sleef_finz_##f##f4_##u##avx2128
#endif

#ifdef __cplusplus
}
#endif

#endif
