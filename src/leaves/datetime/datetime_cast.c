/* src/leaves/datetime/datetime_cast.c: the assignment leaf where a side is datetime64 or
 * timedelta64 and neither is text (text goes through text_cast.c): between units of one kind
 * (floored to a coarser unit, a finer one overflow-checked in the checked modes, NaT kept), and
 * between either kind and int64 (the count as it is, NumPy's astype). Also the leaf of add and
 * subtract on them (datetime_arith): both operands into the result's unit, the sum or
 * difference, then into the destination's unit, NaT in gives NaT out. The value rules are
 * datetime.c's; docs/design.md §17. */
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"
#include "values/datetime.h"

typedef struct ck__datetime_cast {
    ck_prefix base;
    uint8_t src_unit, dst_unit;
    uint8_t is_delta;
    uint8_t mode; /* ck_errmode */
} ck__datetime_cast;

static void time_type_text(int is_delta, int unit, char *buf, size_t cap) {
    snprintf(buf, cap, "%s[%s]", is_delta ? "timedelta64" : "datetime64", ck__unit_name(unit));
}

static int convert_one(const ck__datetime_cast *k, char *dst, const char *src) {
    int64_t v, r;
    memcpy(&v, src, sizeof v);
    if (ck__time_convert(v, k->src_unit, k->dst_unit, k->is_delta, &r) != CK__TIME_OK &&
        k->mode != CK_ERRMODE_NOCHECK) {
        char text[CK__DATETIME_TEXT_MAX], st[32], dt[32];
        ck__time_format(v, k->src_unit, k->is_delta, text);
        time_type_text(k->is_delta, k->src_unit, st, sizeof st);
        time_type_text(k->is_delta, k->dst_unit, dt, sizeof dt);
        return ck__set_located_error(CK_ERR_OVERFLOW, NULL, 0, "%s value %s is out of range for %s",
                                     st, text, dt);
    }
    memcpy(dst, &r, sizeof r);
    return CK_OK;
}

static CK__KERNEL_ALIGN int datetime_cast_single(ck_prefix *self, char *dst, char *const *src) {
    return convert_one((const ck__datetime_cast *)self, dst, src[0]);
}

static CK__KERNEL_ALIGN int datetime_cast_strided(ck_prefix *self, char *dst,
                                                  intptr_t dst_stride, char *const *src,
                                                  const intptr_t *src_stride, size_t count) {
    const ck__datetime_cast *k = (const ck__datetime_cast *)self;
    const char *s = src[0];
    const intptr_t ss = src_stride[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += ss) {
        CK__RETURN_IF_ERROR_AT(i, convert_one(k, dst, s));
    }
    return CK_OK;
}

int ck__make_datetime_cast(ck_builder *ckb, size_t *offset, const ck_type *dt,
                           const ck_type *st, ck_errmode mode, ck_request req) {
    const ck_type_id did = ck_type_get_id(dt), sid = ck_type_get_id(st);
    const int du = ck_type_datetime_unit(dt), su = ck_type_datetime_unit(st);
    char dname[32] = "", sname[32] = "";
    if (du >= 0) {
        time_type_text(did == CK_TYPE_TIMEDELTA, du, dname, sizeof dname);
    }
    if (su >= 0) {
        time_type_text(sid == CK_TYPE_TIMEDELTA, su, sname, sizeof sname);
    }
    if (did == CK_TYPE_INT64 || sid == CK_TYPE_INT64) { /* the count as it is */
        return ck__make_copy_bytes(ckb, offset, sizeof(int64_t), 0, req);
    }
    if (du < 0 || su < 0 || did != sid) {
        return ck_set_error(CK_ERR_TYPE,
                            "cannot cast %s to %s: datetime64 and timedelta64 convert to their "
                            "own kind in any unit, to and from int64 and to and from text",
                            su >= 0 ? sname : ck_type_id_name(sid),
                            du >= 0 ? dname : ck_type_id_name(did));
    }
    if (did == CK_TYPE_TIMEDELTA && ck__unit_is_calendar(su) != ck__unit_is_calendar(du)) {
        return ck_set_error(CK_ERR_TYPE,
                            "cannot cast %s to %s: years and months have no fixed length in "
                            "the other units (NumPy converts them only under unsafe casting)",
                            sname, dname);
    }
    if (su == du) {
        return ck__make_copy_bytes(ckb, offset, sizeof(int64_t), 0, req);
    }
    if ((unsigned)mode >= CK_NUM_ERRMODES) {
        return ck_set_error(CK_ERR_INTERNAL, "datetime cast in mode %d", (int)mode);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__datetime_cast)));
    ck__datetime_cast *k = (ck__datetime_cast *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(&k->base, req, datetime_cast_single, datetime_cast_strided);
    k->src_unit = (uint8_t)su;
    k->dst_unit = (uint8_t)du;
    k->is_delta = did == CK_TYPE_TIMEDELTA;
    k->mode = (uint8_t)mode;
    *offset += sizeof(ck__datetime_cast);
    return CK_OK;
}

static void datetime_cast_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                   ck__children *children) {
    (void)children;
    const ck__datetime_cast *k = (const ck__datetime_cast *)self;
    char dt[32], st[32];
    time_type_text(k->is_delta, k->dst_unit, dt, sizeof dt);
    time_type_text(k->is_delta, k->src_unit, st, sizeof st);
    ck__strbuf_printf(out, "%s -> %s (%s)", st, dt, ck_errmode_name((ck_errmode)k->mode));
    *size = sizeof(ck__datetime_cast);
}

const ck__kind ck__datetime_cast_kind = {"datetime_cast", datetime_cast_single,
                                         datetime_cast_strided, datetime_cast_describe};

/* ---- add and subtract ---- */

typedef struct ck__datetime_arith {
    ck_prefix base;
    uint8_t unit[2], delta[2]; /* the operands' units and kinds */
    uint8_t res_unit, res_delta, dst_unit;
    uint8_t subtract;
    uint8_t mode;
} ck__datetime_arith;

static int arith_one(const ck__datetime_arith *k, char *dst, const char *a_, const char *b_) {
    int64_t v[2], r;
    memcpy(&v[0], a_, sizeof v[0]);
    memcpy(&v[1], b_, sizeof v[1]);
    if (v[0] == CK_DATETIME_NAT || v[1] == CK_DATETIME_NAT) {
        r = CK_DATETIME_NAT;
        memcpy(dst, &r, sizeof r);
        return CK_OK;
    }
    int bad = 0;
    for (int i = 0; i < 2; i++) {
        bad |= ck__time_convert(v[i], k->unit[i], k->res_unit, k->delta[i], &v[i]);
    }
    bad |= k->subtract ? __builtin_sub_overflow(v[0], v[1], &r)
                       : __builtin_add_overflow(v[0], v[1], &r);
    bad |= r == CK_DATETIME_NAT;
    bad |= ck__time_convert(r, k->res_unit, k->dst_unit, k->res_delta, &r);
    if (bad && k->mode != CK_ERRMODE_NOCHECK) {
        char at[CK__DATETIME_TEXT_MAX], bt[CK__DATETIME_TEXT_MAX], dt[32];
        memcpy(&v[0], a_, sizeof v[0]);
        memcpy(&v[1], b_, sizeof v[1]);
        ck__time_format(v[0], k->unit[0], k->delta[0], at);
        ck__time_format(v[1], k->unit[1], k->delta[1], bt);
        time_type_text(k->res_delta, k->dst_unit, dt, sizeof dt);
        return ck__set_located_error(CK_ERR_OVERFLOW, NULL, 0, "%s: %s %c %s is out of range for %s",
                                     k->subtract ? "subtract" : "add", at,
                                     k->subtract ? '-' : '+', bt, dt);
    }
    memcpy(dst, &r, sizeof r);
    return CK_OK;
}

static CK__KERNEL_ALIGN int datetime_arith_single(ck_prefix *self, char *dst, char *const *src) {
    return arith_one((const ck__datetime_arith *)self, dst, src[0], src[1]);
}

static CK__KERNEL_ALIGN int datetime_arith_strided(ck_prefix *self, char *dst,
                                                   intptr_t dst_stride, char *const *src,
                                                   const intptr_t *src_stride, size_t count) {
    const ck__datetime_arith *k = (const ck__datetime_arith *)self;
    const char *a = src[0], *b = src[1];
    for (size_t i = 0; i < count; i++, dst += dst_stride, a += src_stride[0], b += src_stride[1]) {
        CK__RETURN_IF_ERROR_AT(i, arith_one(k, dst, a, b));
    }
    return CK_OK;
}

int ck__make_datetime_arith(ck_builder *ckb, size_t *offset, int subtract, const ck_type *res,
                            const ck_type *dt, const ck_type *const *st, ck_errmode mode,
                            ck_request req) {
    if (ck_type_get_id(dt) != ck_type_get_id(res)) {
        char rt[32];
        time_type_text(ck_type_get_id(res) == CK_TYPE_TIMEDELTA, ck_type_datetime_unit(res), rt,
                       sizeof rt);
        return ck_set_error(CK_ERR_TYPE, "%s: the result is %s; a %s destination cannot hold it",
                            subtract ? "subtract" : "add", rt, ck_type_id_name(ck_type_get_id(dt)));
    }
    if (ck_type_get_id(res) == CK_TYPE_TIMEDELTA &&
        ck__unit_is_calendar(ck_type_datetime_unit(res)) !=
            ck__unit_is_calendar(ck_type_datetime_unit(dt))) {
        return ck__make_datetime_cast(ckb, offset, dt, res, mode, req); /* its refusal */
    }
    if ((unsigned)mode >= CK_NUM_ERRMODES) {
        return ck_set_error(CK_ERR_INTERNAL, "datetime arithmetic in mode %d", (int)mode);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__datetime_arith)));
    ck__datetime_arith *k = (ck__datetime_arith *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(&k->base, req, datetime_arith_single, datetime_arith_strided);
    for (int i = 0; i < 2; i++) {
        k->unit[i] = (uint8_t)ck_type_datetime_unit(st[i]);
        k->delta[i] = ck_type_get_id(st[i]) == CK_TYPE_TIMEDELTA;
    }
    k->res_unit = (uint8_t)ck_type_datetime_unit(res);
    k->res_delta = ck_type_get_id(res) == CK_TYPE_TIMEDELTA;
    k->dst_unit = (uint8_t)ck_type_datetime_unit(dt);
    k->subtract = (uint8_t)(subtract != 0);
    k->mode = (uint8_t)mode;
    *offset += sizeof(ck__datetime_arith);
    return CK_OK;
}

static void datetime_arith_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                    ck__children *children) {
    (void)children;
    const ck__datetime_arith *k = (const ck__datetime_arith *)self;
    char a[32], b[32], r[32], d[32];
    time_type_text(k->delta[0], k->unit[0], a, sizeof a);
    time_type_text(k->delta[1], k->unit[1], b, sizeof b);
    time_type_text(k->res_delta, k->res_unit, r, sizeof r);
    time_type_text(k->res_delta, k->dst_unit, d, sizeof d);
    ck__strbuf_printf(out, "%s %s %s -> %s into %s (%s)", a, k->subtract ? "-" : "+", b, r, d,
                      ck_errmode_name((ck_errmode)k->mode));
    *size = sizeof(ck__datetime_arith);
}

const ck__kind ck__datetime_arith_kind = {"datetime_arith", datetime_arith_single,
                                          datetime_arith_strided, datetime_arith_describe};
