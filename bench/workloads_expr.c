/* bench/workloads_expr.c: the expr/... workloads (ckernel/expr.h) time one expression
 * kernel (ck_make_expr) over 10 Mi elements per argument, or the var rows, against one plain
 * loop doing the same operations in the same order (baselines.c), float64 results (bool for
 * expr/logic). The composed ones are built with CK_EVAL_NO_JIT; expr/<case>/jit with
 * CK_EVAL_JIT, timed beside its CK_EVAL_NO_JIT twin, and skipped, with the JIT's own reason,
 * when the JIT does not compile it. On more than one thread: ck_parallel_expr over arrays
 * made in setup. expr/dotsum/jit, a reduction (which ck_make_expr refuses), is ck_expr_eval
 * into a 0-d float64, and expr/trig/jit/2threads ck_parallel_expr on 2 threads: both build
 * their kernels inside the timed call, their twin is the same call with CK_EVAL_NO_JIT, and
 * they are skipped when that call's build does not compile. The plain loops of expr/trig and
 * expr/gauss call the C library's sin, cos and exp, not ckernel's (SLEEF's): compared within
 * EXPR_ULPS; the running sum of expr/dotsum within a bound of its rounding. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

/* The text and each argument's scalar type, in the order of ck_expr_arg_name (its first
 * appearance); a scalar argument is 0-d with the value given (a float64), the others arrays of
 * the workload's shape filled from their own seeds: uniform in [lo, hi) when lo < hi, else
 * the usual fill of their type. The destination: arrays of `result` of the same shape, or
 * (`reduce`: the expression is a reduction to one value) a 0-d `result`. */
typedef struct expr_def {
    const char *text;
    int nargs;
    ck_type_id type[EXPR_ARGS];
    int scalar[EXPR_ARGS];
    double value[EXPR_ARGS];
    ck_type_id result;
    int reduce;
    double lo, hi;
} expr_def;

static const expr_def expr_fma3 = {.text = "a * b + c", .nargs = 3, .type = {F64, F64, F64},
                                   .result = F64};
static const expr_def expr_poly = {.text = "((a * x + b) * x + c) * x + d", .nargs = 5,
                                   .type = {F64, F64, F64, F64, F64}, .scalar = {1, 0, 1, 1, 1},
                                   .value = {0.5, 0, -1.25, 3.0, 0.75}, .result = F64};
static const expr_def expr_mixed = {.text = "i32 * f64 + f32", .nargs = 3,
                                    .type = {I32, F64, F32}, .result = F64};
static const expr_def expr_var = {.text = "a * x + b", .nargs = 3, .type = {F64, F64, F64},
                                  .result = F64};
static const expr_def expr_linear = {.text = "2*a + 3*b", .nargs = 2, .type = {F64, F64},
                                     .result = F64};
static const expr_def expr_trig = {.text = "sin(a)**2 + cos(b)**2", .nargs = 2,
                                   .type = {F64, F64}, .result = F64, .lo = -100, .hi = 100};
static const expr_def expr_where = {.text = "where(a > b, a, b)", .nargs = 2,
                                    .type = {F64, F64}, .result = F64};
static const expr_def expr_gauss = {.text = "exp(-a*a/2) * c", .nargs = 2, .type = {F64, F64},
                                    .result = F64, .lo = -10, .hi = 10};
static const expr_def expr_logic = {.text = "(a < 0.5) & (b > 0) | (c > 0.9)", .nargs = 3,
                                    .type = {F64, F64, F64}, .result = CK_TYPE_BOOL, .lo = -1,
                                    .hi = 1};
static const expr_def expr_dotsum = {.text = "sum(a * b)", .nargs = 2, .type = {F64, F64},
                                     .result = F64, .reduce = 1};

/* The ULPs apart that the results of sin, cos or exp through the C library's functions and
 * through ckernel's may be, after the squares and the sum (trig) or the product (gauss):
 * each function within 1 ULP (SLEEF) and 0.5 (glibc), doubled by a square, and the
 * operations after it rounded once each. */
#define EXPR_ULPS 4

static int make_expr(const ckb_wl *w, ck_builder *b, size_t *off, const ck_eval_ctx *ctx) {
    return ck_make_expr(b, off, w->expr, w->dt, w->dam, w->nx, NULL,
                        (const ck_type *const *)w->xt, (const char *const *)w->xam,
                        CK_REQUEST_SINGLE, ctx);
}

/* ---- setup ---- */

/* expr/...: the expression and the types and arrmeta of its arguments and destination
 * (w->n elements each, or rows of the lengths `lens` of a var workload; a reduction's
 * destination 0-d), no data. */
static int expr_types(ckb_wl *w, const expr_def *x, const size_t *lens) {
    w->make = make_expr;
    const int var = lens != NULL;
    const intptr_t dims[1] = {var ? (intptr_t)VAR_ROWS : (intptr_t)w->n};
    int rc = ck_expr_parse(x->text, &w->expr);
    if (rc == CK_OK && var) rc = ck_arena_new(0, &w->arena);
    if (rc == CK_OK && x->reduce) {
        w->dt = (ck_type *)(uintptr_t)ck_type_scalar(x->result); /* static */
    } else if (rc == CK_OK) {
        rc = ckb_make_type(dims, 1, var, 0, x->result, &w->dt);
    }
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

/* Uniform values in [lo, hi) from the seed (xorshift, 53 bits). */
static void fill_uniform(double *p, size_t n, double lo, double hi, uint64_t s) {
    for (size_t i = 0; i < n; i++) {
        p[i] = lo + (hi - lo) * (double)(ckb_rng_next(&s) >> 11) * 0x1p-53;
    }
}

static uint64_t arg_seed(int k) {
    return SEED ^ (UINT64_C(0x2545f4914f6cdd1d) * (uint64_t)k);
}

/* expr/dotsum (a reduction) and the JIT on several threads: no kernel is built before
 * timing; each operation is one ck_expr_eval or ck_parallel_expr call, which builds its own
 * kernels (with ctx's flags). */
static int evaluated(const ckb_wl *w, const expr_def *x) {
    return x->reduce || (w->threads > 1 && w->kind->eval == CKB_JIT);
}

/* One evaluation into the destination: ck_parallel_expr on w->threads threads, or
 * ck_expr_eval. */
static int expr_eval(ckb_wl *w, const ck_eval_ctx *ctx) {
    ck_eval_ctx c = *ctx;
    const ck_array *const *src = (const ck_array *const *)w->xarrays;
    if (w->threads > 1) {
        c.max_threads = w->threads;
        return ck_parallel_expr(w->expr, w->dst_array, w->nx, NULL, src, &c);
    }
    return ck_expr_eval(w->expr, w->dst_array, w->nx, NULL, src, &c);
}

/* The CK_EVAL_NO_JIT twin of an evaluated workload (ckb_measure_vs_composed). */
static int run_composed(ckb_wl *w) {
    ck_eval_ctx c = w->ctx;
    c.flags = (c.flags & ~(unsigned)CK_EVAL_JIT) | CK_EVAL_NO_JIT;
    return expr_eval(w, &c);
}

/* The destination and the arguments as arrays over their buffers (ck_parallel_expr,
 * ck_expr_eval). */
static int wrap_arrays(ckb_wl *w) {
    int rc = ck_array_wrap(w->dt, w->dam, w->kdst, NULL, &w->dst_array);
    for (int k = 0; rc == CK_OK && k < w->nx; k++) {
        rc = ck_array_wrap(w->xt[k], w->xam[k], w->xargs[k], NULL, &w->xarrays[k]);
    }
    return rc;
}

/* An evaluated workload's first operation, in setup: with CK_EVAL_JIT, checked compiled
 * (or the figures would time the composed kernels under a jit name), and its compile. A
 * reduction is not checked: expr/dotsum's sum of products is the dot leaf, no nest. */
static int first_eval(ckb_wl *w, const expr_def *x) {
    ck_jit_info before, after;
    ck_jit_get_info(&before);
    int rc = expr_eval(w, &w->ctx);
    ck_jit_get_info(&after);
    if (rc == CK_OK && w->kind->eval == CKB_JIT && !x->reduce) rc = ckb_wl_check_jit_used(w, 1);
    w->compile_ms =
        after.compiles == before.compiles + 1 ? after.compile_ms - before.compile_ms : -1.0;
    return rc;
}

/* expr/...: the types, then each argument's data (var: rows one after another), the
 * destination's and the reference's; the kernel built, and (threads > 1) the arguments and
 * the destination as the arrays ck_parallel_expr takes. An evaluated workload (evaluated())
 * runs once instead, over those arrays. */
static int setup_expr(ckb_wl *w, const expr_def *x, int var) {
    const size_t rows = VAR_ROWS;
    size_t *lens = NULL;
    if (var && (lens = (size_t *)malloc(rows * sizeof *lens)) == NULL) {
        return ckb_nomem("row lengths");
    }
    if (var) w->n = ckb_var_lengths(lens);
    int rc = expr_types(w, x, lens);
    const size_t n = w->n, ds = ckb_scalar_size(x->result), dn = x->reduce ? 1 : n;
    w->dst_buf = ckb_alloc_buffer(dn * ds);
    w->ref_buf = ckb_alloc_buffer(dn * ds);
    if (var) {
        w->dst_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
        w->ref_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    }
    if (rc == CK_OK && (w->dst_buf == NULL || w->ref_buf == NULL ||
                        (var && (w->dst_rows == NULL || w->ref_rows == NULL)))) {
        rc = ckb_nomem("destination");
    }
    w->bytes_moved = (double)(dn * ds);
    for (int k = 0; rc == CK_OK && k < x->nargs; k++) {
        const size_t es = ckb_scalar_size(x->type[k]);
        if (x->scalar[k]) {
            if ((w->xbuf[k] = ckb_alloc_buffer(sizeof(double))) == NULL) {
                rc = ckb_nomem("scalar argument");
                break;
            }
            memcpy(w->xbuf[k], &x->value[k], sizeof(double));
            w->xargs[k] = w->xbuf[k];
            continue;
        }
        w->xbuf[k] = ckb_alloc_buffer(n * es);
        if (w->xbuf[k] == NULL) {
            rc = ckb_nomem("argument");
            break;
        }
        if (x->lo < x->hi) {
            fill_uniform((double *)(void *)w->xbuf[k], n, x->lo, x->hi, arg_seed(k));
        } else {
            const ckb_fill f =
                x->type[k] == I32 ? F_I32 : x->type[k] == F32 ? F_F32_PLAIN : F_F64_PLAIN;
            ckb_fill_data(w->xbuf[k], n, x->type[k], f, arg_seed(k));
        }
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
    w->dst_bytes = dn * ds;
    w->args = w->xargs;
    if (rc == CK_OK && evaluated(w, x)) {
        rc = wrap_arrays(w);
        return rc == CK_OK ? first_eval(w, x) : rc;
    }
    if (rc == CK_OK) rc = ckb_wl_build(w);
    if (rc == CK_OK && w->threads > 1) rc = wrap_arrays(w);
    return rc;
}

/* expr/<case>/jit: the workload and its CK_EVAL_NO_JIT twin (a kernel in w->cb, or for an
 * evaluated workload the same call with CK_EVAL_NO_JIT). */
static int setup_paired(ckb_wl *w, const expr_def *x) {
    const int rc = setup_expr(w, x, 0);
    if (rc != CK_OK) {
        return rc;
    }
    if (evaluated(w, x)) {
        w->run_composed = run_composed;
        return CK_OK;
    }
    return ckb_wl_build_composed(w);
}

/* a * b + c over N * float64 each. */
int ckb_expr_setup_fma3(ckb_wl *w) {
    return setup_expr(w, &expr_fma3, 0);
}

int ckb_expr_setup_fma3_paired(ckb_wl *w) {
    return setup_paired(w, &expr_fma3);
}

/* ((a * x + b) * x + c) * x + d: x N * float64, a..d scalars. */
int ckb_expr_setup_poly_paired(ckb_wl *w) {
    return setup_paired(w, &expr_poly);
}

/* i32 * f64 + f32 over N * int32, N * float64, N * float32. */
int ckb_expr_setup_mixed(ckb_wl *w) {
    return setup_expr(w, &expr_mixed, 0);
}

/* a * x + b over VAR_ROWS * var * float64 each. */
int ckb_expr_setup_var(ckb_wl *w) {
    return setup_expr(w, &expr_var, 1);
}

/* 2*a + 3*b over N * float64 each. */
int ckb_expr_setup_linear(ckb_wl *w) {
    return setup_expr(w, &expr_linear, 0);
}

int ckb_expr_setup_linear_paired(ckb_wl *w) {
    return setup_paired(w, &expr_linear);
}

/* sin(a)**2 + cos(b)**2 over N * float64 each in [-100, 100). */
int ckb_expr_setup_trig(ckb_wl *w) {
    return setup_expr(w, &expr_trig, 0);
}

int ckb_expr_setup_trig_paired(ckb_wl *w) {
    return setup_paired(w, &expr_trig);
}

/* The same through ck_parallel_expr on 2 threads. */
int ckb_expr_setup_trig_2threads(ckb_wl *w) {
    w->threads = 2;
    return setup_paired(w, &expr_trig);
}

/* where(a > b, a, b) over N * float64 each. */
int ckb_expr_setup_where(ckb_wl *w) {
    return setup_expr(w, &expr_where, 0);
}

int ckb_expr_setup_where_paired(ckb_wl *w) {
    return setup_paired(w, &expr_where);
}

/* exp(-a*a/2) * c over N * float64 each in [-10, 10). */
int ckb_expr_setup_gauss(ckb_wl *w) {
    return setup_expr(w, &expr_gauss, 0);
}

int ckb_expr_setup_gauss_paired(ckb_wl *w) {
    return setup_paired(w, &expr_gauss);
}

/* (a < 0.5) & (b > 0) | (c > 0.9) over N * float64 each in [-1, 1), into N * bool. */
int ckb_expr_setup_logic(ckb_wl *w) {
    return setup_expr(w, &expr_logic, 0);
}

int ckb_expr_setup_logic_paired(ckb_wl *w) {
    return setup_paired(w, &expr_logic);
}

/* sum(a * b) over N * float64 each into a 0-d float64 (ck_expr_eval). */
int ckb_expr_setup_dotsum_paired(ckb_wl *w) {
    return setup_paired(w, &expr_dotsum);
}

/* ---- run, plain loops ---- */

int ckb_expr_run(ckb_wl *w) {
    if (w->threads > 1 || w->dst_array != NULL) {
        return expr_eval(w, &w->ctx); /* on threads, or evaluated */
    }
    return ckb_run_kernel(w);
}

static const double *arg(const ckb_wl *w, int k) {
    return (const double *)(const void *)w->xbuf[k];
}

static double *out_f64(ckb_out out) {
    return (double *)(void *)out.elems;
}

int ckb_expr_loop_fma3(const ckb_wl *w, ckb_out out) {
    return ckb_loop_fma3_float64(out_f64(out), arg(w, 0), arg(w, 1), arg(w, 2), w->n);
}

int ckb_expr_loop_poly(const ckb_wl *w, ckb_out out) {
    const double k[4] = {expr_poly.value[0], expr_poly.value[2], expr_poly.value[3],
                         expr_poly.value[4]};
    return ckb_loop_poly3_float64(out_f64(out), arg(w, 1), k, w->n);
}

int ckb_expr_loop_mixed(const ckb_wl *w, ckb_out out) {
    return ckb_loop_mul_add_int32_float64_float32(
        out_f64(out), (const int32_t *)(void *)w->xbuf[0], arg(w, 1),
        (const float *)(void *)w->xbuf[2], w->n);
}

int ckb_expr_loop_var(const ckb_wl *w, ckb_out out) {
    return ckb_loop_fma3_float64_var(out.rows, w->xrows[0], w->xrows[1], w->xrows[2],
                                     VAR_ROWS);
}

int ckb_expr_loop_linear(const ckb_wl *w, ckb_out out) {
    return ckb_loop_linear_float64(out_f64(out), arg(w, 0), arg(w, 1), w->n);
}

int ckb_expr_loop_trig(const ckb_wl *w, ckb_out out) {
    return ckb_loop_trig_float64(out_f64(out), arg(w, 0), arg(w, 1), w->n);
}

int ckb_expr_loop_where(const ckb_wl *w, ckb_out out) {
    return ckb_loop_where_float64(out_f64(out), arg(w, 0), arg(w, 1), w->n);
}

int ckb_expr_loop_gauss(const ckb_wl *w, ckb_out out) {
    return ckb_loop_gauss_float64(out_f64(out), arg(w, 0), arg(w, 1), w->n);
}

int ckb_expr_loop_logic(const ckb_wl *w, ckb_out out) {
    return ckb_loop_logic_float64((uint8_t *)(void *)out.elems, arg(w, 0), arg(w, 1),
                                  arg(w, 2), w->n);
}

/* A dot of one row of n: the running sum of the products. */
int ckb_expr_loop_dotsum(const ckb_wl *w, ckb_out out) {
    return ckb_loop_dot_float64_rows(out_f64(out), arg(w, 0), arg(w, 1), 1, w->n);
}

/* ---- comparisons within a bound ---- */

/* Every float64 result within EXPR_ULPS of the loop's (the bit patterns as ordered
 * integers, as workloads_math.c compares). */
static int within_ulps(const ckb_wl *w) {
    for (size_t i = 0; i < w->dst_bytes / sizeof(double); i++) {
        int64_t a, b;
        memcpy(&a, w->dst_elems + 8 * i, 8);
        memcpy(&b, w->ref_elems + 8 * i, 8);
        a = a < 0 ? INT64_MIN - a : a, b = b < 0 ? INT64_MIN - b : b;
        if ((a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a) > EXPR_ULPS) {
            return 0;
        }
    }
    return 1;
}

/* The kernel's pairwise sum and the loop's running sum round differently: within 2^-40 of
 * the sum of the products' magnitudes, as reduce/sum/float64 (workloads_reduce.c). */
static int sums_agree(const ckb_wl *w) {
    const double *a = arg(w, 0), *b = arg(w, 1);
    double mag = 0.0;
    for (size_t i = 0; i < w->n; i++) mag += fabs(a[i] * b[i]);
    const double got = *(const double *)(const void *)w->dst_elems;
    const double want = *(const double *)(const void *)w->ref_elems;
    return fabs(got - want) <= ldexp(mag, -40);
}

/* expr/trig, expr/gauss: run once, then the loop's results within EXPR_ULPS. */
int ckb_expr_verify_ulps(ckb_wl *w, int *equal, char *msg, size_t msg_size) {
    const int rc = ckb_wl_run_fresh(w);
    return rc != CK_OK ? rc : ckb_wl_check_loop(w, within_ulps, equal, msg, msg_size);
}

/* expr/dotsum: run once, then the loop's sum within the bound. */
int ckb_expr_verify_sum(ckb_wl *w, int *equal, char *msg, size_t msg_size) {
    const int rc = ckb_wl_run_fresh(w);
    return rc != CK_OK ? rc : ckb_wl_check_loop(w, sums_agree, equal, msg, msg_size);
}

/* ---- skipped without a compiled kernel ---- */

/* 1 (why set) when the JIT's decision of the last build on this thread was not a compile
 * (nor a cache hit). */
static int not_compiled(char *why, size_t why_size) {
    const char *decision = ck_jit_last_decision();
    if (strncmp(decision, "compiled", 8) == 0 || strncmp(decision, "cache hit", 9) == 0) {
        return 0;
    }
    snprintf(why, why_size, "the JIT did not compile the expression: %s",
             decision[0] != '\0' ? decision : "no nest was offered to it");
    return 1;
}

/* A bare state for workload d's types (CK_EVAL_JIT in its context), no data. */
static int bare_types(ckb_wl *w, const ckb_def *d, const expr_def *x) {
    memset(w, 0, sizeof *w);
    w->def = d;
    w->n = d->n;
    ck_builder_init(&w->b);
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    w->ctx = init;
    w->ctx.flags |= CK_EVAL_JIT;
    return expr_types(w, x, NULL);
}

/* expr/<case>/jit with a JIT: skipped when the JIT does not compile the expression's kernel
 * (the kernel over the workload's types, no data, built with CK_EVAL_JIT), with the JIT's
 * reason (ck_jit_last_decision). */
static int expr_not_compiled(const ckb_def *d, const expr_def *x, char *why, size_t why_size) {
    ckb_wl w;
    int rc = bare_types(&w, d, x);
    if (rc == CK_OK) rc = ckb_wl_build_into(&w, &w.b, &w.ctx);
    /* rc != CK_OK: the run reports it (a failure, not a skip). */
    const int skip = rc == CK_OK && not_compiled(why, why_size);
    ckb_wl_free(&w);
    return skip;
}

/* An evaluated workload (evaluated()) with a JIT: its call (ck_expr_eval, or ck_parallel_expr
 * on `threads`) once with CK_EVAL_JIT over arrays of the workload's types, which builds the
 * kernels the timed calls build; skipped when that build is not compiled. The data are
 * calloc's zeros, never touched before: their values do not change what is built. */
static int eval_not_compiled(const ckb_def *d, const expr_def *x, int threads, char *why,
                             size_t why_size) {
    ckb_wl w;
    int rc = bare_types(&w, d, x);
    w.threads = threads;
    const size_t dn = x->reduce ? 1 : w.n;
    if (rc == CK_OK && (w.dst_buf = (char *)calloc(dn, ckb_scalar_size(x->result))) == NULL) {
        rc = ckb_nomem("destination");
    }
    for (int k = 0; rc == CK_OK && k < w.nx; k++) {
        if ((w.xbuf[k] = (char *)calloc(w.n, ckb_scalar_size(x->type[k]))) == NULL) {
            rc = ckb_nomem("argument");
        }
        w.xargs[k] = w.xbuf[k];
    }
    w.kdst = w.dst_buf;
    if (rc == CK_OK) rc = wrap_arrays(&w);
    if (rc == CK_OK) rc = expr_eval(&w, &w.ctx);
    const int skip = rc == CK_OK && not_compiled(why, why_size);
    ckb_wl_free(&w);
    return skip;
}

int ckb_expr_skip_fma3(const ckb_def *d, char *why, size_t why_size) {
    return expr_not_compiled(d, &expr_fma3, why, why_size);
}

int ckb_expr_skip_poly(const ckb_def *d, char *why, size_t why_size) {
    return expr_not_compiled(d, &expr_poly, why, why_size);
}

int ckb_expr_skip_linear(const ckb_def *d, char *why, size_t why_size) {
    return expr_not_compiled(d, &expr_linear, why, why_size);
}

int ckb_expr_skip_trig(const ckb_def *d, char *why, size_t why_size) {
    return expr_not_compiled(d, &expr_trig, why, why_size);
}

int ckb_expr_skip_trig_2threads(const ckb_def *d, char *why, size_t why_size) {
    return eval_not_compiled(d, &expr_trig, 2, why, why_size);
}

int ckb_expr_skip_where(const ckb_def *d, char *why, size_t why_size) {
    return expr_not_compiled(d, &expr_where, why, why_size);
}

int ckb_expr_skip_gauss(const ckb_def *d, char *why, size_t why_size) {
    return expr_not_compiled(d, &expr_gauss, why, why_size);
}

int ckb_expr_skip_logic(const ckb_def *d, char *why, size_t why_size) {
    return expr_not_compiled(d, &expr_logic, why, why_size);
}
