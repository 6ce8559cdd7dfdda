/* tests/support/numpy_scalars.h: NumPy 1.24's value-based typing of a ufunc's scalar operands
 * beside arrays, as the expression suites' node-by-node references need it for an
 * expression's constants: written from NumPy's documented rule (np.result_type and the loop
 * search with np.min_scalar_type), apart from the library's src/expr/expr_types.c. */
#ifndef CK_TEST_NUMPY_SCALARS_H
#define CK_TEST_NUMPY_SCALARS_H

#include "ckernel/ckernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* For a call of `callable` over n operands of scalar types id[k], operand k a scalar where
 * scalar[k] is 1 (a constant: its 0-d value in value[k]) or 2 (0-d, its value unknown when
 * the kernel is made, so typed as it is), an array where 0: the type each operand takes in
 * NumPy's selection
 * (out[k]), and another to try for it when no loop takes that (alt[k], or -1). CK_OK, or a
 * failure reading a value. */
int ckt_numpy_operand_types(const char *callable, int n, const ck_type_id *id,
                            const int *scalar, ck_array *const *value, ck_type_id *out,
                            int *alt);

#ifdef __cplusplus
}
#endif

#endif
