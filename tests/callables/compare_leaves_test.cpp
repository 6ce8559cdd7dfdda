// tests/callables/compare_leaves_test.cpp: the built-in comparison leaves (equal, not_equal,
// less, less_equal, greater, greater_equal; src/leaves/numeric/compare_ops.h, compiled per CPU
// target in arith.dispatch.c) for every (op, type) under every compiled CPU target this machine
// runs, built through ck__make_compare_leaf and called through the kernel ABI: every pair of a
// table of values per type (extremes, zeros of both signs, infinities, NaNs, bool bytes other
// than 0 and 1, float16 subnormals), single and strided (contiguous, broadcast either side,
// negative and general strides), the destination bytes outside the elements untouched.
//
// The oracle shares nothing with the leaves: each value is also written as an exact long
// double (integers up to 2^64, float16 decoded from its bits by hand, bool as its truth
// value), and a comparison is a three-way answer of those: unordered when a NaN is involved
// (every comparison false but not_equal), else the sign of the difference. Complex values
// order lexicographically, NumPy 1.24's rule, which is: a NaN in either part of either operand
// makes the pair unordered; else compare the real parts, then the imaginary ones.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "target_fixture.hpp"
extern "C" {
#include "leaves/numeric/compare_leaves.h"
}

namespace {

// One value: its bytes and its exact value: an integer's as sign and magnitude (a long
// double is no wider than double on some hosts: int64's extremes would compare equal), a
// float's in long double (complex: two parts).
struct Val {
    unsigned char b[16];
    long double re, im;
    bool integer, negative;
    uint64_t magnitude;
};

struct TypeCase {
    ck_type_id id;
    size_t size;
    std::vector<Val> vals;
};

template <typename T>
Val make(T x, long double re, long double im = 0) {
    Val v;
    std::memset(v.b, 0, sizeof v.b);
    std::memcpy(v.b, &x, sizeof x);
    v.re = re;
    v.im = im;
    v.integer = false;
    return v;
}

template <typename T>
Val make_int(T x) {
    Val v = make(x, 0);
    v.integer = true;
    v.negative = x < 0;
    v.magnitude = v.negative ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
    return v;
}

// binary16 bits to their exact value, by the format's definition.
long double half_value(uint16_t h) {
    const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    const long double sign = (h & 0x8000) ? -1.0L : 1.0L;
    if (e == 0x1f) return m ? std::numeric_limits<long double>::quiet_NaN() : sign * INFINITY;
    if (e == 0) return sign * std::ldexp(static_cast<long double>(m), -24);
    return sign * std::ldexp(static_cast<long double>(m | 0x400), e - 25);
}

template <typename T>
std::vector<Val> ints() {
    std::vector<Val> v;
    const T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    const T vals[] = {lo, static_cast<T>(lo + 1), static_cast<T>(-1), 0, 1, 2,
                      static_cast<T>(hi - 1), hi};
    for (T x : vals) v.push_back(make_int(x));
    return v;
}

template <typename T>
std::vector<Val> floats() {
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    const T vals[] = {-inf, std::numeric_limits<T>::lowest(), -1, static_cast<T>(-0.0), 0,
                      std::numeric_limits<T>::denorm_min(), 1, static_cast<T>(1.5),
                      std::numeric_limits<T>::max(), inf, nan, -nan};
    std::vector<Val> v;
    for (T x : vals) v.push_back(make(x, static_cast<long double>(x)));
    return v;
}

template <typename T>
std::vector<Val> complexes() {
    const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
    const T parts[][2] = {{0, 0}, {static_cast<T>(-0.0), 0}, {0, 1}, {0, -1}, {1, -5}, {1, 5},
                          {-1, 7}, {inf, 0}, {-inf, inf}, {nan, 0}, {0, nan}, {1, nan}};
    std::vector<Val> v;
    for (auto &p : parts) {
        T both[2] = {p[0], p[1]};
        Val x;
        std::memset(x.b, 0, sizeof x.b);
        std::memcpy(x.b, both, sizeof both);
        x.integer = false;
        x.re = p[0];
        x.im = p[1];
        v.push_back(x);
    }
    return v;
}

std::vector<TypeCase> type_cases() {
    std::vector<TypeCase> t;
    std::vector<Val> bools;
    for (uint8_t x : {0, 1, 2, 255}) {
        Val v = make_int(x);
        v.magnitude = x != 0;
        bools.push_back(v);
    }
    t.push_back({CK_TYPE_BOOL, 1, bools});
    t.push_back({CK_TYPE_INT8, 1, ints<int8_t>()});
    t.push_back({CK_TYPE_INT16, 2, ints<int16_t>()});
    t.push_back({CK_TYPE_INT32, 4, ints<int32_t>()});
    t.push_back({CK_TYPE_INT64, 8, ints<int64_t>()});
    t.push_back({CK_TYPE_UINT8, 1, ints<uint8_t>()});
    t.push_back({CK_TYPE_UINT16, 2, ints<uint16_t>()});
    t.push_back({CK_TYPE_UINT32, 4, ints<uint32_t>()});
    t.push_back({CK_TYPE_UINT64, 8, ints<uint64_t>()});
    std::vector<Val> halves;
    for (uint16_t h : {0xfc00, 0xfbff, 0xbc00, 0x8000, 0x0000, 0x0001, 0x03ff, 0x0400, 0x3c00,
                       0x3c01, 0x7bff, 0x7c00, 0x7e00, 0xfe01}) {
        halves.push_back(make(h, half_value(h)));
    }
    t.push_back({CK_TYPE_FLOAT16, 2, halves});
    t.push_back({CK_TYPE_FLOAT32, 4, floats<float>()});
    t.push_back({CK_TYPE_FLOAT64, 8, floats<double>()});
    t.push_back({CK_TYPE_COMPLEX64, 8, complexes<float>()});
    t.push_back({CK_TYPE_COMPLEX128, 16, complexes<double>()});
    return t;
}

// The oracle: 2 unordered, else -1, 0, 1.
int order(const Val &a, const Val &b) {
    if (a.integer && b.integer) {
        if (a.negative != b.negative) return a.negative ? -1 : 1;
        if (a.magnitude == b.magnitude) return 0;
        return (a.magnitude < b.magnitude) != a.negative ? -1 : 1;
    }
    if (std::isnan(a.re) || std::isnan(a.im) || std::isnan(b.re) || std::isnan(b.im)) return 2;
    if (a.re != b.re) return a.re < b.re ? -1 : 1;
    if (a.im != b.im) return a.im < b.im ? -1 : 1;
    return 0;
}

bool expected(int op, int o) {
    if (o == 2) return op == CK__COMPARE_NOT_EQUAL;
    switch (op) {
    case CK__COMPARE_EQUAL: return o == 0;
    case CK__COMPARE_NOT_EQUAL: return o != 0;
    case CK__COMPARE_LESS: return o < 0;
    case CK__COMPARE_LESS_EQUAL: return o <= 0;
    case CK__COMPARE_GREATER: return o > 0;
    default: return o >= 0;
    }
}

using ckt::kTargets;
using ckt::Target;
class CompareLeaves : public ckt::TargetCapped {};

// Element strides of dst, src0, src1.
struct Layout {
    const char *name;
    intptr_t dst, s0, s1;
};
const Layout kLayouts[] = {{"contiguous", 1, 1, 1}, {"src0 broadcast", 1, 0, 1},
                           {"src1 broadcast", 1, 1, 0}, {"negative", -1, -2, -1},
                           {"general", 3, 2, 5}};

TEST_P(CompareLeaves, EveryPairOfEveryType) {
    int64_t checked = 0;
    for (const TypeCase &tc : type_cases()) {
        for (int op = 0; op < CK__COMPARE_NUM_OPS; op++) {
            ck_builder b;
            ck_builder_init(&b);
            size_t off = 0;
            ASSERT_EQ(ck__make_compare_leaf(&b, &off, static_cast<ck__compare_op>(op), tc.id,
                                            CK_REQUEST_STRIDED),
                      CK_OK)
                << ck_last_error();
            ck_prefix *leaf = ck_builder_root(&b);
            ck_strided_fn fn = ck_prefix_strided(leaf);
            const std::string what = std::string(ck__compare_op_name(static_cast<ck__compare_op>(op))) +
                                     " " + ck_type_id_name(tc.id) + " [" + GetParam().name + "]";
            const size_t nv = tc.vals.size(), es = tc.size;
            for (const Layout &l : kLayouts) {
                // The pairs (i, j) as two runs of nv * nv elements; a broadcast side holds one
                // value per run, so it goes over every value run by run.
                for (size_t fixed = 0; fixed < (l.s0 == 0 || l.s1 == 0 ? nv : 1); fixed++) {
                    const size_t n = l.s0 == 0 || l.s1 == 0 ? nv : nv * nv;
                    auto span = [&](intptr_t s) { return n * static_cast<size_t>(s < 0 ? -s : (s == 0 ? 1 : s)); };
                    std::vector<unsigned char> abuf(span(l.s0) * es + 16), bbuf(span(l.s1) * es + 16);
                    std::vector<unsigned char> dbuf(span(l.dst) + 64, 0xa5);
                    const intptr_t ies = static_cast<intptr_t>(es);
                    // 16-byte aligned starts
                    auto aligned = [](std::vector<unsigned char> &v, size_t bytes, intptr_t s) {
                        uintptr_t p = reinterpret_cast<uintptr_t>(v.data());
                        p = (p + 15) & ~static_cast<uintptr_t>(15);
                        return reinterpret_cast<unsigned char *>(p) + (s < 0 ? bytes - 0 : 0);
                    };
                    unsigned char *a0 = aligned(abuf, (span(l.s0) - 1) * es, l.s0);
                    unsigned char *b0 = aligned(bbuf, (span(l.s1) - 1) * es, l.s1);
                    unsigned char *d0 = dbuf.data() + 32 + (l.dst < 0 ? span(l.dst) - 1 : 0);
                    std::vector<std::pair<size_t, size_t>> pairs(n);
                    for (size_t i = 0; i < n; i++) {
                        size_t x = l.s0 == 0 ? fixed : (l.s1 == 0 ? i : i / nv);
                        size_t y = l.s1 == 0 ? fixed : (l.s0 == 0 ? i : i % nv);
                        pairs[i] = {x, y};
                        std::memcpy(a0 + static_cast<intptr_t>(i) * l.s0 * ies, tc.vals[x].b, es);
                        std::memcpy(b0 + static_cast<intptr_t>(i) * l.s1 * ies, tc.vals[y].b, es);
                    }
                    const std::vector<unsigned char> before = dbuf;
                    char *src[2] = {reinterpret_cast<char *>(a0), reinterpret_cast<char *>(b0)};
                    const intptr_t ss[2] = {l.s0 * ies, l.s1 * ies};
                    ASSERT_EQ(fn(leaf, reinterpret_cast<char *>(d0), l.dst, src, ss, n), CK_OK);
                    std::vector<bool> written(dbuf.size(), false);
                    for (size_t i = 0; i < n; i++) {
                        const unsigned char *pd = d0 + static_cast<intptr_t>(i) * l.dst;
                        const bool want = expected(op, order(tc.vals[pairs[i].first], tc.vals[pairs[i].second]));
                        ASSERT_EQ(*pd, want ? 1 : 0)
                            << what << " " << l.name << " pair " << pairs[i].first << ", "
                            << pairs[i].second;
                        written[static_cast<size_t>(pd - dbuf.data())] = true;
                        checked++;
                    }
                    for (size_t k = 0; k < dbuf.size(); k++) {
                        if (!written[k]) {
                            ASSERT_EQ(dbuf[k], before[k]) << what << " " << l.name << " byte " << k;
                        }
                    }
                }
            }
            // single: the first and last pairs
            ck_builder_destroy(&b);
            ck_builder_init(&b);
            off = 0;
            ASSERT_EQ(ck__make_compare_leaf(&b, &off, static_cast<ck__compare_op>(op), tc.id,
                                            CK_REQUEST_SINGLE),
                      CK_OK);
            ck_single_fn one = ck_prefix_single(ck_builder_root(&b));
            for (size_t i = 0; i < nv; i++) {
                alignas(16) unsigned char x[16], y[16];
                std::memcpy(x, tc.vals[i].b, 16);
                std::memcpy(y, tc.vals[nv - 1 - i].b, 16);
                unsigned char d = 0xa5;
                char *src[2] = {reinterpret_cast<char *>(x), reinterpret_cast<char *>(y)};
                ASSERT_EQ(one(ck_builder_root(&b), reinterpret_cast<char *>(&d), src), CK_OK);
                EXPECT_EQ(d, expected(op, order(tc.vals[i], tc.vals[nv - 1 - i])) ? 1 : 0)
                    << what << " single " << i;
            }
            ck_builder_destroy(&b);
        }
    }
    EXPECT_GT(checked, 10000);
}

TEST(CompareLeavesNames, NamesAndRefusals) {
    const char *names[] = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"};
    for (int op = 0; op < CK__COMPARE_NUM_OPS; op++) {
        EXPECT_STREQ(ck__compare_op_name(static_cast<ck__compare_op>(op)), names[op]);
    }
    EXPECT_EQ(ck__compare_op_name(CK__COMPARE_NUM_OPS), nullptr);
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    EXPECT_EQ(ck__make_compare_leaf(&b, &off, CK__COMPARE_LESS, CK_TYPE_STRING, CK_REQUEST_SINGLE),
              CK_ERR_INTERNAL);
    ck_builder_destroy(&b);
}

INSTANTIATE_TEST_SUITE_P(Targets, CompareLeaves, ::testing::ValuesIn(kTargets), ckt::target_name);

}  // namespace
