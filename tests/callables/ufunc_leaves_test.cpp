// tests/callables/ufunc_leaves_test.cpp: the leaves of NumPy's functions
// (src/leaves/math/ufunc.dispatch.c) give the same bits on every compiled CPU target this
// machine runs, NaNs included: every LEAF loop of leaves/math/ufunc_list.h, built through
// ck__make_ufunc_leaf under each target's cap and run strided over contiguous, broadcast,
// reversed and general strides (tails of every vector width), is compared element by element
// with the baseline target's single function on the same bits, and the destination's guard
// bytes stay untouched. The inputs are special values (zeros, infinities, NaNs, subnormals,
// the extremes) and random bit patterns (any byte of a bool, any NaN payload). Their values
// against NumPy are python/tests/test_ufuncs.py's.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "target_fixture.hpp"
extern "C" {
#include "common/scalars.h"
#include "leaves/math/ufunc_list.h"
}

namespace {

enum { ck__id_none = -1 };

struct Loop {
    ck__ufunc_loop id;
    const char *text;
    int nin;
    int in[2];
    int out;
    bool checked;  // negative second operands are refused: the test gives none
};
#define KT_LOOP_ROW(name, NIN, a, b, r, checked)                                                   \
  {CK__UFLOOP_##name##__##a##_##b##__##r,                                                          \
   #name "(" #a ", " #b ") -> " #r,                                                                \
   NIN,                                                                                            \
   {ck__id_##a, ck__id_##b},                                                                       \
   ck__id_##r,                                                                                     \
   checked},
#define KT_LOOP_LEAF(name, NIN, a, b, r) KT_LOOP_ROW(name, NIN, a, b, r, false)
#define KT_LOOP_VMATH(name, NIN, a, b, r) KT_LOOP_ROW(name, NIN, a, b, r, false)
#define KT_LOOP_CHECKED(name, NIN, a, b, r) KT_LOOP_ROW(name, NIN, a, b, r, true)
#define KT_LOOP_ARITH(...)
#define KT_LOOP_REFUSE(...)
#define KT_LOOP(name, I, NIN, a, b, r) KT_LOOP_##I(name, NIN, a, b, r)
#define KT_LOOPS(name, ...) CK__UFL_##name(KT_LOOP)
const Loop kLoops[] = {CK__UFUNC_LIST(KT_LOOPS)};

size_t size_of(int id) {
    const ck__scalar_facts *f = ck__scalar_info(static_cast<ck_type_id>(id));
    return size_t{f->part_size} * f->parts;
}

// xorshift64*: the same bits in every run.
struct Bits {
    uint64_t s = 0x9E3779B97F4A7C15ull;
    uint64_t next() {
        s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
};

// n elements of type id: its special values first (as bits), then random bits.
std::vector<unsigned char> values(int id, size_t n, Bits &r) {
    const size_t es = size_of(id);
    std::vector<unsigned char> v(n * es);
    std::vector<uint64_t> special;
    const int k = ck__scalar_info(static_cast<ck_type_id>(id))->kind;
    const size_t part = k == CK__SCALAR_KIND_COMPLEX ? es / 2 : es;
    if (k == CK__SCALAR_KIND_FLOAT || k == CK__SCALAR_KIND_COMPLEX) {
        // 0, -0, 1, -1, inf, -inf, quiet NaN, -NaN, the smallest subnormal, the largest value
        const int m = part == 2 ? (id == CK_TYPE_BFLOAT16 ? 7 : 10) : part == 4 ? 23 : 52;
        const int w = static_cast<int>(part) * 8;
        const uint64_t sign = uint64_t{1} << (w - 1), expo = (sign - 1) & ~((uint64_t{1} << m) - 1);
        const uint64_t one = (expo >> 1) & expo;
        special = {0,
                   sign,
                   one,
                   one | sign,
                   expo,
                   expo | sign,
                   expo | (uint64_t{1} << (m - 1)),
                   expo | sign | (uint64_t{1} << (m - 1)),
                   1,
                   expo - 1,
                   (expo - 1) | sign};
    } else {
        special = {0, 1, 2, ~uint64_t{0}, uint64_t{1} << (part * 8 - 1), 7, 64};
    }
    // The first elements special (a complex's parts two of them), the rest random bits.
    const size_t ns = special.size();
    for (size_t i = 0; i < n; i++) {
        for (size_t p = 0; p < es; p += part) {
            const uint64_t x = i < ns ? special[(i + (p / part) * (i / 2 + 1)) % ns] : r.next();
            std::memcpy(&v[i * es + p], &x, part);  // little-endian: the low bytes
        }
    }
    return v;
}

// The bytes of a value, most significant first.
std::string hex(const void *p, size_t n) {
    std::string s;
    static const char digits[] = "0123456789abcdef";
    for (size_t i = n; i-- > 0;) {
        const unsigned char c = static_cast<const unsigned char *>(p)[i];
        s += digits[c >> 4];
        s += digits[c & 15];
    }
    return s;
}

void *leaf_fn(ck__ufunc_loop loop, ck_request req) {
    ck_builder b;
    ck_builder_init(&b);
    size_t offset = 0;
    void *fn = nullptr;
    const int rc = ck__make_ufunc_leaf(&b, &offset, loop, req);
    EXPECT_EQ(rc, CK_OK) << ck_last_error();
    if (rc == CK_OK) {
        EXPECT_EQ(offset, sizeof(ck_prefix));
        fn = ck_builder_root(&b)->function;
    }
    ck_builder_destroy(&b);
    return fn;
}

struct Layout {
    const char *name;
    intptr_t dst, s0, s1;  // in elements
};
const Layout kLayouts[] = {{"contiguous", 1, 1, 1},
                           {"src0 broadcast", 1, 0, 1},
                           {"src1 broadcast", 1, 1, 0},
                           {"reversed", -1, -1, -1},
                           {"general", 3, 2, -5}};

class UfuncLeaves : public ckt::TargetCapped {};

TEST_P(UfuncLeaves, EveryLoopGivesTheBaselineBitsOnEveryPath) {
    const ck_cpu_target target = GetParam().id;
    Bits r;
    int64_t checked = 0;
    for (const Loop &l : kLoops) {
        SCOPED_TRACE(l.text);
        ASSERT_EQ(ck_cpu_set_target_cap(CK_CPU_BASELINE), CK_OK);
        void *sp = leaf_fn(l.id, CK_REQUEST_SINGLE);
        ASSERT_EQ(ck_cpu_set_target_cap(target), CK_OK);
        void *tp = leaf_fn(l.id, CK_REQUEST_STRIDED);
        ASSERT_NE(sp, nullptr);
        ASSERT_NE(tp, nullptr);
        ck_single_fn single;
        ck_strided_fn strided;
        std::memcpy(&single, &sp, sizeof single);
        std::memcpy(&strided, &tp, sizeof strided);
        const size_t es[2] = {size_of(l.in[0]), l.nin == 2 ? size_of(l.in[1]) : 1};
        const size_t ds = size_of(l.out);
        for (const Layout &lay : kLayouts) {
            if (l.nin == 1 && lay.s0 == 0) continue;
            SCOPED_TRACE(lay.name);
            for (size_t n : {size_t{1}, size_t{7}, size_t{67}, size_t{300}}) {
                const intptr_t st[2] = {lay.s0, lay.s1};
                std::vector<std::vector<unsigned char>> in(2);
                char *src[2] = {nullptr, nullptr};
                intptr_t sstride[2] = {0, 0};
                for (int k = 0; k < l.nin; k++) {
                    const size_t span = n * static_cast<size_t>(st[k] < 0    ? -st[k]
                                                                : st[k] == 0 ? 1
                                                                             : st[k]);
                    in[k] = values(l.in[k], span, r);
                    if (l.checked && k == 1) {  // power of integers: exponents >= 0
                        for (size_t e = 0; e < span; e++) in[k][e * es[k] + es[k] - 1] &= 0x7f;
                    }
                    src[k] = reinterpret_cast<char *>(in[k].data()) +
                             (st[k] < 0 ? (span - 1) * es[k] : 0);
                    sstride[k] = st[k] * static_cast<intptr_t>(es[k]);
                }
                const size_t guard = 64,
                             dspan = n * static_cast<size_t>(lay.dst < 0 ? -lay.dst : lay.dst);
                std::vector<uint64_t> store((guard * 2 + dspan * ds) / 8 + 2,
                                            0xa5a5a5a5a5a5a5a5ull);
                unsigned char *all = reinterpret_cast<unsigned char *>(store.data());
                const std::vector<unsigned char> before(all, all + store.size() * 8);
                char *d0 = reinterpret_cast<char *>(all + guard) +
                           (lay.dst < 0 ? (dspan - 1) * ds : 0);
                ASSERT_EQ(strided(nullptr, d0, lay.dst * static_cast<intptr_t>(ds), src, sstride,
                                  n),
                          CK_OK);
                std::vector<unsigned char> want(ds);
                for (size_t i = 0; i < n; i++) {
                    char *one[2] = {src[0] + static_cast<intptr_t>(i) * sstride[0],
                                    l.nin == 2 ? src[1] + static_cast<intptr_t>(i) * sstride[1]
                                               : nullptr};
                    ASSERT_EQ(single(nullptr, reinterpret_cast<char *>(want.data()), one), CK_OK);
                    const char *got = d0 + static_cast<intptr_t>(i) * lay.dst *
                                               static_cast<intptr_t>(ds);
                    ASSERT_EQ(std::memcmp(got, want.data(), ds), 0)
                        << "n " << n << " element " << i << ": " << hex(got, ds) << " where the "
                        << "baseline's single gives " << hex(want.data(), ds) << " for "
                        << hex(one[0], es[0]) << (l.nin == 2 ? " " + hex(one[1], es[1]) : "");
                    checked++;
                }
                // Nothing but the elements written.
                for (size_t i = 0; i < n; i++) {
                    unsigned char *got = reinterpret_cast<unsigned char *>(d0) +
                                         static_cast<intptr_t>(i) * lay.dst *
                                             static_cast<intptr_t>(ds);
                    std::memcpy(got, before.data() + (got - all), ds);
                }
                ASSERT_EQ(std::memcmp(all, before.data(), before.size()), 0) << "n " << n;
            }
        }
    }
    EXPECT_GT(checked, int64_t{100000});
}

INSTANTIATE_TEST_SUITE_P(Targets, UfuncLeaves, ::testing::ValuesIn(ckt::kTargets),
                         ckt::name_by_content(ckt::kTargets, [](const ckt::Target &tg) {
                             return std::string(tg.name);
                         }));

TEST(UfuncLeafFactory, RefusesALoopWithoutALeafAndDescribesItsLeaves) {
    ck_builder b;
    ck_builder_init(&b);
    size_t offset = 0;
    EXPECT_EQ(ck__make_ufunc_leaf(&b, &offset, CK__UFLOOP_add__int8_int8__int8, CK_REQUEST_SINGLE),
              CK_ERR_INTERNAL);  // an ARITH loop: the arithmetic leaf's
    EXPECT_EQ(ck__make_ufunc_leaf(&b, &offset, CK__UFUNC_NUM_LOOPS, CK_REQUEST_SINGLE),
              CK_ERR_INTERNAL);
    ASSERT_EQ(ck__make_ufunc_leaf(&b, &offset, CK__UFLOOP_floor__float64_none__float64,
                                  CK_REQUEST_STRIDED),
              CK_OK);
    char *text = nullptr;
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &text), CK_OK);
    EXPECT_EQ(std::string(text).rfind("leaf @0 +16  floor float64 -> float64 strided [", 0), 0u)
        << text;
    ck_free(text);
    ck_builder_destroy(&b);
}

}  // namespace
