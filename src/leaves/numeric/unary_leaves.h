/* src/leaves/numeric/unary_leaves.h: the elementwise functions of one operand, one row per
 * function. A row is the whole of what the rest of the library knows of one: the built-in
 * callable of its name, (T) -> T for every scalar type (callables/builtins.c), and the
 * description of its leaves (the numeric family's, family.c). Its leaves live in <name>.c,
 * which defines the three functions the row declares:
 *   ck__<name>_has_leaf(id)                    1 when type id has a leaf
 *   ck__make_<name>_leaf(ckb, offset, id, req) that leaf, a bare prefix
 *   ck__<name>_leaf_describe(fn, out)          "negative int8|uint8 strided" and 1 for its
 *                                              leaves, else 0
 * The columns: X(name, JIT, refusal): JIT the JIT's operation (CK__JIT_OP_<JIT>, NONE for
 * none); refusal what a call on a type without a leaf says (its signature exists so that the
 * type selects it rather than tying between two others, and is refused). */
#ifndef CKERNEL_UNARY_LEAVES_H
#define CKERNEL_UNARY_LEAVES_H

#include <stddef.h>

#include "ckernel/builder.h"
#include "ckernel/kernel.h"
#include "ckernel/types.h"
#include "common/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* clang-format off */
#define CK__UNARY_LIST(X)                                                                   \
    /* dst = -src, NumPy's np.negative: integers wrap, floats flip the sign bit */          \
    X(negative, NEGATIVE, "-bool is not defined (NumPy refuses it too); use logical_not, "  \
                          "or cast to an integer type first")
/* clang-format on */

#define CK__UNARY_DECLARE(name, jit, refusal)                                                 \
    int ck__##name##_has_leaf(ck_type_id id);                                                 \
    int ck__make_##name##_leaf(ck_builder *ckb, size_t *offset, ck_type_id id, ck_request req); \
    int ck__##name##_leaf_describe(const void *fn, ck__strbuf *out);
CK__UNARY_LIST(CK__UNARY_DECLARE)

#ifdef __cplusplus
}
#endif

#endif
