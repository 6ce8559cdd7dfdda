/* src/leaves/text/text_cast.c: the text cast leaf: text <- text between the text kinds and
 * encodings, and numbers <- text and text <- numbers (integers and floats); with two text
 * sources, text <- their concatenation (concat). One kernel for every pair, element by
 * element:
 *   the source's text     string/bytes: its slot's bytes; fixed kinds: the units before the
 *                         NUL padding; a number: its text (integers in decimal, floats the
 *                         shortest round-trip text in Python's repr layout, "1.0", "1e+16";
 *                         bool and complex as Python writes them, text_scalar.c)
 *   into text             measured first (each code point checked: invalid UTF-8 or UTF-16
 *                         is CK_ERR_TEXT naming the byte offset), then written: string and
 *                         bytes allocate from the destination's arena, fixed kinds take at
 *                         most N units (more is CK_ERR_OVERFLOW in the checked modes, a cut
 *                         at a code point boundary in nocheck) and are NUL-padded
 *   into a number         the text without ASCII white space around it, as Python's int()
 *                         and float() spell numbers (docs/design.md §16); text that is not
 *                         one is CK_ERR_TEXT
 *   datetimes             written and read as ISO 8601 text at the unit's precision, a
 *                         timedelta as its integer (datetime.c, docs/design.md §17)
 * Bytes are read and written as UTF-8 where text meets them; bytes to bytes are copied as
 * they are, string to string and bytes too (a string is valid UTF-8 once in ckernel). A
 * failing element is not written; its message shows the text and, through the located-error
 * machinery, the element's index ("cannot read the text "x1" as float64 at element [2]"). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"
#include "values/text_scalar.h"
#include "values/datetime.h"
#include "values/numtext.h"
#include "common/scalars.h"
#include "values/text_codec.h"
#include "types/type_internal.h"

typedef struct ck__text_cast {
    ck_prefix base;
    ck_memblock *dst_arena; /* string and bytes destinations: a counted reference */
    size_t dst_units, src_units; /* N of the fixed kinds */
    uint8_t dst_id, src_id;      /* ck_type_id: a text kind or a number */
    uint8_t dst_enc, src_enc;    /* ck_text_encoding (numbers: ascii) */
    uint8_t mode;                /* ck_errmode */
    uint8_t share;               /* string <- string in one arena: the slot is copied */
    uint8_t nsrc;                /* 2: concat of the source and a second text source */
    uint8_t src2_id, src2_enc;
    size_t src2_units;
    uint8_t dst_unit, src_unit;  /* datetime64/timedelta64 sides: the unit */
    uint8_t refuse_na;           /* writing ?dst's value, checked: its NA is an overflow */
} ck__text_cast;

/* Most characters of a text a message shows. */
#define CK__TEXT_SHOWN 40
/* Number text up to this long is read from the stack; longer text (zeros, white space) from
 * a heap copy. */
#define CK__NUMBER_TEXT_STACK 128

/* A text in the source: units of enc at p. */
typedef struct ck__text_view {
    const char *p;
    size_t n;
    int enc;
} ck__text_view;

/* An integer or a real float: their text is this file's. */
static int is_number_id(int id) {
    return ck__scalar_is_integer((ck_type_id)id) || ck__scalar_is_float((ck_type_id)id);
}

/* bool and complex: their text is text_scalar.c's. */
static int is_bool_complex(int id) {
    return ck__scalar_is((ck_type_id)id, CK__SCALAR_KIND_BOOL) ||
           ck__scalar_is_complex((ck_type_id)id);
}

/* "fixed_string[4, 'utf8']", "string", "float64", "datetime64[s]" (`units`: the unit). */
static void type_text(int id, size_t units, int enc, char *buf, size_t cap) {
    if (ck__is_time((ck_type_id)id)) {
        snprintf(buf, cap, "%s[%s]", ck_type_id_name((ck_type_id)id), ck__unit_name((int)units));
    } else if (id == CK_TYPE_FIXED_STRING) {
        snprintf(buf, cap, "fixed_string[%zu, '%s']", units, ck__encoding_name(enc));
    } else if (id == CK_TYPE_FIXED_BYTES) {
        snprintf(buf, cap, "fixed_bytes[%zu]", units);
    } else {
        snprintf(buf, cap, "%s", ck_type_id_name((ck_type_id)id));
    }
}

/* Records a failure of this element: body with %T standing for the quoted text of v. */
static int text_error(int status, const ck__text_view *v, const char *before,
                      const char *after) {
    ck__strbuf b = CK__STRBUF_INIT;
    size_t bad;
    ck__text_quote(&b, v->enc, v->p, v->n, CK__TEXT_SHOWN, &bad);
    const int rc = ck__set_located_error(status, NULL, 0, "%s%s%s", before,
                                         b.s != NULL ? b.s : "(text)", after);
    ck__strbuf_free(&b);
    return rc;
}

/* ---- the source's text ---- */

/* The text of a source element of kind id (its encoding enc, N units; a datetime's or
 * timedelta's unit): numbers and times are written into buf. */
static int source_text(int id, int enc, size_t units, int unit, const char *src, char *buf,
                       ck__text_view *v) {
    v->enc = enc;
    if (ck__is_var_text((ck_type_id)id)) {
        ck_string_data s;
        memcpy(&s, src, sizeof s);
        if (s.data == NULL && s.size > 0) {
            return ck__set_located_error(CK_ERR_UNINITIALIZED, NULL, 0,
                                         "the source %s is not allocated (its data is NULL)",
                                         ck_type_id_name((ck_type_id)id));
        }
        v->p = s.data;
        v->n = s.size;
    } else if (is_number_id(id)) {
        v->p = buf;
        v->n = ck__format_number(id, src, 1, buf); /* repr layout: "1.0" */
    } else if (is_bool_complex(id)) {
        v->p = buf;
        v->n = ck__format_bool_complex(id, src, buf);
    } else if (ck__is_time((ck_type_id)id)) {
        int64_t t;
        memcpy(&t, src, sizeof t);
        v->p = buf;
        v->n = ck__time_format(t, unit, id == CK_TYPE_TIMEDELTA, buf);
    } else {
        v->p = src;
        v->n = ck__text_unpadded(v->enc, src, units);
    }
    return CK_OK;
}

/* ---- into text ---- */

/* The units v takes in the destination's encoding (*need), and the longest prefix of whole
 * code points that fits the destination (*fit units, from *fit_src source units). */
static int measure(const ck__text_cast *k, const ck__text_view *v, size_t cap, size_t *need,
                   size_t *fit, size_t *fit_src) {
    const int raw = v->enc == CK_ENCODING_NONE && k->dst_enc == CK_ENCODING_NONE;
    size_t total = 0, i = 0;
    *fit = 0;
    *fit_src = 0;
    while (i < v->n) {
        uint32_t cp = 0;
        size_t su = 1, du = 1;
        if (!raw) {
            su = ck__text_decode(v->enc, v->p, i, v->n, &cp);
            if (su == 0) {
                char at[96];
                snprintf(at, sizeof at, " is not valid %s at byte offset %zu",
                         v->enc == CK_ENCODING_NONE ? "utf8" : ck__encoding_name(v->enc),
                         i * ck__code_unit_size(v->enc));
                return text_error(CK_ERR_TEXT, v, "the text ", at);
            }
            du = ck__text_units_of(k->dst_enc, cp);
            if (du == 0) {
                char at[96];
                snprintf(at, sizeof at, ": U+%04" PRIX32 " at byte offset %zu cannot be encoded in %s",
                         cp, i * ck__code_unit_size(v->enc), ck__encoding_name(k->dst_enc));
                return text_error(CK_ERR_TEXT, v, "the text ", at);
            }
        }
        total += du;
        i += su;
        if (total <= cap) {
            *fit = total;
            *fit_src = i;
        }
    }
    *need = total;
    return CK_OK;
}

/* Writes the first `src_units` units of v (whole code points) into out as dst_enc. */
static void encode_into(const ck__text_cast *k, const ck__text_view *v, size_t src_units,
                        char *out) {
    const int same_bytes = (v->enc == CK_ENCODING_UTF8 || v->enc == CK_ENCODING_ASCII ||
                            v->enc == CK_ENCODING_NONE) &&
                           (k->dst_enc == CK_ENCODING_UTF8 || k->dst_enc == CK_ENCODING_NONE);
    if (src_units == 0) {
        return; /* an empty string's data may be NULL, which memcpy may not be given */
    }
    if (same_bytes || (v->enc == k->dst_enc)) {
        memcpy(out, v->p, src_units * ck__code_unit_size(v->enc)); /* checked: same units */
        return;
    }
    const size_t du = ck__code_unit_size(k->dst_enc);
    for (size_t i = 0, w = 0; i < src_units;) {
        uint32_t cp = 0;
        i += ck__text_decode(v->enc, v->p, i, v->n, &cp);
        w += ck__text_encode(k->dst_enc, cp, out + w * du);
    }
}

/* 1 when the texts v[0..nv-1], `total` units in a fixed destination, would fill it with
 * bytes 0xff: the NA of its option (type_option.c). Only bytes from bytes (0xff bytes) and
 * utf16 (U+FFFF units) can; UTF-8, ascii and utf32 never hold such a unit. */
static int writes_na(const ck__text_cast *k, const ck__text_view *v, int nv, size_t total) {
    const int enc = k->dst_enc;
    if (total != k->dst_units || (enc != CK_ENCODING_NONE && enc != CK_ENCODING_UTF16)) {
        return 0; /* a NUL-padded value is never all 0xff */
    }
    for (int j = 0; j < nv; j++) {
        for (size_t i = 0; i < v[j].n;) {
            uint32_t cp = 0;
            if (enc == CK_ENCODING_NONE) { /* bytes meet text as UTF-8, which has no 0xff */
                if (v[j].enc != CK_ENCODING_NONE || (unsigned char)v[j].p[i] != 0xffu) {
                    return 0;
                }
                i++;
                continue;
            }
            i += ck__text_decode(v[j].enc, v[j].p, i, v[j].n, &cp); /* measured: valid */
            if (cp != 0xffffu) {
                return 0;
            }
        }
    }
    return 1;
}

/* Writes the texts v[0..nv-1] (nv 1 or 2: concat) one after the other. */
static int write_text(const ck__text_cast *k, char *dst, const ck__text_view *v, int nv) {
    const int var = ck__is_var_text((ck_type_id)k->dst_id);
    size_t need[2] = {0, 0}, fit[2] = {0, 0}, fit_src[2] = {0, 0}, total = 0;
    size_t cap = var ? SIZE_MAX : k->dst_units;
    for (int j = 0; j < nv; j++) {
        CK__RETURN_IF_ERROR(measure(k, &v[j], cap, &need[j], &fit[j], &fit_src[j]));
        /* A cut first text leaves no room for the second. */
        cap = fit_src[j] == v[j].n ? cap - fit[j] : 0;
        total += need[j];
    }
    const size_t du = ck__code_unit_size(k->dst_enc);
    if (var) {
        ck_string_data s = {NULL, 0};
        if (total > 0) {
            char *bytes;
            CK__RETURN_IF_ERROR(ck_arena_alloc(k->dst_arena, total, 1, &bytes));
            encode_into(k, &v[0], v[0].n, bytes);
            if (nv == 2) {
                encode_into(k, &v[1], v[1].n, bytes + need[0] * du);
            }
            s.data = bytes;
            s.size = total;
        }
        memcpy(dst, &s, sizeof s);
        return CK_OK;
    }
    if (total > k->dst_units && k->mode != CK_ERRMODE_NOCHECK) {
        char tname[64], after[CK__TEXT_SHOWN * 4 + 160];
        type_text(k->dst_id, k->dst_units, k->dst_enc, tname, sizeof tname);
        if (nv == 2) { /* the second text, quoted into the message after the first */
            ck__strbuf q = CK__STRBUF_INIT;
            size_t bad;
            ck__text_quote(&q, v[1].enc, v[1].p, v[1].n, CK__TEXT_SHOWN, &bad);
            snprintf(after, sizeof after, " and %s (%zu code units together) do not fit %s",
                     q.s != NULL ? q.s : "(text)", total, tname);
            ck__strbuf_free(&q);
        } else {
            snprintf(after, sizeof after, " (%zu code units) does not fit %s", total, tname);
        }
        return text_error(CK_ERR_OVERFLOW, v, "the text ", after);
    }
    if (k->refuse_na && writes_na(k, v, nv, total)) {
        char tname[64], after[128];
        type_text(k->dst_id, k->dst_units, k->dst_enc, tname, sizeof tname);
        snprintf(after, sizeof after, " is the NA of ?%s (its reserved value)", tname);
        return text_error(CK_ERR_OVERFLOW, v, "the text ", after);
    }
    encode_into(k, &v[0], fit_src[0], dst);
    if (nv == 2) {
        encode_into(k, &v[1], fit_src[1], dst + fit[0] * du);
    }
    const size_t used = fit[0] + (nv == 2 ? fit[1] : 0);
    memset(dst + used * du, 0, (k->dst_units - used) * du); /* the NUL padding */
    return CK_OK;
}

/* ---- into numbers ---- */

static int is_space(uint32_t u) {
    return u == ' ' || (u >= '\t' && u <= '\r');
}

/* The decimal grammar of Python's float() without white space: a sign, digits with a point
 * (at least one digit), an exponent with digits; or inf, infinity, nan in any case.
 * *integer: a sign and digits only. */
static int is_word(const char *s, size_t n, const char *lower) {
    for (size_t i = 0; i < n; i++) {
        if (lower[i] == '\0' || (s[i] | 0x20) != lower[i]) {
            return 0;
        }
    }
    return lower[n] == '\0';
}

static int is_number_text(const char *s, size_t n, int *integer) {
    size_t i = s[0] == '+' || s[0] == '-';
    *integer = 0;
    if (is_word(s + i, n - i, "inf") || is_word(s + i, n - i, "nan") ||
        is_word(s + i, n - i, "infinity")) {
        return 1;
    }
    size_t digits = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        i++, digits++;
    }
    *integer = digits > 0 && i == n;
    if (i < n && s[i] == '.') {
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            digits++;
        }
    }
    if (digits == 0) {
        return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        i += i < n && (s[i] == '+' || s[i] == '-');
        size_t e = 0;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            e++;
        }
        if (e == 0) {
            return 0;
        }
    }
    return i == n;
}

/* The integer text s (a sign and digits) into an integer type: exact, out of range per the
 * mode (nocheck wraps, as int -> int does). */
static int store_integer(const ck__text_cast *k, char *dst, const char *s, size_t n,
                         const ck__text_view *v) {
    const int neg = s[0] == '-';
    uint64_t mag = 0;
    int big = 0;
    for (size_t i = (s[0] == '+' || s[0] == '-'); i < n; i++) {
        const unsigned d = (unsigned)(s[i] - '0');
        big |= mag > (UINT64_MAX - d) / 10;
        mag = mag * 10 + d; /* modulo 2^64 past that: what nocheck wraps to */
    }
    const int id = k->dst_id;
    const int is_signed = ck__scalar_is((ck_type_id)id, CK__SCALAR_KIND_SIGNED);
    const int bits = (int)ck_type_data_size(ck_type_scalar((ck_type_id)id)) * 8;
    const uint64_t hi = is_signed ? (UINT64_MAX >> (65 - bits)) : (UINT64_MAX >> (64 - bits));
    const uint64_t lo_mag = is_signed ? hi + 1 : 0; /* the most negative value's magnitude */
    const int fits = !big && (neg ? mag <= lo_mag : mag <= hi);
    if (!fits && k->mode != CK_ERRMODE_NOCHECK) {
        char after[96];
        snprintf(after, sizeof after, " is out of range for %s", ck_type_id_name((ck_type_id)id));
        return text_error(CK_ERR_OVERFLOW, v, "the text ", after);
    }
    const uint64_t u = neg ? (uint64_t)0 - mag : mag; /* wrapped to the width below */
    ck__store_int_bits(dst, u, (size_t)bits / 8);
    return CK_OK;
}

/* s (NUL-terminated, n bytes, a number) into the destination number type. */
static int store_number(const ck__text_cast *k, char *dst, const char *s, size_t n,
                        int integer, const ck__text_view *v) {
    const int id = k->dst_id;
    if (integer && ck__scalar_is_integer((ck_type_id)id)) {
        return store_integer(k, dst, s, n, v);
    }
    const char *end = s;
    const int special = !(s[n - 1] >= '0' && s[n - 1] <= '9') && s[n - 1] != '.';
    const int infinite_text = special && (s[n - 1] | 0x20) != 'n';
    double d;
    if (ck__scalar_is_float((ck_type_id)id)) { /* rounded once, straight to the format */
        const ck__fkind fk = ck__fkind_of(id);
        d = ck__strto_fkind_c(s, &end, fk);
        if (end == s + n && (!isinf(d) || infinite_text || k->mode == CK_ERRMODE_NOCHECK)) {
            ck__fkind_store(fk, d, dst);
            return CK_OK;
        }
    } else {
        d = ck__strtod_c(s, &end);
    }
    if (end != s + n) {
        return ck_set_error(CK_ERR_INTERNAL, "number text read to %td of %zu bytes", end - s, n);
    }
    char after[96];
    if (ck__scalar_is_float((ck_type_id)id)) { /* finite text that rounds to infinity */
        snprintf(after, sizeof after, " is out of range for %s", ck_type_id_name((ck_type_id)id));
        return text_error(CK_ERR_OVERFLOW, v, "the text ", after);
    }
    /* A fraction, an exponent, inf or nan into an integer: as float64 -> integer converts in
     * this mode (§7), the message saying which text it was. */
    ck_single_fn fn;
    ck_strided_fn unused;
    CK__RETURN_IF_ERROR(ck__scalar_leaf_single((ck_type_id)id, CK_TYPE_FLOAT64,
                                              (ck_errmode)k->mode, &fn, &unused));
    ck_prefix leaf = {NULL, NULL};
    char *src = (char *)&d;
    int64_t out; /* aligned for the leaf, which assumes it */
    const int rc = fn(&leaf, (char *)&out, &src);
    if (rc == CK_OK) {
        memcpy(dst, &out, ck_type_data_size(ck_type_scalar((ck_type_id)id)));
    } else {
        char why[CK__TEXT_SHOWN * 4 + 200];
        snprintf(why, sizeof why, ": %s", ck_last_error());
        return text_error(rc, v, "the text ", why);
    }
    return CK_OK;
}

static int read_number(const ck__text_cast *k, char *dst, const ck__text_view *v) {
    size_t b = 0, e = v->n;
    while (b < e && is_space(ck__text_unit(v->enc, v->p, b))) {
        b++;
    }
    while (e > b && is_space(ck__text_unit(v->enc, v->p, e - 1))) {
        e--;
    }
    const size_t n = e - b;
    char small[CK__NUMBER_TEXT_STACK];
    char *s = small;
    if (n + 1 > sizeof small) {
        s = (char *)ck__malloc(n + 1);
        if (s == NULL) {
            return ck__nomem_error("out of memory reading a number text of %zu units", n);
        }
    }
    int ascii = 1;
    for (size_t i = 0; i < n; i++) {
        const uint32_t u = ck__text_unit(v->enc, v->p, b + i);
        ascii &= u < 0x80;
        s[i] = (char)(u < 0x80 ? u : 0x7f);
    }
    s[n] = '\0';
    int integer = 0, rc;
    const char *why = NULL;
    if (ascii && is_bool_complex(k->dst_id)) {
        rc = ck__read_bool_complex(k->dst_id, s, n, (ck_errmode)k->mode, dst, &why);
        if (rc != CK_OK) {
            const int bad = rc == CK_ERR_TEXT;
            char after[160];
            snprintf(after, sizeof after, "%s %s: %s", bad ? " as" : " is out of range for",
                     ck_type_id_name((ck_type_id)k->dst_id), why);
            rc = text_error(rc, v, bad ? "cannot read the text " : "the text ", after);
        }
    } else if (n > 0 && ascii && is_number_text(s, n, &integer)) {
        rc = store_number(k, dst, s, n, integer, v);
    } else {
        char after[64];
        snprintf(after, sizeof after, " as %s", ck_type_id_name((ck_type_id)k->dst_id));
        rc = text_error(CK_ERR_TEXT, v, "cannot read the text ", after);
    }
    if (s != small) {
        ck__free(s);
    }
    return rc;
}

/* ---- into datetime64 and timedelta64 ---- */

/* The text as datetime.c reads it (no white space around it: NumPy refuses a space after a
 * datetime). */
static int read_time(const ck__text_cast *k, char *dst, const ck__text_view *v) {
    char s[CK__DATETIME_TEXT_MAX];
    const char *why = "it is longer than any";
    int rc = CK_ERR_TEXT;
    int64_t t = 0;
    if (v->n < sizeof s) {
        size_t i = 0;
        for (; i < v->n; i++) {
            const uint32_t u = ck__text_unit(v->enc, v->p, i);
            if (u >= 0x80) {
                break;
            }
            s[i] = (char)u;
        }
        why = "a character beyond ASCII";
        if (i == v->n) {
            rc = ck__time_parse(s, v->n, k->dst_unit, k->dst_id == CK_TYPE_TIMEDELTA, &t, &why);
        }
    }
    if (rc == CK_OK) {
        memcpy(dst, &t, sizeof t);
        return CK_OK;
    }
    char after[160], tname[32]; /* the type's name only for a message */
    type_text(k->dst_id, k->dst_unit, 0, tname, sizeof tname);
    if (rc == CK_ERR_OVERFLOW) {
        snprintf(after, sizeof after, " is out of range for %s", tname);
        return text_error(rc, v, "the text ", after);
    }
    snprintf(after, sizeof after, " as %s: %s", tname, why);
    return text_error(rc, v, "cannot read the text ", after);
}

/* ---- the kernel ---- */

/* src2: the second source's element (concat), else unused. */
static int cast_one(const ck__text_cast *k, char *dst, const char *src, const char *src2) {
    if (k->share) {
        memcpy(dst, src, sizeof(ck_string_data));
        return CK_OK;
    }
    char buf[CK__DATETIME_TEXT_MAX > CK__BOOL_COMPLEX_TEXT_MAX ? CK__DATETIME_TEXT_MAX
                                                                : CK__BOOL_COMPLEX_TEXT_MAX];
    ck__text_view v[2] = {{NULL, 0, CK_ENCODING_NONE}, {NULL, 0, CK_ENCODING_NONE}};
    CK__RETURN_IF_ERROR(
        source_text(k->src_id, k->src_enc, k->src_units, k->src_unit, src, buf, &v[0]));
    if (k->nsrc == 2) { /* text: buf is not used */
        CK__RETURN_IF_ERROR(
            source_text(k->src2_id, k->src2_enc, k->src2_units, 0, src2, NULL, &v[1]));
    }
    if (ck__is_time((ck_type_id)k->dst_id)) {
        return read_time(k, dst, &v[0]);
    }
    return is_number_id(k->dst_id) || is_bool_complex(k->dst_id) ? read_number(k, dst, &v[0])
                                                                 : write_text(k, dst, v, k->nsrc);
}

static void text_cast_destroy(ck_prefix *self) {
    ck_memblock_decref(((ck__text_cast *)self)->dst_arena);
}

static CK__KERNEL_ALIGN int text_cast_single(ck_prefix *self, char *dst, char *const *src) {
    const ck__text_cast *k = (const ck__text_cast *)self;
    return cast_one(k, dst, src[0], k->nsrc == 2 ? src[1] : NULL);
}

static CK__KERNEL_ALIGN int text_cast_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                              char *const *src, const intptr_t *src_stride,
                                              size_t count) {
    const ck__text_cast *k = (const ck__text_cast *)self;
    const char *s = src[0], *s2 = k->nsrc == 2 ? src[1] : NULL;
    const intptr_t ss = src_stride[0], ss2 = k->nsrc == 2 ? src_stride[1] : 0;
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += ss) {
        CK__RETURN_IF_ERROR_AT(i, cast_one(k, dst, s, s2));
        s2 = s2 != NULL ? s2 + ss2 : NULL;
    }
    return CK_OK;
}

/* The general leaf; ck__make_text_cast builds it alone, or as the child of the fast path of
 * numbers <-> text (text_number.c), which calls it for one element at a time. */
static int make_general(ck_builder *ckb, size_t *offset, const ck__text_cast_spec *spec,
                        ck_request req) {
    /* Numbers and times are the non-text side, read and written as ASCII text. */
    const int dnum = ck__id_is_scalar(spec->dst_id) || ck__is_time(spec->dst_id),
              snum = ck__id_is_scalar(spec->src_id) || ck__is_time(spec->src_id);
    if ((!dnum && !ck__is_text(spec->dst_id)) || (!snum && !ck__is_text(spec->src_id)) ||
        (dnum && snum)) {
        return ck_set_error(CK_ERR_TYPE, "cannot cast %s to %s: text converts to and from "
                                         "text, the scalars, datetime64 and timedelta64",
                            ck_type_id_name(spec->src_id), ck_type_id_name(spec->dst_id));
    }
    if (ck__is_var_text(spec->dst_id) &&
        (spec->dst_arena == NULL || ck_memblock_get_kind(spec->dst_arena) != CK_MEMBLOCK_ARENA)) {
        return ck_set_error(CK_ERR_INVALID,
                            "the destination %s's arrmeta has no arena memory block to allocate "
                            "its bytes from",
                            ck_type_id_name(spec->dst_id));
    }
    if ((unsigned)spec->mode >= CK_NUM_ERRMODES ||
        (spec->nsrc == 2 && (dnum || !ck__is_text(spec->src_id) || !ck__is_text(spec->src2_id) ||
                             spec->share))) {
        return ck_set_error(CK_ERR_INTERNAL, "text cast in mode %d of %d sources",
                            (int)spec->mode, spec->nsrc);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__text_cast)));
    ck__text_cast *k = (ck__text_cast *)ck_builder_at(ckb, *offset);
    k->base.destructor = text_cast_destroy;
    ck_prefix_set_function(&k->base, req, text_cast_single, text_cast_strided);
    if (ck__is_var_text(spec->dst_id)) {
        ck_memblock_incref(spec->dst_arena);
        k->dst_arena = spec->dst_arena;
    }
    k->dst_id = (uint8_t)spec->dst_id;
    k->src_id = (uint8_t)spec->src_id;
    k->dst_enc = (uint8_t)(dnum ? CK_ENCODING_ASCII : spec->dst_enc);
    k->src_enc = (uint8_t)(snum ? CK_ENCODING_ASCII : spec->src_enc);
    k->dst_units = spec->dst_units;
    k->src_units = spec->src_units;
    k->mode = (uint8_t)spec->mode;
    k->share = (uint8_t)(spec->share != 0);
    k->nsrc = (uint8_t)(spec->nsrc == 2 ? 2 : 1);
    k->src2_id = (uint8_t)spec->src2_id;
    k->src2_enc = (uint8_t)spec->src2_enc;
    k->src2_units = spec->src2_units;
    k->dst_unit = (uint8_t)spec->dst_unit;
    k->src_unit = (uint8_t)spec->src_unit;
    k->refuse_na = (uint8_t)(spec->refuse_na != 0);
    *offset += sizeof(ck__text_cast);
    return CK_OK;
}

int ck__make_text_cast(ck_builder *ckb, size_t *offset, const ck__text_cast_spec *spec,
                       ck_request req) {
    int fast = 0;
    CK__RETURN_IF_ERROR(ck__make_text_number(ckb, offset, spec, req, &fast));
    return make_general(ckb, offset, spec, fast ? CK_REQUEST_SINGLE : req);
}

static void text_cast_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                               ck__children *children) {
    (void)children;
    const ck__text_cast *k = (const ck__text_cast *)self;
    char dt[64], st[64];
    type_text(k->dst_id, ck__is_time((ck_type_id)k->dst_id) ? k->dst_unit : k->dst_units,
              k->dst_enc, dt, sizeof dt);
    type_text(k->src_id, ck__is_time((ck_type_id)k->src_id) ? k->src_unit : k->src_units,
              k->src_enc, st, sizeof st);
    if (k->nsrc == 2) {
        char st2[64];
        type_text(k->src2_id, k->src2_units, k->src2_enc, st2, sizeof st2);
        ck__strbuf_printf(out, "concat %s, %s -> %s (%s)", st, st2, dt,
                          ck_errmode_name((ck_errmode)k->mode));
    } else {
        ck__strbuf_printf(out, "%s -> %s (%s)%s", st, dt, ck_errmode_name((ck_errmode)k->mode),
                          k->share ? " shares the arena's bytes" : "");
    }
    *size = sizeof(ck__text_cast);
}

const ck__kind ck__text_cast_kind = {"text_cast", text_cast_single, text_cast_strided,
                                     text_cast_describe};
