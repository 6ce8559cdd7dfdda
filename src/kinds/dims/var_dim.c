/* src/kinds/dims/var_dim.c: the ragged dimension kernel, for every pairing where either side
 * is a var dim: var <- var, var <- fixed, var <- scalar (broadcast), fixed <- var. Sizes are
 * only known when it runs: a source of size 1 broadcasts, any other mismatch is
 * CK_ERR_BROADCAST. An unallocated destination (begin == NULL) is allocated from the
 * destination's memory block with the source's size; an unallocated source is
 * CK_ERR_UNINITIALIZED. */
#include "ckernel/arrmeta.h"
#include "common/internal.h"
#include "core/kinds.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* 56 bytes plus 16 per source: with one source 72, so that a fixed dim over a ragged dim
 * over a leaf (40 + 72 + 16) fits the builder's 128 inline bytes. Each side needs a size
 * (fixed) or an offset (var), never both: one `extent` holds either. */
typedef struct ck__var_src {
    intptr_t extent, stride;
} ck__var_src;

typedef struct ck__var_dim {
    ck_prefix base;
    ck_memblock *dst_blockref; /* a counted reference, released by the destructor */
    intptr_t dst_extent, dst_stride;
    uint32_t dst_elem_size, dst_elem_align;
    uint32_t src_kinds; /* ck__dim_side of source j in bits 2j..2j+1 */
    uint8_t dst_kind;   /* ck__dim_side */
    uint8_t dim;        /* this dimension's number in the destination, for messages */
    uint8_t nsrc;
    uint8_t dst_elem_before; /* ck__var_dim_params' */
    ck__var_src src[]; /* nsrc of them */
} ck__var_dim;
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(ck__var_dim) + sizeof(ck__var_src) == 72,
               "a one-source var dim kernel is 72 bytes on LP64");
#endif

static inline size_t var_dim_child(const ck__var_dim *k) {
    return sizeof(ck__var_dim) + (size_t)k->nsrc * sizeof(ck__var_src);
}
#define CK__VAR_DIM_CHILD var_dim_child(k)

static inline int src_kind(const ck__var_dim *k, int j) {
    return (int)((k->src_kinds >> (2 * j)) & 3u);
}

static void var_dim_destroy(ck_prefix *self) {
    ck__var_dim *k = (ck__var_dim *)self;
    ck_memblock_decref(k->dst_blockref);
    ck_prefix_destroy(ck_child(self, CK__VAR_DIM_CHILD));
}

#define CK__VAR_WHAT "var dimension"

int ck__var_row_allocate(const ck__var_row_spec *r, int dim, intptr_t n, ck_var_data *dv) {
    if (r->offset != 0) {
        return ck__set_located_error(CK_ERR_INVALID, CK__VAR_WHAT, dim,
                                     "the destination is unallocated but its arrmeta has offset "
                                     "%td; only offset 0 can be allocated",
                                     r->offset);
    }
    if (r->blockref == NULL || ck_memblock_get_kind(r->blockref) != CK_MEMBLOCK_ARENA) {
        return ck__set_located_error(CK_ERR_INVALID, CK__VAR_WHAT, dim,
                                     "the destination is unallocated and its arrmeta has no "
                                     "arena memory block to allocate from");
    }
    if (r->elem_before) {
        return ck__set_located_error(CK_ERR_INVALID, CK__VAR_WHAT, dim,
                                     "cannot allocate an unallocated destination whose element "
                                     "arrmeta reaches before the element's start");
    }
    if (r->stride < 0 || (n > 1 && (size_t)r->stride < r->elem_size)) {
        return ck__set_located_error(CK_ERR_INVALID, CK__VAR_WHAT, dim,
                                     "cannot allocate an unallocated destination with stride %td "
                                     "for elements of %zu bytes",
                                     r->stride, r->elem_size);
    }
    size_t bytes = 0;
    if (n > 0 && (ck__mul_overflow((size_t)(n - 1), (size_t)r->stride, &bytes) ||
                  ck__add_overflow(bytes, r->elem_size, &bytes))) {
        return ck__set_located_error(CK_ERR_NOMEM, CK__VAR_WHAT, dim,
                                     "%td elements overflow the address space", n);
    }
    char *p;
    CK__RETURN_IF_ERROR(ck_arena_alloc(r->blockref, bytes, r->elem_align, &p));
    dv->begin = p;
    dv->size = (size_t)n;
    return CK_OK;
}

/* Allocates n destination elements; reports why it cannot. */
static int var_dim_allocate(const ck__var_dim *k, ck_var_data *dv, intptr_t n) {
    const ck__var_row_spec r = {k->dst_blockref, k->dst_extent, k->dst_stride, k->dst_elem_size,
                                k->dst_elem_align, k->dst_elem_before};
    return ck__var_row_allocate(&r, k->dim, n, dv);
}

/* Where source j's row starts, its size and stride. */
static int source_row(const ck__var_dim *k, int j, char *src, char **sp, intptr_t *sn,
                      intptr_t *ss) {
    *ss = k->src[j].stride;
    switch (src_kind(k, j)) {
    case CK__DIM_VAR: {
        ck_var_data v; /* a copy: the slot may be misaligned (a host's odd strides) */
        memcpy(&v, src, sizeof v);
        const ck_var_data *sv = &v;
        if (sv->begin == NULL) {
            return k->nsrc == 1
                       ? ck__set_located_error(CK_ERR_UNINITIALIZED, CK__VAR_WHAT, k->dim,
                                               "the source is not allocated (begin is NULL)")
                       : ck__set_located_error(CK_ERR_UNINITIALIZED, CK__VAR_WHAT, k->dim,
                                               "argument %d is not allocated (begin is NULL)",
                                               j);
        }
        if (sv->size > (size_t)INTPTR_MAX) {
            return ck__set_located_error(CK_ERR_INVALID, CK__VAR_WHAT, k->dim,
                                         "the source row claims %zu elements", sv->size);
        }
        *sp = sv->begin + k->src[j].extent;
        *sn = (intptr_t)sv->size;
        return CK_OK;
    }
    case CK__DIM_FIXED:
        *sp = src;
        *sn = k->src[j].extent;
        return CK_OK;
    default:
        *sp = src;
        *sn = 1;
        *ss = 0;
        return CK_OK;
    }
}

static CK__KERNEL_ALIGN int var_dim_single(ck_prefix *self, char *dst, char *const *src) {
    const ck__var_dim *k = (const ck__var_dim *)self;
    const int ns = k->nsrc;
    char *sp[16];
    intptr_t sn[16], ss[16];
    intptr_t common = 1; /* the sources' size, broadcast: what an unallocated dst gets */
    for (int j = 0; j < ns; j++) {
        CK__RETURN_IF_ERROR(source_row(k, j, src[j], &sp[j], &sn[j], &ss[j]));
        if (sn[j] != 1) {
            if (common != 1 && common != sn[j]) {
                return ck__set_located_error(CK_ERR_BROADCAST, CK__VAR_WHAT, k->dim,
                                             "cannot broadcast arguments of sizes %td and %td "
                                             "together",
                                             common, sn[j]);
            }
            common = sn[j];
        }
    }
    char *dp;
    intptr_t dn;
    if (k->dst_kind == CK__DIM_VAR) {
        ck_var_data v; /* a copy: the slot may be misaligned (a host's odd strides) */
        memcpy(&v, dst, sizeof v);
        ck_var_data *dv = &v;
        if (dv->begin == NULL) {
            CK__RETURN_IF_ERROR(var_dim_allocate(k, dv, ns == 1 ? sn[0] : common));
            memcpy(dst, dv, sizeof *dv);
            dp = dv->begin;
        } else {
            if (dv->size > (size_t)INTPTR_MAX) {
                return ck__set_located_error(CK_ERR_INVALID, CK__VAR_WHAT, k->dim,
                                             "the destination row claims %zu elements", dv->size);
            }
            dp = dv->begin + k->dst_extent;
        }
        dn = (intptr_t)dv->size;
    } else {
        dp = dst;
        dn = k->dst_extent;
    }
    for (int j = 0; j < ns; j++) {
        if (sn[j] == dn) {
            continue;
        }
        if (sn[j] != 1) {
            return ns == 1 ? ck__set_located_error(CK_ERR_BROADCAST, CK__VAR_WHAT, k->dim,
                                                   "cannot broadcast a source of size %td into a "
                                                   "destination of size %td",
                                                   sn[j], dn)
                           : ck__set_located_error(CK_ERR_BROADCAST, CK__VAR_WHAT, k->dim,
                                                   "cannot broadcast argument %d of size %td "
                                                   "into a destination of size %td",
                                                   j, sn[j], dn);
        }
        ss[j] = 0;
    }
    return ck_call_strided(ck_child(self, CK__VAR_DIM_CHILD), dp, k->dst_stride, sp, ss,
                           (size_t)dn);
}

/* Rows whose every side is ragged, allocated and of the destination's size, straight to the
 * child: the general path (var_dim_single) took a tenth of the time of 100-element float64
 * rows on an AMD EPYC (Zen 4). Any other row takes the general path, which also words the
 * errors. */
static int var_rows_regular(ck_prefix *self, char *dst, intptr_t dst_stride, char **s,
                            const intptr_t *src_stride, size_t count) {
    const ck__var_dim *k = (const ck__var_dim *)self;
    const int ns = k->nsrc;
    ck_prefix *child = ck_child(self, CK__VAR_DIM_CHILD);
    const ck_strided_fn fn = ck_prefix_strided(child);
    char *sp[16];
    intptr_t ss[16];
    for (int j = 0; j < ns; j++) {
        ss[j] = k->src[j].stride;
    }
    for (size_t i = 0; i < count; i++, dst += dst_stride) {
        ck_var_data dv; /* copies: the slots may be misaligned (a host's odd strides) */
        memcpy(&dv, dst, sizeof dv);
        int regular = dv.begin != NULL && dv.size <= (size_t)INTPTR_MAX;
        for (int j = 0; regular && j < ns; j++) {
            ck_var_data sv;
            memcpy(&sv, s[j], sizeof sv);
            regular = sv.begin != NULL && sv.size == dv.size;
            if (regular) { /* never an offset from NULL */
                sp[j] = sv.begin + k->src[j].extent;
            }
        }
        const int rc = regular ? fn(child, dv.begin + k->dst_extent, k->dst_stride, sp, ss,
                                    dv.size)
                               : var_dim_single(self, dst, s);
        CK__RETURN_IF_ERROR_AT(i, rc); /* the row, in messages */
        for (int j = 0; j < ns; j++) {
            s[j] += src_stride[j];
        }
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int var_dim_strided(ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,
                           const intptr_t *src_stride, size_t count) {
    const ck__var_dim *k = (const ck__var_dim *)self;
    const int ns = k->nsrc;
    char *s[16];
    for (int j = 0; j < ns; j++) {
        s[j] = src[j];
    }
    if (k->dst_kind == CK__DIM_VAR && k->src_kinds == 0) { /* CK__DIM_VAR is 0 */
        return var_rows_regular(self, dst, dst_stride, s, src_stride, count);
    }
    for (size_t i = 0; i < count; i++, dst += dst_stride) {
        CK__RETURN_IF_ERROR_AT(i, var_dim_single(self, dst, s)); /* the row, in messages */
        for (int j = 0; j < ns; j++) {
            s[j] += src_stride[j];
        }
    }
    return CK_OK;
}

int ck__make_var_dim(ck_builder *ckb, size_t *offset, const ck__var_dim_params *p,
                     ck_request req) {
    if (p->nsrc < 1 || p->nsrc > 16) {
        return ck_set_error(CK_ERR_INTERNAL, "var dimension with %d sources", p->nsrc);
    }
    const size_t child = sizeof(ck__var_dim) + (size_t)p->nsrc * sizeof(ck__var_src);
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + child));
    ck__var_dim *k = (ck__var_dim *)ck_builder_at(ckb, *offset);
    k->base.destructor = var_dim_destroy;
    k->nsrc = (uint8_t)p->nsrc; /* first: the destructor finds the child by it */
    ck_prefix_set_function(&k->base, req, var_dim_single, var_dim_strided);
    if (p->dst_kind == CK__DIM_VAR) {
        ck_memblock_incref(p->dst_blockref);
        k->dst_blockref = p->dst_blockref;
    }
    if (p->dst_elem_size > UINT32_MAX || p->dst_elem_align > UINT32_MAX) {
        return ck_set_error(CK_ERR_INVALID, "var dimension: elements of %zu bytes are too large",
                            p->dst_elem_size);
    }
    k->dst_kind = (uint8_t)p->dst_kind;
    k->dst_extent = p->dst_kind == CK__DIM_FIXED ? p->dst_size : p->dst_offset;
    k->dst_stride = p->dst_stride;
    k->dst_elem_size = (uint32_t)p->dst_elem_size;
    k->dst_elem_align = (uint32_t)p->dst_elem_align;
    k->dst_elem_before = (uint8_t)(p->dst_elem_before != 0);
    k->dim = (uint8_t)p->dim;
    for (int j = 0; j < p->nsrc; j++) {
        k->src_kinds |= (uint32_t)p->src[j].kind << (2 * j);
        k->src[j].extent = p->src[j].kind == CK__DIM_FIXED ? p->src[j].size : p->src[j].offset;
        k->src[j].stride = p->src[j].stride;
    }
    *offset += child;
    return CK_OK;
}

static void var_dim_side(ck__strbuf *out, const char *which, int kind, intptr_t size,
                         intptr_t stride, intptr_t offset) {
    if (kind == CK__DIM_VAR) {
        ck__strbuf_printf(out, "%s=var(stride=%td offset=%td)", which, stride, offset);
    } else if (kind == CK__DIM_FIXED) {
        ck__strbuf_printf(out, "%s=fixed(size=%td stride=%td)", which, size, stride);
    } else {
        ck__strbuf_printf(out, "%s=broadcast", which);
    }
}

static void var_dim_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                             ck__children *children) {
    const ck__var_dim *k = (const ck__var_dim *)self;
    var_dim_side(out, "dst", k->dst_kind, k->dst_extent, k->dst_stride, k->dst_extent);
    for (int j = 0; j < k->nsrc; j++) {
        char which[16] = "src";
        if (k->nsrc > 1) {
            snprintf(which, sizeof which, "src%d", j);
        }
        ck__strbuf_puts(out, " ");
        var_dim_side(out, which, src_kind(k, j), k->src[j].extent, k->src[j].stride,
                     k->src[j].extent);
    }
    *size = CK__VAR_DIM_CHILD;
    ck__children_add(children, CK__VAR_DIM_CHILD);
}

const ck__kind ck__var_dim_kind = {"var_dim", var_dim_single, var_dim_strided, var_dim_describe};
