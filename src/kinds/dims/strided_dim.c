/* src/kinds/dims/strided_dim.c: the strided (fixed) dimension kernel: `size` elements at fixed
 * strides, one call of the child's strided function per row. A source stride of 0
 * broadcasts. Two layouts: one source (40 bytes, the assignment case, so that a fixed dim
 * over a var dim over a leaf fits the builder's inline bytes) and N sources (a count and
 * N strides). */
#include "common/internal.h"
#include "core/kinds.h"

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

static CK__KERNEL_ALIGN int strided_dim_single(ck_prefix *self, char *dst, char *const *src) {
    const ck__strided_dim *k = (const ck__strided_dim *)self;
    return ck_call_strided(ck_child(self, CK__STRIDED_DIM_CHILD), dst, k->dst_stride, src,
                           &k->src_stride, (size_t)k->size);
}

static CK__KERNEL_ALIGN int strided_dim_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                               char *const *src, const intptr_t *src_stride, size_t count) {
    const ck__strided_dim *k = (const ck__strided_dim *)self;
    ck_prefix *child = ck_child(self, CK__STRIDED_DIM_CHILD);
    ck_strided_fn fn = ck_prefix_strided(child);
    char *s = src[0];
    const intptr_t ss = src_stride[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += ss) {
        CK__RETURN_IF_ERROR_AT(i,
                              fn(child, dst, k->dst_stride, &s, &k->src_stride, (size_t)k->size));
    }
    return CK_OK;
}

/* ---- N sources ---- */
typedef struct ck__strided_dim_n {
    ck_prefix base;
    intptr_t size;
    intptr_t dst_stride;
    intptr_t nsrc;
    intptr_t src_stride[]; /* nsrc of them */
} ck__strided_dim_n;

static size_t strided_dim_n_child(const ck__strided_dim_n *k) {
    return sizeof(ck__strided_dim_n) + (size_t)k->nsrc * sizeof(intptr_t);
}

static void strided_dim_n_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, strided_dim_n_child((const ck__strided_dim_n *)self)));
}

static CK__KERNEL_ALIGN int strided_dim_n_single(ck_prefix *self, char *dst, char *const *src) {
    const ck__strided_dim_n *k = (const ck__strided_dim_n *)self;
    return ck_call_strided(ck_child(self, strided_dim_n_child(k)), dst, k->dst_stride, src,
                           k->src_stride, (size_t)k->size);
}

static CK__KERNEL_ALIGN int strided_dim_n_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                 char *const *src, const intptr_t *src_stride, size_t count) {
    const ck__strided_dim_n *k = (const ck__strided_dim_n *)self;
    ck_prefix *child = ck_child(self, strided_dim_n_child(k));
    ck_strided_fn fn = ck_prefix_strided(child);
    const int ns = (int)k->nsrc;
    char *s[16];
    for (int j = 0; j < ns; j++) {
        s[j] = src[j];
    }
    for (size_t i = 0; i < count; i++, dst += dst_stride) {
        CK__RETURN_IF_ERROR_AT(i, fn(child, dst, k->dst_stride, s, k->src_stride, (size_t)k->size));
        for (int j = 0; j < ns; j++) {
            s[j] += src_stride[j];
        }
    }
    return CK_OK;
}

int ck__make_strided_dim(ck_builder *ckb, size_t *offset, intptr_t size, intptr_t dst_stride,
                         int nsrc, const intptr_t *src_stride, ck_request req) {
    if (nsrc == 1) {
        CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__STRIDED_DIM_CHILD));
        ck__strided_dim *k = (ck__strided_dim *)ck_builder_at(ckb, *offset);
        k->base.destructor = strided_dim_destroy;
        ck_prefix_set_function(&k->base, req, strided_dim_single, strided_dim_strided);
        k->size = size;
        k->dst_stride = dst_stride;
        k->src_stride = src_stride[0];
        *offset += CK__STRIDED_DIM_CHILD;
        return CK_OK;
    }
    if (nsrc < 1 || nsrc > 16) {
        return ck_set_error(CK_ERR_INTERNAL, "strided dimension with %d sources", nsrc);
    }
    const size_t child = sizeof(ck__strided_dim_n) + (size_t)nsrc * sizeof(intptr_t);
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + child));
    ck__strided_dim_n *k = (ck__strided_dim_n *)ck_builder_at(ckb, *offset);
    k->base.destructor = strided_dim_n_destroy;
    ck_prefix_set_function(&k->base, req, strided_dim_n_single, strided_dim_n_strided);
    k->size = size;
    k->dst_stride = dst_stride;
    k->nsrc = nsrc;
    for (int j = 0; j < nsrc; j++) {
        k->src_stride[j] = src_stride[j];
    }
    *offset += child;
    return CK_OK;
}

static void strided_dim_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                 ck__children *children) {
    const ck__strided_dim *k = (const ck__strided_dim *)self;
    ck__strbuf_printf(out, "size=%td dst_stride=%td src_stride=%td%s", k->size, k->dst_stride,
                      k->src_stride, k->src_stride == 0 && k->size > 1 ? " (broadcast)" : "");
    *size = sizeof(ck__strided_dim);
    ck__children_add(children, CK__STRIDED_DIM_CHILD);
}

const ck__kind ck__strided_dim_kind = {"strided_dim", strided_dim_single, strided_dim_strided,
                                       strided_dim_describe};

static void strided_dim_n_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                   ck__children *children) {
    const ck__strided_dim_n *k = (const ck__strided_dim_n *)self;
    ck__strbuf_printf(out, "size=%td dst_stride=%td src_stride=[", k->size, k->dst_stride);
    int broadcast = 0;
    for (intptr_t j = 0; j < k->nsrc; j++) {
        ck__strbuf_printf(out, "%s%td", j > 0 ? ", " : "", k->src_stride[j]);
        broadcast |= k->src_stride[j] == 0;
    }
    ck__strbuf_printf(out, "]%s", broadcast && k->size > 1 ? " (broadcast)" : "");
    *size = strided_dim_n_child(k);
    ck__children_add(children, strided_dim_n_child(k));
}

const ck__kind ck__strided_dim_n_kind = {"strided_dim", strided_dim_n_single,
                                         strided_dim_n_strided, strided_dim_n_describe};
