/* src/leaves/math/jit_scalars.c: the scalar entry points the JIT calls for NumPy's functions
 * (ufunc_list.h), one C function per LEAF and VMATH loop whose operands and result are types
 * the JIT computes in (32- and 64-bit integers, float32, float64), with exactly the leaf's
 * bits for each element, and their lookup by loop (docs/design.md §11).
 *
 * A LEAF loop's entry is its element function (math_ops.h). A VMATH loop's is its vector
 * kernel of vmath_ops.h itself, one element at a time, as the baseline target compiles it
 * (SLEEF's 128-bit functions, of the family the process chose, ck_cpu_vector_math_fma: each
 * family gives the same bits on every ISA, so these equal every target's leaves): the
 * corrections and the NaN canonicalization are vmath_ops.h's own, not a copy. Where the
 * leaves have no SLEEF (an architecture without a vector target), neither has this file,
 * and both use libm's functions. Compiled once (not per target), with the leaves' flags
 * (no FMA contraction, no errno; src/leaves/math/CMakeLists.txt): the element functions give
 * the same bits on every target, which tests/jit/jit_ufunc_test.cpp checks under each one.
 * Generated from the tables: a new function or loop needs no edit here. */
#include <stdint.h>

#include "common/internal.h"
#include "targets/dispatch_target.h"

#include "leaves/math/math_ops.h"
#include "leaves/math/ufunc_list.h"
#include "leaves/math/vmath_ops.h"

#define CK__UJ_FN(name, a, b, r) ck__ujs_##name##__##a##_##b##__##r

/* The entry points: LEAF and VMATH loops, by operands. */
#define CK__UJ_DEF_LEAF_1(name, a, b, r)                                                           \
  static ck__ct_##r CK__UJ_FN(name, a, b, r)(ck__ct_##a x) {                                       \
    return ck__uf_##name##_##a(x);                                                                 \
  }
#define CK__UJ_DEF_LEAF_2(name, a, b, r)                                                           \
  static ck__ct_##r CK__UJ_FN(name, a, b, r)(ck__ct_##a x, ck__ct_##b y) {                         \
    return ck__uf_##name##_##a##_##b(x, y);                                                        \
  }
#define CK__UJ_DEF_VMATH_1(name, a, b, r)                                                          \
  static ck__ct_##r CK__UJ_FN(name, a, b, r)(ck__ct_##a x) {                                       \
    ck__ct_##r out;                                                                                \
    ck__vm_##name##_##a(&out, &x, &x, 1);                                                          \
    return out;                                                                                    \
  }
#define CK__UJ_DEF_VMATH_2(name, a, b, r)                                                          \
  static ck__ct_##r CK__UJ_FN(name, a, b, r)(ck__ct_##a x, ck__ct_##b y) {                         \
    ck__ct_##r out;                                                                                \
    ck__vm_##name##_##a(&out, &x, &y, 1);                                                          \
    return out;                                                                                    \
  }
/* CHECKED loops refuse some arguments with a status a direct call cannot return; ARITH ones
 * are the JIT's own operations; REFUSE ones build nothing. */
#define CK__UJ_DEF_CHECKED_2(...)
#define CK__UJ_DEF_PAIR_1(...)
#define CK__UJ_DEF_PAIR_2(...)
#define CK__UJ_DEF_ARITH_2(...)
#define CK__UJ_DEF_REFUSE_1(...)
#define CK__UJ_DEF_REFUSE_2(...)
#define CK__UJ_DEF(name, I, NIN, a, b, r)                                                          \
  CK__UF_JIT_WHEN(a, b, r)(CK__UJ_DEF_##I##_##NIN, name, a, b, r)
#define CK__UJ_DEFS(name, ...) CK__UFL_##name(CK__UJ_DEF)
CK__UFUNC_LIST(CK__UJ_DEFS)

/* The table, by loop: the entry (NULL: none). */
typedef struct ck__uj_entry {
    ck__ufunc_scalar_fn fn;
} ck__uj_entry;
#define CK__UJ_ENTRY_ROW(name, I, NIN, a, b, r)                                                    \
  [CK__UFLOOP_##name##__##a##_##b##__##r] = {(ck__ufunc_scalar_fn)CK__UJ_FN(name, a, b, r)},
#define CK__UJ_ENTRY_LEAF CK__UJ_ENTRY_ROW
#define CK__UJ_ENTRY_VMATH CK__UJ_ENTRY_ROW
#define CK__UJ_ENTRY_CHECKED(...)
#define CK__UJ_ENTRY_PAIR(...) /* two results: the JIT computes one value per node */
#define CK__UJ_ENTRY_ARITH(...)
#define CK__UJ_ENTRY_REFUSE(...)
#define CK__UJ_ENTRY(name, I, NIN, a, b, r)                                                        \
  CK__UF_JIT_WHEN(a, b, r)(CK__UJ_ENTRY_##I, name, I, NIN, a, b, r)
#define CK__UJ_ENTRIES(name, ...) CK__UFL_##name(CK__UJ_ENTRY)
static const ck__uj_entry ck__uj_table[CK__UFUNC_NUM_LOOPS] = {CK__UFUNC_LIST(CK__UJ_ENTRIES)};

ck__ufunc_scalar_fn ck__ufunc_scalar(ck__ufunc_loop loop) {
    return (unsigned)loop < CK__UFUNC_NUM_LOOPS ? ck__uj_table[loop].fn : NULL;
}
