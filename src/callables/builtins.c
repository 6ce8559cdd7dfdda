/* src/callables/builtins.c: the built-in callables, registered through the same factory API
 * as users' (ck_callable_new, ck_callable_add): assign (one signature per scalar type, a copy
 * leaf, so a call converts through its argument and result casts) and add, subtract,
 * multiply, divide, minimum, maximum, logical_and, logical_or (one same-type signature per
 * scalar type that has a leaf in the per-target arithmetic tables, leaves/numeric/arith.dispatch.c;
 * bool divide gives int8, the logical ones bool, and bool subtract is a signature that
 * refuses). add, multiply, logical_and and logical_or have identities (0, 1, true, false),
 * which reductions start from. Mixed argument types select by the conversion kinds
 * (docs/design.md §10). The factories' data is the operation itself, so nothing is
 * allocated for them. dot takes rows: core dimensions (docs/design.md §14). The unary
 * functions (negative, the unary minus of expressions) are (T) -> T for every scalar, one
 * generic registration per row of leaves/numeric/unary_leaves.h (a type without a leaf has a
 * signature that refuses, as bool subtract's). The comparisons, length and concat (which take text too)
 * are registered by text_call.c. */
#include <stdint.h>
#include <stdio.h>

#include "callables/callable_internal.h"
#include "common/internal.h"
#include "leaves/numeric/arith_leaves.h"
#include "leaves/numeric/unary_leaves.h"
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

/* What builtins need of each row of CK__ARITH_LIST (leaves/numeric/arith_leaves.h). */
typedef struct arith_builtin {
    int bool_ret; /* the result type of bool's signature, -1: a signature that refuses */
    int ret_bool; /* every signature returns bool */
    const char *identity;
    int jit_op; /* a ck__jit_op, -1 for none */
} arith_builtin;

#define CK__JIT_OP_NONE (-1)
#define CK__ARITH_BOOL_RET_bool CK_TYPE_BOOL
#define CK__ARITH_BOOL_RET_int8 CK_TYPE_INT8
#define CK__ARITH_BOOL_RET_NONE (-1)
#define CK__ARITH_RET_BOOL_SAME 0
#define CK__ARITH_RET_BOOL_BOOL 1
#define CK__ARITH_BUILTIN_ROW(A, name, E, BR, RET, ID, CHK, JIT)                             \
    [CK__ARITH_##E] = {CK__ARITH_BOOL_RET_##BR, CK__ARITH_RET_BOOL_##RET, ID, CK__JIT_OP_##JIT},
static const arith_builtin arith_builtins[CK__ARITH_NUM_OPS] = {
    CK__ARITH_LIST(CK__ARITH_BUILTIN_ROW, ~)};

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
    int rc = CK_OK;
    for (int id = 0; id < CK_NUM_SCALAR_TYPES && rc == CK_OK; id++) {
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

int ck__builtin_jit_op(const ck_factory *f) {
    /* The JIT compiles the four arithmetic operations, minimum, maximum and the unary
     * functions whose row names a JIT operation. */
    if (f->instantiate == unary_instantiate) {
        return ((const unary_builtin *)f->data)->jit_op;
    }
    if (f->instantiate != arith_instantiate) {
        return -1;
    }
    return arith_builtins[(uintptr_t)f->data].jit_op;
}

/* subtract(bool, bool): NumPy refuses it, and no bool is a difference of two bools. The
 * signature exists so that selection finds it (else int8 and uint8 tie) and refuses. */
static int bool_subtract_refused(void) {
    return ck_set_error(CK_ERR_TYPE, "subtract: bool - bool is not defined (NumPy refuses it "
                                     "too); cast an argument to an integer type to subtract");
}

static int bool_subtract_resolve(void *data, const ck_leaf_info *info, ck_type_id *ret) {
    (void)data, (void)info, (void)ret;
    return bool_subtract_refused();
}

static int bool_subtract_instantiate(void *data, ck_builder *ckb, size_t *offset,
                                     const ck_leaf_info *info) {
    (void)data, (void)ckb, (void)offset, (void)info;
    return bool_subtract_refused();
}

static int add_builtin(const char *name, ck__arith_op op, int arith) {
    if (ck__registry_has(name)) {
        return CK_OK; /* registered by an earlier, interrupted attempt */
    }
    ck_callable *c = NULL;
    CK__RETURN_IF_ERROR(ck_callable_new(name, &c));
    int rc = CK_OK;
    for (int id = 0; id < CK_NUM_SCALAR_TYPES && rc == CK_OK; id++) {
        const char *t = ck_type_id_name((ck_type_id)id);
        ck_factory f = {arith ? arith_instantiate : assign_instantiate, NULL,
                        (void *)(uintptr_t)op, NULL};
        char sig[96];
        if (!arith) {
            snprintf(sig, sizeof sig, "(%s) -> %s", t, t);
        } else if (ck__arith_has_leaf(op, (ck_type_id)id)) {
            const arith_builtin *row = &arith_builtins[op];
            const int ret = id == CK_TYPE_BOOL ? row->bool_ret : row->ret_bool ? CK_TYPE_BOOL : id;
            snprintf(sig, sizeof sig, "(%s, %s) -> %s", t, t, ck_type_id_name((ck_type_id)ret));
        } else if (op == CK__ARITH_SUBTRACT && id == CK_TYPE_BOOL) {
            snprintf(sig, sizeof sig, "(%s, %s) -> %s", t, t, t);
            f = (ck_factory){bool_subtract_instantiate, bool_subtract_resolve, NULL, NULL};
        } else {
            continue;
        }
        rc = ck_callable_add(c, sig, &f);
    }
    const char *identity = arith ? arith_builtins[op].identity : NULL;
    if (rc == CK_OK && identity != NULL) {
        rc = ck_callable_set_identity(c, identity);
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

static int add_dot(void) {
    if (ck__registry_has("dot")) {
        return CK_OK;
    }
    ck_callable *c = NULL;
    CK__RETURN_IF_ERROR(ck_callable_new("dot", &c));
    int rc = CK_OK;
    for (int id = 0; id < CK_NUM_SCALAR_TYPES && rc == CK_OK; id++) {
        if (ck__scalar_computes_in_float32((ck_type_id)id)) {
            continue;
        }
        const char *t = ck_type_id_name((ck_type_id)id);
        char sig[96];
        snprintf(sig, sizeof sig, "(N * %s, N * %s) -> %s", t, t, t);
        const ck_factory f = {dot_instantiate, NULL, NULL, NULL};
        rc = ck_callable_add(c, sig, &f);
    }
    if (rc == CK_OK) {
        rc = ck__registry_add(c);
    }
    ck_callable_decref(c);
    return rc;
}

int ck__register_builtins(void) {
    CK__RETURN_IF_ERROR(add_builtin("assign", CK__ARITH_ADD, 0));
    for (int op = 0; op < CK__ARITH_NUM_OPS; op++) {
        CK__RETURN_IF_ERROR(add_builtin(ck__arith_op_name((ck__arith_op)op), (ck__arith_op)op, 1));
    }
    for (size_t i = 0; i < sizeof unary_builtins / sizeof unary_builtins[0]; i++) {
        CK__RETURN_IF_ERROR(add_unary(&unary_builtins[i]));
    }
    CK__RETURN_IF_ERROR(ck__register_text_builtins());
    return add_dot();
}
