/* src/values/text_scalar.c: bool and complex to and from text (text_scalar.h), the text
 * cast's kinds beside the integers and floats (whose text is numtext.c's). The layouts are
 * Python's, which NumPy's astype uses: str(True) is "True", repr(1+2j) is "(1+2j)"; reading,
 * NumPy 1.24 takes a bool's text as an integer and a complex's as complex() does. */
#include "values/text_scalar.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ckernel/status.h"
#include "ckernel/types.h"
#include "common/scalars.h"
#include "values/numtext.h"

/* ---- writing ---- */

size_t ck__format_bool_complex(int id, const char *data, char *buf) {
    if (id == CK_TYPE_BOOL) {
        const int b = *(const unsigned char *)data != 0;
        memcpy(buf, b ? "True" : "False", b ? 5 : 6);
        return b ? 4u : 5u;
    }
    const ck__fkind k = ck__fkind_of(id);
    const double re = ck__fkind_load(k, data);
    const double im = ck__fkind_load(k, data + ck__scalar_info((ck_type_id)id)->part_size);
    /* Python leaves out a real part of +0 (not -0), and then the parentheses: "1j", "-0j";
     * a NaN's sign is not shown. */
    if (re == 0.0 && !signbit(re)) {
        size_t n = ck__format_float(isnan(im) ? fabs(im) : im, k, 0, buf);
        buf[n++] = 'j';
        return n;
    }
    buf[0] = '(';
    size_t n = 1 + ck__format_complex_text(re, im, k, buf + 1);
    buf[n++] = ')';
    return n;
}

/* ---- reading ---- */

static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* 1 when s[0, n) starts with `word` in any case. */
static int starts_with_word(const char *s, size_t n, const char *word) {
    const size_t w = strlen(word);
    if (n < w) {
        return 0;
    }
    for (size_t i = 0; i < w; i++) {
        if ((s[i] | 0x20) != word[i]) {
            return 0;
        }
    }
    return 1;
}

/* The length of the longest float text at the start of s[0, n) in Python's float() grammar
 * (a sign; digits with a point, at least one digit; an exponent with digits; or inf,
 * infinity, nan), 0 when none. */
static size_t float_prefix(const char *s, size_t n) {
    size_t i = n > 0 && (s[0] == '+' || s[0] == '-');
    if (starts_with_word(s + i, n - i, "infinity")) {
        return i + 8;
    }
    if (starts_with_word(s + i, n - i, "inf") || starts_with_word(s + i, n - i, "nan")) {
        return i + 3;
    }
    size_t digits = 0;
    for (; i < n && is_digit(s[i]); i++) {
        digits++;
    }
    if (i < n && s[i] == '.') {
        for (i++; i < n && is_digit(s[i]); i++) {
            digits++;
        }
    }
    if (digits == 0) {
        return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        j += j < n && (s[j] == '+' || s[j] == '-');
        if (j < n && is_digit(s[j])) {
            while (j < n && is_digit(s[j])) {
                j++;
            }
            i = j;
        }
    }
    return i;
}

/* The part s[0, len) read into *out as float64 or float32 (rounded once, straight to it).
 * Finite text that rounds to infinity is CK_ERR_OVERFLOW in the checked modes. */
static int read_part(char *s, size_t len, int f32, ck_errmode mode, double *out) {
    const char keep = s[len];
    s[len] = '\0'; /* the reader's end is the part's */
    const char *end = s;
    *out = f32 ? (double)ck__strtof_c(s, &end) : ck__strtod_c(s, &end);
    s[len] = keep;
    const int infinite_text = (s[len - 1] | 0x20) == 'f' || (s[len - 1] | 0x20) == 'y';
    if (end != s + len) {
        return CK_ERR_INTERNAL;
    }
    return isinf(*out) && !infinite_text && mode != CK_ERRMODE_NOCHECK ? CK_ERR_OVERFLOW : CK_OK;
}

static int is_space(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
}

static int read_bool(const char *s, size_t n, char *dst, const char **why) {
    unsigned char b;
    if (n == 4 && memcmp(s, "True", 4) == 0) {
        b = 1;
    } else if (n == 5 && memcmp(s, "False", 5) == 0) {
        b = 0;
    } else {
        size_t i = s[0] == '+' || s[0] == '-';
        if (i == n) {
            *why = "it is not an integer, True or False";
            return CK_ERR_TEXT;
        }
        b = 0;
        for (; i < n; i++) {
            if (!is_digit(s[i])) {
                *why = "it is not an integer, True or False";
                return CK_ERR_TEXT;
            }
            b |= s[i] != '0';
        }
    }
    *dst = (char)b;
    return CK_OK;
}

/* Python's complex(): [ "(" ] ( real | imag "j" | real ("+"|"-") [imag] "j" | ["+"|"-"] "j" )
 * [ ")" ], white space allowed inside the parentheses; no white space around the sign. */
static int read_complex(int id, char *s, size_t n, ck_errmode mode, char *dst, const char **why) {
    const int f32 = id == CK_TYPE_COMPLEX64;
    double re = 0.0, im = 0.0;
    size_t i = 0;
    const int paren = s[0] == '(';
    if (paren) {
        for (i = 1; i < n && is_space(s[i]); i++) {
        }
    }
    *why = "it is not a complex number as Python's complex() spells one";
    size_t len = float_prefix(s + i, n - i);
    int rc = CK_OK;
    if (len > 0) {
        double x;
        rc = read_part(s + i, len, f32, mode, &x);
        i += len;
        if (i < n && (s[i] == '+' || s[i] == '-')) { /* x is the real part */
            re = x;
            len = float_prefix(s + i, n - i);
            if (len > 0) {
                const int rc2 = read_part(s + i, len, f32, mode, &im);
                rc = rc != CK_OK ? rc : rc2;
                i += len;
            } else {
                im = s[i] == '-' ? -1.0 : 1.0; /* "1+j" */
                i++;
            }
            if (i == n || (s[i] | 0x20) != 'j') {
                return CK_ERR_TEXT;
            }
            i++;
        } else if (i < n && (s[i] | 0x20) == 'j') {
            im = x;
            i++;
        } else {
            re = x;
        }
    } else { /* "j", "+j", "-j" */
        const int neg = i < n && s[i] == '-';
        i += i < n && (s[i] == '+' || s[i] == '-');
        if (i == n || (s[i] | 0x20) != 'j') {
            return CK_ERR_TEXT;
        }
        im = neg ? -1.0 : 1.0;
        i++;
    }
    if (paren) {
        while (i < n && is_space(s[i])) {
            i++;
        }
        if (i == n || s[i] != ')') {
            return CK_ERR_TEXT;
        }
        i++;
    }
    if (i != n) {
        return CK_ERR_TEXT;
    }
    if (rc != CK_OK) {
        *why = "a part is out of range";
        return rc;
    }
    if (f32) {
        const float p[2] = {(float)re, (float)im}; /* exact: each was read as a float32 */
        memcpy(dst, p, sizeof p);
    } else {
        const double p[2] = {re, im};
        memcpy(dst, p, sizeof p);
    }
    return CK_OK;
}

int ck__read_bool_complex(int id, char *s, size_t n, ck_errmode mode, char *dst,
                          const char **why) {
    if (n == 0) {
        *why = "the text is empty";
        return CK_ERR_TEXT;
    }
    return id == CK_TYPE_BOOL ? read_bool(s, n, dst, why) : read_complex(id, s, n, mode, dst, why);
}
