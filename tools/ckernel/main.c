/* tools/ckernel/main.c: the ckernel program: command table, dispatch, shared reporting. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ckernel/ckernel.h"
#include "cli.h"

static const cli_command commands[] = {
    {"info", "version, build options, allocator, CPU targets", cmd_info},
    {"explain", "build an assignment kernel and print its tree", cmd_explain},
    {"assign", "assign a literal of one type to another and print it", cmd_assign},
    {"callables", "list the callables and their signatures", cmd_callables},
    {"call", "call a callable on literals and print the result", cmd_call},
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

int cli_report(int status) {
    fprintf(stderr, "ckernel: error: %s: %s\n", ck_status_name(status),
            ck_last_error()[0] != '\0' ? ck_last_error() : ck_status_message(status));
    return CLI_ERROR;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        return cli_usage_error(NULL, "missing command");
    }
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
