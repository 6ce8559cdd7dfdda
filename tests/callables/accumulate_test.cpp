// tests/callables/accumulate_test.cpp: accumulations (cumsum, cumprod, cummin, cummax and a
// user's callable) through the public API, against values worked out by hand: along inner
// and outer axes, over var rows, result types as NumPy's (cumsum of int8 is int64, cummax
// keeps the type), explicit destinations; the errors; the trees; allocation failure; the
// streaming scan of large contiguous destinations, against the running value bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "ckt_array.hpp"
#include "reduce_support.hpp"

namespace {

using rs::Outcome;

Outcome accumulate(const char *name, const char *type, const char *literal, int axis,
                   const char *dst_type = nullptr) {
    return rs::run(rs::Kind::accumulate, name, type, literal, {axis}, 0, dst_type);
}

struct Hand {
    const char *name, *type, *literal;
    int axis;
    const char *want, *want_type;
};

const Hand kHand[] = {
    {"cumsum", "4 * int32", "[1, 2, 3, 4]", 0, "[1, 3, 6, 10]", "4 * int64"},
    {"cumsum", "2 * 3 * int8", "[[1, 2, 3], [4, 5, 6]]", 1, "[[1, 3, 6], [4, 9, 15]]", "2 * 3 * int64"},
    {"cumsum", "2 * 3 * int8", "[[1, 2, 3], [4, 5, 6]]", 0, "[[1, 2, 3], [5, 7, 9]]", "2 * 3 * int64"},
    {"cumsum", "2 * 3 * int8", "[[1, 2, 3], [4, 5, 6]]", -2, "[[1, 2, 3], [5, 7, 9]]", "2 * 3 * int64"},
    {"cumprod", "2 * 3 * float64", "[[1, 2, 3], [4, 5, 6]]", -1, "[[1, 2, 6], [4, 20, 120]]",
     "2 * 3 * float64"},
    {"cumprod", "3 * bool", "[true, true, false]", 0, "[1, 1, 0]", "3 * int64"},
    {"cummax", "5 * float32", "[1, 3, 2, nan, 5]", 0, "[1, 3, 3, nan, nan]", "5 * float32"},
    {"cummin", "4 * uint8", "[9, 3, 7, 1]", 0, "[9, 3, 3, 1]", "4 * uint8"},
    {"cummin", "3 * var * int16", "[[3, 1, 2], [], [5]]", 1, "[[3, 1, 1], [], [5]]",
     "3 * var * int16"},
    {"cumsum", "var * 2 * int32", "[[1, 2], [3, 4], [5, 6]]", 0, "[[1, 2], [4, 6], [9, 12]]",
     "var * 2 * int64"},
    {"cumsum", "0 * int16", "[]", 0, "[]", "0 * int64"},
    {"cumsum", "3 * 0 * int16", "[[], [], []]", 0, "[[], [], []]", "3 * 0 * int64"},
    {"cumsum", "3 * 2 * 2 * int32", "[[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9, 10], [11, 12]]]",
     0, "[[[1, 2], [3, 4]], [[6, 8], [10, 12]], [[15, 18], [21, 24]]]", "3 * 2 * 2 * int64"},
    {"cumsum", "2 * 3 * 2 * int32", "[[[1, 2], [3, 4], [5, 6]], [[7, 8], [9, 10], [11, 12]]]",
     1, "[[[1, 2], [4, 6], [9, 12]], [[7, 8], [16, 18], [27, 30]]]", "2 * 3 * 2 * int64"},
    // the first element is the source's own (cast): -0 stays -0, as in NumPy
    {"cumsum", "2 * float64", "[-0.0, 1]", 0, "[-0, 1]", "2 * float64"},
    // the callables by their own names; add of int8 widens as cumsum does
    {"add", "3 * int8", "[100, 100, 100]", 0, "[100, 200, 300]", "3 * int64"},
    {"maximum", "3 * complex64", "[1+1j, 1+2j, 0+9j]", 0, "[1+1j, 1+2j, 1+2j]", "3 * complex64"},
};

TEST(Accumulate, HandComputedCases) {
    for (const Hand &h : kHand) {
        const Outcome o = accumulate(h.name, h.type, h.literal, h.axis);
        ASSERT_EQ(o.rc, CK_OK) << h.name << " of " << h.type << " " << h.literal << ": " << o.message;
        EXPECT_EQ(o.value, h.want) << h.name << " of " << h.type << " " << h.literal;
        EXPECT_EQ(o.type, h.want_type) << h.name << " of " << h.type << " " << h.literal;
    }
}

TEST(Accumulate, ExplicitDestinationsAndErrors) {
    Outcome o = accumulate("cumsum", "3 * int8", "[100, 100, 100]", 0, "3 * int8");
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "[100, -56, 44]");  // wraps in int8
    o = accumulate("cumsum", "3 * int32", "[1, 2, 3]", 0, "3 * float64");
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "[1, 3, 6]");
    o = accumulate("cumsum", "3 * int32", "[1, 2, 3]", 0, "float64");
    EXPECT_EQ(o.rc, CK_ERR_BROADCAST);
    EXPECT_EQ(o.message, "add: cannot accumulate 3 * int32 into float64: an accumulation's "
                         "destination has the source's shape, var dimensions where it has them");
    o = accumulate("cumsum", "3 * int32", "[1, 2, 3]", 0, "4 * int64");
    EXPECT_EQ(o.rc, CK_ERR_BROADCAST);
    o = accumulate("cumsum", "3 * var * int16", "[[3, 1, 2], [], [5]]", 0);
    EXPECT_EQ(o.rc, CK_ERR_UNSUPPORTED);
    EXPECT_EQ(o.message, "add: cannot accumulate 3 * var * int16 into 3 * var * int64: "
                         "accumulations along a dimension above a var one are not built yet");
    o = accumulate("cumsum", "3 * ?int16", "[3, NA, 5]", 0);  // options: NA ends the row
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "[3, NA, NA]");
    o = accumulate("cumsum", "3 * int16", "[3, 1, 5]", 1);
    EXPECT_EQ(o.rc, CK_ERR_INVALID);
    EXPECT_EQ(o.message, "reduce: axis 1 is out of range for a source of 1 dimension");
    o = accumulate("subtract", "3 * int16", "[3, 1, 5]", 0);  // no identity needed
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "[3, 2, -3]");
    // one axis, no keepdims
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_accumulation_lookup("cumsum", &c), CK_OK);
    ckt::Array a("2 * 2 * int32", "[[1, 2], [3, 4]]");
    const int both[] = {0, 1};
    ck_reduce_spec r = {c, both, 2, 0};
    ck_array *out = nullptr;
    EXPECT_EQ(ck_accumulate_new(&r, a.get(), nullptr, &out), CK_ERR_INVALID);
    EXPECT_EQ(std::string(ck_last_error()),
              "add: an accumulation runs along one axis (naxes 1), without keepdims");
    r = {c, nullptr, 0, 0};
    EXPECT_EQ(ck_accumulate_new(&r, a.get(), nullptr, &out), CK_ERR_INVALID);
    r = {c, both, 1, CK_REDUCE_KEEPDIMS};
    EXPECT_EQ(ck_accumulate_new(&r, a.get(), nullptr, &out), CK_ERR_INVALID);
    EXPECT_EQ(out, nullptr);
    ck_callable *none = nullptr;
    EXPECT_EQ(ck_accumulation_lookup("cumnothing", &none), CK_ERR_TYPE);
    for (const auto &p : std::vector<std::pair<const char *, const char *>>{
             {"cumsum", "add"}, {"cumprod", "multiply"}, {"cummin", "minimum"},
             {"cummax", "maximum"}, {"logical_or", "logical_or"}}) {
        ck_callable *f = nullptr;
        ASSERT_EQ(ck_accumulation_lookup(p.first, &f), CK_OK);
        EXPECT_STREQ(ck_callable_name(f), p.second);
        ck_callable_decref(f);
    }
    ck_callable_decref(c);
}

// A user's callable: scanned one element at a time through its own leaf (reduce_scan), and
// along an outer axis elementwise (reduce_fold).
// The literal of c accumulated along `axis` of a with `flags`, into a new array.
std::string accumulated(ck_callable *c, const ck_array *a, int axis, unsigned flags = 0) {
    const ck_reduce_spec r = {c, &axis, 1, flags};
    ck_array *out = nullptr;
    rs::Outcome o;
    o.rc = ck_accumulate_new(&r, a, nullptr, &out);
    rs::finish(&o, out);
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    return o.value;
}

TEST(Accumulate, AUsersCallable) {
    ck_callable *c = nullptr;
    ck_factory f = rs::gcd_factory();
    ASSERT_EQ(ck_callable_new("gcd_acc", &c), CK_OK);
    ASSERT_EQ(ck_callable_add(c, "qq)q", &f), CK_OK);  // no identity: accumulations need none
    ckt::Array a("2 * 4 * int32", "[[12, 18, 7, 0], [8, 12, 14, 5]]");
    const char *want[] = {"[[12, 18, 7, 0], [4, 6, 7, 5]]", "[[12, 6, 1, 1], [8, 4, 2, 1]]"};
    for (int axis : {0, 1}) {
        EXPECT_EQ(accumulated(c, a.get(), axis), want[axis]) << axis;
    }
    ck_callable_decref(c);
}

std::string tree(const char *name, const char *src, int axis) {
    return rs::tree(rs::Kind::accumulate, name, src, {axis});
}

TEST(Accumulate, Trees) {
    const std::string t = ck_cpu_target_name(ckt::best_compiled_target());
    EXPECT_EQ(ckt::tree_text(tree("cumsum", "3 * 4 * float64", 1)),
              ckt::tree_text("strided_dim @0 +40  strided_dim_single  size=3 dst_stride=32 src_stride=32\n"
                             "  accumulate_dim @40 +104  accumulate_dim_strided  size=4 src_stride=8 "
                             "dst_stride=8 scan\n"
                             "    leaf @144 +16  scan add float64 [" + t + "]\n"));
    EXPECT_EQ(ckt::tree_text(tree("cummax", "4 * int8", 0)),
              ckt::tree_text("accumulate_dim @0 +104  accumulate_dim_single  size=4 src_stride=1 dst_stride=1 "
                             "scan\n"
                             "  leaf @104 +16  scan maximum int8 [" + t + "]\n"));
    EXPECT_EQ(ckt::tree_text(tree("cumsum", "3 * 4 * int8", 0)),
              ckt::tree_text("accumulate_dim @0 +104  accumulate_dim_single  size=3 src_stride=4 dst_stride=32 "
                             "first, copy, fold\n"
                             "  strided_dim @104 +40  strided_dim_strided  size=4 dst_stride=8 src_stride=1\n"
                             "    leaf @144 +16  cast int8 -> int64 (fractional) strided [" + t + "]\n"
                             "  strided_dim @160 +40  strided_dim_strided  size=4 dst_stride=8 src_stride=8\n"
                             "    leaf @200 +16  copy int64 strided [" + t + "]\n"
                             "  strided_dim @216 +40  strided_dim_strided  size=4 dst_stride=8 src_stride=1\n"
                             "    leaf @256 +16  accumulate add int64 from int8 [" + t + "]\n"));
    // a row cast into the destination, then scanned there
    EXPECT_EQ(ckt::tree_text(tree("cumsum", "5 * int16", 0)),
              ckt::tree_text("accumulate_dim @0 +104  accumulate_dim_single  size=5 src_stride=2 dst_stride=8 "
                             "cast, scan\n"
                             "  leaf @104 +16  cast int16 -> int64 (fractional) strided [" + t + "]\n"
                             "  leaf @120 +16  scan add int64 [" + t + "]\n"));
}

// The streaming threshold back to its default, whatever a test did.
struct StreamedScan : ::testing::Test {
    void TearDown() override { ck_set_streaming_threshold(0); }
};

// out[i] = op(out[i-1], x[i]) in T, computed here: the definition, as NumPy's accumulate.
template <typename T>
std::vector<T> running(const std::vector<T> &x, char op) {
    std::vector<T> out(x.size());
    T acc = x[0];
    out[0] = acc;
    for (size_t i = 1; i < x.size(); i++) {
        acc = op == '+' ? static_cast<T>(acc + x[i])
              : op == '*' ? static_cast<T>(acc * x[i])
                          : (acc >= x[i] ? acc : x[i]);
        out[i] = acc;
    }
    return out;
}

// name over n elements of T into a destination `shift` elements past a 64-byte line, with
// streaming stores allowed from 1 byte on; the result's bytes against the running value's.
template <typename T>
void expect_streamed_scan(const char *name, const char *type, char op, size_t n, size_t shift,
                          T (*value)(size_t)) {
    std::vector<T> x(n);
    for (size_t i = 0; i < n; i++) {
        x[i] = value(i);
    }
    const std::vector<T> want = running(x, op);
    std::vector<unsigned char> raw((n + shift) * sizeof(T) + 64);
    unsigned char *line = raw.data() + (64 - reinterpret_cast<uintptr_t>(raw.data()) % 64);
    char *d = reinterpret_cast<char *>(line + shift * sizeof(T));
    std::memset(d, 0x5a, n * sizeof(T));
    const std::string ds = std::to_string(n) + " * " + type;
    ckt::Type t(ds.c_str());
    ck_array *src = nullptr, *dst = nullptr;
    ASSERT_EQ(ck_array_wrap(t.get(), nullptr, reinterpret_cast<char *>(x.data()), nullptr, &src),
              CK_OK);
    ASSERT_EQ(ck_array_wrap(t.get(), nullptr, d, nullptr, &dst), CK_OK);
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_accumulation_lookup(name, &c), CK_OK);
    const int axis = 0;
    const ck_reduce_spec r = {c, &axis, 1, 0};
    EXPECT_EQ(ck_accumulate(&r, dst, src, nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(std::memcmp(d, want.data(), n * sizeof(T)), 0)
        << name << " of " << ds << " shifted by " << shift;
    ck_callable_decref(c);
    ck_array_free(src);
    ck_array_free(dst);
}

double f64_value(size_t i) {
    return static_cast<double>((i * 2654435761u) % 1000) * 0.001 - 0.25;
}
float f32_value(size_t i) {
    return static_cast<float>(f64_value(i));
}
double f64_near_one(size_t i) {
    return 1.0 + static_cast<double>(i % 7) * 1e-9;
}
int16_t i16_value(size_t i) {
    return static_cast<int16_t>((i * 40503u) % 65536u - 32768);
}

// Lengths below the streamed minimum (8 KiB), around the 2 KiB chunks and with tails of
// part of a line; destinations at every element offset within a line.
TEST_F(StreamedScan, EqualsTheRunningValueBitForBit) {
    ck_set_streaming_threshold(1);
    const size_t f64_lengths[] = {1023, 1024, 1025, 1031, 4096 + 3, 10000};
    for (size_t n : f64_lengths) {
        for (size_t shift = 0; shift < 8; shift++) {
            expect_streamed_scan<double>("cumsum", "float64", '+', n, shift, f64_value);
        }
        expect_streamed_scan<double>("cumprod", "float64", '*', n, 3, f64_near_one);
    }
    for (size_t shift = 0; shift < 16; shift += 5) {
        expect_streamed_scan<float>("cumsum", "float32", '+', 2048 * 3 + 13, shift, f32_value);
    }
    expect_streamed_scan<int16_t>("cummax", "int16", 'm', 4096 * 2 + 31, 7, i16_value);
}

TEST_F(StreamedScan, TheTreeSaysSoWhenTheDestinationIsLarge) {
    const std::string t = ck_cpu_target_name(ckt::best_compiled_target());
    ck_set_streaming_threshold(1);
    if (ck_get_streaming_threshold() == std::numeric_limits<size_t>::max()) {
        GTEST_SKIP() << "no streaming stores: " << ck_streaming_threshold_reason();
    }
    EXPECT_EQ(ckt::tree_text(tree("cumsum", "2048 * float64", 0)),
              ckt::tree_text("accumulate_dim @0 +104  accumulate_dim_single  size=2048 src_stride=8 "
                             "dst_stride=8 scan\n"
                             "  scan_stream @104 +48  scan_stream_strided  scan add float64 [" + t +
                             "], streaming stores\n"));
    // a cast into the destination first: scanned there in place, with plain stores
    EXPECT_EQ(ckt::tree_text(tree("cumsum", "2048 * int16", 0)),
              ckt::tree_text("accumulate_dim @0 +104  accumulate_dim_single  size=2048 src_stride=2 "
                             "dst_stride=8 cast, scan\n"
                             "  leaf @104 +16  cast int16 -> int64 (fractional) strided [" + t + "]\n"
                             "  leaf @120 +16  scan add int64 [" + t + "]\n"));
    ck_set_streaming_threshold(std::numeric_limits<size_t>::max());
    EXPECT_EQ(ckt::tree_text(tree("cumsum", "2048 * float64", 0)),
              ckt::tree_text("accumulate_dim @0 +104  accumulate_dim_single  size=2048 src_stride=8 "
                             "dst_stride=8 scan\n"
                             "  leaf @104 +16  scan add float64 [" + t + "]\n"));
}

// An accumulation of options and what it gives, by hand.
struct OptionCase {
    const char *name, *type, *literal;
    int axis;
    unsigned flags;
    const char *want, *want_type;
};

template <size_t N>
void expect_option_cases(const OptionCase (&cases)[N]) {
    for (const OptionCase &c : cases) {
        const rs::Outcome o = rs::run(rs::Kind::accumulate, c.name, c.type, c.literal, {c.axis},
                                      c.flags);
        ASSERT_EQ(o.rc, CK_OK) << c.name << " of " << c.literal << ": " << o.message;
        EXPECT_EQ(o.value, c.want) << c.name << " of " << c.literal << " flags " << c.flags;
        EXPECT_EQ(o.type, c.want_type) << c.name << " of " << c.type;
    }
}

// Options along the innermost axis: NA ends the row, or with skipna is left out (the value
// before it repeats; the identity where none is yet, NA for an operation without one).
TEST(Accumulate, OptionsAlongTheInnermostAxis) {
    const unsigned SKIP = CK_REDUCE_SKIPNA;
    const OptionCase cases[] = {
        {"cumsum", "5 * ?int32", "[1, NA, 2, 3, NA]", 0, 0, "[1, NA, NA, NA, NA]", "5 * ?int64"},
        {"cumsum", "5 * ?int32", "[1, NA, 2, 3, NA]", 0, SKIP, "[1, 1, 3, 6, 6]", "5 * ?int64"},
        {"cumsum", "4 * ?int16", "[NA, 1, NA, 2]", 0, SKIP, "[0, 1, 1, 3]", "4 * ?int64"},
        {"cummax", "5 * ?float64", "[NA, 3, NA, 1, 7]", 0, SKIP, "[NA, 3, 3, 3, 7]",
         "5 * ?float64"},
        {"cummax", "5 * ?float64", "[NA, 3, NA, 1, 7]", 0, 0, "[NA, NA, NA, NA, NA]",
         "5 * ?float64"},
        // the first value is the source's own: -0 stays -0; after leading NA the identity
        {"cumsum", "3 * ?float64", "[-0.0, NA, 1]", 0, SKIP, "[-0, -0, 1]", "3 * ?float64"},
        {"cumsum", "3 * ?float64", "[NA, -0.0, 1]", 0, SKIP, "[0, 0, 1]", "3 * ?float64"},
        {"cumprod", "4 * ?float32", "[2, NA, 3, NA]", 0, SKIP, "[2, 2, 6, 6]", "4 * ?float32"},
        {"cummin", "2 * var * ?float64", "[[NA, 2, 1], [3, NA, 5, 0]]", 1, 0,
         "[[NA, NA, NA], [3, NA, NA, NA]]", "2 * var * ?float64"},
        {"cummin", "2 * var * ?float64", "[[NA, 2, 1], [3, NA, 5, 0]]", 1, SKIP,
         "[[NA, 2, 1], [3, 3, 3, 0]]", "2 * var * ?float64"},
        {"cumsum", "2 * 3 * ?int8", "[[1, NA, 2], [NA, NA, 4]]", -1, SKIP,
         "[[1, 1, 3], [0, 0, 4]]", "2 * 3 * ?int64"},
        {"cumsum", "0 * ?int32", "[]", 0, SKIP, "[]", "0 * ?int64"},
    };
    expect_option_cases(cases);
    // a plain source into an option destination: a value of the NA's bits reads as NA
    rs::Outcome o = rs::run(rs::Kind::accumulate, "cummin", "3 * uint8", "[255, 255, 3]", {0},
                            0, "3 * ?uint8");
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "[NA, NA, 3]");
    // NA has nowhere to go in a plain destination; outer axes are not built
    o = rs::run(rs::Kind::accumulate, "cumsum", "2 * ?int32", "[1, NA]", {0}, 0, "2 * int64");
    EXPECT_EQ(o.rc, CK_ERR_TYPE);
    EXPECT_NE(o.message.find("an accumulation of options needs an option destination"),
              std::string::npos)
        << o.message;
}

// Options along an outer axis, column by column as along the innermost axis: NA ends the
// column, or with skipna is left out (the identity before the first value, NA for an
// operation without one). Worked out by hand.
TEST(Accumulate, OptionsAlongAnOuterAxis) {
    const unsigned SKIP = CK_REDUCE_SKIPNA;
    const char *four = "[[1, NA], [2, 3], [NA, 4], [5, 6]]";
    const OptionCase cases[] = {
        {"cumsum", "4 * 2 * ?int32", four, 0, 0, "[[1, NA], [3, NA], [NA, NA], [NA, NA]]",
         "4 * 2 * ?int64"},
        {"cumsum", "4 * 2 * ?int32", four, 0, SKIP, "[[1, 0], [3, 3], [3, 7], [8, 13]]",
         "4 * 2 * ?int64"},
        {"cumprod", "4 * 2 * ?int32", four, 0, SKIP, "[[1, 1], [2, 3], [2, 12], [10, 72]]",
         "4 * 2 * ?int64"},
        {"cummax", "4 * 2 * ?int32", four, 0, SKIP, "[[1, NA], [2, 3], [2, 4], [5, 6]]",
         "4 * 2 * ?int32"},
        {"cummax", "4 * 2 * ?int32", four, 0, 0, "[[1, NA], [2, NA], [NA, NA], [NA, NA]]",
         "4 * 2 * ?int32"},
        {"cummin", "3 * 2 * ?float64", "[[NA, NA], [2, NA], [-1, 4]]", 0, SKIP,
         "[[NA, NA], [2, NA], [-1, 4]]", "3 * 2 * ?float64"},
        // the first value is the source's own (-0 stays -0); a leading NA takes the identity
        {"cumsum", "3 * 2 * ?float64", "[[-0.0, NA], [NA, -0.0], [1, 1]]", 0, SKIP,
         "[[-0, 0], [-0, 0], [1, 1]]", "3 * 2 * ?float64"},
        // a middle axis, a var axis with fixed elements, a kept var dimension above
        {"cumsum", "2 * 2 * 2 * ?float32", "[[[1, NA], [2, 3]], [[4, 5], [NA, 1]]]", 0, 0,
         "[[[1, NA], [2, 3]], [[5, NA], [NA, 4]]]", "2 * 2 * 2 * ?float32"},
        {"cumsum", "2 * 3 * 2 * ?int8", "[[[1, NA], [2, 3], [NA, 1]], [[NA, 1], [1, 1], [1, 1]]]",
         1, SKIP, "[[[1, 0], [3, 3], [3, 4]], [[0, 1], [1, 2], [2, 3]]]", "2 * 3 * 2 * ?int64"},
        {"cumsum", "2 * var * 2 * ?int32", "[[[1, NA], [2, 3]], [[4, 5]]]", 1, 0,
         "[[[1, NA], [3, NA]], [[4, 5]]]", "2 * var * 2 * ?int64"},
        {"cumsum", "var * 2 * ?int16", "[[1, NA], [2, 3], [NA, 4]]", 0, SKIP,
         "[[1, 0], [3, 3], [3, 7]]", "var * 2 * ?int64"},
        {"cummin", "2 * var * 2 * ?uint8", "[[], [[9, NA], [NA, 2], [3, 1]]]", 1, SKIP,
         "[[], [[9, NA], [9, 2], [3, 1]]]", "2 * var * 2 * ?uint8"},
        {"cumsum", "0 * 2 * ?int32", "[]", 0, SKIP, "[]", "0 * 2 * ?int64"},
    };
    expect_option_cases(cases);
}

// An outer axis and the innermost axis are two kernels (reduce_option's elementwise folds,
// option_scan's runs): the columns of random data accumulated along axis 0 equal the rows of
// its transpose accumulated along axis 1, bit for bit.
TEST(Accumulate, OptionsAlongAnOuterAxisEqualTheTransposedRows) {
    uint64_t seed = 0x9e3779b97f4a7c15u;
    auto next = [&seed]() {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        return seed;
    };
    const char *names[] = {"cumsum", "cumprod", "cummin", "cummax"};
    const char *types[] = {"?int32", "?float64", "?int8", "?float32"};
    for (int round = 0; round < 64; round++) {
        const int rows = 1 + (int)(next() % 9), cols = 1 + (int)(next() % 5);
        const char *name = names[next() % 4], *scalar = types[next() % 4];
        const unsigned flags = (next() & 1) != 0 ? CK_REDUCE_SKIPNA : 0u;
        const int floats = scalar[1] == 'f';
        std::vector<std::string> cell((size_t)rows * (size_t)cols);
        for (std::string &e : cell) {
            const uint64_t r = next();
            e = r % 5 == 0 ? "NA"
                : floats   ? std::to_string((double)(int64_t)(r % 2001 - 1000) / 8.0)
                           : std::to_string((int64_t)(r % 7) - 3);
        }
        auto literal = [&](bool transposed) {
            const int outer = transposed ? cols : rows, inner = transposed ? rows : cols;
            std::string s = "[";
            for (int i = 0; i < outer; i++) {
                s += i != 0 ? ", [" : "[";
                for (int j = 0; j < inner; j++) {
                    s += (j != 0 ? ", " : "") +
                         cell[transposed ? (size_t)j * (size_t)cols + (size_t)i
                                         : (size_t)i * (size_t)cols + (size_t)j];
                }
                s += "]";
            }
            return s + "]";
        };
        const std::string t = std::to_string(rows) + " * " + std::to_string(cols) + " * " + scalar;
        const std::string tt =
            std::to_string(cols) + " * " + std::to_string(rows) + " * " + scalar;
        const rs::Outcome a =
            rs::run(rs::Kind::accumulate, name, t.c_str(), literal(false).c_str(), {0}, flags);
        const rs::Outcome b =
            rs::run(rs::Kind::accumulate, name, tt.c_str(), literal(true).c_str(), {1}, flags);
        ASSERT_EQ(a.rc, CK_OK) << a.message;
        ASSERT_EQ(b.rc, CK_OK) << b.message;
        // b's rows are a's columns: read b back in a's order through its text
        ckt::Array bt(b.type.c_str(), b.value.c_str());
        ckt::Array at(a.type.c_str(), a.value.c_str());
        const size_t es =
            ck_type_data_size(ck_array_type(at.get())) / ((size_t)rows * (size_t)cols);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                const char *x = at.data() + ((size_t)i * (size_t)cols + (size_t)j) * es;
                const char *y = bt.data() + ((size_t)j * (size_t)rows + (size_t)i) * es;
                ASSERT_EQ(std::memcmp(x, y, es), 0)
                    << name << " flags " << flags << " of " << t << " " << literal(false)
                    << " at [" << i << "][" << j << "]: " << a.value << " vs " << b.value;
            }
        }
    }
}

TEST(Accumulate, OptionsOfAUsersCallable) {
    ck_callable *c = nullptr;
    ck_factory f = rs::gcd_factory();
    ASSERT_EQ(ck_callable_new("gcd_opt_acc", &c), CK_OK);
    ASSERT_EQ(ck_callable_add(c, "qq)q", &f), CK_OK);
    ckt::Array a("5 * ?int64", "[NA, 12, NA, 18, 5]");
    EXPECT_EQ(accumulated(c, a.get(), 0), "[NA, NA, NA, NA, NA]");
    EXPECT_EQ(accumulated(c, a.get(), 0, CK_REDUCE_SKIPNA), "[NA, 12, 12, 6, 1]");
    // with an identity, leading NA take it under skipna
    ASSERT_EQ(ck_callable_set_identity(c, "0"), CK_OK);
    EXPECT_EQ(accumulated(c, a.get(), 0, CK_REDUCE_SKIPNA), "[0, 12, 12, 6, 1]");
    // along an outer axis, column by column
    ckt::Array b("3 * 2 * ?int64", "[[NA, 12], [18, NA], [4, 9]]");
    EXPECT_EQ(accumulated(c, b.get(), 0), "[[NA, 12], [NA, NA], [NA, NA]]");
    EXPECT_EQ(accumulated(c, b.get(), 0, CK_REDUCE_SKIPNA), "[[0, 12], [18, 12], [2, 3]]");
    ck_callable_decref(c);
    ASSERT_EQ(ck_callable_new("gcd_opt_acc_outer", &c), CK_OK);
    ASSERT_EQ(ck_callable_add(c, "qq)q", &f), CK_OK);
    EXPECT_EQ(accumulated(c, b.get(), 0, CK_REDUCE_SKIPNA), "[[NA, 12], [18, 12], [2, 3]]");
    ck_callable_decref(c);
}

TEST(Accumulate, AllocationFailureAtEveryPoint) {
    struct Case {
        const char *name, *type, *literal;
        int axis;
        unsigned flags;
    } cases[] = {
        {"cumsum", "3 * var * int16", "[[1, 2], [], [3, 4, 5]]", 1, 0},
        {"cumprod", "3 * 2 * float32", "[[1, 2], [3, 4], [5, 6]]", 0, 0},
        {"cummax", "var * 3 * int8", "[[1, 2, 3], [0, 9, 1]]", 0, 0},
        {"cumsum", "2 * var * ?int16", "[[1, NA, 3], [NA]]", 1, 0},
        {"cummin", "2 * var * 2 * ?float64", "[[[1, NA], [NA, 2]], [[NA, 3]]]", 1,
         CK_REDUCE_SKIPNA},
        {"cumsum", "3 * 2 * ?int32", "[[1, NA], [NA, 2], [3, 4]]", 0, CK_REDUCE_SKIPNA},
    };
    for (const Case &c : cases) {
        EXPECT_GT(rs::alloc_failure_points(rs::Kind::accumulate, c.name, c.type, c.literal,
                                           {c.axis}, c.flags),
                  3)
            << c.name << " " << c.type;
    }
}

}  // namespace
