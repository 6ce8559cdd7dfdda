/* src/arrays/literal_parse.c: ck_array_parse, reading array literals ("[[1, 2.5], null]")
 * into a new ck_array. Two passes over the text with the same code: the first checks shape
 * and every value without storing anything (so a wrong literal allocates nothing for data,
 * whatever sizes its type declares), the second allocates and stores. Recursion follows the
 * type, so it is bounded by CK_TYPE_MAX_DEPTH whatever the text holds. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "arrays/array_internal.h"
#include "values/numtext.h"
#include "common/scalars.h"
#include "values/datetime.h"
#include "values/text_codec.h"

typedef struct ck__lit {
    const char *s;
    size_t len;
    size_t pos;
    int depth; /* entries of path in use */
    intptr_t path[CK_TYPE_MAX_DEPTH];
    const char *path_name[CK_TYPE_MAX_DEPTH]; /* a struct field's name, or NULL */
    char path_kind[CK_TYPE_MAX_DEPTH];        /* '[': list index, '.': field */
} ck__lit;

/* A number token s[begin, end): optional sign, then digits with optional fraction and
 * exponent, or nan / inf. An empty span stands for 0 (the real part of "2j"). */
typedef struct ck__num {
    size_t begin;
    size_t end;
    int is_int;  /* sign and digits only */
    int special; /* 0, or CK__NUM_NAN / CK__NUM_INF */
    int negative;
    int sign_apart; /* "1 - 2j": the sign stood apart from the digits; negate the text's value */
    /* The digits, the exponent and the text's own sign, as number text reads them. */
    ck__decimal_parts dec;
} ck__num;

#define CK__NUM_NAN 1
#define CK__NUM_INF 2

typedef struct ck__scalar_lit {
    int is_bool;
    int bool_value;
    int is_complex;
    ck__num re;
    ck__num im;
    size_t begin; /* the whole literal text, for messages */
    size_t end;
} ck__scalar_lit;

static int ck__lit_is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
static int ck__lit_is_digit(char c) {
    return c >= '0' && c <= '9';
}

static void ck__lit_skip_ws(ck__lit *p) {
    while (p->pos < p->len && ck__lit_is_space(p->s[p->pos])) {
        p->pos++;
    }
}

static char ck__lit_peek(const ck__lit *p) {
    return p->pos < p->len ? p->s[p->pos] : '\0';
}

/* The end of the run of decimal digits starting at i. */
static size_t ck__lit_digit_run(const ck__lit *p, size_t i) {
    return (size_t)(ck__digit_run(p->s + i, p->s + p->len) - p->s);
}

/* Length of the word (letters, digits, '_') starting with a letter at pos; 0 if none. */
static size_t ck__lit_word_len(const ck__lit *p, size_t pos) {
    size_t n = 0;
    if (pos < p->len && ck__is_ident_start(p->s[pos])) {
        while (pos + n < p->len && ck__is_ident(p->s[pos + n])) {
            n++;
        }
    }
    return n;
}

static int ck__lit_word_is(const ck__lit *p, size_t pos, size_t n, const char *w) {
    return strlen(w) == n && memcmp(p->s + pos, w, n) == 0;
}

/* Copies a bounded, printable excerpt of s[begin, end) into out. */
static void ck__lit_excerpt(const ck__lit *p, size_t begin, size_t end, char *out, size_t cap) {
    if (end > p->len) {
        end = p->len;
    }
    size_t n = 0;
    for (size_t i = begin; i < end && i < p->len && n + 4 < cap; i++) {
        unsigned char c = (unsigned char)p->s[i];
        out[n++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    if (end > begin && end - begin > n && n + 4 <= cap) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
}

/* What stands at pos, for "found ...": a word, a number-ish run, one character, or the end. */
static void ck__lit_found(const ck__lit *p, size_t pos, char *out, size_t cap) {
    if (pos >= p->len) {
        snprintf(out, cap, "end of input");
        return;
    }
    size_t end = pos;
    while (end < p->len && end - pos < 40) {
        char c = p->s[end];
        if (c == ',' || c == '[' || c == ']' || ck__lit_is_space(c)) {
            break;
        }
        end++;
    }
    if (end == pos) {
        end = pos + 1;
    }
    char tok[48];
    ck__lit_excerpt(p, pos, end, tok, sizeof tok);
    snprintf(out, cap, "'%s'", tok);
}

/* "ck_array_parse: at [1][3] (column 12): <detail>", or "at column 12" at the top level. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static int ck__lit_error(const ck__lit *p, int status, size_t pos, const char *fmt, ...) {
    char detail[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    if (p->depth == 0) {
        return ck_set_error(status, "ck_array_parse: at column %zu: %s", pos + 1, detail);
    }
    char path[256];
    size_t n = 0;
    for (int i = 0; i < p->depth && n < sizeof path; i++) {
        int w = p->path_kind[i] != '.' ? snprintf(path + n, sizeof path - n, "[%lld]",
                                                  (long long)p->path[i])
                : p->path_name[i] != NULL
                    ? snprintf(path + n, sizeof path - n, ".%s", p->path_name[i])
                    : snprintf(path + n, sizeof path - n, ".%lld", (long long)p->path[i]);
        n += w > 0 ? (size_t)w : 0;
    }
    return ck_set_error(status, "ck_array_parse: at %s (column %zu): %s", path, pos + 1, detail);
}

static int ck__lit_type_text(const ck_type *t, char *out, size_t cap) {
    char *s = NULL;
    if (ck_type_format(t, &s) != CK_OK) {
        snprintf(out, cap, "%s", ck_type_id_name(t->id));
        return 0;
    }
    snprintf(out, cap, "%s", s);
    ck__free(s);
    return 1;
}

/* ---- numbers ---- */

/* Reads a number at p->pos (sign included). 1: read, 0: no number here (nothing consumed),
 * -1: a malformed number (error recorded). */
static int ck__lit_number(ck__lit *p, ck__num *n) {
    size_t i = p->pos;
    memset(n, 0, sizeof *n);
    n->begin = i;
    if (i < p->len && (p->s[i] == '+' || p->s[i] == '-')) {
        n->negative = p->s[i] == '-';
        n->dec.negative = n->negative;
        i++;
    }
    size_t w = ck__lit_word_len(p, i);
    if (w > 0) {
        /* "infj" and "nanj" are imaginary; the 'j' is left for the caller. */
        size_t core = (w == 4 && p->s[i + 3] == 'j') ? 3 : w;
        if (ck__lit_word_is(p, i, core, "nan")) {
            n->special = CK__NUM_NAN;
        } else if (ck__lit_word_is(p, i, core, "inf")) {
            n->special = CK__NUM_INF;
        } else {
            return 0;
        }
        n->end = i + core;
        p->pos = n->end;
        return 1;
    }
    size_t digits = 0;
    size_t run = ck__lit_digit_run(p, i);
    n->dec.int_digits = p->s + i;
    digits += run - i;
    i = run;
    n->dec.nint = digits;
    n->dec.frac_digits = p->s + i;
    n->is_int = 1;
    if (i < p->len && p->s[i] == '.') {
        n->is_int = 0;
        i++;
        n->dec.frac_digits = p->s + i;
        run = ck__lit_digit_run(p, i);
        n->dec.nfrac = run - i;
        digits += run - i;
        i = run;
    }
    if (digits == 0) {
        if (i == n->begin) {
            return 0;
        }
        char tok[48];
        ck__lit_excerpt(p, n->begin, i + 1, tok, sizeof tok);
        return ck__lit_error(p, CK_ERR_PARSE, n->begin, "malformed number '%s'", tok), -1;
    }
    if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
        size_t e = i + 1;
        if (e < p->len && (p->s[e] == '+' || p->s[e] == '-')) {
            e++;
        }
        if (e >= p->len || !ck__lit_is_digit(p->s[e])) {
            char tok[48];
            ck__lit_excerpt(p, n->begin, e + 1, tok, sizeof tok);
            return ck__lit_error(p, CK_ERR_PARSE, n->begin,
                                 "malformed number '%s' (the exponent has no digits)", tok),
                   -1;
        }
        const int exp_negative = p->s[i + 1] == '-';
        while (e < p->len && ck__lit_is_digit(p->s[e])) {
            if (n->dec.exp10 < CK__EXP10_SATURATED) {
                n->dec.exp10 = n->dec.exp10 * 10 + (p->s[e] - '0');
            }
            e++;
        }
        n->dec.exp10 = exp_negative ? -n->dec.exp10 : n->dec.exp10;
        n->is_int = 0;
        i = e;
    }
    n->end = i;
    p->pos = i;
    return 1;
}

/* Reads a scalar literal: true/false, a real number, or a complex a+bj / a-bj / bj. */
static int ck__lit_scalar(ck__lit *p, const ck_type *t, ck__scalar_lit *v) {
    /* Field by field, not one memset: for this struct the compiler's memset is a rep stos,
     * whose start-up cost was a tenth of reading a float64 literal. re is set by
     * ck__lit_number (zeroed here for true/false); im is zeroed here (it is read for
     * complex literals only). */
    v->is_bool = 0;
    v->bool_value = 0;
    v->is_complex = 0;
    memset(&v->im, 0, sizeof v->im);
    v->end = p->pos;
    v->begin = p->pos;
    size_t w = ck__lit_word_len(p, p->pos);
    if (ck__lit_word_is(p, p->pos, w, "true") || ck__lit_word_is(p, p->pos, w, "false")) {
        memset(&v->re, 0, sizeof v->re);
        v->is_bool = 1;
        v->bool_value = p->s[p->pos] == 't';
        p->pos += w;
        v->end = p->pos;
        return CK_OK;
    }
    char tname[96];
    int rc = ck__lit_number(p, &v->re);
    if (rc < 0) {
        return CK_ERR_PARSE;
    }
    if (rc == 0) {
        char found[64];
        ck__lit_found(p, p->pos, found, sizeof found);
        ck__lit_type_text(t, tname, sizeof tname);
        if (ck__lit_word_is(p, p->pos, w, "null")) {
            return ck__lit_error(p, CK_ERR_PARSE, p->pos,
                                 "null stands only for a var dim or a pointer, not for a value of type %s",
                                 tname);
        }
        if (ck__lit_peek(p) == '[') {
            return ck__lit_error(p, CK_ERR_PARSE, p->pos, "expected a value of type %s, found a list",
                                 tname);
        }
        return ck__lit_error(p, CK_ERR_PARSE, p->pos, "expected a value of type %s, found %s", tname,
                             found);
    }
    if (ck__lit_peek(p) == 'j') { /* "2j": imaginary only */
        v->is_complex = 1;
        v->im = v->re;
        memset(&v->re, 0, sizeof v->re);
        v->re.is_int = 1;
        p->pos++;
        v->end = p->pos;
        return CK_OK;
    }
    size_t after_real = p->pos;
    ck__lit_skip_ws(p);
    char c = ck__lit_peek(p);
    if (c == '+' || c == '-') {
        /* The sign of the imaginary part may be followed by spaces ("1.5 - 2j"), but not by
         * another sign. */
        p->pos++;
        ck__lit_skip_ws(p);
        char next = ck__lit_peek(p);
        rc = next == '+' || next == '-' ? 0 : ck__lit_number(p, &v->im);
        if (rc < 0) {
            return CK_ERR_PARSE;
        }
        v->im.negative = c == '-';
        v->im.sign_apart = c == '-';
        if (rc == 0 || ck__lit_peek(p) != 'j') {
            char found[64];
            ck__lit_found(p, p->pos, found, sizeof found);
            return ck__lit_error(p, CK_ERR_PARSE, p->pos,
                                 rc == 0 ? "expected the imaginary part of a complex number "
                                           "(like 1+2j), found %s"
                                         : "expected 'j' after the imaginary part, found %s",
                                 found);
        }
        p->pos++;
        v->is_complex = 1;
        v->end = p->pos;
        return CK_OK;
    }
    p->pos = after_real;
    v->end = p->pos;
    return CK_OK;
}

/* After a scalar only a separator may follow: so "0x10" is an error at 'x' rather than a
 * number that strtod would read further than the grammar did. */
static int ck__lit_scalar_end(ck__lit *p, const ck__scalar_lit *v) {
    size_t at = p->pos;
    while (at < p->len && ck__lit_is_space(p->s[at])) {
        at++;
    }
    if (at >= p->len || p->s[at] == ',' || p->s[at] == ']' || p->s[at] == ')' || p->s[at] == '}') {
        return CK_OK;
    }
    char found[64];
    char tok[48];
    ck__lit_found(p, at, found, sizeof found);
    ck__lit_excerpt(p, v->begin, v->end, tok, sizeof tok);
    return ck__lit_error(p, CK_ERR_PARSE, at, "unexpected %s after the value %s", found, tok);
}

/* The end of reading a number's text: the reader (strtod's grammar) must have stopped where
 * the grammar above did, which cannot fail for a well-formed token (checked anyway); a sign
 * that stood apart is applied (exact: rounding is symmetric). */
static int ck__lit_num_read(const ck__lit *p, const ck__num *n, const char *end, double *out) {
    if (end != p->s + n->end) {
        char tok[48];
        ck__lit_excerpt(p, n->begin, n->end, tok, sizeof tok);
        return ck__lit_error(p, CK_ERR_PARSE, n->begin, "malformed number '%s'", tok);
    }
    if (n->sign_apart) {
        *out = -*out;
    }
    return CK_OK;
}

/* The value of a number as a double. */
static int ck__lit_num_double(const ck__lit *p, const ck__num *n, double *out) {
    if (n->special != 0) {
        double v = n->special == CK__NUM_NAN ? (double)NAN : (double)INFINITY;
        *out = n->negative ? -v : v;
        return CK_OK;
    }
    if (n->end == n->begin) {
        *out = 0.0;
        return CK_OK;
    }
    /* Split already: straight to the library (the text itself when it has too many digits). */
    const char *end = p->s + n->end;
    if (!ck__decimal_to_double(&n->dec, out)) {
        *out = ck__strtod_c(p->s + n->begin, &end);
    }
    return ck__lit_num_read(p, n, end, out);
}

/* The value of a number rounded once to float16/float32/float64, as a double: read once,
 * straight to the kind (float32 and float16 are not read as a double first). */
static int ck__lit_num_float(const ck__lit *p, const ck__num *n, ck__fkind k, double *out) {
    if (n->special != 0 || n->end == n->begin || k == CK__F64) {
        return ck__lit_num_double(p, n, out);
    }
    const char *end = p->s + n->end;
    float f;
    if (k == CK__F32 && ck__decimal_to_float(&n->dec, &f)) {
        *out = (double)f;
    } else {
        *out = ck__strto_fkind_c(p->s + n->begin, &end, k);
    }
    return ck__lit_num_read(p, n, end, out);
}

/* ---- conversion of a scalar literal to the destination type ---- */

typedef struct ck__lit_ctx {
    const ck__lit *p;
    const ck__scalar_lit *v;
    ck_type_id id;
    int check_only; /* the checking pass into a float or complex type: no value is kept */
} ck__lit_ctx;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 3, 4)))
#endif
static int ck__lit_value_error(const ck__lit_ctx *c, int status, const char *fmt, ...) {
    char detail[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    char tok[48];
    ck__lit_excerpt(c->p, c->v->begin, c->v->end, tok, sizeof tok);
    return ck__lit_error(c->p, status, c->v->begin, "value %s %s", tok, detail);
}

/* The real part of v for a real destination: the imaginary part must be zero. */
static int ck__lit_real_part(const ck__lit_ctx *c, const ck__num **re) {
    *re = &c->v->re;
    if (!c->v->is_complex) {
        return CK_OK;
    }
    double im;
    CK__RETURN_IF_ERROR(ck__lit_num_double(c->p, &c->v->im, &im));
    if (im != 0.0) {
        return ck__lit_value_error(c, CK_ERR_IMAGINARY,
                                   "has a non-zero imaginary part; %s is real",
                                   ck_type_id_name(c->id));
    }
    return CK_OK;
}

/* The integer value of a real literal, range-checked for [lo, hi]: exact for integer text of
 * any length, through float64 for text with a fraction or exponent. */
static int ck__lit_integer(const ck__lit_ctx *c, int64_t lo, uint64_t hi, int64_t *s_out,
                           uint64_t *u_out) {
    if (c->v->is_bool) {
        *s_out = c->v->bool_value;
        *u_out = (uint64_t)c->v->bool_value;
        return CK_OK;
    }
    const ck__num *n;
    CK__RETURN_IF_ERROR(ck__lit_real_part(c, &n));
    const char *name = ck_type_id_name(c->id);
    if (n->is_int) {
        uint64_t mag = 0;
        int too_big = 0;
        for (size_t i = n->begin; i < n->end; i++) {
            char ch = c->p->s[i];
            if (!ck__lit_is_digit(ch)) {
                continue; /* the sign */
            }
            unsigned d = (unsigned)(ch - '0');
            if (mag > (UINT64_MAX - d) / 10) {
                too_big = 1;
            } else {
                mag = mag * 10 + d;
            }
        }
        int fits = !too_big && (n->negative ? mag <= (uint64_t)0 - (uint64_t)lo : mag <= hi);
        if (!fits) {
            return ck__lit_value_error(c, CK_ERR_OVERFLOW, "is out of range for %s", name);
        }
        *u_out = n->negative ? (uint64_t)0 - mag : mag;
        *s_out = (int64_t)*u_out; /* two's complement: -mag */
        return CK_OK;
    }
    double d;
    CK__RETURN_IF_ERROR(ck__lit_num_double(c->p, n, &d));
    if (isnan(d) || isinf(d)) {
        return ck__lit_value_error(c, CK_ERR_OVERFLOW, "cannot be stored in %s", name);
    }
    if (d != trunc(d)) {
        return ck__lit_value_error(c, CK_ERR_FRACTIONAL, "is not an integer, as %s requires",
                                   name);
    }
    /* hi + 1 is a power of two (or 2^64), exact as a double; lo likewise. */
    double upper = ldexp((double)(hi / 2 + 1), 1);
    if (d < (double)lo || d >= upper) {
        return ck__lit_value_error(c, CK_ERR_OVERFLOW, "is out of range for %s", name);
    }
    if (d < 0) {
        *s_out = (int64_t)d;
        *u_out = (uint64_t)*s_out;
    } else {
        *u_out = (uint64_t)d;
        *s_out = (int64_t)*u_out;
    }
    return CK_OK;
}

/* Whether a decimal's magnitude is certainly below 10^308 (float64), 10^38 (float32,
 * bfloat16) or 10^4 (float16), from its digits before the point and its exponent: it then
 * cannot overflow the kind. */
static int ck__lit_below(uint64_t a, uint64_t b) { /* (no always-true warning at 32 bits) */
    return a < b;
}
static int ck__lit_num_small(const ck__num *n, ck__fkind k) {
    const int64_t limit = k == CK__F64 ? 308 : k == CK__F16 ? 4 : 38;
    return n->special == 0 && ck__lit_below(n->dec.nint, (uint64_t)CK__EXP10_SATURATED) &&
           (int64_t)n->dec.nint + n->dec.exp10 <= limit;
}

/* A float component of kind k; finite text that rounds to infinity is an overflow. */
static int ck__lit_float(const ck__lit_ctx *c, const ck__num *n, ck__fkind k, double *out) {
    if (c->check_only && ck__lit_num_small(n, k)) {
        /* The checking pass wants only errors, and this text has none to give: it is read
         * once, when storing. */
        *out = 0.0;
        return CK_OK;
    }
    CK__RETURN_IF_ERROR(ck__lit_num_float(c->p, n, k, out));
    if (isinf(*out) && n->special != CK__NUM_INF) {
        return ck__lit_value_error(c, CK_ERR_OVERFLOW, "is out of range for %s",
                                   ck_type_id_name(c->id));
    }
    return CK_OK;
}

static int ck__lit_real(const ck__lit_ctx *c, ck__fkind k, double *out) {
    if (c->v->is_bool) {
        *out = c->v->bool_value;
        return CK_OK;
    }
    const ck__num *n;
    CK__RETURN_IF_ERROR(ck__lit_real_part(c, &n));
    return ck__lit_float(c, n, k, out);
}

static int ck__lit_complex(const ck__lit_ctx *c, ck__fkind k, double *re, double *im) {
    *im = 0.0;
    if (c->v->is_bool) {
        *re = c->v->bool_value;
        return CK_OK;
    }
    CK__RETURN_IF_ERROR(ck__lit_float(c, &c->v->re, k, re));
    if (c->v->is_complex) {
        CK__RETURN_IF_ERROR(ck__lit_float(c, &c->v->im, k, im));
    }
    return CK_OK;
}

/* Converts v to type id and, when data is not NULL, stores it there. */
static int ck__lit_store(const ck__lit *p, const ck__scalar_lit *v, ck_type_id id, char *data) {
    /* Bool reads its value to check it (0 or 1 only); the float and complex types need none. */
    const int floating = ck__scalar_is_floating(id);
    ck__lit_ctx c = {p, v, id, data == NULL && floating};
    int64_t s = 0;
    uint64_t u = 0;
    double re = 0.0;
    double im = 0.0;
    switch (id) {
    case CK_TYPE_BOOL: {
        if (v->is_bool) {
            u = (uint64_t)v->bool_value;
        } else {
            int rc = ck__lit_real(&c, CK__F64, &re);
            if (rc != CK_OK) {
                return rc;
            }
            if (re != 0.0 && re != 1.0) {
                return ck__lit_value_error(&c, CK_ERR_OVERFLOW,
                                           "is out of range for bool (true, false, 0 or 1)");
            }
            u = re == 1.0;
        }
        if (data != NULL) {
            *data = (char)u;
        }
        return CK_OK;
    }
#define CK__LIT_INT(ID, T, LO, HI, V)                                   \
    case ID: {                                                          \
        CK__RETURN_IF_ERROR(ck__lit_integer(&c, LO, HI, &s, &u));        \
        if (data != NULL) {                                             \
            T x = (T)(V);                                               \
            memcpy(data, &x, sizeof x);                                 \
        }                                                               \
        return CK_OK;                                                   \
    }
        CK__LIT_INT(CK_TYPE_INT8, int8_t, INT8_MIN, INT8_MAX, s)
        CK__LIT_INT(CK_TYPE_INT16, int16_t, INT16_MIN, INT16_MAX, s)
        CK__LIT_INT(CK_TYPE_INT32, int32_t, INT32_MIN, INT32_MAX, s)
        CK__LIT_INT(CK_TYPE_INT64, int64_t, INT64_MIN, INT64_MAX, s)
        CK__LIT_INT(CK_TYPE_UINT8, uint8_t, 0, UINT8_MAX, u)
        CK__LIT_INT(CK_TYPE_UINT16, uint16_t, 0, UINT16_MAX, u)
        CK__LIT_INT(CK_TYPE_UINT32, uint32_t, 0, UINT32_MAX, u)
        CK__LIT_INT(CK_TYPE_UINT64, uint64_t, 0, UINT64_MAX, u)
#undef CK__LIT_INT
    default: { /* a float or a complex: its parts' format (re, im already values of it) */
        const ck__fkind k = ck__fkind_of(id);
        if (ck__scalar_is_complex(id)) {
            CK__RETURN_IF_ERROR(ck__lit_complex(&c, k, &re, &im));
        } else {
            CK__RETURN_IF_ERROR(ck__lit_real(&c, k, &re));
        }
        if (data != NULL) {
            ck__fkind_store(k, re, data);
            if (ck__scalar_is_complex(id)) {
                ck__fkind_store(k, im, data + ck__scalar_info(id)->part_size);
            }
        }
        return CK_OK;
    }
    }
}

/* ---- structure ---- */

static int ck__lit_value(ck__lit *p, const ck_type *t, const char *arrmeta, char *data);

/* Consumes "null" when it stands at pos (for var dims and pointers). */
static int ck__lit_take_null(ck__lit *p) {
    size_t w = ck__lit_word_len(p, p->pos);
    if (ck__lit_word_is(p, p->pos, w, "null")) {
        p->pos += w;
        return 1;
    }
    return 0;
}

/* The number of elements of the (already validated) list whose '[' is just before pos. */
static size_t ck__lit_count(const ck__lit *p) {
    size_t count = 0;
    int depth = 0;
    int any = 0;
    for (size_t i = p->pos; i < p->len; i++) {
        char c = p->s[i];
        if (c == ']' && depth == 0) {
            break;
        }
        if (c == '\'' || c == '"') { /* a quoted field name: commas and brackets in it */
            size_t j = i + 1;
            while (j < p->len && p->s[j] != c) {
                j += p->s[j] == '\\' ? 2 : 1;
            }
            i = j;
            any = 1;
            continue;
        }
        if (c == '[' || c == '(' || c == '{') {
            depth++;
        } else if (c == ']' || c == ')' || c == '}') {
            depth--;
        } else if (c == ',' && depth == 0) {
            count++;
        }
        if (!ck__lit_is_space(c)) {
            any = 1;
        }
    }
    return any ? count + 1 : 0;
}

/* A list for a fixed dim (expect >= 0: exactly that many elements) or a var dim
 * (expect < 0). Element i goes to first + i * stride when storing. */
static int ck__lit_list(ck__lit *p, const ck_type *t, intptr_t expect, const char *elem_meta,
                        char *first, intptr_t stride) {
    char tname[96];
    const size_t open = p->pos;
    if (ck__lit_peek(p) != '[') {
        char found[64];
        ck__lit_found(p, p->pos, found, sizeof found);
        ck__lit_type_text(t, tname, sizeof tname);
        return ck__lit_error(p, CK_ERR_PARSE, p->pos, "expected a list for %s, found %s",
                             tname, found);
    }
    p->pos++;
    ck__lit_skip_ws(p);
    intptr_t count = 0;
    if (ck__lit_peek(p) == ']') {
        p->pos++;
    } else {
        for (;;) {
            if (expect >= 0 && count == expect) {
                ck__lit_type_text(t, tname, sizeof tname);
                return ck__lit_error(p, CK_ERR_PARSE, p->pos,
                                     "too many elements: %s takes %lld", tname,
                                     (long long)expect);
            }
            p->path_kind[p->depth] = '[';
            p->path_name[p->depth] = NULL;
            p->path[p->depth++] = count;
            int rc = ck__lit_value(p, t->element, elem_meta,
                                   first != NULL ? first + count * stride : NULL);
            p->depth--;
            if (rc != CK_OK) {
                return rc;
            }
            count++;
            ck__lit_skip_ws(p);
            char c = ck__lit_peek(p);
            if (c == ']') {
                p->pos++;
                break;
            }
            if (c != ',') {
                char found[64];
                ck__lit_found(p, p->pos, found, sizeof found);
                return ck__lit_error(p, CK_ERR_PARSE, p->pos,
                                     "expected ',' or ']' after element %lld, found %s",
                                     (long long)(count - 1), found);
            }
            p->pos++;
            ck__lit_skip_ws(p);
        }
    }
    if (expect >= 0 && count != expect) {
        ck__lit_type_text(t, tname, sizeof tname);
        return ck__lit_error(p, CK_ERR_PARSE, open, "%lld element%s given, %s takes %lld",
                             (long long)count, count == 1 ? "" : "s", tname, (long long)expect);
    }
    return CK_OK;
}

/* A tuple literal "(1, 2.5)" (by position) or a struct literal "{x: 1, y: [2, 3]}" (by
 * name: every field once, in any order). Field i goes to data + its arrmeta offset. */
static int ck__lit_fields(ck__lit *p, const ck_type *t, const char *arrmeta, char *data) {
    const int named = t->id == CK_TYPE_STRUCT;
    const char open = named ? '{' : '(', close = named ? '}' : ')';
    char tname[96];
    if (ck__lit_peek(p) != open) {
        char found[64];
        ck__lit_found(p, p->pos, found, sizeof found);
        ck__lit_type_text(t, tname, sizeof tname);
        return ck__lit_error(p, CK_ERR_PARSE, p->pos, "expected a %s for %s, found %s",
                             named ? "struct literal {name: value, ...}"
                                   : "tuple literal (value, ...)",
                             tname, found);
    }
    if (p->depth >= CK_TYPE_MAX_DEPTH) {
        return ck__lit_error(p, CK_ERR_INVALID, p->pos, "nested deeper than %d levels",
                             CK_TYPE_MAX_DEPTH);
    }
    const size_t open_at = p->pos;
    p->pos++;
    ck__lit_skip_ws(p);
    /* Which fields were given: one bit each, on the stack for small structs. */
    unsigned char seen_small[64];
    unsigned char *seen = seen_small;
    if (named && t->nfields > sizeof seen_small * 8) {
        seen = (unsigned char *)ck__calloc((t->nfields + 7) / 8, 1);
        if (seen == NULL) {
            return ck__nomem_error("ck_array_parse: out of memory for %zu fields", t->nfields);
        }
    } else {
        memset(seen_small, 0, sizeof seen_small);
    }
    ck__strbuf name = CK__STRBUF_INIT;
    size_t given = 0;
    int rc = CK_OK;
    if (ck__lit_peek(p) == close) {
        p->pos++;
    } else {
        for (;;) {
            size_t i = given;
            const size_t at = p->pos;
            if (named) {
                name.len = 0;
                const char *why = ck__scan_field_name(p->s, p->len, &p->pos, &name);
                if (why == NULL) {
                    ck__strbuf_append(&name, "", 0); /* terminated even when empty */
                    rc = name.status;
                }
                if (why != NULL) {
                    rc = ck__lit_error(p, CK_ERR_PARSE, p->pos, "%s in a struct literal", why);
                } else if (rc != CK_OK) {
                    rc = ck__nomem_error("ck_array_parse: out of memory for a field name");
                } else {
                    const intptr_t k = ck__type_field_index_at(t, name.s, given);
                    if (k < 0) {
                        ck__lit_type_text(t, tname, sizeof tname);
                        ck__strbuf shown = CK__STRBUF_INIT;
                        ck__format_field_name(name.s, &shown);
                        rc = ck__lit_error(p, CK_ERR_PARSE, at, "%s has no field %s", tname,
                                           shown.s != NULL ? shown.s : "?");
                        ck__strbuf_free(&shown);
                    } else if (seen[k / 8] & (1u << (k % 8))) {
                        rc = ck__lit_error(p, CK_ERR_PARSE, at, "field %s is given twice",
                                           t->names[k]);
                    } else {
                        i = (size_t)k;
                        seen[k / 8] = (unsigned char)(seen[k / 8] | (1u << (k % 8)));
                    }
                }
                if (rc == CK_OK) {
                    ck__lit_skip_ws(p);
                    if (ck__lit_peek(p) != ':') {
                        char found[64];
                        ck__lit_found(p, p->pos, found, sizeof found);
                        rc = ck__lit_error(p, CK_ERR_PARSE, p->pos,
                                           "expected ':' after the field name, found %s", found);
                    } else {
                        p->pos++;
                    }
                }
            } else if (given == t->nfields) {
                ck__lit_type_text(t, tname, sizeof tname);
                rc = ck__lit_error(p, CK_ERR_PARSE, p->pos, "too many values: %s has %zu fields",
                                   tname, t->nfields);
            }
            if (rc != CK_OK) {
                break;
            }
            char *fdata = NULL;
            const char *fmeta = NULL;
            if (data != NULL) {
                intptr_t off;
                memcpy(&off, arrmeta + i * sizeof off, sizeof off);
                fdata = data + off;
                fmeta = arrmeta + t->arrmeta_offsets[i];
            }
            p->path_kind[p->depth] = '.';
            p->path_name[p->depth] = named ? t->names[i] : NULL;
            p->path[p->depth++] = (intptr_t)i;
            rc = ck__lit_value(p, t->fields[i], fmeta, fdata);
            p->depth--;
            if (rc != CK_OK) {
                break;
            }
            given++;
            ck__lit_skip_ws(p);
            const char c = ck__lit_peek(p);
            if (c == close) {
                p->pos++;
                break;
            }
            if (c != ',') {
                char found[64];
                ck__lit_found(p, p->pos, found, sizeof found);
                rc = ck__lit_error(p, CK_ERR_PARSE, p->pos, "expected ',' or '%c' after a field, found %s",
                                   close, found);
                break;
            }
            p->pos++;
            ck__lit_skip_ws(p);
        }
    }
    if (rc == CK_OK && given != t->nfields) {
        ck__lit_type_text(t, tname, sizeof tname);
        if (!named) {
            rc = ck__lit_error(p, CK_ERR_PARSE, open_at, "%zu value%s given, %s has %zu fields",
                               given, given == 1 ? "" : "s", tname, t->nfields);
        } else {
            size_t k = 0;
            while (seen[k / 8] & (1u << (k % 8))) {
                k++;
            }
            ck__strbuf shown = CK__STRBUF_INIT;
            ck__format_field_name(t->names[k], &shown);
            rc = ck__lit_error(p, CK_ERR_PARSE, open_at, "field %s of %s is missing",
                               shown.s != NULL ? shown.s : "?", tname);
            ck__strbuf_free(&shown);
        }
    }
    ck__strbuf_free(&name);
    if (seen != seen_small) {
        ck__free(seen);
    }
    return rc;
}

/* ---- text ---- */

/* Four hex digits at s[i] (the text after \u); -1 when they are not. */
static long ck__lit_hex(const ck__lit *p, size_t i, int ndigits) {
    long v = 0;
    for (int k = 0; k < ndigits; k++) {
        const char c = i + (size_t)k < p->len ? p->s[i + (size_t)k] : '\0';
        const int d = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
        if (d < 0) {
            return -1;
        }
        v = v * 16 + d;
    }
    return v;
}

/* The next item of the quoted text at *at (after its opening quote): a code point (text) or
 * a byte (bytes, is_bytes) into *item. 1: an item, *at past it; 0: the closing quote, *at
 * past it; -1: an error (recorded). JSON's escapes \" \\ \/ \b \f \n \r \t, and \uXXXX (a
 * surrogate pair for a code point above U+FFFF) in text, \xHH in bytes; the literal's own
 * bytes are UTF-8 in text (strictly) and taken as they are in bytes; control bytes must be
 * escaped. */
static int ck__lit_text_item(const ck__lit *p, size_t *at, int is_bytes, uint32_t *item) {
    size_t i = *at;
    if (i >= p->len) {
        return ck__lit_error(p, CK_ERR_PARSE, i, "a quoted text is not closed"), -1;
    }
    const unsigned char c = (unsigned char)p->s[i];
    if (c == '"') {
        *at = i + 1;
        return 0;
    }
    if (c < 0x20) {
        return ck__lit_error(p, CK_ERR_PARSE, i,
                             "control byte 0x%02x in a quoted text: write it escaped (\\n, \\t, "
                             "%s)",
                             c, is_bytes ? "\\xHH" : "\\u00XX"),
               -1;
    }
    if (c != '\\') {
        if (is_bytes || c < 0x80) {
            *item = c;
            *at = i + 1;
            return 1;
        }
        const size_t n = ck__text_decode(CK_ENCODING_UTF8, p->s, i, p->len, item);
        if (n == 0) {
            return ck__lit_error(p, CK_ERR_PARSE, i,
                                 "the literal is not valid UTF-8 here (byte 0x%02x)", c),
                   -1;
        }
        *at = i + n;
        return 1;
    }
    const char e = i + 1 < p->len ? p->s[i + 1] : '\0';
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *hit = e != '\0' ? strchr(from, e) : NULL;
    if (hit != NULL) {
        *item = (unsigned char)to[hit - from];
        *at = i + 2;
        return 1;
    }
    if (e == 'x' && is_bytes) {
        const long v = ck__lit_hex(p, i + 2, 2);
        if (v < 0) {
            return ck__lit_error(p, CK_ERR_PARSE, i, "\\x takes two hex digits"), -1;
        }
        *item = (uint32_t)v;
        *at = i + 4;
        return 1;
    }
    if (e == 'u' && !is_bytes) {
        long v = ck__lit_hex(p, i + 2, 4);
        if (v < 0) {
            return ck__lit_error(p, CK_ERR_PARSE, i, "\\u takes four hex digits"), -1;
        }
        size_t end = i + 6;
        if (v >= 0xd800 && v < 0xdc00) {
            const long lo = end + 1 < p->len && p->s[end] == '\\' && p->s[end + 1] == 'u'
                                ? ck__lit_hex(p, end + 2, 4)
                                : -1;
            if (lo < 0xdc00 || lo >= 0xe000) {
                return ck__lit_error(p, CK_ERR_PARSE, i,
                                     "\\u%04lx is a high surrogate without its low surrogate "
                                     "(\\udc00 to \\udfff) after it",
                                     (unsigned long)v),
                       -1;
            }
            v = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
            end += 6;
        } else if (v >= 0xdc00 && v < 0xe000) {
            return ck__lit_error(p, CK_ERR_PARSE, i,
                                 "\\u%04lx is a low surrogate without a high surrogate before it",
                                 (unsigned long)v),
                   -1;
        }
        *item = (uint32_t)v;
        *at = end;
        return 1;
    }
    return ck__lit_error(p, CK_ERR_PARSE, i,
                         "unknown escape in a quoted %s (\\\", \\\\, \\/, \\b, \\f, \\n, \\r, "
                         "\\t, %s)",
                         is_bytes ? "bytes" : "text", is_bytes ? "\\xHH" : "\\uXXXX"),
           -1;
}

/* A quoted text literal ("abc", JSON's escapes) for a text type: read once to count the code
 * units it takes in the type's encoding (and check them), once more to write them when
 * storing. string and bytes allocate their bytes from the arena in their arrmeta; a fixed
 * type takes at most its N units and is NUL-padded. */
static int ck__lit_text(ck__lit *p, const ck_type *t, const char *arrmeta, char *data) {
    char tname[96];
    if (ck__lit_peek(p) != '"') {
        char found[64];
        ck__lit_found(p, p->pos, found, sizeof found);
        ck__lit_type_text(t, tname, sizeof tname);
        return ck__lit_error(p, CK_ERR_PARSE, p->pos,
                             "expected a quoted text (\"...\") for %s, found %s", tname, found);
    }
    const size_t open = p->pos;
    const int enc = t->param, is_bytes = enc == CK_ENCODING_NONE;
    size_t units = 0, at = open + 1;
    uint32_t item = 0;
    int r;
    while ((r = ck__lit_text_item(p, &at, is_bytes, &item)) > 0) {
        const size_t n = is_bytes ? 1 : ck__text_units_of(enc, item);
        if (n == 0) {
            ck__lit_type_text(t, tname, sizeof tname);
            return ck__lit_error(p, CK_ERR_TEXT, open,
                                 "U+%04lX cannot be encoded in %s", (unsigned long)item, tname);
        }
        units += n;
    }
    if (r < 0) {
        return ck_last_status();
    }
    const size_t end = at;
    const size_t cap = ck__is_var_text(t->id) ? SIZE_MAX : t->data_size / ck__code_unit_size(enc);
    if (units > cap) {
        ck__lit_type_text(t, tname, sizeof tname);
        return ck__lit_error(p, CK_ERR_OVERFLOW, open,
                             "a text of %zu code units does not fit %s", units, tname);
    }
    if (data != NULL) {
        char *out = data;
        if (ck__is_var_text(t->id)) {
            ck_string_arrmeta m;
            memcpy(&m, arrmeta, sizeof m);
            const ck_string_data v0 = {NULL, 0};
            ck_string_data v = v0;
            if (units > 0) {
                char *bytes;
                CK__RETURN_IF_ERROR(ck_arena_alloc(m.blockref, units, 1, &bytes));
                v.data = bytes;
                v.size = units;
                out = bytes;
            }
            memcpy(data, &v, sizeof v);
        }
        const size_t usz = ck__code_unit_size(enc);
        size_t w = 0; /* units written */
        for (at = open + 1; ck__lit_text_item(p, &at, is_bytes, &item) > 0;) {
            if (is_bytes) {
                out[w++] = (char)item;
            } else {
                w += ck__text_encode(enc, item, out + w * usz);
            }
        }
        if (!ck__is_var_text(t->id)) {
            memset(out + w * usz, 0, t->data_size - w * usz); /* the NUL padding */
        }
    }
    p->pos = end;
    return CK_OK;
}

/* ---- datetime64 and timedelta64 ---- */

/* NaT (a bare word); a datetime as its ISO 8601 text in quotes ("2026-11-25T20:31:42",
 * datetime.c's grammar, JSON's escapes allowed); a timedelta as an integer count of its
 * unit (its minimum is NaT's value, refused). */
static int ck__lit_time(ck__lit *p, const ck_type *t, char *data) {
    const size_t at = p->pos, w = ck__lit_word_len(p, at);
    int64_t v = CK_DATETIME_NAT;
    char tname[96];
    if (ck__lit_word_is(p, at, w, "NaT")) {
        p->pos += w;
    } else if (t->id == CK_TYPE_TIMEDELTA) {
        ck__scalar_lit s;
        CK__RETURN_IF_ERROR(ck__lit_scalar(p, t, &s));
        CK__RETURN_IF_ERROR(ck__lit_scalar_end(p, &s));
        CK__RETURN_IF_ERROR(ck__lit_store(p, &s, CK_TYPE_INT64, (char *)&v));
        if (v == CK_DATETIME_NAT) {
            ck__lit_type_text(t, tname, sizeof tname);
            return ck__lit_error(p, CK_ERR_OVERFLOW, at,
                                 "this value is NaT's (the int64 minimum) in %s: write NaT",
                                 tname);
        }
    } else {
        if (ck__lit_peek(p) != '"') {
            char found[64];
            ck__lit_found(p, at, found, sizeof found);
            ck__lit_type_text(t, tname, sizeof tname);
            return ck__lit_error(p, CK_ERR_PARSE, at,
                                 "expected a quoted ISO 8601 text (\"2026-11-25T20:31:42\") or "
                                 "NaT for %s, found %s",
                                 tname, found);
        }
        char text[CK__DATETIME_TEXT_MAX];
        size_t n = 0, pos = at + 1;
        uint32_t item = 0;
        int r;
        while ((r = ck__lit_text_item(p, &pos, 0, &item)) > 0) {
            if (item >= 0x80 || n + 1 >= sizeof text) {
                ck__lit_type_text(t, tname, sizeof tname);
                return ck__lit_error(p, CK_ERR_TEXT, at, "this text is not a %s (%s)", tname,
                                     item >= 0x80 ? "a character beyond ASCII"
                                                  : "longer than any datetime");
            }
            text[n++] = (char)item;
        }
        if (r < 0) {
            return ck_last_status();
        }
        const char *why;
        const int rc = ck__time_parse(text, n, t->param, 0, &v, &why);
        if (rc != CK_OK) {
            ck__lit_type_text(t, tname, sizeof tname);
            return ck__lit_error(p, rc, at, "this text is %s %s%s%s", 
                                 rc == CK_ERR_OVERFLOW ? "out of range for" : "not a", tname,
                                 *why != '\0' ? ": " : "", why);
        }
        p->pos = pos;
    }
    if (data != NULL) {
        memcpy(data, &v, sizeof v);
    }
    return CK_OK;
}

static int ck__lit_value(ck__lit *p, const ck_type *t, const char *arrmeta, char *data) {
    ck__lit_skip_ws(p);
    const size_t level = ck__level_arrmeta_size(t->id);
    const char *elem_meta = data != NULL ? arrmeta + level : NULL;
    switch (t->id) {
    case CK_TYPE_FIXED_DIM: {
        intptr_t stride = 0;
        if (data != NULL) {
            ck_fixed_dim_arrmeta m;
            memcpy(&m, arrmeta, sizeof m);
            stride = m.stride;
        }
        return ck__lit_list(p, t, t->fixed_size, elem_meta, data, stride);
    }
    case CK_TYPE_VAR_DIM: {
        if (ck__lit_take_null(p)) {
            return CK_OK; /* stays unallocated: the data is zero-filled */
        }
        if (data == NULL || ck__lit_peek(p) != '[') {
            return ck__lit_list(p, t, -1, NULL, NULL, 0);
        }
        ck_var_dim_arrmeta m;
        memcpy(&m, arrmeta, sizeof m);
        p->pos++;
        size_t count = ck__lit_count(p);
        p->pos--;
        size_t bytes;
        if (ck__mul_overflow(count, (size_t)m.stride, &bytes)) {
            return ck__lit_error(p, CK_ERR_NOMEM, p->pos, "%zu elements cannot be allocated",
                                 count);
        }
        char *begin;
        CK__RETURN_IF_ERROR(
            ck_arena_alloc(m.blockref, bytes, t->element->data_alignment, &begin));
        ck_var_data v = {begin, count};
        memcpy(data, &v, sizeof v);
        /* Expecting exactly the counted elements means a miscount could only ever be an
         * error, never a write past the allocation. */
        return ck__lit_list(p, t, (intptr_t)count, elem_meta, begin, m.stride);
    }
    case CK_TYPE_POINTER: {
        if (ck__lit_take_null(p)) {
            return CK_OK;
        }
        char *target = NULL;
        if (data != NULL) {
            ck_pointer_arrmeta m;
            memcpy(&m, arrmeta, sizeof m);
            const ck_type *e = t->element;
            CK__RETURN_IF_ERROR(ck_arena_alloc(m.blockref, e->data_size, e->data_alignment,
                                              &target));
            memcpy(data, &target, sizeof target); /* offset is 0 in the array's arrmeta */
        }
        return ck__lit_value(p, t->element, elem_meta, target);
    }
    case CK_TYPE_TUPLE:
    case CK_TYPE_STRUCT:
        return ck__lit_fields(p, t, arrmeta, data);
    case CK_TYPE_STRING:
    case CK_TYPE_BYTES:
    case CK_TYPE_FIXED_STRING:
    case CK_TYPE_FIXED_BYTES:
        return ck__lit_text(p, t, arrmeta, data);
    case CK_TYPE_DATETIME:
    case CK_TYPE_TIMEDELTA:
        return ck__lit_time(p, t, data);
    case CK_TYPE_OPTION: {
        const size_t w = ck__lit_word_len(p, p->pos);
        if (ck__lit_word_is(p, p->pos, w, "NA")) {
            p->pos += w;
            if (data != NULL) {
                ck__write_na(t->element, data);
            }
            return CK_OK;
        }
        const size_t at = p->pos;
        CK__RETURN_IF_ERROR(ck__lit_value(p, t->element, arrmeta, data));
        /* NaT is the NA of ?datetime64 and ?timedelta64: written either way. */
        if (data != NULL && !ck__is_time(t->element->id) && ck__is_na_of(t->element, data)) {
            char tname[96];
            ck__lit_type_text(t, tname, sizeof tname);
            return ck__lit_error(p, CK_ERR_OVERFLOW, at,
                                 "this value is the NA of %s (its reserved value): write NA",
                                 tname);
        }
        return CK_OK;
    }
    default: {
        const size_t w = ck__lit_word_len(p, p->pos);
        if (ck__lit_word_is(p, p->pos, w, "NA")) {
            char tname[96];
            ck__lit_type_text(t, tname, sizeof tname);
            return ck__lit_error(p, CK_ERR_NA, p->pos,
                                 "NA stands only for a value of an option type, not of %s", tname);
        }
        ck__scalar_lit v;
        CK__RETURN_IF_ERROR(ck__lit_scalar(p, t, &v));
        CK__RETURN_IF_ERROR(ck__lit_scalar_end(p, &v));
        return ck__lit_store(p, &v, t->id, data);
    }
    }
}

/* One pass over the whole literal; stores when a is not NULL. */
static int ck__lit_pass(ck__lit *p, const ck_type *t, ck_array *a) {
    p->pos = 0;
    p->depth = 0;
    CK__RETURN_IF_ERROR(ck__lit_value(p, t, a != NULL ? a->arrmeta : NULL,
                                     a != NULL ? a->data : NULL));
    ck__lit_skip_ws(p);
    if (p->pos < p->len) {
        char found[64];
        ck__lit_found(p, p->pos, found, sizeof found);
        return ck__lit_error(p, CK_ERR_PARSE, p->pos, "unexpected %s after the literal", found);
    }
    return CK_OK;
}

int ck_array_parse(const ck_type *t, const char *literal, ck_array **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_array_parse: out is NULL");
    }
    *out = NULL;
    if (t == NULL || literal == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_array_parse: the %s is NULL",
                            t == NULL ? "type" : "literal");
    }
    ck__lit p;
    memset(&p, 0, sizeof p);
    p.s = literal;
    p.len = strlen(literal);
    CK__RETURN_IF_ERROR(ck__lit_pass(&p, t, NULL));
    ck_array *a;
    CK__RETURN_IF_ERROR(ck__array_create(t, 0, 0, &a));
    int rc = ck__lit_pass(&p, t, a);
    if (rc != CK_OK) {
        ck_array_free(a);
        return rc;
    }
    *out = a;
    return CK_OK;
}
