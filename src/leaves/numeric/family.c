/* src/leaves/numeric/family.c: the numeric leaf family's row (core/leaf_families.h): the
 * scalar table's types, their casts (scalar.c) and the description of its leaves (casts,
 * arithmetic and comparisons, where's selects, the unary functions of unary_leaves.h). */
#include "core/kinds.h"
#include "core/leaf_families.h"
#include "leaves/numeric/arith_leaves.h"
#include "leaves/numeric/unary_leaves.h"
#include "leaves/numeric/where_leaf.h"
#include "types/type_internal.h"

static int make_cast(ck_builder *ckb, size_t *offset, const ck__cast_operands *ops,
                     ck_request req) {
    return ck__make_scalar_leaf(ckb, offset, ops->dst->id, ops->src->id, ops->mode, req);
}

static int leaf_describe(const void *fn, ck__strbuf *out) {
#define CK__UNARY_DESCRIBE(name, jit, refusal) ck__##name##_leaf_describe(fn, out) ||
    return ck__scalar_leaf_describe(fn, out) || ck__arith_leaf_describe(fn, out) ||
           ck__where_leaf_describe(fn, out) ||
           CK__UNARY_LIST(CK__UNARY_DESCRIBE) 0;
#undef CK__UNARY_DESCRIBE
}

const ck__leaf_family ck__numeric_family = {
    CK__LEAF_FAMILY_HEAD(numeric),
    make_cast, ck__cast_of_values_can_give_na, leaf_describe,
};
