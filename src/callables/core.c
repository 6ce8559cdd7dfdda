/* src/callables/core.c: calls whose signatures have core dimensions (docs/design.md §14):
 * "(N * float64, N * float64) -> float64". The composition walk (builders/compose.c) lifts
 * the leaf over the dimensions outside the core ones; here, at the core level, the
 * signature's symbols are bound to the operands' sizes, the leaf is told the core
 * dimensions' sizes and strides (ck_leaf_info.core), and operands whose scalar type is not
 * the signature's are converted whole through scratch blocks (kinds/dims/core_call.c). Also the
 * result's core type, for ck_call_result_type. */
#include <stdio.h>
#include <string.h>

#include "builders/compose.h"
#include "callables/callable_internal.h"
#include "ckernel/arrmeta.h"
#include "ckernel/assign.h"
#include "common/internal.h"
#include "core/kinds.h"
#include "types/type_internal.h"

#define CK__CORE_RESULT CK__SIG_MAX_ARGS /* the result's slot in a ck__core_sig */

_Static_assert(CK__CORE_MAX_DIMS == CK_CORE_MAX_DIMS && CK__SIG_MAX_ARGS == CK_CALL_MAX_ARGS,
               "the signature's core dimensions are the leaf's");

static const ck_type *skip_pointers(const ck_type *t) {
    while (t->id == CK_TYPE_POINTER) {
        t = t->element;
    }
    return t;
}

/* "dot: argument 1 (float64) has 0 dimensions; (N * float64, N * float64) -> float64 takes 1
 * core dimension there". */
static int rank_error(const ck__call_plan *p, int k, const ck_type *t, int have, int need) {
    char *text = NULL;
    const int ok = ck_type_format(t, &text) == CK_OK;
    char who[64];
    if (k < 0) {
        snprintf(who, sizeof who, "the destination");
    } else {
        snprintf(who, sizeof who, "argument %d", k);
    }
    const int rc = ck_set_error(CK_ERR_BROADCAST,
                                "%s: %s (%s) has %d dimension%s; %s takes %d core dimension%s "
                                "there",
                                p->name, who, ok ? text : "?", have, have == 1 ? "" : "s",
                                p->entry->text, need, need == 1 ? "" : "s");
    ck_free(text);
    return rc;
}

int ck__core_prepare(const ck__call_plan *p, int nsrc, const ck_type *dst_tp,
                     const ck_type *const *src_tp, int option, int *core) {
    const ck__core_sig *cs = &p->entry->core;
    if (option) {
        return ck_set_error(CK_ERR_UNSUPPORTED,
                            "%s: options under core dimensions are not built yet (%s)", p->name,
                            p->entry->text);
    }
    core[0] = cs->ndim[CK__CORE_RESULT];
    if (dst_tp != NULL && ck__dims_through_pointers(dst_tp) < core[0]) {
        return rank_error(p, -1, dst_tp, ck__dims_through_pointers(dst_tp), core[0]);
    }
    for (int k = 0; k < nsrc; k++) {
        core[1 + k] = cs->ndim[k];
        const int have = ck__dims_through_pointers(src_tp[k]);
        if (have < core[1 + k]) {
            return rank_error(p, k, src_tp[k], have, core[1 + k]);
        }
    }
    return CK_OK;
}

int ck__callable_core(const ck_callable *c, int nargs, int *core) {
    const ck__snapshot *s = ck__callable_snapshot(c);
    if (ck__snapshot_size(s) == 0 || !ck__snapshot_entry(s, 0)->core.any) {
        return 0;
    }
    const ck__core_sig *cs = &ck__snapshot_entry(s, 0)->core;
    core[0] = cs->ndim[CK__CORE_RESULT];
    for (int k = 0; k < nargs && k < CK__SIG_MAX_ARGS; k++) {
        core[1 + k] = cs->ndim[k];
    }
    return 1;
}

/* Binds the signature's symbols to the arguments' core dimensions (core_tp[k]: argument k's
 * type at its core level): sym[s] is the size, or -1 where only var dimensions have it. */
static int bind_symbols(const ck__call_plan *p, int nsrc, const ck_type *const *core_tp,
                        intptr_t *sym) {
    const ck__core_sig *cs = &p->entry->core;
    int first[CK__CORE_MAX_SYMS];
    for (int s = 0; s < CK__CORE_MAX_SYMS; s++) {
        sym[s] = -2; /* unbound */
        first[s] = -1;
    }
    for (int k = 0; k < nsrc; k++) {
        const ck_type *t = core_tp[k];
        for (int d = 0; d < cs->ndim[k]; d++) {
            t = skip_pointers(t);
            const int32_t v = cs->dim[k][d];
            const intptr_t size = t->id == CK_TYPE_FIXED_DIM ? t->fixed_size : -1;
            if (v >= 0 && size != v) {
                return size < 0 ? ck_set_error(CK_ERR_TYPE,
                                               "%s: argument %d's core dimension %d is var; %s "
                                               "gives it the size %d",
                                               p->name, k, d, p->entry->text, (int)v)
                                : ck_set_error(CK_ERR_BROADCAST,
                                               "%s: argument %d's core dimension %d has size "
                                               "%td; %s gives it the size %d",
                                               p->name, k, d, size, p->entry->text, (int)v);
            }
            if (v <= -2) {
                const int s = CK__CORE_SYM_INDEX(v);
                if (size >= 0 && sym[s] >= 0 && sym[s] != size) {
                    return ck_set_error(CK_ERR_BROADCAST,
                                        "%s: core dimension %s is %td in argument %d and %td in "
                                        "argument %d",
                                        p->name, cs->sym[s], sym[s], first[s], size, k);
                }
                if (size >= 0 && sym[s] < 0) {
                    sym[s] = size;
                    first[s] = k;
                } else if (sym[s] == -2) {
                    sym[s] = -1;
                }
            }
            t = t->element;
        }
    }
    return CK_OK;
}

/* The sizes of the result's core dimensions. */
static int result_sizes(const ck__call_plan *p, const intptr_t *sym, intptr_t *size) {
    const ck__core_sig *cs = &p->entry->core;
    for (int d = 0; d < cs->ndim[CK__CORE_RESULT]; d++) {
        const int32_t v = cs->dim[CK__CORE_RESULT][d];
        size[d] = v >= 0 ? v : sym[CK__CORE_SYM_INDEX(v)];
        if (size[d] < 0) {
            return ck_set_error(CK_ERR_UNSUPPORTED,
                                "%s: the result's core dimension %s is var in every argument; a "
                                "result's core dimensions are fixed (%s)",
                                p->name, cs->sym[CK__CORE_SYM_INDEX(v)], p->entry->text);
        }
    }
    return CK_OK;
}

int ck__core_result_inner(const ck__call_plan *p, int nsrc, const ck_type *const *core_tp,
                          ck_type **out) {
    intptr_t sym[CK__CORE_MAX_SYMS], size[CK__CORE_MAX_DIMS];
    CK__RETURN_IF_ERROR(bind_symbols(p, nsrc, core_tp, sym));
    CK__RETURN_IF_ERROR(result_sizes(p, sym, size));
    return ck__type_over_dims((ck_type *)(uintptr_t)ck_type_scalar(p->ret), size,
                              p->entry->core.ndim[CK__CORE_RESULT], out);
}

/* ---- the leaf ---- */

/* One operand's core block as the kernel is built for it: its dimensions (sizes, strides,
 * var offsets) and its scalar, the bits that moved it, whether every dimension is fixed, and
 * whether a pointer is inside (then only a copy into scratch gives the leaf its block). */
typedef struct ck__core_block {
    int ndim;
    ck_core_dim dim[CK__CORE_MAX_DIMS];
    const ck_type *scalar;
    uintptr_t bits;
    int fixed, indirect;
} ck__core_block;

/* Reads operand `who` (its type t and arrmeta am at the core level) into b. */
static int read_block(const ck__call_plan *p, const char *who, const ck_type *t, const char *am,
                      int ndim, uintptr_t bits, ck__core_block *b) {
    b->ndim = ndim;
    b->bits = bits;
    b->fixed = 1;
    b->indirect = 0;
    for (int d = 0; d < ndim || t->id == CK_TYPE_POINTER;) {
        if (t->id == CK_TYPE_POINTER) {
            b->indirect = 1;
            am += sizeof(ck_pointer_arrmeta);
            t = t->element;
            continue;
        }
        ck_core_dim *cd = &b->dim[d++];
        if (t->id == CK_TYPE_FIXED_DIM) {
            const ck_fixed_dim_arrmeta *m = (const ck_fixed_dim_arrmeta *)(const void *)am;
            if (m->dim_size != t->fixed_size) {
                return ck_set_error(CK_ERR_INVALID,
                                    "the %s arrmeta gives a fixed dimension of size %td, its "
                                    "type says %td",
                                    who, m->dim_size, t->fixed_size);
            }
            cd->size = m->dim_size;
            cd->stride = m->stride;
            cd->offset = 0;
            am += sizeof(ck_fixed_dim_arrmeta);
        } else if (t->id == CK_TYPE_VAR_DIM) {
            const ck_var_dim_arrmeta *m = (const ck_var_dim_arrmeta *)(const void *)am;
            cd->size = -1;
            cd->stride = m->stride;
            cd->offset = m->offset;
            b->fixed = 0;
            b->bits = 0; /* a row's begin is aligned: only its offset and stride move it */
            am += sizeof(ck_var_dim_arrmeta);
        } else {
            return ck_set_error(CK_ERR_INTERNAL, "%s: %s has no core dimension %d", p->name, who,
                                d - 1);
        }
        b->bits |= (uintptr_t)cd->stride | (uintptr_t)cd->offset;
        t = t->element;
    }
    if (!ck__id_is_scalar(t->id)) {
        return ck_set_error(t->id == CK_TYPE_OPTION ? CK_ERR_UNSUPPORTED : CK_ERR_TYPE,
                            "%s: %s holds %s under its core dimensions; the leaf takes scalars "
                            "there",
                            p->name, who, ck_type_id_name(t->id));
    }
    b->scalar = t;
    return CK_OK;
}

/* The block in C order of the signature's scalar `id` over b's (fixed) sizes: its bytes, and
 * the strides the leaf sees. */
static size_t c_order(ck__core_block *b, ck_type_id id) {
    size_t bytes = ck_type_data_size(ck_type_scalar(id));
    for (int d = b->ndim - 1; d >= 0; d--) {
        b->dim[d].stride = (intptr_t)bytes;
        b->dim[d].offset = 0;
        bytes *= (size_t)b->dim[d].size;
    }
    return bytes;
}

/* A cast child at *offset, recorded as slot `slot` of the core_call at `at`: the whole block
 * dt (arrmeta dam) <- st (arrmeta sam), one of them the C-order scratch of `scalar` over
 * `sizes`. */
static int build_cast(ck_builder *ckb, size_t *offset, size_t at, int slot,
                      const ck__compose *c, ck_type_id scalar, const ck__core_block *sizes,
                      int scratch_is_dst, const ck_type *t, const char *am, unsigned unaligned) {
    intptr_t n[CK__CORE_MAX_DIMS];
    for (int d = 0; d < sizes->ndim; d++) {
        n[d] = sizes->dim[d].size;
    }
    ck_type *bt = NULL;
    CK__RETURN_IF_ERROR(ck__type_over_dims((ck_type *)(uintptr_t)ck_type_scalar(scalar), n,
                                          sizes->ndim, &bt));
    _Alignas(16) char bam[CK__CORE_MAX_DIMS * sizeof(ck_fixed_dim_arrmeta)];
    int rc = ck_arrmeta_default_construct(bt, bam, NULL);
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = c->mode;
    ctx.flags = (c->flags & ~(unsigned)(CK_EVAL_DST_UNALIGNED | CK_EVAL_SRC_UNALIGNED)) |
                unaligned;
    *offset = CK_ALIGN_OFFSET(*offset);
    /* The child's zeroed prefix is reserved before core_call's destructor can reach it. */
    if (rc == CK_OK) {
        rc = ck_builder_reserve(ckb, *offset);
    }
    if (rc == CK_OK) {
        rc = ck__core_call_set_child(ckb, at, slot, *offset);
    }
    if (rc == CK_OK) {
        rc = scratch_is_dst
                 ? ck_make_assign(ckb, offset, bt, bam, t, am, CK_REQUEST_SINGLE, &ctx)
                 : ck_make_assign(ckb, offset, t, am, bt, bam, CK_REQUEST_SINGLE, &ctx);
    }
    ck_type_decref(bt);
    return rc;
}

int ck__core_leaf(const ck__compose *c, ck_builder *ckb, size_t *offset, const ck_type *dt,
                  const char *dam, const ck_type *const *st, const char *const *sam,
                  ck_request req, unsigned flags, uintptr_t dst_bits, const uintptr_t *src_bits) {
    const ck__call_plan *p = (const ck__call_plan *)c->leaf_data;
    const ck__signature *sig = &p->entry->sig;
    const ck__core_sig *cs = &p->entry->core;
    const int na = sig->nargs;
    ck__core_block arg[CK__MAX_SRC], res;
    size_t block[CK__MAX_SRC + 1];
    int converted = 0;
    intptr_t sym[CK__CORE_MAX_SYMS], size[CK__CORE_MAX_DIMS];
    CK__RETURN_IF_ERROR(bind_symbols(p, na, st, sym));
    CK__RETURN_IF_ERROR(result_sizes(p, sym, size));
    for (int k = 0; k < na; k++) {
        char who[32];
        snprintf(who, sizeof who, "argument %d", k);
        CK__RETURN_IF_ERROR(read_block(p, who, st[k], sam[k], cs->ndim[k], src_bits[k], &arg[k]));
        const int cast = arg[k].scalar->id != sig->args[k] || arg[k].indirect ||
                         ck__misaligned(flags, CK_EVAL_SRC_UNALIGNED, arg[k].bits, arg[k].scalar);
        block[k] = 0;
        if (cast && !arg[k].fixed) {
            return ck_set_error(CK_ERR_UNSUPPORTED,
                                "%s: argument %d's %s%s would be converted to %s under a var "
                                "core dimension, which is not built yet (assign it to %s first)",
                                p->name, k, arg[k].indirect ? "pointers to " : "",
                                ck_type_id_name(arg[k].scalar->id),
                                ck_type_id_name(sig->args[k]), ck_type_id_name(sig->args[k]));
        }
        if (cast) {
            block[k] = c_order(&arg[k], sig->args[k]);
            converted = 1;
        }
    }
    CK__RETURN_IF_ERROR(read_block(p, "the destination", dt, dam, cs->ndim[CK__CORE_RESULT],
                                  dst_bits, &res));
    for (int d = 0; d < res.ndim; d++) {
        if (res.dim[d].size != size[d]) {
            return res.dim[d].size < 0
                       ? ck_set_error(CK_ERR_TYPE,
                                      "%s: the destination's core dimension %d is var; the "
                                      "result's core dimensions are fixed",
                                      p->name, d)
                       : ck_set_error(CK_ERR_BROADCAST,
                                      "%s: the destination's core dimension %d has size %td; "
                                      "the call gives %td",
                                      p->name, d, res.dim[d].size, size[d]);
        }
    }
    block[na] = 0;
    if (res.scalar->id != p->ret || res.indirect ||
        ck__misaligned(flags, CK_EVAL_DST_UNALIGNED, res.bits, res.scalar)) {
        block[na] = c_order(&res, p->ret);
    }
    ck_core_dims cd;
    memset(&cd, 0, sizeof cd);
    for (int k = 0; k < na; k++) {
        cd.arg_ndim[k] = arg[k].ndim;
        memcpy(cd.arg[k], arg[k].dim, sizeof cd.arg[k]);
    }
    cd.ret_ndim = res.ndim;
    memcpy(cd.ret, res.dim, sizeof cd.ret);
    ck_leaf_info info;
    memset(&info, 0, sizeof info);
    info.name = p->name;
    info.nargs = na;
    memcpy(info.args, sig->args, (size_t)na * sizeof sig->args[0]);
    info.ret = p->ret;
    info.errmode = c->mode;
    info.target = ck_cpu_best_target();
    info.core = &cd;
    const ck_factory *f = &p->entry->factory;
    if (!converted && block[na] == 0) {
        info.req = req;
        return f->instantiate(f->data, ckb, offset, &info);
    }
    const size_t at = *offset;
    CK__RETURN_IF_ERROR(ck__make_core_call(ckb, offset, na, block, req));
    info.req = CK_REQUEST_SINGLE;
    CK__RETURN_IF_ERROR(f->instantiate(f->data, ckb, offset, &info));
    for (int k = 0; k < na; k++) {
        if (block[k] != 0) {
            const unsigned mis = (arg[k].bits & (arg[k].scalar->data_alignment - 1)) != 0 ||
                                         (flags & CK_EVAL_SRC_UNALIGNED) != 0
                                     ? CK_EVAL_SRC_UNALIGNED
                                     : 0u;
            CK__RETURN_IF_ERROR(build_cast(ckb, offset, at, 1 + k, c, sig->args[k], &arg[k], 1,
                                          st[k], sam[k], mis));
        }
    }
    if (block[na] != 0) {
        const unsigned mis = (res.bits & (res.scalar->data_alignment - 1)) != 0 ||
                                     (flags & CK_EVAL_DST_UNALIGNED) != 0
                                 ? CK_EVAL_DST_UNALIGNED
                                 : 0u;
        CK__RETURN_IF_ERROR(build_cast(ckb, offset, at, na + 1, c, p->ret, &res, 0, dt, dam, mis));
    }
    return CK_OK;
}
