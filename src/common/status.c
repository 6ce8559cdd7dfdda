/* src/common/status.c: status names and messages from the table in ckernel/status.h, and
 * the thread-local message of the last failure. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"

const char *ck_status_name(int status) {
    switch (status) {
#define CK__STATUS_NAME(name, value, msg) \
    case CK_##name:                       \
        return "CK_" #name;
        CK_STATUS_MAP(CK__STATUS_NAME)
#undef CK__STATUS_NAME
    default:
        return "CK_ERR_UNKNOWN";
    }
}

const char *ck_status_message(int status) {
    switch (status) {
#define CK__STATUS_MSG(name, value, msg) \
    case CK_##name:                      \
        return msg;
        CK_STATUS_MAP(CK__STATUS_MSG)
#undef CK__STATUS_MSG
    default:
        return "unknown status";
    }
}

/* A fixed buffer: recording an error must itself never allocate (it reports NOMEM too). */
#define CK__ERROR_CAPACITY 512

typedef struct ck__error_state {
    int status;
    char message[CK__ERROR_CAPACITY];
} ck__error_state;

static _Thread_local ck__error_state ck__error;

const char *ck_last_error(void) {
    return ck__error.message;
}

int ck_last_status(void) {
    return ck__error.status;
}

void ck_clear_error(void) {
    ck__error.status = CK_OK;
    ck__error.message[0] = '\0';
}

int ck_set_error(int status, const char *fmt, ...) {
    ck__error.status = status;
    if (fmt == NULL) {
        snprintf(ck__error.message, sizeof ck__error.message, "%s", ck_status_message(status));
        return status;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(ck__error.message, sizeof ck__error.message, fmt, ap);
    va_end(ap);
    if (n < 0) {
        snprintf(ck__error.message, sizeof ck__error.message, "%s", ck_status_message(status));
    } else if ((size_t)n >= sizeof ck__error.message) {
        /* Mark truncation so nobody mistakes a cut message for the whole one. */
        memcpy(ck__error.message + sizeof ck__error.message - 4, "...", 4);
    }
    return status;
}

int ck__set_error_str(int status, const char *msg) {
    return ck_set_error(status, "%s", msg);
}
