/* src/leaves/numeric/arith.dispatch.c: the built-in arithmetic leaves, dst = src[0] op src[1] for
 * op in add, subtract, multiply, trunc_divide, minimum, maximum, logical_and, logical_or over
 * operands of one scalar type, single and strided.
 *
 * Compiled once per CPU target with CK_CPU_TARGET_CURRENT defined (baseline, avx2, avx512),
 * like scalar_assign.dispatch.c: the one exported symbol is the table, spelled through
 * CK_TARGET_NAME (ck__arith_leaves_baseline, ck__arith_leaves_avx2, ...). No a*b+c is fused
 * into an FMA, so complex results are the same on every target and equal NumPy's
 * contiguous loops bit for bit (NumPy 1.24's strided complex128 multiply on AVX-512 fuses,
 * and differs from its own contiguous result in the last bits and overflows): the file is compiled with -ffp-contract=off (src/leaves/numeric/CMakeLists.txt), and the
 * complex products are made opaque to the vectorizer (CK__OPAQUE), which fuses them anyway.
 *
 * Semantics:
 *   int8..int64, uint8..uint64: add, subtract and multiply wrap modulo 2^n (computed in an
 *     unsigned type, so there is no signed overflow). trunc_divide truncates toward zero;
 *     INT_MIN / -1 wraps to INT_MIN (computed as 0 - a in unsigned, the trapping idiv never
 *     runs). A zero divisor is CK_ERR_ZERO_DIVISION: "trunc_divide: integer division by zero",
 *     and from a strided call "... at element [i]" (a located error: the loops above add
 *     their indices, chunked kernels their offsets); the
 *     elements before it are written, the failing one and those after it are not.
 *   bool: add is logical or, multiply logical and (results 0 or 1; any non-zero byte is
 *     true). trunc_divide is the integer division of the truth values, written as int8 (0 or 1:
 *     the same bytes; a false divisor is CK_ERR_ZERO_DIVISION as for the integers). No
 *     subtract (NULL in the table; NumPy refuses it too).
 *   float32, float64: IEEE 754 in the type (round to nearest under the default MXCSR);
 *     division by zero gives ±inf or NaN, never a status.
 *   float16: both operands are widened to float32 (exact), the operation is done in float32
 *     and the result rounded to float16 (nearest, ties to even). That equals the correctly
 *     rounded float16 operation: float32's 24 bits are >= 2 * 11 + 2, so the double rounding
 *     is innocuous for + - * /.
 *   complex64, complex128 (real part first): add and subtract by parts; multiply is
 *     (ar*br - ai*bi, ar*bi + ai*br); trunc_divide is Smith's algorithm as NumPy's loops.c.src
 *     writes it: if |br| >= |bi| (then, when both are 0, re = ar/|br|, im = ai/|br|, which
 *     gives inf or NaN parts; else rat = bi/br, scl = 1/(br + bi*rat),
 *     re = (ar + ai*rat)*scl, im = (ai - ar*rat)*scl), otherwise (a NaN divisor part lands
 *     here too) rat = br/bi, scl = 1/(bi + br*rat), re = (ar*rat + ai)*scl,
 *     im = (ai*rat - ar)*scl. Arithmetic in the component type.
 *   minimum, maximum (every type, the result of the operands' type) and logical_and,
 *     logical_or (every type, a bool result): NumPy 1.24's definitions, leaves/numeric/arith_ops.h.
 *   The comparisons equal ... greater_equal (every type, a bool result; a second table,
 *     ck__compare_leaves_<target>, compare_leaves.h): NumPy 1.24's, leaves/numeric/compare_ops.h.
 *
 * Leaf loops: the strided function has a fast path for contiguous operands (all three
 * strides equal to the element size), one for each broadcast source (that source's stride
 * 0, the others contiguous), and the general loop (any strides, negative included). The fast
 * paths are one loop, indexed by i * step with the step a constant 0 or 1, which the
 * compiler vectorizes with the target's -march; float16 runs them through F16C (avx2) or
 * AVX-512 conversions in whole vectors first. The integer divide-by-zero test exists only in
 * the integer divide leaves (a compile-time flag), and its message is formatted by a cold
 * function, so the other loops carry no check. Leaves assume aligned elements. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/float16.h"
#include "common/internal.h"
#include "targets/dispatch_target.h"
#include "leaves/simd/simd.h"
#include "leaves/numeric/arith_leaves.h"
#include "leaves/numeric/arith_ops.h"
#include "leaves/numeric/compare_leaves.h"
#include "leaves/numeric/compare_ops.h"

/* CK__OP_<name>: a leaf's operation by its name, for the float16 vectors. The comparisons
 * (compare_leaves.h) share the loops; they have no float16 vectors. */
#define CK__OP_BY_NAME(A, name, E, ...) CK__OP_##name = CK__ARITH_##E,
enum {
    CK__ARITH_LIST(CK__OP_BY_NAME, ~)
    CK__OP_equal = CK__ARITH_NUM_OPS,
    CK__OP_not_equal = CK__ARITH_NUM_OPS,
    CK__OP_less = CK__ARITH_NUM_OPS,
    CK__OP_less_equal = CK__ARITH_NUM_OPS,
    CK__OP_greater = CK__ARITH_NUM_OPS,
    CK__OP_greater_equal = CK__ARITH_NUM_OPS
};
#undef CK__OP_BY_NAME

/* 1. Element operations: leaves/numeric/arith_ops.h. */

/* ======================================================================================
 * 2. float16 in whole vectors: F16C (8 lanes) or AVX-512 (16 lanes) conversions around the
 *    float32 operation (the vectors: leaves/simd/). Equal to the scalar path bit for bit
 *    (vcvtps2ph rounds to nearest even whatever MXCSR says, and treats NaNs as float16.h
 *    does).
 * ====================================================================================== */
#ifdef CK__SIMD_HALF_VECTORS
CK__HOT ck__vf ck__vf_op(ck__arith_op op, ck__vf x, ck__vf y) {
    switch (op) {
    case CK__ARITH_ADD: return ck__vf_add(x, y);
    case CK__ARITH_SUBTRACT: return ck__vf_sub(x, y);
    case CK__ARITH_MULTIPLY: return ck__vf_mul(x, y);
    default: return ck__vf_div(x, y);
    }
}
/* Whole vectors of a fast path (steps 0 or 1); returns how many elements it did. */
CK__HOT size_t ck__half_vectors(ck__arith_op op, uint16_t *d, const uint16_t *a, size_t as,
                                const uint16_t *b, size_t bs, size_t n) {
    size_t i = 0;
    ck__vf va = ck__vf_set1(ck__half_to_float(n > 0 ? a[0] : 0));
    ck__vf vb = ck__vf_set1(ck__half_to_float(n > 0 ? b[0] : 0));
    for (; i + CK__F16_LANES <= n; i += CK__F16_LANES) {
        if (as != 0) {
            va = ck__vf_load_half(a + i);
        }
        if (bs != 0) {
            vb = ck__vf_load_half(b + i);
        }
        ck__vf_store_half(d + i, ck__vf_op(op, va, vb));
    }
    return i;
}
#endif

/* The elements a fast path does before its element loop: float16 vectors where this target
 * has them, else none. Called with constants: it folds to 0 for the other types. */
CK__HOT size_t ck__vector_head(int id, ck__arith_op op, void *d, const void *a, size_t as,
                               const void *b, size_t bs, size_t n) {
#ifdef CK__SIMD_HALF_VECTORS
    /* Only the four arithmetic operations compute in float32; the others select. */
    if (id == CK_TYPE_FLOAT16 && op <= CK__ARITH_TRUNC_DIVIDE) {
        return ck__half_vectors(op, (uint16_t *)d, (const uint16_t *)a, as,
                                (const uint16_t *)b, bs, n);
    }
#endif
    (void)id, (void)op, (void)d, (void)a, (void)as, (void)b, (void)bs, (void)n;
    return 0;
}

/* ======================================================================================
 * 3. The leaves.
 * ====================================================================================== */

/* Cold: the hot loops only branch here. */
static CK__COLD int ck__zero_division(void) {
    return ck__set_located_error(CK_ERR_ZERO_DIVISION, NULL, 0,
                                 "trunc_divide: integer division by zero");
}
static CK__COLD int ck__zero_division_at(size_t i) {
    const int rc = ck__set_located_error(CK_ERR_ZERO_DIVISION, NULL, 0,
                                         "trunc_divide: integer division by zero");
    ck__error_at(rc, (intptr_t)i);
    return rc;
}

/* RT is the result's type (T, or bool for the logical operations); CHECKED (a constant) is 1
 * for the integer divide leaves only. The fast paths index by i * step, step 0 or 1, so a
 * broadcast operand is a loop invariant. */
#define CK__DEF_LEAF_R(OP, T, RT, CHECKED)                                                  \
    static int ck__##OP##_##T##_single(ck_prefix *self, char *dst, char *const *src) {       \
        (void)self;                                                                          \
        const ck__ct_##T a = *(const ck__ct_##T *)(const void *)src[0];                      \
        const ck__ct_##T b = *(const ck__ct_##T *)(const void *)src[1];                      \
        if (CHECKED && CK__UNLIKELY(ck__zero_##T(b))) {                                       \
            return ck__zero_division();                                                      \
        }                                                                                    \
        *(ck__ct_##RT *)(void *)dst = ck__##OP##_##T(a, b);                                  \
        return CK_OK;                                                                        \
    }                                                                                        \
    CK__HOT int ck__##OP##_##T##_fast(ck__ct_##RT *d, const ck__ct_##T *a, size_t as,        \
                                      const ck__ct_##T *b, size_t bs, size_t n) {            \
        size_t i =                                                                           \
            ck__vector_head(ck__id_##T, (ck__arith_op)CK__OP_##OP, d, a, as, b, bs, n);      \
        for (; i < n; i++) {                                                                 \
            if (CHECKED && CK__UNLIKELY(ck__zero_##T(b[i * bs]))) {                           \
                return ck__zero_division_at(i);                                              \
            }                                                                                \
            d[i] = ck__##OP##_##T(a[i * as], b[i * bs]);                                     \
        }                                                                                    \
        return CK_OK;                                                                        \
    }                                                                                        \
    static CK__KERNEL_ALIGN int ck__##OP##_##T##_strided(ck_prefix *self, char *dst, intptr_t dst_stride,     \
                                        char *const *src, const intptr_t *src_stride,        \
                                        size_t count) {                                      \
        (void)self;                                                                          \
        const intptr_t es = (intptr_t)sizeof(ck__ct_##T);                                    \
        const char *a = src[0], *b = src[1];                                                 \
        const intptr_t as = src_stride[0], bs = src_stride[1];                               \
        if (dst_stride == (intptr_t)sizeof(ck__ct_##RT) && (as == es || as == 0) &&          \
            (bs == es || bs == 0) &&                                                         \
            !(as == 0 && bs == 0)) {                                                         \
            ck__ct_##RT *d = (ck__ct_##RT *)(void *)dst;                                     \
            const ck__ct_##T *pa = (const ck__ct_##T *)(const void *)a;                      \
            const ck__ct_##T *pb = (const ck__ct_##T *)(const void *)b;                      \
            if (as == 0) {                                                                   \
                return ck__##OP##_##T##_fast(d, pa, 0, pb, 1, count);                        \
            }                                                                                \
            if (bs == 0) {                                                                   \
                return ck__##OP##_##T##_fast(d, pa, 1, pb, 0, count);                        \
            }                                                                                \
            return ck__##OP##_##T##_fast(d, pa, 1, pb, 1, count);                            \
        }                                                                                    \
        for (size_t i = 0; i < count; i++, dst += dst_stride, a += as, b += bs) {            \
            const ck__ct_##T vb = *(const ck__ct_##T *)(const void *)b;                      \
            if (CHECKED && CK__UNLIKELY(ck__zero_##T(vb))) {                                  \
                return ck__zero_division_at(i);                                              \
            }                                                                                \
            *(ck__ct_##RT *)(void *)dst =                                                    \
                ck__##OP##_##T(*(const ck__ct_##T *)(const void *)a, vb);                    \
        }                                                                                    \
        return CK_OK;                                                                        \
    }

#define CK__DEF_LEAF(OP, T, CHECKED) CK__DEF_LEAF_R(OP, T, T, CHECKED)

/* Every row of CK__ARITH_LIST for every scalar type: its result the operands' type or bool
 * (RET); bool only where the row gives it a leaf (BOOL_RET), its result bits bool's (trunc_divide's
 * int8 of 0 or 1 is the same byte); integers check a zero divisor where the row says so. */
#define CK__ARITH_RT_SAME(T) T
#define CK__ARITH_RT_BOOL(T) bool
#define CK__ARITH_DEF_BOOL_NONE(name, CHK)
#define CK__ARITH_DEF_BOOL_bool(name, CHK) CK__DEF_LEAF_R(name, bool, bool, CHK)
#define CK__ARITH_DEF_BOOL_int8(name, CHK) CK__DEF_LEAF_R(name, bool, bool, CHK)
#define CK__ARITH_DEF_BOOL(T, name, E, BR, RET, CHK, JIT) CK__ARITH_DEF_BOOL_##BR(name, CHK)
#define CK__DEF_LEAF_RX(OP, T, RT, CHECKED) CK__DEF_LEAF_R(OP, T, RT, CHECKED) /* RT expanded */
#define CK__ARITH_DEF_INT(T, name, E, BR, RET, CHK, JIT)                                \
    CK__DEF_LEAF_RX(name, T, CK__ARITH_RT_##RET(T), CHK)
#define CK__ARITH_DEF_REAL(T, name, E, BR, RET, CHK, JIT)                               \
    CK__DEF_LEAF_RX(name, T, CK__ARITH_RT_##RET(T), 0)
#define CK__ARITH_DEFS_BOOL(n) CK__ARITH_LIST(CK__ARITH_DEF_BOOL, n)
#define CK__ARITH_DEFS_SIGNED(n) CK__ARITH_LIST(CK__ARITH_DEF_INT, n)
#define CK__ARITH_DEFS_UNSIGNED(n) CK__ARITH_LIST(CK__ARITH_DEF_INT, n)
#define CK__ARITH_DEFS_FLOAT(n) CK__ARITH_LIST(CK__ARITH_DEF_REAL, n)
#define CK__ARITH_DEFS_COMPLEX(n) CK__ARITH_LIST(CK__ARITH_DEF_REAL, n)
#define CK__ARITH_DEFS_ROW(E, n, part, psize, parts, kind, ...) CK__ARITH_DEFS_##kind(n)
CK_SCALAR_TABLE(CK__ARITH_DEFS_ROW)

/* The comparisons of every type, a bool result (compare_ops.h). */
#define CK__DEF_COMPARE(T)                                                                  \
    CK__DEF_LEAF_R(equal, T, bool, 0)                                                        \
    CK__DEF_LEAF_R(not_equal, T, bool, 0)                                                    \
    CK__DEF_LEAF_R(less, T, bool, 0)                                                         \
    CK__DEF_LEAF_R(less_equal, T, bool, 0)                                                   \
    CK__DEF_LEAF_R(greater, T, bool, 0)                                                      \
    CK__DEF_LEAF_R(greater_equal, T, bool, 0)
#define CK__COMPARE_LEAF_ROW(E, n, ...) CK__DEF_COMPARE(n)
CK_SCALAR_TABLE(CK__COMPARE_LEAF_ROW)

/* ---- the tables ---- */
#define CK__E(OP, T) [ck__id_##T] = {ck__##OP##_##T##_single, ck__##OP##_##T##_strided}
/* Every row but bool's (whose entries are written out where it has the operation). */
#define CK__NUMERIC_BOOL(OP, n)
#define CK__NUMERIC_SIGNED(OP, n) CK__E(OP, n),
#define CK__NUMERIC_UNSIGNED(OP, n) CK__E(OP, n),
#define CK__NUMERIC_FLOAT(OP, n) CK__E(OP, n),
#define CK__NUMERIC_COMPLEX(OP, n) CK__E(OP, n),
#define CK__NUMERIC_ROW(OP, E, n, part, psize, parts, kind, ...) CK__NUMERIC_##kind(OP, n)
#define CK__NUMERIC(OP) CK_SCALAR_TABLE_WITH(CK__NUMERIC_ROW, OP)

#define CK__ARITH_BOOL_ENTRY_NONE(name)
#define CK__ARITH_BOOL_ENTRY_bool(name) CK__E(name, bool),
#define CK__ARITH_BOOL_ENTRY_int8(name) CK__E(name, bool),
#define CK__ARITH_TABLE_ROW(A, name, E, BR, ...)                                            \
    [CK__ARITH_##E] = {CK__ARITH_BOOL_ENTRY_##BR(name) CK__NUMERIC(name)},
const ck__arith_table CK_TARGET_NAME(ck__arith_leaves) = {CK__ARITH_LIST(CK__ARITH_TABLE_ROW, ~)};

const ck__compare_table CK_TARGET_NAME(ck__compare_leaves) = {
    [CK__COMPARE_EQUAL] = {CK__E(equal, bool), CK__NUMERIC(equal)},
    [CK__COMPARE_NOT_EQUAL] = {CK__E(not_equal, bool), CK__NUMERIC(not_equal)},
    [CK__COMPARE_LESS] = {CK__E(less, bool), CK__NUMERIC(less)},
    [CK__COMPARE_LESS_EQUAL] = {CK__E(less_equal, bool), CK__NUMERIC(less_equal)},
    [CK__COMPARE_GREATER] = {CK__E(greater, bool), CK__NUMERIC(greater)},
    [CK__COMPARE_GREATER_EQUAL] = {CK__E(greater_equal, bool), CK__NUMERIC(greater_equal)},
};
