/* src/leaves/numeric/compare_leaves.h: the built-in comparison leaves of two operands of one scalar
 * type (equal, not_equal, less, less_equal, greater, greater_equal, a bool result), compiled
 * per CPU target in arith.dispatch.c beside the arithmetic (the same loops), and built and
 * described by arith.c; and the text leaves of the same callables, of length and of concat
 * (text_call.c). */
#ifndef CKERNEL_COMPARE_LEAVES_H
#define CKERNEL_COMPARE_LEAVES_H

#include <stddef.h>

#include "ckernel/builder.h"
#include "ckernel/kernel.h"
#include "ckernel/types.h"
#include "common/strbuf.h"
#include "leaves/numeric/scalar_leaves.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ck__compare_op {
    CK__COMPARE_EQUAL,
    CK__COMPARE_NOT_EQUAL,
    CK__COMPARE_LESS,
    CK__COMPARE_LESS_EQUAL,
    CK__COMPARE_GREATER,
    CK__COMPARE_GREATER_EQUAL,
    CK__COMPARE_NUM_OPS
} ck__compare_op;

/* [op][type id]: src[0] and src[1] have that type, dst is bool (0 or 1). One table per
 * compiled target, named ck__compare_leaves_<target>. */
typedef ck__leaf_fns ck__compare_table[CK__COMPARE_NUM_OPS][CK_NUM_SCALAR_TYPES];

/* The comparison's result for s, the sign of a - b (-1, 0 or 1). */
static inline int ck__compare_result(ck__compare_op op, int s) {
    switch (op) {
    case CK__COMPARE_EQUAL: return s == 0;
    case CK__COMPARE_NOT_EQUAL: return s != 0;
    case CK__COMPARE_LESS: return s < 0;
    case CK__COMPARE_LESS_EQUAL: return s <= 0;
    case CK__COMPARE_GREATER: return s > 0;
    default: return s >= 0;
    }
}

/* "equal", "not_equal", "less", "less_equal", "greater", "greater_equal"; NULL otherwise. */
const char *ck__compare_op_name(ck__compare_op op);

/* Builds the leaf (a bare ck_prefix) of the best compiled target at or below the one kernels
 * use now at *offset and moves *offset past it; CK_ERR_INTERNAL for an unknown op or type. */
int ck__make_compare_leaf(ck_builder *ckb, size_t *offset, ck__compare_op op, ck_type_id id,
                          ck_request req);

/* ---- text (text_compare.c) ----
 * An operand of text: its kind (a text type id), encoding (ck_text_encoding; bytes: NONE)
 * and, for the fixed kinds, N. */
typedef struct ck__text_operand {
    ck_type_id id;
    int enc;
    size_t units;
} ck__text_operand;

/* The operations on text: the six comparisons (code points in order; bytes bytewise; the
 * fixed kinds without their NUL padding), length (code points of text, bytes of bytes, an
 * int64) and concat. */
typedef enum ck__text_op {
    CK__TEXT_COMPARE_FIRST = 0, /* + ck__compare_op */
    CK__TEXT_LENGTH = CK__COMPARE_NUM_OPS,
    CK__TEXT_CONCAT,
    CK__TEXT_NUM_OPS
} ck__text_op;

/* The leaf of a comparison (bool result) or of length (int64) over text operands `a` (and
 * `b`, comparisons only), which may sit at any alignment. */
int ck__make_text_compare(ck_builder *ckb, size_t *offset, ck__text_op op,
                          const ck__text_operand *a, const ck__text_operand *b, ck_request req);

#ifdef __cplusplus
}
#endif

#endif
