/* bench/workloads_text.c: the text/... workloads. Number text through the literals:
 * ck_array_format of a million float64 values (text/print/float64) and ck_array_parse of
 * that text (text/parse/float64), against the C library's snprintf("%.17g") and strtod. The
 * text cast kernel (ck_make_assign) between numbers and NumPy's U (fixed_string[N, 'utf32'])
 * or string over 1 Mi values (text/cast/...), against plain loops of strtod, strtoll,
 * snprintf("%.17g") and a decimal loop over the same buffers, and text/cast/datetime64[s]->U32
 * and back against gmtime_r with snprintf and sscanf with a day count (baselines_time.c).
 * text/equal/string: the built-in `equal` through ck_make_call on two arrays of short
 * strings, into bool. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

/* ---- setup ---- */

/* text/print/float64 and text/parse/float64: TEXT_N float64 values in src_buf, an array over
 * them, and their literal as ckernel prints it (kept for both, with its length). print: its
 * loop writes "%.17g" text (longer) into dst or ref, and memcpy copies as many bytes as
 * ckernel's text has. parse: destination and reference are TEXT_N doubles. */
static int setup_literal(ckb_wl *w, int print) {
    const size_t n = w->n;
    w->src_buf = ckb_alloc_buffer(n * sizeof(double));
    if (w->src_buf == NULL) {
        return ckb_nomem("source values");
    }
    ckb_fill_data(w->src_buf, n, CK_TYPE_FLOAT64, w->def->fill, SEED);
    const intptr_t dims[1] = {(intptr_t)n};
    int rc = ckb_make_type(dims, 1, 0, 0, CK_TYPE_FLOAT64, &w->st);
    if (rc == CK_OK) rc = ck_array_wrap(w->st, NULL, w->src_buf, NULL, &w->text_array);
    if (rc == CK_OK) rc = ck_array_format(w->text_array, &w->text);
    if (rc != CK_OK) {
        return rc;
    }
    w->text_len = strlen(w->text);
    w->ksrc = w->src_buf;
    const size_t out_bytes = print ? TEXT_PRINT_BYTES(n) : n * sizeof(double);
    w->dst_buf = ckb_alloc_buffer(out_bytes);
    w->ref_buf = ckb_alloc_buffer(out_bytes);
    if (w->dst_buf == NULL || w->ref_buf == NULL) {
        return ckb_nomem("text buffers");
    }
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->bytes_moved = (double)(w->text_len + n * sizeof(double));
    w->dst_bytes = print ? w->text_len : n * sizeof(double);
    return CK_OK;
}

/* No kernel: the literals' functions are timed. */
int ckb_text_setup_print(ckb_wl *w) {
    return setup_literal(w, 1);
}

int ckb_text_setup_parse(ckb_wl *w) {
    return setup_literal(w, 0);
}

/* text/cast/...: the number side's values in aux_buf (numbers -> text: also the source);
 * the text side n * fixed_string[units, 'utf32'] over a buffer of ours, or n * string
 * (ck_array_new, so its bytes have an arena; as the source, its text is written before
 * timing by ckernel's own number -> text cast, which is what NumPy's astype(U) gives). */
static size_t text_cast_units(ck_type_id number) {
    return number == CK_TYPE_FLOAT64 ? 32 : 21;
}

static int text_cast_type(ck_type_id id, ck_type_id number, size_t n, ck_type **out) {
    ck_type *el = NULL;
    int rc = CK_OK;
    const ck_type *e = id == CK_TYPE_STRING ? ck_type_string() : ck_type_scalar(id);
    if (id == CK_TYPE_FIXED_STRING) {
        rc = ck_type_make_fixed_string((intptr_t)text_cast_units(number), CK_ENCODING_UTF32,
                                       &el);
        e = el;
    }
    if (rc == CK_OK) rc = ck_type_make_fixed_dim((intptr_t)n, e, out);
    ck_type_decref(el);
    return rc;
}

/* The kernel built. */
int ckb_text_setup_cast(ckb_wl *w) {
    const ckb_def *d = w->def;
    const size_t n = w->n;
    const int into_text = d->dst == CK_TYPE_FIXED_STRING || d->dst == CK_TYPE_STRING;
    const ck_type_id number = into_text ? d->src : d->dst;
    const ck_type_id text = into_text ? d->dst : d->src;
    const size_t text_bytes = text == CK_TYPE_STRING ? n * sizeof(ck_string_data)
                                                      : n * 4 * text_cast_units(number);
    w->aux_buf = ckb_alloc_buffer(n * 8);
    if (w->aux_buf == NULL) {
        return ckb_nomem("number values");
    }
    ckb_fill_data(w->aux_buf, n, number, d->fill, SEED);
    int rc = text_cast_type(d->dst, number, n, &w->dt);
    if (rc == CK_OK) rc = text_cast_type(d->src, number, n, &w->st);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, NULL, &w->sam);
    if (rc != CK_OK) {
        return rc;
    }
    const size_t dst_bytes = into_text ? text_bytes : n * 8;
    w->dst_buf = ckb_alloc_buffer(dst_bytes);
    w->ref_buf = ckb_alloc_buffer(dst_bytes);
    if (w->dst_buf == NULL || w->ref_buf == NULL) {
        return ckb_nomem("text cast buffers");
    }
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = dst_bytes;
    if (into_text) {
        w->ksrc = w->aux_buf;
        w->bytes_moved = (double)(n * 8 + text_bytes);
        return ckb_wl_build(w);
    }
    /* The source text, by ckernel's number -> text cast (setup, not timed). */
    ck_array *numbers = NULL;
    const intptr_t dims[1] = {(intptr_t)n};
    ck_type *nt = NULL;
    rc = ckb_make_type(dims, 1, 0, 0, number, &nt);
    if (rc == CK_OK) rc = ck_array_wrap(nt, NULL, w->aux_buf, NULL, &numbers);
    if (rc == CK_OK && text == CK_TYPE_STRING) {
        rc = ck_array_new(w->st, &w->src_array);
    } else if (rc == CK_OK) {
        w->src_buf = ckb_alloc_buffer(text_bytes);
        rc = w->src_buf == NULL ? ckb_nomem("source text")
                                : ck_array_wrap(w->st, NULL, w->src_buf, NULL, &w->src_array);
    }
    if (rc == CK_OK) rc = ck_assign(w->src_array, numbers, NULL);
    ck_array_free(numbers);
    ck_type_decref(nt);
    if (rc != CK_OK) {
        return rc;
    }
    w->ksrc = ck_array_data(w->src_array);
    double moved = (double)(n * 8 + text_bytes);
    if (text == CK_TYPE_STRING) { /* the bytes behind the slots are read too */
        const ck_string_data *sd = (const ck_string_data *)(const void *)w->ksrc;
        for (size_t i = 0; i < n; i++) {
            moved += (double)sd[i].size;
        }
    }
    w->bytes_moved = moved;
    return ckb_wl_build(w);
}

/* text/cast/datetime64[s]<->U32: seconds from 1800-01-01 to 2200-01-01 (400 years) in
 * aux_buf; the text side n * U32 (fixed_string[32, 'utf32']), as the source written before
 * timing by the plain loop (NumPy's astype("U32") text). */
#define TEXT_TIME_UNITS 32
int ckb_text_setup_datetime(ckb_wl *w) {
    const size_t n = w->n, text_bytes = n * 4 * TEXT_TIME_UNITS;
    const int into_text = w->def->dst == CK_TYPE_FIXED_STRING;
    w->aux_buf = ckb_alloc_buffer(n * 8);
    if (w->aux_buf == NULL) {
        return ckb_nomem("datetime values");
    }
    int64_t *v = (int64_t *)(void *)w->aux_buf;
    uint64_t seed = SEED;
    const int64_t from = INT64_C(-5364662400), span = INT64_C(146097) * 86400;
    for (size_t i = 0; i < n; i++) {
        v[i] = from + (int64_t)(ckb_rng_next(&seed) % (uint64_t)span);
    }
    ck_type *u = NULL, *text = NULL, *time = NULL;
    int rc = ck_type_make_fixed_string(TEXT_TIME_UNITS, CK_ENCODING_UTF32, &u);
    if (rc == CK_OK) rc = ck_type_make_fixed_dim((intptr_t)n, u, &text);
    if (rc == CK_OK) rc = ck_type_make_fixed_dim((intptr_t)n, ck_type_datetime(CK_UNIT_s), &time);
    ck_type_decref(u);
    w->dt = into_text ? text : time;
    w->st = into_text ? time : text;
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, NULL, &w->sam);
    if (rc != CK_OK) {
        return rc;
    }
    w->dst_bytes = into_text ? text_bytes : n * 8;
    w->dst_buf = ckb_alloc_buffer(w->dst_bytes);
    w->ref_buf = ckb_alloc_buffer(w->dst_bytes);
    if (w->dst_buf == NULL || w->ref_buf == NULL) {
        return ckb_nomem("datetime text buffers");
    }
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->bytes_moved = (double)(n * 8 + text_bytes);
    if (into_text) {
        w->ksrc = w->aux_buf;
        return ckb_wl_build(w);
    }
    w->src_buf = ckb_alloc_buffer(text_bytes);
    if (w->src_buf == NULL) {
        return ckb_nomem("datetime source text");
    }
    w->ksrc = w->src_buf;
    if (ckb_loop_datetime_s_u32((uint32_t *)(void *)w->src_buf, TEXT_TIME_UNITS, v, n) != 0) {
        return ck_set_error(CK_ERR_INTERNAL, "bench: the datetime source text");
    }
    return ckb_wl_build(w);
}

/* text/equal/string: two n * string arrays (ck_array_new, their bytes in their own arenas)
 * of the decimal text of int64 values of 1 to 12 digits, written before timing by ckernel's
 * int64 -> string cast; the second equals the first at about half the elements and
 * differs elsewhere in the last digit (same length) or in length. */
static int text_equal_strings(ckb_wl *w, size_t n, uint64_t seed, const int64_t *like,
                              int64_t *vals, ck_array **out) {
    uint64_t r = seed;
    for (size_t i = 0; i < n; i++) {
        const uint64_t u = ckb_rng_next(&r);
        if (like == NULL) {
            int64_t m = 10;
            for (unsigned d = (unsigned)(u % 12); d > 0; d--) {
                m *= 10;
            }
            vals[i] = (int64_t)((u >> 8) % (uint64_t)m);
        } else {
            vals[i] = (u & 3) < 2 ? like[i] : (u & 3) == 2 ? like[i] ^ 1 : like[i] * 10 + 1;
        }
    }
    const intptr_t dims[1] = {(intptr_t)n};
    ck_type *it = NULL;
    ck_array *ints = NULL;
    int rc = ckb_make_type(dims, 1, 0, 0, CK_TYPE_INT64, &it);
    if (rc == CK_OK) rc = ck_array_wrap(it, NULL, (char *)vals, NULL, &ints);
    if (rc == CK_OK) rc = ck_array_new(w->st, out);
    if (rc == CK_OK) rc = ck_assign(*out, ints, NULL);
    ck_array_free(ints);
    ck_type_decref(it);
    return rc;
}

int ckb_text_setup_equal(ckb_wl *w) {
    const size_t n = w->n;
    int rc = ck_lookup("equal", &w->callable);
    if (rc != CK_OK) {
        return rc;
    }
    w->make = ckb_make_call;
    w->aux_buf = ckb_alloc_buffer(2 * n * sizeof(int64_t));
    w->dst_buf = ckb_alloc_buffer(n);
    w->ref_buf = ckb_alloc_buffer(n);
    if (w->aux_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return ckb_nomem("text/equal buffers");
    }
    int64_t *v1 = (int64_t *)(void *)w->aux_buf, *v2 = v1 + n;
    const intptr_t dims[1] = {(intptr_t)n};
    rc = ck_type_make_fixed_dim((intptr_t)n, ck_type_string(), &w->st);
    if (rc == CK_OK) rc = ck_type_make_fixed_dim((intptr_t)n, ck_type_string(), &w->st2);
    if (rc == CK_OK) rc = ckb_make_type(dims, 1, 0, 0, CK_TYPE_BOOL, &w->dt);
    if (rc == CK_OK) rc = text_equal_strings(w, n, SEED, NULL, v1, &w->src_array);
    if (rc == CK_OK) rc = text_equal_strings(w, n, SEED ^ 0x51ed270b27u, v1, v2, &w->src2_array);
    /* Readers need no arena: arrmeta without blockrefs. */
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, NULL, &w->sam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st2, NULL, &w->sam2);
    if (rc != CK_OK) {
        return rc;
    }
    w->kargs[0] = ck_array_data(w->src_array);
    w->kargs[1] = ck_array_data(w->src2_array);
    w->args = w->kargs;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = n;
    double moved = (double)(2 * n * sizeof(ck_string_data) + n);
    for (int k = 0; k < 2; k++) { /* the bytes behind the slots are read too */
        const ck_string_data *sd = (const ck_string_data *)(const void *)w->kargs[k];
        for (size_t i = 0; i < n; i++) {
            moved += (double)sd[i].size;
        }
    }
    w->bytes_moved = moved;
    return ckb_wl_build(w);
}

/* text/equal/string's plain loop: equal sizes and bytes. */
static int text_equal_loop(unsigned char *out, const ck_string_data *a, const ck_string_data *b,
                           size_t n) {
    for (size_t i = 0; i < n; i++) {
        out[i] = a[i].size == b[i].size &&
                 (a[i].size == 0 || memcmp(a[i].data, b[i].data, a[i].size) == 0);
    }
    return 0;
}

/* ---- runs ---- */

int ckb_text_run_print(ckb_wl *w) {
    char *text = NULL;
    const int rc = ck_array_format(w->text_array, &text);
    if (rc == CK_OK) {
        ckb_touch(text, w->text_len);
    }
    ck_free(text);
    return rc;
}

int ckb_text_run_parse(ckb_wl *w) {
    ck_array *a = NULL;
    const int rc = ck_array_parse(w->st, w->text, &a);
    if (rc == CK_OK) {
        ckb_touch(ck_array_data(a), w->dst_bytes);
    }
    ck_array_free(a);
    return rc;
}

/* ---- plain loops ---- */

int ckb_text_loop_print(const ckb_wl *w, ckb_out out) {
    return ckb_loop_print_float64(out.elems, TEXT_PRINT_BYTES(w->n),
                                  (const double *)(void *)w->ksrc, w->n) == 0;
}

int ckb_text_loop_parse(const ckb_wl *w, ckb_out out) {
    return ckb_loop_parse_float64((double *)(void *)out.elems, w->text, w->n);
}

/* text/cast/...: the plain loop of the workload's pair. */
int ckb_text_loop_cast(const ckb_wl *w, ckb_out o) {
    char *out = o.elems;
    const ckb_def *d = w->def;
    const size_t n = w->n;
    if (d->src == CK_TYPE_STRING) {
        return ckb_loop_string_float64((double *)(void *)out,
                                       (const ck_string_data *)(const void *)w->ksrc, n);
    }
    if (d->dst == CK_TYPE_FIXED_STRING) {
        const size_t units = text_cast_units(d->src);
        return d->src == F64 ? ckb_loop_float64_u32((uint32_t *)(void *)out, units,
                                                    (const double *)(const void *)w->ksrc, n)
                             : ckb_loop_int64_u32((uint32_t *)(void *)out, units,
                                                  (const int64_t *)(const void *)w->ksrc, n);
    }
    const size_t units = text_cast_units(d->dst);
    const uint32_t *src = (const uint32_t *)(const void *)w->ksrc;
    return d->dst == F64 ? ckb_loop_u32_float64((double *)(void *)out, src, units, n)
                         : ckb_loop_u32_int64((int64_t *)(void *)out, src, units, n);
}


int ckb_text_loop_datetime(const ckb_wl *w, ckb_out out) {
    return w->def->dst == CK_TYPE_FIXED_STRING
               ? ckb_loop_datetime_s_u32((uint32_t *)(void *)out.elems, TEXT_TIME_UNITS,
                                         (const int64_t *)(const void *)w->ksrc, w->n)
               : ckb_loop_u32_datetime_s((int64_t *)(void *)out.elems,
                                         (const uint32_t *)(const void *)w->ksrc,
                                         TEXT_TIME_UNITS, w->n);
}

int ckb_text_loop_equal(const ckb_wl *w, ckb_out out) {
    return text_equal_loop((unsigned char *)out.elems,
                           (const ck_string_data *)(void *)w->kargs[0],
                           (const ck_string_data *)(void *)w->kargs[1], w->n);
}

/* ---- comparisons ---- */

/* text/print: ckernel's text (setup_literal's), read back by the plain loop's strtod, is the
 * source bit for bit. text/parse: ck_array_parse's values are strtod's of the same text, bit
 * for bit. */
static int compare_text(ckb_wl *w, int print, int *equal, char *msg, size_t msg_size) {
    const size_t bytes = w->n * sizeof(double);
    memset(w->dst_elems, 0x5a, bytes);
    memset(w->ref_elems, 0x5a, bytes);
    int rc;
    const char *want_what;
    if (print) {
        rc = CK_OK;
        if (ckb_loop_parse_float64((double *)(void *)w->dst_elems, w->text, w->n)) {
            rc = ck_set_error(CK_ERR_INTERNAL, "bench: %s: strtod cannot read ckernel's text",
                              w->def->name);
        }
        memcpy(w->ref_elems, w->ksrc, bytes);
        want_what = "the source";
    } else {
        ck_array *a = NULL;
        rc = ck_array_parse(w->st, w->text, &a);
        if (rc == CK_OK) {
            memcpy(w->dst_elems, ck_array_data(a), bytes);
        }
        ck_array_free(a);
        if (rc == CK_OK && ckb_wl_loop(w, 1) != 0) {
            rc = ck_set_error(CK_ERR_INTERNAL, "bench: the plain loop of %s failed",
                              w->def->name);
        }
        want_what = "strtod's";
    }
    if (rc != CK_OK) {
        return rc;
    }
    *equal = memcmp(w->dst_elems, w->ref_elems, bytes) == 0;
    if (msg_size != 0) {
        msg[0] = '\0';
        if (!*equal) {
            size_t k = 0;
            while (k < w->n && memcmp(w->dst_elems + k * 8, w->ref_elems + k * 8, 8) == 0) {
                k++;
            }
            double got, want;
            memcpy(&got, w->dst_elems + k * 8, sizeof got);
            memcpy(&want, w->ref_elems + k * 8, sizeof want);
            snprintf(msg, msg_size, "%s: value %zu is %.17g, %s is %.17g", w->def->name, k,
                     got, want_what, want);
        }
    }
    return CK_OK;
}


int ckb_text_verify_print(ckb_wl *w, int *equal, char *msg, size_t msg_size) {
    return compare_text(w, 1, equal, msg, msg_size);
}

int ckb_text_verify_parse(ckb_wl *w, int *equal, char *msg, size_t msg_size) {
    return compare_text(w, 0, equal, msg, msg_size);
}

/* text/cast/float64->U32: the loop's "%.17g" is not the shortest text, so ckernel's text read
 * back (the loop's own strtod) must be the source, and the text no longer than "%.17g"'s.
 * The other pairs: the kernel's output is the loop's. */
int ckb_text_verify_cast(ckb_wl *w, int *equal, char *msg, size_t msg_size) {
    const int rc = ckb_wl_run_fresh(w);
    if (rc != CK_OK) {
        return rc;
    }
    if (w->def->dst != CK_TYPE_FIXED_STRING || w->def->src != F64) {
        return ckb_wl_check_loop(w, NULL, equal, msg, msg_size);
    }
    const size_t units = text_cast_units(F64);
    if (ckb_loop_u32_float64((double *)(void *)w->ref_elems,
                             (const uint32_t *)(const void *)w->dst_elems, units, w->n)) {
        *equal = 0;
        if (msg_size != 0) {
            snprintf(msg, msg_size, "%s: strtod cannot read ckernel's text", w->def->name);
        }
        return CK_OK;
    }
    *equal = memcmp(w->ref_elems, w->ksrc, w->n * sizeof(double)) == 0;
    if (msg_size != 0) {
        snprintf(msg, msg_size, "%s", *equal ? "" : "ckernel's text does not read back");
    }
    return CK_OK;
}
