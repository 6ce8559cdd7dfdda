// tests/jit/expr_jit_test.cpp: the JIT lowering of an expression (docs/design.md §11, §15):
// random trees compiled into one loop against the composed `expr` leaf (CK_EVAL_NO_JIT), bit
// for bit, NaNs included (inputs rich in zeros, infinities and NaNs with payloads and signs);
// NaN results where LLVM's folds would change them, against IEEE 754 and x86's rules; hand cases whose values are fixed by IEEE rules and NumPy's definitions (no FMA
// contraction, minimum/maximum with NaN and signed zeros, wrapping integers, negative); the
// declines and their reasons; a native function called directly inside the loop; allocation
// failure at every point of a compiled expression's build; concurrent compiles (TSan runs
// this suite too). Tests skip, saying why, when this build or machine has no JIT.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "../expr/expr_random.hpp"
#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "complex_ref.h"
#include "jit_support.hpp"

namespace {

using namespace ckt_expr;

// One build and run of an expression on arrays: the result, the status and message, the JIT's
// decision and the kernel tree.
struct Outcome {
    int rc = CK_OK;
    std::string message, decision, tree;
    ck_array *out = nullptr;
    Outcome() = default;
    Outcome(const Outcome &) = delete;
    Outcome &operator=(const Outcome &) = delete;
    ~Outcome() { ck_array_free(out); }
};

// Builds `text` over the sources (by names) into a new array of the result type (or dst_type)
// with `flags` added to ctx, and runs it.
void evaluate(const char *text, const std::vector<ck_array *> &src,
              const std::vector<const char *> &names, ck_eval_ctx ctx, unsigned flags,
              Outcome *o, const char *dst_type = nullptr) {
    ctx.flags |= flags;
    ck_expr *e = nullptr;
    o->rc = ck_expr_parse(text, &e);
    std::vector<const ck_type *> st;
    std::vector<const char *> sam;
    std::vector<char *> sd;
    for (auto *a : src) {
        st.push_back(ck_array_type(a));
        sam.push_back(ck_array_arrmeta(a));
        sd.push_back(ck_array_data(a));
    }
    const int n = static_cast<int>(src.size());
    ck_type *rt = nullptr;
    if (o->rc == CK_OK) {
        o->rc = dst_type != nullptr ? ck_type_parse(dst_type, &rt)
                                    : ck_expr_result_type(e, n, names.data(), st.data(), &ctx, &rt);
    }
    if (o->rc == CK_OK) o->rc = ck_array_new(rt, &o->out);
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    if (o->rc == CK_OK) {
        o->rc = ck_make_expr(&b, &off, e, rt, ck_array_arrmeta(o->out), n, names.data(),
                             st.data(), sam.data(), CK_REQUEST_SINGLE, &ctx);
        o->decision = ck_jit_last_decision();
    }
    if (o->rc == CK_OK) {
        char *s = nullptr;
        if (ck_kernel_describe(ck_builder_root(&b), &s) == CK_OK) o->tree = s;
        ck_free(s);
        o->rc = ck_call_single(ck_builder_root(&b), ck_array_data(o->out), sd.data());
    }
    o->message = o->rc == CK_OK ? "" : ck_last_error();
    ck_builder_destroy(&b);
    ck_type_decref(rt);
    ck_expr_decref(e);
}

std::string dump(const ck_array *a) {
    const size_t n = ck_type_data_size(ck_array_type(a));
    std::string r;
    char buf[8];
    for (size_t i = 0; i < n && i < 20000; i++) {
        std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned char>(ck_array_data(a)[i]));
        r += buf;
    }
    return r;
}

bool compiled(const std::string &decision) {
    return decision.rfind("compiled in ", 0) == 0 || decision.rfind("cache hit", 0) == 0;
}

ck_array *parse_array(const char *type, const char *literal) {
    ck_type *t = nullptr;
    ck_array *a = nullptr;
    EXPECT_EQ(ck_type_parse(type, &t), CK_OK) << type;
    EXPECT_EQ(ck_array_parse(t, literal, &a), CK_OK) << literal << ": " << ck_last_error();
    ck_type_decref(t);
    return a;
}

// The sources of a hand case, freed at the end.
struct Sources {
    std::vector<ck_array *> arrays;
    std::vector<const char *> names;
    void add(const char *name, const char *type, const char *literal) {
        names.push_back(name);
        arrays.push_back(parse_array(type, literal));
    }
    ~Sources() {
        for (auto *a : arrays) ck_array_free(a);
    }
};

template <typename T>
std::vector<T> values(const ck_array *a, size_t n) {
    std::vector<T> v(n);
    std::memcpy(v.data(), ck_array_data(a), n * sizeof(T));
    return v;
}

uint64_t bits(double x) {
    uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}

// Specials in about a quarter of every float argument's elements: signed zeros, infinities,
// quiet and signalling NaNs with payloads and either sign, so that 0/0, inf - inf, 0 * inf and
// NaN operands occur all through a tree. The arrays are the parsed, contiguous ones.
void add_specials(Gen &g, Case *cs) {
    static const uint64_t d[] = {0x0ull, 0x8000000000000000ull, 0x7ff0000000000000ull,
                                 0xfff0000000000000ull, 0x7ff8000000000aaaull,
                                 0xfff80000000bbb00ull, 0x7ff0000000000cccull,
                                 0xfff4000000000001ull};
    static const uint32_t f[] = {0x0u,        0x80000000u, 0x7f800000u, 0xff800000u,
                                 0x7fc00aaau, 0xffc0bb00u, 0x7f800cccu, 0xffa00001u};
    for (ck_array *a : cs->arrays) {
        const ck_type *t = ck_array_type(a);
        while (!ck_type_is_scalar(t)) t = ck_type_element(t);
        const ck_type_id id = ck_type_get_id(t);
        if (id != CK_TYPE_FLOAT32 && id != CK_TYPE_FLOAT64) continue;
        const size_t es = ck_type_data_size(t), n = ck_type_data_size(ck_array_type(a)) / es;
        for (size_t i = 0; i < n; i++) {
            if (g.pick(4) != 0) continue;
            const int k = g.pick(8);
            if (id == CK_TYPE_FLOAT64) std::memcpy(ck_array_data(a) + i * es, &d[k], es);
            else std::memcpy(ck_array_data(a) + i * es, &f[k], es);
        }
    }
}

bool is_nan_at(ck_type_id id, const char *p) {
    if (id == CK_TYPE_FLOAT64) {
        double x;
        std::memcpy(&x, p, sizeof x);
        return x != x;
    }
    if (id == CK_TYPE_FLOAT32) {
        float x;
        std::memcpy(&x, p, sizeof x);
        return x != x;
    }
    return false;
}

// Where an add or a multiply of the tree meets two NaN operands (element i of the result,
// C order): there the composed leaf's NaN is not a function of the operands. Which operand's
// NaN it returns is gcc's choice of operand order in each loop of the leaf, and differs by CPU
// target, strides and place in the run (docs/design.md §11), so the JIT cannot give the same
// one; those elements are compared by NaN-ness. Each operand's subtree is evaluated by the
// composed leaf into float64 over the result's dimensions (a float NaN stays a NaN).
std::vector<bool> two_nan_operands(const Case &cs, const ck_type *rt) {
    char *s = nullptr;
    EXPECT_EQ(ck_type_format(rt, &s), CK_OK);
    std::string ft = s != nullptr ? s : "";
    ck_free(s);
    const size_t star = ft.rfind("* ");
    ft = (star == std::string::npos ? std::string() : ft.substr(0, star + 2)) + "float64";
    const ck_type *scalar = rt;
    while (!ck_type_is_scalar(scalar)) scalar = ck_type_element(scalar);
    const size_t n = ck_type_data_size(rt) / ck_type_data_size(scalar);
    std::vector<bool> mask(n, false);
    for (const Node &nd : cs.nodes) {
        if (nd.kind != Node::CALL || (std::strcmp(nd.fn, "add") != 0 &&
                                      std::strcmp(nd.fn, "multiply") != 0)) {
            continue;
        }
        std::vector<std::vector<double>> v;
        for (int kid : nd.kids) {
            const std::string &text = cs.nodes[static_cast<size_t>(kid)].expr;
            ck_expr *e = nullptr;
            EXPECT_EQ(ck_expr_parse(text.c_str(), &e), CK_OK) << text;
            std::vector<ck_array *> src;
            std::vector<const char *> names;
            for (int j = 0; e != nullptr && j < ck_expr_nargs(e); j++) {
                for (size_t k = 0; k < cs.names.size(); k++) {
                    if (std::strcmp(cs.names[k], ck_expr_arg_name(e, j)) == 0) {
                        src.push_back(cs.arrays[k]);
                        names.push_back(cs.names[k]);
                    }
                }
            }
            ck_expr_decref(e);
            Outcome o;
            evaluate(text.c_str(), src, names, cs.ctx, CK_EVAL_NO_JIT, &o, ft.c_str());
            EXPECT_EQ(o.rc, CK_OK) << text << ": " << o.message;
            v.push_back(o.rc == CK_OK ? values<double>(o.out, n) : std::vector<double>(n, 0.0));
        }
        for (size_t i = 0; i < n; i++) {
            if (v[0][i] != v[0][i] && v[1][i] != v[1][i]) mask[i] = true;
        }
    }
    return mask;
}

// Random trees over the types the JIT computes in (integers, float32, float64), casts among
// them, fixed dimensions, every other one on inputs rich in specials: compiled with
// CK_EVAL_JIT, the same bytes as the composed leaf, NaNs included, but where an add or a
// multiply meets two NaNs (two_nan_operands).
TEST(ExprJit, RandomTreesGiveTheComposedLeafsBytes) {
    REQUIRE_JIT();
    const std::vector<ck_type_id> numeric = {
        CK_TYPE_INT8,   CK_TYPE_INT16,  CK_TYPE_INT32,   CK_TYPE_INT64,  CK_TYPE_UINT8,
        CK_TYPE_UINT16, CK_TYPE_UINT32, CK_TYPE_UINT64, CK_TYPE_FLOAT32, CK_TYPE_FLOAT64};
    int jitted = 0, declined = 0, failed_both = 0, nan_results = 0, two_nans = 0;
    for (uint32_t seed = 1; seed <= 300; seed++) {
        Gen g(seed, numeric);
        Case cs;
        ASSERT_NO_FATAL_FAILURE(make_case(g, numeric, false, &cs));
        if (cs.arrays.empty()) continue;
        if (seed % 2 == 0) add_specials(g, &cs);
        Outcome composed, jit;
        evaluate(cs.text.c_str(), cs.arrays, cs.names, cs.ctx, CK_EVAL_NO_JIT, &composed);
        evaluate(cs.text.c_str(), cs.arrays, cs.names, cs.ctx, CK_EVAL_JIT, &jit);
        const std::string what = "seed " + std::to_string(seed) + ": " + cs.text + " with" +
                                 cs.desc + " mode " + ck_errmode_name(cs.ctx.errmode) +
                                 "\njit: " + jit.decision;
        // An empty decision: no run of fixed dimensions to compile (scalar arguments only).
        EXPECT_TRUE(composed.decision == "not used: CK_EVAL_NO_JIT" || jit.decision.empty())
            << what;
        ASSERT_EQ(jit.rc, composed.rc) << what << "\n" << jit.message << "\n" << composed.message;
        if (jit.rc != CK_OK) {
            EXPECT_EQ(jit.message, composed.message) << what;
            failed_both++;
            continue;
        }
        if (compiled(jit.decision)) {
            jitted++;
            EXPECT_NE(jit.tree.find(" expression of "), std::string::npos) << what << jit.tree;
        } else {
            declined++;
            EXPECT_TRUE(jit.decision.empty() || jit.decision.rfind("not used: ", 0) == 0) << what;
        }
        const ck_type *t = ck_array_type(jit.out);
        ASSERT_TRUE(ck_type_equal(t, ck_array_type(composed.out))) << what;
        const ck_type *scalar = t;
        while (!ck_type_is_scalar(scalar)) scalar = ck_type_element(scalar);
        const ck_type_id id = ck_type_get_id(scalar);
        const size_t es = ck_type_data_size(scalar), n = ck_type_data_size(t) / es;
        std::vector<bool> mask;
        for (size_t i = 0; i < n; i++) {
            const char *x = ck_array_data(jit.out) + i * es, *y = ck_array_data(composed.out) + i * es;
            nan_results += is_nan_at(id, y);
            if (std::memcmp(x, y, es) == 0) continue;
            if (mask.empty()) mask = two_nan_operands(cs, t);
            if (mask[i] && is_nan_at(id, x) && is_nan_at(id, y)) {
                two_nans++;
                continue;
            }
            ADD_FAILURE() << what << "\nelement " << i << "\n" << dump(jit.out) << "\n"
                          << dump(composed.out);
            break;
        }
    }
    std::printf("random trees: %d compiled, %d declined (composed), %d failed in both; %d NaN "
                "results, %d of them from two NaN operands of an add or a multiply\n",
                jitted, declined, failed_both, nan_results, two_nans);
    // The comparison must be of compiled code mostly, and of many NaNs.
    EXPECT_GT(jitted, 100);
    EXPECT_GT(nan_results, 1000);
}

// a * b + c in float64 where an FMA would keep the product's low bits: a*b = 1 + 2^-26 +
// 2^-54 rounds to 1 + 2^-26 (the 2^-54 is a quarter of an ulp), so the sum is exactly 0;
// fused, it would be 2^-54.
TEST(ExprJit, NoContractionIntoFma) {
    REQUIRE_JIT();
    Sources s;
    s.add("a", "3 * float64", "[1.0000000074505806, 1.0000000074505806, 2]");
    s.add("b", "3 * float64", "[1.0000000074505806, 1.0000000074505806, 3]");
    s.add("c", "float64", "-1.0000000149011612");
    Outcome o;
    evaluate("a * b + c", s.arrays, s.names, CK_EVAL_CTX_INIT, CK_EVAL_JIT, &o);
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_TRUE(compiled(o.decision)) << o.decision;
    EXPECT_NE(o.tree.find("jit_single  fingerprint="), std::string::npos) << o.tree;
    EXPECT_NE(o.tree.find(" expression of "), std::string::npos) << o.tree;
    const auto v = values<double>(o.out, 3);
    EXPECT_EQ(bits(v[0]), bits(0.0));
    EXPECT_EQ(bits(v[1]), bits(0.0));
    EXPECT_EQ(v[2], 6.0 - 1.0000000149011612);
}

// The machine's default NaN, the one an invalid operation makes (x86: sign set, quiet bit).
uint64_t default_nan() {
    volatile double z = 0.0;
    return bits(z / z);
}

// n elements of one type holding the same bits.
ck_array *filled(const char *type, int n, uint64_t value) {
    const std::string ts = std::to_string(n) + " * " + type;
    ck_type *t = nullptr;
    ck_array *a = nullptr;
    EXPECT_EQ(ck_type_parse(ts.c_str(), &t), CK_OK);
    EXPECT_EQ(ck_array_new(t, &a), CK_OK);
    const size_t es = std::strcmp(type, "float32") == 0 ? 4 : 8;
    for (int i = 0; i < n; i++) std::memcpy(ck_array_data(a) + es * static_cast<size_t>(i), &value, es);
    ck_type_decref(t);
    return a;
}

// NaN results where LLVM's folds would change them (docs/design.md §11: a negation moved
// through a product, quotient or sum, x * -1.0 made a negation, x * 1.0 or a float32 widened
// and narrowed made nothing, which keeps a signalling NaN), each case's bits by IEEE 754 and
// x86's rules (an operation returns its NaN operand quieted, an invalid one the default NaN,
// negative flips the sign bit): from the JIT, and from the composed leaf of every CPU target
// this machine runs. Also a divide by a power of two, done as a multiply, exact into the
// subnormals. 37 elements: whole vectors and a remainder.
TEST(ExprJit, NaNBitsAsTheComposedLeaf) {
    REQUIRE_JIT();
    const uint64_t sign = 0x8000000000000000ull, qa = 0x7ff8000000000aaaull,
                   sa = 0x7ff0000000000aaaull, two = bits(2.0), dn = default_nan(),
                   inf = 0x7ff0000000000000ull;
    struct Want {
        const char *text;
        const char *type;
        uint64_t a, b, want;
    } cases[] = {
        {"-(a / b) * 2.0", "float64", 0, 0, dn ^ sign},
        {"-(a - a) * b", "float64", inf, two, dn ^ sign},
        {"-a * -b", "float64", qa, two, qa ^ sign},
        {"b + -a", "float64", qa, two, qa ^ sign},
        {"b - -a", "float64", qa, two, qa ^ sign},
        {"-a + b", "float64", qa, two, qa ^ sign},
        {"-(a * b)", "float64", qa, two, qa ^ sign},
        {"a * -1.0", "float64", qa, two, qa},
        {"-1.0 * a", "float64", qa, two, qa},
        {"-0.0 - a", "float64", qa, two, qa},
        {"a / -1.0", "float64", qa, two, qa},
        {"a * 1.0", "float64", sa, two, qa},
        {"a / 1.0", "float64", sa, two, qa},
        {"a + -0.0", "float64", sa, two, qa},
        {"a - 0.0", "float64", sa, two, qa},
        {"a / 2.0", "float64", sa, two, qa},
        {"-(-a)", "float64", sa, 0, sa}, // negative does not quiet
        {"a / 2.0", "float64", 3, 0, 2},   // 1.5 * 2^-1074: to even
        {"a / 4.0", "float64", 3, 0, 1},   // 0.75 * 2^-1074
        {"a / 0.5 + b", "float64", bits(1.5), bits(-0.0), bits(3.0)},
        {"a / 8.9884656743115795e307", "float64", bits(1.5), 0, 3ull << 50}, // 3 * 2^-1024
        {"float32(float64(a))", "float32", 0x7f800aaaull, 0, 0x7fc00aaaull},
        {"float32(minimum(float64(a), float64(b)))", "float32", 0x7f800aaaull, 0x3f800000ull,
         0x7fc00aaaull},
        {"-a * -b", "float32", 0x7fc00aaaull, 0x40000000ull, 0xffc00aaaull},
        {"a / 2.0", "float32", 0x7f800aaaull, 0, 0x7fc00aaaull}, // 2.0 is float32 by value
        {"a / 1e300", "float32", 0x7f800aaaull, 0, 0x7ff8015540000000ull}, // float64 result
    };
    std::vector<ck_cpu_target> targets;
    for (int t = 0; t <= static_cast<int>(ck_cpu_detected_target()); t++) {
        if (ck_cpu_target_compiled(static_cast<ck_cpu_target>(t))) {
            targets.push_back(static_cast<ck_cpu_target>(t));
        }
    }
    for (const Want &w : cases) {
        Sources s;
        s.arrays = {filled(w.type, 37, w.a), filled(w.type, 37, w.b)};
        s.names = {"a", "b"};
        std::vector<ck_array *> src = s.arrays;
        std::vector<const char *> names = s.names;
        if (std::strchr(w.text, 'b') == nullptr) { // one argument
            src.pop_back();
            names.pop_back();
        }
        std::vector<std::pair<std::string, unsigned>> runs = {{"jit", CK_EVAL_JIT}};
        for (ck_cpu_target t : targets) runs.push_back({ck_cpu_target_name(t), CK_EVAL_NO_JIT});
        for (size_t r = 0; r < runs.size(); r++) {
            if (r > 0) {
                ASSERT_EQ(ck_cpu_set_target_cap(targets[r - 1]), CK_OK);
            }
            Outcome o;
            ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
            ctx.errmode = CK_ERRMODE_NOCHECK; // float64 -> float32 casts compile
            evaluate(w.text, src, names, ctx, runs[r].second, &o);
            ASSERT_EQ(o.rc, CK_OK) << w.text << ": " << o.message;
            if (r == 0) {
                EXPECT_TRUE(compiled(o.decision)) << w.text << ": " << o.decision;
            }
            const ck_type *el = ck_type_element(ck_array_type(o.out));
            const size_t es = ck_type_data_size(el);
            for (size_t i = 0; i < 37; i++) {
                uint64_t got = 0;
                std::memcpy(&got, ck_array_data(o.out) + es * i, es);
                EXPECT_EQ(got, w.want) << w.text << " (" << w.type << ") " << runs[r].first
                                       << " element " << i << std::hex << ": got 0x" << got
                                       << ", want 0x" << w.want;
                if (got != w.want) break;
            }
        }
        ck_cpu_set_target_cap(ckt::best_compiled_target());
    }
}

// Complex products at infinities and NaNs (docs/design.md §10: the textbook formula, no C99
// Annex G recovery): `a * b` of every pair of 81 special values gives the formula's parts,
// composed on every target and with the JIT asked for (which leaves complex arithmetic to
// the composed leaf and says so), as multiply and the reductions' leaves do
// (ReduceLeaves.ComplexProductsAtInfinitiesAndNaNsAreTheTextbookFormulaInEveryLeaf).
template <class F>
void check_complex_products(const char *type, void (*mul)(const F *, const F *, F *)) {
    const F inf = std::numeric_limits<F>::infinity(), nan = std::numeric_limits<F>::quiet_NaN();
    const F parts[] = {0, -F(0), 1, -2, std::numeric_limits<F>::max() / 4,
                       std::numeric_limits<F>::denorm_min(), inf, -inf, nan};
    std::vector<F> v;
    for (F re : parts) {
        for (F im : parts) v.insert(v.end(), {re, im});
    }
    const size_t nv = v.size() / 2, n = nv * nv;
    Sources s;
    s.arrays = {filled(type, static_cast<int>(n), 0), filled(type, static_cast<int>(n), 0)};
    s.names = {"a", "b"};
    F *a = reinterpret_cast<F *>(ck_array_data(s.arrays[0]));
    F *b = reinterpret_cast<F *>(ck_array_data(s.arrays[1]));
    for (size_t i = 0; i < n; i++) {
        std::memcpy(a + 2 * i, &v[2 * (i / nv)], 2 * sizeof(F));
        std::memcpy(b + 2 * i, &v[2 * (i % nv)], 2 * sizeof(F));
    }
    std::vector<std::pair<std::string, unsigned>> runs = {{"jit", CK_EVAL_JIT}};
    std::vector<ck_cpu_target> targets;
    for (int k = 0; k <= static_cast<int>(ck_cpu_detected_target()); k++) {
        if (!ck_cpu_target_compiled(static_cast<ck_cpu_target>(k))) continue;
        targets.push_back(static_cast<ck_cpu_target>(k));
        runs.push_back({ck_cpu_target_name(static_cast<ck_cpu_target>(k)), CK_EVAL_NO_JIT});
    }
    for (size_t r = 0; r < runs.size(); r++) {
        if (r > 0) {
            ASSERT_EQ(ck_cpu_set_target_cap(targets[r - 1]), CK_OK);
        }
        Outcome o;
        evaluate("a * b", s.arrays, s.names, CK_EVAL_CTX_INIT, runs[r].second, &o);
        ASSERT_EQ(o.rc, CK_OK) << o.message;
        if (r == 0) {
            EXPECT_FALSE(compiled(o.decision)) << o.decision;  // complex: composed
        }
        const F *got = reinterpret_cast<const F *>(ck_array_data(o.out));
        int bad = 0;
        for (size_t i = 0; i < n && bad < 5; i++) {
            F want[2];
            mul(a + 2 * i, b + 2 * i, want);
            for (int k = 0; k < 2; k++) {
                const bool ok = std::isnan(want[k])
                                    ? std::isnan(got[2 * i + k])
                                    : std::memcmp(&got[2 * i + k], &want[k], sizeof(F)) == 0;
                if (!ok) {
                    ADD_FAILURE() << type << " " << runs[r].first << ": (" << a[2 * i] << ", "
                                  << a[2 * i + 1] << ") * (" << b[2 * i] << ", " << b[2 * i + 1]
                                  << ") part " << k << " is " << got[2 * i + k] << ", want "
                                  << want[k];
                    bad++;
                }
            }
        }
    }
    ck_cpu_set_target_cap(ckt::best_compiled_target());
}

TEST(ExprJit, ComplexProductsAtInfinitiesAreTheTextbookFormulaInEveryPath) {
    check_complex_products<double>("complex128", ckt_complex_mul_d);
    check_complex_products<float>("complex64", ckt_complex_mul_f);
}

// Literals only: the expression's constant, or its operations on constants, compiled into the
// destination's loop, with the composed leaf's bits (NaNs included).
TEST(ExprJit, LiteralsOnlyCompile) {
    REQUIRE_JIT();
    const uint64_t sign = 0x8000000000000000ull;
    struct Want {
        const char *text;
        uint64_t want;
    } cases[] = {{"-(0.0 / 0.0) * 2.0", default_nan() ^ sign},
                 {"2.5 * 2 - 1", bits(4.0)},
                 {"-0.0", bits(-0.0)},
                 {"float64(float32(0.1))", bits(static_cast<double>(0.1f))}};
    for (const Want &w : cases) {
        Outcome jit, composed;
        evaluate(w.text, {}, {}, CK_EVAL_CTX_INIT, CK_EVAL_JIT, &jit, "37 * float64");
        evaluate(w.text, {}, {}, CK_EVAL_CTX_INIT, CK_EVAL_NO_JIT, &composed, "37 * float64");
        ASSERT_EQ(jit.rc, CK_OK) << w.text << ": " << jit.message;
        ASSERT_EQ(composed.rc, CK_OK) << w.text << ": " << composed.message;
        EXPECT_TRUE(compiled(jit.decision)) << w.text << ": " << jit.decision;
        EXPECT_TRUE(ckt::tree_starts_with(jit.tree, "expr_literals @0 ")) << jit.tree;
        for (const Outcome *o : {&jit, &composed}) {
            const auto v = values<double>(o->out, 37);
            for (double x : v) EXPECT_EQ(bits(x), w.want) << w.text << std::hex << " " << bits(x);
        }
    }
}

// minimum/maximum as NumPy 1.24 defines them (leaves/numeric/arith_ops.h): a NaN operand wins, of
// two equal values (0 and -0) the second; negative flips the sign bit; integers wrap.
TEST(ExprJit, MinimumMaximumNegativeAndWrappingAsTheBuiltIns) {
    REQUIRE_JIT();
    Sources s;
    s.add("x", "4 * float64", "[nan, 0, -0, 1]");
    s.add("y", "4 * float64", "[1, -0, 0, nan]");
    Outcome lo, hi, neg;
    evaluate("minimum(x, y)", s.arrays, s.names, CK_EVAL_CTX_INIT, CK_EVAL_JIT, &lo);
    evaluate("maximum(x, y)", s.arrays, s.names, CK_EVAL_CTX_INIT, CK_EVAL_JIT, &hi);
    evaluate("-x + y * 0", s.arrays, s.names, CK_EVAL_CTX_INIT, CK_EVAL_JIT, &neg);
    for (const Outcome *o : {&lo, &hi, &neg}) {
        ASSERT_EQ(o->rc, CK_OK) << o->message;
        EXPECT_TRUE(compiled(o->decision)) << o->decision;
    }
    const auto l = values<double>(lo.out, 4), h = values<double>(hi.out, 4);
    EXPECT_TRUE(std::isnan(l[0]) && std::isnan(l[3]));
    EXPECT_EQ(bits(l[1]), bits(-0.0));
    EXPECT_EQ(bits(l[2]), bits(0.0));
    EXPECT_TRUE(std::isnan(h[0]) && std::isnan(h[3]));
    EXPECT_EQ(bits(h[1]), bits(-0.0));
    EXPECT_EQ(bits(h[2]), bits(0.0));
    // -x + y*0: -nan + 0 is NaN; -0 + -0 = -0; 0 + 0 = 0; -1 + nan is NaN
    const auto n = values<double>(neg.out, 4);
    EXPECT_EQ(bits(n[1]), bits(-0.0));
    EXPECT_EQ(bits(n[2]), bits(0.0));

    Sources i;
    i.add("p", "4 * int8", "[100, -128, 127, -1]");
    i.add("q", "4 * uint8", "[1, 0, 255, 200]");
    Outcome w, u, m;
    evaluate("p + p", {i.arrays[0]}, {"p"}, CK_EVAL_CTX_INIT, CK_EVAL_JIT, &w);
    evaluate("-q * uint8(1)", {i.arrays[1]}, {"q"}, CK_EVAL_CTX_INIT, CK_EVAL_JIT, &u);
    evaluate("minimum(p, int8(0)) - maximum(q, uint8(7))", i.arrays, i.names, CK_EVAL_CTX_INIT,
             CK_EVAL_JIT, &m);
    for (const Outcome *o : {&w, &u, &m}) {
        ASSERT_EQ(o->rc, CK_OK) << o->message;
        EXPECT_TRUE(compiled(o->decision)) << o->decision;
    }
    EXPECT_EQ(values<int8_t>(w.out, 4), (std::vector<int8_t>{-56, 0, -2, -2}));
    EXPECT_EQ(values<uint8_t>(u.out, 4), (std::vector<uint8_t>{255, 0, 1, 56}));
    // int8 and uint8 select int16: min(p, 0) - max(q, 7)
    EXPECT_EQ(values<int16_t>(m.out, 4), (std::vector<int16_t>{-7, -135, -255, -201}));
}

// Comparisons (IEEE: a NaN compares false but not equal), where (a select), the logical
// operators on truth values (a NaN is true) and the bitwise ones (& | ^ ~ on bool are logical),
// compiled, against values worked out by hand and the composed kernel's bytes.
TEST(ExprJit, ComparisonsWhereAndLogicAsTheBuiltIns) {
    REQUIRE_JIT();
    Sources s;
    s.add("x", "6 * float64", "[nan, 0, -0, 1, inf, -2]");
    s.add("y", "6 * float64", "[1, -0, 0, nan, inf, 3]");
    s.add("i", "6 * int32", "[-1, 0, 5, -2147483648, 2147483647, 12]");
    s.add("u", "6 * uint16", "[65535, 0, 5, 1, 2, 12]");
    s.add("b", "6 * bool", "[true, false, true, false, true, true]");
    struct Case {
        const char *text;
        std::vector<const char *> names;
        const char *want;
    } cases[] = {
        {"x < y", {"x", "y"}, "[false, false, false, false, false, true]"},
        {"x <= y", {"x", "y"}, "[false, true, true, false, true, true]"},
        {"x == y", {"x", "y"}, "[false, true, true, false, true, false]"},
        {"x != y", {"x", "y"}, "[true, false, false, true, false, true]"},
        {"x > y", {"x", "y"}, "[false, false, false, false, false, false]"},
        {"x >= y", {"x", "y"}, "[false, true, true, false, true, false]"},
        {"where(x > y, x, y)", {"x", "y"}, "[1, -0, 0, nan, inf, 3]"},
        {"where(x >= y, x, y)", {"x", "y"}, "[1, 0, -0, nan, inf, 3]"},
        // signed and unsigned integers: -1 < 0 as int32, 65535 > 0 as uint16
        {"i < 0", {"i"}, "[true, false, false, true, false, false]"},
        {"u > 1", {"u"}, "[true, false, true, false, true, true]"},
        {"(i & 6) | (i ^ 3)", {"i"}, "[-2, 3, 6, -2147483645, 2147483646, 15]"},
        {"~i", {"i"}, "[0, -1, -6, 2147483647, -2147483648, -13]"},
        {"~u", {"u"}, "[0, 65535, 65530, 65534, 65533, 65523]"},
        {"~b", {"b"}, "[false, true, false, true, false, false]"},
        // Python's precedence: ((x < 1) & b) | ((y > 0) ^ b)
        {"(x < 1) & b | (y > 0) ^ b", {"x", "y", "b"}, "[false, false, true, false, false, true]"},
        {"logical_and(x, y)", {"x", "y"}, "[true, false, false, true, true, true]"},
        {"logical_or(i, b)", {"i", "b"}, "[true, false, true, true, true, true]"},
        {"logical_xor(x, i)", {"x", "i"}, "[false, false, true, false, false, false]"},
        {"logical_not(x)", {"x"}, "[false, true, true, false, false, false]"},
        {"where(b, i, u)", {"b", "i", "u"}, "[-1, 0, 5, 1, 2147483647, 12]"},
        {"(x > 0) + i", {"x", "i"}, "[-1, 0, 5, -2147483647, -2147483648, 12]"}, // wraps
    };
    for (const Case &c : cases) {
        std::vector<ck_array *> src;
        for (const char *n : c.names) {
            for (size_t k = 0; k < s.names.size(); k++)
                if (std::strcmp(s.names[k], n) == 0) src.push_back(s.arrays[k]);
        }
        Outcome jit, composed;
        evaluate(c.text, src, c.names, CK_EVAL_CTX_INIT, CK_EVAL_JIT, &jit);
        evaluate(c.text, src, c.names, CK_EVAL_CTX_INIT, CK_EVAL_NO_JIT, &composed);
        ASSERT_EQ(jit.rc, CK_OK) << c.text << ": " << jit.message;
        ASSERT_EQ(composed.rc, CK_OK) << c.text << ": " << composed.message;
        EXPECT_TRUE(compiled(jit.decision)) << c.text << ": " << jit.decision;
        char *t = nullptr;
        ASSERT_EQ(ck_array_format(jit.out, &t), CK_OK);
        EXPECT_STREQ(t, c.want) << c.text;
        ck_free(t);
        EXPECT_EQ(dump(jit.out), dump(composed.out)) << c.text;
    }
}

// Mixed types: the argument casts are fused, constants are folded in, and a cast node inside
// the expression is compiled when it cannot fail.
TEST(ExprJit, MixedTypesCastsAndLiterals) {
    REQUIRE_JIT();
    Sources s;
    s.add("i", "3 * int32", "[1, -2, 2147483647]");
    s.add("f", "float64", "0.5");
    s.add("g", "3 * float32", "[0.25, 1e30, -3]");
    Outcome o;
    evaluate("i * f + g - float64(int64(i)) * 2.0 + 3", s.arrays, s.names, CK_EVAL_CTX_INIT,
             CK_EVAL_JIT, &o);
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_TRUE(compiled(o.decision)) << o.decision;
    const auto v = values<double>(o.out, 3);
    const int32_t iv[] = {1, -2, 2147483647};
    const float gv[] = {0.25f, 1e30f, -3.0f};
    for (int k = 0; k < 3; k++) {
        const double want = double(iv[k]) * 0.5 + double(gv[k]) - double(iv[k]) * 2.0 + 3.0;
        EXPECT_EQ(bits(v[static_cast<size_t>(k)]), bits(want)) << k;
    }
}

double affine(double x, double y) {
    return x * 3.0 + y;
}

// A native function is called directly from the loop, with the other nodes around it.
TEST(ExprJit, NativeFunctionsAreCalledInsideTheLoop) {
    REQUIRE_JIT();
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("affine_x3", &c), CK_OK);
    const int rc = ck_callable_add_native(c, "dd)d", reinterpret_cast<void (*)(void)>(affine));
    if (rc == CK_ERR_UNSUPPORTED) {
        ck_callable_decref(c);
        GTEST_SKIP() << "no libffi: " << ck_last_error();
    }
    ASSERT_EQ(rc, CK_OK) << ck_last_error();
    const int reg = ck_register(c);
    ASSERT_TRUE(reg == CK_OK) << ck_last_error();
    Sources s;
    s.add("x", "3 * float64", "[1, 2.5, -4]");
    s.add("n", "3 * int32", "[7, 8, 9]");
    Outcome o, ref;
    evaluate("affine_x3(x, n) / 2.0", s.arrays, s.names, CK_EVAL_CTX_INIT, CK_EVAL_JIT, &o);
    evaluate("affine_x3(x, n) / 2.0", s.arrays, s.names, CK_EVAL_CTX_INIT, CK_EVAL_NO_JIT, &ref);
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_TRUE(compiled(o.decision)) << o.decision;
    const double x[] = {1, 2.5, -4};
    const auto v = values<double>(o.out, 3);
    for (int k = 0; k < 3; k++) EXPECT_EQ(v[static_cast<size_t>(k)], affine(x[k], 7 + k) / 2.0);
    EXPECT_EQ(v, values<double>(ref.out, 3));
    ck_callable_decref(c);
}

// What the JIT does not reproduce exactly is declined as a whole, with the reason; the
// composed leaf serves (and fails where it fails).
TEST(ExprJit, DeclinesWithReasons) {
    REQUIRE_JIT();
    Sources s;
    s.add("x", "3 * int32", "[6, 7, 8]");
    s.add("y", "3 * int32", "[3, 0, 2]");
    s.add("h", "3 * float16", "[1, 2, 3]");
    s.add("d", "3 * float64", "[0.5, 300.5, 1e300]");
    s.add("p", "3 * int16", "[6, 7, 8]");
    s.add("q", "3 * int16", "[3, 0, 2]");
    struct Want {
        const char *text;
        std::vector<const char *> names;
        const char *dst;
        ck_errmode mode;
        const char *reason;
    } cases[] = {
        {"trunc_divide(x, y) + 1", {"x", "y"}, nullptr, CK_ERRMODE_FRACTIONAL,
         "not used: the compile failed (integer divide is not compiled"},
        // True division of int16 (-> float64): no direct call with narrow arguments (int32's
        // compiles: jit_ufunc_test.cpp).
        {"p / q + 1", {"p", "q"}, nullptr, CK_ERRMODE_FRACTIONAL,
         "not used: expression column 3: divide has no compiled form for (int16, int16) -> "
         "float64"},
        {"h * 2", {"h"}, nullptr, CK_ERRMODE_FRACTIONAL,
         "not used: the compile failed (float16 values are not compiled"},
        {"int8(d) + 1", {"d"}, nullptr, CK_ERRMODE_FRACTIONAL,
         "not used: expression column 1: the cast float64 -> int8 can fail in mode fractional; "
         "composed kernel"},
        // Integer power (a negative exponent is an error only the leaf reports)
        {"x ** y + 1", {"x", "y"}, nullptr, CK_ERRMODE_FRACTIONAL,
         "not used: expression column 3: power has no compiled form for (int32, int32) -> "
         "int32"},
        {"d * 2", {"d"}, "3 * float32", CK_ERRMODE_FRACTIONAL,
         "not used: the result's cast float64 -> float32 can fail in mode fractional; composed "
         "kernel"},
    };
    for (const Want &w : cases) {
        std::vector<ck_array *> src;
        for (const char *n : w.names) {
            for (size_t k = 0; k < s.names.size(); k++)
                if (std::strcmp(s.names[k], n) == 0) src.push_back(s.arrays[k]);
        }
        ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
        ctx.errmode = w.mode;
        Outcome jit, composed;
        evaluate(w.text, src, w.names, ctx, CK_EVAL_JIT, &jit, w.dst);
        evaluate(w.text, src, w.names, ctx, CK_EVAL_NO_JIT, &composed, w.dst);
        EXPECT_EQ(jit.decision.rfind(w.reason, 0), 0u) << w.text << ": " << jit.decision;
        EXPECT_EQ(jit.tree.find("jit_"), std::string::npos) << jit.tree;
        EXPECT_EQ(jit.rc, composed.rc) << w.text;
        EXPECT_EQ(jit.message, composed.message) << w.text;
        if (jit.rc == CK_OK) {
            EXPECT_TRUE(same_bytes(ck_array_type(jit.out), ck_array_arrmeta(jit.out),
                                   ck_array_data(jit.out), ck_array_arrmeta(composed.out),
                                   ck_array_data(composed.out)))
                << w.text;
        }
    }
    // The same in nocheck mode compiles: no cast there can fail.
    std::vector<ck_array *> d = {s.arrays[3]};
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = CK_ERRMODE_NOCHECK;
    Outcome jit, composed;
    evaluate("int8(d) + 1", d, {"d"}, ctx, CK_EVAL_JIT, &jit);
    evaluate("int8(d) + 1", d, {"d"}, ctx, CK_EVAL_NO_JIT, &composed);
    ASSERT_EQ(jit.rc, CK_OK) << jit.message;
    EXPECT_TRUE(compiled(jit.decision)) << jit.decision;
    EXPECT_EQ(values<int8_t>(jit.out, 3), values<int8_t>(composed.out, 3));
}

TEST(ExprJit, AllocationFailureAtEveryPointOfACompiledExpressionsBuild) {
    REQUIRE_JIT();
    const int64_t points = ckt::for_each_alloc_failure([&]() {
        ck_expr *e = nullptr;
        int rc = ck_expr_parse("a * x + 0.5", &e);
        ck_type *xt = nullptr, *at = nullptr;
        if (rc == CK_OK) rc = ck_type_parse("7 * float64", &xt);
        if (rc == CK_OK) rc = ck_type_parse("float32", &at);
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        if (rc == CK_OK) {
            const ck_type *st[] = {at, xt};
            const char *names[] = {"a", "x"};
            const ck_fixed_dim_arrmeta xm = {7, 8}, dm = {7, 8};
            const char *sam[] = {nullptr, reinterpret_cast<const char *>(&xm)};
            ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
            ctx.flags = CK_EVAL_JIT;
            rc = ck_make_expr(&b, &off, e, xt, reinterpret_cast<const char *>(&dm), 2, names, st,
                              sam, CK_REQUEST_SINGLE, &ctx);
            if (rc == CK_OK && !compiled(ck_jit_last_decision())) rc = CK_ERR_INTERNAL;
            if (rc == CK_OK) {
                const float a = 2;
                double x[7] = {1, 2, 3, 4, 5, 6, 7}, d[7];
                char *sp[] = {reinterpret_cast<char *>(const_cast<float *>(&a)),
                              reinterpret_cast<char *>(x)};
                rc = ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(d), sp);
                for (int k = 0; rc == CK_OK && k < 7; k++)
                    if (d[k] != 2.0 * (k + 1) + 0.5) rc = CK_ERR_INTERNAL;
            }
        }
        ck_builder_destroy(&b);
        ck_type_decref(at);
        ck_type_decref(xt);
        ck_expr_decref(e);
        return rc;
    });
    EXPECT_GE(points, 3);
}

TEST(ExprJit, ConcurrentCompilesAndCacheHits) {
    REQUIRE_JIT();
    // Two threads build four expressions (differing by a literal), each twice: compiles race
    // with each other and with cache hits; every result is checked.
    std::atomic<int> wrong{0};
    auto work = [&](int t) {
        for (int round = 0; round < 2; ++round)
            for (int k = 0; k < 4; ++k) {
                Sources s;
                s.add("x", "5 * 3 * int16", "[[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11], [12, 13, 14]]");
                s.add("y", "3 * float64", "[0.5, 0.25, 2]");
                const std::string text = "minimum(x * y, 100.0) - " + std::to_string(k + t) + ".0";
                Outcome o;
                evaluate(text.c_str(), s.arrays, s.names, CK_EVAL_CTX_INIT, CK_EVAL_JIT, &o);
                if (o.rc != CK_OK || !compiled(o.decision)) {
                    wrong++;
                    continue;
                }
                const auto v = values<double>(o.out, 15);
                const double y[] = {0.5, 0.25, 2};
                for (int i = 0; i < 15; ++i) {
                    const double p = i * y[i % 3];
                    if (v[static_cast<size_t>(i)] != (p < 100.0 ? p : 100.0) - (k + t)) wrong++;
                }
            }
    };
    std::thread a(work, 0), b(work, 1);
    a.join();
    b.join();
    EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
