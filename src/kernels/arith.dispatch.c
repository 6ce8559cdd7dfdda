/* src/kernels/arith.dispatch.c: the built-in arithmetic leaves, dst = src[0] op src[1] for
 * op in add, subtract, multiply, divide over operands of one scalar type, single and strided.
 *
 * Compiled once per CPU target with CK_CPU_TARGET_CURRENT defined (baseline, avx2, avx512),
 * like scalar_assign.dispatch.c: the one exported symbol is the table, spelled through
 * CK_TARGET_NAME (ck__arith_leaves_baseline, ck__arith_leaves_avx2, ...). No a*b+c is fused
 * into an FMA, so complex results are the same on every target and equal NumPy's
 * contiguous loops bit for bit (NumPy 1.24's strided complex128 multiply on AVX-512 fuses,
 * and differs from its own contiguous result in the last bits and overflows): the file is compiled with -ffp-contract=off (src/kernels/CMakeLists.txt), and the
 * complex products are made opaque to the vectorizer (CK__OPAQUE), which fuses them anyway.
 *
 * Semantics:
 *   int8..int64, uint8..uint64: add, subtract and multiply wrap modulo 2^n (computed in an
 *     unsigned type, so there is no signed overflow). divide truncates toward zero;
 *     INT_MIN / -1 wraps to INT_MIN (computed as 0 - a in unsigned, the trapping idiv never
 *     runs). A zero divisor is CK_ERR_ZERO_DIVISION: "divide: integer division by zero",
 *     and from a strided call "... at element <i>" (i counted within that call); the
 *     elements before it are written, the failing one and those after it are not.
 *   bool: add is logical or, multiply logical and (results 0 or 1; any non-zero byte is
 *     true). divide is the integer division of the truth values, written as int8 (0 or 1:
 *     the same bytes; a false divisor is CK_ERR_ZERO_DIVISION as for the integers). No
 *     subtract (NULL in the table; NumPy refuses it too).
 *   float32, float64: IEEE 754 in the type (round to nearest under the default MXCSR);
 *     division by zero gives ±inf or NaN, never a status.
 *   float16: both operands are widened to float32 (exact), the operation is done in float32
 *     and the result rounded to float16 (nearest, ties to even). That equals the correctly
 *     rounded float16 operation: float32's 24 bits are >= 2 * 11 + 2, so the double rounding
 *     is innocuous for + - * /.
 *   complex64, complex128 (real part first): add and subtract by parts; multiply is
 *     (ar*br - ai*bi, ar*bi + ai*br); divide is Smith's algorithm as NumPy's loops.c.src
 *     writes it: if |br| >= |bi| (then, when both are 0, re = ar/|br|, im = ai/|br|, which
 *     gives inf or NaN parts; else rat = bi/br, scl = 1/(br + bi*rat),
 *     re = (ar + ai*rat)*scl, im = (ai - ar*rat)*scl), otherwise (a NaN divisor part lands
 *     here too) rat = br/bi, scl = 1/(bi + br*rat), re = (ar*rat + ai)*scl,
 *     im = (ai*rat - ar)*scl. Arithmetic in the component type.
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
#include "kernels/dispatch_target.h"
#include "kernels/arith_leaves.h"

/* ---- element types ---- */
typedef uint8_t ck__ct_bool;
typedef int8_t ck__ct_int8;
typedef int16_t ck__ct_int16;
typedef int32_t ck__ct_int32;
typedef int64_t ck__ct_int64;
typedef uint8_t ck__ct_uint8;
typedef uint16_t ck__ct_uint16;
typedef uint32_t ck__ct_uint32;
typedef uint64_t ck__ct_uint64;
typedef uint16_t ck__ct_float16; /* the binary16 bits */
typedef float ck__ct_float32;
typedef double ck__ct_float64;
typedef ck__complex64 ck__ct_complex64;
typedef ck__complex128 ck__ct_complex128;

enum {
    ck__id_bool = CK_TYPE_BOOL,
    ck__id_int8 = CK_TYPE_INT8,
    ck__id_int16 = CK_TYPE_INT16,
    ck__id_int32 = CK_TYPE_INT32,
    ck__id_int64 = CK_TYPE_INT64,
    ck__id_uint8 = CK_TYPE_UINT8,
    ck__id_uint16 = CK_TYPE_UINT16,
    ck__id_uint32 = CK_TYPE_UINT32,
    ck__id_uint64 = CK_TYPE_UINT64,
    ck__id_float16 = CK_TYPE_FLOAT16,
    ck__id_float32 = CK_TYPE_FLOAT32,
    ck__id_float64 = CK_TYPE_FLOAT64,
    ck__id_complex64 = CK_TYPE_COMPLEX64,
    ck__id_complex128 = CK_TYPE_COMPLEX128
};

#define CK__OP_add CK__ARITH_ADD
#define CK__OP_subtract CK__ARITH_SUBTRACT
#define CK__OP_multiply CK__ARITH_MULTIPLY
#define CK__OP_divide CK__ARITH_DIVIDE

/* ======================================================================================
 * 1. Element operations: ck__<op>_<type>(a, b), and ck__zero_<type>(b), 1 when b makes an
 *    integer divide fail (only the integer divide leaves call it).
 * ====================================================================================== */

/* Integers: WT is the unsigned type the arithmetic runs in, at least unsigned int, so that
 * narrow operands are not promoted to (overflowing) int. Converting the unsigned result to a
 * narrower signed type wraps (gcc and clang define it as modulo 2^n). */
#define CK__DEF_INT_OPS(T, UT, WT, SIGNED)                                                  \
    CK__HOT ck__ct_##T ck__add_##T(ck__ct_##T a, ck__ct_##T b) {                             \
        return (ck__ct_##T)((WT)(UT)a + (WT)(UT)b);                                          \
    }                                                                                        \
    CK__HOT ck__ct_##T ck__subtract_##T(ck__ct_##T a, ck__ct_##T b) {                        \
        return (ck__ct_##T)((WT)(UT)a - (WT)(UT)b);                                          \
    }                                                                                        \
    CK__HOT ck__ct_##T ck__multiply_##T(ck__ct_##T a, ck__ct_##T b) {                        \
        return (ck__ct_##T)((WT)(UT)a * (WT)(UT)b);                                          \
    }                                                                                        \
    /* b != 0 (checked before); b == -1 negates in unsigned: INT_MIN / -1 is INT_MIN. */     \
    CK__HOT ck__ct_##T ck__divide_##T(ck__ct_##T a, ck__ct_##T b) {                          \
        if (SIGNED && b == (ck__ct_##T)-1) {                                                 \
            return (ck__ct_##T)((WT)0 - (WT)(UT)a);                                          \
        }                                                                                    \
        return (ck__ct_##T)(a / b);                                                          \
    }                                                                                        \
    CK__HOT int ck__zero_##T(ck__ct_##T b) {                                                 \
        return b == 0;                                                                       \
    }

CK__DEF_INT_OPS(int8, uint8_t, unsigned, 1)
CK__DEF_INT_OPS(int16, uint16_t, unsigned, 1)
CK__DEF_INT_OPS(int32, uint32_t, uint32_t, 1)
CK__DEF_INT_OPS(int64, uint64_t, uint64_t, 1)
CK__DEF_INT_OPS(uint8, uint8_t, unsigned, 0)
CK__DEF_INT_OPS(uint16, uint16_t, unsigned, 0)
CK__DEF_INT_OPS(uint32, uint32_t, uint32_t, 0)
CK__DEF_INT_OPS(uint64, uint64_t, uint64_t, 0)

/* bool: or and and of the truth values, and their quotient (b is true: a / 1). */
CK__HOT uint8_t ck__add_bool(uint8_t a, uint8_t b) {
    return (uint8_t)((a != 0) | (b != 0));
}
CK__HOT uint8_t ck__multiply_bool(uint8_t a, uint8_t b) {
    return (uint8_t)((a != 0) & (b != 0));
}
CK__HOT uint8_t ck__divide_bool(uint8_t a, uint8_t b) {
    (void)b;
    return (uint8_t)(a != 0);
}
CK__HOT int ck__zero_bool(uint8_t b) {
    return b == 0;
}

/* float32, float64: IEEE. */
#define CK__DEF_FLOAT_OPS(T)                                                                \
    CK__HOT ck__ct_##T ck__add_##T(ck__ct_##T a, ck__ct_##T b) {                             \
        return a + b;                                                                        \
    }                                                                                        \
    CK__HOT ck__ct_##T ck__subtract_##T(ck__ct_##T a, ck__ct_##T b) {                        \
        return a - b;                                                                        \
    }                                                                                        \
    CK__HOT ck__ct_##T ck__multiply_##T(ck__ct_##T a, ck__ct_##T b) {                        \
        return a * b;                                                                        \
    }                                                                                        \
    CK__HOT ck__ct_##T ck__divide_##T(ck__ct_##T a, ck__ct_##T b) {                          \
        return a / b;                                                                        \
    }                                                                                        \
    CK__HOT int ck__zero_##T(ck__ct_##T b) {                                                 \
        (void)b;                                                                             \
        return 0;                                                                            \
    }

CK__DEF_FLOAT_OPS(float32)
CK__DEF_FLOAT_OPS(float64)

/* float16: in float32, rounded once to float16 (innocuous double rounding, see above). The
 * conversions of float16.h are branch-free, so these loops vectorize on every target. */
#define CK__DEF_HALF_OP(OP, EXPR)                                                           \
    CK__HOT uint16_t ck__##OP##_float16(uint16_t a, uint16_t b) {                            \
        const float x = ck__half_to_float(a), y = ck__half_to_float(b);                      \
        return ck__float_to_half(EXPR);                                                      \
    }
CK__DEF_HALF_OP(add, x + y)
CK__DEF_HALF_OP(subtract, x - y)
CK__DEF_HALF_OP(multiply, x * y)
CK__DEF_HALF_OP(divide, x / y)
CK__HOT int ck__zero_float16(uint16_t b) {
    (void)b;
    return 0;
}

/* A value the optimizer cannot see through, so that no product next to it is fused with it
 * into an FMA. -ffp-contract=off alone does not do it: gcc 12's vectorizer still turns the
 * lanes (p - q, r + s) of two products into vfmaddsub (with -mno-fma too on avx512, whose
 * EVEX encoding has it), and the complex results would differ by target. The empty asm costs
 * nothing but keeps these loops scalar. */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#  define CK__OPAQUE(x) __asm__("" : "+x"(x))
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
#  define CK__OPAQUE(x) __asm__("" : "+w"(x))
#else
#  define CK__OPAQUE(x) ((void)0) /* -ffp-contract=off is all there is */
#endif

/* complex: FT is the component type, FABS its fabs. Every product that meets an addition is
 * made opaque first (CK__OPAQUE). */
#define CK__DEF_COMPLEX_OPS(T, FT, FABS)                                                    \
    CK__HOT ck__ct_##T ck__add_##T(ck__ct_##T a, ck__ct_##T b) {                             \
        ck__ct_##T r = {{a.v[0] + b.v[0], a.v[1] + b.v[1]}};                                 \
        return r;                                                                            \
    }                                                                                        \
    CK__HOT ck__ct_##T ck__subtract_##T(ck__ct_##T a, ck__ct_##T b) {                        \
        ck__ct_##T r = {{a.v[0] - b.v[0], a.v[1] - b.v[1]}};                                 \
        return r;                                                                            \
    }                                                                                        \
    CK__HOT ck__ct_##T ck__multiply_##T(ck__ct_##T a, ck__ct_##T b) {                        \
        const FT ar = a.v[0], ai = a.v[1], br = b.v[0], bi = b.v[1];                         \
        FT p = ar * br, q = ai * bi, u = ar * bi, w = ai * br;                               \
        CK__OPAQUE(p);                                                                       \
        CK__OPAQUE(q);                                                                       \
        CK__OPAQUE(u);                                                                       \
        CK__OPAQUE(w);                                                                       \
        ck__ct_##T r = {{p - q, u + w}};                                                     \
        return r;                                                                            \
    }                                                                                        \
    /* Smith's algorithm, as NumPy: no overflow of |b|^2, and a zero divisor divides each  \
     * part by +0 (inf or NaN parts). */                                                     \
    CK__HOT ck__ct_##T ck__divide_##T(ck__ct_##T a, ck__ct_##T b) {                          \
        const FT ar = a.v[0], ai = a.v[1], br = b.v[0], bi = b.v[1];                         \
        const FT abs_br = FABS(br), abs_bi = FABS(bi);                                       \
        ck__ct_##T r;                                                                        \
        if (abs_br >= abs_bi) {                                                              \
            if (abs_br == 0 && abs_bi == 0) {                                                \
                r.v[0] = ar / abs_br;                                                        \
                r.v[1] = ai / abs_br;                                                        \
            } else {                                                                         \
                const FT rat = bi / br;                                                      \
                FT t = bi * rat, u = ai * rat, w = ar * rat;                                 \
                CK__OPAQUE(t);                                                               \
                CK__OPAQUE(u);                                                               \
                CK__OPAQUE(w);                                                               \
                const FT scl = (FT)1 / (br + t);                                             \
                r.v[0] = (ar + u) * scl;                                                     \
                r.v[1] = (ai - w) * scl;                                                     \
            }                                                                                \
        } else {                                                                             \
            const FT rat = br / bi;                                                          \
            FT t = br * rat, u = ar * rat, w = ai * rat;                                     \
            CK__OPAQUE(t);                                                                   \
            CK__OPAQUE(u);                                                                   \
            CK__OPAQUE(w);                                                                   \
            const FT scl = (FT)1 / (bi + t);                                                 \
            r.v[0] = (u + ai) * scl;                                                         \
            r.v[1] = (w - ar) * scl;                                                         \
        }                                                                                    \
        return r;                                                                            \
    }                                                                                        \
    CK__HOT int ck__zero_##T(ck__ct_##T b) {                                                 \
        (void)b;                                                                             \
        return 0;                                                                            \
    }

CK__DEF_COMPLEX_OPS(complex64, float, fabsf)
CK__DEF_COMPLEX_OPS(complex128, double, fabs)

/* ======================================================================================
 * 2. float16 in whole vectors: F16C (8 lanes) or AVX-512 (16 lanes) conversions around the
 *    float32 operation. Equal to the scalar path bit for bit (vcvtps2ph rounds to nearest
 *    even whatever MXCSR says, and treats NaNs as float16.h does).
 * ====================================================================================== */
#if CK__HAVE_AVX512 || CK__HAVE_F16C
#  define CK__F16_RNE (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#  if CK__HAVE_AVX512
#    define CK__F16_LANES 16
typedef __m512 ck__vf;
CK__HOT ck__vf ck__vf_load_half(const uint16_t *p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(const void *)p));
}
CK__HOT void ck__vf_store_half(uint16_t *p, ck__vf v) {
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtps_ph(v, CK__F16_RNE));
}
CK__HOT ck__vf ck__vf_set1(float x) {
    return _mm512_set1_ps(x);
}
CK__HOT ck__vf ck__vf_op(ck__arith_op op, ck__vf x, ck__vf y) {
    switch (op) {
    case CK__ARITH_ADD: return _mm512_add_ps(x, y);
    case CK__ARITH_SUBTRACT: return _mm512_sub_ps(x, y);
    case CK__ARITH_MULTIPLY: return _mm512_mul_ps(x, y);
    default: return _mm512_div_ps(x, y);
    }
}
#  else
#    define CK__F16_LANES 8
typedef __m256 ck__vf;
CK__HOT ck__vf ck__vf_load_half(const uint16_t *p) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(const void *)p));
}
CK__HOT void ck__vf_store_half(uint16_t *p, ck__vf v) {
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_cvtps_ph(v, CK__F16_RNE));
}
CK__HOT ck__vf ck__vf_set1(float x) {
    return _mm256_set1_ps(x);
}
CK__HOT ck__vf ck__vf_op(ck__arith_op op, ck__vf x, ck__vf y) {
    switch (op) {
    case CK__ARITH_ADD: return _mm256_add_ps(x, y);
    case CK__ARITH_SUBTRACT: return _mm256_sub_ps(x, y);
    case CK__ARITH_MULTIPLY: return _mm256_mul_ps(x, y);
    default: return _mm256_div_ps(x, y);
    }
}
#  endif
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
#if CK__HAVE_AVX512 || CK__HAVE_F16C
    if (id == CK_TYPE_FLOAT16) {
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
    return ck_set_error(CK_ERR_ZERO_DIVISION, "divide: integer division by zero");
}
static CK__COLD int ck__zero_division_at(size_t i) {
    return ck_set_error(CK_ERR_ZERO_DIVISION, "divide: integer division by zero at element %zu",
                        i);
}

/* CHECKED (a constant) is 1 for the integer divide leaves only. The fast paths index by
 * i * step, step 0 or 1, so a broadcast operand is a loop invariant. */
#define CK__DEF_LEAF(OP, T, CHECKED)                                                        \
    static int ck__##OP##_##T##_single(ck_prefix *self, char *dst, char *const *src) {       \
        (void)self;                                                                          \
        const ck__ct_##T a = *(const ck__ct_##T *)(const void *)src[0];                      \
        const ck__ct_##T b = *(const ck__ct_##T *)(const void *)src[1];                      \
        if (CHECKED && CK_UNLIKELY(ck__zero_##T(b))) {                                       \
            return ck__zero_division();                                                      \
        }                                                                                    \
        *(ck__ct_##T *)(void *)dst = ck__##OP##_##T(a, b);                                   \
        return CK_OK;                                                                        \
    }                                                                                        \
    CK__HOT int ck__##OP##_##T##_fast(ck__ct_##T *d, const ck__ct_##T *a, size_t as,         \
                                      const ck__ct_##T *b, size_t bs, size_t n) {            \
        size_t i = ck__vector_head(ck__id_##T, CK__OP_##OP, d, a, as, b, bs, n);             \
        for (; i < n; i++) {                                                                 \
            if (CHECKED && CK_UNLIKELY(ck__zero_##T(b[i * bs]))) {                           \
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
        if (dst_stride == es && (as == es || as == 0) && (bs == es || bs == 0) &&            \
            !(as == 0 && bs == 0)) {                                                         \
            ck__ct_##T *d = (ck__ct_##T *)(void *)dst;                                       \
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
            if (CHECKED && CK_UNLIKELY(ck__zero_##T(vb))) {                                  \
                return ck__zero_division_at(i);                                              \
            }                                                                                \
            *(ck__ct_##T *)(void *)dst = ck__##OP##_##T(*(const ck__ct_##T *)(const void *)a, \
                                                        vb);                                 \
        }                                                                                    \
        return CK_OK;                                                                        \
    }

#define CK__DEF_FOUR(T, CHECKED_DIVIDE)                                                     \
    CK__DEF_LEAF(add, T, 0)                                                                  \
    CK__DEF_LEAF(subtract, T, 0)                                                             \
    CK__DEF_LEAF(multiply, T, 0)                                                             \
    CK__DEF_LEAF(divide, T, CHECKED_DIVIDE)

CK__DEF_LEAF(add, bool, 0)
CK__DEF_LEAF(multiply, bool, 0)
CK__DEF_LEAF(divide, bool, 1)
CK__DEF_FOUR(int8, 1)
CK__DEF_FOUR(int16, 1)
CK__DEF_FOUR(int32, 1)
CK__DEF_FOUR(int64, 1)
CK__DEF_FOUR(uint8, 1)
CK__DEF_FOUR(uint16, 1)
CK__DEF_FOUR(uint32, 1)
CK__DEF_FOUR(uint64, 1)
CK__DEF_FOUR(float16, 0)
CK__DEF_FOUR(float32, 0)
CK__DEF_FOUR(float64, 0)
CK__DEF_FOUR(complex64, 0)
CK__DEF_FOUR(complex128, 0)

/* ---- the table ---- */
#define CK__E(OP, T) [ck__id_##T] = {ck__##OP##_##T##_single, ck__##OP##_##T##_strided}
#define CK__NUMERIC(OP)                                                                     \
    CK__E(OP, int8), CK__E(OP, int16), CK__E(OP, int32), CK__E(OP, int64), CK__E(OP, uint8), \
        CK__E(OP, uint16), CK__E(OP, uint32), CK__E(OP, uint64), CK__E(OP, float16),         \
        CK__E(OP, float32), CK__E(OP, float64), CK__E(OP, complex64), CK__E(OP, complex128)

const ck__arith_table CK_TARGET_NAME(ck__arith_leaves) = {
    [CK__ARITH_ADD] = {CK__E(add, bool), CK__NUMERIC(add)},
    [CK__ARITH_SUBTRACT] = {CK__NUMERIC(subtract)},
    [CK__ARITH_MULTIPLY] = {CK__E(multiply, bool), CK__NUMERIC(multiply)},
    [CK__ARITH_DIVIDE] = {CK__E(divide, bool), CK__NUMERIC(divide)},
};
