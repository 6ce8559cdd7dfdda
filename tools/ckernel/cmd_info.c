/* tools/ckernel/cmd_info.c: `ckernel info [--json]`: what this build is and has. */
#include <stdio.h>
#include <string.h>

#include "ckernel/ckernel.h"
#include "cli.h"

static const char info_help[] =
    "usage: ckernel info [--json]\n\n"
    "Prints the version, build options and allocator of this ckernel.\n\n"
    "options:\n"
    "  --json   one JSON object instead of text\n";

int cmd_info(int argc, char **argv) {
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(info_help, stdout);
            return CLI_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else {
            return cli_usage_error("info", "unknown option '%s'", argv[i]);
        }
    }
    /* The values below contain no characters that need JSON escaping. */
    if (json) {
        printf("{\"version\": \"%s\", \"build\": \"%s\", \"allocator\": \"%s\"}\n",
               ck_version_string(), ck_build_options(), ck_allocator_name());
    } else {
        printf("ckernel %s\n", ck_version_string());
        printf("  build:      %s\n", ck_build_options());
        printf("  allocator:  %s\n", ck_allocator_name());
    }
    return CLI_OK;
}
