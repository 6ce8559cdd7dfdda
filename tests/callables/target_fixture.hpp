// tests/callables/target_fixture.hpp: a suite parameterized by this architecture's CPU
// targets (ckernel/cpu_targets.h): each test runs with kernels capped at its target, skipped
// when the build compiled no leaves for it or the machine (or CKERNEL_CPU_TARGET) excludes
// it; the cap goes back to the best compiled target afterwards. The per-target leaf tests
// (arithmetic, comparisons) share it.
#ifndef CK_TEST_TARGET_FIXTURE_HPP
#define CK_TEST_TARGET_FIXTURE_HPP

#include <gtest/gtest.h>

#include <string>

#include "ckernel/ckernel.h"
#include "ckt.hpp"

namespace ckt {

struct Target {
    ck_cpu_target id;
    const char *name;
};
#define KT_TARGET_ROW(arch, name, ENUM, flags, pred) CK__CPU_ARCH_##arch({CK_CPU_##ENUM, #name}, )
inline const Target kTargets[] = {CK_CPU_TARGET_TABLE(KT_TARGET_ROW)};
#undef KT_TARGET_ROW

class TargetCapped : public ::testing::TestWithParam<Target> {
protected:
    void SetUp() override {
        const Target &t = GetParam();
        if (!ck_cpu_target_compiled(t.id)) {
            GTEST_SKIP() << "this build compiled no " << t.name << " leaves";
        }
        if (static_cast<int>(t.id) > static_cast<int>(ck_cpu_target_ceiling())) {
            GTEST_SKIP() << "this machine (or CKERNEL_CPU_TARGET) excludes the " << t.name
                         << " target";
        }
        ASSERT_EQ(ck_cpu_set_target_cap(t.id), CK_OK) << ck_last_error();
        capped_ = true;
    }
    void TearDown() override {
        if (capped_) {
            EXPECT_EQ(ck_cpu_set_target_cap(best_compiled_target()), CK_OK) << ck_last_error();
        }
    }
    bool capped_ = false;
};

inline std::string target_name(const ::testing::TestParamInfo<Target> &i) {
    return std::string(i.param.name);
}

}  // namespace ckt

#endif
