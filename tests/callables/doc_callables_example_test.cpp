// tests/callables/doc_callables_example_test.cpp: the examples of docs/kernels.md §9 do what
// the manual says: a*x + b over 100 * var * float64 (and over int32 data), and the
// broadcasting binary grid. Expected values come from the formulas, computed here.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "callables_example.h"
#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

// Row i of the ragged input has i % 4 elements: x[i][j] = i - 0.25 * j.
std::string ragged_literal() {
    std::string s = "[";
    for (int i = 0; i < 100; ++i) {
        s += i == 0 ? "[" : ", [";
        for (int j = 0; j < i % 4; ++j) {
            s += (j == 0 ? "" : ", ") + std::to_string(i - 0.25 * j);
        }
        s += "]";
    }
    return s + "]";
}

TEST(DocCallables, AxpbOverAHundredRaggedRows) {
    ckt::Array x("100 * var * float64", ragged_literal().c_str());
    ck_array *y = nullptr;
    ASSERT_EQ(ex_axpb(3.0, -1.5, x.get(), &y), CK_OK) << ck_last_error();
    char *ts = nullptr;
    ASSERT_EQ(ck_type_format(ck_array_type(y), &ts), CK_OK);
    EXPECT_STREQ(ts, "100 * var * float64");
    ck_free(ts);
    const char *am = ck_array_arrmeta(y);
    const auto *outer = reinterpret_cast<const ck_fixed_dim_arrmeta *>(am);
    const auto *inner = reinterpret_cast<const ck_var_dim_arrmeta *>(am + sizeof(ck_fixed_dim_arrmeta));
    int checked = 0;
    for (int i = 0; i < 100; ++i) {
        const auto *row = reinterpret_cast<const ck_var_data *>(ck_array_data(y) + i * outer->stride);
        ASSERT_EQ(row->size, static_cast<size_t>(i % 4)) << "row " << i;
        for (int j = 0; j < i % 4; ++j) {
            const double got = *reinterpret_cast<const double *>(row->begin + inner->offset +
                                                                 j * inner->stride);
            EXPECT_EQ(got, 3.0 * (i - 0.25 * j) - 1.5) << i << "," << j;
            ++checked;
        }
    }
    EXPECT_EQ(checked, 25 * (0 + 1 + 2 + 3));
    ck_array_free(y);
}

TEST(DocCallables, AxpbOnInt32DataCastsTheArgument) {
    ckt::Array x("2 * var * int32", "[[1, 2], [-3]]");
    ck_array *y = nullptr;
    ASSERT_EQ(ex_axpb(0.5, 1.0, x.get(), &y), CK_OK) << ck_last_error();
    char *s = nullptr;
    ASSERT_EQ(ck_array_format(y, &s), CK_OK);
    EXPECT_STREQ(s, "[[1.5, 2], [-0.5]]");
    ck_free(s);
    ck_array_free(y);
}

TEST(DocCallables, DistanceGridBroadcastsAColumnAgainstARow) {
    ck_array *g = nullptr;
    ASSERT_EQ(ex_dist_grid(&g), CK_OK) << ck_last_error();
    char *ts = nullptr;
    ASSERT_EQ(ck_type_format(ck_array_type(g), &ts), CK_OK);
    EXPECT_STREQ(ts, "10 * 7 * float64");
    ck_free(ts);
    const double *d = reinterpret_cast<const double *>(ck_array_data(g));
    for (int i = 0; i < 10; ++i)
        for (int j = 0; j < 7; ++j) EXPECT_EQ(d[i * 7 + j], std::sqrt(double(i * i + j * j)));
    ck_array_free(g);
}

}  // namespace
