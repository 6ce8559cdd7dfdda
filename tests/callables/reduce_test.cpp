// tests/callables/reduce_test.cpp: reductions through the public API (ckernel/callable.h):
// sum, prod, min, max, all, any over axis sets with keepdims, against values computed by
// hand; the result types of every scalar (NumPy 1.24's rules, as a table written here);
// identities and the refusal of zero elements without one; empty destinations of stride 0
// left untouched; explicit destinations; users' callables with and without an identity; the
// errors; the kernel's tree; float sums against an exact sum (Shewchuk's partials); the
// same bits on every CPU target; allocation failure at every point of the builders.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "ckt_array.hpp"
#include "reduce_support.hpp"

namespace {

struct Callable {
    explicit Callable(const char *name) {
        EXPECT_EQ(ck_reduction_lookup(name, &c), CK_OK) << name << ": " << ck_last_error();
    }
    ~Callable() { ck_callable_decref(c); }
    ck_callable *c = nullptr;
};

using rs::Outcome;

// name over `axes` (nullptr: all) of the literal; the result's literal and type.
Outcome reduce(const char *name, const char *type, const char *literal, const std::vector<int> *axes,
               unsigned flags = 0, const ck_eval_ctx *ctx = nullptr) {
    return rs::run(rs::Kind::reduce, name, type, literal, axes != nullptr ? *axes : std::vector<int>{99},
                   flags, nullptr, ctx);
}

struct Hand {
    const char *name, *type, *literal;
    std::vector<int> axes;  // {99}: all axes
    unsigned flags;
    const char *want, *want_type;
};

const std::vector<int> kAll = {99};

const Hand kHand[] = {
    // sums over every axis set of a 2 x 3 matrix, and keepdims
    {"sum", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", kAll, 0, "21", "int64"},
    {"sum", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", {0}, 0, "[5, 7, 9]", "3 * int64"},
    {"sum", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", {1}, 0, "[6, 15]", "2 * int64"},
    {"sum", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", {-1}, 0, "[6, 15]", "2 * int64"},
    {"sum", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", {1, 0}, 0, "21", "int64"},
    {"sum", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", {1}, CK_REDUCE_KEEPDIMS, "[[6], [15]]",
     "2 * 1 * int64"},
    {"sum", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", kAll, CK_REDUCE_KEEPDIMS, "[[21]]",
     "1 * 1 * int64"},
    {"sum", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", {}, 0, "[[1, 2, 3], [4, 5, 6]]",
     "2 * 3 * int64"},
    // 3-d: the outer and inner axes together, the middle kept
    {"sum", "2 * 2 * 3 * int8", "[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]", {0, 2}, 0,
     "[30, 48]", "2 * int64"},
    {"max", "2 * 2 * 3 * int8", "[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]", {1}, 0,
     "[[4, 5, 6], [10, 11, 12]]", "2 * 3 * int8"},
    {"min", "2 * 2 * 3 * int8", "[[[1, 2, 3], [4, 5, 6]], [[7, 8, -9], [10, 11, 12]]]", {0, 1},
     CK_REDUCE_KEEPDIMS, "[[[1, 2, -9]]]", "1 * 1 * 3 * int8"},
    // products, in int64 for narrow integers (no overflow at 120 or 2^40)
    {"prod", "2 * 3 * int8", "[[1, 2, 3], [4, 5, 6]]", {1}, 0, "[6, 120]", "2 * int64"},
    {"prod", "4 * int16", "[1024, 1024, 1024, 1024]", kAll, 0, "1099511627776", "int64"},
    {"prod", "2 * complex128", "[1+2j, 3-1j]", kAll, 0, "5+5j", "complex128"},
    // wraparound in the accumulator's type, as NumPy's
    {"sum", "2 * int64", "[9223372036854775807, 1]", kAll, 0, "-9223372036854775808", "int64"},
    {"sum", "2 * uint8", "[200, 100]", kAll, 0, "300", "uint64"},
    {"sum", "3 * bool", "[true, true, false]", kAll, 0, "2", "int64"},
    // floats keep their type
    {"sum", "5 * float16", "[0.5, 0.25, 1, 2, 3]", kAll, 0, "6.75", "float16"},
    {"sum", "2 * complex64", "[1+2j, 3-1j]", kAll, 0, "4+1j", "complex64"},
    {"sum", "3 * float32", "[0.5, -1.5, 4]", kAll, 0, "3", "float32"},
    // min and max: NaN propagates
    {"min", "3 * float64", "[3, -1, 2]", kAll, 0, "-1", "float64"},
    {"max", "3 * float64", "[3, nan, 2]", kAll, 0, "nan", "float64"},
    {"min", "3 * float64", "[inf, inf, inf]", kAll, 0, "inf", "float64"},
    {"max", "2 * int8", "[-128, -128]", kAll, 0, "-128", "int8"},
    {"min", "2 * uint64", "[18446744073709551615, 18446744073709551615]", kAll, 0,
     "18446744073709551615", "uint64"},
    {"max", "3 * bool", "[false, true, false]", kAll, 0, "true", "bool"},
    {"min", "3 * complex128", "[1+5j, 1-5j, 2-9j]", kAll, 0, "1-5j", "complex128"},
    // all and any: truth values (NaN is true), bool results
    {"all", "2 * 2 * float64", "[[1, 0.5], [0, 2]]", {1}, 0, "[true, false]", "2 * bool"},
    {"any", "2 * 2 * float64", "[[1, 0.5], [0, 2]]", {0}, 0, "[true, true]", "2 * bool"},
    {"all", "2 * float64", "[nan, -2]", kAll, 0, "true", "bool"},
    {"any", "2 * float64", "[-0.0, 0]", kAll, 0, "false", "bool"},
    {"any", "2 * complex64", "[0, 1j]", kAll, 0, "true", "bool"},
    {"all", "2 * 3 * int32", "[[1, 2, 3], [4, 0, 6]]", {}, 0,
     "[[true, true, true], [true, false, true]]", "2 * 3 * bool"},
    // zero elements: the identity
    {"sum", "0 * float64", "[]", kAll, 0, "0", "float64"},
    {"prod", "0 * int32", "[]", kAll, 0, "1", "int64"},
    {"all", "0 * int32", "[]", kAll, 0, "true", "bool"},
    {"any", "0 * int32", "[]", kAll, 0, "false", "bool"},
    {"sum", "2 * 0 * int8", "[[], []]", {1}, 0, "[0, 0]", "2 * int64"},
    {"sum", "2 * 0 * int8", "[[], []]", {0}, 0, "[]", "0 * int64"},
    // min and max of zero elements are refused (below), but an empty result of non-empty
    // reductions is no error
    {"min", "2 * 0 * int32", "[[], []]", {0}, 0, "[]", "0 * int32"},
    {"min", "0 * 3 * int32", "[]", {1}, 0, "[]", "0 * int32"},
    // a scalar: every axis is none
    {"sum", "int32", "5", kAll, 0, "5", "int64"},
    {"max", "float64", "-2.5", kAll, 0, "-2.5", "float64"},
};

TEST(Reduce, HandComputedCases) {
    for (const Hand &h : kHand) {
        const bool all = h.axes == kAll;
        const Outcome o = reduce(h.name, h.type, h.literal, all ? nullptr : &h.axes, h.flags);
        ASSERT_EQ(o.rc, CK_OK) << h.name << " of " << h.type << " " << h.literal << ": " << o.message;
        EXPECT_EQ(o.value, h.want) << h.name << " of " << h.type << " " << h.literal;
        EXPECT_EQ(o.type, h.want_type) << h.name << " of " << h.type << " " << h.literal;
    }
}

// The accumulator's type NumPy 1.24 gives each scalar: sum and prod widen bool and narrow
// integers to int64 (unsigned ones to uint64); min and max keep the type; all and any are
// bool.
TEST(Reduce, ResultTypesAreNumPys) {
    struct Row {
        const char *src, *sum, *minmax;
    } rows[] = {
        {"bool", "int64", "bool"},           {"int8", "int64", "int8"},
        {"int16", "int64", "int16"},         {"int32", "int64", "int32"},
        {"int64", "int64", "int64"},         {"uint8", "uint64", "uint8"},
        {"uint16", "uint64", "uint16"},      {"uint32", "uint64", "uint32"},
        {"uint64", "uint64", "uint64"},      {"float16", "float16", "float16"},
        {"float32", "float32", "float32"},   {"float64", "float64", "float64"},
        {"complex64", "complex64", "complex64"}, {"complex128", "complex128", "complex128"},
    };
    for (const Row &row : rows) {
        const std::string src = std::string("3 * 2 * ") + row.src;
        ckt::Type t(src.c_str());
        for (const char *name : {"sum", "prod", "min", "max", "all", "any"}) {
            Callable f(name);
            const int axis = 0;
            ck_reduce_spec r = {f.c, &axis, 1, 0};
            ck_type *rt = nullptr;
            ASSERT_EQ(ck_reduce_result_type(&r, t.get(), nullptr, &rt), CK_OK) << ck_last_error();
            char *s = nullptr;
            ASSERT_EQ(ck_type_format(rt, &s), CK_OK);
            const std::string name_s = name;
            const char *want = name_s == "sum" || name_s == "prod" ? row.sum
                               : name_s == "min" || name_s == "max" ? row.minmax
                                                                    : "bool";
            EXPECT_EQ(std::string(s), std::string("2 * ") + want) << name << " of " << row.src;
            ck_free(s);
            ck_type_decref(rt);
        }
    }
}

// As NumPy: a reduced dimension of size 0 is refused, even where the result has no element
// (0 x 0 over axis 1), and a result without elements of non-empty reductions is not.
TEST(Reduce, MinAndMaxRefuseZeroElements) {
    for (const char *name : {"min", "max"}) {
        const std::string fn = name[1] == 'i' ? "minimum" : "maximum";
        Outcome o = reduce(name, "0 * float64", "[]", nullptr);
        EXPECT_EQ(o.rc, CK_ERR_INVALID);
        EXPECT_EQ(o.message, fn + ": no elements to reduce (dimension 0 has size 0), and " + fn +
                                 " has no identity");
        const std::vector<int> ax1 = {1}, ax0 = {0};
        o = reduce(name, "2 * 0 * int32", "[[], []]", &ax1);
        EXPECT_EQ(o.rc, CK_ERR_INVALID) << o.value;
        EXPECT_NE(o.message.find("(dimension 1 has size 0)"), std::string::npos) << o.message;
        o = reduce(name, "0 * 3 * int32", "[]", &ax0);
        EXPECT_EQ(o.rc, CK_ERR_INVALID) << o.value;
        o = reduce(name, "0 * 0 * int32", "[]", &ax1);
        EXPECT_EQ(o.rc, CK_ERR_INVALID) << o.value;
        const std::vector<int> both = {0, 2};
        o = reduce(name, "2 * 3 * 0 * int32", "[[[], [], []], [[], [], []]]", &both);
        EXPECT_EQ(o.rc, CK_ERR_INVALID) << o.value;
        // sum has an identity: the same shapes are fine
        o = reduce("sum", "0 * 0 * int32", "[]", &ax1);
        EXPECT_EQ(o.rc, CK_OK) << o.message;
        EXPECT_EQ(o.value, "[]");
    }
}

// An empty dimension may have stride 0 (NumPy gives zeros((2, 0)) the strides (0, 0)) and
// its array as few bytes as the host likes: a fold of no elements into such a destination
// reads and writes none of it (AddressSanitizer sees each buffer's single byte).
TEST(Reduce, AnEmptyDestinationOfStrideZeroIsUntouched) {
    const ck_fixed_dim_arrmeta sm[2] = {{2, 0}, {0, 0}}, dm[1] = {{0, 0}};
    const int axis0 = 0;
    for (const char *el : {"int8", "int64", "float16", "float64", "complex128", "?int32"}) {
        const std::string s = std::string("2 * 0 * ") + el, d = std::string("0 * ") + el;
        ckt::Type st(s.c_str()), dt(d.c_str());
        std::vector<char> sbuf(1), dbuf(1);  // one byte each, exactly
        ck_array *src = nullptr, *dst = nullptr;
        ASSERT_EQ(ck_array_wrap(st.get(), reinterpret_cast<const char *>(sm), sbuf.data(),
                                nullptr, &src),
                  CK_OK);
        ASSERT_EQ(ck_array_wrap(dt.get(), reinterpret_cast<const char *>(dm), dbuf.data(),
                                nullptr, &dst),
                  CK_OK);
        for (const char *name : {"sum", "prod", "min", "max"}) {
            Callable f(name);
            for (unsigned flags : {0u, static_cast<unsigned>(CK_REDUCE_SKIPNA)}) {
                ck_reduce_spec r = {f.c, &axis0, 1, flags};
                EXPECT_EQ(ck_reduce(&r, dst, src, nullptr), CK_OK)
                    << name << " of " << s << ": " << ck_last_error();
                EXPECT_EQ(ck_parallel_reduce(&r, dst, src, nullptr), CK_OK)
                    << name << " of " << s << ": " << ck_last_error();
            }
        }
        ck_array_free(src);
        ck_array_free(dst);
    }
}

TEST(Reduce, AxisErrors) {
    const std::vector<int> two = {2}, minus3 = {-3}, twice = {1, -1};
    Outcome o = reduce("sum", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", &two);
    EXPECT_EQ(o.rc, CK_ERR_INVALID);
    EXPECT_EQ(o.message, "reduce: axis 2 is out of range for a source of 2 dimensions");
    o = reduce("sum", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", &minus3);
    EXPECT_EQ(o.rc, CK_ERR_INVALID);
    o = reduce("sum", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", &twice);
    EXPECT_EQ(o.rc, CK_ERR_INVALID);
    EXPECT_EQ(o.message, "reduce: axis -1 is given twice");
    o = reduce("sum", "int32", "1", &two);
    EXPECT_EQ(o.rc, CK_ERR_INVALID);
    EXPECT_EQ(o.message, "reduce: axis 2 is out of range for a source of 0 dimensions");
    Callable f("sum");
    ckt::Array a("3 * int32", "[1, 2, 3]");
    ck_reduce_spec r = {f.c, nullptr, 0, 0x10};
    ck_array *out = nullptr;
    EXPECT_EQ(ck_reduce_new(&r, a.get(), nullptr, &out), CK_ERR_INVALID);
    EXPECT_EQ(std::string(ck_last_error()), "add: unknown reduction flags 0x10");
    r.flags = 0;
    r.callable = nullptr;
    EXPECT_EQ(ck_reduce_new(&r, a.get(), nullptr, &out), CK_ERR_INVALID);
    EXPECT_EQ(ck_reduce_new(nullptr, a.get(), nullptr, &out), CK_ERR_INVALID);
    EXPECT_EQ(out, nullptr);
}

TEST(Reduce, NamesAndLookup) {
    const char *pairs[][2] = {{"sum", "add"}, {"prod", "multiply"}, {"min", "minimum"},
                              {"max", "maximum"}, {"all", "logical_and"}, {"any", "logical_or"},
                              {"add", "add"}, {"maximum", "maximum"}};
    for (const auto &p : pairs) {
        Callable f(p[0]);
        ASSERT_NE(f.c, nullptr);
        EXPECT_STREQ(ck_callable_name(f.c), p[1]);
    }
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_reduction_lookup("nosuch", &c), CK_ERR_TYPE);
    EXPECT_EQ(ck_reduction_lookup(nullptr, &c), CK_ERR_INVALID);
    // the identities of the built-ins
    for (const auto &p : std::vector<std::pair<const char *, const char *>>{
             {"add", "0"}, {"multiply", "1"}, {"logical_and", "true"}, {"logical_or", "false"}}) {
        ck_callable *b = nullptr;
        ASSERT_EQ(ck_lookup(p.first, &b), CK_OK);
        EXPECT_STREQ(ck_callable_identity(b), p.second);
        ck_callable_decref(b);
    }
    for (const char *name : {"minimum", "maximum", "subtract", "trunc_divide", "assign"}) {
        ck_callable *b = nullptr;
        ASSERT_EQ(ck_lookup(name, &b), CK_OK);
        EXPECT_EQ(ck_callable_identity(b), nullptr) << name;
        ck_callable_decref(b);
    }
    // subtract has no identity: it reduces one axis from the first element, (8 - 2) - 1
    Outcome o = reduce("subtract", "3 * int32", "[8, 2, 1]", nullptr);
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "5");
    o = reduce("subtract", "2 * 2 * int32", "[[1, 2], [3, 4]]", nullptr);  // not two axes
    EXPECT_EQ(o.rc, CK_ERR_INVALID);
    EXPECT_EQ(o.message, "subtract has no identity: its reduction starts from the first element "
                         "and runs along one axis, not 2 (set an identity with "
                         "ck_callable_set_identity, or reduce one axis at a time)");
}

// The destination's scalar type is the accumulator's (NumPy's dtype follows out=).
TEST(Reduce, ExplicitDestinations) {
    struct Case {
        const char *name, *dst, *src, *literal;
        const char *want;
        int rc;
    } cases[] = {
        {"sum", "int8", "2 * int8", "[100, 100]", "-56", CK_OK},      // wraps in int8
        {"sum", "float64", "3 * int32", "[1, 2, 3]", "6", CK_OK},     // cast, then added
        {"sum", "float32", "2 * float64", "[0.1, 0.2]", "", CK_ERR_INEXACT},  // checked cast
        {"max", "int64", "3 * int8", "[-5, 7, 1]", "7", CK_OK},
        {"all", "int32", "2 * int32", "[1, 2]", "", CK_ERR_TYPE},  // logical_and writes bool
        {"sum", "2 * int64", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", "[6, 15]", CK_OK},
        {"sum", "4 * int64", "4 * 3 * int32", "[[1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4]]",
         "[3, 6, 9, 12]", CK_OK},
    };
    for (const Case &c : cases) {
        Callable f(c.name);
        ckt::Array src(c.src, c.literal);
        ckt::Array dst(c.dst);
        const int axis = -1;
        ck_reduce_spec r = {f.c, &axis, 1, 0};
        ck_eval_ctx ctx = ckt::ctx(CK_ERRMODE_INEXACT);
        const int rc = ck_reduce(&r, dst.get(), src.get(), &ctx);
        EXPECT_EQ(rc, c.rc) << c.name << " " << c.src << " into " << c.dst << ": " << ck_last_error();
        if (rc == CK_OK) {
            EXPECT_EQ(dst.str(), c.want) << c.name << " " << c.src;
        }
    }
    // all into int32: the message names the signature
    Callable f("all");
    ckt::Array src("2 * int32", "[1, 2]"), dst("int32");
    ck_reduce_spec r = {f.c, nullptr, 0, 0};
    EXPECT_EQ(ck_reduce(&r, dst.get(), src.get(), nullptr), CK_ERR_TYPE);
    EXPECT_EQ(std::string(ck_last_error()),
              "logical_and cannot accumulate in int32: a reduction needs a signature (int32, "
              "int32) -> int32, and the one selected is (int32, int32) -> bool");
    // wrong shapes
    ckt::Array d2("3 * int64"), s2("2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]");
    Callable sum("sum");
    const int ax1 = 1;
    ck_reduce_spec r2 = {sum.c, &ax1, 1, 0};
    EXPECT_EQ(ck_reduce(&r2, d2.get(), s2.get(), nullptr), CK_ERR_BROADCAST);
    EXPECT_EQ(std::string(ck_last_error()),
              "add: cannot reduce 2 * 3 * int32 into 3 * int64: dimension 0 has size 3 in the "
              "destination and 2 in the result");
    ckt::Array d3("2 * 2 * int64");
    EXPECT_EQ(ck_reduce(&r2, d3.get(), s2.get(), nullptr), CK_ERR_BROADCAST);
    EXPECT_EQ(std::string(ck_last_error()),
              "add: cannot reduce 2 * 3 * int32 into 2 * 2 * int64: the destination has more "
              "dimensions than the result");
    ckt::Array d4("2 * 2 * int64");
    r2.flags = CK_REDUCE_KEEPDIMS;
    EXPECT_EQ(ck_reduce(&r2, d4.get(), s2.get(), nullptr), CK_ERR_BROADCAST);
    EXPECT_NE(std::string(ck_last_error()).find("(a reduced dimension kept)"), std::string::npos);
}

// A kernel writes every element of its destination: running it twice gives the same.
TEST(Reduce, AKernelRunsAgain) {
    Callable f("sum");
    ckt::Array src("3 * 4 * float64", "[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]");
    ckt::Array dst("4 * float64");
    const int axis = 0;
    ck_reduce_spec r = {f.c, &axis, 1, 0};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_reduce(&b, &off, &r, ck_array_type(dst.get()), ck_array_arrmeta(dst.get()),
                             ck_array_type(src.get()), ck_array_arrmeta(src.get()),
                             CK_REQUEST_SINGLE, nullptr),
              CK_OK);
    char *s = src.data();
    for (int k = 0; k < 3; k++) {
        ASSERT_EQ(ck_call_single(ck_builder_root(&b), dst.data(), &s), CK_OK);
        EXPECT_EQ(dst.str(), "[15, 18, 21, 24]");
    }
    ck_builder_destroy(&b);
}

// ---- users' callables ----

TEST(Reduce, AUsersCallableWithAnIdentity) {
    ck_callable *c = nullptr;
    ck_factory f = rs::gcd_factory();
    ASSERT_EQ(ck_callable_new("gcd_test", &c), CK_OK);
    ASSERT_EQ(ck_callable_add(c, "qq)q", &f), CK_OK);
    ckt::Array a("3 * 4 * int32", "[[12, 18, 24, 6], [7, -14, 0, 21], [0, 0, 0, 0]]");
    const int axis = -1;
    ck_reduce_spec r = {c, &axis, 1, 0};
    ck_array *out = nullptr;
    // no identity yet: along one axis from each row's first element; not over both axes
    ASSERT_EQ(ck_reduce_new(&r, a.get(), nullptr, &out), CK_OK) << ck_last_error();
    ck_array_free(out);
    out = nullptr;
    ck_reduce_spec both = {c, nullptr, 0, 0};
    EXPECT_EQ(ck_reduce_new(&both, a.get(), nullptr, &out), CK_ERR_INVALID);
    EXPECT_NE(std::string(ck_last_error()).find("gcd_test has no identity"), std::string::npos)
        << ck_last_error();
    EXPECT_EQ(ck_callable_set_identity(c, ""), CK_ERR_INVALID);
    EXPECT_EQ(ck_callable_set_identity(c, std::string(64, '0').c_str()), CK_ERR_INVALID);
    ASSERT_EQ(ck_callable_set_identity(c, "0"), CK_OK);
    EXPECT_EQ(ck_callable_set_identity(c, "1"), CK_ERR_INVALID);
    EXPECT_EQ(std::string(ck_last_error()), "gcd_test already has the identity '0'");
    EXPECT_STREQ(ck_callable_identity(c), "0");
    ASSERT_EQ(ck_reduce_new(&r, a.get(), nullptr, &out), CK_OK) << ck_last_error();
    char *s = nullptr;
    ASSERT_EQ(ck_array_format(out, &s), CK_OK);
    EXPECT_STREQ(s, "[6, 7, 0]");
    ck_free(s);
    ck_array_free(out);
    // over the outer axis: the in-place elementwise form of the same leaf
    const int outer = 0;
    r.axes = &outer;
    ASSERT_EQ(ck_reduce_new(&r, a.get(), nullptr, &out), CK_OK) << ck_last_error();
    ASSERT_EQ(ck_array_format(out, &s), CK_OK);
    EXPECT_STREQ(s, "[1, 2, 24, 3]");
    ck_free(s);
    ck_array_free(out);
    // the tree: the user's leaf under reduce_fold, behind the argument cast
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ckt::Type dt("4 * int64");
    char dam[sizeof(ck_fixed_dim_arrmeta)];
    ASSERT_EQ(ck_arrmeta_default_construct(dt.get(), dam, nullptr), CK_OK);
    ASSERT_EQ(ck_make_reduce(&b, &off, &r, dt.get(), dam, ck_array_type(a.get()),
                             ck_array_arrmeta(a.get()), CK_REQUEST_SINGLE, nullptr),
              CK_OK);
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &s), CK_OK);
    const std::string tree = s;
    ck_free(s);
    ck_builder_destroy(&b);
    EXPECT_TRUE(ckt::tree_has(tree, "reduce_fill @88 +40  reduce_fill_strided  int64 0\n"))
        << tree;
    EXPECT_NE(tree.find("reduce_fold @"), std::string::npos) << tree;
    EXPECT_NE(tree.find("dst = f(dst, src)"), std::string::npos) << tree;
    ck_callable_decref(c);
}

TEST(Reduce, AnIdentityThatIsNoValueOfTheAccumulator) {
    ck_callable *c = nullptr;
    ck_factory f = rs::gcd_factory();
    ASSERT_EQ(ck_callable_new("gcd_bad", &c), CK_OK);
    ASSERT_EQ(ck_callable_add(c, "qq)q", &f), CK_OK);
    ASSERT_EQ(ck_callable_set_identity(c, "0.5"), CK_OK);
    ckt::Array a("3 * int64", "[1, 2, 3]");
    ck_reduce_spec r = {c, nullptr, 0, 0};
    ck_array *out = nullptr;
    EXPECT_EQ(ck_reduce_new(&r, a.get(), nullptr, &out), CK_ERR_FRACTIONAL);
    EXPECT_EQ(std::string(ck_last_error()).rfind("gcd_bad: its identity '0.5' is not a value of int64: ", 0), 0u)
        << ck_last_error();
    ck_callable_decref(c);
}

// ---- the tree ----

std::string explain(const char *name, const char *dst, const char *src, std::vector<int> axes,
                    unsigned flags = 0) {
    return rs::tree(rs::Kind::reduce, name, src, axes, flags, dst);
}

// The target's name in leaf lines, for trees built under the best target.
std::string tgt() {
    return ck_cpu_target_name(ckt::best_compiled_target());
}

TEST(Reduce, TheTreeOfAnOuterAxis) {
    EXPECT_EQ(ckt::tree_text(explain("sum", "3 * float64", "2 * 3 * float64", {0})),
              ckt::tree_text("reduce_dim @0 +48  reduce_dim_single  size=2 src_stride=24 init, fold\n"
                             "  strided_dim @48 +40  strided_dim_strided  size=3 dst_stride=8 src_stride=0 (broadcast)\n"
                             "    reduce_fill @88 +40  reduce_fill_strided  float64 0\n"
                             "  fold_rows @128 +40  fold_rows_strided  size=3 add float64, four rows a pass [" +
                  ckt::expected_bandwidth_target(ckt::best_compiled_target()) + "]\n"
              "    leaf @168 +16  accumulate add float64 [" + tgt() + "]\n"));
}

// Over an outer axis, fold_rows takes the rows four at a time: every element's result must
// be the row-by-row fold's, computed here in the same order, whatever the number of rows
// (1..9: whole passes of four and the rest) and of columns. The values make the association
// matter (1e16 against 1, products that overflow or not), and a NaN row for min and max.
// On every runnable target: fold_rows takes the bandwidth target's rows loops (ctest runs
// this again under CKERNEL_VECTOR_WIDTH=256 and 512, Reduce.FoldRowsVectorWidth*).
static void expect_folds_in_row_order() {
    const double base[5] = {1e16, 1.0, -1e16, 3.0, 0.25};
    const double big[5] = {1e200, 1e200, 1e-200, 3.0, 0.5};
    for (const char *name : {"sum", "prod", "min", "max"}) {
        Callable c(name);
        for (int rows = 1; rows <= 9; rows++) {
            for (int cols : {1, 5, 17}) {
                const std::string t = std::to_string(rows) + " * " + std::to_string(cols) + " * float64";
                ckt::Array a(t.c_str());
                double *x = reinterpret_cast<double *>(a.data());
                const bool prod = std::strcmp(name, "prod") == 0;
                const bool minmax = name[0] == 'm';
                for (int r = 0; r < rows; r++) {
                    for (int j = 0; j < cols; j++) {
                        x[r * cols + j] = (prod ? big : base)[(r + 2 * j) % 5];
                        if (minmax && r == 5 && j % 2 == 0) x[r * cols + j] = std::nan("");
                    }
                }
                const int axis = 0;
                ck_reduce_spec spec = {c.c, &axis, 1, 0};
                ck_array *out = nullptr;
                ASSERT_EQ(ck_reduce_new(&spec, a.get(), nullptr, &out), CK_OK) << ck_last_error();
                const double *got = reinterpret_cast<const double *>(ck_array_data(out));
                for (int j = 0; j < cols; j++) {
                    double acc = prod ? 1.0 : name[0] == 's' ? 0.0 : x[j];
                    bool nan = false;
                    for (int r = 0; r < rows; r++) {
                        const double v = x[r * cols + j];
                        nan = nan || std::isnan(v);
                        acc = prod ? acc * v : name[0] == 's' ? acc + v
                              : std::strcmp(name, "min") == 0 ? (v < acc ? v : acc)
                                                              : (v > acc ? v : acc);
                    }
                    if (nan) {
                        EXPECT_TRUE(std::isnan(got[j])) << name << " " << t << " column " << j;
                    } else {
                        EXPECT_EQ(std::memcmp(&got[j], &acc, sizeof acc), 0)
                            << name << " " << t << " column " << j << ": " << got[j] << " != " << acc;
                    }
                }
                ck_array_free(out);
            }
        }
    }
}

TEST(Reduce, FoldRowsKeepsTheRowByRowOrder) {
    for (ck_cpu_target target : ckt::runnable_targets()) {
        ASSERT_EQ(ck_cpu_set_target_cap(target), CK_OK);
        SCOPED_TRACE(ck_cpu_target_name(target));
        expect_folds_in_row_order();
    }
    ck_cpu_set_target_cap(ckt::best_compiled_target());
    // float32 sums in float32, in the same order. Column 0: 2^24 + 1 rounds back to 2^24
    // (ties to even) three times, minus 2^24, plus 1; column 1: 2 - 2^24 = -16777214, then
    // three exact increments.
    const std::vector<int> axis0 = {0};
    const Outcome f = reduce("sum", "6 * 3 * float32",
                             "[[16777216, 1, 1], [1, 1, 2], [1, -16777216, 3], [1, 1, 4], "
                             "[-16777216, 1, 5], [1, 1, 6]]",
                             &axis0);
    EXPECT_EQ(f.value, "[1, -16777211, 21]") << f.message;
}

// fold_rows only where the elements are the accumulator's own, contiguous and aligned, and
// the rows come from reduced dimensions: not for a cast (int32 sums in int64), an option,
// or an inner axis.
TEST(Reduce, FoldRowsOnlyOverItsOwnContiguousRows) {
    EXPECT_NE(explain("max", "4 * int16", "3 * 4 * int16", {0}).find("fold_rows"),
              std::string::npos);
    EXPECT_NE(explain("sum", "4 * float64", "2 * 3 * 4 * float64", {0, 1}).find("fold_rows"),
              std::string::npos);
    EXPECT_EQ(explain("sum", "4 * int64", "3 * 4 * int32", {0}).find("fold_rows"), std::string::npos);
    EXPECT_EQ(explain("sum", "4 * float64", "3 * 4 * ?float64", {0}).find("fold_rows"),
              std::string::npos);
    EXPECT_EQ(explain("sum", "3 * float64", "3 * 4 * float64", {1}).find("fold_rows"),
              std::string::npos);
    EXPECT_EQ(explain("sum", "3 * float64", "2 * 3 * 4 * float64", {0, 2}).find("fold_rows"),
              std::string::npos);
}

TEST(Reduce, TheTreeOfAnInnerAxisCastsTheElements) {
    EXPECT_EQ(ckt::tree_text(explain("sum", "2 * float64", "2 * 3 * int8", {1})),
              ckt::tree_text("strided_dim @0 +40  strided_dim_single  size=2 dst_stride=8 src_stride=3\n"
                             "  reduce_dim @40 +48  reduce_dim_strided  size=3 src_stride=1 init, fold\n"
                             "    reduce_fill @88 +40  reduce_fill_strided  float64 0\n"
                             "    call_args @128 +136  call_args_strided  args=[cast] result=direct chunk=1008\n"
                             "      leaf @264 +16  accumulate add float64 [" + tgt() + "]\n"
                             "      leaf @280 +16  cast int8 -> float64 (fractional) strided [" + tgt() + "]\n"));
    // into the type that sums it (int8 into int64) the leaf converts the elements itself
    EXPECT_EQ(ckt::tree_text(explain("sum", "2 * int64", "2 * 3 * int8", {1})),
              ckt::tree_text("strided_dim @0 +40  strided_dim_single  size=2 dst_stride=8 src_stride=3\n"
                             "  reduce_dim @40 +48  reduce_dim_strided  size=3 src_stride=1 init, fold\n"
                             "    reduce_fill @88 +40  reduce_fill_strided  int64 0\n"
                             "    leaf @128 +16  accumulate add int64 from int8 [" + tgt() + "]\n"));
}

TEST(Reduce, ContiguousAxesMergeIntoOneRun) {
    // all three axes of a C-order array: one run of 24 elements
    EXPECT_EQ(ckt::tree_text(explain("max", "int32", "2 * 3 * 4 * int32", {0, 1, 2})),
              ckt::tree_text("reduce_dim @0 +48  reduce_dim_single  size=24 src_stride=4 init, fold\n"
                             "  reduce_fill @48 +40  reduce_fill_strided  int32 -2147483648\n"
                             "  leaf @88 +16  accumulate maximum int32 [" + tgt() + "]\n"));
    // the outer two, kept inner
    const std::string t = explain("min", "4 * uint8", "2 * 3 * 4 * uint8", {0, 1});
    EXPECT_TRUE(ckt::tree_starts_with(t, "reduce_dim @0 +48  reduce_dim_single  size=6 src_stride=4 init, fold")) << t;
    EXPECT_NE(t.find("reduce_fill_strided  uint8 255\n"), std::string::npos) << t;
}

// ---- accuracy of float sums ----

// The exactly rounded sum (Shewchuk's partials, as Python's math.fsum).
double exact_sum(const std::vector<double> &x) {
    std::vector<double> partials;
    for (double v : x) {
        size_t i = 0;
        for (double p : partials) {
            if (std::fabs(v) < std::fabs(p)) std::swap(v, p);
            const double hi = v + p, lo = p - (hi - v);
            if (lo != 0.0) partials[i++] = lo;
            v = hi;
        }
        partials.resize(i);
        partials.push_back(v);
    }
    double s = 0.0;
    for (double p : partials) s += p;  // the partials do not overlap: close enough for a bound
    return s;
}

double ck_sum(const std::vector<double> &x, intptr_t step = 1) {
    std::vector<double> store(x.size() * static_cast<size_t>(step));
    for (size_t i = 0; i < x.size(); i++) store[i * static_cast<size_t>(step)] = x[i];
    const std::string type = std::to_string(x.size()) + " * float64";
    ckt::Type t(type.c_str());
    ck_fixed_dim_arrmeta m = {static_cast<intptr_t>(x.size()), 8 * step};
    ck_array *a = nullptr;
    EXPECT_EQ(ck_array_wrap(t.get(), reinterpret_cast<const char *>(&m),
                            reinterpret_cast<char *>(store.data()), nullptr, &a),
              CK_OK);
    Callable f("sum");
    ck_reduce_spec r = {f.c, nullptr, 0, 0};
    ck_array *out = nullptr;
    EXPECT_EQ(ck_reduce_new(&r, a, nullptr, &out), CK_OK) << ck_last_error();
    double v = 0;
    std::memcpy(&v, ck_array_data(out), 8);
    ck_array_free(out);
    ck_array_free(a);
    return v;
}

TEST(Reduce, FloatSumsArePairwiseAccurate) {
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const double eps = std::ldexp(1.0, -53);
    for (size_t n : {size_t(1000), size_t(100000), size_t(1) << 20}) {
        std::vector<double> x(n);
        // random magnitudes and signs
        for (double &v : x) v = (u(rng) - 0.5) * std::ldexp(1.0, static_cast<int>(rng() % 60) - 30);
        double abs_sum = 0;
        for (double v : x) abs_sum += std::fabs(v);
        const double exact = exact_sum(x);
        // blocked pairwise: 8 additions per lane in a block, log2(n/128) levels of blocks, 4
        // of lanes, 1 into the accumulator
        const double levels = 8 + std::ceil(std::log2(static_cast<double>(n) / 128 + 1)) + 5;
        EXPECT_LE(std::fabs(ck_sum(x) - exact), levels * eps * abs_sum) << n;
        EXPECT_LE(std::fabs(ck_sum(x, 3) - exact), levels * eps * abs_sum) << n << " strided";
    }
    // adversarial for naive summation: one large value then many small ones, which a running
    // sum loses one by one, and a pairwise sum keeps but for the few that meet the large one
    // in its lane of the first block (7 ones, each rounded away against 2^53)
    std::vector<double> x(1 << 20, 1.0);
    x[0] = std::ldexp(1.0, 53);
    const double exact = exact_sum(x);
    double naive = 0;
    for (double v : x) naive += v;
    EXPECT_GT(std::fabs(naive - exact), 1e5);  // a running sum drops every 1
    EXPECT_LE(std::fabs(ck_sum(x) - exact), 8.0);
    // cancellation: + and - pairs of big values around small ones
    std::vector<double> y;
    for (int i = 0; i < 50000; i++) {
        y.push_back(1e10 + i);
        y.push_back(0.1);
        y.push_back(-(1e10 + i));
    }
    double ab = 0;
    for (double v : y) ab += std::fabs(v);
    EXPECT_LE(std::fabs(ck_sum(y) - exact_sum(y)), 30 * eps * ab);
}

// ---- the same bits on every CPU target ----

TEST(Reduce, TheSameBitsOnEveryTarget) {
    std::mt19937_64 rng(2);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const size_t rows = 37, cols = 1031;
    std::vector<double> x(rows * cols);
    for (double &v : x) v = u(rng) * std::ldexp(1.0, static_cast<int>(rng() % 30));
    std::vector<float> xf(x.begin(), x.end());
    struct Spec {
        const char *name, *ctype;
        std::vector<int> axes;
    } specs[] = {{"sum", "float64", {}}, {"sum", "float64", {0}}, {"sum", "float64", {1}},
                 {"prod", "float64", {1}}, {"sum", "float32", {}}, {"max", "float32", {0}},
                 {"min", "float64", {}}, {"sum", "float32", {1}}};
    const std::vector<ck_cpu_target> ts = ckt::runnable_targets();
    for (const Spec &s : specs) {
        const bool f32 = std::string(s.ctype) == "float32";
        std::vector<std::vector<unsigned char>> results;
        for (ck_cpu_target t : ts) {
            ASSERT_EQ(ck_cpu_set_target_cap(t), CK_OK);
            const std::string type = std::to_string(rows) + " * " + std::to_string(cols) + " * " + s.ctype;
            ckt::Type tp(type.c_str());
            ck_array *a = nullptr;
            ASSERT_EQ(ck_array_wrap(tp.get(), nullptr,
                                    f32 ? reinterpret_cast<char *>(xf.data()) : reinterpret_cast<char *>(x.data()),
                                    nullptr, &a),
                      CK_OK);
            Callable f(s.name);
            ck_reduce_spec r = {f.c, s.axes.empty() ? nullptr : s.axes.data(),
                                static_cast<int>(s.axes.size()), 0};
            ck_array *out = nullptr;
            ASSERT_EQ(ck_reduce_new(&r, a, nullptr, &out), CK_OK) << ck_last_error();
            const size_t bytes = ck_type_data_size(ck_array_type(out));
            results.emplace_back(ck_array_data(out), ck_array_data(out) + bytes);
            ck_array_free(out);
            ck_array_free(a);
        }
        ck_cpu_set_target_cap(ckt::best_compiled_target());
        for (size_t i = 1; i < results.size(); i++) {
            EXPECT_EQ(results[i], results[0]) << s.name << " " << s.ctype << " on "
                                              << ck_cpu_target_name(ts[i]) << " and "
                                              << ck_cpu_target_name(ts[0]);
        }
    }
}

// ---- allocation failure ----

TEST(Reduce, AllocationFailureAtEveryPoint) {
    struct Case {
        const char *name, *type, *literal;
        std::vector<int> axes;
    } cases[] = {
        {"sum", "3 * 4 * int8", "[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]", {0}},
        {"max", "3 * 4 * float64", "[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]", {1}},
        {"all", "2 * 2 * 2 * float32", "[[[1, 2], [3, 4]], [[5, 6], [7, 0]]]", {0, 2}},
        {"sum", "5 * 3 * float64", "[[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 2, 3], [4, 5, 6]]", {0}},
        // no identity: the init child casts the first row, the fold takes the rest
        {"subtract", "5 * 3 * int16", "[[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 2, 3], [4, 5, 6]]",
         {0}},
        {"arctan2", "3 * 4 * float32", "[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]", {1}},
    };
    for (const Case &c : cases) {
        EXPECT_GT(rs::alloc_failure_points(rs::Kind::reduce, c.name, c.type, c.literal, c.axes), 3)
            << c.name;
    }
    // a user's callable: its identity is parsed when the kernel is built; a kernel bigger
    // than the builder's inline bytes grows it on the heap
    ck_callable *gcd = nullptr;
    ck_factory f = rs::gcd_factory();
    ASSERT_EQ(ck_callable_new("gcd_alloc", &gcd), CK_OK);
    ASSERT_EQ(ck_callable_add(gcd, "qq)q", &f), CK_OK);
    ASSERT_EQ(ck_callable_set_identity(gcd, "0"), CK_OK);
    const int64_t points = ckt::for_each_alloc_failure([&]() {
        ck_type *t = nullptr, *dt = nullptr;
        int rc = ck_type_parse("5 * 3 * int16", &t);
        if (rc == CK_OK) rc = ck_type_parse("3 * int64", &dt);
        char sam[2 * sizeof(ck_fixed_dim_arrmeta)], dam[sizeof(ck_fixed_dim_arrmeta)];
        if (rc == CK_OK) rc = ck_arrmeta_default_construct(t, sam, nullptr);
        if (rc == CK_OK) rc = ck_arrmeta_default_construct(dt, dam, nullptr);
        const int axis = 0;
        ck_reduce_spec r = {gcd, &axis, 1, 0};
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        if (rc == CK_OK) rc = ck_make_reduce(&b, &off, &r, dt, dam, t, sam, CK_REQUEST_SINGLE, nullptr);
        char *text = nullptr;
        if (rc == CK_OK) rc = ck_kernel_describe(ck_builder_root(&b), &text);
        ck_free(text);
        ck_builder_destroy(&b);
        ck_type_decref(t);
        ck_type_decref(dt);
        return rc;
    });
    EXPECT_GT(points, 3);
    ck_callable_decref(gcd);
}

}  // namespace
