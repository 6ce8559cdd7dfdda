// tests/types/api/array_test.cpp: the array container and its literals. Values are checked
// in the raw data through the arrmeta (expected bit patterns written out by hand), formats
// against hand-written strings, errors by status, path and column; then round trips for
// every type, and allocation failure at every point of parsing a literal.
#include <gtest/gtest.h>

#include <clocale>
#include <cmath>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tt.hpp"

namespace {

using Leakless = tt::TypesLeakless;
class TypesArray : public Leakless {};

template <class T>
T load(const char *p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

int parse(const char *type, const char *literal, tt::Array &out) {
    tt::Type t(type);
    return ck_array_parse(t, literal, &out.a);
}

TEST_F(TypesArray, NewThreeVarInt32IsCOrderZeroedAndUnallocated) {
    tt::Array a;
    {
        tt::Type t("3 * var * int32");
        ASSERT_EQ(ck_array_new(t, &a.a), CK_OK) << ck_last_error();
    } // the array holds its own reference to the type
    EXPECT_EQ(tt::format(ck_array_type(a.a)), "3 * var * int32");
    const char *am = ck_array_arrmeta(a.a);
    const auto fixed = load<ck_fixed_dim_arrmeta>(am);
    const auto var = load<ck_var_dim_arrmeta>(am + tt::kFixedAm);
    EXPECT_EQ(fixed.dim_size, 3);
    EXPECT_EQ(fixed.stride, static_cast<intptr_t>(tt::kVarData));
    ASSERT_NE(var.blockref, nullptr);
    EXPECT_EQ(ck_memblock_get_kind(var.blockref), CK_MEMBLOCK_ARENA);
    EXPECT_EQ(var.stride, 4);
    EXPECT_EQ(var.offset, 0);
    const char *data = ck_array_data(a.a);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % 8, 0u);
    for (size_t i = 0; i < 3 * tt::kVarData; i++) {
        ASSERT_EQ(data[i], 0);
    }
    EXPECT_EQ(tt::format(a.a), "[null, null, null]");
}

TEST_F(TypesArray, NewAllocatesPointerTargetsReachableThroughFixedDims) {
    tt::Array a;
    tt::Type t("2 * pointer[3 * int16]");
    ASSERT_EQ(ck_array_new(t, &a.a), CK_OK) << ck_last_error();
    const char *data = ck_array_data(a.a);
    const char *p0 = load<const char *>(data);
    const char *p1 = load<const char *>(data + sizeof(char *));
    ASSERT_NE(p0, nullptr);
    ASSERT_NE(p1, nullptr);
    EXPECT_GE(std::abs(p1 - p0), 6) << "targets must not overlap";
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p0) % 2, 0u);
    EXPECT_EQ(tt::format(a.a), "[[0, 0, 0], [0, 0, 0]]");

    // Pointers inside var elements start NULL with the element (unallocated var dim).
    tt::Array b;
    tt::Type u("pointer[var * pointer[int8]]");
    ASSERT_EQ(ck_array_new(u, &b.a), CK_OK);
    EXPECT_EQ(tt::format(b.a), "null");
    ASSERT_NE(load<const char *>(ck_array_data(b.a)), nullptr);
}

TEST_F(TypesArray, NewScalarsAndEmptyShapes) {
    struct Case {
        const char *type;
        const char *text;
    };
    const Case cases[] = {
        {"bool", "false"},         {"int8", "0"},          {"uint64", "0"},
        {"float16", "0"},          {"float32", "0"},       {"float64", "0"},
        {"complex64", "0+0j"},     {"complex128", "0+0j"}, {"0 * int32", "[]"},
        {"2 * 0 * int8", "[[], []]"}, {"var * int8", "null"}, {"pointer[int8]", "0"},
    };
    for (const Case &c : cases) {
        tt::Array a;
        tt::Type t(c.type);
        ASSERT_EQ(ck_array_new(t, &a.a), CK_OK) << c.type << ": " << ck_last_error();
        EXPECT_NE(ck_array_data(a.a), nullptr);
        EXPECT_EQ(tt::format(a.a), c.text) << c.type;
    }
}

TEST_F(TypesArray, ParseThreeVarInt32StoresRowsInTheArena) {
    tt::Array a;
    ASSERT_EQ(parse("3 * var * int32", "[[1], [2, 3], []]", a), CK_OK) << ck_last_error();
    const char *am = ck_array_arrmeta(a.a);
    const auto var = load<ck_var_dim_arrmeta>(am + tt::kFixedAm);
    ASSERT_NE(var.blockref, nullptr);
    EXPECT_EQ(ck_memblock_get_kind(var.blockref), CK_MEMBLOCK_ARENA);
    const char *data = ck_array_data(a.a);
    const auto r0 = load<ck_var_data>(data);
    const auto r1 = load<ck_var_data>(data + tt::kVarData);
    const auto r2 = load<ck_var_data>(data + 2 * tt::kVarData);
    ASSERT_EQ(r0.size, 1u);
    ASSERT_EQ(r1.size, 2u);
    ASSERT_EQ(r2.size, 0u);
    EXPECT_NE(r2.begin, nullptr) << "an empty row is allocated, not null";
    EXPECT_EQ(load<int32_t>(r0.begin + var.offset), 1);
    EXPECT_EQ(load<int32_t>(r1.begin + var.offset), 2);
    EXPECT_EQ(load<int32_t>(r1.begin + var.offset + var.stride), 3);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(r1.begin) % 4, 0u);
    EXPECT_EQ(tt::format(a.a), "[[1], [2, 3], []]");
}

TEST_F(TypesArray, FormatFollowsTheArrmeta) {
    tt::Array a;
    ASSERT_EQ(parse("3 * int32", "[7, 8, 9]", a), CK_OK);
    char *am = ck_array_arrmeta(a.a);
    ck_fixed_dim_arrmeta m = load<ck_fixed_dim_arrmeta>(am);
    m.stride = 0; // a broadcasting view of element 0
    std::memcpy(am, &m, sizeof m);
    EXPECT_EQ(tt::format(a.a), "[7, 7, 7]");
    m.dim_size = 1;
    m.stride = 4;
    std::memcpy(am, &m, sizeof m);
    EXPECT_EQ(tt::format(a.a), "[7]");
    m.dim_size = 3;
    std::memcpy(am, &m, sizeof m);
}

// One scalar literal: the stored bytes (little-endian hex of the value) and the formatted text.
struct ScalarCase {
    const char *type;
    const char *literal;
    uint64_t bits_lo; // first 8 bytes of the value (zero-extended)
    uint64_t bits_hi; // bytes 8..15 (complex128's imaginary part)
    const char *text;
};

const ScalarCase kScalars[] = {
    {"bool", "true", 1, 0, "true"},
    {"bool", "false", 0, 0, "false"},
    {"bool", "1", 1, 0, "true"},
    {"bool", "0.0", 0, 0, "false"},
    {"int8", "-128", 0x80, 0, "-128"},
    {"int8", "127", 0x7f, 0, "127"},
    {"int8", "1e2", 100, 0, "100"},
    {"int8", "-0", 0, 0, "0"},
    {"int8", "true", 1, 0, "1"},
    {"int16", "-32768", 0x8000, 0, "-32768"},
    {"int16", "+32767", 0x7fff, 0, "32767"},
    {"int32", "-2147483648", 0x80000000u, 0, "-2147483648"},
    {"int32", "  42  ", 42, 0, "42"},
    {"int32", "-7.0", 0xfffffff9u, 0, "-7"},
    {"int32", "5+0j", 5, 0, "5"},
    {"int64", "-9223372036854775808", 0x8000000000000000u, 0, "-9223372036854775808"},
    {"int64", "9223372036854775807", 0x7fffffffffffffffu, 0, "9223372036854775807"},
    {"int64", "-9.223372036854775808e18", 0x8000000000000000u, 0, "-9223372036854775808"},
    {"uint8", "255", 0xff, 0, "255"},
    {"uint16", "65535", 0xffff, 0, "65535"},
    {"uint32", "4294967295", 0xffffffffu, 0, "4294967295"},
    {"uint64", "18446744073709551615", 0xffffffffffffffffu, 0, "18446744073709551615"},
    {"uint64", "1.8446744073709550e19", 0xfffffffffffff800u, 0, "18446744073709549568"},
    {"uint64", "00000000000000000000000000000012", 12, 0, "12"},
    {"float16", "0.1", 0x2e66, 0, "0.1"},
    {"float16", "65504", 0x7bff, 0, "65500"},
    {"float16", "-inf", 0xfc00, 0, "-inf"},
    {"float16", "6e-8", 0x0001, 0, "6e-08"},
    {"float16", "true", 0x3c00, 0, "1"},
    {"float16", "1.000488281250000000001", 0x3c01, 0, "1.001"},
    {"float16", "1.00048828125", 0x3c00, 0, "1"},
    {"float16", "-0", 0x8000, 0, "-0"},
    {"float32", "0.1", 0x3dcccccd, 0, "0.1"},
    {"float32", "16777217", 0x4b800000, 0, "16777216"},
    {"float32", "3.4028235e38", 0x7f7fffff, 0, "3.4028235e+38"},
    {"float32", "1e-46", 0, 0, "0"},
    {"float32", "-0.0", 0x80000000u, 0, "-0"},
    {"float32", "inf", 0x7f800000, 0, "inf"},
    {"float64", "0.1", 0x3fb999999999999au, 0, "0.1"},
    {"float64", "5e-324", 1, 0, "5e-324"},
    {"float64", "-2.5", 0xc004000000000000u, 0, "-2.5"},
    {"float64", "100", 0x4059000000000000u, 0, "100"},
    {"float64", "1e16", 0x4341c37937e08000u, 0, "1e+16"},
    {"float64", ".5", 0x3fe0000000000000u, 0, "0.5"},
    {"float64", "3.", 0x4008000000000000u, 0, "3"},
    {"float64", "-1e-400", 0x8000000000000000u, 0, "-0"},
    {"float64", "9007199254740993", 0x4340000000000000u, 0, "9007199254740992"},
    {"float64", "2-0j", 0x4000000000000000u, 0, "2"},
    // Around overflow: the checking pass reads these (their digits say they might overflow).
    {"float64", "1.7976931348623158e308", 0x7fefffffffffffffu, 0, "1.7976931348623157e+308"},
    {"float64", "0.000017976931348623157e313", 0x7fefffffffffffffu, 0,
     "1.7976931348623157e+308"},
    {"float64", "99999999999999999999e288", 0x7fe1ccf385ebc8a0u, 0, "1e+308"},
    {"float32", "3.4028235677973362e38", 0x7f7fffff, 0, "3.4028235e+38"},
    {"float16", "65519.99", 0x7bff, 0, "65500"},
    {"float16", "9999", 0x70e2, 0, "10000"},
    {"float64", "1000000000000000000000000000000000000000000000000000000000000"
                "0000000000000000000000000000000000000000e-100", 0x3ff0000000000000u, 0, "1"},
    {"complex64", "1+2j", 0x400000003f800000u, 0, "1+2j"},
    {"complex64", "-0.5-1e3j", 0xc47a0000bf000000u, 0, "-0.5-1000j"},
    {"complex64", "2j", 0x4000000000000000u, 0, "0+2j"},
    {"complex64", "3", 0x0000000040400000u, 0, "3+0j"},
    {"complex64", "1 - 0j", 0x800000003f800000u, 0, "1-0j"},
    {"complex64", "0.1+0.1j", 0x3dcccccd3dcccccdu, 0, "0.1+0.1j"},
    {"complex128", "1.5 - 2.25j", 0x3ff8000000000000u, 0xc002000000000000u, "1.5-2.25j"},
    {"complex128", "-inf-infj", 0xfff0000000000000u, 0xfff0000000000000u, "-inf-infj"},
    {"complex128", "1e-300+1e300j", 0x01a56e1fc2f8f359u, 0x7e37e43c8800759cu,
     "1e-300+1e+300j"},
    {"complex128", "true", 0x3ff0000000000000u, 0, "1+0j"},
};

class ScalarLiteral : public Leakless, public ::testing::WithParamInterface<ScalarCase> {};

TEST_P(ScalarLiteral, StoresTheExactValueAndFormatsIt) {
    const ScalarCase &c = GetParam();
    tt::Array a;
    ASSERT_EQ(parse(c.type, c.literal, a), CK_OK)
        << c.type << " <- " << c.literal << ": " << ck_last_error();
    const ck_type *t = ck_array_type(a.a);
    const size_t n = ck_type_data_size(t);
    unsigned char want[16] = {0};
    for (int k = 0; k < 8; k++) {  // the bits spelled little-endian ...
        want[k] = static_cast<unsigned char>(c.bits_lo >> (8 * k));
        want[8 + k] = static_cast<unsigned char>(c.bits_hi >> (8 * k));
    }
    if (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) {  // ... each part in the host's order
        const bool complex = std::strncmp(c.type, "complex", 7) == 0;
        const size_t part = complex ? n / 2 : n;
        for (size_t at = 0; at + part <= n; at += part) {
            std::reverse(want + at, want + at + part);
        }
    }
    EXPECT_EQ(std::memcmp(ck_array_data(a.a), want, n), 0)
        << c.type << " <- " << c.literal << ": got 0x" << std::hex
        << load<uint64_t>(ck_array_data(a.a)) /* reads past small scalars inside the block */;
    EXPECT_EQ(tt::format(a.a), c.text);
}

INSTANTIATE_TEST_SUITE_P(Types, ScalarLiteral, ::testing::ValuesIn(kScalars),
                         ckt::name_by_content(kScalars, [](const ScalarCase &c) {
                             return std::string(c.type) + " " + c.literal;
                         }));

TEST_F(TypesArray, NanLiteralsAreNaN) {
    for (const char *type : {"float16", "float32", "float64"}) {
        for (const char *lit : {"nan", "-nan", "+nan"}) {
            tt::Array a;
            ASSERT_EQ(parse(type, lit, a), CK_OK) << type << " " << lit;
            EXPECT_EQ(tt::format(a.a), "nan");
        }
    }
    tt::Array h;
    ASSERT_EQ(parse("float16", "nan", h), CK_OK);
    EXPECT_EQ(load<uint16_t>(ck_array_data(h.a)) & 0x7e00, 0x7e00) << "a quiet NaN";
    tt::Array c;
    ASSERT_EQ(parse("complex64", "nan+nanj", c), CK_OK);
    EXPECT_TRUE(std::isnan(load<float>(ck_array_data(c.a))));
    EXPECT_TRUE(std::isnan(load<float>(ck_array_data(c.a) + 4)));
    EXPECT_EQ(tt::format(c.a), "nan+nanj");
    tt::Array d;
    ASSERT_EQ(parse("complex128", "1-nanj", d), CK_OK);
    EXPECT_EQ(tt::format(d.a), "1+nanj");
}

// Literals with more significant digits than the split reading keeps (800) are read from
// their text; the values are the C library's strtod/strtof of the same digits, and what
// follows the number is still the literal's.
TEST_F(TypesArray, NumbersWithHundredsOfDigitsReadAsTheCLibraryReadsThem) {
    const std::string third = "0." + std::string(900, '3') + "e1";
    const std::string nines = "-0." + std::string(850, '9') + "5e-300";
    const std::string halfway = "1" + std::string(830, '0') + "1e-830";
    const std::string lit = "[" + third + ", " + nines + ", " + halfway + "]";
    tt::Array d;
    ASSERT_EQ(parse("3 * float64", lit.c_str(), d), CK_OK) << ck_last_error();
    tt::Array f;
    ASSERT_EQ(parse("3 * float32", lit.c_str(), f), CK_OK) << ck_last_error();
    int i = 0;
    for (const std::string &text : {third, nines, halfway}) {
        const double want_d = std::strtod(text.c_str(), nullptr);
        const float want_f = std::strtof(text.c_str(), nullptr);
        EXPECT_EQ(std::memcmp(ck_array_data(d.a) + 8 * i, &want_d, 8), 0) << text.substr(0, 20);
        EXPECT_EQ(std::memcmp(ck_array_data(f.a) + 4 * i, &want_f, 4), 0) << text.substr(0, 20);
        i++;
    }
    EXPECT_EQ(load<double>(ck_array_data(d.a) + 16), 10.0) << "10 + 10^-830 rounds to 10";
    tt::Array bad;
    EXPECT_EQ(parse("float64", (third + "x").c_str(), bad), CK_ERR_PARSE);
}

struct BadLiteral {
    const char *type;
    const char *literal;
    int status;
    const char *message; // a substring of ck_last_error()
};

const BadLiteral kBad[] = {
    {"3 * uint8", "[1, 2, 300]", CK_ERR_OVERFLOW,
     "ck_array_parse: at [2] (column 8): value 300 is out of range for uint8"},
    {"2 * 4 * int32", "[[1,2,3,4],[1,2,3,4,5]]", CK_ERR_PARSE,
     "at [1] (column 21): too many elements: 4 * int32 takes 4"},
    {"2 * 4 * int32", "[[1,2,3,4],[1,2,3]]", CK_ERR_PARSE,
     "at [1] (column 12): 3 elements given, 4 * int32 takes 4"},
    {"3 * int8", "[1]", CK_ERR_PARSE, "at column 1: 1 element given, 3 * int8 takes 3"},
    {"2 * var * 2 * int8", "[[[1,2]], [[1,2],[3,400]]]", CK_ERR_OVERFLOW,
     "at [1][1][1] (column 21): value 400 is out of range for int8"},
    {"var * pointer[3 * int8]", "[[1,2,3], null, [1,2]]", CK_ERR_PARSE,
     "at [2] (column 17): 2 elements given, 3 * int8 takes 3"},
    {"int8", "2.5", CK_ERR_FRACTIONAL, "at column 1: value 2.5 is not an integer"},
    {"int32", "nan", CK_ERR_OVERFLOW, "value nan cannot be stored in int32"},
    {"int32", "-inf", CK_ERR_OVERFLOW, "value -inf cannot be stored in int32"},
    {"uint8", "-1", CK_ERR_OVERFLOW, "value -1 is out of range for uint8"},
    {"uint64", "-1.0", CK_ERR_OVERFLOW, "out of range for uint64"},
    {"uint64", "18446744073709551616", CK_ERR_OVERFLOW, "out of range for uint64"},
    {"uint64", "1.8446744073709552e19", CK_ERR_OVERFLOW, "out of range for uint64"},
    {"int64", "9223372036854775808", CK_ERR_OVERFLOW, "out of range for int64"},
    {"int64", "9.2233720368547758e18", CK_ERR_OVERFLOW, "out of range for int64"},
    {"int16", "99999999999999999999999999999", CK_ERR_OVERFLOW, "out of range for int16"},
    {"float32", "1e39", CK_ERR_OVERFLOW, "value 1e39 is out of range for float32"},
    {"float64", "1e400", CK_ERR_OVERFLOW, "out of range for float64"},
    {"float64", "1.7976931348623159e308", CK_ERR_OVERFLOW, "out of range for float64"},
    {"float64", "-179769313486231580793728971405303415079934132710037826936173778980444968292764"
                "750946649017977587207096330286416692887910946555547851940402630657488671505820"
                "681908902000708383676273854845817711531764475730270069855571366959622842914819"
                "860834936475292719074168444365510704342711559699508093042880177904174497792",
     CK_ERR_OVERFLOW, "out of range for float64"},
    {"float32", "3.4028235677973367e38", CK_ERR_OVERFLOW, "out of range for float32"},
    {"float16", "65520", CK_ERR_OVERFLOW, "value 65520 is out of range for float16"},
    {"complex64", "1e39j", CK_ERR_OVERFLOW, "out of range for complex64"},
    {"float64", "1+2j", CK_ERR_IMAGINARY, "value 1+2j has a non-zero imaginary part"},
    {"int32", "3j", CK_ERR_IMAGINARY, "non-zero imaginary part; int32 is real"},
    {"bool", "2", CK_ERR_OVERFLOW, "out of range for bool"},
    {"bool", "0.5", CK_ERR_OVERFLOW, "out of range for bool"},
    {"int32", "[1]", CK_ERR_PARSE, "expected a value of type int32, found a list"},
    {"3 * int32", "1", CK_ERR_PARSE, "expected a list for 3 * int32, found '1'"},
    {"int32", "null", CK_ERR_PARSE, "null stands only for a var dim or a pointer"},
    {"int32", "", CK_ERR_PARSE, "expected a value of type int32, found end of input"},
    {"int32", "1 2", CK_ERR_PARSE, "at column 3: unexpected '2' after the value 1"},
    {"3 * int32", "[1, 2, 3", CK_ERR_PARSE,
     "expected ',' or ']' after element 2, found end of input"},
    {"3 * int32", "[1,, 2, 3]", CK_ERR_PARSE,
     "at [1] (column 4): expected a value of type int32, found ','"},
    {"var * int32", "[1, 2,]", CK_ERR_PARSE, "expected a value of type int32, found ']'"},
    {"var * int32", "[1, 2] x", CK_ERR_PARSE, "at column 8: unexpected 'x' after the literal"},
    {"float64", "1e", CK_ERR_PARSE, "malformed number '1e' (the exponent has no digits)"},
    {"float64", "0x10", CK_ERR_PARSE, "unexpected 'x10' after the value 0"},
    {"float64", "-", CK_ERR_PARSE, "malformed number '-'"},
    {"float64", "infinity", CK_ERR_PARSE, "expected a value of type float64, found 'infinity'"},
    {"float64", "NaN", CK_ERR_PARSE, "found 'NaN'"},
    {"complex64", "1+2", CK_ERR_PARSE, "expected 'j' after the imaginary part"},
    {"complex64", "1+j", CK_ERR_PARSE, "expected the imaginary part of a complex number"},
    {"int8", "true1", CK_ERR_PARSE, "found 'true1'"},
    {"pointer[int32]", "[1]", CK_ERR_PARSE, "found a list"},
    {"var * var * int8", "[[1], 2]", CK_ERR_PARSE, "at [1] (column 7): expected a list for var * int8"},
    // Declared sizes far beyond memory: the literal is checked before any data is allocated.
#if INTPTR_MAX > INT32_MAX
    {"1000000000000 * int8", "[1, 2]", CK_ERR_PARSE, "2 elements given, 1000000000000 * int8"},
    {"9223372036854775807 * int8", "[]", CK_ERR_PARSE, "0 elements given"},
#else
    {"1500000000 * int8", "[1, 2]", CK_ERR_PARSE, "2 elements given, 1500000000 * int8"},
    {"2147483647 * int8", "[]", CK_ERR_PARSE, "0 elements given"},
#endif
};

class InvalidLiteral : public Leakless, public ::testing::WithParamInterface<BadLiteral> {};

TEST_P(InvalidLiteral, StatusPathAndMessage) {
    const BadLiteral &c = GetParam();
    tt::Array a;
    a.a = reinterpret_cast<ck_array *>(0x1);
    ck_array *out = a.a;
    {
        tt::Type t(c.type);
        EXPECT_EQ(ck_array_parse(t, c.literal, &out), c.status)
            << c.type << " <- " << c.literal << ": " << ck_last_error();
    }
    a.a = out;
    EXPECT_EQ(out, nullptr);
    EXPECT_TRUE(tt::contains(ck_last_error(), c.message))
        << "got: " << ck_last_error() << "\nwant: " << c.message;
}

INSTANTIATE_TEST_SUITE_P(Types, InvalidLiteral, ::testing::ValuesIn(kBad),
                         ckt::name_by_content(kBad, [](const BadLiteral &c) {
                             return std::string(c.type) + " " + c.literal;
                         }));

// Literals that must come back exactly (format(parse(x)) == x) and stay fixed points.
struct RoundTrip {
    const char *type;
    const char *literal;
};

const RoundTrip kRoundTrips[] = {
    {"bool", "true"},
    {"3 * bool", "[true, false, true]"},
    {"2 * 2 * int8", "[[-128, 127], [0, -1]]"},
    {"int16", "-32768"},
    {"3 * int32", "[2147483647, -2147483648, 0]"},
    {"2 * int64", "[-9223372036854775808, 9223372036854775807]"},
    {"4 * uint8", "[0, 1, 254, 255]"},
    {"uint16", "65535"},
    {"uint32", "4294967295"},
    {"uint64", "18446744073709551615"},
    {"6 * float16", "[0.1, 65500, -6e-08, 6.104e-05, inf, nan]"},
    {"2 * 3 * float16", "[[1, 0.3333, -2], [1000, 0, -0]]"},
    {"5 * float32", "[0.1, 3.4028235e+38, 1e-45, 0.33333334, -inf]"},
    {"7 * float64",
     "[0.1, 0.30000000000000004, 1e+16, 1.7976931348623157e+308, 5e-324, -0, nan]"},
    {"3 * complex64", "[1+2j, -0.5-1000j, nan+infj]"},
    {"2 * complex128", "[1.5-2.25j, 0.1+0.2j]"},
    {"3 * var * int32", "[[1], [2, 3], []]"},
    {"var * var * complex64", "[[1+1j], [], null, [0+0j, -1-1j]]"},
    {"var * 2 * float64", "[[1, 2], [3.5, -4.25]]"},
    {"3 * pointer[var * uint8]", "[[1, 2], null, []]"},
    {"pointer[pointer[int64]]", "-5"},
    {"2 * pointer[pointer[int64]]", "[null, 7]"},
    {"var * pointer[2 * float16]", "[[1, 2], null, [0.5, 0.25]]"},
    {"var * 0 * int8", "[[], []]"},
    {"0 * var * int8", "[]"},
    {"var * int8", "null"},
    {"var * var * var * bool", "[[[true], []], [[false, false]], []]"},
    {"(int8, float64)", "(-3, 2.5)"},
    {"{x: int32, y: 3 * float64}", "{x: 1, y: [1.5, 2, 3]}"},
    {"{'a b': (), c: {d: ?int16}}", "{'a b': (), c: {d: NA}}"},
    {"4 * ?float32", "[1.5, NA, nan, -0]"},
    {"3 * ?bool", "[true, NA, false]"},
    {"2 * ?complex64", "[NA, 1+2j]"},
    {"var * {a: int32, b: ?float32}", "[{a: 1, b: NA}, {a: -2, b: 0.5}]"},
    {"2 * (int8, pointer[?uint8])", "[(1, 2), (3, NA)]"},
    {"{v: var * (bool, ?int64)}", "{v: [(true, NA), (false, -9223372036854775807)]}"},
};

class LiteralRoundTrip : public Leakless, public ::testing::WithParamInterface<RoundTrip> {};

TEST_P(LiteralRoundTrip, FormatOfParseIsTheLiteral) {
    const RoundTrip &c = GetParam();
    tt::Array a, b;
    ASSERT_EQ(parse(c.type, c.literal, a), CK_OK) << c.type << " <- " << c.literal << ": "
                                                  << ck_last_error();
    const std::string text = tt::format(a.a);
    EXPECT_EQ(text, c.literal);
    ASSERT_EQ(parse(c.type, text.c_str(), b), CK_OK) << ck_last_error();
    EXPECT_EQ(tt::format(b.a), text);
}

INSTANTIATE_TEST_SUITE_P(Types, LiteralRoundTrip, ::testing::ValuesIn(kRoundTrips),
                         ckt::name_by_content(kRoundTrips, [](const RoundTrip &c) {
                             return std::string(c.type) + " " + c.literal;
                         }));

// parse(format(a)) == a, value by value, for arrays of every scalar type filled with
// awkward bit patterns (all of them for float16).
template <class T>
void fill_and_round_trip(const char *type, const std::vector<T> &values) {
    tt::Array a, b;
    tt::Type t(type);
    ASSERT_EQ(ck_type_data_size(t), values.size() * sizeof(T)) << type;
    ASSERT_EQ(ck_array_new(t, &a.a), CK_OK);
    std::memcpy(ck_array_data(a.a), values.data(), values.size() * sizeof(T));
    const std::string text = tt::format(a.a);
    ASSERT_EQ(ck_array_parse(t, text.c_str(), &b.a), CK_OK) << ck_last_error();
    const char *pa = ck_array_data(a.a);
    const char *pb = ck_array_data(b.a);
    EXPECT_EQ(std::memcmp(pa, pb, values.size() * sizeof(T)), 0) << type;
}

TEST_F(TypesArray, EveryTypeRoundTripsValueByValue) {
    fill_and_round_trip<uint8_t>("2 * bool", {0, 1});
    fill_and_round_trip<int8_t>("4 * int8", {-128, -1, 0, 127});
    fill_and_round_trip<int16_t>("3 * int16", {-32768, 12345, 32767});
    fill_and_round_trip<int32_t>("3 * int32", {INT32_MIN, -1, INT32_MAX});
    fill_and_round_trip<int64_t>("3 * int64", {INT64_MIN, 1, INT64_MAX});
    fill_and_round_trip<uint8_t>("2 * uint8", {0, 255});
    fill_and_round_trip<uint16_t>("2 * uint16", {1, 65535});
    fill_and_round_trip<uint32_t>("2 * uint32", {7, UINT32_MAX});
    fill_and_round_trip<uint64_t>("2 * uint64", {0, UINT64_MAX});
    // Every finite and infinite float16 (NaNs are compared separately: payloads are not kept).
    std::vector<uint16_t> halves;
    for (uint32_t u = 0; u <= 0xffff; u++) {
        if ((u & 0x7c00) != 0x7c00 || (u & 0x3ff) == 0) {
            halves.push_back(static_cast<uint16_t>(u));
        }
    }
    {
        tt::Array b;
        tt::Type t("var * float16");
        // Fill the var dim by parsing a literal of the right length, then overwrite the values.
        std::string zeros = "[";
        for (size_t i = 0; i < halves.size(); i++) {
            zeros += i == 0 ? "0" : ",0";
        }
        zeros += "]";
        ASSERT_EQ(ck_array_parse(t, zeros.c_str(), &b.a), CK_OK);
        const auto row = load<ck_var_data>(ck_array_data(b.a));
        ASSERT_EQ(row.size, halves.size());
        std::memcpy(row.begin, halves.data(), halves.size() * 2);
        const std::string text = tt::format(b.a);
        tt::Array c;
        ASSERT_EQ(ck_array_parse(t, text.c_str(), &c.a), CK_OK) << ck_last_error();
        const auto row2 = load<ck_var_data>(ck_array_data(c.a));
        ASSERT_EQ(row2.size, halves.size());
        EXPECT_EQ(std::memcmp(row2.begin, halves.data(), halves.size() * 2), 0);
    }
    std::vector<float> floats = {0.1f, -0.0f, 1e-45f, 3.4028235e38f, 1.0f / 3.0f,
                                 16777215.0f, 1.17549435e-38f, -INFINITY};
    fill_and_round_trip<float>("8 * float32", floats);
    std::vector<double> doubles = {0.1, -0.0, 5e-324, 1.7976931348623157e308, 1.0 / 3.0,
                                   9007199254740993.0, 2.2250738585072014e-308, INFINITY,
                                   123456789.123456789, 1e-7};
    fill_and_round_trip<double>("10 * float64", doubles);
    fill_and_round_trip<float>("2 * complex64", {0.1f, -0.0f, 1e-45f, -3.0f});
    fill_and_round_trip<double>("2 * complex128", {0.1, -0.0, 5e-324, -INFINITY});
}

// A comma-decimal locale (installed, or compiled by tests/CMakeLists.txt; found through
// LOCPATH) for the process while a test runs; empty() when none can be had.
struct CommaLocale {
    std::string name;
    CommaLocale() {
        for (const char *n : {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"}) {
            if (std::setlocale(LC_ALL, n) != nullptr &&
                std::localeconv()->decimal_point[0] == ',') {
                name = n;
                return;
            }
        }
#ifdef CK_TEST_LOCPATH
        setenv("LOCPATH", CK_TEST_LOCPATH, 1);
        if (std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr &&
            std::localeconv()->decimal_point[0] == ',') {
            name = "de_DE.UTF-8";
            return;
        }
#endif
        std::setlocale(LC_ALL, "C");
    }
    ~CommaLocale() {
        std::setlocale(LC_ALL, "C");
        unsetenv("LOCPATH");
    }
};

TEST_F(TypesArray, LiteralsIgnoreACommaDecimalLocale) {
    CommaLocale loc;
    if (loc.name.empty()) {
        GTEST_SKIP() << "no comma-decimal locale is installed and localedef could not make one "
                        "(Debian: locales)";
    }
    char *e = nullptr;
    ASSERT_EQ(std::strtod("2.5", &e), 2.0) << loc.name << " is not in force";
    const char *lit = "[0.1, -2.5e-07, 1e+16, 100, nan, -inf, 1125899906842624.2]";
    tt::Array a;
    ASSERT_EQ(parse("7 * float64", lit, a), CK_OK) << ck_last_error();
    EXPECT_EQ(load<double>(ck_array_data(a.a)), 0.1);
    EXPECT_EQ(load<double>(ck_array_data(a.a) + 8), -2.5e-7);
    EXPECT_EQ(tt::format(a.a), lit);
    tt::Array f;
    ASSERT_EQ(parse("3 * float32", "[0.1, 3.4028235e+38, 1.5]", f), CK_OK) << ck_last_error();
    EXPECT_EQ(load<float>(ck_array_data(f.a)), 0.1f);
    EXPECT_EQ(tt::format(f.a), "[0.1, 3.4028235e+38, 1.5]");
    tt::Array c;
    ASSERT_EQ(parse("2 * complex128", "[1.5-2.25j, 0.5]", c), CK_OK) << ck_last_error();
    EXPECT_EQ(tt::format(c.a), "[1.5-2.25j, 0.5+0j]");
    tt::Array h;
    ASSERT_EQ(parse("2 * float16", "[0.1, 1.00048828125]", h), CK_OK) << ck_last_error();
    EXPECT_EQ(tt::format(h.a), "[0.1, 1]");
    tt::Array bad;
    EXPECT_EQ(parse("float64", "1,5", bad), CK_ERR_PARSE);
}

TEST_F(TypesArray, ArgumentErrors) {
    ck_array *a = nullptr;
    EXPECT_EQ(ck_array_new(nullptr, &a), CK_ERR_INVALID);
    EXPECT_EQ(ck_array_new(ck_type_scalar(CK_TYPE_INT8), nullptr), CK_ERR_INVALID);
    EXPECT_EQ(ck_array_parse(nullptr, "1", &a), CK_ERR_INVALID);
    EXPECT_EQ(ck_array_parse(ck_type_scalar(CK_TYPE_INT8), nullptr, &a), CK_ERR_INVALID);
    char *s = nullptr;
    EXPECT_EQ(ck_array_format(nullptr, &s), CK_ERR_INVALID);
    ck_array_free(nullptr);
}

TEST_F(TypesArray, AllocationFailureWhileParsingALiteral) {
    const int64_t points = ckt::for_each_alloc_failure([] {
        ck_type *t = nullptr;
        int rc = ck_type_parse("2 * var * pointer[complex64]", &t);
        if (rc != CK_OK) {
            return rc;
        }
        ck_array *a = nullptr;
        rc = ck_array_parse(t, "[[1+2j, null, 3], [4, 5, 6, 7, 8, 9, 10, 11, 12, 13]]", &a);
        ck_type_decref(t);
        if (rc != CK_OK) {
            EXPECT_EQ(a, nullptr);
            return rc;
        }
        char *s = nullptr;
        rc = ck_array_format(a, &s);
        if (rc == CK_OK) {
            EXPECT_STREQ(s, "[[1+2j, null, 3+0j], [4+0j, 5+0j, 6+0j, 7+0j, 8+0j, 9+0j, 10+0j, "
                            "11+0j, 12+0j, 13+0j]]");
        }
        ck_free(s);
        ck_array_free(a);
        return rc;
    });
    EXPECT_GE(points, 6);
}

TEST_F(TypesArray, AllocationFailureInNew) {
    ckt::for_each_alloc_failure([] {
        ck_type *t = nullptr;
        int rc = ck_type_parse("3 * pointer[2 * pointer[int8]]", &t);
        if (rc != CK_OK) {
            return rc;
        }
        ck_array *a = nullptr;
        rc = ck_array_new(t, &a);
        ck_type_decref(t);
        ck_array_free(a);
        return rc;
    });
}

// The largest array a type allows (INTPTR_MAX bytes: one element more is not a type) and the
// issue's terabyte: the allocation limit refuses them with its message; without a limit the
// allocator does, with the array's own message. Never a wrapped size or a crash.
TEST_F(TypesArray, HugeArraysAreNomemUnderTheLimitAndWithout) {
    const size_t saved = ck_get_alloc_limit();
    ck_type *bad = nullptr;
#if INTPTR_MAX > INT32_MAX
    EXPECT_EQ(ck_type_parse("4611686018427387904 * int16", &bad), CK_ERR_INVALID);  // 2^63 bytes
    tt::Type largest("4611686018427387903 * int16");                                // 2^63 - 2
    ASSERT_EQ(ck_type_data_size(largest), size_t{9223372036854775806u});
#else
    EXPECT_EQ(ck_type_parse("1073741824 * int16", &bad), CK_ERR_INVALID);  // 2^31 bytes
    tt::Type largest("1073741823 * int16");                                // 2^31 - 2
    ASSERT_EQ(ck_type_data_size(largest), size_t{2147483646u});
#endif
#if INTPTR_MAX > INT32_MAX
    tt::Type terabyte("1000000000000 * int8");
#else
    tt::Type terabyte("1500000000 * int8");  // (a 32-bit size's terabyte)
#endif
    ck_array *a = nullptr;
    ck_set_alloc_limit(size_t{1} << 30);
    for (const ck_type *t : {static_cast<const ck_type *>(largest), static_cast<const ck_type *>(terabyte)}) {
        EXPECT_EQ(ck_array_new(t, &a), CK_ERR_NOMEM);
        EXPECT_EQ(a, nullptr);
        const std::string msg = ck_last_error();
        EXPECT_EQ(msg.rfind("ckernel allocation limit: a request of ", 0), 0u) << msg;
        EXPECT_NE(msg.find(", above the limit of 1073741824 (ck_set_alloc_limit)"), std::string::npos)
            << msg;
    }
#if INTPTR_MAX > INT32_MAX
    // (a 32-bit process may well have the 2 GiB of its largest array)
    ck_set_alloc_limit(0);
    EXPECT_EQ(ck_array_new(largest, &a), CK_ERR_NOMEM);  // no allocator has 8 EiB
    EXPECT_EQ(a, nullptr);
    EXPECT_STREQ(ck_last_error(), "out of memory allocating 9223372036854775806 bytes of array data");
#endif
    ck_set_alloc_limit(saved);
}

TEST_F(TypesArray, ArenaOutlivesTheArrayWhileReferenced) {
    tt::Type t("var * int16");
    tt::Array a;
    ASSERT_EQ(ck_array_parse(t, "[1, 2, 3]", &a.a), CK_OK);
    // Keep the row's memory through a second reference to its block, as a kernel would.
    auto buf = std::vector<intptr_t>(ck_type_arrmeta_size(t) / sizeof(intptr_t));
    char *copy = reinterpret_cast<char *>(buf.data());
    ck_arrmeta_copy(t, copy, ck_array_arrmeta(a.a));
    const auto row = load<ck_var_data>(ck_array_data(a.a));
    ck_array_free(a.a);
    a.a = nullptr;
    EXPECT_EQ(load<int16_t>(row.begin + 4), 3);
    EXPECT_GT(ckt::live_allocations(), 0);
    ck_arrmeta_release(t, copy);
}

} // namespace
