/* src/leaves/reduce/dot.c: the leaf of the built-in dot, (N * T, N * T) -> T (core dimensions,
 * docs/design.md §14). Each argument is a row: a fixed core dimension (the size is checked
 * when the kernel is built), or a var one, each row its own length (the two rows' lengths
 * are checked equal when the kernel runs). The per-target dot function of the row's type
 * (leaves/reduce/reduce_ops.h) sums the products. */
#include <string.h>

#include "ckernel/arrmeta.h"
#include "common/internal.h"
#include "core/kinds.h"
#include "leaves/reduce/reduce_ops.h"

typedef struct ck__dot {
    ck_prefix base;
    ck__dot_fn fn;
    const char *target; /* the CPU target's name (static), for describe */
    ck_core_dim row[2];
    int32_t id;
} ck__dot;

#define CK__DOT_WHAT "dot: core dimension"

/* Where argument k's row starts and how long it is. */
static int dot_row(const ck__dot *k, int a, const char *src, const char **x, size_t *n) {
    const ck_core_dim *d = &k->row[a];
    if (d->size >= 0) {
        *x = src;
        *n = (size_t)d->size;
        return CK_OK;
    }
    const ck_var_data *v = (const ck_var_data *)(const void *)src;
    if (v->begin == NULL && v->size != 0) {
        return ck__set_located_error(CK_ERR_UNINITIALIZED, CK__DOT_WHAT, 0,
                                     "argument %d's row is not allocated", a);
    }
    *x = v->begin + d->offset;
    *n = v->size;
    return CK_OK;
}

static int dot_one(const ck__dot *k, char *dst, char *const *src) {
    const char *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    CK__RETURN_IF_ERROR(dot_row(k, 0, src[0], &x, &nx));
    CK__RETURN_IF_ERROR(dot_row(k, 1, src[1], &y, &ny));
    if (nx != ny) {
        return ck__set_located_error(CK_ERR_BROADCAST, CK__DOT_WHAT, 0,
                                     "rows of %zu and %zu elements", nx, ny);
    }
    k->fn(dst, x, k->row[0].stride, y, k->row[1].stride, nx);
    return CK_OK;
}

static CK__KERNEL_ALIGN int dot_single(ck_prefix *self, char *dst, char *const *src) {
    return dot_one((const ck__dot *)self, dst, src);
}

static CK__KERNEL_ALIGN int dot_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                        char *const *src, const intptr_t *src_stride,
                                        size_t count) {
    const ck__dot *k = (const ck__dot *)self;
    char *s[2] = {src[0], src[1]};
    for (size_t i = 0; i < count; i++) {
        CK__RETURN_IF_ERROR_AT(i, dot_one(k, dst, s));
        dst += dst_stride;
        s[0] += src_stride[0];
        s[1] += src_stride[1];
    }
    return CK_OK;
}

int ck__make_dot_leaf(ck_builder *ckb, size_t *offset, ck_type_id id, const ck_core_dims *core,
                      ck_request req) {
    if (core == NULL || core->arg_ndim[0] != 1 || core->arg_ndim[1] != 1 ||
        core->ret_ndim != 0) {
        return ck_set_error(CK_ERR_INTERNAL, "dot: a leaf without one core dimension per "
                                             "argument");
    }
    ck__dot_fn fn = NULL;
    const char *target = NULL;
    CK__RETURN_IF_ERROR(ck__dot_fn_for(id, &fn, &target));
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__dot)));
    ck__dot *k = (ck__dot *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(&k->base, req, dot_single, dot_strided);
    k->fn = fn;
    k->target = target;
    k->row[0] = core->arg[0][0];
    k->row[1] = core->arg[1][0];
    k->id = (int32_t)id;
    *offset += sizeof(ck__dot);
    return CK_OK;
}

static void describe_row(ck__strbuf *out, const ck_core_dim *d) {
    if (d->size >= 0) {
        ck__strbuf_printf(out, "size=%td stride=%td", d->size, d->stride);
    } else {
        ck__strbuf_printf(out, "var(stride=%td offset=%td)", d->stride, d->offset);
    }
}

static void dot_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                         ck__children *children) {
    (void)children;
    const ck__dot *k = (const ck__dot *)self;
    ck__strbuf_printf(out, "dot %s [%s] x: ", ck_type_id_name((ck_type_id)k->id), k->target);
    describe_row(out, &k->row[0]);
    ck__strbuf_puts(out, ", y: ");
    describe_row(out, &k->row[1]);
    *size = sizeof(ck__dot);
}

const ck__kind ck__dot_kind = {"dot", dot_single, dot_strided, dot_describe};
