/* src/expr/expr_reduce.c: reductions inside expressions (sum prod min max any all, with
 * axes: docs/design.md §15). A reduction's operand is a sub-expression over some of the
 * arguments; it is evaluated into its broadcast shape, reduced with ck_reduce (the same
 * kernels, types and bits as a reduction of that array), and the expression goes on with the
 * reduced array in the reduction's place: as one more argument, or, when it is one value,
 * bound as a NumPy scalar is (typed by value, ck_expr_bind). Innermost reductions go first
 * (the nodes' order is an evaluation order), the root's last. */
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "expr/expr_internal.h"

int ck_expr_reductions(const ck_expr *e) {
    int n = 0;
    for (int i = 0; e != NULL && i < e->nnodes; i++) {
        n += e->nodes[i].kind == CK__EXPR_REDUCE;
    }
    return n;
}

static int first_reduce(const ck_expr *e) {
    for (int i = 0; i < e->nnodes; i++) {
        if (e->nodes[i].kind == CK__EXPR_REDUCE) {
            return i;
        }
    }
    return -1;
}

/* The expression of the nodes `root` reaches, node `replace` (>= 0) an argument named
 * `name` in their place (its operands not reached through it). Arguments keep the order of
 * their nodes, which is their first appearance. */
static int extract(const ck_expr *e, int root, int replace, const char *name, ck_expr **out) {
    *out = NULL;
    const size_t flags_bytes = ((size_t)e->nnodes + 15) / 16 * 16;
    unsigned char *reach =
        (unsigned char *)ck__calloc(1, flags_bytes + 2 * (size_t)e->nnodes * sizeof(int));
    if (reach == NULL) {
        return ck__nomem_error("out of memory staging an expression of %d nodes", e->nnodes);
    }
    int *map = (int *)(void *)(reach + flags_bytes);
    int *arg_of = map + e->nnodes; /* a reached argument node's new index among the names */
    reach[root] = 1;
    for (int i = root; i >= 0; i--) {
        if (!reach[i] || i == replace) {
            continue;
        }
        const ck__expr_node *nd = &e->nodes[i];
        for (int k = 0; nd->kind != CK__EXPR_ARG && nd->kind != CK__EXPR_LIT && k < nd->nops;
             k++) {
            reach[e->operands[nd->first + k]] = 1;
        }
    }
    int nnodes = 0, noperands = 0, nnames = 0;
    size_t name_bytes = 0;
    for (int i = 0; i <= root; i++) {
        if (!reach[i]) {
            continue;
        }
        map[i] = nnodes++;
        const ck__expr_node *nd = &e->nodes[i];
        if (i == replace || nd->kind == CK__EXPR_ARG) {
            arg_of[i] = nnames++;
            name_bytes += strlen(i == replace ? name : e->names[nd->arg]) + 1;
        } else if (nd->kind != CK__EXPR_LIT) {
            noperands += nd->nops;
        }
    }
    const size_t head = CK_ALIGN_OFFSET(sizeof(ck_expr));
    const size_t nodes_at = (head + 15) & ~(size_t)15;
    const size_t ops_at = nodes_at + (size_t)nnodes * sizeof(ck__expr_node);
    const size_t names_at = ops_at + (size_t)noperands * sizeof(int);
    ck_expr *x = (ck_expr *)ck__malloc(names_at + name_bytes);
    if (x == NULL) {
        ck__free(reach);
        return ck__nomem_error("out of memory staging an expression of %d nodes", e->nnodes);
    }
    char *base = (char *)x;
    atomic_init(&x->refs, 1);
    x->nnodes = nnodes;
    x->nnames = nnames;
    x->nodes = (ck__expr_node *)(void *)(base + nodes_at);
    x->operands = (int *)(void *)(base + ops_at);
    char *s = base + names_at;
    int nops = 0;
    for (int i = 0; i <= root; i++) {
        if (!reach[i]) {
            continue;
        }
        ck__expr_node *nd = &x->nodes[map[i]];
        *nd = e->nodes[i];
        if (i == replace || nd->kind == CK__EXPR_ARG) {
            const char *nm = i == replace ? name : e->names[nd->arg];
            const size_t len = strlen(nm);
            memcpy(s, nm, len + 1);
            x->names[arg_of[i]] = s;
            s += len + 1;
            if (i == replace) {
                memset(nd, 0, sizeof *nd);
                nd->kind = CK__EXPR_ARG;
                nd->column = e->nodes[i].column;
            }
            nd->arg = arg_of[i];
            continue;
        }
        ck_callable_incref(nd->callable);
        if (nd->kind == CK__EXPR_LIT) {
            continue;
        }
        for (int k = 0; k < nd->nops; k++) {
            x->operands[nops + k] = map[e->operands[e->nodes[i].first + k]];
        }
        nd->first = nops;
        nops += nd->nops;
    }
    ck__free(reach);
    *out = x;
    return CK_OK;
}

/* The reduction of node i (its axes as ints in *axes). */
static ck_reduce_spec spec_of(const ck__expr_node *nd, int *axes) {
    ck_reduce_spec r;
    memset(&r, 0, sizeof r);
    r.callable = nd->callable;
    if (nd->naxes >= 0) {
        for (int k = 0; k < nd->naxes; k++) {
            axes[k] = (signed char)nd->value[k];
        }
        r.axes = axes;
        r.naxes = nd->naxes;
    }
    return r;
}

/* What the staging carries: the expression so far, its arguments by name, and for each
 * either a source (an array or, for the types alone, a type) and the reduced arrays and
 * types it made (owned). */
typedef struct stage {
    ck_expr *e;
    int n;
    const char *names[CK_CALL_MAX_ARGS];
    const ck_array *src[CK_CALL_MAX_ARGS];
    const ck_type *type[CK_CALL_MAX_ARGS];
    ck_array *owned_array[CK_CALL_MAX_ARGS];
    ck_type *owned_type[CK_CALL_MAX_ARGS];
    char made_names[CK_CALL_MAX_ARGS][16];
    int made;
} stage;

static void stage_free(stage *st) {
    ck_expr_decref(st->e);
    for (int k = 0; k < CK_CALL_MAX_ARGS; k++) {
        ck_array_free(st->owned_array[k]);
        ck_type_decref(st->owned_type[k]);
    }
}

/* The sources of x (its names looked up among the stage's) into src/type. */
static int sources_of(const stage *st, const ck_expr *x, const ck_array **src,
                      const ck_type **type) {
    for (int j = 0; j < x->nnames; j++) {
        int k = 0;
        while (k < st->n && strcmp(st->names[k], x->names[j]) != 0) {
            k++;
        }
        if (k == st->n) {
            return ck_set_error(CK_ERR_INVALID, "expression: the argument '%s' is not given",
                                x->names[j]);
        }
        src[j] = st->src[k];
        type[j] = st->type[k];
    }
    return CK_OK;
}

/* "expression column C: " in front of a reduction's failure. */
static int at_column(int rc, const ck__expr_node *nd) {
    if (rc != CK_OK) {
        ck__error_prefix(rc, "expression column %d: ", nd->column);
    }
    return rc;
}

/* Node r (a reduction that is not the root) evaluated and reduced (with_values), or only
 * typed, and the expression rewritten with the result in its place. */
static int stage_one(stage *st, int r, int with_values, const ck_eval_ctx *ectx) {
    const ck_expr *e = st->e;
    const ck__expr_node *nd = &e->nodes[r];
    if (st->made == CK_CALL_MAX_ARGS) {
        return ck_set_error(CK_ERR_UNSUPPORTED, "expression: more than %d reductions",
                            CK_CALL_MAX_ARGS);
    }
    ck_expr *sub = NULL;
    CK__RETURN_IF_ERROR(extract(e, e->operands[nd->first], -1, NULL, &sub));
    const ck_array *src[CK_CALL_MAX_ARGS];
    const ck_type *type[CK_CALL_MAX_ARGS];
    int rc = sources_of(st, sub, src, type);
    int axes[CK_CALL_MAX_ARGS];
    const ck_reduce_spec spec = spec_of(nd, axes);
    ck_array *operand = NULL, *reduced = NULL;
    ck_type *reduced_type = NULL;
    if (rc == CK_OK && with_values) {
        rc = ck_expr_eval_new(sub, sub->nnames, (const char *const *)sub->names, src, ectx,
                              &operand);
        if (rc == CK_OK) {
            rc = at_column(ck_reduce_new(&spec, operand, ectx, &reduced), nd);
        }
        ck_array_free(operand);
    } else if (rc == CK_OK) {
        ck_type *operand_type = NULL;
        rc = ck_expr_result_type(sub, sub->nnames, (const char *const *)sub->names, type, ectx,
                                 &operand_type);
        if (rc == CK_OK) {
            rc = at_column(ck_reduce_result_type(&spec, operand_type, ectx, &reduced_type), nd);
        }
        ck_type_decref(operand_type);
    }
    ck_expr_decref(sub);
    char *name = st->made_names[st->made];
    snprintf(name, sizeof st->made_names[0], "%s@%d", nd->op, nd->column);
    ck_expr *next = NULL;
    if (rc == CK_OK) {
        rc = extract(e, e->nnodes - 1, r, name, &next);
    }
    const ck_type *rt = reduced != NULL ? ck_array_type(reduced) : reduced_type;
    const int one_value = rc == CK_OK && with_values && ck_type_is_scalar(rt) &&
                          (int)ck_type_get_id(rt) < CK_NUM_SCALAR_TYPES;
    if (one_value) { /* a NumPy scalar: typed by its value beside arrays */
        ck_expr *bound = NULL;
        const char *names[1] = {name};
        const ck_array *values[1] = {reduced};
        rc = ck_expr_bind(next, 1, names, values, &bound);
        ck_expr_decref(next);
        next = bound;
        ck_array_free(reduced);
        reduced = NULL;
    } else if (rc == CK_OK) {
        st->names[st->n] = name;
        st->src[st->n] = reduced;
        st->type[st->n] = rt;
        st->owned_array[st->made] = reduced;
        st->owned_type[st->made] = reduced_type;
        reduced = NULL;
        reduced_type = NULL;
        st->n++;
    }
    st->made++;
    ck_array_free(reduced);
    ck_type_decref(reduced_type);
    if (rc == CK_OK) {
        ck_expr_decref(st->e);
        st->e = next;
    } else {
        ck_expr_decref(next);
    }
    return rc;
}

/* Stages every reduction but the root's; st->e is then free of them but at its root. */
static int stage_all(stage *st, const ck_expr *e, int nargs, const char *const *names,
                     const ck_array *const *src, const ck_type *const *types,
                     const ck_eval_ctx *ectx) {
    memset(st, 0, sizeof *st);
    int perm[CK_CALL_MAX_ARGS];
    CK__RETURN_IF_ERROR(ck__expr_match_names(e, nargs, names, perm));
    ck_expr_incref((ck_expr *)(uintptr_t)e);
    st->e = (ck_expr *)(uintptr_t)e;
    st->n = nargs;
    for (int k = 0; k < nargs; k++) {
        st->names[k] = names != NULL ? names[k] : ck_expr_arg_name(e, k);
        if (st->names[k] == NULL) {
            return ck_set_error(CK_ERR_INVALID, "expression: source %d has no name (the "
                                "expression has %d arguments)", k, ck_expr_nargs(e));
        }
        st->src[k] = src != NULL ? src[k] : NULL;
        st->type[k] = types != NULL ? types[k] : src[k] != NULL ? ck_array_type(src[k]) : NULL;
        if (st->type[k] == NULL) {
            return ck_set_error(CK_ERR_INVALID, "expression: source %d is NULL", k);
        }
    }
    int r;
    while ((r = first_reduce(st->e)) >= 0 && r != st->e->nnodes - 1) {
        CK__RETURN_IF_ERROR(stage_one(st, r, src != NULL, ectx));
    }
    return CK_OK;
}

int ck__expr_result_type_reduced(const ck_expr *e, int nargs, const char *const *names,
                                 const ck_type *const *src_tp, const ck_eval_ctx *ectx,
                                 ck_type **out) {
    stage st;
    int rc = stage_all(&st, e, nargs, names, NULL, src_tp, ectx);
    const ck_expr *x = st.e;
    const ck__expr_node *root = rc == CK_OK ? &x->nodes[x->nnodes - 1] : NULL;
    if (rc == CK_OK && root->kind == CK__EXPR_REDUCE) {
        ck_expr *sub = NULL;
        const ck_array *src[CK_CALL_MAX_ARGS];
        const ck_type *type[CK_CALL_MAX_ARGS];
        ck_type *operand_type = NULL;
        rc = extract(x, x->operands[root->first], -1, NULL, &sub);
        if (rc == CK_OK) rc = sources_of(&st, sub, src, type);
        if (rc == CK_OK) {
            rc = ck_expr_result_type(sub, sub->nnames, (const char *const *)sub->names, type,
                                     ectx, &operand_type);
        }
        int axes[CK_CALL_MAX_ARGS];
        const ck_reduce_spec spec = spec_of(root, axes);
        if (rc == CK_OK) {
            rc = at_column(ck_reduce_result_type(&spec, operand_type, ectx, out), root);
        }
        ck_type_decref(operand_type);
        ck_expr_decref(sub);
    } else if (rc == CK_OK) {
        const ck_array *srcs[CK_CALL_MAX_ARGS];
        const ck_type *type[CK_CALL_MAX_ARGS];
        rc = sources_of(&st, x, srcs, type);
        if (rc == CK_OK) {
            rc = ck_expr_result_type(x, x->nnames, (const char *const *)x->names, type, ectx, out);
        }
    }
    stage_free(&st);
    return rc;
}

int ck__expr_eval_reduced(const ck_expr *e, const ck_array *dst, int nargs,
                          const char *const *names, const ck_array *const *src,
                          const ck_eval_ctx *ectx, ck_array **out) {
    if (src == NULL && nargs > 0) {
        return ck_set_error(CK_ERR_INVALID, "expression: NULL sources");
    }
    static const ck_array *const none[1] = {NULL};
    stage st;
    int rc = stage_all(&st, e, nargs, names, nargs > 0 ? src : none, NULL, ectx);
    const ck_expr *x = st.e;
    const ck__expr_node *root = rc == CK_OK ? &x->nodes[x->nnodes - 1] : NULL;
    if (rc == CK_OK && root->kind == CK__EXPR_REDUCE) {
        ck_expr *sub = NULL;
        const ck_array *srcs[CK_CALL_MAX_ARGS];
        const ck_type *type[CK_CALL_MAX_ARGS];
        ck_array *operand = NULL;
        rc = extract(x, x->operands[root->first], -1, NULL, &sub);
        if (rc == CK_OK) rc = sources_of(&st, sub, srcs, type);
        if (rc == CK_OK) {
            rc = ck_expr_eval_new(sub, sub->nnames, (const char *const *)sub->names, srcs, ectx,
                                  &operand);
        }
        int axes[CK_CALL_MAX_ARGS];
        const ck_reduce_spec spec = spec_of(root, axes);
        if (rc == CK_OK) {
            rc = at_column(dst != NULL ? ck_reduce(&spec, dst, operand, ectx)
                                       : ck_reduce_new(&spec, operand, ectx, out),
                           root);
        }
        ck_array_free(operand);
        ck_expr_decref(sub);
    } else if (rc == CK_OK) {
        const ck_array *srcs[CK_CALL_MAX_ARGS];
        const ck_type *type[CK_CALL_MAX_ARGS];
        rc = sources_of(&st, x, srcs, type);
        const char *const *xn = (const char *const *)x->names;
        if (rc == CK_OK) {
            rc = dst != NULL ? ck_expr_eval(x, dst, x->nnames, xn, srcs, ectx)
                             : ck_expr_eval_new(x, x->nnames, xn, srcs, ectx, out);
        }
    }
    stage_free(&st);
    return rc;
}
