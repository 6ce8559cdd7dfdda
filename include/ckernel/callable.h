/* ckernel/callable.h: callables (a name with signatures, each with a kernel factory), the
 * registry they live in, selection, and the N-ary composition that lifts a
 * factory's leaf over fixed, var and pointer dimensions with broadcasting and argument casts
 * (docs/design.md §10, docs/kernels.md §8).
 *
 * A factory builds only the leaf: a kernel taking `nargs` sources of its signature's scalar
 * types (aligned) and writing one element of the result type, or with core dimensions one
 * block of each (ck_core_dims below). ckernel composes everything around it: dimension
 * kernels with one stride per source, pointers, unaligned data, and cast kernels for
 * arguments (and the result) whose types differ from the signature's. */
#ifndef CKERNEL_CALLABLE_H
#define CKERNEL_CALLABLE_H

#include <stddef.h>

#include "ckernel/array.h"
#include "ckernel/builder.h"
#include "ckernel/cpu.h"
#include "ckernel/eval.h"
#include "ckernel/export.h"
#include "ckernel/kernel.h"
#include "ckernel/types.h"

CK_BEGIN_DECLS

/* Most sources a callable takes (and a composed kernel passes). */
#define CK_CALL_MAX_ARGS 16

typedef struct ck_callable ck_callable;

/* Core dimensions (docs/design.md §14, docs/kernels.md §12): a signature's argument or result
 * may be dimensions over its scalar, "(N * float64, N * float64) -> float64" (dot), "(M * N *
 * float64) -> N * float64": the leaf takes each such operand whole, and ckernel broadcasts
 * and lifts only the dimensions outside them. A dimension is a symbol (an identifier starting
 * with an upper-case letter: the same size wherever it appears), a fixed size, or `var`
 * (arguments only). Each operand's pointer at the leaf is where its core block starts: the
 * first element of a fixed core dimension, or the ck_var_data of a var one. */
#define CK_CORE_MAX_DIMS 4

typedef struct ck_core_dim {
    intptr_t size;   /* fixed: the size; var: -1 (a row's size is its ck_var_data.size) */
    intptr_t stride; /* bytes from one element to the next */
    intptr_t offset; /* var: added to the row's begin (ckernel/arrmeta.h); fixed: 0 */
} ck_core_dim;

typedef struct ck_core_dims {
    int arg_ndim[CK_CALL_MAX_ARGS];                   /* argument k's core dimensions */
    ck_core_dim arg[CK_CALL_MAX_ARGS][CK_CORE_MAX_DIMS]; /* outermost first */
    int ret_ndim;                                     /* the result's (all fixed) */
    ck_core_dim ret[CK_CORE_MAX_DIMS];
} ck_core_dims;

/* What a factory is asked to build: its signature, after selection, and the context. */
typedef struct ck_leaf_info {
    const char *name;                   /* the callable's name */
    int nargs;                          /* 1 .. CK_CALL_MAX_ARGS */
    ck_type_id args[CK_CALL_MAX_ARGS];  /* the signature's argument scalar types */
    ck_type_id ret;                     /* the signature's result scalar type */
    ck_errmode errmode;                 /* concrete (never CK_ERRMODE_DEFAULT) */
    ck_cpu_target target;               /* the CPU target kernels built now use */
    ck_request req;                     /* which function the leaf must store */
    /* A signature with core dimensions: their sizes and strides in the data the kernel is
     * built for (copy what the leaf needs; it lives while instantiate runs). NULL for a
     * scalar signature, and for resolve. */
    const ck_core_dims *core;
    /* 2 for a signature of two results ("(float64) -> (float64, int32)"): the leaf writes
     * both into one C struct {ret; ret2;} at dst (the tuple type of the two), else 1. */
    int nret;
    ck_type_id ret2;
} ck_leaf_info;

/* A kernel factory. `instantiate` builds the leaf at *offset in ckb (reserve, write the
 * prefix, advance *offset: docs/kernels.md §3) and must copy into the kernel whatever the
 * kernel needs from `data` (or take its own reference): kernels outlive nothing.
 * `resolve` (optional) says which result scalar type the leaf writes for this signature; it
 * may refuse with a status and a message (ck_set_error). Without it, the result type is the
 * signature's. `release` (optional) is called once with `data` when the callable holding the
 * factory is freed, or when ck_callable_add fails. */
typedef struct ck_factory {
    int (*instantiate)(void *data, ck_builder *ckb, size_t *offset, const ck_leaf_info *info);
    int (*resolve)(void *data, const ck_leaf_info *info, ck_type_id *ret);
    void *data;
    void (*release)(void *data);
} ck_factory;

/* A new callable with no signature (one reference). Names are identifiers: a letter or '_'
 * then letters, digits or '_', at most 63 bytes; CK_ERR_INVALID otherwise. */
CK_EXTERN int ck_callable_new(const char *name, ck_callable **out);
/* Adds a signature, "(float64, float64) -> float64" or "dd)d" (docs/design.md §10), with its
 * factory. Safe while other threads select from and call the callable. The same argument
 * types twice is CK_ERR_INVALID. Core dimensions ("(N * float64, N * float64) -> float64",
 * datashape style only) must be the same in every signature of a callable, as a gufunc has
 * one core signature (CK_ERR_INVALID otherwise). On any failure the factory's release is
 * called. */
CK_EXTERN int ck_callable_add(ck_callable *c, const char *signature, const ck_factory *factory);
/* Adds a plain C function as a leaf, called through libffi with its CEP 1000 signature
 * ("dd)d" is double f(double, double); complex arguments are C _Complex values). The call
 * interface is prepared once when a kernel is built. bool is passed as C _Bool.
 * CK_ERR_UNSUPPORTED when this build has no libffi (CK_WITH_FFI in ckernel/config.h) or the
 * signature has a float16 or bfloat16 (libffi has no type for C _Float16 or __bf16). */
CK_EXTERN int ck_callable_add_native(ck_callable *c, const char *signature, void (*fn)(void));
/* Reference counting (atomic). The last decref releases every factory's data. NULL is fine. */
CK_EXTERN void ck_callable_incref(ck_callable *c);
CK_EXTERN void ck_callable_decref(ck_callable *c);
CK_EXTERN const char *ck_callable_name(const ck_callable *c);
/* How many results the callable's signatures have: 1, or 2 (divmod, modf, frexp: a call's
 * destination holds the tuple of the two); 0 for a callable with no signature or NULL. */
CK_EXTERN int ck_callable_result_count(const ck_callable *c);
/* The signatures, one per line in the datashape style, sorted ("(float64, float64) ->
 * float64\n..."); free *out with ck_free. */
CK_EXTERN int ck_callable_signatures(const ck_callable *c, char **out);

/* ---- the registry (process-wide; the built-ins assign, add, subtract, multiply, divide,
 * minimum, maximum, logical_and, logical_or, negative and dot are always there) ---- */

/* Registers c under its name (takes a reference). CK_ERR_INVALID when the name is taken. */
CK_EXTERN int ck_register(ck_callable *c);
/* Removes `name` from the registry and drops the registry's reference (kernels already built
 * and references taken by ck_lookup stay valid). CK_ERR_TYPE when there is none. */
CK_EXTERN int ck_unregister(const char *name);
/* A new reference to the callable named `name`; CK_ERR_TYPE when there is none. */
CK_EXTERN int ck_lookup(const char *name, ck_callable **out);
/* Every registered name, sorted, one per line; free *out with ck_free. */
CK_EXTERN int ck_registry_names(char **out);

/* ---- selection ---- */

/* How a callable picks a signature for its arguments' types (docs/design.md §10). */
typedef enum ck_selection {
    /* The best match by conversion kinds, whatever the order of the signatures; a tie is
     * CK_ERR_AMBIGUOUS (the default). */
    CK_SELECT_BEST = 0,
    /* NumPy's ufunc rule: the first signature, in the order they were added, to which every
     * argument casts safely as np.can_cast(from, to, "safe") says (int64 to float64 is safe,
     * int32 to float32 is not); never a tie. With CK_EVAL_ALLOW_UNSAFE and no such
     * signature, the best match. The built-in NumPy functions select so. */
    CK_SELECT_FIRST_SAFE = 1
} ck_selection;

/* Sets c's rule; only before its first signature is added (CK_ERR_INVALID after, and for an
 * unknown rule). */
CK_EXTERN int ck_callable_set_selection(ck_callable *c, ck_selection rule);
CK_EXTERN ck_selection ck_callable_selection(const ck_callable *c);

/* CK_EVAL_ALLOW_UNSAFE (ckernel/eval.h) lets selection use signatures that need an unsafe
 * argument conversion. Which signature `args` (scalar ids) select: its index in the sorted
 * list of ck_callable_signatures, or CK_ERR_TYPE (none fits; the message lists the
 * candidates) / CK_ERR_AMBIGUOUS (a tie; the message lists the tied ones). *why (may be
 * NULL; free with ck_free) gets "(float64, float64) -> float64: 0 unsafe, 0 inexact, 1 safe,
 * 0 promote, 4 bytes wider" (for (int32, float64)), or "...: exact".
 * Warm selections come from a per-callable cache. */
CK_EXTERN int ck_callable_select(const ck_callable *c, int nargs, const ck_type_id *args,
                                 const ck_eval_ctx *ectx, int *index, char **why);

/* ---- kernels ---- */

/* Builds at *offset the kernel dst <- c(src[0], ..., src[nsrc-1]): selects a signature for
 * the sources' scalar types, broadcasts every source against the destination over fixed, var
 * and pointer dimensions (a missing or size-1 dimension broadcasts; var sizes are checked
 * when the kernel runs; a signature's core dimensions are the leaf's, not broadcast), casts
 * arguments and the result where their types differ from the signature's (with the
 * context's error mode), and lets the factory build the leaf. ectx NULL means
 * CK_EVAL_CTX_INIT. On failure, destroy the builder. */
CK_EXTERN int ck_make_call(ck_builder *ckb, size_t *offset, ck_callable *c,
                           const ck_type *dst_tp, const char *dst_arrmeta, int nsrc,
                           const ck_type *const *src_tp, const char *const *src_arrmeta,
                           ck_request req, const ck_eval_ctx *ectx);
/* The type a call produces: the sources broadcast together (fixed sizes 1 and N give N; a
 * var dimension anywhere in a level makes it var; pointers are read through) over the
 * selected signature's result type (with its core dimensions, sized from the arguments'). One
 * reference in *out. */
CK_EXTERN int ck_call_result_type(ck_callable *c, int nsrc, const ck_type *const *src_tp,
                                  const ck_eval_ctx *ectx, ck_type **out);
/* dst <- c(src...) for whole arrays: build, run once, destroy. */
CK_EXTERN int ck_call(ck_callable *c, const ck_array *dst, int nsrc, const ck_array *const *src,
                      const ck_eval_ctx *ectx);
/* A new array of ck_call_result_type holding c(src...). */
CK_EXTERN int ck_call_new(ck_callable *c, int nsrc, const ck_array *const *src,
                          const ck_eval_ctx *ectx, ck_array **out);

/* ---- reductions (docs/design.md §14, docs/kernels.md §12) ---- */

/* The identity of a binary callable: the literal (as ck_array_parse reads it: "0", "1",
 * "true", "inf", ...) of the value e with f(e, x) == x for every x. A reduction starts each
 * result from it, so a reduction over zero elements gives it. The built-ins add (0),
 * multiply (1), logical_and (true) and logical_or (false) have one; minimum and maximum have
 * none, as in NumPy. Set it once, before the callable is shared: CK_ERR_INVALID when it has
 * one already, or for an empty literal or one of more than 63 bytes. It is read as a value
 * of the accumulator's type when a reduction is built. */
CK_EXTERN int ck_callable_set_identity(ck_callable *c, const char *literal);
/* The identity's literal, or NULL when c has none. */
CK_EXTERN const char *ck_callable_identity(const ck_callable *c);

/* Flags of a reduction. */
#define CK_REDUCE_KEEPDIMS 0x1u /* the reduced dimensions stay in the result, with size 1 */
#define CK_REDUCE_SKIPNA 0x2u   /* NA elements of an option source are left out */

/* A reduction: a binary callable f, the source dimensions it folds, flags.
 * f needs a signature (A, A) -> A for the accumulator's type A, and an identity; minimum and
 * maximum reduce without one (from their type's extreme values), but refuse zero elements
 * (CK_ERR_INVALID), as NumPy does. A is the destination's scalar type; the result type
 * functions pick the one NumPy 1.24 gives: the result of f's signature selected for two
 * source elements, except that add and multiply of bool and of signed integers narrower than
 * 64 bits accumulate in int64, and of unsigned ones in uint64 (sum of int8 is int64). */
typedef struct ck_reduce_spec {
    ck_callable *callable;
    const int *axes; /* naxes source dimensions (0 the outermost, -1 the innermost); NULL: all */
    int naxes;
    unsigned flags;  /* CK_REDUCE_KEEPDIMS, CK_REDUCE_SKIPNA */
} ck_reduce_spec;

/* The callable a reduction named `name` folds with: sum add, prod multiply, min minimum, max
 * maximum, all logical_and, any logical_or; any other name is a registered callable's. A new
 * reference in *out; CK_ERR_TYPE when there is none. */
CK_EXTERN int ck_reduction_lookup(const char *name, ck_callable **out);
/* The type r gives for a source of type src_tp: its dimensions without the reduced ones (or
 * with size 1 in their place, CK_REDUCE_KEEPDIMS) over the accumulator's type. */
CK_EXTERN int ck_reduce_result_type(const ck_reduce_spec *r, const ck_type *src_tp,
                                    const ck_eval_ctx *ectx, ck_type **out);
/* Builds at *offset the kernel dst <- r(src): it writes every element of the destination
 * (whose scalar type is the accumulator's), so it may run again on new data. Elements are
 * cast to the accumulator's type with the context's error mode (into a bool accumulator:
 * their truth values). Float sums are blocked pairwise sums whose bits depend on the data
 * and its layout only, never on the CPU target. With no axis (naxes 0) it is a cast. */
CK_EXTERN int ck_make_reduce(ck_builder *ckb, size_t *offset, const ck_reduce_spec *r,
                             const ck_type *dst_tp, const char *dst_arrmeta,
                             const ck_type *src_tp, const char *src_arrmeta, ck_request req,
                             const ck_eval_ctx *ectx);
/* dst <- r(src) for whole arrays: build, run once, destroy. */
CK_EXTERN int ck_reduce(const ck_reduce_spec *r, const ck_array *dst, const ck_array *src,
                        const ck_eval_ctx *ectx);
/* A new array of ck_reduce_result_type holding r(src). */
CK_EXTERN int ck_reduce_new(const ck_reduce_spec *r, const ck_array *src,
                            const ck_eval_ctx *ectx, ck_array **out);

/* ---- accumulations (cumsum, ...): out[0] = x[0], out[i] = f(out[i-1], x[i]) along one axis,
 * the result of the source's shape over the accumulator's type (chosen as for a reduction:
 * cumsum of int8 is int64, cummax keeps the type). The spec names exactly one axis
 * (naxes 1; CK_ERR_INVALID otherwise, and with CK_REDUCE_KEEPDIMS). No identity is needed.
 * The axis may be fixed or var (each row its own run); the dimensions below it must be
 * fixed for now. ---- */

/* The callable an accumulation named `name` folds with: cumsum add, cumprod multiply, cummin
 * minimum, cummax maximum; any other name is a registered callable's. */
CK_EXTERN int ck_accumulation_lookup(const char *name, ck_callable **out);
CK_EXTERN int ck_accumulate_result_type(const ck_reduce_spec *r, const ck_type *src_tp,
                                        const ck_eval_ctx *ectx, ck_type **out);
/* Builds the kernel dst <- accumulate(src) (the destination of the source's shape). */
CK_EXTERN int ck_make_accumulate(ck_builder *ckb, size_t *offset, const ck_reduce_spec *r,
                                 const ck_type *dst_tp, const char *dst_arrmeta,
                                 const ck_type *src_tp, const char *src_arrmeta, ck_request req,
                                 const ck_eval_ctx *ectx);
CK_EXTERN int ck_accumulate(const ck_reduce_spec *r, const ck_array *dst, const ck_array *src,
                            const ck_eval_ctx *ectx);
CK_EXTERN int ck_accumulate_new(const ck_reduce_spec *r, const ck_array *src,
                                const ck_eval_ctx *ectx, ck_array **out);

/* ---- describing user kernels ---- */

/* What a describe callback writes to (opaque). */
typedef struct ck_describer ck_describer;
/* Appends to the kernel's line (its parameters). */
CK_EXTERN void ck_describe_printf(ck_describer *d, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Declares a child kernel `rel_offset` bytes behind the kernel (any number, in order). */
CK_EXTERN void ck_describe_child(ck_describer *d, size_t rel_offset);

/* A kind of user kernel, recognised by its functions in ck_kernel_describe and `ckernel
 * explain`. `size` is its struct's size; `describe` (optional) prints its parameters and
 * declares its children. The struct is copied; `name` must stay valid. Registering the same
 * functions again replaces nothing and succeeds. At most 1024 kinds. */
typedef struct ck_kernel_kind {
    const char *name;
    ck_single_fn single;
    ck_strided_fn strided;
    size_t size;
    void (*describe)(const ck_prefix *self, ck_describer *d);
} ck_kernel_kind;
CK_EXTERN int ck_kernel_kind_register(const ck_kernel_kind *kind);

CK_END_DECLS

#endif
