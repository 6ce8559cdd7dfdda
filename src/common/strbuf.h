/* src/common/strbuf.h: a growable NUL-terminated string in ckernel memory, for formatted
 * output (datashapes, literals, kernel descriptions). The first failure sticks: later
 * appends do nothing and ck__strbuf_finish reports CK_ERR_NOMEM. */
#ifndef CKERNEL_STRBUF_H
#define CKERNEL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ck__strbuf {
    char *s;    /* NULL until the first append */
    size_t len; /* bytes before the NUL */
    size_t cap;
    int status; /* CK_OK, or the first failure */
} ck__strbuf;

#define CK__STRBUF_INIT {NULL, 0, 0, 0}

/* Room for `extra` more bytes (and the NUL); growing by half again at a time otherwise. */
int ck__strbuf_reserve(ck__strbuf *b, size_t extra);
int ck__strbuf_append(ck__strbuf *b, const char *s, size_t n);
int ck__strbuf_puts(ck__strbuf *b, const char *s);
int ck__strbuf_printf(ck__strbuf *b, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int ck__strbuf_vprintf(ck__strbuf *b, const char *fmt, va_list ap)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 0)))
#endif
    ;
/* Hands the string to *out (free with ck_free) and empties b; on an earlier failure frees
 * it, sets *out to NULL and returns that status. */
int ck__strbuf_finish(ck__strbuf *b, char **out);
void ck__strbuf_free(ck__strbuf *b);

#ifdef __cplusplus
}
#endif

#endif
