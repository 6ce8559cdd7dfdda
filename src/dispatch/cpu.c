/* src/dispatch/cpu.c: CPU feature detection (through Google's cpu_features, which checks
 * that the OS saves the AVX and AVX-512 state), cached once, and the target cap from
 * ck_cpu_set_target_cap() and the CKERNEL_CPU_TARGET environment variable. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "ckernel/config.h"
#include "ckernel/cpu.h"
#include "common/internal.h"
#include "dispatch/cpu_internal.h"

#if defined(__x86_64__) || defined(_M_X64)
#  include <cpuinfo_x86.h>
#  define CK__X86 1
#else
#  define CK__X86 0
#endif

static const char *const ck__target_names[CK_NUM_CPU_TARGETS] = {"baseline", "avx2", "avx512"};

/* Filled once by ck__cpu_detect. */
static struct {
    ck_cpu_target detected;
    int env_status;           /* CK_OK or why CKERNEL_CPU_TARGET is unusable */
    char env_message[200];
    ck_cpu_target env_cap;    /* CK_NUM_CPU_TARGETS - 1 when the variable is unset */
    int env_set;
    char features[256];
} ck__cpu;
/* pthread_once, not C11 call_once: glibc's call_once reaches pthread_once internally, where
 * ThreadSanitizer cannot see the ordering it gives (a false race on every first use). */
static pthread_once_t ck__cpu_once = PTHREAD_ONCE_INIT;
/* The API cap; atomic because kernels may be built on other threads meanwhile. */
static atomic_int ck__api_cap = CK_NUM_CPU_TARGETS - 1;

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
#if CK__X86
    const X86Info info = GetX86Info();
    const X86Features *f = &info.features;
    append_feature("sse2", f->sse2);
    append_feature("sse4_2", f->sse4_2);
    append_feature("avx", f->avx);
    append_feature("avx2", f->avx2);
    append_feature("fma", f->fma3);
    append_feature("f16c", f->f16c);
    append_feature("bmi1", f->bmi1);
    append_feature("bmi2", f->bmi2);
    append_feature("movbe", f->movbe);
    append_feature("avx512f", f->avx512f);
    append_feature("avx512bw", f->avx512bw);
    append_feature("avx512cd", f->avx512cd);
    append_feature("avx512dq", f->avx512dq);
    append_feature("avx512vl", f->avx512vl);
    const int v3 = f->avx && f->avx2 && f->fma3 && f->f16c && f->bmi1 && f->bmi2 && f->movbe;
    const int v4 = v3 && f->avx512f && f->avx512bw && f->avx512cd && f->avx512dq && f->avx512vl;
    ck__cpu.detected = v4 ? CK_CPU_AVX512 : v3 ? CK_CPU_AVX2 : CK_CPU_BASELINE;
#else
    append_feature("(no x86 features: baseline only)", 1);
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
                     "CKERNEL_CPU_TARGET='%.60s' is not a CPU target (baseline, avx2 or avx512)",
                     env);
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
    return ck_set_error(CK_ERR_INVALID, "unknown CPU target '%s' (baseline, avx2 or avx512)",
                        name != NULL ? name : "(null)");
}

int ck_cpu_target_compiled(ck_cpu_target t) {
    return (unsigned)t < CK_NUM_CPU_TARGETS && (CK__CPU_COMPILED_MASK & (1u << t)) != 0;
}

ck_cpu_target ck_cpu_detected_target(void) {
    ck__cpu_init();
    return ck__cpu.detected;
}

ck_cpu_target ck_cpu_best_target(void) {
    ck__cpu_init();
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

int ck_cpu_check(void) {
    ck__cpu_init();
    if (ck__cpu.env_status != CK_OK) {
        return ck_set_error(ck__cpu.env_status, "%s", ck__cpu.env_message);
    }
    return CK_OK;
}

int ck__cpu_target_for_build(ck_cpu_target *out) {
    CK_RETURN_IF_ERROR(ck_cpu_check());
    *out = ck_cpu_best_target();
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

const char *ck_cpu_features(void) {
    ck__cpu_init();
    return ck__cpu.features;
}
