/* ckernel/expr.h: fused expressions over named arguments, "a * x + b" or "hypot(x, y) / 2":
 * parsed once into an immutable expression (a small DAG of arguments, literals, casts and
 * calls of registered callables), then built into ONE kernel: the composition walk broadcasts
 * every argument together over fixed, var and pointer dimensions, as an N-ary ck_make_call
 * does, and the expression is the leaf at its bottom, evaluating node by node over chunks of
 * at most 1024 elements in stack scratch (no full-size temporaries). docs/design.md §15,
 * docs/kernels.md §13.
 *
 * Grammar: + - * / (left-associative, * and / binding tighter), unary -, parentheses,
 * numeric literals, names of arguments, and calls NAME(e, ...) of any registered callable
 * (+ - * / and unary - are add, subtract, multiply, divide and negative). A scalar type name
 * called with one argument, float64(x) or int8(3), is a cast. Literals are typed values: an
 * integer is the smallest of int8, int16, int32, int64 that holds it (a '-' directly in front
 * of it is part of it: -128 is int8), any other number (a point or an exponent) is float64. */
#ifndef CKERNEL_EXPR_H
#define CKERNEL_EXPR_H

#include <stddef.h>

#include "ckernel/array.h"
#include "ckernel/builder.h"
#include "ckernel/eval.h"
#include "ckernel/export.h"
#include "ckernel/kernel.h"
#include "ckernel/types.h"

CK_BEGIN_DECLS

typedef struct ck_expr ck_expr;

/* Parses `text` into a new expression (one reference). Syntax errors are CK_ERR_PARSE with
 * the 1-based column and what was expected ("expression 'a * ': expected a number, a name or
 * '(' at column 5, found the end"); calls of names no callable is registered under are
 * CK_ERR_TYPE listing every such name with its column. The callables called are looked up
 * now and referenced by the expression. At most CK_CALL_MAX_ARGS (16) distinct argument
 * names, 16 arguments per call and 200 levels of nesting. */
CK_EXTERN int ck_expr_parse(const char *text, ck_expr **out);
/* Reference counting (atomic); an expression never changes, so threads share it. The last
 * decref releases its callables. NULL is fine. */
CK_EXTERN void ck_expr_incref(ck_expr *e);
CK_EXTERN void ck_expr_decref(ck_expr *e);
/* Its argument names, in the order of their first appearance in the text. */
CK_EXTERN int ck_expr_nargs(const ck_expr *e);
CK_EXTERN const char *ck_expr_arg_name(const ck_expr *e, int i);
/* The expression with the arguments names[0 .. n-1] bound to values (each a 0-d array of a
 * number type: bool, an integer, a float or a complex), into a new expression (one reference)
 * whose other arguments keep their order. A bound argument is a constant of its value's type,
 * typed by its value beside arrays as NumPy 1.24 types a 0-d array or NumPy scalar: an int16
 * 0-d array holding 5 times an int8 array is int8, holding 300 it is int16; among 0-d values
 * and literals alone each keeps its type (docs/design.md §17). The values are copied. An
 * unknown name is CK_ERR_INVALID, a value that is not one number CK_ERR_TYPE. */
CK_EXTERN int ck_expr_bind(const ck_expr *e, int n, const char *const *names,
                           const ck_array *const *values, ck_expr **out);
/* The number of reductions (sum prod min max any all) in the expression. An expression with
 * reductions is evaluated by ck_expr_eval and ck_expr_eval_new: each reduction's operand is
 * evaluated into its broadcast shape and reduced (ck_reduce: its types and bits), then used
 * in its place, a reduction to one value as a NumPy scalar (typed by its value beside
 * arrays: ck_expr_eval_new's result type follows it; ck_expr_result_type, which knows no
 * values, types it by its type). ck_make_expr refuses them (CK_ERR_UNSUPPORTED). */
CK_EXTERN int ck_expr_reductions(const ck_expr *e);
/* The expression with every operation in parentheses and every literal with its type:
 * "((a * x) + 0.5:float64)". Free *out with ck_free. */
CK_EXTERN int ck_expr_format(const ck_expr *e, char **out);

/* Sources: nargs arguments, each named names[k] (NULL names: in the order of
 * ck_expr_arg_name), with its type and arrmeta. Every argument of the expression is given
 * exactly once, and no other name (CK_ERR_INVALID otherwise). */

/* The type the expression gives for these sources: the sources' dimensions broadcast together
 * as by ck_call_result_type, over the scalar type of its last operation (selected per node
 * as ck_make_call selects); an option when a source holds one. One reference in *out. */
CK_EXTERN int ck_expr_result_type(const ck_expr *e, int nargs, const char *const *names,
                                  const ck_type *const *src_tp, const ck_eval_ctx *ectx,
                                  ck_type **out);
/* Builds at *offset the kernel dst <- e(sources). Each call node's signature is selected
 * bottom-up from its operands' scalar types with ck_make_call's rules, its arguments cast
 * where the signature needs (with the context's error mode), and the last result cast into
 * the destination's type. A literal's cast to the signature's type is made here, once (its
 * failure is a build failure). A failure while the kernel runs is the failing node's own
 * status and message, prefixed by its column in the text. An expression of literals only
 * takes no sources (nargs 0, names, src_tp and src_arrmeta may be NULL; its kernel is called
 * with src NULL): a 0-d result, cast and broadcast into dst_tp. The kernel holds no
 * reference to e. */
CK_EXTERN int ck_make_expr(ck_builder *ckb, size_t *offset, const ck_expr *e,
                           const ck_type *dst_tp, const char *dst_arrmeta, int nargs,
                           const char *const *names, const ck_type *const *src_tp,
                           const char *const *src_arrmeta, ck_request req,
                           const ck_eval_ctx *ectx);
/* dst <- e(src...) for whole arrays: build, run once, destroy. */
CK_EXTERN int ck_expr_eval(const ck_expr *e, const ck_array *dst, int nargs,
                           const char *const *names, const ck_array *const *src,
                           const ck_eval_ctx *ectx);
/* A new array of ck_expr_result_type holding e(src...). */
CK_EXTERN int ck_expr_eval_new(const ck_expr *e, int nargs, const char *const *names,
                               const ck_array *const *src, const ck_eval_ctx *ectx,
                               ck_array **out);

CK_END_DECLS

#endif
