/* tools/ckernel/main.c: the ckernel program: command table, dispatch, shared reporting. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ckernel/ckernel.h"
#include "cli.h"

static const cli_command commands[] = {
    {"info", "version, build options, allocator, CPU targets", cmd_info},
    {"explain", "build an assignment kernel and print its tree", cmd_explain},
    {"assign", "assign a literal of one type to another and print it", cmd_assign},
    {"callables", "list the callables and their signatures", cmd_callables},
    {"call", "call a callable on literals and print the result", cmd_call},
    {"eval", "evaluate an expression (a * x + b) on literals as one kernel", cmd_eval},
    {"reduce", "reduce a literal over axes (sum, min, ...) and print the result", cmd_reduce},
    {"accumulate", "accumulate a literal along an axis (cumsum, ...) and print it",
     cmd_accumulate},
    {"bench", "time the kernels against memcpy and plain C loops", cmd_bench},
};

static void print_help(FILE *out) {
    fprintf(out,
            "usage: ckernel [--version] [--help] COMMAND [ARGS]\n\n"
            "Builds and runs hierarchical kernels: assignments and callables.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    }
    fprintf(out, "\nRun 'ckernel COMMAND --help' for a command's options.\n");
}

int cli_usage_error(const char *command, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ckernel: usage error: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'ckernel %s%s--help'.\n", command ? command : "", command ? " " : "");
    return CLI_USAGE;
}

/* Where the allocation limit in effect comes from, in words (cli_alloc_limit_origin): written
 * before ck_set_alloc_limit, after which ck_alloc_limit_reason only says "ck_set_alloc_limit". */
static char alloc_limit_origin[192];

const char *cli_alloc_limit_origin(void) {
    return alloc_limit_origin;
}

/* Every command runs under an allocation limit of the machine's physical memory unless
 * CKERNEL_ALLOC_LIMIT sets one (or "off"): a datashape with a terabyte of elements then fails
 * at once with CK_ERR_NOMEM, where without it the kernel's lazy paging lets the fill run
 * until the OOM killer ends this process, or another one. */
static void apply_default_alloc_limit(void) {
    if (ck_get_alloc_limit_source() == CK_ALLOC_LIMIT_ENV) {
        snprintf(alloc_limit_origin, sizeof alloc_limit_origin, "%s", ck_alloc_limit_reason());
        return;
    }
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) {
        snprintf(alloc_limit_origin, sizeof alloc_limit_origin,
                 "the physical memory is unknown; %s", ck_alloc_limit_reason());
        return;
    }
    if ((unsigned long)pages > SIZE_MAX / (unsigned long)page) {
        /* A 32-bit process on a machine of more than 4 GiB: its address space is the bound. */
        snprintf(alloc_limit_origin, sizeof alloc_limit_origin,
                 "the physical memory is more than this process can address; %s",
                 ck_alloc_limit_reason());
        return;
    }
    snprintf(alloc_limit_origin, sizeof alloc_limit_origin,
             "this machine's physical memory; %s", ck_alloc_limit_reason());
    ck_set_alloc_limit((size_t)pages * (size_t)page);
}

int cli_report(int status) {
    fprintf(stderr, "ckernel: error: %s: %s\n", ck_status_name(status),
            ck_last_error()[0] != '\0' ? ck_last_error() : ck_status_message(status));
    /* The library's message says ck_set_alloc_limit set the limit: say what that was. Only
     * apply_default_alloc_limit calls it in this program, so a limit the API set is the
     * default. */
    static const char limit_prefix[] = "ckernel allocation limit:";
    if (status == CK_ERR_NOMEM && ck_get_alloc_limit_source() == CK_ALLOC_LIMIT_API &&
        strncmp(ck_last_error(), limit_prefix, sizeof limit_prefix - 1) == 0) {
        fprintf(stderr, "ckernel: the limit is this machine's physical memory; "
                        "CKERNEL_ALLOC_LIMIT=BYTES (K, M, G, T suffixes) or =off changes it\n");
    }
    return CLI_ERROR;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        return cli_usage_error(NULL, "missing command");
    }
    apply_default_alloc_limit();
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
        print_help(stdout);
        return CLI_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("ckernel %s\n", ck_version_string());
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(name, commands[i].name) == 0) {
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    return cli_usage_error(NULL, "unknown command '%s'", name);
}
