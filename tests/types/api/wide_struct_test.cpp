// tests/types/api/wide_struct_test.cpp: structs of up to CK_TYPE_MAX_FIELDS (65536) fields,
// whose names are looked up through a hashed index (issue 23). Every expected value is built
// here by hand: the datashape and each name's bytes and column as the text is written, the
// canonical spelling of each name, the bytes an assignment by name must write (fields of 8
// bytes, so field k is at 8k), the literal's canonical text. Sizes around the point where a
// struct starts to carry an index (8 fields) are covered as well as the widest; allocation
// failure at every point of the new paths leaks nothing. No timing is asserted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "tt.hpp"

namespace {

using Leakless = tt::TypesLeakless;
class WideStructs : public Leakless {};

constexpr size_t kWide = CK_TYPE_MAX_FIELDS;

// A struct datashape written field by field: each field's name as bytes, its column (1-based,
// where the name starts) and its canonical spelling.
struct Wide {
    std::string text, canonical;
    std::vector<std::string> names;
    std::vector<size_t> column;
};

// Field i's name and two spellings: identifiers, quoted names with a space (single or double
// quotes), and quoted names with an escaped quote and a control byte (\x01).
void name_of(size_t i, std::string *bytes, std::string *spelled, std::string *canonical) {
    const std::string n = std::to_string(i);
    switch (i % 5) {
    case 0: *bytes = "f" + n; *spelled = *canonical = *bytes; break;
    case 1: *bytes = "g_" + n; *spelled = *canonical = *bytes; break;
    case 2: *bytes = "a b" + n; *spelled = *canonical = "'a b" + n + "'"; break;
    case 3: *bytes = "c d" + n; *spelled = "\"c d" + n + "\""; *canonical = "'c d" + n + "'"; break;
    default:
        *bytes = "q'" + n + "\x01";
        *spelled = *canonical = "'q\\'" + n + "\\x01'";
        break;
    }
}

// n fields of `type`, named by name_of, in the order `order` (field k of the text is name
// order[k]); `respell` replaces the spelling of some fields (the duplicate tests).
Wide make_wide(size_t n, const char *type, const std::vector<size_t> &order = {},
               size_t respell_at = SIZE_MAX, const std::string &respelled = "") {
    Wide w;
    w.text = w.canonical = "{";
    for (size_t k = 0; k < n; k++) {
        const size_t i = order.empty() ? k : order[k];
        std::string bytes, spelled, canonical;
        name_of(i, &bytes, &spelled, &canonical);
        if (k == respell_at) spelled = respelled;
        if (k > 0) {
            w.text += ", ";
            w.canonical += ", ";
        }
        w.column.push_back(w.text.size() + 1);
        w.names.push_back(bytes);
        w.text += spelled + ": " + type;
        w.canonical += canonical + ": " + type;
    }
    w.text += "}";
    w.canonical += "}";
    return w;
}

// Names no field has: near misses of every kind of name_of's.
const char *const kAbsent[] = {"f65536", "f",    "F0",   "f0 ",         " f0",
                               "g_",     "g_00", "a b",  "a  b2",       "c d3\x01",
                               "q'4",    "zz",   "f00",  "q'4\x01\x01", "q\"4\x01"};

TEST_F(WideStructs, EveryFieldIsFoundAndUnknownNamesAreNot) {
    const Wide w = make_wide(kWide, "int16");
    tt::Type t(w.text.c_str());
    ASSERT_NE(t.t, nullptr);
    ASSERT_EQ(ck_type_field_count(t), kWide);
    EXPECT_EQ(ck_type_data_size(t), 2 * kWide);
    EXPECT_EQ(ck_type_field_offset(t, kWide - 1), 2 * (kWide - 1));
    for (size_t i = 0; i < kWide; i++) {
        ASSERT_EQ(ck_type_field_name(t, i), w.names[i]) << i;
        ASSERT_EQ(ck_type_field_index(t, w.names[i].c_str()), static_cast<intptr_t>(i)) << i;
    }
    for (const char *absent : kAbsent) {
        EXPECT_EQ(ck_type_field_index(t, absent), -1) << absent;
    }
    EXPECT_EQ(ck_type_field_index(t, ""), -1);
    EXPECT_EQ(ck_type_field_index(t, nullptr), -1);

    // The maker, from the same names: an equal type that finds the same fields.
    std::vector<const ck_type *> fields(kWide, ck_type_scalar(CK_TYPE_INT16));
    std::vector<const char *> names;
    for (const std::string &s : w.names) names.push_back(s.c_str());
    ck_type *m = nullptr;
    ASSERT_EQ(ck_type_make_struct(kWide, fields.data(), names.data(), &m), CK_OK) << ck_last_error();
    EXPECT_TRUE(ck_type_equal(m, t));
    for (size_t i = 0; i < kWide; i += 1 + i % 7) {
        ASSERT_EQ(ck_type_field_index(m, w.names[i].c_str()), static_cast<intptr_t>(i)) << i;
    }
    for (const char *absent : kAbsent) {
        EXPECT_EQ(ck_type_field_index(m, absent), -1) << absent;
    }
    ck_type_decref(m);
}

TEST_F(WideStructs, FormattingRoundTrips) {
    const Wide w = make_wide(kWide, "?float32");
    tt::Type t(w.text.c_str());
    ASSERT_NE(t.t, nullptr);
    const std::string printed = tt::format(t);
    EXPECT_TRUE(printed == w.canonical) << "the canonical text differs at byte "
                                        << std::mismatch(printed.begin(), printed.end(),
                                                         w.canonical.begin(), w.canonical.end())
                                               .first - printed.begin();
    tt::Type again(printed.c_str());
    EXPECT_TRUE(ck_type_equal(t, again));
    EXPECT_EQ(tt::format(again), printed);
}

struct Dup {
    const char *what;
    size_t first, second;  // the second field takes the first's name
    bool respell;          // spelled another way: quoted, with \x escapes
};

void PrintTo(const Dup &d, std::ostream *os) { *os << d.what; }

const Dup kDups[] = {
    {"first_and_second", 0, 1, false},
    {"first_and_last", 0, kWide - 1, false},
    {"middle", 32767, 32768, false},
    {"last_two", kWide - 2, kWide - 1, false},
    {"far_apart_respelled", 100, 40000, true},
};

class WideDuplicates : public Leakless, public ::testing::WithParamInterface<Dup> {};

TEST_P(WideDuplicates, AreFoundWithTheColumnOfTheSecond) {
    const Dup &d = GetParam();
    std::vector<size_t> order(kWide);
    for (size_t k = 0; k < kWide; k++) order[k] = k;
    order[d.second] = d.first;
    // f100 spelled '\x66\x31\x300': the same bytes.
    const Wide w = make_wide(kWide, "int8", order, d.respell ? d.second : SIZE_MAX,
                             "'\\x66\\x31\\x300'");
    if (d.respell) {
        ASSERT_EQ(w.names[d.second], "f100");
    }
    std::string shown, unused;
    name_of(d.first, &unused, &unused, &shown);
    ck_type *t = reinterpret_cast<ck_type *>(0x1);
    EXPECT_EQ(ck_type_parse(w.text.c_str(), &t), CK_ERR_PARSE);
    EXPECT_EQ(t, nullptr);
    ck_type_decref(t);
    const std::string msg = ck_last_error();
    EXPECT_TRUE(tt::contains(msg, "duplicate field name " + shown + " at column " +
                                      std::to_string(w.column[d.second])))
        << msg;

    // The maker refuses the same names.
    std::vector<const ck_type *> fields(kWide, ck_type_scalar(CK_TYPE_INT8));
    std::vector<const char *> names;
    for (const std::string &s : w.names) names.push_back(s.c_str());
    ck_type *m = reinterpret_cast<ck_type *>(0x1);
    EXPECT_EQ(ck_type_make_struct(kWide, fields.data(), names.data(), &m), CK_ERR_INVALID);
    EXPECT_EQ(m, nullptr);
    ck_type_decref(m);
    EXPECT_TRUE(tt::contains(ck_last_error(), "the name '" + w.names[d.first] + "' is used twice"))
        << ck_last_error();
}

INSTANTIATE_TEST_SUITE_P(Types, WideDuplicates, ::testing::ValuesIn(kDups),
                         [](const ::testing::TestParamInfo<Dup> &p) { return std::string(p.param.what); });

TEST_F(WideStructs, SizesAroundTheIndexThreshold) {
    // Up to 8 fields a struct is scanned, above it carries the index; the parser's set of
    // names grows past 8, 16 and 32 names. Each size: every field found, the absent names
    // not, and a duplicate of the first field in the last place refused by both makers.
    for (size_t n : {1u, 2u, 7u, 8u, 9u, 16u, 17u, 33u, 100u}) {
        const Wide w = make_wide(n, "int32");
        tt::Type t(w.text.c_str());
        ASSERT_NE(t.t, nullptr) << n;
        for (size_t i = 0; i < n; i++) {
            ASSERT_EQ(ck_type_field_index(t, w.names[i].c_str()), static_cast<intptr_t>(i))
                << n << " " << i;
        }
        for (const char *absent : kAbsent) {
            EXPECT_EQ(ck_type_field_index(t, absent), -1) << n << " " << absent;
        }
        EXPECT_EQ(tt::format(t), w.canonical);
        if (n < 2) continue;
        std::vector<size_t> order(n);
        for (size_t k = 0; k < n; k++) order[k] = k;
        order[n - 1] = 0;
        const Wide d = make_wide(n, "int32", order);
        ck_type *bad = nullptr;
        EXPECT_EQ(ck_type_parse(d.text.c_str(), &bad), CK_ERR_PARSE) << n;
        ck_type_decref(bad);
        EXPECT_TRUE(tt::contains(ck_last_error(), "duplicate field name f0 at column " +
                                                      std::to_string(d.column[n - 1])))
            << n << ": " << ck_last_error();
        std::vector<const ck_type *> fields(n, ck_type_scalar(CK_TYPE_INT32));
        std::vector<const char *> names;
        for (const std::string &s : d.names) names.push_back(s.c_str());
        EXPECT_EQ(ck_type_make_struct(n, fields.data(), names.data(), &bad), CK_ERR_INVALID) << n;
        ck_type_decref(bad);
        EXPECT_TRUE(tt::contains(ck_last_error(), "the name 'f0' is used twice")) << ck_last_error();
        names[n - 1] = "f0 ";  // one byte more: a different name
        ASSERT_EQ(ck_type_make_struct(n, fields.data(), names.data(), &bad), CK_OK) << n;
        EXPECT_EQ(ck_type_field_index(bad, "f0 "), static_cast<intptr_t>(n - 1));
        EXPECT_EQ(ck_type_field_index(bad, "f0"), 0);
        ck_type_decref(bad);
    }
}

// Builds dst <- src (both C order, fields by name) into b; its status.
int make_assign(const ck_type *dt, const ck_type *st, ck_builder *b) {
    std::vector<char> dam(ck_type_arrmeta_size(dt)), sam(ck_type_arrmeta_size(st));
    EXPECT_EQ(ck_arrmeta_default_construct(dt, dam.data(), nullptr), CK_OK);
    EXPECT_EQ(ck_arrmeta_default_construct(st, sam.data(), nullptr), CK_OK);
    size_t off = 0;
    return ck_make_assign(b, &off, dt, dam.data(), st, sam.data(), CK_REQUEST_SINGLE, nullptr);
}

// The source's order: blocks of 1 to 5 fields, the blocks in reverse order, each block's
// fields in order (so some neighbours stay neighbours and may be copied as one run).
std::vector<size_t> reversed_blocks(size_t n) {
    std::vector<size_t> starts;
    for (size_t at = 0, b = 0; at < n; at += 1 + b % 5, b++) starts.push_back(at);
    std::vector<size_t> order;
    for (size_t s = starts.size(); s-- > 0;) {
        const size_t end = s + 1 < starts.size() ? starts[s + 1] : n;
        for (size_t i = starts[s]; i < end; i++) order.push_back(i);
    }
    return order;
}

// Field i of the destination {f0: int64, f1: float64, f2: int64, ...}, every field "f<i>"
// (8 bytes each: field k at byte 8k on both sides), from a source of the same names in
// reversed blocks whose types cycle through int64, uint64, float64 and int64 (the same type
// as the destination's or a cast), each holding a value chosen from i.
const char *dst_type(size_t i) { return i % 2 == 0 ? "int64" : "float64"; }
const char *src_type(size_t i) {
    static const char *const even[] = {"int64", "uint64"}, *const odd[] = {"float64", "int64"};
    return i % 2 == 0 ? even[(i / 2) % 2] : odd[(i / 2) % 2];
}

TEST_F(WideStructs, AssignmentByNameBetweenTwoOrders) {
    const std::vector<size_t> order = reversed_blocks(kWide);
    std::string dtext = "{", stext = "{";
    for (size_t k = 0; k < kWide; k++) {
        dtext += (k ? ", f" : "f") + std::to_string(k) + ": " + dst_type(k);
        stext += (k ? ", f" : "f") + std::to_string(order[k]) + ": " + src_type(order[k]);
    }
    dtext += "}";
    stext += "}";
    tt::Type dt(dtext.c_str()), st(stext.c_str());
    ASSERT_NE(dt.t, nullptr);
    ASSERT_NE(st.t, nullptr);
    // The source's bytes: field k (named f<order[k]>) at 8k.
    std::vector<unsigned char> src(8 * kWide), dst(8 * kWide + 16, 0xee), want(8 * kWide);
    for (size_t k = 0; k < kWide; k++) {
        const size_t i = order[k];
        const std::string ty = src_type(i);
        const int64_t iv = static_cast<int64_t>(i) * 1000003 - (int64_t{1} << 40);
        const uint64_t uv = static_cast<uint64_t>(i) * 13;
        const double dv = static_cast<double>(i) + 0.25;
        if (ty == "int64") std::memcpy(&src[8 * k], &iv, 8);
        if (ty == "uint64") std::memcpy(&src[8 * k], &uv, 8);
        if (ty == "float64") std::memcpy(&src[8 * k], &dv, 8);
        // What destination field i must hold: the value, as an int64 or a float64.
        if (i % 2 == 0) {
            const int64_t v = ty == "int64" ? iv : static_cast<int64_t>(uv);
            std::memcpy(&want[8 * i], &v, 8);
        } else {
            const double v = ty == "float64" ? dv : static_cast<double>(iv);
            std::memcpy(&want[8 * i], &v, 8);
        }
    }
    ck_builder b;
    ck_builder_init(&b);
    ASSERT_EQ(make_assign(dt, st, &b), CK_OK) << ck_last_error();
    char *s = reinterpret_cast<char *>(src.data());
    EXPECT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(dst.data()), &s), CK_OK)
        << ck_last_error();
    ck_builder_destroy(&b);
    for (size_t i = 0; i < kWide; i++) {
        ASSERT_EQ(std::memcmp(&dst[8 * i], &want[8 * i], 8), 0) << "field f" << i;
    }
    for (size_t k = 8 * kWide; k < dst.size(); k++) ASSERT_EQ(dst[k], 0xee) << "written past the end";
}

TEST_F(WideStructs, ByNameMismatchNamesTheFieldsLeftOver) {
    // The destination has f0 .. f65535, the source the same with f40000 renamed zz.
    std::string dtext = "{", stext = "{";
    for (size_t k = 0; k < kWide; k++) {
        dtext += (k ? ", f" : "f") + std::to_string(k) + ": int32";
        stext += (k ? ", " : "") + (k == 40000 ? std::string("zz") : "f" + std::to_string(k)) +
                 ": int32";
    }
    dtext += "}";
    stext += "}";
    tt::Type dt(dtext.c_str()), st(stext.c_str());
    ck_builder b;
    ck_builder_init(&b);
    EXPECT_EQ(make_assign(dt, st, &b), CK_ERR_TYPE);
    ck_builder_destroy(&b);
    const std::string msg = ck_last_error();
    EXPECT_TRUE(tt::contains(msg, "the source has no field f40000; the destination has no field zz"))
        << msg;
    EXPECT_EQ(msg.rfind("cannot assign {f0: int32, f1: int32", 0), 0u) << msg;
}

TEST_F(WideStructs, LiteralsGiveFieldsInAnyOrder) {
    const size_t n = kWide;
    std::string type = "{", lit = "{", want = "{";
    for (size_t k = 0; k < n; k++) {
        type += (k ? ", f" : "f") + std::to_string(k) + ": int32";
        want += (k ? ", f" : "f") + std::to_string(k) + ": " + std::to_string(3 * k);
        const size_t i = n - 1 - k;  // given last field first
        lit += (k ? ", f" : "f") + std::to_string(i) + ": " + std::to_string(3 * i);
    }
    type += "}";
    lit += "}";
    want += "}";
    tt::Type t(type.c_str());
    tt::Array a;
    ASSERT_EQ(ck_array_parse(t, lit.c_str(), &a.a), CK_OK) << ck_last_error();
    const std::string printed = tt::format(a.a);
    EXPECT_TRUE(printed == want) << printed.substr(0, 200);

    // A field given twice (the first again, last), an unknown one, a missing one.
    const std::string twice = lit.substr(0, lit.size() - 1) + ", f65535: 1}";
    tt::Array bad;
    EXPECT_EQ(ck_array_parse(t, twice.c_str(), &bad.a), CK_ERR_PARSE);
    EXPECT_TRUE(tt::contains(ck_last_error(), "field f65535 is given twice")) << ck_last_error();
    const std::string unknown = "{zz: 1, " + lit.substr(1);
    EXPECT_EQ(ck_array_parse(t, unknown.c_str(), &bad.a), CK_ERR_PARSE);
    EXPECT_TRUE(tt::contains(ck_last_error(), "has no field zz")) << ck_last_error();
    const std::string missing = "{" + lit.substr(lit.find(", ") + 2);  // without f65535
    EXPECT_EQ(ck_array_parse(t, missing.c_str(), &bad.a), CK_ERR_PARSE);
    EXPECT_TRUE(tt::contains(ck_last_error(), "field f65535 of")) << ck_last_error();
}

TEST_F(WideStructs, AllocationFailureAtEveryPointOfTheIndexedPaths) {
    // 40 fields: an index in the type, the parser's set grown three times; names quoted and
    // escaped; the source in another order with casts; a literal in another order.
    const size_t n = 40;
    std::vector<size_t> order(n);
    for (size_t k = 0; k < n; k++) order[k] = (k * 17) % n;
    const Wide d = make_wide(n, "float64"), s = make_wide(n, "int16", order);
    std::string lit = "{";
    for (size_t k = 0; k < n; k++) {
        std::string bytes, spelled, canonical;
        name_of(order[k], &bytes, &spelled, &canonical);
        lit += (k ? ", " : "") + spelled + ": " + std::to_string(order[k]);
    }
    lit += "}";
    std::vector<const char *> names;
    for (const std::string &x : d.names) names.push_back(x.c_str());
    std::vector<const ck_type *> fields(n, ck_type_scalar(CK_TYPE_FLOAT64));
    const int64_t points = ckt::for_each_alloc_failure([&] {
        ck_type *dt = nullptr, *st = nullptr, *m = nullptr;
        ck_array *src = nullptr, *dst = nullptr;
        char *text = nullptr;
        int rc = ck_type_parse(d.text.c_str(), &dt);
        if (rc == CK_OK) rc = ck_type_parse(s.text.c_str(), &st);
        if (rc == CK_OK) rc = ck_type_make_struct(n, fields.data(), names.data(), &m);
        if (rc == CK_OK) {
            EXPECT_TRUE(ck_type_equal(m, dt));
            EXPECT_EQ(ck_type_field_index(st, d.names[39].c_str()), 7);  // 39 = 7 * 17 % 40
            EXPECT_EQ(ck_type_field_index(m, "q'4\x01"), 4);
            rc = ck_type_format(st, &text);
        }
        if (rc == CK_OK) {
            EXPECT_EQ(std::string(text), s.canonical);
            rc = ck_array_parse(st, lit.c_str(), &src);
        }
        if (rc == CK_OK) rc = ck_array_new(dt, &dst);
        if (rc == CK_OK) rc = ck_assign(dst, src, nullptr);
        if (rc == CK_OK) {
            for (size_t i = 0; i < n; i++) {
                double v;
                std::memcpy(&v, ck_array_data(dst) + 8 * i, 8);
                EXPECT_EQ(v, static_cast<double>(i)) << i;
            }
        }
        ck_free(text);
        ck_array_free(src);
        ck_array_free(dst);
        ck_type_decref(m);
        ck_type_decref(st);
        ck_type_decref(dt);
        return rc;
    });
    EXPECT_GT(points, 10);
}

}  // namespace
