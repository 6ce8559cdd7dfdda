/* src/expr/expr_types.c: the types a call node's constant operands take in selection, as
 * NumPy 1.24 types scalars beside arrays (value-based casting): an expression's constants
 * (its literals, and the values of operations on constants, folded when planned) are
 * NumPy's Python and NumPy scalars, every other node an array. The rule is the Python
 * package's for ck.call's scalars (python/src/scalars.c), over values known here:
 * when the call has an array and no constant is of a higher kind than every array (kinds:
 * bool < integers < floats and complex numbers), a constant counts as the smallest type that
 * holds its value (np.min_scalar_type: 300 uint16, -1 int8, 0.1 float16, 1e300 float64, 1j
 * complex64), a float or complex one at least as wide as the arrays' widest float; a
 * non-negative integer that also fits the signed type of its width counts as that signed
 * type unless every array is unsigned and the call is typed by np.result_type (add,
 * subtract, multiply, maximum, minimum, fmax, fmin, gcd, lcm, where's two values), or the
 * arrays are unsigned and at least as wide; the other signedness is the alternative when no
 * loop takes the first. Otherwise each constant keeps its own type (a Python int is int64, a
 * float float64). where's condition takes no part: NumPy types where's values alone. A 0-d
 * source, and an operation on such and constants alone, is a NumPy scalar too (it is no
 * array: with no array, every operand keeps its own type, np.float32(1) + 1 is float64),
 * but its value is not known when the kernel is made: beside arrays it keeps its type. */
#include <math.h>
#include <string.h>

#include "common/internal.h"
#include "common/scalars.h"
#include "expr/expr_internal.h"

static int kind_order(ck_type_id id) {
    return ck__scalar_is(id, CK__SCALAR_KIND_BOOL) ? 0 : ck__scalar_is_integer(id) ? 1 : 2;
}

/* The bytes of a float's (a complex's part's) significand format: float16 2, bfloat16 3,
 * float32 4, float64 8; 0 for the others. */
static int float_part(ck_type_id id) {
    if (id == CK_TYPE_BFLOAT16) {
        return 3;
    }
    const ck__scalar_facts *f = ck__scalar_info(id);
    return ck__scalar_is_float(id) || ck__scalar_is_complex(id) ? (int)f->part_size : 0;
}

/* The wider of two float parts (float16 and bfloat16 each hold values the other does not:
 * together, float32). */
static int wider_part(int a, int b) {
    if ((a == 2 && b == 3) || (a == 3 && b == 2)) {
        return 4;
    }
    return a > b ? a : b;
}

static const ck_type_id signed_of[4] = {CK_TYPE_INT8, CK_TYPE_INT16, CK_TYPE_INT32,
                                        CK_TYPE_INT64};
static const ck_type_id unsigned_of[4] = {CK_TYPE_UINT8, CK_TYPE_UINT16, CK_TYPE_UINT32,
                                          CK_TYPE_UINT64};

static int width_index(uint64_t magnitude, int is_signed) {
    /* the first of 8, 16, 32, 64 bits that holds it (a signed type's magnitude bits) */
    for (int w = 0; w < 3; w++) {
        const int bits = (8 << w) - is_signed;
        if (magnitude < (uint64_t)1 << bits || (is_signed && magnitude == (uint64_t)1 << bits)) {
            return w;
        }
    }
    return 3;
}

static int uniform_call(const char *name) {
    static const char *const uniform[] = {"add",  "subtract", "multiply", "maximum", "minimum",
                                          "fmax", "fmin",     "gcd",      "lcm",     "where"};
    for (size_t i = 0; i < CK__ARRAY_SIZE(uniform); i++) {
        if (strcmp(name, uniform[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The smallest type of a constant's value (np.min_scalar_type), its float widened to `part`;
 * for a non-negative integer that fits the signed type of its width, *small is 1. */
static int min_type(ck_type_id own, const unsigned char *value, int part, ck_type_id *id,
                    int *small) {
    *small = 0;
    if (ck__scalar_is(own, CK__SCALAR_KIND_BOOL)) {
        *id = own;
        return CK_OK;
    }
    _Alignas(16) unsigned char v[16];
    if (ck__scalar_is_integer(own)) {
        const int is_signed = ck__scalar_is(own, CK__SCALAR_KIND_SIGNED);
        CK__RETURN_IF_ERROR(ck__expr_cast_const(is_signed ? CK_TYPE_INT64 : CK_TYPE_UINT64, v,
                                               own, value, CK_ERRMODE_NOCHECK, 0));
        uint64_t u;
        memcpy(&u, v, sizeof u);
        const int negative = is_signed && (int64_t)u < 0;
        if (negative) {
            *id = signed_of[width_index(0 - u, 1)];
        } else {
            const int w = width_index(u, 0);
            *id = unsigned_of[w];
            *small = u < (uint64_t)1 << ((8 << w) - 1);
        }
        return CK_OK;
    }
    const int is_complex = ck__scalar_is_complex(own);
    CK__RETURN_IF_ERROR(ck__expr_cast_const(is_complex ? CK_TYPE_COMPLEX128 : CK_TYPE_FLOAT64, v,
                                           own, value, CK_ERRMODE_NOCHECK, 0));
    double d[2] = {0, 0};
    memcpy(d, v, is_complex ? 16 : 8);
    int need = 2;
    for (int k = 0; k < 1 + is_complex; k++) {
        const double a = fabs(d[k]);
        if (a == a && a != HUGE_VAL) { /* NaN and the infinities fit every float */
            need = wider_part(need, a < 65000 ? 2 : a < 3.4e38 ? 4 : 8);
        }
    }
    const int p = wider_part(wider_part(need, is_complex ? 4 : 2), part);
    *id = is_complex ? (p == 8 ? CK_TYPE_COMPLEX128 : CK_TYPE_COMPLEX64)
          : p == 8   ? CK_TYPE_FLOAT64
          : p == 4   ? CK_TYPE_FLOAT32
                     : CK_TYPE_FLOAT16;
    return CK_OK;
}

int ck__expr_operand_types(const ck__expr_plan *pl, int i, const char *name, ck_type_id *types,
                           int *alt) {
    const ck_expr *e = pl->e;
    const ck__expr_node *nd = &e->nodes[i];
    const int *ops = e->operands + nd->first;
    const int first = strcmp(name, "where") == 0 && nd->nops == 3; /* its condition: as is */
    int max_array = -1, max_const = -1, all_unsigned = 1, part = 0, widest_unsigned = 0;
    for (int k = 0; k < nd->nops; k++) {
        const ck__expr_pnode *o = &pl->nodes[ops[k]];
        types[k] = o->type;
        alt[k] = -1;
        if (k < first) {
            continue;
        }
        const int order = kind_order(o->type);
        if (o->scalar) {
            max_const = order > max_const ? order : max_const;
        } else {
            max_array = order > max_array ? order : max_array;
            const int is_unsigned = ck__scalar_is(o->type, CK__SCALAR_KIND_UNSIGNED);
            all_unsigned &= is_unsigned;
            part = wider_part(part, float_part(o->type));
            const int bytes = is_unsigned ? (int)ck__scalar_info(o->type)->part_size : 0;
            widest_unsigned = bytes > widest_unsigned ? bytes : widest_unsigned;
        }
    }
    if (max_const < 0 || max_array < 0 || max_array < max_const) {
        return CK_OK; /* no constant, no array, or a constant of a higher kind: own types */
    }
    const int uniform = uniform_call(name);
    for (int k = first; k < nd->nops; k++) {
        const ck__expr_pnode *o = &pl->nodes[ops[k]];
        if (!o->is_const) {
            continue;
        }
        int small = 0;
        CK__RETURN_IF_ERROR(min_type(o->type, o->value, part, &types[k], &small));
        if (small && (!all_unsigned || !uniform)) {
            const ck__scalar_facts *f = ck__scalar_info(types[k]);
            const int w = f->part_size == 1 ? 0 : f->part_size == 2 ? 1 : f->part_size == 4 ? 2 : 3;
            const ck_type_id u = types[k];
            if (!all_unsigned || (int)f->part_size > widest_unsigned) {
                types[k] = signed_of[w];
            }
            alt[k] = uniform ? -1 : (int)(types[k] == u ? signed_of[w] : u);
        }
    }
    return CK_OK;
}
