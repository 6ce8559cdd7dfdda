/* tests/fuzz/replay_main.c: runs files and directories of fuzz inputs through a target's
 * LLVMFuzzerTestOneInput, so the committed corpus is a regression test in every build,
 * whatever the compiler. usage: replay PATH...  (fails when no input was found) */
#define _POSIX_C_SOURCE 200809L
/* 64-bit directory offsets and inode numbers on 32-bit hosts too: without it readdir fails
 * with EOVERFLOW there (armhf under qemu found no corpus inputs). */
#define _FILE_OFFSET_BITS 64

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static long replayed = 0;

static int replay_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            unsigned char *grown = realloc(buf, cap);
            if (grown == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
        }
    }
    fclose(f);
    if (buf == NULL) {
        fprintf(stderr, "%s: out of memory\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    replayed++;
    return 0;
}

static int replay_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        return replay_file(path);
    }
    DIR *d = opendir(path);
    if (d == NULL) {
        perror(path);
        return 1;
    }
    int failures = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') {
            continue;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *child = malloc(len);
        if (child == NULL) {
            failures++;
            break;
        }
        snprintf(child, len, "%s/%s", path, e->d_name);
        failures += replay_path(child);
        free(child);
    }
    closedir(d);
    return failures;
}

int main(int argc, char **argv) {
    int failures = 0;
    for (int i = 1; i < argc; i++) {
        failures += replay_path(argv[i]);
    }
    printf("replayed %ld input(s)\n", replayed);
    if (replayed == 0) {
        fprintf(stderr, "no inputs found\n");
        return 1;
    }
    return failures != 0;
}
