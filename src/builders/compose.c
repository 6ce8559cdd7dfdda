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
 *   fields <- fields   tuples and structs: the fields kernel, one child per field (matched
 *                      by name or position), each the walk again over that field's types;
 *                      runs of fields with the same layout on both sides are one byte copy
 *   any side option    the option kernel (is_na, the value kernel, assign_na)
 *   any side text      the text cast leaf (assignments; datetimes' text too), a text call's
 *                      leaf (calls)
 *   scalar <- scalars  the maker's leaf (c->make_leaf). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ckernel/arrmeta.h"
#include "builders/compose.h"
#include "common/internal.h"
#include "common/strbuf.h"
#include "signatures/signature.h"
#include "targets/cpu_internal.h"
#include "jit/jit_internal.h"
#include "core/kinds.h"
/* The type struct itself: the walk reads its fields directly (it runs on every build). */
#include "values/datetime.h"
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
    char ds[CK__TYPE_SHOWN_CAP], ss[CK__TYPE_SHOWN_CAP], who[CK__TYPE_SHOWN_CAP + 32];
    ck__type_text_shown(c->dst_top, ds);
    ck__type_text_shown(c->src_top[k], ss);
    operand_name(c, k, ss, who, sizeof who);
    if (extra_dims > 0) {
        return ck_set_error(CK_ERR_BROADCAST,
                            "cannot assign %s into destination %s: the %s has %d more "
                            "dimension%s than the destination can hold",
                            who, ds, c->nsrc == 1 ? "source" : "argument", extra_dims,
                            extra_dims == 1 ? "" : "s");
    }
    return ck_set_error(CK_ERR_BROADCAST,
                        "cannot broadcast %s into destination %s: dimension %d has size "
                        "%td in the %s and %td in the destination",
                        who, ds, dim, src_size, c->nsrc == 1 ? "source" : "argument", dst_size);
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

int ck__dims_through_pointers(const ck_type *t) {
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

/* The dimensions of operand k (-1: the destination) the walk lifts over: all but the core
 * dimensions a call's leaf takes whole. */
static int walk_dims(const ck__compose *c, int k, const ck_type *t) {
    const int n = ck__dims_through_pointers(t);
    return c->core != NULL ? n - c->core[k + 1] : n;
}

/* One fixed destination level: its size and the strides of every operand. */
typedef struct ck__fixed_level {
    intptr_t size, dst_stride;
    intptr_t src_stride[CK__MAX_SRC];
} ck__fixed_level;

/* Has source k a dimension at the destination's level (dnd dims left)? Checks the rank. */
static int source_level(const ck__compose *c, const ck__walk *w, int k, int dnd, int *has_dim) {
    const int snd = walk_dims(c, k, w->st[k]);
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
    if (c->jit_why_not != NULL) {
        return ck__jit_decline(w->flags, c->jit_why_not);
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
    if (c->jit_op == CK__JIT_OP_NATIVE && c->jit_chunk != NULL) {
        /* A vector-math call runs in chunks (ck__jit_node.vector_fn): as the program of
         * its loads and the call. */
        nest.op = CK__JIT_OP_EXPR;
        nest.native_fn = NULL;
        nest.nnodes = c->nsrc + 1;
        ck__jit_node *call = &nest.node[c->nsrc];
        call->op = CK__JIT_OP_NATIVE;
        call->type = nest.op_id;
        call->nargs = c->nsrc;
        call->native_fn = c->jit_fn;
        call->vector_fn = c->jit_chunk;
        for (int k = 0; k < c->nsrc; k++) {
            nest.node[k].op = CK__JIT_OP_LOAD;
            nest.node[k].type = nest.arg_id[k];
            nest.node[k].nargs = 1;
            nest.node[k].arg[0] = k;
            call->arg[k] = k;
            call->param_id[k] = nest.param_id[k];
        }
    }
    /* An expression streams its destination, as its composed leaf would (expr_kernel.c);
     * a call or an assignment compiled keeps the elements before a failing one written. */
    if (c->jit_op == CK__JIT_OP_EXPR && (w->flags & CK__EVAL_STREAM) != 0) {
        ck__stream_copy_fn copy = NULL;
        CK__RETURN_IF_ERROR(ck__streaming_copy_loop(&copy));
        memcpy(&nest.stream_copy, &copy, sizeof copy);
    }
    if (c->jit_op == CK__JIT_OP_EXPR) {
        nest.nnodes = c->jit_nnodes;
        memcpy(nest.node, c->jit_nodes, (size_t)c->jit_nnodes * sizeof nest.node[0]);
    }
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
    const ck_errmode mode = ck__conversion_can_fail(kind, c->mode) ? c->mode : CK_ERRMODE_NOCHECK;
    if (c->jit_op == CK__JIT_OP_EXPR && mode != CK_ERRMODE_NOCHECK) {
        /* Its failure's message names the root's column, which only the expr leaf adds. */
        char why[160];
        snprintf(why, sizeof why, "the result's cast %s -> %s can fail in mode %s",
                 ck_type_id_name((ck_type_id)nest.op_id), ck_type_id_name((ck_type_id)nest.dst_id),
                 ck_errmode_name(mode));
        return ck__jit_decline(w->flags, why);
    }
    nest.mode = (int32_t)mode;
    CK__RETURN_IF_ERROR(ck__scalar_leaf_single((ck_type_id)nest.dst_id, (ck_type_id)nest.op_id,
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
        const int dnd = walk_dims(c, -1, w->dt);
        if (dnd == 0) {
            break; /* a core dimension */
        }
        int has[CK__MAX_SRC], stop = 0;
        for (int k = 0; k < ns; k++) {
            if (w->st[k]->id == CK_TYPE_POINTER) {
                stop = 1;
                break;
            }
            CK__RETURN_IF_ERROR(source_level(c, w, k, dnd, &has[k]));
            if (has[k] && w->st[k]->id != CK_TYPE_FIXED_DIM) {
                stop = 1; /* a var source level: var_dim's business */
                break;
            }
        }
        if (stop) {
            break;
        }
        const ck_fixed_dim_arrmeta *dm = (const ck_fixed_dim_arrmeta *)(const void *)w->dam;
        CK__RETURN_IF_ERROR(check_fixed_arrmeta(w->dt, dm, "destination"));
        ck__fixed_level *l = &lv[n];
        l->size = dm->dim_size;
        l->dst_stride = dm->stride;
        for (int k = 0; k < ns; k++) {
            l->src_stride[k] = 0;
            if (!has[k]) {
                continue;
            }
            const ck_fixed_dim_arrmeta *sm = (const ck_fixed_dim_arrmeta *)(const void *)w->sam[k];
            CK__RETURN_IF_ERROR(check_fixed_arrmeta(w->st[k], sm, ns == 1 ? "source" : "argument"));
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
     * to one), nor over values whose errors name the row or element by the index of each
     * enclosing dimension (text: a merged loop would give one flat index). has_blockref says
     * "a var, a pointer or a string inside". */
    int coalesce = !w->dt->has_blockref &&
                   !ck__leaf_family_has(w->dt->id, CK__FAMILY_NAMES_EACH_INDEX);
    for (int k = 0; k < ns; k++) {
        coalesce &= !w->st[k]->has_blockref &&
                    !ck__leaf_family_has(w->st[k]->id, CK__FAMILY_NAMES_EACH_INDEX);
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
    /* A record assigned to a record: when the two are bit-identical, one copy_bytes leaf,
     * which streams a contiguous run (make_fields_level; the fields of other records never
     * see the flag). */
    const int records = ns == 1 && c->assign && ck__is_fields(w->dt->id) &&
                        ck__is_fields(w->st[0]->id);
    /* Streaming stores when the whole destination is above the threshold: by the tiled
     * kernel itself, else by the streaming kernel over the leaf when the leaf writes the
     * destination contiguously (compose.h: CK__EVAL_STREAM). */
    int big = 0;
    if ((scalars || records) && (ns == 1 || c->may_stream) && n > 0) {
        uint64_t bytes = (uint64_t)w->dt->data_size * (c->outer_rows != 0 ? c->outer_rows : 1);
        for (int i = 0; i < n; i++) {
            if (__builtin_mul_overflow(bytes, (uint64_t)lv[i].size, &bytes)) {
                bytes = UINT64_MAX;
            }
        }
        big = bytes >= (uint64_t)ck__streaming_min_bytes();
    }
    /* A call's leaf streams through the kernel's buffer, which outruns the prefetcher on a
     * strided source: its sources must be dense or broadcast along the run. */
    int dense = 1;
    for (int k = 0; big && c->may_stream == CK__MAY_STREAM_DENSE && k < ns; k++) {
        dense &= lv[n - 1].src_stride[k] == 0 ||
                 lv[n - 1].src_stride[k] == (intptr_t)w->st[k]->data_size;
    }
    if (big && !tiled && c->may_stream && dense &&
        lv[n - 1].dst_stride == (intptr_t)w->dt->data_size &&
        ck__streaming_supported(records ? 1 : w->dt->data_size)) {
        w->flags |= CK__EVAL_STREAM;
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
    const int plain = tiled ? n - 2 : n;
    for (int i = 0; i < plain; i++) {
        CK__RETURN_IF_ERROR(ck__make_strided_dim(ckb, offset, lv[i].size, lv[i].dst_stride, ns,
                                                lv[i].src_stride, *req));
        *req = CK_REQUEST_STRIDED;
    }
    if (tiled) {
        const intptr_t size[2] = {lv[n - 2].size, lv[n - 1].size};
        const intptr_t ds[2] = {lv[n - 2].dst_stride, lv[n - 1].dst_stride};
        const intptr_t ss[2] = {lv[n - 2].src_stride[0], lv[n - 1].src_stride[0]};
        CK__RETURN_IF_ERROR(
            ck__make_tiled_2d(ckb, offset, size, ds, ss, w->dt->id, w->dt->data_size,
                              w->st[0]->id, w->st[0]->data_size, c->assign, big, *req));
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
            CK__RETURN_IF_ERROR(check_fixed_arrmeta(w->st[k], sm, ns == 1 ? "source" : "argument"));
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
    p.dst_elem_before = 0;
    if (w->dt->id == CK_TYPE_FIXED_DIM) {
        const ck_fixed_dim_arrmeta *dm = (const ck_fixed_dim_arrmeta *)(const void *)w->dam;
        CK__RETURN_IF_ERROR(check_fixed_arrmeta(w->dt, dm, "destination"));
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
        w->dam += sizeof(ck_var_dim_arrmeta);
        /* A row allocated here must hold what the element's arrmeta reaches (a host's
         * padded strides or field offsets may reach past its data size). */
        intptr_t lo, hi;
        ck__arrmeta_extent(delem, w->dam, &lo, &hi);
        p.dst_elem_before = lo < 0;
        p.dst_elem_size = hi > 0 ? (size_t)hi : 0;
        p.dst_elem_align = delem->data_alignment;
    }
    w->dbits |= (uintptr_t)p.dst_stride | (uintptr_t)p.dst_offset;
    p.dim = w->dim;
    CK__RETURN_IF_ERROR(ck__make_var_dim(ckb, offset, &p, req));
    w->dt = delem;
    w->dim++;
    return CK_OK;
}

static int compose_walk(ck_builder *ckb, size_t *offset, const ck__compose *c, ck__walk *w,
                        ck_request req);

/* ---- tuples and structs ---- */

/* "cannot assign <src> into <dst> by name: ..." with both types as messages show them
 * (ck__type_text_shown), so that a wide struct's leaves the message room to say what is
 * wrong. */
static int fields_error(const ck_type *dt, const ck_type *st, const char *how, const char *why) {
    char ds[CK__TYPE_SHOWN_CAP], ss[CK__TYPE_SHOWN_CAP];
    ck__type_text_shown(dt, ds);
    ck__type_text_shown(st, ss);
    return ck_set_error(CK_ERR_TYPE, "cannot assign %s into %s%s: %s", ss, ds, how, why);
}

/* Matches destination fields to source fields: by name, or by position. match[i] is the
 * source field of destination field i. Names are unique within a struct, so fields in the
 * same order match in one pass, and when every destination field is found in a source with
 * as many fields, the source has none left over. */
static int match_fields(const ck_type *dt, const ck_type *st, unsigned flags, size_t *match) {
    const int by_name = dt->id == CK_TYPE_STRUCT && st->id == CK_TYPE_STRUCT &&
                        (flags & CK_EVAL_FIELDS_BY_POSITION) == 0;
    if (!by_name) {
        if (dt->nfields != st->nfields) {
            char why[96];
            snprintf(why, sizeof why, "%zu field%s into %zu", st->nfields,
                     st->nfields == 1 ? "" : "s", dt->nfields);
            return fields_error(dt, st, " by position", why);
        }
        for (size_t i = 0; i < dt->nfields; i++) {
            match[i] = i;
        }
        return CK_OK;
    }
    ck__strbuf missing = CK__STRBUF_INIT, extra = CK__STRBUF_INIT;
    size_t nmissing = 0, nextra = 0;
    for (size_t i = 0; i < dt->nfields; i++) {
        const intptr_t j = ck__type_field_index_at(st, dt->names[i], i);
        if (j < 0) {
            ck__strbuf_puts(&missing, nmissing++ > 0 ? ", " : "");
            ck__format_field_name(dt->names[i], &missing);
        }
        match[i] = (size_t)j;
    }
    for (size_t j = 0; (nmissing > 0 || st->nfields != dt->nfields) && j < st->nfields; j++) {
        if (ck_type_field_index(dt, st->names[j]) < 0) {
            ck__strbuf_puts(&extra, nextra++ > 0 ? ", " : "");
            ck__format_field_name(st->names[j], &extra);
        }
    }
    int rc = CK_OK;
    if (nmissing + nextra > 0) {
        ck__strbuf why = CK__STRBUF_INIT;
        if (nmissing > 0) {
            ck__strbuf_printf(&why, "the source has no field%s %s", nmissing == 1 ? "" : "s",
                              missing.s);
        }
        if (nextra > 0) {
            ck__strbuf_printf(&why, "%sthe destination has no field%s %s",
                              nmissing > 0 ? "; " : "", nextra == 1 ? "" : "s", extra.s);
        }
        rc = missing.status != CK_OK || extra.status != CK_OK || why.status != CK_OK
                 ? ck__nomem_error("out of memory describing mismatched fields")
                 : fields_error(dt, st, " by name (CK_EVAL_FIELDS_BY_POSITION matches by position)",
                                why.s);
        ck__strbuf_free(&why);
    }
    ck__strbuf_free(&missing);
    ck__strbuf_free(&extra);
    return rc;
}

/* 1 when arrmeta is t's default (C order), so a value of t is the bytes [0, data_size) laid
 * out as t's own C layout. Types with memory blocks never are (their data holds pointers). */
static int dense_arrmeta(const ck_type *t, const char *arrmeta) {
    if (t->has_blockref) {
        return 0;
    }
    if (t->arrmeta_size == 0) {
        return 1;
    }
    _Alignas(16) char def[512];
    if (t->arrmeta_size > sizeof def) {
        return 0;
    }
    ck_arrmeta_default_construct(t, def, NULL);
    return memcmp(def, arrmeta, t->arrmeta_size) == 0;
}

/* The bytes a value of t under dense arrmeta reaches from its start: its data without a
 * record's tail padding, which a row allocated for the destination need not hold (design.md
 * §7: the fields at their offsets, padding after the last field not included). */
static size_t dense_reach(const ck_type *t, const char *arrmeta) {
    intptr_t lo = 0, hi = 0;
    ck__arrmeta_extent(t, arrmeta, &lo, &hi);
    return hi > 0 ? (size_t)hi : 0;
}

/* The bytes fields first..last of dt (a run: dense arrmeta) reach from field first's start:
 * the furthest of their reaches. An empty field (`0 * int8`, `{}`) reaches nothing wherever
 * its offset is, so a run ending in one stops at the field before it: a row allocated for
 * the destination ends there (§7; the composition fuzzer found the copy running past it). */
static size_t run_reach(const ck_type *dt, const char *dam, const intptr_t *doff, size_t first,
                        size_t last) {
    size_t span = 0;
    for (size_t k = first; k <= last; k++) {
        const size_t reach = dense_reach(dt->fields[k], dam + dt->arrmeta_offsets[k]);
        const size_t end = (size_t)(doff[k] - doff[first]) + reach;
        if (reach > 0 && end > span) {
            span = end;
        }
    }
    return span;
}

/* Fetches what the runs and the children read of the source field paired with destination
 * field i (if any): fields paired by name in another order are read at random, and a wide
 * struct's build waits on those misses (65536 fields in shuffled order, fetched 16 fields
 * ahead: the best of 40 builds 29 ms without, 22 with). */
static inline void prefetch_source_field(const ck_type *st, const intptr_t *soff,
                                         const size_t *match, size_t i, size_t n) {
#if defined(__GNUC__) || defined(__clang__)
    if (i < n) {
        __builtin_prefetch(&st->fields[match[i]]);
        __builtin_prefetch(&st->arrmeta_offsets[match[i]]);
        __builtin_prefetch(&soff[match[i]]);
    }
#else
    (void)st, (void)soff, (void)match, (void)i, (void)n;
#endif
}

/* The fields kernel for tuple/struct <- tuple/struct: pairs the fields, puts runs of fields
 * with the same layout on both sides into one byte copy each, and builds every other field
 * by walking its two types. A whole value that is bit-identical on both sides is one
 * copy_bytes leaf, with no fields kernel above it. */
static int make_fields_level(ck_builder *ckb, size_t *offset, const ck__compose *c,
                             const ck__walk *w, ck_request req) {
    const ck_type *dt = w->dt, *st = w->st[0];
    if (c->nsrc != 1) {
        return ck_set_error(CK_ERR_TYPE, "a call takes scalar arguments, not %s values",
                            ck_type_id_name(ck__is_fields(dt->id) ? dt->id : st->id));
    }
    if (!ck__is_fields(dt->id) || !ck__is_fields(st->id)) {
        return fields_error(dt, st, "",
                            ck__is_fields(dt->id) ? "a tuple or struct takes a tuple or struct"
                                                  : "only a tuple or struct assigns to one");
    }
    const size_t n = dt->nfields;
    size_t *match = NULL, *run = NULL;
    if (n > 0) {
        match = (size_t *)ck__malloc(2 * n * sizeof *match);
        if (match == NULL) {
            return ck__nomem_error("out of memory pairing %zu fields", n);
        }
        run = match + n;
    }
    int rc = match_fields(dt, st, w->flags, match);
    if (rc != CK_OK) {
        ck__free(match);
        return rc;
    }
    /* Runs: run[i] = fields from i on (in destination order) copied as one span. */
    const intptr_t *doff = (const intptr_t *)(const void *)w->dam;
    const intptr_t *soff = (const intptr_t *)(const void *)w->sam[0];
    int ordered = 1;
    for (size_t i = 1; i < n; i++) {
        ordered &= doff[i] >= doff[i - 1] + (intptr_t)dt->fields[i - 1]->data_size;
    }
    size_t nentries = 0, name_bytes = 0;
    for (size_t i = 0; i < n;) {
        size_t len = 0;
        while (ordered && i + len < n) {
            const size_t k = i + len, j = match[k];
            prefetch_source_field(st, soff, match, k + 16, n);
            const ck_type *df = dt->fields[k], *sf = st->fields[j];
            const int same = ck_type_equal(df, sf) &&
                             dense_arrmeta(df, w->dam + dt->arrmeta_offsets[k]) &&
                             dense_arrmeta(sf, w->sam[0] + st->arrmeta_offsets[j]) &&
                             soff[j] - soff[match[i]] == doff[k] - doff[i];
            if (!same) {
                break;
            }
            len++;
        }
        run[i] = len;
        if (len <= 1 && dt->names != NULL) {
            name_bytes += strlen(dt->names[i]) + 1;
        }
        nentries++;
        i += len > 0 ? len : 1;
    }
    if (n > 0 && run[0] == n && doff[0] == 0 && soff[match[0]] == 0) {
        /* Bit-identical: the span of the fields, as bytes. */
        const size_t span = run_reach(dt, w->dam, doff, 0, n - 1);
        ck__free(match);
        return ck__make_copy_bytes(ckb, offset, span, (w->flags & CK__EVAL_STREAM) != 0, req);
    }
    size_t at = *offset;
    rc = ck__make_fields(ckb, offset, nentries, name_bytes, req);
    ck__compose sub = *c;
    sub.may_stream = 0; /* a field's run is not the whole destination */
    size_t e = 0, name_at = 0;
    for (size_t i = 0; rc == CK_OK && i < n; e++) {
        const size_t j = match[i];
        ck__field_spec spec;
        spec.dst_offset = doff[i];
        spec.src_offset = soff[j];
        spec.dst_index = i;
        spec.run = run[i] > 1 ? run[i] : 1;
        spec.name = run[i] <= 1 && dt->names != NULL ? dt->names[i] : NULL;
        *offset = CK_ALIGN_OFFSET(*offset);
        rc = ck__fields_set_entry(ckb, at, e, &spec, name_at, *offset);
        if (rc != CK_OK) {
            break;
        }
        if (spec.name != NULL) {
            name_at += strlen(spec.name) + 1;
        }
        if (run[i] > 0) {
            const size_t span = run_reach(dt, w->dam, doff, i, i + run[i] - 1);
            rc = ck__make_copy_bytes(ckb, offset, span, 0, req);
            i += run[i];
            continue;
        }
        ck__walk fw;
        fw.dt = dt->fields[i];
        fw.dam = w->dam + dt->arrmeta_offsets[i];
        fw.dbits = w->dbits | (uintptr_t)doff[i];
        fw.flags = w->flags & ~CK__EVAL_STREAM; /* a field is not the whole destination */
        fw.dim = w->dim;
        fw.done = 0;
        fw.st[0] = st->fields[j];
        fw.sam[0] = w->sam[0] + st->arrmeta_offsets[j];
        fw.sbits[0] = w->sbits[0] | (uintptr_t)soff[j];
        rc = compose_walk(ckb, offset, &sub, &fw, req);
        i++;
    }
    ck__free(match);
    return rc;
}

/* ---- options ---- */

/* The option kernel when the destination or a source is an option: NA rows become the
 * destination's NA (or CK_ERR_NA), the others run the value kernel the maker builds for the
 * value types. An option assigned to an option of the same type (or a T to ?T) is a copy. */
static int make_arrmeta_leaf(ck_builder *ckb, size_t *offset, const ck__compose *c,
                             const ck__walk *w, ck_request req);

/* A type an option's value or a source beside one may be: a value of a leaf family. */
static int option_value_ok(const ck_type *t, int dst) {
    if (ck__leaf_family_of(t->id) != NULL) {
        return CK_OK;
    }
    char *ts = NULL;
    const int have = ck_type_format(t, &ts) == CK_OK;
    const char *name = have ? ts : ck_type_id_name(t->id);
    const int rc = dst ? ck_set_error(CK_ERR_TYPE, "cannot assign an option into %s", name)
                       : ck_set_error(CK_ERR_TYPE, "cannot assign %s into an option", name);
    ck_free(ts);
    return rc;
}

static int make_option_level(ck_builder *ckb, size_t *offset, const ck__compose *c,
                             const ck__walk *w, ck_request req) {
    const ck_type *dval = w->dt->id == CK_TYPE_OPTION ? w->dt->element : w->dt;
    const ck_type *sval[CK__MAX_SRC];
    ck__option_spec spec;
    memset(&spec, 0, sizeof spec);
    CK__RETURN_IF_ERROR(option_value_ok(dval, 1));
    /* The option kernel knows the NA of scalars: a datetime's, NaT, is int64's; text's is
     * every byte 0xff of the element's size. */
    spec.dst_id = ck__leaf_family_has(dval->id, CK__FAMILY_NA_OF_INT64) ? CK_TYPE_INT64 : dval->id;
    spec.dst_size = dval->data_size;
    spec.dst_option = w->dt->id == CK_TYPE_OPTION;
    spec.nsrc = c->nsrc;
    int arrmeta = ck__leaf_family_has(dval->id, CK__FAMILY_READS_ARRMETA);
    for (int k = 0; k < c->nsrc; k++) {
        const ck_type *t = w->st[k];
        spec.src_option[k] = t->id == CK_TYPE_OPTION;
        sval[k] = spec.src_option[k] ? t->element : t;
        CK__RETURN_IF_ERROR(option_value_ok(sval[k], 0));
        spec.src_id[k] =
            ck__leaf_family_has(sval[k]->id, CK__FAMILY_NA_OF_INT64) ? CK_TYPE_INT64 : sval[k]->id;
        spec.src_size[k] = sval[k]->data_size;
        arrmeta |= ck__leaf_family_has(sval[k]->id, CK__FAMILY_READS_ARRMETA);
    }
    /* Text values are never copied as they are: a string's NA slot points nowhere. */
    if (c->assign && spec.dst_option && sval[0]->id == dval->id && !arrmeta) {
        return c->make_leaf(c, ckb, offset, dval, sval, req, w->flags, w->dbits, w->sbits);
    }
    /* A call's leaf may compute any value; a cast only some (its family says which: a
     * checked datetime cast never gives NaT from a value, it is out of range). A text
     * destination checks in its leaf. A float's check writes NaN for the NA's bits
     * (na_canon.c) instead of refusing them. */
    const int leaf_refuses = ck__leaf_family_has(dval->id, CK__FAMILY_LEAF_REFUSES_NA);
    const ck__leaf_family *pair = ck__leaf_family_of_pair(dval->id, sval[0]->id);
    spec.check = c->mode != CK_ERRMODE_NOCHECK && spec.dst_option && !leaf_refuses &&
                 (!c->assign || (pair != NULL && pair->cast_can_give_na != NULL &&
                                 pair->cast_can_give_na(dval->id, sval[0]->id)));
    size_t at;
    CK__RETURN_IF_ERROR(ck__make_option(ckb, offset, &spec, req, &at));
    /* With the check the values go through the kernel's aligned buffer first. */
    const unsigned flags = spec.check ? w->flags & ~(unsigned)CK_EVAL_DST_UNALIGNED : w->flags;
    if (arrmeta) {
        ck__walk v = *w; /* an option's arrmeta is its value's */
        v.dt = dval;
        for (int k = 0; k < c->nsrc; k++) {
            v.st[k] = sval[k];
        }
        v.flags = flags;
        if (spec.dst_option && leaf_refuses && c->mode != CK_ERRMODE_NOCHECK) {
            v.flags |= CK__EVAL_REFUSE_NA;
        }
        v.dbits = spec.check ? 0 : w->dbits;
        return make_arrmeta_leaf(ckb, offset, c, &v, CK_REQUEST_STRIDED);
    }
    return c->make_leaf(c, ckb, offset, dval, sval, CK_REQUEST_STRIDED, flags,
                        spec.check ? 0 : w->dbits, w->sbits);
}

/* ---- values whose leaves read arrmeta ---- */

/* The leaf where a family of an operand reads the arrmeta (text: a string's arena): a call's
 * own (c->make_text_leaf), or the cast of the pair's family in an assignment. */
static int make_arrmeta_leaf(ck_builder *ckb, size_t *offset, const ck__compose *c,
                             const ck__walk *w, ck_request req) {
    const ck_type *dt = w->dt, *st = w->st[0];
    if (!c->assign && c->make_text_leaf != NULL) {
        return c->make_text_leaf(c, ckb, offset, dt, w->dam, w->st, w->sam, req, w->flags,
                                 w->dbits, w->sbits);
    }
    if (!c->assign) {
        const int d = ck__leaf_family_has(dt->id, CK__FAMILY_READS_ARRMETA);
        return ck_set_error(CK_ERR_TYPE, "a call takes numbers, not %s values",
                            ck_type_id_name(d ? dt->id : st->id));
    }
    const ck__leaf_family *f = ck__leaf_family_of_pair(dt->id, st->id);
    const ck__cast_operands ops = {dt, st, w->dam, w->sam[0], c->mode,
                                   (w->flags & CK__EVAL_REFUSE_NA) != 0};
    return f->make_cast(ckb, offset, &ops, req);
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
    return compose_walk(ckb, offset, c, &w, req);
}

/* The walk from w's place down to the leaves (a field of a struct walks again from its own
 * types: the recursion is bounded by CK_TYPE_MAX_DEPTH). */
static int compose_walk(ck_builder *ckb, size_t *offset, const ck__compose *c, ck__walk *w,
                        ck_request req) {
    const int ns = c->nsrc;
    for (;;) {
        if (w->dt->id == CK_TYPE_POINTER) {
            const ck_pointer_arrmeta *pm = (const ck_pointer_arrmeta *)(const void *)w->dam;
            CK__RETURN_IF_ERROR(ck__make_pointer_dst(ckb, offset, pm->offset, ns, req));
            w->dbits = (uintptr_t)pm->offset; /* a fresh pointer: only its offset can misalign */
            w->dt = w->dt->element;
            w->dam += sizeof(ck_pointer_arrmeta);
            req = CK_REQUEST_SINGLE;
            continue;
        }
        int ptr = -1;
        for (int k = 0; k < ns && ptr < 0; k++) {
            ptr = w->st[k]->id == CK_TYPE_POINTER ? k : -1;
        }
        if (ptr >= 0) {
            const ck_pointer_arrmeta *pm = (const ck_pointer_arrmeta *)(const void *)w->sam[ptr];
            const ck_type *target = w->st[ptr]->element;
            /* pointer[scalar] -> scalar with one source: gather targets into chunks for a
             * strided leaf. The gather copies bytes, so the target's alignment does not
             * matter to the leaf. */
            const int gather =
                ns == 1 && ck__id_is_scalar(target->id) && ck__id_is_scalar(w->dt->id);
            /* An assignment of the target's own type copies: no leaf, unless the destination
             * streams (the streaming kernel goes over a leaf). */
            if (gather && c->assign && target->id == w->dt->id &&
                (w->flags & CK__EVAL_STREAM) == 0) {
                return ck__make_pointer_gather_copy(ckb, offset, pm->offset, target->data_size,
                                                    req);
            }
            CK__RETURN_IF_ERROR(ck__make_pointer_src(ckb, offset, pm->offset,
                                                    gather ? target->data_size : 0, ns, ptr,
                                                    req));
            w->sbits[ptr] = gather ? 0 : (uintptr_t)pm->offset;
            if (gather) {
                w->flags &= ~CK_EVAL_SRC_UNALIGNED; /* the gather's own aligned buffer */
            }
            w->st[ptr] = target;
            w->sam[ptr] += sizeof(ck_pointer_arrmeta);
            req = gather ? CK_REQUEST_STRIDED : CK_REQUEST_SINGLE;
            continue;
        }
        const int dnd = walk_dims(c, -1, w->dt);
        int has[CK__MAX_SRC], any_var = w->dt->id == CK_TYPE_VAR_DIM;
        for (int k = 0; k < ns; k++) {
            CK__RETURN_IF_ERROR(source_level(c, w, k, dnd, &has[k]));
            any_var |= has[k] && w->st[k]->id == CK_TYPE_VAR_DIM;
        }
        if (dnd == 0 && c->core != NULL) {
            return c->make_core_leaf(c, ckb, offset, w->dt, w->dam, w->st, w->sam, req,
                                     w->flags, w->dbits, w->sbits);
        }
        if (dnd == 0 && c->leaf_writes_tuple && ck__is_fields(w->dt->id)) {
            if (!dense_arrmeta(w->dt, w->dam)) {
                return ck_set_error(CK_ERR_TYPE, "a call's two results are written as one C "
                                                 "struct: the destination tuple's fields must "
                                                 "be at their default offsets");
            }
            return c->make_leaf(c, ckb, offset, w->dt, w->st, req, w->flags, w->dbits, w->sbits);
        }
        if (dnd == 0) {
            int fields = ck__is_fields(w->dt->id), option = w->dt->id == CK_TYPE_OPTION;
            int arrmeta = ck__leaf_family_has(w->dt->id, CK__FAMILY_READS_ARRMETA);
            for (int k = 0; k < ns; k++) {
                fields |= ck__is_fields(w->st[k]->id);
                option |= w->st[k]->id == CK_TYPE_OPTION;
                arrmeta |= ck__leaf_family_has(w->st[k]->id, CK__FAMILY_READS_ARRMETA);
            }
            if (fields) {
                return make_fields_level(ckb, offset, c, w, req);
            }
            if (option) {
                return make_option_level(ckb, offset, c, w, req);
            }
            if (arrmeta) {
                return make_arrmeta_leaf(ckb, offset, c, w, req);
            }
            return c->make_leaf(c, ckb, offset, w->dt, w->st, req, w->flags, w->dbits, w->sbits);
        }
        if (!any_var) {
            CK__RETURN_IF_ERROR(make_fixed_dims(ckb, offset, c, w, &req));
            if (w->done) {
                return CK_OK;
            }
            continue;
        }
        CK__RETURN_IF_ERROR(make_var_level(ckb, offset, c, w, has, req));
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
        /* A destination the walk streams (CK__EVAL_STREAM) is streamed by this kernel when it
         * is the one that buffers it. */
        const int stream = (flags & CK__EVAL_STREAM) != 0 && mis_dst;
        CK__RETURN_IF_ERROR(ck__make_unaligned(ckb, offset, dt->data_size, st->data_size, mis_dst,
                                              mis_src, stream, req));
        req = CK_REQUEST_STRIDED;
    }
    const ck__leaf_family *f = ck__leaf_family_of_pair(dt->id, st->id);
    if (f == NULL) {
        return ck_set_error(CK_ERR_INTERNAL, "no leaf family casts ids %d <- %d", (int)dt->id,
                            (int)st->id);
    }
    const ck__cast_operands ops = {dt, st, NULL, NULL, mode, 0};
    return f->make_cast(ckb, offset, &ops, req);
}
