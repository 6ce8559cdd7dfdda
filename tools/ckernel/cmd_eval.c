/* tools/ckernel/cmd_eval.c: the expression commands: `ckernel eval EXPR [--out DST] [--arg
 * NAME SRC LITERAL ...]` (evaluates a fused expression and prints the result; literals only
 * take no --arg) and `ckernel explain --eval EXPR [--out DST] [--arg NAME SRC ...]` (prints the
 * expression as parsed and the kernel tree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char eval_help[] =
    "usage: ckernel eval [--errmode MODE] [--allow-unsafe] [--fp-errors] [--target T] EXPR [--out DST]\n"
    "                    [--arg NAME SRC LITERAL ...]\n\n"
    "Evaluates the expression EXPR (Python's operators and precedence: + - * / // % **,\n"
    "unary - + ~, comparisons (chained as Python's), & | ^, << >>; numbers, True, False, inf,\n"
    "nan, 2j; casts such as float64(x); x.real, x.imag; where(c, a, b) and calls of any\n"
    "registered callable: hypot(x, y); reductions sum prod min max any all with axis=) as one\n"
    "kernel over the named arguments, each a literal parsed as its SRC type, broadcast\n"
    "together, and prints the result. Each operation's signature is selected as `ckernel\n"
    "call` selects it, literals typed by value as NumPy 1.24 types Python's numbers. Without\n"
    "--out the result type is the last operation's over the broadcast shape; with it the\n"
    "result is cast to DST. An expression of literals only (\"2 + 3\") takes no --arg and\n"
    "gives a 0-d result.\n\n"
    "options:\n"
    "  --errmode MODE   nocheck|overflow|fractional|inexact (default fractional), for casts\n"
    "  --allow-unsafe   let selection use signatures that need an unsafe conversion\n"
    "  --fp-errors      invalid operations, divisions by zero and overflows are errors\n"
    "  --target T       cap the CPU target: baseline|avx2|avx512\n\n"
    "examples:\n"
    "  ckernel eval \"a * x + b\" --arg a float64 2 --arg x \"3 * int32\" \"[1, 2, 3]\" \\\n"
    "               --arg b float64 0.5\n"
    "  ckernel eval \"where(x > 1, x ** 2, -x)\" --arg x \"3 * float64\" \"[0.5, 2, 3]\"\n"
    "  ckernel eval \"sum(a * b)\" --arg a \"3 * float64\" \"[1, 2, 3]\" \\\n"
    "               --arg b \"3 * float64\" \"[4, 5, 6]\"\n";

static const char explain_eval_help[] =
    "usage: ckernel explain [--errmode MODE] [--allow-unsafe] [--fp-errors] [--target T] [--unaligned]\n"
    "                       --eval EXPR [--out DST] [--arg NAME SRC ...]\n\n"
    "Parses EXPR, builds its kernel for C-order arguments of the SRC types and prints the\n"
    "expression with its parentheses and literal types, then the kernel tree.\n";

typedef struct eval_args {
    cli_common common;
    const char *text;
    const char *out;
    int nargs;
    const char *name[CK_CALL_MAX_ARGS];
    const char *type[CK_CALL_MAX_ARGS];
    const char *literal[CK_CALL_MAX_ARGS];
} eval_args;

static int parse_eval(const char *command, const char *help, int argc, char **argv, int explain,
                      eval_args *a) {
    const int with_literals = !explain;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = NULL;
        int status;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            fputs(help, stdout);
            return CLI_OK;
        }
        if (cli_callable_option(command, argc, argv, &i, explain, &a->common, &a->out,
                                &status)) {
            if (status != CLI_OK) {
                return status;
            }
        } else if (explain && cli_option_value(argc, argv, &i, "--eval", &value)) {
            if (value == NULL) {
                return cli_usage_error(command, "--eval needs an expression");
            }
            a->text = value;
        } else if (strcmp(arg, "--arg") == 0) {
            if (a->nargs == CK_CALL_MAX_ARGS) {
                return cli_usage_error(command, "at most %d --arg arguments", CK_CALL_MAX_ARGS);
            }
            if (i + 2 + with_literals >= argc) {
                return cli_usage_error(command, "--arg needs %s",
                                       with_literals ? "a name, a type and a literal"
                                                     : "a name and a type");
            }
            a->name[a->nargs] = argv[++i];
            a->type[a->nargs] = argv[++i];
            a->literal[a->nargs] = with_literals ? argv[++i] : NULL;
            a->nargs++;
        } else if (!explain && (arg[0] != '-' || arg[1] != '-') && a->text == NULL) {
            a->text = arg; /* an expression may start with '-' ("-x"); options start "--" */
        } else {
            return cli_usage_error(command, "unexpected argument '%s'", arg);
        }
    }
    if (a->text == NULL) {
        return cli_usage_error(command, explain ? "missing --eval EXPR" : "missing EXPR");
    }
    /* No --arg: literals only (a 0-d result); an argument not given is the library's error. */
    const int rc = cli_apply_target(&a->common);
    return rc != CLI_OK ? rc : CLI_PARSED;
}

int cmd_eval(int argc, char **argv) {
    eval_args a;
    memset(&a, 0, sizeof a);
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    a.common.ctx = init;
    int status = parse_eval("eval", eval_help, argc, argv, 0, &a);
    if (status != CLI_PARSED) {
        return status;
    }
    ck_expr *e = NULL;
    ck_type *types[CK_CALL_MAX_ARGS] = {NULL};
    ck_array *src[CK_CALL_MAX_ARGS] = {NULL};
    ck_type *dt = NULL;
    ck_array *dst = NULL;
    char *text = NULL;
    int rc = ck_expr_parse(a.text, &e);
    for (int k = 0; rc == CK_OK && k < a.nargs; k++) {
        rc = ck_type_parse(a.type[k], &types[k]);
        if (rc == CK_OK) rc = ck_array_parse(types[k], a.literal[k], &src[k]);
    }
    const ck_array *const *srcs = (const ck_array *const *)src;
    if (rc == CK_OK && a.out != NULL) {
        rc = ck_type_parse(a.out, &dt);
        if (rc == CK_OK) rc = ck_array_new(dt, &dst);
        if (rc == CK_OK) rc = ck_expr_eval(e, dst, a.nargs, a.name, srcs, &a.common.ctx);
    } else if (rc == CK_OK) {
        rc = ck_expr_eval_new(e, a.nargs, a.name, srcs, &a.common.ctx, &dst);
    }
    if (rc == CK_OK) rc = ck_array_format(dst, &text);
    if (rc == CK_OK) {
        printf("%s\n", text);
    } else {
        status = cli_report(rc);
    }
    status = rc == CK_OK ? CLI_OK : status;
    ck_free(text);
    ck_array_free(dst);
    ck_type_decref(dt);
    for (int k = 0; k < a.nargs; k++) {
        ck_array_free(src[k]);
        ck_type_decref(types[k]);
    }
    ck_expr_decref(e);
    return status;
}

int cmd_explain_eval(int argc, char **argv) {
    eval_args a;
    memset(&a, 0, sizeof a);
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    a.common.ctx = init;
    int status = parse_eval("explain", explain_eval_help, argc, argv, 1, &a);
    if (status != CLI_PARSED) {
        return status;
    }
    ck_expr *e = NULL;
    ck_type *types[CK_CALL_MAX_ARGS] = {NULL};
    char *sam[CK_CALL_MAX_ARGS] = {NULL};
    ck_type *dt = NULL;
    char *dam = NULL, *text = NULL, *form = NULL;
    ck_memblock *arena = NULL;
    ck_builder b;
    ck_builder_init(&b);
    size_t size = 0;
    int rc = ck_expr_parse(a.text, &e);
    if (rc == CK_OK) rc = ck_expr_format(e, &form);
    if (rc == CK_OK) rc = ck_arena_new(0, &arena);
    for (int k = 0; rc == CK_OK && k < a.nargs; k++) {
        rc = ck_type_parse(a.type[k], &types[k]);
        if (rc == CK_OK) rc = cli_make_arrmeta(types[k], arena, &sam[k]);
    }
    const ck_type *const *st = (const ck_type *const *)types;
    if (rc == CK_OK) {
        rc = a.out != NULL ? ck_type_parse(a.out, &dt)
                           : ck_expr_result_type(e, a.nargs, a.name, st, &a.common.ctx, &dt);
    }
    if (rc == CK_OK) rc = cli_make_arrmeta(dt, arena, &dam);
    if (rc == CK_OK) {
        rc = ck_make_expr(&b, &size, e, dt, dam, a.nargs, a.name, st, (const char *const *)sam,
                          CK_REQUEST_SINGLE, &a.common.ctx);
    }
    if (rc == CK_OK) rc = ck_kernel_describe(ck_builder_root(&b), &text);
    if (rc == CK_OK) {
        char *dts = NULL;
        if (ck_type_format(dt, &dts) == CK_OK) {
            printf("expression %s -> %s\n", form, dts);
        }
        ck_free(dts);
        cli_print_tree(text, size, &b, &a.common.ctx);
    } else {
        status = cli_report(rc);
    }
    status = rc == CK_OK ? CLI_OK : status;
    ck_free(text);
    ck_free(form);
    ck_builder_destroy(&b);
    if (dam != NULL) ck_arrmeta_release(dt, dam);
    ck_free(dam);
    ck_type_decref(dt);
    for (int k = 0; k < a.nargs; k++) {
        if (sam[k] != NULL) ck_arrmeta_release(types[k], sam[k]);
        ck_free(sam[k]);
        ck_type_decref(types[k]);
    }
    ck_memblock_decref(arena);
    ck_expr_decref(e);
    return status;
}
