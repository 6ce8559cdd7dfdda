/* src/expr/expr_parse.c: the expression text into an immutable DAG (expr_internal.h): a lexer,
 * a recursive-descent parser of Python's precedence and associativity over
 *     compare := bitor (('<' | '<=' | '==' | '!=' | '>=' | '>') bitor)*   (chained as Python:
 *                a < b < c is (a < b) & (b < c), b evaluated once)
 *     bitor   := bitxor ('|' bitxor)*        bitxor := bitand ('^' bitand)*
 *     bitand  := shift ('&' shift)*           shift  := sum (('<<' | '>>') sum)*
 *     sum     := product (('+' | '-') product)*
 *     product := unary (('*' | '/' | '//' | '%') unary)*
 *     unary   := ('-' | '+' | '~') unary | power   ('-' right before a number is part of it,
 *                                                  unless a '**' follows: -2**2 is -(2**2))
 *     power   := postfix ['**' unary]           (right-associative, tighter than unary minus)
 *     postfix := primary ('.real' | '.imag')*
 *     primary := NUMBER | NUMBERj | True | False | inf | nan | NAME | NAME '(' [compare
 *                (',' compare)*] ')' | '(' compare ')'
 * literal typing, callable lookup (unknown names collected and listed together), the
 * expression's reference counting, its queries and its printed form. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "common/scalars.h"
#include "common/strbuf.h"
#include "expr/expr_internal.h"
#include "values/numtext.h"
#include "values/text_scalar.h"

typedef enum tok_kind { TOK_END, TOK_INT, TOK_FLOAT, TOK_IMAG, TOK_NAME, TOK_PUNCT } tok_kind;

typedef struct tok {
    tok_kind kind;
    int column;     /* 1-based */
    size_t start, len; /* in the text */
    uint64_t ival;  /* TOK_INT */
    double fval;    /* TOK_FLOAT, TOK_IMAG (its imaginary part) */
} tok;

typedef struct parser {
    const char *text;
    tok *toks;
    size_t ntoks, pos;
    ck__expr_node *nodes; /* room for ntoks nodes: each node consumes a token */
    int nnodes;
    int *operands; /* room for ntoks */
    int noperands;
    size_t name_start[CK_CALL_MAX_ARGS], name_len[CK_CALL_MAX_ARGS];
    int arg_node[CK_CALL_MAX_ARGS]; /* the one node of each argument name */
    int nnames;
    int depth;
    ck__strbuf unknown; /* "'foo' at column 3, ..." */
    int nunknown;
} parser;

static int is_name_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* "the end of the expression", "'+'", "the name 'abc'", "the number 2.5". */
static void describe_tok(const parser *p, const tok *t, char *buf, size_t cap) {
    const int len = t->len > 40 ? 40 : (int)t->len;
    switch (t->kind) {
    case TOK_END: snprintf(buf, cap, "the end of the expression"); break;
    case TOK_NAME: snprintf(buf, cap, "the name '%.*s'", len, p->text + t->start); break;
    case TOK_PUNCT: snprintf(buf, cap, "'%.*s'", len, p->text + t->start); break;
    default: snprintf(buf, cap, "the number %.*s", len, p->text + t->start); break;
    }
}

static int syntax_error(const parser *p, const tok *t, const char *expected) {
    char found[96];
    describe_tok(p, t, found, sizeof found);
    return ck_set_error(CK_ERR_PARSE, "expression: expected %s at column %d, found %s", expected,
                        t->column, found);
}

/* A number token from text + i: digits [. digits] [e [+-] digits], or . digits [...]. An
 * integer (no point, no exponent) is read exactly into a uint64; any other through the
 * library's locale-independent strtod. */
static int lex_number(const char *text, size_t i, tok *t) {
    size_t j = i;
    int is_float = 0, digits = 0;
    uint64_t v = 0;
    int overflow = 0;
    while (is_digit(text[j])) {
        const uint64_t d = (uint64_t)(text[j] - '0');
        overflow |= v > (UINT64_MAX - d) / 10;
        v = v * 10 + d;
        j++, digits++;
    }
    if (text[j] == '.') {
        is_float = 1;
        j++;
        while (is_digit(text[j])) {
            j++, digits++;
        }
    }
    if (digits == 0) {
        return ck_set_error(CK_ERR_PARSE, "expression: expected a digit at column %zu", j + 1);
    }
    if (text[j] == 'e' || text[j] == 'E') {
        size_t k = j + 1;
        if (text[k] == '+' || text[k] == '-') {
            k++;
        }
        if (!is_digit(text[k])) {
            return ck_set_error(CK_ERR_PARSE,
                                "expression: expected the exponent's digits at column %zu", k + 1);
        }
        while (is_digit(text[k])) {
            k++;
        }
        is_float = 1;
        j = k;
    }
    const int imag = text[j] == 'j' || text[j] == 'J';
    if (is_name_start(text[j + imag]) || is_digit(text[j + imag])) {
        return ck_set_error(CK_ERR_PARSE,
                            "expression: unexpected '%c' after the number at column %zu",
                            text[j + imag], i + 1);
    }
    t->start = i;
    t->len = j + imag - i;
    t->column = (int)i + 1;
    if (is_float || imag) {
        const char *end = NULL;
        t->kind = imag ? TOK_IMAG : TOK_FLOAT;
        t->fval = ck__strtod_c(text + i, &end);
        if (end != text + j) {
            return ck_set_error(CK_ERR_PARSE, "expression: cannot read the number at column %zu",
                                i + 1);
        }
        if (t->fval - t->fval != 0) { /* inf: the text overflowed float64 */
            return ck_set_error(CK_ERR_PARSE,
                                "expression: the number at column %zu is out of the range of "
                                "float64",
                                i + 1);
        }
    } else {
        t->kind = TOK_INT;
        t->ival = v;
        if (overflow) {
            return ck_set_error(CK_ERR_PARSE,
                                "expression: the integer at column %zu does not fit in 64 bits",
                                i + 1);
        }
    }
    return CK_OK;
}

static int lex(parser *p) {
    const char *text = p->text;
    const size_t n = strlen(text);
    /* At most one token per byte, and the end. */
    size_t cap;
    if (ck__mul_overflow(n + 1, sizeof(tok), &cap)) {
        return ck__nomem_error("expression of %zu bytes: too long", n);
    }
    p->toks = (tok *)ck__malloc(cap);
    if (p->toks == NULL) {
        return ck__nomem_error("out of memory reading an expression of %zu bytes", n);
    }
    size_t i = 0;
    for (;;) {
        while (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
            i++;
        }
        tok *t = &p->toks[p->ntoks];
        memset(t, 0, sizeof *t);
        t->start = i;
        t->column = (int)i + 1;
        const char c = text[i];
        if (c == '\0') {
            t->kind = TOK_END;
            p->ntoks++;
            return CK_OK;
        }
        if (i >= (size_t)INT32_MAX) {
            return ck_set_error(CK_ERR_INVALID, "expression: longer than %d bytes", INT32_MAX);
        }
        if (is_digit(c) || (c == '.' && is_digit(text[i + 1]))) {
            CK__RETURN_IF_ERROR(lex_number(text, i, t));
        } else if (is_name_start(c)) {
            size_t j = i;
            while (is_name_start(text[j]) || is_digit(text[j])) {
                j++;
            }
            t->kind = TOK_NAME;
            t->len = j - i;
        } else if (strchr("+-*/%(),<>=!&|^~.", c) != NULL) {
            static const char *const pairs[] = {"**", "//", "<<", ">>", "<=", ">=", "==", "!="};
            t->kind = TOK_PUNCT;
            t->len = 1;
            for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
                if (c == pairs[k][0] && text[i + 1] == pairs[k][1]) {
                    t->len = 2;
                }
            }
            const tok *prev = p->ntoks > 0 ? &p->toks[p->ntoks - 1] : NULL;
            const int keyword = c == '=' && t->len == 1 && prev != NULL &&
                                prev->kind == TOK_NAME && prev->len == 4 &&
                                memcmp(text + prev->start, "axis", 4) == 0;
            if (t->len == 1 && (c == '=' || c == '!') && !keyword) {
                return ck_set_error(CK_ERR_PARSE,
                                    "expression: unexpected '%c' at column %zu (comparisons are "
                                    "== and !=)",
                                    c, i + 1);
            }
        } else {
            const unsigned char u = (unsigned char)c;
            if (u >= 0x20 && u < 0x7f) {
                return ck_set_error(CK_ERR_PARSE,
                                    "expression: unexpected character '%c' at column %zu (expected "
                                    "a number, a name, an operator, '(', ')' or ',')",
                                    c, i + 1);
            }
            return ck_set_error(CK_ERR_PARSE,
                                "expression: unexpected byte 0x%02x at column %zu", u, i + 1);
        }
        i += t->len;
        p->ntoks++;
    }
}

static const tok *peek(const parser *p) {
    return &p->toks[p->pos];
}

static int is_punct(const tok *t, const parser *p, char c) {
    return t->kind == TOK_PUNCT && t->len == 1 && p->text[t->start] == c;
}

/* Whether t is the operator `sym` (one or two characters). */
static int is_op(const tok *t, const parser *p, const char *sym) {
    const size_t n = strlen(sym);
    return t->kind == TOK_PUNCT && t->len == n && memcmp(p->text + t->start, sym, n) == 0;
}

static int is_name(const tok *t, const parser *p, const char *name) {
    const size_t n = strlen(name);
    return t->kind == TOK_NAME && t->len == n && memcmp(p->text + t->start, name, n) == 0;
}

static int new_node(parser *p, ck__expr_kind kind, int column, int *out) {
    /* Every node takes a token of its own (a number, a name, an operator) but the '&' of a
     * comparison chain, which shares its comparison's: 2 * ntoks bounds them, and a failure
     * here is a bug. */
    if ((size_t)p->nnodes >= 2 * p->ntoks) {
        return ck_set_error(CK_ERR_INTERNAL, "expression: more nodes than tokens");
    }
    ck__expr_node *nd = &p->nodes[p->nnodes];
    memset(nd, 0, sizeof *nd);
    nd->kind = kind;
    nd->column = column;
    nd->arg = -1;
    *out = p->nnodes++;
    return CK_OK;
}

/* A literal of the type Python gives the number: int64 (uint64 beyond int64, as
 * np.asarray makes such an int), float64, complex128; True and False are bool, inf and nan
 * float64. Beside arrays, selection types it by value (expr_types.c). */
static int literal(parser *p, const tok *t, int negative, int column, int *out) {
    CK__RETURN_IF_ERROR(new_node(p, CK__EXPR_LIT, column, out));
    ck__expr_node *nd = &p->nodes[*out];
    if (t->kind == TOK_NAME) { /* True, False, inf, nan */
        const char first = p->text[t->start];
        if (first == 'T' || first == 'F') {
            nd->type = CK_TYPE_BOOL;
            nd->value[0] = first == 'T';
            return CK_OK;
        }
        const double v = first == 'i' ? (negative ? -HUGE_VAL : HUGE_VAL) : (double)NAN;
        nd->type = CK_TYPE_FLOAT64;
        memcpy(nd->value, &v, sizeof v);
        return CK_OK;
    }
    if (t->kind == TOK_FLOAT) {
        const double v = negative ? -t->fval : t->fval;
        nd->type = CK_TYPE_FLOAT64;
        memcpy(nd->value, &v, sizeof v);
        return CK_OK;
    }
    if (t->kind == TOK_IMAG) {
        /* -2j is Python's -(0+2j): a real part of -0.0 */
        const double v[2] = {negative ? -0.0 : 0.0, negative ? -t->fval : t->fval};
        nd->type = CK_TYPE_COMPLEX128;
        memcpy(nd->value, v, sizeof v);
        return CK_OK;
    }
    if (!negative && t->ival > (uint64_t)INT64_MAX) {
        nd->type = CK_TYPE_UINT64;
        memcpy(nd->value, &t->ival, sizeof t->ival);
        return CK_OK;
    }
    if (negative && t->ival > (uint64_t)1 << 63) {
        return ck_set_error(CK_ERR_PARSE,
                            "expression: the integer at column %d does not fit in int64 (write "
                            "it with a point for a float64)",
                            t->column);
    }
    /* Two's complement of the magnitude: exact down to INT64_MIN. */
    const int64_t v = negative ? (int64_t)(0 - t->ival) : (int64_t)t->ival;
    nd->type = CK_TYPE_INT64;
    memcpy(nd->value, &v, sizeof v);
    return CK_OK;
}

/* Whether t is a literal's token: a number, True, False, inf or nan. */
static int is_literal(const parser *p, const tok *t) {
    return t->kind == TOK_INT || t->kind == TOK_FLOAT || t->kind == TOK_IMAG ||
           is_name(t, p, "True") || is_name(t, p, "False") || is_name(t, p, "inf") ||
           is_name(t, p, "nan");
}

/* The scalar type named by the token (a cast), or -1. */
static int cast_type(const parser *p, const tok *t) {
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; id++) {
        const char *name = ck_type_id_name((ck_type_id)id);
        if (strlen(name) == t->len && memcmp(name, p->text + t->start, t->len) == 0) {
            return id;
        }
    }
    return -1;
}

/* A call node of `name` over operands ops[0..n-1] (callable NULL: unknown, listed later). */
static int call_node(parser *p, ck__expr_kind kind, int column, const char *op, ck_callable *c,
                     ck_type_id type, const int *ops, int n, int *out) {
    int rc = new_node(p, kind, column, out);
    if (rc != CK_OK) {
        ck_callable_decref(c);
        return rc;
    }
    ck__expr_node *nd = &p->nodes[*out];
    nd->op = op;
    nd->callable = c;
    nd->type = type;
    nd->nops = n;
    nd->first = p->noperands;
    memcpy(p->operands + p->noperands, ops, (size_t)n * sizeof *ops);
    p->noperands += n;
    return CK_OK;
}

/* The callable of an operator, or of a name called; an unknown name is noted for the list. */
static int lookup(parser *p, const char *name, size_t len, int column, ck_callable **out) {
    char buf[64];
    *out = NULL;
    if (len < sizeof buf) {
        memcpy(buf, name, len);
        buf[len] = '\0';
        const int rc = ck_lookup(buf, out);
        if (rc != CK_ERR_TYPE) {
            return rc; /* found, or the registry failed (its built-ins: out of memory) */
        }
    }
    ck__strbuf_printf(&p->unknown, "%s'%.*s' at column %d", p->nunknown > 0 ? ", " : "",
                      len > 64 ? 64 : (int)len, name, column);
    p->nunknown++;
    return p->unknown.status;
}

static int parse_compare(parser *p, int *out);

/* The reductions an expression names (numexpr's): each folds with its callable. */
static const char *const reductions[][2] = {{"sum", "add"},         {"prod", "multiply"},
                                             {"min", "minimum"},     {"max", "maximum"},
                                             {"any", "logical_or"}, {"all", "logical_and"}};

static int reduction_index(const parser *p, const tok *t) {
    for (int i = 0; i < (int)(sizeof reductions / sizeof reductions[0]); i++) {
        if (is_name(t, p, reductions[i][0])) {
            return i;
        }
    }
    return -1;
}

/* One axis: an integer literal, maybe negative, into *axis. */
static int parse_axis(parser *p, int *axis) {
    const tok *t = peek(p);
    const int negative = is_op(t, p, "-");
    if (negative) {
        p->pos++;
        t = peek(p);
    }
    if (t->kind != TOK_INT) {
        return syntax_error(p, t, "an axis (an integer)");
    }
    if (t->ival > 63) {
        return ck_set_error(CK_ERR_INVALID, "expression: axis %s%" PRIu64 " at column %d is "
                            "out of range (arrays have at most 64 dimensions)",
                            negative ? "-" : "", t->ival, t->column);
    }
    *axis = negative ? -(int)t->ival : (int)t->ival;
    p->pos++;
    return CK_OK;
}

/* After a reduction's operand and ',': `axis=` (optional), then an axis, or a parenthesized
 * tuple of them (`()` reduces nothing, as NumPy's axis=()), or None (every axis). */
static int parse_axes(parser *p, int column, ck__expr_node *nd) {
    if (is_name(peek(p), p, "axis") && is_punct(&p->toks[p->pos + 1], p, '=')) {
        p->pos += 2;
    }
    if (is_name(peek(p), p, "None")) {
        p->pos++;
        nd->naxes = -1;
        return CK_OK;
    }
    int axes[CK_CALL_MAX_ARGS];
    int n = 0;
    if (!is_punct(peek(p), p, '(')) {
        CK__RETURN_IF_ERROR(parse_axis(p, &axes[n++]));
    } else {
        p->pos++;
        while (!is_punct(peek(p), p, ')')) {
            if (n == CK_CALL_MAX_ARGS) {
                return ck_set_error(CK_ERR_INVALID, "expression: the reduction at column %d "
                                    "names more than %d axes", column, CK_CALL_MAX_ARGS);
            }
            CK__RETURN_IF_ERROR(parse_axis(p, &axes[n++]));
            if (is_punct(peek(p), p, ',')) {
                p->pos++;
            } else if (!is_punct(peek(p), p, ')')) {
                return syntax_error(p, peek(p), "',' or ')' in the tuple of axes");
            }
        }
        p->pos++;
    }
    nd->naxes = n;
    for (int k = 0; k < n; k++) {
        nd->value[k] = (unsigned char)(signed char)axes[k];
    }
    return CK_OK;
}

/* sum(x), sum(x, axis=1), sum(x, (0, 1)), ...: a reduction node. */
static int parse_reduction(parser *p, const tok *name, int which, int *out) {
    ck_callable *c = NULL;
    CK__RETURN_IF_ERROR(ck_reduction_lookup(reductions[which][0], &c));
    p->pos++; /* '(' */
    int op = -1;
    int rc = parse_compare(p, &op);
    ck__expr_node axes_of;
    memset(&axes_of, 0, sizeof axes_of);
    axes_of.naxes = -1;
    if (rc == CK_OK && is_punct(peek(p), p, ',')) {
        p->pos++;
        rc = parse_axes(p, name->column, &axes_of);
    }
    if (rc == CK_OK && !is_punct(peek(p), p, ')')) {
        rc = syntax_error(p, peek(p), is_punct(peek(p), p, ',')
                                          ? "')' (a reduction takes one operand and its axes)"
                                          : "',' or ')'");
    }
    if (rc != CK_OK) {
        ck_callable_decref(c);
        return rc;
    }
    p->pos++; /* ')' */
    CK__RETURN_IF_ERROR(call_node(p, CK__EXPR_REDUCE, name->column, reductions[which][0], c,
                                  CK_TYPE_BOOL, &op, 1, out));
    ck__expr_node *nd = &p->nodes[*out];
    nd->naxes = axes_of.naxes;
    memcpy(nd->value, axes_of.value, sizeof nd->value);
    return CK_OK;
}

static int parse_call(parser *p, const tok *name, int *out) {
    const int which = reduction_index(p, name);
    if (which >= 0) {
        return parse_reduction(p, name, which, out);
    }
    const int cast = cast_type(p, name);
    ck_callable *c = NULL;
    if (cast < 0) {
        CK__RETURN_IF_ERROR(lookup(p, p->text + name->start, name->len, name->column, &c));
    }
    p->pos++; /* '(' */
    int ops[CK_CALL_MAX_ARGS];
    int n = 0;
    int rc = CK_OK;
    if (!is_punct(peek(p), p, ')')) {
        for (;;) {
            if (n == CK_CALL_MAX_ARGS) {
                rc = ck_set_error(CK_ERR_PARSE,
                                  "expression: the call at column %d has more than %d arguments",
                                  name->column, CK_CALL_MAX_ARGS);
                break;
            }
            rc = parse_compare(p, &ops[n]);
            if (rc != CK_OK) {
                break;
            }
            n++;
            if (is_punct(peek(p), p, ',')) {
                p->pos++;
                continue;
            }
            if (!is_punct(peek(p), p, ')')) {
                rc = syntax_error(p, peek(p), "',' or ')'");
            }
            break;
        }
    }
    if (rc == CK_OK && cast >= 0 && n != 1) {
        rc = ck_set_error(CK_ERR_PARSE,
                          "expression: the cast %s(...) at column %d takes one argument, not %d",
                          ck_type_id_name((ck_type_id)cast), name->column, n);
    }
    if (rc != CK_OK) {
        ck_callable_decref(c);
        return rc;
    }
    p->pos++; /* ')' */
    return call_node(p, cast >= 0 ? CK__EXPR_CAST : CK__EXPR_CALL, name->column, NULL, c,
                     cast >= 0 ? (ck_type_id)cast : CK_TYPE_BOOL, ops, n, out);
}

static int parse_argument(parser *p, const tok *t, int *out) {
    for (int i = 0; i < p->nnames; i++) {
        if (p->name_len[i] == t->len &&
            memcmp(p->text + p->name_start[i], p->text + t->start, t->len) == 0) {
            *out = p->arg_node[i];
            return CK_OK;
        }
    }
    if (p->nnames == CK_CALL_MAX_ARGS) {
        return ck_set_error(CK_ERR_INVALID,
                            "expression: more than %d argument names (the name at column %d)",
                            CK_CALL_MAX_ARGS, t->column);
    }
    CK__RETURN_IF_ERROR(new_node(p, CK__EXPR_ARG, t->column, out));
    p->nodes[*out].arg = p->nnames;
    p->name_start[p->nnames] = t->start;
    p->name_len[p->nnames] = t->len;
    p->arg_node[p->nnames] = *out;
    p->nnames++;
    return CK_OK;
}

static int parse_unary(parser *p, int *out);

static int parse_primary(parser *p, int *out) {
    const tok *t = peek(p);
    if (is_literal(p, t)) {
        p->pos++;
        return literal(p, t, 0, t->column, out);
    }
    if (t->kind == TOK_NAME) {
        p->pos++;
        if (is_punct(peek(p), p, '(')) {
            return parse_call(p, t, out);
        }
        return parse_argument(p, t, out);
    }
    if (is_punct(t, p, '(')) {
        p->pos++;
        CK__RETURN_IF_ERROR(parse_compare(p, out));
        if (!is_punct(peek(p), p, ')')) {
            char expected[80];
            snprintf(expected, sizeof expected, "an operator or ')' (closing the '(' at "
                                                "column %d)", t->column);
            return syntax_error(p, peek(p), expected);
        }
        p->pos++;
        return CK_OK;
    }
    return syntax_error(p, t, "a number, a name or '('");
}

/* A call node of the callable `name` over ops[0 .. n-1], for an operator at t. */
static int op_node(parser *p, const tok *t, const char *sym, const char *name, const int *ops,
                   int n, int *out) {
    ck_callable *c = NULL;
    CK__RETURN_IF_ERROR(lookup(p, name, strlen(name), t->column, &c));
    return call_node(p, CK__EXPR_CALL, t->column, sym, c, CK_TYPE_BOOL, ops, n, out);
}

/* primary ('.real' | '.imag')* */
static int parse_postfix(parser *p, int *out) {
    CK__RETURN_IF_ERROR(parse_primary(p, out));
    while (is_punct(peek(p), p, '.')) {
        const tok *dot = peek(p);
        p->pos++;
        const tok *t = peek(p);
        const int real = is_name(t, p, "real");
        if (!real && !is_name(t, p, "imag")) {
            return syntax_error(p, t, "the attribute real or imag after '.'");
        }
        p->pos++;
        const int op = *out;
        CK__RETURN_IF_ERROR(op_node(p, dot, real ? ".real" : ".imag", real ? "real" : "imag",
                                    &op, 1, out));
    }
    return CK_OK;
}

/* postfix ['**' unary]: right-associative (its exponent is a unary, so 2 ** -1 and
 * a ** b ** c read as Python reads them). */
static int parse_power(parser *p, int *out) {
    CK__RETURN_IF_ERROR(parse_postfix(p, out));
    const tok *t = peek(p);
    if (!is_op(t, p, "**")) {
        return CK_OK;
    }
    p->pos++;
    int ops[2] = {*out, -1};
    CK__RETURN_IF_ERROR(parse_unary(p, &ops[1]));
    return op_node(p, t, "**", "power", ops, 2, out);
}

/* Every level of nesting (parentheses, a call's arguments, a unary operator, an exponent)
 * passes here once: the depth is counted here. */
static int parse_unary(parser *p, int *out) {
    if (++p->depth > CK__EXPR_MAX_DEPTH) {
        return ck_set_error(CK_ERR_PARSE, "expression: nested more than %d levels deep at column %d",
                            CK__EXPR_MAX_DEPTH, peek(p)->column);
    }
    int rc;
    const tok *t = peek(p);
    const int minus = is_punct(t, p, '-'), plus = is_punct(t, p, '+'), invert = is_punct(t, p, '~');
    if (minus || plus || invert) {
        p->pos++;
        const tok *next = peek(p);
        const int numeric = next->kind == TOK_INT || next->kind == TOK_FLOAT ||
                            next->kind == TOK_IMAG || is_name(next, p, "inf");
        if (minus && numeric && !is_op(&p->toks[p->pos + 1], p, "**") &&
            !is_punct(&p->toks[p->pos + 1], p, '.')) {
            p->pos++;
            rc = literal(p, next, 1, t->column, out);
        } else {
            int op;
            rc = parse_unary(p, &op);
            if (rc == CK_OK) {
                rc = op_node(p, t, minus ? "-" : plus ? "+" : "~",
                             minus ? "negative" : plus ? "positive" : "invert", &op, 1, out);
            }
        }
    } else {
        rc = parse_power(p, out);
    }
    p->depth--;
    return rc;
}

/* One level of left-associative binary operators: syms[k] calls names[k]. */
typedef int (*parse_fn)(parser *p, int *out);
static int parse_level(parser *p, parse_fn operand, const char *const *syms,
                       const char *const *names, int *out) {
    CK__RETURN_IF_ERROR(operand(p, out));
    for (;;) {
        const tok *t = peek(p);
        int k = 0;
        while (syms[k] != NULL && !is_op(t, p, syms[k])) {
            k++;
        }
        if (syms[k] == NULL) {
            return CK_OK;
        }
        p->pos++;
        int ops[2] = {*out, -1};
        CK__RETURN_IF_ERROR(operand(p, &ops[1]));
        CK__RETURN_IF_ERROR(op_node(p, t, syms[k], names[k], ops, 2, out));
    }
}

static int parse_product(parser *p, int *out) {
    static const char *const syms[] = {"*", "/", "//", "%", NULL};
    static const char *const names[] = {"multiply", "divide", "floor_divide", "remainder"};
    return parse_level(p, parse_unary, syms, names, out);
}
static int parse_sum(parser *p, int *out) {
    static const char *const syms[] = {"+", "-", NULL};
    static const char *const names[] = {"add", "subtract"};
    return parse_level(p, parse_product, syms, names, out);
}
static int parse_shift(parser *p, int *out) {
    static const char *const syms[] = {"<<", ">>", NULL};
    static const char *const names[] = {"left_shift", "right_shift"};
    return parse_level(p, parse_sum, syms, names, out);
}
static int parse_bitand(parser *p, int *out) {
    static const char *const syms[] = {"&", NULL};
    static const char *const names[] = {"bitwise_and"};
    return parse_level(p, parse_shift, syms, names, out);
}
static int parse_bitxor(parser *p, int *out) {
    static const char *const syms[] = {"^", NULL};
    static const char *const names[] = {"bitwise_xor"};
    return parse_level(p, parse_bitand, syms, names, out);
}
static int parse_bitor(parser *p, int *out) {
    static const char *const syms[] = {"|", NULL};
    static const char *const names[] = {"bitwise_or"};
    return parse_level(p, parse_bitxor, syms, names, out);
}

/* bitor (cmp bitor)*: a chain a < b <= c is (a < b) & (b <= c), each operand evaluated once
 * (the middle ones are read by two comparisons). */
static int parse_compare(parser *p, int *out) {
    static const char *const syms[] = {"<", "<=", "==", "!=", ">=", ">", NULL};
    static const char *const names[] = {"less", "less_equal", "equal", "not_equal",
                                        "greater_equal", "greater"};
    int lhs;
    CK__RETURN_IF_ERROR(parse_bitor(p, &lhs));
    int chain = -1;
    for (;;) {
        const tok *t = peek(p);
        int k = 0;
        while (syms[k] != NULL && !is_op(t, p, syms[k])) {
            k++;
        }
        if (syms[k] == NULL) {
            break;
        }
        p->pos++;
        int ops[2] = {lhs, -1}, cmp;
        CK__RETURN_IF_ERROR(parse_bitor(p, &ops[1]));
        CK__RETURN_IF_ERROR(op_node(p, t, syms[k], names[k], ops, 2, &cmp));
        if (chain >= 0) {
            const int both[2] = {chain, cmp};
            CK__RETURN_IF_ERROR(op_node(p, t, "&", "bitwise_and", both, 2, &cmp));
        }
        chain = cmp;
        lhs = ops[1];
    }
    *out = chain >= 0 ? chain : lhs;
    return CK_OK;
}

static void release_nodes(ck__expr_node *nodes, int n) {
    for (int i = 0; i < n; i++) {
        ck_callable_decref(nodes[i].callable);
    }
}

/* The parsed nodes, operands and names moved into one block: the expression. */
static int finish(parser *p, ck_expr **out) {
    size_t names = 0;
    for (int i = 0; i < p->nnames; i++) {
        names += p->name_len[i] + 1;
    }
    const size_t head = CK_ALIGN_OFFSET(sizeof(ck_expr));
    const size_t nodes_at = (head + 15) & ~(size_t)15;
    const size_t ops_at = nodes_at + (size_t)p->nnodes * sizeof(ck__expr_node);
    const size_t names_at = ops_at + (size_t)p->noperands * sizeof(int);
    ck_expr *e = (ck_expr *)ck__malloc(names_at + names);
    if (e == NULL) {
        return ck__nomem_error("out of memory holding an expression of %d nodes", p->nnodes);
    }
    char *base = (char *)e;
    atomic_init(&e->refs, 1);
    e->nnodes = p->nnodes;
    e->nnames = p->nnames;
    e->nodes = (ck__expr_node *)(void *)(base + nodes_at);
    e->operands = (int *)(void *)(base + ops_at);
    memcpy(e->nodes, p->nodes, (size_t)p->nnodes * sizeof(ck__expr_node));
    memcpy(e->operands, p->operands, (size_t)p->noperands * sizeof(int));
    char *s = base + names_at;
    for (int i = 0; i < p->nnames; i++) {
        memcpy(s, p->text + p->name_start[i], p->name_len[i]);
        s[p->name_len[i]] = '\0';
        e->names[i] = s;
        s += p->name_len[i] + 1;
    }
    p->nnodes = 0; /* the expression owns the callables now */
    *out = e;
    return CK_OK;
}

int ck_expr_parse(const char *text, ck_expr **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_expr_parse: NULL out");
    }
    *out = NULL;
    if (text == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_expr_parse: NULL text");
    }
    parser p;
    memset(&p, 0, sizeof p);
    p.text = text;
    int rc = lex(&p);
    if (rc == CK_OK) {
        /* Nodes and operands: at most two per token (new_node, and a call's operands are
         * nodes). */
        size_t bytes;
        if (ck__mul_overflow(2 * p.ntoks, sizeof(ck__expr_node) + 2 * sizeof(int), &bytes)) {
            rc = ck__nomem_error("expression of %zu tokens: too long", p.ntoks);
        } else {
            p.nodes = (ck__expr_node *)ck__malloc(bytes);
            rc = p.nodes == NULL
                     ? ck__nomem_error("out of memory parsing an expression of %zu tokens",
                                       p.ntoks)
                     : CK_OK;
            p.operands = p.nodes != NULL ? (int *)(void *)(p.nodes + 2 * p.ntoks) : NULL;
        }
    }
    int root = -1;
    if (rc == CK_OK) {
        rc = parse_compare(&p, &root);
    }
    if (rc == CK_OK && peek(&p)->kind != TOK_END) {
        rc = syntax_error(&p, peek(&p), "an operator or the end");
    }
    if (rc == CK_OK && p.unknown.status != CK_OK) {
        rc = ck__nomem_error("out of memory listing unknown names");
    }
    if (rc == CK_OK && p.nunknown > 0) {
        rc = ck_set_error(CK_ERR_TYPE,
                          "expression: no callable named %s (ckernel callables lists them)",
                          p.unknown.s);
    }
    if (rc == CK_OK && root != p.nnodes - 1) {
        rc = ck_set_error(CK_ERR_INTERNAL, "expression: the root is node %d of %d", root,
                          p.nnodes);
    }
    if (rc == CK_OK) {
        rc = finish(&p, out);
    }
    if (p.nodes != NULL) {
        release_nodes(p.nodes, p.nnodes);
    }
    ck__strbuf_free(&p.unknown);
    ck__free(p.nodes);
    ck__free(p.toks);
    return rc;
}

int ck_expr_bind(const ck_expr *e, int n, const char *const *names,
                 const ck_array *const *values, ck_expr **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_expr_bind: NULL out");
    }
    *out = NULL;
    if (e == NULL || n < 0 || (n > 0 && (names == NULL || values == NULL))) {
        return ck_set_error(CK_ERR_INVALID, "ck_expr_bind: NULL expression, names or values");
    }
    int bound[CK_CALL_MAX_ARGS] = {0};
    const ck_array *value_of[CK_CALL_MAX_ARGS] = {NULL};
    for (int k = 0; k < n; k++) {
        int j = 0;
        while (j < e->nnames && (names[k] == NULL || strcmp(names[k], e->names[j]) != 0)) {
            j++;
        }
        if (j == e->nnames) {
            return ck_set_error(CK_ERR_INVALID, "ck_expr_bind: the expression has no argument "
                                "named '%.64s'", names[k] != NULL ? names[k] : "(NULL)");
        }
        const ck_type *t = values[k] != NULL ? ck_array_type(values[k]) : NULL;
        if (t == NULL || !ck_type_is_scalar(t) || (int)ck_type_get_id(t) >= CK_NUM_SCALAR_TYPES) {
            return ck_set_error(CK_ERR_TYPE, "ck_expr_bind: '%s' is bound to a value that is "
                                "not one number (a 0-d array of a bool, integer, float or "
                                "complex type)", e->names[j]);
        }
        bound[j] = 1;
        value_of[j] = values[k];
    }
    int renumber[CK_CALL_MAX_ARGS], left = 0;
    size_t name_bytes = 0;
    for (int j = 0; j < e->nnames; j++) {
        renumber[j] = bound[j] ? -1 : left++;
        name_bytes += bound[j] ? 0 : strlen(e->names[j]) + 1;
    }
    int noperands = 0;
    for (int i = 0; i < e->nnodes; i++) {
        const int end = e->nodes[i].first + e->nodes[i].nops;
        noperands = end > noperands ? end : noperands;
    }
    const size_t head = CK_ALIGN_OFFSET(sizeof(ck_expr));
    const size_t nodes_at = (head + 15) & ~(size_t)15;
    const size_t ops_at = nodes_at + (size_t)e->nnodes * sizeof(ck__expr_node);
    const size_t names_at = ops_at + (size_t)noperands * sizeof(int);
    ck_expr *b = (ck_expr *)ck__malloc(names_at + name_bytes);
    if (b == NULL) {
        return ck__nomem_error("out of memory binding an expression of %d nodes", e->nnodes);
    }
    char *base = (char *)b;
    atomic_init(&b->refs, 1);
    b->nnodes = e->nnodes;
    b->nnames = left;
    b->nodes = (ck__expr_node *)(void *)(base + nodes_at);
    b->operands = (int *)(void *)(base + ops_at);
    memcpy(b->nodes, e->nodes, (size_t)e->nnodes * sizeof(ck__expr_node));
    memcpy(b->operands, e->operands, (size_t)noperands * sizeof(int));
    char *s = base + names_at;
    for (int j = 0; j < e->nnames; j++) {
        if (!bound[j]) {
            const size_t len = strlen(e->names[j]);
            memcpy(s, e->names[j], len + 1);
            b->names[renumber[j]] = s;
            s += len + 1;
        }
    }
    for (int i = 0; i < b->nnodes; i++) {
        ck__expr_node *nd = &b->nodes[i];
        ck_callable_incref(nd->callable);
        if (nd->kind != CK__EXPR_ARG) {
            continue;
        }
        if (!bound[nd->arg]) {
            nd->arg = renumber[nd->arg];
            continue;
        }
        /* The argument becomes a constant of its value's own type, typed by value beside
         * arrays as NumPy types a 0-d array (expr_types.c). */
        const ck_array *v = value_of[nd->arg];
        const ck_type *t = ck_array_type(v);
        nd->kind = CK__EXPR_LIT;
        nd->type = ck_type_get_id(t);
        nd->arg = 0;
        memset(nd->value, 0, sizeof nd->value);
        memcpy(nd->value, ck_array_data(v), ck_type_data_size(t));
    }
    *out = b;
    return CK_OK;
}

void ck_expr_incref(ck_expr *e) {
    if (e != NULL) {
        atomic_fetch_add_explicit(&e->refs, 1, memory_order_relaxed);
    }
}

void ck_expr_decref(ck_expr *e) {
    if (e == NULL || atomic_fetch_sub_explicit(&e->refs, 1, memory_order_acq_rel) != 1) {
        return;
    }
    release_nodes(e->nodes, e->nnodes);
    ck__free(e);
}

int ck_expr_nargs(const ck_expr *e) {
    return e != NULL ? e->nnames : 0;
}

const char *ck_expr_arg_name(const ck_expr *e, int i) {
    return e != NULL && i >= 0 && i < e->nnames ? e->names[i] : NULL;
}

/* ---- the printed form ---- */

static void format_node(const ck_expr *e, int i, ck__strbuf *b) {
    const ck__expr_node *nd = &e->nodes[i];
    const int *ops = e->operands + nd->first;
    switch (nd->kind) {
    case CK__EXPR_ARG: ck__strbuf_puts(b, e->names[nd->arg]); return;
    case CK__EXPR_LIT: {
        char text[96];
        double v[2] = {0, 0};
        memcpy(v, nd->value, sizeof v);
        switch (nd->type) {
        case CK_TYPE_BOOL: snprintf(text, sizeof text, "%s", nd->value[0] ? "True" : "False"); break;
        case CK_TYPE_FLOAT64: ck__format_float(v[0], CK__F64, 1, text); break;
        case CK_TYPE_COMPLEX128: {
            char re[40], im[40];
            ck__format_float(v[0], CK__F64, 1, re);
            ck__format_float(v[1], CK__F64, 1, im);
            snprintf(text, sizeof text, "(%s%s%sj)", re, v[1] < 0 || v[1] != v[1] ? "" : "+", im);
            break;
        }
        case CK_TYPE_UINT64: {
            uint64_t u;
            memcpy(&u, nd->value, sizeof u);
            snprintf(text, sizeof text, "%" PRIu64, u);
            break;
        }
        case CK_TYPE_INT64: {
            int64_t n;
            memcpy(&n, nd->value, sizeof n);
            snprintf(text, sizeof text, "%" PRId64, n);
            break;
        }
        default: /* a bound value of another type (ck_expr_bind) */
            if (ck__scalar_is_complex(nd->type)) {
                ck__format_bool_complex((int)nd->type, (const char *)nd->value, text);
            } else {
                ck__format_number((int)nd->type, (const char *)nd->value, 1, text);
            }
            break;
        }
        ck__strbuf_printf(b, "%s:%s", text, ck_type_id_name(nd->type));
        return;
    }
    case CK__EXPR_REDUCE:
        ck__strbuf_printf(b, "%s(", nd->op);
        format_node(e, ops[0], b);
        if (nd->naxes >= 0) {
            ck__strbuf_puts(b, ", axis=(");
            for (int k = 0; k < nd->naxes; k++) {
                ck__strbuf_printf(b, "%s%d", k > 0 ? ", " : "", (int)(signed char)nd->value[k]);
            }
            ck__strbuf_puts(b, nd->naxes == 1 ? ",)" : ")");
        }
        ck__strbuf_puts(b, ")");
        return;
    case CK__EXPR_CAST:
    case CK__EXPR_CALL:
        if (nd->op != NULL && nd->op[0] == '.') { /* x.real */
            format_node(e, ops[0], b);
            ck__strbuf_puts(b, nd->op);
            return;
        }
        if (nd->op != NULL && nd->nops == 1) {
            ck__strbuf_printf(b, "(%s", nd->op);
            format_node(e, ops[0], b);
            ck__strbuf_puts(b, ")");
            return;
        }
        if (nd->op != NULL) {
            ck__strbuf_puts(b, "(");
            format_node(e, ops[0], b);
            ck__strbuf_printf(b, " %s ", nd->op);
            format_node(e, ops[1], b);
            ck__strbuf_puts(b, ")");
            return;
        }
        ck__strbuf_printf(b, "%s(", nd->kind == CK__EXPR_CAST ? ck_type_id_name(nd->type)
                                                             : ck_callable_name(nd->callable));
        for (int k = 0; k < nd->nops; k++) {
            if (k > 0) ck__strbuf_puts(b, ", ");
            format_node(e, ops[k], b);
        }
        ck__strbuf_puts(b, ")");
        return;
    }
}

int ck_expr_format(const ck_expr *e, char **out) {
    if (e == NULL || out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_expr_format: NULL argument");
    }
    ck__strbuf b = CK__STRBUF_INIT;
    format_node(e, e->nnodes - 1, &b);
    return ck__strbuf_finish(&b, out);
}
