/* src/callables/callable_internal.h: what the callables' files share: a callable's
 * signature snapshot and entries, cached selection, the registry's internal insert and the
 * built-ins. */
#ifndef CKERNEL_CALLABLE_INTERNAL_H
#define CKERNEL_CALLABLE_INTERNAL_H

#include <stddef.h>

#include "ckernel/callable.h"
#include "signatures/signature.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One signature with its factory. `text` is the datashape form (the sort key). */
typedef struct ck__entry {
    ck__signature sig;
    ck_factory factory;
    char text[160];
    ck__core_sig core; /* its core dimensions (the same in every entry of a callable) */
    int order;         /* how many signatures were added before it */
} ck__entry;

/* A call's selected signature (call.c). */
typedef struct ck__call_plan {
    const char *name;
    const ck__entry *entry;
    ck_type_id ret;
    int jit_op; /* the built-in's operation when the JIT may compile the call, else -1 */
    void (*jit_fn)(void); /* a native function's, for a direct call */
    void (*jit_chunk)(void); /* its chunk form (ck__jit_node.vector_fn), or NULL */
} ck__call_plan;

/* Checks a call's arguments (NULL, count, tuples and structs refused; *option set when one
 * holds an option), resolves the context into *mode and *flags and selects the signature for
 * the arguments' innermost scalar types, with the factory's resolve. Also the selector of
 * every node of an expression (src/expr). */
int ck__plan_call(ck_callable *c, int nsrc, const ck_type *const *src_tp,
                  const ck_eval_ctx *ectx, ck_errmode *mode, unsigned *flags,
                  ck__call_plan *plan, int *option);
/* The leaf of a planned call over scalars dt <- st[0..nargs-1]: the factory's leaf alone, or
 * under call_args with the argument and result casts (in `mode`) the types and alignment
 * need (flags, dbits and sbits as for a ck__leaf_maker). ck_make_call's leaf, and each node
 * of an expression's. */
int ck__call_leaf_build(const ck__call_plan *p, ck_errmode mode, ck_builder *ckb,
                        size_t *offset, const ck_type *dt, const ck_type *const *st,
                        ck_request req, unsigned flags, uintptr_t dbits, const uintptr_t *sbits);
/* The dimensions of nsrc sources broadcast together, as ck_call_result_type gives them:
 * size[0..*nd-1] outermost first (-1: var), core[1 + k] of source k's innermost ones left
 * out, and cur[k] what is left of source k below them. CK_ERR_BROADCAST names `name`. */
int ck__broadcast_dims(const char *name, int nsrc, const ck_type *const *src_tp,
                       const int *core, intptr_t *size, int *nd, const ck_type **cur);

/* The call routes: value families whose built-ins take values the signatures cannot spell
 * (a datetime's unit, a text's length and encoding), so that their calls are built without
 * a signature. One row per family and the file that builds its calls; ck_make_call and
 * ck_call_result_type ask each row in turn, and the first that claims the call builds it:
 *   ck__<f>_call_claims       1 when c is a callable, nsrc a valid count and the arguments
 *                             hold the family's values (it checks src_tp)
 *   ck__make_<f>_call         ck__make_call_at for such a call (arrmeta already checked)
 *   ck__<f>_call_result_type  ck_call_result_type for it */
#define CK__CALL_ROUTE_LIST(X)                                                                 \
    X(time) /* datetime64 and timedelta64: add, subtract, comparisons (time_call.c) */        \
    X(text) /* text and bytes: comparisons, length, concat (text_call.c) */                  \
    X(matmul) /* matmul of a 1-d operand: NumPy's optional core dimensions (matmul_call.c) */
#define CK__CALL_ROUTE_DECLARE(f)                                                              \
    int ck__##f##_call_claims(const ck_callable *c, int nsrc, const ck_type *const *src_tp);   \
    int ck__make_##f##_call(ck_builder *ckb, size_t *offset, ck_callable *c,                   \
                            const ck_type *dst_tp, const char *dst_arrmeta, int nsrc,          \
                            const ck_type *const *src_tp, const char *const *src_arrmeta,      \
                            ck_request req, const ck_eval_ctx *ectx, int first_dim);           \
    int ck__##f##_call_result_type(ck_callable *c, int nsrc, const ck_type *const *src_tp,     \
                                   const ck_eval_ctx *ectx, ck_type **out);
CK__CALL_ROUTE_LIST(CK__CALL_ROUTE_DECLARE)

/* dst <- a kernel over whole arrays: `make` builds it (single request) for their types and
 * arrmeta, with the context's unaligned flags set from the actual pointers; it runs once.
 * ck_call's body, and ck_expr_eval's. */
typedef int (*ck__array_kernel_maker)(const void *data, ck_builder *b, size_t *off,
                                      const ck_type *dt, const char *dam, int nsrc,
                                      const ck_type *const *st, const char *const *sam,
                                      const ck_eval_ctx *ctx);
int ck__run_on_arrays(const char *who, const ck_array *dst, int nsrc,
                      const ck_array *const *src, const ck_eval_ctx *ectx,
                      ck__array_kernel_maker make, const void *data);

/* *out = a new array of type rt (its reference consumed) that fill(data, array) fills; on a
 * failure the array is freed and *out left alone. ck_call_new's tail, and an expression's. */
int ck__array_new_filled(ck_type *rt, int (*fill)(void *data, ck_array *a), void *data,
                         ck_array **out);

/* 1 when an operand of type t, moved by `bits` since an aligned base, may be misaligned
 * (or the context says so with `flag`). */
static inline int ck__misaligned(unsigned flags, unsigned flag, uintptr_t bits, const ck_type *t) {
    return (flags & flag) != 0 || (bits & (ck_type_data_alignment(t) - 1)) != 0;
}

/* ---- core dimensions (core.c) ---- */

/* Checks that every operand has its core dimensions (dst_tp may be NULL: not yet known) and
 * no option, and fills core[0] (the destination's) and core[1 + k] (argument k's) for the
 * composition walk (builders/compose.h). */
int ck__core_prepare(const ck__call_plan *p, int nsrc, const ck_type *dst_tp,
                     const ck_type *const *src_tp, int option, int *core);
/* The result's core type (its core dimensions over the result scalar) for arguments whose
 * types at their core level are core_tp. One reference in *out. */
int ck__core_result_inner(const ck__call_plan *p, int nsrc, const ck_type *const *core_tp,
                          ck_type **out);
/* The core dimensions of c's signatures (the same in all): 1 and core[0] the result's,
 * core[1 + k] argument k's (k < nargs), or 0 when c takes scalars (or has no signature). */
int ck__callable_core(const ck_callable *c, int nargs, int *core);
/* The walk's leaf maker for a call with core dimensions (ck__core_leaf_maker; leaf_data is
 * the ck__call_plan). */
struct ck__compose;
int ck__core_leaf(const struct ck__compose *c, ck_builder *ckb, size_t *offset,
                  const ck_type *dt, const char *dam, const ck_type *const *st,
                  const char *const *sam, ck_request req, unsigned flags, uintptr_t dst_bits,
                  const uintptr_t *src_bits);

/* The signatures of a callable at one moment (immutable; alive as long as the callable). */
typedef struct ck__snapshot ck__snapshot;
ck__snapshot *ck__callable_snapshot(const ck_callable *c);
const ck__entry *ck__snapshot_entry(const ck__snapshot *s, int i);
int ck__snapshot_size(const ck__snapshot *s);

/* Selection through the cache: the snapshot it was made in, the entry's index there and
 * its rating. Errors as ck__select's. */
int ck__callable_choose(const ck_callable *c, int nargs, const ck_type_id *args,
                        int allow_unsafe, const ck__snapshot **snap, int *index,
                        ck__rating *rating);

/* ck_make_call for types that are the elements of `first_dim` enclosing dimensions (the
 * parallel split builds the kernel of one row of `outer_rows`; else 1): messages number
 * dimensions as in the whole, and the whole destination decides whether it streams. */
int ck__make_call_at(ck_builder *ckb, size_t *offset, ck_callable *c, const ck_type *dst_tp,
                     const char *dst_arrmeta, int nsrc, const ck_type *const *src_tp,
                     const char *const *src_arrmeta, ck_request req, const ck_eval_ctx *ectx,
                     int first_dim, size_t outer_rows);

/* The registry's insert of a built-in (ck_register without registering the built-ins
 * first): its signatures so far are marked the library's (ck__callable_mark_library). */
int ck__registry_add(ck_callable *c);
/* Marks every signature c has now as the library's own: pure functions of their arguments. */
void ck__callable_mark_library(ck_callable *c);
/* 1 when e, an entry of c's, is one the library added (ck__callable_mark_library). */
int ck__callable_entry_is_library(const ck_callable *c, const ck__entry *e);
int ck__registry_has(const char *name);
/* The operation (ck__arith_op) of a built-in elementwise factory; -1 for any other. */
int ck__builtin_arith_op(const ck_factory *f);
/* The JIT operation (ck__jit_op) a built-in arithmetic factory's leaf computes; -1 for any
 * other factory (and for the operations the JIT does not compile). */
int ck__builtin_jit_op(const ck_factory *f);
/* The JIT operation of a comparison's factory (text_call.c), of a ufunc loop's the JIT
 * compiles inline (bitwise and logical: ufuncs.c); -1 for any other. */
int ck__compare_jit_op(const ck_factory *f);
int ck__ufunc_jit_op(const ck_factory *f);
/* 1 and the function the JIT calls directly (CK__JIT_OP_NATIVE) for f's leaf, with its chunk
 * form or NULL (ck__jit_node.vector_fn): a native function's (native.c: no chunk form), or
 * the scalar function of a ufunc loop (ck__ufunc_jit_function); else 0. */
int ck__native_function(const ck_factory *f, void (**fn)(void), void (**chunk)(void));
/* 1, the scalar function with the leaf's bits and its chunk form (for the target kernels
 * are built for now) when f is the factory of a ufunc loop the JIT calls (ufuncs.c,
 * leaves/math/jit_scalars.c), else 0. */
int ck__ufunc_jit_function(const ck_factory *f, void (**fn)(void), void (**chunk)(void));
/* ck_make_reduce for the element types of one row of the source's outermost (kept)
 * dimension (the parallel split): messages number dimensions from first_dim, as in the
 * whole. */
int ck__make_reduce_at(ck_builder *ckb, size_t *offset, const ck_reduce_spec *r,
                       const ck_type *dst_tp, const char *dst_arrmeta, const ck_type *src_tp,
                       const char *src_arrmeta, ck_request req, const ck_eval_ctx *ectx,
                       int first_dim);
/* For the parallel reduction (reduction.c): a reduction's accumulator type (dst_id, or as
 * ck_reduce_result_type chooses when -1), the built-in operation (ck__arith_op) whose
 * accumulate leaf it folds with, or -1, and the reduced dimensions' bits. */
int ck__reduce_plan_info(const ck_reduce_spec *r, const ck_type *src_tp, int dst_id,
                         const ck_eval_ctx *ectx, ck_type_id *acc_id, int *builtin_op,
                         uint64_t *reduced);
/* Registers the built-in callables (builtins.c) that are not registered yet. */
int ck__register_builtins(void);
/* Under CK_EVAL_FP_ERRORS in flags, and for a signature whose values can raise one
 * (fp_errors.c), the fp_check kernel at *offset, above the leaf its caller builds next
 * (*req becomes the leaf's: strided); else nothing. */
int ck__fp_check_wrap(ck_builder *ckb, size_t *offset, const ck_leaf_info *info,
                      unsigned flags, ck_request *req);
/* Under CK_EVAL_FP_ERRORS, and for a built-in sum or product (builtin_op add or multiply)
 * of floats or complex numbers (acc), the fp_flags kernel at *offset (request req), above
 * the reduction its caller builds next with the same request; else nothing. */
int ck__fp_flags_wrap(ck_builder *ckb, size_t *offset, const char *name, ck_type_id acc,
                      int builtin_op, unsigned flags, ck_request req);

/* Registers NumPy's functions (ufuncs.c: leaves/math/ufunc_list.h) not registered yet. */
int ck__register_ufuncs(void);
/* matmul (matmul_call.c). */
int ck__register_matmul(void);
/* Registers `name` (unless it is) with one signature "(<core[0]>T, <core[1]>T) ->
 * <core[2]>T" per scalar T of ids, in that order, each built by `instantiate`, selected by
 * `rule`: dot's and matmul's (core dimensions, docs/design.md §14). */
int ck__register_core_callable(const char *name, ck_selection rule, const char *const core[3],
                               const ck_type_id *ids, size_t n,
                               int (*instantiate)(void *, ck_builder *, size_t *,
                                                  const ck_leaf_info *));
/* The factory of the arithmetic leaf of op (leaves/numeric/arith_leaves.h) for the
 * signature's first argument type: what the ufuncs' ARITH loops run. */
struct ck_factory ck__arith_factory(int op);

/* ---- text (text_call.c) ---- */

/* Which of the built-ins that take text c is (a ck__text_op: the comparisons, length,
 * concat), -1 for any other callable, a user's of the same name included. */
int ck__text_builtin_op(const ck_callable *c);
/* Registers equal ... greater_equal ((T, T) -> bool for every scalar, and text), length and
 * concat (text only). */
int ck__register_text_builtins(void);

#ifdef __cplusplus
}
#endif

#endif
