/* src/leaves/reduce/family.c: the reductions' leaf family's row (core/leaf_families.h): no
 * value types of its own (its steps fold the numeric family's), only the description of its
 * accumulate and scan leaves. */
#include "core/leaf_families.h"
#include "leaves/reduce/reduce_ops.h"

const ck__leaf_family ck__reduce_family = {
    CK__LEAF_FAMILY_HEAD(reduce), NULL, NULL, ck__acc_leaf_describe,
};
