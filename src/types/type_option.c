/* src/types/type_option.c: the option kind `?T` (a T, or missing: NA) and the NA value of
 * each scalar.
 *
 * NA lives in the data as one reserved value of T (DyND's model), not in a separate validity
 * bitmap (Arrow's): an option element is exactly a T, so an option array has the layout,
 * strides and kernels of a T array, one element is one pointer in the elementwise ABI, and
 * a NumPy or C buffer of T can be read as ?T in place. What it costs: one value per type
 * is reserved (the minimum of a signed integer, the maximum of an unsigned one, 2 for bool,
 * one NaN payload for floats), so that value cannot be stored as a value, and the check is
 * per element where a bitmap could skip 64 at a time.
 *
 * The value type is a scalar, a datetime64 or timedelta64 (NA: NaT, int64's), or a text kind,
 * whose NA is every byte of the element 0xff: a string or bytes slot {all-ones pointer,
 * SIZE_MAX}, which no allocation can be, and N units of 0xff, which ascii, utf8 and utf32 text
 * cannot hold (for utf16 and fixed_bytes that one value is reserved, as an unsigned integer's
 * maximum is). The arrmeta is the value type's (a string's arena). */
#include <stdint.h>
#include <string.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "values/datetime.h"
#include "common/scalars.h"
#include "types/type_internal.h"

/* The NA of each scalar, as stored (little or big endian alike: built from integers), from
 * the table's na column: the minimum of a signed integer, the maximum of an unsigned one, 2
 * for bool, and for floats a quiet NaN with the payload 0x7a2 (DyND's, made quiet), so
 * arithmetic on it, were it ever to happen, gives no signal, and a NaN computed from values
 * is never NA (kinds/options/na_canon.c). Two parts each: a complex holds it in both. */
#define CK__NA_VALUE(E, n, part, psize, parts, kind, bits, exp, na, ...)                      \
    static const CK__SCALAR_UINT_##psize na_##n[2] = {(CK__SCALAR_UINT_##psize)(na),         \
                                                      (CK__SCALAR_UINT_##psize)(na)};
CK_SCALAR_TABLE(CK__NA_VALUE)

/* The text kinds' NA, for ck_option_na_bytes: every byte 0xff. */
#define CK__ONES4 UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX
static const uint64_t na_text[CK__TEXT_NA_BYTES / 8] = {CK__ONES4, CK__ONES4, CK__ONES4,
                                                         CK__ONES4, CK__ONES4, CK__ONES4,
                                                         CK__ONES4, CK__ONES4};

int ck__is_text_na(const void *p, size_t size) {
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < size; i++) {
        if (b[i] != 0xffu) {
            return 0; /* almost always at the first byte */
        }
    }
    return 1;
}

int ck__is_na_of(const ck_type *value, const void *p) {
    return ck__is_text(value->id) ? ck__is_text_na(p, value->data_size) : ck__is_na(value->id, p);
}

void ck__write_na(const ck_type *value, void *p) {
    if (ck__is_text(value->id)) {
        memset(p, 0xff, value->data_size);
    } else {
        memcpy(p, ck__na_bytes(value->id), value->data_size);
    }
}

const void *ck__na_bytes(ck_type_id id) {
#define CK__NA_CASE(E, n, ...) case CK_TYPE_##E: return na_##n;
    switch (id) {
    CK_SCALAR_TABLE(CK__NA_CASE)
    case CK_TYPE_DATETIME: /* NaT */
    case CK_TYPE_TIMEDELTA: return na_int64;
    default: return NULL;
    }
#undef CK__NA_CASE
}

int ck__is_na(ck_type_id id, const void *p) {
    const void *na = ck__na_bytes(id);
    const size_t size = ck__id_is_scalar(id) ? ck_type_data_size(ck_type_scalar(id)) : 8;
    return na != NULL && memcmp(p, na, size) == 0;
}

/* Bits of an integer type, its signedness; 0 bits for the others. */
static int int_bits(ck_type_id id, int *is_signed) {
    *is_signed = ck__scalar_is(id, CK__SCALAR_KIND_SIGNED);
    return ck__scalar_is_integer(id) ? ck__scalar_info(id)->bits + *is_signed : 0;
}

int ck__conversion_can_give_na(ck_type_id src, ck_type_id dst) {
    if (src == dst || src == CK_TYPE_BOOL || dst == CK_TYPE_BOOL) {
        return 0; /* a copy keeps NA as NA and values as values; bools convert to 0 or 1 */
    }
    int ssigned, dsigned;
    const int sbits = int_bits(src, &ssigned), dbits = int_bits(dst, &dsigned);
    if (dbits == 0) {
        return sbits == 0; /* a float NaN's payload can land on the NA (written as NaN,
                            * kinds/options/na_canon.c); an integer never makes a NaN */
    }
    if (sbits == 0) {
        return 1; /* a float can hold the integer minimum or maximum exactly */
    }
    if (dsigned) {
        return ssigned && sbits >= dbits; /* the minimum: only a signed type reaches it */
    }
    return ssigned ? sbits > dbits : sbits >= dbits; /* the maximum */
}

const void *ck_option_na_bytes(const ck_type *t) {
    if (t == NULL) {
        return NULL;
    }
    if (t->id == CK_TYPE_OPTION) {
        t = t->element;
    }
    if (ck__is_text(t->id)) {
        return t->data_size <= sizeof na_text ? (const void *)na_text : NULL;
    }
    return ck__na_bytes(t->id);
}

int ck_option_is_na(const ck_type *t, const void *data) {
    if (t == NULL || data == NULL) {
        return 0;
    }
    if (t->id == CK_TYPE_OPTION) {
        t = t->element;
    }
    return ck__is_na_of(t, data);
}

int ck_type_make_option(const ck_type *value, ck_type **out) {
    CK__RETURN_IF_ERROR(ck__type_check_part("ck_type_make_option", value, out));
    if (!ck__id_is_scalar(value->id) && !ck__is_time(value->id) && !ck__is_text(value->id)) {
        return ck_set_error(CK_ERR_UNSUPPORTED,
                            "ck_type_make_option: options of %s types are not supported yet "
                            "(only of scalars, datetimes and text)",
                            ck_type_id_name(value->id));
    }
    ck_type *t = ck__type_alloc(CK_TYPE_OPTION, 0);
    if (t == NULL) {
        return CK_ERR_NOMEM;
    }
    t->depth = (uint8_t)(value->depth + 1);
    t->data_size = value->data_size;
    t->data_alignment = value->data_alignment;
    t->arrmeta_size = value->arrmeta_size;
    t->has_blockref = value->has_blockref;
    ck_type_incref(value);
    t->element = value;
    *out = t;
    return CK_OK;
}

/* ---- operations ---- */

static void option_release(ck_type *t) {
    ck_type_decref(t->element);
}

static int option_equal(const ck_type *a, const ck_type *b) {
    return ck_type_equal(a->element, b->element);
}

static void option_format(const ck_type *t, ck__strbuf *out) {
    ck__strbuf_puts(out, "?");
    ck__type_kind_of(t->element->id)->format(t->element, out);
}

static void option_construct(const ck_type *t, char *arrmeta, ck_memblock *blockref) {
    ck__type_kind_of(t->element->id)->arrmeta_construct(t->element, arrmeta, blockref);
}

static void option_incref(const ck_type *t, char *arrmeta) {
    ck__arrmeta_incref(t->element, arrmeta);
}

static void option_release_arrmeta(const ck_type *t, char *arrmeta) {
    ck_arrmeta_release(t->element, arrmeta);
}

const ck__type_kind ck__option_kind_ops = {option_release,   option_equal,  option_format,
                                           option_construct, option_incref, option_release_arrmeta,
                                           ck__slot_extent};
