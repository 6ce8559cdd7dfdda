/* src/leaves/numeric/compare_ops.h: the element operations of the built-in comparisons, inline
 * functions ck__<op>_<type>(a, b) giving a bool (0 or 1) for op in equal, not_equal, less,
 * less_equal, greater, greater_equal: NumPy 1.24's definitions. Integers by value; bool by
 * truth value (any non-zero byte is true, false < true); float32, float64, float16 and
 * bfloat16 (as floats: exact) by IEEE, so a NaN operand makes every comparison false but not_equal, and
 * -0 equals +0; complex lexicographically, real part first, as NumPy's CLT/CLE/CGT/CGE
 * macros: a < b when ar < br and neither imaginary part is NaN, or ar == br and ai < bi
 * (so an operand with a NaN part compares false, except not_equal); equal is both parts
 * equal. Included only from arith.dispatch.c (compiled per CPU target), after
 * targets/dispatch_target.h. */
#ifndef CKERNEL_COMPARE_OPS_H
#define CKERNEL_COMPARE_OPS_H

#include <stdint.h>

#include "common/float_formats.h"
#include "targets/dispatch_target.h"
#include "common/scalars.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Types whose values compare with C's operators (integers, float32, float64). */
#define CK__DEF_PLAIN_COMPARE(T)                                                            \
    CK__HOT uint8_t ck__equal_##T(ck__ct_##T a, ck__ct_##T b) {                              \
        return (uint8_t)(a == b);                                                            \
    }                                                                                        \
    CK__HOT uint8_t ck__not_equal_##T(ck__ct_##T a, ck__ct_##T b) {                          \
        return (uint8_t)(a != b);                                                            \
    }                                                                                        \
    CK__HOT uint8_t ck__less_##T(ck__ct_##T a, ck__ct_##T b) {                               \
        return (uint8_t)(a < b);                                                             \
    }                                                                                        \
    CK__HOT uint8_t ck__less_equal_##T(ck__ct_##T a, ck__ct_##T b) {                         \
        return (uint8_t)(a <= b);                                                            \
    }                                                                                        \
    CK__HOT uint8_t ck__greater_##T(ck__ct_##T a, ck__ct_##T b) {                            \
        return (uint8_t)(a > b);                                                             \
    }                                                                                        \
    CK__HOT uint8_t ck__greater_equal_##T(ck__ct_##T a, ck__ct_##T b) {                      \
        return (uint8_t)(a >= b);                                                            \
    }

/* bool, float16 and bfloat16: the values first (truth values; the half as a float, exactly), then as
 * above. EXPR maps an operand to its comparable value. */
#define CK__DEF_MAPPED_COMPARE(T, VT, EXPR_A, EXPR_B)                                       \
    CK__HOT uint8_t ck__equal_##T(ck__ct_##T a, ck__ct_##T b) {                              \
        const VT x = EXPR_A, y = EXPR_B;                                                     \
        return (uint8_t)(x == y);                                                            \
    }                                                                                        \
    CK__HOT uint8_t ck__not_equal_##T(ck__ct_##T a, ck__ct_##T b) {                          \
        const VT x = EXPR_A, y = EXPR_B;                                                     \
        return (uint8_t)(x != y);                                                            \
    }                                                                                        \
    CK__HOT uint8_t ck__less_##T(ck__ct_##T a, ck__ct_##T b) {                               \
        const VT x = EXPR_A, y = EXPR_B;                                                     \
        return (uint8_t)(x < y);                                                             \
    }                                                                                        \
    CK__HOT uint8_t ck__less_equal_##T(ck__ct_##T a, ck__ct_##T b) {                         \
        const VT x = EXPR_A, y = EXPR_B;                                                     \
        return (uint8_t)(x <= y);                                                            \
    }                                                                                        \
    CK__HOT uint8_t ck__greater_##T(ck__ct_##T a, ck__ct_##T b) {                            \
        const VT x = EXPR_A, y = EXPR_B;                                                     \
        return (uint8_t)(x > y);                                                             \
    }                                                                                        \
    CK__HOT uint8_t ck__greater_equal_##T(ck__ct_##T a, ck__ct_##T b) {                      \
        const VT x = EXPR_A, y = EXPR_B;                                                     \
        return (uint8_t)(x >= y);                                                            \
    }
CK__DEF_MAPPED_COMPARE(bool, int, a != 0, b != 0)

/* complex: NumPy's macros. A NaN imaginary part stops a decision by the real parts alone;
 * equal real parts leave it to the imaginary ones (false when one is NaN). */
#define CK__DEF_COMPLEX_COMPARE(T)                                                          \
    CK__HOT uint8_t ck__equal_##T(ck__ct_##T a, ck__ct_##T b) {                              \
        return (uint8_t)(a.v[0] == b.v[0] && a.v[1] == b.v[1]);                              \
    }                                                                                        \
    CK__HOT uint8_t ck__not_equal_##T(ck__ct_##T a, ck__ct_##T b) {                          \
        return (uint8_t)(a.v[0] != b.v[0] || a.v[1] != b.v[1]);                              \
    }                                                                                        \
    CK__HOT uint8_t ck__less_##T(ck__ct_##T a, ck__ct_##T b) {                               \
        const int ok = a.v[1] == a.v[1] && b.v[1] == b.v[1];                                 \
        return (uint8_t)((a.v[0] < b.v[0] && ok) || (a.v[0] == b.v[0] && a.v[1] < b.v[1]));  \
    }                                                                                        \
    CK__HOT uint8_t ck__less_equal_##T(ck__ct_##T a, ck__ct_##T b) {                         \
        const int ok = a.v[1] == a.v[1] && b.v[1] == b.v[1];                                 \
        return (uint8_t)((a.v[0] < b.v[0] && ok) || (a.v[0] == b.v[0] && a.v[1] <= b.v[1])); \
    }                                                                                        \
    CK__HOT uint8_t ck__greater_##T(ck__ct_##T a, ck__ct_##T b) {                            \
        const int ok = a.v[1] == a.v[1] && b.v[1] == b.v[1];                                 \
        return (uint8_t)((a.v[0] > b.v[0] && ok) || (a.v[0] == b.v[0] && a.v[1] > b.v[1]));  \
    }                                                                                        \
    CK__HOT uint8_t ck__greater_equal_##T(ck__ct_##T a, ck__ct_##T b) {                      \
        const int ok = a.v[1] == a.v[1] && b.v[1] == b.v[1];                                 \
        return (uint8_t)((a.v[0] > b.v[0] && ok) || (a.v[0] == b.v[0] && a.v[1] >= b.v[1])); \
    }

/* Every row of the scalar table by its kind (bool's is above); a float of 2-byte parts as
 * its float32 value. */
#define CK__COMPARE_BOOL(n, psize)
#define CK__COMPARE_SIGNED(n, psize) CK__DEF_PLAIN_COMPARE(n)
#define CK__COMPARE_UNSIGNED(n, psize) CK__DEF_PLAIN_COMPARE(n)
#define CK__COMPARE_FLOAT(n, psize) CK__COMPARE_FLOAT_##psize(n)
#define CK__COMPARE_FLOAT_2(n) CK__DEF_MAPPED_COMPARE(n, float, ck__widen_##n(a), ck__widen_##n(b))
#define CK__COMPARE_FLOAT_4(n) CK__DEF_PLAIN_COMPARE(n)
#define CK__COMPARE_FLOAT_8(n) CK__DEF_PLAIN_COMPARE(n)
#define CK__COMPARE_COMPLEX(n, psize) CK__DEF_COMPLEX_COMPARE(n)
#define CK__COMPARE_ROW(E, n, part, psize, parts, kind, ...) CK__COMPARE_##kind(n, psize)
CK_SCALAR_TABLE(CK__COMPARE_ROW)

#ifdef __cplusplus
}
#endif

#endif
