// tests/cli/cli_support.hpp: running the ckernel program for the CLI suites.
#ifndef CK_TEST_CLI_SUPPORT_HPP
#define CK_TEST_CLI_SUPPORT_HPP

#include <string>

#include "ckt_process.hpp"
#include "ckt_tree.hpp"

namespace ckt {

// `ckernel ARGS` with the CPU target pinned to baseline (the tree does not depend on the
// machine).
inline Result ckernel_baseline(const std::string &args) {
    return run_shell(std::string("CKERNEL_CPU_TARGET=baseline ") + CK_CLI_PATH + " " + args);
}

// The output with the builder's heap capacity (the allocator's size class) as "?".
inline std::string without_capacity(std::string out) {
    const size_t at = out.rfind("builder on the heap (capacity ");
    if (at != std::string::npos) {
        const size_t from = at + 30, to = out.find(')', from);
        out.replace(from, to - from, "?");
    }
    return out;
}

}  // namespace ckt

#endif
