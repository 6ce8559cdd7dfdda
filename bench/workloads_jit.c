/* bench/workloads_jit.c: the jit/... workloads (ckernel/jit.h). Each case is timed twice,
 * its kernel built with CK_EVAL_NO_JIT (jit/<case>/composed) and with CK_EVAL_JIT
 * (jit/<case>/jit: compiled before timing, its compile time and its ratio to the composed
 * kernel, sampled interleaved, reported beside it): rows of 3 int16 -> float32 whose source
 * rows are padded (small-inner), and the built-in add of padded int32 rows and float64
 * (add-int32+float64). jit/compile/... time JIT kernel builds per operation: the first of
 * the process (measured once, before any workload: ckb_prepare), one of a nest never seen
 * (steady) and one a live kernel holds (cache-hit). Without a JIT those that need it are
 * skipped (workloads.c). */
#define _POSIX_C_SOURCE 200809L /* fork, pipe, waitpid: jit/compile/first */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads.h"

/* ---- setup ---- */

/* jit/small-inner/... and jit/compile/...: rows * JIT_COLS int16 -> float32, the source
 * rows JIT_I16_ROW elements apart, the destination C order. */
static int setup_rows(ckb_wl *w, size_t rows) {
    w->n = rows * JIT_COLS;
    int rc = ckb_wl_alloc_plain(w, rows * JIT_I16_ROW, 0);
    const intptr_t dims[2] = {(intptr_t)rows, JIT_COLS};
    if (rc == CK_OK) rc = ckb_wl_types(w, dims, 2);
    if (rc == CK_OK) {
        ck_fixed_dim_arrmeta *m = (ck_fixed_dim_arrmeta *)(void *)w->sam;
        m[0].stride = JIT_I16_ROW * (intptr_t)ckb_scalar_size(w->def->src);
    }
    return rc;
}

/* jit/small-inner/composed: JIT_ROWS rows, the kernel built. */
int ckb_jit_setup_rows(ckb_wl *w) {
    const int rc = setup_rows(w, JIT_ROWS);
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

/* jit/small-inner/jit: the same, and its CK_EVAL_NO_JIT twin. */
int ckb_jit_setup_rows_paired(ckb_wl *w) {
    const int rc = ckb_jit_setup_rows(w);
    return rc == CK_OK ? ckb_wl_build_composed(w) : rc;
}

/* jit/compile/first and steady: JIT_COMPILE_ROWS rows, built inside the timed operation. */
int ckb_jit_setup_compile(ckb_wl *w) {
    return setup_rows(w, JIT_COMPILE_ROWS);
}

/* jit/compile/cache-hit: the kernel built here keeps its nest's code alive. */
int ckb_jit_setup_cache_hit(ckb_wl *w) {
    const int rc = setup_rows(w, JIT_COMPILE_ROWS);
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

/* jit/add-int32+float64/composed: JIT_ROWS * JIT_COLS int32 whose rows are JIT_I32_ROW
 * elements apart, plus JIT_ROWS * JIT_COLS float64 (C order), into float64 (C order); the
 * kernel built. */
int ckb_jit_setup_add(ckb_wl *w) {
    const size_t rows = JIT_ROWS, cols = JIT_COLS;
    w->n = rows * cols;
    w->src_buf = ckb_alloc_buffer(rows * JIT_I32_ROW * sizeof(int32_t));
    w->src2_buf = ckb_alloc_buffer(w->n * sizeof(double));
    w->dst_buf = ckb_alloc_buffer(w->n * sizeof(double));
    w->ref_buf = ckb_alloc_buffer(w->n * sizeof(double));
    if (w->src_buf == NULL || w->src2_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return ckb_nomem("data buffers");
    }
    ckb_fill_data(w->src_buf, rows * JIT_I32_ROW, CK_TYPE_INT32, F_I32, SEED);
    ckb_fill_data(w->src2_buf, w->n, CK_TYPE_FLOAT64, F_F64_PLAIN, SEED ^ 0x2545f4914f6cdd1du);
    w->kargs[0] = w->src_buf;
    w->kargs[1] = w->src2_buf;
    w->args = w->kargs;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = w->n * sizeof(double);
    w->bytes_moved = (double)(w->n * (sizeof(int32_t) + 2 * sizeof(double)));
    const intptr_t dims[2] = {(intptr_t)rows, (intptr_t)cols};
    int rc = ckb_make_type(dims, 2, 0, 0, CK_TYPE_FLOAT64, &w->dt);
    if (rc == CK_OK) rc = ckb_make_type(dims, 2, 0, 0, CK_TYPE_INT32, &w->st);
    if (rc == CK_OK) rc = ckb_make_type(dims, 2, 0, 0, CK_TYPE_FLOAT64, &w->st2);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, NULL, &w->sam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st2, NULL, &w->sam2);
    if (rc == CK_OK) {
        ck_fixed_dim_arrmeta *m = (ck_fixed_dim_arrmeta *)(void *)w->sam;
        m[0].stride = JIT_I32_ROW * (intptr_t)sizeof(int32_t);
    }
    if (rc == CK_OK) rc = ck_lookup("add", &w->callable);
    w->make = ckb_make_call;
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

/* jit/add-int32+float64/jit: the same, and its CK_EVAL_NO_JIT twin. */
int ckb_jit_setup_add_paired(ckb_wl *w) {
    const int rc = ckb_jit_setup_add(w);
    return rc == CK_OK ? ckb_wl_build_composed(w) : rc;
}

/* ---- plain loops ---- */

int ckb_jit_loop_rows(const ckb_wl *w, ckb_out out) {
    return ckb_loop_int16_float32_rows((float *)(void *)out.elems,
                                       (const int16_t *)(void *)w->ksrc, w->n / JIT_COLS,
                                       JIT_COLS, JIT_I16_ROW);
}

int ckb_jit_loop_add(const ckb_wl *w, ckb_out out) {
    return ckb_loop_add_int32_float64_rows(
        (double *)(void *)out.elems, (const int32_t *)(void *)w->kargs[0], JIT_I32_ROW,
        (const double *)(void *)w->kargs[1], w->n / JIT_COLS, JIT_COLS);
}

/* ---- jit/compile/steady and cache-hit ---- */

/* jit/compile/steady: every build's nest is new to the process (the source row stride is
 * 8 + 2 * k bytes for a k never used before; the kernel is never run), so
 * every build compiles; the code is freed with the kernel. */
static intptr_t steady_seq;
static int timed_jit_steady(void *ctx) {
    ckb_wl *w = (ckb_wl *)ctx;
    ck_fixed_dim_arrmeta *m = (ck_fixed_dim_arrmeta *)(void *)w->sam;
    const intptr_t keep = m[0].stride;
    m[0].stride = keep + 2 * ++steady_seq;
    ck_builder b;
    int rc = ckb_wl_build_into(w, &b, &w->ctx);
    if (rc == CK_OK) rc = ckb_wl_check_jit_used(w, 0);
    ck_builder_destroy(&b);
    m[0].stride = keep;
    return rc;
}

/* jit/compile/cache-hit: the nest of the kernel built in setup (alive): a cache hit. */
static int timed_jit_hit(void *ctx) {
    ckb_wl *w = (ckb_wl *)ctx;
    ck_builder b;
    int rc = ckb_wl_build_into(w, &b, &w->ctx);
    if (rc == CK_OK && strncmp(ck_jit_last_decision(), "cache hit", 9) != 0) {
        rc = ck_set_error(CK_ERR_INTERNAL, "bench: %s: not a cache hit: %s", w->def->name,
                          ck_jit_last_decision());
    }
    ck_builder_destroy(&b);
    return rc;
}

/* As build/3-level: per operation, no data moved, so no bandwidth or ratios. */
int ckb_jit_measure_steady(ckb_wl *w, const ckb_settings *s, ckb_result *out) {
    return ckb_measure_one(w, s, out, timed_jit_steady, CKB_MS_PER_OP);
}

int ckb_jit_measure_cache_hit(ckb_wl *w, const ckb_settings *s, ckb_result *out) {
    return ckb_measure_one(w, s, out, timed_jit_hit, CKB_PER_OP);
}

/* ---- jit/compile/first ----
 *
 * The first compile of a process is a one-off: it loads the plugin and libLLVM, initialises
 * LLVM's native target and creates the LLJIT, and none of that happens again in the
 * process, so it cannot be sampled like the other figures. ckb_prepare (called by ckb_run
 * before any workload, so the bench's first JIT kernel build is the process's) measures it
 * once per process: the wall time of the first ck_make_assign with CK_EVAL_JIT, of the
 * jit/compile/first nest. For a median, the same first build is also run in --repeat - 1
 * fresh child processes (fork() before this process has touched the JIT, each child does
 * its first build and reports its time through a pipe, then _exit()s); the figure is the
 * median of the children's and this process's times. A sample counts only when that build
 * was the process's first compile (ck_jit_info.compiles == 1 afterwards): when something
 * compiled before (a host that used the JIT earlier), there is no first compile left to
 * time and the workload is skipped with that reason. */

typedef struct first_sample {
    double ns;
    int available; /* ck_jit_info.available after the build */
    size_t compiles;
    int rc;
} first_sample;

static struct {
    int done;
    int available;
    char why[256]; /* set: jit/compile/first is skipped for this reason */
    double median_ns, spread;
    int nsamples;
} first;

static void first_build(const ckb_def *d, first_sample *out) {
    memset(out, 0, sizeof *out);
    ckb_wl w;
    out->rc = ckb_wl_setup(&w, d, 0); /* types and buffers: not timed */
    if (out->rc == CK_OK) {
        const uint64_t t0 = ckb_now_ns();
        out->rc = ckb_wl_build_into(&w, &w.b, &w.ctx);
        const uint64_t t1 = ckb_now_ns();
        out->ns = (double)(t1 - t0);
        w.built = out->rc == CK_OK;
    }
    ck_jit_info info;
    ck_jit_get_info(&info);
    out->available = info.available;
    out->compiles = info.compiles;
    if (out->rc == CK_OK && info.available) {
        out->rc = ckb_wl_check_jit_used(&w, 0);
    }
    ckb_wl_free(&w);
}

/* One first build in a forked child; 0 when the child did not report one. */
static int first_build_forked(const ckb_def *d, first_sample *out) {
    int fds[2];
    fflush(stdout);
    fflush(stderr);
    if (pipe(fds) != 0) {
        return 0;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return 0;
    }
    if (pid == 0) {
        close(fds[0]);
        first_sample s;
        first_build(d, &s);
        const ssize_t wr = write(fds[1], &s, sizeof s);
        _exit(wr == (ssize_t)sizeof s ? 0 : 1);
    }
    close(fds[1]);
    size_t got = 0;
    while (got < sizeof *out) {
        const ssize_t r = read(fds[0], (char *)out + got, sizeof *out - got);
        if (r <= 0) {
            break;
        }
        got += (size_t)r;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return got == sizeof *out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void measure_first(const ckb_def *d, const ckb_settings *s) {
    if (first.done) {
        return;
    }
    first.done = 1;
    const int n = s->repeats > 0 ? s->repeats : 1;
    double *v = (double *)malloc(sizeof(double) * (size_t)n);
    int nv = 0;
    first_sample fs;
    for (int k = 0; v != NULL && k + 1 < n; k++) {
        if (!first_build_forked(d, &fs) || !fs.available) {
            break; /* no fork, or no JIT: this process's own build says why */
        }
        if (fs.rc == CK_OK && fs.compiles == 1) {
            v[nv++] = fs.ns;
        }
    }
    first_build(d, &fs); /* this process's own, last: the JIT stays loaded for the others */
    ck_clear_error();
    first.available = fs.available;
    if (!fs.available) {
        free(v);
        return; /* ckb_workload_skip reports the JIT's status */
    }
    if (fs.rc != CK_OK) {
        snprintf(first.why, sizeof first.why, "the first JIT build failed: %s: %s",
                 ck_status_name(fs.rc), ck_last_error());
    } else if (fs.compiles != 1) {
        snprintf(first.why, sizeof first.why,
                 "%zu kernels were compiled in this process before the bench's first JIT "
                 "build: its first compile cannot be timed any more",
                 fs.compiles - 1);
    } else if (v != NULL) {
        v[nv++] = fs.ns;
    }
    if (nv > 0) {
        first.nsamples = nv;
        first.median_ns = ckb_median(v, (size_t)nv); /* sorts v */
        first.spread = first.median_ns > 0 ? (v[nv - 1] - v[0]) / first.median_ns : 0.0;
    } else if (first.why[0] == '\0') {
        snprintf(first.why, sizeof first.why, "no first JIT build could be timed");
    }
    free(v);
}

void ckb_jit_prepare_first(const ckb_def *d, const ckb_settings *s) {
    measure_first(d, s); /* nothing when it was done */
}

int ckb_jit_skip_first(const ckb_def *d, char *why, size_t why_size) {
    (void)d;
    if (first.done && first.why[0] != '\0') {
        snprintf(why, why_size, "%s", first.why);
        return 1;
    }
    return 0;
}

/* Measured once per process by measure_first: a median over fresh processes. */
int ckb_jit_measure_first(ckb_wl *w, const ckb_settings *s, ckb_result *out) {
    (void)w;
    (void)s;
    out->unit = CKB_MS_PER_OP;
    out->ns = first.median_ns;
    out->spread = first.spread;
    return CK_OK;
}
