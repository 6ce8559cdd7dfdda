// tests/assign/transpose_test.cpp: the tiled kernel (kinds/dims/tiled_2d.c: the leaf converts
// along the source's contiguous axis into a stack buffer, transposed in registers into the
// destination by leaves/numeric/transpose.dispatch.c; copies and widenings to float64 straight
// from the source). Every element must be what the scalar leaf
// makes of it alone, on every compiled target, for every type pair, both orientations
// (source or destination transposed), odd shapes around the blocks and the tile edges, and
// with streaming stores at every alignment; a failing element gives the leaf's status and
// message; running the kernel allocates nothing.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ckt.hpp"

namespace {

struct Transposed : ::testing::Test {
    void TearDown() override {
        ASSERT_EQ(ck_cpu_set_target_cap(ckt::best_compiled_target()), CK_OK);
    }
};

struct Outcome {
    int rc = CK_OK;
    std::string message, tree;
};

// dst <- src, n0 x n1 * scalar on both sides, laid out by the given arrmeta.
Outcome assign_2d(ck_type_id did, char *dst, const ck_fixed_dim_arrmeta dm[2], ck_type_id sid,
                  char *src, const ck_fixed_dim_arrmeta sm[2], ck_errmode mode) {
    Outcome r;
    const intptr_t n0 = dm[0].dim_size, n1 = dm[1].dim_size;
    ck_type *d1 = nullptr, *dt = nullptr, *s1 = nullptr, *st = nullptr;
    EXPECT_EQ(ck_type_make_fixed_dim(n1, ck_type_scalar(did), &d1), CK_OK);
    EXPECT_EQ(ck_type_make_fixed_dim(n0, d1, &dt), CK_OK);
    EXPECT_EQ(ck_type_make_fixed_dim(n1, ck_type_scalar(sid), &s1), CK_OK);
    EXPECT_EQ(ck_type_make_fixed_dim(n0, s1, &st), CK_OK);
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = mode;
    ctx.flags = CK_EVAL_NO_JIT;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    r.rc = ck_make_assign(&b, &off, dt, reinterpret_cast<const char *>(dm), st,
                          reinterpret_cast<const char *>(sm), CK_REQUEST_SINGLE, &ctx);
    if (r.rc == CK_OK) {
        char *text = nullptr;
        if (ck_kernel_describe(ck_builder_root(&b), &text) == CK_OK) r.tree = text;
        ck_free(text);
        r.rc = ck_call_single(ck_builder_root(&b), dst, &src);
    }
    if (r.rc != CK_OK) r.message = ck_last_error();
    ck_builder_destroy(&b);
    for (ck_type *t : {d1, dt, s1, st}) ck_type_decref(t);
    return r;
}

// dst <- src, n0 x n1, contiguous along different axes. Source transposed (the default):
// dst C order, src element (i, j) at src + i*ssz + j*n0*ssz. Destination transposed: dst
// element (i, j) at dst + i*dsz + j*n0*dsz, src C order.
Outcome assign_transposed(ck_type_id did, char *dst, ck_type_id sid, char *src, intptr_t n0,
                          intptr_t n1, ck_errmode mode, bool dst_side = false) {
    const intptr_t dsz = static_cast<intptr_t>(ck_type_data_size(ck_type_scalar(did)));
    const intptr_t ssz = static_cast<intptr_t>(ck_type_data_size(ck_type_scalar(sid)));
    const ck_fixed_dim_arrmeta dm[2] = {{n0, dst_side ? dsz : n1 * dsz}, {n1, dst_side ? n0 * dsz : dsz}};
    const ck_fixed_dim_arrmeta sm[2] = {{n0, dst_side ? n1 * ssz : ssz}, {n1, dst_side ? ssz : n0 * ssz}};
    return assign_2d(did, dst, dm, sid, src, sm, mode);
}

// The destination starts `misalign` bytes past a 64-byte boundary (a multiple of its
// element size), inside guard bytes that must stay untouched.
void expect_elementwise(ck_type_id did, ck_type_id sid, intptr_t n0, intptr_t n1,
                        ck_errmode mode, bool small, uint32_t seed, bool dst_side = false,
                        size_t misalign = 0) {
    const size_t dsz = ck_type_data_size(ck_type_scalar(did));
    const size_t ssz = ck_type_data_size(ck_type_scalar(sid));
    auto src = ckt::scalar_source_bytes(sid, static_cast<size_t>(n0 * n1), small, seed);
    const size_t guard = 64;
    std::vector<unsigned char> got_store(static_cast<size_t>(n0 * n1) * dsz + 2 * guard + 64 + misalign, 0xA5);
    std::vector<unsigned char> want_store(got_store);
    auto at64 = [](std::vector<unsigned char> &v) {
        const uintptr_t p = reinterpret_cast<uintptr_t>(v.data());
        return v.data() + ((64 - p % 64) % 64);
    };
    unsigned char *got = at64(got_store) + guard + misalign;
    unsigned char *want = at64(want_store) + guard + misalign;
    const Outcome r = assign_transposed(did, reinterpret_cast<char *>(got), sid,
                                        reinterpret_cast<char *>(src.data()), n0, n1, mode, dst_side);
    const std::string what = std::string(ck_type_id_name(did)) + " <- " + ck_type_id_name(sid) +
                             " " + std::to_string(n0) + "x" + std::to_string(n1) +
                             (dst_side ? " (destination transposed)" : "") + " +" +
                             std::to_string(misalign);
    ASSERT_EQ(r.rc, CK_OK) << what << ": " << r.message;
    if (n0 >= 8 && n1 >= 8) {
        EXPECT_NE(r.tree.find("transposed in registers"), std::string::npos) << what << r.tree;
    }
    for (intptr_t i = 0; i < n0; ++i) {
        for (intptr_t j = 0; j < n1; ++j) {
            const intptr_t di = dst_side ? i + j * n0 : i * n1 + j;
            const intptr_t si = dst_side ? i * n1 + j : i + j * n0;
            char *d = reinterpret_cast<char *>(want + static_cast<size_t>(di) * dsz);
            char *s = reinterpret_cast<char *>(src.data() + static_cast<size_t>(si) * ssz);
            ASSERT_EQ(ckt::assign_one_scalar(did, d, sid, s, mode, nullptr), CK_OK);
        }
    }
    const size_t window = static_cast<size_t>(n0 * n1) * dsz + 2 * guard;
    EXPECT_EQ(std::vector<unsigned char>(got - guard, got - guard + window),
              std::vector<unsigned char>(want - guard, want - guard + window))
        << what;
}

TEST_F(Transposed, EveryPairGivesWhatTheLeafGivesForEachElement) {
    const intptr_t shapes[][2] = {{2, 8}, {9, 17}, {8, 8}, {33, 40}, {5, 100}, {70, 9}};
    uint32_t seed = 3;
    for (int d = 0; d < CK_NUM_SCALAR_TYPES; ++d) {
        for (int s = 0; s < CK_NUM_SCALAR_TYPES; ++s) {
            const auto did = static_cast<ck_type_id>(d), sid = static_cast<ck_type_id>(s);
            for (const auto &sh : shapes) {
                for (bool dst_side : {false, true}) {
                    expect_elementwise(did, sid, sh[0], sh[1], CK_ERRMODE_NOCHECK, false, seed, dst_side);
                    expect_elementwise(did, sid, sh[0], sh[1], CK_ERRMODE_INEXACT, true, seed, dst_side);
                    ++seed;
                }
            }
            if (::testing::Test::HasFailure()) return;
        }
    }
}

TEST_F(Transposed, EveryCompiledTargetTransposesAlike) {
    for (const ck_cpu_target target : ckt::runnable_targets()) {
        ASSERT_EQ(ck_cpu_set_target_cap(target), CK_OK);
        for (ck_type_id d : {CK_TYPE_FLOAT64, CK_TYPE_FLOAT32, CK_TYPE_INT16, CK_TYPE_COMPLEX128}) {
            for (ck_type_id s : {CK_TYPE_INT32, CK_TYPE_FLOAT32, CK_TYPE_FLOAT64, CK_TYPE_INT16,
                                 CK_TYPE_COMPLEX128}) {
                // Several tiles along both axes, with odd edges; and under a block.
                expect_elementwise(d, s, 150, 181, CK_ERRMODE_NOCHECK, false, 11);
                expect_elementwise(d, s, 181, 150, CK_ERRMODE_NOCHECK, false, 11, true);
                expect_elementwise(d, s, 3, 13, CK_ERRMODE_NOCHECK, false, 12);
            }
        }
    }
}

TEST_F(Transposed, StreamedTilesGiveTheSameBytesAtEveryAlignment) {
    if (!ckt::streaming_stores_exist()) GTEST_SKIP() << ck_streaming_threshold_reason();
    // A threshold of one byte: every tiled kernel streams; only blocks whose rows are
    // aligned to the vector go non-temporal, the others and the edges are stored as usual.
    struct Threshold {
        ~Threshold() { ck_set_streaming_threshold(0); }
    } restore;
    ck_set_streaming_threshold(1);
    for (const ck_cpu_target target : ckt::runnable_targets()) {
        ASSERT_EQ(ck_cpu_set_target_cap(target), CK_OK);
        for (ck_type_id d : {CK_TYPE_FLOAT64, CK_TYPE_INT32, CK_TYPE_UINT8, CK_TYPE_COMPLEX64}) {
            const size_t dsz = ck_type_data_size(ck_type_scalar(d));
            for (size_t misalign = 0; misalign < 64; misalign += dsz * 3) {
                // Rows of 64 elements: every row aligned as the first when misalign is 0.
                expect_elementwise(d, CK_TYPE_INT32, 40, 64, CK_ERRMODE_NOCHECK, false, 21,
                                   false, misalign);
                expect_elementwise(d, CK_TYPE_INT32, 64, 40, CK_ERRMODE_NOCHECK, false, 22,
                                   true, misalign);
                expect_elementwise(d, CK_TYPE_FLOAT32, 37, 131, CK_ERRMODE_NOCHECK, false, 23,
                                   false, misalign);
            }
            std::vector<unsigned char> out(16 * 16 * dsz), in(16 * 16 * 4, 0);
            const Outcome r = assign_transposed(d, reinterpret_cast<char *>(out.data()), CK_TYPE_INT32,
                                                reinterpret_cast<char *>(in.data()), 16, 16,
                                                CK_ERRMODE_NOCHECK);
            EXPECT_NE(r.tree.find("transposed in registers [" + std::string(ck_cpu_target_name(target)) +
                                  "] streaming"),
                      std::string::npos)
                << r.tree;
        }
    }
}

// Copies of 4- and 8-byte elements and int32/float32 -> float64 skip the leaf: each tile
// is transposed (and widened) in registers straight from the source. The source's rows
// are walked backwards here (a negative row stride), its bits random (float32 NaNs with
// payloads, signalling ones included), the destination in the middle of guard bytes.
TEST_F(Transposed, FusedTilesReadTheSourceDirectlyEvenBackwards) {
    struct Pair {
        ck_type_id d, s;
        const char *how;
    };
    const Pair pairs[] = {{CK_TYPE_FLOAT64, CK_TYPE_INT32, "widened int32 -> float64 and transposed"},
                          {CK_TYPE_FLOAT64, CK_TYPE_FLOAT32, "widened float32 -> float64 and transposed"},
                          {CK_TYPE_FLOAT32, CK_TYPE_FLOAT32, "copied and transposed"},
                          {CK_TYPE_INT64, CK_TYPE_INT64, "copied and transposed"},
                          {CK_TYPE_COMPLEX64, CK_TYPE_COMPLEX64, "copied and transposed"}};
    const intptr_t n0 = 77, n1 = 45;  // edges along both axes of every block size
    for (const ck_cpu_target target : ckt::runnable_targets()) {
        ASSERT_EQ(ck_cpu_set_target_cap(target), CK_OK);
        for (const Pair &p : pairs) {
            const intptr_t dsz = static_cast<intptr_t>(ck_type_data_size(ck_type_scalar(p.d)));
            const intptr_t ssz = static_cast<intptr_t>(ck_type_data_size(ck_type_scalar(p.s)));
            auto src = ckt::scalar_source_bytes(p.s, static_cast<size_t>(n0 * n1), false, 31);
            // Source element (i, j) at src + i*ssz + (n1 - 1 - j)*n0*ssz: column j of the
            // destination comes from source row n1 - 1 - j.
            char *src_origin = reinterpret_cast<char *>(src.data()) + (n1 - 1) * n0 * ssz;
            const ck_fixed_dim_arrmeta dm[2] = {{n0, n1 * dsz}, {n1, dsz}};
            const ck_fixed_dim_arrmeta sm[2] = {{n0, ssz}, {n1, -n0 * ssz}};
            const size_t guard = 64, bytes = static_cast<size_t>(n0 * n1 * dsz);
            std::vector<unsigned char> got(bytes + 2 * guard, 0x5A), want(got);
            const Outcome r = assign_2d(p.d, reinterpret_cast<char *>(got.data() + guard), dm, p.s,
                                        src_origin, sm, CK_ERRMODE_NOCHECK);
            ASSERT_EQ(r.rc, CK_OK) << r.message;
            EXPECT_NE(r.tree.find(std::string(p.how) + " in registers [" + ck_cpu_target_name(target) + "]"),
                      std::string::npos)
                << r.tree;
            for (intptr_t i = 0; i < n0; ++i) {
                for (intptr_t j = 0; j < n1; ++j) {
                    char *d = reinterpret_cast<char *>(want.data() + guard + static_cast<size_t>((i * n1 + j) * dsz));
                    char *s = src_origin + i * ssz - j * n0 * ssz;
                    ASSERT_EQ(ckt::assign_one_scalar(p.d, d, p.s, s, CK_ERRMODE_NOCHECK, nullptr), CK_OK);
                }
            }
            EXPECT_EQ(got, want) << ck_type_id_name(p.d) << " <- " << ck_type_id_name(p.s) << " ["
                                 << ck_cpu_target_name(target) << "]";
        }
    }
}

TEST_F(Transposed, AFailingElementGivesTheLeafsStatusAndMessage) {
    // float64 -> int32 (overflow mode): element (5, 70) holds 1e10.
    const intptr_t n0 = 12, n1 = 100;
    std::vector<double> src(static_cast<size_t>(n0 * n1));
    for (size_t k = 0; k < src.size(); ++k) src[k] = static_cast<double>(k % 97);
    src[static_cast<size_t>(5 + 70 * n0)] = 1e10;
    std::vector<int32_t> dst(static_cast<size_t>(n0 * n1) + 2, -7);
    const Outcome r = assign_transposed(CK_TYPE_INT32, reinterpret_cast<char *>(dst.data() + 1),
                                        CK_TYPE_FLOAT64, reinterpret_cast<char *>(src.data()), n0,
                                        n1, CK_ERRMODE_OVERFLOW);
    int32_t one = 0;
    std::string alone_message;
    const int alone = ckt::assign_one_scalar(
        CK_TYPE_INT32, reinterpret_cast<char *>(&one), CK_TYPE_FLOAT64,
        reinterpret_cast<char *>(&src[static_cast<size_t>(5 + 70 * n0)]), CK_ERRMODE_OVERFLOW,
        &alone_message);
    EXPECT_EQ(r.rc, CK_ERR_OVERFLOW);
    EXPECT_EQ(r.rc, alone);
    EXPECT_EQ(r.message, alone_message);
    // Tiles are bands of 16 destination columns (4-byte elements: 64 bytes of a row), walked
    // in order: the bands before column 64 are done in full; the failing element is not
    // written; nothing is written outside the destination.
    for (intptr_t i = 0; i < n0; ++i) {
        for (intptr_t j = 0; j < 64; ++j) {
            ASSERT_EQ(dst[static_cast<size_t>(1 + i * n1 + j)], static_cast<int32_t>(src[static_cast<size_t>(i + j * n0)]));
        }
    }
    EXPECT_EQ(dst[static_cast<size_t>(1 + 5 * n1 + 70)], -7);
    EXPECT_EQ(dst.front(), -7);
    EXPECT_EQ(dst.back(), -7);
}

TEST_F(Transposed, AllocationFailureAtEveryPointOfATransposedAssignment) {
    // The types and nothing else: the kernel is inline and its tile buffer is on the stack.
    const intptr_t n0 = 16, n1 = 32;
    std::vector<int32_t> src(static_cast<size_t>(n0 * n1), 3);
    std::vector<double> dst(static_cast<size_t>(n0 * n1), 0.0);
    const ck_fixed_dim_arrmeta dm[2] = {{n0, n1 * 8}, {n1, 8}};
    const ck_fixed_dim_arrmeta sm[2] = {{n0, 4}, {n1, n0 * 4}};
    const int64_t points = ckt::for_each_alloc_failure([&] {
        ck_type *d1 = nullptr, *dt = nullptr, *s1 = nullptr, *st = nullptr;
        int rc = ck_type_make_fixed_dim(n1, ck_type_scalar(CK_TYPE_FLOAT64), &d1);
        if (rc == CK_OK) rc = ck_type_make_fixed_dim(n0, d1, &dt);
        if (rc == CK_OK) rc = ck_type_make_fixed_dim(n1, ck_type_scalar(CK_TYPE_INT32), &s1);
        if (rc == CK_OK) rc = ck_type_make_fixed_dim(n0, s1, &st);
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        if (rc == CK_OK) {
            rc = ck_make_assign(&b, &off, dt, reinterpret_cast<const char *>(dm), st,
                                reinterpret_cast<const char *>(sm), CK_REQUEST_SINGLE, nullptr);
        }
        if (rc == CK_OK) {
            char *s = reinterpret_cast<char *>(src.data());
            rc = ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(dst.data()), &s);
        }
        ck_builder_destroy(&b);
        for (ck_type *t : {d1, dt, s1, st}) ck_type_decref(t);
        return rc;
    });
    EXPECT_EQ(points, 4) << "the four types";
    const Outcome r = assign_transposed(CK_TYPE_FLOAT64, reinterpret_cast<char *>(dst.data()),
                                        CK_TYPE_INT32, reinterpret_cast<char *>(src.data()), n0, n1,
                                        CK_ERRMODE_NOCHECK);
    EXPECT_NE(r.tree.find("transposed in registers"), std::string::npos) << r.tree;
    EXPECT_EQ(dst[0], 3.0);
}

}  // namespace
