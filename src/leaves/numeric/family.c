/* src/leaves/numeric/family.c: the numeric leaf family's row (core/leaf_families.h): the
 * scalar table's types, their casts (scalar.c) and the description of its leaves (casts,
 * arithmetic and comparisons, negative). */
#include "core/kinds.h"
#include "core/leaf_families.h"
#include "leaves/numeric/arith_leaves.h"
#include "types/type_internal.h"

static int claims(ck_type_id id) {
    return ck__id_is_scalar(id);
}

static int make_cast(ck_builder *ckb, size_t *offset, const ck__cast_operands *ops,
                     ck_request req) {
    return ck__make_scalar_leaf(ckb, offset, ops->dst->id, ops->src->id, ops->mode, req);
}

static int leaf_describe(const void *fn, ck__strbuf *out) {
    return ck__scalar_leaf_describe(fn, out) || ck__arith_leaf_describe(fn, out) ||
           ck__negative_leaf_describe(fn, out);
}

const ck__leaf_family ck__numeric_family = {
    "numeric", 0, claims, make_cast, ck__cast_of_values_can_give_na, leaf_describe,
};
