/* src/targets/cpu.c: CPU feature detection (through Google's cpu_features, which checks
 * that the OS saves the AVX and AVX-512 state, and on aarch64 reads the kernel's HWCAPs,
 * which it sets only for what it supports), cached once, and the target cap from
 * ck_cpu_set_target_cap() and the CKERNEL_CPU_TARGET environment variable. The targets, their
 * names and what each needs are the rows of ckernel/cpu_targets.h. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "ckernel/config.h"
#include "ckernel/cpu.h"
#include "common/internal.h"
#include "targets/cpu_internal.h"

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#  include <cpuinfo_x86.h>
typedef X86Features ck__cpu_feature_set;
#  define CK__CPU_READ_FEATURES() (GetX86Info().features)
#elif defined(__aarch64__) || defined(_M_ARM64)
#  include <cpuinfo_aarch64.h>
#  if defined(__linux__)
#    include <sys/prctl.h> /* PR_SVE_GET_VL: the SVE vector length, for ck_cpu_features */
#  endif
typedef Aarch64Features ck__cpu_feature_set;
#  define CK__CPU_READ_FEATURES() (GetAarch64Info().features)
#elif defined(__arm__) && defined(__ARM_PCS_VFP)
#  include <cpuinfo_arm.h>
typedef ArmFeatures ck__cpu_feature_set;
#  define CK__CPU_READ_FEATURES() (GetArmInfo().features)
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#  include <cpuinfo_ppc.h>
#  include <sys/auxv.h>
/* The ISA levels of POWER8, 9 and 10 (the kernel's HWCAP2 bits). cpu_features 0.7 reads
 * HWCAP2 but has no field for ISA 3.1 (POWER10): that bit is read here. */
typedef struct {
    int vsx, arch207, arch300, arch31;
} ck__cpu_feature_set;
static ck__cpu_feature_set ck__ppc_features(void) {
    const PPCFeatures f = GetPPCInfo().features;
    ck__cpu_feature_set set = {f.vsx, f.arch207, f.arch300, 0};
    set.arch31 = (getauxval(AT_HWCAP2) & 0x00040000u) != 0; /* PPC_FEATURE2_ARCH_3_1 */
    return set;
}
#  define CK__CPU_READ_FEATURES() ck__ppc_features()
#endif

#define CK__CPU_NAME_ROW(arch, name, ENUM, flags, pred) CK__CPU_ARCH_##arch(#name, )
static const char *const ck__target_names[CK_NUM_CPU_TARGETS] = {
    CK_CPU_TARGET_TABLE(CK__CPU_NAME_ROW)};

/* Filled once by ck__cpu_detect. */
static struct {
    ck_cpu_target detected;
    int env_status;           /* CK_OK or why CKERNEL_CPU_TARGET is unusable */
    char env_message[200];
    ck_cpu_target env_cap;    /* CK_NUM_CPU_TARGETS - 1 when the variable is unset */
    int env_set;
    int halves_512;  /* 512-bit operations run as two 256-bit halves (AMD family 19h) */
    int width_env;   /* CKERNEL_VECTOR_WIDTH: 0 unset, else 256 or 512 */
    int vmath_fma_hw;  /* the CPU runs SLEEF's FMA family (x86: AVX2 and FMA; AArch64: always) */
    int vmath_fma_env; /* CKERNEL_VMATH_FMA: -1 unset, 0 off, 1 on */
    char features[256];
} ck__cpu;
/* pthread_once, not C11 call_once: glibc's call_once reaches pthread_once internally, where
 * ThreadSanitizer cannot see the ordering it gives (a false race on every first use). */
static pthread_once_t ck__cpu_once = PTHREAD_ONCE_INIT;
/* The API cap; atomic because kernels may be built on other threads meanwhile. */
static atomic_int ck__api_cap = CK_NUM_CPU_TARGETS - 1;
/* ck__vmath_fma's answer once detection has run (-1 before): the vector-math kernels read it
 * once per chunk, without pthread_once. */
static atomic_int ck__vmath_fma_flag = -1;

static void append_feature(const char *name, int have) {
    if (!have) {
        return;
    }
    size_t len = strlen(ck__cpu.features);
    size_t n = strlen(name);
    if (len + n + 2 < sizeof ck__cpu.features) {
        if (len != 0) {
            ck__cpu.features[len++] = ' ';
        }
        memcpy(ck__cpu.features + len, name, n + 1);
    }
}

static void ck__cpu_detect(void) {
    ck__cpu.detected = CK_CPU_BASELINE;
#ifdef CK__CPU_READ_FEATURES
    const ck__cpu_feature_set features = CK__CPU_READ_FEATURES();
    const ck__cpu_feature_set *f = &features;
#  define CK__CPU_FEATURE_ROW(arch, shown, field) CK__CPU_ARCH_##arch(append_feature(#shown, f->field);)
    CK_CPU_FEATURE_TABLE(CK__CPU_FEATURE_ROW)
#  if defined(PR_SVE_GET_VL) && defined(PR_SVE_VL_LEN_MASK)
    /* SVE leaves are vector-length agnostic; the length they run at is worth showing. */
    const int vl = f->sve ? prctl(PR_SVE_GET_VL) : -1;
    if (vl > 0) {
        char shown[32];
        snprintf(shown, sizeof shown, "sve_vector_bits=%d", (vl & PR_SVE_VL_LEN_MASK) * 8);
        append_feature(shown, 1);
    }
#  endif
    /* Each row needs its own features and every lower row's: the first that fails ends it. */
    int ok = 1;
#  define F(field) &&f->field
#  define CK__CPU_DETECT_ROW(arch, name, ENUM, flags, pred)                                     \
        CK__CPU_ARCH_##arch(ok = ok && (1 pred); if (ok) ck__cpu.detected = CK_CPU_##ENUM;)
    CK_CPU_TARGET_TABLE(CK__CPU_DETECT_ROW)
#  undef F
#  if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
    ck__cpu.vmath_fma_hw = f->avx && f->avx2 && f->fma3;
#  elif defined(__aarch64__) || defined(_M_ARM64)
    ck__cpu.vmath_fma_hw = 1; /* fused multiply-adds are in every AArch64 CPU's base set */
#  endif
#  if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
    /* Zen 4, the one AMD family 19h core with AVX-512 (Zen 5, family 1Ah, has whole 512-bit
     * units). */
    const X86Info info = GetX86Info();
    ck__cpu.halves_512 = strcmp(info.vendor, "AuthenticAMD") == 0 && info.family == 0x19 &&
                         f->avx512f;
#  endif
#else
    append_feature("(no features read on this architecture: baseline only)", 1);
#endif
    ck__cpu.env_cap = (ck_cpu_target)(CK_NUM_CPU_TARGETS - 1);
    ck__cpu.env_status = CK_OK;
    const char *env = getenv("CKERNEL_CPU_TARGET");
    if (env != NULL && env[0] != '\0') {
        ck__cpu.env_set = 1;
        int found = 0;
        for (int t = 0; t < CK_NUM_CPU_TARGETS; t++) {
            if (strcmp(env, ck__target_names[t]) == 0) {
                ck__cpu.env_cap = (ck_cpu_target)t;
                found = 1;
            }
        }
        if (!found) {
            ck__cpu.env_status = CK_ERR_INVALID;
            snprintf(ck__cpu.env_message, sizeof ck__cpu.env_message,
                     "CKERNEL_CPU_TARGET='%.60s' is not a CPU target (%s)", env,
                     ck_cpu_target_choices());
        } else if ((int)ck__cpu.env_cap > (int)ck__cpu.detected) {
            ck__cpu.env_status = CK_ERR_UNSUPPORTED;
            snprintf(ck__cpu.env_message, sizeof ck__cpu.env_message,
                     "CKERNEL_CPU_TARGET=%s but this CPU supports at most %s", env,
                     ck__target_names[ck__cpu.detected]);
        } else if (!ck_cpu_target_compiled(ck__cpu.env_cap)) {
            ck__cpu.env_status = CK_ERR_UNSUPPORTED;
            snprintf(ck__cpu.env_message, sizeof ck__cpu.env_message,
                     "CKERNEL_CPU_TARGET=%s but this build compiled no %s leaves", env, env);
        }
    }
    const char *width = getenv("CKERNEL_VECTOR_WIDTH");
    if (width != NULL && width[0] != '\0') {
        if (strcmp(width, "256") == 0 || strcmp(width, "512") == 0) {
            ck__cpu.width_env = atoi(width);
        } else if (ck__cpu.env_status == CK_OK) {
            ck__cpu.env_status = CK_ERR_INVALID;
            snprintf(ck__cpu.env_message, sizeof ck__cpu.env_message,
                     "CKERNEL_VECTOR_WIDTH='%.60s' is not a vector width (256 or 512)", width);
        }
    }
    ck__cpu.vmath_fma_env = -1;
    const char *vm = getenv("CKERNEL_VMATH_FMA");
    if (vm != NULL && vm[0] != '\0') {
        if (strcmp(vm, "on") == 0 || strcmp(vm, "off") == 0) {
            ck__cpu.vmath_fma_env = strcmp(vm, "on") == 0;
        } else if (ck__cpu.env_status == CK_OK) {
            ck__cpu.env_status = CK_ERR_INVALID;
            snprintf(ck__cpu.env_message, sizeof ck__cpu.env_message,
                     "CKERNEL_VMATH_FMA='%.60s' is neither on nor off", vm);
        }
    }
    atomic_store_explicit(&ck__vmath_fma_flag,
                          ck__cpu.vmath_fma_hw && ck__cpu.vmath_fma_env != 0,
                          memory_order_relaxed);
#if defined(__i386__) && defined(CK__CPU_READ_FEATURES)
    /* 32-bit x86 is compiled with SSE2 arithmetic (-mfpmath=sse): x87's would round twice. */
    if (!f->sse2) {
        ck__cpu.env_status = CK_ERR_UNSUPPORTED;
        snprintf(ck__cpu.env_message, sizeof ck__cpu.env_message,
                 "this 32-bit x86 build needs a CPU with SSE2 (its arithmetic is SSE2's, "
                 "-mfpmath=sse) and this one has none");
    }
#endif
#if CK__CPU_COMPILED_BASELINE_ID > 0
    if (ck__cpu.env_status == CK_OK && (int)ck__cpu.detected < CK__CPU_COMPILED_BASELINE_ID) {
        ck__cpu.env_status = CK_ERR_UNSUPPORTED;
        snprintf(ck__cpu.env_message, sizeof ck__cpu.env_message,
                 "this build requires a %s CPU (CK_CPU_BASELINE) but this machine is %s",
                 ck__target_names[CK__CPU_COMPILED_BASELINE_ID],
                 ck__target_names[ck__cpu.detected]);
    }
#endif
}

static void ck__cpu_init(void) {
    pthread_once(&ck__cpu_once, ck__cpu_detect);
}

const char *ck_cpu_target_note(ck_cpu_target t) {
#if defined(__arm__) && defined(__ARM_PCS_VFP)
    if (t == CK_CPU_NEON) {
        return "NEON for integer and conversion loops; float arithmetic on VFP (NEON's "
               "flushes subnormals, and GCC vectorises float arithmetic only under "
               "-funsafe-math-optimizations)";
    }
#endif
    (void)t;
    return NULL;
}

const char *ck_cpu_target_name(ck_cpu_target t) {
    return (unsigned)t < CK_NUM_CPU_TARGETS ? ck__target_names[t] : NULL;
}

int ck_cpu_target_parse(const char *name, ck_cpu_target *out) {
    for (int t = 0; name != NULL && t < CK_NUM_CPU_TARGETS; t++) {
        if (strcmp(name, ck__target_names[t]) == 0) {
            *out = (ck_cpu_target)t;
            return CK_OK;
        }
    }
    return ck_set_error(CK_ERR_INVALID, "unknown CPU target '%s' (%s)",
                        name != NULL ? name : "(null)", ck_cpu_target_choices());
}

/* Written once, from the constant names, under its own pthread_once: readers after it need
 * no lock. */
static char ck__choices[64];

static void ck__choices_init(void) {
    for (int t = 0; t < CK_NUM_CPU_TARGETS; t++) {
        const char *sep = t == 0 ? "" : t + 1 < CK_NUM_CPU_TARGETS ? ", " : " or ";
        const size_t len = strlen(ck__choices);
        snprintf(ck__choices + len, sizeof ck__choices - len, "%s%s", sep, ck__target_names[t]);
    }
}

const char *ck_cpu_target_choices(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, ck__choices_init);
    return ck__choices;
}

int ck_cpu_target_compiled(ck_cpu_target t) {
    return (unsigned)t < CK_NUM_CPU_TARGETS && (CK__CPU_COMPILED_MASK & (1u << t)) != 0;
}

ck_cpu_target ck_cpu_detected_target(void) {
    ck__cpu_init();
    return ck__cpu.detected;
}

ck_cpu_target ck_cpu_target_ceiling(void) {
    ck__cpu_init();
    if (ck__cpu.env_status == CK_OK && (int)ck__cpu.env_cap < (int)ck__cpu.detected) {
        return ck__cpu.env_cap;
    }
    return ck__cpu.detected;
}

/* ck_cpu_best_target once detection has run. */
static ck_cpu_target best_target_detected(void) {
    int best = (int)ck__cpu.detected;
    if (ck__cpu.env_status == CK_OK && (int)ck__cpu.env_cap < best) {
        best = (int)ck__cpu.env_cap;
    }
    const int api = atomic_load_explicit(&ck__api_cap, memory_order_relaxed);
    if (api < best) {
        best = api;
    }
    while (best > 0 && !ck_cpu_target_compiled((ck_cpu_target)best)) {
        best--;
    }
    return (ck_cpu_target)best;
}

ck_cpu_target ck_cpu_best_target(void) {
    ck__cpu_init();
    return best_target_detected();
}

int ck_cpu_set_target_cap(ck_cpu_target cap) {
    ck__cpu_init();
    if ((unsigned)cap >= CK_NUM_CPU_TARGETS) {
        return ck_set_error(CK_ERR_INVALID, "ck_cpu_set_target_cap: unknown target %d", (int)cap);
    }
    if ((int)cap > (int)ck__cpu.detected) {
        return ck_set_error(CK_ERR_UNSUPPORTED,
                            "ck_cpu_set_target_cap(%s): this CPU supports at most %s",
                            ck__target_names[cap], ck__target_names[ck__cpu.detected]);
    }
    if (!ck_cpu_target_compiled(cap)) {
        return ck_set_error(CK_ERR_UNSUPPORTED,
                            "ck_cpu_set_target_cap(%s): this build compiled no %s leaves",
                            ck__target_names[cap], ck__target_names[cap]);
    }
    atomic_store_explicit(&ck__api_cap, (int)cap, memory_order_relaxed);
    return CK_OK;
}

/* ck_cpu_check once detection has run. */
static int env_checked(void) {
    if (ck__cpu.env_status != CK_OK) {
        return ck_set_error(ck__cpu.env_status, "%s", ck__cpu.env_message);
    }
    return CK_OK;
}

int ck_cpu_check(void) {
    ck__cpu_init();
    return env_checked();
}

/* Every scalar leaf's build asks: one pthread_once, not one per question. */
int ck__cpu_target_for_build(ck_cpu_target *out) {
    ck__cpu_init();
    CK__RETURN_IF_ERROR(env_checked());
    *out = best_target_detected();
    return CK_OK;
}

const char *ck_cpu_target_reason(void) {
    ck__cpu_init();
    static _Thread_local char reason[96];
    const ck_cpu_target best = ck_cpu_best_target();
    const int api = atomic_load_explicit(&ck__api_cap, memory_order_relaxed);
    if (ck__cpu.env_status != CK_OK) {
        return ck__cpu.env_message;
    }
    if (best == ck__cpu.detected) {
        return "best supported";
    }
    if (api == (int)best && api < (int)ck__cpu.env_cap) {
        snprintf(reason, sizeof reason, "capped by ck_cpu_set_target_cap(%s)",
                 ck__target_names[api]);
    } else if (ck__cpu.env_set && (int)ck__cpu.env_cap == (int)best) {
        snprintf(reason, sizeof reason, "capped by CKERNEL_CPU_TARGET=%s",
                 ck__target_names[best]);
    } else {
        snprintf(reason, sizeof reason, "best compiled (%s is supported but not compiled)",
                 ck__target_names[ck__cpu.detected]);
    }
    return reason;
}

ck_cpu_target ck_cpu_bandwidth_target(const char **reason) {
    ck__cpu_init();
    ck_cpu_target t = ck_cpu_best_target();
    const char *why = "the target in use";
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
    if (t == CK_CPU_AVX512) {
        const int narrow = ck__cpu.width_env == 256 || (ck__cpu.width_env == 0 && ck__cpu.halves_512);
        if (ck__cpu.width_env != 0) {
            why = ck__cpu.width_env == 256 ? "CKERNEL_VECTOR_WIDTH=256" : "CKERNEL_VECTOR_WIDTH=512";
        } else if (ck__cpu.halves_512) {
            why = "AMD family 19h runs 512-bit operations as two halves; "
                  "CKERNEL_VECTOR_WIDTH=512 keeps avx512";
        }
        if (narrow && !ck_cpu_target_compiled(CK_CPU_AVX2)) {
            why = "the target in use (avx2 is not compiled: CK_CPU_DISPATCH)";
        } else if (narrow) {
            t = CK_CPU_AVX2;
        }
    }
#endif
    if (reason != NULL) {
        *reason = why;
    }
    return t;
}

const char *ck_cpu_features(void) {
    ck__cpu_init();
    return ck__cpu.features;
}

int ck__vmath_fma(void) {
    int v = atomic_load_explicit(&ck__vmath_fma_flag, memory_order_relaxed);
    if (v < 0) {
        ck__cpu_init();
        v = atomic_load_explicit(&ck__vmath_fma_flag, memory_order_relaxed);
    }
    return v;
}

int ck_cpu_vector_math_fma(const char **reason) {
    ck__cpu_init();
    const int fma = ck__vmath_fma();
    if (reason != NULL) {
        *reason = fma                            ? "the CPU has them"
                  : ck__cpu.vmath_fma_env == 0   ? "CKERNEL_VMATH_FMA=off"
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
                  : ck__cpu.vmath_fma_hw == 0    ? "the CPU has no AVX2 and FMA"
#endif
                                                 : "none on this architecture's SLEEF";
    }
    return fma;
}
