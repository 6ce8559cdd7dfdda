/* tests/fuzz/fuzz_compose_ref_scalar.c: the composition fuzzer's reference for one element:
 * options' NA, the float formats by their widths (float16, bfloat16, float32, float64: NaN
 * parts and conversion, the default quiet NaN, one rounding to nearest even), conversions
 * (the scalar oracle's, their free NaN parts filled in as x86 converts), the built-ins'
 * arithmetic of docs/design.md §10 (one rounding per operation, float16 and bfloat16 in
 * float32, complex products and quotients as NumPy's), the NaN and NA rules of a computed
 * value (§14: it never becomes NA), and minimum, maximum and the logical operations as a
 * reduction folds them. Compiled without FMA contraction. */
#include <math.h>
#include <string.h>

#include "complex_ref.h"
#include "fuzz_compose_ref.h"

/* ---- scalars ---- */

int ref_is_na(ck_type_id id, const unsigned char *p) {
    return memcmp(p, ck_option_na_bytes(ck_type_scalar(id)), ckt_scalar(id)->size) == 0;
}

/* An integer of n bytes in the host's byte order (s390x is big-endian), zero-extended. */
uint64_t ref_load_u(const unsigned char *p, size_t n) {
    return ckt_get_low_bytes(p, n);
}

static int64_t load_s(const unsigned char *p, size_t n) {
    const uint64_t u = ref_load_u(p, n);
    const int sh = 64 - 8 * (int)n;
    return (int64_t)(u << sh) >> sh;
}

static void store_u(unsigned char *p, uint64_t v, size_t n) {
    ckt_put_low_bytes(p, v, n);
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
    const uint64_t u = ref_load_u(p, (size_t)f->bits / 8);
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
    const uint64_t u = ref_load_u(src, (size_t)s->bits / 8);
    const uint64_t sign = u >> (s->bits - 1);
    /* the fraction left-aligned in 52 bits, the quiet bit its top one */
    const uint64_t frac = (u & frac_mask(s)) << (52 - s->frac_bits) | (uint64_t)1 << 51;
    store_u(out,
            sign << (d->bits - 1) | exp_mask(d) << d->frac_bits | frac >> (52 - d->frac_bits),
            (size_t)d->bits / 8);
}

double fz_float_value(const fz_float_format *f, const unsigned char *p) {
    const uint64_t u = ref_load_u(p, (size_t)f->bits / 8);
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
const fz_float_format *ref_narrow_format(ck_type_id id) {
    const fz_float_format *f = fz_float_format_of(ckt_scalar(id)->kind);
    return f != NULL && f->bits == 16 ? f : NULL;
}

float ref_narrow_to_float(const fz_float_format *f, const unsigned char *p) {
    return (float)fz_float_value(f, p);
}

void ref_float_to_narrow(const fz_float_format *f, float v, unsigned char *out) {
    fz_float_round(f, (double)v, out);
}

/* The oracle's conversion with its free NaN parts filled in by the model, so the value can
 * be computed with and compared with an NA. */
ckt_expect ref_convert(ck_type_id d, ck_type_id s, int mode, const unsigned char *src) {
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

void ref_mark_nan(ckt_expect *e, ck_type_id id) {
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
void ref_canon_na(ck_type_id id, unsigned char *p) {
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
int ref_arith2(int op, ck_type_id id, const unsigned char *a, const unsigned char *b,
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
        const uint64_t ua = ref_load_u(a, t->size), ub = ref_load_u(b, t->size);
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
        store_u(o, r, t->size); /* modulo 2^n: the low bytes */
        return CK_OK;
    }
    case 'H':
    case 'G': { /* in float32, rounded once */
        const fz_float_format *f = ref_narrow_format(id);
        const float x = ref_narrow_to_float(f, a), y = ref_narrow_to_float(f, b);
        const float z = op_f(op == FZ_ARITH_SUM3 ? FZ_ARITH_ADD : op, x, y);
        ref_float_to_narrow(f, z, o);
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
    ref_mark_nan(out, id);
    return CK_OK;
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
        const uint64_t x = ref_load_u(a, t->size), y = ref_load_u(b, t->size);
        first = max ? x > y : x < y;
        break;
    }
    case 'H':
    case 'G': { /* compared in float32, the first of two equal values */
        const fz_float_format *f = ref_narrow_format(id);
        const float x = ref_narrow_to_float(f, a), y = ref_narrow_to_float(f, b);
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
void ref_elem_op(int rop, ck_type_id id, const unsigned char *a, const unsigned char *b,
                    unsigned char *out) {
    switch (rop) {
    case FZ_ROP_ADD:
    case FZ_ROP_MULTIPLY: {
        ckt_expect e;
        ref_arith2(rop == FZ_ROP_ADD ? FZ_ARITH_ADD : FZ_ARITH_MULTIPLY, id, a, b, &e);
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
