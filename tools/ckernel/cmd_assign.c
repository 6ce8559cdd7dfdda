/* tools/ckernel/cmd_assign.c: `ckernel assign DST_TYPE SRC_TYPE LITERAL`: parses the
 * literal as SRC_TYPE, assigns it into a new DST_TYPE array, prints the result. */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static const char assign_help[] =
    "usage: ckernel assign [--errmode MODE] [--target T] [--by-position] DST_TYPE SRC_TYPE "
    "LITERAL\n\n"
    "Parses LITERAL as an array of SRC_TYPE (LITERAL '-' reads it from standard input),\n"
    "assigns it into a new array of DST_TYPE and prints that array's literal.\n\n"
    "options:\n"
    "  --errmode MODE  nocheck|overflow|fractional|inexact (default fractional)\n"
    "  --target T      cap the CPU target: {targets}\n"
    "  --by-position   struct <- struct matches fields by position (default: by name)\n\n"
    "examples:\n"
    "  ckernel assign \"2 * 3 * float32\" \"3 * int32\" \"[1, 2, 3]\"\n"
    "  ckernel assign \"{y: float64, x: int64}\" \"{x: int32, y: int32}\" \"{x: 1, y: 2}\"\n"
    "  ckernel assign \"3 * ?float64\" \"3 * ?int32\" \"[1, NA, 3]\"\n"
    "  echo \"[[1], [2, 3]]\" | ckernel assign \"2 * var * float64\" \"2 * var * int8\" -\n";

/* Standard input, whole, in ckernel memory; NULL (ck_malloc's message set) when it does not
 * fit. A file's size is known: one buffer for it (growing one by doubling copies the text
 * and faults in fresh pages at every step); a pipe's buffer doubles when it is full and more
 * comes. */
static char *read_stdin(void) {
    size_t cap = 4096, len = 0;
    struct stat st;
    if (fstat(fileno(stdin), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (unsigned long long)st.st_size < (unsigned long long)(SIZE_MAX / 2)) {
        cap = (size_t)st.st_size + 1; /* + the NUL */
    }
    char *buf = (char *)ck_malloc(cap);
    while (buf != NULL) {
        if (len + 1 == cap) { /* full: grow only if there is more */
            int c = getc(stdin);
            if (c == EOF) {
                break;
            }
            char *bigger = (char *)ck_malloc(cap * 2);
            if (bigger != NULL) {
                memcpy(bigger, buf, len);
                bigger[len++] = (char)c;
            }
            ck_free(buf);
            buf = bigger;
            cap *= 2;
            continue;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, stdin);
        len += n;
        if (n == 0) {
            break;
        }
    }
    if (buf != NULL) {
        buf[len] = '\0';
    }
    return buf;
}

int cmd_assign(int argc, char **argv) {
    cli_common c = {CK_EVAL_CTX_INIT, CK_CPU_BASELINE, 0};
    const char *args[3];
    int status = cli_parse_kernel_command("assign", assign_help, argc, argv, &c, 0, args, 3,
                                          "DST_TYPE, SRC_TYPE and LITERAL");
    if (status != CLI_PARSED) {
        return status;
    }
    char *input = NULL;
    const char *literal = args[2];
    if (strcmp(literal, "-") == 0) {
        input = read_stdin();
        if (input == NULL) {
            return cli_report(CK_ERR_NOMEM); /* ck_malloc's message: the request, or the limit */
        }
        literal = input;
    }
    ck_type *dt = NULL, *st = NULL;
    ck_array *src = NULL, *dst = NULL;
    char *text = NULL;
    status = cli_parse_type(args[0], &dt);
    if (status == CLI_OK) {
        status = cli_parse_type(args[1], &st);
    }
    if (status == CLI_OK) {
        int rc = ck_array_parse(st, literal, &src);
        if (rc == CK_OK) rc = ck_array_new(dt, &dst);
        if (rc == CK_OK) rc = ck_assign(dst, src, &c.ctx);
        if (rc == CK_OK) rc = ck_array_format(dst, &text);
        if (rc == CK_OK) {
            printf("%s\n", text);
        } else {
            status = cli_report(rc);
        }
    }
    ck_free(text);
    ck_array_free(src);
    ck_array_free(dst);
    ck_type_decref(dt);
    ck_type_decref(st);
    ck_free(input);
    return status;
}
