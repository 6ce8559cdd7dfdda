/* src/types/datashape_print.c: ck_type_format, the canonical datashape of a type, written
 * by each kind's format operation (type_internal.h): "3 * var * int32", "pointer[int8]",
 * "(int32, ?float64)", "{x: int32, 'a b': 2 * float32}"; scalars by their ck_type_id_name
 * (so complex[float32] prints as complex64). */
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
