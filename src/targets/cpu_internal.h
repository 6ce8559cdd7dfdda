/* src/targets/cpu_internal.h: what the kernel layer asks of the targets layer. */
#ifndef CKERNEL_CPU_INTERNAL_H
#define CKERNEL_CPU_INTERNAL_H

#include "ckernel/cpu.h"
#include "targets/cpu_compiled.h" /* generated: CK__CPU_COMPILED_MASK, CK__CPU_COMPILED_BASELINE */

#ifdef __cplusplus
extern "C" {
#endif

/* The target for a kernel being built now, or the error that forbids building (an unusable
 * CKERNEL_CPU_TARGET, a machine below the compiled baseline). */
int ck__cpu_target_for_build(ck_cpu_target *out);

/* ck_cpu_vector_math_fma() without its reason, at one relaxed load once known: the vector
 * math kernels (leaves/math/vmath_ops.h) ask it once per chunk. */
int ck__vmath_fma(void);

/* The streaming-store threshold in effect (ck_get_streaming_threshold), for builds: one
 * relaxed load once known (src/targets/streaming_threshold.c). */
size_t ck__streaming_min_bytes(void);

#ifdef __cplusplus
}
#endif

#endif
