/* src/leaves/numeric/transpose_tiles.h: the per-target tile transposes (transpose.dispatch.c) the
 * tiled kernel (tiled_2d.c) picks when it is built. */
#ifndef CKERNEL_TRANSPOSE_TILES_H
#define CKERNEL_TRANSPOSE_TILES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* dst[u * du + v * dv] = buf[v * brow + u * size] for u < nu, v < nv: the buffer's rows
 * (contiguous along u) become the destination's columns. `buf` is the tiled kernel's
 * buffer, or the source itself when the copy needs no conversion. Whole blocks go through
 * registers when dv == size (4- and 8-byte elements); with `stream`, blocks whose stores
 * are aligned to the vector are written with non-temporal stores (the caller fences). */
typedef void (*ck__transpose_fn)(char *dst, intptr_t du, intptr_t dv, const char *buf,
                                 intptr_t brow, size_t size, size_t nu, size_t nv, int stream);

/* The same from 4-byte source elements (int32, or float32 with `from_float`) straight to
 * float64 destination ones with dv == 8: each block of source rows is transposed in
 * registers and widened there, so no buffer pass is needed. Both conversions are exact,
 * the same in every error mode; a NaN is quieted as the scalar cast quiets it. */
typedef void (*ck__widen_transpose_fn)(char *dst, intptr_t du, const char *src, intptr_t sv,
                                       int from_float, size_t nu, size_t nv, int stream);

typedef struct ck__transpose_loops {
    ck__transpose_fn transpose;
    ck__widen_transpose_fn widen;
} ck__transpose_loops;

#ifdef __cplusplus
}
#endif

#endif
