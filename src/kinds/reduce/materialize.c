/* src/kinds/reduce/materialize.c: the materialize kernel, for reductions and accumulations of a
 * source that holds pointers. Each call copies the source, read through its pointers, into
 * a scratch array of the same shape without them (C order, allocated for the call), then
 * runs the reduction on the scratch: the fold sees the elements contiguous, so its bits are
 * those of the same values held without pointers. Children: slot 0 the assignment
 * scratch <- source, slot 1 the reduction dst <- scratch, both single request. */
#include <stdint.h>
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"

typedef struct ck__materialize {
    ck_prefix base;
    size_t scratch_size;
    uint32_t child[2]; /* the assignment into the scratch, the reduction from it */
} ck__materialize;

#define CK__MATERIALIZE_CHILD CK_ALIGN_OFFSET(sizeof(ck__materialize))

static void materialize_destroy(ck_prefix *self) {
    ck__children_destroy(self, ((const ck__materialize *)self)->child, 2);
}

static CK__KERNEL_ALIGN int materialize_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                                char *const *src, const intptr_t *src_stride,
                                                size_t count) {
    const ck__materialize *k = (const ck__materialize *)self;
    if (count == 0) {
        return CK_OK;
    }
    /* One byte at least: a scratch of no elements still needs a valid pointer. */
    char *scratch = (char *)ck__malloc(k->scratch_size != 0 ? k->scratch_size : 1);
    if (scratch == NULL) {
        return ck_set_error(CK_ERR_NOMEM,
                            "materialize: no memory for a scratch copy of %zu bytes of the "
                            "source read through its pointers",
                            k->scratch_size);
    }
    ck_prefix *copy = ck_child(self, k->child[0]), *reduce = ck_child(self, k->child[1]);
    const ck_single_fn copy_fn = ck_prefix_single(copy), reduce_fn = ck_prefix_single(reduce);
    char *s = src[0];
    int rc = CK_OK;
    for (size_t i = 0; i < count && rc == CK_OK; i++, dst += dst_stride, s += src_stride[0]) {
        char *from = s;
        rc = copy_fn(copy, scratch, &from);
        if (rc == CK_OK) {
            rc = reduce_fn(reduce, dst, &scratch);
        }
        if (rc != CK_OK && count > 1) {
            ck__error_at(rc, (intptr_t)i);
        }
    }
    ck__free(scratch);
    return rc;
}

static CK__KERNEL_ALIGN int materialize_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero = 0;
    return materialize_strided(self, dst, 0, src, &zero, 1);
}

int ck__make_materialize(ck_builder *ckb, size_t *offset, size_t scratch_size, ck_request req,
                         size_t *at) {
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__MATERIALIZE_CHILD));
    ck__materialize *k = (ck__materialize *)ck_builder_at(ckb, *offset);
    k->base.destructor = materialize_destroy;
    ck_prefix_set_function(&k->base, req, materialize_single, materialize_strided);
    k->scratch_size = scratch_size;
    *at = *offset;
    *offset += CK__MATERIALIZE_CHILD;
    return CK_OK;
}

int ck__materialize_set_child(ck_builder *ckb, size_t at, int slot, size_t child_offset) {
    if (slot < 0 || slot > 1) {
        return ck_set_error(CK_ERR_INTERNAL, "materialize: child %d", slot);
    }
    return ck__record_child(ckb, at, offsetof(ck__materialize, child) + 4u * (size_t)slot,
                            child_offset, "materialize");
}

static void materialize_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                 ck__children *children) {
    const ck__materialize *k = (const ck__materialize *)self;
    ck__strbuf_printf(out, "scratch=%zu copy, reduce", k->scratch_size);
    *size = sizeof(ck__materialize);
    ck__children_list(children, k->child, 2);
}

const ck__kind ck__materialize_kind = {"materialize", materialize_single, materialize_strided,
                                       materialize_describe};
