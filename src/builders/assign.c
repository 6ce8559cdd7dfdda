/* src/builders/assign.c: the composition of assignment kernels: a recursive walk over the
 * destination and source types (with their arrmeta) that decides which kernels to nest.
 *   pointer levels first (dst: write through, src: read through), then dimensions:
 *   fixed <- fixed     strided_dim (a size-1 source broadcasts with stride 0)
 *   fixed <- absent    strided_dim with source stride 0 (a missing leading dim broadcasts)
 *   any side var       var_dim (sizes checked when it runs)
 *   scalar <- scalar   a leaf from the per-target table, wrapped in an unaligned kernel when
 *                      a stride or offset on the way (or the context) can misalign it. */
#include <stdint.h>

#include "ckernel/arrmeta.h"
#include "ckernel/assign.h"
#include "builders/assign_internal.h"
#include "common/internal.h"
#include "kernels/kinds.h"
/* The type struct itself: the walk reads its fields directly (it runs on every build). */
#include "types/type_internal.h"

typedef struct ck__assign_ctx {
    const ck_type *dst_top, *src_top; /* for messages */
    ck_errmode mode;                  /* concrete */
    unsigned flags;
} ck__assign_ctx;

/* Every stride and offset that can move an element off its alignment, OR-ed together. */
typedef struct ck__align_bits {
    uintptr_t dst, src;
} ck__align_bits;

static int broadcast_error(const ck__assign_ctx *c, int dim, intptr_t src_size,
                           intptr_t dst_size) {
    char *ds = NULL, *ss = NULL;
    /* Formatting may fail for lack of memory; the sizes alone still say what is wrong. */
    int have = ck_type_format(c->dst_top, &ds) == CK_OK && ck_type_format(c->src_top, &ss) == CK_OK;
    int rc = ck_set_error(CK_ERR_BROADCAST,
                          "cannot broadcast source %s into destination %s: dimension %d has size "
                          "%td in the source and %td in the destination",
                          have ? ss : "?", have ? ds : "?", dim, src_size, dst_size);
    ck_free(ds);
    ck_free(ss);
    return rc;
}

/* Arrmeta of a fixed dim must agree with its type: the kernels trust the size. */
static int check_fixed_arrmeta(const ck_type *t, const ck_fixed_dim_arrmeta *m, const char *which) {
    if (m->dim_size != t->fixed_size) {
        return ck_set_error(CK_ERR_INVALID,
                            "the %s arrmeta gives a fixed dimension of size %td, its type says %td",
                            which, m->dim_size, t->fixed_size);
    }
    return CK_OK;
}

static int rank_error(const ck__assign_ctx *c, int src_nd, int dst_nd) {
    char *ds = NULL, *ss = NULL;
    int have = ck_type_format(c->dst_top, &ds) == CK_OK && ck_type_format(c->src_top, &ss) == CK_OK;
    int rc = ck_set_error(CK_ERR_BROADCAST,
                          "cannot assign source %s into destination %s: the source has %d more "
                          "dimension%s than the destination can hold",
                          have ? ss : "?", have ? ds : "?", src_nd - dst_nd,
                          src_nd - dst_nd == 1 ? "" : "s");
    ck_free(ds);
    ck_free(ss);
    return rc;
}

/* Dimensions of t, counting those behind pointers: pointers are dereferenced before
 * dimensions are matched, so "2 * pointer[2 * int64]" has two. */
static int dims_through_pointers(const ck_type *t) {
    int n = 0;
    for (;;) {
        const ck_type_id id = (t)->id;
        if (id == CK_TYPE_FIXED_DIM || id == CK_TYPE_VAR_DIM) {
            n++;
        } else if (id != CK_TYPE_POINTER) {
            return n;
        }
        t = (t)->element;
    }
}

static int make_leaf(ck_builder *ckb, size_t *offset, const ck_type *dt, const ck_type *st,
                     ck_request req, const ck__assign_ctx *c, ck__align_bits bits) {
    const size_t dalign = (dt)->data_alignment, salign = (st)->data_alignment;
    const int mis_dst = (c->flags & CK_EVAL_DST_UNALIGNED) != 0 || (bits.dst & (dalign - 1)) != 0;
    const int mis_src = (c->flags & CK_EVAL_SRC_UNALIGNED) != 0 || (bits.src & (salign - 1)) != 0;
    if (mis_dst || mis_src) {
        CK_RETURN_IF_ERROR(ck__make_unaligned(ckb, offset, (dt)->data_size,
                                              (st)->data_size, mis_dst, mis_src, req));
        req = CK_REQUEST_STRIDED;
    }
    return ck__make_scalar_leaf(ckb, offset, (dt)->id, (st)->id, c->mode, req);
}

/* One fixed destination level with a fixed or absent source level. */
typedef struct ck__fixed_level {
    intptr_t size, dst_stride, src_stride;
} ck__fixed_level;

static int make_assign(ck_builder *ckb, size_t *offset, const ck_type *dt, const char *dam,
                       const ck_type *st, const char *sam, ck_request req,
                       const ck__assign_ctx *c, ck__align_bits bits, int dim);

/* A run of fixed levels (destination fixed, source fixed or absent, no pointer between):
 * collected, then coalesced where both operands are contiguous across two levels (the outer
 * stride is the inner size times the inner stride), so a C-order N-d assignment is one
 * strided loop; the innermost two are tiled when the operands are contiguous along
 * different ones (a transposed copy). */
static int make_fixed_dims(ck_builder *ckb, size_t *offset, const ck_type *dt, const char *dam,
                           const ck_type *st, const char *sam, ck_request req,
                           const ck__assign_ctx *c, ck__align_bits bits, int dim) {
    ck__fixed_level lv[CK_TYPE_MAX_DEPTH];
    int n = 0;
    while (n < CK_TYPE_MAX_DEPTH && (dt)->id == CK_TYPE_FIXED_DIM &&
           (st)->id != CK_TYPE_POINTER) {
        const int dnd = dims_through_pointers(dt), snd = dims_through_pointers(st);
        if (snd > dnd) {
            return rank_error(c, snd, dnd);
        }
        const int src_has_dim = snd == dnd;
        if (src_has_dim && (st)->id != CK_TYPE_FIXED_DIM) {
            break; /* a var source level: var_dim's business */
        }
        const ck_fixed_dim_arrmeta *dm = (const ck_fixed_dim_arrmeta *)(const void *)dam;
        CK_RETURN_IF_ERROR(check_fixed_arrmeta(dt, dm, "destination"));
        ck__fixed_level l = {dm->dim_size, dm->stride, 0};
        if (src_has_dim) {
            const ck_fixed_dim_arrmeta *sm = (const ck_fixed_dim_arrmeta *)(const void *)sam;
            CK_RETURN_IF_ERROR(check_fixed_arrmeta(st, sm, "source"));
            if (sm->dim_size == dm->dim_size) {
                l.src_stride = sm->stride;
            } else if (sm->dim_size != 1) {
                return broadcast_error(c, dim + n, sm->dim_size, dm->dim_size);
            }
            st = (st)->element;
            sam += sizeof(ck_fixed_dim_arrmeta);
        }
        bits.dst |= (uintptr_t)l.dst_stride;
        bits.src |= (uintptr_t)l.src_stride;
        lv[n++] = l;
        dt = (dt)->element;
        dam += sizeof(ck_fixed_dim_arrmeta);
    }
    /* Coalesce from the inside out; not above a var dimension or a pointer (which may lead
     * to one), whose errors name the row by the index of each enclosing dimension (a merged
     * loop would give one flat index). has_blockref says "a var or a pointer inside". */
    const int coalesce = !(dt)->has_blockref && !(st)->has_blockref;
    for (int i = n - 2; coalesce && i >= 0; i--) {
        const ck__fixed_level *o = &lv[i], *in = &lv[i + 1];
        intptr_t dspan, sspan, size;
        if (__builtin_mul_overflow(in->size, in->dst_stride, &dspan) ||
            __builtin_mul_overflow(in->size, in->src_stride, &sspan) ||
            __builtin_mul_overflow(o->size, in->size, &size) || dspan != o->dst_stride ||
            sspan != o->src_stride) {
            continue;
        }
        lv[i].size = size;
        lv[i].dst_stride = in->dst_stride;
        lv[i].src_stride = in->src_stride;
        for (int k = i + 1; k + 1 < n; k++) {
            lv[k] = lv[k + 1];
        }
        n--;
    }
    /* Tile the innermost pair over a leaf when the contiguous dimensions disagree. */
    int tiled = 0;
    if (n >= 2 && ck__id_is_scalar((dt)->id) && ck__id_is_scalar((st)->id)) {
        const ck__fixed_level *o = &lv[n - 2], *in = &lv[n - 1];
        const intptr_t ad0 = o->dst_stride < 0 ? -o->dst_stride : o->dst_stride;
        const intptr_t ad1 = in->dst_stride < 0 ? -in->dst_stride : in->dst_stride;
        const intptr_t as0 = o->src_stride < 0 ? -o->src_stride : o->src_stride;
        const intptr_t as1 = in->src_stride < 0 ? -in->src_stride : in->src_stride;
        tiled = as0 != 0 && as1 != 0 && ad0 != 0 && ad1 != 0 && (ad1 < ad0) != (as1 < as0) &&
                o->size > 1 && in->size > 1;
    }
    const int plain = tiled ? n - 2 : n;
    for (int i = 0; i < plain; i++) {
        CK_RETURN_IF_ERROR(ck__make_strided_dim(ckb, offset, lv[i].size, lv[i].dst_stride,
                                                lv[i].src_stride, i == 0 ? req : CK_REQUEST_STRIDED));
    }
    if (tiled) {
        const intptr_t size[2] = {lv[n - 2].size, lv[n - 1].size};
        const intptr_t ds[2] = {lv[n - 2].dst_stride, lv[n - 1].dst_stride};
        const intptr_t ss[2] = {lv[n - 2].src_stride, lv[n - 1].src_stride};
        CK_RETURN_IF_ERROR(
            ck__make_tiled_2d(ckb, offset, size, ds, ss, plain == 0 ? req : CK_REQUEST_STRIDED));
    }
    return make_assign(ckb, offset, dt, dam, st, sam, n == 0 ? req : CK_REQUEST_STRIDED, c, bits,
                       dim + n);
}

static int make_assign(ck_builder *ckb, size_t *offset, const ck_type *dt, const char *dam,
                       const ck_type *st, const char *sam, ck_request req,
                       const ck__assign_ctx *c, ck__align_bits bits, int dim) {
    const ck_type_id did = (dt)->id, sid = (st)->id;

    if (did == CK_TYPE_POINTER) {
        const ck_pointer_arrmeta *pm = (const ck_pointer_arrmeta *)(const void *)dam;
        CK_RETURN_IF_ERROR(ck__make_pointer_dst(ckb, offset, pm->offset, req));
        bits.dst = (uintptr_t)pm->offset; /* a fresh pointer: only its offset can misalign */
        return make_assign(ckb, offset, (dt)->element, dam + sizeof(ck_pointer_arrmeta), st,
                           sam, CK_REQUEST_SINGLE, c, bits, dim);
    }
    if (sid == CK_TYPE_POINTER) {
        const ck_pointer_arrmeta *pm = (const ck_pointer_arrmeta *)(const void *)sam;
        const ck_type *target = (st)->element;
        /* pointer[scalar] -> scalar: gather targets into chunks for a strided leaf. The gather
         * copies bytes, so the target's alignment does not matter to the leaf. */
        const int gather = ck__id_is_scalar((target)->id) && ck__id_is_scalar((dt)->id);
        CK_RETURN_IF_ERROR(ck__make_pointer_src(
            ckb, offset, pm->offset, gather ? (target)->data_size : 0, req));
        bits.src = gather ? 0 : (uintptr_t)pm->offset;
        /* Below a gather the source is the gather's own aligned buffer. */
        ck__assign_ctx below = *c;
        if (gather) {
            below.flags &= ~CK_EVAL_SRC_UNALIGNED;
        }
        return make_assign(ckb, offset, dt, dam, target, sam + sizeof(ck_pointer_arrmeta),
                           gather ? CK_REQUEST_STRIDED : CK_REQUEST_SINGLE, &below, bits, dim);
    }

    const int dnd = dims_through_pointers(dt), snd = dims_through_pointers(st);
    if (snd > dnd) {
        return rank_error(c, snd, dnd);
    }
    if (dnd == 0) {
        return make_leaf(ckb, offset, dt, st, req, c, bits);
    }

    const int src_has_dim = snd == dnd;
    const ck_type *delem = (dt)->element;
    const ck_type *selem = src_has_dim ? (st)->element : st;
    const char *sam_next = sam;
    ck__var_dim_params p = {0};
    p.src_kind = CK__DIM_ABSENT;
    if (src_has_dim && sid == CK_TYPE_FIXED_DIM) {
        const ck_fixed_dim_arrmeta *sm = (const ck_fixed_dim_arrmeta *)(const void *)sam;
        CK_RETURN_IF_ERROR(check_fixed_arrmeta(st, sm, "source"));
        p.src_kind = CK__DIM_FIXED;
        p.src_size = sm->dim_size;
        p.src_stride = sm->stride;
        sam_next = sam + sizeof(ck_fixed_dim_arrmeta);
    } else if (src_has_dim) {
        const ck_var_dim_arrmeta *sm = (const ck_var_dim_arrmeta *)(const void *)sam;
        p.src_kind = CK__DIM_VAR;
        p.src_stride = sm->stride;
        p.src_offset = sm->offset;
        sam_next = sam + sizeof(ck_var_dim_arrmeta);
    }
    bits.src |= (uintptr_t)p.src_stride | (uintptr_t)p.src_offset;

    if (did == CK_TYPE_FIXED_DIM && p.src_kind != CK__DIM_VAR) {
        return make_fixed_dims(ckb, offset, dt, dam, st, sam, req, c, bits, dim);
    }

    /* A ragged side: sizes are checked when the kernel runs. */
    const char *dam_next;
    if (did == CK_TYPE_FIXED_DIM) {
        const ck_fixed_dim_arrmeta *dm = (const ck_fixed_dim_arrmeta *)(const void *)dam;
        CK_RETURN_IF_ERROR(check_fixed_arrmeta(dt, dm, "destination"));
        p.dst_kind = CK__DIM_FIXED;
        p.dst_size = dm->dim_size;
        p.dst_stride = dm->stride;
        dam_next = dam + sizeof(ck_fixed_dim_arrmeta);
    } else {
        const ck_var_dim_arrmeta *dm = (const ck_var_dim_arrmeta *)(const void *)dam;
        p.dst_kind = CK__DIM_VAR;
        p.dst_stride = dm->stride;
        p.dst_offset = dm->offset;
        p.dst_blockref = dm->blockref;
        p.dst_elem_size = (delem)->data_size;
        p.dst_elem_align = (delem)->data_alignment;
        dam_next = dam + sizeof(ck_var_dim_arrmeta);
    }
    bits.dst |= (uintptr_t)p.dst_stride | (uintptr_t)p.dst_offset;
    p.dim = dim;
    CK_RETURN_IF_ERROR(ck__make_var_dim(ckb, offset, &p, req));
    return make_assign(ckb, offset, delem, dam_next, selem, sam_next, CK_REQUEST_STRIDED, c, bits,
                       dim + 1);
}

static int resolve_ctx(const ck_eval_ctx *ectx, ck__assign_ctx *c) {
    static const ck_eval_ctx defaults = CK_EVAL_CTX_INIT;
    if (ectx == NULL) {
        ectx = &defaults;
    }
    c->mode = ectx->errmode == CK_ERRMODE_DEFAULT ? CK_ERRMODE_FRACTIONAL : ectx->errmode;
    if ((unsigned)c->mode >= CK_NUM_ERRMODES) {
        return ck_set_error(CK_ERR_INVALID, "unknown error mode %d in the evaluation context",
                            (int)ectx->errmode);
    }
    c->flags = ectx->flags;
    return CK_OK;
}

int ck_make_assign(ck_builder *ckb, size_t *offset, const ck_type *dst_tp,
                   const char *dst_arrmeta, const ck_type *src_tp, const char *src_arrmeta,
                   ck_request req, const ck_eval_ctx *ectx) {
    return ck__make_assign_at(ckb, offset, dst_tp, dst_arrmeta, src_tp, src_arrmeta, req, ectx,
                              0);
}

int ck__make_assign_at(ck_builder *ckb, size_t *offset, const ck_type *dst_tp,
                       const char *dst_arrmeta, const ck_type *src_tp, const char *src_arrmeta,
                       ck_request req, const ck_eval_ctx *ectx, int first_dim) {
    if (ckb == NULL || offset == NULL || dst_tp == NULL || src_tp == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_make_assign: NULL builder, offset or type");
    }
    if ((dst_arrmeta == NULL && ck_type_arrmeta_size(dst_tp) != 0) ||
        (src_arrmeta == NULL && ck_type_arrmeta_size(src_tp) != 0)) {
        return ck_set_error(CK_ERR_INVALID, "ck_make_assign: NULL arrmeta for a type that has some");
    }
    if (req != CK_REQUEST_SINGLE && req != CK_REQUEST_STRIDED) {
        return ck_set_error(CK_ERR_INVALID, "ck_make_assign: unknown request %d", (int)req);
    }
    ck__assign_ctx c;
    c.dst_top = dst_tp;
    c.src_top = src_tp;
    CK_RETURN_IF_ERROR(resolve_ctx(ectx, &c));
    const ck__align_bits bits = {0, 0};
    return make_assign(ckb, offset, dst_tp, dst_arrmeta, src_tp, src_arrmeta, req, &c, bits,
                       first_dim);
}

unsigned ck__unaligned_flags(const ck_type *dt, uintptr_t dst_bits, const ck_type *st,
                             uintptr_t src_bits) {
    return (dst_bits % dt->data_alignment != 0 ? CK_EVAL_DST_UNALIGNED : 0u) |
           (src_bits % st->data_alignment != 0 ? CK_EVAL_SRC_UNALIGNED : 0u);
}

int ck_assign(const ck_array *dst, const ck_array *src, const ck_eval_ctx *ectx) {
    if (dst == NULL || src == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_assign: NULL array");
    }
    static const ck_eval_ctx defaults = CK_EVAL_CTX_INIT;
    ck_eval_ctx ctx = ectx != NULL ? *ectx : defaults;
    const ck_type *dt = ck_array_type(dst), *st = ck_array_type(src);
    char *dd = ck_array_data(dst), *sd = ck_array_data(src);
    /* The kernel is built for these very pointers: say so when they are misaligned. */
    ctx.flags |= ck__unaligned_flags(dt, (uintptr_t)dd, st, (uintptr_t)sd);
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    int rc = ck_make_assign(&b, &off, dt, ck_array_arrmeta(dst), st, ck_array_arrmeta(src),
                            CK_REQUEST_SINGLE, &ctx);
    if (rc == CK_OK) {
        rc = ck_call_single(ck_builder_root(&b), dd, &sd);
    }
    ck_builder_destroy(&b);
    return rc;
}
