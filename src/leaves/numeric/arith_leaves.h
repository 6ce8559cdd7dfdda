/* src/leaves/numeric/arith_leaves.h: the built-in elementwise leaves of two operands of one scalar
 * type (add, subtract, multiply, divide, minimum, maximum, logical_and, logical_or),
 * compiled per CPU target from arith.dispatch.c, and how the kernel layer builds and
 * describes them (arith.c). The one-operand functions are unary_leaves.h's. */
#ifndef CKERNEL_ARITH_LEAVES_H
#define CKERNEL_ARITH_LEAVES_H

#include <stddef.h>

#include "ckernel/builder.h"
#include "ckernel/kernel.h"
#include "ckernel/types.h"
#include "common/strbuf.h"
#include "leaves/numeric/scalar_leaves.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ck__arith_op {
    CK__ARITH_ADD,
    CK__ARITH_SUBTRACT,
    CK__ARITH_MULTIPLY,
    CK__ARITH_DIVIDE,
    CK__ARITH_MINIMUM,
    CK__ARITH_MAXIMUM,
    CK__ARITH_LOGICAL_AND,
    CK__ARITH_LOGICAL_OR,
    CK__ARITH_NUM_OPS
} ck__arith_op;

/* [op][type id]: dst, src[0] and src[1] all have that type (but bool divide writes int8, and
 * logical_and and logical_or write bool);
 * the leaf computes dst = src[0] op src[1] on aligned elements. The entry without a leaf
 * (bool subtract) is NULL. One table per compiled target, named ck__arith_leaves_<target>. */
typedef ck__leaf_fns ck__arith_table[CK__ARITH_NUM_OPS][CK_NUM_SCALAR_TYPES];

/* Builds the leaf (a bare ck_prefix, no data, no destructor) at *offset from the table of
 * the best compiled target at or below the one kernels use now, and moves *offset past it.
 * CK_ERR_INTERNAL for an (op, id) without a leaf. */
int ck__make_arith_leaf(ck_builder *ckb, size_t *offset, ck__arith_op op, ck_type_id id,
                        ck_request req);

/* 1 when (op, id) has a leaf, else 0. */
int ck__arith_has_leaf(ck__arith_op op, ck_type_id id);

/* "add", "subtract", "multiply", "divide", "minimum", "maximum", "logical_and",
 * "logical_or"; NULL for other values. */
const char *ck__arith_op_name(ck__arith_op op);

/* Writes "add float64 strided [avx2]" and returns 1 when fn is a leaf of any compiled
 * table, else returns 0. */
int ck__arith_leaf_describe(const void *fn, ck__strbuf *out);

#ifdef __cplusplus
}
#endif

#endif
