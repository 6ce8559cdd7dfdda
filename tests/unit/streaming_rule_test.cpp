// tests/unit/streaming_rule_test.cpp: the default streaming threshold decided from what a
// machine reports of its last-level cache (ck__streaming_rule, src/targets/streaming_threshold.c),
// for the reports of machines these tests do not run on. Expected thresholds are worked out
// by hand from the rule in docs/design.md §9.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

extern "C" {  // internal C headers without C++ guards
#include "targets/streaming_rule.h"
}

namespace {

constexpr size_t MiB = size_t{1} << 20;

struct Case {
    const char *machine;
    ck__cache_report report;
    size_t want;
    const char *reason_starts;
};

const Case cases[] = {
    // /sys describes the cache and who shares it.
    {"2-CPU AMD VM, 32 MiB L3 for 2 CPUs", {32 * MiB, 2, 2, "sysfs"}, 24 * MiB,
     "3/4 of the 32 MiB last-level cache (sysfs)"},
    {"2-CPU Intel VM reporting its host's 480 MiB for 2 CPUs", {480 * MiB, 2, 2, "sysfs"},
     24 * MiB,
     "3/4 of 2 x 16 MiB: the 480 MiB last-level cache that sysfs reports for 2 CPUs is more"},
    {"stacked-cache part, 96 MiB for 8 CPUs", {96 * MiB, 8, 16, "sysfs"}, 72 * MiB,
     "3/4 of the 96 MiB last-level cache (sysfs)"},
    {"one CPU reporting 64 MiB", {64 * MiB, 1, 1, "sysfs"}, 12 * MiB,
     "3/4 of 1 x 16 MiB: the 64 MiB last-level cache that sysfs reports for 1 CPU is more"},
    // No /sys cache description: sysconf's figure, shared by every online CPU.
    {"2-CPU AMD VM without /sys caches, sysconf 508 MiB", {532676608, 0, 2, "sysconf"},
     24 * MiB,
     "3/4 of 2 x 16 MiB: sysconf reports a 508 MiB last-level cache and not which CPUs share "
     "it; counted as at most 16 MiB for each of the 2 online CPUs"},
    {"64-CPU server, sysconf 32 MiB", {32 * MiB, 0, 64, "sysconf"}, 24 * MiB,
     "3/4 of the 32 MiB last-level cache (sysconf)"},
    {"online CPUs unknown too: one CPU counted", {256 * MiB, 0, 0, "sysconf"}, 12 * MiB,
     "3/4 of 1 x 16 MiB: sysconf reports a 256 MiB last-level cache"},
    // Nothing known.
    {"no cache size anywhere", {0, 0, 4, "sysconf"}, 8 * MiB,
     "8 MiB: the cache size is unknown"},
};

TEST(StreamingRule, ThresholdsForTheCacheReportsOfOtherMachines) {
    for (const Case &c : cases) {
        char reason[256];
        const size_t got = ck__streaming_rule(&c.report, reason, sizeof reason);
        EXPECT_EQ(got, c.want) << c.machine << ": " << reason;
        EXPECT_EQ(std::string(reason).rfind(c.reason_starts, 0), 0u)
            << c.machine << ": " << reason;
    }
}

TEST(StreamingRule, AShortReasonBufferIsCutNotOverrun) {
    char reason[16];
    reason[15] = 'x';
    const ck__cache_report r = {532676608, 0, 2, "sysconf"};
    EXPECT_EQ(ck__streaming_rule(&r, reason, 12), 24 * MiB);
    EXPECT_EQ(std::string(reason), "3/4 of 2 x ");  // 11 characters and the terminator
    EXPECT_EQ(reason[15], 'x');
}

}  // namespace
