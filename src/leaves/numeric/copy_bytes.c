/* src/leaves/numeric/copy_bytes.c: the copy_bytes leaf: `size` bytes per element, copied as they
 * are. The composition uses it where both sides have the same layout and nothing needs
 * converting: a run of identical struct fields, or a whole struct that is bit-identical on
 * both sides (then a contiguous array of them is one memcpy, or above the streaming
 * threshold one streamed copy of its whole lines). */
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"
#include "core/streaming_loops.h"

typedef struct ck__copy_bytes {
    ck_prefix base;
    size_t size;
    ck__stream_copy_fn stream; /* NULL: memcpy */
} ck__copy_bytes;

static CK__KERNEL_ALIGN int copy_bytes_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                               char *const *src, const intptr_t *src_stride,
                                               size_t count) {
    const ck__copy_bytes *k = (const ck__copy_bytes *)self;
    const size_t size = k->size;
    const char *s = src[0];
    const intptr_t ss = src_stride[0];
    if (dst_stride == (intptr_t)size && ss == (intptr_t)size) {
        if (k->stream != NULL && size * count >= CK__STREAM_MIN_RUN_BYTES) {
            ck__stream_out(k->stream, dst, s, size * count);
            ck__stream_fence();
        } else {
            memcpy(dst, s, size * count);
        }
        return CK_OK;
    }
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += ss) {
        ck__copy_scalar(dst, s, size); /* scalar sizes as one move, others by memcpy */
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int copy_bytes_single(ck_prefix *self, char *dst, char *const *src) {
    memcpy(dst, src[0], ((const ck__copy_bytes *)self)->size);
    return CK_OK;
}

int ck__make_copy_bytes(ck_builder *ckb, size_t *offset, size_t size, int stream,
                        ck_request req) {
    ck__stream_copy_fn copy = NULL;
    if (stream) {
        CK__RETURN_IF_ERROR(ck__streaming_copy_loop(&copy));
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__copy_bytes)));
    ck__copy_bytes *k = (ck__copy_bytes *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(&k->base, req, copy_bytes_single, copy_bytes_strided);
    k->size = size;
    k->stream = copy;
    *offset += sizeof(ck__copy_bytes);
    return CK_OK;
}

static void copy_bytes_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                ck__children *children) {
    (void)children;
    const ck__copy_bytes *k = (const ck__copy_bytes *)self;
    ck__strbuf_printf(out, "bytes=%zu%s", k->size, k->stream != NULL ? " streamed" : "");
    *size = sizeof(ck__copy_bytes);
}

const ck__kind ck__copy_bytes_kind = {"copy_bytes", copy_bytes_single, copy_bytes_strided,
                                      copy_bytes_describe};
