/* src/parallel/parallel.c: the backend-independent part of parallel evaluation (C): argument
 * checks, the thread and grain settings, the choice between serial and parallel, the split of
 * ck_parallel_assign, ck_parallel_call and ck_parallel_expr over the outermost dimension, and
 * the floating-point environment of a task. The backend (tbb_backend.cpp or
 * serial_backend.c) only runs a planned job. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ckernel/arrmeta.h"
#include "ckernel/assign.h"
#include "ckernel/builder.h"
#include "ckernel/callable.h"
#include "ckernel/parallel.h"
#include "ckernel/types.h"
#include "builders/assign_internal.h"
#include "callables/callable_internal.h"
#include "common/internal.h"
#include "expr/expr_internal.h"
#include "parallel/parallel_internal.h"

#include "common/fp_env.h"

/* Grains of at least this many bytes are rounded up so that range boundaries fall on
 * multiples of 64 bytes of destination (no cache line is written by two tasks when the
 * destination is 64-byte aligned). Smaller, explicit grains are taken as they are. */
#define CK__PAR_ROUND_GRAIN_FROM ((size_t)4096)
#define CK__PAR_CACHE_LINE ((size_t)64)

/* ---- settings ---- */

static atomic_int ck__par_num_threads; /* 0: the hardware's count */

int ck_set_num_threads(int n) {
    if (n < 0) {
        return ck_set_error(CK_ERR_INVALID,
                            "ck_set_num_threads: %d threads; use a positive count, or 0 for all "
                            "hardware threads",
                            n);
    }
    atomic_store_explicit(&ck__par_num_threads, n, memory_order_relaxed);
    return CK_OK;
}

int ck_get_num_threads(void) {
    if (!ck__par_backend_is_parallel()) {
        return 1;
    }
    int n = atomic_load_explicit(&ck__par_num_threads, memory_order_relaxed);
    if (n > 0) {
        return n;
    }
    n = ck__par_backend_hardware_threads();
    return n > 0 ? n : 1;
}

int ck_parallel_cancelled(void) {
    return ck__par_backend_cancelled();
}

const char *ck_parallel_backend(void) {
    return ck__par_backend_name();
}

/* ---- floating-point environment ---- */

unsigned long long ck__par_fp_mode(unsigned flags) {
    return (flags & CK_EVAL_HOST_FP_ENV) != 0
               ? ck__fp_mode_now()
               : ck__fp_mode_ieee((flags & CK_EVAL_FLUSH_DENORMALS) != 0);
}

ck__fp_env ck__par_fpenv_enter(unsigned long long mode) {
    ck__fp_env e;
    ck__fp_env_enter_mode(&e, mode);
    return e;
}

void ck__par_fpenv_leave(ck__fp_env env) {
    ck__fp_env_leave(&env);
}

/* ---- planning ---- */

int ck__par_run_piece(const ck__par_job *job, size_t begin, size_t end) {
    /* (A zero stride adds nothing: a broadcast source may be any pointer, even NULL.) */
    char *d = job->dst_stride != 0 ? job->dst + (intptr_t)begin * job->dst_stride : job->dst;
    char *s[16];
    for (int k = 0; k < job->nsrc; k++) {
        s[k] = job->src_stride[k] != 0 ? job->src[k] + (intptr_t)begin * job->src_stride[k]
                                       : job->src[k];
    }
    const int rc = job->fn(job->kernel, d, job->dst_stride, s, job->src_stride, end - begin);
    if (rc != CK_OK) {
        ck__error_offset_outer(rc, (intptr_t)begin); /* the range's rows, counted in the whole */
    }
    return rc;
}

typedef struct ck__par_settings {
    int threads;
    size_t grain_bytes;
    unsigned flags;
} ck__par_settings;

static int resolve_settings(const char *who, const ck_eval_ctx *ectx, ck__par_settings *out) {
    out->threads = 0;
    out->grain_bytes = 0;
    out->flags = 0;
    if (ectx != NULL) {
        if (ectx->max_threads < 0) {
            return ck_set_error(CK_ERR_INVALID,
                                "%s: max_threads is %d in the evaluation context; use a positive "
                                "count, or 0 for ck_get_num_threads()",
                                who, ectx->max_threads);
        }
        out->threads = ectx->max_threads;
        out->grain_bytes = ectx->grain_bytes;
        out->flags = ectx->flags;
    }
    if (out->threads == 0) {
        out->threads = ck_get_num_threads();
    }
    if (out->grain_bytes == 0) {
        out->grain_bytes = CK_PARALLEL_DEFAULT_GRAIN_BYTES;
    }
    return CK_OK;
}

/* Elements per block for a destination stride; 0 when the call must stay serial (a zero
 * stride: every element is written to the same place). */
static size_t plan_grain(size_t grain_bytes, intptr_t dst_stride) {
    const size_t per = dst_stride < 0 ? (size_t)0 - (size_t)dst_stride : (size_t)dst_stride;
    if (per == 0) {
        return 0;
    }
    size_t g = grain_bytes / per + (grain_bytes % per != 0 ? 1u : 0u);
    if (g == 0) {
        g = 1;
    }
    if (grain_bytes >= CK__PAR_ROUND_GRAIN_FROM) {
        /* g * per must be a multiple of 64: g a multiple of 64 / (largest power of 2 in per,
         * capped at 64). */
        const size_t low = per & (~per + 1u);
        const size_t m = low >= CK__PAR_CACHE_LINE ? 1u : CK__PAR_CACHE_LINE / low;
        if (g <= SIZE_MAX - (m - 1u)) {
            g = (g + m - 1u) / m * m;
        }
    }
    return g;
}

/* Fills job->grain and job->threads; returns 1 when the job should run in parallel. */
static int plan_job(const ck__par_settings *s, ck__par_job *job) {
    if (s->threads < 2 || job->count < 2 || !ck__par_backend_is_parallel()) {
        return 0;
    }
    const size_t g = plan_grain(s->grain_bytes, job->dst_stride);
    if (g == 0 || job->count / 2 < g) {
        return 0; /* a zero destination stride, or less than two grains of work */
    }
    const size_t blocks = job->count / g + (job->count % g != 0 ? 1u : 0u);
    job->grain = g;
    job->threads = blocks < (size_t)s->threads ? (int)blocks : s->threads;
    job->flags = s->flags;
    job->fp_mode = ck__par_fp_mode(s->flags);
    return 1;
}

int ck__par_serial_status(int rc) {
    if (rc != CK_OK && (ck_last_status() != rc || ck_last_error()[0] == '\0')) {
        return ck_set_error(rc, "%s", ck_status_message(rc)); /* the kernel set no message */
    }
    return rc;
}

static int run_serial(ck_prefix *kernel, char *dst, intptr_t dst_stride, char *const *src,
                      const intptr_t *src_stride, size_t count, unsigned flags) {
    const ck__fp_env env = ck__par_fpenv_enter(ck__par_fp_mode(flags));
    const int rc = ck_call_strided(kernel, dst, dst_stride, src, src_stride, count);
    ck__par_fpenv_leave(env);
    return ck__par_serial_status(rc);
}

/* ---- ck_parallel_strided ---- */

int ck_parallel_strided(ck_prefix *kernel, char *dst, intptr_t dst_stride, char *const *src,
                        const intptr_t *src_stride, size_t count, const ck_eval_ctx *ectx) {
    if (kernel == NULL || kernel->function == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_parallel_strided: NULL kernel or kernel "
                                            "function");
    }
    ck__par_settings s;
    CK__RETURN_IF_ERROR(resolve_settings("ck_parallel_strided", ectx, &s));
    if (count == 0) {
        return CK_OK;
    }
    if (src == NULL || src_stride == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_parallel_strided: NULL src or src_stride (an "
                                            "assignment kernel takes one source)");
    }
    ck__par_job job;
    job.kernel = kernel;
    job.fn = ck_prefix_strided(kernel);
    job.dst = dst;
    job.dst_stride = dst_stride;
    job.nsrc = 1;
    job.src[0] = src[0];
    job.src_stride[0] = src_stride[0];
    job.count = count;
    job.grain = count;
    job.threads = 1;
    job.flags = s.flags;
    job.fp_mode = ck__par_fp_mode(s.flags);
    if (!plan_job(&s, &job)) {
        return run_serial(kernel, dst, dst_stride, src, src_stride, count, s.flags);
    }
    return ck__par_backend_run(&job);
}

/* ---- ck_parallel_assign, ck_parallel_call, ck_parallel_expr ---- */

/* What runs one row of a split call: a callable, an expression over named sources, or (both
 * NULL) assignment. */
typedef struct ck__par_rows {
    ck_callable *call;
    const ck_expr *expr;
    const char *const *names; /* expr: the sources' names (NULL: the expression's order) */
    int nsrc;
    const ck_array *const *src;
} ck__par_rows;

static int rows_serial(const ck_array *dst, const ck__par_rows *r, const ck_eval_ctx *ectx,
                       unsigned flags) {
    const ck__fp_env env = ck__par_fpenv_enter(ck__par_fp_mode(flags));
    const int rc = r->call != NULL   ? ck_call(r->call, dst, r->nsrc, r->src, ectx)
                   : r->expr != NULL ? ck_expr_eval(r->expr, dst, r->nsrc, r->names, r->src, ectx)
                                     : ck_assign(dst, r->src[0], ectx);
    ck__par_fpenv_leave(env);
    return rc;
}

/* Builds the kernel of one row of dst's outermost dimension (the elements' types, messages
 * numbering dimensions from 1). */
static int make_row_kernel(ck_builder *b, size_t *off, const ck__par_rows *r,
                           const ck_type *delem, const char *dam_elem,
                           const ck_type *const *selem, const char *const *sam_elem,
                           const ck_eval_ctx *ctx, size_t rows) {
    if (r->call != NULL) {
        return ck__make_call_at(b, off, r->call, delem, dam_elem, r->nsrc, selem, sam_elem,
                                CK_REQUEST_STRIDED, ctx, 1, rows);
    }
    if (r->expr != NULL) {
        return ck__make_expr_at(b, off, r->expr, delem, dam_elem, r->nsrc, r->names, selem,
                                sam_elem, CK_REQUEST_STRIDED, ctx, 1, rows);
    }
    return ck__make_assign_at(b, off, delem, dam_elem, selem[0], sam_elem[0], CK_REQUEST_STRIDED,
                              ctx, 1, rows);
}

/* A 1-d expression split with CK_EVAL_JIT: its elements as rows of SPLIT_RUN elements (then
 * the row kernel has a fixed dimension for the JIT to compile; split element by element it
 * has none), the last count % SPLIT_RUN elements by a kernel of their own on this thread.
 * The same leaves over the same values: the bits of the serial call. A failure is reported
 * by the serial call (its message numbers the elements as the whole does). */
#define SPLIT_RUN ((size_t)4096)

static int split_1d_runs(ck__par_job *job, const ck__par_settings *s, const ck__par_rows *r,
                         const ck_array *dst, const ck_type *delem,
                         const ck_type *const *selem, const char *const *sam_elem,
                         const ck_eval_ctx *ctx, const ck_eval_ctx *ectx) {
    const size_t count = job->count, runs = count / SPLIT_RUN, tail = count % SPLIT_RUN;
    ck_type *rt[2][17] = {{NULL}};
    ck_fixed_dim_arrmeta am[2][17];
    const ck_type *st[2][16];
    const char *sm[2][16];
    int rc = CK_OK;
    for (int part = 0; part < 2 && rc == CK_OK; part++) {
        const intptr_t len = (intptr_t)(part == 0 ? SPLIT_RUN : (tail > 0 ? tail : 1));
        rc = ck_type_make_fixed_dim(len, delem, &rt[part][16]);
        am[part][16] = (ck_fixed_dim_arrmeta){len, job->dst_stride};
        for (int k = 0; k < r->nsrc && rc == CK_OK; k++) {
            st[part][k] = selem[k];
            sm[part][k] = sam_elem[k];
            if (job->src_stride[k] != 0) {
                rc = ck_type_make_fixed_dim(len, selem[k], &rt[part][k]);
                am[part][k] = (ck_fixed_dim_arrmeta){len, job->src_stride[k]};
                st[part][k] = rt[part][k];
                sm[part][k] = (const char *)&am[part][k];
            }
        }
    }
    ck_builder b, tb;
    ck_builder_init(&b);
    ck_builder_init(&tb);
    size_t off = 0;
    if (rc == CK_OK) {
        rc = make_row_kernel(&b, &off, r, rt[0][16], (const char *)&am[0][16], st[0], sm[0], ctx,
                             runs);
    }
    off = 0;
    if (rc == CK_OK && tail > 0) {
        rc = make_row_kernel(&tb, &off, r, rt[1][16], (const char *)&am[1][16], st[1], sm[1], ctx,
                             1);
    }
    ck__par_job run = *job;
    run.count = runs;
    run.dst_stride = job->dst_stride * (intptr_t)SPLIT_RUN;
    for (int k = 0; k < r->nsrc; k++) {
        run.src_stride[k] = job->src_stride[k] * (intptr_t)SPLIT_RUN;
    }
    if (rc == CK_OK) {
        run.kernel = ck_builder_root(&b);
        run.fn = ck_prefix_strided(run.kernel);
        rc = plan_job(s, &run) ? ck__par_backend_run(&run)
                               : run_serial(run.kernel, run.dst, run.dst_stride, run.src,
                                            run.src_stride, run.count, s->flags);
    }
    if (rc == CK_OK && tail > 0) {
        char *src[16];
        for (int k = 0; k < r->nsrc; k++) {
            src[k] = job->src[k] + job->src_stride[k] * (intptr_t)(runs * SPLIT_RUN);
        }
        static const intptr_t zero[16] = {0};
        rc = run_serial(ck_builder_root(&tb), job->dst + job->dst_stride * (intptr_t)(runs * SPLIT_RUN),
                        0, src, zero, 1, s->flags);
    }
    ck_builder_destroy(&b);
    ck_builder_destroy(&tb);
    for (int part = 0; part < 2; part++) {
        for (int k = 0; k < 17; k++) {
            ck_type_decref(rt[part][k]);
        }
    }
    if (rc != CK_OK && rc != CK_ERR_NOMEM) {
        return rows_serial(dst, r, ectx, s->flags);
    }
    return rc;
}

/* Splits dst's outermost fixed dimension across threads: every source's share of it is its
 * own fixed dim (size N or 1) or none (the whole source broadcasts to every row). A ragged
 * source, a pointer, a size mismatch or more source dimensions go through the serial call,
 * which reports or handles them, as does small work. */
static int parallel_rows(const char *what, const ck_array *dst, const ck__par_rows *r,
                         const ck_eval_ctx *ectx) {
    ck__par_settings s;
    CK__RETURN_IF_ERROR(resolve_settings(what, ectx, &s));
    const ck_type *dt = ck_array_type(dst);
    if (ck_type_get_id(dt) != CK_TYPE_FIXED_DIM) {
        return rows_serial(dst, r, ectx, s.flags); /* nothing to split on this level */
    }
    const char *dam = ck_array_arrmeta(dst);
    const ck_fixed_dim_arrmeta *dm = (const ck_fixed_dim_arrmeta *)(const void *)dam;
    /* A callable's core dimensions are not split: only the dimensions outside them count. */
    int core[1 + 16] = {0};
    if (r->call != NULL && ck__callable_core(r->call, r->nsrc, core) &&
        ck_type_ndim(dt) <= core[0]) {
        return rows_serial(dst, r, ectx, s.flags);
    }
    const int dnd = ck_type_ndim(dt) - core[0];
    ck__par_job job;
    const ck_type *selem[16];
    const char *sam_elem[16];
    job.nsrc = r->nsrc;
    unsigned unaligned = 0;
    for (int k = 0; k < r->nsrc; k++) {
        const ck_type *st = ck_array_type(r->src[k]);
        const char *sam = ck_array_arrmeta(r->src[k]);
        const int snd = ck_type_ndim(st) - core[1 + k];
        if (ck_type_get_id(st) == CK_TYPE_POINTER || snd > dnd) {
            return rows_serial(dst, r, ectx, s.flags);
        }
        selem[k] = st;
        sam_elem[k] = sam;
        job.src[k] = ck_array_data(r->src[k]);
        job.src_stride[k] = 0;
        if (snd == dnd) {
            if (ck_type_get_id(st) != CK_TYPE_FIXED_DIM) {
                return rows_serial(dst, r, ectx, s.flags);
            }
            const ck_fixed_dim_arrmeta *sm = (const ck_fixed_dim_arrmeta *)(const void *)sam;
            if (sm->dim_size == dm->dim_size) {
                job.src_stride[k] = sm->stride;
            } else if (sm->dim_size != 1) {
                return rows_serial(dst, r, ectx, s.flags);
            }
            selem[k] = ck_type_element(st);
            sam_elem[k] = sam + sizeof(ck_fixed_dim_arrmeta);
        }
    }
    job.kernel = NULL;
    job.fn = NULL;
    job.dst = ck_array_data(dst);
    job.dst_stride = dm->stride;
    job.count = (size_t)dm->dim_size;
    job.grain = job.count;
    job.threads = 1;
    job.flags = s.flags;
    job.fp_mode = ck__par_fp_mode(s.flags);
    if (!plan_job(&s, &job)) {
        return rows_serial(dst, r, ectx, s.flags); /* small work: build once, run here */
    }
    /* The element kernel is built for rows at dst + i*stride: say when a row can be
     * misaligned, as ck_assign does for its data pointers. */
    const ck_type *delem = ck_type_element(dt);
    for (int k = 0; k < r->nsrc; k++) {
        unaligned |= ck__unaligned_flags(dt, (uintptr_t)job.dst | (uintptr_t)job.dst_stride,
                                         ck_array_type(r->src[k]),
                                         (uintptr_t)job.src[k] | (uintptr_t)job.src_stride[k]);
    }
    static const ck_eval_ctx defaults = CK_EVAL_CTX_INIT;
    ck_eval_ctx ctx = ectx != NULL ? *ectx : defaults;
    ctx.flags |= unaligned;
    if (r->expr != NULL && (ctx.flags & CK_EVAL_JIT) != 0 && ck_type_ndim(dt) == 1 &&
        job.count >= 2 * SPLIT_RUN) {
        return split_1d_runs(&job, &s, r, dst, delem, selem, sam_elem, &ctx, ectx);
    }
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    const char *dam_elem = dam + sizeof(ck_fixed_dim_arrmeta);
    int rc = make_row_kernel(&b, &off, r, delem, dam_elem, selem, sam_elem, &ctx, job.count);
    if (rc != CK_OK) {
        ck_builder_destroy(&b);
        if (rc == CK_ERR_NOMEM) {
            return rc;
        }
        /* A type or shape error below the outer dimension: the serial call meets it too,
         * before running anything, and reports it against the whole types. */
        return rows_serial(dst, r, ectx, s.flags);
    }
    job.kernel = ck_builder_root(&b);
    job.fn = ck_prefix_strided(job.kernel);
    rc = ck__par_backend_run(&job);
    ck_builder_destroy(&b);
    return rc;
}

int ck_parallel_assign(const ck_array *dst, const ck_array *src, const ck_eval_ctx *ectx) {
    if (dst == NULL || src == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_parallel_assign: NULL array");
    }
    const ck__par_rows r = {NULL, NULL, NULL, 1, &src};
    return parallel_rows("ck_parallel_assign", dst, &r, ectx);
}

/* The arguments of an N-source split: `what` (the callable or expression) and dst non-NULL,
 * 1 to 16 sources, none NULL. */
static int check_sources(const char *who, const char *what_name, const void *what,
                         const ck_array *dst, int nsrc, const ck_array *const *src) {
    if (what == NULL || dst == NULL || src == NULL || nsrc < 1 || nsrc > CK_CALL_MAX_ARGS) {
        return ck_set_error(CK_ERR_INVALID, "%s: NULL %s or array, or %d sources", who,
                            what_name, nsrc);
    }
    for (int k = 0; k < nsrc; k++) {
        if (src[k] == NULL) {
            return ck_set_error(CK_ERR_INVALID, "%s: source %d is NULL", who, k);
        }
    }
    return CK_OK;
}

int ck_parallel_call(ck_callable *c, const ck_array *dst, int nsrc, const ck_array *const *src,
                     const ck_eval_ctx *ectx) {
    CK__RETURN_IF_ERROR(check_sources("ck_parallel_call", "callable", c, dst, nsrc, src));
    const ck__par_rows r = {c, NULL, NULL, nsrc, src};
    return parallel_rows("ck_parallel_call", dst, &r, ectx);
}

int ck_parallel_expr(const ck_expr *e, const ck_array *dst, int nargs, const char *const *names,
                     const ck_array *const *src, const ck_eval_ctx *ectx) {
    if (nargs == 0) {
        return ck_expr_eval(e, dst, 0, names, src, ectx); /* literals only: one constant */
    }
    CK__RETURN_IF_ERROR(check_sources("ck_parallel_expr", "expression", e, dst, nargs, src));
    if (ck_expr_reductions(e) > 0) {
        /* Each reduction's operand and the reduction split in turn. */
        return ck__expr_eval_reduced(e, dst, nargs, names, src, ectx, 1, NULL);
    }
    const ck__par_rows r = {NULL, e, names, nargs, src};
    return parallel_rows("ck_parallel_expr", dst, &r, ectx);
}
