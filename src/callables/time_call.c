/* src/callables/time_call.c: the built-in `add`, `subtract` and comparisons (equal ..
 * greater_equal) on datetime64 and timedelta64 operands (NumPy's rules): datetime - datetime
 * is a timedelta, datetime +- timedelta and timedelta + datetime a datetime, timedelta +-
 * timedelta a timedelta, each in the finer of the two units; a timedelta in years or months
 * meets only those (NumPy refuses the rest); `isnat` of one says whether it is NaT. A comparison takes two of one kind, in any
 * units, and gives bool, compared exactly (leaves/datetime/datetime_compare.c). NaT in gives NaT
 * out (comparisons: false, not_equal true). A call whose arguments hold a datetime or timedelta
 * comes here (the time row of call.c's routes) instead of the signature selection: signatures
 * are of the scalar types, and a datetime's unit is a parameter they cannot spell. The walk
 * is the composition's, with the datetime_arith leaf (leaves/datetime/datetime_cast.c) or the
 * datetime_compare leaf. */
#include <stdio.h>
#include <string.h>

#include "builders/compose.h"
#include "callables/callable_internal.h"
#include "common/internal.h"
#include "leaves/numeric/compare_leaves.h"
#include "core/kinds.h"
#include "values/datetime.h"
#include "types/type_internal.h"

/* The value under t's dimensions, pointers and option (*option |= there was one). */
static const ck_type *value_of(const ck_type *t, int *option) {
    while (t->element != NULL) {
        *option |= t->id == CK_TYPE_OPTION;
        t = t->element;
    }
    return t;
}

int ck__time_call_claims(const ck_callable *c, int nsrc, const ck_type *const *src_tp) {
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

/* What a call does with times: a comparison (a ck__compare_op) or one of these. */
enum { TIME_ADD = CK__COMPARE_NUM_OPS, TIME_SUBTRACT, TIME_ISNAT };

static int op_of(const ck_callable *c) {
    const int compare = ck__text_builtin_op(c); /* the comparisons are the text ones */
    if (compare >= 0 && compare < CK__COMPARE_NUM_OPS) {
        return compare;
    }
    const char *name = ck_callable_name(c);
    return strcmp(name, "add") == 0        ? TIME_ADD
           : strcmp(name, "subtract") == 0 ? TIME_SUBTRACT
           : strcmp(name, "isnat") == 0    ? TIME_ISNAT
                                           : -1;
}

/* The result of the call `name` doing op on the values a and b. */
static int result_of(const char *name, int op, const ck_type *a, const ck_type *b,
                     const ck_type **res) {
    char an[64], bn[64];
    type_name(a, an, sizeof an);
    type_name(b, bn, sizeof bn);
    const int subtract = op == TIME_SUBTRACT, compare = op >= 0 && op < CK__COMPARE_NUM_OPS;
    if (op < 0) {
        return ck_set_error(CK_ERR_TYPE,
                            "%s: takes no datetime64 or timedelta64 arguments (add, subtract "
                            "and the comparisons do), not %s and %s",
                            name, an, bn);
    }
    if (!ck__is_time(a->id) || !ck__is_time(b->id)) {
        return ck_set_error(CK_ERR_TYPE,
                            "%s: %s and %s: a datetime64 or timedelta64 meets only another "
                            "(cast the %s to %s first)",
                            name, an, bn, ck__is_text(a->id) || ck__is_text(b->id) ? "text" : "number",
                            compare ? "the time's type" : "timedelta64");
    }
    const int ua = a->param, ub = b->param, unit = ua > ub ? ua : ub; /* the finer */
    const int da = a->id == CK_TYPE_DATETIME, db = b->id == CK_TYPE_DATETIME;
    if (compare && da != db) {
        return ck_set_error(CK_ERR_TYPE,
                            "%s: %s and %s: a datetime64 compares only with a datetime64, a "
                            "timedelta64 with a timedelta64",
                            name, an, bn);
    }
    if (!compare && ((da && db && !subtract) || (!da && db && subtract))) {
        return ck_set_error(CK_ERR_TYPE, "%s: %s %c %s is not defined (NumPy refuses it too)",
                            name, an, subtract ? '-' : '+', bn);
    }
    /* A timedelta operand in Y or M converts only to Y or M. */
    if ((!da && ck__unit_is_calendar(ua) && !ck__unit_is_calendar(unit)) ||
        (!db && ck__unit_is_calendar(ub) && !ck__unit_is_calendar(unit))) {
        return ck_set_error(CK_ERR_TYPE,
                            "%s: %s and %s: a timedelta in years or months does not convert to "
                            "%s, which has a fixed length (NumPy refuses it too)",
                            name, an, bn, ck__unit_name(unit));
    }
    *res = compare    ? ck_type_scalar(CK_TYPE_BOOL)
           : da && db ? ck_type_timedelta((ck_datetime_unit)unit)
           : da || db ? ck_type_datetime((ck_datetime_unit)unit)
                      : ck_type_timedelta((ck_datetime_unit)unit);
    return CK_OK;
}

static int plan(ck_callable *c, int nsrc, const ck_type *const *src_tp, const ck_type **res,
                int *op, int *option) {
    const char *name = ck_callable_name(c);
    for (int k = 0; k < nsrc; k++) {
        if (src_tp[k] == NULL) {
            return ck_set_error(CK_ERR_INVALID, "%s: source type %d is NULL", name, k);
        }
    }
    *op = op_of(c);
    if (*op == TIME_ISNAT) {
        if (nsrc != 1) {
            return ck_set_error(CK_ERR_TYPE, "%s takes one argument, not %d", name, nsrc);
        }
        const ck_type *a = value_of(src_tp[0], option);
        if (!ck__is_time(a->id)) { /* not claimed by the time route: the call's own message */
            return ck_set_error(CK_ERR_INTERNAL, "%s of a %s", name, ck_type_id_name(a->id));
        }
        *res = ck_type_scalar(CK_TYPE_BOOL);
        return CK_OK;
    }
    if (nsrc != 2) {
        return ck_set_error(CK_ERR_TYPE, "%s: datetime64 and timedelta64 take two arguments, not %d",
                            name, nsrc);
    }
    const ck_type *a = value_of(src_tp[0], option), *b = value_of(src_tp[1], option);
    return result_of(name, *op, a, b, res);
}

typedef struct time_leaf {
    const char *name;
    int op;
} time_leaf;

static int time_leaf_make(const ck__compose *c, ck_builder *ckb, size_t *offset,
                          const ck_type *dt, const ck_type *const *st, ck_request req,
                          unsigned flags, uintptr_t dst_bits, const uintptr_t *src_bits) {
    (void)flags; /* the leaf reads and writes through memcpy: any alignment */
    (void)dst_bits;
    (void)src_bits;
    const time_leaf *p = (const time_leaf *)c->leaf_data;
    if (p->op == TIME_ISNAT) {
        if (dt->id != CK_TYPE_BOOL) {
            return ck_set_error(CK_ERR_TYPE, "isnat gives bool; it cannot be written to %s values",
                                ck_type_id_name(dt->id));
        }
        return ck__make_datetime_isnat(ckb, offset, st[0], req);
    }
    const ck_type *res = NULL;
    CK__RETURN_IF_ERROR(result_of(p->name, p->op, st[0], st[1], &res));
    if (p->op >= TIME_ADD) {
        return ck__make_datetime_arith(ckb, offset, p->op == TIME_SUBTRACT, res, dt, st, c->mode,
                                       req);
    }
    if (dt->id != CK_TYPE_BOOL) { /* the leaf writes its bool with a byte store: any alignment */
        return ck_set_error(CK_ERR_TYPE,
                            "%s gives bool; it cannot be written to %s values (assign the bool "
                            "result to them)",
                            p->name, ck_type_id_name(dt->id));
    }
    return ck__make_datetime_compare(ckb, offset, p->op, st[0], st[1], req);
}

int ck__make_time_call(ck_builder *ckb, size_t *offset, ck_callable *c, const ck_type *dst_tp,
                       const char *dst_arrmeta, int nsrc, const ck_type *const *src_tp,
                       const char *const *src_arrmeta, ck_request req, const ck_eval_ctx *ectx,
                       int first_dim) {
    const ck_type *res;
    int op, option = 0;
    CK__RETURN_IF_ERROR(plan(c, nsrc, src_tp, &res, &op, &option));
    static const char *const no_arrmeta[CK__MAX_SRC];
    time_leaf data = {ck_callable_name(c), op};
    ck__compose cmp;
    memset(&cmp, 0, sizeof cmp);
    CK__RETURN_IF_ERROR(ck__resolve_eval_ctx(ectx, &cmp.mode, &cmp.flags));
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
                              const ck_eval_ctx *ectx, ck_type **out) {
    (void)ectx; /* the result of times is the same in every error mode */
    const ck_type *res;
    int op, option = 0;
    CK__RETURN_IF_ERROR(plan(c, nsrc, src_tp, &res, &op, &option));
    const int core[1 + CK__MAX_SRC] = {0};
    const ck_type *cur[CK__MAX_SRC];
    intptr_t size[CK_TYPE_MAX_DEPTH];
    int nd = 0;
    CK__RETURN_IF_ERROR(ck__broadcast_dims(ck_callable_name(c), nsrc, src_tp, core, size, &nd, cur));
    ck_type *t = (ck_type *)(uintptr_t)res;
    if (option) {
        CK__RETURN_IF_ERROR(ck_type_make_option(t, &t));
    }
    return ck__type_over_dims(t, size, nd, out);
}
