/* src/common/strbuf.c: see strbuf.h. */
#include "common/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"

int ck__strbuf_reserve(ck__strbuf *b, size_t extra) {
    size_t want;
    if (ck__add_overflow(b->len, extra, &want) || ck__add_overflow(want, 1, &want)) {
        return b->status = ck_set_error(CK_ERR_NOMEM, "text of more than SIZE_MAX bytes");
    }
    if (want <= b->cap) {
        return CK_OK;
    }
    size_t grown = b->cap + b->cap / 2;
    if (grown < want) {
        grown = want;
    }
    if (grown < 64) {
        grown = 64;
    }
    char *p = (char *)ck__realloc(b->s, grown);
    if (p == NULL) {
        return b->status = ck__nomem_error("cannot grow a string to %zu bytes", grown);
    }
    b->s = p;
    b->cap = grown;
    return CK_OK;
}

int ck__strbuf_append(ck__strbuf *b, const char *s, size_t n) {
    if (b->status != CK_OK) {
        return b->status;
    }
    CK__RETURN_IF_ERROR(ck__strbuf_reserve(b, n));
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return CK_OK;
}

int ck__strbuf_puts(ck__strbuf *b, const char *s) {
    return ck__strbuf_append(b, s, strlen(s));
}

int ck__strbuf_vprintf(ck__strbuf *b, const char *fmt, va_list ap) {
    if (b->status != CK_OK) {
        return b->status;
    }
    char small[256];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        va_end(again);
        return b->status = ck_set_error(CK_ERR_INTERNAL, "bad format string '%s'", fmt);
    }
    if ((size_t)n < sizeof small) {
        va_end(again);
        return ck__strbuf_append(b, small, (size_t)n);
    }
    int rc = ck__strbuf_reserve(b, (size_t)n);
    if (rc == CK_OK) {
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, again);
        b->len += (size_t)n;
    }
    va_end(again);
    return rc;
}

int ck__strbuf_printf(ck__strbuf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int rc = ck__strbuf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

int ck__strbuf_finish(ck__strbuf *b, char **out) {
    int rc = b->status;
    if (rc == CK_OK && b->s == NULL) {
        rc = ck__strbuf_append(b, "", 0);
    }
    if (rc != CK_OK) {
        ck__strbuf_free(b);
        *out = NULL;
        return rc;
    }
    *out = b->s;
    b->s = NULL;
    b->len = b->cap = 0;
    return CK_OK;
}

void ck__strbuf_free(ck__strbuf *b) {
    ck__free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
    b->status = CK_OK;
}
