// tests/support/ckt.hpp: C++ helpers shared by the GoogleTest suites.
#ifndef CK_TEST_CKT_HPP
#define CK_TEST_CKT_HPP

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>

#include "alloc_hooks.h"
#include "ckernel/ckernel.h"

namespace ckt {

inline int64_t live_allocations() {
    ck_alloc_stats st;
    ck_get_alloc_stats(&st);
    return st.live;
}

// Runs `op` once with no failure to count its allocation requests, then once more for every
// request n, with the n-th made to fail. Each failing run must return CK_ERR_NOMEM (with a
// message) and hold no allocation afterwards; `op` releases everything it made before it
// returns. `op` returns a ck status. Returns the number of failure points exercised.
inline int64_t for_each_alloc_failure(const std::function<int()> &op) {
    EXPECT_EQ(live_allocations(), 0) << "allocations live before the failure loop";
    EXPECT_EQ(ckt_alloc_install(), CK_OK) << ck_last_error();
    ckt_alloc_fail_at(0);
    EXPECT_EQ(op(), CK_OK) << "the operation must succeed without injected failures: "
                           << ck_last_error();
    const int64_t total = ckt_alloc_requests();
    EXPECT_EQ(live_allocations(), 0) << "the successful run leaked";
    for (int64_t n = 1; n <= total; ++n) {
        ckt_alloc_fail_at(n);
        const int rc = op();
        EXPECT_TRUE(ckt_alloc_failed()) << "request " << n << " was never made";
        EXPECT_EQ(rc, CK_ERR_NOMEM) << "failing request " << n << " of " << total << ": "
                                    << ck_status_name(rc) << " " << ck_last_error();
        EXPECT_EQ(live_allocations(), 0) << "leak after failing request " << n;
    }
    ckt_alloc_fail_at(0);
    EXPECT_EQ(ckt_alloc_uninstall(), CK_OK) << ck_last_error();
    return total;
}

}  // namespace ckt

#endif
