/* tests/fuzz/fuzz_text.c: the composition fuzzer's text mode (inputs that start with
 * FZ_TEXT_MAGIC; docs/design.md §16). The input decodes into a text cast: a destination and
 * a source type (string, bytes, fixed_string[N, enc] of each encoding, fixed_bytes[N], the
 * integers, float32 and float64; at least one side text), 0 to 6 elements (the source
 * reversed now and then), an error mode and the source values: text made of number pieces
 * (digits, signs, points, exponents, inf/nan words in any case, white space; integer text
 * about each width's limit, at up to 60 digits with leading zeros) or of a palette
 * of code points (NUL, DEL, U+00E9, U+20AC, the BOM, U+1F600), now and then made invalid in
 * its encoding (a stray 0xff, a cut or overlong UTF-8 sequence, a lone surrogate, a unit
 * above U+10FFFF, ascii above 0x7f), or random numbers. ck_assign runs it; a reference
 * written here from the rules of §16 says what every element becomes:
 *   - decoding and encoding code point by code point (UTF-8 strict), CK_ERR_TEXT for the
 *     first invalid or unencodable one, a fixed destination too short CK_ERR_OVERFLOW when
 *     checked, cut after the last whole code point (bytes from bytes: byte) in nocheck;
 *   - number text by Python's float() grammar: integer text into integers exactly (checked:
 *     out of range is OVERFLOW; nocheck wraps), other text read by the C library's strtod /
 *     strtof (one rounding) and, into an integer, converted by the scalar oracle's float64
 *     rule of the mode (tests/support/scalar_oracle.c);
 *   - numbers as text: integers in decimal, floats as the shortest digits that read back
 *     (found here by trying 1 to 17 digits with printf's correctly rounded "%.*e" and its
 *     neighbour toward the value), laid out as Python's repr.
 * Options (from what is left of the input, so that older inputs keep their meaning): either
 * side ?T, source elements NA; NA in is NA out (the reference's own NA: every byte 0xff for
 * text, an integer's minimum or maximum, the floats' NaN of payload 0x7a2), or CK_ERR_NA
 * naming the element into a destination that is not an option, in every mode; a value whose
 * bits are the destination's NA (an integer, a fixed text of all 0xff units) is
 * CK_ERR_OVERFLOW in the checked modes and NA in nocheck.
 * The first failing element decides the status, the message ends with " at element [i]" and
 * that element is not written; otherwise every element is compared (string and bytes: their
 * bytes). Nothing leaks; ASan and UBSan see nothing. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_compose.h"

#define TMAX_N 6
#define TMAX_UNITS 48 /* code units of one source value */
#define TMAX_FIXED 12
#define TMAX_LONG 25 /* now and then a longer fixed N: 20-digit integer text fits */

/* ---- the types ---- */

typedef struct tkind {
    ck_type_id id; /* a text kind or a number */
    int enc;       /* fixed_string's; string: UTF8; bytes kinds: NONE */
    size_t n;      /* fixed kinds: N */
    int opt;       /* ?T */
} tkind;

static const ck_type_id numbers[] = {CK_TYPE_INT8,   CK_TYPE_INT16,  CK_TYPE_INT32,
                                     CK_TYPE_INT64,  CK_TYPE_UINT8,  CK_TYPE_UINT16,
                                     CK_TYPE_UINT32, CK_TYPE_UINT64, CK_TYPE_FLOAT32,
                                     CK_TYPE_FLOAT64};

static int is_text(ck_type_id id) {
    return id == CK_TYPE_STRING || id == CK_TYPE_BYTES || id == CK_TYPE_FIXED_STRING ||
           id == CK_TYPE_FIXED_BYTES;
}

static size_t unit_size(int enc) {
    return enc == CK_ENCODING_UTF16 ? 2 : enc == CK_ENCODING_UTF32 ? 4 : 1;
}

static tkind pick_kind(fz_bytes *in, int text_only) {
    tkind k = {CK_TYPE_STRING, CK_ENCODING_UTF8, 0, 0};
    const unsigned c = fz_take(in, text_only ? 7 : 17);
    if (c >= 7) {
        k.id = numbers[c - 7];
        k.enc = CK_ENCODING_ASCII;
    } else if (c == 1) {
        k.id = CK_TYPE_BYTES;
        k.enc = CK_ENCODING_NONE;
    } else if (c >= 2 && c <= 5) {
        k.id = CK_TYPE_FIXED_STRING;
        k.enc = (int)(c - 2); /* ascii, utf8, utf16, utf32 */
        k.n = 1 + fz_take(in, fz_take(in, 4) == 0 ? TMAX_LONG : TMAX_FIXED);
    } else if (c == 6) {
        k.id = CK_TYPE_FIXED_BYTES;
        k.enc = CK_ENCODING_NONE;
        k.n = 1 + fz_take(in, fz_take(in, 4) == 0 ? TMAX_LONG : TMAX_FIXED);
    }
    return k;
}

static size_t elem_size(const tkind *k) {
    if (k->id == CK_TYPE_STRING || k->id == CK_TYPE_BYTES) {
        return sizeof(ck_string_data);
    }
    if (is_text(k->id)) {
        return k->n * unit_size(k->enc);
    }
    return ck_type_data_size(ck_type_scalar(k->id));
}

static ck_type *make_type(const tkind *k, size_t count) {
    ck_type *el = NULL, *t = NULL;
    int rc = CK_OK;
    const ck_type *e;
    if (k->id == CK_TYPE_FIXED_STRING) {
        rc = ck_type_make_fixed_string((intptr_t)k->n, (ck_text_encoding)k->enc, &el);
        e = el;
    } else if (k->id == CK_TYPE_FIXED_BYTES) {
        rc = ck_type_make_fixed_bytes((intptr_t)k->n, &el);
        e = el;
    } else {
        e = k->id == CK_TYPE_STRING  ? ck_type_string()
            : k->id == CK_TYPE_BYTES ? ck_type_bytes()
                                     : ck_type_scalar(k->id);
    }
    CKF_CHECK(rc == CK_OK, "type: %s", ck_last_error());
    ck_type *o = NULL;
    if (k->opt) {
        rc = ck_type_make_option(e, &o);
        CKF_CHECK(rc == CK_OK, "type: %s", ck_last_error());
        e = o;
    }
    rc = ck_type_make_fixed_dim((intptr_t)count, e, &t);
    CKF_CHECK(rc == CK_OK, "type: %s", ck_last_error());
    ck_type_decref(o);
    ck_type_decref(el);
    return t;
}

/* The NA of ?k, written here from the rule (include/ckernel/types.h, docs/design.md §16):
 * signed integers their minimum, unsigned their maximum, float32 and float64 the quiet NaNs
 * 0x7fc007a2 and 0x7ff80000000007a2, text every byte of the element 0xff. */
static void na_of(const tkind *k, unsigned char *na, size_t size) {
    memset(na, 0xff, size); /* text, and the unsigned maximum */
    int64_t i = 0;
    switch (k->id) {
    case CK_TYPE_INT8: i = INT8_MIN; break;
    case CK_TYPE_INT16: i = INT16_MIN; break;
    case CK_TYPE_INT32: i = INT32_MIN; break;
    case CK_TYPE_INT64: i = INT64_MIN; break;
    case CK_TYPE_FLOAT32: {
        const uint32_t f = 0x7fc007a2u;
        memcpy(na, &f, sizeof f);
        return;
    }
    case CK_TYPE_FLOAT64: {
        const uint64_t f = UINT64_C(0x7ff80000000007a2);
        memcpy(na, &f, sizeof f);
        return;
    }
    default: return;
    }
    switch (size) { /* the signed minimum in the machine's order */
    case 1: { const int8_t v = (int8_t)i; memcpy(na, &v, 1); break; }
    case 2: { const int16_t v = (int16_t)i; memcpy(na, &v, 2); break; }
    case 4: { const int32_t v = (int32_t)i; memcpy(na, &v, 4); break; }
    default: memcpy(na, &i, 8); break;
    }
}

/* ---- code units: a value as units of its encoding (bytes for utf8, ascii, none) ---- */

typedef struct units {
    uint32_t u[4 * TMAX_UNITS + 8];
    size_t n;
} units;

static void push(units *s, uint32_t u) {
    if (s->n < sizeof s->u / sizeof s->u[0]) {
        s->u[s->n++] = u;
    }
}

/* cp in enc (UTF-8 for ascii and none too: an ascii source above 0x7f is invalid). */
static void encode_cp(units *s, int enc, uint32_t cp) {
    if (enc == CK_ENCODING_UTF32) {
        push(s, cp);
    } else if (enc == CK_ENCODING_UTF16) {
        if (cp >= 0x10000) {
            push(s, 0xD800 + ((cp - 0x10000) >> 10));
            push(s, 0xDC00 + ((cp - 0x10000) & 0x3FF));
        } else {
            push(s, cp);
        }
    } else if (cp < 0x80) {
        push(s, cp);
    } else if (cp < 0x800) {
        push(s, 0xC0 | (cp >> 6));
        push(s, 0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        push(s, 0xE0 | (cp >> 12));
        push(s, 0x80 | ((cp >> 6) & 0x3F));
        push(s, 0x80 | (cp & 0x3F));
    } else {
        push(s, 0xF0 | (cp >> 18));
        push(s, 0x80 | ((cp >> 12) & 0x3F));
        push(s, 0x80 | ((cp >> 6) & 0x3F));
        push(s, 0x80 | (cp & 0x3F));
    }
}

/* Decodes one code point at s->u[i] (enc; none reads as UTF-8): its units, or 0 when the
 * text is not valid there. */
static size_t decode_cp(const units *s, size_t i, int enc, uint32_t *cp) {
    const uint32_t a = s->u[i];
    if (enc == CK_ENCODING_UTF32) {
        *cp = a;
        return a > 0x10FFFF || (a >= 0xD800 && a <= 0xDFFF) ? 0 : 1;
    }
    if (enc == CK_ENCODING_UTF16) {
        if (a >= 0xDC00 && a <= 0xDFFF) {
            return 0;
        }
        if (a >= 0xD800 && a <= 0xDBFF) {
            if (i + 1 >= s->n || s->u[i + 1] < 0xDC00 || s->u[i + 1] > 0xDFFF) {
                return 0;
            }
            *cp = 0x10000 + ((a - 0xD800) << 10) + (s->u[i + 1] - 0xDC00);
            return 2;
        }
        *cp = a;
        return 1;
    }
    if (enc == CK_ENCODING_ASCII) {
        *cp = a;
        return a < 0x80;
    }
    size_t len;
    uint32_t min;
    if (a < 0x80) {
        *cp = a;
        return 1;
    } else if (a >= 0xC2 && a <= 0xDF) {
        len = 2, min = 0x80, *cp = a & 0x1F;
    } else if (a >= 0xE0 && a <= 0xEF) {
        len = 3, min = 0x800, *cp = a & 0x0F;
    } else if (a >= 0xF0 && a <= 0xF4) {
        len = 4, min = 0x10000, *cp = a & 0x07;
    } else {
        return 0;
    }
    if (i + len > s->n) {
        return 0;
    }
    for (size_t k = 1; k < len; k++) {
        if ((s->u[i + k] & 0xC0) != 0x80) {
            return 0;
        }
        *cp = (*cp << 6) | (s->u[i + k] & 0x3F);
    }
    return *cp < min || *cp > 0x10FFFF || (*cp >= 0xD800 && *cp <= 0xDFFF) ? 0 : len;
}

/* The units cp takes in enc, or 0 when enc cannot hold it. */
static size_t units_of(int enc, uint32_t cp) {
    if (enc == CK_ENCODING_ASCII) {
        return cp < 0x80;
    }
    if (enc == CK_ENCODING_UTF32) {
        return 1;
    }
    if (enc == CK_ENCODING_UTF16) {
        return cp >= 0x10000 ? 2 : 1;
    }
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* ---- the values ---- */

static void put_ascii(units *s, const char *t) {
    for (; *t != '\0'; t++) {
        push(s, (unsigned char)*t);
    }
}

/* Number-like text (pieces of Python's float() grammar, or not quite) as code points. */
static void number_text(fz_bytes *in, units *cps) {
    static const char *const words[] = {"inf", "INF",     "Infinity", "nan",
                                        "NaN", "infinit", "nan(1)"};
    static const char *const spaces[] = {"", "", " ", "\t", "  \n", "\r\v\f"};
    put_ascii(cps, spaces[fz_take(in, 6)]);
    const unsigned sign = fz_take(in, 4);
    if (sign == 1) push(cps, '-');
    if (sign == 2) push(cps, '+');
    if (fz_take(in, 6) == 0) {
        put_ascii(cps, words[fz_take(in, 7)]);
    } else if (fz_take(in, 4) == 0) {
        /* Integer text about a width's limit, its last digit changed now and then, after
         * leading zeros and before more digits: every length to 60 digits, in range by one
         * and out of it (of int64 and uint64: the fast path's 19 digits and the general
         * leaf's exact reading beyond). */
        static const char *const limits[] = {
            "127",        "128",        "255",        "256",
            "32767",      "32768",      "65535",      "65536",
            "2147483647", "2147483648", "4294967295", "4294967296",
            "9223372036854775807",  "9223372036854775808",  "9999999999999999999",
            "18446744073709551615", "18446744073709551616", "99999999999999999999"};
        for (unsigned z = fz_take(in, 4) == 0 ? fz_take(in, 21) : 0; z > 0; z--) push(cps, '0');
        const char *l = limits[fz_take(in, sizeof limits / sizeof limits[0])];
        const size_t len = strlen(l);
        const int change = fz_take(in, 3) == 0;
        for (size_t k = 0; k < len; k++) {
            push(cps, k + 1 == len && change ? (uint32_t)'0' + fz_take(in, 10) : (uint32_t)l[k]);
        }
        for (unsigned x = fz_take(in, 3) == 0 ? fz_take(in, 21) : 0; x > 0; x--) {
            push(cps, '0' + fz_take(in, 10));
        }
    } else {
        const unsigned digits = fz_take(in, 24);
        const unsigned first = fz_take(in, 3); /* leading zeros now and then */
        for (unsigned k = 0; k < digits; k++) {
            push(cps, k == 0 && first == 0 ? (uint32_t)'0' : (uint32_t)'0' + fz_take(in, 10));
        }
        if (fz_take(in, 3) == 0) {
            push(cps, '.');
            for (unsigned k = fz_take(in, 6); k > 0; k--) push(cps, '0' + fz_take(in, 10));
        }
        if (fz_take(in, 4) == 0) {
            push(cps, fz_take(in, 2) ? 'e' : 'E');
            const unsigned es = fz_take(in, 3);
            if (es == 1) push(cps, '-');
            if (es == 2) push(cps, '+');
            for (unsigned k = fz_take(in, 4); k > 0; k--) push(cps, '0' + fz_take(in, 10));
        }
    }
    put_ascii(cps, spaces[fz_take(in, 6)]);
    if (fz_take(in, 16) == 0) {
        push(cps, fz_take(in, 2) ? 'x' : 0xA0); /* junk after it, or a non-ASCII space */
    }
}

static void palette_text(fz_bytes *in, units *cps) {
    static const uint32_t pal[] = {'a', 'Z', '0', '7', ' ', '"', '\\', 0,     0x7F,
                                   0xE9, 0x20AC, 0xFEFF, 0x1F600, 0x10FFFF, 0x80, 0x7FF};
    for (unsigned k = fz_take(in, 9); k > 0; k--) {
        push(cps, pal[fz_take(in, 16)]);
    }
}

/* A source text value of kind k as raw units of its encoding (fixed kinds: at most N units,
 * cut as units, which may cut a sequence: then invalid, as a host's buffer may be). */
static void text_value(fz_bytes *in, const tkind *k, units *out) {
    units cps = {{0}, 0};
    if (fz_take(in, 4) == 0) {
        palette_text(in, &cps);
    } else {
        number_text(in, &cps);
    }
    const int enc = k->enc == CK_ENCODING_NONE ? CK_ENCODING_UTF8 : k->enc;
    out->n = 0;
    for (size_t i = 0; i < cps.n; i++) {
        if (enc == CK_ENCODING_ASCII && cps.u[i] >= 0x80) {
            push(out, 0x80 | (cps.u[i] & 0x7F)); /* invalid ascii */
        } else {
            encode_cp(out, enc, cps.u[i]);
        }
    }
    /* now and then, invalid in its encoding (never in a string: a string is valid UTF-8) */
    if (k->id != CK_TYPE_STRING && fz_take(in, 8) == 0) {
        static const uint32_t bad8[][3] = {{0xFF, 0, 0}, {0xC0, 0x80, 0}, {0xE2, 0x82, 0},
                                           {0xED, 0xA0, 0x80}, {0x80, 0, 0}};
        const size_t at = out->n == 0 ? 0 : fz_take(in, (unsigned)out->n + 1);
        units bad = {{0}, 0};
        if (enc == CK_ENCODING_UTF16) {
            push(&bad, fz_take(in, 2) ? 0xD800 : 0xDC00);
        } else if (enc == CK_ENCODING_UTF32) {
            push(&bad, fz_take(in, 2) ? 0x110000 : 0xDFFF);
        } else {
            const unsigned b = fz_take(in, 5);
            for (int j = 0; j < 3 && bad8[b][j] != 0; j++) push(&bad, bad8[b][j]);
        }
        units tail = *out;
        out->n = at;
        for (size_t j = 0; j < bad.n; j++) push(out, bad.u[j]);
        for (size_t j = at; j < tail.n; j++) push(out, tail.u[j]);
    }
    if (k->id == CK_TYPE_FIXED_STRING || k->id == CK_TYPE_FIXED_BYTES) {
        if (out->n > k->n) {
            out->n = k->n;
        }
    }
}

static void store_units(char *p, int enc, const units *s, size_t from, size_t count) {
    const size_t us = unit_size(enc);
    for (size_t i = 0; i < count; i++) {
        const uint32_t u = s->u[from + i];
        if (us == 1) {
            p[i] = (char)(unsigned char)u;
        } else if (us == 2) {
            const uint16_t v = (uint16_t)u;
            memcpy(p + 2 * i, &v, 2);
        } else {
            memcpy(p + 4 * i, &u, 4);
        }
    }
}

/* A fixed element's units before its NUL padding. */
static void load_fixed(const char *p, const tkind *k, units *s) {
    const size_t us = unit_size(k->enc);
    s->n = 0;
    for (size_t i = 0; i < k->n; i++) {
        uint32_t u = 0;
        if (us == 1) {
            u = (unsigned char)p[i];
        } else if (us == 2) {
            uint16_t v;
            memcpy(&v, p + 2 * i, 2);
            u = v;
        } else {
            memcpy(&u, p + 4 * i, 4);
        }
        push(s, u);
    }
    while (s->n > 0 && s->u[s->n - 1] == 0) {
        s->n--;
    }
}

/* ---- numbers as text (the reference's own: printf and strtod, not ckernel's) ---- */

static int reads_back(const char *t, double v, int single) {
    if (single) {
        const float f = strtof(t, NULL);
        return memcmp(&f, &(float){(float)v}, sizeof f) == 0;
    }
    const double d = strtod(t, NULL);
    return memcmp(&d, &v, sizeof d) == 0;
}

/* The shortest digits that read back to v (finite, not 0): *m and *e with v ~ m * 10^e. */
static void shortest(double v, int single, unsigned long long *m, int *e) {
    const double a = fabs(v);
    for (int p = 1; p <= 17; p++) {
        char buf[48];
        snprintf(buf, sizeof buf, "%.*e", p - 1, a);
        unsigned long long mm = 0;
        for (const char *c = buf; *c != 'e'; c++) {
            if (*c >= '0' && *c <= '9') mm = mm * 10 + (unsigned)(*c - '0');
        }
        int ee = atoi(strchr(buf, 'e') + 1) - (p - 1);
        unsigned long long lo = 1;
        for (int k = 1; k < p; k++) lo *= 10;
        for (int attempt = 0; attempt < 2; attempt++) {
            snprintf(buf, sizeof buf, "%llue%d", mm, ee);
            if (reads_back(buf, a, single)) {
                *m = mm;
                *e = ee;
                return;
            }
            /* the neighbour on the value's side: the only other p-digit candidate */
            const long double c = strtold(buf, NULL);
            if (c > (long double)a) {
                mm--;
                if (mm < lo) mm = lo * 10 - 1, ee--;
            } else {
                mm++;
                if (mm == lo * 10) mm = lo, ee++;
            }
        }
    }
    CKF_CHECK(0, "no shortest text for %.17g", v);
}

/* Python's repr of a float64 or float32 value. */
static void float_text(double v, int single, char *out, size_t cap) {
    if (isnan(v)) {
        snprintf(out, cap, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(out, cap, "%sinf", v < 0 ? "-" : "");
        return;
    }
    const char *sign = signbit(v) ? "-" : "";
    if (v == 0) {
        snprintf(out, cap, "%s0.0", sign);
        return;
    }
    unsigned long long m;
    int e;
    shortest(v, single, &m, &e);
    while (m % 10 == 0) m /= 10, e++;
    char d[24];
    const int k = snprintf(d, sizeof d, "%llu", m);
    const int x = e + k - 1; /* the exponent of the first digit */
    if (x >= -4 && x < 16) {
        if (x < 0) {
            snprintf(out, cap, "%s0.%0*d%s", sign, -x - 1, 0, d);
            if (-x - 1 == 0) snprintf(out, cap, "%s0.%s", sign, d);
        } else if (k <= x + 1) {
            snprintf(out, cap, "%s%s%0*d.0", sign, d, x + 1 - k, 0);
            if (x + 1 - k == 0) snprintf(out, cap, "%s%s.0", sign, d);
        } else {
            snprintf(out, cap, "%s%.*s.%s", sign, x + 1, d, d + x + 1);
        }
    } else {
        snprintf(out, cap, "%s%c%s%s%se%c%02d", sign, d[0], k > 1 ? "." : "", d + 1, "",
                 x < 0 ? '-' : '+', x < 0 ? -x : x);
    }
}

static void number_to_text(ck_type_id id, const char *p, char *out, size_t cap) {
    ckt_elem v;
    memcpy(v.b, p, ck_type_data_size(ck_type_scalar(id)));
    switch (id) {
    case CK_TYPE_INT8: snprintf(out, cap, "%d", (int)*(int8_t *)(void *)v.b); break;
    case CK_TYPE_INT16: snprintf(out, cap, "%d", (int)*(int16_t *)(void *)v.b); break;
    case CK_TYPE_INT32: snprintf(out, cap, "%ld", (long)*(int32_t *)(void *)v.b); break;
    case CK_TYPE_INT64: snprintf(out, cap, "%lld", (long long)*(int64_t *)(void *)v.b); break;
    case CK_TYPE_UINT8: snprintf(out, cap, "%u", (unsigned)*(uint8_t *)(void *)v.b); break;
    case CK_TYPE_UINT16: snprintf(out, cap, "%u", (unsigned)*(uint16_t *)(void *)v.b); break;
    case CK_TYPE_UINT32: snprintf(out, cap, "%lu", (unsigned long)*(uint32_t *)(void *)v.b); break;
    case CK_TYPE_UINT64:
        snprintf(out, cap, "%llu", (unsigned long long)*(uint64_t *)(void *)v.b);
        break;
    case CK_TYPE_FLOAT32: float_text((double)*(float *)(void *)v.b, 1, out, cap); break;
    default: float_text(*(double *)(void *)v.b, 0, out, cap); break;
    }
}

/* ---- text as numbers ---- */

static int is_space(uint32_t u) {
    return u == ' ' || (u >= '\t' && u <= '\r');
}

static int word_is(const char *s, const char *w) {
    for (; *s != '\0' && *w != '\0'; s++, w++) {
        if ((*s | 0x20) != *w) return 0;
    }
    return *s == '\0' && *w == '\0';
}

/* Python's float() grammar (the text without white space): 1, and *integer for a sign and
 * digits only; 0 for anything else. */
static int grammar(const char *s, int *integer) {
    const char *p = s + (*s == '+' || *s == '-');
    *integer = 0;
    if (word_is(p, "inf") || word_is(p, "infinity") || word_is(p, "nan")) return 1;
    size_t digits = 0;
    while (*p >= '0' && *p <= '9') p++, digits++;
    *integer = digits > 0 && *p == '\0';
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++) digits++;
    }
    if (digits == 0) return 0;
    if (*p == 'e' || *p == 'E') {
        p++;
        p += *p == '+' || *p == '-';
        if (!(*p >= '0' && *p <= '9')) return 0;
        while (*p >= '0' && *p <= '9') p++;
    }
    return *p == '\0';
}

typedef struct texp {
    int status;
    ckt_expect num; /* a number destination's */
    units text;     /* a text destination's units (string and bytes: bytes) */
} texp;

static void expect_number(const tkind *d, int mode, const units *v, texp *x) {
    size_t b = 0, e = v->n;
    while (b < e && is_space(v->u[b])) b++;
    while (e > b && is_space(v->u[e - 1])) e--;
    char s[4 * TMAX_UNITS + 16];
    for (size_t i = b; i < e; i++) {
        if (v->u[i] >= 0x80 || v->u[i] == 0) {
            x->status = CK_ERR_TEXT;
            return;
        }
        s[i - b] = (char)v->u[i];
    }
    s[e - b] = '\0';
    int integer = 0;
    if (e == b || !grammar(s, &integer)) {
        x->status = CK_ERR_TEXT;
        return;
    }
    const ckt_scalar_info *di = ckt_scalar(d->id);
    x->status = CK_OK;
    if (integer && (di->kind == 'S' || di->kind == 'U')) {
        const int neg = s[0] == '-';
        unsigned long long mag = 0;
        int big = 0;
        for (const char *c = s + (s[0] == '-' || s[0] == '+'); *c != '\0'; c++) {
            const unsigned dd = (unsigned)(*c - '0');
            big |= mag > (~0ULL - dd) / 10;
            mag = mag * 10 + dd;
        }
        const unsigned long long hi =
            di->kind == 'S' ? (~0ULL >> (65 - di->bits)) : (~0ULL >> (64 - di->bits));
        const unsigned long long lo = di->kind == 'S' ? hi + 1 : 0;
        if ((big || (neg ? mag > lo : mag > hi)) && mode != CK_ERRMODE_NOCHECK) {
            x->status = CK_ERR_OVERFLOW;
            return;
        }
        ckt_put_low_bytes(x->num.out.b, neg ? 0ULL - mag : mag, di->size);
        return;
    }
    const int inf_text = strchr(s, 'n') != NULL || strchr(s, 'N') != NULL;
    const int nan_text = inf_text && (s[strlen(s) - 1] | 0x20) == 'n' &&
                         (s[strlen(s) - 2] | 0x20) == 'a';
    if (d->id == CK_TYPE_FLOAT32 || d->id == CK_TYPE_FLOAT64) {
        const double r = d->id == CK_TYPE_FLOAT32 ? (double)strtof(s, NULL) : strtod(s, NULL);
        if (isinf(r) && !inf_text && mode != CK_ERRMODE_NOCHECK) {
            x->status = CK_ERR_OVERFLOW;
            return;
        }
        if (d->id == CK_TYPE_FLOAT32) {
            const float f = (float)r;
            memcpy(x->num.out.b, &f, sizeof f);
        } else {
            memcpy(x->num.out.b, &r, sizeof r);
        }
        x->num.nan[0] = nan_text;
        return;
    }
    const double r = strtod(s, NULL); /* then float64 -> the integer, by the mode */
    x->num = ckt_oracle(d->id, CK_TYPE_FLOAT64, mode, (const unsigned char *)&r);
    x->status = x->num.status;
}

/* The text destination's units for source text v (raw: bytes to bytes, copied). */
static void expect_text(const tkind *d, int mode, const units *v, int src_enc, int raw, texp *x) {
    const int fixed = d->id == CK_TYPE_FIXED_STRING || d->id == CK_TYPE_FIXED_BYTES;
    const int denc = d->enc == CK_ENCODING_NONE ? CK_ENCODING_UTF8 : d->enc;
    units out = {{0}, 0};
    size_t fit = 0;
    int cut = 0;
    x->status = CK_OK;
    for (size_t i = 0; i < v->n;) {
        uint32_t cp = v->u[i];
        size_t su = 1, du = 1;
        if (!raw) {
            su = decode_cp(v, i, src_enc == CK_ENCODING_NONE ? CK_ENCODING_UTF8 : src_enc, &cp);
            du = su == 0 ? 0 : units_of(denc, cp);
            if (su == 0 || du == 0) {
                x->status = CK_ERR_TEXT;
                return;
            }
        }
        if (!cut && (!fixed || fit + du <= d->n)) {
            if (raw) push(&out, cp);
            else encode_cp(&out, denc, cp);
            fit += du;
        } else {
            cut = 1;
        }
        i += su;
    }
    if (cut && mode != CK_ERRMODE_NOCHECK) {
        x->status = CK_ERR_OVERFLOW;
        return;
    }
    x->text = out;
}

/* ---- one case ---- */

/* t's datashape into buf (cut to cap). */
static void type_text(const ck_type *t, char *buf, size_t cap) {
    char *text = NULL;
    if (ck_type_format(t, &text) == CK_OK) {
        snprintf(buf, cap, "%s", text);
    }
    ck_free(text);
}

int fz_text_one(const uint8_t *data, size_t size) {
    fz_bytes in = {data, size, 0};
    tkind d = pick_kind(&in, 0), s = pick_kind(&in, 0);
    if (!is_text(d.id) && !is_text(s.id)) {
        s = pick_kind(&in, 1);
    }
    const size_t n = fz_take(&in, TMAX_N + 1);
    const int reversed = fz_take(&in, 3) == 0;
    const int mode = (int)fz_take(&in, 4);
    const size_t ssize = elem_size(&s), dsize = elem_size(&d);
    /* The source: elements and, for string and bytes, their bytes, in the fuzzer's memory. */
    char *sdata = (char *)calloc(n == 0 ? 1 : n, ssize);
    char *bytes = (char *)calloc(TMAX_N, 4 * TMAX_UNITS + 8);
    CKF_CHECK(sdata != NULL && bytes != NULL, "out of memory");
    units vals[TMAX_N];
    for (size_t i = 0; i < n; i++) {
        char *el = sdata + i * ssize;
        if (!is_text(s.id)) {
            for (size_t b = 0; b < ssize; b++) el[b] = (char)fz_take(&in, 256);
            if (s.id == CK_TYPE_FLOAT64 && fz_take(&in, 8) == 0) {
                static const double sp[] = {0.0, -0.0, 1e16, 1e-5, 0.0001, 123456789.0, 5e-324,
                                            1.7976931348623157e308};
                memcpy(el, &sp[fz_take(&in, 8)], 8);
            }
            continue;
        }
        text_value(&in, &s, &vals[i]);
        if (s.id == CK_TYPE_STRING || s.id == CK_TYPE_BYTES) {
            char *b = bytes + i * (4 * TMAX_UNITS + 8);
            store_units(b, CK_ENCODING_NONE, &vals[i], 0, vals[i].n);
            const ck_string_data sd = {vals[i].n == 0 && fz_take(&in, 2) ? NULL : b, vals[i].n};
            memcpy(el, &sd, sizeof sd);
        } else {
            store_units(el, s.enc, &vals[i], 0, vals[i].n); /* calloc: the NUL padding */
        }
    }
    /* Options, from what is left of the input (an older input has nothing left: none): each
     * side ?T now and then, and a source element NA where its bit is set. */
    unsigned char sna[4 * TMAX_LONG + 16], dna[4 * TMAX_LONG + 16];
    s.opt = fz_take(&in, 3) == 1;
    d.opt = fz_take(&in, 3) == 1;
    const unsigned na_mask = fz_take(&in, 256);
    na_of(&s, sna, ssize);
    na_of(&d, dna, dsize);
    for (size_t i = 0; s.opt && i < n; i++) {
        if ((na_mask >> i) & 1u) {
            memcpy(sdata + i * ssize, sna, ssize);
        }
    }
    ck_type *dt = make_type(&d, n), *st = make_type(&s, n);
    intptr_t sam_buf[4] = {0, 0, 0, 0};
    char *sam = (char *)sam_buf;
    CKF_CHECK(ck_arrmeta_default_construct(st, sam, NULL) == CK_OK, "%s", ck_last_error());
    char *sroot = sdata;
    if (reversed && n > 0) {
        ((ck_fixed_dim_arrmeta *)(void *)sam)->stride = -(intptr_t)ssize;
        sroot = sdata + (n - 1) * ssize;
    }
    ck_array *src = NULL, *dst = NULL;
    CKF_CHECK(ck_array_wrap(st, sam, sroot, NULL, &src) == CK_OK, "%s", ck_last_error());
    CKF_CHECK(ck_array_new(dt, &dst) == CK_OK, "%s", ck_last_error());
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = (ck_errmode)mode;
    const int rc = ck_assign(dst, src, &ctx);
    char msg[1200];
    snprintf(msg, sizeof msg, "%s", ck_last_error());
    const char *verbose = getenv("CKF_COMPOSE_VERBOSE");
    if (verbose != NULL && verbose[0] == '1') {
        char dtext[64] = "", stext[64] = "";
        type_text(dt, dtext, sizeof dtext);
        type_text(st, stext, sizeof stext);
        printf("text: %s <- %s%s, mode %d: %s %s\n", dtext, stext, reversed ? " reversed" : "",
               mode, ck_status_name(rc), rc == CK_OK ? "" : msg);
    }

    /* The reference, element by element in the destination's order. */
    int want = CK_OK;
    size_t failed = 0;
    int want_na_error = 0; /* CK_ERR_NA's message names the element its own way */
    const char *droot = ck_array_data(dst);
    for (size_t i = 0; i < n && want == CK_OK; i++) {
        const size_t si = reversed ? n - 1 - i : i;
        const char *sel = sdata + si * ssize;
        const char *got = droot + i * dsize;
        /* NA in (written above, or a number's random bits that are its NA): NA out, or
         * CK_ERR_NA into a destination that is not an option, in every mode. */
        if (s.opt && memcmp(sel, sna, ssize) == 0) {
            if (!d.opt) {
                want = CK_ERR_NA;
                want_na_error = 1;
                failed = i;
                break;
            }
            CKF_CHECK(rc != CK_OK || memcmp(got, dna, dsize) == 0, "element %zu: NA in, not NA out",
                      i);
            continue;
        }
        units v = {{0}, 0};
        int src_enc = s.enc;
        if (!is_text(s.id)) {
            char t[64];
            number_to_text(s.id, sel, t, sizeof t);
            put_ascii(&v, t);
            src_enc = CK_ENCODING_ASCII;
        } else if (s.id == CK_TYPE_STRING || s.id == CK_TYPE_BYTES) {
            v = vals[si];
        } else {
            load_fixed(sel, &s, &v);
        }
        texp x;
        memset(&x, 0, sizeof x);
        if (!is_text(d.id)) {
            expect_number(&d, mode, &v, &x);
        } else {
            const int raw = src_enc == CK_ENCODING_NONE && d.enc == CK_ENCODING_NONE;
            expect_text(&d, mode, &v, src_enc, raw, &x);
        }
        if (x.status == CK_OK && d.opt && mode != CK_ERRMODE_NOCHECK) {
            /* A value whose bits are the destination's NA is refused when checked (nocheck
             * writes them: NA). Only integers (their NA is a value of their own) and fixed
             * text (every unit 0xff) can be; string and bytes slots and floats cannot. */
            unsigned char bits[4 * TMAX_LONG + 16];
            int na = 0;
            if (!is_text(d.id) && d.id != CK_TYPE_FLOAT32 && d.id != CK_TYPE_FLOAT64) {
                na = memcmp(x.num.out.b, dna, dsize) == 0;
            } else if (d.id == CK_TYPE_FIXED_STRING || d.id == CK_TYPE_FIXED_BYTES) {
                memset(bits, 0, sizeof bits);
                store_units((char *)bits, d.enc, &x.text, 0, x.text.n);
                na = memcmp(bits, dna, dsize) == 0;
            }
            if (na) {
                x.status = CK_ERR_OVERFLOW;
            }
        }
        if (x.status != CK_OK) {
            want = x.status;
            failed = i;
            for (size_t b = 0; b < dsize; b++) {
                CKF_CHECK(got[b] == 0, "element %zu failed but was written", i);
            }
            break;
        }
        if (rc != CK_OK) {
            continue; /* compared once the statuses agree (below) */
        }
        if (!is_text(d.id)) {
            CKF_CHECK(ckt_oracle_matches(d.id, &x.num, (const unsigned char *)got),
                      "element %zu: %s -> %s: not the expected value", i,
                      ck_type_id_name(s.id), ck_type_id_name(d.id));
        } else if (d.id == CK_TYPE_STRING || d.id == CK_TYPE_BYTES) {
            ck_string_data sd;
            memcpy(&sd, got, sizeof sd);
            CKF_CHECK(sd.size == x.text.n, "element %zu: %zu bytes, wanted %zu", i, sd.size,
                      x.text.n);
            for (size_t b = 0; b < sd.size; b++) {
                CKF_CHECK((unsigned char)sd.data[b] == x.text.u[b], "element %zu byte %zu", i, b);
            }
        } else {
            char want_el[4 * TMAX_LONG];
            memset(want_el, 0, sizeof want_el);
            store_units(want_el, d.enc, &x.text, 0, x.text.n);
            CKF_CHECK(memcmp(got, want_el, dsize) == 0, "element %zu: %s -> %s: other units", i,
                      ck_type_id_name(s.id), ck_type_id_name(d.id));
        }
    }
    CKF_CHECK(rc == want, "%s -> %s (mode %d, %zu elements): %s, wanted %s (element %zu): %s",
              ck_type_id_name(s.id), ck_type_id_name(d.id), mode, n, ck_status_name(rc),
              ck_status_name(want), failed, msg);
    if (rc != CK_OK && want_na_error) {
        char part[48];
        snprintf(part, sizeof part, "NA at element %zu", failed);
        CKF_CHECK(strstr(msg, part) != NULL, "message '%s' does not say '%s'", msg, part);
    } else if (rc != CK_OK) {
        char tail[48];
        snprintf(tail, sizeof tail, " at element [%zu]", failed);
        const size_t ml = strlen(msg), tl = strlen(tail);
        CKF_CHECK(ml >= tl && strcmp(msg + ml - tl, tail) == 0, "message '%s' does not end '%s'",
                  msg, tail);
    }
    ck_array_free(src);
    ck_array_free(dst);
    ck_type_decref(st);
    ck_type_decref(dt);
    free(sdata);
    free(bytes);
    return 0;
}
