/* tools/ckernel/options.c: option parsing shared by the commands: "--name VALUE" and
 * "--name=VALUE", the error-mode, target, JIT and struct-matching options; and the C-order
 * arrmeta the kernel-building commands make. */
#include <stdio.h>
#include <string.h>

#include "ckernel/ckernel.h"
#include "cli.h"

int cli_option_value(int argc, char **argv, int *i, const char *name, const char **value) {
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) {
        return 0;
    }
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0') {
        return 0;
    }
    if (*i + 1 >= argc) {
        *value = NULL; /* missing: the caller reports it */
        return 1;
    }
    *value = argv[++*i];
    return 1;
}

int cli_common_option(const char *command, int argc, char **argv, int *i, cli_common *c,
                      int *status) {
    const char *v;
    if (strcmp(argv[*i], "--by-position") == 0) {
        c->ctx.flags |= CK_EVAL_FIELDS_BY_POSITION;
        *status = CLI_OK;
        return 1;
    }
    if (strcmp(argv[*i], "--jit") == 0 || strcmp(argv[*i], "--no-jit") == 0) {
        c->ctx.flags |= argv[*i][2] == 'j' ? CK_EVAL_JIT : CK_EVAL_NO_JIT;
        *status = CLI_OK;
        return 1;
    }
    if (cli_option_value(argc, argv, i, "--errmode", &v)) {
        ck_errmode m = CK_ERRMODE_DEFAULT;
        if (v == NULL || ck_errmode_parse(v, &m) != CK_OK || m == CK_ERRMODE_DEFAULT) {
            *status = cli_usage_error(command, "--errmode takes nocheck, overflow, fractional or "
                                               "inexact%s%s%s",
                                      v ? " (not '" : "", v ? v : "", v ? "')" : "");
            return 1;
        }
        c->ctx.errmode = m;
        *status = CLI_OK;
        return 1;
    }
    if (cli_option_value(argc, argv, i, "--target", &v)) {
        ck_cpu_target t;
        if (v == NULL || ck_cpu_target_parse(v, &t) != CK_OK) {
            *status = cli_usage_error(command, "--target takes %s%s%s%s", ck_cpu_target_choices(),
                                      v ? " (not '" : "", v ? v : "", v ? "')" : "");
            return 1;
        }
        c->target = t;
        c->has_target = 1;
        *status = CLI_OK;
        return 1;
    }
    return 0;
}

int cli_callable_option(const char *command, int argc, char **argv, int *i, int explain,
                        cli_common *c, const char **out, int *status) {
    const char *arg = argv[*i], *value = NULL;
    *status = CLI_OK;
    if (cli_common_option(command, argc, argv, i, c, status)) {
        return 1;
    }
    if (strcmp(arg, "--allow-unsafe") == 0) {
        c->ctx.flags |= CK_EVAL_ALLOW_UNSAFE;
    } else if (strcmp(arg, "--fp-errors") == 0) {
        c->ctx.flags |= CK_EVAL_FP_ERRORS;
    } else if (explain && strcmp(arg, "--unaligned") == 0) {
        c->ctx.flags |= CK_EVAL_SRC_UNALIGNED | CK_EVAL_DST_UNALIGNED;
    } else if (cli_option_value(argc, argv, i, "--out", &value)) {
        if (value == NULL) {
            *status = cli_usage_error(command, "--out needs a type");
        }
        *out = value;
    } else {
        return 0;
    }
    return 1;
}

int cli_apply_target(const cli_common *c) {
    if (ck_cpu_check() != CK_OK) {
        return cli_report(ck_last_status());
    }
    if (c->has_target) {
        int rc = ck_cpu_set_target_cap(c->target);
        if (rc != CK_OK) {
            return cli_report(rc);
        }
    }
    return CLI_OK;
}

void cli_print_help(const char *help) {
    static const char mark[] = "{targets}";
    const char *p = help, *hit;
    while ((hit = strstr(p, mark)) != NULL) {
        fwrite(p, 1, (size_t)(hit - p), stdout);
        for (int t = 0; t < CK_NUM_CPU_TARGETS; t++) {
            printf("%s%s", t ? "|" : "", ck_cpu_target_name((ck_cpu_target)t));
        }
        p = hit + sizeof mark - 1;
    }
    fputs(p, stdout);
}

int cli_parse_kernel_command(const char *command, const char *help, int argc, char **argv,
                             cli_common *c, int allow_unaligned, const char **args, int nargs,
                             const char *missing) {
    int have = 0;
    for (int i = 1; i < argc; i++) {
        int status;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cli_print_help(help);
            return CLI_OK;
        } else if (cli_common_option(command, argc, argv, &i, c, &status)) {
            if (status != CLI_OK) {
                return status;
            }
        } else if (allow_unaligned && strcmp(argv[i], "--unaligned") == 0) {
            c->ctx.flags |= CK_EVAL_SRC_UNALIGNED | CK_EVAL_DST_UNALIGNED;
        } else if (argv[i][0] == '-' && argv[i][1] == '-') {
            return cli_usage_error(command, "unknown option '%s'", argv[i]);
        } else if (have < nargs) {
            args[have++] = argv[i];
        } else {
            return cli_usage_error(command, "too many arguments ('%s')", argv[i]);
        }
    }
    if (have < nargs) {
        return cli_usage_error(command, "expected %s", missing);
    }
    return cli_apply_target(c) == CLI_OK ? CLI_PARSED : CLI_ERROR;
}

int cli_make_arrmeta(const ck_type *t, ck_memblock *arena, char **out) {
    size_t n = ck_type_arrmeta_size(t);
    *out = (char *)ck_calloc(n != 0 ? n : 1, 1);
    if (*out == NULL) {
        return CK_ERR_NOMEM; /* ck_calloc's message: the request, or the allocation limit */
    }
    return ck_arrmeta_default_construct(t, *out, arena);
}
