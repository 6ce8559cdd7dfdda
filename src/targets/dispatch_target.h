/* src/targets/dispatch_target.h: what every *.dispatch.c (a file compiled once per CPU
 * target, docs/design.md §8) starts with: the intrinsics and features this target's -march
 * provides, the per-target naming of its exported tables (CK_TARGET_NAME), the inlining
 * attributes of hot loops and cold error paths, and the C type of every scalar. */
#ifndef CKERNEL_DISPATCH_TARGET_H
#define CKERNEL_DISPATCH_TARGET_H

#include <stdint.h>

#include "ckernel/types.h"
#include "common/scalars.h"

/* Intrinsics only where this target's flags provide them (-march sets the macros). */
#if defined(__F16C__) || defined(__AVX2__) || defined(__AVX512F__)
#  include <immintrin.h>
#endif
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__)
#  define CK__HAVE_AVX512 1
#else
#  define CK__HAVE_AVX512 0
#endif
#if defined(__F16C__) && defined(__AVX__)
#  define CK__HAVE_F16C 1
#else
#  define CK__HAVE_F16C 0
#endif
/* aarch64: ASIMD converts half <-> single precision 4 lanes at a time (FCVTL, FCVTN) from
 * ARMv8.0 on, so every aarch64 target has the float16 conversion bodies. */
#if defined(__aarch64__) && defined(__ARM_NEON)
#  include <arm_neon.h>
#  define CK__HAVE_A64_F16 1
#else
#  define CK__HAVE_A64_F16 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The type names the files use as macro arguments include `bool`: it must not be
 * <stdbool.h>'s macro. */
#ifdef bool
#  error "a *.dispatch.c file must not see <stdbool.h>"
#endif

/* ---- per-target naming: every non-static symbol is spelled CK_TARGET_NAME(x) ---- */
#ifndef CK_CPU_TARGET_CURRENT
#  define CK_CPU_TARGET_CURRENT baseline
#endif
#ifndef CK_TARGET_NAME
#  define CK__TARGET_PASTE_(x, t) x##_##t
#  define CK__TARGET_PASTE(x, t) CK__TARGET_PASTE_(x, t)
#  define CK_TARGET_NAME(x) CK__TARGET_PASTE(x, CK_CPU_TARGET_CURRENT)
#endif

/* Helpers of the leaves are always inlined into them, so that the mode, the operation, the
 * type and the steps are constants in each loop (gcc would otherwise keep one copy of a big
 * loop and test them at run time, which also stops the fast loops from vectorizing). Error
 * reporting is cold and out of line, so the loops carry none of it. */
#if defined(__GNUC__) && !defined(__clang__)
#  define CK__HOT static inline __attribute__((always_inline))
#else
#  define CK__HOT static inline
#endif
#if defined(__GNUC__) || defined(__clang__)
#  define CK__COLD __attribute__((cold, noinline))
#else
#  define CK__COLD
#endif

/* ---- element types: ck__ct_<name> is the C type of a scalar (a complex: a struct of its
 * two parts, aligned as one part); ck__id_<name> its id (common/scalars.h) ---- */
#define CK__CT_TYPEDEF_1(n, part) typedef part ck__ct_##n;
#define CK__CT_TYPEDEF_2(n, part)                                                           \
    typedef struct ck__ct_##n {                                                             \
        part v[2];                                                                          \
    } ck__ct_##n;
#define CK__CT_TYPEDEF(E, n, part, psize, parts, ...) CK__CT_TYPEDEF_##parts(n, part)
CK_SCALAR_TABLE(CK__CT_TYPEDEF)

#ifdef __cplusplus
}
#endif

#endif
