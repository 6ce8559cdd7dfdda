/* bench/workloads_reduce.c: reductions (ck_make_reduce: reduce/sum, min, sum over axis 0,
 * sum of each var row) and accumulations (ck_make_accumulate: accumulate/cumsum) of float64,
 * and a call of the core-dimension callable dot (call/dot/float64), against the loops a C
 * programmer writes (baselines.c). On more than one thread they run through
 * ck_parallel_reduce and ck_parallel_call over arrays made in setup. A running sum rounds
 * differently from the kernel's pairwise sum: those results are compared within a bound. */
#include <math.h>
#include <stdlib.h>

#include "workloads.h"

/* ---- setup ---- */

static int make_reduce(const ckb_wl *w, ck_builder *b, size_t *off, const ck_eval_ctx *ctx) {
    const ck_reduce_spec r = {w->red, w->axes, w->naxes, 0};
    return ck_make_reduce(b, off, &r, w->dt, w->dam, w->st, w->sam, CK_REQUEST_SINGLE, ctx);
}

static int make_accumulate(const ckb_wl *w, ck_builder *b, size_t *off,
                           const ck_eval_ctx *ctx) {
    const ck_reduce_spec r = {w->red, w->axes, w->naxes, 0};
    return ck_make_accumulate(b, off, &r, w->dt, w->dam, w->st, w->sam, CK_REQUEST_SINGLE, ctx);
}

/* The reduction or accumulation `name`, the arrays ck_parallel_reduce takes, and the
 * kernel. */
static int finish(ckb_wl *w, int rc, int accumulate, const char *name) {
    w->make = accumulate ? make_accumulate : make_reduce;
    if (rc == CK_OK) {
        rc = accumulate ? ck_accumulation_lookup(name, &w->red)
                        : ck_reduction_lookup(name, &w->red);
    }
    if (rc == CK_OK) rc = ck_array_wrap(w->st, w->sam, w->ksrc, NULL, &w->src_array);
    if (rc == CK_OK) rc = ck_array_wrap(w->dt, w->dam, w->kdst, NULL, &w->dst_array);
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

/* The source w->n float64 (two_d: the 2-d shape), reduced or accumulated over axis 0
 * into dn float64 (1: a scalar). */
static int setup_flat(ckb_wl *w, int two_d, size_t dn, int accumulate, const char *name) {
    w->src_buf = ckb_alloc_buffer(w->n * sizeof(double));
    w->dst_buf = ckb_alloc_buffer(dn * sizeof(double));
    w->ref_buf = ckb_alloc_buffer(dn * sizeof(double));
    if (w->src_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return ckb_nomem("data buffers");
    }
    ckb_fill_data(w->src_buf, w->n, F64, w->def->fill, SEED);
    w->ksrc = w->src_buf;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = dn * sizeof(double);
    w->bytes_moved = (double)((w->n + dn) * sizeof(double));
    const intptr_t sdims[2] = {two_d ? (intptr_t)ckb_rows_2d : (intptr_t)w->n,
                               (intptr_t)ckb_cols_2d};
    const intptr_t ddims[1] = {(intptr_t)dn};
    int rc = ckb_make_type(sdims, two_d ? 2 : 1, 0, 0, F64, &w->st);
    if (rc == CK_OK && dn > 1) {
        rc = ckb_make_type(ddims, 1, 0, 0, F64, &w->dt);
    } else if (rc == CK_OK) {
        w->dt = (ck_type *)(uintptr_t)ck_type_scalar(F64); /* static: decref is a no-op */
    }
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, NULL, &w->sam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, NULL, &w->dam);
    w->axes[0] = 0;
    w->naxes = 1;
    return finish(w, rc, accumulate, name);
}

int ckb_reduce_setup_sum(ckb_wl *w) {
    return setup_flat(w, 0, 1, 0, "sum");
}

int ckb_reduce_setup_min(ckb_wl *w) {
    return setup_flat(w, 0, 1, 0, "min");
}

int ckb_reduce_setup_axis0(ckb_wl *w) {
    return setup_flat(w, 1, ckb_cols_2d, 0, "sum");
}

int ckb_reduce_setup_cumsum(ckb_wl *w) {
    return setup_flat(w, 0, w->n, 1, "cumsum");
}

/* reduce/sum/float64/var: the var workload's rows, each summed into one of VAR_ROWS
 * float64. */
int ckb_reduce_setup_var(ckb_wl *w) {
    int rc = ckb_wl_setup_var(w); /* the rows; its var destination is replaced below */
    if (rc != CK_OK) {
        return rc;
    }
    free(w->dst_buf);
    free(w->ref_buf);
    if (w->dam != NULL) ck_arrmeta_release(w->dt, w->dam);
    free(w->dam);
    w->dam = NULL;
    ck_type_decref(w->dt);
    w->dt = NULL;
    w->dst_buf = ckb_alloc_buffer(VAR_ROWS * sizeof(double));
    w->ref_buf = ckb_alloc_buffer(VAR_ROWS * sizeof(double));
    if (w->dst_buf == NULL || w->ref_buf == NULL) {
        return ckb_nomem("sums");
    }
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = VAR_ROWS * sizeof(double);
    w->bytes_moved = (double)(w->n * sizeof(float) + VAR_ROWS * (sizeof(ck_var_data) + 8));
    const intptr_t rows[1] = {VAR_ROWS};
    rc = ckb_make_type(rows, 1, 0, 0, F64, &w->dt);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, NULL, &w->dam);
    w->axes[0] = 1;
    w->naxes = 1;
    return finish(w, rc, 0, "sum");
}

/* call/dot/float64: two rows * rows * float64 (rows: the 2-d shape's) in C order, dot of
 * each pair of rows. */
int ckb_reduce_setup_dot(ckb_wl *w) {
    const size_t rows = ckb_rows_2d;
    w->src_buf = ckb_alloc_buffer(w->n * sizeof(double));
    w->src2_buf = ckb_alloc_buffer(w->n * sizeof(double));
    w->dst_buf = ckb_alloc_buffer(rows * sizeof(double));
    w->ref_buf = ckb_alloc_buffer(rows * sizeof(double));
    if (w->src_buf == NULL || w->src2_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return ckb_nomem("data buffers");
    }
    ckb_fill_data(w->src_buf, w->n, F64, w->def->fill, SEED);
    ckb_fill_data(w->src2_buf, w->n, F64, w->def->fill, SEED ^ 0x2545f4914f6cdd1du);
    w->kargs[0] = w->src_buf;
    w->kargs[1] = w->src2_buf;
    w->args = w->kargs;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = rows * sizeof(double);
    w->bytes_moved = (double)((2 * w->n + rows) * sizeof(double));
    const intptr_t sdims[2] = {(intptr_t)rows, (intptr_t)rows}, ddims[1] = {(intptr_t)rows};
    int rc = ckb_make_type(sdims, 2, 0, 0, F64, &w->st);
    if (rc == CK_OK) rc = ckb_make_type(sdims, 2, 0, 0, F64, &w->st2);
    if (rc == CK_OK) rc = ckb_make_type(ddims, 1, 0, 0, F64, &w->dt);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, NULL, &w->sam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st2, NULL, &w->sam2);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = ck_lookup("dot", &w->callable);
    if (rc == CK_OK) rc = ck_array_wrap(w->st, w->sam, w->src_buf, NULL, &w->src_array);
    if (rc == CK_OK) rc = ck_array_wrap(w->st2, w->sam2, w->src2_buf, NULL, &w->src2_array);
    if (rc == CK_OK) rc = ck_array_wrap(w->dt, w->dam, w->dst_buf, NULL, &w->dst_array);
    w->make = ckb_make_call;
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

/* ---- runs ---- */

int ckb_reduce_run(ckb_wl *w) {
    if (w->threads > 1) {
        ck_eval_ctx c = w->ctx;
        c.max_threads = w->threads;
        const ck_reduce_spec r = {w->red, w->axes, w->naxes, 0};
        return ck_parallel_reduce(&r, w->dst_array, w->src_array, &c);
    }
    return ckb_run_kernel(w);
}

int ckb_reduce_run_dot(ckb_wl *w) {
    if (w->threads > 1) {
        ck_eval_ctx c = w->ctx;
        c.max_threads = w->threads;
        const ck_array *const src[2] = {w->src_array, w->src2_array};
        return ck_parallel_call(w->callable, w->dst_array, 2, src, &c);
    }
    return ckb_run_kernel(w);
}

/* ---- plain loops ---- */

int ckb_reduce_loop_sum(const ckb_wl *w, ckb_out out) {
    return ckb_loop_sum_float64((double *)(void *)out.elems, (const double *)(void *)w->ksrc,
                                w->n);
}

int ckb_reduce_loop_min(const ckb_wl *w, ckb_out out) {
    return ckb_loop_min_float64((double *)(void *)out.elems, (const double *)(void *)w->ksrc,
                                w->n);
}

int ckb_reduce_loop_axis0(const ckb_wl *w, ckb_out out) {
    return ckb_loop_sum_float64_axis0((double *)(void *)out.elems,
                                      (const double *)(void *)w->ksrc, ckb_rows_2d,
                                      ckb_cols_2d);
}

int ckb_reduce_loop_var(const ckb_wl *w, ckb_out out) {
    return ckb_loop_sum_float32_rows((double *)(void *)out.elems, w->src_rows, VAR_ROWS);
}

int ckb_reduce_loop_cumsum(const ckb_wl *w, ckb_out out) {
    return ckb_loop_cumsum_float64((double *)(void *)out.elems, (const double *)(void *)w->ksrc,
                                   w->n);
}

int ckb_reduce_loop_dot(const ckb_wl *w, ckb_out out) {
    return ckb_loop_dot_float64_rows((double *)(void *)out.elems,
                                     (const double *)(void *)w->kargs[0],
                                     (const double *)(void *)w->kargs[1], ckb_rows_2d,
                                     ckb_rows_2d);
}

/* ---- comparisons ---- */

/* The kernel's pairwise sums and the loop's running sums round differently; they agree when
 * every result is within 2^-40 of the sum of its elements' magnitudes (about 2^13 roundings
 * of a running sum of 10 Mi elements). mag: that sum for result r. */
static int sums_agree(const ckb_wl *w, double (*mag)(const ckb_wl *w, size_t r)) {
    const double *got = (const double *)(const void *)w->dst_elems;
    const double *want = (const double *)(const void *)w->ref_elems;
    const size_t n = w->dst_bytes / sizeof(double);
    for (size_t r = 0; r < n; r++) {
        if (!(fabs(got[r] - want[r]) <= ldexp(mag(w, r), -40))) {
            return 0;
        }
    }
    return 1;
}

/* reduce/sum/float64: one result, over all the elements. */
static double mag_all(const ckb_wl *w, size_t r) {
    (void)r;
    double mag = 0.0;
    const double *x = (const double *)(const void *)w->ksrc;
    for (size_t i = 0; i < w->n; i++) mag += fabs(x[i]);
    return mag;
}

static double mag_row(const ckb_wl *w, size_t r) {
    double mag = 0.0;
    const float *x = (const float *)(const void *)w->src_rows[r].begin;
    for (size_t i = 0; i < w->src_rows[r].size; i++) mag += fabs((double)x[i]);
    return mag;
}

static double mag_dot(const ckb_wl *w, size_t r) {
    double mag = 0.0;
    const double *x = (const double *)(const void *)w->kargs[0] + r * ckb_rows_2d;
    const double *y = (const double *)(const void *)w->kargs[1] + r * ckb_rows_2d;
    for (size_t i = 0; i < ckb_rows_2d; i++) mag += fabs(x[i] * y[i]);
    return mag;
}

static int sum_agrees(const ckb_wl *w) {
    return sums_agree(w, mag_all);
}

static int row_sums_agree(const ckb_wl *w) {
    return sums_agree(w, mag_row);
}

static int dots_agree(const ckb_wl *w) {
    return sums_agree(w, mag_dot);
}

/* Run once, then the loop's results: equal, or within the bound. */
static int verify_within(ckb_wl *w, int (*agree)(const ckb_wl *w), int *equal, char *msg,
                         size_t msg_size) {
    const int rc = ckb_wl_run_fresh(w);
    return rc != CK_OK ? rc : ckb_wl_check_loop(w, agree, equal, msg, msg_size);
}

int ckb_reduce_verify_sum(ckb_wl *w, int *equal, char *msg, size_t msg_size) {
    return verify_within(w, sum_agrees, equal, msg, msg_size);
}

int ckb_reduce_verify_var(ckb_wl *w, int *equal, char *msg, size_t msg_size) {
    return verify_within(w, row_sums_agree, equal, msg, msg_size);
}

int ckb_reduce_verify_dot(ckb_wl *w, int *equal, char *msg, size_t msg_size) {
    return verify_within(w, dots_agree, equal, msg, msg_size);
}
