/* src/kernels/transpose_tiles.h: the per-target tile transpose (transpose.dispatch.c) the
 * tiled kernel (tiled_2d.c) picks when it is built. */
#ifndef CKERNEL_TRANSPOSE_TILES_H
#define CKERNEL_TRANSPOSE_TILES_H

#include <stddef.h>
#include <stdint.h>

/* dst[u * du + v * dv] = buf[v * brow + u * size] for u < nu, v < nv: the buffer's rows
 * (contiguous along u) become the destination's columns. Whole blocks go through registers
 * when dv == size (4- and 8-byte elements); with `stream`, blocks whose stores are aligned
 * to the vector are written with non-temporal stores (the caller fences). */
typedef void (*ck__transpose_fn)(char *dst, intptr_t du, intptr_t dv, const char *buf,
                                 size_t brow, size_t size, size_t nu, size_t nv, int stream);

#endif
