// tests/cast/scalar_leaves_test.cpp: the scalar assignment leaves (ck__scalar_leaves_baseline,
// src/leaves/numeric/scalar_assign.dispatch.c) for all 14 x 14 pairs x 4 error modes, single and
// strided, called through the kernel ABI exactly as the composition calls them.
//
// The expected results come from an oracle (tests/support/scalar_oracle.c, shared with the
// composition fuzzer) that shares nothing with the code under test: every
// source value is held exactly (an integer as sign and magnitude, a float as a long double),
// the rules of docs/design.md §7 are applied with exact comparisons, integers become floats by
// the definition's rounding of their magnitude, floats become float32/float64 by C's own long
// double -> float/double conversions (one rounding), float16 results come from a definitional
// binary16 oracle (values by ldexpl, rounding by comparison with the exact midpoint) that is
// itself checked against the C compiler's _Float16 where it has one, and integer wrap-around
// takes the low bytes of the two's complement value. DyND's named cases are checked from a hand-written table, with their
// messages.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
extern "C" {
#include "common/float16.h"
#include "leaves/numeric/scalar_leaves.h"
}
#include "float16_ref.h"
#include "half_exact.hpp"
#include "scalar_oracle.h"
#include "scalar_assign.dispatch.h"  // generated: the targets this build compiled

// One table per compiled target (scalar_assign.dispatch.c compiled with each target's flags).
#define CKT_DECLARE_TABLE(target, id) extern "C" const ck__leaf_table ck__scalar_leaves_##target;
CK_DISPATCH_TARGETS_scalar_assign(CKT_DECLARE_TABLE)
#undef CKT_DECLARE_TABLE

namespace {


constexpr int kModes = CK_NUM_ERRMODES;
const char *const kModeNames[kModes] = {"nocheck", "overflow", "fractional", "inexact"};

// ---------------------------------------------------------------------------------------
// The oracle (tests/support/scalar_oracle.c, shared with the composition fuzzer)
// ---------------------------------------------------------------------------------------
using TInfo = ckt_scalar_info;
using Elem = ckt_elem;
using Expect = ckt_expect;

const TInfo &T(int id) {
    return *ckt_scalar(id);
}
using ckt::half_pos;
using ckt::half_value;
using ckt::round_to_half;
void put_low_bytes(unsigned char *out, uint64_t bits, size_t size) {
    ckt_put_low_bytes(out, bits, size);
}
template <class U>
U load(const unsigned char *p) {
    U u;
    std::memcpy(&u, p, sizeof u);
    return u;
}
Expect oracle(const TInfo &d, const TInfo &s, int mode, const unsigned char *src) {
    return ckt_oracle(d.id, s.id, mode, src);
}
// An element written by the leaf against the expectation: bit-exact, except where the
// oracle only says "NaN".
bool matches(const TInfo &d, const Expect &e, const unsigned char *got) {
    return ckt_oracle_matches(d.id, &e, got) != 0;
}

std::string hex(const unsigned char *p, size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (size_t i = n; i-- > 0;) {  // little endian: most significant byte first
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

// ---------------------------------------------------------------------------------------
// Edge values per source type
// ---------------------------------------------------------------------------------------
Elem from_bits(const void *p, size_t n) {
    Elem e{};
    std::memcpy(e.b, p, n);
    return e;
}

// Integers as sign and magnitude (exact on every host): v, 2^e + a, -(2^e + a).
ckt_int I(int64_t v) {
    return {v < 0, v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v)};
}
ckt_int P(int e, int64_t a) {
    return {0, (e == 64 ? 0 : uint64_t{1} << e) + static_cast<uint64_t>(a)};
}
ckt_int N(int e, int64_t a) {
    return {1, (uint64_t{1} << e) + static_cast<uint64_t>(a)};
}

std::vector<ckt_int> integer_candidates() {
    return {P(62, (int64_t{1} << 54) + 1),  // just above a bfloat16 tie that a
            P(63, (int64_t{1} << 55) + 1),  // double (53 bits) would round onto
            N(62, (int64_t{1} << 54) + 1),
            I(0), I(1), I(-1), I(2), I(-2), I(3), I(7), I(127), I(128), I(-128), I(-129),
            I(255), I(256), I(-255),
            I(257),   // bfloat16: a tie between 256 and 258, to even (256)
            I(259),   // a tie, to even (260)
            I(-385),  // between -384 and -386: a tie, to even (-384)
            I(1000), I(2047), I(2048), I(2049), I(4097), I(32767), I(32768), I(-32768),
            I(-32769), I(65503), I(65504), I(65505), I(65519), I(65520), I(65535), I(65536),
            I(-65520), I(16777216), I(16777217), I(-16777217), I(33554433), I(2147483647),
            I(2147483648), I(-2147483648), I(-2147483649), I(4294967295), I(4294967296),
            P(53, 0), P(53, 1), N(53, 1),
            // int64 -> float64 rounds to nearest even: ties down and up, and either side
            P(53, 3), N(53, 3), P(54, 1), P(54, 2), P(54, 3), P(54, 6),
            P(63, -512),  // a tie: rounds up to 2^63
            P(63, -513), N(63, -512), P(62, 1),
            P(63, -1),  // INT64_MAX
            N(63, 0),   // INT64_MIN
            N(63, -1), P(63, 0), P(63, 1),
            P(63, (int64_t{1} << 62) + (int64_t{1} << 61)),
            P(64, -1),  // UINT64_MAX
            P(64, -2)};
}

std::vector<double> float_candidates() {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    double snan, payload_nan;
    const uint64_t snan_bits = 0x7ff0000000000001ULL, payload_bits = 0xfff8000000abcdefULL;
    std::memcpy(&snan, &snan_bits, 8);
    std::memcpy(&payload_nan, &payload_bits, 8);
    return {0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -0.5,
            0.75,
            1.5,
            -1.5,
            2.5,
            -2.5,
            -10.25,
            1.0 / 3.0,
            0.1,
            127.0,
            127.5,
            128.0,
            -128.0,
            -128.5,
            -129.0,
            255.0,
            255.5,
            256.0,
            -0.99,
            2049.0,
            32767.5,
            -32768.5,
            65504.0,
            65505.0,
            65519.99,
            65520.0,
            65536.0,
            2147483647.0,
            2147483647.5,
            2147483647.9,
            2147483647.9999998,  // the largest double below 2^31
            2147483648.0,
            2147483648.0000005,  // the next double above 2^31
            -2147483647.5,
            -2147483648.0,
            -2147483648.5,
            -2147483648.9,
            -2147483648.9999998,  // the next double above -2^31 - 1: truncates in range
            -2147483649.0,
            -2147483649.0000005,  // the next double below -2^31 - 1
            1e10,
            -1e10,
            4294967295.0,
            4294967295.5,
            4294967296.0,
            16777217.0,
            33554433.0,
            9007199254740992.0,
            9007199254740994.0,
            9223372036854774784.0,   // largest double below 2^63
            9223372036854775808.0,   // 2^63
            -9223372036854775808.0,  // -2^63
            -9223372036854777856.0,  // next below -2^63
            18446744073709549568.0,  // largest double below 2^64
            18446744073709551616.0,  // 2^64
            16140901064495857664.0,
            1e21,
            -1e21,
            1e300,
            -1e300,
            -1.5e250,
            3.4028234663852886e38,  // FLT_MAX
            3.4028235677973366e38,  // the midpoint above FLT_MAX: rounds to inf
            3.4028235677973362e38,  // just below it: rounds to FLT_MAX
            1.1754943508222875e-38,  // FLT_MIN
            5.877471754111438e-39,   // FLT_MIN / 2: float subnormal
            1.401298464324817e-45,   // smallest float subnormal
            7.006492321624085e-46,   // half of it: a tie, rounds to 0
            1e-300,
            4.9406564584124654e-324,  // smallest double subnormal
            2.2250738585072014e-308,  // DBL_MIN
            3.3895313892515355e38,    // the largest bfloat16
            3.3961775292304611e38,    // its midpoint with 2^128: rounds to inf in bfloat16
            9.183549615799121e-41,    // 2^-133, the smallest bfloat16 subnormal
            4.591774807899561e-41,    // 2^-134: a tie, rounds to 0 in bfloat16
            1.00390625,               // 1 + 2^-8: a bfloat16 tie, to even (1)
            1.01171875,               // 1 + 3 * 2^-8: a tie, to even (1 + 2^-6)
            1.0039062500000002,       // just above the first tie: rounds up
            6.103515625e-05,          // 2^-14, the smallest normal half
            5.960464477539063e-08,    // 2^-24, the smallest subnormal half
            2.9802322387695312e-08,   // 2^-25: a tie, rounds to 0 in float16
            3e-08,
            inf,
            -inf,
            nan,
            -nan,
            snan,
            payload_nan};
}

std::vector<Elem> edge_values(const TInfo &t) {
    std::vector<Elem> out;
    if (t.kind == 'B') {
        for (unsigned char b : {0, 1, 2, 255}) {
            out.push_back(from_bits(&b, 1));
        }
        return out;
    }
    if (t.kind == 'S' || t.kind == 'U') {
        std::vector<ckt_int> c = integer_candidates();
        // the type's least and greatest, and one inside each
        const uint64_t lo = ckt_int_min_bits(&t), hi = ckt_int_max_bits(&t);
        c.push_back(t.kind == 'S' ? ckt_int{1, 0 - lo} : ckt_int{0, 0});
        c.push_back(t.kind == 'S' ? ckt_int{1, 0 - lo - 1} : ckt_int{0, 1});
        c.push_back(ckt_int{0, hi});
        c.push_back(ckt_int{0, hi - 1});
        for (const ckt_int &x : c) {
            if (!ckt_int_fits(&t, x)) {
                continue;
            }
            Elem e{};
            put_low_bytes(e.b, ckt_int_bits(x), t.size);
            out.push_back(e);
        }
        return out;
    }
    std::vector<double> reals = float_candidates();
    if (t.kind == 'H') {
        for (double x : reals) {
            uint16_t h;
            if (std::isnan(x)) {
                h = std::signbit(x) ? 0xfe00 : 0x7e00;
            } else {
                h = round_to_half(x);
            }
            out.push_back(from_bits(&h, 2));
        }
        const uint16_t extra[] = {0x0001, 0x03ff, 0x0400, 0x7bff, 0xfbff, 0x7c01, 0x7d23, 0x8001,
                                  0x3555 /* ~1/3 */};
        for (uint16_t h : extra) {
            out.push_back(from_bits(&h, 2));
        }
        return out;
    }
    if (t.kind == 'G') {
        for (double x : reals) {
            uint16_t h;
            if (std::isnan(x)) {
                h = std::signbit(x) ? 0xffc0 : 0x7fc0;
            } else {
                h = ckt_round_to_bf16(x);
            }
            out.push_back(from_bits(&h, 2));
        }
        // subnormals, the largest finite, a signalling NaN, the NA's bits, ~1/3
        const uint16_t extra[] = {0x0001, 0x007f, 0x0080, 0x7f7f, 0xff7f, 0x7f81, 0x7fe2, 0x8001,
                                  0x3eab};
        for (uint16_t h : extra) {
            out.push_back(from_bits(&h, 2));
        }
        return out;
    }
    if (t.kind == 'F') {
        for (double x : reals) {
            const float f = static_cast<float>(x);
            out.push_back(from_bits(&f, 4));
        }
        const uint32_t snan = 0x7f800001u;
        out.push_back(from_bits(&snan, 4));
        return out;
    }
    if (t.kind == 'D') {
        for (double x : reals) {
            out.push_back(from_bits(&x, 8));
        }
        return out;
    }
    // complex: real parts x imaginary parts
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const double re_list[] = {0.0,   -0.0,   1.0,     -1.0,      1.5,   -10.25,   127.0,
                              128.0, 255.0,  256.0,   1.0 / 3,   65520, 16777217, 33554433,
                              1e21,  -1e21,  -1.5e250, 1e300,     9223372036854775808.0,
                              3e-8,  5.877471754111438e-39, inf, -inf, nan};
    const double im_list[] = {0.0, -0.0, 0.125, 1.0, -1.0, 1e-300, 1.0 / 3, nan, inf};
    for (double re : re_list) {
        for (double im : im_list) {
            Elem e{};
            if (t.id == CK_TYPE_COMPLEX64) {
                const float p[2] = {static_cast<float>(re), static_cast<float>(im)};
                std::memcpy(e.b, p, 8);
            } else {
                const double p[2] = {re, im};
                std::memcpy(e.b, p, 16);
            }
            out.push_back(e);
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------
// Calling the leaves through the ABI
// ---------------------------------------------------------------------------------------
struct Target {
    const char *name;
    ck_cpu_target id;
    const ck__leaf_table *table;
};
#define CKT_TARGET_ENTRY(target, id) Target{#target, id, &ck__scalar_leaves_##target},
const Target kTargets[] = {CK_DISPATCH_TARGETS_scalar_assign(CKT_TARGET_ENTRY)};
#undef CKT_TARGET_ENTRY

const ck__leaf_table *g_table = nullptr;  // the table under test (set by each test)

const ck__leaf_fns &leaf(int d, int s, int mode) {
    return (*g_table)[d][s][mode];
}

int call_single(int d, int s, int mode, unsigned char *dst, const unsigned char *src) {
    ck_prefix p = {nullptr, nullptr};
    ck_prefix_set_function(&p, CK_REQUEST_SINGLE, leaf(d, s, mode).single,
                           leaf(d, s, mode).strided);
    char *sp = const_cast<char *>(reinterpret_cast<const char *>(src));
    return ck_call_single(&p, reinterpret_cast<char *>(dst), &sp);
}

int call_strided(int d, int s, int mode, unsigned char *dst, intptr_t dst_stride,
                 const unsigned char *src, intptr_t src_stride, size_t count) {
    ck_prefix p = {nullptr, nullptr};
    ck_prefix_set_function(&p, CK_REQUEST_STRIDED, leaf(d, s, mode).single,
                           leaf(d, s, mode).strided);
    char *sp = const_cast<char *>(reinterpret_cast<const char *>(src));
    return ck_call_strided(&p, reinterpret_cast<char *>(dst), dst_stride, &sp, &src_stride,
                           count);
}

std::string pair_name(int d, int s, int mode) {
    return std::string(T(s).name) + " -> " + T(d).name + " (" + kModeNames[mode] + ")";
}

// ---------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------

TEST(CastOracle, HalfOracleAgreesWithCompiler) {
    // The definitional oracle decodes every half like the compiler and rounds like it.
    if (!ckt_ref_have_float16()) {
        GTEST_SKIP() << "the C compiler has no _Float16";
    }
    for (uint32_t h = 0; h < 65536; h++) {
        const double want = ckt_ref_half_to_double(static_cast<uint16_t>(h));
        const long double got = half_value(static_cast<uint16_t>(h));
        if (std::isnan(want)) {
            ASSERT_TRUE(std::isnan(got)) << h;
        } else {
            ASSERT_EQ(static_cast<long double>(want), got) << h;
        }
    }
    for (double x : float_candidates()) {
        if (std::isnan(x)) {
            continue;
        }
        ASSERT_EQ(ckt_ref_double_to_half(x), round_to_half(x)) << x;
        for (double y : {std::nextafter(x, 0.0), std::nextafter(x, 1e300)}) {
            ASSERT_EQ(ckt_ref_double_to_half(y), round_to_half(y)) << y;
        }
    }
    // every midpoint between neighbouring halves, and one ulp either side
    for (uint16_t h = 0; h < 0x7c00; h++) {
        const double mid = static_cast<double>((half_pos(h) + half_pos(h + 1)) / 2);
        for (double y : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e9)}) {
            ASSERT_EQ(ckt_ref_double_to_half(y), round_to_half(y)) << y;
            ASSERT_EQ(ckt_ref_double_to_half(-y), round_to_half(-y)) << -y;
        }
    }
}

// Every test runs once per compiled target that this machine can execute.
class CastLeaves : public ::testing::TestWithParam<size_t> {
protected:
    void SetUp() override {
        const Target &t = kTargets[GetParam()];
        if (static_cast<int>(t.id) > static_cast<int>(ck_cpu_target_ceiling())) {
            GTEST_SKIP() << "this machine (or CKERNEL_CPU_TARGET) excludes the " << t.name
                         << " target";
        }
        g_table = t.table;
    }
};

TEST_P(CastLeaves, TableIsComplete) {
    for (int d = 0; d < CK_NUM_SCALAR_TYPES; d++) {
        for (int s = 0; s < CK_NUM_SCALAR_TYPES; s++) {
            for (int m = 0; m < kModes; m++) {
                EXPECT_NE(leaf(d, s, m).single, nullptr) << pair_name(d, s, m);
                EXPECT_NE(leaf(d, s, m).strided, nullptr) << pair_name(d, s, m);
            }
        }
    }
}

// Every pair x mode x edge value, one element at a time.
TEST_P(CastLeaves, SingleMatchesOracle) {
    int64_t checks = 0, failures_expected = 0;
    for (int s = 0; s < CK_NUM_SCALAR_TYPES; s++) {
        const std::vector<Elem> values = edge_values(T(s));
        for (int d = 0; d < CK_NUM_SCALAR_TYPES; d++) {
            for (int m = 0; m < kModes; m++) {
                for (const Elem &v : values) {
                    const Expect e = oracle(T(d), T(s), m, v.b);
                    Elem src = v, out;
                    std::memset(out.b, 0xa5, sizeof out.b);
                    ck_clear_error();
                    const int rc = call_single(d, s, m, out.b, src.b);
                    checks++;
                    ASSERT_EQ(0, std::memcmp(src.b, v.b, sizeof v.b)) << "source written";
                    ASSERT_EQ(e.status, rc)
                        << pair_name(d, s, m) << " of 0x" << hex(v.b, T(s).size) << ": got "
                        << ck_status_name(rc) << " (" << ck_last_error() << ")";
                    if (rc == CK_OK) {
                        ASSERT_TRUE(matches(T(d), e, out.b))
                            << pair_name(d, s, m) << " of 0x" << hex(v.b, T(s).size)
                            << ": got 0x" << hex(out.b, T(d).size) << ", want 0x"
                            << hex(e.out.b, T(d).size);
                        ASSERT_EQ(std::string(ck_last_error()), "");
                    } else {
                        failures_expected++;
                        for (size_t i = 0; i < sizeof out.b; i++) {
                            ASSERT_EQ(out.b[i], 0xa5) << pair_name(d, s, m) << ": failed "
                                                      << "element written";
                        }
                        ASSERT_EQ(ck_last_status(), rc);
                        const std::string msg = ck_last_error();
                        EXPECT_NE(msg.find(std::string(T(s).name) + " value "),
                                  std::string::npos)
                            << msg;
                        EXPECT_NE(msg.find(T(d).name), std::string::npos) << msg;
                    }
                }
            }
        }
    }
    EXPECT_GT(checks, 50000);
    EXPECT_GT(failures_expected, 5000);
}

// A strided run over `n` elements of the value list (indices), with the given strides (in
// elements; 0 = broadcast source), checked element by element against the oracle.
struct StridedCase {
    int d, s, m;
    const std::vector<Elem> *values;
    const std::vector<Expect> *expect;
};

void run_strided(const StridedCase &c, const std::vector<size_t> &idx, intptr_t dst_step,
                 intptr_t src_step) {
    const TInfo &dt = T(c.d), &st = T(c.s);
    const size_t n = idx.size();
    const size_t dabs = static_cast<size_t>(dst_step < 0 ? -dst_step : dst_step);
    const size_t sabs = static_cast<size_t>(src_step < 0 ? -src_step : src_step);
    const size_t dslots = n == 0 ? 1 : (n - 1) * dabs + 1;
    const size_t sslots = n == 0 ? 1 : (n - 1) * sabs + 1;
    // Buffers of 16-byte elements hold any type aligned; elements sit at the start of their
    // stride slot; one guard slot on each side.
    std::vector<Elem> dbuf(dslots + 2), sbuf(sslots + 2);
    for (Elem &e : dbuf) {
        std::memset(e.b, 0xa5, sizeof e.b);
    }
    for (Elem &e : sbuf) {
        std::memset(e.b, 0x5a, sizeof e.b);
    }
    unsigned char *dbase = reinterpret_cast<unsigned char *>(dbuf.data()) + sizeof(Elem);
    unsigned char *sbase = reinterpret_cast<unsigned char *>(sbuf.data()) + sizeof(Elem);
    // Element i at base + i * step * esize, with the base at the far end for a negative step.
    const intptr_t dstride = dst_step * static_cast<intptr_t>(dt.size);
    const intptr_t sstride = src_step * static_cast<intptr_t>(st.size);
    unsigned char *d0 = dst_step < 0 ? dbase + (dslots - 1) * dt.size : dbase;
    unsigned char *s0 = src_step < 0 ? sbase + (sslots - 1) * st.size : sbase;
    // Element size steps may be smaller than Elem: address elements in bytes.
    for (size_t i = 0; i < n; i++) {
        if (src_step == 0 && i > 0) {
            break;
        }
        std::memcpy(s0 + static_cast<intptr_t>(i) * sstride, (*c.values)[idx[i]].b, st.size);
    }
    const std::vector<Elem> sbefore = sbuf;
    const std::vector<Elem> dbefore = dbuf;

    // The first failing element (a broadcast source is element idx[0] everywhere).
    size_t fail = n;
    int want = CK_OK;
    for (size_t i = 0; i < n; i++) {
        const Expect &e = (*c.expect)[src_step == 0 ? idx[0] : idx[i]];
        if (e.status != CK_OK) {
            fail = i;
            want = e.status;
            break;
        }
    }
    if (src_step == 0 && fail != n) {
        fail = 0;
    }
    ck_clear_error();
    const int rc = call_strided(c.d, c.s, c.m, d0, dstride, s0, sstride, n);
    const std::string where = pair_name(c.d, c.s, c.m) + " n=" + std::to_string(n) +
                              " steps " + std::to_string(dst_step) + "/" +
                              std::to_string(src_step);
    ASSERT_EQ(want, rc) << where << ": got " << ck_status_name(rc) << " " << ck_last_error();
    ASSERT_EQ(0, std::memcmp(sbefore.data(), sbuf.data(), sbuf.size() * sizeof(Elem)))
        << where << ": source written";
    // Every destination byte: inside element i < fail: the oracle's value (or untouched,
    // which the contract also allows before a failure); element i >= fail and all gaps and
    // guards: untouched.
    std::vector<char> owner(dbuf.size() * sizeof(Elem), 0);
    const unsigned char *dstart = reinterpret_cast<const unsigned char *>(dbuf.data());
    for (size_t i = 0; i < n; i++) {
        unsigned char *el = d0 + static_cast<intptr_t>(i) * dstride;
        const size_t off = static_cast<size_t>(el - dstart);
        const Expect &e = (*c.expect)[src_step == 0 ? idx[0] : idx[i]];
        if (i < fail) {
            const bool untouched =
                rc != CK_OK &&
                std::memcmp(el, reinterpret_cast<const unsigned char *>(dbefore.data()) + off,
                            dt.size) == 0;
            ASSERT_TRUE(untouched || matches(dt, e, el))
                << where << ": element " << i << " got 0x" << hex(el, dt.size) << " want 0x"
                << hex(e.out.b, dt.size);
            for (size_t k = 0; k < dt.size; k++) {
                owner[off + k] = 1;
            }
        }
    }
    const unsigned char *before = reinterpret_cast<const unsigned char *>(dbefore.data());
    for (size_t k = 0; k < owner.size(); k++) {
        if (owner[k] == 0) {
            ASSERT_EQ(before[k], dstart[k])
                << where << ": byte " << k << " written (failing element " << fail << ")";
        }
    }
}

// Element indices into the value list: `n` good values (cycling), optionally with bad ones
// at the given positions.
std::vector<size_t> make_indices(size_t n, const std::vector<size_t> &good,
                                 const std::vector<size_t> &bad, size_t salt,
                                 std::initializer_list<size_t> bad_at) {
    std::vector<size_t> idx(n);
    for (size_t i = 0; i < n; i++) {
        idx[i] = good[(i + salt) % good.size()];
    }
    size_t k = salt;
    for (size_t p : bad_at) {
        if (p < n && !bad.empty()) {
            idx[p] = bad[k++ % bad.size()];
        }
    }
    return idx;
}

TEST_P(CastLeaves, StridedMatchesOracle) {
    int64_t runs = 0;
    for (int s = 0; s < CK_NUM_SCALAR_TYPES; s++) {
        const std::vector<Elem> values = edge_values(T(s));
        for (int d = 0; d < CK_NUM_SCALAR_TYPES; d++) {
            for (int m = 0; m < kModes; m++) {
                std::vector<Expect> expect;
                std::vector<size_t> good, bad;
                for (size_t i = 0; i < values.size(); i++) {
                    expect.push_back(oracle(T(d), T(s), m, values[i].b));
                    (expect.back().status == CK_OK ? good : bad).push_back(i);
                }
                ASSERT_FALSE(good.empty()) << pair_name(d, s, m);
                const StridedCase c{d, s, m, &values, &expect};
                // Contiguous: every length 0..67, so vector bodies and tails are covered.
                for (size_t n = 0; n <= 67; n++) {
                    run_strided(c, make_indices(n, good, bad, n, {}), 1, 1);
                    if (n > 0 && !bad.empty()) {
                        run_strided(c, make_indices(n, good, bad, n, {(n * 7) % n, n - 1}), 1, 1);
                    }
                    runs += 2;
                }
                // Non-unit, negative and broadcast strides.
                const intptr_t steps[][2] = {{2, 3}, {-1, -1}, {3, -2}, {-2, 1}, {1, 0}, {-3, 0}};
                for (size_t n : {0, 1, 2, 3, 5, 8, 15, 16, 17, 33, 67}) {
                    for (const auto &st : steps) {
                        if (HasFatalFailure()) {
                            return;
                        }
                        run_strided(c, make_indices(n, good, bad, n + 1, {}), st[0], st[1]);
                        if (n > 0 && !bad.empty()) {
                            run_strided(c, make_indices(n, good, bad, n, {n / 2, n - 1}), st[0],
                                        st[1]);
                            run_strided(c, make_indices(n, good, bad, n, {0}), st[0], st[1]);
                        }
                        runs += 3;
                    }
                }
                if (HasFatalFailure()) {
                    return;
                }
            }
        }
    }
    EXPECT_GT(runs, 100000);
}

// ---------------------------------------------------------------------------------------
// DyND's named cases, and others spelled out by hand (independent of the oracle above).
// ---------------------------------------------------------------------------------------
Elem i64(int64_t v, const TInfo &t) {
    Elem e{};
    put_low_bytes(e.b, static_cast<uint64_t>(v), t.size);
    return e;
}
Elem u64(uint64_t v) {
    return from_bits(&v, 8);
}
Elem f64(double v) {
    return from_bits(&v, 8);
}
Elem f32(float v) {
    return from_bits(&v, 4);
}
Elem c128(double re, double im) {
    const double p[2] = {re, im};
    return from_bits(p, 16);
}

struct Named {
    const char *what;
    ck_type_id dst, src;
    Elem src_value;
    int status[kModes];
    const char *message;  // substring of the message in the failing modes, or nullptr
};

constexpr int OK = CK_OK, OV = CK_ERR_OVERFLOW, FR = CK_ERR_FRACTIONAL, IX = CK_ERR_INEXACT,
              IM = CK_ERR_IMAGINARY;

TEST_P(CastLeaves, NamedCases) {
    const Named cases[] = {
        {"int8 127 -> bool", CK_TYPE_BOOL, CK_TYPE_INT8, i64(127, T(CK_TYPE_INT8)),
         {OK, OV, OV, OV}, "int8 value 127 is out of range for bool"},
        {"int8 -1 -> uint8", CK_TYPE_UINT8, CK_TYPE_INT8, i64(-1, T(CK_TYPE_INT8)),
         {OK, OV, OV, OV}, "int8 value -1 is out of range for uint8"},
        {"int32 -1 -> uint8", CK_TYPE_UINT8, CK_TYPE_INT32, i64(-1, T(CK_TYPE_INT32)),
         {OK, OV, OV, OV}, "int32 value -1 is out of range for uint8"},
        {"float64 -10.25 -> int32", CK_TYPE_INT32, CK_TYPE_FLOAT64, f64(-10.25),
         {OK, OK, FR, FR}, "float64 value -10.25 has a fractional part (int32)"},
        {"float64 -10.25 -> int8", CK_TYPE_INT8, CK_TYPE_FLOAT64, f64(-10.25),
         {OK, OK, FR, FR}, "float64 value -10.25 has a fractional part (int8)"},
        {"float64 1/3 -> float32", CK_TYPE_FLOAT32, CK_TYPE_FLOAT64, f64(1.0 / 3.0),
         {OK, OK, OK, IX}, "float64 value 0.3333333333333333 is not exact in float32 (0.3333333432674408)"},
        {"float64 -1.5e250 -> float32", CK_TYPE_FLOAT32, CK_TYPE_FLOAT64, f64(-1.5e250),
         {OK, OV, OV, OV}, "float64 value -1.5e+250 is out of range for float32"},
        {"int32 33554433 -> float32", CK_TYPE_FLOAT32, CK_TYPE_INT32,
         i64(33554433, T(CK_TYPE_INT32)), {OK, OK, OK, IX},
         "int32 value 33554433 is not exact in float32 (33554432)"},
        {"int64 33554433 -> float32", CK_TYPE_FLOAT32, CK_TYPE_INT64,
         i64(33554433, T(CK_TYPE_INT64)), {OK, OK, OK, IX},
         "int64 value 33554433 is not exact in float32 (33554432)"},
        {"complex128 (-10.25+0.125j) -> float64", CK_TYPE_FLOAT64, CK_TYPE_COMPLEX128,
         c128(-10.25, 0.125), {OK, IM, IM, IM},
         "complex128 value (-10.25+0.125j) has a non-zero imaginary part (float64)"},
        {"complex128 (-10.25+0.125j) -> int32", CK_TYPE_INT32, CK_TYPE_COMPLEX128,
         c128(-10.25, 0.125), {OK, IM, IM, IM}, "has a non-zero imaginary part (int32)"},
        {"complex128 (-10.25+0j) -> int32", CK_TYPE_INT32, CK_TYPE_COMPLEX128, c128(-10.25, 0),
         {OK, OK, FR, FR}, "complex128 value (-10.25+0j) has a fractional part (int32)"},
        {"float64 1e21 -> int64", CK_TYPE_INT64, CK_TYPE_FLOAT64, f64(1e21), {OK, OV, OV, OV},
         "float64 value 1e+21 is out of range for int64"},
        {"float64 2^63 -> int64", CK_TYPE_INT64, CK_TYPE_FLOAT64, f64(9223372036854775808.0),
         {OK, OV, OV, OV}, "float64 value 9.223372036854776e+18 is out of range for int64"},
        {"float64 -2^63 -> int64", CK_TYPE_INT64, CK_TYPE_FLOAT64, f64(-9223372036854775808.0),
         {OK, OK, OK, OK}, nullptr},
        {"float64 16140901064495857664 -> uint64", CK_TYPE_UINT64, CK_TYPE_FLOAT64,
         f64(16140901064495857664.0), {OK, OK, OK, OK}, nullptr},
        {"uint64 16140901064495857664 -> float64", CK_TYPE_FLOAT64, CK_TYPE_UINT64,
         u64(16140901064495857664ULL), {OK, OK, OK, OK}, nullptr},
        {"uint64 2^64-1 -> float64", CK_TYPE_FLOAT64, CK_TYPE_UINT64, u64(UINT64_MAX),
         {OK, OK, OK, IX}, "uint64 value 18446744073709551615 is not exact in float64"},
        {"float64 300.5 -> int8", CK_TYPE_INT8, CK_TYPE_FLOAT64, f64(300.5), {OK, OV, OV, OV},
         "float64 value 300.5 is out of range for int8"},
        {"float64 -0.5 -> uint8", CK_TYPE_UINT8, CK_TYPE_FLOAT64, f64(-0.5), {OK, OK, FR, FR},
         "float64 value -0.5 has a fractional part (uint8)"},
        {"float64 NaN -> int32", CK_TYPE_INT32, CK_TYPE_FLOAT64,
         f64(std::numeric_limits<double>::quiet_NaN()), {OK, OV, OV, OV},
         "float64 value nan is out of range for int32"},
        {"float64 0.5 -> bool", CK_TYPE_BOOL, CK_TYPE_FLOAT64, f64(0.5), {OK, OV, OV, OV},
         "float64 value 0.5 is out of range for bool"},
        {"float32 65520 -> float16", CK_TYPE_FLOAT16, CK_TYPE_FLOAT32, f32(65520.0f),
         {OK, OV, OV, OV}, "float32 value 65520 is out of range for float16"},
        {"int32 65520 -> float16", CK_TYPE_FLOAT16, CK_TYPE_INT32, i64(65520, T(CK_TYPE_INT32)),
         {OK, OV, OV, OV}, "int32 value 65520 is out of range for float16"},
        {"int32 2049 -> float16", CK_TYPE_FLOAT16, CK_TYPE_INT32, i64(2049, T(CK_TYPE_INT32)),
         {OK, OK, OK, IX}, "int32 value 2049 is not exact in float16 (2048)"},
        {"float64 1e-300 -> float32", CK_TYPE_FLOAT32, CK_TYPE_FLOAT64, f64(1e-300),
         {OK, OK, OK, IX}, "float64 value 1e-300 is not exact in float32 (0)"},
        {"complex128 (1e300+0j) -> complex64", CK_TYPE_COMPLEX64, CK_TYPE_COMPLEX128,
         c128(1e300, 0), {OK, OV, OV, OV},
         "complex128 value (1e+300+0j) is out of range for complex64"},
        {"complex128 (1+0.1j) -> complex64", CK_TYPE_COMPLEX64, CK_TYPE_COMPLEX128,
         c128(1, 0.1), {OK, OK, OK, IX},
         "complex128 value (1+0.1j) is not exact in complex64 ((1+0.10000000149011612j))"},
    };
    for (const Named &c : cases) {
        for (int m = 0; m < kModes; m++) {
            Elem src = c.src_value, out{};
            ck_clear_error();
            const int rc = call_single(c.dst, c.src, m, out.b, src.b);
            EXPECT_EQ(c.status[m], rc) << c.what << " in " << kModeNames[m] << ": "
                                       << ck_status_name(rc) << " " << ck_last_error();
            if (rc != CK_OK && c.message != nullptr) {
                EXPECT_NE(std::string(ck_last_error()).find(c.message), std::string::npos)
                    << c.what << ": " << ck_last_error() << "\n  expected: " << c.message;
            }
        }
    }
}

// Nocheck results of the named cases, spelled out by hand.
TEST_P(CastLeaves, NamedNocheckValues) {
    auto run = [](ck_type_id d, ck_type_id s, Elem src, int mode) {
        Elem out{};
        EXPECT_EQ(CK_OK, call_single(d, s, mode, out.b, src.b)) << ck_last_error();
        return out;
    };
    EXPECT_EQ(255, run(CK_TYPE_UINT8, CK_TYPE_INT8, i64(-1, T(CK_TYPE_INT8)), 0).b[0]);
    EXPECT_EQ(1, run(CK_TYPE_BOOL, CK_TYPE_INT8, i64(127, T(CK_TYPE_INT8)), 0).b[0]);
    EXPECT_EQ(-10, load<int32_t>(run(CK_TYPE_INT32, CK_TYPE_FLOAT64, f64(-10.25), 0).b));
    EXPECT_EQ(-10, load<int32_t>(run(CK_TYPE_INT32, CK_TYPE_FLOAT64, f64(-10.25), 1).b));
    const float neg_inf = load<float>(run(CK_TYPE_FLOAT32, CK_TYPE_FLOAT64, f64(-1.5e250), 0).b);
    EXPECT_TRUE(std::isinf(neg_inf) && neg_inf < 0);
    EXPECT_EQ(33554432.0f,
              load<float>(run(CK_TYPE_FLOAT32, CK_TYPE_INT32, i64(33554433, T(CK_TYPE_INT32)), 0).b));
    EXPECT_EQ(33554432.0f,
              load<float>(run(CK_TYPE_FLOAT32, CK_TYPE_INT32, i64(33554433, T(CK_TYPE_INT32)), 2).b));
    EXPECT_EQ(-10.25, load<double>(run(CK_TYPE_FLOAT64, CK_TYPE_COMPLEX128, c128(-10.25, 0.125), 0).b));
    EXPECT_EQ(INT64_MAX, load<int64_t>(run(CK_TYPE_INT64, CK_TYPE_FLOAT64, f64(1e21), 0).b));
    EXPECT_EQ(INT64_MAX,
              load<int64_t>(run(CK_TYPE_INT64, CK_TYPE_FLOAT64, f64(9223372036854775808.0), 0).b));
    EXPECT_EQ(INT64_MIN, load<int64_t>(run(CK_TYPE_INT64, CK_TYPE_FLOAT64, f64(-1e21), 0).b));
    EXPECT_EQ(0, load<int32_t>(run(CK_TYPE_INT32, CK_TYPE_FLOAT64,
                                   f64(std::numeric_limits<double>::quiet_NaN()), 0).b));
    EXPECT_EQ(UINT64_MAX, load<uint64_t>(run(CK_TYPE_UINT64, CK_TYPE_FLOAT64, f64(1e300), 0).b));
    EXPECT_EQ(0u, load<uint64_t>(run(CK_TYPE_UINT64, CK_TYPE_FLOAT64, f64(-1e300), 0).b));
    EXPECT_EQ(127, static_cast<int8_t>(run(CK_TYPE_INT8, CK_TYPE_FLOAT64, f64(300.5), 0).b[0]));
    EXPECT_EQ(0, run(CK_TYPE_UINT8, CK_TYPE_FLOAT64, f64(-0.5), 1).b[0]);
    EXPECT_EQ(-128, static_cast<int8_t>(run(CK_TYPE_INT8, CK_TYPE_INT32,
                                            i64(128, T(CK_TYPE_INT32)), 0).b[0]));
    EXPECT_EQ(16140901064495857664.0,
              load<double>(run(CK_TYPE_FLOAT64, CK_TYPE_UINT64, u64(16140901064495857664ULL), 3).b));
    EXPECT_EQ(16140901064495857664ULL,
              load<uint64_t>(run(CK_TYPE_UINT64, CK_TYPE_FLOAT64, f64(16140901064495857664.0), 3).b));
    // float16: 65519 rounds down to 65504; 2^-25 ties to +0; the smallest subnormal stays.
    EXPECT_EQ(0x7bffu, load<uint16_t>(run(CK_TYPE_FLOAT16, CK_TYPE_FLOAT64, f64(65519.0), 1).b) |
                           0u);
    EXPECT_EQ(0x0000u, load<uint16_t>(run(CK_TYPE_FLOAT16, CK_TYPE_FLOAT64,
                                          f64(2.9802322387695312e-08), 0).b) | 0u);
    EXPECT_EQ(0x0001u, load<uint16_t>(run(CK_TYPE_FLOAT16, CK_TYPE_FLOAT64,
                                          f64(5.960464477539063e-08), 3).b) | 0u);
    // int64 -> float16 rounds once: 2^53 + 1 is inf in both cases; 2049 ties to 2048, 2051
    // to 2052.
    EXPECT_EQ(0x6800u, load<uint16_t>(run(CK_TYPE_FLOAT16, CK_TYPE_INT64,
                                          i64(2049, T(CK_TYPE_INT64)), 0).b) | 0u);
    EXPECT_EQ(0x6802u, load<uint16_t>(run(CK_TYPE_FLOAT16, CK_TYPE_INT64,
                                          i64(2051, T(CK_TYPE_INT64)), 0).b) | 0u);
    EXPECT_EQ(0x7c00u, load<uint16_t>(run(CK_TYPE_FLOAT16, CK_TYPE_INT64,
                                          i64(INT64_MAX, T(CK_TYPE_INT64)), 0).b) | 0u);
}

// Same-type pairs are bit-exact in every mode: NaN payloads, signalling NaNs, bool bytes.
TEST_P(CastLeaves, SameTypeIsBitExactCopy) {
    const uint64_t snan64 = 0x7ff0000000000001ULL;
    const uint32_t snan32 = 0x7f800001u;
    const uint16_t snan16 = 0x7c01u;
    const unsigned char bool2 = 2;
    struct {
        ck_type_id id;
        Elem v;
    } cases[] = {
        {CK_TYPE_FLOAT64, from_bits(&snan64, 8)},
        {CK_TYPE_FLOAT32, from_bits(&snan32, 4)},
        {CK_TYPE_FLOAT16, from_bits(&snan16, 2)},
        {CK_TYPE_BOOL, from_bits(&bool2, 1)},
        {CK_TYPE_COMPLEX64, from_bits(&snan64, 8)},
        {CK_TYPE_COMPLEX128, c128(-0.0, std::numeric_limits<double>::quiet_NaN())},
    };
    for (const auto &c : cases) {
        for (int m = 0; m < kModes; m++) {
            Elem out{};
            Elem src = c.v;
            ASSERT_EQ(CK_OK, call_single(c.id, c.id, m, out.b, src.b));
            EXPECT_EQ(0, std::memcmp(out.b, c.v.b, T(c.id).size)) << T(c.id).name;
            std::vector<Elem> many(9, c.v), dst(9);
            unsigned char *d = reinterpret_cast<unsigned char *>(dst.data());
            unsigned char *s = reinterpret_cast<unsigned char *>(many.data());
            const size_t size = T(c.id).size;
            ASSERT_EQ(CK_OK, call_strided(c.id, c.id, m, d, sizeof(Elem), s, sizeof(Elem), 9));
            for (size_t i = 0; i < 9; i++) {
                EXPECT_EQ(0, std::memcmp(d + i * sizeof(Elem), c.v.b, size));
            }
            ASSERT_EQ(CK_OK, call_strided(c.id, c.id, m, d, static_cast<intptr_t>(size), s, 0, 9));
            for (size_t i = 0; i < 9; i++) {
                EXPECT_EQ(0, std::memcmp(d + i * size, c.v.b, size));
            }
        }
    }
}

// In-place assignment (dst == src) of a same-type contiguous run is allowed.
TEST_P(CastLeaves, SameTypeInPlace) {
    std::vector<double> v = {1, 2, 3, 4};
    char *p = reinterpret_cast<char *>(v.data());
    ASSERT_EQ(CK_OK, call_strided(CK_TYPE_FLOAT64, CK_TYPE_FLOAT64, 0,
                                  reinterpret_cast<unsigned char *>(p), 8,
                                  reinterpret_cast<unsigned char *>(p), 8, 4));
    EXPECT_EQ(v, (std::vector<double>{1, 2, 3, 4}));
}

// Checked runs longer than a block of the vectorized check (64 elements): one failing value
// at block edges and inside blocks; everything before it converted or untouched, nothing
// from it on written.
TEST_P(CastLeaves, LongRunsFailAtBlockEdges) {
    int64_t runs = 0;
    for (int s = 0; s < CK_NUM_SCALAR_TYPES; s++) {
        const std::vector<Elem> values = edge_values(T(s));
        for (int d = 0; d < CK_NUM_SCALAR_TYPES; d++) {
            for (int m = 1; m < kModes; m++) {
                std::vector<Expect> expect;
                std::vector<size_t> good, bad;
                for (size_t i = 0; i < values.size(); i++) {
                    expect.push_back(oracle(T(d), T(s), m, values[i].b));
                    (expect.back().status == CK_OK ? good : bad).push_back(i);
                }
                const StridedCase c{d, s, m, &values, &expect};
                for (size_t n : {64, 65, 130, 200}) {
                    run_strided(c, make_indices(n, good, bad, n, {}), 1, 1);
                    runs++;
                    if (bad.empty()) {
                        continue;
                    }
                    for (size_t at : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65},
                                      size_t{100}, size_t{127}, size_t{128}, n - 1}) {
                        if (at < n) {
                            run_strided(c, make_indices(n, good, bad, n + at, {at}), 1, 1);
                            runs++;
                        }
                    }
                    if (HasFatalFailure()) {
                        return;
                    }
                }
            }
        }
    }
    EXPECT_GT(runs, 10000);
}

// ---------------------------------------------------------------------------------------
// Bit-identical across targets: every target's leaves against the baseline's, NaN payloads
// included (the oracle above leaves NaN payloads free).
// ---------------------------------------------------------------------------------------
const ck__leaf_table *baseline_table() {
    for (const Target &t : kTargets) {
        if (t.id == CK_CPU_BASELINE) {
            return t.table;
        }
    }
    return nullptr;
}

// A contiguous strided call of table `tab` at an element offset `off` (odd offsets too);
// returns the status and the destination bytes.
int run_contiguous(const ck__leaf_table *tab, int d, int s, int m, const unsigned char *src,
                   size_t n, size_t off, std::vector<unsigned char> *out) {
    const size_t ds = T(d).size, ss = T(s).size;
    std::vector<Elem> sbuf((n + off) * ss / sizeof(Elem) + 2), dbuf((n + off) * ds / sizeof(Elem) + 2);
    std::memset(dbuf.data(), 0xa5, dbuf.size() * sizeof(Elem));
    unsigned char *sp = reinterpret_cast<unsigned char *>(sbuf.data()) + off * ss;
    unsigned char *dp = reinterpret_cast<unsigned char *>(dbuf.data()) + off * ds;
    if (n != 0) {
        std::memcpy(sp, src, n * ss);
    }
    const ck__leaf_table *saved = g_table;
    g_table = tab;
    ck_clear_error();
    const int rc = call_strided(d, s, m, dp, static_cast<intptr_t>(ds), sp,
                                static_cast<intptr_t>(ss), n);
    g_table = saved;
    out->assign(dp, dp + n * ds);
    return rc;
}

// Every pair and mode on the edge values (repeated to 3 blocks, at offsets 0 and 1): status
// and every destination byte equal the baseline target's.
TEST_P(CastLeaves, BitIdenticalToBaseline) {
    const ck__leaf_table *base = baseline_table();
    ASSERT_NE(base, nullptr);
    for (int s = 0; s < CK_NUM_SCALAR_TYPES; s++) {
        const std::vector<Elem> values = edge_values(T(s));
        std::vector<unsigned char> src;
        while (src.size() < 200 * T(s).size) {
            for (const Elem &v : values) {
                src.insert(src.end(), v.b, v.b + T(s).size);
            }
        }
        const size_t n = src.size() / T(s).size;
        for (int d = 0; d < CK_NUM_SCALAR_TYPES; d++) {
            for (int m = 0; m < kModes; m++) {
                for (size_t off : {0, 1}) {
                    std::vector<unsigned char> want, got;
                    const int rw = run_contiguous(base, d, s, m, src.data(), n, off, &want);
                    const int rg = run_contiguous(g_table, d, s, m, src.data(), n, off, &got);
                    ASSERT_EQ(rw, rg) << pair_name(d, s, m);
                    if (rw == CK_OK) {
                        ASSERT_TRUE(want == got) << pair_name(d, s, m) << " offset " << off;
                    }
                }
            }
        }
    }
}

// The pairs with hand-written vector bodies (float64 -> int32, int64 -> float64) in every
// mode, against the oracle: contiguous runs long enough for unrolled bodies, single vector
// steps and tails, at element offsets that misalign them, with every edge value at every
// lane position; nothing outside the run written. (Other pairs get the same from
// BitIdenticalToBaseline and StridedMatchesOracle.)
TEST_P(CastLeaves, VectorBodiesAtOffsets) {
    const int pairs[][2] = {{CK_TYPE_INT32, CK_TYPE_FLOAT64}, {CK_TYPE_FLOAT64, CK_TYPE_INT64}};
    std::vector<size_t> lengths;
    for (size_t n = 0; n <= 67; n++) {
        lengths.push_back(n);
    }
    for (size_t n : {100, 1000, 1003}) {
        lengths.push_back(n);
    }
    for (const auto &pr : pairs) {
        const int d = pr[0], s = pr[1];
        const size_t ds = T(d).size, ss = T(s).size;
        const std::vector<Elem> values = edge_values(T(s));
        for (int m = 0; m < kModes; m++) {
            std::vector<Expect> expect;
            std::vector<size_t> good;
            for (size_t i = 0; i < values.size(); i++) {
                expect.push_back(oracle(T(d), T(s), m, values[i].b));
                if (expect.back().status == CK_OK) {
                    good.push_back(i);
                }
            }
            ASSERT_FALSE(good.empty()) << pair_name(d, s, m);
            if (m == CK_ERRMODE_NOCHECK) {
                ASSERT_EQ(good.size(), values.size()) << pair_name(d, s, m);
            }
            for (size_t n : lengths) {
                for (size_t off : {0, 1, 2, 3, 5, 7}) {
                    const size_t salt = n * 7 + off;
                    std::vector<unsigned char> sbuf((n + off + 2) * ss, 0x5a);
                    std::vector<unsigned char> dbuf((n + off + 2) * ds + 8, 0xa5);
                    // 8-byte aligned bases: the leaves assume aligned elements
                    std::vector<uint64_t> sal((sbuf.size() + 7) / 8), dal((dbuf.size() + 7) / 8);
                    unsigned char *sb = reinterpret_cast<unsigned char *>(sal.data());
                    unsigned char *db = reinterpret_cast<unsigned char *>(dal.data());
                    std::memcpy(sb, sbuf.data(), sbuf.size());
                    std::memcpy(db, dbuf.data(), dbuf.size());
                    std::vector<size_t> idx(n);
                    for (size_t i = 0; i < n; i++) {
                        idx[i] = good[(i * 5 + salt) % good.size()];
                        std::memcpy(sb + (off + i) * ss, values[idx[i]].b, ss);
                    }
                    ck_clear_error();
                    const int rc = call_strided(d, s, m, db + off * ds, static_cast<intptr_t>(ds),
                                                sb + off * ss, static_cast<intptr_t>(ss), n);
                    const std::string where = pair_name(d, s, m) + " n=" + std::to_string(n) +
                                              " offset " + std::to_string(off);
                    ASSERT_EQ(CK_OK, rc) << where << ": " << ck_last_error();
                    for (size_t i = 0; i < n; i++) {
                        ASSERT_TRUE(matches(T(d), expect[idx[i]], db + (off + i) * ds))
                            << where << ": element " << i << " of 0x"
                            << hex(values[idx[i]].b, ss) << " got 0x"
                            << hex(db + (off + i) * ds, ds) << " want 0x"
                            << hex(expect[idx[i]].out.b, ds);
                    }
                    for (size_t k = 0; k < dbuf.size(); k++) {
                        if (k < off * ds || k >= (off + n) * ds) {
                            ASSERT_EQ(0xa5, db[k]) << where << ": byte " << k << " written";
                        }
                    }
                }
            }
        }
    }
}

// All 65536 halves -> float32 and float64 on every target: the bits of float16.h's
// conversion (exhaustively checked against an oracle in tests/types), NaNs quiet with their
// sign and payload, at offsets 0..3.
TEST_P(CastLeaves, AllHalvesBitExact) {
    std::vector<uint16_t> halves(65536);
    for (uint32_t h = 0; h < 65536; h++) {
        halves[h] = static_cast<uint16_t>(h);
    }
    const unsigned char *src = reinterpret_cast<const unsigned char *>(halves.data());
    for (size_t off : {0, 1, 2, 3}) {
        for (int m = 0; m < kModes; m++) {
            std::vector<unsigned char> f32, f64;
            ASSERT_EQ(CK_OK, run_contiguous(g_table, CK_TYPE_FLOAT32, CK_TYPE_FLOAT16, m, src,
                                            65536, off, &f32));
            ASSERT_EQ(CK_OK, run_contiguous(g_table, CK_TYPE_FLOAT64, CK_TYPE_FLOAT16, m, src,
                                            65536, off, &f64));
            for (uint32_t h = 0; h < 65536; h++) {
                const float want = ck__half_to_float(static_cast<uint16_t>(h));
                const uint32_t got32 = load<uint32_t>(&f32[h * 4]);
                ASSERT_EQ(ck__f32_bits(want), got32) << std::hex << "half 0x" << h;
                const uint64_t got64 = load<uint64_t>(&f64[h * 8]);
                ASSERT_EQ(ck__f64_bits(static_cast<double>(want)), got64) << std::hex << "half 0x" << h;
                if ((h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0) {  // NaN: quiet, sign, payload
                    const uint32_t nan = ((h & 0x8000u) << 16) | 0x7fc00000u | ((h & 0x3ffu) << 13);
                    ASSERT_EQ(nan, got32) << std::hex << "half 0x" << h;
                }
            }
        }
    }
}

// float32 -> float16 on every target, bit for bit with float16.h (exhaustively checked
// against an oracle in tests/types) and with the baseline target, in every mode: every
// exponent with mantissas at and around the rounding points (ties, ±1 ulp, odd/even
// kept bits, subnormal-half boundaries), NaNs with payloads (quiet and signalling), and a
// sweep of every 4093rd float32 bit pattern.
TEST_P(CastLeaves, Float32ToHalfSampleBitExact) {
    std::vector<uint32_t> bits;
    const uint32_t mants[] = {0,        1,        2,        0xfff,    0x1000,   0x1001,
                              0x1fff,   0x2000,   0x2001,   0x3000,   0x2fff,   0x3001,
                              0x5000,   0x7000,   0x400000, 0x400001, 0x200000, 0x7fe000,
                              0x7fefff, 0x7ff000, 0x7ff001, 0x7fffff, 0x123456, 0x0abcde};
    for (uint32_t sign : {0u, 0x80000000u}) {
        for (uint32_t e = 0; e < 256; e++) {
            for (uint32_t m : mants) {
                bits.push_back(sign | (e << 23) | m);
            }
            for (uint32_t sh = 0; sh < 23; sh++) {  // a single mantissa bit
                bits.push_back(sign | (e << 23) | (1u << sh));
                bits.push_back(sign | (e << 23) | ((1u << sh) - 1));
            }
        }
    }
    for (uint64_t x = 0; x < (uint64_t{1} << 32); x += 4093) {
        bits.push_back(static_cast<uint32_t>(x));
    }
    const unsigned char *src = reinterpret_cast<const unsigned char *>(bits.data());
    const size_t n = bits.size();
    // nocheck: the whole array, at offsets 0 and 1
    for (size_t off : {0, 1}) {
        std::vector<unsigned char> got;
        ASSERT_EQ(CK_OK, run_contiguous(g_table, CK_TYPE_FLOAT16, CK_TYPE_FLOAT32, 0, src, n,
                                        off, &got));
        for (size_t i = 0; i < n; i++) {
            float f;
            std::memcpy(&f, &bits[i], 4);
            ASSERT_EQ(ck__float_to_half(f), load<uint16_t>(&got[i * 2]))
                << std::hex << "float32 0x" << bits[i];
        }
    }
    // checked modes: status and results equal the baseline's, on runs of 1000 (most of them
    // fail somewhere: the failing position must agree too)
    const ck__leaf_table *base = baseline_table();
    for (int m = 1; m < kModes; m++) {
        for (size_t start = 0; start + 1000 <= n; start += 997 * 7) {
            std::vector<unsigned char> want, got;
            const int rw = run_contiguous(base, CK_TYPE_FLOAT16, CK_TYPE_FLOAT32, m,
                                          src + start * 4, 1000, 1, &want);
            const std::string wmsg = ck_last_error();
            const int rg = run_contiguous(g_table, CK_TYPE_FLOAT16, CK_TYPE_FLOAT32, m,
                                          src + start * 4, 1000, 1, &got);
            ASSERT_EQ(rw, rg) << start;
            ASSERT_EQ(wmsg, std::string(ck_last_error())) << start;
            if (rw == CK_OK) {
                ASSERT_TRUE(want == got) << start;
            }
        }
    }
}

// float32 -> float16 rounds to nearest even whatever the thread's rounding mode, on every
// target: F16C's instruction is given the rounding explicitly, aarch64's FCVTN follows
// FPCR, so its body steps aside for the C code under any other mode. Values with a tie, and
// with bits below the tie either way, positive and negative, each a whole run of its own.
TEST_P(CastLeaves, Float32ToHalfRoundsToNearestEvenInEveryRoundingMode) {
    std::vector<float> values;
    for (int k = 0; k < 64; k++) {
        const float base = std::ldexp(1.0f + static_cast<float>(k) / 64.0f, k % 20 - 10);
        for (float delta : {0x1p-11f, 0x1p-11f + 0x1p-20f, 0x1p-11f - 0x1p-20f, 0x1p-12f}) {
            values.push_back(base + std::ldexp(delta, k % 20 - 10));
            values.push_back(-values.back());
        }
    }
    const unsigned char *src = reinterpret_cast<const unsigned char *>(values.data());
    const int saved = std::fegetround();
    for (int mode : {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
        ASSERT_EQ(std::fesetround(mode), 0);
        std::vector<unsigned char> got;
        const int rc = run_contiguous(g_table, CK_TYPE_FLOAT16, CK_TYPE_FLOAT32, 0, src,
                                      values.size(), 0, &got);
        std::fesetround(saved);
        ASSERT_EQ(rc, CK_OK);
        for (size_t i = 0; i < values.size(); i++) {
            // float16.h rounds in integer arithmetic: to nearest even, always.
            ASSERT_EQ(ck__float_to_half(values[i]), load<uint16_t>(&got[i * 2]))
                << "rounding mode " << mode << ", value " << values[i];
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Targets, CastLeaves,
                         ::testing::Range(size_t{0}, sizeof kTargets / sizeof kTargets[0]),
                         [](const ::testing::TestParamInfo<size_t> &param_info) {
                             return std::string(kTargets[param_info.param].name);
                         });

}  // namespace
