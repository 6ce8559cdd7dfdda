/* src/values/numtext.c: see numtext.h. float32 and float64: the decimal numbers this file
 * finds in strtod's grammar, and the literal parser's split ones, are read by fast_float
 * (numtext_ff.cpp), correctly rounded; shortest digits come from double-conversion
 * (numtext_dc.cpp) and are laid out here in Python's repr layout. What neither covers stays
 * here: the rest of strtod's language (white space, hexadecimal, inf, nan, no number) goes
 * to strtod itself in the "C" locale, and float16 and bfloat16 are ours: reading rounds to
 * odd first so that the value is rounded once, and their shortest text is searched for with
 * printf and reading back. */
#define _POSIX_C_SOURCE 200809L

#include "values/numtext.h"

#include <fenv.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/float_formats.h"
#include "common/scalars.h"
#include "values/numtext_dc.h"
#include "values/numtext_ff.h"

static locale_t ck__c_locale = (locale_t)0;
static pthread_once_t ck__c_locale_once = PTHREAD_ONCE_INIT;

static void ck__c_locale_init(void) {
    /* Never freed: one per process, owned by the C library (not our allocator). */
    ck__c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

/* Switches the calling thread to the "C" numeric locale; returns the one to restore. */
static locale_t ck__enter_c(void) {
    pthread_once(&ck__c_locale_once, ck__c_locale_init);
    return ck__c_locale != (locale_t)0 ? uselocale(ck__c_locale) : (locale_t)0;
}
static void ck__leave_c(locale_t old) {
    if (old != (locale_t)0) {
        uselocale(old);
    }
}

/* The C library's strtod and strtof in the "C" locale: the text fast_float is not given,
 * and float16's directed roundings (they honour the current rounding mode). */
static double ck__libc_strtod(const char *s, const char **end) {
    locale_t old = ck__enter_c();
    char *e;
    double d = strtod(s, &e);
    ck__leave_c(old);
    *end = e;
    return d;
}

static float ck__libc_strtof(const char *s, const char **end) {
    locale_t old = ck__enter_c();
    char *e;
    float f = strtof(s, &e);
    ck__leave_c(old);
    *end = e;
    return f;
}

static int ck__nt_digit(char c) {
    return c >= '0' && c <= '9';
}

/* What strtod skips first: isspace() in the "C" locale. */
static const char *ck__skip_space(const char *s) {
    while (*s == ' ' || (*s >= '\t' && *s <= '\r')) {
        s++;
    }
    return s;
}

/* See numtext.h. One pass. */
size_t ck__scan_decimal(const char *s, ck__decimal_parts *d) {
    const char *p = s;
    d->negative = *p == '-';
    p += *p == '+' || *p == '-';
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        return 0;
    }
    d->int_digits = p;
    while (ck__nt_digit(*p)) {
        p++;
    }
    d->nint = (size_t)(p - d->int_digits);
    d->frac_digits = p;
    d->nfrac = 0;
    if (*p == '.') {
        p++;
        d->frac_digits = p;
        while (ck__nt_digit(*p)) {
            p++;
        }
        d->nfrac = (size_t)(p - d->frac_digits);
    }
    if (d->nint + d->nfrac == 0) {
        return 0; /* "", ".", "-.": no digit */
    }
    int64_t e = 0;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        const int eneg = *q == '-';
        q += *q == '+' || *q == '-';
        if (ck__nt_digit(*q)) {
            for (; ck__nt_digit(*q); q++) {
                if (e < CK__EXP10_SATURATED) {
                    e = e * 10 + (*q - '0');
                }
            }
            e = eneg ? -e : e;
            p = q;
        }
    }
    d->exp10 = e;
    return (size_t)(p - s);
}

/* The parts' value (single: as a float, else a double); 0 when there are more significant
 * digits than fast_float's product takes, or the product could not decide. */
static int ck__parts_value(const ck__decimal_parts *d, int single, double *dv, float *fv) {
    const char *ip = d->int_digits, *fp = d->frac_digits;
    size_t nint = d->nint, nfrac = d->nfrac;
    while (nint > 0 && *ip == '0') { /* leading zeros: not significant */
        ip++;
        nint--;
    }
    size_t frac_zeros = 0;
    if (nint == 0) {
        while (nfrac > 0 && *fp == '0') {
            fp++;
            nfrac--;
            frac_zeros++;
        }
    }
    if (nint + nfrac == 0) { /* zero */
        *dv = d->negative ? -0.0 : 0.0;
        *fv = d->negative ? -0.0f : 0.0f;
        return 1;
    }
    if (nint + nfrac > CK__FF_SHORT_DIGITS) {
        return 0;
    }
    /* Exact in 64 bits: text lengths and a saturated exponent. */
    const int64_t x = d->exp10 - (int64_t)(frac_zeros + nfrac);
    return single ? ck__ff_digits_to_float(ip, nint, fp, nfrac, x, d->negative, fv)
                  : ck__ff_digits_to_double(ip, nint, fp, nfrac, x, d->negative, dv);
}

int ck__decimal_to_double(const ck__decimal_parts *d, double *out) {
    float unused;
    return ck__parts_value(d, 0, out, &unused);
}

int ck__decimal_to_float(const ck__decimal_parts *d, float *out) {
    double unused;
    return ck__parts_value(d, 1, &unused, out);
}

/* strtod's reading, fast_float's rounding: a decimal number goes to fast_float (split, or
 * as text when the split digits do not decide it); anything else to strtod in the "C"
 * locale. */
double ck__strtod_c(const char *s, const char **end) {
    const char *p = ck__skip_space(s);
    ck__decimal_parts d;
    const size_t n = ck__scan_decimal(p, &d);
    double v;
    if (n != 0 && (ck__decimal_to_double(&d, &v) || ck__ff_text_to_double(p, n, &v))) {
        *end = p + n;
        return v;
    }
    return ck__libc_strtod(s, end);
}

float ck__strtof_c(const char *s, const char **end) {
    const char *p = ck__skip_space(s);
    ck__decimal_parts d;
    const size_t n = ck__scan_decimal(p, &d);
    float v;
    if (n != 0 && (ck__decimal_to_float(&d, &v) || ck__ff_text_to_float(p, n, &v))) {
        *end = p + n;
        return v;
    }
    return ck__libc_strtof(s, end);
}

#if defined(FE_DOWNWARD) && defined(FE_UPWARD)
/* strtod under a directed rounding mode (the C library's strtod honours the current mode;
 * fast_float always rounds to nearest). */
static double ck__strtod_c_round(const char *s, int mode) {
    int saved = fegetround();
    fesetround(mode);
    const char *e;
    double d = ck__libc_strtod(s, &e);
    fesetround(saved);
    return d;
}
#endif

ck__fkind ck__fkind_of(int id) {
    const ck__scalar_facts *f = ck__scalar_info((ck_type_id)id);
    const int bits = f != NULL ? f->bits : 53;
    return bits == 11 ? CK__F16 : bits == 8 ? CK__BF16 : bits == 24 ? CK__F32 : CK__F64;
}

double ck__fkind_load(ck__fkind k, const char *p) {
    uint16_t h;
    float f;
    double d;
    switch (k) {
    case CK__F16:
        memcpy(&h, p, sizeof h);
        return ck__half_to_double(h);
    case CK__BF16:
        memcpy(&h, p, sizeof h);
        return ck__bfloat16_to_double(h);
    case CK__F32:
        memcpy(&f, p, sizeof f);
        return (double)f;
    default:
        memcpy(&d, p, sizeof d);
        return d;
    }
}

void ck__fkind_store(ck__fkind k, double v, char *p) {
    uint16_t h;
    float f;
    switch (k) {
    case CK__F16:
        h = ck__double_to_half(v);
        memcpy(p, &h, sizeof h);
        return;
    case CK__BF16:
        h = ck__double_to_bfloat16(v);
        memcpy(p, &h, sizeof h);
        return;
    case CK__F32:
        f = (float)v;
        memcpy(p, &f, sizeof f);
        return;
    default:
        memcpy(p, &v, sizeof v);
        return;
    }
}

double ck__fkind_round(ck__fkind k, double v) {
    switch (k) {
    case CK__F16:
        return ck__half_to_double(ck__double_to_half(v));
    case CK__BF16:
        return ck__bfloat16_to_double(ck__double_to_bfloat16(v));
    case CK__F32:
        return (double)(float)v;
    default:
        return v;
    }
}

double ck__strto_narrow_c(const char *s, const char **end, ck__fkind k) {
    double d = ck__strtod_c(s, end);
    double r = ck__fkind_round(k, d);
#if defined(FE_DOWNWARD) && defined(FE_UPWARD)
    if (!isnan(d) && r != d) {
        /* d was rounded to 53 bits and is not a value of k, so rounding it again could land
         * on the wrong side of a midpoint of k. Rounding to odd first is safe: of the two
         * doubles around an inexact decimal, the one with an odd last bit rounds to the
         * same value of k as the decimal itself (53 >= 11 + 2 bits). */
        double lo = ck__strtod_c_round(s, FE_DOWNWARD);
        double hi = ck__strtod_c_round(s, FE_UPWARD);
        if (lo != hi) {
            r = ck__fkind_round(k, (ck__f64_bits(lo) & 1u) != 0 ? lo : hi);
        }
    }
#endif
    return r;
}

double ck__strto_fkind_c(const char *s, const char **end, ck__fkind k) {
    switch (k) {
    case CK__F32:
        return (double)ck__strtof_c(s, end);
    case CK__F64:
        return ck__strtod_c(s, end);
    default:
        return ck__strto_narrow_c(s, end, k);
    }
}

uint16_t ck__strtoh_c(const char *s, const char **end) {
    return ck__double_to_half(ck__strto_narrow_c(s, end, CK__F16));
}

/* Whether text reads back to exactly v (bit for bit, so -0.0 stays negative). */
static int ck__reads_back(const char *text, double v, ck__fkind k) {
    const char *end;
    switch (k) {
    case CK__F16:
    case CK__BF16:
        return ck__f64_bits(ck__strto_narrow_c(text, &end, k)) ==
               ck__f64_bits(ck__fkind_round(k, v));
    case CK__F32: {
        float f = ck__strtof_c(text, &end);
        return ck__f32_bits(f) == ck__f32_bits((float)v);
    }
    default:
        return ck__f64_bits(ck__strtod_c(text, &end)) == ck__f64_bits(v);
    }
}

/* The shortest digits of |v| (finite, not zero) by search: the fewest significant digits
 * whose correctly rounded printf text reads back. More digits never hurt once enough, so
 * the count is found by bisection. float16's and bfloat16's way (no library knows them), the
 * others' should double-conversion ever fail. v ~ 0.DIGITS x 10^*point; returns the count. */
static int ck__shortest_by_search(double v, ck__fkind k, char *digits, int *point) {
    char sci[40];
    int lo = 1;
    int hi = k == CK__BF16 ? 4 : k == CK__F16 ? 5 : k == CK__F32 ? 9 : 17;
    v = fabs(v);
    locale_t old = ck__enter_c();
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        snprintf(sci, sizeof sci, "%.*e", mid - 1, v);
        if (ck__reads_back(sci, v, k)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    snprintf(sci, sizeof sci, "%.*e", lo - 1, v);
    ck__leave_c(old);
    /* sci is "D[.DDD]e(+|-)XX". */
    int nd = 0;
    const char *p = sci;
    for (; *p != 'e'; p++) {
        if (*p != '.') {
            digits[nd++] = *p;
        }
    }
    *point = atoi(p + 1) + 1;
    return nd;
}

size_t ck__format_float(double v, ck__fkind k, int point, char *buf) {
    if (isnan(v)) {
        memcpy(buf, "nan", 4);
        return 3;
    }
    if (isinf(v)) {
        const char *s = v < 0 ? "-inf" : "inf";
        size_t n = strlen(s);
        memcpy(buf, s, n + 1);
        return n;
    }
    /* Compared as bits: a caller's denormals-are-zero mode would make v == 0 of a
     * subnormal true. */
    const int negative = (ck__f64_bits(v) >> 63) != 0;
    char digits[CK__DC_DIGITS + 8];
    int nd = 0;
    int dpoint = 1;
    if ((ck__f64_bits(v) << 1) == 0) {
        digits[nd++] = '0';
    } else if (k == CK__F16 || k == CK__BF16 ||
               (nd = ck__dc_shortest(fabs(v), k == CK__F32, digits, &dpoint)) == 0) {
        nd = ck__shortest_by_search(v, k, digits, &dpoint);
    }
    while (nd > 1 && digits[nd - 1] == '0') {
        nd--;
    }
    const int exp10 = dpoint - 1; /* of the first digit: v ~ D.DDD x 10^exp10 */

    /* Python's repr layout: fixed for 1e-4 <= |v| < 1e16, else D[.DDD]e(+|-)XX. */
    size_t n = 0;
    const size_t nds = (size_t)nd;
    if (negative) {
        buf[n++] = '-';
    }
    if (exp10 >= -4 && exp10 < 16) {
        if (exp10 < 0) {
            buf[n++] = '0';
            buf[n++] = '.';
            for (int i = -1; i > exp10; i--) {
                buf[n++] = '0';
            }
            memcpy(buf + n, digits, nds);
            n += nds;
        } else {
            size_t int_digits = (size_t)exp10 + 1;
            for (size_t i = 0; i < int_digits; i++) {
                buf[n++] = i < nds ? digits[i] : '0';
            }
            if (nds > int_digits) {
                buf[n++] = '.';
                memcpy(buf + n, digits + int_digits, nds - int_digits);
                n += nds - int_digits;
            } else if (point) {
                buf[n++] = '.';
                buf[n++] = '0';
            }
        }
    } else {
        buf[n++] = digits[0];
        if (nds > 1) {
            buf[n++] = '.';
            memcpy(buf + n, digits + 1, nds - 1);
            n += nds - 1;
        }
        /* At least two exponent digits ("1e-05", "5e-324"), written by hand: no printf
         * per value. */
        int e = exp10 < 0 ? -exp10 : exp10;
        buf[n++] = 'e';
        buf[n++] = exp10 < 0 ? '-' : '+';
        if (e >= 100) {
            buf[n++] = (char)('0' + e / 100);
            e %= 100;
        }
        buf[n++] = (char)('0' + e / 10);
        buf[n++] = (char)('0' + e % 10);
    }
    buf[n] = '\0';
    return n;
}

/* The hundred two-digit pairs "00" .. "99". */
static const char ck__digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

size_t ck__format_uint64(uint64_t v, char *buf) {
    static const uint64_t pow10[20] = {UINT64_C(1),
                                       UINT64_C(10),
                                       UINT64_C(100),
                                       UINT64_C(1000),
                                       UINT64_C(10000),
                                       UINT64_C(100000),
                                       UINT64_C(1000000),
                                       UINT64_C(10000000),
                                       UINT64_C(100000000),
                                       UINT64_C(1000000000),
                                       UINT64_C(10000000000),
                                       UINT64_C(100000000000),
                                       UINT64_C(1000000000000),
                                       UINT64_C(10000000000000),
                                       UINT64_C(100000000000000),
                                       UINT64_C(1000000000000000),
                                       UINT64_C(10000000000000000),
                                       UINT64_C(100000000000000000),
                                       UINT64_C(1000000000000000000),
                                       UINT64_C(10000000000000000000)};
    /* The count first, so that the pairs go straight to their places from the end. v | 1
     * has v's count (no power of ten above 1 is odd) and is never 0. */
    const uint64_t w = v | 1;
    size_t n;
#if defined(__GNUC__)
    /* floor(log10(2^bits)) from the bit length (1233 / 4096 ~ log10(2)), then one
     * comparison. */
    const size_t t = (size_t)(64 - __builtin_clzll(w)) * 1233 >> 12;
    n = t + (w >= pow10[t]);
#else
    n = 1;
    while (n < 20 && w >= pow10[n]) {
        n++;
    }
#endif
    char *p = buf + n;
    while (v >= 100) {
        const size_t r = (size_t)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, ck__digit_pairs + 2 * r, 2);
    }
    if (v >= 10) {
        memcpy(p - 2, ck__digit_pairs + 2 * v, 2);
    } else {
        p[-1] = (char)('0' + v);
    }
    return n;
}
