/* bench/workloads_math.c: NumPy's functions through ck_make_call (math/<function>/<type>,
 * and math/exp/float64/2threads through ck_parallel_strided on two threads): 1 Mi elements
 * of the function's usual domain, against the plain loop over glibc's function (x86-64
 * baseline code: glibc picks its FMA versions itself where the CPU has them). The kernel's
 * values are SLEEF's (within 1 ULP) where glibc's are within about 0.5: the comparison
 * accepts 2 ULP apart, exactly equal for the exact functions. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

#define MATH_N ((size_t)1024 * 1024) /* workloads.c has the same, beside its rows */

/* What a math/ workload computes: its function's name (between the first two '/'). */
static void function_of(const char *name, char *fn, size_t cap) {
    const char *a = strchr(name, '/') + 1, *b = strchr(a, '/');
    const size_t k = (size_t)(b - a) < cap - 1 ? (size_t)(b - a) : cap - 1;
    memcpy(fn, a, k);
    fn[k] = '\0';
}

static int is(const ckb_wl *w, const char *fn) {
    char f[32];
    function_of(w->def->name, f, sizeof f);
    return strcmp(f, fn) == 0;
}

/* Values in the function's domain, from the seed: x in [lo, hi). */
static void fill_uniform(char *p, size_t n, ck_type_id id, double lo, double hi, uint64_t s) {
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        const double v = lo + (hi - lo) * (double)(s >> 11) * 0x1p-53;
        if (id == CK_TYPE_FLOAT32) {
            ((float *)(void *)p)[i] = (float)v;
        } else {
            ((double *)(void *)p)[i] = v;
        }
    }
}

int ckb_math_setup(ckb_wl *w) {
    const ckb_def *d = w->def;
    char fn[32];
    function_of(d->name, fn, sizeof fn);
    int rc = ck_lookup(fn, &w->callable);
    if (rc != CK_OK) {
        return rc;
    }
    const int two = strcmp(fn, "power") == 0;
    const size_t ss = ckb_scalar_size(d->src), ds = ckb_scalar_size(d->dst);
    w->src_buf = ckb_alloc_buffer(w->n * ss);
    w->src2_buf = ckb_alloc_buffer(w->n * ss);
    w->dst_buf = ckb_alloc_buffer(w->n * ds);
    w->ref_buf = ckb_alloc_buffer(w->n * ds);
    if (w->src_buf == NULL || w->src2_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return ckb_nomem("data buffers");
    }
    const int f32 = d->src == CK_TYPE_FLOAT32;
    double lo = -1e6, hi = 1e6;
    if (strcmp(fn, "exp") == 0) {
        lo = f32 ? -80 : -700, hi = f32 ? 80 : 700;
    } else if (strcmp(fn, "log") == 0 || strcmp(fn, "sqrt") == 0 || two) {
        lo = 1e-3, hi = two ? 10 : 1e6;
    } else if (strcmp(fn, "sin") == 0 || strcmp(fn, "cos") == 0) {
        lo = -100, hi = 100;
    }
    fill_uniform(w->src_buf, w->n, d->src, lo, hi, SEED);
    fill_uniform(w->src2_buf, w->n, d->src, -10, 10, SEED ^ 0x2545f4914f6cdd1du);
    if (strcmp(fn, "isnan") == 0) {
        for (size_t i = 0; i < w->n; i += 7) {
            ((double *)(void *)w->src_buf)[i] = NAN;
        }
    }
    w->kargs[0] = w->src_buf;
    w->kargs[1] = w->src2_buf;
    w->args = w->kargs;
    w->ksrc = w->src_buf;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = w->n * ds;
    w->bytes_moved = (double)(w->n * (ss * (two ? 2 : 1) + ds));
    const intptr_t dims[1] = {(intptr_t)w->n};
    rc = ckb_make_type(dims, 1, 0, 0, d->dst, &w->dt);
    if (rc == CK_OK) rc = ckb_make_type(dims, 1, 0, 0, d->src, &w->st);
    if (rc == CK_OK && two) rc = ckb_make_type(dims, 1, 0, 0, d->src, &w->st2);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, NULL, &w->sam);
    if (rc == CK_OK && two) rc = ckb_make_arrmeta(w->st2, NULL, &w->sam2);
    if (rc != CK_OK) {
        return rc;
    }
    w->make = two ? ckb_make_call : ckb_make_call_1;
    rc = ckb_wl_build(w);
    if (rc == CK_OK && w->threads > 1) {
        /* The element kernel (scalars, strided request) that ck_parallel_strided splits. */
        ck_builder_init(&w->pb);
        w->pbuilt = 1;
        size_t off = 0;
        const ck_type *st[1] = {ck_type_scalar(d->src)};
        rc = ck_make_call(&w->pb, &off, w->callable, ck_type_scalar(d->dst), NULL, 1, st, NULL,
                          CK_REQUEST_STRIDED, &w->ctx);
    }
    return rc;
}

int ckb_math_setup_2threads(ckb_wl *w) {
    w->threads = 2;
    return ckb_math_setup(w);
}

int ckb_math_run(ckb_wl *w) {
    if (w->threads > 1) {
        ck_eval_ctx c = w->ctx;
        c.max_threads = w->threads;
        const intptr_t ds = (intptr_t)ckb_scalar_size(w->def->dst);
        const intptr_t ss = (intptr_t)ckb_scalar_size(w->def->src);
        return ck_parallel_strided(ck_builder_root(&w->pb), w->kdst, ds, &w->ksrc, &ss, w->n,
                                   &c);
    }
    return ckb_run_kernel(w);
}

/* The plain loops over glibc's functions. */
#define MATH_LOOP(T, OUT, EXPR)                                                             \
    do {                                                                                     \
        const T *x = (const T *)(const void *)w->kargs[0];                                   \
        const T *y = (const T *)(const void *)w->kargs[1];                                   \
        OUT *o = (OUT *)(void *)out.elems;                                                   \
        (void)y;                                                                             \
        for (size_t i = 0; i < w->n; i++) {                                                  \
            o[i] = (OUT)(EXPR);                                                              \
        }                                                                                    \
        return 0;                                                                            \
    } while (0)

int ckb_math_loop(const ckb_wl *w, ckb_out out) {
    if (w->def->src == CK_TYPE_FLOAT32) {
        if (is(w, "exp")) MATH_LOOP(float, float, expf(x[i]));
        if (is(w, "sin")) MATH_LOOP(float, float, sinf(x[i]));
        return 1;
    }
    if (is(w, "exp")) MATH_LOOP(double, double, exp(x[i]));
    if (is(w, "log")) MATH_LOOP(double, double, log(x[i]));
    if (is(w, "sin")) MATH_LOOP(double, double, sin(x[i]));
    if (is(w, "cos")) MATH_LOOP(double, double, cos(x[i]));
    if (is(w, "power")) MATH_LOOP(double, double, pow(x[i], y[i]));
    if (is(w, "sqrt")) MATH_LOOP(double, double, sqrt(x[i]));
    if (is(w, "floor")) MATH_LOOP(double, double, floor(x[i]));
    if (is(w, "isnan")) MATH_LOOP(double, uint8_t, isnan(x[i]) != 0);
    return 1;
}

/* Within 2 ULP (glibc's and SLEEF's bounds together) for the transcendental functions. */
static int within_2_ulp(const ckb_wl *w) {
    if (is(w, "sqrt") || is(w, "floor") || is(w, "isnan")) {
        return 0; /* exact: memcmp decided */
    }
    const int f32 = w->def->dst == CK_TYPE_FLOAT32;
    for (size_t i = 0; i < w->n; i++) {
        int64_t a, b;
        if (f32) {
            int32_t x, y;
            memcpy(&x, w->dst_elems + 4 * i, 4);
            memcpy(&y, w->ref_elems + 4 * i, 4);
            a = x < 0 ? INT32_MIN - (int64_t)x : x, b = y < 0 ? INT32_MIN - (int64_t)y : y;
        } else {
            memcpy(&a, w->dst_elems + 8 * i, 8);
            memcpy(&b, w->ref_elems + 8 * i, 8);
            a = a < 0 ? INT64_MIN - a : a, b = b < 0 ? INT64_MIN - b : b;
        }
        if ((a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a) > 2) {
            return 0;
        }
    }
    return 1;
}

int ckb_math_verify(ckb_wl *w, int *equal, char *msg, size_t msg_size) {
    const int rc = ckb_wl_run_fresh(w);
    return rc != CK_OK ? rc : ckb_wl_check_loop(w, within_2_ulp, equal, msg, msg_size);
}
