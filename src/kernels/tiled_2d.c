/* src/kernels/tiled_2d.c: the tiled kernel for the two innermost fixed dimensions when the
 * source and the destination are contiguous along different ones (a transposed copy). Going
 * row by row, one side would stride through memory a whole row apart and miss the cache on
 * every element; walking square tiles keeps the tile's cache lines of both sides resident,
 * so every line is used fully before it is evicted. The child (a leaf) runs once per tile
 * row, along the destination's contiguous dimension. */
#include "common/internal.h"
#include "kernels/kinds.h"

/* Tile rows (outer dim) x columns (inner dim, the leaf's run). TILE_ROWS x 4..16-byte
 * elements spans at least one 64-byte source line, so every line read is used whole; the
 * columns make each leaf call long. Measured on the bench's transposed workload (1000 x
 * 10000 int32 -> float64, idle machine): 32x32 1.82 ns/elem, 128x128 1.59, 32x512 1.49, the
 * best of the shapes tried (16..128 rows x 32..1024 columns). */
#define CK__TILE_ROWS 32
#define CK__TILE_COLS 512

typedef struct ck__tiled_2d {
    ck_prefix base;
    intptr_t size0, size1;             /* outer, inner */
    intptr_t dst_stride0, dst_stride1;
    intptr_t src_stride0, src_stride1;
} ck__tiled_2d;

#define CK__TILED_CHILD CK_ALIGN_OFFSET(sizeof(ck__tiled_2d))

static void tiled_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__TILED_CHILD));
}

static int tiled_single(ck_prefix *self, char *dst, char *const *src) {
    const ck__tiled_2d *k = (const ck__tiled_2d *)self;
    ck_prefix *child = ck_child(self, CK__TILED_CHILD);
    ck_strided_fn fn = ck_prefix_strided(child);
    for (intptr_t i0 = 0; i0 < k->size0; i0 += CK__TILE_ROWS) {
        const intptr_t ni = k->size0 - i0 < CK__TILE_ROWS ? k->size0 - i0 : CK__TILE_ROWS;
        for (intptr_t j0 = 0; j0 < k->size1; j0 += CK__TILE_COLS) {
            const intptr_t nj = k->size1 - j0 < CK__TILE_COLS ? k->size1 - j0 : CK__TILE_COLS;
            for (intptr_t i = i0; i < i0 + ni; i++) {
                char *d = dst + i * k->dst_stride0 + j0 * k->dst_stride1;
                char *s = src[0] + i * k->src_stride0 + j0 * k->src_stride1;
                CK_RETURN_IF_ERROR(fn(child, d, k->dst_stride1, &s, &k->src_stride1, (size_t)nj));
            }
        }
    }
    return CK_OK;
}

static int tiled_strided(ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,
                         const intptr_t *src_stride, size_t count) {
    char *s = src[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += src_stride[0]) {
        CK_RETURN_IF_ERROR(tiled_single(self, dst, &s));
    }
    return CK_OK;
}

int ck__make_tiled_2d(ck_builder *ckb, size_t *offset, const intptr_t size[2],
                      const intptr_t dst_stride[2], const intptr_t src_stride[2],
                      ck_request req) {
    CK_RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__TILED_CHILD));
    ck__tiled_2d *k = (ck__tiled_2d *)ck_builder_at(ckb, *offset);
    k->base.destructor = tiled_destroy;
    ck_prefix_set_function(&k->base, req, tiled_single, tiled_strided);
    k->size0 = size[0];
    k->size1 = size[1];
    k->dst_stride0 = dst_stride[0];
    k->dst_stride1 = dst_stride[1];
    k->src_stride0 = src_stride[0];
    k->src_stride1 = src_stride[1];
    *offset += CK__TILED_CHILD;
    return CK_OK;
}

static void tiled_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                           size_t *children, int *nchildren) {
    const ck__tiled_2d *k = (const ck__tiled_2d *)self;
    ck__strbuf_printf(out, "size=%tdx%td dst_strides=%td,%td src_strides=%td,%td tile=%dx%d",
                      k->size0, k->size1, k->dst_stride0, k->dst_stride1, k->src_stride0,
                      k->src_stride1, CK__TILE_ROWS, CK__TILE_COLS);
    *size = sizeof(ck__tiled_2d);
    children[0] = CK__TILED_CHILD;
    *nchildren = 1;
}

const ck__kind ck__tiled_2d_kind = {"tiled_2d", tiled_single, tiled_strided, tiled_describe};
