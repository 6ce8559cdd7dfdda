// tests/assign/describe_test.cpp: ck_kernel_describe on trees with ckernel's kinds and with
// a user kernel inside, and its argument checks.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

int user_single(ck_prefix *, char *, char *const *) { return CK_OK; }

TEST(Describe, AUserKernelIsShownByItsFunction) {
    ck_builder b;
    ck_builder_init(&b);
    ck_prefix_set_single(ck_builder_root(&b), user_single);
    char *text = nullptr;
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &text), CK_OK);
    char expect[128];
    void *fn = ck_builder_root(&b)->function;
    std::snprintf(expect, sizeof expect, "user @0  function %p (size and children unknown; register its kind to describe it)\n", fn);
    EXPECT_STREQ(text, expect);
    ck_free(text);
    ck_builder_destroy(&b);
    EXPECT_EQ(ckt::live_allocations(), 0);
}

TEST(Describe, EveryLineOfAComposedKernel) {
    ASSERT_EQ(ck_cpu_set_target_cap(CK_CPU_BASELINE), CK_OK);
    ckt::Type dt("2 * pointer[3 * float16]"), st("3 * uint16");
    struct {
        ck_fixed_dim_arrmeta outer;
        ck_pointer_arrmeta ptr;
        ck_fixed_dim_arrmeta inner;
    } dam = {{2, 8}, {nullptr, 4}, {3, 2}};
    ck_fixed_dim_arrmeta sam = {3, 2};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ck_eval_ctx c = ckt::ctx(CK_ERRMODE_INEXACT);
    ASSERT_EQ(ck_make_assign(&b, &off, dt.get(), reinterpret_cast<char *>(&dam), st.get(),
                             reinterpret_cast<char *>(&sam), CK_REQUEST_STRIDED, &c),
              CK_OK)
        << ck_last_error();
    char *text = nullptr;
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &text), CK_OK);
    EXPECT_EQ(ckt::tree_text(text),
              ckt::tree_text(
                  "strided_dim @0 +40  strided_dim_strided  size=2 dst_stride=8 src_stride=0 "
                  "(broadcast)\n"
                  "  pointer_dst @40 +32  pointer_dst_strided  target_offset=4\n"
                  "    strided_dim @72 +40  strided_dim_single  size=3 dst_stride=2 src_stride=2\n"
                  "      leaf @112 +16  cast uint16 -> float16 (inexact) strided [baseline]\n"));

    EXPECT_EQ(off, ckt::lp64 ? 128u : 80u);
    ck_free(text);
    ck_builder_destroy(&b);
    ASSERT_EQ(ck_cpu_set_target_cap(ckt::best_compiled_target()), CK_OK);
    EXPECT_EQ(ck_kernel_describe(nullptr, &text), CK_ERR_INVALID);
}

}  // namespace
