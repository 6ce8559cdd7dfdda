/* src/kinds/dims/pointer.c: pointer kernels. The source kind reads through the pointer stored in
 * each source element (pointer[T] -> U), the destination kind writes through the pointer
 * stored in each destination element (T -> pointer[U]); both add the arrmeta offset. A NULL
 * pointer is CK_ERR_UNINITIALIZED, never a dereference. The child is called once per
 * element (single request): the targets are scattered. Except for a source whose target is
 * a scalar: then chunks of targets are gathered into an aligned stack buffer and the child
 * (a leaf, strided request) runs once per chunk, as a contiguous loop; and where that leaf
 * would only copy (the target's type is the destination's), the copy gather is the leaf
 * itself and copies each target straight into the destination. */
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"

typedef struct ck__pointer {
    ck_prefix base;
    intptr_t offset; /* added to the stored pointer */
    uint32_t nsrc;   /* sources the kernel passes on */
    uint32_t which;  /* source kind: the source that holds the pointers */
} ck__pointer;

typedef struct ck__pointer_gather {
    ck__pointer pointer;
    size_t size; /* bytes of the scalar target */
} ck__pointer_gather;

#define CK__GATHER_CHILD CK_ALIGN_OFFSET(sizeof(ck__pointer_gather))

/* Gathered targets per chunk; scalars are at most 16 bytes: 2 KiB of stack. */
#define CK__GATHER_CHUNK 128
#define CK__GATHER_MAX 16

#define CK__POINTER_CHILD CK_ALIGN_OFFSET(sizeof(ck__pointer))

static void pointer_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__POINTER_CHILD));
}

static inline char *load_pointer(const char *where) {
    char *p;
    memcpy(&p, where, sizeof p);
    return p;
}

/* Gathers up to one chunk of scalar targets and runs the leaf over them contiguously. */
static CK__KERNEL_ALIGN int pointer_gather_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                  char *const *src, const intptr_t *src_stride, size_t count) {
    const ck__pointer_gather *g = (const ck__pointer_gather *)self;
    const ck__pointer *k = &g->pointer;
    ck_prefix *child = ck_child(self, CK__GATHER_CHILD);
    ck_strided_fn fn = ck_prefix_strided(child);
    _Alignas(16) char buf[CK__GATHER_CHUNK * CK__GATHER_MAX];
    const size_t size = g->size;
    const intptr_t bstride = (intptr_t)size;
    const char *s = src[0];
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < CK__GATHER_CHUNK ? count - done : CK__GATHER_CHUNK;
        for (size_t i = 0; i < n; i++, s += src_stride[0]) {
            const char *p = load_pointer(s);
            if (p == NULL) {
                /* Run the leaf over the gathered elements first: they precede the failure. */
                char *b = buf;
                CK__RETURN_IF_ERROR_FROM(done, fn(child, dst, dst_stride, &b, &bstride, i));
                return ck_set_error(CK_ERR_UNINITIALIZED,
                                    "pointer: the source pointer of element %zu is NULL",
                                    done + i);
            }
            ck__copy_scalar(buf + i * size, p + k->offset, size);
        }
        char *b = buf;
        CK__RETURN_IF_ERROR_FROM(done, fn(child, dst, dst_stride, &b, &bstride, n));
        dst += (intptr_t)n * dst_stride;
        done += n;
    }
    return CK_OK;
}

/* The copy gather: the target's type is the destination's, so each target is copied
 * straight into its destination element. Through a buffer, the leaf's burst of stores after
 * every chunk of scattered loads made pointer/float64 1.4-2x the plain loop on an AMD EPYC
 * (the stores no longer overlapped the loads' misses); one pass is the plain loop. */
#define CK__GATHER_COPY_LOOP(size)                                                           \
    for (size_t i = 0; i < count; i++, s += ss, dst += dst_stride) {                         \
        const char *p = load_pointer(s);                                                     \
        if (CK__UNLIKELY(p == NULL)) {                                                        \
            return ck_set_error(CK_ERR_UNINITIALIZED,                                        \
                                "pointer: the source pointer of element %zu is NULL", i);    \
        }                                                                                    \
        memcpy(dst, p + offset, size);                                                       \
    }                                                                                        \
    return CK_OK

static CK__KERNEL_ALIGN int pointer_gather_copy_strided(ck_prefix *self, char *dst,
                                                        intptr_t dst_stride, char *const *src,
                                                        const intptr_t *src_stride,
                                                        size_t count) {
    const ck__pointer_gather *g = (const ck__pointer_gather *)self;
    const intptr_t offset = g->pointer.offset, ss = src_stride[0];
    const char *s = src[0];
    switch (g->size) { /* one loop per size: each copy is one move */
    case 1: CK__GATHER_COPY_LOOP(1);
    case 2: CK__GATHER_COPY_LOOP(2);
    case 4: CK__GATHER_COPY_LOOP(4);
    case 8: CK__GATHER_COPY_LOOP(8);
    default: CK__GATHER_COPY_LOOP(16);
    }
}

static CK__KERNEL_ALIGN int pointer_gather_copy_single(ck_prefix *self, char *dst,
                                                       char *const *src) {
    if (load_pointer(src[0]) == NULL) {
        return ck_set_error(CK_ERR_UNINITIALIZED, "pointer: the source pointer is NULL");
    }
    const intptr_t zero = 0;
    return pointer_gather_copy_strided(self, dst, 0, src, &zero, 1);
}

static CK__KERNEL_ALIGN int pointer_gather_single(ck_prefix *self, char *dst, char *const *src) {
    if (load_pointer(src[0]) == NULL) {
        return ck_set_error(CK_ERR_UNINITIALIZED, "pointer: the source pointer is NULL");
    }
    const intptr_t zero = 0;
    return pointer_gather_strided(self, dst, 0, src, &zero, 1);
}

static CK__KERNEL_ALIGN int pointer_src_single(ck_prefix *self, char *dst, char *const *src) {
    const ck__pointer *k = (const ck__pointer *)self;
    char *args[16];
    for (uint32_t j = 0; j < k->nsrc; j++) {
        args[j] = src[j];
    }
    char *p = load_pointer(src[k->which]);
    if (p == NULL) {
        return ck_set_error(CK_ERR_UNINITIALIZED, "pointer: the source pointer is NULL");
    }
    args[k->which] = p + k->offset;
    return ck_call_single(ck_child(self, CK__POINTER_CHILD), dst, args);
}

static CK__KERNEL_ALIGN int pointer_src_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                               char *const *src, const intptr_t *src_stride, size_t count) {
    const ck__pointer *k = (const ck__pointer *)self;
    ck_prefix *child = ck_child(self, CK__POINTER_CHILD);
    ck_single_fn fn = ck_prefix_single(child);
    const uint32_t ns = k->nsrc, w = k->which;
    char *s[16], *args[16];
    for (uint32_t j = 0; j < ns; j++) {
        s[j] = src[j];
    }
    for (size_t i = 0; i < count; i++, dst += dst_stride) {
        char *p = load_pointer(s[w]);
        if (p == NULL) {
            return ck_set_error(CK_ERR_UNINITIALIZED,
                                "pointer: the source pointer of element %zu is NULL", i);
        }
        for (uint32_t j = 0; j < ns; j++) {
            args[j] = s[j];
            s[j] += src_stride[j];
        }
        args[w] = p + k->offset;
        CK__RETURN_IF_ERROR_AT(i, fn(child, dst, args));
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int pointer_dst_single(ck_prefix *self, char *dst, char *const *src) {
    char *p = load_pointer(dst);
    if (p == NULL) {
        return ck_set_error(CK_ERR_UNINITIALIZED, "pointer: the destination pointer is NULL");
    }
    return ck_call_single(ck_child(self, CK__POINTER_CHILD),
                          p + ((const ck__pointer *)self)->offset, src);
}

static CK__KERNEL_ALIGN int pointer_dst_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                               char *const *src, const intptr_t *src_stride, size_t count) {
    const ck__pointer *k = (const ck__pointer *)self;
    ck_prefix *child = ck_child(self, CK__POINTER_CHILD);
    ck_single_fn fn = ck_prefix_single(child);
    const uint32_t ns = k->nsrc;
    char *s[16];
    for (uint32_t j = 0; j < ns; j++) {
        s[j] = src[j];
    }
    for (size_t i = 0; i < count; i++, dst += dst_stride) {
        char *p = load_pointer(dst);
        if (p == NULL) {
            return ck_set_error(CK_ERR_UNINITIALIZED,
                                "pointer: the destination pointer of element %zu is NULL", i);
        }
        CK__RETURN_IF_ERROR_AT(i, fn(child, p + k->offset, s));
        for (uint32_t j = 0; j < ns; j++) {
            s[j] += src_stride[j];
        }
    }
    return CK_OK;
}

static void gather_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__GATHER_CHILD));
}

static int make_pointer(ck_builder *ckb, size_t *offset, intptr_t target_offset, int nsrc,
                        int which, ck_request req, ck_single_fn single, ck_strided_fn strided) {
    if (nsrc < 1 || nsrc > 16 || which < 0 || which >= nsrc) {
        return ck_set_error(CK_ERR_INTERNAL, "pointer kernel for source %d of %d", which, nsrc);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__POINTER_CHILD));
    ck__pointer *k = (ck__pointer *)ck_builder_at(ckb, *offset);
    k->base.destructor = pointer_destroy;
    ck_prefix_set_function(&k->base, req, single, strided);
    k->offset = target_offset;
    k->nsrc = (uint32_t)nsrc;
    k->which = (uint32_t)which;
    *offset += CK__POINTER_CHILD;
    return CK_OK;
}

int ck__make_pointer_src(ck_builder *ckb, size_t *offset, intptr_t target_offset,
                         size_t gather, int nsrc, int which, ck_request req) {
    if (gather == 0 || gather > CK__GATHER_MAX || nsrc != 1) {
        return make_pointer(ckb, offset, target_offset, nsrc, which, req, pointer_src_single,
                            pointer_src_strided);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__GATHER_CHILD));
    ck__pointer_gather *g = (ck__pointer_gather *)ck_builder_at(ckb, *offset);
    g->pointer.base.destructor = gather_destroy;
    ck_prefix_set_function(&g->pointer.base, req, pointer_gather_single, pointer_gather_strided);
    g->pointer.offset = target_offset;
    g->pointer.nsrc = 1;
    g->size = gather;
    *offset += CK__GATHER_CHILD;
    return CK_OK;
}

int ck__make_pointer_gather_copy(ck_builder *ckb, size_t *offset, intptr_t target_offset,
                                 size_t size, ck_request req) {
    if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16) {
        return ck_set_error(CK_ERR_INTERNAL, "pointer copy gather of %zu-byte scalars", size);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__pointer_gather)));
    ck__pointer_gather *g = (ck__pointer_gather *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(&g->pointer.base, req, pointer_gather_copy_single,
                           pointer_gather_copy_strided); /* no child: no destructor */
    g->pointer.offset = target_offset;
    g->pointer.nsrc = 1;
    g->size = size;
    *offset += sizeof(ck__pointer_gather);
    return CK_OK;
}

int ck__make_pointer_dst(ck_builder *ckb, size_t *offset, intptr_t target_offset, int nsrc,
                         ck_request req) {
    return make_pointer(ckb, offset, target_offset, nsrc, 0, req, pointer_dst_single,
                        pointer_dst_strided);
}

static void pointer_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                             ck__children *children) {
    const ck__pointer *k = (const ck__pointer *)self;
    ck__strbuf_printf(out, "target_offset=%td", k->offset);
    if (k->nsrc > 1 && self->function != NULL &&
        (ck_prefix_single(self) == pointer_src_single ||
         ck_prefix_strided(self) == pointer_src_strided)) {
        ck__strbuf_printf(out, " argument=%u", k->which);
    }
    *size = sizeof(ck__pointer);
    ck__children_add(children, CK__POINTER_CHILD);
}

static void gather_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                            ck__children *children) {
    const ck__pointer_gather *g = (const ck__pointer_gather *)self;
    ck__strbuf_printf(out, "target_offset=%td gather=%zu chunk=%d", g->pointer.offset, g->size,
                      CK__GATHER_CHUNK);
    *size = sizeof(ck__pointer_gather);
    ck__children_add(children, CK__GATHER_CHILD);
}

static void gather_copy_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                 ck__children *children) {
    const ck__pointer_gather *g = (const ck__pointer_gather *)self;
    (void)children;
    ck__strbuf_printf(out, "target_offset=%td copy=%zu", g->pointer.offset, g->size);
    *size = sizeof(ck__pointer_gather);
}

const ck__kind ck__pointer_src_kind = {"pointer_src", pointer_src_single, pointer_src_strided,
                                       pointer_describe};
const ck__kind ck__pointer_dst_kind = {"pointer_dst", pointer_dst_single, pointer_dst_strided,
                                       pointer_describe};
const ck__kind ck__pointer_gather_kind = {"pointer_gather", pointer_gather_single,
                                          pointer_gather_strided, gather_describe};
const ck__kind ck__pointer_gather_copy_kind = {"pointer_gather_copy", pointer_gather_copy_single,
                                               pointer_gather_copy_strided,
                                               gather_copy_describe};
