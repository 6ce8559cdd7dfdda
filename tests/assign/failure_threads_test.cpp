// tests/assign/failure_threads_test.cpp: allocation failure at every point of building and
// running a 4-level kernel, and one built kernel shared by 8 threads.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

// fixed -> var -> pointer -> leaf, with var rows allocated while it runs.
int four_levels_once() {
    ck_type *st = nullptr, *dt = nullptr;
    ck_array *src = nullptr, *dst = nullptr;
    int rc = ck_type_parse("2 * var * pointer[int32]", &st);
    if (rc == CK_OK) rc = ck_type_parse("2 * var * float64", &dt);
    if (rc == CK_OK) rc = ck_array_parse(st, "[[1, 2, 3], [4]]", &src);
    if (rc == CK_OK) rc = ck_array_new(dt, &dst);
    if (rc == CK_OK) {
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        rc = ck_make_assign(&b, &off, dt, ck_array_arrmeta(dst), st, ck_array_arrmeta(src),
                            CK_REQUEST_SINGLE, nullptr);
        char *s = ck_array_data(src);
        if (rc == CK_OK) rc = ck_call_single(ck_builder_root(&b), ck_array_data(dst), &s);
        ck_builder_destroy(&b);
    }
    if (rc == CK_OK) {
        char *text = nullptr;
        rc = ck_array_format(dst, &text);
        if (rc == CK_OK && std::string(text) != "[[1, 2, 3], [4]]") rc = CK_ERR_INTERNAL;
        ck_free(text);
    }
    ck_array_free(src);
    ck_array_free(dst);
    ck_type_decref(st);
    ck_type_decref(dt);
    return rc;
}

TEST(AssignFailure, EveryAllocationPointOfAFourLevelKernel) {
    int64_t points = ckt::for_each_alloc_failure(four_levels_once);
    EXPECT_GE(points, 5);  // types, arrays, arena chunks, the builder's heap buffer
}

TEST(AssignThreads, OneKernelEightThreadsDisjointOutputs) {
    constexpr int kThreads = 8, kRows = 64;
    ckt::Type st("100 * int32"), dt("100 * float64");
    ck_fixed_dim_arrmeta sam = {100, 4}, dam = {100, 8};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&b, &off, dt.get(), reinterpret_cast<char *>(&dam), st.get(),
                             reinterpret_cast<char *>(&sam), CK_REQUEST_STRIDED, nullptr),
              CK_OK);
    std::vector<int32_t> in(kRows * 100);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int32_t>(i * 3) - 7;
    std::vector<std::vector<double>> out(kThreads, std::vector<double>(kRows * 100, -1));
    std::vector<int> rc(kThreads, -1);
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; ++t)
        ts.emplace_back([&, t] {
            char *s = reinterpret_cast<char *>(in.data());
            intptr_t ss = 400;
            for (int rep = 0; rep < 20; ++rep) {
                rc[t] = ck_call_strided(ck_builder_root(&b), reinterpret_cast<char *>(out[t].data()),
                                        800, &s, &ss, kRows);
                if (rc[t] != CK_OK) break;
            }
        });
    for (auto &t : ts) t.join();
    ck_builder_destroy(&b);
    for (int t = 0; t < kThreads; ++t) {
        EXPECT_EQ(rc[t], CK_OK);
        for (size_t i = 0; i < in.size(); ++i)
            ASSERT_EQ(out[t][i], static_cast<double>(static_cast<int64_t>(i * 3) - 7)) << t << " " << i;
    }
}

// Ragged destinations allocate from one shared arena while 8 threads run the same kernel.
TEST(AssignThreads, VarRowsAllocatedConcurrentlyFromOneArena) {
    constexpr int kThreads = 8;
    ckt::Array src("5 * var * int16", "[[1], [2, 3], [], [4, 5, 6], [7, 8, 9, 10]]");
    ckt::Array dst0("5 * var * int64");
    std::vector<ck_var_data> rows(static_cast<size_t>(kThreads) * 5, ck_var_data{nullptr, 0});
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&b, &off, ck_array_type(dst0.get()), ck_array_arrmeta(dst0.get()),
                             ck_array_type(src.get()), ck_array_arrmeta(src.get()),
                             CK_REQUEST_SINGLE, nullptr),
              CK_OK);
    std::vector<int> rc(kThreads, -1);
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; ++t)
        ts.emplace_back([&, t] {
            char *s = src.data();
            rc[t] = ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(&rows[5 * t]), &s);
        });
    for (auto &t : ts) t.join();
    ck_builder_destroy(&b);
    const std::vector<std::vector<int64_t>> expect = {{1}, {2, 3}, {}, {4, 5, 6}, {7, 8, 9, 10}};
    for (int t = 0; t < kThreads; ++t) {
        ASSERT_EQ(rc[t], CK_OK);
        for (int r = 0; r < 5; ++r) {
            const ck_var_data &v = rows[5 * t + r];
            ASSERT_NE(v.begin, nullptr);
            ASSERT_EQ(v.size, expect[r].size());
            for (size_t i = 0; i < v.size; ++i)
                EXPECT_EQ(reinterpret_cast<const int64_t *>(v.begin)[i], expect[r][i]);
        }
    }
}

}  // namespace
