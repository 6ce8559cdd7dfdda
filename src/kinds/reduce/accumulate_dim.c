/* src/kinds/reduce/accumulate_dim.c: the kernel kinds of accumulations (cumsum, ...;
 * docs/design.md §14): out[0] = x[0], out[i] = f(out[i-1], x[i]) along one dimension.
 *   accumulate_dim  the accumulated dimension (fixed, or a var row; a var destination row is
 *                   allocated with the source row's size). When it is the innermost one, its
 *                   children are the cast of the row into the destination (none when the
 *                   types agree) and a scan leaf over the destination (or the source);
 *                   otherwise each element is a block of the fixed dimensions below, and its
 *                   children are `first` (out[0] = x[0], cast), `copy` (out[i] = out[i-1]) and
 *                   `fold` (out[i] = f(out[i], x[i]), elementwise);
 *   reduce_scan     the scan form of a user's binary leaf: out[0] = x[0], then the leaf once
 *                   per element on (out[i-1], x[i]). */
#include <stddef.h>
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"

typedef struct ck__accumulate_dim {
    ck_prefix base;
    ck__var_row_spec row; /* a var destination's rows (row.blockref: a counted reference) */
    intptr_t src_extent;  /* fixed: the size; var: the arrmeta offset */
    intptr_t src_stride, dst_stride;
    uint32_t child[3];    /* inner: cast (0: none), scan; outer: first, copy, fold */
    uint8_t src_kind, dst_kind, inner, dim;
} ck__accumulate_dim;

#define CK__ACCUMULATE_DIM_CHILD CK_ALIGN_OFFSET(sizeof(ck__accumulate_dim))
#define CK__ACC_WHAT "accumulated dimension"

static void accumulate_dim_destroy(ck_prefix *self) {
    const ck__accumulate_dim *k = (const ck__accumulate_dim *)self;
    ck_memblock_decref(k->row.blockref);
    ck__children_destroy(self, k->child, 3);
}

static int accumulate_one(ck_prefix *self, char *dst, char *src) {
    const ck__accumulate_dim *k = (const ck__accumulate_dim *)self;
    char *x = src, *d = dst;
    intptr_t n = k->src_extent;
    if (k->src_kind == CK__DIM_VAR) {
        ck_var_data v; /* copies: the slots may be misaligned */
        memcpy(&v, src, sizeof v);
        if (v.begin == NULL) {
            return ck__set_located_error(CK_ERR_UNINITIALIZED, CK__ACC_WHAT, k->dim,
                                         "the source is not allocated (begin is NULL)");
        }
        if (v.size > (size_t)INTPTR_MAX) {
            return ck__set_located_error(CK_ERR_INVALID, CK__ACC_WHAT, k->dim,
                                         "the source row claims %zu elements", v.size);
        }
        x = v.begin + k->src_extent;
        n = (intptr_t)v.size;
    }
    if (k->dst_kind == CK__DIM_VAR) {
        ck_var_data v;
        memcpy(&v, dst, sizeof v);
        if (v.begin == NULL) {
            CK__RETURN_IF_ERROR(ck__var_row_allocate(&k->row, k->dim, n, &v));
            memcpy(dst, &v, sizeof v);
        } else if (v.size != (size_t)n) {
            return ck__set_located_error(CK_ERR_BROADCAST, CK__ACC_WHAT, k->dim,
                                         "the destination row has %zu elements and the source "
                                         "row %td",
                                         v.size, n);
        }
        d = v.begin + k->row.offset;
    }
    const intptr_t ds = k->dst_stride, xs = k->src_stride;
    if (k->inner) {
        if (k->child[0] != 0) {
            CK__RETURN_IF_ERROR(
                ck_call_strided(ck_child(self, k->child[0]), d, ds, &x, &xs, (size_t)n));
            x = d; /* then scanned in place */
            return ck_call_strided(ck_child(self, k->child[1]), d, ds, &x, &ds, (size_t)n);
        }
        return ck_call_strided(ck_child(self, k->child[1]), d, ds, &x, &xs, (size_t)n);
    }
    static const intptr_t zero = 0;
    for (intptr_t i = 0; i < n; i++) {
        char *di = d + i * ds, *xi = x + i * xs;
        if (i == 0) {
            CK__RETURN_IF_ERROR_AT(i, ck_call_strided(ck_child(self, k->child[0]), di, 0, &xi,
                                                     &zero, 1));
            continue;
        }
        char *prev = di - ds;
        CK__RETURN_IF_ERROR_AT(i, ck_call_strided(ck_child(self, k->child[1]), di, 0, &prev,
                                                 &zero, 1));
        CK__RETURN_IF_ERROR_AT(i, ck_call_strided(ck_child(self, k->child[2]), di, 0, &xi, &zero,
                                                 1));
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int accumulate_dim_single(ck_prefix *self, char *dst, char *const *src) {
    return accumulate_one(self, dst, src[0]);
}

static CK__KERNEL_ALIGN int accumulate_dim_strided(ck_prefix *self, char *dst,
                                                   intptr_t dst_stride, char *const *src,
                                                   const intptr_t *src_stride, size_t count) {
    char *s = src[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += src_stride[0]) {
        CK__RETURN_IF_ERROR_AT(i, accumulate_one(self, dst, s));
    }
    return CK_OK;
}

int ck__make_accumulate_dim(ck_builder *ckb, size_t *offset, const ck__accumulate_dim_spec *spec,
                            ck_request req, size_t *at) {
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__ACCUMULATE_DIM_CHILD));
    ck__accumulate_dim *k = (ck__accumulate_dim *)ck_builder_at(ckb, *offset);
    k->base.destructor = accumulate_dim_destroy;
    ck_prefix_set_function(&k->base, req, accumulate_dim_single, accumulate_dim_strided);
    k->row = spec->row;
    ck_memblock_incref(spec->row.blockref);
    k->src_kind = (uint8_t)spec->src_kind;
    k->dst_kind = (uint8_t)spec->dst_kind;
    k->src_extent = spec->src_kind == CK__DIM_FIXED ? spec->size : spec->src_offset;
    k->src_stride = spec->src_stride;
    k->dst_stride = spec->dst_stride;
    k->inner = (uint8_t)(spec->inner != 0);
    k->dim = (uint8_t)spec->dim;
    *at = *offset;
    *offset += CK__ACCUMULATE_DIM_CHILD;
    return CK_OK;
}

int ck__accumulate_dim_set_child(ck_builder *ckb, size_t at, int slot, size_t child_offset) {
    if (slot < 0 || slot > 2) {
        return ck_set_error(CK_ERR_INTERNAL, "accumulate_dim: child %d", slot);
    }
    return ck__record_child(ckb, at, offsetof(ck__accumulate_dim, child) + 4u * (size_t)slot,
                            child_offset, "accumulate_dim");
}

static void accumulate_dim_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                    ck__children *children) {
    const ck__accumulate_dim *k = (const ck__accumulate_dim *)self;
    if (k->src_kind == CK__DIM_VAR) {
        ck__strbuf_printf(out, "src=var(stride=%td offset=%td)", k->src_stride, k->src_extent);
    } else {
        ck__strbuf_printf(out, "size=%td src_stride=%td", k->src_extent, k->src_stride);
    }
    if (k->dst_kind == CK__DIM_VAR) {
        ck__strbuf_printf(out, " dst=var(stride=%td offset=%td)", k->dst_stride, k->row.offset);
    } else {
        ck__strbuf_printf(out, " dst_stride=%td", k->dst_stride);
    }
    ck__strbuf_puts(out, k->inner ? (k->child[0] != 0 ? " cast, scan" : " scan")
                                  : " first, copy, fold");
    *size = sizeof(ck__accumulate_dim);
    ck__children_list(children, k->child, 3);
}

const ck__kind ck__accumulate_dim_kind = {"accumulate_dim", accumulate_dim_single,
                                          accumulate_dim_strided, accumulate_dim_describe};

/* ---- reduce_scan ---- */
typedef struct ck__reduce_scan {
    ck_prefix base;
    uint64_t size; /* of an element */
} ck__reduce_scan;

#define CK__REDUCE_SCAN_CHILD CK_ALIGN_OFFSET(sizeof(ck__reduce_scan))

static void reduce_scan_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__REDUCE_SCAN_CHILD));
}

static CK__KERNEL_ALIGN int reduce_scan_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                                char *const *src, const intptr_t *src_stride,
                                                size_t count) {
    const ck__reduce_scan *k = (const ck__reduce_scan *)self;
    if (count == 0) {
        return CK_OK;
    }
    if (dst != src[0]) {
        ck__copy_scalar(dst, src[0], (size_t)k->size);
    }
    ck_prefix *leaf = ck_child(self, CK__REDUCE_SCAN_CHILD);
    ck_strided_fn fn = ck_prefix_strided(leaf);
    static const intptr_t zero[2] = {0, 0};
    for (size_t i = 1; i < count; i++) {
        char *d = dst + (intptr_t)i * dst_stride;
        char *args[2] = {d - dst_stride, src[0] + (intptr_t)i * src_stride[0]};
        CK__RETURN_IF_ERROR(fn(leaf, d, 0, args, zero, 1));
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int reduce_scan_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero = 0;
    return reduce_scan_strided(self, dst, 0, src, &zero, 1);
}

int ck__make_reduce_scan(ck_builder *ckb, size_t *offset, size_t elem_size, ck_request req) {
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__REDUCE_SCAN_CHILD));
    ck__reduce_scan *k = (ck__reduce_scan *)ck_builder_at(ckb, *offset);
    k->base.destructor = reduce_scan_destroy;
    ck_prefix_set_function(&k->base, req, reduce_scan_single, reduce_scan_strided);
    k->size = elem_size;
    *offset += CK__REDUCE_SCAN_CHILD;
    return CK_OK;
}

static void reduce_scan_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                 ck__children *children) {
    (void)self;
    ck__strbuf_puts(out, "out[i] = f(out[i-1], x[i])");
    *size = sizeof(ck__reduce_scan);
    ck__children_add(children, CK__REDUCE_SCAN_CHILD);
}

const ck__kind ck__reduce_scan_kind = {"reduce_scan", reduce_scan_single, reduce_scan_strided,
                                       reduce_scan_describe};
