// tests/callables/doc_core_example_test.cpp: the core-dimension example of docs/kernels.md
// §12 does what the manual says: a user's norm, (N * float64) -> float64, over fixed rows,
// ragged rows, and int32 rows assigned into float64 blocks first. Expected values are norms
// worked out by hand (3-4-5, 5-12-13, 6-8-10).
#include <gtest/gtest.h>

#include <string>

#include "ckt.hpp"
#include "ckt_array.hpp"
#include "core_example.h"

namespace {

std::string norms(const char *type, const char *literal, int *rc) {
    ckt::Array x(type, literal);
    ck_array *y = nullptr;
    *rc = ex_row_norms(x.get(), &y);
    if (*rc != CK_OK) return ck_last_error();
    char *s = nullptr;
    EXPECT_EQ(ck_array_format(y, &s), CK_OK);
    std::string r = s;
    ck_free(s);
    ck_array_free(y);
    return r;
}

TEST(DocCore, NormsOfFixedAndRaggedRows) {
    int rc = 0;
    EXPECT_EQ(norms("3 * var * float64", "[[3, 4], [], [6, 8]]", &rc), "[5, 0, 10]");
    EXPECT_EQ(rc, CK_OK);
    EXPECT_EQ(norms("2 * 2 * int32", "[[3, 4], [5, 12]]", &rc), "[5, 13]");
    EXPECT_EQ(rc, CK_OK);
    EXPECT_EQ(norms("2 * 2 * 2 * float64", "[[[3, 4], [0, 1]], [[6, 8], [1, 0]]]", &rc),
              "[[5, 1], [10, 1]]");
    EXPECT_EQ(rc, CK_OK);
    // a scalar has no row; int32 under a var row is not converted yet
    norms("float64", "2", &rc);
    EXPECT_EQ(rc, CK_ERR_BROADCAST);
    norms("2 * var * int32", "[[3, 4], []]", &rc);
    EXPECT_EQ(rc, CK_ERR_UNSUPPORTED);
}

TEST(DocCore, NoLeaksAtAnyAllocationFailure) {
    const int64_t points = ckt::for_each_alloc_failure([]() {
        ck_type *t = nullptr;
        ck_array *x = nullptr, *y = nullptr;
        int rc = ck_type_parse("2 * 2 * int32", &t);
        if (rc == CK_OK) rc = ck_array_parse(t, "[[3, 4], [5, 12]]", &x);
        if (rc == CK_OK) rc = ex_row_norms(x, &y);
        ck_array_free(y);
        ck_array_free(x);
        ck_type_decref(t);
        return rc;
    });
    EXPECT_GT(points, 2);
}

}  // namespace
