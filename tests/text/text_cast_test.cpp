// tests/text/text_cast_test.cpp: assignments where text meets text or numbers, against hand
// tables: encodings and their Unicode edge cases (surrogates, overlong UTF-8, BOMs, NUL
// padding), truncation per error mode, number spellings, out-of-range and unreadable text
// with the element and the text in the message, round trips, and allocation failure.
#include <cmath>
#include <cstdio>
#include <random>

#include "text_support.hpp"

namespace {

class TextCast : public txt::Leakless {};

constexpr ck_errmode NOCHECK = CK_ERRMODE_NOCHECK, OVERFLOW = CK_ERRMODE_OVERFLOW,
                     FRACTIONAL = CK_ERRMODE_FRACTIONAL, INEXACT = CK_ERRMODE_INEXACT;

using txt::Case;
using txt::check;

// ---- text <- text ----

TEST_F(TextCast, BetweenEncodings) {
    const Case cases[] = {
        {"3 * fixed_string[4, 'utf32']", "3 * string", "[\"ab\", \"\\u00e9\\ud83d\\ude00\", \"\"]",
         FRACTIONAL, CK_OK, "[\"ab\", \"\xc3\xa9\xf0\x9f\x98\x80\", \"\"]"},
        {"string", "fixed_string[3, 'utf16']", "\"\\ud83d\\ude00x\"", FRACTIONAL, CK_OK,
         "\"\xf0\x9f\x98\x80x\""},
        {"fixed_string[5, 'ascii']", "fixed_string[2, 'utf32']", "\"ok\"", FRACTIONAL, CK_OK,
         "\"ok\""},
        {"bytes", "string", "\"\\u00e9\"", FRACTIONAL, CK_OK, "\"\\xc3\\xa9\""},
        {"string", "bytes", "\"\\xc3\\xa9\"", FRACTIONAL, CK_OK, "\"\xc3\xa9\""},
        {"fixed_bytes[3]", "fixed_string[1, 'utf32']", "\"\\u20ac\"", FRACTIONAL, CK_OK,
         "\"\\xe2\\x82\\xac\""},
        // A BOM is the character U+FEFF: carried over, never taken as a byte-order mark.
        {"fixed_string[2, 'utf16']", "bytes", "\"\\xef\\xbb\\xbfa\"", FRACTIONAL, CK_OK,
         "\"\xef\xbb\xbf" "a\""},
        {"{a: fixed_string[2, 'utf32'], b: int32}", "{b: int8, a: string}", "{b: 3, a: \"xy\"}",
         FRACTIONAL, CK_OK, "{a: \"xy\", b: 3}"},
        {"var * string", "var * fixed_string[2, 'utf16']", "[\"a\", \"\", \"bc\"]", FRACTIONAL,
         CK_OK, "[\"a\", \"\", \"bc\"]"},
        {"2 * string", "string", "\"same\"", FRACTIONAL, CK_OK, "[\"same\", \"same\"]"},
        {"2 * string", "pointer[string]", "\"p\"", FRACTIONAL, CK_OK, "[\"p\", \"p\"]"},
    };
    for (const auto &c : cases) check(c);
}

// The stored units of a fixed destination, by hand.
TEST_F(TextCast, FixedDestinationsHoldTheirUnitsNulPadded) {
    ckt::Array src("string", "\"\\u00e9\\ud83d\\ude00\"");
    ckt::Array u32("fixed_string[3, 'utf32']"), u16("fixed_string[4, 'utf16']"),
        u8("fixed_string[7, 'utf8']");
    for (ck_array *d : {u32.get(), u16.get(), u8.get()}) {
        // Garbage first: the padding must be written, not left.
        std::memset(ck_array_data(d), 0x5a, ck_type_data_size(ck_array_type(d)));
        ASSERT_EQ(ck_assign(d, src.get(), nullptr), CK_OK) << ck_last_error();
    }
    EXPECT_EQ(txt::data_bytes(u32.get()),
              txt::native_units({0xe9, 0, 0, 0, 0x00, 0xf6, 0x01, 0x00, 0, 0, 0, 0}, 4));
    EXPECT_EQ(txt::data_bytes(u16.get()),
              txt::native_units({0xe9, 0x00, 0x3d, 0xd8, 0x00, 0xde, 0, 0}, 2));
    EXPECT_EQ(txt::data_bytes(u8.get()),
              (std::vector<unsigned char>{0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80, 0}));
}

// Too long for a fixed destination: an error in the checked modes, a cut at a code point
// boundary in nocheck (a multi-byte character or a surrogate pair is never split).
TEST_F(TextCast, TruncationPerMode) {
    const Case cases[] = {
        {"fixed_string[3, 'utf8']", "string", "\"ab\\u00e9\"", OVERFLOW, CK_ERR_OVERFLOW,
         "the text \"ab\xc3\xa9\" (4 code units) does not fit fixed_string[3, 'utf8']"},
        {"fixed_string[3, 'utf8']", "string", "\"ab\\u00e9\"", INEXACT, CK_ERR_OVERFLOW, "does not fit"},
        {"fixed_string[3, 'utf8']", "string", "\"ab\\u00e9\"", NOCHECK, CK_OK, "\"ab\""},
        {"fixed_string[2, 'utf16']", "string", "\"a\\ud83d\\ude00\"", NOCHECK, CK_OK, "\"a\""},
        {"fixed_string[1, 'utf32']", "string", "\"\\u00e9z\"", NOCHECK, CK_OK, "\"\xc3\xa9\""},
        {"fixed_bytes[1]", "string", "\"\\u00e9\"", NOCHECK, CK_OK, "\"\""},
        {"fixed_bytes[2]", "bytes", "\"\\xc3\\xa9\\x80\"", NOCHECK, CK_OK, "\"\\xc3\\xa9\""},
        {"fixed_bytes[2]", "bytes", "\"\\xc3\\xa9\\x80\"", OVERFLOW, CK_ERR_OVERFLOW,
         "the text \"\\xc3\\xa9\\x80\" (3 code units) does not fit fixed_bytes[2]"},
        {"3 * fixed_string[1, 'ascii']", "3 * string", "[\"a\", \"b\", \"cd\"]", FRACTIONAL,
         CK_ERR_OVERFLOW, "does not fit fixed_string[1, 'ascii'] at element [2]"},
        {"fixed_string[2, 'utf32']", "fixed_string[3, 'utf32']", "\"ab\\u0000\"", OVERFLOW, CK_OK,
         "\"ab\""},  // padding is not text
    };
    for (const auto &c : cases) check(c);
}

TEST_F(TextCast, InvalidTextIsAnErrorNamingTheByteOffset) {
    const Case cases[] = {
        {"string", "bytes", "\"ab\\xff\"", NOCHECK, CK_ERR_TEXT,
         "the text \"ab\\xff\" is not valid utf8 at byte offset 2"},
        {"string", "bytes", "\"\\xc0\\xaf\"", FRACTIONAL, CK_ERR_TEXT,  // overlong '/'
         "is not valid utf8 at byte offset 0"},
        {"string", "bytes", "\"a\\xe0\\x80\\x80\"", FRACTIONAL, CK_ERR_TEXT,  // overlong NUL
         "at byte offset 1"},
        {"fixed_string[2, 'utf32']", "bytes", "\"x\\xed\\xa0\\x80\"", FRACTIONAL, CK_ERR_TEXT,
         "at byte offset 1"},  // an encoded surrogate
        {"string", "bytes", "\"\\xf4\\x90\\x80\\x80\"", FRACTIONAL, CK_ERR_TEXT,
         "at byte offset 0"},  // above U+10FFFF
        {"string", "bytes", "\"abc\\xe2\\x82\"", FRACTIONAL, CK_ERR_TEXT,
         "at byte offset 3"},  // cut short
        {"fixed_string[3, 'ascii']", "string", "\"a\\u00e9\"", NOCHECK, CK_ERR_TEXT,
         "U+00E9 at byte offset 1 cannot be encoded in ascii"},
        {"2 * string", "2 * bytes", "[\"ok\", \"\\x80\"]", FRACTIONAL, CK_ERR_TEXT,
         "is not valid utf8 at byte offset 0 at element [1]"},
    };
    for (const auto &c : cases) check(c);
}

// Host data that is not valid in its encoding (a lone UTF-16 surrogate, UTF-32 above
// U+10FFFF, ascii above 0x7f) is refused with the offset, in every mode.
TEST_F(TextCast, InvalidHostTextIsRefused) {
    const uint16_t u16[3] = {'a', 0xd800, 'b'};
    const uint32_t u32[2] = {'z', 0x110000};
    const unsigned char ascii[2] = {'q', 0xe9};
    const struct {
        const char *type;
        const void *data;
        const char *says;
    } cases[] = {
        {"fixed_string[3, 'utf16']", u16, "the text \"a\\ud800b\" is not valid utf16 at byte offset 2"},
        {"fixed_string[2, 'utf32']", u32, "the text \"z\\U00110000\" is not valid utf32 at byte offset 4"},
        {"fixed_string[2, 'ascii']", ascii, "the text \"q\\xe9\" is not valid ascii at byte offset 1"},
    };
    for (const auto &c : cases) {
        ckt::Type t(c.type);
        ck_array *src = nullptr;
        ASSERT_EQ(ck_array_wrap(t.get(), nullptr, static_cast<char *>(const_cast<void *>(c.data)),
                                nullptr, &src),
                  CK_OK);
        ckt::Array dst("string");
        ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
        ctx.errmode = CK_ERRMODE_NOCHECK;
        EXPECT_EQ(ck_assign(dst.get(), src, &ctx), CK_ERR_TEXT) << c.type;
        EXPECT_TRUE(txt::contains(ck_last_error(), c.says)) << ck_last_error();
        EXPECT_EQ(dst.str(), "\"\"");  // the failing element is not written
        ck_array_free(src);
    }
}

// ---- numbers <- text ----

TEST_F(TextCast, FloatsReadPythonsSpellings) {
    const Case cases[] = {
        {"3 * float64", "3 * string", "[\"1.5\", \" 2\", \"-inf\"]", FRACTIONAL, CK_OK,
         "[1.5, 2, -inf]"},
        {"6 * float64", "6 * string", "[\"inf\", \"+Infinity\", \"-INFINITY\", \"nan\", \"NaN\", \"-nan\"]",
         FRACTIONAL, CK_OK, "[inf, inf, -inf, nan, nan, nan]"},
        {"7 * float64", "7 * string", "[\"1e3\", \"1E-2\", \".5\", \"5.\", \"  -0  \", \"\\t3\\n\", \"+7\"]",
         FRACTIONAL, CK_OK, "[1000, 0.01, 0.5, 5, -0, 3, 7]"},
        {"3 * float64", "3 * string", "[\"0.1\", \"0.30000000000000004\", \"1e-400\"]", FRACTIONAL,
         CK_OK, "[0.1, 0.30000000000000004, 0]"},
        {"float64", "string", "\"1e400\"", OVERFLOW, CK_ERR_OVERFLOW,
         "the text \"1e400\" is out of range for float64"},
        {"float64", "string", "\"1e400\"", NOCHECK, CK_OK, "inf"},
        {"float64", "string", "\"0.1\"", INEXACT, CK_OK, "0.1"},  // reading rounds; not a loss
        {"2 * float32", "2 * string", "[\"0.1\", \"16777217\"]", FRACTIONAL, CK_OK,
         "[0.1, 16777216]"},
        {"float32", "string", "\"3.4028235e38\"", FRACTIONAL, CK_OK, "3.4028235e+38"},
        {"float32", "string", "\"3.4028236e38\"", FRACTIONAL, CK_ERR_OVERFLOW, "out of range"},
        {"float32", "string", "\"3.5e38\"", FRACTIONAL, CK_ERR_OVERFLOW, "out of range for float32"},
        {"3 * float16", "3 * string", "[\"0.1\", \"65504\", \"-2.5\"]", FRACTIONAL, CK_OK,
         "[0.1, 65500, -2.5]"},  // 65504's shortest float16 text
        {"float16", "string", "\"65520\"", OVERFLOW, CK_ERR_OVERFLOW, "out of range for float16"},
        {"float16", "string", "\"65520\"", NOCHECK, CK_OK, "inf"},
        {"2 * float64", "2 * fixed_string[8, 'utf32']", "[\" 1.25 \", \"-2\"]", FRACTIONAL, CK_OK,
         "[1.25, -2]"},
        {"float64", "fixed_bytes[6]", "\"\\x202.5\\x0b\"", FRACTIONAL, CK_OK, "2.5"},
    };
    for (const auto &c : cases) check(c);
}

TEST_F(TextCast, UnreadableTextIsErrTextNamingTheElementAndTheText) {
    const char *bad[] = {"x1", "", "   ", "1.5.2", "1e", "e5", "0x10", "1_000", "inf5",
                         "nan(1)", "- 1", "+-1", "1 2", ".", "infinit", "\\u0661",
                         "1\\u00a0"};
    for (ck_errmode mode : {NOCHECK, FRACTIONAL}) {
        for (const char *b : bad) {
            const std::string lit = std::string("[\"0\", \"") + b + "\"]";
            const txt::Outcome o = txt::assign("2 * float64", "2 * string", lit.c_str(), mode);
            EXPECT_EQ(o.status, CK_ERR_TEXT) << b << ": " << o.text;
            EXPECT_TRUE(txt::contains(o.text, "cannot read the text \"")) << o.text;
            EXPECT_TRUE(txt::contains(o.text, "\" as float64 at element [1]")) << o.text;
        }
    }
    check({"float64", "string", "\"x1\"", FRACTIONAL, CK_ERR_TEXT,
           "cannot read the text \"x1\" as float64"});
    check({"2 * 2 * int32", "2 * 2 * fixed_string[3, 'utf16']", "[[\"1\", \"2\"], [\"3\", \"x\"]]",
           FRACTIONAL, CK_ERR_TEXT, "cannot read the text \"x\" as int32 at element [1][1]"});
    check({"uint8", "fixed_string[1, 'utf32']", "\"\\u0661\"", FRACTIONAL, CK_ERR_TEXT,
           "cannot read the text \"\xd9\xa1\" as uint8"});
}

TEST_F(TextCast, IntegersExactlyAndPerMode) {
    const Case cases[] = {
        {"5 * int32", "5 * string", "[\"42\", \" -7 \", \"+5\", \"2147483647\", \"-2147483648\"]",
         FRACTIONAL, CK_OK, "[42, -7, 5, 2147483647, -2147483648]"},
        {"int32", "string", "\"2147483648\"", OVERFLOW, CK_ERR_OVERFLOW,
         "the text \"2147483648\" is out of range for int32"},
        {"int32", "string", "\"2147483648\"", NOCHECK, CK_OK, "-2147483648"},  // wraps
        {"int32", "string", "\"99999999999999999999\"", NOCHECK, CK_OK, "1661992959"},
        {"int32", "string", "\"99999999999999999999\"", FRACTIONAL, CK_ERR_OVERFLOW, "out of range"},
        {"2 * uint8", "2 * string", "[\"255\", \"0\"]", FRACTIONAL, CK_OK, "[255, 0]"},
        {"uint8", "string", "\"256\"", OVERFLOW, CK_ERR_OVERFLOW, "out of range for uint8"},
        {"uint8", "string", "\"-1\"", OVERFLOW, CK_ERR_OVERFLOW, "out of range for uint8"},
        {"uint8", "string", "\"-1\"", NOCHECK, CK_OK, "255"},
        {"uint64", "string", "\"18446744073709551615\"", FRACTIONAL, CK_OK, "18446744073709551615"},
        {"uint64", "string", "\"18446744073709551616\"", FRACTIONAL, CK_ERR_OVERFLOW, "out of range"},
        {"int64", "string", "\"-9223372036854775808\"", FRACTIONAL, CK_OK, "-9223372036854775808"},
        {"int64", "string", "\"9223372036854775808\"", FRACTIONAL, CK_ERR_OVERFLOW, "out of range"},
        {"int16", "fixed_bytes[6]", "\"-300\"", FRACTIONAL, CK_OK, "-300"},
        // A fraction, an exponent, inf or nan: as float64 -> int32 in the mode (§7).
        {"int32", "string", "\"1.5\"", FRACTIONAL, CK_ERR_FRACTIONAL,
         "the text \"1.5\": float64 value 1.5"},
        {"int32", "string", "\"1.5\"", OVERFLOW, CK_OK, "1"},
        {"int32", "string", "\"-1.5\"", NOCHECK, CK_OK, "-1"},
        {"int32", "string", "\"1e3\"", FRACTIONAL, CK_OK, "1000"},
        {"int32", "string", "\"inf\"", OVERFLOW, CK_ERR_OVERFLOW, "the text \"inf\""},
        {"int32", "string", "\"inf\"", NOCHECK, CK_OK, "2147483647"},
        {"int32", "string", "\"nan\"", NOCHECK, CK_OK, "0"},
        {"int8", "string", "\"3e2\"", FRACTIONAL, CK_ERR_OVERFLOW, "out of range for int8"},
    };
    for (const auto &c : cases) check(c);
}

// White space and leading zeros beyond the stack buffer go through a heap copy.
TEST_F(TextCast, LongNumberText) {
    const std::string pad(300, ' '), zeros(400, '0');
    const std::string ints = "[\"" + pad + "-" + zeros + "17" + pad + "\"]";
    check({"1 * int64", "1 * string", ints.c_str(), FRACTIONAL, CK_OK, "[-17]"});
    const std::string floats = "[\"" + zeros + "1." + zeros + "1e-1" + pad + "\"]";
    check({"1 * float16", "1 * fixed_string[1200, 'utf32']", floats.c_str(), FRACTIONAL, CK_OK, "[0.1]"});
}

// ---- text <- numbers ----

TEST_F(TextCast, NumbersPrintAsPythonsRepr) {
    const Case cases[] = {
        {"2 * string", "2 * int32", "[7, -3]", FRACTIONAL, CK_OK, "[\"7\", \"-3\"]"},
        {"4 * string", "4 * float64", "[1.5, 1, 1e16, 1.5e-7]", FRACTIONAL, CK_OK,
         "[\"1.5\", \"1.0\", \"1e+16\", \"1.5e-07\"]"},
        {"4 * string", "4 * float64", "[inf, -inf, nan, -0.0]", FRACTIONAL, CK_OK,
         "[\"inf\", \"-inf\", \"nan\", \"-0.0\"]"},
        {"string", "float64", "0.30000000000000004", FRACTIONAL, CK_OK, "\"0.30000000000000004\""},
        {"2 * string", "2 * float32", "[0.1, 16777217]", FRACTIONAL, CK_OK,
         "[\"0.1\", \"16777216.0\"]"},
        {"2 * string", "2 * float16", "[0.1, 65504]", FRACTIONAL, CK_OK, "[\"0.1\", \"65500.0\"]"},  // as NumPy
        {"4 * fixed_string[20, 'utf32']", "4 * int64", "[-9223372036854775808, 0, 1, 9223372036854775807]",
         FRACTIONAL, CK_OK, "[\"-9223372036854775808\", \"0\", \"1\", \"9223372036854775807\"]"},
        {"2 * fixed_bytes[20]", "2 * uint64", "[18446744073709551615, 255]", FRACTIONAL, CK_OK,
         "[\"18446744073709551615\", \"255\"]"},
        {"2 * fixed_string[4, 'utf16']", "2 * int8", "[-128, 127]", FRACTIONAL, CK_OK,
         "[\"-128\", \"127\"]"},
        {"fixed_string[4, 'utf32']", "float64", "1.2345", OVERFLOW, CK_ERR_OVERFLOW,
         "the text \"1.2345\" (6 code units) does not fit fixed_string[4, 'utf32']"},
        {"fixed_string[4, 'utf32']", "float64", "1.2345", NOCHECK, CK_OK, "\"1.23\""},
        {"fixed_bytes[3]", "int32", "12345", NOCHECK, CK_OK, "\"123\""},
        {"bytes", "uint16", "65535", FRACTIONAL, CK_OK, "\"65535\""},
    };
    for (const auto &c : cases) check(c);
}

TEST_F(TextCast, UnsupportedPairsAreRefusedWhenBuilt) {
    check({"{a: string}", "string", "\"1\"", FRACTIONAL, CK_ERR_TYPE,
           "a tuple or struct takes a tuple or struct"});
    // A string destination needs an arena for its bytes: a host's without one is refused.
    ckt::Type t("string");
    ck_string_data slot = {nullptr, 0};
    ck_array *dst = nullptr;
    ASSERT_EQ(ck_array_wrap(t.get(), nullptr, reinterpret_cast<char *>(&slot), nullptr, &dst), CK_OK);
    ckt::Array src("string", "\"x\"");
    EXPECT_EQ(ck_assign(dst, src.get(), nullptr), CK_ERR_INVALID);
    EXPECT_TRUE(txt::contains(ck_last_error(), "has no arena memory block")) << ck_last_error();
    ck_array_free(dst);
    // add takes numbers (the comparisons, length and concat take text: text_call_test.cpp).
    ck_callable *add = nullptr;
    ASSERT_EQ(ck_lookup("add", &add), CK_OK);
    const ck_type *args[2] = {ck_type_string(), ck_type_string()};
    ck_type *rt = nullptr;
    EXPECT_EQ(ck_call_result_type(add, 2, args, nullptr, &rt), CK_ERR_TYPE);
    EXPECT_TRUE(txt::contains(ck_last_error(), "add: argument 0 holds text; add takes numbers"))
        << ck_last_error();
}

// An unallocated source string (NULL data with a size) is refused, never read.
TEST_F(TextCast, UnallocatedSourceIsRefused) {
    ckt::Type t("2 * string");
    ck_string_data slots[2] = {{"ab", 2}, {nullptr, 3}};
    ck_array *src = nullptr;
    ASSERT_EQ(ck_array_wrap(t.get(), nullptr, reinterpret_cast<char *>(slots), nullptr, &src), CK_OK);
    ckt::Array dst("2 * fixed_string[2, 'utf8']");
    EXPECT_EQ(ck_assign(dst.get(), src, nullptr), CK_ERR_UNINITIALIZED);
    EXPECT_TRUE(txt::contains(ck_last_error(), "the source string is not allocated (its data is "
                                               "NULL) at element [1]"))
        << ck_last_error();
    ck_array_free(src);
}

// The empty value {NULL, 0} (zero-filled data) is read as "" into every destination: no
// pointer is followed (the composition fuzzer's text mode found a memcpy from NULL here).
TEST_F(TextCast, EmptySourceWithoutDataIsEmptyText) {
    ckt::Type t("4 * string");
    ck_string_data slots[4] = {{nullptr, 0}, {nullptr, 0}, {nullptr, 0}, {"7", 1}};
    ck_array *src = nullptr;
    ASSERT_EQ(ck_array_wrap(t.get(), nullptr, reinterpret_cast<char *>(slots), nullptr, &src),
              CK_OK);
    for (const char *dt : {"4 * fixed_string[2, 'utf8']", "4 * fixed_string[2, 'utf16']",
                           "4 * fixed_bytes[2]", "4 * string", "4 * bytes"}) {
        ckt::Array dst(dt);
        ASSERT_EQ(ck_assign(dst.get(), src, nullptr), CK_OK) << dt << ": " << ck_last_error();
        EXPECT_EQ(dst.str(), "[\"\", \"\", \"\", \"7\"]") << dt;
    }
    ckt::Array num("4 * int32");
    EXPECT_EQ(ck_assign(num.get(), src, nullptr), CK_ERR_TEXT);
    EXPECT_TRUE(txt::contains(ck_last_error(), "cannot read the text \"\" as int32 at element [0]"))
        << ck_last_error();
    ck_array_free(src);
}

// ---- round trips ----

TEST_F(TextCast, NumbersRoundTripThroughText) {
    std::mt19937_64 rng(27);
    for (const char *text : {"string", "fixed_string[32, 'utf32']", "fixed_string[24, 'utf16']",
                             "fixed_bytes[24]"}) {
        const int n = 2000;
        std::string ds = std::to_string(n) + " * float64", ts = std::to_string(n) + " * " + text;
        std::string is = std::to_string(n) + " * int64";
        ckt::Array f(ds.c_str()), f2(ds.c_str()), t(ts.c_str()), i(is.c_str()), i2(is.c_str());
        double *fd = reinterpret_cast<double *>(f.data());
        int64_t *id = reinterpret_cast<int64_t *>(i.data());
        for (int k = 0; k < n; k++) {
            uint64_t bits = rng();
            std::memcpy(&fd[k], &bits, sizeof bits);
            if (std::isnan(fd[k])) fd[k] = 1.0 / (k + 1);
            id[k] = static_cast<int64_t>(rng()) >> (k % 64);
        }
        ASSERT_EQ(ck_assign(t.get(), f.get(), nullptr), CK_OK) << ck_last_error();
        ASSERT_EQ(ck_assign(f2.get(), t.get(), nullptr), CK_OK) << ck_last_error();
        EXPECT_EQ(std::memcmp(f.data(), f2.data(), n * sizeof(double)), 0) << text;
        ASSERT_EQ(ck_assign(t.get(), i.get(), nullptr), CK_OK) << ck_last_error();
        ASSERT_EQ(ck_assign(i2.get(), t.get(), nullptr), CK_OK) << ck_last_error();
        EXPECT_EQ(std::memcmp(i.data(), i2.data(), n * sizeof(int64_t)), 0) << text;
    }
}

// Every code point (surrogates excepted) through every encoding and back to UTF-8.
TEST_F(TextCast, EveryCodePointRoundTripsThroughEveryEncoding) {
    std::string all;
    for (uint32_t cp = 1; cp <= 0x10ffff; cp++) {
        if (cp >= 0xd800 && cp < 0xe000) continue;
        char b[4];
        size_t n;  // UTF-8 by hand
        if (cp < 0x80) b[0] = static_cast<char>(cp), n = 1;
        else if (cp < 0x800) b[0] = static_cast<char>(0xc0 | (cp >> 6)), b[1] = static_cast<char>(0x80 | (cp & 0x3f)), n = 2;
        else if (cp < 0x10000) b[0] = static_cast<char>(0xe0 | (cp >> 12)), b[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3f)), b[2] = static_cast<char>(0x80 | (cp & 0x3f)), n = 3;
        else b[0] = static_cast<char>(0xf0 | (cp >> 18)), b[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3f)), b[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3f)), b[3] = static_cast<char>(0x80 | (cp & 0x3f)), n = 4;
        all.append(b, n);
    }
    ckt::Type bt("bytes"), st("string");
    ck_array *src = nullptr;
    ck_string_data slot = {all.data(), all.size()};
    ASSERT_EQ(ck_array_wrap(bt.get(), nullptr, reinterpret_cast<char *>(&slot), nullptr, &src), CK_OK);
    for (const char *mid : {"fixed_string[1112064, 'utf32']", "fixed_string[2160640, 'utf16']",
                            "fixed_string[4382591, 'utf8']", "string"}) {
        ckt::Array m(mid), back("bytes");
        ASSERT_EQ(ck_assign(m.get(), src, nullptr), CK_OK) << mid << ": " << ck_last_error();
        ASSERT_EQ(ck_assign(back.get(), m.get(), nullptr), CK_OK) << ck_last_error();
        EXPECT_TRUE(txt::string_at(back.get(), 0) == all) << mid;
    }
    ck_array_free(src);
}

// ---- allocation failure ----

TEST_F(TextCast, AllocationFailsCleanlyAtEveryPoint) {
    const char *const pairs[][3] = {
        {"3 * string", "3 * float64", "[1.5, -2, 1e300]"},
        {"3 * float64", "3 * string", "[\"1.5\", \" 2\", \"-inf\"]"},
        {"2 * string", "2 * fixed_string[3, 'utf16']", "[\"ab\", \"\\u00e9\"]"},
        {"2 * bytes", "2 * string", "[\"x\", \"\"]"},
        {"{a: string, b: fixed_string[2, 'utf32']}", "{b: string, a: bytes}", "{b: \"q\", a: \"r\"}"},
    };
    for (const auto &p : pairs) {
        ckt::for_each_alloc_failure([&] { return txt::assign(p[0], p[1], p[2]).status; });
    }
    // The heap copy of long number text.
    const std::string lit = "\"" + std::string(200, ' ') + "5\"";
    ckt::for_each_alloc_failure([&] {
        const txt::Outcome o = txt::assign("int32", "fixed_string[201, 'utf32']", lit.c_str());
        return o.status == CK_OK && o.text != "5" ? CK_ERR_INTERNAL : o.status;
    });
}

}  // namespace
