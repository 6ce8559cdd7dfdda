// tests/callables/two_results_test.cpp: calls of two results (divmod, modf, frexp and a
// user's callable of signature "(float64) -> (float64, int32)"): the result type is the tuple
// of the two under the broadcast dimensions, the values are hand-computed, the destination
// must be that tuple in its C layout (another tuple, other offsets, a scalar or an option
// argument are CK_ERR_TYPE), a misaligned destination is written through scratch, the
// callables that cannot take two results refuse them (reductions, expressions, natives, a
// callable of one result), and a build fails cleanly at every allocation.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ckernel/ckernel.h"
#include "ckt.hpp"

namespace {

std::string format_type(const ck_type *t) {
    char *s = nullptr;
    if (ck_type_format(t, &s) != CK_OK) return "?";
    std::string r = s;
    ck_free(s);
    return r;
}

std::string format_array(const ck_array *a) {
    char *s = nullptr;
    if (ck_array_format(a, &s) != CK_OK) return std::string("error: ") + ck_last_error();
    std::string r = s;
    ck_free(s);
    return r;
}

// name over literals of the given types into a new result: its text, or the error.
struct Outcome {
    int rc;
    std::string text, type;
};
Outcome call(const char *name, const char *t0, const char *v0, const char *t1 = nullptr,
             const char *v1 = nullptr, unsigned flags = 0) {
    ck_callable *c = nullptr;
    ck_type *ts[2] = {nullptr, nullptr};
    ck_array *in[2] = {nullptr, nullptr}, *r = nullptr;
    const int n = t1 != nullptr ? 2 : 1;
    int rc = ck_lookup(name, &c);
    for (int k = 0; k < n && rc == CK_OK; k++) {
        rc = ck_type_parse(k == 0 ? t0 : t1, &ts[k]);
        if (rc == CK_OK) rc = ck_array_parse(ts[k], k == 0 ? v0 : v1, &in[k]);
    }
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = flags;
    const ck_array *args[2] = {in[0], in[1]};
    if (rc == CK_OK) rc = ck_call_new(c, n, args, &ctx, &r);
    char *text = nullptr, *type = nullptr;
    if (rc == CK_OK) rc = ck_array_format(r, &text);
    if (rc == CK_OK) rc = ck_type_format(ck_array_type(r), &type);
    Outcome o{rc, rc == CK_OK ? text : ck_last_error(), rc == CK_OK ? type : ""};
    ck_free(text);
    ck_free(type);
    ck_array_free(r);
    for (int k = 0; k < 2; k++) {
        ck_array_free(in[k]);
        ck_type_decref(ts[k]);
    }
    ck_callable_decref(c);
    return o;
}

TEST(TwoResults, TheResultIsTheTupleOfTheTwoWithHandComputedValues) {
    Outcome o = call("divmod", "4 * int64", "[7, -7, 7, 0]", "4 * int64", "[2, 2, 0, 0]");
    ASSERT_EQ(o.rc, CK_OK) << o.text;
    EXPECT_EQ(o.type, "4 * (int64, int64)");
    EXPECT_EQ(o.text, "[(3, 1), (-4, 1), (0, 0), (0, 0)]");  // NumPy's zeros for / 0
    o = call("divmod", "2 * 3 * float64", "[[7.5, -7.5, 1], [0, 5, -0.5]]", "3 * float64",
             "[2, 2, -0.25]");
    ASSERT_EQ(o.rc, CK_OK) << o.text;
    EXPECT_EQ(o.type, "2 * 3 * (float64, float64)");
    EXPECT_EQ(o.text, "[[(3, 1.5), (-4, 0.5), (-4, -0)], [(0, 0), (2, 1), (2, -0)]]");
    o = call("divmod", "int8", "-7", "uint8", "2");  // NumPy's loop: int16
    ASSERT_EQ(o.rc, CK_OK) << o.text;
    EXPECT_EQ(o.type, "(int16, int16)");
    EXPECT_EQ(o.text, "(-4, 1)");
    o = call("modf", "4 * float64", "[1.5, -2.25, inf, -0]");
    ASSERT_EQ(o.rc, CK_OK) << o.text;
    EXPECT_EQ(o.text, "[(0.5, 1), (-0.25, -2), (0, inf), (-0, -0)]");
    o = call("frexp", "4 * float32", "[8, 0.375, -0, 1e-40]");
    ASSERT_EQ(o.rc, CK_OK) << o.text;
    EXPECT_EQ(o.type, "4 * (float32, int32)");
    // 1e-40 (float32 subnormal 0x000116c2) is 0.5446... * 2^-132
    EXPECT_EQ(o.text.substr(0, 31), "[(0.5, 4), (0.75, -1), (-0, 0),");
    EXPECT_NE(o.text.find(", -132)]"), std::string::npos) << o.text;
    o = call("frexp", "float16", "6");
    ASSERT_EQ(o.rc, CK_OK) << o.text;
    EXPECT_EQ(o.text, "(0.75, 3)");
}

TEST(TwoResults, DivmodByZeroIsAnErrorWithFpErrors) {
    Outcome o = call("divmod", "2 * int64", "[1, 7]", "2 * int64", "[1, 0]", CK_EVAL_FP_ERRORS);
    EXPECT_EQ(o.rc, CK_ERR_ZERO_DIVISION);
    EXPECT_EQ(o.text, "divmod: division by zero: divmod(7, 0) at element [1]");
    o = call("divmod", "float64", "1", "float64", "0", CK_EVAL_FP_ERRORS);
    EXPECT_EQ(o.rc, CK_ERR_ZERO_DIVISION) << o.text;
}

// ck_make_call of divmod(3 * int64, 3 * int64) into dst (type text, arrmeta, data).
int build_into(const char *dst_type, const char *dst_arrmeta, unsigned flags, char *dst,
               std::string *text) {
    ck_callable *c = nullptr;
    ck_type *st = nullptr, *dt = nullptr;
    ck_array *a = nullptr;
    int rc = ck_lookup("divmod", &c);
    if (rc == CK_OK) rc = ck_type_parse("3 * int64", &st);
    if (rc == CK_OK) rc = ck_type_parse(dst_type, &dt);
    if (rc == CK_OK) rc = ck_array_parse(st, "[7, -9, 10]", &a);
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = flags;
    const ck_type *sts[2] = {st, st};
    const char *sam[2] = {ck_array_arrmeta(a), ck_array_arrmeta(a)};
    if (rc == CK_OK) {
        rc = ck_make_call(&b, &off, c, dt, dst_arrmeta, 2, sts, sam, CK_REQUEST_SINGLE, &ctx);
    }
    if (rc == CK_OK) {
        char *src[2] = {ck_array_data(a), ck_array_data(a)};
        rc = ck_call_single(ck_builder_root(&b), dst, src);
    }
    *text = rc == CK_OK ? "" : ck_last_error();
    ck_builder_destroy(&b);
    ck_array_free(a);
    ck_type_decref(dt);
    ck_type_decref(st);
    ck_callable_decref(c);
    return rc;
}

TEST(TwoResults, TheDestinationIsTheTupleInItsCLayoutOrTheCallRefuses) {
    struct {
        ck_fixed_dim_arrmeta dim;
        intptr_t fields[2];
    } am = {{3, 16}, {0, 8}};
    alignas(16) char data[3 * 16 + 8];
    std::string why;
    ASSERT_EQ(build_into("3 * (int64, int64)", reinterpret_cast<char *>(&am), 0, data, &why),
              CK_OK)
        << why;
    int64_t v[6];
    std::memcpy(v, data, sizeof v);
    EXPECT_EQ(v[0], 1);  // 7 // 7, 7 % 7
    EXPECT_EQ(v[1], 0);
    EXPECT_EQ(v[2], 1);
    EXPECT_EQ(v[4], 1);
    // a struct of the same fields: the names do not matter
    EXPECT_EQ(build_into("3 * {q: int64, r: int64}", reinterpret_cast<char *>(&am), 0, data,
                         &why),
              CK_OK)
        << why;
    // other field types
    EXPECT_EQ(build_into("3 * (float64, float64)", reinterpret_cast<char *>(&am), 0, data, &why),
              CK_ERR_TYPE);
    EXPECT_EQ(why, "divmod: the destination holds (float64, float64); a call of signature "
                   "(int64, int64) -> (int64, int64) writes its two results as (int64, int64)");
    EXPECT_EQ(build_into("3 * int64", reinterpret_cast<char *>(&am), 0, data, &why),
              CK_ERR_TYPE);
    // the fields swapped: not the C layout
    am.fields[0] = 8;
    am.fields[1] = 0;
    EXPECT_EQ(build_into("3 * (int64, int64)", reinterpret_cast<char *>(&am), 0, data, &why),
              CK_ERR_TYPE);
    EXPECT_EQ(why, "a call's two results are written as one C struct: the destination tuple's "
                   "fields must be at their default offsets");
}

TEST(TwoResults, AMisalignedDestinationIsWrittenThroughScratch) {
    struct {
        ck_fixed_dim_arrmeta dim;
        intptr_t fields[2];
    } am = {{3, 16}, {0, 8}};
    alignas(16) char data[3 * 16 + 8];
    std::memset(data, 0x5a, sizeof data);
    std::string why;
    ASSERT_EQ(build_into("3 * (int64, int64)", reinterpret_cast<char *>(&am), CK_EVAL_DST_UNALIGNED,
                         data + 1, &why),
              CK_OK)
        << why;
    int64_t q[3], r[3];
    for (int i = 0; i < 3; i++) {
        std::memcpy(&q[i], data + 1 + 16 * i, 8);
        std::memcpy(&r[i], data + 1 + 16 * i + 8, 8);
    }
    EXPECT_EQ(q[0], 1);
    EXPECT_EQ(q[1], 1);  // -9 // -9
    EXPECT_EQ(q[2], 1);
    EXPECT_EQ(r[0] | r[1] | r[2], 0);
    EXPECT_EQ(static_cast<unsigned char>(data[0]), 0x5a);  // nothing before the destination
    EXPECT_EQ(static_cast<unsigned char>(data[3 * 16 + 1]), 0x5a);  // nor after it
}

TEST(TwoResults, WhatTakesOneResultRefusesTwo) {
    Outcome o = call("divmod", "2 * ?int64", "[1, NA]", "int64", "2");
    EXPECT_EQ(o.rc, CK_ERR_TYPE);
    EXPECT_EQ(o.text, "divmod: an argument is an option; a call of two results ((int64, int64) -> "
                      "(int64, int64)) takes none");

    ck_callable *c = nullptr;
    ASSERT_EQ(ck_lookup("modf", &c), CK_OK);
    EXPECT_EQ(ck_callable_result_count(c), 2);
    ck_callable_decref(c);
    ASSERT_EQ(ck_lookup("add", &c), CK_OK);
    EXPECT_EQ(ck_callable_result_count(c), 1);
    ck_callable_decref(c);
    EXPECT_EQ(ck_callable_result_count(nullptr), 0);

    // a reduction of divmod
    ck_type *t = nullptr;
    ck_array *a = nullptr, *r = nullptr;
    ASSERT_EQ(ck_type_parse("3 * int64", &t), CK_OK);
    ASSERT_EQ(ck_array_parse(t, "[1, 2, 3]", &a), CK_OK);
    ck_reduce_spec spec = {};
    ASSERT_EQ(ck_reduction_lookup("divmod", &spec.callable), CK_OK);
    EXPECT_EQ(ck_reduce_new(&spec, a, nullptr, &r), CK_ERR_TYPE);
    ck_callable_decref(spec.callable);
    EXPECT_STREQ(ck_last_error(), "divmod gives two results ((int64, int64) -> (int64, int64)); a "
                                  "reduction or accumulation folds with one (A, A) -> A");
    ck_array_free(r);
    ck_array_free(a);
    ck_type_decref(t);

    // an expression node
    ck_expr *x = nullptr;
    ASSERT_EQ(ck_expr_parse("divmod(a, b) + 1", &x), CK_OK) << ck_last_error();
    const ck_type *two[2] = {ck_type_scalar(CK_TYPE_INT64), ck_type_scalar(CK_TYPE_INT64)};
    ck_type *rt = nullptr;
    EXPECT_EQ(ck_expr_result_type(x, 2, nullptr, two, nullptr, &rt), CK_ERR_UNSUPPORTED);
    EXPECT_STREQ(ck_last_error(), "expression column 1: divmod gives two results ((int64, int64) "
                                  "-> (int64, int64)); an expression's value is one: call it on "
                                  "its own");
    ck_expr_decref(x);
}

int pair_leaf(ck_prefix *, char *dst, intptr_t ds, char *const *src, const intptr_t *ss,
              size_t n) {
    for (size_t i = 0; i < n; i++) {
        double x;
        std::memcpy(&x, src[0] + static_cast<intptr_t>(i) * ss[0], 8);
        const double twice = 2 * x;
        const int32_t floor = static_cast<int32_t>(x);
        std::memcpy(dst + static_cast<intptr_t>(i) * ds, &twice, 8);
        std::memcpy(dst + static_cast<intptr_t>(i) * ds + 8, &floor, 4);
    }
    return CK_OK;
}
int pair_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero[1] = {0};
    return pair_leaf(self, dst, 0, src, zero, 1);
}
int pair_instantiate(void *, ck_builder *b, size_t *off, const ck_leaf_info *info) {
    EXPECT_EQ(info->nret, 2);
    EXPECT_EQ(info->ret, CK_TYPE_FLOAT64);
    EXPECT_EQ(info->ret2, CK_TYPE_INT32);
    const int rc = ck_builder_reserve_leaf(b, *off + sizeof(ck_prefix));
    if (rc != CK_OK) return rc;
    ck_prefix_set_function(static_cast<ck_prefix *>(ck_builder_at(b, *off)), info->req, pair_single,
                           pair_leaf);
    *off += sizeof(ck_prefix);
    return CK_OK;
}

TEST(TwoResults, AUsersCallableOfTwoResults) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("twice_and_int", &c), CK_OK);
    const ck_factory f = {pair_instantiate, nullptr, nullptr, nullptr};
    ASSERT_EQ(ck_callable_add(c, "(float64) -> (float64, int32)", &f), CK_OK) << ck_last_error();
    EXPECT_EQ(ck_callable_add(c, "(float32) -> float32", &f), CK_ERR_INVALID);
    EXPECT_STREQ(ck_last_error(), "ck_callable_add: twice_and_int's signatures have two results "
                                  "((float64) -> (float64, int32)); every signature of a "
                                  "callable has as many");
    ck_type *t = nullptr;
    ck_array *a = nullptr, *r = nullptr;
    ASSERT_EQ(ck_type_parse("3 * int16", &t), CK_OK);  // cast to float64 on the way in
    ASSERT_EQ(ck_array_parse(t, "[1, -3, 40]", &a), CK_OK);
    const ck_array *args[1] = {a};
    ASSERT_EQ(ck_call_new(c, 1, args, nullptr, &r), CK_OK) << ck_last_error();
    EXPECT_EQ(format_type(ck_array_type(r)), "3 * (float64, int32)");
    EXPECT_EQ(format_array(r), "[(2, 1), (-6, -3), (80, 40)]");
    ck_array_free(r);
    ck_array_free(a);
    ck_type_decref(t);
    ck_callable_decref(c);

    ASSERT_EQ(ck_callable_new("native_pair", &c), CK_OK);
    EXPECT_EQ(ck_callable_add_native(c, "d)di", reinterpret_cast<void (*)(void)>(&pair_single)),
              CK_ERR_UNSUPPORTED);
    EXPECT_STREQ(ck_last_error(),
                 "ck_callable_add_native: 'd)di': a C function returns one value, not two");
    ck_callable_decref(c);
}

TEST(TwoResults, EveryAllocationFailureOfTheBuildIsClean) {
    const int64_t points = ckt::for_each_alloc_failure([] {
        Outcome o = call("divmod", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", "3 * int32",
                         "[2, 2, 0]");
        if (o.rc == CK_OK) {
            EXPECT_EQ(o.text, "[[(0, 1), (1, 0), (0, 0)], [(2, 0), (2, 1), (0, 0)]]");
        }
        return o.rc;
    });
    EXPECT_GT(points, 3);
}

}  // namespace
