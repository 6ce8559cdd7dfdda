/* src/types/type_text.c: the text kinds: `string` (UTF-8 of any length) and `bytes` (the same
 * without an encoding), whose elements are a ck_string_data slot over bytes in an arena, and
 * `fixed_string[N, enc]` and `fixed_bytes[N]`, N code units in the element itself, NUL-padded
 * (NumPy's U and S layouts). Their makers, queries and operations (type_internal.h).
 *
 * string and bytes are static objects, as the scalars are; their arrmeta is the arena a
 * destination allocates from (ck_string_arrmeta). The fixed kinds have no arrmeta. The
 * encoding is the type's `param`, so a later kind with a parameter beside its layout (a
 * datetime's unit) is the same few lines. */
#include <stdalign.h>
#include <string.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "types/type_internal.h"

static ck_type ck__string_type = {.id = CK_TYPE_STRING,
                                  .is_static = 1,
                                  .has_blockref = 1,
                                  .fixed_size = -1,
                                  .data_size = sizeof(ck_string_data),
                                  .data_alignment = alignof(ck_string_data),
                                  .arrmeta_size = sizeof(ck_string_arrmeta),
                                  .param = CK_ENCODING_UTF8};
static ck_type ck__bytes_type = {.id = CK_TYPE_BYTES,
                                 .is_static = 1,
                                 .has_blockref = 1,
                                 .fixed_size = -1,
                                 .data_size = sizeof(ck_string_data),
                                 .data_alignment = alignof(ck_string_data),
                                 .arrmeta_size = sizeof(ck_string_arrmeta),
                                 .param = CK_ENCODING_NONE};

const ck_type *ck_type_string(void) {
    return &ck__string_type;
}

const ck_type *ck_type_bytes(void) {
    return &ck__bytes_type;
}

static const char *const ck__encodings[] = {"ascii", "utf8", "utf16", "utf32", "none"};

const char *ck__encoding_name(int enc) {
    return enc >= 0 && enc < (int)CK__ARRAY_SIZE(ck__encodings) ? ck__encodings[enc] : NULL;
}

const char *ck_text_encoding_name(ck_text_encoding enc) {
    const char *name = ck__encoding_name((int)enc);
    return name != NULL ? name : "unknown";
}

static int make_fixed(ck_type_id id, const char *what, intptr_t length, int enc,
                      ck_type **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "%s: out is NULL", what);
    }
    *out = NULL;
    if (length < 1) {
        return ck_set_error(CK_ERR_INVALID, "%s: the length must be at least 1, not %lld", what,
                            (long long)length);
    }
    const size_t unit = ck__code_unit_size(enc);
    if ((size_t)length > (size_t)INTPTR_MAX / unit) {
        return ck_set_error(CK_ERR_INVALID,
                            "%s: %lld code units of %zu bytes overflow the largest data size "
                            "(%lld bytes)",
                            what, (long long)length, unit, (long long)INTPTR_MAX);
    }
    ck_type *t = ck__type_alloc(id, 0);
    if (t == NULL) {
        return CK_ERR_NOMEM;
    }
    t->data_size = (size_t)length * unit;
    t->data_alignment = unit;
    t->param = (uint8_t)enc;
    *out = t;
    return CK_OK;
}

int ck_type_make_fixed_string(intptr_t length, ck_text_encoding enc, ck_type **out) {
    if ((unsigned)enc > CK_ENCODING_UTF32) {
        if (out != NULL) {
            *out = NULL;
        }
        return ck_set_error(CK_ERR_INVALID,
                            "ck_type_make_fixed_string: unknown encoding %d (ascii, utf8, utf16 "
                            "or utf32)",
                            (int)enc);
    }
    return make_fixed(CK_TYPE_FIXED_STRING, "ck_type_make_fixed_string", length, (int)enc, out);
}

int ck_type_make_fixed_bytes(intptr_t length, ck_type **out) {
    return make_fixed(CK_TYPE_FIXED_BYTES, "ck_type_make_fixed_bytes", length, CK_ENCODING_NONE,
                      out);
}

int ck_type_is_text(const ck_type *t) {
    return t != NULL && ck__is_text(t->id);
}

int ck_type_text_encoding(const ck_type *t) {
    return ck_type_is_text(t) ? (int)t->param : -1;
}

intptr_t ck_type_text_length(const ck_type *t) {
    if (t == NULL || (t->id != CK_TYPE_FIXED_STRING && t->id != CK_TYPE_FIXED_BYTES)) {
        return -1;
    }
    return (intptr_t)(t->data_size / ck__code_unit_size(t->param));
}

/* ---- operations ---- */

static void text_release(ck_type *t) {
    (void)t; /* no element, no fields */
}

static int text_equal(const ck_type *a, const ck_type *b) {
    return a->data_size == b->data_size && a->param == b->param;
}

static void text_format(const ck_type *t, ck__strbuf *out) {
    switch (t->id) {
    case CK_TYPE_FIXED_STRING:
        ck__strbuf_printf(out, "fixed_string[%lld, '%s']", (long long)ck_type_text_length(t),
                          ck__encoding_name(t->param));
        return;
    case CK_TYPE_FIXED_BYTES:
        ck__strbuf_printf(out, "fixed_bytes[%lld]", (long long)ck_type_text_length(t));
        return;
    default:
        ck__strbuf_puts(out, ck_type_id_name(t->id));
        return;
    }
}

static void text_construct(const ck_type *t, char *arrmeta, ck_memblock *blockref) {
    if (ck__is_var_text(t->id)) {
        const ck_string_arrmeta m = {blockref};
        ck_memblock_incref(blockref);
        memcpy(arrmeta, &m, sizeof m);
    }
}

static void text_incref(const ck_type *t, char *arrmeta) {
    if (ck__is_var_text(t->id)) {
        ck_string_arrmeta m;
        memcpy(&m, arrmeta, sizeof m);
        ck_memblock_incref(m.blockref);
    }
}

static void text_release_arrmeta(const ck_type *t, char *arrmeta) {
    if (ck__is_var_text(t->id)) {
        ck_string_arrmeta m;
        memcpy(&m, arrmeta, sizeof m);
        const ck_string_arrmeta none = {NULL};
        memcpy(arrmeta, &none, sizeof none);
        ck_memblock_decref(m.blockref);
    }
}

const ck__type_kind ck__text_kind_ops = {text_release,   text_equal,  text_format,
                                         text_construct, text_incref, text_release_arrmeta,
                                         ck__slot_extent};
