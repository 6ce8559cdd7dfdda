/* src/leaves/datetime/family.c: the datetime leaf family's row (core/leaf_families.h):
 * datetime64 and timedelta64, whose options have int64's NA (NaT), cast among themselves and
 * int64 (datetime_cast.c) and to and from text (datetime_text.c, over the text cast). */
#include "common/internal.h"
#include "core/kinds.h"
#include "core/leaf_families.h"
#include "types/type_internal.h"
#include "values/datetime.h"

static int make_cast(ck_builder *ckb, size_t *offset, const ck__cast_operands *ops,
                     ck_request req) {
    if (ck__is_text(ops->dst->id) || ck__is_text(ops->src->id)) {
        ck__text_cast_spec spec;
        CK__RETURN_IF_ERROR(ck__text_cast_spec_of(ops, &spec));
        return ck__make_datetime_text(ckb, offset, &spec, req); /* its fast leaf */
    }
    return ck__make_datetime_cast(ckb, offset, ops->dst, ops->src, ops->mode, req);
}

/* A checked cast into a datetime never gives NaT from a value (it is out of range); out of
 * one, NaT's int64 is int64's NA. */
static int cast_can_give_na(ck_type_id dst, ck_type_id src) {
    return !ck__is_time(dst) && ck__conversion_can_give_na(src, dst);
}

const ck__leaf_family ck__datetime_family = {
    CK__LEAF_FAMILY_HEAD(datetime),
    make_cast,
    cast_can_give_na,
    NULL, /* its leaves are kinds (datetime_cast, datetime_arith, datetime_compare, ...) */
};
