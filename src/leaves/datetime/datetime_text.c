/* src/leaves/datetime/datetime_text.c: datetime64 and timedelta64 to and from the fixed text kinds
 * (fixed_string in any encoding, fixed_bytes), the fast way: the value's ISO text (datetime.c,
 * digit pairs, no formatting calls) written straight into the code units, and fixed text
 * narrowed to ASCII and read by datetime.c. It computes exactly what the text cast leaf does
 * (text_cast.c), which it holds as its child: an element the fast way cannot finish (text too
 * long for the destination, text that is no datetime, a character beyond ASCII, a value out
 * of range) is handed to the child, whose result or error message (the text shown, the cut
 * in nocheck) is the text cast's own. docs/design.md §17. */
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"
#include "values/datetime.h"
#include "values/text_codec.h"
#include "types/type_internal.h"

typedef struct ck__datetime_text {
    ck_prefix base;
    size_t units;       /* N of the fixed text side */
    uint8_t to_text;    /* time -> text; else text -> time */
    uint8_t unit_size;  /* bytes per code unit of the text: 1, 2 or 4 */
    uint8_t unit;       /* the time's unit */
    uint8_t delta;      /* timedelta64 */
} ck__datetime_text;

#define CK__DATETIME_TEXT_CHILD CK_ALIGN_OFFSET(sizeof(ck__datetime_text))

/* The text of the time at src into the fixed text at dst; 0 when it does not fit. */
static int write_one(const ck__datetime_text *k, char *dst, const char *src) {
    int64_t v;
    memcpy(&v, src, sizeof v);
    char buf[CK__DATETIME_TEXT_MAX];
    const size_t n = ck__time_format(v, k->unit, k->delta, buf);
    if (n > k->units) {
        return 0;
    }
    ck__text_widen_ascii(dst, buf, n, k->units, k->unit_size);
    return 1;
}

/* The fixed text at src read into the time at dst; 0 when the fast way cannot. */
static int read_one(const ck__datetime_text *k, char *dst, const char *src) {
    char s[CK__DATETIME_TEXT_MAX];
    size_t n = k->units;
    if (k->unit_size == 1) {
        while (n > 0 && src[n - 1] == 0) {
            n--;
        }
        if (n >= sizeof s) {
            return 0;
        }
        for (size_t i = 0; i < n; i++) {
            if ((unsigned char)src[i] >= 0x80) {
                return 0;
            }
            s[i] = src[i];
        }
    } else {
        const int enc = k->unit_size == 4 ? CK_ENCODING_UTF32 : CK_ENCODING_UTF16;
        n = ck__text_unpadded(enc, src, n);
        if (n >= sizeof s) {
            return 0;
        }
        for (size_t i = 0; i < n; i++) {
            const uint32_t u = ck__text_unit(enc, src, i);
            if (u >= 0x80) {
                return 0;
            }
            s[i] = (char)u;
        }
    }
    int64_t t;
    const char *why;
    if (ck__time_parse(s, n, k->unit, k->delta, &t, &why) != CK_OK) {
        return 0;
    }
    memcpy(dst, &t, sizeof t);
    return 1;
}

static int one(ck_prefix *self, char *dst, const char *src) {
    const ck__datetime_text *k = (const ck__datetime_text *)self;
    if (k->to_text ? write_one(k, dst, src) : read_one(k, dst, src)) {
        return CK_OK;
    }
    ck_prefix *child = ck_child(self, CK__DATETIME_TEXT_CHILD);
    char *s = (char *)(uintptr_t)src;
    return ck_call_single(child, dst, &s);
}

static CK__KERNEL_ALIGN int datetime_text_single(ck_prefix *self, char *dst, char *const *src) {
    return one(self, dst, src[0]);
}

static CK__KERNEL_ALIGN int datetime_text_strided(ck_prefix *self, char *dst,
                                                  intptr_t dst_stride, char *const *src,
                                                  const intptr_t *src_stride, size_t count) {
    const char *s = src[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += src_stride[0]) {
        CK__RETURN_IF_ERROR_AT(i, one(self, dst, s));
    }
    return CK_OK;
}

static void datetime_text_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__DATETIME_TEXT_CHILD));
}

int ck__make_datetime_text(ck_builder *ckb, size_t *offset, const ck__text_cast_spec *spec,
                           ck_request req) {
    const int to_text = ck__is_time(spec->src_id);
    const ck_type_id text = to_text ? spec->dst_id : spec->src_id;
    const int enc = to_text ? spec->dst_enc : spec->src_enc;
    if (ck__is_time(spec->src_id) == ck__is_time(spec->dst_id) || spec->nsrc == 2 ||
        (text != CK_TYPE_FIXED_STRING && text != CK_TYPE_FIXED_BYTES)) {
        return ck__make_text_cast(ckb, offset, spec, req); /* strings and the rest */
    }
    const size_t at = *offset;
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, at + CK__DATETIME_TEXT_CHILD));
    ck__datetime_text *k = (ck__datetime_text *)ck_builder_at(ckb, at);
    k->base.destructor = datetime_text_destroy;
    ck_prefix_set_function(&k->base, req, datetime_text_single, datetime_text_strided);
    k->units = to_text ? spec->dst_units : spec->src_units;
    k->to_text = (uint8_t)to_text;
    k->unit_size = (uint8_t)(text == CK_TYPE_FIXED_BYTES ? 1 : ck__code_unit_size(enc));
    k->unit = (uint8_t)(to_text ? spec->src_unit : spec->dst_unit);
    k->delta = (to_text ? spec->src_id : spec->dst_id) == CK_TYPE_TIMEDELTA;
    *offset = at + CK__DATETIME_TEXT_CHILD;
    return ck__make_text_cast(ckb, offset, spec, CK_REQUEST_SINGLE);
}

static void datetime_text_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                   ck__children *children) {
    const ck__datetime_text *k = (const ck__datetime_text *)self;
    ck__strbuf_printf(out, "%s[%s] %s %zu units of %u bytes, else the text cast",
                      k->delta ? "timedelta64" : "datetime64", ck__unit_name(k->unit),
                      k->to_text ? "->" : "<-", k->units, (unsigned)k->unit_size);
    *size = sizeof(ck__datetime_text);
    ck__children_add(children, CK__DATETIME_TEXT_CHILD);
}

const ck__kind ck__datetime_text_kind = {"datetime_text", datetime_text_single,
                                         datetime_text_strided, datetime_text_describe};
