/* src/types/datashape_parse.c: ck_type_parse, a recursive-descent parser for datashape
 * strings ("3 * var * int32", "pointer[complex[float32]]", "{x: int32, 'y z': ?float64}",
 * "(int8, 3 * float32)", "fixed_string[8, 'utf32']", "datetime64[s]"). Recursion is bounded by
 * CK_TYPE_MAX_DEPTH; every error quotes the input and names the 1-based byte column. A struct's names go into a growing hashed index
 * (name_index.h) as they are read, so a duplicate is found in O(1) at its own column, and
 * the struct takes a copy of the index. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "types/name_index.h"
#include "values/datetime.h"
#include "types/type_internal.h"

typedef struct ck__ds_parser {
    const char *s;
    size_t len;
    size_t pos;
} ck__ds_parser;

static int ck__is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
static int ck__is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* Copies s[begin, end) to out (capacity cap), control bytes shown as '?'. */
static void ck__quote(char *out, size_t cap, const char *s, size_t begin, size_t end) {
    size_t n = 0;
    for (size_t i = begin; i < end && n + 1 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        out[n++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
    }
    out[n] = '\0';
}

/* Records "<input>: <detail> at column <pos + 1>". A long input is shown as a window around
 * the column, so the message still fits the thread-local buffer and points somewhere useful. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static int ck__ds_error(const ck__ds_parser *p, int status, size_t pos, const char *fmt, ...) {
    char detail[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    char shown[100];
    const size_t window = 72;
    if (p->len <= window) {
        ck__quote(shown, sizeof shown, p->s, 0, p->len);
        return ck_set_error(status, "%s: %s at column %zu", shown, detail, pos + 1);
    }
    size_t begin = pos > window / 2 ? pos - window / 2 : 0;
    size_t end = begin + window < p->len ? begin + window : p->len;
    ck__quote(shown, sizeof shown, p->s, begin, end);
    return ck_set_error(status, "%s%s%s: %s at column %zu", begin > 0 ? "..." : "", shown,
                        end < p->len ? "..." : "", detail, pos + 1);
}

static void ck__ds_skip_ws(ck__ds_parser *p) {
    while (p->pos < p->len && ck__is_space(p->s[p->pos])) {
        p->pos++;
    }
}

/* Length of the identifier at pos (0 when there is none). */
static size_t ck__ds_ident_len(const ck__ds_parser *p, size_t pos) {
    size_t n = 0;
    if (pos < p->len && ck__is_ident_start(p->s[pos])) {
        while (pos + n < p->len && ck__is_ident(p->s[pos + n])) {
            n++;
        }
    }
    return n;
}

/* The first byte first: each field's type is tried against every scalar name, and their
 * strlen was a tenth of parsing 65536 fields. */
static int ck__ds_word_is(const ck__ds_parser *p, size_t pos, size_t n, const char *word) {
    return n > 0 && p->s[pos] == word[0] && strlen(word) == n && memcmp(p->s + pos, word, n) == 0;
}

/* A description of what is at pos, for "found ..." in messages. */
static void ck__ds_found(const ck__ds_parser *p, size_t pos, char *out, size_t cap) {
    if (pos >= p->len) {
        snprintf(out, cap, "end of input");
        return;
    }
    size_t n = ck__ds_ident_len(p, pos);
    if (n == 0) {
        while (pos + n < p->len && ck__is_digit(p->s[pos + n])) {
            n++;
        }
    }
    if (n == 0) {
        n = 1;
    }
    if (n > 32) {
        n = 32;
    }
    char tok[40];
    ck__quote(tok, sizeof tok, p->s, pos, pos + n);
    snprintf(out, cap, "'%s'", tok);
}

/* Skips whitespace and consumes the one-character token `c`, or fails saying what it
 * expected after `after`. */
static int ck__ds_expect(ck__ds_parser *p, char c, const char *after) {
    ck__ds_skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == c) {
        p->pos++;
        return CK_OK;
    }
    char found[64];
    ck__ds_found(p, p->pos, found, sizeof found);
    return ck__ds_error(p, CK_ERR_PARSE, p->pos, "expected '%c' after %s, found %s", c, after,
                        found);
}

static int ck__ds_parse_type(ck__ds_parser *p, int depth, ck_type **out);

/* Parses `'*' type` after a dimension (spelled by s[start, start + n)) and makes the level. */
static int ck__ds_parse_dim(ck__ds_parser *p, int depth, size_t start, size_t n, int is_var,
                            intptr_t size, ck_type **out) {
    char what[64];
    char tok[40];
    ck__quote(tok, sizeof tok, p->s, start, start + (n < 32 ? n : 32));
    snprintf(what, sizeof what, "dimension '%s'", tok);
    CK__RETURN_IF_ERROR(ck__ds_expect(p, '*', what));
    ck_type *element = NULL;
    CK__RETURN_IF_ERROR(ck__ds_parse_type(p, depth + 1, &element));
    int rc = is_var ? ck_type_make_var_dim(element, out)
                    : ck_type_make_fixed_dim(size, element, out);
    if (rc == CK_ERR_INVALID) {
        /* Only the size check can fail here: depth was checked before recursing. */
        rc = ck__ds_error(p, CK_ERR_INVALID, start,
                          "%lld elements of %zu bytes overflow the largest data size",
                          (long long)size, ck_type_data_size(element));
    }
    ck_type_decref(element);
    return rc;
}

static int ck__ds_parse_pointer(ck__ds_parser *p, int depth, ck_type **out) {
    CK__RETURN_IF_ERROR(ck__ds_expect(p, '[', "'pointer'"));
    ck_type *target = NULL;
    CK__RETURN_IF_ERROR(ck__ds_parse_type(p, depth + 1, &target));
    int rc = ck__ds_expect(p, ']', "the target type of 'pointer['");
    if (rc == CK_OK) {
        rc = ck_type_make_pointer(target, out);
    }
    ck_type_decref(target);
    return rc;
}

static int ck__ds_parse_complex(ck__ds_parser *p, ck_type **out) {
    CK__RETURN_IF_ERROR(ck__ds_expect(p, '[', "'complex'"));
    ck__ds_skip_ws(p);
    size_t at = p->pos;
    size_t n = ck__ds_ident_len(p, at);
    ck_type_id id;
    if (ck__ds_word_is(p, at, n, "float32")) {
        id = CK_TYPE_COMPLEX64;
    } else if (ck__ds_word_is(p, at, n, "float64")) {
        id = CK_TYPE_COMPLEX128;
    } else {
        char found[64];
        ck__ds_found(p, at, found, sizeof found);
        return ck__ds_error(p, CK_ERR_PARSE, at,
                            "complex[...] takes float32 or float64, found %s", found);
    }
    p->pos += n;
    CK__RETURN_IF_ERROR(ck__ds_expect(p, ']', "'complex[float..'"));
    *out = (ck_type *)(uintptr_t)ck_type_scalar(id);
    return CK_OK;
}

/* A parameter word at pos, bare or quoted with ' or ": the index of the name(i) it is, for i
 * in [0, count), p->pos past it; -1 (p->pos unchanged) when it is none of them. Encodings
 * and datetime units are spelled this way. */
static int ck__ds_parse_choice(ck__ds_parser *p, int count, const char *(*name)(int)) {
    const size_t at = p->pos;
    const char q = at < p->len ? p->s[at] : '\0';
    const int quoted = q == '\'' || q == '"';
    const size_t n = ck__ds_ident_len(p, at + (size_t)quoted);
    int found = -1;
    for (int i = 0; i < count; i++) {
        if (ck__ds_word_is(p, at + (size_t)quoted, n, name(i))) {
            found = i;
        }
    }
    if (found >= 0 && quoted && (at + 1 + n >= p->len || p->s[at + 1 + n] != q)) {
        found = -1;
    }
    if (found >= 0) {
        p->pos = at + n + (quoted ? 2u : 0u);
    }
    return found;
}

/* "[unit]" after datetime64 / timedelta64: one of Y M W D h m s ms us ns, bare or quoted. */
static int ck__ds_parse_time(ck__ds_parser *p, int is_delta, ck_type **out) {
    const char *word = is_delta ? "timedelta64" : "datetime64";
    char after[32];
    snprintf(after, sizeof after, "'%s'", word);
    CK__RETURN_IF_ERROR(ck__ds_expect(p, '[', after));
    ck__ds_skip_ws(p);
    const size_t at = p->pos;
    const int unit = ck__ds_parse_choice(p, CK_NUM_DATETIME_UNITS, ck__unit_name);
    if (unit < 0) {
        char found[64];
        ck__ds_found(p, at, found, sizeof found);
        return ck__ds_error(p, CK_ERR_PARSE, at,
                            "%s[...] takes a unit (Y, M, W, D, h, m, s, ms, us or ns), found %s",
                            word, found);
    }
    snprintf(after, sizeof after, "the unit of '%s['", word);
    CK__RETURN_IF_ERROR(ck__ds_expect(p, ']', after));
    *out = (ck_type *)(uintptr_t)(is_delta ? ck_type_timedelta((ck_datetime_unit)unit)
                                           : ck_type_datetime((ck_datetime_unit)unit));
    return CK_OK;
}

static int ck__ds_parse_option(ck__ds_parser *p, int depth, size_t start, ck_type **out) {
    ck_type *value = NULL;
    CK__RETURN_IF_ERROR(ck__ds_parse_type(p, depth + 1, &value));
    int rc = ck_type_make_option(value, out);
    if (rc == CK_ERR_UNSUPPORTED) {
        char *text = NULL;
        const int have = ck_type_format(value, &text) == CK_OK;
        rc = ck__ds_error(p, CK_ERR_UNSUPPORTED, start,
                          "'?' takes a scalar type (or a datetime or text) for now, not %s",
                          have ? text : "this type");
        ck__free(text);
    }
    ck_type_decref(value);
    return rc;
}

/* "[N]" or "[N, enc]" after fixed_string / fixed_bytes (`word`, at start): the length, a
 * positive integer, and for fixed_string an optional encoding, quoted or bare (utf8 when
 * absent). */
static int ck__ds_parse_fixed_text(ck__ds_parser *p, size_t start, int is_string,
                                   ck_type **out) {
    const char *word = is_string ? "fixed_string" : "fixed_bytes";
    char after[32];
    snprintf(after, sizeof after, "'%s'", word);
    CK__RETURN_IF_ERROR(ck__ds_expect(p, '[', after));
    ck__ds_skip_ws(p);
    const size_t at = p->pos;
    intptr_t length = 0;
    int too_big = 0;
    while (p->pos < p->len && ck__is_digit(p->s[p->pos])) {
        const intptr_t digit = p->s[p->pos++] - '0';
        if (length > (INTPTR_MAX - digit) / 10) {
            too_big = 1;
        } else {
            length = length * 10 + digit;
        }
    }
    if (p->pos == at) {
        char found[64];
        ck__ds_found(p, at, found, sizeof found);
        return ck__ds_error(p, CK_ERR_PARSE, at, "%s[...] takes a length (a positive integer), "
                            "found %s", word, found);
    }
    if (too_big || length < 1) {
        return ck__ds_error(p, CK_ERR_INVALID, at, "the length of %s must be from 1 to %lld",
                            word, (long long)INTPTR_MAX);
    }
    int enc = is_string ? CK_ENCODING_UTF8 : CK_ENCODING_NONE;
    ck__ds_skip_ws(p);
    if (is_string && p->pos < p->len && p->s[p->pos] == ',') {
        p->pos++;
        ck__ds_skip_ws(p);
        const size_t enc_at = p->pos;
        enc = ck__ds_parse_choice(p, CK_ENCODING_UTF32 + 1, ck__encoding_name); /* not none */
        if (enc < 0) {
            char found[64];
            ck__ds_found(p, enc_at, found, sizeof found);
            return ck__ds_error(p, CK_ERR_PARSE, enc_at,
                                "unknown encoding %s: fixed_string takes 'ascii', 'utf8', "
                                "'utf16' or 'utf32'", found);
        }
    }
    char closing[48];
    snprintf(closing, sizeof closing, "the %s of %s[", is_string ? "encoding" : "length", word);
    CK__RETURN_IF_ERROR(ck__ds_expect(p, ']', closing));
    const int rc = is_string ? ck_type_make_fixed_string(length, (ck_text_encoding)enc, out)
                             : ck_type_make_fixed_bytes(length, out);
    if (rc == CK_ERR_INVALID) {
        return ck__ds_error(p, CK_ERR_INVALID, start, "%s", ck_last_error());
    }
    return rc;
}

/* A field name at pos (ck__scan_field_name), appended to `name` (NUL-terminated). */
static int ck__ds_parse_name(ck__ds_parser *p, ck__strbuf *name) {
    ck__ds_skip_ws(p);
    size_t at = p->pos;
    const char *why = ck__scan_field_name(p->s, p->len, &at, name);
    if (why != NULL) {
        if (at == p->pos) {
            char found[64];
            ck__ds_found(p, at, found, sizeof found);
            if (strcmp(why, "expected a field name") == 0) {
                return ck__ds_error(p, CK_ERR_PARSE, at, "%s, found %s", why, found);
            }
        }
        return ck__ds_error(p, CK_ERR_PARSE, at, "%s", why);
    }
    p->pos = at;
    return name->status;
}

/* Fields of a tuple (close = ')') or struct (close = '}') after the opening bracket at
 * `start`. Field types, and names in one buffer separated by NULs, grow as they come. */
static int ck__ds_parse_fields(ck__ds_parser *p, int depth, size_t start, char close,
                               ck_type **out) {
    const int named = close == '}';
    const char *what = named ? "struct" : "tuple";
    ck_type **types = NULL;
    size_t n = 0, cap = 0;
    ck__strbuf names = CK__STRBUF_INIT;
    size_t *name_at = NULL;
    ck__name_set seen; /* the names so far, hashed: a duplicate is found in O(1) */
    ck__name_set_init(&seen);
    int rc = CK_OK;
    ck__ds_skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
    } else {
        for (;;) {
            if (n == cap) {
                const size_t ncap = cap == 0 ? 8 : cap * 2;
                if (ncap > CK_TYPE_MAX_FIELDS) {
                    rc = ck__ds_error(p, CK_ERR_INVALID, p->pos, "a %s of more than %d fields",
                                      what, CK_TYPE_MAX_FIELDS);
                    break;
                }
                ck_type **nt = (ck_type **)ck__realloc(types, ncap * sizeof *nt);
                size_t *na = nt == NULL ? NULL : (size_t *)ck__realloc(name_at, ncap * sizeof *na);
                if (nt != NULL) {
                    types = nt;
                }
                if (na == NULL) {
                    rc = ck__nomem_error("ck_type_parse: out of memory for %s fields", what);
                    break;
                }
                name_at = na;
                cap = ncap;
            }
            ck__ds_skip_ws(p);
            const size_t field_at = p->pos;
            if (named) {
                name_at[n] = names.len;
                rc = ck__ds_parse_name(p, &names);
                if (rc == CK_OK) {
                    ck__strbuf_append(&names, "", 1); /* the NUL between names */
                    rc = names.status;
                }
                if (rc == CK_ERR_NOMEM) {
                    rc = ck__nomem_error("ck_type_parse: out of memory for field names");
                }
                intptr_t dup = -1;
                if (rc == CK_OK) {
                    const ck__name_list view = {NULL, names.s, name_at};
                    rc = ck__name_set_add(&seen, &view, n, &dup);
                }
                if (rc == CK_OK && dup >= 0) {
                    ck__strbuf b = CK__STRBUF_INIT;
                    ck__format_field_name(names.s + name_at[n], &b);
                    rc = ck__ds_error(p, CK_ERR_PARSE, field_at, "duplicate field name %s",
                                      b.s != NULL ? b.s : "?");
                    ck__strbuf_free(&b);
                }
                if (rc == CK_OK) {
                    rc = ck__ds_expect(p, ':', "a field name");
                }
                if (rc != CK_OK) {
                    break;
                }
            }
            rc = ck__ds_parse_type(p, depth + 1, &types[n]);
            if (rc != CK_OK) {
                break;
            }
            n++;
            ck__ds_skip_ws(p);
            if (p->pos < p->len && p->s[p->pos] == close) {
                p->pos++;
                break;
            }
            if (p->pos < p->len && p->s[p->pos] == ',') {
                p->pos++;
                continue;
            }
            char found[64];
            ck__ds_found(p, p->pos, found, sizeof found);
            rc = ck__ds_error(p, CK_ERR_PARSE, p->pos,
                              "expected ',' or '%c' after a %s field, found %s", close, what,
                              found);
            break;
        }
    }
    if (rc == CK_OK) {
        const char **np = NULL;
        if (named && n > 0) {
            np = (const char **)ck__malloc(n * sizeof *np);
            if (np == NULL) {
                rc = ck__nomem_error("ck_type_parse: out of memory for field names");
            }
            for (size_t k = 0; np != NULL && k < n; k++) {
                np[k] = names.s + name_at[k];
            }
        }
        if (rc == CK_OK) {
            rc = named ? ck__type_make_struct_indexed(n, (const ck_type *const *)types, np,
                                                      seen.slots, seen.nslots, out)
                       : ck_type_make_tuple(n, (const ck_type *const *)types, out);
            if (rc == CK_ERR_INVALID) {
                rc = ck__ds_error(p, CK_ERR_INVALID, start, "%s", ck_last_error());
            }
        }
        ck__free(np);
    }
    for (size_t k = 0; k < n; k++) {
        ck_type_decref(types[k]);
    }
    ck__free(types);
    ck__free(name_at);
    ck__strbuf_free(&names);
    ck__name_set_free(&seen);
    return rc;
}

static int ck__ds_parse_type(ck__ds_parser *p, int depth, ck_type **out) {
    ck__ds_skip_ws(p);
    const size_t start = p->pos;
    if (start >= p->len) {
        return ck__ds_error(p, CK_ERR_PARSE, start, "expected a type, found end of input");
    }
    const char c = p->s[start];
    if (ck__is_digit(c)) {
        size_t n = 0;
        intptr_t size = 0;
        int too_big = 0;
        while (start + n < p->len && ck__is_digit(p->s[start + n])) {
            intptr_t digit = p->s[start + n] - '0';
            if (size > (INTPTR_MAX - digit) / 10) {
                too_big = 1;
            } else {
                size = size * 10 + digit;
            }
            n++;
        }
        if (too_big) {
            char tok[40];
            ck__quote(tok, sizeof tok, p->s, start, start + (n < 32 ? n : 32));
            return ck__ds_error(p, CK_ERR_INVALID, start,
                                "dimension size %s%s is larger than %lld", tok,
                                n > 32 ? "..." : "", (long long)INTPTR_MAX);
        }
        if (depth >= CK_TYPE_MAX_DEPTH) {
            return ck__ds_error(p, CK_ERR_INVALID, start, "type nested deeper than %d levels",
                                CK_TYPE_MAX_DEPTH);
        }
        p->pos += n;
        return ck__ds_parse_dim(p, depth, start, n, 0, size, out);
    }
    if (c == '?' || c == '(' || c == '{') {
        if (depth >= CK_TYPE_MAX_DEPTH) {
            return ck__ds_error(p, CK_ERR_INVALID, start, "type nested deeper than %d levels",
                                CK_TYPE_MAX_DEPTH);
        }
        p->pos++;
        return c == '?' ? ck__ds_parse_option(p, depth, start, out)
                        : ck__ds_parse_fields(p, depth, start, c == '(' ? ')' : '}', out);
    }
    size_t n = ck__ds_ident_len(p, start);
    if (n == 0) {
        if (c == '-') {
            return ck__ds_error(p, CK_ERR_PARSE, start,
                                "dimension sizes must be non-negative integers");
        }
        if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f) {
            return ck__ds_error(p, CK_ERR_PARSE, start, "unexpected byte 0x%02x",
                                (unsigned)(unsigned char)c);
        }
        return ck__ds_error(p, CK_ERR_PARSE, start, "unexpected character '%c'", c);
    }
    const int is_var = ck__ds_word_is(p, start, n, "var");
    const int is_pointer = ck__ds_word_is(p, start, n, "pointer");
    if ((is_var || is_pointer) && depth >= CK_TYPE_MAX_DEPTH) {
        return ck__ds_error(p, CK_ERR_INVALID, start, "type nested deeper than %d levels",
                            CK_TYPE_MAX_DEPTH);
    }
    p->pos += n;
    if (is_var) {
        return ck__ds_parse_dim(p, depth, start, n, 1, -1, out);
    }
    if (is_pointer) {
        return ck__ds_parse_pointer(p, depth, out);
    }
    if (ck__ds_word_is(p, start, n, "complex")) {
        return ck__ds_parse_complex(p, out);
    }
    if (ck__ds_word_is(p, start, n, "string") || ck__ds_word_is(p, start, n, "bytes")) {
        *out = (ck_type *)(uintptr_t)(p->s[start] == 's' ? ck_type_string() : ck_type_bytes());
        return CK_OK;
    }
    if (ck__ds_word_is(p, start, n, "datetime64") || ck__ds_word_is(p, start, n, "timedelta64")) {
        return ck__ds_parse_time(p, p->s[start] == 't', out);
    }
    if (ck__ds_word_is(p, start, n, "fixed_string") || ck__ds_word_is(p, start, n, "fixed_bytes")) {
        return ck__ds_parse_fixed_text(p, start, p->s[start + 6] == 's', out);
    }
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; id++) {
        if (ck__ds_word_is(p, start, n, ck__scalar_name((ck_type_id)id))) {
            *out = (ck_type *)(uintptr_t)ck_type_scalar((ck_type_id)id);
            return CK_OK;
        }
    }
    char tok[40];
    ck__quote(tok, sizeof tok, p->s, start, start + (n < 32 ? n : 32));
    return ck__ds_error(p, CK_ERR_PARSE, start, "unknown type '%s%s'", tok, n > 32 ? "..." : "");
}

int ck_type_parse(const char *datashape, ck_type **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_type_parse: out is NULL");
    }
    *out = NULL;
    if (datashape == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_type_parse: the datashape string is NULL");
    }
    ck__ds_parser p = {datashape, strlen(datashape), 0};
    ck_type *t = NULL;
    CK__RETURN_IF_ERROR(ck__ds_parse_type(&p, 0, &t));
    ck__ds_skip_ws(&p);
    if (p.pos < p.len) {
        char found[64];
        ck__ds_found(&p, p.pos, found, sizeof found);
        ck_type_decref(t);
        return ck__ds_error(&p, CK_ERR_PARSE, p.pos, "unexpected %s after a complete type",
                            found);
    }
    *out = t;
    return CK_OK;
}
