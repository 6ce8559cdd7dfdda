/* src/kinds/reduce/reduce_dim.c: the kernel kinds of reductions (docs/design.md §14):
 *   reduce_dim   the outermost reduced dimension (fixed, or a var row): for each position
 *                it starts the accumulators through its init child, then folds every element
 *                of the dimension into them through its fold child (called with a destination
 *                stride of 0, so everything below lands on the same accumulators). Without an
 *                init child it only folds: a reduced var dimension inside a fold. With
 *                `check_empty` (an operation without identity) a var row of zero elements is an
 *                error (an empty fixed dimension is refused when the kernel is built);
 *   reduce_fill  a leaf writing the accumulator's start value (the identity) to each
 *                destination element, reading no source;
 *   reduce_fold  the accumulate form of a user's binary leaf: dst = f(dst, src), the
 *                callable's leaf called with dst also as its first argument (same pointer,
 *                same stride: the in-place elementwise form), or, folding a run into one
 *                accumulator (destination stride 0), once per element in order: a leaf
 *                may compute a whole run before it stores (the vector math does), so a
 *                run's call would compute every element from the first accumulator. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ckernel/array.h"
#include "ckernel/arrmeta.h"
#include "common/internal.h"
#include "leaves/numeric/arith_leaves.h"
#include "core/kinds.h"

/* ---- reduce_dim ---- */
typedef struct ck__reduce_dim {
    ck_prefix base;
    intptr_t extent;     /* fixed: the size; var: the arrmeta offset of a row's elements */
    intptr_t src_stride; /* between the dimension's elements */
    uint32_t child[2];   /* init, fold: offsets from this kernel; 0: none */
    uint8_t kind;        /* ck__dim_side: CK__DIM_FIXED or CK__DIM_VAR */
    uint8_t check_empty;
    uint8_t dim;         /* the source dimension's number, for messages */
    uint8_t op;          /* ck__arith_op, for messages */
    uint8_t skip_first;  /* init from the first element, fold the rest */
} ck__reduce_dim;

#define CK__REDUCE_DIM_CHILD CK_ALIGN_OFFSET(sizeof(ck__reduce_dim))
#define CK__REDUCE_WHAT "reduced dimension"

/* ---- children at recorded offsets (the kinds with several children) ---- */

void ck__children_destroy(ck_prefix *self, const uint32_t *child, int n) {
    for (int i = 0; i < n; i++) {
        if (child[i] != 0) {
            ck_prefix_destroy(ck_child(self, child[i]));
        }
    }
}

void ck__children_list(ck__children *children, const uint32_t *child, int n) {
    for (int i = 0; i < n; i++) {
        if (child[i] != 0) {
            ck__children_add(children, child[i]);
        }
    }
}

int ck__record_child(ck_builder *ckb, size_t at, size_t field, size_t child_offset,
                     const char *what) {
    if (child_offset <= at || child_offset - at > UINT32_MAX) {
        return ck_set_error(CK_ERR_INTERNAL, "%s: child at %zu", what, child_offset);
    }
    const uint32_t rel = (uint32_t)(child_offset - at);
    memcpy((char *)ck_builder_at(ckb, at) + field, &rel, sizeof rel);
    return CK_OK;
}

static void reduce_dim_destroy(ck_prefix *self) {
    ck__children_destroy(self, ((const ck__reduce_dim *)self)->child, 2);
}

static int reduce_dim_empty(const ck__reduce_dim *k) {
    const char *name = ck__arith_op_name((ck__arith_op)k->op);
    return ck__set_located_error(CK_ERR_INVALID, CK__REDUCE_WHAT, k->dim,
                                 "a row of no elements to reduce, and %s has no identity",
                                 name != NULL ? name : "the operation");
}

/* One position: src is the dimension's own data (a fixed dimension's first element, or a
 * var row's slot). */
static int reduce_dim_one(ck_prefix *self, char *dst, char *src) {
    const ck__reduce_dim *k = (const ck__reduce_dim *)self;
    char *first = src;
    intptr_t n = k->extent;
    if (k->kind == CK__DIM_VAR) {
        ck_var_data v; /* a copy: the slot may be misaligned (a host's odd strides) */
        memcpy(&v, src, sizeof v);
        if (v.begin == NULL) {
            return ck__set_located_error(CK_ERR_UNINITIALIZED, CK__REDUCE_WHAT, k->dim,
                                         "the source is not allocated (begin is NULL)");
        }
        if (v.size > (size_t)INTPTR_MAX) {
            return ck__set_located_error(CK_ERR_INVALID, CK__REDUCE_WHAT, k->dim,
                                         "the source row claims %zu elements", v.size);
        }
        first = v.begin + k->extent;
        n = (intptr_t)v.size;
    }
    if (k->check_empty && n == 0) {
        return reduce_dim_empty(k);
    }
    static const intptr_t zero = 0;
    if (k->child[0] != 0) {
        CK__RETURN_IF_ERROR(ck_call_strided(ck_child(self, k->child[0]), dst, 0, &first, &zero,
                                           1));
    }
    if (k->skip_first) { /* n >= 1: check_empty is set with it */
        first += k->src_stride;
        n--;
    }
    const int rc = ck_call_strided(ck_child(self, k->child[1]), dst, 0, &first, &k->src_stride,
                                   (size_t)n);
    if (rc != CK_OK && k->skip_first) {
        ck__error_offset_outer(rc, 1); /* the fold's element 0 is the dimension's 1 */
    }
    return rc;
}

static CK__KERNEL_ALIGN int reduce_dim_single(ck_prefix *self, char *dst, char *const *src) {
    return reduce_dim_one(self, dst, src[0]);
}

static CK__KERNEL_ALIGN int reduce_dim_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                               char *const *src, const intptr_t *src_stride,
                                               size_t count) {
    char *s = src[0];
    const intptr_t ss = src_stride[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += ss) {
        CK__RETURN_IF_ERROR_AT(i, reduce_dim_one(self, dst, s));
    }
    return CK_OK;
}

int ck__make_reduce_dim(ck_builder *ckb, size_t *offset, const ck__reduce_dim_spec *spec,
                        ck_request req, size_t *at) {
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__REDUCE_DIM_CHILD));
    ck__reduce_dim *k = (ck__reduce_dim *)ck_builder_at(ckb, *offset);
    k->base.destructor = reduce_dim_destroy;
    ck_prefix_set_function(&k->base, req, reduce_dim_single, reduce_dim_strided);
    k->kind = (uint8_t)spec->kind;
    k->extent = spec->kind == CK__DIM_FIXED ? spec->size : spec->offset;
    k->src_stride = spec->src_stride;
    k->check_empty = (uint8_t)(spec->check_empty != 0);
    k->dim = (uint8_t)spec->dim;
    k->op = (uint8_t)spec->op;
    k->skip_first = (uint8_t)(spec->skip_first != 0);
    *at = *offset;
    *offset += CK__REDUCE_DIM_CHILD;
    return CK_OK;
}

int ck__reduce_dim_set_child(ck_builder *ckb, size_t at, int init, size_t child_offset) {
    return ck__record_child(ckb, at, offsetof(ck__reduce_dim, child) + (init ? 0u : 4u),
                            child_offset, "reduce_dim");
}

static void reduce_dim_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                ck__children *children) {
    const ck__reduce_dim *k = (const ck__reduce_dim *)self;
    if (k->kind == CK__DIM_VAR) {
        ck__strbuf_printf(out, "var(stride=%td offset=%td)", k->src_stride, k->extent);
    } else {
        ck__strbuf_printf(out, "size=%td src_stride=%td", k->extent, k->src_stride);
    }
    ck__strbuf_printf(out, "%s%s",
                      k->skip_first      ? " init from the first element, fold the rest"
                      : k->child[0] != 0 ? " init, fold"
                                         : " fold",
                      k->check_empty ? " (no identity: refuses an empty row)" : "");
    *size = sizeof(ck__reduce_dim);
    ck__children_list(children, k->child, 2);
}

const ck__kind ck__reduce_dim_kind = {"reduce_dim", reduce_dim_single, reduce_dim_strided,
                                      reduce_dim_describe};

/* ---- reduce_fill ---- */
typedef struct ck__reduce_fill {
    ck_prefix base;
    uint16_t size, na; /* na: the value is ?id's NA */
    uint32_t id;
    unsigned char value[16];
} ck__reduce_fill;

static CK__KERNEL_ALIGN int reduce_fill_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                                char *const *src, const intptr_t *src_stride,
                                                size_t count) {
    (void)src, (void)src_stride;
    const ck__reduce_fill *k = (const ck__reduce_fill *)self;
    for (size_t i = 0; i < count; i++, dst += dst_stride) {
        ck__copy_scalar(dst, (const char *)k->value, k->size);
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int reduce_fill_single(ck_prefix *self, char *dst, char *const *src) {
    (void)src;
    const ck__reduce_fill *k = (const ck__reduce_fill *)self;
    ck__copy_scalar(dst, (const char *)k->value, k->size);
    return CK_OK;
}

int ck__make_reduce_fill(ck_builder *ckb, size_t *offset, ck_type_id id,
                         const unsigned char value[16], int na, ck_request req) {
    if (!ck_type_is_scalar(ck_type_scalar(id))) {
        return ck_set_error(CK_ERR_INTERNAL, "reduce_fill of type id %d", (int)id);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__reduce_fill)));
    ck__reduce_fill *k = (ck__reduce_fill *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(&k->base, req, reduce_fill_single, reduce_fill_strided);
    k->size = (uint16_t)ck_type_data_size(ck_type_scalar(id));
    k->id = (uint32_t)id;
    k->na = (uint16_t)(na != 0);
    memcpy(k->value, value, sizeof k->value);
    *offset += sizeof(ck__reduce_fill);
    return CK_OK;
}

static void reduce_fill_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                 ck__children *children) {
    (void)children;
    const ck__reduce_fill *k = (const ck__reduce_fill *)self;
    const ck_type *t = ck_type_scalar((ck_type_id)k->id);
    *size = sizeof(ck__reduce_fill);
    if (k->na) {
        ck__strbuf_printf(out, "?%s NA", ck_type_id_name((ck_type_id)k->id));
        return;
    }
    /* The value as a literal: an array over the kernel's own bytes (never written). */
    ck_array *a = NULL;
    char *text = NULL;
    if (ck_array_wrap(t, NULL, (char *)(uintptr_t)k->value, NULL, &a) == CK_OK &&
        ck_array_format(a, &text) == CK_OK) {
        ck__strbuf_printf(out, "%s %s", ck_type_id_name((ck_type_id)k->id), text);
    } else {
        out->status = CK_ERR_NOMEM;
    }
    ck_free(text);
    ck_array_free(a);
}

const ck__kind ck__reduce_fill_kind = {"reduce_fill", reduce_fill_single, reduce_fill_strided,
                                       reduce_fill_describe};

/* ---- reduce_fold ---- */
#define CK__REDUCE_FOLD_CHILD CK_ALIGN_OFFSET(sizeof(ck_prefix))

static void reduce_fold_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__REDUCE_FOLD_CHILD));
}

static CK__KERNEL_ALIGN int reduce_fold_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                                char *const *src, const intptr_t *src_stride,
                                                size_t count) {
    char *args[2] = {dst, src[0]};
    const intptr_t strides[2] = {dst_stride, src_stride[0]};
    ck_prefix *leaf = ck_child(self, CK__REDUCE_FOLD_CHILD);
    if (dst_stride != 0) {
        return ck_call_strided(leaf, dst, dst_stride, args, strides, count);
    }
    const ck_strided_fn fn = ck_prefix_strided(leaf);
    for (size_t i = 0; i < count; i++, args[1] += src_stride[0]) {
        const int rc = fn(leaf, dst, 0, args, strides, 1);
        if (CK__UNLIKELY(rc != CK_OK)) {
            ck__error_offset_outer(rc, (intptr_t)i); /* the leaf said element 0 of its run */
            return rc;
        }
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int reduce_fold_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero = 0;
    return reduce_fold_strided(self, dst, 0, src, &zero, 1);
}

int ck__make_reduce_fold(ck_builder *ckb, size_t *offset, ck_request req) {
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__REDUCE_FOLD_CHILD));
    ck_prefix *k = (ck_prefix *)ck_builder_at(ckb, *offset);
    k->destructor = reduce_fold_destroy;
    ck_prefix_set_function(k, req, reduce_fold_single, reduce_fold_strided);
    *offset += CK__REDUCE_FOLD_CHILD;
    return CK_OK;
}

static void reduce_fold_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                 ck__children *children) {
    (void)self;
    ck__strbuf_puts(out, "dst = f(dst, src)");
    *size = sizeof(ck_prefix);
    ck__children_add(children, CK__REDUCE_FOLD_CHILD);
}

const ck__kind ck__reduce_fold_kind = {"reduce_fold", reduce_fold_single, reduce_fold_strided,
                                       reduce_fold_describe};

/* ---- reduce_var_reset: a kept var dimension in an init child (below the reduced one): the
 * destination's row becomes an allocated empty row, which reduce_var_grow lengthens ---- */
typedef struct ck__reduce_var_reset {
    ck_prefix base;
    ck__var_row_spec row; /* row.blockref: a counted reference */
    intptr_t dim;
} ck__reduce_var_reset;

static void reduce_var_reset_destroy(ck_prefix *self) {
    ck_memblock_decref(((ck__reduce_var_reset *)self)->row.blockref);
}

static CK__KERNEL_ALIGN int reduce_var_reset_strided(ck_prefix *self, char *dst,
                                                     intptr_t dst_stride, char *const *src,
                                                     const intptr_t *src_stride, size_t count) {
    (void)src, (void)src_stride;
    const ck__reduce_var_reset *k = (const ck__reduce_var_reset *)self;
    for (size_t i = 0; i < count; i++, dst += dst_stride) {
        ck_var_data v = {NULL, 0};
        CK__RETURN_IF_ERROR_AT(i, ck__var_row_allocate(&k->row, (int)k->dim, 0, &v));
        memcpy(dst, &v, sizeof v); /* the slot may be misaligned (a host's odd strides) */
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int reduce_var_reset_single(ck_prefix *self, char *dst,
                                                    char *const *src) {
    static const intptr_t zero = 0;
    return reduce_var_reset_strided(self, dst, 0, src, &zero, 1);
}

int ck__make_reduce_var_reset(ck_builder *ckb, size_t *offset, const ck__var_row_spec *row,
                              int dim, ck_request req) {
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__reduce_var_reset)));
    ck__reduce_var_reset *k = (ck__reduce_var_reset *)ck_builder_at(ckb, *offset);
    k->base.destructor = reduce_var_reset_destroy;
    ck_prefix_set_function(&k->base, req, reduce_var_reset_single, reduce_var_reset_strided);
    k->row = *row;
    ck_memblock_incref(row->blockref);
    k->dim = dim;
    *offset += sizeof(ck__reduce_var_reset);
    return CK_OK;
}

static void reduce_var_reset_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                      ck__children *children) {
    (void)children;
    const ck__reduce_var_reset *k = (const ck__reduce_var_reset *)self;
    ck__strbuf_printf(out, "dst=var(stride=%td offset=%td) empty rows", k->row.stride,
                      k->row.offset);
    *size = sizeof(ck__reduce_var_reset);
}

const ck__kind ck__reduce_var_reset_kind = {"reduce_var_reset", reduce_var_reset_single,
                                            reduce_var_reset_strided, reduce_var_reset_describe};

/* ---- reduce_var_grow: a kept var dimension below a reduced one, in a fold. Rows are
 * left-aligned: the destination's row is as long as the longest source row folded into it,
 * so a longer row than it has so far lengthens it (a new row from the arena, the old
 * elements copied, the new ones started by the init child), and every source row then folds
 * into its first elements ---- */
typedef struct ck__reduce_var_grow {
    ck_prefix base;
    ck__var_row_spec row; /* the destination's; row.blockref: a counted reference */
    intptr_t src_offset, src_stride;
    uint32_t child[2]; /* init, fold */
    intptr_t dim;
} ck__reduce_var_grow;

#define CK__REDUCE_VAR_GROW_CHILD CK_ALIGN_OFFSET(sizeof(ck__reduce_var_grow))

static void reduce_var_grow_destroy(ck_prefix *self) {
    const ck__reduce_var_grow *k = (const ck__reduce_var_grow *)self;
    ck_memblock_decref(k->row.blockref);
    ck__children_destroy(self, k->child, 2);
}

static int reduce_var_grow_one(ck_prefix *self, char *dst, char *src) {
    const ck__reduce_var_grow *k = (const ck__reduce_var_grow *)self;
    ck_var_data sv, dv; /* copies: the slots may be misaligned */
    memcpy(&sv, src, sizeof sv);
    memcpy(&dv, dst, sizeof dv);
    if (sv.begin == NULL) {
        return ck__set_located_error(CK_ERR_UNINITIALIZED, "var dimension", (int)k->dim,
                                     "the source is not allocated (begin is NULL)");
    }
    if (sv.size > (size_t)INTPTR_MAX || dv.size > (size_t)INTPTR_MAX) {
        return ck__set_located_error(CK_ERR_INVALID, "var dimension", (int)k->dim,
                                     "a row claims %zu elements",
                                     sv.size > dv.size ? sv.size : dv.size);
    }
    const intptr_t ns = (intptr_t)sv.size, nd = dv.begin == NULL ? 0 : (intptr_t)dv.size;
    char *first = sv.begin + k->src_offset;
    if (ns > nd) {
        ck_var_data nv = {NULL, 0};
        CK__RETURN_IF_ERROR(ck__var_row_allocate(&k->row, (int)k->dim, ns, &nv));
        if (nd > 0) {
            memcpy(nv.begin, dv.begin + k->row.offset,
                   (size_t)(nd - 1) * (size_t)k->row.stride + k->row.elem_size);
        }
        static const intptr_t zero = 0;
        CK__RETURN_IF_ERROR(ck_call_strided(ck_child(self, k->child[0]),
                                           nv.begin + nd * k->row.stride, k->row.stride, &first,
                                           &zero, (size_t)(ns - nd)));
        dv = nv;
        memcpy(dst, &dv, sizeof dv);
    }
    return ck_call_strided(ck_child(self, k->child[1]), dv.begin + k->row.offset,
                           k->row.stride, &first, &k->src_stride, (size_t)ns);
}

static CK__KERNEL_ALIGN int reduce_var_grow_strided(ck_prefix *self, char *dst,
                                                    intptr_t dst_stride, char *const *src,
                                                    const intptr_t *src_stride, size_t count) {
    char *s = src[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += src_stride[0]) {
        CK__RETURN_IF_ERROR_AT(i, reduce_var_grow_one(self, dst, s));
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int reduce_var_grow_single(ck_prefix *self, char *dst,
                                                   char *const *src) {
    return reduce_var_grow_one(self, dst, src[0]);
}

int ck__make_reduce_var_grow(ck_builder *ckb, size_t *offset, const ck__var_row_spec *row,
                             intptr_t src_offset, intptr_t src_stride, int dim, ck_request req,
                             size_t *at) {
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__REDUCE_VAR_GROW_CHILD));
    ck__reduce_var_grow *k = (ck__reduce_var_grow *)ck_builder_at(ckb, *offset);
    k->base.destructor = reduce_var_grow_destroy;
    ck_prefix_set_function(&k->base, req, reduce_var_grow_single, reduce_var_grow_strided);
    k->row = *row;
    ck_memblock_incref(row->blockref);
    k->src_offset = src_offset;
    k->src_stride = src_stride;
    k->dim = dim;
    *at = *offset;
    *offset += CK__REDUCE_VAR_GROW_CHILD;
    return CK_OK;
}

int ck__reduce_var_grow_set_child(ck_builder *ckb, size_t at, int init, size_t child_offset) {
    return ck__record_child(ckb, at, offsetof(ck__reduce_var_grow, child) + (init ? 0u : 4u),
                            child_offset, "reduce_var_grow");
}

static void reduce_var_grow_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                     ck__children *children) {
    const ck__reduce_var_grow *k = (const ck__reduce_var_grow *)self;
    ck__strbuf_printf(out, "dst=var(stride=%td offset=%td) src=var(stride=%td offset=%td) "
                           "rows left-aligned: init, fold",
                      k->row.stride, k->row.offset, k->src_stride, k->src_offset);
    *size = sizeof(ck__reduce_var_grow);
    ck__children_list(children, k->child, 2);
}

const ck__kind ck__reduce_var_grow_kind = {"reduce_var_grow", reduce_var_grow_single,
                                           reduce_var_grow_strided, reduce_var_grow_describe};
