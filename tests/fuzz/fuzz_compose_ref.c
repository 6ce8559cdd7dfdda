/* tests/fuzz/fuzz_compose_ref.c: the composition fuzzer's reference interpreter. It knows
 * nothing of kernels: it walks the destination and the sources element by element, in C
 * order, following the arrmeta as docs/design.md §6 defines it (fixed dimensions, var rows
 * {begin, size} with the level's offset and stride, pointers plus their offset, field
 * offsets, the NA values of options), and applies the rules of §7 (shapes, broadcasting,
 * unallocated rows, NULL pointers, error modes), §10 (the built-ins' arithmetic, the
 * argument and result casts of a call) and §12 (records matched by name or position, runs of
 * identical fields copied as bytes, forward NA). Scalar conversions come from the shared
 * long-double oracle (tests/support/scalar_oracle.c).
 *
 * It records what the kernel must do: whether it builds (or the first build error, in the
 * composition's documented walk order: pointers, then dimensions from the outside, then
 * records and leaves), every destination element's expected bytes, every element or row that
 * fails with its status and message, and every destination row the kernel is to allocate. It
 * does not stop at a failure: a kernel whose order is not C order may report any failing
 * element (fuzz_compose.c says what is asserted when). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "complex_ref.h"
#include "fuzz_common.h"
#include "fuzz_compose.h"

static intptr_t get_ip(const char *p) {
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

static void alloc_extent(const fz_type *t, const char *am, intptr_t *lo, intptr_t *hi) {
    intptr_t l = 0, h = 0;
    int any = 0;
    switch (t->kind) {
    case FZ_FIXED: {
        const intptr_t n = get_ip(am), s = get_ip(am + 8);
        if (n > 0) {
            intptr_t el, eh;
            alloc_extent(t->el, am + 16, &el, &eh);
            extent_union(&l, &h, &any, el, eh);
            extent_union(&l, &h, &any, el + (n - 1) * s, eh + (n - 1) * s);
        }
        break;
    }
    case FZ_TUPLE:
    case FZ_STRUCT:
        for (int i = 0; i < t->nf; i++) {
            intptr_t fl, fh;
            const intptr_t off = get_ip(am + 8 * i);
            alloc_extent(t->f[i], am + t->fam[i], &fl, &fh);
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

static void *grow(void *p, size_t *cap, size_t n, size_t elem) {
    if (n < *cap) {
        return p;
    }
    const size_t c = *cap ? 2 * *cap : 256;
    void *q = realloc(p, c * elem);
    CKF_CHECK(q != NULL, "out of memory in the reference");
    *cap = c;
    return q;
}

static fz_write *add_write(fz_expect *x, fz_loc at, uint32_t size, fz_write_kind kind) {
    x->writes = (fz_write *)grow(x->writes, &x->cap_writes, x->nwrites, sizeof *x->writes);
    fz_write *w = &x->writes[x->nwrites++];
    memset(w, 0, sizeof *w);
    w->loc = at;
    w->size = size;
    w->kind = kind;
    w->seq = x->seq++;
    return w;
}

static fz_fail *add_fail(fz_expect *x, int status, const char *prefix) {
    x->fails = (fz_fail *)grow(x->fails, &x->cap_fails, x->nfails, sizeof *x->fails);
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
static void set_text(fz_fail *f, int i, const char *fmt, ...) {
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

/* ---- walking state ---- */

typedef struct ref_ctx {
    intptr_t idx[64]; /* the index of every enclosing dimension, outermost first */
    int nidx;
    int dim;          /* destination dimensions above (var dimensions are named by it) */
    intptr_t call;    /* the element's index in the strided call that reaches it; -1: single */
    char prefix[256]; /* "field a: " for every record on the way */
} ref_ctx;

typedef struct ref_state {
    const fz_case *c;
    fz_expect *x;
} ref_state;

static fz_loc loc_add(fz_loc l, intptr_t off) {
    l.at += (uintptr_t)off;
    return l;
}

static fz_loc real_loc(const void *p) {
    fz_loc l = {-1, (uintptr_t)p};
    return l;
}

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

static void push_index(ref_ctx *ctx, intptr_t i) {
    if (ctx->nidx < 64) {
        ctx->idx[ctx->nidx++] = i;
    }
}

/* "var dimension D at [i][j]: body": a located error (docs/design.md §4); `what` names the
 * kind of dimension ("var dimension", "reduced dimension", ...). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 5, 0)))
#endif
static void located_v(ref_state *r, const ref_ctx *ctx, int status, const char *what,
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
    fz_fail *f = add_fail(r->x, status, "");
    set_text(f, 0, "%s %d%s: %s", what, ctx->dim, path, body);
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static void located(ref_state *r, const ref_ctx *ctx, int status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    located_v(r, ctx, status, "var dimension", fmt, ap);
    va_end(ap);
}

/* ---- scalars ---- */

static int is_na(ck_type_id id, const unsigned char *p) {
    return memcmp(p, ck_option_na_bytes(ck_type_scalar(id)), ckt_scalar(id)->size) == 0;
}

static uint64_t load_u(const unsigned char *p, size_t n) {
    uint64_t v = 0;
    memcpy(&v, p, n);
    return v;
}

static int64_t load_s(const unsigned char *p, size_t n) {
    const uint64_t u = load_u(p, n);
    const int sh = 64 - 8 * (int)n;
    return (int64_t)(u << sh) >> sh;
}

static void store_u(unsigned char *p, uint64_t v, size_t n) {
    memcpy(p, &v, n);
}

/* ---- the float formats (docs/design.md §6: IEEE binary16, bfloat16 as float32's top
 * half, binary32, binary64), by their widths alone ---- */

static const fz_float_format kFloat16 = {16, 5, 10}, kBfloat16 = {16, 8, 7},
                             kFloat32 = {32, 8, 23}, kFloat64 = {64, 11, 52};

const fz_float_format *fz_float_format_of(int kind) {
    switch (kind) {
    case 'H': return &kFloat16;
    case 'G': return &kBfloat16;
    case 'F': return &kFloat32;
    case 'D': return &kFloat64;
    default: return NULL;
    }
}

static uint64_t exp_mask(const fz_float_format *f) {
    return ((uint64_t)1 << f->exp_bits) - 1;
}

static uint64_t frac_mask(const fz_float_format *f) {
    return ((uint64_t)1 << f->frac_bits) - 1;
}

int fz_float_is_nan(const fz_float_format *f, const unsigned char *p) {
    const uint64_t u = load_u(p, (size_t)f->bits / 8);
    return ((u >> f->frac_bits) & exp_mask(f)) == exp_mask(f) && (u & frac_mask(f)) != 0;
}

void fz_float_default_nan(const fz_float_format *f, unsigned char *out) {
    store_u(out, exp_mask(f) << f->frac_bits | (uint64_t)1 << (f->frac_bits - 1),
            (size_t)f->bits / 8);
}

/* The NaN a conversion gives on x86 (SSE, F16C, and the library's integer conversions
 * alike): the sign and the top of the payload kept, the quiet bit set. docs/design.md leaves
 * payloads free, and a NaN that lands on an option's NA bits is the default NaN (canon_na),
 * so the model only keeps the values the reference computes with close to the kernel's. */
static void nan_convert(const fz_float_format *d, const fz_float_format *s,
                        const unsigned char *src, unsigned char *out) {
    const uint64_t u = load_u(src, (size_t)s->bits / 8);
    const uint64_t sign = u >> (s->bits - 1);
    /* the fraction left-aligned in 52 bits, the quiet bit its top one */
    const uint64_t frac = (u & frac_mask(s)) << (52 - s->frac_bits) | (uint64_t)1 << 51;
    store_u(out,
            sign << (d->bits - 1) | exp_mask(d) << d->frac_bits | frac >> (52 - d->frac_bits),
            (size_t)d->bits / 8);
}

double fz_float_value(const fz_float_format *f, const unsigned char *p) {
    const uint64_t u = load_u(p, (size_t)f->bits / 8);
    const int bias = (1 << (f->exp_bits - 1)) - 1;
    const uint64_t e = (u >> f->frac_bits) & exp_mask(f), m = u & frac_mask(f);
    double v;
    if (e == exp_mask(f) && m != 0) {
        nan_convert(&kFloat64, f, p, (unsigned char *)&v);
        return v;
    }
    if (e == exp_mask(f)) {
        v = (double)INFINITY;
    } else if (e == 0) {
        v = ldexp((double)m, 1 - bias - f->frac_bits);
    } else {
        v = ldexp((double)(m | (uint64_t)1 << f->frac_bits), (int)e - bias - f->frac_bits);
    }
    return (u >> (f->bits - 1)) != 0 ? -v : v;
}

/* By the definition: the significand in units of the quantum of v's binade (the smallest
 * normal one's below it), rounded to an integer, ties to even (rint in the default rounding
 * mode; the division by a power of two is exact). */
void fz_float_round(const fz_float_format *f, double v, unsigned char *out) {
    if (isnan(v)) {
        nan_convert(f, &kFloat64, (const unsigned char *)&v, out);
        return;
    }
    const int bias = (1 << (f->exp_bits - 1)) - 1, emin = 1 - bias;
    const uint64_t sign = (uint64_t)(signbit(v) != 0) << (f->bits - 1);
    const double a = fabs(v);
    const uint64_t inf = exp_mask(f) << f->frac_bits;
    if (a == 0.0 || isinf(a)) {
        store_u(out, sign | (a == 0.0 ? 0 : inf), (size_t)f->bits / 8);
        return;
    }
    int e;
    (void)frexp(a, &e);
    e = e - 1 < emin ? emin : e - 1; /* a in [2^e, 2^(e+1)), or below the normals */
    double m = rint(a / ldexp(1.0, e - f->frac_bits));
    if (m >= ldexp(1.0, f->frac_bits + 1)) { /* rounded up into the next binade */
        m /= 2;
        e++;
    }
    uint64_t bits;
    if (e > bias) {
        bits = inf;
    } else if (m < ldexp(1.0, f->frac_bits)) {
        bits = (uint64_t)m; /* a subnormal (e is emin) */
    } else {
        bits = (uint64_t)(e + bias) << f->frac_bits | ((uint64_t)m & frac_mask(f));
    }
    store_u(out, sign | bits, (size_t)f->bits / 8);
}

/* The format of a real float type, or of a complex type's parts; NULL for the others. */
static const fz_float_format *part_format(ck_type_id id) {
    const ckt_scalar_info *t = ckt_scalar(id);
    return fz_float_format_of(ckt_scalar(t->component)->kind);
}

/* float16 and bfloat16: computed in float32 and rounded once (docs/design.md §6, §10). */
static const fz_float_format *narrow_format(ck_type_id id) {
    const fz_float_format *f = fz_float_format_of(ckt_scalar(id)->kind);
    return f != NULL && f->bits == 16 ? f : NULL;
}

static float narrow_to_float(const fz_float_format *f, const unsigned char *p) {
    return (float)fz_float_value(f, p);
}

static void float_to_narrow(const fz_float_format *f, float v, unsigned char *out) {
    fz_float_round(f, (double)v, out);
}

/* The oracle's conversion with its free NaN parts filled in by the model, so the value can
 * be computed with and compared with an NA. */
static ckt_expect convert(ck_type_id d, ck_type_id s, int mode, const unsigned char *src) {
    ckt_expect e = ckt_oracle(d, s, mode, src);
    if (e.status != CK_OK || (!e.nan[0] && !e.nan[1])) {
        return e;
    }
    const ckt_scalar_info *di = ckt_scalar(d), *si = ckt_scalar(s);
    const ckt_scalar_info *dc = ckt_scalar(di->component), *sc = ckt_scalar(si->component);
    for (int k = 0; k < 2; k++) {
        if (e.nan[k]) {
            /* part k of the destination comes from part k of the source (its real part when
             * the source is real, which is then the NaN) */
            const unsigned char *sp = src + (si->kind == 'C' ? (size_t)k * sc->size : 0);
            nan_convert(fz_float_format_of(dc->kind), fz_float_format_of(sc->kind), sp,
                        e.out.b + (size_t)k * dc->size);
        }
    }
    return e;
}

/* ---- arithmetic (docs/design.md §10) ---- */

static void mark_nan(ckt_expect *e, ck_type_id id) {
    const ckt_scalar_info *t = ckt_scalar(id);
    const fz_float_format *f = part_format(id);
    if (f == NULL) {
        return;
    }
    const size_t part = (size_t)f->bits / 8;
    for (size_t k = 0; k < t->size / part; k++) {
        e->nan[k] = fz_float_is_nan(f, e->out.b + k * part);
    }
}

/* Arithmetic never creates an NA (docs/design.md §14): into an option of a float or
 * complex type, each part of a computed value that has the NA's bits is the default quiet
 * NaN (float16 0x7e00, bfloat16 0x7fc0, float32 0x7fc00000, float64 0x7ff8000000000000). */
static void canon_na(ck_type_id id, unsigned char *p) {
    const ckt_scalar_info *t = ckt_scalar(id);
    const fz_float_format *f = part_format(id);
    if (f == NULL) {
        return;
    }
    const unsigned char *na = ck_option_na_bytes(ck_type_scalar(id));
    const size_t part = (size_t)f->bits / 8;
    for (size_t k = 0; k < t->size / part; k++) {
        if (memcmp(p + k * part, na + k * part, part) == 0) {
            fz_float_default_nan(f, p + k * part);
        }
    }
}

/* Float operations, one rounding each: separate statements and no contraction. */
static double op_d(int op, double a, double b) {
    switch (op) {
    case FZ_ARITH_ADD: return a + b;
    case FZ_ARITH_SUBTRACT: return a - b;
    case FZ_ARITH_MULTIPLY: return a * b;
    default: return a / b;
    }
}

static float op_f(int op, float a, float b) {
    switch (op) {
    case FZ_ARITH_ADD: return a + b;
    case FZ_ARITH_SUBTRACT: return a - b;
    case FZ_ARITH_MULTIPLY: return a * b;
    default: return a / b;
    }
}

/* Complex add and subtract part by part; multiply by the plain formula and divide by Smith's
 * algorithm as NumPy writes it, from tests/support/complex_ref.c (shared with the arithmetic
 * leaf tests). */
#define FZ_COMPLEX_OPS(NAME, FT, MUL, DIV)                                                   \
    static void NAME(int op, const FT *a, const FT *b, FT *r) {                              \
        const FT ar = a[0], ai = a[1], br = b[0], bi = b[1];                                 \
        if (op == FZ_ARITH_ADD || op == FZ_ARITH_SUBTRACT || op == FZ_ARITH_SUM3) {          \
            r[0] = op == FZ_ARITH_SUBTRACT ? ar - br : ar + br;                              \
            r[1] = op == FZ_ARITH_SUBTRACT ? ai - bi : ai + bi;                              \
            return;                                                                          \
        }                                                                                    \
        if (op == FZ_ARITH_MULTIPLY) {                                                       \
            MUL(a, b, r);                                                                    \
            return;                                                                          \
        }                                                                                    \
        DIV(a, b, r);                                                                        \
    }
FZ_COMPLEX_OPS(complex_f, float, ckt_complex_mul_f, ckt_complex_div_f)
FZ_COMPLEX_OPS(complex_d, double, ckt_complex_mul_d, ckt_complex_div_d)

/* out = a op b in type id; CK_ERR_ZERO_DIVISION for an integer divide by zero. */
static int arith2(int op, ck_type_id id, const unsigned char *a, const unsigned char *b,
                  ckt_expect *out) {
    const ckt_scalar_info *t = ckt_scalar(id);
    memset(out, 0, sizeof *out);
    unsigned char *o = out->out.b;
    switch (t->kind) {
    case 'B':
        o[0] = op == FZ_ARITH_MULTIPLY ? (unsigned char)((a[0] != 0) & (b[0] != 0))
                                       : (unsigned char)((a[0] != 0) | (b[0] != 0));
        return CK_OK;
    case 'S':
    case 'U': {
        const uint64_t ua = load_u(a, t->size), ub = load_u(b, t->size);
        uint64_t r;
        if (op == FZ_ARITH_DIVIDE) {
            if (ub == 0) {
                return CK_ERR_ZERO_DIVISION;
            }
            if (t->kind == 'S') {
                const int64_t sa = load_s(a, t->size), sb = load_s(b, t->size);
                r = sb == -1 ? 0 - (uint64_t)sa : (uint64_t)(sa / sb);
            } else {
                r = ua / ub;
            }
        } else {
            r = op == FZ_ARITH_SUBTRACT   ? ua - ub
                : op == FZ_ARITH_MULTIPLY ? ua * ub
                                          : ua + ub;
        }
        memcpy(o, &r, t->size); /* modulo 2^n: the low bytes */
        return CK_OK;
    }
    case 'H':
    case 'G': { /* in float32, rounded once */
        const fz_float_format *f = narrow_format(id);
        const float x = narrow_to_float(f, a), y = narrow_to_float(f, b);
        const float z = op_f(op == FZ_ARITH_SUM3 ? FZ_ARITH_ADD : op, x, y);
        float_to_narrow(f, z, o);
        break;
    }
    case 'F': {
        float x, y;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        const float z = op_f(op == FZ_ARITH_SUM3 ? FZ_ARITH_ADD : op, x, y);
        memcpy(o, &z, 4);
        break;
    }
    case 'D': {
        double x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        const double z = op_d(op == FZ_ARITH_SUM3 ? FZ_ARITH_ADD : op, x, y);
        memcpy(o, &z, 8);
        break;
    }
    default:
        if (id == CK_TYPE_COMPLEX64) {
            float x[2], y[2], z[2];
            memcpy(x, a, 8);
            memcpy(y, b, 8);
            complex_f(op, x, y, z);
            memcpy(o, z, 8);
        } else {
            double x[2], y[2], z[2];
            memcpy(x, a, 16);
            memcpy(y, b, 16);
            complex_d(op, x, y, z);
            memcpy(o, z, 16);
        }
        break;
    }
    mark_nan(out, id);
    return CK_OK;
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

/* A type as the library's build errors show it (docs/design.md §4): whole up to 200 bytes;
 * a longer one up to its last space within the first 200 bytes, then "..." (the fuzzer's
 * field names are never quoted, so every space is between tokens). */
#define FZ_SHOWN 200
static void shown_text(const fz_type *t, char *buf, size_t cap) {
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

static void operand_text(const fz_case *c, int k, char *buf, size_t cap) {
    char t[FZ_SHOWN + 8];
    shown_text(c->src[k].t, t, sizeof t);
    if (c->nsrc == 1) {
        snprintf(buf, cap, "source %s", t);
    } else {
        snprintf(buf, cap, "argument %d (%s)", k, t);
    }
}

static void extra_dims(build_state *b, int k, int extra) {
    char who[FZ_MSG], d[FZ_SHOWN + 8];
    operand_text(b->c, k, who, sizeof who);
    shown_text(b->c->dst.t, d, sizeof d);
    build_error(b, CK_ERR_BROADCAST,
                "cannot assign %s into destination %s: the %s has %d more dimension%s than the "
                "destination can hold",
                who, d, b->c->nsrc == 1 ? "source" : "argument", extra, extra == 1 ? "" : "s");
}

static void size_mismatch(build_state *b, int k, int dim, intptr_t ssize, intptr_t dsize) {
    char who[FZ_MSG], d[FZ_SHOWN + 8];
    operand_text(b->c, k, who, sizeof who);
    shown_text(b->c->dst.t, d, sizeof d);
    build_error(b, CK_ERR_BROADCAST,
                "cannot broadcast %s into destination %s: dimension %d has size %td in the %s and "
                "%td in the destination",
                who, d, dim, ssize, b->c->nsrc == 1 ? "source" : "argument", dsize);
}

static int check_fixed(build_state *b, const fz_type *t, const char *am, const char *which) {
    if (get_ip(am) != t->n) {
        build_error(b, CK_ERR_INVALID,
                    "the %s arrmeta gives a fixed dimension of size %td, its type says %td", which,
                    get_ip(am), t->n);
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
        ordered &= get_ip(dam + 8 * i) >= get_ip(dam + 8 * (i - 1)) + (intptr_t)d->f[i - 1]->size;
    }
    for (int i = 0; i < d->nf;) {
        int len = 0;
        while (ordered && i + len < d->nf) {
            const int k = i + len, j = match[k];
            const int same =
                fz_type_equal(d->f[k], s->f[j]) &&
                fz_arrmeta_is_default(d->f[k], dam + d->fam[k]) &&
                fz_arrmeta_is_default(s->f[j], sam + s->fam[j]) &&
                get_ip(sam + 8 * j) - get_ip(sam + 8 * match[i]) ==
                    get_ip(dam + 8 * k) - get_ip(dam + 8 * i);
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
    shown_text(d, dt, sizeof dt);
    shown_text(s, st, sizeof st);
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
            w.dam += 16;
            continue;
        }
        int ptr = -1;
        for (int k = 0; k < ns && ptr < 0; k++) {
            ptr = w.s[k]->kind == FZ_POINTER ? k : -1;
        }
        if (ptr >= 0) {
            w.s[ptr] = w.s[ptr]->el;
            w.sam[ptr] += 16;
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
                    w.sam[k] += 16;
                }
                w.d = w.d->el;
                w.dam += 16;
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
                w.sam[k] += 16;
            } else {
                w.sam[k] += 24;
            }
            w.s[k] = w.s[k]->el;
        }
        if (w.d->kind == FZ_FIXED) {
            if (!check_fixed(b, w.d, w.dam, "destination")) {
                return;
            }
            w.dam += 16;
        } else {
            w.dam += 24;
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
    fz_fail *f = add_fail(r->x, CK_ERR_NA, ctx->prefix);
    set_text(f, 0, "NA at element %c cannot be assigned to %s, which is not an option type",
             FZ_ANY_NUMBER, ckt_scalar(dval)->name);
}

static void fail_leaf(ref_state *r, const ref_ctx *ctx, int status, ck_type_id d, ck_type_id s,
                      const unsigned char *value) {
    fz_fail *f = add_fail(r->x, status, ctx->prefix);
    f->leaf = 1;
    f->leaf_dst = d;
    f->leaf_src = s;
    memcpy(f->leaf_value.b, value, ckt_scalar(s)->size);
}

static void write_value(ref_state *r, fz_loc dl, ck_type_id id, const ckt_expect *e) {
    fz_write *w = add_write(r->x, dl, (uint32_t)ckt_scalar(id)->size, FZ_W_VALUE);
    w->id = id;
    w->e = *e;
}

/* A value computed into an option: any NaN it may be is not the NA (§14). */
static void write_option_value(ref_state *r, fz_loc dl, ck_type_id id, const ckt_expect *e) {
    write_value(r, dl, id, e);
    r->x->writes[r->x->nwrites - 1].not_na = !is_na(id, e->out.b);
}

static void write_keep(ref_state *r, fz_loc dl, size_t size) {
    add_write(r->x, dl, (uint32_t)size, FZ_W_KEEP);
}

/* The value of a converted element may not be the destination's NA in a checked mode. */
static int lands_on_na(const fz_case *c, int dopt, ck_type_id dval, const ckt_expect *e) {
    return dopt && c->mode != CK_ERRMODE_NOCHECK && is_na(dval, e->out.b);
}

static void fail_na_value(ref_state *r, const ref_ctx *ctx, ck_type_id dval) {
    fz_fail *f = add_fail(r->x, CK_ERR_OVERFLOW, ctx->prefix);
    set_text(f, 0, "the value at element %c converts to the NA of ?%s (its reserved value)",
             FZ_ANY_NUMBER, ckt_scalar(dval)->name);
}

static void leaf_assign(ref_state *r, const fz_type *d, fz_loc dl, const fz_type *s,
                        const unsigned char *sp, const ref_ctx *ctx) {
    const ck_type_id dval = d->id, sval = s->id;
    const int dopt = d->kind == FZ_OPTION, sopt = s->kind == FZ_OPTION;
    ckt_expect e;
    if (dopt && sval == dval) { /* T -> ?T and ?T -> ?T copy: NA travels as its bits */
        e = ckt_oracle(dval, sval, CK_ERRMODE_NOCHECK, sp);
        write_value(r, dl, dval, &e);
        return;
    }
    if (sopt && is_na(sval, sp)) {
        if (dopt) {
            memset(&e, 0, sizeof e);
            memcpy(e.out.b, ck_option_na_bytes(ck_type_scalar(dval)), ckt_scalar(dval)->size);
            write_value(r, dl, dval, &e);
        } else {
            fail_na(r, ctx, dval);
            write_keep(r, dl, ckt_scalar(dval)->size);
        }
        return;
    }
    e = convert(dval, sval, r->c->mode, sp);
    if (e.status != CK_OK) {
        fail_leaf(r, ctx, e.status, dval, sval, sp);
        write_keep(r, dl, ckt_scalar(dval)->size);
        return;
    }
    if (dopt) {
        canon_na(dval, e.out.b); /* a float's: then never on the NA */
    }
    if (lands_on_na(r->c, dopt, dval, &e)) {
        fail_na_value(r, ctx, dval);
        write_keep(r, dl, ckt_scalar(dval)->size);
        return;
    }
    if (dopt) {
        write_option_value(r, dl, dval, &e);
    } else {
        write_value(r, dl, dval, &e);
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
        na |= s[k]->kind == FZ_OPTION && is_na(s[k]->id, sp[k]);
    }
    ckt_expect e;
    if (na) { /* NA in any argument gives NA out */
        if (dopt) {
            memset(&e, 0, sizeof e);
            memcpy(e.out.b, ck_option_na_bytes(ck_type_scalar(dval)), dsize);
            write_value(r, dl, dval, &e);
        } else {
            fail_na(r, ctx, dval);
            write_keep(r, dl, dsize);
        }
        return;
    }
    /* The arguments' casts to the signature's types, in argument order. */
    ckt_expect arg[FZ_MAX_SRC];
    for (int k = 0; k < c->nsrc; k++) {
        arg[k] = convert(c->sig.args[k], s[k]->id, c->mode, sp[k]);
        if (arg[k].status != CK_OK) {
            fail_leaf(r, ctx, arg[k].status, c->sig.args[k], s[k]->id, sp[k]);
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
        rc = arith2(c->arith == FZ_ARITH_SUM3 ? FZ_ARITH_ADD : c->arith, c->sig.ret, arg[0].out.b,
                    arg[1].out.b, &res);
        if (rc == CK_OK && c->arith == FZ_ARITH_SUM3) {
            ckt_expect ab = res;
            rc = arith2(FZ_ARITH_ADD, c->sig.ret, ab.out.b, arg[2].out.b, &res);
        }
    }
    if (rc != CK_OK) {
        fz_fail *f = add_fail(r->x, rc, ctx->prefix);
        /* from a single call, or located by the loops that reached the element */
        set_text(f, 0, "divide: integer division by zero");
        set_text(f, 1, "divide: integer division by zero at element %c", FZ_ANY_INDEX);
        write_keep(r, dl, dsize);
        return;
    }
    /* The result's cast to the destination. */
    if (c->sig.ret == dval) {
        e = res;
    } else {
        e = convert(dval, c->sig.ret, c->mode, res.out.b);
        if (e.status != CK_OK) {
            fail_leaf(r, ctx, e.status, dval, c->sig.ret, res.out.b);
            r->x->fails[r->x->nfails - 1].leaf_value = res.out;
            write_keep(r, dl, dsize);
            return;
        }
    }
    if (dopt) {
        canon_na(dval, e.out.b);
    }
    if (lands_on_na(c, dopt, dval, &e)) {
        fail_na_value(r, ctx, dval);
        write_keep(r, dl, dsize);
        return;
    }
    if (dopt) {
        write_option_value(r, dl, dval, &e);
    } else {
        write_value(r, dl, dval, &e);
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
        const intptr_t doff = get_ip(dam + 8 * i), soff = get_ip(sw->sam[0] + 8 * match[i]);
        if (run[i] > 0) {
            /* up to the furthest reach of the run's fields: a record's tail padding is not
             * written, nor an empty field's place (a row allocated for the destination ends
             * before them) */
            intptr_t span = 0;
            for (int k = i; k < i + run[i]; k++) {
                intptr_t lo, hi;
                alloc_extent(d->f[k], dam + d->fam[k], &lo, &hi);
                if (hi > lo && get_ip(dam + 8 * k) - doff + hi > span) {
                    span = get_ip(dam + 8 * k) - doff + hi;
                }
            }
            if (span > 0) {
                fz_write *w = add_write(r->x, loc_add(dl, doff), (uint32_t)span, FZ_W_BYTES);
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
        walk(r, d->f[i], dam + d->fam[i], loc_add(dl, doff), &fw, fsp, &fctx);
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
            fz_fail *f = add_fail(r->x, CK_ERR_UNINITIALIZED, ctx_in->prefix);
            if (ctx_in->call >= 0) {
                set_text(f, 0, "pointer: the destination pointer of element %td is NULL",
                         ctx_in->call);
                if (ctx_in->prefix[0] != '\0') { /* a field's run: counted within its block */
                    set_text(f, 1, "pointer: the destination pointer of element %c is NULL",
                             FZ_ANY_NUMBER);
                }
            } else {
                set_text(f, 0, "pointer: the destination pointer is NULL");
            }
            return;
        }
        ref_ctx ctx = *ctx_in;
        ctx.call = -1;
        walk(r, d->el, dam + 16, real_loc(p + get_ip(dam + 8)), &sw, sp, &ctx);
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
            fz_fail *f = add_fail(r->x, CK_ERR_UNINITIALIZED, ctx_in->prefix);
            if (ctx_in->call >= 0) {
                set_text(f, 0, "pointer: the source pointer of element %td is NULL", ctx_in->call);
                if (ctx_in->prefix[0] != '\0') { /* a field's run: counted within its block */
                    set_text(f, 1, "pointer: the source pointer of element %c is NULL",
                             FZ_ANY_NUMBER);
                }
            } else {
                set_text(f, 0, "pointer: the source pointer is NULL");
            }
            return;
        }
        sp[k] = (const unsigned char *)p + get_ip(sw.sam[k] + 8);
        sw.sam[k] += 16;
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
            sn[k] = get_ip(sw.sam[k]);
            ss[k] = get_ip(sw.sam[k] + 8);
            el.sam[k] = sw.sam[k] + 16;
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
            ss[k] = get_ip(sw.sam[k] + 8);
            srow[k] = (const unsigned char *)v.begin + get_ip(sw.sam[k] + 16);
            el.sam[k] = sw.sam[k] + 24;
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
        ds = get_ip(dam + 8);
        delam = dam + 24;
        if (v.begin == NULL) {
            const intptr_t n = ns == 1 ? sn[0] : common;
            ck_memblock *b;
            memcpy(&b, dam, sizeof b);
            const intptr_t offset = get_ip(dam + 16);
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
            alloc_extent(d->el, delam, &elo, &ehi);
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
            x->rows = (fz_vrow *)grow(x->rows, &x->cap_rows, x->nrows, sizeof *x->rows);
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
            drow = real_loc(v.begin + get_ip(dam + 16));
            dn = (intptr_t)v.size;
        }
    } else {
        drow = dl;
        dn = get_ip(dam);
        ds = get_ip(dam + 8);
        delam = dam + 16;
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
        push_index(&ctx, i);
        ctx.call = i;
        ctx.dim = ctx_in->dim + 1;
        const unsigned char *e[FZ_MAX_SRC];
        for (int k = 0; k < ns; k++) {
            e[k] = srow[k] + i * ss[k];
        }
        walk(r, d->el, delam, loc_add(drow, i * ds), &el, e, &ctx);
    }
}

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

/* ---- the element operations in the accumulator's type (docs/design.md §10) ---- */

/* 1 when minimum (maximum) of complex a and b gives a: lexicographic, an operand with a NaN
 * part winning (the first of two), a NaN imaginary part stopping a decision by the real
 * parts alone. */
static int complex_pick_first(int max, double ar, double ai, double br, double bi) {
    const int nan_a = ar != ar || ai != ai;
    const int nan_i = ai != ai || bi != bi;
    const int ord = max ? ((ar > br && !nan_i) || (ar == br && ai >= bi))
                        : ((ar < br && !nan_i) || (ar == br && ai <= bi));
    return nan_a || ord;
}

static void minmax(int max, ck_type_id id, const unsigned char *a, const unsigned char *b,
                   unsigned char *out) {
    const ckt_scalar_info *t = ckt_scalar(id);
    int first;
    switch (t->kind) {
    case 'B':
        out[0] = (unsigned char)(max ? ((a[0] != 0) | (b[0] != 0)) : ((a[0] != 0) & (b[0] != 0)));
        return;
    case 'S': {
        const int64_t x = load_s(a, t->size), y = load_s(b, t->size);
        first = max ? x > y : x < y;
        break;
    }
    case 'U': {
        const uint64_t x = load_u(a, t->size), y = load_u(b, t->size);
        first = max ? x > y : x < y;
        break;
    }
    case 'H':
    case 'G': { /* compared in float32, the first of two equal values */
        const fz_float_format *f = narrow_format(id);
        const float x = narrow_to_float(f, a), y = narrow_to_float(f, b);
        first = max ? (x >= y || x != x) : (x <= y || x != x);
        break;
    }
    case 'F': { /* the second of two equal values; a NaN operand wins */
        float x, y;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        first = max ? (x > y || x != x) : (x < y || x != x);
        break;
    }
    case 'D': {
        double x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        first = max ? (x > y || x != x) : (x < y || x != x);
        break;
    }
    default:
        if (id == CK_TYPE_COMPLEX64) {
            float x[2], y[2];
            memcpy(x, a, 8);
            memcpy(y, b, 8);
            first = complex_pick_first(max, x[0], x[1], y[0], y[1]);
        } else {
            double x[2], y[2];
            memcpy(x, a, 16);
            memcpy(y, b, 16);
            first = complex_pick_first(max, x[0], x[1], y[0], y[1]);
        }
        break;
    }
    memcpy(out, first ? a : b, t->size);
}

/* out = op(a, b), element by element as the in-place form and the scans compute it. */
static void elem_op(int rop, ck_type_id id, const unsigned char *a, const unsigned char *b,
                    unsigned char *out) {
    switch (rop) {
    case FZ_ROP_ADD:
    case FZ_ROP_MULTIPLY: {
        ckt_expect e;
        arith2(rop == FZ_ROP_ADD ? FZ_ARITH_ADD : FZ_ARITH_MULTIPLY, id, a, b, &e);
        memcpy(out, e.out.b, ckt_scalar(id)->size);
        return;
    }
    case FZ_ROP_MINIMUM:
    case FZ_ROP_MAXIMUM: minmax(rop == FZ_ROP_MAXIMUM, id, a, b, out); return;
    default:
        out[0] = (unsigned char)(rop == FZ_ROP_AND ? ((a[0] != 0) & (b[0] != 0))
                                                   : ((a[0] != 0) | (b[0] != 0)));
        return;
    }
}

/* ---- the fold of a float or complex run: its lanes ----
 * A lane holds the accumulator's value (float16 and bfloat16: a float32). */
typedef union rlane {
    float f[2];
    double d[2];
    unsigned char b[16];
} rlane;

static rlane lane_load(ck_type_id id, const unsigned char *p) {
    rlane v;
    memset(&v, 0, sizeof v);
    const fz_float_format *f = narrow_format(id);
    if (f != NULL) {
        v.f[0] = narrow_to_float(f, p);
    } else {
        memcpy(v.b, p, ckt_scalar(id)->size);
    }
    return v;
}

static void lane_store(ck_type_id id, rlane v, unsigned char *out) {
    const fz_float_format *f = narrow_format(id);
    if (f != NULL) {
        float_to_narrow(f, v.f[0], out);
    } else {
        memcpy(out, v.b, ckt_scalar(id)->size);
    }
}

static rlane lane_identity(int rop, ck_type_id id) {
    rlane v;
    memset(&v, 0, sizeof v);
    const int two = ckt_scalar(id)->kind == 'C';
    const int wide = id == CK_TYPE_FLOAT64 || id == CK_TYPE_COMPLEX128;
    for (int k = 0; k < 1 + two; k++) {
        const double d = rop == FZ_ROP_ADD        ? 0.0
                         : rop == FZ_ROP_MULTIPLY ? (k == 0 ? 1.0 : 0.0)
                         : rop == FZ_ROP_MINIMUM  ? (double)INFINITY
                                                  : -(double)INFINITY;
        if (wide) {
            v.d[k] = d;
        } else {
            v.f[k] = (float)d;
        }
    }
    return v;
}

/* op on two lanes: float16 and bfloat16 in float32 (the first of two equal values for
 * minimum and maximum, as their element operation), the others as their element operation. */
static rlane lane_op(int rop, ck_type_id id, rlane a, rlane b) {
    if (narrow_format(id) == NULL) {
        rlane r;
        memset(&r, 0, sizeof r);
        elem_op(rop, id, a.b, b.b, r.b);
        return r;
    }
    const float x = a.f[0], y = b.f[0];
    rlane r;
    memset(&r, 0, sizeof r);
    switch (rop) {
    case FZ_ROP_ADD: r.f[0] = x + y; break;
    case FZ_ROP_MULTIPLY: r.f[0] = x * y; break;
    case FZ_ROP_MINIMUM: r.f[0] = (x <= y || x != x) ? x : y; break;
    default: r.f[0] = (x >= y || x != x) ? x : y; break;
    }
    return r;
}

/* b = a op b lane by lane over ln lanes, where a holds fa lanes and b fb (a lane empty on
 * one side takes the other's); returns the lanes b then holds. */
static int lanes_merge(int rop, ck_type_id id, const rlane *a, int fa, rlane *b, int fb,
                       int ln) {
    for (int l = 0; l < ln; l++) {
        if (l < fa && l < fb) {
            b[l] = lane_op(rop, id, a[l], b[l]);
        } else if (l < fa) {
            b[l] = a[l];
        }
    }
    return fa > fb ? fa : fb;
}

/* acc = op(acc, F(x[0..n))) with F §14's association: 16 lanes (8 complex), element i of a
 * block of 128 into lane i mod 16 in order (a lane starts with its first element as it is,
 * never from the identity), the blocks' lane vectors in a binary counter (the earlier on the
 * left; the stack merged from its top down at the end), the lanes halved (a lane op one
 * that holds a value), then op with the accumulator (float16 and bfloat16: rounded once,
 * there). */
static void fold_tree(const rstate *rs, unsigned char *acc, const ckt_elem *x, size_t n) {
    const ck_type_id id = rs->a;
    const int ln = ckt_scalar(id)->kind == 'C' ? 8 : 16;
    rlane stack[48][16];
    int level[48], filled[48], top = 0;
    for (size_t b = 0; b < n; b += 128) {
        const size_t len = n - b < 128 ? n - b : 128;
        rlane v[16];
        int f = 0;
        for (size_t i = 0; i < len; i++) {
            const int l = (int)(i % (size_t)ln);
            const rlane e = lane_load(id, x[b + i].b);
            v[l] = l < f ? lane_op(rs->rop, id, v[l], e) : e;
            f = l + 1 > f ? l + 1 : f;
        }
        int lvl = 0;
        while (top > 0 && level[top - 1] == lvl) {
            f = lanes_merge(rs->rop, id, stack[top - 1], filled[top - 1], v, f, ln);
            top--;
            lvl++;
        }
        CKF_CHECK(top < 48, "the reference's fold stack");
        memcpy(stack[top], v, sizeof v);
        filled[top] = f;
        level[top++] = lvl;
    }
    if (top == 0) {
        return; /* no element: the accumulator as it was */
    }
    rlane v[16];
    memcpy(v, stack[top - 1], sizeof v);
    int f = filled[top - 1];
    for (int j = top - 2; j >= 0; j--) {
        f = lanes_merge(rs->rop, id, stack[j], filled[j], v, f, ln);
    }
    for (int w = ln / 2; w >= 1; w /= 2) {
        for (int l = 0; l < w && l + w < f; l++) {
            v[l] = lane_op(rs->rop, id, v[l], v[l + w]);
        }
        f = f < w ? f : w;
    }
    lane_store(id, lane_op(rs->rop, id, lane_load(id, acc), v[0]), acc);
}

/* A value computed (or cast, or selected) into an accumulator of ?A is never NA. */
static void rs_canon(const rstate *rs, unsigned char *acc) {
    if (rs->dcanon) {
        canon_na(rs->a, acc);
    }
}

/* acc = op(acc, x[0..n)): floats through the tree, chunk by chunk when the elements were
 * cast (a chunk is what the cast hands the leaf at once); integers and bools in order. */
static void fold_values(const rstate *rs, unsigned char *acc, const ckt_elem *x, size_t n) {
    const char k = ckt_scalar(rs->a)->kind;
    if (k == 'B' || k == 'S' || k == 'U') {
        for (size_t i = 0; i < n; i++) {
            elem_op(rs->rop, rs->a, acc, x[i].b, acc);
        }
        return;
    }
    const size_t chunk = rs->chunk != 0 ? rs->chunk : n;
    for (size_t off = 0; off < n; off += chunk) {
        fold_tree(rs, acc, x + off, n - off < chunk ? n - off : chunk);
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
    const ckt_expect e = convert(rs->a, rs->t, rs->mode, x);
    if (e.status != CK_OK) {
        fail_leaf(rs->r, ctx, e.status, rs->a, rs->t, x);
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
    return is_na(src ? rs->t : rs->a, p);
}

/* An accumulator that reads as NA: propagated, or (skipna, no identity) holding no element
 * yet; with skipna and an identity NA bits are a value (§14). */
static int acc_na(const rstate *rs, const unsigned char *acc) {
    return rs->dopt && (rs->na_start || !rs->skipna) && rs_is_na(rs, 0, acc);
}

static void fail_acc_na(rstate *rs, const ref_ctx *ctx) {
    fz_fail *f = add_fail(rs->r->x, CK_ERR_NA, ctx->prefix);
    set_text(f, 0,
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
            elem_op(rs->rop, rs->a, acc, v.b, acc);
            rs_canon(rs, acc);
        }
        return;
    }
    const int x_na = rs_is_na(rs, 1, x), a_na = acc_na(rs, acc);
    if (!x_na && !a_na) {
        if (rcast(rs, ctx, x, v.b)) {
            elem_op(rs->rop, rs->a, acc, v.b, acc);
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
    located_v(rs->r, ctx, status, what, fmt, ap);
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
        push_index(&c2, j);
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
    } else if (is_na(rs->t, x)) {
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
        elem_op(rs->rop, rs->a, prev->v.b, x, e->v.b);
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
        memcpy(e->v.b, rs->skipna && identity && is_na(rs->t, x) ? rs->start : x, size);
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
    elem_op(rs->rop, rs->a, prev->v.b, v.b, e->v.b);
    rs_canon(rs, e->v.b);
}

/* Every destination element gets its accumulator's value; every var row is one the kernel
 * allocates. */
static void emit(rstate *rs, const fz_type *d, const char *dam, fz_loc dl, rkey key) {
    fz_expect *x = rs->r->x;
    switch (d->kind) {
    case FZ_FIXED: {
        const intptr_t n = get_ip(dam), s = get_ip(dam + 8);
        for (intptr_t i = 0; i < n; i++) {
            rkey k = key;
            k.c[k.n - 1] += i * s;
            emit(rs, d->el, dam + 16, loc_add(dl, i * s), k);
        }
        return;
    }
    case FZ_VAR: {
        const rent *e = rlookup(rs, &key, 'R');
        const intptr_t n = e != NULL ? e->len : 0, s = get_ip(dam + 8);
        intptr_t elo, ehi;
        alloc_extent(d->el, dam + 24, &elo, &ehi);
        x->rows = (fz_vrow *)grow(x->rows, &x->cap_rows, x->nrows, sizeof *x->rows);
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
            emit(rs, d->el, dam + 24, loc_add(row, i * s), k);
        }
        return;
    }
    default: {
        const rent *e = rlookup(rs, &key, 'A');
        ckt_expect v;
        memset(&v, 0, sizeof v);
        memcpy(v.out.b, e != NULL ? e->v.b : rs->start, ckt_scalar(rs->a)->size);
        /* NaN payloads are free; an NA is exact (a computed value never has its bits) */
        if (!(rs->dopt && is_na(rs->a, v.out.b))) {
            mark_nan(&v, rs->a);
        }
        if (rs->dcanon) {
            write_option_value(rs->r, dl, rs->a, &v);
        } else {
            write_value(rs->r, dl, rs->a, &v);
        }
        return;
    }
    }
}

/* ---- what building a reduction refuses ---- */

/* "NAME: cannot reduce SRC into DST: WHY". */
static void rshape_error(const fz_case *c, fz_expect *x, int status, const char *why) {
    char ds[FZ_SHOWN + 8], ss[FZ_SHOWN + 8];
    shown_text(c->dst.t, ds, sizeof ds);
    shown_text(c->src[0].t, ss, sizeof ss);
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
    if (get_ip(am) != t->n) {
        rbuild_error(x, CK_ERR_INVALID,
                     "the %s arrmeta gives a fixed dimension of size %td, its type says %td",
                     which, get_ip(am), t->n);
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
            l->size = get_ip(sam);
            l->sstride = get_ip(sam + 8);
            sam += 16;
        } else {
            l->svar = 1;
            l->sstride = get_ip(sam + 8);
            l->soffset = get_ip(sam + 16);
            *sbits |= (uintptr_t)l->soffset;
            sam += 24;
        }
        *sbits |= (uintptr_t)l->sstride;
        st = st->el;
        if (rs->accumulate) {
            if (!l->svar) {
                if (!rcheck_fixed(x, dt, dam, "destination")) {
                    return 0;
                }
                if (get_ip(dam) != l->size) {
                    char why[160];
                    snprintf(why, sizeof why,
                             "dimension %d has size %td in the destination and %td in the source",
                             d, get_ip(dam), l->size);
                    rshape_error(c, x, CK_ERR_BROADCAST, why);
                    return 0;
                }
                l->dstride = get_ip(dam + 8);
                dam += 16;
            } else {
                l->dvar = 1;
                l->dstride = get_ip(dam + 8);
                *dbits |= (uintptr_t)get_ip(dam + 16);
                dam += 24;
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
            if (get_ip(dam) != want && (l->reduced || !l->svar)) {
                char why[160];
                snprintf(why, sizeof why,
                         "dimension %d has size %td in the destination and %td in the result%s", d,
                         get_ip(dam), want, l->reduced ? " (a reduced dimension kept)" : "");
                rshape_error(c, x, CK_ERR_BROADCAST, why);
                return 0;
            }
            l->dabsent = l->reduced;
            l->dstride = l->reduced ? 0 : get_ip(dam + 8);
            dam += 16;
        } else {
            l->dvar = 1;
            l->dstride = get_ip(dam + 8);
            *dbits |= (uintptr_t)get_ip(dam + 16);
            dam += 24;
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

/* The start value of op in type id: its identity, or for minimum and maximum (which have
 * none) the type's largest and smallest value. */
static void start_value(int rop, ck_type_id id, unsigned char *out) {
    const ckt_scalar_info *t = ckt_scalar(id);
    memset(out, 0, 16);
    int one = rop == FZ_ROP_MULTIPLY || rop == FZ_ROP_AND;
    if (rop == FZ_ROP_MINIMUM || rop == FZ_ROP_MAXIMUM) {
        const int hi = rop == FZ_ROP_MINIMUM;
        switch (t->kind) {
        case 'B': out[0] = (unsigned char)hi; return;
        case 'S':
        case 'U':
            ckt_put_low_bytes(out, ckt_bits_of_integer(hi ? ckt_int_max(t) : ckt_int_min(t)),
                              t->size);
            return;
        default: lane_store(id, lane_identity(rop, id), out); return; /* +-inf */
        }
    }
    if (!one) {
        return;
    }
    switch (t->kind) {
    case 'B':
    case 'S':
    case 'U': out[0] = 1; return;
    default: lane_store(id, lane_identity(FZ_ROP_MULTIPLY, id), out); return;
    }
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

static void reference_reduce(const fz_case *c, fz_expect *x) {
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
    start_value(rs.rop, rs.a, rs.start);
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
                uint64_t v = load_u(rs.start, asize);
                v = rs.rop == FZ_ROP_MAXIMUM ? v + 1 : v - 1;
                memcpy(rs.start, &v, asize);
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
            push_index(&ctx, i);
        }
        rkey key = {2, {i, 0, 0, 0, 0, 0}};
        const unsigned char *sp = (const unsigned char *)c->src[0].data + i * c->root_src_stride[0];
        rwalk(&rs, 0, sp, key, &ctx);
    }
    /* After a failure (x->loose) the checker only covers these, without comparing. */
    for (intptr_t i = 0; i < c->root_count; i++) {
        rkey key = {2, {i, 0, 0, 0, 0, 0}};
        emit(&rs, c->dst.t, c->dst.am, real_loc(c->dst.data + i * c->root_dst_stride), key);
    }
    free(rs.table);
    free(rs.vals);
}

void fz_reference(const fz_case *c, fz_expect *x) {
    memset(x, 0, sizeof *x);
    if (c->op == FZ_OP_REDUCE || c->op == FZ_OP_ACCUMULATE) {
        reference_reduce(c, x);
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
            push_index(&ctx, i);
            ctx.call = i;
        }
        const unsigned char *sp[FZ_MAX_SRC];
        for (int k = 0; k < c->nsrc; k++) {
            sp[k] = (const unsigned char *)c->src[k].data + i * c->root_src_stride[k];
        }
        walk(&r, c->dst.t, c->dst.am, real_loc(c->dst.data + i * c->root_dst_stride), &sw, sp,
             &ctx);
    }
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
