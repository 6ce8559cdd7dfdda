/* ckernel/cpu.h: the CPU targets leaf loops are compiled for, and which one kernels use.
 * Every leaf is compiled once per target (docs/design.md §8); when a kernel is built, its
 * leaves come from the best target that is compiled in, supported by this machine (OS state
 * saving included), and allowed by the cap. The cap can only lower the target: set it with
 * ck_cpu_set_target_cap() or the CKERNEL_CPU_TARGET environment variable
 * (baseline|avx2|avx512, read once, at first use). */
#ifndef CKERNEL_CPU_H
#define CKERNEL_CPU_H

#include "ckernel/export.h"

CK_BEGIN_DECLS

typedef enum ck_cpu_target {
    CK_CPU_BASELINE = 0, /* x86-64 (SSE2); the only target elsewhere */
    CK_CPU_AVX2 = 1,     /* x86-64-v3: AVX2, FMA, F16C, BMI1/2, MOVBE */
    CK_CPU_AVX512 = 2    /* x86-64-v4: AVX-512 F/BW/CD/DQ/VL */
} ck_cpu_target;
#define CK_NUM_CPU_TARGETS 3

/* "baseline", "avx2", "avx512"; NULL for other values. */
CK_EXTERN const char *ck_cpu_target_name(ck_cpu_target t);
/* Parses those names; CK_ERR_INVALID with a message for anything else. */
CK_EXTERN int ck_cpu_target_parse(const char *name, ck_cpu_target *out);
/* 1 when leaves were compiled for t in this build. */
CK_EXTERN int ck_cpu_target_compiled(ck_cpu_target t);
/* The best target this machine supports (compiled or not). */
CK_EXTERN ck_cpu_target ck_cpu_detected_target(void);
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
/* The detected features ckernel cares about, space separated ("sse2 avx avx2 fma f16c
 * avx512f ..."). */
CK_EXTERN const char *ck_cpu_features(void);

CK_END_DECLS

#endif
