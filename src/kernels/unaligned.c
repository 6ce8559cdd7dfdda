/* src/kernels/unaligned.c: the unaligned kernel. Leaves read and write their scalars through
 * typed, aligned pointers; when an operand may be misaligned (a stride or offset that is not
 * a multiple of the element alignment, or a context flag), this kernel copies chunks of
 * elements with memcpy into aligned stack buffers, runs the leaf over them contiguously, and
 * copies results out. Scratch lives on the stack, so the kernel stays immutable and
 * thread-safe. */
#include <string.h>

#include "common/internal.h"
#include "kernels/kinds.h"

/* Elements per chunk; with elements of at most 16 bytes the two buffers take 4 KiB. */
#define CK__UNALIGNED_CHUNK 128
#define CK__UNALIGNED_MAX_ELEM 16

typedef struct ck__unaligned {
    ck_prefix base;
    uint32_t dst_size, src_size;
    uint8_t buffer_dst, buffer_src;
} ck__unaligned;

#define CK__UNALIGNED_CHILD CK_ALIGN_OFFSET(sizeof(ck__unaligned))

/* Copies n elements of `size` bytes between strided places: one memcpy when both sides are
 * contiguous, else element by element with constant-size moves. */
static void copy_elems(char *dst, intptr_t dst_stride, const char *src, intptr_t src_stride,
                       size_t n, size_t size) {
    if (dst_stride == (intptr_t)size && src_stride == (intptr_t)size) {
        memcpy(dst, src, n * size);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        ck__copy_scalar(dst + (intptr_t)i * dst_stride, src + (intptr_t)i * src_stride, size);
    }
}

static void unaligned_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__UNALIGNED_CHILD));
}

static CK__KERNEL_ALIGN int unaligned_strided(ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,
                             const intptr_t *src_stride, size_t count) {
    const ck__unaligned *k = (const ck__unaligned *)self;
    ck_prefix *child = ck_child(self, CK__UNALIGNED_CHILD);
    ck_strided_fn fn = ck_prefix_strided(child);
    _Alignas(16) char sbuf[CK__UNALIGNED_CHUNK * CK__UNALIGNED_MAX_ELEM];
    _Alignas(16) char dbuf[CK__UNALIGNED_CHUNK * CK__UNALIGNED_MAX_ELEM];
    const size_t ssz = k->src_size, dsz = k->dst_size;
    const intptr_t ss = src_stride[0];
    const char *s = src[0];
    while (count > 0) {
        size_t n = count < CK__UNALIGNED_CHUNK ? count : CK__UNALIGNED_CHUNK;
        char *cs = (char *)(uintptr_t)s;
        intptr_t css = ss;
        if (k->buffer_src) {
            if (ss == 0) { /* a broadcast source: one element serves the whole chunk */
                memcpy(sbuf, s, ssz);
            } else {
                copy_elems(sbuf, (intptr_t)ssz, s, ss, n, ssz);
                css = (intptr_t)ssz;
            }
            cs = sbuf;
        }
        char *cd = k->buffer_dst ? dbuf : dst;
        intptr_t cds = k->buffer_dst ? (intptr_t)dsz : dst_stride;
        CK_RETURN_IF_ERROR(fn(child, cd, cds, &cs, &css, n));
        if (k->buffer_dst) {
            copy_elems(dst, dst_stride, dbuf, (intptr_t)dsz, n, dsz);
        }
        s += (intptr_t)n * ss;
        dst += (intptr_t)n * dst_stride;
        count -= n;
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int unaligned_single(ck_prefix *self, char *dst, char *const *src) {
    const intptr_t zero = 0;
    return unaligned_strided(self, dst, 0, src, &zero, 1);
}

int ck__make_unaligned(ck_builder *ckb, size_t *offset, size_t dst_size, size_t src_size,
                       int buffer_dst, int buffer_src, ck_request req) {
    if (dst_size > CK__UNALIGNED_MAX_ELEM || src_size > CK__UNALIGNED_MAX_ELEM) {
        return ck_set_error(CK_ERR_INTERNAL, "unaligned kernel: elements of %zu/%zu bytes",
                            dst_size, src_size);
    }
    CK_RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__UNALIGNED_CHILD));
    ck__unaligned *k = (ck__unaligned *)ck_builder_at(ckb, *offset);
    k->base.destructor = unaligned_destroy;
    ck_prefix_set_function(&k->base, req, unaligned_single, unaligned_strided);
    k->dst_size = (uint32_t)dst_size;
    k->src_size = (uint32_t)src_size;
    k->buffer_dst = (uint8_t)(buffer_dst != 0);
    k->buffer_src = (uint8_t)(buffer_src != 0);
    *offset += CK__UNALIGNED_CHILD;
    return CK_OK;
}

static void unaligned_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                               ck__children *children) {
    const ck__unaligned *k = (const ck__unaligned *)self;
    ck__strbuf_printf(out, "buffers=%s%s%s chunk=%d", k->buffer_dst ? "dst" : "",
                      k->buffer_dst && k->buffer_src ? "+" : "", k->buffer_src ? "src" : "",
                      CK__UNALIGNED_CHUNK);
    *size = sizeof(ck__unaligned);
    ck__children_add(children, CK__UNALIGNED_CHILD);
}

const ck__kind ck__unaligned_kind = {"unaligned", unaligned_single, unaligned_strided,
                                     unaligned_describe};
