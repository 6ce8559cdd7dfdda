/* src/leaves/text/text_compare.c: the text leaves of the comparisons (equal ... greater_equal,
 * a bool) and of length (an int64), over operands of any text kind and encoding at any
 * alignment. A fixed operand's value is its units before the NUL padding (NumPy's rule), a
 * string's or bytes' the slot's bytes.
 *   compare   in code point order. Operands whose units are bytes (utf8, ascii, bytes:
 *             UTF-8's byte order is its code points' order) compare with memcmp, two utf32
 *             ones unit by unit, both as they are (NumPy compares U units so); any other pair
 *             (utf16, or utf32 against a byte encoding) is decoded, and text that is not
 *             valid in its encoding is CK_ERR_TEXT naming the byte offset. A text that is a
 *             prefix of the other is the smaller. string or bytes against string or bytes
 *             (the bench's text/equal/string) has a loop of its own, chosen when the leaf is
 *             built: the slots read in place, texts of up to 16 bytes compared as words with
 *             one branch on their length (below), longer ones with memcmp.
 *   length    code points: a string counts its lead bytes (it is valid UTF-8), ascii and
 *             utf32 their units, fixed utf8 and utf16 are decoded (invalid: CK_ERR_TEXT);
 *             bytes and fixed_bytes count bytes. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "leaves/numeric/compare_leaves.h"
#include "core/kinds.h"
#include "values/text_codec.h"
#include "types/type_internal.h"

/* The loop a leaf runs, chosen when it is built: string or bytes against string or bytes
 * (both slots of UTF-8 or of bytes, so bytewise order) compares the slots in place, with no
 * view and no encoding looked at per element; any other pair goes through text_one. */
enum { CK__TEXT_LOOP_GENERAL, CK__TEXT_LOOP_VAR_EQUAL, CK__TEXT_LOOP_VAR_ORDER };

typedef struct ck__text_compare {
    ck_prefix base;
    ck__text_operand arg[2];
    int op;   /* ck__text_op */
    int loop; /* CK__TEXT_LOOP_* */
} ck__text_compare;

typedef struct ck__text_view {
    const char *p;
    size_t n; /* units */
    int enc;
} ck__text_view;

/* Most characters of a text a message shows. */
#define CK__TEXT_SHOWN 40

static int unallocated(const ck__text_operand *o) {
    return ck__set_located_error(CK_ERR_UNINITIALIZED, NULL, 0,
                                 "the argument %s is not allocated (its data is NULL)",
                                 ck_type_id_name(o->id));
}

static int operand_view(const ck__text_operand *o, const char *src, ck__text_view *v) {
    v->enc = o->enc;
    if (ck__is_var_text(o->id)) {
        ck_string_data s;
        memcpy(&s, src, sizeof s);
        if (s.data == NULL && s.size > 0) {
            return unallocated(o);
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
    CK__RETURN_IF_ERROR(operand_view(&k->arg[0], src[0], &a));
    if (k->op == CK__TEXT_LENGTH) {
        int64_t n = 0;
        CK__RETURN_IF_ERROR(length_of(&k->arg[0], &a, &n));
        memcpy(dst, &n, sizeof n);
        return CK_OK;
    }
    CK__RETURN_IF_ERROR(operand_view(&k->arg[1], src[1], &b));
    int s = 0;
    CK__RETURN_IF_ERROR(compare_views(&a, &b, &s));
    *(uint8_t *)dst = (uint8_t)ck__compare_result((ck__compare_op)k->op, s);
    return CK_OK;
}

/* ---- string and bytes against string and bytes ---- */

/* The 4 bytes at p as a number: as they are in memory (be 0: equality needs no more) or
 * big-endian (be 1: then unsigned order of two such is their bytes' order). Compilers make
 * either one load (and a byte swap). */
static inline uint32_t load32(const char *p, int be) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    if (be) {
        const unsigned char *u = (const unsigned char *)p;
        v = (uint32_t)u[0] << 24 | (uint32_t)u[1] << 16 | (uint32_t)u[2] << 8 | (uint32_t)u[3];
    }
    return v;
}

/* Texts of 4 to CK__SHORT_TEXT bytes are compared as four 4-byte windows at 0, the smaller
 * and the larger of min(4, n - 4) and max(n - 8, 0), and n - 4: nondecreasing offsets with no
 * gap between the windows, so they hold every byte in order and nothing past the end is
 * read. No branch on n there (the sizes of short texts are what a branch mispredicts;
 * measured, one such branch, n < 4, costs less than avoiding it). Two texts are equal when the four windows are; otherwise the
 * first that differs orders them as memcmp does (be 1): the bytes before it are equal (the
 * windows before it hold them), and within it the first byte that differs decides. Shorter
 * texts: the bytes at 0, n / 2 and n - 1, the same way. */
#define CK__SHORT_TEXT 16
typedef struct ck__short_text {
    uint32_t w[4];
} ck__short_text;

static inline ck__short_text short_text(const char *p, size_t n, int be) {
    ck__short_text t;
    if (n >= 4) {
        const size_t o1 = n - 4 < 4 ? n - 4 : 4, o2 = n >= 8 ? n - 8 : 0;
        t.w[0] = load32(p, be);
        t.w[1] = load32(p + (o1 < o2 ? o1 : o2), be);
        t.w[2] = load32(p + (o1 < o2 ? o2 : o1), be);
        t.w[3] = load32(p + n - 4, be);
    } else {
        t.w[0] = n > 0 ? (uint32_t)(unsigned char)p[0] << 16 |
                             (uint32_t)(unsigned char)p[n >> 1] << 8 |
                             (uint32_t)(unsigned char)p[n - 1]
                       : 0;
        t.w[1] = t.w[2] = t.w[3] = 0;
    }
    return t;
}

/* n bytes at a and b equal? */
static inline int bytes_equal(const char *a, const char *b, size_t n) {
    if (CK__UNLIKELY(n > CK__SHORT_TEXT)) {
        return memcmp(a, b, n) == 0;
    }
    const ck__short_text x = short_text(a, n, 0), y = short_text(b, n, 0);
    return ((x.w[0] ^ y.w[0]) | (x.w[1] ^ y.w[1]) | (x.w[2] ^ y.w[2]) | (x.w[3] ^ y.w[3])) == 0;
}

/* memcmp's sign on n bytes at a and b. */
static inline int bytes_order(const char *a, const char *b, size_t n) {
    if (CK__UNLIKELY(n > CK__SHORT_TEXT)) {
        return memcmp(a, b, n);
    }
    const ck__short_text x = short_text(a, n, 1), y = short_text(b, n, 1);
    int s = 0;
    for (int i = 3; i >= 0; i--) { /* the first that differs decides: it is looked at last */
        s = x.w[i] != y.w[i] ? (x.w[i] > y.w[i]) - (x.w[i] < y.w[i]) : s;
    }
    return s;
}

/* The loops of two string or bytes slots: the same values and errors as text_one's, the
 * slots read in place (a slot of NULL data and a size is CK_ERR_UNINITIALIZED). */
static inline int read_slots(const ck__text_compare *k, const char *s0, const char *s1,
                             ck_string_data *a, ck_string_data *b) {
    memcpy(a, s0, sizeof *a);
    memcpy(b, s1, sizeof *b);
    if (CK__UNLIKELY((a->data == NULL && a->size > 0) || (b->data == NULL && b->size > 0))) {
        return unallocated(&k->arg[a->data == NULL && a->size > 0 ? 0 : 1]);
    }
    return CK_OK;
}

static int var_equal_loop(const ck__text_compare *k, char *dst, intptr_t dst_stride,
                          const char *s0, intptr_t st0, const char *s1, intptr_t st1,
                          size_t count) {
    const uint8_t want = k->op == CK__COMPARE_EQUAL;
    for (size_t i = 0; i < count; i++, dst += dst_stride, s0 += st0, s1 += st1) {
        ck_string_data a, b;
        CK__RETURN_IF_ERROR_AT(i, read_slots(k, s0, s1, &a, &b));
        /* Both sides' first min(size) bytes, whatever the sizes: no branch on them. */
        const int eq = (a.size == b.size) & bytes_equal(a.data, b.data,
                                                        a.size < b.size ? a.size : b.size);
        *(uint8_t *)dst = (uint8_t)(eq == want);
    }
    return CK_OK;
}

static int var_order_loop(const ck__text_compare *k, char *dst, intptr_t dst_stride,
                          const char *s0, intptr_t st0, const char *s1, intptr_t st1,
                          size_t count) {
    for (size_t i = 0; i < count; i++, dst += dst_stride, s0 += st0, s1 += st1) {
        ck_string_data a, b;
        CK__RETURN_IF_ERROR_AT(i, read_slots(k, s0, s1, &a, &b));
        const int c = bytes_order(a.data, b.data, a.size < b.size ? a.size : b.size);
        const int s = c != 0 ? c : (a.size > b.size) - (a.size < b.size);
        *(uint8_t *)dst = (uint8_t)ck__compare_result((ck__compare_op)k->op, s);
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int text_compare_single(ck_prefix *self, char *dst, char *const *src) {
    return text_one((const ck__text_compare *)self, dst, src);
}

static CK__KERNEL_ALIGN int text_compare_strided(ck_prefix *self, char *dst,
                                                 intptr_t dst_stride, char *const *src,
                                                 const intptr_t *src_stride, size_t count) {
    const ck__text_compare *k = (const ck__text_compare *)self;
    if (k->loop == CK__TEXT_LOOP_VAR_EQUAL) {
        return var_equal_loop(k, dst, dst_stride, src[0], src_stride[0], src[1], src_stride[1],
                              count);
    }
    if (k->loop == CK__TEXT_LOOP_VAR_ORDER) {
        return var_order_loop(k, dst, dst_stride, src[0], src_stride[0], src[1], src_stride[1],
                              count);
    }
    char *s[2] = {src[0], k->op == CK__TEXT_LENGTH ? NULL : src[1]};
    const int nargs = k->op == CK__TEXT_LENGTH ? 1 : 2;
    for (size_t i = 0; i < count; i++, dst += dst_stride) {
        CK__RETURN_IF_ERROR_AT(i, text_one(k, dst, s));
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
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__text_compare)));
    ck__text_compare *k = (ck__text_compare *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(&k->base, req, text_compare_single, text_compare_strided);
    k->arg[0] = *a;
    if (nargs == 2) {
        k->arg[1] = *b;
    }
    k->op = (int)op;
    k->loop = CK__TEXT_LOOP_GENERAL;
    if (nargs == 2 && ck__is_var_text(a->id) && ck__is_var_text(b->id)) {
        k->loop = op == CK__TEXT_COMPARE_FIRST + CK__COMPARE_EQUAL ||
                          op == CK__TEXT_COMPARE_FIRST + CK__COMPARE_NOT_EQUAL
                      ? CK__TEXT_LOOP_VAR_EQUAL
                      : CK__TEXT_LOOP_VAR_ORDER;
    }
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
