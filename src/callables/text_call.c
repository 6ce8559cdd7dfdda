/* src/callables/text_call.c: the built-in comparisons (equal, not_equal, less, less_equal,
 * greater, greater_equal: (T, T) -> bool for every scalar, leaves compiled per CPU target in
 * leaves/numeric/arith.dispatch.c, mixed types selected as for add), length and concat, and calls
 * whose arguments hold text (the text row of call.c's routes). Text is not a scalar of the
 * signatures (its kinds carry a length and an encoding), so a call with a text argument does
 * not select: the built-ins that take text are known by identity (ck__text_builtin_op), their
 * arguments must all be
 * text of one family (string and fixed_string, or bytes and fixed_bytes; never cast), and the
 * composition walk broadcasts them as any call's and puts the text leaf at the bottom:
 *   comparisons  a bool (leaves/text/text_compare.c), cast to the destination's type if it differs
 *   length       an int64 (code points of text, bytes of bytes), cast the same way
 *   concat       the text cast of two sources (leaves/text/text_cast.c) into the destination,
 *                which must be text: a string allocates from its arena; the result type is
 *                string (bytes) when an argument is, else fixed_string[N1 + N2] in their
 *                encoding (utf32 when they differ), fixed_bytes[N1 + N2] for bytes. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "builders/compose.h"
#include "callables/callable_internal.h"
#include "ckernel/arrmeta.h"
#include "common/internal.h"
#include "leaves/numeric/compare_leaves.h"
#include "core/kinds.h"
#include "jit/jit_plugin.h"
#include "types/type_internal.h"

/* ---- registration ---- */

static int compare_instantiate(void *data, ck_builder *ckb, size_t *offset,
                               const ck_leaf_info *info) {
    return ck__make_compare_leaf(ckb, offset, (ck__compare_op)(uintptr_t)data, info->args[0],
                                 info->req);
}

int ck__compare_jit_op(const ck_factory *f) {
    return f->instantiate == compare_instantiate ? CK__JIT_OP_EQUAL + (int)(uintptr_t)f->data
                                                 : -1;
}

static const char *text_op_name(int op) {
    return op < CK__COMPARE_NUM_OPS ? ck__compare_op_name((ck__compare_op)op)
           : op == CK__TEXT_LENGTH  ? "length"
                                    : "concat";
}

/* The built-ins that take text, by ck__text_op. Each keeps a reference for the life of the
 * process, so that an address here never comes to name another callable (after
 * ck_unregister); written once as the registry registers its built-ins, read by any call. */
static _Atomic(ck_callable *) text_builtins[CK__TEXT_NUM_OPS];

int ck__text_builtin_op(const ck_callable *c) {
    for (int op = 0; c != NULL && op < CK__TEXT_NUM_OPS; op++) {
        if (atomic_load_explicit(&text_builtins[op], memory_order_acquire) == c) {
            return op;
        }
    }
    return -1;
}

static int add_text_builtin(int op) {
    const char *name = text_op_name(op);
    if (ck__registry_has(name)) {
        return CK_OK; /* registered by an earlier, interrupted attempt */
    }
    ck_callable *c = NULL;
    CK__RETURN_IF_ERROR(ck_callable_new(name, &c));
    int rc = CK_OK;
    for (int id = 0; op < CK__COMPARE_NUM_OPS && id < CK_NUM_SCALAR_TYPES && rc == CK_OK; id++) {
        const char *t = ck_type_id_name((ck_type_id)id);
        char sig[96];
        snprintf(sig, sizeof sig, "(%s, %s) -> bool", t, t);
        const ck_factory f = {compare_instantiate, NULL, (void *)(uintptr_t)op, NULL};
        rc = ck_callable_add(c, sig, &f);
    }
    if (rc == CK_OK) {
        rc = ck__registry_add(c);
    }
    if (rc == CK_OK) {
        ck_callable_incref(c); /* text_builtins' own */
        atomic_store_explicit(&text_builtins[op], c, memory_order_release);
    }
    ck_callable_decref(c);
    return rc;
}

int ck__register_text_builtins(void) {
    for (int op = 0; op < CK__TEXT_NUM_OPS; op++) {
        CK__RETURN_IF_ERROR(add_text_builtin(op));
    }
    return CK_OK;
}

/* ---- planning ---- */

/* What an argument holds under its dimensions, pointers and options; NULL for a tuple or a
 * struct. */
static const ck_type *held_value(const ck_type *t) {
    while (!ck__id_is_scalar(t->id) && !ck__is_text(t->id)) {
        if (t->element == NULL) {
            return NULL;
        }
        t = t->element;
    }
    return t;
}

/* 1 when an option is on the way from t to its value: NA in gives NA out. */
static int holds_option(const ck_type *t) {
    for (; t != NULL && !ck__is_text(t->id); t = t->element) {
        if (t->id == CK_TYPE_OPTION) {
            return 1;
        }
    }
    return 0;
}

static int holds_text(const ck_type *t) {
    const ck_type *v = held_value(t);
    return v != NULL && ck__is_text(v->id);
}

int ck__text_call_claims(const ck_callable *c, int nsrc, const ck_type *const *src_tp) {
    (void)c; /* any callable: text_plan says which take text */
    if (src_tp == NULL || nsrc < 1 || nsrc > CK_CALL_MAX_ARGS) {
        return 0;
    }
    int text = 0;
    for (int k = 0; k < nsrc; k++) {
        if (src_tp[k] == NULL) {
            return 0; /* the call's checks say so */
        }
        text |= holds_text(src_tp[k]);
    }
    return text;
}

static ck__text_operand operand_of(const ck_type *t) {
    ck__text_operand o;
    o.id = t->id;
    o.enc = t->param;
    o.units = ck__is_var_text(t->id) ? 0 : (size_t)ck_type_text_length(t);
    return o;
}

static const char *family_name(const ck__text_operand *o) {
    return o->enc == CK_ENCODING_NONE ? "bytes" : "text";
}

typedef struct ck__text_plan {
    const char *name;
    int op; /* ck__text_op */
    ck__text_operand arg[2];
} ck__text_plan;

/* Checks a text call's arguments: a built-in that takes text, its number of arguments, all of
 * them text of one family. */
static int text_plan(ck_callable *c, int nsrc, const ck_type *const *src_tp, ck__text_plan *p) {
    if (c == NULL) {
        return ck_set_error(CK_ERR_INVALID, "call: NULL callable");
    }
    p->name = ck_callable_name(c);
    p->op = ck__text_builtin_op(c);
    const int nargs = p->op == CK__TEXT_LENGTH ? 1 : 2;
    if (p->op < 0) {
        int k = 0;
        while (k < nsrc - 1 && !holds_text(src_tp[k])) {
            k++;
        }
        return ck_set_error(CK_ERR_TYPE,
                            "%s: argument %d holds text; %s takes numbers (text goes to the "
                            "comparisons, length and concat)",
                            p->name, k, p->name);
    }
    if (nsrc != nargs) {
        return ck_set_error(CK_ERR_TYPE, "%s takes %d argument%s of text, not %d", p->name, nargs,
                            nargs == 1 ? "" : "s", nsrc);
    }
    for (int k = 0; k < nsrc; k++) {
        const ck_type *v = held_value(src_tp[k]);
        if (v != NULL && ck__is_text(v->id)) {
            p->arg[k] = operand_of(v);
            continue;
        }
        char *text = NULL;
        const int have = ck_type_format(src_tp[k], &text) == CK_OK;
        const int rc = ck_set_error(CK_ERR_TYPE,
                                    "%s: argument %d is %s; with text, every argument of %s must "
                                    "be text (cast numbers to text first)",
                                    p->name, k, have ? text : ck_type_id_name(src_tp[k]->id),
                                    p->name);
        ck_free(text);
        return rc;
    }
    if (nargs == 2 && (p->arg[0].enc == CK_ENCODING_NONE) != (p->arg[1].enc == CK_ENCODING_NONE)) {
        return ck_set_error(CK_ERR_TYPE,
                            "%s: argument 0 is %s and argument 1 %s; text and bytes do not mix "
                            "(cast one to the other's kind first)",
                            p->name, family_name(&p->arg[0]), family_name(&p->arg[1]));
    }
    return CK_OK;
}

/* ---- the leaf ---- */

static int number_leaf(const ck__compose *c, ck_builder *ckb, size_t *offset, const ck_type *dt,
                       const ck_type *const *st, ck_request req, unsigned flags,
                       uintptr_t dst_bits, const uintptr_t *src_bits) {
    (void)ckb, (void)offset, (void)dt, (void)st, (void)req, (void)flags, (void)dst_bits,
        (void)src_bits;
    const ck__text_plan *p = (const ck__text_plan *)c->leaf_data;
    return ck_set_error(CK_ERR_INTERNAL, "%s: a text call reached a leaf of numbers", p->name);
}

/* concat: the text cast of both arguments into the destination text. */
static int concat_leaf(const ck__compose *c, ck_builder *ckb, size_t *offset, const ck_type *dt,
                       const char *dam, const ck__text_operand *ops, ck_request req,
                       unsigned flags) {
    const ck__text_plan *p = (const ck__text_plan *)c->leaf_data;
    if (!ck__is_text(dt->id)) {
        return ck_set_error(CK_ERR_TYPE, "%s gives text; it cannot be written to %s values",
                            p->name, ck_type_id_name(dt->id));
    }
    ck__text_cast_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.dst_id = dt->id;
    spec.dst_enc = dt->param;
    spec.dst_units = ck__is_var_text(dt->id) ? 0 : (size_t)ck_type_text_length(dt);
    if (ck__is_var_text(dt->id)) {
        ck_string_arrmeta m;
        memcpy(&m, dam, sizeof m);
        spec.dst_arena = m.blockref;
    }
    spec.src_id = ops[0].id;
    spec.src_enc = ops[0].enc;
    spec.src_units = ops[0].units;
    spec.nsrc = 2;
    spec.src2_id = ops[1].id;
    spec.src2_enc = ops[1].enc;
    spec.src2_units = ops[1].units;
    spec.mode = c->mode;
    spec.refuse_na = (flags & CK__EVAL_REFUSE_NA) != 0;
    return ck__make_text_cast(ckb, offset, &spec, req);
}

static int text_leaf(const ck__compose *c, ck_builder *ckb, size_t *offset, const ck_type *dt,
                     const char *dam, const ck_type *const *st, const char *const *sam,
                     ck_request req, unsigned flags, uintptr_t dst_bits,
                     const uintptr_t *src_bits) {
    (void)sam, (void)src_bits;
    const ck__text_plan *p = (const ck__text_plan *)c->leaf_data;
    ck__text_operand ops[2];
    for (int k = 0; k < c->nsrc; k++) {
        if (!ck__is_text(st[k]->id)) {
            return ck_set_error(CK_ERR_TYPE, "%s: argument %d holds %s values here, not text",
                                p->name, k, ck_type_id_name(st[k]->id));
        }
        ops[k] = operand_of(st[k]);
    }
    if (p->op == CK__TEXT_CONCAT) {
        return concat_leaf(c, ckb, offset, dt, dam, ops, req, flags);
    }
    const ck_type_id rid = p->op == CK__TEXT_LENGTH ? CK_TYPE_INT64 : CK_TYPE_BOOL;
    /* The leaf writes its result with memcpy: any alignment of its own type will do. */
    if (dt->id == rid) {
        return ck__make_text_compare(ckb, offset, (ck__text_op)p->op, &ops[0], &ops[1], req);
    }
    if (!ck__id_is_scalar(dt->id)) {
        return ck_set_error(CK_ERR_TYPE, "%s gives %s; it cannot be written to %s values",
                            p->name, ck_type_id_name(rid), ck_type_id_name(dt->id));
    }
    /* Through call_args: the arguments pass as they are, the result is cast. */
    const ck_type *rt = ck_type_scalar(rid);
    const size_t pass[2] = {0, 0};
    const size_t at = *offset;
    CK__RETURN_IF_ERROR(
        ck__make_call_args(ckb, offset, c->nsrc, pass, ck_type_data_size(rt), req));
    CK__RETURN_IF_ERROR(ck__make_text_compare(ckb, offset, (ck__text_op)p->op, &ops[0], &ops[1],
                                             CK_REQUEST_STRIDED));
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset));
    CK__RETURN_IF_ERROR(ck__call_args_set_child(ckb, at, c->nsrc + 1, *offset));
    return ck__make_assign_leaf(ckb, offset, dt, rt, c->mode, CK_REQUEST_STRIDED,
                                flags & ~CK_EVAL_SRC_UNALIGNED, dst_bits, 0);
}

int ck__make_text_call(ck_builder *ckb, size_t *offset, ck_callable *c, const ck_type *dst_tp,
                       const char *dst_arrmeta, int nsrc, const ck_type *const *src_tp,
                       const char *const *src_arrmeta, ck_request req, const ck_eval_ctx *ectx,
                       int first_dim) {
    ck__text_plan plan;
    CK__RETURN_IF_ERROR(text_plan(c, nsrc, src_tp, &plan));
    ck__compose cmp;
    memset(&cmp, 0, sizeof cmp);
    CK__RETURN_IF_ERROR(ck__resolve_eval_ctx(ectx, &cmp.mode, &cmp.flags));
    cmp.dst_top = dst_tp;
    cmp.src_top = src_tp;
    cmp.nsrc = nsrc;
    cmp.make_leaf = number_leaf;
    cmp.make_text_leaf = text_leaf;
    cmp.leaf_data = &plan;
    cmp.jit_op = -1; /* the JIT compiles numbers */
    cmp.jit_op_id = -1;
    cmp.outer_rows = 1;
    return ck__compose_build(ckb, offset, &cmp, dst_tp, dst_arrmeta, src_arrmeta, req,
                             first_dim);
}

/* ---- the result type ---- */

/* concat's: string (bytes) when an argument is one, else the fixed kind of both lengths. */
static int concat_type(const ck__text_plan *p, ck_type **out) {
    const ck__text_operand *a = &p->arg[0], *b = &p->arg[1];
    const int bytes = a->enc == CK_ENCODING_NONE;
    if (ck__is_var_text(a->id) || ck__is_var_text(b->id)) {
        *out = (ck_type *)(uintptr_t)(bytes ? ck_type_bytes() : ck_type_string());
        return CK_OK;
    }
    if (a->units > (size_t)INTPTR_MAX - b->units) {
        return ck_set_error(CK_ERR_INVALID, "concat: %zu + %zu code units overflow a length",
                            a->units, b->units);
    }
    const intptr_t n = (intptr_t)(a->units + b->units);
    if (bytes) {
        return ck_type_make_fixed_bytes(n, out);
    }
    /* Each unit holds at most one code point, so N1 + N2 utf32 units hold any two. */
    const int enc = a->enc == b->enc ? a->enc : CK_ENCODING_UTF32;
    return ck_type_make_fixed_string(n, (ck_text_encoding)enc, out);
}

int ck__text_call_result_type(ck_callable *c, int nsrc, const ck_type *const *src_tp,
                              const ck_eval_ctx *ectx, ck_type **out) {
    ck__text_plan plan;
    CK__RETURN_IF_ERROR(text_plan(c, nsrc, src_tp, &plan));
    ck_errmode mode;
    unsigned flags;
    CK__RETURN_IF_ERROR(ck__resolve_eval_ctx(ectx, &mode, &flags));
    const int core[1 + CK__MAX_SRC] = {0};
    const ck_type *cur[CK__MAX_SRC];
    intptr_t size[CK_TYPE_MAX_DEPTH]; /* -1: var */
    int nd = 0;
    CK__RETURN_IF_ERROR(ck__broadcast_dims(plan.name, nsrc, src_tp, core, size, &nd, cur));
    ck_type *t = NULL;
    if (plan.op == CK__TEXT_CONCAT) {
        CK__RETURN_IF_ERROR(concat_type(&plan, &t));
    } else {
        t = (ck_type *)(uintptr_t)ck_type_scalar(plan.op == CK__TEXT_LENGTH ? CK_TYPE_INT64
                                                                            : CK_TYPE_BOOL);
    }
    int option = 0;
    for (int k = 0; k < nsrc; k++) {
        option |= holds_option(src_tp[k]);
    }
    if (option) { /* ?R: NA in any argument gives NA out */
        ck_type *o = NULL;
        const int rc = ck_type_make_option(t, &o);
        ck_type_decref(t);
        CK__RETURN_IF_ERROR(rc);
        t = o;
    }
    return ck__type_over_dims(t, size, nd, out);
}
