/* src/builders/reduce_internal.h: what the reduction walk (reduce.c) shares with the
 * accumulation walk (accumulate.c): the source's dimensions read beside the destination's,
 * the checks and messages of both, and the pieces of the kernel both nest (the fold over the
 * accumulate leaf, na_canon, a kept var dimension). */
#ifndef CKERNEL_REDUCE_INTERNAL_H
#define CKERNEL_REDUCE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/builder.h"
#include "ckernel/types.h"
#include "builders/reduce.h"
#include "core/kinds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One dimension of the source, with the destination's beside it. */
typedef struct ck__rlevel {
    int reduced;
    ck__dim_side skind;      /* CK__DIM_FIXED or CK__DIM_VAR */
    intptr_t size;           /* fixed */
    intptr_t sstride, soffset;
    ck__dim_side dkind;      /* CK__DIM_FIXED, CK__DIM_VAR, or CK__DIM_ABSENT (reduced) */
    intptr_t dsize, dstride;
    ck__var_row_spec drow;   /* var: where its rows are allocated (blockref borrowed) */
    int dim;                 /* the source dimension's number */
} ck__rlevel;

/* "cannot reduce SRC into DST: WHY" with both types spelled out. */
int ck__reduce_shape_error(const ck__reduce_plan *p, const ck_type *dst_tp, const ck_type *src_tp,
                           int status, const char *why);

/* The destination's innermost elements (type dt at address bits dbits) are the accumulators:
 * of the accumulator's type, and aligned, as the leaves read and write them. */
int ck__reduce_check_accumulators(const ck__reduce_plan *p, const ck_type *dst_tp,
                                  const ck_type *src_tp, const ck_type *dt, uintptr_t dbits);

/* CK_ERR_INVALID unless the arrmeta of the fixed dimension t gives the size its type
 * does (`which`: "source" or "destination", for the message). */
int ck__reduce_check_fixed(const ck_type *t, const char *arrmeta, const char *which);

/* A var destination level (type dt, arrmeta at dam) into l: its stride and where its rows
 * are allocated, each holding what the element's arrmeta reaches; returns the element's
 * arrmeta. */
const char *ck__reduce_var_destination(ck__rlevel *l, const ck_type *dt, const char *dam,
                                       uintptr_t *dbits);

/* Source level d (type st, arrmeta at *sam) into l, zeroed first: whether it is reduced, its
 * number in messages, its kind, size (fixed), stride and offset (var); *sam moves past its
 * arrmeta, and its stride and offset are OR-ed into *sbits. */
int ck__reduce_source_level(const ck__reduce_plan *p, int d, const ck_type *st, const char **sam,
                            ck__rlevel *l, uintptr_t *sbits);

/* Elements cast into the accumulator: with the context's mode, but into a bool one their
 * truth values (all and any), which only NOCHECK gives. */
ck_errmode ck__reduce_cast_mode(const ck__reduce_plan *p);

/* Arithmetic never creates an NA (kinds/options/na_canon.c): into ?A of a float or complex A, the
 * leaves that compute or select values sit under na_canon, which writes a result of the
 * NA's bits as NaN. */
int ck__reduce_needs_canon(const ck__reduce_plan *p);

/* na_canon (strided) at *offset where ck__reduce_needs_canon, else nothing. */
int ck__reduce_make_canon(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p);

/* minimum and maximum select an element or the accumulator as it is: over values of ?A
 * itself (never NA) they give no new bits, so they need no na_canon. Not so where A is
 * computed in float32 (float16): its folds return the selected element converted, which
 * quiets a signalling NaN, and a quieted one may carry the NA's bits. */
int ck__reduce_selects_values_of_a(const ck__reduce_plan *p, ck_type_id values);

/* The fold child: every level below the first reduced one over the accumulate leaf, whose
 * source elements are cast to the accumulator's type (a bool one takes their truth values,
 * as all and any do) when they have another type or may be misaligned. */
int ck__reduce_build_fold(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                          const ck__rlevel *lv, int from, int n, const ck_type *st,
                          uintptr_t sbits);

/* A kept level above the reduced ones where either side is var: var_dim, as in an
 * assignment (a source row of size 1 broadcasts; an unallocated destination row gets the
 * source's size). */
int ck__reduce_make_kept_var(ck_builder *ckb, size_t *offset, const ck__rlevel *l, ck_request req);

#ifdef __cplusplus
}
#endif

#endif
