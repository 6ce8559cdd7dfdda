/* tests/fuzz/fuzz_compose_ref_reduce.c: the composition fuzzer's reference for reductions
 * and accumulations (ck_make_reduce, ck_make_accumulate): what building refuses, the walk
 * of the source into accumulators (options, skipna, casts and their chunks, var rows the
 * kernel allocates), and the destination's expected values. Float runs fold in
 * fuzz_compose_ref_fold.c's association. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_compose_ref.h"

/* ---- reductions and accumulations (docs/design.md §14) ----
 * The reference builds its own list of the source's levels with the destination's beside
 * them, refuses what §14 refuses in the order the walk meets it, merges levels by §14's
 * rule (which decides where a run of a float fold starts and ends), then walks the source
 * in C order. Each accumulator is found by its place in the destination (a byte offset
 * from the root element, a new offset in each var row): a table from places to values,
 * written out at the end by a walk of the destination. */

/* One level of the source with the destination's beside it. */
typedef struct rlev {
    int reduced;         /* reduced (a reduction) or the accumulated axis */
    int svar, dvar, dabsent;
    intptr_t size;       /* fixed */
    intptr_t sstride, soffset, dstride;
    int dim;
} rlev;

/* A place in the destination: the root element's index, then byte offsets (a new one in
 * each var row). */
#define RK 6
typedef struct rkey {
    int n;
    intptr_t c[RK];
} rkey;

typedef struct rent {
    int used;
    char kind; /* 'A' an accumulator, 'R' a var row's length */
    rkey k;
    ckt_elem v;
    intptr_t len;
} rent;

typedef struct rstate {
    ref_state *r;
    const fz_case *c;
    rlev lv[8];
    int n, first;           /* levels; the first reduced one (the axis) */
    ck_type_id t, a;        /* the source's scalar (an option's value), the accumulator's */
    int sopt, dopt, skipna, na_start, check_empty, accumulate, rop, mode;
    int dcanon;             /* the destination is ?A: a value computed into it is never NA */
    int orow_end, orow_have; /* an accumulation of options: the row's NA came; a value came */
    size_t chunk;           /* elements per cast chunk (docs/design.md §14); 0: no cast */
    unsigned char start[16];
    rent *table;            /* open addressing, at most half full */
    size_t cap, used;
    ckt_elem *vals;         /* a run's cast elements */
    size_t nvals;
    int failed;
} rstate;

static size_t rhash(const rkey *k, char kind) {
    uint64_t h = 1469598103934665603ull ^ (uint64_t)kind;
    for (int i = 0; i < k->n; i++) {
        h = (h ^ (uint64_t)k->c[i]) * 1099511628211ull;
    }
    return (size_t)h;
}

static void rtable_init(rstate *rs, size_t cap) {
    rs->cap = cap;
    rs->used = 0;
    rs->table = (rent *)calloc(cap, sizeof *rs->table);
    CKF_CHECK(rs->table != NULL, "out of memory in the reference");
}

/* The entry of (k, kind); a new one (an accumulator at the start value) with `create`,
 * else NULL when there is none. Creating may move the entries. */
static rent *rslot(rstate *rs, const rkey *k, char kind, int create) {
    if (create && 2 * (rs->used + 1) > rs->cap) {
        rent *old = rs->table;
        const size_t n = rs->cap;
        rtable_init(rs, 2 * n);
        for (size_t i = 0; i < n; i++) {
            if (old[i].used) {
                size_t j = rhash(&old[i].k, old[i].kind) & (rs->cap - 1);
                while (rs->table[j].used) {
                    j = (j + 1) & (rs->cap - 1);
                }
                rs->table[j] = old[i];
                rs->used++;
            }
        }
        free(old);
    }
    for (size_t i = rhash(k, kind) & (rs->cap - 1);; i = (i + 1) & (rs->cap - 1)) {
        rent *e = &rs->table[i];
        if (!e->used) {
            if (!create) {
                return NULL;
            }
            e->used = 1;
            e->kind = kind;
            e->k = *k;
            memcpy(e->v.b, rs->start, sizeof rs->start);
            rs->used++;
            return e;
        }
        if (e->kind == kind && e->k.n == k->n &&
            memcmp(e->k.c, k->c, (size_t)k->n * sizeof k->c[0]) == 0) {
            return e;
        }
    }
}

static rent *rfind(rstate *rs, const rkey *k, char kind) {
    return rslot(rs, k, kind, 1);
}

static rent *rlookup(rstate *rs, const rkey *k, char kind) {
    return rslot(rs, k, kind, 0);
}

/* A value computed (or cast, or selected) into an accumulator of ?A is never NA. */
static void rs_canon(const rstate *rs, unsigned char *acc) {
    if (rs->dcanon) {
        ref_canon_na(rs->a, acc);
    }
}

/* acc = op(acc, x[0..n)): floats through the tree, chunk by chunk when the elements were
 * cast (a chunk is what the cast hands the leaf at once); integers and bools in order. */
static void fold_values(const rstate *rs, unsigned char *acc, const ckt_elem *x, size_t n) {
    const char k = ckt_scalar(rs->a)->kind;
    if (k == 'B' || k == 'S' || k == 'U') {
        for (size_t i = 0; i < n; i++) {
            ref_elem_op(rs->rop, rs->a, acc, x[i].b, acc);
        }
        return;
    }
    const size_t chunk = rs->chunk != 0 ? rs->chunk : n;
    for (size_t off = 0; off < n; off += chunk) {
        ref_fold_tree(rs->rop, rs->a, acc, x + off, n - off < chunk ? n - off : chunk);
    }
    rs_canon(rs, acc);
}

/* An element cast to the accumulator's type (a bool one takes truth values); 0 and the
 * failure recorded when the cast refuses it. */
static int rcast(rstate *rs, const ref_ctx *ctx, const unsigned char *x, unsigned char *out) {
    if (rs->t == rs->a) {
        memcpy(out, x, ckt_scalar(rs->a)->size);
        return 1;
    }
    const ckt_expect e = ref_convert(rs->a, rs->t, rs->mode, x);
    if (e.status != CK_OK) {
        ref_fail_leaf(rs->r, ctx, e.status, rs->a, rs->t, x);
        rs->failed = 1;
        return 0;
    }
    memcpy(out, e.out.b, ckt_scalar(rs->a)->size);
    return 1;
}

static ckt_elem *rvals(rstate *rs, size_t n) {
    if (n > rs->nvals) {
        free(rs->vals);
        rs->nvals = n < 1024 ? 1024 : n;
        rs->vals = (ckt_elem *)malloc(rs->nvals * sizeof *rs->vals);
        CKF_CHECK(rs->vals != NULL, "out of memory in the reference");
    }
    return rs->vals;
}

static int rs_is_na(const rstate *rs, int src, const unsigned char *p) {
    return ref_is_na(src ? rs->t : rs->a, p);
}

/* An accumulator that reads as NA: propagated, or (skipna, no identity) holding no element
 * yet; with skipna and an identity NA bits are a value (§14). */
static int acc_na(const rstate *rs, const unsigned char *acc) {
    return rs->dopt && (rs->na_start || !rs->skipna) && rs_is_na(rs, 0, acc);
}

static void fail_acc_na(rstate *rs, const ref_ctx *ctx) {
    fz_fail *f = ref_add_fail(rs->r->x, CK_ERR_NA, ctx->prefix);
    ref_set_text(f, 0,
             "NA at element %c cannot be accumulated into a destination that is not an option "
             "type (leave NA out with skipna)",
             FZ_ANY_NUMBER);
    rs->failed = 1;
}

/* x[i] (i < n) cast into vals; 0 on a refusal. */
static int cast_run(rstate *rs, const ref_ctx *ctx, const unsigned char *x, intptr_t xs,
                    size_t n, ckt_elem *vals) {
    for (size_t i = 0; i < n; i++) {
        if (!rcast(rs, ctx, x + (intptr_t)i * xs, vals[i].b)) {
            return 0;
        }
    }
    return 1;
}

/* A run folded into one accumulator (the innermost level reduced): options as §14 says,
 * NA elements ending a run of values. */
static void run_fold(rstate *rs, unsigned char *acc, const unsigned char *x, intptr_t xs,
                     size_t n, const ref_ctx *ctx) {
    ckt_elem *vals = rvals(rs, n);
    if (!rs->sopt) {
        if (cast_run(rs, ctx, x, xs, n, vals)) {
            fold_values(rs, acc, vals, n);
        }
        return;
    }
    int none = acc_na(rs, acc);
    if (none && !rs->skipna) {
        return; /* NA stays NA */
    }
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && !rs_is_na(rs, 1, x + (intptr_t)j * xs)) {
            j++;
        }
        if (j > i && none) { /* no element yet: the first is cast into it */
            if (!rcast(rs, ctx, x + (intptr_t)i * xs, acc)) {
                return;
            }
            rs_canon(rs, acc);
            none = 0;
            i++;
        }
        if (j > i) {
            if (!cast_run(rs, ctx, x + (intptr_t)i * xs, xs, j - i, vals)) {
                return;
            }
            fold_values(rs, acc, vals, j - i);
        }
        if (j < n && !rs->skipna) {
            if (!rs->dopt) {
                fail_acc_na(rs, ctx);
            } else {
                memcpy(acc, ck_option_na_bytes(ck_type_scalar(rs->a)), ckt_scalar(rs->a)->size);
            }
            return;
        }
        i = j + 1;
    }
}

/* One element into its own accumulator (the innermost level kept). */
static void run_each(rstate *rs, unsigned char *acc, const unsigned char *x,
                     const ref_ctx *ctx) {
    ckt_elem v;
    if (!rs->sopt) {
        if (rcast(rs, ctx, x, v.b)) {
            ref_elem_op(rs->rop, rs->a, acc, v.b, acc);
            rs_canon(rs, acc);
        }
        return;
    }
    const int x_na = rs_is_na(rs, 1, x), a_na = acc_na(rs, acc);
    if (!x_na && !a_na) {
        if (rcast(rs, ctx, x, v.b)) {
            ref_elem_op(rs->rop, rs->a, acc, v.b, acc);
            rs_canon(rs, acc);
        }
    } else if (!x_na) {
        if (rs->skipna && rcast(rs, ctx, x, acc)) { /* no element yet */
            rs_canon(rs, acc);
        }
    } else if (!rs->skipna) {
        if (!rs->dopt) {
            fail_acc_na(rs, ctx);
        } else {
            memcpy(acc, ck_option_na_bytes(ck_type_scalar(rs->a)), ckt_scalar(rs->a)->size);
        }
    }
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 5, 6)))
#endif
static void rlocated(rstate *rs, const ref_ctx *ctx, int status, const char *what,
                     const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ref_located_v(rs->r, ctx, status, what, fmt, ap);
    va_end(ap);
    rs->failed = 1;
}

/* A level's elements at p: count, first element, stride; 0 after a refused row. A var
 * destination level's row gets its length (the source row's, or below a reduced level
 * the longest so far: rows left-aligned) and a new offset in the key. */
static int rlevel(rstate *rs, int i, const unsigned char *p, rkey *key, const ref_ctx *ctx_in,
                  intptr_t *count, const unsigned char **first) {
    const rlev *l = &rs->lv[i];
    ref_ctx ctx = *ctx_in;
    ctx.dim = l->dim;
    const int grow = !rs->accumulate && !l->reduced && i > rs->first;
    const char *what = !l->reduced ? "var dimension"
                       : rs->accumulate ? "accumulated dimension"
                                        : "reduced dimension";
    *first = p;
    *count = l->size;
    if (l->svar) {
        ck_var_data v;
        memcpy(&v, p, sizeof v);
        if (v.begin == NULL) {
            rlocated(rs, &ctx, CK_ERR_UNINITIALIZED, what,
                     "the source is not allocated (begin is NULL)");
            return 0;
        }
        if (v.size > (size_t)INTPTR_MAX) {
            rlocated(rs, &ctx, CK_ERR_INVALID, what, grow ? "a row claims %zu elements"
                                                            : "the source row claims %zu elements",
                     v.size);
            return 0;
        }
        *first = (const unsigned char *)v.begin + l->soffset;
        *count = (intptr_t)v.size;
        if (l->reduced && rs->check_empty && v.size == 0) {
            rlocated(rs, &ctx, CK_ERR_INVALID, what,
                     "a row of no elements to reduce, and %s has no identity",
                     rs->rop == FZ_ROP_MINIMUM ? "minimum" : "maximum");
            return 0;
        }
    }
    if (l->dvar && (!l->reduced || rs->accumulate)) {
        rent *e = rfind(rs, key, 'R');
        e->len = grow && e->len > *count ? e->len : *count;
        CKF_CHECK(key->n < RK, "the reference's keys");
        key->c[key->n++] = 0;
    }
    return 1;
}

/* Element j of a kept level (or the axis) in the key. */
static rkey key_at(const rstate *rs, const rlev *l, rkey k, intptr_t j) {
    if (!l->dabsent && (!l->reduced || rs->accumulate)) {
        k.c[k.n - 1] += j * l->dstride;
    }
    return k;
}

static void ablock(rstate *rs, int i, const unsigned char *x, rkey key, intptr_t back,
                   const ref_ctx *ctx);

/* The source's levels from i on, in C order: a reduction's innermost level folds into the
 * accumulators; an accumulation's axis goes element by element over its blocks. */
static void rwalk(rstate *rs, int i, const unsigned char *p, rkey key, const ref_ctx *ctx) {
    if (rs->failed || rs->r->x->too_big) {
        return;
    }
    const rlev *l = &rs->lv[i];
    intptr_t count;
    const unsigned char *first;
    if (!rlevel(rs, i, p, &key, ctx, &count, &first)) {
        return;
    }
    if (!rs->accumulate && i == rs->n - 1) {
        if (l->reduced) {
            run_fold(rs, rfind(rs, &key, 'A')->v.b, first, l->sstride, (size_t)count, ctx);
            return;
        }
        for (intptr_t j = 0; j < count && !rs->failed; j++) {
            const rkey k = key_at(rs, l, key, j);
            run_each(rs, rfind(rs, &k, 'A')->v.b, first + j * l->sstride, ctx);
        }
        return;
    }
    for (intptr_t j = 0; j < count && !rs->failed; j++) {
        ref_ctx c2 = *ctx;
        ref_push_index(&c2, j);
        if (rs->accumulate && i == rs->first) {
            ablock(rs, i + 1, first + j * l->sstride, key_at(rs, l, key, j),
                   j == 0 ? 0 : l->dstride, &c2);
        } else {
            rwalk(rs, i + 1, first + j * l->sstride, key_at(rs, l, key, j), &c2);
        }
    }
}

/* An element of an accumulation of ?A along the innermost axis (no cast: T is A): NA ends
 * the row; with skipna NA repeats the value before it (cumsum's and cumprod's identity
 * where none is yet, else NA). The first value of a row is its own. */
static void aoption(rstate *rs, const unsigned char *x, rkey key, intptr_t back) {
    const size_t size = ckt_scalar(rs->a)->size;
    const unsigned char *na = ck_option_na_bytes(ck_type_scalar(rs->a));
    rent *e = rfind(rs, &key, 'A');
    if (back == 0) {
        rs->orow_end = 0;
        rs->orow_have = 0;
    }
    rkey pk = key;
    pk.c[pk.n - 1] -= back;
    const rent *prev = back == 0 ? NULL : rlookup(rs, &pk, 'A');
    if (rs->orow_end) {
        memcpy(e->v.b, na, size);
    } else if (ref_is_na(rs->t, x)) {
        if (!rs->skipna) {
            rs->orow_end = 1;
            memcpy(e->v.b, na, size);
        } else if (rs->orow_have) {
            CKF_CHECK(prev != NULL, "an accumulation's previous element");
            memcpy(e->v.b, prev->v.b, size);
        } else if (rs->rop == FZ_ROP_ADD || rs->rop == FZ_ROP_MULTIPLY) {
            memcpy(e->v.b, rs->start, size);
            rs->orow_have = 1;
        } else {
            memcpy(e->v.b, na, size);
        }
    } else if (!rs->orow_have) {
        memcpy(e->v.b, x, size);
        rs->orow_have = 1;
    } else {
        CKF_CHECK(prev != NULL, "an accumulation's previous element");
        ref_elem_op(rs->rop, rs->a, prev->v.b, x, e->v.b);
        rs_canon(rs, e->v.b);
    }
}

/* An element of an accumulation of ?A along an outer axis (no cast: T is A): out[0] = x[0]
 * (with skipna cumsum's and cumprod's identity for NA), then out[i] = out[i-1] folded with
 * x[i] as a reduction folds an element into its own accumulator (run_each). */
static void aoption_outer(rstate *rs, const unsigned char *x, rkey key, intptr_t back,
                          const ref_ctx *ctx) {
    const size_t size = ckt_scalar(rs->a)->size;
    rent *e = rfind(rs, &key, 'A');
    if (back == 0) {
        const int identity = rs->rop == FZ_ROP_ADD || rs->rop == FZ_ROP_MULTIPLY;
        memcpy(e->v.b, rs->skipna && identity && ref_is_na(rs->t, x) ? rs->start : x, size);
        return;
    }
    rkey pk = key;
    pk.c[pk.n - 1] -= back;
    const rent *prev = rlookup(rs, &pk, 'A');
    CKF_CHECK(prev != NULL, "an accumulation's previous element");
    unsigned char acc[sizeof e->v.b];
    memcpy(acc, prev->v.b, size);
    run_each(rs, acc, x, ctx);
    memcpy(e->v.b, acc, size);
}

/* An accumulation's block (the fixed levels below the axis) at element j of the axis:
 * out = x (j == 0) or op(out one step back, x). */
static void ablock(rstate *rs, int i, const unsigned char *x, rkey key, intptr_t back,
                   const ref_ctx *ctx) {
    if (rs->failed) {
        return;
    }
    if (i < rs->n) {
        const rlev *l = &rs->lv[i];
        for (intptr_t j = 0; j < l->size && !rs->failed; j++) {
            ablock(rs, i + 1, x + j * l->sstride, key_at(rs, l, key, j), back, ctx);
        }
        return;
    }
    if (rs->sopt) {
        if (rs->first == rs->n - 1) {
            aoption(rs, x, key, back);
        } else {
            aoption_outer(rs, x, key, back, ctx);
        }
        return;
    }
    ckt_elem v;
    if (!rcast(rs, ctx, x, v.b)) {
        return;
    }
    rent *e = rfind(rs, &key, 'A');
    if (back == 0) {
        memcpy(e->v.b, v.b, sizeof v.b);
        rs_canon(rs, e->v.b); /* the first element is a value too */
        return;
    }
    rkey pk = key;
    pk.c[pk.n - 1] -= back;
    const rent *prev = rlookup(rs, &pk, 'A');
    CKF_CHECK(prev != NULL, "an accumulation's previous element");
    ref_elem_op(rs->rop, rs->a, prev->v.b, v.b, e->v.b);
    rs_canon(rs, e->v.b);
}

/* Every destination element gets its accumulator's value; every var row is one the kernel
 * allocates. */
static void emit(rstate *rs, const fz_type *d, const char *dam, fz_loc dl, rkey key) {
    fz_expect *x = rs->r->x;
    switch (d->kind) {
    case FZ_FIXED: {
        const intptr_t n = ref_get_ip(dam), s = ref_get_ip(dam + FZ_W);
        for (intptr_t i = 0; i < n; i++) {
            rkey k = key;
            k.c[k.n - 1] += i * s;
            emit(rs, d->el, dam + 2 * FZ_W, ref_loc_add(dl, i * s), k);
        }
        return;
    }
    case FZ_VAR: {
        const rent *e = rlookup(rs, &key, 'R');
        const intptr_t n = e != NULL ? e->len : 0, s = ref_get_ip(dam + FZ_W);
        intptr_t elo, ehi;
        ref_alloc_extent(d->el, dam + 3 * FZ_W, &elo, &ehi);
        x->rows = (fz_vrow *)ref_grow(x->rows, &x->cap_rows, x->nrows, sizeof *x->rows);
        fz_vrow *vr = &x->rows[x->nrows];
        memset(vr, 0, sizeof *vr);
        vr->slot = dl;
        vr->n = n;
        vr->stride = s;
        vr->elem_size = ehi > 0 ? (size_t)ehi : 0;
        vr->seq = x->seq++;
        fz_loc row = {(int)x->nrows++, 0};
        for (intptr_t i = 0; i < n; i++) {
            rkey k = key;
            CKF_CHECK(k.n < RK, "the reference's keys");
            k.c[k.n++] = i * s;
            emit(rs, d->el, dam + 3 * FZ_W, ref_loc_add(row, i * s), k);
        }
        return;
    }
    default: {
        const rent *e = rlookup(rs, &key, 'A');
        ckt_expect v;
        memset(&v, 0, sizeof v);
        memcpy(v.out.b, e != NULL ? e->v.b : rs->start, ckt_scalar(rs->a)->size);
        /* NaN payloads are free; an NA is exact (a computed value never has its bits) */
        if (!(rs->dopt && ref_is_na(rs->a, v.out.b))) {
            ref_mark_nan(&v, rs->a);
        }
        if (rs->dcanon) {
            ref_write_option_value(rs->r, dl, rs->a, &v);
        } else {
            ref_write_value(rs->r, dl, rs->a, &v);
        }
        return;
    }
    }
}

/* ---- what building a reduction refuses ---- */

/* "NAME: cannot reduce SRC into DST: WHY". */
static void rshape_error(const fz_case *c, fz_expect *x, int status, const char *why) {
    char ds[FZ_SHOWN + 8], ss[FZ_SHOWN + 8];
    ref_shown_text(c->dst.t, ds, sizeof ds);
    ref_shown_text(c->src[0].t, ss, sizeof ss);
    /* the name and reasons are short: the precisions only bound them for gcc */
    snprintf(x->build_message, sizeof x->build_message, "%.40s: cannot %s %s into %s: %.400s",
             ck_callable_name(c->callable), c->op == FZ_OP_ACCUMULATE ? "accumulate" : "reduce",
             ss, ds, why);
    x->build_status = status;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static void rbuild_error(fz_expect *x, int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->build_message, sizeof x->build_message, fmt, ap);
    va_end(ap);
    x->build_status = status;
}

static int rcheck_fixed(fz_expect *x, const fz_type *t, const char *am, const char *which) {
    if (ref_get_ip(am) != t->n) {
        rbuild_error(x, CK_ERR_INVALID,
                     "the %s arrmeta gives a fixed dimension of size %td, its type says %td",
                     which, ref_get_ip(am), t->n);
        return 0;
    }
    return 1;
}

/* The reduction's levels (collect_levels in §14's walk): 0 after a refusal. */
static int reduce_levels(rstate *rs, uint64_t mask, uintptr_t *dbits, uintptr_t *sbits) {
    const fz_case *c = rs->c;
    fz_expect *x = rs->r->x;
    const int keepdims = (c->rflags & CK_REDUCE_KEEPDIMS) != 0;
    const fz_type *st = c->src[0].t, *dt = c->dst.t;
    const char *sam = c->src[0].am, *dam = c->dst.am;
    int below = 0, d = 0;
    for (; st->kind == FZ_FIXED || st->kind == FZ_VAR; d++) {
        rlev *l = &rs->lv[d];
        memset(l, 0, sizeof *l);
        l->reduced = (int)((mask >> d) & 1);
        l->dim = d;
        if (rs->accumulate && dt->kind != st->kind) {
            rshape_error(c, x, CK_ERR_BROADCAST,
                         "an accumulation's destination has the source's shape, var "
                         "dimensions where it has them");
            return 0;
        }
        if (st->kind == FZ_FIXED) {
            if (!rcheck_fixed(x, st, sam, "source")) {
                return 0;
            }
            l->size = ref_get_ip(sam);
            l->sstride = ref_get_ip(sam + FZ_W);
            sam += 2 * FZ_W;
        } else {
            l->svar = 1;
            l->sstride = ref_get_ip(sam + FZ_W);
            l->soffset = ref_get_ip(sam + 2 * FZ_W);
            *sbits |= (uintptr_t)l->soffset;
            sam += 3 * FZ_W;
        }
        *sbits |= (uintptr_t)l->sstride;
        st = st->el;
        if (rs->accumulate) {
            if (!l->svar) {
                if (!rcheck_fixed(x, dt, dam, "destination")) {
                    return 0;
                }
                if (ref_get_ip(dam) != l->size) {
                    char why[160];
                    snprintf(why, sizeof why,
                             "dimension %d has size %td in the destination and %td in the source",
                             d, ref_get_ip(dam), l->size);
                    rshape_error(c, x, CK_ERR_BROADCAST, why);
                    return 0;
                }
                l->dstride = ref_get_ip(dam + FZ_W);
                dam += 2 * FZ_W;
            } else {
                l->dvar = 1;
                l->dstride = ref_get_ip(dam + FZ_W);
                *dbits |= (uintptr_t)ref_get_ip(dam + 2 * FZ_W);
                dam += 3 * FZ_W;
            }
            *dbits |= (uintptr_t)l->dstride;
            dt = dt->el;
            continue;
        }
        if (l->reduced && !keepdims) {
            l->dabsent = 1;
            below = 1;
            continue;
        }
        if (dt->kind != FZ_FIXED && dt->kind != FZ_VAR) {
            rshape_error(c, x, CK_ERR_BROADCAST,
                         "the destination has fewer dimensions than the result");
            return 0;
        }
        if (l->reduced || dt->kind == FZ_FIXED) {
            if (dt->kind != FZ_FIXED) {
                rshape_error(c, x, CK_ERR_BROADCAST,
                             "a reduced dimension kept has size 1, fixed, in the destination");
                return 0;
            }
            if (!rcheck_fixed(x, dt, dam, "destination")) {
                return 0;
            }
            const intptr_t want = l->reduced ? 1 : l->size;
            if (ref_get_ip(dam) != want && (l->reduced || !l->svar)) {
                char why[160];
                snprintf(why, sizeof why,
                         "dimension %d has size %td in the destination and %td in the result%s", d,
                         ref_get_ip(dam), want, l->reduced ? " (a reduced dimension kept)" : "");
                rshape_error(c, x, CK_ERR_BROADCAST, why);
                return 0;
            }
            l->dabsent = l->reduced;
            l->dstride = l->reduced ? 0 : ref_get_ip(dam + FZ_W);
            dam += 2 * FZ_W;
        } else {
            l->dvar = 1;
            l->dstride = ref_get_ip(dam + FZ_W);
            *dbits |= (uintptr_t)ref_get_ip(dam + 2 * FZ_W);
            dam += 3 * FZ_W;
        }
        if (below && !l->reduced && l->svar != l->dvar) {
            char why[200];
            snprintf(why, sizeof why,
                     "dimension %d, below a reduced one, is %s in the source and %s in the "
                     "destination; it must be fixed in both or var in both",
                     d, l->svar ? "var" : "fixed", l->dvar ? "var" : "fixed");
            rshape_error(c, x, CK_ERR_BROADCAST, why);
            return 0;
        }
        below |= l->reduced;
        *dbits |= (uintptr_t)l->dstride;
        dt = dt->el;
    }
    if (dt->kind == FZ_FIXED || dt->kind == FZ_VAR) {
        rshape_error(c, x, CK_ERR_BROADCAST,
                     rs->accumulate ? "the destination has more dimensions than the source"
                                    : "the destination has more dimensions than the result");
        return 0;
    }
    rs->n = d;
    rs->dopt = dt->kind == FZ_OPTION;
    rs->dcanon = rs->dopt;
    return 1;
}

/* Merges neighbouring fixed levels both reduced or both kept, contiguous across in the
 * source and (kept) in the destination; never with a var level in the walk (§14). */
static void rcoalesce(rstate *rs) {
    for (int i = 0; i < rs->n; i++) {
        if (rs->lv[i].svar || rs->lv[i].dvar) {
            return;
        }
    }
    for (int i = rs->n - 2; i >= 0; i--) {
        rlev *o = &rs->lv[i];
        const rlev *in = &rs->lv[i + 1];
        if (o->reduced != in->reduced || in->size * in->sstride != o->sstride ||
            (!o->reduced && in->size * in->dstride != o->dstride)) {
            continue;
        }
        o->size *= in->size;
        o->sstride = in->sstride;
        o->dstride = in->dstride;
        for (int j = i + 1; j + 1 < rs->n; j++) {
            rs->lv[j] = rs->lv[j + 1];
        }
        rs->n--;
    }
}

/* Elements per chunk of the cast in front of an accumulate leaf: a stack scratch of 8 KiB
 * less 16 bytes, at most 1024 elements, whole groups of 16 (design.md §14). */
static size_t cast_chunk(ck_type_id id) {
    size_t n = (8192 - 16) / ckt_scalar(id)->size;
    n = n < 1024 ? n : 1024;
    return n >= 16 ? n & ~(size_t)15 : n;
}

void ref_reduce(const fz_case *c, fz_expect *x) {
    rstate rs;
    memset(&rs, 0, sizeof rs);
    ref_state r = {c, x};
    rs.r = &r;
    rs.c = c;
    rs.accumulate = c->op == FZ_OP_ACCUMULATE;
    rs.rop = c->rop;
    x->build_status = CK_OK;
    x->loose = 1;
    const char *name = ck_callable_name(c->callable);
    if ((unsigned)c->ctx.errmode > CK_ERRMODE_DEFAULT) {
        rbuild_error(x, CK_ERR_INVALID, "unknown error mode %d in the evaluation context",
                     (int)c->ctx.errmode);
        return;
    }
    if (rs.accumulate && (c->naxes != 1 || (c->rflags & CK_REDUCE_KEEPDIMS) != 0)) {
        rbuild_error(x, CK_ERR_INVALID,
                     "%s: an accumulation runs along one axis (naxes 1), without keepdims", name);
        return;
    }
    const int nd = c->src[0].t->dims;
    uint64_t mask = 0;
    if (c->naxes < 0) {
        mask = ((uint64_t)1 << nd) - 1;
    }
    for (int i = 0; i < c->naxes; i++) {
        const int a = c->axes[i] < 0 ? c->axes[i] + nd : c->axes[i];
        if (a < 0 || a >= nd) {
            rbuild_error(x, CK_ERR_INVALID,
                         "reduce: axis %d is out of range for a source of %d dimension%s",
                         c->axes[i], nd, nd == 1 ? "" : "s");
            return;
        }
        if ((mask >> a) & 1) {
            rbuild_error(x, CK_ERR_INVALID, "reduce: axis %d is given twice", c->axes[i]);
            return;
        }
        mask |= (uint64_t)1 << a;
    }
    /* The accumulator's type is the destination's scalar; the callable must have exactly
     * (A, A) -> A, selected for (A, A). */
    const fz_type *dv = c->dst.t, *sv = c->src[0].t;
    while (dv->kind == FZ_FIXED || dv->kind == FZ_VAR) {
        dv = dv->el;
    }
    while (sv->kind == FZ_FIXED || sv->kind == FZ_VAR) {
        sv = sv->el;
    }
    rs.a = dv->id;
    rs.t = sv->id;
    rs.sopt = sv->kind == FZ_OPTION;
    const ck_type_id ids[2] = {rs.a, rs.a};
    int index = -1;
    ck_clear_error();
    const int sel = ck_callable_select(c->callable, 2, ids, &c->ctx, &index, NULL);
    if (sel != CK_OK) {
        rbuild_error(x, sel, "%s", ck_last_error());
        return;
    }
    char *sigs = NULL;
    CKF_CHECK(ck_callable_signatures(c->callable, &sigs) == CK_OK, "%s", ck_last_error());
    const char *line = sigs;
    for (int i = 0; i < index && line != NULL; i++) {
        line = strchr(line, '\n');
        line = line != NULL ? line + 1 : NULL;
    }
    CKF_CHECK(line != NULL, "signature %d of %s", index, name);
    char want[128], text[128];
    snprintf(want, sizeof want, "(%s, %s) -> %s", ckt_scalar(rs.a)->name,
             ckt_scalar(rs.a)->name, ckt_scalar(rs.a)->name);
    snprintf(text, sizeof text, "%.*s", (int)strcspn(line, "\n"), line);
    ck_free(sigs);
    if (strcmp(want, text) != 0) {
        rbuild_error(x, CK_ERR_TYPE,
                     "%s cannot accumulate in %s: a reduction needs a signature %s, and the one "
                     "selected is %s",
                     name, ckt_scalar(rs.a)->name, want, text);
        return;
    }
    ref_start_value(rs.rop, rs.a, rs.start);
    rs.check_empty = !rs.accumulate && (rs.rop == FZ_ROP_MINIMUM || rs.rop == FZ_ROP_MAXIMUM);
    rs.skipna = (c->rflags & CK_REDUCE_SKIPNA) != 0;
    rs.mode = rs.a == CK_TYPE_BOOL ? CK_ERRMODE_NOCHECK : (int)c->mode;
    uintptr_t dbits = 0, sbits = 0;
    if (!reduce_levels(&rs, mask, &dbits, &sbits)) {
        return;
    }
    const char *misaligned = rs.accumulate ? "the destination's elements are misaligned; an "
                                             "accumulation writes aligned accumulators"
                                           : "the destination's elements are misaligned; a "
                                             "reduction writes aligned accumulators";
    const size_t align = ckt_scalar(rs.a)->align;
    if (rs.accumulate) {
        /* ?T accumulates into ?A along the innermost axis; a plain source into ?A as plain
         * A (§14) */
        if (rs.sopt && !rs.dopt) {
            rshape_error(c, x, CK_ERR_TYPE,
                         "an accumulation of options needs an option destination");
            return;
        }
        rs.dopt = rs.dopt && rs.sopt;
        if ((c->ctx.flags & CK_EVAL_DST_UNALIGNED) != 0 || (dbits & (align - 1)) != 0) {
            rshape_error(c, x, CK_ERR_UNSUPPORTED, misaligned);
            return;
        }
        rs.first = 0;
        while (!rs.lv[rs.first].reduced) {
            rs.first++;
        }
        for (int i = rs.first + 1; i < rs.n; i++) {
            if (rs.lv[i].svar) {
                rshape_error(c, x, CK_ERR_UNSUPPORTED,
                             "accumulations along a dimension above a var one are not built yet");
                return;
            }
        }
        /* along an outer axis an accumulator without identity (cummin, cummax) holds NA
         * until its first value, with skipna */
        rs.na_start = rs.sopt && rs.skipna && rs.first != rs.n - 1 &&
                      (rs.rop == FZ_ROP_MINIMUM || rs.rop == FZ_ROP_MAXIMUM);
        if (rs.sopt && rs.t != rs.a) {
            /* the option cast's own rules (a value cast onto the NA) are not modelled here:
             * the build is checked, the run is not */
            x->too_big = 1;
        }
    } else {
        rs.na_start = rs.sopt && rs.skipna && rs.check_empty;
        const unsigned char *na = ck_option_na_bytes(ck_type_scalar(rs.a));
        const size_t asize = ckt_scalar(rs.a)->size;
        if (rs.na_start) {
            if (!rs.dopt) {
                rshape_error(c, x, CK_ERR_TYPE,
                             "with skipna, a reduction without identity gives NA where no "
                             "element is left; the destination must be an option");
                return;
            }
            memcpy(rs.start, na, asize);
            rs.check_empty = 0;
        } else if (rs.dopt && memcmp(rs.start, na, asize) == 0) {
            /* minimum of an unsigned type, maximum of a signed one: from an option of A the
             * next value inward; from a plain source the destination folds as plain A; from
             * an option of another type, refused (§14) */
            if (!rs.sopt) {
                rs.dopt = 0;
            } else if (rs.t != rs.a) {
                rshape_error(c, x, CK_ERR_TYPE,
                             "the reduction's start value is the destination's NA, which an "
                             "element cast from another type can equal; reduce from an option "
                             "of the destination's type, or into a destination without NA");
                return;
            } else {
                uint64_t v = ref_load_u(rs.start, asize);
                v = rs.rop == FZ_ROP_MAXIMUM ? v + 1 : v - 1;
                ckt_put_low_bytes(rs.start, v, asize);
            }
        }
        if ((c->ctx.flags & CK_EVAL_DST_UNALIGNED) != 0 || (dbits & (align - 1)) != 0) {
            rshape_error(c, x, CK_ERR_UNSUPPORTED, misaligned);
            return;
        }
        for (int i = 0; rs.check_empty && i < rs.n; i++) {
            if (rs.lv[i].reduced && !rs.lv[i].svar && rs.lv[i].size == 0) {
                rbuild_error(x, CK_ERR_INVALID,
                             "%s: no elements to reduce (dimension %d has size 0), and %s has no "
                             "identity",
                             name, rs.lv[i].dim, name);
                return;
            }
        }
        rcoalesce(&rs);
        rs.first = 0;
        while (!rs.lv[rs.first].reduced) {
            rs.first++;
        }
    }
    const int src_misaligned = (c->ctx.flags & CK_EVAL_SRC_UNALIGNED) != 0 ||
                               (sbits & (ckt_scalar(rs.t)->align - 1)) != 0;
    rs.chunk = rs.t != rs.a || src_misaligned ? cast_chunk(rs.a) : 0;
    /* Run. */
    rtable_init(&rs, 256);
    for (intptr_t i = 0; i < c->root_count && !rs.failed; i++) {
        ref_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.call = -1;
        if (c->req == CK_REQUEST_STRIDED) {
            ref_push_index(&ctx, i);
        }
        rkey key = {2, {i, 0, 0, 0, 0, 0}};
        const unsigned char *sp = (const unsigned char *)c->src[0].data + i * c->root_src_stride[0];
        rwalk(&rs, 0, sp, key, &ctx);
    }
    /* After a failure (x->loose) the checker only covers these, without comparing. */
    for (intptr_t i = 0; i < c->root_count; i++) {
        rkey key = {2, {i, 0, 0, 0, 0, 0}};
        emit(&rs, c->dst.t, c->dst.am, ref_real_loc(c->dst.data + i * c->root_dst_stride), key);
    }
    free(rs.table);
    free(rs.vals);
}
