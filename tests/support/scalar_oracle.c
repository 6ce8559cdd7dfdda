/* tests/support/scalar_oracle.c: see scalar_oracle.h. */
#include "scalar_oracle.h"

#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

#include "ckernel/eval.h"
#include "ckernel/status.h"

/* An integer source is held as its sign and magnitude, a float source as a long double
 * (which holds every float and double exactly): a long double is no wider than double on
 * 32-bit Arm, where int64's and uint64's would round. */

/* An 8-byte scalar's alignment inside a struct, as the C ABI gives it (4 on i386). */
typedef struct {
    char c;
    int64_t v;
} ckt_align8_probe;
#define CKT_ALIGN8 offsetof(ckt_align8_probe, v)

static const ckt_scalar_info ckt_types[CK_NUM_SCALAR_TYPES] = {
    {CK_TYPE_BOOL, "bool", 1, 1, 'B', 8, CK_TYPE_BOOL},
    {CK_TYPE_INT8, "int8", 1, 1, 'S', 8, CK_TYPE_INT8},
    {CK_TYPE_INT16, "int16", 2, 2, 'S', 16, CK_TYPE_INT16},
    {CK_TYPE_INT32, "int32", 4, 4, 'S', 32, CK_TYPE_INT32},
    {CK_TYPE_INT64, "int64", 8, CKT_ALIGN8, 'S', 64, CK_TYPE_INT64},
    {CK_TYPE_UINT8, "uint8", 1, 1, 'U', 8, CK_TYPE_UINT8},
    {CK_TYPE_UINT16, "uint16", 2, 2, 'U', 16, CK_TYPE_UINT16},
    {CK_TYPE_UINT32, "uint32", 4, 4, 'U', 32, CK_TYPE_UINT32},
    {CK_TYPE_UINT64, "uint64", 8, CKT_ALIGN8, 'U', 64, CK_TYPE_UINT64},
    {CK_TYPE_FLOAT16, "float16", 2, 2, 'H', 16, CK_TYPE_FLOAT16},
    {CK_TYPE_BFLOAT16, "bfloat16", 2, 2, 'G', 16, CK_TYPE_BFLOAT16},
    {CK_TYPE_FLOAT32, "float32", 4, 4, 'F', 32, CK_TYPE_FLOAT32},
    {CK_TYPE_FLOAT64, "float64", 8, CKT_ALIGN8, 'D', 64, CK_TYPE_FLOAT64},
    {CK_TYPE_COMPLEX64, "complex64", 8, 4, 'C', 32, CK_TYPE_FLOAT32},
    {CK_TYPE_COMPLEX128, "complex128", 16, CKT_ALIGN8, 'C', 64, CK_TYPE_FLOAT64},
};

const ckt_scalar_info *ckt_scalar(int id) {
    return &ckt_types[id];
}

static int is_real_float(const ckt_scalar_info *t) {
    return t->kind == 'H' || t->kind == 'G' || t->kind == 'F' || t->kind == 'D';
}

/* The type's least and greatest values as two's complement bits (bool: 0 and 1), and whether
 * an integer is between them. */
uint64_t ckt_int_min_bits(const ckt_scalar_info *t) {
    return t->kind == 'S' ? (uint64_t)0 - ((uint64_t)1 << (t->bits - 1)) : 0;
}

uint64_t ckt_int_max_bits(const ckt_scalar_info *t) {
    if (t->kind == 'B') {
        return 1;
    }
    const int value_bits = t->kind == 'S' ? t->bits - 1 : t->bits;
    return value_bits == 64 ? UINT64_MAX : ((uint64_t)1 << value_bits) - 1;
}

int ckt_int_fits(const ckt_scalar_info *t, ckt_int v) {
    if (v.negative && v.magnitude != 0) {
        return t->kind == 'S' && v.magnitude <= (uint64_t)1 << (t->bits - 1);
    }
    return v.magnitude <= ckt_int_max_bits(t);
}

uint64_t ckt_int_bits(ckt_int v) {
    return v.negative ? (uint64_t)0 - v.magnitude : v.magnitude;
}

long double ckt_half_value(uint16_t h) {
    const int sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
    long double v;
    if (exp == 31) {
        v = man != 0 ? (long double)NAN : (long double)INFINITY;
    } else if (exp == 0) {
        v = ldexpl((long double)man, -24);
    } else {
        v = ldexpl((long double)(1024 + man), exp - 25);
    }
    return sign != 0 ? -v : v;
}

long double ckt_half_pos(uint16_t h) {
    return h == 0x7c00 ? 65536.0L : ckt_half_value(h);
}

/* The largest half below, found by bisection, then the exact midpoint decides. */
uint16_t ckt_round_to_half(long double v) {
    if (isnan(v)) {
        return 0x7e00;
    }
    const uint16_t sign = signbit(v) ? 0x8000 : 0;
    const long double a = fabsl(v);
    if (a >= 65520.0L) {
        return (uint16_t)(sign | 0x7c00);
    }
    uint16_t lo = 0, hi = 0x7bff;
    while (lo < hi) {
        const uint16_t mid = (uint16_t)((lo + hi + 1) / 2);
        if (ckt_half_pos(mid) <= a) {
            lo = mid;
        } else {
            hi = (uint16_t)(mid - 1);
        }
    }
    const long double below = ckt_half_pos(lo);
    if (below == a) {
        return (uint16_t)(sign | lo);
    }
    const long double midpoint = (below + ckt_half_pos((uint16_t)(lo + 1))) / 2;
    uint16_t r = lo;
    if (a > midpoint || (a == midpoint && (lo & 1) != 0)) {
        r = (uint16_t)(lo + 1);
    }
    return (uint16_t)(sign | r);
}

/* ---- bfloat16 by definition: sign, 8 exponent bits (bias 127), 7 stored bits ---- */

long double ckt_bf16_value(uint16_t h) {
    const int sign = h >> 15, exp = (h >> 7) & 255, man = h & 127;
    long double v;
    if (exp == 255) {
        v = man != 0 ? (long double)NAN : (long double)INFINITY;
    } else if (exp == 0) {
        v = ldexpl((long double)man, -133);
    } else {
        v = ldexpl((long double)(128 + man), exp - 134);
    }
    return sign != 0 ? -v : v;
}

static long double ckt_bf16_pos(uint16_t h) {
    return h == 0x7f80 ? ldexpl(1.0L, 128) : ckt_bf16_value(h);
}

/* As ckt_round_to_half: the largest finite value below by bisection, the midpoint decides. */
uint16_t ckt_round_to_bf16(long double v) {
    if (isnan(v)) {
        return 0x7fc0;
    }
    const uint16_t sign = signbit(v) ? 0x8000 : 0;
    const long double a = fabsl(v);
    if (a >= ldexpl(2.0L - ldexpl(1.0L, -8), 127)) {
        return (uint16_t)(sign | 0x7f80);
    }
    uint16_t lo = 0, hi = 0x7f7f;
    while (lo < hi) {
        const uint16_t mid = (uint16_t)((lo + hi + 1) / 2);
        if (ckt_bf16_pos(mid) <= a) {
            lo = mid;
        } else {
            hi = (uint16_t)(mid - 1);
        }
    }
    const long double below = ckt_bf16_pos(lo);
    if (below == a) {
        return (uint16_t)(sign | lo);
    }
    const long double midpoint = (below + ckt_bf16_pos((uint16_t)(lo + 1))) / 2;
    uint16_t r = lo;
    if (a > midpoint || (a == midpoint && (lo & 1) != 0)) {
        r = (uint16_t)(lo + 1);
    }
    return (uint16_t)(sign | r);
}

/* ---- exact values ---- */

typedef struct ckt_real {
    int nan;
    int integer;   /* an integer source's value, exactly: i */
    ckt_int i;
    long double x; /* else the exact value (±inf allowed) when !nan */
} ckt_real;

typedef struct ckt_value {
    ckt_real re, im; /* im is exactly +0 for real sources */
} ckt_value;

static ckt_real real_of(long double x) {
    ckt_real r;
    memset(&r, 0, sizeof r);
    r.nan = isnan(x) != 0;
    r.x = r.nan ? 0.0L : x;
    return r;
}

static ckt_real integer_of(int negative, uint64_t magnitude) {
    ckt_real r;
    memset(&r, 0, sizeof r);
    r.integer = 1;
    r.i.negative = negative && magnitude != 0;
    r.i.magnitude = magnitude;
    return r;
}
#define CKT_SIGNED(x) integer_of((x) < 0, (x) < 0 ? (uint64_t)0 - (uint64_t)(x) : (uint64_t)(x))

#define CKT_LOAD(T, p) \
    (*(const T *)memcpy(&(T){0}, (p), sizeof(T)))

static ckt_value decode(const ckt_scalar_info *t, const unsigned char *p) {
    ckt_value v;
    v.re = real_of(0.0L);
    v.im = real_of(0.0L);
    switch (t->id) {
    case CK_TYPE_BOOL: v.re = integer_of(0, p[0] != 0); break;
    case CK_TYPE_INT8: v.re = CKT_SIGNED(CKT_LOAD(int8_t, p)); break;
    case CK_TYPE_INT16: v.re = CKT_SIGNED(CKT_LOAD(int16_t, p)); break;
    case CK_TYPE_INT32: v.re = CKT_SIGNED(CKT_LOAD(int32_t, p)); break;
    case CK_TYPE_INT64: v.re = CKT_SIGNED(CKT_LOAD(int64_t, p)); break;
    case CK_TYPE_UINT8: v.re = integer_of(0, CKT_LOAD(uint8_t, p)); break;
    case CK_TYPE_UINT16: v.re = integer_of(0, CKT_LOAD(uint16_t, p)); break;
    case CK_TYPE_UINT32: v.re = integer_of(0, CKT_LOAD(uint32_t, p)); break;
    case CK_TYPE_UINT64: v.re = integer_of(0, CKT_LOAD(uint64_t, p)); break;
    case CK_TYPE_FLOAT16: v.re = real_of(ckt_half_value(CKT_LOAD(uint16_t, p))); break;
    case CK_TYPE_BFLOAT16: v.re = real_of(ckt_bf16_value(CKT_LOAD(uint16_t, p))); break;
    case CK_TYPE_FLOAT32: v.re = real_of(CKT_LOAD(float, p)); break;
    case CK_TYPE_FLOAT64: v.re = real_of(CKT_LOAD(double, p)); break;
    case CK_TYPE_COMPLEX64:
        v.re = real_of(CKT_LOAD(float, p));
        v.im = real_of(CKT_LOAD(float, p + 4));
        break;
    default:
        v.re = real_of(CKT_LOAD(double, p));
        v.im = real_of(CKT_LOAD(double, p + 8));
        break;
    }
    return v;
}

/* ---- the rules ---- */

/* The low `size` bytes of bits as an integer of that size, in the host's byte order (on a
 * big-endian host, s390x, they are the last bytes of the 8). */
void ckt_put_low_bytes(unsigned char *out, uint64_t bits, size_t size) {
    unsigned char all[8];
    memcpy(all, &bits, 8);
    memcpy(out, all + (CKT_BIG_ENDIAN ? 8 - size : 0), size);
}

uint64_t ckt_get_low_bytes(const unsigned char *in, size_t size) {
    unsigned char all[8] = {0};
    memcpy(all + (CKT_BIG_ENDIAN ? 8 - size : 0), in, size);
    uint64_t bits;
    memcpy(&bits, all, 8);
    return bits;
}

uint64_t ckt_bits_of_integer(long double t) {
    if (t < 0) {
        return (uint64_t)(int64_t)t;
    }
    return (uint64_t)t;
}

/* An integer's magnitude rounded to `digits` significant bits, to nearest, ties to even, by
 * the definition (its value, at most 2^64, is exact in a double). */
static double round_magnitude(uint64_t m, int digits) {
    int top = 63;
    while (top > 0 && !(m >> top & 1)) {
        top--;
    }
    if (top < digits) {
        return (double)m; /* exact: fewer bits than a double's */
    }
    const int drop = top + 1 - digits;
    const uint64_t kept = m >> drop, rest = m & (((uint64_t)1 << drop) - 1);
    const uint64_t half = (uint64_t)1 << (drop - 1);
    const uint64_t up = rest > half || (rest == half && (kept & 1));
    return ldexp((double)(kept + up), drop);
}

/* An integer source into a real destination type: exact range checks, wrap-around, and
 * floats rounded once from the exact integer. */
static int integer_rule(const ckt_scalar_info *d, ckt_int v, int mode, unsigned char *out) {
    const int checked = mode >= CK_ERRMODE_OVERFLOW;
    if (d->kind == 'B' || d->kind == 'S' || d->kind == 'U') {
        if (checked && !ckt_int_fits(d, v)) {
            return CK_ERR_OVERFLOW;
        }
        if (d->kind == 'B') {
            out[0] = v.magnitude != 0;
        } else {
            ckt_put_low_bytes(out, ckt_int_bits(v), d->size); /* the low bytes: wraps */
        }
        return CK_OK;
    }
    const int digits = d->kind == 'H' ? 11 : d->kind == 'G' ? 8 : d->kind == 'F' ? 24 : 53;
    double r = round_magnitude(v.magnitude, digits);
    const int exact = r < 0x1p64 && (uint64_t)r == v.magnitude;
    r = v.negative ? -r : r;
    if (d->kind == 'H') {
        const uint16_t h = ckt_round_to_half(r); /* r is a half or past the largest */
        memcpy(out, &h, 2);
        if (checked && (h & 0x7fff) == 0x7c00) {
            return CK_ERR_OVERFLOW;
        }
    } else if (d->kind == 'G') {
        const uint16_t h = ckt_round_to_bf16(r);
        memcpy(out, &h, 2);
    } else if (d->kind == 'F') {
        const float f = (float)r; /* exact */
        memcpy(out, &f, 4);
    } else {
        memcpy(out, &r, 8);
    }
    if (mode >= CK_ERRMODE_INEXACT && !exact) {
        return CK_ERR_INEXACT;
    }
    return CK_OK;
}

/* One real part into a real destination type `d` (bool, int, or float). */
static int real_rule(const ckt_scalar_info *d, ckt_real v, int mode, unsigned char *out,
                     int *out_nan) {
    const int checked = mode >= CK_ERRMODE_OVERFLOW;
    if (v.integer) {
        return integer_rule(d, v.i, mode, out);
    }
    if (d->kind == 'B') {
        if (checked && (v.nan || (v.x != 0 && v.x != 1))) {
            return CK_ERR_OVERFLOW;
        }
        out[0] = (v.nan || v.x != 0) ? 1 : 0;
        return CK_OK;
    }
    if (d->kind == 'S' || d->kind == 'U') {
        if (v.nan) {
            if (checked) {
                return CK_ERR_OVERFLOW;
            }
            ckt_put_low_bytes(out, 0, d->size);
            return CK_OK;
        }
        /* the range as powers of two, exact in any long double */
        const long double t = isinf(v.x) ? v.x : truncl(v.x);
        const int value_bits = d->kind == 'S' ? d->bits - 1 : d->bits;
        const long double below = d->kind == 'S' ? -ldexpl(1.0L, value_bits) : 0.0L;
        if (t < below || t >= ldexpl(1.0L, value_bits)) {
            if (checked) {
                return CK_ERR_OVERFLOW;
            }
            ckt_put_low_bytes(out, t < below ? ckt_int_min_bits(d) : ckt_int_max_bits(d),
                              d->size); /* saturates */
            return CK_OK;
        }
        if (mode >= CK_ERRMODE_FRACTIONAL && t != v.x) {
            return CK_ERR_FRACTIONAL;
        }
        ckt_put_low_bytes(out, ckt_bits_of_integer(t), d->size);
        return CK_OK;
    }
    /* floats */
    if (v.nan) {
        *out_nan = 1;
        return CK_OK;
    }
    long double r;
    if (d->kind == 'H') {
        const uint16_t h = ckt_round_to_half(v.x);
        r = ckt_half_value(h);
        memcpy(out, &h, 2);
    } else if (d->kind == 'G') {
        const uint16_t h = ckt_round_to_bf16(v.x);
        r = ckt_bf16_value(h);
        memcpy(out, &h, 2);
    } else if (d->kind == 'F') {
        const float f = (float)v.x; /* one rounding from the exact value */
        r = f;
        memcpy(out, &f, 4);
    } else {
        const double g = (double)v.x;
        r = g;
        memcpy(out, &g, 8);
    }
    if (checked && isinf(r) && !isinf(v.x)) {
        return CK_ERR_OVERFLOW;
    }
    if (mode >= CK_ERRMODE_INEXACT && r != v.x) {
        return CK_ERR_INEXACT;
    }
    return CK_OK;
}

ckt_expect ckt_oracle(ck_type_id did, ck_type_id sid, int mode, const unsigned char *src) {
    const ckt_scalar_info *d = ckt_scalar(did), *s = ckt_scalar(sid);
    ckt_expect e;
    memset(&e, 0, sizeof e);
    if (d->id == s->id) { /* plain bit-exact copy */
        memcpy(e.out.b, src, s->size);
        return e;
    }
    const ckt_value v = decode(s, src);
    if (s->kind == 'C' && d->kind != 'C') {
        if (mode >= CK_ERRMODE_OVERFLOW && (v.im.nan || v.im.x != 0)) {
            e.status = CK_ERR_IMAGINARY;
            return e;
        }
        if (d->kind == 'B' && mode == CK_ERRMODE_NOCHECK) {
            e.out.b[0] = (v.re.nan || v.re.x != 0 || v.im.nan || v.im.x != 0) ? 1 : 0;
            return e;
        }
    }
    if (d->kind == 'C') {
        const ckt_scalar_info *c = ckt_scalar(d->component);
        e.status = real_rule(c, v.re, mode, e.out.b, &e.nan[0]);
        if (e.status == CK_OK) {
            e.status = real_rule(c, v.im, mode, e.out.b + c->size, &e.nan[1]);
        }
        return e;
    }
    e.status = real_rule(d, v.re, mode, e.out.b, &e.nan[0]);
    return e;
}

int ckt_bits_are_nan(ck_type_id c, const unsigned char *p) {
    switch (ckt_scalar(c)->kind) {
    case 'H': {
        const uint16_t h = CKT_LOAD(uint16_t, p);
        return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
    }
    case 'G': return (CKT_LOAD(uint16_t, p) & 0x7fff) > 0x7f80;
    case 'F': return isnan(CKT_LOAD(float, p)) != 0;
    default: return isnan(CKT_LOAD(double, p)) != 0;
    }
}

int ckt_oracle_matches(ck_type_id did, const ckt_expect *e, const unsigned char *got) {
    const ckt_scalar_info *d = ckt_scalar(did);
    if (d->kind != 'C' && !is_real_float(d)) {
        return memcmp(e->out.b, got, d->size) == 0;
    }
    const ckt_scalar_info *c = d->kind == 'C' ? ckt_scalar(d->component) : d;
    const int parts = d->kind == 'C' ? 2 : 1;
    for (int k = 0; k < parts; k++) {
        const unsigned char *g = got + (size_t)k * c->size;
        if (e->nan[k]) {
            if (!ckt_bits_are_nan(c->id, g)) {
                return 0;
            }
        } else if (memcmp(e->out.b + (size_t)k * c->size, g, c->size) != 0) {
            return 0;
        }
    }
    return 1;
}
