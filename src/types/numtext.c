/* src/types/numtext.c: see numtext.h. The C library does the decimal work (strtod and
 * printf are correctly rounded in glibc); this file pins the locale, makes float16 rounding
 * single, and searches for the shortest digit count that round-trips. */
#define _POSIX_C_SOURCE 200809L

#include "types/numtext.h"

#include <fenv.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/float16.h"

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

double ck__strtod_c(const char *s, const char **end) {
    locale_t old = ck__enter_c();
    char *e;
    double d = strtod(s, &e);
    ck__leave_c(old);
    *end = e;
    return d;
}

float ck__strtof_c(const char *s, const char **end) {
    locale_t old = ck__enter_c();
    char *e;
    float f = strtof(s, &e);
    ck__leave_c(old);
    *end = e;
    return f;
}

#if defined(FE_DOWNWARD) && defined(FE_UPWARD)
/* strtod under a directed rounding mode (strtod honours the current mode). */
static double ck__strtod_c_round(const char *s, int mode) {
    int saved = fegetround();
    fesetround(mode);
    const char *e;
    double d = ck__strtod_c(s, &e);
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
    /* Fewest significant digits that read back: more digits never hurt once enough, so the
     * smallest such count is found by bisection. 17 digits always suffice for a double. */
    char sci[40];
    int lo = 1;
    int hi = k == CK__F16 ? 5 : k == CK__F32 ? 9 : 17;
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

    /* sci is "[-]D[.DDD]e(+|-)XX": collect sign, digits and exponent, then lay them out. */
    const char *p = sci;
    int negative = *p == '-';
    if (negative) {
        p++;
    }
    char digits[24];
    size_t nd = 0;
    for (; *p != 'e'; p++) {
        if (*p != '.') {
            digits[nd++] = *p;
        }
    }
    int exp10 = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') {
        nd--;
    }
    size_t n = 0;
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
            memcpy(buf + n, digits, nd);
            n += nd;
        } else {
            size_t int_digits = (size_t)exp10 + 1;
            for (size_t i = 0; i < int_digits; i++) {
                buf[n++] = i < nd ? digits[i] : '0';
            }
            if (nd > int_digits) {
                buf[n++] = '.';
                memcpy(buf + n, digits + int_digits, nd - int_digits);
                n += nd - int_digits;
            } else if (point) {
                buf[n++] = '.';
                buf[n++] = '0';
            }
        }
    } else {
        buf[n++] = digits[0];
        if (nd > 1) {
            buf[n++] = '.';
            memcpy(buf + n, digits + 1, nd - 1);
            n += nd - 1;
        }
        n += (size_t)snprintf(buf + n, 8, "e%c%02d", exp10 < 0 ? '-' : '+',
                              exp10 < 0 ? -exp10 : exp10);
    }
    buf[n] = '\0';
    return n;
}
