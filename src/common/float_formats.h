/* src/common/float_formats.h: the float types computed in float32 (float16, bfloat16), under
 * one spelling per type name: ck__widen_<type>(bits) is its value as a float (exact) and
 * ck__narrow_<type>(float) the float rounded once to it (nearest even). Arithmetic on them
 * widens both operands, computes in float32 and narrows the result: float32's 24 bits are
 * at least twice the type's precision plus 2, so that is the type's correctly rounded
 * operation (never installed). */
#ifndef CKERNEL_FLOAT_FORMATS_H
#define CKERNEL_FLOAT_FORMATS_H

#include "common/bfloat16.h"
#include "common/float16.h"

#define ck__widen_float16 ck__half_to_float
#define ck__narrow_float16 ck__float_to_half
#define ck__widen_bfloat16 ck__bfloat16_to_float
#define ck__narrow_bfloat16 ck__float_to_bfloat16

#endif
