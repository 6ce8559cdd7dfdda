/* tools/ckernel/cmd_info.c: `ckernel info [--json]`: what this build is and has. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char info_help[] =
    "usage: ckernel info [--json]\n\n"
    "Prints the version, build options, allocator and allocation limit, CPU targets (compiled,\n"
    "detected, chosen and why), threading backend and thread count, the number text libraries\n"
    "(fast_float, double-conversion), the vector math (SLEEF, with or without fused\n"
    "multiply-adds), native calls (libffi) and JIT availability of this ckernel.\n\n"
    "options:\n"
    "  --json   one JSON object instead of text\n";

/* "baseline avx2 avx512" for the targets compiled in. */
static void compiled_targets(char *buf, size_t n) {
    buf[0] = '\0';
    for (int t = 0; t < CK_NUM_CPU_TARGETS; t++) {
        if (ck_cpu_target_compiled((ck_cpu_target)t)) {
            size_t len = strlen(buf);
            snprintf(buf + len, n - len, "%s%s", len ? " " : "", ck_cpu_target_name((ck_cpu_target)t));
        }
    }
}

/* The system's transparent-huge-page mode: the bracketed word of the kernel's setting
 * ("always [madvise] never" -> "madvise"), or "unknown". */
static void thp_mode(char *out, size_t cap) {
    snprintf(out, cap, "unknown");
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (f == NULL) {
        return;
    }
    char line[128];
    if (fgets(line, sizeof line, f) != NULL) {
        const char *open = strchr(line, '[');
        const char *close = open != NULL ? strchr(open, ']') : NULL;
        if (close != NULL && (size_t)(close - open - 1) < cap) {
            snprintf(out, cap, "%.*s", (int)(close - open - 1), open + 1);
        }
    }
    fclose(f);
}

int cmd_info(int argc, char **argv) {
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(info_help, stdout);
            return CLI_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else {
            return cli_usage_error("info", "unknown option '%s'", argv[i]);
        }
    }
    char targets[64];
    compiled_targets(targets, sizeof targets);
    char thp[32];
    thp_mode(thp, sizeof thp);
    const int advised = ck_hugepages_advised();
    const int cpu_ok = ck_cpu_check() == CK_OK;
    const char *chosen = ck_cpu_target_name(ck_cpu_best_target());
    const char *detected = ck_cpu_target_name(ck_cpu_detected_target());
    const char *bandwidth_reason = "";
    const char *bandwidth = ck_cpu_target_name(ck_cpu_bandwidth_target(&bandwidth_reason));
    /* Native functions as leaves (ck_callable_add_native): the libffi built against. */
    const char *native = CK_WITH_FFI ? "libffi " CK_FFI_VERSION : NULL;
    const char *vmath_reason = "";
    const int vmath_fma = ck_cpu_vector_math_fma(&vmath_reason);
    ck_jit_info jit;
    ck_jit_get_info(&jit);
    char jit_json[1024];
    if (jit.available) {
        snprintf(jit_json, sizeof jit_json,
                 "{\"available\": true, \"llvm\": \"%s\", \"cpu\": \"%s\", "
                 "\"features\": \"%s\", \"cached_codes\": %zu, \"compiles\": %zu}",
                 jit.llvm_version, jit.cpu_name, jit.cpu_features, jit.cached_codes,
                 jit.compiles);
    } else {
        /* The reason may quote a path or a loader message: keep it JSON-safe. */
        char reason[512];
        size_t n = 0;
        for (const char *c = jit.status; *c != '\0' && n + 1 < sizeof reason; c++) {
            reason[n++] = (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) ? '\'' : *c;
        }
        reason[n] = '\0';
        snprintf(jit_json, sizeof jit_json, "{\"available\": false, \"status\": \"%s\"}",
                 reason);
    }
    /* Streaming stores: the threshold (SIZE_MAX: never, printed as JSON null / "off"). */
    const size_t stream_min = ck_get_streaming_threshold();
    char stream_json[32];
    if (stream_min == SIZE_MAX) {
        snprintf(stream_json, sizeof stream_json, "null");
    } else {
        snprintf(stream_json, sizeof stream_json, "%zu", stream_min);
    }
    /* The allocation limit (0: none, JSON null); its origin is JSON-safe by construction. */
    const size_t limit = ck_get_alloc_limit();
    char limit_json[32], limit_text[64];
    if (limit == 0) {
        snprintf(limit_json, sizeof limit_json, "null");
        snprintf(limit_text, sizeof limit_text, "none");
    } else {
        snprintf(limit_json, sizeof limit_json, "%zu", limit);
        static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        int u = -1;
        double scaled = (double)limit;
        while (scaled >= 1024.0 && u + 1 < (int)(sizeof units / sizeof units[0])) {
            scaled /= 1024.0;
            u++;
        }
        if (u < 0) {
            snprintf(limit_text, sizeof limit_text, "%zu byte%s", limit, limit == 1 ? "" : "s");
        } else {
            snprintf(limit_text, sizeof limit_text, "%.1f %s = %zu bytes", scaled, units[u],
                     limit);
        }
    }
    /* None of the other values contains a character that JSON would need escaped. */
    if (json) {
        printf("{\"version\": \"%s\", \"build\": \"%s\", \"allocator\": \"%s\", "
               "\"alloc_limit\": {\"bytes\": %s, \"reason\": \"%s\"}, "
               "\"cpu\": {\"compiled\": \"%s\", \"detected\": \"%s\", \"features\": \"%s\", "
               "\"chosen\": \"%s\", \"bandwidth_target\": \"%s\", \"bandwidth_reason\": \"%s\", "
               "\"ok\": %s}, \"threads\": {\"backend\": \"%s\", "
               "\"count\": %d}, \"hugepages\": {\"advised\": %s, \"min_bytes\": %zu, "
               "\"system_mode\": \"%s\"}, \"streaming\": {\"min_bytes\": %s, \"llc_bytes\": %zu, "
               "\"reason\": \"%s\"}, \"number_text\": \"fast_float %s (reading), "
               "double-conversion %s (printing)\", "
               "\"vector_math\": {\"library\": \"SLEEF %s\", \"fma\": %s, \"reason\": \"%s\"}, "
               "\"native_calls\": %s%s%s, \"jit\": %s}\n",
               ck_version_string(), ck_build_options(), ck_allocator_name(), limit_json,
               cli_alloc_limit_origin(), targets, detected,
               ck_cpu_features(), chosen, bandwidth, bandwidth_reason, cpu_ok ? "true" : "false", ck_parallel_backend(),
               ck_get_num_threads(), advised ? "true" : "false", CK_HUGEPAGE_MIN_BYTES, thp,
               stream_json, ck_cpu_llc_bytes(), ck_streaming_threshold_reason(),
               CK_FAST_FLOAT_VERSION, CK_DOUBLE_CONVERSION_VERSION, CK_SLEEF_VERSION,
               vmath_fma ? "true" : "false", vmath_reason, native != NULL ? "\"" : "",
               native != NULL ? native : "false", native != NULL ? "\"" : "", jit_json);
    } else {
        printf("ckernel %s\n", ck_version_string());
        printf("  build:         %s\n", ck_build_options());
        printf("  allocator:     %s\n", ck_allocator_name());
        printf("  alloc limit:   %s (%s)\n", limit_text, cli_alloc_limit_origin());
        printf("  cpu targets:   %s (compiled)\n", targets);
        printf("  cpu detected:  %s (%s)\n", detected, ck_cpu_features());
        printf("  cpu chosen:    %s (%s)\n", chosen, ck_cpu_target_reason());
        const char *note = ck_cpu_target_note(ck_cpu_best_target());
        if (note != NULL) {
            printf("  target note:   %s\n", note);
        }
        printf("  bandwidth:     %s for arithmetic, comparisons, streaming stores and rows "
               "folds (%s)\n",
               bandwidth, bandwidth_reason);
        printf("  threads:       %s, %d thread%s (ck_set_num_threads)\n", ck_parallel_backend(),
               ck_get_num_threads(), ck_get_num_threads() == 1 ? "" : "s");
        if (advised) {
            printf("  huge pages:    advised for blocks of %zu MiB and more (system THP mode: %s)\n",
                   CK_HUGEPAGE_MIN_BYTES >> 20, thp);
        } else {
            printf("  huge pages:    not advised (CKERNEL_MADVISE_HUGEPAGE=0 or not Linux; system "
                   "THP mode: %s)\n",
                   thp);
        }
        if (stream_min == SIZE_MAX) {
            printf("  streaming:     off (%s)\n", ck_streaming_threshold_reason());
        } else if (stream_min >= ((size_t)1 << 20)) {
            printf("  streaming:     stores to destinations of %.1f MiB and more (%s)\n",
                   (double)stream_min / (1024.0 * 1024.0), ck_streaming_threshold_reason());
        } else {
            printf("  streaming:     stores to destinations of %zu bytes and more (%s)\n",
                   stream_min, ck_streaming_threshold_reason());
        }
        /* Literals' float32/float64 text (float16's is ckernel's own). */
        printf("  number text:   fast_float %s reads, double-conversion %s prints (float32, "
               "float64; built in)\n",
               CK_FAST_FLOAT_VERSION, CK_DOUBLE_CONVERSION_VERSION);
        printf("  vector math:   SLEEF %s, %s fused multiply-adds (%s)\n",
               CK_SLEEF_VERSION, vmath_fma ? "with" : "without", vmath_reason);
        if (native != NULL) {
            printf("  native calls:  %s\n", native);
        } else {
            printf("  native calls:  not available (built without libffi)\n");
        }
        if (jit.available) {
            printf("  jit:           %s (plugin %s), host cpu %s, %zu compiled nest%s held, "
                   "%zu retained\n",
                   jit.status, jit.plugin_path, jit.cpu_name, jit.cached_codes,
                   jit.cached_codes == 1 ? "" : "s", jit.retained_codes);
            printf("  jit features:  %s\n", jit.cpu_features);
        } else {
            printf("  jit:           %s\n", jit.status);
        }
    }
    return cpu_ok ? CLI_OK : cli_report(ck_last_status());
}
