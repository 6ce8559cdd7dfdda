/* src/kernels/datetime_cast.c: the assignment leaf where a side is datetime64 or timedelta64
 * and neither is text (text goes through text_cast.c): between units of one kind (floored to
 * a coarser unit, a finer one overflow-checked in the checked modes, NaT kept), and between
 * either kind and int64 (the count as it is, NumPy's astype). The value rules are
 * datetime.c's; docs/design.md §17. */
#include <stdio.h>
#include <string.h>

#include "common/internal.h"
#include "kernels/kinds.h"
#include "types/datetime.h"

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
        CK_RETURN_IF_ERROR_AT(i, convert_one(k, dst, s));
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
        return ck__make_copy_bytes(ckb, offset, sizeof(int64_t), req);
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
        return ck__make_copy_bytes(ckb, offset, sizeof(int64_t), req);
    }
    if ((unsigned)mode >= CK_NUM_ERRMODES) {
        return ck_set_error(CK_ERR_INTERNAL, "datetime cast in mode %d", (int)mode);
    }
    CK_RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__datetime_cast)));
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
