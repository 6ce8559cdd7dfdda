/* src/leaves/numeric/compare_ops.h: the element operations of the built-in comparisons, inline
 * functions ck__<op>_<type>(a, b) giving a bool (0 or 1) for op in equal, not_equal, less,
 * less_equal, greater, greater_equal: NumPy 1.24's definitions. Integers by value; bool by
 * truth value (any non-zero byte is true, false < true); float32, float64 and float16 (as
 * floats: exact) by IEEE, so a NaN operand makes every comparison false but not_equal, and
 * -0 equals +0; complex lexicographically, real part first, as NumPy's CLT/CLE/CGT/CGE
 * macros: a < b when ar < br and neither imaginary part is NaN, or ar == br and ai < bi
 * (so an operand with a NaN part compares false, except not_equal); equal is both parts
 * equal. Included only from arith.dispatch.c (compiled per CPU target), after
 * targets/dispatch_target.h. */
#ifndef CKERNEL_COMPARE_OPS_H
#define CKERNEL_COMPARE_OPS_H

#include <stdint.h>

#include "common/float16.h"
#include "targets/dispatch_target.h"

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
CK__DEF_PLAIN_COMPARE(int8)
CK__DEF_PLAIN_COMPARE(int16)
CK__DEF_PLAIN_COMPARE(int32)
CK__DEF_PLAIN_COMPARE(int64)
CK__DEF_PLAIN_COMPARE(uint8)
CK__DEF_PLAIN_COMPARE(uint16)
CK__DEF_PLAIN_COMPARE(uint32)
CK__DEF_PLAIN_COMPARE(uint64)
CK__DEF_PLAIN_COMPARE(float32)
CK__DEF_PLAIN_COMPARE(float64)

/* bool and float16: the values first (truth values; the half as a float, exactly), then as
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
CK__DEF_MAPPED_COMPARE(float16, float, ck__half_to_float(a), ck__half_to_float(b))

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
CK__DEF_COMPLEX_COMPARE(complex64)
CK__DEF_COMPLEX_COMPARE(complex128)

#ifdef __cplusplus
}
#endif

#endif
