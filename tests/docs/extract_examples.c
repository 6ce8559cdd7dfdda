/* tests/docs/extract_examples.c: writes the C examples of a Markdown file to files.
 * usage: ck_extract_examples DOC.md OUTDIR NAME...
 * A fenced block opened by a line starting with ```c whose first line is
 * "/" "* example: NAME *" "/" is appended to OUTDIR/NAME. Every NAME given must be produced,
 * and every example in the document must be one of the NAMEs, so a renamed or deleted
 * example fails the build instead of silently testing nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 4096

static int name_index(const char *name, int argc, char **argv) {
    for (int i = 3; i < argc; i++) {
        if (strcmp(name, argv[i]) == 0) {
            return i;
        }
    }
    return -1;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s DOC.md OUTDIR NAME...\n", argv[0]);
        return 2;
    }
    FILE *doc = fopen(argv[1], "r");
    if (doc == NULL) {
        perror(argv[1]);
        return 1;
    }
    int produced[256] = {0};
    if (argc > 256) {
        fprintf(stderr, "too many names\n");
        return 2;
    }
    /* Truncate every output first: examples are appended block by block. */
    char path[4096];
    for (int i = 3; i < argc; i++) {
        snprintf(path, sizeof path, "%s/%s", argv[2], argv[i]);
        FILE *f = fopen(path, "w");
        if (f == NULL) {
            perror(path);
            return 1;
        }
        fprintf(f, "/* Generated from %s: edit the document, not this file. */\n", argv[1]);
        fclose(f);
    }
    char line[MAX_LINE];
    FILE *out = NULL;
    int in_block = 0, first_line = 0, lineno = 0;
    while (fgets(line, sizeof line, doc) != NULL) {
        lineno++;
        if (!in_block) {
            if (strncmp(line, "```c", 4) == 0 && (line[4] == '\n' || line[4] == '\r')) {
                in_block = 1;
                first_line = 1;
            }
            continue;
        }
        if (strncmp(line, "```", 3) == 0) {
            in_block = 0;
            if (out != NULL) {
                fclose(out);
                out = NULL;
            }
            continue;
        }
        if (first_line) {
            first_line = 0;
            char name[256];
            if (sscanf(line, "/* example: %255s */", name) == 1) {
                int idx = name_index(name, argc, argv);
                if (idx < 0) {
                    fprintf(stderr, "%s:%d: example '%s' is not known to the build\n", argv[1],
                            lineno, name);
                    return 1;
                }
                produced[idx] = 1;
                snprintf(path, sizeof path, "%s/%s", argv[2], name);
                out = fopen(path, "a");
                if (out == NULL) {
                    perror(path);
                    return 1;
                }
                fprintf(out, "#line %d \"%s\"\n", lineno + 1, argv[1]);
            }
            continue; /* the marker line itself is not copied */
        }
        if (out != NULL) {
            fputs(line, out);
        }
    }
    fclose(doc);
    for (int i = 3; i < argc; i++) {
        if (!produced[i]) {
            fprintf(stderr, "%s: no example named '%s'\n", argv[1], argv[i]);
            return 1;
        }
    }
    return 0;
}
