/* tests/fuzz/fuzz_expr.c: the composition fuzzer's expression mode (inputs that start with
 * FZ_EXPR_MAGIC; docs/design.md §15). The input decodes into 1-5 arguments (a scalar type,
 * an option now and then, and a shape that broadcasts against the case's frame: scalar, a
 * row of N, a column of M * 1, the whole M * N, or ragged M * var rows of lengths the input
 * gives, rows that cross the expression kernel's chunks of 1024 included), their values, an
 * error mode and a random expression tree over them (+ - * /, unary -, minimum, maximum,
 * Python's comparisons, & | ^ ~ // % ** and where,
 * every registered function of one or two scalars by name (NumPy's ufuncs among them),
 * casts to every scalar type, integer and float literals). The tree is built as ONE kernel
 * (ck_expr_eval_new: the composed `expr` leaf, or the JIT's loop where it compiles the
 * expression) and held against the same tree evaluated node by node with ck_call_new (and
 * ck_assign for casts) into full temporaries:
 *   - both succeed, with the same result type and the same bytes (fixed shapes) or the same
 *     text (ragged ones: their rows live in arenas);
 *   - or both fail (the status may differ: the kernel runs the nodes chunk by chunk, so
 *     another node's failure can come first); the kernel may succeed where node by node
 *     fails when an argument is an option (it runs no node where one is NA) or the broadcast
 *     result has empty parts (it runs nodes only on the result's elements);
 *   - except at "phantom" elements (nocheck mode, an option argument): where node by node
 *     an intermediate value took its option type's NA bits and reads as NA from there on,
 *     though no argument is NA there, the kernel keeps it a value: the result may be a
 *     value where node by node it is NA, and a later division by zero on it fails in the
 *     kernel (the failure must name a phantom element);
 *   - and nothing leaks, ASan and UBSan see nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_compose.h"
#include "numpy_scalars.h"

/* A growing string (the harness's own memory). */
typedef struct xstr {
    char *s;
    size_t len, cap;
} xstr;

/* Appends the first n bytes of text. */
static void put_n(xstr *b, const char *text, size_t n) {
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = (char *)realloc(b->s, b->cap);
        CKF_CHECK(b->s != NULL, "out of memory");
    }
    memcpy(b->s + b->len, text, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void put(xstr *b, const char *text) {
    put_n(b, text, strlen(text));
}

#define XMAX_ARGS 5
#define XMAX_NODES 64

typedef struct xnode {
    enum { X_ARG, X_LIT, X_CAST, X_CALL } kind;
    int arg;
    char lit[32];
    ck_type_id type; /* a literal's (the parser's rule) or a cast's target */
    const char *fn;
    int kids[3], nkids;
    int col; /* CALL, CAST: the 1-based column the parser gives it (an operator's symbol) */
} xnode;

typedef struct xcase {
    int nargs, used[XMAX_ARGS];
    ck_type_id scalar[XMAX_ARGS];
    int option[XMAX_ARGS];
    int shape[XMAX_ARGS]; /* 0 scalar, 1 row N, 2 column M * 1, 3 whole M * N or M * var */
    int m, n, ragged;     /* the frame: M rows of N (or ragged rows of lens[]) */
    int lens[3];
    xnode nodes[XMAX_NODES];
    int nnodes;
    ck_eval_ctx ctx;
} xcase;

static const ck_type_id kScalars[] = {
    CK_TYPE_BOOL,   CK_TYPE_INT8,    CK_TYPE_INT16,   CK_TYPE_INT32,   CK_TYPE_INT64,
    CK_TYPE_UINT8,  CK_TYPE_UINT16,  CK_TYPE_UINT32,  CK_TYPE_UINT64,  CK_TYPE_FLOAT16,
    CK_TYPE_FLOAT32, CK_TYPE_FLOAT64, CK_TYPE_COMPLEX64, CK_TYPE_COMPLEX128};

/* A scalar type: a byte below 252 picks among kScalars as before bfloat16 (byte % 14), so
 * that the corpus's older inputs decode to their own cases; 252..255 pick bfloat16. */
static ck_type_id random_scalar(fz_bytes *in) {
    const unsigned b = fz_take(in, 256);
    return b >= 252 ? CK_TYPE_BFLOAT16 : kScalars[b % 14];
}

/* Every registered callable whose signatures all take one or two scalars (the built-in
 * functions, NumPy's ufuncs among them, and any a build adds), sorted by name: the tree
 * calls them by name, so a new function is fuzzed without an edit here. Read once. */
#define XMAX_FUNCTIONS 256
static struct {
    int n;
    char names[XMAX_FUNCTIONS][32];
    int arity[XMAX_FUNCTIONS];
} g_functions;

/* The arity of a signature list's lines ("(a, b) -> r"), 0 if any line is not over one or
 * two scalars (core dimensions, tuples) or they disagree. */
static int scalar_arity(const char *sigs) {
    int arity = 0;
    for (const char *line = sigs; *line != '\0';) {
        const char *end = strchr(line, '\n');
        const size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
        int commas = 0, scalar = len > 0;
        for (size_t i = 0; i < len; i++) {
            commas += line[i] == ',';
            scalar &= line[i] != '*' && (line[i] != '(' || i == 0);
        }
        if (!scalar || commas > 1 || (arity != 0 && arity != commas + 1)) {
            return 0;
        }
        arity = commas + 1;
        line += len + (end != NULL);
    }
    return arity;
}

static void load_functions(void) {
    if (g_functions.n != 0) {
        return;
    }
    char *names = NULL;
    CKF_CHECK(ck_registry_names(&names) == CK_OK, "ck_registry_names: %s", ck_last_error());
    for (char *name = strtok(names, "\n"); name != NULL && g_functions.n < XMAX_FUNCTIONS;
         name = strtok(NULL, "\n")) {
        ck_callable *c = NULL;
        char *sigs = NULL;
        if (strlen(name) >= sizeof g_functions.names[0] || ck_lookup(name, &c) != CK_OK) {
            continue;
        }
        const int have = ck_callable_signatures(c, &sigs) == CK_OK;
        ck_callable_decref(c);
        const int arity = have ? scalar_arity(sigs) : 0;
        ck_free(sigs);
        if (arity == 0) {
            continue;
        }
        snprintf(g_functions.names[g_functions.n], sizeof g_functions.names[0], "%s", name);
        g_functions.arity[g_functions.n++] = arity;
    }
    ck_free(names);
    CKF_CHECK(g_functions.n > 0, "no scalar functions registered");
}

/* A literal: its text and its own type, Python's (int64, float64); selection types it by
 * value beside arrays (the reference: numpy_scalars.h). */
static void literal(fz_bytes *in, xnode *nd) {
    static const long long mags[] = {0,     1,         7,          100,         127,
                                     128,   200,       300,        32767,       32768,
                                     70000, 2147483647, 2147483648LL, 5000000000LL};
    nd->kind = X_LIT;
    if (fz_take(in, 4) == 0) {
        static const char *const floats[] = {"2.5", "0.1", "-1e-3", "3.0", "-0.0", ".75", "1e2"};
        snprintf(nd->lit, sizeof nd->lit, "%s", floats[fz_take(in, 7)]);
        nd->type = CK_TYPE_FLOAT64;
        return;
    }
    long long v = mags[fz_take(in, 14)];
    if (fz_take(in, 2) == 0) {
        v = -v;
    }
    snprintf(nd->lit, sizeof nd->lit, "%lld", v);
    nd->type = CK_TYPE_INT64;
}

/* A tree of at most `depth` more levels into c->nodes, its text appended to t; the node's
 * index. */
static int tree(fz_bytes *in, xcase *c, int depth, xstr *t) {
    CKF_CHECK(c->nnodes < XMAX_NODES, "too many nodes");
    const int me = c->nnodes++;
    xnode *nd = &c->nodes[me];
    memset(nd, 0, sizeof *nd);
    const unsigned r = fz_take(in, 100);
    if (depth == 0 || r < 25 || c->nnodes + 8 > XMAX_NODES) {
        if (fz_take(in, 10) < 7) {
            nd->kind = X_ARG;
            nd->arg = (int)fz_take(in, (unsigned)c->nargs);
            c->used[nd->arg] = 1;
            const char name[2] = {(char)('a' + nd->arg), '\0'};
            put(t, name);
        } else {
            literal(in, nd);
            put(t, nd->lit);
        }
        return me;
    }
    if (r < 75) {
        static const char *const ops[] = {" + ", " - ", " * ", " / "};
        static const char *const fns[] = {"add", "subtract", "multiply", "divide"};
        const unsigned o = fz_take(in, 4);
        nd->kind = X_CALL;
        nd->fn = fns[o];
        put(t, "(");
        const int a = tree(in, c, depth - 1, t);
        c->nodes[me].col = (int)t->len + 2;
        put(t, ops[o]);
        const int b = tree(in, c, depth - 1, t);
        put(t, ")");
        c->nodes[me].kids[0] = a, c->nodes[me].kids[1] = b, c->nodes[me].nkids = 2;
    } else if (r < 80) {
        /* Python's other operators, fully parenthesized: the comparisons, & | ^ // %, ** by a
         * literal outside NumPy's rewritten exponents (-1, 0, 0.5, 1, 2), ~, and where with a
         * comparison for its condition */
        static const char *const syms[] = {" < ", " <= ", " == ", " != ", " > ", " >= ",
                                           " & ", " | ",  " ^ ",  " // ", " % "};
        static const char *const fns[] = {"less",        "less_equal",   "equal",
                                          "not_equal",   "greater",      "greater_equal",
                                          "bitwise_and", "bitwise_or",   "bitwise_xor",
                                          "floor_divide", "remainder"};
        const unsigned o = fz_take(in, 14);
        nd->kind = X_CALL;
        if (o < 11) {
            nd->fn = fns[o];
            put(t, "(");
            const int a = tree(in, c, depth - 1, t);
            c->nodes[me].col = (int)t->len + 2;
            put(t, syms[o]);
            const int b = tree(in, c, depth - 1, t);
            put(t, ")");
            c->nodes[me].kids[0] = a, c->nodes[me].kids[1] = b, c->nodes[me].nkids = 2;
        } else if (o == 11) {
            nd->fn = "power";
            put(t, "((");
            const int a = tree(in, c, depth - 1, t);
            c->nodes[me].col = (int)t->len + 3;
            put(t, ") ** ");
            CKF_CHECK(c->nnodes < XMAX_NODES, "too many nodes");
            const int b = c->nnodes++;
            xnode *e = &c->nodes[b];
            memset(e, 0, sizeof *e);
            static const char *const exps[] = {"3", "-3", "1.5"};
            const unsigned k = fz_take(in, 3);
            e->kind = X_LIT;
            e->type = k == 2 ? CK_TYPE_FLOAT64 : CK_TYPE_INT64;
            snprintf(e->lit, sizeof e->lit, "%s", exps[k]);
            put(t, e->lit);
            put(t, ")");
            c->nodes[me].kids[0] = a, c->nodes[me].kids[1] = b, c->nodes[me].nkids = 2;
        } else if (o == 12) {
            nd->fn = "invert";
            nd->col = (int)t->len + 2;
            put(t, "(~(");
            const int a = tree(in, c, depth - 1, t);
            put(t, "))");
            c->nodes[me].kids[0] = a, c->nodes[me].nkids = 1;
        } else {
            nd->fn = "where";
            nd->col = (int)t->len + 1;
            put(t, "where(");
            CKF_CHECK(c->nnodes < XMAX_NODES, "too many nodes");
            const int q = c->nnodes++;
            xnode *cond = &c->nodes[q];
            memset(cond, 0, sizeof *cond);
            cond->kind = X_CALL;
            cond->fn = "less";
            put(t, "(");
            const int x = tree(in, c, depth - 1, t);
            c->nodes[q].col = (int)t->len + 2;
            put(t, " < ");
            const int y = tree(in, c, depth - 1, t);
            put(t, "), ");
            c->nodes[q].kids[0] = x, c->nodes[q].kids[1] = y, c->nodes[q].nkids = 2;
            const int a = tree(in, c, depth - 1, t);
            put(t, ", ");
            const int b = tree(in, c, depth - 1, t);
            put(t, ")");
            c->nodes[me].kids[0] = q, c->nodes[me].kids[1] = a, c->nodes[me].kids[2] = b;
            c->nodes[me].nkids = 3;
        }
    } else if (r < 82) {
        nd->kind = X_CALL;
        nd->fn = "negative";
        nd->col = (int)t->len + 2;
        put(t, "(-(");
        const int a = tree(in, c, depth - 1, t);
        put(t, "))");
        c->nodes[me].kids[0] = a, c->nodes[me].nkids = 1;
    } else if (r < 86) {
        /* a registered function by name, its arguments trees */
        load_functions();
        const int f = (int)fz_take(in, (unsigned)g_functions.n);
        nd->kind = X_CALL;
        nd->fn = g_functions.names[f];
        nd->col = (int)t->len + 1;
        put(t, nd->fn);
        put(t, "(");
        const int a = tree(in, c, depth - 1, t);
        c->nodes[me].kids[0] = a, c->nodes[me].nkids = 1;
        if (g_functions.arity[f] == 2) {
            put(t, ", ");
            const int b = tree(in, c, depth - 1, t);
            c->nodes[me].kids[1] = b, c->nodes[me].nkids = 2;
        }
        put(t, ")");
    } else if (r < 90) {
        nd->kind = X_CALL;
        nd->fn = fz_take(in, 2) ? "minimum" : "maximum";
        nd->col = (int)t->len + 1;
        put(t, nd->fn);
        put(t, "(");
        const int a = tree(in, c, depth - 1, t);
        put(t, ", ");
        const int b = tree(in, c, depth - 1, t);
        put(t, ")");
        c->nodes[me].kids[0] = a, c->nodes[me].kids[1] = b, c->nodes[me].nkids = 2;
    } else {
        nd->kind = X_CAST;
        nd->type = random_scalar(in);
        nd->col = (int)t->len + 1;
        put(t, ck_type_id_name(nd->type));
        put(t, "(");
        const int a = tree(in, c, depth - 1, t);
        put(t, ")");
        c->nodes[me].kids[0] = a, c->nodes[me].nkids = 1;
    }
    return me;
}

/* One element of scalar type id as literal text: small values, rarely zero (integer
 * division), floats with NaN, infinities and -0 now and then; NA in an option. */
static void value(fz_bytes *in, ck_type_id id, int option, xstr *b) {
    char v[64];
    if (option && fz_take(in, 6) == 0) {
        put(b, "NA");
        return;
    }
    switch (id) {
    case CK_TYPE_BOOL: put(b, fz_take(in, 2) ? "true" : "false"); return;
    case CK_TYPE_INT8:
    case CK_TYPE_INT16:
    case CK_TYPE_INT32:
    case CK_TYPE_INT64: {
        const int k = fz_take(in, 40) == 0 ? 0 : 1 + (int)fz_take(in, 20);
        snprintf(v, sizeof v, "%d", fz_take(in, 2) ? k : -k);
        break;
    }
    case CK_TYPE_UINT8:
    case CK_TYPE_UINT16:
    case CK_TYPE_UINT32:
    case CK_TYPE_UINT64:
        snprintf(v, sizeof v, "%u", fz_take(in, 40) == 0 ? 0u : 1u + fz_take(in, 40));
        break;
    case CK_TYPE_COMPLEX64:
    case CK_TYPE_COMPLEX128: {
        const int re = (int)fz_take(in, 41) - 20, im = (int)fz_take(in, 41) - 20;
        snprintf(v, sizeof v, "%d%c%dj", re, im < 0 ? '-' : '+', im < 0 ? -im : im);
        break;
    }
    default: {
        static const char *const special[] = {"nan", "-inf", "inf", "-0.0"};
        const unsigned s = fz_take(in, 40);
        if (s < 4) {
            put(b, special[s]);
            return;
        }
        snprintf(v, sizeof v, "%g", ((double)fz_take(in, 161) - 80.0) / 4.0);
        break;
    }
    }
    put(b, v);
}

/* Argument k's type text and a literal of its values. */
static void argument(fz_bytes *in, const xcase *c, int k, xstr *type, xstr *lit) {
    char dims[64] = "";
    const int s = c->shape[k];
    if (s == 1) {
        snprintf(dims, sizeof dims, "%d * ", c->n);
    } else if (s == 2) {
        snprintf(dims, sizeof dims, "%d * 1 * ", c->m);
    } else if (s == 3) {
        if (c->ragged) {
            snprintf(dims, sizeof dims, "%d * var * ", c->m);
        } else {
            snprintf(dims, sizeof dims, "%d * %d * ", c->m, c->n);
        }
    }
    put(type, dims);
    put(type, c->option[k] ? "?" : "");
    put(type, ck_type_id_name(c->scalar[k]));
    const int rows = s == 2 || s == 3 ? c->m : 0;
    if (s == 0) {
        value(in, c->scalar[k], c->option[k], lit);
        return;
    }
    if (rows > 0) {
        put(lit, "[");
    }
    for (int i = 0; i < (rows > 0 ? rows : 1); i++) {
        const int len = s == 2 ? 1 : c->ragged && s == 3 ? c->lens[i] : c->n;
        put(lit, i > 0 ? ", [" : "[");
        for (int j = 0; j < len; j++) {
            if (j > 0) {
                put(lit, ", ");
            }
            value(in, c->scalar[k], c->option[k], lit);
        }
        put(lit, "]");
    }
    if (rows > 0) {
        put(lit, "]");
    }
}

/* The type of a cast of x to `to`: x's dimensions over `to` (an option stays one). */
static int cast_type(const ck_array *x, ck_type_id to, ck_type **out) {
    char *text = NULL;
    CKF_CHECK(ck_type_format(ck_array_type(x), &text) == CK_OK, "%s", ck_last_error());
    char *star = strrchr(text, '*');
    char *scalar = star != NULL ? star + 2 : text; /* "?int32" or "int32" */
    const int option = *scalar == '?';
    *scalar = '\0';
    xstr t = {NULL, 0, 0};
    put(&t, text);
    put(&t, option ? "?" : "");
    put(&t, ck_type_id_name(to));
    ck_free(text);
    const int rc = ck_type_parse(t.s, out);
    free(t.s);
    return rc;
}

/* Node i evaluated into a new array (*owned 1) or one of the arguments (*owned 0). */
/* The innermost scalar of an array's type. */
static ck_type_id scalar_of(const ck_array *a) {
    const ck_type *t = ck_array_type(a);
    while (ck_type_element(t) != NULL) {
        t = ck_type_element(t);
    }
    return ck_type_get_id(t);
}

/* A call of fn over n kids, its constant kids (is_const 1: 0-d values; 2: 0-d of unknown
 * value) typed as NumPy 1.24 types scalars beside arrays (numpy_scalars.h), their
 * alternative types tried when no signature takes the first. */
static int call_by_value(const xcase *c, const char *name, int n, ck_array *const *kid,
                         const int *is_const, ck_array **out) {
    ck_type_id id[3], want[3];
    int alt[3];
    int any_alt = 0;
    for (int k = 0; k < n; k++) {
        id[k] = scalar_of(kid[k]);
    }
    int rc = ckt_numpy_operand_types(name, n, id, is_const, kid, want, alt);
    for (int k = 0; k < n; k++) {
        any_alt |= alt[k] >= 0;
    }
    ck_callable *fn = NULL;
    if (rc == CK_OK) {
        rc = ck_lookup(name, &fn);
    }
    for (int attempt = 0; rc == CK_OK && attempt < 1 + any_alt; attempt++) {
        ck_array *typed[3] = {NULL, NULL, NULL}, *made[3] = {NULL, NULL, NULL};
        for (int k = 0; k < n && rc == CK_OK; k++) {
            const ck_type_id to = attempt == 1 && alt[k] >= 0 ? (ck_type_id)alt[k] : want[k];
            typed[k] = kid[k];
            if (is_const[k] == 1 && to != id[k]) {
                ck_eval_ctx nocheck = c->ctx;
                nocheck.errmode = CK_ERRMODE_NOCHECK; /* the type holds the value */
                rc = ck_array_new(ck_type_scalar(to), &made[k]);
                if (rc == CK_OK) {
                    rc = ck_assign(made[k], kid[k], &nocheck);
                }
                typed[k] = made[k];
            }
        }
        if (rc == CK_OK) {
            rc = ck_call_new(fn, n, (const ck_array *const *)typed, &c->ctx, out);
        }
        for (int k = 0; k < n; k++) {
            ck_array_free(made[k]);
        }
        if (rc != CK_ERR_TYPE || attempt == any_alt) {
            break;
        }
        rc = CK_OK;
    }
    ck_callable_decref(fn);
    return rc;
}

static int eval_node_c(const xcase *c, int i, ck_array *const *args, ck_array **out, int *owned,
                       int *is_const) {
    const xnode *nd = &c->nodes[i];
    *owned = 1;
    *out = NULL;
    *is_const = nd->kind == X_LIT;
    if (nd->kind == X_ARG) {
        *out = args[nd->arg];
        *owned = 0;
        const ck_type *t = ck_array_type(*out);
        t = ck_type_get_id(t) == CK_TYPE_OPTION ? ck_type_element(t) : t;
        *is_const = ck_type_is_scalar(t) ? 2 : 0; /* a 0-d argument: a scalar of unknown value */
        return CK_OK;
    }
    if (nd->kind == X_LIT) {
        return ck_array_parse(ck_type_scalar(nd->type), nd->lit, out);
    }
    ck_array *kid[3] = {NULL, NULL, NULL};
    int kid_owned[3] = {0, 0, 0}, kid_const[3] = {1, 1, 1};
    int rc = CK_OK;
    for (int k = 0; k < nd->nkids && rc == CK_OK; k++) {
        rc = eval_node_c(c, nd->kids[k], args, &kid[k], &kid_owned[k], &kid_const[k]);
    }
    /* 1 while every kid is a constant, 2 while every kid is 0-d */
    *is_const = 1;
    for (int k = 0; k < 3; k++) {
        *is_const = kid_const[k] == 0 || *is_const == 0 ? 0
                    : kid_const[k] > *is_const          ? kid_const[k]
                                                        : *is_const;
    }
    if (rc == CK_OK && nd->kind == X_CAST) {
        ck_type *t = NULL;
        rc = cast_type(kid[0], nd->type, &t);
        if (rc == CK_OK) {
            rc = ck_array_new(t, out);
            ck_type_decref(t);
        }
        if (rc == CK_OK) {
            rc = ck_assign(*out, kid[0], &c->ctx);
        }
    } else if (rc == CK_OK) {
        rc = call_by_value(c, nd->fn, nd->nkids, kid, kid_const, out);
    }
    if (rc != CK_OK && *out != NULL) {
        ck_array_free(*out);
        *out = NULL;
    }
    for (int k = 0; k < 3; k++) {
        if (kid_owned[k]) {
            ck_array_free(kid[k]);
        }
    }
    return rc;
}

static int eval_node(const xcase *c, int i, ck_array *const *args, ck_array **out, int *owned) {
    int is_const = 0;
    return eval_node_c(c, i, args, out, owned, &is_const);
}

static int has_var(const ck_array *a) {
    char *text = NULL;
    CKF_CHECK(ck_type_format(ck_array_type(a), &text) == CK_OK, "%s", ck_last_error());
    const int v = strstr(text, "var") != NULL;
    ck_free(text);
    return v;
}

/* 1 when the bytes of one part of format f at x and y are equal, or are both NaN in it (a
 * complex value is two parts): a NaN's sign and payload are free between the composed leaf
 * and the JIT's loop (docs/design.md §11). */
static int same_or_both_nan(const unsigned char *x, const unsigned char *y,
                            const fz_float_format *f) {
    return memcmp(x, y, (size_t)f->bits / 8) == 0 ||
           (fz_float_is_nan(f, x) && fz_float_is_nan(f, y));
}

/* The float format of a part of the result's scalar (NULL: not a float type). */
static const fz_float_format *float_part(const char *type_text) {
    const char *scalar = strrchr(type_text, ' ');
    scalar = scalar != NULL ? scalar + 1 : type_text;
    scalar += *scalar == '?';
    if (strcmp(scalar, "float16") == 0) return fz_float_format_of('H');
    if (strcmp(scalar, "bfloat16") == 0) return fz_float_format_of('G');
    if (strcmp(scalar, "float32") == 0 || strcmp(scalar, "complex64") == 0) {
        return fz_float_format_of('F');
    }
    if (strcmp(scalar, "float64") == 0 || strcmp(scalar, "complex128") == 0) {
        return fz_float_format_of('D');
    }
    return NULL;
}

static char *formatted(const ck_array *a) {
    char *text = NULL;
    CKF_CHECK(ck_array_format(a, &text) == CK_OK, "%s", ck_last_error());
    return text;
}

/* The elements of a literal in C order: each value token's offset and length in `text`
 * (the separators are brackets, commas and spaces: the arguments and results here are
 * arrays of numbers and bools). Returns the count; *at is the harness's memory. */
static size_t value_tokens(const char *text, size_t **at, size_t **len) {
    size_t n = 0, cap = 16;
    *at = (size_t *)malloc(cap * sizeof **at);
    *len = (size_t *)malloc(cap * sizeof **len);
    CKF_CHECK(*at != NULL && *len != NULL, "out of memory");
    for (size_t k = 0; text[k] != '\0';) {
        if (strchr("[], ", text[k]) != NULL) {
            k++;
            continue;
        }
        const size_t start = k;
        while (text[k] != '\0' && strchr("[], ", text[k]) == NULL) {
            k++;
        }
        if (n == cap) {
            cap *= 2;
            *at = (size_t *)realloc(*at, cap * sizeof **at);
            *len = (size_t *)realloc(*len, cap * sizeof **len);
            CKF_CHECK(*at != NULL && *len != NULL, "out of memory");
        }
        (*at)[n] = start;
        (*len)[n++] = k - start;
    }
    return n;
}

/* The broadcast result's layout, from the case's frame: M rows (`rows`) of N, or of lens[i]
 * under a ragged argument (`wide`: an argument is whole or a row), M rows of 1 when only
 * columns, N when only rows, 0-d otherwise. */
typedef struct xframe {
    int rows, wide;
} xframe;

static xframe result_frame(const xcase *c) {
    xframe f = {0, 0};
    for (int k = 0; k < c->nargs; k++) {
        f.rows |= c->used[k] && (c->shape[k] == 2 || c->shape[k] == 3);
        f.wide |= c->used[k] && (c->shape[k] == 1 || c->shape[k] == 3);
    }
    return f;
}

static int frame_rows(const xcase *c, xframe f) {
    return f.rows ? c->m : 1;
}

static int frame_row_length(const xcase *c, xframe f, int i) {
    return !f.wide ? 1 : f.rows && c->ragged ? c->lens[i] : c->n;
}

/* The result elements (C order) that node by node holds as NA where no used argument is
 * NA: an intermediate value that took its option type's NA bits in nocheck mode (§15; the
 * kernel keeps it a value). Sets phantom[e] to 1 for each; returns how many. */
static size_t phantom_nas(const xcase *c, ck_array *const *args, const char *want_text,
                          unsigned char **phantom, size_t *elements) {
    const xframe f = result_frame(c);
    size_t *at = NULL, *len = NULL;
    const size_t count = value_tokens(want_text, &at, &len);
    *phantom = (unsigned char *)calloc(count + 1, 1);
    CKF_CHECK(*phantom != NULL, "out of memory");
    /* each used argument's NA flags, by its own element order */
    unsigned char *arg_na[XMAX_ARGS] = {NULL};
    for (int k = 0; k < c->nargs; k++) {
        if (!c->used[k]) {
            continue;
        }
        char *text = formatted(args[k]);
        size_t *a_at = NULL, *a_len = NULL;
        const size_t a_count = value_tokens(text, &a_at, &a_len);
        arg_na[k] = (unsigned char *)calloc(a_count + 1, 1);
        CKF_CHECK(arg_na[k] != NULL, "out of memory");
        for (size_t e = 0; e < a_count; e++) {
            arg_na[k][e] = a_len[e] == 2 && memcmp(text + a_at[e], "NA", 2) == 0;
        }
        free(a_at);
        free(a_len);
        ck_free(text);
    }
    size_t e = 0, found = 0;
    for (int i = 0; i < frame_rows(c, f); i++) {
        const int n = frame_row_length(c, f, i);
        for (int j = 0; j < n; j++, e++) {
            CKF_CHECK(e < count, "the result has fewer elements than its frame (%zu)", e);
            int arg_is_na = 0;
            for (int k = 0; k < c->nargs; k++) {
                if (!c->used[k]) {
                    continue;
                }
                /* a whole argument is laid out as the result itself */
                const int s = c->shape[k];
                const size_t ix = s == 0 ? 0 : s == 1 ? (size_t)j : s == 2 ? (size_t)i : e;
                arg_is_na |= arg_na[k][ix];
            }
            const int want_na = len[e] == 2 && memcmp(want_text + at[e], "NA", 2) == 0;
            (*phantom)[e] = want_na && !arg_is_na;
            found += (*phantom)[e];
        }
    }
    CKF_CHECK(e == count, "the result has %zu elements, its frame %zu", count, e);
    *elements = count;
    for (int k = 0; k < c->nargs; k++) {
        free(arg_na[k]);
    }
    free(at);
    free(len);
    return found;
}

/* 1 when the kernel's failure is one a phantom element explains: in nocheck mode a node
 * fails only by an integer division by zero, and where no argument is NA the kernel runs
 * the operations that succeeded node by node, so the element its message names ("at
 * element [i][j]", "[j]" of a row, "[0]" of a 0-d result) must be a phantom. */
/* The kernel converts a literal to its operation's type once, when it is built; node by
 * node the conversion runs per element of the call, so it never runs where every element
 * is NA or there is none. A literal that cannot be converted (0.1 to uint16 in fractional
 * mode) fails the kernel whatever the data: the message's column is that literal's, or the
 * operator's of a call of constants (computed when planned: 127 * -1e-3 into bool). */
/* 1 when node i is a constant: a literal, or a call or cast of constants alone (the kernel
 * computes those when it is planned, and converts the value as it converts a literal). */
static int constant_node(const xcase *c, int i) {
    const xnode *nd = &c->nodes[i];
    if (nd->kind == X_LIT || nd->kind == X_ARG) {
        return nd->kind == X_LIT;
    }
    for (int k = 0; k < nd->nkids; k++) {
        if (!constant_node(c, nd->kids[k])) {
            return 0;
        }
    }
    return 1;
}

static int literal_conversion_failure(const xcase *c, const char *text, const char *got_msg) {
    const char *prefix = "expression column ";
    if (strncmp(got_msg, prefix, strlen(prefix)) != 0 || strstr(got_msg, " value ") == NULL) {
        return 0;
    }
    char *end = NULL;
    const long col = strtol(got_msg + strlen(prefix), &end, 10);
    if (end == NULL || *end != ':' || col < 1 || (size_t)col > strlen(text)) {
        return 0;
    }
    const char first = text[col - 1];
    if ((first >= '0' && first <= '9') || first == '.') {
        return 1;
    }
    for (int i = 0; i < c->nnodes; i++) { /* a folded constant: its operator's column */
        if ((c->nodes[i].kind == X_CALL || c->nodes[i].kind == X_CAST) &&
            c->nodes[i].col == (int)col && constant_node(c, i)) {
            return 1;
        }
    }
    return 0;
}

static int phantom_failure(const xcase *c, const unsigned char *phantom, size_t count,
                           int got_rc, const char *got_msg) {
    if (got_rc != CK_ERR_ZERO_DIVISION) {
        return 0;
    }
    const char *at = NULL;
    for (const char *p = strstr(got_msg, "at element ["); p != NULL;
         p = strstr(p + 1, "at element [")) {
        at = p + strlen("at element ");
    }
    long idx[2] = {0, 0};
    int nidx = 0;
    while (at != NULL && *at == '[' && nidx < 2) {
        char *end = NULL;
        idx[nidx++] = strtol(at + 1, &end, 10);
        at = end != NULL && *end == ']' ? end + 1 : NULL;
    }
    if (nidx == 0) {
        return 0;
    }
    const xframe f = result_frame(c);
    const long i = f.rows ? idx[0] : 0, j = f.rows ? (nidx > 1 ? idx[1] : 0) : idx[0];
    if (i < 0 || i >= frame_rows(c, f) || j < 0 || j >= frame_row_length(c, f, (int)i)) {
        return 0;
    }
    size_t e = (size_t)j;
    for (int r = 0; r < i; r++) {
        e += (size_t)frame_row_length(c, f, r);
    }
    return e < count && phantom[e];
}

/* got's text with every phantom element of want's text put in got's place: want and got
 * must then be the same text. */
static char *with_phantoms_from(const char *want_text, const char *got_text,
                                const unsigned char *phantom) {
    size_t *w_at = NULL, *w_len = NULL, *g_at = NULL, *g_len = NULL;
    const size_t wn = value_tokens(want_text, &w_at, &w_len);
    const size_t gn = value_tokens(got_text, &g_at, &g_len);
    xstr out = {NULL, 0, 0};
    put(&out, "");
    size_t from = 0;
    for (size_t e = 0; e < gn; e++) {
        put_n(&out, got_text + from, g_at[e] - from);
        if (e < wn && phantom[e]) {
            put_n(&out, want_text + w_at[e], w_len[e]);
        } else {
            put_n(&out, got_text + g_at[e], g_len[e]);
        }
        from = g_at[e] + g_len[e];
    }
    put(&out, got_text + from);
    free(w_at);
    free(w_len);
    free(g_at);
    free(g_len);
    return out.s;
}

int fz_expr_one(const uint8_t *data, size_t size);
int fz_expr_one(const uint8_t *data, size_t size) {
    fz_bytes in = {data, size, 0};
    static xcase c;
    memset(&c, 0, sizeof c);
    static const int sizes[] = {0, 1, 5, 17, 1030};
    c.nargs = 1 + (int)fz_take(&in, XMAX_ARGS);
    c.m = 1 + (int)fz_take(&in, 3);
    c.n = sizes[fz_take(&in, 5)];
    c.ragged = fz_take(&in, 4) == 0;
    for (int i = 0; i < c.m; i++) {
        c.lens[i] = sizes[fz_take(&in, 5)];
    }
    for (int k = 0; k < c.nargs; k++) {
        c.scalar[k] = random_scalar(&in);
        c.option[k] = fz_take(&in, 6) == 0;
        c.shape[k] = (int)fz_take(&in, 4);
        if (c.ragged && (c.shape[k] == 1 || c.shape[k] == 2)) {
            c.shape[k] = 3; /* a row or a column does not broadcast against ragged rows */
        }
    }
    static const ck_errmode modes[] = {CK_ERRMODE_NOCHECK, CK_ERRMODE_OVERFLOW,
                                       CK_ERRMODE_FRACTIONAL, CK_ERRMODE_INEXACT};
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    c.ctx = init;
    c.ctx.errmode = modes[fz_take(&in, 4)];
    if (fz_take(&in, 4) == 0) {
        c.ctx.flags |= CK_EVAL_ALLOW_UNSAFE;
    }
    /* a CPU target cap (the harness restores the best one after the input); one this
     * machine lacks is refused and the best stays */
    const unsigned cap = fz_take(&in, CK_NUM_CPU_TARGETS + 1);
    if (cap < CK_NUM_CPU_TARGETS) {
        (void)ck_cpu_set_target_cap((ck_cpu_target)cap);
        ck_clear_error();
    }
    xstr text = {NULL, 0, 0};
    put(&text, "");
    tree(&in, &c, 1 + (int)fz_take(&in, 4), &text);

    ck_array *args[XMAX_ARGS] = {NULL};
    char *literals[XMAX_ARGS] = {NULL}; /* for CKF_COMPOSE_VERBOSE */
    const ck_array *used[XMAX_ARGS];
    const char *names[XMAX_ARGS];
    static const char *const letters[] = {"a", "b", "c", "d", "e"};
    int nused = 0, ok = 1;
    for (int k = 0; k < c.nargs && ok; k++) {
        xstr type = {NULL, 0, 0}, lit = {NULL, 0, 0};
        put(&type, "");
        put(&lit, "");
        argument(&in, &c, k, &type, &lit);
        ck_type *t = NULL;
        CKF_CHECK(ck_type_parse(type.s, &t) == CK_OK, "%s: %s", type.s, ck_last_error());
        CKF_CHECK(ck_array_parse(t, lit.s, &args[k]) == CK_OK, "%s %s: %s", type.s, lit.s,
                  ck_last_error());
        ck_type_decref(t);
        free(type.s);
        literals[k] = lit.s;
        if (c.used[k]) {
            used[nused] = args[k];
            names[nused++] = letters[k];
        }
    }

    const char *verbose = getenv("CKF_COMPOSE_VERBOSE");
    if (verbose != NULL && verbose[0] == '1') {
        printf("expression: %s over", text.s);
        for (int k = 0; k < c.nargs; k++) {
            char *t = NULL;
            if (ck_type_format(ck_array_type(args[k]), &t) == CK_OK) {
                printf(" %s: %s = %s%s", letters[k], t, literals[k], c.used[k] ? "" : " (unused)");
            }
            ck_free(t);
        }
        printf(", errmode %d flags 0x%x\n", (int)c.ctx.errmode, c.ctx.flags);
        fflush(stdout);
    }
    /* the reference: node by node into full temporaries */
    ck_array *want = NULL;
    int want_owned = 0;
    const int want_rc = eval_node(&c, 0, args, &want, &want_owned); /* node 0: the root */

    /* one kernel */
    ck_expr *e = NULL;
    CKF_CHECK(ck_expr_parse(text.s, &e) == CK_OK, "%s: %s", text.s, ck_last_error());
    ck_array *got = NULL;
    const int got_rc = ck_expr_eval_new(e, nused, names, used, &c.ctx, &got);
    const char *got_msg = got_rc != CK_OK ? ck_last_error() : "";
    /* Parts of the broadcast result with no element: a row of N = 0 in a fixed frame, or a
     * ragged row of length 0 under a ragged argument. */
    int any_option = 0, fixed_empty = 0, ragged_arg = 0, empty_row = 0;
    for (int k = 0; k < c.nargs; k++) {
        if (c.used[k]) {
            any_option |= c.option[k];
            ragged_arg |= c.ragged && c.shape[k] == 3;
            fixed_empty |= !c.ragged && c.n == 0 && (c.shape[k] == 1 || c.shape[k] == 3);
        }
    }
    for (int i = 0; i < c.m; i++) {
        empty_row |= c.lens[i] == 0;
    }
    const int holes = fixed_empty || (ragged_arg && empty_row);
    /* Node by node, each node's result is an option array where an argument is one, so in
     * nocheck mode an intermediate value of the NA's bits (int8 -128 / 1) reads as NA from
     * there on; in one kernel intermediates are values and only an argument's NA is NA
     * (§15). Such a "phantom" element is NA node by node and a value in the kernel. */
    const int na_may_be_a_value = any_option && c.ctx.errmode == CK_ERRMODE_NOCHECK;
    char *want_text =
        want_rc == CK_OK && (na_may_be_a_value || has_var(want)) ? formatted(want) : NULL;
    unsigned char *phantom = NULL;
    size_t phantom_count = 0; /* the result's elements */
    const size_t phantoms = want_text != NULL && na_may_be_a_value
                                ? phantom_nas(&c, args, want_text, &phantom, &phantom_count)
                                : 0;
    /* Literals only (nused 0): a 0-d result, compared as any other. */
    if ((any_option || holes) && want_rc != CK_OK && got_rc == CK_OK) {
        /* The kernel runs the nodes on the elements of the broadcast result only, and not
         * where an argument is NA (the result is NA there): a node that fails only on an
         * operand element broadcast where the result has none (a size 0, a ragged row of
         * length 0) or is NA fails node by node, not in the kernel (§15). */
    } else if ((any_option || holes) && want_rc == CK_OK && got_rc != CK_OK &&
               literal_conversion_failure(&c, text.s, got_msg)) {
        /* A literal no element reached node by node (see literal_conversion_failure). */
    } else if (phantoms > 0 && got_rc != CK_OK &&
               phantom_failure(&c, phantom, phantom_count, got_rc, got_msg)) {
        /* Node by node ran no later node on a phantom NA; the kernel ran them on the value,
         * and one of them failed there (INT32_MIN + false, then a division by zero). */
    } else {
        CKF_CHECK((want_rc == CK_OK) == (got_rc == CK_OK),
              "%s: node by node %s, one kernel %s (%s)", text.s, ck_status_name(want_rc),
              ck_status_name(got_rc), got_msg);
    }
    if (want_rc == CK_OK && got_rc == CK_OK) {
        char *wt = NULL, *gt = NULL;
        CKF_CHECK(ck_type_format(ck_array_type(want), &wt) == CK_OK, "%s", ck_last_error());
        CKF_CHECK(ck_type_format(ck_array_type(got), &gt) == CK_OK, "%s", ck_last_error());
        CKF_CHECK(strcmp(wt, gt) == 0, "%s: node by node gives %s, one kernel %s", text.s, wt,
                  gt);
        if (!has_var(want)) {
            const size_t bytes = ck_type_data_size(ck_array_type(want));
            const fz_float_format *part = float_part(wt);
            const unsigned char *x = (const unsigned char *)ck_array_data(want);
            const unsigned char *y = (const unsigned char *)ck_array_data(got);
            /* A phantom element is NA node by node and a value in the kernel; every other
             * element must be the same. */
            const ck_type *el = ck_array_type(want);
            while (ck_type_element(el) != NULL) {
                el = ck_type_element(el);
            }
            const size_t es = ck_type_data_size(el);
            for (size_t o = 0; phantoms > 0 && o < bytes; o += es) {
                if (phantom[o / es]) {
                    memcpy((unsigned char *)ck_array_data(want) + o, y + o, es);
                }
            }
            if (part == NULL) {
                CKF_CHECK(memcmp(x, y, bytes) == 0, "%s (%s): the bytes differ", text.s, wt);
            }
            for (size_t o = 0; part != NULL && o < bytes; o += (size_t)part->bits / 8) {
                CKF_CHECK(same_or_both_nan(x + o, y + o, part),
                          "%s (%s): the bytes differ at byte %zu", text.s, wt, o);
            }
        } else {
            char *b = formatted(got);
            char *b_phantoms = phantoms > 0 ? with_phantoms_from(want_text, b, phantom) : NULL;
            CKF_CHECK(strcmp(want_text, b_phantoms != NULL ? b_phantoms : b) == 0,
                      "%s (%s): node by node %s, one kernel %s", text.s, wt, want_text, b);
            free(b_phantoms);
            ck_free(b);
        }
        ck_free(wt);
        ck_free(gt);
    }
    if (want_owned) {
        ck_array_free(want);
    }
    ck_array_free(got);
    ck_expr_decref(e);
    for (int k = 0; k < c.nargs; k++) {
        ck_array_free(args[k]);
        free(literals[k]);
    }
    ck_free(want_text);
    free(phantom);
    free(text.s);
    return 0;
}
