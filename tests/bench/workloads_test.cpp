// tests/bench/workloads_test.cpp: the benchmark measures correct work. For every workload of
// `ckernel bench`, on the workload's own data and sizes, the kernel's output equals the
// plain C loop's bit for bit, under every CPU target this machine runs. No timing here.
// The jit/... workloads that need the JIT are skipped (with the JIT's status as the reason)
// exactly when the JIT is not available: a build with -DCK_WITH_JIT=OFF runs these tests
// too.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "baselines.h"
}
#include "bench.h"
#include "ckernel/jit.h"

namespace {

std::vector<ck_cpu_target> runnable() {
    ck_cpu_target t[CK_NUM_CPU_TARGETS];
    int n = ckb_runnable_targets(t, CK_NUM_CPU_TARGETS);
    return std::vector<ck_cpu_target>(t, t + n);
}

// Caps the CPU target for one scope and restores what was there.
struct TargetCap {
    ck_cpu_target restore = ck_cpu_best_target();
    explicit TargetCap(ck_cpu_target t) {
        EXPECT_EQ(ck_cpu_set_target_cap(t), CK_OK) << ck_last_error();
    }
    ~TargetCap() { ck_cpu_set_target_cap(restore); }
};

TEST(BenchWorkloads, TheIssuesWorkloadsExist) {
    std::set<std::string> names;
    for (size_t i = 0; i < ckb_workload_count(); i++) {
        EXPECT_TRUE(names.insert(ckb_workload_name(i)).second) << "duplicate "
                                                                << ckb_workload_name(i);
    }
    for (const char *want :
         {"contig/int32->float64", "contig/float64->int32", "contig/float64->int32/fractional",
          "contig/float64->float32", "contig/float32->float16", "contig/float64->float64",
          "strided/int32->float64", "2d/c-order/int32->float64", "2d/transposed/int32->float64",
          "var/float32->float64", "flat/float32->float64", "pointer/float64",
          "unaligned/int32->float64", "small/1", "small/10", "small/100", "build/3-level",
          // the callables issue: selection (per op) and the built-in add through ck_make_call
          "select/warm", "select/cold", "elementwise/add/float64/contiguous",
          "elementwise/add/float64/broadcast", "elementwise/add/float64/var",
          "elementwise/add/int32+float64",
          // options: the option kernel's mask, runs of values and NaN for the NA's bits
          "option/add/float64",
          // structured types: a bit-identical struct (one copy_bytes leaf), by-name casts
          "struct/copy-identical", "struct/cast-fields",
          // issue 5's pairs, per target
          "incache/int64->float64", "incache/float32->float16", "incache/float16->float32",
          "incache/int32->float64", "incache/float64->int32/fractional",
          "incache/float64->float64",
          // the JIT: each case composed (CK_EVAL_NO_JIT) and compiled (CK_EVAL_JIT), and builds
          "jit/small-inner/composed", "jit/small-inner/jit", "jit/add-int32+float64/composed",
          "jit/add-int32+float64/jit", "jit/compile/first", "jit/compile/steady",
          "jit/compile/cache-hit",
          // number text: a million float64 printed and read through the literals
          "text/print/float64", "text/parse/float64",
          // issue 27: the text cast between numbers and U or string, 1 Mi values
          "text/cast/U32->float64", "text/cast/float64->U32", "text/cast/int64->U21",
          "text/cast/U21->int64", "text/cast/string->float64",
          // reductions, accumulations and dot (core dimensions)
          "reduce/sum/float64", "reduce/min/float64", "reduce/sum/float64/axis0",
          "reduce/sum/float64/var", "accumulate/cumsum/float64", "call/dot/float64",
          // fused expressions: one ck_make_expr kernel, composed and compiled
          "expr/fma3/composed", "expr/fma3/jit", "expr/poly/jit", "expr/mixed/composed",
          "expr/var/composed",
          // issue 41: numexpr's language
          "expr/linear/composed", "expr/linear/jit", "expr/trig/composed", "expr/trig/jit",
          "expr/trig/jit/2threads", "expr/where/composed", "expr/where/jit",
          "expr/gauss/composed", "expr/gauss/jit", "expr/logic/composed", "expr/logic/jit",
          "expr/dotsum/jit"}) {
        EXPECT_EQ(names.count(want), 1u) << want;
    }
    EXPECT_EQ(ckb_workload_name(ckb_workload_count()), nullptr);
}

TEST(BenchWorkloads, OnlyInCacheWorkloadsRunPerTarget) {
    for (size_t i = 0; i < ckb_workload_count(); i++) {
        const std::string name = ckb_workload_name(i);
        EXPECT_EQ(ckb_workload_per_target(i) != 0, name.rfind("incache/", 0) == 0) << name;
    }
}

TEST(BenchWorkloads, RunnableTargetsAreCompiledAndSupported) {
    auto ts = runnable();
    ASSERT_FALSE(ts.empty());
    EXPECT_EQ(ts.front(), CK_CPU_BASELINE);
    for (ck_cpu_target t : ts) {
        EXPECT_TRUE(ck_cpu_target_compiled(t));
        EXPECT_LE(t, ck_cpu_detected_target());
    }
}

class KernelEqualsLoop : public ::testing::TestWithParam<size_t> {};

// Whether the plain float64 -> int32 loop converts a number beside a NaN right. qemu 7.2's
// POWER emulation does not: its xvcvdpsxws (two float64 to int32, which gcc's vectorised
// loop uses) gives INT32_MIN in both lanes when one is a NaN, so there the loop is no
// reference (the kernel's own conversions are checked by tests/cast).
bool plain_f64_to_i32_converts_beside_nan() {
    const double src[8] = {1.0, NAN, 2.0, 3.0, NAN, 5.0, 6.0, NAN};
    int32_t dst[8];
    ckb_loop_float64_int32_nocheck(dst, src, 8);
    const int32_t want[8] = {1, 0, 2, 3, 0, 5, 6, 0};
    return std::equal(dst, dst + 8, want);
}

TEST_P(KernelEqualsLoop, UnderEveryRunnableTarget) {
    const size_t i = GetParam();
    char why[256];
    if (ckb_workload_skip(i, why, sizeof why)) {
        GTEST_SKIP() << ckb_workload_name(i) << ": " << why;
    }
    const std::string name = ckb_workload_name(i);
    if (name.find("float64->int32") != std::string::npos &&
        !plain_f64_to_i32_converts_beside_nan()) {
        GTEST_SKIP() << name << ": the plain loop converts a number beside a NaN to INT32_MIN "
                                "on this CPU (qemu's POWER xvcvdpsxws): no reference here";
    }
    for (ck_cpu_target t : runnable()) {
        TargetCap cap(t);
        if (ck_cpu_best_target() != t) {
            continue;  // CKERNEL_CPU_TARGET keeps the cap lower
        }
        int equal = 0;
        char msg[256];
        const int rc = ckb_workload_verify(i, &equal, msg, sizeof msg);
        ASSERT_EQ(rc, CK_OK) << ckb_workload_name(i) << " at " << ck_cpu_target_name(t) << ": "
                             << ck_status_name(rc) << " " << ck_last_error();
        EXPECT_TRUE(equal) << ckb_workload_name(i) << " at " << ck_cpu_target_name(t) << ": "
                           << msg;
    }
}

std::string param_name(const ::testing::TestParamInfo<size_t> &info) {
    std::string s = ckb_workload_name(info.param);
    for (char &c : s) {
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
    }
    return s;
}

INSTANTIATE_TEST_SUITE_P(Bench, KernelEqualsLoop,
                         ::testing::Range<size_t>(0, ckb_workload_count()), param_name);

bool ends_with(const std::string &name, const std::string &end) {
    return name.size() > end.size() && name.compare(name.size() - end.size(), end.size(), end) == 0;
}

bool is_jit_needing(const std::string &name) {
    return (name.rfind("jit/", 0) == 0 && !ends_with(name, "/composed")) ||
           (name.rfind("expr/", 0) == 0 &&
            (ends_with(name, "/jit") || name.find("/jit/") != std::string::npos));
}

TEST(BenchWorkloads, JitWorkloadsAreSkippedExactlyWhenTheJitIsNotAvailable) {
    ck_jit_info info;
    ck_jit_get_info(&info);
    for (size_t i = 0; i < ckb_workload_count(); i++) {
        const std::string name = ckb_workload_name(i);
        EXPECT_EQ(ckb_workload_needs_jit(i) != 0, is_jit_needing(name)) << name;
        char why[256] = "";
        const int skip = ckb_workload_skip(i, why, sizeof why);
        // An expression's kernel may also be one the JIT does not compile (yet): skipped
        // then too, with the JIT's reason.
        const bool expr_jit = name.rfind("expr/", 0) == 0 && is_jit_needing(name);
        if (expr_jit && info.available) {
            if (skip) {
                EXPECT_EQ(std::string(why).rfind("the JIT did not compile the expression: ", 0), 0u)
                    << name << ": " << why;
            }
        } else {
            EXPECT_EQ(skip != 0, is_jit_needing(name) && !info.available) << name << ": " << why;
        }
        if (skip && !(expr_jit && info.available)) {
            EXPECT_EQ(std::string(why), std::string("JIT: ") + info.status) << name;
        }
        if (skip) {
            // Run directly, it is an error (the runner reports it as skipped instead).
            ckb_settings s;
            ckb_settings_default(&s, 1);
            s.repeats = 1;
            ckb_result r;
            EXPECT_EQ(ckb_workload_run(i, &s, &r), CK_ERR_UNSUPPORTED) << name;
        }
    }
}

TEST(BenchWorkloads, OutOfRangeIndexIsAnError) {
    int equal = 1;
    EXPECT_EQ(ckb_workload_verify(ckb_workload_count(), &equal, nullptr, 0), CK_ERR_INVALID);
    EXPECT_EQ(equal, 0);
}

TEST(BenchHarness, MedianOfOddAndEvenCounts) {
    double a[] = {5, 1, 3};
    EXPECT_EQ(ckb_median(a, 3), 3.0);
    double b[] = {4, 1, 3, 2};
    EXPECT_EQ(ckb_median(b, 4), 2.5);
    EXPECT_EQ(ckb_median(nullptr, 0), 0.0);
}

TEST(BenchHarness, MeasureStopsAtAFailingFunctionAndChecksArguments) {
    ckb_settings s;
    ckb_settings_default(&s, 1);
    s.min_sample_ns = 1e3;
    int calls = 0;
    ckb_timed_fn ok = [](void *ctx) {
        ++*static_cast<int *>(ctx);
        return static_cast<int>(CK_OK);
    };
    ckb_timed_fn bad = [](void *) { return static_cast<int>(CK_ERR_OVERFLOW); };
    double med[4] = {-1, -1, -1, -1}, spread[4] = {-1, -1, -1, -1};
    const ckb_timed_fn fns[2] = {ok, bad};
    EXPECT_EQ(ckb_measure(fns, 2, &calls, &s, med, nullptr), CK_ERR_OVERFLOW);
    EXPECT_GT(calls, 0);
    EXPECT_EQ(ckb_measure(fns, 1, &calls, &s, med, spread), CK_OK);
    EXPECT_GE(spread[0], 0.0);
    EXPECT_GE(med[0], 0.0);  // a time, whatever it is: no timed assertion
    EXPECT_EQ(ckb_measure(fns, 0, &calls, &s, med, nullptr), CK_ERR_INVALID);
    EXPECT_EQ(ckb_measure(fns, 5, &calls, &s, med, nullptr), CK_ERR_INVALID);
}

}  // namespace
