// tests/callables/reduce_leaves_test.cpp: the leaves reductions are made of, under every
// compiled CPU target this machine runs:
//   * the elementwise minimum, maximum, logical_and, logical_or leaves (leaves/
//     numeric/arith.dispatch.c) for every type, against NumPy 1.24's definitions written out here
//     (ties between 0 and -0, NaN operands, float16's first-of-equals rule, complex ordering
//     with NaN parts), checked bit for bit;
//   * the accumulate leaves (leaves/reduce/reduce_ops.dispatch.c), in place (dst[i] = op(dst[i],
//     x[i]), against one C++ operation per element) and folding a run (dst stride 0): integer
//     and bool folds against an exact fold in order; float and complex sums and products bit
//     for bit against the documented association (16 lanes, blocks of 128, blocks paired by
//     the largest power of two, lanes halved), written here recursively where the library
//     uses a binary counter; minimum and maximum against a sequential selection of the value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "complex_ref.h"
#include "half_exact.hpp"
extern "C" {
#include "leaves/numeric/arith_leaves.h"
#include "leaves/reduce/reduce_ops.h"
}

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

class ReduceLeaves : public ::testing::TestWithParam<ck_cpu_target> {
  protected:
    void SetUp() override { ASSERT_EQ(ck_cpu_set_target_cap(GetParam()), CK_OK); }
    void TearDown() override { ck_cpu_set_target_cap(ckt::best_compiled_target()); }
};

std::vector<ck_cpu_target> targets() {
    return ckt::runnable_targets();
}

// The strided function of the leaf a maker builds for the current target: an elementwise,
// accumulate or scan leaf.
template <class Make>
ck_strided_fn leaf_fn(Make make) {
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    EXPECT_EQ(make(&b, &off), CK_OK) << ck_last_error();
    ck_strided_fn fn = ck_prefix_strided(ck_builder_root(&b));
    ck_builder_destroy(&b);
    return fn;
}
ck_strided_fn elementwise_fn(ck__arith_op op, ck_type_id id) {
    return leaf_fn([&](ck_builder *b, size_t *off) {
        return ck__make_arith_leaf(b, off, op, id, CK_REQUEST_STRIDED);
    });
}
ck_strided_fn acc_fn(ck__arith_op op, ck_type_id id) {
    return leaf_fn([&](ck_builder *b, size_t *off) { return ck__make_acc_leaf(b, off, op, id); });
}
ck_strided_fn scan_fn(ck__arith_op op, ck_type_id id) {
    return leaf_fn([&](ck_builder *b, size_t *off) { return ck__make_scan_leaf(b, off, op, id); });
}

template <class T>
T call2(ck__arith_op op, ck_type_id id, T a, T b) {
    T r;
    std::memset(&r, 0xa5, sizeof r);
    char *src[2] = {reinterpret_cast<char *>(&a), reinterpret_cast<char *>(&b)};
    const intptr_t ss[2] = {0, 0};
    EXPECT_EQ(elementwise_fn(op, id)(nullptr, reinterpret_cast<char *>(&r), 0, src, ss, 1), CK_OK);
    return r;
}
template <class T>
uint8_t logical2(ck__arith_op op, ck_type_id id, T a, T b) {
    uint8_t r = 0xa5;
    char *src[2] = {reinterpret_cast<char *>(&a), reinterpret_cast<char *>(&b)};
    const intptr_t ss[2] = {0, 0};
    EXPECT_EQ(elementwise_fn(op, id)(nullptr, reinterpret_cast<char *>(&r), 0, src, ss, 1), CK_OK);
    return r;
}
template <class T>
uint64_t bits(T v) {
    uint64_t u = 0;
    std::memcpy(&u, &v, sizeof v < 8 ? sizeof v : 8);
    return u;
}

struct C64 {
    float v[2];
};
struct C128 {
    double v[2];
};

// ---- elementwise minimum and maximum ----

TEST_P(ReduceLeaves, MinMaxIntegersAndBool) {
    EXPECT_EQ(call2<int8_t>(CK__ARITH_MINIMUM, CK_TYPE_INT8, -128, 127), -128);
    EXPECT_EQ(call2<int8_t>(CK__ARITH_MAXIMUM, CK_TYPE_INT8, -128, 127), 127);
    EXPECT_EQ(call2<uint64_t>(CK__ARITH_MINIMUM, CK_TYPE_UINT64, UINT64_MAX, 3), 3u);
    EXPECT_EQ(call2<uint64_t>(CK__ARITH_MAXIMUM, CK_TYPE_UINT64, UINT64_MAX, 3), UINT64_MAX);
    EXPECT_EQ(call2<int64_t>(CK__ARITH_MINIMUM, CK_TYPE_INT64, INT64_MIN, INT64_MAX), INT64_MIN);
    EXPECT_EQ(call2<uint16_t>(CK__ARITH_MAXIMUM, CK_TYPE_UINT16, 40000, 39999), 40000);
    // bool: and / or of the truth values (any non-zero byte is true), written 0 or 1
    EXPECT_EQ(call2<uint8_t>(CK__ARITH_MINIMUM, CK_TYPE_BOOL, 2, 1), 1);
    EXPECT_EQ(call2<uint8_t>(CK__ARITH_MINIMUM, CK_TYPE_BOOL, 2, 0), 0);
    EXPECT_EQ(call2<uint8_t>(CK__ARITH_MAXIMUM, CK_TYPE_BOOL, 0, 7), 1);
    EXPECT_EQ(call2<uint8_t>(CK__ARITH_MAXIMUM, CK_TYPE_BOOL, 0, 0), 0);
}

TEST_P(ReduceLeaves, MinMaxFloatsTiesAndNaN) {
    // float32/float64: of two equal values the second (NumPy's SIMD loops), a NaN operand wins
    // (the first of two NaNs)
    const double nan1 = std::nan("1"), nan2 = std::nan("2");
    for (ck__arith_op op : {CK__ARITH_MINIMUM, CK__ARITH_MAXIMUM}) {
        EXPECT_EQ(bits(call2<double>(op, CK_TYPE_FLOAT64, 0.0, -0.0)), bits(-0.0));
        EXPECT_EQ(bits(call2<double>(op, CK_TYPE_FLOAT64, -0.0, 0.0)), bits(0.0));
        EXPECT_EQ(bits(call2<float>(op, CK_TYPE_FLOAT32, 0.0f, -0.0f)), bits(-0.0f));
        EXPECT_EQ(bits(call2<double>(op, CK_TYPE_FLOAT64, nan1, 1.0)), bits(nan1));
        EXPECT_EQ(bits(call2<double>(op, CK_TYPE_FLOAT64, 1.0, nan2)), bits(nan2));
        EXPECT_EQ(bits(call2<double>(op, CK_TYPE_FLOAT64, nan1, nan2)), bits(nan1));
        EXPECT_TRUE(std::isnan(call2<float>(op, CK_TYPE_FLOAT32, 2.0f, NAN)));
    }
    EXPECT_EQ(call2<double>(CK__ARITH_MINIMUM, CK_TYPE_FLOAT64, -kInf, 3.0), -kInf);
    EXPECT_EQ(call2<double>(CK__ARITH_MAXIMUM, CK_TYPE_FLOAT64, -kInf, 3.0), 3.0);
    EXPECT_EQ(call2<float>(CK__ARITH_MINIMUM, CK_TYPE_FLOAT32, 1e-45f, 0.0f), 0.0f);
    // float16: compared as values, the first of two equal ones, the operand's own bits
    const uint16_t pz = 0x0000, nz = 0x8000, one = 0x3c00, two = 0x4000, snan = 0x7d01;
    EXPECT_EQ(call2<uint16_t>(CK__ARITH_MINIMUM, CK_TYPE_FLOAT16, pz, nz), pz);
    EXPECT_EQ(call2<uint16_t>(CK__ARITH_MINIMUM, CK_TYPE_FLOAT16, nz, pz), nz);
    EXPECT_EQ(call2<uint16_t>(CK__ARITH_MAXIMUM, CK_TYPE_FLOAT16, pz, nz), pz);
    EXPECT_EQ(call2<uint16_t>(CK__ARITH_MINIMUM, CK_TYPE_FLOAT16, two, one), one);
    EXPECT_EQ(call2<uint16_t>(CK__ARITH_MAXIMUM, CK_TYPE_FLOAT16, two, one), two);
    EXPECT_EQ(call2<uint16_t>(CK__ARITH_MAXIMUM, CK_TYPE_FLOAT16, snan, one), snan);
    EXPECT_EQ(call2<uint16_t>(CK__ARITH_MINIMUM, CK_TYPE_FLOAT16, one, snan), snan);
}

TEST_P(ReduceLeaves, MinMaxComplexLexicographicWithNaN) {
    auto mn = [](C128 a, C128 b) { return call2<C128>(CK__ARITH_MINIMUM, CK_TYPE_COMPLEX128, a, b); };
    auto mx = [](C128 a, C128 b) { return call2<C128>(CK__ARITH_MAXIMUM, CK_TYPE_COMPLEX128, a, b); };
    C128 r = mn({{1, 2}}, {{1, 1}});
    EXPECT_EQ(r.v[0], 1);
    EXPECT_EQ(r.v[1], 1);  // the real parts tie: the imaginary ones decide
    r = mx({{1, 2}}, {{0, 5}});
    EXPECT_EQ(r.v[0], 1);
    EXPECT_EQ(r.v[1], 2);
    // an operand with a NaN part wins: the first, else the second (NumPy prints (1+nanj))
    r = mn({{1, kNaN}}, {{0, 0}});
    EXPECT_EQ(r.v[0], 1);
    EXPECT_TRUE(std::isnan(r.v[1]));
    r = mn({{0, 0}}, {{1, kNaN}});
    EXPECT_EQ(r.v[0], 1);
    EXPECT_TRUE(std::isnan(r.v[1]));
    // equal values: minimum keeps the first when its imaginary part is <= (0 <= -0)
    r = mn({{0, 0.0}}, {{0, -0.0}});
    EXPECT_EQ(bits(r.v[1]), bits(0.0));
    const C64 c = call2<C64>(CK__ARITH_MINIMUM, CK_TYPE_COMPLEX64, C64{{-1, 9}}, C64{{2, -9}});
    EXPECT_EQ(c.v[0], -1);
    EXPECT_EQ(c.v[1], 9);
}

// ---- logical_and, logical_or: truth values, a bool result ----

TEST_P(ReduceLeaves, LogicalOperationsTakeTruthValues) {
    const ck__arith_op AND = CK__ARITH_LOGICAL_AND, OR = CK__ARITH_LOGICAL_OR;
    EXPECT_EQ(logical2<double>(AND, CK_TYPE_FLOAT64, kNaN, 1.0), 1);   // NaN is true
    EXPECT_EQ(logical2<double>(AND, CK_TYPE_FLOAT64, -0.0, 1.0), 0);   // -0 is false
    EXPECT_EQ(logical2<double>(OR, CK_TYPE_FLOAT64, -0.0, 0.0), 0);
    EXPECT_EQ(logical2<float>(OR, CK_TYPE_FLOAT32, 0.0f, 1e-45f), 1);  // a subnormal is true
    EXPECT_EQ(logical2<uint16_t>(AND, CK_TYPE_FLOAT16, 0x8000, 0x3c00), 0);  // -0
    EXPECT_EQ(logical2<uint16_t>(AND, CK_TYPE_FLOAT16, 0x0001, 0x7e00), 1);  // subnormal, NaN
    EXPECT_EQ(logical2<C128>(AND, CK_TYPE_COMPLEX128, C128{{0, 1}}, C128{{2, 0}}), 1);
    EXPECT_EQ(logical2<C64>(OR, CK_TYPE_COMPLEX64, C64{{0, -0.0f}}, C64{{0, 0}}), 0);
    EXPECT_EQ(logical2<uint8_t>(AND, CK_TYPE_BOOL, 2, 255), 1);
    EXPECT_EQ(logical2<int64_t>(AND, CK_TYPE_INT64, INT64_MIN, 1), 1);
    EXPECT_EQ(logical2<uint32_t>(OR, CK_TYPE_UINT32, 0, 0), 0);
    EXPECT_EQ(logical2<int8_t>(OR, CK_TYPE_INT8, 0, -1), 1);
}

// Every type, contiguous and strided, against the definitions on random values.
TEST_P(ReduceLeaves, LogicalOverRuns) {
    std::mt19937 rng(7);
    const size_t n = 77;
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; id++) {
        const size_t es = ck_type_data_size(ck_type_scalar(static_cast<ck_type_id>(id)));
        for (ck__arith_op op : {CK__ARITH_LOGICAL_AND, CK__ARITH_LOGICAL_OR}) {
            for (intptr_t step : {1, 3}) {
                std::vector<unsigned char> a(n * es * 3), b(n * es * 3);
                for (size_t i = 0; i < a.size(); i++) {
                    // mostly zero bytes, so that false values are common
                    a[i] = (rng() % 3 == 0) ? static_cast<unsigned char>(rng()) : 0;
                    b[i] = (rng() % 3 == 0) ? static_cast<unsigned char>(rng()) : 0;
                }
                std::vector<uint8_t> d(n, 0xa5);
                char *src[2] = {reinterpret_cast<char *>(a.data()), reinterpret_cast<char *>(b.data())};
                const intptr_t ss[2] = {step * static_cast<intptr_t>(es), step * static_cast<intptr_t>(es)};
                ASSERT_EQ(elementwise_fn(op, static_cast<ck_type_id>(id))(
                              nullptr, reinterpret_cast<char *>(d.data()), 1, src, ss, n),
                          CK_OK);
                auto truth = [&](const unsigned char *p) {
                    // a value is false when every byte of every part is zero, except a float's
                    // sign bit (-0 is false)
                    const ck_type_id t = static_cast<ck_type_id>(id);
                    unsigned char v[16];
                    std::memcpy(v, p, es);
                    if (t == CK_TYPE_FLOAT16) v[1] &= 0x7f;
                    if (t == CK_TYPE_FLOAT32) v[3] &= 0x7f;
                    if (t == CK_TYPE_FLOAT64) v[7] &= 0x7f;
                    if (t == CK_TYPE_COMPLEX64) v[3] &= 0x7f, v[7] &= 0x7f;
                    if (t == CK_TYPE_COMPLEX128) v[7] &= 0x7f, v[15] &= 0x7f;
                    int any = 0;
                    for (size_t k = 0; k < es; k++) any |= v[k] != 0;
                    return any;
                };
                for (size_t i = 0; i < n; i++) {
                    const int x = truth(&a[i * step * es]), y = truth(&b[i * step * es]);
                    const int want = op == CK__ARITH_LOGICAL_AND ? (x & y) : (x | y);
                    ASSERT_EQ(d[i], want) << ck_type_id_name(static_cast<ck_type_id>(id)) << " " << i;
                }
            }
        }
    }
}

// ---- accumulate leaves ----

// Runs an accumulate leaf: dst (n elements at dst_stride, or one with stride 0) op= x.
void run_acc(ck__arith_op op, ck_type_id id, void *dst, intptr_t ds, const void *x, intptr_t xs,
             size_t n) {
    char *src = const_cast<char *>(static_cast<const char *>(x));
    ASSERT_EQ(acc_fn(op, id)(nullptr, static_cast<char *>(dst), ds, &src, &xs, n), CK_OK);
}

TEST_P(ReduceLeaves, TableHasTheReducingOperations) {
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; id++) {
        const ck_type_id t = static_cast<ck_type_id>(id);
        for (int op = 0; op < CK__ARITH_NUM_OPS; op++) {
            const bool want = op == CK__ARITH_ADD || op == CK__ARITH_MULTIPLY ||
                              op == CK__ARITH_MINIMUM || op == CK__ARITH_MAXIMUM ||
                              (t == CK_TYPE_BOOL && (op == CK__ARITH_LOGICAL_AND ||
                                                     op == CK__ARITH_LOGICAL_OR));
            EXPECT_EQ(ck__acc_has_leaf(static_cast<ck__arith_op>(op), t), want ? 1 : 0)
                << op << " " << ck_type_id_name(t);
        }
    }
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    EXPECT_EQ(ck__make_acc_leaf(&b, &off, CK__ARITH_SUBTRACT, CK_TYPE_INT32), CK_ERR_INTERNAL);
    EXPECT_EQ(ck__make_acc_leaf(&b, &off, CK__ARITH_LOGICAL_OR, CK_TYPE_INT32), CK_ERR_INTERNAL);
    ASSERT_EQ(ck__make_acc_leaf(&b, &off, CK__ARITH_MAXIMUM, CK_TYPE_UINT16), CK_OK);
    char *text = nullptr;
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &text), CK_OK);
    EXPECT_EQ(std::string(text), "leaf @0 +" + std::to_string(sizeof(ck_prefix)) +
                                     "  accumulate maximum uint16 [" +
                                     ck_cpu_target_name(GetParam()) + "]\n");
    ck_free(text);
    ck_builder_destroy(&b);
}

// Integers and bools: the fold is exact, the same as a fold in order with the element op.
template <class T>
void check_int_folds(ck_type_id id, std::mt19937 &rng) {
    const int ops[] = {CK__ARITH_ADD, CK__ARITH_MULTIPLY, CK__ARITH_MINIMUM, CK__ARITH_MAXIMUM};
    for (int op : ops) {
        for (size_t n : {size_t(0), size_t(1), size_t(15), size_t(16), size_t(129), size_t(1000)}) {
            for (intptr_t step : {1, 2, -1}) {
                std::vector<T> x(n * 2 + 1);
                for (T &v : x) v = static_cast<T>(rng());
                if (op == CK__ARITH_MULTIPLY) {
                    for (T &v : x) v = static_cast<T>((v & 3) + 1);  // products stay interesting
                }
                const T *first = step < 0 ? &x[n] : &x[0];
                T start = static_cast<T>(rng()), want = start;
                for (size_t i = 0; i < n; i++) {
                    const T v = first[static_cast<intptr_t>(i) * step];
                    // unsigned arithmetic wraps like the leaves' (no signed overflow here)
                    using U = typename std::make_unsigned<T>::type;
                    switch (op) {
                    case CK__ARITH_ADD: want = static_cast<T>(static_cast<U>(want) + static_cast<U>(v)); break;
                    case CK__ARITH_MULTIPLY:
                        want = static_cast<T>(static_cast<uint64_t>(static_cast<U>(want)) *
                                              static_cast<uint64_t>(static_cast<U>(v)));
                        break;
                    case CK__ARITH_MINIMUM: want = v < want ? v : want; break;
                    default: want = v > want ? v : want; break;
                    }
                }
                T acc = start;
                run_acc(static_cast<ck__arith_op>(op), id, &acc, 0, first,
                        step * static_cast<intptr_t>(sizeof(T)), n);
                ASSERT_EQ(acc, want) << ck_type_id_name(id) << " op " << op << " n=" << n
                                     << " step " << step;
            }
        }
    }
}

TEST_P(ReduceLeaves, IntegerFoldsAreExact) {
    std::mt19937 rng(11);
    check_int_folds<int8_t>(CK_TYPE_INT8, rng);
    check_int_folds<int16_t>(CK_TYPE_INT16, rng);
    check_int_folds<int32_t>(CK_TYPE_INT32, rng);
    check_int_folds<int64_t>(CK_TYPE_INT64, rng);
    check_int_folds<uint8_t>(CK_TYPE_UINT8, rng);
    check_int_folds<uint16_t>(CK_TYPE_UINT16, rng);
    check_int_folds<uint32_t>(CK_TYPE_UINT32, rng);
    check_int_folds<uint64_t>(CK_TYPE_UINT64, rng);
}

TEST_P(ReduceLeaves, BoolFolds) {
    // add is or, multiply and, minimum and, maximum or, logical_and, logical_or
    const uint8_t x[] = {1, 0, 2, 1};
    const uint8_t ones[] = {1, 3, 1};
    struct Case {
        ck__arith_op op;
        const uint8_t *data;
        size_t n;
        uint8_t start, want;
    } cases[] = {
        {CK__ARITH_ADD, x, 4, 0, 1},          {CK__ARITH_MULTIPLY, x, 4, 1, 0},
        {CK__ARITH_MULTIPLY, ones, 3, 1, 1},  {CK__ARITH_MINIMUM, ones, 3, 1, 1},
        {CK__ARITH_MAXIMUM, x, 4, 0, 1},      {CK__ARITH_LOGICAL_AND, x, 4, 1, 0},
        {CK__ARITH_LOGICAL_AND, ones, 3, 1, 1}, {CK__ARITH_LOGICAL_OR, x, 0, 0, 0},
        {CK__ARITH_LOGICAL_OR, x + 1, 1, 0, 0}, {CK__ARITH_LOGICAL_OR, x + 1, 2, 0, 1},
    };
    for (const Case &c : cases) {
        uint8_t acc = c.start;
        run_acc(c.op, CK_TYPE_BOOL, &acc, 0, c.data, 1, c.n);
        EXPECT_EQ(acc, c.want) << c.op << " n=" << c.n;
    }
}

// The documented association of a float fold, written recursively: element i of the run
// goes to lane i mod L of block i / 128 (in order within the lane: a lane starts with its
// first element as it is, never from the identity), blocks [lo, hi) combine as
// P(lo, lo + h) op P(lo + h, hi) with h the largest power of two below hi - lo (a lane empty
// on one side takes the other's), lanes are then halved (lane l op lane l + w for
// w = L/2 .. 1, where lane l + w holds a value), and the result goes into the accumulator
// last: acc op r.
template <class E>
struct TreeRef {
    std::function<E(E, E)> op;
    E id;
    int lanes;
    struct Lanes {
        std::vector<E> v;
        size_t filled;
    };
    Lanes block(const std::vector<E> &x, size_t b) const {
        Lanes v{std::vector<E>(static_cast<size_t>(lanes), id), 0};
        for (size_t i = b * 128; i < x.size() && i < (b + 1) * 128; i++) {
            const size_t l = (i - b * 128) % static_cast<size_t>(lanes);
            v.v[l] = l < v.filled ? op(v.v[l], x[i]) : x[i];
            v.filled = std::max(v.filled, l + 1);
        }
        return v;
    }
    Lanes pair(const std::vector<E> &x, size_t lo, size_t hi) const {
        if (hi - lo == 1) return block(x, lo);
        size_t h = 1;
        while (h * 2 < hi - lo) h *= 2;
        Lanes a = pair(x, lo, lo + h), b = pair(x, lo + h, hi);
        for (size_t l = 0; l < b.filled; l++) a.v[l] = l < a.filled ? op(a.v[l], b.v[l]) : b.v[l];
        a.filled = std::max(a.filled, b.filled);
        return a;
    }
    E fold(E acc, const std::vector<E> &x) const {
        if (x.empty()) return op(acc, id);
        Lanes v = pair(x, 0, (x.size() + 127) / 128);
        for (size_t w = static_cast<size_t>(lanes) / 2; w >= 1; w /= 2) {
            for (size_t l = 0; l < w; l++) {
                if (l + w < v.filled) v.v[l] = op(v.v[l], v.v[l + w]);
            }
            v.filled = std::min(v.filled, w);
        }
        return op(acc, v.v[0]);
    }
};

template <class T>
void check_float_tree(ck__arith_op op, ck_type_id id, std::mt19937 &rng) {
    TreeRef<T> ref;
    ref.op = op == CK__ARITH_ADD ? std::function<T(T, T)>([](T a, T b) { return a + b; })
                                 : std::function<T(T, T)>([](T a, T b) { return a * b; });
    ref.id = op == CK__ARITH_ADD ? T(0) : T(1);
    ref.lanes = 16;
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (size_t n : {size_t(0), size_t(1), size_t(17), size_t(128), size_t(129), size_t(385),
                     size_t(1000), size_t(128 * 7 + 5), size_t(128 * 64), size_t(33333)}) {
        for (intptr_t step : {1, 3, -2}) {
            std::vector<T> x(n);
            for (T &v : x) {
                // products: values near 1, so that long runs stay finite
                v = static_cast<T>(op == CK__ARITH_ADD ? u(rng) * std::ldexp(1.0, static_cast<int>(rng() % 40) - 20)
                                                        : 1.0 + u(rng) / 64);
            }
            std::vector<T> store(n * 3 + 1);
            T *first = step < 0 ? &store[store.size() - 1] : &store[0];
            for (size_t i = 0; i < n; i++) first[static_cast<intptr_t>(i) * step] = x[i];
            const T start = static_cast<T>(op == CK__ARITH_ADD ? 0.5 : 2.0);
            T acc = start;
            run_acc(op, id, &acc, 0, first, step * static_cast<intptr_t>(sizeof(T)), n);
            const T want = ref.fold(start, x);
            ASSERT_EQ(bits(acc), bits(want)) << ck_type_id_name(id) << " op " << op << " n=" << n
                                             << " step " << step << ": " << acc << " vs " << want;
        }
    }
}

TEST_P(ReduceLeaves, FloatSumsAndProductsFollowTheDocumentedTree) {
    std::mt19937 rng(5);
    check_float_tree<double>(CK__ARITH_ADD, CK_TYPE_FLOAT64, rng);
    check_float_tree<float>(CK__ARITH_ADD, CK_TYPE_FLOAT32, rng);
    check_float_tree<double>(CK__ARITH_MULTIPLY, CK_TYPE_FLOAT64, rng);
    check_float_tree<float>(CK__ARITH_MULTIPLY, CK_TYPE_FLOAT32, rng);
}

TEST_P(ReduceLeaves, Float16FoldsInFloat32AndRoundsOnce) {
    TreeRef<float> ref;
    ref.op = [](float a, float b) { return a + b; };
    ref.id = 0.0f;
    ref.lanes = 16;
    std::mt19937 rng(9);
    for (size_t n : {size_t(1), size_t(40), size_t(300), size_t(2049)}) {
        std::vector<uint16_t> x(n);
        std::vector<float> xf(n);
        for (size_t i = 0; i < n; i++) {
            x[i] = static_cast<uint16_t>(rng() & 0x3bff);  // finite, below 1
            xf[i] = static_cast<float>(ckt::half_value(x[i]));
        }
        uint16_t acc = 0x3c00;  // 1
        run_acc(CK__ARITH_ADD, CK_TYPE_FLOAT16, &acc, 0, x.data(), 2, n);
        const float r = ref.fold(1.0f, xf);
        EXPECT_EQ(acc, ckt::round_to_half(static_cast<long double>(r))) << "n=" << n;
    }
}

TEST_P(ReduceLeaves, ComplexSumsFollowTheTree) {
    // a complex sum is the sum of the real parts and of the imaginary parts, each in the
    // tree of 8 complex lanes
    TreeRef<double> ref;
    ref.op = [](double a, double b) { return a + b; };
    ref.id = 0.0;
    ref.lanes = 8;
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1e3, 1e3);
    for (size_t n : {size_t(1), size_t(9), size_t(130), size_t(1500)}) {
        std::vector<C128> x(n);
        std::vector<double> re(n), im(n);
        for (size_t i = 0; i < n; i++) {
            x[i] = C128{{u(rng), u(rng)}};
            re[i] = x[i].v[0];
            im[i] = x[i].v[1];
        }
        C128 acc{{0, 0}};
        run_acc(CK__ARITH_ADD, CK_TYPE_COMPLEX128, &acc, 0, x.data(), 16, n);
        EXPECT_EQ(bits(acc.v[0]), bits(ref.fold(0.0, re))) << n;
        EXPECT_EQ(bits(acc.v[1]), bits(ref.fold(0.0, im))) << n;
    }
}

TEST_P(ReduceLeaves, ComplexProductsFollowTheTree) {
    TreeRef<C128> ref;
    ref.op = [](C128 a, C128 b) {
        C128 r;
        ckt_complex_mul_d(a.v, b.v, r.v);
        return r;
    };
    ref.id = C128{{1, 0}};
    ref.lanes = 8;
    std::mt19937 rng(13);
    std::uniform_real_distribution<double> u(-0.05, 0.05);
    for (size_t n : {size_t(2), size_t(200), size_t(1100)}) {
        std::vector<C128> x(n);
        for (C128 &v : x) v = C128{{1 + u(rng), u(rng)}};
        C128 acc{{1, 0}};
        run_acc(CK__ARITH_MULTIPLY, CK_TYPE_COMPLEX128, &acc, 0, x.data(), 16, n);
        const C128 want = ref.fold(C128{{1, 0}}, x);
        EXPECT_EQ(bits(acc.v[0]), bits(want.v[0])) << n;
        EXPECT_EQ(bits(acc.v[1]), bits(want.v[1])) << n;
    }
}

TEST_P(ReduceLeaves, FloatMinMaxFoldsSelectTheExtremeAndPropagateNaN) {
    std::mt19937 rng(21);
    std::uniform_real_distribution<double> u(-1e6, 1e6);
    for (size_t n : {size_t(1), size_t(16), size_t(200), size_t(5000)}) {
        std::vector<double> x(n);
        for (double &v : x) v = u(rng);
        double lo = kInf, hi = -kInf;
        for (double v : x) lo = v < lo ? v : lo, hi = v > hi ? v : hi;
        double acc = kInf;
        run_acc(CK__ARITH_MINIMUM, CK_TYPE_FLOAT64, &acc, 0, x.data(), 8, n);
        EXPECT_EQ(acc, lo) << n;
        acc = -kInf;
        run_acc(CK__ARITH_MAXIMUM, CK_TYPE_FLOAT64, &acc, 0, x.data(), 8, n);
        EXPECT_EQ(acc, hi) << n;
        std::vector<float> f(x.begin(), x.end());
        float facc = static_cast<float>(kInf);
        run_acc(CK__ARITH_MINIMUM, CK_TYPE_FLOAT32, &facc, 0, f.data(), 4, n);
        EXPECT_EQ(facc, static_cast<float>(lo)) << n;
        x[n / 2] = kNaN;  // anywhere in the run
        acc = kInf;
        run_acc(CK__ARITH_MINIMUM, CK_TYPE_FLOAT64, &acc, 0, x.data(), 8, n);
        EXPECT_TRUE(std::isnan(acc)) << n;
        acc = -kInf;
        run_acc(CK__ARITH_MAXIMUM, CK_TYPE_FLOAT64, &acc, 0, x.data(), 8, n);
        EXPECT_TRUE(std::isnan(acc)) << n;
    }
    // float16: the extreme value's own bits; complex: lexicographic
    const uint16_t h[] = {0x4000, 0xbc00, 0x3c00, 0xc000, 0x0001};  // 2 -1 1 -2 tiny
    uint16_t hacc = 0x7c00;
    run_acc(CK__ARITH_MINIMUM, CK_TYPE_FLOAT16, &hacc, 0, h, 2, 5);
    EXPECT_EQ(hacc, 0xc000);
    hacc = 0xfc00;
    run_acc(CK__ARITH_MAXIMUM, CK_TYPE_FLOAT16, &hacc, 0, h, 2, 5);
    EXPECT_EQ(hacc, 0x4000);
    const C128 z[] = {{{1, 5}}, {{1, -5}}, {{-1, 9}}, {{0, 0}}};
    C128 zacc{{kInf, kInf}};
    run_acc(CK__ARITH_MINIMUM, CK_TYPE_COMPLEX128, &zacc, 0, z, 16, 4);
    EXPECT_EQ(zacc.v[0], -1);
    EXPECT_EQ(zacc.v[1], 9);
    zacc = C128{{-kInf, -kInf}};
    run_acc(CK__ARITH_MAXIMUM, CK_TYPE_COMPLEX128, &zacc, 0, z, 16, 4);
    EXPECT_EQ(zacc.v[0], 1);
    EXPECT_EQ(zacc.v[1], 5);
}

// Ties of 0 and -0 and NaN payloads: the lanes' vector code must select exactly as the
// element operation does, so the result is the documented tree's, bit for bit.
template <class T>
void check_minmax_lanes(ck__arith_op op, ck_type_id id, std::mt19937 &rng) {
    TreeRef<T> ref;
    const bool mn = op == CK__ARITH_MINIMUM;
    ref.op = mn ? std::function<T(T, T)>([](T a, T b) { return (a < b || a != a) ? a : b; })
                : std::function<T(T, T)>([](T a, T b) { return (a > b || a != a) ? a : b; });
    ref.id = mn ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity();
    ref.lanes = 16;
    // the last two: runs whose halves are read side by side (2^16 elements and more each)
    for (size_t n : {size_t(16), size_t(47), size_t(300), size_t(1000), size_t(131072 + 131),
                     size_t(300000)}) {
        for (int variant = 0; variant < 3; variant++) {
            std::vector<T> x(n);
            for (T &v : x) {
                const unsigned r = rng() % 8;
                v = r < 3 ? T(0) : r < 6 ? -T(0) : static_cast<T>(static_cast<int>(rng() % 5) - 2);
            }
            if (variant >= 1) {
                T nan;
                uint64_t payload = 0x7ff8000000000123ull;
                if (sizeof(T) == 4) {
                    const uint32_t p32 = 0x7fc00123u + static_cast<uint32_t>(variant);
                    std::memcpy(&nan, &p32, 4);
                } else {
                    payload += static_cast<uint64_t>(variant);
                    std::memcpy(&nan, &payload, 8);
                }
                x[rng() % n] = nan;
                if (variant == 2) x[rng() % n] = -nan;
            }
            T acc = ref.id;
            run_acc(op, id, &acc, 0, x.data(), sizeof(T), n);
            const T want = ref.fold(ref.id, x);
            ASSERT_EQ(bits(acc), bits(want)) << ck_type_id_name(id) << " op " << op << " n=" << n
                                             << " variant " << variant;
        }
    }
}

TEST_P(ReduceLeaves, MinMaxFoldsSelectAsTheElementOperationBitForBit) {
    std::mt19937 rng(23);
    check_minmax_lanes<double>(CK__ARITH_MINIMUM, CK_TYPE_FLOAT64, rng);
    check_minmax_lanes<double>(CK__ARITH_MAXIMUM, CK_TYPE_FLOAT64, rng);
    check_minmax_lanes<float>(CK__ARITH_MINIMUM, CK_TYPE_FLOAT32, rng);
    check_minmax_lanes<float>(CK__ARITH_MAXIMUM, CK_TYPE_FLOAT32, rng);
}

// In place: dst[i] = op(dst[i], x[i]), one operation in the type per element.
TEST_P(ReduceLeaves, InPlaceFormIsElementwise) {
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> u(-100, 100);
    const size_t n = 67;
    for (intptr_t step : {1, 2}) {
        std::vector<double> d(n * 2), x(n * 2), want(n * 2);
        for (size_t i = 0; i < d.size(); i++) d[i] = u(rng), x[i] = u(rng);
        for (ck__arith_op op : {CK__ARITH_ADD, CK__ARITH_MULTIPLY, CK__ARITH_MINIMUM, CK__ARITH_MAXIMUM}) {
            std::vector<double> dd = d;
            want = d;
            for (size_t i = 0; i < n; i++) {
                double &w = want[i * static_cast<size_t>(step)];
                const double v = x[i];
                w = op == CK__ARITH_ADD ? w + v : op == CK__ARITH_MULTIPLY ? w * v
                    : op == CK__ARITH_MINIMUM ? (w < v ? w : v) : (w > v ? w : v);
            }
            run_acc(op, CK_TYPE_FLOAT64, dd.data(), step * 8, x.data(), 8, n);
            for (size_t i = 0; i < dd.size(); i++) ASSERT_EQ(bits(dd[i]), bits(want[i])) << op << " " << i;
        }
        // float16 in place rounds each step (the arithmetic leaf's add)
        std::vector<uint16_t> hd(n), hx(n);
        for (size_t i = 0; i < n; i++) hd[i] = static_cast<uint16_t>(rng() & 0x7bff), hx[i] = static_cast<uint16_t>(rng() & 0xfbff);
        std::vector<uint16_t> hw = hd;
        for (size_t i = 0; i < n; i++)
            hw[i] = ckt::round_to_half(ckt::half_value(hw[i]) + ckt::half_value(hx[i]));
        run_acc(CK__ARITH_ADD, CK_TYPE_FLOAT16, hd.data(), 2, hx.data(), 2, n);
        EXPECT_EQ(hd, hw);
        // int8 wraps
        std::vector<int8_t> id8 = {100, -128, 5}, ix8 = {100, -1, -5};
        run_acc(CK__ARITH_ADD, CK_TYPE_INT8, id8.data(), 1, ix8.data(), 1, 3);
        EXPECT_EQ(id8, (std::vector<int8_t>{-56, 127, 0}));
    }
}

// The widening leaves (a narrower source folded into the accumulator that sums it: bool and
// int8-int32 into int64, uint8-uint32 into uint64, float32 into float64) against the values
// written out here: integers and bool exactly, in order, with wrapping; float32 as the cast
// ahead of float64's leaf folds it, each chunk of 1008 elements (call_args' chunk for one
// float64 argument, docs/design.md §14) its own documented tree folded into the accumulator
// in order; the in-place form element by element.
template <class T, class A>
void check_widening(ck__arith_op op, ck_type_id t, std::mt19937 &rng) {
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck__make_widen_leaf(&b, &off, op, t), CK_OK) << ck_last_error();
    const ck_strided_fn fn = ck_prefix_strided(ck_builder_root(&b));
    ck_builder_destroy(&b);
    const bool is_float = t == CK_TYPE_FLOAT32, is_bool = t == CK_TYPE_BOOL;
    auto value = [&](T v) -> A { return is_bool ? A(v != 0) : A(v); };
    auto apply = [&](A a, A v) -> A {
        if (is_float) return op == CK__ARITH_ADD ? A(a + v) : A(a * v);
        const uint64_t x = static_cast<uint64_t>(a), y = static_cast<uint64_t>(v);
        return static_cast<A>(op == CK__ARITH_ADD ? x + y : x * y); /* wraps */
    };
    TreeRef<A> ref;
    ref.op = apply;
    ref.id = op == CK__ARITH_ADD ? A(0) : A(1);
    ref.lanes = 16;
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (size_t n : {size_t(0), size_t(1), size_t(17), size_t(1007), size_t(1008), size_t(1009),
                     size_t(3000), size_t(33333)}) {
        for (intptr_t step : {1, 3, -2}) {
            std::vector<T> x(n);
            for (T &v : x) {
                if (is_float) {
                    v = static_cast<T>(op == CK__ARITH_ADD
                                           ? u(rng) * std::ldexp(1.0, static_cast<int>(rng() % 40) - 20)
                                           : 1.0 + u(rng) / 64);
                } else {
                    const uint64_t r = rng();
                    std::memcpy(&v, &r, sizeof v);
                    if (is_bool) v = static_cast<T>(r % 3); /* truth values: 2 counts as 1 */
                }
            }
            std::vector<T> store(n * 3 + 1);
            T *first = step < 0 ? &store[store.size() - 1] : &store[0];
            for (size_t i = 0; i < n; i++) first[static_cast<intptr_t>(i) * step] = x[i];
            const A start = op == CK__ARITH_ADD ? A(5) : A(3);
            A want = start;
            if (is_float) {
                for (size_t c = 0; c < n; c += 1008) {
                    std::vector<A> chunk;
                    for (size_t i = c; i < n && i < c + 1008; i++) chunk.push_back(value(x[i]));
                    want = ref.fold(want, chunk);
                }
            } else {
                for (size_t i = 0; i < n; i++) want = apply(want, value(x[i]));
            }
            A acc = start;
            char *src = reinterpret_cast<char *>(first);
            const intptr_t xs = step * static_cast<intptr_t>(sizeof(T));
            ASSERT_EQ(fn(nullptr, reinterpret_cast<char *>(&acc), 0, &src, &xs, n), CK_OK);
            ASSERT_EQ(bits(acc), bits(want)) << ck_type_id_name(t) << " op " << op << " n=" << n
                                             << " step " << step;
            // in place: dst[i] = op(dst[i], x[i]) with the destination's own stride
            std::vector<A> d(n * 2), dw(n * 2);
            for (size_t i = 0; i < d.size(); i++) d[i] = dw[i] = static_cast<A>(i % 7 + 1);
            for (size_t i = 0; i < n; i++) dw[i * 2] = apply(dw[i * 2], value(x[i]));
            ASSERT_EQ(fn(nullptr, reinterpret_cast<char *>(d.data()),
                         2 * static_cast<intptr_t>(sizeof(A)), &src, &xs, n),
                      CK_OK);
            for (size_t i = 0; i < d.size(); i++)
                ASSERT_EQ(bits(d[i]), bits(dw[i])) << ck_type_id_name(t) << " in place at " << i;
        }
    }
}

TEST_P(ReduceLeaves, WideningFoldsEqualTheCastThenTheLeaf) {
    std::mt19937 rng(23);
    for (ck__arith_op op : {CK__ARITH_ADD, CK__ARITH_MULTIPLY}) {
        check_widening<uint8_t, int64_t>(op, CK_TYPE_BOOL, rng);
        check_widening<int8_t, int64_t>(op, CK_TYPE_INT8, rng);
        check_widening<int16_t, int64_t>(op, CK_TYPE_INT16, rng);
        check_widening<int32_t, int64_t>(op, CK_TYPE_INT32, rng);
        check_widening<uint8_t, uint64_t>(op, CK_TYPE_UINT8, rng);
        check_widening<uint16_t, uint64_t>(op, CK_TYPE_UINT16, rng);
        check_widening<uint32_t, uint64_t>(op, CK_TYPE_UINT32, rng);
        check_widening<float, double>(op, CK_TYPE_FLOAT32, rng);
    }
    // which pairs widen: none into another accumulator, none for the selections
    EXPECT_TRUE(ck__acc_widens(CK__ARITH_ADD, CK_TYPE_INT32, CK_TYPE_INT64));
    EXPECT_FALSE(ck__acc_widens(CK__ARITH_ADD, CK_TYPE_INT32, CK_TYPE_FLOAT64));
    EXPECT_FALSE(ck__acc_widens(CK__ARITH_ADD, CK_TYPE_UINT32, CK_TYPE_INT64));
    EXPECT_FALSE(ck__acc_widens(CK__ARITH_MINIMUM, CK_TYPE_INT8, CK_TYPE_INT64));
    EXPECT_FALSE(ck__acc_widens(CK__ARITH_ADD, CK_TYPE_INT64, CK_TYPE_INT64));
}

// ---- complex products at infinities and NaNs (docs/design.md §10: the textbook formula,
// as NumPy's loops compute it, no C99 Annex G recovery) in every leaf that multiplies ----

// Part by part the same bits, or both NaN (a NaN's sign and payload are free).
template <class C>
bool same_complex(const C &got, const C &want) {
    for (int k = 0; k < 2; k++) {
        const bool gn = std::isnan(got.v[k]), wn = std::isnan(want.v[k]);
        if (gn != wn || (!gn && bits(got.v[k]) != bits(want.v[k]))) return false;
    }
    return true;
}

template <class C, class F>
void check_special_products(ck_type_id id, void (*mul)(const F *, const F *, F *)) {
    const F inf = std::numeric_limits<F>::infinity(), nan = std::numeric_limits<F>::quiet_NaN();
    const F big = std::numeric_limits<F>::max() / 4, tiny = std::numeric_limits<F>::denorm_min();
    const F parts[] = {0, -F(0), 1, -2, big, tiny, inf, -inf, nan};
    std::vector<C> values;
    for (F re : parts)
        for (F im : parts) values.push_back(C{{re, im}});
    auto text = [](const C &c) {
        return "(" + std::to_string(c.v[0]) + ", " + std::to_string(c.v[1]) + ")";
    };
    const ck_strided_fn mul_fn = elementwise_fn(CK__ARITH_MULTIPLY, id);
    const ck_strided_fn acc = acc_fn(CK__ARITH_MULTIPLY, id), scan = scan_fn(CK__ARITH_MULTIPLY, id);
    const intptr_t es = sizeof(C);
    for (const C &a : values) {
        for (const C &b : values) {
            C want;
            mul(a.v, b.v, want.v);
            const std::string at = text(a) + " * " + text(b);
            // multiply
            C r = a, x = b;
            char *src[2] = {reinterpret_cast<char *>(&r), reinterpret_cast<char *>(&x)};
            const intptr_t ss[2] = {0, 0};
            C got;
            ASSERT_EQ(mul_fn(nullptr, reinterpret_cast<char *>(&got), 0, src, ss, 1), CK_OK);
            EXPECT_TRUE(same_complex(got, want)) << "multiply " << at << " = " << text(got);
            // the accumulate leaf, one element folded into the accumulator (stride 0: a
            // cumprod's row over an inner dimension of size 1) and in place
            for (intptr_t ds : {intptr_t(0), es}) {
                C accv = a, xv = b;
                char *xp = reinterpret_cast<char *>(&xv);
                ASSERT_EQ(acc(nullptr, reinterpret_cast<char *>(&accv), ds, &xp, &es, 1), CK_OK);
                EXPECT_TRUE(same_complex(accv, want))
                    << "accumulate (dst stride " << ds << ") " << at << " = " << text(accv);
            }
            // a fold of [a, b] from (1, 0): the lanes' a * b, then the accumulator's product
            C two[2] = {a, b}, one{{1, 0}}, want2;
            mul(one.v, want.v, want2.v);
            run_acc(CK__ARITH_MULTIPLY, id, &one, 0, two, es, 2);
            EXPECT_TRUE(same_complex(one, want2)) << "fold of " << at << " = " << text(one);
            // the scan: [a, a * b]
            C out[2];
            char *sp = reinterpret_cast<char *>(two);
            ASSERT_EQ(scan(nullptr, reinterpret_cast<char *>(out), es, &sp, &es, 2), CK_OK);
            EXPECT_TRUE(same_complex(out[0], a) && same_complex(out[1], want))
                << "scan of " << at << " = " << text(out[0]) << ", " << text(out[1]);
        }
    }
}

TEST_P(ReduceLeaves, ComplexProductsAtInfinitiesAndNaNsAreTheTextbookFormulaInEveryLeaf) {
    // (1+0j)*(inf+0j) is inf+nanj by the formula, so a lane that started from the identity
    // would have changed a product of one element
    check_special_products<C128, double>(CK_TYPE_COMPLEX128, ckt_complex_mul_d);
    check_special_products<C64, float>(CK_TYPE_COMPLEX64, ckt_complex_mul_f);
}

TEST_P(ReduceLeaves, AFoldOfOneElementIsTheElementOperation) {
    // a sum of -0.0 into an accumulator of -0.0 stays -0.0 (a lane from +0 would give +0.0),
    // and a run of 17: lane 0 takes two elements, the others one
    for (size_t n : {size_t(1), size_t(17)}) {
        std::vector<double> x(n, -0.0);
        double accv = -0.0;
        run_acc(CK__ARITH_ADD, CK_TYPE_FLOAT64, &accv, 0, x.data(), 8, n);
        EXPECT_EQ(bits(accv), bits(-0.0)) << n;
        std::vector<float> xf(n, -0.0f);
        float accf = -0.0f;
        run_acc(CK__ARITH_ADD, CK_TYPE_FLOAT32, &accf, 0, xf.data(), 4, n);
        EXPECT_EQ(bits(accf), bits(-0.0f)) << n;
        std::vector<C64> xc(n, C64{{-0.0f, -0.0f}});
        C64 accc{{-0.0f, -0.0f}};
        run_acc(CK__ARITH_ADD, CK_TYPE_COMPLEX64, &accc, 0, xc.data(), 8, n);
        EXPECT_EQ(bits(accc.v[0]), bits(-0.0f)) << n;
        EXPECT_EQ(bits(accc.v[1]), bits(-0.0f)) << n;
    }
}

INSTANTIATE_TEST_SUITE_P(Targets, ReduceLeaves, ::testing::ValuesIn(targets()),
                         [](const ::testing::TestParamInfo<ck_cpu_target> &p) {
                             return std::string(ck_cpu_target_name(p.param));
                         });

}  // namespace
