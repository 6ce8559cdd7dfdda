/* src/dispatch/signature.c: parsing and printing of leaf signatures in their two spellings,
 * and the conversion kinds between scalar types (src/dispatch/signature.h). */
#include "dispatch/signature.h"

#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "types/type_internal.h"

/* ---- the compact letters ---- */

/* Letter(s) of each scalar, in ck_type_id order: the canonical spelling. */
static const char *const ck__sig_letters[CK_NUM_SCALAR_TYPES] = {
    "?", "b", "h", "i", "q", "B", "H", "I", "Q", "e", "f", "d", "Zf", "Zd"};

/* The scalar a compact letter (or Z pair) at s names; *len gets its length. -1 if none. */
static int compact_scalar(const char *s, size_t *len) {
    *len = 1;
    switch (s[0]) {
    case '?': return CK_TYPE_BOOL;
    case 'b': return CK_TYPE_INT8;
    case 'h': return CK_TYPE_INT16;
    case 'i': return CK_TYPE_INT32;
    case 'l': /* C long: 64 bits on the LP64 targets ckernel supports */
    case 'q': return CK_TYPE_INT64;
    case 'B': return CK_TYPE_UINT8;
    case 'H': return CK_TYPE_UINT16;
    case 'I': return CK_TYPE_UINT32;
    case 'L':
    case 'Q': return CK_TYPE_UINT64;
    case 'e': return CK_TYPE_FLOAT16;
    case 'f': return CK_TYPE_FLOAT32;
    case 'd': return CK_TYPE_FLOAT64;
    case 'Z':
        *len = 2;
        return s[1] == 'f' ? CK_TYPE_COMPLEX64 : s[1] == 'd' ? CK_TYPE_COMPLEX128 : -1;
    default: return -1;
    }
}

/* ---- errors ---- */

/* CK_ERR_PARSE: "signature '<text>': <what> at column <at + 1>". */
static int sig_error(const char *text, size_t at, const char *what) {
    return ck_set_error(CK_ERR_PARSE, "signature '%.200s': %s at column %zu", text, what, at + 1);
}

static int parse_compact(const char *text, ck__signature *out) {
    size_t i = 0;
    out->nargs = 0;
    while (text[i] != ')') {
        if (text[i] == '\0') {
            return sig_error(text, i, "expected ')' after the argument letters");
        }
        size_t len;
        const int id = compact_scalar(text + i, &len);
        if (id < 0) {
            char what[96];
            snprintf(what, sizeof what,
                     "unknown type letter '%.*s' (letters: ? b h i l q B H I L Q e f d Zf Zd)",
                     text[i] == 'Z' && text[i + 1] != '\0' ? 2 : 1, text + i);
            return sig_error(text, i, what);
        }
        if (out->nargs == CK__SIG_MAX_ARGS) {
            return sig_error(text, i, "more than 16 arguments");
        }
        out->args[out->nargs++] = (ck_type_id)id;
        i += len;
    }
    i++; /* ')' */
    size_t len;
    const int id = text[i] == '\0' ? -1 : compact_scalar(text + i, &len);
    if (id < 0) {
        return sig_error(text, i, "expected one result type letter after ')'");
    }
    if (text[i + len] != '\0') {
        return sig_error(text, i + len, "unexpected text after the result type");
    }
    out->ret = (ck_type_id)id;
    return CK_OK;
}

/* ---- datashape style ---- */

static size_t skip_blanks(const char *s, size_t i) {
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
        i++;
    }
    return i;
}

static int is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A scalar name at text + *i ("int32", "complex[float64]", blanks allowed inside the
 * brackets); advances *i past it. */
static int parse_scalar_name(const char *text, size_t *i, ck_type_id *out) {
    const size_t start = *i;
    size_t j = start;
    while (is_name_char(text[j])) {
        j++;
    }
    if (j == start) {
        char what[48];
        if (text[j] == '\0') {
            snprintf(what, sizeof what, "expected a scalar type, found end of input");
        } else {
            snprintf(what, sizeof what, "expected a scalar type, found '%c'", text[j]);
        }
        return sig_error(text, j, what);
    }
    char name[48];
    size_t n = j - start;
    if (n >= sizeof name) {
        n = sizeof name - 1;
    }
    memcpy(name, text + start, n);
    name[n] = '\0';
    if (strcmp(name, "complex") == 0) { /* complex[float32] / complex[float64] */
        size_t k = skip_blanks(text, j);
        if (text[k] != '[') {
            return sig_error(text, k, "expected '[' after 'complex'");
        }
        size_t b = skip_blanks(text, k + 1), e = b;
        while (is_name_char(text[e])) {
            e++;
        }
        const size_t close = skip_blanks(text, e);
        if (e - b == 7 && strncmp(text + b, "float32", 7) == 0 && text[close] == ']') {
            *out = CK_TYPE_COMPLEX64;
        } else if (e - b == 7 && strncmp(text + b, "float64", 7) == 0 && text[close] == ']') {
            *out = CK_TYPE_COMPLEX128;
        } else {
            return sig_error(text, b, "complex[...] takes float32 or float64");
        }
        *i = close + 1;
        return CK_OK;
    }
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; id++) {
        if (strcmp(name, ck_type_id_name((ck_type_id)id)) == 0) {
            *out = (ck_type_id)id;
            *i = j;
            return CK_OK;
        }
    }
    char what[80];
    snprintf(what, sizeof what, "unknown scalar type '%s'", name);
    return sig_error(text, start, what);
}

static int parse_datashape_style(const char *text, size_t i, ck__signature *out) {
    out->nargs = 0;
    i = skip_blanks(text, i + 1); /* past '(' */
    if (text[i] != ')') {
        for (;;) {
            if (out->nargs == CK__SIG_MAX_ARGS) {
                return sig_error(text, i, "more than 16 arguments");
            }
            CK_RETURN_IF_ERROR(parse_scalar_name(text, &i, &out->args[out->nargs]));
            out->nargs++;
            i = skip_blanks(text, i);
            if (text[i] == ')') {
                break;
            }
            if (text[i] != ',') {
                return sig_error(text, i, "expected ',' or ')' after an argument type");
            }
            i = skip_blanks(text, i + 1);
        }
    }
    i = skip_blanks(text, i + 1); /* past ')' */
    if (text[i] != '-' || text[i + 1] != '>') {
        return sig_error(text, i, "expected '->' after the arguments");
    }
    i = skip_blanks(text, i + 2);
    CK_RETURN_IF_ERROR(parse_scalar_name(text, &i, &out->ret));
    i = skip_blanks(text, i);
    if (text[i] != '\0') {
        return sig_error(text, i, "unexpected text after the result type");
    }
    return CK_OK;
}

int ck__signature_parse(const char *text, ck__signature *out) {
    if (text == NULL || out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "signature: NULL text or output");
    }
    memset(out, 0, sizeof *out);
    const size_t i = skip_blanks(text, 0);
    if (text[i] == '(') {
        return parse_datashape_style(text, i, out);
    }
    if (i != 0) {
        return sig_error(text, 0, "blanks before a compact signature");
    }
    return parse_compact(text, out);
}

/* ---- printing ---- */

/* Appends like snprintf into buf at *used (cap bytes in all), counting what it needed. */
static void put(char *buf, size_t cap, size_t *used, const char *s) {
    const size_t n = strlen(s);
    if (*used < cap) {
        const size_t room = cap - *used - 1;
        memcpy(buf + *used, s, n < room ? n : room);
        buf[(n < room ? *used + n : cap - 1)] = '\0';
    }
    *used += n;
}

size_t ck__signature_format(const ck__signature *sig, char *buf, size_t cap) {
    size_t used = 0;
    if (cap > 0) {
        buf[0] = '\0';
    }
    put(buf, cap, &used, "(");
    for (int a = 0; a < sig->nargs; a++) {
        put(buf, cap, &used, a == 0 ? "" : ", ");
        put(buf, cap, &used, ck_type_id_name(sig->args[a]));
    }
    put(buf, cap, &used, ") -> ");
    put(buf, cap, &used, ck_type_id_name(sig->ret));
    return used;
}

size_t ck__signature_format_compact(const ck__signature *sig, char *buf, size_t cap) {
    size_t used = 0;
    if (cap > 0) {
        buf[0] = '\0';
    }
    for (int a = 0; a < sig->nargs; a++) {
        put(buf, cap, &used, ck__sig_letters[sig->args[a]]);
    }
    put(buf, cap, &used, ")");
    put(buf, cap, &used, ck__sig_letters[sig->ret]);
    return used;
}

/* ---- conversion kinds ---- */

typedef enum scalar_kind { KIND_BOOL, KIND_SIGNED, KIND_UNSIGNED, KIND_FLOAT, KIND_COMPLEX } scalar_kind;

static scalar_kind kind_of(ck_type_id id) {
    switch (id) {
    case CK_TYPE_BOOL: return KIND_BOOL;
    case CK_TYPE_INT8:
    case CK_TYPE_INT16:
    case CK_TYPE_INT32:
    case CK_TYPE_INT64: return KIND_SIGNED;
    case CK_TYPE_UINT8:
    case CK_TYPE_UINT16:
    case CK_TYPE_UINT32:
    case CK_TYPE_UINT64: return KIND_UNSIGNED;
    case CK_TYPE_FLOAT16:
    case CK_TYPE_FLOAT32:
    case CK_TYPE_FLOAT64: return KIND_FLOAT;
    default: return KIND_COMPLEX;
    }
}

/* Bits of value: integer width (a signed type's sign bit counts), a float's significand
 * (implicit bit included), a complex's component significand. */
static int value_bits(ck_type_id id) {
    switch (id) {
    case CK_TYPE_INT8: case CK_TYPE_UINT8: return 8;
    case CK_TYPE_INT16: case CK_TYPE_UINT16: return 16;
    case CK_TYPE_INT32: case CK_TYPE_UINT32: return 32;
    case CK_TYPE_INT64: case CK_TYPE_UINT64: return 64;
    case CK_TYPE_FLOAT16: return 11;
    case CK_TYPE_FLOAT32: case CK_TYPE_COMPLEX64: return 24;
    case CK_TYPE_FLOAT64: case CK_TYPE_COMPLEX128: return 53;
    default: return 1;
    }
}

/* The float format a float or complex holds its (component) values in. */
static int float_rank(ck_type_id id) {
    switch (id) {
    case CK_TYPE_FLOAT16: return 0;
    case CK_TYPE_FLOAT32: case CK_TYPE_COMPLEX64: return 1;
    default: return 2; /* float64, complex128 */
    }
}

ck__conversion ck__conversion_kind(ck_type_id from, ck_type_id to) {
    if (!ck__id_is_scalar(from) || !ck__id_is_scalar(to)) {
        return CK__CONV_NONE;
    }
    if (from == to) {
        return CK__CONV_EXACT;
    }
    const scalar_kind kf = kind_of(from), kt = kind_of(to);
    if (kf == kt) { /* wider in the same kind: lossless */
        if (kf == KIND_FLOAT || kf == KIND_COMPLEX) {
            return float_rank(to) > float_rank(from) ? CK__CONV_PROMOTE : CK__CONV_UNSAFE;
        }
        return value_bits(to) > value_bits(from) ? CK__CONV_PROMOTE : CK__CONV_UNSAFE;
    }
    if (kf == KIND_BOOL) {
        return CK__CONV_SAFE; /* 0 and 1 are exact everywhere */
    }
    switch (kt) {
    case KIND_BOOL:
        return CK__CONV_UNSAFE;
    case KIND_SIGNED: /* from unsigned only: needs a wider signed type */
        return kf == KIND_UNSIGNED && value_bits(to) > value_bits(from) ? CK__CONV_SAFE
                                                                        : CK__CONV_UNSAFE;
    case KIND_UNSIGNED: /* a negative value never fits */
        return CK__CONV_UNSAFE;
    case KIND_FLOAT:
    case KIND_COMPLEX:
        if (kf == KIND_SIGNED || kf == KIND_UNSIGNED) {
            /* Exact when the significand holds every value (a signed type's magnitude needs
             * one bit less than its width, and its sign is the float's own). */
            const int need = value_bits(from) - (kf == KIND_SIGNED ? 1 : 0);
            return need <= value_bits(to) ? CK__CONV_SAFE : CK__CONV_UNSAFE;
        }
        if (kf == KIND_FLOAT && kt == KIND_COMPLEX) {
            return float_rank(to) >= float_rank(from) ? CK__CONV_SAFE : CK__CONV_UNSAFE;
        }
        return CK__CONV_UNSAFE; /* complex -> float drops the imaginary part */
    default:
        return CK__CONV_UNSAFE;
    }
}

const char *ck__conversion_name(ck__conversion c) {
    static const char *const names[] = {"exact", "promote", "safe", "unsafe", "none"};
    return (unsigned)c < CK_ARRAY_SIZE(names) ? names[c] : "?";
}
