// tests/callables/streamed_call_test.cpp: a call whose destination is above the streaming
// threshold (leaves/numeric/streaming.c over the call's leaf, 1 to 16 sources, through the kernel's
// buffer). What it writes, where it stops on an error and what it reports must be exactly
// what the unstreamed call does; the sums and negations are also computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
extern "C" {
#include "callables/callable_internal.h"  // ck__make_call_at: a parallel split's row kernel
}
#include "ckt_array.hpp"

namespace {

struct StreamedCall : ::testing::Test {
    void SetUp() override {
        if (!ckt::streaming_stores_exist()) {
            GTEST_SKIP() << "no streaming stores: " << ck_streaming_threshold_reason();
        }
    }
    void TearDown() override { ck_set_streaming_threshold(0); }
};

struct Outcome {
    int rc = CK_OK;
    std::string message, tree;
};

// One source of a 1-D call: its element type, data and step in elements (0: one element
// broadcast along the run).
using Operand = ckt::Operands1d::One;

// `name` over n elements into dst (contiguous), built with ck_make_call and run once.
Outcome call_1d(const char *name, ck_type_id did, char *dst, const std::vector<Operand> &ops,
                intptr_t n) {
    Outcome r;
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_lookup(name, &c), CK_OK) << name;
    const ckt::Operands1d d(n, {{did, dst, 1}}), s(n, ops);
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = CK_EVAL_NO_JIT;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    const int built = ck_make_call(&b, &off, c, d.types()[0], d.arrmeta()[0], s.count(),
                                   s.types(), s.arrmeta(), CK_REQUEST_SINGLE, &ctx);
    r.rc = ckt::describe_and_call_single(&b, built, dst, s.data(), &r.tree, &r.message);
    ck_builder_destroy(&b);
    ck_callable_decref(c);
    return r;
}

bool streams(const Outcome &o) {
    return o.tree.find("streaming") != std::string::npos;
}

// The same call streamed (threshold 1 byte) and not (threshold off), into destinations
// `skip` elements past a 64-byte boundary with guard bytes around: the whole buffers, the
// statuses and the messages agree.
void expect_same_streamed_and_not(const char *name, ck_type_id did, std::vector<Operand> ops,
                                  intptr_t n, size_t skip, bool want_stream) {
    const size_t dsz = ck_type_data_size(ck_type_scalar(did));
    const size_t guard = 128, bytes = 2 * guard + (skip + static_cast<size_t>(n)) * dsz;
    std::vector<unsigned char> a(bytes + 64, 0xA5), b(bytes + 64, 0xA5);
    // The destination, and the bytes from `guard` before it to `guard` after it.
    auto at = [&](std::vector<unsigned char> &v) {
        const uintptr_t p = reinterpret_cast<uintptr_t>(v.data()) + guard;
        return reinterpret_cast<char *>((p + 63) / 64 * 64 + skip * dsz);
    };
    auto around = [&](std::vector<unsigned char> &v) {
        const unsigned char *d = reinterpret_cast<const unsigned char *>(at(v));
        return std::vector<unsigned char>(d - guard, d + static_cast<size_t>(n) * dsz + guard);
    };
    ck_set_streaming_threshold(1);
    const Outcome s = call_1d(name, did, at(a), ops, n);
    ck_set_streaming_threshold(std::numeric_limits<size_t>::max());
    const Outcome p = call_1d(name, did, at(b), ops, n);
    std::string what = std::string(name) + " -> " + ck_type_id_name(did) + " n=" +
                       std::to_string(n) + " skip=" + std::to_string(skip) + " (";
    for (const Operand &o : ops) {
        what += std::string(ck_type_id_name(o.id)) + " step " + std::to_string(o.step) + "; ";
    }
    what += ")";
    EXPECT_EQ(streams(s), want_stream) << what << "\n" << s.tree;
    EXPECT_FALSE(streams(p)) << what << "\n" << p.tree;
    EXPECT_EQ(s.rc, p.rc) << what;
    EXPECT_EQ(s.message, p.message) << what;
    EXPECT_TRUE(around(a) == around(b)) << what;
}

TEST_F(StreamedCall, EveryArithmeticOpWritesWhatTheUnstreamedCallWrites) {
    struct Pair {
        ck_type_id a, b, result;
    };
    // Results of 1 to 16 bytes; int32 + float64 casts its argument in call_args below the
    // streaming kernel; integer divides meet zeros (random bits), so errors are compared too.
    const Pair pairs[] = {{CK_TYPE_FLOAT64, CK_TYPE_FLOAT64, CK_TYPE_FLOAT64},
                          {CK_TYPE_INT32, CK_TYPE_FLOAT64, CK_TYPE_FLOAT64},
                          {CK_TYPE_FLOAT32, CK_TYPE_FLOAT32, CK_TYPE_FLOAT32},
                          {CK_TYPE_INT16, CK_TYPE_INT16, CK_TYPE_INT16},
                          {CK_TYPE_UINT8, CK_TYPE_UINT8, CK_TYPE_UINT8},
                          {CK_TYPE_COMPLEX128, CK_TYPE_COMPLEX128, CK_TYPE_COMPLEX128}};
    const char *const names[] = {"add", "subtract", "multiply", "trunc_divide", "minimum", "maximum"};
    uint32_t seed = 1;
    for (const Pair &p : pairs) {
        for (const char *name : names) {
            if (p.result == CK_TYPE_COMPLEX128 &&
                (std::strcmp(name, "minimum") == 0 || std::strcmp(name, "maximum") == 0)) {
                continue;
            }
            for (intptr_t n : {300, 1000, 4099}) {
                auto x = ckt::scalar_source_bytes(p.a, static_cast<size_t>(n), false, seed++);
                auto y = ckt::scalar_source_bytes(p.b, static_cast<size_t>(n), false, seed++);
                char *xd = reinterpret_cast<char *>(x.data());
                char *yd = reinterpret_cast<char *>(y.data());
                const ck_type_id result = p.result;  // integer divide keeps its type too
                for (size_t skip : {size_t{0}, size_t{1}, size_t{3}}) {
                    expect_same_streamed_and_not(name, result, {{p.a, xd, 1}, {p.b, yd, 1}}, n,
                                                 skip, true);
                }
                // A broadcast operand streams too; a strided one does not.
                expect_same_streamed_and_not(name, result, {{p.a, xd, 1}, {p.b, yd, 0}}, n, 1,
                                             true);
                expect_same_streamed_and_not(name, result, {{p.a, xd, 0}, {p.b, yd, 1}}, n, 0,
                                             true);
                expect_same_streamed_and_not(name, result, {{p.a, xd, 1}, {p.b, yd, 2}}, n / 2,
                                             0, false);
            }
        }
    }
}

TEST_F(StreamedCall, SumsOfTwoFloat64SourcesAreTheSumsComputedHere) {
    const intptr_t n = 5003;
    std::vector<double> x(n), y(n);
    for (intptr_t i = 0; i < n; ++i) {
        x[i] = static_cast<double>(i) * 0.25 - 300.0;
        y[i] = 1.0 / static_cast<double>(i + 3);
    }
    alignas(64) static double d[5003 + 24];
    std::fill(std::begin(d), std::end(d), -1.5);
    ck_set_streaming_threshold(1);
    // One element past a line: a head of 7 elements, whole lines, then a tail.
    const Outcome o = call_1d("add", CK_TYPE_FLOAT64, reinterpret_cast<char *>(d + 9),
                              {{CK_TYPE_FLOAT64, reinterpret_cast<char *>(x.data()), 1},
                               {CK_TYPE_FLOAT64, reinterpret_cast<char *>(y.data()), 1}},
                              n);
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_NE(o.tree.find("streaming_strided  buffer line=64 chunk=1024 sources=2"),
              std::string::npos)
        << o.tree;
    for (intptr_t i = 0; i < n; ++i) {
        ASSERT_EQ(d[9 + i], x[i] + y[i]) << i;
    }
    for (int i = 0; i < 9; ++i) EXPECT_EQ(d[i], -1.5) << i;
    for (size_t i = 9 + n; i < std::size(d); ++i) EXPECT_EQ(d[i], -1.5) << i;
}

TEST_F(StreamedCall, AUnaryCallOfTheDestinationsTypeIsNotACopy) {
    // negative(float64) -> float64 has the types of a copy; streamed, it still negates.
    const intptr_t n = 3000;
    std::vector<double> x(n), d(n + 8, 7.0);
    for (intptr_t i = 0; i < n; ++i) x[i] = static_cast<double>(i) - 0.5;
    ck_set_streaming_threshold(1);
    const Outcome o = call_1d("negative", CK_TYPE_FLOAT64, reinterpret_cast<char *>(d.data() + 1),
                              {{CK_TYPE_FLOAT64, reinterpret_cast<char *>(x.data()), 1}}, n);
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_NE(o.tree.find("streaming_strided  buffer"), std::string::npos) << o.tree;
    for (intptr_t i = 0; i < n; ++i) ASSERT_EQ(d[1 + i], -x[i]) << i;
    EXPECT_EQ(d[0], 7.0);
    EXPECT_EQ(d[n + 1], 7.0);
}

TEST_F(StreamedCall, ADivisionByZeroInsideAChunkIsLocatedAndTheElementsBeforeItWritten) {
    // int64 / int64 into a destination 3 elements past a line: a head of 5 elements, then
    // 1 KiB chunks of 128 results. Zeros at 2500 (a chunk's middle), 1029 (a chunk's first)
    // and 2 (in the head).
    const intptr_t n = 6000;
    std::vector<int64_t> x(n), y(n);
    for (intptr_t i = 0; i < n; ++i) {
        x[i] = 1000003 * static_cast<int64_t>(i + 1);
        y[i] = (i % 97) + 1;
    }
    for (intptr_t bad : {2500, 1029, 2}) {
        SCOPED_TRACE(bad);
        std::vector<int64_t> ys(y);
        ys[static_cast<size_t>(bad)] = 0;
        alignas(64) static int64_t d[6000 + 16], e[6000 + 16];
        std::fill(std::begin(d), std::end(d), -9);
        std::fill(std::begin(e), std::end(e), -9);
        const std::vector<Operand> ops = {{CK_TYPE_INT64, reinterpret_cast<char *>(x.data()), 1},
                                          {CK_TYPE_INT64, reinterpret_cast<char *>(ys.data()), 1}};
        ck_set_streaming_threshold(1);
        const Outcome s = call_1d("trunc_divide", CK_TYPE_INT64, reinterpret_cast<char *>(d + 3), ops, n);
        ck_set_streaming_threshold(std::numeric_limits<size_t>::max());
        const Outcome p = call_1d("trunc_divide", CK_TYPE_INT64, reinterpret_cast<char *>(e + 3), ops, n);
        EXPECT_TRUE(streams(s)) << s.tree;
        EXPECT_EQ(s.rc, CK_ERR_ZERO_DIVISION);
        EXPECT_EQ(s.message, "trunc_divide: integer division by zero at element [" +
                                 std::to_string(bad) + "]");
        EXPECT_EQ(s.message, p.message);
        EXPECT_EQ(std::memcmp(d, e, sizeof d), 0);
        for (intptr_t i = 0; i < bad; ++i) ASSERT_EQ(d[3 + i], x[i] / ys[i]) << i;
        EXPECT_EQ(d[2], -9);
    }
}

TEST_F(StreamedCall, AParallelCallWritesTheSameBytes) {
    ckt::Array x("512 * 1000 * int32"), y("1000 * float64"), a("512 * 1000 * float64"),
        b("512 * 1000 * float64");
    int32_t *xs = reinterpret_cast<int32_t *>(x.data());
    double *ys = reinterpret_cast<double *>(y.data());
    for (int64_t i = 0; i < 512 * 1000; ++i) xs[i] = static_cast<int32_t>((i * 7919) % 100003 - 50000);
    for (int j = 0; j < 1000; ++j) ys[j] = 0.125 * j;
    ck_callable *add = nullptr;
    ASSERT_EQ(ck_lookup("add", &add), CK_OK);
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.max_threads = 2;
    ctx.grain_bytes = 64 << 10;
    const ck_array *src[] = {x.get(), y.get()};
    ck_set_streaming_threshold(1);
    ASSERT_EQ(ck_parallel_call(add, a.get(), 2, src, &ctx), CK_OK) << ck_last_error();
    ck_set_streaming_threshold(std::numeric_limits<size_t>::max());
    ASSERT_EQ(ck_parallel_call(add, b.get(), 2, src, &ctx), CK_OK) << ck_last_error();
    const double *as = reinterpret_cast<const double *>(a.data());
    for (int i = 0; i < 512 * 1000; ++i) ASSERT_EQ(as[i], xs[i] + ys[i % 1000]) << i;
    EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(double) * 512 * 1000), 0);
    ck_callable_decref(add);
}

TEST_F(StreamedCall, AParallelSplitsRowKernelStreamsWhenTheWholeDestinationIsLarge) {
    // The kernel of one row of 1000 float64 (8000 bytes) in a split of 64 rows (512000
    // bytes): a threshold of 256000 streams it although no row reaches it; 1 MB does not.
    ck_callable *add = nullptr;
    ASSERT_EQ(ck_lookup("add", &add), CK_OK);
    ck_type *row = nullptr;
    ASSERT_EQ(ck_type_parse("1000 * float64", &row), CK_OK);
    const ck_fixed_dim_arrmeta m = {1000, 8};
    const ck_type *st[] = {row, row};
    const char *sm[] = {reinterpret_cast<const char *>(&m), reinterpret_cast<const char *>(&m)};
    auto tree = [&](size_t threshold, size_t rows) {
        ck_set_streaming_threshold(threshold);
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        EXPECT_EQ(ck__make_call_at(&b, &off, add, row, reinterpret_cast<const char *>(&m), 2, st,
                                   sm, CK_REQUEST_STRIDED, nullptr, 1, rows),
                  CK_OK)
            << ck_last_error();
        char *text = nullptr;
        EXPECT_EQ(ck_kernel_describe(ck_builder_root(&b), &text), CK_OK);
        const std::string t = text != nullptr ? text : "";
        ck_free(text);
        ck_builder_destroy(&b);
        return t;
    };
    EXPECT_NE(tree(256000, 64).find("streaming"), std::string::npos);
    EXPECT_NE(tree(512000, 64).find("streaming"), std::string::npos);
    EXPECT_EQ(tree(512001, 64).find("streaming"), std::string::npos);
    EXPECT_EQ(tree(256000, 1).find("streaming"), std::string::npos);
    ck_type_decref(row);
    ck_callable_decref(add);
}

TEST_F(StreamedCall, AllocationFailureAtEveryPointOfAStreamedCall) {
    ck_set_streaming_threshold(1);
    const int64_t points = ckt::for_each_alloc_failure([] {
        ck_callable *add = nullptr;
        int rc = ck_lookup("add", &add);
        ck_type *t = nullptr, *u = nullptr;
        if (rc == CK_OK) rc = ck_type_parse("300 * 7 * float64", &t);
        if (rc == CK_OK) rc = ck_type_parse("300 * 7 * int16", &u);
        ck_array *d = nullptr, *x = nullptr, *y = nullptr;
        if (rc == CK_OK) rc = ck_array_new(t, &d);
        if (rc == CK_OK) rc = ck_array_new(t, &x);
        if (rc == CK_OK) rc = ck_array_new(u, &y);
        if (rc == CK_OK) {
            const ck_array *src[] = {x, y};
            rc = ck_call(add, d, 2, src, nullptr);
        }
        ck_array_free(d);
        ck_array_free(x);
        ck_array_free(y);
        ck_type_decref(t);
        ck_type_decref(u);
        ck_callable_decref(add);
        return rc;
    });
    EXPECT_GT(points, 0);
}

}  // namespace
