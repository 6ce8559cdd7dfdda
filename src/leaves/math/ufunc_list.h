/* src/leaves/math/ufunc_list.h: NumPy's ufuncs as built-in callables, one row per function,
 * each with its loops in NumPy 1.24's order (docs/design.md §10). A row is all the rest of the
 * library knows of a function: callables/ufuncs.c registers a callable of its name (and its
 * aliases) with one signature per loop, in this order, selected by NumPy's rule
 * (CK_SELECT_FIRST_SAFE); ufunc.dispatch.c compiles the leaves of its LEAF loops per CPU
 * target from the element functions of math_ops.h, and ufunc.c builds and describes them.
 *
 * A function: X(name, NIN, ARITH, IDENTITY, REFUSAL)
 *   NIN       its operands, 1 or 2
 *   ARITH     the operation of leaves/numeric/arith_leaves.h its ARITH loops run, or NONE
 *   IDENTITY  the value its reductions start from, as text, or NULL (none)
 *   REFUSAL   what a REFUSE loop says, or NULL
 * and its loops, CK__UFL_<name>(L), each L(name, IMPL, NIN, in0, in1, out) (in1 `none` for one
 * operand), with IMPL
 *   LEAF      a leaf of this folder, out = ck__uf_<name>_<in0>[_<in1>](in0, in1)
 *   CHECKED   a LEAF whose arguments may be refused: ck__uf_<name>_<in0>_<in1>_bad(in0, in1)
 *             says so, and CK__UF_REFUSED_<name> (math_ops.h) is the message (CK_ERR_DOMAIN)
 *   VMATH     a vector leaf of vmath_ops.h (SLEEF's functions that give the same bits on
 *             every CPU, float32 and float64; float16 and bfloat16 computed in float32)
 *   ARITH     the arithmetic leaf of ARITH for in0 (in0, in1 and out one type but for bool,
 *             and the logical functions' bool results)
 *   REFUSE    a signature that refuses, with REFUSAL: NumPy refuses the types, and without it
 *             selection would pick a loop NumPy does not (bool subtract would be int8's)
 *   PAIR      a LEAF of two results (divmod, modf, frexp): out is the first, the second
 *             CK__UF_SECOND_<name>(in0); the leaf writes the C struct of the two,
 *             first = ck__uf_<name>_<in0>[_<in1>](in0, [in1,] &second)
 * NumPy's loops over long double and objects, and the datetime ones, have no rows; bfloat16
 * has a loop where float16 has one, after it (so that float16 keeps selecting float16's, and
 * an int8 float16's, as in NumPy). NumPy lists int64's loops twice (as C long and long long);
 * once here. */
#ifndef CKERNEL_UFUNC_LIST_H
#define CKERNEL_UFUNC_LIST_H

#include <stddef.h>

#include "ckernel/builder.h"
#include "ckernel/kernel.h"
#include "ckernel/types.h"
#include "common/strbuf.h"
#include "leaves/numeric/scalar_leaves.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the types in NumPy's order (?, bBhHiIlLQ, e, f, d, F, D), by class: M(T, ...) ---- */
#define CK__UF_B(M, ...) M(bool, __VA_ARGS__)
#define CK__UF_I(M, ...)                                                                    \
    M(int8, __VA_ARGS__) M(uint8, __VA_ARGS__) M(int16, __VA_ARGS__) M(uint16, __VA_ARGS__) \
    M(int32, __VA_ARGS__) M(uint32, __VA_ARGS__) M(int64, __VA_ARGS__) M(uint64, __VA_ARGS__)
#define CK__UF_F(M, ...)                                                                    \
    M(float16, __VA_ARGS__) M(bfloat16, __VA_ARGS__) M(float32, __VA_ARGS__)                \
    M(float64, __VA_ARGS__)
#define CK__UF_C(M, ...) M(complex64, __VA_ARGS__) M(complex128, __VA_ARGS__)
#define CK__UF_IF(M, ...) CK__UF_I(M, __VA_ARGS__) CK__UF_F(M, __VA_ARGS__)
#define CK__UF_IFC(M, ...) CK__UF_IF(M, __VA_ARGS__) CK__UF_C(M, __VA_ARGS__)
#define CK__UF_BI(M, ...) CK__UF_B(M, __VA_ARGS__) CK__UF_I(M, __VA_ARGS__)
#define CK__UF_ALL(M, ...) CK__UF_B(M, __VA_ARGS__) CK__UF_IFC(M, __VA_ARGS__)
#define CK__UF_FC(M, ...) CK__UF_F(M, __VA_ARGS__) CK__UF_C(M, __VA_ARGS__)

/* ---- loop shapes: M(T, L, name, IMPL) ---- */
#define CK__UF_SAME1(T, L, n, I) L(n, I, 1, T, none, T)
#define CK__UF_SAME2(T, L, n, I) L(n, I, 2, T, T, T)
#define CK__UF_BOOL1(T, L, n, I) L(n, I, 1, T, none, bool)
#define CK__UF_BOOL2(T, L, n, I) L(n, I, 2, T, T, bool)
#define CK__UF_F64_2(T, L, n, I) L(n, I, 2, T, T, float64)

/* ---- the loops of each function ---- */
/* The arithmetic: the leaves/numeric/arith_leaves.h leaves. divide is true division: the
 * integers' loops give float64 (NumPy's type resolver's), the others IEEE division. */
#define CK__UFL_add(L) CK__UF_ALL(CK__UF_SAME2, L, add, ARITH)
#define CK__UFL_subtract(L)                                                                 \
    L(subtract, REFUSE, 2, bool, bool, bool) CK__UF_IFC(CK__UF_SAME2, L, subtract, ARITH)
#define CK__UFL_multiply(L) CK__UF_ALL(CK__UF_SAME2, L, multiply, ARITH)
#define CK__UFL_divide(L)                                                                   \
    CK__UF_BI(CK__UF_F64_2, L, divide, LEAF) CK__UF_FC(CK__UF_SAME2, L, divide, ARITH)
#define CK__UFL_trunc_divide(L)                                                             \
    L(trunc_divide, ARITH, 2, bool, bool, int8) CK__UF_IFC(CK__UF_SAME2, L, trunc_divide, ARITH)
#define CK__UFL_minimum(L) CK__UF_ALL(CK__UF_SAME2, L, minimum, ARITH)
#define CK__UFL_maximum(L) CK__UF_ALL(CK__UF_SAME2, L, maximum, ARITH)
#define CK__UFL_logical_and(L) CK__UF_ALL(CK__UF_BOOL2, L, logical_and, ARITH)
#define CK__UFL_logical_or(L) CK__UF_ALL(CK__UF_BOOL2, L, logical_or, ARITH)

/* One operand, exact. */
#define CK__UFL_absolute(L)                                                                 \
    CK__UF_B(CK__UF_SAME1, L, absolute, LEAF) CK__UF_IF(CK__UF_SAME1, L, absolute, LEAF)    \
    L(absolute, LEAF, 1, complex64, none, float32) L(absolute, LEAF, 1, complex128, none, float64)
#define CK__UFL_positive(L)                                                                 \
    L(positive, REFUSE, 1, bool, none, bool) CK__UF_IFC(CK__UF_SAME1, L, positive, LEAF)
#define CK__UFL_conjugate(L) CK__UF_IFC(CK__UF_SAME1, L, conjugate, LEAF)
#define CK__UFL_sign(L) L(sign, REFUSE, 1, bool, none, bool) CK__UF_IFC(CK__UF_SAME1, L, sign, LEAF)
#define CK__UFL_square(L) CK__UF_IFC(CK__UF_SAME1, L, square, LEAF)
#define CK__UFL_reciprocal(L) CK__UF_IFC(CK__UF_SAME1, L, reciprocal, LEAF)
#define CK__UFL_invert(L) CK__UF_BI(CK__UF_SAME1, L, invert, LEAF)
#define CK__UFL_logical_not(L) CK__UF_ALL(CK__UF_BOOL1, L, logical_not, LEAF)
#define CK__UFL_isnan(L) CK__UF_ALL(CK__UF_BOOL1, L, isnan, LEAF)
#define CK__UFL_isinf(L) CK__UF_ALL(CK__UF_BOOL1, L, isinf, LEAF)
#define CK__UFL_isfinite(L) CK__UF_ALL(CK__UF_BOOL1, L, isfinite, LEAF)
#define CK__UFL_signbit(L) CK__UF_F(CK__UF_BOOL1, L, signbit, LEAF)
#define CK__UFL_floor(L) CK__UF_F(CK__UF_SAME1, L, floor, LEAF)
#define CK__UFL_ceil(L) CK__UF_F(CK__UF_SAME1, L, ceil, LEAF)
#define CK__UFL_trunc(L) CK__UF_F(CK__UF_SAME1, L, trunc, LEAF)
#define CK__UFL_rint(L) CK__UF_FC(CK__UF_SAME1, L, rint, LEAF)
#define CK__UFL_fabs(L) CK__UF_F(CK__UF_SAME1, L, fabs, LEAF)
#define CK__UFL_spacing(L) CK__UF_F(CK__UF_SAME1, L, spacing, LEAF)
#define CK__UFL_deg2rad(L) CK__UF_F(CK__UF_SAME1, L, deg2rad, LEAF)
#define CK__UFL_rad2deg(L) CK__UF_F(CK__UF_SAME1, L, rad2deg, LEAF)

/* Two operands, exact. */
#define CK__UFL_bitwise_and(L) CK__UF_BI(CK__UF_SAME2, L, bitwise_and, LEAF)
#define CK__UFL_bitwise_or(L) CK__UF_BI(CK__UF_SAME2, L, bitwise_or, LEAF)
#define CK__UFL_bitwise_xor(L) CK__UF_BI(CK__UF_SAME2, L, bitwise_xor, LEAF)
#define CK__UFL_left_shift(L) CK__UF_I(CK__UF_SAME2, L, left_shift, LEAF)
#define CK__UFL_right_shift(L) CK__UF_I(CK__UF_SAME2, L, right_shift, LEAF)
#define CK__UFL_gcd(L) L(gcd, REFUSE, 2, bool, bool, bool) CK__UF_I(CK__UF_SAME2, L, gcd, LEAF)
#define CK__UFL_lcm(L) L(lcm, REFUSE, 2, bool, bool, bool) CK__UF_I(CK__UF_SAME2, L, lcm, LEAF)
#define CK__UFL_logical_xor(L) CK__UF_ALL(CK__UF_BOOL2, L, logical_xor, LEAF)
#define CK__UFL_floor_divide(L) CK__UF_IF(CK__UF_SAME2, L, floor_divide, LEAF)
#define CK__UFL_remainder(L) CK__UF_IF(CK__UF_SAME2, L, remainder, LEAF)
#define CK__UFL_fmod(L) CK__UF_IF(CK__UF_SAME2, L, fmod, LEAF)
#define CK__UFL_fmax(L) CK__UF_ALL(CK__UF_SAME2, L, fmax, LEAF)
#define CK__UFL_fmin(L) CK__UF_ALL(CK__UF_SAME2, L, fmin, LEAF)
#define CK__UFL_copysign(L) CK__UF_F(CK__UF_SAME2, L, copysign, LEAF)
#define CK__UFL_nextafter(L) CK__UF_F(CK__UF_SAME2, L, nextafter, LEAF)
#define CK__UFL_heaviside(L) CK__UF_F(CK__UF_SAME2, L, heaviside, LEAF)
#define CK__UFL_ldexp(L)                                                                    \
    L(ldexp, LEAF, 2, float16, int32, float16) L(ldexp, LEAF, 2, bfloat16, int32, bfloat16) \
    L(ldexp, LEAF, 2, float32, int32, float32) L(ldexp, LEAF, 2, float16, int64, float16)   \
    L(ldexp, LEAF, 2, bfloat16, int64, bfloat16) L(ldexp, LEAF, 2, float32, int64, float32) \
    L(ldexp, LEAF, 2, float64, int32, float64) L(ldexp, LEAF, 2, float64, int64, float64)

/* Two results: the signature's (first, second), written as one C struct. */
#define CK__UFL_divmod(L) CK__UF_IF(CK__UF_SAME2, L, divmod, PAIR)
#define CK__UFL_modf(L) CK__UF_F(CK__UF_SAME1, L, modf, PAIR)
#define CK__UFL_frexp(L) CK__UF_F(CK__UF_SAME1, L, frexp, PAIR)
#define CK__UF_SECOND_divmod(T) T
#define CK__UF_SECOND_modf(T) T
#define CK__UF_SECOND_frexp(T) int32

/* The functions of vmath_ops.h: floats by SLEEF, complex numbers by libm (NumPy's). */
#define CK__UF_VM1(L, name)                                                                  \
    CK__UF_F(CK__UF_SAME1, L, name, VMATH) CK__UF_C(CK__UF_SAME1, L, name, LEAF)
#define CK__UFL_exp(L) CK__UF_VM1(L, exp)
#define CK__UFL_exp2(L) CK__UF_VM1(L, exp2)
#define CK__UFL_expm1(L) CK__UF_VM1(L, expm1)
#define CK__UFL_log(L) CK__UF_VM1(L, log)
#define CK__UFL_log2(L) CK__UF_VM1(L, log2)
#define CK__UFL_log10(L) CK__UF_VM1(L, log10)
#define CK__UFL_log1p(L) CK__UF_VM1(L, log1p)
#define CK__UFL_sin(L) CK__UF_VM1(L, sin)
#define CK__UFL_cos(L) CK__UF_VM1(L, cos)
#define CK__UFL_tan(L) CK__UF_VM1(L, tan)
#define CK__UFL_arcsin(L) CK__UF_VM1(L, arcsin)
#define CK__UFL_arccos(L) CK__UF_VM1(L, arccos)
#define CK__UFL_arctan(L) CK__UF_VM1(L, arctan)
#define CK__UFL_sinh(L) CK__UF_VM1(L, sinh)
#define CK__UFL_cosh(L) CK__UF_VM1(L, cosh)
#define CK__UFL_tanh(L) CK__UF_VM1(L, tanh)
#define CK__UFL_arcsinh(L) CK__UF_VM1(L, arcsinh)
#define CK__UFL_arccosh(L) CK__UF_VM1(L, arccosh)
#define CK__UFL_arctanh(L) CK__UF_VM1(L, arctanh)
#define CK__UFL_cbrt(L) CK__UF_F(CK__UF_SAME1, L, cbrt, VMATH)
/* sqrt is IEEE's correctly rounded operation: plain vector code. */
#define CK__UFL_sqrt(L) CK__UF_F(CK__UF_SAME1, L, sqrt, LEAF) CK__UF_C(CK__UF_SAME1, L, sqrt, LEAF)
#define CK__UFL_arctan2(L) CK__UF_F(CK__UF_SAME2, L, arctan2, VMATH)
#define CK__UFL_hypot(L) CK__UF_F(CK__UF_SAME2, L, hypot, VMATH)
#define CK__UFL_logaddexp(L) CK__UF_F(CK__UF_SAME2, L, logaddexp, VMATH)
#define CK__UFL_logaddexp2(L) CK__UF_F(CK__UF_SAME2, L, logaddexp2, VMATH)
#define CK__UFL_power(L)                                                                     \
    CK__UF_I(CK__UF_SAME2, L, power, CHECKED) CK__UF_F(CK__UF_SAME2, L, power, VMATH)         \
    CK__UF_C(CK__UF_SAME2, L, power, LEAF)
#define CK__UFL_float_power(L)                                                               \
    L(float_power, VMATH, 2, float64, float64, float64)                                       \
    L(float_power, LEAF, 2, complex128, complex128, complex128)

/* numexpr's spellings (not NumPy ufuncs: NumPy's real, imag and ones_like are functions). */
#define CK__UFL_copy(L) CK__UF_ALL(CK__UF_SAME1, L, copy, LEAF)
#define CK__UFL_ones_like(L) CK__UF_ALL(CK__UF_SAME1, L, ones_like, LEAF)
#define CK__UFL_real(L)                                                                     \
    CK__UF_BI(CK__UF_SAME1, L, real, LEAF) CK__UF_F(CK__UF_SAME1, L, real, LEAF)            \
    L(real, LEAF, 1, complex64, none, float32) L(real, LEAF, 1, complex128, none, float64)
#define CK__UFL_imag(L)                                                                     \
    CK__UF_BI(CK__UF_SAME1, L, imag, LEAF) CK__UF_F(CK__UF_SAME1, L, imag, LEAF)            \
    L(imag, LEAF, 1, complex64, none, float32) L(imag, LEAF, 1, complex128, none, float64)
#define CK__UFL_make_complex(L)                                                                  \
    L(make_complex, LEAF, 2, float32, float32, complex64)                                        \
    L(make_complex, LEAF, 2, float64, float64, complex128)

/* clang-format off */
#define CK__BOOL_SUBTRACT_REFUSAL                                                           \
    "bool - bool is not defined (NumPy refuses it too); cast an argument to an integer type " \
    "to subtract"
#define CK__UFUNC_LIST(X)                                                                   \
    X(add,          2, ADD,          "0",     NULL)                                         \
    X(subtract,     2, SUBTRACT,     NULL,    CK__BOOL_SUBTRACT_REFUSAL)                    \
    X(multiply,     2, MULTIPLY,     "1",     NULL)                                         \
    X(divide,       2, TRUNC_DIVIDE, NULL,    NULL)                                         \
    X(trunc_divide, 2, TRUNC_DIVIDE, NULL,    NULL)                                         \
    X(minimum,      2, MINIMUM,      NULL,    NULL)                                         \
    X(maximum,      2, MAXIMUM,      NULL,    NULL)                                         \
    X(logical_and,  2, LOGICAL_AND,  "true",  NULL)                                         \
    X(logical_or,   2, LOGICAL_OR,   "false", NULL)                                         \
    X(absolute,     1, NONE,         NULL,    NULL)                                         \
    X(positive,     1, NONE,         NULL,    "+bool is not defined (NumPy refuses it too)") \
    X(conjugate,    1, NONE,         NULL,    NULL)                                         \
    X(sign,         1, NONE,         NULL,    "the sign of a bool is not defined (NumPy "   \
                                              "refuses it too)")                            \
    X(square,       1, NONE,         NULL,    NULL)                                         \
    X(reciprocal,   1, NONE,         NULL,    NULL)                                         \
    X(invert,       1, NONE,         NULL,    NULL)                                         \
    X(logical_not,  1, NONE,         NULL,    NULL)                                         \
    X(isnan,        1, NONE,         NULL,    NULL)                                         \
    X(isinf,        1, NONE,         NULL,    NULL)                                         \
    X(isfinite,     1, NONE,         NULL,    NULL)                                         \
    X(signbit,      1, NONE,         NULL,    NULL)                                         \
    X(floor,        1, NONE,         NULL,    NULL)                                         \
    X(ceil,         1, NONE,         NULL,    NULL)                                         \
    X(trunc,        1, NONE,         NULL,    NULL)                                         \
    X(rint,         1, NONE,         NULL,    NULL)                                         \
    X(fabs,         1, NONE,         NULL,    NULL)                                         \
    X(spacing,      1, NONE,         NULL,    NULL)                                         \
    X(deg2rad,      1, NONE,         NULL,    NULL)                                         \
    X(rad2deg,      1, NONE,         NULL,    NULL)                                         \
    X(bitwise_and,  2, NONE,         "-1",    NULL)                                         \
    X(bitwise_or,   2, NONE,         "0",     NULL)                                         \
    X(bitwise_xor,  2, NONE,         "0",     NULL)                                         \
    X(left_shift,   2, NONE,         NULL,    NULL)                                         \
    X(right_shift,  2, NONE,         NULL,    NULL)                                         \
    X(gcd,          2, NONE,         "0",     "the gcd of bools is not defined (NumPy "     \
                                              "refuses it too)")                            \
    X(lcm,          2, NONE,         NULL,    "the lcm of bools is not defined (NumPy "     \
                                              "refuses it too)")                            \
    X(logical_xor,  2, NONE,         "false", NULL)                                         \
    X(floor_divide, 2, NONE,         NULL,    NULL)                                         \
    X(remainder,    2, NONE,         NULL,    NULL)                                         \
    X(fmod,         2, NONE,         NULL,    NULL)                                         \
    X(fmax,         2, NONE,         NULL,    NULL)                                         \
    X(fmin,         2, NONE,         NULL,    NULL)                                         \
    X(copysign,     2, NONE,         NULL,    NULL)                                         \
    X(nextafter,    2, NONE,         NULL,    NULL)                                         \
    X(heaviside,    2, NONE,         NULL,    NULL)                                         \
    X(ldexp,        2, NONE,         NULL,    NULL)                                          \
    X(divmod,       2, NONE,         NULL,    NULL)                                          \
    X(modf,         1, NONE,         NULL,    NULL)                                          \
    X(frexp,        1, NONE,         NULL,    NULL)                                          \
    X(exp,          1, NONE,         NULL,    NULL)                                          \
    X(exp2,         1, NONE,         NULL,    NULL)                                          \
    X(expm1,        1, NONE,         NULL,    NULL)                                          \
    X(log,          1, NONE,         NULL,    NULL)                                          \
    X(log2,         1, NONE,         NULL,    NULL)                                          \
    X(log10,        1, NONE,         NULL,    NULL)                                          \
    X(log1p,        1, NONE,         NULL,    NULL)                                          \
    X(sqrt,         1, NONE,         NULL,    NULL)                                          \
    X(cbrt,         1, NONE,         NULL,    NULL)                                          \
    X(sin,          1, NONE,         NULL,    NULL)                                          \
    X(cos,          1, NONE,         NULL,    NULL)                                          \
    X(tan,          1, NONE,         NULL,    NULL)                                          \
    X(arcsin,       1, NONE,         NULL,    NULL)                                          \
    X(arccos,       1, NONE,         NULL,    NULL)                                          \
    X(arctan,       1, NONE,         NULL,    NULL)                                          \
    X(sinh,         1, NONE,         NULL,    NULL)                                          \
    X(cosh,         1, NONE,         NULL,    NULL)                                          \
    X(tanh,         1, NONE,         NULL,    NULL)                                          \
    X(arcsinh,      1, NONE,         NULL,    NULL)                                          \
    X(arccosh,      1, NONE,         NULL,    NULL)                                          \
    X(arctanh,      1, NONE,         NULL,    NULL)                                          \
    X(arctan2,      2, NONE,         NULL,    NULL)                                          \
    X(hypot,        2, NONE,         "0",     NULL)                                          \
    X(logaddexp,    2, NONE,         "-inf",  NULL)                                          \
    X(logaddexp2,   2, NONE,         "-inf",  NULL)                                          \
    X(power,        2, NONE,         NULL,    NULL)                                          \
    X(float_power,  2, NONE,         NULL,    NULL)                                          \
    X(copy,         1, NONE,         NULL,    NULL)                                          \
    X(ones_like,    1, NONE,         NULL,    NULL)                                          \
    X(real,         1, NONE,         NULL,    NULL)                                          \
    X(imag,         1, NONE,         NULL,    NULL)                                          \
    X(make_complex, 2, NONE,         NULL,    NULL)
/* clang-format on */

/* NumPy's other names for some: X(alias, name). NumPy's radians and degrees are ufuncs of
 * their own, with deg2rad's and rad2deg's loops. */
#define CK__UFUNC_ALIASES(X)                                                                \
    X(abs, absolute) X(conj, conjugate) X(true_divide, divide) X(bitwise_not, invert)       \
    X(mod, remainder) X(radians, deg2rad) X(degrees, rad2deg)              \
    X(complex, make_complex)

/* The functions' and the loops' numbers. */
#define CK__UFUNC_ENUM(name, ...) CK__UFUNC_##name,
typedef enum ck__ufunc { CK__UFUNC_LIST(CK__UFUNC_ENUM) CK__UFUNC_NUM } ck__ufunc;
#undef CK__UFUNC_ENUM

#define CK__UFUNC_LOOP_ENUM(name, I, NIN, a, b, r) CK__UFLOOP_##name##__##a##_##b##__##r,
#define CK__UFUNC_LOOP_ENUMS(name, ...) CK__UFL_##name(CK__UFUNC_LOOP_ENUM)
typedef enum ck__ufunc_loop {
    CK__UFUNC_LIST(CK__UFUNC_LOOP_ENUMS) CK__UFUNC_NUM_LOOPS
} ck__ufunc_loop;
#undef CK__UFUNC_LOOP_ENUMS

/* The leaves of every loop (NULL entries for the ARITH and REFUSE ones), per compiled target:
 * ck__ufunc_leaves_<target>. */
typedef ck__leaf_fns ck__ufunc_table[CK__UFUNC_NUM_LOOPS];

/* Builds loop's leaf (a bare ck_prefix) at *offset from the table of the target kernels use
 * now and moves *offset past it; CK_ERR_INTERNAL for a loop without a leaf. */
int ck__make_ufunc_leaf(ck_builder *ckb, size_t *offset, ck__ufunc_loop loop, ck_request req);
/* Writes "floor float64 strided [avx2]" and returns 1 when fn is a leaf of a compiled
 * table, else returns 0. */
int ck__ufunc_leaf_describe(const void *fn, ck__strbuf *out);
/* CK__UF_JIT_WHEN(a, b, r)(M, args...) is M(args...) when every type is one the JIT passes
 * to a C function (`none`: no second operand), else nothing. */
#define CK__UF_JIT_OK_bool 0
#define CK__UF_JIT_OK_int8 0
#define CK__UF_JIT_OK_uint8 0
#define CK__UF_JIT_OK_int16 0
#define CK__UF_JIT_OK_uint16 0
#define CK__UF_JIT_OK_int32 1
#define CK__UF_JIT_OK_uint32 1
#define CK__UF_JIT_OK_int64 1
#define CK__UF_JIT_OK_uint64 1
#define CK__UF_JIT_OK_float16 0
#define CK__UF_JIT_OK_bfloat16 0
#define CK__UF_JIT_OK_float32 1
#define CK__UF_JIT_OK_float64 1
#define CK__UF_JIT_OK_complex64 0
#define CK__UF_JIT_OK_complex128 0
#define CK__UF_JIT_OK_none 1
#define CK__UF_JIT_AND_000 CK__UF_JIT_DROP
#define CK__UF_JIT_AND_001 CK__UF_JIT_DROP
#define CK__UF_JIT_AND_010 CK__UF_JIT_DROP
#define CK__UF_JIT_AND_011 CK__UF_JIT_DROP
#define CK__UF_JIT_AND_100 CK__UF_JIT_DROP
#define CK__UF_JIT_AND_101 CK__UF_JIT_DROP
#define CK__UF_JIT_AND_110 CK__UF_JIT_DROP
#define CK__UF_JIT_AND_111 CK__UF_JIT_KEEP
#define CK__UF_JIT_KEEP(M, ...) M(__VA_ARGS__)
#define CK__UF_JIT_DROP(M, ...)
#define CK__UF_JIT_WHEN__(x, y, z) CK__UF_JIT_AND_##x##y##z
#define CK__UF_JIT_WHEN_(x, y, z) CK__UF_JIT_WHEN__(x, y, z)
#define CK__UF_JIT_WHEN(a, b, r) CK__UF_JIT_WHEN_(CK__UF_JIT_OK_##a, CK__UF_JIT_OK_##b, CK__UF_JIT_OK_##r)

/* The JIT's direct calls (jit_scalars.c): the scalar function of a LEAF or VMATH loop over
 * 32/64-bit integers, float32 and float64, with the leaf's bits for each element, or NULL
 * (other types, CHECKED, ARITH and REFUSE loops). */
typedef void (*ck__ufunc_scalar_fn)(void);
ck__ufunc_scalar_fn ck__ufunc_scalar(ck__ufunc_loop loop);

/* The JIT's chunk calls of the LEAF and VMATH loops with a scalar function (ufunc.dispatch.c,
 * per compiled target: ck__ufunc_chunks_<target>): out[i] = f(x[i], y[i]) for i < n <=
 * CK__UFUNC_CHUNK, contiguous, out apart from x and y (y is x for one operand), each element
 * the leaf's bits; NULL for the other loops. */
#define CK__UFUNC_CHUNK 256
typedef void (*ck__ufunc_chunk_fn)(void *out, const void *x, const void *y, size_t n);
typedef ck__ufunc_chunk_fn ck__ufunc_chunk_table[CK__UFUNC_NUM_LOOPS];
/* The chunk call of loop for the target kernels are built for now, or NULL (ufunc.c). */
ck__ufunc_chunk_fn ck__ufunc_chunk(ck__ufunc_loop loop);

#ifdef __cplusplus
}
#endif

#endif
