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

#include "common/float16.h"
#include "targets/dispatch_target.h"
#include "leaves/numeric/transpose_tiles.h"
#include "leaves/simd/simd.h" /* the blocks: register transposes per ISA */

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
                d = ck__float_to_double(f);
            } else {
                int32_t i;
                memcpy(&i, s, sizeof i);
                d = (double)i;
            }
            memcpy(dst + (intptr_t)u * du + (intptr_t)v * 8, &d, sizeof d);
        }
    }
}

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
#ifdef CK__SIMD_BLOCK_4
    if (size == 4 && dv == 4) {
        CK__TRANSPOSE_BLOCKS(CK__B4, CK__VW4, block_4);
    }
#endif
#ifdef CK__SIMD_BLOCK_8
    if (size == 8 && dv == 8) {
        CK__TRANSPOSE_BLOCKS(CK__B8, CK__VW8, block_8);
    }
#endif
    (void)stream;
    transpose_scalar(dst, du, dv, buf, brow, size, 0, nu, 0, nv);
}

#ifdef CK__SIMD_BLOCK_4
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
#ifdef CK__SIMD_BLOCK_4
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
