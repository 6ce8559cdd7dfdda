// tests/assign/dims_test.cpp: fixed dimensions: broadcasting of missing and size-1 source
// dims, mismatches, zero-sized dims, strides. Expected values are written out by hand.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

using ckt::Array;

class Dims : public ::testing::Test {
  protected:
    void TearDown() override { EXPECT_EQ(ckt::live_allocations(), 0); }
};

TEST_F(Dims, SameShapeCastsEveryElement) {
    Array src("2 * 3 * int32", "[[1, -2, 3], [40, 50, -60]]");
    Array dst("2 * 3 * float64");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[[1, -2, 3], [40, 50, -60]]");
}

TEST_F(Dims, ScalarBroadcastsToEveryElement) {
    Array src("int16", "7");
    Array dst("2 * 3 * 4 * float32");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(),
              "[[[7, 7, 7, 7], [7, 7, 7, 7], [7, 7, 7, 7]], "
              "[[7, 7, 7, 7], [7, 7, 7, 7], [7, 7, 7, 7]]]");
}

TEST_F(Dims, VectorBroadcastsAlongMissingLeadingDims) {
    Array src("4 * int64", "[1, 2, 3, 4]");
    Array dst("2 * 3 * 4 * int8");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(),
              "[[[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]], "
              "[[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]]");
}

TEST_F(Dims, SizeOneDimBroadcasts) {
    Array src("3 * 1 * uint8", "[[1], [2], [3]]");
    Array dst("3 * 4 * uint16");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]]");
    Array row("1 * 4 * int32", "[[5, 6, 7, 8]]");
    Array dst2("3 * 4 * int32");
    ASSERT_EQ(ck_assign(dst2.get(), row.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst2.str(), "[[5, 6, 7, 8], [5, 6, 7, 8], [5, 6, 7, 8]]");
}

TEST_F(Dims, MismatchedShapesFailAtBuildTimeNamingBoth) {
    Array src("2 * 3 * int32");
    Array dst("2 * 4 * int32");
    EXPECT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_ERR_BROADCAST);
    EXPECT_STREQ(ck_last_error(),
                 "cannot broadcast source 2 * 3 * int32 into destination 2 * 4 * int32: "
                 "dimension 1 has size 3 in the source and 4 in the destination");
    Array src3("3 * int32");
    Array dst2("2 * int32");
    EXPECT_EQ(ck_assign(dst2.get(), src3.get(), nullptr), CK_ERR_BROADCAST);
    // A size-1 destination does not take a larger source.
    Array one("1 * int32");
    EXPECT_EQ(ck_assign(one.get(), src3.get(), nullptr), CK_ERR_BROADCAST);
    // More source dims than destination dims cannot be assigned.
    Array scalar("int32");
    EXPECT_EQ(ck_assign(scalar.get(), src3.get(), nullptr), CK_ERR_BROADCAST);
    EXPECT_NE(std::strstr(ck_last_error(), "1 more dimension than"), nullptr) << ck_last_error();
    Array twod("2 * 3 * int32");
    EXPECT_EQ(ck_assign(src3.get(), twod.get(), nullptr), CK_ERR_BROADCAST);
}

TEST_F(Dims, ALongTypeInAMessageIsCutAtASpaceOutsideAQuotedName) {
    // The source's datashape is 226 bytes: shown up to its last space within the first 200
    // (design.md §4), where the quoted name 'x y z w v u' starts at byte 197: its own spaces
    // are not token boundaries, so the cut falls before it, after "field11: int32,".
    std::string fields;
    for (int i = 0; i < 12; i++) {
        fields += (i < 10 ? "field0" : "field") + std::to_string(i) + ": int32, ";
    }
    const std::string st = "{" + fields + "'x y z w v u': int8, g: int8}";
    const std::string sts = "2 * " + st;
    ASSERT_EQ(sts.size(), 226u);
    Array src(sts.c_str()), dst(st.c_str());
    EXPECT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_ERR_BROADCAST);
    const std::string shown = "{" + fields.substr(0, fields.size() - 1);  // to the comma
    EXPECT_EQ(std::string(ck_last_error()),
              "cannot assign source 2 * " + shown + "... into destination " + shown +
                  "...: the source has 1 more dimension than the destination can hold");
    // a type of 200 bytes or less is whole
    Array small_src("2 * {'a b': int8}"), small_dst("{'a b': int8}");
    EXPECT_EQ(ck_assign(small_dst.get(), small_src.get(), nullptr), CK_ERR_BROADCAST);
    EXPECT_STREQ(ck_last_error(),
                 "cannot assign source 2 * {'a b': int8} into destination {'a b': int8}: the "
                 "source has 1 more dimension than the destination can hold");
}

TEST_F(Dims, ZeroSizedDimsDoNothingAndSucceed) {
    Array src("0 * 3 * int32", "[]");
    Array dst("0 * 3 * float64");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[]");
    Array src2("4 * 0 * int32", "[[], [], [], []]");
    Array dst2("4 * 0 * int8");
    ASSERT_EQ(ck_assign(dst2.get(), src2.get(), nullptr), CK_OK);
    EXPECT_EQ(dst2.str(), "[[], [], [], []]");
    // A scalar into an empty array: nothing to write, nothing to check.
    Array big("int64", "100000");
    Array empty("0 * int8");
    ASSERT_EQ(ck_assign(empty.get(), big.get(), nullptr), CK_OK);
}

TEST_F(Dims, CheckedErrorsStopAtTheFailingElement) {
    Array src("5 * int32", "[1, 2, 300, 4, 5]");
    Array dst("5 * uint8", "[9, 9, 9, 9, 9]");
    ck_eval_ctx c = ckt::ctx(CK_ERRMODE_OVERFLOW);
    EXPECT_EQ(ck_assign(dst.get(), src.get(), &c), CK_ERR_OVERFLOW);
    EXPECT_NE(std::strstr(ck_last_error(), "300"), nullptr) << ck_last_error();
    EXPECT_EQ(dst.str(), "[1, 2, 9, 9, 9]");
    EXPECT_EQ(src.str(), "[1, 2, 300, 4, 5]");
    c.errmode = CK_ERRMODE_NOCHECK;
    ASSERT_EQ(ck_assign(dst.get(), src.get(), &c), CK_OK);
    EXPECT_EQ(dst.str(), "[1, 2, 44, 4, 5]");  // 300 mod 256
}

// A strided view built by hand: every other element of a 2 x 6 buffer, reversed rows.
TEST_F(Dims, ArbitraryStridesThroughMakeAssign) {
    ckt::Type t("2 * 3 * int32"), tf("2 * 3 * float64");
    int32_t buf[2][6] = {{0, 1, 2, 3, 4, 5}, {10, 11, 12, 13, 14, 15}};
    ck_fixed_dim_arrmeta sam[2] = {{2, -24}, {3, 8}};  // rows reversed, every second column
    double out[2][3] = {};
    ck_fixed_dim_arrmeta dam[2] = {{2, 24}, {3, 8}};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&b, &off, tf.get(), reinterpret_cast<char *>(dam), t.get(),
                             reinterpret_cast<char *>(sam), CK_REQUEST_SINGLE, nullptr),
              CK_OK)
        << ck_last_error();
    char *s = reinterpret_cast<char *>(&buf[1][0]);
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(out), &s), CK_OK);
    ck_builder_destroy(&b);
    const double expect[2][3] = {{10, 12, 14}, {0, 2, 4}};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_EQ(out[i][j], expect[i][j]) << i << "," << j;
}

TEST_F(Dims, StridedRequestRunsManyOuterElements) {
    ckt::Type t("3 * int16"), tf("3 * int64");
    ck_fixed_dim_arrmeta sam = {3, 2}, dam = {3, 8};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&b, &off, tf.get(), reinterpret_cast<char *>(&dam), t.get(),
                             reinterpret_cast<char *>(&sam), CK_REQUEST_STRIDED, nullptr),
              CK_OK);
    int16_t in[4][3] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {-1, -2, -3}};
    int64_t out[4][3] = {};
    char *s = reinterpret_cast<char *>(in);
    intptr_t ss = sizeof in[0];
    ASSERT_EQ(ck_call_strided(ck_builder_root(&b), reinterpret_cast<char *>(out), sizeof out[0],
                              &s, &ss, 4),
              CK_OK);
    ck_builder_destroy(&b);
    EXPECT_EQ(out[0][0], 1);
    EXPECT_EQ(out[2][1], 8);
    EXPECT_EQ(out[3][2], -3);
}

// Arrmeta that contradicts the type (a negative or different size) is refused, never walked.
TEST_F(Dims, ArrmetaThatContradictsTheTypeIsRefused) {
    ckt::Type t("3 * int32");
    for (intptr_t bad : {intptr_t{-1}, intptr_t{4}, INTPTR_MAX}) {
        ck_fixed_dim_arrmeta good = {3, 4}, wrong = {bad, 4};
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        EXPECT_EQ(ck_make_assign(&b, &off, t.get(), reinterpret_cast<char *>(&wrong), t.get(),
                                 reinterpret_cast<char *>(&good), CK_REQUEST_SINGLE, nullptr),
                  CK_ERR_INVALID);
        EXPECT_NE(std::strstr(ck_last_error(), "its type says 3"), nullptr) << ck_last_error();
        EXPECT_EQ(ck_make_assign(&b, &off, t.get(), reinterpret_cast<char *>(&good), t.get(),
                                 reinterpret_cast<char *>(&wrong), CK_REQUEST_SINGLE, nullptr),
                  CK_ERR_INVALID);
        ck_builder_destroy(&b);
    }
}

TEST_F(Dims, BadArgumentsAreReported) {
    ckt::Type t("int32");
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    EXPECT_EQ(ck_make_assign(&b, &off, nullptr, nullptr, t.get(), nullptr, CK_REQUEST_SINGLE,
                             nullptr),
              CK_ERR_INVALID);
    ckt::Type d("3 * int32");
    EXPECT_EQ(ck_make_assign(&b, &off, d.get(), nullptr, t.get(), nullptr, CK_REQUEST_SINGLE,
                             nullptr),
              CK_ERR_INVALID);
    ck_eval_ctx c = ckt::ctx(static_cast<ck_errmode>(7)  /* in the enum's range (C++), not a mode */);
    EXPECT_EQ(ck_make_assign(&b, &off, t.get(), nullptr, t.get(), nullptr, CK_REQUEST_SINGLE, &c),
              CK_ERR_INVALID);
    EXPECT_EQ(ck_assign(nullptr, nullptr, nullptr), CK_ERR_INVALID);
    ck_builder_destroy(&b);
}

}  // namespace
