/* src/builders/assign_internal.h: what the composition offers the parallel front end. */
#ifndef CKERNEL_ASSIGN_INTERNAL_H
#define CKERNEL_ASSIGN_INTERNAL_H

#include <stdint.h>

#include "ckernel/builder.h"
#include "ckernel/eval.h"
#include "ckernel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CK_EVAL_DST_UNALIGNED / CK_EVAL_SRC_UNALIGNED for data reached at addresses whose low bits
 * are `dst_bits` / `src_bits` (a pointer, OR-ed with the strides that move from it), when
 * they break the element alignment of dt / st; 0 when both are aligned. */
unsigned ck__unaligned_flags(const ck_type *dt, uintptr_t dst_bits, const ck_type *st,
                             uintptr_t src_bits);

/* ck_make_assign for types that are the elements of `first_dim` enclosing dimensions (the
 * parallel split builds the kernel of one row): messages then number dimensions as in the
 * whole type, and the destination counts as `outer_rows` such rows when streaming stores
 * are decided (1 for a whole destination). */
int ck__make_assign_at(ck_builder *ckb, size_t *offset, const ck_type *dst_tp,
                       const char *dst_arrmeta, const ck_type *src_tp, const char *src_arrmeta,
                       ck_request req, const ck_eval_ctx *ectx, int first_dim,
                       size_t outer_rows);

#ifdef __cplusplus
}
#endif

#endif
