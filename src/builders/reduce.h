/* src/builders/reduce.h: the reduction walk (reduce.c), a sibling of the composition walk:
 * from a source type and the set of its dimensions to fold, the kernel that writes the
 * reduced destination (docs/design.md §14); and the accumulation walk (accumulate.c: cumsum,
 * ...), which shares its pieces (reduce_internal.h). The callables layer plans a reduction
 * (the accumulator's type, its start value, the accumulate leaf) and hands the plan here. */
#ifndef CKERNEL_BUILDERS_REDUCE_H
#define CKERNEL_BUILDERS_REDUCE_H

#include <stdint.h>

#include "ckernel/builder.h"
#include "ckernel/callable.h"
#include "ckernel/eval.h"
#include "ckernel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ck__reduce_plan ck__reduce_plan;

struct ck__reduce_plan {
    const char *name;        /* the callable's, for messages */
    ck_type_id acc_id;       /* the accumulator's scalar type A (the destination's) */
    unsigned char start[16]; /* the value each accumulator starts from (A's bytes) */
    int check_empty;         /* no identity (minimum, maximum): zero elements is an error */
    int first_start;         /* no start value either: each accumulator starts from the first
                              * element along the one reduced dimension (NumPy's reduction
                              * of a function without identity) */
    int op;                  /* the built-in operation (ck__arith_op) for messages, or -1 */
    ck_errmode mode;         /* concrete: for casting the source's elements to A */
    unsigned flags;          /* CK_EVAL_* */
    unsigned rflags;         /* CK_REDUCE_* */
    uint64_t reduced;        /* bit d: source dimension d (0 the outermost) folds */
    int accumulate;          /* an accumulation along that one dimension (messages) */
    int first_dim;           /* messages number the source's dimensions from this one (the
                              * parallel split builds the kernel of one row) */
    /* Set by the walk: the destination's scalar is ?A; the accumulators start as NA (skipna
     * without identity). */
    int dst_option, na_start;
    /* Builds the accumulate leaf of A (dst = f(dst, src), leaves/reduce/reduce_ops.h) at *offset,
     * strided request. */
    int (*make_acc)(const ck__reduce_plan *p, ck_builder *ckb, size_t *offset);
    /* Builds the scan leaf of A (accumulations: out[0] = x[0], out[i] = f(out[i-1], x[i]),
     * leaves/reduce/reduce_ops.h), strided request; `stream`: the destination is a contiguous run
     * above the streaming threshold (a built-in's scan then streams its stores). */
    int (*make_scan)(const ck__reduce_plan *p, ck_builder *ckb, size_t *offset, int stream);
    const void *data; /* the makers' own */
};

/* The bit set of the dimensions `axes` (naxes of them; negative from the innermost) of a
 * source of type src_tp, all of them when axes is NULL. CK_ERR_INVALID for an axis out of
 * range or given twice, or more than 64 dimensions. */
int ck__reduce_axes(const ck_type *src_tp, int naxes, const int *axes, uint64_t *mask);

/* The reduction's result: src_tp's dimensions without the reduced ones (with `keepdims`, a
 * fixed dimension of size 1 in their place; pointers are read through) over acc_id, an
 * option when the source's scalar is one. One reference in *out. */
int ck__reduce_result_type(const ck_type *src_tp, uint64_t reduced, int keepdims,
                           ck_type_id acc_id, ck_type **out);

/* Builds the accumulation dst <- p(src) along the one dimension set in p->reduced, the
 * destination of the source's shape over A. */
int ck__accumulate_build(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                         const ck_type *dst_tp, const char *dst_arrmeta, const ck_type *src_tp,
                         const char *src_arrmeta, ck_request req);

/* Builds the reduction dst <- p(src) at *offset. At least one dimension is reduced. */
int ck__reduce_build(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                     const ck_type *dst_tp, const char *dst_arrmeta, const ck_type *src_tp,
                     const char *src_arrmeta, ck_request req);

#ifdef __cplusplus
}
#endif

#endif
