// tests/types/api/host_memory_test.cpp: arrays over memory the host owns (ck_array_wrap).
// The host's buffers are plain C arrays here; expected values are written out by hand from
// the strides, and guard bytes around each destination prove nothing outside it is written.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ckernel/parallel.h"
#include "ckt_array.hpp"
#include "tt.hpp"

namespace {

using Leakless = tt::TypesLeakless;
class HostMemory : public Leakless {};

// Arrmeta for fixed dims only: (size, stride) pairs, outermost first.
std::vector<ck_fixed_dim_arrmeta> fixed(std::initializer_list<ck_fixed_dim_arrmeta> dims) {
    return std::vector<ck_fixed_dim_arrmeta>(dims);
}
const char *meta(const std::vector<ck_fixed_dim_arrmeta> &m) {
    return reinterpret_cast<const char *>(m.data());
}

TEST_F(HostMemory, AssignsIntoTheHostsBufferInPlace) {
    double host[3][4];
    for (auto &row : host)
        for (double &v : row) v = -1.0;
    tt::Type t("3 * 4 * float64");
    const auto m = fixed({{3, 32}, {4, 8}});
    tt::Array dst;
    ASSERT_EQ(ck_array_wrap(t, meta(m), reinterpret_cast<char *>(host), nullptr, &dst.a), CK_OK)
        << ck_last_error();
    EXPECT_EQ(ck_array_data(dst.a), reinterpret_cast<char *>(host)) << "no copy";
    ckt::Array src("3 * 4 * int32", "[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]");
    ASSERT_EQ(ck_assign(dst.a, src.get(), nullptr), CK_OK) << ck_last_error();
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) EXPECT_EQ(host[i][j], 4.0 * i + j + 1) << i << "," << j;
}

TEST_F(HostMemory, TransposedReversedAndBroadcastViews) {
    // A 3x4 int16 host matrix seen as its 4x3 transpose (strides 2 and 8) is the source.
    int16_t m34[3][4];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) m34[i][j] = static_cast<int16_t>(10 * i + j);
    tt::Type t43("4 * 3 * int16");
    const auto mt = fixed({{4, 2}, {3, 8}});
    tt::Array transposed;
    ASSERT_EQ(ck_array_wrap(t43, meta(mt), reinterpret_cast<char *>(m34), nullptr, &transposed.a), CK_OK);
    ckt::Array out("4 * 3 * int64");
    ASSERT_EQ(ck_assign(out.get(), transposed.a, nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(out.str(), "[[0, 10, 20], [1, 11, 21], [2, 12, 22], [3, 13, 23]]");

    // A reversed destination: stride -4 from the last element.
    float rev[5] = {0, 0, 0, 0, 0};
    tt::Type t5("5 * float32");
    const auto mr = fixed({{5, -4}});
    tt::Array reversed;
    ASSERT_EQ(ck_array_wrap(t5, meta(mr), reinterpret_cast<char *>(&rev[4]), nullptr, &reversed.a), CK_OK);
    ckt::Array five("5 * uint8", "[1, 2, 3, 4, 5]");
    ASSERT_EQ(ck_assign(reversed.a, five.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(rev[0], 5.0f);
    EXPECT_EQ(rev[2], 3.0f);
    EXPECT_EQ(rev[4], 1.0f);

    // A stride-0 source: one host value broadcast to every element.
    int32_t seven = 7;
    tt::Type t6("6 * int32");
    const auto mb = fixed({{6, 0}});
    tt::Array bcast;
    ASSERT_EQ(ck_array_wrap(t6, meta(mb), reinterpret_cast<char *>(&seven), nullptr, &bcast.a), CK_OK);
    ckt::Array six("6 * float64");
    ASSERT_EQ(ck_assign(six.get(), bcast.a, nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(six.str(), "[7, 7, 7, 7, 7, 7]");
}

TEST_F(HostMemory, StridedDestinationLeavesGapsAndGuardsAlone) {
    // Every third int32 of a guarded buffer is the destination.
    constexpr int n = 7, step = 3, guard = 16;
    std::vector<int32_t> buf(guard + n * step + guard, 0x5A5A5A5A);
    tt::Type t("7 * int32");
    const auto m = fixed({{n, step * 4}});
    tt::Array dst;
    ASSERT_EQ(ck_array_wrap(t, meta(m), reinterpret_cast<char *>(&buf[guard]), nullptr, &dst.a), CK_OK);
    ckt::Array src("7 * float64", "[-3, -2, -1, 0, 1, 2, 3]");
    ASSERT_EQ(ck_assign(dst.a, src.get(), nullptr), CK_OK) << ck_last_error();
    for (size_t i = 0; i < buf.size(); ++i) {
        const bool element = i >= guard && i < guard + n * step && (i - guard) % step == 0;
        const int32_t want = element ? static_cast<int32_t>((i - guard) / step) - 3 : 0x5A5A5A5A;
        EXPECT_EQ(buf[i], want) << "int32 " << i;
    }
}

TEST_F(HostMemory, ParallelAssignOnHostBuffers) {
    constexpr size_t rows = 2000, cols = 100;
    std::vector<int32_t> in(rows * cols);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int32_t>(i % 1000) - 500;
    std::vector<double> out(rows * cols, 0.0);
    tt::Type ti("2000 * 100 * int32"), to("2000 * 100 * float64");
    const auto mi = fixed({{rows, cols * 4}, {cols, 4}});
    const auto mo = fixed({{rows, cols * 8}, {cols, 8}});
    tt::Array src, dst;
    ASSERT_EQ(ck_array_wrap(ti, meta(mi), reinterpret_cast<char *>(in.data()), nullptr, &src.a), CK_OK);
    ASSERT_EQ(ck_array_wrap(to, meta(mo), reinterpret_cast<char *>(out.data()), nullptr, &dst.a), CK_OK);
    ck_eval_ctx c = CK_EVAL_CTX_INIT;
    c.max_threads = 2;
    c.grain_bytes = 4096;
    ASSERT_EQ(ck_parallel_assign(dst.a, src.a, &c), CK_OK) << ck_last_error();
    for (size_t i = 0; i < out.size(); ++i)
        ASSERT_EQ(out[i], static_cast<double>(static_cast<int32_t>(i % 1000) - 500)) << i;
}

int releases = 0;
void count_release(void *ctx) {
    EXPECT_EQ(ctx, &releases);
    ++releases;
}

TEST_F(HostMemory, TheOwnerLivesUntilTheLastArrayIsFreed) {
    double host[2] = {0, 0};
    ck_memblock *owner = nullptr;
    releases = 0;
    ASSERT_EQ(ck_memblock_new_external(reinterpret_cast<char *>(host), sizeof host, count_release,
                                       &releases, &owner),
              CK_OK);
    tt::Type t("2 * float64");
    ck_array *a = nullptr, *b = nullptr;
    ASSERT_EQ(ck_array_wrap(t, nullptr, reinterpret_cast<char *>(host), owner, &a), CK_OK);
    ASSERT_EQ(ck_array_wrap(t, nullptr, reinterpret_cast<char *>(host), owner, &b), CK_OK);
    ck_memblock_decref(owner);  // the host lets go: the arrays hold it
    EXPECT_EQ(releases, 0);
    ckt::Array two("2 * int8", "[3, 4]");
    EXPECT_EQ(ck_assign(a, two.get(), nullptr), CK_OK);
    EXPECT_EQ(host[1], 4.0);
    ck_array_free(a);
    EXPECT_EQ(releases, 0) << "b still refers to the owner";
    ck_array_free(b);
    EXPECT_EQ(releases, 1);
}

TEST_F(HostMemory, NullArrmetaMeansCOrder) {
    uint8_t host[2][3] = {{0}};
    tt::Type t("2 * 3 * uint8");
    tt::Array a;
    ASSERT_EQ(ck_array_wrap(t, nullptr, reinterpret_cast<char *>(host), nullptr, &a.a), CK_OK);
    const auto *m = reinterpret_cast<const ck_fixed_dim_arrmeta *>(ck_array_arrmeta(a.a));
    EXPECT_EQ(m[0].dim_size, 2);
    EXPECT_EQ(m[0].stride, 3);
    EXPECT_EQ(m[1].dim_size, 3);
    EXPECT_EQ(m[1].stride, 1);
    ckt::Array src("2 * 3 * int64", "[[1, 2, 3], [4, 5, 6]]");
    ASSERT_EQ(ck_assign(a.a, src.get(), nullptr), CK_OK);
    EXPECT_EQ(host[1][2], 6);
}

TEST_F(HostMemory, BadArgumentsAreRefusedWithAMessage) {
    int32_t x[4] = {0, 0, 0, 0};
    tt::Type t("4 * int32"), empty("0 * int32");
    ck_array *a = reinterpret_cast<ck_array *>(&x);  // must be reset to NULL on failure
    EXPECT_EQ(ck_array_wrap(nullptr, nullptr, reinterpret_cast<char *>(x), nullptr, &a), CK_ERR_INVALID);
    EXPECT_EQ(a, nullptr);
    EXPECT_EQ(ck_array_wrap(t, nullptr, reinterpret_cast<char *>(x), nullptr, nullptr), CK_ERR_INVALID);
    EXPECT_EQ(ck_array_wrap(t, nullptr, nullptr, nullptr, &a), CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(), "ck_array_wrap: NULL data for a type of 16 bytes");
    const auto wrong = fixed({{5, 4}});
    EXPECT_EQ(ck_array_wrap(t, meta(wrong), reinterpret_cast<char *>(x), nullptr, &a), CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(), "ck_array_wrap: dimension 0 of the arrmeta has size 5, the type says 4");
    EXPECT_EQ(a, nullptr);
    // An empty array needs no data.
    tt::Array e;
    EXPECT_EQ(ck_array_wrap(empty, nullptr, nullptr, nullptr, &e.a), CK_OK) << ck_last_error();
    ckt::Array none("0 * float64");
    EXPECT_EQ(ck_assign(e.a, none.get(), nullptr), CK_OK) << ck_last_error();
}

TEST_F(HostMemory, AVarDestinationWithoutAnArenaIsAnErrorNotACrash) {
    ck_var_data rows[2] = {{nullptr, 0}, {nullptr, 0}};
    tt::Type t("2 * var * int32");
    tt::Array dst;
    ASSERT_EQ(ck_array_wrap(t, nullptr, reinterpret_cast<char *>(rows), nullptr, &dst.a), CK_OK);
    ckt::Array src("2 * var * int32", "[[1], [2, 3]]");
    const int rc = ck_assign(dst.a, src.get(), nullptr);
    EXPECT_NE(rc, CK_OK);
    EXPECT_NE(std::string(ck_last_error()), "") << ck_status_name(rc);
    EXPECT_EQ(rows[0].begin, nullptr) << "nothing allocated outside an arena";
}

TEST_F(HostMemory, AllocationFailureAtEveryPoint) {
    double host[4] = {0, 0, 0, 0};
    const int64_t requests = ckt::for_each_alloc_failure([&] {
        ck_type *t = nullptr;
        int rc = ck_type_parse("4 * float64", &t);
        ck_array *a = nullptr, *s = nullptr;
        if (rc == CK_OK) rc = ck_array_wrap(t, nullptr, reinterpret_cast<char *>(host), nullptr, &a);
        if (rc == CK_OK) rc = ck_array_parse(t, "[1, 2, 3, 4]", &s);
        if (rc == CK_OK) rc = ck_assign(a, s, nullptr);
        ck_array_free(s);
        ck_array_free(a);
        ck_type_decref(t);
        return rc;
    });
    EXPECT_GE(requests, 3);
    EXPECT_EQ(host[3], 4.0);
}

}  // namespace
