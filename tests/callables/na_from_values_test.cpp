// tests/callables/na_from_values_test.cpp: arithmetic never creates an NA (docs/design.md
// §14). A float or complex value computed into an option whose bits come out as the NA's
// (here: a signalling NaN of the NA's payload, which any operation quiets onto the NA's bits,
// and complex values with one part of the NA's bits, whose products carry that part's payload
// into both parts) is the default quiet NaN, part by part: in elementwise calls,
// expressions, casts into an option, reductions and accumulations (both axes, with and
// without skipna, from option and from plain sources, through the parallel reduction), on
// every CPU target. An NA operand still gives NA, and an integer's wrap onto the NA's bits
// still reads as NA (the documented rule for integers).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "scalar_oracle.h"
#include "ckt.hpp"
#include "ckt_array.hpp"
#include "reduce_support.hpp"
#include "target_fixture.hpp"

namespace {

constexpr uint32_t kNaF32 = 0x7fc007a2u, kSnanF32 = 0x7f8007a2u, kQuietF32 = 0x7fc00000u;
constexpr uint64_t kNaF64 = 0x7ff80000000007a2ull, kSnanF64 = 0x7ff00000000007a2ull,
                   kQuietF64 = 0x7ff8000000000000ull;

uint32_t u32_at(const ckt::Array &a, size_t i) {
    uint32_t u;
    std::memcpy(&u, a.data() + 4 * i, 4);
    return u;
}
uint64_t u64_at(const ckt::Array &a, size_t i) {
    uint64_t u;
    std::memcpy(&u, a.data() + 8 * i, 8);
    return u;
}
void put32(ckt::Array &a, size_t i, uint32_t u) {
    std::memcpy(a.data() + 4 * i, &u, 4);
}
void put64(ckt::Array &a, size_t i, uint64_t u) {
    std::memcpy(a.data() + 8 * i, &u, 8);
}

ck_callable *lookup(const char *name) {
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_lookup(name, &c), CK_OK) << name;
    return c;
}

class NaFromValues : public ckt::TargetCapped {};

// out <- name(a, b) in the default context.
void call_into(const char *name, const ckt::Array &out, const ckt::Array &a, const ckt::Array &b) {
    ck_callable *c = lookup(name);
    const ck_array *src[2] = {a.get(), b.get()};
    EXPECT_EQ(ck_call(c, out.get(), 2, src, nullptr), CK_OK) << name << ": " << ck_last_error();
    ck_callable_decref(c);
}

TEST_P(NaFromValues, AnElementwiseResultOfTheNasBitsIsNaN) {
    // ?float32 + float32: the signalling NaN (a value) quiets onto the NA's bits
    ckt::Array a("3 * ?float32", "[1, 1, NA]"), b("float32", "1"), out("3 * ?float32");
    put32(a, 0, kSnanF32);
    call_into("add", out, a, b);
    EXPECT_EQ(u32_at(out, 0), kQuietF32);
    EXPECT_EQ(out.str(), "[nan, 2, NA]");  // an NA operand still gives NA
    // float64 * float64 into ?float64, no option operand
    ckt::Array x("2 * float64", "[2, 3]"), y("float64", "1"), o64("2 * ?float64");
    put64(x, 1, kSnanF64);
    call_into("multiply", o64, x, y);
    EXPECT_EQ(u64_at(o64, 1), kQuietF64);
    EXPECT_EQ(o64.str(), "[2, nan]");
    // ?complex64 * complex64: a value with the NA's bits in its real part only, times 1,
    // carries that NaN into both parts (the whole NA's bits): NaN in each part, not NA
    ckt::Array c("?complex64", "1"), one("complex64", "1"), oc("?complex64");
    put32(c, 0, kNaF32);
    call_into("multiply", oc, c, one);
    EXPECT_NE(u32_at(oc, 0), kNaF32);
    EXPECT_NE(u32_at(oc, 1), kNaF32);
    EXPECT_NE(oc.str(), "NA");
}

TEST_P(NaFromValues, AnExpressionsResultOfTheNasBitsIsNaN) {
    ckt::Array a("3 * ?float32", "[1, 1, NA]");
    put32(a, 0, kSnanF32);
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("a * 2 + 1", &e), CK_OK) << ck_last_error();
    const char *names[1] = {"a"};
    const ck_array *src[1] = {a.get()};
    ckt::Array out("3 * ?float32");
    ASSERT_EQ(ck_expr_eval(e, out.get(), 1, names, src, nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(u32_at(out, 0), kQuietF32);
    EXPECT_EQ(out.str(), "[nan, 3, NA]");
    ck_expr_decref(e);
}

TEST_P(NaFromValues, ACastIntoAnOptionNeverGivesNa) {
    // complex128 -> ?complex64: the real part's NaN narrows onto the NA's part
    ckt::Array s("complex128"), d("?complex64");
    put64(s, 0, 0x7ff800f440000000ull);  // narrows to 0x7fc007a2
    put64(s, 1, 0);
    ASSERT_EQ(ck_assign(d.get(), s.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(u32_at(d, 0), kQuietF32);
    EXPECT_EQ(u32_at(d, 1), 0u);
    // float64 -> ?float16: a NaN whose payload narrows onto float16's NA (0x7fa2)
    ckt::Array h("?float16"), f("float64");
    put64(f, 0, 0x7ffe880000000000ull);  // top payload bits 0x3a2 (quiet): float16 0x7fa2
    ASSERT_EQ(ck_assign(h.get(), f.get(), nullptr), CK_OK) << ck_last_error();
    uint16_t hv;
    std::memcpy(&hv, h.data(), 2);
    EXPECT_EQ(hv, 0x7e00u);
    // T -> ?T is a copy: the NA's bits read as NA (as reading the buffer as ?T in place)
    ckt::Array p("float32"), q("?float32");
    put32(p, 0, kNaF32);
    ASSERT_EQ(ck_assign(q.get(), p.get(), nullptr), CK_OK);
    EXPECT_EQ(q.str(), "NA");
}

TEST_P(NaFromValues, ReductionsNeverFoldValuesIntoNa) {
    using rs::Kind;
    const unsigned skip = CK_REDUCE_SKIPNA;
    for (unsigned flags : {0u, skip}) {
        // sum of ?float32 with a signalling NaN value, over the innermost axis (one
        // accumulator), over the outer axis (elementwise), into ?float32
        ckt::Array a("2 * 3 * ?float32", "[[1, 2, 3], [4, 5, 6]]");
        put32(a, 1, kSnanF32);
        ck_callable *sum = rs::lookup(Kind::reduce, "sum");
        for (int axis : {0, 1}) {
            const std::vector<int> axes = {axis};  // spec keeps a pointer into it
            const ck_reduce_spec r = rs::spec(sum, axes, flags);
            ck_array *out = nullptr;
            ASSERT_EQ(ck_reduce_new(&r, a.get(), nullptr, &out), CK_OK) << ck_last_error();
            char *text = nullptr;
            ASSERT_EQ(ck_array_format(out, &text), CK_OK);
            EXPECT_STREQ(text, axis == 0 ? "[5, nan, 9]" : "[nan, 15]") << flags;
            ck_free(text);
            ck_array_free(out);
        }
        ck_callable_decref(sum);
    }
    // a plain float64 source into ?float64, and the parallel reduction of a long run
    ckt::Array big("70000 * float64");
    for (size_t i = 0; i < 70000; i++) put64(big, i, 0x3ff0000000000000ull);  // 1.0
    put64(big, 12345, kSnanF64);
    ck_callable *sum = rs::lookup(Kind::reduce, "sum");
    const std::vector<int> all = {99};
    const ck_reduce_spec r = rs::spec(sum, all, 0);
    ckt::Array acc("?float64");
    ASSERT_EQ(ck_reduce(&r, acc.get(), big.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(u64_at(acc, 0), kQuietF64);
    ck_eval_ctx two = CK_EVAL_CTX_INIT;
    two.max_threads = 2;
    ckt::Array pacc("?float64");
    ASSERT_EQ(ck_parallel_reduce(&r, pacc.get(), big.get(), &two), CK_OK) << ck_last_error();
    EXPECT_EQ(u64_at(pacc, 0), kQuietF64);
    EXPECT_EQ(pacc.str(), "nan");
    ck_callable_decref(sum);
    // a product of ?complex64 values, one with the NA's bits in a part
    ckt::Array c("3 * ?complex64", "[1, 2, 3]");
    put32(c, 2, kNaF32);  // element 1's real part
    ck_callable *prod = rs::lookup(Kind::reduce, "prod");
    const ck_reduce_spec rp = rs::spec(prod, all, 0);
    ck_array *po = nullptr;
    ASSERT_EQ(ck_reduce_new(&rp, c.get(), nullptr, &po), CK_OK) << ck_last_error();
    uint32_t parts[2];
    std::memcpy(parts, ck_array_data(po), 8);
    EXPECT_NE(parts[0], kNaF32);
    EXPECT_NE(parts[1], kNaF32);
    ck_array_free(po);
    ck_callable_decref(prod);
}

TEST_P(NaFromValues, AccumulationsNeverScanValuesIntoNa) {
    using rs::Kind;
    for (unsigned flags : {0u, static_cast<unsigned>(CK_REDUCE_SKIPNA)}) {
        // cumsum along the innermost axis: out[0] is the value as it is, out[1] onward are
        // computed from it
        ckt::Array a("2 * 3 * ?float32", "[[1, 2, 3], [4, 5, 6]]");
        put32(a, 0, kSnanF32);
        ck_callable *cumsum = rs::lookup(Kind::accumulate, "cumsum");
        for (int axis : {0, 1}) {
            const std::vector<int> axes = {axis};
            const ck_reduce_spec r = rs::spec(cumsum, axes, flags);
            ckt::Array out("2 * 3 * ?float32");
            ASSERT_EQ(ck_accumulate(&r, out.get(), a.get(), nullptr), CK_OK) << ck_last_error();
            for (size_t i = 0; i < 6; i++) {
                EXPECT_NE(u32_at(out, i), kNaF32) << "axis " << axis << " element " << i;
            }
            EXPECT_EQ(u32_at(out, axis == 0 ? 3 : 1), kQuietF32) << axis;
        }
        ck_callable_decref(cumsum);
    }
    // a plain float64 source into ?float64, both axes
    ckt::Array p("2 * 2 * float64", "[[1, 2], [3, 4]]");
    put64(p, 0, kSnanF64);
    ck_callable *cumprod = rs::lookup(Kind::accumulate, "cumprod");
    for (int axis : {0, 1}) {
        const std::vector<int> axes = {axis};
        const ck_reduce_spec r = rs::spec(cumprod, axes, 0);
        ckt::Array out("2 * 2 * ?float64");
        ASSERT_EQ(ck_accumulate(&r, out.get(), p.get(), nullptr), CK_OK) << ck_last_error();
        for (size_t i = 0; i < 4; i++) {
            EXPECT_NE(u64_at(out, i), kNaF64) << "axis " << axis << " element " << i;
        }
    }
    ck_callable_decref(cumprod);
}

// minimum and maximum select an element, but float16's fold and scan compute in float32,
// which quiets a signalling NaN onto the NA's bits (0x7da2 -> 0x7fa2): the result is a NaN,
// never NA, for every float type, every axis, with and without skipna (a fuzzer's finding).
TEST_P(NaFromValues, MinimumAndMaximumNeverSelectValuesIntoNa) {
    using rs::Kind;
    struct Case {
        const char *type;
        size_t size;
        uint64_t snan, na;
    };
    const Case cases[] = {{"?float16", 2, 0x7da2u, 0x7fa2u},
                          {"?float32", 4, kSnanF32, kNaF32},
                          {"?float64", 8, kSnanF64, kNaF64}};
    for (const Case &t : cases) {
        const std::string type2 = std::string("2 * 2 * ") + t.type;
        for (Kind kind : {Kind::reduce, Kind::accumulate}) {
            for (const char *name : {"min", "max"}) {
                const std::string full =
                    kind == Kind::reduce ? name : std::string("cum") + name;
                ck_callable *c = rs::lookup(kind, full.c_str());
                for (unsigned flags : {0u, static_cast<unsigned>(CK_REDUCE_SKIPNA)}) {
                    for (int axis : {0, 1}) {
                        ckt::Array a(type2.c_str(), "[[0, 1], [2, 3]]");
                        ckt_put_low_bytes(reinterpret_cast<unsigned char *>(a.data()), t.snan, t.size);  // element [0][0]
                        const std::vector<int> axes = {axis};
                        const ck_reduce_spec r = rs::spec(c, axes, flags);
                        const bool acc = kind == Kind::accumulate;
                        ckt::Array out(acc ? type2.c_str()
                                           : (std::string("2 * ") + t.type).c_str());
                        ASSERT_EQ(acc ? ck_accumulate(&r, out.get(), a.get(), nullptr)
                                      : ck_reduce(&r, out.get(), a.get(), nullptr),
                                  CK_OK)
                            << ck_last_error();
                        const size_t n = acc ? 4 : 2;
                        for (size_t i = 0; i < n; i++) {
                            uint64_t bits = 0;
                            std::memcpy(&bits, out.data() + t.size * i, t.size);
                            EXPECT_NE(bits, t.na) << t.type << ' ' << full << " axis " << axis
                                                  << " skipna " << flags << " element " << i;
                        }
                        EXPECT_EQ(out.str().find("NA"), std::string::npos)
                            << t.type << ' ' << full << ' ' << out.str();
                    }
                }
                ck_callable_decref(c);
            }
        }
    }
}

TEST_P(NaFromValues, AnIntegersWrapOntoTheNaStillReadsAsNa) {
    // -2147483647 + -1 is INT32_MIN: the documented corner (nocheck; checked modes refuse it)
    ckt::Array c("2 * ?int32", "[-2147483647, 1]"), one("int32", "-1"), out("2 * ?int32");
    ck_callable *add = lookup("add");
    const ck_array *cd[2] = {c.get(), one.get()};
    ck_eval_ctx nocheck = ckt::ctx(CK_ERRMODE_NOCHECK);
    ASSERT_EQ(ck_call(add, out.get(), 2, cd, &nocheck), CK_OK) << ck_last_error();
    EXPECT_EQ(out.str(), "[NA, 0]");
    ck_callable_decref(add);
}

TEST(NaFromValuesBuild, EveryAllocationOfAKernelWithNaCanonMayFail) {
    using rs::Kind;
    // the na_canon kernel over an option scan, and reduce_option's own canonical NaN
    EXPECT_GT(rs::alloc_failure_points(Kind::accumulate, "cumsum", "2 * 3 * ?float64",
                                       "[[1, NA, 3], [4, 5, nan]]", {1}),
              0);
    EXPECT_GT(rs::alloc_failure_points(Kind::accumulate, "cumprod", "3 * 2 * ?complex64",
                                       "[[1, NA], [2j, 3], [NA, 1]]", {0}, CK_REDUCE_SKIPNA),
              0);
    EXPECT_GT(rs::alloc_failure_points(Kind::reduce, "sum", "2 * 3 * ?float32",
                                       "[[1, NA, 3], [4, 5, 6]]", {1}),
              0);
}

INSTANTIATE_TEST_SUITE_P(Targets, NaFromValues, ::testing::ValuesIn(ckt::kTargets),
                         [](const ::testing::TestParamInfo<ckt::Target> &i) {
                             return std::string(i.param.name);
                         });

}  // namespace
