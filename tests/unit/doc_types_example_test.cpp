// tests/unit/doc_types_example_test.cpp: the types examples of docs/kernels.md say what
// they compute; check that they do (values worked out by hand from docs/design.md §6).
#include <gtest/gtest.h>

#include <string>

#include "ckt.hpp"
#include "types_example.h"

TEST(DocTypesExample, QueriesOfThreeVarInt32) {
    size_t data = 0, arrmeta = 0;
    int ndim = 0;
    ASSERT_EQ(ex_type_queries(&data, &arrmeta, &ndim), CK_OK);
    EXPECT_EQ(data, 3 * (sizeof(char *) + sizeof(size_t)));
    EXPECT_EQ(arrmeta, 2 * sizeof(intptr_t) + sizeof(void *) + 2 * sizeof(intptr_t));
    EXPECT_EQ(ndim, 2);
}

TEST(DocTypesExample, LiteralRoundTrip) {
    char *text = nullptr;
    ASSERT_EQ(ex_literal_round_trip(&text), CK_OK) << ck_last_error();
    EXPECT_STREQ(text, "[[1, 2.5], [nan, -inf, 1e-07]]");
    ck_free(text);
    EXPECT_EQ(ckt::live_allocations(), 0);
}

TEST(DocTypesExample, AssignIntoAHostTranspose) {
    double out[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
    ASSERT_EQ(ex_assign_into_host_transpose(out), CK_OK) << ck_last_error();
    const double want[3][2] = {{1, 4}, {2, 5}, {3, 6}};  // the transpose, by hand
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 2; ++j) EXPECT_EQ(out[i][j], want[i][j]) << i << "," << j;
    EXPECT_EQ(ckt::live_allocations(), 0);
}
