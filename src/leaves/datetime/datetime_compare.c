/* src/leaves/datetime/datetime_compare.c: the leaf of the comparisons (equal .. greater_equal) of
 * two datetime64 or two timedelta64 operands in any two units (callables/time_call.c), a bool
 * result. Exact, where NumPy converts both to a common unit first and can wrap or floor: the
 * coarser operand is converted to the finer unit, and when that leaves int64 its sign says
 * which side of every finer value it lies; a year or month against weeks (a year's first day
 * is seldom a week's) compares the week floored to the year, then the year's first week.
 * NaT compares false, except not_equal, which is true (NumPy 1.24). The same kind is isnat's
 * leaf (one operand: whether it is NaT). docs/design.md §17. */
#include <string.h>

#include "common/internal.h"
#include "leaves/numeric/compare_leaves.h"
#include "core/kinds.h"
#include "values/datetime.h"

typedef struct ck__datetime_compare {
    ck_prefix base;
    uint8_t unit[2]; /* the operands' units */
    uint8_t delta;   /* timedelta64 operands */
    uint8_t op;      /* ck__compare_op */
} ck__datetime_compare;

/* The sign of c - f for c in the coarser unit uc and f in the finer unit uf (neither NaT). */
static int coarse_vs_fine(int64_t c, int uc, int64_t f, int uf, int delta) {
    int64_t r;
    if (ck__unit_is_calendar(uc) && uf == CK_UNIT_W) {
        /* c against f's year (month): before, after, or that one, where f is at or after
         * c's first day, and equal only when c's first day is f's (c's first week, floored,
         * is f only then). */
        int64_t q;
        ck__time_convert(f, uf, uc, delta, &q);
        if (c != q) {
            return c < q ? -1 : 1;
        }
        return ck__time_convert(c, uc, uf, delta, &r) == CK__TIME_OK && r == f ? 0 : -1;
    }
    /* Exact: whole multiples, or a calendar unit's first day in a fixed unit. Beyond int64
     * (or on NaT's value), c is past every value of the finer unit on its side of 1970. */
    if (ck__time_convert(c, uc, uf, delta, &r) != CK__TIME_OK) {
        return c < 0 ? -1 : 1;
    }
    return (r > f) - (r < f);
}

static uint8_t compare_one(const ck__datetime_compare *k, const char *a_, const char *b_) {
    int64_t a, b;
    memcpy(&a, a_, sizeof a);
    if (k->op == CK__DATETIME_ISNAT) {
        return a == CK_DATETIME_NAT;
    }
    memcpy(&b, b_, sizeof b);
    if (a == CK_DATETIME_NAT || b == CK_DATETIME_NAT) {
        return k->op == CK__COMPARE_NOT_EQUAL;
    }
    int s;
    if (k->unit[0] == k->unit[1]) {
        s = (a > b) - (a < b);
    } else if (k->unit[0] < k->unit[1]) { /* the enum runs coarsest first */
        s = coarse_vs_fine(a, k->unit[0], b, k->unit[1], k->delta);
    } else {
        s = -coarse_vs_fine(b, k->unit[1], a, k->unit[0], k->delta);
    }
    return (uint8_t)ck__compare_result((ck__compare_op)k->op, s);
}

static CK__KERNEL_ALIGN int datetime_compare_single(ck_prefix *self, char *dst,
                                                    char *const *src) {
    *(uint8_t *)dst = compare_one((const ck__datetime_compare *)self, src[0], src[1]);
    return CK_OK;
}

static CK__KERNEL_ALIGN int datetime_compare_strided(ck_prefix *self, char *dst,
                                                     intptr_t dst_stride, char *const *src,
                                                     const intptr_t *src_stride, size_t count) {
    const ck__datetime_compare *k = (const ck__datetime_compare *)self;
    const int unary = k->op == CK__DATETIME_ISNAT;
    const char *a = src[0], *b = unary ? src[0] : src[1];
    const intptr_t bs = unary ? src_stride[0] : src_stride[1];
    for (size_t i = 0; i < count; i++, dst += dst_stride, a += src_stride[0], b += bs) {
        *(uint8_t *)dst = compare_one(k, a, b);
    }
    return CK_OK;
}

int ck__make_datetime_compare(ck_builder *ckb, size_t *offset, int op, const ck_type *a,
                              const ck_type *b, ck_request req) {
    const int ua = ck_type_datetime_unit(a), ub = ck_type_datetime_unit(b);
    const int delta = ck_type_get_id(a) == CK_TYPE_TIMEDELTA;
    if (op < 0 || op >= CK__COMPARE_NUM_OPS || ua < 0 || ub < 0 ||
        ck_type_get_id(a) != ck_type_get_id(b) ||
        (delta && ck__unit_is_calendar(ua) != ck__unit_is_calendar(ub))) {
        return ck_set_error(CK_ERR_INTERNAL, "datetime comparison leaf %d of bad operands", op);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__datetime_compare)));
    ck__datetime_compare *k = (ck__datetime_compare *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(&k->base, req, datetime_compare_single, datetime_compare_strided);
    k->unit[0] = (uint8_t)ua;
    k->unit[1] = (uint8_t)ub;
    k->delta = (uint8_t)delta;
    k->op = (uint8_t)op;
    *offset += sizeof(ck__datetime_compare);
    return CK_OK;
}

int ck__make_datetime_isnat(ck_builder *ckb, size_t *offset, const ck_type *a, ck_request req) {
    const int ua = ck_type_datetime_unit(a);
    if (ua < 0) {
        return ck_set_error(CK_ERR_INTERNAL, "isnat leaf of a %s", ck_type_id_name(ck_type_get_id(a)));
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__datetime_compare)));
    ck__datetime_compare *k = (ck__datetime_compare *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(&k->base, req, datetime_compare_single, datetime_compare_strided);
    k->unit[0] = k->unit[1] = (uint8_t)ua;
    k->delta = (uint8_t)(ck_type_get_id(a) == CK_TYPE_TIMEDELTA);
    k->op = CK__DATETIME_ISNAT;
    *offset += sizeof(ck__datetime_compare);
    return CK_OK;
}

static void datetime_compare_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                      ck__children *children) {
    (void)children;
    const ck__datetime_compare *k = (const ck__datetime_compare *)self;
    const char *kind = k->delta ? "timedelta64" : "datetime64";
    if (k->op == CK__DATETIME_ISNAT) {
        ck__strbuf_printf(out, "isnat %s[%s] -> bool", kind, ck__unit_name(k->unit[0]));
        *size = sizeof(ck__datetime_compare);
        return;
    }
    ck__strbuf_printf(out, "%s %s[%s], %s[%s] -> bool", ck__compare_op_name((ck__compare_op)k->op),
                      kind, ck__unit_name(k->unit[0]), kind, ck__unit_name(k->unit[1]));
    *size = sizeof(ck__datetime_compare);
}

const ck__kind ck__datetime_compare_kind = {"datetime_compare", datetime_compare_single,
                                            datetime_compare_strided, datetime_compare_describe};
