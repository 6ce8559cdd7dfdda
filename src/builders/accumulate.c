/* src/builders/accumulate.c: the accumulation walk (cumsum, cumprod, cummin, cummax, a
 * binary callable's accumulation: ck__accumulate_build), a sibling of the reduction walk
 * (reduce.c) whose pieces it shares (reduce_internal.h). The destination has the source's
 * shape, and the kernels nest:
 *
 *   dimensions above the accumulated one         strided_dim or var_dim (as in an
 *                                                assignment)
 *   the accumulated dimension (fixed, or var)    accumulate_dim, with children:
 *     innermost: the row cast into the destination (options, or elements of another type or
 *                misaligned), then scanned there in place by the scan leaf (under
 *                option_scan for options);
 *     else, each element a block of the fixed dimensions below: the first cast into the
 *           destination, each next one a copy of the one before folded with the source's
 *           block, as a reduction folds (the fold child, reduce.c). */
#include <stdio.h>
#include <string.h>

#include "ckernel/arrmeta.h"
#include "ckernel/assign.h"
#include "builders/compose.h"
#include "builders/reduce.h"
#include "builders/reduce_internal.h"
#include "common/internal.h"
#include "targets/cpu_internal.h"
#include "core/kinds.h"
#include "types/type_internal.h"

/* The source's dimensions with the destination's, which has the same shape: fixed where the
 * source is fixed (the same size), var where it is var. */
static int collect_same_levels(const ck__reduce_plan *p, const ck_type *dst_tp, const char *dam,
                               const ck_type *src_tp, const char *sam, ck__rlevel *lv, int *n,
                               const ck_type **dt_out, const ck_type **st_out, uintptr_t *dbits,
                               uintptr_t *sbits, int *dst_option) {
    const ck_type *dt = dst_tp, *st = src_tp;
    int d = 0;
    *dbits = 0;
    *sbits = 0;
    for (; st->id == CK_TYPE_FIXED_DIM || st->id == CK_TYPE_VAR_DIM || st->id == CK_TYPE_POINTER;
         d++) {
        if (st->id == CK_TYPE_POINTER) {
            return ck__reduce_shape_error(p, dst_tp, src_tp, CK_ERR_UNSUPPORTED,
                                          "accumulations do not read through pointers yet");
        }
        if (dt->id != st->id) {
            return ck__reduce_shape_error(
                p, dst_tp, src_tp, CK_ERR_BROADCAST,
                "an accumulation's destination has the source's shape, var "
                "dimensions where it has them");
        }
        ck__rlevel *l = &lv[d];
        CK__RETURN_IF_ERROR(ck__reduce_source_level(p, d, st, &sam, l, sbits));
        if (st->id == CK_TYPE_FIXED_DIM) {
            CK__RETURN_IF_ERROR(ck__reduce_check_fixed(dt, dam, "destination"));
            const ck_fixed_dim_arrmeta *dm = (const ck_fixed_dim_arrmeta *)(const void *)dam;
            if (l->size != dm->dim_size) {
                char why[128];
                snprintf(why, sizeof why, "dimension %d has size %td in the destination and %td "
                         "in the source", l->dim, dm->dim_size, l->size);
                return ck__reduce_shape_error(p, dst_tp, src_tp, CK_ERR_BROADCAST, why);
            }
            l->dkind = CK__DIM_FIXED;
            l->dsize = l->size;
            l->dstride = dm->stride;
            dam += sizeof(ck_fixed_dim_arrmeta);
        } else {
            dam = ck__reduce_var_destination(l, dt, dam, dbits);
        }
        *dbits |= (uintptr_t)l->dstride;
        st = st->element;
        dt = dt->element;
    }
    if (!ck__id_is_scalar(dt->id) && dt->id != CK_TYPE_OPTION) {
        return ck__reduce_shape_error(p, dst_tp, src_tp, CK_ERR_BROADCAST,
                                      "the destination has more dimensions than the source");
    }
    /* ?T accumulates into ?A (the scalar returned is A; the source's stays ?T); a plain
     * source into ?A folds as plain A: a result of the NA's bits reads as NA, as assigning
     * it would. */
    if (st->id == CK_TYPE_OPTION && dt->id != CK_TYPE_OPTION) {
        return ck__reduce_shape_error(p, dst_tp, src_tp, CK_ERR_TYPE,
                                      "an accumulation of options needs an option destination");
    }
    *dst_option = dt->id == CK_TYPE_OPTION;
    if (dt->id == CK_TYPE_OPTION && st->id != CK_TYPE_OPTION) {
        dt = dt->element;
    }
    if (!ck__id_is_scalar(st->id) &&
        !(st->id == CK_TYPE_OPTION && ck__id_is_scalar(st->element->id))) {
        return ck__reduce_shape_error(
            p, dst_tp, src_tp, CK_ERR_TYPE,
            "only scalars (under dimensions) accumulate, not tuples or structs");
    }
    *n = d;
    *dt_out = dt;
    *st_out = st;
    return CK_OK;
}

/* dst <- src over the fixed levels from `from` on, elements cast from st to A (a copy when
 * st is A): the first element of an accumulation, or (src the destination) a copy of the
 * previous one. */
static int build_block_cast(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                            const ck__rlevel *lv, int from, int n, const ck_type *st,
                            int from_dst, uintptr_t sbits) {
    for (int i = from; i < n; i++) {
        CK__RETURN_IF_ERROR(ck__make_strided_dim(ckb, offset, lv[i].size, lv[i].dstride, 1,
                                                from_dst ? &lv[i].dstride : &lv[i].sstride,
                                                CK_REQUEST_STRIDED));
    }
    const unsigned flags = p->flags & ~(unsigned)(CK_EVAL_DST_UNALIGNED |
                                                  (from_dst ? CK_EVAL_SRC_UNALIGNED : 0u));
    if (!from_dst) { /* the first element is a value too; the copy of one is canonical */
        CK__RETURN_IF_ERROR(ck__reduce_make_canon(ckb, offset, p));
    }
    return ck__make_assign_leaf(ckb, offset, ck_type_scalar(p->acc_id), st, ck__reduce_cast_mode(p),
                                CK_REQUEST_STRIDED, flags, 0, from_dst ? 0 : sbits);
}

/* Reserves the prefix at *offset (aligned) and records it as child `slot` of the
 * accumulate_dim at `at`. */
static int next_child(ck_builder *ckb, size_t *offset, size_t at, int slot) {
    *offset = CK_ALIGN_OFFSET(*offset);
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset));
    return ck__accumulate_dim_set_child(ckb, at, slot, *offset);
}

/* The cast of ?T elements into the destination's ?A (NA kept), strided: a source whose
 * strides or offsets (sbits) are not multiples of its alignment is read as unaligned. */
static int make_option_cast(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                            const ck_type *dopt, const ck_type *st, uintptr_t sbits) {
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = p->mode;
    ctx.flags = p->flags & ~(unsigned)CK_EVAL_DST_UNALIGNED;
    if ((sbits & (st->data_alignment - 1)) != 0) {
        ctx.flags |= CK_EVAL_SRC_UNALIGNED;
    }
    return ck_make_assign(ckb, offset, dopt, NULL, st, NULL, CK_REQUEST_STRIDED, &ctx);
}

/* An accumulation of ?T along an outer dimension, each element a block of the fixed levels
 * from `from` on: row 0 cast into ?A (NA kept; with skipna and an identity NA becomes it),
 * row i a copy of row i-1 folded with x[i] elementwise as a reduction of options folds
 * (reduce_option: NA propagates, or with skipna is left out, an accumulator without
 * identity staying NA until its first value). */
static int build_outer_option(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                              const ck__rlevel *lv, int from, int n, const ck_type *dopt,
                              const ck_type *st, uintptr_t sbits, size_t at) {
    ck__reduce_plan q = *p;
    const int skipna = (p->rflags & CK_REDUCE_SKIPNA) != 0;
    q.dst_option = 1;
    q.na_start = skipna && p->check_empty;
    CK__RETURN_IF_ERROR(next_child(ckb, offset, at, 0));
    for (int i = from; i < n; i++) {
        CK__RETURN_IF_ERROR(ck__make_strided_dim(ckb, offset, lv[i].size, lv[i].dstride, 1,
                                                &lv[i].sstride, CK_REQUEST_STRIDED));
    }
    if (skipna && !p->check_empty) {
        CK__RETURN_IF_ERROR(
            ck__make_option_fill(ckb, offset, p->acc_id, p->start, CK_REQUEST_STRIDED));
    }
    CK__RETURN_IF_ERROR(make_option_cast(ckb, offset, p, dopt, st, sbits));
    CK__RETURN_IF_ERROR(next_child(ckb, offset, at, 1));
    CK__RETURN_IF_ERROR(build_block_cast(ckb, offset, p, lv, from, n, ck_type_scalar(p->acc_id),
                                        1, 0)); /* ?A's bytes copied as A's */
    CK__RETURN_IF_ERROR(next_child(ckb, offset, at, 2));
    return ck__reduce_build_fold(ckb, offset, &q, lv, from, n, st, sbits);
}

/* Whether an accumulation's innermost scan streams its stores: every dimension fixed, the
 * innermost contiguous in the destination, and the whole destination above the streaming
 * threshold (as an assignment decides, builders/compose.c). */
static int scan_streams(const ck__reduce_plan *p, const ck__rlevel *lv, int n) {
    const size_t size = ck_type_data_size(ck_type_scalar(p->acc_id));
    if (n == 0 || lv[n - 1].dstride != (intptr_t)size || !ck__streaming_supported(size)) {
        return 0;
    }
    uint64_t bytes = size;
    for (int i = 0; i < n; i++) {
        if (lv[i].skind != CK__DIM_FIXED || lv[i].dkind != CK__DIM_FIXED ||
            __builtin_mul_overflow(bytes, (uint64_t)lv[i].size, &bytes)) {
            return 0;
        }
    }
    return bytes >= (uint64_t)ck__streaming_min_bytes();
}

int ck__accumulate_build(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                         const ck_type *dst_tp, const char *dst_arrmeta, const ck_type *src_tp,
                         const char *src_arrmeta, ck_request req) {
    ck__rlevel lv[CK_TYPE_MAX_DEPTH];
    int n = 0;
    const ck_type *dt = NULL, *st = NULL;
    uintptr_t dbits = 0, sbits = 0;
    int dst_option = 0;
    CK__RETURN_IF_ERROR(collect_same_levels(p, dst_tp, dst_arrmeta, src_tp, src_arrmeta, lv, &n,
                                           &dt, &st, &dbits, &sbits, &dst_option));
    const ck_type *dopt = dt->id == CK_TYPE_OPTION ? dt : NULL; /* ?A, with a source of ?T */
    ck__reduce_plan q = *p;
    q.dst_option = dst_option; /* ?A, from any source: for na_canon only (the others take
                                * dopt) */
    p = &q;
    CK__RETURN_IF_ERROR(
        ck__reduce_check_accumulators(p, dst_tp, src_tp, dopt != NULL ? dopt->element : dt, dbits));
    int k = 0;
    while (k < n && !lv[k].reduced) {
        k++;
    }
    if (k == n) {
        return ck_set_error(CK_ERR_INTERNAL, "%s: an accumulation along no dimension", p->name);
    }
    for (int i = k + 1; i < n; i++) {
        if (lv[i].skind == CK__DIM_VAR) {
            return ck__reduce_shape_error(
                p, dst_tp, src_tp, CK_ERR_UNSUPPORTED,
                "accumulations along a dimension above a var one are not built "
                "yet");
        }
    }
    for (int i = 0; i < k; i++) {
        if (lv[i].skind == CK__DIM_FIXED) {
            CK__RETURN_IF_ERROR(ck__make_strided_dim(ckb, offset, lv[i].size, lv[i].dstride, 1,
                                                    &lv[i].sstride, req));
        } else {
            CK__RETURN_IF_ERROR(ck__reduce_make_kept_var(ckb, offset, &lv[i], req));
        }
        req = CK_REQUEST_STRIDED;
    }
    const ck__rlevel *l = &lv[k];
    ck__accumulate_dim_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.src_kind = l->skind;
    spec.dst_kind = l->dkind;
    spec.size = l->size;
    spec.src_offset = l->soffset;
    spec.src_stride = l->sstride;
    spec.dst_stride = l->dstride;
    spec.row = l->drow;
    spec.inner = k == n - 1;
    spec.dim = l->dim;
    size_t at = 0;
    CK__RETURN_IF_ERROR(ck__make_accumulate_dim(ckb, offset, &spec, req, &at));
    if (spec.inner && st->id == CK_TYPE_OPTION) {
        /* A row of options is cast into the destination (NA kept), then scanned there in
         * place run by run of values (option_scan over A's scan leaf). */
        CK__RETURN_IF_ERROR(next_child(ckb, offset, at, 0));
        CK__RETURN_IF_ERROR(make_option_cast(ckb, offset, p, dopt, st, sbits));
        CK__RETURN_IF_ERROR(next_child(ckb, offset, at, 1));
        const int skipna = (p->rflags & CK_REDUCE_SKIPNA) != 0;
        CK__RETURN_IF_ERROR(ck__make_option_scan(ckb, offset, p->acc_id, skipna,
                                                skipna && !p->check_empty ? p->start : NULL,
                                                CK_REQUEST_STRIDED));
        if (!ck__reduce_selects_values_of_a(p, p->acc_id)) { /* the row holds values of ?A */
            CK__RETURN_IF_ERROR(ck__reduce_make_canon(ckb, offset, p));
        }
        return p->make_scan(p, ckb, offset, 0);
    }
    if (st->id == CK_TYPE_OPTION) {
        return build_outer_option(ckb, offset, p, lv, k + 1, n, dopt, st, sbits, at);
    }
    if (spec.inner) {
        /* A row of another type (or misaligned) is cast into the destination, then scanned
         * there in place. */
        const int misaligned = (p->flags & CK_EVAL_SRC_UNALIGNED) != 0 ||
                               (sbits & (st->data_alignment - 1)) != 0;
        if (st->id != p->acc_id || misaligned) {
            CK__RETURN_IF_ERROR(next_child(ckb, offset, at, 0));
            CK__RETURN_IF_ERROR(build_block_cast(ckb, offset, p, lv, n, n, st, 0, sbits));
        }
        CK__RETURN_IF_ERROR(next_child(ckb, offset, at, 1));
        /* which then reads what it wrote */
        CK__RETURN_IF_ERROR(ck__reduce_make_canon(ckb, offset, p));
        return p->make_scan(p, ckb, offset,
                            st->id == p->acc_id && !misaligned && !ck__reduce_needs_canon(p) &&
                                scan_streams(p, lv, n));
    }
    CK__RETURN_IF_ERROR(next_child(ckb, offset, at, 0));
    CK__RETURN_IF_ERROR(build_block_cast(ckb, offset, p, lv, k + 1, n, st, 0, sbits));
    CK__RETURN_IF_ERROR(next_child(ckb, offset, at, 1));
    CK__RETURN_IF_ERROR(build_block_cast(ckb, offset, p, lv, k + 1, n, ck_type_scalar(p->acc_id),
                                        1, 0));
    CK__RETURN_IF_ERROR(next_child(ckb, offset, at, 2));
    return ck__reduce_build_fold(ckb, offset, p, lv, k + 1, n, st, sbits);
}
