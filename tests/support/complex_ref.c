/* tests/support/complex_ref.c: see complex_ref.h. One rounding per operation, in statement
 * order: every intermediate is a volatile of the type, and the file is compiled with
 * -ffp-contract=off (tests/support/CMakeLists.txt). Both are needed: GCC 12's SLP vectorizer,
 * given FMA instructions (-mfma, -march=native), turns the plain multiply into a fused
 * multiply-add-subtract (vfmaddsub) even under -ffp-contract=off; the volatiles stop that. */
#include "complex_ref.h"

#include <math.h>

#define CKT_COMPLEX_MUL(NAME, FT)                                                            \
    void NAME(const FT *a, const FT *b, FT *r) {                                             \
        const FT ar = a[0], ai = a[1], br = b[0], bi = b[1];                                 \
        volatile FT p = ar * br;                                                             \
        volatile FT q = ai * bi;                                                             \
        volatile FT u = ar * bi;                                                             \
        volatile FT w = ai * br;                                                             \
        r[0] = p - q;                                                                        \
        r[1] = u + w;                                                                        \
    }

#define CKT_COMPLEX_DIV(NAME, FT, FABS)                                                      \
    void NAME(const FT *a, const FT *b, FT *r) {                                             \
        const FT ar = a[0], ai = a[1], br = b[0], bi = b[1];                                 \
        const FT abs_br = FABS(br), abs_bi = FABS(bi);                                       \
        if (abs_br >= abs_bi) {                                                              \
            if (abs_br == 0 && abs_bi == 0) {                                                \
                r[0] = ar / abs_br;                                                          \
                r[1] = ai / abs_br;                                                          \
            } else {                                                                         \
                volatile FT rat = bi / br;                                                   \
                volatile FT t = bi * rat;                                                    \
                volatile FT scl = (FT)1 / (br + t);                                          \
                volatile FT u = ai * rat;                                                    \
                volatile FT w = ar * rat;                                                    \
                volatile FT re = ar + u;                                                     \
                volatile FT im = ai - w;                                                     \
                r[0] = re * scl;                                                             \
                r[1] = im * scl;                                                             \
            }                                                                                \
        } else {                                                                             \
            volatile FT rat = br / bi;                                                       \
            volatile FT t = br * rat;                                                        \
            volatile FT scl = (FT)1 / (bi + t);                                              \
            volatile FT u = ar * rat;                                                        \
            volatile FT w = ai * rat;                                                        \
            volatile FT re = u + ai;                                                         \
            volatile FT im = w - ar;                                                         \
            r[0] = re * scl;                                                                 \
            r[1] = im * scl;                                                                 \
        }                                                                                    \
    }

CKT_COMPLEX_MUL(ckt_complex_mul_f, float)
CKT_COMPLEX_MUL(ckt_complex_mul_d, double)
CKT_COMPLEX_DIV(ckt_complex_div_f, float, fabsf)
CKT_COMPLEX_DIV(ckt_complex_div_d, double, fabs)
