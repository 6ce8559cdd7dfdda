// tests/jit/fallback_test.cpp: when the JIT cannot be used (CKERNEL_JIT=0, a plugin that
// does not load), a kernel that asks for it is the composed kernel, correct, and explain
// says why. ctest runs these with the environment set (tests/jit/CMakeLists.txt); run
// without it they skip.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "ckernel/ckernel.h"

namespace {

TEST(JitFallback, TheComposedKernelRunsAndTheReasonIsGiven) {
    const char *expect = std::getenv("CK_EXPECT_JIT_STATUS");
    if (expect == nullptr) GTEST_SKIP() << "run by ctest with CKERNEL_JIT=0 or a missing plugin";
    ck_jit_info info;
    ck_jit_get_info(&info);
    EXPECT_EQ(info.available, 0);
    const std::string status = info.status;
    if (status.find("built without LLVM") != std::string::npos) {
        GTEST_SKIP() << "this build has no JIT at all: " << status;
    }
    EXPECT_EQ(status.rfind(expect, 0), 0u) << status;
    ck_type *st = nullptr, *dt = nullptr;
    ASSERT_EQ(ck_type_parse("4 * 2 * int16", &st), CK_OK);
    ASSERT_EQ(ck_type_parse("4 * 2 * float64", &dt), CK_OK);
    const ck_fixed_dim_arrmeta sm[2] = {{4, 8}, {2, 2}}, dm[2] = {{4, 16}, {2, 8}};
    int16_t src[16];
    for (int i = 0; i < 16; ++i) src[i] = static_cast<int16_t>(i - 5);
    double dst[8] = {0};
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = CK_EVAL_JIT;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&b, &off, dt, reinterpret_cast<const char *>(dm), st,
                             reinterpret_cast<const char *>(sm), CK_REQUEST_SINGLE, &ctx),
              CK_OK);
    const std::string decision = ck_jit_last_decision();
    EXPECT_EQ(decision, "not used: " + status + "; composed kernel");
    char *text = nullptr;
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &text), CK_OK);
    EXPECT_EQ(std::string(text).rfind("strided_dim @0", 0), 0u) << text;
    ck_free(text);
    char *s = reinterpret_cast<char *>(src);
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(dst), &s), CK_OK);
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j) EXPECT_EQ(dst[i * 2 + j], i * 4 + j - 5);
    ck_builder_destroy(&b);
    ck_type_decref(st);
    ck_type_decref(dt);
}

}  // namespace
