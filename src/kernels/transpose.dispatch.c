/* src/kernels/transpose.dispatch.c: tile transposes for the tiled kernel (tiled_2d.c),
 * compiled once per CPU target: a source tile whose elements are contiguous along the
 * destination's outer dimension is turned, in registers, into rows along its inner one, in
 * an L1-resident buffer the leaf then reads contiguously. 4- and 8-byte elements go through
 * 8x8 / 4x4 blocks (AVX2; 4x4 / 2x2 with the baseline's SSE2), other sizes and the edges of
 * a tile element by element. The avx512 target compiles the AVX2 blocks: wider ones did not
 * pay here (the transposed source's lines, not the shuffles, bound the loop). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/dispatch_target.h"
#include "kernels/transpose_tiles.h"

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

/* buf[i][j] = src[i * size + j * sj] for i < ni, j < nj, starting at (i0, j0). */
static void transpose_scalar(char *buf, size_t brow, const char *src, intptr_t sj, size_t size,
                             size_t i0, size_t ni, size_t j0, size_t nj) {
    for (size_t j = j0; j < j0 + nj; j++) {
        const char *s = src + (intptr_t)j * sj;
        for (size_t i = i0; i < i0 + ni; i++) {
            memcpy(buf + i * brow + j * size, s + i * size, size);
        }
    }
}

static void transpose_4(char *buf, size_t brow, const char *src, intptr_t sj, size_t ni,
                        size_t nj) {
#if defined(__AVX2__)
    enum { B = 8 };
#elif defined(__SSE2__)
    enum { B = 4 };
#else
    enum { B = 1 };
#endif
    const size_t bi = ni / B * B, bj = nj / B * B;
    for (size_t j = 0; j < bj; j += B) {
        for (size_t i = 0; i < bi; i += B) {
#if defined(__AVX2__)
            __m256 r[8], t[8];
            for (int k = 0; k < 8; k++) {
                r[k] = _mm256_loadu_ps((const float *)(const void *)(src + (intptr_t)(j + (size_t)k) * sj + i * 4));
            }
            /* rows k = j-rows of 8 i's; out rows m = i-rows of 8 j's */
            for (int k = 0; k < 8; k += 2) {
                t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
                t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
            }
            __m256 u[8];
            for (int k = 0; k < 8; k += 4) {
                u[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44);
                u[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xEE);
                u[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44);
                u[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xEE);
            }
            for (int k = 0; k < 4; k++) {
                __m256 lo = _mm256_permute2f128_ps(u[k], u[k + 4], 0x20);
                __m256 hi = _mm256_permute2f128_ps(u[k], u[k + 4], 0x31);
                _mm256_storeu_ps((float *)(void *)(buf + (i + (size_t)k) * brow + j * 4), lo);
                _mm256_storeu_ps((float *)(void *)(buf + (i + 4 + (size_t)k) * brow + j * 4), hi);
            }
#elif defined(__SSE2__)
            __m128 r0 = _mm_loadu_ps((const float *)(const void *)(src + (intptr_t)j * sj + i * 4));
            __m128 r1 = _mm_loadu_ps((const float *)(const void *)(src + (intptr_t)(j + 1) * sj + i * 4));
            __m128 r2 = _mm_loadu_ps((const float *)(const void *)(src + (intptr_t)(j + 2) * sj + i * 4));
            __m128 r3 = _mm_loadu_ps((const float *)(const void *)(src + (intptr_t)(j + 3) * sj + i * 4));
            const __m128 t0 = _mm_unpacklo_ps(r0, r1), t1 = _mm_unpackhi_ps(r0, r1);
            const __m128 t2 = _mm_unpacklo_ps(r2, r3), t3 = _mm_unpackhi_ps(r2, r3);
            _mm_storeu_ps((float *)(void *)(buf + i * brow + j * 4), _mm_movelh_ps(t0, t2));
            _mm_storeu_ps((float *)(void *)(buf + (i + 1) * brow + j * 4), _mm_movehl_ps(t2, t0));
            _mm_storeu_ps((float *)(void *)(buf + (i + 2) * brow + j * 4), _mm_movelh_ps(t1, t3));
            _mm_storeu_ps((float *)(void *)(buf + (i + 3) * brow + j * 4), _mm_movehl_ps(t3, t1));
#else
            transpose_scalar(buf, brow, src, sj, 4, i, 1, j, 1);
#endif
        }
    }
    transpose_scalar(buf, brow, src, sj, 4, bi, ni - bi, 0, nj);
    transpose_scalar(buf, brow, src, sj, 4, 0, bi, bj, nj - bj);
}

static void transpose_8(char *buf, size_t brow, const char *src, intptr_t sj, size_t ni,
                        size_t nj) {
#if defined(__AVX2__)
    enum { B = 4 };
#elif defined(__SSE2__)
    enum { B = 2 };
#else
    enum { B = 1 };
#endif
    const size_t bi = ni / B * B, bj = nj / B * B;
    for (size_t j = 0; j < bj; j += B) {
        for (size_t i = 0; i < bi; i += B) {
#if defined(__AVX2__)
            __m256d r[4];
            for (int k = 0; k < 4; k++) {
                r[k] = _mm256_loadu_pd((const double *)(const void *)(src + (intptr_t)(j + (size_t)k) * sj + i * 8));
            }
            const __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
            const __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
            _mm256_storeu_pd((double *)(void *)(buf + i * brow + j * 8), _mm256_permute2f128_pd(t0, t2, 0x20));
            _mm256_storeu_pd((double *)(void *)(buf + (i + 1) * brow + j * 8), _mm256_permute2f128_pd(t1, t3, 0x20));
            _mm256_storeu_pd((double *)(void *)(buf + (i + 2) * brow + j * 8), _mm256_permute2f128_pd(t0, t2, 0x31));
            _mm256_storeu_pd((double *)(void *)(buf + (i + 3) * brow + j * 8), _mm256_permute2f128_pd(t1, t3, 0x31));
#elif defined(__SSE2__)
            const __m128d r0 = _mm_loadu_pd((const double *)(const void *)(src + (intptr_t)j * sj + i * 8));
            const __m128d r1 = _mm_loadu_pd((const double *)(const void *)(src + (intptr_t)(j + 1) * sj + i * 8));
            _mm_storeu_pd((double *)(void *)(buf + i * brow + j * 8), _mm_unpacklo_pd(r0, r1));
            _mm_storeu_pd((double *)(void *)(buf + (i + 1) * brow + j * 8), _mm_unpackhi_pd(r0, r1));
#else
            transpose_scalar(buf, brow, src, sj, 8, i, 1, j, 1);
#endif
        }
    }
    transpose_scalar(buf, brow, src, sj, 8, bi, ni - bi, 0, nj);
    transpose_scalar(buf, brow, src, sj, 8, 0, bi, bj, nj - bj);
}

static void transpose_any(char *buf, size_t brow, const char *src, intptr_t sj, size_t size,
                          size_t ni, size_t nj) {
    if (size == 4) {
        transpose_4(buf, brow, src, sj, ni, nj);
    } else if (size == 8) {
        transpose_8(buf, brow, src, sj, ni, nj);
    } else {
        transpose_scalar(buf, brow, src, sj, size, 0, ni, 0, nj);
    }
}

const ck__transpose_fn CK_TARGET_NAME(ck__transpose_tile) = transpose_any;
