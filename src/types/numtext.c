/* src/types/numtext.c: see numtext.h. float32 and float64 go through double-conversion
 * (numtext_dc.cpp): its shortest digits, laid out here in Python's repr layout, and its
 * correctly rounded reading of the decimal numbers this file finds in strtod's grammar.
 * Decimals of at most 19 significant digits are read here first, from one product with a
 * 128-bit power of five (numtext_pow5.h), and go to double-conversion only when that
 * product cannot decide the rounding. What it does not cover stays here: the rest of
 * strtod's language (hexadecimal, inf, nan, no number) goes to strtod itself in the "C"
 * locale, and float16 is ours: reading rounds to odd first so that the half is rounded
 * once, and its shortest text is searched for with printf and reading back. */
#define _POSIX_C_SOURCE 200809L

#include "types/numtext.h"

#include <fenv.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/float16.h"
#include "types/numtext_dc.h"
#include "types/numtext_pow5.h"

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

/* The C library's strtod and strtof in the "C" locale: the text double-conversion is not
 * given, and float16's directed roundings (they honour the current rounding mode). */
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

/* Significant digits kept for double-conversion's Strtod: a text with more (rare: no value
 * needs more than 17 to be read back) goes to it whole. */
#define CK__DEC_DIGITS 800
/* Beyond this power of ten (either way) CK__DEC_DIGITS digits are 0 or infinity. */
#define CK__DEC_EXP_LIMIT 1000000

/* Reads the decimal number strtod would read at s (no white space before it) into its
 * parts: an optional sign, digits with an optional point and at least one digit, and an
 * exponent when digits follow its 'e' and optional sign. One pass. Returns its length, or
 * 0 when there is none, or when strtod would read something else there ("0x":
 * hexadecimal). */
static size_t ck__scan_decimal(const char *s, ck__decimal_parts *d) {
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

/* ---- short decimals: w x 10^q from a 128-bit power of five ----
 *
 * The method of Eisel and Lemire (Lemire, "Number Parsing at a Gigabyte per Second", 2021):
 * with w exact in 64 bits and shifted so that its top bit is set, the high 64 bits of w
 * times the 128-bit 5^q of the table hold the significand with two bits to spare (the
 * power of two of 10^q only moves the exponent). The table's truncation can only matter
 * when the bits below the significand are all ones (then the low half of the power is
 * multiplied in too) or when the product sits exactly on a halfway point; what stays
 * ambiguous after that goes to double-conversion, as do subnormal results. Integer
 * arithmetic only, so the caller's rounding mode and flush modes cannot reach it. */

/* A binary format: explicit significand bits, exponent bias, the powers of ten at and below
 * which any w of 19 digits rounds to zero and at and above which it is infinite, and the
 * range of powers of ten outside which w x 10^q cannot fall exactly halfway between two
 * values (a tie needs 5^|q| to fit in the significand and its rounding bit). */
typedef struct ck__bin_format {
    int mbits, bias;
    int q_zero, q_inf;
    int q_even_min, q_even_max;
} ck__bin_format;

static const ck__bin_format ck__f64_format = {52, 1023, -343, 309, -4, 23};
static const ck__bin_format ck__f32_format = {23, 127, -66, 39, -17, 10};

/* Where one 64 x 128-bit product cannot be off by a carry: 5^q < 2^128 (q <= 55) is exact
 * in the table, and 5^-q < 2^64 (q >= -27) has an exact enough reciprocal. */
#define CK__POW5_EXACT_MIN (-27)
#define CK__POW5_EXACT_MAX 55

#define CK__BITS_UNDECIDED UINT64_MAX

/* a * b as high and low 64 bits (without a 128-bit type: from four 32 x 32-bit products,
 * checked against unsigned __int128 on 10^8 random pairs). */
static void ck__mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 ck__u128;
    const ck__u128 p = (ck__u128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    const uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
#endif
}

static int ck__leading_zeros64(uint64_t x) { /* x != 0 */
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(x);
#else
    int n = 0;
    while ((x >> 63) == 0) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

/* floor(log2(10^q)) over the table's range (the script that writes the table checks it),
 * rounding toward minus infinity without shifting a negative number. */
static int64_t ck__floor_log2_pow10(int64_t q) {
    return q >= 0 ? (217706 * q) >> 16 : -((217706 * -q + 65535) >> 16);
}

/* The bits (sign clear) of w x 10^q rounded to nearest even in format f, w != 0; or
 * CK__BITS_UNDECIDED when the product cannot tell, or the result is subnormal. */
static uint64_t ck__short_decimal_bits(uint64_t w, int64_t q, const ck__bin_format *f) {
    const uint64_t inf = (uint64_t)(2 * f->bias + 1) << f->mbits;
    if (q <= f->q_zero) {
        return 0; /* below half the smallest subnormal: w < 10^19 */
    }
    if (q >= f->q_inf) {
        return inf;
    }
    const int lz = ck__leading_zeros64(w);
    w <<= lz;
    const uint64_t *pow5 = ck__pow5_128[q - CK__POW5_MIN_Q];
    uint64_t hi, lo;
    ck__mul_64x64(w, pow5[0], &hi, &lo);
    const uint64_t below = UINT64_MAX >> (f->mbits + 3); /* the bits under significand + 2 */
    if ((hi & below) == below) {
        /* A carry from the low half of the power would reach the significand. */
        uint64_t hi2, lo2;
        ck__mul_64x64(w, pow5[1], &hi2, &lo2);
        lo += hi2;
        hi += lo < hi2;
    }
    if (lo == UINT64_MAX && (q < CK__POW5_EXACT_MIN || q > CK__POW5_EXACT_MAX)) {
        return CK__BITS_UNDECIDED; /* the part left out could still carry */
    }
    const int top = (int)(hi >> 63);
    const int shift = top + 64 - f->mbits - 3;
    uint64_t m = hi >> shift; /* significand, the rounding bit, and one more */
    int64_t e = ck__floor_log2_pow10(q) + 63 + top - lz + f->bias;
    if (e <= 0) {
        return CK__BITS_UNDECIDED; /* subnormal or zero: double-conversion rounds those */
    }
    if (lo <= 1 && (m & 3) == 1 && (m << shift) == hi) {
        /* Nothing below the rounding bit: exactly halfway, which only these powers can be. */
        if (q < f->q_even_min || q > f->q_even_max) {
            return CK__BITS_UNDECIDED;
        }
        m &= ~(uint64_t)1; /* ties to even: the rounding below then adds nothing */
    }
    m = (m + (m & 1)) >> 1;
    if (m >> (f->mbits + 1) != 0) { /* rounded up to the next power of two */
        m >>= 1;
        e++;
    }
    if (e >= 2 * f->bias + 1) {
        return inf;
    }
    return (m & ~((uint64_t)1 << f->mbits)) | ((uint64_t)e << f->mbits);
}

/* At most this many significant digits are exact in a uint64_t. */
#define CK__SHORT_DIGITS 19

/* w followed by the n decimal digits at p, as an integer (no overflow: the caller counts).
 * Eight at a time where it can, in one 64-bit word: the digits' values, d0 (p[0]) in the
 * low byte; times 10 plus the word moved down a byte, the even bytes hold the pairs
 * 10 d0 + d1, ..., 10 d6 + d7 (at most 99: no carry); then two products gather the pairs
 * a, c (bytes 0 and 4) and b, d (bytes 2 and 6) into bits 32-63 as 10^6 a + 100 c and
 * 10^4 b + d. */
static uint64_t ck__append_digits(uint64_t w, const char *p, size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t x;
        memcpy(&x, p, sizeof x);
        x -= UINT64_C(0x3030303030303030);
        x = x * 10 + (x >> 8);
        const uint64_t ac = x & UINT64_C(0x000000ff000000ff);
        const uint64_t bd = (x >> 16) & UINT64_C(0x000000ff000000ff);
        x = (ac * (100 + (UINT64_C(1000000) << 32)) + bd * (1 + (UINT64_C(10000) << 32))) >> 32;
        w = w * 100000000 + x;
    }
#endif
    for (; n > 0; p++, n--) {
        w = w * 10 + (uint64_t)(*p - '0');
    }
    return w;
}

/* The parts' value through double-conversion (single: as a float, else a double); 0 when
 * there are more significant digits than CK__DEC_DIGITS, or the library failed. */
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
    if (nint + nfrac > CK__DEC_DIGITS) {
        return 0;
    }
    /* Exact in 64 bits (text lengths and a saturated exponent), then clamped where the
     * value is 0 or infinity anyway. */
    int64_t x = d->exp10 - (int64_t)(frac_zeros + nfrac);
    x = x > CK__DEC_EXP_LIMIT ? CK__DEC_EXP_LIMIT : x;
    x = x < -CK__DEC_EXP_LIMIT ? -CK__DEC_EXP_LIMIT : x;
    if (nint + nfrac <= CK__SHORT_DIGITS) {
        const uint64_t w = ck__append_digits(ck__append_digits(0, ip, nint), fp, nfrac);
        const uint64_t b =
            ck__short_decimal_bits(w, x, single ? &ck__f32_format : &ck__f64_format);
        if (b != CK__BITS_UNDECIDED) {
            if (single) {
                *fv = ck__f32_from_bits((uint32_t)b | (uint32_t)(d->negative != 0) << 31);
            } else {
                *dv = ck__f64_from_bits(b | (uint64_t)(d->negative != 0) << 63);
            }
            return 1;
        }
    }
    /* Digits on one side of the point only are contiguous in the text already. */
    char own[CK__DEC_DIGITS];
    const char *digits = nfrac == 0 ? ip : nint == 0 ? fp : own;
    if (digits == own) {
        memcpy(own, ip, nint);
        memcpy(own + nint, fp, nfrac);
    }
    const int n = (int)(nint + nfrac);
    if (single) {
        if (!ck__dc_digits_to_float(digits, n, (int)x, fv)) {
            return 0;
        }
        *fv = d->negative ? -*fv : *fv;
        return 1;
    }
    if (!ck__dc_digits_to_double(digits, n, (int)x, dv)) {
        return 0;
    }
    *dv = d->negative ? -*dv : *dv;
    return 1;
}

int ck__decimal_to_double(const ck__decimal_parts *d, double *out) {
    float unused;
    return ck__parts_value(d, 0, out, &unused);
}

int ck__decimal_to_float(const ck__decimal_parts *d, float *out) {
    double unused;
    return ck__parts_value(d, 1, &unused, out);
}

/* strtod's reading, double-conversion's rounding: a decimal number goes to double-conversion
 * (split, or whole when too long to split); anything else to strtod in the "C" locale. */
double ck__strtod_c(const char *s, const char **end) {
    const char *p = ck__skip_space(s);
    ck__decimal_parts d;
    const size_t n = ck__scan_decimal(p, &d);
    double v;
    if (n != 0 && (ck__decimal_to_double(&d, &v) || ck__dc_strtod(p, n, &v))) {
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
    if (n != 0 && (ck__decimal_to_float(&d, &v) || ck__dc_strtof(p, n, &v))) {
        *end = p + n;
        return v;
    }
    return ck__libc_strtof(s, end);
}

#if defined(FE_DOWNWARD) && defined(FE_UPWARD)
/* strtod under a directed rounding mode (the C library's strtod honours the current mode;
 * double-conversion always rounds to nearest). */
static double ck__strtod_c_round(const char *s, int mode) {
    int saved = fegetround();
    fesetround(mode);
    const char *e;
    double d = ck__libc_strtod(s, &e);
    fesetround(saved);
    return d;
}
#endif

uint16_t ck__strtoh_c(const char *s, const char **end) {
    double d = ck__strtod_c(s, end);
    uint16_t h = ck__double_to_half(d);
#if defined(FE_DOWNWARD) && defined(FE_UPWARD)
    if (!isnan(d) && ck__half_to_double(h) != d) {
        /* d was rounded to 53 bits and is not a half, so rounding it again could land on
         * the wrong side of a half midpoint. Rounding to odd first is safe: of the two
         * doubles around an inexact decimal, the one with an odd last bit rounds to the
         * same half as the decimal itself (53 >= 11 + 2 bits). */
        double lo = ck__strtod_c_round(s, FE_DOWNWARD);
        double hi = ck__strtod_c_round(s, FE_UPWARD);
        if (lo != hi) {
            h = ck__double_to_half((ck__f64_bits(lo) & 1u) != 0 ? lo : hi);
        }
    }
#endif
    return h;
}

/* Whether text reads back to exactly v (bit for bit, so -0.0 stays negative). */
static int ck__reads_back(const char *text, double v, ck__fkind k) {
    const char *end;
    switch (k) {
    case CK__F16:
        return ck__strtoh_c(text, &end) == ck__double_to_half(v);
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
 * the count is found by bisection. float16's way (no library knows binary16), and the
 * others' should double-conversion ever fail. v ~ 0.DIGITS x 10^*point; returns the count. */
static int ck__shortest_by_search(double v, ck__fkind k, char *digits, int *point) {
    char sci[40];
    int lo = 1;
    int hi = k == CK__F16 ? 5 : k == CK__F32 ? 9 : 17;
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
    } else if (k == CK__F16 ||
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
