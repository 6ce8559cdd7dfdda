/* src/leaves/numeric/scalar_leaves.h: the scalar assignment leaves (every pair of the scalar
 * table's types, every concrete error mode), compiled per CPU target from
 * scalar_assign.dispatch.c, and how the kernel layer finds them. */
#ifndef CKERNEL_SCALAR_LEAVES_H
#define CKERNEL_SCALAR_LEAVES_H

#include <stddef.h>

#include "ckernel/cpu.h"
#include "ckernel/eval.h"
#include "ckernel/kernel.h"
#include "ckernel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ck__leaf_fns {
    ck_single_fn single;
    ck_strided_fn strided;
} ck__leaf_fns;

/* [dst id][src id][mode]: a scalar leaf is a bare ck_prefix (no data, no destructor), so the
 * function alone carries the pair and the mode. Same-type pairs are plain copies in every
 * mode. Leaves read and write aligned elements; the unaligned kernel wraps them otherwise. */
typedef ck__leaf_fns ck__leaf_table[CK_NUM_SCALAR_TYPES][CK_NUM_SCALAR_TYPES][CK_NUM_ERRMODES];

/* One table per compiled target, named ck__scalar_leaves_<target> (scalar.c lists them from
 * the generated scalar_assign.dispatch.h). */

/* For the leaf tables of a *.dispatch.c source (scalar.c, arith.c): the index, in ids[0..n-1]
 * (its generated target list, highest first), of the best target at or below the one kernels
 * use now. CK_ERR_INTERNAL "no <what> leaves compiled for target ... or below" when none. */
int ck__leaf_target_pick(const ck_cpu_target *ids, size_t n, const char *what,
                         size_t *index);
/* The same for the loops bound by memory bandwidth (the arithmetic and comparison leaves,
 * the streaming-store loops, the reductions' rows folds): at or below
 * ck_cpu_bandwidth_target. */
int ck__leaf_target_pick_bandwidth(const ck_cpu_target *ids, size_t n, const char *what,
                                   size_t *index);

#ifdef __cplusplus
}
#endif

#endif
