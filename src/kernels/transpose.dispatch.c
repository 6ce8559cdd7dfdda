/* src/kernels/transpose.dispatch.c: tile transposes for the tiled kernel (tiled_2d.c),
 * compiled once per CPU target. The tiled kernel's leaf has converted a tile along the
 * source's contiguous axis into rows of an L1-resident buffer; this turns the buffer's rows
 * into the destination's columns in registers: 8x8 blocks of 4-byte elements (AVX2; 4x4
 * with the baseline's SSE2) and of 8-byte ones (AVX-512; 4x4 with AVX2, 2x2 with SSE2),
 * other sizes and a tile's edges element by element. With `stream` the blocks are stored
 * with non-temporal stores, so a destination too large for the cache is not read first. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/dispatch_target.h"
#include "kernels/transpose_tiles.h"

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

#define CK__BLOCK_INLINE static inline __attribute__((always_inline))

/* Element by element, destination row by row: the edges, and sizes without a block. */
static void transpose_scalar(char *dst, intptr_t du, intptr_t dv, const char *buf, size_t brow,
                             size_t size, size_t u0, size_t nu, size_t v0, size_t nv) {
    for (size_t u = u0; u < u0 + nu; u++) {
        for (size_t v = v0; v < v0 + nv; v++) {
            memcpy(dst + (intptr_t)u * du + (intptr_t)v * dv, buf + v * brow + u * size, size);
        }
    }
}

/* ---- one block: B x B elements at (u, v); nt: non-temporal stores (aligned) ---- */

#if defined(__AVX2__)
enum { CK__B4 = 8, CK__VW4 = 32 };
CK__BLOCK_INLINE void block_4(char *dst, intptr_t du, const char *buf, size_t brow, size_t u,
                              size_t v, const int nt) {
    __m256 r[8], t[8], w[8];
    for (int k = 0; k < 8; k++) {
        r[k] = _mm256_loadu_ps((const float *)(const void *)(buf + (v + (size_t)k) * brow + u * 4));
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
        /* row u + k: the low lanes of w[k] and w[k + 4], or (k >= 4) their high lanes */
        const __m256 o = k < 4 ? _mm256_permute2f128_ps(w[k], w[k + 4], 0x20)
                               : _mm256_permute2f128_ps(w[k - 4], w[k], 0x31);
        float *p = (float *)(void *)(dst + (intptr_t)(u + (size_t)k) * du + (intptr_t)v * 4);
        if (nt) {
            _mm256_stream_ps(p, o);
        } else {
            _mm256_storeu_ps(p, o);
        }
    }
}
#elif defined(__SSE2__)
enum { CK__B4 = 4, CK__VW4 = 16 };
CK__BLOCK_INLINE void block_4(char *dst, intptr_t du, const char *buf, size_t brow, size_t u,
                              size_t v, const int nt) {
    __m128 r[4];
    for (int k = 0; k < 4; k++) {
        r[k] = _mm_loadu_ps((const float *)(const void *)(buf + (v + (size_t)k) * brow + u * 4));
    }
    const __m128 t0 = _mm_unpacklo_ps(r[0], r[1]), t1 = _mm_unpackhi_ps(r[0], r[1]);
    const __m128 t2 = _mm_unpacklo_ps(r[2], r[3]), t3 = _mm_unpackhi_ps(r[2], r[3]);
    const __m128 o[4] = {_mm_movelh_ps(t0, t2), _mm_movehl_ps(t2, t0), _mm_movelh_ps(t1, t3),
                         _mm_movehl_ps(t3, t1)};
    for (int k = 0; k < 4; k++) {
        float *p = (float *)(void *)(dst + (intptr_t)(u + (size_t)k) * du + (intptr_t)v * 4);
        if (nt) {
            _mm_stream_ps(p, o[k]);
        } else {
            _mm_storeu_ps(p, o[k]);
        }
    }
}
#endif

#if CK__HAVE_AVX512
enum { CK__B8 = 8, CK__VW8 = 64 };
CK__BLOCK_INLINE void block_8(char *dst, intptr_t du, const char *buf, size_t brow, size_t u,
                              size_t v, const int nt) {
    __m512d r[8], t[8], w[8];
    for (int k = 0; k < 8; k++) {
        r[k] = _mm512_loadu_pd((const double *)(const void *)(buf + (v + (size_t)k) * brow + u * 8));
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
CK__BLOCK_INLINE void block_8(char *dst, intptr_t du, const char *buf, size_t brow, size_t u,
                              size_t v, const int nt) {
    __m256d r[4];
    for (int k = 0; k < 4; k++) {
        r[k] = _mm256_loadu_pd((const double *)(const void *)(buf + (v + (size_t)k) * brow + u * 8));
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
CK__BLOCK_INLINE void block_8(char *dst, intptr_t du, const char *buf, size_t brow, size_t u,
                              size_t v, const int nt) {
    const __m128d r0 = _mm_loadu_pd((const double *)(const void *)(buf + v * brow + u * 8));
    const __m128d r1 = _mm_loadu_pd((const double *)(const void *)(buf + (v + 1) * brow + u * 8));
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

static void transpose_tile(char *dst, intptr_t du, intptr_t dv, const char *buf, size_t brow,
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

const ck__transpose_fn CK_TARGET_NAME(ck__transpose_tile) = transpose_tile;
