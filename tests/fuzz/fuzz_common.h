/* tests/fuzz/fuzz_common.h: invariant checks shared by the fuzz targets. A broken invariant
 * aborts with a message, which libFuzzer (and the replay driver) report as a crash. */
#ifndef CK_FUZZ_COMMON_H
#define CK_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ckernel/ckernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CKF_CHECK(cond, ...)                                                   \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "fuzz invariant failed: %s (%s:%d): ", #cond,      \
                    __FILE__, __LINE__);                                       \
            fprintf(stderr, __VA_ARGS__);                                      \
            fprintf(stderr, "\n");                                             \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* The input as a NUL-terminated string (the harness's own memory, not ckernel's). */
static inline char *ckf_string(const uint8_t *data, size_t size) {
    char *s = (char *)malloc(size + 1);
    if (s != NULL) {
        memcpy(s, data, size);
        s[size] = '\0';
    }
    return s;
}

/* Every ckernel allocation made for one input is released by the end of it. */
static inline void ckf_check_no_leak(void) {
    ck_alloc_stats st;
    ck_get_alloc_stats(&st);
    CKF_CHECK(st.live == 0, "%lld ckernel allocation(s) live after the input", (long long)st.live);
}

#endif
