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
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "target_fixture.hpp"
#include "ufunc_loops.hpp"

namespace {

using namespace ckt_ufunc;

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
    int skipped_libm = 0;
    for (const Loop &l : kLoops) {
        SCOPED_TRACE(l.text);
        if (uses_host_libm(l) && !host_complex_libm_runs()) {
            skipped_libm++;
            continue;
        }
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
        const size_t ds = result_size(l);
        const std::vector<Field> fields = result_fields(l);
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
                        for (size_t e = 0; e < span; e++) in[k][e * es[k] + CKT_SIGN_BYTE(es[k])] &= 0x7f;
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
                    for (const Field &f : fields) {  // the results, not a struct's padding
                        const size_t fs = size_of(f.id);
                        ASSERT_EQ(std::memcmp(got + f.offset, want.data() + f.offset, fs), 0)
                            << "n " << n << " element " << i << " field at " << f.offset << ": "
                            << hex(got + f.offset, fs) << " where the baseline's single gives "
                            << hex(want.data() + f.offset, fs) << " for " << hex(one[0], es[0])
                            << (l.nin == 2 ? " " + hex(one[1], es[1]) : "");
                    }
                    checked++;
                }
                // Nothing but the elements written.
                for (size_t i = 0; i < n; i++) {
                    unsigned char *got = reinterpret_cast<unsigned char *>(d0) +
                                         static_cast<intptr_t>(i) * lay.dst *
                                             static_cast<intptr_t>(ds);
                    for (const Field &f : fields) {
                        std::memcpy(got + f.offset, before.data() + (got + f.offset - all),
                                    size_of(f.id));
                    }
                }
                ASSERT_EQ(std::memcmp(all, before.data(), before.size()), 0) << "n " << n;
            }
        }
    }
    EXPECT_GT(checked, int64_t{100000});
    if (skipped_libm > 0) {
        std::printf("[ ckernel  ] %d complex loops on the host's libm not run: its cexp dies "
                    "here (qemu's POWER8)\n",
                    skipped_libm);
    }
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
    EXPECT_TRUE(ckt::tree_starts_with(text, "leaf @0 +16  floor float64 -> float64 strided ["))
        << text;
    ck_free(text);
    ck_builder_destroy(&b);
}

}  // namespace
