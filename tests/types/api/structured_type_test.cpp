// tests/types/api/structured_type_test.cpp: tuple, struct and option types through the public
// API. Layouts are checked against C structs of the same fields compiled here (offsetof,
// sizeof, alignof: the compiler's layout is the independent value), datashapes against
// hand-written canonical forms, arrmeta against the documented format; errors give status
// and column; allocation failure at every point of parsing and formatting leaks nothing.
#include <gtest/gtest.h>


#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "scalar_oracle.h"
#include "tt.hpp"

namespace {

using Leakless = tt::TypesLeakless;
class StructuredTypes : public Leakless {};

struct CStructA {  // {a: int8, b: float64, c: int16}
    int8_t a;
    double b;
    int16_t c;
};
struct CStructB {  // (int32, 3 * float32, uint8)
    int32_t f0;
    float f1[3];
    uint8_t f2;
};
struct CInner {  // {x: int16, y: complex64}
    int16_t x;
    float y[2];
};
struct COuter {  // {p: int8, q: {x: int16, y: complex64}, r: 2 * int64}
    int8_t p;
    CInner q;
    int64_t r[2];
};

TEST_F(StructuredTypes, LayoutIsTheCCompilersLayout) {
    {
        tt::Type t("{a: int8, b: float64, c: int16}");
        ASSERT_EQ(ck_type_get_id(t), CK_TYPE_STRUCT);
        ASSERT_EQ(ck_type_field_count(t), 3u);
        EXPECT_EQ(ck_type_field_offset(t, 0), offsetof(CStructA, a));
        EXPECT_EQ(ck_type_field_offset(t, 1), offsetof(CStructA, b));
        EXPECT_EQ(ck_type_field_offset(t, 2), offsetof(CStructA, c));
        EXPECT_EQ(ck_type_data_size(t), sizeof(CStructA));
        EXPECT_EQ(ck_type_data_alignment(t), alignof(CStructA));
    }
    {
        tt::Type t("(int32, 3 * float32, uint8)");
        ASSERT_EQ(ck_type_get_id(t), CK_TYPE_TUPLE);
        EXPECT_EQ(ck_type_field_offset(t, 0), offsetof(CStructB, f0));
        EXPECT_EQ(ck_type_field_offset(t, 1), offsetof(CStructB, f1));
        EXPECT_EQ(ck_type_field_offset(t, 2), offsetof(CStructB, f2));
        EXPECT_EQ(ck_type_data_size(t), sizeof(CStructB));
        EXPECT_EQ(ck_type_data_alignment(t), alignof(CStructB));
        EXPECT_EQ(ck_type_field_name(t, 0), nullptr);
    }
    {
        tt::Type t("{p: int8, q: {x: int16, y: complex64}, r: 2 * int64}");
        EXPECT_EQ(ck_type_field_offset(t, 1), offsetof(COuter, q));
        EXPECT_EQ(ck_type_field_offset(t, 2), offsetof(COuter, r));
        EXPECT_EQ(ck_type_data_size(t), sizeof(COuter));
        const ck_type *q = ck_type_field(t, 1);
        ASSERT_NE(q, nullptr);
        EXPECT_EQ(ck_type_field_offset(q, 1), offsetof(CInner, y));
        EXPECT_EQ(ck_type_data_size(q), sizeof(CInner));
        EXPECT_EQ(ck_type_depth(t), 2);  // the fixed dim in r: one level under the struct
    }
    {
        // Empty tuple and struct: zero bytes, alignment 1, no arrmeta.
        tt::Type e("()"), s("{}");
        EXPECT_EQ(ck_type_data_size(e), 0u);
        EXPECT_EQ(ck_type_data_alignment(e), 1u);
        EXPECT_EQ(ck_type_arrmeta_size(s), 0u);
        EXPECT_EQ(ck_type_field_count(s), 0u);
        EXPECT_EQ(ck_type_field(s, 0), nullptr);
    }
}

TEST_F(StructuredTypes, ArrmetaIsTheOffsetsThenEachFieldsArrmeta) {
    // {a: int8, b: var * int32, c: 3 * float64}: 3 offsets (24 bytes), then b's var arrmeta
    // (24 bytes), then c's fixed arrmeta (16 bytes): 64 in all (at 64 bits).
    const size_t b_at = 3 * tt::kFieldOffset, c_at = b_at + tt::kVarAm, all = c_at + tt::kFixedAm;
    // The record's data is laid out as this C struct.
    struct record {
        int8_t a;
        ck_var_data b;
        double c[3];
    };
    tt::Type t("{a: int8, b: var * int32, c: 3 * float64}");
    ASSERT_EQ(ck_type_arrmeta_size(t), all);
    EXPECT_EQ(ck_type_field_arrmeta_offset(t, 0), b_at);
    EXPECT_EQ(ck_type_field_arrmeta_offset(t, 1), b_at);
    EXPECT_EQ(ck_type_field_arrmeta_offset(t, 2), c_at);
    EXPECT_EQ(ck_type_has_blockref(t), 1);
    ck_memblock *arena = nullptr;
    ASSERT_EQ(ck_arena_new(0, &arena), CK_OK);
    alignas(16) char meta[64];
    std::memset(meta, 0x5a, sizeof meta);
    ASSERT_EQ(ck_arrmeta_default_construct(t, meta, arena), CK_OK);
    intptr_t offs[3];
    std::memcpy(offs, meta, sizeof offs);
    EXPECT_EQ(offs[0], 0);
    EXPECT_EQ(offs[1], static_cast<intptr_t>(offsetof(record, b)));  // 8: pointer-aligned
    EXPECT_EQ(offs[2], static_cast<intptr_t>(offsetof(record, c)));  // 24: after the var data
    ck_var_dim_arrmeta vm;
    std::memcpy(&vm, meta + b_at, sizeof vm);
    EXPECT_EQ(vm.blockref, arena);
    EXPECT_EQ(vm.stride, 4);
    EXPECT_EQ(vm.offset, 0);
    ck_fixed_dim_arrmeta fm;
    std::memcpy(&fm, meta + c_at, sizeof fm);
    EXPECT_EQ(fm.dim_size, 3);
    EXPECT_EQ(fm.stride, 8);
    alignas(16) char copy[64];
    ck_arrmeta_copy(t, copy, meta);
    ck_arrmeta_release(t, meta);
    std::memcpy(&vm, meta + b_at, sizeof vm);
    EXPECT_EQ(vm.blockref, nullptr);
    ck_arrmeta_release(t, copy);
    ck_memblock_decref(arena);  // the last reference: every one taken above was released
}

struct Canonical {
    const char *input;
    const char *canonical;
};

const Canonical kCanonical[] = {
    {"{x: int32, y: 3 * float64}", "{x: int32, y: 3 * float64}"},
    {"{ x :int32 ,y:3*float64 }", "{x: int32, y: 3 * float64}"},
    {"(int32, float64)", "(int32, float64)"},
    {"( int8 , pointer[ float64 ] )", "(int8, pointer[float64])"},
    {"10 * (int8, pointer[float64])", "10 * (int8, pointer[float64])"},
    {"var * {a: int32, b: ?float32}", "var * {a: int32, b: ?float32}"},
    {"?complex[float32]", "?complex64"},
    {"? bool", "?bool"},
    {"{'a b': int8, \"c'd\": int16}", "{'a b': int8, 'c\\'d': int16}"},
    {"{'x\\x09y': int8}", "{'x\\x09y': int8}"},
    {"{'plain': int8, _9: int8}", "{plain: int8, _9: int8}"},
    {"{var: int8, pointer: int16, int32: int32}", "{var: int8, pointer: int16, int32: int32}"},
    {"()", "()"},
    {"{}", "{}"},
    {"((), {}, (int8))", "((), {}, (int8))"},
    {"{a: {b: {c: (?int64, var * ?uint8)}}}", "{a: {b: {c: (?int64, var * ?uint8)}}}"},
    {"pointer[{x: int32}]", "pointer[{x: int32}]"},
};

class CanonicalStructured : public Leakless, public ::testing::WithParamInterface<Canonical> {};

TEST_P(CanonicalStructured, PrintsCanonicallyAndRoundTrips) {
    const Canonical &c = GetParam();
    ck_type *t = nullptr;
    ASSERT_EQ(ck_type_parse(c.input, &t), CK_OK) << c.input << ": " << ck_last_error();
    EXPECT_EQ(tt::format(t), c.canonical);
    ck_type *again = nullptr;
    ASSERT_EQ(ck_type_parse(c.canonical, &again), CK_OK) << ck_last_error();
    EXPECT_TRUE(ck_type_equal(t, again));
    EXPECT_EQ(tt::format(again), c.canonical);
    ck_type_decref(again);
    ck_type_decref(t);
}

INSTANTIATE_TEST_SUITE_P(Types, CanonicalStructured, ::testing::ValuesIn(kCanonical),
                         ckt::name_by_content(kCanonical, [](const Canonical &c) {
                             return std::string(c.input);
                         }));

struct Bad {
    const char *input;
    int status;
    size_t column;
    const char *detail;
};

const Bad kBad[] = {
    {"{x: int32, x: int8}", CK_ERR_PARSE, 12, "duplicate field name x"},
    {"{'a': int8, a: int8}", CK_ERR_PARSE, 13, "duplicate field name a"},
    {"{x int32}", CK_ERR_PARSE, 4, "expected ':' after a field name"},
    {"{x: int32", CK_ERR_PARSE, 10, "expected ',' or '}' after a struct field"},
    {"(int32, float64", CK_ERR_PARSE, 16, "expected ',' or ')' after a tuple field"},
    {"(int32 float64)", CK_ERR_PARSE, 8, "expected ',' or ')'"},
    {"{: int8}", CK_ERR_PARSE, 2, "expected a field name"},
    {"{'': int8}", CK_ERR_PARSE, 2, "a field name cannot be empty"},
    {"{'abc: int8}", CK_ERR_PARSE, 2, "unterminated quoted field name"},
    {"{'a\\q': int8}", CK_ERR_PARSE, 4, "unknown escape"},
    {"{'a\\x00': int8}", CK_ERR_PARSE, 4, "NUL byte"},
    {"(int8,)", CK_ERR_PARSE, 7, "unexpected character ')'"},
    {"?3 * int32", CK_ERR_UNSUPPORTED, 1, "'?' takes a scalar type"},
    {"??int32", CK_ERR_UNSUPPORTED, 1, "not ?int32"},
    {"?{x: int8}", CK_ERR_UNSUPPORTED, 1, "not {x: int8}"},
#if INTPTR_MAX > INT32_MAX
    {"(9223372036854775807 * int8, int8)", CK_ERR_INVALID, 1, "overflow the largest data size"},
    {"{a: 4611686018427387904 * int8, b: 4611686018427387904 * int8}", CK_ERR_INVALID, 1,
     "overflow the largest data size"},
#else
    // 32-bit sizes: two fields of 1 GiB are 2 GiB, more than intptr_t holds.
    {"(2147483647 * int8, int8)", CK_ERR_INVALID, 1, "overflow the largest data size"},
    {"{a: 1073741824 * int8, b: 1073741824 * int8}", CK_ERR_INVALID, 1,
     "overflow the largest data size"},
#endif
};

class BadStructured : public Leakless, public ::testing::WithParamInterface<Bad> {};

TEST_P(BadStructured, StatusColumnAndDetail) {
    const Bad &b = GetParam();
    ck_type *t = reinterpret_cast<ck_type *>(0x1);
    EXPECT_EQ(ck_type_parse(b.input, &t), b.status) << b.input << ": " << ck_last_error();
    EXPECT_EQ(t, nullptr);
    const std::string msg = ck_last_error();
    EXPECT_TRUE(tt::contains(msg, b.detail)) << msg;
    EXPECT_TRUE(tt::contains(msg, "at column " + std::to_string(b.column))) << msg;
}

INSTANTIATE_TEST_SUITE_P(Types, BadStructured, ::testing::ValuesIn(kBad),
                         ckt::name_by_content(kBad, [](const Bad &b) { return std::string(b.input); }));

TEST_F(StructuredTypes, NestingIsBoundedThroughFieldsAndOptions) {
    // 63 nested tuples around a scalar: depth 63, accepted; 64 levels of nesting plus the
    // option make 65: refused with the column of the level that goes too deep.
    std::string ok, deep;
    for (int i = 0; i < 63; ++i) ok += "(";
    ok += "int8";
    for (int i = 0; i < 63; ++i) ok += ")";
    tt::Type t(ok.c_str());
    ASSERT_NE(t.t, nullptr);
    EXPECT_EQ(ck_type_depth(t), 63);
    for (int i = 0; i < 64; ++i) deep += "{a: ";
    deep += "?int8";
    for (int i = 0; i < 64; ++i) deep += "}";
    ck_type *bad = nullptr;
    EXPECT_EQ(ck_type_parse(deep.c_str(), &bad), CK_ERR_INVALID);
    EXPECT_TRUE(tt::contains(ck_last_error(), "nested deeper than 64")) << ck_last_error();
    EXPECT_TRUE(tt::contains(ck_last_error(), "column 257")) << ck_last_error();
    // Wide is fine: a struct of 2000 fields.
    std::string wide = "{";
    for (int i = 0; i < 2000; ++i) wide += (i ? ", f" : "f") + std::to_string(i) + ": int16";
    wide += "}";
    tt::Type w(wide.c_str());
    ASSERT_NE(w.t, nullptr);
    EXPECT_EQ(ck_type_field_count(w), 2000u);
    EXPECT_EQ(ck_type_data_size(w), 4000u);
    EXPECT_EQ(ck_type_field_index(w, "f1999"), 1999);
    EXPECT_EQ(tt::format(w), wide);
}

TEST_F(StructuredTypes, MakersAgreeWithTheParserAndRejectBadInput) {
    const ck_type *fields[2] = {ck_type_scalar(CK_TYPE_INT32), ck_type_scalar(CK_TYPE_FLOAT64)};
    const char *names[2] = {"x", "y z"};
    ck_type *s = nullptr, *u = nullptr, *o = nullptr;
    ASSERT_EQ(ck_type_make_struct(2, fields, names, &s), CK_OK);
    ASSERT_EQ(ck_type_make_tuple(2, fields, &u), CK_OK);
    ASSERT_EQ(ck_type_make_option(fields[1], &o), CK_OK);
    tt::Type ps("{x: int32, 'y z': float64}"), pu("(int32, float64)"), po("?float64");
    EXPECT_TRUE(ck_type_equal(s, ps));
    EXPECT_TRUE(ck_type_equal(u, pu));
    EXPECT_TRUE(ck_type_equal(o, po));
    EXPECT_FALSE(ck_type_equal(s, pu)) << "a struct is not the tuple of its fields";
    EXPECT_FALSE(ck_type_equal(o, ck_type_scalar(CK_TYPE_FLOAT64)));
    EXPECT_EQ(ck_type_element(o), ck_type_scalar(CK_TYPE_FLOAT64));
    EXPECT_STREQ(ck_type_field_name(s, 1), "y z");
    EXPECT_EQ(ck_type_field_index(s, "y z"), 1);
    EXPECT_EQ(ck_type_field_index(s, "y"), -1);
    EXPECT_EQ(ck_type_field_index(u, "x"), -1);
    tt::Type renamed("{x: int32, y: float64}");
    EXPECT_FALSE(ck_type_equal(s, renamed));
    ck_type_decref(s);
    ck_type_decref(u);
    ck_type_decref(o);

    ck_type *r = reinterpret_cast<ck_type *>(0x1);
    const char *dup[2] = {"a", "a"};
    EXPECT_EQ(ck_type_make_struct(2, fields, dup, &r), CK_ERR_INVALID);
    EXPECT_EQ(r, nullptr);
    EXPECT_TRUE(tt::contains(ck_last_error(), "'a' is used twice")) << ck_last_error();
    const char *empty[2] = {"a", ""};
    EXPECT_EQ(ck_type_make_struct(2, fields, empty, &r), CK_ERR_INVALID);
    const ck_type *withnull[2] = {fields[0], nullptr};
    EXPECT_EQ(ck_type_make_tuple(2, withnull, &r), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_make_tuple(CK_TYPE_MAX_FIELDS + 1, fields, &r), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_make_struct(1, fields, nullptr, &r), CK_ERR_INVALID);
    tt::Type dim("3 * int8");
    EXPECT_EQ(ck_type_make_option(dim, &r), CK_ERR_UNSUPPORTED);
    EXPECT_EQ(r, nullptr);
}

TEST_F(StructuredTypes, NaValuesAreTheDocumentedBits) {
    struct Case {
        ck_type_id id;
        std::vector<unsigned char> bytes;
    };
    auto le = [](uint64_t v, size_t n) {  // the n-byte value v, in the host's byte order
        std::vector<unsigned char> b(n);
        ckt_put_low_bytes(b.data(), v, n);
        return b;
    };
    const Case cases[] = {
        {CK_TYPE_BOOL, {2}},
        {CK_TYPE_INT8, le(0x80, 1)},
        {CK_TYPE_INT16, le(0x8000, 2)},
        {CK_TYPE_INT32, le(0x80000000u, 4)},
        {CK_TYPE_INT64, le(0x8000000000000000u, 8)},
        {CK_TYPE_UINT8, le(0xff, 1)},
        {CK_TYPE_UINT16, le(0xffff, 2)},
        {CK_TYPE_UINT32, le(0xffffffffu, 4)},
        {CK_TYPE_UINT64, le(~0ull, 8)},
        {CK_TYPE_FLOAT16, le(0x7fa2, 2)},
        {CK_TYPE_FLOAT32, le(0x7fc007a2u, 4)},
        {CK_TYPE_FLOAT64, le(0x7ff80000000007a2ull, 8)},
    };
    for (const Case &c : cases) {
        const ck_type *t = ck_type_scalar(c.id);
        ck_type *o = nullptr;
        ASSERT_EQ(ck_type_make_option(t, &o), CK_OK);
        const void *na = ck_option_na_bytes(o);
        ASSERT_NE(na, nullptr);
        EXPECT_EQ(std::memcmp(na, c.bytes.data(), c.bytes.size()), 0) << ck_type_id_name(c.id);
        EXPECT_EQ(ck_option_na_bytes(t), na);
        EXPECT_EQ(ck_option_is_na(o, c.bytes.data()), 1);
        std::vector<unsigned char> other(c.bytes);
        other[0] ^= 1;
        EXPECT_EQ(ck_option_is_na(o, other.data()), 0) << ck_type_id_name(c.id);
        ck_type_decref(o);
    }
    // Floats: the NA is a quiet NaN, and a NaN is not NA.
    double na64;
    std::memcpy(&na64, ck_option_na_bytes(ck_type_scalar(CK_TYPE_FLOAT64)), 8);
    EXPECT_TRUE(std::isnan(na64));
    const double qnan = std::nan("");
    EXPECT_EQ(ck_option_is_na(ck_type_scalar(CK_TYPE_FLOAT64), &qnan), 0);
    // complex: the float NA in both parts.
    const unsigned char *c = static_cast<const unsigned char *>(
        ck_option_na_bytes(ck_type_scalar(CK_TYPE_COMPLEX128)));
    EXPECT_EQ(std::memcmp(c, c + 8, 8), 0);
    EXPECT_EQ(std::memcmp(c, ck_option_na_bytes(ck_type_scalar(CK_TYPE_FLOAT64)), 8), 0);
    tt::Type tuple("(int8)");
    EXPECT_EQ(ck_option_na_bytes(tuple), nullptr);
}

TEST_F(StructuredTypes, AllocationFailureAtEveryPointOfParsingAndPrinting) {
    const char *text = "var * {a: (int8, ?float64), 'b c': 3 * {d: pointer[?int16]}, e: ?bool}";
    const int64_t points = ckt::for_each_alloc_failure([&] {
        ck_type *t = nullptr;
        int rc = ck_type_parse(text, &t);
        char *s = nullptr;
        if (rc == CK_OK) rc = ck_type_format(t, &s);
        if (rc == CK_OK) {
            EXPECT_STREQ(s, "var * {a: (int8, ?float64), 'b c': 3 * {d: pointer[?int16]}, e: ?bool}");
        }
        ck_free(s);
        ck_type_decref(t);
        return rc;
    });
    EXPECT_GT(points, 10);
}

}  // namespace
