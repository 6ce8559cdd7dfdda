/* src/callables/time_call.c: the built-in `add` and `subtract` on datetime64 and timedelta64
 * operands (NumPy's rules): datetime - datetime is a timedelta, datetime +- timedelta and
 * timedelta + datetime a datetime, timedelta +- timedelta a timedelta, each in the finer of
 * the two units; a timedelta in years or months meets only those (NumPy refuses the rest).
 * NaT in gives NaT out. A call whose arguments hold a datetime or timedelta comes here
 * instead of the signature selection (call.c): signatures are of the 14 scalars, and a
 * datetime's unit is a parameter they cannot spell. The walk is the composition's, with the
 * datetime_arith leaf (kernels/datetime_cast.c). */
#include <stdio.h>
#include <string.h>

#include "builders/compose.h"
#include "callables/callable_internal.h"
#include "common/internal.h"
#include "kernels/kinds.h"
#include "types/datetime.h"
#include "types/type_internal.h"

/* The value under t's dimensions, pointers and option (*option |= there was one). */
static const ck_type *value_of(const ck_type *t, int *option) {
    while (t->element != NULL) {
        *option |= t->id == CK_TYPE_OPTION;
        t = t->element;
    }
    return t;
}

int ck__time_call_applies(const ck_callable *c, int nsrc, const ck_type *const *src_tp) {
    if (c == NULL || src_tp == NULL || nsrc < 1 || nsrc > CK_CALL_MAX_ARGS) {
        return 0; /* the call's own checks say what is wrong */
    }
    int option = 0;
    for (int k = 0; k < nsrc; k++) {
        if (src_tp[k] != NULL && ck__is_time(value_of(src_tp[k], &option)->id)) {
            return 1;
        }
    }
    return 0;
}

/* "datetime64[s]" (a value type: no allocation). */
static void type_name(const ck_type *t, char *buf, size_t cap) {
    if (ck__is_time(t->id)) {
        snprintf(buf, cap, "%s[%s]", ck_type_id_name(t->id), ck__unit_name(t->param));
    } else {
        snprintf(buf, cap, "%s", ck_type_id_name(t->id));
    }
}

/* The result of name(a, b) on the values a and b: *subtract says which operation. */
static int result_of(const char *name, const ck_type *a, const ck_type *b, int *subtract,
                     const ck_type **res) {
    char an[64], bn[64];
    type_name(a, an, sizeof an);
    type_name(b, bn, sizeof bn);
    *subtract = strcmp(name, "subtract") == 0;
    if (!*subtract && strcmp(name, "add") != 0) {
        return ck_set_error(CK_ERR_TYPE,
                            "%s: takes no datetime64 or timedelta64 arguments (add and subtract "
                            "do), not %s and %s",
                            name, an, bn);
    }
    if (!ck__is_time(a->id) || !ck__is_time(b->id)) {
        return ck_set_error(CK_ERR_TYPE,
                            "%s: %s and %s: a datetime64 or timedelta64 meets only another "
                            "(cast the number to timedelta64 first)",
                            name, an, bn);
    }
    const int ua = a->param, ub = b->param, unit = ua > ub ? ua : ub; /* the finer */
    const int da = a->id == CK_TYPE_DATETIME, db = b->id == CK_TYPE_DATETIME;
    if ((da && db && !*subtract) || (!da && db && *subtract)) {
        return ck_set_error(CK_ERR_TYPE, "%s: %s %c %s is not defined (NumPy refuses it too)",
                            name, an, *subtract ? '-' : '+', bn);
    }
    /* A timedelta operand in Y or M converts only to Y or M. */
    if ((!da && ck__unit_is_calendar(ua) && !ck__unit_is_calendar(unit)) ||
        (!db && ck__unit_is_calendar(ub) && !ck__unit_is_calendar(unit))) {
        return ck_set_error(CK_ERR_TYPE,
                            "%s: %s and %s: a timedelta in years or months does not convert to "
                            "%s, which has a fixed length (NumPy refuses it too)",
                            name, an, bn, ck__unit_name(unit));
    }
    *res = da && db ? ck_type_timedelta((ck_datetime_unit)unit)
           : da || db ? ck_type_datetime((ck_datetime_unit)unit)
                      : ck_type_timedelta((ck_datetime_unit)unit);
    return CK_OK;
}

static int plan(ck_callable *c, int nsrc, const ck_type *const *src_tp, const ck_type **res,
                int *subtract, int *option) {
    const char *name = ck_callable_name(c);
    for (int k = 0; k < nsrc; k++) {
        if (src_tp[k] == NULL) {
            return ck_set_error(CK_ERR_INVALID, "%s: source type %d is NULL", name, k);
        }
    }
    if (nsrc != 2) {
        return ck_set_error(CK_ERR_TYPE, "%s: datetime64 and timedelta64 take two arguments, not %d",
                            name, nsrc);
    }
    const ck_type *a = value_of(src_tp[0], option), *b = value_of(src_tp[1], option);
    return result_of(name, a, b, subtract, res);
}

typedef struct time_leaf {
    const char *name;
} time_leaf;

static int time_leaf_make(const ck__compose *c, ck_builder *ckb, size_t *offset,
                          const ck_type *dt, const ck_type *const *st, ck_request req,
                          unsigned flags, uintptr_t dst_bits, const uintptr_t *src_bits) {
    (void)flags; /* the leaf reads and writes through memcpy: any alignment */
    (void)dst_bits;
    (void)src_bits;
    const ck_type *res = NULL;
    int subtract = 0;
    CK_RETURN_IF_ERROR(
        result_of(((const time_leaf *)c->leaf_data)->name, st[0], st[1], &subtract, &res));
    return ck__make_datetime_arith(ckb, offset, subtract, res, dt, st, c->mode, req);
}

int ck__make_time_call(ck_builder *ckb, size_t *offset, ck_callable *c, const ck_type *dst_tp,
                       const char *dst_arrmeta, int nsrc, const ck_type *const *src_tp,
                       const char *const *src_arrmeta, ck_request req, const ck_eval_ctx *ectx,
                       int first_dim) {
    const ck_type *res;
    int subtract, option = 0;
    CK_RETURN_IF_ERROR(plan(c, nsrc, src_tp, &res, &subtract, &option));
    static const char *const no_arrmeta[CK__MAX_SRC];
    time_leaf data = {ck_callable_name(c)};
    ck__compose cmp;
    memset(&cmp, 0, sizeof cmp);
    CK_RETURN_IF_ERROR(ck__resolve_eval_ctx(ectx, &cmp.mode, &cmp.flags));
    cmp.dst_top = dst_tp;
    cmp.src_top = src_tp;
    cmp.nsrc = nsrc;
    cmp.make_leaf = time_leaf_make;
    cmp.leaf_data = &data;
    cmp.jit_op = -1; /* the JIT compiles scalar leaves */
    cmp.jit_op_id = -1;
    cmp.outer_rows = 1;
    return ck__compose_build(ckb, offset, &cmp, dst_tp, dst_arrmeta,
                             src_arrmeta != NULL ? src_arrmeta : no_arrmeta, req, first_dim);
}

int ck__time_call_result_type(ck_callable *c, int nsrc, const ck_type *const *src_tp,
                              ck_type **out) {
    const ck_type *res;
    int subtract, option = 0;
    CK_RETURN_IF_ERROR(plan(c, nsrc, src_tp, &res, &subtract, &option));
    const int core[1 + CK__MAX_SRC] = {0};
    const ck_type *cur[CK__MAX_SRC];
    intptr_t size[CK_TYPE_MAX_DEPTH];
    int nd = 0;
    CK_RETURN_IF_ERROR(ck__broadcast_dims(ck_callable_name(c), nsrc, src_tp, core, size, &nd, cur));
    ck_type *t = (ck_type *)(uintptr_t)res;
    if (option) {
        CK_RETURN_IF_ERROR(ck_type_make_option(t, &t));
    }
    return ck__type_over_dims(t, size, nd, out);
}
