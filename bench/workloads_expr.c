/* bench/workloads_expr.c: the expr/... workloads (ckernel/expr.h) time one expression
 * kernel (ck_make_expr) over 10 Mi elements per argument, or the var rows, against one plain
 * loop doing the same operations in the same order (baselines.c), float64 results. The
 * composed ones are built with CK_EVAL_NO_JIT; expr/<case>/jit with CK_EVAL_JIT, timed beside
 * its CK_EVAL_NO_JIT twin, and skipped, with the JIT's own reason, when the JIT does not
 * compile it. On more than one thread: ck_parallel_expr over arrays made in setup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

/* The text and each argument's scalar type, in the order of ck_expr_arg_name (its first
 * appearance); a scalar argument is 0-d with the value given, the others arrays of the
 * workload's shape filled from their own seeds. */
typedef struct expr_def {
    const char *text;
    int nargs;
    ck_type_id type[EXPR_ARGS];
    int scalar[EXPR_ARGS];
    double value[EXPR_ARGS];
} expr_def;

static const expr_def expr_fma3 = {"a * b + c", 3, {F64, F64, F64}, {0, 0, 0}, {0}};
static const expr_def expr_poly = {"((a * x + b) * x + c) * x + d", 5,
                                   {F64, F64, F64, F64, F64}, {1, 0, 1, 1, 1},
                                   {0.5, 0, -1.25, 3.0, 0.75}};
static const expr_def expr_mixed = {"i32 * f64 + f32", 3, {I32, F64, F32}, {0, 0, 0}, {0}};
static const expr_def expr_var = {"a * x + b", 3, {F64, F64, F64}, {0, 0, 0}, {0}};

static int make_expr(const ckb_wl *w, ck_builder *b, size_t *off, const ck_eval_ctx *ctx) {
    return ck_make_expr(b, off, w->expr, w->dt, w->dam, w->nx, NULL,
                        (const ck_type *const *)w->xt, (const char *const *)w->xam,
                        CK_REQUEST_SINGLE, ctx);
}

/* ---- setup ---- */

/* expr/...: the expression and the types and arrmeta of its arguments and destination
 * (w->n elements each, or rows of the lengths `lens` of a var workload), no data. */
static int expr_types(ckb_wl *w, const expr_def *x, const size_t *lens) {
    w->make = make_expr;
    const int var = lens != NULL;
    const intptr_t dims[1] = {var ? (intptr_t)VAR_ROWS : (intptr_t)w->n};
    int rc = ck_expr_parse(x->text, &w->expr);
    if (rc == CK_OK && var) rc = ck_arena_new(0, &w->arena);
    if (rc == CK_OK) rc = ckb_make_type(dims, 1, var, 0, F64, &w->dt);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, w->arena, &w->dam);
    for (int k = 0; rc == CK_OK && k < x->nargs; k++) {
        w->nx = k + 1;
        if (x->scalar[k]) {
            w->xt[k] = (ck_type *)(uintptr_t)ck_type_scalar(x->type[k]); /* static */
        } else {
            rc = ckb_make_type(dims, 1, var, 0, x->type[k], &w->xt[k]);
        }
        if (rc == CK_OK) rc = ckb_make_arrmeta(w->xt[k], w->arena, &w->xam[k]);
    }
    return rc;
}

/* expr/...: the types, then each argument's data (var: rows one after another), the
 * destination's and the reference's; the kernel built, and (threads > 1) the arguments and
 * the destination as the arrays ck_parallel_expr takes. */
static int setup_expr(ckb_wl *w, const expr_def *x, int var) {
    const size_t rows = VAR_ROWS;
    size_t *lens = NULL;
    if (var && (lens = (size_t *)malloc(rows * sizeof *lens)) == NULL) {
        return ckb_nomem("row lengths");
    }
    if (var) w->n = ckb_var_lengths(lens);
    int rc = expr_types(w, x, lens);
    const size_t n = w->n, ds = sizeof(double);
    w->dst_buf = ckb_alloc_buffer(n * ds);
    w->ref_buf = ckb_alloc_buffer(n * ds);
    if (var) {
        w->dst_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
        w->ref_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    }
    if (rc == CK_OK && (w->dst_buf == NULL || w->ref_buf == NULL ||
                        (var && (w->dst_rows == NULL || w->ref_rows == NULL)))) {
        rc = ckb_nomem("destination");
    }
    w->bytes_moved = (double)(n * ds);
    for (int k = 0; rc == CK_OK && k < x->nargs; k++) {
        const size_t es = ckb_scalar_size(x->type[k]);
        if (x->scalar[k]) {
            if ((w->xbuf[k] = ckb_alloc_buffer(ds)) == NULL) {
                rc = ckb_nomem("scalar argument");
                break;
            }
            memcpy(w->xbuf[k], &x->value[k], ds);
            w->xargs[k] = w->xbuf[k];
            continue;
        }
        w->xbuf[k] = ckb_alloc_buffer(n * es);
        if (w->xbuf[k] == NULL) {
            rc = ckb_nomem("argument");
            break;
        }
        const ckb_fill f =
            x->type[k] == I32 ? F_I32 : x->type[k] == F32 ? F_F32_PLAIN : F_F64_PLAIN;
        ckb_fill_data(w->xbuf[k], n, x->type[k], f,
                      SEED ^ (UINT64_C(0x2545f4914f6cdd1d) * (uint64_t)k));
        w->xargs[k] = w->xbuf[k];
        w->bytes_moved += (double)(n * es);
        if (var) {
            if ((w->xrows[k] = (ck_var_data *)calloc(rows, sizeof(ck_var_data))) == NULL) {
                rc = ckb_nomem("var rows");
                break;
            }
            w->xargs[k] = (char *)w->xrows[k];
            w->bytes_moved += (double)(rows * sizeof(ck_var_data));
        }
    }
    if (rc == CK_OK && var) {
        for (int k = 0; k < x->nargs; k++) {
            ckb_var_rows(w->xrows[k], w->xbuf[k], ckb_scalar_size(x->type[k]), lens, rows);
        }
        ckb_var_rows(w->dst_rows, w->dst_buf, ds, lens, rows);
        ckb_var_rows(w->ref_rows, w->ref_buf, ds, lens, rows);
        w->bytes_moved += (double)(rows * sizeof(ck_var_data));
    }
    free(lens);
    w->kdst = var ? (char *)w->dst_rows : w->dst_buf;
    w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = n * ds;
    w->args = w->xargs;
    if (rc == CK_OK) rc = ckb_wl_build(w);
    if (rc == CK_OK && w->threads > 1) {
        rc = ck_array_wrap(w->dt, w->dam, w->kdst, NULL, &w->dst_array);
        for (int k = 0; rc == CK_OK && k < w->nx; k++) {
            rc = ck_array_wrap(w->xt[k], w->xam[k], w->xargs[k], NULL, &w->xarrays[k]);
        }
    }
    return rc;
}

/* a * b + c over N * float64 each. */
int ckb_expr_setup_fma3(ckb_wl *w) {
    return setup_expr(w, &expr_fma3, 0);
}

int ckb_expr_setup_fma3_paired(ckb_wl *w) {
    const int rc = setup_expr(w, &expr_fma3, 0);
    return rc == CK_OK ? ckb_wl_build_composed(w) : rc;
}

/* ((a * x + b) * x + c) * x + d: x N * float64, a..d scalars. */
int ckb_expr_setup_poly_paired(ckb_wl *w) {
    const int rc = setup_expr(w, &expr_poly, 0);
    return rc == CK_OK ? ckb_wl_build_composed(w) : rc;
}

/* i32 * f64 + f32 over N * int32, N * float64, N * float32. */
int ckb_expr_setup_mixed(ckb_wl *w) {
    return setup_expr(w, &expr_mixed, 0);
}

/* a * x + b over VAR_ROWS * var * float64 each. */
int ckb_expr_setup_var(ckb_wl *w) {
    return setup_expr(w, &expr_var, 1);
}

/* ---- run, plain loops ---- */

int ckb_expr_run(ckb_wl *w) {
    if (w->threads > 1) {
        ck_eval_ctx c = w->ctx;
        c.max_threads = w->threads;
        return ck_parallel_expr(w->expr, w->dst_array, w->nx, NULL,
                                (const ck_array *const *)w->xarrays, &c);
    }
    return ckb_run_kernel(w);
}

int ckb_expr_loop_fma3(const ckb_wl *w, ckb_out out) {
    return ckb_loop_fma3_float64((double *)(void *)out.elems, (const double *)(void *)w->xbuf[0],
                                 (const double *)(void *)w->xbuf[1],
                                 (const double *)(void *)w->xbuf[2], w->n);
}

int ckb_expr_loop_poly(const ckb_wl *w, ckb_out out) {
    const double k[4] = {expr_poly.value[0], expr_poly.value[2], expr_poly.value[3],
                         expr_poly.value[4]};
    return ckb_loop_poly3_float64((double *)(void *)out.elems,
                                  (const double *)(void *)w->xbuf[1], k, w->n);
}

int ckb_expr_loop_mixed(const ckb_wl *w, ckb_out out) {
    return ckb_loop_mul_add_int32_float64_float32(
        (double *)(void *)out.elems, (const int32_t *)(void *)w->xbuf[0],
        (const double *)(void *)w->xbuf[1], (const float *)(void *)w->xbuf[2], w->n);
}

int ckb_expr_loop_var(const ckb_wl *w, ckb_out out) {
    return ckb_loop_fma3_float64_var(out.rows, w->xrows[0], w->xrows[1], w->xrows[2],
                                     VAR_ROWS);
}

/* ---- skipped without a compiled kernel ---- */

/* expr/<case>/jit with a JIT: skipped when the JIT does not compile the expression's kernel
 * (the kernel over the workload's types, no data, built with CK_EVAL_JIT), with the JIT's
 * reason (ck_jit_last_decision). */
static int expr_not_compiled(const ckb_def *d, const expr_def *x, char *why, size_t why_size) {
    ckb_wl w;
    memset(&w, 0, sizeof w);
    w.def = d;
    w.n = d->n;
    ck_builder_init(&w.b);
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    w.ctx = init;
    w.ctx.flags |= CK_EVAL_JIT;
    int rc = expr_types(&w, x, NULL);
    if (rc == CK_OK) rc = ckb_wl_build_into(&w, &w.b, &w.ctx);
    const char *decision = ck_jit_last_decision();
    int skip = 0;
    if (rc != CK_OK) {
        /* The run reports it (a failure, not a skip). */
    } else if (strncmp(decision, "compiled", 8) != 0 && strncmp(decision, "cache hit", 9) != 0) {
        snprintf(why, why_size, "the JIT did not compile the expression: %s",
                 decision[0] != '\0' ? decision : "no nest was offered to it");
        skip = 1;
    }
    ckb_wl_free(&w);
    return skip;
}

int ckb_expr_skip_fma3(const ckb_def *d, char *why, size_t why_size) {
    return expr_not_compiled(d, &expr_fma3, why, why_size);
}

int ckb_expr_skip_poly(const ckb_def *d, char *why, size_t why_size) {
    return expr_not_compiled(d, &expr_poly, why, why_size);
}
