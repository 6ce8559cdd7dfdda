/* src/common/errmode.c: names of the error modes of ckernel/eval.h. */
#include <string.h>

#include "ckernel/eval.h"
#include "common/internal.h"

static const char *const ck__errmode_names[] = {"nocheck", "overflow", "fractional", "inexact",
                                                "default"};

const char *ck_errmode_name(ck_errmode mode) {
    if ((unsigned)mode >= CK__ARRAY_SIZE(ck__errmode_names)) {
        return NULL;
    }
    return ck__errmode_names[mode];
}

int ck_errmode_parse(const char *name, ck_errmode *out) {
    for (size_t i = 0; name != NULL && i < CK__ARRAY_SIZE(ck__errmode_names); i++) {
        if (strcmp(name, ck__errmode_names[i]) == 0) {
            *out = (ck_errmode)i;
            return CK_OK;
        }
    }
    return ck_set_error(CK_ERR_INVALID,
                        "unknown error mode '%s' (nocheck, overflow, fractional, inexact or "
                        "default)",
                        name != NULL ? name : "(null)");
}
