// tests/callables/arith_leaves_test.cpp: the built-in arithmetic leaves (add, subtract,
// multiply, divide; src/leaves/numeric/arith.dispatch.c) for every (op, type) entry under every
// compiled CPU target this machine runs, built through ck__make_arith_leaf and called through
// the kernel ABI, single and strided over contiguous, broadcast, negative and general strides
// with guard bytes around the destination.
//
// Expected values come from oracles that share nothing with the code: integers are computed
// exactly in 128 bits and reduced modulo 2^n (division truncated in 128 bits, where
// INT64_MIN / -1 does not overflow); float32/float64 are one C++ operation in the type (IEEE);
// float16 operands are held exactly as long doubles, the exact (or, for divide, 64-bit, which
// is innocuous: 64 >= 2 * 11 + 2) result is rounded to binary16 by a definitional search with
// ties to even; complex multiply and Smith's division follow NumPy's formulas with every
// intermediate rounded on its own (no FMA contraction; tests/support/complex_ref.c, shared with
// the composition fuzzer), and checked against values NumPy 1.24 printed (hex) and values
// derived by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "scalar_oracle.h"
#include "complex_ref.h"
#include "half_exact.hpp"
#include "ckt.hpp"
#include "int128.hpp"
#include "target_fixture.hpp"
extern "C" {
#include "leaves/numeric/arith_leaves.h"
}

namespace {

using ckt::i128;
using ckt::u128;

// ---------------------------------------------------------------------------------------
// Types and ops
// ---------------------------------------------------------------------------------------
// kind: B bool, S signed, U unsigned, H float16, G bfloat16, F float32, D float64, C complex64,
// Z complex128
struct TInfo {
    ck_type_id id;
    const char *name;
    size_t size;
    char kind;
    int bits;
};
const TInfo kTypes[CK_NUM_SCALAR_TYPES] = {
    {CK_TYPE_BOOL, "bool", 1, 'B', 8},          {CK_TYPE_INT8, "int8", 1, 'S', 8},
    {CK_TYPE_INT16, "int16", 2, 'S', 16},       {CK_TYPE_INT32, "int32", 4, 'S', 32},
    {CK_TYPE_INT64, "int64", 8, 'S', 64},       {CK_TYPE_UINT8, "uint8", 1, 'U', 8},
    {CK_TYPE_UINT16, "uint16", 2, 'U', 16},     {CK_TYPE_UINT32, "uint32", 4, 'U', 32},
    {CK_TYPE_UINT64, "uint64", 8, 'U', 64},     {CK_TYPE_FLOAT16, "float16", 2, 'H', 16},
    {CK_TYPE_BFLOAT16, "bfloat16", 2, 'G', 16},
    {CK_TYPE_FLOAT32, "float32", 4, 'F', 32},   {CK_TYPE_FLOAT64, "float64", 8, 'D', 64},
    {CK_TYPE_COMPLEX64, "complex64", 8, 'C', 32}, {CK_TYPE_COMPLEX128, "complex128", 16, 'Z', 64},
};
// The four arithmetic operations this file's oracles cover (the table's other entries,
// minimum .. logical_or, are tested in minmax_logical_leaves_test.cpp).
constexpr int kArithOps = CK__ARITH_TRUNC_DIVIDE + 1;
const char *const kOpNames[CK__ARITH_NUM_OPS] = {"add",     "subtract", "multiply",
                                                 "trunc_divide",  "minimum",  "maximum",
                                                 "logical_and", "logical_or"};

bool is_int(const TInfo &t) {
    return t.kind == 'S' || t.kind == 'U';
}
bool has_leaf_expected(int op, const TInfo &t) {
    return t.kind != 'B' || op != CK__ARITH_SUBTRACT;  // NumPy refuses bool - bool too
}
// The divides whose zero divisor is CK_ERR_ZERO_DIVISION: the integers' and bool's.
bool checked_divide(int op, const TInfo &t) {
    return op == CK__ARITH_TRUNC_DIVIDE && (is_int(t) || t.kind == 'B');
}

// One element, room for any scalar.
struct Elem {
    alignas(16) unsigned char b[16];
};

template <class U>
U load(const unsigned char *p) {
    U u;
    std::memcpy(&u, p, sizeof u);
    return u;
}
template <class U>
void store(unsigned char *p, U u) {
    std::memcpy(p, &u, sizeof u);
}

// ---------------------------------------------------------------------------------------
// Oracles
// ---------------------------------------------------------------------------------------
i128 int_value(const TInfo &t, const unsigned char *p) {
    switch (t.id) {
    case CK_TYPE_INT8: return load<int8_t>(p);
    case CK_TYPE_INT16: return load<int16_t>(p);
    case CK_TYPE_INT32: return load<int32_t>(p);
    case CK_TYPE_INT64: return load<int64_t>(p);
    case CK_TYPE_UINT8: return load<uint8_t>(p);
    case CK_TYPE_UINT16: return load<uint16_t>(p);
    case CK_TYPE_UINT32: return load<uint32_t>(p);
    default: return static_cast<i128>(load<uint64_t>(p));
    }
}
// The low `bits` bits of v in the host's byte order (two's complement wrap).
void store_wrapped(const TInfo &t, i128 v, unsigned char *out) {
    ckt_put_low_bytes(out, static_cast<uint64_t>(static_cast<u128>(v)), t.size);
}

using ckt::half_pos;
using ckt::half_value;
using ckt::round_to_half;

template <class F>
F real_op(int op, F a, F b) {
    switch (op) {
    case CK__ARITH_ADD: return a + b;
    case CK__ARITH_SUBTRACT: return a - b;
    case CK__ARITH_MULTIPLY: return a * b;
    default: return a / b;
    }
}

// Complex multiply and Smith's division: NumPy's formulas, every operation rounded on its own
// (tests/support/complex_ref.c, shared with the composition fuzzer's reference).
void complex_mul(const float a[2], const float b[2], float out[2]) {
    ckt_complex_mul_f(a, b, out);
}
void complex_mul(const double a[2], const double b[2], double out[2]) {
    ckt_complex_mul_d(a, b, out);
}
void complex_div(const float a[2], const float b[2], float out[2]) {
    ckt_complex_div_f(a, b, out);
}
void complex_div(const double a[2], const double b[2], double out[2]) {
    ckt_complex_div_d(a, b, out);
}

// Complex operations from NumPy's formulas.
template <class F>
void complex_op(int op, const F a[2], const F b[2], F out[2]) {
    const F ar = a[0], ai = a[1], br = b[0], bi = b[1];
    switch (op) {
    case CK__ARITH_ADD:
        out[0] = ar + br;
        out[1] = ai + bi;
        return;
    case CK__ARITH_SUBTRACT:
        out[0] = ar - br;
        out[1] = ai - bi;
        return;
    case CK__ARITH_MULTIPLY: complex_mul(a, b, out); return;
    default: complex_div(a, b, out); return;
    }
}

// The expected element of a op b (both of type t). Integer divide by zero is never asked.
// bool divide writes int8 0 or 1: the dividend's truth (the divisor is true).
Elem expected(int op, const TInfo &t, const unsigned char *a, const unsigned char *b) {
    Elem r{};
    if (t.kind == 'B') {
        const bool x = a[0] != 0, y = b[0] != 0;
        r.b[0] = op == CK__ARITH_ADD ? (x || y) : op == CK__ARITH_TRUNC_DIVIDE ? x : (x && y);
    } else if (is_int(t)) {
        const i128 x = int_value(t, a), y = int_value(t, b);
        i128 v;
        switch (op) {
        case CK__ARITH_ADD: v = x + y; break;
        case CK__ARITH_SUBTRACT: v = x - y; break;
        case CK__ARITH_MULTIPLY:
            // |x|,|y| < 2^64: the product's low 64 bits are what matters; multiply the
            // unsigned residues so that 128 bits never overflow.
            v = static_cast<i128>(static_cast<u128>(static_cast<uint64_t>(x)) *
                                  static_cast<uint64_t>(y));
            break;
        default: v = x / y; break;  // C++ truncates toward zero
        }
        store_wrapped(t, v, r.b);
    } else if (t.kind == 'H') {
        const long double x = half_value(load<uint16_t>(a)), y = half_value(load<uint16_t>(b));
        store<uint16_t>(r.b, round_to_half(real_op<long double>(op, x, y)));
    } else if (t.kind == 'G') {  // exact operands, rounded once (64 >= 2 * 8 + 2 bits)
        const long double x = ckt_bf16_value(load<uint16_t>(a)),
                          y = ckt_bf16_value(load<uint16_t>(b));
        store<uint16_t>(r.b, ckt_round_to_bf16(real_op<long double>(op, x, y)));
    } else if (t.kind == 'F') {
        store<float>(r.b, real_op<float>(op, load<float>(a), load<float>(b)));
    } else if (t.kind == 'D') {
        store<double>(r.b, real_op<double>(op, load<double>(a), load<double>(b)));
    } else if (t.kind == 'C') {
        float x[2], y[2], o[2];
        std::memcpy(x, a, 8);
        std::memcpy(y, b, 8);
        complex_op<float>(op, x, y, o);
        std::memcpy(r.b, o, 8);
    } else {
        double x[2], y[2], o[2];
        std::memcpy(x, a, 16);
        std::memcpy(y, b, 16);
        complex_op<double>(op, x, y, o);
        std::memcpy(r.b, o, 16);
    }
    return r;
}

// Results are equal when bit-identical, or both NaN (payloads are not specified).
bool real_same(const TInfo &t, const unsigned char *x, const unsigned char *y, size_t n) {
    if (std::memcmp(x, y, n) == 0) {
        return true;
    }
    if (t.kind == 'H') {
        return std::isnan(half_value(load<uint16_t>(x))) &&
               std::isnan(half_value(load<uint16_t>(y)));
    }
    if (t.kind == 'G') {
        return std::isnan(ckt_bf16_value(load<uint16_t>(x))) &&
               std::isnan(ckt_bf16_value(load<uint16_t>(y)));
    }
    if (n == 4) {
        return std::isnan(load<float>(x)) && std::isnan(load<float>(y));
    }
    return std::isnan(load<double>(x)) && std::isnan(load<double>(y));
}
bool same(const TInfo &t, const unsigned char *x, const unsigned char *y) {
    switch (t.kind) {
    case 'H':
    case 'G':
    case 'F':
    case 'D': return real_same(t, x, y, t.size);
    case 'C':
    case 'Z': {
        const size_t h = t.size / 2;
        return real_same(t, x, y, h) && real_same(t, x + h, y + h, h);
    }
    default: return std::memcmp(x, y, t.size) == 0;
    }
}
std::string hex(const TInfo &t, const unsigned char *p) {
    static const char digits[] = "0123456789abcdef";
    std::string s = "0x";
    for (size_t k = t.size; k-- > 0;) {
        s += digits[p[k] >> 4];
        s += digits[p[k] & 15];
    }
    return s;
}

// ---------------------------------------------------------------------------------------
// Operands
// ---------------------------------------------------------------------------------------
uint64_t g_rng = 0x9e3779b97f4a7c15u;
uint64_t next_random() {  // splitmix64: deterministic operands
    uint64_t z = (g_rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

// A float32/float64 component: mostly ordinary values, sometimes zeros, infinities, NaNs.
template <class F>
F random_real() {
    const uint64_t r = next_random();
    switch (r % 16) {
    case 0: return F(0);
    case 1: return -F(0);
    case 2: return std::numeric_limits<F>::infinity();
    case 3: return std::numeric_limits<F>::quiet_NaN();
    case 4: return std::numeric_limits<F>::max();
    case 5: return std::numeric_limits<F>::denorm_min();
    default: {
        const double m = static_cast<double>(r >> 11) * 0x1p-53 * 2.0 - 1.0;  // (-1, 1)
        return static_cast<F>(std::ldexp(m, static_cast<int>((r >> 4) % 40) - 20));
    }
    }
}

// One random element of t. A divisor of an integer divide is never 0.
Elem random_elem(const TInfo &t, bool nonzero) {
    Elem e{};
    const uint64_t r = next_random();
    switch (t.kind) {
    case 'B':  // 0, 1, or any byte (true)
        e.b[0] = static_cast<unsigned char>(r % 4 == 0 ? 0 : (r % 4 == 1 ? 1 : r >> 56));
        if (nonzero && e.b[0] == 0) {
            e.b[0] = static_cast<unsigned char>(1 + (r >> 8) % 255);
        }
        break;
    case 'S':
    case 'U': {
        // edge values a quarter of the time, else random bits
        uint64_t v = r;
        switch ((r >> 60) % 4) {
        case 0:  // the top bit alone (INT_MIN) or all the bits below it (INT_MAX)
            v = uint64_t{1} << (t.bits - 1);
            v = (r >> 8) % 2 == 0 ? v : v - 1;
            break;
        case 1: v = (r >> 8) % 2 == 0 ? ~uint64_t{0} : (r >> 9) % 5; break;
        default: break;
        }
        std::memcpy(e.b, &v, t.size);
        if (nonzero && int_value(t, e.b) == 0) {
            e.b[0] = 7;
        }
        break;
    }
    case 'H':
    case 'G': store<uint16_t>(e.b, static_cast<uint16_t>(r)); break;
    case 'F': store<float>(e.b, random_real<float>()); break;
    case 'D': store<double>(e.b, random_real<double>()); break;
    case 'C':
        store<float>(e.b, random_real<float>());
        store<float>(e.b + 4, random_real<float>());
        break;
    default:
        store<double>(e.b, random_real<double>());
        store<double>(e.b + 8, random_real<double>());
        break;
    }
    return e;
}

// ---------------------------------------------------------------------------------------
// Leaves
// ---------------------------------------------------------------------------------------
// The leaf's function, built for the current cap (a leaf is a bare prefix: the function is
// all of it).
void *leaf_function(int op, ck_type_id id, ck_request req) {
    ck_builder b;
    ck_builder_init(&b);
    size_t offset = 0;
    void *fn = nullptr;
    const int rc = ck__make_arith_leaf(&b, &offset, static_cast<ck__arith_op>(op), id, req);
    EXPECT_EQ(rc, CK_OK) << ck_last_error();
    if (rc == CK_OK) {
        EXPECT_EQ(offset, sizeof(ck_prefix));
        fn = ck_builder_root(&b)->function;
        EXPECT_EQ(ck_builder_root(&b)->destructor, nullptr);
    }
    ck_builder_destroy(&b);
    return fn;
}
ck_single_fn single_of(int op, ck_type_id id) {
    void *p = leaf_function(op, id, CK_REQUEST_SINGLE);
    ck_single_fn f;
    std::memcpy(&f, &p, sizeof f);
    return f;
}
ck_strided_fn strided_of(int op, ck_type_id id) {
    void *p = leaf_function(op, id, CK_REQUEST_STRIDED);
    ck_strided_fn f;
    std::memcpy(&f, &p, sizeof f);
    return f;
}
std::string describe(const void *fn) {
    ck__strbuf s = CK__STRBUF_INIT;
    const int found = ck__arith_leaf_describe(fn, &s);
    std::string out = found ? std::string(s.s != nullptr ? s.s : "") : std::string("(none)");
    ck__strbuf_free(&s);
    return out;
}

// ---------------------------------------------------------------------------------------
// Per-target fixture
// ---------------------------------------------------------------------------------------
using ckt::kTargets;
using ckt::Target;
class ArithLeaves : public ckt::TargetCapped {};

// One strided layout: element strides (in elements) of dst, src0, src1.
struct Layout {
    const char *name;
    intptr_t dst, s0, s1;
};
const Layout kLayouts[] = {
    {"contiguous", 1, 1, 1},       {"src0 broadcast", 1, 0, 1},   {"src1 broadcast", 1, 1, 0},
    {"both broadcast", 1, 0, 0},   {"negative", -1, -2, -1},      {"general", 3, 2, 5},
    {"negative dst", -2, 1, 0},    {"broadcast general", 2, 0, -3},
};

// Runs the strided leaf over n elements in layout l and checks every written element against
// the oracle, and every other destination byte (guards and gaps) untouched. Returns the
// number of elements checked.
int64_t run_layout(ck_strided_fn fn, int op, const TInfo &t, const Layout &l, size_t n) {
    const size_t es = t.size;
    const bool nonzero = checked_divide(op, t);
    // Operands: a span of |stride| * n elements (at least one), started at the far end for
    // a negative stride.
    auto span = [&](intptr_t s) {
        return (n == 0 ? 1 : n) * static_cast<size_t>(s < 0 ? -s : (s == 0 ? 1 : s));
    };
    const size_t guard = 64;
    std::vector<Elem> a(span(l.s0)), b(span(l.s1));
    for (Elem &e : a) e = random_elem(t, false);
    for (Elem &e : b) e = random_elem(t, nonzero);
    std::vector<unsigned char> abuf(a.size() * es), bbuf(b.size() * es);
    for (size_t k = 0; k < a.size(); k++) std::memcpy(&abuf[k * es], a[k].b, es);
    for (size_t k = 0; k < b.size(); k++) std::memcpy(&bbuf[k * es], b[k].b, es);
    const size_t dspan = span(l.dst) * es;
    // 64-byte aligned storage: guard, destination span, guard
    std::vector<Elem> dstore((guard + dspan + guard) / 16 + 2);
    unsigned char *dall = dstore[0].b;
    for (size_t k = 0; k < guard + dspan + guard; k++) {
        dall[k] = static_cast<unsigned char>(0xa5 ^ k);
    }
    std::vector<unsigned char> before(dall, dall + guard + dspan + guard);
    // a negative stride starts at the far end of its span
    unsigned char *d0 = l.dst < 0 ? dall + guard + dspan - es : dall + guard;
    unsigned char *a0 = l.s0 < 0 ? abuf.data() + abuf.size() - es : abuf.data();
    unsigned char *b0 = l.s1 < 0 ? bbuf.data() + bbuf.size() - es : bbuf.data();
    const std::vector<unsigned char> acopy = abuf, bcopy = bbuf;

    char *src[2] = {reinterpret_cast<char *>(a0), reinterpret_cast<char *>(b0)};
    const intptr_t ies = static_cast<intptr_t>(es);
    const intptr_t sstride[2] = {l.s0 * ies, l.s1 * ies};
    const int rc = fn(nullptr, reinterpret_cast<char *>(d0), l.dst * ies, src, sstride, n);
    EXPECT_EQ(rc, CK_OK) << ck_last_error();

    std::vector<bool> written(guard + dspan + guard, false);
    int64_t checks = 0;
    for (size_t i = 0; i < n; i++) {
        const unsigned char *pa = a0 + static_cast<intptr_t>(i) * sstride[0];
        const unsigned char *pb = b0 + static_cast<intptr_t>(i) * sstride[1];
        unsigned char *pd = d0 + static_cast<intptr_t>(i) * l.dst * static_cast<intptr_t>(es);
        const Elem want = expected(op, t, pa, pb);
        if (!same(t, pd, want.b)) {
            ADD_FAILURE() << kOpNames[op] << " " << t.name << " " << l.name << " n=" << n
                          << " element " << i << ": " << hex(t, pa) << " op " << hex(t, pb)
                          << " gave " << hex(t, pd) << ", want " << hex(t, want.b);
            return checks;
        }
        for (size_t k = 0; k < es; k++) written[static_cast<size_t>(pd - dall) + k] = true;
        checks++;
    }
    for (size_t k = 0; k < before.size(); k++) {
        if (!written[k] && dall[k] != before[k]) {
            ADD_FAILURE() << kOpNames[op] << " " << t.name << " " << l.name << " n=" << n
                          << ": byte " << k << " outside the elements was written";
            return checks;
        }
    }
    EXPECT_TRUE(abuf == acopy && bbuf == bcopy) << "a source was written";
    return checks;
}

TEST_P(ArithLeaves, TableEntries) {
    for (int op = 0; op < kArithOps; op++) {
        for (const TInfo &t : kTypes) {
            EXPECT_EQ(ck__arith_has_leaf(static_cast<ck__arith_op>(op), t.id),
                      has_leaf_expected(op, t) ? 1 : 0)
                << kOpNames[op] << " " << t.name;
        }
    }
}

// Every entry, every layout, lengths 0..67 (across every vector width and tail).
TEST_P(ArithLeaves, StridedMatchesOracle) {
    int64_t checks = 0;
    for (int op = 0; op < kArithOps; op++) {
        for (const TInfo &t : kTypes) {
            if (!has_leaf_expected(op, t)) continue;
            ck_strided_fn fn = strided_of(op, t.id);
            ASSERT_NE(fn, nullptr);
            for (const Layout &l : kLayouts) {
                for (size_t n = 0; n <= 67; n++) {
                    checks += run_layout(fn, op, t, l, n);
                    if (HasFailure()) return;
                }
            }
        }
    }
    RecordProperty("checks", static_cast<int>(checks));
}

TEST_P(ArithLeaves, SingleMatchesOracle) {
    for (int op = 0; op < kArithOps; op++) {
        for (const TInfo &t : kTypes) {
            if (!has_leaf_expected(op, t)) continue;
            ck_single_fn fn = single_of(op, t.id);
            ASSERT_NE(fn, nullptr);
            for (int k = 0; k < 500; k++) {
                Elem a = random_elem(t, false);
                Elem b = random_elem(t, checked_divide(op, t));
                Elem d{};
                std::memset(d.b, 0xa5, sizeof d.b);
                char *src[2] = {reinterpret_cast<char *>(a.b), reinterpret_cast<char *>(b.b)};
                ASSERT_EQ(fn(nullptr, reinterpret_cast<char *>(d.b), src), CK_OK);
                const Elem want = expected(op, t, a.b, b.b);
                ASSERT_TRUE(same(t, d.b, want.b))
                    << kOpNames[op] << " " << t.name << ": " << hex(t, a.b) << " op "
                    << hex(t, b.b) << " gave " << hex(t, d.b) << ", want " << hex(t, want.b);
                for (size_t j = t.size; j < sizeof d.b; j++) ASSERT_EQ(d.b[j], 0xa5);
            }
        }
    }
}

// In place (dst is src[0]), as `a += b` runs.
TEST_P(ArithLeaves, InPlace) {
    for (int op = 0; op < kArithOps; op++) {
        for (const TInfo &t : kTypes) {
            if (!has_leaf_expected(op, t)) continue;
            ck_strided_fn fn = strided_of(op, t.id);
            const size_t n = 41;
            std::vector<Elem> a(n), b(n), want(n);
            for (size_t i = 0; i < n; i++) {
                a[i] = random_elem(t, false);
                b[i] = random_elem(t, checked_divide(op, t));
                want[i] = expected(op, t, a[i].b, b[i].b);
            }
            std::vector<unsigned char> x(n * t.size), y(n * t.size);
            for (size_t i = 0; i < n; i++) {
                std::memcpy(&x[i * t.size], a[i].b, t.size);
                std::memcpy(&y[i * t.size], b[i].b, t.size);
            }
            char *src[2] = {reinterpret_cast<char *>(x.data()), reinterpret_cast<char *>(y.data())};
            const intptr_t ss[2] = {static_cast<intptr_t>(t.size), static_cast<intptr_t>(t.size)};
            ASSERT_EQ(fn(nullptr, reinterpret_cast<char *>(x.data()), ss[0], src, ss, n), CK_OK);
            for (size_t i = 0; i < n; i++) {
                ASSERT_TRUE(same(t, &x[i * t.size], want[i].b))
                    << kOpNames[op] << " " << t.name << " " << i;
            }
        }
    }
}

// ---- hand-computed values ----
template <class T>
T run1(int op, ck_type_id id, T a, T b) {
    ck_single_fn fn = single_of(op, id);
    T d{};
    char *src[2] = {reinterpret_cast<char *>(&a), reinterpret_cast<char *>(&b)};
    EXPECT_EQ(fn(nullptr, reinterpret_cast<char *>(&d), src), CK_OK) << ck_last_error();
    // the strided function over one element agrees
    ck_strided_fn sfn = strided_of(op, id);
    T e{};
    const intptr_t ss[2] = {0, 0};
    EXPECT_EQ(sfn(nullptr, reinterpret_cast<char *>(&e), sizeof(T), src, ss, 1), CK_OK);
    EXPECT_EQ(std::memcmp(&d, &e, sizeof(T)), 0);
    return d;
}

TEST_P(ArithLeaves, IntegerWrapAndTruncation) {
    const int ADD = CK__ARITH_ADD, SUB = CK__ARITH_SUBTRACT, MUL = CK__ARITH_MULTIPLY,
              DIV = CK__ARITH_TRUNC_DIVIDE;
    EXPECT_EQ(run1<int8_t>(ADD, CK_TYPE_INT8, INT8_MAX, 1), INT8_MIN);
    EXPECT_EQ(run1<int8_t>(SUB, CK_TYPE_INT8, INT8_MIN, 1), INT8_MAX);
    EXPECT_EQ(run1<int16_t>(ADD, CK_TYPE_INT16, INT16_MAX, INT16_MAX), -2);
    EXPECT_EQ(run1<uint32_t>(SUB, CK_TYPE_UINT32, 0u, 1u), UINT32_MAX);
    EXPECT_EQ(run1<uint8_t>(SUB, CK_TYPE_UINT8, 0, 1), 255);
    EXPECT_EQ(run1<uint64_t>(ADD, CK_TYPE_UINT64, UINT64_MAX, 2), 1u);
    EXPECT_EQ(run1<int32_t>(MUL, CK_TYPE_INT32, INT32_MIN, -1), INT32_MIN);
    EXPECT_EQ(run1<int64_t>(MUL, CK_TYPE_INT64, INT64_MIN, -1), INT64_MIN);
    EXPECT_EQ(run1<int8_t>(MUL, CK_TYPE_INT8, 16, 16), 0);
    EXPECT_EQ(run1<uint8_t>(MUL, CK_TYPE_UINT8, 200, 2), 144);
    EXPECT_EQ(run1<uint16_t>(MUL, CK_TYPE_UINT16, 65535, 65535), 1);  // no int overflow
    EXPECT_EQ(run1<int16_t>(MUL, CK_TYPE_INT16, -32768, -32768), 0);
    EXPECT_EQ(run1<int32_t>(MUL, CK_TYPE_INT32, 65536, 65536), 0);
    EXPECT_EQ(run1<int32_t>(DIV, CK_TYPE_INT32, -7, 2), -3);
    EXPECT_EQ(run1<int32_t>(DIV, CK_TYPE_INT32, 7, -2), -3);
    EXPECT_EQ(run1<int32_t>(DIV, CK_TYPE_INT32, -7, -2), 3);
    EXPECT_EQ(run1<int8_t>(DIV, CK_TYPE_INT8, INT8_MIN, -1), INT8_MIN);
    EXPECT_EQ(run1<int16_t>(DIV, CK_TYPE_INT16, INT16_MIN, -1), INT16_MIN);
    EXPECT_EQ(run1<int32_t>(DIV, CK_TYPE_INT32, INT32_MIN, -1), INT32_MIN);
    EXPECT_EQ(run1<int64_t>(DIV, CK_TYPE_INT64, INT64_MIN, -1), INT64_MIN);
    EXPECT_EQ(run1<int64_t>(DIV, CK_TYPE_INT64, INT64_MAX, -1), -INT64_MAX);
    EXPECT_EQ(run1<uint64_t>(DIV, CK_TYPE_UINT64, UINT64_MAX, 1), UINT64_MAX);
    EXPECT_EQ(run1<uint64_t>(DIV, CK_TYPE_UINT64, UINT64_MAX, UINT64_MAX), 1u);
    EXPECT_EQ(run1<uint8_t>(DIV, CK_TYPE_UINT8, 255, 255), 1);  // (uint8)-1 is no -1
    EXPECT_EQ(run1<uint32_t>(DIV, CK_TYPE_UINT32, 7, UINT32_MAX), 0u);
    EXPECT_EQ(run1<uint8_t>(ADD, CK_TYPE_BOOL, 2, 0), 1);  // any non-zero byte is true
    EXPECT_EQ(run1<uint8_t>(ADD, CK_TYPE_BOOL, 0, 0), 0);
    EXPECT_EQ(run1<uint8_t>(MUL, CK_TYPE_BOOL, 2, 0x80), 1);
    EXPECT_EQ(run1<uint8_t>(MUL, CK_TYPE_BOOL, 1, 0), 0);
    EXPECT_EQ(run1<uint8_t>(DIV, CK_TYPE_BOOL, 2, 0x80), 1);  // true / true, as int8 1
    EXPECT_EQ(run1<uint8_t>(DIV, CK_TYPE_BOOL, 0, 3), 0);
}

// A zero divisor at element 5 of 10: the status and message, elements 0..4 written, 5..9
// untouched; for every integer type and bool, and the contiguous, general and broadcast
// paths.
TEST_P(ArithLeaves, IntegerDivisionByZero) {
    for (const TInfo &t : kTypes) {
        if (!checked_divide(CK__ARITH_TRUNC_DIVIDE, t)) continue;
        ck_strided_fn fn = strided_of(CK__ARITH_TRUNC_DIVIDE, t.id);
        for (int general = 0; general < 2; general++) {
            const size_t n = 10, es = t.size, step = general ? 3 : 1;
            std::vector<unsigned char> a(n * es * step), b(n * es * step), d(n * es * step, 0x5a);
            for (size_t i = 0; i < n; i++) {
                const int64_t av = 100 + static_cast<int64_t>(i), bv = i == 5 ? 0 : 3;
                ckt_put_low_bytes(&a[i * es * step], static_cast<uint64_t>(av), es);
                ckt_put_low_bytes(&b[i * es * step], static_cast<uint64_t>(bv), es);
            }
            char *src[2] = {reinterpret_cast<char *>(a.data()), reinterpret_cast<char *>(b.data())};
            const intptr_t st = static_cast<intptr_t>(es * step);
            const intptr_t ss[2] = {st, st};
            EXPECT_EQ(fn(nullptr, reinterpret_cast<char *>(d.data()), st, src, ss, n),
                      CK_ERR_ZERO_DIVISION)
                << t.name;
            EXPECT_STREQ(ck_last_error(), "trunc_divide: integer division by zero at element [5]")
                << t.name;
            for (size_t i = 0; i < n; i++) {
                const auto got = static_cast<int64_t>(ckt_get_low_bytes(&d[i * es * step], es));
                if (i < 5) {
                    // bool: the bytes 100 + i and 3 are both true, and true / true is 1
                    const int64_t want = t.kind == 'B' ? 1 : (100 + static_cast<int64_t>(i)) / 3;
                    EXPECT_EQ(got, want) << t.name << " " << i;
                } else {
                    for (size_t k = 0; k < es; k++) {
                        EXPECT_EQ(d[i * es * step + k], 0x5a) << t.name << " " << i;
                    }
                }
            }
        }
        // a broadcast zero divisor fails at element 0 and writes nothing
        std::vector<unsigned char> a(8 * t.size, 1), b(16, 0), d(8 * t.size, 0x5a);
        char *src[2] = {reinterpret_cast<char *>(a.data()), reinterpret_cast<char *>(b.data())};
        const intptr_t ss[2] = {static_cast<intptr_t>(t.size), 0};
        EXPECT_EQ(fn(nullptr, reinterpret_cast<char *>(d.data()), ss[0], src, ss, 8),
                  CK_ERR_ZERO_DIVISION);
        EXPECT_STREQ(ck_last_error(), "trunc_divide: integer division by zero at element [0]");
        for (unsigned char c : d) EXPECT_EQ(c, 0x5a);
        // single
        ck_single_fn sfn = single_of(CK__ARITH_TRUNC_DIVIDE, t.id);
        Elem x{}, y{}, z{};
        x.b[0] = 1;
        std::memset(z.b, 0x5a, sizeof z.b);
        char *s1[2] = {reinterpret_cast<char *>(x.b), reinterpret_cast<char *>(y.b)};
        EXPECT_EQ(sfn(nullptr, reinterpret_cast<char *>(z.b), s1), CK_ERR_ZERO_DIVISION);
        EXPECT_STREQ(ck_last_error(), "trunc_divide: integer division by zero");
        EXPECT_EQ(z.b[0], 0x5a);
    }
}

TEST_P(ArithLeaves, FloatDivisionByZero) {
    const int DIV = CK__ARITH_TRUNC_DIVIDE;
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(run1<double>(DIV, CK_TYPE_FLOAT64, 1.0, 0.0), inf);
    EXPECT_EQ(run1<double>(DIV, CK_TYPE_FLOAT64, -1.0, 0.0), -inf);
    EXPECT_EQ(run1<double>(DIV, CK_TYPE_FLOAT64, 1.0, -0.0), -inf);
    EXPECT_TRUE(std::isnan(run1<double>(DIV, CK_TYPE_FLOAT64, 0.0, 0.0)));
    EXPECT_EQ(run1<float>(DIV, CK_TYPE_FLOAT32, 1.0f, 0.0f), static_cast<float>(inf));
    EXPECT_EQ(run1<float>(DIV, CK_TYPE_FLOAT32, -1.0f, 0.0f), -static_cast<float>(inf));
    EXPECT_TRUE(std::isnan(run1<float>(DIV, CK_TYPE_FLOAT32, 0.0f, 0.0f)));
    EXPECT_EQ(run1<uint16_t>(DIV, CK_TYPE_FLOAT16, 0x3c00, 0x0000), 0x7c00);  // 1/0 = inf
    EXPECT_EQ(run1<uint16_t>(DIV, CK_TYPE_FLOAT16, 0xbc00, 0x0000), 0xfc00);  // -1/0 = -inf
    EXPECT_EQ(run1<uint16_t>(DIV, CK_TYPE_FLOAT16, 0x3c00, 0x8000), 0xfc00);  // 1/-0 = -inf
    const uint16_t nan = run1<uint16_t>(DIV, CK_TYPE_FLOAT16, 0x0000, 0x0000);
    EXPECT_EQ(nan & 0x7c00, 0x7c00);
    EXPECT_NE(nan & 0x03ff, 0);
}

// float16 where the rounding decides. Halves: 1 = 0x3c00, 2048 = 0x6800, 2^-11 = 0x1000,
// 1 + 2^-10 = 0x3c01, 65504 = 0x7bff, 2^-24 = 0x0001.
TEST_P(ArithLeaves, Float16Rounding) {
    const int ADD = CK__ARITH_ADD, SUB = CK__ARITH_SUBTRACT, MUL = CK__ARITH_MULTIPLY,
              DIV = CK__ARITH_TRUNC_DIVIDE;
    const ck_type_id H = CK_TYPE_FLOAT16;
    EXPECT_EQ(run1<uint16_t>(ADD, H, 0x6800, 0x3c00), 0x6800);  // 2048 + 1: tie, to even 2048
    EXPECT_EQ(run1<uint16_t>(ADD, H, 0x6801, 0x3c00), 0x6802);  // 2050 + 1: tie, to even 2052
    EXPECT_EQ(run1<uint16_t>(ADD, H, 0x3c00, 0x1000), 0x3c00);  // 1 + 2^-11: tie, to 1
    EXPECT_EQ(run1<uint16_t>(ADD, H, 0x3c01, 0x1000), 0x3c02);  // (1 + 2^-10) + 2^-11: to even
    EXPECT_EQ(run1<uint16_t>(ADD, H, 0x7bff, 0x4c00), 0x7c00);  // 65504 + 16 = 65520: inf
    EXPECT_EQ(run1<uint16_t>(ADD, H, 0x7bff, 0x4800), 0x7bff);  // 65504 + 8: 65504
    EXPECT_EQ(run1<uint16_t>(SUB, H, 0x3c00, 0x3c00), 0x0000);  // 1 - 1 = +0
    EXPECT_EQ(run1<uint16_t>(MUL, H, 0x3c01, 0x3c01), 0x3c02);  // (1+2^-10)^2 = 1+2^-9+2^-20
    EXPECT_EQ(run1<uint16_t>(MUL, H, 0x0001, 0x3800), 0x0000);  // 2^-24 / 2: tie, to 0
    EXPECT_EQ(run1<uint16_t>(MUL, H, 0x0003, 0x3800), 0x0002);  // 1.5 * 2^-24: tie, to 2^-23
    EXPECT_EQ(run1<uint16_t>(DIV, H, 0x3c00, 0x4200), 0x3555);  // 1/3
    EXPECT_EQ(run1<uint16_t>(MUL, H, 0x7bff, 0x4000), 0x7c00);  // 65504 * 2 = inf
    // the same through the vector paths (lengths past 16 lanes, both broadcasts)
    ck_strided_fn fn = strided_of(ADD, H);
    std::vector<uint16_t> a(37, 0x6800), b(37, 0x3c00), d(37, 0);
    char *src[2] = {reinterpret_cast<char *>(a.data()), reinterpret_cast<char *>(b.data())};
    for (intptr_t s0 : {2, 0}) {
        for (intptr_t s1 : {2, 0}) {
            const intptr_t ss[2] = {s0, s1};
            std::fill(d.begin(), d.end(), 0);
            ASSERT_EQ(fn(nullptr, reinterpret_cast<char *>(d.data()), 2, src, ss, 37), CK_OK);
            for (uint16_t v : d) EXPECT_EQ(v, 0x6800);
        }
    }
}

// Bit patterns NumPy 1.24 printed (float.hex of the parts) for arrays of these values.
struct NumpyCase {
    double ar, ai, br, bi;
    double mul_re, mul_im, div_re, div_im;     // complex128
    float fmul_re, fmul_im, fdiv_re, fdiv_im;  // complex64, from the operands cast to float
};
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const float kInfF = std::numeric_limits<float>::infinity();
const float kNaNF = std::numeric_limits<float>::quiet_NaN();
const NumpyCase kNumpy[] = {
    {1, 2, 3, 4, -0x1.4p+2, 0x1.4p+3, 0x1.c28f5c28f5c29p-2, 0x1.47ae147ae147bp-4,
     -0x1.4p+2f, 0x1.4p+3f, 0x1.c28f5cp-2f, 0x1.47ae14p-4f},
    {4, 2, 2, 1, 0x1.8p+2, 0x1p+3, 0x1p+1, 0, 0x1.8p+2f, 0x1p+3f, 0x1p+1f, 0},
    {0.1, 0.7, -0.3, 1.9, -0x1.5c28f5c28f5c2p+0, -0x1.47ae147ae1478p-6, 0x1.67c8a60dd67c9p-2,
     -0x1.bacf914c1bad0p-4, -0x1.5c28f4p+0f, -0x1.47ae2p-6f, 0x1.67c8a6p-2f, -0x1.bacf92p-4f},
    {-2500, 0.001, 0.0725, -3.5, -0x1.6a7e353f7ced9p+7, 0x1.1170002602c91p+13,
     -0x1.d94684565790dp+3, -0x1.64fd5b6fea37ap+9, -0x1.6a7e36p+7f, 0x1.117p+13f,
     -0x1.d94684p+3f, -0x1.64fd5cp+9f},
    {1, 1, 0, 0, 0, 0, kInf, kInf, 0, 0, kInfF, kInfF},
    {-1, 2, -0.0, 0, 0, -0.0, -kInf, kInf, 0, -0.0f, -kInfF, kInfF},
    {0, 0, 0, 0, 0, 0, kNaN, kNaN, 0, 0, kNaNF, kNaNF},
};

template <class F>
bool same_real(F x, F y) {
    return (std::isnan(x) && std::isnan(y)) || std::memcmp(&x, &y, sizeof x) == 0;
}

struct C128 {
    double v[2];
};
struct C64 {
    float v[2];
};

TEST_P(ArithLeaves, ComplexMatchesNumpy) {
    for (const NumpyCase &c : kNumpy) {
        const C128 a{{c.ar, c.ai}}, b{{c.br, c.bi}};
        const C128 m = run1<C128>(CK__ARITH_MULTIPLY, CK_TYPE_COMPLEX128, a, b);
        const C128 q = run1<C128>(CK__ARITH_TRUNC_DIVIDE, CK_TYPE_COMPLEX128, a, b);
        EXPECT_TRUE(same_real(m.v[0], c.mul_re) && same_real(m.v[1], c.mul_im))
            << c.ar << "+" << c.ai << "i * " << c.br << "+" << c.bi << "i = " << m.v[0] << ", "
            << m.v[1];
        EXPECT_TRUE(same_real(q.v[0], c.div_re) && same_real(q.v[1], c.div_im))
            << c.ar << "+" << c.ai << "i / " << c.br << "+" << c.bi << "i = " << q.v[0] << ", "
            << q.v[1];
        const C64 fa{{static_cast<float>(c.ar), static_cast<float>(c.ai)}};
        const C64 fb{{static_cast<float>(c.br), static_cast<float>(c.bi)}};
        const C64 fm = run1<C64>(CK__ARITH_MULTIPLY, CK_TYPE_COMPLEX64, fa, fb);
        const C64 fq = run1<C64>(CK__ARITH_TRUNC_DIVIDE, CK_TYPE_COMPLEX64, fa, fb);
        EXPECT_TRUE(same_real(fm.v[0], c.fmul_re) && same_real(fm.v[1], c.fmul_im))
            << "complex64 " << c.ar << "+" << c.ai << "i * " << c.br << "+" << c.bi << "i";
        EXPECT_TRUE(same_real(fq.v[0], c.fdiv_re) && same_real(fq.v[1], c.fdiv_im))
            << "complex64 " << c.ar << "+" << c.ai << "i / " << c.br << "+" << c.bi << "i";
    }
}

// Derived by hand. (1+2i)/(3+4i): |3| < |4|, so rat = 3/4 (exact), scl = fl(1/6.25) = fl(0.16)
// (the double nearest 0.16), re = fl((0.75 + 2) * scl) = fl(2.75 * 0.16), im = fl((1.5 - 1) *
// scl) = 0.16 / 2 = the double nearest 0.08. (4+2i)/(2+1i): rat = 0.5, scl = fl(0.4),
// re = fl(5 * fl(0.4)) = 2 (fl(0.4) is above 0.4 by less than 2^-55, so 5 * fl(0.4) is within
// a quarter ulp of 2), im = 0 * scl = 0.
TEST_P(ArithLeaves, ComplexByHand) {
    const int MUL = CK__ARITH_MULTIPLY, DIV = CK__ARITH_TRUNC_DIVIDE;
    C128 q = run1<C128>(DIV, CK_TYPE_COMPLEX128, C128{{1, 2}}, C128{{3, 4}});
    EXPECT_EQ(q.v[0], 2.75 * 0.16);
    EXPECT_EQ(q.v[1], 0.08);
    EXPECT_NEAR(q.v[0], 0.44, 1e-16);
    C64 fq = run1<C64>(DIV, CK_TYPE_COMPLEX64, C64{{1, 2}}, C64{{3, 4}});
    EXPECT_EQ(fq.v[0], 2.75f * 0.16f);
    EXPECT_EQ(fq.v[1], 0.08f);
    q = run1<C128>(DIV, CK_TYPE_COMPLEX128, C128{{4, 2}}, C128{{2, 1}});
    EXPECT_EQ(q.v[0], 2.0);
    EXPECT_EQ(q.v[1], 0.0);
    // multiply: (1+2i)(3+4i) = -5 + 10i exactly
    C128 m = run1<C128>(MUL, CK_TYPE_COMPLEX128, C128{{1, 2}}, C128{{3, 4}});
    EXPECT_EQ(m.v[0], -5.0);
    EXPECT_EQ(m.v[1], 10.0);
    // No FMA: with x = 1 + 2^-30, (x + xi)^2 has re = fl(x*x) - fl(x*x) = +0 exactly; a fused
    // x*x - fl(x*x) would give the rounding error 2^-60 instead.
    const double x = 1 + 0x1p-30;
    m = run1<C128>(MUL, CK_TYPE_COMPLEX128, C128{{x, x}}, C128{{x, x}});
    EXPECT_EQ(m.v[0], 0.0);
    EXPECT_FALSE(std::signbit(m.v[0]));
    EXPECT_EQ(m.v[1], 2 * (1 + 0x1p-29));  // fl(x*x) = 1 + 2^-29 (2^-60 rounded off)
    const float xf = 1 + 0x1p-12f;
    C64 fm = run1<C64>(MUL, CK_TYPE_COMPLEX64, C64{{xf, xf}}, C64{{xf, xf}});
    EXPECT_EQ(fm.v[0], 0.0f);
    EXPECT_EQ(fm.v[1], 2 * (1 + 0x1p-11f));  // 1 + 2^-11 + 2^-24: tie, to even
    // divide by 0+0i divides each part by +0
    q = run1<C128>(DIV, CK_TYPE_COMPLEX128, C128{{1, 0}}, C128{{0, 0}});
    EXPECT_EQ(q.v[0], kInf);
    EXPECT_TRUE(std::isnan(q.v[1]));  // 0/0
    q = run1<C128>(DIV, CK_TYPE_COMPLEX128, C128{{-3, -0.0}}, C128{{-0.0, -0.0}});
    EXPECT_EQ(q.v[0], -kInf);           // -3 / +0
    EXPECT_TRUE(std::isnan(q.v[1]));    // -0 / +0
    // a NaN divisor part takes the second branch: NaN parts
    q = run1<C128>(DIV, CK_TYPE_COMPLEX128, C128{{1, 1}}, C128{{kNaN, 1}});
    EXPECT_TRUE(std::isnan(q.v[0]) && std::isnan(q.v[1]));
}

TEST_P(ArithLeaves, DescribeNamesOpTypeKindAndTarget) {
    const std::string target = ckt::expected_bandwidth_target(GetParam().id);
    for (int op = 0; op < kArithOps; op++) {
        for (const TInfo &t : kTypes) {
            if (!has_leaf_expected(op, t)) continue;
            const std::string base = std::string(kOpNames[op]) + " " + t.name;
            EXPECT_EQ(describe(leaf_function(op, t.id, CK_REQUEST_SINGLE)),
                      base + " single [" + target + "]");
            EXPECT_EQ(describe(leaf_function(op, t.id, CK_REQUEST_STRIDED)),
                      base + " strided [" + target + "]");
        }
    }
    // ck_kernel_describe recognises the leaf too
    ck_builder b;
    ck_builder_init(&b);
    size_t offset = 0;
    ASSERT_EQ(ck__make_arith_leaf(&b, &offset, CK__ARITH_ADD, CK_TYPE_FLOAT64, CK_REQUEST_STRIDED),
              CK_OK);
    char *text = nullptr;
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &text), CK_OK);
    EXPECT_EQ(std::string(text), "leaf @0 +" + std::to_string(sizeof(ck_prefix)) +
                                     "  add float64 strided [" + target + "]\n");
    ck_free(text);
    ck_builder_destroy(&b);
}

INSTANTIATE_TEST_SUITE_P(Targets, ArithLeaves, ::testing::ValuesIn(kTargets),
                         ckt::name_by_content(kTargets, [](const Target &tg) {
                             return std::string(tg.name);
                         }));

// ---- target-independent ----
TEST(ArithLeafFactory, OpNames) {
    for (int op = 0; op < CK__ARITH_NUM_OPS; op++) {
        EXPECT_STREQ(ck__arith_op_name(static_cast<ck__arith_op>(op)), kOpNames[op]);
    }
    EXPECT_EQ(ck__arith_op_name(CK__ARITH_NUM_OPS), nullptr);
}

TEST(ArithLeafFactory, MissingEntriesAreRefused) {
    ck_builder b;
    ck_builder_init(&b);
    size_t offset = 0;
    EXPECT_EQ(ck__make_arith_leaf(&b, &offset, CK__ARITH_SUBTRACT, CK_TYPE_BOOL, CK_REQUEST_SINGLE),
              CK_ERR_INTERNAL);
    EXPECT_NE(std::string(ck_last_error()).find("subtract"), std::string::npos) << ck_last_error();
    EXPECT_EQ(ck__make_arith_leaf(&b, &offset, CK__ARITH_NUM_OPS, CK_TYPE_INT32, CK_REQUEST_SINGLE),
              CK_ERR_INTERNAL);
    EXPECT_EQ(ck__make_arith_leaf(&b, &offset, CK__ARITH_ADD, CK_TYPE_FIXED_DIM, CK_REQUEST_SINGLE),
              CK_ERR_INTERNAL);
    EXPECT_EQ(offset, 0u);
    EXPECT_EQ(ck__arith_has_leaf(CK__ARITH_NUM_OPS, CK_TYPE_INT32), 0);
    EXPECT_EQ(ck__arith_has_leaf(CK__ARITH_ADD, CK_TYPE_POINTER), 0);
    EXPECT_EQ(describe(nullptr), "(none)");
    int not_a_leaf = 0;
    EXPECT_EQ(describe(&not_a_leaf), "(none)");
    ck_builder_destroy(&b);
}

}  // namespace
