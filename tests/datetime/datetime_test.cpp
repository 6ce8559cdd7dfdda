// tests/datetime/datetime_test.cpp: datetime64[unit] and timedelta64[unit] against hand
// tables: datashapes, literals and their stored int64 (days and seconds from Python's
// datetime module, years before 1 by hand), every pair of units (the expected text cut from
// the source's text by string operations, weeks by hand), leap years, the 1969/1970
// boundary, NaT, overflow per error mode, int64, text in every encoding with NumPy's
// accepted forms and the errors with their messages, options and struct fields, allocation
// failure at every point.
#include <cstdint>
#include <string>
#include <vector>

#include "text_support.hpp"

namespace {

class Datetime : public txt::Leakless {};

constexpr ck_errmode NOCHECK = CK_ERRMODE_NOCHECK, FRACTIONAL = CK_ERRMODE_FRACTIONAL;
const char *const kUnits[] = {"Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"};

using txt::Case;
using txt::check;

// The int64 stored for a literal.
int64_t stored(const char *type, const char *literal) {
    ckt::Array a(type, literal);
    int64_t v;
    std::memcpy(&v, ck_array_data(a.get()), sizeof v);
    return v;
}

TEST_F(Datetime, TypesParsePrintAndQuery) {
    for (int u = 0; u < CK_NUM_DATETIME_UNITS; u++) {
        for (const char *kind : {"datetime64", "timedelta64"}) {
            const std::string ds = std::string(kind) + "[" + kUnits[u] + "]";
            ck_type *t = nullptr;
            ASSERT_EQ(ck_type_parse(ds.c_str(), &t), CK_OK) << ds << ": " << ck_last_error();
            EXPECT_EQ(ck_type_datetime_unit(t), u);
            EXPECT_EQ(ck_type_data_size(t), 8u);
            EXPECT_EQ(ck_type_data_alignment(t), alignof(int64_t));
            EXPECT_EQ(ck_type_arrmeta_size(t), 0u);
            EXPECT_EQ(t, kind[0] == 'd' ? ck_type_datetime((ck_datetime_unit)u)
                                        : ck_type_timedelta((ck_datetime_unit)u));
            char *text = nullptr;
            ASSERT_EQ(ck_type_format(t, &text), CK_OK);
            EXPECT_EQ(std::string(text), ds);
            ck_free(text);
            EXPECT_STREQ(ck_datetime_unit_name((ck_datetime_unit)u), kUnits[u]);
        }
    }
    EXPECT_EQ(ck_type_datetime((ck_datetime_unit)10), nullptr);
    EXPECT_EQ(ck_type_datetime_unit(ck_type_scalar(CK_TYPE_INT64)), -1);
    EXPECT_STREQ(ck_datetime_unit_name((ck_datetime_unit)-1), "unknown");
    ck_type *t = nullptr;
    ASSERT_EQ(ck_type_parse("{a: ?datetime64['ms'], b: 2 * timedelta64[\"D\"]}", &t), CK_OK)
        << ck_last_error();
    char *text = nullptr;
    ASSERT_EQ(ck_type_format(t, &text), CK_OK);
    EXPECT_EQ(std::string(text), "{a: ?datetime64[ms], b: 2 * timedelta64[D]}");
    ck_free(text);
    ck_type_decref(t);
    const struct {
        const char *ds, *part;
    } bad[] = {
        {"datetime64", "expected '[' after 'datetime64'"},
        {"datetime64[x]", "datetime64[...] takes a unit (Y, M, W, D, h, m, s, ms, us or ns), "
                          "found 'x' at column 12"},
        {"timedelta64[S]", "found 'S'"},
        {"datetime64['s]", "found"},
        {"datetime64[s", "the unit of 'datetime64['"},
    };
    for (const auto &b : bad) {
        ck_type *u = nullptr;
        EXPECT_EQ(ck_type_parse(b.ds, &u), CK_ERR_PARSE) << b.ds;
        EXPECT_EQ(u, nullptr);
        EXPECT_TRUE(txt::contains(ck_last_error(), b.part)) << b.ds << ": " << ck_last_error();
    }
}

// Stored values: days and seconds since 1970 from Python's datetime module; 0000-01-01 and
// -0001-01-01 by hand (year 0 is a leap year of 366 days, year -1 has 365).
TEST_F(Datetime, LiteralsStoreTheCountSince1970) {
    const struct {
        const char *type, *literal;
        int64_t value;
    } cases[] = {
        {"datetime64[s]", "\"2026-11-25T20:31:42\"", 1795638702},
        {"datetime64[s]", "\"1969-12-31T23:59:59\"", -1},
        {"datetime64[s]", "\"1970-01-01T00:00:00\"", 0},
        {"datetime64[s]", "\"1600-02-29T12:00:00\"", -11670955200},
        {"datetime64[s]", "\"0001-01-01T00:00:00\"", -62135596800},
        {"datetime64[s]", "\"9999-12-31T23:59:59\"", 253402300799},
        {"datetime64[D]", "\"2000-02-29\"", 11016},
        {"datetime64[D]", "\"2026-11-25\"", 20782},
        {"datetime64[D]", "\"0000-01-01\"", -719162 - 366},
        {"datetime64[D]", "\"-0001-01-01\"", -719162 - 366 - 365},
        {"datetime64[D]", "\"-001-01-01\"", -719162 - 366 - 365},
        {"datetime64[Y]", "\"2026\"", 56},
        {"datetime64[Y]", "\"1969\"", -1},
        {"datetime64[M]", "\"1969-12\"", -1},
        {"datetime64[M]", "\"2026-11\"", 56 * 12 + 10},
        {"datetime64[W]", "\"1970-01-07\"", 0},   // weeks from Thursday 1970-01-01
        {"datetime64[W]", "\"1970-01-08\"", 1},
        {"datetime64[W]", "\"1969-12-31\"", -1},  // floored
        {"datetime64[ms]", "\"1969-12-31T23:59:59.999\"", -1},
        {"datetime64[ns]", "\"1970-01-01T00:00:00.000000001\"", 1},
        {"datetime64[ns]", "\"2262-04-11T23:47:16.854775807\"", INT64_MAX},
        {"datetime64[s]", "NaT", INT64_MIN},
        {"timedelta64[s]", "-5", -5},
        {"timedelta64[Y]", "NaT", INT64_MIN},
        {"timedelta64[ns]", "9223372036854775807", INT64_MAX},
    };
    for (const auto &c : cases) {
        EXPECT_EQ(stored(c.type, c.literal), c.value) << c.type << " " << c.literal;
    }
}

TEST_F(Datetime, LeapYearsAndDayRanges) {
    const struct {
        const char *text;
        bool ok;
    } cases[] = {
        {"2000-02-29", true},  {"1600-02-29", true},  {"2024-02-29", true},
        {"-0004-02-29", true}, {"0000-02-29", true},  {"1900-02-29", false},
        {"2100-02-29", false}, {"2026-02-29", false}, {"-0100-02-29", false},
        {"2026-04-31", false}, {"2026-12-31", true},  {"2026-01-00", false},
        {"2026-13-01", false}, {"2026-00-01", false},
    };
    for (const auto &c : cases) {
        const std::string lit = std::string("\"") + c.text + "\"";
        const txt::Outcome o = txt::assign("datetime64[D]", "string", lit.c_str());
        EXPECT_EQ(o.status, c.ok ? CK_OK : CK_ERR_TEXT) << c.text << ": " << o.text;
        if (c.ok && c.text[0] != '-') {  // a negative year prints in four places: "-004"
            EXPECT_EQ(o.text, lit);
        }
    }
}

// The text of a datetime at a unit's precision: "2026-11-25T20:31:42.123456789" cut to the
// unit (its fixed layout, from a non-negative four-digit year).
std::string cut(const std::string &full, int unit) {
    static const size_t len[] = {4, 7, 10, 10, 13, 16, 19, 23, 26, 29};
    return full.substr(0, len[unit]);
}

// A text at `from`'s precision padded out to `to`'s (the start of each finer field).
std::string pad(const std::string &text, int to) {
    const std::string zero = "0000-01-01T00:00:00.000000000";
    const std::string s = text + zero.substr(text.size());
    return cut(s, to);
}

// Every pair of units, both directions: to a coarser unit the text is cut (floored), to a
// finer one padded; weeks are Thursdays-based (below). Dates before 1970 and after.
TEST_F(Datetime, EveryPairOfUnits) {
    const char *const full[] = {"2026-11-25T20:31:42.123456789", "1969-12-31T23:59:59.999999999",
                                "1970-01-01T00:00:00.000000000", "1900-03-01T00:00:00.000000001",
                                "2262-04-11T23:47:16.854775807"};
    for (const char *f : full) {
        for (int su = 0; su < CK_NUM_DATETIME_UNITS; su++) {
            if (su == CK_UNIT_W) {
                continue;
            }
            const std::string src = cut(f, su);
            for (int du = 0; du < CK_NUM_DATETIME_UNITS; du++) {
                if (du == CK_UNIT_W) {
                    continue;
                }
                const std::string st = std::string("datetime64[") + kUnits[su] + "]";
                const std::string dt = std::string("datetime64[") + kUnits[du] + "]";
                const std::string lit = "\"" + src + "\"";
                // 2262-04-11T23:47:16.854775807 is the last nanosecond: every cut of it,
                // padded, fits.
                const std::string expect = du <= su ? cut(src, du) : pad(src, du);
                const txt::Outcome o = txt::assign(dt.c_str(), st.c_str(), lit.c_str());
                ASSERT_EQ(o.status, CK_OK) << dt << " <- " << st << " " << lit << ": " << o.text;
                EXPECT_EQ(o.text, "\"" + expect + "\"") << dt << " <- " << st << " " << lit;
            }
        }
    }
    // Weeks: 1970-01-01 (a Thursday) starts week 0; a week prints as its first day.
    const Case weeks[] = {
        {"datetime64[W]", "datetime64[D]", "\"2026-11-25\"", FRACTIONAL, CK_OK, "\"2026-11-19\""},
        {"datetime64[W]", "datetime64[D]", "\"2026-11-19\"", FRACTIONAL, CK_OK, "\"2026-11-19\""},
        {"datetime64[W]", "datetime64[s]", "\"1969-12-31T23:59:59\"", FRACTIONAL, CK_OK,
         "\"1969-12-25\""},
        {"datetime64[s]", "datetime64[W]", "\"1970-01-08\"", FRACTIONAL, CK_OK,
         "\"1970-01-08T00:00:00\""},
        {"datetime64[M]", "datetime64[W]", "\"2026-11-26\"", FRACTIONAL, CK_OK, "\"2026-11\""},
        {"datetime64[Y]", "datetime64[W]", "\"1969-12-30\"", FRACTIONAL, CK_OK, "\"1969\""},
        {"datetime64[W]", "datetime64[Y]", "\"2026\"", FRACTIONAL, CK_OK, "\"2026-01-01\""},
        {"datetime64[W]", "datetime64[M]", "\"1969-12\"", FRACTIONAL, CK_OK, "\"1969-11-27\""},
        {"datetime64[D]", "datetime64[M]", "\"-0001-03\"", FRACTIONAL, CK_OK, "\"-001-03-01\""},
        {"datetime64[M]", "datetime64[D]", "\"-0001-02-28\"", FRACTIONAL, CK_OK, "\"-001-02\""},
        {"datetime64[Y]", "datetime64[ns]", "NaT", FRACTIONAL, CK_OK, "NaT"},
        {"3 * datetime64[W]", "3 * datetime64[us]", "[NaT, \"1970-01-01T00:00:00\", NaT]",
         FRACTIONAL, CK_OK, "[NaT, \"1970-01-01\", NaT]"},
    };
    for (const auto &c : weeks) check(c);
}

// To a finer unit the product is checked in the checked modes; nocheck keeps the product
// modulo 2^64, as NumPy's astype (2^62 s in ns: 2^62 * 10^9 is 0 modulo 2^64).
TEST_F(Datetime, OverflowPerMode) {
    const Case cases[] = {
        {"datetime64[ns]", "datetime64[s]", "\"2263-01-01T00:00:00\"", FRACTIONAL, CK_ERR_OVERFLOW,
         "datetime64[s] value 2263-01-01T00:00:00 is out of range for datetime64[ns]"},
        // The first nanosecond is 1677-09-21T00:12:43.145224193 (INT64_MIN + 1 ns).
        {"datetime64[ns]", "datetime64[s]", "\"1677-09-21T00:12:44\"", FRACTIONAL, CK_OK,
         "\"1677-09-21T00:12:44.000000000\""},
        {"datetime64[ns]", "datetime64[s]", "\"1677-09-21T00:12:44\"", CK_ERRMODE_OVERFLOW,
         CK_OK, "\"1677-09-21T00:12:44.000000000\""},
        {"datetime64[ns]", "datetime64[s]", "\"1677-09-21T00:12:43\"", CK_ERRMODE_OVERFLOW,
         CK_ERR_OVERFLOW, "out of range"},
        {"datetime64[ns]", "string", "\"1677-09-21T00:12:43.145224193\"", FRACTIONAL, CK_OK,
         "\"1677-09-21T00:12:43.145224193\""},
        {"datetime64[ns]", "string", "\"1677-09-21T00:12:43.145224192\"", FRACTIONAL,
         CK_ERR_OVERFLOW, "out of range"},
        {"2 * datetime64[ns]", "2 * datetime64[Y]", "[\"2026\", \"2300\"]", FRACTIONAL,
         CK_ERR_OVERFLOW, "datetime64[Y] value 2300 is out of range for datetime64[ns] at element [1]"},
        {"timedelta64[M]", "timedelta64[Y]", "768614336404564651", FRACTIONAL, CK_ERR_OVERFLOW,
         "timedelta64[Y] value 768614336404564651 is out of range for timedelta64[M]"},
        {"timedelta64[M]", "timedelta64[Y]", "768614336404564650", FRACTIONAL, CK_OK,
         "9223372036854775800"},
        {"datetime64[ns]", "string", "\"2262-04-11T23:47:16.854775808\"", FRACTIONAL,
         CK_ERR_OVERFLOW, "the text \"2262-04-11T23:47:16.854775808\" is out of range for "
                          "datetime64[ns]"},
        {"datetime64[ns]", "string", "\"2262-04-11T23:47:16.854775808\"", NOCHECK,
         CK_ERR_OVERFLOW, "out of range"},
    };
    for (const auto &c : cases) check(c);
    ckt::Array s("timedelta64[s]", "4611686018427387904");  // 2^62
    ckt::Array d("timedelta64[ns]");
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = NOCHECK;
    ASSERT_EQ(ck_assign(d.get(), s.get(), &ctx), CK_OK) << ck_last_error();
    int64_t v;
    std::memcpy(&v, ck_array_data(d.get()), sizeof v);
    EXPECT_EQ(v, 0);
    ctx.errmode = FRACTIONAL;
    EXPECT_EQ(ck_assign(d.get(), s.get(), &ctx), CK_ERR_OVERFLOW);
    // A year beyond any day: the calendar refuses it in every checked mode.
    ckt::Array y("int64", "9223372036854775807"), yd("datetime64[Y]"), dd("datetime64[D]");
    ASSERT_EQ(ck_assign(yd.get(), y.get(), nullptr), CK_OK);
    EXPECT_EQ(ck_assign(dd.get(), yd.get(), nullptr), CK_ERR_OVERFLOW);
}

TEST_F(Datetime, Timedeltas) {
    const Case cases[] = {
        {"3 * timedelta64[s]", "3 * timedelta64[ms]", "[-1500, 1500, NaT]", FRACTIONAL, CK_OK,
         "[-2, 1, NaT]"},
        {"timedelta64[ns]", "timedelta64[W]", "2", FRACTIONAL, CK_OK, "1209600000000000"},
        {"timedelta64[W]", "timedelta64[D]", "-1", FRACTIONAL, CK_OK, "-1"},
        {"timedelta64[M]", "timedelta64[Y]", "-3", FRACTIONAL, CK_OK, "-36"},
        {"timedelta64[Y]", "timedelta64[M]", "-13", FRACTIONAL, CK_OK, "-2"},
        {"timedelta64[D]", "timedelta64[Y]", "1", FRACTIONAL, CK_ERR_TYPE,
         "cannot cast timedelta64[Y] to timedelta64[D]: years and months have no fixed length"},
        {"timedelta64[M]", "timedelta64[W]", "1", FRACTIONAL, CK_ERR_TYPE, "no fixed length"},
        {"timedelta64[s]", "datetime64[s]", "\"2026\"", FRACTIONAL, CK_ERR_TYPE,
         "cannot cast datetime64[s] to timedelta64[s]"},
        {"datetime64[s]", "float64", "1.5", FRACTIONAL, CK_ERR_TYPE,
         "cannot cast float64 to datetime64[s]"},
        {"int32", "timedelta64[s]", "1", FRACTIONAL, CK_ERR_TYPE, "to and from int64"},
        {"timedelta64[s]", "timedelta64[s]", "-9223372036854775807", FRACTIONAL, CK_OK,
         "-9223372036854775807"},
        {"timedelta64[s]", "timedelta64[s]", "-9223372036854775808", FRACTIONAL, CK_ERR_OVERFLOW,
         "NaT's (the int64 minimum)"},
        {"timedelta64[s]", "timedelta64[s]", "\"5\"", FRACTIONAL, CK_ERR_PARSE, ""},
    };
    for (const auto &c : cases) check(c);
}

// datetime64 and timedelta64 <-> int64: the count as it is (NumPy's astype), NaT included.
TEST_F(Datetime, Int64IsTheCount) {
    const Case cases[] = {
        {"int64", "datetime64[s]", "\"1969-12-31T23:59:59\"", FRACTIONAL, CK_OK, "-1"},
        {"2 * int64", "2 * timedelta64[ms]", "[7, NaT]", FRACTIONAL, CK_OK,
         "[7, -9223372036854775808]"},
        {"datetime64[D]", "int64", "11016", FRACTIONAL, CK_OK, "\"2000-02-29\""},
        {"datetime64[D]", "int64", "-9223372036854775808", FRACTIONAL, CK_OK, "NaT"},
        {"timedelta64[h]", "int64", "-3", NOCHECK, CK_OK, "-3"},
    };
    for (const auto &c : cases) check(c);
}

// Text into datetimes: NumPy's forms (date only, 'T' or a space, any fraction digits, a 'Z',
// a sign and any number of year digits, NaT in any case, empty text as NaT); errors say what
// is wrong, show the text and name the element.
TEST_F(Datetime, TextIn) {
    const Case cases[] = {
        {"datetime64[s]", "string", "\"2026-11-25T20:31:42\"", FRACTIONAL, CK_OK,
         "\"2026-11-25T20:31:42\""},
        {"datetime64[s]", "string", "\"2026-11-25 20:31\"", FRACTIONAL, CK_OK,
         "\"2026-11-25T20:31:00\""},
        {"datetime64[s]", "string", "\"2026-11-25T20:31:42.9Z\"", FRACTIONAL, CK_OK,
         "\"2026-11-25T20:31:42\""},
        {"datetime64[ms]", "string", "\"2026-11-25T20Z\"", FRACTIONAL, CK_OK,
         "\"2026-11-25T20:00:00.000\""},
        {"datetime64[ms]", "string", "\"2026-11-25T20:31:42.\"", FRACTIONAL, CK_OK,
         "\"2026-11-25T20:31:42.000\""},
        {"datetime64[ns]", "string", "\"1969-12-31T23:59:59.12345678919\"", FRACTIONAL, CK_OK,
         "\"1969-12-31T23:59:59.123456789\""},
        {"datetime64[D]", "string", "\"2026\"", FRACTIONAL, CK_OK, "\"2026-01-01\""},
        {"datetime64[D]", "string", "\"+02026-11\"", FRACTIONAL, CK_OK, "\"2026-11-01\""},
        {"datetime64[Y]", "string", "\"20261125\"", FRACTIONAL, CK_OK, "\"20261125\""},
        {"datetime64[D]", "string", "\"10000-01-01\"", FRACTIONAL, CK_OK, "\"10000-01-01\""},
        {"3 * datetime64[D]", "3 * string", "[\"NaT\", \"nat\", \"\"]", FRACTIONAL, CK_OK,
         "[NaT, NaT, NaT]"},
        {"datetime64[D]", "fixed_string[12, 'utf32']", "\"-0001-12-31\"", FRACTIONAL, CK_OK,
         "\"-001-12-31\""},
        {"datetime64[D]", "fixed_string[12, 'utf16']", "\"2026-11-25\"", FRACTIONAL, CK_OK,
         "\"2026-11-25\""},
        {"datetime64[D]", "fixed_bytes[12]", "\"2026-11-25\"", FRACTIONAL, CK_OK,
         "\"2026-11-25\""},
        {"datetime64[D]", "fixed_string[10, 'ascii']", "\"2026-11-25\"", FRACTIONAL, CK_OK,
         "\"2026-11-25\""},
        {"timedelta64[s]", "string", "\"-42\"", FRACTIONAL, CK_OK, "-42"},
        {"2 * timedelta64[s]", "2 * string", "[\"NaT\", \"+7\"]", FRACTIONAL, CK_OK, "[NaT, 7]"},
        {"2 * datetime64[s]", "2 * string", "[\"2026-11-25\", \"2026-1-1\"]", FRACTIONAL,
         CK_ERR_TEXT,
         "cannot read the text \"2026-1-1\" as datetime64[s]: the year is followed by '-' and a "
         "two-digit month at element [1]"},
        {"datetime64[s]", "string", "\"2026-11-25T24:00\"", FRACTIONAL, CK_ERR_TEXT,
         "the hour is out of range (00 to 23)"},
        {"datetime64[s]", "string", "\"2026-11-25T23:60\"", FRACTIONAL, CK_ERR_TEXT,
         "the minutes are out of range"},
        {"datetime64[s]", "string", "\"2026-11-25T23:59:60\"", FRACTIONAL, CK_ERR_TEXT,
         "no leap seconds"},
        {"datetime64[s]", "string", "\"2026-11-25t20\"", FRACTIONAL, CK_ERR_TEXT,
         "followed by 'T' (or a space)"},
        {"datetime64[s]", "string", "\"2026-11-25T20:31:42+01\"", FRACTIONAL, CK_ERR_TEXT,
         "no other offsets"},
        {"datetime64[s]", "string", "\"2026-11-25 \"", FRACTIONAL, CK_ERR_TEXT,
         "two-digit hour"},
        {"datetime64[s]", "string", "\" 2026\"", FRACTIONAL, CK_ERR_TEXT, "starts with its year"},
        {"datetime64[s]", "string", "\"2026-11Z\"", FRACTIONAL, CK_ERR_TEXT,
         "two-digit day"},
        {"datetime64[s]", "string", "\"today\"", FRACTIONAL, CK_ERR_TEXT, "starts with its year"},
        {"datetime64[s]", "string", "\"2026-11-25\\u00e9\"", FRACTIONAL, CK_ERR_TEXT,
         "a character beyond ASCII"},
        {"datetime64[s]", "string",
         "\"2026-11-25T20:31:42.0000000000000000000000000000000000000000000000\"", FRACTIONAL,
         CK_ERR_TEXT, "longer than any"},
        {"datetime64[s]", "string", "\"99999999999999999999-01-01\"", FRACTIONAL,
         CK_ERR_OVERFLOW, "is out of range for datetime64[s]"},
        {"timedelta64[s]", "string", "\"5 seconds\"", FRACTIONAL, CK_ERR_TEXT,
         "a timedelta is an integer count of its unit or NaT"},
        {"timedelta64[s]", "string", "\"-9223372036854775808\"", FRACTIONAL, CK_ERR_OVERFLOW,
         "out of range"},
    };
    for (const auto &c : cases) check(c);
}

// Datetimes into text of every kind, and back: NumPy's str() forms.
TEST_F(Datetime, TextOutAndRoundTrips) {
    const Case cases[] = {
        {"string", "datetime64[s]", "\"2026-11-25T20:31:42\"", FRACTIONAL, CK_OK,
         "\"2026-11-25T20:31:42\""},
        {"fixed_string[29, 'utf32']", "datetime64[ns]", "\"1969-12-31T23:59:59.999999999\"",
         FRACTIONAL, CK_OK, "\"1969-12-31T23:59:59.999999999\""},
        {"fixed_bytes[4]", "datetime64[Y]", "\"2026\"", FRACTIONAL, CK_OK, "\"2026\""},
        {"fixed_string[10, 'utf16']", "datetime64[D]", "\"-0221-09-04\"", FRACTIONAL, CK_OK,
         "\"-221-09-04\""},
        {"2 * string", "2 * timedelta64[us]", "[-5, NaT]", FRACTIONAL, CK_OK, "[\"-5\", \"NaT\"]"},
        {"string", "datetime64[h]", "NaT", FRACTIONAL, CK_OK, "\"NaT\""},
        {"fixed_string[9, 'ascii']", "datetime64[s]", "\"2026-11-25T20:31:42\"", FRACTIONAL,
         CK_ERR_OVERFLOW, "does not fit fixed_string[9, 'ascii']"},
    };
    for (const auto &c : cases) check(c);
    for (int u = 0; u < CK_NUM_DATETIME_UNITS; u++) {
        const std::string t = std::string("5 * datetime64[") + kUnits[u] + "]";
        const char *lit = u == CK_UNIT_W
                              ? "[\"1970-01-01\", \"1969-12-25\", NaT, \"2262-04-10\", \"-001-01-07\"]"
                              : nullptr;
        std::string full = "[\"" + cut("2026-11-25T20:31:42.123456789", u) + "\", \"" +
                           cut("1969-12-31T23:59:59.999999999", u) + "\", NaT, \"" +
                           cut("2262-04-11T23:47:16.854775807", u) + "\", \"" +
                           cut("1900-01-01T00:00:00.000000000", u) + "\"]";
        ckt::Array a(t.c_str(), lit != nullptr ? lit : full.c_str());
        ckt::Array s("5 * string"), back(t.c_str());
        ASSERT_EQ(ck_assign(s.get(), a.get(), nullptr), CK_OK) << ck_last_error();
        ASSERT_EQ(ck_assign(back.get(), s.get(), nullptr), CK_OK) << ck_last_error();
        EXPECT_EQ(txt::data_bytes(back.get()), txt::data_bytes(a.get())) << t;
    }
}

// ?datetime64: NA is NaT, either spelling; into a plain datetime NA is refused.
TEST_F(Datetime, OptionsAndStructFields) {
    const Case cases[] = {
        {"3 * ?datetime64[s]", "3 * datetime64[ms]", "[\"2026-11-25T20:31:42.5\", NaT, \"1970\"]",
         FRACTIONAL, CK_OK, "[\"2026-11-25T20:31:42\", NA, \"1970-01-01T00:00:00\"]"},
        {"2 * ?datetime64[D]", "2 * ?datetime64[D]", "[NA, \"2000-02-29\"]", FRACTIONAL, CK_OK,
         "[NA, \"2000-02-29\"]"},
        {"2 * ?timedelta64[s]", "2 * ?timedelta64[ms]", "[NaT, 2500]", FRACTIONAL, CK_OK,
         "[NA, 2]"},
        {"datetime64[D]", "?datetime64[D]", "NA", FRACTIONAL, CK_ERR_NA, ""},
        {"{a: datetime64[D], b: string}", "{b: datetime64[M], a: string}",
         "{a: \"2026-11-25T20:31\", b: \"2020-02\"}", FRACTIONAL, CK_OK,
         "{a: \"2026-11-25\", b: \"2020-02\"}"},
        {"2 * {t: datetime64[s], d: timedelta64[s]}", "{t: datetime64[m], d: timedelta64[m]}",
         "{t: \"1969-12-31T23:59\", d: -1}", FRACTIONAL, CK_OK,
         "[{t: \"1969-12-31T23:59:00\", d: -60}, {t: \"1969-12-31T23:59:00\", d: -60}]"},
    };
    for (const auto &c : cases) check(c);
}

TEST_F(Datetime, LiteralErrors) {
    const struct {
        const char *type, *literal, *part;
        int status;
    } bad[] = {
        {"datetime64[s]", "2026", "expected a quoted ISO 8601 text", CK_ERR_PARSE},
        {"datetime64[s]", "\"2026-02-30\"", "this text is not a datetime64[s]: the day is out of "
                                            "range", CK_ERR_TEXT},
        {"datetime64[ns]", "\"2300\"", "this text is out of range for datetime64[ns]",
         CK_ERR_OVERFLOW},
        {"datetime64[s]", "\"2026", "not closed", CK_ERR_PARSE},
        {"datetime64[s]", "NA", "", CK_ERR_PARSE},
        {"timedelta64[s]", "1.5", "", CK_ERR_FRACTIONAL},
    };
    for (const auto &b : bad) {
        ck_type *t = nullptr;
        ASSERT_EQ(ck_type_parse(b.type, &t), CK_OK);
        ck_array *a = nullptr;
        const int rc = ck_array_parse(t, b.literal, &a);
        EXPECT_NE(rc, CK_OK) << b.literal;
        if (b.part[0] != '\0') {
            EXPECT_EQ(rc, b.status) << b.literal << ": " << ck_last_error();
        }
        EXPECT_TRUE(txt::contains(ck_last_error(), b.part)) << b.literal << ": " << ck_last_error();
        EXPECT_EQ(a, nullptr);
        ck_type_decref(t);
    }
}

TEST_F(Datetime, AllocationFailsCleanlyAtEveryPoint) {
    const char *const pairs[][3] = {
        {"2 * string", "2 * datetime64[ms]", "[\"2026-11-25T20:31:42.5\", NaT]"},
        {"2 * datetime64[s]", "2 * string", "[\"2026-11-25T20:31:42\", \"\"]"},
        // the fixed kinds: the datetime_text leaf over its text cast child
        {"2 * fixed_string[24, 'utf16']", "2 * datetime64[ms]", "[\"2026-11-25T20:31:42.5\", NaT]"},
        {"2 * datetime64[s]", "2 * fixed_bytes[20]", "[\"2026-11-25T20:31:42\", \"NaT\"]"},
        {"2 * ?datetime64[s]", "2 * datetime64[ns]", "[\"2026-11-25T20:31:42\", NaT]"},
        {"{a: datetime64[D], b: timedelta64[s]}", "{b: timedelta64[m], a: string}",
         "{b: 3, a: \"2000-02-29\"}"},
    };
    for (const auto &p : pairs) {
        ckt::for_each_alloc_failure([&] { return txt::assign(p[0], p[1], p[2]).status; });
    }
}

// ---- add and subtract ----

struct Call {
    const char *name, *a_type, *a, *b_type, *b;
    int status;
    const char *expect;  // the result's type and literal ("timedelta64[s]: 5"), or a message part
};  // b_type NULL: a call of one argument, a

txt::Outcome call(const Call &c, ck_errmode mode = FRACTIONAL) {
    txt::Outcome o;
    ck_callable *f = nullptr;
    ck_type *at = nullptr, *bt = nullptr;
    ck_array *a = nullptr, *b = nullptr, *r = nullptr;
    char *out = nullptr, *rt = nullptr;
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = mode;
    int rc = ck_lookup(c.name, &f);
    if (rc == CK_OK) rc = ck_type_parse(c.a_type, &at);
    if (rc == CK_OK && c.b_type != nullptr) rc = ck_type_parse(c.b_type, &bt);
    if (rc == CK_OK) rc = ck_array_parse(at, c.a, &a);
    if (rc == CK_OK && c.b_type != nullptr) rc = ck_array_parse(bt, c.b, &b);
    if (rc == CK_OK) {
        const ck_array *args[2] = {a, b};
        rc = ck_call_new(f, c.b_type != nullptr ? 2 : 1, args, &ctx, &r);
    }
    if (rc == CK_OK) rc = ck_type_format(ck_array_type(r), &rt);
    if (rc == CK_OK) rc = ck_array_format(r, &out);
    o.status = rc;
    o.text = rc == CK_OK ? std::string(rt) + ": " + out : std::string(ck_last_error());
    ck_free(out);
    ck_free(rt);
    ck_array_free(a);
    ck_array_free(b);
    ck_array_free(r);
    ck_type_decref(at);
    ck_type_decref(bt);
    ck_callable_decref(f);
    return o;
}

// The call gives c.status and, when it succeeds, c.expect (else a part of the message).
void check_call(const Call &c) {
    const txt::Outcome o = call(c);
    EXPECT_EQ(o.status, c.status) << c.name << "(" << c.a << ", " << c.b << "): " << o.text;
    if (c.status == CK_OK) {
        EXPECT_EQ(o.text, c.expect) << c.name << "(" << c.a << ", " << c.b << ")";
    } else {
        EXPECT_TRUE(txt::contains(o.text, c.expect)) << c.name << ": " << o.text;
    }
}

// NumPy's rules, values by hand: 2026-11-25T20:31:42 - 2026-11-20 is 5 days and 73902 s.
TEST_F(Datetime, AddAndSubtract) {
    const Call cases[] = {
        {"subtract", "datetime64[s]", "\"2026-11-25T20:31:42\"", "datetime64[D]", "\"2026-11-20\"",
         CK_OK, "timedelta64[s]: 505902"},
        {"subtract", "datetime64[D]", "\"2000-03-01\"", "datetime64[D]", "\"2000-02-28\"", CK_OK,
         "timedelta64[D]: 2"},
        {"subtract", "datetime64[D]", "\"1900-03-01\"", "datetime64[D]", "\"1900-02-28\"", CK_OK,
         "timedelta64[D]: 1"},
        {"subtract", "datetime64[s]", "\"2026-01-01T00:00:00\"", "datetime64[M]", "\"2025-01\"",
         CK_OK, "timedelta64[s]: 31536000"},
        {"subtract", "datetime64[Y]", "\"2026\"", "datetime64[M]", "\"1970-03\"", CK_OK,
         "timedelta64[M]: 670"},
        {"subtract", "2 * datetime64[ms]", "[\"1970-01-01T00:00:00.001\", NaT]", "datetime64[s]",
         "\"1969-12-31T23:59:59\"", CK_OK, "2 * timedelta64[ms]: [1001, NaT]"},
        {"add", "datetime64[D]", "\"2026-11-25\"", "timedelta64[h]", "5", CK_OK,
         "datetime64[h]: \"2026-11-25T05\""},
        {"add", "timedelta64[W]", "-1", "datetime64[D]", "\"1970-01-01\"", CK_OK,
         "datetime64[D]: \"1969-12-25\""},
        {"subtract", "datetime64[M]", "\"2026-01\"", "timedelta64[Y]", "1", CK_OK,
         "datetime64[M]: \"2025-01\""},
        {"add", "timedelta64[s]", "1", "timedelta64[ms]", "-1500", CK_OK, "timedelta64[ms]: -500"},
        {"subtract", "timedelta64[Y]", "1", "timedelta64[M]", "1", CK_OK, "timedelta64[M]: 11"},
        {"add", "3 * ?timedelta64[s]", "[NA, 1, NaT]", "timedelta64[ms]", "5", CK_OK,
         "3 * ?timedelta64[ms]: [NA, 1005, NA]"},
        {"add", "datetime64[D]", "\"2026-01-01\"", "timedelta64[M]", "1", CK_ERR_TYPE,
         "add: datetime64[D] and timedelta64[M]: a timedelta in years or months does not "
         "convert to D"},
        {"add", "datetime64[D]", "\"2026-01-01\"", "datetime64[D]", "\"2026-01-01\"", CK_ERR_TYPE,
         "add: datetime64[D] + datetime64[D] is not defined"},
        {"subtract", "timedelta64[D]", "1", "datetime64[D]", "\"2026-01-01\"", CK_ERR_TYPE,
         "subtract: timedelta64[D] - datetime64[D] is not defined"},
        {"add", "datetime64[D]", "\"2026-01-01\"", "int64", "1", CK_ERR_TYPE,
         "a datetime64 or timedelta64 meets only another"},
        {"multiply", "timedelta64[D]", "1", "timedelta64[D]", "1", CK_ERR_TYPE,
         "multiply: takes no datetime64 or timedelta64 arguments"},
        {"subtract", "datetime64[ns]", "\"2262-04-11T23:47:16\"", "datetime64[ns]",
         "\"1677-09-22\"", CK_ERR_OVERFLOW,
         "subtract: 2262-04-11T23:47:16.000000000 - 1677-09-22T00:00:00.000000000 is out of "
         "range for timedelta64[ns]"},
        {"add", "datetime64[s]", "\"2263-01-01T00:00:00\"", "timedelta64[ns]", "0",
         CK_ERR_OVERFLOW, "is out of range for datetime64[ns]"},
    };
    for (const auto &c : cases) {
        check_call(c);
    }
    // nocheck wraps (computed modulo 2^64) where the checked modes refuse.
    const Call wrap = {"add", "timedelta64[s]", "9223372036854775807", "timedelta64[s]", "2",
                       CK_OK, "timedelta64[s]: -9223372036854775807"};
    EXPECT_EQ(call(wrap, NOCHECK).text, wrap.expect);
    EXPECT_EQ(call(wrap, FRACTIONAL).status, CK_ERR_OVERFLOW);
}

// isnat: whether each time is NaT (NumPy's), in every unit; only of times.
TEST_F(Datetime, IsnatSaysWhichAreNaT) {
    const Call cases[] = {
        {"isnat", "3 * datetime64[s]", "[\"2026-01-01T00:00:00\", NaT, \"1969-12-31T23:59:59\"]",
         nullptr, nullptr, CK_OK, "3 * bool: [false, true, false]"},
        {"isnat", "2 * timedelta64[Y]", "[NaT, -1]", nullptr, nullptr, CK_OK,
         "2 * bool: [true, false]"},
        {"isnat", "2 * 1 * datetime64[ns]", "[[NaT], [\"2262-04-11T23:47:16\"]]", nullptr,
         nullptr, CK_OK, "2 * 1 * bool: [[true], [false]]"},
        {"isnat", "datetime64[W]", "NaT", nullptr, nullptr, CK_OK, "bool: true"},
        {"isnat", "2 * ?timedelta64[ms]", "[NA, 3]", nullptr, nullptr, CK_OK,
         "2 * ?bool: [NA, false]"},  // NaT's bits are the option's NA: NA stays NA
        {"isnat", "float64", "1.5", nullptr, nullptr, CK_ERR_TYPE, "isnat: no signature"},
        {"isnat", "datetime64[s]", "NaT", "datetime64[s]", "NaT", CK_ERR_TYPE,
         "isnat takes one argument, not 2"},
    };
    for (const auto &c : cases) {
        check_call(c);
    }
    const Call c = cases[0];
    ckt::for_each_alloc_failure([&] { return call(c).status; });
}

TEST_F(Datetime, AddAllocationFailsCleanly) {
    const Call c = {"subtract", "2 * ?datetime64[ms]", "[\"2026-11-25T20:31:42.5\", NA]",
                    "datetime64[s]", "\"1970-01-01T00:00:00\"", CK_OK, ""};
    ckt::for_each_alloc_failure([&] { return call(c).status; });
}

// ---- comparisons ----

// One comparison of a against b, each call's result as printed ("bool: true").
struct Cmp {
    const char *a_type, *a, *b_type, *b;
    const char *expect;  // equal, not_equal, less, less_equal, greater, greater_equal
};

const char *const kCompareOps[] = {"equal",   "not_equal", "less",
                                   "less_equal", "greater", "greater_equal"};

// Values by hand. Exact where NumPy is not: a year against weeks (NumPy floors 1971 to week
// 52, 1970-12-31, and calls them equal), and a coarse value the finer unit cannot hold
// (NumPy wraps 2263 in ns).
TEST_F(Datetime, ComparisonsAreExactAcrossUnits) {
    // Each row: the six results in kCompareOps' order, t(rue) or f(alse).
    const Cmp cases[] = {
        {"datetime64[s]", "\"2026-11-25T20:31:42\"", "datetime64[D]", "\"2026-11-25\"", "ftfftt"},
        {"datetime64[D]", "\"2026-11-25\"", "datetime64[s]", "\"2026-11-25T00:00:00\"", "tfftft"},
        {"datetime64[ms]", "\"1969-12-31T23:59:59.999\"", "datetime64[s]", "\"1970-01-01T00:00:00\"",
         "ftttff"},
        {"datetime64[Y]", "\"1971\"", "datetime64[W]", "\"1970-12-31\"", "ftfftt"},
        {"datetime64[Y]", "\"1970\"", "datetime64[W]", "\"1970-01-01\"", "tfftft"},
        {"datetime64[W]", "\"2026-11-01\"", "datetime64[M]", "\"2026-11\"", "ftttff"},
        {"datetime64[M]", "\"2000-03\"", "datetime64[W]", "\"2000-03-02\"", "ftttff"},
        {"datetime64[M]", "\"2000-03\"", "datetime64[W]", "\"2000-03-01\"", "ftfftt"},
        {"datetime64[M]", "\"2026-01\"", "datetime64[W]", "\"2026-01-01\"", "tfftft"},
        {"datetime64[Y]", "\"2263\"", "datetime64[ns]", "\"2262-04-11T23:47:16.854775807\"",
         "ftfftt"},
        {"datetime64[D]", "\"1677-09-21\"", "datetime64[ns]", "\"1677-09-21T00:12:43.145224193\"",
         "ftttff"},
        {"datetime64[Y]", "\"1970\"", "datetime64[M]", "\"1970-01\"", "tfftft"},
        {"datetime64[s]", "NaT", "datetime64[s]", "NaT", "ftffff"},
        {"datetime64[s]", "NaT", "datetime64[D]", "\"2026-11-25\"", "ftffff"},
        {"datetime64[h]", "\"2026-11-25T20\"", "datetime64[us]", "NaT", "ftffff"},
        {"timedelta64[Y]", "1", "timedelta64[M]", "12", "tfftft"},
        {"timedelta64[Y]", "1", "timedelta64[M]", "13", "ftttff"},
        {"timedelta64[s]", "-1", "timedelta64[ms]", "-1000", "tfftft"},
        {"timedelta64[s]", "-1", "timedelta64[ms]", "-1001", "ftfftt"},
        {"timedelta64[W]", "9223372036854775807", "timedelta64[ns]", "0", "ftfftt"},
        {"timedelta64[s]", "-9223372036854775807", "timedelta64[ns]", "-5", "ftttff"},
        {"timedelta64[D]", "NaT", "timedelta64[D]", "NaT", "ftffff"},
    };
    for (const auto &c : cases) {
        for (int op = 0; op < 6; op++) {
            const Call k = {kCompareOps[op], c.a_type, c.a, c.b_type, c.b, CK_OK, nullptr};
            const std::string want =
                std::string("bool: ") + (c.expect[op] == 't' ? "true" : "false");
            EXPECT_EQ(call(k).text, want) << kCompareOps[op] << "(" << c.a_type << " " << c.a
                                          << ", " << c.b_type << " " << c.b << ")";
        }
    }
}

TEST_F(Datetime, ComparisonsBroadcastTakeOptionsAndRefuseOtherKinds) {
    const Call cases[] = {
        {"less", "3 * datetime64[D]", "[\"2026-11-25\", \"2026-11-26\", NaT]", "datetime64[s]",
         "\"2026-11-25T20:31:42\"", CK_OK, "3 * bool: [true, false, false]"},
        {"greater_equal", "2 * 1 * timedelta64[s]", "[[1], [-1]]", "2 * timedelta64[ms]",
         "[1000, 999]", CK_OK, "2 * 2 * bool: [[true, true], [false, false]]"},
        {"equal", "var * datetime64[M]", "[\"2026-11\", \"2026-12\"]", "datetime64[D]",
         "\"2026-12-01\"", CK_OK, "var * bool: [false, true]"},
        // In ?datetime64, NaT is the NA itself: NA out, not not_equal's true.
        {"not_equal", "3 * ?datetime64[D]", "[NA, \"2026-01-01\", NaT]", "datetime64[D]",
         "\"2026-01-02\"", CK_OK, "3 * ?bool: [NA, true, NA]"},
        {"less", "datetime64[s]", "\"2026-01-01T00:00:00\"", "timedelta64[s]", "1", CK_ERR_TYPE,
         "less: datetime64[s] and timedelta64[s]: a datetime64 compares only with a datetime64"},
        {"equal", "timedelta64[D]", "1", "timedelta64[Y]", "1", CK_ERR_TYPE,
         "equal: timedelta64[D] and timedelta64[Y]: a timedelta in years or months does not "
         "convert to D"},
        {"greater", "datetime64[s]", "\"2026-01-01T00:00:00\"", "int64", "1", CK_ERR_TYPE,
         "greater: datetime64[s] and int64: a datetime64 or timedelta64 meets only another "
         "(cast the number"},
        {"less", "string", "\"2026-01-01\"", "datetime64[D]", "\"2026-01-01\"", CK_ERR_TYPE,
         "less: string and datetime64[D]: a datetime64 or timedelta64 meets only another (cast "
         "the text"},
        {"equal", "2 * datetime64[D]", "[NaT, NaT]", "3 * datetime64[D]", "[NaT, NaT, NaT]",
         CK_ERR_BROADCAST, "equal: cannot broadcast"},
    };
    for (const auto &c : cases) {
        check_call(c);
    }
}

TEST_F(Datetime, CompareAllocationFailsCleanly) {
    const Call c = {"less_equal", "2 * ?datetime64[ms]", "[\"2026-11-25T20:31:42.5\", NA]",
                    "datetime64[s]", "\"1970-01-01T00:00:00\"", CK_OK, ""};
    ckt::for_each_alloc_failure([&] { return call(c).status; });
}

}  // namespace
