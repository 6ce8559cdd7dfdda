/* src/expr/expr_internal.h: what the expression layer's files share: the parsed expression
 * (an immutable DAG, expr_parse.c), its plan for one build (a selected signature and a type
 * per node, expr_build.c) and the kernel that evaluates a plan over chunks (expr_kernel.c).
 * The layer sits on the callables: it selects with their selector and builds each node's leaf
 * with a call's leaf builder (callables/call.c), under the composition walk. */
#ifndef CKERNEL_EXPR_INTERNAL_H
#define CKERNEL_EXPR_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "callables/callable_internal.h"
#include "ckernel/expr.h"
#include "jit/jit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Deepest nesting the parser follows (parentheses, calls, unary minus): its recursion and
 * the formatter's are bounded by it. */
#define CK__EXPR_MAX_DEPTH 200

typedef enum ck__expr_kind {
    CK__EXPR_ARG,  /* a named argument */
    CK__EXPR_LIT,  /* a literal: bool, int64 (uint64 beyond), float64 or complex128, as
                    * Python types its numbers (value-based beside arrays: expr_types.c) */
    CK__EXPR_CAST, /* float64(x): one operand, cast to `type` */
    CK__EXPR_CALL, /* a callable applied to its operands (+ - * / and unary - included) */
    CK__EXPR_REDUCE /* sum prod min max any all of its one operand (expr_reduce.c): `op` the
                     * name, `callable` the reduction's (add, ...), `naxes` -1 for every
                     * axis, else that many axes in `value` as int8 */
} ck__expr_kind;

/* One node. Operands always come before the nodes that use them, so the nodes' order is an
 * evaluation order, and the last node is the root. Arguments are shared (one node per name);
 * every other node has one user. */
typedef struct ck__expr_node {
    ck__expr_kind kind;
    int column;            /* 1-based column of its text (an operator's symbol) */
    const char *op;        /* an operator's symbol ("+", "<=", "**"; "-" and "~" with one
                            * operand are unary), ".real"/".imag"; NULL for a named call */
    ck_type_id type;       /* LIT: its type; CAST: the target */
    int arg;               /* ARG: its index among the names */
    int nops, first;       /* CALL, CAST, REDUCE: operands[first .. first + nops - 1] */
    int naxes;             /* REDUCE: -1 (every axis) or the count of axes in value */
    ck_callable *callable; /* CALL: a reference */
    _Alignas(16) unsigned char value[16]; /* LIT: the value, as its type stores it */
} ck__expr_node;

struct ck_expr {
    atomic_long refs;
    int nnodes;
    int nnames;
    ck__expr_node *nodes; /* nnodes, in one block with the rest */
    int *operands;
    const char *names[CK_CALL_MAX_ARGS]; /* the arguments' names, NUL-terminated, in the block */
};

/* ---- one build's plan (expr_build.c) ---- */

/* What a node is in one build: its scalar type, and either a constant (a literal, or a cast
 * of a constant, made when the plan is made) or an operation. */
typedef struct ck__expr_pnode {
    ck_type_id type;
    int is_const;
    int scalar; /* 0-d: a constant, a 0-d source, or an operation on such alone (NumPy's
                 * scalars: beside arrays they do not count as arrays, expr_types.c) */
    _Alignas(16) unsigned char value[16]; /* is_const: the value in `type` */
    int src;                              /* ARG: the walk's source index */
    ck__call_plan call;                   /* CALL: the selected signature */
    /* CALL: operand k's constant cast to the signature's type k (when operand k is one) */
    _Alignas(16) unsigned char opval[CK_CALL_MAX_ARGS][16];
    int nops;                             /* CALL: the operands it reads (1 for a power
                                           * rewritten as NumPy rewrites x ** 2) */
    ck_callable *rewritten;               /* CALL: that power's callable, a reference */
    int last_use;                         /* the last step reading it (kernel building) */
    int slot;                             /* its scratch slot, or -1 */
} ck__expr_pnode;

typedef struct ck__expr_plan {
    const ck_expr *e;
    ck__expr_pnode *nodes; /* e->nnodes */
    ck_errmode mode;
    unsigned flags;
    int nsrc;
    ck_type_id src_id[CK_CALL_MAX_ARGS]; /* every source's innermost scalar */
    int src_0d[CK_CALL_MAX_ARGS];        /* a source of no dimension (a scalar or ?scalar) */
    int option;                          /* a source holds an option */
} ck__expr_plan;

/* The kernel of a plan over scalars dt <- st[0..nsrc-1] (the composition's leaf maker,
 * expr_kernel.c): leaf_data is the ck__expr_plan. */
struct ck__compose;
int ck__expr_leaf(const struct ck__compose *c, ck_builder *ckb, size_t *offset,
                  const ck_type *dt, const ck_type *const *st, ck_request req, unsigned flags,
                  uintptr_t dst_bits, const uintptr_t *src_bits);

/* The kernel of an expression of literals only, at *offset: it runs its child (built next, at
 * the advanced *offset, for one 0-d source) with that source pointing at itself, so callers
 * pass no sources. */
int ck__expr_noargs(ck_builder *ckb, size_t *offset, ck_request req);

/* The plan as the JIT's program (expr_jit.c): prog[0 .. *nnodes-1], or *nnodes 0 and the
 * reason it cannot be compiled exactly in why. A failure status only for an internal error. */
int ck__expr_jit_program(const ck__expr_plan *pl, ck__jit_node *prog, int *nnodes, char *why,
                         size_t cap);

/* Which source each argument of e is (perm[j] for argument j), from the caller's names (NULL:
 * the arguments in order); CK_ERR_INVALID for a name missing, unknown or given twice. */
int ck__expr_match_names(const ck_expr *e, int nargs, const char *const *names, int *perm);
/* ck_expr_result_type, ck_expr_eval and ck_expr_eval_new (dst NULL: into a new *out) of an
 * expression with reductions (expr_reduce.c): each reduction's operand evaluated, reduced and
 * put in its place; `parallel` (ck_parallel_expr): each evaluation and reduction split
 * across threads (ck_parallel_expr, ck_parallel_reduce: the same bits). */
int ck__expr_result_type_reduced(const ck_expr *e, int nargs, const char *const *names,
                                 const ck_type *const *src_tp, const ck_eval_ctx *ectx,
                                 ck_type **out);
int ck__expr_eval_reduced(const ck_expr *e, const ck_array *dst, int nargs,
                          const char *const *names, const ck_array *const *src,
                          const ck_eval_ctx *ectx, int parallel, ck_array **out);

/* ck_make_expr for types that are the elements of `first_dim` enclosing dimensions (the
 * parallel split builds the kernel of one row): messages number dimensions as in the whole;
 * the destination counts as `outer_rows` such rows when streaming stores are decided. */
int ck__make_expr_at(ck_builder *ckb, size_t *offset, const ck_expr *e, const ck_type *dst_tp,
                     const char *dst_arrmeta, int nargs, const char *const *names,
                     const ck_type *const *src_tp, const char *const *src_arrmeta,
                     ck_request req, const ck_eval_ctx *ectx, int first_dim,
                     size_t outer_rows);

/* The types call node i's operands take in selection (expr_types.c): a constant's by its
 * value beside arrays, as NumPy 1.24's; alt[k] another type for operand k to try when no
 * signature takes the first (-1: none). `name` is the call's callable. */
int ck__expr_operand_types(const ck__expr_plan *pl, int i, const char *name, ck_type_id *types,
                           int *alt);

/* Casts a constant of type `from` to `to` in `mode` with the assignment leaf (what a call's
 * argument cast does to each element), prefixing a failure with the column. */
int ck__expr_cast_const(ck_type_id to, void *out, ck_type_id from, const void *in,
                        ck_errmode mode, int column);

#ifdef __cplusplus
}
#endif

#endif
