/* tests/fuzz/fuzz_compose_ref.c: the composition fuzzer's reference interpreter for
 * assignments and calls, and its entry (fz_reference; reductions and accumulations are
 * fuzz_compose_ref_reduce.c's). It knows nothing of kernels: it walks the destination and the
 * sources element by element, in C order, following the arrmeta as docs/design.md §6
 * defines it (fixed dimensions, var rows {begin, size} with the level's offset and stride,
 * pointers plus their offset, field offsets, the NA values of options), and applies the
 * rules of §7 (shapes, broadcasting, unallocated rows, NULL pointers, error modes), §10 (the
 * built-ins' arithmetic, the argument and result casts of a call) and §12 (records matched by
 * name or position, runs of identical fields copied as bytes, forward NA). Scalars, their
 * conversions (from the shared long-double oracle, tests/support/scalar_oracle.c) and
 * arithmetic are fuzz_compose_ref_scalar.c's.
 *
 * It records what the kernel must do: whether it builds (or the first build error, in the
 * composition's documented walk order: pointers, then dimensions from the outside, then
 * records and leaves), every destination element's expected bytes, every element or row that
 * fails with its status and message, and every destination row the kernel is to allocate. It
 * does not stop at a failure: a kernel whose order is not C order may report any failing
 * element (fuzz_compose.c says what is asserted when). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_compose_ref.h"

/* ---- walking ---- */

/* Destination bytes as they are before the kernel runs: the fuzzer's memory, or zeros in a
 * row the kernel allocates (an arena gives zero-filled memory). */
static void read_dst(const ref_state *r, fz_loc l, void *out, size_t n) {
    (void)r;
    if (l.row >= 0) {
        memset(out, 0, n);
    } else {
        memcpy(out, (const void *)l.at, n);
    }
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static void located(ref_state *r, const ref_ctx *ctx, int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ref_located_v(r, ctx, status, "var dimension", fmt, ap);
    va_end(ap);
}

/* ---- the build (what ck_make_assign / ck_make_call refuse) ---- */

typedef struct build_state {
    const fz_case *c;
    fz_expect *x;
    int done;
} build_state;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static void build_error(build_state *b, int status, const char *fmt, ...) {
    if (b->done) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->x->build_message, sizeof b->x->build_message, fmt, ap);
    va_end(ap);
    b->x->build_status = status;
    b->done = 1;
}

static void operand_text(const fz_case *c, int k, char *buf, size_t cap) {
    char t[FZ_SHOWN + 8];
    ref_shown_text(c->src[k].t, t, sizeof t);
    if (c->nsrc == 1) {
        snprintf(buf, cap, "source %s", t);
    } else {
        snprintf(buf, cap, "argument %d (%s)", k, t);
    }
}

static void extra_dims(build_state *b, int k, int extra) {
    char who[FZ_MSG], d[FZ_SHOWN + 8];
    operand_text(b->c, k, who, sizeof who);
    ref_shown_text(b->c->dst.t, d, sizeof d);
    build_error(b, CK_ERR_BROADCAST,
                "cannot assign %s into destination %s: the %s has %d more dimension%s than the "
                "destination can hold",
                who, d, b->c->nsrc == 1 ? "source" : "argument", extra, extra == 1 ? "" : "s");
}

static void size_mismatch(build_state *b, int k, int dim, intptr_t ssize, intptr_t dsize) {
    char who[FZ_MSG], d[FZ_SHOWN + 8];
    operand_text(b->c, k, who, sizeof who);
    ref_shown_text(b->c->dst.t, d, sizeof d);
    build_error(b, CK_ERR_BROADCAST,
                "cannot broadcast %s into destination %s: dimension %d has size %td in the %s and "
                "%td in the destination",
                who, d, dim, ssize, b->c->nsrc == 1 ? "source" : "argument", dsize);
}

static int check_fixed(build_state *b, const fz_type *t, const char *am, const char *which) {
    if (ref_get_ip(am) != t->n) {
        build_error(b, CK_ERR_INVALID,
                    "the %s arrmeta gives a fixed dimension of size %td, its type says %td", which,
                    ref_get_ip(am), t->n);
        return 0;
    }
    return 1;
}

typedef struct walk_pos {
    const fz_type *d;
    const char *dam;
    const fz_type *s[FZ_MAX_SRC];
    const char *sam[FZ_MAX_SRC];
    int dim;
} walk_pos;

static void build_walk(build_state *b, walk_pos w);

static int is_record(const fz_type *t) {
    return t->kind == FZ_TUPLE || t->kind == FZ_STRUCT;
}

/* match[i]: the source field of destination field i; 0 when they cannot be matched. */
static int match_fields(const fz_case *c, const fz_type *d, const fz_type *s, int *match,
                        char *why, size_t cap, const char **how) {
    const int by_name = d->kind == FZ_STRUCT && s->kind == FZ_STRUCT &&
                        (c->ctx.flags & CK_EVAL_FIELDS_BY_POSITION) == 0;
    if (!by_name) {
        *how = " by position";
        if (d->nf != s->nf) {
            snprintf(why, cap, "%d field%s into %d", s->nf, s->nf == 1 ? "" : "s", d->nf);
            return 0;
        }
        for (int i = 0; i < d->nf; i++) {
            match[i] = i;
        }
        return 1;
    }
    *how = " by name (CK_EVAL_FIELDS_BY_POSITION matches by position)";
    char missing[256] = "", extra[256] = "";
    int nmissing = 0, nextra = 0;
    for (int i = 0; i < d->nf; i++) {
        match[i] = -1;
        for (int j = 0; j < s->nf; j++) {
            if (strcmp(d->name[i], s->name[j]) == 0) {
                match[i] = j;
            }
        }
        if (match[i] < 0) {
            const size_t n = strlen(missing);
            snprintf(missing + n, sizeof missing - n, "%s%s", nmissing++ > 0 ? ", " : "",
                     d->name[i]);
        }
    }
    for (int j = 0; j < s->nf; j++) {
        int found = 0;
        for (int i = 0; i < d->nf; i++) {
            found |= strcmp(d->name[i], s->name[j]) == 0;
        }
        if (!found) {
            const size_t n = strlen(extra);
            snprintf(extra + n, sizeof extra - n, "%s%s", nextra++ > 0 ? ", " : "", s->name[j]);
        }
    }
    if (nmissing + nextra == 0) {
        return 1;
    }
    size_t used = 0;
    why[0] = '\0';
    if (nmissing > 0) {
        used += (size_t)snprintf(why, cap, "the source has no field%s %s",
                                 nmissing == 1 ? "" : "s", missing);
    }
    if (nextra > 0 && used < cap) {
        snprintf(why + used, cap - used, "%sthe destination has no field%s %s",
                 nmissing > 0 ? "; " : "", nextra == 1 ? "" : "s", extra);
    }
    return 0;
}

/* Runs of destination fields copied as bytes (docs/design.md §12): run[i] > 0 starts a run
 * of that many fields at i. */
static void field_runs(const fz_type *d, const char *dam, const fz_type *s, const char *sam,
                       const int *match, int *run) {
    int ordered = 1;
    for (int i = 1; i < d->nf; i++) {
        ordered &= ref_get_ip(dam + FZ_W * i) >=
                   ref_get_ip(dam + FZ_W * (i - 1)) + (intptr_t)d->f[i - 1]->size;
    }
    for (int i = 0; i < d->nf;) {
        int len = 0;
        while (ordered && i + len < d->nf) {
            const int k = i + len, j = match[k];
            const int same =
                fz_type_equal(d->f[k], s->f[j]) &&
                fz_arrmeta_is_default(d->f[k], dam + d->fam[k]) &&
                fz_arrmeta_is_default(s->f[j], sam + s->fam[j]) &&
                ref_get_ip(sam + FZ_W * j) - ref_get_ip(sam + FZ_W * match[i]) ==
                    ref_get_ip(dam + FZ_W * k) - ref_get_ip(dam + FZ_W * i);
            if (!same) {
                break;
            }
            len++;
        }
        run[i] = len;
        for (int q = 1; q < len; q++) {
            run[i + q] = -1; /* inside a run */
        }
        i += len > 0 ? len : 1;
    }
}

static void build_fields(build_state *b, const walk_pos *w) {
    const fz_case *c = b->c;
    const fz_type *d = w->d, *s = w->s[0];
    if (c->nsrc != 1) {
        build_error(b, CK_ERR_TYPE, "a call takes scalar arguments, not %s values",
                    ck_type_id_name(is_record(d) ? (d->kind == FZ_TUPLE ? CK_TYPE_TUPLE
                                                                          : CK_TYPE_STRUCT)
                                                 : (s->kind == FZ_TUPLE ? CK_TYPE_TUPLE
                                                                        : CK_TYPE_STRUCT)));
        return;
    }
    char dt[FZ_SHOWN + 8], st[FZ_SHOWN + 8], why[600];
    ref_shown_text(d, dt, sizeof dt);
    ref_shown_text(s, st, sizeof st);
    if (!is_record(d) || !is_record(s)) {
        build_error(b, CK_ERR_TYPE, "cannot assign %s into %s: %s", st, dt,
                    is_record(d) ? "a tuple or struct takes a tuple or struct"
                                 : "only a tuple or struct assigns to one");
        return;
    }
    int match[FZ_MAX_FIELDS];
    const char *how = "";
    if (!match_fields(c, d, s, match, why, sizeof why, &how)) {
        build_error(b, CK_ERR_TYPE, "cannot assign %s into %s%s: %s", st, dt, how, why);
        return;
    }
    int run[FZ_MAX_FIELDS];
    field_runs(d, w->dam, s, w->sam[0], match, run);
    for (int i = 0; i < d->nf && !b->done; i++) {
        if (run[i] != 0) {
            continue; /* copied as bytes: equal types, default arrmeta: nothing to refuse */
        }
        walk_pos f;
        memset(&f, 0, sizeof f);
        f.d = d->f[i];
        f.dam = w->dam + d->fam[i];
        f.s[0] = s->f[match[i]];
        f.sam[0] = w->sam[0] + s->fam[match[i]];
        f.dim = w->dim;
        build_walk(b, f);
    }
}

/* The composition's walk (docs/design.md §10): pointers (the destination's, then each
 * source's in order), then a level of dimensions: the rank of every source, then per fixed
 * level the destination's arrmeta and each source's arrmeta and size; var levels check only
 * arrmeta at build time; then records, options and leaves. */
static void build_walk(build_state *b, walk_pos w) {
    const int ns = b->c->nsrc;
    while (!b->done) {
        if (w.d->kind == FZ_POINTER) {
            w.d = w.d->el;
            w.dam += 2 * FZ_W;
            continue;
        }
        int ptr = -1;
        for (int k = 0; k < ns && ptr < 0; k++) {
            ptr = w.s[k]->kind == FZ_POINTER ? k : -1;
        }
        if (ptr >= 0) {
            w.s[ptr] = w.s[ptr]->el;
            w.sam[ptr] += 2 * FZ_W;
            continue;
        }
        const int dnd = w.d->dims;
        int has[FZ_MAX_SRC], any_var = w.d->kind == FZ_VAR;
        for (int k = 0; k < ns; k++) {
            if (w.s[k]->dims > dnd) {
                extra_dims(b, k, w.s[k]->dims - dnd);
                return;
            }
            has[k] = w.s[k]->dims == dnd;
            any_var |= has[k] && w.s[k]->kind == FZ_VAR;
        }
        if (dnd == 0) {
            int fields = is_record(w.d);
            for (int k = 0; k < ns; k++) {
                fields |= is_record(w.s[k]);
            }
            if (fields) {
                build_fields(b, &w);
            }
            return;
        }
        if (!any_var) {
            /* a run of fixed levels */
            int n = 0;
            while (w.d->kind == FZ_FIXED) {
                const int level_dnd = w.d->dims;
                int stop = 0;
                for (int k = 0; k < ns && !stop; k++) {
                    if (w.s[k]->kind == FZ_POINTER) {
                        stop = 1;
                        break;
                    }
                    if (w.s[k]->dims > level_dnd) {
                        extra_dims(b, k, w.s[k]->dims - level_dnd);
                        return;
                    }
                    has[k] = w.s[k]->dims == level_dnd;
                    if (has[k] && w.s[k]->kind != FZ_FIXED) {
                        stop = 1;
                    }
                }
                if (stop) {
                    break;
                }
                if (!check_fixed(b, w.d, w.dam, "destination")) {
                    return;
                }
                for (int k = 0; k < ns; k++) {
                    if (!has[k]) {
                        continue;
                    }
                    if (!check_fixed(b, w.s[k], w.sam[k], ns == 1 ? "source" : "argument")) {
                        return;
                    }
                    if (w.s[k]->n != w.d->n && w.s[k]->n != 1) {
                        size_mismatch(b, k, w.dim + n, w.s[k]->n, w.d->n);
                        return;
                    }
                    w.s[k] = w.s[k]->el;
                    w.sam[k] += 2 * FZ_W;
                }
                w.d = w.d->el;
                w.dam += 2 * FZ_W;
                n++;
            }
            w.dim += n;
            continue;
        }
        for (int k = 0; k < ns; k++) {
            if (!has[k]) {
                continue;
            }
            if (w.s[k]->kind == FZ_FIXED) {
                if (!check_fixed(b, w.s[k], w.sam[k], ns == 1 ? "source" : "argument")) {
                    return;
                }
                w.sam[k] += 2 * FZ_W;
            } else {
                w.sam[k] += 3 * FZ_W;
            }
            w.s[k] = w.s[k]->el;
        }
        if (w.d->kind == FZ_FIXED) {
            if (!check_fixed(b, w.d, w.dam, "destination")) {
                return;
            }
            w.dam += 2 * FZ_W;
        } else {
            w.dam += 3 * FZ_W;
        }
        w.d = w.d->el;
        w.dim++;
    }
}

static const char *callable_name(const fz_case *c) {
    return ck_callable_name(c->callable);
}

static void reference_build(const fz_case *c, fz_expect *x) {
    build_state b = {c, x, 0};
    x->build_status = CK_OK;
    if (c->op == FZ_OP_CALL) {
        for (int k = 0; k < c->nsrc; k++) {
            const fz_type *t = c->src[k].t;
            while (!is_record(t) && t->kind != FZ_SCALAR && t->kind != FZ_OPTION) {
                t = t->el;
            }
            if (is_record(t)) {
                char text[FZ_MSG];
                fz_type_text(c->src[k].t, text, sizeof text);
                build_error(&b, CK_ERR_TYPE,
                            "%s: argument %d is %s; callables take scalars (under dimensions, "
                            "pointers and options), not tuples, structs or text",
                            callable_name(c), k, text);
                return;
            }
        }
    }
    if ((unsigned)c->ctx.errmode > CK_ERRMODE_DEFAULT) {
        build_error(&b, CK_ERR_INVALID, "unknown error mode %d in the evaluation context",
                    (int)c->ctx.errmode);
        return;
    }
    if (c->op == FZ_OP_CALL && c->sig_status != CK_OK) {
        build_error(&b, c->sig_status, "%s", c->sig_message);
        return;
    }
    /* subtract's (bool, bool) signature refuses (docs/design.md §10: NumPy has no bool
     * subtract either); selection finds it only for two bools. */
    if (c->op == FZ_OP_CALL && c->arith == FZ_ARITH_SUBTRACT && c->sig.args[0] == CK_TYPE_BOOL) {
        build_error(&b, CK_ERR_TYPE, "subtract: bool - bool is not defined (NumPy refuses it "
                                     "too); cast an argument to an integer type to subtract");
        return;
    }
    walk_pos w;
    memset(&w, 0, sizeof w);
    w.d = c->dst.t;
    w.dam = c->dst.am;
    for (int k = 0; k < c->nsrc; k++) {
        w.s[k] = c->src[k].t;
        w.sam[k] = c->src[k].am;
    }
    build_walk(&b, w);
}

/* ---- the run ---- */

static void walk(ref_state *r, const fz_type *d, const char *dam, fz_loc dl, walk_pos *sw,
                 const unsigned char *const *sp, const ref_ctx *ctx);

static void fail_na(ref_state *r, const ref_ctx *ctx, ck_type_id dval) {
    fz_fail *f = ref_add_fail(r->x, CK_ERR_NA, ctx->prefix);
    ref_set_text(f, 0, "NA at element %c cannot be assigned to %s, which is not an option type",
             FZ_ANY_NUMBER, ckt_scalar(dval)->name);
}

static void write_keep(ref_state *r, fz_loc dl, size_t size) {
    ref_add_write(r->x, dl, (uint32_t)size, FZ_W_KEEP);
}

/* The value of a converted element may not be the destination's NA in a checked mode. */
static int lands_on_na(const fz_case *c, int dopt, ck_type_id dval, const ckt_expect *e) {
    return dopt && c->mode != CK_ERRMODE_NOCHECK && ref_is_na(dval, e->out.b);
}

static void fail_na_value(ref_state *r, const ref_ctx *ctx, ck_type_id dval) {
    fz_fail *f = ref_add_fail(r->x, CK_ERR_OVERFLOW, ctx->prefix);
    ref_set_text(f, 0, "the value at element %c converts to the NA of ?%s (its reserved value)",
             FZ_ANY_NUMBER, ckt_scalar(dval)->name);
}

static void leaf_assign(ref_state *r, const fz_type *d, fz_loc dl, const fz_type *s,
                        const unsigned char *sp, const ref_ctx *ctx) {
    const ck_type_id dval = d->id, sval = s->id;
    const int dopt = d->kind == FZ_OPTION, sopt = s->kind == FZ_OPTION;
    ckt_expect e;
    if (dopt && sval == dval) { /* T -> ?T and ?T -> ?T copy: NA travels as its bits */
        e = ckt_oracle(dval, sval, CK_ERRMODE_NOCHECK, sp);
        ref_write_value(r, dl, dval, &e);
        return;
    }
    if (sopt && ref_is_na(sval, sp)) {
        if (dopt) {
            memset(&e, 0, sizeof e);
            memcpy(e.out.b, ck_option_na_bytes(ck_type_scalar(dval)), ckt_scalar(dval)->size);
            ref_write_value(r, dl, dval, &e);
        } else {
            fail_na(r, ctx, dval);
            write_keep(r, dl, ckt_scalar(dval)->size);
        }
        return;
    }
    e = ref_convert(dval, sval, r->c->mode, sp);
    if (e.status != CK_OK) {
        ref_fail_leaf(r, ctx, e.status, dval, sval, sp);
        write_keep(r, dl, ckt_scalar(dval)->size);
        return;
    }
    if (dopt) {
        ref_canon_na(dval, e.out.b); /* a float's: then never on the NA */
    }
    if (lands_on_na(r->c, dopt, dval, &e)) {
        fail_na_value(r, ctx, dval);
        write_keep(r, dl, ckt_scalar(dval)->size);
        return;
    }
    if (dopt) {
        ref_write_option_value(r, dl, dval, &e);
    } else {
        ref_write_value(r, dl, dval, &e);
    }
}

static void leaf_call(ref_state *r, const fz_type *d, fz_loc dl, const fz_type *const *s,
                      const unsigned char *const *sp, const ref_ctx *ctx) {
    const fz_case *c = r->c;
    const ck_type_id dval = d->id;
    const int dopt = d->kind == FZ_OPTION;
    const size_t dsize = ckt_scalar(dval)->size;
    int na = 0;
    for (int k = 0; k < c->nsrc; k++) {
        na |= s[k]->kind == FZ_OPTION && ref_is_na(s[k]->id, sp[k]);
    }
    ckt_expect e;
    if (na) { /* NA in any argument gives NA out */
        if (dopt) {
            memset(&e, 0, sizeof e);
            memcpy(e.out.b, ck_option_na_bytes(ck_type_scalar(dval)), dsize);
            ref_write_value(r, dl, dval, &e);
        } else {
            fail_na(r, ctx, dval);
            write_keep(r, dl, dsize);
        }
        return;
    }
    /* The arguments' casts to the signature's types, in argument order. */
    ckt_expect arg[FZ_MAX_SRC];
    for (int k = 0; k < c->nsrc; k++) {
        arg[k] = ref_convert(c->sig.args[k], s[k]->id, c->mode, sp[k]);
        if (arg[k].status != CK_OK) {
            ref_fail_leaf(r, ctx, arg[k].status, c->sig.args[k], s[k]->id, sp[k]);
            write_keep(r, dl, dsize);
            return;
        }
    }
    ckt_expect res;
    int rc;
    if (c->arith == FZ_ARITH_DIVIDE && c->sig.args[0] == CK_TYPE_BOOL) {
        /* (bool, bool) -> int8: the truth values (any non-zero byte is true) divided */
        for (int k = 0; k < 2; k++) {
            arg[k].out.b[0] = arg[k].out.b[0] != 0;
        }
    }
    if (c->arith == FZ_ARITH_ASSIGN) {
        res = arg[0];
        rc = CK_OK;
    } else {
        rc = ref_arith2(c->arith == FZ_ARITH_SUM3 ? FZ_ARITH_ADD : c->arith, c->sig.ret,
                        arg[0].out.b, arg[1].out.b, &res);
        if (rc == CK_OK && c->arith == FZ_ARITH_SUM3) {
            ckt_expect ab = res;
            rc = ref_arith2(FZ_ARITH_ADD, c->sig.ret, ab.out.b, arg[2].out.b, &res);
        }
    }
    if (rc != CK_OK) {
        fz_fail *f = ref_add_fail(r->x, rc, ctx->prefix);
        /* from a single call, or located by the loops that reached the element */
        ref_set_text(f, 0, "trunc_divide: integer division by zero");
        ref_set_text(f, 1, "trunc_divide: integer division by zero at element %c", FZ_ANY_INDEX);
        write_keep(r, dl, dsize);
        return;
    }
    /* The result's cast to the destination. */
    if (c->sig.ret == dval) {
        e = res;
    } else {
        e = ref_convert(dval, c->sig.ret, c->mode, res.out.b);
        if (e.status != CK_OK) {
            ref_fail_leaf(r, ctx, e.status, dval, c->sig.ret, res.out.b);
            r->x->fails[r->x->nfails - 1].leaf_value = res.out;
            write_keep(r, dl, dsize);
            return;
        }
    }
    if (dopt) {
        ref_canon_na(dval, e.out.b);
    }
    if (lands_on_na(c, dopt, dval, &e)) {
        fail_na_value(r, ctx, dval);
        write_keep(r, dl, dsize);
        return;
    }
    if (dopt) {
        ref_write_option_value(r, dl, dval, &e);
    } else {
        ref_write_value(r, dl, dval, &e);
    }
}

static void walk_fields(ref_state *r, const fz_type *d, const char *dam, fz_loc dl,
                        walk_pos *sw, const unsigned char *sp, const ref_ctx *ctx) {
    const fz_type *s = sw->s[0];
    int match[FZ_MAX_FIELDS], run[FZ_MAX_FIELDS];
    char why[600];
    const char *how;
    CKF_CHECK(match_fields(r->c, d, s, match, why, sizeof why, &how), "fields built: %s", why);
    field_runs(d, dam, s, sw->sam[0], match, run);
    /* The whole record as one byte copy, or each run of fields; the others field by field. */
    for (int i = 0; i < d->nf; i++) {
        if (run[i] < 0) {
            continue;
        }
        const intptr_t doff = ref_get_ip(dam + FZ_W * i), soff = ref_get_ip(sw->sam[0] + FZ_W * match[i]);
        if (run[i] > 0) {
            /* up to the furthest reach of the run's fields: a record's tail padding is not
             * written, nor an empty field's place (a row allocated for the destination ends
             * before them) */
            intptr_t span = 0;
            for (int k = i; k < i + run[i]; k++) {
                intptr_t lo, hi;
                ref_alloc_extent(d->f[k], dam + d->fam[k], &lo, &hi);
                if (hi > lo && ref_get_ip(dam + FZ_W * k) - doff + hi > span) {
                    span = ref_get_ip(dam + FZ_W * k) - doff + hi;
                }
            }
            if (span > 0) {
                fz_write *w =
                    ref_add_write(r->x, ref_loc_add(dl, doff), (uint32_t)span, FZ_W_BYTES);
                w->bytes = sp + soff;
            }
            continue;
        }
        /* The destination field's name (a tuple's: its position) goes in front of the
         * message, behind an enclosing record's. */
        ref_ctx fctx = *ctx;
        const size_t n = strlen(fctx.prefix);
        if (d->kind == FZ_STRUCT) {
            snprintf(fctx.prefix + n, sizeof fctx.prefix - n, "field %s: ", d->name[i]);
        } else {
            snprintf(fctx.prefix + n, sizeof fctx.prefix - n, "field %d: ", i);
        }
        walk_pos fw;
        memset(&fw, 0, sizeof fw);
        fw.s[0] = s->f[match[i]];
        fw.sam[0] = sw->sam[0] + s->fam[match[i]];
        const unsigned char *fsp[1] = {sp + soff};
        walk(r, d->f[i], dam + d->fam[i], ref_loc_add(dl, doff), &fw, fsp, &fctx);
    }
}

static void walk(ref_state *r, const fz_type *d, const char *dam, fz_loc dl, walk_pos *sw_in,
                 const unsigned char *const *sp_in, const ref_ctx *ctx_in) {
    const fz_case *c = r->c;
    const int ns = c->nsrc;
    walk_pos sw = *sw_in;
    const unsigned char *sp[FZ_MAX_SRC];
    for (int k = 0; k < ns; k++) {
        sp[k] = sp_in[k];
    }
    if (r->x->nwrites + r->x->nfails > 400000) {
        r->x->too_big = 1;
        return;
    }
    /* the destination's pointer */
    if (d->kind == FZ_POINTER) {
        char *p;
        read_dst(r, dl, &p, sizeof p);
        if (p == NULL) {
            fz_fail *f = ref_add_fail(r->x, CK_ERR_UNINITIALIZED, ctx_in->prefix);
            if (ctx_in->call >= 0) {
                ref_set_text(f, 0, "pointer: the destination pointer of element %td is NULL",
                         ctx_in->call);
                if (ctx_in->prefix[0] != '\0') { /* a field's run: counted within its block */
                    ref_set_text(f, 1, "pointer: the destination pointer of element %c is NULL",
                             FZ_ANY_NUMBER);
                }
            } else {
                ref_set_text(f, 0, "pointer: the destination pointer is NULL");
            }
            return;
        }
        ref_ctx ctx = *ctx_in;
        ctx.call = -1;
        walk(r, d->el, dam + 2 * FZ_W, ref_real_loc(p + ref_get_ip(dam + FZ_W)), &sw, sp, &ctx);
        return;
    }
    /* a source's pointer: the first source that has one */
    for (int k = 0; k < ns; k++) {
        if (sw.s[k]->kind != FZ_POINTER) {
            continue;
        }
        char *p;
        memcpy(&p, sp[k], sizeof p);
        if (p == NULL) {
            fz_fail *f = ref_add_fail(r->x, CK_ERR_UNINITIALIZED, ctx_in->prefix);
            if (ctx_in->call >= 0) {
                ref_set_text(f, 0, "pointer: the source pointer of element %td is NULL",
                             ctx_in->call);
                if (ctx_in->prefix[0] != '\0') { /* a field's run: counted within its block */
                    ref_set_text(f, 1, "pointer: the source pointer of element %c is NULL",
                             FZ_ANY_NUMBER);
                }
            } else {
                ref_set_text(f, 0, "pointer: the source pointer is NULL");
            }
            return;
        }
        sp[k] = (const unsigned char *)p + ref_get_ip(sw.sam[k] + FZ_W);
        sw.sam[k] += 2 * FZ_W;
        sw.s[k] = sw.s[k]->el;
        ref_ctx ctx = *ctx_in;
        ctx.call = -1;
        walk(r, d, dam, dl, &sw, sp, &ctx);
        return;
    }
    const int dnd = d->dims;
    int has[FZ_MAX_SRC], any_var = d->kind == FZ_VAR, fields = is_record(d);
    for (int k = 0; k < ns; k++) {
        has[k] = sw.s[k]->dims == dnd;
        any_var |= dnd > 0 && has[k] && sw.s[k]->kind == FZ_VAR;
        fields |= is_record(sw.s[k]);
    }
    if (dnd == 0) {
        if (fields) {
            walk_fields(r, d, dam, dl, &sw, sp[0], ctx_in);
        } else if (c->op == FZ_OP_ASSIGN) {
            leaf_assign(r, d, dl, sw.s[0], sp[0], ctx_in);
        } else {
            leaf_call(r, d, dl, sw.s, sp, ctx_in);
        }
        return;
    }
    /* One level of dimensions: each source's row (size, stride, start). */
    intptr_t sn[FZ_MAX_SRC], ss[FZ_MAX_SRC];
    const unsigned char *srow[FZ_MAX_SRC];
    walk_pos el;
    memset(&el, 0, sizeof el);
    intptr_t common = 1;
    for (int k = 0; k < ns; k++) {
        el.s[k] = sw.s[k];
        el.sam[k] = sw.sam[k];
        srow[k] = sp[k];
        sn[k] = 1;
        ss[k] = 0;
        if (!has[k]) {
            continue; /* a missing dimension broadcasts */
        }
        const fz_type *t = sw.s[k];
        if (t->kind == FZ_FIXED) {
            sn[k] = ref_get_ip(sw.sam[k]);
            ss[k] = ref_get_ip(sw.sam[k] + FZ_W);
            el.sam[k] = sw.sam[k] + 2 * FZ_W;
        } else {
            ck_var_data v;
            memcpy(&v, sp[k], sizeof v);
            if (v.begin == NULL) {
                if (ns == 1) {
                    located(r, ctx_in, CK_ERR_UNINITIALIZED,
                            "the source is not allocated (begin is NULL)");
                } else {
                    located(r, ctx_in, CK_ERR_UNINITIALIZED,
                            "argument %d is not allocated (begin is NULL)", k);
                }
                return;
            }
            if (v.size > (size_t)INTPTR_MAX) {
                located(r, ctx_in, CK_ERR_INVALID, "the source row claims %zu elements", v.size);
                return;
            }
            sn[k] = (intptr_t)v.size;
            ss[k] = ref_get_ip(sw.sam[k] + FZ_W);
            srow[k] = (const unsigned char *)v.begin + ref_get_ip(sw.sam[k] + 2 * FZ_W);
            el.sam[k] = sw.sam[k] + 3 * FZ_W;
        }
        el.s[k] = t->el;
        if (any_var && sn[k] != 1) {
            if (common != 1 && common != sn[k]) {
                located(r, ctx_in, CK_ERR_BROADCAST,
                        "cannot broadcast arguments of sizes %td and %td together", common,
                        sn[k]);
                return;
            }
            common = sn[k];
        }
    }
    fz_loc drow;
    intptr_t dn, ds;
    const char *delam;
    if (d->kind == FZ_VAR) {
        ck_var_data v;
        read_dst(r, dl, &v, sizeof v);
        ds = ref_get_ip(dam + FZ_W);
        delam = dam + 3 * FZ_W;
        if (v.begin == NULL) {
            const intptr_t n = ns == 1 ? sn[0] : common;
            ck_memblock *b;
            memcpy(&b, dam, sizeof b);
            const intptr_t offset = ref_get_ip(dam + 2 * FZ_W);
            if (offset != 0) {
                located(r, ctx_in, CK_ERR_INVALID,
                        "the destination is unallocated but its arrmeta has offset %td; only "
                        "offset 0 can be allocated",
                        offset);
                return;
            }
            if (b == NULL || ck_memblock_get_kind(b) != CK_MEMBLOCK_ARENA) {
                located(r, ctx_in, CK_ERR_INVALID,
                        "the destination is unallocated and its arrmeta has no arena memory "
                        "block to allocate from");
                return;
            }
            intptr_t elo, ehi;
            ref_alloc_extent(d->el, delam, &elo, &ehi);
            if (elo < 0) {
                located(r, ctx_in, CK_ERR_INVALID,
                        "cannot allocate an unallocated destination whose element arrmeta "
                        "reaches before the element's start");
                return;
            }
            const size_t esz = ehi > 0 ? (size_t)ehi : 0;
            if (ds < 0 || (n > 1 && (size_t)ds < esz)) {
                located(r, ctx_in, CK_ERR_INVALID,
                        "cannot allocate an unallocated destination with stride %td for elements "
                        "of %zu bytes",
                        ds, esz);
                return;
            }
            fz_expect *x = r->x;
            x->rows = (fz_vrow *)ref_grow(x->rows, &x->cap_rows, x->nrows, sizeof *x->rows);
            fz_vrow *vr = &x->rows[x->nrows];
            memset(vr, 0, sizeof *vr);
            vr->slot = dl;
            vr->n = n;
            vr->stride = ds;
            vr->elem_size = esz;
            vr->seq = x->seq++;
            drow.row = (int)x->nrows++;
            drow.at = 0;
            dn = n;
        } else {
            if (v.size > (size_t)INTPTR_MAX) {
                located(r, ctx_in, CK_ERR_INVALID, "the destination row claims %zu elements",
                        v.size);
                return;
            }
            drow = ref_real_loc(v.begin + ref_get_ip(dam + 2 * FZ_W));
            dn = (intptr_t)v.size;
        }
    } else {
        drow = dl;
        dn = ref_get_ip(dam);
        ds = ref_get_ip(dam + FZ_W);
        delam = dam + 2 * FZ_W;
    }
    for (int k = 0; k < ns; k++) {
        if (sn[k] == dn) {
            continue;
        }
        if (sn[k] != 1) {
            /* fixed levels were checked when the kernel was built */
            if (ns == 1) {
                located(r, ctx_in, CK_ERR_BROADCAST,
                        "cannot broadcast a source of size %td into a destination of size %td",
                        sn[k], dn);
            } else {
                located(r, ctx_in, CK_ERR_BROADCAST,
                        "cannot broadcast argument %d of size %td into a destination of size %td",
                        k, sn[k], dn);
            }
            return;
        }
        ss[k] = 0;
    }
    for (intptr_t i = 0; i < dn && !r->x->too_big; i++) {
        ref_ctx ctx = *ctx_in;
        ref_push_index(&ctx, i);
        ctx.call = i;
        ctx.dim = ctx_in->dim + 1;
        const unsigned char *e[FZ_MAX_SRC];
        for (int k = 0; k < ns; k++) {
            e[k] = srow[k] + i * ss[k];
        }
        walk(r, d->el, delam, ref_loc_add(drow, i * ds), &el, e, &ctx);
    }
}

void fz_reference(const fz_case *c, fz_expect *x) {
    memset(x, 0, sizeof *x);
    if (c->op == FZ_OP_REDUCE || c->op == FZ_OP_ACCUMULATE) {
        ref_reduce(c, x);
        return;
    }
    reference_build(c, x);
    if (x->build_status != CK_OK) {
        return;
    }
    ref_state r = {c, x};
    walk_pos sw;
    memset(&sw, 0, sizeof sw);
    for (int k = 0; k < c->nsrc; k++) {
        sw.s[k] = c->src[k].t;
        sw.sam[k] = c->src[k].am;
    }
    /* A strided call of the root is one more dimension outside the kernel: its index counts
     * in located errors and elements as any enclosing dimension's. */
    const intptr_t n = c->req == CK_REQUEST_STRIDED ? c->root_count : 1;
    for (intptr_t i = 0; i < n && !x->too_big; i++) {
        ref_ctx ctx;
        memset(&ctx, 0, sizeof ctx);
        ctx.call = -1;
        if (c->req == CK_REQUEST_STRIDED) {
            ref_push_index(&ctx, i);
            ctx.call = i;
        }
        const unsigned char *sp[FZ_MAX_SRC];
        for (int k = 0; k < c->nsrc; k++) {
            sp[k] = (const unsigned char *)c->src[k].data + i * c->root_src_stride[k];
        }
        walk(&r, c->dst.t, c->dst.am, ref_real_loc(c->dst.data + i * c->root_dst_stride), &sw, sp,
             &ctx);
    }
}
