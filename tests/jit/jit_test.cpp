// tests/jit/jit_test.cpp: the JIT leaf (docs/design.md §11) through the public API: every
// compiled nest gives the composed kernel's bytes, status and message (random shapes,
// strides, types and error modes), the cache shares code and frees it with the last kernel,
// calls of built-ins compile with their argument casts fused, allocation failure at every
// point of a JIT build, concurrent compiles and cache hits (TSan runs this suite too). Tests
// skip, saying why, when this build or machine has no JIT.
#include <algorithm>
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "jit_support.hpp"

namespace {

const ck_type_id kTypes[] = {CK_TYPE_INT8,   CK_TYPE_INT16,   CK_TYPE_INT32,   CK_TYPE_INT64,
                             CK_TYPE_UINT8,  CK_TYPE_UINT16,  CK_TYPE_UINT32,  CK_TYPE_UINT64,
                             CK_TYPE_FLOAT32, CK_TYPE_FLOAT64, CK_TYPE_FLOAT16, CK_TYPE_BOOL,
                             CK_TYPE_COMPLEX64};

size_t size_of(ck_type_id id) {
    return ck_type_data_size(ck_type_scalar(id));
}

// A strided view: a type "n0 * n1 * ... * T" with arrmeta of chosen strides, over a guarded
// buffer that holds every element it reaches.
struct View {
    std::vector<intptr_t> shape, strides;
    ck_type_id id;
    ck_type *type = nullptr;
    std::vector<ck_fixed_dim_arrmeta> meta;
    std::vector<unsigned char> buf;
    size_t origin = 0; // byte offset of element 0 in buf

    View(std::vector<intptr_t> shp, std::vector<intptr_t> str, ck_type_id t)
        : shape(std::move(shp)), strides(std::move(str)), id(t) {
        const ck_type *cur = ck_type_scalar(id);
        ck_type_incref(cur);
        for (size_t i = shape.size(); i-- > 0 && cur != nullptr;) {
            ck_type *outer = nullptr;
            ck_type_make_fixed_dim(shape[i], cur, &outer); // NULL on failure: the caller checks
            ck_type_decref(cur);
            cur = outer;
        }
        type = const_cast<ck_type *>(cur);
        for (size_t i = 0; i < shape.size(); ++i) meta.push_back({shape[i], strides[i]});
        intptr_t lo = 0, hi = 0;
        for (size_t i = 0; i < shape.size(); ++i) {
            const intptr_t span = (shape[i] - 1) * strides[i];
            (span < 0 ? lo : hi) += span;
        }
        const size_t guard = 64;
        origin = guard + static_cast<size_t>(-lo);
        origin = (origin + 15) & ~size_t(15);
        buf.assign(origin + static_cast<size_t>(hi) + size_of(id) + guard, 0xA5);
    }
    ~View() { ck_type_decref(type); }
    char *data() { return reinterpret_cast<char *>(buf.data() + origin); }
    const char *arrmeta() const { return reinterpret_cast<const char *>(meta.data()); }
};

struct Built {
    int rc;
    std::string message, decision, tree;
};

Built run(const View &d, View &dst, const View &s, ck_errmode mode, unsigned flags) {
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = mode;
    ctx.flags = flags;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    Built r;
    r.rc = ck_make_assign(&b, &off, d.type, d.arrmeta(), s.type, s.arrmeta(), CK_REQUEST_SINGLE,
                          &ctx);
    r.decision = ck_jit_last_decision();
    if (r.rc == CK_OK) {
        char *text = nullptr;
        if (ck_kernel_describe(ck_builder_root(&b), &text) == CK_OK) r.tree = text;
        ck_free(text);
        char *sp = const_cast<View &>(s).data();
        r.rc = ck_call_single(ck_builder_root(&b), dst.data(), &sp);
    }
    r.message = r.rc == CK_OK ? "" : ck_last_error();
    ck_builder_destroy(&b);
    return r;
}

// Builds c(a, b) into d with `flags` and `mode` and runs it; returns the kernel tree. The
// run must succeed, unless *run_rc is given to take its status.
std::string run_call(ck_callable *c, View &a, View &b, View &d, unsigned flags,
                     ck_errmode mode = CK_ERRMODE_FRACTIONAL, int *run_rc = nullptr) {
    const ck_type *types[] = {a.type, b.type};
    const char *metas[] = {a.arrmeta(), b.arrmeta()};
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = flags;
    ctx.errmode = mode;
    ck_builder k;
    ck_builder_init(&k);
    size_t off = 0;
    std::string t;
    int rc = ck_make_call(&k, &off, c, d.type, d.arrmeta(), 2, types, metas, CK_REQUEST_SINGLE,
                          &ctx);
    EXPECT_EQ(rc, CK_OK) << ck_last_error();
    char *text = nullptr;
    if (rc == CK_OK && ck_kernel_describe(ck_builder_root(&k), &text) == CK_OK) t = text;
    ck_free(text);
    char *srcs[] = {a.data(), b.data()};
    if (rc == CK_OK) {
        rc = ck_call_single(ck_builder_root(&k), d.data(), srcs);
        if (run_rc != nullptr) {
            *run_rc = rc;
        } else {
            EXPECT_EQ(rc, CK_OK) << ck_last_error();
        }
    }
    ck_builder_destroy(&k);
    return t;
}

TEST(Jit, CompiledNestsGiveTheComposedKernelsBytesStatusesAndMessages) {
    REQUIRE_JIT();
    std::mt19937_64 rng(20261123);
    int compiled = 0, declined = 0, failures = 0;
    for (int c = 0; c < 120; ++c) {
        const ck_type_id st = kTypes[rng() % 13], dt = kTypes[rng() % 13];
        const int nd = 1 + static_cast<int>(rng() % 3);
        std::vector<intptr_t> shape, ds, ss;
        for (int i = 0; i < nd; ++i) shape.push_back(1 + static_cast<intptr_t>(rng() % 6));
        if (rng() % 3 == 0) shape[0] = 200; // a long outer run
        // Destination: C order with random padding; source: random order, sign and broadcast.
        intptr_t step = static_cast<intptr_t>(size_of(dt));
        ds.assign(nd, 0);
        for (int i = nd; i-- > 0;) {
            ds[i] = step;
            step *= shape[i] + static_cast<intptr_t>(rng() % 2);
        }
        step = static_cast<intptr_t>(size_of(st));
        ss.assign(nd, 0);
        for (int i = nd; i-- > 0;) {
            const int how = static_cast<int>(rng() % 5);
            ss[i] = how == 0 ? 0 : (how == 1 ? -step : step);
            step *= shape[i] + static_cast<intptr_t>(rng() % 3);
        }
        View src(shape, ss, st), a(shape, ds, dt), b(shape, ds, dt);
        for (auto &x : src.buf) x = static_cast<unsigned char>(rng());
        // Mostly small values, so checked modes succeed often: zero the high bytes of half.
        if (rng() % 2 == 0 && size_of(st) > 1)
            for (size_t k = 0; k < src.buf.size(); ++k)
                if (k % size_of(st) != 0) src.buf[k] = 0;
        const ck_errmode mode = static_cast<ck_errmode>(rng() % 4);
        const Built composed = run(a, a, src, mode, CK_EVAL_NO_JIT);
        const Built jitted = run(b, b, src, mode, CK_EVAL_JIT);
        const bool used = jitted.tree.rfind("jit @0", 0) == 0;
        (used ? compiled : declined)++;
        const std::string what = std::string(ck_type_id_name(st)) + " -> " + ck_type_id_name(dt) +
                                 " mode " + ck_errmode_name(mode) + " case " + std::to_string(c);
        EXPECT_EQ(jitted.rc, composed.rc) << what << "\n" << jitted.tree << composed.message;
        EXPECT_EQ(jitted.message, composed.message) << what;
        if (composed.rc == CK_OK) {
            if (a.buf != b.buf) {
                ++failures;
                ADD_FAILURE() << what << ": bytes differ\n" << jitted.tree;
            }
        } else {
            // Guards are never written either way.
            EXPECT_EQ(b.buf.front(), 0xA5);
            EXPECT_EQ(b.buf.back(), 0xA5);
        }
        if (!used) {
            EXPECT_NE(jitted.decision.find("not used"), std::string::npos) << what;
        }
    }
    EXPECT_GT(compiled, 40) << "declined " << declined;
    EXPECT_EQ(failures, 0);
}

TEST(Jit, CheckedModesFailAtTheSameElementWithTheSameMessage) {
    REQUIRE_JIT();
    // float64 -> int16 in every checked mode, one bad value at a known place in a 50 x 3
    // nest: the status and message name that value; elements before it in order are equal.
    for (int mode = CK_ERRMODE_OVERFLOW; mode <= CK_ERRMODE_INEXACT; ++mode) {
        for (double bad : {40000.0, -1e300, 2.5, std::nan("")}) {
            View src({50, 3}, {32, 8}, CK_TYPE_FLOAT64), a({50, 3}, {6, 2}, CK_TYPE_INT16),
                b({50, 3}, {6, 2}, CK_TYPE_INT16);
            double *s = reinterpret_cast<double *>(src.data());
            for (int i = 0; i < 50; ++i)
                for (int j = 0; j < 3; ++j) s[i * 4 + j] = i * 3 + j - 70;
            s[37 * 4 + 1] = bad;
            const Built composed = run(a, a, src, static_cast<ck_errmode>(mode), CK_EVAL_NO_JIT);
            const Built jitted = run(b, b, src, static_cast<ck_errmode>(mode), CK_EVAL_JIT);
            ASSERT_EQ(jitted.tree.rfind("jit @0", 0), 0u) << jitted.decision;
            const bool refused = !(mode < CK_ERRMODE_FRACTIONAL && bad == 2.5);
            EXPECT_EQ(composed.rc != CK_OK, refused) << bad;
            EXPECT_EQ(jitted.rc, composed.rc) << bad << " mode " << mode;
            EXPECT_EQ(jitted.message, composed.message);
            // Every row before the failing one is written by both.
            EXPECT_EQ(std::memcmp(a.data(), b.data(), 37 * 6), 0);
        }
    }
}

TEST(Jit, CodeIsSharedByEqualNestsAndRetainedAfterTheLastKernel) {
    REQUIRE_JIT();
    ck_jit_info before;
    ck_jit_get_info(&before);
    View src({300, 3}, {8, 2}, CK_TYPE_INT16), dst({300, 3}, {12, 4}, CK_TYPE_FLOAT32);
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = CK_EVAL_JIT;
    std::vector<ck_builder> kernels(3);
    for (auto &b : kernels) {
        ck_builder_init(&b);
        size_t off = 0;
        ASSERT_EQ(ck_make_assign(&b, &off, dst.type, dst.arrmeta(), src.type, src.arrmeta(),
                                 CK_REQUEST_SINGLE, &ctx),
                  CK_OK);
    }
    ck_jit_info mid;
    ck_jit_get_info(&mid);
    EXPECT_EQ(mid.cached_codes, before.cached_codes + 1) << "one code for three kernels";
    EXPECT_EQ(mid.compiles, before.compiles + 1);
    EXPECT_EQ(std::string(ck_jit_last_decision()).rfind("cache hit", 0), 0u);
    for (auto &b : kernels) ck_builder_destroy(&b);
    ck_jit_info after;
    ck_jit_get_info(&after);
    EXPECT_EQ(after.cached_codes, before.cached_codes) << "no kernel holds it";
    EXPECT_EQ(after.retained_codes, std::min<size_t>(before.retained_codes + 1, 64))
        << "kept for the next build";
    // Built again: the retained code, no compile.
    ck_builder again;
    ck_builder_init(&again);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&again, &off, dst.type, dst.arrmeta(), src.type, src.arrmeta(),
                             CK_REQUEST_SINGLE, &ctx),
              CK_OK);
    EXPECT_EQ(std::string(ck_jit_last_decision()).rfind("cache hit", 0), 0u)
        << ck_jit_last_decision();
    ck_jit_info held;
    ck_jit_get_info(&held);
    EXPECT_EQ(held.compiles, before.compiles + 1);
    EXPECT_EQ(held.cached_codes, before.cached_codes + 1);
    EXPECT_EQ(held.retained_codes, after.retained_codes - 1);
    ck_builder_destroy(&again);
}

TEST(Jit, AtMostSixtyFourCodesAreRetainedTheOldestFreedFirst) {
    REQUIRE_JIT();
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = CK_EVAL_JIT;
    // 65 nests of their own (rows of 100..164 elements), each built and destroyed.
    auto build = [&](int rows) {
        View src({rows, 3}, {8, 2}, CK_TYPE_INT16), dst({rows, 3}, {12, 4}, CK_TYPE_FLOAT32);
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        const int rc = ck_make_assign(&b, &off, dst.type, dst.arrmeta(), src.type, src.arrmeta(),
                                      CK_REQUEST_SINGLE, &ctx);
        const std::string decision = ck_jit_last_decision();
        ck_builder_destroy(&b);
        EXPECT_EQ(rc, CK_OK);
        return decision;
    };
    for (int k = 0; k < 65; k++) build(1000 + k);
    ck_jit_info info;
    ck_jit_get_info(&info);
    EXPECT_EQ(info.retained_codes, 64u);
    // The newest is kept, the oldest was freed.
    EXPECT_EQ(build(1064).rfind("cache hit", 0), 0u);
    EXPECT_EQ(build(1000).rfind("compiled", 0), 0u);
}



TEST(Jit, DescribeSaysWhenInnerRunsGoThroughThePrecompiledLeaf) {
    REQUIRE_JIT();
    // int16 -> float32 is generated in the loop; float16 -> float32 is not (the plugin
    // compiles the outer loops and calls the precompiled strided leaf on each inner run).
    View i16({300, 3}, {8, 2}, CK_TYPE_INT16), f16({300, 3}, {8, 2}, CK_TYPE_FLOAT16);
    View dst({300, 3}, {12, 4}, CK_TYPE_FLOAT32);
    const Built fused = run(dst, dst, i16, CK_ERRMODE_NOCHECK, CK_EVAL_JIT);
    const Built outer = run(dst, dst, f16, CK_ERRMODE_NOCHECK, CK_EVAL_JIT);
    ASSERT_EQ(fused.tree.rfind("jit @0", 0), 0u) << fused.decision;
    ASSERT_EQ(outer.tree.rfind("jit @0", 0), 0u) << outer.decision;
    EXPECT_EQ(fused.tree.find("inner runs: precompiled leaf"), std::string::npos) << fused.tree;
    EXPECT_NE(outer.tree.find("] inner runs: precompiled leaf [LLVM "), std::string::npos)
        << outer.tree;
}

TEST(Jit, ABuildWithNoNestToCompileLeavesNoDecision) {
    REQUIRE_JIT();
    View src({300, 3}, {8, 2}, CK_TYPE_INT16), dst({300, 3}, {12, 4}, CK_TYPE_FLOAT32);
    const Built jitted = run(dst, dst, src, CK_ERRMODE_NOCHECK, CK_EVAL_JIT);
    ASSERT_EQ(jitted.tree.rfind("jit @0", 0), 0u) << jitted.decision;
    EXPECT_NE(jitted.decision, "");
    // A var dimension has no fixed run to compile: the next build says nothing, rather than
    // repeating the decision about the kernel before it.
    ck_type *vt = nullptr;
    ASSERT_EQ(ck_type_parse("var * float64", &vt), CK_OK);
    ck_var_dim_arrmeta vm = {nullptr, 8, 0};
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = CK_EVAL_JIT;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_assign(&b, &off, vt, reinterpret_cast<const char *>(&vm), vt,
                             reinterpret_cast<const char *>(&vm), CK_REQUEST_SINGLE, &ctx),
              CK_OK)
        << ck_last_error();
    EXPECT_EQ(std::string(ck_jit_last_decision()), "");
    ck_builder_destroy(&b);
    ck_type_decref(vt);
}

TEST(Jit, BuiltInCallsCompileWithTheirCastsFused) {
    REQUIRE_JIT();
    ck_callable *add = nullptr;
    ASSERT_EQ(ck_lookup("add", &add), CK_OK);
    // int32 (1000 x 3, padded rows) + float64 (3,) -> float64: the cast is in the loop.
    View a({1000, 3}, {16, 4}, CK_TYPE_INT32), b({3}, {8}, CK_TYPE_FLOAT64);
    View d1({1000, 3}, {24, 8}, CK_TYPE_FLOAT64), d2({1000, 3}, {24, 8}, CK_TYPE_FLOAT64);
    for (int i = 0; i < 1000; ++i)
        for (int j = 0; j < 3; ++j) reinterpret_cast<int32_t *>(a.data())[i * 4 + j] = i * 7 - j;
    for (int j = 0; j < 3; ++j) reinterpret_cast<double *>(b.data())[j] = 0.25 * j;
    // b broadcasts along the outer dimension: its type is 3 * float64, a missing leading dim.
    run_call(add, a, b, d1, CK_EVAL_NO_JIT);
    const std::string t = run_call(add, a, b, d2, CK_EVAL_JIT);
    EXPECT_TRUE(ckt::tree_starts_with(t, "jit @0 +24  jit_single  fingerprint=")) << t << ck_jit_last_decision();
    EXPECT_EQ(d1.buf, d2.buf);
    EXPECT_EQ(reinterpret_cast<double *>(d2.data())[999 * 3 + 2], 999 * 7 - 2 + 0.5);
    ck_callable_decref(add);
}

// int64 + float64 selects (float64, float64) with an inexact argument cast (int64 ->
// float64 rounds above 2^53): it compiles, fused, where rounding is allowed, and not in the
// INEXACT mode, where the cast must report the rounding (docs/design.md §10). An assignment
// of that kind compiles in every mode, checked in INEXACT only.
TEST(Jit, InexactConversionsAreCheckedInTheInexactMode) {
    REQUIRE_JIT();
    ck_callable *add = nullptr;
    ASSERT_EQ(ck_lookup("add", &add), CK_OK);
    View a({1000, 3}, {32, 8}, CK_TYPE_INT64), b({3}, {8}, CK_TYPE_FLOAT64);
    View d1({1000, 3}, {24, 8}, CK_TYPE_FLOAT64), d2({1000, 3}, {24, 8}, CK_TYPE_FLOAT64);
    const int64_t big = (int64_t{1} << 53) + 1;  // rounds to 2^53 (ties to even)
    for (int i = 0; i < 1000; ++i)
        for (int j = 0; j < 3; ++j)
            reinterpret_cast<int64_t *>(a.data())[i * 4 + j] = i == 500 ? big : i * 7 - j;
    for (int j = 0; j < 3; ++j) reinterpret_cast<double *>(b.data())[j] = 0.0;
    run_call(add, a, b, d1, CK_EVAL_NO_JIT);
    const std::string t = run_call(add, a, b, d2, CK_EVAL_JIT);
    EXPECT_TRUE(ckt::tree_starts_with(t, "jit @0 +24  jit_single  fingerprint=")) << t << ck_jit_last_decision();
    EXPECT_EQ(d1.buf, d2.buf);
    EXPECT_EQ(reinterpret_cast<double *>(d2.data())[500 * 3 + 1], 9007199254740992.0);
    // The INEXACT mode: the composed kernel, whose argument cast fails at element [500][0].
    int rc = CK_OK;
    const std::string inexact = run_call(add, a, b, d2, CK_EVAL_JIT, CK_ERRMODE_INEXACT, &rc);
    EXPECT_EQ(inexact.find("jit"), std::string::npos) << inexact;
    EXPECT_NE(inexact.find("cast int64 -> float64 (inexact)"), std::string::npos) << inexact;
    EXPECT_EQ(rc, CK_ERR_INEXACT);
    EXPECT_STREQ(ck_last_error(),
                 "int64 value 9007199254740993 is not exact in float64 (9007199254740992)");
    ck_callable_decref(add);
    for (const ck_errmode mode : {CK_ERRMODE_FRACTIONAL, CK_ERRMODE_INEXACT}) {
        View src({50, 3}, {32, 8}, CK_TYPE_INT64), x({50, 3}, {24, 8}, CK_TYPE_FLOAT64),
            y({50, 3}, {24, 8}, CK_TYPE_FLOAT64);
        int64_t *p = reinterpret_cast<int64_t *>(src.data());
        for (int i = 0; i < 50; ++i)
            for (int j = 0; j < 3; ++j) p[i * 4 + j] = i * 3 + j - 70;
        p[37 * 4 + 1] = big;
        const Built composed = run(x, x, src, mode, CK_EVAL_NO_JIT);
        const Built jitted = run(y, y, src, mode, CK_EVAL_JIT);
        ASSERT_EQ(jitted.tree.rfind("jit @0", 0), 0u) << jitted.decision;
        EXPECT_NE(jitted.tree.find(mode == CK_ERRMODE_INEXACT ? "(inexact)" : "(nocheck)"),
                  std::string::npos)
            << jitted.tree;
        EXPECT_EQ(composed.rc, mode == CK_ERRMODE_INEXACT ? CK_ERR_INEXACT : CK_OK);
        EXPECT_EQ(jitted.rc, composed.rc);
        EXPECT_EQ(jitted.message, composed.message);
        EXPECT_EQ(std::memcmp(x.data(), y.data(), 37 * 24), 0);
    }
}

// The policy (docs/kernels.md §10), with no flag: short inner runs compile once the nest was
// built again with 16 Mi elements in all; then equal nests come from the cache; long inner
// runs never compile. Builds only: the policy looks at nothing else.
TEST(Jit, ThePolicyCompilesShortRunsBuiltAgainWithEnoughWork) {
    REQUIRE_JIT();
    ck_type *st = nullptr, *dt = nullptr;
    ASSERT_EQ(ck_type_parse("2097152 * 2 * int16", &st), CK_OK);
    ASSERT_EQ(ck_type_parse("2097152 * 2 * float32", &dt), CK_OK);
    // A row stride no other test uses: the nest is new to this process.
    const ck_fixed_dim_arrmeta sm[2] = {{2097152, 14}, {2, 2}}, dm[2] = {{2097152, 8}, {2, 4}};
    std::vector<ck_builder> kept(6);
    std::vector<std::string> decisions;
    for (auto &b : kept) {
        ck_builder_init(&b);
        size_t off = 0;
        ASSERT_EQ(ck_make_assign(&b, &off, dt, reinterpret_cast<const char *>(dm), st,
                                 reinterpret_cast<const char *>(sm), CK_REQUEST_SINGLE, nullptr),
                  CK_OK);
        decisions.push_back(ck_jit_last_decision());
    }
    // 4 Mi elements per build: the 4th build reaches 16 Mi.
    EXPECT_EQ(decisions[0], "not used: first build of this nest (it compiles when built again "
                            "with enough work)");
    EXPECT_EQ(decisions[1], "not used: too little work so far to pay for a compile");
    EXPECT_EQ(decisions[2], decisions[1]);
    EXPECT_EQ(decisions[3].rfind("compiled in ", 0), 0u) << decisions[3];
    EXPECT_EQ(decisions[4].rfind("cache hit (already compiled)", 0), 0u) << decisions[4];
    auto tree = [](ck_builder *b) {
        char *text = nullptr;
        std::string t = ck_kernel_describe(ck_builder_root(b), &text) == CK_OK ? text : "";
        ck_free(text);
        return t;
    };
    EXPECT_EQ(tree(&kept[0]).rfind("strided_dim @0", 0), 0u) << "composed";
    EXPECT_EQ(tree(&kept[3]).rfind("jit @0", 0), 0u) << "compiled";
    for (auto &b : kept) ck_builder_destroy(&b);
    // Long inner runs: never.
    const ck_fixed_dim_arrmeta lm[2] = {{2, 4000000}, {2000000, 2}};
    ck_type *lt = nullptr, *ldt = nullptr;
    ASSERT_EQ(ck_type_parse("2 * 2000000 * int16", &lt), CK_OK);
    ASSERT_EQ(ck_type_parse("2 * 2000000 * float32", &ldt), CK_OK);
    const ck_fixed_dim_arrmeta ldm[2] = {{2, 8000000 + 64}, {2000000, 4}};
    for (int i = 0; i < 3; ++i) {
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        ASSERT_EQ(ck_make_assign(&b, &off, ldt, reinterpret_cast<const char *>(ldm), lt,
                                 reinterpret_cast<const char *>(lm), CK_REQUEST_SINGLE, nullptr),
                  CK_OK);
        EXPECT_EQ(std::string(ck_jit_last_decision()),
                  "not used: the composed kernel is as fast here (long inner runs)");
        ck_builder_destroy(&b);
    }
    ck_type_decref(st);
    ck_type_decref(dt);
    ck_type_decref(lt);
    ck_type_decref(ldt);
}

double scaled_hypot(double x, double y) {
    return std::sqrt(x * x + y * y) * 0.5;
}

// A native function (ck_callable_add_native) compiles as a direct call in the loop, with the
// int32 argument's cast fused; its results are libffi's, bit for bit.
TEST(Jit, NativeFunctionsCompileToDirectCalls) {
    REQUIRE_JIT();
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("shypot", &c), CK_OK);
    const int rc = ck_callable_add_native(c, "dd)d", reinterpret_cast<void (*)(void)>(scaled_hypot));
    if (rc == CK_ERR_UNSUPPORTED) {
        ck_callable_decref(c);
        GTEST_SKIP() << "no libffi: " << ck_last_error();
    }
    ASSERT_EQ(rc, CK_OK) << ck_last_error();
    View a({500, 3}, {16, 4}, CK_TYPE_INT32), b({3}, {8}, CK_TYPE_FLOAT64);
    View d1({500, 3}, {24, 8}, CK_TYPE_FLOAT64), d2({500, 3}, {24, 8}, CK_TYPE_FLOAT64);
    for (int i = 0; i < 500; ++i)
        for (int j = 0; j < 3; ++j) reinterpret_cast<int32_t *>(a.data())[i * 4 + j] = i - 250 + j;
    for (int j = 0; j < 3; ++j) reinterpret_cast<double *>(b.data())[j] = 1.5 * j + 0.25;
    const std::string composed = run_call(c, a, b, d1, CK_EVAL_NO_JIT);
    EXPECT_NE(composed.find("native @"), std::string::npos) << composed;
    const std::string t = run_call(c, a, b, d2, CK_EVAL_JIT);
    EXPECT_TRUE(ckt::tree_has(t, "jit @0 +24  jit_single  fingerprint=")) << t;
    EXPECT_NE(t.find(" native call (int32, float64) -> float64 "), std::string::npos) << t;
    EXPECT_EQ(d1.buf, d2.buf);
    EXPECT_EQ(reinterpret_cast<double *>(d2.data())[7 * 3 + 1], scaled_hypot(7 - 250 + 1, 1.75));
    ck_callable_decref(c);
}

TEST(Jit, AllocationFailureAtEveryPointOfAJitBuild) {
    REQUIRE_JIT();
    // Everything is made inside the loop (types included): nothing may be live around it.
    const int64_t points = ckt::for_each_alloc_failure([&]() {
        View src({100, 2}, {8, 2}, CK_TYPE_INT16), dst({100, 2}, {16, 8}, CK_TYPE_FLOAT64);
        if (src.type == nullptr || dst.type == nullptr) return int(CK_ERR_NOMEM);
        ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
        ctx.flags = CK_EVAL_JIT;
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        int rc = ck_make_assign(&b, &off, dst.type, dst.arrmeta(), src.type, src.arrmeta(),
                                CK_REQUEST_SINGLE, &ctx);
        if (rc == CK_OK) {
            char *s = src.data();
            rc = ck_call_single(ck_builder_root(&b), dst.data(), &s);
        }
        ck_builder_destroy(&b);
        return rc;
    });
    EXPECT_GE(points, 3) << "the types and the compiled code's record are counted";
}

TEST(Jit, ConcurrentCompilesAndCacheHits) {
    REQUIRE_JIT();
    // Two threads build kernels over four nests, each twice: compiles race with each other
    // and with cache hits; every result is checked.
    std::atomic<int> wrong{0};
    auto work = [&](int t) {
        for (int round = 0; round < 2; ++round)
            for (int k = 0; k < 4; ++k) {
                const intptr_t pad = 2 * (k + 1);
                View src({64, 3}, {6 + pad, 2}, CK_TYPE_INT16), dst({64, 3}, {12, 4}, CK_TYPE_FLOAT32);
                for (int i = 0; i < 64; ++i)
                    for (int j = 0; j < 3; ++j)
                        *reinterpret_cast<int16_t *>(src.data() + i * (6 + pad) + 2 * j) =
                            static_cast<int16_t>(i * 3 + j + t);
                const Built r = run(dst, dst, src, CK_ERRMODE_NOCHECK, CK_EVAL_JIT);
                if (r.rc != CK_OK) wrong++;
                const float *o = reinterpret_cast<const float *>(dst.data());
                for (int i = 0; i < 64 * 3; ++i)
                    if (o[i] != static_cast<float>(i + t)) wrong++;
            }
    };
    std::thread a(work, 0), b(work, 1);
    a.join();
    b.join();
    EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
