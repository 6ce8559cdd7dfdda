// tests/text/text_call_test.cpp: the built-in callables on text (docs/design.md §16): the
// comparisons equal ... greater_equal, length and concat, through the public API (ck_lookup,
// ck_call_new, ck_call into a given destination), against hand tables: code point order
// across encodings (where UTF-16's unit order is not it), NUL padding of fixed kinds,
// bytes bytewise, broadcasting and var dimensions, result casts, refusals, invalid host text,
// and allocation failure at every point.
#include <cstring>
#include <string>
#include <vector>

#include "text_support.hpp"

namespace {

class TextCall : public txt::Leakless {};

using txt::Arg;
using txt::call;

// The result type ck_call_result_type gives, printed.
std::string result_type(const char *name, std::vector<const char *> args) {
    ck_callable *c = nullptr;
    std::vector<ck_type *> types;
    int rc = ck_lookup(name, &c);
    for (const char *a : args) {
        ck_type *t = nullptr;
        if (rc == CK_OK) rc = ck_type_parse(a, &t);
        types.push_back(t);
    }
    ck_type *rt = nullptr;
    char *s = nullptr;
    if (rc == CK_OK) {
        rc = ck_call_result_type(c, static_cast<int>(types.size()), types.data(), nullptr, &rt);
    }
    if (rc == CK_OK) rc = ck_type_format(rt, &s);
    const std::string r = rc == CK_OK ? std::string(s) : std::string(ck_last_error());
    ck_free(s);
    ck_type_decref(rt);
    for (ck_type *t : types) ck_type_decref(t);
    ck_callable_decref(c);
    return r;
}

void expect_ok(const txt::Outcome &o, const std::string &want, const std::string &what) {
    EXPECT_EQ(o.status, CK_OK) << what << ": " << o.text;
    EXPECT_EQ(o.text, want) << what;
}

void expect_fail(const txt::Outcome &o, int status, const std::string &part,
                 const std::string &what) {
    EXPECT_EQ(o.status, status) << what << ": " << o.text;
    EXPECT_TRUE(txt::contains(o.text, part)) << what << ": " << o.text;
}

// ---- comparisons ----

// The interface of issue 27, and every comparison of one table of pairs: the strings in
// code point order (hand-sorted), each with each.
TEST_F(TextCall, EveryComparisonOnAHandOrderedTable) {
    expect_ok(call("less", {{"2 * string", "[\"a\", \"b\"]"}, {"string", "\"b\""}}),
              "[true, false]", "the issue's line");
    // Sorted by code point: "" < "\t" < "A" < "Z" < "a" < "ab" < "b" < "é" (U+E9) < "\uffff"
    // < U+10000 (a surrogate pair in UTF-16, whose units sort below U+FFFF's).
    const char *sorted[] = {"\"\"",      "\"\\t\"",     "\"A\"",      "\"Z\"",
                            "\"a\"",     "\"ab\"",      "\"b\"",      "\"\\u00e9\"",
                            "\"\\uffff\"", "\"\\ud800\\udc00\""};
    const int n = static_cast<int>(sizeof sorted / sizeof sorted[0]);
    const char *ops[] = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"};
    const char *kinds[] = {"string", "fixed_string[4, 'utf8']", "fixed_string[2, 'utf16']",
                           "fixed_string[2, 'utf32']"};
    for (const char *ka : kinds) {
        for (const char *kb : kinds) {
            for (int i = 0; i < n; ++i) {
                for (int j = 0; j < n; ++j) {
                    const bool want[] = {i == j, i != j, i < j, i <= j, i > j, i >= j};
                    for (int op = 0; op < 6; ++op) {
                        const std::string what = std::string(ops[op]) + " " + ka + " " +
                                                 sorted[i] + ", " + kb + " " + sorted[j];
                        expect_ok(call(ops[op], {{ka, sorted[i]}, {kb, sorted[j]}}),
                                  want[op] ? "true" : "false", what);
                    }
                }
            }
        }
    }
}

TEST_F(TextCall, FixedKindsIgnoreTheirNulPaddingStringsDoNot) {
    // "a" in a 4-unit field is "a\0\0\0": equal to the string "a", as NumPy compares U.
    expect_ok(call("equal", {{"fixed_string[4, 'utf32']", "\"a\""}, {"string", "\"a\""}}), "true",
              "padding");
    expect_ok(call("equal", {{"fixed_bytes[3]", "\"a\\x00b\""}, {"bytes", "\"a\\x00b\""}}), "true",
              "an inner NUL is kept");
    // A string's NUL is a character: "a\0" is longer than "a".
    expect_ok(call("less", {{"string", "\"a\""}, {"string", "\"a\\u0000\""}}), "true",
              "a string's trailing NUL");
    expect_ok(call("equal", {{"fixed_string[2, 'utf8']", "\"a\""}, {"string", "\"a\\u0000\""}}),
              "false", "a fixed kind's trailing NUL is padding, a string's is not");
}

TEST_F(TextCall, BytesCompareBytewise) {
    // 0x80 sorts after 0x7f and 0xff last: unsigned bytes.
    expect_ok(call("less", {{"3 * bytes", "[\"\\x7f\", \"\\x80\", \"a\"]"},
                            {"fixed_bytes[2]", "\"\\xff\""}}),
              "[true, true, true]", "unsigned bytes");
    expect_ok(call("greater_equal", {{"bytes", "\"ab\""}, {"fixed_bytes[1]", "\"a\""}}), "true",
              "a prefix is smaller");
}

TEST_F(TextCall, BroadcastsAndVarDimensions) {
    expect_ok(call("equal", {{"2 * 1 * string", "[[\"a\"], [\"b\"]]"},
                             {"3 * fixed_string[1]", "[\"a\", \"b\", \"c\"]"}}),
              "[[true, false, false], [false, true, false]]", "2x1 with 3");
    expect_ok(call("not_equal", {{"var * string", "[\"x\", \"y\", \"z\"]"}, {"string", "\"y\""}}),
              "[true, false, true]", "a var row with a scalar");
    expect_ok(call("less", {{"2 * var * string", "[[\"a\", \"b\"], []]"},
                            {"2 * var * string", "[[\"b\"], []]"}}),
              "[[true, false], []]", "a row of 1 broadcasts in a var dimension");
    EXPECT_EQ(result_type("less", {"3 * var * string", "fixed_string[2]"}), "3 * var * bool");
    expect_fail(call("less", {{"2 * string", "[\"a\", \"b\"]"}, {"3 * string", "[\"a\", \"b\", \"c\"]"}}),
                CK_ERR_BROADCAST, "cannot broadcast", "2 with 3");
}

TEST_F(TextCall, ResultsCastToTheDestination) {
    expect_ok(call("less", {{"2 * string", "[\"a\", \"c\"]"}, {"string", "\"b\""}}, "2 * float64"),
              "[1, 0]", "bool to float64");
    expect_ok(call("length", {{"string", "\"abc\""}}, "uint8"), "3", "int64 to uint8");
    expect_fail(call("length", {{"string", "\"abc\""}}, "string"), CK_ERR_TYPE,
                "length gives int64; it cannot be written to string values", "into text");
}

TEST_F(TextCall, RefusalsSayWhy) {
    expect_fail(call("less", {{"string", "\"a\""}, {"int32", "1"}}), CK_ERR_TYPE,
                "less: argument 1 is int32; with text, every argument of less must be text",
                "text with a number");
    expect_fail(call("equal", {{"string", "\"a\""}, {"bytes", "\"a\""}}), CK_ERR_TYPE,
                "argument 0 is text and argument 1 bytes; text and bytes do not mix",
                "text with bytes");
    expect_fail(call("add", {{"int8", "1"}, {"string", "\"a\""}}), CK_ERR_TYPE,
                "add: argument 1 holds text; add takes numbers", "add");
    expect_fail(call("length", {{"string", "\"a\""}, {"string", "\"b\""}}), CK_ERR_TYPE,
                "length takes 1 argument of text, not 2", "arity");
    expect_fail(call("length", {{"int32", "1"}}), CK_ERR_TYPE, "length", "length of a number");
}

// The built-ins that take text are known by identity, not by name: a user's callable named
// "equal" takes numbers only, and the built-in re-registered takes text again.
TEST_F(TextCall, TheTextBuiltinsAreKnownByIdentityNotName) {
    ck_callable *builtin = nullptr, *mine = nullptr;
    ASSERT_EQ(ck_lookup("equal", &builtin), CK_OK);
    ASSERT_EQ(ck_unregister("equal"), CK_OK);
    ASSERT_EQ(ck_callable_new("equal", &mine), CK_OK);
    ASSERT_EQ(ck_register(mine), CK_OK);
    expect_fail(call("equal", {{"string", "\"a\""}, {"string", "\"a\""}}), CK_ERR_TYPE,
                "equal: argument 0 holds text; equal takes numbers", "a user's equal");
    EXPECT_EQ(ck_unregister("equal"), CK_OK);
    EXPECT_EQ(ck_register(builtin), CK_OK);
    expect_ok(call("equal", {{"string", "\"a\""}, {"string", "\"a\""}}), "true",
              "the built-in again");
    ck_callable_decref(mine);
    ck_callable_decref(builtin);
}

// A call of text or of times checks its arrmeta as every call does, before it builds.
TEST_F(TextCall, TextAndTimeCallsRefuseNullArrmeta) {
    const char *cases[][3] = {{"equal", "3 * string", "3 * bool"},
                              {"add", "3 * datetime64[s]", "3 * datetime64[s]"},
                              {"equal", "3 * timedelta64[s]", "3 * bool"}};
    for (const auto &c : cases) {
        ck_callable *f = nullptr;
        ck_type *at = nullptr, *bt = nullptr, *dt = nullptr;
        ASSERT_EQ(ck_lookup(c[0], &f), CK_OK);
        ASSERT_EQ(ck_type_parse(c[1], &at), CK_OK);
        ASSERT_EQ(ck_type_parse(std::strchr(c[1], '*') + 2, &bt), CK_OK);
        ASSERT_EQ(ck_type_parse(c[2], &dt), CK_OK);
        ck_array *a = nullptr;
        ASSERT_EQ(ck_array_new(at, &a), CK_OK);
        const ck_type *st[2] = {at, bt};
        const char *sams[2] = {ck_array_arrmeta(a), nullptr};
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        // No destination arrmeta for a type that has some.
        EXPECT_EQ(ck_make_call(&b, &off, f, dt, nullptr, 2, st, sams, CK_REQUEST_SINGLE, nullptr),
                  CK_ERR_INVALID)
            << c[0] << " " << c[1];
        EXPECT_TRUE(txt::contains(ck_last_error(), "NULL arrmeta")) << ck_last_error();
        ck_builder_destroy(&b);
        ck_array_free(a);
        ck_type_decref(dt);
        ck_type_decref(bt);
        ck_type_decref(at);
        ck_callable_decref(f);
    }
}

TEST_F(TextCall, InvalidHostTextIsErrTextWithTheOffset) {
    // A host's utf16 buffer with a lone high surrogate, compared with a utf8 text (decoded).
    ck_type *t = nullptr, *s = nullptr;
    ASSERT_EQ(ck_type_parse("2 * fixed_string[2, 'utf16']", &t), CK_OK);
    ASSERT_EQ(ck_type_parse("string", &s), CK_OK);
    uint16_t units[4] = {'a', 0, 0xd800, 'b'};
    ck_array *a = nullptr, *b = nullptr, *out = nullptr;
    ASSERT_EQ(ck_array_wrap(t, nullptr, reinterpret_cast<char *>(units), nullptr, &a), CK_OK);
    ASSERT_EQ(ck_array_parse(s, "\"a\"", &b), CK_OK);
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_lookup("less", &c), CK_OK);
    const ck_array *args[] = {a, b};
    EXPECT_EQ(ck_call_new(c, 2, args, nullptr, &out), CK_ERR_TEXT);
    EXPECT_TRUE(txt::contains(ck_last_error(), "is not valid utf16 at byte offset 0"))
        << ck_last_error();
    EXPECT_TRUE(txt::contains(ck_last_error(), "at element [1]")) << ck_last_error();
    ck_callable_decref(c);
    ck_array_free(a);
    ck_array_free(b);
    ck_type_decref(t);
    ck_type_decref(s);
}

// ---- length ----

TEST_F(TextCall, LengthCountsCodePointsOrBytes) {
    // "aé😀": 3 code points; 1 + 2 + 4 UTF-8 bytes, 1 + 1 + 2 UTF-16 units.
    const char *text = "\"a\\u00e9\\ud83d\\ude00\"";
    expect_ok(call("length", {{"string", text}}), "3", "string");
    expect_ok(call("length", {{"fixed_string[9, 'utf8']", text}}), "3", "utf8");
    expect_ok(call("length", {{"fixed_string[5, 'utf16']", text}}), "3", "utf16");
    expect_ok(call("length", {{"fixed_string[4, 'utf32']", text}}), "3", "utf32");
    expect_ok(call("length", {{"3 * fixed_string[4, 'ascii']", "[\"\", \"ab\", \"abcd\"]"}}),
              "[0, 2, 4]", "ascii, padded");
    expect_ok(call("length", {{"bytes", "\"a\\xc3\\xa9\""}}), "3", "bytes count bytes");
    expect_ok(call("length", {{"fixed_bytes[4]", "\"a\\x00b\""}}), "3", "inner NUL kept");
    EXPECT_EQ(result_type("length", {"var * fixed_string[3]"}), "var * int64");
}

// ---- concat ----

TEST_F(TextCall, ConcatResultTypes) {
    EXPECT_EQ(result_type("concat", {"string", "fixed_string[3]"}), "string");
    EXPECT_EQ(result_type("concat", {"fixed_bytes[2]", "bytes"}), "bytes");
    EXPECT_EQ(result_type("concat", {"fixed_string[2, 'utf16']", "fixed_string[3, 'utf16']"}),
              "fixed_string[5, 'utf16']");
    EXPECT_EQ(result_type("concat", {"fixed_string[2, 'utf8']", "fixed_string[3, 'utf32']"}),
              "fixed_string[5, 'utf32']");
    EXPECT_EQ(result_type("concat", {"2 * fixed_bytes[2]", "fixed_bytes[1]"}),
              "2 * fixed_bytes[3]");
}

TEST_F(TextCall, ConcatWritesBothTexts) {
    expect_ok(call("concat", {{"2 * string", "[\"ab\", \"\"]"}, {"string", "\"\\u00e9\""}}),
              "[\"ab\u00e9\", \"\u00e9\"]", "strings (printed as UTF-8)");
    // Fixed kinds: padding dropped, then both texts in the result's encoding.
    expect_ok(call("concat", {{"fixed_string[3, 'utf8']", "\"a\""},
                              {"fixed_string[2, 'utf16']", "\"\\ud83d\\ude00\""}}),
              "\"a\U0001F600\"", "utf8 + utf16 -> utf32");
    expect_ok(call("concat", {{"fixed_bytes[2]", "\"a\""}, {"bytes", "\"\\xff\""}}),
              "\"a\\xff\"", "bytes");
    // Into a given destination: a fixed one too short is an overflow in the checked modes,
    // cut at a code point in nocheck.
    expect_ok(call("concat", {{"string", "\"ab\""}, {"string", "\"cd\""}}, "fixed_string[6]"),
              "\"abcd\"", "padded");
    expect_fail(call("concat", {{"string", "\"ab\""}, {"string", "\"cd\""}}, "fixed_string[3]"),
                CK_ERR_OVERFLOW, "\"ab\" and \"cd\" (4 code units together) do not fit",
                "too short");
    expect_ok(call("concat", {{"string", "\"ab\""}, {"string", "\"cd\""}}, "fixed_string[3]",
                   CK_ERRMODE_NOCHECK),
              "\"abc\"", "cut in nocheck");
    expect_ok(call("concat", {{"string", "\"abc\""}, {"string", "\"d\""}}, "fixed_string[2]",
                   CK_ERRMODE_NOCHECK),
              "\"ab\"", "the first text cut: nothing of the second");
    expect_ok(call("concat", {{"string", "\"a\\u00e9\""}, {"string", "\"b\""}}, "fixed_string[2]",
                   CK_ERRMODE_NOCHECK),
              "\"a\"", "the first text cut before a room of one byte: still nothing of the second");
    expect_ok(call("concat", {{"string", "\"a\""}, {"string", "\"\\u00e9\""}}, "fixed_string[2]",
                   CK_ERRMODE_NOCHECK),
              "\"a\"", "never inside a UTF-8 sequence");
    expect_fail(call("concat", {{"string", "\"a\""}, {"string", "\"b\""}}, "int32"), CK_ERR_TYPE,
                "concat gives text", "into a number");
}

TEST_F(TextCall, AllocationFailsCleanlyAtEveryPoint) {
    const int64_t points = ckt::for_each_alloc_failure([] {
        int rc = call("less", {{"2 * string", "[\"a\", \"b\"]"}, {"string", "\"b\""}}).status;
        if (rc == CK_OK) {
            rc = call("concat", {{"3 * string", "[\"a\", \"bc\", \"\"]"},
                                 {"fixed_string[2]", "\"d\""}})
                     .status;
        }
        if (rc == CK_OK) rc = call("length", {{"var * string", "[\"a\", \"bc\"]"}}).status;
        return rc;
    });
    EXPECT_GT(points, 0);
}

}  // namespace
