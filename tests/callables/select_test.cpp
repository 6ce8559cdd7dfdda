// tests/callables/select_test.cpp: best-match selection of a signature (Numba's rule):
// ratings, the ranking, unsafe conversions only when allowed, ambiguity and no-match
// messages, and independence from the order of the candidates; and NumPy's rule
// (CK_SELECT_FIRST_SAFE): its safe casts against NumPy's table, the first safe signature in
// the order of adds. Expected choices and
// messages are worked out by hand from the conversion table (docs/design.md §10).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sig.hpp"

namespace {

const auto sigs = sig::parse_all;
const auto text = sig::compact_form;

struct Choice {
    int rc;
    std::string chosen;  // compact form, or the message on failure
    ck__rating rating;
};

Choice choose(const std::vector<ck__signature> &c, std::vector<ck_type_id> args, bool unsafe) {
    int best = -1;
    ck__rating r = {-1, -1, -1, -1, -1};
    const int rc = ck__select("add", c.data(), static_cast<int>(c.size()), args.data(),
                              static_cast<int>(args.size()), unsafe ? 1 : 0, &best, &r);
    return {rc, rc == CK_OK ? text(c[static_cast<size_t>(best)]) : ck_last_error(), r};
}

TEST(Select, RatingsCountEachConversionKind) {
    const auto c = sigs({"dd)d"});
    ck__rating r;
    const ck_type_id args[] = {CK_TYPE_FLOAT32, CK_TYPE_INT32};
    ASSERT_EQ(ck__rate(&c[0], args, 2, &r), 1);
    EXPECT_EQ(r.promote, 1);  // float32 -> float64
    EXPECT_EQ(r.safe, 1);     // int32 -> float64
    EXPECT_EQ(r.unsafe, 0);
    EXPECT_EQ(r.inexact, 0);
    EXPECT_EQ(ck__rate(&c[0], args, 1, &r), 0) << "arity differs";
    // {unsafe, inexact, safe, promote, widen}
    const ck__rating a = {0, 0, 5, 5, 9}, b = {1, 0, 0, 0, 0}, d = {0, 0, 5, 6, 0},
                     e = {0, 0, 5, 5, 10}, i = {0, 1, 0, 0, 0}, u = {1, 0, 0, 0, 0};
    EXPECT_LT(ck__rating_compare(&a, &b), 0) << "any unsafe ranks below every lossless";
    EXPECT_LT(ck__rating_compare(&a, &i), 0) << "any inexact ranks below every lossless";
    EXPECT_LT(ck__rating_compare(&i, &u), 0) << "and above any unsafe";
    EXPECT_LT(ck__rating_compare(&a, &d), 0);
    EXPECT_LT(ck__rating_compare(&a, &e), 0) << "then the fewer bytes of widening";
    EXPECT_EQ(r.widen, 4 + 4);  // float32 -> float64 and int32 -> float64
    EXPECT_EQ(ck__rating_compare(&a, &a), 0);
    // int64 -> float64 is inexact and widens by nothing; uint8 -> float64 is safe (+7); an
    // unsafe conversion adds no widening.
    const ck_type_id mixed[] = {CK_TYPE_INT64, CK_TYPE_UINT8};
    ASSERT_EQ(ck__rate(&c[0], mixed, 2, &r), 1);
    EXPECT_EQ(r.inexact, 1);
    EXPECT_EQ(r.safe, 1);
    EXPECT_EQ(r.widen, 0 + 7);
    const auto f = sigs({"ff)f"});
    const ck_type_id big[] = {CK_TYPE_FLOAT64, CK_TYPE_INT64};
    ASSERT_EQ(ck__rate(&f[0], big, 2, &r), 1);
    EXPECT_EQ(r.unsafe, 2);
    EXPECT_EQ(r.widen, 0);
    char buf[96];
    ck__rating_format(&a, buf, sizeof buf);
    EXPECT_STREQ(buf, "0 unsafe, 0 inexact, 5 safe, 5 promote, 9 bytes wider");
    const ck__rating none = {0, 0, 0, 0, 0};
    ck__rating_format(&none, buf, sizeof buf);
    EXPECT_STREQ(buf, "exact");
}

// Each argument adds its conversion's kind to the counts and, unless unsafe, the bytes it
// widens by (the sizes from the types themselves); sixteen arguments of the widest kind fit.
TEST(Select, ARatingSumsItsArgumentsConversions) {
    for (int f = 0; f < CK_NUM_SCALAR_TYPES; ++f)
        for (int t = 0; t < CK_NUM_SCALAR_TYPES; ++t) {
            const auto from = static_cast<ck_type_id>(f), to = static_cast<ck_type_id>(t);
            ck__signature sig = {};
            sig.nargs = 16;
            std::vector<ck_type_id> args(16, from);
            for (int i = 0; i < 16; ++i) sig.args[i] = to;
            ck__rating r;
            ASSERT_EQ(ck__rate(&sig, args.data(), 16, &r), 1);
            const ck__conversion kind = ck__conversion_kind(from, to);
            const int bytes = static_cast<int>(ck_type_data_size(ck_type_scalar(to))) -
                              static_cast<int>(ck_type_data_size(ck_type_scalar(from)));
            SCOPED_TRACE(std::string(ck_type_id_name(from)) + " -> " + ck_type_id_name(to));
            EXPECT_EQ(r.unsafe, kind == CK__CONV_UNSAFE ? 16 : 0);
            EXPECT_EQ(r.inexact, kind == CK__CONV_INEXACT ? 16 : 0);
            EXPECT_EQ(r.safe, kind == CK__CONV_SAFE ? 16 : 0);
            EXPECT_EQ(r.promote, kind == CK__CONV_PROMOTE ? 16 : 0);
            EXPECT_EQ(r.widen, kind == CK__CONV_UNSAFE ? 0 : 16 * bytes);
        }
    // A non-scalar argument has no conversion.
    const auto c = sigs({"d)d"});
    const ck_type_id dim[] = {CK_TYPE_FIXED_DIM};
    ck__rating r;
    EXPECT_EQ(ck__rate(&c[0], dim, 1, &r), 0);
}

TEST(Select, TheBestRatingWins) {
    const auto c = sigs({"ii)i", "qq)q", "dd)d", "ZdZd)Zd"});
    // Exact beats everything.
    Choice x = choose(c, {CK_TYPE_INT32, CK_TYPE_INT32}, false);
    EXPECT_EQ(x.rc, CK_OK) << x.chosen;
    EXPECT_EQ(x.chosen, "ii)i");
    EXPECT_EQ(x.rating.promote + x.rating.safe + x.rating.inexact + x.rating.unsafe, 0);
    // int32 + int64: ii)i needs int64 -> int32 (unsafe); qq)q one promote; dd)d one safe
    // (int32) and one unsafe (int64): qq)q.
    x = choose(c, {CK_TYPE_INT32, CK_TYPE_INT64}, false);
    EXPECT_EQ(x.chosen, "qq)q");
    EXPECT_EQ(x.rating.promote, 1);
    // float32 + int16: dd)d (1 promote, 1 safe) beats ZdZd)Zd (2 safe).
    x = choose(c, {CK_TYPE_FLOAT32, CK_TYPE_INT16}, false);
    EXPECT_EQ(x.chosen, "dd)d");
    EXPECT_EQ(x.rating.safe, 1);
    EXPECT_EQ(x.rating.promote, 1);
    // bool + complex64: only ZdZd)Zd is lossless (bool safe, complex64 promote).
    x = choose(c, {CK_TYPE_BOOL, CK_TYPE_COMPLEX64}, false);
    EXPECT_EQ(x.chosen, "ZdZd)Zd");
}

TEST(Select, UnsafeConversionsOnlyWhenAllowed) {
    const auto c = sigs({"ii)i", "ff)f"});
    // float64 + int32: ii)i needs 1 unsafe (float64 -> int32), ff)f 2 (float64 -> float32,
    // int32 -> float32).
    Choice x = choose(c, {CK_TYPE_FLOAT64, CK_TYPE_INT32}, false);
    EXPECT_EQ(x.rc, CK_ERR_TYPE);
    EXPECT_EQ(x.chosen,
              "add: no signature takes (float64, int32) without unsafe conversions; candidates: "
              "(int32, int32) -> int32 [1 unsafe conversion], (float32, float32) -> float32 "
              "[2 unsafe conversions]")
        << "the nearest candidate first";
    x = choose(c, {CK_TYPE_FLOAT64, CK_TYPE_INT32}, true);
    EXPECT_EQ(x.rc, CK_OK) << x.chosen;
    EXPECT_EQ(x.chosen, "ii)i");
    EXPECT_EQ(x.rating.unsafe, 1);
}

TEST(Select, ArityAndEmptyCandidateLists) {
    const auto c = sigs({"d)d", "ddd)d"});
    Choice x = choose(c, {CK_TYPE_FLOAT64, CK_TYPE_FLOAT64}, true);
    EXPECT_EQ(x.rc, CK_ERR_TYPE);
    EXPECT_EQ(x.chosen, "add: no signature takes (float64, float64); candidates: (float64) -> "
                        "float64 [takes 1 argument], (float64, float64, float64) -> float64 "
                        "[takes 3 arguments]");
    x = choose({}, {CK_TYPE_INT8}, true);
    EXPECT_EQ(x.rc, CK_ERR_TYPE);
    EXPECT_EQ(x.chosen, "add: no signature takes (int8); it has no signatures");
}

TEST(Select, TheNarrowestLosslessFitBreaksATieOfCounts) {
    // int8 + int16 promote to (int32, int32) and (int64, int64) alike (two promotes each);
    // the first widens by 3 + 2 bytes, the second by 7 + 6.
    const auto c = sigs({"qq)q", "ii)i", "dd)d"});
    Choice x = choose(c, {CK_TYPE_INT8, CK_TYPE_INT16}, false);
    EXPECT_EQ(x.rc, CK_OK) << x.chosen;
    EXPECT_EQ(x.chosen, "ii)i");
    EXPECT_EQ(x.rating.widen, 5);
    // int8 + uint8: (int16, int16) is one promote and one safe, as is (int32, int32).
    const auto ints = sigs({"hh)h", "ii)i", "qq)q"});
    x = choose(ints, {CK_TYPE_INT8, CK_TYPE_UINT8}, false);
    EXPECT_EQ(x.chosen, "hh)h");
    EXPECT_EQ(x.rating.widen, 2);
}

TEST(Select, InexactConversionsRankBetweenLosslessAndUnsafeOnes) {
    const auto c = sigs({"ff)f", "dd)d", "ZdZd)Zd", "qq)q"});
    // int64 + float32: ff)f needs int64 -> float32 (unsafe); dd)d is 1 inexact, 1 promote;
    // ZdZd)Zd 1 inexact, 1 safe; qq)q float32 -> int64 (unsafe).
    Choice x = choose(c, {CK_TYPE_INT64, CK_TYPE_FLOAT32}, false);
    EXPECT_EQ(x.rc, CK_OK) << x.chosen;
    EXPECT_EQ(x.chosen, "dd)d");
    EXPECT_EQ(x.rating.inexact, 1);
    EXPECT_EQ(x.rating.promote, 1);
    // int64 + uint64: dd)d and ZdZd)Zd are both 2 inexact; the narrower (0 bytes wider
    // against 16) wins. qq)q and the others need an unsafe conversion.
    x = choose(c, {CK_TYPE_INT64, CK_TYPE_UINT64}, false);
    EXPECT_EQ(x.chosen, "dd)d");
    EXPECT_EQ(x.rating.inexact, 2);
    EXPECT_EQ(x.rating.widen, 0);
    // Allowing unsafe conversions changes nothing: 1 unsafe ranks below 2 inexact.
    x = choose(c, {CK_TYPE_INT64, CK_TYPE_UINT64}, true);
    EXPECT_EQ(x.chosen, "dd)d");
    // A lossless fit beats an inexact one: qd)d takes int64 exactly.
    const auto withqd = sigs({"dd)d", "qd)d"});
    x = choose(withqd, {CK_TYPE_INT64, CK_TYPE_FLOAT32}, false);
    EXPECT_EQ(x.chosen, "qd)d");
    EXPECT_EQ(x.rating.inexact, 0);
    // Two inexact candidates of one width tie.
    const auto tie = sigs({"qd)d", "dq)d"});
    x = choose(tie, {CK_TYPE_INT64, CK_TYPE_INT64}, false);
    EXPECT_EQ(x.rc, CK_ERR_AMBIGUOUS);
    EXPECT_EQ(x.chosen, "add: (int64, int64) matches 2 signatures equally well (0 unsafe, 1 "
                        "inexact, 0 safe, 0 promote, 0 bytes wider): (float64, int64) -> "
                        "float64, (int64, float64) -> float64");
}

TEST(Select, ATieIsAmbiguousAndListsTheTiedSignatures) {
    // (int32, int32) fits (int32, float64) and (float64, int32) alike: one exact, one safe
    // widening by 4 bytes; (float32, float32) needs two unsafe conversions.
    const auto c = sigs({"id)d", "di)d", "ff)f"});
    Choice x = choose(c, {CK_TYPE_INT32, CK_TYPE_INT32}, false);
    EXPECT_EQ(x.rc, CK_ERR_AMBIGUOUS);
    EXPECT_EQ(x.chosen, "add: (int32, int32) matches 2 signatures equally well (0 unsafe, 0 "
                        "inexact, 1 safe, 0 promote, 4 bytes wider): (float64, int32) -> "
                        "float64, "
                        "(int32, float64) -> float64");
    const auto withii = sigs({"id)d", "di)d", "ii)i"});
    x = choose(withii, {CK_TYPE_INT32, CK_TYPE_INT32}, false);
    EXPECT_EQ(x.rc, CK_OK);
    EXPECT_EQ(x.chosen, "ii)i");
}

TEST(Select, TheChoiceNeverDependsOnTheOrderOfTheCandidates) {
    auto c = sigs({"ii)i", "qq)q", "dd)d", "ff)f", "hh)h", "ZfZf)Zf", "BB)B", "(bool, bool) -> bool"});
    std::sort(c.begin(), c.end(), [](const ck__signature &a, const ck__signature &b) {
        return text(a) < text(b);
    });
    const std::vector<std::vector<ck_type_id>> queries = {
        {CK_TYPE_INT8, CK_TYPE_INT8},     {CK_TYPE_UINT8, CK_TYPE_INT32},
        {CK_TYPE_FLOAT16, CK_TYPE_BOOL},  {CK_TYPE_INT8, CK_TYPE_FLOAT32},
        {CK_TYPE_UINT64, CK_TYPE_UINT64}, {CK_TYPE_COMPLEX128, CK_TYPE_INT8},
    };
    for (const auto &q : queries)
        for (bool unsafe : {false, true}) {
            const Choice first = choose(c, q, unsafe);
            auto perm = c;
            for (int k = 0; k < 20; ++k) {
                std::next_permutation(perm.begin(), perm.end(), [](const ck__signature &a,
                                                                   const ck__signature &b) {
                    return text(a) < text(b);
                });
                const Choice again = choose(perm, q, unsafe);
                EXPECT_EQ(again.rc, first.rc);
                EXPECT_EQ(again.chosen, first.chosen) << "order changed the outcome";
            }
        }
}

TEST(Select, AllocationFailureWhileReporting) {
    const auto c = sigs({"id)d", "di)d"});
    const ck_type_id args[] = {CK_TYPE_INT32, CK_TYPE_INT32};
    ASSERT_EQ(ckt_alloc_install(), CK_OK);
    for (int64_t n = 1; n <= 3; ++n) {
        ckt_alloc_fail_at(n);
        int best = -1;
        ck__rating r;
        const int rc = ck__select("add", c.data(), 2, args, 2, 0, &best, &r);
        EXPECT_TRUE(rc == CK_ERR_NOMEM || rc == CK_ERR_AMBIGUOUS) << ck_status_name(rc);
        EXPECT_EQ(ckt::live_allocations(), 0);
    }
    ckt_alloc_fail_at(0);
    EXPECT_EQ(ckt_alloc_uninstall(), CK_OK);
}

// ---- NumPy's rule (CK_SELECT_FIRST_SAFE) ----

// np.can_cast(row, column, "safe") as NumPy 1.24 prints it, in ck_type_id order without
// bfloat16 (bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64
// complex64 complex128); bfloat16's row and column by NumPy's rules (docs/design.md §10).
TEST(SelectFirstSafe, NumPysSafeCastsAreNumPysTable) {
    const char *const numpy[] = {
        "11111111111111", "01111000011111", "00111000001111", "00011000000101", "00001000000101",
        "00111111111111", "00011011101111", "00001001100101", "00000000100101", "00000000011111",
        "00000000001111", "00000000000101", "00000000000011", "00000000000001"};
    std::vector<ck_type_id> ids;
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; id++) {
        if (id != CK_TYPE_BFLOAT16) ids.push_back(static_cast<ck_type_id>(id));
    }
    ASSERT_EQ(ids.size(), 14u);
    for (size_t r = 0; r < ids.size(); r++) {
        for (size_t c = 0; c < ids.size(); c++) {
            EXPECT_EQ(ck__numpy_safe(ids[r], ids[c]), numpy[r][c] - '0')
                << ck_type_id_name(ids[r]) << " -> " << ck_type_id_name(ids[c]);
        }
    }
    // bfloat16: from bool, int8 and uint8 (a component wider than the integer); to float32,
    // float64 and the complex types; not to or from float16 (neither holds the other).
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; id++) {
        const ck_type_id t = static_cast<ck_type_id>(id);
        const bool from = t == CK_TYPE_BOOL || t == CK_TYPE_INT8 || t == CK_TYPE_UINT8 ||
                          t == CK_TYPE_BFLOAT16;
        const bool to = t == CK_TYPE_BFLOAT16 || t == CK_TYPE_FLOAT32 || t == CK_TYPE_FLOAT64 ||
                        t == CK_TYPE_COMPLEX64 || t == CK_TYPE_COMPLEX128;
        EXPECT_EQ(ck__numpy_safe(t, CK_TYPE_BFLOAT16), from ? 1 : 0) << ck_type_id_name(t);
        EXPECT_EQ(ck__numpy_safe(CK_TYPE_BFLOAT16, t), to ? 1 : 0) << ck_type_id_name(t);
    }
    EXPECT_EQ(ck__numpy_safe(CK_TYPE_FIXED_DIM, CK_TYPE_INT8), 0);
}

int never_instantiated(void *, ck_builder *, size_t *, const ck_leaf_info *) {
    return ck_set_error(CK_ERR_INTERNAL, "not built here");
}

// A callable whose signatures are added in `order`, with `rule`; the selection's text.
std::string select_in(ck_selection rule, std::vector<const char *> order,
                      std::vector<ck_type_id> args, bool unsafe = false) {
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_callable_new("f", &c), CK_OK);
    EXPECT_EQ(ck_callable_set_selection(c, rule), CK_OK);
    EXPECT_EQ(ck_callable_selection(c), rule);
    for (const char *s : order) {
        const ck_factory f = {never_instantiated, nullptr, nullptr, nullptr};
        EXPECT_EQ(ck_callable_add(c, s, &f), CK_OK) << ck_last_error();
    }
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = unsafe ? CK_EVAL_ALLOW_UNSAFE : 0;
    int index = -1;
    char *why = nullptr;
    const int rc = ck_callable_select(c, static_cast<int>(args.size()), args.data(), &ctx, &index,
                                      &why);
    std::string out = rc == CK_OK ? std::string(why)
                                  : ck_status_name(rc) + std::string(": ") + ck_last_error();
    ck_free(why);
    ck_callable_decref(c);
    return out.substr(0, out.find(':', rc == CK_OK ? 0 : out.find(':') + 1));
}

TEST(SelectFirstSafe, TheFirstSignatureInTheOrderOfAddsThatTakesTheArgumentsSafely) {
    // int16 goes safely to float64 and float32: the first added wins, where the ranking
    // takes the narrower.
    EXPECT_EQ(select_in(CK_SELECT_FIRST_SAFE, {"d)d", "f)f"}, {CK_TYPE_INT16}),
              "(float64) -> float64");
    EXPECT_EQ(select_in(CK_SELECT_FIRST_SAFE, {"f)f", "d)d"}, {CK_TYPE_INT16}),
              "(float32) -> float32");
    EXPECT_EQ(select_in(CK_SELECT_BEST, {"d)d", "f)f"}, {CK_TYPE_INT16}), "(float32) -> float32");
    // int64 -> float64 is safe by NumPy's table (inexact by the kinds), int32 -> float32 not.
    EXPECT_EQ(select_in(CK_SELECT_FIRST_SAFE, {"f)f", "d)d"}, {CK_TYPE_INT64}),
              "(float64) -> float64");
    EXPECT_EQ(select_in(CK_SELECT_FIRST_SAFE, {"f)f", "d)d"}, {CK_TYPE_INT32}),
              "(float64) -> float64");
    // uint16 skips uint8 (narrower) and int16 (not wider) for int32.
    EXPECT_EQ(select_in(CK_SELECT_FIRST_SAFE, {"B)B", "h)h", "i)i", "H)H"}, {CK_TYPE_UINT16}),
              "(int32) -> int32");
    // Two arguments: both must cast safely.
    EXPECT_EQ(select_in(CK_SELECT_FIRST_SAFE, {"bb)b", "BB)B", "hh)h"},
                        {CK_TYPE_INT8, CK_TYPE_UINT8}),
              "(int16, int16) -> int16");
    // None safe: a refusal listing the candidates, or with unsafe allowed the ranking's choice.
    EXPECT_EQ(select_in(CK_SELECT_FIRST_SAFE, {"B)B", "b)b"}, {CK_TYPE_FLOAT64}), "CK_ERR_TYPE: f");
    EXPECT_EQ(select_in(CK_SELECT_FIRST_SAFE, {"b)b", "B)B", "h)h"}, {CK_TYPE_FLOAT64}, true),
              "CK_ERR_AMBIGUOUS: f");
    EXPECT_EQ(select_in(CK_SELECT_FIRST_SAFE, {"bb)b", "ff)f"}, {CK_TYPE_FLOAT64, CK_TYPE_FLOAT32},
                        true),
              "(float32, float32) -> float32");
}

TEST(SelectFirstSafe, TheRuleIsSetBeforeTheFirstSignature) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("g", &c), CK_OK);
    EXPECT_EQ(ck_callable_selection(c), CK_SELECT_BEST);
    EXPECT_EQ(ck_callable_set_selection(c, static_cast<ck_selection>(7)), CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(), "ck_callable_set_selection: unknown rule");
    const ck_factory f = {never_instantiated, nullptr, nullptr, nullptr};
    ASSERT_EQ(ck_callable_add(c, "d)d", &f), CK_OK);
    EXPECT_EQ(ck_callable_set_selection(c, CK_SELECT_FIRST_SAFE), CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(), "ck_callable_set_selection: g has signatures already; set the "
                                  "rule before the first");
    EXPECT_EQ(ck_callable_selection(c), CK_SELECT_BEST);
    EXPECT_EQ(ck_callable_set_selection(nullptr, CK_SELECT_BEST), CK_ERR_INVALID);
    EXPECT_EQ(ck_callable_selection(nullptr), CK_SELECT_BEST);
    ck_callable_decref(c);
    // The built-ins select by NumPy's rule.
    ASSERT_EQ(ck_lookup("add", &c), CK_OK);
    EXPECT_EQ(ck_callable_selection(c), CK_SELECT_FIRST_SAFE);
    ck_callable_decref(c);
}

}  // namespace
