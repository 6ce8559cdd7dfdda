// tests/expr/doc_expr_example_test.cpp: the example of docs/kernels.md §13 does what the
// manual says: maximum(a * x + b, 0) over ragged int32 rows, values worked out by hand.
#include <gtest/gtest.h>

#include "ckt.hpp"
#include "ckt_array.hpp"
#include "expr_example.h"

namespace {

TEST(DocExpr, ClippedAffineOverRaggedRows) {
    ckt::Array x("2 * var * int32", "[[1, -2, 3], [-4]]");
    ck_array *y = nullptr;
    ASSERT_EQ(ex_clipped_affine(x.get(), 2, 0.5, &y), CK_OK) << ck_last_error();
    char *s = nullptr, *t = nullptr;
    ASSERT_EQ(ck_array_format(y, &s), CK_OK);
    ASSERT_EQ(ck_type_format(ck_array_type(y), &t), CK_OK);
    EXPECT_STREQ(s, "[[2.5, 0, 6.5], [0]]");
    EXPECT_STREQ(t, "2 * var * float64");
    ck_free(s);
    ck_free(t);
    ck_array_free(y);
}

}  // namespace
