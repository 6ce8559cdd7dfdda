/* src/leaves/text/text_number.c: the fast path of the text cast between numbers and text
 * (docs/design.md §16, "Speed"). The text cast leaf (text_cast.c) takes every element the
 * same general way: the source's text found, measured code point by code point, then
 * written or read through Python's grammar; an int64 into U21 took six times as long as a
 * plain digit loop. This kernel, chosen when the kernel is built for a number <-> text
 * pair, does the common element in one pass, specialised by the text side's layout (a
 * string's bytes, or fixed units of 1, 2 or 4 bytes):
 *   number -> text   the number's text (ck__format_number: the one number text, digit pairs
 *                    for integers) is ASCII, one unit per character in every encoding, so
 *                    it is written straight into the destination's units when it fits (and
 *                    the rest NUL-padded), or into the destination's arena
 *   text -> number   the units narrowed to chars while they are ASCII, the white space
 *                    around them dropped, then integer text of at most 19 digits that is in
 *                    range stored as it is, and a decimal (ck__scan_decimal, the whole text)
 *                    rounded once by ck__decimal_to_double / _float when that decides it
 *                    and the value is finite.
 * Anything else (text that does not fit, that is not ASCII, longer than 64 characters, a
 * word like inf or nan, out of range, an error of any kind) goes to the general leaf, built
 * as this kernel's child, for that element alone: the child decides every value the fast
 * path does not, and raises every error with its message, so both give the same results and
 * statuses (tests/text/text_number_test.cpp, the fuzzer's text mode). Datetimes, bool,
 * complex, float16 destinations and concat have no fast path. */
#include <math.h>
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"
#include "values/numtext.h"
#include "common/scalars.h"
#include "values/text_codec.h"
#include "types/type_internal.h"

/* Longest text (without its padding) the fast path reads; a float64's shortest text is at
 * most 24 characters, an int64's 20. */
#define CK__FAST_TEXT 64

typedef struct ck__text_number {
    ck_prefix base;
    ck_memblock *arena;   /* string and bytes destinations: a counted reference */
    size_t units;         /* N of a fixed text side */
    uint64_t hi, lo_mag;  /* integer destinations: the largest value, the most negative's
                             magnitude (0 unsigned) */
    uint8_t num_id;       /* the number side's ck_type_id */
    uint8_t text_id;      /* the text side's */
    uint8_t unit;         /* bytes of a fixed side's unit; 0: string or bytes */
    uint8_t into_text;
} ck__text_number;

#define CK__TEXT_NUMBER_CHILD CK_ALIGN_OFFSET(sizeof(ck__text_number))

static int is_space(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* ---- number -> text ---- */


/* What the fast path did with an element that it does not fail: written (CK_OK), or left to
 * the general leaf. */
#define CK__GENERAL (-1)

/* CK_OK when the element was written; CK__GENERAL; or a status (the arena's). */
static inline int number_to_text(const ck__text_number *k, char *dst, const char *src,
                                 size_t unit) {
    char buf[48];
    const size_t n = ck__format_number(k->num_id, src, 1, buf);
    if (unit == 0) {
        char *bytes;
        const int rc = ck_arena_alloc(k->arena, n, 1, &bytes);
        if (rc != CK_OK) {
            return rc;
        }
        memcpy(bytes, buf, n);
        const ck_string_data s = {bytes, n};
        memcpy(dst, &s, sizeof s);
        return CK_OK;
    }
    if (n > k->units) {
        return CK__GENERAL; /* too long: an error, or a cut in nocheck */
    }
    ck__text_widen_ascii(dst, buf, n, k->units, unit);
    return CK_OK;
}

/* ---- text -> number ---- */

/* The integer or decimal text s[0, n) (s[n] writable) into the destination: CK_OK when
 * stored, CK__GENERAL when the general leaf decides. */
static int read_number(const ck__text_number *k, char *dst, char *s, size_t n) {
    size_t b = 0;
    while (b < n && is_space(s[b])) {
        b++;
    }
    while (n > b && is_space(s[n - 1])) {
        n--;
    }
    if (n == b) {
        return CK__GENERAL; /* no text: an error (and s[b] may not be written) */
    }
    const int id = k->num_id;
    if (ck__scalar_is_integer((ck_type_id)id)) {
        const int neg = s[b] == '-';
        const char *p = s + b + (s[b] == '-' || s[b] == '+');
        const char *end = ck__digit_run(p, s + n);
        const size_t nd = (size_t)(end - p);
        if (end != s + n || nd == 0 || nd > 19) {
            return CK__GENERAL; /* not integer text, or perhaps beyond 64 bits */
        }
        uint64_t mag = 0;
        for (; p < end; p++) {
            mag = mag * 10 + (uint64_t)(*p - '0');
        }
        if (neg ? mag > k->lo_mag : mag > k->hi) {
            return CK__GENERAL;
        }
        const uint64_t u = neg ? (uint64_t)0 - mag : mag;
        ck__store_int_bits(dst, u, ck_type_data_size(ck_type_scalar((ck_type_id)id)));
        return CK_OK;
    }
    s[n] = '\0';
    ck__decimal_parts d;
    if (ck__scan_decimal(s + b, &d) != n - b) {
        return CK__GENERAL; /* not a decimal: inf, nan, or no number */
    }
    if (id == CK_TYPE_FLOAT32) {
        float f;
        if (!ck__decimal_to_float(&d, &f) || isinf(f)) {
            return CK__GENERAL;
        }
        memcpy(dst, &f, sizeof f);
    } else {
        double v;
        if (!ck__decimal_to_double(&d, &v) || isinf(v)) {
            return CK__GENERAL;
        }
        memcpy(dst, &v, sizeof v);
    }
    return CK_OK;
}

static inline uint32_t unit_at(const char *p, size_t i, size_t unit) {
    if (unit == 4) {
        uint32_t u;
        memcpy(&u, p + 4 * i, 4);
        return u;
    }
    if (unit == 2) {
        uint16_t u;
        memcpy(&u, p + 2 * i, 2);
        return u;
    }
    return (unsigned char)p[i];
}

static inline int text_to_number(const ck__text_number *k, char *dst, const char *src,
                                 size_t unit) {
    char buf[CK__FAST_TEXT + 1];
    size_t n = 0;
    if (unit == 0) { /* UTF-8 bytes: any byte beyond ASCII fails the grammar below */
        ck_string_data s;
        memcpy(&s, src, sizeof s);
        if (s.size > CK__FAST_TEXT || s.data == NULL) {
            return CK__GENERAL;
        }
        memcpy(buf, s.data, s.size);
        n = s.size;
    } else {
        const size_t lim = k->units < CK__FAST_TEXT ? k->units : CK__FAST_TEXT;
        for (; n < lim; n++) {
            const uint32_t u = unit_at(src, n, unit);
            if (u - 1 >= 0x7f) { /* one test for NUL and beyond ASCII */
                break;
            }
            buf[n] = (char)u;
        }
        /* What follows must be the padding: not a unit beyond ASCII, a 65th character or
         * text after a NUL. One OR over the units (vectorised), no branch per unit. */
        uint32_t rest = 0;
        for (size_t i = n; i < k->units; i++) {
            rest |= unit_at(src, i, unit);
        }
        if (rest != 0) {
            return CK__GENERAL;
        }
    }
    return read_number(k, dst, buf, n);
}

/* ---- the kernel ---- */

static void text_number_destroy(ck_prefix *self) {
    ck_memblock_decref(((ck__text_number *)self)->arena);
    ck_prefix_destroy(ck_child(self, CK__TEXT_NUMBER_CHILD));
}

/* The element by the fast path, else by the general leaf (the child). */
static inline int one(ck_prefix *self, char *dst, char *src, size_t unit) {
    const ck__text_number *k = (const ck__text_number *)self;
    const int rc = k->into_text ? number_to_text(k, dst, src, unit)
                                : text_to_number(k, dst, src, unit);
    if (CK__LIKELY(rc != CK__GENERAL)) {
        return rc;
    }
    ck_prefix *child = ck_child(self, CK__TEXT_NUMBER_CHILD);
    char *const s[1] = {src};
    return ck_prefix_single(child)(child, dst, s);
}

static CK__KERNEL_ALIGN int text_number_single(ck_prefix *self, char *dst, char *const *src) {
    const ck__text_number *k = (const ck__text_number *)self;
    return one(self, dst, src[0], k->unit);
}

/* The loop over count elements with the unit size a constant (one copy per size). */
static inline int run(ck_prefix *self, char *dst, intptr_t dst_stride, char *s,
                      intptr_t ss, size_t count, size_t unit) {
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += ss) {
        CK__RETURN_IF_ERROR_AT(i, one(self, dst, s, unit));
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int text_number_strided(ck_prefix *self, char *dst,
                                                intptr_t dst_stride, char *const *src,
                                                const intptr_t *src_stride, size_t count) {
    switch (((const ck__text_number *)self)->unit) {
    case 0: return run(self, dst, dst_stride, src[0], src_stride[0], count, 0);
    case 1: return run(self, dst, dst_stride, src[0], src_stride[0], count, 1);
    case 2: return run(self, dst, dst_stride, src[0], src_stride[0], count, 2);
    default: return run(self, dst, dst_stride, src[0], src_stride[0], count, 4);
    }
}

int ck__make_text_number(ck_builder *ckb, size_t *offset, const ck__text_cast_spec *spec,
                         ck_request req, int *made) {
    *made = 0;
    const ck_type_id d = spec->dst_id, s = spec->src_id;
    const int into_text = ck__is_text(d) && (ck__scalar_is_integer(s) || ck__scalar_is_float(s));
    /* Decimal -> binary of one rounding for integers, float32 and float64 (not for the 16-bit
     * formats: the general leaf reads those). */
    const int from_text = ck__is_text(s) &&
                          (ck__scalar_is_integer(d) ||
                           (ck__scalar_is_float(d) && ck__scalar_info(d)->part_size >= 4));
    if ((!into_text && !from_text) || spec->nsrc == 2 ||
        (ck__is_var_text(d) && spec->dst_arena == NULL)) {
        return CK_OK; /* the general leaf alone (it refuses what it must) */
    }
    const ck_type_id text = into_text ? d : s;
    const int enc = into_text ? spec->dst_enc : spec->src_enc;
    const size_t unit = ck__is_var_text(text) ? 0
                        : text == CK_TYPE_FIXED_BYTES ? 1
                                                      : ck__code_unit_size(enc);
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__TEXT_NUMBER_CHILD));
    ck__text_number *k = (ck__text_number *)ck_builder_at(ckb, *offset);
    k->base.destructor = text_number_destroy;
    ck_prefix_set_function(&k->base, req, text_number_single, text_number_strided);
    if (into_text && unit == 0) {
        ck_memblock_incref(spec->dst_arena);
        k->arena = spec->dst_arena;
    }
    k->units = into_text ? spec->dst_units : spec->src_units;
    k->num_id = (uint8_t)(into_text ? s : d);
    k->text_id = (uint8_t)text;
    k->unit = (uint8_t)unit;
    k->into_text = (uint8_t)into_text;
    if (!into_text && ck__scalar_is_integer(d)) {
        const int is_signed = ck__scalar_is(d, CK__SCALAR_KIND_SIGNED);
        const int bits = (int)ck_type_data_size(ck_type_scalar(d)) * 8;
        k->hi = is_signed ? UINT64_MAX >> (65 - bits) : UINT64_MAX >> (64 - bits);
        k->lo_mag = is_signed ? k->hi + 1 : 0;
    }
    *offset += CK__TEXT_NUMBER_CHILD;
    *made = 1;
    return CK_OK;
}

static void text_number_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                 ck__children *children) {
    const ck__text_number *k = (const ck__text_number *)self;
    const char *num = ck_type_id_name((ck_type_id)k->num_id);
    const char *text = ck_type_id_name((ck_type_id)k->text_id);
    ck__strbuf_printf(out, "%s -> %s, %s units of %u bytes; the rest by its child",
                      k->into_text ? num : text, k->into_text ? text : num,
                      k->unit == 0 ? "variable" : "fixed", (unsigned)k->unit);
    *size = sizeof(ck__text_number);
    ck__children_add(children, CK__TEXT_NUMBER_CHILD);
}

const ck__kind ck__text_number_kind = {"text_number", text_number_single,
                                       text_number_strided, text_number_describe};
