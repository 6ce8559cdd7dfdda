/* src/core/streaming_loops.h: the per-target table of streaming-store loops
 * (streaming.dispatch.c) that the streaming kernel (streaming.c) picks when it is built. */
#ifndef CKERNEL_STREAMING_LOOPS_H
#define CKERNEL_STREAMING_LOOPS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#  include <xmmintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The line the loops store whole: every user of a loop cuts its runs at these boundaries. */
#define CK__STREAM_LINE 64
/* The shortest contiguous run streamed: four lines (shorter ones are written as usual). */
#define CK__STREAM_MIN_RUN_BYTES (4 * CK__STREAM_LINE)

/* Destination 64-byte aligned; bytes a multiple of 64 / n a whole number of destination
 * lines. No fence: the caller fences once at the end of its run. A cast reads its n source
 * elements `src_stride` bytes apart (any stride, any alignment). */
typedef void (*ck__stream_copy_fn)(char *dst, const char *src, size_t bytes);
typedef void (*ck__stream_cast_fn)(char *dst, const char *src, intptr_t src_stride, size_t n);

/* Writes `bytes` of buf (a buffer in the cache) to d: the lines between d's first and last
 * 64-byte boundaries with the streaming copy, the bytes around them with normal stores. */
static inline void ck__stream_out(ck__stream_copy_fn copy, char *d, const char *buf,
                                  size_t bytes) {
    size_t head = (CK__STREAM_LINE - (uintptr_t)d % CK__STREAM_LINE) % CK__STREAM_LINE;
    head = head < bytes ? head : bytes;
    const size_t body = (bytes - head) / CK__STREAM_LINE * CK__STREAM_LINE;
    memcpy(d, buf, head);
    if (body > 0) {
        copy(d + head, buf + head, body);
    }
    memcpy(d + head + body, buf + head + body, bytes - head - body);
}

/* Orders a run's streaming stores before the kernel returns (none without SSE2: no
 * streaming stores either). */
static inline void ck__stream_fence(void) {
#if defined(__SSE2__)
    _mm_sfence();
#endif
}

/* Asks for the lines of source elements [from, from + count) of a strided source (one
 * prefetch a line, or an element where elements are a line or more apart). A strided source
 * read into streamed stores outran the hardware prefetcher on an AMD EPYC: asking 4 KiB
 * ahead took strided/int32->float64 from 1.0x to 0.75x the plain loop. A prefetch never
 * faults; its addresses are formed as integers, so a source's end is harmless. */
static inline void ck__prefetch_strided(const char *s, intptr_t stride, size_t from,
                                        size_t count) {
#if defined(__SSE2__)
    const size_t as = (size_t)(stride < 0 ? -stride : stride);
    if (as == 0) {
        return; /* a broadcast source stays in L1 */
    }
    const size_t step = as >= 64 ? 1 : 64 / as;
    for (size_t j = 0; j < count; j += step) {
        _mm_prefetch((const char *)((uintptr_t)s + (uintptr_t)(from + j) * (uintptr_t)stride),
                     _MM_HINT_T0);
    }
#else
    (void)s, (void)stride, (void)from, (void)count;
#endif
}

/* How many elements ahead the strided loops ask for: about 4 KiB of source, at least 16. */
static inline size_t ck__prefetch_ahead(intptr_t stride) {
    const size_t as = (size_t)(stride < 0 ? -stride : stride);
    return as == 0 || as >= 256 ? 16 : 4096 / as;
}

typedef struct ck__stream_loops {
    ck__stream_copy_fn copy;
    ck__stream_cast_fn int32_float64;
    ck__stream_cast_fn float32_float64;
    ck__stream_cast_fn float64_float32; /* nocheck only */
    ck__stream_cast_fn float64_int32;   /* nocheck only */
} ck__stream_loops;

#ifdef __cplusplus
}
#endif

#endif
