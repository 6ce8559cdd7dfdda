/* src/expr/expr_jit.c: an expression's plan lowered to the JIT's program (jit/jit_plugin.h,
 * ck__jit_node), so the plugin compiles the whole expression into one loop, each operation
 * lowered as for a single call: a load per argument, a constant per constant operand (already
 * cast to the signature's type, as the expr leaf holds it), a cast per cast node and an
 * operation per call, in the plan's order. Where a node cannot be compiled to the composed
 * leaf's bits and status (a callable with no JIT form, an argument cast or a cast that can
 * fail), the whole expression is declined and the reason given; the plugin declines the
 * types it does not compute in (float16, complex; bool only in comparisons, where, and the
 * logical and bitwise operations) and integer division itself. */
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "signatures/signature.h"
#include "expr/expr_internal.h"
#include "core/kinds.h"

/* Plan nodes followed (literals and casts of them fold away, so a plan may be larger than
 * its program; beyond this it is declined). */
#define CK__EXPR_JIT_MAX_PLAN (4 * CK__JIT_MAX_NODES)

/* Appends a node; 0 when the program is full (the caller declines). */
static ck__jit_node *add_node(ck__jit_node *prog, int *n) {
    if (*n == CK__JIT_MAX_NODES) {
        return NULL;
    }
    ck__jit_node *nd = &prog[(*n)++];
    memset(nd, 0, sizeof *nd); /* every byte is fingerprinted */
    return nd;
}

/* Why call node i has no JIT form, into why. */
static void call_why(const ck__expr_plan *pl, int i, char *why, size_t cap) {
    const ck__expr_node *nd = &pl->e->nodes[i];
    const ck__call_plan *p = &pl->nodes[i].call;
    void (*fn)(void) = NULL, (*chunk)(void) = NULL;
    if (ck__builtin_jit_op(&p->entry->factory) < 0 &&
        !ck__native_function(&p->entry->factory, &fn, &chunk)) {
        snprintf(why, cap,
                 "expression column %d: %s has no compiled form for %s (arithmetic, minimum, "
                 "maximum, negative, the comparisons, where, the logical and bitwise "
                 "functions, native functions and NumPy's on 32/64-bit types but integer "
                 "power have)",
                 nd->column, p->name, p->entry->text);
    } else if (nd->nops > CK__JIT_MAX_ARGS) {
        snprintf(why, cap, "expression column %d: %s has more than %d arguments", nd->column,
                 p->name, CK__JIT_MAX_ARGS);
    } else {
        snprintf(why, cap, "expression column %d: an argument's cast to %s's signature %s can "
                           "fail in mode %s",
                 nd->column, p->name, p->entry->text, ck_errmode_name(pl->mode));
    }
}

int ck__expr_jit_program(const ck__expr_plan *pl, ck__jit_node *prog, int *nnodes, char *why,
                         size_t cap) {
    const ck_expr *e = pl->e;
    int map[CK__EXPR_JIT_MAX_PLAN];
    int n = 0;
    why[0] = '\0';
    *nnodes = 0;
    if (pl->nsrc > CK__JIT_MAX_ARGS) {
        snprintf(why, cap, "the expression has more than %d arguments", CK__JIT_MAX_ARGS);
        return CK_OK;
    }
    if (e->nnodes < 1 || e->nnodes > CK__EXPR_JIT_MAX_PLAN) {
        snprintf(why, cap, "the expression has more than %d nodes", CK__EXPR_JIT_MAX_PLAN);
        return CK_OK;
    }
    for (int i = 0; i < e->nnodes; i++) {
        const ck__expr_node *nd = &e->nodes[i];
        const ck__expr_pnode *pn = &pl->nodes[i];
        const int *ops = e->operands + nd->first;
        ck__jit_node *j = NULL;
        map[i] = -1;
        if (pn->is_const) {
            continue; /* its users hold it, cast to their signatures' types */
        }
        if (nd->kind == CK__EXPR_ARG) {
            if ((j = add_node(prog, &n)) != NULL) {
                j->op = CK__JIT_OP_LOAD;
                j->type = (int32_t)pn->type;
                j->nargs = 1;
                j->arg[0] = pn->src;
            }
        } else if (nd->kind == CK__EXPR_CAST) {
            const ck_type_id from = pl->nodes[ops[0]].type;
            if (from == nd->type) {
                map[i] = map[ops[0]];
                continue;
            }
            const ck__conversion kind = ck__conversion_kind(from, nd->type);
            if (pl->mode != CK_ERRMODE_NOCHECK && ck__conversion_can_fail(kind, pl->mode)) {
                snprintf(why, cap, "expression column %d: the cast %s -> %s can fail in mode %s",
                         nd->column, ck_type_id_name(from), ck_type_id_name(nd->type),
                         ck_errmode_name(pl->mode));
                return CK_OK;
            }
            if ((j = add_node(prog, &n)) != NULL) {
                ck_strided_fn unused;
                j->op = CK__JIT_OP_ASSIGN;
                j->type = (int32_t)nd->type;
                j->nargs = 1;
                j->arg[0] = map[ops[0]];
                /* It cannot fail (or the mode says never): NOCHECK's leaf is the same. */
                CK__RETURN_IF_ERROR(ck__scalar_leaf_single(nd->type, from, CK_ERRMODE_NOCHECK,
                                                          &j->slow, &unused));
            }
        } else {
            const ck__call_plan *p = &pn->call;
            if (p->jit_op < 0 || pn->nops > CK__JIT_MAX_ARGS) {
                call_why(pl, i, why, cap);
                return CK_OK;
            }
            if (p->ret != p->entry->sig.ret) {
                snprintf(why, cap, "expression column %d: %s's factory resolves its result type",
                         nd->column, p->name);
                return CK_OK;
            }
            int32_t arg[CK__JIT_MAX_ARGS];
            for (int k = 0; k < pn->nops; k++) {
                arg[k] = map[ops[k]];
                if (pl->nodes[ops[k]].is_const) {
                    ck__jit_node *c = add_node(prog, &n);
                    if (c == NULL) {
                        break;
                    }
                    c->op = CK__JIT_OP_CONST;
                    c->type = (int32_t)p->entry->sig.args[k];
                    memcpy(c->value, pn->opval[k], sizeof c->value);
                    arg[k] = n - 1;
                }
            }
            if ((j = add_node(prog, &n)) != NULL) {
                j->op = p->jit_op;
                j->type = (int32_t)p->ret;
                j->nargs = pn->nops;
                j->native_fn = p->jit_op == CK__JIT_OP_NATIVE ? p->jit_fn : NULL;
                j->vector_fn = p->jit_op == CK__JIT_OP_NATIVE ? p->jit_chunk : NULL;
                for (int k = 0; k < pn->nops; k++) {
                    j->arg[k] = arg[k];
                    j->param_id[k] = (int32_t)p->entry->sig.args[k];
                }
            }
        }
        if (j == NULL) {
            snprintf(why, cap, "the expression needs more than %d nodes", CK__JIT_MAX_NODES);
            return CK_OK;
        }
        map[i] = n - 1;
    }
    if (pl->nodes[e->nnodes - 1].is_const) {
        /* Literals only: the program is the constant, stored into every element. */
        ck__jit_node *c = add_node(prog, &n); /* the first: every node is a constant */
        if (c == NULL) {
            return CK_OK;
        }
        c->op = CK__JIT_OP_CONST;
        c->type = (int32_t)pl->nodes[e->nnodes - 1].type;
        memcpy(c->value, pl->nodes[e->nnodes - 1].value, sizeof c->value);
        map[e->nnodes - 1] = n - 1;
    }
    if (map[e->nnodes - 1] != n - 1) {
        /* Cannot happen (the root's operand is the node before it), but a program whose value
         * is not its last node would be wrong. */
        snprintf(why, cap, "the expression's value is not its last operation");
        return CK_OK;
    }
    *nnodes = n;
    return CK_OK;
}
