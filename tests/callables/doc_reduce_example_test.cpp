// tests/callables/doc_reduce_example_test.cpp: the example of docs/kernels.md §12 does what
// the manual says: gcd (a user's callable with the identity 0) reduced over each row, with
// the int32 elements cast to int64 on the way. Expected values are gcds worked out by hand.
#include <gtest/gtest.h>

#include <string>

#include "ckt.hpp"
#include "ckt_array.hpp"
#include "reduce_example.h"

namespace {

TEST(DocReduce, RowGcdOfAMatrix) {
    ckt::Array x("3 * 4 * int32", "[[12, 18, 24, 6], [7, -14, 0, 21], [0, 0, 0, 0]]");
    ck_array *y = nullptr;
    ASSERT_EQ(ex_row_gcd(x.get(), &y), CK_OK) << ck_last_error();
    char *s = nullptr, *t = nullptr;
    ASSERT_EQ(ck_array_format(y, &s), CK_OK);
    ASSERT_EQ(ck_type_format(ck_array_type(y), &t), CK_OK);
    EXPECT_STREQ(s, "[6, 7, 0]");
    EXPECT_STREQ(t, "3 * int64");
    ck_free(s);
    ck_free(t);
    ck_array_free(y);
}

TEST(DocReduce, ZeroElementsGiveTheIdentityAndNegativesTheirMagnitude) {
    ckt::Array x("2 * 0 * int64", "[[], []]");
    ck_array *y = nullptr;
    ASSERT_EQ(ex_row_gcd(x.get(), &y), CK_OK) << ck_last_error();
    char *s = nullptr;
    ASSERT_EQ(ck_array_format(y, &s), CK_OK);
    EXPECT_STREQ(s, "[0, 0]");
    ck_free(s);
    ck_array_free(y);
    ckt::Array z("1 * 2 * int64", "[[-9, -6]]");
    ASSERT_EQ(ex_row_gcd(z.get(), &y), CK_OK) << ck_last_error();
    ASSERT_EQ(ck_array_format(y, &s), CK_OK);
    EXPECT_STREQ(s, "[3]");
    ck_free(s);
    ck_array_free(y);
}

TEST(DocReduce, TheCallableHasItsIdentityAndNoLeaks) {
    const int64_t points = ckt::for_each_alloc_failure([]() {
        ck_type *t = nullptr;
        ck_array *x = nullptr, *y = nullptr;
        int rc = ck_type_parse("2 * 3 * int32", &t);
        if (rc == CK_OK) rc = ck_array_parse(t, "[[4, 6, 8], [9, 3, 0]]", &x);
        if (rc == CK_OK) rc = ex_row_gcd(x, &y);
        ck_array_free(y);
        ck_array_free(x);
        ck_type_decref(t);
        return rc;
    });
    EXPECT_GT(points, 2);
    ck_callable *gcd = nullptr;
    ASSERT_EQ(ex_make_gcd(&gcd), CK_OK);
    EXPECT_STREQ(ck_callable_identity(gcd), "0");
    ck_callable_decref(gcd);
}

}  // namespace
