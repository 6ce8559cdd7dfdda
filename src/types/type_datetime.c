/* src/types/type_datetime.c: the kinds datetime64[unit] and timedelta64[unit]: static types
 * (one per kind and unit, as the scalars are), int64 data aligned as int64, no arrmeta, the
 * unit in the type's `param`; their queries and operations (type_internal.h). Their values
 * (calendar, units, text) are in datetime.c. */
#include <stdalign.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "values/datetime.h"
#include "types/type_internal.h"

#define CK__TIME_TYPE(id_, unit_)                                                          \
    {.id = id_, .is_static = 1, .fixed_size = -1, .data_size = sizeof(int64_t),           \
     .data_alignment = alignof(int64_t), .param = unit_}
#define CK__TIME_UNITS(id_)                                                                \
    {CK__TIME_TYPE(id_, CK_UNIT_Y),  CK__TIME_TYPE(id_, CK_UNIT_M),                        \
     CK__TIME_TYPE(id_, CK_UNIT_W),  CK__TIME_TYPE(id_, CK_UNIT_D),                        \
     CK__TIME_TYPE(id_, CK_UNIT_h),  CK__TIME_TYPE(id_, CK_UNIT_m),                        \
     CK__TIME_TYPE(id_, CK_UNIT_s),  CK__TIME_TYPE(id_, CK_UNIT_ms),                       \
     CK__TIME_TYPE(id_, CK_UNIT_us), CK__TIME_TYPE(id_, CK_UNIT_ns)}

static ck_type ck__datetimes[CK_NUM_DATETIME_UNITS] = CK__TIME_UNITS(CK_TYPE_DATETIME);
static ck_type ck__timedeltas[CK_NUM_DATETIME_UNITS] = CK__TIME_UNITS(CK_TYPE_TIMEDELTA);

const ck_type *ck_type_datetime(ck_datetime_unit unit) {
    return (unsigned)unit < CK_NUM_DATETIME_UNITS ? &ck__datetimes[unit] : NULL;
}

const ck_type *ck_type_timedelta(ck_datetime_unit unit) {
    return (unsigned)unit < CK_NUM_DATETIME_UNITS ? &ck__timedeltas[unit] : NULL;
}

int ck_type_datetime_unit(const ck_type *t) {
    return t != NULL && ck__is_time(t->id) ? (int)t->param : -1;
}

const char *ck_datetime_unit_name(ck_datetime_unit unit) {
    const char *name = ck__unit_name((int)unit);
    return name != NULL ? name : "unknown";
}

/* ---- operations ---- */

static void time_release(ck_type *t) {
    (void)t; /* static */
}

static int time_equal(const ck_type *a, const ck_type *b) {
    return a->param == b->param;
}

static void time_format(const ck_type *t, ck__strbuf *out) {
    ck__strbuf_printf(out, "%s[%s]", ck_type_id_name(t->id), ck__unit_name(t->param));
}

static void time_construct(const ck_type *t, char *arrmeta, ck_memblock *blockref) {
    (void)t;
    (void)arrmeta;
    (void)blockref;
}

static void time_arrmeta_nothing(const ck_type *t, char *arrmeta) {
    (void)t;
    (void)arrmeta;
}

const ck__type_kind ck__time_kind_ops = {time_release,         time_equal,
                                         time_format,          time_construct,
                                         time_arrmeta_nothing, time_arrmeta_nothing,
                                         ck__slot_extent};
