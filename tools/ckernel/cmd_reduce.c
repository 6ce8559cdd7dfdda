/* tools/ckernel/cmd_reduce.c: the reduction commands: `ckernel reduce NAME [--axis A[,B...]]
 * [--keepdims] [--skipna] [--out DST] --in SRC LITERAL` (reduces a literal and prints the
 * result), `ckernel accumulate NAME --axis A [--out DST] --in SRC LITERAL` (cumsum, ...), and
 * `ckernel explain --reduce NAME [--axis ...] --in SRC` / `explain --accumulate ...` (print
 * the kernel). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char reduce_help[] =
    "usage: ckernel reduce [--errmode MODE] [--allow-unsafe] [--fp-errors] [--target T] NAME\n"
    "                      [--axis A[,B...]] [--keepdims] [--skipna] [--out DST]\n"
    "                      --in SRC LITERAL\n\n"
    "Reduces the literal (parsed as SRC) over the axes with NAME and prints the result. NAME\n"
    "is sum, prod, min, max, all or any, or a callable with an identity (add, multiply,\n"
    "logical_and, logical_or, or a registered one). Axes count from 0 (the outermost);\n"
    "negative ones from the innermost (-1). Without --axis every axis is reduced; --axis ''\n"
    "reduces none (each element is cast to the result's type). The result's type follows\n"
    "NumPy: sum and prod of bool and narrow integers are int64 (uint64 for unsigned ones);\n"
    "with --out the result is accumulated in DST's type.\n\n"
    "options:\n"
    "  --axis A[,B...]  the axes to reduce\n"
    "  --keepdims       keep the reduced axes, with size 1\n"
    "  --skipna         leave out missing values (NA) of an option source\n"
    "  --out DST        the result's type\n"
    "  --errmode MODE   nocheck|overflow|fractional|inexact (default fractional), for casting\n"
    "                   the elements\n"
    "  --allow-unsafe   let the signature's selection use unsafe conversions\n"
    "  --fp-errors      invalid operations, divisions by zero and overflows are errors\n"
    "  --target T       cap the CPU target: {targets}\n\n"
    "example:\n"
    "  ckernel reduce sum --axis 1 --in \"2 * 3 * int32\" \"[[1, 2, 3], [4, 5, 6]]\"\n";

static const char accumulate_help[] =
    "usage: ckernel accumulate [--errmode MODE] [--allow-unsafe] [--fp-errors] [--target T] NAME --axis A\n"
    "                          [--out DST] --in SRC LITERAL\n\n"
    "Accumulates the literal (parsed as SRC) along axis A with NAME and prints the result:\n"
    "out[0] = x[0], out[i] = f(out[i-1], x[i]). NAME is cumsum, cumprod, cummin or cummax,\n"
    "or a callable (add, multiply, minimum, maximum, or a registered one). The result has\n"
    "SRC's shape; its type follows NumPy (cumsum of int8 is int64); with --out it is\n"
    "accumulated in DST's type.\n\n"
    "example:\n"
    "  ckernel accumulate cumsum --axis 0 --in \"4 * int32\" \"[1, 2, 3, 4]\"\n";

static const char explain_reduce_help[] =
    "usage: ckernel explain [--errmode MODE] [--allow-unsafe] [--fp-errors] [--target T] [--unaligned]\n"
    "                       --reduce NAME [--axis A[,B...]] [--keepdims] [--skipna]\n"
    "                       [--out DST] --in SRC\n"
    "       ckernel explain ... --accumulate NAME --axis A [--out DST] --in SRC\n\n"
    "Builds the reduction's (accumulation's) kernel (C-order data) and prints its result\n"
    "type and tree.\n";

/* The parsed arguments of `reduce` and `explain --reduce`. */
typedef struct reduce_args {
    cli_common common;
    int accumulate; /* `accumulate` / `explain --accumulate` */
    const char *name, *out, *in_type, *in_literal;
    int has_axes, naxes;
    int axes[64];
    unsigned flags;
} reduce_args;

/* "1", "-1,0", "" (no axis) into a->axes. */
static int parse_axes(const char *command, const char *text, reduce_args *a) {
    a->has_axes = 1;
    a->naxes = 0;
    for (const char *p = text; *p != '\0';) {
        char *end = NULL;
        errno = 0;
        const long v = strtol(p, &end, 10);
        if (end == p || errno != 0 || v < -64 || v > 63 || (*end != ',' && *end != '\0') ||
            (*end == ',' && end[1] == '\0')) {
            return cli_usage_error(command, "--axis takes axis numbers separated by commas "
                                            "(not '%s')",
                                   text);
        }
        if (a->naxes == 64) {
            return cli_usage_error(command, "--axis: at most 64 axes");
        }
        a->axes[a->naxes++] = (int)v;
        p = *end == ',' ? end + 1 : end;
    }
    return CLI_OK;
}

static int parse_reduce(const char *command, const char *help, int argc, char **argv,
                        int explain, reduce_args *a) {
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = NULL;
        int status;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            cli_print_help(help);
            return CLI_OK;
        }
        if (cli_callable_option(command, argc, argv, &i, explain, &a->common, &a->out,
                                &status)) {
            if (status != CLI_OK) {
                return status;
            }
        } else if (!a->accumulate && strcmp(arg, "--keepdims") == 0) {
            a->flags |= CK_REDUCE_KEEPDIMS;
        } else if (strcmp(arg, "--skipna") == 0) {
            a->flags |= CK_REDUCE_SKIPNA;
        } else if (explain && cli_option_value(argc, argv, &i,
                                               a->accumulate ? "--accumulate" : "--reduce",
                                               &value)) {
            if (value == NULL) {
                return cli_usage_error(command, "%s needs a name",
                                       a->accumulate ? "--accumulate" : "--reduce");
            }
            a->name = value;
        } else if (cli_option_value(argc, argv, &i, "--axis", &value)) {
            if (value == NULL) {
                return cli_usage_error(command, "--axis needs axis numbers");
            }
            status = parse_axes(command, value, a);
            if (status != CLI_OK) {
                return status;
            }
        } else if (strcmp(arg, "--in") == 0) {
            if (a->in_type != NULL) {
                return cli_usage_error(command, "a reduction takes one --in");
            }
            if (i + 1 + !explain >= argc) {
                return cli_usage_error(command, "--in needs %s",
                                       explain ? "a type" : "a type and a literal");
            }
            a->in_type = argv[++i];
            a->in_literal = explain ? NULL : argv[++i];
        } else if (!explain && arg[0] != '-' && a->name == NULL) {
            a->name = arg;
        } else {
            return cli_usage_error(command, "unexpected argument '%s'", arg);
        }
    }
    if (a->name == NULL) {
        return cli_usage_error(command, !explain        ? "missing NAME"
                                        : a->accumulate ? "missing --accumulate NAME"
                                                        : "missing --reduce NAME");
    }
    if (a->accumulate && (!a->has_axes || a->naxes != 1)) {
        return cli_usage_error(command, "an accumulation takes one --axis");
    }
    if (a->in_type == NULL) {
        return cli_usage_error(command, "missing --in SRC%s", explain ? "" : " LITERAL");
    }
    const int rc = cli_apply_target(&a->common);
    return rc != CLI_OK ? rc : CLI_PARSED;
}

static void init_args(reduce_args *a) {
    memset(a, 0, sizeof *a);
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    a->common.ctx = init;
}

static ck_reduce_spec make_spec(ck_callable *c, const reduce_args *a) {
    ck_reduce_spec r = {c, a->has_axes ? a->axes : NULL, a->has_axes ? a->naxes : 0, a->flags};
    return r;
}

/* `reduce` and `accumulate`. */
static int run_command(int argc, char **argv, int accumulate) {
    reduce_args a;
    init_args(&a);
    a.accumulate = accumulate;
    int status = parse_reduce(accumulate ? "accumulate" : "reduce",
                              accumulate ? accumulate_help : reduce_help, argc, argv, 0, &a);
    if (status != CLI_PARSED) {
        return status;
    }
    ck_callable *c = NULL;
    ck_type *st = NULL, *dt = NULL;
    ck_array *src = NULL, *dst = NULL;
    char *text = NULL;
    int rc = accumulate ? ck_accumulation_lookup(a.name, &c) : ck_reduction_lookup(a.name, &c);
    if (rc == CK_OK) rc = ck_type_parse(a.in_type, &st);
    if (rc == CK_OK) rc = ck_array_parse(st, a.in_literal, &src);
    const ck_reduce_spec r = make_spec(c, &a);
    if (rc == CK_OK && a.out != NULL) {
        rc = ck_type_parse(a.out, &dt);
        if (rc == CK_OK) rc = ck_array_new(dt, &dst);
        if (rc == CK_OK) {
            rc = accumulate ? ck_accumulate(&r, dst, src, &a.common.ctx)
                            : ck_reduce(&r, dst, src, &a.common.ctx);
        }
    } else if (rc == CK_OK) {
        rc = accumulate ? ck_accumulate_new(&r, src, &a.common.ctx, &dst)
                        : ck_reduce_new(&r, src, &a.common.ctx, &dst);
    }
    if (rc == CK_OK) rc = ck_array_format(dst, &text);
    if (rc == CK_OK) {
        printf("%s\n", text);
        status = CLI_OK;
    } else {
        status = cli_report(rc);
    }
    ck_free(text);
    ck_array_free(dst);
    ck_array_free(src);
    ck_type_decref(dt);
    ck_type_decref(st);
    ck_callable_decref(c);
    return status;
}

int cmd_reduce(int argc, char **argv) {
    return run_command(argc, argv, 0);
}

int cmd_accumulate(int argc, char **argv) {
    return run_command(argc, argv, 1);
}

int cmd_explain_reduce(int argc, char **argv) {
    reduce_args a;
    init_args(&a);
    for (int i = 1; i < argc; i++) {
        a.accumulate |= strcmp(argv[i], "--accumulate") == 0 ||
                        strncmp(argv[i], "--accumulate=", 13) == 0;
    }
    int status = parse_reduce("explain", explain_reduce_help, argc, argv, 1, &a);
    if (status != CLI_PARSED) {
        return status;
    }
    const int accumulate = a.accumulate;
    ck_callable *c = NULL;
    ck_type *st = NULL, *dt = NULL;
    ck_memblock *arena = NULL;
    char *sam = NULL, *dam = NULL, *text = NULL, *dts = NULL;
    ck_builder b;
    ck_builder_init(&b);
    size_t size = 0;
    int rc = accumulate ? ck_accumulation_lookup(a.name, &c) : ck_reduction_lookup(a.name, &c);
    const ck_reduce_spec r = make_spec(c, &a);
    if (rc == CK_OK) rc = ck_arena_new(0, &arena);
    if (rc == CK_OK) rc = ck_type_parse(a.in_type, &st);
    if (rc == CK_OK) rc = cli_make_arrmeta(st, arena, &sam);
    if (rc == CK_OK && a.out != NULL) {
        rc = ck_type_parse(a.out, &dt);
    } else if (rc == CK_OK) {
        rc = accumulate ? ck_accumulate_result_type(&r, st, &a.common.ctx, &dt)
                        : ck_reduce_result_type(&r, st, &a.common.ctx, &dt);
    }
    if (rc == CK_OK) rc = cli_make_arrmeta(dt, arena, &dam);
    if (rc == CK_OK) {
        rc = accumulate
                 ? ck_make_accumulate(&b, &size, &r, dt, dam, st, sam, CK_REQUEST_SINGLE,
                                      &a.common.ctx)
                 : ck_make_reduce(&b, &size, &r, dt, dam, st, sam, CK_REQUEST_SINGLE,
                                  &a.common.ctx);
    }
    if (rc == CK_OK) rc = ck_kernel_describe(ck_builder_root(&b), &text);
    if (rc == CK_OK) rc = ck_type_format(dt, &dts);
    if (rc == CK_OK) {
        printf("%s %s (%s) -> %s\n", accumulate ? "accumulate" : "reduce", a.name,
               ck_callable_name(c), dts);
        fputs(text, stdout);
        printf("total: %zu bytes in the kernel buffer; builder %s (capacity %zu)\n", size,
               ck_builder_is_inline(&b) ? "inline, no heap allocation" : "on the heap",
               ck_builder_capacity(&b));
        status = CLI_OK;
    } else {
        status = cli_report(rc);
    }
    ck_free(dts);
    ck_free(text);
    ck_builder_destroy(&b);
    if (dam != NULL) ck_arrmeta_release(dt, dam);
    if (sam != NULL) ck_arrmeta_release(st, sam);
    ck_free(dam);
    ck_free(sam);
    ck_type_decref(dt);
    ck_type_decref(st);
    ck_memblock_decref(arena);
    ck_callable_decref(c);
    return status;
}
