// tests/assign/streaming_test.cpp: streaming stores (leaves/numeric/streaming.c). Above the
// threshold a contiguous destination is written by the streaming kernel; what it writes,
// where it stops on an error and what it reports must be exactly what the leaf alone does.
// The threshold itself is checked against the cache size read here from /sys.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

// Restores the default threshold and the best target, whatever a test did.
struct Streaming : ::testing::Test {
    void TearDown() override {
        ck_set_streaming_threshold(0);
        ASSERT_EQ(ck_cpu_set_target_cap(ckt::best_compiled_target()), CK_OK);
    }
};

bool can_stream() {
    return ck_get_streaming_threshold() != std::numeric_limits<size_t>::max();
}

#define REQUIRE_STREAMING()                                                              \
    do {                                                                                 \
        if (!can_stream()) GTEST_SKIP() << "no streaming stores: "                       \
                                        << ck_streaming_threshold_reason();              \
    } while (0)

// One 1-D assignment of n elements: dst contiguous, src with a stride in elements.
struct Outcome {
    int rc = CK_OK;
    std::string message, tree;
};

Outcome assign_1d(ck_type_id did, char *dst, ck_type_id sid, char *src, intptr_t n,
              intptr_t src_step, ck_errmode mode) {
    Outcome r;
    const ck_type *de = ck_type_scalar(did), *se = ck_type_scalar(sid);
    ck_type *dt = nullptr, *st = nullptr;
    EXPECT_EQ(ck_type_make_fixed_dim(n, de, &dt), CK_OK);
    EXPECT_EQ(ck_type_make_fixed_dim(n, se, &st), CK_OK);
    const ck_fixed_dim_arrmeta dm = {n, static_cast<intptr_t>(ck_type_data_size(de))};
    const ck_fixed_dim_arrmeta sm = {n, src_step * static_cast<intptr_t>(ck_type_data_size(se))};
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = mode;
    ctx.flags = CK_EVAL_NO_JIT;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    const int built = ck_make_assign(&b, &off, dt, reinterpret_cast<const char *>(&dm), st,
                                     reinterpret_cast<const char *>(&sm), CK_REQUEST_SINGLE, &ctx);
    r.rc = ckt::describe_and_call_single(&b, built, dst, &src, &r.tree, &r.message);
    ck_builder_destroy(&b);
    ck_type_decref(dt);
    ck_type_decref(st);
    return r;
}

// Streams (threshold 1 byte) and does not (threshold off) the same assignment; the bytes
// of the whole destination buffer, guards included, and the outcome must agree.
void expect_same_with_and_without(ck_type_id did, ck_type_id sid, intptr_t n, size_t dst_skip,
                                  intptr_t step, ck_errmode mode, bool small, uint32_t seed) {
    const size_t dsz = ck_type_data_size(ck_type_scalar(did));
    const auto src = ckt::scalar_source_bytes(sid, static_cast<size_t>(step == 0 ? 1 : n * step),
                                              small, seed);  // step 0: one element broadcast
    const size_t guard = 128;
    alignas(64) static unsigned char a[80000], b[80000];
    const size_t total = 2 * guard + static_cast<size_t>(n) * dsz;
    ASSERT_LE(total + dst_skip * dsz, sizeof a);
    std::memset(a, 0xA5, sizeof a);
    std::memset(b, 0xA5, sizeof b);
    char *da = reinterpret_cast<char *>(a + guard + dst_skip * dsz);
    char *db = reinterpret_cast<char *>(b + guard + dst_skip * dsz);
    std::vector<unsigned char> s1(src), s2(src);
    ck_set_streaming_threshold(1);
    const Outcome streamed = assign_1d(did, da, sid, reinterpret_cast<char *>(s1.data()), n, step, mode);
    ck_set_streaming_threshold(std::numeric_limits<size_t>::max());
    const Outcome plain = assign_1d(did, db, sid, reinterpret_cast<char *>(s2.data()), n, step, mode);
    const std::string what = std::string(ck_type_id_name(did)) + " <- " + ck_type_id_name(sid) +
                             " n=" + std::to_string(n) + " skip=" + std::to_string(dst_skip) +
                             " step=" + std::to_string(step) + " mode=" + std::to_string(mode);
    if (n * static_cast<intptr_t>(dsz) >= 256) {
        EXPECT_NE(streamed.tree.find("streaming"), std::string::npos) << what << streamed.tree;
    }
    EXPECT_EQ(plain.tree.find("streaming"), std::string::npos) << what << plain.tree;
    EXPECT_EQ(streamed.rc, plain.rc) << what;
    EXPECT_EQ(streamed.message, plain.message) << what;
    EXPECT_EQ(std::memcmp(a, b, sizeof a), 0) << what;
}

// As above, with the destination `skip_bytes` past a 64-byte boundary (any multiple of the
// element's alignment, not only of its size).
void expect_same_with_and_without_bytes(ck_type_id did, ck_type_id sid, intptr_t n,
                                        size_t skip_bytes) {
    const size_t dsz = ck_type_data_size(ck_type_scalar(did));
    const auto src = ckt::scalar_source_bytes(sid, static_cast<size_t>(n), false, 5);
    alignas(64) static unsigned char a[16384], b[16384];
    const size_t guard = 128;
    ASSERT_LE(2 * guard + skip_bytes + static_cast<size_t>(n) * dsz, sizeof a);
    std::memset(a, 0xA5, sizeof a);
    std::memset(b, 0xA5, sizeof b);
    std::vector<unsigned char> s1(src), s2(src);
    ck_set_streaming_threshold(1);
    const Outcome streamed = assign_1d(did, reinterpret_cast<char *>(a + guard + skip_bytes), sid,
                                       reinterpret_cast<char *>(s1.data()), n, 1, CK_ERRMODE_NOCHECK);
    ck_set_streaming_threshold(std::numeric_limits<size_t>::max());
    const Outcome plain = assign_1d(did, reinterpret_cast<char *>(b + guard + skip_bytes), sid,
                                    reinterpret_cast<char *>(s2.data()), n, 1, CK_ERRMODE_NOCHECK);
    const std::string what = std::string(ck_type_id_name(did)) + " <- " + ck_type_id_name(sid) +
                             " n=" + std::to_string(n) + " +" + std::to_string(skip_bytes);
    EXPECT_NE(streamed.tree.find("streaming"), std::string::npos) << what << streamed.tree;
    EXPECT_EQ(streamed.rc, CK_OK) << what << streamed.message;
    EXPECT_EQ(plain.rc, CK_OK) << what << plain.message;
    EXPECT_EQ(std::memcmp(a, b, sizeof a), 0) << what;
}

TEST_F(Streaming, EveryPairWritesWhatTheLeafAloneWrites) {
    REQUIRE_STREAMING();
    // Lengths around the 64-byte lines and the 4 KiB chunk, and starts that move the head.
    const intptr_t lengths[] = {0, 1, 31, 32, 33, 64, 100, 257, 511, 512, 513, 700};
    uint32_t seed = 1;
    for (int d = 0; d < CK_NUM_SCALAR_TYPES; ++d) {
        for (int s = 0; s < CK_NUM_SCALAR_TYPES; ++s) {
            const auto did = static_cast<ck_type_id>(d), sid = static_cast<ck_type_id>(s);
            for (intptr_t n : lengths) {
                const size_t skip = static_cast<size_t>(seed % 7);
                expect_same_with_and_without(did, sid, n, skip, 1, CK_ERRMODE_NOCHECK, false, seed);
                expect_same_with_and_without(did, sid, n, skip, 1, CK_ERRMODE_INEXACT, true, seed);
                ++seed;
            }
            // A strided source goes through the buffer even for a copy.
            expect_same_with_and_without(did, sid, 300, 3, 2, CK_ERRMODE_NOCHECK, false, seed++);
            if (::testing::Test::HasFailure()) return;
        }
    }
}

TEST_F(Streaming, AComplexAlignedToItsComponentOnlyIsNotStreamedAcrossLines) {
    if (!ckt::streaming_stores_exist()) GTEST_SKIP() << ck_streaming_threshold_reason();
    // complex64 is 8 bytes aligned to 4: at a line + 4 its elements straddle line boundaries,
    // so no line holds whole elements and the run goes through the leaf (the streaming loops
    // would have stored misaligned vectors; found by the composition fuzzer).
    for (ck_type_id t : {CK_TYPE_COMPLEX64, CK_TYPE_COMPLEX128}) {
        const size_t size = ck_type_data_size(ck_type_scalar(t));
        const size_t align = ck_type_data_alignment(ck_type_scalar(t));
        for (intptr_t n : {64, 300}) {
            for (size_t skip : {size_t{0}, align, 3 * align}) {
                expect_same_with_and_without_bytes(t, t, n, skip);
                expect_same_with_and_without_bytes(t, CK_TYPE_FLOAT32, n, skip);
            }
            (void)size;
        }
    }
}

TEST_F(Streaming, EveryCompiledTargetStreamsTheSameBytes) {
    REQUIRE_STREAMING();
    const ck_type_id pairs[][2] = {{CK_TYPE_FLOAT64, CK_TYPE_INT32},
                                   {CK_TYPE_FLOAT64, CK_TYPE_FLOAT32},
                                   {CK_TYPE_INT16, CK_TYPE_INT16},
                                   {CK_TYPE_COMPLEX128, CK_TYPE_COMPLEX128},
                                   {CK_TYPE_FLOAT32, CK_TYPE_FLOAT64},
                                   {CK_TYPE_INT8, CK_TYPE_FLOAT64}};
    for (const ck_cpu_target target : ckt::runnable_targets()) {
        ASSERT_EQ(ck_cpu_set_target_cap(target), CK_OK);
        for (const auto &p : pairs) {
            for (intptr_t n : {40, 513, 4099}) {
                for (size_t skip : {0, 1, 5}) {
                    // Contiguous, strided (the cast loops' own strided bodies, the buffer's
                    // prefetch) and broadcast sources.
                    for (intptr_t step : {1, 3, 0}) {
                        expect_same_with_and_without(p[0], p[1], n, skip, step,
                                                     CK_ERRMODE_NOCHECK, false,
                                                     static_cast<uint32_t>(n + skip));
                    }
                }
            }
        }
    }
}

// The source `step` elements apart (each value once, the gaps filled with other bytes).
template <typename T>
std::vector<T> spread(const std::vector<T> &v, intptr_t step) {
    std::vector<T> out(v.size() * static_cast<size_t>(step));
    for (size_t i = 0; i < out.size(); ++i) std::memset(&out[i], 0x5A, sizeof(T));
    for (size_t i = 0; i < v.size(); ++i) out[i * static_cast<size_t>(step)] = v[i];
    return out;
}

TEST_F(Streaming, StreamedCastsMatchTheCConversion) {
    REQUIRE_STREAMING();
    for (intptr_t step : {1, 3}) {
        SCOPED_TRACE("source step " + std::to_string(step));
        // Independent values: C's int32 -> double and float -> double, which are exact.
        const intptr_t n = 5000;
        std::vector<int32_t> si(n);
        std::vector<float> sf(n);
        std::mt19937 rng(7);
        for (intptr_t i = 0; i < n; ++i) {
            si[i] = static_cast<int32_t>(rng());
            uint32_t bits = rng();
            std::memcpy(&sf[i], &bits, 4);
            if (std::isnan(sf[i])) sf[i] = -0.0f;  // NaN payloads are the leaf's business
        }
        si[0] = std::numeric_limits<int32_t>::min();
        si[1] = std::numeric_limits<int32_t>::max();
        sf[2] = std::numeric_limits<float>::infinity();
        sf[3] = std::numeric_limits<float>::denorm_min();
        std::vector<double> out(n + 8);
        ck_set_streaming_threshold(1);
        for (size_t skip : {0, 3}) {
            std::fill(out.begin(), out.end(), 42.0);
            Outcome r = assign_1d(CK_TYPE_FLOAT64, reinterpret_cast<char *>(out.data() + skip),
                              CK_TYPE_INT32, reinterpret_cast<char *>(spread(si, step).data()), n, step,
                              CK_ERRMODE_INEXACT);
            ASSERT_EQ(r.rc, CK_OK) << r.message;
            EXPECT_NE(r.tree.find("streaming"), std::string::npos) << r.tree;
            EXPECT_NE(r.tree.find(" cast line=64"), std::string::npos) << r.tree;
            for (intptr_t i = 0; i < n; ++i) ASSERT_EQ(out[skip + i], static_cast<double>(si[i])) << i;
            r = assign_1d(CK_TYPE_FLOAT64, reinterpret_cast<char *>(out.data() + skip), CK_TYPE_FLOAT32,
                          reinterpret_cast<char *>(spread(sf, step).data()), n, step, CK_ERRMODE_NOCHECK);
            ASSERT_EQ(r.rc, CK_OK) << r.message;
            for (intptr_t i = 0; i < n; ++i) {
                const double want = static_cast<double>(sf[i]);
                ASSERT_EQ(std::memcmp(&out[skip + i], &want, 8), 0) << i;
            }
            EXPECT_EQ(out[skip + n], 42.0) << "written past the end";
            // float64 -> float32 nocheck: C's (float)x, out of range to inf, rounded to nearest.
            std::vector<double> sd(n);
            for (intptr_t i = 0; i < n; ++i) sd[i] = static_cast<double>(si[i]) * 1.0e30 + 0.1 * i;
            std::vector<float> of(n + 8, 42.0f);
            r = assign_1d(CK_TYPE_FLOAT32, reinterpret_cast<char *>(of.data() + skip), CK_TYPE_FLOAT64,
                          reinterpret_cast<char *>(spread(sd, step).data()), n, step, CK_ERRMODE_NOCHECK);
            ASSERT_EQ(r.rc, CK_OK) << r.message;
            EXPECT_NE(r.tree.find(" cast line=64"), std::string::npos) << r.tree;
            for (intptr_t i = 0; i < n; ++i) {
                const float want = static_cast<float>(sd[i]);
                ASSERT_EQ(std::memcmp(&of[skip + i], &want, 4), 0) << i << " " << sd[i];
            }
            EXPECT_EQ(of[skip + n], 42.0f) << "written past the end";
            // float64 -> int32 nocheck (design.md §7): truncation, saturation, NaN -> 0.
            for (intptr_t i = 0; i < n; ++i) {
                switch (i % 7) {
                case 0: sd[i] = std::nan(""); break;
                case 1: sd[i] = (i % 2 ? 1 : -1) * std::numeric_limits<double>::infinity(); break;
                case 2: sd[i] = (i % 2 ? 1 : -1) * (2147483648.0 + static_cast<double>(i)); break;
                default: sd[i] = static_cast<double>(si[i]) + (i % 3) * 0.75; break;
                }
            }
            std::vector<int32_t> oi(n + 8, 42);
            r = assign_1d(CK_TYPE_INT32, reinterpret_cast<char *>(oi.data() + skip), CK_TYPE_FLOAT64,
                          reinterpret_cast<char *>(spread(sd, step).data()), n, step, CK_ERRMODE_NOCHECK);
            ASSERT_EQ(r.rc, CK_OK) << r.message;
            EXPECT_NE(r.tree.find(" cast line=64"), std::string::npos) << r.tree;
            for (intptr_t i = 0; i < n; ++i) {
                const double v = sd[i];
                const int32_t want = v != v                ? 0
                                     : v >= 2147483647.0   ? std::numeric_limits<int32_t>::max()
                                     : v <= -2147483648.0  ? std::numeric_limits<int32_t>::min()
                                                           : static_cast<int32_t>(v);
                ASSERT_EQ(oi[skip + i], want) << i << " " << v;
            }
            EXPECT_EQ(oi[skip + n], 42) << "written past the end";
            if (skip > 0) {
                EXPECT_EQ(out[skip - 1], 42.0) << "written before the start";
            }
        }
    }
}

TEST_F(Streaming, AFailureInsideAChunkWritesAndReportsWhatTheLeafDoes) {
    REQUIRE_STREAMING();
    // float64 -> int32 in overflow mode fails on 1e10 at element 2500 (inside a chunk);
    // element 1000 is 2.5: fine in overflow mode, a failure in fractional mode.
    const intptr_t n = 6000;
    std::vector<double> src(n);
    for (intptr_t i = 0; i < n; ++i) src[i] = static_cast<double>(i % 1000);
    src[1000] = 2.5;
    src[2500] = 1e10;
    for (ck_errmode mode : {CK_ERRMODE_OVERFLOW, CK_ERRMODE_FRACTIONAL}) {
        std::vector<int32_t> a(n + 32, -7), b(n + 32, -7);
        ck_set_streaming_threshold(1);
        const Outcome s = assign_1d(CK_TYPE_INT32, reinterpret_cast<char *>(a.data() + 1), CK_TYPE_FLOAT64,
                                reinterpret_cast<char *>(src.data()), n, 1, mode);
        ck_set_streaming_threshold(std::numeric_limits<size_t>::max());
        const Outcome p = assign_1d(CK_TYPE_INT32, reinterpret_cast<char *>(b.data() + 1), CK_TYPE_FLOAT64,
                                reinterpret_cast<char *>(src.data()), n, 1, mode);
        EXPECT_NE(s.rc, CK_OK);
        EXPECT_EQ(s.rc, p.rc);
        EXPECT_EQ(s.message, p.message);
        EXPECT_EQ(a, b);
        // Independently: every element before the failing one holds its value.
        const intptr_t bad = mode == CK_ERRMODE_OVERFLOW ? 2500 : 1000;
        for (intptr_t i = 0; i < bad; ++i) {
            ASSERT_EQ(a[1 + i], static_cast<int32_t>(src[i])) << i;
        }
        EXPECT_EQ(a[0], -7);
        EXPECT_EQ(a[n + 1], -7);
    }
}

// The largest data/unified cache of cpu0 in sysfs, and how many CPUs share it (0: not
// said), read here independently.
size_t sysfs_llc(unsigned *sharing) {
    size_t best = 0;
    int best_level = 0;
    *sharing = 0;
    for (int i = 0; i < 16; ++i) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
        std::ifstream lf(dir + "level"), tf(dir + "type"), sf(dir + "size"), cf(dir + "shared_cpu_list");
        int level = 0;
        std::string type, size, cpus;
        if (!(lf >> level) || !(tf >> type) || !(sf >> size)) break;
        if (type == "Instruction") continue;
        size_t v = std::stoull(size);
        if (size.back() == 'K') v *= 1024;
        if (size.back() == 'M') v *= 1024 * 1024;
        if (level >= best_level) {
            best = v;
            best_level = level;
            *sharing = 0;
            if (cf >> cpus) {  // "0-3,8-11": count each range
                std::stringstream ranges(cpus);
                std::string r;
                while (std::getline(ranges, r, ',')) {
                    const size_t dash = r.find('-');
                    *sharing += dash == std::string::npos
                                    ? 1u
                                    : static_cast<unsigned>(std::stoul(r.substr(dash + 1)) -
                                                            std::stoul(r.substr(0, dash)) + 1);
                }
            }
        }
    }
    return best;
}

TEST_F(Streaming, TheDefaultThresholdIsThreeQuartersOfTheLastLevelCache) {
    REQUIRE_STREAMING();
    if (std::getenv("CKERNEL_STREAMING_MIN_BYTES") != nullptr) {
        GTEST_SKIP() << "CKERNEL_STREAMING_MIN_BYTES is set";
    }
    unsigned sharing = 0;
    const size_t llc = sysfs_llc(&sharing);
    if (llc == 0) GTEST_SKIP() << "no cache sizes in /sys";
    EXPECT_EQ(ck_cpu_llc_bytes(), llc);
    // Where sysfs does not say who shares the cache, every online CPU is counted.
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    const size_t cpus = sharing != 0 ? sharing : online > 0 ? static_cast<size_t>(online) : 1;
    const bool capped = llc / cpus > (size_t{16} << 20);
    const size_t want = (capped ? (size_t{16} << 20) * cpus : llc) / 4 * 3;
    std::printf("[   INFO   ] last-level cache %zu bytes shared by %u CPUs (%zu counted): "
                "threshold %zu%s\n",
                llc, sharing, cpus, want, capped ? " (capped at 16 MiB per CPU)" : "");
    EXPECT_EQ(ck_get_streaming_threshold(), want);
    const std::string reason = ck_streaming_threshold_reason();
    EXPECT_EQ(reason.rfind(capped ? "3/4 of " + std::to_string(cpus) + " x 16 MiB: "
                                  : std::string("3/4 of the "),
                           0),
              0u)
        << reason;
    EXPECT_NE(reason.find("sysfs"), std::string::npos) << reason;
    ck_set_streaming_threshold(12345);
    EXPECT_EQ(ck_get_streaming_threshold(), 12345u);
    EXPECT_EQ(std::string(ck_streaming_threshold_reason()), "ck_set_streaming_threshold");
    ck_set_streaming_threshold(0);
    EXPECT_EQ(ck_get_streaming_threshold(), want);
}

// The tree of the kernel assigning src to dst (both C order), "" when it cannot be built.
std::string assign_tree(const ckt::Array &dst, const ckt::Array &src) {
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    char *text = nullptr;
    EXPECT_EQ(ck_make_assign(&b, &off, ck_array_type(dst.get()), ck_array_arrmeta(dst.get()),
                             ck_array_type(src.get()), ck_array_arrmeta(src.get()),
                             CK_REQUEST_SINGLE, nullptr),
              CK_OK);
    EXPECT_EQ(ck_kernel_describe(ck_builder_root(&b), &text), CK_OK);
    std::string tree = text != nullptr ? text : "";
    ck_free(text);
    ck_builder_destroy(&b);
    return tree;
}

// The streaming loops come from the bandwidth target (avx2 on an AMD Zen 4, whose 512-bit
// loads stream from memory slower), the cast leaf under them from the target in use.
TEST_F(Streaming, TheStoreLoopsComeFromTheBandwidthTarget) {
    REQUIRE_STREAMING();
    ckt::Array src("64 * int32"), dst("64 * float64");
    ck_set_streaming_threshold(256);
    for (ck_cpu_target t : ckt::runnable_targets()) {
        ASSERT_EQ(ck_cpu_set_target_cap(t), CK_OK) << ck_last_error();
        const std::string tree = assign_tree(dst, src), name = ck_cpu_target_name(t);
        EXPECT_NE(tree.find("cast line=64 chunk=2048 [" + ckt::expected_bandwidth_target(t) + "]\n"),
                  std::string::npos)
            << name << "\n" << tree;
        EXPECT_NE(tree.find("cast int32 -> float64 (fractional) strided [" + name + "]\n"),
                  std::string::npos)
            << name << "\n" << tree;
    }
    EXPECT_EQ(ck_cpu_set_target_cap(ckt::best_compiled_target()), CK_OK);
}

TEST_F(Streaming, TheWholeDestinationDecidesNotOneRow) {
    REQUIRE_STREAMING();
    // 64 rows of 64 float64 = 32 KiB: a threshold of 16 KiB streams it although no row
    // (512 bytes) reaches it; 64 KiB does not. Rows are contiguous, coalesced or not.
    ckt::Array src("64 * 64 * int32"), dst("64 * 64 * float64");
    auto explain = [&](size_t threshold) {
        ck_set_streaming_threshold(threshold);
        return assign_tree(dst, src);
    };
    EXPECT_NE(explain(16 << 10).find("streaming"), std::string::npos);
    EXPECT_NE(explain(32 << 10).find("streaming"), std::string::npos);
    EXPECT_EQ(explain((32 << 10) + 1).find("streaming"), std::string::npos);
    EXPECT_EQ(explain(64 << 10).find("streaming"), std::string::npos);
}

TEST_F(Streaming, ParallelAssignmentGivesTheSameBytes) {
    REQUIRE_STREAMING();
    const int m = 512, n = 1000;
    const std::string st = std::to_string(m) + " * " + std::to_string(n);
    ckt::Array src((st + " * int16").c_str()), a((st + " * float32").c_str()),
        b((st + " * float32").c_str());
    int16_t *s = reinterpret_cast<int16_t *>(src.data());
    for (int64_t i = 0; i < m * n; ++i) s[i] = static_cast<int16_t>((i * 7919) % 65536 - 32768);
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.max_threads = 2;
    ctx.grain_bytes = 64 << 10;
    ck_set_streaming_threshold(1);
    ASSERT_EQ(ck_parallel_assign(a.get(), src.get(), &ctx), CK_OK) << ck_last_error();
    for (int i = 0; i < m * n; ++i) {
        ASSERT_EQ(reinterpret_cast<const float *>(a.data())[i], static_cast<float>(s[i])) << i;
    }
    ck_set_streaming_threshold(std::numeric_limits<size_t>::max());
    ASSERT_EQ(ck_parallel_assign(b.get(), src.get(), &ctx), CK_OK) << ck_last_error();
    EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(float) * m * n), 0);
}

// An array of records bit-identical on both sides: one copy_bytes leaf, which above the
// threshold writes a contiguous run's whole lines with streaming stores (records of 16
// bytes one past a line, of 12 bytes straddling lines). Every byte is the source's and the
// guards stay; a record of other fields (in another order, one cast) is assigned field by
// field, never streamed.
TEST_F(Streaming, ABitIdenticalRecordArrayIsOneStreamedCopy) {
    REQUIRE_STREAMING();
    struct Case {
        const char *type;
        size_t size, skip;
    };
    for (const Case &c : {Case{"{x: int32, y: int32, z: float64}", 16, 16},
                          Case{"{a: int32, b: int32, c: int32}", 12, 4}}) {
        SCOPED_TRACE(c.type);
        const intptr_t n = 3001;
        const std::string t = std::to_string(n) + " * " + c.type;
        const auto src = ckt::scalar_source_bytes(CK_TYPE_UINT8, c.size * n, false, 9);
        alignas(64) static unsigned char d[16 * 3001 + 256];
        for (size_t threshold : {size_t{1}, std::numeric_limits<size_t>::max()}) {
            std::memset(d, 0xA5, sizeof d);
            ck_set_streaming_threshold(threshold);
            ckt::Array layout(t.c_str());  // its type and arrmeta; the data are ours
            const ck_type *tp = ck_array_type(layout.get());
            const char *m = ck_array_arrmeta(layout.get());
            ck_builder b;
            ck_builder_init(&b);
            size_t off = 0;
            ASSERT_EQ(ck_make_assign(&b, &off, tp, m, tp, m, CK_REQUEST_SINGLE, nullptr), CK_OK)
                << ck_last_error();
            char *text = nullptr;
            ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &text), CK_OK);
            const std::string tree = text;
            ck_free(text);
            const std::string leaf = "copy_bytes_strided  bytes=" + std::to_string(c.size);
            EXPECT_NE(tree.find(threshold == 1 ? leaf + " streamed" : leaf + "\n"),
                      std::string::npos)
                << tree;
            char *s = const_cast<char *>(reinterpret_cast<const char *>(src.data()));
            EXPECT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(d + c.skip), &s),
                      CK_OK);
            ck_builder_destroy(&b);
            EXPECT_EQ(std::memcmp(d + c.skip, src.data(), c.size * n), 0);
            for (size_t i = 0; i < c.skip; ++i) ASSERT_EQ(d[i], 0xA5) << i;
            for (size_t i = c.skip + c.size * n; i < sizeof d; ++i) ASSERT_EQ(d[i], 0xA5) << i;
        }
    }
    ck_set_streaming_threshold(1);
    ckt::Array a("4000 * {x: int32, y: int32, z: float64}"),
        b("4000 * {y: int32, x: int16, z: float64}");  // x cast by a leaf of its own
    ck_builder kb;
    ck_builder_init(&kb);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&kb, &off, ck_array_type(a.get()), ck_array_arrmeta(a.get()),
                             ck_array_type(b.get()), ck_array_arrmeta(b.get()), CK_REQUEST_SINGLE,
                             nullptr),
              CK_OK);
    char *text = nullptr;
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&kb), &text), CK_OK);
    EXPECT_NE(std::string(text).find("fields_strided"), std::string::npos) << text;
    EXPECT_EQ(std::string(text).find("stream"), std::string::npos) << text;
    ck_free(text);
    ck_builder_destroy(&kb);
}

TEST_F(Streaming, AllocationFailureAtEveryPointOfAStreamingBuild) {
    REQUIRE_STREAMING();
    ck_set_streaming_threshold(1);
    // Types, arrays and a streaming kernel: every allocation of the way may fail.
    const int64_t points = ckt::for_each_alloc_failure([] {
        ck_type *dt = nullptr, *st = nullptr;
        int rc = ck_type_parse("300 * 7 * float64", &dt);
        if (rc == CK_OK) rc = ck_type_parse("300 * 7 * int16", &st);
        ck_array *d = nullptr, *s = nullptr;
        if (rc == CK_OK) rc = ck_array_new(dt, &d);
        if (rc == CK_OK) rc = ck_array_new(st, &s);
        if (rc == CK_OK) rc = ck_assign(d, s, nullptr);
        ck_array_free(d);
        ck_array_free(s);
        ck_type_decref(dt);
        ck_type_decref(st);
        return rc;
    });
    EXPECT_GT(points, 0);
}

}  // namespace
