// tests/cast/int64_to_float32_test.cpp: int64 and uint64 -> float32 round once, on every
// target, contiguous and strided, composed and in the JIT. The values are ones a path
// through float64 rounds to the wrong neighbour: 2^60 + 2^36 + 1 is 2^60 + 2^36 in float64
// (the + 1 is below its ulp of 2^8), a tie in float32 that goes to the even 2^60, where the
// value itself lies above the tie and rounds up to 2^60 + 2^37. The expected bits are worked
// out by hand (float32: 1 sign, 8 exponent bits biased by 127, 23 fraction bits).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

struct Value {
    uint64_t bits;      // the integer's two's complement bits
    uint32_t f32_bits;  // its float32, rounded once
};

// 2^60 + 2^37 is 0x5D800001 (exponent 60 + 127 = 0xBB, the last fraction bit 2^37 / 2^60
// = 2^-23); 2^62 + 2^39 (from 2^62 + 2^38 + 1) is 0x5E800001; 2^63 + 2^40 (uint64, from
// 2^63 + 2^39 + 1) is 0x5F000001. A value below the tie rounds down: 2^60 + 2^36 - 1 is
// 2^60, 0x5D800000.
const Value kSigned[] = {
    {(uint64_t{1} << 60) + (uint64_t{1} << 36) + 1, 0x5D800001u},
    {~((uint64_t{1} << 60) + (uint64_t{1} << 36) + 1) + 1, 0xDD800001u},  // its negation
    {(uint64_t{1} << 62) + (uint64_t{1} << 38) + 1, 0x5E800001u},
    {(uint64_t{1} << 60) + (uint64_t{1} << 36) - 1, 0x5D800000u},
    {3, 0x40400000u},
};
const Value kUnsigned[] = {
    {(uint64_t{1} << 63) + (uint64_t{1} << 39) + 1, 0x5F000001u},
    {(uint64_t{1} << 60) + (uint64_t{1} << 36) + 1, 0x5D800001u},
    {~uint64_t{0}, 0x5F800000u},  // 2^64 - 1 rounds up to 2^64
};

// dst (n float32, stride 2 elements when strided) <- src, through ck_assign-like building
// with the given flags; returns the float32 bits.
std::vector<uint32_t> convert(const char *src_type, const std::vector<uint64_t> &in, bool strided,
                              unsigned flags) {
    const size_t n = in.size(), step = strided ? 2 : 1;
    std::vector<uint64_t> src(n * step, 0);
    for (size_t i = 0; i < n; ++i) src[i * step] = in[i];
    std::vector<float> dst(n * step, -1.0f);
    ckt::Type dt((std::to_string(n) + " * float32").c_str()),
        st((std::to_string(n) + " * " + src_type).c_str());
    const ck_fixed_dim_arrmeta dm = {static_cast<intptr_t>(n), static_cast<intptr_t>(4 * step)},
                               sm = {static_cast<intptr_t>(n), static_cast<intptr_t>(8 * step)};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ck_eval_ctx c = CK_EVAL_CTX_INIT;
    c.errmode = CK_ERRMODE_NOCHECK;
    c.flags = flags;
    EXPECT_EQ(ck_make_assign(&b, &off, dt.get(), reinterpret_cast<const char *>(&dm), st.get(),
                             reinterpret_cast<const char *>(&sm), CK_REQUEST_SINGLE, &c),
              CK_OK)
        << ck_last_error();
    char *s = reinterpret_cast<char *>(src.data());
    EXPECT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(dst.data()), &s),
              CK_OK);
    ck_builder_destroy(&b);
    std::vector<uint32_t> out(n);
    for (size_t i = 0; i < n; ++i) std::memcpy(&out[i], &dst[i * step], 4);
    return out;
}

void expect_rounded_once(const char *type, const Value *v, size_t nv, unsigned flags,
                         const std::string &where) {
    // Many copies, so that vector bodies and tails both see every value.
    std::vector<uint64_t> in;
    for (int r = 0; r < 37; ++r)
        for (size_t i = 0; i < nv; ++i) in.push_back(v[i].bits);
    for (bool strided : {false, true}) {
        const std::vector<uint32_t> got = convert(type, in, strided, flags);
        for (size_t i = 0; i < in.size(); ++i) {
            ASSERT_EQ(got[i], v[i % nv].f32_bits)
                << type << " element " << i << (strided ? " strided" : "") << " " << where;
        }
    }
}

TEST(Int64ToFloat32, RoundsOnceOnEveryTarget) {
    int ran = 0;
    for (const ck_cpu_target target : ckt::runnable_targets()) {
        ASSERT_EQ(ck_cpu_set_target_cap(target), CK_OK);
        const std::string name = ck_cpu_target_name(target);
        expect_rounded_once("int64", kSigned, sizeof kSigned / sizeof kSigned[0], CK_EVAL_NO_JIT,
                            name);
        expect_rounded_once("uint64", kUnsigned, sizeof kUnsigned / sizeof kUnsigned[0],
                            CK_EVAL_NO_JIT, name);
        ++ran;
    }
    ASSERT_EQ(ck_cpu_set_target_cap(ckt::best_compiled_target()), CK_OK);
    EXPECT_GE(ran, 1);
}

TEST(Int64ToFloat32, RoundsOnceInTheJit) {
    expect_rounded_once("int64", kSigned, sizeof kSigned / sizeof kSigned[0], CK_EVAL_JIT, "jit");
    const std::string d = ck_jit_last_decision();
    expect_rounded_once("uint64", kUnsigned, sizeof kUnsigned / sizeof kUnsigned[0], CK_EVAL_JIT,
                        "jit");
    if (d.rfind("compiled", 0) != 0 && d.rfind("cache hit", 0) != 0) {
        GTEST_SKIP() << "the JIT did not compile the conversion here (the composed kernels were "
                        "checked): "
                     << d;
    }
}

}  // namespace
