// tests/unit/status_test.cpp: the status table (pinned values), names, messages, and the
// thread-local error message.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>
#include <thread>

#include "ckernel/status.h"

namespace {

// The released values, written out by hand: they must never change.
TEST(Status, ValuesAndNamesArePinned) {
    struct {
        int value;
        const char *name;
    } expected[] = {
        {0, "CK_OK"},           {1, "CK_ERR_NOMEM"},      {2, "CK_ERR_INVALID"},
        {3, "CK_ERR_PARSE"},    {4, "CK_ERR_TYPE"},       {5, "CK_ERR_BROADCAST"},
        {6, "CK_ERR_OVERFLOW"}, {7, "CK_ERR_FRACTIONAL"}, {8, "CK_ERR_INEXACT"},
        {9, "CK_ERR_IMAGINARY"}, {10, "CK_ERR_UNINITIALIZED"}, {11, "CK_ERR_UNSUPPORTED"},
        {12, "CK_ERR_INTERNAL"}, {13, "CK_ERR_AMBIGUOUS"}, {14, "CK_ERR_ZERO_DIVISION"},
        {15, "CK_ERR_NA"},      {16, "CK_ERR_TEXT"},          {17, "CK_ERR_DOMAIN"},
    };
    EXPECT_EQ(CK_OK, 0);
    EXPECT_EQ(CK_ERR_NOMEM, 1);
    EXPECT_EQ(CK_ERR_OVERFLOW, 6);
    EXPECT_EQ(CK_ERR_INTERNAL, 12);
    for (const auto &e : expected) EXPECT_STREQ(ck_status_name(e.value), e.name);
    EXPECT_EQ(CK_ERR_AMBIGUOUS, 13);
    EXPECT_EQ(CK_ERR_ZERO_DIVISION, 14);
    EXPECT_EQ(CK_ERR_NA, 15);
    EXPECT_EQ(CK_ERR_TEXT, 16);
    EXPECT_EQ(CK_ERR_DOMAIN, 17);
    EXPECT_EQ(static_cast<int>(CK__STATUS_END), 18);
}

TEST(Status, MessagesAreDistinctAndUnknownValuesAreNamedSo) {
    std::set<std::string> seen;
    for (int s = 0; s < CK__STATUS_END; ++s) {
        std::string m = ck_status_message(s);
        EXPECT_FALSE(m.empty()) << s;
        EXPECT_TRUE(seen.insert(m).second) << "duplicate message " << m;
    }
    EXPECT_STREQ(ck_status_message(CK_ERR_NOMEM), "out of memory");
    for (int bad : {-1, static_cast<int>(CK__STATUS_END), 1000}) {
        EXPECT_STREQ(ck_status_name(bad), "CK_ERR_UNKNOWN");
        EXPECT_STREQ(ck_status_message(bad), "unknown status");
    }
}

TEST(Status, SetErrorFormatsRecordsAndReturnsTheStatus) {
    ck_clear_error();
    EXPECT_STREQ(ck_last_error(), "");
    EXPECT_EQ(ck_last_status(), CK_OK);
    EXPECT_EQ(ck_set_error(CK_ERR_OVERFLOW, "value %d does not fit in %s", 300, "int8"),
              CK_ERR_OVERFLOW);
    EXPECT_STREQ(ck_last_error(), "value 300 does not fit in int8");
    EXPECT_EQ(ck_last_status(), CK_ERR_OVERFLOW);
    EXPECT_EQ(ck_set_error(CK_ERR_NOMEM, nullptr), CK_ERR_NOMEM);
    EXPECT_STREQ(ck_last_error(), "out of memory");
    ck_clear_error();
    EXPECT_STREQ(ck_last_error(), "");
}

TEST(Status, LongMessagesAreCutVisibly) {
    std::string longer(3000, 'x');
    ck_set_error(CK_ERR_PARSE, "%s", longer.c_str());
    size_t n = std::strlen(ck_last_error());
    EXPECT_EQ(n, 1023u);
    EXPECT_STREQ(ck_last_error() + n - 3, "...");
}

TEST(Status, TheMessageIsPerThread) {
    ck_set_error(CK_ERR_TYPE, "main thread");
    std::string other_before, other_after;
    int other_status = -1;
    std::thread t([&] {
        other_before = ck_last_error();
        ck_set_error(CK_ERR_BROADCAST, "worker");
        other_after = ck_last_error();
        other_status = ck_last_status();
    });
    t.join();
    EXPECT_EQ(other_before, "");
    EXPECT_EQ(other_after, "worker");
    EXPECT_EQ(other_status, CK_ERR_BROADCAST);
    EXPECT_STREQ(ck_last_error(), "main thread");
    EXPECT_EQ(ck_last_status(), CK_ERR_TYPE);
}

}  // namespace
