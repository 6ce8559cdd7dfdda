// tests/assign/unaligned_test.cpp: data at odd byte offsets and odd strides, for several
// element types, through the unaligned kernel (UBSan's alignment check runs in CI, so a
// misaligned scalar access would fail there).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

// Runs dst[i] <- src[i] for n elements of the given scalar types with byte strides and
// base offsets into byte buffers; values go in and come out through memcpy.
template <typename D, typename S>
void run(const char *dtype, const char *stype, const std::vector<S> &in, std::vector<D> &out,
         intptr_t dst_stride, intptr_t src_stride, size_t dst_off, size_t src_off,
         unsigned flags = 0, ck_request req = CK_REQUEST_SINGLE) {
    const intptr_t n = static_cast<intptr_t>(in.size());
    std::string ds = std::to_string(n) + " * " + dtype, ss = std::to_string(n) + " * " + stype;
    ckt::Type dt(ds.c_str()), st(ss.c_str());
    std::vector<unsigned char> sbuf(src_off + static_cast<size_t>(n * src_stride) + 16, 0xCD);
    std::vector<unsigned char> dbuf(dst_off + static_cast<size_t>(n * dst_stride) + 16, 0xAB);
    for (intptr_t i = 0; i < n; ++i)
        std::memcpy(&sbuf[src_off + static_cast<size_t>(i * src_stride)], &in[static_cast<size_t>(i)], sizeof(S));
    ck_fixed_dim_arrmeta dam = {n, dst_stride}, sam = {n, src_stride};
    ck_eval_ctx c = ckt::ctx(CK_ERRMODE_NOCHECK, flags);
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&b, &off, dt.get(), reinterpret_cast<char *>(&dam), st.get(),
                             reinterpret_cast<char *>(&sam), req, &c),
              CK_OK)
        << ck_last_error();
    char *s = reinterpret_cast<char *>(&sbuf[src_off]);
    char *d = reinterpret_cast<char *>(&dbuf[dst_off]);
    if (req == CK_REQUEST_SINGLE) {
        ASSERT_EQ(ck_call_single(ck_builder_root(&b), d, &s), CK_OK) << ck_last_error();
    } else {
        intptr_t zero = 0;
        ASSERT_EQ(ck_call_strided(ck_builder_root(&b), d, 0, &s, &zero, 1), CK_OK);
    }
    ck_builder_destroy(&b);
    out.resize(in.size());
    for (intptr_t i = 0; i < n; ++i)
        std::memcpy(&out[static_cast<size_t>(i)], &dbuf[dst_off + static_cast<size_t>(i * dst_stride)], sizeof(D));
    // Bytes between elements and around the destination are untouched.
    for (size_t k = 0; k < dst_off; ++k) EXPECT_EQ(dbuf[k], 0xAB) << "before the destination";
    for (intptr_t i = 0; i < n; ++i)
        for (intptr_t k = static_cast<intptr_t>(sizeof(D)); k < dst_stride; ++k)
            EXPECT_EQ(dbuf[dst_off + static_cast<size_t>(i * dst_stride + k)], 0xAB) << "gap " << i;
    for (intptr_t k = 0; k < 16; ++k)
        EXPECT_EQ(dbuf[dst_off + static_cast<size_t>(n * dst_stride + k)], 0xAB) << "after";
}

class Unaligned : public ::testing::Test {
  protected:
    void TearDown() override { EXPECT_EQ(ckt::live_allocations(), 0); }
};

TEST_F(Unaligned, OddStridesAndOffsetsForManyTypes) {
    // 2600 elements: more than two of the kernel's chunks (4 KiB of the larger element:
    // 512 of int32 -> float64, 1024 of int32 -> int16).
    std::vector<int32_t> i32(2600);
    for (size_t i = 0; i < i32.size(); ++i) i32[i] = static_cast<int32_t>(i * 7919) - 1000000;
    std::vector<double> f64;
    run<double, int32_t>("float64", "int32", i32, f64, 9, 5, 3, 1);
    for (size_t i = 0; i < i32.size(); ++i) ASSERT_EQ(f64[i], static_cast<double>(i32[i])) << i;

    std::vector<int16_t> i16;
    run<int16_t, int32_t>("int16", "int32", i32, i16, 3, 7, 1, 2);
    for (size_t i = 0; i < i32.size(); ++i)
        ASSERT_EQ(i16[i], static_cast<int16_t>(static_cast<uint32_t>(i32[i]) & 0xFFFF)) << i;

    std::vector<float> f32;
    run<float, double>("float32", "float64", f64, f32, 5, 11, 1, 7);
    for (size_t i = 0; i < f64.size(); ++i) ASSERT_EQ(f32[i], static_cast<float>(f64[i])) << i;

    std::vector<int64_t> i64;
    run<int64_t, double>("int64", "float64", f64, i64, 13, 9, 5, 3);
    for (size_t i = 0; i < f64.size(); ++i) ASSERT_EQ(i64[i], static_cast<int64_t>(f64[i])) << i;

    // Same-type copies go through the wrapper too.
    std::vector<int64_t> c64;
    run<int64_t, int64_t>("int64", "int64", i64, c64, 8, 9, 1, 0);
    EXPECT_EQ(c64, i64);
}

TEST_F(Unaligned, ComplexAndHalfElements) {
    struct c128 {
        double re, im;
    };
    std::vector<c128> z = {{1.5, -2}, {0, 0}, {-1e300, 3}, {7, 8}};
    std::vector<c128> out;
    run<c128, c128>("complex128", "complex128", z, out, 17, 19, 1, 3);
    for (size_t i = 0; i < z.size(); ++i) {
        EXPECT_EQ(out[i].re, z[i].re);
        EXPECT_EQ(out[i].im, z[i].im);
    }
    // float16 bits: 0x3C00 = 1.0, 0xC000 = -2.0, 0x7BFF = 65504 (largest finite half).
    std::vector<uint16_t> h = {0x3C00, 0xC000, 0x7BFF};
    std::vector<float> f;
    run<float, uint16_t>("float32", "float16", h, f, 5, 3, 3, 1);
    EXPECT_EQ(f, (std::vector<float>{1.0f, -2.0f, 65504.0f}));
}

TEST_F(Unaligned, ContextFlagsCoverMisalignedBasePointers) {
    // Aligned strides, but the base pointers are odd: only the flags can tell the builder.
    std::vector<double> in = {1, 2, 3, 4, 5};
    std::vector<int32_t> out;
    run<int32_t, double>("int32", "float64", in, out, 4, 8, 1, 3,
                         CK_EVAL_SRC_UNALIGNED | CK_EVAL_DST_UNALIGNED);
    EXPECT_EQ(out, (std::vector<int32_t>{1, 2, 3, 4, 5}));
    run<int32_t, double>("int32", "float64", in, out, 4, 8, 1, 3,
                         CK_EVAL_SRC_UNALIGNED | CK_EVAL_DST_UNALIGNED, CK_REQUEST_STRIDED);
    EXPECT_EQ(out, (std::vector<int32_t>{1, 2, 3, 4, 5}));
}

TEST_F(Unaligned, BroadcastSourceThroughTheWrapper) {
    std::vector<double> one = {2.5};
    ckt::Type dt("6 * float32"), st("float64");
    unsigned char dbuf[6 * 5 + 1] = {};
    unsigned char sbuf[9];
    std::memcpy(sbuf + 1, &one[0], 8);
    ck_fixed_dim_arrmeta dam = {6, 5};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ck_eval_ctx c = ckt::ctx(CK_ERRMODE_FRACTIONAL, CK_EVAL_SRC_UNALIGNED);
    ASSERT_EQ(ck_make_assign(&b, &off, dt.get(), reinterpret_cast<char *>(&dam), st.get(), nullptr,
                             CK_REQUEST_SINGLE, &c),
              CK_OK);
    char *s = reinterpret_cast<char *>(sbuf + 1);
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(dbuf + 1), &s), CK_OK);
    ck_builder_destroy(&b);
    for (int i = 0; i < 6; ++i) {
        float v;
        std::memcpy(&v, dbuf + 1 + 5 * i, 4);
        EXPECT_EQ(v, 2.5f) << i;
    }
}

// A contiguous misaligned destination above the streaming threshold: the kernel streams its
// whole lines out of the buffer and keeps a line it has not finished for the next chunk.
// Every destination offset within a line, lengths around the chunk and line sizes; the
// bytes must be those of the plain cast, nothing outside the destination written.
TEST_F(Unaligned, StreamedDestinationsAtEveryOffsetWithinALine) {
    if (ck_get_streaming_threshold() == SIZE_MAX) GTEST_SKIP() << "no streaming stores here";
    ck_set_streaming_threshold(1);
    const size_t lengths[] = {1, 7, 8, 9, 63, 511, 512, 513, 1500};
    for (size_t n : lengths) {
        for (size_t off = 0; off < 64; off += (n > 600 ? 7 : 1)) {
            SCOPED_TRACE("n=" + std::to_string(n) + " dst offset=" + std::to_string(off));
            std::vector<int32_t> in(n);
            for (size_t i = 0; i < n; ++i) in[i] = static_cast<int32_t>(i * 2654435761u);
            const std::string ds = std::to_string(n) + " * float64", ss = std::to_string(n) + " * int32";
            ckt::Type dt(ds.c_str()), st(ss.c_str());
            // A 64-byte-aligned base, the destination `off` bytes into it, guards around.
            std::vector<unsigned char> storage(n * 8 + 256, 0xAB);
            unsigned char *base = storage.data() + (64 - reinterpret_cast<uintptr_t>(storage.data()) % 64);
            unsigned char *d = base + 64 + off;
            std::vector<unsigned char> sbuf(n * 4 + 1);
            std::memcpy(sbuf.data() + 1, in.data(), n * 4);
            ck_fixed_dim_arrmeta dam = {static_cast<intptr_t>(n), 8}, sam = {static_cast<intptr_t>(n), 4};
            ck_eval_ctx c = ckt::ctx(CK_ERRMODE_NOCHECK, CK_EVAL_SRC_UNALIGNED | CK_EVAL_DST_UNALIGNED);
            ck_builder b;
            ck_builder_init(&b);
            size_t o = 0;
            ASSERT_EQ(ck_make_assign(&b, &o, dt.get(), reinterpret_cast<char *>(&dam), st.get(),
                                     reinterpret_cast<char *>(&sam), CK_REQUEST_SINGLE, &c),
                      CK_OK)
                << ck_last_error();
            char *tree = nullptr;
            ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &tree), CK_OK);
            EXPECT_NE(std::strstr(tree, "streaming"), nullptr) << tree;
            ck_free(tree);
            char *s = reinterpret_cast<char *>(sbuf.data() + 1);
            ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(d), &s), CK_OK)
                << ck_last_error();
            ck_builder_destroy(&b);
            for (size_t i = 0; i < n; ++i) {
                double v;
                std::memcpy(&v, d + i * 8, 8);
                ASSERT_EQ(v, static_cast<double>(in[i])) << i;
            }
            for (unsigned char *p = storage.data(); p < d; ++p) ASSERT_EQ(*p, 0xAB) << "before";
            for (unsigned char *p = d + n * 8; p < storage.data() + storage.size(); ++p)
                ASSERT_EQ(*p, 0xAB) << "after";
        }
    }
    ck_set_streaming_threshold(0);
}

// A leaf failing in the third chunk: streamed or not, the chunks before it are written
// whole (the streamed kernel flushes the line it kept) and nothing from the failing chunk
// on; the status and message are the leaf's.
TEST_F(Unaligned, AFailingChunkLeavesTheSameBytesStreamedOrNot) {
    if (ck_get_streaming_threshold() == SIZE_MAX) GTEST_SKIP() << "no streaming stores here";
    constexpr size_t n = 2000, chunk = 512, bad = 1100;  // int32 -> float64: 4096 / 8 a chunk
    std::vector<double> in(n);
    for (size_t i = 0; i < n; ++i) in[i] = static_cast<double>(i) - 500.0;
    in[bad] = 0.5;  // not integral: the fractional mode refuses it
    ckt::Type dt("2000 * int32"), st("2000 * float64");
    ck_fixed_dim_arrmeta dam = {static_cast<intptr_t>(n), 4}, sam = {static_cast<intptr_t>(n), 8};
    std::vector<unsigned char> results[2];
    for (int streamed = 0; streamed < 2; ++streamed) {
        ck_set_streaming_threshold(streamed ? 1 : SIZE_MAX);
        std::vector<unsigned char> dbuf(n * 4 + 3, 0xAB);
        ck_eval_ctx c = ckt::ctx(CK_ERRMODE_FRACTIONAL, CK_EVAL_DST_UNALIGNED);
        ck_builder b;
        ck_builder_init(&b);
        size_t o = 0;
        ASSERT_EQ(ck_make_assign(&b, &o, dt.get(), reinterpret_cast<char *>(&dam), st.get(),
                                 reinterpret_cast<char *>(&sam), CK_REQUEST_SINGLE, &c),
                  CK_OK);
        char *s = reinterpret_cast<char *>(in.data());
        EXPECT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(dbuf.data() + 1), &s),
                  CK_ERR_FRACTIONAL);
        EXPECT_NE(std::string(ck_last_error()).find("0.5"), std::string::npos) << ck_last_error();
        ck_builder_destroy(&b);
        const size_t written = bad / chunk * chunk;  // the chunks before the failing one
        for (size_t i = 0; i < written; ++i) {
            int32_t v;
            std::memcpy(&v, dbuf.data() + 1 + i * 4, 4);
            ASSERT_EQ(v, static_cast<int32_t>(i) - 500) << i;
        }
        for (size_t k = 1 + written * 4; k < dbuf.size(); ++k) ASSERT_EQ(dbuf[k], 0xAB) << k;
        EXPECT_EQ(dbuf[0], 0xAB);
        results[streamed] = dbuf;
    }
    EXPECT_EQ(results[0], results[1]);
    ck_set_streaming_threshold(0);
}

}  // namespace
