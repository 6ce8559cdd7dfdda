/* src/types/datashape_print.c: ck_type_format, the canonical datashape of a type: dims as
 * "N * " and "var * ", pointers as "pointer[...]", scalars by their ck_type_id_name
 * (so complex[float32] prints as complex64). */
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "types/type_internal.h"

/* Writes the text of t to out (when not NULL) and returns its length. Two passes over the
 * same code (measure, then write) keep the length and the text in agreement. */
static size_t ck__format_into(const ck_type *t, char *out) {
    size_t n = 0;
    int closing = 0;
    for (; !ck__id_is_scalar(t->id); t = t->element) {
        char buf[32];
        const char *piece;
        size_t len;
        if (t->id == CK_TYPE_FIXED_DIM) {
            len = (size_t)snprintf(buf, sizeof buf, "%lld * ", (long long)t->fixed_size);
            piece = buf;
        } else if (t->id == CK_TYPE_VAR_DIM) {
            piece = "var * ";
            len = 6;
        } else {
            piece = "pointer[";
            len = 8;
            closing++;
        }
        if (out != NULL) {
            memcpy(out + n, piece, len);
        }
        n += len;
    }
    const char *name = ck__scalar_name(t->id);
    size_t len = strlen(name);
    if (out != NULL) {
        memcpy(out + n, name, len);
        memset(out + n + len, ']', (size_t)closing);
        out[n + len + (size_t)closing] = '\0';
    }
    return n + len + (size_t)closing;
}

int ck_type_format(const ck_type *t, char **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_type_format: out is NULL");
    }
    *out = NULL;
    if (t == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_type_format: the type is NULL");
    }
    /* At most CK_TYPE_MAX_DEPTH levels of at most 28 bytes: no overflow possible. */
    size_t n = ck__format_into(t, NULL);
    char *s = (char *)ck__malloc(n + 1);
    if (s == NULL) {
        return ck__nomem_error("ck_type_format: out of memory (%zu bytes)", n + 1);
    }
    ck__format_into(t, s);
    *out = s;
    return CK_OK;
}
