// tests/cli/cli_test.cpp: the ckernel program's commands: exact output for explains and
// assigns (written out by hand), exit statuses 0/1/2, messages, standard input, --help.
#include <gtest/gtest.h>

#include <unistd.h>

#include <string>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "ckt_process.hpp"

namespace {

using ckt::Result;

// This architecture's targets, as the messages list them.
#if defined(__aarch64__)
#define KT_TARGET_CHOICES "baseline, asimdhp or sve"
#elif defined(__x86_64__) || defined(__i386__)
#define KT_TARGET_CHOICES "baseline, avx2 or avx512"
#elif defined(__arm__)
#define KT_TARGET_CHOICES "baseline or neon"
#elif defined(__powerpc64__)
#define KT_TARGET_CHOICES "baseline, vsx3 or vsx4"
#else
#define KT_TARGET_CHOICES "baseline"
#endif

// Runs `ckernel ARGS` with CKERNEL_CPU_TARGET pinned (baseline by default, so the chosen
// target does not depend on the machine), optionally feeding `input`.
Result ckernel(const std::string &args, const std::string &input = "",
               const std::string &target = "baseline", const std::string &env = "") {
    std::string cmd = "CKERNEL_CPU_TARGET=" + target + " " + (env.empty() ? "" : env + " ");
    if (!input.empty()) cmd += "printf '%s' '" + input + "' | ";
    return ckt::run_shell(cmd + CK_CLI_PATH + " " + args);
}

TEST(Cli, ExplainANestedRaggedAssignment) {
    Result r = ckernel("explain '3 * var * float64' '3 * var * int32'");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(ckt::tree_text(r.out),
              ckt::tree_text("strided_dim @0 +40  strided_dim_single  size=3 dst_stride=16 src_stride=16\n"
                             "  var_dim @40 +72  var_dim_strided  dst=var(stride=8 offset=0) "
                             "src=var(stride=4 offset=0)\n"
                             "    leaf @112 +16  cast int32 -> float64 (fractional) strided [baseline]\n"
                             "total: 128 bytes in the kernel buffer; builder inline, no heap allocation "
                             "(capacity 128)\n"));
}

TEST(Cli, ExplainBroadcastModesPointersAndUnaligned) {
    Result r = ckernel("explain --errmode nocheck --target baseline '4 * 2 * float32' '2 * int64'");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(ckt::tree_text(r.out),
              ckt::tree_text("strided_dim @0 +40  strided_dim_single  size=4 dst_stride=8 src_stride=0 "
                             "(broadcast)\n"
                             "  strided_dim @40 +40  strided_dim_strided  size=2 dst_stride=4 src_stride=8\n"
                             "    leaf @80 +16  cast int64 -> float32 (nocheck) strided [baseline]\n"
                             "total: 96 bytes in the kernel buffer; builder inline, no heap allocation "
                             "(capacity 128)\n"));
    r = ckernel("explain --unaligned int32 'pointer[int16]'");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(ckt::tree_text(r.out),
              ckt::tree_text("pointer_gather @0 +40  pointer_gather_single  target_offset=0 gather=2 "
                             "chunk=128\n"
                             "  unaligned @40 +40  unaligned_strided  buffers=dst chunk=1024\n"
                             "    leaf @80 +16  cast int16 -> int32 (fractional) strided [baseline]\n"
                             "total: 96 bytes in the kernel buffer; builder inline, no heap allocation "
                             "(capacity 128)\n"));
    // The target's own type: the gather copies straight into the (unaligned) destination.
    r = ckernel("explain --unaligned int16 'pointer[int16]'");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(ckt::tree_text(r.out),
              ckt::tree_text("pointer_gather_copy @0 +40  pointer_gather_copy_single  target_offset=0 copy=2\n"
                             "total: 40 bytes in the kernel buffer; builder inline, no heap allocation "
                             "(capacity 128)\n"));
}

TEST(Cli, ExplainErrors) {
    Result r = ckernel("explain '3 * int32' '4 * int32'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out,
              "ckernel: error: CK_ERR_BROADCAST: cannot broadcast source 4 * int32 into "
              "destination 3 * int32: dimension 0 has size 4 in the source and 3 in the "
              "destination\n");
    r = ckernel("explain '3 * vra * int32' int32");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out,
              "ckernel: error: CK_ERR_PARSE: 3 * vra * int32: unknown type 'vra' at column 5\n");
}

TEST(Cli, AssignEveryKindOfDimension) {
    struct Case {
        const char *args, *expect;
    } cases[] = {
        {"int8 float64 '-12.0'", "-12\n"},
        {"'2 * 3 * float32' '3 * int32' '[1, 2, 3]'", "[[1, 2, 3], [1, 2, 3]]\n"},
        {"'3 * 1 * int16' '3 * 1 * uint8' '[[1], [2], [255]]'", "[[1], [2], [255]]\n"},
        {"'2 * var * float64' '2 * var * int8' '[[1, 2], [3]]'", "[[1, 2], [3]]\n"},
        {"'var * int32' int64 '9'", "[9]\n"},
        {"'3 * int64' 'var * int8' '[7]'", "[7, 7, 7]\n"},
        {"float64 'pointer[int32]' '42'", "42\n"},
        {"'pointer[2 * uint8]' '2 * bool' '[true, false]'", "[1, 0]\n"},
        {"complex64 float16 '0.5'", "0.5+0j\n"},
    };
    for (const Case &c : cases) {
        Result r = ckernel(std::string("assign ") + c.args);
        EXPECT_EQ(r.status, 0) << c.args << ": " << r.out;
        EXPECT_EQ(r.out, c.expect) << c.args;
    }
}

TEST(Cli, AssignFailsInCheckedModesWithTheDetails) {
    Result r = ckernel("assign --errmode overflow uint8 int32 '-1'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_OVERFLOW: int32 value -1 is out of range for uint8\n");
    r = ckernel("assign --errmode nocheck uint8 int32 '-1'");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "255\n");
    r = ckernel("assign int32 float64 '-10.25'");  // fractional is the default mode
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("CK_ERR_FRACTIONAL"), std::string::npos) << r.out;
    r = ckernel("assign --errmode=overflow int32 float64 '-10.25'");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "-10\n");
    r = ckernel("assign 'var * int32' 'var * int32' '[1, 2' ");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("ckernel: error: CK_ERR_PARSE: "), std::string::npos) << r.out;
}

TEST(Cli, AssignReadsTheLiteralFromStandardInput) {
    Result r = ckernel("assign '2 * var * float64' '2 * var * int8' -", "[[1], [2, 3]]\n");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "[[1], [2, 3]]\n");
}

TEST(Cli, UsageErrorsExitTwoWithAHint) {
    struct Case {
        const char *args, *expect;
    } cases[] = {
        {"", "ckernel: usage error: missing command\nTry 'ckernel --help'.\n"},
        {"frobnicate", "ckernel: usage error: unknown command 'frobnicate'\nTry 'ckernel --help'.\n"},
        {"info --bogus", "ckernel: usage error: unknown option '--bogus'\nTry 'ckernel info --help'.\n"},
        {"explain int8", "ckernel: usage error: expected DST_TYPE and SRC_TYPE\nTry 'ckernel explain --help'.\n"},
        {"assign int8 int8", "ckernel: usage error: expected DST_TYPE, SRC_TYPE and LITERAL\nTry 'ckernel assign --help'.\n"},
        {"assign --errmode sloppy int8 int8 1",
         "ckernel: usage error: --errmode takes nocheck, overflow, fractional or inexact (not "
         "'sloppy')\nTry 'ckernel assign --help'.\n"},
        {"explain --target", "ckernel: usage error: --target takes " KT_TARGET_CHOICES "\nTry 'ckernel explain --help'.\n"},
        {"explain int8 int8 int8", "ckernel: usage error: too many arguments ('int8')\nTry 'ckernel explain --help'.\n"},
    };
    for (const Case &c : cases) {
        Result r = ckernel(c.args);
        EXPECT_EQ(r.status, 2) << c.args;
        EXPECT_EQ(r.out, c.expect) << c.args;
    }
}

TEST(Cli, HelpTextsAndVersion) {
    for (const char *cmd : {"--help", "info --help", "explain --help", "assign --help"}) {
        Result r = ckernel(cmd);
        EXPECT_EQ(r.status, 0) << cmd;
        EXPECT_EQ(r.out.rfind("usage: ckernel", 0), 0u) << cmd << ": " << r.out;
    }
    Result r = ckernel("--version");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "ckernel " CK_TEST_VERSION "\n");
}

TEST(Cli, InfoNamesTheChosenTargetAndWhy) {
    Result r = ckernel("info");
    EXPECT_EQ(r.status, 0);
    // (an architecture of one target has nothing to cap)
    EXPECT_NE(r.out.find(CK_NUM_CPU_TARGETS == 1
                             ? "cpu chosen:    baseline (best supported)"
                             : "cpu chosen:    baseline (capped by CKERNEL_CPU_TARGET=baseline)"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(std::string("  threads:       ") + ck_parallel_backend()), std::string::npos)
        << r.out;
    ck_jit_info jit;
    ck_jit_get_info(&jit);
    EXPECT_NE(r.out.find(jit.available ? "  jit:           LLVM " + std::string(jit.llvm_version) +
                                             " (plugin "
                                       : "  jit:           " + std::string(jit.status) + "\n"),
              std::string::npos)
        << r.out;
    r = ckernel("info --json");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("\"chosen\": \"baseline\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(std::string("\"threads\": {\"backend\": \"") + ck_parallel_backend()),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(jit.available ? "\"jit\": {\"available\": true, \"llvm\": \""
                                       : "\"jit\": {\"available\": false, \"status\": \""),
              std::string::npos)
        << r.out;
    r = ckernel("info", "", "baseline", "CKERNEL_JIT=0");
    EXPECT_NE(r.out.find("  jit:           disabled by CKERNEL_JIT=0\n"), std::string::npos)
        << r.out;
}

// Native calls (ck_callable_add_native): the libffi this build has, or why there is none.
TEST(Cli, InfoSaysWhetherNativeCallsAreAvailable) {
    const std::string text = CK_WITH_FFI ? "  native calls:  libffi " CK_FFI_VERSION "\n"
                                         : "  native calls:  not available (built without libffi)\n";
    const std::string json = CK_WITH_FFI ? "\"native_calls\": \"libffi " CK_FFI_VERSION "\", "
                                         : "\"native_calls\": false, ";
    Result r = ckernel("info");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find(text), std::string::npos) << r.out;
    r = ckernel("info --json");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find(json + "\"jit\": {"), std::string::npos) << r.out;
}

// Number text (docs/design.md §6): fast_float and double-conversion built in, in both
// forms.
TEST(Cli, InfoNamesTheNumberTextLibraries) {
    Result r = ckernel("info");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("  number text:   fast_float " CK_FAST_FLOAT_VERSION
                         " reads, double-conversion " CK_DOUBLE_CONVERSION_VERSION
                         " prints (float32, float64; built in)\n"),
              std::string::npos)
        << r.out;
    r = ckernel("info --json");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("\"number_text\": \"fast_float " CK_FAST_FLOAT_VERSION
                         " (reading), double-conversion " CK_DOUBLE_CONVERSION_VERSION
                         " (printing)\", \"vector_math\": "),
              std::string::npos)
        << r.out;
}

// The huge-page policy (docs/design.md §5): on by default, off with the environment
// variable; the system's mode is read from the kernel's own setting.
TEST(Cli, InfoSaysWhetherHugePagesAreAdvised) {
    Result on = ckernel("info");
    EXPECT_EQ(on.status, 0);
    EXPECT_NE(on.out.find("  huge pages:    advised for blocks of 4 MiB and more (system THP mode: "),
              std::string::npos)
        << on.out;
    Result off = ckt::run_shell(std::string("CKERNEL_MADVISE_HUGEPAGE=0 ") + CK_CLI_PATH + " info");
    EXPECT_EQ(off.status, 0);
    EXPECT_NE(off.out.find("  huge pages:    not advised (CKERNEL_MADVISE_HUGEPAGE=0"),
              std::string::npos)
        << off.out;
    Result json = ckt::run_shell(std::string("CKERNEL_MADVISE_HUGEPAGE=0 ") + CK_CLI_PATH +
                                 " info --json");
    EXPECT_NE(json.out.find("\"hugepages\": {\"advised\": false, \"min_bytes\": 4194304, "
                            "\"system_mode\": \""),
              std::string::npos)
        << json.out;
}

// Streaming stores (ckernel/cpu.h): the threshold, where it comes from, and explain showing
// the streaming kernel once a destination reaches it.
TEST(Cli, InfoAndExplainShowTheStreamingThreshold) {
    if (!ckt::streaming_stores_exist()) GTEST_SKIP() << ck_streaming_threshold_reason();
    const std::string env = std::string("CKERNEL_STREAMING_MIN_BYTES=");
    Result small = ckt::run_shell(env + "1000 " + CK_CLI_PATH + " info");
    EXPECT_EQ(small.status, 0);
    EXPECT_NE(small.out.find("  streaming:     stores to destinations of 1000 bytes and more "
                             "(CKERNEL_STREAMING_MIN_BYTES)\n"),
              std::string::npos)
        << small.out;
    Result off = ckt::run_shell(env + "off " + CK_CLI_PATH + " info --json");
    EXPECT_NE(off.out.find("\"streaming\": {\"min_bytes\": null, \"llc_bytes\": "), std::string::npos)
        << off.out;
    EXPECT_NE(off.out.find("\"reason\": \"CKERNEL_STREAMING_MIN_BYTES=off\"}"), std::string::npos)
        << off.out;
    // 125 float64 = 1000 bytes streams; 124 do not.
    Result yes = ckt::run_shell(env + "1000 " + CK_CLI_PATH + " explain '125 * float64' '125 * int32'");
    EXPECT_EQ(yes.status, 0);
    EXPECT_TRUE(ckt::tree_has(yes.out, "\n  streaming @40 +48  streaming_strided  cast line=64 chunk=2048 ["))
        << yes.out;
    Result no = ckt::run_shell(env + "1000 " + CK_CLI_PATH + " explain '124 * float64' '124 * int32'");
    EXPECT_EQ(no.status, 0);
    EXPECT_EQ(no.out.find("streaming"), std::string::npos) << no.out;
}

// CKERNEL_VECTOR_WIDTH decides the bandwidth-bound loops' target where avx512 is in use; info
// says which and why; a value other than 256 or 512 is an error of every command.
TEST(Cli, TheVectorWidthVariableDecidesTheBandwidthTarget) {
    const std::string env = "CKERNEL_CPU_TARGET= CKERNEL_VECTOR_WIDTH=";
    Result plain = ckt::run_shell(env + " " + CK_CLI_PATH + " info --json");
    ASSERT_EQ(plain.status, 0) << plain.out;
    const bool avx512 = plain.out.find("\"chosen\": \"avx512\"") != std::string::npos;
    const bool avx2_compiled = plain.out.find("\"compiled\": \"baseline avx2") != std::string::npos;
    Result wide = ckt::run_shell(env + "512 " + CK_CLI_PATH + " info");
    Result narrow = ckt::run_shell(env + "256 " + CK_CLI_PATH + " info");
    ASSERT_EQ(wide.status, 0) << wide.out;
    ASSERT_EQ(narrow.status, 0) << narrow.out;
    if (avx512 && avx2_compiled) {
        EXPECT_NE(wide.out.find("  bandwidth:     avx512 for arithmetic, comparisons, streaming "
                                "stores and rows folds (CKERNEL_VECTOR_WIDTH=512)\n"),
                  std::string::npos)
            << wide.out;
        EXPECT_NE(narrow.out.find("  bandwidth:     avx2 for arithmetic, comparisons, streaming "
                                  "stores and rows folds (CKERNEL_VECTOR_WIDTH=256)\n"),
                  std::string::npos)
            << narrow.out;
        // The streaming loops follow it; the cast leaf keeps avx512.
        Result tree = ckt::run_shell("CKERNEL_STREAMING_MIN_BYTES=1000 " + env + "256 " +
                                     CK_CLI_PATH + " explain '125 * float64' '125 * int32'");
        EXPECT_NE(tree.out.find("cast line=64 chunk=2048 [avx2]\n"), std::string::npos) << tree.out;
        EXPECT_NE(tree.out.find("(fractional) strided [avx512]\n"), std::string::npos) << tree.out;
    } else {
        std::printf("[ SKIPPED  ] the width part: avx512 is not in use here\n");
        EXPECT_NE(narrow.out.find("  bandwidth:     "), std::string::npos) << narrow.out;
        EXPECT_NE(narrow.out.find(" (the target in use"), std::string::npos) << narrow.out;
    }
    Result bad = ckt::run_shell(env + "1024 " + CK_CLI_PATH + " explain float64 int32");
    EXPECT_EQ(bad.status, 1);
    EXPECT_EQ(bad.out, "ckernel: error: CK_ERR_INVALID: CKERNEL_VECTOR_WIDTH='1024' is not a vector "
                       "width (256 or 512)\n");
}

// The environment variable is read once per process: each run is a new process.
TEST(Cli, TheEnvironmentVariableChangesTheChosenLeaves) {
    Result base = ckernel("explain float64 int32", "", "baseline");
    EXPECT_EQ(base.status, 0);
    EXPECT_NE(base.out.find("[baseline]"), std::string::npos) << base.out;
    Result best = ckernel("explain float64 int32", "", "");
    EXPECT_EQ(best.status, 0);
    Result info = ckernel("info --json", "", "");
    // Both detected and compiled: a baseline-only build (CK_CPU_DISPATCH empty) has no avx2.
    const bool has_avx2 = (info.out.find("\"detected\": \"avx2\"") != std::string::npos ||
                           info.out.find("\"detected\": \"avx512\"") != std::string::npos) &&
                          info.out.find("\"compiled\": \"baseline avx2") != std::string::npos;
    if (has_avx2) {
        EXPECT_NE(best.out.find("[avx"), std::string::npos) << best.out;
        Result avx2 = ckernel("explain float64 int32", "", "avx2");
        EXPECT_NE(avx2.out.find("[avx2]"), std::string::npos) << avx2.out;
    }
    Result bogus = ckernel("explain float64 int32", "", "sse9");
    EXPECT_EQ(bogus.status, 1);
    EXPECT_EQ(bogus.out, std::string("ckernel: error: CK_ERR_INVALID: CKERNEL_CPU_TARGET='sse9' "
                                     "is not a CPU target (") +
                             ck_cpu_target_choices() + ")\n");
#if defined(__x86_64__) || defined(__i386__)
    EXPECT_STREQ(ck_cpu_target_choices(), "baseline, avx2 or avx512");
#endif
    // The architecture's highest target (avx512, sve), asked of a machine without it.
    const std::string top = ck_cpu_target_name(static_cast<ck_cpu_target>(CK_NUM_CPU_TARGETS - 1));
    if (info.out.find("\"detected\": \"" + top + "\"") == std::string::npos) {
        Result too_high = ckernel("explain float64 int32", "", top);
        EXPECT_EQ(too_high.status, 1);
        EXPECT_NE(too_high.out.find("CK_ERR_UNSUPPORTED: CKERNEL_CPU_TARGET=" + top +
                                    " but this CPU supports at most"),
                  std::string::npos)
            << too_high.out;
    }
}

}  // namespace

namespace {

TEST(CliCall, TheIssuesExampleAndBroadcasting) {
    Result r = ckernel("call add --in '3 * int32' '[1, 2, 3]' --in float64 0.5");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[1.5, 2.5, 3.5]\n");
    // A column and a row: 2 x 3, int8 + uint8 is int16 (the narrowest lossless fit).
    r = ckernel("call add --in '2 * 1 * int8' '[[-100], [100]]' --in '3 * uint8' '[0, 100, 255]'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[[-100, 0, 155], [100, 200, 355]]\n");
    r = ckernel("call multiply --in 'var * float32' '[1.5, -2]' --in 'var * float32' '[2]'");
    EXPECT_EQ(r.out, "[3, -4]\n");
    // Integer wraparound and truncating division are documented, not errors; divide is
    // NumPy's true division, floor_divide its floor.
    r = ckernel("call subtract --in int8 '-128' --in int8 1");
    EXPECT_EQ(r.out, "127\n");
    r = ckernel("call trunc_divide --in '2 * int32' '[-7, 7]' --in int32 2");
    EXPECT_EQ(r.out, "[-3, 3]\n");
    r = ckernel("call divide --in '2 * int32' '[-7, 7]' --in int32 2");
    EXPECT_EQ(r.out, "[-3.5, 3.5]\n");
    r = ckernel("call floor_divide --in '2 * int32' '[-7, 7]' --in int32 2");
    EXPECT_EQ(r.out, "[-4, 3]\n");
    r = ckernel("call floor_divide --in int64 7 --in int64 0");
    EXPECT_EQ(r.out, "0\n");
}

TEST(CliCall, OutTypesErrorModesAndUnsafe) {
    Result r = ckernel("call add --out '2 * int32' --in '2 * float64' '[1.5, 2]' --in float64 1");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out,
              "ckernel: error: CK_ERR_FRACTIONAL: float64 value 2.5 has a fractional part (int32)\n");
    r = ckernel("call --errmode nocheck add --out '2 * int32' --in '2 * float64' '[1.5, 2]' "
                "--in float64 1");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "[2, 3]\n");
    // int64 with uint64: no integer type holds both; float64, as NumPy (an inexact
    // conversion of each, no unsafe one, so allowing unsafe ones changes nothing).
    r = ckernel("call add --in '2 * int64' '[-1, 9007199254740993]' --in uint64 2");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[1, 9007199254740994]\n");
    r = ckernel("call --allow-unsafe divide --in int64 7 --in uint64 2");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "3.5\n");
    r = ckernel("call --errmode inexact add --in int64 9007199254740993 --in float64 0");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_INEXACT: int64 value 9007199254740993 is not exact "
                     "in float64 (9007199254740992)\n");
    r = ckernel("call subtract --in bool true --in bool false");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_TYPE: subtract: bool - bool is not defined (NumPy "
                     "refuses it too); cast an argument to an integer type to subtract\n");
    r = ckernel("call negative --in bool true");  // a unary row's refusal
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_TYPE: negative: -bool is not defined (NumPy "
                     "refuses it too); use logical_not, or cast to an integer type first\n");
    r = ckernel("call negative --in '2 * int8' '[-128, 5]'");
    EXPECT_EQ(r.out, "[-128, -5]\n");
    r = ckernel("call divide --in '3 * bool' '[true, false, true]' --in bool true");
    EXPECT_EQ(r.out, "[1, 0, 1]\n");
    r = ckernel("call add --in int64 1");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out.rfind("ckernel: error: CK_ERR_TYPE: add: no signature takes (int64) without "
                          "unsafe conversions; candidates: (bfloat16, bfloat16) -> bfloat16 "
                          "[takes 2 arguments], (bool, bool) -> bool [takes 2 arguments],",
                          0),
              0u)
        << r.out;
    EXPECT_EQ(r.out.find("..."), std::string::npos) << "the whole list fits the message";
    r = ckernel("call trunc_divide --in '3 * int16' '[1, 2, 3]' --in '3 * int16' '[1, 0, 1]'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_ZERO_DIVISION: trunc_divide: integer division by zero at "
                     "element [1]\n");
    r = ckernel("call nosuch --in int8 1");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_TYPE: no callable named 'nosuch' (ckernel callables "
                     "lists them)\n");
}

// bfloat16 on the command line: literals, arithmetic rounded once from float32, a cast that
// the inexact mode refuses, an expression and a reduction.
TEST(CliCall, Bfloat16Arguments) {
    Result r = ckernel("call add --in '2 * bfloat16' '[1.5, 2]' --in bfloat16 0.00390625");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[1.5, 2]\n");  // 1.5 + 2^-8 rounds back to 1.5 (a tie, to even)
    r = ckernel("assign --errmode inexact bfloat16 float32 0.1");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_INEXACT: float32 value 0.1 is not exact in bfloat16 "
                     "(0.10009765625)\n");
    r = ckernel("assign bfloat16 float64 257");
    EXPECT_EQ(r.out, "256\n");
    r = ckernel("eval 'a * 3' --arg a '3 * bfloat16' '[1, 2, 3.5]'");
    EXPECT_EQ(r.out, "[3, 6, 10.5]\n");
    r = ckernel("reduce sum --in '3 * ?bfloat16' '[1, NA, 2]' --skipna");
    EXPECT_EQ(r.out, "3\n");
}

TEST(CliCall, CallablesListsEveryBuiltIn) {
    Result r = ckernel("callables");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("abs\n  (bfloat16) -> bfloat16\n  (bool) -> bool\n"
                          "  (complex128) -> float64\n",
                          0),
              0u)
        << r.out;
    // bool divide gives float64, bool trunc_divide int8; bool subtract is listed, and
    // refuses when called.
    for (const char *name :
         {"\nadd\n  (bfloat16, bfloat16) -> bfloat16\n  (bool, bool) -> bool\n"
          "  (complex128, complex128) -> complex128\n",
          "\nassign\n  (bfloat16) -> bfloat16\n  (bool) -> bool\n",
          "\ndivide\n  (bfloat16, bfloat16) -> bfloat16\n  (bool, bool) -> float64\n",
          "\ntrunc_divide\n  (bfloat16, bfloat16) -> bfloat16\n  (bool, bool) -> int8\n",
          "\nmultiply\n",
          "\nsubtract\n  (bfloat16, bfloat16) -> bfloat16\n  (bool, bool) -> bool\n"
          "  (complex128, complex128) -> complex128\n"})
        EXPECT_NE(r.out.find(name), std::string::npos) << name;
}

// The number in "(capacity N)" at the end of an explain.
std::string capacity_of(const std::string &out) {
    const size_t at = out.rfind("(capacity ");
    return at == std::string::npos ? "?" : out.substr(at + 10, out.find(')', at) - at - 10);
}

TEST(CliCall, ExplainShowsTheSelectionAndTheCasts) {
    Result r = ckernel("explain --call add --in '3 * int32' --in float64");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(ckt::tree_text(r.out),
              ckt::tree_text("call add -> 3 * float64\n"
                             "selected: (float64, float64) -> float64: 0 unsafe, 0 inexact, 1 safe, 0 promote, "
                             "4 bytes wider\n"
                             "strided_dim @0 +56  strided_dim_single  size=3 dst_stride=8 src_stride=[4, 0] "
                             "(broadcast)\n"
                             "  call_args @56 +136  call_args_strided  args=[cast, pass] result=direct "
                             "chunk=1008\n"
                             "    leaf @192 +16  add float64 strided [baseline]\n"
                             "    leaf @208 +16  cast int32 -> float64 (fractional) strided [baseline]\n"
                             "total: 224 bytes in the kernel buffer; builder on the heap (capacity " +
                  capacity_of(r.out) + ")\n"))
        << "the heap capacity is the allocator's size class: >= 224";
    const size_t total = r.out.find("\ntotal: ");
    ASSERT_NE(total, std::string::npos) << r.out;
    EXPECT_GE(std::stoul(capacity_of(r.out)), std::stoul(r.out.substr(total + 8))) << r.out;
    r = ckernel("explain --call add --out '2 * float32' --in '2 * float32' --in '2 * float32'");
    EXPECT_EQ(ckt::tree_text(r.out),
              ckt::tree_text("call add -> 2 * float32\n"
                             "selected: (float32, float32) -> float32: exact\n"
                             "strided_dim @0 +56  strided_dim_single  size=2 dst_stride=4 src_stride=[4, 4]\n"
                             "  leaf @56 +16  add float32 strided [baseline]\n"
                             "total: 72 bytes in the kernel buffer; builder inline, no heap allocation "
                             "(capacity 128)\n"));
    r = ckernel("explain --call add --in int8");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("CK_ERR_TYPE: add: no signature takes (int8)"), std::string::npos) << r.out;
    r = ckernel("explain --call add");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "ckernel: usage error: missing --in SRC\nTry 'ckernel explain --help'.\n");
}

}  // namespace

namespace {

// explain --jit: the jit leaf with its fingerprint and the decision, or why there is none.
TEST(CliJit, ExplainShowsTheJitLeafOrWhyNot) {
    ck_jit_info jit;
    ck_jit_get_info(&jit);
    Result r = ckernel("explain --jit '1000 * 3 * float32' '1000 * 3 * int16'");
    EXPECT_EQ(r.status, 0) << r.out;
    if (jit.available) {
        EXPECT_TRUE(ckt::tree_starts_with(r.out, "jit @0 +24  jit_single  fingerprint=")) << r.out;
        EXPECT_NE(r.out.find(" assign (int16) -> float32 (nocheck) nest=[3000] dst_stride=[4] "
                             "src0_stride=[2] [LLVM "),
                  std::string::npos)
            << r.out;
        EXPECT_NE(r.out.find("\njit: compiled in "), std::string::npos) << r.out;
    } else {
        EXPECT_NE(r.out.find("\njit: not used: " + std::string(jit.status)), std::string::npos)
            << r.out;
    }
    // What the JIT does not compile (integer division needs its status): the composed
    // kernel, and why.
    r = ckernel("explain --jit --call trunc_divide --in '1000 * 3 * int32' --in int32");
    EXPECT_EQ(r.status, 0);
    EXPECT_TRUE(ckt::tree_has(r.out, "\nstrided_dim @0")) << r.out;
    EXPECT_NE(r.out.find("\njit: not used: "), std::string::npos) << r.out;
    if (jit.available) {
        EXPECT_NE(r.out.find("integer divide is not compiled"), std::string::npos) << r.out;
    }
    // Disabled by the environment.
    r = ckernel("explain --jit '1000 * 3 * float32' '1000 * 3 * int16'", "", "baseline",
                "CKERNEL_JIT=0");
    EXPECT_NE(r.out.find("\njit: not used: disabled by CKERNEL_JIT=0; composed kernel\n"),
              std::string::npos)
        << r.out;
}

}  // namespace

namespace {

// ---- the allocation limit (ckernel/alloc.h): the program runs under the machine's physical
// memory unless CKERNEL_ALLOC_LIMIT decides; `info` shows the limit and where it came from ----

// sysconf's pages times the page size, as getconf _PHYS_PAGES and PAGE_SIZE report them.
uint64_t physical_memory() {
    return static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) *
           static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// `ckernel ARGS` with CKERNEL_ALLOC_LIMIT set to `value` (unset when `value` is null): the
// value goes in single quotes, as a user would type it.
Result with_limit(const char *value, const std::string &args) {
    const std::string env = value == nullptr
                                ? std::string("env -u CKERNEL_ALLOC_LIMIT ")
                                : std::string("env CKERNEL_ALLOC_LIMIT='") + value + "' ";
    return ckt::run_shell(env + "CKERNEL_CPU_TARGET=baseline " + CK_CLI_PATH + " " + args);
}

struct LimitCase {
    const char *value;  // CKERNEL_ALLOC_LIMIT
    const char *bytes;  // the limit in info --json: a number, "null" (none) or "phys"
    const char *reason;
};

constexpr const char *kPhys = "phys";
const LimitCase kLimits[] = {
    {"1048576", "1048576", "CKERNEL_ALLOC_LIMIT"},
    {"1", "1", "CKERNEL_ALLOC_LIMIT"},
    {"64K", "65536", "CKERNEL_ALLOC_LIMIT"},
    {"64KiB", "65536", "CKERNEL_ALLOC_LIMIT"},
    {"3m", "3145728", "CKERNEL_ALLOC_LIMIT"},
    {"24G", "25769803776", "CKERNEL_ALLOC_LIMIT"},
    {"1T", "1099511627776", "CKERNEL_ALLOC_LIMIT"},
    {"18446744073709551615", "18446744073709551615", "CKERNEL_ALLOC_LIMIT"},  // SIZE_MAX
    {"0", "null", "CKERNEL_ALLOC_LIMIT=0"},
    {"off", "null", "CKERNEL_ALLOC_LIMIT=off"},
    // Malformed: ignored, so the program's default applies.
    {"", kPhys, "this machine's physical memory; CKERNEL_ALLOC_LIMIT is empty"},
    {"12Q", kPhys, "this machine's physical memory; CKERNEL_ALLOC_LIMIT='12Q' is malformed and ignored"},
    {"-5", kPhys, "this machine's physical memory; CKERNEL_ALLOC_LIMIT='-5' is malformed and ignored"},
    {" 5", kPhys, "this machine's physical memory; CKERNEL_ALLOC_LIMIT=' 5' is malformed and ignored"},
    {"1.5G", kPhys, "this machine's physical memory; CKERNEL_ALLOC_LIMIT='1.5G' is malformed and ignored"},
    {"10GB", kPhys, "this machine's physical memory; CKERNEL_ALLOC_LIMIT='10GB' is malformed and ignored"},
    {"OFF", kPhys, "this machine's physical memory; CKERNEL_ALLOC_LIMIT='OFF' is malformed and ignored"},
    // 2^64 and 2^24 TiB = 2^64: one more than SIZE_MAX.
    {"18446744073709551616", kPhys,
     "this machine's physical memory; CKERNEL_ALLOC_LIMIT='18446744073709551616' is malformed and ignored"},
    {"16777216T", kPhys,
     "this machine's physical memory; CKERNEL_ALLOC_LIMIT='16777216T' is malformed and ignored"},
    // Quotes and backslashes would break info's JSON: shown as '?'.
    {"a\"b\\c", kPhys, "this machine's physical memory; CKERNEL_ALLOC_LIMIT='a?b?c' is malformed and ignored"},
};

class CliAllocLimit : public ::testing::TestWithParam<LimitCase> {};

TEST_P(CliAllocLimit, InfoShowsTheLimitAndWhereItCameFrom) {
    const LimitCase &c = GetParam();
    // The program's default: the physical memory, or none where that is more than this
    // process can address (a 32-bit one on a machine of more than 4 GiB).
    const uint64_t phys = physical_memory();
    const bool phys_fits = phys <= SIZE_MAX;
    const std::string default_bytes = phys_fits ? std::to_string(phys) : "null";
    const std::string phys_origin = "this machine's physical memory; ";
    const std::string default_origin =
        phys_fits ? phys_origin : "the physical memory is more than this process can address; ";
    std::string bytes = c.bytes == kPhys ? default_bytes : c.bytes, reason = c.reason;
    if (c.bytes == kPhys) {
        reason = default_origin + reason.substr(phys_origin.size());
    } else if (std::strcmp(c.bytes, "null") != 0 && std::stoull(c.bytes) > SIZE_MAX) {
        // Well-formed, but no allocation here can reach it: ignored as a malformed one.
        bytes = default_bytes;
        reason = default_origin + "CKERNEL_ALLOC_LIMIT='" + c.value +
                 "' is more than this process can address and ignored";
    }
    Result r = with_limit(c.value, "info --json");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("\"alloc_limit\": {\"bytes\": " + bytes + ", \"reason\": \"" + reason + "\"}, "),
              std::string::npos)
        << r.out;
}

INSTANTIATE_TEST_SUITE_P(Cli, CliAllocLimit, ::testing::ValuesIn(kLimits),
                         ckt::name_by_content(kLimits, [](const LimitCase &c) {
                             const std::string v = c.value;
                             if (v.empty()) return std::string("empty value");
                             return "value " + std::string(v[0] == ' ' ? "space" : "") + v;
                         }));

TEST(CliAllocLimitText, InfoPrintsTheLimitInWords) {
    Result r = with_limit("1048576", "info");
    EXPECT_NE(r.out.find("\n  alloc limit:   1.0 MiB = 1048576 bytes (CKERNEL_ALLOC_LIMIT)\n"),
              std::string::npos)
        << r.out;
    r = with_limit("100", "info");
    EXPECT_NE(r.out.find("\n  alloc limit:   100 bytes (CKERNEL_ALLOC_LIMIT)\n"), std::string::npos)
        << r.out;
    r = with_limit("off", "info");
    EXPECT_NE(r.out.find("\n  alloc limit:   none (CKERNEL_ALLOC_LIMIT=off)\n"), std::string::npos)
        << r.out;
    r = with_limit(nullptr, "info");
    if (physical_memory() <= SIZE_MAX) {
        EXPECT_NE(r.out.find(" = " + std::to_string(physical_memory()) +
                             " bytes (this machine's physical memory; CKERNEL_ALLOC_LIMIT is not set)\n"),
                  std::string::npos)
            << r.out;
    } else {
        EXPECT_NE(r.out.find("\n  alloc limit:   none (the physical memory is more than this "
                             "process can address; CKERNEL_ALLOC_LIMIT is not set)\n"),
                  std::string::npos)
            << r.out;
    }
}

// The issue's example: a terabyte destination. Under the default limit it fails before
// anything is allocated or filled, with the request and the limit named, and a line on how
// to change the limit. (The data block's request is the terabyte plus its small header.)
TEST(CliAllocLimitText, ATerabyteAssignmentFailsUnderThePhysicalMemory) {
#if SIZE_MAX <= UINT32_MAX
    GTEST_SKIP() << "a terabyte is not a 32-bit size (type_test refuses such shapes)";
#else
    const size_t phys = physical_memory();
    if (phys >= size_t{1000000000000}) GTEST_SKIP() << "this machine has a terabyte of memory";
    Result r = with_limit(nullptr, "assign '1000000000000 * int8' int8 1");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_EQ(r.out.rfind("ckernel: error: CK_ERR_NOMEM: ckernel allocation limit: a request of "
                          "1000000000",
                          0),
              0u)
        << r.out;
    EXPECT_NE(r.out.find(" bytes, above the limit of " + std::to_string(phys) +
                         " (ck_set_alloc_limit)\nckernel: the limit is this machine's physical "
                         "memory; CKERNEL_ALLOC_LIMIT=BYTES (K, M, G, T suffixes) or =off changes "
                         "it\n"),
              std::string::npos)
        << r.out;
#endif
}

// A limit from the environment refuses with its own name, and without the default's hint.
TEST(CliAllocLimitText, TheEnvironmentsLimitRefusesAnAssignment) {
    Result r = with_limit("1M", "assign '2000000 * int8' int8 1");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_EQ(r.out.rfind("ckernel: error: CK_ERR_NOMEM: ckernel allocation limit: a request of ", 0), 0u)
        << r.out;
    const std::string tail = " bytes, above the limit of 1048576 (CKERNEL_ALLOC_LIMIT)\n";
    ASSERT_GE(r.out.size(), tail.size()) << r.out;
    EXPECT_EQ(r.out.substr(r.out.size() - tail.size()), tail) << r.out;
    // Under the limit the same command works.
    r = with_limit("1M", "assign '3 * int8' int8 1");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[1, 1, 1]\n");
}

// Standard input is read into a 4096-byte buffer first: a limit below it refuses that.
TEST(CliAllocLimitText, ReadingStandardInputKeepsTheLimitsMessage) {
    Result r = ckt::run_shell(std::string("printf '[1, 2]' | env CKERNEL_ALLOC_LIMIT=1K ") +
                              CK_CLI_PATH + " assign '2 * int8' '2 * int8' -");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_EQ(r.out.rfind("ckernel: error: CK_ERR_NOMEM: ckernel allocation limit: a request of "
                          "4096 bytes would hold ",
                          0),
              0u)
        << r.out;
    EXPECT_NE(r.out.find(" bytes, above the limit of 1024 (CKERNEL_ALLOC_LIMIT)\n"), std::string::npos)
        << r.out;
}

}  // namespace
