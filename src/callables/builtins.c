/* src/callables/builtins.c: the built-in callables, registered through the same factory API
 * as users' (ck_callable_new, ck_callable_add): assign (one signature per scalar type, a copy
 * leaf, so a call converts through its argument and result casts); NumPy's functions
 * (ufuncs.c), whose arithmetic loops run this file's factory of the per-target arithmetic
 * leaves (leaves/numeric/arith.dispatch.c; its data is the operation itself, so nothing is
 * allocated for it). dot takes rows: core dimensions (docs/design.md §14). The unary
 * functions (negative, the unary minus of expressions) are (T) -> T for every scalar, one
 * generic registration per row of leaves/numeric/unary_leaves.h (a type without a leaf has a
 * signature that refuses, as bool subtract's). The comparisons, length and concat (which take text too)
 * are registered by text_call.c. */
#include <stdint.h>
#include <stdio.h>

#include "callables/callable_internal.h"
#include "common/internal.h"
#include "leaves/math/ufunc_list.h"
#include "leaves/numeric/arith_leaves.h"
#include "leaves/numeric/unary_leaves.h"
#include "leaves/numeric/where_leaf.h"
#include "jit/jit_plugin.h"
#include "core/kinds.h"
#include "common/scalars.h"

static int assign_instantiate(void *data, ck_builder *ckb, size_t *offset,
                              const ck_leaf_info *info) {
    (void)data;
    return ck__make_scalar_leaf(ckb, offset, info->ret, info->args[0], info->errmode, info->req);
}

static int arith_instantiate(void *data, ck_builder *ckb, size_t *offset,
                             const ck_leaf_info *info) {
    const ck__arith_op op = (ck__arith_op)(uintptr_t)data;
    return ck__make_arith_leaf(ckb, offset, op, info->args[0], info->req);
}

/* The JIT's operation of each row of CK__ARITH_LIST (leaves/numeric/arith_leaves.h). */
#define CK__JIT_OP_NONE (-1)
#define CK__ARITH_JIT_ROW(A, name, E, BR, RET, CHK, JIT) [CK__ARITH_##E] = CK__JIT_OP_##JIT,
static const int arith_jit_ops[CK__ARITH_NUM_OPS] = {CK__ARITH_LIST(CK__ARITH_JIT_ROW, ~)};

ck_factory ck__arith_factory(int op) {
    return (ck_factory){arith_instantiate, NULL, (void *)(uintptr_t)op, NULL};
}

int ck__builtin_arith_op(const ck_factory *f) {
    return f->instantiate == arith_instantiate ? (int)(uintptr_t)f->data : -1;
}

/* ---- the unary functions (leaves/numeric/unary_leaves.h), one generic registration ---- */

typedef struct unary_builtin {
    const char *name;
    int (*has_leaf)(ck_type_id id);
    int (*make_leaf)(ck_builder *ckb, size_t *offset, ck_type_id id, ck_request req);
    const char *refusal;
    int jit_op; /* a ck__jit_op, -1 for none */
} unary_builtin;

#define CK__UNARY_ROW(name, jit, refusal)                                                      \
    {#name, ck__##name##_has_leaf, ck__make_##name##_leaf, refusal, CK__JIT_OP_##jit},
static const unary_builtin unary_builtins[] = {CK__UNARY_LIST(CK__UNARY_ROW)};

static int unary_instantiate(void *data, ck_builder *ckb, size_t *offset,
                             const ck_leaf_info *info) {
    const unary_builtin *u = (const unary_builtin *)data;
    return u->make_leaf(ckb, offset, info->args[0], info->req);
}

static int unary_refused(const unary_builtin *u) {
    return ck_set_error(CK_ERR_TYPE, "%s: %s", u->name, u->refusal);
}

static int unary_refused_resolve(void *data, const ck_leaf_info *info, ck_type_id *ret) {
    (void)info, (void)ret;
    return unary_refused((const unary_builtin *)data);
}

static int unary_refused_instantiate(void *data, ck_builder *ckb, size_t *offset,
                                     const ck_leaf_info *info) {
    (void)ckb, (void)offset, (void)info;
    return unary_refused((const unary_builtin *)data);
}

static int add_unary(const unary_builtin *u) {
    if (ck__registry_has(u->name)) {
        return CK_OK;
    }
    ck_callable *c = NULL;
    CK__RETURN_IF_ERROR(ck_callable_new(u->name, &c));
    void *data = (void *)(uintptr_t)u; /* the factories' data: read only */
    /* NumPy's rule and order, as its ufuncs (leaves/math/ufunc_list.h). */
#define CK__UF_ID(T, _) ck__id_##T,
    static const int numpy_order[] = {CK__UF_ALL(CK__UF_ID, ~)};
#undef CK__UF_ID
    int rc = ck_callable_set_selection(c, CK_SELECT_FIRST_SAFE);
    for (size_t k = 0; k < CK__ARRAY_SIZE(numpy_order) && rc == CK_OK; k++) {
        const int id = numpy_order[k];
        const char *t = ck_type_id_name((ck_type_id)id);
        char sig[96];
        snprintf(sig, sizeof sig, "(%s) -> %s", t, t);
        const ck_factory f =
            u->has_leaf((ck_type_id)id)
                ? (ck_factory){unary_instantiate, NULL, data, NULL}
                : (ck_factory){unary_refused_instantiate, unary_refused_resolve, data, NULL};
        rc = ck_callable_add(c, sig, &f);
    }
    if (rc == CK_OK) {
        rc = ck__registry_add(c);
    }
    ck_callable_decref(c);
    return rc;
}

/* where, (bool, T, T) -> T for every scalar in NumPy's order, selected by NumPy's rule:
 * the first T both values cast to safely is np.result_type's (int8 and uint8: int16). */
static int where_instantiate(void *data, ck_builder *ckb, size_t *offset,
                             const ck_leaf_info *info) {
    (void)data;
    return ck__make_where_leaf(ckb, offset, info->ret, info->req);
}

int ck__builtin_jit_op(const ck_factory *f) {
    /* The JIT compiles the four arithmetic operations, minimum, maximum, the logical ones,
     * the comparisons, where, the bitwise functions and the unary functions whose row names
     * a JIT operation. */
    if (f->instantiate == where_instantiate) {
        return CK__JIT_OP_WHERE;
    }
    const int op = ck__compare_jit_op(f);
    if (op >= 0) {
        return op;
    }
    if (ck__ufunc_jit_op(f) >= 0) {
        return ck__ufunc_jit_op(f);
    }
    if (f->instantiate == unary_instantiate) {
        return ((const unary_builtin *)f->data)->jit_op;
    }
    if (f->instantiate != arith_instantiate) {
        return -1;
    }
    return arith_jit_ops[(uintptr_t)f->data];
}

/* assign, (T) -> T for every scalar: a copy leaf, so a call converts through its argument
 * and result casts. */
static int add_assign(void) {
    if (ck__registry_has("assign")) {
        return CK_OK; /* registered by an earlier, interrupted attempt */
    }
    ck_callable *c = NULL;
    CK__RETURN_IF_ERROR(ck_callable_new("assign", &c));
    int rc = CK_OK;
    for (int id = 0; id < CK_NUM_SCALAR_TYPES && rc == CK_OK; id++) {
        const char *t = ck_type_id_name((ck_type_id)id);
        const ck_factory f = {assign_instantiate, NULL, NULL, NULL};
        char sig[96];
        snprintf(sig, sizeof sig, "(%s) -> %s", t, t);
        rc = ck_callable_add(c, sig, &f);
    }
    if (rc == CK_OK) {
        rc = ck__registry_add(c);
    }
    ck_callable_decref(c);
    return rc;
}

/* dot, (N * T, N * T) -> T for every scalar but those computed in float32 (float16,
 * bfloat16: they select float32): core
 * dimensions (docs/design.md §14). */
static int dot_instantiate(void *data, ck_builder *ckb, size_t *offset, const ck_leaf_info *info) {
    (void)data;
    return ck__make_dot_leaf(ckb, offset, info->args[0], info->core, info->req);
}

int ck__register_core_callable(const char *name, ck_selection rule, const char *const core[3],
                               const ck_type_id *ids, size_t n,
                               int (*instantiate)(void *, ck_builder *, size_t *,
                                                  const ck_leaf_info *)) {
    if (ck__registry_has(name)) {
        return CK_OK;
    }
    ck_callable *c = NULL;
    CK__RETURN_IF_ERROR(ck_callable_new(name, &c));
    int rc = ck_callable_set_selection(c, rule);
    for (size_t i = 0; i < n && rc == CK_OK; i++) {
        const char *t = ck_type_id_name(ids[i]);
        char sig[128];
        snprintf(sig, sizeof sig, "(%s%s, %s%s) -> %s%s", core[0], t, core[1], t, core[2], t);
        const ck_factory f = {instantiate, NULL, NULL, NULL};
        rc = ck_callable_add(c, sig, &f);
    }
    if (rc == CK_OK) {
        rc = ck__registry_add(c);
    }
    ck_callable_decref(c);
    return rc;
}

static int add_dot(void) {
    ck_type_id ids[CK_NUM_SCALAR_TYPES];
    size_t n = 0;
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; id++) {
        if (!ck__scalar_computes_in_float32((ck_type_id)id)) {
            ids[n++] = (ck_type_id)id;
        }
    }
    static const char *const core[3] = {"N * ", "N * ", ""};
    return ck__register_core_callable("dot", CK_SELECT_BEST, core, ids, n, dot_instantiate);
}

static int add_where(void) {
    if (ck__registry_has("where")) {
        return CK_OK;
    }
    ck_callable *c = NULL;
    CK__RETURN_IF_ERROR(ck_callable_new("where", &c));
#define CK__UF_ID(T, _) ck__id_##T,
    static const int numpy_order[] = {CK__UF_ALL(CK__UF_ID, ~)};
#undef CK__UF_ID
    int rc = ck_callable_set_selection(c, CK_SELECT_FIRST_SAFE);
    for (size_t k = 0; k < CK__ARRAY_SIZE(numpy_order) && rc == CK_OK; k++) {
        const char *t = ck_type_id_name((ck_type_id)numpy_order[k]);
        char sig[96];
        snprintf(sig, sizeof sig, "(bool, %s, %s) -> %s", t, t, t);
        const ck_factory f = {where_instantiate, NULL, NULL, NULL};
        rc = ck_callable_add(c, sig, &f);
    }
    if (rc == CK_OK) {
        rc = ck__registry_add(c);
    }
    ck_callable_decref(c);
    return rc;
}

int ck__register_builtins(void) {
    CK__RETURN_IF_ERROR(add_where());
    CK__RETURN_IF_ERROR(add_assign());
    CK__RETURN_IF_ERROR(ck__register_ufuncs());
    for (size_t i = 0; i < sizeof unary_builtins / sizeof unary_builtins[0]; i++) {
        CK__RETURN_IF_ERROR(add_unary(&unary_builtins[i]));
    }
    CK__RETURN_IF_ERROR(ck__register_text_builtins());
    CK__RETURN_IF_ERROR(ck__register_matmul());
    return add_dot();
}
