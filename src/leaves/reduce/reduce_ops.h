/* src/leaves/reduce/reduce_ops.h: the accumulate and scan leaves of the built-in operations that
 * reduce and accumulate (add, multiply, minimum, maximum, logical_and, logical_or), compiled
 * per CPU target from reduce_ops.dispatch.c, their start values, and how the kernel layer
 * builds and describes them (reduce_ops.c).
 *
 * A scan leaf (accumulations: cumsum, ...) writes out[0] = x[0], out[i] = op(out[i-1], x[i])
 * in order over its run (dst may be src).
 *
 * An accumulate leaf is a bare ck_prefix whose strided function folds its one source into
 * the destination, which holds the accumulator (of the leaf's type, as the source):
 *   dst_stride != 0   dst[i] = op(dst[i], src[i]) for each i: the in-place elementwise form,
 *                     when a reduced dimension lies outside a kept one;
 *   dst_stride == 0   *dst = op(*dst, F(src[0..count-1])): the fold of a run, where F is
 *                     op over the run in a fixed association (docs/design.md §14): floats
 *                     and complex values in 16 lanes (8 complex), lane l taking elements
 *                     i = l (mod 16) in order within blocks of 128 elements, blocks combined
 *                     lane by lane in a fixed pairwise tree, then the lanes pairwise;
 *                     integers and bools in order (their results do not depend on it).
 * So a float sum is blocked pairwise summation, and its bits depend only on the run's
 * length and values: the same on every CPU target. */
#ifndef CKERNEL_REDUCE_OPS_H
#define CKERNEL_REDUCE_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/builder.h"
#include "ckernel/kernel.h"
#include "ckernel/types.h"
#include "common/strbuf.h"
#include "core/call_chunk.h" /* a fold behind a cast is a tree per call_args chunk */
#include "leaves/numeric/arith_leaves.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Lanes and block size of the fixed association (the parallel split follows them). */
#define CK__FOLD_LANES 16
#define CK__FOLD_BLOCK 128
/* Blocks of one run's tree: at most 2^40 (a run of more is folded piece by piece, each its own
 * tree). With a 32-bit size_t every run of up to 2^32 - 128 elements is one tree, as it is
 * with 64 bits. */
#if SIZE_MAX > UINT32_MAX
#  define CK__FOLD_MAX_BLOCKS ((size_t)1 << 40)
#else
#  define CK__FOLD_MAX_BLOCKS (SIZE_MAX / CK__FOLD_BLOCK)
#endif

/* [op][type id]: the accumulate (scan) leaf of op in that type; NULL for subtract and divide,
 * and for logical_and and logical_or of any type but bool. One table per compiled target,
 * named ck__reduce_ops_<target>. */
/* The split of a float fold's tree for a parallel run (types with a tree fold; NULL for the
 * exact ones, whose partial folds combine in any order): `chunk` writes the lane vector
 * (lanes_bytes) of a complete chunk of nblocks = 2^j blocks of CK__FOLD_BLOCK elements;
 * `finish` folds into the accumulator at acc the rest of the tree: nchunks such vectors in
 * order, pushed whole at level j, then the tail's tail_n elements. With chunks aligned to
 * multiples of 2^j blocks from the run's start this is the serial fold's tree, bit for bit. */
typedef struct ck__fold_split {
    size_t lanes_bytes;
    void (*chunk)(const char *x, intptr_t xs, size_t nblocks, void *lanes);
    void (*finish)(char *acc, const void *chunks, size_t nchunks, unsigned j, const char *tail,
                   intptr_t xs, size_t tail_n);
} ck__fold_split;

/* The dot of a row: *dst = sum of x[i] * y[i] over n elements (xs, ys bytes apart), in
 * the add fold's association for floats and complex values (of the products, each rounded),
 * in order for integers (wrapping); for bool, any of (x[i] and y[i]). */
typedef void (*ck__dot_fn)(char *dst, const char *x, intptr_t xs, const char *y, intptr_t ys,
                           size_t n);

/* A scan's continuation over a contiguous destination: dst[i] = *acc = op(*acc, x[i]) for
 * i < n, *acc (an element of the leaf's type) updated: the streaming scan runs a long run
 * through it chunk by chunk (leaves/reduce/scan_stream.c). */
typedef void (*ck__scan_from_fn)(void *acc, char *dst, const char *x, intptr_t xs, size_t n);

/* The rows form: rows rows of n contiguous elements, row_stride bytes apart from x, folded
 * into dst in place and in order, dst[i] = op(...op(op(dst[i], row0[i]), row1[i])...,
 * row_{rows-1}[i]): the in-place form row by row, bit for bit, with each accumulator loaded
 * and stored once per four rows (kinds/reduce/fold_rows.c). */
typedef void (*ck__rows_fn)(char *dst, const char *x, intptr_t row_stride, size_t rows,
                            size_t n);

typedef struct ck__reduce_ops_table {
    ck_strided_fn acc[CK__ARITH_NUM_OPS][CK_NUM_SCALAR_TYPES];
    ck__fold_split split[CK__ARITH_NUM_OPS][CK_NUM_SCALAR_TYPES];
    ck_strided_fn scan[CK__ARITH_NUM_OPS][CK_NUM_SCALAR_TYPES];
    ck__scan_from_fn scan_from[CK__ARITH_NUM_OPS][CK_NUM_SCALAR_TYPES];
    ck__dot_fn dot[CK_NUM_SCALAR_TYPES]; /* NULL for float16 */
    /* [op][T]: the accumulate leaf of op in ck__widened(T) over a source of T, each element
     * converted exactly as it is loaded (add and multiply; NULL elsewhere). */
    ck_strided_fn widen[CK__ARITH_NUM_OPS][CK_NUM_SCALAR_TYPES];
    ck__rows_fn rows[CK__ARITH_NUM_OPS][CK_NUM_SCALAR_TYPES]; /* where acc has a leaf */
} ck__reduce_ops_table;

/* The dot function of type id for the CPU target kernels use now (NULL: none), and the
 * target's name; the dot kernel (leaves/reduce/dot.c) calls it. */
int ck__dot_fn_for(ck_type_id id, ck__dot_fn *fn, const char **target);

/* The split of (op, id)'s fold for the CPU target kernels use now, or NULL when its fold is
 * exact (an integer or bool type) or (op, id) has none. */
const ck__fold_split *ck__fold_split_for(ck__arith_op op, ck_type_id id);

/* The accumulator a widening leaf folds a T into: int64 for bool and the signed integers
 * narrower than it, uint64 for the narrower unsigned ones, float64 for float32; t itself
 * for the others (which have none). */
ck_type_id ck__widened(ck_type_id t);
/* 1 when op has a widening accumulate leaf of acc over a source of t (acc == ck__widened(t)):
 * the same values and association as t cast into acc (call_args' chunks) ahead of acc's
 * leaf, without the scratch. */
int ck__acc_widens(ck__arith_op op, ck_type_id t, ck_type_id acc);
int ck__make_widen_leaf(ck_builder *ckb, size_t *offset, ck__arith_op op, ck_type_id t);

/* 1 when (op, id) has an accumulate leaf (and a scan leaf), else 0. */
int ck__acc_has_leaf(ck__arith_op op, ck_type_id id);
/* Builds the accumulate leaf, or with `scan` the scan leaf (a bare prefix with the strided
 * function) at *offset from the table of the CPU target kernels use now; CK_ERR_INTERNAL for
 * a pair without one. */
int ck__make_acc_leaf(ck_builder *ckb, size_t *offset, ck__arith_op op, ck_type_id id);
int ck__make_scan_leaf(ck_builder *ckb, size_t *offset, ck__arith_op op, ck_type_id id);
/* The streaming scan (scan_stream.c): the scan leaf of (op, id) for a contiguous destination
 * above the streaming threshold; ck__streaming_supported must hold for the element's size. */
int ck__make_scan_stream(ck_builder *ckb, size_t *offset, ck__arith_op op, ck_type_id id);
/* The scan leaf's functions (plain and continuation) for the target kernels use now, and
 * the target's name. */
int ck__scan_fns(ck__arith_op op, ck_type_id id, ck_strided_fn *scan, ck__scan_from_fn *from,
                 const char **target);
/* Writes "accumulate add float64 [avx2]" (or "scan ...") and returns 1 when fn is such a
 * leaf, else 0. */
int ck__acc_leaf_describe(const void *fn, ck__strbuf *out);

/* The rows function of (op, id) for the bandwidth target (ck_cpu_bandwidth_target: a fold of
 * whole rows runs at the memory's speed, and its lanes are independent columns, so every
 * target gives the same bits); CK_ERR_INTERNAL for a pair without an accumulate leaf. */
int ck__rows_fn_for(ck__arith_op op, ck_type_id id, ck__rows_fn *fn);
/* The name of the target whose table holds the rows function fn ("?" for none). */
const char *ck__rows_fn_target(ck__rows_fn fn);
/* fold_rows (fold_rows.c) at *offset over the accumulate leaf of (op, id): the innermost kept
 * dimension, `size` contiguous elements, of a reduction's fold. */
int ck__make_fold_rows(ck_builder *ckb, size_t *offset, ck__arith_op op, ck_type_id id,
                       intptr_t size, ck_request req);

/* The bytes of the value a reduction of op in type id starts from: add 0, multiply 1,
 * logical_and true, logical_or false, and for minimum and maximum (which have no identity)
 * the type's largest and smallest value (+inf and -inf for floats, (inf, inf) and
 * (-inf, -inf) for complex), which no element loses to. Returns 0 for other operations. */
int ck__reduce_start_value(ck__arith_op op, ck_type_id id, unsigned char out[16]);

#ifdef __cplusplus
}
#endif

#endif
