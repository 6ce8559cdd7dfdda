// tests/dispatch/target_selection_test.cpp: the target cap changes the function stored in
// a newly built kernel's prefix (and its description), never raises the target above the
// machine, and kernels built earlier keep their functions.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

struct Built {
    void *fn;
    std::string desc;
};

Built build_leaf() {
    ckt::Type dt("float64"), st("int32");
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    Built r{nullptr, ""};
    // In the host's FP mode the root is the bare leaf (else the FP-environment guard holds
    // it, the same function on every target).
    ck_eval_ctx c = CK_EVAL_CTX_INIT;
    c.flags = CK_EVAL_HOST_FP_ENV;
    EXPECT_EQ(ck_make_assign(&b, &off, dt.get(), nullptr, st.get(), nullptr, CK_REQUEST_STRIDED,
                             &c),
              CK_OK);
    r.fn = ck_builder_root(&b)->function;
    char *d = nullptr;
    EXPECT_EQ(ck_kernel_describe(ck_builder_root(&b), &d), CK_OK);
    r.desc = d != nullptr ? d : "";
    ck_free(d);
    ck_builder_destroy(&b);
    return r;
}

class TargetSelection : public ::testing::Test {
  protected:
    void TearDown() override {
        // Back to the machine's best for the tests that follow.
        EXPECT_EQ(ck_cpu_set_target_cap(ckt::best_compiled_target()), CK_OK);
    }
};

TEST_F(TargetSelection, TheCapChangesTheChosenFunction) {
    ASSERT_EQ(ck_cpu_set_target_cap(CK_CPU_BASELINE), CK_OK);
    EXPECT_EQ(ck_cpu_best_target(), CK_CPU_BASELINE);
    Built base = build_leaf();
    EXPECT_NE(base.desc.find("[baseline]"), std::string::npos) << base.desc;
    for (int t = 1; t < CK_NUM_CPU_TARGETS; ++t) {
        const ck_cpu_target target = static_cast<ck_cpu_target>(t);
        if (!ck_cpu_target_compiled(target) || target > ck_cpu_target_ceiling()) continue;
        ASSERT_EQ(ck_cpu_set_target_cap(target), CK_OK);
        EXPECT_EQ(ck_cpu_best_target(), target);
        Built other = build_leaf();
        EXPECT_NE(other.fn, base.fn) << ck_cpu_target_name(target);
        EXPECT_NE(other.desc.find(std::string("[") + ck_cpu_target_name(target) + "]"),
                  std::string::npos)
            << other.desc;
    }
}

TEST_F(TargetSelection, TheCapCannotExceedTheMachine) {
    const ck_cpu_target detected = ck_cpu_detected_target();
    const ck_cpu_target before = ck_cpu_best_target();
    for (int t = static_cast<int>(detected) + 1; t < CK_NUM_CPU_TARGETS; ++t) {
        EXPECT_EQ(ck_cpu_set_target_cap(static_cast<ck_cpu_target>(t)), CK_ERR_UNSUPPORTED);
        EXPECT_NE(std::strstr(ck_last_error(), "this CPU supports at most"), nullptr)
            << ck_last_error();
        EXPECT_EQ(ck_cpu_best_target(), before);
    }
    EXPECT_EQ(ck_cpu_set_target_cap(static_cast<ck_cpu_target>(7)), CK_ERR_INVALID);
}

TEST_F(TargetSelection, KernelsKeepTheTargetTheyWereBuiltWith) {
    ckt::Type dt("4 * float64"), st("4 * int32");
    ck_fixed_dim_arrmeta am = {4, 8}, sm = {4, 4};
    ASSERT_EQ(ck_cpu_set_target_cap(CK_CPU_BASELINE), CK_OK);
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&b, &off, dt.get(), reinterpret_cast<char *>(&am), st.get(),
                             reinterpret_cast<char *>(&sm), CK_REQUEST_SINGLE, nullptr),
              CK_OK);
    ASSERT_EQ(ck_cpu_set_target_cap(ckt::best_compiled_target()), CK_OK);
    char *d = nullptr;
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &d), CK_OK);
    EXPECT_NE(std::strstr(d, "[baseline]"), nullptr) << d;
    ck_free(d);
    int32_t in[4] = {1, -2, 3, -4};
    double out[4] = {};
    char *s = reinterpret_cast<char *>(in);
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(out), &s), CK_OK);
    EXPECT_EQ(out[3], -4.0);
    ck_builder_destroy(&b);
}

TEST_F(TargetSelection, NamesParseAndPrint) {
    ck_cpu_target t;
    for (int i = 0; i < CK_NUM_CPU_TARGETS; ++i) {
        const char *name = ck_cpu_target_name(static_cast<ck_cpu_target>(i));
        ASSERT_NE(name, nullptr);
        ASSERT_EQ(ck_cpu_target_parse(name, &t), CK_OK);
        EXPECT_EQ(static_cast<int>(t), i);
    }
#if defined(__x86_64__) || defined(__i386__)
    EXPECT_STREQ(ck_cpu_target_name(CK_CPU_AVX2), "avx2");
    EXPECT_STREQ(ck_cpu_target_choices(), "baseline, avx2 or avx512");
#elif defined(__arm__)
    EXPECT_STREQ(ck_cpu_target_choices(), "baseline or neon");
    // What neon leaves to VFP is said; the baseline leaves nothing out.
    ASSERT_NE(ck_cpu_target_note(CK_CPU_NEON), nullptr);
    EXPECT_NE(std::strstr(ck_cpu_target_note(CK_CPU_NEON), "float arithmetic on VFP"), nullptr);
    EXPECT_EQ(ck_cpu_target_note(CK_CPU_BASELINE), nullptr);
#elif defined(__powerpc64__)
    EXPECT_STREQ(ck_cpu_target_name(CK_CPU_VSX3), "vsx3");
    EXPECT_STREQ(ck_cpu_target_choices(), "baseline, vsx3 or vsx4");
#elif defined(__aarch64__)
    EXPECT_STREQ(ck_cpu_target_name(CK_CPU_ASIMDHP), "asimdhp");
    EXPECT_STREQ(ck_cpu_target_name(CK_CPU_SVE), "sve");
    EXPECT_STREQ(ck_cpu_target_choices(), "baseline, asimdhp or sve");
    // Another architecture's name is unknown here, and the message lists this one's.
    EXPECT_EQ(ck_cpu_target_parse("avx2", &t), CK_ERR_INVALID);
    EXPECT_NE(std::strstr(ck_last_error(), "(baseline, asimdhp or sve)"), nullptr)
        << ck_last_error();
#endif
    EXPECT_EQ(ck_cpu_target_parse("sse9", &t), CK_ERR_INVALID);
    EXPECT_EQ(ck_cpu_target_name(static_cast<ck_cpu_target>(CK_NUM_CPU_TARGETS)), nullptr);
    EXPECT_TRUE(ck_cpu_target_compiled(CK_CPU_BASELINE));
#if !defined(__arm__)
    for (int i = 0; i < CK_NUM_CPU_TARGETS; ++i) {
        EXPECT_EQ(ck_cpu_target_note(static_cast<ck_cpu_target>(i)), nullptr) << i;
    }
#endif
}

}  // namespace
