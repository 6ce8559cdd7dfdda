// tests/text/text_type_test.cpp: the text types: datashapes (parse, print, round trip, bad
// parameters), sizes, alignments, arrmeta, equality and the makers.
#include "text_support.hpp"

namespace {

class TextType : public txt::Leakless {};

struct DsCase {
    const char *text, *canonical;
    ck_type_id id;
    size_t size, align, arrmeta;
    int enc;
    intptr_t length;
};

// Sizes by hand: a string slot is a pointer and a size (16 bytes on LP64, 8 on 32-bit hosts),
// its arrmeta the arena's reference (a pointer); fixed kinds are N code units of 1, 2 or 4
// bytes, aligned to their unit (NumPy's U is 4-byte units).
constexpr size_t kPtr = sizeof(void *), kSlot = 2 * sizeof(void *);
TEST_F(TextType, DatashapesParsePrintAndDescribeTheLayout) {
    const DsCase cases[] = {
        {"string", "string", CK_TYPE_STRING, kSlot, kPtr, kPtr, CK_ENCODING_UTF8, -1},
        {"bytes", "bytes", CK_TYPE_BYTES, kSlot, kPtr, kPtr, CK_ENCODING_NONE, -1},
        {"fixed_string[32, 'utf32']", "fixed_string[32, 'utf32']", CK_TYPE_FIXED_STRING, 128, 4,
         0, CK_ENCODING_UTF32, 32},
        {"fixed_string[5,\"utf16\"]", "fixed_string[5, 'utf16']", CK_TYPE_FIXED_STRING, 10, 2, 0,
         CK_ENCODING_UTF16, 5},
        {"fixed_string[ 7 , ascii ]", "fixed_string[7, 'ascii']", CK_TYPE_FIXED_STRING, 7, 1, 0,
         CK_ENCODING_ASCII, 7},
        {"fixed_string[3]", "fixed_string[3, 'utf8']", CK_TYPE_FIXED_STRING, 3, 1, 0,
         CK_ENCODING_UTF8, 3},
        {"fixed_bytes[9]", "fixed_bytes[9]", CK_TYPE_FIXED_BYTES, 9, 1, 0, CK_ENCODING_NONE, 9},
    };
    for (const auto &c : cases) {
        ckt::Type t(c.text);
        ASSERT_NE(t.get(), nullptr) << c.text;
        EXPECT_EQ(ck_type_get_id(t.get()), c.id) << c.text;
        EXPECT_EQ(ck_type_data_size(t.get()), c.size) << c.text;
        EXPECT_EQ(ck_type_data_alignment(t.get()), c.align) << c.text;
        EXPECT_EQ(ck_type_arrmeta_size(t.get()), c.arrmeta) << c.text;
        EXPECT_EQ(ck_type_text_encoding(t.get()), c.enc) << c.text;
        EXPECT_EQ(ck_type_text_length(t.get()), c.length) << c.text;
        EXPECT_EQ(ck_type_is_text(t.get()), 1) << c.text;
        EXPECT_EQ(ck_type_is_scalar(t.get()), 0) << c.text;
        EXPECT_EQ(ck_type_has_blockref(t.get()), c.arrmeta != 0) << c.text;
        EXPECT_EQ(ck_type_element(t.get()), nullptr) << c.text;
        char *s = nullptr;
        ASSERT_EQ(ck_type_format(t.get(), &s), CK_OK);
        EXPECT_STREQ(s, c.canonical);
        ckt::Type again(s);  // the round trip: the printed text parses to an equal type
        EXPECT_EQ(ck_type_equal(t.get(), again.get()), 1) << s;
        ck_free(s);
    }
}

TEST_F(TextType, NestedInDimensionsFieldsAndPointers) {
    ckt::Type t("3 * {name: string, code: fixed_string[4, 'ascii'], raw: var * bytes}");
    char *s = nullptr;
    ASSERT_EQ(ck_type_format(t.get(), &s), CK_OK);
    EXPECT_STREQ(s, "3 * {name: string, code: fixed_string[4, 'ascii'], raw: var * bytes}");
    ck_free(s);
    // {16-byte slot at 0, 4 bytes at 16, var slot at 24}: 40 bytes, aligned to 8 (at 32 bits:
    // 8 + 4 + 8, aligned to 4).
    EXPECT_EQ(ck_type_data_size(t.get()), 3u * ((kSlot + 4 + kPtr - 1) / kPtr * kPtr + kSlot));
    ckt::Type p("pointer[fixed_bytes[2]]");
    EXPECT_EQ(ck_type_has_blockref(p.get()), 1);
}

TEST_F(TextType, EqualityComparesKindLengthAndEncoding) {
    ckt::Type a("fixed_string[4, 'utf8']"), b("fixed_string[4]"), c("fixed_string[4, 'utf16']"),
        d("fixed_string[5, 'utf8']"), e("fixed_bytes[4]"), f("string"), g("bytes");
    EXPECT_EQ(ck_type_equal(a.get(), b.get()), 1);
    EXPECT_EQ(ck_type_equal(a.get(), c.get()), 0);
    EXPECT_EQ(ck_type_equal(a.get(), d.get()), 0);
    EXPECT_EQ(ck_type_equal(a.get(), e.get()), 0);
    EXPECT_EQ(ck_type_equal(f.get(), g.get()), 0);
    EXPECT_EQ(f.get(), ck_type_string());  // static, as scalars are
    EXPECT_EQ(g.get(), ck_type_bytes());
}

TEST_F(TextType, BadParametersAreClearErrors) {
    const struct {
        const char *text;
        int status;
        const char *says;
    } cases[] = {
        {"fixed_string", CK_ERR_PARSE, "expected '[' after 'fixed_string', found end of input"},
        {"fixed_string[]", CK_ERR_PARSE, "takes a length (a positive integer), found ']'"},
        {"fixed_string[0]", CK_ERR_INVALID, "length of fixed_string must be from 1"},
        {"fixed_bytes[-1]", CK_ERR_PARSE, "takes a length"},
        {"fixed_string[4, 'latin1']", CK_ERR_PARSE, "unknown encoding"},
        {"fixed_string[4, 'utf8]", CK_ERR_PARSE, "unknown encoding"},
        {"fixed_string[4, utf8", CK_ERR_PARSE, "expected ']' after the encoding"},
        {"fixed_bytes[4, 'utf8']", CK_ERR_PARSE, "expected ']' after the length of fixed_bytes["},
        {"fixed_string[99999999999999999999]", CK_ERR_INVALID, "must be from 1 to"},
#if INTPTR_MAX > INT32_MAX
        {"fixed_string[4611686018427387904, 'utf32']", CK_ERR_INVALID,
         "overflow the largest data size"},
#else
        {"fixed_string[1073741824, 'utf32']", CK_ERR_INVALID, "overflow the largest data size"},
#endif
        {"?3 * string", CK_ERR_UNSUPPORTED,
         "'?' takes a scalar type (or a datetime or text) for now, not 3 * string"},
        {"strings", CK_ERR_PARSE, "unknown type 'strings'"},
    };
    for (const auto &c : cases) {
        ck_type *t = reinterpret_cast<ck_type *>(1);
        EXPECT_EQ(ck_type_parse(c.text, &t), c.status) << c.text << ": " << ck_last_error();
        EXPECT_EQ(t, nullptr);
        EXPECT_TRUE(txt::contains(ck_last_error(), c.says))
            << c.text << ": " << ck_last_error();
        EXPECT_TRUE(txt::contains(ck_last_error(), "column")) << ck_last_error();
    }
}

TEST_F(TextType, MakersCheckTheirArguments) {
    ck_type *t = nullptr;
    EXPECT_EQ(ck_type_make_fixed_string(0, CK_ENCODING_UTF8, &t), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_make_fixed_string(3, CK_ENCODING_NONE, &t), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_make_fixed_string(3, static_cast<ck_text_encoding>(9), &t), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_make_fixed_bytes(-5, &t), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_make_fixed_string(1, CK_ENCODING_UTF8, nullptr), CK_ERR_INVALID);
    ASSERT_EQ(ck_type_make_fixed_string(6, CK_ENCODING_UTF16, &t), CK_OK);
    EXPECT_EQ(ck_type_data_size(t), 12u);
    ck_type_decref(t);
    EXPECT_STREQ(ck_text_encoding_name(CK_ENCODING_UTF32), "utf32");
    EXPECT_STREQ(ck_text_encoding_name(CK_ENCODING_NONE), "none");
    EXPECT_STREQ(ck_type_id_name(CK_TYPE_FIXED_STRING), "fixed_string");
    EXPECT_EQ(ck_type_text_encoding(ck_type_scalar(CK_TYPE_INT8)), -1);
    EXPECT_EQ(ck_type_text_length(ck_type_string()), -1);
}

// string and bytes arrmeta is the arena their values' bytes live in: constructed with a
// reference to it, copied with another, released to NULL.
TEST_F(TextType, ArrmetaHoldsTheArena) {
    ck_memblock *arena = nullptr;
    ASSERT_EQ(ck_arena_new(0, &arena), CK_OK);
    ckt::Type t("2 * string");
    alignas(16) char m[32] = {0}, copy[32] = {0};
    ASSERT_EQ(ck_type_arrmeta_size(t.get()), sizeof(ck_fixed_dim_arrmeta) + sizeof(void *));
    ASSERT_EQ(ck_arrmeta_default_construct(t.get(), m, arena), CK_OK);
    ck_string_arrmeta sm;
    std::memcpy(&sm, m + sizeof(ck_fixed_dim_arrmeta), sizeof sm);
    EXPECT_EQ(sm.blockref, arena);
    ck_arrmeta_copy(t.get(), copy, m);
    ck_memblock_decref(arena);  // the arrmeta's two references keep it alive
    ck_arrmeta_release(t.get(), m);
    std::memcpy(&sm, m + sizeof(ck_fixed_dim_arrmeta), sizeof sm);
    EXPECT_EQ(sm.blockref, nullptr);
    char *p = nullptr;
    std::memcpy(&sm, copy + sizeof(ck_fixed_dim_arrmeta), sizeof sm);
    EXPECT_EQ(ck_arena_alloc(sm.blockref, 5, 1, &p), CK_OK);
    ck_arrmeta_release(t.get(), copy);
}

TEST_F(TextType, ParsingAllocationFailsCleanly) {
    ckt::for_each_alloc_failure([] {
        ck_type *t = nullptr;
        const int rc = ck_type_parse("{a: fixed_string[3, 'utf16'], b: string, c: fixed_bytes[2]}", &t);
        ck_type_decref(t);
        return rc;
    });
}

}  // namespace
