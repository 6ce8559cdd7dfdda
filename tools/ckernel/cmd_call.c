/* tools/ckernel/cmd_call.c: the callable commands: `ckernel callables` (every callable with
 * its signatures), `ckernel call NAME [--out DST] --in SRC LITERAL ...` (runs a call and
 * prints the result) and `ckernel explain --call NAME [--out DST] --in SRC ...` (prints the
 * selected signature and the kernel tree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char callables_help[] =
    "usage: ckernel callables\n\n"
    "Lists every registered callable with its signatures.\n";

static const char call_help[] =
    "usage: ckernel call [--errmode MODE] [--allow-unsafe] [--fp-errors] [--target T] NAME [--out DST]\n"
    "                    --in SRC LITERAL [--in SRC LITERAL ...]\n\n"
    "Calls the callable NAME on the literals (each parsed as its SRC type) and prints the\n"
    "result. The signature is the best match for the arguments' scalar types; arguments are\n"
    "broadcast together. Without --out the result type comes from the signature and the\n"
    "broadcast shape; with it the result is cast to DST. Text arguments (string, bytes,\n"
    "fixed_string[N, enc], fixed_bytes[N]) go to the comparisons (equal, not_equal, less,\n"
    "less_equal, greater, greater_equal: a bool), length (an int64) and concat (text).\n\n"
    "options:\n"
    "  --errmode MODE   nocheck|overflow|fractional|inexact (default fractional), for casts\n"
    "  --allow-unsafe   let selection use signatures that need an unsafe conversion\n"
    "  --fp-errors      invalid operations, divisions by zero and overflows are errors\n"
    "  --target T       cap the CPU target: {targets}\n\n"
    "example:\n"
    "  ckernel call add --in \"3 * int32\" \"[1, 2, 3]\" --in \"float64\" \"0.5\"\n"
    "  ckernel call less --in \"2 * string\" '[\"a\", \"b\"]' --in \"string\" '\"b\"'\n";

static const char explain_call_help[] =
    "usage: ckernel explain [--errmode MODE] [--allow-unsafe] [--fp-errors] [--target T] [--unaligned] [--jit]\n"
    "                       --call NAME [--out DST] --in SRC [--in SRC ...]\n\n"
    "Selects the signature of NAME for the SRC types, builds the call's kernel (C-order\n"
    "data) and prints the choice with its rating, then the kernel tree.\n";

int cmd_callables(int argc, char **argv) {
    if (argc > 1) {
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
            fputs(callables_help, stdout);
            return CLI_OK;
        }
        return cli_usage_error("callables", "unexpected argument '%s'", argv[1]);
    }
    char *names = NULL;
    int rc = ck_registry_names(&names);
    if (rc != CK_OK) {
        return cli_report(rc);
    }
    int status = CLI_OK;
    for (char *name = names, *end; status == CLI_OK && *name != '\0'; name = end + 1) {
        end = strchr(name, '\n');
        *end = '\0';
        ck_callable *c = NULL;
        char *sigs = NULL;
        rc = ck_lookup(name, &c);
        if (rc == CK_OK) rc = ck_callable_signatures(c, &sigs);
        if (rc == CK_OK) {
            printf("%s\n", name);
            for (char *s = sigs, *e; *s != '\0'; s = e + 1) {
                e = strchr(s, '\n');
                printf("  %.*s\n", (int)(e - s), s);
            }
        } else {
            status = cli_report(rc);
        }
        ck_free(sigs);
        ck_callable_decref(c);
    }
    ck_free(names);
    return status;
}

/* The parsed arguments of `call` and `explain --call`. */
typedef struct call_args {
    cli_common common;
    const char *name;
    const char *out;
    int nin;
    const char *in_type[CK_CALL_MAX_ARGS];
    const char *in_literal[CK_CALL_MAX_ARGS];
} call_args;

/* Parses the options; `with_literals`: each --in takes SRC LITERAL (call) or SRC (explain). */
static int parse_call(const char *command, const char *help, int argc, char **argv,
                      int with_literals, int explain, call_args *a) {
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
        } else if (explain && cli_option_value(argc, argv, &i, "--call", &value)) {
            if (value == NULL) {
                return cli_usage_error(command, "--call needs a callable name");
            }
            a->name = value;
        } else if (strcmp(arg, "--in") == 0) {
            if (a->nin == CK_CALL_MAX_ARGS) {
                return cli_usage_error(command, "at most %d --in arguments", CK_CALL_MAX_ARGS);
            }
            if (i + 1 + with_literals >= argc) {
                return cli_usage_error(command, "--in needs %s",
                                       with_literals ? "a type and a literal" : "a type");
            }
            a->in_type[a->nin] = argv[++i];
            a->in_literal[a->nin] = with_literals ? argv[++i] : NULL;
            a->nin++;
        } else if (!explain && arg[0] != '-' && a->name == NULL) {
            a->name = arg;
        } else {
            return cli_usage_error(command, "unexpected argument '%s'", arg);
        }
    }
    if (a->name == NULL) {
        return cli_usage_error(command, explain ? "missing --call NAME" : "missing NAME");
    }
    if (a->nin == 0) {
        return cli_usage_error(command, "missing --in SRC%s", with_literals ? " LITERAL" : "");
    }
    const int rc = cli_apply_target(&a->common);
    return rc != CLI_OK ? rc : CLI_PARSED;
}

int cmd_call(int argc, char **argv) {
    call_args a;
    memset(&a, 0, sizeof a);
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    a.common.ctx = init;
    int status = parse_call("call", call_help, argc, argv, 1, 0, &a);
    if (status != CLI_PARSED) {
        return status;
    }
    ck_callable *c = NULL;
    ck_type *types[CK_CALL_MAX_ARGS] = {NULL};
    ck_array *src[CK_CALL_MAX_ARGS] = {NULL};
    ck_type *dt = NULL;
    ck_array *dst = NULL;
    char *text = NULL;
    int rc = ck_lookup(a.name, &c);
    for (int k = 0; rc == CK_OK && k < a.nin; k++) {
        rc = ck_type_parse(a.in_type[k], &types[k]);
        if (rc == CK_OK) rc = ck_array_parse(types[k], a.in_literal[k], &src[k]);
    }
    if (rc == CK_OK && a.out != NULL) {
        rc = ck_type_parse(a.out, &dt);
        if (rc == CK_OK) rc = ck_array_new(dt, &dst);
        if (rc == CK_OK) rc = ck_call(c, dst, a.nin, (const ck_array *const *)src, &a.common.ctx);
    } else if (rc == CK_OK) {
        rc = ck_call_new(c, a.nin, (const ck_array *const *)src, &a.common.ctx, &dst);
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
    for (int k = 0; k < a.nin; k++) {
        ck_array_free(src[k]);
        ck_type_decref(types[k]);
    }
    ck_callable_decref(c);
    return status;
}

int cmd_explain_call(int argc, char **argv) {
    call_args a;
    memset(&a, 0, sizeof a);
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    a.common.ctx = init;
    int status = parse_call("explain", explain_call_help, argc, argv, 0, 1, &a);
    if (status != CLI_PARSED) {
        return status;
    }
    ck_callable *c = NULL;
    ck_type *types[CK_CALL_MAX_ARGS] = {NULL};
    char *sam[CK_CALL_MAX_ARGS] = {NULL};
    ck_type *dt = NULL;
    char *dam = NULL, *text = NULL, *why = NULL;
    ck_memblock *arena = NULL;
    ck_builder b;
    ck_builder_init(&b);
    size_t size = 0;
    int rc = ck_lookup(a.name, &c);
    if (rc == CK_OK) rc = ck_arena_new(0, &arena);
    ck_type_id ids[CK_CALL_MAX_ARGS];
    for (int k = 0; rc == CK_OK && k < a.nin; k++) {
        rc = ck_type_parse(a.in_type[k], &types[k]);
        if (rc == CK_OK) rc = cli_make_arrmeta(types[k], arena, &sam[k]);
        if (rc == CK_OK) {
            const ck_type *t = types[k];
            /* Down to the scalar; a tuple, struct or text stops it (selection refuses it). */
            while (!ck_type_is_scalar(t) && ck_type_element(t) != NULL) t = ck_type_element(t);
            ids[k] = ck_type_get_id(t);
        }
    }
    int index = -1;
    if (rc == CK_OK) rc = ck_callable_select(c, a.nin, ids, &a.common.ctx, &index, &why);
    if (rc == CK_OK) {
        rc = a.out != NULL ? ck_type_parse(a.out, &dt)
                           : ck_call_result_type(c, a.nin, (const ck_type *const *)types,
                                                 &a.common.ctx, &dt);
    }
    if (rc == CK_OK) rc = cli_make_arrmeta(dt, arena, &dam);
    if (rc == CK_OK) {
        rc = ck_make_call(&b, &size, c, dt, dam, a.nin, (const ck_type *const *)types,
                          (const char *const *)sam, CK_REQUEST_SINGLE, &a.common.ctx);
    }
    if (rc == CK_OK) rc = ck_kernel_describe(ck_builder_root(&b), &text);
    if (rc == CK_OK) {
        char *dts = NULL;
        if (ck_type_format(dt, &dts) == CK_OK) {
            printf("call %s -> %s\nselected: %s\n", a.name, dts, why);
        }
        ck_free(dts);
        cli_print_tree(text, size, &b, &a.common.ctx);
    } else {
        status = cli_report(rc);
    }
    status = rc == CK_OK ? CLI_OK : status;
    ck_free(text);
    ck_free(why);
    ck_builder_destroy(&b);
    if (dam != NULL) ck_arrmeta_release(dt, dam);
    ck_free(dam);
    ck_type_decref(dt);
    for (int k = 0; k < a.nin; k++) {
        if (sam[k] != NULL) ck_arrmeta_release(types[k], sam[k]);
        ck_free(sam[k]);
        ck_type_decref(types[k]);
    }
    ck_memblock_decref(arena);
    ck_callable_decref(c);
    return status;
}
