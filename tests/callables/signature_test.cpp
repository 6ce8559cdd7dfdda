// tests/callables/signature_test.cpp: leaf signatures in both spellings (one internal form,
// canonical printing, errors with columns) and the conversion kinds between the 14 scalars.
// Expected values are written out by hand; the kinds are also checked against the cast
// kernels themselves: a conversion called lossless must pass the INEXACT error mode for
// every extreme value of its source type, an unsafe one must fail it for at least one.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ckt_array.hpp"
#include "sig.hpp"

namespace {

using sig::compact_form;
using sig::datashape_form;

struct Spelling {
    const char *text, *canonical, *compact;
};

TEST(Signature, BothSpellingsParseToOneForm) {
    const Spelling cases[] = {
        {"(float64, float64) -> float64", "(float64, float64) -> float64", "dd)d"},
        {"dd)d", "(float64, float64) -> float64", "dd)d"},
        {"  ( int8 ,uint16,complex[ float32 ] )->bool  ", "(int8, uint16, complex64) -> bool",
         "bHZf)?"},
        {"bHZf)?", "(int8, uint16, complex64) -> bool", "bHZf)?"},
        {"() -> float16", "() -> float16", ")e"},
        {")e", "() -> float16", ")e"},
        {"lL)Zd", "(int64, uint64) -> complex128", "qQ)Zd"},  // C long: 64 bits on LP64
        {"?bhiqBHIQefdZfZd)i",
         "(bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, "
         "float64, complex64, complex128) -> int32",
         "?bhiqBHIQefdZfZd)i"},
        {"(complex[float64]) -> complex128", "(complex128) -> complex128", "Zd)Zd"},
    };
    for (const Spelling &c : cases) {
        SCOPED_TRACE(c.text);
        ck__signature s;
        ASSERT_EQ(ck__signature_parse(c.text, &s), CK_OK) << ck_last_error();
        EXPECT_EQ(datashape_form(s), c.canonical);
        EXPECT_EQ(compact_form(s), c.compact);
        ck__signature again;  // a fixed point, in both spellings
        ASSERT_EQ(ck__signature_parse(c.canonical, &again), CK_OK);
        EXPECT_EQ(compact_form(again), c.compact);
        ASSERT_EQ(ck__signature_parse(c.compact, &again), CK_OK);
        EXPECT_EQ(datashape_form(again), c.canonical);
    }
    ck__signature s;
    ASSERT_EQ(ck__signature_parse("(float32, int8) -> uint64", &s), CK_OK);
    EXPECT_EQ(s.nargs, 2);
    EXPECT_EQ(s.args[0], CK_TYPE_FLOAT32);
    EXPECT_EQ(s.args[1], CK_TYPE_INT8);
    EXPECT_EQ(s.ret, CK_TYPE_UINT64);
}

TEST(Signature, SixteenArgumentsAndNoMore) {
    ck__signature s;
    EXPECT_EQ(ck__signature_parse("dddddddddddddddd)d", &s), CK_OK);
    EXPECT_EQ(s.nargs, 16);
    EXPECT_EQ(ck__signature_parse("ddddddddddddddddd)d", &s), CK_ERR_PARSE);
    EXPECT_STREQ(ck_last_error(),
                 "signature 'ddddddddddddddddd)d': more than 16 arguments at column 17");
}

struct Bad {
    const char *text, *message;
};

TEST(Signature, ErrorsSayWhatAndWhichColumn) {
    const Bad cases[] = {
        {"", "signature '': expected ')' after the argument letters at column 1"},
        {"dd", "signature 'dd': expected ')' after the argument letters at column 3"},
        {"dx)d",
         "signature 'dx)d': unknown type letter 'x' (letters: ? b h i l q B H I L Q e E f d Zf Zd) "
         "at column 2"},
        {"Zq)d",
         "signature 'Zq)d': unknown type letter 'Zq' (letters: ? b h i l q B H I L Q e E f d Zf "
         "Zd) at column 1"},
        {"dd)", "signature 'dd)': expected one or two result type letters after ')' at column 4"},
        {"dd)ddd",
         "signature 'dd)ddd': unexpected text after the result types (one or two letters) at "
         "column 6"},
        {"dd)dx",
         "signature 'dd)dx': unexpected text after the result types (one or two letters) at "
         "column 5"},
        {"(float64) -> (float64)",
         "signature '(float64) -> (float64)': expected ',' and a second result type (a result "
         "tuple holds two scalars) at column 22"},
        {"(float64) -> (float64, int32, int32)",
         "signature '(float64) -> (float64, int32, int32)': expected ')' after the second result "
         "type (a result tuple holds two scalars) at column 29"},
        {"(float64) -> (float64, 3 * int32)",
         "signature '(float64) -> (float64, 3 * int32)': unknown scalar type '3' at column 24"},
        {"(N * float64) -> (float64, int32)",
         "signature '(N * float64) -> (float64, int32)': a dimension in a signature that takes "
         "scalars only at column 2"},
        {" dd)d", "signature ' dd)d': blanks before a compact signature at column 1"},
        {"(float64, flaot64) -> float64",
         "signature '(float64, flaot64) -> float64': unknown scalar type 'flaot64' at column 11"},
        {"(float64 float64) -> float64",
         "signature '(float64 float64) -> float64': expected ',' or ')' after an argument type at "
         "column 10"},
        {"(float64,) -> float64",
         "signature '(float64,) -> float64': expected a scalar type, found ')' at column 10"},
        {"(float64) float64",
         "signature '(float64) float64': expected '->' after the arguments at column 11"},
        {"(float64) ->", "signature '(float64) ->': expected a scalar type, found end of input at "
                         "column 13"},
        {"(3 * float64) -> float64",
         "signature '(3 * float64) -> float64': a dimension in a signature that takes scalars "
         "only at column 2"},
        {"(complex[float16]) -> bool",
         "signature '(complex[float16]) -> bool': complex[...] takes float32 or float64 at column "
         "10"},
        {"(int32) -> int32 extra",
         "signature '(int32) -> int32 extra': unexpected text after the result type at column 18"},
    };
    for (const Bad &c : cases) {
        SCOPED_TRACE(c.text);
        ck__signature s;
        EXPECT_EQ(ck__signature_parse(c.text, &s), CK_ERR_PARSE);
        EXPECT_STREQ(ck_last_error(), c.message);
    }
    ck__signature s;
    EXPECT_EQ(ck__signature_parse(nullptr, &s), CK_ERR_INVALID);
}

TEST(Signature, TwoResultsParseInBothFormsAndPrintAsATuple) {
    ck__signature s, c;
    ASSERT_EQ(ck__signature_parse("(float64) -> (float64, int32)", &s), CK_OK) << ck_last_error();
    ASSERT_EQ(ck__signature_parse("d)di", &c), CK_OK) << ck_last_error();
    for (const ck__signature *x : {&s, &c}) {
        EXPECT_EQ(x->nargs, 1);
        EXPECT_EQ(x->nret, 2);
        EXPECT_EQ(x->ret, CK_TYPE_FLOAT64);
        EXPECT_EQ(x->ret2, CK_TYPE_INT32);
    }
    char text[64];
    ck__signature_format(&c, text, sizeof text);
    EXPECT_STREQ(text, "(float64) -> (float64, int32)");
    ck__signature_format_compact(&s, text, sizeof text);
    EXPECT_STREQ(text, "d)di");
    ck_type *t = nullptr;
    ASSERT_EQ(ck__signature_result(&s, &t), CK_OK);
    char *shown = nullptr;
    ASSERT_EQ(ck_type_format(t, &shown), CK_OK);
    EXPECT_STREQ(shown, "(float64, int32)");
    ck_free(shown);
    struct double_int32 {
        double d;
        int32_t i;
    };
    // a C struct: the int32 after the double, padded to the double's alignment in structs
    // (16 bytes on 64-bit hosts, 12 on i386)
    EXPECT_EQ(ck_type_data_size(t), sizeof(double_int32));
    EXPECT_EQ(ck_type_field_offset(t, 1), offsetof(double_int32, i));
    ck_type_decref(t);
    ASSERT_EQ(ck__signature_parse("dd)d", &s), CK_OK);
    EXPECT_EQ(s.nret, 1);
    ck__core_sig core;
    EXPECT_EQ(ck__signature_parse_core("(N * float64) -> (float64, int32)", &s, &core),
              CK_ERR_PARSE);
    EXPECT_STREQ(ck_last_error(), "signature '(N * float64) -> (float64, int32)': two results "
                                  "take no core dimensions at column 1");
}

TEST(Signature, FormattingReportsTheLengthItNeeds) {
    ck__signature s;
    ASSERT_EQ(ck__signature_parse("dd)d", &s), CK_OK);
    char small[8];
    EXPECT_EQ(ck__signature_format(&s, small, sizeof small), 29u);  // "(float64, float64) -> float64"
    EXPECT_STREQ(small, "(float6");
    EXPECT_EQ(ck__signature_format_compact(&s, small, 0), 4u);
}

// The conversion kinds, by hand (docs/design.md §10 has the same table). Rows: from;
// columns: to; both in ck_type_id order. E exact, P promote, S safe, I inexact, U unsafe.
const char *const kKinds[CK_NUM_SCALAR_TYPES] = {
    //        ? b h i q B H I Q e g f d F D   (g bfloat16, F complex64, D complex128)
    /* ?  */ "ESSSSSSSSSSSSSS",
    /* b  */ "UEPPPUUUUSSSSSS",
    /* h  */ "UUEPPUUUUUUSSSS",
    /* i  */ "UUUEPUUUUUUUSUS",
    /* q  */ "UUUUEUUUUUUUIUI",
    /* B  */ "UUSSSEPPPSSSSSS",
    /* H  */ "UUUSSUEPPUUSSSS",
    /* I  */ "UUUUSUUEPUUUSUS",
    /* Q  */ "UUUUUUUUEUUUIUI",
    /* e  */ "UUUUUUUUUEUPPSS",
    /* g  */ "UUUUUUUUUUEPPSS",
    /* f  */ "UUUUUUUUUUUEPSS",
    /* d  */ "UUUUUUUUUUUUEUS",
    /* F  */ "UUUUUUUUUUUUUEP",
    /* D  */ "UUUUUUUUUUUUUUE",
};

ck__conversion from_letter(char c) {
    switch (c) {
    case 'E': return CK__CONV_EXACT;
    case 'P': return CK__CONV_PROMOTE;
    case 'S': return CK__CONV_SAFE;
    case 'I': return CK__CONV_INEXACT;
    default: return CK__CONV_UNSAFE;
    }
}

TEST(ConversionKinds, TheTableForEveryScalar) {
    for (int f = 0; f < CK_NUM_SCALAR_TYPES; ++f)
        for (int t = 0; t < CK_NUM_SCALAR_TYPES; ++t) {
            const auto from = static_cast<ck_type_id>(f), to = static_cast<ck_type_id>(t);
            EXPECT_EQ(ck__conversion_kind(from, to), from_letter(kKinds[f][t]))
                << ck_type_id_name(from) << " -> " << ck_type_id_name(to) << ": "
                << ck__conversion_name(ck__conversion_kind(from, to));
        }
    EXPECT_EQ(ck__conversion_kind(CK_TYPE_FIXED_DIM, CK_TYPE_INT32), CK__CONV_NONE);
    EXPECT_STREQ(ck__conversion_name(CK__CONV_SAFE), "safe");
    EXPECT_STREQ(ck__conversion_name(CK__CONV_INEXACT), "inexact");
    // Which kinds can fail in which mode (the JIT's and the composition's choice of checks).
    for (int m = CK_ERRMODE_NOCHECK; m <= CK_ERRMODE_INEXACT; ++m) {
        const auto mode = static_cast<ck_errmode>(m);
        EXPECT_EQ(ck__conversion_can_fail(CK__CONV_SAFE, mode), 0);
        EXPECT_EQ(ck__conversion_can_fail(CK__CONV_INEXACT, mode), mode == CK_ERRMODE_INEXACT);
        EXPECT_EQ(ck__conversion_can_fail(CK__CONV_UNSAFE, mode), 1);
    }
}

// Extreme and awkward values of each source type, as literals.
const std::vector<std::vector<const char *>> kValues = {
    {"false", "true"},
    {"-128", "127", "0", "-1"},
    {"-32768", "32767", "2049", "-1"},
    {"-2147483648", "2147483647", "16777217", "-1"},
    {"-9223372036854775808", "9223372036854775807", "9007199254740993", "-1"},
    {"0", "255", "1"},
    {"0", "65535", "2049"},
    {"0", "4294967295", "16777217"},
    {"0", "18446744073709551615", "9007199254740993"},
    {"65500.0", "-6e-08", "0.5", "-2.0", "nan"},
    {"3.3895314e+38", "9.184e-41", "0.1", "-0.5", "257.0"},  // 257 reads as 256, a bfloat16
    {"3.4028235e+38", "1e-45", "0.1", "-0.5", "16777216.0"},
    {"1.7976931348623157e+308", "5e-324", "0.1", "-0.5"},
    {"1+2j", "0.1-3.4028235e+38j", "1e-45+0j"},
    {"1+2j", "0.1-1.7976931348623157e+308j", "5e-324+0j"},
};

// Lossless kinds convert every extreme value in the INEXACT mode; inexact ones round one of
// them (INEXACT fails) but never leave the range (FRACTIONAL, which checks it, passes them
// all); unsafe ones fail the INEXACT mode for one of them.
TEST(ConversionKinds, WhatEachKindDoesToTheExtremeValues) {
    const ck_eval_ctx inexact = ckt::ctx(CK_ERRMODE_INEXACT);
    const ck_eval_ctx fractional = ckt::ctx(CK_ERRMODE_FRACTIONAL);
    for (int f = 0; f < CK_NUM_SCALAR_TYPES; ++f)
        for (int t = 0; t < CK_NUM_SCALAR_TYPES; ++t) {
            const auto from = static_cast<ck_type_id>(f), to = static_cast<ck_type_id>(t);
            const ck__conversion kind = ck__conversion_kind(from, to);
            int failures = 0, out_of_range = 0;
            for (const char *v : kValues[static_cast<size_t>(f)]) {
                ckt::Array src(ck_type_id_name(from), v);
                ckt::Array dst(ck_type_id_name(to));
                if (ck_assign(dst.get(), src.get(), &inexact) != CK_OK) ++failures;
                if (ck_assign(dst.get(), src.get(), &fractional) != CK_OK) ++out_of_range;
            }
            SCOPED_TRACE(std::string(ck_type_id_name(from)) + " -> " + ck_type_id_name(to));
            if (kind == CK__CONV_UNSAFE) {
                EXPECT_GT(failures, 0) << "called unsafe, but every extreme value converts exactly";
            } else if (kind == CK__CONV_INEXACT) {
                EXPECT_GT(failures, 0) << "called inexact, but every extreme value is exact";
                EXPECT_EQ(out_of_range, 0) << "called inexact, but a value is out of range";
            } else {
                EXPECT_EQ(failures, 0) << "called " << ck__conversion_name(kind);
            }
        }
}

}  // namespace
