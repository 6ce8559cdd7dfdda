/* src/builders/assign.c: assignment kernels: the composition walk (compose.c) with one
 * source and the assignment leaf (a scalar cast from the per-target tables, wrapped in the
 * unaligned kernel when a stride or offset on the way, or the context, can misalign it). */
#include <stdint.h>

#include "ckernel/arrmeta.h"
#include "ckernel/assign.h"
#include "builders/assign_internal.h"
#include "builders/compose.h"
#include "jit/jit_plugin.h"
#include "common/internal.h"
#include "core/kinds.h"
#include "types/type_internal.h"

static int assign_leaf(const ck__compose *c, ck_builder *ckb, size_t *offset, const ck_type *dt,
                       const ck_type *const *st, ck_request req, unsigned flags,
                       uintptr_t dst_bits, const uintptr_t *src_bits) {
    /* A misaligned destination goes through the unaligned kernel's buffer, which streams it
     * itself (CK__EVAL_STREAM passed on). */
    if (ck__leaf_streams(flags, dst_bits, dt)) {
        CK__RETURN_IF_ERROR(ck__make_streaming(ckb, offset, dt->id, st[0]->id, dt->data_size,
                                              st[0]->data_size, c->mode, req));
        req = CK_REQUEST_STRIDED;
        flags &= ~CK__EVAL_STREAM;
    }
    return ck__make_assign_leaf(ckb, offset, dt, st[0], c->mode, req, flags, dst_bits,
                                src_bits[0]);
}

int ck_make_assign(ck_builder *ckb, size_t *offset, const ck_type *dst_tp,
                   const char *dst_arrmeta, const ck_type *src_tp, const char *src_arrmeta,
                   ck_request req, const ck_eval_ctx *ectx) {
    return ck__make_assign_at(ckb, offset, dst_tp, dst_arrmeta, src_tp, src_arrmeta, req, ectx,
                              0, 1);
}

static int assign_unguarded(ck_builder *ckb, size_t *offset, const ck_type *dst_tp,
                       const char *dst_arrmeta, const ck_type *src_tp, const char *src_arrmeta,
                       ck_request req, const ck_eval_ctx *ectx, int first_dim,
                       size_t outer_rows) {
    if (ckb == NULL || offset == NULL || dst_tp == NULL || src_tp == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_make_assign: NULL builder, offset or type");
    }
    if ((dst_arrmeta == NULL && ck_type_arrmeta_size(dst_tp) != 0) ||
        (src_arrmeta == NULL && ck_type_arrmeta_size(src_tp) != 0)) {
        return ck_set_error(CK_ERR_INVALID, "ck_make_assign: NULL arrmeta for a type that has some");
    }
    if (req != CK_REQUEST_SINGLE && req != CK_REQUEST_STRIDED) {
        return ck_set_error(CK_ERR_INVALID, "ck_make_assign: unknown request %d", (int)req);
    }
    ck__compose c;
    c.dst_top = dst_tp;
    c.src_top = &src_tp;
    c.nsrc = 1;
    c.make_leaf = assign_leaf;
    c.leaf_data = NULL;
    c.jit_op = CK__JIT_OP_ASSIGN;
    c.jit_op_id = -1;
    c.jit_param_id = NULL;
    c.jit_fn = NULL;
    c.jit_chunk = NULL;
    c.jit_nodes = NULL;
    c.jit_nnodes = 0;
    c.jit_why_not = NULL;
    c.may_stream = CK__MAY_STREAM;
    c.outer_rows = outer_rows;
    c.assign = 1;
    c.core = NULL;
    c.make_core_leaf = NULL;
    c.make_text_leaf = NULL;
    c.leaf_writes_tuple = 0;
    CK__RETURN_IF_ERROR(ck__resolve_eval_ctx(ectx, &c.mode, &c.flags));
    return ck__compose_build(ckb, offset, &c, dst_tp, dst_arrmeta, &src_arrmeta, req, first_dim);
}

int ck__make_assign_at(ck_builder *ckb, size_t *offset, const ck_type *dst_tp,
                       const char *dst_arrmeta, const ck_type *src_tp, const char *src_arrmeta,
                       ck_request req, const ck_eval_ctx *ectx, int first_dim,
                       size_t outer_rows) {
    /* The root's FP-environment guard when this is the root (core/kinds.h). */
    const size_t start = offset != NULL ? *offset : 1;
    int rc = assign_unguarded(ckb, offset, dst_tp, dst_arrmeta, src_tp, src_arrmeta, req, ectx,
                              first_dim, outer_rows);
    if (rc == CK_OK) {
        rc = ck__fp_env_guard(ckb, start, offset, ectx != NULL ? ectx->flags : 0u, req);
    }
    return rc;
}

unsigned ck__unaligned_flags(const ck_type *dt, uintptr_t dst_bits, const ck_type *st,
                             uintptr_t src_bits) {
    return (dst_bits % dt->data_alignment != 0 ? CK_EVAL_DST_UNALIGNED : 0u) |
           (src_bits % st->data_alignment != 0 ? CK_EVAL_SRC_UNALIGNED : 0u);
}

int ck_assign(const ck_array *dst, const ck_array *src, const ck_eval_ctx *ectx) {
    if (dst == NULL || src == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_assign: NULL array");
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
    int rc = ck_make_assign(&b, &off, dt, ck_array_arrmeta(dst), st, ck_array_arrmeta(src),
                            CK_REQUEST_SINGLE, &ctx);
    if (rc == CK_OK) {
        rc = ck_call_single(ck_builder_root(&b), dd, &sd);
    }
    ck_builder_destroy(&b);
    return rc;
}
