/* tools/ckernel/cmd_bench.c: `ckernel bench`: runs the workloads of bench/ (issue 7) and
 * prints a table, optionally writing every figure as JSON. The workloads, timing harness
 * and baseline loops live in bench/; this file parses options and formats output. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"

static const char bench_help[] =
    "usage: ckernel bench [--quick] [--json FILE] [--filter SUBSTR] [--target T] [--repeat N]\n"
    "                     [--clock wall|cpu]\n"
    "\n"
    "Times ckernel's assignment kernels on fixed workloads (contiguous, strided, 2-D,\n"
    "ragged, pointer, unaligned, small, build-only and in-cache casts) and the built-in add\n"
    "through ck_make_call (elementwise/add/...: contiguous, broadcast, ragged, int32+float64),\n"
    "and compares each one, in the same run, with memcpy of the same destination bytes and\n"
    "with a plain C loop doing the same work (compiled for the baseline target). select/warm\n"
    "and select/cold time ck_callable_select alone (ns/op). jit/<case>/composed and\n"
    "jit/<case>/jit time the same work built without and with the JIT (x composed: jit time\n"
    "/ composed time; compile: the JIT kernel's compile, outside the timings), and\n"
    "jit/compile/first, steady (ms/op) and cache-hit (ns/op) time JIT kernel builds; without\n"
    "a JIT they are skipped with the reason. text/print/float64 and text/parse/float64 time\n"
    "a million float64 through the literals (ck_array_format, ck_array_parse; ns per value)\n"
    "against snprintf(\"%.17g\") and strtod. Every figure is the median of\n"
    "repeated samples after a warm-up; each kernel's output is checked against its loop's.\n"
    "\n"
    "options:\n"
    "  --quick          fewer repeats (same sizes): under a minute on 2 cores\n"
    "  --json FILE      also write every figure, with machine and build, as JSON to FILE\n"
    "  --filter SUBSTR  run only the workloads whose name contains SUBSTR\n"
    "  --target T       run at CPU target T only ({targets}); an error when this\n"
    "                   build or this CPU lacks it. Default: the best target, and every\n"
    "                   supported target for the in-cache workloads\n"
    "  --repeat N       timed samples per measurement (default 11, --quick 3)\n"
    "  --clock C        wall (default): elapsed time; cpu: single-threaded rows are timed by\n"
    "                   the thread's CPU time, so that other processes taking turns on the\n"
    "                   cores are not counted (their use of memory bandwidth still is);\n"
    "                   rows on 2 threads and jit/compile/first stay on the wall clock\n"
    "\n"
    "columns: time is the median ckernel time per element (ns/elem) or per whole operation\n"
    "(ns/op); GB/s counts bytes read + written; x memcpy = ckernel time / memcpy time;\n"
    "x loop = ckernel time / plain C loop time. Exit status 1 when a workload fails or its\n"
    "output differs from the plain loop's.\n"
    "\n"
    "example:\n"
    "  ckernel bench --quick --filter contig/ --json bench.json\n";

/* ---- collected output ---- */

typedef struct bench_event {
    char workload[64];
    char target[16];
    char text[256]; /* skip reason or error message */
    int status;     /* failures: the ckernel status */
} bench_event;

typedef struct bench_out {
    ckb_result *results;
    size_t nresults, cap_results;
    bench_event *skipped, *failed;
    size_t nskipped, cap_skipped, nfailed, cap_failed;
    int oom;
} bench_out;

static int grow(void **p, size_t *cap, size_t n, size_t elem) {
    if (n < *cap) {
        return 1;
    }
    size_t ncap = *cap != 0 ? 2 * *cap : 16;
    void *q = realloc(*p, ncap * elem);
    if (q == NULL) {
        return 0;
    }
    *p = q;
    *cap = ncap;
    return 1;
}

static void add_event(bench_out *o, bench_event **list, size_t *n, size_t *cap,
                      const char *workload, const char *target, const char *text, int status) {
    if (!grow((void **)list, cap, *n, sizeof **list)) {
        o->oom = 1;
        return;
    }
    bench_event *e = &(*list)[(*n)++];
    snprintf(e->workload, sizeof e->workload, "%s", workload);
    snprintf(e->target, sizeof e->target, "%s", target ? target : "");
    snprintf(e->text, sizeof e->text, "%s", text ? text : "");
    e->status = status;
}

static void print_row(const ckb_result *r) {
    char time[32], gbs[16], rm[16], rl[16];
    if (r->unit == CKB_MS_PER_OP) {
        snprintf(time, sizeof time, "%10.2f ms/op  ", r->ns / 1e6);
    } else if (r->unit == CKB_PER_OP) {
        snprintf(time, sizeof time, "%10.1f ns/op  ", r->ns);
    } else {
        snprintf(time, sizeof time, "%10.3f ns/elem", r->ns);
    }
    snprintf(gbs, sizeof gbs, r->gb_per_s >= 0 ? "%.2f" : "-", r->gb_per_s);
    snprintf(rm, sizeof rm, r->ratio_memcpy >= 0 ? "%.2f" : "-", r->ratio_memcpy);
    snprintf(rl, sizeof rl, r->ratio_loop >= 0 ? "%.2f" : "-", r->ratio_loop);
    printf("%-34s %-8s %3d %9llu %s %7s %8s %7s", r->workload, r->target, r->threads,
           (unsigned long long)r->elements, time, gbs, rm, rl);
    if (r->heap_allocs >= 0) {
        printf("  heap allocs/build: %g", r->heap_allocs);
    }
    if (r->ratio_composed >= 0) {
        printf("  x composed: %.2f", r->ratio_composed);
    }
    if (r->compile_ms >= 0) {
        printf("  compile: %.1f ms", r->compile_ms);
    }
    if (!r->verified) {
        printf("  OUTPUT DIFFERS FROM THE PLAIN LOOP");
    }
    printf("\n");
    fflush(stdout);
}

static void on_result(void *ctx, const ckb_result *r) {
    bench_out *o = (bench_out *)ctx;
    print_row(r);
    if (!grow((void **)&o->results, &o->cap_results, o->nresults, sizeof *o->results)) {
        o->oom = 1;
        return;
    }
    o->results[o->nresults++] = *r;
}

/* Per-target workloads skipped at a target the CPU lacks are summed up in the notes; any
 * other skipped workload (jit/... without a JIT) gets its row in the table. */
static int per_target_name(const char *workload) {
    for (size_t i = 0; i < ckb_workload_count(); i++) {
        if (strcmp(ckb_workload_name(i), workload) == 0) {
            return ckb_workload_per_target(i);
        }
    }
    return 0;
}

static void on_skipped(void *ctx, const char *workload, const char *target, const char *why) {
    bench_out *o = (bench_out *)ctx;
    if (!per_target_name(workload)) {
        printf("%-34s %-8s skipped: %s\n", workload, target ? target : "", why);
        fflush(stdout);
    }
    add_event(o, &o->skipped, &o->nskipped, &o->cap_skipped, workload, target, why, 0);
}

static void on_failed(void *ctx, const char *workload, const char *target, int status,
                      const char *message) {
    bench_out *o = (bench_out *)ctx;
    printf("%-34s %-8s FAILED: %s: %s\n", workload, target ? target : "", ck_status_name(status),
           message != NULL && message[0] != '\0' ? message : ck_status_message(status));
    fflush(stdout);
    add_event(o, &o->failed, &o->nfailed, &o->cap_failed, workload, target, message, status);
}

/* ---- JSON ---- */

static void json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p != '\0'; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20) {
                fprintf(f, "\\u%04x", (unsigned)*p);
            } else {
                fputc(*p, f);
            }
        }
    }
    fputc('"', f);
}

/* A finite number, or null (not applicable / not finite). */
static void json_number(FILE *f, double v, int applicable) {
    if (applicable && isfinite(v)) {
        fprintf(f, "%.6g", v);
    } else {
        fputs("null", f);
    }
}

static void json_result(FILE *f, const ckb_result *r) {
    const int per_op = r->unit != CKB_PER_ELEM;
    const int ms = r->unit == CKB_MS_PER_OP;
    const double scale = ms ? 1e-6 : 1.0;
    fputs("    {\"workload\": ", f);
    json_string(f, r->workload);
    fputs(", \"target\": ", f);
    json_string(f, r->target);
    fprintf(f, ", \"threads\": %d, \"elements\": %llu, \"errmode\": ", r->threads,
            (unsigned long long)r->elements);
    json_string(f, r->errmode != NULL ? r->errmode : "");
    fprintf(f, ", \"%s\": ", ms ? "ms_per_op" : per_op ? "ns_per_op" : "ns_per_elem");
    json_number(f, r->ns * scale, 1);
    fputs(", \"gb_per_s\": ", f);
    json_number(f, r->gb_per_s, r->gb_per_s >= 0);
    fputs(", \"ratio_memcpy\": ", f);
    json_number(f, r->ratio_memcpy, r->ratio_memcpy >= 0);
    fputs(", \"ratio_loop\": ", f);
    json_number(f, r->ratio_loop, r->ratio_loop >= 0);
    fputs(", \"memcpy_gb_per_s\": ", f);
    json_number(f, r->memcpy_gb_per_s, r->memcpy_gb_per_s >= 0);
    fprintf(f, ", \"%s\": ",
            ms ? "loop_ms_per_op" : per_op ? "loop_ns_per_op" : "loop_ns_per_elem");
    json_number(f, r->loop_ns * scale, r->loop_ns >= 0);
    if (r->heap_allocs >= 0) {
        fputs(", \"heap_allocs\": ", f);
        json_number(f, r->heap_allocs, 1);
    }
    if (r->ratio_composed >= 0) {
        fputs(", \"ratio_composed\": ", f);
        json_number(f, r->ratio_composed, 1);
    }
    if (r->compile_ms >= 0) {
        fputs(", \"compile_ms\": ", f);
        json_number(f, r->compile_ms, 1);
    }
    fputs(", \"spread\": ", f);
    json_number(f, r->spread, 1);
    fprintf(f, ", \"verified\": %s, \"note\": ", r->verified ? "true" : "false");
    json_string(f, r->note != NULL ? r->note : "");
    fputs("}", f);
}

static void json_events(FILE *f, const char *key, const bench_event *e, size_t n, int failures) {
    fprintf(f, "  \"%s\": [", key);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ",\n    {\"workload\": " : "\n    {\"workload\": ", f);
        json_string(f, e[i].workload);
        fputs(", \"target\": ", f);
        json_string(f, e[i].target);
        if (failures) {
            fputs(", \"status\": ", f);
            json_string(f, ck_status_name(e[i].status));
        }
        fprintf(f, ", \"%s\": ", failures ? "message" : "reason");
        json_string(f, e[i].text);
        fputs("}", f);
    }
    fputs(n ? "\n  ]" : "]", f);
}

static int write_json(FILE *f, const ckb_machine *m, const ckb_run_options *ro, int quick,
                      const bench_out *o) {
    fputs("{\n  \"version\": ", f);
    json_string(f, ck_version_string());
    fputs(",\n  \"date\": ", f);
    json_string(f, m->date);
    fputs(",\n  \"machine\": {\"cpu\": ", f);
    json_string(f, m->cpu);
    fprintf(f, ", \"cores\": %d, \"detected_target\": ", m->cores);
    json_string(f, m->detected);
    fputs(", \"compiled_targets\": [", f);
    int first = 1;
    for (int t = 0; t < CK_NUM_CPU_TARGETS; t++) {
        if (ck_cpu_target_compiled((ck_cpu_target)t)) {
            fputs(first ? "" : ", ", f);
            json_string(f, ck_cpu_target_name((ck_cpu_target)t));
            first = 0;
        }
    }
    fputs("], \"features\": ", f);
    json_string(f, m->features);
    fputs(", \"loadavg\": ", f);
    json_number(f, m->loadavg, m->loadavg >= 0);
    /* Streaming stores decide several workloads' speed: say where they start (null: off). */
    const size_t stream_min = ck_get_streaming_threshold();
    if (stream_min == SIZE_MAX) {
        fputs(", \"streaming_min_bytes\": null", f);
    } else {
        fprintf(f, ", \"streaming_min_bytes\": %zu", stream_min);
    }
    fputs("},\n  \"build\": {\"version\": ", f);
    json_string(f, ck_version_string());
    fputs(", \"options\": ", f);
    json_string(f, ck_build_options());
    fputs(", \"allocator\": ", f);
    json_string(f, ck_allocator_name());
    fputs(", \"bench_c_flags\": ", f);
    json_string(f, ckb_compile_flags());
    fprintf(f, "},\n  \"settings\": {\"quick\": %s, \"repeats\": %d, \"warmups\": %d, "
               "\"clock\": \"%s\", \"min_sample_ns\": ",
            quick ? "true" : "false", ro->settings.repeats, ro->settings.warmups,
            ro->settings.cpu_clock ? "cpu" : "wall");
    json_number(f, ro->settings.min_sample_ns, 1);
    fputs(", \"filter\": ", f);
    if (ro->filter != NULL) {
        json_string(f, ro->filter);
    } else {
        fputs("null", f);
    }
    fputs(", \"target\": ", f);
    json_string(f, ck_cpu_target_name(ck_cpu_best_target()));
    fputs(", \"bandwidth_target\": ", f); /* arithmetic and streaming loops (cpu.h) */
    json_string(f, ck_cpu_target_name(ck_cpu_bandwidth_target(NULL)));
    fputs("},\n  \"results\": [", f);
    for (size_t i = 0; i < o->nresults; i++) {
        fputs(i ? ",\n" : "\n", f);
        json_result(f, &o->results[i]);
    }
    fputs(o->nresults ? "\n  ],\n" : "],\n", f);
    json_events(f, "skipped", o->skipped, o->nskipped, 0);
    fputs(",\n", f);
    json_events(f, "errors", o->failed, o->nfailed, 1);
    fputs("\n}\n", f);
    return ferror(f) ? -1 : 0;
}

/* ---- the command ---- */

static int parse_repeat(const char *v, int *out) {
    if (v == NULL || *v == '\0') {
        return 0;
    }
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno != 0 || *end != '\0' || n < 1 || n > 1000) {
        return 0;
    }
    *out = (int)n;
    return 1;
}

static void print_header(const ckb_machine *m, const ckb_run_options *ro, int quick) {
    printf("ckernel bench %s  %s%s\n", ck_version_string(), m->date,
           quick ? "  (--quick: fewer repeats, same sizes)" : "");
    printf("machine: %s, %d cores, detected target %s (%s)\n", m->cpu, m->cores, m->detected,
           m->features);
    printf("build:   %s; allocator %s; targets compiled: %s\n", ck_build_options(),
           ck_allocator_name(), m->compiled);
    if (ck_get_streaming_threshold() == SIZE_MAX) {
        printf("         streaming stores off (%s)\n", ck_streaming_threshold_reason());
    } else {
        printf("         streaming stores for destinations of %zu bytes and more (%s)\n",
               ck_get_streaming_threshold(), ck_streaming_threshold_reason());
    }
    printf("         bench and plain loops compiled with \"%s\" (no -march: baseline code)\n",
           ckb_compile_flags());
    const ck_cpu_target best = ck_cpu_best_target(), bandwidth = ck_cpu_bandwidth_target(NULL);
    printf("run:     median of %d samples after %d warm-up, interleaved with the baselines; "
           "samples >= %.0f ms%s; target %s%s%s%s;\n         threads 1, and 2 (%s, ck_parallel_*) for the "
           "workloads marked so\n",
           ro->settings.repeats, ro->settings.warmups, ro->settings.min_sample_ns / 1e6,
           ro->settings.cpu_clock ? " of the thread's CPU time (--clock cpu; 2-thread rows: wall)"
                                  : "",
           ck_cpu_target_name(best),
           ro->has_target ? " (--target)" : " (in-cache: every supported target)",
           bandwidth != best ? ", arithmetic, comparisons, streaming stores and rows folds " : "",
           bandwidth != best ? ck_cpu_target_name(bandwidth) : "",
           ck_parallel_backend());
    if (m->loadavg >= m->cores - 0.5) { /* more than the bench itself */
        printf("warning: load average %.1f on %d cores when the run started: other processes "
               "share the CPU, figures are noisy (see \"spread\" in the JSON)\n",
               m->loadavg, m->cores);
    }
    printf("\n%-34s %-8s %3s %9s %18s %7s %8s %7s\n", "workload", "target", "thr", "elements",
           "time", "GB/s", "x memcpy", "x loop");
    fflush(stdout);
}

static void print_notes(const bench_out *o) {
    printf("\nnotes:\n");
    /* One line per distinct note, naming the workloads it applies to. */
    for (size_t i = 0; i < o->nresults; i++) {
        const ckb_result *r = &o->results[i];
        int seen = r->note[0] == '\0';
        for (size_t j = 0; j < i && !seen; j++) {
            seen = strcmp(o->results[j].note, r->note) == 0;
        }
        if (seen) {
            continue;
        }
        int all_incache = 1;
        for (size_t j = i; j < o->nresults; j++) {
            if (strcmp(o->results[j].note, r->note) == 0 &&
                strncmp(o->results[j].workload, "incache/", 8) != 0) {
                all_incache = 0;
            }
        }
        printf("  ");
        if (all_incache) {
            printf("incache/*");
        } else {
            const char *last = NULL;
            for (size_t j = i; j < o->nresults; j++) {
                if (strcmp(o->results[j].note, r->note) == 0 &&
                    (last == NULL || strcmp(last, o->results[j].workload) != 0)) {
                    printf("%s%s", last ? ", " : "", o->results[j].workload);
                    last = o->results[j].workload;
                }
            }
        }
        printf(": %s\n", r->note);
    }
    printf("  x memcpy: memcpy of the same number of destination bytes; x loop: a plain C loop "
           "with the same semantics (errmode), compiled at the baseline target\n");
    /* One line per skipped target and reason, not one per workload; other skipped
     * workloads (jit/... without a JIT): one line per reason, naming them. */
    for (size_t i = 0; i < o->nskipped; i++) {
        const int pt = per_target_name(o->skipped[i].workload);
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) {
            seen = per_target_name(o->skipped[j].workload) == pt &&
                   (!pt || strcmp(o->skipped[j].target, o->skipped[i].target) == 0) &&
                   strcmp(o->skipped[j].text, o->skipped[i].text) == 0;
        }
        if (seen) {
            continue;
        }
        if (pt) {
            printf("  skipped: target %s for the per-target workloads: %s\n",
                   o->skipped[i].target, o->skipped[i].text);
            continue;
        }
        printf("  skipped: ");
        for (size_t j = i, k = 0; j < o->nskipped; j++) {
            if (!per_target_name(o->skipped[j].workload) &&
                strcmp(o->skipped[j].text, o->skipped[i].text) == 0) {
                printf("%s%s", k++ ? ", " : "", o->skipped[j].workload);
            }
        }
        printf(": %s\n", o->skipped[i].text);
    }
}

static void free_out(bench_out *o) {
    free(o->results);
    free(o->skipped);
    free(o->failed);
}

int cmd_bench(int argc, char **argv) {
    int quick = 0, repeat = 0, cpu_clock = 0;
    const char *json_path = NULL, *filter = NULL;
    cli_common c = {CK_EVAL_CTX_INIT, CK_CPU_BASELINE, 0};
    for (int i = 1; i < argc; i++) {
        const char *v;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cli_print_help(bench_help);
            return CLI_OK;
        } else if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (cli_option_value(argc, argv, &i, "--json", &v)) {
            if (v == NULL || *v == '\0') {
                return cli_usage_error("bench", "--json takes a file name");
            }
            json_path = v;
        } else if (cli_option_value(argc, argv, &i, "--filter", &v)) {
            if (v == NULL) {
                return cli_usage_error("bench", "--filter takes a substring of workload names");
            }
            filter = v;
        } else if (cli_option_value(argc, argv, &i, "--repeat", &v)) {
            if (!parse_repeat(v, &repeat)) {
                return cli_usage_error("bench", "--repeat takes a number from 1 to 1000%s%s%s",
                                       v ? " (not '" : "", v ? v : "", v ? "')" : "");
            }
        } else if (cli_option_value(argc, argv, &i, "--clock", &v)) {
            if (v == NULL || (strcmp(v, "wall") != 0 && strcmp(v, "cpu") != 0)) {
                return cli_usage_error("bench", "--clock takes wall or cpu%s%s%s",
                                       v ? " (not '" : "", v ? v : "", v ? "')" : "");
            }
            cpu_clock = strcmp(v, "cpu") == 0;
        } else if (cli_option_value(argc, argv, &i, "--target", &v)) {
            if (v == NULL || ck_cpu_target_parse(v, &c.target) != CK_OK) {
                return cli_usage_error("bench", "--target takes %s%s%s%s",
                                       ck_cpu_target_choices(), v ? " (not '" : "", v ? v : "",
                                       v ? "')" : "");
            }
            c.has_target = 1;
        } else if (argv[i][0] == '-') {
            return cli_usage_error("bench", "unknown option '%s'", argv[i]);
        } else {
            return cli_usage_error("bench", "unexpected argument '%s'", argv[i]);
        }
    }
    if (ckb_count_selected(filter) == 0) {
        return cli_usage_error("bench", "no workload name contains '%s'", filter);
    }
    int status = cli_apply_target(&c); /* unsupported target: reported, status 1 */
    if (status != CLI_OK) {
        return status;
    }
    FILE *json = NULL;
    if (json_path != NULL) { /* opened first: a bad path should not cost a whole run */
        json = fopen(json_path, "w");
        if (json == NULL) {
            fprintf(stderr, "ckernel: error: cannot write %s: %s\n", json_path, strerror(errno));
            return CLI_ERROR;
        }
    }

    ckb_run_options ro;
    memset(&ro, 0, sizeof ro);
    ckb_settings_default(&ro.settings, quick);
    ro.settings.cpu_clock = cpu_clock;
    if (repeat > 0) {
        ro.settings.repeats = repeat;
    }
    ro.filter = filter;
    ro.has_target = c.has_target;
    ro.target = c.target;
    ckb_machine m;
    ckb_machine_describe(&m);
    print_header(&m, &ro, quick);

    bench_out o;
    memset(&o, 0, sizeof o);
    const ckb_callbacks cb = {&o, on_result, on_skipped, on_failed};
    const uint64_t t0 = ckb_now_ns();
    const int failures = ckb_run(&ro, &cb);
    print_notes(&o);
    printf("total: %zu result%s, %zu failed, %.1f s\n", o.nresults, o.nresults == 1 ? "" : "s",
           o.nfailed, (double)(ckb_now_ns() - t0) / 1e9);

    status = failures != 0 || o.oom ? CLI_ERROR : CLI_OK;
    if (o.oom) {
        fprintf(stderr, "ckernel: error: out of memory collecting the results\n");
    }
    if (json != NULL) {
        int bad = write_json(json, &m, &ro, quick, &o);
        if (fclose(json) != 0 || bad) {
            fprintf(stderr, "ckernel: error: cannot write %s\n", json_path);
            status = CLI_ERROR;
        }
    }
    if (failures != 0) {
        fprintf(stderr, "ckernel: error: %d workload run%s failed or gave output that differs "
                        "from the plain loop's\n",
                failures, failures == 1 ? "" : "s");
    }
    free_out(&o);
    return status;
}
