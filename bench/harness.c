/* bench/harness.c: the timing harness of `ckernel bench`: a monotonic clock, medians of
 * interleaved samples after a warm-up (short operations batched so that a sample is long
 * enough to time), the sink that keeps results alive, and the machine description. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#ifndef CKB_C_FLAGS
#  define CKB_C_FLAGS "unknown"
#endif

volatile uint64_t ckb_sink;

void ckb_settings_default(ckb_settings *s, int quick) {
    s->repeats = quick ? 3 : 11;
    s->warmups = 1;
    s->min_sample_ns = quick ? 1e6 : 4e6;
    s->threads = 1;
    s->cpu_clock = 0;
}

uint64_t ckb_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

uint64_t ckb_clock_ns(const ckb_settings *s) {
    if (!s->cpu_clock || s->threads != 1) {
        return ckb_now_ns();
    }
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

void ckb_touch(const void *p, size_t bytes) {
    /* One word from each end: the compiler must assume the whole output is used. */
    uint64_t a = 0, b = 0;
    if (bytes >= sizeof a) {
        memcpy(&a, p, sizeof a);
        memcpy(&b, (const char *)p + bytes - sizeof b, sizeof b);
    } else if (bytes != 0) {
        memcpy(&a, p, bytes);
    }
    ckb_sink ^= a + b;
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double ckb_median(double *v, size_t n) {
    if (n == 0) {
        return 0.0;
    }
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Runs fn `iters` times; the mean time of one call in ns, or -1 on failure (*rc set). */
static double time_batch(ckb_timed_fn fn, void *ctx, uint64_t iters, const ckb_settings *s,
                         int *rc) {
    const uint64_t t0 = ckb_clock_ns(s);
    for (uint64_t k = 0; k < iters; k++) {
        *rc = fn(ctx);
        if (*rc != CK_OK) {
            return -1.0;
        }
        __asm__ __volatile__("" ::: "memory"); /* each call is a separate piece of work */
    }
    const uint64_t t1 = ckb_clock_ns(s);
    return (double)(t1 - t0) / (double)iters;
}

int ckb_measure(ckb_timed_fn const *fns, int nfn, void *ctx, const ckb_settings *s,
                double *median_ns, double *spread) {
    enum { MAX_FN = 4 };
    if (nfn < 1 || nfn > MAX_FN || s->repeats < 1) {
        return ck_set_error(CK_ERR_INVALID, "ckb_measure: %d functions, %d repeats", nfn,
                            s->repeats);
    }
    uint64_t iters[MAX_FN];
    int rc = CK_OK;
    /* Warm-up, then calibration: the batch size that makes one sample min_sample_ns. */
    for (int f = 0; f < nfn; f++) {
        for (int w = 0; w < s->warmups; w++) {
            if (time_batch(fns[f], ctx, 1, s, &rc) < 0) {
                return rc;
            }
        }
        double one = time_batch(fns[f], ctx, 1, s, &rc);
        if (one < 0) {
            return rc;
        }
        iters[f] = 1;
        if (one < s->min_sample_ns) {
            /* Re-time with a batch: a single short call is mostly clock overhead. */
            uint64_t probe = one < 1.0 ? 1000 : (uint64_t)(s->min_sample_ns / 10.0 / one) + 1;
            double per = time_batch(fns[f], ctx, probe, s, &rc);
            if (per < 0) {
                return rc;
            }
            per = per > 0.5 ? per : 0.5;
            iters[f] = (uint64_t)(s->min_sample_ns / per) + 1;
        }
    }
    double *samples = (double *)malloc(sizeof(double) * (size_t)s->repeats * (size_t)nfn);
    if (samples == NULL) {
        return ck_set_error(CK_ERR_NOMEM, "ckb_measure: cannot allocate %d samples", s->repeats);
    }
    for (int r = 0; r < s->repeats && rc == CK_OK; r++) {
        for (int f = 0; f < nfn; f++) {
            double t = time_batch(fns[f], ctx, iters[f], s, &rc);
            if (t < 0) {
                break;
            }
            samples[(size_t)f * (size_t)s->repeats + (size_t)r] = t;
        }
    }
    if (rc == CK_OK) {
        for (int f = 0; f < nfn; f++) {
            double *v = samples + (size_t)f * (size_t)s->repeats;
            median_ns[f] = ckb_median(v, (size_t)s->repeats); /* sorts v */
            if (spread != NULL) {
                const double range = v[s->repeats - 1] - v[0];
                spread[f] = median_ns[f] > 0 ? range / median_ns[f] : 0.0;
            }
        }
    }
    free(samples);
    return rc;
}

/* ---- machine description ---- */

static void cpu_model(char *out, size_t n) {
    snprintf(out, n, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) {
        return;
    }
    char line[512];
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *v = strchr(line, ':');
            if (v != NULL) {
                v++;
                while (*v == ' ' || *v == '\t') {
                    v++;
                }
                size_t len = strcspn(v, "\r\n");
                snprintf(out, n, "%.*s", (int)len, v);
            }
            break;
        }
    }
    fclose(f);
}

void ckb_machine_describe(ckb_machine *m) {
    memset(m, 0, sizeof *m);
    cpu_model(m->cpu, sizeof m->cpu);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    m->cores = cores > 0 ? (int)cores : 1;
    snprintf(m->detected, sizeof m->detected, "%s",
             ck_cpu_target_name(ck_cpu_detected_target()));
    for (int t = 0; t < CK_NUM_CPU_TARGETS; t++) {
        if (ck_cpu_target_compiled((ck_cpu_target)t)) {
            size_t len = strlen(m->compiled);
            snprintf(m->compiled + len, sizeof m->compiled - len, "%s%s", len ? " " : "",
                     ck_cpu_target_name((ck_cpu_target)t));
        }
    }
    snprintf(m->features, sizeof m->features, "%s", ck_cpu_features());
    m->loadavg = -1.0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f != NULL) {
        if (fscanf(f, "%lf", &m->loadavg) != 1) {
            m->loadavg = -1.0;
        }
        fclose(f);
    }
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm) == NULL ||
        strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) {
        snprintf(m->date, sizeof m->date, "unknown");
    }
}

const char *ckb_compile_flags(void) {
    return CKB_C_FLAGS;
}
