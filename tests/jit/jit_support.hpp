// tests/jit/jit_support.hpp: what the JIT suites share: whether this build and machine have
// a JIT, and the skip that says why not.
#ifndef CK_TEST_JIT_SUPPORT_HPP
#define CK_TEST_JIT_SUPPORT_HPP

#include <gtest/gtest.h>

#include <string>

#include "ckernel/ckernel.h"

namespace ckt {

inline bool jit_available(std::string *why) {
    ck_jit_info info;
    ck_jit_get_info(&info);
    *why = info.status;
    return info.available != 0;
}

}  // namespace ckt

#define REQUIRE_JIT()                                                        \
    do {                                                                     \
        std::string why_;                                                    \
        if (!ckt::jit_available(&why_)) GTEST_SKIP() << "no JIT: " << why_;  \
    } while (0)

#endif
