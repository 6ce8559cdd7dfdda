/* src/callables/reduction.c: reductions and accumulations of callables (ckernel/callable.h):
 * the plan (the accumulator's type by NumPy 1.24's rules, the (A, A) -> A signature, the
 * start value, the accumulate and scan leaves: a built-in's own from leaves/reduce/reduce_ops.h, or
 * the callable's binary leaf under reduce_fold / reduce_scan), the walks (builders/reduce.c,
 * accumulate.c) that build the kernels, the result types and whole-array calls. */
#include <string.h>

#include "builders/assign_internal.h"
#include "builders/compose.h"
#include "builders/reduce.h"
#include "callables/callable_internal.h"
#include "ckernel/assign.h"
#include "common/internal.h"
#include "common/scalars.h"
#include "core/kinds.h"
#include "leaves/reduce/reduce_ops.h"
#include "types/type_internal.h"

/* The names of the built-in reductions and the callables they fold with. */
static const char *const ck__reduction_names[][2] = {
    {"sum", "add"},         {"prod", "multiply"},     {"min", "minimum"},
    {"max", "maximum"},     {"all", "logical_and"},   {"any", "logical_or"},
};

/* The names of the built-in accumulations. */
static const char *const ck__accumulation_names[][2] = {
    {"cumsum", "add"}, {"cumprod", "multiply"}, {"cummin", "minimum"}, {"cummax", "maximum"},
};

static int lookup_in(const char *const (*names)[2], size_t n, const char *name,
                     ck_callable **out) {
    if (name == NULL || out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_reduction_lookup: NULL argument");
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(name, names[i][0]) == 0) {
            return ck_lookup(names[i][1], out);
        }
    }
    return ck_lookup(name, out);
}

int ck_reduction_lookup(const char *name, ck_callable **out) {
    return lookup_in(ck__reduction_names, CK__ARRAY_SIZE(ck__reduction_names), name, out);
}

int ck_accumulation_lookup(const char *name, ck_callable **out) {
    return lookup_in(ck__accumulation_names, CK__ARRAY_SIZE(ck__accumulation_names), name, out);
}

/* The accumulate leaf the plan builds. */
typedef struct ck__red_acc {
    const ck__entry *entry; /* the (A, A) -> A signature */
    int builtin;            /* its ck__arith_op when that has an accumulate leaf, else -1 */
} ck__red_acc;

/* The callable's binary leaf for (A, A) -> A, strided request (reduce_fold and reduce_scan
 * call it). */
static int make_binary_leaf(const ck__reduce_plan *p, ck_builder *ckb, size_t *offset) {
    const ck__red_acc *a = (const ck__red_acc *)p->data;
    ck_leaf_info info;
    memset(&info, 0, sizeof info);
    info.name = p->name;
    info.nargs = 2;
    info.args[0] = p->acc_id;
    info.args[1] = p->acc_id;
    info.ret = p->acc_id;
    info.errmode = p->mode;
    info.target = ck_cpu_best_target();
    info.req = CK_REQUEST_STRIDED;
    CK__RETURN_IF_ERROR(ck__fp_check_wrap(ckb, offset, &info, p->flags, &info.req));
    return a->entry->factory.instantiate(a->entry->factory.data, ckb, offset, &info);
}

static int make_acc(const ck__reduce_plan *p, ck_builder *ckb, size_t *offset) {
    const ck__red_acc *a = (const ck__red_acc *)p->data;
    if (a->builtin >= 0) {
        return ck__make_acc_leaf(ckb, offset, (ck__arith_op)a->builtin, p->acc_id);
    }
    CK__RETURN_IF_ERROR(ck__make_reduce_fold(ckb, offset, CK_REQUEST_STRIDED));
    return make_binary_leaf(p, ckb, offset);
}

static int make_scan(const ck__reduce_plan *p, ck_builder *ckb, size_t *offset, int stream) {
    const ck__red_acc *a = (const ck__red_acc *)p->data;
    if (a->builtin >= 0) {
        return stream ? ck__make_scan_stream(ckb, offset, (ck__arith_op)a->builtin, p->acc_id)
                      : ck__make_scan_leaf(ckb, offset, (ck__arith_op)a->builtin, p->acc_id);
    }
    CK__RETURN_IF_ERROR(ck__make_reduce_scan(ckb, offset,
                                            ck_type_data_size(ck_type_scalar(p->acc_id)),
                                            CK_REQUEST_STRIDED));
    return make_binary_leaf(p, ckb, offset);
}

/* The scalar under t's dimensions, pointers and option (*option: there was one); NULL for a
 * tuple, a struct or text. */
static const ck_type *innermost(const ck_type *t, int *option) {
    *option = 0;
    while (!ck__id_is_scalar(t->id)) {
        if (t->element == NULL) {
            return NULL; /* a tuple, a struct or text */
        }
        *option |= t->id == CK_TYPE_OPTION;
        t = t->element;
    }
    return t;
}

/* f's signature selected for (a, a) and the result type it writes (after `resolve`). */
static int select_pair(ck_callable *c, ck_type_id a, unsigned flags, ck_errmode mode,
                       const ck__entry **entry, ck_type_id *ret) {
    const ck_type_id ids[2] = {a, a};
    const ck__snapshot *s;
    int index;
    ck__rating rating;
    CK__RETURN_IF_ERROR(ck__callable_choose(c, 2, ids, (flags & CK_EVAL_ALLOW_UNSAFE) != 0, &s,
                                           &index, &rating));
    *entry = ck__snapshot_entry(s, index);
    if ((*entry)->core.any) {
        return ck_set_error(CK_ERR_TYPE,
                            "%s has core dimensions (%s); a reduction or accumulation folds "
                            "scalars with a signature (A, A) -> A",
                            ck_callable_name(c), (*entry)->text);
    }
    if ((*entry)->sig.nret == 2) { /* NumPy's "reduce only supported for functions returning a
                                    * single value" */
        return ck_set_error(CK_ERR_TYPE,
                            "%s gives two results (%s); a reduction or accumulation folds "
                            "with one (A, A) -> A",
                            ck_callable_name(c), (*entry)->text);
    }
    *ret = (*entry)->sig.ret;
    const ck_factory *f = &(*entry)->factory;
    if (f->resolve != NULL) {
        ck_leaf_info info;
        memset(&info, 0, sizeof info);
        info.name = ck_callable_name(c);
        info.nargs = (*entry)->sig.nargs;
        memcpy(info.args, (*entry)->sig.args, (size_t)info.nargs * sizeof info.args[0]);
        info.ret = *ret;
        info.errmode = mode;
        info.target = ck_cpu_best_target();
        CK__RETURN_IF_ERROR(f->resolve(f->data, &info, ret));
    }
    return CK_OK;
}

/* NumPy 1.24: add and multiply reduce bool and integers narrower than 64 bits in int64
 * (unsigned ones in uint64). */
static ck_type_id widen_for_sum(ck_type_id id) {
    return id == CK_TYPE_FLOAT32 ? id : ck__widened(id); /* floats keep their type */
}

/* The identity literal read as a value of type id; an integer one that id cannot hold is
 * converted as C converts it, as NumPy converts its identities (bitwise_and's -1 is 255
 * in uint8 and true in bool). */
static int parse_identity(const char *name, const char *literal, ck_type_id id,
                          unsigned char out[16]) {
    ck_array *a = NULL;
    int rc = ck_array_parse(ck_type_scalar(id), literal, &a);
    if (rc != CK_OK && rc != CK_ERR_NOMEM &&
        (ck__scalar_is_integer(id) || id == CK_TYPE_BOOL)) {
        ck_array *wide = NULL;
        if (ck_array_parse(ck_type_scalar(CK_TYPE_INT64), literal, &wide) == CK_OK) {
            ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
            ctx.errmode = CK_ERRMODE_NOCHECK;
            rc = ck_array_new(ck_type_scalar(id), &a);
            if (rc == CK_OK) {
                rc = ck_assign(a, wide, &ctx);
            }
            ck_array_free(wide);
            if (rc != CK_OK) {
                ck_array_free(a);
                a = NULL;
            }
        }
    }
    if (rc != CK_OK) {
        if (rc == CK_ERR_NOMEM) {
            return rc; /* keep the allocator's message */
        }
        return ck_set_error(rc, "%s: its identity '%s' is not a value of %s: %s", name, literal,
                            ck_type_id_name(id), ck_last_error());
    }
    memcpy(out, ck_array_data(a), ck_type_data_size(ck_type_scalar(id)));
    ck_array_free(a);
    return CK_OK;
}

/* Everything a reduction (or with `accumulate`, an accumulation: one axis, no identity
 * needed) of src_tp needs but its arrmeta. dst_id: the destination's scalar type, or -1 to
 * choose the accumulator's type as NumPy does. */
static int plan_reduce(const ck_reduce_spec *r, const ck_type *src_tp, int dst_id,
                       const ck_eval_ctx *ectx, int accumulate, ck__reduce_plan *p,
                       ck__red_acc *acc) {
    if (r == NULL || r->callable == NULL || src_tp == NULL) {
        return ck_set_error(CK_ERR_INVALID, "reduce: NULL reduction, callable or source type");
    }
    ck_callable *c = r->callable;
    if ((r->flags & ~(unsigned)(CK_REDUCE_KEEPDIMS | CK_REDUCE_SKIPNA)) != 0) {
        return ck_set_error(CK_ERR_INVALID, "%s: unknown reduction flags 0x%x",
                            ck_callable_name(c), r->flags);
    }
    memset(p, 0, sizeof *p);
    memset(acc, 0, sizeof *acc);
    p->name = ck_callable_name(c);
    p->rflags = r->flags;
    p->accumulate = accumulate;
    p->op = -1;
    CK__RETURN_IF_ERROR(ck__resolve_eval_ctx(ectx, &p->mode, &p->flags));
    if (accumulate && (r->axes == NULL || r->naxes != 1 || (r->flags & CK_REDUCE_KEEPDIMS) != 0)) {
        return ck_set_error(CK_ERR_INVALID,
                            "%s: an accumulation runs along one axis (naxes 1), without keepdims",
                            p->name);
    }
    CK__RETURN_IF_ERROR(ck__reduce_axes(src_tp, r->naxes, r->axes, &p->reduced));
    int option = 0;
    const ck_type *value = innermost(src_tp, &option);
    if (value == NULL) {
        char *text = NULL;
        const int have = ck_type_format(src_tp, &text) == CK_OK;
        const int rc = ck_set_error(CK_ERR_TYPE,
                                    "%s: cannot reduce %s; reductions take scalars (under "
                                    "dimensions, pointers and options), not tuples, structs or "
                                    "text",
                                    p->name, have ? text : "a tuple or struct");
        ck_free(text);
        return rc;
    }
    ck_type_id a;
    const ck__entry *entry = NULL;
    if (dst_id >= 0) {
        a = (ck_type_id)dst_id;
    } else {
        CK__RETURN_IF_ERROR(select_pair(c, value->id, p->flags, p->mode, &entry, &a));
        if (entry->sig.args[0] != a && a == CK_TYPE_BOOL && ck_callable_identity(c) == NULL) {
            /* NumPy's rule: a function reduces in its loop's type, which a comparison's
             * (int8, int8) -> bool is not; one with an identity reduces in its result's
             * (logical_and of integers, in bool), and integers' true division in float64
             * (NumPy's loop for them is float64's). */
            return ck_set_error(CK_ERR_TYPE,
                                "%s cannot reduce %s: its signature for it, %s, does not give "
                                "the type it takes, and %s has no identity to start from in "
                                "%s",
                                p->name, ck_type_id_name(value->id), entry->text, p->name,
                                ck_type_id_name(a));
        }
        const int op = ck__builtin_arith_op(&entry->factory);
        if (op == CK__ARITH_ADD || op == CK__ARITH_MULTIPLY) {
            a = widen_for_sum(a);
        }
    }
    ck_type_id ret;
    CK__RETURN_IF_ERROR(select_pair(c, a, p->flags, p->mode, &entry, &ret));
    if (entry->sig.args[0] != a || entry->sig.args[1] != a || ret != a) {
        return ck_set_error(CK_ERR_TYPE,
                            "%s cannot accumulate in %s: a reduction needs a signature (%s, %s) "
                            "-> %s, and the one selected is %s",
                            p->name, ck_type_id_name(a), ck_type_id_name(a), ck_type_id_name(a),
                            ck_type_id_name(a), entry->text);
    }
    p->acc_id = a;
    acc->entry = entry;
    acc->builtin = -1;
    const int op = ck__builtin_arith_op(&entry->factory);
    if (op >= 0 && ck__acc_has_leaf((ck__arith_op)op, a)) {
        acc->builtin = op;
        p->op = op;
        ck__reduce_start_value((ck__arith_op)op, a, p->start);
        p->check_empty = op == CK__ARITH_MINIMUM || op == CK__ARITH_MAXIMUM;
    } else {
        const char *identity = ck_callable_identity(c);
        if (identity == NULL && !accumulate) {
            /* NumPy's reduction of a function without identity: from the first element
             * along one axis, in order (its "not reorderable" rule for more axes). */
            int axes = 0;
            for (uint64_t m = p->reduced; m != 0; m &= m - 1) {
                axes++;
            }
            if (axes > 1) {
                return ck_set_error(CK_ERR_INVALID,
                                    "%s has no identity: its reduction starts from the first "
                                    "element and runs along one axis, not %d (set an identity "
                                    "with ck_callable_set_identity, or reduce one axis at a "
                                    "time)",
                                    p->name, axes);
            }
            p->first_start = 1;
        }
        /* An accumulation needs none; with one, a skipna accumulation of options starts
         * from it where NA comes first. */
        p->check_empty = identity == NULL;
        if (identity != NULL) {
            CK__RETURN_IF_ERROR(parse_identity(p->name, identity, a, p->start));
        }
    }
    p->make_acc = make_acc;
    p->make_scan = make_scan;
    p->data = acc;
    return CK_OK;
}

int ck__reduce_plan_info(const ck_reduce_spec *r, const ck_type *src_tp, int dst_id,
                         const ck_eval_ctx *ectx, ck_type_id *acc_id, int *builtin_op,
                         uint64_t *reduced) {
    ck__reduce_plan p;
    ck__red_acc acc;
    CK__RETURN_IF_ERROR(plan_reduce(r, src_tp, dst_id, ectx, 0, &p, &acc));
    *acc_id = p.acc_id;
    *builtin_op = acc.builtin;
    *reduced = p.reduced;
    return CK_OK;
}

int ck_reduce_result_type(const ck_reduce_spec *r, const ck_type *src_tp,
                          const ck_eval_ctx *ectx, ck_type **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_reduce_result_type: NULL out");
    }
    *out = NULL;
    ck__reduce_plan p;
    ck__red_acc acc;
    CK__RETURN_IF_ERROR(plan_reduce(r, src_tp, -1, ectx, 0, &p, &acc));
    return ck__reduce_result_type(src_tp, p.reduced, (r->flags & CK_REDUCE_KEEPDIMS) != 0,
                                  p.acc_id, out);
}

int ck_accumulate_result_type(const ck_reduce_spec *r, const ck_type *src_tp,
                              const ck_eval_ctx *ectx, ck_type **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_accumulate_result_type: NULL out");
    }
    *out = NULL;
    ck__reduce_plan p;
    ck__red_acc acc;
    CK__RETURN_IF_ERROR(plan_reduce(r, src_tp, -1, ectx, 1, &p, &acc));
    return ck__reduce_result_type(src_tp, 0, 0, p.acc_id, out);
}

/* No dimension reduced: each element cast to the accumulator's type (a bool one takes the
 * truth values), into a destination of exactly the source's shape. */
static int make_cast(ck_builder *ckb, size_t *offset, const ck__reduce_plan *p,
                     const ck_type *dst_tp, const char *dst_arrmeta, const ck_type *src_tp,
                     const char *src_arrmeta, ck_request req) {
    ck_type *want = NULL;
    CK__RETURN_IF_ERROR(ck__reduce_result_type(src_tp, 0, 0, p->acc_id, &want));
    int rc = CK_OK;
    if (!ck_type_equal(want, dst_tp)) {
        char *ws = NULL, *ds = NULL;
        const int have = ck_type_format(want, &ws) == CK_OK && ck_type_format(dst_tp, &ds) == CK_OK;
        rc = ck_set_error(CK_ERR_BROADCAST,
                          "%s over no axis gives %s, which cannot be written into %s", p->name,
                          have ? ws : "another type", have ? ds : "the destination");
        ck_free(ws);
        ck_free(ds);
    }
    ck_type_decref(want);
    CK__RETURN_IF_ERROR(rc);
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = p->acc_id == CK_TYPE_BOOL ? CK_ERRMODE_NOCHECK : p->mode;
    ctx.flags = p->flags;
    return ck_make_assign(ckb, offset, dst_tp, dst_arrmeta, src_tp, src_arrmeta, req, &ctx);
}

/* ck_make_reduce and ck_make_accumulate, with the source's dimensions numbered from
 * first_dim in messages. */
/* The shape of t read through its pointers (pointer[T] as T): its fixed dimensions over its
 * option or scalar, in *out; NULL when t holds no pointer. A var dimension with a pointer is
 * CK_ERR_UNSUPPORTED (its rows would need an arena per call). */
static int without_pointers(const ck_type *t, const char *what, ck_type **out) {
    *out = NULL;
    intptr_t sizes[CK_TYPE_MAX_DEPTH];
    int nd = 0, pointers = 0, var = 0;
    const ck_type *e = t;
    for (; e->id == CK_TYPE_FIXED_DIM || e->id == CK_TYPE_VAR_DIM || e->id == CK_TYPE_POINTER;
         e = e->element) {
        if (e->id == CK_TYPE_POINTER) {
            pointers = 1;
        } else if (e->id == CK_TYPE_VAR_DIM) {
            var = 1;
        } else {
            sizes[nd++] = e->fixed_size;
        }
    }
    if (!pointers) {
        return CK_OK;
    }
    if (var) {
        return ck_set_error(CK_ERR_UNSUPPORTED,
                            "%s: a source with both pointers and var dimensions does not "
                            "reduce yet",
                            what);
    }
    ck_type *cur = (ck_type *)(uintptr_t)e;
    ck_type_incref(cur);
    for (int i = nd - 1; i >= 0; i--) {
        ck_type *next = NULL;
        const int rc = ck_type_make_fixed_dim(sizes[i], cur, &next);
        ck_type_decref(cur);
        CK__RETURN_IF_ERROR(rc);
        cur = next;
    }
    *out = cur;
    return CK_OK;
}

static int make_kernel(ck_builder *ckb, size_t *offset, const ck_reduce_spec *r,
                       const ck_type *dst_tp, const char *dst_arrmeta, const ck_type *src_tp,
                       const char *src_arrmeta, ck_request req, const ck_eval_ctx *ectx,
                       int accumulate, int first_dim);

/* A source with pointers: the materialize kernel copies it into a scratch of its shape
 * without them (`flat`, C order), which the reduction then reads. */
static int make_through_scratch(ck_builder *ckb, size_t *offset, const ck_reduce_spec *r,
                                const ck_type *dst_tp, const char *dst_arrmeta,
                                const ck_type *src_tp, const char *src_arrmeta,
                                const ck_type *flat, ck_request req, const ck_eval_ctx *ectx,
                                int accumulate, int first_dim) {
    static const ck_eval_ctx defaults = CK_EVAL_CTX_INIT;
    char am[CK_TYPE_MAX_DEPTH * sizeof(ck_fixed_dim_arrmeta)];
    if (ck_type_arrmeta_size(flat) > sizeof am) {
        return ck_set_error(CK_ERR_INTERNAL, "materialize: %zu bytes of arrmeta",
                            ck_type_arrmeta_size(flat));
    }
    CK__RETURN_IF_ERROR(ck_arrmeta_default_construct(flat, am, NULL));
    /* The scratch is ckernel's, aligned: only the caller's own side may be misaligned. */
    ck_eval_ctx copy_ctx = ectx != NULL ? *ectx : defaults, fold_ctx = copy_ctx;
    copy_ctx.flags &= ~(unsigned)CK_EVAL_DST_UNALIGNED;
    fold_ctx.flags &= ~(unsigned)CK_EVAL_SRC_UNALIGNED;
    size_t at = 0;
    CK__RETURN_IF_ERROR(ck__make_materialize(ckb, offset, flat->data_size, req, &at));
    for (int slot = 0; slot < 2; slot++) {
        *offset = CK_ALIGN_OFFSET(*offset);
        CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset));
        CK__RETURN_IF_ERROR(ck__materialize_set_child(ckb, at, slot, *offset));
        CK__RETURN_IF_ERROR(
            slot == 0 ? ck_make_assign(ckb, offset, flat, am, src_tp, src_arrmeta,
                                       CK_REQUEST_SINGLE, &copy_ctx)
                      : make_kernel(ckb, offset, r, dst_tp, dst_arrmeta, flat, am,
                                    CK_REQUEST_SINGLE, &fold_ctx, accumulate, first_dim));
    }
    return CK_OK;
}

static int make_unguarded(ck_builder *ckb, size_t *offset, const ck_reduce_spec *r,
                          const ck_type *dst_tp, const char *dst_arrmeta,
                          const ck_type *src_tp, const char *src_arrmeta, ck_request req,
                          const ck_eval_ctx *ectx, int accumulate, int first_dim) {
    const char *what = accumulate ? "ck_make_accumulate" : "ck_make_reduce";
    if (ckb == NULL || offset == NULL || dst_tp == NULL || src_tp == NULL) {
        return ck_set_error(CK_ERR_INVALID, "%s: NULL builder, offset or type", what);
    }
    if ((dst_arrmeta == NULL && ck_type_arrmeta_size(dst_tp) != 0) ||
        (src_arrmeta == NULL && ck_type_arrmeta_size(src_tp) != 0)) {
        return ck_set_error(CK_ERR_INVALID, "%s: NULL arrmeta for a type that has some", what);
    }
    if (req != CK_REQUEST_SINGLE && req != CK_REQUEST_STRIDED) {
        return ck_set_error(CK_ERR_INVALID, "%s: unknown request %d", what, (int)req);
    }
    int dst_option = 0;
    const ck_type *dv = innermost(dst_tp, &dst_option);
    if (dv == NULL) {
        return ck_set_error(CK_ERR_TYPE,
                            "%s: the destination must hold scalars, not tuples, structs or "
                            "text",
                            what);
    }
    ck__reduce_plan p;
    ck__red_acc acc;
    CK__RETURN_IF_ERROR(plan_reduce(r, src_tp, (int)dv->id, ectx, accumulate, &p, &acc));
    p.first_dim = first_dim;
    if (p.reduced != 0 || accumulate) {
        ck_type *flat = NULL;
        CK__RETURN_IF_ERROR(without_pointers(src_tp, what, &flat));
        if (flat != NULL) {
            const int rc = make_through_scratch(ckb, offset, r, dst_tp, dst_arrmeta, src_tp,
                                                src_arrmeta, flat, req, ectx, accumulate,
                                                first_dim);
            ck_type_decref(flat);
            return rc;
        }
    }
    if (accumulate) {
        return ck__accumulate_build(ckb, offset, &p, dst_tp, dst_arrmeta, src_tp, src_arrmeta,
                                    req);
    }
    if (p.reduced == 0) {
        return make_cast(ckb, offset, &p, dst_tp, dst_arrmeta, src_tp, src_arrmeta, req);
    }
    /* A built-in float sum's or product's errors (the child takes the same request). */
    CK__RETURN_IF_ERROR(
        ck__fp_flags_wrap(ckb, offset, p.name, p.acc_id, acc.builtin, p.flags, req));
    return ck__reduce_build(ckb, offset, &p, dst_tp, dst_arrmeta, src_tp, src_arrmeta, req);
}

/* The kernel, under the root's FP-environment guard when it is the root (core/kinds.h). */
static int make_kernel(ck_builder *ckb, size_t *offset, const ck_reduce_spec *r,
                       const ck_type *dst_tp, const char *dst_arrmeta, const ck_type *src_tp,
                       const char *src_arrmeta, ck_request req, const ck_eval_ctx *ectx,
                       int accumulate, int first_dim) {
    const size_t start = offset != NULL ? *offset : 1;
    int rc = make_unguarded(ckb, offset, r, dst_tp, dst_arrmeta, src_tp, src_arrmeta, req,
                            ectx, accumulate, first_dim);
    if (rc == CK_OK) {
        rc = ck__fp_env_guard(ckb, start, offset, ectx != NULL ? ectx->flags : 0u, req);
    }
    return rc;
}

int ck_make_reduce(ck_builder *ckb, size_t *offset, const ck_reduce_spec *r,
                   const ck_type *dst_tp, const char *dst_arrmeta, const ck_type *src_tp,
                   const char *src_arrmeta, ck_request req, const ck_eval_ctx *ectx) {
    return make_kernel(ckb, offset, r, dst_tp, dst_arrmeta, src_tp, src_arrmeta, req, ectx, 0,
                       0);
}

int ck__make_reduce_at(ck_builder *ckb, size_t *offset, const ck_reduce_spec *r,
                       const ck_type *dst_tp, const char *dst_arrmeta, const ck_type *src_tp,
                       const char *src_arrmeta, ck_request req, const ck_eval_ctx *ectx,
                       int first_dim) {
    return make_kernel(ckb, offset, r, dst_tp, dst_arrmeta, src_tp, src_arrmeta, req, ectx, 0,
                       first_dim);
}

int ck_make_accumulate(ck_builder *ckb, size_t *offset, const ck_reduce_spec *r,
                       const ck_type *dst_tp, const char *dst_arrmeta, const ck_type *src_tp,
                       const char *src_arrmeta, ck_request req, const ck_eval_ctx *ectx) {
    return make_kernel(ckb, offset, r, dst_tp, dst_arrmeta, src_tp, src_arrmeta, req, ectx, 1,
                       0);
}

/* ck_reduce and ck_accumulate: build for the arrays' own pointers, run once, destroy. */
static int run_whole(const ck_reduce_spec *r, const ck_array *dst, const ck_array *src,
                     const ck_eval_ctx *ectx, int accumulate) {
    if (dst == NULL || src == NULL) {
        return ck_set_error(CK_ERR_INVALID, "%s: NULL array",
                            accumulate ? "ck_accumulate" : "ck_reduce");
    }
    static const ck_eval_ctx defaults = CK_EVAL_CTX_INIT;
    ck_eval_ctx ctx = ectx != NULL ? *ectx : defaults;
    const ck_type *dt = ck_array_type(dst), *st = ck_array_type(src);
    char *dd = ck_array_data(dst), *sd = ck_array_data(src);
    /* The kernel is built for these very pointers: say so when they are misaligned. */
    ctx.flags |= ck__unaligned_flags(dt, (uintptr_t)dd, st, (uintptr_t)sd);
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    int rc = make_kernel(&b, &off, r, dt, ck_array_arrmeta(dst), st, ck_array_arrmeta(src),
                         CK_REQUEST_SINGLE, &ctx, accumulate, 0);
    if (rc == CK_OK) {
        rc = ck_call_single(ck_builder_root(&b), dd, &sd);
    }
    ck_builder_destroy(&b);
    return rc;
}

int ck_reduce(const ck_reduce_spec *r, const ck_array *dst, const ck_array *src,
              const ck_eval_ctx *ectx) {
    return run_whole(r, dst, src, ectx, 0);
}

int ck_accumulate(const ck_reduce_spec *r, const ck_array *dst, const ck_array *src,
                  const ck_eval_ctx *ectx) {
    return run_whole(r, dst, src, ectx, 1);
}

/* ck_reduce_new and ck_accumulate_new. */
static int run_new(const ck_reduce_spec *r, const ck_array *src, const ck_eval_ctx *ectx,
                   int accumulate, ck_array **out) {
    if (out == NULL || src == NULL) {
        return ck_set_error(CK_ERR_INVALID, "%s: NULL argument",
                            accumulate ? "ck_accumulate_new" : "ck_reduce_new");
    }
    *out = NULL;
    ck_type *rt = NULL;
    CK__RETURN_IF_ERROR(accumulate ? ck_accumulate_result_type(r, ck_array_type(src), ectx, &rt)
                                  : ck_reduce_result_type(r, ck_array_type(src), ectx, &rt));
    ck_array *a = NULL;
    int rc = ck_array_new(rt, &a);
    ck_type_decref(rt);
    if (rc == CK_OK) {
        rc = run_whole(r, a, src, ectx, accumulate);
    }
    if (rc != CK_OK) {
        ck_array_free(a);
        return rc;
    }
    *out = a;
    return CK_OK;
}

int ck_reduce_new(const ck_reduce_spec *r, const ck_array *src, const ck_eval_ctx *ectx,
                  ck_array **out) {
    return run_new(r, src, ectx, 0, out);
}

int ck_accumulate_new(const ck_reduce_spec *r, const ck_array *src, const ck_eval_ctx *ectx,
                      ck_array **out) {
    return run_new(r, src, ectx, 1, out);
}
