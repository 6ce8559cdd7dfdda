/* src/kernels/pointer.c: pointer kernels. The source kind reads through the pointer stored in
 * each source element (pointer[T] -> U), the destination kind writes through the pointer
 * stored in each destination element (T -> pointer[U]); both add the arrmeta offset. A NULL
 * pointer is CK_ERR_UNINITIALIZED, never a dereference. The child is called once per
 * element (single request): the targets are scattered. */
#include <string.h>

#include "common/internal.h"
#include "kernels/kinds.h"

typedef struct ck__pointer {
    ck_prefix base;
    intptr_t offset; /* added to the stored pointer */
} ck__pointer;

#define CK__POINTER_CHILD CK_ALIGN_OFFSET(sizeof(ck__pointer))

static void pointer_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__POINTER_CHILD));
}

static inline char *load_pointer(const char *where) {
    char *p;
    memcpy(&p, where, sizeof p);
    return p;
}

static int pointer_src_single(ck_prefix *self, char *dst, char *const *src) {
    char *p = load_pointer(src[0]);
    if (p == NULL) {
        return ck_set_error(CK_ERR_UNINITIALIZED, "pointer: the source pointer is NULL");
    }
    char *target = p + ((const ck__pointer *)self)->offset;
    return ck_call_single(ck_child(self, CK__POINTER_CHILD), dst, &target);
}

static int pointer_src_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                               char *const *src, const intptr_t *src_stride, size_t count) {
    const intptr_t off = ((const ck__pointer *)self)->offset;
    ck_prefix *child = ck_child(self, CK__POINTER_CHILD);
    ck_single_fn fn = ck_prefix_single(child);
    const char *s = src[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += src_stride[0]) {
        char *p = load_pointer(s);
        if (p == NULL) {
            return ck_set_error(CK_ERR_UNINITIALIZED,
                                "pointer: the source pointer of element %zu is NULL", i);
        }
        char *target = p + off;
        CK_RETURN_IF_ERROR(fn(child, dst, &target));
    }
    return CK_OK;
}

static int pointer_dst_single(ck_prefix *self, char *dst, char *const *src) {
    char *p = load_pointer(dst);
    if (p == NULL) {
        return ck_set_error(CK_ERR_UNINITIALIZED, "pointer: the destination pointer is NULL");
    }
    return ck_call_single(ck_child(self, CK__POINTER_CHILD),
                          p + ((const ck__pointer *)self)->offset, src);
}

static int pointer_dst_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                               char *const *src, const intptr_t *src_stride, size_t count) {
    const intptr_t off = ((const ck__pointer *)self)->offset;
    ck_prefix *child = ck_child(self, CK__POINTER_CHILD);
    ck_single_fn fn = ck_prefix_single(child);
    char *s = src[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += src_stride[0]) {
        char *p = load_pointer(dst);
        if (p == NULL) {
            return ck_set_error(CK_ERR_UNINITIALIZED,
                                "pointer: the destination pointer of element %zu is NULL", i);
        }
        CK_RETURN_IF_ERROR(fn(child, p + off, &s));
    }
    return CK_OK;
}

static int make_pointer(ck_builder *ckb, size_t *offset, intptr_t target_offset,
                        ck_request req, ck_single_fn single, ck_strided_fn strided) {
    CK_RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__POINTER_CHILD));
    ck__pointer *k = (ck__pointer *)ck_builder_at(ckb, *offset);
    k->base.destructor = pointer_destroy;
    ck_prefix_set_function(&k->base, req, single, strided);
    k->offset = target_offset;
    *offset += CK__POINTER_CHILD;
    return CK_OK;
}

int ck__make_pointer_src(ck_builder *ckb, size_t *offset, intptr_t target_offset,
                         ck_request req) {
    return make_pointer(ckb, offset, target_offset, req, pointer_src_single, pointer_src_strided);
}

int ck__make_pointer_dst(ck_builder *ckb, size_t *offset, intptr_t target_offset,
                         ck_request req) {
    return make_pointer(ckb, offset, target_offset, req, pointer_dst_single, pointer_dst_strided);
}

static void pointer_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                             size_t *children, int *nchildren) {
    ck__strbuf_printf(out, "target_offset=%td", ((const ck__pointer *)self)->offset);
    *size = sizeof(ck__pointer);
    children[0] = CK__POINTER_CHILD;
    *nchildren = 1;
}

const ck__kind ck__pointer_src_kind = {"pointer_src", pointer_src_single, pointer_src_strided,
                                       pointer_describe};
const ck__kind ck__pointer_dst_kind = {"pointer_dst", pointer_dst_single, pointer_dst_strided,
                                       pointer_describe};
