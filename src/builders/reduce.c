/* src/builders/reduce.c: the reduction walk. It lists the source's dimensions with the
 * destination's beside them (a reduced dimension has none there, or a fixed one of size 1
 * with keepdims), merges runs of fixed dimensions that are contiguous alike, and nests:
 *
 *   kept dimensions above the first reduced one    strided_dim or var_dim (as in an
 *                                                  assignment)
 *   the first reduced dimension (fixed, or var)    reduce_dim, with two children:
 *     init: the kept dimensions below it (source stride 0; the reduced ones skipped) over
 *           reduce_fill, which writes each accumulator's start value; a kept var dimension
 *           ends it with reduce_var_reset (an empty row, grown by the fold);
 *     fold: every dimension below it, a reduced fixed one with destination stride 0, a
 *           reduced var one as a reduce_dim without init, a kept var one as reduce_var_grow
 *           (rows left-aligned: the destination row grows to the longest source row, its new
 *           elements started by an init child of the levels below), over the accumulate leaf
 *           (behind call_args when the source's elements are cast to the accumulator's type
 *           or may be misaligned): dst = f(dst, src), which folds a run when the destination
 *           stride is 0 and works in place elementwise otherwise.
 *
 * So the accumulators are the destination itself: a reduction over the outer axis of a
 * C-order matrix adds whole rows into the result row, and one over the inner axis folds
 * each row into its element. */
#include <stdio.h>
#include <string.h>

#include "ckernel/arrmeta.h"
#include "builders/compose.h"
#include "builders/reduce.h"
#include "builders/reduce_internal.h"
#include "common/internal.h"
#include "core/kinds.h"
#include "leaves/reduce/reduce_ops.h"
#include "common/scalars.h"
#include "types/type_internal.h"

int ck__reduce_axes(const ck_type *src_tp, int naxes, const int *axes, uint64_t *mask) {
    const int nd = ck__dims_through_pointers(src_tp);
    if (nd > 64) {
        return ck_set_error(CK_ERR_INVALID, "reduce: a source of %d dimensions; at most 64", nd);
    }
    if (axes == NULL) {
        *mask = nd == 64 ? UINT64_MAX : (UINT64_C(1) << nd) - 1u;
        return CK_OK;
    }
    if (naxes < 0) {
        return ck_set_error(CK_ERR_INVALID, "reduce: %d axes", naxes);
    }
    uint64_t m = 0;
    for (int i = 0; i < naxes; i++) {
        const int a = axes[i] < 0 ? axes[i] + nd : axes[i];
        if (a < 0 || a >= nd) {
            return ck_set_error(CK_ERR_INVALID,
                                "reduce: axis %d is out of range for a source of %d dimension%s",
                                axes[i], nd, nd == 1 ? "" : "s");
        }
        if ((m >> a) & 1u) {
            return ck_set_error(CK_ERR_INVALID, "reduce: axis %d is given twice", axes[i]);
        }
        m |= UINT64_C(1) << a;
    }
    *mask = m;
    return CK_OK;
}

int ck__reduce_result_type(const ck_type *src_tp, uint64_t reduced, int keepdims,
                           ck_type_id acc_id, ck_type **out) {
    /* The result's dimensions, outermost first: -1 for var, else the fixed size. */
    intptr_t size[CK_TYPE_MAX_DEPTH];
    int d = 0, nd = 0, option = 0;
    const ck_type *t = src_tp;
    while (!ck__id_is_scalar(t->id)) {
        if (t->id == CK_TYPE_FIXED_DIM || t->id == CK_TYPE_VAR_DIM) {
            const int r = d < 64 && ((reduced >> d) & 1u);
            if (!r || keepdims) {
                size[nd++] = r ? 1 : t->id == CK_TYPE_VAR_DIM ? -1 : t->fixed_size;
            }
            d++;
        } else if (t->id == CK_TYPE_OPTION) {
            option = 1;
        } else if (t->id != CK_TYPE_POINTER) {
            return ck_set_error(CK_ERR_TYPE, "reduce: cannot reduce %s values",
                                ck_type_id_name(t->id));
        }
        t = t->element;
    }
    ck_type *r = (ck_type *)(uintptr_t)ck_type_scalar(acc_id);
    if (option) {
        CK__RETURN_IF_ERROR(ck_type_make_option(r, &r));
    }
    return ck__type_over_dims(r, size, nd, out);
}

int ck__reduce_shape_error(const ck__reduce_plan *p, const ck_type *dst_tp, const ck_type *src_tp,
                           int status, const char *why) {
    char ds[CK__TYPE_SHOWN_CAP], ss[CK__TYPE_SHOWN_CAP];
    ck__type_text_shown(dst_tp, ds);
    ck__type_text_shown(src_tp, ss);
    return ck_set_error(status, "%s: cannot %s %s into %s: %s", p->name,
                        p->accumulate ? "accumulate" : "reduce", ss, ds, why);
}

int ck__reduce_check_accumulators(const ck__reduce_plan *p, const ck_type *dst_tp,
                                  const ck_type *src_tp, const ck_type *dt, uintptr_t dbits) {
    if (dt->id != p->acc_id) {
        return ck_set_error(CK_ERR_INTERNAL, "%s: a destination of %s for an accumulator of %s",
                            p->name, ck_type_id_name(dt->id), ck_type_id_name(p->acc_id));
    }
    if ((p->flags & CK_EVAL_DST_UNALIGNED) != 0 || (dbits & (dt->data_alignment - 1)) != 0) {
        return ck__reduce_shape_error(p, dst_tp, src_tp, CK_ERR_UNSUPPORTED,
                                      p->accumulate
                                          ? "the destination's elements are misaligned; an "
                                            "accumulation writes aligned accumulators"
                                          : "the destination's elements are misaligned; a "
                                            "reduction writes aligned accumulators");
    }
    return CK_OK;
}

int ck__reduce_check_fixed(const ck_type *t, const char *arrmeta, const char *which) {
    const ck_fixed_dim_arrmeta *m = (const ck_fixed_dim_arrmeta *)(const void *)arrmeta;
    if (m->dim_size != t->fixed_size) {
        return ck_set_error(CK_ERR_INVALID,
                            "the %s arrmeta gives a fixed dimension of size %td, its type says %td",
                            which, m->dim_size, t->fixed_size);
    }
    return CK_OK;
}

const char *ck__reduce_var_destination(ck__rlevel *l, const ck_type *dt, const char *dam,
                                       uintptr_t *dbits) {
    const ck_var_dim_arrmeta *m = (const ck_var_dim_arrmeta *)(const void *)dam;
    l->dkind = CK__DIM_VAR;
    l->dstride = m->stride;
    l->drow.blockref = m->blockref;
    l->drow.offset = m->offset;
    l->drow.stride = m->stride;
    *dbits |= (uintptr_t)m->offset;
    dam += sizeof(ck_var_dim_arrmeta);
    intptr_t lo, hi;
    ck__arrmeta_extent(dt->element, dam, &lo, &hi);
    l->drow.elem_before = lo < 0;
    l->drow.elem_size = hi > 0 ? (size_t)hi : 0;
    l->drow.elem_align = dt->element->data_alignment;
    return dam;
}

int ck__reduce_source_level(const ck__reduce_plan *p, int d, const ck_type *st, const char **sam,
                            ck__rlevel *l, uintptr_t *sbits) {
    memset(l, 0, sizeof *l);
    l->reduced = d < 64 && ((p->reduced >> d) & 1u);
    l->dim = d + p->first_dim;
    if (st->id == CK_TYPE_FIXED_DIM) {
        CK__RETURN_IF_ERROR(ck__reduce_check_fixed(st, *sam, "source"));
        const ck_fixed_dim_arrmeta *m = (const ck_fixed_dim_arrmeta *)(const void *)*sam;
        l->skind = CK__DIM_FIXED;
        l->size = m->dim_size;
        l->sstride = m->stride;
        *sam += sizeof(ck_fixed_dim_arrmeta);
    } else {
        const ck_var_dim_arrmeta *m = (const ck_var_dim_arrmeta *)(const void *)*sam;
        l->skind = CK__DIM_VAR;
        l->sstride = m->stride;
        l->soffset = m->offset;
        *sbits |= (uintptr_t)m->offset;
        *sam += sizeof(ck_var_dim_arrmeta);
    }
    *sbits |= (uintptr_t)l->sstride;
    return CK_OK;
}

/* Walks both types into lv[0..*n) and leaves the scalars (or options) in *dt / *st, with
 * every destination and source stride OR-ed into *dbits / *sbits. */
static int collect_levels(const ck__reduce_plan *p, const ck_type *dst_tp, const char *dam,
                          const ck_type *src_tp, const char *sam, ck__rlevel *lv, int *n,
                          const ck_type **dt_out, const ck_type **st_out, uintptr_t *dbits,
                          uintptr_t *sbits) {
    const ck_type *dt = dst_tp, *st = src_tp;
    const int keepdims = (p->rflags & CK_REDUCE_KEEPDIMS) != 0;
    int d = 0, below_reduced = 0;
    *dbits = 0;
    *sbits = 0;
    for (; st->id == CK_TYPE_FIXED_DIM || st->id == CK_TYPE_VAR_DIM || st->id == CK_TYPE_POINTER;
         d++) {
        if (st->id == CK_TYPE_POINTER) {
            return ck__reduce_shape_error(p, dst_tp, src_tp, CK_ERR_UNSUPPORTED,
                                          "reductions do not read through pointers yet");
        }
        ck__rlevel *l = &lv[d];
        CK__RETURN_IF_ERROR(ck__reduce_source_level(p, d, st, &sam, l, sbits));
        st = st->element;
        if (l->reduced && !keepdims) {
            l->dkind = CK__DIM_ABSENT;
            below_reduced = 1;
            continue;
        }
        if (dt->id != CK_TYPE_FIXED_DIM && dt->id != CK_TYPE_VAR_DIM) {
            return ck__reduce_shape_error(p, dst_tp, src_tp, CK_ERR_BROADCAST,
                                          "the destination has fewer dimensions than the result");
        }
        if (l->reduced || dt->id == CK_TYPE_FIXED_DIM) {
            if (dt->id != CK_TYPE_FIXED_DIM) {
                return ck__reduce_shape_error(p, dst_tp, src_tp, CK_ERR_BROADCAST,
                                              "a reduced dimension kept has size 1, fixed, in the "
                                              "destination");
            }
            CK__RETURN_IF_ERROR(ck__reduce_check_fixed(dt, dam, "destination"));
            const ck_fixed_dim_arrmeta *m = (const ck_fixed_dim_arrmeta *)(const void *)dam;
            const intptr_t want = l->reduced ? 1 : l->size;
            if (m->dim_size != want && (l->reduced || l->skind == CK__DIM_FIXED)) {
                char why[160];
                snprintf(why, sizeof why,
                         "dimension %d has size %td in the destination and %td in the result%s",
                         l->dim, m->dim_size, want,
                         l->reduced ? " (a reduced dimension kept)" : "");
                return ck__reduce_shape_error(p, dst_tp, src_tp, CK_ERR_BROADCAST, why);
            }
            l->dkind = l->reduced ? CK__DIM_ABSENT : CK__DIM_FIXED; /* a kept 1 never moves */
            l->dsize = m->dim_size;
            l->dstride = l->reduced ? 0 : m->stride;
            dam += sizeof(ck_fixed_dim_arrmeta);
        } else {
            dam = ck__reduce_var_destination(l, dt, dam, dbits);
        }
        /* Below a reduced dimension the destination's rows are the fold's: a kept dimension
         * is fixed on both sides, or var on both (rows left-aligned). */
        if (below_reduced && !l->reduced && (l->skind == CK__DIM_VAR) != (l->dkind == CK__DIM_VAR)) {
            char why[200];
            snprintf(why, sizeof why,
                     "dimension %d, below a reduced one, is %s in the source and %s in the "
                     "destination; it must be fixed in both or var in both",
                     l->dim, l->skind == CK__DIM_VAR ? "var" : "fixed",
                     l->dkind == CK__DIM_VAR ? "var" : "fixed");
            return ck__reduce_shape_error(p, dst_tp, src_tp, CK_ERR_BROADCAST, why);
        }
        below_reduced |= l->reduced;
        *dbits |= (uintptr_t)l->dstride;
        dt = dt->element;
    }
    if (!ck__id_is_scalar(dt->id) && dt->id != CK_TYPE_OPTION) {
        return ck__reduce_shape_error(p, dst_tp, src_tp, CK_ERR_BROADCAST,
                                      "the destination has more dimensions than the result");
    }
    const ck_type *sv = st->id == CK_TYPE_OPTION ? st->element : st;
    if (!ck__id_is_scalar(sv->id)) {
        return ck__reduce_shape_error(
            p, dst_tp, src_tp, CK_ERR_TYPE,
            "only scalars (under dimensions) reduce, not tuples or structs");
    }
    *n = d;
    *dt_out = dt;
    *st_out = st;
    return CK_OK;
}

/* Merges neighbouring fixed levels of the same kind (both reduced, or both kept) that are
 * contiguous across in the source and, when kept, in the destination. */
static int coalesce(ck__rlevel *lv, int n) {
    /* Not with a var level anywhere: its errors name rows by every enclosing index. */
    for (int i = 0; i < n; i++) {
        if (lv[i].skind == CK__DIM_VAR || lv[i].dkind == CK__DIM_VAR) {
            return n;
        }
    }
    for (int i = n - 2; i >= 0; i--) {
        ck__rlevel *o = &lv[i];
        const ck__rlevel *in = &lv[i + 1];
        if (o->skind != CK__DIM_FIXED || in->skind != CK__DIM_FIXED || o->reduced != in->reduced) {
            continue;
        }
        intptr_t span, size;
        int ok = !__builtin_mul_overflow(in->size, in->sstride, &span) && span == o->sstride &&
                 !__builtin_mul_overflow(o->size, in->size, &size);
        if (ok && !o->reduced) {
            ok = !__builtin_mul_overflow(in->size, in->dstride, &span) && span == o->dstride;
        }
        if (!ok) {
            continue;
        }
        o->size = size;
        o->dsize = o->reduced ? o->dsize : size;
        o->sstride = in->sstride;
        o->dstride = in->dstride;
        for (int j = i + 1; j + 1 < n; j++) {
            lv[j] = lv[j + 1];
        }
        n--;
    }
    return n;
}

ck_errmode ck__reduce_cast_mode(const ck__reduce_plan *p) {
    return p->acc_id == CK_TYPE_BOOL ? CK_ERRMODE_NOCHECK : p->mode;
}

int ck__reduce_needs_canon(const ck__reduce_plan *p) {
    return p->dst_option && ck__na_needs_canon(p->acc_id);
}

int ck__reduce_make_canon(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p) {
    return ck__reduce_needs_canon(p) ? ck__make_na_canon(ckb, offset, p->acc_id, CK_REQUEST_STRIDED)
                                     : CK_OK;
}

int ck__reduce_selects_values_of_a(const ck__reduce_plan *p, ck_type_id values) {
    return values == p->acc_id && (p->op == CK__ARITH_MINIMUM || p->op == CK__ARITH_MAXIMUM) &&
           !ck__scalar_computes_in_float32(p->acc_id);
}

/* The accumulate leaf of A over elements of the scalar type st: behind call_args, which
 * casts them (into a bool accumulator, their truth values, as all and any take them), when
 * st is not A or they may be misaligned. */
static int build_acc_leaf(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                          const ck_type *st, uintptr_t sbits) {
    const ck_type *at = ck_type_scalar(p->acc_id);
    const int misaligned = (p->flags & CK_EVAL_SRC_UNALIGNED) != 0 ||
                           (sbits & (st->data_alignment - 1)) != 0;
    if (st->id == at->id && !misaligned) {
        return p->make_acc(p, ckb, offset);
    }
    if (p->op >= 0 && !misaligned && ck__acc_widens((ck__arith_op)p->op, st->id, at->id)) {
        return ck__make_widen_leaf(ckb, offset, (ck__arith_op)p->op, st->id);
    }
    const size_t args_at = *offset;
    const size_t arg_size = at->data_size;
    CK__RETURN_IF_ERROR(ck__make_call_args(ckb, offset, 1, &arg_size, 0, CK_REQUEST_STRIDED));
    CK__RETURN_IF_ERROR(p->make_acc(p, ckb, offset));
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset));
    CK__RETURN_IF_ERROR(ck__call_args_set_child(ckb, args_at, 1, *offset));
    return ck__make_assign_leaf(ckb, offset, at, st, ck__reduce_cast_mode(p), CK_REQUEST_STRIDED,
                                p->flags & ~(unsigned)CK_EVAL_DST_UNALIGNED, 0, sbits);
}

static int build_acc(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                     const ck_type *st, uintptr_t sbits) {
    /* a plain element may hold NA's bits */
    CK__RETURN_IF_ERROR(ck__reduce_make_canon(ckb, offset, p));
    return build_acc_leaf(ckb, offset, p, st, sbits);
}

/* Over an option source (values of the scalar type sv): reduce_option above the value's
 * accumulate leaf, and with `first` the cast that starts an accumulator with no element. */
static int build_option_acc(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                            const ck_type *sv, uintptr_t sbits) {
    ck__reduce_option_spec spec;
    spec.src_id = sv->id;
    spec.dst_id = p->acc_id;
    spec.skipna = (p->rflags & CK_REDUCE_SKIPNA) != 0;
    spec.first = p->na_start;
    spec.dst_option = p->dst_option;
    /* reduce_option writes NaN for the NA's bits itself, after each run of values */
    spec.canon = ck__reduce_needs_canon(p) && !ck__reduce_selects_values_of_a(p, sv->id);
    size_t at = 0;
    CK__RETURN_IF_ERROR(ck__make_reduce_option(ckb, offset, &spec, CK_REQUEST_STRIDED, &at));
    CK__RETURN_IF_ERROR(build_acc_leaf(ckb, offset, p, sv, sbits));
    if (!spec.first) {
        return CK_OK;
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset));
    CK__RETURN_IF_ERROR(ck__reduce_option_set_first(ckb, at, *offset));
    return ck__make_assign_leaf(ckb, offset, ck_type_scalar(p->acc_id), sv, ck__reduce_cast_mode(p),
                                CK_REQUEST_STRIDED, p->flags & ~(unsigned)CK_EVAL_DST_UNALIGNED, 0,
                                sbits);
}

/* The init child: the kept levels below the first reduced one over reduce_fill; a kept var
 * level ends it with empty rows (its elements start when the fold grows them). */
static int build_init(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                      const ck__rlevel *lv, int from, int n) {
    static const intptr_t zero = 0;
    for (int i = from; i < n; i++) {
        if (lv[i].reduced) {
            continue;
        }
        if (lv[i].dkind == CK__DIM_VAR) {
            return ck__make_reduce_var_reset(ckb, offset, &lv[i].drow, lv[i].dim,
                                             CK_REQUEST_STRIDED);
        }
        CK__RETURN_IF_ERROR(ck__make_strided_dim(ckb, offset, lv[i].size, lv[i].dstride, 1, &zero,
                                                CK_REQUEST_STRIDED));
    }
    return ck__make_reduce_fill(ckb, offset, p->acc_id, p->start, p->na_start,
                                CK_REQUEST_STRIDED);
}

/* The init child of a reduction without start value: the levels below the reduced one (all
 * kept: it is the only one) with their source strides, over the cast of each element into
 * the accumulator's type, so the accumulators start as the first element's row. */
static int build_first(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                       const ck__rlevel *lv, int from, int n, const ck_type *st,
                       uintptr_t sbits) {
    for (int i = from; i < n; i++) {
        CK__RETURN_IF_ERROR(ck__make_strided_dim(ckb, offset, lv[i].size, lv[i].dstride, 1,
                                                &lv[i].sstride, CK_REQUEST_STRIDED));
    }
    return ck__make_assign_leaf(ckb, offset, ck_type_scalar(p->acc_id), st,
                                ck__reduce_cast_mode(p), CK_REQUEST_STRIDED,
                                p->flags & ~(unsigned)CK_EVAL_DST_UNALIGNED, 0, sbits);
}

/* A kernel with an init and a fold child (reduce_dim, reduce_var_grow) at `at`: builds both
 * for the levels from `from` on, each recorded once its prefix is reserved. */
static int build_children(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                          const ck__rlevel *lv, int from, int n, const ck_type *st,
                          uintptr_t sbits, size_t at,
                          int (*set_child)(ck_builder *, size_t, int, size_t)) {
    CK__RETURN_IF_ERROR(set_child(ckb, at, 1, *offset));
    CK__RETURN_IF_ERROR(p->first_start ? build_first(ckb, offset, p, lv, from, n, st, sbits)
                                       : build_init(ckb, offset, p, lv, from, n));
    *offset = CK_ALIGN_OFFSET(*offset);
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset));
    CK__RETURN_IF_ERROR(set_child(ckb, at, 0, *offset));
    return ck__reduce_build_fold(ckb, offset, p, lv, from, n, st, sbits);
}

/* Whether level i of the fold is fold_rows' (kinds/reduce/fold_rows.c): the innermost, kept and
 * fixed, contiguous on both sides, every level between it and the fold's start reduced and
 * fixed (so it is called with a destination stride of 0, a row per reduced element), over
 * a built-in's own accumulate leaf (elements of the accumulator's type, aligned). */
static int folds_rows(const ck__reduce_plan *p, const ck__rlevel *lv, int from, int i, int n,
                      const ck_type *st, uintptr_t sbits) {
    const ck__rlevel *l = &lv[i];
    const intptr_t es = (intptr_t)ck_type_scalar(p->acc_id)->data_size;
    if (i != n - 1 || l->reduced || l->skind != CK__DIM_FIXED ||
        l->sstride != es || l->dstride != es || p->op < 0 || st->id != p->acc_id ||
        ck__reduce_needs_canon(p) || /* its rows loops write no NaN for the NA's bits */
        (p->flags & CK_EVAL_SRC_UNALIGNED) != 0 || (sbits & (st->data_alignment - 1)) != 0) {
        return 0;
    }
    for (int j = from; j < i; j++) {
        if (!lv[j].reduced || lv[j].skind != CK__DIM_FIXED) {
            return 0;
        }
    }
    return 1;
}

int ck__reduce_build_fold(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                          const ck__rlevel *lv, int from, int n, const ck_type *st,
                          uintptr_t sbits) {
    for (int i = from; i < n; i++) {
        const ck__rlevel *l = &lv[i];
        if (folds_rows(p, lv, from, i, n, st, sbits)) {
            return ck__make_fold_rows(ckb, offset, (ck__arith_op)p->op, p->acc_id, l->size,
                                      CK_REQUEST_STRIDED);
        }
        if (l->skind == CK__DIM_FIXED) {
            CK__RETURN_IF_ERROR(ck__make_strided_dim(ckb, offset, l->size,
                                                    l->reduced ? 0 : l->dstride, 1, &l->sstride,
                                                    CK_REQUEST_STRIDED));
            continue;
        }
        size_t at = 0;
        if (l->reduced) {
            ck__reduce_dim_spec spec;
            memset(&spec, 0, sizeof spec);
            spec.kind = CK__DIM_VAR;
            spec.offset = l->soffset;
            spec.src_stride = l->sstride;
            spec.check_empty = p->check_empty;
            spec.op = p->op < 0 ? 0 : p->op;
            spec.dim = l->dim;
            CK__RETURN_IF_ERROR(ck__make_reduce_dim(ckb, offset, &spec, CK_REQUEST_STRIDED, &at));
            CK__RETURN_IF_ERROR(ck__reduce_dim_set_child(ckb, at, 0, *offset));
            continue;
        }
        CK__RETURN_IF_ERROR(ck__make_reduce_var_grow(ckb, offset, &l->drow, l->soffset, l->sstride,
                                                    l->dim, CK_REQUEST_STRIDED, &at));
        return build_children(ckb, offset, p, lv, i + 1, n, st, sbits, at,
                              ck__reduce_var_grow_set_child);
    }
    return st->id == CK_TYPE_OPTION ? build_option_acc(ckb, offset, p, st->element, sbits)
                                    : build_acc(ckb, offset, p, st, sbits);
}

int ck__reduce_make_kept_var(ck_builder *ckb, size_t *offset, const ck__rlevel *l, ck_request req) {
    ck__var_dim_params v;
    memset(&v, 0, sizeof v);
    v.nsrc = 1;
    v.src[0].kind = l->skind;
    v.src[0].size = l->size;
    v.src[0].stride = l->sstride;
    v.src[0].offset = l->soffset;
    v.dst_kind = l->dkind;
    v.dst_size = l->dsize;
    v.dst_stride = l->dstride;
    v.dst_offset = l->drow.offset;
    v.dst_blockref = l->drow.blockref;
    v.dst_elem_size = l->drow.elem_size;
    v.dst_elem_align = l->drow.elem_align;
    v.dst_elem_before = l->drow.elem_before;
    v.dim = l->dim;
    return ck__make_var_dim(ckb, offset, &v, req);
}

int ck__reduce_build(ck_builder *ckb, size_t *offset, const ck__reduce_plan *plan,
                     const ck_type *dst_tp, const char *dst_arrmeta, const ck_type *src_tp,
                     const char *src_arrmeta, ck_request req) {
    ck__rlevel lv[CK_TYPE_MAX_DEPTH];
    int n = 0;
    const ck_type *dt = NULL, *st = NULL;
    uintptr_t dbits = 0, sbits = 0;
    CK__RETURN_IF_ERROR(collect_levels(plan, dst_tp, dst_arrmeta, src_tp, src_arrmeta, lv, &n,
                                      &dt, &st, &dbits, &sbits));
    /* Options: with skipna, an operation without identity starts every accumulator as NA
     * ("no element yet"), which an element replaces; zero elements then give NA, not an
     * error, and the destination must hold NA. */
    ck__reduce_plan q = *plan;
    const ck__reduce_plan *p = &q;
    q.dst_option = dt->id == CK_TYPE_OPTION;
    dt = q.dst_option ? dt->element : dt;
    q.na_start = st->id == CK_TYPE_OPTION && (q.rflags & CK_REDUCE_SKIPNA) != 0 && q.check_empty;
    if (q.na_start) {
        if (!q.dst_option) {
            return ck__reduce_shape_error(
                p, dst_tp, src_tp, CK_ERR_TYPE,
                "with skipna, a reduction without identity gives NA where no "
                "element is left; the destination must be an option");
        }
        memcpy(q.start, ck__na_bytes(q.acc_id), dt->data_size);
        q.check_empty = 0;
    } else if (q.dst_option && memcmp(q.start, ck__na_bytes(q.acc_id), dt->data_size) == 0) {
        /* The start value would read as NA. maximum of a signed type starts from its
         * minimum, minimum of an unsigned one from its maximum: the NA of ?A, which no
         * element of an option of A equals, so the next value inward does as well. A plain
         * element can equal it (255 into ?uint8), and a shifted start would win over it:
         * with a source that has no NA, the destination is folded as plain A (its NA is a
         * value of A), so a result of those bits reads as NA, as assigning it would. */
        if (!q.check_empty || !ck__scalar_is_integer(q.acc_id)) {
            return ck__reduce_shape_error(p, dst_tp, src_tp, CK_ERR_TYPE,
                                          "the reduction's identity is the destination's NA");
        }
        if (st->id != CK_TYPE_OPTION) {
            q.dst_option = 0;
        } else if (st->element->id != q.acc_id) {
            return ck__reduce_shape_error(
                p, dst_tp, src_tp, CK_ERR_TYPE,
                "the reduction's start value is the destination's NA, which an "
                "element cast from another type can equal; reduce from an "
                "option of the destination's type, or into a destination "
                "without NA");
        } else {
            /* INT_MIN (the sign bit alone) steps upward, UINT_MAX downward */
            const size_t size = dt->data_size;
            const uint64_t v = ck__load_int_bits(q.start, size);
            const int up = v == (uint64_t)1 << (8 * size - 1);
            ck__store_int_bits(q.start, up ? v + 1u : v - 1u, size);
        }
    }
    if (q.na_start) {
        q.first_start = 0; /* reduce_option starts each accumulator from its first value */
    }
    if (q.first_start) {
        /* The first element's row is cast as it is: no NA to skip, no var row to grow. */
        int var_below = 0;
        for (int i = 0, seen = 0; i < n; i++) {
            var_below |= seen && (lv[i].skind == CK__DIM_VAR || lv[i].dkind == CK__DIM_VAR);
            seen |= lv[i].reduced;
        }
        if (st->id == CK_TYPE_OPTION || var_below) {
            return ck__reduce_shape_error(
                p, dst_tp, src_tp, CK_ERR_UNSUPPORTED,
                st->id == CK_TYPE_OPTION
                    ? "a reduction without identity takes options with skipna only"
                    : "a reduction without identity does not take var dimensions inside the "
                      "reduced one yet");
        }
    }
    CK__RETURN_IF_ERROR(ck__reduce_check_accumulators(p, dst_tp, src_tp, dt, dbits));
    /* Without an identity, a reduced dimension of size 0 is refused whatever the rest of the
     * shape, as NumPy refuses it (a var row of no elements: when the kernel runs). */
    for (int i = 0; p->check_empty && i < n; i++) {
        if (lv[i].reduced && lv[i].skind == CK__DIM_FIXED && lv[i].size == 0) {
            return ck_set_error(CK_ERR_INVALID,
                                "%s: no elements to reduce (dimension %d has size 0), and %s has "
                                "no identity",
                                p->name, lv[i].dim, p->name);
        }
    }
    n = coalesce(lv, n);
    int r = 0;
    while (r < n && !lv[r].reduced) {
        r++;
    }
    if (r == n) {
        return ck_set_error(CK_ERR_INTERNAL, "%s: a reduction with no reduced dimension",
                            p->name);
    }
    for (int i = 0; i < r; i++) {
        if (lv[i].skind == CK__DIM_FIXED && lv[i].dkind == CK__DIM_FIXED) {
            CK__RETURN_IF_ERROR(ck__make_strided_dim(ckb, offset, lv[i].size, lv[i].dstride, 1,
                                                    &lv[i].sstride, req));
        } else {
            CK__RETURN_IF_ERROR(ck__reduce_make_kept_var(ckb, offset, &lv[i], req));
        }
        req = CK_REQUEST_STRIDED;
    }
    ck__reduce_dim_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.kind = lv[r].skind;
    spec.size = lv[r].size;
    spec.offset = lv[r].soffset;
    spec.src_stride = lv[r].sstride;
    spec.check_empty = p->check_empty && lv[r].skind == CK__DIM_VAR; /* fixed: checked above */
    spec.op = p->op < 0 ? 0 : p->op;
    spec.dim = lv[r].dim;
    spec.skip_first = p->first_start;
    size_t at = 0;
    CK__RETURN_IF_ERROR(ck__make_reduce_dim(ckb, offset, &spec, req, &at));
    return build_children(ckb, offset, p, lv, r + 1, n, st, sbits, at, ck__reduce_dim_set_child);
}
