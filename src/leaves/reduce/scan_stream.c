/* src/leaves/reduce/scan_stream.c: the streaming scan, a leaf for the built-in accumulations
 * (cumsum, ...) whose destination is too large to stay in the cache. A scan is bound by
 * its chain of dependent operations, one element after the other; what memory adds is the
 * read of each destination line before it is written. This leaf writes the lines between
 * the run's first and last 64-byte boundaries with streaming stores: chunk by chunk, the
 * scan's continuation (leaves/reduce/reduce_ops.h, ck__scan_from_fn) writes into a 2 KiB stack
 * buffer that stays in L1, and the streaming copy loop sends it out. The operations and
 * their order are the plain scan's, so the bits are too. Runs that are short, strided or
 * misaligned go through the plain scan leaf. One fence ends every streamed run. */
#include <stdint.h>
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"
#include "leaves/reduce/reduce_ops.h"
#include "core/streaming_loops.h"

#define CK__SCAN_STREAM_CHUNK_BYTES 2048

typedef struct ck__scan_stream {
    ck_prefix base;
    ck_strided_fn scan;    /* the plain scan leaf's function */
    ck__scan_from_fn from; /* its continuation */
    ck__stream_copy_fn copy;
    uint32_t size;         /* bytes of an element: a divisor of 64, at most 16 */
    uint8_t op, id;        /* for describe */
} ck__scan_stream;

static CK__KERNEL_ALIGN int scan_stream_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                                char *const *src, const intptr_t *src_stride,
                                                size_t n) {
    const ck__scan_stream *k = (const ck__scan_stream *)self;
    const size_t size = k->size;
    if (dst_stride != (intptr_t)size || n * size < 4 * CK__SCAN_STREAM_CHUNK_BYTES ||
        (uintptr_t)dst % size != 0) {
        return k->scan(self, dst, dst_stride, src, src_stride, n);
    }
    const char *x = src[0];
    const intptr_t xs = src_stride[0];
    _Alignas(16) unsigned char acc[16];
    memcpy(acc, x, size); /* out[0] = x[0] */
    memcpy(dst, x, size);
    const size_t head =
        ((CK__STREAM_LINE - (uintptr_t)(dst + size) % CK__STREAM_LINE) % CK__STREAM_LINE) /
        size;
    k->from(acc, dst + size, x + xs, xs, head);
    size_t done = 1 + head;
    _Alignas(CK__STREAM_LINE) char buf[CK__SCAN_STREAM_CHUNK_BYTES];
    const size_t chunk = CK__SCAN_STREAM_CHUNK_BYTES / size, per_line = CK__STREAM_LINE / size;
    for (;;) { /* whole chunks, then the whole lines left */
        size_t m = n - done < chunk ? n - done : chunk;
        m = m / per_line * per_line;
        if (m == 0) {
            break;
        }
        k->from(acc, buf, x + (intptr_t)done * xs, xs, m);
        k->copy(dst + done * size, buf, m * size);
        done += m;
    }
    ck__stream_fence();
    k->from(acc, dst + done * size, x + (intptr_t)done * xs, xs, n - done);
    return CK_OK;
}

static CK__KERNEL_ALIGN int scan_stream_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero = 0;
    return scan_stream_strided(self, dst, 0, src, &zero, 1);
}

int ck__make_scan_stream(ck_builder *ckb, size_t *offset, ck__arith_op op, ck_type_id id) {
    ck_strided_fn scan = NULL;
    ck__scan_from_fn from = NULL;
    ck__stream_copy_fn copy = NULL;
    const char *target = NULL;
    CK__RETURN_IF_ERROR(ck__scan_fns(op, id, &scan, &from, &target));
    CK__RETURN_IF_ERROR(ck__streaming_copy_loop(&copy));
    const size_t size = ck_type_data_size(ck_type_scalar(id));
    if (!ck__streaming_supported(size) || from == NULL) {
        return ck_set_error(CK_ERR_INTERNAL, "scan_stream: elements of %zu bytes", size);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__scan_stream)));
    ck__scan_stream *k = (ck__scan_stream *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(&k->base, CK_REQUEST_STRIDED, scan_stream_single, scan_stream_strided);
    k->scan = scan;
    k->from = from;
    k->copy = copy;
    k->size = (uint32_t)size;
    k->op = (uint8_t)op;
    k->id = (uint8_t)id;
    *offset += sizeof(ck__scan_stream);
    return CK_OK;
}

static void scan_stream_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                 ck__children *children) {
    const ck__scan_stream *k = (const ck__scan_stream *)self;
    (void)children;
    ck__strbuf leaf = CK__STRBUF_INIT;
    void *fn;
    memcpy(&fn, &k->scan, sizeof fn);
    if (ck__acc_leaf_describe(fn, &leaf) && leaf.s != NULL) {
        ck__strbuf_printf(out, "%s, streaming stores", leaf.s);
    }
    if (leaf.status != CK_OK) {
        out->status = leaf.status;
    }
    ck__strbuf_free(&leaf);
    *size = sizeof(ck__scan_stream);
}

const ck__kind ck__scan_stream_kind = {"scan_stream", scan_stream_single, scan_stream_strided,
                                       scan_stream_describe};
