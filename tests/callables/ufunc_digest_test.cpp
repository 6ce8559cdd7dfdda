// tests/callables/ufunc_digest_test.cpp: NumPy's functions give the same bits on every
// machine, not only on every target of one machine. Each LEAF, CHECKED and VMATH loop runs
// over 4099 deterministic inputs per operand (ufunc_loops.hpp: the special values, then
// random bits) under each CPU target this machine runs, and the FNV-1a digest of its results
// (every NaN counted as one NaN: IEEE leaves a NaN's payload and sign to the hardware, and
// x86 and Arm pick different operands' payloads) must equal the line of
// ufunc_digests.txt, which was written on x86-64 and is checked unchanged on aarch64 under
// qemu (scripts/test-cross.sh, CI's emulated step). A loop without a line fails: a new
// loop's digest is added with
//   CKT_WRITE_UFUNC_DIGESTS=tests/callables/ufunc_digests.txt ck_callables_tests
//       --gtest_filter='Targets/UfuncDigest.*/baseline'
// on x86-64, and then seen to pass on the other architectures. The complex loops of the
// transcendental functions call the host's libm, as NumPy's do (C99's csqrt, clog, csin, ...
// and hypot), whose bits are the host's (aarch64's glibc, compiled with fused multiply-adds,
// differs from x86-64's in 26 of them): those are compared on x86-64 only, and elsewhere
// counted and skipped. Values themselves are checked against NumPy and mpmath by
// python/tests/test_ufuncs.py; this is about sameness.
//
// The vector-math loops run SLEEF's family with fused multiply-adds where the CPU has them
// (ck_cpu_vector_math_fma), which ufunc_digests.txt holds; the family without (a CPU without
// FMA, or CKERNEL_VMATH_FMA=off: ctest's UfuncDigest.WithoutFma) gives other bits in a few
// loops, whose lines ufunc_digests_nofma.txt holds instead (written the same way with
// CKERNEL_VMATH_FMA=off: only the lines that differ are kept).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "scalar_oracle.h"
#include "target_fixture.hpp"
#include "ufunc_loops.hpp"

namespace {

using namespace ckt_ufunc;

constexpr size_t kInputs = 4099;  // not a multiple of any vector width or chunk

// The parts of a type's elements that are floats (their width in bytes), 0 for integers.
size_t float_part(int id) {
    const ck__scalar_facts *f = ck__scalar_info(static_cast<ck_type_id>(id));
    return f->kind == CK__SCALAR_KIND_FLOAT || f->kind == CK__SCALAR_KIND_COMPLEX
               ? size_t{f->part_size}
               : 0;
}

bool is_nan(const unsigned char *p, size_t part, int id) {
    const uint64_t x = ckt_get_low_bytes(p, part);
    const int m = part == 2 ? (id == CK_TYPE_BFLOAT16 ? 7 : 10) : part == 4 ? 23 : 52;
    const uint64_t sign = uint64_t{1} << (part * 8 - 1), mag = x & (sign - 1);
    const uint64_t expo = (sign - 1) & ~((uint64_t{1} << m) - 1);
    return (mag & expo) == expo && (mag & ~expo) != 0;
}

// One number of n bytes (an integer, or a float's part) into the digest, its bytes in
// little-endian order whatever the host's, so that a big-endian host's digest is x86-64's.
uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[CKT_BIG_ENDIAN ? n - 1 - i : i]) * 0x100000001b3ull;
    }
    return h;
}

// The digest of loop l's results over the inputs, under the current target cap.
uint64_t digest(const Loop &l) {
    void *fp = leaf_fn(l.id, CK_REQUEST_STRIDED);
    EXPECT_NE(fp, nullptr);
    if (fp == nullptr) return 0;
    ck_strided_fn strided;
    std::memcpy(&strided, &fp, sizeof strided);
    Bits r;  // the same inputs for every loop of the same types, on every machine
    std::vector<unsigned char> in[2];
    char *src[2] = {nullptr, nullptr};
    intptr_t ss[2] = {0, 0};
    for (int k = 0; k < l.nin; k++) {
        const size_t es = size_of(l.in[k]);
        in[k] = values(l.in[k], kInputs, r);
        if (l.checked && k == 1) {  // power of integers: exponents >= 0
            for (size_t e = 0; e < kInputs; e++) in[k][e * es + CKT_SIGN_BYTE(es)] &= 0x7f;
        }
        src[k] = reinterpret_cast<char *>(in[k].data());
        ss[k] = static_cast<intptr_t>(es);
    }
    const size_t ds = result_size(l);
    std::vector<unsigned char> out(kInputs * ds + 16);
    EXPECT_EQ(strided(nullptr, reinterpret_cast<char *>(out.data()), static_cast<intptr_t>(ds),
                      src, ss, kInputs),
              CK_OK)
        << ck_last_error();
    static const unsigned char kNaN[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t e = 0; e < kInputs; e++) {
        for (const Field &f : result_fields(l)) {  // each field's parts (padding is no result)
            const size_t fs = size_of(f.id), part = float_part(f.id);
            for (size_t i = e * ds + f.offset; i < e * ds + f.offset + fs;
                 i += part != 0 ? part : fs) {
                const bool nan = part != 0 && is_nan(&out[i], part, f.id);
                h = fnv1a(h, nan ? kNaN : &out[i], part != 0 ? part : fs);
            }
        }
    }
    return h;
}

std::map<std::string, std::string> read_digests(const char *path) {
    std::map<std::string, std::string> m;
    std::ifstream f(path);
    std::string line;
    while (std::getline(f, line)) {
        const size_t tab = line.rfind(' ');
        if (line.empty() || line[0] == '#' || tab == std::string::npos) continue;
        m[line.substr(0, tab)] = line.substr(tab + 1);
    }
    return m;
}

std::string hex64(uint64_t h) {
    char b[17];
    std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(h));
    return b;
}

class UfuncDigest : public ckt::TargetCapped {};

TEST_P(UfuncDigest, EveryLoopGivesTheDigestWrittenOnX86) {
    const char *write = std::getenv("CKT_WRITE_UFUNC_DIGESTS");
    std::ostringstream fresh;
    fresh << "# tests/callables/ufunc_digest_test.cpp: the FNV-1a digest of each loop's "
             "results over its\n# deterministic inputs (NaNs as one), written on x86-64; "
             "the same on every machine.\n";
    const std::map<std::string, std::string> fma_family = read_digests(CKT_UFUNC_DIGESTS);
    std::map<std::string, std::string> want = fma_family;
    const bool fma = ck_cpu_vector_math_fma(nullptr) != 0;
    if (!fma) {
        fresh.str("");
        fresh << "# tests/callables/ufunc_digest_test.cpp: the digests of the loops whose "
                 "results differ\n# without fused multiply-adds (CKERNEL_VMATH_FMA=off), "
                 "written on x86-64.\n";
    }
    if (write == nullptr) {
        ASSERT_FALSE(want.empty()) << "no digests in " << CKT_UFUNC_DIGESTS;
        if (!fma) {
            const std::map<std::string, std::string> other = read_digests(CKT_UFUNC_DIGESTS_NOFMA);
            ASSERT_FALSE(other.empty()) << "no digests in " << CKT_UFUNC_DIGESTS_NOFMA;
            for (const auto &kv : other) {
                ASSERT_EQ(fma_family.count(kv.first), 1u) << kv.first << ": no such loop";
                EXPECT_NE(fma_family.at(kv.first), kv.second) << kv.first << ": a line the "
                                                                  "FMA family gives too";
                want[kv.first] = kv.second;
            }
        }
    }
    int compared = 0, host_libm = 0;
#if defined(__x86_64__)
    const bool compare_libm = true;
#else
    const bool compare_libm = false;
#endif
    for (const Loop &l : kLoops) {
        SCOPED_TRACE(l.text);
        if (uses_host_libm(l) && !compare_libm && write == nullptr) {
            host_libm++;  // not even run: qemu's POWER8 dies in glibc's cexp (SIGILL)
            continue;
        }
        const std::string got = hex64(digest(l));
        const auto mine = fma_family.find(l.text);
        if (fma || mine == fma_family.end() || mine->second != got) {
            fresh << l.text << " " << got << "\n";
        }
        if (write != nullptr) continue;
        const auto it = want.find(l.text);
        if (it == want.end()) {
            ADD_FAILURE() << l.text << " has no digest in " << CKT_UFUNC_DIGESTS
                          << " (write them as this file's first comment says)";
            continue;
        }
        EXPECT_EQ(got, it->second) << l.text << ": other bits than on x86-64";
        compared++;
    }
    if (write != nullptr) {
        std::ofstream(write) << fresh.str();
        GTEST_SKIP() << "wrote the digests to " << write;
    }
    if (host_libm > 0) {
        std::printf("[ ckernel  ] %d complex loops on the host's libm not compared here\n",
                    host_libm);
    }
    EXPECT_GT(compared, 400);
    EXPECT_EQ(compared + host_libm, static_cast<int>(sizeof kLoops / sizeof kLoops[0]));
    EXPECT_EQ(want.size(), sizeof kLoops / sizeof kLoops[0]) << "a digest of no loop is left";
}

INSTANTIATE_TEST_SUITE_P(Targets, UfuncDigest, ::testing::ValuesIn(ckt::kTargets),
                         ckt::name_by_content(ckt::kTargets, [](const ckt::Target &tg) {
                             return std::string(tg.name);
                         }));

}  // namespace
