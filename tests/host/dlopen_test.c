/* tests/host/dlopen_test.c: loads libckernel.so the way a plugin host or a Python extension
 * does. The program is not linked to ckernel: with threads of its own already running (one
 * waiting, one allocating with the C library's malloc in a loop, one that will call into
 * ckernel), it dlopen()s the library RTLD_LOCAL, builds and runs a ragged assignment and a
 * parallel one on the calling thread and on the pre-existing thread, checks every value
 * against hand-computed ones, dlclose()s it, and loads and runs it again.
 * usage: ck_host_dlopen_test PATH_TO_LIBCKERNEL_SO */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ckernel/ckernel.h" /* types and constants only: nothing is linked */

static int passed = 0, failed = 0;
#define CHECK(cond, ...)                                         \
    do {                                                         \
        if (cond) {                                              \
            passed++;                                            \
        } else {                                                 \
            failed++;                                            \
            fprintf(stderr, "dlopen_test: FAILED %s: ", #cond);  \
            fprintf(stderr, __VA_ARGS__);                        \
            fputc('\n', stderr);                                 \
        }                                                        \
    } while (0)

/* The library's functions, looked up with dlsym. */
typedef struct api {
    void *handle;
    int (*type_parse)(const char *, ck_type **);
    void (*type_decref)(const ck_type *);
    int (*array_new)(const ck_type *, ck_array **);
    int (*array_parse)(const ck_type *, const char *, ck_array **);
    int (*array_format)(const ck_array *, char **);
    void (*array_free)(ck_array *);
    char *(*array_data)(const ck_array *);
    int (*assign)(const ck_array *, const ck_array *, const ck_eval_ctx *);
    int (*parallel_assign)(const ck_array *, const ck_array *, const ck_eval_ctx *);
    const char *(*last_error)(void);
    void (*free_)(void *);
    void (*alloc_stats)(ck_alloc_stats *);
    const char *(*backend)(void);
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
    return LOOKUP(a, type_parse, "ck_type_parse") && LOOKUP(a, type_decref, "ck_type_decref") &&
           LOOKUP(a, array_new, "ck_array_new") && LOOKUP(a, array_parse, "ck_array_parse") &&
           LOOKUP(a, array_format, "ck_array_format") && LOOKUP(a, array_free, "ck_array_free") &&
           LOOKUP(a, array_data, "ck_array_data") && LOOKUP(a, assign, "ck_assign") &&
           LOOKUP(a, parallel_assign, "ck_parallel_assign") &&
           LOOKUP(a, last_error, "ck_last_error") && LOOKUP(a, free_, "ck_free") &&
           LOOKUP(a, alloc_stats, "ck_get_alloc_stats") &&
           LOOKUP(a, backend, "ck_parallel_backend");
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
    CHECK(text != NULL && strcmp(text, "[[1.0, 2.0], [], [3.0, 4.0, 5.0]]") == 0,
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

/* ---- the host's own threads, started before the library is loaded ---- */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int stop = 0;
static const api *job = NULL; /* set: the caller thread runs it, then clears it */

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
        ragged_case(a, "pre-existing thread");
        parallel_case(a, "pre-existing thread");
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
    pthread_t threads[3];
    void *(*const bodies[3])(void *) = {waiter, allocator, caller};
    for (int i = 0; i < 3; i++) {
        if (pthread_create(&threads[i], NULL, bodies[i], NULL) != 0) {
            fprintf(stderr, "dlopen_test: pthread_create failed\n");
            return 1;
        }
    }

    for (int round = 1; round <= 2; round++) {
        api a;
        const int ok = load(&a, argv[1]);
        CHECK(ok, "round %d: loading %s", round, argv[1]);
        if (!ok) break;
        ragged_case(&a, "main thread");
        parallel_case(&a, "main thread");
        run_on_caller_thread(&a);
        ck_alloc_stats st;
        a.alloc_stats(&st);
        CHECK(st.live == 0, "round %d: %lld ckernel blocks still live", round, (long long)st.live);
        printf("dlopen_test: round %d: loaded RTLD_LOCAL with 3 host threads running, "
               "backend %s, assignments checked\n", round, a.backend());
        CHECK(dlclose(a.handle) == 0, "round %d: dlclose: %s", round, dlerror());
    }

    pthread_mutex_lock(&mu);
    stop = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    for (int i = 0; i < 3; i++) pthread_join(threads[i], NULL);
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
