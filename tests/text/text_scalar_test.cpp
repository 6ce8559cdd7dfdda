// tests/text/text_scalar_test.cpp: bool and complex to and from text (docs/design.md §16)
// against hand tables: Python's str() of a bool and repr() of a complex (what NumPy's astype
// writes, taken from Python 3 by hand), NumPy 1.24's reading (a bool's text as an integer, a
// complex's as complex() reads it), refusals with the element, and round trips. NumPy on the
// same buffers: tests/host/numpy_text_test.py.
#include <string>

#include "text_support.hpp"

namespace {

class TextScalar : public txt::Leakless {};

constexpr ck_errmode FRACTIONAL = CK_ERRMODE_FRACTIONAL;
constexpr ck_errmode NOCHECK = CK_ERRMODE_NOCHECK;

TEST_F(TextScalar, BoolWritesTrueAndFalse) {
    const txt::Case cases[] = {
        {"2 * string", "2 * bool", "[true, false]", FRACTIONAL, CK_OK, "[\"True\", \"False\"]"},
        {"2 * fixed_bytes[5]", "2 * bool", "[false, true]", FRACTIONAL, CK_OK,
         "[\"False\", \"True\"]"},
        {"2 * fixed_string[5, 'utf16']", "2 * bool", "[false, true]", FRACTIONAL, CK_OK,
         "[\"False\", \"True\"]"},
        {"fixed_string[3]", "bool", "true", FRACTIONAL, CK_ERR_OVERFLOW,
         "the text \"True\" (4 code units) does not fit fixed_string[3, 'utf8']"},
        {"fixed_string[3, 'utf32']", "bool", "true", NOCHECK, CK_OK, "\"Tru\""},
        {"2 * ?string", "2 * ?bool", "[NA, true]", FRACTIONAL, CK_OK, "[NA, \"True\"]"},
    };
    for (const auto &c : cases) txt::check(c);
}

TEST_F(TextScalar, BoolReadsIntegersAndTrueFalse) {
    const txt::Case cases[] = {
        // NumPy 1.24 reads the text as int(): nonzero is True
        {"7 * bool", "7 * string", "[\"0\", \"1\", \"2\", \"-0\", \" 7\\t\", \"+00\", \"-5\"]",
         FRACTIONAL, CK_OK, "[false, true, true, false, true, false, true]"},
        {"bool", "string", "\"123456789012345678901234567890\"", FRACTIONAL, CK_OK, "true"},
        {"bool", "fixed_string[40, 'utf32']", "\"0000000000000000000000000000000000000000\"",
         FRACTIONAL, CK_OK, "false"},
        // what bool -> text writes reads back (NumPy refuses it)
        {"2 * bool", "2 * fixed_bytes[6]", "[\"True\", \"False\"]", FRACTIONAL, CK_OK,
         "[true, false]"},
        {"2 * bool", "2 * string", "[\"1\", \"true\"]", FRACTIONAL, CK_ERR_TEXT,
         "cannot read the text \"true\" as bool: it is not an integer, True or False at "
         "element [1]"},
        {"bool", "string", "\"1.0\"", NOCHECK, CK_ERR_TEXT, "cannot read the text \"1.0\""},
        {"bool", "string", "\"\"", FRACTIONAL, CK_ERR_TEXT, "cannot read the text \"\" as bool"},
        {"bool", "string", "\"+\"", FRACTIONAL, CK_ERR_TEXT, "as bool"},
        {"bool", "string", "\"1 0\"", FRACTIONAL, CK_ERR_TEXT, "as bool"},
        {"bool", "string", "\"\\u0661\"", FRACTIONAL, CK_ERR_TEXT, "as bool"},  // Arabic-Indic 1
    };
    for (const auto &c : cases) txt::check(c);
}

TEST_F(TextScalar, ComplexWritesPythonsRepr) {
    const txt::Case cases[] = {
        // repr() of each, from Python 3 by hand
        {"4 * string", "4 * complex128", "[1+2j, 0+1j, 0-0j, -0+0j]", FRACTIONAL, CK_OK,
         "[\"(1+2j)\", \"1j\", \"-0j\", \"(-0+0j)\"]"},
        {"4 * string", "4 * complex128", "[1.5-0j, 1e+20+1e-05j, inf+nanj, 0+0j]", FRACTIONAL,
         CK_OK, "[\"(1.5-0j)\", \"(1e+20+1e-05j)\", \"(inf+nanj)\", \"0j\"]"},
        {"3 * string", "3 * complex128", "[-inf-infj, nan+0j, 0+nanj]", FRACTIONAL, CK_OK,
         "[\"(-inf-infj)\", \"(nan+0j)\", \"nanj\"]"},
        {"2 * string", "2 * complex128", "[0.1+0.2j, 1e+16+1j]", FRACTIONAL, CK_OK,
         "[\"(0.1+0.2j)\", \"(1e+16+1j)\"]"},
        // complex64: the shortest float32 text of each part
        {"2 * fixed_string[24, 'utf32']", "2 * complex64", "[0.1+0.2j, 3.4028235e+38+0j]",
         FRACTIONAL, CK_OK, "[\"(0.1+0.2j)\", \"(3.4028235e+38+0j)\"]"},
        {"fixed_bytes[4]", "complex128", "1+2j", FRACTIONAL, CK_ERR_OVERFLOW,
         "the text \"(1+2j)\" (6 code units) does not fit fixed_bytes[4]"},
        {"fixed_bytes[3]", "complex128", "1+2j", NOCHECK, CK_OK, "\"(1+\""},
    };
    for (const auto &c : cases) txt::check(c);
}

TEST_F(TextScalar, ComplexReadsPythonsComplexGrammar) {
    const txt::Case cases[] = {
        {"6 * complex128", "6 * string",
         "[\"1+2j\", \"(1+2j)\", \" 1j \", \"1\", \"( 1-2.5J )\", \"-j\"]", FRACTIONAL, CK_OK,
         "[1+2j, 1+2j, 0+1j, 1+0j, 1-2.5j, 0-1j]"},
        {"6 * complex128", "6 * fixed_string[12, 'utf32']",
         "[\"j\", \"+j\", \"1+j\", \"1e3J\", \".5j\", \"5.j\"]", FRACTIONAL, CK_OK,
         "[0+1j, 0+1j, 1+1j, 0+1000j, 0+0.5j, 0+5j]"},
        {"5 * complex128", "5 * fixed_bytes[12]",
         "[\"inf\", \"-infj\", \"1+nanj\", \"infinityj\", \"-1E+2-Infj\"]", FRACTIONAL, CK_OK,
         "[inf+0j, 0-infj, 1+nanj, 0+infj, -100-infj]"},
        // each part rounded once, straight to float32 (0.1 as float32 is 0.100000001...)
        {"complex64", "string", "\"(0.1-16777217j)\"", FRACTIONAL, CK_OK, "0.1-16777216j"},
        // finite text that rounds to infinity, as float text does
        {"complex128", "string", "\"1e400j\"", FRACTIONAL, CK_ERR_OVERFLOW,
         "the text \"1e400j\" is out of range for complex128: a part is out of range"},
        {"complex128", "string", "\"1e400j\"", NOCHECK, CK_OK, "0+infj"},
        {"complex64", "string", "\"1e39\"", FRACTIONAL, CK_ERR_OVERFLOW, "out of range"},
    };
    for (const auto &c : cases) txt::check(c);
    // What Python's complex() refuses (ValueError), refused with the element.
    const char *refused[] = {"1 + 2j", "(1+2j", "1+2j)", "", "( )", "1+-2j", "1-+2j", "++1",
                             "1j+1", "1+2jj", "1+2", "0x10", "1_0j", "nan(1)j", "(1+2j))",
                             "j1", "1e", "1ej", "e5j"};
    for (const char *r : refused) {
        const std::string lit = "[\"0\", \"" + std::string(r) + "\"]";
        const txt::Outcome o = txt::assign("2 * complex128", "2 * string", lit.c_str());
        EXPECT_EQ(o.status, CK_ERR_TEXT) << r << ": " << o.text;
        EXPECT_TRUE(txt::contains(o.text, "as complex128")) << r << ": " << o.text;
        EXPECT_TRUE(txt::contains(o.text, "at element [1]")) << r << ": " << o.text;
    }
}

TEST_F(TextScalar, ComplexTextRoundTrips) {
    const char *values = "[1+2j, 0+1j, 0-0j, -0+0j, 1.5-0j, 1e+20+1e-05j, inf+nanj, -inf-infj, "
                         "5e-324-1.7976931348623157e+308j, 0.1+0.2j]";
    const txt::Outcome text = txt::assign("10 * string", "10 * complex128", values);
    ASSERT_EQ(text.status, CK_OK) << text.text;
    const txt::Outcome back = txt::assign("10 * complex128", "10 * string", text.text.c_str());
    EXPECT_EQ(back.status, CK_OK) << back.text;
    EXPECT_EQ(back.text, values);
}

}  // namespace
