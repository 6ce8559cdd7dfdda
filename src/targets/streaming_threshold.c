/* src/targets/streaming_threshold.c: the streaming-store threshold (ckernel/cpu.h): the last-level
 * cache size, read once, the default rule (3/4 of it), the CKERNEL_STREAMING_MIN_BYTES
 * override and ck_set_streaming_threshold(). Kernels read the threshold when they are
 * built (builders/compose.c); the streaming kernel itself is leaves/numeric/streaming.c. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ckernel/cpu.h"
#include "common/internal.h"
#include "targets/cpu_internal.h"
#include "targets/streaming_rule.h"

#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
#  define CK__HAVE_STREAMING 1 /* SSE2 (the baseline) has the non-temporal stores */
#else
#  define CK__HAVE_STREAMING 0
#endif

/* Where nothing tells the cache size, stream above this (a small server LLC's 3/4). */
#define CK__STREAMING_FALLBACK_BYTES ((size_t)8 << 20)
/* No x86 part has more last-level cache per core than this (the largest stacked-cache parts
 * have 12 MiB). A virtual machine may report its host's whole cache as shared by its own
 * few CPUs (480 MiB for 2 CPUs on one of ours, where streaming paid from 32-64 MiB of
 * destination on): more than that per CPU is counted as this much. */
#define CK__LLC_PER_CPU_MAX ((size_t)16 << 20)

static struct {
    size_t llc;            /* bytes, 0 when unknown */
    unsigned sharing;      /* CPUs sharing it, 0 when unknown */
    size_t fallback;       /* the default: env, else 3/4 of llc (capped), else the fallback */
    char reason[256];
} ck__stream;
static pthread_once_t ck__stream_once = PTHREAD_ONCE_INIT;
/* 0: the default; anything else: set by ck_set_streaming_threshold. */
static _Atomic size_t ck__stream_api;

/* "32768K" (sysfs cache size) -> bytes; 0 when malformed. */
static size_t parse_cache_size(const char *text) {
    char *end = NULL;
    errno = 0;
    const unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || end == text) {
        return 0;
    }
    unsigned long long mul = 1;
    if (*end == 'K') {
        mul = 1024;
    } else if (*end == 'M') {
        mul = 1024 * 1024;
    } else if (*end != '\n' && *end != '\0') {
        return 0;
    }
    return v > SIZE_MAX / mul ? 0 : (size_t)(v * mul);
}

/* CPUs in a sysfs cpu list ("0-1,4,6-7"); 0 when malformed. */
static unsigned count_cpu_list(const char *text) {
    unsigned n = 0;
    const char *p = text;
    while (*p != '\0' && *p != '\n') {
        char *end = NULL;
        const unsigned long a = strtoul(p, &end, 10);
        if (end == p) {
            return 0;
        }
        unsigned long b = a;
        p = end;
        if (*p == '-') {
            b = strtoul(p + 1, &end, 10);
            if (end == p + 1 || b < a) {
                return 0;
            }
            p = end;
        }
        n += (unsigned)(b - a + 1);
        if (*p == ',') {
            p++;
        }
    }
    return n;
}

/* The largest data or unified cache of cpu0 in sysfs: one instance (what a core can use;
 * sysconf on some virtual machines reports the sum over all the sockets' caches), and how
 * many CPUs share it (0: unknown). */
static size_t llc_from_sysfs(unsigned *sharing) {
    size_t best = 0;
    int best_level = 0;
    *sharing = 0;
    for (int i = 0; i < 16; i++) {
        char path[96], buf[256];
        int level = 0;
        size_t size = 0;
        unsigned cpus = 0;
        static const char *const fields[] = {"level", "type", "size", "shared_cpu_list"};
        int ok = 1;
        for (int f = 0; f < 4 && ok; f++) {
            snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", i,
                     fields[f]);
            FILE *fp = fopen(path, "re");
            const int got = fp != NULL && fgets(buf, sizeof buf, fp) != NULL;
            if (fp != NULL) {
                fclose(fp);
            }
            if (f == 3) {
                cpus = got ? count_cpu_list(buf) : 0; /* optional */
                break;
            }
            ok = got;
            if (!ok) {
                break;
            }
            if (f == 0) {
                level = atoi(buf);
            } else if (f == 1) {
                ok = strncmp(buf, "Instruction", 11) != 0;
            } else {
                size = parse_cache_size(buf);
            }
        }
        if (ok && size != 0 && level >= best_level) {
            best = size;
            best_level = level;
            *sharing = cpus;
        }
        if (!ok && level == 0) {
            break; /* no index<i>: the list ended */
        }
    }
    return best;
}

static size_t llc_from_sysconf(void) {
    static const int names[] = {
#ifdef _SC_LEVEL4_CACHE_SIZE
        _SC_LEVEL4_CACHE_SIZE,
#endif
#ifdef _SC_LEVEL3_CACHE_SIZE
        _SC_LEVEL3_CACHE_SIZE,
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
        _SC_LEVEL2_CACHE_SIZE,
#endif
        -1};
    for (size_t i = 0; names[i] != -1; i++) {
        const long v = sysconf(names[i]);
        if (v > 0) {
            return (size_t)v;
        }
    }
    return 0;
}

static void format_bytes(char *out, size_t cap, size_t bytes) {
    if (bytes >= ((size_t)1 << 20) && bytes % ((size_t)1 << 20) == 0) {
        snprintf(out, cap, "%zu MiB", bytes >> 20);
    } else if (bytes >= 1024 && bytes % 1024 == 0) {
        snprintf(out, cap, "%zu KiB", bytes >> 10);
    } else {
        snprintf(out, cap, "%zu bytes", bytes);
    }
}

size_t ck__streaming_rule(const ck__cache_report *r, char *reason, size_t cap) {
    char size[32];
    if (r->llc == 0) {
        format_bytes(size, sizeof size, CK__STREAMING_FALLBACK_BYTES);
        snprintf(reason, cap, "%s: the cache size is unknown", size);
        return CK__STREAMING_FALLBACK_BYTES;
    }
    format_bytes(size, sizeof size, r->llc);
    /* Who shares the cache: what sysfs says, else every online CPU (a virtual machine
     * without a cache description may report its host's whole cache through sysconf). */
    const unsigned cpus = r->sharing != 0 ? r->sharing : r->online != 0 ? r->online : 1;
    if (r->llc / cpus <= CK__LLC_PER_CPU_MAX) {
        snprintf(reason, cap, "3/4 of the %s last-level cache (%s)", size, r->source);
        return r->llc / 4 * 3;
    }
    if (r->sharing != 0) {
        snprintf(reason, cap,
                 "3/4 of %u x 16 MiB: the %s last-level cache that %s reports for %u CPU%s is "
                 "more than any core has (a virtual machine's view of its host)",
                 cpus, size, r->source, cpus, cpus == 1 ? "" : "s");
    } else {
        snprintf(reason, cap,
                 "3/4 of %u x 16 MiB: %s reports a %s last-level cache and not which CPUs "
                 "share it; counted as at most 16 MiB for each of the %u online CPU%s",
                 cpus, r->source, size, cpus, cpus == 1 ? "" : "s");
    }
    return CK__LLC_PER_CPU_MAX * cpus / 4 * 3;
}

static void ck__stream_init(void) {
    ck__cache_report r = {0, 0, 0, "sysfs"};
    r.llc = llc_from_sysfs(&r.sharing);
    if (r.llc == 0) {
        r.llc = llc_from_sysconf();
        r.sharing = 0; /* sysconf does not say */
        r.source = "sysconf";
    }
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    r.online = online > 0 && online < (long)UINT_MAX ? (unsigned)online : 0;
    ck__stream.llc = r.llc;
    ck__stream.sharing = r.sharing;
    if (!CK__HAVE_STREAMING) {
        ck__stream.fallback = SIZE_MAX;
        snprintf(ck__stream.reason, sizeof ck__stream.reason,
                 "no streaming stores on this architecture");
        return;
    }
    const char *env = getenv("CKERNEL_STREAMING_MIN_BYTES");
    if (env != NULL && env[0] != '\0') {
        char *end = NULL;
        errno = 0;
        const unsigned long long v = strtoull(env, &end, 10);
        if (strcmp(env, "off") == 0) {
            ck__stream.fallback = SIZE_MAX;
            snprintf(ck__stream.reason, sizeof ck__stream.reason,
                     "CKERNEL_STREAMING_MIN_BYTES=off");
            return;
        }
        if (errno == 0 && end != env && *end == '\0' && env[0] != '-' && v > 0 &&
            v <= SIZE_MAX) {
            ck__stream.fallback = (size_t)v;
            snprintf(ck__stream.reason, sizeof ck__stream.reason, "CKERNEL_STREAMING_MIN_BYTES");
            return;
        }
        /* A malformed value is ignored (it is a tuning knob); info shows what applies. */
    }
    ck__stream.fallback = ck__streaming_rule(&r, ck__stream.reason, sizeof ck__stream.reason);
}

size_t ck_cpu_llc_bytes(void) {
    pthread_once(&ck__stream_once, ck__stream_init);
    return ck__stream.llc;
}

size_t ck_get_streaming_threshold(void) {
    pthread_once(&ck__stream_once, ck__stream_init);
    const size_t api = atomic_load_explicit(&ck__stream_api, memory_order_relaxed);
    if (!CK__HAVE_STREAMING) {
        return SIZE_MAX;
    }
    return api != 0 ? api : ck__stream.fallback;
}

/* What builds read: the threshold in effect, 0 until first computed (every build asks, so
 * the once-check and the two sources are folded into one load). */
static _Atomic size_t ck__stream_effective;

size_t ck__streaming_min_bytes(void) {
    size_t v = atomic_load_explicit(&ck__stream_effective, memory_order_relaxed);
    if (CK__LIKELY(v != 0)) {
        return v;
    }
    v = ck_get_streaming_threshold();
    size_t expected = 0; /* a setter that ran meanwhile stored the newer value: keep it */
    atomic_compare_exchange_strong_explicit(&ck__stream_effective, &expected, v,
                                            memory_order_relaxed, memory_order_relaxed);
    return atomic_load_explicit(&ck__stream_effective, memory_order_relaxed);
}

void ck_set_streaming_threshold(size_t bytes) {
    atomic_store_explicit(&ck__stream_api, bytes, memory_order_relaxed);
    atomic_store_explicit(&ck__stream_effective, ck_get_streaming_threshold(),
                          memory_order_relaxed);
}

const char *ck_streaming_threshold_reason(void) {
    pthread_once(&ck__stream_once, ck__stream_init);
    if (CK__HAVE_STREAMING && atomic_load_explicit(&ck__stream_api, memory_order_relaxed) != 0) {
        return "ck_set_streaming_threshold";
    }
    return ck__stream.reason;
}
