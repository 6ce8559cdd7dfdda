// tests/assign/pointer_test.cpp: reading and writing through pointers, NULL pointers.
#include <gtest/gtest.h>

#include <cstring>

#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

using ckt::Array;

class Pointer : public ::testing::Test {
  protected:
    void TearDown() override { EXPECT_EQ(ckt::live_allocations(), 0); }
};

TEST_F(Pointer, ReadThroughASourcePointer) {
    Array src("pointer[int32]", "42");
    Array dst("float64");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "42.0");
    Array vsrc("3 * pointer[int16]", "[1, -2, 3]");
    Array vdst("3 * int64");
    ASSERT_EQ(ck_assign(vdst.get(), vsrc.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(vdst.str(), "[1, -2, 3]");
    Array asrc("pointer[3 * int32]", "[4, 5, 6]");
    Array adst("3 * float32");
    ASSERT_EQ(ck_assign(adst.get(), asrc.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(adst.str(), "[4.0, 5.0, 6.0]");
}

TEST_F(Pointer, WriteThroughADestinationPointer) {
    Array src("int32", "3");
    Array dst("pointer[float64]");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "3.0");
    Array vsrc("2 * 2 * uint8", "[[1, 2], [3, 4]]");
    Array vdst("2 * pointer[2 * int64]");
    ASSERT_EQ(ck_assign(vdst.get(), vsrc.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(vdst.str(), "[[1, 2], [3, 4]]");
}

TEST_F(Pointer, PointerToPointerAndBroadcastThroughAPointer) {
    Array src("pointer[complex128]", "1.5+0j");
    Array dst("pointer[float32]");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "1.5");
    Array one("pointer[int32]", "7");
    Array row("3 * int32");
    ASSERT_EQ(ck_assign(row.get(), one.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(row.str(), "[7, 7, 7]");
}

TEST_F(Pointer, NullPointersAreErrorsNotCrashes) {
    Array nsrc("pointer[int32]", "null");
    Array dst("int32", "5");
    EXPECT_EQ(ck_assign(dst.get(), nsrc.get(), nullptr), CK_ERR_UNINITIALIZED);
    EXPECT_STREQ(ck_last_error(), "pointer: the source pointer is NULL");
    EXPECT_EQ(dst.str(), "5");
    Array vsrc("3 * pointer[int32]", "[1, null, 3]");
    Array vdst("3 * int32");
    EXPECT_EQ(ck_assign(vdst.get(), vsrc.get(), nullptr), CK_ERR_UNINITIALIZED);
    EXPECT_STREQ(ck_last_error(), "pointer: the source pointer of element 1 is NULL");
    EXPECT_EQ(vdst.str(), "[1, 0, 0]");
    Array ndst("pointer[int32]", "null");
    EXPECT_EQ(ck_assign(ndst.get(), dst.get(), nullptr), CK_ERR_UNINITIALIZED);
    EXPECT_STREQ(ck_last_error(), "pointer: the destination pointer is NULL");
}

TEST_F(Pointer, PointersInsideRaggedRows) {
    Array src("2 * var * pointer[int32]", "[[1, 2], [3]]");
    Array dst("2 * var * float64");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[[1.0, 2.0], [3.0]]");
}

}  // namespace
