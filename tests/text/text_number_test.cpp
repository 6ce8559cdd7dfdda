// tests/text/text_number_test.cpp: the fast path of numbers <-> text
// (src/leaves/text/text_number.c) where it hands over to the general leaf: integer text at every
// width's limits and at every length up to 40 digits (values by 128-bit arithmetic here), integers
// printed at every power of ten (std::to_string), fixed text of exactly N units and one fewer in
// every encoding (the units built by hand), NUL and non-ASCII units, the longest text the fast path
// reads, and decimals against the C library's strtod/strtof; errors in a run name their element,
// and the kernel tree shows the fast leaf over the general one.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "text_support.hpp"
#include "int128.hpp"

namespace {

class TextNumber : public txt::Leakless {};

constexpr ck_errmode NOCHECK = CK_ERRMODE_NOCHECK, FRACTIONAL = CK_ERRMODE_FRACTIONAL;

using txt::check;

// The text sources the fast path narrows: bytes, and fixed units of 1, 2 and 4 bytes.
const char *const kTextSources[] = {"string", "bytes", "fixed_string[44, 'utf32']",
                                    "fixed_string[44, 'utf16']", "fixed_string[44, 'ascii']",
                                    "fixed_string[44, 'utf8']", "fixed_bytes[44]"};

struct IntType {
    const char *name;
    int bits;
    bool is_signed;
};
const IntType kInts[] = {{"int8", 8, true},    {"int16", 16, true},   {"int32", 32, true},
                         {"int64", 64, true},  {"uint8", 8, false},   {"uint16", 16, false},
                         {"uint32", 32, false}, {"uint64", 64, false}};

// Exact integer arithmetic beyond 64 bits (GCC and Clang, every target ckernel builds on).
using ckt::i128;
using ckt::u128;

std::string to_text(i128 v) {
    if (v == 0) return "0";
    const bool neg = v < 0;
    u128 m = neg ? -static_cast<u128>(v) : static_cast<u128>(v);
    std::string s;
    for (; m != 0; m /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    return neg ? "-" + s : s;
}

// What an integer text of value v (exact; `big`: beyond 128 bits) gives in type t: the value
// printed, or OVERFLOW (checked) / the value wrapped to t's width (nocheck).
txt::Outcome expect_int(const IntType &t, i128 v, bool big, ck_errmode mode) {
    const i128 lo = t.is_signed ? -(static_cast<i128>(1) << (t.bits - 1)) : 0;
    const i128 hi = t.is_signed ? (static_cast<i128>(1) << (t.bits - 1)) - 1
                                : (static_cast<i128>(1) << t.bits) - 1;
    txt::Outcome o;
    if (!big && v >= lo && v <= hi) {
        o.text = to_text(v);
        return o;
    }
    if (mode != NOCHECK) {
        o.status = CK_ERR_OVERFLOW;
        return o;
    }
    const u128 mask = (static_cast<u128>(1) << t.bits) - 1;
    u128 w = static_cast<u128>(v) & mask;
    i128 r = static_cast<i128>(w);
    if (t.is_signed && (w >> (t.bits - 1)) != 0) r -= static_cast<i128>(1) << t.bits;
    o.text = to_text(r);
    return o;
}

void check_int_text(const IntType &t, const char *src, const std::string &text, i128 v, bool big,
                    ck_errmode mode) {
    const std::string lit = "\"" + text + "\"";
    const txt::Outcome got = txt::assign(t.name, src, lit.c_str(), mode);
    const txt::Outcome want = expect_int(t, v, big, mode);
    EXPECT_EQ(got.status, want.status) << t.name << " <- " << src << " " << lit << ": " << got.text;
    if (want.status == CK_OK && got.status == CK_OK) {
        EXPECT_EQ(got.text, want.text) << t.name << " <- " << src << " " << lit;
    } else if (got.status == CK_ERR_OVERFLOW) {
        EXPECT_TRUE(txt::contains(got.text, std::string("is out of range for ") + t.name)) << got.text;
    }
}

// Each integer type's limits and their neighbours, from every text source, checked and not.
TEST_F(TextNumber, IntegerTextAtEveryWidthsLimits) {
    for (const IntType &t : kInts) {
        const i128 lo = t.is_signed ? -(static_cast<i128>(1) << (t.bits - 1)) : 0;
        const i128 hi = t.is_signed ? (static_cast<i128>(1) << (t.bits - 1)) - 1
                                    : (static_cast<i128>(1) << t.bits) - 1;
        const i128 values[] = {lo - 1, lo, lo + 1, -1, 0, 1, hi - 1, hi, hi + 1};
        for (const char *src : kTextSources) {
            for (ck_errmode mode : {FRACTIONAL, NOCHECK}) {
                for (i128 v : values) {
                    check_int_text(t, src, to_text(v), v, false, mode);
                    if (v >= 0) check_int_text(t, src, "+" + to_text(v), v, false, mode);
                }
            }
        }
    }
}

// Integer text of 1 to 40 digits (leading zeros now and then, signs, white space) into every
// integer type: the 20-digit and longer ones are the general leaf's, exactly.
TEST_F(TextNumber, IntegerTextAtEveryLength) {
    std::mt19937_64 rng(2027);
    for (int len = 1; len <= 40; len++) {
        for (int rep = 0; rep < 12; rep++) {
            std::string digits;
            for (int k = 0; k < len; k++) {
                const bool zero = rep % 4 == 1 && k < len / 2;  // leading zeros
                digits += zero ? '0' : static_cast<char>('0' + rng() % 10);
            }
            if (rep % 6 == 2) digits = std::string(static_cast<size_t>(len) - std::min(len, 20), '0') +
                                       std::string("18446744073709551616").substr(0, std::min(len, 20));
            i128 v = 0;
            bool big = false;
            for (char c : digits) {
                big |= v > (static_cast<i128>(1) << 100);
                if (!big) v = v * 10 + (c - '0');
            }
            const bool neg = rep % 3 == 0;
            const std::string text = std::string(rep % 5 == 0 ? " \\t" : "") + (neg ? "-" : "") +
                                     digits + (rep % 7 == 0 ? "\\n" : "");  // JSON's escapes
            for (const IntType &t : kInts) {
                for (ck_errmode mode : {FRACTIONAL, NOCHECK}) {
                    if (big && mode == NOCHECK) continue;  // wraps mod 2^64: below
                    check_int_text(t, rep % 2 ? "string" : "fixed_string[44, 'utf32']", text,
                                   neg ? -v : v, big, mode);
                }
            }
        }
    }
    // Beyond 128 bits, nocheck wraps modulo 2^64 all the same: 10^64 = 2^64 * 5^64.
    const std::string e64 = "1" + std::string(64, '0');
    const std::string lit1 = "\"" + e64 + "\"", lit2 = "\"-" + e64.substr(0, 64) + "1\"";
    check({"uint64", "string", lit1.c_str(), NOCHECK, CK_OK, "0"});
    check({"int64", "fixed_string[70, 'utf16']", lit2.c_str(), NOCHECK, CK_OK, "-1"});
}

// Integers printed at every power of ten and beside it, into every text destination.
TEST_F(TextNumber, IntegersPrintAtEveryPowerOfTen) {
    std::vector<uint64_t> u = {0, 1, UINT64_MAX, UINT64_MAX - 1};
    uint64_t p = 1;
    for (int k = 1; k <= 19; k++) {
        p *= 10;
        u.push_back(p - 1);
        u.push_back(p);
        u.push_back(p + 1);
    }
    std::string ulit = "[", uwant = "[", ilit = "[", iwant = "[";
    for (size_t k = 0; k < u.size(); k++) {
        const int64_t s = static_cast<int64_t>(u[k]);  // both signs, INT64_MIN among them
        const std::string sep = k == 0 ? "" : ", ";
        ulit += sep + std::to_string(u[k]);
        uwant += sep + "\"" + std::to_string(u[k]) + "\"";
        ilit += sep + std::to_string(s);
        iwant += sep + "\"" + std::to_string(s) + "\"";
        const int64_t neg = -static_cast<int64_t>(u[k] & 0x7fffffffffffffff);
        ilit += ", " + std::to_string(neg);
        iwant += ", \"" + std::to_string(neg) + "\"";
    }
    ulit += "]", uwant += "]", ilit += "]", iwant += "]";
    const std::string un = std::to_string(u.size()), in = std::to_string(2 * u.size());
    for (const char *text : {"string", "bytes", "fixed_string[20, 'utf32']",
                             "fixed_string[20, 'utf16']", "fixed_string[20, 'ascii']",
                             "fixed_bytes[20]"}) {
        const std::string ud = un + " * " + text, us = un + " * uint64";
        check({ud.c_str(), us.c_str(), ulit.c_str(), FRACTIONAL, CK_OK, uwant.c_str()});
        const std::string id = in + " * " + text, is = in + " * int64";
        check({id.c_str(), is.c_str(), ilit.c_str(), FRACTIONAL, CK_OK, iwant.c_str()});
    }
    check({"3 * fixed_string[4, 'utf32']", "3 * int8", "[-128, 127, -1]", FRACTIONAL, CK_OK,
           "[\"-128\", \"127\", \"-1\"]"});
    check({"3 * string", "3 * uint16", "[65535, 10000, 9999]", FRACTIONAL, CK_OK,
           "[\"65535\", \"10000\", \"9999\"]"});
}

// The destination's units, built by hand: text of exactly N units has no padding; one unit
// more is an error when checked and cut in nocheck; shorter text is NUL-padded.
TEST_F(TextNumber, FixedDestinationsOfEveryUnit) {
    struct Dst {
        const char *type;
        size_t unit;
    };
    for (const Dst d : {Dst{"fixed_string[5, 'utf32']", 4}, Dst{"fixed_string[5, 'utf16']", 2},
                        Dst{"fixed_string[5, 'utf8']", 1}, Dst{"fixed_string[5, 'ascii']", 1},
                        Dst{"fixed_bytes[5]", 1}}) {
        const std::string dt = std::string("3 * ") + d.type;
        ckt::Array src("3 * float64", "[-1.25, 2.5, 12.5]");
        ckt::Array dst(dt.c_str());
        std::memset(dst.data(), 0xaa, 3 * 5 * d.unit);  // the padding must be written
        ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
        const char *texts[] = {"-1.25", "2.5", "12.5"};
        std::vector<unsigned char> want(3 * 5 * d.unit, 0);
        for (size_t e = 0; e < 3; e++) {
            for (size_t c = 0; texts[e][c] != '\0'; c++) {
                want[(e * 5 + c) * d.unit] = static_cast<unsigned char>(texts[e][c]);  // little-endian
            }
        }
        EXPECT_EQ(txt::data_bytes(dst.get()), txt::native_units(want, d.unit)) << d.type;
        ckt::Array big("float64", "-12.25");
        ckt::Array d1(d.type);
        ck_eval_ctx checked = ckt::ctx(FRACTIONAL), nocheck = ckt::ctx(NOCHECK);
        EXPECT_EQ(ck_assign(d1.get(), big.get(), &checked), CK_ERR_OVERFLOW) << d.type;
        EXPECT_TRUE(txt::contains(ck_last_error(), "the text \"-12.25\" (6 code units) does not fit"))
            << ck_last_error();
        EXPECT_EQ(txt::data_bytes(d1.get()), std::vector<unsigned char>(5 * d.unit, 0)) << d.type;
        ASSERT_EQ(ck_assign(d1.get(), big.get(), &nocheck), CK_OK) << ck_last_error();
        EXPECT_EQ(d1.str(), "\"-12.2\"") << d.type;
    }
}

// Fixed sources: the padding ends the text, a NUL inside it does not; units beyond ASCII,
// and text of 64 and 65 characters (the fast path's longest, then the general leaf's).
TEST_F(TextNumber, FixedSourcesPaddingNulAndLength) {
    for (const char *u : {"utf32", "utf16", "utf8", "ascii"}) {
        const std::string st = std::string("3 * fixed_string[4, '") + u + "']";
        check({"3 * int32", st.c_str(), "[\"1234\", \"-5\", \" 6\"]", FRACTIONAL, CK_OK,
               "[1234, -5, 6]"});
        check({"3 * float64", st.c_str(), "[\"1e-3\", \".5\", \"-0\"]", FRACTIONAL, CK_OK,
               "[0.001, 0.5, -0]"});
        const std::string one = std::string("fixed_string[4, '") + u + "']";
        check({"int32", one.c_str(), "\"1\\u00002\"", FRACTIONAL, CK_ERR_TEXT,
               "cannot read the text \"1\\u00002\" as int32"});
    }
    check({"2 * int32", "2 * fixed_string[4, 'utf32']", "[\"7\", \"\\u0667\"]", NOCHECK,
           CK_ERR_TEXT, "as int32 at element [1]"});
    check({"float64", "fixed_bytes[4]", "\"1\\xb52\"", FRACTIONAL, CK_ERR_TEXT,
           "cannot read the text"});
    // Padding alone, or white space alone: no text to read.
    check({"2 * int32", "2 * fixed_string[4, 'utf32']", "[\"7\", \"\"]", NOCHECK, CK_ERR_TEXT,
           "cannot read the text \"\" as int32 at element [1]"});
    check({"2 * float32", "2 * fixed_string[4, 'ascii']", "[\"7\", \" \\t \"]", NOCHECK,
           CK_ERR_TEXT, "cannot read the text \" \\t \" as float32 at element [1]"});
    for (size_t len : {63u, 64u, 65u, 100u}) {
        const std::string text = std::string(len - 3, ' ') + "-42";
        const std::string lit = "[\"" + text + "\", \"" + text + "\"]";
        for (const char *src : {"2 * string", "2 * fixed_string[100, 'utf32']"}) {
            check({"2 * int16", src, lit.c_str(), FRACTIONAL, CK_OK, "[-42, -42]"});
            check({"2 * float32", src, lit.c_str(), FRACTIONAL, CK_OK, "[-42, -42]"});
        }
    }
}

// Decimals of 1 to 25 significant digits and exponents across the range, against the C
// library's strtod and strtof (the "C" locale; glibc's are correctly rounded); overflow per
// mode; the words and other spellings through the general leaf.
TEST_F(TextNumber, DecimalsAgreeWithStrtod) {
    std::mt19937_64 rng(1727);
    const int n = 400;
    std::string lit = "[";
    std::vector<std::string> texts;
    for (int k = 0; k < n; k++) {
        std::string t = k % 3 == 0 ? "-" : "";
        const int nd = 1 + static_cast<int>(rng() % 25);
        const int point = static_cast<int>(rng() % (nd + 1));
        for (int j = 0; j < nd; j++) {
            if (j == point && j > 0) t += '.';
            t += static_cast<char>('0' + rng() % 10);
        }
        const int e = static_cast<int>(rng() % 640) - 330;
        if (k % 2 == 0) t += "e" + std::to_string(e);
        texts.push_back(t);
        lit += (k == 0 ? "\"" : ", \"") + t + "\"";
    }
    lit += "]";
    const std::string ns = std::to_string(n);
    for (const char *text : {"string", "fixed_string[40, 'utf32']", "fixed_bytes[40]"}) {
        const std::string st = ns + " * " + text;
        ckt::Array src(st.c_str(), lit.c_str());
        const std::string d64 = ns + " * float64", d32 = ns + " * float32";
        ckt::Array f64(d64.c_str()), f32(d32.c_str());
        ck_eval_ctx nocheck = ckt::ctx(NOCHECK);
        ASSERT_EQ(ck_assign(f64.get(), src.get(), &nocheck), CK_OK) << ck_last_error();
        ASSERT_EQ(ck_assign(f32.get(), src.get(), &nocheck), CK_OK) << ck_last_error();
        const double *g64 = reinterpret_cast<const double *>(f64.data());
        const float *g32 = reinterpret_cast<const float *>(f32.data());
        for (int k = 0; k < n; k++) {
            const double w64 = std::strtod(texts[k].c_str(), nullptr);
            const float w32 = std::strtof(texts[k].c_str(), nullptr);
            EXPECT_EQ(std::memcmp(&g64[k], &w64, 8), 0) << texts[k] << " " << text;
            EXPECT_EQ(std::memcmp(&g32[k], &w32, 4), 0) << texts[k] << " " << text;
        }
    }
    check({"3 * float64", "3 * fixed_string[8, 'utf32']", "[\"1e308\", \"1e309\", \"-1e309\"]",
           NOCHECK, CK_OK, "[1e+308, inf, -inf]"});
    check({"3 * float64", "3 * fixed_string[8, 'utf32']", "[\"1e308\", \"-1e309\", \"1\"]",
           FRACTIONAL, CK_ERR_OVERFLOW, "the text \"-1e309\" is out of range for float64 at element [1]"});
    check({"2 * float32", "2 * string", "[\"3.4028235e38\", \"3.4028236e38\"]", FRACTIONAL,
           CK_ERR_OVERFLOW, "is out of range for float32 at element [1]"});
    check({"4 * float64", "4 * fixed_string[9, 'utf16']", "[\"1\", \"-Inf\", \"nan\", \"0x10\"]",
           NOCHECK, CK_ERR_TEXT, "cannot read the text \"0x10\" as float64 at element [3]"});
    check({"3 * int32", "3 * fixed_string[9, 'utf16']", "[\"1\", \"2.5\", \"1e2\"]", NOCHECK,
           CK_OK, "[1, 2, 100]"});
}

// The leaf a number <-> text assignment builds: the fast one over the general one, which it
// calls for single elements; pairs it does not serve get the general leaf alone.
TEST_F(TextNumber, TheFastLeafHasTheGeneralLeafAsItsChild) {
    auto describe = [](const char *dt_s, const char *st_s) {
        ckt::Array d(dt_s), s(st_s);  // their arrmeta (a string's arena)
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        std::string text;
        EXPECT_EQ(ck_make_assign(&b, &off, ck_array_type(d.get()), ck_array_arrmeta(d.get()),
                                 ck_array_type(s.get()), ck_array_arrmeta(s.get()),
                                 CK_REQUEST_STRIDED, nullptr),
                  CK_OK)
            << ck_last_error();
        char *desc = nullptr;
        if (ck_kernel_describe(ck_builder_root(&b), &desc) == CK_OK) text = desc;
        ck_free(desc);
        ck_builder_destroy(&b);
        return text;
    };
    const std::string a = describe("fixed_string[21, 'utf32']", "int64");
    EXPECT_TRUE(txt::contains(a, "text_number_strided  int64 -> fixed_string, fixed units of 4 bytes"))
        << a;
    EXPECT_TRUE(txt::contains(a, "text_cast_single  int64 -> fixed_string[21, 'utf32']")) << a;
    const std::string b = describe("float16", "string");
    EXPECT_FALSE(txt::contains(b, "text_number")) << b;
    EXPECT_TRUE(txt::contains(b, "text_cast_strided  string -> float16")) << b;
    EXPECT_FALSE(txt::contains(describe("string", "fixed_string[2, 'utf8']"), "text_number"));
}

// Allocation failure at every point of the fast path's kernels (the builder's, the string
// destination's arena).
TEST_F(TextNumber, AllocationFailsCleanlyAtEveryPoint) {
    const char *const pairs[][3] = {
        {"3 * string", "3 * int64", "[1, -22, 333]"},
        {"3 * fixed_string[3, 'utf32']", "3 * int16", "[1, -22, 333]"},
        {"3 * uint8", "3 * fixed_string[4, 'utf16']", "[\"1\", \" 22\", \"+255\"]"},
        {"3 * float32", "3 * bytes", "[\"1.5\", \"2e3\", \"-7\"]"},
    };
    for (const auto &p : pairs) {
        ckt::for_each_alloc_failure([&] { return txt::assign(p[0], p[1], p[2]).status; });
    }
}

}  // namespace
