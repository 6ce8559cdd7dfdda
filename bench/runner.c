/* bench/runner.c: which workloads and targets run, and in what order. Workloads run at the
 * current target (the best one, or --target's), except the per-target ones (incache/...):
 * those run once per target that is compiled in AND supported by this CPU, each with the
 * cap set before the kernel is built and restored afterwards. A compiled target this CPU
 * lacks (avx512 on an AVX2 machine), or that CKERNEL_CPU_TARGET excludes, is skipped with a
 * note, never run. The thread
 * dimension is a list: today {1}; the parallel backend will add more. Workloads that need
 * what this process lacks (the jit/... ones without a JIT) are skipped with the reason
 * ckb_workload_skip gives, never failed. */
#include <stdio.h>
#include <string.h>

#include "bench.h"

int ckb_runnable_targets(ck_cpu_target *out, int max) {
    int n = 0;
    const ck_cpu_target ceiling = ck_cpu_target_ceiling();
    for (int t = 0; t < CK_NUM_CPU_TARGETS && n < max; t++) {
        if (ck_cpu_target_compiled((ck_cpu_target)t) && t <= (int)ceiling) {
            out[n++] = (ck_cpu_target)t;
        }
    }
    return n;
}

static int selected(size_t i, const char *filter) {
    return filter == NULL || strstr(ckb_workload_name(i), filter) != NULL;
}

size_t ckb_count_selected(const char *filter) {
    size_t n = 0;
    for (size_t i = 0; i < ckb_workload_count(); i++) {
        n += (size_t)selected(i, filter);
    }
    return n;
}

static int run_one(size_t i, const ckb_settings *s, const char *target,
                   const ckb_callbacks *cb) {
    ckb_result r;
    ck_clear_error();
    int rc = ckb_workload_run(i, s, &r);
    if (rc != CK_OK) {
        cb->failed(cb->ctx, ckb_workload_name(i), target, rc, ck_last_error());
        return 1;
    }
    cb->result(cb->ctx, &r);
    return r.verified ? 0 : 1;
}

int ckb_run(const ckb_run_options *o, const ckb_callbacks *cb) {
    /* The thread counts to run; the harness reports them in every result. */
    static const int thread_counts[] = {1, 2};
    const ck_cpu_target restore = ck_cpu_best_target();
    ck_cpu_target targets[CK_NUM_CPU_TARGETS];
    int ntargets = ckb_runnable_targets(targets, CK_NUM_CPU_TARGETS);
    if (o->has_target) {
        targets[0] = o->target;
        ntargets = 1;
    }
    int failures = 0;
    ckb_prepare(o->filter, &o->settings); /* before any workload: the first JIT compile */
    for (size_t i = 0; i < ckb_workload_count(); i++) {
        if (!selected(i, o->filter)) {
            continue;
        }
        char lacks[256];
        if (ckb_workload_skip(i, lacks, sizeof lacks)) {
            cb->skipped(cb->ctx, ckb_workload_name(i),
                        ck_cpu_target_name(ck_cpu_best_target()), lacks);
            continue;
        }
        for (size_t k = 0; k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
            ckb_settings s = o->settings;
            s.threads = thread_counts[k];
            if (s.threads > 1 && !ckb_workload_threaded(i)) {
                continue;
            }
            if (!ckb_workload_per_target(i)) {
                failures += run_one(i, &s, ck_cpu_target_name(ck_cpu_best_target()), cb);
                continue;
            }
            if (!o->has_target) {
                for (int t = 0; t < CK_NUM_CPU_TARGETS; t++) {
                    if (ck_cpu_target_compiled((ck_cpu_target)t) &&
                        t > (int)ck_cpu_target_ceiling()) {
                        char why[128];
                        if (t > (int)ck_cpu_detected_target()) {
                            snprintf(why, sizeof why,
                                     "compiled, but this CPU lacks it (detected %s)",
                                     ck_cpu_target_name(ck_cpu_detected_target()));
                        } else {
                            snprintf(why, sizeof why, "above CKERNEL_CPU_TARGET=%s",
                                     ck_cpu_target_name(ck_cpu_target_ceiling()));
                        }
                        cb->skipped(cb->ctx, ckb_workload_name(i),
                                    ck_cpu_target_name((ck_cpu_target)t), why);
                    }
                }
            }
            for (int t = 0; t < ntargets; t++) {
                int rc = ck_cpu_set_target_cap(targets[t]);
                if (rc != CK_OK) {
                    cb->failed(cb->ctx, ckb_workload_name(i), ck_cpu_target_name(targets[t]),
                               rc, ck_last_error());
                    failures++;
                    continue;
                }
                if (ck_cpu_best_target() != targets[t]) {
                    /* CKERNEL_CPU_TARGET holds the cap lower: this target cannot be had. */
                    char why[128];
                    snprintf(why, sizeof why, "capped to %s (%s)",
                             ck_cpu_target_name(ck_cpu_best_target()), ck_cpu_target_reason());
                    cb->skipped(cb->ctx, ckb_workload_name(i), ck_cpu_target_name(targets[t]),
                                why);
                } else {
                    failures += run_one(i, &s, ck_cpu_target_name(targets[t]), cb);
                }
                (void)ck_cpu_set_target_cap(restore);
            }
        }
    }
    return failures;
}
