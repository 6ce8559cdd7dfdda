// tests/text/text_literal_test.cpp: text literals: JSON-style escapes, surrogate pairs, the
// bytes each type stores (hand-encoded), NUL padding, printing back to the same literal, and
// the errors of bad literals.
#include "text_support.hpp"

namespace {

class TextLiteral : public txt::Leakless {};

using Bytes = std::vector<unsigned char>;

// The stored bytes of a one-element fixed type, by hand (code units spelled little-endian,
// compared in the host's order).
TEST_F(TextLiteral, FixedKindsStoreTheirCodeUnitsNulPadded) {
    const struct {
        const char *type, *literal;
        Bytes bytes;
    } cases[] = {
        {"fixed_string[4, 'utf8']", "\"\\u00e9a\"", {0xc3, 0xa9, 'a', 0}},
        {"fixed_string[3, 'utf16']", "\"\\ud83d\\ude00\"", {0x3d, 0xd8, 0x00, 0xde, 0, 0}},
        {"fixed_string[2, 'utf32']", "\"\xf0\x9f\x98\x80\"", {0x00, 0xf6, 0x01, 0x00, 0, 0, 0, 0}},
        {"fixed_string[2, 'utf32']", "\"\\u00e9\"", {0xe9, 0, 0, 0, 0, 0, 0, 0}},
        {"fixed_string[3, 'ascii']", "\"a\\tb\"", {'a', '\t', 'b'}},
        {"fixed_bytes[4]", "\"\\x00\\xff\\\"\"", {0x00, 0xff, '"', 0}},
        {"fixed_bytes[2]", "\"\"", {0, 0}},
        {"fixed_string[3, 'utf16']", "\"\\ufeffx\"", {0xff, 0xfe, 'x', 0, 0, 0}},  // a BOM is a character
    };
    for (const auto &c : cases) {
        ckt::Array a(c.type, c.literal);
        ASSERT_NE(a.get(), nullptr);
        const size_t unit = std::strstr(c.type, "utf32") ? 4 : std::strstr(c.type, "utf16") ? 2 : 1;
        EXPECT_EQ(txt::data_bytes(a.get()), txt::native_units(c.bytes, unit))
            << c.type << " " << c.literal;
    }
}

TEST_F(TextLiteral, StringsHoldUtf8InTheArena) {
    ckt::Array a("4 * string", "[\"\", \"a\\\"b\\\\\", \"\\u20ac\\ud834\\udd1e\", \"\xc3\xa9\\n\"]");
    ASSERT_NE(a.get(), nullptr);
    EXPECT_EQ(txt::string_at(a.get(), 0), "");
    EXPECT_EQ(txt::string_at(a.get(), 1), "a\"b\\");
    EXPECT_EQ(txt::string_at(a.get(), 2), "\xe2\x82\xac\xf0\x9d\x84\x9e");  // U+20AC U+1D11E
    EXPECT_EQ(txt::string_at(a.get(), 3), "\xc3\xa9\n");
    ckt::Array b("bytes", "\"\\x80\\x00a\xc3\"");  // raw and escaped bytes, any values
    EXPECT_EQ(txt::string_at(b.get(), 0), std::string("\x80\x00" "a\xc3", 4));
}

// Printing gives the canonical literal: JSON's escapes, \u00XX for other control
// characters, UTF-8 as it is; bytes other than printable ASCII as \xHH. It reads back to the
// same bytes.
TEST_F(TextLiteral, PrintsTheCanonicalLiteralAndReadsItBack) {
    const struct {
        const char *type, *literal, *printed;
    } cases[] = {
        {"3 * string", "[\"a\", \"\", \"\\/\"]", "[\"a\", \"\", \"/\"]"},
        {"string", "\"\\b\\f\\n\\r\\t\\u0001\\u007f\"", "\"\\b\\f\\n\\r\\t\\u0001\\u007f\""},
        {"string", "\"\\u00E9\\uD83D\\uDE00\"", "\"\xc3\xa9\xf0\x9f\x98\x80\""},
        {"fixed_string[4, 'utf32']", "\"a\\u0000b\"", "\"a\\u0000b\""},  // a NUL inside stays
        {"fixed_string[4, 'utf32']", "\"ab\\u0000\"", "\"ab\""},  // trailing NULs are padding
        {"fixed_string[6, 'utf16']", "\"\\ud800\\udc00z\"", "\"\xf0\x90\x80\x80z\""},
        {"bytes", "\"\\xc3\\xa9 \\\\\\\" \\n\\x7f\"", "\"\\xc3\\xa9 \\\\\\\" \\n\\x7f\""},
        {"fixed_bytes[3]", "\"\\x01\"", "\"\\x01\""},
        {"{s: string, f: fixed_string[2, 'ascii']}", "{f: \"ok\", s: \"x\"}", "{s: \"x\", f: \"ok\"}"},
        {"2 * var * string", "[[\"a,b\", \"]\"], []]", "[[\"a,b\", \"]\"], []]"},
        {"pointer[string]", "\"p\"", "\"p\""},
    };
    for (const auto &c : cases) {
        ckt::Array a(c.type, c.literal);
        ASSERT_NE(a.get(), nullptr) << c.type;
        EXPECT_EQ(a.str(), c.printed) << c.type << " " << c.literal;
        ckt::Array again(c.type, a.str().c_str());
        ASSERT_NE(again.get(), nullptr) << a.str();
        EXPECT_EQ(again.str(), c.printed);
    }
}

TEST_F(TextLiteral, BadLiteralsAreClearErrors) {
    const struct {
        const char *type, *literal;
        int status;
        const char *says;
    } cases[] = {
        {"string", "abc", CK_ERR_PARSE, "expected a quoted text (\"...\") for string, found 'abc'"},
        {"string", "'abc'", CK_ERR_PARSE, "expected a quoted text"},
        {"string", "\"abc", CK_ERR_PARSE, "a quoted text is not closed"},
        {"string", "\"a\nb\"", CK_ERR_PARSE, "control byte 0x0a in a quoted text"},
        {"string", "\"\\q\"", CK_ERR_PARSE, "unknown escape"},
        {"string", "\"\\u12\"", CK_ERR_PARSE, "\\u takes four hex digits"},
        {"string", "\"\\ud800\"", CK_ERR_PARSE, "\\ud800 is a high surrogate without its low"},
        {"string", "\"\\ud800\\u0041\"", CK_ERR_PARSE, "high surrogate without its low"},
        {"string", "\"\\udc00\"", CK_ERR_PARSE, "\\udc00 is a low surrogate without a high"},
        {"string", "\"\xc0\xaf\"", CK_ERR_PARSE, "not valid UTF-8 here (byte 0xc0)"},  // overlong '/'
        {"string", "\"\xe0\x80\xaf\"", CK_ERR_PARSE, "not valid UTF-8 here (byte 0xe0)"},
        {"string", "\"\xed\xa0\x80\"", CK_ERR_PARSE, "not valid UTF-8"},  // an encoded surrogate
        {"string", "\"\xf4\x90\x80\x80\"", CK_ERR_PARSE, "not valid UTF-8"},  // above U+10FFFF
        {"string", "\"\xc3\"", CK_ERR_PARSE, "not valid UTF-8"},  // truncated
        {"string", "\"\\x41\"", CK_ERR_PARSE, "unknown escape in a quoted text"},
        {"bytes", "\"\\u0041\"", CK_ERR_PARSE, "unknown escape in a quoted bytes"},
        {"bytes", "\"\\xg1\"", CK_ERR_PARSE, "\\x takes two hex digits"},
        {"fixed_string[2, 'utf8']", "\"\\u00e9a\"", CK_ERR_OVERFLOW,
         "a text of 3 code units does not fit fixed_string[2, 'utf8']"},
        {"fixed_string[1, 'utf16']", "\"\\ud83d\\ude00\"", CK_ERR_OVERFLOW, "2 code units"},
        {"fixed_string[4, 'ascii']", "\"\\u00e9\"", CK_ERR_TEXT, "U+00E9 cannot be encoded in"},
        {"2 * string", "[\"a\", 1]", CK_ERR_PARSE, "at [1] (column 7): expected a quoted text"},
        {"string", "NA", CK_ERR_PARSE, "expected a quoted text"},
    };
    for (const auto &c : cases) {
        ckt::Type t(c.type);
        ck_array *a = nullptr;
        EXPECT_EQ(ck_array_parse(t.get(), c.literal, &a), c.status)
            << c.type << " " << c.literal << ": " << ck_last_error();
        EXPECT_EQ(a, nullptr);
        EXPECT_TRUE(txt::contains(ck_last_error(), c.says))
            << c.type << " " << c.literal << ": " << ck_last_error();
    }
}

// A host's fixed string that is not valid in its encoding has no literal: printing it fails
// and says where.
TEST_F(TextLiteral, InvalidHostTextDoesNotPrint) {
    const uint16_t lone[3] = {'a', 0xdc00, 'b'};  // a lone low surrogate
    ckt::Type t("fixed_string[3, 'utf16']");
    ck_array *a = nullptr;
    ASSERT_EQ(ck_array_wrap(t.get(), nullptr, reinterpret_cast<char *>(const_cast<uint16_t *>(lone)),
                            nullptr, &a),
              CK_OK);
    char *s = nullptr;
    EXPECT_EQ(ck_array_format(a, &s), CK_ERR_TEXT);
    EXPECT_TRUE(txt::contains(ck_last_error(), "not valid utf16 at byte offset 2")) << ck_last_error();
    ck_array_free(a);
}

TEST_F(TextLiteral, ParsingAndPrintingAllocationFailsCleanly) {
    ckt::for_each_alloc_failure([] {
        ck_type *t = nullptr;
        ck_array *a = nullptr;
        char *s = nullptr;
        int rc = ck_type_parse("3 * {a: string, b: fixed_string[2, 'utf32'], c: bytes}", &t);
        if (rc == CK_OK)
            rc = ck_array_parse(t, "[{a: \"x\", b: \"y\", c: \"\\x01\"}, {a: \"\", b: \"\", c: \"\"},"
                                   " {a: \"\\u00e9\", b: \"zz\", c: \"w\"}]",
                                &a);
        if (rc == CK_OK) rc = ck_array_format(a, &s);
        if (rc == CK_OK && std::string(s) != "[{a: \"x\", b: \"y\", c: \"\\x01\"}, {a: \"\", b: "
                                             "\"\", c: \"\"}, {a: \"\xc3\xa9\", b: \"zz\", c: \"w\"}]")
            rc = CK_ERR_INTERNAL;
        ck_free(s);
        ck_array_free(a);
        ck_type_decref(t);
        return rc;
    });
}

}  // namespace
