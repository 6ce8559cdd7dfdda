/* tools/ckernel/cmd_explain.c: `ckernel explain DST_TYPE SRC_TYPE`: builds the assignment
 * kernel for C-order arrays of the two types and prints its tree. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char explain_help[] =
    "usage: ckernel explain [--errmode MODE] [--target T] [--unaligned] [--jit|--no-jit]\n"
    "                       [--by-position] DST_TYPE SRC_TYPE\n\n"
    "Builds the kernel that assigns SRC_TYPE data to DST_TYPE data (both C order) and prints\n"
    "its tree: one line per kernel, children indented, with its kind, offset (@) and size (+)\n"
    "in the kernel buffer, its function (leaves: with their CPU target) and parameters.\n\n"
    "options:\n"
    "  --errmode MODE  nocheck|overflow|fractional|inexact (default fractional)\n"
    "  --target T      cap the CPU target: {targets}\n"
    "  --unaligned     build for data that may be misaligned\n"
    "  --jit           compile the fixed dimensions and the leaf with the JIT when it can\n"
    "                  (and say what it decided); --no-jit never\n"
    "  --by-position   struct <- struct matches fields by position (default: by name)\n\n"
    "example:\n"
    "  ckernel explain \"3 * var * float64\" \"3 * var * int32\"\n\n"
    "The kernel of a call: ckernel explain --call NAME [--out DST] --in SRC [--in SRC ...]\n"
    "(see ckernel explain --call x --help); of a reduction: ckernel explain --reduce NAME\n"
    "[--axis A[,B...]] --in SRC (see ckernel explain --reduce x --help); of an expression:\n"
    "ckernel explain --eval EXPR --arg NAME SRC ... (see ckernel explain --eval x --help).\n";

void cli_print_tree(const char *text, size_t size, const ck_builder *b, const ck_eval_ctx *ctx) {
    fputs(text, stdout);
    printf("total: %zu bytes in the kernel buffer; builder %s (capacity %zu)\n", size,
           ck_builder_is_inline(b) ? "inline, no heap allocation" : "on the heap",
           ck_builder_capacity(b));
    if ((ctx->flags & CK_EVAL_JIT) != 0) {
        const char *d = ck_jit_last_decision();
        printf("jit: %s\n", d[0] != '\0' ? d : "not used: no run of fixed dimensions over a "
                                              "scalar leaf to compile");
    }
}

int cli_parse_type(const char *text, ck_type **out) {
    int rc = ck_type_parse(text, out);
    return rc == CK_OK ? CLI_OK : cli_report(rc);
}

int cmd_explain(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--call") == 0 || strncmp(argv[i], "--call=", 7) == 0) {
            return cmd_explain_call(argc, argv);
        }
        if (strcmp(argv[i], "--eval") == 0 || strncmp(argv[i], "--eval=", 7) == 0) {
            return cmd_explain_eval(argc, argv);
        }
        if (strcmp(argv[i], "--reduce") == 0 || strncmp(argv[i], "--reduce=", 9) == 0 ||
            strcmp(argv[i], "--accumulate") == 0 || strncmp(argv[i], "--accumulate=", 13) == 0) {
            return cmd_explain_reduce(argc, argv);
        }
    }
    cli_common c = {CK_EVAL_CTX_INIT, CK_CPU_BASELINE, 0};
    const char *types[2];
    int status = cli_parse_kernel_command("explain", explain_help, argc, argv, &c, 1, types, 2,
                                          "DST_TYPE and SRC_TYPE");
    if (status != CLI_PARSED) {
        return status;
    }
    ck_type *dt = NULL, *st = NULL;
    ck_memblock *arena = NULL;
    char *dam = NULL, *sam = NULL, *text = NULL;
    ck_builder b;
    ck_builder_init(&b);
    size_t size = 0;
    int rc = CK_OK;
    status = cli_parse_type(types[0], &dt);
    if (status == CLI_OK) {
        status = cli_parse_type(types[1], &st);
    }
    if (status == CLI_OK) {
        rc = ck_arena_new(0, &arena);
        if (rc == CK_OK) rc = cli_make_arrmeta(dt, arena, &dam);
        if (rc == CK_OK) rc = cli_make_arrmeta(st, arena, &sam);
        if (rc == CK_OK) {
            rc = ck_make_assign(&b, &size, dt, dam, st, sam, CK_REQUEST_SINGLE, &c.ctx);
        }
        if (rc == CK_OK) rc = ck_kernel_describe(ck_builder_root(&b), &text);
        if (rc == CK_OK) {
            cli_print_tree(text, size, &b, &c.ctx);
        } else {
            status = cli_report(rc);
        }
    }
    ck_free(text);
    ck_builder_destroy(&b);
    if (dam != NULL) ck_arrmeta_release(dt, dam);
    if (sam != NULL) ck_arrmeta_release(st, sam);
    ck_free(dam);
    ck_free(sam);
    ck_memblock_decref(arena);
    ck_type_decref(dt);
    ck_type_decref(st);
    return status;
}
