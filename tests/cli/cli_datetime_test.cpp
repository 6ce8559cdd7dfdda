// tests/cli/cli_datetime_test.cpp: the datetime line of issue 27, run as a user runs it, and
// a datetime's unreadable text refused with its value, subtract and a comparison called.
#include <gtest/gtest.h>

#include <string>

#include "ckt_process.hpp"

namespace {

using ckt::Result;

Result ckernel(const std::string &args) {
    return ckt::run_shell(std::string(CK_CLI_PATH) + " " + args);
}

TEST(CliDatetime, AssignReadsADatetimeFromAString) {
    Result r = ckernel("assign \"datetime64[s]\" \"string\" '\"2026-11-25T20:31:42\"'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "\"2026-11-25T20:31:42\"\n");
}

TEST(CliDatetime, AssignRefusesTextThatIsNotADatetime) {
    Result r = ckernel("assign \"2 * datetime64[D]\" \"2 * string\" '[\"2026-11-25\", \"2026-02-29\"]'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_TEXT: cannot read the text \"2026-02-29\" as "
                     "datetime64[D]: the day is out of range for its month at element [1]\n");
}

TEST(CliDatetime, CallSubtractGivesATimedelta) {
    Result r = ckernel("call subtract --in \"datetime64[s]\" '\"2026-11-25T20:31:42\"' "
                       "--in \"datetime64[D]\" '\"2026-11-20\"'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "505902\n");
}

// Two units compared exactly: the second's text is floored to the day, not the day's start.
TEST(CliDatetime, CallLessComparesAcrossUnits) {
    Result r = ckernel("call less --in \"3 * datetime64[D]\" '[\"2026-11-25\", \"2026-11-26\", NaT]' "
                       "--in \"datetime64[s]\" '\"2026-11-25T20:31:42\"'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[true, false, false]\n");
}

// A comparison writes bool only: another destination is refused, saying so.
TEST(CliDatetime, CallLessWritesOnlyBool) {
    Result r = ckernel("call less --in \"datetime64[D]\" '\"2026-11-25\"' --in \"datetime64[s]\" "
                       "'\"2026-11-25T20:31:42\"' --out int32");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_TYPE: less gives bool; it cannot be written to int32 "
                     "values (assign the bool result to them)\n");
}

// An expression takes scalars: a datetime source is refused, never walked into (its type has
// no element).
TEST(CliDatetime, EvalRefusesADatetimeSource) {
    Result r = ckernel("eval \"a - b\" --arg a \"datetime64[s]\" '\"2026-01-01T00:00:00\"' "
                       "--arg b \"datetime64[s]\" '\"2025-01-01T00:00:00\"'");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_TYPE: expression: source 0 holds datetime64 values; "
                     "expressions take scalars (under dimensions, pointers and options)\n");
}

}  // namespace
