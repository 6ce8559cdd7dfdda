// tests/types/api/type_test.cpp: types and datashape strings through the public API: a table
// of valid strings with their canonical form and every query's value (worked out by hand for
// x86-64 / any LP64 target), a table of invalid strings with status and column, nesting and
// overflow limits, equality, reference counting across threads, allocation failure.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "tt.hpp"

namespace {

using Leakless = tt::TypesLeakless;
class TypesDatashape : public Leakless {};

struct Valid {
    const char *input;
    const char *canonical;
    ck_type_id id;
    size_t data_size;
    size_t alignment;
    size_t arrmeta_size;
    int ndim;
    int depth;
    intptr_t fixed_size;
    int has_blockref;
};

// What the pointer width decides (8-byte pointers and intptr_t here, 4 on 32-bit hosts),
// from the public structs: a var element (ck_var_data), a pointer, each dimension's arrmeta.
constexpr size_t kPtr = sizeof(void *), kVar = sizeof(ck_var_data);
constexpr size_t kFixedAm = sizeof(ck_fixed_dim_arrmeta), kVarAm = sizeof(ck_var_dim_arrmeta),
                 kPtrAm = sizeof(ck_pointer_arrmeta);
// 8-byte scalars align as the C ABI aligns them: 8, but 4 on i386 (as NumPy's i386 dtypes).
constexpr size_t kAlign8 = alignof(int64_t);
static_assert(alignof(double) == alignof(int64_t), "one constant serves both");

const Valid kValid[] = {
    {"bool", "bool", CK_TYPE_BOOL, 1, 1, 0, 0, 0, -1, 0},
    {"int8", "int8", CK_TYPE_INT8, 1, 1, 0, 0, 0, -1, 0},
    {"int16", "int16", CK_TYPE_INT16, 2, 2, 0, 0, 0, -1, 0},
    {"int32", "int32", CK_TYPE_INT32, 4, 4, 0, 0, 0, -1, 0},
    {"int64", "int64", CK_TYPE_INT64, 8, kAlign8, 0, 0, 0, -1, 0},
    {"uint8", "uint8", CK_TYPE_UINT8, 1, 1, 0, 0, 0, -1, 0},
    {"uint16", "uint16", CK_TYPE_UINT16, 2, 2, 0, 0, 0, -1, 0},
    {"uint32", "uint32", CK_TYPE_UINT32, 4, 4, 0, 0, 0, -1, 0},
    {"uint64", "uint64", CK_TYPE_UINT64, 8, kAlign8, 0, 0, 0, -1, 0},
    {"float16", "float16", CK_TYPE_FLOAT16, 2, 2, 0, 0, 0, -1, 0},
    {"float32", "float32", CK_TYPE_FLOAT32, 4, 4, 0, 0, 0, -1, 0},
    {"float64", "float64", CK_TYPE_FLOAT64, 8, kAlign8, 0, 0, 0, -1, 0},
    {"complex64", "complex64", CK_TYPE_COMPLEX64, 8, 4, 0, 0, 0, -1, 0},
    {"complex128", "complex128", CK_TYPE_COMPLEX128, 16, kAlign8, 0, 0, 0, -1, 0},
    {"complex[float32]", "complex64", CK_TYPE_COMPLEX64, 8, 4, 0, 0, 0, -1, 0},
    {" complex [ float64 ] ", "complex128", CK_TYPE_COMPLEX128, 16, kAlign8, 0, 0, 0, -1, 0},
    {"3 * int32", "3 * int32", CK_TYPE_FIXED_DIM, 12, 4, kFixedAm, 1, 1, 3, 0},
    {"3 * var * int32", "3 * var * int32", CK_TYPE_FIXED_DIM, 3 * kVar, kPtr, kFixedAm + kVarAm,
     2, 2, 3, 1},
    {"var * 3 * int32", "var * 3 * int32", CK_TYPE_VAR_DIM, kVar, kPtr, kVarAm + kFixedAm, 2, 2,
     -1, 1},
    {"pointer[2 * float64]", "pointer[2 * float64]", CK_TYPE_POINTER, kPtr, kPtr,
     kPtrAm + kFixedAm, 0, 2, -1, 1},
    {"10 * 10 * complex64", "10 * 10 * complex64", CK_TYPE_FIXED_DIM, 800, 4, 2 * kFixedAm, 2, 2,
     10, 0},
    {"10*10*complex[float32]", "10 * 10 * complex64", CK_TYPE_FIXED_DIM, 800, 4, 2 * kFixedAm, 2,
     2, 10, 0},
    {"0 * int64", "0 * int64", CK_TYPE_FIXED_DIM, 0, kAlign8, kFixedAm, 1, 1, 0, 0},
    {"\t2*3*  uint8\n", "2 * 3 * uint8", CK_TYPE_FIXED_DIM, 6, 1, 2 * kFixedAm, 2, 2, 2, 0},
    {"007 * int8", "7 * int8", CK_TYPE_FIXED_DIM, 7, 1, kFixedAm, 1, 1, 7, 0},
    {"pointer[pointer[int16]]", "pointer[pointer[int16]]", CK_TYPE_POINTER, kPtr, kPtr,
     2 * kPtrAm, 0, 2, -1, 1},
    {"pointer [ int16 ]", "pointer[int16]", CK_TYPE_POINTER, kPtr, kPtr, kPtrAm, 0, 1, -1, 1},
    {"2 * pointer[var * complex[float64]]", "2 * pointer[var * complex128]", CK_TYPE_FIXED_DIM,
     2 * kPtr, kPtr, kFixedAm + kPtrAm + kVarAm, 1, 3, 2, 1},
    {"var * var * var * bool", "var * var * var * bool", CK_TYPE_VAR_DIM, kVar, kPtr, 3 * kVarAm,
     3, 3, -1, 1},
    {"var * pointer[3 * var * float16]", "var * pointer[3 * var * float16]", CK_TYPE_VAR_DIM,
     kVar, kPtr, kVarAm + kPtrAm + kFixedAm + kVarAm, 1, 4, -1, 1},
    {"2 * 0 * var * int8", "2 * 0 * var * int8", CK_TYPE_FIXED_DIM, 0, kPtr,
     2 * kFixedAm + kVarAm, 3, 3, 2, 1},
    // Largest sizes that still fit intptr_t.
#if INTPTR_MAX > INT32_MAX
    {"9223372036854775807 * int8", "9223372036854775807 * int8", CK_TYPE_FIXED_DIM,
     9223372036854775807u, 1, kFixedAm, 1, 1, INTPTR_MAX, 0},
    {"1152921504606846975 * int64", "1152921504606846975 * int64", CK_TYPE_FIXED_DIM,
     9223372036854775800u, kAlign8, kFixedAm, 1, 1, 1152921504606846975, 0},
#else
    {"2147483647 * int8", "2147483647 * int8", CK_TYPE_FIXED_DIM, 2147483647u, 1, kFixedAm, 1, 1,
     INTPTR_MAX, 0},
    {"268435455 * int64", "268435455 * int64", CK_TYPE_FIXED_DIM, 2147483640u, kAlign8, kFixedAm, 1, 1,
     268435455, 0},
#endif
};

class ValidDatashape : public Leakless, public ::testing::WithParamInterface<Valid> {};

TEST_P(ValidDatashape, CanonicalFormAndQueries) {
    const Valid &v = GetParam();
    ck_type *t = nullptr;
    ASSERT_EQ(ck_type_parse(v.input, &t), CK_OK) << v.input << ": " << ck_last_error();
    EXPECT_EQ(tt::format(t), v.canonical);
    EXPECT_EQ(ck_type_get_id(t), v.id);
    EXPECT_EQ(ck_type_data_size(t), v.data_size);
    EXPECT_EQ(ck_type_data_alignment(t), v.alignment);
    EXPECT_EQ(ck_type_arrmeta_size(t), v.arrmeta_size);
    EXPECT_EQ(ck_type_ndim(t), v.ndim);
    EXPECT_EQ(ck_type_depth(t), v.depth);
    EXPECT_EQ(ck_type_fixed_size(t), v.fixed_size);
    EXPECT_EQ(ck_type_has_blockref(t), v.has_blockref);
    EXPECT_EQ(ck_type_is_scalar(t), v.id < CK_NUM_SCALAR_TYPES ? 1 : 0);
    if (v.id < CK_NUM_SCALAR_TYPES) {
        EXPECT_EQ(t, ck_type_scalar(v.id)) << "scalars are the static objects";
        EXPECT_EQ(ck_type_element(t), nullptr);
    } else {
        ASSERT_NE(ck_type_element(t), nullptr);
    }
    // The canonical string parses to an equal type that prints the same (a fixed point).
    ck_type *again = nullptr;
    ASSERT_EQ(ck_type_parse(v.canonical, &again), CK_OK) << ck_last_error();
    EXPECT_TRUE(ck_type_equal(t, again));
    EXPECT_EQ(tt::format(again), v.canonical);
    ck_type_decref(again);
    ck_type_decref(t);
}

INSTANTIATE_TEST_SUITE_P(Types, ValidDatashape, ::testing::ValuesIn(kValid),
                         ckt::name_by_content(kValid, [](const Valid &v) {
                             return std::string(v.input);
                         }));

struct Invalid {
    const char *input;
    int status;
    size_t column;
    const char *detail;
};

const Invalid kInvalid[] = {
    {"", CK_ERR_PARSE, 1, "expected a type, found end of input"},
    {"   ", CK_ERR_PARSE, 4, "expected a type, found end of input"},
    {"3 * vra * int32", CK_ERR_PARSE, 5, "unknown type 'vra'"},
    {"int", CK_ERR_PARSE, 1, "unknown type 'int'"},
    {"Int32", CK_ERR_PARSE, 1, "unknown type 'Int32'"},
    {"3 *", CK_ERR_PARSE, 4, "expected a type, found end of input"},
    {"3", CK_ERR_PARSE, 2, "expected '*' after dimension '3', found end of input"},
    {"3 int32", CK_ERR_PARSE, 3, "expected '*' after dimension '3', found 'int32'"},
    {"var", CK_ERR_PARSE, 4, "expected '*' after dimension 'var'"},
    {"var int32", CK_ERR_PARSE, 5, "expected '*' after dimension 'var', found 'int32'"},
    {"* int32", CK_ERR_PARSE, 1, "unexpected character '*'"},
    {"3 * * int32", CK_ERR_PARSE, 5, "unexpected character '*'"},
    {"pointer", CK_ERR_PARSE, 8, "expected '[' after 'pointer', found end of input"},
    {"pointer(int32)", CK_ERR_PARSE, 8, "expected '[' after 'pointer', found '('"},
    {"pointer[int32", CK_ERR_PARSE, 14, "expected ']'"},
    {"pointer[]", CK_ERR_PARSE, 9, "unexpected character ']'"},
    {"pointer[int32]]", CK_ERR_PARSE, 15, "unexpected ']' after a complete type"},
    {"int32 int32", CK_ERR_PARSE, 7, "unexpected 'int32' after a complete type"},
    {"int32 *", CK_ERR_PARSE, 7, "unexpected '*' after a complete type"},
    {"3 * int32 $", CK_ERR_PARSE, 11, "unexpected '$' after a complete type"},
    {"complex", CK_ERR_PARSE, 8, "expected '[' after 'complex'"},
    {"complex[float16]", CK_ERR_PARSE, 9, "complex[...] takes float32 or float64, found 'float16'"},
    {"complex[float32", CK_ERR_PARSE, 16, "expected ']'"},
    {"complex[]", CK_ERR_PARSE, 9, "takes float32 or float64"},
    {"-3 * int8", CK_ERR_PARSE, 1, "dimension sizes must be non-negative integers"},
    {"3.5 * int8", CK_ERR_PARSE, 2, "expected '*' after dimension '3', found '.'"},
    {"int32\x01", CK_ERR_PARSE, 6, "unexpected '?' after a complete type"},
    {"3 * \xc3\xa9", CK_ERR_PARSE, 5, "unexpected byte 0xc3"},
    {"99999999999999999999999999 * int8", CK_ERR_INVALID, 1, "is larger than"},
#if INTPTR_MAX > INT32_MAX
    {"9223372036854775807 * 16 * int64", CK_ERR_INVALID, 1, "overflow the largest data size"},
    {"9223372036854775808 * int8", CK_ERR_INVALID, 1,
     "dimension size 9223372036854775808 is larger than 9223372036854775807"},
    {"2 * 4611686018427387904 * int8", CK_ERR_INVALID, 1, "overflow the largest data size"},
    {"1152921504606846976 * int64", CK_ERR_INVALID, 1, "overflow the largest data size"},
    {"var * 4611686018427387904 * int16", CK_ERR_INVALID, 7, "overflow"},
#else
    // 32-bit sizes: shapes of 2 GiB and more (4 GiB, 8 GiB, ...) are refused, not wrapped.
    {"2147483647 * 16 * int64", CK_ERR_INVALID, 1, "overflow the largest data size"},
    {"2147483648 * int8", CK_ERR_INVALID, 1,
     "dimension size 2147483648 is larger than 2147483647"},
    {"65536 * 65536 * int8", CK_ERR_INVALID, 1, "overflow the largest data size"},
    {"2 * 1073741824 * int8", CK_ERR_INVALID, 1, "overflow the largest data size"},
    {"268435456 * int64", CK_ERR_INVALID, 1, "overflow the largest data size"},
    {"1000 * 1000 * 1000 * float64", CK_ERR_INVALID, 1, "overflow the largest data size"},
    {"var * 1073741824 * int16", CK_ERR_INVALID, 7, "overflow"},
#endif
};

class InvalidDatashape : public Leakless, public ::testing::WithParamInterface<Invalid> {};

TEST_P(InvalidDatashape, StatusColumnAndMessage) {
    const Invalid &v = GetParam();
    ck_type *t = reinterpret_cast<ck_type *>(0x1);
    EXPECT_EQ(ck_type_parse(v.input, &t), v.status) << v.input;
    EXPECT_EQ(t, nullptr) << "out is NULL on failure";
    EXPECT_EQ(ck_last_status(), v.status);
    const std::string msg = ck_last_error();
    EXPECT_TRUE(tt::contains(msg, v.detail)) << msg;
    EXPECT_TRUE(tt::contains(msg, " at column " + std::to_string(v.column)))
        << msg << " (want column " << v.column << ")";
}

INSTANTIATE_TEST_SUITE_P(Types, InvalidDatashape, ::testing::ValuesIn(kInvalid),
                         ckt::name_by_content(kInvalid, [](const Invalid &v) {
                             return std::string(v.input);
                         }));

TEST_F(TypesDatashape, ParseErrorMessageQuotesInputAndColumn) {
    ck_type *t = nullptr;
    EXPECT_EQ(ck_type_parse("3 * vra * int32", &t), CK_ERR_PARSE);
    EXPECT_STREQ(ck_last_error(), "3 * vra * int32: unknown type 'vra' at column 5");
#if INTPTR_MAX > INT32_MAX
    EXPECT_EQ(ck_type_parse("9223372036854775807 * 16 * int64", &t), CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(),
                 "9223372036854775807 * 16 * int64: 9223372036854775807 elements of 128 bytes "
                 "overflow the largest data size at column 1");
#else
    EXPECT_EQ(ck_type_parse("65536 * 65536 * int8", &t), CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(),
                 "65536 * 65536 * int8: 65536 elements of 65536 bytes overflow the largest data "
                 "size at column 1");
#endif
}

std::string repeat(const std::string &s, int n) {
    std::string r;
    for (int i = 0; i < n; i++) {
        r += s;
    }
    return r;
}

TEST_F(TypesDatashape, NestingDepthIsBounded) {
    // Exactly CK_TYPE_MAX_DEPTH levels parse ...
    const std::string deepest = repeat("var * ", CK_TYPE_MAX_DEPTH) + "int8";
    ck_type *t = nullptr;
    ASSERT_EQ(ck_type_parse(deepest.c_str(), &t), CK_OK) << ck_last_error();
    EXPECT_EQ(ck_type_depth(t), CK_TYPE_MAX_DEPTH);
    EXPECT_EQ(ck_type_ndim(t), CK_TYPE_MAX_DEPTH);
    EXPECT_EQ(ck_type_arrmeta_size(t), tt::kVarAm * CK_TYPE_MAX_DEPTH);
    EXPECT_EQ(tt::format(t), deepest);
    // ... and one more level is refused, by the parser and by the makers.
    ck_type *deeper = nullptr;
    EXPECT_EQ(ck_type_make_var_dim(t, &deeper), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_make_fixed_dim(1, t, &deeper), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_make_pointer(t, &deeper), CK_ERR_INVALID);
    EXPECT_EQ(deeper, nullptr);
    ck_type_decref(t);

    const std::string too_deep = repeat("var * ", CK_TYPE_MAX_DEPTH + 1) + "int8";
    EXPECT_EQ(ck_type_parse(too_deep.c_str(), &t), CK_ERR_INVALID);
    EXPECT_TRUE(tt::contains(ck_last_error(), "nested deeper than 64 levels at column 385"))
        << ck_last_error();
}

TEST_F(TypesDatashape, TenThousandDeepStringsAreErrorsNotStackOverflows) {
    const int n = 10000;
    ck_type *t = nullptr;
    const std::string pointers = repeat("pointer[", n) + "int8" + repeat("]", n);
    EXPECT_EQ(ck_type_parse(pointers.c_str(), &t), CK_ERR_INVALID);
    EXPECT_TRUE(tt::contains(ck_last_error(), "at column 513")) << ck_last_error();
    const std::string dims = repeat("1 * ", n) + "int8";
    EXPECT_EQ(ck_type_parse(dims.c_str(), &t), CK_ERR_INVALID);
    EXPECT_TRUE(tt::contains(ck_last_error(), "at column 257")) << ck_last_error();
    // The message of a long input shows a window around the column, not the whole input.
    EXPECT_LT(std::string(ck_last_error()).size(), 300u);
    const std::string brackets = repeat("[", n);
    EXPECT_EQ(ck_type_parse(brackets.c_str(), &t), CK_ERR_PARSE);
    EXPECT_EQ(t, nullptr);
}

TEST_F(TypesDatashape, ScalarsAreStaticAndNamed) {
    const char *names[] = {"bool",     "int8",    "int16",   "int32",     "int64",
                           "uint8",    "uint16",  "uint32",  "uint64",    "float16",
                           "bfloat16", "float32", "float64", "complex64", "complex128"};
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; id++) {
        const ck_type *s = ck_type_scalar(static_cast<ck_type_id>(id));
        ASSERT_NE(s, nullptr);
        EXPECT_EQ(ck_type_get_id(s), id);
        EXPECT_STREQ(ck_type_id_name(static_cast<ck_type_id>(id)), names[id]);
        EXPECT_EQ(tt::format(s), names[id]);
        // Reference counting on static types is a no-op (and allocates nothing).
        ck_type_incref(s);
        ck_type_decref(s);
        ck_type_decref(s);
    }
    EXPECT_EQ(ck_type_scalar(CK_TYPE_FIXED_DIM), nullptr);
    EXPECT_EQ(ck_type_scalar(CK_TYPE_POINTER), nullptr);
    EXPECT_EQ(ck_type_scalar(static_cast<ck_type_id>(31)), nullptr);
    EXPECT_STREQ(ck_type_id_name(CK_TYPE_FIXED_DIM), "fixed_dim");
    EXPECT_STREQ(ck_type_id_name(CK_TYPE_VAR_DIM), "var_dim");
    EXPECT_STREQ(ck_type_id_name(CK_TYPE_POINTER), "pointer");
    EXPECT_STREQ(ck_type_id_name(CK_TYPE_TUPLE), "tuple");
    EXPECT_STREQ(ck_type_id_name(CK_TYPE_STRUCT), "struct");
    EXPECT_STREQ(ck_type_id_name(CK_TYPE_OPTION), "option");
    EXPECT_STREQ(ck_type_id_name(CK_TYPE_STRING), "string");
    EXPECT_STREQ(ck_type_id_name(CK_TYPE_FIXED_BYTES), "fixed_bytes");
    EXPECT_STREQ(ck_type_id_name(CK_TYPE_TIMEDELTA), "timedelta64");
    EXPECT_STREQ(ck_type_id_name(static_cast<ck_type_id>(CK_TYPE_TIMEDELTA + 1)), "unknown");
    ck_type_incref(nullptr);
    ck_type_decref(nullptr);
}

TEST_F(TypesDatashape, MakersBuildTheSameTypesAsTheParser) {
    const ck_type *i32 = ck_type_scalar(CK_TYPE_INT32);
    ck_type *var = nullptr, *fixed = nullptr, *ptr = nullptr;
    ASSERT_EQ(ck_type_make_var_dim(i32, &var), CK_OK);
    ASSERT_EQ(ck_type_make_fixed_dim(3, var, &fixed), CK_OK);
    ASSERT_EQ(ck_type_make_pointer(fixed, &ptr), CK_OK);
    // The makers took their own references: dropping ours keeps the chain alive.
    ck_type_decref(var);
    ck_type_decref(fixed);
    EXPECT_EQ(tt::format(ptr), "pointer[3 * var * int32]");
    tt::Type parsed("pointer[3 * var * int32]");
    EXPECT_TRUE(ck_type_equal(ptr, parsed));
    const ck_type *e = ck_type_element(ptr);
    EXPECT_EQ(ck_type_get_id(e), CK_TYPE_FIXED_DIM);
    EXPECT_EQ(ck_type_fixed_size(e), 3);
    EXPECT_EQ(ck_type_get_id(ck_type_element(e)), CK_TYPE_VAR_DIM);
    EXPECT_EQ(ck_type_element(ck_type_element(e)), i32);
    ck_type_decref(ptr);

    ck_type *bad = reinterpret_cast<ck_type *>(0x1);
    EXPECT_EQ(ck_type_make_fixed_dim(-1, i32, &bad), CK_ERR_INVALID);
    EXPECT_EQ(bad, nullptr);
    EXPECT_EQ(ck_type_make_fixed_dim(2, nullptr, &bad), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_make_var_dim(nullptr, &bad), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_make_pointer(nullptr, &bad), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_make_fixed_dim(INTPTR_MAX / 2, i32, &bad), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_parse(nullptr, &bad), CK_ERR_INVALID);
    EXPECT_EQ(ck_type_parse("int8", nullptr), CK_ERR_INVALID);
    char *s = nullptr;
    EXPECT_EQ(ck_type_format(nullptr, &s), CK_ERR_INVALID);
}

TEST_F(TypesDatashape, Equality) {
    struct Pair {
        const char *a;
        const char *b;
        int equal;
    };
    const Pair pairs[] = {
        {"int32", "int32", 1},
        {"complex[float32]", "complex64", 1},
        {"3 * var * int32", "3*var*int32", 1},
        {"pointer[2 * float64]", "pointer[ 2 * float64 ]", 1},
        {"int32", "uint32", 0},
        {"3 * int32", "4 * int32", 0},
        {"3 * int32", "var * int32", 0},
        {"var * int32", "pointer[int32]", 0},
        {"3 * 4 * int8", "4 * 3 * int8", 0},
        {"pointer[int8]", "pointer[pointer[int8]]", 0},
        {"complex64", "complex128", 0},
    };
    for (const Pair &p : pairs) {
        tt::Type a(p.a), b(p.b);
        EXPECT_EQ(ck_type_equal(a, b), p.equal) << p.a << " vs " << p.b;
        EXPECT_EQ(ck_type_equal(b, a), p.equal) << p.b << " vs " << p.a;
    }
    EXPECT_EQ(ck_type_equal(nullptr, nullptr), 1);
    EXPECT_EQ(ck_type_equal(ck_type_scalar(CK_TYPE_INT8), nullptr), 0);
}

TEST_F(TypesDatashape, ReferenceCountsAcrossThreads) {
    ck_type *t = nullptr;
    ASSERT_EQ(ck_type_parse("3 * var * pointer[complex64]", &t), CK_OK);
    EXPECT_EQ(ckt::live_allocations(), 3);
    std::vector<std::thread> threads;
    for (int k = 0; k < 8; k++) {
        threads.emplace_back([t] {
            for (int i = 0; i < 100000; i++) {
                ck_type_incref(t);
                ck_type_incref(ck_type_element(t));
                ck_type_decref(ck_type_element(t));
                ck_type_decref(t);
            }
        });
    }
    for (auto &th : threads) {
        th.join();
    }
    EXPECT_EQ(ckt::live_allocations(), 3);
    // Dropping the outer type frees the whole chain (no one else holds the elements).
    ck_type_decref(t);
    EXPECT_EQ(ckt::live_allocations(), 0);
}

TEST_F(TypesDatashape, AllocationFailureWhileParsingANestedType) {
    const int64_t points = ckt::for_each_alloc_failure([] {
        ck_type *t = nullptr;
        int rc = ck_type_parse("2 * var * pointer[3 * complex[float32]]", &t);
        if (rc != CK_OK) {
            EXPECT_EQ(t, nullptr);
            return rc;
        }
        char *s = nullptr;
        rc = ck_type_format(t, &s);
        if (rc == CK_OK) {
            EXPECT_STREQ(s, "2 * var * pointer[3 * complex64]");
        }
        ck_free(s);
        ck_type_decref(t);
        return rc;
    });
    EXPECT_EQ(points, 5); // four levels and the formatted string
}

} // namespace
