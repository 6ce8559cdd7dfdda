/* src/types/datashape_print.c: ck_type_format, the canonical datashape of a type, written
 * by each kind's format operation (type_internal.h): "3 * var * int32", "pointer[int8]",
 * "(int32, ?float64)", "{x: int32, 'a b': 2 * float32}"; scalars by their ck_type_id_name
 * (so complex[float32] prints as complex64). */
#include <string.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "types/type_internal.h"

int ck_type_format(const ck_type *t, char **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_type_format: out is NULL");
    }
    *out = NULL;
    if (t == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_type_format: the type is NULL");
    }
    ck__strbuf b = CK__STRBUF_INIT;
    ck__type_kind_of(t->id)->format(t, &b);
    const int rc = ck__strbuf_finish(&b, out);
    if (rc != CK_OK) {
        return ck__nomem_error("ck_type_format: out of memory");
    }
    return CK_OK;
}

void ck__type_text_shown(const ck_type *t, char *buf) {
    char *text = NULL;
    if (ck_type_format(t, &text) != CK_OK) {
        memcpy(buf, "?", 2);
        return;
    }
    const size_t len = strlen(text);
    if (len <= CK__TYPE_SHOWN) {
        memcpy(buf, text, len + 1);
        ck_free(text);
        return;
    }
    /* The last space outside a quoted name that keeps at most CK__TYPE_SHOWN bytes: spaces
     * separate the datashape's tokens (a quoted name may hold spaces of its own). */
    size_t cut = 0;
    int quoted = 0;
    for (size_t i = 0; i <= CK__TYPE_SHOWN; i++) {
        const char ch = text[i];
        if (quoted) {
            if (ch == '\\') {
                i++; /* the escaped character is part of the name */
            } else if (ch == '\'') {
                quoted = 0;
            }
        } else if (ch == '\'') {
            quoted = 1;
        } else if (ch == ' ') {
            cut = i;
        }
    }
    memcpy(buf, text, cut);
    memcpy(buf + cut, "...", 4);
    ck_free(text);
}
