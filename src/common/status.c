/* src/common/status.c: status names and messages from the table in ckernel/status.h, and
 * the thread-local message of the last failure. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ckernel/types.h"
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
#define CK__ERROR_CAPACITY 1024

/* A located error (ck__set_located_error) keeps its parts, so that the loops it unwinds
 * through can add their element indices to the message. */
typedef struct ck__error_location {
    int active;            /* 1 while the last error is a located one */
    int dim;               /* the dimension that failed */
    int nidx;              /* indices known so far, outermost first */
    intptr_t idx[CK_TYPE_MAX_DEPTH];
    const char *what;      /* a static string: "var dimension" */
    char body[CK__ERROR_CAPACITY];
} ck__error_location;

typedef struct ck__error_state {
    int status;
    /* 1 while the last error is the allocation limit's refusal: the caller that got NULL
     * keeps that message (ck__nomem_error) instead of writing a vaguer one. */
    int alloc_limit;
    char message[CK__ERROR_CAPACITY];
    ck__error_location loc;
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
    ck__error.alloc_limit = 0;
    ck__error.message[0] = '\0';
    ck__error.loc.active = 0;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 0)))
#endif
static int ck__set_error_v(int status, const char *fmt, va_list ap) {
    ck__error.status = status;
    ck__error.alloc_limit = 0;
    ck__error.loc.active = 0;
    int n = vsnprintf(ck__error.message, sizeof ck__error.message, fmt, ap);
    if (n < 0) {
        snprintf(ck__error.message, sizeof ck__error.message, "%s", ck_status_message(status));
    } else if ((size_t)n >= sizeof ck__error.message) {
        /* Mark truncation so nobody mistakes a cut message for the whole one. */
        memcpy(ck__error.message + sizeof ck__error.message - 4, "...", 4);
    }
    return status;
}

int ck_set_error(int status, const char *fmt, ...) {
    if (fmt == NULL) {
        return ck_set_error(status, "%s", ck_status_message(status));
    }
    va_list ap;
    va_start(ap, fmt);
    ck__set_error_v(status, fmt, ap);
    va_end(ap);
    return status;
}

int ck__set_alloc_limit_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ck__set_error_v(CK_ERR_NOMEM, fmt, ap);
    va_end(ap);
    ck__error.alloc_limit = 1;
    return CK_ERR_NOMEM;
}

void ck__clear_alloc_limit_mark(void) {
    ck__error.alloc_limit = 0;
}

int ck__nomem_error(const char *fmt, ...) {
    if (ck__error.alloc_limit && ck__error.status == CK_ERR_NOMEM) {
        return CK_ERR_NOMEM; /* the limit's message names the request and the limit */
    }
    va_list ap;
    va_start(ap, fmt);
    ck__set_error_v(CK_ERR_NOMEM, fmt, ap);
    va_end(ap);
    return CK_ERR_NOMEM;
}

int ck__set_error_str(int status, const char *msg) {
    return ck_set_error(status, "%s", msg);
}

/* "<what> <dim>[ at [i][j]...]: <body>" from the location's parts; without a `what`,
 * "<body>[ at element [i][j]...]". */
static void ck__render_location(void) {
    const ck__error_location *l = &ck__error.loc;
    char path[CK__ERROR_CAPACITY];
    size_t used = 0;
    path[0] = '\0';
    for (int i = 0; i < l->nidx && used < sizeof path; i++) {
        const int n = snprintf(path + used, sizeof path - used, "%s[%td]", i == 0 ? " at " : "",
                               l->idx[i]);
        used = n < 0 ? sizeof path : used + (size_t)n;
    }
    if (l->what == NULL) { /* an element's own failure: "<body> at element [i][j]" */
        ck_set_error(ck__error.status, "%s%s%s", l->body, l->nidx > 0 ? " at element" : "",
                     path + (l->nidx > 0 ? 3 : 0));
    } else {
        ck_set_error(ck__error.status, "%s %d%s: %s", l->what, l->dim, path, l->body);
    }
    ck__error.loc.active = 1; /* ck_set_error cleared it */
}

int ck__set_located_error(int status, const char *what, int dim, const char *fmt, ...) {
    ck__error.status = status;
    ck__error_location *l = &ck__error.loc;
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(l->body, sizeof l->body, fmt, ap);
    va_end(ap);
    if (n < 0) {
        snprintf(l->body, sizeof l->body, "%s", ck_status_message(status));
    }
    l->what = what;
    l->dim = dim;
    l->nidx = 0;
    ck__render_location();
    return status;
}

/* The location is still the one of the failure being propagated as `rc`: a kernel that
 * failed without a message of its own must not extend an older error's. */
static int ck__location_is(int rc) {
    return ck__error.loc.active && ck__error.status == rc;
}

void ck__error_at(int rc, intptr_t index) {
    ck__error_location *l = &ck__error.loc;
    if (!ck__location_is(rc) || l->nidx >= CK_TYPE_MAX_DEPTH) {
        return;
    }
    memmove(l->idx + 1, l->idx, (size_t)l->nidx * sizeof l->idx[0]);
    l->idx[0] = index;
    l->nidx++;
    ck__render_location();
}

void ck__error_offset_outer(int rc, intptr_t delta) {
    ck__error_location *l = &ck__error.loc;
    if (ck__location_is(rc) && l->nidx > 0 && delta != 0) {
        l->idx[0] += delta;
        ck__render_location();
    }
}

void ck__error_prefix(int rc, const char *fmt, ...) {
    /* The allocation limit's message stays whole, as every caller keeps it (§5). */
    ck__error_location *l = &ck__error.loc;
    if (ck__error.status != rc || (l->active && l->what != NULL) || ck__error.alloc_limit) {
        return;
    }
    char prefix[CK__ERROR_CAPACITY], message[CK__ERROR_CAPACITY];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    if (n < 0) {
        return;
    }
    if (l->active) { /* an element's own failure: the text goes before its body */
        const size_t np = strlen(prefix), room = sizeof l->body - 1;
        const size_t keep = np < room ? room - np : 0;
        memmove(l->body + (np < room ? np : room), l->body, keep);
        memcpy(l->body, prefix, np < room ? np : room);
        l->body[room] = '\0';
        ck__render_location();
        return;
    }
    memcpy(message, ck__error.message, sizeof message);
    ck_set_error(rc, "%s%s", prefix, message);
}
