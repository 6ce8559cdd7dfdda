// tests/assign/doc_structured_example_test.cpp: the examples of docs/kernels.md §11 do what
// the manual says: the hand-written fields kernel gives what ck_make_assign gives for the
// same struct types (and the values computed here), the forward-NA kernel keeps NA and
// negates the rest, and every allocation of both builds can fail without a leak.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "ckt.hpp"
#include "ckt_array.hpp"
#include "structured_example.h"

namespace {

struct Src {  // {c: float64, a: int16, b: int32}: the C layout ckernel gives it too
    double c;
    int16_t a;
    int32_t b;
};
struct Dst {  // {a: int64, b: float64, c: float32}
    int64_t a;
    double b;
    float c;
};

ex_fields_spec spec_by_name() {
    ex_fields_spec s;
    std::memset(&s, 0, sizeof s);
    s.n = 3;
    s.mode = CK_ERRMODE_OVERFLOW;
    const intptr_t doff[3] = {offsetof(Dst, a), offsetof(Dst, b), offsetof(Dst, c)};
    const intptr_t soff[3] = {offsetof(Src, a), offsetof(Src, b), offsetof(Src, c)};
    const ck_type_id dt[3] = {CK_TYPE_INT64, CK_TYPE_FLOAT64, CK_TYPE_FLOAT32};
    const ck_type_id st[3] = {CK_TYPE_INT16, CK_TYPE_INT32, CK_TYPE_FLOAT64};
    for (int i = 0; i < 3; ++i) {
        s.dst_offset[i] = doff[i];
        s.src_offset[i] = soff[i];
        s.dst_type[i] = dt[i];
        s.src_type[i] = st[i];
    }
    return s;
}

TEST(DocStructured, TheFieldsKernelAssignsByNameAsCkMakeAssignDoes) {
    Src src[4];
    for (int i = 0; i < 4; ++i) src[i] = Src{0.5 * i - 1.0, static_cast<int16_t>(-3 * i), 100000 * i};
    Dst by_hand[4], by_ckernel[4];
    std::memset(by_hand, 0x5a, sizeof by_hand);
    std::memset(by_ckernel, 0x5a, sizeof by_ckernel);
    const ex_fields_spec spec = spec_by_name();
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ex_make_fields(&b, &off, &spec, CK_REQUEST_STRIDED), CK_OK) << ck_last_error();
    char *s = reinterpret_cast<char *>(src);
    const intptr_t ss = sizeof(Src);
    ASSERT_EQ(ck_call_strided(ck_builder_root(&b), reinterpret_cast<char *>(by_hand), sizeof(Dst), &s,
                              &ss, 4),
              CK_OK);
    ck_builder_destroy(&b);
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(by_hand[i].a, -3 * i);
        EXPECT_EQ(by_hand[i].b, 100000.0 * i);
        EXPECT_EQ(by_hand[i].c, static_cast<float>(0.5 * i - 1.0));
    }
    // ckernel's own kernel for the same types, by name.
    ckt::Type dt("4 * {a: int64, b: float64, c: float32}"), st("4 * {c: float64, a: int16, b: int32}");
    ASSERT_EQ(ck_type_data_size(dt.get()), sizeof by_ckernel);
    ASSERT_EQ(ck_type_data_size(st.get()), sizeof src);
    ck_array *da = nullptr, *sa = nullptr;
    ASSERT_EQ(ck_array_wrap(dt.get(), nullptr, reinterpret_cast<char *>(by_ckernel), nullptr, &da), CK_OK);
    ASSERT_EQ(ck_array_wrap(st.get(), nullptr, reinterpret_cast<char *>(src), nullptr, &sa), CK_OK);
    ASSERT_EQ(ck_assign(da, sa, nullptr), CK_OK) << ck_last_error();
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(by_ckernel[i].a, by_hand[i].a);
        EXPECT_EQ(by_ckernel[i].b, by_hand[i].b);
        EXPECT_EQ(by_ckernel[i].c, by_hand[i].c);
    }
    ck_array_free(da);
    ck_array_free(sa);
}

TEST(DocStructured, AFailingFieldStopsTheKernelWithTheLeafsStatus) {
    ex_fields_spec spec = spec_by_name();
    spec.dst_type[0] = CK_TYPE_INT8;  // -300 does not fit
    Src src{1.0, -300, 2};
    Dst dst;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ex_make_fields(&b, &off, &spec, CK_REQUEST_SINGLE), CK_OK);
    char *s = reinterpret_cast<char *>(&src);
    EXPECT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(&dst), &s), CK_ERR_OVERFLOW);
    EXPECT_STREQ(ck_last_error(), "int16 value -300 is out of range for int8");
    ck_builder_destroy(&b);
}

TEST(DocStructured, TheForwardNaKernelKeepsNaAndNegatesTheRest) {
    const int32_t na = INT32_MIN;  // ?int32's NA (docs/kernels.md §11.1)
    int32_t in[5] = {5, na, -7, 0, na}, out[5] = {1, 1, 1, 1, 1};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ex_make_forward_na(&b, &off, ex_make_negate_int32, CK_REQUEST_STRIDED), CK_OK);
    char *s = reinterpret_cast<char *>(in);
    const intptr_t st = 4;
    ASSERT_EQ(ck_call_strided(ck_builder_root(&b), reinterpret_cast<char *>(out), 4, &s, &st, 5), CK_OK);
    ck_builder_destroy(&b);
    const int32_t want[5] = {-5, na, 7, 0, na};
    for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], want[i]) << i;
    // ckernel's option kernel agrees on what NA is: ?int32 -> ?int64 keeps these NAs.
    ckt::Array opt("5 * ?int32");
    std::memcpy(opt.data(), out, sizeof out);
    EXPECT_EQ(opt.str(), "[-5, NA, 7, 0, NA]");
}

TEST(DocStructured, EveryAllocationOfBothBuildsCanFail) {
    const ex_fields_spec spec = spec_by_name();
    const int64_t fields_points = ckt::for_each_alloc_failure([&] {
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        const int rc = ex_make_fields(&b, &off, &spec, CK_REQUEST_SINGLE);
        ck_builder_destroy(&b);
        return rc;
    });
    EXPECT_GE(fields_points, 1) << "three leaves behind a 96-byte parent outgrow the inline buffer";
    const int64_t na_points = ckt::for_each_alloc_failure([&] {
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        const int rc = ex_make_forward_na(&b, &off, ex_make_negate_int32, CK_REQUEST_SINGLE);
        ck_builder_destroy(&b);
        return rc;
    });
    EXPECT_EQ(na_points, 0) << "40 + 3 x 16 bytes: inline, no allocation";
}

}  // namespace
