// tests/unit/alloc_limit_test.cpp: the allocation limit (ckernel/alloc.h) on the counted
// path: the exact boundary, the message, growth by realloc, what a refusal leaves behind,
// the installed allocator never asked. Byte counts are written out by hand; every test
// starts with nothing live, so the live bytes are those of its own blocks. The environment
// variable is read once per process: tests/cli runs the program with it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

extern "C" {
#include "common/internal.h"
}
#include "ckt.hpp"

namespace {

// Puts back the limit a test found (as a ck_set_alloc_limit: the suite runs in one process).
class AllocLimit : public ::testing::Test {
  protected:
    void SetUp() override {
        saved_ = ck_get_alloc_limit();
        ASSERT_EQ(ck_get_alloc_live_bytes(), 0u) << "an earlier test left bytes live";
        ck_get_alloc_stats(&before_);
    }
    void TearDown() override {
        ck_set_alloc_limit(saved_);
        EXPECT_EQ(ck_get_alloc_live_bytes(), 0u) << "the test left bytes live";
        EXPECT_EQ(ckt::live_allocations(), 0) << "the test left blocks live";
    }
    // Requests since SetUp that returned NULL.
    uint64_t failures() const {
        ck_alloc_stats now;
        ck_get_alloc_stats(&now);
        return now.failures - before_.failures;
    }

  private:
    size_t saved_ = 0;
    ck_alloc_stats before_{};
};

TEST_F(AllocLimit, ARequestThatFitsExactlySucceedsOneByteMoreFails) {
    ck_set_alloc_limit(1000);
    void *p = ck_malloc(1000);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(ck_get_alloc_live_bytes(), 1000u);
    ck_free(p);
    EXPECT_EQ(ck_get_alloc_live_bytes(), 0u);

    ck_clear_error();
    EXPECT_EQ(ck_malloc(1001), nullptr);
    EXPECT_EQ(ck_last_status(), CK_ERR_NOMEM);
    EXPECT_STREQ(ck_last_error(),
                 "ckernel allocation limit: a request of 1001 bytes would hold 1001 bytes, above "
                 "the limit of 1000 (ck_set_alloc_limit)");
    EXPECT_EQ(ck_get_alloc_live_bytes(), 0u);
    EXPECT_EQ(failures(), 1u);
}

TEST_F(AllocLimit, CallocIsCheckedOnTheProduct) {
    ck_set_alloc_limit(1000);
    unsigned char *p = static_cast<unsigned char *>(ck_calloc(8, 125));  // 1000 bytes
    ASSERT_NE(p, nullptr);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(p[i], 0) << i;
    EXPECT_EQ(ck_get_alloc_live_bytes(), 1000u);
    ck_free(p);
    EXPECT_EQ(ck_calloc(7, 143), nullptr);  // 1001 bytes
    EXPECT_STREQ(ck_last_error(),
                 "ckernel allocation limit: a request of 1001 bytes would hold 1001 bytes, above "
                 "the limit of 1000 (ck_set_alloc_limit)");
}

TEST_F(AllocLimit, BlocksHeldTogetherCountTowardsIt) {
    ck_set_alloc_limit(1000);
    void *a = ck_malloc(600), *b = ck_malloc(400);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(ck_get_alloc_live_bytes(), 1000u);
    void *none = ck_malloc(0);  // adds nothing: fits even at the limit
    EXPECT_NE(none, nullptr);
    EXPECT_EQ(ck_malloc(1), nullptr);
    EXPECT_STREQ(ck_last_error(),
                 "ckernel allocation limit: a request of 1 byte would hold 1001 bytes, above the "
                 "limit of 1000 (ck_set_alloc_limit)");
    ck_free(b);
    EXPECT_EQ(ck_get_alloc_live_bytes(), 600u);
    void *c = ck_malloc(400);  // the freed bytes are available again
    EXPECT_NE(c, nullptr);
    ck_free(a);
    ck_free(c);
    ck_free(none);
    EXPECT_EQ(failures(), 1u);
}

TEST_F(AllocLimit, ReallocGrowthCountsOnlyTheGrowth) {
    ck_set_alloc_limit(1000);
    char *p = static_cast<char *>(ck__realloc(nullptr, 600));
    ASSERT_NE(p, nullptr);
    for (int i = 0; i < 600; ++i) p[i] = static_cast<char>(i * 7);
    // 600 held + 400 more = 1000: fits (the new size whole on top of the old would not).
    p = static_cast<char *>(ck__realloc(p, 1000));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(ck_get_alloc_live_bytes(), 1000u);
    for (int i = 0; i < 600; ++i) ASSERT_EQ(p[i], static_cast<char>(i * 7)) << i;

    EXPECT_EQ(ck__realloc(p, 1001), nullptr);
    EXPECT_EQ(ck_last_status(), CK_ERR_NOMEM);
    EXPECT_STREQ(ck_last_error(),
                 "ckernel allocation limit: growing a block from 1000 to 1001 bytes would hold "
                 "1001 bytes, above the limit of 1000 (ck_set_alloc_limit)");
    EXPECT_EQ(ck_get_alloc_live_bytes(), 1000u);  // the block is untouched
    for (int i = 0; i < 600; ++i) ASSERT_EQ(p[i], static_cast<char>(i * 7)) << i;

    // A shrink is never refused, even below the limit, and gives its bytes back.
    ck_set_alloc_limit(5);
    p = static_cast<char *>(ck__realloc(p, 10));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(ck_get_alloc_live_bytes(), 10u);
    for (int i = 0; i < 10; ++i) ASSERT_EQ(p[i], static_cast<char>(i * 7)) << i;
    EXPECT_EQ(ck__realloc(p, 11), nullptr);
    EXPECT_STREQ(ck_last_error(),
                 "ckernel allocation limit: growing a block from 10 to 11 bytes would hold 11 "
                 "bytes, above the limit of 5 (ck_set_alloc_limit)");
    ck_free(p);
    EXPECT_EQ(failures(), 2u);
}

TEST_F(AllocLimit, ALimitBelowTheLiveBytesRefusesGrowthOnly) {
    ck_set_alloc_limit(0);
    void *p = ck_malloc(1000);
    ASSERT_NE(p, nullptr);
    ck_set_alloc_limit(100);
    EXPECT_EQ(ck_malloc(1), nullptr);
    EXPECT_STREQ(ck_last_error(),
                 "ckernel allocation limit: a request of 1 byte would hold 1001 bytes, above the "
                 "limit of 100 (ck_set_alloc_limit)");
    ck_free(p);  // frees always succeed
    void *q = ck_malloc(100);
    EXPECT_NE(q, nullptr);
    ck_free(q);
}

TEST_F(AllocLimit, ZeroMeansNoLimitAndTheSetterIsTheSource) {
    ck_set_alloc_limit(12345);
    EXPECT_EQ(ck_get_alloc_limit(), 12345u);
    EXPECT_EQ(ck_get_alloc_limit_source(), CK_ALLOC_LIMIT_API);
    EXPECT_STREQ(ck_alloc_limit_reason(), "ck_set_alloc_limit");
    ck_set_alloc_limit(0);
    EXPECT_EQ(ck_get_alloc_limit(), 0u);
    EXPECT_EQ(ck_get_alloc_limit_source(), CK_ALLOC_LIMIT_API);
    void *p = ck_malloc(size_t{1} << 20);
    EXPECT_NE(p, nullptr);
    EXPECT_EQ(ck_get_alloc_live_bytes(), size_t{1} << 20);
    ck_free(p);
}

// Without a limit the live bytes still follow every request, as the block counters do.
TEST_F(AllocLimit, LiveBytesFollowEveryRequestWithoutALimit) {
    ck_set_alloc_limit(0);
    void *p = ck_malloc(10), *q = ck_calloc(3, 7);
    ASSERT_NE(p, nullptr);
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(ck_get_alloc_live_bytes(), 31u);
    void *r = ck__realloc(p, 100000);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(ck_get_alloc_live_bytes(), 100021u);
    r = ck__realloc(r, 40);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(ck_get_alloc_live_bytes(), 61u);
    ck_free(q);
    EXPECT_EQ(ck_get_alloc_live_bytes(), 40u);
    ck_free(r);
}

// A request that cannot be represented with its size record, or whose bytes would wrap the
// count, is refused without the count ever wrapping.
TEST_F(AllocLimit, SizesNearTheAddressSpaceNeverWrapTheCount) {
    ck_set_alloc_limit(SIZE_MAX);
    EXPECT_EQ(ck_malloc(SIZE_MAX), nullptr);
    EXPECT_EQ(ck_get_alloc_live_bytes(), 0u);
    void *p = ck_malloc(100);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(ck_malloc(SIZE_MAX - 50), nullptr);  // 100 + SIZE_MAX - 50 wraps
    const std::string max = std::to_string(SIZE_MAX);  // 18446744073709551615 at 64 bits
    EXPECT_EQ(std::string(ck_last_error()),
              "ckernel allocation limit: a request of " + std::to_string(SIZE_MAX - 50) +
                  " bytes would hold more than " + max + " bytes, above the limit of " + max +
                  " (ck_set_alloc_limit)");
    EXPECT_EQ(ck_get_alloc_live_bytes(), 100u);
    ck_free(p);
}

// The limit holds whatever allocator is installed, and a refused request never reaches it.
TEST_F(AllocLimit, RefusedRequestsNeverReachTheInstalledAllocator) {
    ASSERT_EQ(ckt_alloc_install(), CK_OK) << ck_last_error();
    ck_set_alloc_limit(1000);
    EXPECT_EQ(ck_malloc(1001), nullptr);
    EXPECT_EQ(ck_calloc(1001, 1), nullptr);
    EXPECT_EQ(ckt_alloc_requests(), 0);
    void *p = ck_malloc(1000);
    EXPECT_NE(p, nullptr);
    EXPECT_EQ(ckt_alloc_requests(), 1);
    ck_free(p);
    EXPECT_EQ(ckt_alloc_uninstall(), CK_OK) << ck_last_error();
}

// A caller keeps the limit's message only for the refusal it got: a later NULL from the
// allocator itself gets the caller's own message, not a stale refusal's.
TEST_F(AllocLimit, AnAllocatorFailureAfterARefusalGetsItsOwnMessage) {
    ck_type *t = nullptr;
    ck_set_alloc_limit(10);  // less than any type level
    EXPECT_EQ(ck_type_make_fixed_dim(3, ck_type_scalar(CK_TYPE_INT32), &t), CK_ERR_NOMEM);
    EXPECT_EQ(std::string(ck_last_error()).rfind("ckernel allocation limit: a request of ", 0), 0u)
        << ck_last_error();
    ck_set_alloc_limit(0);
    ASSERT_EQ(ckt_alloc_install(), CK_OK) << ck_last_error();
    ckt_alloc_fail_at(1);
    EXPECT_EQ(ck_type_make_fixed_dim(3, ck_type_scalar(CK_TYPE_INT32), &t), CK_ERR_NOMEM);
    EXPECT_STREQ(ck_last_error(), "out of memory making a fixed_dim type");
    ckt_alloc_fail_at(0);
    EXPECT_EQ(ckt_alloc_uninstall(), CK_OK) << ck_last_error();
}

// ck_malloc and ck_calloc, for user kernels, always say why they return NULL: a kernel just
// returns CK_ERR_NOMEM, and the limit's message, when it was the limit, reaches its caller.
TEST_F(AllocLimit, PublicAllocatorsAlwaysSetAMessageOnNull) {
    ASSERT_EQ(ckt_alloc_install(), CK_OK) << ck_last_error();
    ckt_alloc_fail_at(1);
    ck_clear_error();
    EXPECT_EQ(ck_malloc(256), nullptr);
    EXPECT_EQ(ck_last_status(), CK_ERR_NOMEM);
    EXPECT_STREQ(ck_last_error(), "ck_malloc: out of memory allocating 256 bytes");
    ckt_alloc_fail_at(1);
    EXPECT_EQ(ck_calloc(4, 64), nullptr);
    EXPECT_STREQ(ck_last_error(), "ck_calloc: out of memory allocating 4 x 64 bytes");
    ckt_alloc_fail_at(0);
    EXPECT_EQ(ckt_alloc_uninstall(), CK_OK) << ck_last_error();
    EXPECT_EQ(ck_calloc(SIZE_MAX, 2), nullptr);
    EXPECT_EQ(std::string(ck_last_error()),
              "ck_calloc: out of memory allocating " + std::to_string(SIZE_MAX) + " x 2 bytes");
    ck_set_alloc_limit(100);
    EXPECT_EQ(ck_calloc(101, 1), nullptr);
    EXPECT_STREQ(ck_last_error(),
                 "ckernel allocation limit: a request of 101 bytes would hold 101 bytes, above "
                 "the limit of 100 (ck_set_alloc_limit)");
}

}  // namespace
