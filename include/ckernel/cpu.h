/* ckernel/cpu.h: the CPU targets leaf loops are compiled for, and which one kernels use.
 * Every leaf is compiled once per target of the architecture (docs/design.md §8; the targets
 * are the rows of ckernel/cpu_targets.h); when a kernel is built, its leaves come from the
 * best target that is compiled in, supported by this machine (OS state saving included),
 * and allowed by the cap. The cap can only lower the target: set it with
 * ck_cpu_set_target_cap() or the CKERNEL_CPU_TARGET environment variable (a target's name,
 * read once, at first use). */
#ifndef CKERNEL_CPU_H
#define CKERNEL_CPU_H

#include <stddef.h>

#include "ckernel/cpu_targets.h"
#include "ckernel/export.h"

CK_BEGIN_DECLS

/* The targets of the architecture this is compiled for, lowest first: x86-64 CK_CPU_BASELINE
 * (SSE2), CK_CPU_AVX2 (x86-64-v3: AVX2, FMA, F16C, BMI1/2, MOVBE), CK_CPU_AVX512 (x86-64-v4:
 * AVX-512 F/BW/CD/DQ/VL); aarch64 CK_CPU_BASELINE (ARMv8-A, ASIMD), CK_CPU_ASIMDHP
 * (ARMv8.2-A: FP16 arithmetic and conversions, dot product), CK_CPU_SVE (SVE, any vector
 * length); elsewhere CK_CPU_BASELINE only. */
#define CK__CPU_ENUMERATOR(arch, name, ENUM, flags, pred) CK__CPU_ARCH_##arch(CK_CPU_##ENUM, )
typedef enum ck_cpu_target { CK_CPU_TARGET_TABLE(CK__CPU_ENUMERATOR) } ck_cpu_target;
#undef CK__CPU_ENUMERATOR
#define CK__CPU_COUNT_ROW(arch, name, ENUM, flags, pred) CK__CPU_ARCH_##arch(+1)
/* The number of targets of this architecture (3 on x86-64 and aarch64). */
#define CK_NUM_CPU_TARGETS (0 CK_CPU_TARGET_TABLE(CK__CPU_COUNT_ROW))

/* The target's name ("baseline", "avx2", "avx512"; "baseline", "asimdhp", "sve"); NULL for
 * other values. */
CK_EXTERN const char *ck_cpu_target_name(ck_cpu_target t);
/* Parses this architecture's names; CK_ERR_INVALID with a message listing them for anything
 * else. */
CK_EXTERN int ck_cpu_target_parse(const char *name, ck_cpu_target *out);
/* This architecture's target names for messages, lowest first: "baseline, avx2 or avx512". */
CK_EXTERN const char *ck_cpu_target_choices(void);
/* 1 when leaves were compiled for t in this build. */
CK_EXTERN int ck_cpu_target_compiled(ck_cpu_target t);
/* What target t leaves to the targets below it, for `ckernel info`; NULL when nothing (every
 * target but 32-bit Arm's neon, which GCC uses for integer and conversion loops only: NEON's
 * float arithmetic flushes subnormals, so float arithmetic stays on VFP). */
CK_EXTERN const char *ck_cpu_target_note(ck_cpu_target t);
/* The best target this machine supports (compiled or not). */
CK_EXTERN ck_cpu_target ck_cpu_detected_target(void);
/* The highest target a cap can give: the detected one, lowered by CKERNEL_CPU_TARGET when
 * that is set and usable. What to iterate up to when trying every target (the tests and the
 * bench do), so that a run capped by the environment stays within it. */
CK_EXTERN ck_cpu_target ck_cpu_target_ceiling(void);
/* The target kernels built now use: the best compiled, supported target within the cap. */
CK_EXTERN ck_cpu_target ck_cpu_best_target(void);
/* Lowers (or restores) the cap for kernels built from now on. CK_ERR_UNSUPPORTED when the
 * machine lacks `cap` or the build did not compile it; the cap is unchanged then. It never
 * raises the target above what CKERNEL_CPU_TARGET allows. */
CK_EXTERN int ck_cpu_set_target_cap(ck_cpu_target cap);
/* Checks the environment and the machine once: CK_OK, or the error kernels would report
 * (an unknown CKERNEL_CPU_TARGET, a target this machine lacks, a machine below the compiled
 * baseline), with the message in ck_last_error(). */
CK_EXTERN int ck_cpu_check(void);
/* Why the current target was chosen, for `ckernel info`: "best supported",
 * "capped by CKERNEL_CPU_TARGET=avx2", "capped by ck_cpu_set_target_cap(baseline)". */
CK_EXTERN const char *ck_cpu_target_reason(void);
/* The target of the loops whose speed is the memory's: the elementwise arithmetic and
 * comparison leaves (add ... logical_or, equal ... greater_equal), the streaming-store loops
 * (ck_get_streaming_threshold) and the reductions' folds of whole rows (over an outer
 * axis). It is ck_cpu_best_target(), except that on a CPU that runs
 * each 512-bit operation as two 256-bit halves (AMD family 19h: Zen 4) avx512 gives way to
 * avx2, whose 256-bit loads stream from memory faster there (a Zen 4 EPYC, ns per element:
 * elementwise/add/float64/var 0.87-0.95 -> 0.78-0.81, contiguous float64 -> int32 0.34-0.36
 * -> 0.29-0.32); the other leaves keep avx512, whose conversions win in the cache.
 * CKERNEL_VECTOR_WIDTH=256 or 512 (read once, at first use) decides instead of the CPU: 256
 * takes avx2 wherever avx512 would be used, 512 keeps avx512; other values are reported by
 * ck_cpu_check(). Results are the same either way. *reason, when not NULL, says which rule
 * decided. */
CK_EXTERN ck_cpu_target ck_cpu_bandwidth_target(const char **reason);
/* Which of SLEEF's two deterministic families the vector-math functions (exp, log, sin,
 * power, ...: docs/design.md §10) run: 1, the one with fused multiply-adds (finz), on every
 * CPU that has them (x86-64 with AVX2 and FMA, every AArch64), the default; 0, the one
 * without (cinz), on x86-64 CPUs without them or when CKERNEL_VMATH_FMA=off (read once, at
 * first use; "on" is the default). Each family gives the same bits on every CPU and target
 * that runs it, and each is within 1 ULP, but the two differ from each other in the last bit
 * of some results: a cluster that mixes CPUs with and without FMA and wants one answer sets
 * CKERNEL_VMATH_FMA=off everywhere (the FMA family is the faster one: bench's math/ rows).
 * *reason, when not NULL, says why. */
CK_EXTERN int ck_cpu_vector_math_fma(const char **reason);
/* The detected features ckernel cares about, space separated ("sse2 avx avx2 fma f16c
 * avx512f ...", "asimd fphp asimdhp asimddp sve ..."). */
CK_EXTERN const char *ck_cpu_features(void);

/* ---- streaming (non-temporal) stores ----
 * A destination too large to stay in the cache is written with streaming stores, which skip
 * reading each destination line before overwriting it. The decision is taken when a kernel
 * is built, from the total size of the destination (a parallel evaluation decides for the
 * whole array, not per task). The default threshold is 3/4 of the last-level cache (the
 * destination and its source cannot both stay cached beyond it), where a cache that claims
 * more than 16 MiB for each CPU sharing it counts as 16 MiB per CPU (no core has more: such a
 * figure is a virtual machine reporting its host's cache); when nothing says which CPUs
 * share it, every online CPU is counted. CKERNEL_STREAMING_MIN_BYTES (a byte count, or
 * "off") replaces it, read once, at first use. */
/* Size of the largest cache level in bytes, from /sys (one instance: what one core's
 * data can use), else sysconf; 0 when unknown. */
CK_EXTERN size_t ck_cpu_llc_bytes(void);
/* Destinations of at least this many bytes get streaming stores; SIZE_MAX: never. */
CK_EXTERN size_t ck_get_streaming_threshold(void);
/* Sets the threshold for kernels built from now on: SIZE_MAX turns streaming off, 0 goes
 * back to the default (the environment's, else 3/4 of the last-level cache). */
CK_EXTERN void ck_set_streaming_threshold(size_t bytes);
/* Where the threshold comes from, for `ckernel info`: "3/4 of the 32 MiB last-level cache
 * (sysfs)", "3/4 of 2 x 16 MiB: the 480 MiB last-level cache that sysfs reports for 2 CPUs
 * is more than any core has (...)", "3/4 of 2 x 16 MiB: sysconf reports a 508 MiB last-level
 * cache and not which CPUs share it; (...)", "CKERNEL_STREAMING_MIN_BYTES",
 * "ck_set_streaming_threshold", "no streaming stores on this architecture". */
CK_EXTERN const char *ck_streaming_threshold_reason(void);

CK_END_DECLS

#endif
