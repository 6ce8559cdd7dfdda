// tests/callables/call_test.cpp: callables through the public API: user factories lifted
// over fixed, var and pointer dimensions with N sources and broadcasting, argument and result
// casts with error modes, selection outcomes (ambiguity, no match, unsafe allowed), the
// selection cache and its invalidation, the registry, describe callbacks, allocation failure
// at every point of building a call's kernel. Expected values are computed by hand.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "ckernel/callable.h"
#include "ckt.hpp"
#include "ckt_array.hpp"
#include "call_literals.hpp"

namespace {

using ckt::Array;
using ckt::Type;

// ---- a user kernel: y = a*x + b, with a and b in the kernel ----
struct Axpb {
    ck_prefix base;
    double a, b;
};

int axpb_strided(ck_prefix *self, char *dst, intptr_t ds, char *const *src, const intptr_t *ss,
                 size_t n) {
    const Axpb *k = reinterpret_cast<const Axpb *>(self);
    const char *x = src[0];
    for (size_t i = 0; i < n; ++i, dst += ds, x += ss[0]) {
        double v;
        std::memcpy(&v, x, 8);
        v = k->a * v + k->b;
        std::memcpy(dst, &v, 8);
    }
    return CK_OK;
}
int axpb_single(ck_prefix *self, char *dst, char *const *src) {
    const intptr_t zero = 0;
    return axpb_strided(self, dst, 0, src, &zero, 1);
}

struct AxpbParams {
    double a, b;
    int *released;
};

int axpb_instantiate(void *data, ck_builder *ckb, size_t *offset, const ck_leaf_info *info) {
    const AxpbParams *p = static_cast<const AxpbParams *>(data);
    int rc = ck_builder_reserve_leaf(ckb, *offset + sizeof(Axpb));
    if (rc != CK_OK) return rc;
    Axpb *k = static_cast<Axpb *>(ck_builder_at(ckb, *offset));
    ck_prefix_set_function(&k->base, info->req, axpb_single, axpb_strided);
    k->a = p->a;
    k->b = p->b;
    *offset += sizeof(Axpb);
    return CK_OK;
}

void axpb_describe(const ck_prefix *self, ck_describer *d) {
    const Axpb *k = reinterpret_cast<const Axpb *>(self);
    ck_describe_printf(d, "a=%g b=%g", k->a, k->b);
}

void release_counter(void *data) {
    ++*static_cast<AxpbParams *>(data)->released;
    delete static_cast<AxpbParams *>(data);
}

// A callable "axpb" with (float64) -> float64.
ck_callable *make_axpb(double a, double b, int *released) {
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_callable_new("axpb", &c), CK_OK) << ck_last_error();
    ck_factory f = {axpb_instantiate, nullptr, new AxpbParams{a, b, released}, release_counter};
    EXPECT_EQ(ck_callable_add(c, "(float64) -> float64", &f), CK_OK) << ck_last_error();
    return c;
}

// ---- a user binary kernel: dst = src0 - 10 * src1 (not symmetric, so argument order shows) --
int sub10_strided(ck_prefix *, char *dst, intptr_t ds, char *const *src, const intptr_t *ss,
                  size_t n) {
    const char *x = src[0], *y = src[1];
    for (size_t i = 0; i < n; ++i, dst += ds, x += ss[0], y += ss[1]) {
        double a, b;
        std::memcpy(&a, x, 8);
        std::memcpy(&b, y, 8);
        a = a - 10 * b;
        std::memcpy(dst, &a, 8);
    }
    return CK_OK;
}
int sub10_single(ck_prefix *self, char *dst, char *const *src) {
    const intptr_t zero[2] = {0, 0};
    return sub10_strided(self, dst, 0, src, zero, 1);
}
int sub10_instantiate(void *, ck_builder *ckb, size_t *offset, const ck_leaf_info *info) {
    int rc = ck_builder_reserve_leaf(ckb, *offset + sizeof(ck_prefix));
    if (rc != CK_OK) return rc;
    ck_prefix_set_function(static_cast<ck_prefix *>(ck_builder_at(ckb, *offset)), info->req,
                           sub10_single, sub10_strided);
    *offset += sizeof(ck_prefix);
    return CK_OK;
}

// The same operation for any argument types the signature names (read into double): for
// callables that grow signatures of many types.
struct AnySub10 {
    ck_prefix base;
    ck_type_id args[2];
};

double read_as_double(ck_type_id id, const char *p) {
    switch (id) {
    case CK_TYPE_INT8: return static_cast<double>(*reinterpret_cast<const int8_t *>(p));
    case CK_TYPE_INT16: return static_cast<double>(*reinterpret_cast<const int16_t *>(p));
    case CK_TYPE_INT32: return static_cast<double>(*reinterpret_cast<const int32_t *>(p));
    case CK_TYPE_INT64: return static_cast<double>(*reinterpret_cast<const int64_t *>(p));
    case CK_TYPE_UINT8: return static_cast<double>(*reinterpret_cast<const uint8_t *>(p));
    case CK_TYPE_UINT16: return static_cast<double>(*reinterpret_cast<const uint16_t *>(p));
    case CK_TYPE_UINT32: return static_cast<double>(*reinterpret_cast<const uint32_t *>(p));
    default: return *reinterpret_cast<const double *>(p);
    }
}

int any_sub10_strided(ck_prefix *self, char *dst, intptr_t ds, char *const *src,
                      const intptr_t *ss, size_t n) {
    const AnySub10 *k = reinterpret_cast<const AnySub10 *>(self);
    const char *x = src[0], *y = src[1];
    for (size_t i = 0; i < n; ++i, dst += ds, x += ss[0], y += ss[1]) {
        const double v = read_as_double(k->args[0], x) - 10 * read_as_double(k->args[1], y);
        std::memcpy(dst, &v, 8);
    }
    return CK_OK;
}
int any_sub10_single(ck_prefix *self, char *dst, char *const *src) {
    const intptr_t zero[2] = {0, 0};
    return any_sub10_strided(self, dst, 0, src, zero, 1);
}
int any_sub10_instantiate(void *, ck_builder *ckb, size_t *offset, const ck_leaf_info *info) {
    if (info->ret != CK_TYPE_FLOAT64) return ck_set_error(CK_ERR_TYPE, "sub10: float64 only");
    int rc = ck_builder_reserve_leaf(ckb, *offset + sizeof(AnySub10));
    if (rc != CK_OK) return rc;
    AnySub10 *k = static_cast<AnySub10 *>(ck_builder_at(ckb, *offset));
    ck_prefix_set_function(&k->base, info->req, any_sub10_single, any_sub10_strided);
    k->args[0] = info->args[0];
    k->args[1] = info->args[1];
    *offset += sizeof(AnySub10);
    return CK_OK;
}

ck_callable *make_sub10() {
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_callable_new("sub10", &c), CK_OK);
    ck_factory f = {sub10_instantiate, nullptr, nullptr, nullptr};
    EXPECT_EQ(ck_callable_add(c, "dd)d", &f), CK_OK) << ck_last_error();
    return c;
}

using ckt::call;

TEST(Callable, AUserFactoryIsLiftedOverVarDimensions) {
    int released = 0;
    ck_callable *c = make_axpb(2.0, 0.5, &released);
    // 2x + 0.5 over ragged rows, every value hand-computed.
    EXPECT_EQ(call(c, {{"3 * var * float64", "[[1, 2], [], [-1.25, 4, 0]]"}}),
              "[[2.5, 4.5], [], [-2, 8.5, 0.5]]");
    // An int32 argument is cast to float64 first, the result cast to float32.
    EXPECT_EQ(call(c, {{"var * int32", "[1, 2, 3]"}}, "3 * float32"), "[2.5, 4.5, 6.5]");
    EXPECT_EQ(released, 0);
    ck_callable_decref(c);
    EXPECT_EQ(released, 1) << "the last reference releases the factory's data once";
}

TEST(Callable, ResultCastsHonourTheErrorMode) {
    int released = 0;
    ck_callable *c = make_axpb(1.0, 0.5, &released);
    // 1*2 + 0.5 = 2.5: dropped fraction is refused in fractional mode, truncated in nocheck.
    EXPECT_EQ(call(c, {{"2 * int32", "[2, 4]"}}, "2 * int32"),
              "CK_ERR_FRACTIONAL: float64 value 2.5 has a fractional part (int32)");
    EXPECT_EQ(call(c, {{"2 * int32", "[2, 4]"}}, "2 * int32", ckt::ctx(CK_ERRMODE_NOCHECK)),
              "[2, 4]");
    ck_callable_decref(c);
}

TEST(Callable, BinaryBroadcastingOverFixedDimensions) {
    ck_callable *c = make_sub10();
    // (2 x 1) - 10 * (1 x 3) broadcast to 2 x 3: a[i][0] - 10*b[0][j].
    EXPECT_EQ(call(c, {{"2 * 1 * float64", "[[100], [200]]"}, {"1 * 3 * float64", "[[1, 2, 3]]"}}),
              "[[90, 80, 70], [190, 180, 170]]");
    // A missing leading dimension broadcasts; the argument order is kept.
    EXPECT_EQ(call(c, {{"float64", "5"}, {"3 * float64", "[1, 2, 3]"}}), "[-5, -15, -25]");
    EXPECT_EQ(call(c, {{"3 * float64", "[1, 2, 3]"}, {"float64", "5"}}), "[-49, -48, -47]");
    // Mismatched sizes are an error naming the argument.
    EXPECT_EQ(call(c, {{"2 * float64", "[1, 2]"}, {"3 * float64", "[1, 2, 3]"}}),
              "CK_ERR_BROADCAST: sub10: cannot broadcast the arguments together: dimension 0 "
              "has sizes 2 and 3");
    ck_callable_decref(c);
}

TEST(Callable, BinaryBroadcastingOverVarAndPointerDimensions) {
    ck_callable *c = make_sub10();
    // var rows against a fixed row of size 1 and a scalar behind a pointer.
    EXPECT_EQ(call(c, {{"2 * var * float64", "[[10, 20, 30], [40]]"}, {"1 * float64", "[1]"}}),
              "[[0, 10, 20], [30]]");
    EXPECT_EQ(call(c, {{"var * float64", "[1, 2]"}, {"pointer[float64]", "3"}}), "[-29, -28]");
    EXPECT_EQ(call(c, {{"pointer[2 * float64]", "[50, 60]"}, {"var * float64", "[1, 2]"}}),
              "[40, 40]");
    // Two var arguments of sizes 1 and 3 broadcast; sizes 2 and 3 do not.
    EXPECT_EQ(call(c, {{"2 * var * float64", "[[100], [1, 2, 3]]"},
                       {"2 * var * float64", "[[1, 2, 3], [0]]"}}),
              "[[90, 80, 70], [1, 2, 3]]");
    const std::string bad = call(c, {{"var * float64", "[1, 2]"}, {"var * float64", "[1, 2, 3]"}});
    EXPECT_EQ(bad, "CK_ERR_BROADCAST: var dimension 0: cannot broadcast arguments of sizes 2 and "
                   "3 together");
    ck_callable_decref(c);
}

// Rows that are all ragged and of one size go straight to the leaf; a row that broadcasts,
// is unallocated or does not match takes the general path, between regular rows.
TEST(Callable, RaggedRowsMixRegularAndBroadcastRows) {
    ck_callable *c = make_sub10();
    // Into a destination whose rows are allocated (the rows a host preallocates).
    const auto into = [c](const char *dst_literal, const char *a, const char *b) {
        ck_type *t = nullptr;
        EXPECT_EQ(ck_type_parse("5 * var * float64", &t), CK_OK);
        ck_array *dst = nullptr, *args[2] = {nullptr, nullptr};
        EXPECT_EQ(ck_array_parse(t, dst_literal, &dst), CK_OK);
        EXPECT_EQ(ck_array_parse(t, a, &args[0]), CK_OK);
        EXPECT_EQ(ck_array_parse(t, b, &args[1]), CK_OK);
        ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
        std::string out;
        if (ck_call(c, dst, 2, args, &ctx) != CK_OK) {
            out = ck_last_error();
        } else {
            char *text = nullptr;
            EXPECT_EQ(ck_array_format(dst, &text), CK_OK);
            out = text;
            ck_free(text);
        }
        for (ck_array *x : {dst, args[0], args[1]}) ck_array_free(x);
        ck_type_decref(t);
        return out;
    };
    EXPECT_EQ(into("[[0, 0], [0, 0, 0], [], [0], [0, 0, 0]]",
                   "[[1, 2], [100], [], [3], [7, 8, 9]]", "[[1, 1], [1, 2, 3], [], [2], [0, 1, 0]]"),
              "[[-9, -8], [90, 80, 70], [], [-17], [7, -2, 9]]");
    EXPECT_EQ(into("[[0, 0], [0, 0, 0], [0], [0, 0], [0]]",
                   "[[1, 2], [1, 2, 3], [4], [5, 6], [7]]", "[[0, 0], [1, 1, 1], [1], [1, 2, 3], [0]]"),
              "var dimension 1 at [3]: cannot broadcast arguments of sizes 2 and 3 together");
    EXPECT_EQ(call(c, {{"5 * var * float64", "[[1, 2], [100], [], [3], [7, 8, 9]]"},
                       {"5 * var * float64", "[[1, 1], [1, 2, 3], [], [2], [0, 1, 0]]"}}),
              "[[-9, -8], [90, 80, 70], [], [-17], [7, -2, 9]]");
    EXPECT_EQ(call(c, {{"4 * var * float64", "[[1], [1, 2], [5, 6, 7], [1, 2]]"},
                       {"4 * var * float64", "[[0], [0, 0], [1, 2], [0, 0]]"}}),
              "CK_ERR_BROADCAST: var dimension 1 at [2]: cannot broadcast arguments of sizes 3 "
              "and 2 together");
    ck_callable_decref(c);
}

TEST(Callable, SelectionOutcomes) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("pick", &c), CK_OK);
    for (const char *s : {"id)d", "di)d", "ff)f"}) {
        ck_factory f = {sub10_instantiate, nullptr, nullptr, nullptr};
        ASSERT_EQ(ck_callable_add(c, s, &f), CK_OK) << s;
    }
    const ck_type_id ii[] = {CK_TYPE_INT32, CK_TYPE_INT32};
    int index = -1;
    char *why = nullptr;
    EXPECT_EQ(ck_callable_select(c, 2, ii, nullptr, &index, &why), CK_ERR_AMBIGUOUS);
    EXPECT_STREQ(ck_last_error(),
                 "pick: (int32, int32) matches 2 signatures equally well (0 unsafe, 0 inexact, "
                 "1 safe, 0 promote, 4 bytes wider): (float64, int32) -> float64, (int32, "
                 "float64) -> float64");
    const ck_type_id dd[] = {CK_TYPE_FLOAT64, CK_TYPE_FLOAT64};
    EXPECT_EQ(ck_callable_select(c, 2, dd, nullptr, &index, &why), CK_ERR_TYPE);
    EXPECT_STREQ(ck_last_error(),
                 "pick: no signature takes (float64, float64) without unsafe conversions; "
                 "candidates: (float64, int32) -> float64 [1 unsafe conversion], (int32, "
                 "float64) -> float64 [1 unsafe conversion], (float32, float32) -> float32 [2 "
                 "unsafe conversions]");
    ck_eval_ctx unsafe = ckt::ctx(CK_ERRMODE_FRACTIONAL, CK_EVAL_ALLOW_UNSAFE);
    EXPECT_EQ(ck_callable_select(c, 2, dd, &unsafe, &index, &why), CK_ERR_AMBIGUOUS)
        << "one unsafe conversion each for the two mixed signatures";
    // (float32, int8): (float64, int32) is two promotes (4 + 3 bytes); (float32, float32) one
    // safe conversion: fewer safe conversions rank first.
    const ck_type_id fi[] = {CK_TYPE_FLOAT32, CK_TYPE_INT8};
    ASSERT_EQ(ck_callable_select(c, 2, fi, nullptr, &index, &why), CK_OK) << ck_last_error();
    EXPECT_STREQ(why, "(float64, int32) -> float64: 0 unsafe, 0 inexact, 0 safe, 2 promote, 7 "
                      "bytes wider");
    ck_free(why);
    char *sigs = nullptr;
    ASSERT_EQ(ck_callable_signatures(c, &sigs), CK_OK);
    EXPECT_STREQ(sigs, "(float32, float32) -> float32\n(float64, int32) -> float64\n(int32, "
                       "float64) -> float64\n");
    EXPECT_EQ(index, 1) << "the index is the position in the sorted listing";
    ck_free(sigs);
    ck_callable_decref(c);
}

TEST(Callable, ArgumentCastsHonourTheErrorMode) {
    // A (int8, int8) -> ... signature reached by an unsafe int32 argument: the cast of the
    // argument checks the value in the context's mode.
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("narrow", &c), CK_OK);
    ck_factory f = {sub10_instantiate, nullptr, nullptr, nullptr};
    ASSERT_EQ(ck_callable_add(c, "dd)d", &f), CK_OK);
    // float64 argument from complex128: unsafe; refused without --allow-unsafe.
    EXPECT_EQ(call(c, {{"complex128", "1+0j"}, {"float64", "1"}}).substr(0, 12), "CK_ERR_TYPE:");
    ck_eval_ctx unsafe = ckt::ctx(CK_ERRMODE_OVERFLOW, CK_EVAL_ALLOW_UNSAFE);
    EXPECT_EQ(call(c, {{"complex128", "100+0j"}, {"float64", "1"}}, nullptr, unsafe), "90");
    EXPECT_EQ(call(c, {{"complex128", "100+1j"}, {"float64", "1"}}, nullptr, unsafe).substr(0, 17),
              "CK_ERR_IMAGINARY:");
    ck_callable_decref(c);
}

TEST(Callable, AddingASignatureInvalidatesCachedSelections) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("grow", &c), CK_OK);
    ck_factory f = {sub10_instantiate, nullptr, nullptr, nullptr};
    ASSERT_EQ(ck_callable_add(c, "dd)d", &f), CK_OK);
    const ck_type_id ii[] = {CK_TYPE_INT32, CK_TYPE_INT32};
    int index = -1;
    char *why = nullptr;
    for (int i = 0; i < 3; ++i) {  // cold, then warm from the cache
        ASSERT_EQ(ck_callable_select(c, 2, ii, nullptr, &index, &why), CK_OK);
        EXPECT_STREQ(why, "(float64, float64) -> float64: 0 unsafe, 0 inexact, 2 safe, 0 promote, "
                          "8 bytes wider");
        ck_free(why);
    }
    ASSERT_EQ(ck_callable_add(c, "ii)i", &f), CK_OK);
    ASSERT_EQ(ck_callable_select(c, 2, ii, nullptr, &index, &why), CK_OK);
    EXPECT_STREQ(why, "(int32, int32) -> int32: exact") << "no stale selection";
    ck_free(why);
    // The same argument types twice is refused, and the factory released.
    int released = 0;
    ck_factory again = {axpb_instantiate, nullptr, new AxpbParams{1, 2, &released},
                        release_counter};
    EXPECT_EQ(ck_callable_add(c, "(int32, int32) -> float64", &again), CK_ERR_INVALID);
    EXPECT_EQ(released, 1);
    // No arguments, a bad signature, a factory without instantiate: refused and released.
    ck_factory none = {axpb_instantiate, nullptr, new AxpbParams{1, 2, &released}, release_counter};
    EXPECT_EQ(ck_callable_add(c, ")d", &none), CK_ERR_INVALID);
    EXPECT_EQ(released, 2);
    ck_factory bad = {axpb_instantiate, nullptr, new AxpbParams{1, 2, &released}, release_counter};
    EXPECT_EQ(ck_callable_add(c, "dx)d", &bad), CK_ERR_PARSE);
    EXPECT_STREQ(ck_last_error(), "signature 'dx)d': unknown type letter 'x' (letters: ? b h "
                                  "i l q B H I L Q e E f d Zf Zd) at column 2");
    EXPECT_EQ(released, 3);
    ck_factory empty = {nullptr, nullptr, new AxpbParams{1, 2, &released}, release_counter};
    EXPECT_EQ(ck_callable_add(c, "d)d", &empty), CK_ERR_INVALID);
    EXPECT_EQ(released, 4);
    ck_callable_decref(c);
}

TEST(Callable, RegistryLookupsAndNames) {
    char *names = nullptr;
    ASSERT_EQ(ck_registry_names(&names), CK_OK);
    // Sorted, one per line: the first built-ins, and a sample of the others in order.
    EXPECT_EQ(std::string(names).rfind("abs\nabsolute\nadd\narccos\narccosh\narcsin\n", 0), 0u)
        << names;
    EXPECT_NE(std::string(names).find("\nconcat\nconj\nconjugate\ncopy\ncopysign\n"), std::string::npos)
        << names;
    for (const char *name : {"divide", "dot", "equal", "floor_divide", "greater_equal", "length",
                             "logical_or", "logical_xor", "mod", "negative", "not_equal",
                             "remainder", "subtract", "true_divide", "trunc_divide"}) {
        EXPECT_NE(std::string(names).find("\n" + std::string(name) + "\n"), std::string::npos)
            << name;
    }
    ck_free(names);
    int released = 0;
    ck_callable *c = make_axpb(3, 1, &released);
    ASSERT_EQ(ck_register(c), CK_OK) << ck_last_error();
    EXPECT_EQ(ck_register(c), CK_ERR_INVALID) << "the name is taken";
    ck_callable_decref(c);
    EXPECT_EQ(released, 0) << "the registry holds a reference";
    ck_callable *found = nullptr;
    ASSERT_EQ(ck_lookup("axpb", &found), CK_OK);
    EXPECT_EQ(call(found, {{"2 * float64", "[1, 2]"}}), "[4, 7]");
    EXPECT_EQ(ck_unregister("axpb"), CK_OK);
    EXPECT_EQ(released, 0) << "the lookup's reference is still held";
    ck_callable_decref(found);
    EXPECT_EQ(released, 1);
    EXPECT_EQ(ck_lookup("axpb", &found), CK_ERR_TYPE);
    EXPECT_STREQ(ck_last_error(), "no callable named 'axpb' (ckernel callables lists them)");
    EXPECT_EQ(ck_callable_new("1bad", &c), CK_ERR_INVALID);
    EXPECT_EQ(ck_callable_new("", &c), CK_ERR_INVALID);
}

TEST(Callable, DescribeShowsUserKernelsCastsAndChildren) {
    const ck_kernel_kind kind = {"axpb", axpb_single, axpb_strided, sizeof(Axpb), axpb_describe};
    ASSERT_EQ(ck_kernel_kind_register(&kind), CK_OK);
    int released = 0;
    ck_callable *c = make_axpb(2, 0.5, &released);
    Type st("3 * int32"), dt("3 * float32");
    ck_fixed_dim_arrmeta sm = {3, 4}, dm = {3, 4};
    const ck_type *srcs[] = {st.get()};
    const char *sams[] = {reinterpret_cast<const char *>(&sm)};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_call(&b, &off, c, dt.get(), reinterpret_cast<const char *>(&dm), 1, srcs,
                           sams, CK_REQUEST_SINGLE, nullptr),
              CK_OK)
        << ck_last_error();
    char *text = nullptr;
    ASSERT_EQ(ck_kernel_describe(ck_builder_root(&b), &text), CK_OK);
    const std::string t = text;
    ck_free(text);
    EXPECT_TRUE(ckt::tree_has(t, "call_args @40 +")) << t;
    EXPECT_NE(t.find("args=[cast] result=cast"), std::string::npos) << t;
    EXPECT_NE(t.find("axpb @"), std::string::npos) << t;
    EXPECT_TRUE(ckt::tree_has(t, "+32  axpb_strided  a=2 b=0.5")) << t;
    EXPECT_NE(t.find("cast int32 -> float64 (fractional) strided"), std::string::npos) << t;
    EXPECT_NE(t.find("cast float64 -> float32 (fractional) strided"), std::string::npos) << t;
    ck_builder_destroy(&b);
    ck_callable_decref(c);
}

TEST(Callable, AllocationFailureAtEveryPointOfBuildingACall) {
    ck_callable *c = make_sub10();
    // Warm the selection first: the cache is process metadata, not counted.
    EXPECT_EQ(call(c, {{"float32", "1"}, {"int8", "1"}}), "-9");
    // Everything the build needs is made inside the loop: nothing may be live around it.
    const int64_t points = ckt::for_each_alloc_failure([&]() {
        ck_type *dt = nullptr, *s0 = nullptr, *s1 = nullptr;
        ck_memblock *arena = nullptr;
        char *dam = nullptr, *sam0 = nullptr, *sam1 = nullptr;
        ck_builder b;
        ck_builder_init(&b);
        int rc = ck_type_parse("4 * var * 3 * int64", &dt);
        if (rc == CK_OK) rc = ck_type_parse("4 * var * 3 * float32", &s0);
        if (rc == CK_OK) rc = ck_type_parse("var * 1 * int8", &s1);
        if (rc == CK_OK) rc = ck_arena_new(0, &arena);
        if (rc == CK_OK) {
            dam = static_cast<char *>(ck_calloc(1, ck_type_arrmeta_size(dt)));
            sam0 = static_cast<char *>(ck_calloc(1, ck_type_arrmeta_size(s0)));
            sam1 = static_cast<char *>(ck_calloc(1, ck_type_arrmeta_size(s1)));
            if (dam == nullptr || sam0 == nullptr || sam1 == nullptr) rc = CK_ERR_NOMEM;
        }
        if (rc == CK_OK) rc = ck_arrmeta_default_construct(dt, dam, arena);
        if (rc == CK_OK) rc = ck_arrmeta_default_construct(s0, sam0, arena);
        if (rc == CK_OK) rc = ck_arrmeta_default_construct(s1, sam1, arena);
        if (rc == CK_OK) {
            const ck_type *srcs[] = {s0, s1};
            const char *sams[] = {sam0, sam1};
            size_t off = 0;
            rc = ck_make_call(&b, &off, c, dt, dam, 2, srcs, sams, CK_REQUEST_SINGLE, nullptr);
        }
        ck_builder_destroy(&b);
        if (dam != nullptr) ck_arrmeta_release(dt, dam);
        if (sam0 != nullptr) ck_arrmeta_release(s0, sam0);
        if (sam1 != nullptr) ck_arrmeta_release(s1, sam1);
        ck_free(dam);
        ck_free(sam0);
        ck_free(sam1);
        ck_memblock_decref(arena);
        ck_type_decref(dt);
        ck_type_decref(s0);
        ck_type_decref(s1);
        return rc;
    });
    EXPECT_GT(points, 0) << "the kernel (with casts) outgrows the inline buffer";
    ck_callable_decref(c);
}

TEST(Callable, RegistrationRacesSelectionAndCalls) {
    // One thread adds signatures (int8..int64 x int8..int64 -> float64) while others select
    // and call; every selection must be one of the signatures present at some moment, and
    // every call's value right (TSan runs this too).
    ck_callable *c = make_sub10();
    std::atomic<bool> done{false};
    std::atomic<int> failures{0};
    std::thread writer([&] {
        const char *ints[] = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32"};
        for (const char *a : ints)
            for (const char *b : ints) {
                const std::string s = std::string("(") + a + ", " + b + ") -> float64";
                ck_factory f = {any_sub10_instantiate, nullptr, nullptr, nullptr};
                if (ck_callable_add(c, s.c_str(), &f) != CK_OK) failures++;
            }
        done = true;
    });
    std::vector<std::thread> readers;
    for (int r = 0; r < 2; ++r)
        readers.emplace_back([&] {
            int rounds = 0;
            while (!done || rounds < 50) {
                ++rounds;
                const std::string a = call(c, {{"int16", "7"}, {"uint8", "2"}});
                const std::string b = call(c, {{"float64", "1.5"}, {"float64", "0.25"}});
                if (a != "-13" || b != "-1") {
                    if (failures++ == 0) ADD_FAILURE() << a << " / " << b;
                }
            }
        });
    writer.join();
    for (auto &t : readers) t.join();
    EXPECT_EQ(failures.load(), 0);
    const ck_type_id hb[] = {CK_TYPE_INT16, CK_TYPE_UINT8};
    int index = -1;
    char *why = nullptr;
    ASSERT_EQ(ck_callable_select(c, 2, hb, nullptr, &index, &why), CK_OK);
    EXPECT_STREQ(why, "(int16, uint8) -> float64: exact");
    ck_free(why);
    ck_callable_decref(c);
}

}  // namespace

namespace {

TEST(Callable, AllocationFailureAtEveryPointOfAWholeArrayCall) {
    ck_callable *add = nullptr;
    ASSERT_EQ(ck_lookup("add", &add), CK_OK);
    // Warm the selections (process metadata) so the loop counts only the call's own requests.
    const ck_type_id ids[] = {CK_TYPE_INT16, CK_TYPE_FLOAT32};
    int index = -1;
    ASSERT_EQ(ck_callable_select(add, 2, ids, nullptr, &index, nullptr), CK_OK);
    const int64_t points = ckt::for_each_alloc_failure([&]() {
        ck_type *t0 = nullptr, *t1 = nullptr;
        ck_array *a = nullptr, *b = nullptr, *out = nullptr;
        int rc = ck_type_parse("3 * var * int16", &t0);
        if (rc == CK_OK) rc = ck_type_parse("3 * 1 * float32", &t1);
        if (rc == CK_OK) rc = ck_array_parse(t0, "[[1, 2], [3], []]", &a);
        if (rc == CK_OK) rc = ck_array_parse(t1, "[[0.5], [1.5], [2.5]]", &b);
        if (rc == CK_OK) {
            const ck_array *src[] = {a, b};
            rc = ck_call_new(add, 2, src, nullptr, &out);
        }
        char *text = nullptr;
        if (rc == CK_OK) rc = ck_array_format(out, &text);
        if (rc == CK_OK && std::string(text) != "[[1.5, 2.5], [4.5], []]") rc = CK_ERR_INTERNAL;
        ck_free(text);
        ck_array_free(out);
        ck_array_free(a);
        ck_array_free(b);
        ck_type_decref(t0);
        ck_type_decref(t1);
        return rc;
    });
    EXPECT_GT(points, 5);
    ck_callable_decref(add);
}

TEST(Callable, RegistryRacesLookups) {
    // Two threads register and unregister their own names while two others look up the
    // built-ins and list the names (TSan runs this too).
    std::atomic<int> failures{0};
    std::atomic<bool> done{false};
    std::vector<std::thread> writers, readers;
    for (int w = 0; w < 2; ++w)
        writers.emplace_back([&, w] {
            for (int i = 0; i < 200; ++i) {
                const std::string name = "racer" + std::to_string(w) + "_" + std::to_string(i % 7);
                ck_callable *c = nullptr;
                if (ck_callable_new(name.c_str(), &c) != CK_OK) failures++;
                ck_factory f = {sub10_instantiate, nullptr, nullptr, nullptr};
                if (ck_callable_add(c, "dd)d", &f) != CK_OK) failures++;
                if (ck_register(c) != CK_OK) failures++;
                ck_callable_decref(c);
                if (ck_unregister(name.c_str()) != CK_OK) failures++;
            }
        });
    for (int r = 0; r < 2; ++r)
        readers.emplace_back([&] {
            while (!done) {
                ck_callable *c = nullptr;
                if (ck_lookup("multiply", &c) != CK_OK) failures++;
                ck_callable_decref(c);
                char *names = nullptr;
                if (ck_registry_names(&names) != CK_OK) failures++;
                ck_free(names);
            }
        });
    for (auto &t : writers) t.join();
    done = true;
    for (auto &t : readers) t.join();
    EXPECT_EQ(failures.load(), 0) << ck_last_error();
    char *names = nullptr;
    ASSERT_EQ(ck_registry_names(&names), CK_OK);
    EXPECT_EQ(std::string(names).find("racer"), std::string::npos) << names;
    ck_free(names);
}

}  // namespace
