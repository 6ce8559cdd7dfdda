/* src/builders/compose.h: the one composition walk (compose.c) that builds the kernel for a
 * destination and N sources: pointers, then dimensions with broadcasting, then a leaf made
 * by a caller-given maker (the assignment leaf for ck_make_assign, a callable's leaf for
 * ck_make_call). */
#ifndef CKERNEL_BUILDERS_COMPOSE_H
#define CKERNEL_BUILDERS_COMPOSE_H

#include <stdint.h>

#include "ckernel/builder.h"
#include "ckernel/callable.h"
#include "ckernel/eval.h"
#include "ckernel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CK__MAX_SRC CK_CALL_MAX_ARGS
enum { CK__MAY_STREAM = 1, CK__MAY_STREAM_DENSE = 2 }; /* ck__compose.may_stream */

/* Internal flag of the walk (never taken from a caller's context): the run of fixed
 * dimensions above the leaf writes a destination above the streaming threshold, contiguous
 * in its innermost dimension; the assignment leaf maker then puts the streaming kernel
 * (leaves/numeric/streaming.c) over the leaf. */
#define CK__EVAL_STREAM 0x80000000u
/* Whether a leaf maker puts the streaming kernel over its leaf: the walk streams the
 * destination and the leaf's destination is aligned (a misaligned one goes through a buffer
 * of the leaf's own: the unaligned kernel, or call_args' result scratch). */
static inline int ck__leaf_streams(unsigned flags, uintptr_t dst_bits, const ck_type *dt) {
    return (flags & CK__EVAL_STREAM) != 0 && (flags & CK_EVAL_DST_UNALIGNED) == 0 &&
           (dst_bits & (ck_type_data_alignment(dt) - 1)) == 0;
}
/* Internal flag: the leaf writes the value of an option of text (under the option kernel) in
 * a checked mode, so a text leaf must refuse a result whose bits are that option's NA (every
 * byte 0xff), as the option kernel's check refuses a number's. */
#define CK__EVAL_REFUSE_NA 0x40000000u

typedef struct ck__compose ck__compose;

/* Builds the leaf at *offset for scalar dt <- scalar st[0..nsrc-1]. dst_bits / src_bits are
 * every stride and offset that moved the operands since their last known-aligned base,
 * OR-ed together (with c->flags, they say which operands may be misaligned). */
typedef int (*ck__leaf_maker)(const ck__compose *c, ck_builder *ckb, size_t *offset,
                              const ck_type *dt, const ck_type *const *st, ck_request req,
                              unsigned flags, uintptr_t dst_bits, const uintptr_t *src_bits);

/* The leaf of a call whose signature has core dimensions, at the level where only they are
 * left: the operands' types and arrmeta there (ck__compose.core). */
typedef int (*ck__core_leaf_maker)(const ck__compose *c, ck_builder *ckb, size_t *offset,
                                   const ck_type *dt, const char *dam, const ck_type *const *st,
                                   const char *const *sam, ck_request req, unsigned flags,
                                   uintptr_t dst_bits, const uintptr_t *src_bits);

struct ck__compose {
    const ck_type *dst_top;           /* for messages */
    const ck_type *const *src_top;    /* nsrc of them */
    int nsrc;                         /* 1 .. CK__MAX_SRC */
    ck_errmode mode;                  /* concrete */
    unsigned flags;                   /* CK_EVAL_* */
    ck__leaf_maker make_leaf;
    const void *leaf_data;            /* the maker's own */
    /* The JIT (src/jit): the operation a run of fixed dimensions over the leaf may be
     * compiled as (a ck__jit_op; -1: never), and the type it computes in (for assignment,
     * -1: the source's). */
    int jit_op;
    int jit_op_id;
    const ck_type_id *jit_param_id; /* what each argument is cast to; NULL: jit_op_id */
    void (*jit_fn)(void);           /* a native call's function */
    void (*jit_chunk)(void);        /* its chunk form (ck__jit_node.vector_fn), or NULL */
    /* CK__JIT_OP_EXPR: an expression's program (src/expr/expr_jit.c), jit_op_id its result
     * type; or, with jit_nodes NULL, jit_why_not says why it cannot be compiled (recorded as
     * the JIT's decision where the walk would have tried it). */
    const struct ck__jit_node *jit_nodes;
    int jit_nnodes;
    const char *jit_why_not;
    /* Streaming stores: CK__MAY_STREAM when the leaf maker can put the streaming kernel
     * over its leaf (an assignment) or streams by itself (an expression),
     * CK__MAY_STREAM_DENSE when it can only for sources dense or broadcast along the run (a
     * call), else 0; the destination's total size is the walk's fixed sizes times
     * outer_rows (the rows of a parallel split, built for one row; else 1). */
    int may_stream;
    size_t outer_rows;
    /* 1 for an assignment (one source, the cast leaf): an option assigned to an option of
     * the same type is a copy (NA travels as its bits); a call's leaf must skip NA. */
    int assign;
    /* A call with core dimensions (NULL otherwise): core[0] is how many of the destination's
     * innermost dimensions its leaf takes whole, core[1 + k] source k's (every operand has
     * at least as many). The walk broadcasts and lifts over the other dimensions only, then
     * calls make_core_leaf. */
    const int *core;
    ck__core_leaf_maker make_core_leaf;
    /* A call's leaf where an operand is text (a built-in's text operation; NULL: callables
     * take numbers), given the operands' types and arrmeta there. */
    ck__core_leaf_maker make_text_leaf;
    /* 1 for a call of two results: its leaf writes a destination tuple (or struct: the
     * names do not matter) whole, laid out as a C struct, where an assignment's walk goes
     * into the fields. */
    int leaf_writes_tuple;
};

/* Dimensions of t, counting those behind pointers: pointers are dereferenced before
 * dimensions are matched, so "2 * pointer[2 * int64]" has two. */
int ck__dims_through_pointers(const ck_type *t);

/* Builds the whole kernel at *offset. `first_dim` numbers the outermost dimension in
 * messages (the parallel split builds the kernel of one row). */
int ck__compose_build(ck_builder *ckb, size_t *offset, const ck__compose *c,
                      const ck_type *dst_tp, const char *dst_arrmeta,
                      const char *const *src_arrmeta, ck_request req, int first_dim);

/* The assignment leaf: scalar dt <- st in c->mode, wrapped in the unaligned kernel when an
 * operand may be misaligned. Also the cast kernels of callables' arguments. */
int ck__make_assign_leaf(ck_builder *ckb, size_t *offset, const ck_type *dt, const ck_type *st,
                         ck_errmode mode, ck_request req, unsigned flags, uintptr_t dst_bits,
                         uintptr_t src_bits);

/* Resolves a context (NULL = defaults) into a concrete mode and flags. */
int ck__resolve_eval_ctx(const ck_eval_ctx *ectx, ck_errmode *mode, unsigned *flags);

#ifdef __cplusplus
}
#endif

#endif
