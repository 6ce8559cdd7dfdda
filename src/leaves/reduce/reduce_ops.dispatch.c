/* src/leaves/reduce/reduce_ops.dispatch.c: the accumulate and scan leaves of the built-in reducing
 * operations (leaves/reduce/reduce_ops.h says what they compute), compiled once per CPU target like
 * arith.dispatch.c, with the element operations of leaves/numeric/arith_ops.h.
 *
 * The fold of a float or complex run has its association written out in C (lanes, blocks,
 * a binary-counter tree over the blocks, the lanes halved at the end), and the file is
 * compiled without FMA contraction (src/leaves/reduce/CMakeLists.txt): the compiler may vectorize
 * the lanes but not reassociate them, so every target computes the same bits. float16 folds
 * in float32 lanes and rounds once, into the accumulator. Integer and bool folds run in
 * order; their results do not depend on it. Leaves assume aligned elements. */
#include <stdint.h>
#include <string.h>

#include "common/float_formats.h"
#include "common/internal.h"
#include "targets/dispatch_target.h"
#include "leaves/simd/simd.h"
#include "leaves/numeric/arith_ops.h"
#include "leaves/reduce/reduce_ops.h"

/* The tree's stack holds at most 41 partial results (CK__FOLD_MAX_BLOCKS, reduce_ops.h; 5.1
 * KiB of lanes: within the 8 KiB of stack a kernel call may use). */
#define CK__FOLD_DEPTH 41

/* ---- 1. The in-place elementwise form: dst[i] = op(dst[i], src[i]) ---- */
#define CK__DEF_INPLACE(OP, T)                                                              \
    CK__HOT void ck__inplace_##OP##_##T(char *dst, intptr_t ds, const char *x, intptr_t xs,  \
                                        size_t n) {                                          \
        const intptr_t es = (intptr_t)sizeof(ck__ct_##T);                                    \
        if (ds == es && xs == es) {                                                          \
            ck__ct_##T *d = (ck__ct_##T *)(void *)dst;                                       \
            const ck__ct_##T *s = (const ck__ct_##T *)(const void *)x;                       \
            for (size_t i = 0; i < n; i++) {                                                 \
                d[i] = ck__##OP##_##T(d[i], s[i]);                                           \
            }                                                                                \
            return;                                                                          \
        }                                                                                    \
        for (size_t i = 0; i < n; i++, dst += ds, x += xs) {                                 \
            ck__ct_##T *d = (ck__ct_##T *)(void *)dst;                                       \
            *d = ck__##OP##_##T(*d, *(const ck__ct_##T *)(const void *)x);                   \
        }                                                                                    \
    }

/* ---- 1b. The rows form (reduce_ops.h): four rows a pass, each element's operations in the
 * in-place form's order (a sum over axis 0 of 1000 x 10000 float64: 0.51-0.60 -> 0.29-0.31 ns
 * per element on a Zen 4 EPYC, the accumulators' loads and stores a quarter as many) ---- */
#define CK__DEF_ROWS(OP, T)                                                                 \
    static void ck__rows_##OP##_##T(char *dst, const char *x, intptr_t rs, size_t rows,      \
                                     size_t n) {                                             \
        typedef ck__ct_##T ck__e;                                                            \
        ck__e *d = (ck__e *)(void *)dst;                                                     \
        size_t r = 0;                                                                        \
        for (; r + 4 <= rows; r += 4) {                                                      \
            const char *p = x + (intptr_t)r * rs;                                            \
            const ck__e *a = (const ck__e *)(const void *)p;                                 \
            const ck__e *b = (const ck__e *)(const void *)(p + rs);                          \
            const ck__e *c = (const ck__e *)(const void *)(p + 2 * rs);                      \
            const ck__e *e = (const ck__e *)(const void *)(p + 3 * rs);                      \
            for (size_t i = 0; i < n; i++) {                                                 \
                d[i] = ck__##OP##_##T(                                                       \
                    ck__##OP##_##T(ck__##OP##_##T(ck__##OP##_##T(d[i], a[i]), b[i]), c[i]),  \
                    e[i]);                                                                   \
            }                                                                                \
        }                                                                                    \
        for (; r < rows; r++) {                                                              \
            ck__inplace_##OP##_##T(dst, (intptr_t)sizeof(ck__e), x + (intptr_t)r * rs,       \
                                   (intptr_t)sizeof(ck__e), n);                              \
        }                                                                                    \
    }

/* ---- 2. Folds in order (integers, bools): exact, so any order gives the same result ---- */
#define CK__DEF_ORDERED_FOLD(OP, T)                                                         \
    CK__HOT ck__ct_##T ck__fold_##OP##_##T(ck__ct_##T acc, const char *x, intptr_t xs,       \
                                           size_t n) {                                       \
        if (xs == (intptr_t)sizeof(ck__ct_##T)) {                                            \
            const ck__ct_##T *s = (const ck__ct_##T *)(const void *)x;                       \
            for (size_t i = 0; i < n; i++) {                                                 \
                acc = ck__##OP##_##T(acc, s[i]);                                             \
            }                                                                                \
            return acc;                                                                      \
        }                                                                                    \
        for (size_t i = 0; i < n; i++, x += xs) {                                            \
            acc = ck__##OP##_##T(acc, *(const ck__ct_##T *)(const void *)x);                 \
        }                                                                                    \
        return acc;                                                                          \
    }

/* ---- 3. Folds in a fixed association (floats, complex) ----
 * NAME names the fold; T is the element's type, E the lanes' (float for float16), LN the
 * lanes (16 reals or 8 complex values), LOAD converts a T to an E, LOP is op on two Es and
 * ID its identity as an E. FAST(lanes, p, len) may fold the first whole groups of LN
 * contiguous elements into the lanes with vector instructions that compute exactly LOP
 * (returning how many elements it took); ck__no_fast takes none. */
#define CK__DEF_TREE_FOLD(NAME, T, E, LN, LOAD, LOP, ID)                                    \
    CK__DEF_TREE_FOLD_F(NAME, T, E, LN, LOAD, LOP, ID, ck__no_fast, ck__no_merge, 1)
CK__HOT size_t ck__no_fast(void *lanes, const void *p, size_t len) {
    (void)lanes, (void)p, (void)len;
    return 0;
}
/* MERGE(a, b) may do the lanes' b = LOP(a, b) in vectors (returning 1); ck__no_merge: 0. */
CK__HOT int ck__no_merge(const void *a, void *b) {
    (void)a, (void)b;
    return 0;
}
/* A lane starts with its first element as it is, and a lane that holds none takes no part
 * (docs/design.md §14). EXACT: ID is an exact identity of LOP (ID op x is x, NaN payloads
 * aside: -0.0 for a sum, 1 for a real product, +-inf for minimum and maximum), so lanes
 * that start from it compute just that and every lane counts as filled; they stay in
 * vector registers. Not EXACT (the complex product, where (1+0j)*(inf+0j) is inf+nanj):
 * lanes 0 .. filled-1 hold values, the others are empty, a merge takes the other side's
 * lane and the halving skips them (the counter keeps each vector's count beside it, so a
 * lane vector stays 128 bytes: with the count inside, sums ran 25% slower). */
#define CK__DEF_TREE_FOLD_F(NAME, T, E, LN, LOAD, LOP, ID, FAST, MERGE, EXACT)              \
    typedef struct ck__lanes_##NAME {                                                        \
        E v[LN];                                                                             \
    } ck__lanes_##NAME;                                                                      \
    /* Not EXACT: a block of fewer than LN elements (a run's only one) fills its first     \
     * lanes one by one. */                                                                  \
    static inline size_t ck__short_block_##NAME(                                           \
        ck__lanes_##NAME *out, const char *x, intptr_t xs, size_t len) {                     \
        for (int l = 0; l < (LN); l++) {                                                     \
            out->v[l] = (ID); /* empty: defined bits (the vector is copied), never used */  \
        }                                                                                    \
        for (size_t l = 0; l < len; l++) {                                                   \
            out->v[l] = LOAD(*(const T *)(const void *)(x + (intptr_t)l * xs));              \
        }                                                                                    \
        return len;                                                                          \
    }                                                                                        \
    /* One block of at most CK__FOLD_BLOCK elements: element i into lane i mod LN. The lanes \
     * are a local (never aliased by the source), so they stay in registers. Returns the     \
     * lanes that hold values (the others are empty). */                                     \
    CK__HOT size_t ck__block_##NAME(ck__lanes_##NAME *out, const char *x, intptr_t xs,       \
                                    size_t len) {                                            \
        if (!(EXACT) && len < (LN)) {                                                        \
            return ck__short_block_##NAME(out, x, xs, len);                                  \
        }                                                                                    \
        ck__lanes_##NAME v;                                                                  \
        size_t i = 0;                                                                        \
        for (int l = 0; l < (LN); l++) {                                                     \
            v.v[l] = (ID);                                                                   \
        }                                                                                    \
        if (xs == (intptr_t)sizeof(T)) {                                                     \
            const T *p = (const T *)(const void *)x;                                         \
            if (!(EXACT)) {                                                                  \
                for (int l = 0; l < (LN); l++) {                                             \
                    v.v[l] = LOAD(p[l]);                                                     \
                }                                                                            \
                i = (LN);                                                                    \
            }                                                                                \
            i += FAST(v.v, p + i, len - i);                                                  \
            for (; i + (LN) <= len; i += (LN)) {                                             \
                for (int l = 0; l < (LN); l++) {                                             \
                    v.v[l] = LOP(v.v[l], LOAD(p[i + (size_t)l]));                            \
                }                                                                            \
            }                                                                                \
            for (int l = 0; i + (size_t)l < len; l++) {                                      \
                v.v[l] = LOP(v.v[l], LOAD(p[i + (size_t)l]));                                \
            }                                                                                \
        } else {                                                                             \
            if (!(EXACT)) {                                                                  \
                for (int l = 0; l < (LN); l++, x += xs) {                                    \
                    v.v[l] = LOAD(*(const T *)(const void *)x);                              \
                }                                                                            \
                i = (LN);                                                                    \
            }                                                                                \
            for (; i < len; i++, x += xs) {                                                  \
                v.v[i % (LN)] = LOP(v.v[i % (LN)], LOAD(*(const T *)(const void *)x));       \
            }                                                                                \
        }                                                                                    \
        *out = v;                                                                            \
        return (LN);                                                                         \
    }                                                                                        \
    /* b = a op b lane by lane (fa and fb lanes holding values), a lane empty on one side    \
     * taking the other's; returns the lanes b then holds. */                                \
    CK__HOT size_t ck__lanes_op_##NAME(const ck__lanes_##NAME *a, size_t fa,                 \
                                       ck__lanes_##NAME *b, size_t fb) {                     \
        if ((EXACT) || (fa == (LN) && fb == (LN))) {                                         \
            if (!MERGE(a->v, b->v)) {                                                        \
                for (int l = 0; l < (LN); l++) {                                             \
                    b->v[l] = LOP(a->v[l], b->v[l]);                                         \
                }                                                                            \
            }                                                                                \
            return (LN);                                                                     \
        }                                                                                    \
        for (size_t l = 0; l < fa && l < (LN); l++) {                                        \
            b->v[l] = l < fb ? LOP(a->v[l], b->v[l]) : a->v[l];                              \
        }                                                                                    \
        return fa > fb ? fa : fb;                                                            \
    }                                                                                        \
    /* The binary counter of the blocks' lane vectors: two partial results of 2^k blocks  \
     * merge as soon as both exist, the earlier on the left; at the end the stack merges    \
     * from its top down, each on the right. A complete aligned chunk of 2^j blocks may be  \
     * pushed whole at level j (the parallel split): the same tree. */                      \
    typedef struct ck__counter_##NAME {                                                      \
        ck__lanes_##NAME stack[CK__FOLD_DEPTH];                                              \
        unsigned char level[CK__FOLD_DEPTH];                                                 \
        unsigned char filled[CK__FOLD_DEPTH]; /* lanes holding values (EXACT: all) */        \
        int top;                                                                             \
    } ck__counter_##NAME;                                                                    \
    CK__HOT void ck__push_##NAME(ck__counter_##NAME *c, ck__lanes_##NAME v, size_t f,        \
                                 unsigned lvl) {                                             \
        while (c->top > 0 && c->level[c->top - 1] == lvl) {                                  \
            f = ck__lanes_op_##NAME(&c->stack[c->top - 1], c->filled[c->top - 1], &v, f);    \
            c->top--;                                                                        \
            lvl++;                                                                           \
        }                                                                                    \
        c->stack[c->top] = v;                                                                \
        c->level[c->top] = (unsigned char)lvl;                                               \
        c->filled[c->top] = (unsigned char)f;                                                \
        c->top++;                                                                            \
    }                                                                                        \
    CK__HOT void ck__push_blocks_##NAME(ck__counter_##NAME *c, const char *x, intptr_t xs,   \
                                        size_t n) {                                          \
        ck__lanes_##NAME v;                                                                  \
        for (size_t b = 0; b < n; b += CK__FOLD_BLOCK) {                                     \
            const size_t len = n - b < CK__FOLD_BLOCK ? n - b : CK__FOLD_BLOCK;              \
            const size_t f = ck__block_##NAME(&v, x + (intptr_t)b * xs, xs, len);            \
            ck__push_##NAME(c, v, f, 0);                                                     \
        }                                                                                    \
    }                                                                                        \
    /* Lanes halved: lane l with lane l + w where that one holds a value, w = LN/2, ..., 1; \
     * lane 0 is the result. */                                                              \
    CK__HOT E ck__halve_##NAME(ck__lanes_##NAME *v, size_t filled) {                         \
        filled = (EXACT) ? (LN) : filled;                                                    \
        for (size_t w = (LN) / 2; w >= 1; w /= 2) {                                          \
            for (size_t l = 0; l < w; l++) {                                                 \
                if ((EXACT) || l + w < filled) {                                             \
                    v->v[l] = LOP(v->v[l], v->v[l + w]);                                     \
                }                                                                            \
            }                                                                                \
            filled = filled < w ? filled : w;                                                \
        }                                                                                    \
        return v->v[0];                                                                      \
    }                                                                                        \
    /* The counter's result, its lanes halved. */                                           \
    CK__HOT E ck__settle_##NAME(ck__counter_##NAME *c) {                                     \
        if (c->top == 0) {                                                                   \
            return (ID);                                                                     \
        }                                                                                    \
        ck__lanes_##NAME v = c->stack[c->top - 1];                                           \
        size_t f = c->filled[c->top - 1];                                                    \
        for (int j = c->top - 2; j >= 0; j--) {                                              \
            f = ck__lanes_op_##NAME(&c->stack[j], c->filled[j], &v, f);                      \
        }                                                                                    \
        return ck__halve_##NAME(&v, f);                                                      \
    }                                                                                        \
    /* op over n <= CK__FOLD_MAX_BLOCKS blocks. */                                           \
    static E ck__tree_##NAME(const char *x, intptr_t xs, size_t n) {                         \
        ck__counter_##NAME c;                                                                \
        c.top = 0;                                                                           \
        ck__push_blocks_##NAME(&c, x, xs, n);                                                \
        return ck__settle_##NAME(&c);                                                        \
    }                                                                                        \
    /* The parallel split: the lane vector of a complete chunk of 2^j blocks at x... */      \
    static inline void ck__chunk_##NAME(const char *x, intptr_t xs, size_t nblocks,          \
                                        void *out) {                                         \
        ck__counter_##NAME c;                                                                \
        c.top = 0;                                                                           \
        ck__push_blocks_##NAME(&c, x, xs, nblocks * CK__FOLD_BLOCK);                         \
        memcpy(out, &c.stack[0], sizeof(ck__lanes_##NAME));                                 \
    }                                                                                        \
    /* ... and the rest of the tree: nchunks such vectors at level j, then tail_n elements \
     * at tail, folded into the accumulator (the E it holds, in *acc). */                    \
    CK__HOT E ck__finish_##NAME(E acc, const void *chunks, size_t nchunks, unsigned j,       \
                                const char *tail, intptr_t xs, size_t tail_n) {              \
        ck__counter_##NAME c;                                                                \
        c.top = 0;                                                                           \
        const char *p = (const char *)chunks;                                                \
        for (size_t i = 0; i < nchunks; i++, p += sizeof(ck__lanes_##NAME)) {                \
            ck__lanes_##NAME v;                                                              \
            memcpy(&v, p, sizeof v);                                                         \
            ck__push_##NAME(&c, v, (LN), j); /* a complete chunk: every lane */             \
        }                                                                                    \
        ck__push_blocks_##NAME(&c, tail, xs, tail_n);                                        \
        return c.top == 0 ? acc : LOP(acc, ck__settle_##NAME(&c)); /* no element: as it was */ \
    }                                                                                        \
    /* A run of any length: pieces of CK__FOLD_MAX_BLOCKS blocks, each its own tree. */     \
    CK__HOT E ck__run_##NAME(E acc, const char *x, intptr_t xs, size_t n) {                  \
        const size_t piece = CK__FOLD_MAX_BLOCKS * CK__FOLD_BLOCK;                           \
        for (size_t off = 0; off < n; off += piece) {                                        \
            acc = LOP(acc, ck__tree_##NAME(x + (intptr_t)off * xs, xs,                       \
                                           n - off < piece ? n - off : piece));              \
        }                                                                                    \
        return acc;                                                                          \
    }

#define CK__SAME(x) (x)
CK__HOT float ck__addf(float a, float b) {
    return a + b;
}
CK__HOT float ck__mulf(float a, float b) {
    return a * b;
}
/* float16's minimum and maximum on its float values: the first of two equal ones (leaves/
 * numeric/arith_ops.h). */
CK__HOT float ck__minh(float a, float b) {
    return (a <= b || a != a) ? a : b;
}
CK__HOT float ck__maxh(float a, float b) {
    return (a >= b || a != a) ? a : b;
}

static const ck__ct_complex64 ck__c64_zero = {{0.0f, 0.0f}}, ck__c64_one = {{1.0f, 0.0f}};
static const ck__ct_complex128 ck__c128_zero = {{0.0, 0.0}}, ck__c128_one = {{1.0, 0.0}};
/* A sum's lanes start from -0.0, its exact identity (-0.0 + x is x, -0.0 included; 0.0 +
 * -0.0 is 0.0); the accumulator from 0.0, as NumPy's sum. */
static const ck__ct_complex64 ck__c64_negzero = {{-0.0f, -0.0f}};
static const ck__ct_complex128 ck__c128_negzero = {{-0.0, -0.0}};
static const ck__ct_complex64 ck__c64_hi = {{__builtin_inff(), __builtin_inff()}};
static const ck__ct_complex64 ck__c64_lo = {{-__builtin_inff(), -__builtin_inff()}};
static const ck__ct_complex128 ck__c128_hi = {{__builtin_inf(), __builtin_inf()}};
static const ck__ct_complex128 ck__c128_lo = {{-__builtin_inf(), -__builtin_inf()}};

/* minimum and maximum of float32 and float64 in vectors: x86's MINPD/MAXPD give the second
 * operand on ties and NaNs, and a NaN accumulator is kept by a mask, which is exactly
 * (a < b || a != a) ? a : b (and > for maximum). SSE2 on the baseline target, AVX above;
 * lane l of the 16 is element l of each group, as in the scalar loop. */
/* NAME(lanes, src, len): whole groups of 16 elements of src into the 16 lanes, NV vectors of
 * VT (W elements each); OPV is MINPD/MAXPD, a NaN accumulator kept through the UNORD mask. */
#define CK__VMM(NAME, VT, W, LOADV, STOREV, OPV, UNORD, AND, ANDN, OR)                      \
    CK__HOT size_t NAME(void *lanes, const void *src, size_t len) {                          \
        enum { NV = 16 / (W) };                                                              \
        const size_t esize = sizeof(VT) / (W);                                               \
        VT acc[NV];                                                                          \
        for (int k = 0; k < NV; k++) {                                                       \
            acc[k] = LOADV((const char *)lanes + (size_t)k * sizeof(VT));                    \
        }                                                                                    \
        size_t i = 0;                                                                        \
        for (; i + 16 <= len; i += 16) {                                                     \
            for (int k = 0; k < NV; k++) {                                                   \
                const VT x = LOADV((const char *)src + (i + (size_t)k * (W)) * esize);       \
                const VT nan = UNORD(acc[k], acc[k]);                                        \
                acc[k] = OR(AND(nan, acc[k]), ANDN(nan, OPV(acc[k], x)));                    \
            }                                                                                \
        }                                                                                    \
        for (int k = 0; k < NV; k++) {                                                       \
            STOREV((char *)lanes + (size_t)k * sizeof(VT), acc[k]);                          \
        }                                                                                    \
        return i;                                                                            \
    }
/* NAME(a, b): b = LOP(a, b) over the 16 lanes, as the block's vectors do it. */
#define CK__VMERGE(NAME, VT, W, LOADV, STOREV, OPV, UNORD, AND, ANDN, OR)                   \
    CK__HOT int NAME(const void *a, void *b) {                                               \
        for (int k = 0; k < 16 / (W); k++) {                                                 \
            const VT x = LOADV((const char *)a + (size_t)k * sizeof(VT));                    \
            const VT y = LOADV((char *)b + (size_t)k * sizeof(VT));                          \
            const VT nan = UNORD(x, x);                                                      \
            STOREV((char *)b + (size_t)k * sizeof(VT), OR(AND(nan, x), ANDN(nan, OPV(x, y)))); \
        }                                                                                    \
        return 1;                                                                            \
    }
/* The vector primitives of this target (leaves/simd/): 256 bits with AVX2, 128 with SSE2. */
#ifdef CK__SIMD_MINMAX
#  define CK__DEF_VMINMAX(SUF, T, OP)                                                       \
    CK__VMM(ck__v##OP##_##SUF, CK__V##T, CK__W##T, CK__##T##_LOAD, CK__##T##_STORE,          \
            CK__##T(OP), CK__##T##_UNORD, CK__##T(and), CK__##T(andnot), CK__##T(or))        \
    CK__VMERGE(ck__vmerge_##OP##_##SUF, CK__V##T, CK__W##T, CK__##T##_LOAD,                  \
               CK__##T##_STORE, CK__##T(OP), CK__##T##_UNORD, CK__##T(and), CK__##T(andnot), \
               CK__##T(or))
CK__DEF_VMINMAX(f64, PD, min)
CK__DEF_VMINMAX(f64, PD, max)
CK__DEF_VMINMAX(f32, PS, min)
CK__DEF_VMINMAX(f32, PS, max)
#else
#  define ck__vmin_f64 ck__no_fast
#  define ck__vmax_f64 ck__no_fast
#  define ck__vmin_f32 ck__no_fast
#  define ck__vmax_f32 ck__no_fast
#  define ck__vmerge_min_f64 ck__no_merge
#  define ck__vmerge_max_f64 ck__no_merge
#  define ck__vmerge_min_f32 ck__no_merge
#  define ck__vmerge_max_f32 ck__no_merge
#endif

CK__DEF_TREE_FOLD(add_float32, float, float, 16, CK__SAME, ck__add_float32, -0.0f)
CK__DEF_TREE_FOLD(add_float64, double, double, 16, CK__SAME, ck__add_float64, -0.0)
CK__DEF_TREE_FOLD(add_complex64, ck__ct_complex64, ck__ct_complex64, 8, CK__SAME, ck__add_complex64,
                  ck__c64_negzero)
CK__DEF_TREE_FOLD(add_complex128, ck__ct_complex128, ck__ct_complex128, 8, CK__SAME,
                  ck__add_complex128, ck__c128_negzero)
CK__DEF_TREE_FOLD(multiply_float32, float, float, 16, CK__SAME, ck__multiply_float32, 1.0f)
CK__DEF_TREE_FOLD(multiply_float64, double, double, 16, CK__SAME, ck__multiply_float64, 1.0)
CK__DEF_TREE_FOLD_F(multiply_complex64, ck__ct_complex64, ck__ct_complex64, 8, CK__SAME,
                    ck__multiply_complex64, ck__c64_one, ck__no_fast, ck__no_merge, 0)
CK__DEF_TREE_FOLD_F(multiply_complex128, ck__ct_complex128, ck__ct_complex128, 8, CK__SAME,
                    ck__multiply_complex128, ck__c128_one, ck__no_fast, ck__no_merge, 0)
CK__DEF_TREE_FOLD_F(minimum_float32, float, float, 16, CK__SAME, ck__minimum_float32,
                    __builtin_inff(), ck__vmin_f32,
                    ck__vmerge_min_f32, 1)
CK__DEF_TREE_FOLD_F(minimum_float64, double, double, 16, CK__SAME, ck__minimum_float64,
                    __builtin_inf(), ck__vmin_f64,
                    ck__vmerge_min_f64, 1)
CK__DEF_TREE_FOLD(minimum_complex64, ck__ct_complex64, ck__ct_complex64, 8, CK__SAME,
                  ck__minimum_complex64, ck__c64_hi)
CK__DEF_TREE_FOLD(minimum_complex128, ck__ct_complex128, ck__ct_complex128, 8, CK__SAME,
                  ck__minimum_complex128, ck__c128_hi)
CK__DEF_TREE_FOLD_F(maximum_float32, float, float, 16, CK__SAME, ck__maximum_float32,
                    -__builtin_inff(), ck__vmax_f32,
                    ck__vmerge_max_f32, 1)
CK__DEF_TREE_FOLD_F(maximum_float64, double, double, 16, CK__SAME, ck__maximum_float64,
                    -__builtin_inf(), ck__vmax_f64,
                    ck__vmerge_max_f64, 1)
CK__DEF_TREE_FOLD(maximum_complex64, ck__ct_complex64, ck__ct_complex64, 8, CK__SAME,
                  ck__maximum_complex64, ck__c64_lo)
CK__DEF_TREE_FOLD(maximum_complex128, ck__ct_complex128, ck__ct_complex128, 8, CK__SAME,
                  ck__maximum_complex128, ck__c128_lo)
/* The floats of 2-byte parts (float16, bfloat16): lanes of float32, each element widened as
 * it is loaded (exact). */
#define CK__DEF_NARROW_FOLDS(n)                                                             \
    CK__DEF_TREE_FOLD(add_##n, uint16_t, float, 16, ck__widen_##n, ck__addf, -0.0f)          \
    CK__DEF_TREE_FOLD(multiply_##n, uint16_t, float, 16, ck__widen_##n, ck__mulf, 1.0f)      \
    CK__DEF_TREE_FOLD(minimum_##n, uint16_t, float, 16, ck__widen_##n, ck__minh,             \
                      __builtin_inff())                                                      \
    CK__DEF_TREE_FOLD(maximum_##n, uint16_t, float, 16, ck__widen_##n, ck__maxh,             \
                      -__builtin_inff())
/* By kind and part size, every row of the scalar table: NARROW(name) for a float of 2-byte
 * parts, WIDE(name) for the other floats, CPLX(name) for complex, EXACT(name) for the
 * integers and bool. */
#define CK__BY_FAMILY_BOOL(X, n, psize) X##_EXACT(n)
#define CK__BY_FAMILY_SIGNED(X, n, psize) X##_EXACT(n)
#define CK__BY_FAMILY_UNSIGNED(X, n, psize) X##_EXACT(n)
#define CK__BY_FAMILY_FLOAT(X, n, psize) CK__BY_FAMILY_FLOAT_##psize(X, n)
#define CK__BY_FAMILY_FLOAT_2(X, n) X##_NARROW(n)
#define CK__BY_FAMILY_FLOAT_4(X, n) X##_WIDE(n)
#define CK__BY_FAMILY_FLOAT_8(X, n) X##_WIDE(n)
#define CK__BY_FAMILY_COMPLEX(X, n, psize) X##_CPLX(n)
#define CK__BY_FAMILY_ROW(X, E, n, part, psize, parts, kind, ...) CK__BY_FAMILY_##kind(X, n, psize)
#define CK__BY_FAMILY(X) CK_SCALAR_TABLE_WITH(CK__BY_FAMILY_ROW, X)
#define CK__NF_EXACT(n)
#define CK__NF_NARROW(n) CK__DEF_NARROW_FOLDS(n)
#define CK__NF_WIDE(n)
#define CK__NF_CPLX(n)
CK__BY_FAMILY(CK__NF)

/* The split of a tree fold (leaves/reduce/reduce_ops.h, ck__fold_split): finish works on the
 * accumulator's memory (float16 through float32, rounded once). */
#define CK__DEF_SPLIT(OP, T)                                                                \
    static void ck__split_finish_##OP##_##T(char *acc, const void *chunks, size_t nchunks,   \
                                            unsigned j, const char *tail, intptr_t xs,       \
                                            size_t tail_n) {                                 \
        ck__ct_##T *a = (ck__ct_##T *)(void *)acc;                                           \
        *a = ck__finish_##OP##_##T(*a, chunks, nchunks, j, tail, xs, tail_n);                \
    }
#define CK__DEF_SPLIT_NARROW(OP, T)                                                         \
    static void ck__split_finish_##OP##_##T(char *acc, const void *chunks, size_t nchunks,   \
                                            unsigned j, const char *tail, intptr_t xs,       \
                                            size_t tail_n) {                                 \
        uint16_t *a = (uint16_t *)(void *)acc;                                               \
        *a = ck__narrow_##T(                                                                 \
            ck__finish_##OP##_##T(ck__widen_##T(*a), chunks, nchunks, j, tail, xs, tail_n)); \
    }
#define CK__SPLITS_EXACT(n)
#define CK__SPLITS_NARROW(n)                                                                \
    CK__DEF_SPLIT_NARROW(add, n) CK__DEF_SPLIT_NARROW(multiply, n)                           \
    CK__DEF_SPLIT_NARROW(minimum, n) CK__DEF_SPLIT_NARROW(maximum, n)
#define CK__SPLITS_WIDE(n)                                                                  \
    CK__DEF_SPLIT(add, n) CK__DEF_SPLIT(multiply, n) CK__DEF_SPLIT(minimum, n)               \
    CK__DEF_SPLIT(maximum, n)
#define CK__SPLITS_CPLX(n) CK__SPLITS_WIDE(n)
CK__BY_FAMILY(CK__SPLITS)

/* The fold of a whole run into the accumulator: in order, or through the tree (float16 in
 * float32, rounded once into the accumulator). */
#define CK__FOLD_ORDERED(OP, T) acc = ck__fold_##OP##_##T(acc, x, xs, n);
#define CK__FOLD_TREE(OP, T) acc = ck__run_##OP##_##T(acc, x, xs, n);
#define CK__FOLD_NARROW(OP, T)                                                              \
    acc = ck__narrow_##T(ck__run_##OP##_##T(ck__widen_##T(acc), x, xs, n));

/* An accumulate leaf's strided function NAME with accumulators of A: INPLACE (a statement
 * over dst, ds, x, xs, n) for a destination stride other than 0, else FOLD (a statement
 * over acc, x, xs, n) into the one accumulator. */
#define CK__DEF_ACC_LEAF(NAME, A, INPLACE, FOLD)                                            \
    static CK__KERNEL_ALIGN int NAME(ck_prefix *self, char *dst, intptr_t ds,                \
                                     char *const *src, const intptr_t *src_stride,           \
                                     size_t n) {                                             \
        (void)self;                                                                          \
        if (n == 0) { /* untouched: an empty destination (stride 0) may have no bytes */     \
            return CK_OK;                                                                    \
        }                                                                                    \
        const char *x = src[0];                                                              \
        const intptr_t xs = src_stride[0];                                                   \
        if (ds != 0) {                                                                       \
            INPLACE                                                                          \
            return CK_OK;                                                                    \
        }                                                                                    \
        ck__ct_##A acc = *(const ck__ct_##A *)(const void *)dst;                             \
        FOLD                                                                                 \
        *(ck__ct_##A *)(void *)dst = acc;                                                    \
        return CK_OK;                                                                        \
    }

/* The accumulate leaf: FOLD is one of the three above. */
#define CK__DEF_ACC(OP, T, FOLD)                                                            \
    CK__DEF_INPLACE(OP, T)                                                                   \
    CK__DEF_ROWS(OP, T)                                                                      \
    CK__DEF_ACC_LEAF(ck__acc_##OP##_##T, T, ck__inplace_##OP##_##T(dst, ds, x, xs, n);,      \
                     FOLD(OP, T))

#define CK__DEF_ACC_INT(OP, T) CK__DEF_ORDERED_FOLD(OP, T) CK__DEF_ACC(OP, T, CK__FOLD_ORDERED)


/* minimum and maximum select: op over two consecutive pieces of a lane, the earlier on the
 * left, is op over the whole (the first NaN, else the least value, the later of equal ones:
 * +0 and -0 included). So each lane folded straight through the run, with no blocks and no
 * tree, holds the bits the tree's lane holds, and the lanes halve as in the tree: the same
 * result, without the blocks' stores and merges. */
#define CK__DEF_SELECT_RUN(OP, T, FAST, ID)                                                 \
    CK__HOT void ck__select_lanes_##OP##_##T(ck__lanes_##OP##_##T *v, const char *x,         \
                                             intptr_t xs, size_t from, size_t to) {          \
        size_t i = from;                                                                     \
        if (xs == (intptr_t)sizeof(ck__ct_##T)) {                                            \
            i += FAST(v->v, x + (intptr_t)from * xs, to - from);                             \
        }                                                                                    \
        for (const char *p = x + (intptr_t)i * xs; i < to; i++, p += xs) {                   \
            v->v[i % 16] = ck__##OP##_##T(v->v[i % 16], *(const ck__ct_##T *)(const void *)p); \
        }                                                                                    \
    }                                                                                        \
    CK__HOT ck__ct_##T ck__select_##OP##_##T(ck__ct_##T acc, const char *x, intptr_t xs,     \
                                             size_t n) {                                     \
        ck__lanes_##OP##_##T v, w2;                                                          \
        for (int l = 0; l < 16; l++) {                                                       \
            v.v[l] = (ID);                                                                   \
            w2.v[l] = (ID);                                                                  \
        }                                                                                    \
        /* A long contiguous run is read as two halves side by side, a block of each in    \
         * turn (two streams kept the reads ahead on Zen 3; design.md §14), the second     \
         * half's lanes merged in after the first's. */                                     \
        const size_t half = n / 2 / CK__FOLD_BLOCK * CK__FOLD_BLOCK;                         \
        if (xs == (intptr_t)sizeof(ck__ct_##T) && half >= CK__SELECT_TWO_HALVES_MIN) {       \
            for (size_t b = 0; b < half; b += CK__FOLD_BLOCK) {                              \
                ck__select_lanes_##OP##_##T(&v, x, xs, b, b + CK__FOLD_BLOCK);               \
                ck__select_lanes_##OP##_##T(&w2, x + (intptr_t)half * xs, xs, b,             \
                                            b + CK__FOLD_BLOCK);                             \
            }                                                                                \
            ck__select_lanes_##OP##_##T(&w2, x + (intptr_t)half * xs, xs, half, n - half);   \
            ck__lanes_op_##OP##_##T(&v, 16, &w2, 16);                                        \
            return ck__##OP##_##T(acc, ck__halve_##OP##_##T(&w2, 16));                       \
        }                                                                                    \
        ck__select_lanes_##OP##_##T(&v, x, xs, 0, n);                                        \
        return ck__##OP##_##T(acc, ck__halve_##OP##_##T(&v, 16));                            \
    }
/* Halves of at least this many elements are read side by side. */
#define CK__SELECT_TWO_HALVES_MIN ((size_t)1 << 16)
CK__DEF_SELECT_RUN(minimum, float32, ck__vmin_f32, __builtin_inff())
CK__DEF_SELECT_RUN(minimum, float64, ck__vmin_f64, __builtin_inf())
CK__DEF_SELECT_RUN(maximum, float32, ck__vmax_f32, -__builtin_inff())
CK__DEF_SELECT_RUN(maximum, float64, ck__vmax_f64, -__builtin_inf())
#define CK__FOLD_SELECT(OP, T) acc = ck__select_##OP##_##T(acc, x, xs, n);

/* Every row: integers and bool in order (exact), floats of 2-byte parts through float32
 * lanes, the others through the tree (sums, products) or the selecting run (minimum,
 * maximum); complex through the tree. */
#define CK__ACCS_EXACT(n)                                                                   \
    CK__DEF_ACC_INT(add, n) CK__DEF_ACC_INT(multiply, n) CK__DEF_ACC_INT(minimum, n)         \
    CK__DEF_ACC_INT(maximum, n)
#define CK__ACCS_NARROW(n)                                                                  \
    CK__DEF_ACC(add, n, CK__FOLD_NARROW) CK__DEF_ACC(multiply, n, CK__FOLD_NARROW)           \
    CK__DEF_ACC(minimum, n, CK__FOLD_NARROW) CK__DEF_ACC(maximum, n, CK__FOLD_NARROW)
#define CK__ACCS_WIDE(n)                                                                    \
    CK__DEF_ACC(add, n, CK__FOLD_TREE) CK__DEF_ACC(multiply, n, CK__FOLD_TREE)               \
    CK__DEF_ACC(minimum, n, CK__FOLD_SELECT) CK__DEF_ACC(maximum, n, CK__FOLD_SELECT)
#define CK__ACCS_CPLX(n)                                                                    \
    CK__DEF_ACC(add, n, CK__FOLD_TREE) CK__DEF_ACC(multiply, n, CK__FOLD_TREE)               \
    CK__DEF_ACC(minimum, n, CK__FOLD_TREE) CK__DEF_ACC(maximum, n, CK__FOLD_TREE)
CK__BY_FAMILY(CK__ACCS)
CK__DEF_ACC_INT(logical_and, bool)
CK__DEF_ACC_INT(logical_or, bool)

/* ---- 3b. Widening folds: a source of a narrower type T into the accumulator A that sums
 * and multiplies it (bool and int8-int32 into int64, uint8-uint32 into uint64, float32 into
 * float64; leaves/reduce/reduce_ops.h), each element converted exactly as it is loaded: the values
 * the cast in front of A's leaf gives, without its pass through scratch. A float fold keeps
 * that path's association too: chunks of call_args' length for one argument of A from the
 * run's start, each its own tree folded into the accumulator in order. ---- */
#define CK__WIDEN_VALUE(A, T, p) ((ck__ct_##A)(*(const ck__ct_##T *)(const void *)(p)))
#define CK__WIDEN_BOOL(A, T, p) ((ck__ct_##A)(*(const ck__ct_##T *)(const void *)(p) != 0))
#define CK__TO_DOUBLE(v) ((double)(v))
CK__DEF_TREE_FOLD(add_float64_from_float32, float, double, 16, CK__TO_DOUBLE, ck__add_float64,
                  -0.0)
CK__DEF_TREE_FOLD(multiply_float64_from_float32, float, double, 16, CK__TO_DOUBLE,
                  ck__multiply_float64, 1.0)
/* The fold of a run: in order (integers: exact), or the float tree per chunk. */
#define CK__WIDEN_ORDERED(OP, A, T, LOAD)                                                   \
    if (xs == (intptr_t)sizeof(ck__ct_##T)) {                                                \
        for (size_t i = 0; i < n; i++) {                                                     \
            acc = ck__##OP##_##A(acc, LOAD(A, T, x + i * sizeof(ck__ct_##T)));               \
        }                                                                                    \
    } else {                                                                                 \
        for (size_t i = 0; i < n; i++, x += xs) {                                            \
            acc = ck__##OP##_##A(acc, LOAD(A, T, x));                                        \
        }                                                                                    \
    }
#define CK__WIDEN_TREE(OP, A, T, LOAD)                                                      \
    (void)0;                                                                                 \
    const size_t chunk = ck__call_args_chunk(1, sizeof(ck__ct_##A));                         \
    for (size_t off = 0; off < n; off += chunk) {                                            \
        acc = ck__run_##OP##_##A##_from_##T(acc, x + (intptr_t)off * xs, xs,                 \
                                            n - off < chunk ? n - off : chunk);              \
    }
#define CK__WIDEN_INPLACE(OP, A, T, LOAD)                                                   \
    for (size_t i = 0; i < n; i++, dst += ds, x += xs) {                                     \
        ck__ct_##A *d = (ck__ct_##A *)(void *)dst;                                           \
        *d = ck__##OP##_##A(*d, LOAD(A, T, x));                                              \
    }
#define CK__DEF_WIDEN(OP, A, T, LOAD, FOLD)                                                 \
    CK__DEF_ACC_LEAF(ck__widen_##OP##_##T, A, CK__WIDEN_INPLACE(OP, A, T, LOAD),             \
                     FOLD(OP, A, T, LOAD))
#define CK__DEF_WIDENS(OP)                                                                  \
    CK__DEF_WIDEN(OP, int64, bool, CK__WIDEN_BOOL, CK__WIDEN_ORDERED)                        \
    CK__DEF_WIDEN(OP, int64, int8, CK__WIDEN_VALUE, CK__WIDEN_ORDERED)                       \
    CK__DEF_WIDEN(OP, int64, int16, CK__WIDEN_VALUE, CK__WIDEN_ORDERED)                      \
    CK__DEF_WIDEN(OP, int64, int32, CK__WIDEN_VALUE, CK__WIDEN_ORDERED)                      \
    CK__DEF_WIDEN(OP, uint64, uint8, CK__WIDEN_VALUE, CK__WIDEN_ORDERED)                     \
    CK__DEF_WIDEN(OP, uint64, uint16, CK__WIDEN_VALUE, CK__WIDEN_ORDERED)                    \
    CK__DEF_WIDEN(OP, uint64, uint32, CK__WIDEN_VALUE, CK__WIDEN_ORDERED)                    \
    CK__DEF_WIDEN(OP, float64, float32, CK__WIDEN_VALUE, CK__WIDEN_TREE)
CK__DEF_WIDENS(add)
CK__DEF_WIDENS(multiply)

/* ---- 4. Scans (accumulations): out[0] = x[0], out[i] = op(out[i-1], x[i]), in order with
 * the element operation, as NumPy's accumulate computes them (bit for bit: float16 rounds
 * each step). The running value stays in a register, so dst may be src (an in-place scan
 * after a cast into dst). ---- */
#define CK__DEF_SCAN(OP, T)                                                                 \
    static CK__KERNEL_ALIGN int ck__scan_##OP##_##T(ck_prefix *self, char *dst,              \
                                                    intptr_t dst_stride, char *const *src,   \
                                                    const intptr_t *src_stride, size_t n) {  \
        (void)self;                                                                          \
        const char *x = src[0];                                                              \
        const intptr_t xs = src_stride[0];                                                   \
        if (n == 0) {                                                                        \
            return CK_OK;                                                                    \
        }                                                                                    \
        ck__ct_##T acc = *(const ck__ct_##T *)(const void *)x;                               \
        *(ck__ct_##T *)(void *)dst = acc;                                                    \
        for (size_t i = 1; i < n; i++) {                                                     \
            x += xs;                                                                         \
            dst += dst_stride;                                                               \
            acc = ck__##OP##_##T(acc, *(const ck__ct_##T *)(const void *)x);                 \
            *(ck__ct_##T *)(void *)dst = acc;                                                \
        }                                                                                    \
        return CK_OK;                                                                        \
    }
/* The continuation of a scan (the streaming scan's chunks, leaves/reduce/reduce_ops.h): from the
 * running value in *accp into a contiguous dst. */
#define CK__DEF_SCAN_FROM(OP, T)                                                            \
    static void ck__scan_from_##OP##_##T(void *accp, char *dst, const char *x, intptr_t xs,  \
                                         size_t n) {                                         \
        ck__ct_##T acc;                                                                      \
        memcpy(&acc, accp, sizeof acc);                                                      \
        ck__ct_##T *d = (ck__ct_##T *)(void *)dst;                                           \
        for (size_t i = 0; i < n; i++, x += xs) {                                            \
            acc = ck__##OP##_##T(acc, *(const ck__ct_##T *)(const void *)x);                 \
            d[i] = acc;                                                                      \
        }                                                                                    \
        memcpy(accp, &acc, sizeof acc);                                                      \
    }
#define CK__DEF_SCANS_ROW(E, n, ...)                                                        \
    CK__DEF_SCAN(add, n) CK__DEF_SCAN_FROM(add, n) CK__DEF_SCAN(multiply, n)                 \
    CK__DEF_SCAN_FROM(multiply, n) CK__DEF_SCAN(minimum, n) CK__DEF_SCAN_FROM(minimum, n)    \
    CK__DEF_SCAN(maximum, n) CK__DEF_SCAN_FROM(maximum, n)
CK_SCALAR_TABLE(CK__DEF_SCANS_ROW)
CK__DEF_SCAN(logical_and, bool)
CK__DEF_SCAN(logical_or, bool)
CK__DEF_SCAN_FROM(logical_and, bool)
CK__DEF_SCAN_FROM(logical_or, bool)

/* ---- 5. dot: the sum of x[i] * y[i] over a row (core dimensions). Floats and complex
 * values: each block's products are rounded, then summed in the add fold's association
 * (lanes, blocks, the binary counter), so the bits depend only on the row's values and
 * length, as a sum's do; integers wrap, in order; bools are any of (x[i] and y[i]). The
 * result starts from 0 (as a sum does: a dot of one -0.0 product is 0.0). ---- */
/* One block's lanes of products: lane l takes x[i] * y[i] for i = l (mod LN) in order, as
 * the add fold's block takes the elements of a run (the products rounded first: no FMA in
 * this file), without a buffer of products on the stack. */
#define CK__DEF_DOT_TREE(T, LN, ZERO)                                                       \
    CK__HOT void ck__dot_block_##T(ck__lanes_add_##T *out, const char *x, intptr_t xs,       \
                                   const char *y, intptr_t ys, size_t len) {                 \
        ck__lanes_add_##T v;                                                                 \
        for (int l = 0; l < (LN); l++) {                                                     \
            v.v[l] = (ZERO);                                                                 \
        }                                                                                    \
        const intptr_t es = (intptr_t)sizeof(ck__ct_##T);                                    \
        if (xs == es && ys == es) {                                                          \
            const ck__ct_##T *a = (const ck__ct_##T *)(const void *)x;                       \
            const ck__ct_##T *q = (const ck__ct_##T *)(const void *)y;                       \
            size_t i = 0;                                                                    \
            for (; i + (LN) <= len; i += (LN)) {                                             \
                for (int l = 0; l < (LN); l++) {                                             \
                    v.v[l] = ck__add_##T(v.v[l], ck__multiply_##T(a[i + (size_t)l],          \
                                                                  q[i + (size_t)l]));        \
                }                                                                            \
            }                                                                                \
            for (int l = 0; i + (size_t)l < len; l++) {                                      \
                v.v[l] = ck__add_##T(v.v[l], ck__multiply_##T(a[i + (size_t)l],              \
                                                              q[i + (size_t)l]));            \
            }                                                                                \
        } else {                                                                             \
            for (size_t i = 0; i < len; i++, x += xs, y += ys) {                             \
                v.v[i % (LN)] = ck__add_##T(                                                 \
                    v.v[i % (LN)], ck__multiply_##T(*(const ck__ct_##T *)(const void *)x,    \
                                                    *(const ck__ct_##T *)(const void *)y));  \
            }                                                                                \
        }                                                                                    \
        *out = v;                                                                            \
    }                                                                                        \
    static void ck__dot_##T(char *dst, const char *x, intptr_t xs, const char *y,           \
                            intptr_t ys, size_t n) {                                         \
        const size_t piece = CK__FOLD_MAX_BLOCKS * CK__FOLD_BLOCK;                           \
        ck__ct_##T acc = (ZERO);                                                             \
        for (size_t off = 0; off < n; off += piece) {                                        \
            const size_t m = n - off < piece ? n - off : piece;                              \
            ck__counter_add_##T c;                                                           \
            c.top = 0;                                                                       \
            for (size_t b = 0; b < m; b += CK__FOLD_BLOCK) {                                 \
                const size_t len = m - b < CK__FOLD_BLOCK ? m - b : CK__FOLD_BLOCK;          \
                ck__lanes_add_##T v;                                                         \
                ck__dot_block_##T(&v, x + (intptr_t)(off + b) * xs, xs,                      \
                                  y + (intptr_t)(off + b) * ys, ys, len);                    \
                ck__push_add_##T(&c, v, (LN), 0);                                            \
            }                                                                                \
            acc = ck__add_##T(acc, ck__settle_add_##T(&c));                                  \
        }                                                                                    \
        memcpy(dst, &acc, sizeof acc);                                                       \
    }
#define CK__DEF_DOT_INT(T)                                                                  \
    static void ck__dot_##T(char *dst, const char *x, intptr_t xs, const char *y,           \
                            intptr_t ys, size_t n) {                                         \
        ck__ct_##T acc = 0;                                                                  \
        for (size_t i = 0; i < n; i++, x += xs, y += ys) {                                   \
            acc = ck__add_##T(acc, ck__multiply_##T(*(const ck__ct_##T *)(const void *)x,    \
                                                    *(const ck__ct_##T *)(const void *)y));  \
        }                                                                                    \
        memcpy(dst, &acc, sizeof acc);                                                       \
    }
/* bool: any of (x[i] and y[i]), NumPy's dot of two bool vectors. */
static void ck__dot_bool(char *dst, const char *x, intptr_t xs, const char *y, intptr_t ys,
                         size_t n) {
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++, x += xs, y += ys) {
        acc |= (uint8_t)(*(const uint8_t *)(const void *)x != 0 &&
                         *(const uint8_t *)(const void *)y != 0);
    }
    *(uint8_t *)(void *)dst = acc;
}
CK__DEF_DOT_INT(int8)
CK__DEF_DOT_INT(int16)
CK__DEF_DOT_INT(int32)
CK__DEF_DOT_INT(int64)
CK__DEF_DOT_INT(uint8)
CK__DEF_DOT_INT(uint16)
CK__DEF_DOT_INT(uint32)
CK__DEF_DOT_INT(uint64)
CK__DEF_DOT_TREE(float32, 16, 0.0f)
CK__DEF_DOT_TREE(float64, 16, 0.0)
CK__DEF_DOT_TREE(complex64, 8, ck__c64_zero)
CK__DEF_DOT_TREE(complex128, 8, ck__c128_zero)

/* ---- the tables ---- */
/* Table entries of every row (ALL_*), or of the float and complex rows (ALL_SPLIT). */
#define CK__EACH_ROW_ENTRY(XO, E, n, ...) CK__SCALAR_APPLY(CK__SCALAR_UNPAREN XO, n),
#define CK__A(OP, T) [ck__id_##T] = ck__acc_##OP##_##T
#define CK__ALL(OP) CK_SCALAR_TABLE_WITH(CK__EACH_ROW_ENTRY, (CK__A, OP))
#define CK__SPLIT(OP, T)                                                                    \
    [ck__id_##T] = {sizeof(ck__lanes_##OP##_##T), ck__chunk_##OP##_##T,                      \
                    ck__split_finish_##OP##_##T}
#define CK__SPLIT_ENTRY_EXACT(OP, n)
#define CK__SPLIT_ENTRY_FLOATING(OP, n) CK__SPLIT(OP, n),
#define CK__SPLIT_ENTRY_BOOL CK__SPLIT_ENTRY_EXACT
#define CK__SPLIT_ENTRY_SIGNED CK__SPLIT_ENTRY_EXACT
#define CK__SPLIT_ENTRY_UNSIGNED CK__SPLIT_ENTRY_EXACT
#define CK__SPLIT_ENTRY_FLOAT CK__SPLIT_ENTRY_FLOATING
#define CK__SPLIT_ENTRY_COMPLEX CK__SPLIT_ENTRY_FLOATING
#define CK__SPLIT_ROW(OP, E, n, part, psize, parts, kind, ...) CK__SPLIT_ENTRY_##kind(OP, n)
#define CK__ALL_SPLIT(OP) CK_SCALAR_TABLE_WITH(CK__SPLIT_ROW, OP)
#define CK__S(OP, T) [ck__id_##T] = ck__scan_##OP##_##T
#define CK__ALL_S(OP) CK_SCALAR_TABLE_WITH(CK__EACH_ROW_ENTRY, (CK__S, OP))
#define CK__SF(OP, T) [ck__id_##T] = ck__scan_from_##OP##_##T
#define CK__ALL_SF(OP) CK_SCALAR_TABLE_WITH(CK__EACH_ROW_ENTRY, (CK__SF, OP))
#define CK__R(OP, T) [ck__id_##T] = ck__rows_##OP##_##T
#define CK__ALL_R(OP) CK_SCALAR_TABLE_WITH(CK__EACH_ROW_ENTRY, (CK__R, OP))

#define CK__W(OP, T) [ck__id_##T] = ck__widen_##OP##_##T
#define CK__ALL_W(OP)                                                                       \
    CK__W(OP, bool), CK__W(OP, int8), CK__W(OP, int16), CK__W(OP, int32), CK__W(OP, uint8),  \
        CK__W(OP, uint16), CK__W(OP, uint32), CK__W(OP, float32)

const ck__reduce_ops_table CK_TARGET_NAME(ck__reduce_ops) = {
    .acc = {
        [CK__ARITH_ADD] = {CK__ALL(add)},
        [CK__ARITH_MULTIPLY] = {CK__ALL(multiply)},
        [CK__ARITH_MINIMUM] = {CK__ALL(minimum)},
        [CK__ARITH_MAXIMUM] = {CK__ALL(maximum)},
        [CK__ARITH_LOGICAL_AND] = {CK__A(logical_and, bool)},
        [CK__ARITH_LOGICAL_OR] = {CK__A(logical_or, bool)},
    },
    .split = {
        [CK__ARITH_ADD] = {CK__ALL_SPLIT(add)},
        [CK__ARITH_MULTIPLY] = {CK__ALL_SPLIT(multiply)},
        [CK__ARITH_MINIMUM] = {CK__ALL_SPLIT(minimum)},
        [CK__ARITH_MAXIMUM] = {CK__ALL_SPLIT(maximum)},
    },
    .scan = {
        [CK__ARITH_ADD] = {CK__ALL_S(add)},
        [CK__ARITH_MULTIPLY] = {CK__ALL_S(multiply)},
        [CK__ARITH_MINIMUM] = {CK__ALL_S(minimum)},
        [CK__ARITH_MAXIMUM] = {CK__ALL_S(maximum)},
        [CK__ARITH_LOGICAL_AND] = {CK__S(logical_and, bool)},
        [CK__ARITH_LOGICAL_OR] = {CK__S(logical_or, bool)},
    },
    .scan_from = {
        [CK__ARITH_ADD] = {CK__ALL_SF(add)},
        [CK__ARITH_MULTIPLY] = {CK__ALL_SF(multiply)},
        [CK__ARITH_MINIMUM] = {CK__ALL_SF(minimum)},
        [CK__ARITH_MAXIMUM] = {CK__ALL_SF(maximum)},
        [CK__ARITH_LOGICAL_AND] = {CK__SF(logical_and, bool)},
        [CK__ARITH_LOGICAL_OR] = {CK__SF(logical_or, bool)},
    },
    .dot = {
        [ck__id_bool] = ck__dot_bool, [ck__id_int8] = ck__dot_int8, [ck__id_int16] = ck__dot_int16,
        [ck__id_int32] = ck__dot_int32, [ck__id_int64] = ck__dot_int64,
        [ck__id_uint8] = ck__dot_uint8, [ck__id_uint16] = ck__dot_uint16,
        [ck__id_uint32] = ck__dot_uint32, [ck__id_uint64] = ck__dot_uint64,
        [ck__id_float32] = ck__dot_float32, [ck__id_float64] = ck__dot_float64,
        [ck__id_complex64] = ck__dot_complex64, [ck__id_complex128] = ck__dot_complex128,
    },
    .widen = {
        [CK__ARITH_ADD] = {CK__ALL_W(add)},
        [CK__ARITH_MULTIPLY] = {CK__ALL_W(multiply)},
    },
    .rows = {
        [CK__ARITH_ADD] = {CK__ALL_R(add)},
        [CK__ARITH_MULTIPLY] = {CK__ALL_R(multiply)},
        [CK__ARITH_MINIMUM] = {CK__ALL_R(minimum)},
        [CK__ARITH_MAXIMUM] = {CK__ALL_R(maximum)},
        [CK__ARITH_LOGICAL_AND] = {CK__R(logical_and, bool)},
        [CK__ARITH_LOGICAL_OR] = {CK__R(logical_or, bool)},
    },
};
