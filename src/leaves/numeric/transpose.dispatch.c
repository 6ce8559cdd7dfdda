/* src/leaves/numeric/transpose.dispatch.c: tile transposes for the tiled kernel (tiled_2d.c),
 * compiled once per CPU target. The tiled kernel's leaf has converted a tile along the
 * source's contiguous axis into rows of an L1-resident buffer (or, for a plain copy, the
 * source's own rows serve); this turns those rows into the destination's columns in
 * registers: 8x8 blocks of 4-byte elements (AVX2; 4x4 with the baseline's SSE2) and of
 * 8-byte ones (AVX-512; 4x4 with AVX2, 2x2 with SSE2), other sizes and a tile's edges
 * element by element. int32 and float32 to float64 skip the buffer: each block of source
 * rows is transposed as 4-byte elements and widened in registers, one 64-byte line per
 * destination row. With `stream` the blocks are stored with non-temporal stores, so a
 * destination too large for the cache is not read first. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "targets/dispatch_target.h"
#include "leaves/numeric/transpose_tiles.h"

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

#define CK__BLOCK_INLINE static inline __attribute__((always_inline))

/* Element by element, destination row by row: the edges, and sizes without a block. */
static void transpose_scalar(char *dst, intptr_t du, intptr_t dv, const char *buf, intptr_t brow,
                             size_t size, size_t u0, size_t nu, size_t v0, size_t nv) {
    for (size_t u = u0; u < u0 + nu; u++) {
        for (size_t v = v0; v < v0 + nv; v++) {
            memcpy(dst + (intptr_t)u * du + (intptr_t)v * dv, buf + (intptr_t)v * brow + (intptr_t)u * (intptr_t)size, size);
        }
    }
}

/* The same, widening to float64 as the scalar casts do. */
static void widen_scalar(char *dst, intptr_t du, const char *src, intptr_t sv, int from_float,
                         size_t u0, size_t nu, size_t v0, size_t nv) {
    for (size_t u = u0; u < u0 + nu; u++) {
        for (size_t v = v0; v < v0 + nv; v++) {
            const char *s = src + (intptr_t)v * sv + (intptr_t)u * 4;
            double d;
            if (from_float) {
                float f;
                memcpy(&f, s, sizeof f);
                d = (double)f;
            } else {
                int32_t i;
                memcpy(&i, s, sizeof i);
                d = (double)i;
            }
            memcpy(dst + (intptr_t)u * du + (intptr_t)v * 8, &d, sizeof d);
        }
    }
}

/* ---- register transposes: o[k] = column k of the rows at p, p + row, ... ---- */

#if defined(__AVX2__)
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
#endif

#if defined(__SSE2__)
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
#endif

/* ---- one block at (u, v); nt: non-temporal stores (aligned) ---- */

#if defined(__AVX2__)
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
#elif defined(__SSE2__)
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

#if CK__HAVE_AVX512
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
#elif defined(__AVX2__)
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
#elif defined(__SSE2__)
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

/* The whole blocks of a tile, destination row block by row block (so each row's lines are
 * completed together), then the edges element by element. */
#define CK__TRANSPOSE_BLOCKS(B, VW, block)                                                      \
    do {                                                                                      \
        const size_t bu = nu / (B) * (B), bv = nv / (B) * (B);                                \
        const int nt = stream && (uintptr_t)dst % (VW) == 0 && (uintptr_t)du % (VW) == 0;     \
        for (size_t u = 0; u < bu; u += (B)) {                                                \
            if (nt) {                                                                         \
                for (size_t v = 0; v < bv; v += (B)) block(dst, du, buf, brow, u, v, 1);      \
            } else {                                                                          \
                for (size_t v = 0; v < bv; v += (B)) block(dst, du, buf, brow, u, v, 0);      \
            }                                                                                 \
        }                                                                                     \
        transpose_scalar(dst, du, dv, buf, brow, size, 0, bu, bv, nv - bv);                   \
        transpose_scalar(dst, du, dv, buf, brow, size, bu, nu - bu, 0, nv);                   \
        return;                                                                               \
    } while (0)

static void transpose_tile(char *dst, intptr_t du, intptr_t dv, const char *buf, intptr_t brow,
                           size_t size, size_t nu, size_t nv, int stream) {
#if defined(__SSE2__)
    if (size == 4 && dv == 4) {
        CK__TRANSPOSE_BLOCKS(CK__B4, CK__VW4, block_4);
    }
    if (size == 8 && dv == 8) {
        CK__TRANSPOSE_BLOCKS(CK__B8, CK__VW8, block_8);
    }
#else
    (void)stream;
#endif
    transpose_scalar(dst, du, dv, buf, brow, size, 0, nu, 0, nv);
}

#if defined(__SSE2__)
/* The whole widening blocks with the conversion and the store kind fixed, so that each
 * of the four combinations is its own loop. */
CK__BLOCK_INLINE void widen_blocks(char *dst, intptr_t du, const char *src, intptr_t sv,
                                   size_t bu, size_t bv, const int from_float, const int nt) {
    for (size_t u = 0; u < bu; u += CK__BW) {
        for (size_t v = 0; v < bv; v += 8) {
            block_widen(dst, du, src, sv, u, v, from_float, nt);
        }
    }
}
#endif

static void widen_transpose(char *dst, intptr_t du, const char *src, intptr_t sv, int from_float,
                            size_t nu, size_t nv, int stream) {
#if defined(__SSE2__)
    const size_t bu = nu / CK__BW * CK__BW, bv = nv / 8 * 8;
    const int nt = stream && (uintptr_t)dst % CK__VWW == 0 && (uintptr_t)du % CK__VWW == 0;
    if (from_float) {
        if (nt) {
            widen_blocks(dst, du, src, sv, bu, bv, 1, 1);
        } else {
            widen_blocks(dst, du, src, sv, bu, bv, 1, 0);
        }
    } else if (nt) {
        widen_blocks(dst, du, src, sv, bu, bv, 0, 1);
    } else {
        widen_blocks(dst, du, src, sv, bu, bv, 0, 0);
    }
    widen_scalar(dst, du, src, sv, from_float, 0, bu, bv, nv - bv);
    widen_scalar(dst, du, src, sv, from_float, bu, nu - bu, 0, nv);
#else
    (void)stream;
    widen_scalar(dst, du, src, sv, from_float, 0, nu, 0, nv);
#endif
}

const ck__transpose_loops CK_TARGET_NAME(ck__transpose_loops) = {transpose_tile, widen_transpose};
