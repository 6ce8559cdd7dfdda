// tests/cli/cli_text_call_test.cpp: the callables on text from the command line, as a user
// runs them: issue 27's comparison line exactly, length and concat.
#include <gtest/gtest.h>

#include <string>

#include "ckt_process.hpp"

namespace {

using ckt::Result;

Result ckernel(const std::string &args) {
    return ckt::run_shell(std::string(CK_CLI_PATH) + " " + args);
}

TEST(CliTextCall, LessComparesStringsAsTheIssueSays) {
    Result r = ckernel("call less --in \"2 * string\" '[\"a\", \"b\"]' --in \"string\" '\"b\"'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[true, false]\n");
}

TEST(CliTextCall, LengthAndConcat) {
    Result r = ckernel("call length --in \"2 * fixed_string[4, 'utf32']\" '[\"\\u00e9t\\u00e9\", \"\"]'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "[3, 0]\n");
    r = ckernel("call concat --in \"fixed_string[2]\" '\"ab\"' --in \"fixed_string[1]\" '\"c\"'");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out, "\"abc\"\n");
}

TEST(CliTextCall, TextWithANumberIsRefused) {
    Result r = ckernel("call less --in \"string\" '\"a\"' --in \"int32\" \"1\"");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "ckernel: error: CK_ERR_TYPE: less: argument 1 is int32; with text, every "
                     "argument of less must be text (cast numbers to text first)\n");
}

}  // namespace
