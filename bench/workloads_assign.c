/* bench/workloads_assign.c: the assignment workloads over array layouts, ck_make_assign of
 * one scalar type into another (or the same) against the plain loops of baselines.c:
 * contiguous (contig/, flat/, and incache/, which runs once per CPU target), every second
 * source element (strided/), 2-d in C order and transposed (2d/), ragged rows (var/),
 * pointers to shuffled targets (pointer/), both sides at byte offset 1 (unaligned/), and
 * kernel builds per operation: alone (build/3-level, with its heap allocations) or with one
 * call over a small array (small/N). */
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

/* ---- setup ---- */

/* w->n elements each way, contiguous, from src_elems source elements at byte `offset`. */
static int setup_1d(ckb_wl *w, size_t src_elems, size_t offset) {
    int rc = ckb_wl_alloc_plain(w, src_elems, offset);
    const intptr_t dims[1] = {(intptr_t)w->n};
    if (rc == CK_OK) rc = ckb_wl_types(w, dims, 1);
    return rc;
}

/* N * S -> N * D, both contiguous; threads > 1: also the element kernel, strided request,
 * that ck_parallel_strided runs over the n elements. */
int ckb_assign_setup_contig(ckb_wl *w) {
    int rc = setup_1d(w, w->n, 0);
    if (rc == CK_OK) rc = ckb_wl_build(w);
    if (rc == CK_OK && w->threads > 1) {
        ck_builder_init(&w->pb);
        w->pbuilt = 1;
        size_t off = 0;
        rc = ck_make_assign(&w->pb, &off, ck_type_scalar(w->def->dst), NULL,
                            ck_type_scalar(w->def->src), NULL, CK_REQUEST_STRIDED, &w->ctx);
    }
    return rc;
}

/* small/N: N * int32 -> N * float64, built inside the timed operation (ckb_assign_run_small). */
int ckb_assign_setup_small(ckb_wl *w) {
    return setup_1d(w, w->n, 0);
}

/* Contiguous, both at byte offset 1. */
int ckb_assign_setup_unaligned(ckb_wl *w) {
    int rc = ckb_wl_alloc_plain(w, w->n, 1);
    w->ctx.flags |= CK_EVAL_SRC_UNALIGNED | CK_EVAL_DST_UNALIGNED;
    const intptr_t dims[1] = {(intptr_t)w->n};
    if (rc == CK_OK) rc = ckb_wl_types(w, dims, 1);
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

/* The source every second element. */
int ckb_assign_setup_strided(ckb_wl *w) {
    int rc = setup_1d(w, 2 * w->n, 0);
    if (rc == CK_OK) {
        ck_fixed_dim_arrmeta *m = (ck_fixed_dim_arrmeta *)(void *)w->sam;
        m->stride = 2 * (intptr_t)ckb_scalar_size(w->def->src);
    }
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

/* rows * cols, both C order, or the source buffer cols x rows in C order seen transposed. */
static int setup_2d(ckb_wl *w, intptr_t rows, intptr_t cols, int transposed) {
    int rc = ckb_wl_alloc_plain(w, w->n, 0);
    const intptr_t dims[2] = {rows, cols};
    if (rc == CK_OK) rc = ckb_wl_types(w, dims, 2);
    if (rc == CK_OK && transposed) {
        ck_fixed_dim_arrmeta *m = (ck_fixed_dim_arrmeta *)(void *)w->sam;
        const intptr_t es = (intptr_t)ckb_scalar_size(w->def->src);
        m[0].stride = es;
        m[1].stride = rows * es;
    }
    return rc;
}

int ckb_assign_setup_2d(ckb_wl *w) {
    const int rc = setup_2d(w, (intptr_t)ckb_rows_2d, (intptr_t)ckb_cols_2d, 0);
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

int ckb_assign_setup_transposed(ckb_wl *w) {
    const int rc = setup_2d(w, (intptr_t)ckb_rows_2d, (intptr_t)ckb_cols_2d, 1);
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

/* build/3-level: 100 * 100 * int32 -> float64, built inside the timed operation. */
int ckb_assign_setup_build(ckb_wl *w) {
    return setup_2d(w, 100, 100, 0);
}

/* VAR_ROWS * var * S -> VAR_ROWS * var * D. */
int ckb_assign_setup_var(ckb_wl *w) {
    const int rc = ckb_wl_setup_var(w);
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

/* POINTER_N * pointer[float64] -> POINTER_N * float64: pointers to a shuffled permutation
 * of POINTER_N float64 targets (in aux_buf). */
int ckb_assign_setup_pointer(ckb_wl *w) {
    const size_t n = w->n;
    w->aux_buf = ckb_alloc_buffer(n * sizeof(double)); /* the targets */
    w->src_buf = ckb_alloc_buffer(n * sizeof(char *));
    w->dst_buf = ckb_alloc_buffer(n * sizeof(double));
    w->ref_buf = ckb_alloc_buffer(n * sizeof(double));
    size_t *perm = (size_t *)malloc(n * sizeof *perm);
    if (w->aux_buf == NULL || w->src_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL ||
        perm == NULL) {
        free(perm);
        return ckb_nomem("pointer buffers");
    }
    ckb_fill_data(w->aux_buf, n, CK_TYPE_FLOAT64, w->def->fill, SEED);
    uint64_t s = SEED ^ 0xabcdefu;
    for (size_t i = 0; i < n; i++) {
        perm[i] = i;
    }
    for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
        size_t j = (size_t)(ckb_rng_next(&s) % (i + 1));
        size_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < n; i++) {
        char *p = w->aux_buf + perm[i] * sizeof(double);
        memcpy(w->src_buf + i * sizeof p, &p, sizeof p);
    }
    free(perm);
    w->ksrc = w->src_buf;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = n * sizeof(double);
    w->bytes_moved = (double)(n * (sizeof(char *) + 2 * sizeof(double)));
    const intptr_t dims[1] = {(intptr_t)n};
    int rc = ckb_make_type(dims, 1, 0, 0, CK_TYPE_FLOAT64, &w->dt);
    if (rc == CK_OK) rc = ckb_make_type(dims, 1, 0, 1, CK_TYPE_FLOAT64, &w->st);
    /* blockref NULL: the targets are memory this arrmeta does not own. */
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, NULL, &w->sam);
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

/* ---- runs ---- */

int ckb_assign_run_contig(ckb_wl *w) {
    if (w->threads > 1) {
        ck_eval_ctx c = w->ctx;
        c.max_threads = w->threads;
        const intptr_t ds = (intptr_t)ckb_scalar_size(w->def->dst);
        const intptr_t ss = (intptr_t)ckb_scalar_size(w->def->src);
        return ck_parallel_strided(ck_builder_root(&w->pb), w->kdst, ds, &w->ksrc, &ss, w->n, &c);
    }
    return ckb_run_kernel(w);
}

/* ck_builder_init + ck_make_assign + one call + ck_builder_destroy. */
int ckb_assign_run_small(ckb_wl *w) {
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    int rc = ck_make_assign(&b, &off, w->dt, w->dam, w->st, w->sam, CK_REQUEST_SINGLE, &w->ctx);
    if (rc == CK_OK) {
        rc = ck_call_single(ck_builder_root(&b), w->kdst, &w->ksrc);
    }
    ck_builder_destroy(&b);
    return rc;
}

/* ---- plain loops ---- */

int ckb_assign_loop_contig(const ckb_wl *w, ckb_out out) {
    return w->def->loop(out.elems, w->ksrc, w->n);
}

int ckb_assign_loop_small(const ckb_wl *w, ckb_out out) {
    return ckb_loop_int32_float64(out.elems, w->ksrc, w->n);
}

int ckb_assign_loop_strided(const ckb_wl *w, ckb_out out) {
    return ckb_loop_int32_float64_strided((double *)(void *)out.elems,
                                          (const int32_t *)(void *)w->ksrc, w->n, 2);
}

int ckb_assign_loop_2d(const ckb_wl *w, ckb_out out) {
    return ckb_loop_int32_float64_2d((double *)(void *)out.elems,
                                     (const int32_t *)(void *)w->ksrc, ckb_rows_2d, ckb_cols_2d);
}

int ckb_assign_loop_transposed(const ckb_wl *w, ckb_out out) {
    return ckb_loop_int32_float64_transposed((double *)(void *)out.elems,
                                             (const int32_t *)(void *)w->ksrc, ckb_rows_2d,
                                             ckb_cols_2d);
}

int ckb_assign_loop_build(const ckb_wl *w, ckb_out out) {
    return ckb_loop_int32_float64_2d((double *)(void *)out.elems,
                                     (const int32_t *)(void *)w->ksrc, 100, 100);
}

int ckb_assign_loop_var(const ckb_wl *w, ckb_out out) {
    return ckb_loop_float32_float64_var(out.rows, w->src_rows, VAR_ROWS);
}

int ckb_assign_loop_pointer(const ckb_wl *w, ckb_out out) {
    return ckb_loop_gather_float64((double *)(void *)out.elems, (char *const *)(void *)w->ksrc,
                                   w->n);
}

int ckb_assign_loop_unaligned(const ckb_wl *w, ckb_out out) {
    return ckb_loop_int32_float64_unaligned(out.elems, w->ksrc, w->n);
}

/* ---- build/3-level's timing ---- */

/* ck_builder_init + ck_make_assign + ck_builder_destroy. */
static int timed_build(void *ctx) {
    ckb_wl *w = (ckb_wl *)ctx;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    int rc = ck_make_assign(&b, &off, w->dt, w->dam, w->st, w->sam, CK_REQUEST_SINGLE, &w->ctx);
    ckb_sink ^= (uint64_t)off;
    ck_builder_destroy(&b);
    return rc;
}

/* Heap allocations (ckernel's allocator) per build, over `n` builds. */
static double allocs_per_build(ckb_wl *w, int n) {
    ck_alloc_stats before, after;
    ck_get_alloc_stats(&before);
    for (int k = 0; k < n; k++) {
        if (timed_build(w) != CK_OK) {
            return -1.0;
        }
    }
    ck_get_alloc_stats(&after);
    return (double)(after.allocations - before.allocations) / (double)n;
}

/* Per operation, no data moved, so no bandwidth or ratios; and the heap allocations. */
int ckb_assign_measure_build(ckb_wl *w, const ckb_settings *s, ckb_result *out) {
    const int rc = ckb_measure_one(w, s, out, timed_build, CKB_PER_OP);
    if (rc == CK_OK) {
        out->heap_allocs = allocs_per_build(w, 1000);
    }
    return rc;
}
