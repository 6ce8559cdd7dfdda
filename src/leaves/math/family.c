/* src/leaves/math/family.c: the math leaf family's row (core/leaf_families.h): no value types
 * of its own (its leaves compute on the numeric family's), only the description of the
 * leaves of NumPy's functions (ufunc.c). */
#include "core/leaf_families.h"
#include "leaves/math/ufunc_list.h"

const ck__leaf_family ck__math_family = {
    CK__LEAF_FAMILY_HEAD(math),
    NULL,
    NULL,
    ck__ufunc_leaf_describe,
};
