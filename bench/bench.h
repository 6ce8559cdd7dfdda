/* bench/bench.h: the benchmark behind `ckernel bench` (issue 7): the timing harness, the
 * workloads, the plain-C baseline loops they are compared with, and the runner that goes
 * over workloads x CPU targets x thread counts. Everything here uses ckernel's public API
 * only. Compiled without -march flags, so the baseline loops are baseline-target code.
 *
 *   harness.c    clock, median of interleaved samples after warm-up, machine description
 *   baselines.c  the plain C loops (same semantics as the kernels, element for element)
 *   workloads.c  the workload and kind tables behind the functions below; the kinds'
 *                functions in workloads_<family>.c, what they share in workloads_common.c
 *                (workloads.h lists them)
 *   runner.c     which targets can run, the cap/measure/restore loop, filtering */
#ifndef CKERNEL_BENCH_H
#define CKERNEL_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/ckernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- harness (harness.c) */

typedef struct ckb_settings {
    int repeats;          /* timed samples per measurement; the median is reported */
    int warmups;          /* untimed runs of each function before sampling */
    double min_sample_ns; /* short operations are batched until one sample lasts this long */
    int threads;          /* threads the workload runs on: 1, or more through
                           * ck_parallel_strided for the workloads ckb_workload_threaded names */
    int cpu_clock;        /* time single-threaded measurements by the calling thread's CPU
                           * time (CLOCK_THREAD_CPUTIME_ID), not the wall clock: what another
                           * process takes of the CPU is not counted (what it takes of the
                           * memory bandwidth and the caches still is) */
} ckb_settings;

/* Full run and --quick. */
void ckb_settings_default(ckb_settings *s, int quick);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t ckb_now_ns(void);
/* The clock a measurement with these settings reads, in nanoseconds: CLOCK_MONOTONIC, or the
 * calling thread's CPU time when s->cpu_clock is set and the workload runs on one thread. */
uint64_t ckb_clock_ns(const ckb_settings *s);

/* A timed function: returns CK_OK or a status (which stops the measurement). */
typedef int (*ckb_timed_fn)(void *ctx);

/* Measures nfn (1..4) functions over the same context: each is warmed up, batched to
 * min_sample_ns, then sampled `repeats` times in interleaved rounds (f0, f1, f2, f0, ...)
 * so that noise from other processes hits all of them alike. median_ns[i] is the median
 * time of ONE call of fns[i]; spread[i] (when spread is not NULL) is (max - min) / median
 * of its samples, a noise indicator. Returns CK_OK or the first failing status. */
int ckb_measure(ckb_timed_fn const *fns, int nfn, void *ctx, const ckb_settings *s,
                double *median_ns, double *spread);

/* Median of v[0..n) (sorts v); 0 for n == 0. */
double ckb_median(double *v, size_t n);

/* Sink that defeats dead-code elimination: outputs are folded into it after timed calls. */
extern volatile uint64_t ckb_sink;
void ckb_touch(const void *p, size_t bytes);

typedef struct ckb_machine {
    char cpu[128];      /* "model name" of /proc/cpuinfo ("unknown" elsewhere) */
    int cores;          /* online processors */
    char detected[16];  /* ck_cpu_detected_target */
    char compiled[64];  /* compiled targets, space separated */
    char features[256]; /* ck_cpu_features */
    char date[32];      /* UTC, ISO 8601 */
    double loadavg;     /* 1-minute load average when the run started; < 0: unknown */
} ckb_machine;
void ckb_machine_describe(ckb_machine *m);

/* The C flags the bench (and so the baseline loops) was compiled with. */
const char *ckb_compile_flags(void);

/* ---------------------------------------------------------------- workloads (workloads.c) */

/* ns per element, ns per whole operation, or (for JIT compiles) ms per operation: `ns` is
 * always in nanoseconds, the unit says how it is reported. */
typedef enum ckb_unit { CKB_PER_ELEM = 0, CKB_PER_OP = 1, CKB_MS_PER_OP = 2 } ckb_unit;

typedef struct ckb_result {
    char workload[64];
    char target[16]; /* the CPU target the kernel's leaves were built for */
    int threads;
    uint64_t elements;      /* elements per operation */
    ckb_unit unit;          /* ns is per element or per whole operation */
    double ns;              /* median ckernel time per element / per op */
    double gb_per_s;        /* (bytes read + written) / time; < 0: not applicable */
    double ratio_memcpy;    /* ckernel time / memcpy time; < 0: not applicable */
    double ratio_loop;      /* ckernel time / plain C loop time; < 0: not applicable */
    double memcpy_gb_per_s; /* bandwidth of the memcpy baseline (2 x dst bytes / time) */
    double loop_ns;         /* the plain loop's median, same unit as ns; < 0: n/a */
    double heap_allocs;     /* heap allocations per build; < 0: not measured */
    double spread;          /* (max - min) / median of the ckernel samples: noise */
    double ratio_composed;  /* jit/<case>/jit: compiled kernel time / the composed kernel's
                             * (CK_EVAL_NO_JIT), sampled interleaved in the same run; else < 0 */
    double compile_ms;      /* jit/<case>/jit: the compile of its kernel (built before timing,
                             * so not in ns); else < 0 */
    const char *errmode;    /* "nocheck", "fractional", ... */
    const char *note;       /* what the figures include (static text) or "" */
    int verified;           /* 1: kernel output == plain loop output after timing */
} ckb_result;

size_t ckb_workload_count(void);
const char *ckb_workload_name(size_t i);
/* 1 for workloads run once per CPU target (incache/...), else 0: they run at the current
 * target. */
int ckb_workload_per_target(size_t i);

/* 1 for workloads also run on more than one thread (through ck_parallel_strided). */
int ckb_workload_threaded(size_t i);

/* 1 for the workloads that need the JIT (jit/<case>/jit, jit/compile/...); the
 * jit/<case>/composed ones run everywhere. */
int ckb_workload_needs_jit(size_t i);

/* 1 when workload i cannot run in this process, with the reason in `why`: the JIT is not
 * available (a build without LLVM, CKERNEL_JIT=0, a plugin that does not load: the reason
 * is ck_jit_info.status), or, for jit/compile/first, a kernel was compiled in this process
 * before the bench's first JIT build. The runner reports these as skipped, never failed. */
int ckb_workload_skip(size_t i, char *why, size_t why_size);

/* Work that must come before any workload runs: when `filter` selects jit/compile/first,
 * the first JIT kernel build of the process is measured now (once per process; see
 * workloads_jit.c). ckb_run calls it first. */
void ckb_prepare(const char *filter, const ckb_settings *s);

/* Sets up workload i (buffers allocated and page-faulted, source filled, kernel built at the
 * current CPU target), measures the kernel and both baselines, checks the kernel's output
 * against the plain loop's, frees everything. CK_OK or a ckernel status (message in
 * ck_last_error; verification failure is not an error: out->verified says it). */
int ckb_workload_run(size_t i, const ckb_settings *s, ckb_result *out);

/* Sets up workload i, runs the kernel once and the plain loop once (into a separate buffer)
 * and compares them bit for bit. Returns CK_OK with *equal set, or a ckernel status. When
 * they differ, msg tells the first differing byte. */
int ckb_workload_verify(size_t i, int *equal, char *msg, size_t msg_size);

/* ---------------------------------------------------------------- runner (runner.c) */

/* Targets compiled in AND supported by this CPU, lowest first; returns how many. */
int ckb_runnable_targets(ck_cpu_target *out, int max);

typedef struct ckb_run_options {
    ckb_settings settings;
    const char *filter; /* NULL: every workload; else names containing it */
    int has_target;     /* run everything at `target` only (already checked runnable) */
    ck_cpu_target target;
} ckb_run_options;

typedef struct ckb_callbacks {
    void *ctx;
    void (*result)(void *ctx, const ckb_result *r);
    /* A workload x target that could not run (avx512 on a CPU without it). */
    void (*skipped)(void *ctx, const char *workload, const char *target, const char *reason);
    /* A workload that failed with a ckernel status. */
    void (*failed)(void *ctx, const char *workload, const char *target, int status,
                   const char *message);
} ckb_callbacks;

/* Number of workloads the filter selects. */
size_t ckb_count_selected(const char *filter);
/* Runs the selected workloads; restores the CPU target cap it found. Returns the number of
 * failed runs (ckernel errors) plus mismatching ones. */
int ckb_run(const ckb_run_options *o, const ckb_callbacks *cb);

#ifdef __cplusplus
}
#endif

#endif
