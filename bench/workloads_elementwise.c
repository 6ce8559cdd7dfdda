/* bench/workloads_elementwise.c: the built-in `add` through ck_make_call
 * (elementwise/add/..., option/add/float64), the first argument the workload's source
 * type, the second always float64: contiguous (with an int32 first argument, its cast runs
 * in the same kernel), a row plus a column broadcast into a matrix, ragged rows, and
 * ?float64 with NA in each argument; against the plain add loops of baselines.c. */
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

/* n * ?id. */
static int make_option_type(size_t n, ck_type_id id, ck_type **out) {
    ck_type *o = NULL;
    int rc = ck_type_make_option(ck_type_scalar(id), &o);
    if (rc == CK_OK) rc = ck_type_make_fixed_dim((intptr_t)n, o, out);
    ck_type_decref(o);
    return rc;
}

/* NA over every `every`-th float64 of p (from element every / 2). */
static void option_na(char *p, size_t n, size_t every) {
    const void *na = ck_option_na_bytes(ck_type_scalar(CK_TYPE_FLOAT64));
    for (size_t i = every / 2; i < n; i += every) {
        memcpy(p + i * sizeof(double), na, sizeof(double));
    }
}

/* The shapes of the arguments and the destination other than var. */
typedef enum add_shape { ADD_CONTIG, ADD_BCAST, ADD_OPTION } add_shape;

/* contiguous (N * src + N * float64), broadcast (a row 1 * cols + a column rows * 1 into
 * rows * cols, the 2-d shape) and option (N * ?float64 twice, NA in each); the kernel built. */
static int setup_add(ckb_wl *w, add_shape shape) {
    const ckb_def *d = w->def;
    int rc = ck_lookup("add", &w->callable);
    if (rc != CK_OK) {
        return rc;
    }
    w->make = ckb_make_call;
    const int bcast = shape == ADD_BCAST;
    const size_t n1 = bcast ? ckb_cols_2d : w->n, n2 = bcast ? ckb_rows_2d : w->n;
    const size_t ss = ckb_scalar_size(d->src), ds = ckb_scalar_size(d->dst);
    w->src_buf = ckb_alloc_buffer(n1 * ss);
    w->src2_buf = ckb_alloc_buffer(n2 * sizeof(double));
    w->dst_buf = ckb_alloc_buffer(w->n * ds);
    w->ref_buf = ckb_alloc_buffer(w->n * ds);
    if (w->src_buf == NULL || w->src2_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return ckb_nomem("data buffers");
    }
    ckb_fill_data(w->src_buf, n1, d->src, d->fill, SEED);
    ckb_fill_data(w->src2_buf, n2, CK_TYPE_FLOAT64, F_F64_PLAIN, SEED ^ 0x2545f4914f6cdd1du);
    w->kargs[0] = w->src_buf;
    w->kargs[1] = w->src2_buf;
    w->args = w->kargs;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = w->n * ds;
    w->bytes_moved = (double)(n1 * ss + n2 * sizeof(double) + w->n * ds);
    if (bcast) {
        const intptr_t rows = (intptr_t)ckb_rows_2d, cols = (intptr_t)ckb_cols_2d;
        const intptr_t dd[2] = {rows, cols}, d1[2] = {1, cols}, d2[2] = {rows, 1};
        rc = ckb_make_type(dd, 2, 0, 0, d->dst, &w->dt);
        if (rc == CK_OK) rc = ckb_make_type(d1, 2, 0, 0, d->src, &w->st);
        if (rc == CK_OK) rc = ckb_make_type(d2, 2, 0, 0, CK_TYPE_FLOAT64, &w->st2);
    } else if (shape == ADD_OPTION) {
        option_na(w->src_buf, w->n, 61);
        option_na(w->src2_buf, w->n, 67);
        rc = make_option_type(w->n, d->dst, &w->dt);
        if (rc == CK_OK) rc = make_option_type(w->n, d->src, &w->st);
        if (rc == CK_OK) rc = make_option_type(w->n, CK_TYPE_FLOAT64, &w->st2);
    } else {
        const intptr_t dims[1] = {(intptr_t)w->n};
        rc = ckb_make_type(dims, 1, 0, 0, d->dst, &w->dt);
        if (rc == CK_OK) rc = ckb_make_type(dims, 1, 0, 0, d->src, &w->st);
        if (rc == CK_OK) rc = ckb_make_type(dims, 1, 0, 0, CK_TYPE_FLOAT64, &w->st2);
    }
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, NULL, &w->sam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st2, NULL, &w->sam2);
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

int ckb_add_setup_contig(ckb_wl *w) {
    return setup_add(w, ADD_CONTIG);
}

int ckb_add_setup_broadcast(ckb_wl *w) {
    return setup_add(w, ADD_BCAST);
}

int ckb_add_setup_option(ckb_wl *w) {
    return setup_add(w, ADD_OPTION);
}

/* elementwise/add/float64/var: VAR_ROWS * var * float64 + the same shape, the row lengths of
 * the var workload, every row laid out one after another; destination rows preallocated. */
int ckb_add_setup_var(ckb_wl *w) {
    int rc = ck_lookup("add", &w->callable);
    if (rc != CK_OK) {
        return rc;
    }
    w->make = ckb_make_call;
    const size_t rows = VAR_ROWS;
    size_t *lens = (size_t *)malloc(rows * sizeof *lens);
    if (lens == NULL) {
        return ckb_nomem("row lengths");
    }
    w->n = ckb_var_lengths(lens);
    const size_t es = sizeof(double);
    w->src_buf = ckb_alloc_buffer(w->n * es);
    w->src2_buf = ckb_alloc_buffer(w->n * es);
    w->dst_buf = ckb_alloc_buffer(w->n * es);
    w->ref_buf = ckb_alloc_buffer(w->n * es);
    w->src_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    w->src2_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    w->dst_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    w->ref_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    if (w->src_buf == NULL || w->src2_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL ||
        w->src_rows == NULL || w->src2_rows == NULL || w->dst_rows == NULL ||
        w->ref_rows == NULL) {
        free(lens);
        return ckb_nomem("var rows");
    }
    ckb_var_rows(w->src_rows, w->src_buf, es, lens, rows);
    ckb_var_rows(w->src2_rows, w->src2_buf, es, lens, rows);
    ckb_var_rows(w->dst_rows, w->dst_buf, es, lens, rows);
    ckb_var_rows(w->ref_rows, w->ref_buf, es, lens, rows);
    free(lens);
    ckb_fill_data(w->src_buf, w->n, CK_TYPE_FLOAT64, F_F64_PLAIN, SEED);
    ckb_fill_data(w->src2_buf, w->n, CK_TYPE_FLOAT64, F_F64_PLAIN, SEED ^ 0x2545f4914f6cdd1du);
    w->kargs[0] = (char *)w->src_rows;
    w->kargs[1] = (char *)w->src2_rows;
    w->args = w->kargs;
    w->kdst = (char *)w->dst_rows;
    w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = w->n * es;
    w->bytes_moved = (double)(3 * w->n * es + 3 * rows * sizeof(ck_var_data));
    rc = ck_arena_new(0, &w->arena);
    const intptr_t dims[1] = {(intptr_t)rows};
    if (rc == CK_OK) rc = ckb_make_type(dims, 1, 1, 0, CK_TYPE_FLOAT64, &w->dt);
    if (rc == CK_OK) rc = ckb_make_type(dims, 1, 1, 0, CK_TYPE_FLOAT64, &w->st);
    if (rc == CK_OK) rc = ckb_make_type(dims, 1, 1, 0, CK_TYPE_FLOAT64, &w->st2);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, w->arena, &w->dam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, w->arena, &w->sam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st2, w->arena, &w->sam2);
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

/* elementwise/add/int32+float64: the argument cast and the add in one loop. */
int ckb_add_loop_contig(const ckb_wl *w, ckb_out out) {
    if (w->def->src == CK_TYPE_INT32) {
        return ckb_loop_add_int32_float64((double *)(void *)out.elems,
                                          (const int32_t *)(void *)w->kargs[0],
                                          (const double *)(void *)w->kargs[1], w->n);
    }
    return ckb_loop_add_float64((double *)(void *)out.elems, (const double *)(void *)w->kargs[0],
                                (const double *)(void *)w->kargs[1], w->n);
}

int ckb_add_loop_broadcast(const ckb_wl *w, ckb_out out) {
    return ckb_loop_add_float64_outer((double *)(void *)out.elems,
                                      (const double *)(void *)w->kargs[0],
                                      (const double *)(void *)w->kargs[1], ckb_rows_2d,
                                      ckb_cols_2d);
}

int ckb_add_loop_option(const ckb_wl *w, ckb_out out) {
    return ckb_loop_add_float64_option((double *)(void *)out.elems,
                                       (const double *)(void *)w->kargs[0],
                                       (const double *)(void *)w->kargs[1], w->n);
}

int ckb_add_loop_var(const ckb_wl *w, ckb_out out) {
    return ckb_loop_add_float64_var(out.rows, w->src_rows, w->src2_rows, VAR_ROWS);
}
