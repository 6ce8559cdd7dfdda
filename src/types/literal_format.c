/* src/types/literal_format.c: ck_array_format, the literal text of an array: nested lists,
 * integers in decimal, floats in their shortest round-trip text (integral ones without a
 * point: the type says they are floats), complex as 1.5-2j, true/false, tuples as (1, 2.5),
 * structs as {x: 1, y: [1.5, 2]}, NA for a missing option value, and null for an
 * unallocated var dim or a NULL pointer. Walks any valid arrmeta (strides of any sign, var
 * offsets, a host's field offsets), not only the container's own. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/float16.h"
#include "common/internal.h"
#include "common/strbuf.h"
#include "types/array_internal.h"
#include "types/numtext.h"

#define CK__APPEND_LIT(b, lit) ck__strbuf_append((b), (lit), sizeof(lit) - 1)

static int ck__format_complex(ck__strbuf *b, double re, double im, ck__fkind k) {
    char buf[80];
    size_t n = ck__format_float(re, k, 0, buf);
    /* The imaginary part always carries its sign; nan prints none, so it gets "+". */
    if (isnan(im) || !signbit(im)) {
        buf[n++] = '+';
    }
    n += ck__format_float(im, k, 0, buf + n);
    buf[n++] = 'j';
    return ck__strbuf_append(b, buf, n);
}

static int ck__format_scalar(ck__strbuf *b, ck_type_id id, const char *data) {
    char buf[48];
    size_t n = 0;
    switch (id) {
    case CK_TYPE_BOOL:
        return *data != 0 ? CK__APPEND_LIT(b, "true") : CK__APPEND_LIT(b, "false");
#define CK__FMT_INT(ID, T, FMT, CAST)                                         \
    case ID: {                                                                \
        T v;                                                                  \
        memcpy(&v, data, sizeof v);                                           \
        n = (size_t)snprintf(buf, sizeof buf, "%" FMT, (CAST)v);              \
        break;                                                                \
    }
        CK__FMT_INT(CK_TYPE_INT8, int8_t, PRId64, int64_t)
        CK__FMT_INT(CK_TYPE_INT16, int16_t, PRId64, int64_t)
        CK__FMT_INT(CK_TYPE_INT32, int32_t, PRId64, int64_t)
        CK__FMT_INT(CK_TYPE_INT64, int64_t, PRId64, int64_t)
        CK__FMT_INT(CK_TYPE_UINT8, uint8_t, PRIu64, uint64_t)
        CK__FMT_INT(CK_TYPE_UINT16, uint16_t, PRIu64, uint64_t)
        CK__FMT_INT(CK_TYPE_UINT32, uint32_t, PRIu64, uint64_t)
        CK__FMT_INT(CK_TYPE_UINT64, uint64_t, PRIu64, uint64_t)
#undef CK__FMT_INT
    case CK_TYPE_FLOAT16: {
        uint16_t h;
        memcpy(&h, data, sizeof h);
        n = ck__format_float(ck__half_to_double(h), CK__F16, 0, buf);
        break;
    }
    case CK_TYPE_FLOAT32: {
        float f;
        memcpy(&f, data, sizeof f);
        n = ck__format_float((double)f, CK__F32, 0, buf);
        break;
    }
    case CK_TYPE_FLOAT64: {
        double d;
        memcpy(&d, data, sizeof d);
        n = ck__format_float(d, CK__F64, 0, buf);
        break;
    }
    case CK_TYPE_COMPLEX64: {
        float c[2];
        memcpy(c, data, sizeof c);
        return ck__format_complex(b, (double)c[0], (double)c[1], CK__F32);
    }
    default: { /* CK_TYPE_COMPLEX128 */
        double c[2];
        memcpy(c, data, sizeof c);
        return ck__format_complex(b, c[0], c[1], CK__F64);
    }
    }
    return ck__strbuf_append(b, buf, n);
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
        CK_RETURN_IF_ERROR(CK__APPEND_LIT(b, "["));
        for (intptr_t i = 0; i < count; i++) {
            if (i > 0) {
                CK_RETURN_IF_ERROR(CK__APPEND_LIT(b, ", "));
            }
            CK_RETURN_IF_ERROR(
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
        CK_RETURN_IF_ERROR(named ? CK__APPEND_LIT(b, "{") : CK__APPEND_LIT(b, "("));
        for (size_t i = 0; i < t->nfields; i++) {
            if (i > 0) {
                CK_RETURN_IF_ERROR(CK__APPEND_LIT(b, ", "));
            }
            if (named) {
                ck__format_field_name(t->names[i], b);
                CK_RETURN_IF_ERROR(CK__APPEND_LIT(b, ": "));
            }
            intptr_t off;
            memcpy(&off, arrmeta + i * sizeof off, sizeof off);
            CK_RETURN_IF_ERROR(ck__format_value(b, t->fields[i], arrmeta + t->arrmeta_offsets[i],
                                                data + off));
        }
        return named ? CK__APPEND_LIT(b, "}") : CK__APPEND_LIT(b, ")");
    }
    case CK_TYPE_OPTION:
        if (ck__is_na(t->element->id, data)) {
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
