/* src/kinds/dims/unaligned.c: the unaligned kernel. Leaves read and write their scalars through
 * typed, aligned pointers; when an operand may be misaligned (a stride or offset that is not
 * a multiple of the element alignment, or a context flag), this kernel copies chunks of
 * elements with memcpy into aligned stack buffers, runs the leaf over them contiguously, and
 * copies results out. Scratch lives on the stack, so the kernel stays immutable and
 * thread-safe.
 *
 * A contiguous misaligned destination above the streaming threshold is written with
 * non-temporal stores: its bytes are one contiguous run whatever the elements' alignment,
 * so every whole 64-byte line of it goes out of the buffer with the streaming copy loop,
 * and the bytes of a line the chunk does not finish stay in the buffer for the next chunk
 * (no line is written partly by normal stores and partly by streaming ones). */
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"

/* Bytes per stack buffer; a chunk is as many elements as the larger element fits. */
#define CK__UNALIGNED_BUFFER 4096
#define CK__UNALIGNED_MAX_ELEM 16

typedef struct ck__unaligned {
    ck_prefix base;
    ck__stream_copy_fn stream; /* non-temporal copy of whole lines; NULL: normal stores */
    uint32_t dst_size, src_size;
    uint32_t chunk;            /* elements per chunk */
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

/* Stages up to one chunk of source elements at sbuf (when the source is buffered) and runs
 * the leaf over n elements into cd. */
static int run_chunk(const ck__unaligned *k, ck_prefix *child, ck_strided_fn fn, char *cd,
                     intptr_t cds, const char *s, intptr_t ss, size_t n, char *sbuf) {
    char *cs = (char *)(uintptr_t)s;
    intptr_t css = ss;
    if (k->buffer_src) {
        if (ss == 0) { /* a broadcast source: one element serves the whole chunk */
            memcpy(sbuf, s, k->src_size);
        } else {
            copy_elems(sbuf, (intptr_t)k->src_size, s, ss, n, k->src_size);
            css = (intptr_t)k->src_size;
        }
        cs = sbuf;
    }
    return fn(child, cd, cds, &cs, &css, n);
}

/* The streamed destination: contiguous, written as one run of bytes. Each chunk's results
 * land at the aligned dbuf + CK__STREAM_LINE (leaves store through aligned pointers); the
 * `carry` bytes of the previous chunk's unfinished line sit just before them, so the run
 * starts at dbuf + CK__STREAM_LINE - carry. */
static int unaligned_streamed(const ck__unaligned *k, ck_prefix *child, ck_strided_fn fn,
                              char *dst, const char *s, intptr_t ss, size_t count, char *sbuf,
                              char *dbuf) {
    const size_t dsz = k->dst_size;
    char *const results = dbuf + CK__STREAM_LINE;
    size_t carry = 0, done = 0;
    int rc = CK_OK;
    while (count > 0) {
        const size_t n = count < k->chunk ? count : k->chunk;
        rc = run_chunk(k, child, fn, results, (intptr_t)dsz, s, ss, n, sbuf);
        if (rc != CK_OK) {
            ck__error_offset_outer(rc, (intptr_t)done);
            break; /* what earlier chunks wrote is flushed below; this chunk is not written */
        }
        const char *run = results - carry;
        size_t have = carry + n * dsz, at = 0;
        const size_t lead =
            (CK__STREAM_LINE - (uintptr_t)dst % CK__STREAM_LINE) % CK__STREAM_LINE;
        if (lead != 0) { /* only before the first line boundary */
            at = lead < have ? lead : have;
            memcpy(dst, run, at);
        }
        const size_t lines = (have - at) / CK__STREAM_LINE * CK__STREAM_LINE;
        k->stream(dst + at, run + at, lines);
        at += lines;
        carry = have - at; /* < CK__STREAM_LINE once dst is line-aligned */
        memmove(results - carry, run + at, carry);
        dst += at;
        s += (intptr_t)n * ss;
        count -= n;
        done += n;
    }
    memcpy(dst, results - carry, carry);
    ck__stream_fence();
    return rc;
}

static CK__KERNEL_ALIGN int unaligned_strided(ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,
                             const intptr_t *src_stride, size_t count) {
    const ck__unaligned *k = (const ck__unaligned *)self;
    ck_prefix *child = ck_child(self, CK__UNALIGNED_CHILD);
    ck_strided_fn fn = ck_prefix_strided(child);
    _Alignas(16) char sbuf[CK__UNALIGNED_BUFFER];
    _Alignas(CK__STREAM_LINE) char dbuf[CK__STREAM_LINE + CK__UNALIGNED_BUFFER];
    const size_t dsz = k->dst_size;
    const intptr_t ss = src_stride[0];
    const char *s = src[0];
    if (k->stream != NULL && dst_stride == (intptr_t)dsz) {
        return unaligned_streamed(k, child, fn, dst, s, ss, count, sbuf, dbuf);
    }
    for (size_t done = 0; count > 0; done += k->chunk) {
        const size_t n = count < k->chunk ? count : k->chunk;
        char *cd = k->buffer_dst ? dbuf : dst;
        const intptr_t cds = k->buffer_dst ? (intptr_t)dsz : dst_stride;
        CK__RETURN_IF_ERROR_FROM(done, run_chunk(k, child, fn, cd, cds, s, ss, n, sbuf));
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
                       int buffer_dst, int buffer_src, int stream, ck_request req) {
    if (dst_size == 0 || dst_size > CK__UNALIGNED_MAX_ELEM || src_size == 0 ||
        src_size > CK__UNALIGNED_MAX_ELEM) {
        return ck_set_error(CK_ERR_INTERNAL, "unaligned kernel: elements of %zu/%zu bytes",
                            dst_size, src_size);
    }
    ck__stream_copy_fn copy = NULL;
    if (stream && buffer_dst) {
        CK__RETURN_IF_ERROR(ck__streaming_copy_loop(&copy));
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__UNALIGNED_CHILD));
    ck__unaligned *k = (ck__unaligned *)ck_builder_at(ckb, *offset);
    k->base.destructor = unaligned_destroy;
    ck_prefix_set_function(&k->base, req, unaligned_single, unaligned_strided);
    k->stream = copy;
    k->dst_size = (uint32_t)dst_size;
    k->src_size = (uint32_t)src_size;
    k->chunk = (uint32_t)(CK__UNALIGNED_BUFFER / (dst_size > src_size ? dst_size : src_size));
    k->buffer_dst = (uint8_t)(buffer_dst != 0);
    k->buffer_src = (uint8_t)(buffer_src != 0);
    *offset += CK__UNALIGNED_CHILD;
    return CK_OK;
}

static void unaligned_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                               ck__children *children) {
    const ck__unaligned *k = (const ck__unaligned *)self;
    ck__strbuf_printf(out, "buffers=%s%s%s chunk=%u%s", k->buffer_dst ? "dst" : "",
                      k->buffer_dst && k->buffer_src ? "+" : "", k->buffer_src ? "src" : "",
                      k->chunk, k->stream != NULL ? " streaming" : "");
    *size = sizeof(ck__unaligned);
    ck__children_add(children, CK__UNALIGNED_CHILD);
}

const ck__kind ck__unaligned_kind = {"unaligned", unaligned_single, unaligned_strided,
                                     unaligned_describe};
