// tests/assign/coalesce_tile_test.cpp: the composition's coalescing and tiling decisions (as
// ck_kernel_describe shows them) and the correctness of tiled and coalesced copies on odd
// shapes, broadcasts and negative strides. Expected values are computed element by element
// from the index formula, independently of the kernels.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

// Builds dst <- src for 2-d int32 -> float64 with the given shapes and strides (in elements),
// returns the kernel's description and runs it.
struct TwoD {
    intptr_t n0, n1;
    intptr_t d0, d1;  // destination strides, elements
    intptr_t s0, s1;  // source strides, elements (0 broadcasts)
};

std::string run2d(const TwoD &g, std::vector<double> &dst, const std::vector<int32_t> &src,
                  intptr_t dst_base, intptr_t src_base) {
    std::string ds = std::to_string(g.n0) + " * " + std::to_string(g.n1) + " * float64";
    std::string ss = std::to_string(g.n0) + " * " + std::to_string(g.n1) + " * int32";
    ckt::Type dt(ds.c_str()), st(ss.c_str());
    ck_fixed_dim_arrmeta dam[2] = {{g.n0, g.d0 * 8}, {g.n1, g.d1 * 8}};
    ck_fixed_dim_arrmeta sam[2] = {{g.n0, g.s0 * 4}, {g.n1, g.s1 * 4}};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    std::string text;
    EXPECT_EQ(ck_make_assign(&b, &off, dt.get(), reinterpret_cast<char *>(dam), st.get(),
                             reinterpret_cast<char *>(sam), CK_REQUEST_SINGLE, nullptr),
              CK_OK)
        << ck_last_error();
    char *desc = nullptr;
    if (ck_kernel_describe(ck_builder_root(&b), &desc) == CK_OK) text = desc;
    ck_free(desc);
    char *s = reinterpret_cast<char *>(const_cast<int32_t *>(src.data()) + src_base);
    EXPECT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(dst.data() + dst_base), &s),
              CK_OK);
    ck_builder_destroy(&b);
    return text;
}

void check2d(const TwoD &g, bool expect_tiled) {
    // Buffers large enough for any sign of stride around a base in the middle.
    const intptr_t span_d = (g.n0 + 1) * (g.d0 < 0 ? -g.d0 : g.d0) + (g.n1 + 1) * (g.d1 < 0 ? -g.d1 : g.d1);
    const intptr_t span_s = (g.n0 + 1) * (g.s0 < 0 ? -g.s0 : g.s0) + (g.n1 + 1) * (g.s1 < 0 ? -g.s1 : g.s1) + 1;
    std::vector<double> dst(static_cast<size_t>(2 * span_d + 2), -1.0);
    std::vector<int32_t> src(static_cast<size_t>(2 * span_s + 2));
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<int32_t>(i * 7 + 3);
    const std::string desc = run2d(g, dst, src, span_d, span_s);
    SCOPED_TRACE(desc);
    EXPECT_EQ(desc.find("tiled_2d") != std::string::npos, expect_tiled);
    std::vector<bool> written(dst.size(), false);
    for (intptr_t i = 0; i < g.n0; ++i)
        for (intptr_t j = 0; j < g.n1; ++j) {
            const size_t di = static_cast<size_t>(span_d + i * g.d0 + j * g.d1);
            const size_t si = static_cast<size_t>(span_s + i * g.s0 + j * g.s1);
            ASSERT_EQ(dst[di], static_cast<double>(src[si])) << i << "," << j;
            written[di] = true;
        }
    for (size_t k = 0; k < dst.size(); ++k) {
        if (!written[k]) {
            ASSERT_EQ(dst[k], -1.0) << "wrote outside the destination at " << k;
        }
    }
}

TEST(CoalesceTile, TransposedShapesAreTiledAndCorrect) {
    // Shapes on and across the tile edges (bands of 16 by 64 elements) and the blocks (8x8);
    // below 8 along an axis the plain loop runs instead.
    for (auto [n0, n1] : {std::pair<intptr_t, intptr_t>{33, 65}, {1, 70}, {70, 1}, {32, 32},
                          {64, 31}, {100, 3}, {7, 100}, {8, 8}, {40, 1100}, {65, 513},
                          {32, 512}}) {
        const bool tiled = n0 >= 8 && n1 >= 8;
        // Destination C order, source transposed: contiguous along different dimensions.
        check2d({n0, n1, n1, 1, 1, n0}, tiled);
        // And the other way round: the destination transposed, the source C order.
        check2d({n0, n1, 1, n0, n1, 1}, tiled);
    }
}

TEST(CoalesceTile, NegativeStridesAndBroadcastsStayCorrect) {
    check2d({33, 65, -65, 1, 1, -33}, true);   // reversed rows, reversed transposed source
    check2d({33, 65, 65, -1, -1, 33}, true);
    check2d({33, 65, -1, 33, 65, -1}, true);   // reversed destination columns, transposed
    check2d({20, 30, 2, 40, 30, 1}, true);     // every other destination element
    check2d({33, 65, 65, 1, 0, 1}, false);     // row broadcast: not tiled (a stride is 0)
    check2d({33, 65, 65, 1, 1, 0}, false);     // column broadcast
    check2d({17, 9, 1, 17, 0, 0}, false);      // scalar broadcast into a transposed destination
}

TEST(CoalesceTile, CContiguousDimsCoalesceIntoOneLoop) {
    ckt::Type dt("4 * 5 * 6 * float64"), st("4 * 5 * 6 * int16");
    ckt::Array src("4 * 5 * 6 * int16"), dst("4 * 5 * 6 * float64");
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&b, &off, dt.get(), ck_array_arrmeta(dst.get()), st.get(),
                             ck_array_arrmeta(src.get()), CK_REQUEST_SINGLE, nullptr),
              CK_OK);
    char *desc = nullptr;
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &desc), CK_OK);
    EXPECT_TRUE(ckt::tree_starts_with(desc, "strided_dim @0 +40  strided_dim_single  size=120 "
                                      "dst_stride=8 src_stride=2\n  leaf @40 +16  "))
        << desc;
    ck_free(desc);
    ck_builder_destroy(&b);
}

TEST(CoalesceTile, PartlyContiguousCoalescesOnlyWhatIsContiguous) {
    // The source's middle dimension is every other row: dims 0 and 1 cannot merge; 1 and 2
    // can only when both strides chain.
    ckt::Type dt("3 * 4 * 5 * int32"), st("3 * 4 * 5 * int32");
    ck_fixed_dim_arrmeta dam[3] = {{3, 80}, {4, 20}, {5, 4}};
    ck_fixed_dim_arrmeta sam[3] = {{3, 160}, {4, 40}, {5, 4}};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&b, &off, dt.get(), reinterpret_cast<char *>(dam), st.get(),
                             reinterpret_cast<char *>(sam), CK_REQUEST_SINGLE, nullptr),
              CK_OK);
    char *desc = nullptr;
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &desc), CK_OK);
    // (3, 160/80) and (4, 40/20) chain (160 = 4 * 40, 80 = 4 * 20); (4,5) does not (40 != 20).
    EXPECT_TRUE(ckt::tree_starts_with(desc, "strided_dim @0 +40  strided_dim_single  size=12 "
                                      "dst_stride=20 src_stride=40\n"
                                      "  strided_dim @40 +40  strided_dim_strided  size=5 "
                                      "dst_stride=4 src_stride=4\n"))
        << desc;
    ck_free(desc);
    std::vector<int32_t> src(3 * 8 * 5), out(60, -1);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<int32_t>(i);
    char *s = reinterpret_cast<char *>(src.data());
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(out.data()), &s), CK_OK);
    ck_builder_destroy(&b);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 5; ++k)
                ASSERT_EQ(out[static_cast<size_t>(i * 20 + j * 5 + k)], i * 40 + j * 10 + k);
}

}  // namespace
