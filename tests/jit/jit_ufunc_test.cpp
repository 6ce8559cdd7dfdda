// tests/jit/jit_ufunc_test.cpp: NumPy's functions compiled by the JIT (docs/design.md §11)
// give the composed kernel's bytes. Every LEAF and VMATH loop of leaves/math/ufunc_list.h
// whose operands and result the JIT computes (32/64-bit integers, float32, float64), called
// through its callable on special values, pairs of them, a value of every binade (signs,
// subnormals) and random bits (any NaN payload), under every CPU target cap this machine
// runs: the JIT kernel (CK_EVAL_JIT) against the composed one (CK_EVAL_NO_JIT), element by
// element, also over strided and broadcast operands; the same inside expressions (vector
// math, integer true division, constants); the loops it still declines, with their reasons;
// and the policy, which leaves nests that call vector math composed unless CK_EVAL_JIT asks.
// Tests skip, saying why, when this build or machine has no JIT.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "../callables/target_fixture.hpp"
#include "ckernel/ckernel.h"
#include "scalar_oracle.h"
#include "ckt.hpp"
#include "jit_support.hpp"
extern "C" {
#include "leaves/math/ufunc_list.h"
}

namespace {

// ---- the loops: every row of the table, the test's own filter of what the JIT compiles ----

struct Loop {
    const char *name, *impl;
    int nin;
    const char *in[2], *out;
};
#define KT_ROW(name, I, NIN, a, b, r) {#name, #I, NIN, {#a, #b}, #r},
#define KT_ROWS(name, ...) CK__UFL_##name(KT_ROW)
const Loop kAllLoops[] = {CK__UFUNC_LIST(KT_ROWS)};
#undef KT_ROWS
#undef KT_ROW

bool jit_type(const std::string &t) {
    return t == "int32" || t == "uint32" || t == "int64" || t == "uint64" || t == "float32" ||
           t == "float64";
}

// LEAF and VMATH loops over the JIT's types (CHECKED ones refuse some arguments with a status:
// not compiled).
std::vector<Loop> jit_loops() {
    std::vector<Loop> r;
    for (const Loop &l : kAllLoops) {
        const std::string impl = l.impl;
        if ((impl == "LEAF" || impl == "VMATH") && jit_type(l.in[0]) && jit_type(l.out) &&
            (l.nin == 1 || jit_type(l.in[1]))) {
            r.push_back(l);
        }
    }
    return r;
}

std::string text_of(const Loop &l) {
    std::string s = std::string(l.name) + " " + l.in[0];
    if (l.nin == 2) s += std::string(", ") + l.in[1];
    return s + " -> " + l.out;
}

// ---- values ----

// xorshift64*: the same bits in every run.
struct Bits {
    uint64_t s;
    explicit Bits(uint64_t seed) : s(seed) {}
    uint64_t next() {
        s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
};

uint64_t bits_of(double x) {
    uint64_t u;
    std::memcpy(&u, &x, 8);
    return u;
}
uint64_t bits_of(float x) {
    uint32_t u;
    std::memcpy(&u, &x, 4);
    return u;
}

// The special values of a type, as bits: IEEE's (zeros, infinities, NaNs of both signs and
// other payloads, subnormals, the extremes) and the arguments where vmath_ops.h corrects
// SLEEF (near exp's overflow, sinh and cosh past 88 and 709, tanh below 2^-12, arcsinh and
// arccosh of huge values, log1p near the top), for a float; the edges for an integer.
std::vector<uint64_t> specials(const std::string &t) {
    if (t == "float64") {
        std::vector<uint64_t> v = {0,
                                   0x8000000000000000ull,
                                   0x7ff0000000000000ull,
                                   0xfff0000000000000ull,
                                   0x7ff8000000000000ull,
                                   0xfff8000000000000ull,
                                   0x7ff0000000000001ull,
                                   0x7ff8dead0000beefull,
                                   0xfff4000000000123ull,
                                   1,
                                   0x800fffffffffffffull,
                                   0x0010000000000000ull,
                                   0x7fefffffffffffffull,
                                   0xffefffffffffffffull};
        for (double x : {1.0,
                         -1.0,
                         0.5,
                         2.0,
                         -2.0,
                         3.0,
                         10.0,
                         1e-300,
                         709.7827112,
                         709.782712,
                         709.782712893384,
                         709.7827128933841,
                         709.5,
                         -709.5,
                         710.0,
                         88.5,
                         -89.5,
                         1e-5,
                         3e-5,
                         1.4e154,
                         -1.4e154,
                         2e307,
                         1e308,
                         1e10,
                         1e-20,
                         0.75})
            v.push_back(bits_of(x));
        return v;
    }
    if (t == "float32") {
        std::vector<uint64_t> v = {0,          0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                   0xffc00000, 0x7f800001, 0x7fc0beef, 0xffa00123, 1,
                                   0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff};
        for (float x : {1.0f,  -1.0f,  0.5f,  2.0f,     -2.0f,     3.0f,   10.0f, 1e-30f,
                        88.5f, -88.7f, 89.5f, 0x1p-13f, -0x1p-14f, 1e-5f,  2e19f, -2e19f,
                        2e38f, 3e38f,  1e10f, 1e-20f,   1e15f,     1e-35f, 0.75f})
            v.push_back(bits_of(x));
        return v;
    }
    const int w = t.find("64") != std::string::npos ? 64 : 32;
    const uint64_t all = w == 64 ? ~uint64_t{0} : 0xffffffffull;
    return {0,
            1,
            2,
            3,
            7,
            31,
            32,
            63,
            64,
            all,
            all - 1,
            all - 6,
            uint64_t{1} << (w - 1),
            (uint64_t{1} << (w - 1)) - 1,
            1000,
            all - 999};
}

// Values across the ranges where vmath_ops.h corrects SLEEF, densely (a correction that
// changes no special value still changes some of these): sinh and cosh near float32's and
// float64's overflow, tanh's small arguments, exp's last finite binade.
std::vector<uint64_t> ranges(const std::string &t) {
    std::vector<uint64_t> v;
    for (int i = 0; i < 64; i++) {
        const double f = i / 64.0;
        if (t == "float32") {
            for (float x :
                 {88.0f + 1.5f * static_cast<float>(f), -88.0f - 1.5f * static_cast<float>(f),
                  std::ldexp(1.0f + static_cast<float>(f), -13 - i / 4)})
                v.push_back(bits_of(x));
        } else if (t == "float64") {
            for (double x : {709.0 + 1.5 * f, -709.0 - 1.5 * f, 709.7827111495575 + 1.8e-6 * f})
                v.push_back(bits_of(x));
        }
    }
    return v;
}

// Element k of a type's values (stream `seed`): specials, then (floats) one value of every
// binade with a random significand and sign, then random bits.
struct Values {
    std::vector<uint64_t> special;
    int width, mant;
    bool fl;
    explicit Values(const std::string &t) : special(specials(t)) {
        fl = t.rfind("float", 0) == 0;
        width = t.find("64") != std::string::npos ? 64 : 32;
        mant = width == 64 ? 52 : 23;
    }
    size_t binades() const { return fl ? size_t{1} << (width - 1 - mant) : 0; }
    uint64_t mask() const { return width == 64 ? ~uint64_t{0} : 0xffffffffull; }
    uint64_t binade(size_t e, Bits &r) const {
        const uint64_t x = r.next();
        return (uint64_t{e} << mant) | (x & ((uint64_t{1} << mant) - 1)) |
               ((x >> 63) << (width - 1));
    }
};

// n operand bytes of type t at element size es.
void put(std::vector<unsigned char> &buf, size_t i, uint64_t x, size_t es) {
    ckt_put_low_bytes(&buf[i * es], x, es);
}

// The operands of a loop: one array per operand, every special (pairs of them for two
// operands), every binade, random bits.
std::vector<std::vector<unsigned char>> operands(const Loop &l, size_t *count) {
    Values va(l.in[0]), vb(l.nin == 2 ? l.in[1] : l.in[0]);
    const size_t ea = va.width / 8, eb = vb.width / 8;
    const size_t pairs = l.nin == 2 ? va.special.size() * vb.special.size() : va.special.size();
    const size_t nb = va.binades() > vb.binades() ? va.binades() : vb.binades();
    const std::vector<uint64_t> dense = ranges(l.in[0]);
    const size_t n = pairs + nb + dense.size() + 1000;
    std::vector<std::vector<unsigned char>> r(l.nin);
    r[0].resize(n * ea);
    if (l.nin == 2) r[1].resize(n * eb);
    Bits ra(0x9E3779B97F4A7C15ull), rb(0xD1B54A32D192ED03ull);
    for (size_t i = 0; i < n; i++) {
        uint64_t a, b;
        if (i < pairs) {
            a = va.special[l.nin == 2 ? i / vb.special.size() : i];
            b = vb.special[i % vb.special.size()];
        } else if (i < pairs + nb) {
            const size_t k = i - pairs;
            a = va.fl ? va.binade(k % va.binades(), ra) : ra.next() & va.mask();
            b = vb.fl ? vb.binade(k % vb.binades(), rb) : rb.next() & vb.mask();
            if (!vb.fl) b = (rb.next() % 2) ? b : b % 70;  // small integers too (shifts, ldexp)
        } else if (i < pairs + nb + dense.size()) {
            a = dense[i - pairs - nb];
            b = vb.fl ? vb.binade(rb.next() % vb.binades(), rb) : rb.next() % 70;
        } else {
            a = ra.next() & va.mask();
            b = rb.next() & vb.mask();
        }
        put(r[0], i, a, ea);
        if (l.nin == 2) put(r[1], i, b, eb);
    }
    *count = n;
    return r;
}

size_t size_of(const std::string &scalar) {
    ck_type *t = nullptr;
    EXPECT_EQ(ck_type_parse(scalar.c_str(), &t), CK_OK) << scalar;
    const size_t n = t != nullptr ? ck_type_data_size(t) : 0;
    ck_type_decref(t);
    return n;
}

// ---- calls ----

struct Run {
    int rc = CK_OK;
    std::string decision, tree, message;
};

// c(src...) -> dst, 1-D arrays of n elements, each with its byte stride (0: broadcast).
Run call(ck_callable *c, const std::vector<std::string> &scalars, const std::string &out, size_t n,
         const std::vector<intptr_t> &strides, std::vector<char *> src, char *dst, unsigned flags) {
    Run r;
    std::vector<ck_type *> types;
    std::vector<ck_fixed_dim_arrmeta> metas(scalars.size() + 1);
    const std::string dims = std::to_string(n) + " * ";
    for (size_t k = 0; k <= scalars.size(); k++) {
        ck_type *t = nullptr;
        EXPECT_EQ(ck_type_parse((dims + (k < scalars.size() ? scalars[k] : out)).c_str(), &t),
                  CK_OK);
        types.push_back(t);
        metas[k] = {static_cast<intptr_t>(n),
                    k < scalars.size() ? strides[k] : static_cast<intptr_t>(size_of(out))};
    }
    std::vector<const ck_type *> st(types.begin(), types.end() - 1);
    std::vector<const char *> sm;
    for (size_t k = 0; k < scalars.size(); k++)
        sm.push_back(reinterpret_cast<const char *>(&metas[k]));
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = flags;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    r.rc = ck_make_call(
        &b, &off, c, types.back(), reinterpret_cast<const char *>(&metas[scalars.size()]),
        static_cast<int>(scalars.size()), st.data(), sm.data(), CK_REQUEST_SINGLE, &ctx);
    r.decision = ck_jit_last_decision();
    if (r.rc == CK_OK) {
        char *text = nullptr;
        if (ck_kernel_describe(ck_builder_root(&b), &text) == CK_OK) r.tree = text;
        ck_free(text);
        r.rc = ck_call_single(ck_builder_root(&b), dst, src.data());
    }
    r.message = r.rc == CK_OK ? "" : ck_last_error();
    ck_builder_destroy(&b);
    for (ck_type *t : types) ck_type_decref(t);
    return r;
}

bool compiled(const std::string &decision) {
    return decision.rfind("compiled in ", 0) == 0 || decision.rfind("cache hit", 0) == 0;
}

std::string hex(const unsigned char *p, size_t n) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (size_t i = n; i-- > 0;) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

// Layouts of the operands: contiguous; the first operand every other element and the
// second broadcast (one element, stride 0).
enum Layout { kContiguous, kStridedBroadcast };

// The loop's JIT kernel against its composed kernel, on its operands in `layout`: 0 when
// every byte agrees, else the number of elements that differ (the first reported).
int compare_loop(const Loop &l, Layout layout) {
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_lookup(l.name, &c), CK_OK) << l.name;
    if (c == nullptr) return 1;
    size_t n = 0;
    std::vector<std::vector<unsigned char>> ops = operands(l, &n);
    std::vector<std::string> scalars = {l.in[0]};
    if (l.nin == 2) scalars.push_back(l.in[1]);
    std::vector<intptr_t> strides;
    std::vector<char *> src;
    std::vector<std::vector<unsigned char>> spread(l.nin);
    for (int k = 0; k < l.nin; k++) {
        const size_t es = size_of(scalars[k]);
        if (layout == kContiguous) {
            strides.push_back(static_cast<intptr_t>(es));
            src.push_back(reinterpret_cast<char *>(ops[k].data()));
        } else if (k == 0) {
            spread[k].assign(2 * n * es, 0xA5);
            for (size_t i = 0; i < n; i++) std::memcpy(&spread[k][2 * i * es], &ops[k][i * es], es);
            strides.push_back(static_cast<intptr_t>(2 * es));
            src.push_back(reinterpret_cast<char *>(spread[k].data()));
        } else {
            strides.push_back(0);  // the 7th value: a special one (-0.0, or 7)
            src.push_back(reinterpret_cast<char *>(ops[k].data()) + 7 * es);
        }
    }
    const size_t eo = size_of(l.out);
    std::vector<unsigned char> d1(n * eo, 0x5A), d2(n * eo, 0xC3);
    const Run composed = call(c, scalars, l.out, n, strides, src,
                              reinterpret_cast<char *>(d1.data()), CK_EVAL_NO_JIT);
    const Run jitted = call(c, scalars, l.out, n, strides, src, reinterpret_cast<char *>(d2.data()),
                            CK_EVAL_JIT);
    ck_callable_decref(c);
    EXPECT_EQ(composed.rc, CK_OK) << text_of(l) << ": " << composed.message;
    EXPECT_EQ(jitted.rc, CK_OK) << text_of(l) << ": " << jitted.message;
    // The composed kernel is this loop's leaf (selection picked the loop), the JIT's a
    // direct call, but for the bitwise and logical functions, which it computes inline.
    EXPECT_NE(composed.tree.find(text_of(l) + " "), std::string::npos) << text_of(l) << ":\n"
                                                                       << composed.tree;
    EXPECT_TRUE(compiled(jitted.decision)) << text_of(l) << ": " << jitted.decision;
    static const std::set<std::string> inline_ops = {"bitwise_and", "bitwise_or", "bitwise_xor",
                                                     "invert", "logical_xor", "logical_not"};
    // A vector-math call is a program of its loads and the call, run in chunks.
    EXPECT_EQ(jitted.tree.find(" native call (") != std::string::npos ||
                  jitted.tree.find(" in chunks)") != std::string::npos,
              inline_ops.count(l.name) == 0)
        << text_of(l) << ":\n" << jitted.tree;
    int differ = 0;
    for (size_t i = 0; i < n; i++) {
        if (std::memcmp(&d1[i * eo], &d2[i * eo], eo) == 0) continue;
        if (differ++ == 0) {
            const size_t ea = size_of(l.in[0]);
            std::string args = hex(reinterpret_cast<const unsigned char *>(src[0]) +
                                       i * static_cast<size_t>(strides[0]),
                                   ea);
            if (l.nin == 2)
                args += ", " + hex(reinterpret_cast<const unsigned char *>(src[1]) +
                                       i * static_cast<size_t>(strides[1]),
                                   size_of(l.in[1]));
            ADD_FAILURE() << text_of(l) << (layout == kContiguous ? "" : " (strided, broadcast)")
                          << ": element " << i << " (" << args << "): composed "
                          << hex(&d1[i * eo], eo) << ", jit " << hex(&d2[i * eo], eo);
        }
    }
    if (differ > 0) ADD_FAILURE() << text_of(l) << ": " << differ << " of " << n << " differ";
    return differ;
}

// ---- every loop, under every target cap ----

class JitUfunc : public ckt::TargetCapped {};

TEST_P(JitUfunc, EveryCompiledLoopGivesTheComposedKernelsBytes) {
    REQUIRE_JIT();
    const std::vector<Loop> loops = jit_loops();
    // 181 today: the exact and transcendental functions' 32/64-bit loops, integer divide's.
    EXPECT_GT(loops.size(), 150u);
    int bad_loops = 0;
    for (const Loop &l : loops) bad_loops += compare_loop(l, kContiguous) != 0;
    EXPECT_EQ(bad_loops, 0);
}

INSTANTIATE_TEST_SUITE_P(Targets, JitUfunc, ::testing::ValuesIn(ckt::kTargets), ckt::target_name);

TEST(JitUfuncLayouts, StridedAndBroadcastOperandsGiveTheComposedKernelsBytes) {
    REQUIRE_JIT();
    int bad_loops = 0;
    for (const Loop &l : jit_loops()) bad_loops += compare_loop(l, kStridedBroadcast) != 0;
    EXPECT_EQ(bad_loops, 0);
}

// ---- expressions ----

struct ExprRun {
    int rc = CK_OK;
    std::string decision, message;
    std::vector<unsigned char> out;
};

// `text` over sources of scalar type `scalar` (n elements each, from the loop operands'
// generator), into its result type, with `flags`.
ExprRun eval(const char *text, const std::vector<std::string> &scalars,
             const std::vector<std::vector<unsigned char>> &data, size_t n, unsigned flags) {
    ExprRun r;
    static const char *const names[] = {"a", "b", "c"};
    ck_expr *e = nullptr;
    EXPECT_EQ(ck_expr_parse(text, &e), CK_OK) << text << ": " << ck_last_error();
    std::vector<ck_type *> types;
    std::vector<ck_fixed_dim_arrmeta> metas(scalars.size());
    for (size_t k = 0; k < scalars.size(); k++) {
        ck_type *t = nullptr;
        EXPECT_EQ(ck_type_parse((std::to_string(n) + " * " + scalars[k]).c_str(), &t), CK_OK);
        types.push_back(t);
        metas[k] = {static_cast<intptr_t>(n), static_cast<intptr_t>(size_of(scalars[k]))};
    }
    std::vector<const ck_type *> st(types.begin(), types.end());
    std::vector<const char *> sm;
    std::vector<char *> sd;
    for (size_t k = 0; k < scalars.size(); k++) {
        sm.push_back(reinterpret_cast<const char *>(&metas[k]));
        sd.push_back(const_cast<char *>(reinterpret_cast<const char *>(data[k].data())));
    }
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = flags;
    const int ns = static_cast<int>(scalars.size());
    ck_type *rt = nullptr;
    r.rc = ck_expr_result_type(e, ns, names, st.data(), &ctx, &rt);
    ck_array *out = nullptr;
    if (r.rc == CK_OK) r.rc = ck_array_new(rt, &out);
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    if (r.rc == CK_OK) {
        r.rc = ck_make_expr(&b, &off, e, rt, ck_array_arrmeta(out), ns, names, st.data(), sm.data(),
                            CK_REQUEST_SINGLE, &ctx);
        r.decision = ck_jit_last_decision();
    }
    if (r.rc == CK_OK) r.rc = ck_call_single(ck_builder_root(&b), ck_array_data(out), sd.data());
    if (r.rc == CK_OK) {
        const size_t bytes = ck_type_data_size(rt);
        r.out.assign(ck_array_data(out), ck_array_data(out) + bytes);
    }
    r.message = r.rc == CK_OK ? "" : ck_last_error();
    ck_builder_destroy(&b);
    ck_array_free(out);
    ck_type_decref(rt);
    for (ck_type *t : types) ck_type_decref(t);
    ck_expr_decref(e);
    return r;
}

// Sources for an expression: the operands of loop (name, t, t) and a third stream.
std::vector<std::vector<unsigned char>> expr_sources(const std::string &t, int count, size_t *n) {
    Loop l = {"x", "LEAF", 2, {t.c_str(), t.c_str()}, t.c_str()};
    std::vector<std::vector<unsigned char>> ops = operands(l, n);
    if (count == 3) {
        std::vector<unsigned char> c(ops[0].rbegin(), ops[0].rend());  // other bits again
        ops.push_back(c);
    }
    return ops;
}

bool is_nan(const std::string &t, const unsigned char *p) {
    if (t == "float64") {
        double x;
        std::memcpy(&x, p, 8);
        return std::isnan(x);
    }
    if (t == "float32") {
        float x;
        std::memcpy(&x, p, 4);
        return std::isnan(x);
    }
    return false;
}

bool nan_or_inf_source(const std::string &t, const std::vector<std::vector<unsigned char>> &src,
                       size_t i) {
    for (const auto &s : src) {
        if (t == "float64") {
            double x;
            std::memcpy(&x, &s[i * 8], 8);
            if (!std::isfinite(x)) return true;
        } else if (t == "float32") {
            float x;
            std::memcpy(&x, &s[i * 4], 4);
            if (!std::isfinite(x)) return true;
        }
    }
    return false;
}

TEST(JitUfuncExpr, ExpressionsOfNumPysFunctionsGiveTheComposedKernelsBytes) {
    REQUIRE_JIT();
    struct Case {
        const char *text, *type;
        int nsrc;
    };
    const Case cases[] = {
        {"exp(a) * b + sin(c)", "float64", 3},
        {"exp(a) * b + sin(c)", "float32", 3},
        {"log1p(a) - hypot(a, b) * arctan2(b, c)", "float32", 3},
        {"power(a, 2.5) + cosh(b) / tanh(c)", "float64", 3},
        {"logaddexp(a, b) - arcsinh(c) + float_power(a, 3)", "float64", 3},
        {"a / b", "int64", 2},
        {"a / b + b / 3", "int32", 2},
        {"floor_divide(a, b) + remainder(a, b) * gcd(a, b)", "int64", 2},
        {"floor(a) + sqrt(b) - ldexp(a, 3)", "float64", 2},
        {"minimum(cbrt(a), expm1(b)) + fmod(a, b)", "float32", 2},
        {"exp(a / b)", "int64", 2},
    };
    for (const Case &k : cases) {
        size_t n = 0;
        const auto src = expr_sources(k.type, k.nsrc, &n);
        const std::vector<std::string> scalars(k.nsrc, k.type);
        const ExprRun composed = eval(k.text, scalars, src, n, CK_EVAL_NO_JIT);
        const ExprRun jitted = eval(k.text, scalars, src, n, CK_EVAL_JIT);
        ASSERT_EQ(composed.rc, CK_OK) << k.text << " " << k.type << ": " << composed.message;
        ASSERT_EQ(jitted.rc, CK_OK) << k.text << " " << k.type << ": " << jitted.message;
        EXPECT_TRUE(compiled(jitted.decision))
            << k.text << " " << k.type << ": " << jitted.decision;
        ASSERT_EQ(composed.out.size(), jitted.out.size());
        size_t differ = 0, first = 0, nan_pairs = 0;
        const size_t eo = composed.out.size() / n;
        for (size_t i = 0; i < n; i++) {
            if (std::memcmp(&composed.out[i * eo], &jitted.out[i * eo], eo) == 0) continue;
            // Where an add or a multiply meets two NaNs, which one it returns is the
            // compiler's operand order (expr_jit_test.cpp's two_nan_operands): compared by
            // NaN-ness where some source is a NaN or an infinity (what makes two NaNs).
            if (is_nan(k.type, &composed.out[i * eo]) && is_nan(k.type, &jitted.out[i * eo]) &&
                nan_or_inf_source(k.type, src, i)) {
                nan_pairs++;
                continue;
            }
            if (differ++ == 0) first = i;
        }
        if (nan_pairs > 0)
            std::printf("%s %s: %zu NaNs of either sign\n", k.text, k.type, nan_pairs);
        EXPECT_EQ(differ, 0u) << k.text << " " << k.type << ": first at element " << first
                              << ": composed " << hex(&composed.out[first * eo], eo) << ", jit "
                              << hex(&jitted.out[first * eo], eo);
    }
}

// Integer true division by hand: int64 / int64 is float64 (NumPy's), a zero divisor IEEE's.
TEST(JitUfuncExpr, IntegerTrueDivisionCompilesToFloat64) {
    REQUIRE_JIT();
    const int64_t a[] = {7, -7, 1, 0, 0, INT64_MAX, INT64_MIN, 3};
    const int64_t b[] = {2, 2, 3, 0, 5, 1, -1, 0};
    std::vector<std::vector<unsigned char>> src(2);
    src[0].assign(reinterpret_cast<const unsigned char *>(a),
                  reinterpret_cast<const unsigned char *>(a) + sizeof a);
    src[1].assign(reinterpret_cast<const unsigned char *>(b),
                  reinterpret_cast<const unsigned char *>(b) + sizeof b);
    const ExprRun r = eval("a / b", {"int64", "int64"}, src, 8, CK_EVAL_JIT);
    ASSERT_EQ(r.rc, CK_OK) << r.message;
    EXPECT_TRUE(compiled(r.decision)) << r.decision;
    ASSERT_EQ(r.out.size(), 8 * sizeof(double));
    double d[8];
    std::memcpy(d, r.out.data(), sizeof d);
    EXPECT_EQ(d[0], 3.5);
    EXPECT_EQ(d[1], -3.5);
    EXPECT_EQ(d[2], 1.0 / 3.0);
    EXPECT_TRUE(std::isnan(d[3]));
    EXPECT_EQ(bits_of(d[4]), 0u);  // +0.0
    EXPECT_EQ(d[5], 9223372036854775808.0);
    EXPECT_EQ(d[6], 9223372036854775808.0);
    EXPECT_EQ(d[7], HUGE_VAL);
}

// ---- what stays declined ----

TEST(JitUfuncExpr, LoopsWithoutACompiledFormAreDeclinedWithTheirReason) {
    REQUIRE_JIT();
    struct Case {
        const char *text, *type, *why;
    };
    const Case cases[] = {
        // CHECKED: a negative exponent is CK_ERR_DOMAIN at its element.
        {"power(a, b)", "int64", "power has no compiled form for (int64, int64) -> int64"},
        // Narrow integers: no direct call of a C function.
        {"a / b", "int8", "divide has no compiled form for (int8, int8) -> float64"},
        // float16 computes in float32: no direct call of float16.
        {"exp(a) + b", "float16", "exp has no compiled form for (float16) -> float16"},
    };
    for (const Case &k : cases) {
        const size_t n = 16;
        std::vector<std::vector<unsigned char>> src(2);
        for (auto &s : src) s.assign(n * size_of(k.type), 1);
        const ExprRun r = eval(k.text, {k.type, k.type}, src, n, CK_EVAL_JIT);
        EXPECT_EQ(r.rc, CK_OK) << k.text << ": " << r.message;
        EXPECT_EQ(r.decision.rfind("not used: ", 0), 0u) << k.text << ": " << r.decision;
        EXPECT_NE(r.decision.find(k.why), std::string::npos) << k.text << ": " << r.decision;
    }
}

// ---- the policy ----

// A nest of short rows built again with enough work compiles by itself, unless it calls
// vector math (a call per element is slower than the vector leaf): then it stays composed,
// saying so, even once CK_EVAL_JIT has compiled it; CK_EVAL_JIT still compiles it.
TEST(JitUfuncPolicy, NestsThatCallVectorMathFollowTheUsualPolicy) {
    REQUIRE_JIT();
    ck_type *t = nullptr;
    ASSERT_EQ(ck_type_parse("2097152 * 2 * float64", &t), CK_OK);
    // Row strides no other test uses: the nests are new to this process.
    const ck_fixed_dim_arrmeta sm[2] = {{2097152, 40}, {2, 8}}, dm[2] = {{2097152, 16}, {2, 8}};
    auto build = [&](const char *fn, unsigned flags) {
        ck_callable *c = nullptr;
        EXPECT_EQ(ck_lookup(fn, &c), CK_OK);
        const ck_type *st[] = {t};
        const char *smeta[] = {reinterpret_cast<const char *>(sm)};
        ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
        ctx.flags = flags;
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        EXPECT_EQ(ck_make_call(&b, &off, c, t, reinterpret_cast<const char *>(dm), 1, st, smeta,
                               CK_REQUEST_SINGLE, &ctx),
                  CK_OK)
            << ck_last_error();
        const std::string d = ck_jit_last_decision();
        ck_builder_destroy(&b);
        ck_callable_decref(c);
        return d;
    };
    // A vector-math call runs in chunks as fast as its leaf: the usual policy, as for an exact
    // function's direct call (first builds composed, compiled once built again with enough
    // work).
    for (const char *fn : {"exp", "floor"}) {
        std::vector<std::string> d;
        for (int i = 0; i < 4; i++) d.push_back(build(fn, 0));
        EXPECT_EQ(d[0], "not used: first build of this nest (it compiles when built again "
                        "with enough work)")
            << fn;
        EXPECT_TRUE(compiled(d[3])) << fn << ": " << d[3];
    }
    // In an expression too: its first build is composed as any.
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("floor(a) + sin(a)", &e), CK_OK);
    const char *names[] = {"a"};
    const ck_type *st[] = {t};
    const char *smeta[] = {reinterpret_cast<const char *>(sm)};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_expr(&b, &off, e, t, reinterpret_cast<const char *>(dm), 1, names, st, smeta,
                           CK_REQUEST_SINGLE, nullptr),
              CK_OK)
        << ck_last_error();
    EXPECT_EQ(std::string(ck_jit_last_decision()),
              "not used: first build of this nest (it compiles when built again with enough "
              "work)");
    ck_builder_destroy(&b);
    ck_expr_decref(e);
    ck_type_decref(t);
}

}  // namespace
