/* tests/host/dlopen_test.c: loads libckernel.so the way a plugin host or a Python extension
 * does. The program is not linked to ckernel (it takes only types and constants from the
 * headers): with three threads of its own already running (one waiting on a condition
 * variable, one doing malloc/free in a loop, one idle until it is given ckernel work), it
 * dlopen()s the library RTLD_NOW | RTLD_LOCAL, looks up every function with dlsym, and runs
 *   - a ragged assignment "3 * var * int32" literal -> "3 * var * float64",
 *   - a parallel assignment of 300000 int32 -> float64 (ck_parallel_assign, 2 threads),
 *   - a parallel assignment in place between the host's own malloc'ed buffers through
 *     ck_array_wrap (reversed, strided source; strided destination with guarded gaps),
 *   - a host kernel run by ck_parallel_strided that records which threads ran it (proof
 *     that the library's worker threads start in a process that loaded it at run time),
 *   - a refused parse, whose message must stay on the thread that failed (thread-local
 *     errors in a dlopen()ed library, on a thread that existed before the load),
 * on the main thread and on the pre-existing thread, checking every value against
 * hand-computed ones and that no ckernel allocation is left live; then dlclose()s, loads
 * again and runs everything once more.
 * usage: ck_host_dlopen_test PATH_TO_LIBCKERNEL_SO      exit 0 only when every check passed */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ckernel/ckernel.h" /* types and constants only: nothing is linked */

static pthread_mutex_t count_mu = PTHREAD_MUTEX_INITIALIZER;
static int passed = 0, failed = 0;
#define CHECK(cond, ...)                                        \
    do {                                                        \
        const int ok_ = (cond) ? 1 : 0;                         \
        pthread_mutex_lock(&count_mu);                          \
        if (ok_) {                                              \
            passed++;                                           \
        } else {                                                \
            failed++;                                           \
            fprintf(stderr, "dlopen_test: FAILED %s: ", #cond); \
            fprintf(stderr, __VA_ARGS__);                       \
            fputc('\n', stderr);                                \
        }                                                       \
        pthread_mutex_unlock(&count_mu);                        \
    } while (0)

/* The library's functions, looked up with dlsym. */
typedef struct api {
    void *handle;
    int (*type_parse)(const char *, ck_type **);
    void (*type_decref)(const ck_type *);
    int (*array_new)(const ck_type *, ck_array **);
    int (*array_parse)(const ck_type *, const char *, ck_array **);
    int (*array_wrap)(const ck_type *, const char *, char *, ck_memblock *, ck_array **);
    int (*array_format)(const ck_array *, char **);
    void (*array_free)(ck_array *);
    char *(*array_data)(const ck_array *);
    int (*assign)(const ck_array *, const ck_array *, const ck_eval_ctx *);
    int (*parallel_assign)(const ck_array *, const ck_array *, const ck_eval_ctx *);
    int (*parallel_strided)(ck_prefix *, char *, intptr_t, char *const *, const intptr_t *,
                            size_t, const ck_eval_ctx *);
    int (*get_num_threads)(void);
    const char *(*last_error)(void);
    int (*last_status)(void);
    void (*clear_error)(void);
    void (*free_)(void *);
    void (*alloc_stats)(ck_alloc_stats *);
    const char *(*backend)(void);
    const char *(*version)(void);
    const char *(*allocator_name)(void);
} api;

/* dlsym's void * to a function pointer, without a cast that -Wpedantic refuses. */
static int lookup(void *handle, const char *name, void *fn_ptr, size_t fn_size) {
    void *sym = dlsym(handle, name);
    if (sym == NULL) {
        fprintf(stderr, "dlopen_test: no symbol %s: %s\n", name, dlerror());
        return 0;
    }
    memcpy(fn_ptr, &sym, fn_size);
    return 1;
}
#define LOOKUP(a, field, name) lookup((a)->handle, name, &(a)->field, sizeof (a)->field)

static int load(api *a, const char *path) {
    memset(a, 0, sizeof *a);
    a->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (a->handle == NULL) {
        fprintf(stderr, "dlopen_test: dlopen(%s): %s\n", path, dlerror());
        return 0;
    }
    const int ok =
        LOOKUP(a, type_parse, "ck_type_parse") & LOOKUP(a, type_decref, "ck_type_decref") &
        LOOKUP(a, array_new, "ck_array_new") & LOOKUP(a, array_parse, "ck_array_parse") &
        LOOKUP(a, array_wrap, "ck_array_wrap") & LOOKUP(a, array_format, "ck_array_format") &
        LOOKUP(a, array_free, "ck_array_free") & LOOKUP(a, array_data, "ck_array_data") &
        LOOKUP(a, assign, "ck_assign") & LOOKUP(a, parallel_assign, "ck_parallel_assign") &
        LOOKUP(a, parallel_strided, "ck_parallel_strided") &
        LOOKUP(a, get_num_threads, "ck_get_num_threads") &
        LOOKUP(a, last_error, "ck_last_error") & LOOKUP(a, last_status, "ck_last_status") &
        LOOKUP(a, clear_error, "ck_clear_error") & LOOKUP(a, free_, "ck_free") &
        LOOKUP(a, alloc_stats, "ck_get_alloc_stats") &
        LOOKUP(a, backend, "ck_parallel_backend") & LOOKUP(a, version, "ck_version_string") &
        LOOKUP(a, allocator_name, "ck_allocator_name");
    if (!ok) {
        dlclose(a->handle);
        a->handle = NULL;
    }
    return ok;
}

/* [[1, 2], [], [3, 4, 5]] as int32 into an unallocated 3 * var * float64. */
static void ragged_case(const api *a, const char *who) {
    ck_type *st = NULL, *dt = NULL;
    ck_array *src = NULL, *dst = NULL;
    char *text = NULL;
    int rc = a->type_parse("3 * var * int32", &st);
    if (rc == CK_OK) rc = a->type_parse("3 * var * float64", &dt);
    if (rc == CK_OK) rc = a->array_parse(st, "[[1, 2], [], [3, 4, 5]]", &src);
    if (rc == CK_OK) rc = a->array_new(dt, &dst);
    if (rc == CK_OK) rc = a->assign(dst, src, NULL);
    if (rc == CK_OK) rc = a->array_format(dst, &text);
    CHECK(rc == CK_OK, "%s: ragged assignment: %s", who, a->last_error());
    CHECK(text != NULL && strcmp(text, "[[1, 2], [], [3, 4, 5]]") == 0,
          "%s: ragged result %s", who, text != NULL ? text : "(none)");
    a->free_(text);
    a->array_free(dst);
    a->array_free(src);
    a->type_decref(dt);
    a->type_decref(st);
}

/* 300000 int32 values 3i - 7 into float64, split over 2 threads. */
enum { big = 300000 };
static void parallel_case(const api *a, const char *who) {
    ck_type *st = NULL, *dt = NULL;
    ck_array *src = NULL, *dst = NULL;
    int rc = a->type_parse("300000 * int32", &st);
    if (rc == CK_OK) rc = a->type_parse("300000 * float64", &dt);
    if (rc == CK_OK) rc = a->array_new(st, &src);
    if (rc == CK_OK) rc = a->array_new(dt, &dst);
    if (rc == CK_OK) {
        int32_t *in = (int32_t *)(void *)a->array_data(src);
        for (int32_t i = 0; i < big; i++) in[i] = 3 * i - 7;
        ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
        ctx.max_threads = 2;
        ctx.grain_bytes = 4096;
        rc = a->parallel_assign(dst, src, &ctx);
    }
    CHECK(rc == CK_OK, "%s: parallel assignment: %s", who, a->last_error());
    if (rc == CK_OK) {
        const double *out = (const double *)(void *)a->array_data(dst);
        int bad = -1;
        for (int i = 0; i < big && bad < 0; i++) {
            if (out[i] != 3.0 * i - 7.0) bad = i;
        }
        CHECK(bad < 0, "%s: element %d is %g, not %g", who, bad, bad >= 0 ? out[bad] : 0.0,
              3.0 * bad - 7.0);
    }
    a->array_free(dst);
    a->array_free(src);
    a->type_decref(dt);
    a->type_decref(st);
}

/* The host's own buffers, wrapped: src is 2 * 100000 int16 read reversed along the rows
 * and every other element along the columns (a 2 x 50000 view), dst is 2 x 50000 int64 in
 * a buffer with a gap element after each one and guard words at both ends. */
enum { rows = 2, cols = 50000, guard = 16 };
static void wrapped_parallel_case(const api *a, const char *who) {
    int16_t *in = (int16_t *)malloc(sizeof(int16_t) * rows * 2 * cols);
    int64_t *out = (int64_t *)malloc(sizeof(int64_t) * (2 * guard + rows * 2 * cols));
    if (in == NULL || out == NULL) {
        CHECK(0, "%s: host malloc failed", who);
        free(in);
        free(out);
        return;
    }
    for (int i = 0; i < rows * 2 * cols; i++) in[i] = (int16_t)(i % 30011 - 15000);
    const int64_t pattern = (int64_t)0x5A5A5A5A5A5A5A5A;
    for (int i = 0; i < 2 * guard + rows * 2 * cols; i++) out[i] = pattern;
    int64_t *out0 = out + guard;
    /* src row r of the view is host row (1 - r); column c is host column 2c. */
    const ck_fixed_dim_arrmeta src_meta[2] = {
        {rows, -(intptr_t)(2 * cols * sizeof(int16_t))}, {cols, 2 * sizeof(int16_t)}};
    const ck_fixed_dim_arrmeta dst_meta[2] = {{rows, (intptr_t)(2 * cols * sizeof(int64_t))},
                                              {cols, 2 * sizeof(int64_t)}};
    ck_type *st = NULL, *dt = NULL;
    ck_array *src = NULL, *dst = NULL;
    int rc = a->type_parse("2 * 50000 * int16", &st);
    if (rc == CK_OK) rc = a->type_parse("2 * 50000 * int64", &dt);
    if (rc == CK_OK)
        rc = a->array_wrap(st, (const char *)src_meta, (char *)(in + 2 * cols), NULL, &src);
    if (rc == CK_OK) rc = a->array_wrap(dt, (const char *)dst_meta, (char *)out0, NULL, &dst);
    if (rc == CK_OK) {
        CHECK(a->array_data(src) == (char *)(in + 2 * cols) && a->array_data(dst) == (char *)out0,
              "%s: ck_array_wrap did not keep the host's pointers", who);
        ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
        ctx.max_threads = 2;
        ctx.grain_bytes = 4096; /* the split is over the 2 rows: one per thread */
        rc = a->parallel_assign(dst, src, &ctx);
    }
    CHECK(rc == CK_OK, "%s: wrapped parallel assignment: %s", who, a->last_error());
    if (rc == CK_OK) {
        int bad = -1;
        int64_t want = 0;
        for (int i = 0; i < 2 * guard + rows * 2 * cols && bad < 0; i++) {
            const int k = i - guard;
            if (k < 0 || k >= rows * 2 * cols || k % 2 == 1) {
                want = pattern; /* guards and gaps untouched */
            } else {
                const int r = k / (2 * cols), c = (k % (2 * cols)) / 2;
                want = in[(1 - r) * 2 * cols + 2 * c];
            }
            if (out[i] != want) bad = i;
        }
        CHECK(bad < 0, "%s: wrapped: word %d of the host buffer is %lld, not %lld", who, bad,
              bad >= 0 ? (long long)out[bad] : 0LL, (long long)want);
    }
    a->array_free(dst);
    a->array_free(src);
    a->type_decref(dt);
    a->type_decref(st);
    free(in);
    free(out);
}

/* A host kernel for ck_parallel_strided: dst = 2 * src (double), and records the threads that
 * ran it. When two threads are expected, each block waits until a second thread has run a
 * block (at most 20 s: a liveness bound, not a timing assumption), so the test shows that a
 * worker takes part however slowly it wakes on a loaded machine. */
enum { max_seen = 64 };
static pthread_mutex_t seen_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_t seen[max_seen];
static int n_seen = 0;
static int wait_for_two = 0;

static int record_kernel(ck_prefix *self, char *dst, intptr_t ds, char *const *src,
                         const intptr_t *ss, size_t n) {
    (void)self;
    for (size_t i = 0; i < n; i++) {
        *(double *)(void *)(dst + (intptr_t)i * ds) =
            2.0 * *(const double *)(const void *)(src[0] + (intptr_t)i * ss[0]);
    }
    const pthread_t me = pthread_self();
    pthread_mutex_lock(&seen_mu);
    int known = 0;
    for (int i = 0; i < n_seen; i++) known |= pthread_equal(seen[i], me);
    if (!known && n_seen < max_seen) seen[n_seen++] = me;
    pthread_mutex_unlock(&seen_mu);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int two = 0; wait_for_two && !two;) {
        pthread_mutex_lock(&seen_mu);
        two = n_seen >= 2;
        pthread_mutex_unlock(&seen_mu);
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (t.tv_sec - t0.tv_sec > 20) {
            break;
        }
        sched_yield();
    }
    return CK_OK;
}

enum { probe_n = 64 * 512 };
static void threads_case(const api *a, const char *who) {
    double *in = (double *)malloc(sizeof(double) * probe_n);
    double *out = (double *)malloc(sizeof(double) * probe_n);
    if (in == NULL || out == NULL) {
        CHECK(0, "%s: host malloc failed", who);
        free(in);
        free(out);
        return;
    }
    for (int i = 0; i < probe_n; i++) in[i] = i * 0.5;
    ck_prefix k;
    ck_prefix_set_strided(&k, record_kernel);
    k.destructor = NULL;
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.max_threads = 2;
    ctx.grain_bytes = 4096; /* 512 doubles a block: 64 blocks */
    const intptr_t ss = sizeof(double);
    char *srcp = (char *)in;
    const int serial = strcmp(a->backend(), "serial") == 0 || a->get_num_threads() < 2;
    wait_for_two = !serial;
    int threads = 0, rc = CK_OK;
    {
        pthread_mutex_lock(&seen_mu);
        n_seen = 0;
        pthread_mutex_unlock(&seen_mu);
        memset(out, 0, sizeof(double) * probe_n);
        rc = a->parallel_strided(&k, (char *)out, (intptr_t)sizeof(double), &srcp, &ss,
                                 probe_n, &ctx);
        pthread_mutex_lock(&seen_mu);
        threads = n_seen;
        pthread_mutex_unlock(&seen_mu);
        int bad = -1;
        for (int i = 0; i < probe_n && bad < 0; i++) {
            if (out[i] != (double)i) bad = i;
        }
        CHECK(bad < 0, "%s: ck_parallel_strided: element %d is %g, not %d", who, bad,
              bad >= 0 ? out[bad] : 0.0, bad);
    }
    wait_for_two = 0;
    CHECK(rc == CK_OK, "%s: ck_parallel_strided: %s", who, a->last_error());
    CHECK(serial || threads >= 2, "%s: the parallel call ran on %d thread(s) (%s, %d threads)",
          who, threads, a->backend(), a->get_num_threads());
    printf("dlopen_test:   %s: ck_parallel_strided ran on %d threads\n", who, threads);
    free(in);
    free(out);
}

/* A refused parse: status, message, and the message stays on this thread. */
static void error_case(const api *a, const char *who) {
    ck_type *t = NULL;
    const int rc = a->type_parse("3 * vra * int32", &t);
    CHECK(rc == CK_ERR_PARSE && t == NULL, "%s: parse of a bad datashape returned %d", who, rc);
    CHECK(a->last_status() == CK_ERR_PARSE && strstr(a->last_error(), "vra") != NULL,
          "%s: ck_last_error() after a bad parse: '%s'", who, a->last_error());
}

static void run_all(const api *a, const char *who) {
    ragged_case(a, who);
    parallel_case(a, who);
    wrapped_parallel_case(a, who);
    threads_case(a, who);
    error_case(a, who);
}

/* ---- the host's own threads, started before the library is loaded ---- */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int stop = 0;
static const api *job = NULL; /* set: the caller thread runs it, then clears it */
static unsigned long allocations = 0;

static void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&mu);
    while (!stop) pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    return NULL;
}

static void *allocator(void *arg) {
    (void)arg;
    for (unsigned i = 0;; i++) {
        pthread_mutex_lock(&mu);
        const int done = stop;
        allocations++;
        pthread_mutex_unlock(&mu);
        if (done) break;
        char *p = (char *)malloc(16 + i % 4096);
        if (p != NULL) p[0] = (char)i;
        free(p);
    }
    return NULL;
}

static void *caller(void *arg) {
    (void)arg;
    pthread_mutex_lock(&mu);
    for (;;) {
        while (!stop && job == NULL) pthread_cond_wait(&cv, &mu);
        if (stop) break;
        const api *a = job;
        pthread_mutex_unlock(&mu);
        a->clear_error();
        run_all(a, "pre-existing thread");
        pthread_mutex_lock(&mu);
        job = NULL;
        pthread_cond_broadcast(&cv);
    }
    pthread_mutex_unlock(&mu);
    return NULL;
}

static void run_on_caller_thread(const api *a) {
    pthread_mutex_lock(&mu);
    job = a;
    pthread_cond_broadcast(&cv);
    while (job != NULL) pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s PATH_TO_LIBCKERNEL_SO\n", argv[0]);
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    pthread_t threads[3];
    void *(*const bodies[3])(void *) = {waiter, allocator, caller};
    for (int i = 0; i < 3; i++) {
        if (pthread_create(&threads[i], NULL, bodies[i], NULL) != 0) {
            fprintf(stderr, "dlopen_test: pthread_create failed\n");
            return 1;
        }
    }

    int rounds = 0;
    for (int round = 1; round <= 2; round++) {
        api a;
        const int ok = load(&a, argv[1]);
        CHECK(ok, "round %d: loading %s", round, argv[1]);
        if (!ok) break;
        printf("dlopen_test: round %d: dlopen(RTLD_NOW | RTLD_LOCAL) with 3 host threads "
               "running: ckernel %s, %s, backend %s, %d threads\n",
               round, a.version(), a.allocator_name(), a.backend(), a.get_num_threads());
        a.clear_error();
        run_all(&a, "main thread");
        /* The error the main thread saw is still its own after the other thread's. */
        run_on_caller_thread(&a);
        CHECK(a.last_status() == CK_ERR_PARSE && strstr(a.last_error(), "vra") != NULL,
              "round %d: the main thread's error changed: '%s'", round, a.last_error());
        a.clear_error();
        CHECK(a.last_status() == CK_OK && a.last_error()[0] == '\0',
              "round %d: ck_clear_error left '%s'", round, a.last_error());
        ck_alloc_stats st;
        a.alloc_stats(&st);
        CHECK(st.live == 0, "round %d: %lld ckernel blocks still live", round, (long long)st.live);
        printf("dlopen_test: round %d: on the main thread and on a pre-existing thread: ragged "
               "3 * var * int32 -> float64, ck_parallel_assign 300000 int32 -> float64, "
               "ck_array_wrap'ed host buffers (reversed, strided, gaps, guards), a host "
               "kernel via ck_parallel_strided, thread-local errors; %llu allocations "
               "made, 0 live\n",
               round, (unsigned long long)st.allocations);
        CHECK(dlclose(a.handle) == 0, "round %d: dlclose: %s", round, dlerror());
        void *still = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        printf("dlopen_test: round %d: dlclose()d; the library is %s\n", round,
               still != NULL ? "still mapped (linked -z nodelete: oneTBB's workers outlive it)"
                             : "unmapped");
        if (still != NULL) dlclose(still);
        rounds++;
    }
    CHECK(rounds == 2, "only %d of 2 rounds ran", rounds);

    pthread_mutex_lock(&mu);
    stop = 1;
    pthread_cond_broadcast(&cv);
    const unsigned long host_allocs = allocations;
    pthread_mutex_unlock(&mu);
    for (int i = 0; i < 3; i++) pthread_join(threads[i], NULL);
    printf("dlopen_test: the host's allocating thread ran %lu malloc/free rounds meanwhile\n",
           host_allocs);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
