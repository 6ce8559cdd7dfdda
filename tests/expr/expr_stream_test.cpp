// tests/expr/expr_stream_test.cpp: expressions whose destination is above the streaming
// threshold. The composed kernel (src/expr/expr_kernel.c) computes each chunk's result into
// a stack buffer and streams it out; the JIT's loop (src/jit/plugin) does the same in blocks.
// What either writes, and where it stops on an error, must be byte for byte what the same
// kernel writes with streaming off, guards around the destination included, and the values
// those of a plain loop here.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"

namespace {

constexpr size_t kGuard = 64;
constexpr unsigned char kFill = 0xA5;

struct ExprStreaming : ::testing::Test {
    void TearDown() override { ck_set_streaming_threshold(0); }
};

bool can_stream() {
    ck_set_streaming_threshold(0);
    return ck_get_streaming_threshold() != std::numeric_limits<size_t>::max();
}

bool have_jit() {
    ck_jit_info info;
    ck_jit_get_info(&info);
    return info.available != 0;
}

struct Source {
    ck_type_id id;
    std::vector<unsigned char> bytes;  // n elements, contiguous
};

struct Outcome {
    int rc = CK_OK;
    std::string message, tree;
    std::vector<unsigned char> buffer;  // the destination with its guards
};

// dst (n elements of did, `offset` bytes past a 64-byte boundary) <- text(src...), with the
// given streaming threshold and JIT flag.
Outcome run(const char *text, ck_type_id did, const std::vector<Source> &src, intptr_t n,
            size_t offset, size_t threshold, unsigned jit_flag) {
    Outcome r;
    ck_set_streaming_threshold(threshold);
    const size_t dsz = ck_type_data_size(ck_type_scalar(did));
    r.buffer.assign(2 * kGuard + offset + static_cast<size_t>(n) * dsz + 64, kFill);
    // A 64-byte aligned base inside the vector's storage.
    std::vector<unsigned char> storage(r.buffer.size() + 64, kFill);
    const uintptr_t at = reinterpret_cast<uintptr_t>(storage.data());
    unsigned char *base = storage.data() + ((64 - at % 64) % 64);
    char *dst = reinterpret_cast<char *>(base + kGuard + offset);

    ck_expr *e = nullptr;
    EXPECT_EQ(ck_expr_parse(text, &e), CK_OK) << ck_last_error();
    static const char *const names[] = {"a", "b", "c"};
    std::vector<ckt::Operands1d::One> ops;
    for (const Source &s : src) {
        ops.push_back({s.id, reinterpret_cast<char *>(const_cast<unsigned char *>(s.bytes.data())), 1});
    }
    const ckt::Operands1d d(n, {{did, dst, 1}}), s(n, ops);
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = jit_flag;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    const int built = ck_make_expr(&b, &off, e, d.types()[0], d.arrmeta()[0], s.count(), names,
                                   s.types(), s.arrmeta(), CK_REQUEST_SINGLE, &ctx);
    r.rc = ckt::describe_and_call_single(&b, built, dst, s.data(), &r.tree, &r.message);
    ck_builder_destroy(&b);
    ck_expr_decref(e);
    std::memcpy(r.buffer.data(), base, r.buffer.size());
    return r;
}

template <typename T>
Source random_source(ck_type_id id, intptr_t n, std::mt19937_64 &rng) {
    Source s{id, std::vector<unsigned char>(static_cast<size_t>(n) * sizeof(T))};
    std::uniform_real_distribution<double> u(-100.0, 100.0);
    for (intptr_t i = 0; i < n; i++) {
        T v;
        if constexpr (std::is_same_v<T, std::complex<double>>) {
            v = T(u(rng), u(rng));
        } else {
            v = static_cast<T>(u(rng));
        }
        std::memcpy(s.bytes.data() + static_cast<size_t>(i) * sizeof(T), &v, sizeof(T));
    }
    return s;
}

struct Case {
    const char *text;
    ck_type_id dst;
    std::vector<ck_type_id> src;
};

Source random_of(ck_type_id id, intptr_t n, std::mt19937_64 &rng) {
    switch (id) {
    case CK_TYPE_INT8: return random_source<int8_t>(id, n, rng);
    case CK_TYPE_INT32: return random_source<int32_t>(id, n, rng);
    case CK_TYPE_FLOAT32: return random_source<float>(id, n, rng);
    case CK_TYPE_FLOAT64: return random_source<double>(id, n, rng);
    default: return random_source<std::complex<double>>(id, n, rng);
    }
}

TEST_F(ExprStreaming, StreamedDestinationIsTheUnstreamedOneByteForByte) {
    if (!can_stream()) GTEST_SKIP() << "no streaming stores: " << ck_streaming_threshold_reason();
    const std::vector<Case> cases = {
        {"a * b + c", CK_TYPE_FLOAT64, {CK_TYPE_FLOAT64, CK_TYPE_FLOAT64, CK_TYPE_FLOAT64}},
        {"a + b", CK_TYPE_INT8, {CK_TYPE_INT8, CK_TYPE_INT8}},               // 64 a line
        {"a * b - a", CK_TYPE_COMPLEX128, {CK_TYPE_COMPLEX128, CK_TYPE_COMPLEX128}},  // 4
        {"a * b + c", CK_TYPE_FLOAT32, {CK_TYPE_INT32, CK_TYPE_FLOAT64, CK_TYPE_FLOAT32}},
        {"-a", CK_TYPE_FLOAT64, {CK_TYPE_FLOAT64}},
    };
    const intptr_t sizes[] = {1, 7, 31, 64, 65, 200, 1023, 1024, 1025, 3001};
    std::mt19937_64 rng(20261126);
    const bool jit = have_jit();
    int streamed_composed = 0, streamed_jit = 0, runs = 0;
    for (const Case &c : cases) {
        const size_t dsz = ck_type_data_size(ck_type_scalar(c.dst));
        for (intptr_t n : sizes) {
            std::vector<Source> src;
            for (ck_type_id id : c.src) src.push_back(random_of(id, n, rng));
            for (size_t offset : {size_t{0}, dsz, 64 - dsz, 40 / dsz * dsz}) {
                for (unsigned flag : {unsigned{CK_EVAL_NO_JIT}, unsigned{CK_EVAL_JIT}}) {
                    // A compile per size: the JIT gets two (a head, lines and a tail each).
                    if (flag == CK_EVAL_JIT && (!jit || (n != 65 && n != 3001))) continue;
                    SCOPED_TRACE(std::string(c.text) + " n=" + std::to_string(n) +
                                 " offset=" + std::to_string(offset) +
                                 (flag == CK_EVAL_JIT ? " jit" : " composed"));
                    const Outcome on = run(c.text, c.dst, src, n, offset, 1, flag);
                    const Outcome off = run(c.text, c.dst, src, n, offset,
                                            std::numeric_limits<size_t>::max(), flag);
                    ASSERT_EQ(on.rc, CK_OK) << on.message;
                    ASSERT_EQ(off.rc, CK_OK) << off.message;
                    EXPECT_EQ(on.buffer, off.buffer);
                    EXPECT_EQ(off.tree.find("streamed"), std::string::npos) << off.tree;
                    const bool streamed = on.tree.find("streamed") != std::string::npos;
                    (flag == CK_EVAL_JIT ? streamed_jit : streamed_composed) += streamed;
                    ++runs;
                }
            }
        }
    }
    // Every composed kernel over a contiguous destination streams; so does every compiled
    // one (the JIT takes these nests: their inner size is large enough or asked for).
    EXPECT_EQ(streamed_composed, static_cast<int>(cases.size() * 10 * 4));
    if (jit) {
        EXPECT_GT(streamed_jit, 0);
    }
    EXPECT_GT(runs, 0);
}

TEST_F(ExprStreaming, StreamedValuesAreThoseOfAPlainLoop) {
    if (!can_stream()) GTEST_SKIP() << "no streaming stores: " << ck_streaming_threshold_reason();
    const intptr_t n = 5000;
    std::mt19937_64 rng(7);
    std::vector<Source> src;
    for (int k = 0; k < 3; k++) src.push_back(random_source<double>(CK_TYPE_FLOAT64, n, rng));
    for (unsigned flag : {unsigned{CK_EVAL_NO_JIT}, unsigned{CK_EVAL_JIT}}) {
        if (flag == CK_EVAL_JIT && !have_jit()) continue;
        const Outcome on = run("a * b + c", CK_TYPE_FLOAT64, src, n, 8, 1, flag);
        ASSERT_EQ(on.rc, CK_OK) << on.message;
        ASSERT_NE(on.tree.find("streamed"), std::string::npos) << on.tree;
        for (size_t i = 0; i < kGuard + 8; i++) ASSERT_EQ(on.buffer[i], kFill) << i;
        for (intptr_t i = 0; i < n; i++) {
            double x[3], got;
            for (int k = 0; k < 3; k++) std::memcpy(&x[k], src[k].bytes.data() + i * 8, 8);
            volatile double product = x[0] * x[1];  // rounded before the add: no FMA
            const double want = product + x[2];
            std::memcpy(&got, on.buffer.data() + kGuard + 8 + i * 8, 8);
            ASSERT_EQ(std::memcmp(&got, &want, 8), 0) << "element " << i;
        }
        for (size_t i = kGuard + 8 + n * 8; i < on.buffer.size(); i++) {
            ASSERT_EQ(on.buffer[i], kFill) << i;
        }
    }
}

// The root step fails mid-chunk (a zero divisor at element 1500): streamed, the chunk is run
// again straight into the destination, so the elements before the failing one are written,
// the rest are not, and the message is the same.
TEST_F(ExprStreaming, FailingRootWritesAndSaysWhatTheUnstreamedDoes) {
    if (!can_stream()) GTEST_SKIP() << "no streaming stores: " << ck_streaming_threshold_reason();
    const intptr_t n = 3000;
    Source a{CK_TYPE_INT32, std::vector<unsigned char>(n * 4)};
    Source b{CK_TYPE_INT32, std::vector<unsigned char>(n * 4)};
    for (intptr_t i = 0; i < n; i++) {
        const int32_t x = static_cast<int32_t>(7 * i + 3), y = i == 1500 ? 0 : 1 + i % 5;
        std::memcpy(a.bytes.data() + i * 4, &x, 4);
        std::memcpy(b.bytes.data() + i * 4, &y, 4);
    }
    for (unsigned flag : {unsigned{CK_EVAL_NO_JIT}, unsigned{CK_EVAL_JIT}}) {
        if (flag == CK_EVAL_JIT && !have_jit()) continue;
        const Outcome on = run("trunc_divide(a, b)", CK_TYPE_INT32, {a, b}, n, 0, 1, flag);
        const Outcome off = run("trunc_divide(a, b)", CK_TYPE_INT32, {a, b}, n, 0,
                                std::numeric_limits<size_t>::max(), flag);
        EXPECT_EQ(on.rc, CK_ERR_ZERO_DIVISION);
        EXPECT_EQ(off.rc, CK_ERR_ZERO_DIVISION);
        EXPECT_EQ(on.message, off.message);
        EXPECT_EQ(on.buffer, off.buffer);
        if (flag == CK_EVAL_NO_JIT) {
            EXPECT_NE(on.tree.find("streamed"), std::string::npos) << on.tree;
            // Chunks of 1024: the first one is whole, the second holds 1024..1499.
            for (intptr_t i = 0; i < 1500; i++) {
                int32_t got;
                std::memcpy(&got, on.buffer.data() + kGuard + i * 4, 4);
                ASSERT_EQ(got, static_cast<int32_t>(7 * i + 3) / (1 + i % 5)) << i;
            }
            for (size_t i = kGuard + 1500 * 4; i < on.buffer.size(); i++) {
                ASSERT_EQ(on.buffer[i], kFill) << i;
            }
        }
    }
}

}  // namespace
