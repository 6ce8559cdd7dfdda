/* src/arrays/literal_format.c: ck_array_format, the literal text of an array: nested lists,
 * integers in decimal, floats in their shortest round-trip text (integral ones without a
 * point: the type says they are floats), complex as 1.5-2j, true/false, tuples as (1, 2.5),
 * structs as {x: 1, y: [1.5, 2]}, NA for a missing option value, null for an unallocated
 * var dim or a NULL pointer, and text quoted as JSON writes it ("a\n\u0001"; bytes other
 * than printable ASCII as \xHH). Walks any valid arrmeta (strides of any sign, var
 * offsets, a host's field offsets), not only the container's own. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "arrays/array_internal.h"
#include "common/scalars.h"
#include "values/numtext.h"
#include "values/datetime.h"
#include "values/text_codec.h"

#define CK__APPEND_LIT(b, lit) ck__strbuf_append((b), (lit), sizeof(lit) - 1)

size_t ck__format_complex_text(double re, double im, ck__fkind k, char *buf) {
    size_t n = ck__format_float(re, k, 0, buf);
    /* The imaginary part always carries its sign; nan prints none, so it gets "+". */
    if (isnan(im) || !signbit(im)) {
        buf[n++] = '+';
    }
    n += ck__format_float(im, k, 0, buf + n);
    buf[n++] = 'j';
    return n;
}

static int ck__format_complex(ck__strbuf *b, double re, double im, ck__fkind k) {
    char buf[80];
    return ck__strbuf_append(b, buf, ck__format_complex_text(re, im, k, buf));
}

/* A signed value's text: the sign, then the magnitude's digits (INT64_MIN's too). */
static size_t ck__format_signed(int64_t v, char *buf) {
    const size_t sign = v < 0;
    buf[0] = '-';
    const size_t n = sign + ck__format_uint64(sign ? (uint64_t)0 - (uint64_t)v : (uint64_t)v,
                                              buf + sign);
    buf[n] = '\0';
    return n;
}

static size_t ck__format_unsigned(uint64_t v, char *buf) {
    const size_t n = ck__format_uint64(v, buf);
    buf[n] = '\0';
    return n;
}

size_t ck__format_number(int id, const char *data, int point, char *buf) {
    switch (id) {
#define CK__FMT_INT(ID, T, FN, CAST)                                          \
    case ID: {                                                                \
        T v;                                                                  \
        memcpy(&v, data, sizeof v);                                           \
        return FN((CAST)v, buf);                                              \
    }
        CK__FMT_INT(CK_TYPE_INT8, int8_t, ck__format_signed, int64_t)
        CK__FMT_INT(CK_TYPE_INT16, int16_t, ck__format_signed, int64_t)
        CK__FMT_INT(CK_TYPE_INT32, int32_t, ck__format_signed, int64_t)
        CK__FMT_INT(CK_TYPE_INT64, int64_t, ck__format_signed, int64_t)
        CK__FMT_INT(CK_TYPE_UINT8, uint8_t, ck__format_unsigned, uint64_t)
        CK__FMT_INT(CK_TYPE_UINT16, uint16_t, ck__format_unsigned, uint64_t)
        CK__FMT_INT(CK_TYPE_UINT32, uint32_t, ck__format_unsigned, uint64_t)
        CK__FMT_INT(CK_TYPE_UINT64, uint64_t, ck__format_unsigned, uint64_t)
#undef CK__FMT_INT
    default: { /* a float */
        const ck__fkind k = ck__fkind_of(id);
        return ck__format_float(ck__fkind_load(k, data), k, point, buf);
    }
    }
}

static int ck__format_scalar(ck__strbuf *b, ck_type_id id, const char *data) {
    char buf[48];
    switch (id) {
    case CK_TYPE_BOOL:
        return *data != 0 ? CK__APPEND_LIT(b, "true") : CK__APPEND_LIT(b, "false");
    default:
        if (ck__scalar_is_complex(id)) {
            const ck__fkind k = ck__fkind_of(id);
            return ck__format_complex(b, ck__fkind_load(k, data),
                                      ck__fkind_load(k, data + ck__scalar_info(id)->part_size),
                                      k);
        }
        return ck__strbuf_append(b, buf, ck__format_number(id, data, 0, buf));
    }
}

int ck__text_quote(ck__strbuf *b, int enc, const char *p, size_t n, size_t limit,
                   size_t *bad) {
    *bad = SIZE_MAX;
    const size_t shown = n < limit ? n : limit;
    char buf[16];
    ck__strbuf_append(b, "\"", 1);
    for (size_t i = 0; i < shown;) {
        uint32_t cp = 0;
        size_t k = enc == CK_ENCODING_NONE ? 1 : ck__text_decode(enc, p, i, n, &cp);
        if (enc == CK_ENCODING_NONE) {
            cp = (unsigned char)p[i];
        }
        if (k == 0) { /* an invalid unit, shown as its value */
            if (*bad == SIZE_MAX) {
                *bad = i;
            }
            const uint32_t u = ck__text_unit(enc, p, i);
            const int len = enc == CK_ENCODING_UTF32 ? snprintf(buf, sizeof buf, "\\U%08lx",
                                                                (unsigned long)u)
                            : enc == CK_ENCODING_UTF16
                                ? snprintf(buf, sizeof buf, "\\u%04lx", (unsigned long)u)
                                : snprintf(buf, sizeof buf, "\\x%02lx", (unsigned long)u);
            ck__strbuf_append(b, buf, (size_t)len);
            i++;
            continue;
        }
        i += k;
        static const char from[] = "\"\\\b\f\n\r\t", to[] = "\"\\bfnrt";
        const char *hit = cp != 0 && cp < 0x80 ? strchr(from, (int)cp) : NULL;
        size_t len;
        if (hit != NULL) {
            buf[0] = '\\';
            buf[1] = to[hit - from];
            len = 2;
        } else if (enc == CK_ENCODING_NONE && (cp < 0x20 || cp >= 0x7f)) {
            len = (size_t)snprintf(buf, sizeof buf, "\\x%02x", (unsigned)cp);
        } else if (cp < 0x20 || cp == 0x7f) {
            len = (size_t)snprintf(buf, sizeof buf, "\\u%04x", (unsigned)cp);
        } else {
            len = ck__text_encode(CK_ENCODING_UTF8, cp, buf);
        }
        ck__strbuf_append(b, buf, len);
    }
    if (shown < n) {
        ck__strbuf_append(b, "...", 3);
    }
    return ck__strbuf_append(b, "\"", 1);
}

/* A text value as its literal; text that is not valid in its encoding (a host's) is an
 * error, since no literal reads back to it. */
static int ck__format_text(ck__strbuf *b, const ck_type *t, const char *data) {
    const int enc = t->param;
    const char *p = data;
    size_t n;
    if (ck__is_var_text(t->id)) {
        ck_string_data v;
        memcpy(&v, data, sizeof v);
        if (v.data == NULL && v.size > 0) {
            return CK__APPEND_LIT(b, "null"); /* not allocated */
        }
        p = v.data;
        n = v.size;
    } else {
        n = ck__text_unpadded(enc, data, t->data_size / ck__code_unit_size(enc));
    }
    size_t bad;
    CK__RETURN_IF_ERROR(ck__text_quote(b, enc, p, n, SIZE_MAX, &bad));
    if (bad != SIZE_MAX) {
        return ck_set_error(CK_ERR_TEXT,
                            "ck_array_format: a %s value is not valid %s at byte offset %zu",
                            ck_type_id_name(t->id), ck__encoding_name(enc),
                            bad * ck__code_unit_size(enc));
    }
    return CK_OK;
}

static int ck__format_value(ck__strbuf *b, const ck_type *t, const char *arrmeta,
                            const char *data) {
    switch (t->id) {
    case CK_TYPE_FIXED_DIM:
    case CK_TYPE_VAR_DIM: {
        intptr_t count, stride;
        const char *first;
        size_t level;
        if (t->id == CK_TYPE_FIXED_DIM) {
            ck_fixed_dim_arrmeta m;
            memcpy(&m, arrmeta, sizeof m);
            count = m.dim_size;
            stride = m.stride;
            first = data;
            level = sizeof m;
        } else {
            ck_var_dim_arrmeta m;
            ck_var_data v;
            memcpy(&m, arrmeta, sizeof m);
            memcpy(&v, data, sizeof v);
            if (v.begin == NULL) {
                return CK__APPEND_LIT(b, "null");
            }
            count = (intptr_t)v.size;
            stride = m.stride;
            first = v.begin + m.offset;
            level = sizeof m;
        }
        CK__RETURN_IF_ERROR(CK__APPEND_LIT(b, "["));
        for (intptr_t i = 0; i < count; i++) {
            if (i > 0) {
                CK__RETURN_IF_ERROR(CK__APPEND_LIT(b, ", "));
            }
            CK__RETURN_IF_ERROR(
                ck__format_value(b, t->element, arrmeta + level, first + i * stride));
        }
        return CK__APPEND_LIT(b, "]");
    }
    case CK_TYPE_POINTER: {
        ck_pointer_arrmeta m;
        const char *p;
        memcpy(&m, arrmeta, sizeof m);
        memcpy(&p, data, sizeof p);
        if (p == NULL) {
            return CK__APPEND_LIT(b, "null");
        }
        return ck__format_value(b, t->element, arrmeta + sizeof m, p + m.offset);
    }
    case CK_TYPE_TUPLE:
    case CK_TYPE_STRUCT: {
        const int named = t->id == CK_TYPE_STRUCT;
        CK__RETURN_IF_ERROR(named ? CK__APPEND_LIT(b, "{") : CK__APPEND_LIT(b, "("));
        for (size_t i = 0; i < t->nfields; i++) {
            if (i > 0) {
                CK__RETURN_IF_ERROR(CK__APPEND_LIT(b, ", "));
            }
            if (named) {
                ck__format_field_name(t->names[i], b);
                CK__RETURN_IF_ERROR(CK__APPEND_LIT(b, ": "));
            }
            intptr_t off;
            memcpy(&off, arrmeta + i * sizeof off, sizeof off);
            CK__RETURN_IF_ERROR(ck__format_value(b, t->fields[i], arrmeta + t->arrmeta_offsets[i],
                                                data + off));
        }
        return named ? CK__APPEND_LIT(b, "}") : CK__APPEND_LIT(b, ")");
    }
    case CK_TYPE_STRING:
    case CK_TYPE_BYTES:
    case CK_TYPE_FIXED_STRING:
    case CK_TYPE_FIXED_BYTES:
        return ck__format_text(b, t, data);
    case CK_TYPE_DATETIME:
    case CK_TYPE_TIMEDELTA: { /* "2026-11-25T20:31:42" (quoted), a count, NaT bare */
        int64_t v;
        memcpy(&v, data, sizeof v);
        char text[CK__DATETIME_TEXT_MAX];
        const size_t n = ck__time_format(v, t->param, t->id == CK_TYPE_TIMEDELTA, text);
        const int quote = t->id == CK_TYPE_DATETIME && v != CK_DATETIME_NAT;
        if (quote) {
            CK__RETURN_IF_ERROR(CK__APPEND_LIT(b, "\""));
        }
        CK__RETURN_IF_ERROR(ck__strbuf_append(b, text, n));
        return quote ? CK__APPEND_LIT(b, "\"") : CK_OK;
    }
    case CK_TYPE_OPTION:
        if (ck__is_na_of(t->element, data)) {
            return CK__APPEND_LIT(b, "NA");
        }
        return ck__format_value(b, t->element, arrmeta, data);
    default:
        return ck__format_scalar(b, t->id, data);
    }
}

/* About the size of the literal of fixed dims over a scalar (each element and its ", "; a
 * little more than typical values need), or 0: var dims and pointers, whose sizes only the
 * data says, and estimates above CK__FORMAT_RESERVE_MAX. Reserved up front, a million
 * float64's 20 MB of text is written once; grown by half again at a time, it was copied
 * and faulted in anew at each step (a sixth of the time). */
#define CK__FORMAT_RESERVE_MAX ((size_t)256 << 20)
static size_t ck__format_estimate(const ck_type *t) {
    size_t count = 1, lists = 1;
    for (; t->id == CK_TYPE_FIXED_DIM; t = t->element) {
        const size_t n = (size_t)t->fixed_size;
        if (n != 0 && count > CK__FORMAT_RESERVE_MAX / n) {
            return 0;
        }
        count *= n;
        lists += count;
    }
    size_t per;
    switch (t->id) {
    case CK_TYPE_BOOL: per = 7; break;
    case CK_TYPE_INT8: case CK_TYPE_UINT8: per = 6; break;
    case CK_TYPE_INT16: case CK_TYPE_UINT16: per = 8; break;
    case CK_TYPE_INT32: case CK_TYPE_UINT32: per = 13; break;
    case CK_TYPE_INT64: case CK_TYPE_UINT64: per = 22; break;
    case CK_TYPE_FLOAT16: per = 10; break;
    case CK_TYPE_FLOAT32: per = 17; break;
    case CK_TYPE_FLOAT64: per = 26; break;
    case CK_TYPE_COMPLEX64: per = 32; break;
    case CK_TYPE_COMPLEX128: per = 50; break;
    default: return 0; /* var dims, pointers */
    }
    if (count > CK__FORMAT_RESERVE_MAX / per) {
        return 0;
    }
    return count * per + 2 * lists;
}

int ck_array_format(const ck_array *a, char **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_array_format: out is NULL");
    }
    *out = NULL;
    if (a == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_array_format: the array is NULL");
    }
    ck__strbuf b = CK__STRBUF_INIT;
    const size_t estimate = ck__format_estimate(a->type);
    int rc = estimate != 0 ? ck__strbuf_reserve(&b, estimate) : CK_OK;
    if (rc == CK_OK) {
        rc = ck__format_value(&b, a->type, a->arrmeta, a->data);
    }
    if (rc != CK_OK) {
        ck__strbuf_free(&b);
        return rc;
    }
    return ck__strbuf_finish(&b, out);
}
