/* src/kernels/strided_dim.c: the strided (fixed) dimension kernel: `size` elements at fixed
 * strides, one call of the child's strided function per row. A source stride of 0
 * broadcasts. */
#include "common/internal.h"
#include "kernels/kinds.h"

typedef struct ck__strided_dim {
    ck_prefix base;
    intptr_t size;
    intptr_t dst_stride;
    intptr_t src_stride;
} ck__strided_dim;

#define CK__STRIDED_DIM_CHILD CK_ALIGN_OFFSET(sizeof(ck__strided_dim))

static void strided_dim_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__STRIDED_DIM_CHILD));
}

static int strided_dim_single(ck_prefix *self, char *dst, char *const *src) {
    const ck__strided_dim *k = (const ck__strided_dim *)self;
    return ck_call_strided(ck_child(self, CK__STRIDED_DIM_CHILD), dst, k->dst_stride, src,
                           &k->src_stride, (size_t)k->size);
}

static int strided_dim_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                               char *const *src, const intptr_t *src_stride, size_t count) {
    const ck__strided_dim *k = (const ck__strided_dim *)self;
    ck_prefix *child = ck_child(self, CK__STRIDED_DIM_CHILD);
    ck_strided_fn fn = ck_prefix_strided(child);
    char *s = src[0];
    const intptr_t ss = src_stride[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += ss) {
        CK_RETURN_IF_ERROR_AT(i,
                              fn(child, dst, k->dst_stride, &s, &k->src_stride, (size_t)k->size));
    }
    return CK_OK;
}

int ck__make_strided_dim(ck_builder *ckb, size_t *offset, intptr_t size, intptr_t dst_stride,
                         intptr_t src_stride, ck_request req) {
    CK_RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__STRIDED_DIM_CHILD));
    ck__strided_dim *k = (ck__strided_dim *)ck_builder_at(ckb, *offset);
    k->base.destructor = strided_dim_destroy;
    ck_prefix_set_function(&k->base, req, strided_dim_single, strided_dim_strided);
    k->size = size;
    k->dst_stride = dst_stride;
    k->src_stride = src_stride;
    *offset += CK__STRIDED_DIM_CHILD;
    return CK_OK;
}

static void strided_dim_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                 size_t *children, int *nchildren) {
    const ck__strided_dim *k = (const ck__strided_dim *)self;
    ck__strbuf_printf(out, "size=%td dst_stride=%td src_stride=%td%s", k->size, k->dst_stride,
                      k->src_stride, k->src_stride == 0 && k->size > 1 ? " (broadcast)" : "");
    *size = sizeof(ck__strided_dim);
    children[0] = CK__STRIDED_DIM_CHILD;
    *nchildren = 1;
}

const ck__kind ck__strided_dim_kind = {"strided_dim", strided_dim_single, strided_dim_strided,
                                       strided_dim_describe};
