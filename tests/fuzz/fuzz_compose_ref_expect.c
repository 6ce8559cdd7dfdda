/* tests/fuzz/fuzz_compose_ref_expect.c: what the composition fuzzer's reference records and
 * how a kernel's failure is held against it: places in the destination and the bytes an
 * element's arrmeta reaches, the expected writes, failures and rows, located messages and
 * types as build errors show them, and the matching of a kernel's message (patterns for the
 * numbers a kernel counts itself, the scalar leaf's own text for a failing conversion). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_compose_ref.h"

/* ---- arrmeta and the bytes an element reaches ---- */

intptr_t ref_get_ip(const char *p) {
    intptr_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The bytes an element reaches from its start under its arrmeta, as docs/design.md §7 says
 * a row the kernel allocates must hold them: a scalar, an option, a var dim or a pointer its
 * own slot; a fixed dim its first and last elements (strides of any sign); a record its
 * fields at their arrmeta offsets (padding after the last field not included). [lo, hi);
 * empty when lo == hi. */
static void extent_union(intptr_t *lo, intptr_t *hi, int *any, intptr_t a, intptr_t b) {
    if (b <= a) {
        return;
    }
    if (!*any || a < *lo) {
        *lo = a;
    }
    if (!*any || b > *hi) {
        *hi = b;
    }
    *any = 1;
}

void ref_alloc_extent(const fz_type *t, const char *am, intptr_t *lo, intptr_t *hi) {
    intptr_t l = 0, h = 0;
    int any = 0;
    switch (t->kind) {
    case FZ_FIXED: {
        const intptr_t n = ref_get_ip(am), s = ref_get_ip(am + FZ_W);
        if (n > 0) {
            intptr_t el, eh;
            ref_alloc_extent(t->el, am + 2 * FZ_W, &el, &eh);
            extent_union(&l, &h, &any, el, eh);
            extent_union(&l, &h, &any, el + (n - 1) * s, eh + (n - 1) * s);
        }
        break;
    }
    case FZ_TUPLE:
    case FZ_STRUCT:
        for (int i = 0; i < t->nf; i++) {
            intptr_t fl, fh;
            const intptr_t off = ref_get_ip(am + FZ_W * i);
            ref_alloc_extent(t->f[i], am + t->fam[i], &fl, &fh);
            extent_union(&l, &h, &any, off + fl, off + fh);
        }
        break;
    default:
        extent_union(&l, &h, &any, 0, (intptr_t)t->size);
        break;
    }
    *lo = l;
    *hi = h;
}

/* ---- recording ---- */

void *ref_grow(void *p, size_t *cap, size_t n, size_t elem) {
    if (n < *cap) {
        return p;
    }
    const size_t c = *cap ? 2 * *cap : 256;
    void *q = realloc(p, c * elem);
    CKF_CHECK(q != NULL, "out of memory in the reference");
    *cap = c;
    return q;
}

fz_write *ref_add_write(fz_expect *x, fz_loc at, uint32_t size, fz_write_kind kind) {
    x->writes = (fz_write *)ref_grow(x->writes, &x->cap_writes, x->nwrites, sizeof *x->writes);
    fz_write *w = &x->writes[x->nwrites++];
    memset(w, 0, sizeof *w);
    w->loc = at;
    w->size = size;
    w->kind = kind;
    w->seq = x->seq++;
    return w;
}

fz_fail *ref_add_fail(fz_expect *x, int status, const char *prefix) {
    x->fails = (fz_fail *)ref_grow(x->fails, &x->cap_fails, x->nfails, sizeof *x->fails);
    fz_fail *f = &x->fails[x->nfails++];
    memset(f, 0, sizeof *f);
    f->status = status;
    f->seq = x->seq++;
    snprintf(f->prefix, sizeof f->prefix, "%s", prefix);
    return f;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
void ref_set_text(fz_fail *f, int i, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->text[i], sizeof f->text[i], fmt, ap);
    va_end(ap);
    if (f->ntext < i + 1) {
        f->ntext = i + 1;
    }
}

void fz_expect_free(fz_expect *x) {
    free(x->writes);
    free(x->rows);
    free(x->fails);
    memset(x, 0, sizeof *x);
}

/* ---- places and locations ---- */

fz_loc ref_loc_add(fz_loc l, intptr_t off) {
    l.at += (uintptr_t)off;
    return l;
}

fz_loc ref_real_loc(const void *p) {
    fz_loc l = {-1, (uintptr_t)p};
    return l;
}

void ref_push_index(ref_ctx *ctx, intptr_t i) {
    if (ctx->nidx < 64) {
        ctx->idx[ctx->nidx++] = i;
    }
}

/* "var dimension D at [i][j]: body": a located error (docs/design.md §4); `what` names the
 * kind of dimension ("var dimension", "reduced dimension", ...). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 5, 0)))
#endif
void ref_located_v(ref_state *r, const ref_ctx *ctx, int status, const char *what,
                      const char *fmt, va_list ap) {
    char body[FZ_MSG], path[FZ_MSG];
    vsnprintf(body, sizeof body, fmt, ap);
    size_t used = 0;
    path[0] = '\0';
    for (int i = 0; i < ctx->nidx && used < sizeof path; i++) {
        used += (size_t)snprintf(path + used, sizeof path - used, "%s[%td]", i == 0 ? " at " : "",
                                 ctx->idx[i]);
    }
    /* A located message carries no field names: the location replaces them. */
    fz_fail *f = ref_add_fail(r->x, status, "");
    ref_set_text(f, 0, "%s %d%s: %s", what, ctx->dim, path, body);
}

/* A type as the library's build errors show it (docs/design.md §4): whole up to 200 bytes;
 * a longer one up to its last space within the first 200 bytes, then "..." (the fuzzer's
 * field names are never quoted, so every space is between tokens). */
void ref_shown_text(const fz_type *t, char *buf, size_t cap) {
    char full[FZ_MSG];
    fz_type_text(t, full, sizeof full);
    if (strlen(full) <= FZ_SHOWN) {
        snprintf(buf, cap, "%s", full);
        return;
    }
    size_t cut = 0;
    for (size_t i = 0; i <= FZ_SHOWN; i++) {
        if (full[i] == ' ') {
            cut = i;
        }
    }
    snprintf(buf, cap, "%.*s...", (int)cut, full);
}

void ref_fail_leaf(ref_state *r, const ref_ctx *ctx, int status, ck_type_id d, ck_type_id s,
                      const unsigned char *value) {
    fz_fail *f = ref_add_fail(r->x, status, ctx->prefix);
    f->leaf = 1;
    f->leaf_dst = d;
    f->leaf_src = s;
    memcpy(f->leaf_value.b, value, ckt_scalar(s)->size);
}

void ref_write_value(ref_state *r, fz_loc dl, ck_type_id id, const ckt_expect *e) {
    fz_write *w = ref_add_write(r->x, dl, (uint32_t)ckt_scalar(id)->size, FZ_W_VALUE);
    w->id = id;
    w->e = *e;
}

/* A value computed into an option: any NaN it may be is not the NA (§14). */
void ref_write_option_value(ref_state *r, fz_loc dl, ck_type_id id, const ckt_expect *e) {
    ref_write_value(r, dl, id, e);
    r->x->writes[r->x->nwrites - 1].not_na = !ref_is_na(id, e->out.b);
}

/* ---- messages ---- */

/* 1 when msg is pattern, FZ_ANY_NUMBER standing for a decimal number, FZ_ANY_INDEX for one
 * or more "[n]". */
static int pattern_matches(const char *pat, const char *msg) {
    while (*pat != '\0') {
        if (*pat == FZ_ANY_INDEX) {
            if (*msg != '[') {
                return 0;
            }
            while (*msg == '[') {
                const char *digits = ++msg;
                while (*msg >= '0' && *msg <= '9') {
                    msg++;
                }
                if (msg == digits || *msg++ != ']') {
                    return 0;
                }
            }
            pat++;
            continue;
        }
        if (*pat == FZ_ANY_NUMBER) {
            if (*msg < '0' || *msg > '9') {
                return 0;
            }
            while (*msg >= '0' && *msg <= '9') {
                msg++;
            }
            pat++;
            continue;
        }
        if (*pat++ != *msg++) {
            return 0;
        }
    }
    return *msg == '\0';
}

/* The scalar leaf's own message for one value: a one-element assignment of that value
 * (tests/cast checks the leaves and their statuses against the oracle; here the status must
 * agree with the oracle again, and the text is the leaf's). */
static int leaf_message(const fz_case *c, const fz_fail *f, const unsigned char *value,
                        char *out, size_t cap) {
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = c->mode;
    ctx.flags = CK_EVAL_NO_JIT;
    int rc = ck_make_assign(&b, &off, ck_type_scalar(f->leaf_dst), NULL,
                            ck_type_scalar(f->leaf_src), NULL, CK_REQUEST_SINGLE, &ctx);
    ckt_elem src, dst;
    memcpy(src.b, value, ckt_scalar(f->leaf_src)->size);
    if (rc == CK_OK) {
        char *sp = (char *)src.b;
        ck_clear_error();
        rc = ck_call_single(ck_builder_root(&b), (char *)dst.b, &sp);
    }
    snprintf(out, cap, "%s", ck_last_error());
    ck_builder_destroy(&b);
    CKF_CHECK(rc == f->status, "the scalar leaf %s -> %s gives %s where the oracle says %s (%s)",
              ckt_scalar(f->leaf_src)->name, ckt_scalar(f->leaf_dst)->name, ck_status_name(rc),
              ck_status_name(f->status), out);
    return rc;
}

int fz_fail_matches(const fz_case *c, fz_fail *f, const char *msg) {
    char full[2 * FZ_MSG];
    if (f->leaf) {
        /* A NaN's sign is not predictable after arithmetic (x86 keeps the first operand's,
         * and a commutative operation's operands may be swapped): either sign. */
        const ckt_scalar_info *s = ckt_scalar(f->leaf_src);
        const ckt_scalar_info *sc = ckt_scalar(s->component);
        const int parts = s->kind == 'C' ? 2 : 1;
        int nan_part[2] = {0, 0};
        for (int k = 0; k < parts; k++) {
            const fz_float_format *ff = fz_float_format_of(sc->kind);
            nan_part[k] = ff != NULL && fz_float_is_nan(ff, f->leaf_value.b + (size_t)k * sc->size);
        }
        for (int flip = 0; flip < 4; flip++) {
            ckt_elem v = f->leaf_value;
            int skip = 0;
            for (int k = 0; k < 2; k++) {
                if ((flip >> k) & 1) {
                    if (!nan_part[k]) {
                        skip = 1;
                    } else {
                        v.b[(size_t)k * sc->size + sc->size - 1] ^= 0x80;
                    }
                }
            }
            if (skip) {
                continue;
            }
            char text[FZ_MSG];
            leaf_message(c, f, v.b, text, sizeof text);
            snprintf(full, sizeof full, "%s%s", f->prefix, text);
            if (strcmp(full, msg) == 0) {
                return 1;
            }
        }
        return 0;
    }
    for (int i = 0; i < f->ntext; i++) {
        snprintf(full, sizeof full, "%s%s", f->prefix, f->text[i]);
        if (pattern_matches(full, msg)) {
            return 1;
        }
    }
    return 0;
}
