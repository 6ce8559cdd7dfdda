/* src/leaves/numeric/arith_leaves.h: the built-in elementwise leaves of two operands of one scalar
 * type, one row per function in CK__ARITH_LIST (the callables that run them are
 * leaves/math/ufunc_list.h's), compiled per CPU target from
 * arith.dispatch.c, and how the kernel layer builds and describes them (arith.c). The
 * one-operand functions are unary_leaves.h's. */
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

/* The elementwise functions of two operands of one scalar type, one row per function:
 * X(A, name, ENUM, BOOL_RET, RET, CHECKED, JIT), A the list's second argument passed through
 * (a type, where a file expands the list per scalar type)
 *   BOOL_RET  what bool's leaf returns: bool, int8 (trunc_divide: the integer quotient of
 *             the truth values), or NONE (no bool leaf: subtract)
 *   RET       SAME (the operands' type) or BOOL (the logical functions)
 *   CHECKED   1 when an integer zero divisor is an error
 *   JIT       the JIT's operation (CK__JIT_OP_<JIT>), NONE for none
 * The callables whose loops run these leaves, their signatures and identities are
 * leaves/math/ufunc_list.h's (divide's floating loops are trunc_divide's leaves: IEEE
 * division). The four arithmetic functions come first, in this order: the float16 vector
 * path (arith.dispatch.c) computes them in float32. */
/* clang-format off */
#define CK__ARITH_LIST(X, A)                                                                 \
    X(A, add,          ADD,          bool, SAME, 0, ADD)                                     \
    X(A, subtract,     SUBTRACT,     NONE, SAME, 0, SUBTRACT)                                \
    X(A, multiply,     MULTIPLY,     bool, SAME, 0, MULTIPLY)                                \
    X(A, trunc_divide, TRUNC_DIVIDE, int8, SAME, 1, DIVIDE)                                  \
    X(A, minimum,      MINIMUM,      bool, SAME, 0, MINIMUM)                                 \
    X(A, maximum,      MAXIMUM,      bool, SAME, 0, MAXIMUM)                                 \
    X(A, logical_and,  LOGICAL_AND,  bool, BOOL, 0, LOGICAL_AND)                             \
    X(A, logical_or,   LOGICAL_OR,   bool, BOOL, 0, LOGICAL_OR)
/* clang-format on */

#define CK__ARITH_ENUM(A, name, E, ...) CK__ARITH_##E,
typedef enum ck__arith_op { CK__ARITH_LIST(CK__ARITH_ENUM, ~) CK__ARITH_NUM_OPS } ck__arith_op;
#undef CK__ARITH_ENUM

/* [op][type id]: dst, src[0] and src[1] all have that type (but bool trunc_divide writes int8, and
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

/* The row's name ("add", ...); NULL for other values. */
const char *ck__arith_op_name(ck__arith_op op);

/* Writes "add float64 strided [avx2]" and returns 1 when fn is a leaf of any compiled
 * table, else returns 0. */
int ck__arith_leaf_describe(const void *fn, ck__strbuf *out);

#ifdef __cplusplus
}
#endif

#endif
