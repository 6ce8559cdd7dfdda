/* ckernel/status.h: every status code, from one X-macro table, and the thread-local error
 * message that carries the details of the last failure on the calling thread. */
#ifndef CKERNEL_STATUS_H
#define CKERNEL_STATUS_H

#include "ckernel/export.h"

/* X(NAME, value, default message). Values never change once released; add at the end. */
#define CK_STATUS_MAP(X)                                                          \
    X(OK, 0, "success")                                                           \
    X(ERR_NOMEM, 1, "out of memory")                                              \
    X(ERR_INVALID, 2, "invalid argument")                                         \
    X(ERR_PARSE, 3, "parse error")                                                \
    X(ERR_TYPE, 4, "unsupported or mismatched type")                              \
    X(ERR_BROADCAST, 5, "shapes cannot be broadcast together")                    \
    X(ERR_OVERFLOW, 6, "value out of range of the destination type")              \
    X(ERR_FRACTIONAL, 7, "value has a fractional part the destination drops")     \
    X(ERR_INEXACT, 8, "value cannot be represented exactly in the destination")   \
    X(ERR_IMAGINARY, 9, "complex value has a non-zero imaginary part")            \
    X(ERR_UNINITIALIZED, 10, "source data is not allocated")                      \
    X(ERR_UNSUPPORTED, 11, "operation not supported")                             \
    X(ERR_INTERNAL, 12, "internal error")                                         \
    X(ERR_AMBIGUOUS, 13, "several signatures match equally well")                \
    X(ERR_ZERO_DIVISION, 14, "integer division by zero")                         \
    X(ERR_NA, 15, "a missing value (NA) where the destination cannot hold one")       \
    X(ERR_TEXT, 16, "text that does not read as the destination's value or encoding")  \
    X(ERR_DOMAIN, 17, "argument outside the function's domain")

typedef enum ck_status {
#define CK__STATUS_ENUM(name, value, msg) CK_##name = value,
    CK_STATUS_MAP(CK__STATUS_ENUM)
#undef CK__STATUS_ENUM
    CK__STATUS_END /* one past the last status; not a status */
} ck_status;

CK_BEGIN_DECLS

/* "CK_ERR_NOMEM" for CK_ERR_NOMEM; "CK_ERR_UNKNOWN" for a value not in the table. */
CK_EXTERN const char *ck_status_name(int status);
/* The table's fixed message ("out of memory"); "unknown status" for a value not in it. */
CK_EXTERN const char *ck_status_message(int status);
/* Details of the most recent failure reported on this thread ("3 * vra * int32: unknown
 * type 'vra' at column 5"). Empty string when nothing failed since ck_clear_error(). The
 * pointer stays valid until the next ckernel call on this thread. */
CK_EXTERN const char *ck_last_error(void);
/* Status of that failure, CK_OK when none. */
CK_EXTERN int ck_last_status(void);
CK_EXTERN void ck_clear_error(void);
/* Records a failure on this thread (for user kernels and factories); returns status so a
 * kernel can `return ck_set_error(CK_ERR_OVERFLOW, "value %d ...", v);`. */
CK_EXTERN int ck_set_error(int status, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

CK_END_DECLS

#endif
