/* tests/fuzz/fuzz_compose_gen.c: decodes a fuzz input into a composition case: a
 * destination type and 1-3 source types (every scalar; fixed, var and pointer levels;
 * broadcast shapes; tuples and structs; options), their arrmeta (strides zero, negative and
 * odd, permuted for transposes, var and pointer offsets, custom field layouts), their data in
 * guarded buffers the fuzzer owns, and a context (error mode, flags, CPU target cap,
 * streaming threshold, how the root is called). The structure comes from the input's bytes
 * one decision at a time; bulk element values come from a generator seeded by the input, so
 * short inputs still describe long arrays. Everything is deterministic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_compose.h"

/* Limits per input, so that one input stays a few milliseconds. */
#define FZ_MAX_ELEMENTS 6000
#define FZ_MAX_BYTES ((size_t)1 << 20)
#define FZ_MAX_REGIONS 4096

/* splitmix64 */
uint64_t fz_rand(fz_in *in) {
    uint64_t z = (in->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The input's next byte; past its end, the generator's (seeded by the input): a short input
 * still decides everything, deterministically. */
unsigned fz_u8(fz_in *in) {
    return in->i < in->n ? in->p[in->i++] : (unsigned)(fz_rand(in) >> 56);
}

unsigned fz_pick(fz_in *in, unsigned n) {
    return n <= 1 ? 0u : fz_u8(in) % n;
}

static unsigned rnd(fz_in *in, unsigned n) {
    return n <= 1 ? 0u : (unsigned)(fz_rand(in) % n);
}

/* ---- types ---- */

static size_t align_up(size_t x, size_t a) {
    return (x + a - 1) / a * a;
}

static fz_type *new_type(fz_case *c, fz_kind kind) {
    if (c->npool >= (int)(sizeof c->pool / sizeof c->pool[0])) {
        return NULL;
    }
    fz_type *t = &c->pool[c->npool++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    return t;
}

/* Sizes, alignment, arrmeta layout and the C layout of records (docs/design.md §6). */
static void finish(fz_type *t) {
    switch (t->kind) {
    case FZ_SCALAR:
    case FZ_OPTION:
        t->size = ckt_scalar(t->id)->size;
        t->align = ckt_scalar(t->id)->align;
        t->amsize = 0;
        t->dims = 0;
        t->blockref = 0;
        break;
    case FZ_FIXED:
        t->size = (size_t)t->n * t->el->size;
        t->align = t->el->align;
        t->amsize = sizeof(ck_fixed_dim_arrmeta) + t->el->amsize;
        t->dims = 1 + t->el->dims;
        t->blockref = t->el->blockref;
        break;
    case FZ_VAR:
        t->size = sizeof(ck_var_data);
        t->align = _Alignof(ck_var_data); /* a pointer's: 4 on 32-bit hosts */
        t->amsize = sizeof(ck_var_dim_arrmeta) + t->el->amsize;
        t->dims = 1 + t->el->dims;
        t->blockref = 1;
        break;
    case FZ_POINTER:
        t->size = sizeof(char *);
        t->align = _Alignof(char *);
        t->amsize = sizeof(ck_pointer_arrmeta) + t->el->amsize;
        t->dims = t->el->dims;
        t->blockref = 1;
        break;
    default: {
        size_t off = 0, al = 1, am = (size_t)t->nf * sizeof(intptr_t);
        t->blockref = 0;
        for (int i = 0; i < t->nf; i++) {
            const fz_type *f = t->f[i];
            off = align_up(off, f->align);
            t->foff[i] = off;
            off += f->size;
            al = f->align > al ? f->align : al;
            t->fam[i] = am;
            am += f->amsize;
            t->blockref |= f->blockref;
        }
        t->size = align_up(off, al);
        t->align = al;
        t->amsize = am;
        t->dims = 0;
        break;
    }
    }
}

static fz_type *scalar(fz_case *c, fz_kind kind, int id) {
    fz_type *t = new_type(c, kind);
    if (t != NULL) {
        t->id = (ck_type_id)id;
        finish(t);
    }
    return t;
}

static fz_type *wrap(fz_case *c, fz_kind kind, intptr_t n, fz_type *el) {
    if (el == NULL) {
        return NULL;
    }
    fz_type *t = new_type(c, kind);
    if (t != NULL) {
        t->n = n;
        t->el = el;
        finish(t);
    }
    return t;
}

int fz_type_equal(const fz_type *a, const fz_type *b) {
    if (a->kind != b->kind) {
        return 0;
    }
    switch (a->kind) {
    case FZ_SCALAR:
    case FZ_OPTION: return a->id == b->id;
    case FZ_FIXED: return a->n == b->n && fz_type_equal(a->el, b->el);
    case FZ_VAR:
    case FZ_POINTER: return fz_type_equal(a->el, b->el);
    default:
        if (a->nf != b->nf) {
            return 0;
        }
        for (int i = 0; i < a->nf; i++) {
            if (!fz_type_equal(a->f[i], b->f[i]) ||
                (a->kind == FZ_STRUCT && strcmp(a->name[i], b->name[i]) != 0)) {
                return 0;
            }
        }
        return 1;
    }
}

void fz_type_text(const fz_type *t, char *buf, size_t cap) {
    char inner[FZ_MSG];
    switch (t->kind) {
    case FZ_SCALAR: snprintf(buf, cap, "%s", ckt_scalar(t->id)->name); return;
    case FZ_OPTION: snprintf(buf, cap, "?%s", ckt_scalar(t->id)->name); return;
    case FZ_FIXED:
        fz_type_text(t->el, inner, sizeof inner);
        snprintf(buf, cap, "%td * %s", t->n, inner);
        return;
    case FZ_VAR:
        fz_type_text(t->el, inner, sizeof inner);
        snprintf(buf, cap, "var * %s", inner);
        return;
    case FZ_POINTER:
        fz_type_text(t->el, inner, sizeof inner);
        snprintf(buf, cap, "pointer[%s]", inner);
        return;
    default: {
        size_t used = (size_t)snprintf(buf, cap, "%s", t->kind == FZ_TUPLE ? "(" : "{");
        for (int i = 0; i < t->nf && used < cap; i++) {
            fz_type_text(t->f[i], inner, sizeof inner);
            used += (size_t)snprintf(buf + used, cap - used, "%s%s%s%s", i > 0 ? ", " : "",
                                     t->kind == FZ_STRUCT ? t->name[i] : "",
                                     t->kind == FZ_STRUCT ? ": " : "", inner);
        }
        if (used < cap) {
            snprintf(buf + used, cap - used, "%s", t->kind == FZ_TUPLE ? ")" : "}");
        }
        return;
    }
    }
}

/* The ck_type of t, made with the public makers. */
static int make_ck(const fz_type *t, ck_type **out) {
    *out = NULL;
    switch (t->kind) {
    case FZ_SCALAR:
        *out = (ck_type *)(uintptr_t)ck_type_scalar(t->id);
        return CK_OK;
    case FZ_OPTION: return ck_type_make_option(ck_type_scalar(t->id), out);
    case FZ_TUPLE:
    case FZ_STRUCT: {
        ck_type *f[FZ_MAX_FIELDS] = {NULL};
        const char *names[FZ_MAX_FIELDS];
        int rc = CK_OK;
        for (int i = 0; i < t->nf && rc == CK_OK; i++) {
            rc = make_ck(t->f[i], &f[i]);
            names[i] = t->name[i];
        }
        if (rc == CK_OK) {
            rc = t->kind == FZ_TUPLE
                     ? ck_type_make_tuple((size_t)t->nf, (const ck_type *const *)f, out)
                     : ck_type_make_struct((size_t)t->nf, (const ck_type *const *)f, names, out);
        }
        for (int i = 0; i < t->nf; i++) {
            ck_type_decref(f[i]);
        }
        return rc;
    }
    default: {
        ck_type *el = NULL;
        int rc = make_ck(t->el, &el);
        if (rc == CK_OK) {
            rc = t->kind == FZ_FIXED ? ck_type_make_fixed_dim(t->n, el, out)
                 : t->kind == FZ_VAR ? ck_type_make_var_dim(el, out)
                                     : ck_type_make_pointer(el, out);
        }
        ck_type_decref(el);
        return rc;
    }
    }
}

/* ---- generating types ---- */

static const intptr_t kSizes[] = {2, 3, 1, 4, 0, 5, 7, 8, 9, 16, 17, 33, 64, 65, 130, 257};
static const char *const kNames[] = {"a", "b", "c", "x", "y", "z"};

typedef struct gen_state {
    fz_case *c;
    fz_in *in;
    int fields_ok;  /* tuples and structs (one-source assignments) */
    int options_ok;
    intptr_t rowsize[16]; /* the row size var levels prefer, by dims below them */
    int wraps;            /* pointers added by derive() */
} gen_state;

/* A byte below 252 picks among the types that came before bfloat16 as it always did (byte % 14),
 * so that every input of the corpus from before still decodes to its own case; 252..255 pick
 * bfloat16 (the fuzzer's mutations reach it as any other decision). */
static int random_scalar(fz_in *in) {
    const unsigned b = fz_u8(in);
    if (b >= 252) {
        return CK_TYPE_BFLOAT16;
    }
    const int id = (int)(b % (CK_NUM_SCALAR_TYPES - 1));
    return id >= CK_TYPE_BFLOAT16 ? id + 1 : id;
}

/* A size with its product of sizes above kept under the element budget. */
static intptr_t pick_size(fz_in *in, intptr_t above) {
    const unsigned wide = fz_pick(in, 3) == 0;
    intptr_t n = kSizes[fz_pick(in, 16) % (wide ? 16u : 6u)];
    while (n > 1 && above * n > FZ_MAX_ELEMENTS) {
        n /= 2;
    }
    return n;
}

static fz_type *gen_leaf(gen_state *g) {
    const unsigned r = fz_pick(g->in, 8);
    if (g->options_ok && r == 7) {
        return scalar(g->c, FZ_OPTION, random_scalar(g->in));
    }
    return scalar(g->c, FZ_SCALAR, random_scalar(g->in));
}

static fz_type *gen_dst(gen_state *g, int depth, intptr_t above) {
    if (depth <= 0) {
        return gen_leaf(g);
    }
    const unsigned r = fz_pick(g->in, 20);
    if (r == 19 && above <= 4) {
        /* a matrix: two levels of 8 or more, which a transposed source tiles */
        static const intptr_t big[] = {8, 9, 16, 17, 12, 33};
        const intptr_t rows = big[fz_pick(g->in, 6)];
        const intptr_t cols = big[fz_pick(g->in, 6)];
        return wrap(g->c, FZ_FIXED, rows, wrap(g->c, FZ_FIXED, cols, gen_leaf(g)));
    }
    if (r < 7) {
        const intptr_t n = pick_size(g->in, above);
        return wrap(g->c, FZ_FIXED, n, gen_dst(g, depth - 1, above * (n > 0 ? n : 1)));
    }
    if (r < 10) {
        fz_type *el = gen_dst(g, depth - 1, above * 4);
        fz_type *t = wrap(g->c, FZ_VAR, 0, el);
        if (t != NULL) {
            t->n = g->rowsize[t->dims & 15];
        }
        return t;
    }
    if (r < 12) {
        return wrap(g->c, FZ_POINTER, 0, gen_dst(g, depth - 1, above));
    }
    if (r < 14 && g->fields_ok) {
        fz_type *t = new_type(g->c, fz_pick(g->in, 2) ? FZ_STRUCT : FZ_TUPLE);
        if (t == NULL) {
            return NULL;
        }
        t->nf = fz_pick(g->in, 16) == 15 ? 0 : 1 + (int)fz_pick(g->in, FZ_MAX_FIELDS);
        const unsigned first = fz_pick(g->in, 6);
        for (int i = 0; i < t->nf; i++) {
            t->f[i] = gen_dst(g, depth - 1, above);
            if (t->f[i] == NULL) {
                return NULL;
            }
            snprintf(t->name[i], sizeof t->name[i], "%s", kNames[(first + (unsigned)i) % 6]);
        }
        finish(t);
        return t;
    }
    return gen_leaf(g);
}

/* A source for destination d: mostly the same shape, with broadcasting (missing leading
 * dimensions, size 1, var rows), pointers added or removed, other scalars and options, and
 * now and then a shape or record that does not fit. `leading`: no dimension of this operand
 * yet since the last record boundary, so a missing dimension is a missing leading one. */
static fz_type *derive(gen_state *g, const fz_type *d, int leading) {
    fz_in *in = g->in;
    fz_case *c = g->c;
    if (fz_pick(in, 14) == 13 && d->kind != FZ_POINTER && g->wraps++ < 4) {
        /* read through a pointer */
        return wrap(c, FZ_POINTER, 0, derive(g, d, leading));
    }
    switch (d->kind) {
    case FZ_FIXED:
    case FZ_VAR: {
        /* 0 (and an exhausted input) keeps the destination's level */
        const unsigned r = fz_pick(in, 40);
        const intptr_t want = d->n; /* fixed: the size; var: the row size it prefers */
        if (leading && r >= 35 && r < 39) {
            return derive(g, d->el, 1); /* a missing leading dimension */
        }
        fz_type *el = derive(g, d->el, 0);
        fz_type *t;
        if (r >= 23 && r < 29) {
            t = wrap(c, FZ_FIXED, 1, el); /* broadcasts */
        } else if (r >= 29 && r < 35) {
            t = wrap(c, d->kind == FZ_FIXED ? FZ_VAR : FZ_FIXED, want, el);
        } else if (r == 39) {
            t = wrap(c, FZ_FIXED, want + 1 + (intptr_t)fz_pick(in, 3), el); /* a mismatch */
        } else {
            t = wrap(c, d->kind, want, el);
        }
        if (t != NULL && t->kind == FZ_VAR) {
            t->n = want;
        }
        return t;
    }
    case FZ_POINTER:
        if (fz_pick(in, 3) == 0) {
            return wrap(c, FZ_POINTER, 0, derive(g, d->el, leading));
        }
        return derive(g, d->el, leading);
    case FZ_TUPLE:
    case FZ_STRUCT: {
        const unsigned r = fz_pick(in, 32);
        if (r == 31) {
            return gen_leaf(g); /* a scalar into a record */
        }
        fz_type *t = new_type(c, r == 30 ? (d->kind == FZ_TUPLE ? FZ_STRUCT : FZ_TUPLE) : d->kind);
        if (t == NULL) {
            return NULL;
        }
        t->nf = d->nf;
        if (r == 29 && t->nf > 0) {
            t->nf--; /* a field fewer */
        }
        /* A struct source lists its fields in another order now and then: by name they still
         * match, by position they do not. */
        int perm[FZ_MAX_FIELDS] = {0, 1, 2, 3};
        if (t->kind == FZ_STRUCT && fz_pick(in, 3) == 2) {
            for (int i = t->nf - 1; i > 0; i--) {
                const int j = (int)fz_pick(in, (unsigned)i + 1);
                const int tmp = perm[i];
                perm[i] = perm[j];
                perm[j] = tmp;
            }
        }
        for (int i = 0; i < t->nf; i++) {
            const int k = perm[i];
            t->f[i] = derive(g, d->f[k], 1);
            if (t->f[i] == NULL) {
                return NULL;
            }
            snprintf(t->name[i], sizeof t->name[i], "%s",
                     d->kind == FZ_STRUCT ? d->name[k] : kNames[k]);
        }
        if (r == 28 && t->nf > 0) {
            snprintf(t->name[0], sizeof t->name[0], "q"); /* a name the destination lacks */
        }
        finish(t);
        return t;
    }
    default: {
        const unsigned r = fz_pick(in, 24);
        if (r == 23 && g->fields_ok) {
            fz_type *t = new_type(c, FZ_TUPLE); /* a record into a scalar */
            if (t != NULL) {
                t->nf = 1;
                t->f[0] = scalar(c, FZ_SCALAR, d->id);
                if (t->f[0] == NULL) {
                    return NULL;
                }
                finish(t);
            }
            return t;
        }
        if (r == 22) {
            /* one dimension more than the destination can hold */
            return wrap(c, FZ_FIXED, 2, scalar(c, FZ_SCALAR, d->id));
        }
        const int id = r < 9 ? (int)d->id : random_scalar(in);
        const int opt = g->options_ok && (r == 20 || r == 21 || (d->kind == FZ_OPTION && r < 6));
        return scalar(c, opt ? FZ_OPTION : FZ_SCALAR, id);
    }
    }
}

/* ---- arrmeta ---- */

static void put_ip(char *p, intptr_t v) {
    memcpy(p, &v, sizeof v);
}

static intptr_t get_ip(const char *p) {
    intptr_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

void fz_default_arrmeta(const fz_type *t, char *am) {
    switch (t->kind) {
    case FZ_FIXED:
        put_ip(am, t->n);
        put_ip(am + FZ_W, (intptr_t)t->el->size);
        fz_default_arrmeta(t->el, am + 2 * FZ_W);
        return;
    case FZ_VAR:
        memset(am, 0, 3 * FZ_W);
        put_ip(am + FZ_W, (intptr_t)t->el->size);
        fz_default_arrmeta(t->el, am + 3 * FZ_W);
        return;
    case FZ_POINTER:
        memset(am, 0, 2 * FZ_W);
        fz_default_arrmeta(t->el, am + 2 * FZ_W);
        return;
    case FZ_TUPLE:
    case FZ_STRUCT:
        for (int i = 0; i < t->nf; i++) {
            put_ip(am + FZ_W * i, (intptr_t)t->foff[i]);
            fz_default_arrmeta(t->f[i], am + t->fam[i]);
        }
        return;
    default: return;
    }
}

/* Default arrmeta means C order and, with no blockref, the bytes of the C layout. */
int fz_arrmeta_is_default(const fz_type *t, const char *am) {
    char def[1024];
    if (t->blockref || t->amsize > sizeof def) {
        return 0;
    }
    fz_default_arrmeta(t, def);
    return memcmp(def, am, t->amsize) == 0;
}

/* The alignment an element's base must keep: none. Var data and pointer slots are read and
 * written through memcpy (they may sit at odd addresses in a host's layout), and scalars are
 * seen misaligned in the arrmeta. Kept as a function: the layouts above ask it per type. */
static size_t slot_align(const fz_type *t) {
    switch (t->kind) {
    case FZ_VAR:
    case FZ_POINTER: return 1;
    case FZ_FIXED: return slot_align(t->el);
    case FZ_TUPLE:
    case FZ_STRUCT: {
        size_t a = 1;
        for (int i = 0; i < t->nf; i++) {
            const size_t f = slot_align(t->f[i]);
            a = f > a ? f : a;
        }
        return a;
    }
    default: return 1;
    }
}

/* [lo, hi): the bytes an element occupies in its own buffer (not its rows or targets),
 * relative to its base, following the arrmeta. */
static void span(const fz_type *t, const char *am, intptr_t *lo, intptr_t *hi) {
    switch (t->kind) {
    case FZ_FIXED: {
        const intptr_t n = get_ip(am), s = get_ip(am + FZ_W);
        if (n == 0) {
            *lo = *hi = 0;
            return;
        }
        intptr_t clo, chi;
        span(t->el, am + 2 * FZ_W, &clo, &chi);
        const intptr_t last = (n - 1) * s;
        *lo = (last < 0 ? last : 0) + clo;
        *hi = (last > 0 ? last : 0) + chi;
        return;
    }
    case FZ_TUPLE:
    case FZ_STRUCT: {
        intptr_t l = 0, h = 0;
        int any = 0;
        for (int i = 0; i < t->nf; i++) {
            intptr_t fl, fh;
            span(t->f[i], am + t->fam[i], &fl, &fh);
            if (fh <= fl) {
                continue;
            }
            const intptr_t off = get_ip(am + FZ_W * i);
            if (!any || off + fl < l) {
                l = off + fl;
            }
            if (!any || off + fh > h) {
                h = off + fh;
            }
            any = 1;
        }
        /* A record in C layout is its whole data size: a byte copy of it takes its padding
         * too (docs/design.md §12). */
        if (fz_arrmeta_is_default(t, am) && t->size > 0) {
            l = any && l < 0 ? l : 0;
            h = any && h > (intptr_t)t->size ? h : (intptr_t)t->size;
        }
        *lo = l;
        *hi = h;
        return;
    }
    default:
        *lo = 0;
        *hi = (intptr_t)t->size;
        return;
    }
}

typedef struct am_state {
    gen_state *g;
    int dst;
    int aligned; /* the reduction mode: destination strides keep its scalars aligned */
} am_state;

/* The reduction mode's destination: its var levels are rows the kernel allocates. */
static int reduce_dst(const am_state *st) {
    return st->dst && st->g->c->op >= FZ_OP_REDUCE;
}

static ck_memblock *new_arena(void) {
    ck_memblock *b = NULL;
    return ck_arena_new(0, &b) == CK_OK ? b : NULL;
}

static int inline_slots(const fz_type *t);

/* A stride for elements of span width w (base alignment a): contiguous, padded, reversed,
 * and for sources also 0, and overlapping or odd where the elements hold no var data or
 * pointers (overlapping those would describe rows and targets that are not there). */
static intptr_t pick_stride(fz_in *in, int dst, const fz_type *e, intptr_t w, size_t a,
                            intptr_t csize) {
    const unsigned r = fz_pick(in, 16);
    intptr_t s;
    if (r < 8) {
        s = csize > w ? csize : w;
    } else if (r < 11) {
        s = w + (intptr_t)fz_pick(in, 9);
    } else if (!dst && r < 13) {
        s = 0;
    } else if (!dst && r < 15 && !inline_slots(e)) {
        s = (intptr_t)fz_pick(in, 2 * (unsigned)(w > 0 ? w : 1) + 1);
    } else {
        s = w + (intptr_t)fz_pick(in, 3);
    }
    s = (intptr_t)align_up((size_t)s, a);
    if (fz_pick(in, 5) == 4) {
        s = -s;
    }
    return s;
}

static void gen_am(am_state *st, const fz_type *t, char *am, int dense);

/* A run of fixed levels over element e: strides in a random memory order (a transposed or
 * permuted layout) or C order; the destination's stay one-to-one. */
static void gen_fixed_run(am_state *st, const fz_type *t, char *am, int dense) {
    const fz_type *lv[64];
    char *lam[64];
    int n = 0;
    const fz_type *e = t;
    char *eam = am;
    while (e->kind == FZ_FIXED && n < 64) {
        lv[n] = e;
        lam[n] = eam;
        eam += 2 * FZ_W;
        e = e->el;
        n++;
    }
    gen_am(st, e, eam, dense);
    intptr_t lo, hi;
    span(e, eam, &lo, &hi);
    fz_in *in = st->g->in;
    const size_t a = st->aligned ? e->align : slot_align(e);
    int order[64];
    for (int i = 0; i < n; i++) {
        order[i] = n - 1 - i; /* innermost first: C order */
    }
    if (!dense && n >= 2 && fz_pick(in, 3) == 2) {
        for (int i = n - 1; i > 0; i--) {
            const int j = (int)fz_pick(in, (unsigned)i + 1);
            const int tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
    }
    /* The block of the levels placed so far: [blo, bhi). */
    intptr_t blo = lo, bhi = hi;
    for (int k = 0; k < n; k++) {
        const int l = order[k];
        const intptr_t size = lv[l]->n;
        intptr_t s;
        if (dense) {
            s = bhi - blo; /* C order: the element's size */
            if (k == 0) {
                s = (intptr_t)e->size;
            }
        } else {
            s = pick_stride(in, st->dst, e, bhi - blo, a, k == 0 ? (intptr_t)e->size : bhi - blo);
            if (size <= 1 && fz_pick(in, 2) == 0) {
                s = st->dst ? (intptr_t)fz_pick(in, 64) * (intptr_t)a : (intptr_t)fz_u8(in) - 128;
                s = st->dst ? s : (intptr_t)((uintptr_t)s & ~(uintptr_t)(a - 1));
            }
        }
        put_ip(lam[l], size);
        put_ip(lam[l] + FZ_W, s);
        if (size > 0) {
            const intptr_t last = (size - 1) * s;
            blo += last < 0 ? last : 0;
            bhi += last > 0 ? last : 0;
        } else {
            bhi = blo;
        }
    }
    /* A fixed size the arrmeta contradicts, now and then (CK_ERR_INVALID). */
    if (!dense && fz_pick(in, 64) == 63) {
        put_ip(lam[fz_pick(in, (unsigned)n)], get_ip(lam[0]) + 1);
    }
}

static void gen_am(am_state *st, const fz_type *t, char *am, int dense) {
    fz_in *in = st->g->in;
    switch (t->kind) {
    case FZ_FIXED: gen_fixed_run(st, t, am, dense); return;
    case FZ_VAR: {
        /* A destination level whose rows the kernel may allocate keeps C order below it:
         * the kernel sizes a row by its elements' data size (docs/design.md §7). */
        const int alloc = st->dst && (dense || reduce_dst(st) || fz_pick(in, 3) == 0);
        gen_am(st, t->el, am + 3 * FZ_W, dense || alloc);
        intptr_t lo, hi;
        span(t->el, am + 3 * FZ_W, &lo, &hi);
        const size_t a = slot_align(t->el);
        intptr_t stride, offset = 0;
        if (alloc) {
            stride = (intptr_t)t->el->size + (fz_pick(in, 4) == 3 ? (intptr_t)t->el->align : 0);
            if (!reduce_dst(st) && fz_pick(in, 40) == 39) {
                offset = (intptr_t)a; /* cannot be allocated (CK_ERR_INVALID) */
            }
        } else {
            stride = dense ? (intptr_t)t->el->size
                           : pick_stride(in, st->dst, t->el, hi - lo, a, (intptr_t)t->el->size);
            offset = dense || fz_pick(in, 2) ? 0 : ((intptr_t)fz_pick(in, 5) - 2) * (intptr_t)a;
        }
        ck_memblock *b = NULL;
        const unsigned r = fz_pick(in, 24);
        if (st->dst ? r < 22 || reduce_dst(st) : r >= 20) {
            b = new_arena();
        } else if (st->dst && r == 23) {
            ck_memblock_new_data(16, 16, &b); /* not an arena: cannot allocate */
        }
        memcpy(am, &b, sizeof b); /* the arrmeta's reference, released with it */
        put_ip(am + FZ_W, stride);
        put_ip(am + 2 * FZ_W, offset);
        return;
    }
    case FZ_POINTER: {
        gen_am(st, t->el, am + 2 * FZ_W, dense);
        const size_t a = slot_align(t->el);
        const intptr_t offset = dense || fz_pick(in, 2) ? 0 : ((intptr_t)fz_pick(in, 9) - 4) * (intptr_t)a;
        ck_memblock *b = fz_pick(in, 4) == 0 ? new_arena() : NULL;
        memcpy(am, &b, sizeof b);
        put_ip(am + FZ_W, offset);
        return;
    }
    case FZ_TUPLE:
    case FZ_STRUCT: {
        for (int i = 0; i < t->nf; i++) {
            gen_am(st, t->f[i], am + t->fam[i], dense);
        }
        unsigned r = dense ? 0 : fz_pick(in, 8);
        for (int i = 0; i < t->nf && r < 5; i++) {
            /* the C layout fits fields whose bytes stay within their data size */
            intptr_t lo, hi;
            span(t->f[i], am + t->fam[i], &lo, &hi);
            if (hi > lo && (lo < 0 || hi > (intptr_t)t->f[i]->size)) {
                r = 5;
            }
        }
        if (r < 5) {
            for (int i = 0; i < t->nf; i++) {
                put_ip(am + FZ_W * i, (intptr_t)t->foff[i]);
            }
            return;
        }
        /* packed, or in another order, one after the other (never overlapping); a source
         * may also put fields anywhere */
        int order[FZ_MAX_FIELDS] = {0, 1, 2, 3};
        if (r >= 6) {
            for (int i = t->nf - 1; i > 0; i--) {
                const int j = (int)fz_pick(in, (unsigned)i + 1);
                const int tmp = order[i];
                order[i] = order[j];
                order[j] = tmp;
            }
        }
        intptr_t at = 0;
        for (int k = 0; k < t->nf; k++) {
            const int i = order[k];
            intptr_t lo, hi;
            span(t->f[i], am + t->fam[i], &lo, &hi);
            const intptr_t a = (intptr_t)slot_align(t->f[i]);
            intptr_t off = at - lo;
            off = (off + a - 1) / a * a;
            if (!st->dst && r == 7 && !inline_slots(t) && fz_pick(in, 2) == 0) {
                off = ((intptr_t)fz_pick(in, 24) - 4) / a * a; /* anywhere, overlaps too */
            }
            put_ip(am + FZ_W * i, off);
            at = off + hi > at ? off + hi : at;
        }
        return;
    }
    default: return;
    }
}

/* ---- memory ---- */

static unsigned char guard_byte(size_t i) {
    return (unsigned char)(0xc5 ^ (i * 29));
}

/* A zero-size request still gives a distinct, valid pointer. */
static unsigned char *new_region(fz_case *c, size_t size, int dst, size_t *budget) {
    if (c->nregions == FZ_MAX_REGIONS || size > FZ_MAX_BYTES || *budget < size + 2 * FZ_GUARD) {
        return NULL;
    }
    *budget -= size + 2 * FZ_GUARD;
    if (c->nregions == c->cap_regions) {
        const size_t cap = c->cap_regions ? 2 * c->cap_regions : 64;
        fz_region *r = (fz_region *)realloc(c->regions, cap * sizeof *r);
        if (r == NULL) {
            return NULL;
        }
        c->regions = r;
        c->cap_regions = cap;
    }
    unsigned char *raw = (unsigned char *)malloc(size + 2 * FZ_GUARD);
    if (raw == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < size + 2 * FZ_GUARD; i++) {
        raw[i] = guard_byte(i);
    }
    fz_region *r = &c->regions[c->nregions++];
    r->raw = raw;
    r->size = size;
    r->dst = dst;
    r->snap = NULL;
    return raw + FZ_GUARD;
}

/* ---- values ---- */

static void put_bits(unsigned char *p, uint64_t v, size_t size) {
    ckt_put_low_bytes(p, v, size); /* in the host's byte order */
}

/* Real values of interest, for floats and complex parts. */
static double pick_real(fz_in *in, int call_source) {
    static const double special[] = {
        0.0,  -0.0, 1.0, -1.0, 0.5, 2.5, -1.25, 3.0, 127.0, 128.0, -129.0, 255.0, 256.0,
        65504.0, 65519.99, 65520.0, 1e10, -1e10, 2147483648.0, -2147483649.0, 4294967296.0,
        9007199254740993.0, 9223372036854775808.0, 18446744073709551616.0, 1e300, 3.4e38,
        1e-300, 5e-324, 6.103515625e-05, 5.960464477539063e-08, 0.1, 1.0 / 3.0};
    const unsigned r = rnd(in, 20);
    if (r < 9) {
        return (double)((int)rnd(in, 21) - 10);
    }
    if (r < 15) {
        return special[rnd(in, sizeof special / sizeof special[0])];
    }
    if (r == 15) {
        return rnd(in, 2) ? INFINITY : -INFINITY;
    }
    if (r == 16) {
        const uint64_t bits = call_source ? 0x7ff8000000000000ull : 0x7ff8000000000000ull | (fz_rand(in) & 0xfffffffffffffull);
        double d;
        memcpy(&d, &bits, 8);
        return rnd(in, 2) ? d : -d;
    }
    double d;
    const uint64_t bits = fz_rand(in);
    memcpy(&d, &bits, 8);
    if (isnan(d) && call_source) {
        d = NAN;
    }
    return d;
}

/* A NaN with the canonical payload, sign kept: a call's NaN payloads are not specified, and
 * a payload could otherwise turn into an option's NA (fuzz_compose_ref_scalar.c). */
static void canonical_nan(int kind, unsigned char *p) {
    const fz_float_format *f = fz_float_format_of(kind);
    if (f == NULL || !fz_float_is_nan(f, p)) {
        return;
    }
    const size_t n = (size_t)f->bits / 8;
    const unsigned char sign = p[n - 1] & 0x80;
    fz_float_default_nan(f, p);
    p[n - 1] |= sign;
}

static void put_real(int kind, double v, unsigned char *p, fz_in *in) {
    const fz_float_format *format = fz_float_format_of(kind);
    if (format->bits == 16) { /* float16, bfloat16 */
        if (rnd(in, 8) == 0) {
            const uint16_t h = (uint16_t)fz_rand(in);
            memcpy(p, &h, 2);
        } else {
            fz_float_round(format, v, p);
        }
    } else if (kind == 'F') {
        float f = (float)v;
        if (rnd(in, 8) == 0) {
            const uint32_t u = (uint32_t)fz_rand(in);
            memcpy(&f, &u, 4);
        }
        memcpy(p, &f, 4);
    } else {
        memcpy(p, &v, 8);
    }
}

/* A finite value in (-2^12, 2^12) with random bits below, into each float part. */
static int tame_value(fz_in *in, int id, unsigned char *p) {
    const ckt_scalar_info *t = ckt_scalar(id);
    const ckt_scalar_info *c = ckt_scalar(t->component);
    const fz_float_format *f = fz_float_format_of(c->kind);
    if (f == NULL) {
        return 0;
    }
    for (size_t k = 0; k < t->size / c->size; k++) {
        /* two draws in this order (a call's arguments are evaluated in no set order, and gcc's
         * and clang's differ: an input must mean the same to the fuzzer and the replay) */
        const uint64_t bits = fz_rand(in);
        const int exponent = (int)rnd(in, 24) - 12;
        const double v = ldexp((double)(bits >> 11) * 0x1p-52 - 1.0, exponent);
        fz_float_round(f, v, p + k * c->size);
    }
    return 1;
}

static void gen_value(fz_in *in, int id, unsigned char *p, int call_source) {
    const ckt_scalar_info *t = ckt_scalar(id);
    switch (t->kind) {
    case 'B': p[0] = rnd(in, 12) == 0 ? (unsigned char)fz_rand(in) : (unsigned char)rnd(in, 2); return;
    case 'S':
    case 'U': {
        const unsigned r = rnd(in, 16);
        uint64_t v;
        if (r < 9) {
            v = (uint64_t)((int64_t)rnd(in, 21) - 10);
        } else if (r < 12) {
            v = fz_rand(in);
        } else if (r < 14) {
            v = rnd(in, 2) ? ckt_int_min_bits(t) : ckt_int_max_bits(t);
            v += (uint64_t)rnd(in, 3) - 1u;
        } else {
            v = (uint64_t)1 << rnd(in, 64);
            v += (uint64_t)rnd(in, 3) - 1u;
        }
        put_bits(p, v, t->size);
        return;
    }
    case 'C': {
        const int ck = ckt_scalar(t->component)->kind;
        put_real(ck, pick_real(in, call_source), p, in);
        put_real(ck, rnd(in, 3) == 0 ? pick_real(in, call_source) : 0.0, p + t->size / 2, in);
        if (call_source) {
            canonical_nan(ck, p);
            canonical_nan(ck, p + t->size / 2);
        }
        return;
    }
    default:
        put_real(t->kind, pick_real(in, call_source), p, in);
        if (call_source) {
            canonical_nan(t->kind, p);
        }
        return;
    }
}

/* ---- data ---- */

typedef struct fill_state {
    fz_case *c;
    fz_in *in;
    int dst;
    int call_source;
    size_t budget;
    long elements;
    int ok;
} fill_state;

static void fill(fill_state *fs, const fz_type *t, const char *am, unsigned char *p);

/* A buffer for n elements of t (arrmeta am) `stride` apart; returns the base they hang from,
 * 16-aligned plus `shift`, or NULL. */
static unsigned char *element_buffer(fill_state *fs, const fz_type *t, const char *am,
                                     intptr_t n, intptr_t stride, size_t shift) {
    intptr_t lo, hi;
    span(t, am, &lo, &hi);
    if (n == 0) {
        lo = hi = 0;
    } else {
        const intptr_t last = (n - 1) * stride;
        lo += last < 0 ? last : 0;
        hi += last > 0 ? last : 0;
    }
    const size_t before = align_up((size_t)(lo < 0 ? -lo : 0), 16);
    const intptr_t end = (intptr_t)before + (hi > 0 ? hi : 0) + (intptr_t)shift;
    unsigned char *r = new_region(fs->c, (size_t)end, fs->dst, &fs->budget);
    if (r == NULL) {
        fs->ok = 0;
        return NULL;
    }
    return r + before + shift;
}

static void fill_n(fill_state *fs, const fz_type *t, const char *am, unsigned char *p,
                   intptr_t count, intptr_t stride) {
    for (intptr_t i = 0; i < count && fs->ok; i++) {
        fill(fs, t, am, p + i * stride);
    }
}

static void random_bytes(fz_in *in, unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        p[i] = (unsigned char)fz_rand(in);
    }
}

/* The kernel allocates an unallocated destination row when the level's arrmeta allows it
 * (offset 0, an arena, a stride of at least the element's size: docs/design.md §7). */
static int allocatable(const fz_type *t, const char *am) {
    ck_memblock *b;
    memcpy(&b, am, sizeof b);
    const intptr_t stride = get_ip(am + FZ_W), offset = get_ip(am + 2 * FZ_W);
    return offset == 0 && b != NULL && ck_memblock_get_kind(b) == CK_MEMBLOCK_ARENA &&
           stride >= (intptr_t)t->el->size;
}

static void fill(fill_state *fs, const fz_type *t, const char *am, unsigned char *p) {
    fz_in *in = fs->in;
    if (++fs->elements > 4 * FZ_MAX_ELEMENTS) {
        fs->ok = 0;
        return;
    }
    switch (t->kind) {
    case FZ_SCALAR:
    case FZ_OPTION:
        if (fs->dst) {
            random_bytes(in, p, t->size); /* old contents */
        } else if (t->kind == FZ_OPTION && rnd(in, 6) == 0) {
            memcpy(p, ck_option_na_bytes(ck_type_scalar(t->id)), t->size);
        } else if (!fs->c->tame || !tame_value(in, (int)t->id, p)) {
            gen_value(in, t->id, p, fs->call_source);
        }
        return;
    case FZ_FIXED: fill_n(fs, t->el, am + 2 * FZ_W, p, get_ip(am), get_ip(am + FZ_W)); return;
    case FZ_VAR: {
        ck_var_data v = {NULL, 0};
        const intptr_t stride = get_ip(am + FZ_W), offset = get_ip(am + 2 * FZ_W);
        const unsigned r = rnd(in, 32);
        int leave;
        if (fs->dst && fs->c->op >= FZ_OP_REDUCE) {
            leave = 1; /* the reduction mode: the kernel allocates every destination row */
        } else if (fs->dst) {
            leave = allocatable(t, am) ? r < 12 : r == 31;
        } else {
            leave = r == 0; /* CK_ERR_UNINITIALIZED */
        }
        if (leave) {
            v.size = rnd(in, 4) == 0 ? (size_t)fz_rand(in) : 0; /* ignored while begin is NULL */
        } else {
            intptr_t n = t->n;
            const unsigned q = rnd(in, 16);
            if (q == 0) {
                n = 1; /* broadcasts */
            } else if (q == 1) {
                n = (intptr_t)rnd(in, 5);
            }
            /* begin is 16-aligned, as an allocator gives it; the arrmeta's offset may be odd */
            unsigned char *b = element_buffer(fs, t->el, am + 3 * FZ_W, n, stride,
                                              (size_t)(((offset % 16) + 16) % 16));
            if (b == NULL) {
                return;
            }
            unsigned char *begin = b - offset;
            v.begin = (char *)begin;
            v.size = (size_t)n;
            fill_n(fs, t->el, am + 3 * FZ_W, b, n, stride);
            if (rnd(in, 256) == 0) {
                v.size = (size_t)INTPTR_MAX + 1 + rnd(in, 4); /* a row that claims too much */
            }
        }
        memcpy(p, &v, sizeof v);
        return;
    }
    case FZ_POINTER: {
        char *q = NULL;
        if (rnd(in, fs->dst ? 24 : 14) != 0) {
            const intptr_t offset = get_ip(am + FZ_W);
            unsigned char *b = element_buffer(fs, t->el, am + 2 * FZ_W, 1, 0,
                                              (size_t)(((offset % 16) + 16) % 16));
            if (b == NULL) {
                return;
            }
            q = (char *)b - offset; /* 16-aligned */
            fill(fs, t->el, am + 2 * FZ_W, b);
        }
        memcpy(p, &q, sizeof q);
        return;
    }
    case FZ_TUPLE:
    case FZ_STRUCT:
        if (fs->dst) {
            intptr_t lo, hi;
            span(t, am, &lo, &hi);
            random_bytes(in, p + lo, hi > lo ? (size_t)(hi - lo) : 0); /* padding too */
        }
        for (int i = 0; i < t->nf && fs->ok; i++) {
            fill(fs, t->f[i], am + t->fam[i], p + get_ip(am + FZ_W * i));
        }
        return;
    }
}

/* 1 when the element's own bytes (not behind pointers or rows) hold var data or pointers. */
static int inline_slots(const fz_type *t) {
    switch (t->kind) {
    case FZ_VAR:
    case FZ_POINTER: return 1;
    case FZ_FIXED: return inline_slots(t->el);
    case FZ_TUPLE:
    case FZ_STRUCT:
        for (int i = 0; i < t->nf; i++) {
            if (inline_slots(t->f[i])) {
                return 1;
            }
        }
        return 0;
    default: return 0;
    }
}

/* The ck_type, arrmeta, buffers and data of one operand. The root may be misaligned when the
 * context says so (CK_EVAL_*_UNALIGNED), unless var data or pointers sit in its own bytes. */
static int materialize(fz_case *c, fz_in *in, fz_operand *o, int which, int dst,
                       size_t *budget, int unaligned) {
    gen_state g = {c, in, 0, 0, {0}, 0};
    /* the reduction mode: aligned accumulators, but now and then misaligned ones */
    am_state st = {&g, dst, dst && c->op >= FZ_OP_REDUCE && fz_pick(in, 16) != 15};
    o->am = c->ambuf[which];
    memset(o->am, 0, sizeof c->ambuf[which]);
    if (o->t->amsize > sizeof c->ambuf[which] || make_ck(o->t, &o->ck) != CK_OK) {
        return 0;
    }
    gen_am(&st, o->t, o->am, 0);
    fill_state fs = {c, in, dst, c->op != FZ_OP_ASSIGN, *budget, 0, 1};
    intptr_t stride = 0;
    const intptr_t n = c->req == CK_REQUEST_STRIDED ? c->root_count : 1;
    if (c->req == CK_REQUEST_STRIDED) {
        intptr_t lo, hi;
        span(o->t, o->am, &lo, &hi);
        /* The kernel cannot see the root's strides: they keep every element aligned unless
         * the context says the data may be misaligned. */
        const size_t a = unaligned ? slot_align(o->t) : o->t->align;
        const intptr_t w = (intptr_t)align_up((size_t)(hi > lo ? hi - lo : 0), a);
        stride = dst || fz_pick(in, 3) != 2 ? w : 0;
        if (fz_pick(in, 4) == 3) {
            stride = -stride;
        }
        if (dst) {
            c->root_dst_stride = stride;
        } else {
            c->root_src_stride[which - 1] = stride;
        }
    }
    const size_t shift = unaligned && !inline_slots(o->t) ? 1 + fz_pick(in, 15) : 0;
    unsigned char *b = element_buffer(&fs, o->t, o->am, n, stride, shift);
    if (b == NULL) {
        return 0;
    }
    o->data = (char *)b;
    fill_n(&fs, o->t, o->am, b, n, stride);
    *budget = fs.budget;
    return fs.ok;
}

/* ---- calls ---- */

static ck_callable *lookup(const char *name) {
    static const char *const names[5] = {"add", "subtract", "multiply", "trunc_divide", "assign"};
    static ck_callable *cache[5];
    for (int i = 0; i < 5; i++) {
        if (strcmp(names[i], name) == 0) {
            if (cache[i] == NULL && ck_lookup(name, &cache[i]) != CK_OK) {
                return NULL;
            }
            return cache[i];
        }
    }
    return NULL;
}

/* The signatures of a callable, parsed once from ck_callable_signatures ("(int32, int32) ->
 * int32" per line, in the order ck_callable_select indexes). */
typedef struct sig_table {
    const ck_callable *c;
    int n;
    fz_sig sig[CK_NUM_SCALAR_TYPES + 2];
} sig_table;

static int scalar_id(const char *name, size_t len) {
    for (int i = 0; i < CK_NUM_SCALAR_TYPES; i++) {
        if (strlen(ckt_scalar(i)->name) == len && strncmp(ckt_scalar(i)->name, name, len) == 0) {
            return i;
        }
    }
    return -1;
}

static const sig_table *signatures(const ck_callable *callable) {
    static sig_table tables[16]; /* the calls' callables and the reductions' */
    for (int i = 0; i < 16; i++) {
        if (tables[i].c == callable) {
            return &tables[i];
        }
        if (tables[i].c != NULL) {
            continue;
        }
        char *text = NULL;
        if (ck_callable_signatures(callable, &text) != CK_OK) {
            return NULL;
        }
        sig_table *t = &tables[i];
        const char *p = text;
        while (*p == '(' && t->n < (int)(sizeof t->sig / sizeof t->sig[0])) {
            fz_sig *s = &t->sig[t->n];
            memset(s, 0, sizeof *s);
            p++;
            while (*p != ')' && *p != '\0') {
                const size_t len = strcspn(p, ",)");
                if (s->nargs < FZ_MAX_SRC) {
                    s->args[s->nargs] = (ck_type_id)scalar_id(p, len);
                }
                s->nargs++;
                p += len;
                if (*p == ',') {
                    p += 2;
                }
            }
            p += strlen(") -> ");
            const size_t len = strcspn(p, "\n");
            s->ret = (ck_type_id)scalar_id(p, len);
            p += len + (p[len] == '\n');
            t->n++;
        }
        ck_free(text);
        t->c = callable;
        return t;
    }
    return NULL;
}

/* The scalar under dimensions, pointers and an option; records: NULL. */
static const fz_type *innermost(const fz_type *t, int *option) {
    while (t->kind != FZ_SCALAR) {
        if (t->kind == FZ_TUPLE || t->kind == FZ_STRUCT) {
            return NULL;
        }
        *option |= t->kind == FZ_OPTION;
        if (t->kind == FZ_OPTION) {
            return t;
        }
        t = t->el;
    }
    return t;
}

/* Every leaf of the destination becomes the call's result type (an option when an argument
 * is one); sizes above are recomputed. */
static void set_leaves(fz_type *t, ck_type_id id, int option) {
    switch (t->kind) {
    case FZ_SCALAR:
    case FZ_OPTION:
        t->kind = option ? FZ_OPTION : FZ_SCALAR;
        t->id = id;
        break;
    case FZ_TUPLE:
    case FZ_STRUCT:
        for (int i = 0; i < t->nf; i++) {
            set_leaves(t->f[i], id, option);
        }
        break;
    default: set_leaves(t->el, id, option); break;
    }
    finish(t);
}

static void select_signature(fz_case *c, fz_in *in) {
    ck_type_id ids[FZ_MAX_SRC];
    int option = 0;
    for (int k = 0; k < c->nsrc; k++) {
        const fz_type *v = innermost(c->src[k].t, &option);
        if (v == NULL) {
            c->sig_status = -1; /* a record argument: refused before selection */
            return;
        }
        ids[k] = v->id;
    }
    ck_eval_ctx sel = c->ctx;
    sel.errmode = CK_ERRMODE_FRACTIONAL;
    int index = -1;
    ck_clear_error();
    c->sig_status = ck_callable_select(c->callable, c->nsrc, ids, &sel, &index, NULL);
    snprintf(c->sig_message, sizeof c->sig_message, "%s", ck_last_error());
    if (c->sig_status != CK_OK) {
        return;
    }
    const sig_table *t = signatures(c->callable);
    CKF_CHECK(t != NULL && index >= 0 && index < t->n, "signature %d of a callable", index);
    c->sig = t->sig[index];
    if (fz_pick(in, 2) == 0) {
        set_leaves(c->dst.t, c->sig.ret, option);
    }
}

/* ---- the case ---- */

ck_callable *fz_sum3_callable(void);

/* How the root is called: single, or strided over 1-3 elements. */
static void pick_request(fz_case *c, fz_in *in) {
    if (fz_pick(in, 4) == 3) {
        c->req = CK_REQUEST_STRIDED;
        c->root_count = 1 + (intptr_t)fz_pick(in, 3);
    } else {
        c->req = CK_REQUEST_SINGLE;
        c->root_count = 1;
    }
}

/* ---- the reduction mode ---- */

static const char *const kReductions[] = {"sum", "prod", "min", "max", "all", "any"};
static const char *const kAccumulations[] = {"cumsum", "cumprod", "cummin", "cummax"};

const char *fz_reduce_name(const fz_case *c) {
    return c->op == FZ_OP_ACCUMULATE ? kAccumulations[c->rop] : kReductions[c->rop];
}

/* The built-in's callable, looked up once (the registry keeps it). */
static ck_callable *reduce_callable(const fz_case *c) {
    static ck_callable *cache[2][6];
    const int acc = c->op == FZ_OP_ACCUMULATE;
    ck_callable **slot = &cache[acc][c->rop];
    if (*slot == NULL) {
        const int rc = acc ? ck_accumulation_lookup(fz_reduce_name(c), slot)
                           : ck_reduction_lookup(fz_reduce_name(c), slot);
        if (rc != CK_OK) {
            *slot = NULL;
        }
    }
    return *slot;
}

/* The accumulator's type NumPy 1.24 gives for elements of t (docs/design.md §14): the result
 * of the signature selected for (t, t), bool and signed integers narrower than 64 bits in
 * int64 for sum and prod, unsigned ones in uint64. -1 when nothing is selected. */
static int natural_acc(fz_case *c, ck_type_id t) {
    const ck_type_id ids[2] = {t, t};
    int index = -1;
    if (ck_callable_select(c->callable, 2, ids, &c->ctx, &index, NULL) != CK_OK) {
        return -1;
    }
    const sig_table *tab = signatures(c->callable);
    CKF_CHECK(tab != NULL && index >= 0 && index < tab->n, "signature %d of a callable", index);
    int a = (int)tab->sig[index].ret;
    if (c->rop == FZ_ROP_ADD || c->rop == FZ_ROP_MULTIPLY) {
        switch (a) { /* NumPy's: a sum or product of a narrower int is of the 64-bit one */
        case CK_TYPE_BOOL: case CK_TYPE_INT8: case CK_TYPE_INT16: case CK_TYPE_INT32:
            a = CK_TYPE_INT64;
            break;
        case CK_TYPE_UINT8: case CK_TYPE_UINT16: case CK_TYPE_UINT32: a = CK_TYPE_UINT64; break;
        default: break;
        }
    }
    return a;
}

/* A reduction or accumulation: a source of 1-3 fixed or var dimensions over a scalar or an
 * option, axes, keepdims and skipna, a destination of the result's type (now and then with
 * another accumulator type, option or not, or another shape), random layouts and data. */
static int generate_reduce(fz_case *c, fz_in *in) {
    c->op = fz_pick(in, 4) == 3 ? FZ_OP_ACCUMULATE : FZ_OP_REDUCE;
    const int acc = c->op == FZ_OP_ACCUMULATE;
    c->rop = (int)fz_pick(in, acc ? 4 : 6);
    c->nsrc = 1;
    c->callable = reduce_callable(c);
    if (c->callable == NULL) {
        return 0;
    }
    /* The source, outermost level first. */
    static const intptr_t sizes[] = {3,  2,   1,   4,   0,   5,   17,   7,
                                     16, 33, 129, 130, 256, 300, 1100, 2100};
    static const intptr_t rows[] = {2, 3, 1, 0, 5, 17, 129, 140};
    const int nd = 1 + (int)fz_pick(in, 3);
    int var[3];
    intptr_t n[3];
    intptr_t above = 1;
    for (int i = 0; i < nd; i++) {
        var[i] = fz_pick(in, 3) == 2;
        n[i] = var[i] ? rows[fz_pick(in, 8)] : sizes[fz_pick(in, 16)];
        while (n[i] > 1 && above * n[i] > FZ_MAX_ELEMENTS) {
            n[i] /= 2;
        }
        above *= n[i] > 0 ? n[i] : 1;
    }
    const int sopt = fz_pick(in, acc ? 16 : 4) == 3; /* accumulations refuse options */
    c->tame = fz_pick(in, 3) != 0;
    const ck_type_id sid = (ck_type_id)random_scalar(in);
    fz_type *st = scalar(c, sopt ? FZ_OPTION : FZ_SCALAR, (int)sid);
    for (int i = nd - 1; i >= 0; i--) {
        st = wrap(c, var[i] ? FZ_VAR : FZ_FIXED, n[i], st);
    }
    if (st == NULL) {
        return 0;
    }
    c->src[0].t = st;
    /* Axes: every one (NULL), or some, numbered from either end; now and then one out of
     * range or given twice. An accumulation takes one. */
    uint64_t reduced = 0;
    const unsigned how = fz_pick(in, 8);
    if (!acc && how == 0) {
        c->naxes = -1;
        reduced = ((uint64_t)1 << nd) - 1;
    } else {
        c->naxes = acc ? 1 : 1 + (int)fz_pick(in, (unsigned)nd);
        if (acc && fz_pick(in, 32) == 31) {
            c->naxes = fz_pick(in, 2) ? 2 : -1; /* not one axis: CK_ERR_INVALID */
        }
        const int k = c->naxes < 0 ? 0 : c->naxes;
        int order[3] = {0, 1, 2};
        for (int i = nd - 1; i > 0; i--) {
            const int j = (int)fz_pick(in, (unsigned)i + 1);
            const int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < k; i++) {
            const int a = order[i % nd];
            c->axes[i] = fz_pick(in, 3) == 2 ? a - nd : a;
            reduced |= (uint64_t)1 << a;
        }
        if (k > 0 && fz_pick(in, 32) == 31) {
            c->axes[k - 1] = fz_pick(in, 2) ? nd + (int)fz_pick(in, 2) : c->axes[0]; /* refused */
        }
    }
    if (!acc && fz_pick(in, 3) == 2) {
        c->rflags |= CK_REDUCE_KEEPDIMS;
    }
    if (acc && fz_pick(in, 32) == 31) {
        c->rflags |= CK_REDUCE_KEEPDIMS; /* refused */
    }
    if (fz_pick(in, sopt ? 2 : 16) == 0) {
        c->rflags |= CK_REDUCE_SKIPNA;
    }
    /* The context: as for the other modes, but flags of its own (no records here). */
    c->ctx = (ck_eval_ctx)CK_EVAL_CTX_INIT;
    const unsigned m = fz_pick(in, 41);
    c->ctx.errmode = m < 40 ? (ck_errmode)(m % 5) : (ck_errmode)(5 + fz_pick(in, 3));
    c->mode = c->ctx.errmode == CK_ERRMODE_DEFAULT ? CK_ERRMODE_FRACTIONAL : c->ctx.errmode;
    c->ctx.flags = CK_EVAL_NO_JIT;
    const unsigned f = fz_u8(in);
    const int unaligned_src = (f & 7) == 7, unaligned_dst = (f & 0xf8) == 0xf8;
    if (unaligned_src) {
        c->ctx.flags |= CK_EVAL_SRC_UNALIGNED;
    }
    if (unaligned_dst) {
        c->ctx.flags |= CK_EVAL_DST_UNALIGNED; /* refused: the accumulators are aligned */
    }
    const unsigned t = fz_pick(in, 6);
    c->cap = t < 3 ? (int)t : -1;
    pick_request(c, in);
    /* The destination: the result's shape over its accumulator type. */
    int a = natural_acc(c, sid);
    c->natural = a >= 0;
    if (a < 0 || fz_pick(in, 5) == 4) {
        a = random_scalar(in); /* an explicit accumulator type */
        c->natural = 0;
    }
    int dopt = sopt;
    if (fz_pick(in, 16) == 15) {
        dopt = !dopt;
        c->natural = 0;
    }
    const unsigned shape = fz_pick(in, 24);
    c->natural &= shape < 20;
    fz_type *dt = scalar(c, dopt ? FZ_OPTION : FZ_SCALAR, a);
    if (shape == 20) {
        dt = wrap(c, FZ_FIXED, 2, dt); /* a dimension more than the result */
    }
    int last_kept = -1;
    for (int i = nd - 1; i >= 0; i--) {
        const int r = !acc && ((reduced >> i) & 1);
        if (r && (c->rflags & CK_REDUCE_KEEPDIMS) == 0) {
            continue;
        }
        if (shape == 21 && last_kept < 0) {
            last_kept = i; /* the innermost level of the result left out */
            continue;
        }
        intptr_t size = r ? 1 : n[i];
        fz_kind kind = var[i] && !r ? FZ_VAR : FZ_FIXED;
        if (shape == 22 && kind == FZ_FIXED && last_kept < 0) {
            size += 1; /* a size the result does not have */
            last_kept = i;
        }
        if (shape == 23 && kind == FZ_FIXED && !r && last_kept < 0) {
            kind = FZ_VAR; /* var where the source is fixed */
            last_kept = i;
        }
        dt = wrap(c, kind, size, dt);
    }
    if (dt == NULL) {
        return 0;
    }
    c->dst.t = dt;
    /* Data: sources as a call's (NaNs with the default payload, so that no arithmetic turns
     * one into an option's NA). */
    uint64_t seed = 0;
    for (int i = 0; i < 8; i++) {
        seed = seed << 8 | fz_u8(in);
    }
    in->rng = seed ^ (uint64_t)in->n * 0x2545f4914f6cdd1dull;
    size_t budget = 4 * FZ_MAX_BYTES;
    return materialize(c, in, &c->dst, 0, 1, &budget, unaligned_dst) &&
           materialize(c, in, &c->src[0], 1, 0, &budget, unaligned_src);
}

int fz_generate(fz_case *c, fz_in *in) {
    memset(c, 0, offsetof(fz_case, pool));
    c->npool = 0;
    c->cap = -1;
    if (in->n >= 4 && memcmp(in->p, FZ_REDUCE_MAGIC, 4) == 0) {
        in->i = 4;
        return generate_reduce(c, in);
    }
    gen_state g = {c, in, 0, 1, {0}, 0};
    /* What to build: an assignment (half), a built-in call, the fuzzer's sum3. */
    const unsigned what = fz_pick(in, 16);
    if (what < 8) {
        c->op = FZ_OP_ASSIGN;
        c->nsrc = 1;
        g.fields_ok = 1;
    } else {
        static const char *const ops[] = {"add", "subtract", "multiply", "trunc_divide", "assign"};
        c->op = FZ_OP_CALL;
        if (what < 14) {
            c->arith = (int)fz_pick(in, 4);
            c->nsrc = fz_pick(in, 12) == 11 ? 3 : 2; /* three: the built-ins take two */
        } else if (what == 14) {
            c->arith = FZ_ARITH_ASSIGN;
            c->nsrc = fz_pick(in, 12) == 11 ? 2 : 1;
        } else {
            c->arith = FZ_ARITH_SUM3;
            c->nsrc = fz_pick(in, 12) == 11 ? 2 : 3;
        }
        c->callable = c->arith == FZ_ARITH_SUM3 ? fz_sum3_callable() : lookup(ops[c->arith]);
        if (c->callable == NULL) {
            return 0;
        }
        g.fields_ok = fz_pick(in, 24) == 23; /* a record argument or result: CK_ERR_TYPE */
    }
    for (int i = 0; i < 16; i++) {
        static const intptr_t rows[] = {2, 3, 1, 0, 4, 5, 9, 17, 65};
        g.rowsize[i] = rows[fz_pick(in, 9)];
    }
    const int depth = 1 + (int)fz_pick(in, 4);
    c->dst.t = gen_dst(&g, depth, 1);
    if (c->dst.t == NULL) {
        return 0;
    }
    for (int k = 0; k < c->nsrc; k++) {
        c->src[k].t = derive(&g, c->dst.t, 1);
        if (c->src[k].t == NULL) {
            return 0;
        }
    }
    /* The context. */
    c->ctx = (ck_eval_ctx)CK_EVAL_CTX_INIT;
    const unsigned m = fz_pick(in, 21);
    c->ctx.errmode = m < 20 ? (ck_errmode)(m % 5) : (ck_errmode)(5 + fz_pick(in, 3));
    c->mode = c->ctx.errmode == CK_ERRMODE_DEFAULT ? CK_ERRMODE_FRACTIONAL : c->ctx.errmode;
    const unsigned f = fz_u8(in);
    c->ctx.flags = CK_EVAL_NO_JIT;
    if ((f & 3) == 3) {
        c->ctx.flags |= CK_EVAL_FIELDS_BY_POSITION;
    }
    if ((f & 12) == 12) {
        c->ctx.flags |= CK_EVAL_ALLOW_UNSAFE;
    }
    const int unaligned_dst = (f & 0x30) == 0x30, unaligned_src = (f & 0xc0) == 0xc0;
    if (unaligned_dst) {
        c->ctx.flags |= CK_EVAL_DST_UNALIGNED;
    }
    if (unaligned_src) {
        c->ctx.flags |= CK_EVAL_SRC_UNALIGNED;
    }
    const unsigned t = fz_pick(in, 6);
    c->cap = t < 3 ? (int)t : -1;
    c->stream_threshold = fz_pick(in, 4) == 3 ? (size_t)1 << fz_pick(in, 11) : 0;
    pick_request(c, in);
    if (c->op == FZ_OP_CALL) {
        select_signature(c, in);
    }
    /* Data. */
    uint64_t seed = 0;
    for (int i = 0; i < 8; i++) {
        seed = seed << 8 | fz_u8(in);
    }
    in->rng = seed ^ (uint64_t)in->n * 0x2545f4914f6cdd1dull;
    size_t budget = 4 * FZ_MAX_BYTES;
    if (!materialize(c, in, &c->dst, 0, 1, &budget, unaligned_dst)) {
        return 0;
    }
    for (int k = 0; k < c->nsrc; k++) {
        if (!materialize(c, in, &c->src[k], k + 1, 0, &budget, unaligned_src)) {
            return 0;
        }
    }
    return 1;
}

void fz_case_free(fz_case *c) {
    fz_operand *ops[1 + FZ_MAX_SRC] = {&c->dst, &c->src[0], &c->src[1], &c->src[2]};
    for (int k = 0; k <= FZ_MAX_SRC; k++) {
        fz_operand *o = ops[k];
        if (o->ck != NULL) {
            ck_arrmeta_release(o->ck, o->am); /* the blocks gen_am handed to the arrmeta */
            ck_type_decref(o->ck);
            o->ck = NULL;
        }
    }
    for (size_t i = 0; i < c->nregions; i++) {
        free(c->regions[i].raw);
        free(c->regions[i].snap);
    }
    free(c->regions);
    c->regions = NULL;
    c->nregions = c->cap_regions = 0;
}
