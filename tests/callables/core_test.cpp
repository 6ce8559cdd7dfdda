// tests/callables/core_test.cpp: callables with core dimensions (docs/design.md §14) through
// the public API: signatures with dimensions (parsed, printed, refused), the built-in dot
// against values computed by hand and against sum(multiply(x, y)) bit for bit on every CPU
// target, outer broadcasting, var rows, casts of whole blocks into scratch, result types,
// users' leaves that take a matrix or ragged rows (reading ck_leaf_info.core), the errors,
// the kernel trees, the parallel split, and allocation failure at every point.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "callables/callable_internal.h"
#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "ckt_array.hpp"
#include "reduce_support.hpp"

namespace {

using rs::Outcome;

// name(args...) into a new array: its literal and type, or the status and message.
Outcome call(const char *name, const std::vector<std::pair<const char *, const char *>> &args,
             const char *dst_type = nullptr, const ck_eval_ctx *ctx = nullptr) {
    ck_callable *c = nullptr;
    Outcome o{ck_lookup(name, &c), "", "", ""};
    if (o.rc != CK_OK) {
        o.message = ck_last_error();
        return o;
    }
    std::vector<ckt::Array *> arrays;
    std::vector<const ck_array *> src;
    for (const auto &a : args) {
        arrays.push_back(new ckt::Array(a.first, a.second));
        src.push_back(arrays.back()->get());
    }
    ck_array *out = nullptr;
    if (dst_type != nullptr) {
        ckt::Type t(dst_type);
        o.rc = ck_array_new(t.get(), &out);
        if (o.rc == CK_OK) {
            o.rc = ck_call(c, out, static_cast<int>(src.size()), src.data(), ctx);
        }
    } else {
        o.rc = ck_call_new(c, static_cast<int>(src.size()), src.data(), ctx, &out);
    }
    rs::finish(&o, out);
    for (auto *a : arrays) delete a;
    ck_callable_decref(c);
    return o;
}

// ---- signatures ----

TEST(CoreSignature, ParsedAndPrinted) {
    struct Case {
        const char *text, *printed;
        int nargs;
        std::vector<int> ndim;  // per argument, then the result
    };
    const Case cases[] = {
        {"(N * float64, N * float64) -> float64",
         "(N * float64, N * float64) -> float64",
         2,
         {1, 1, 0}},
        {"( M*N*float64 )->N*float64", "(M * N * float64) -> N * float64", 1, {2, 1}},
        {"(var * int32, 3 * int32) -> 3 * int32",
         "(var * int32, 3 * int32) -> 3 * int32",
         2,
         {1, 1, 1}},
        {"(Rows * Cols * complex[float32]) -> Cols * Rows * complex64",
         "(Rows * Cols * complex64) -> Cols * Rows * complex64",
         1,
         {2, 2}},
        {"(0 * float64) -> float64", "(0 * float64) -> float64", 1, {1, 0}},
        {"(A * B * C * D * int8) -> int8", "(A * B * C * D * int8) -> int8", 1, {4, 0}},
    };
    for (const auto &c : cases) {
        ck__signature sig;
        ck__core_sig core;
        ASSERT_EQ(ck__signature_parse_core(c.text, &sig, &core), CK_OK)
            << c.text << ": " << ck_last_error();
        EXPECT_EQ(sig.nargs, c.nargs) << c.text;
        EXPECT_EQ(core.any, 1) << c.text;
        for (int k = 0; k < c.nargs; k++) {
            EXPECT_EQ(core.ndim[k], c.ndim[static_cast<size_t>(k)]) << c.text << " argument " << k;
        }
        EXPECT_EQ(core.ndim[CK__SIG_MAX_ARGS], c.ndim.back()) << c.text;
        char buf[200];
        ck__signature_format_core(&sig, &core, buf, sizeof buf);
        EXPECT_STREQ(buf, c.printed);
        // and the printed form parses to the same
        ck__signature again;
        ck__core_sig again_core;
        ASSERT_EQ(ck__signature_parse_core(buf, &again, &again_core), CK_OK) << buf;
        EXPECT_TRUE(ck__core_sig_same(&core, &again_core)) << buf;
    }
    // symbols are numbered in order of first appearance; literal sizes and var are kept
    ck__signature sig;
    ck__core_sig core;
    ASSERT_EQ(ck__signature_parse_core("(M * N * float64, N * 7 * var * float64) -> M * float64",
                                       &sig, &core),
              CK_OK);
    EXPECT_EQ(core.dim[0][0], CK__CORE_SYM(0));
    EXPECT_EQ(core.dim[0][1], CK__CORE_SYM(1));
    EXPECT_EQ(core.dim[1][0], CK__CORE_SYM(1));
    EXPECT_EQ(core.dim[1][1], 7);
    EXPECT_EQ(core.dim[1][2], CK__CORE_VAR);
    EXPECT_EQ(core.dim[CK__SIG_MAX_ARGS][0], CK__CORE_SYM(0));
    EXPECT_EQ(core.nsyms, 2);
    // a scalar signature has none
    ASSERT_EQ(ck__signature_parse_core("(float64) -> float64", &sig, &core), CK_OK);
    EXPECT_EQ(core.any, 0);
}

TEST(CoreSignature, Refused) {
    struct Case {
        const char *text, *message;
    };
    const Case cases[] = {
        {"(N * float64) -> var * float64",
         "signature '(N * float64) -> var * float64': a var core dimension in the result (its "
         "sizes come from the arguments: a size or a symbol) at column 18"},
        {"(N * float64) -> M * float64",
         "signature '(N * float64) -> M * float64': the result's symbol M is in no argument at "
         "column 18"},
        {"(n * float64) -> float64",
         "signature '(n * float64) -> float64': a dimension is a size, 'var' or a symbol (a name "
         "starting with an upper-case letter) at column 2"},
        {"(3x * float64) -> float64",
         "signature '(3x * float64) -> float64': a dimension is a size, 'var' or a symbol (a "
         "name starting with an upper-case letter) at column 2"},
        {"(2147483648 * float64) -> float64",
         "signature '(2147483648 * float64) -> float64': a core dimension's size above "
         "2147483647 at column 2"},
        {"(A * B * C * D * E * float64) -> float64",
         "signature '(A * B * C * D * E * float64) -> float64': more than 4 core dimensions at "
         "column 18"},
        {"(A * float64, B * float64, C * float64, D * float64, E * float64, F * float64, G * "
         "float64, H * float64, I * float64) -> float64",
         "signature '(A * float64, B * float64, C * float64, D * float64, E * float64, F * "
         "float64, G * float64, H * float64, I * float64) -> float64': more than 8 symbols at "
         "column 106"},
        {"(Averyveryverylongname * float64) -> float64",
         "signature '(Averyveryverylongname * float64) -> float64': a symbol of more than 15 "
         "characters at column 2"},
        {"(N * ) -> float64",
         "signature '(N * ) -> float64': expected a scalar type, found ')' "
         "at column 6"},
    };
    for (const auto &c : cases) {
        ck__signature sig;
        ck__core_sig core;
        EXPECT_EQ(ck__signature_parse_core(c.text, &sig, &core), CK_ERR_PARSE) << c.text;
        EXPECT_EQ(std::string(ck_last_error()), c.message);
    }
    // a signature of scalars (ck__signature_parse: native functions) takes no dimensions
    ck__signature sig;
    EXPECT_EQ(ck__signature_parse("(N * float64) -> float64", &sig), CK_ERR_PARSE);
    EXPECT_EQ(std::string(ck_last_error()),
              "signature '(N * float64) -> float64': a dimension in a signature that takes "
              "scalars only at column 2");
}

int never_instantiate(void *, ck_builder *, size_t *, const ck_leaf_info *) {
    return ck_set_error(CK_ERR_INTERNAL, "not called");
}

TEST(CoreSignature, EverySignatureOfACallableHasTheSameCore) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("cores", &c), CK_OK);
    const ck_factory f = {never_instantiate, nullptr, nullptr, nullptr};
    ASSERT_EQ(ck_callable_add(c, "(N * float64, N * float64) -> float64", &f), CK_OK);
    ASSERT_EQ(ck_callable_add(c, "(K * int32, K * int32) -> int32", &f), CK_OK);  // same layout
    EXPECT_EQ(ck_callable_add(c, "(float32, float32) -> float32", &f), CK_ERR_INVALID);
    EXPECT_EQ(std::string(ck_last_error()),
              "ck_callable_add: cores's signatures have other core dimensions ((K * int32, K * "
              "int32) -> int32); every signature of a callable has the same");
    EXPECT_EQ(ck_callable_add(c, "(N * M * int8, N * int8) -> int8", &f), CK_ERR_INVALID);
    EXPECT_EQ(ck_callable_add(c, "(N * float64, N * float64) -> float64", &f), CK_ERR_INVALID);
    char *sigs = nullptr;
    ASSERT_EQ(ck_callable_signatures(c, &sigs), CK_OK);
    EXPECT_STREQ(sigs, "(K * int32, K * int32) -> int32\n(N * float64, N * float64) -> float64\n");
    ck_free(sigs);
    // a scalar callable takes no core signature
    ck_callable *s = nullptr;
    ASSERT_EQ(ck_callable_new("scalars", &s), CK_OK);
    ASSERT_EQ(ck_callable_add(s, "(float64) -> float64", &f), CK_OK);
    EXPECT_EQ(ck_callable_add(s, "(N * float32) -> float32", &f), CK_ERR_INVALID);
    // natives take scalars
    EXPECT_EQ(ck_callable_add_native(s, "(N * float32) -> float32",
                                     reinterpret_cast<void (*)(void)>(&never_instantiate)),
              CK_ERR_PARSE);
    ck_callable_decref(s);
    ck_callable_decref(c);
}

// ---- dot ----

TEST(Dot, ByHand) {
    struct Case {
        std::vector<std::pair<const char *, const char *>> args;
        const char *value, *type;
    };
    const Case cases[] = {
        {{{"3 * float64", "[1, 2, 3]"}, {"3 * float64", "[4, 5, 6]"}}, "32", "float64"},
        // the outer dimensions broadcast; the rows do not
        {{{"2 * 3 * float64", "[[1, 2, 3], [4, 5, 6]]"}, {"3 * float64", "[1, 1, 2]"}},
         "[9, 21]",
         "2 * float64"},
        {{{"2 * 1 * 2 * int32", "[[[1, 2]], [[3, 4]]]"},
          {"3 * 2 * int32", "[[1, 0], [0, 1], [1, 1]]"}},
         "[[1, 2, 3], [3, 4, 7]]",
         "2 * 3 * int32"},
        // zero elements give 0; int8 wraps as NumPy's dot does
        {{{"0 * float64", "[]"}, {"0 * float64", "[]"}}, "0", "float64"},
        {{{"2 * int8", "[100, 100]"}, {"2 * int8", "[2, 1]"}}, "44", "int8"},
        {{{"2 * uint8", "[200, 100]"}, {"2 * uint8", "[1, 1]"}}, "44", "uint8"},
        // no conjugation (NumPy's dot, not vdot)
        {{{"2 * complex[float64]", "[1+2j, 3j]"}, {"2 * complex[float64]", "[1+2j, 1]"}},
         "-3+7j",
         "complex128"},
        // mixed types select by the conversion kinds; the int32 rows are cast into scratch
        {{{"2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]"}, {"3 * float64", "[0.5, 1, 2]"}},
         "[8.5, 19]",
         "2 * float64"},
        {{{"3 * int16", "[1, 2, 3]"}, {"3 * int64", "[10, 20, 30]"}}, "140", "int64"},
        {{{"3 * int16", "[1, 2, 3]"}, {"3 * uint32", "[10, 20, 30]"}}, "140", "int64"},
        // bool: any of (x and y), as NumPy's; float16 selects the float32 signature
        {{{"3 * bool", "[true, false, true]"}, {"3 * bool", "[false, true, true]"}},
         "true",
         "bool"},
        {{{"2 * bool", "[true, false]"}, {"2 * bool", "[false, true]"}}, "false", "bool"},
        {{{"2 * float16", "[1.5, 2]"}, {"2 * float16", "[2, 0.25]"}}, "3.5", "float32"},
        // ragged rows: each its own length (the other argument's too)
        {{{"3 * var * float64", "[[1, 2], [], [3]]"}, {"3 * var * float64", "[[1, 1], [], [2]]"}},
         "[3, 0, 6]",
         "3 * float64"},
        {{{"2 * var * int64", "[[1, 2, 3], [4, 5, 6]]"}, {"3 * int64", "[1, 0, 1]"}},
         "[4, 10]",
         "2 * int64"},
        {{{"var * 2 * float32", "[[1, 2], [3, 4], [5, 6]]"}, {"2 * float32", "[1, -1]"}},
         "[-1, -1, -1]",
         "var * float32"},
        // pointers above the rows are read through; pointers inside are copied into scratch
        {{{"pointer[3 * float64]", "[1, 2, 3]"}, {"3 * float64", "[1, 1, 1]"}}, "6", "float64"},
        {{{"2 * pointer[float64]", "[1, 2]"}, {"2 * float64", "[3, 1]"}}, "5", "float64"},
        {{{"2 * 2 * pointer[2 * int32]", "[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]"},
          {"2 * int32", "[1, 1]"}},
         "[[3, 7], [11, 15]]",
         "2 * 2 * int32"},
    };
    for (const auto &c : cases) {
        const Outcome o = call("dot", c.args);
        ASSERT_EQ(o.rc, CK_OK) << c.args[0].first << ": " << o.message;
        EXPECT_EQ(o.value, c.value) << c.args[0].first << ", " << c.args[1].first;
        EXPECT_EQ(o.type, c.type) << c.args[0].first << ", " << c.args[1].first;
    }
}

// A host's ragged rows whose elements start `offset` bytes into each row and lie `stride`
// bytes apart (arrmeta the library did not make), dotted with fixed rows.
TEST(Dot, HostRowsWithAnArrmetaOffsetAndStride) {
    int64_t row0[] = {-100, 1, -100, 2, -100, 3}, row1[] = {-100, 10, -100};
    ck_var_data rows[2] = {{reinterpret_cast<char *>(row0), 3},
                           {reinterpret_cast<char *>(row1), 1}};
    struct {
        ck_fixed_dim_arrmeta outer;
        ck_var_dim_arrmeta inner;
    } m = {{2, sizeof(ck_var_data)}, {nullptr, 16, 8}};
    ckt::Type t("2 * var * int64");
    ck_array *a = nullptr;
    ASSERT_EQ(ck_array_wrap(t.get(), reinterpret_cast<const char *>(&m),
                            reinterpret_cast<char *>(rows), nullptr, &a),
              CK_OK);
    ckt::Array y("2 * var * int64", "[[1, 10, 100], [5]]");
    ck_callable *dot = nullptr;
    ASSERT_EQ(ck_lookup("dot", &dot), CK_OK);
    const ck_array *src[2] = {a, y.get()};
    ck_array *out = nullptr;
    ASSERT_EQ(ck_call_new(dot, 2, src, nullptr, &out), CK_OK) << ck_last_error();
    char *s = nullptr;
    ASSERT_EQ(ck_array_format(out, &s), CK_OK);
    EXPECT_STREQ(s, "[321, 50]");
    ck_free(s);
    ck_array_free(out);
    ck_array_free(a);
    ck_callable_decref(dot);
}

TEST(Dot, IntoADestinationOfAnotherType) {
    // the result block is cast out: float64 rows into float32 and int64 destinations
    Outcome o =
        call("dot", {{"2 * 3 * float64", "[[1, 2, 3], [4, 5, 6]]"}, {"3 * float64", "[1, 1, 2]"}},
             "2 * float32");
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "[9, 21]");
    o = call("dot", {{"2 * float64", "[0.5, 1]"}, {"2 * float64", "[1, 1]"}}, "int64");
    EXPECT_EQ(o.rc, CK_ERR_FRACTIONAL) << o.message;  // the context's error mode
    ck_eval_ctx nocheck = ckt::ctx(CK_ERRMODE_NOCHECK);
    o = call("dot", {{"2 * float64", "[0.5, 1]"}, {"2 * float64", "[1, 1]"}}, "int64", &nocheck);
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "1");
}

TEST(Dot, Errors) {
    struct Case {
        std::vector<std::pair<const char *, const char *>> args;
        int rc;
        const char *message;
    };
    const Case cases[] = {
        {{{"float64", "1"}, {"2 * float64", "[1, 1]"}},
         CK_ERR_BROADCAST,
         "dot: argument 0 (float64) has 0 dimensions; (N * float64, N * float64) -> float64 "
         "takes 1 core dimension there"},
        {{{"3 * float64", "[1, 2, 3]"}, {"2 * float64", "[1, 1]"}},
         CK_ERR_BROADCAST,
         "dot: core dimension N is 3 in argument 0 and 2 in argument 1"},
        {{{"3 * var * float64", "[[1, 2], [], [3]]"}, {"2 * float64", "[1, 1]"}},
         CK_ERR_BROADCAST,
         "dot: core dimension 0 at [1]: rows of 0 and 2 elements"},
        {{{"2 * 3 * float64", "[[1, 2, 3], [4, 5, 6]]"},
          {"3 * 3 * float64", "[[1, 1, 1], [1, 1, 1], [1, 1, 1]]"}},
         CK_ERR_BROADCAST,
         "dot: cannot broadcast the arguments together: dimension 0 has sizes 2 and 3"},
        {{{"3 * ?float64", "[1, NA, 3]"}, {"3 * float64", "[1, 1, 1]"}},
         CK_ERR_UNSUPPORTED,
         "dot: options under core dimensions are not built yet ((N * float64, N * float64) -> "
         "float64)"},
        {{{"2 * var * int32", "[[1], [2]]"}, {"2 * var * float64", "[[1], [2]]"}},
         CK_ERR_UNSUPPORTED,
         "dot: argument 0's int32 would be converted to float64 under a var core dimension, "
         "which is not built yet (assign it to float64 first)"},
        {{{"2 * var * pointer[float64]", "[[1], [2]]"}, {"2 * var * float64", "[[1], [2]]"}},
         CK_ERR_UNSUPPORTED,
         "dot: argument 0's pointers to float64 would be converted to float64 under a var core "
         "dimension, which is not built yet (assign it to float64 first)"},
        {{{"2 * 3 * float64", "[[1, 2, 3], [4, 5, 6]]"}, {"3 * ?float64", "[1, 2, 3]"}},
         CK_ERR_UNSUPPORTED,
         "dot: options under core dimensions are not built yet ((N * float64, N * float64) -> "
         "float64)"},
    };
    for (const auto &c : cases) {
        const Outcome o = call("dot", c.args);
        EXPECT_EQ(o.rc, c.rc) << c.args[0].first << ": " << o.message;
        EXPECT_EQ(o.message, c.message) << c.args[0].first;
    }
    // the result broadcasts into a destination's outer dimensions, as any call's does; a
    // destination without them is refused
    Outcome o =
        call("dot", {{"3 * float64", "[1, 2, 3]"}, {"3 * float64", "[1, 1, 1]"}}, "2 * float64");
    EXPECT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.value, "[6, 6]");
    o = call("dot", {{"2 * 3 * float64", "[[1, 2, 3], [4, 5, 6]]"}, {"3 * float64", "[1, 1, 1]"}},
             "float64");
    EXPECT_EQ(o.rc, CK_ERR_BROADCAST) << o.message;
    EXPECT_EQ(o.message,
              "cannot assign argument 0 (2 * 3 * float64) into destination float64: the argument "
              "has 1 more dimension than the destination can hold");
    // reductions and accumulations fold scalars
    ck_callable *dot = nullptr;
    ASSERT_EQ(ck_lookup("dot", &dot), CK_OK);
    ckt::Array a("3 * float64", "[1, 2, 3]");
    ck_reduce_spec r = {dot, nullptr, 0, 0};
    ck_array *out = nullptr;
    EXPECT_EQ(ck_reduce_new(&r, a.get(), nullptr, &out), CK_ERR_TYPE);
    EXPECT_EQ(std::string(ck_last_error()),
              "dot has core dimensions ((N * float64, N * float64) -> float64); a reduction or "
              "accumulation folds scalars with a signature (A, A) -> A");
    ck_callable_decref(dot);
}

TEST(Dot, ResultTypes) {
    ck_callable *dot = nullptr;
    ASSERT_EQ(ck_lookup("dot", &dot), CK_OK);
    struct Case {
        const char *a, *b, *want;
    };
    const Case cases[] = {
        {"3 * float64", "3 * float64", "float64"},
        {"5 * 2 * 3 * int32", "3 * float64", "5 * 2 * float64"},
        {"5 * 1 * 3 * int32", "4 * 3 * int32", "5 * 4 * int32"},
        {"var * 3 * float32", "3 * float32", "var * float32"},
        {"10 * var * float64", "10 * var * float64", "10 * float64"},
        {"pointer[2 * 3 * complex64]", "3 * complex64", "2 * complex64"},
    };
    for (const auto &c : cases) {
        ckt::Type a(c.a), b(c.b);
        const ck_type *st[2] = {a.get(), b.get()};
        ck_type *rt = nullptr;
        ASSERT_EQ(ck_call_result_type(dot, 2, st, nullptr, &rt), CK_OK)
            << c.a << ": " << ck_last_error();
        char *s = nullptr;
        ASSERT_EQ(ck_type_format(rt, &s), CK_OK);
        EXPECT_STREQ(s, c.want) << c.a << ", " << c.b;
        ck_free(s);
        ck_type_decref(rt);
    }
    ckt::Type a("3 * float64"), b("4 * float64");
    const ck_type *st[2] = {a.get(), b.get()};
    ck_type *rt = nullptr;
    EXPECT_EQ(ck_call_result_type(dot, 2, st, nullptr, &rt), CK_ERR_BROADCAST);
    EXPECT_EQ(rt, nullptr);
    ck_callable_decref(dot);
}

// dot(x, y) is sum(multiply(x, y)) bit for bit: the products rounded, then summed in the add
// fold's association. Checked on every CPU target the machine runs.
class DotTargets : public ::testing::TestWithParam<ck_cpu_target> {
  protected:
    void SetUp() override { ASSERT_EQ(ck_cpu_set_target_cap(GetParam()), CK_OK); }
    void TearDown() override { ck_cpu_set_target_cap(ckt::best_compiled_target()); }
};

std::string sum_of_products(const char *type, ck_array *x, ck_array *y) {
    ck_callable *mul = nullptr, *sum = nullptr;
    EXPECT_EQ(ck_lookup("multiply", &mul), CK_OK);
    EXPECT_EQ(ck_reduction_lookup("sum", &sum), CK_OK);
    const ck_array *src[2] = {x, y};
    ck_array *p = nullptr, *s = nullptr;
    EXPECT_EQ(ck_call_new(mul, 2, src, nullptr, &p), CK_OK) << ck_last_error();
    const int last = -1;
    ck_reduce_spec r = {sum, &last, 1, 0};
    ckt::Type t(type);
    EXPECT_EQ(ck_array_new(t.get(), &s), CK_OK);
    EXPECT_EQ(ck_reduce(&r, s, p, nullptr), CK_OK) << ck_last_error();
    std::string bytes(ck_array_data(s), ck_type_data_size(t.get()));
    ck_array_free(p);
    ck_array_free(s);
    ck_callable_decref(mul);
    ck_callable_decref(sum);
    return bytes;
}

TEST_P(DotTargets, SumOfProductsBitForBit) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> g(0.0, 1.0);
    ck_callable *dot = nullptr;
    ASSERT_EQ(ck_lookup("dot", &dot), CK_OK);
    for (const char *elem : {"float64", "float32", "complex128", "complex64"}) {
        for (int n : {0, 1, 15, 16, 17, 127, 128, 129, 1000, 4096, 20000}) {
            const std::string rows = "3 * " + std::to_string(n) + " * " + elem;
            std::string lit = "[";
            for (int r = 0; r < 3; r++) {
                lit += r > 0 ? ", [" : "[";
                for (int i = 0; i < n; i++) {
                    char buf[64];
                    if (elem[0] == 'c') {
                        snprintf(buf, sizeof buf, "%s%.17g%+.17gj", i > 0 ? ", " : "", g(rng),
                                 g(rng));
                    } else {
                        snprintf(buf, sizeof buf, "%s%.17g", i > 0 ? ", " : "",
                                 g(rng) * std::exp(3 * g(rng)));
                    }
                    lit += buf;
                }
                lit += "]";
            }
            lit += "]";
            ckt::Array x(rows.c_str(), lit.c_str()), y(rows.c_str(), lit.c_str());
            const ck_array *src[2] = {x.get(), y.get()};
            ck_array *d = nullptr;
            ASSERT_EQ(ck_call_new(dot, 2, src, nullptr, &d), CK_OK) << ck_last_error();
            const std::string want =
                sum_of_products((std::string("3 * ") + elem).c_str(), x.get(), y.get());
            EXPECT_EQ(std::string(ck_array_data(d), want.size()), want) << elem << " n=" << n;
            ck_array_free(d);
        }
    }
    ck_callable_decref(dot);
}

TEST_P(DotTargets, StridedRowsGiveTheContiguousBits) {
    // a transposed view (rows strided across columns) against a C-order copy
    const int n = 300;
    std::vector<double> m(static_cast<size_t>(n) * 4);
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    for (auto &v : m) v = u(rng);
    // x: 4 rows of n, strided view of an n x 4 C-order buffer
    ckt::Type xt(("4 * " + std::to_string(n) + " * float64").c_str());
    ckt::Array contiguous(("4 * " + std::to_string(n) + " * float64").c_str());
    double *cd = reinterpret_cast<double *>(contiguous.data());
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < n; i++)
            cd[r * n + i] = m[static_cast<size_t>(i) * 4 + static_cast<size_t>(r)];
    ck_fixed_dim_arrmeta am[2] = {{4, 8}, {n, 32}};
    ck_callable *dot = nullptr;
    ASSERT_EQ(ck_lookup("dot", &dot), CK_OK);
    ckt::Type dt("4 * float64");
    ck_fixed_dim_arrmeta dam = {4, 8};
    const ck_type *st[2] = {xt.get(), xt.get()};
    const char *sam[2] = {reinterpret_cast<const char *>(am), reinterpret_cast<const char *>(am)};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ASSERT_EQ(ck_make_call(&b, &off, dot, dt.get(), reinterpret_cast<const char *>(&dam), 2, st,
                           sam, CK_REQUEST_SINGLE, nullptr),
              CK_OK)
        << ck_last_error();
    double got[4];
    char *s[2] = {reinterpret_cast<char *>(m.data()), reinterpret_cast<char *>(m.data())};
    ASSERT_EQ(ck_call_single(ck_builder_root(&b), reinterpret_cast<char *>(got), s), CK_OK);
    ck_builder_destroy(&b);
    const ck_array *src[2] = {contiguous.get(), contiguous.get()};
    ck_array *want = nullptr;
    ASSERT_EQ(ck_call_new(dot, 2, src, nullptr, &want), CK_OK);
    EXPECT_EQ(std::memcmp(got, ck_array_data(want), sizeof got), 0);
    ck_array_free(want);
    ck_callable_decref(dot);
}

INSTANTIATE_TEST_SUITE_P(Targets, DotTargets, ::testing::ValuesIn(ckt::runnable_targets()),
                         [](const ::testing::TestParamInfo<ck_cpu_target> &i) {
                             return std::string(ck_cpu_target_name(i.param));
                         });

TEST(Dot, TheTrees) {
    ck_callable *dot = nullptr;
    ASSERT_EQ(ck_lookup("dot", &dot), CK_OK);
    auto tree = [&](const char *a_type, const char *b_type) {
        ckt::Type ta(a_type), tb(b_type);
        const ck_type *st[2] = {ta.get(), tb.get()};
        ck_type *rt = nullptr;
        EXPECT_EQ(ck_call_result_type(dot, 2, st, nullptr, &rt), CK_OK);
        std::vector<char> dam(ck_type_arrmeta_size(rt) + 1),
            am0(ck_type_arrmeta_size(ta.get()) + 1), am1(ck_type_arrmeta_size(tb.get()) + 1);
        ck_arrmeta_default_construct(rt, dam.data(), nullptr);
        ck_arrmeta_default_construct(ta.get(), am0.data(), nullptr);
        ck_arrmeta_default_construct(tb.get(), am1.data(), nullptr);
        const char *sam[2] = {am0.data(), am1.data()};
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        EXPECT_EQ(
            ck_make_call(&b, &off, dot, rt, dam.data(), 2, st, sam, CK_REQUEST_SINGLE, nullptr),
            CK_OK)
            << ck_last_error();
        char *s = nullptr;
        EXPECT_EQ(ck_kernel_describe(ck_builder_root(&b), &s), CK_OK);
        std::string r = s;
        ck_free(s);
        ck_builder_destroy(&b);
        ck_arrmeta_release(rt, dam.data());
        ck_arrmeta_release(ta.get(), am0.data());
        ck_arrmeta_release(tb.get(), am1.data());
        ck_type_decref(rt);
        // the target's name varies
        for (int k = 0; k < CK_NUM_CPU_TARGETS; k++) {
            const std::string t =
                std::string("[") + ck_cpu_target_name(static_cast<ck_cpu_target>(k)) + "]";
            for (size_t at = r.find(t); at != std::string::npos; at = r.find(t)) {
                r.replace(at, t.size(), "[T]");
            }
        }
        return r;
    };
    EXPECT_EQ(ckt::tree_text(tree("2 * 3 * float64", "3 * float64")),
        ckt::tree_text("strided_dim @0 +56  strided_dim_single  size=2 dst_stride=8 src_stride=[24, 0] "
                       "(broadcast)\n"
                       "  dot @56 +88  dot_strided  dot float64 [T] x: size=3 stride=8, y: size=3 stride=8\n"));
    EXPECT_EQ(ckt::tree_text(tree("2 * var * float64", "3 * float64")),
              ckt::tree_text("strided_dim @0 +56  strided_dim_single  size=2 dst_stride=8 src_stride=[16, 0] "
                             "(broadcast)\n"
                             "  dot @56 +88  dot_strided  dot float64 [T] x: var(stride=8 offset=0), y: size=3 "
                             "stride=8\n"));
    EXPECT_EQ(ckt::tree_text(tree("2 * 3 * int32", "3 * float64")),
              ckt::tree_text("strided_dim @0 +56  strided_dim_single  size=2 dst_stride=8 src_stride=[12, 0] "
                             "(broadcast)\n"
                             "  core_call @56 +248  core_call_strided  args=[cast, pass] result=direct "
                             "scratch=64\n"
                             "    dot @304 +88  dot_single  dot float64 [T] x: size=3 stride=8, y: size=3 "
                             "stride=8\n"
                             "    strided_dim @392 +40  strided_dim_single  size=3 dst_stride=8 src_stride=4\n"
                             "      leaf @432 +16  cast int32 -> float64 (fractional) strided [T]\n"));
    ck_callable_decref(dot);
}

TEST(Dot, ParallelGivesTheSerialBits) {
    const int rows = 600, n = 1000;
    std::vector<double> v(static_cast<size_t>(rows) * n);
    std::mt19937_64 rng(3);
    std::normal_distribution<double> g(0, 1);
    for (auto &e : v) e = g(rng);
    const std::string type = std::to_string(rows) + " * " + std::to_string(n) + " * float64";
    ckt::Array x(type.c_str()), y(type.c_str());
    std::memcpy(x.data(), v.data(), v.size() * 8);
    for (auto &e : v) e = g(rng);
    std::memcpy(y.data(), v.data(), v.size() * 8);
    ck_callable *dot = nullptr;
    ASSERT_EQ(ck_lookup("dot", &dot), CK_OK);
    const ck_array *src[2] = {x.get(), y.get()};
    ck_array *serial = nullptr;
    ASSERT_EQ(ck_call_new(dot, 2, src, nullptr, &serial), CK_OK);
    for (int threads : {1, 2, 16}) {
        ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
        ctx.max_threads = threads;
        ctx.grain_bytes = 4096;
        ckt::Array out(("" + std::to_string(rows) + " * float64").c_str());
        ASSERT_EQ(ck_parallel_call(dot, out.get(), 2, src, &ctx), CK_OK) << ck_last_error();
        EXPECT_EQ(std::memcmp(out.data(), ck_array_data(serial), rows * 8), 0) << threads;
    }
    // a core dimension is never split: the result of two rows is one element
    ckt::Array a("1000 * float64"), out("float64");
    const ck_array *one[2] = {a.get(), a.get()};
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.max_threads = 2;
    ctx.grain_bytes = 1;
    EXPECT_EQ(ck_parallel_call(dot, out.get(), 2, one, &ctx), CK_OK) << ck_last_error();
    ck_array_free(serial);
    ck_callable_decref(dot);
}

// ---- users' leaves ----

// "(M * N * float64) -> N * float64": the column sums of a matrix, in order, as the leaf
// reads the core dimensions' sizes and strides from ck_leaf_info.core.
struct ColumnSums {
    ck_prefix base;
    intptr_t m, n, row_stride, col_stride, out_stride;
};

int colsums_one(const ColumnSums *k, char *dst, const char *src) {
    for (intptr_t j = 0; j < k->n; j++) {
        double acc = 0;
        for (intptr_t i = 0; i < k->m; i++) {
            double v;
            std::memcpy(&v, src + i * k->row_stride + j * k->col_stride, 8);
            acc += v;
        }
        std::memcpy(dst + j * k->out_stride, &acc, 8);
    }
    return CK_OK;
}
int colsums_single(ck_prefix *self, char *dst, char *const *src) {
    return colsums_one(reinterpret_cast<ColumnSums *>(self), dst, src[0]);
}
int colsums_strided(ck_prefix *self, char *dst, intptr_t ds, char *const *src, const intptr_t *ss,
                    size_t n) {
    for (size_t i = 0; i < n; i++) {
        colsums_one(reinterpret_cast<ColumnSums *>(self), dst + static_cast<intptr_t>(i) * ds,
                    src[0] + static_cast<intptr_t>(i) * ss[0]);
    }
    return CK_OK;
}
int colsums_instantiate(void *, ck_builder *ckb, size_t *offset, const ck_leaf_info *info) {
    if (info->core == nullptr || info->core->arg_ndim[0] != 2 || info->core->ret_ndim != 1) {
        return ck_set_error(CK_ERR_INTERNAL, "colsums: no core dimensions");
    }
    if (info->core->arg[0][0].size < 0) {
        return ck_set_error(CK_ERR_UNSUPPORTED, "colsums: a var M");
    }
    if (ck_builder_reserve_leaf(ckb, *offset + sizeof(ColumnSums)) != CK_OK) return CK_ERR_NOMEM;
    auto *k = static_cast<ColumnSums *>(static_cast<void *>(ck_builder_at(ckb, *offset)));
    ck_prefix_set_function(&k->base, info->req, colsums_single, colsums_strided);
    k->m = info->core->arg[0][0].size;
    k->n = info->core->arg[0][1].size;
    k->row_stride = info->core->arg[0][0].stride;
    k->col_stride = info->core->arg[0][1].stride;
    k->out_stride = info->core->ret[0].stride;
    EXPECT_EQ(info->core->ret[0].size, k->n);
    *offset += sizeof(ColumnSums);
    return CK_OK;
}

TEST(CoreUser, AMatrixPerElement) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("colsums", &c), CK_OK);
    const ck_factory f = {colsums_instantiate, nullptr, nullptr, nullptr};
    ASSERT_EQ(ck_callable_add(c, "(M * N * float64) -> N * float64", &f), CK_OK);
    ckt::Array a("2 * 3 * 2 * float64", "[[[1, 2], [3, 4], [5, 6]], [[0, 1], [0, 1], [0, 1]]]");
    const ck_array *src[1] = {a.get()};
    ck_array *out = nullptr;
    ASSERT_EQ(ck_call_new(c, 1, src, nullptr, &out), CK_OK) << ck_last_error();
    char *s = nullptr, *t = nullptr;
    ASSERT_EQ(ck_array_format(out, &s), CK_OK);
    ASSERT_EQ(ck_type_format(ck_array_type(out), &t), CK_OK);
    EXPECT_STREQ(s, "[[9, 12], [0, 3]]");
    EXPECT_STREQ(t, "2 * 2 * float64");
    ck_free(s);
    ck_free(t);
    ck_array_free(out);
    // int32 matrices are cast whole into scratch, and the result block cast out into int64
    ckt::Array b("3 * 2 * int32", "[[1, 2], [3, 4], [5, 6]]");
    ckt::Array dst("2 * int64");
    const ck_array *bsrc[1] = {b.get()};
    ASSERT_EQ(ck_call(c, dst.get(), 1, bsrc, nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[9, 12]");
    // a var M reaches the leaf as size -1; a destination of the wrong size is refused
    ckt::Array v("var * 2 * float64", "[[1, 2]]");
    const ck_array *vsrc[1] = {v.get()};
    EXPECT_EQ(ck_call_new(c, 1, vsrc, nullptr, &out), CK_ERR_UNSUPPORTED);
    EXPECT_EQ(std::string(ck_last_error()), "colsums: a var M");
    ckt::Array wrong("3 * float64");
    EXPECT_EQ(ck_call(c, wrong.get(), 1, bsrc, nullptr), CK_ERR_BROADCAST);
    EXPECT_EQ(std::string(ck_last_error()),
              "colsums: the destination's core dimension 0 has size 3; the call gives 2");
    ckt::Array ragged("var * float64");
    EXPECT_EQ(ck_call(c, ragged.get(), 1, bsrc, nullptr), CK_ERR_TYPE);
    ck_callable_decref(c);
}

// "(N * int64) -> int64" over var rows: the leaf reads each ck_var_data.
struct RowSum {
    ck_prefix base;
    ck_core_dim row;
};
int rowsum_single(ck_prefix *self, char *dst, char *const *src) {
    const ck_core_dim &d = reinterpret_cast<RowSum *>(self)->row;
    const char *p = src[0];
    size_t n = static_cast<size_t>(d.size);
    if (d.size < 0) {
        const auto *v = reinterpret_cast<const ck_var_data *>(src[0]);
        p = v->begin + d.offset;
        n = v->size;
    }
    int64_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t x;
        std::memcpy(&x, p + static_cast<intptr_t>(i) * d.stride, 8);
        acc += x;
    }
    std::memcpy(dst, &acc, 8);
    return CK_OK;
}
int rowsum_strided(ck_prefix *self, char *dst, intptr_t ds, char *const *src, const intptr_t *ss,
                   size_t n) {
    for (size_t i = 0; i < n; i++) {
        char *s = src[0] + static_cast<intptr_t>(i) * ss[0];
        const int rc = rowsum_single(self, dst + static_cast<intptr_t>(i) * ds, &s);
        if (rc != CK_OK) return rc;
    }
    return CK_OK;
}
int rowsum_instantiate(void *, ck_builder *ckb, size_t *offset, const ck_leaf_info *info) {
    const int rc = ck_builder_reserve_leaf(ckb, *offset + sizeof(RowSum));
    if (rc != CK_OK) return rc;
    auto *k = static_cast<RowSum *>(static_cast<void *>(ck_builder_at(ckb, *offset)));
    ck_prefix_set_function(&k->base, info->req, rowsum_single, rowsum_strided);
    k->row = info->core->arg[0][0];
    *offset += sizeof(RowSum);
    return CK_OK;
}

TEST(CoreUser, RaggedRows) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("rowsum", &c), CK_OK);
    const ck_factory f = {rowsum_instantiate, nullptr, nullptr, nullptr};
    ASSERT_EQ(ck_callable_add(c, "(var * int64) -> int64", &f), CK_OK);
    for (const auto &p : std::vector<std::pair<const char *, const char *>>{
             {"3 * var * int64", "[[1, 2, 3], [], [4]]"},
             {"3 * 2 * int64", "[[1, 2], [3, 4], [5, 6]]"}}) {
        ckt::Array a(p.first, p.second);
        const ck_array *src[1] = {a.get()};
        ck_array *out = nullptr;
        ASSERT_EQ(ck_call_new(c, 1, src, nullptr, &out), CK_OK) << ck_last_error();
        char *s = nullptr;
        ASSERT_EQ(ck_array_format(out, &s), CK_OK);
        EXPECT_STREQ(s, p.first[4] == 'v' ? "[6, 0, 4]" : "[3, 7, 11]");
        ck_free(s);
        ck_array_free(out);
    }
    ck_callable_decref(c);
}

// "(N * float64) -> N * float64": the row reversed, written element by element as it is read,
// so a result block that shared scratch with the argument's would read what it wrote.
struct Reverse {
    ck_prefix base;
    ck_core_dim in, out;
};
int reverse_single(ck_prefix *self, char *dst, char *const *src) {
    const auto *k = reinterpret_cast<Reverse *>(self);
    for (intptr_t i = 0; i < k->in.size; i++) {
        std::memcpy(dst + i * k->out.stride, src[0] + (k->in.size - 1 - i) * k->in.stride, 8);
    }
    return CK_OK;
}
int reverse_strided(ck_prefix *self, char *dst, intptr_t ds, char *const *src, const intptr_t *ss,
                    size_t n) {
    for (size_t i = 0; i < n; i++) {
        char *s = src[0] + static_cast<intptr_t>(i) * ss[0];
        reverse_single(self, dst + static_cast<intptr_t>(i) * ds, &s);
    }
    return CK_OK;
}
int reverse_instantiate(void *, ck_builder *ckb, size_t *offset, const ck_leaf_info *info) {
    const int rc = ck_builder_reserve_leaf(ckb, *offset + sizeof(Reverse));
    if (rc != CK_OK) return rc;
    auto *k = static_cast<Reverse *>(static_cast<void *>(ck_builder_at(ckb, *offset)));
    ck_prefix_set_function(&k->base, info->req, reverse_single, reverse_strided);
    k->in = info->core->arg[0][0];
    k->out = info->core->ret[0];
    *offset += sizeof(Reverse);
    return CK_OK;
}

TEST(CoreUser, AResultBlockOfItsOwn) {
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_callable_new("reverse", &c), CK_OK);
    const ck_factory f = {reverse_instantiate, nullptr, nullptr, nullptr};
    ASSERT_EQ(ck_callable_add(c, "(N * float64) -> N * float64", &f), CK_OK);
    // int32 rows cast into scratch, the reversed rows cast out of scratch into int64
    ckt::Array a("2 * 4 * int32", "[[1, 2, 3, 4], [5, 6, 7, 8]]");
    ckt::Array dst("2 * 4 * int64");
    const ck_array *src[1] = {a.get()};
    ASSERT_EQ(ck_call(c, dst.get(), 1, src, nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[[4, 3, 2, 1], [8, 7, 6, 5]]");
    // directly: the result type carries the core dimension's size
    ck_array *out = nullptr;
    ASSERT_EQ(ck_call_new(c, 1, src, nullptr, &out), CK_OK) << ck_last_error();
    char *s = nullptr, *t = nullptr;
    ASSERT_EQ(ck_array_format(out, &s), CK_OK);
    ASSERT_EQ(ck_type_format(ck_array_type(out), &t), CK_OK);
    EXPECT_STREQ(s, "[[4, 3, 2, 1], [8, 7, 6, 5]]");
    EXPECT_STREQ(t, "2 * 4 * float64");
    ck_free(s);
    ck_free(t);
    ck_array_free(out);
    // a var N has no size for the result
    ckt::Array v("2 * var * float64", "[[1], [2, 3]]");
    const ck_array *vsrc[1] = {v.get()};
    EXPECT_EQ(ck_call_new(c, 1, vsrc, nullptr, &out), CK_ERR_UNSUPPORTED);
    EXPECT_EQ(std::string(ck_last_error()),
              "reverse: the result's core dimension N is var in every argument; a result's core "
              "dimensions are fixed ((N * float64) -> N * float64)");
    ck_callable_decref(c);
}

// ---- allocation failure ----

TEST(CoreAlloc, EveryPointOfACall) {
    struct Case {
        const char *a, *la, *b, *lb;
    };
    // direct; a cast into scratch on the stack; a cast into scratch allocated per call
    // (1000 int32 as float64: 8000 bytes); var rows
    std::string big = "[";
    for (int i = 0; i < 1000; i++) big += (i > 0 ? ", " : "") + std::to_string(i % 7);
    big += "]";
    const Case cases[] = {
        {"2 * 3 * float64", "[[1, 2, 3], [4, 5, 6]]", "3 * float64", "[1, 1, 2]"},
        {"2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]", "3 * float64", "[1, 1, 2]"},
        {"1000 * int32", big.c_str(), "1000 * float64", big.c_str()},
        {"2 * var * float64", "[[1, 2], [3]]", "2 * var * float64", "[[1, 1], [2]]"},
    };
    for (const auto &c : cases) {
        const int64_t points = ckt::for_each_alloc_failure([&]() {
            ck_callable *dot = nullptr;
            ck_type *ta = nullptr, *tb = nullptr;
            ck_array *a = nullptr, *b = nullptr, *out = nullptr;
            int rc = ck_lookup("dot", &dot);
            if (rc == CK_OK) rc = ck_type_parse(c.a, &ta);
            if (rc == CK_OK) rc = ck_type_parse(c.b, &tb);
            if (rc == CK_OK) rc = ck_array_parse(ta, c.la, &a);
            if (rc == CK_OK) rc = ck_array_parse(tb, c.lb, &b);
            const ck_array *src[2] = {a, b};
            if (rc == CK_OK) rc = ck_call_new(dot, 2, src, nullptr, &out);
            char *s = nullptr;
            if (rc == CK_OK) rc = ck_array_format(out, &s);
            ck_free(s);
            ck_array_free(out);
            ck_array_free(a);
            ck_array_free(b);
            ck_type_decref(ta);
            ck_type_decref(tb);
            ck_callable_decref(dot);
            return rc;
        });
        EXPECT_GT(points, 3) << c.a;
    }
}

}  // namespace
