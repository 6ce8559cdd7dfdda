// tests/text/text_option_test.cpp: options of text (docs/design.md §16): `?string`, `?bytes`,
// `?fixed_string[N, enc]`, `?fixed_bytes[N]` as datashapes, their NA (every byte of the
// element 0xff) in the data, literals, casts between options and non-options of text and
// numbers, struct fields, the text calls with NA in (NA out), against hand tables; and
// allocation failure at every point.
#include <cstring>
#include <string>
#include <vector>

#include "text_support.hpp"

namespace {

class TextOption : public txt::Leakless {};

constexpr ck_errmode FRACTIONAL = CK_ERRMODE_FRACTIONAL;
constexpr ck_errmode NOCHECK = CK_ERRMODE_NOCHECK;

TEST_F(TextOption, DatashapesAndTheNaBytes) {
    struct Row {
        const char *text;
        size_t size;
    };
    const Row rows[] = {{"?string", 2 * sizeof(void *)},  // a pointer and a size
                        {"?bytes", 2 * sizeof(void *)},
                        {"?fixed_string[3, 'utf16']", 6},
                        {"?fixed_string[2, 'utf32']", 8},
                        {"?fixed_bytes[5]", 5}};
    for (const Row &r : rows) {
        ck_type *t = nullptr;
        ASSERT_EQ(ck_type_parse(r.text, &t), CK_OK) << r.text << ": " << ck_last_error();
        char *back = nullptr;
        ASSERT_EQ(ck_type_format(t, &back), CK_OK);
        EXPECT_STREQ(back, r.text);
        ck_free(back);
        EXPECT_EQ(ck_type_data_size(t), r.size) << r.text;
        EXPECT_EQ(ck_type_arrmeta_size(t), ck_type_arrmeta_size(ck_type_element(t))) << r.text;
        const unsigned char *na = static_cast<const unsigned char *>(ck_option_na_bytes(t));
        ASSERT_NE(na, nullptr) << r.text;
        for (size_t i = 0; i < r.size; i++) EXPECT_EQ(na[i], 0xffu) << r.text << " byte " << i;
        EXPECT_EQ(ck_option_is_na(t, na), 1) << r.text;
        std::vector<unsigned char> almost(na, na + r.size);
        almost[r.size - 1] = 0xfe;
        EXPECT_EQ(ck_option_is_na(t, almost.data()), 0) << r.text;
        ck_type_decref(t);
    }
    // A fixed text of more than 256 bytes has no NA buffer of its own, but is tested.
    ck_type *big = nullptr;
    ASSERT_EQ(ck_type_parse("?fixed_string[100, 'utf32']", &big), CK_OK);
    EXPECT_EQ(ck_option_na_bytes(big), nullptr);
    std::vector<unsigned char> ones(400, 0xff);
    EXPECT_EQ(ck_option_is_na(big, ones.data()), 1);
    ck_type_decref(big);
}

TEST_F(TextOption, LiteralsHoldNaAsEveryByteOnes) {
    const char *lits[][2] = {
        {"3 * ?string", "[\"a\", NA, \"\"]"},
        {"3 * ?bytes", "[\"\\xff\", NA, \"\"]"},
        {"3 * ?fixed_string[2, 'utf16']", "[\"\xef\xbf\xbf\", NA, \"ab\"]"},
        {"3 * ?fixed_bytes[2]", "[\"\\xff\", NA, \"\\xff\\xfe\"]"},
        {"{a: ?string, b: ?fixed_string[1]}", "{a: NA, b: \"x\"}"},
    };
    for (const auto &l : lits) {
        txt::Outcome o = txt::assign(l[0], l[0], l[1]);
        EXPECT_EQ(o.status, CK_OK) << l[0] << ": " << o.text;
        EXPECT_EQ(o.text, l[1]) << l[0];
    }
    // The NA's bytes, seen in the data.
    ck_type *t = nullptr;
    ck_array *a = nullptr;
    ASSERT_EQ(ck_type_parse("2 * ?fixed_bytes[3]", &t), CK_OK);
    ASSERT_EQ(ck_array_parse(t, "[NA, \"a\"]", &a), CK_OK) << ck_last_error();
    const std::vector<unsigned char> want = {0xff, 0xff, 0xff, 'a', 0, 0};
    EXPECT_EQ(txt::data_bytes(a), want);
    ck_array_free(a);
    ck_type_decref(t);
    ASSERT_EQ(ck_type_parse("?string", &t), CK_OK);
    ASSERT_EQ(ck_array_parse(t, "NA", &a), CK_OK) << ck_last_error();
    EXPECT_EQ(txt::data_bytes(a), std::vector<unsigned char>(2 * sizeof(void *), 0xff));
    ck_array_free(a);
    ck_type_decref(t);
    // The NA's own bits are not a value: write NA.
    const char *refused[][2] = {
        {"?fixed_bytes[2]", "\"\\xff\\xff\""},
        {"?fixed_string[2, 'utf16']", "\"\\uffff\\uffff\""},
    };
    for (const auto &r : refused) {
        ck_array *x = nullptr;
        ASSERT_EQ(ck_type_parse(r[0], &t), CK_OK);
        EXPECT_EQ(ck_array_parse(t, r[1], &x), CK_ERR_OVERFLOW) << r[0];
        EXPECT_TRUE(txt::contains(ck_last_error(), "is the NA of")) << ck_last_error();
        EXPECT_EQ(x, nullptr);
        ck_type_decref(t);
    }
}

TEST_F(TextOption, CastsCarryNaAndRefuseItIntoNonOptions) {
    const txt::Case cases[] = {
        // option <-> option of text, every kind
        {"3 * ?string", "3 * ?fixed_string[2, 'utf32']", "[\"ab\", NA, \"\"]", FRACTIONAL, CK_OK,
         "[\"ab\", NA, \"\"]"},
        {"3 * ?fixed_string[3, 'utf16']", "3 * ?string", "[\"é\", NA, \"\\ud83d\\ude00\"]",
         FRACTIONAL, CK_OK, "[\"é\", NA, \"\xf0\x9f\x98\x80\"]"},
        {"2 * ?bytes", "2 * ?fixed_bytes[2]", "[NA, \"\\x01\"]", FRACTIONAL, CK_OK,
         "[NA, \"\\x01\"]"},
        {"2 * ?fixed_bytes[1]", "2 * ?string", "[\"a\", NA]", FRACTIONAL, CK_OK, "[\"a\", NA]"},
        // non-option into option, and NA into a non-option (CK_ERR_NA in every mode)
        {"2 * ?string", "2 * fixed_string[2]", "[\"ab\", \"\"]", FRACTIONAL, CK_OK,
         "[\"ab\", \"\"]"},
        {"3 * string", "3 * ?string", "[\"a\", \"b\", NA]", FRACTIONAL, CK_ERR_NA,
         "NA at element 2 cannot be assigned to string, which is not an option type"},
        {"2 * fixed_bytes[2]", "2 * ?bytes", "[NA, \"a\"]", NOCHECK, CK_ERR_NA, "NA at element 0"},
        // text <-> numbers through options
        {"3 * ?float64", "3 * ?string", "[\"1.5\", NA, \" -inf\"]", FRACTIONAL, CK_OK,
         "[1.5, NA, -inf]"},
        {"3 * ?string", "3 * ?float64", "[0.1, NA, 2]", FRACTIONAL, CK_OK,
         "[\"0.1\", NA, \"2.0\"]"},
        {"2 * ?int32", "2 * string", "[\"7\", \"-3\"]", FRACTIONAL, CK_OK, "[7, -3]"},
        {"2 * ?fixed_string[4]", "2 * ?int8", "[NA, -127]", FRACTIONAL, CK_OK, "[NA, \"-127\"]"},
        // A failing element under NA is named by its own index, not its run's.
        {"3 * ?fixed_string[3]", "3 * ?int8", "[NA, 1, -127]", FRACTIONAL, CK_ERR_OVERFLOW,
         "does not fit fixed_string[3, 'utf8'] at element [2]"},
        {"2 * int32", "2 * ?string", "[\"1\", NA]", FRACTIONAL, CK_ERR_NA, "NA at element 1"},
        {"?float64", "?string", "\"x1\"", FRACTIONAL, CK_ERR_TEXT,
         "cannot read the text \"x1\" as float64"},
        // Text whose value is the number destination's NA: an overflow when checked.
        {"2 * ?int64", "2 * string", "[\"1\", \"-9223372036854775808\"]", FRACTIONAL,
         CK_ERR_OVERFLOW, "converts to the NA of ?int64"},
        {"2 * ?int64", "2 * string", "[\"1\", \"-9223372036854775808\"]", NOCHECK, CK_OK,
         "[1, NA]"},
        // Text whose bits are the text destination's NA: the same.
        {"2 * ?fixed_bytes[2]", "2 * bytes", "[\"a\", \"\\xff\\xff\"]", FRACTIONAL,
         CK_ERR_OVERFLOW, "the text \"\\xff\\xff\" is the NA of ?fixed_bytes[2]"},
        {"2 * ?fixed_bytes[2]", "2 * ?fixed_bytes[2]", "[\"\\xff\", NA]", FRACTIONAL, CK_OK,
         "[\"\\xff\", NA]"},
        {"2 * ?fixed_bytes[2]", "2 * bytes", "[\"a\", \"\\xff\\xff\"]", NOCHECK, CK_OK,
         "[\"a\", NA]"},
        {"?fixed_string[2, 'utf16']", "string", "\"\\uffff\\uffff\"", FRACTIONAL, CK_ERR_OVERFLOW,
         "is the NA of ?fixed_string[2, 'utf16']"},
        {"?fixed_string[2, 'utf32']", "string", "\"\\uffff\\uffff\"", FRACTIONAL, CK_OK,
         "\"\xef\xbf\xbf\xef\xbf\xbf\""},
        // struct fields
        {"2 * {a: ?string, b: int32}", "2 * {a: ?fixed_string[2], b: int8}",
         "[{a: NA, b: 1}, {a: \"xy\", b: 2}]", FRACTIONAL, CK_OK,
         "[{a: NA, b: 1}, {a: \"xy\", b: 2}]"},
        {"{a: ?float64}", "{a: ?string}", "{a: \"2.5\"}", FRACTIONAL, CK_OK, "{a: 2.5}"},
        {"{a: string}", "{a: ?string}", "{a: NA}", FRACTIONAL, CK_ERR_NA, "NA at element 0"},
        // var dimensions over options of text
        {"var * ?string", "var * ?string", "[NA, \"a\", NA]", FRACTIONAL, CK_OK,
         "[NA, \"a\", NA]"},
    };
    for (const auto &c : cases) txt::check(c);
}

TEST_F(TextOption, CallsGiveNaForNa) {
    struct Row {
        const char *name;
        std::vector<txt::Arg> args;
        const char *out;
        int status;
        const char *want;
    };
    const Row rows[] = {
        {"less", {{"3 * ?string", "[\"a\", NA, \"c\"]"}, {"string", "\"b\""}}, nullptr, CK_OK,
         "3 * ?bool [true, NA, false]"},
        {"equal",
         {{"2 * fixed_string[2, 'utf32']", "[\"a\", \"b\"]"}, {"2 * ?string", "[NA, \"b\"]"}},
         nullptr, CK_OK, "2 * ?bool [NA, true]"},
        {"length", {{"3 * ?fixed_string[3]", "[\"a\", NA, \"abc\"]"}}, nullptr, CK_OK,
         "3 * ?int64 [1, NA, 3]"},
        {"concat", {{"3 * ?string", "[\"a\", NA, \"c\"]"}, {"?string", "\"b\""}}, nullptr, CK_OK,
         "3 * ?string [\"ab\", NA, \"cb\"]"},
        {"concat", {{"2 * ?fixed_bytes[1]", "[NA, \"x\"]"}, {"fixed_bytes[2]", "\"y\""}},
         nullptr, CK_OK, "2 * ?fixed_bytes[3] [NA, \"xy\"]"},
        // into a given destination: a plain one refuses NA, an option's NA bits are refused
        {"less", {{"2 * ?string", "[\"a\", NA]"}, {"string", "\"b\""}}, "2 * bool", CK_ERR_NA,
         "NA at element 1"},
        {"concat", {{"?bytes", "\"\\xff\""}, {"bytes", "\"\\xff\""}}, "?fixed_bytes[2]",
         CK_ERR_OVERFLOW, "is the NA of ?fixed_bytes[2]"},
        {"length", {{"2 * ?string", "[NA, \"ab\"]"}}, "2 * ?float64", CK_OK,
         "2 * ?float64 [NA, 2]"},
    };
    for (const Row &r : rows) {
        const txt::Outcome o = txt::call(r.name, r.args, r.out, CK_ERRMODE_DEFAULT, true);
        EXPECT_EQ(o.status, r.status) << r.name << ": " << o.text;
        if (r.status == CK_OK) {
            EXPECT_EQ(o.text, r.want) << r.name;
        } else {
            EXPECT_TRUE(txt::contains(o.text, r.want)) << r.name << ": " << o.text;
        }
    }
}

TEST_F(TextOption, AllocationFailsCleanlyAtEveryPoint) {
    const int64_t points = ckt::for_each_alloc_failure([] {
        int rc = txt::assign("3 * ?string", "3 * ?fixed_string[2]", "[\"ab\", NA, \"c\"]").status;
        if (rc == CK_OK) {
            rc = txt::assign("2 * ?fixed_bytes[3]", "2 * ?float64", "[NA, 1]").status;
        }
        if (rc == CK_OK) {
            rc = txt::call("concat", {{"2 * ?string", "[NA, \"a\"]"}, {"string", "\"b\""}}).status;
        }
        if (rc == CK_OK) rc = txt::call("less", {{"2 * ?string", "[NA, \"a\"]"}, {"string", "\"b\""}}).status;
        return rc;
    });
    EXPECT_GT(points, 0);
}

}  // namespace
