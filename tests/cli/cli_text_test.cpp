// tests/cli/cli_text_test.cpp: the text lines of issue 27, run as a user runs them: numbers
// read from strings, integers written as strings, and unreadable text refused with its value.
#include <gtest/gtest.h>

#include <string>

#include "ckt_process.hpp"

namespace {

using ckt::Result;

Result ckernel(const std::string &args) {
    return ckt::run_shell(std::string(CK_CLI_PATH) + " " + args);
}

TEST(CliText, AssignReadsNumbersFromStrings) {
    Result r = ckernel("assign \"3 * float64\" \"3 * string\" '[\"1.5\", \" 2\", \"-inf\"]'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[1.5, 2, -inf]\n");
}

TEST(CliText, AssignWritesIntegersAsStrings) {
    Result r = ckernel("assign \"2 * string\" \"2 * int32\" \"[7, -3]\"");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[\"7\", \"-3\"]\n");
}

TEST(CliText, AssignRefusesTextThatIsNotANumberNamingIt) {
    Result r = ckernel("assign \"float64\" \"string\" '\"x1\"'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_TEXT: cannot read the text \"x1\" as float64\n");
    r = ckernel("assign \"3 * int8\" \"3 * fixed_string[4, 'utf32']\" '[\"1\", \"2\", \"3x\"]'");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out,
              "ckernel: error: CK_ERR_TEXT: cannot read the text \"3x\" as int8 at element [2]\n");
}

TEST(CliText, ExplainShowsTheTextCast) {
    Result r = ckernel("explain \"3 * fixed_string[8, 'utf16']\" \"3 * string\"");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("text_cast_strided  string -> fixed_string[8, 'utf16'] (fractional)"),
              std::string::npos)
        << r.out;
}

}  // namespace
