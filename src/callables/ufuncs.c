/* src/callables/ufuncs.c: NumPy's functions as built-in callables, one per row of
 * leaves/math/ufunc_list.h (and one more per alias), registered through the same factory
 * API as users' callables: one signature per loop in NumPy's order, selected by NumPy's rule
 * (CK_SELECT_FIRST_SAFE), with the row's identity. A LEAF loop's factory builds its
 * leaf from leaves/math, an ARITH loop's is the arithmetic built-in factory (builtins.c: the
 * JIT and the reductions know it), and a REFUSE loop's refuses with the row's message. The
 * factories' data is the loop itself, so nothing is allocated for them; it also names the
 * scalar function the JIT calls for the loop (leaves/math/jit_scalars.c). */
#include <stdint.h>
#include <stdio.h>

#include "callables/callable_internal.h"
#include "jit/jit_plugin.h"
#include "common/internal.h"
#include "common/scalars.h"
#include "leaves/math/ufunc_list.h"
#include "leaves/numeric/arith_leaves.h"

enum { ck__id_none = -1, CK__ARITH_NONE = -1 };
/* CHECKED and VMATH loops have leaves of leaves/math as LEAF ones do. */
enum { CK__UF_IMPL_LEAF, CK__UF_IMPL_ARITH, CK__UF_IMPL_REFUSE };
enum { CK__UF_IMPL_CHECKED = CK__UF_IMPL_LEAF, CK__UF_IMPL_VMATH = CK__UF_IMPL_LEAF };
enum { CK__UF_IMPL_PAIR = CK__UF_IMPL_LEAF };

typedef struct ufunc_row {
    const char *name;
    int nin;
    int arith; /* a ck__arith_op, -1 for none */
    const char *identity;
    const char *refusal;
} ufunc_row;

typedef struct ufunc_loop {
    int impl;
    int ufunc;
    int in[2]; /* in[1] -1 for one operand */
    int out;
    int out2; /* a PAIR loop's second result, else -1 */
} ufunc_loop;

#define CK__UF_ID(T) CK__UF_ID_(T)
#define CK__UF_ID_(T) ck__id_##T
#define CK__UF_OUT2_LEAF(name, a) -1
#define CK__UF_OUT2_CHECKED CK__UF_OUT2_LEAF
#define CK__UF_OUT2_VMATH CK__UF_OUT2_LEAF
#define CK__UF_OUT2_ARITH CK__UF_OUT2_LEAF
#define CK__UF_OUT2_REFUSE CK__UF_OUT2_LEAF
#define CK__UF_OUT2_PAIR(name, a) CK__UF_ID(CK__UF_SECOND_##name(a))

#define CK__UF_ROW(name, NIN, ARITH, ID, REF) {#name, NIN, CK__ARITH_##ARITH, ID, REF},
static const ufunc_row rows[CK__UFUNC_NUM] = {CK__UFUNC_LIST(CK__UF_ROW)};

#define CK__UF_LOOP_ROW(name, I, NIN, a, b, r)                                                     \
  {CK__UF_IMPL_##I, CK__UFUNC_##name, {ck__id_##a, ck__id_##b}, ck__id_##r,   \
   CK__UF_OUT2_##I(name, a)},
#define CK__UF_LOOP_ROWS(name, ...) CK__UFL_##name(CK__UF_LOOP_ROW)
static const ufunc_loop loops[CK__UFUNC_NUM_LOOPS] = {CK__UFUNC_LIST(CK__UF_LOOP_ROWS)};

static int leaf_instantiate(void *data, ck_builder *ckb, size_t *offset, const ck_leaf_info *info) {
    return ck__make_ufunc_leaf(ckb, offset, (ck__ufunc_loop)(uintptr_t)data, info->req);
}

int ck__ufunc_jit_op(const ck_factory *f) {
    if (f->instantiate != leaf_instantiate) {
        return -1;
    }
    switch (loops[(uintptr_t)f->data].ufunc) {
    case CK__UFUNC_bitwise_and: return CK__JIT_OP_BIT_AND;
    case CK__UFUNC_bitwise_or: return CK__JIT_OP_BIT_OR;
    case CK__UFUNC_bitwise_xor: return CK__JIT_OP_BIT_XOR;
    case CK__UFUNC_invert: return CK__JIT_OP_INVERT;
    case CK__UFUNC_logical_xor: return CK__JIT_OP_LOGICAL_XOR;
    case CK__UFUNC_logical_not: return CK__JIT_OP_LOGICAL_NOT;
    default: return -1;
    }
}

int ck__ufunc_jit_function(const ck_factory *f, void (**fn)(void), void (**chunk)(void)) {
    if (f->instantiate != leaf_instantiate) {
        return 0;
    }
    const ck__ufunc_loop loop = (ck__ufunc_loop)(uintptr_t)f->data;
    const ck__ufunc_scalar_fn s = ck__ufunc_scalar(loop);
    if (s == NULL) {
        return 0;
    }
    *fn = s;
    *chunk = (void (*)(void))ck__ufunc_chunk(loop);
    return 1;
}

static int refused(const void *data) {
    const ufunc_loop *l = &loops[(uintptr_t)data];
    return ck_set_error(CK_ERR_TYPE, "%s: %s", rows[l->ufunc].name, rows[l->ufunc].refusal);
}

static int refused_resolve(void *data, const ck_leaf_info *info, ck_type_id *ret) {
    (void)info, (void)ret;
    return refused(data);
}

static int refused_instantiate(void *data, ck_builder *ckb, size_t *offset,
                               const ck_leaf_info *info) {
    (void)ckb, (void)offset, (void)info;
    return refused(data);
}

/* The callable `name` of row u, with its loops [first, end). */
static int add_ufunc(const char *name, int u, int first, int end) {
    if (ck__registry_has(name)) {
        return CK_OK; /* registered by an earlier, interrupted attempt */
    }
    ck_callable *c = NULL;
    CK__RETURN_IF_ERROR(ck_callable_new(name, &c));
    int rc = ck_callable_set_selection(c, CK_SELECT_FIRST_SAFE);
    for (int i = first; i < end && rc == CK_OK; i++) {
        const ufunc_loop *l = &loops[i];
        char args[64], sig[128];
        if (rows[u].nin == 1) {
            snprintf(args, sizeof args, "%s", ck_type_id_name((ck_type_id)l->in[0]));
        } else {
            snprintf(args, sizeof args, "%s, %s", ck_type_id_name((ck_type_id)l->in[0]),
                     ck_type_id_name((ck_type_id)l->in[1]));
        }
        if (l->out2 < 0) {
            snprintf(sig, sizeof sig, "(%s) -> %s", args, ck_type_id_name((ck_type_id)l->out));
        } else {
            snprintf(sig, sizeof sig, "(%s) -> (%s, %s)", args,
                     ck_type_id_name((ck_type_id)l->out), ck_type_id_name((ck_type_id)l->out2));
        }
        void *data = (void *)(uintptr_t)i;
        const ck_factory f = l->impl == CK__UF_IMPL_LEAF
                                 ? (ck_factory){leaf_instantiate, NULL, data, NULL}
                             : l->impl == CK__UF_IMPL_ARITH
                                 ? ck__arith_factory((ck__arith_op)rows[u].arith)
                                 : (ck_factory){refused_instantiate, refused_resolve, data, NULL};
        rc = ck_callable_add(c, sig, &f);
    }
    if (rc == CK_OK && rows[u].identity != NULL) {
        rc = ck_callable_set_identity(c, rows[u].identity);
    }
    if (rc == CK_OK) {
        rc = ck__registry_add(c);
    }
    ck_callable_decref(c);
    return rc;
}

/* isnat: of datetime64 and timedelta64 only, which take the time route
 * (callables/time_call.c); no signature of scalars, so any other argument is refused. */
static int add_isnat(void) {
    if (ck__registry_has("isnat")) {
        return CK_OK;
    }
    ck_callable *c = NULL;
    CK__RETURN_IF_ERROR(ck_callable_new("isnat", &c));
    int rc = ck_callable_set_selection(c, CK_SELECT_FIRST_SAFE);
    if (rc == CK_OK) {
        rc = ck__registry_add(c);
    }
    ck_callable_decref(c);
    return rc;
}

int ck__register_ufuncs(void) {
    int first[CK__UFUNC_NUM + 1];
    for (int u = 0, i = 0; u <= CK__UFUNC_NUM; u++) {
        while (i < CK__UFUNC_NUM_LOOPS && loops[i].ufunc < u) {
            i++;
        }
        first[u] = i;
    }
    for (int u = 0; u < CK__UFUNC_NUM; u++) {
        CK__RETURN_IF_ERROR(add_ufunc(rows[u].name, u, first[u], first[u + 1]));
    }
#define CK__UF_ALIAS(alias, name)                                                                  \
  {                                                                                                \
    const int u = CK__UFUNC_##name;                                                                \
    CK__RETURN_IF_ERROR(add_ufunc(#alias, u, first[u], first[u + 1]));                             \
  }
    CK__UFUNC_ALIASES(CK__UF_ALIAS)
#undef CK__UF_ALIAS
    return add_isnat();
}
