/* src/builders/compose.c: the composition walk over a destination and N sources (with their
 * arrmeta), deciding which kernels to nest. It never backtracks: each level adds one kernel
 * and moves every operand one level down, so it is a loop over one mutable state.
 *   pointer levels first (dst: write through, a source: read through), then dimensions:
 *   fixed <- fixed     strided_dim, one stride per source (a size-1 source broadcasts with
 *                      stride 0); runs of fixed levels are coalesced where every operand is
 *                      contiguous across them, and with one source the innermost two are
 *                      tiled when source and destination are contiguous along different ones
 *   fixed <- absent    stride 0 (a missing leading dim broadcasts)
 *   any side var       var_dim (sizes checked when it runs)
 *   scalar <- scalars  the maker's leaf (c->make_leaf). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ckernel/arrmeta.h"
#include "builders/compose.h"
#include "common/internal.h"
#include "dispatch/signature.h"
#include "dispatch/cpu_internal.h"
#include "jit/jit_internal.h"
#include "kernels/kinds.h"
/* The type struct itself: the walk reads its fields directly (it runs on every build). */
#include "types/type_internal.h"

/* Where the walk is: the destination, every source, and what has moved them. */
typedef struct ck__walk {
    const ck_type *dt;
    const char *dam;
    uintptr_t dbits;
    unsigned flags;
    int dim;
    int done; /* the JIT compiled the rest */
    const ck_type *st[CK__MAX_SRC];
    const char *sam[CK__MAX_SRC];
    uintptr_t sbits[CK__MAX_SRC];
} ck__walk;

/* "source 3 * int32" with one source, "argument 2 (3 * int32)" with several. */
static void operand_name(const ck__compose *c, int k, const char *text, char *buf, size_t cap) {
    if (c->nsrc == 1) {
        snprintf(buf, cap, "source %s", text);
    } else {
        snprintf(buf, cap, "argument %d (%s)", k, text);
    }
}

static int shape_error(const ck__compose *c, int k, int dim, intptr_t src_size, intptr_t dst_size,
                       int extra_dims) {
    char *ds = NULL, *ss = NULL;
    /* Formatting may fail for lack of memory; the sizes alone still say what is wrong. */
    int have = ck_type_format(c->dst_top, &ds) == CK_OK &&
               ck_type_format(c->src_top[k], &ss) == CK_OK;
    char who[512];
    operand_name(c, k, have ? ss : "?", who, sizeof who);
    int rc;
    if (extra_dims > 0) {
        rc = ck_set_error(CK_ERR_BROADCAST,
                          "cannot assign %s into destination %s: the %s has %d more "
                          "dimension%s than the destination can hold",
                          who, have ? ds : "?", c->nsrc == 1 ? "source" : "argument", extra_dims,
                          extra_dims == 1 ? "" : "s");
    } else {
        rc = ck_set_error(CK_ERR_BROADCAST,
                          "cannot broadcast %s into destination %s: dimension %d has size "
                          "%td in the %s and %td in the destination",
                          who, have ? ds : "?", dim, src_size,
                          c->nsrc == 1 ? "source" : "argument", dst_size);
    }
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

/* Dimensions of t, counting those behind pointers: pointers are dereferenced before
 * dimensions are matched, so "2 * pointer[2 * int64]" has two. */
static int dims_through_pointers(const ck_type *t) {
    int n = 0;
    for (;;) {
        const ck_type_id id = t->id;
        if (id == CK_TYPE_FIXED_DIM || id == CK_TYPE_VAR_DIM) {
            n++;
        } else if (id != CK_TYPE_POINTER) {
            return n;
        }
        t = t->element;
    }
}

/* One fixed destination level: its size and the strides of every operand. */
typedef struct ck__fixed_level {
    intptr_t size, dst_stride;
    intptr_t src_stride[CK__MAX_SRC];
} ck__fixed_level;

/* Has source k a dimension at the destination's level (dnd dims left)? Checks the rank. */
static int source_level(const ck__compose *c, const ck__walk *w, int k, int dnd, int *has_dim) {
    const int snd = dims_through_pointers(w->st[k]);
    if (snd > dnd) {
        return shape_error(c, k, 0, 0, 0, snd - dnd);
    }
    *has_dim = snd == dnd;
    return CK_OK;
}

static int misaligned(unsigned flags, unsigned flag, uintptr_t bits, const ck_type *t) {
    return (flags & flag) != 0 || (bits & (t->data_alignment - 1)) != 0;
}

/* The run of n fixed levels over scalars as one JIT nest: CK_OK when the jit leaf is built,
 * CK__JIT_DECLINED to compose as usual, or a failure. Only aligned data (the compiled code
 * loads and stores whole elements). */
static int try_jit(ck_builder *ckb, size_t *offset, const ck__compose *c, const ck__walk *w,
                   const ck__fixed_level *lv, int n, ck_request req) {
    if (misaligned(w->flags, CK_EVAL_DST_UNALIGNED, w->dbits, w->dt) ||
        !ck__jit_worth_a_nest(w->flags, n, lv[n - 1].size)) {
        return CK__JIT_DECLINED;
    }
    ck__jit_nest nest;
    memset(&nest, 0, sizeof nest); /* every byte is fingerprinted */
    nest.op = c->jit_op;
    nest.ndim = n;
    nest.nargs = c->nsrc;
    nest.dst_id = (int32_t)w->dt->id;
    nest.op_id = c->jit_op_id >= 0 ? c->jit_op_id : (int32_t)w->st[0]->id;
    for (int k = 0; k < c->nsrc; k++) {
        if (misaligned(w->flags, CK_EVAL_SRC_UNALIGNED, w->sbits[k], w->st[k])) {
            return CK__JIT_DECLINED;
        }
        nest.arg_id[k] = (int32_t)w->st[k]->id;
        nest.param_id[k] = c->jit_param_id != NULL ? (int32_t)c->jit_param_id[k] : nest.op_id;
    }
    nest.native_fn = c->jit_fn;
    for (int l = 0; l < n; l++) {
        nest.size[l] = lv[l].size;
        nest.dst_stride[l] = lv[l].dst_stride;
        for (int k = 0; k < c->nsrc; k++) {
            nest.src_stride[k][l] = lv[l].src_stride[k];
        }
    }
    /* A conversion that cannot fail is the same code in every mode: one nest for all. */
    const ck__conversion kind =
        ck__conversion_kind((ck_type_id)nest.op_id, (ck_type_id)nest.dst_id);
    const ck_errmode mode =
        kind == CK__CONV_UNSAFE ? c->mode : CK_ERRMODE_NOCHECK;
    nest.mode = (int32_t)mode;
    CK_RETURN_IF_ERROR(ck__scalar_leaf_single((ck_type_id)nest.dst_id, (ck_type_id)nest.op_id,
                                              mode, &nest.slow, &nest.slow_strided));
    return ck__jit_try_leaf(ckb, offset, &nest, w->flags, req);
}

/* A run of fixed levels (destination fixed, every source fixed or absent, no pointer
 * between): collected, coalesced where every operand is contiguous across two levels (the
 * outer stride is the inner size times the inner stride), tiled as said above. */
static int make_fixed_dims(ck_builder *ckb, size_t *offset, const ck__compose *c, ck__walk *w,
                           ck_request *req) {
    const int ns = c->nsrc;
    ck__fixed_level lv[CK_TYPE_MAX_DEPTH];
    int n = 0;
    while (n < CK_TYPE_MAX_DEPTH && w->dt->id == CK_TYPE_FIXED_DIM) {
        const int dnd = dims_through_pointers(w->dt);
        int has[CK__MAX_SRC], stop = 0;
        for (int k = 0; k < ns; k++) {
            if (w->st[k]->id == CK_TYPE_POINTER) {
                stop = 1;
                break;
            }
            CK_RETURN_IF_ERROR(source_level(c, w, k, dnd, &has[k]));
            if (has[k] && w->st[k]->id != CK_TYPE_FIXED_DIM) {
                stop = 1; /* a var source level: var_dim's business */
                break;
            }
        }
        if (stop) {
            break;
        }
        const ck_fixed_dim_arrmeta *dm = (const ck_fixed_dim_arrmeta *)(const void *)w->dam;
        CK_RETURN_IF_ERROR(check_fixed_arrmeta(w->dt, dm, "destination"));
        ck__fixed_level *l = &lv[n];
        l->size = dm->dim_size;
        l->dst_stride = dm->stride;
        for (int k = 0; k < ns; k++) {
            l->src_stride[k] = 0;
            if (!has[k]) {
                continue;
            }
            const ck_fixed_dim_arrmeta *sm = (const ck_fixed_dim_arrmeta *)(const void *)w->sam[k];
            CK_RETURN_IF_ERROR(check_fixed_arrmeta(w->st[k], sm, ns == 1 ? "source" : "argument"));
            if (sm->dim_size == dm->dim_size) {
                l->src_stride[k] = sm->stride;
            } else if (sm->dim_size != 1) {
                return shape_error(c, k, w->dim + n, sm->dim_size, dm->dim_size, 0);
            }
            w->st[k] = w->st[k]->element;
            w->sam[k] += sizeof(ck_fixed_dim_arrmeta);
            w->sbits[k] |= (uintptr_t)l->src_stride[k];
        }
        w->dbits |= (uintptr_t)l->dst_stride;
        n++;
        w->dt = w->dt->element;
        w->dam += sizeof(ck_fixed_dim_arrmeta);
    }
    /* Coalesce from the inside out; not above a var dimension or a pointer (which may lead
     * to one), whose errors name the row by the index of each enclosing dimension (a merged
     * loop would give one flat index). has_blockref says "a var or a pointer inside". */
    int coalesce = !w->dt->has_blockref;
    for (int k = 0; k < ns; k++) {
        coalesce &= !w->st[k]->has_blockref;
    }
    for (int i = n - 2; coalesce && i >= 0; i--) {
        const ck__fixed_level *o = &lv[i], *in = &lv[i + 1];
        intptr_t span, size;
        int ok = !__builtin_mul_overflow(in->size, in->dst_stride, &span) &&
                 span == o->dst_stride && !__builtin_mul_overflow(o->size, in->size, &size);
        for (int k = 0; ok && k < ns; k++) {
            ok = !__builtin_mul_overflow(in->size, in->src_stride[k], &span) &&
                 span == o->src_stride[k];
        }
        if (!ok) {
            continue;
        }
        lv[i].size = size;
        lv[i].dst_stride = in->dst_stride;
        for (int k = 0; k < ns; k++) {
            lv[i].src_stride[k] = in->src_stride[k];
        }
        for (int j = i + 1; j + 1 < n; j++) {
            lv[j] = lv[j + 1];
        }
        n--;
    }
    /* Tile the innermost pair over a leaf when the contiguous dimensions disagree. */
    int tiled = 0;
    if (ns == 1 && n >= 2 && ck__id_is_scalar(w->dt->id) && ck__id_is_scalar(w->st[0]->id)) {
        const ck__fixed_level *o = &lv[n - 2], *in = &lv[n - 1];
        const intptr_t ad0 = o->dst_stride < 0 ? -o->dst_stride : o->dst_stride;
        const intptr_t ad1 = in->dst_stride < 0 ? -in->dst_stride : in->dst_stride;
        const intptr_t as0 = o->src_stride[0] < 0 ? -o->src_stride[0] : o->src_stride[0];
        const intptr_t as1 = in->src_stride[0] < 0 ? -in->src_stride[0] : in->src_stride[0];
        /* Fewer than 8 along an axis: the plain loop's rows are short or nearly dense. */
        tiled = as0 != 0 && as1 != 0 && ad0 != 0 && ad1 != 0 && (ad1 < ad0) != (as1 < as0) &&
                o->size >= 8 && in->size >= 8;
    }
    int scalars = ns <= CK__JIT_MAX_ARGS && ck__id_is_scalar(w->dt->id);
    for (int k = 0; scalars && k < ns; k++) {
        scalars = ck__id_is_scalar(w->st[k]->id);
    }
    if (!tiled && c->jit_op >= 0 && n >= 1 && n <= CK__JIT_MAX_DIMS && scalars) {
        const int rc = try_jit(ckb, offset, c, w, lv, n, *req);
        if (rc == CK_OK) {
            w->done = 1;
            return CK_OK;
        }
        if (rc != CK__JIT_DECLINED) {
            return rc;
        }
    }
    /* Streaming stores when the whole destination is above the threshold: by the tiled
     * kernel itself, else by the streaming kernel over the leaf when the leaf writes the
     * destination contiguously (compose.h: CK__EVAL_STREAM). */
    int big = 0;
    if (scalars && ns == 1 && n > 0) {
        uint64_t bytes = (uint64_t)w->dt->data_size * (c->outer_rows != 0 ? c->outer_rows : 1);
        for (int i = 0; i < n; i++) {
            if (__builtin_mul_overflow(bytes, (uint64_t)lv[i].size, &bytes)) {
                bytes = UINT64_MAX;
            }
        }
        big = bytes >= (uint64_t)ck__streaming_min_bytes();
    }
    if (big && !tiled && c->may_stream && lv[n - 1].dst_stride == (intptr_t)w->dt->data_size &&
        ck__streaming_supported(w->dt->data_size)) {
        w->flags |= CK__EVAL_STREAM;
    }
    const int plain = tiled ? n - 2 : n;
    for (int i = 0; i < plain; i++) {
        CK_RETURN_IF_ERROR(ck__make_strided_dim(ckb, offset, lv[i].size, lv[i].dst_stride, ns,
                                                lv[i].src_stride, *req));
        *req = CK_REQUEST_STRIDED;
    }
    if (tiled) {
        const intptr_t size[2] = {lv[n - 2].size, lv[n - 1].size};
        const intptr_t ds[2] = {lv[n - 2].dst_stride, lv[n - 1].dst_stride};
        const intptr_t ss[2] = {lv[n - 2].src_stride[0], lv[n - 1].src_stride[0]};
        CK_RETURN_IF_ERROR(
            ck__make_tiled_2d(ckb, offset, size, ds, ss, w->dt->data_size, big, *req));
        *req = CK_REQUEST_STRIDED;
        /* The leaf writes the tiled kernel's aligned buffer, not the destination. */
        w->dbits = 0;
        w->flags &= ~(unsigned)CK_EVAL_DST_UNALIGNED;
    }
    w->dim += n;
    return CK_OK;
}

/* A level where the destination or some source is ragged: sizes are checked when it runs. */
static int make_var_level(ck_builder *ckb, size_t *offset, const ck__compose *c, ck__walk *w,
                          const int *has, ck_request req) {
    const int ns = c->nsrc;
    ck__var_dim_params p;
    p.nsrc = ns;
    for (int k = 0; k < ns; k++) {
        p.src[k].kind = CK__DIM_ABSENT;
        p.src[k].size = 0;
        p.src[k].stride = 0;
        p.src[k].offset = 0;
        if (!has[k]) {
            continue;
        }
        if (w->st[k]->id == CK_TYPE_FIXED_DIM) {
            const ck_fixed_dim_arrmeta *sm = (const ck_fixed_dim_arrmeta *)(const void *)w->sam[k];
            CK_RETURN_IF_ERROR(check_fixed_arrmeta(w->st[k], sm, ns == 1 ? "source" : "argument"));
            p.src[k].kind = CK__DIM_FIXED;
            p.src[k].size = sm->dim_size;
            p.src[k].stride = sm->stride;
            w->sam[k] += sizeof(ck_fixed_dim_arrmeta);
        } else {
            const ck_var_dim_arrmeta *sm = (const ck_var_dim_arrmeta *)(const void *)w->sam[k];
            p.src[k].kind = CK__DIM_VAR;
            p.src[k].stride = sm->stride;
            p.src[k].offset = sm->offset;
            w->sam[k] += sizeof(ck_var_dim_arrmeta);
        }
        w->sbits[k] |= (uintptr_t)p.src[k].stride | (uintptr_t)p.src[k].offset;
        w->st[k] = w->st[k]->element;
    }
    const ck_type *delem = w->dt->element;
    p.dst_size = 0;
    p.dst_offset = 0;
    p.dst_blockref = NULL;
    p.dst_elem_size = 0;
    p.dst_elem_align = 0;
    if (w->dt->id == CK_TYPE_FIXED_DIM) {
        const ck_fixed_dim_arrmeta *dm = (const ck_fixed_dim_arrmeta *)(const void *)w->dam;
        CK_RETURN_IF_ERROR(check_fixed_arrmeta(w->dt, dm, "destination"));
        p.dst_kind = CK__DIM_FIXED;
        p.dst_size = dm->dim_size;
        p.dst_stride = dm->stride;
        w->dam += sizeof(ck_fixed_dim_arrmeta);
    } else {
        const ck_var_dim_arrmeta *dm = (const ck_var_dim_arrmeta *)(const void *)w->dam;
        p.dst_kind = CK__DIM_VAR;
        p.dst_stride = dm->stride;
        p.dst_offset = dm->offset;
        p.dst_blockref = dm->blockref;
        p.dst_elem_size = delem->data_size;
        p.dst_elem_align = delem->data_alignment;
        w->dam += sizeof(ck_var_dim_arrmeta);
    }
    w->dbits |= (uintptr_t)p.dst_stride | (uintptr_t)p.dst_offset;
    p.dim = w->dim;
    CK_RETURN_IF_ERROR(ck__make_var_dim(ckb, offset, &p, req));
    w->dt = delem;
    w->dim++;
    return CK_OK;
}

int ck__compose_build(ck_builder *ckb, size_t *offset, const ck__compose *c,
                      const ck_type *dst_tp, const char *dst_arrmeta,
                      const char *const *src_arrmeta, ck_request req, int first_dim) {
    const int ns = c->nsrc;
    ck__jit_build_starts(); /* every build enters here once: the decision is this one's */
    ck__walk w;
    w.dt = dst_tp;
    w.dam = dst_arrmeta;
    w.dbits = 0;
    w.flags = c->flags;
    w.dim = first_dim;
    w.done = 0;
    for (int k = 0; k < ns; k++) {
        w.st[k] = c->src_top[k];
        w.sam[k] = src_arrmeta[k];
        w.sbits[k] = 0;
    }
    for (;;) {
        if (w.dt->id == CK_TYPE_POINTER) {
            const ck_pointer_arrmeta *pm = (const ck_pointer_arrmeta *)(const void *)w.dam;
            CK_RETURN_IF_ERROR(ck__make_pointer_dst(ckb, offset, pm->offset, ns, req));
            w.dbits = (uintptr_t)pm->offset; /* a fresh pointer: only its offset can misalign */
            w.dt = w.dt->element;
            w.dam += sizeof(ck_pointer_arrmeta);
            req = CK_REQUEST_SINGLE;
            continue;
        }
        int ptr = -1;
        for (int k = 0; k < ns && ptr < 0; k++) {
            ptr = w.st[k]->id == CK_TYPE_POINTER ? k : -1;
        }
        if (ptr >= 0) {
            const ck_pointer_arrmeta *pm = (const ck_pointer_arrmeta *)(const void *)w.sam[ptr];
            const ck_type *target = w.st[ptr]->element;
            /* pointer[scalar] -> scalar with one source: gather targets into chunks for a
             * strided leaf. The gather copies bytes, so the target's alignment does not
             * matter to the leaf. */
            const int gather =
                ns == 1 && ck__id_is_scalar(target->id) && ck__id_is_scalar(w.dt->id);
            CK_RETURN_IF_ERROR(ck__make_pointer_src(ckb, offset, pm->offset,
                                                    gather ? target->data_size : 0, ns, ptr,
                                                    req));
            w.sbits[ptr] = gather ? 0 : (uintptr_t)pm->offset;
            if (gather) {
                w.flags &= ~CK_EVAL_SRC_UNALIGNED; /* the gather's own aligned buffer */
            }
            w.st[ptr] = target;
            w.sam[ptr] += sizeof(ck_pointer_arrmeta);
            req = gather ? CK_REQUEST_STRIDED : CK_REQUEST_SINGLE;
            continue;
        }
        const int dnd = dims_through_pointers(w.dt);
        int has[CK__MAX_SRC], any_var = w.dt->id == CK_TYPE_VAR_DIM;
        for (int k = 0; k < ns; k++) {
            CK_RETURN_IF_ERROR(source_level(c, &w, k, dnd, &has[k]));
            any_var |= has[k] && w.st[k]->id == CK_TYPE_VAR_DIM;
        }
        if (dnd == 0) {
            return c->make_leaf(c, ckb, offset, w.dt, w.st, req, w.flags, w.dbits, w.sbits);
        }
        if (!any_var) {
            CK_RETURN_IF_ERROR(make_fixed_dims(ckb, offset, c, &w, &req));
            if (w.done) {
                return CK_OK;
            }
            continue;
        }
        CK_RETURN_IF_ERROR(make_var_level(ckb, offset, c, &w, has, req));
        req = CK_REQUEST_STRIDED;
    }
}

int ck__resolve_eval_ctx(const ck_eval_ctx *ectx, ck_errmode *mode, unsigned *flags) {
    static const ck_eval_ctx defaults = CK_EVAL_CTX_INIT;
    if (ectx == NULL) {
        ectx = &defaults;
    }
    *mode = ectx->errmode == CK_ERRMODE_DEFAULT ? CK_ERRMODE_FRACTIONAL : ectx->errmode;
    if ((unsigned)*mode >= CK_NUM_ERRMODES) {
        return ck_set_error(CK_ERR_INVALID, "unknown error mode %d in the evaluation context",
                            (int)ectx->errmode);
    }
    *flags = ectx->flags & ~CK__EVAL_STREAM;
    return CK_OK;
}

int ck__make_assign_leaf(ck_builder *ckb, size_t *offset, const ck_type *dt, const ck_type *st,
                         ck_errmode mode, ck_request req, unsigned flags, uintptr_t dst_bits,
                         uintptr_t src_bits) {
    const size_t dalign = dt->data_alignment, salign = st->data_alignment;
    const int mis_dst = (flags & CK_EVAL_DST_UNALIGNED) != 0 || (dst_bits & (dalign - 1)) != 0;
    const int mis_src = (flags & CK_EVAL_SRC_UNALIGNED) != 0 || (src_bits & (salign - 1)) != 0;
    if (mis_dst || mis_src) {
        CK_RETURN_IF_ERROR(
            ck__make_unaligned(ckb, offset, dt->data_size, st->data_size, mis_dst, mis_src, req));
        req = CK_REQUEST_STRIDED;
    }
    return ck__make_scalar_leaf(ckb, offset, dt->id, st->id, mode, req);
}
