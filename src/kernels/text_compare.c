/* src/kernels/text_compare.c: the text leaves of the comparisons (equal ... greater_equal,
 * a bool) and of length (an int64), over operands of any text kind and encoding at any
 * alignment. A fixed operand's value is its units before the NUL padding (NumPy's rule), a
 * string's or bytes' the slot's bytes.
 *   compare   in code point order. Operands whose units are bytes (utf8, ascii, bytes:
 *             UTF-8's byte order is its code points' order) compare with memcmp, two utf32
 *             ones unit by unit, both as they are (NumPy compares U units so); any other pair
 *             (utf16, or utf32 against a byte encoding) is decoded, and text that is not
 *             valid in its encoding is CK_ERR_TEXT naming the byte offset. A text that is a
 *             prefix of the other is the smaller.
 *   length    code points: a string counts its lead bytes (it is valid UTF-8), ascii and
 *             utf32 their units, fixed utf8 and utf16 are decoded (invalid: CK_ERR_TEXT);
 *             bytes and fixed_bytes count bytes. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "kernels/compare_leaves.h"
#include "kernels/kinds.h"
#include "types/text_codec.h"
#include "types/type_internal.h"

typedef struct ck__text_compare {
    ck_prefix base;
    ck__text_operand arg[2];
    int op; /* ck__text_op */
} ck__text_compare;

typedef struct ck__text_view {
    const char *p;
    size_t n; /* units */
    int enc;
} ck__text_view;

/* Most characters of a text a message shows. */
#define CK__TEXT_SHOWN 40

static int operand_view(const ck__text_operand *o, const char *src, ck__text_view *v) {
    v->enc = o->enc;
    if (ck__is_var_text(o->id)) {
        ck_string_data s;
        memcpy(&s, src, sizeof s);
        if (s.data == NULL && s.size > 0) {
            return ck__set_located_error(CK_ERR_UNINITIALIZED, NULL, 0,
                                         "the argument %s is not allocated (its data is NULL)",
                                         ck_type_id_name(o->id));
        }
        v->p = s.data;
        v->n = s.size;
    } else {
        v->p = src;
        v->n = ck__text_unpadded(o->enc, src, o->units);
    }
    return CK_OK;
}

static int invalid_text(const ck__text_view *v, size_t unit) {
    ck__strbuf b = CK__STRBUF_INIT;
    size_t bad;
    ck__text_quote(&b, v->enc, v->p, v->n, CK__TEXT_SHOWN, &bad);
    const int rc = ck__set_located_error(
        CK_ERR_TEXT, NULL, 0, "the text %s is not valid %s at byte offset %zu",
        b.s != NULL ? b.s : "(text)", ck__encoding_name(v->enc), unit * ck__code_unit_size(v->enc));
    ck__strbuf_free(&b);
    return rc;
}

static int is_byte_enc(int enc) {
    return enc != CK_ENCODING_UTF16 && enc != CK_ENCODING_UTF32;
}

/* *sign: <0, 0, >0 as a orders before, with, after b. */
static int compare_views(const ck__text_view *a, const ck__text_view *b, int *sign) {
    const size_t n = a->n < b->n ? a->n : b->n;
    if (is_byte_enc(a->enc) && is_byte_enc(b->enc)) {
        const int c = n > 0 ? memcmp(a->p, b->p, n) : 0;
        *sign = c != 0 ? c : (a->n > b->n) - (a->n < b->n);
        return CK_OK;
    }
    if (a->enc == CK_ENCODING_UTF32 && b->enc == CK_ENCODING_UTF32) {
        for (size_t i = 0; i < n; i++) {
            const uint32_t x = ck__text_unit(a->enc, a->p, i), y = ck__text_unit(b->enc, b->p, i);
            if (x != y) {
                *sign = x < y ? -1 : 1;
                return CK_OK;
            }
        }
        *sign = (a->n > b->n) - (a->n < b->n);
        return CK_OK;
    }
    size_t i = 0, j = 0;
    while (i < a->n && j < b->n) {
        uint32_t x = 0, y = 0;
        const size_t ua = ck__text_decode(a->enc, a->p, i, a->n, &x);
        if (ua == 0) {
            return invalid_text(a, i);
        }
        const size_t ub = ck__text_decode(b->enc, b->p, j, b->n, &y);
        if (ub == 0) {
            return invalid_text(b, j);
        }
        if (x != y) {
            *sign = x < y ? -1 : 1;
            return CK_OK;
        }
        i += ua;
        j += ub;
    }
    *sign = (i < a->n) - (j < b->n);
    return CK_OK;
}

static int length_of(const ck__text_operand *o, const ck__text_view *v, int64_t *out) {
    size_t count = v->n;
    if (o->id == CK_TYPE_STRING) {
        count = 0;
        for (size_t i = 0; i < v->n; i++) {
            count += ((unsigned char)v->p[i] & 0xc0u) != 0x80u; /* lead bytes */
        }
    } else if (o->id == CK_TYPE_FIXED_STRING &&
               (v->enc == CK_ENCODING_UTF8 || v->enc == CK_ENCODING_UTF16)) {
        count = 0;
        for (size_t i = 0; i < v->n; count++) {
            uint32_t cp;
            const size_t u = ck__text_decode(v->enc, v->p, i, v->n, &cp);
            if (u == 0) {
                return invalid_text(v, i);
            }
            i += u;
        }
    }
    *out = (int64_t)count;
    return CK_OK;
}

static int text_one(const ck__text_compare *k, char *dst, char *const *src) {
    ck__text_view a = {NULL, 0, 0}, b = {NULL, 0, 0};
    CK_RETURN_IF_ERROR(operand_view(&k->arg[0], src[0], &a));
    if (k->op == CK__TEXT_LENGTH) {
        int64_t n = 0;
        CK_RETURN_IF_ERROR(length_of(&k->arg[0], &a, &n));
        memcpy(dst, &n, sizeof n);
        return CK_OK;
    }
    CK_RETURN_IF_ERROR(operand_view(&k->arg[1], src[1], &b));
    int s = 0;
    CK_RETURN_IF_ERROR(compare_views(&a, &b, &s));
    int r;
    switch (k->op) {
    case CK__COMPARE_EQUAL: r = s == 0; break;
    case CK__COMPARE_NOT_EQUAL: r = s != 0; break;
    case CK__COMPARE_LESS: r = s < 0; break;
    case CK__COMPARE_LESS_EQUAL: r = s <= 0; break;
    case CK__COMPARE_GREATER: r = s > 0; break;
    default: r = s >= 0; break;
    }
    *(uint8_t *)dst = (uint8_t)r;
    return CK_OK;
}

static CK__KERNEL_ALIGN int text_compare_single(ck_prefix *self, char *dst, char *const *src) {
    return text_one((const ck__text_compare *)self, dst, src);
}

static CK__KERNEL_ALIGN int text_compare_strided(ck_prefix *self, char *dst,
                                                 intptr_t dst_stride, char *const *src,
                                                 const intptr_t *src_stride, size_t count) {
    const ck__text_compare *k = (const ck__text_compare *)self;
    char *s[2] = {src[0], k->op == CK__TEXT_LENGTH ? NULL : src[1]};
    const int nargs = k->op == CK__TEXT_LENGTH ? 1 : 2;
    for (size_t i = 0; i < count; i++, dst += dst_stride) {
        CK_RETURN_IF_ERROR_AT(i, text_one(k, dst, s));
        for (int j = 0; j < nargs; j++) {
            s[j] += src_stride[j];
        }
    }
    return CK_OK;
}

int ck__make_text_compare(ck_builder *ckb, size_t *offset, ck__text_op op,
                          const ck__text_operand *a, const ck__text_operand *b, ck_request req) {
    const int nargs = op == CK__TEXT_LENGTH ? 1 : 2;
    if ((unsigned)op > CK__TEXT_LENGTH || a == NULL || !ck__is_text(a->id) ||
        (nargs == 2 && (b == NULL || !ck__is_text(b->id)))) {
        return ck_set_error(CK_ERR_INTERNAL, "text comparison leaf %d of bad operands", (int)op);
    }
    CK_RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__text_compare)));
    ck__text_compare *k = (ck__text_compare *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(&k->base, req, text_compare_single, text_compare_strided);
    k->arg[0] = *a;
    if (nargs == 2) {
        k->arg[1] = *b;
    }
    k->op = (int)op;
    *offset += sizeof(ck__text_compare);
    return CK_OK;
}

/* "fixed_string[4, 'utf8']", "string". */
static void operand_text(const ck__text_operand *o, char *buf, size_t cap) {
    if (o->id == CK_TYPE_FIXED_STRING) {
        snprintf(buf, cap, "fixed_string[%zu, '%s']", o->units, ck__encoding_name(o->enc));
    } else if (o->id == CK_TYPE_FIXED_BYTES) {
        snprintf(buf, cap, "fixed_bytes[%zu]", o->units);
    } else {
        snprintf(buf, cap, "%s", ck_type_id_name(o->id));
    }
}

static void text_compare_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                  ck__children *children) {
    (void)children;
    const ck__text_compare *k = (const ck__text_compare *)self;
    char a[64], b[64];
    operand_text(&k->arg[0], a, sizeof a);
    if (k->op == CK__TEXT_LENGTH) {
        ck__strbuf_printf(out, "length %s -> int64", a);
    } else {
        operand_text(&k->arg[1], b, sizeof b);
        ck__strbuf_printf(out, "%s %s, %s -> bool", ck__compare_op_name((ck__compare_op)k->op), a,
                          b);
    }
    *size = sizeof(ck__text_compare);
}

const ck__kind ck__text_compare_kind = {"text_compare", text_compare_single,
                                        text_compare_strided, text_compare_describe};
