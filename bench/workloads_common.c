/* bench/workloads_common.c: what the workload families share (declared in workloads.h).
 * Source data comes from a fixed-seed xorshift generator and exercises the semantics the
 * loops must match: NaN, infinities, overflow, subnormals, values that round. Buffers are
 * allocated once, page-faulted in and filled before anything is timed. Kernels are built
 * through the public API with arrmeta constructed here. A workload is measured against two
 * baselines in the same run, memcpy of the same number of destination bytes and its kind's
 * plain C loop, and after timing the kernel's output is compared with the loop's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

/* ---- data ---- */

uint64_t ckb_rng_next(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}
/* [0, 1) with 53 random bits. */
static double rng_unit(uint64_t *s) {
    return (double)(ckb_rng_next(s) >> 11) * 0x1p-53;
}

size_t ckb_var_lengths(size_t *lens) {
    uint64_t s = SEED ^ 0x5bd1e995u;
    size_t total = 0;
    for (size_t r = 0; r < VAR_ROWS; r++) {
        size_t len = (size_t)(ckb_rng_next(&s) % (VAR_MAX_LEN + 1));
        if (lens != NULL) {
            lens[r] = len;
        }
        total += len;
    }
    return total;
}

void ckb_var_rows(ck_var_data *rows, char *buf, size_t es, const size_t *lens, size_t nrows) {
    size_t at = 0;
    for (size_t r = 0; r < nrows; r++) {
        rows[r].begin = buf + at * es;
        rows[r].size = lens[r];
        at += lens[r];
    }
}

/* Special values every so often, for the fills that must exercise the semantics. */
static int special_double(size_t i, double *v) {
    switch (i % 1024) {
    case 7: *v = NAN; return 1;
    case 13: *v = INFINITY; return 1;
    case 17: *v = -INFINITY; return 1;
    case 19: *v = 0.0; return 1;
    case 23: *v = -0.0; return 1;
    default: return 0;
    }
}

void ckb_fill_data(char *p, size_t n, ck_type_id id, ckb_fill fill, uint64_t seed) {
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        const uint64_t u = ckb_rng_next(&s);
        double v = 0;
        switch (fill) {
        case F_I16: {
            int16_t x = (int16_t)(uint16_t)(u >> 48);
            memcpy(p + i * sizeof x, &x, sizeof x);
            continue;
        }
        case F_I32: {
            int32_t x = (int32_t)(uint32_t)(u >> 32);
            memcpy(p + i * sizeof x, &x, sizeof x);
            continue;
        }
        case F_I64: {
            int64_t x = (int64_t)u;
            memcpy(p + i * sizeof x, &x, sizeof x);
            continue;
        }
        case F_F16_BITS: {
            uint16_t x = (uint16_t)(u >> 48);
            memcpy(p + i * sizeof x, &x, sizeof x);
            continue;
        }
        case F_RECORDS: /* not a scalar fill: the struct workloads fill each field */
            continue;
        case F_F64_INTRANGE:
            if (!special_double(i, &v)) {
                v = (rng_unit(&s) * 2.0 - 1.0) * 3e9; /* ~30% outside the int32 range */
            }
            break;
        case F_F64_INTEGRAL:
            v = (double)(int32_t)(uint32_t)(u >> 32);
            break;
        case F_F64_WIDE:
            if (!special_double(i, &v)) {
                int e = (int)(u % 320) - 160; /* float32: overflow, subnormal, zero */
                v = ldexp(1.0 + rng_unit(&s), e) * ((u >> 40) & 1 ? -1.0 : 1.0);
            }
            break;
        case F_F64_PLAIN:
            v = (rng_unit(&s) * 2.0 - 1.0) * 1e6;
            break;
        case F_F32_HALF:
            if (!special_double(i, &v)) {
                int e = (int)(u % 48) - 28; /* float16: overflow, subnormal, zero */
                v = ldexp(1.0 + rng_unit(&s), e) * ((u >> 40) & 1 ? -1.0 : 1.0);
            }
            break;
        case F_F32_PLAIN:
            v = (rng_unit(&s) * 2.0 - 1.0) * 1e6;
            break;
        case F_F64_TEXT:
            if (!special_double(i, &v)) {
                int e = (int)(u % 121) - 60; /* fixed layout, and exponents both ways */
                v = ldexp(1.0 + rng_unit(&s), e) * ((u >> 40) & 1 ? -1.0 : 1.0);
            }
            break;
        }
        if (id == CK_TYPE_FLOAT32) {
            float f = (float)v;
            memcpy(p + i * sizeof f, &f, sizeof f);
        } else {
            memcpy(p + i * sizeof v, &v, sizeof v);
        }
    }
}

/* ---- types, buffers, the state ---- */

size_t ckb_scalar_size(ck_type_id id) {
    return ck_type_data_size(ck_type_scalar(id));
}

/* Large buffers get the transparent-huge-page advice a host such as NumPy gives its arrays
 * (ck_advise_hugepages, before the first touch), so the figures are what a host's buffers
 * get. */
char *ckb_alloc_buffer(size_t bytes) {
    size_t rounded = (bytes + 64) / 64 * 64; /* room for a byte offset, never 0 */
    char *p = (char *)aligned_alloc(64, rounded);
    if (p != NULL) {
        ck_advise_hugepages(p, rounded);
        memset(p, 0, rounded);
    }
    return p;
}

/* *out is NULL on failure. */
int ckb_make_type(const intptr_t *dims, int ndims, int var_inner, int pointer_inner,
                  ck_type_id id, ck_type **out) {
    ck_type *t = NULL;
    const ck_type *cur = ck_type_scalar(id);
    int rc = CK_OK;
    *out = NULL;
    if (pointer_inner) {
        rc = ck_type_make_pointer(cur, &t);
        cur = t;
    }
    if (rc == CK_OK && var_inner) {
        ck_type *v = NULL;
        rc = ck_type_make_var_dim(cur, &v);
        ck_type_decref(t);
        t = v;
        cur = t;
    }
    for (int d = ndims - 1; rc == CK_OK && d >= 0; d--) {
        ck_type *f = NULL;
        rc = ck_type_make_fixed_dim(dims[d], cur, &f);
        ck_type_decref(t);
        t = f;
        cur = t;
    }
    if (rc != CK_OK) {
        ck_type_decref(t);
        return rc;
    }
    *out = t;
    return CK_OK;
}

int ckb_make_arrmeta(const ck_type *t, ck_memblock *blockref, char **out) {
    size_t n = ck_type_arrmeta_size(t);
    *out = (char *)calloc(n != 0 ? n : 1, 1);
    if (*out == NULL) {
        return ck_set_error(CK_ERR_NOMEM, "bench: cannot allocate %zu bytes of arrmeta", n);
    }
    return ck_arrmeta_default_construct(t, *out, blockref);
}

void ckb_wl_free(ckb_wl *w) {
    ck_builder_destroy(&w->b);
    if (w->cbuilt) {
        ck_builder_destroy(&w->cb);
    }
    if (w->pbuilt) {
        ck_builder_destroy(&w->pb);
    }
    if (w->dam != NULL) ck_arrmeta_release(w->dt, w->dam);
    if (w->sam != NULL) ck_arrmeta_release(w->st, w->sam);
    free(w->dam);
    free(w->sam);
    ck_type_decref(w->dt);
    ck_type_decref(w->st);
    ck_memblock_decref(w->arena);
    free(w->src_buf);
    free(w->dst_buf);
    free(w->ref_buf);
    free(w->aux_buf);
    free(w->src_rows);
    free(w->dst_rows);
    free(w->ref_rows);
    if (w->sam2 != NULL) ck_arrmeta_release(w->st2, w->sam2);
    free(w->sam2);
    ck_type_decref(w->st2);
    free(w->src2_buf);
    free(w->src2_rows);
    ck_callable_decref(w->callable);
    ck_callable_decref(w->red);
    ck_array_free(w->src_array);
    ck_array_free(w->src2_array);
    ck_array_free(w->dst_array);
    for (int k = 0; k < EXPR_ARGS; k++) {
        ck_array_free(w->xarrays[k]);
    }
    ck_array_free(w->text_array);
    ck_free(w->text);
    for (int k = 0; k < w->nx; k++) {
        if (w->xam[k] != NULL) ck_arrmeta_release(w->xt[k], w->xam[k]);
        free(w->xam[k]);
        ck_type_decref(w->xt[k]);
        free(w->xbuf[k]);
        free(w->xrows[k]);
    }
    ck_expr_decref(w->expr);
    memset(w, 0, sizeof *w);
}

int ckb_nomem(const char *what) {
    return ck_set_error(CK_ERR_NOMEM, "bench: cannot allocate the %s", what);
}

int ckb_wl_alloc_plain(ckb_wl *w, size_t src_elems, size_t offset) {
    const ckb_def *d = w->def;
    const size_t ss = ckb_scalar_size(d->src), ds = ckb_scalar_size(d->dst);
    w->src_buf = ckb_alloc_buffer(src_elems * ss + offset);
    w->dst_buf = ckb_alloc_buffer(w->n * ds + offset);
    w->ref_buf = ckb_alloc_buffer(w->n * ds + offset);
    if (w->src_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return ckb_nomem("data buffers");
    }
    w->ksrc = w->src_buf + offset;
    w->kdst = w->dst_buf + offset;
    w->dst_elems = w->kdst;
    w->ref_elems = w->ref_buf + offset;
    w->dst_bytes = w->n * ds;
    w->bytes_moved = (double)(w->n * (ss + ds));
    ckb_fill_data(w->ksrc, src_elems, d->src, d->fill, SEED);
    return CK_OK;
}

int ckb_wl_types(ckb_wl *w, const intptr_t *dims, int ndims) {
    int rc = ckb_make_type(dims, ndims, 0, 0, w->def->dst, &w->dt);
    if (rc == CK_OK) rc = ckb_make_type(dims, ndims, 0, 0, w->def->src, &w->st);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, NULL, &w->sam);
    return rc;
}

int ckb_wl_setup_var(ckb_wl *w) {
    const size_t rows = VAR_ROWS;
    size_t *lens = (size_t *)malloc(rows * sizeof *lens);
    if (lens == NULL) {
        return ckb_nomem("row lengths");
    }
    w->n = ckb_var_lengths(lens);
    const size_t ss = ckb_scalar_size(w->def->src), ds = ckb_scalar_size(w->def->dst);
    w->src_buf = ckb_alloc_buffer(w->n * ss);
    w->dst_buf = ckb_alloc_buffer(w->n * ds);
    w->ref_buf = ckb_alloc_buffer(w->n * ds);
    w->src_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    w->dst_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    w->ref_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    if (w->src_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL || w->src_rows == NULL ||
        w->dst_rows == NULL || w->ref_rows == NULL) {
        free(lens);
        return ckb_nomem("var rows");
    }
    /* The destination rows are allocated (begin != NULL, size set), so the kernel only
     * assigns. */
    ckb_var_rows(w->src_rows, w->src_buf, ss, lens, rows);
    ckb_var_rows(w->dst_rows, w->dst_buf, ds, lens, rows);
    ckb_var_rows(w->ref_rows, w->ref_buf, ds, lens, rows);
    free(lens);
    ckb_fill_data(w->src_buf, w->n, w->def->src, w->def->fill, SEED);
    w->ksrc = (char *)w->src_rows;
    w->kdst = (char *)w->dst_rows;
    w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = w->n * ds;
    w->bytes_moved = (double)(w->n * (ss + ds) + 2 * rows * sizeof(ck_var_data));
    /* The arrmeta's blockref is an arena, as for any var array (unused: rows are set). */
    int rc = ck_arena_new(0, &w->arena);
    const intptr_t dims[1] = {(intptr_t)rows};
    if (rc == CK_OK) rc = ckb_make_type(dims, 1, 1, 0, w->def->dst, &w->dt);
    if (rc == CK_OK) rc = ckb_make_type(dims, 1, 1, 0, w->def->src, &w->st);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, w->arena, &w->dam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, w->arena, &w->sam);
    return rc;
}

/* ---- kernel builds ---- */

int ckb_wl_build_into(ckb_wl *w, ck_builder *b, const ck_eval_ctx *ctx) {
    ck_builder_init(b);
    size_t off = 0;
    if (w->make != NULL) {
        return w->make(w, b, &off, ctx);
    }
    return ck_make_assign(b, &off, w->dt, w->dam, w->st, w->sam, CK_REQUEST_SINGLE, ctx);
}

int ckb_make_call(const ckb_wl *w, ck_builder *b, size_t *off, const ck_eval_ctx *ctx) {
    const ck_type *const st[2] = {w->st, w->st2};
    const char *const sam[2] = {w->sam, w->sam2};
    return ck_make_call(b, off, w->callable, w->dt, w->dam, 2, st, sam, CK_REQUEST_SINGLE, ctx);
}

int ckb_make_call_1(const ckb_wl *w, ck_builder *b, size_t *off, const ck_eval_ctx *ctx) {
    const ck_type *const st[1] = {w->st};
    const char *const sam[1] = {w->sam};
    return ck_make_call(b, off, w->callable, w->dt, w->dam, 1, st, sam, CK_REQUEST_SINGLE, ctx);
}

/* Or the jit figures would time the composed kernel under a jit name. */
int ckb_wl_check_jit_used(const ckb_wl *w, int hit_ok) {
    const char *d = ck_jit_last_decision();
    if (strncmp(d, "compiled", 8) == 0 || (hit_ok && strncmp(d, "cache hit", 9) == 0)) {
        return CK_OK;
    }
    return ck_set_error(CK_ERR_INTERNAL, "bench: %s: the JIT did not %s the nest: %s",
                        w->def->name, hit_ok ? "provide" : "compile", d);
}

int ckb_wl_build(ckb_wl *w) {
    int rc;
    if (w->kind->eval == CKB_JIT) {
        ck_jit_info before, after;
        ck_jit_get_info(&before);
        rc = ckb_wl_build_into(w, &w->b, &w->ctx);
        ck_jit_get_info(&after);
        w->built = rc == CK_OK;
        if (rc == CK_OK) rc = ckb_wl_check_jit_used(w, 1);
        w->compile_ms =
            after.compiles == before.compiles + 1 ? after.compile_ms - before.compile_ms : -1.0;
        return rc;
    }
    rc = ckb_wl_build_into(w, &w->b, &w->ctx);
    w->built = rc == CK_OK;
    return rc;
}

int ckb_wl_build_composed(ckb_wl *w) {
    ck_eval_ctx c = w->ctx;
    c.flags = (c.flags & ~CK_EVAL_JIT) | CK_EVAL_NO_JIT;
    const int rc = ckb_wl_build_into(w, &w->cb, &c);
    w->cbuilt = 1;
    return rc;
}

/* ---- runs and the comparison ---- */

static char *const *sources(ckb_wl *w) {
    return w->args != NULL ? w->args : &w->ksrc;
}

int ckb_run_kernel(ckb_wl *w) {
    return ck_call_single(ck_builder_root(&w->b), w->kdst, sources(w));
}

int ckb_wl_loop(const ckb_wl *w, int into_ref) {
    if (w->kind->loop == NULL) {
        return 1; /* no loop: nothing to compare with */
    }
    const ckb_out out = {into_ref ? w->ref_elems : w->dst_elems,
                         into_ref ? w->ref_rows : w->dst_rows};
    return w->kind->loop(w, out);
}

int ckb_wl_check_loop(ckb_wl *w, int (*agree)(const ckb_wl *w), int *equal, char *msg,
                      size_t msg_size) {
    if (ckb_wl_loop(w, 1) != 0) {
        return ck_set_error(CK_ERR_INTERNAL, "bench: the plain loop of %s failed", w->def->name);
    }
    *equal = memcmp(w->dst_elems, w->ref_elems, w->dst_bytes) == 0;
    if (!*equal && agree != NULL) {
        *equal = agree(w);
    }
    if (msg_size != 0) {
        msg[0] = '\0';
    }
    if (!*equal && msg_size != 0) {
        size_t i = 0;
        while (i < w->dst_bytes && w->dst_elems[i] == w->ref_elems[i]) {
            i++;
        }
        snprintf(msg, msg_size,
                 "%s: kernel and plain loop differ at byte %zu of %zu (0x%02x vs 0x%02x)",
                 w->def->name, i, w->dst_bytes, (unsigned)(unsigned char)w->dst_elems[i],
                 (unsigned)(unsigned char)w->ref_elems[i]);
    }
    return CK_OK;
}

int ckb_wl_run_fresh(ckb_wl *w) {
    memset(w->dst_elems, 0x5a, w->dst_bytes);
    return w->kind->run(w);
}

int ckb_verify_equal(ckb_wl *w, int *equal, char *msg, size_t msg_size) {
    const int rc = ckb_wl_run_fresh(w);
    return rc != CK_OK ? rc : ckb_wl_check_loop(w, NULL, equal, msg, msg_size);
}

int ckb_verify_built(ckb_wl *w, int *equal, char *msg, size_t msg_size) {
    const int rc = ckb_wl_build(w); /* jit/compile/...: checks that it compiled */
    return rc != CK_OK ? rc : ckb_verify_equal(w, equal, msg, msg_size);
}

/* ---- the timings ---- */

static int timed_kernel(void *ctx) {
    ckb_wl *w = (ckb_wl *)ctx;
    int rc = w->kind->run(w);
    ckb_touch(w->dst_elems, w->dst_bytes);
    return rc;
}

static int timed_memcpy(void *ctx) {
    ckb_wl *w = (ckb_wl *)ctx;
    memcpy(w->dst_elems, w->ref_elems, w->dst_bytes);
    ckb_touch(w->dst_elems, w->dst_bytes);
    return CK_OK;
}

static int timed_loop(void *ctx) {
    ckb_wl *w = (ckb_wl *)ctx;
    int rc = ckb_wl_loop(w, 0);
    ckb_touch(w->dst_elems, w->dst_bytes);
    return rc == 0 ? CK_OK
                   : ck_set_error(CK_ERR_INTERNAL, "bench: the plain loop of %s failed",
                                  w->def->name);
}

/* jit/<case>/jit, expr/<case>/jit: the CK_EVAL_NO_JIT kernel of the same workload. */
static int timed_composed(void *ctx) {
    ckb_wl *w = (ckb_wl *)ctx;
    int rc = w->run_composed != NULL
                 ? w->run_composed(w)
                 : ck_call_single(ck_builder_root(&w->cb), w->kdst, sources(w));
    ckb_touch(w->dst_elems, w->dst_bytes);
    return rc;
}

/* The first nfn of kernel, memcpy, loop, composed, sampled in the same interleaved rounds. */
static int measure_against(ckb_wl *w, const ckb_settings *s, ckb_result *out, int nfn,
                           ckb_unit unit) {
    static const ckb_timed_fn fns[4] = {timed_kernel, timed_memcpy, timed_loop,
                                        timed_composed};
    double t[4] = {0, 0, 0, 0}, spread[4] = {0, 0, 0, 0};
    const double per = unit == CKB_PER_ELEM ? (double)w->n : 1.0;
    out->unit = unit;
    const int rc = ckb_measure(fns, nfn, w, s, t, spread);
    if (rc == CK_OK) {
        out->ns = t[0] / per;
        out->gb_per_s = w->bytes_moved / t[0];
        out->ratio_memcpy = t[0] / t[1];
        out->ratio_loop = t[0] / t[2];
        out->memcpy_gb_per_s = 2.0 * (double)w->dst_bytes / t[1];
        out->loop_ns = t[2] / per;
        if (nfn == 4) {
            out->ratio_composed = t[0] / t[3];
            out->compile_ms = w->compile_ms;
        }
    }
    out->spread = spread[0];
    return rc;
}

int ckb_measure_vs_loop(ckb_wl *w, const ckb_settings *s, ckb_result *out) {
    return measure_against(w, s, out, 3, CKB_PER_ELEM);
}

int ckb_measure_vs_loop_per_op(ckb_wl *w, const ckb_settings *s, ckb_result *out) {
    return measure_against(w, s, out, 3, CKB_PER_OP);
}

int ckb_measure_vs_composed(ckb_wl *w, const ckb_settings *s, ckb_result *out) {
    return measure_against(w, s, out, 4, CKB_PER_ELEM);
}

int ckb_measure_one(ckb_wl *w, const ckb_settings *s, ckb_result *out, ckb_timed_fn fn,
                    ckb_unit unit) {
    const ckb_timed_fn fns[1] = {fn};
    double t[1] = {0}, spread[1] = {0};
    out->unit = unit;
    const int rc = ckb_measure(fns, 1, w, s, t, spread);
    if (rc == CK_OK) {
        out->ns = t[0];
    }
    out->spread = spread[0];
    return rc;
}

int ckb_measure_alone(ckb_wl *w, const ckb_settings *s, ckb_result *out) {
    return ckb_measure_one(w, s, out, timed_kernel, CKB_PER_OP);
}
