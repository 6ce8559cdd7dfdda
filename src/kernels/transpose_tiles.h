/* src/kernels/transpose_tiles.h: the per-target tile transpose (transpose.dispatch.c) the
 * tiled kernel (tiled_2d.c) picks when it is built. */
#ifndef CKERNEL_TRANSPOSE_TILES_H
#define CKERNEL_TRANSPOSE_TILES_H

#include <stddef.h>
#include <stdint.h>

/* buf[i * brow + j * size] = src[i * size + j * sj] for i < ni, j < nj: a tile whose
 * elements of `size` bytes are contiguous along i in the source, rows along j in buf. */
typedef void (*ck__transpose_fn)(char *buf, size_t brow, const char *src, intptr_t sj,
                                 size_t size, size_t ni, size_t nj);

#endif
