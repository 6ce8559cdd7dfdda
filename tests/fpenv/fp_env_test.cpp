// tests/fpenv/fp_env_test.cpp: kernels run in the IEEE default floating-point environment
// whatever mode the calling thread holds. Each case computes its bytes through the public
// API; the reference is the same case in the default mode, itself pinned by hand-computed IEEE
// values (a float32 subnormal, 1e-300 / 1e10, 0.1 + 0.2). Then every mode (FTZ+DAZ, each
// rounding direction, combinations) is set in the calling thread and every case must give the
// reference bytes, on every CPU target the machine runs and in the JIT; the caller's mode
// comes back and the flags the work raised are added to the caller's.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "ckt_array.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace {

// ---- the calling thread's mode: FTZ/DAZ (where the machine has them) and rounding ----
struct Mode {
    const char *name;
    bool flush;    // flush to zero and denormals are zero
    int rounding;  // FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO
};

#if defined(__x86_64__) || defined(__i386__)
constexpr bool kHaveFlush = true;
unsigned control() { return _mm_getcsr() & ~0x3Fu; }
void set_mode(const Mode &m) {
    unsigned rc = 0;
    switch (m.rounding) {
    case FE_DOWNWARD: rc = 1; break;
    case FE_UPWARD: rc = 2; break;
    case FE_TOWARDZERO: rc = 3; break;
    default: rc = 0; break;
    }
    _mm_setcsr((_mm_getcsr() & 0x3Fu) | 0x1F80u | (rc << 13) | (m.flush ? 0x8040u : 0u));
}
#elif defined(__aarch64__)
constexpr bool kHaveFlush = true;
uint64_t fpcr() {
    uint64_t r;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(r));
    return r;
}
unsigned control() { return static_cast<unsigned>(fpcr()); }
void set_mode(const Mode &m) {
    uint64_t rm = 0;
    switch (m.rounding) {
    case FE_UPWARD: rm = 1; break;
    case FE_DOWNWARD: rm = 2; break;
    case FE_TOWARDZERO: rm = 3; break;
    default: rm = 0; break;
    }
    const uint64_t v = (rm << 22) | (m.flush ? (uint64_t{1} << 24) : 0u);
    __asm__ __volatile__("msr fpcr, %0" : : "r"(v));
}
#else
constexpr bool kHaveFlush = false;
unsigned control() { return static_cast<unsigned>(std::fegetround()); }
void set_mode(const Mode &m) { std::fesetround(m.rounding); }
#endif

const Mode kDefault = {"default", false, FE_TONEAREST};
const Mode kModes[] = {
    {"ftz+daz", true, FE_TONEAREST},        {"upward", false, FE_UPWARD},
    {"downward", false, FE_DOWNWARD},       {"toward zero", false, FE_TOWARDZERO},
    {"ftz+daz upward", true, FE_UPWARD},    {"ftz+daz toward zero", true, FE_TOWARDZERO},
    {"ftz+daz downward", true, FE_DOWNWARD},
};

// ---- the inputs: subnormals, results that round differently in each direction ----
const double kA[] = {1e-300, 1e-310, 0.1, 1.0 / 3.0, -2.5e-308, 1e308, 7.0, -0.0};
const double kB[] = {1e10, 3.0, 0.2, 3.0, 1e-5, 10.0, 1e-320, 1e-30};
const double kC[] = {1e-320, -1e-310, 0.3, 1e-17, 2.5e-308, -1e308, 0.1, 5e-324};
constexpr size_t kN = sizeof kA / sizeof kA[0];

// A float64 array of n values cycling through v (n large enough for several CPU-sized runs).
void fill(const ckt::Array &a, const double *v, size_t n) {
    auto *p = reinterpret_cast<double *>(a.data());
    for (size_t i = 0; i < n; ++i) p[i] = v[i % kN] * (1.0 + static_cast<double>(i / kN) * 0x1p-20);
}

std::string bytes(const ckt::Array &a) {
    return std::string(a.data(), ck_type_data_size(ck_array_type(a.get())));
}

constexpr size_t kLen = 4099;  // odd: vector bodies and their tails
const std::string kShape = std::to_string(kLen) + " * ";

struct Inputs {
    ckt::Array a{(kShape + "float64").c_str()}, b{(kShape + "float64").c_str()},
        c{(kShape + "float64").c_str()};
    Inputs() {
        fill(a, kA, kLen);
        fill(b, kB, kLen);
        fill(c, kC, kLen);
    }
};

// One case: its name and the bytes it computes now (empty: it could not run, and why).
struct Case {
    std::string name;
    std::function<std::string(const Inputs &)> run;
};

std::string call(const char *name, const char *out_type, const Inputs &in, int nsrc,
                 unsigned flags = 0) {
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_lookup(name, &c), CK_OK) << name;
    ckt::Array dst((kShape + out_type).c_str());
    const ck_array *src[] = {in.a.get(), in.b.get(), in.c.get()};
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = CK_ERRMODE_NOCHECK;
    ctx.flags = flags;
    EXPECT_EQ(ck_call(c, dst.get(), nsrc, src, &ctx), CK_OK) << name << ": " << ck_last_error();
    ck_callable_decref(c);
    return bytes(dst);
}

std::string expr(const char *text, const Inputs &in, unsigned flags, bool parallel = false) {
    ck_expr *e = nullptr;
    EXPECT_EQ(ck_expr_parse(text, &e), CK_OK) << text;
    ckt::Array dst((kShape + "float64").c_str());
    const char *names[] = {"a", "b", "c"};
    const ck_array *src[] = {in.a.get(), in.b.get(), in.c.get()};
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = flags;
    if (parallel) ctx.max_threads = 2, ctx.grain_bytes = 1024;
    const int rc = parallel ? ck_parallel_expr(e, dst.get(), 3, names, src, &ctx)
                            : ck_expr_eval(e, dst.get(), 3, names, src, &ctx);
    EXPECT_EQ(rc, CK_OK) << text << ": " << ck_last_error();
    ck_expr_decref(e);
    return bytes(dst);
}

std::vector<Case> cases() {
    std::vector<Case> v;
    v.push_back({"assign float64 -> float32", [](const Inputs &in) {
                     ckt::Array dst((kShape + "float32").c_str());
                     ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
                     ctx.errmode = CK_ERRMODE_NOCHECK;
                     EXPECT_EQ(ck_assign(dst.get(), in.c.get(), &ctx), CK_OK) << ck_last_error();
                     ckt::Array d2((kShape + "float32").c_str());
                     EXPECT_EQ(ck_assign(d2.get(), in.a.get(), &ctx), CK_OK);
                     return bytes(dst) + bytes(d2);
                 }});
    for (const char *f : {"add", "multiply", "divide", "subtract"}) {
        v.push_back({std::string("call ") + f, [f](const Inputs &in) {
                         return call(f, "float64", in, 2);
                     }});
    }
    for (const char *f : {"sqrt", "exp", "sin", "log1p", "cbrt"}) {
        v.push_back({std::string("call ") + f, [f](const Inputs &in) {
                         return call(f, "float64", in, 1);
                     }});
    }
    v.push_back({"call hypot", [](const Inputs &in) { return call("hypot", "float64", in, 2); }});
    v.push_back({"expression composed", [](const Inputs &in) {
                     return expr("a * b + c / 3 - sqrt(b)", in, CK_EVAL_NO_JIT);
                 }});
    v.push_back({"expression on 2 threads", [](const Inputs &in) {
                     return expr("a * b + c / 3", in, CK_EVAL_NO_JIT, true);
                 }});
    v.push_back({"reduce sum", [](const Inputs &in) {
                     ck_callable *s = nullptr;
                     EXPECT_EQ(ck_reduction_lookup("sum", &s), CK_OK);
                     ck_reduce_spec spec = {s, nullptr, 0, 0};
                     ck_array *out = nullptr;
                     EXPECT_EQ(ck_reduce_new(&spec, in.b.get(), nullptr, &out), CK_OK)
                         << ck_last_error();
                     std::string r(ck_array_data(out), 8);
                     ck_array_free(out);
                     ck_callable_decref(s);
                     return r;
                 }});
    v.push_back({"accumulate cumsum", [](const Inputs &in) {
                     ck_callable *s = nullptr;
                     EXPECT_EQ(ck_accumulation_lookup("cumsum", &s), CK_OK);
                     int axis = 0;
                     ck_reduce_spec spec = {s, &axis, 1, 0};
                     ck_array *out = nullptr;
                     EXPECT_EQ(ck_accumulate_new(&spec, in.c.get(), nullptr, &out), CK_OK)
                         << ck_last_error();
                     std::string r(ck_array_data(out), ck_type_data_size(ck_array_type(out)));
                     ck_array_free(out);
                     ck_callable_decref(s);
                     return r;
                 }});
    v.push_back({"number text", [](const Inputs &in) {
                     ckt::Array t(("8 * string"));
                     ckt::Array head("8 * float64");
                     std::memcpy(head.data(), in.a.data(), 64);
                     EXPECT_EQ(ck_assign(t.get(), head.get(), nullptr), CK_OK) << ck_last_error();
                     ckt::Array back("8 * float64");
                     EXPECT_EQ(ck_assign(back.get(), t.get(), nullptr), CK_OK) << ck_last_error();
                     return t.str() + bytes(back);
                 }});
    return v;
}

class FpEnv : public ::testing::Test {
  protected:
    void TearDown() override {
        set_mode(kDefault);
        EXPECT_EQ(ck_cpu_set_target_cap(ckt::best_compiled_target()), CK_OK);
    }
};

TEST_F(FpEnv, TheDefaultModesResultsAreIeees) {
    // The reference pinned by hand: float32(1e-320 * (1 + 0)) is 0 (below float32's range),
    // float32(1e-40)'s neighbourhood is a subnormal; 1e-300 / 1e10 is the subnormal 1e-310;
    // 0.1 + 0.2 is 0x3FD3333333333334.
    Inputs in;
    const std::string div = call("divide", "float64", in, 2), add = call("add", "float64", in, 2);
    double q, s;
    std::memcpy(&q, div.data(), 8);
    EXPECT_EQ(q, 1e-300 / 1e10);
    EXPECT_TRUE(std::fpclassify(q) == FP_SUBNORMAL) << q;
    std::memcpy(&s, add.data() + 2 * 8, 8);
    uint64_t bits;
    std::memcpy(&bits, &s, 8);
    EXPECT_EQ(bits, 0x3FD3333333333334u);
    ckt::Array one("float64", "1e-40"), f("float32");
    EXPECT_EQ(ck_assign(f.get(), one.get(), nullptr), CK_OK);
    uint32_t fb;
    std::memcpy(&fb, f.data(), 4);
    EXPECT_EQ(fb, 0x000116C2u);  // 1e-40 / 2^-149 = 71362.38: the subnormal 71362
}

// Every case in every mode, against the default mode's bytes, on `target`.
void expect_every_mode(const char *target_name) {
    Inputs in;
    for (const Case &c : cases()) {
        const std::string want = c.run(in);
        for (const Mode &m : kModes) {
            if (m.flush && !kHaveFlush) continue;
            set_mode(m);
            const unsigned set = control();
            const std::string got = c.run(in);
            const unsigned after = control();
            set_mode(kDefault);
            EXPECT_EQ(after, set) << c.name << " under " << m.name << ": the caller's mode changed";
            EXPECT_TRUE(got == want) << c.name << " under " << m.name << " [" << target_name
                                     << "]: other bytes than in the IEEE default";
        }
    }
}

TEST_F(FpEnv, EveryFamilyGivesTheIeeeBytesInEveryModeOnEveryTarget) {
    int ran = 0;
    for (const ck_cpu_target target : ckt::runnable_targets()) {
        ASSERT_EQ(ck_cpu_set_target_cap(target), CK_OK);
        SCOPED_TRACE(ck_cpu_target_name(target));
        expect_every_mode(ck_cpu_target_name(target));
        ++ran;
    }
    EXPECT_GE(ran, 1);
}

TEST_F(FpEnv, TheJitGivesTheIeeeBytesInEveryMode) {
    Inputs in;
    const char *text = "a * b + c / 3 - b * b";
    const std::string want = expr(text, in, CK_EVAL_NO_JIT);
    const std::string jit = expr(text, in, CK_EVAL_JIT);
    const std::string decision = ck_jit_last_decision();
    if (decision.rfind("compiled", 0) != 0 && decision.rfind("cache hit", 0) != 0) {
        GTEST_SKIP() << "the JIT did not compile the nest here: " << decision;
    }
    EXPECT_TRUE(jit == want) << "the compiled nest differs from the composed kernel";
    for (const Mode &m : kModes) {
        if (m.flush && !kHaveFlush) continue;
        set_mode(m);
        const std::string got = expr(text, in, CK_EVAL_JIT);
        set_mode(kDefault);
        EXPECT_TRUE(got == want) << "the JIT under " << m.name;
    }
}

TEST_F(FpEnv, TheFlagsTheWorkRaisedAreAddedToTheCallers) {
    Inputs in;
    for (const Mode &m : {kDefault, kModes[0], kModes[1]}) {
        if (m.flush && !kHaveFlush) continue;
        SCOPED_TRACE(m.name);
        set_mode(m);
        std::feclearexcept(FE_ALL_EXCEPT);
        volatile double big = 1e308;
        volatile double over = big * 10.0;  // the caller's own: overflow (and inexact)
        (void)over;
        ASSERT_TRUE(std::fetestexcept(FE_OVERFLOW));
        // 7 / 1e-320 overflows too, but 1e308 / ... no: divide b by a gives a division of
        // finite values only; a division by zero comes from 1 / (a - a).
        ck_expr *e = nullptr;
        ASSERT_EQ(ck_expr_parse("1 / (a - a)", &e), CK_OK);
        ckt::Array dst((kShape + "float64").c_str());
        const ck_array *src[] = {in.a.get()};
        EXPECT_EQ(ck_expr_eval(e, dst.get(), 1, nullptr, src, nullptr), CK_OK) << ck_last_error();
        ck_expr_decref(e);
        const int raised = std::fetestexcept(FE_ALL_EXCEPT);
        set_mode(kDefault);
        EXPECT_TRUE(raised & FE_OVERFLOW) << "the caller's own flag was lost";
        EXPECT_TRUE(raised & FE_DIVBYZERO) << "the kernel's division by zero is not the caller's";
        std::feclearexcept(FE_ALL_EXCEPT);
    }
}

TEST_F(FpEnv, TheHostsModeIsKeptWhenAskedFor) {
    // CK_EVAL_HOST_FP_ENV: the kernel runs in the caller's mode (here upward: 1/3 rounds up).
    Inputs in;
    const std::string nearest = call("divide", "float64", in, 2);
    set_mode(kModes[1]);
    const std::string host = call("divide", "float64", in, 2, CK_EVAL_HOST_FP_ENV);
    const std::string ieee = call("divide", "float64", in, 2);
    set_mode(kDefault);
    EXPECT_TRUE(ieee == nearest);
    EXPECT_FALSE(host == nearest) << "the caller's upward rounding did not reach the kernel";
    // Element by element, the hardware's own quotients in each mode (the test's divisions).
    const auto *x = reinterpret_cast<const double *>(in.a.data());
    const auto *y = reinterpret_cast<const double *>(in.b.data());
    std::vector<double> up(kLen), near(kLen);
    set_mode(kModes[1]);
    for (size_t i = 0; i < kLen; ++i) {
        volatile double p = x[i], q = y[i];
        up[i] = p / q;
    }
    set_mode(kDefault);
    for (size_t i = 0; i < kLen; ++i) {
        volatile double p = x[i], q = y[i];
        near[i] = p / q;
    }
    EXPECT_EQ(std::memcmp(host.data(), up.data(), kLen * 8), 0) << "not the upward quotients";
    EXPECT_EQ(std::memcmp(nearest.data(), near.data(), kLen * 8), 0);
}

TEST_F(FpEnv, FlushDenormalsIsAnOptInOnEveryCall) {
    if (!kHaveFlush) GTEST_SKIP() << "no flush-to-zero mode on this architecture";
    // CK_EVAL_FLUSH_DENORMALS flushes in a serial call too; without it the caller's FTZ does
    // not reach the kernel.
    Inputs in;
    const unsigned before = control();
    const std::string flushed = call("divide", "float64", in, 2, CK_EVAL_FLUSH_DENORMALS);
    EXPECT_EQ(control(), before) << "the caller's mode came back";
    double q;
    std::memcpy(&q, flushed.data(), 8);
    EXPECT_EQ(q, 0.0) << "1e-300 / 1e10 under FTZ";
    set_mode(kModes[0]);
    const std::string kept = call("divide", "float64", in, 2);
    set_mode(kDefault);
    std::memcpy(&q, kept.data(), 8);
    EXPECT_EQ(q, 1e-300 / 1e10) << "the caller's FTZ reached the kernel";
}

}  // namespace
