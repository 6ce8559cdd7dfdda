// tests/unit/located_error_test.cpp: located errors (src/common/status.c) seen from the
// kernels: every dimension loop adds its index, a failure of another status leaves an
// older located message alone, and the parallel offset applies only to a located error.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ckt.hpp"
extern "C" {  // internal C headers without C++ guards
#include "common/internal.h"
#include "core/kinds.h"
}

namespace {

// A leaf that fails at element `bad` of its strided call, with or without a message.
struct FailingLeaf {
    ck_prefix base;
    size_t bad;
    int with_message;
};

int failing_strided(ck_prefix *self, char *, intptr_t, char *const *, const intptr_t *,
                    size_t n) {
    const auto *k = reinterpret_cast<const FailingLeaf *>(self);
    if (k->bad >= n) return CK_OK;
    if (k->with_message) {
        return ck__set_located_error(CK_ERR_OVERFLOW, "test dimension", 2, "element %zu", k->bad);
    }
    return CK_ERR_OVERFLOW;  // no message of its own
}

int failing_single(ck_prefix *self, char *dst, char *const *src) {
    const intptr_t zero = 0;
    return failing_strided(self, dst, 0, src, &zero, 1);
}

// Two strided dims (3 x 4) over the failing leaf; the leaf fails in row 2 at element 1.
int run_nest(int with_message) {
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    const intptr_t zero = 0;
    int rc = ck__make_strided_dim(&b, &off, 3, 32, 1, &zero, CK_REQUEST_SINGLE);
    if (rc == CK_OK) rc = ck__make_strided_dim(&b, &off, 4, 8, 1, &zero, CK_REQUEST_STRIDED);
    if (rc == CK_OK) rc = ck_builder_reserve_leaf(&b, off + sizeof(FailingLeaf));
    if (rc == CK_OK) {
        auto *leaf = reinterpret_cast<FailingLeaf *>(ck_builder_at(&b, off));
        ck_prefix_set_function(&leaf->base, CK_REQUEST_STRIDED, failing_single, failing_strided);
        leaf->bad = 1;
        leaf->with_message = with_message;
        // The leaf is called per row of 4 with n = 4: it fails in every row; row 0 first.
        char dst[96];
        char src[8] = {0};
        char *s = src;
        rc = ck_call_single(ck_builder_root(&b), dst, &s);
    }
    ck_builder_destroy(&b);
    return rc;
}

TEST(LocatedError, EachDimensionLoopAddsItsIndex) {
    EXPECT_EQ(run_nest(1), CK_ERR_OVERFLOW);
    // The leaf's own strided loop knows nothing; the inner dim's loop over the outer dim's
    // rows adds [0]: the failing row.
    EXPECT_STREQ(ck_last_error(), "test dimension 2 at [0]: element 1");
}

TEST(LocatedError, AFailureWithoutAMessageLeavesAnOlderLocatedMessageAlone) {
    EXPECT_EQ(ck__set_located_error(CK_ERR_BROADCAST, "var dimension", 1, "an older failure"),
              CK_ERR_BROADCAST);
    EXPECT_EQ(run_nest(0), CK_ERR_OVERFLOW);
    EXPECT_STREQ(ck_last_error(), "var dimension 1: an older failure")
        << "indices were added to a message that is not this failure's";
    ck__error_offset_outer(CK_ERR_OVERFLOW, 100);
    EXPECT_STREQ(ck_last_error(), "var dimension 1: an older failure");
}

TEST(LocatedError, TheParallelOffsetMovesTheOutermostIndexOnly) {
    ck__set_located_error(CK_ERR_BROADCAST, "var dimension", 3, "x");
    ck__error_at(CK_ERR_BROADCAST, 7);
    ck__error_at(CK_ERR_BROADCAST, 2);
    EXPECT_STREQ(ck_last_error(), "var dimension 3 at [2][7]: x");
    ck__error_offset_outer(CK_ERR_BROADCAST, 1000);
    EXPECT_STREQ(ck_last_error(), "var dimension 3 at [1002][7]: x");
    ck_set_error(CK_ERR_BROADCAST, "plain");  // ends the location
    ck__error_at(CK_ERR_BROADCAST, 5);
    EXPECT_STREQ(ck_last_error(), "plain");
}

}  // namespace
