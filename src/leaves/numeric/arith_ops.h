/* src/leaves/numeric/arith_ops.h: the element operations of the built-in arithmetic, as inline
 * functions ck__<op>_<type>(a, b) for op in add, subtract, multiply, trunc_divide, minimum,
 * maximum (of the arguments' type), logical_and, logical_or (a bool, 0 or 1), and
 * ck__zero_<type>(b), 1 when b makes an integer divide fail, shared by the files compiled
 * per CPU target that apply them: the arithmetic leaves (arith.dispatch.c) and the
 * reductions' fold and scan loops (reduce_ops.dispatch.c). Their semantics are described at
 * the top of arith.dispatch.c. Included only from *.dispatch.c files, after
 * targets/dispatch_target.h. */
#ifndef CKERNEL_ARITH_OPS_H
#define CKERNEL_ARITH_OPS_H

#include <math.h>
#include <stdint.h>

#include "common/float_formats.h"
#include "targets/dispatch_target.h"
#include "common/scalars.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    CK__HOT ck__ct_##T ck__trunc_divide_##T(ck__ct_##T a, ck__ct_##T b) {                          \
        if (SIGNED && b == (ck__ct_##T)-1) {                                                 \
            return (ck__ct_##T)((WT)0 - (WT)(UT)a);                                          \
        }                                                                                    \
        return (ck__ct_##T)(a / b);                                                          \
    }                                                                                        \
    CK__HOT int ck__zero_##T(ck__ct_##T b) {                                                 \
        return b == 0;                                                                       \
    }


/* bool: or and and of the truth values, and their quotient (b is true: a / 1). */
CK__HOT uint8_t ck__add_bool(uint8_t a, uint8_t b) {
    return (uint8_t)((a != 0) | (b != 0));
}
CK__HOT uint8_t ck__multiply_bool(uint8_t a, uint8_t b) {
    return (uint8_t)((a != 0) & (b != 0));
}
CK__HOT uint8_t ck__trunc_divide_bool(uint8_t a, uint8_t b) {
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
    CK__HOT ck__ct_##T ck__trunc_divide_##T(ck__ct_##T a, ck__ct_##T b) {                          \
        return a / b;                                                                        \
    }                                                                                        \
    CK__HOT int ck__zero_##T(ck__ct_##T b) {                                                 \
        (void)b;                                                                             \
        return 0;                                                                            \
    }

/* float16, bfloat16 (a float of 2-byte parts): in float32, rounded once to the type
 * (innocuous double rounding, see above). The conversions of common/float_formats.h are
 * branch-free, so these loops vectorize on every target. */
#define CK__DEF_NARROW_OP(OP, T, EXPR)                                                      \
    CK__HOT uint16_t ck__##OP##_##T(uint16_t a, uint16_t b) {                                \
        const float x = ck__widen_##T(a), y = ck__widen_##T(b);                              \
        return ck__narrow_##T(EXPR);                                                         \
    }
#define CK__DEF_NARROW_OPS(T)                                                               \
    CK__DEF_NARROW_OP(add, T, x + y)                                                         \
    CK__DEF_NARROW_OP(subtract, T, x - y)                                                    \
    CK__DEF_NARROW_OP(multiply, T, x * y)                                                    \
    CK__DEF_NARROW_OP(trunc_divide, T, x / y)                                                      \
    CK__HOT int ck__zero_##T(uint16_t b) {                                                   \
        (void)b;                                                                             \
        return 0;                                                                            \
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
    CK__HOT ck__ct_##T ck__trunc_divide_##T(ck__ct_##T a, ck__ct_##T b) {                          \
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


/* ---- minimum and maximum: NumPy 1.24's definitions, bit for bit ----
 * Integers: the smaller (larger) value. bool: and (or) of the truth values.
 * float32, float64: a NaN operand wins (the first of two), and of two equal values (0 and -0)
 * the second: (a < b || a is NaN) ? a : b, as NumPy's SIMD loops give on x86.
 * float16: compared as floats, the first of two equal values (NumPy's scalar loop uses <=);
 * the result is one of the operands' bits, never rounded.
 * complex: lexicographic, real part first; an operand with a NaN part wins (the first of
 * two): NumPy's CLE/CGE ordering, where a NaN imaginary part stops a decision by the real
 * parts alone. */
#define CK__DEF_INT_MINMAX(T)                                                               \
    CK__HOT ck__ct_##T ck__minimum_##T(ck__ct_##T a, ck__ct_##T b) {                         \
        return a < b ? a : b;                                                                \
    }                                                                                        \
    CK__HOT ck__ct_##T ck__maximum_##T(ck__ct_##T a, ck__ct_##T b) {                         \
        return a > b ? a : b;                                                                \
    }

CK__HOT uint8_t ck__minimum_bool(uint8_t a, uint8_t b) {
    return (uint8_t)((a != 0) & (b != 0));
}
CK__HOT uint8_t ck__maximum_bool(uint8_t a, uint8_t b) {
    return (uint8_t)((a != 0) | (b != 0));
}

#define CK__DEF_FLOAT_MINMAX(T)                                                             \
    CK__HOT ck__ct_##T ck__minimum_##T(ck__ct_##T a, ck__ct_##T b) {                         \
        return (a < b || a != a) ? a : b;                                                    \
    }                                                                                        \
    CK__HOT ck__ct_##T ck__maximum_##T(ck__ct_##T a, ck__ct_##T b) {                         \
        return (a > b || a != a) ? a : b;                                                    \
    }
/* float16 and bfloat16: compared as floats, the operand's bits returned. */
#define CK__DEF_NARROW_MINMAX(T)                                                            \
    CK__HOT uint16_t ck__minimum_##T(uint16_t a, uint16_t b) {                               \
        const float x = ck__widen_##T(a), y = ck__widen_##T(b);                              \
        return (x <= y || x != x) ? a : b;                                                   \
    }                                                                                        \
    CK__HOT uint16_t ck__maximum_##T(uint16_t a, uint16_t b) {                               \
        const float x = ck__widen_##T(a), y = ck__widen_##T(b);                              \
        return (x >= y || x != x) ? a : b;                                                   \
    }

#define CK__DEF_COMPLEX_MINMAX(T)                                                           \
    CK__HOT ck__ct_##T ck__minimum_##T(ck__ct_##T a, ck__ct_##T b) {                         \
        const int nan_a = a.v[0] != a.v[0] || a.v[1] != a.v[1];                              \
        const int nan_i = a.v[1] != a.v[1] || b.v[1] != b.v[1];                              \
        const int le = (a.v[0] < b.v[0] && !nan_i) || (a.v[0] == b.v[0] && a.v[1] <= b.v[1]); \
        return nan_a || le ? a : b;                                                          \
    }                                                                                        \
    CK__HOT ck__ct_##T ck__maximum_##T(ck__ct_##T a, ck__ct_##T b) {                         \
        const int nan_a = a.v[0] != a.v[0] || a.v[1] != a.v[1];                              \
        const int nan_i = a.v[1] != a.v[1] || b.v[1] != b.v[1];                              \
        const int ge = (a.v[0] > b.v[0] && !nan_i) || (a.v[0] == b.v[0] && a.v[1] >= b.v[1]); \
        return nan_a || ge ? a : b;                                                          \
    }

/* ---- logical_and, logical_or: of the truth values (x != 0; a NaN is true; a complex is
 * true when either part is), written as a bool 0 or 1 ---- */
CK__HOT int ck__truth_bool(uint8_t a) {
    return a != 0;
}
#define CK__DEF_TRUTH(T)                                                                \
    CK__HOT int ck__truth_##T(ck__ct_##T a) {                                                \
        return a != 0;                                                                       \
    }
#define CK__DEF_NARROW_TRUTH(T)                                                             \
    CK__HOT int ck__truth_##T(uint16_t a) {                                                  \
        return (a & 0x7fffu) != 0; /* every non-zero magnitude, NaN included */              \
    }
#define CK__DEF_COMPLEX_TRUTH(T)                                                            \
    CK__HOT int ck__truth_##T(ck__ct_##T a) {                                                \
        return a.v[0] != 0 || a.v[1] != 0;                                                   \
    }
#define CK__DEF_LOGICAL(T)                                                                  \
    CK__HOT uint8_t ck__logical_and_##T(ck__ct_##T a, ck__ct_##T b) {                        \
        return (uint8_t)(ck__truth_##T(a) & ck__truth_##T(b));                               \
    }                                                                                        \
    CK__HOT uint8_t ck__logical_or_##T(ck__ct_##T a, ck__ct_##T b) {                         \
        return (uint8_t)(ck__truth_##T(a) | ck__truth_##T(b));                               \
    }
CK__DEF_LOGICAL(bool)

/* ---- every row of the scalar table, by its kind (bool's are written out above) ----
 * Integers run in the unsigned type of their size, widened to unsigned int below 4 bytes;
 * a float of 2-byte parts (float16, bfloat16) is computed in float32. */
#define CK__WIDE_UINT_1 unsigned
#define CK__WIDE_UINT_2 unsigned
#define CK__WIDE_UINT_4 uint32_t
#define CK__WIDE_UINT_8 uint64_t
#define CK__OPS_BOOL(n, psize)
#define CK__OPS_INT(n, psize, SIGNED)                                                       \
    CK__DEF_INT_OPS(n, CK__SCALAR_UINT_##psize, CK__WIDE_UINT_##psize, SIGNED)               \
    CK__DEF_INT_MINMAX(n) CK__DEF_TRUTH(n) CK__DEF_LOGICAL(n)
#define CK__OPS_SIGNED(n, psize) CK__OPS_INT(n, psize, 1)
#define CK__OPS_UNSIGNED(n, psize) CK__OPS_INT(n, psize, 0)
#define CK__OPS_FLOAT(n, psize) CK__OPS_FLOAT_##psize(n) CK__DEF_LOGICAL(n)
#define CK__OPS_FLOAT_2(n) CK__DEF_NARROW_OPS(n) CK__DEF_NARROW_MINMAX(n) CK__DEF_NARROW_TRUTH(n)
#define CK__OPS_FLOAT_4(n) CK__DEF_FLOAT_OPS(n) CK__DEF_FLOAT_MINMAX(n) CK__DEF_TRUTH(n)
#define CK__OPS_FLOAT_8(n) CK__OPS_FLOAT_4(n)
#define CK__FABS_4 fabsf
#define CK__FABS_8 fabs
#define CK__OPS_COMPLEX(n, psize)                                                           \
    CK__DEF_COMPLEX_OPS(n, CK__SCALAR_FLOAT_##psize, CK__FABS_##psize)                       \
    CK__DEF_COMPLEX_MINMAX(n) CK__DEF_COMPLEX_TRUTH(n) CK__DEF_LOGICAL(n)
#define CK__OPS_ROW(E, n, part, psize, parts, kind, ...) CK__OPS_##kind(n, psize)
CK_SCALAR_TABLE(CK__OPS_ROW)

#ifdef __cplusplus
}
#endif

#endif
