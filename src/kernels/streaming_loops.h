/* src/kernels/streaming_loops.h: the per-target table of streaming-store loops
 * (streaming.dispatch.c) that the streaming kernel (streaming.c) picks when it is built. */
#ifndef CKERNEL_STREAMING_LOOPS_H
#define CKERNEL_STREAMING_LOOPS_H

#include <stddef.h>

/* Destination 64-byte aligned; bytes a multiple of 64 / n a whole number of destination
 * lines. No fence: the caller fences once at the end of its run. */
typedef void (*ck__stream_copy_fn)(char *dst, const char *src, size_t bytes);
typedef void (*ck__stream_cast_fn)(char *dst, const char *src, size_t n);

typedef struct ck__stream_loops {
    ck__stream_copy_fn copy;
    ck__stream_cast_fn int32_float64;
    ck__stream_cast_fn float32_float64;
    ck__stream_cast_fn float64_float32; /* nocheck only */
    ck__stream_cast_fn float64_int32;   /* nocheck only */
} ck__stream_loops;

#endif
