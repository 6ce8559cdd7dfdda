/* src/expr/expr_parse.c: the expression text into an immutable DAG (expr_internal.h): a lexer,
 * a recursive-descent parser over
 *     sum     := product (('+' | '-') product)*
 *     product := unary (('*' | '/') unary)*
 *     unary   := '-' unary | primary          ('-' right before a number is part of it)
 *     primary := NUMBER | NAME | NAME '(' [sum (',' sum)*] ')' | '(' sum ')'
 * literal typing, callable lookup (unknown names collected and listed together), the
 * expression's reference counting, its queries and its printed form. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "expr/expr_internal.h"
#include "values/numtext.h"

typedef enum tok_kind { TOK_END, TOK_INT, TOK_FLOAT, TOK_NAME, TOK_PUNCT } tok_kind;

typedef struct tok {
    tok_kind kind;
    int column;     /* 1-based */
    size_t start, len; /* in the text */
    uint64_t ival;  /* TOK_INT */
    double fval;    /* TOK_FLOAT */
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
    case TOK_PUNCT: snprintf(buf, cap, "'%c'", p->text[t->start]); break;
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
    if (is_name_start(text[j]) || is_digit(text[j])) {
        return ck_set_error(CK_ERR_PARSE,
                            "expression: unexpected '%c' after the number at column %zu",
                            text[j], i + 1);
    }
    t->start = i;
    t->len = j - i;
    t->column = (int)i + 1;
    if (is_float) {
        const char *end = NULL;
        t->kind = TOK_FLOAT;
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
        } else if (strchr("+-*/(),", c) != NULL) {
            t->kind = TOK_PUNCT;
            t->len = 1;
        } else {
            const unsigned char u = (unsigned char)c;
            if (u >= 0x20 && u < 0x7f) {
                return ck_set_error(CK_ERR_PARSE,
                                    "expression: unexpected character '%c' at column %zu (expected "
                                    "a number, a name, an operator + - * /, '(', ')' or ',')",
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
    return t->kind == TOK_PUNCT && p->text[t->start] == c;
}

static int new_node(parser *p, ck__expr_kind kind, int column, int *out) {
    /* Every node takes a token of its own (a number, a name, an operator), so ntoks bounds
     * them: a failure here is a bug. */
    if ((size_t)p->nnodes >= p->ntoks) {
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

/* A literal of the smallest type that holds it: int8..int64 for integers, float64 else. */
static int literal(parser *p, const tok *t, int negative, int column, int *out) {
    CK__RETURN_IF_ERROR(new_node(p, CK__EXPR_LIT, column, out));
    ck__expr_node *nd = &p->nodes[*out];
    if (t->kind == TOK_FLOAT) {
        const double v = negative ? -t->fval : t->fval;
        nd->type = CK_TYPE_FLOAT64;
        memcpy(nd->value, &v, sizeof v);
        return CK_OK;
    }
    const uint64_t limit = negative ? (uint64_t)1 << 63 : (uint64_t)INT64_MAX;
    if (t->ival > limit) {
        return ck_set_error(CK_ERR_PARSE,
                            "expression: the integer at column %d does not fit in int64 (write "
                            "it with a point for a float64, or cast it: uint64(...))",
                            t->column);
    }
    /* Two's complement of the magnitude: exact down to INT64_MIN. */
    const int64_t v = negative ? (int64_t)(0 - t->ival) : (int64_t)t->ival;
    if (v >= INT8_MIN && v <= INT8_MAX) {
        const int8_t x = (int8_t)v;
        nd->type = CK_TYPE_INT8;
        memcpy(nd->value, &x, sizeof x);
    } else if (v >= INT16_MIN && v <= INT16_MAX) {
        const int16_t x = (int16_t)v;
        nd->type = CK_TYPE_INT16;
        memcpy(nd->value, &x, sizeof x);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
        const int32_t x = (int32_t)v;
        nd->type = CK_TYPE_INT32;
        memcpy(nd->value, &x, sizeof x);
    } else {
        nd->type = CK_TYPE_INT64;
        memcpy(nd->value, &v, sizeof v);
    }
    return CK_OK;
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
static int call_node(parser *p, ck__expr_kind kind, int column, char op, ck_callable *c,
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

static int parse_sum(parser *p, int *out);

static int parse_call(parser *p, const tok *name, int *out) {
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
            rc = parse_sum(p, &ops[n]);
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
    return call_node(p, cast >= 0 ? CK__EXPR_CAST : CK__EXPR_CALL, name->column, 0, c,
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
    if (t->kind == TOK_INT || t->kind == TOK_FLOAT) {
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
        CK__RETURN_IF_ERROR(parse_sum(p, out));
        if (!is_punct(peek(p), p, ')')) {
            char expected[80];
            snprintf(expected, sizeof expected, "an operator + - * / or ')' (closing the '(' at "
                                                "column %d)", t->column);
            return syntax_error(p, peek(p), expected);
        }
        p->pos++;
        return CK_OK;
    }
    return syntax_error(p, t, "a number, a name or '('");
}

/* Every level of nesting (parentheses, a call's arguments, a unary minus) passes here once:
 * the depth is counted here. */
static int parse_unary(parser *p, int *out) {
    if (++p->depth > CK__EXPR_MAX_DEPTH) {
        return ck_set_error(CK_ERR_PARSE, "expression: nested more than %d levels deep at column %d",
                            CK__EXPR_MAX_DEPTH, peek(p)->column);
    }
    int rc;
    const tok *t = peek(p);
    if (is_punct(t, p, '-')) {
        p->pos++;
        const tok *next = peek(p);
        if (next->kind == TOK_INT || next->kind == TOK_FLOAT) {
            p->pos++;
            rc = literal(p, next, 1, t->column, out);
        } else {
            int op;
            rc = parse_unary(p, &op);
            ck_callable *c = NULL;
            if (rc == CK_OK) rc = lookup(p, "negative", 8, t->column, &c);
            if (rc == CK_OK) rc = call_node(p, CK__EXPR_CALL, t->column, 'n', c, CK_TYPE_BOOL,
                                            &op, 1, out);
        }
    } else {
        rc = parse_primary(p, out);
    }
    p->depth--;
    return rc;
}

static int binary(parser *p, const tok *t, int lhs, int rhs, int *out) {
    const char op = p->text[t->start];
    const char *name = op == '+' ? "add" : op == '-' ? "subtract" : op == '*' ? "multiply"
                                                                              : "divide";
    ck_callable *c = NULL;
    CK__RETURN_IF_ERROR(lookup(p, name, strlen(name), t->column, &c));
    const int ops[2] = {lhs, rhs};
    return call_node(p, CK__EXPR_CALL, t->column, op, c, CK_TYPE_BOOL, ops, 2, out);
}

static int parse_product(parser *p, int *out) {
    CK__RETURN_IF_ERROR(parse_unary(p, out));
    for (;;) {
        const tok *t = peek(p);
        if (!is_punct(t, p, '*') && !is_punct(t, p, '/')) {
            return CK_OK;
        }
        p->pos++;
        int rhs;
        CK__RETURN_IF_ERROR(parse_unary(p, &rhs));
        CK__RETURN_IF_ERROR(binary(p, t, *out, rhs, out));
    }
}

static int parse_sum(parser *p, int *out) {
    int rc = parse_product(p, out);
    while (rc == CK_OK) {
        const tok *t = peek(p);
        if (!is_punct(t, p, '+') && !is_punct(t, p, '-')) {
            break;
        }
        p->pos++;
        int rhs;
        rc = parse_product(p, &rhs);
        if (rc == CK_OK) rc = binary(p, t, *out, rhs, out);
    }
    return rc;
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
        /* Nodes and operands: at most one per token. */
        size_t bytes;
        if (ck__mul_overflow(p.ntoks, sizeof(ck__expr_node) + sizeof(int), &bytes)) {
            rc = ck__nomem_error("expression of %zu tokens: too long", p.ntoks);
        } else {
            p.nodes = (ck__expr_node *)ck__malloc(bytes);
            rc = p.nodes == NULL
                     ? ck__nomem_error("out of memory parsing an expression of %zu tokens",
                                       p.ntoks)
                     : CK_OK;
            p.operands = p.nodes != NULL ? (int *)(void *)(p.nodes + p.ntoks) : NULL;
        }
    }
    int root = -1;
    if (rc == CK_OK) {
        rc = parse_sum(&p, &root);
    }
    if (rc == CK_OK && peek(&p)->kind != TOK_END) {
        rc = syntax_error(&p, peek(&p), "an operator + - * / or the end");
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
        char text[64];
        if (nd->type == CK_TYPE_FLOAT64) {
            double v;
            memcpy(&v, nd->value, sizeof v);
            ck__format_float(v, CK__F64, 1, text);
        } else {
            int64_t v = 0;
            switch (nd->type) {
            case CK_TYPE_INT8: { int8_t x; memcpy(&x, nd->value, 1); v = x; break; }
            case CK_TYPE_INT16: { int16_t x; memcpy(&x, nd->value, 2); v = x; break; }
            case CK_TYPE_INT32: { int32_t x; memcpy(&x, nd->value, 4); v = x; break; }
            default: memcpy(&v, nd->value, 8); break;
            }
            snprintf(text, sizeof text, "%" PRId64, v);
        }
        ck__strbuf_printf(b, "%s:%s", text, ck_type_id_name(nd->type));
        return;
    }
    case CK__EXPR_CAST:
    case CK__EXPR_CALL:
        if (nd->op == 'n') {
            ck__strbuf_puts(b, "(-");
            format_node(e, ops[0], b);
            ck__strbuf_puts(b, ")");
            return;
        }
        if (nd->op != 0) {
            ck__strbuf_puts(b, "(");
            format_node(e, ops[0], b);
            ck__strbuf_printf(b, " %c ", nd->op);
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
