/* src/signatures/signature.c: parsing and printing of leaf signatures in their two spellings,
 * and the conversion kinds between scalar types (src/signatures/signature.h). */
#include "signatures/signature.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "common/scalars.h"
#include "types/type_internal.h"

/* ---- the compact letters ---- */

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

/* Each scalar's canonical letter(s) are the table's; 'l' and 'L' (C long) also spell int64
 * and uint64: 64 bits on the LP64 targets ckernel supports. */
static const struct {
    const char *letter;
    ck_type_id id;
} ck__letter_aliases[] = {{"l", CK_TYPE_INT64}, {"L", CK_TYPE_UINT64}};

/* Every letter, each alias before its type's: " ? b h i l q B H I L Q e f d Zf Zd". */
static void put_letters(char *buf, size_t cap, size_t *used) {
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; id++) {
        for (size_t a = 0; a < CK__ARRAY_SIZE(ck__letter_aliases); a++) {
            if (ck__letter_aliases[a].id == (ck_type_id)id) {
                put(buf, cap, used, " ");
                put(buf, cap, used, ck__letter_aliases[a].letter);
            }
        }
        put(buf, cap, used, " ");
        put(buf, cap, used, ck__scalar_facts_table[id].letters);
    }
}

/* The scalar a compact letter (or Z pair) at s names; *len gets its length. -1 if none. */
static int compact_scalar(const char *s, size_t *len) {
    *len = 1;
    for (size_t a = 0; a < CK__ARRAY_SIZE(ck__letter_aliases); a++) {
        if (s[0] == ck__letter_aliases[a].letter[0]) {
            return ck__letter_aliases[a].id;
        }
    }
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; id++) {
        const char *letters = ck__scalar_facts_table[id].letters;
        const size_t n = strlen(letters);
        if (strncmp(s, letters, n) == 0) {
            *len = n;
            return id;
        }
    }
    return -1;
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
            char letters[96], what[160];
            size_t used = 0;
            letters[0] = '\0';
            put_letters(letters, sizeof letters, &used);
            snprintf(what, sizeof what, "unknown type letter '%.*s' (letters:%s)",
                     text[i] == 'Z' && text[i + 1] != '\0' ? 2 : 1, text + i, letters);
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
        return sig_error(text, i, "expected one or two result type letters after ')'");
    }
    out->ret = (ck_type_id)id;
    i += len;
    if (text[i] != '\0') {
        const int id2 = compact_scalar(text + i, &len);
        if (id2 < 0 || text[i + len] != '\0') {
            return sig_error(text, id2 < 0 ? i : i + len,
                             "unexpected text after the result types (one or two letters)");
        }
        out->nret = 2;
        out->ret2 = (ck_type_id)id2;
    }
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

/* One core dimension spelled at text[j, e): a size, "var" or a symbol. */
static int parse_core_dim(const char *text, size_t j, size_t e, ck__core_sig *core,
                          int32_t *out) {
    if (text[j] >= '0' && text[j] <= '9') {
        int64_t v = 0;
        for (size_t k = j; k < e; k++) {
            if (text[k] < '0' || text[k] > '9') {
                return sig_error(text, j, "a dimension is a size, 'var' or a symbol (a name "
                                          "starting with an upper-case letter)");
            }
            v = v * 10 + (text[k] - '0');
            if (v > INT32_MAX) {
                return sig_error(text, j, "a core dimension's size above 2147483647");
            }
        }
        *out = (int32_t)v;
        return CK_OK;
    }
    if (e - j == 3 && strncmp(text + j, "var", 3) == 0) {
        *out = CK__CORE_VAR;
        return CK_OK;
    }
    if (text[j] < 'A' || text[j] > 'Z') {
        return sig_error(text, j, "a dimension is a size, 'var' or a symbol (a name starting "
                                  "with an upper-case letter)");
    }
    if (e - j >= sizeof core->sym[0]) {
        return sig_error(text, j, "a symbol of more than 15 characters");
    }
    for (int s = 0; s < core->nsyms; s++) {
        if (strlen(core->sym[s]) == e - j && strncmp(core->sym[s], text + j, e - j) == 0) {
            *out = CK__CORE_SYM(s);
            return CK_OK;
        }
    }
    if (core->nsyms == CK__CORE_MAX_SYMS) {
        return sig_error(text, j, "more than 8 symbols");
    }
    memcpy(core->sym[core->nsyms], text + j, e - j);
    core->sym[core->nsyms][e - j] = '\0';
    *out = CK__CORE_SYM(core->nsyms);
    core->nsyms++;
    return CK_OK;
}

/* The core dimensions before an operand's scalar ("N * ", "3 * ", "var * ") into slot
 * `slot` of core; refused where core is NULL (a signature of scalars). */
static int parse_core_dims(const char *text, size_t *i, ck__core_sig *core, int slot) {
    for (;;) {
        const size_t j = *i;
        size_t e = j;
        while (is_name_char(text[e])) {
            e++;
        }
        const size_t star = skip_blanks(text, e);
        if (e == j || text[star] != '*') {
            return CK_OK; /* the scalar's name */
        }
        if (core == NULL) {
            return sig_error(text, j, "a dimension in a signature that takes scalars only");
        }
        if (core->ndim[slot] == CK__CORE_MAX_DIMS) {
            return sig_error(text, j, "more than 4 core dimensions");
        }
        const int nsyms = core->nsyms;
        int32_t *d = &core->dim[slot][core->ndim[slot]];
        CK__RETURN_IF_ERROR(parse_core_dim(text, j, e, core, d));
        /* The result's sizes come from the arguments (parsed before it). */
        if (slot == CK__SIG_MAX_ARGS && *d == CK__CORE_VAR) {
            return sig_error(text, j, "a var core dimension in the result (its sizes come from "
                                      "the arguments: a size or a symbol)");
        }
        if (slot == CK__SIG_MAX_ARGS && core->nsyms != nsyms) {
            char what[64];
            snprintf(what, sizeof what, "the result's symbol %s is in no argument",
                     core->sym[nsyms]);
            return sig_error(text, j, what);
        }
        core->ndim[slot]++;
        core->any = 1;
        *i = skip_blanks(text, star + 1);
    }
}

static int parse_datashape_style(const char *text, size_t i, ck__signature *out,
                                 ck__core_sig *core) {
    out->nargs = 0;
    i = skip_blanks(text, i + 1); /* past '(' */
    if (text[i] != ')') {
        for (;;) {
            if (out->nargs == CK__SIG_MAX_ARGS) {
                return sig_error(text, i, "more than 16 arguments");
            }
            CK__RETURN_IF_ERROR(parse_core_dims(text, &i, core, out->nargs));
            CK__RETURN_IF_ERROR(parse_scalar_name(text, &i, &out->args[out->nargs]));
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
    if (text[i] == '(') { /* two results: (T0, T1), scalars */
        i = skip_blanks(text, i + 1);
        CK__RETURN_IF_ERROR(parse_scalar_name(text, &i, &out->ret));
        i = skip_blanks(text, i);
        if (text[i] != ',') {
            return sig_error(text, i, "expected ',' and a second result type (a result tuple "
                                      "holds two scalars)");
        }
        i = skip_blanks(text, i + 1);
        CK__RETURN_IF_ERROR(parse_scalar_name(text, &i, &out->ret2));
        i = skip_blanks(text, i);
        if (text[i] != ')') {
            return sig_error(text, i, "expected ')' after the second result type (a result "
                                      "tuple holds two scalars)");
        }
        out->nret = 2;
        i = skip_blanks(text, i + 1);
    } else {
        CK__RETURN_IF_ERROR(parse_core_dims(text, &i, core, CK__SIG_MAX_ARGS));
        CK__RETURN_IF_ERROR(parse_scalar_name(text, &i, &out->ret));
        i = skip_blanks(text, i);
    }
    if (text[i] != '\0') {
        return sig_error(text, i, "unexpected text after the result type");
    }
    return CK_OK;
}

int ck__signature_parse(const char *text, ck__signature *out) {
    return ck__signature_parse_core(text, out, NULL);
}

int ck__signature_parse_core(const char *text, ck__signature *out, ck__core_sig *core) {
    if (text == NULL || out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "signature: NULL text or output");
    }
    memset(out, 0, sizeof *out);
    out->nret = 1;
    if (core != NULL) {
        memset(core, 0, sizeof *core);
    }
    const size_t i = skip_blanks(text, 0);
    if (text[i] == '(') {
        CK__RETURN_IF_ERROR(parse_datashape_style(text, i, out, core));
        if (out->nret == 2 && core != NULL && core->any) {
            return sig_error(text, i, "two results take no core dimensions");
        }
        return CK_OK;
    }
    if (i != 0) {
        return sig_error(text, 0, "blanks before a compact signature");
    }
    return parse_compact(text, out);
}

int ck__signature_result(const ck__signature *sig, ck_type **out) {
    if (sig->nret != 2) {
        *out = (ck_type *)(uintptr_t)ck_type_scalar(sig->ret);
        return CK_OK;
    }
    const ck_type *const fields[2] = {ck_type_scalar(sig->ret), ck_type_scalar(sig->ret2)};
    return ck_type_make_tuple(2, fields, out);
}

/* ---- printing ---- */

int ck__core_sig_same(const ck__core_sig *a, const ck__core_sig *b) {
    if (a->any != b->any || memcmp(a->ndim, b->ndim, sizeof a->ndim) != 0) {
        return 0;
    }
    for (int k = 0; k <= CK__SIG_MAX_ARGS; k++) {
        for (int d = 0; d < a->ndim[k]; d++) {
            if (a->dim[k][d] != b->dim[k][d]) {
                return 0;
            }
        }
    }
    return 1;
}

/* One operand: its core dimensions (slot of core, if any), then its scalar's name. */
static void put_operand(char *buf, size_t cap, size_t *used, const ck__core_sig *core, int slot,
                        ck_type_id id) {
    for (int d = 0; core != NULL && d < core->ndim[slot]; d++) {
        const int32_t v = core->dim[slot][d];
        char num[16];
        if (v >= 0) {
            snprintf(num, sizeof num, "%d", (int)v);
        }
        put(buf, cap, used,
            v >= 0 ? num : v == CK__CORE_VAR ? "var" : core->sym[CK__CORE_SYM_INDEX(v)]);
        put(buf, cap, used, " * ");
    }
    put(buf, cap, used, ck_type_id_name(id));
}

size_t ck__signature_format(const ck__signature *sig, char *buf, size_t cap) {
    return ck__signature_format_core(sig, NULL, buf, cap);
}

size_t ck__signature_format_core(const ck__signature *sig, const ck__core_sig *core, char *buf,
                                 size_t cap) {
    size_t used = 0;
    if (cap > 0) {
        buf[0] = '\0';
    }
    put(buf, cap, &used, "(");
    for (int a = 0; a < sig->nargs; a++) {
        put(buf, cap, &used, a == 0 ? "" : ", ");
        put_operand(buf, cap, &used, core, a, sig->args[a]);
    }
    put(buf, cap, &used, ") -> ");
    if (sig->nret == 2) {
        put(buf, cap, &used, "(");
        put(buf, cap, &used, ck_type_id_name(sig->ret));
        put(buf, cap, &used, ", ");
        put(buf, cap, &used, ck_type_id_name(sig->ret2));
        put(buf, cap, &used, ")");
        return used;
    }
    put_operand(buf, cap, &used, core, CK__SIG_MAX_ARGS, sig->ret);
    return used;
}

size_t ck__signature_format_compact(const ck__signature *sig, char *buf, size_t cap) {
    size_t used = 0;
    if (cap > 0) {
        buf[0] = '\0';
    }
    for (int a = 0; a < sig->nargs; a++) {
        put(buf, cap, &used, ck__scalar_facts_table[sig->args[a]].letters);
    }
    put(buf, cap, &used, ")");
    put(buf, cap, &used, ck__scalar_facts_table[sig->ret].letters);
    if (sig->nret == 2) {
        put(buf, cap, &used, ck__scalar_facts_table[sig->ret2].letters);
    }
    return used;
}

/* ---- conversion kinds ----
 * The rules below are constant expressions over the scalar table's facts by name
 * (common/scalars.h), so the whole table of pairs is computed by the compiler and a
 * selection looks each argument up: ranking every signature of a callable (select/cold) is
 * a loop over table loads, with no branch to mispredict. */

#define CK__KIND(n) ((int)ck__kind_##n)
#define CK__BITS(n) ck__bits_##n
#define CK__EXP(n) ck__exp_bits_##n
#define CK__FLOATY(n)                                                                           \
    (CK__KIND(n) == CK__SCALAR_KIND_FLOAT || CK__KIND(n) == CK__SCALAR_KIND_COMPLEX)
#define CK__INTY(n)                                                                             \
    (CK__KIND(n) == CK__SCALAR_KIND_SIGNED || CK__KIND(n) == CK__SCALAR_KIND_UNSIGNED)
/* Every value of float format f is one of format t: as many significand and exponent bits. */
#define CK__FORMAT_HOLDS(t, f) (CK__BITS(t) >= CK__BITS(f) && CK__EXP(t) >= CK__EXP(f))
/* Every value of integer f is exactly a value of float format t: its magnitude bits fit the
 * significand and 2^bits is within the exponent's range. */
#define CK__FORMAT_HOLDS_INT(t, f)                                                              \
    (CK__BITS(f) <= CK__BITS(t) && CK__BITS(f) < (1 << (CK__EXP(t) > 0 ? CK__EXP(t) - 1 : 0)))

/* from -> to, in order:
 *   the same type: exact;
 *   the same kind: lossless when wider (a float or complex by its format: both its
 *   significand and exponent hold the other's; float16 and bfloat16 hold neither);
 *   from bool: safe, 0 and 1 are exact everywhere;
 *   to bool, or to unsigned (a negative value never fits): unsafe;
 *   to signed: safe from an unsigned of no more magnitude bits only;
 *   integer to float or complex: safe when the format holds every value;
 *   else inexact to a 53-bit or wider format (float64, complex128: in range, rounded to 53
 *   bits, what NumPy and Numba promote int64 and uint64 with a float to), unsafe to a
 *   narrower one;
 *   float to complex: safe when the component's format holds the float's; complex to float
 *   drops the imaginary part: unsafe. */
#define CK__CONV(f, t)                                                                          \
    (ck__id_##f == ck__id_##t ? CK__CONV_EXACT                                                \
     : CK__KIND(f) == CK__KIND(t)                                                             \
         ? (CK__FLOATY(f) ? CK__FORMAT_HOLDS(t, f) : CK__BITS(t) > CK__BITS(f))                 \
               ? CK__CONV_PROMOTE                                                             \
               : CK__CONV_UNSAFE                                                              \
     : CK__KIND(f) == CK__SCALAR_KIND_BOOL ? CK__CONV_SAFE                                    \
     : CK__KIND(t) == CK__SCALAR_KIND_BOOL || CK__KIND(t) == CK__SCALAR_KIND_UNSIGNED         \
         ? CK__CONV_UNSAFE                                                                    \
     : CK__KIND(t) == CK__SCALAR_KIND_SIGNED                                                  \
         ? (CK__KIND(f) == CK__SCALAR_KIND_UNSIGNED && CK__BITS(t) >= CK__BITS(f)             \
                ? CK__CONV_SAFE                                                               \
                : CK__CONV_UNSAFE)                                                            \
     : CK__INTY(f)                                                                            \
         ? (CK__FORMAT_HOLDS_INT(t, f) ? CK__CONV_SAFE                                        \
            : CK__BITS(t) >= 53        ? CK__CONV_INEXACT                                     \
                                       : CK__CONV_UNSAFE)                                     \
     : CK__KIND(f) == CK__SCALAR_KIND_FLOAT && CK__KIND(t) == CK__SCALAR_KIND_COMPLEX         \
         ? (CK__FORMAT_HOLDS(t, f) ? CK__CONV_SAFE : CK__CONV_UNSAFE)                         \
         : CK__CONV_UNSAFE)

#define CK__CONV_CELL(f, t) [ck__id_##t] = CK__CONV(f, t),
#define CK__CONV_ROW(f) [ck__id_##f] = {CK__SCALAR_EACH_WITH_LATER(CK__CONV_CELL, f)},
static const unsigned char ck__conv_table[CK_NUM_SCALAR_TYPES][CK_NUM_SCALAR_TYPES] = {
    CK__SCALAR_EXPAND(CK__SCALAR_EACH(CK__CONV_ROW))};

/* One argument's share of a packed rating (signature.h): a count in its kind's field, and
 * the bytes a promote, safe or inexact conversion widens by (never negative). */
#define CK__STEP(f, t)                                                                          \
    (CK__CONV(f, t) == CK__CONV_EXACT ? 0u                                                    \
     : CK__CONV(f, t) == CK__CONV_UNSAFE                                                      \
         ? (uint64_t)1 << CK__RATING_UNSAFE_SHIFT                                             \
         : ((uint64_t)1 << (CK__CONV(f, t) == CK__CONV_INEXACT ? CK__RATING_INEXACT_SHIFT      \
                            : CK__CONV(f, t) == CK__CONV_SAFE  ? CK__RATING_SAFE_SHIFT         \
                                                               : CK__RATING_PROMOTE_SHIFT)) + \
               (uint64_t)(ck__size_##t - ck__size_##f))
#define CK__STEP_CELL(f, t) [ck__id_##t] = CK__STEP(f, t),
#define CK__STEP_ROW(f) [ck__id_##f] = {CK__SCALAR_EACH_WITH_LATER(CK__STEP_CELL, f)},
_Static_assert(CK__SIG_MAX_ARGS * 15 < (1 << CK__RATING_PROMOTE_SHIFT) &&
                   CK__RATING_SAFE_SHIFT - CK__RATING_PROMOTE_SHIFT == CK__RATING_PROMOTE_SHIFT &&
                   CK__RATING_INEXACT_SHIFT - CK__RATING_SAFE_SHIFT == CK__RATING_PROMOTE_SHIFT &&
                   CK__RATING_UNSAFE_SHIFT - CK__RATING_INEXACT_SHIFT == CK__RATING_PROMOTE_SHIFT,
               "a packed rating's fields hold 16 arguments' counts and widening");
const uint64_t ck__rating_steps[CK_NUM_SCALAR_TYPES][CK_NUM_SCALAR_TYPES] = {
    CK__SCALAR_EXPAND(CK__SCALAR_EACH(CK__STEP_ROW))};

/* NumPy's safe casts (signature.h), by the same facts: a component's size is its part's. */
#define CK__PSIZE(n) ck__part_size_##n
#define CK__NUMPY_SAFE(f, t)                                                                    \
    (ck__id_##f == ck__id_##t || CK__KIND(f) == CK__SCALAR_KIND_BOOL                            \
         ? 1                                                                                    \
     : CK__KIND(t) == CK__SCALAR_KIND_BOOL ? 0                                                  \
     : CK__INTY(f) && CK__KIND(f) == CK__KIND(t) ? CK__BITS(t) >= CK__BITS(f)                   \
     : CK__KIND(f) == CK__SCALAR_KIND_UNSIGNED && CK__KIND(t) == CK__SCALAR_KIND_SIGNED         \
         ? ck__size_##t > ck__size_##f                                                          \
     : CK__INTY(f) ? CK__FLOATY(t) && (CK__PSIZE(t) > ck__size_##f || CK__PSIZE(t) == 8)       \
     : CK__KIND(f) == CK__SCALAR_KIND_FLOAT                                                     \
         ? CK__FLOATY(t) && CK__FORMAT_HOLDS(t, f)                                              \
         : CK__KIND(t) == CK__SCALAR_KIND_COMPLEX && CK__FORMAT_HOLDS(t, f))
#define CK__NUMPY_SAFE_CELL(f, t) [ck__id_##t] = CK__NUMPY_SAFE(f, t),
#define CK__NUMPY_SAFE_ROW(f) [ck__id_##f] = {CK__SCALAR_EACH_WITH_LATER(CK__NUMPY_SAFE_CELL, f)},
static const unsigned char ck__numpy_safe_table[CK_NUM_SCALAR_TYPES][CK_NUM_SCALAR_TYPES] = {
    CK__SCALAR_EXPAND(CK__SCALAR_EACH(CK__NUMPY_SAFE_ROW))};

int ck__numpy_safe(ck_type_id from, ck_type_id to) {
    return ck__id_is_scalar(from) && ck__id_is_scalar(to) && ck__numpy_safe_table[from][to];
}

ck__conversion ck__conversion_kind(ck_type_id from, ck_type_id to) {
    if (!ck__id_is_scalar(from) || !ck__id_is_scalar(to)) {
        return CK__CONV_NONE;
    }
    return (ck__conversion)ck__conv_table[from][to];
}

const char *ck__conversion_name(ck__conversion c) {
    static const char *const names[] = {"exact", "promote", "safe", "inexact", "unsafe", "none"};
    return (unsigned)c < CK__ARRAY_SIZE(names) ? names[c] : "?";
}
