/* src/builders/assign_internal.h: what the composition offers the parallel front end. */
#ifndef CKERNEL_ASSIGN_INTERNAL_H
#define CKERNEL_ASSIGN_INTERNAL_H

#include <stdint.h>

#include "ckernel/types.h"

/* CK_EVAL_DST_UNALIGNED / CK_EVAL_SRC_UNALIGNED for data reached at addresses whose low bits
 * are `dst_bits` / `src_bits` (a pointer, OR-ed with the strides that move from it), when
 * they break the element alignment of dt / st; 0 when both are aligned. */
unsigned ck__unaligned_flags(const ck_type *dt, uintptr_t dst_bits, const ck_type *st,
                             uintptr_t src_bits);

#endif
