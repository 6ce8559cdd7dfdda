/* src/callables/call.c: kernels of callables: selection of a signature for the sources'
 * scalar types, the composition walk (builders/compose.c) with N sources, and the leaf at
 * its bottom: the factory's leaf, alone when every argument already has the signature's type
 * and alignment, else under the call_args kernel with cast children. Also the result type of
 * a call and whole-array calls. */
#include <string.h>

#include "builders/assign_internal.h"
#include "builders/compose.h"
#include "callables/callable_internal.h"
#include "ckernel/assign.h"
#include "common/internal.h"
#include "jit/jit_plugin.h"
#include "core/kinds.h"
#include "types/type_internal.h"

/* The scalar a call's argument holds under its dimensions and pointers (and, for ?T, the
 * option); NULL for a tuple, a struct or text, which callables do not take. */
static const ck_type *innermost(const ck_type *t, int *option) {
    while (!ck__id_is_scalar(t->id)) {
        if (t->element == NULL) {
            return NULL; /* a tuple, a struct or text */
        }
        *option |= t->id == CK_TYPE_OPTION;
        t = t->element;
    }
    return t;
}

int ck__call_leaf_build(const ck__call_plan *p, ck_errmode mode, ck_builder *ckb,
                        size_t *offset, const ck_type *dt, const ck_type *const *st,
                        ck_request req, unsigned flags, uintptr_t dbits, const uintptr_t *sbits) {
    const ck__signature *sig = &p->entry->sig;
    const ck_factory *f = &p->entry->factory;
    ck_leaf_info info;
    memset(&info, 0, sizeof info);
    info.name = p->name;
    info.nargs = sig->nargs;
    memcpy(info.args, sig->args, (size_t)sig->nargs * sizeof sig->args[0]);
    info.ret = p->ret;
    info.errmode = mode;
    info.target = ck_cpu_best_target();
    size_t arg_size[CK__MAX_SRC];
    int converted = 0;
    for (int k = 0; k < sig->nargs; k++) {
        const int cast = st[k]->id != sig->args[k] ||
                         ck__misaligned(flags, CK_EVAL_SRC_UNALIGNED, sbits[k], st[k]);
        arg_size[k] = cast ? ck_type_data_size(ck_type_scalar(sig->args[k])) : 0;
        converted |= cast;
    }
    const int pair = sig->nret == 2;
    if (pair) {
        /* Two results: the leaf writes the tuple of the two, exactly (no cast of fields). */
        if (!ck__is_fields(dt->id) || ck_type_field_count(dt) != 2 ||
            ck_type_field(dt, 0)->id != sig->ret || ck_type_field(dt, 1)->id != sig->ret2) {
            char *text = NULL;
            const int have = ck_type_format(dt, &text) == CK_OK;
            const int rc = ck_set_error(CK_ERR_TYPE,
                                        "%s: the destination holds %s; a call of signature %s "
                                        "writes its two results as (%s, %s)",
                                        p->name, have ? text : "another type", p->entry->text,
                                        ck_type_id_name(sig->ret), ck_type_id_name(sig->ret2));
            ck_free(text);
            return rc;
        }
        info.nret = 2;
        info.ret2 = sig->ret2;
    } else {
        info.nret = 1;
    }
    const ck_type *rt = pair ? dt : ck_type_scalar(p->ret);
    const size_t out_size = (!pair && dt->id != p->ret) ||
                                    ck__misaligned(flags, CK_EVAL_DST_UNALIGNED, dbits, dt)
                                ? rt->data_size
                                : 0;
    if (!converted && out_size == 0) {
        info.req = req;
        CK__RETURN_IF_ERROR(ck__fp_check_wrap(ckb, offset, &info, flags, &info.req));
        return f->instantiate(f->data, ckb, offset, &info);
    }
    const size_t at = *offset;
    CK__RETURN_IF_ERROR(ck__make_call_args(ckb, offset, sig->nargs, arg_size, out_size, req));
    info.req = CK_REQUEST_STRIDED;
    CK__RETURN_IF_ERROR(ck__fp_check_wrap(ckb, offset, &info, flags, &info.req));
    CK__RETURN_IF_ERROR(f->instantiate(f->data, ckb, offset, &info));
    for (int k = 0; k < sig->nargs; k++) {
        if (arg_size[k] == 0) {
            continue;
        }
        /* Into aligned scratch of the signature's type, with the context's error mode. The
         * child's zeroed prefix is reserved before call_args' destructor can reach it (a
         * leaf reserves no room after itself; docs/kernels.md §3, rule 3). */
        CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset));
        CK__RETURN_IF_ERROR(ck__call_args_set_child(ckb, at, 1 + k, *offset));
        CK__RETURN_IF_ERROR(ck__make_assign_leaf(ckb, offset, ck_type_scalar(sig->args[k]), st[k],
                                                mode, CK_REQUEST_STRIDED,
                                                flags & ~CK_EVAL_DST_UNALIGNED, 0, sbits[k]));
    }
    if (out_size != 0) {
        CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset));
        CK__RETURN_IF_ERROR(ck__call_args_set_child(ckb, at, sig->nargs + 1, *offset));
        if (pair) { /* to a misaligned tuple: its bytes */
            return ck__make_copy_bytes(ckb, offset, dt->data_size, 0, CK_REQUEST_STRIDED);
        }
        CK__RETURN_IF_ERROR(ck__make_assign_leaf(ckb, offset, dt, rt, mode,
                                                CK_REQUEST_STRIDED,
                                                flags & ~CK_EVAL_SRC_UNALIGNED, dbits, 0));
    }
    return CK_OK;
}

static int call_leaf(const ck__compose *cmp, ck_builder *ckb, size_t *offset, const ck_type *dt,
                     const ck_type *const *st, ck_request req, unsigned flags, uintptr_t dbits,
                     const uintptr_t *sbits) {
    /* A destination above the streaming threshold: the leaf writes chunks into the
     * streaming kernel's buffer. A misaligned one goes through call_args' result scratch as
     * usual, with normal stores. */
    if (ck__leaf_streams(flags, dbits, dt)) {
        CK__RETURN_IF_ERROR(ck__make_streaming_over(ckb, offset, dt->data_size, cmp->nsrc, req));
        req = CK_REQUEST_STRIDED;
    }
    flags &= ~CK__EVAL_STREAM;
    return ck__call_leaf_build((const ck__call_plan *)cmp->leaf_data, cmp->mode, ckb, offset, dt,
                               st, req, flags, dbits, sbits);
}

/* Checks the arguments of a call and selects its signature. */
int ck__plan_call(ck_callable *c, int nsrc, const ck_type *const *src_tp,
                  const ck_eval_ctx *ectx, ck_errmode *mode, unsigned *flags,
                  ck__call_plan *plan, int *option) {
    if (c == NULL || src_tp == NULL) {
        return ck_set_error(CK_ERR_INVALID, "call: NULL callable or source types");
    }
    if (nsrc < 1 || nsrc > CK_CALL_MAX_ARGS) {
        return ck_set_error(CK_ERR_INVALID, "%s: %d sources; a call takes 1 to %d",
                            ck_callable_name(c), nsrc, CK_CALL_MAX_ARGS);
    }
    ck_type_id ids[CK__MAX_SRC];
    for (int k = 0; k < nsrc; k++) {
        if (src_tp[k] == NULL) {
            return ck_set_error(CK_ERR_INVALID, "%s: source type %d is NULL",
                                ck_callable_name(c), k);
        }
        const ck_type *value = innermost(src_tp[k], option);
        if (value == NULL) {
            char *text = NULL;
            const int have = ck_type_format(src_tp[k], &text) == CK_OK;
            const int rc = ck_set_error(CK_ERR_TYPE,
                                        "%s: argument %d is %s; callables take scalars (under "
                                        "dimensions, pointers and options), not tuples, structs "
                                        "or text",
                                        ck_callable_name(c), k, have ? text : "a tuple or struct");
            ck_free(text);
            return rc;
        }
        ids[k] = value->id;
    }
    CK__RETURN_IF_ERROR(ck__resolve_eval_ctx(ectx, mode, flags));
    const ck__snapshot *s;
    int index;
    ck__rating rating;
    CK__RETURN_IF_ERROR(ck__callable_choose(c, nsrc, ids, (*flags & CK_EVAL_ALLOW_UNSAFE) != 0, &s,
                                           &index, &rating));
    plan->name = ck_callable_name(c);
    plan->entry = ck__snapshot_entry(s, index);
    plan->ret = plan->entry->sig.ret;
    if (*option && plan->entry->sig.nret == 2) { /* NA has no pair of results */
        return ck_set_error(CK_ERR_TYPE, "%s: an argument is an option; a call of two results "
                                         "(%s) takes none",
                            plan->name, plan->entry->text);
    }
    /* A built-in's body is known to the JIT; its argument casts are fused without checks,
     * so they must be unable to fail: lossless, or inexact (int64 -> float64) in a mode that
     * lets them round. */
    plan->jit_op = -1;
    plan->jit_fn = NULL;
    plan->jit_chunk = NULL;
    if (rating.unsafe == 0 &&
        (rating.inexact == 0 || !ck__conversion_can_fail(CK__CONV_INEXACT, *mode)) &&
        nsrc <= CK__JIT_MAX_ARGS && plan->entry->sig.nret != 2) {
        plan->jit_op = ck__builtin_jit_op(&plan->entry->factory);
        if (plan->jit_op < 0 && ck__native_function(&plan->entry->factory, &plan->jit_fn,
                                                      &plan->jit_chunk)) {
            plan->jit_op = CK__JIT_OP_NATIVE;
        }
    }
    const ck_factory *f = &plan->entry->factory;
    if (f->resolve != NULL && plan->entry->sig.nret != 2) { /* two results are the signature's */
        ck_leaf_info info;
        memset(&info, 0, sizeof info);
        info.name = plan->name;
        info.nargs = plan->entry->sig.nargs;
        memcpy(info.args, plan->entry->sig.args, (size_t)info.nargs * sizeof info.args[0]);
        info.ret = plan->ret;
        info.errmode = *mode;
        info.target = ck_cpu_best_target();
        ck_type_id ret = plan->ret;
        CK__RETURN_IF_ERROR(f->resolve(f->data, &info, &ret));
        if ((unsigned)ret >= CK_NUM_SCALAR_TYPES) {
            return ck_set_error(CK_ERR_TYPE, "%s: the factory resolved a result of type %s",
                                plan->name, ck_type_id_name(ret));
        }
        plan->ret = ret;
    }
    return CK_OK;
}

/* ---- routes ---- */

/* A call of values the signatures cannot spell, built by its family's own file
 * (callable_internal.h's CK__CALL_ROUTE_LIST). */
typedef struct call_route {
    int (*claims)(const ck_callable *c, int nsrc, const ck_type *const *src_tp);
    int (*make)(ck_builder *ckb, size_t *offset, ck_callable *c, const ck_type *dst_tp,
                const char *dst_arrmeta, int nsrc, const ck_type *const *src_tp,
                const char *const *src_arrmeta, ck_request req, const ck_eval_ctx *ectx,
                int first_dim);
    int (*result_type)(ck_callable *c, int nsrc, const ck_type *const *src_tp,
                       const ck_eval_ctx *ectx, ck_type **out);
} call_route;

#define CK__CALL_ROUTE_ROW(f)                                                                  \
    {ck__##f##_call_claims, ck__make_##f##_call, ck__##f##_call_result_type},
static const call_route call_routes[] = {CK__CALL_ROUTE_LIST(CK__CALL_ROUTE_ROW)};

/* The route that claims the call, NULL for a call through the signatures. */
static const call_route *route_of(const ck_callable *c, int nsrc, const ck_type *const *src_tp) {
    for (size_t i = 0; i < sizeof call_routes / sizeof call_routes[0]; i++) {
        if (call_routes[i].claims(c, nsrc, src_tp)) {
            return &call_routes[i];
        }
    }
    return NULL;
}

int ck_make_call(ck_builder *ckb, size_t *offset, ck_callable *c, const ck_type *dst_tp,
                 const char *dst_arrmeta, int nsrc, const ck_type *const *src_tp,
                 const char *const *src_arrmeta, ck_request req, const ck_eval_ctx *ectx) {
    return ck__make_call_at(ckb, offset, c, dst_tp, dst_arrmeta, nsrc, src_tp, src_arrmeta, req,
                            ectx, 0, 1);
}

static int call_unguarded(ck_builder *ckb, size_t *offset, ck_callable *c, const ck_type *dst_tp,
                     const char *dst_arrmeta, int nsrc, const ck_type *const *src_tp,
                     const char *const *src_arrmeta, ck_request req, const ck_eval_ctx *ectx,
                     int first_dim, size_t outer_rows) {
    if (ckb == NULL || offset == NULL || dst_tp == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_make_call: NULL builder, offset or type");
    }
    if (req != CK_REQUEST_SINGLE && req != CK_REQUEST_STRIDED) {
        return ck_set_error(CK_ERR_INVALID, "ck_make_call: unknown request %d", (int)req);
    }
    const call_route *route = route_of(c, nsrc, src_tp); /* it checks src_tp and nsrc */
    ck__compose cmp;
    ck__call_plan plan;
    int option = 0;
    if (route == NULL) {
        CK__RETURN_IF_ERROR(
            ck__plan_call(c, nsrc, src_tp, ectx, &cmp.mode, &cmp.flags, &plan, &option));
    }
    if (dst_arrmeta == NULL && ck_type_arrmeta_size(dst_tp) != 0) {
        return ck_set_error(CK_ERR_INVALID, "ck_make_call: NULL arrmeta for a type that has some");
    }
    for (int k = 0; k < nsrc; k++) {
        if ((src_arrmeta == NULL || src_arrmeta[k] == NULL) &&
            ck_type_arrmeta_size(src_tp[k]) != 0) {
            return ck_set_error(CK_ERR_INVALID,
                                "ck_make_call: NULL arrmeta for source %d, whose type has some",
                                k);
        }
    }
    static const char *const no_arrmeta[CK__MAX_SRC];
    if (route != NULL) {
        return route->make(ckb, offset, c, dst_tp, dst_arrmeta, nsrc, src_tp,
                           src_arrmeta != NULL ? src_arrmeta : no_arrmeta, req, ectx, first_dim);
    }
    int core[1 + CK__MAX_SRC];
    cmp.core = NULL;
    cmp.make_core_leaf = NULL;
    cmp.make_text_leaf = NULL;
    if (plan.entry->core.any) {
        CK__RETURN_IF_ERROR(ck__core_prepare(&plan, nsrc, dst_tp, src_tp, option, core));
        cmp.core = core;
        cmp.make_core_leaf = ck__core_leaf;
        plan.jit_op = -1; /* the JIT compiles scalar leaves */
    }
    cmp.dst_top = dst_tp;
    cmp.src_top = src_tp;
    cmp.nsrc = nsrc;
    cmp.make_leaf = call_leaf;
    cmp.leaf_data = &plan;
    cmp.jit_op = plan.jit_op;
    cmp.jit_op_id = (int)plan.ret;
    /* Arithmetic computes in its result type; a native call takes its signature's types. */
    cmp.jit_param_id = plan.jit_op == CK__JIT_OP_NATIVE ? plan.entry->sig.args : NULL;
    cmp.jit_fn = plan.jit_fn;
    cmp.jit_chunk = plan.jit_chunk;
    cmp.jit_nodes = NULL;
    cmp.jit_nnodes = 0;
    cmp.jit_why_not = NULL;
    cmp.may_stream = CK__MAY_STREAM_DENSE; /* call_leaf: the streaming kernel over the leaf */
    cmp.outer_rows = outer_rows;
    cmp.assign = 0;
    cmp.leaf_writes_tuple = plan.entry->sig.nret == 2;
    return ck__compose_build(ckb, offset, &cmp, dst_tp, dst_arrmeta,
                             src_arrmeta != NULL ? src_arrmeta : no_arrmeta, req, first_dim);
}

int ck__make_call_at(ck_builder *ckb, size_t *offset, ck_callable *c, const ck_type *dst_tp,
                     const char *dst_arrmeta, int nsrc, const ck_type *const *src_tp,
                     const char *const *src_arrmeta, ck_request req, const ck_eval_ctx *ectx,
                     int first_dim, size_t outer_rows) {
    /* The root's FP-environment guard when this is the root (core/kinds.h). */
    const size_t start = offset != NULL ? *offset : 1;
    int rc = call_unguarded(ckb, offset, c, dst_tp, dst_arrmeta, nsrc, src_tp, src_arrmeta, req,
                            ectx, first_dim, outer_rows);
    if (rc == CK_OK) {
        rc = ck__fp_env_guard(ckb, start, offset, ectx != NULL ? ectx->flags : 0u, req);
    }
    return rc;
}

/* ---- result types ---- */

static const ck_type *skip_pointers(const ck_type *t) {
    while (t->id == CK_TYPE_POINTER) {
        t = t->element;
    }
    return t;
}

int ck__broadcast_dims(const char *name, int nsrc, const ck_type *const *src_tp,
                       const int *core, intptr_t *size, int *nd_out, const ck_type **cur) {
    int nd = 0, ndim[CK__MAX_SRC];
    for (int k = 0; k < nsrc; k++) {
        /* the dimensions outside the core ones broadcast */
        ndim[k] = ck__dims_through_pointers(src_tp[k]) - core[1 + k];
        cur[k] = src_tp[k];
        nd = ndim[k] > nd ? ndim[k] : nd;
    }
    /* Level i (outermost first): var if any source is var there, else the broadcast size. */
    for (int i = 0; i < nd; i++) {
        size[i] = 1;
        for (int k = 0; k < nsrc; k++) {
            if (ndim[k] < nd - i) {
                continue; /* a missing leading dimension */
            }
            const ck_type *t = skip_pointers(cur[k]);
            cur[k] = t->element;
            if (size[i] < 0) {
                continue;
            }
            if (t->id == CK_TYPE_VAR_DIM) {
                size[i] = -1;
            } else if (t->fixed_size != 1) {
                if (size[i] != 1 && size[i] != t->fixed_size) {
                    return ck_set_error(CK_ERR_BROADCAST,
                                        "%s: cannot broadcast the arguments together: dimension "
                                        "%d has sizes %td and %td",
                                        name, i, size[i], t->fixed_size);
                }
                size[i] = t->fixed_size;
            }
        }
    }
    *nd_out = nd;
    return CK_OK;
}

int ck_call_result_type(ck_callable *c, int nsrc, const ck_type *const *src_tp,
                        const ck_eval_ctx *ectx, ck_type **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_call_result_type: NULL out");
    }
    *out = NULL;
    const call_route *route = route_of(c, nsrc, src_tp);
    if (route != NULL) {
        return route->result_type(c, nsrc, src_tp, ectx, out);
    }
    ck_errmode mode;
    unsigned flags;
    ck__call_plan plan;
    int option = 0;
    CK__RETURN_IF_ERROR(ck__plan_call(c, nsrc, src_tp, ectx, &mode, &flags, &plan, &option));
    int nd = 0, core[1 + CK__MAX_SRC] = {0};
    if (plan.entry->core.any) {
        CK__RETURN_IF_ERROR(ck__core_prepare(&plan, nsrc, NULL, src_tp, option, core));
    }
    const ck_type *cur[CK__MAX_SRC];
    intptr_t size[CK_TYPE_MAX_DEPTH]; /* -1: var */
    CK__RETURN_IF_ERROR(ck__broadcast_dims(plan.name, nsrc, src_tp, core, size, &nd, cur));
    /* NA in any argument gives NA out: the result is an option when an argument is. */
    ck_type *t = (ck_type *)(uintptr_t)ck_type_scalar(plan.ret);
    if (plan.entry->sig.nret == 2) {
        CK__RETURN_IF_ERROR(ck__signature_result(&plan.entry->sig, &t));
    } else if (plan.entry->core.any) {
        CK__RETURN_IF_ERROR(ck__core_result_inner(&plan, nsrc, cur, &t));
    } else if (option) {
        CK__RETURN_IF_ERROR(ck_type_make_option(t, &t));
    }
    return ck__type_over_dims(t, size, nd, out);
}

/* ---- whole arrays ---- */

int ck__run_on_arrays(const char *who, const ck_array *dst, int nsrc,
                      const ck_array *const *src, const ck_eval_ctx *ectx,
                      ck__array_kernel_maker make, const void *data) {
    /* No sources is the kernel maker's to refuse (an expression of literals takes none). */
    if (dst == NULL || (src == NULL && nsrc > 0) || nsrc < 0 || nsrc > CK_CALL_MAX_ARGS) {
        return ck_set_error(CK_ERR_INVALID, "%s: NULL array or %d sources", who, nsrc);
    }
    static const ck_eval_ctx defaults = CK_EVAL_CTX_INIT;
    ck_eval_ctx ctx = ectx != NULL ? *ectx : defaults;
    const ck_type *st[CK__MAX_SRC];
    const char *sam[CK__MAX_SRC];
    char *sd[CK__MAX_SRC];
    const ck_type *dt = ck_array_type(dst);
    char *dd = ck_array_data(dst);
    for (int k = 0; k < nsrc; k++) {
        if (src[k] == NULL) {
            return ck_set_error(CK_ERR_INVALID, "%s: source %d is NULL", who, k);
        }
        st[k] = ck_array_type(src[k]);
        sam[k] = ck_array_arrmeta(src[k]);
        sd[k] = ck_array_data(src[k]);
        /* The kernel is built for these very pointers: say so when they are misaligned. */
        ctx.flags |= ck__unaligned_flags(dt, (uintptr_t)dd, st[k], (uintptr_t)sd[k]);
    }
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    int rc = make(data, &b, &off, dt, ck_array_arrmeta(dst), nsrc, st, sam, &ctx);
    if (rc == CK_OK) {
        rc = ck_call_single(ck_builder_root(&b), dd, sd);
    }
    ck_builder_destroy(&b);
    return rc;
}

static int make_call_kernel(const void *data, ck_builder *b, size_t *off, const ck_type *dt,
                            const char *dam, int nsrc, const ck_type *const *st,
                            const char *const *sam, const ck_eval_ctx *ctx) {
    return ck_make_call(b, off, (ck_callable *)(uintptr_t)data, dt, dam, nsrc, st, sam,
                        CK_REQUEST_SINGLE, ctx);
}

int ck_call(ck_callable *c, const ck_array *dst, int nsrc, const ck_array *const *src,
            const ck_eval_ctx *ectx) {
    return ck__run_on_arrays("ck_call", dst, nsrc, src, ectx, make_call_kernel, c);
}

int ck__array_new_filled(ck_type *rt, int (*fill)(void *data, ck_array *a), void *data,
                         ck_array **out) {
    ck_array *a = NULL;
    int rc = ck_array_new(rt, &a);
    ck_type_decref(rt);
    if (rc == CK_OK) {
        rc = fill(data, a);
    }
    if (rc != CK_OK) {
        ck_array_free(a);
        return rc;
    }
    *out = a;
    return CK_OK;
}

typedef struct call_fill {
    ck_callable *c;
    int nsrc;
    const ck_array *const *src;
    const ck_eval_ctx *ectx;
} call_fill;

static int fill_call(void *data, ck_array *a) {
    const call_fill *f = (const call_fill *)data;
    return ck_call(f->c, a, f->nsrc, f->src, f->ectx);
}

int ck_call_new(ck_callable *c, int nsrc, const ck_array *const *src, const ck_eval_ctx *ectx,
                ck_array **out) {
    if (out == NULL || src == NULL || nsrc < 1 || nsrc > CK_CALL_MAX_ARGS) {
        return ck_set_error(CK_ERR_INVALID, "ck_call_new: NULL argument or %d sources", nsrc);
    }
    *out = NULL;
    const ck_type *st[CK__MAX_SRC];
    for (int k = 0; k < nsrc; k++) {
        if (src[k] == NULL) {
            return ck_set_error(CK_ERR_INVALID, "ck_call_new: source %d is NULL", k);
        }
        st[k] = ck_array_type(src[k]);
    }
    ck_type *rt = NULL;
    CK__RETURN_IF_ERROR(ck_call_result_type(c, nsrc, st, ectx, &rt));
    call_fill f = {c, nsrc, src, ectx};
    return ck__array_new_filled(rt, fill_call, &f, out);
}
