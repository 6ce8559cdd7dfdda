// tests/assign/pointer_test.cpp: reading and writing through pointers, NULL pointers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

using ckt::Array;

class Pointer : public ::testing::Test {
  protected:
    void TearDown() override { EXPECT_EQ(ckt::live_allocations(), 0); }
};

TEST_F(Pointer, ReadThroughASourcePointer) {
    Array src("pointer[int32]", "42");
    Array dst("float64");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "42");
    Array vsrc("3 * pointer[int16]", "[1, -2, 3]");
    Array vdst("3 * int64");
    ASSERT_EQ(ck_assign(vdst.get(), vsrc.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(vdst.str(), "[1, -2, 3]");
    Array asrc("pointer[3 * int32]", "[4, 5, 6]");
    Array adst("3 * float32");
    ASSERT_EQ(ck_assign(adst.get(), asrc.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(adst.str(), "[4, 5, 6]");
}

TEST_F(Pointer, WriteThroughADestinationPointer) {
    Array src("int32", "3");
    Array dst("pointer[float64]");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "3");
    Array vsrc("2 * 2 * uint8", "[[1, 2], [3, 4]]");
    Array vdst("2 * pointer[2 * int64]");
    ASSERT_EQ(ck_assign(vdst.get(), vsrc.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(vdst.str(), "[[1, 2], [3, 4]]");
}

TEST_F(Pointer, PointerToPointerAndBroadcastThroughAPointer) {
    Array src("pointer[complex128]", "1.5+0j");
    Array dst("pointer[float32]");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "1.5");
    Array one("pointer[int32]", "7");
    Array row("3 * int32");
    ASSERT_EQ(ck_assign(row.get(), one.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(row.str(), "[7, 7, 7]");
}

TEST_F(Pointer, NullPointersAreErrorsNotCrashes) {
    Array nsrc("pointer[int32]", "null");
    Array dst("int32", "5");
    EXPECT_EQ(ck_assign(dst.get(), nsrc.get(), nullptr), CK_ERR_UNINITIALIZED);
    EXPECT_STREQ(ck_last_error(), "pointer: the source pointer is NULL");
    EXPECT_EQ(dst.str(), "5");
    Array vsrc("3 * pointer[int32]", "[1, null, 3]");
    Array vdst("3 * int32");
    EXPECT_EQ(ck_assign(vdst.get(), vsrc.get(), nullptr), CK_ERR_UNINITIALIZED);
    EXPECT_STREQ(ck_last_error(), "pointer: the source pointer of element 1 is NULL");
    EXPECT_EQ(vdst.str(), "[1, 0, 0]");
    Array ndst("pointer[int32]", "null");
    EXPECT_EQ(ck_assign(ndst.get(), dst.get(), nullptr), CK_ERR_UNINITIALIZED);
    EXPECT_STREQ(ck_last_error(), "pointer: the destination pointer is NULL");
}

TEST_F(Pointer, PointersInsideRaggedRows) {
    Array src("2 * var * pointer[int32]", "[[1, 2], [3]]");
    Array dst("2 * var * float64");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[[1, 2], [3]]");
}

// The gathering path crosses its 128-element chunks: 300 scattered targets, then a NULL at
// element 200: everything before it is written, nothing after it.
TEST_F(Pointer, GatherAcrossChunksAndANullInTheThirdChunk) {
    std::vector<float> targets(300);
    std::vector<float *> ptrs(300);
    for (size_t i = 0; i < 300; ++i) {
        targets[i] = static_cast<float>(i) * 0.5f;
        ptrs[(i * 7) % 300] = &targets[i];  // 7 is coprime with 300: a permutation
    }
    ckt::Type dt("300 * float64"), st("300 * pointer[float32]");
    ck_fixed_dim_arrmeta dam = {300, 8};
    struct {
        ck_fixed_dim_arrmeta dim;
        ck_pointer_arrmeta ptr;
    } sam = {{300, static_cast<intptr_t>(sizeof(float *))}, {nullptr, 0}};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&b, &off, dt.get(), reinterpret_cast<char *>(&dam), st.get(),
                             reinterpret_cast<char *>(&sam), CK_REQUEST_SINGLE, nullptr),
              CK_OK);
    std::vector<double> out(300, -1.0);
    char *s = reinterpret_cast<char *>(ptrs.data());
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(out.data()), &s), CK_OK);
    for (size_t j = 0; j < 300; ++j) {
        // ptrs[j] points at targets[i] with j = 7i mod 300, i.e. i = 43j mod 300 (7*43 = 301).
        ASSERT_EQ(out[j], static_cast<double>((j * 43) % 300) * 0.5) << j;
    }
    ptrs[200] = nullptr;
    std::fill(out.begin(), out.end(), -1.0);
    EXPECT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(out.data()), &s),
              CK_ERR_UNINITIALIZED);
    EXPECT_STREQ(ck_last_error(), "pointer: the source pointer of element 200 is NULL");
    for (size_t j = 0; j < 200; ++j) ASSERT_EQ(out[j], static_cast<double>((j * 43) % 300) * 0.5) << j;
    for (size_t j = 200; j < 300; ++j) ASSERT_EQ(out[j], -1.0) << j;
    ck_builder_destroy(&b);
}

// pointer[T] -> T copies each target straight into the destination (the copy gather, no
// leaf): every scalar size, targets at an arrmeta offset, scattered, into a destination at
// an odd address between guard bytes; a NULL pointer stops it with everything before written.
TEST_F(Pointer, CopyGatherOfEverySizeIntoAnUnalignedDestination) {
    const char *types[] = {"bool", "int8", "int16", "float16", "uint32", "float32",
                           "int64", "float64", "complex64", "complex128"};
    for (const char *t : types) {
        SCOPED_TRACE(t);
        ckt::Type target(t);
        const size_t size = ck_type_data_size(target.get());
        constexpr size_t n = 300, offset = 3 * 16;  // target_offset: 3 elements of 16 bytes
        std::vector<unsigned char> pool((n + 4) * 16);
        for (size_t i = 0; i < pool.size(); ++i) pool[i] = static_cast<unsigned char>(i * 131 + 7);
        std::vector<const unsigned char *> ptrs(n);
        for (size_t i = 0; i < n; ++i) ptrs[(i * 7) % n] = pool.data() + i * 16;
        std::vector<unsigned char> out(n * size + 2, 0xEE);  // destination at out + 1
        const std::string dshape = std::to_string(n) + " * " + t;
        const std::string sshape = std::to_string(n) + " * pointer[" + t + "]";
        ckt::Type dt(dshape.c_str()), st(sshape.c_str());
        ck_fixed_dim_arrmeta dam = {static_cast<intptr_t>(n), static_cast<intptr_t>(size)};
        struct {
            ck_fixed_dim_arrmeta dim;
            ck_pointer_arrmeta ptr;
        } sam = {{static_cast<intptr_t>(n), static_cast<intptr_t>(sizeof(void *))},
                 {nullptr, static_cast<intptr_t>(offset)}};
        ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
        ctx.flags = CK_EVAL_DST_UNALIGNED;
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        ASSERT_EQ(ck_make_assign(&b, &off, dt.get(), reinterpret_cast<char *>(&dam), st.get(),
                                 reinterpret_cast<char *>(&sam), CK_REQUEST_SINGLE, &ctx),
                  CK_OK)
            << ck_last_error();
        char *tree = nullptr;
        ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &tree), CK_OK);
        EXPECT_NE(std::strstr(tree, "pointer_gather_copy"), nullptr) << tree;
        ck_free(tree);
        // Element j reads target i = 43 j mod n (j = 7 i mod n), offset bytes past it.
        auto expect_element = [&](size_t j) {
            const unsigned char *want = pool.data() + ((j * 43) % n) * 16 + offset;
            return std::memcmp(out.data() + 1 + j * size, want, size) == 0;
        };
        for (int pass = 0; pass < 2; ++pass) {
            if (pass == 1) ptrs[200] = nullptr;
            std::fill(out.begin(), out.end(), 0xEE);
            char *s = reinterpret_cast<char *>(ptrs.data());
            const int rc =
                ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(out.data() + 1), &s);
            const size_t written = pass == 0 ? n : 200;
            if (pass == 0) {
                ASSERT_EQ(rc, CK_OK) << ck_last_error();
            } else {
                ASSERT_EQ(rc, CK_ERR_UNINITIALIZED);
                EXPECT_STREQ(ck_last_error(), "pointer: the source pointer of element 200 is NULL");
            }
            for (size_t j = 0; j < written; ++j) ASSERT_TRUE(expect_element(j)) << j;
            for (size_t j = written * size; j < n * size; ++j) ASSERT_EQ(out[1 + j], 0xEE) << j;
            EXPECT_EQ(out.front(), 0xEE);
            EXPECT_EQ(out.back(), 0xEE);
        }
        ck_builder_destroy(&b);
    }
}

}  // namespace
