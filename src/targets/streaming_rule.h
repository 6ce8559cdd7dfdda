/* src/targets/streaming_rule.h: the default streaming-store threshold decided from what
 * a machine reports of its last-level cache (src/targets/streaming_threshold.c). */
#ifndef CKERNEL_STREAMING_RULE_H
#define CKERNEL_STREAMING_RULE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the machine says of its last-level cache, and the default threshold decided from
 * it (3/4 of the cache, at most 16 MiB counted per CPU sharing it, or per online CPU when
 * the sharing is unknown; 8 MiB when the size is unknown), with the rule that decided
 * written to reason. Pure: the tests give it the reports of machines they are not on. */
typedef struct ck__cache_report {
    size_t llc;         /* bytes, 0 when unknown */
    unsigned sharing;   /* CPUs sharing it, 0 when unknown */
    unsigned online;    /* online CPUs, 0 when unknown */
    const char *source; /* where llc was read: "sysfs" or "sysconf" */
} ck__cache_report;
size_t ck__streaming_rule(const ck__cache_report *r, char *reason, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
