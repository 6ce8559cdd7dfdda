/* src/callables/matmul_call.c: the built-in matmul, NumPy's (n?,k),(k,m?)->(n?,m?): the
 * callable of core signature (N * K * T, K * M * T) -> N * M * T for every scalar type in
 * NumPy's order (selected by NumPy's rule), its leaf leaves/reduce/matmul.c; and the matmul
 * route of call.c, which takes NumPy's 1-d operands: a first operand of one dimension is a
 * row (1 * K), a second one a column (K * 1), and the result has that unit dimension
 * removed, so the call is built as the 2-d one over views with the unit dimensions put in
 * (a fixed dimension of size 1 inserted into the type and its arrmeta). */
#include <stdio.h>
#include <string.h>

#include "builders/compose.h"
#include "callables/callable_internal.h"
#include "ckernel/arrmeta.h"
#include "common/internal.h"
#include "core/kinds.h"
#include "types/type_internal.h"

static int matmul_instantiate(void *data, ck_builder *ckb, size_t *offset,
                              const ck_leaf_info *info) {
    (void)data;
    return ck__make_matmul_leaf(ckb, offset, info->args[0], info->core, info->req);
}

int ck__register_matmul(void) {
    /* NumPy's order (?bBhHiIlLqQefdFD, its int64 loops once), bfloat16 after float16. */
    static const ck_type_id order[] = {
        CK_TYPE_BOOL,    CK_TYPE_INT8,     CK_TYPE_UINT8,   CK_TYPE_INT16,   CK_TYPE_UINT16,
        CK_TYPE_INT32,   CK_TYPE_UINT32,   CK_TYPE_INT64,   CK_TYPE_UINT64,  CK_TYPE_FLOAT16,
        CK_TYPE_BFLOAT16, CK_TYPE_FLOAT32, CK_TYPE_FLOAT64, CK_TYPE_COMPLEX64, CK_TYPE_COMPLEX128};
    _Static_assert(sizeof order / sizeof order[0] == CK_NUM_SCALAR_TYPES, "every scalar");
    static const char *const core[3] = {"N * K * ", "K * M * ", "N * M * "};
    return ck__register_core_callable("matmul", CK_SELECT_FIRST_SAFE, core, order,
                                      sizeof order / sizeof order[0], matmul_instantiate);
}

static int is_matmul(const ck_callable *c) {
    const ck__snapshot *s = c != NULL ? ck__callable_snapshot(c) : NULL;
    return s != NULL && ck__snapshot_size(s) > 0 &&
           ck__snapshot_entry(s, 0)->factory.instantiate == matmul_instantiate;
}

int ck__matmul_call_claims(const ck_callable *c, int nsrc, const ck_type *const *src_tp) {
    if (nsrc != 2 || src_tp == NULL || src_tp[0] == NULL || src_tp[1] == NULL || !is_matmul(c)) {
        return 0;
    }
    return ck__dims_through_pointers(src_tp[0]) == 1 || ck__dims_through_pointers(src_tp[1]) == 1;
}

/* t (arrmeta am, may be NULL for types) with a fixed dimension of size 1 (stride 0) inserted
 * at depth `at` (0: outermost): *out a new type, its arrmeta into *out_am (allocated; NULL
 * when am is). Dimensions above `at` must be plain fixed or var ones. */
static int insert_unit_dim(const char *who, const ck_type *t, const char *am, int at,
                           ck_type **out, char **out_am) {
    *out = NULL;
    *out_am = NULL;
    const ck_type *levels[CK_TYPE_MAX_DEPTH];
    size_t am_at = 0;
    const ck_type *inner = t;
    for (int d = 0; d < at; d++) {
        /* (at most CK_TYPE_MAX_DEPTH levels: a non-dimension ends the walk first) */
        if (inner->id != CK_TYPE_FIXED_DIM && inner->id != CK_TYPE_VAR_DIM) {
            return ck_set_error(CK_ERR_BROADCAST,
                                "matmul: %s has %d dimension%s where the product needs %d "
                                "(pointers before matmul's core dimensions are not taken)",
                                who, d, d == 1 ? "" : "s", at);
        }
        levels[d] = inner;
        am_at += inner->id == CK_TYPE_FIXED_DIM ? sizeof(ck_fixed_dim_arrmeta)
                                                : sizeof(ck_var_dim_arrmeta);
        inner = inner->element;
    }
    ck_type *cur = NULL;
    CK__RETURN_IF_ERROR(ck_type_make_fixed_dim(1, inner, &cur));
    for (int d = at - 1; d >= 0; d--) {
        ck_type *outer = NULL;
        const int rc = levels[d]->id == CK_TYPE_FIXED_DIM
                           ? ck_type_make_fixed_dim(levels[d]->fixed_size, cur, &outer)
                           : ck_type_make_var_dim(cur, &outer);
        ck_type_decref(cur);
        CK__RETURN_IF_ERROR(rc);
        cur = outer;
    }
    if (am != NULL) {
        const size_t size = ck_type_arrmeta_size(t);
        char *m = (char *)ck__malloc(size + sizeof(ck_fixed_dim_arrmeta));
        if (m == NULL) {
            ck_type_decref(cur);
            return ck__nomem_error("matmul: out of memory for a 1-d operand's arrmeta");
        }
        const ck_fixed_dim_arrmeta unit = {1, 0};
        memcpy(m, am, am_at);
        memcpy(m + am_at, &unit, sizeof unit);
        memcpy(m + am_at + sizeof unit, am + am_at, size - am_at);
        *out_am = m;
    }
    *out = cur;
    return CK_OK;
}

/* t without its fixed dimension of size 1 at depth `at`. */
static int remove_unit_dim(const ck_type *t, int at, ck_type **out) {
    if (at == 0) {
        ck_type_incref(t->element);
        *out = (ck_type *)(uintptr_t)t->element;
        return CK_OK;
    }
    ck_type *inner = NULL;
    CK__RETURN_IF_ERROR(remove_unit_dim(t->element, at - 1, &inner));
    const int rc = t->id == CK_TYPE_FIXED_DIM ? ck_type_make_fixed_dim(t->fixed_size, inner, out)
                                              : ck_type_make_var_dim(inner, out);
    ck_type_decref(inner);
    return rc;
}

/* The 2-d views of the operands: a 1-d first one as 1 * K, a 1-d second one as K * 1. */
typedef struct views {
    const ck_type *st[2];
    const char *sam[2];
    ck_type *made[2];
    char *made_am[2];
    int row, column; /* the first is a row, the second a column */
} views;

static void views_free(views *v) {
    for (int k = 0; k < 2; k++) {
        ck_type_decref(v->made[k]);
        ck__free(v->made_am[k]);
    }
}

static int make_views(const ck_type *const *src_tp, const char *const *src_arrmeta, views *v) {
    memset(v, 0, sizeof *v);
    static const char *const who[2] = {"argument 0", "argument 1"};
    for (int k = 0; k < 2; k++) {
        v->st[k] = src_tp[k];
        v->sam[k] = src_arrmeta != NULL ? src_arrmeta[k] : NULL;
        if (ck__dims_through_pointers(src_tp[k]) != 1) {
            continue;
        }
        /* NumPy's rule: a first operand's missing n is before k, a second's missing m after */
        CK__RETURN_IF_ERROR(insert_unit_dim(who[k], src_tp[k], v->sam[k], k == 0 ? 0 : 1,
                                            &v->made[k], &v->made_am[k]));
        v->st[k] = v->made[k];
        if (v->sam[k] != NULL) {
            v->sam[k] = v->made_am[k];
        }
        *(k == 0 ? &v->row : &v->column) = 1;
    }
    return CK_OK;
}

int ck__make_matmul_call(ck_builder *ckb, size_t *offset, ck_callable *c, const ck_type *dst_tp,
                         const char *dst_arrmeta, int nsrc, const ck_type *const *src_tp,
                         const char *const *src_arrmeta, ck_request req, const ck_eval_ctx *ectx,
                         int first_dim) {
    views v;
    int rc = make_views(src_tp, src_arrmeta, &v);
    /* The destination with the unit dimensions the result lacks: before its last dimension
     * for a row (n), after it for a column (m); both for the 0-d product of two 1-d ones. */
    ck_type *dt = NULL, *dt2 = NULL;
    char *dam = NULL, *dam2 = NULL;
    const int nd = ck__dims_through_pointers(dst_tp);
    const int want = v.row && v.column ? 0 : 1;
    if (rc == CK_OK && nd < want) {
        rc = ck_set_error(CK_ERR_BROADCAST,
                          "matmul: the destination has no dimension; the product of a %s and a "
                          "matrix has one",
                          v.row ? "row (1-d first operand)" : "column (1-d second operand)");
    }
    if (rc == CK_OK && v.row) {
        rc = insert_unit_dim("the destination", dst_tp, dst_arrmeta,
                             v.column ? nd : nd - 1, &dt, &dam);
    }
    const ck_type *d1 = dt != NULL ? dt : dst_tp;
    const char *a1 = dt != NULL ? dam : dst_arrmeta;
    if (rc == CK_OK && v.column) {
        rc = insert_unit_dim("the destination", d1, a1, v.row ? nd + 1 : nd, &dt2,
                             &dam2);
    }
    if (rc == CK_OK) {
        const ck_type *d = dt2 != NULL ? dt2 : d1;
        const char *a = dt2 != NULL ? dam2 : a1;
        rc = ck__make_call_at(ckb, offset, c, d, a, nsrc, v.st, v.sam, req, ectx, first_dim, 1);
    }
    ck_type_decref(dt);
    ck_type_decref(dt2);
    ck__free(dam);
    ck__free(dam2);
    views_free(&v);
    return rc;
}

int ck__matmul_call_result_type(ck_callable *c, int nsrc, const ck_type *const *src_tp,
                                const ck_eval_ctx *ectx, ck_type **out) {
    views v;
    int rc = make_views(src_tp, NULL, &v);
    ck_type *r = NULL, *r2 = NULL;
    if (rc == CK_OK) {
        rc = ck_call_result_type(c, nsrc, v.st, ectx, &r);
    }
    if (rc == CK_OK) {
        const int nd = ck__dims_through_pointers(r); /* ... * N * M * T */
        if (v.column) {
            rc = remove_unit_dim(r, nd - 1, &r2);
            ck_type_decref(r);
            r = r2;
            r2 = NULL;
        }
        if (rc == CK_OK && v.row) {
            rc = remove_unit_dim(r, nd - 2, &r2);
            ck_type_decref(r);
            r = r2;
        }
    }
    views_free(&v);
    if (rc != CK_OK) {
        ck_type_decref(r);
        r = NULL;
    }
    *out = r;
    return rc;
}
