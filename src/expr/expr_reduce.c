/* src/expr/expr_reduce.c: reductions inside expressions (sum prod min max any all, with
 * axes: docs/design.md §15). A reduction's operand is a sub-expression over some of the
 * arguments; it is evaluated into its broadcast shape, reduced with ck_reduce (the same
 * kernels, types and bits as a reduction of that array), and the expression goes on with the
 * reduced array in the reduction's place: as one more argument, or, when it is one value,
 * bound as a NumPy scalar is (typed by value, ck_expr_bind). Innermost reductions go first
 * (the nodes' order is an evaluation order), the root's last. */
#include <stdio.h>
#include <string.h>

#include "ckernel/parallel.h"
#include "builders/compose.h"
#include "common/internal.h"
#include "expr/expr_internal.h"
#include "leaves/reduce/reduce_ops.h"
#include "types/type_internal.h"

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
    int parallel; /* ck_parallel_expr: the operands and reductions split across threads */
} stage;

/* sub over src into a new array: ck_expr_eval_new, or split across threads. */
static int eval_new(const ck_expr *sub, const ck_array *const *src, const ck_eval_ctx *ectx,
                    int parallel, ck_array **out) {
    const char *const *names = (const char *const *)sub->names;
    if (!parallel) {
        return ck_expr_eval_new(sub, sub->nnames, names, src, ectx, out);
    }
    const ck_type *type[CK_CALL_MAX_ARGS];
    for (int k = 0; k < sub->nnames; k++) {
        type[k] = ck_array_type(src[k]);
    }
    ck_type *t = NULL;
    ck_array *made = NULL;
    int rc = ck_expr_result_type(sub, sub->nnames, names, type, ectx, &t);
    if (rc == CK_OK) rc = ck_array_new(t, &made);
    ck_type_decref(t);
    if (rc == CK_OK) {
        rc = sub->nnames > 0 ? ck_parallel_expr(sub, made, sub->nnames, names, src, ectx)
                             : ck_expr_eval(sub, made, 0, names, src, ectx);
    }
    if (rc != CK_OK) {
        ck_array_free(made);
        return rc;
    }
    *out = made;
    return CK_OK;
}

/* The reduction of operand into dst, or (dst NULL) a new array: ck_reduce(_new), or split
 * across threads (ck_parallel_reduce: the same bits). */
static int reduce_to(const ck_reduce_spec *spec, const ck_array *dst, const ck_array *operand,
                     const ck_eval_ctx *ectx, int parallel, ck_array **out) {
    if (!parallel) {
        return dst != NULL ? ck_reduce(spec, dst, operand, ectx)
                           : ck_reduce_new(spec, operand, ectx, out);
    }
    ck_array *made = NULL;
    if (dst == NULL) {
        ck_type *t = NULL;
        int rc = ck_reduce_result_type(spec, ck_array_type(operand), ectx, &t);
        if (rc == CK_OK) rc = ck_array_new(t, &made);
        ck_type_decref(t);
        CK__RETURN_IF_ERROR(rc);
        dst = made;
    }
    const int rc = ck_parallel_reduce(spec, dst, operand, ectx);
    if (rc != CK_OK) {
        ck_array_free(made);
        return rc;
    }
    if (made != NULL) {
        *out = made;
    }
    return CK_OK;
}

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
        rc = eval_new(sub, src, ectx, st->parallel, &operand);
        if (rc == CK_OK) {
            rc = at_column(reduce_to(&spec, NULL, operand, ectx, st->parallel, &reduced), nd);
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
                     const ck_eval_ctx *ectx, int parallel) {
    memset(st, 0, sizeof *st);
    st->parallel = parallel;
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
    int rc = stage_all(&st, e, nargs, names, NULL, src_tp, ectx, 0);
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

/* ---- the root's reduction without a full temporary ----
 *
 * Where the operand's shape D (n dimensions, fixed, of sources without options) is reduced
 * along its innermost axis alone, the operand is evaluated a piece at a time into a small
 * temporary, with the reduction's bits: rows (blocks of the outermost dimension) reduced as
 * the whole temporary's rows are, each its own run; and a run longer than a block (a 1-d
 * operand, or rows of a 2-d one) in chunks of 2^CHUNK_LEVEL blocks of the fold's tree: each
 * chunk's lane vector (the parallel reduction's split, reduce_ops.h), then the rest of the
 * tree over them and the tail, which is the one run's tree, bit for bit; exact folds (integers
 * and bool) fold the chunks' partial results in order, as any association gives them. */

/* Elements of the operand held at once: a block of rows, or a chunk of a run. Any chunk
 * level gives the same tree; 2^7 blocks is 16384 elements (128 KiB of float64), and a
 * chunk's lane vector is 1/128 of its values' bytes. */
#define CHUNK_LEVEL 7u
#define CHUNK_ELEMS (((size_t)1 << CHUNK_LEVEL) * CK__FOLD_BLOCK)

/* The fixed dimensions of t (at most 64) and their arrmeta; 0 when t is not fixed dimensions
 * over a scalar of the numeric types. */
static int fixed_shape(const ck_type *t, int *nd) {
    *nd = 0;
    while (ck_type_get_id(t) == CK_TYPE_FIXED_DIM) {
        if (*nd == 64) {
            return 0;
        }
        (*nd)++;
        t = ck_type_element(t);
    }
    return ck_type_is_scalar(t) && (int)ck_type_get_id(t) < CK_NUM_SCALAR_TYPES;
}

/* A view of a (m dimensions, the innermost m of an n-dimensional broadcast shape): with
 * `row` >= 0 the broadcast axis 0 fixed at that row (dropped), then broadcast axis `axis` (of
 * what is left) cut to [lo, lo + len). A dimension of size 1, or one a does not have, is
 * broadcast and stays. *row_step and *lo_step: the bytes the view's data moves per row and
 * per element of lo. */
static int view_of(const ck_array *a, int n, intptr_t row, int axis, intptr_t lo, intptr_t len,
                   ck_array **out, intptr_t *row_step, intptr_t *lo_step) {
    const ck_type *t = ck_array_type(a);
    int m = 0;
    fixed_shape(t, &m);
    ck_fixed_dim_arrmeta am[64];
    const ck_type *el = t;
    for (int l = 0; l < m; l++) {
        am[l] = ((const ck_fixed_dim_arrmeta *)(const void *)ck_array_arrmeta(a))[l];
        el = ck_type_element(el);
    }
    char *data = ck_array_data(a);
    int first = 0;
    *row_step = *lo_step = 0;
    if (row >= 0) {
        n--;
        if (m > n) { /* a has broadcast axis 0: take the row (row 0 of a size-1 one) */
            *row_step = am[0].dim_size == 1 ? 0 : am[0].stride;
            data += row * *row_step;
            first = 1;
        }
    }
    const int level = first + axis - (n - (m - first));
    if (level >= first && level < m && am[level].dim_size != 1) {
        *lo_step = am[level].stride;
        data += lo * am[level].stride;
        am[level].dim_size = len;
    }
    ck_type *vt = (ck_type *)(uintptr_t)el;
    ck_type_incref(vt);
    int rc = CK_OK;
    for (int l = m - 1; l >= first && rc == CK_OK; l--) {
        ck_type *outer = NULL;
        rc = ck_type_make_fixed_dim(am[l].dim_size, vt, &outer);
        ck_type_decref(vt);
        vt = outer;
    }
    if (rc == CK_OK) {
        rc = ck_array_wrap(vt, m > first ? (const char *)(am + first) : NULL, data, NULL, out);
    }
    ck_type_decref(vt);
    return rc;
}

typedef struct fused {
    const ck_expr *sub;          /* the operand */
    int nsrc;
    const ck_array *src[CK_CALL_MAX_ARGS];
    int n;                       /* the operand's dimensions */
    intptr_t shape[64];
    ck_reduce_spec spec;         /* along the innermost axis */
    const ck_eval_ctx *ectx;
} fused;

/* The operand's kernel over pieces of one shape (view_of's row mode, axis and len), built
 * once and run at any row and lo into its own result array, and the reduction of that
 * result (into `red_tp`: the piece's rows, or one accumulator) built once too. */
typedef struct piece {
    ck_builder kernel, reduce;
    ck_array *out;
    char *base[CK_CALL_MAX_ARGS];
    intptr_t row_step[CK_CALL_MAX_ARGS], lo_step[CK_CALL_MAX_ARGS];
    int has_reduce;
} piece;

static void piece_free(piece *p) {
    ck_builder_destroy(&p->kernel);
    ck_builder_destroy(&p->reduce);
    ck_array_free(p->out);
}

static int piece_make(piece *p, const fused *f, int row_mode, int axis, intptr_t len,
                      const ck_type *red_tp, const char *red_am, const ck_reduce_spec *red) {
    memset(p, 0, sizeof *p);
    ck_builder_init(&p->kernel);
    ck_builder_init(&p->reduce);
    ck_array *views[CK_CALL_MAX_ARGS] = {NULL};
    const ck_type *vt[CK_CALL_MAX_ARGS];
    const char *vam[CK_CALL_MAX_ARGS];
    int rc = CK_OK;
    for (int k = 0; k < f->nsrc && rc == CK_OK; k++) {
        rc = view_of(f->src[k], f->n, row_mode ? 0 : -1, axis, 0, len, &views[k],
                     &p->row_step[k], &p->lo_step[k]);
        if (rc == CK_OK) {
            vt[k] = ck_array_type(views[k]);
            vam[k] = ck_array_arrmeta(views[k]);
            p->base[k] = ck_array_data(views[k]);
        }
    }
    const char *const *names = (const char *const *)f->sub->names;
    ck_type *ot = NULL;
    if (rc == CK_OK) rc = ck_expr_result_type(f->sub, f->nsrc, names, vt, f->ectx, &ot);
    if (rc == CK_OK) rc = ck_array_new(ot, &p->out);
    ck_type_decref(ot);
    size_t off = 0;
    if (rc == CK_OK) {
        rc = ck_make_expr(&p->kernel, &off, f->sub, ck_array_type(p->out),
                          ck_array_arrmeta(p->out), f->nsrc, names, vt, vam, CK_REQUEST_SINGLE,
                          f->ectx);
    }
    off = 0;
    if (rc == CK_OK && red_tp != NULL) {
        rc = ck_make_reduce(&p->reduce, &off, red, red_tp, red_am, ck_array_type(p->out),
                            ck_array_arrmeta(p->out), CK_REQUEST_SINGLE, f->ectx);
        p->has_reduce = rc == CK_OK;
    }
    for (int k = 0; k < f->nsrc; k++) {
        ck_array_free(views[k]);
    }
    return rc;
}

/* The piece at (row, lo) into p->out, then reduced into red_dst when it has a reduction. */
static int piece_run(const piece *p, int nsrc, intptr_t row, intptr_t lo, char *red_dst) {
    char *src[CK_CALL_MAX_ARGS];
    for (int k = 0; k < nsrc; k++) {
        src[k] = p->base[k] + row * p->row_step[k] + lo * p->lo_step[k];
    }
    CK__RETURN_IF_ERROR(ck_call_single(ck_builder_root((ck_builder *)(uintptr_t)&p->kernel),
                                       ck_array_data(p->out), src));
    if (!p->has_reduce) {
        return CK_OK;
    }
    char *x = ck_array_data(p->out);
    return ck_call_single(ck_builder_root((ck_builder *)(uintptr_t)&p->reduce), red_dst, &x);
}

/* One run of the operand (row `row` of a 2-d one, or the whole 1-d one: row -1) folded in
 * chunks into the accumulator at acc (of acc_id; op its built-in fold): a tree fold's
 * chunks through its split (the operand is of acc_id), an exact fold's as partial results
 * (each chunk reduced, its elements cast as the reduction casts them) folded in order. The
 * pieces' kernels are made by the caller (full chunks and the tail). */
static int fold_run(const fused *f, const piece *chunk, const piece *tail, intptr_t row,
                    ck__arith_op op, ck_type_id acc_id, char *acc) {
    const size_t n = (size_t)f->shape[f->n - 1];
    const size_t nchunks = n / CHUNK_ELEMS, tail_n = n - nchunks * CHUNK_ELEMS;
    const ck__fold_split *split = ck__fold_split_for(op, acc_id);
    const size_t acc_size = ck_type_data_size(ck_type_scalar(acc_id));
    const size_t part = split != NULL ? split->lanes_bytes : acc_size;
    unsigned char start[16];
    ck__reduce_start_value(op, acc_id, start);
    ck_builder lb;
    ck_builder_init(&lb);
    size_t off = 0;
    int rc = split == NULL ? ck__make_acc_leaf(&lb, &off, op, acc_id) : CK_OK;
    char *parts = rc == CK_OK ? (char *)ck__malloc((nchunks + 1) * part) : NULL;
    if (rc == CK_OK && parts == NULL) {
        rc = ck__nomem_error("out of memory folding a run of %zu elements", n);
    }
    for (size_t c = 0; c < nchunks && rc == CK_OK; c++) {
        rc = piece_run(chunk, f->nsrc, row, (intptr_t)(c * CHUNK_ELEMS), parts + c * part);
        if (rc == CK_OK && split != NULL) {
            split->chunk(ck_array_data(chunk->out), (intptr_t)acc_size,
                         (size_t)1 << CHUNK_LEVEL, parts + c * part);
        }
    }
    if (rc == CK_OK && tail_n > 0) {
        rc = piece_run(tail, f->nsrc, row, (intptr_t)(nchunks * CHUNK_ELEMS),
                       parts + nchunks * part);
    }
    if (rc == CK_OK) {
        memcpy(acc, start, acc_size);
        if (split != NULL) {
            split->finish(acc, parts, nchunks, CHUNK_LEVEL,
                          tail_n > 0 ? ck_array_data(tail->out) : NULL, (intptr_t)acc_size,
                          tail_n);
        } else {
            char *p = parts;
            const intptr_t ps = (intptr_t)part;
            rc = ck_call_strided(ck_builder_root(&lb), acc, 0, &p, &ps, nchunks + (tail_n > 0));
        }
    }
    ck__free(parts);
    ck_builder_destroy(&lb);
    return rc;
}

/* A sum of x * y at the root, x and y sources of the accumulator's float or complex type: the
 * dot leaf, whose bits are the add fold's of the rounded products (reduce_ops.h), so of the
 * pieces' too, reading each source once with no buffer between multiply and fold (10 Mi
 * float64 on a Zen 4 EPYC: 0.88 -> 0.58 ns per element). NULL where the operand is another. */
static ck__dot_fn dot_of_product(const fused *f, int op, ck_type_id acc_id,
                                 const ck_type *const *type) {
    const ck__expr_node *r = &f->sub->nodes[f->sub->nnodes - 1];
    if (op != CK__ARITH_ADD || r->kind != CK__EXPR_CALL || r->nops != 2 ||
        strcmp(ck_callable_name(r->callable), "multiply") != 0) {
        return NULL;
    }
    if (acc_id != CK_TYPE_FLOAT32 && acc_id != CK_TYPE_FLOAT64 && acc_id != CK_TYPE_COMPLEX64 &&
        acc_id != CK_TYPE_COMPLEX128) {
        return NULL;
    }
    for (int j = 0; j < 2; j++) {
        const ck__expr_node *x = &f->sub->nodes[f->sub->operands[r->first + j]];
        if (x->kind != CK__EXPR_ARG) {
            return NULL;
        }
        const ck_type *t = type[x->arg];
        while (ck_type_get_id(t) == CK_TYPE_FIXED_DIM) t = ck_type_element(t);
        if (ck_type_get_id(t) != acc_id) {
            return NULL;
        }
    }
    ck__dot_fn fn = NULL;
    const char *target = NULL;
    return ck__dot_fn_for(acc_id, &fn, &target) == CK_OK ? fn : NULL;
}

/* Each run of the product's rows (row_mode: of a 2-d operand) through the dot leaf into the
 * accumulators at dst (row stride ds): acc = start + dot, as a fold into the start value. */
static int dot_runs(const fused *f, ck__dot_fn dot, ck_type_id acc_id, char *dst, intptr_t ds) {
    const ck__expr_node *r = &f->sub->nodes[f->sub->nnodes - 1];
    const int row_mode = f->n == 2;
    const size_t n = (size_t)f->shape[f->n - 1];
    ck_array *v[2] = {NULL, NULL};
    intptr_t rs[2] = {0, 0}, xs[2] = {0, 0};
    int rc = CK_OK;
    for (int j = 0; j < 2 && rc == CK_OK; j++) {
        const int k = f->sub->nodes[f->sub->operands[r->first + j]].arg;
        rc = view_of(f->src[k], f->n, row_mode ? 0 : -1, f->n - 1 - row_mode, 0, (intptr_t)n,
                     &v[j], &rs[j], &xs[j]);
    }
    for (intptr_t row = 0; row < (row_mode ? f->shape[0] : 1) && rc == CK_OK; row++) {
        unsigned char d[16];
        dot((char *)d, ck_array_data(v[0]) + row * rs[0], xs[0],
            ck_array_data(v[1]) + row * rs[1], xs[1], n);
        char *acc = dst + row * ds;
        if (acc_id == CK_TYPE_FLOAT32 || acc_id == CK_TYPE_COMPLEX64) {
            float a[2], b[2];
            memcpy(b, d, sizeof b);
            a[0] = 0.0f + b[0], a[1] = 0.0f + b[1];
            memcpy(acc, a, acc_id == CK_TYPE_FLOAT32 ? sizeof a[0] : sizeof a);
        } else {
            double a[2], b[2];
            memcpy(b, d, sizeof b);
            a[0] = 0.0 + b[0], a[1] = 0.0 + b[1];
            memcpy(acc, a, acc_id == CK_TYPE_FLOAT64 ? sizeof a[0] : sizeof a);
        }
    }
    ck_array_free(v[0]);
    ck_array_free(v[1]);
    return rc;
}

/* dst <- the root's reduction of the operand sub over the stage's sources, without a full
 * temporary; *done 0 (and nothing written) where the case is not one this takes. */
static int fused_root(const stage *st, const ck_expr *sub, const ck__expr_node *root,
                      const ck_array *dst, const ck_eval_ctx *ectx, ck_array **out, int *done) {
    *done = 0;
    fused f;
    memset(&f, 0, sizeof f);
    f.sub = sub;
    f.nsrc = sub->nnames;
    f.ectx = ectx;
    const ck_type *type[CK_CALL_MAX_ARGS];
    CK__RETURN_IF_ERROR(sources_of(st, sub, f.src, type));
    /* The broadcast shape of fixed sources. */
    size_t total = 1;
    for (int k = 0; k < f.nsrc; k++) {
        int m = 0;
        if (!fixed_shape(type[k], &m)) {
            return CK_OK;
        }
        const ck_fixed_dim_arrmeta *am =
            (const ck_fixed_dim_arrmeta *)(const void *)ck_array_arrmeta(f.src[k]);
        if (m > f.n) {
            for (int l = f.n; l < m; l++) { /* new outer axes: shift the shape right */
                memmove(f.shape + 1, f.shape, (size_t)l * sizeof f.shape[0]);
                f.shape[0] = 1;
            }
            f.n = m;
        }
        for (int l = 0; l < m; l++) {
            intptr_t *d = &f.shape[f.n - m + l];
            if (*d == 1 || *d == 0) {
                *d = *d == 0 && am[l].dim_size == 1 ? 0 : am[l].dim_size;
            } else if (am[l].dim_size != 1 && am[l].dim_size != *d) {
                return CK_OK; /* the full evaluation reports it */
            }
        }
    }
    for (int l = 0; l < f.n; l++) {
        if (__builtin_mul_overflow(total, (size_t)f.shape[l], &total)) {
            return CK_OK;
        }
    }
    int axes[CK_CALL_MAX_ARGS];
    f.spec = spec_of(root, axes);
    const int inner_only = f.n >= 1 && ((f.spec.axes == NULL && f.n == 1) ||
                                        (f.spec.naxes == 1 && (axes[0] == f.n - 1 || axes[0] == -1)));
    if (!inner_only || total <= 2 * CHUNK_ELEMS || f.shape[f.n - 1] == 0) {
        return CK_OK; /* small, or not along the innermost axis alone: one temporary */
    }
    int one_axis = -1;
    f.spec.axes = &one_axis;
    f.spec.naxes = 1;
    /* The accumulator: the destination's, which must be the one the reduction gives. */
    ck_type *operand_type = NULL;
    CK__RETURN_IF_ERROR(ck_expr_result_type(sub, f.nsrc, (const char *const *)sub->names, type,
                                            ectx, &operand_type));
    ck_type_id acc_id = CK_TYPE_BOOL;
    int op = -1;
    uint64_t reduced = 0;
    ck_type *rt = NULL;
    int rc = at_column(ck__reduce_plan_info(&f.spec, operand_type, -1, ectx, &acc_id, &op,
                                            &reduced), root);
    if (rc == CK_OK) {
        rc = at_column(ck_reduce_result_type(&f.spec, operand_type, ectx, &rt), root);
    }
    int t_ok = 0;
    if (rc == CK_OK) {
        const ck_type *ot = operand_type;
        while (ck_type_get_id(ot) == CK_TYPE_FIXED_DIM) ot = ck_type_element(ot);
        const int tree = op >= 0 && ck__fold_split_for((ck__arith_op)op, acc_id) != NULL;
        t_ok = op >= 0 && (!tree || ck_type_get_id(ot) == acc_id);
        if (dst != NULL && !ck_type_equal(ck_array_type(dst), rt)) {
            t_ok = 0; /* another accumulator (out= of another type): one temporary */
        }
        unsigned flags = 0;
        ck_errmode mode;
        if (ck__resolve_eval_ctx(ectx, &mode, &flags) == CK_OK && (flags & CK_EVAL_FP_ERRORS)) {
            t_ok = 0;
        }
    }
    ck_type_decref(operand_type);
    if (rc != CK_OK || !t_ok) {
        ck_type_decref(rt);
        return rc;
    }
    ck_array *made = NULL;
    if (dst == NULL) {
        rc = ck_array_new(rt, &made);
        dst = made;
    }
    ck_type_decref(rt);
    /* Rows of the outermost axis a block at a time, or runs in chunks (a dot's at once). */
    ck__dot_fn dot = NULL;
    const intptr_t row_elems = f.n >= 2 ? (intptr_t)(total / (size_t)f.shape[0]) : 0;
    if (rc == CK_OK && f.n >= 2 && row_elems <= (intptr_t)CHUNK_ELEMS) {
        const intptr_t rows = (intptr_t)CHUNK_ELEMS / row_elems;
        const intptr_t full = f.shape[0] / rows, rest = f.shape[0] - full * rows;
        const ck_fixed_dim_arrmeta *dm =
            (const ck_fixed_dim_arrmeta *)(const void *)ck_array_arrmeta(dst);
        piece blk[2];
        int made_blk = 0;
        for (int k = 0; k < 2 && rc == CK_OK; k++) {
            const intptr_t len = k == 0 ? rows : rest;
            if (len == 0 || (k == 0 && full == 0)) {
                continue;
            }
            intptr_t rs = 0, ls = 0;
            ck_array *dv = NULL;
            rc = view_of(dst, f.n - 1, -1, 0, 0, len, &dv, &rs, &ls);
            if (rc == CK_OK) {
                rc = piece_make(&blk[k], &f, 0, 0, len, ck_array_type(dv), ck_array_arrmeta(dv),
                                &f.spec);
                made_blk |= 1 << k;
            }
            ck_array_free(dv);
        }
        for (intptr_t b = 0; b < full + (rest > 0) && rc == CK_OK; b++) {
            const intptr_t r0 = b * rows;
            rc = at_column(piece_run(&blk[b < full ? 0 : 1], f.nsrc, 0, r0,
                                     ck_array_data(dst) + r0 * dm->stride),
                           root);
        }
        for (int k = 0; k < 2; k++) {
            if (made_blk & (1 << k)) piece_free(&blk[k]);
        }
    } else if (rc == CK_OK && (f.n == 1 || f.n == 2) &&
               (dot = dot_of_product(&f, op, acc_id, type)) != NULL) {
        const ck_fixed_dim_arrmeta *dm =
            f.n == 2 ? (const ck_fixed_dim_arrmeta *)(const void *)ck_array_arrmeta(dst) : NULL;
        rc = dot_runs(&f, dot, acc_id, ck_array_data(dst), dm != NULL ? dm->stride : 0);
    } else if (rc == CK_OK && (f.n == 1 || f.n == 2)) {
        const ck_fixed_dim_arrmeta *dm =
            f.n == 2 ? (const ck_fixed_dim_arrmeta *)(const void *)ck_array_arrmeta(dst) : NULL;
        const int exact = ck__fold_split_for((ck__arith_op)op, acc_id) == NULL;
        const size_t n = (size_t)f.shape[f.n - 1], tail_n = n % CHUNK_ELEMS;
        /* An exact fold reduces each piece into its partial result (a 0-d accumulator). */
        ck_reduce_spec all = f.spec;
        all.axes = NULL;
        all.naxes = 0;
        const ck_type *acc_tp = exact ? ck_type_scalar(acc_id) : NULL;
        piece chunk, tail;
        int made_pieces = 0;
        if (n >= CHUNK_ELEMS) {
            rc = piece_make(&chunk, &f, f.n == 2, f.n - 1 - (f.n == 2), (intptr_t)CHUNK_ELEMS,
                            acc_tp, NULL, &all);
            made_pieces |= 1;
        }
        if (rc == CK_OK && tail_n > 0) {
            rc = piece_make(&tail, &f, f.n == 2, f.n - 1 - (f.n == 2), (intptr_t)tail_n, acc_tp,
                            NULL, &all);
            made_pieces |= 2;
        }
        for (intptr_t r = 0; r < (f.n == 2 ? f.shape[0] : 1) && rc == CK_OK; r++) {
            char *acc = ck_array_data(dst) + (dm != NULL ? r * dm->stride : 0);
            rc = at_column(fold_run(&f, &chunk, &tail, f.n == 2 ? r : 0, (ck__arith_op)op,
                                    acc_id, acc),
                           root);
        }
        if (made_pieces & 1) piece_free(&chunk);
        if (made_pieces & 2) piece_free(&tail);
    } else if (rc == CK_OK) {
        ck_array_free(made);
        return CK_OK; /* rows too long to block, above two dimensions: one temporary */
    }
    if (rc == CK_OK) {
        *done = 1;
        if (out != NULL) {
            *out = made;
            made = NULL;
        }
    }
    ck_array_free(made);
    return rc;
}

int ck__expr_eval_reduced(const ck_expr *e, const ck_array *dst, int nargs,
                          const char *const *names, const ck_array *const *src,
                          const ck_eval_ctx *ectx, int parallel, ck_array **out) {
    if (src == NULL && nargs > 0) {
        return ck_set_error(CK_ERR_INVALID, "expression: NULL sources");
    }
    static const ck_array *const none[1] = {NULL};
    stage st;
    int rc = stage_all(&st, e, nargs, names, nargs > 0 ? src : none, NULL, ectx, parallel);
    const ck_expr *x = st.e;
    const ck__expr_node *root = rc == CK_OK ? &x->nodes[x->nnodes - 1] : NULL;
    if (rc == CK_OK && root->kind == CK__EXPR_REDUCE) {
        ck_expr *sub = NULL;
        const ck_array *srcs[CK_CALL_MAX_ARGS];
        const ck_type *type[CK_CALL_MAX_ARGS];
        ck_array *operand = NULL;
        rc = extract(x, x->operands[root->first], -1, NULL, &sub);
        int done = 0;
        /* Split across threads, the operand is evaluated whole (in parallel) and reduced in
         * parallel: the fused pass runs on one thread. */
        if (rc == CK_OK && !parallel) rc = fused_root(&st, sub, root, dst, ectx, out, &done);
        if (rc == CK_OK && !done) rc = sources_of(&st, sub, srcs, type);
        if (rc == CK_OK && !done) rc = eval_new(sub, srcs, ectx, parallel, &operand);
        int axes[CK_CALL_MAX_ARGS];
        const ck_reduce_spec spec = spec_of(root, axes);
        if (rc == CK_OK && !done) {
            rc = at_column(reduce_to(&spec, dst, operand, ectx, parallel, out), root);
        }
        ck_array_free(operand);
        ck_expr_decref(sub);
    } else if (rc == CK_OK) {
        const ck_array *srcs[CK_CALL_MAX_ARGS];
        const ck_type *type[CK_CALL_MAX_ARGS];
        rc = sources_of(&st, x, srcs, type);
        const char *const *xn = (const char *const *)x->names;
        if (rc == CK_OK && parallel && dst != NULL && x->nnames > 0) {
            rc = ck_parallel_expr(x, dst, x->nnames, xn, srcs, ectx);
        } else if (rc == CK_OK) {
            rc = dst != NULL ? ck_expr_eval(x, dst, x->nnames, xn, srcs, ectx)
                             : ck_expr_eval_new(x, x->nnames, xn, srcs, ectx, out);
        }
    }
    stage_free(&st);
    return rc;
}
