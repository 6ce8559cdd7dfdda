/* src/expr/expr_build.c: an expression's kernel. The caller's named sources are matched to
 * the expression's arguments; each node is planned bottom-up (a call node's signature
 * selected for its operands' scalar types by the callables' own selector, ck__plan_call,
 * constants cast once); then the composition walk (builders/compose.c) broadcasts every
 * source together, exactly as for an N-ary call, with the expression's kernel as its leaf
 * (expr_kernel.c). Also the result type and whole-array evaluation. */
#include <string.h>

#include "builders/compose.h"
#include "common/internal.h"
#include "core/kinds.h"
#include "expr/expr_internal.h"
#include "types/type_internal.h"
#include "common/scalars.h"

int ck__expr_cast_const(ck_type_id to, void *out, ck_type_id from, const void *in,
                        ck_errmode mode, int column) {
    if (to == from) {
        memcpy(out, in, ck_type_data_size(ck_type_scalar(to)));
        return CK_OK;
    }
    /* The assignment leaf itself: the bits and the failure a call's argument cast gives. */
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    int rc = ck__make_assign_leaf(&b, &off, ck_type_scalar(to), ck_type_scalar(from), mode,
                                  CK_REQUEST_SINGLE, 0, 0, 0);
    if (rc == CK_OK) {
        _Alignas(16) unsigned char src[16], dst[16];
        memcpy(src, in, sizeof src);
        char *sp = (char *)src;
        rc = ck_call_single(ck_builder_root(&b), (char *)dst, &sp);
        if (rc == CK_OK) {
            memcpy(out, dst, ck_type_data_size(ck_type_scalar(to)));
        }
    }
    ck_builder_destroy(&b);
    if (rc != CK_OK) {
        ck__error_prefix(rc, "expression column %d: ", column);
    }
    return rc;
}

/* The innermost scalar of a source (under dimensions, pointers, an option). */
static int source_scalar(const ck_type *t, int k, ck_type_id *id, int *option) {
    while (!ck_type_is_scalar(t)) {
        const ck_type_id tid = ck_type_get_id(t);
        if (tid == CK_TYPE_TUPLE || tid == CK_TYPE_STRUCT || ck_type_element(t) == NULL) {
            /* text and datetimes too: their kinds have no element */
            return ck_set_error(CK_ERR_TYPE, "expression: source %d holds %s values; expressions "
                                             "take scalars (under dimensions, pointers and "
                                             "options)",
                                k, ck_type_id_name(tid));
        }
        *option |= tid == CK_TYPE_OPTION;
        t = ck_type_element(t);
    }
    *id = ck_type_get_id(t);
    return CK_OK;
}

/* Which source each argument of e is (perm[j] for argument j), from the caller's names. */
int ck__expr_match_names(const ck_expr *e, int nargs, const char *const *names, int *perm) {
    if (nargs < 0 || nargs > CK_CALL_MAX_ARGS) {
        return ck_set_error(CK_ERR_INVALID, "expression: %d sources; it takes 0 to %d", nargs,
                            CK_CALL_MAX_ARGS);
    }
    if (nargs == 0 && e->nnames > 0) {
        return ck_set_error(CK_ERR_INVALID, "expression: its argument '%s' is not given",
                            e->names[0]);
    }
    if (names == NULL || nargs == 0) {
        if (nargs != e->nnames) {
            return ck_set_error(CK_ERR_INVALID,
                                "expression: %d sources for its %d arguments (without names, "
                                "sources are its arguments in order)",
                                nargs, e->nnames);
        }
        for (int j = 0; j < nargs; j++) {
            perm[j] = j;
        }
        return CK_OK;
    }
    int used[CK_CALL_MAX_ARGS] = {0};
    for (int j = 0; j < e->nnames; j++) {
        perm[j] = -1;
        for (int k = 0; k < nargs; k++) {
            if (names[k] == NULL) {
                return ck_set_error(CK_ERR_INVALID, "expression: source %d has no name", k);
            }
            if (strcmp(names[k], e->names[j]) == 0) {
                if (perm[j] >= 0) {
                    return ck_set_error(CK_ERR_INVALID, "expression: '%s' is given twice",
                                        names[k]);
                }
                perm[j] = k;
                used[k] = 1;
            }
        }
        if (perm[j] < 0) {
            return ck_set_error(CK_ERR_INVALID, "expression: its argument '%s' is not given",
                                e->names[j]);
        }
    }
    for (int k = 0; k < nargs; k++) {
        if (!used[k]) {
            return ck_set_error(CK_ERR_INVALID,
                                "expression: '%s' is given, but the expression has no argument "
                                "of that name",
                                names[k] != NULL ? names[k] : "(null)");
        }
    }
    return CK_OK;
}

/* NumPy 1.24's rewrite of a power whose exponent is a scalar (its fast_scalar_power): over a
 * float or complex base, -1 is reciprocal, 0 ones_like, 0.5 sqrt, 1 a copy and 2 square;
 * over an integer or bool base only 2 is (square, in float64 if the exponent is a float).
 * The name of the function, or NULL; *as_float64: the base is first cast to float64. */
static const char *power_rewrite(const ck__expr_plan *pl, int i, int *as_float64) {
    const ck_expr *e = pl->e;
    const ck__expr_node *nd = &e->nodes[i];
    const int *ops = e->operands + nd->first;
    *as_float64 = 0;
    if (nd->nops != 2 || nd->callable == NULL || strcmp(ck_callable_name(nd->callable), "power") != 0 ||
        pl->nodes[ops[0]].is_const || !pl->nodes[ops[1]].is_const) {
        return NULL;
    }
    const ck__expr_pnode *x = &pl->nodes[ops[1]];
    if (ck__scalar_is_complex(x->type) || ck__scalar_is(x->type, CK__SCALAR_KIND_BOOL)) {
        return NULL; /* NumPy's test takes Python ints and floats, NumPy integers and floats */
    }
    _Alignas(16) unsigned char v[16];
    if (ck__expr_cast_const(CK_TYPE_FLOAT64, v, x->type, x->value, CK_ERRMODE_NOCHECK, 0) != CK_OK) {
        return NULL;
    }
    double d;
    memcpy(&d, v, sizeof d);
    const ck_type_id base = pl->nodes[ops[0]].type;
    if (ck__scalar_is_float(base) || ck__scalar_is_complex(base)) {
        return d == 1.0 ? "copy" : d == -1.0 ? "reciprocal" : d == 0.0 ? "ones_like"
               : d == 0.5 ? "sqrt" : d == 2.0 ? "square" : NULL;
    }
    if (d == 2.0) {
        *as_float64 = ck__scalar_is_float(x->type);
        return "square";
    }
    return NULL;
}

/* A call whose operands are all constants is computed once, now: its value is a constant. */
static int fold_call(ck__expr_plan *pl, int i) {
    const ck_expr *e = pl->e;
    ck__expr_pnode *pn = &pl->nodes[i];
    const ck__expr_node *nd = &e->nodes[i];
    const ck_type *ot[CK_CALL_MAX_ARGS];
    char *sp[CK_CALL_MAX_ARGS];
    for (int k = 0; k < pn->nops; k++) {
        ot[k] = ck_type_scalar(pn->call.entry->sig.args[k]);
        sp[k] = (char *)pn->opval[k];
    }
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    static const uintptr_t no_bits[CK_CALL_MAX_ARGS];
    int rc = ck__call_leaf_build(&pn->call, pl->mode, &b, &off, ck_type_scalar(pn->type), ot,
                                 CK_REQUEST_SINGLE, pl->flags, 0, no_bits);
    _Alignas(16) unsigned char out[16] = {0};
    if (rc == CK_OK) {
        rc = ck_call_single(ck_builder_root(&b), (char *)out, sp);
    }
    ck_builder_destroy(&b);
    if (rc != CK_OK) {
        ck__error_prefix(rc, "expression column %d: ", nd->column);
        return rc;
    }
    memcpy(pn->value, out, sizeof pn->value);
    pn->is_const = 1;
    return CK_OK;
}

/* Plans call node i: NumPy's power rewrite, its operands' selection types (a constant's by
 * value, expr_types.c), the selected signature, the constants cast to it, and the value
 * itself when every operand is a constant. */
static int plan_call(ck__expr_plan *pl, const ck_eval_ctx *ectx, int i) {
    const ck_expr *e = pl->e;
    const ck__expr_node *nd = &e->nodes[i];
    ck__expr_pnode *pn = &pl->nodes[i];
    const int *ops = e->operands + nd->first;
    ck_callable *callable = nd->callable;
    pn->nops = nd->nops;
    int as_float64 = 0;
    const char *rewrite = power_rewrite(pl, i, &as_float64);
    if (rewrite != NULL) {
        CK__RETURN_IF_ERROR(ck_lookup(rewrite, &pn->rewritten));
        callable = pn->rewritten;
        pn->nops = 1;
    }
    ck_type_id types[CK_CALL_MAX_ARGS];
    int alt[CK_CALL_MAX_ARGS];
    CK__RETURN_IF_ERROR(ck__expr_operand_types(pl, i, ck_callable_name(callable), types, alt));
    if (as_float64) {
        types[0] = CK_TYPE_FLOAT64;
    }
    const ck_type *ot[CK_CALL_MAX_ARGS];
    int alternatives = 0;
    for (int k = 0; k < pn->nops; k++) {
        ot[k] = ck_type_scalar(types[k]);
        alternatives |= alt[k] >= 0;
    }
    ck_errmode mode;
    unsigned flags;
    int option = 0;
    int rc = ck__plan_call(callable, pn->nops, ot, ectx, &mode, &flags, &pn->call, &option);
    if (rc == CK_ERR_TYPE && alternatives) {
        for (int k = 0; k < pn->nops; k++) {
            ot[k] = ck_type_scalar(alt[k] >= 0 ? (ck_type_id)alt[k] : types[k]);
        }
        if (ck__plan_call(callable, pn->nops, ot, ectx, &mode, &flags, &pn->call, &option) ==
            CK_OK) {
            ck_clear_error();
            rc = CK_OK;
        }
    }
    if (rc == CK_OK && pn->call.entry->core.any) {
        rc = ck_set_error(CK_ERR_UNSUPPORTED,
                          "%s takes core dimensions (blocks of elements); an expression "
                          "calls elementwise callables",
                          pn->call.name);
    }
    if (rc == CK_OK && pn->call.entry->sig.nret == 2) {
        rc = ck_set_error(CK_ERR_UNSUPPORTED,
                          "%s gives two results (%s); an expression's value is one: "
                          "call it on its own",
                          pn->call.name, pn->call.entry->text);
    }
    if (rc != CK_OK) {
        ck__error_prefix(rc, "expression column %d: ", nd->column);
        return rc;
    }
    pn->type = pn->call.ret;
    int all_const = 1;
    pn->scalar = 1;
    for (int k = 0; k < pn->nops; k++) {
        const ck__expr_pnode *o = &pl->nodes[ops[k]];
        all_const &= o->is_const;
        pn->scalar &= o->scalar;
        if (o->is_const) {
            /* Typed by value, the constant is that type's value first (rounded: 0.1 is a
             * float16 beside float16 arrays, as NumPy takes it), then converted to the
             * signature's type in the context's mode. */
            const ck_type_id by_value = ck_type_get_id(ot[k]);
            _Alignas(16) unsigned char v[16];
            memcpy(v, o->value, sizeof v);
            if (by_value != o->type) {
                CK__RETURN_IF_ERROR(ck__expr_cast_const(by_value, v, o->type, o->value,
                                                       CK_ERRMODE_NOCHECK,
                                                       e->nodes[ops[k]].column));
            }
            CK__RETURN_IF_ERROR(ck__expr_cast_const(pn->call.entry->sig.args[k], pn->opval[k],
                                                   by_value, v, pl->mode,
                                                   e->nodes[ops[k]].column));
        }
    }
    /* Only the library's own signatures are folded: a user's factory or native function may
     * have effects (it reads a file, calls back into Python), so it runs per element, never
     * when the kernel is made. */
    const int pure = ck__callable_entry_is_library(callable, pn->call.entry);
    return all_const && pure ? fold_call(pl, i) : CK_OK;
}

/* Plans every node: its type, a constant's value, a call's selected signature. */
static int plan_nodes(ck__expr_plan *pl, const ck_eval_ctx *ectx, const int *perm) {
    const ck_expr *e = pl->e;
    for (int i = 0; i < e->nnodes; i++) {
        const ck__expr_node *nd = &e->nodes[i];
        ck__expr_pnode *pn = &pl->nodes[i];
        const int *ops = e->operands + nd->first;
        pn->slot = -1;
        pn->src = -1;
        pn->nops = nd->nops;
        switch (nd->kind) {
        case CK__EXPR_ARG:
            pn->src = perm[nd->arg];
            pn->type = pl->src_id[pn->src];
            pn->scalar = pl->src_0d[pn->src];
            break;
        case CK__EXPR_LIT:
            pn->type = nd->type;
            pn->is_const = 1;
            pn->scalar = 1;
            memcpy(pn->value, nd->value, sizeof pn->value);
            break;
        case CK__EXPR_REDUCE:
            return ck_set_error(CK_ERR_UNSUPPORTED,
                                "expression column %d: %s(...): a reduction is evaluated by "
                                "ck_expr_eval and ck_expr_eval_new, not in one kernel",
                                nd->column, nd->op);
        case CK__EXPR_CAST:
            pn->type = nd->type;
            pn->scalar = pl->nodes[ops[0]].scalar;
            if (pl->nodes[ops[0]].is_const) {
                pn->is_const = 1;
                CK__RETURN_IF_ERROR(ck__expr_cast_const(nd->type, pn->value,
                                                       pl->nodes[ops[0]].type,
                                                       pl->nodes[ops[0]].value, pl->mode,
                                                       nd->column));
            }
            break;
        case CK__EXPR_CALL:
            CK__RETURN_IF_ERROR(plan_call(pl, ectx, i));
            break;
        }
    }
    return CK_OK;
}

static void free_plan(ck__expr_plan *pl) {
    for (int i = 0; pl->nodes != NULL && i < pl->e->nnodes; i++) {
        ck_callable_decref(pl->nodes[i].rewritten);
    }
    ck__free(pl->nodes);
    pl->nodes = NULL;
}

/* Checks the sources, matches them to the arguments and plans the nodes. pl->nodes is
 * allocated here (free it with free_plan, also on failure). */
static int make_plan(const ck_expr *e, int nargs, const char *const *names,
                     const ck_type *const *src_tp, const ck_eval_ctx *ectx, ck__expr_plan *pl) {
    memset(pl, 0, sizeof *pl);
    pl->e = e;
    if (e == NULL || (src_tp == NULL && nargs > 0)) {
        return ck_set_error(CK_ERR_INVALID, "expression: NULL expression or source types");
    }
    int perm[CK_CALL_MAX_ARGS];
    CK__RETURN_IF_ERROR(ck__expr_match_names(e, nargs, names, perm));
    pl->nsrc = nargs;
    for (int k = 0; k < nargs; k++) {
        if (src_tp[k] == NULL) {
            return ck_set_error(CK_ERR_INVALID, "expression: source type %d is NULL", k);
        }
        CK__RETURN_IF_ERROR(source_scalar(src_tp[k], k, &pl->src_id[k], &pl->option));
        const ck_type *t = src_tp[k];
        t = ck_type_get_id(t) == CK_TYPE_OPTION ? ck_type_element(t) : t;
        pl->src_0d[k] = ck_type_is_scalar(t);
    }
    CK__RETURN_IF_ERROR(ck__resolve_eval_ctx(ectx, &pl->mode, &pl->flags));
    pl->nodes = (ck__expr_pnode *)ck__calloc((size_t)e->nnodes, sizeof(ck__expr_pnode));
    if (pl->nodes == NULL) {
        return ck__nomem_error("out of memory planning an expression of %d nodes", e->nnodes);
    }
    return plan_nodes(pl, ectx, perm);
}

int ck_make_expr(ck_builder *ckb, size_t *offset, const ck_expr *e, const ck_type *dst_tp,
                 const char *dst_arrmeta, int nargs, const char *const *names,
                 const ck_type *const *src_tp, const char *const *src_arrmeta, ck_request req,
                 const ck_eval_ctx *ectx) {
    return ck__make_expr_at(ckb, offset, e, dst_tp, dst_arrmeta, nargs, names, src_tp,
                            src_arrmeta, req, ectx, 0, 1);
}

static int expr_unguarded(ck_builder *ckb, size_t *offset, const ck_expr *e, const ck_type *dst_tp,
                     const char *dst_arrmeta, int nargs, const char *const *names,
                     const ck_type *const *src_tp, const char *const *src_arrmeta,
                     ck_request req, const ck_eval_ctx *ectx, int first_dim,
                     size_t outer_rows) {
    if (ckb == NULL || offset == NULL || dst_tp == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_make_expr: NULL builder, offset or type");
    }
    if (req != CK_REQUEST_SINGLE && req != CK_REQUEST_STRIDED) {
        return ck_set_error(CK_ERR_INVALID, "ck_make_expr: unknown request %d", (int)req);
    }
    if (dst_arrmeta == NULL && ck_type_arrmeta_size(dst_tp) != 0) {
        return ck_set_error(CK_ERR_INVALID, "ck_make_expr: NULL arrmeta for a type that has some");
    }
    ck__expr_plan pl;
    int rc = make_plan(e, nargs, names, src_tp, ectx, &pl);
    /* Literals only: one 0-d source stands in for the walk, which needs one. No node reads
     * it; the kernel is under a wrapper that passes it (ck__expr_noargs). */
    static const char *const no_arrmeta[CK_CALL_MAX_ARGS];
    const ck_type *hidden[1];
    if (rc == CK_OK && nargs == 0) {
        hidden[0] = ck_type_scalar(CK_TYPE_INT8);
        src_tp = hidden;
        src_arrmeta = no_arrmeta;
        nargs = pl.nsrc = 1;
        pl.src_id[0] = CK_TYPE_INT8;
        rc = ck__expr_noargs(ckb, offset, req);
    }
    for (int k = 0; rc == CK_OK && k < nargs; k++) {
        if ((src_arrmeta == NULL || src_arrmeta[k] == NULL) &&
            ck_type_arrmeta_size(src_tp[k]) != 0) {
            rc = ck_set_error(CK_ERR_INVALID,
                              "ck_make_expr: NULL arrmeta for source %d, whose type has some", k);
        }
    }
    if (rc == CK_OK) {
        ck__compose cmp;
        memset(&cmp, 0, sizeof cmp);
        cmp.dst_top = dst_tp;
        cmp.src_top = src_tp;
        cmp.nsrc = nargs;
        cmp.mode = pl.mode;
        cmp.flags = pl.flags;
        cmp.make_leaf = ck__expr_leaf;
        cmp.leaf_data = &pl;
        /* The JIT's program (on the stack: no allocation), unless the JIT is off. */
        ck__jit_node prog[CK__JIT_MAX_NODES];
        char why[256] = "CK_EVAL_NO_JIT";
        int nnodes = 0;
        if ((pl.flags & CK_EVAL_NO_JIT) == 0) {
            rc = ck__expr_jit_program(&pl, prog, &nnodes, why, sizeof why);
        }
        cmp.jit_op = CK__JIT_OP_EXPR;
        cmp.jit_op_id = (int)pl.nodes[e->nnodes - 1].type;
        cmp.jit_nodes = nnodes > 0 ? prog : NULL;
        cmp.jit_nnodes = nnodes;
        cmp.jit_why_not = nnodes > 0 ? NULL : why;
        cmp.may_stream = CK__MAY_STREAM; /* the expr leaf streams by itself, chunk by chunk */
        cmp.outer_rows = outer_rows;
        if (rc == CK_OK) {
            rc = ck__compose_build(ckb, offset, &cmp, dst_tp, dst_arrmeta,
                                   src_arrmeta != NULL ? src_arrmeta : no_arrmeta, req,
                                   first_dim);
        }
    }
    free_plan(&pl);
    return rc;
}

int ck__make_expr_at(ck_builder *ckb, size_t *offset, const ck_expr *e, const ck_type *dst_tp,
                     const char *dst_arrmeta, int nargs, const char *const *names,
                     const ck_type *const *src_tp, const char *const *src_arrmeta,
                     ck_request req, const ck_eval_ctx *ectx, int first_dim,
                     size_t outer_rows) {
    /* The root's FP-environment guard when this is the root (core/kinds.h). */
    const size_t start = offset != NULL ? *offset : 1;
    int rc = expr_unguarded(ckb, offset, e, dst_tp, dst_arrmeta, nargs, names, src_tp,
                            src_arrmeta, req, ectx, first_dim, outer_rows);
    if (rc == CK_OK) {
        rc = ck__fp_env_guard(ckb, start, offset, ectx != NULL ? ectx->flags : 0u, req);
    }
    return rc;
}

int ck_expr_result_type(const ck_expr *e, int nargs, const char *const *names,
                        const ck_type *const *src_tp, const ck_eval_ctx *ectx, ck_type **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_expr_result_type: NULL out");
    }
    *out = NULL;
    if (ck_expr_reductions(e) > 0) {
        return ck__expr_result_type_reduced(e, nargs, names, src_tp, ectx, out);
    }
    ck__expr_plan pl;
    int rc = make_plan(e, nargs, names, src_tp, ectx, &pl);
    const ck_type_id root = rc == CK_OK ? pl.nodes[e->nnodes - 1].type : CK_TYPE_BOOL;
    free_plan(&pl);
    CK__RETURN_IF_ERROR(rc);
    static const int no_core[1 + CK_CALL_MAX_ARGS];
    const ck_type *cur[CK_CALL_MAX_ARGS];
    intptr_t size[CK_TYPE_MAX_DEPTH];
    int nd = 0; /* no sources (literals only): a 0-d result */
    if (nargs > 0) {
        CK__RETURN_IF_ERROR(ck__broadcast_dims("expression", nargs, src_tp, no_core, size, &nd,
                                              cur));
    }
    /* NA in any argument gives NA out, as for a call. */
    ck_type *t = (ck_type *)(uintptr_t)ck_type_scalar(root);
    if (pl.option) {
        CK__RETURN_IF_ERROR(ck_type_make_option(t, &t));
    }
    return ck__type_over_dims(t, size, nd, out);
}

/* ---- whole arrays ---- */

typedef struct expr_make {
    const ck_expr *e;
    const char *const *names;
} expr_make;

static int make_expr_kernel(const void *data, ck_builder *b, size_t *off, const ck_type *dt,
                            const char *dam, int nsrc, const ck_type *const *st,
                            const char *const *sam, const ck_eval_ctx *ctx) {
    const expr_make *m = (const expr_make *)data;
    return ck_make_expr(b, off, m->e, dt, dam, nsrc, m->names, st, sam, CK_REQUEST_SINGLE, ctx);
}

int ck_expr_eval(const ck_expr *e, const ck_array *dst, int nargs, const char *const *names,
                 const ck_array *const *src, const ck_eval_ctx *ectx) {
    if (ck_expr_reductions(e) > 0) {
        if (dst == NULL) {
            return ck_set_error(CK_ERR_INVALID, "ck_expr_eval: NULL destination");
        }
        return ck__expr_eval_reduced(e, dst, nargs, names, src, ectx, 0, NULL);
    }
    const expr_make m = {e, names};
    return ck__run_on_arrays("ck_expr_eval", dst, nargs, src, ectx, make_expr_kernel, &m);
}

typedef struct expr_fill {
    const ck_expr *e;
    int nargs;
    const char *const *names;
    const ck_array *const *src;
    const ck_eval_ctx *ectx;
} expr_fill;

static int fill_expr(void *data, ck_array *a) {
    const expr_fill *f = (const expr_fill *)data;
    return ck_expr_eval(f->e, a, f->nargs, f->names, f->src, f->ectx);
}

int ck_expr_eval_new(const ck_expr *e, int nargs, const char *const *names,
                     const ck_array *const *src, const ck_eval_ctx *ectx, ck_array **out) {
    if (out == NULL || (src == NULL && nargs > 0) || nargs < 0 || nargs > CK_CALL_MAX_ARGS) {
        return ck_set_error(CK_ERR_INVALID, "ck_expr_eval_new: NULL argument or %d sources",
                            nargs);
    }
    *out = NULL;
    const ck_type *st[CK_CALL_MAX_ARGS];
    for (int k = 0; k < nargs; k++) {
        if (src[k] == NULL) {
            return ck_set_error(CK_ERR_INVALID, "ck_expr_eval_new: source %d is NULL", k);
        }
        st[k] = ck_array_type(src[k]);
    }
    if (ck_expr_reductions(e) > 0) { /* typed by the reduced values, as NumPy types them */
        return ck__expr_eval_reduced(e, NULL, nargs, names, src, ectx, 0, out);
    }
    ck_type *rt = NULL;
    CK__RETURN_IF_ERROR(ck_expr_result_type(e, nargs, names, st, ectx, &rt));
    expr_fill f = {e, nargs, names, src, ectx};
    return ck__array_new_filled(rt, fill_expr, &f, out);
}
