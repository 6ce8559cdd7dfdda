// Reductions inside expressions (sum prod min max any all, axis=): values worked out by hand
// (integers, and floats that are exact), types as NumPy 1.24 gives them (np.sum of int8 is
// int64; a reduction to one value is a NumPy scalar, typed by value beside arrays), the
// printed form, and the errors with their columns.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ckt.hpp"
#include "ckt_array.hpp"
#include "expr_support.hpp"

namespace {

using ckt::eval;
using ckt::parsed;

// "TYPE VALUE" of ck_expr_eval_new.
std::string typed(const char *text, const std::vector<ckt::ExprArg> &args) {
    const std::string v = eval(text, args);
    ck_expr *e = nullptr;
    if (ck_expr_parse(text, &e) != CK_OK) return v;
    std::vector<std::unique_ptr<ckt::Array>> arrays;
    std::vector<const ck_array *> srcs;
    std::vector<const char *> names;
    for (const auto &a : args) {
        arrays.push_back(std::make_unique<ckt::Array>(a.type, a.literal.c_str()));
        srcs.push_back(arrays.back()->get());
        names.push_back(a.name);
    }
    ck_array *out = nullptr;
    std::string t = "?";
    if (ck_expr_eval_new(e, static_cast<int>(srcs.size()), names.data(), srcs.data(), nullptr,
                         &out) == CK_OK) {
        char *s = nullptr;
        if (ck_type_format(ck_array_type(out), &s) == CK_OK) t = s;
        ck_free(s);
    }
    ck_array_free(out);
    ck_expr_decref(e);
    return t + " " + v;
}

TEST(ExprReduce, AtTheRoot) {
    // a dot product: 1*4 + 2*5 + 3*6
    EXPECT_EQ(typed("sum(a * b)", {{"a", "3 * float64", "[1, 2, 3]"}, {"b", "3 * float64", "[4, 5, 6]"}}),
              "float64 32");
    // rows: 1+4+9, 16+25+36; np.sum of int32 is int64
    EXPECT_EQ(typed("sum(x * x, axis=1)", {{"x", "2 * 3 * int32", "[[1, 2, 3], [4, 5, 6]]"}}),
              "2 * int64 [14, 77]");
    EXPECT_EQ(typed("prod(x + 1, axis=0)", {{"x", "2 * 3 * int8", "[[1, 2, 3], [4, 5, 6]]"}}),
              "3 * int64 [10, 18, 28]");
    EXPECT_EQ(typed("min(x - 10, axis=-1)", {{"x", "2 * 3 * uint8", "[[1, 2, 3], [4, 5, 6]]"}}),
              "2 * uint8 [247, 250]"); // uint8 wraps: 1 - 10 is 247, as NumPy's
    EXPECT_EQ(typed("any(x > 4, axis=1)", {{"x", "2 * 3 * float32", "[[1, 2, 3], [4, 5, 6]]"}}),
              "2 * bool [false, true]");
    EXPECT_EQ(typed("all(x < 7)", {{"x", "2 * 3 * float32", "[[1, 2, 3], [4, 5, 6]]"}}),
              "bool true");
    // axis=() reduces nothing: the operand in sum's type (np.sum(x, axis=()) of int8 is int64)
    EXPECT_EQ(typed("sum(x, axis=())", {{"x", "3 * int8", "[1, 2, -3]"}}), "3 * int64 [1, 2, -3]");
    // two axes of three, as a tuple or positionally
    EXPECT_EQ(typed("max(x, (0, 2))", {{"x", "2 * 2 * 2 * int16", "[[[1, 8], [3, 4]], [[5, 6], [7, 2]]]"}}),
              "2 * int16 [8, 7]");
    EXPECT_EQ(typed("max(x, axis=None)", {{"x", "2 * 2 * int16", "[[1, 8], [3, 4]]"}}), "int16 8");
}

TEST(ExprReduce, InsideAnExpressionTheyAreEvaluatedFirstAndBroadcast) {
    // a - sum(a, axis=0) / 4 over [[1, 2], [3, 4]]: sums [4, 6], quarters [1, 1.5]
    EXPECT_EQ(typed("a - sum(a, axis=0) / 4", {{"a", "2 * 2 * float64", "[[1, 2], [3, 4]]"}}),
              "2 * 2 * float64 [[0, 0.5], [2, 2.5]]");
    // np.max(x) + 1: two scalars, each its own type (np.int8(6) + 1 is an int64)
    EXPECT_EQ(typed("max(x, (0, -1)) + 1", {{"x", "2 * 3 * int8", "[[1, 2, 3], [4, 5, 6]]"}}),
              "int64 7");
    // sum(sum(x, axis=1) * 2) - prod(x): (3 + 7) * 2 - 24
    EXPECT_EQ(typed("sum(sum(x, axis=1) * 2) - prod(x)", {{"x", "2 * 2 * int8", "[[1, 2], [3, 4]]"}}),
              "int64 -4");
    // One value is a NumPy scalar: np.int64(6) beside int8 values is an int8 (6 fits)
    EXPECT_EQ(typed("x - sum(x)", {{"x", "3 * int8", "[1, 2, 3]"}}), "3 * int8 [-5, -4, -3]");
    // ... and np.int64(300) is not: int16
    EXPECT_EQ(typed("x - sum(x)", {{"x", "3 * int8", "[100, 100, 100]"}}), "3 * int16 [-200, -200, -200]");
    // Two reductions of the same argument and an argument used only inside one
    EXPECT_EQ(typed("sum(a * b) + sum(a) * c", {{"a", "3 * float64", "[1, 2, 3]"},
                                                {"b", "3 * float64", "[4, 5, 6]"},
                                                {"c", "2 * float64", "[1, 2]"}}),
              "2 * float64 [38, 44]");
}

TEST(ExprReduce, ResultTypeKnowsTypesNotValues) {
    // Without the values, one reduced value is typed by its type: int64, where
    // ck_expr_eval_new (and NumPy) types the value 6 as int8.
    EXPECT_EQ(ckt::result_type("x - sum(x)", {{"x", "3 * int8", ""}}), "3 * int64");
    EXPECT_EQ(ckt::result_type("sum(x * x, axis=1)", {{"x", "2 * 3 * int32", ""}}), "2 * int64");
    EXPECT_EQ(ckt::result_type("a - sum(a, axis=0) / 4", {{"a", "5 * 2 * float32", ""}}),
              "5 * 2 * float32");
}

TEST(ExprReduce, PrintedForm) {
    EXPECT_EQ(parsed("sum(a * b)"), "sum((a * b))");
    EXPECT_EQ(parsed("max(x, axis=-1) + min(x, (0, 1))"),
              "(max(x, axis=(-1,)) + min(x, axis=(0, 1)))");
    EXPECT_EQ(parsed("all(x < 1, axis=None)"), "all((x < 1:int64))");
}

TEST(ExprReduce, ErrorsNameTheColumn) {
    EXPECT_EQ(eval("1 + sum(x, axis=2)", {{"x", "3 * int8", "[1, 2, 3]"}}),
              "CK_ERR_INVALID: expression column 5: reduce: axis 2 is out of range for a source "
              "of 1 dimension");
    EXPECT_EQ(eval("min(x) * 2", {{"x", "0 * int8", "[]"}}),
              "CK_ERR_INVALID: expression column 1: minimum: no elements to reduce (dimension 0 "
              "has size 0), and minimum has no identity");
    EXPECT_EQ(eval("sum(x, axis=(0, 0))", {{"x", "2 * int8", "[1, 2]"}}),
              "CK_ERR_INVALID: expression column 1: reduce: axis 0 is given twice");
    EXPECT_EQ(parsed("sum(x, 1, 2)"),
              "CK_ERR_PARSE: expression: expected ')' (a reduction takes one operand and its "
              "axes) at column 9, found ','");
    EXPECT_EQ(parsed("sum(x, axis=)"),
              "CK_ERR_PARSE: expression: expected an axis (an integer) at column 13, found ')'");
    EXPECT_EQ(parsed("sum(x, axis=64)"),
              "CK_ERR_INVALID: expression: axis 64 at column 13 is out of range (arrays have at "
              "most 64 dimensions)");
    EXPECT_EQ(parsed("x = 1"),
              "CK_ERR_PARSE: expression: unexpected '=' at column 3 (comparisons are == and !=)");
    // An unknown name stays an error with reductions too
    EXPECT_EQ(eval("sum(x)", {{"x", "2 * int8", "[1, 2]"}, {"y", "2 * int8", "[1, 2]"}}).rfind(
                  "CK_ERR_INVALID: expression: ", 0),
              0u);
    // NA: the reduction of an option with NA is NA (no skipna in expressions)
    EXPECT_EQ(eval("sum(x) + 1", {{"x", "3 * ?int32", "[1, NA, 3]"}}), "NA");
}

TEST(ExprReduce, AKernelRefusesThem) {
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("sum(x) + 1", &e), CK_OK);
    EXPECT_EQ(ck_expr_reductions(e), 1);
    ckt::Array x("3 * int32", "[1, 2, 3]");
    ckt::Array out("int64");
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    const ck_type *st[] = {ck_array_type(x.get())};
    const char *sam[] = {ck_array_arrmeta(x.get())};
    EXPECT_EQ(ck_make_expr(&b, &off, e, ck_array_type(out.get()), ck_array_arrmeta(out.get()), 1,
                           nullptr, st, sam, CK_REQUEST_SINGLE, nullptr),
              CK_ERR_UNSUPPORTED);
    EXPECT_NE(std::string(ck_last_error()).find("sum(...): a reduction is evaluated by ck_expr_eval"),
              std::string::npos)
        << ck_last_error();
    ck_builder_destroy(&b);
    // ... which evaluate them
    const ck_array *src[] = {x.get()};
    ASSERT_EQ(ck_expr_eval(e, out.get(), 1, nullptr, src, nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(out.str(), "7");
    ck_expr_decref(e);
}

TEST(ExprReduce, AllocationFailureAtEveryPoint) {
    const int64_t points = ckt::for_each_alloc_failure([]() {
        ck_expr *e = nullptr;
        int rc = ck_expr_parse("a - sum(a * 2, axis=0) / 4 + max(a)", &e);
        ck_type *t = nullptr;
        ck_array *a = nullptr, *out = nullptr;
        if (rc == CK_OK) rc = ck_type_parse("2 * 2 * float64", &t);
        if (rc == CK_OK) rc = ck_array_parse(t, "[[1, 2], [3, 4]]", &a);
        const ck_array *src[] = {a};
        if (rc == CK_OK) rc = ck_expr_eval_new(e, 1, nullptr, src, nullptr, &out);
        char *s = nullptr;
        if (rc == CK_OK) rc = ck_array_format(out, &s);
        if (rc == CK_OK) {
            // sums of 2a over axis 0: [8, 12], quarters [2, 3]; max 4
            EXPECT_STREQ(s, "[[3, 3], [5, 5]]");
        }
        ck_free(s);
        ck_array_free(out);
        ck_array_free(a);
        ck_type_decref(t);
        ck_expr_decref(e);
        return rc;
    });
    EXPECT_GT(points, 10);
}

} // namespace

namespace {

// A new array of `type` filled from a small integer generator (values -8 .. 8 scaled, so
// products stay exact only where the test wants them to be; NaN where nan_every > 0).
ck_array *filled(const char *type, uint64_t seed, int nan_every = 0) {
    ck_type *t = nullptr;
    ck_array *a = nullptr;
    if (ck_type_parse(type, &t) != CK_OK || ck_array_new(t, &a) != CK_OK) {
        ck_type_decref(t);
        return nullptr;
    }
    const ck_type *el = t;
    while (ck_type_get_id(el) == CK_TYPE_FIXED_DIM) el = ck_type_element(el);
    const ck_type_id id = ck_type_get_id(el);
    const size_t size = ck_type_data_size(el), n = ck_type_data_size(t) / size;
    char *d = ck_array_data(a);
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const double v = static_cast<double>(static_cast<int64_t>(x % 1000003) - 500001) / 65536.0;
        const bool nan = nan_every > 0 && i % static_cast<size_t>(nan_every) == 7;
        switch (id) {
        case CK_TYPE_FLOAT64: {
            const double w = nan ? NAN : v;
            std::memcpy(d + i * size, &w, size);
            break;
        }
        case CK_TYPE_FLOAT32: {
            const float w = nan ? NAN : static_cast<float>(v);
            std::memcpy(d + i * size, &w, size);
            break;
        }
        case CK_TYPE_COMPLEX64: {
            const float w[2] = {static_cast<float>(v), static_cast<float>(v / 3)};
            std::memcpy(d + i * size, w, size);
            break;
        }
        case CK_TYPE_COMPLEX128: {
            const double w[2] = {v, v / 3};
            std::memcpy(d + i * size, w, size);
            break;
        }
        case CK_TYPE_INT32: {
            const int32_t w = static_cast<int32_t>(x % 201) - 100;
            std::memcpy(d + i * size, &w, size);
            break;
        }
        case CK_TYPE_BOOL: d[i] = static_cast<char>(x % 50 != 0); break;
        default: ADD_FAILURE() << "filled: type " << type; break;
        }
    }
    ck_type_decref(t);
    return a;
}

std::string bytes_of(const ck_array *a) {
    return std::string(ck_array_data(a), ck_type_data_size(ck_array_type(a)));
}

// The reduction at the root, evaluated a piece at a time (no full temporary), against the
// reduction of the operand evaluated whole: the same type and bytes.
void expect_as_whole(const std::string &red, const char *operand, const char *axis,
                     const std::vector<std::pair<const char *, ck_array *>> &args) {
    const std::string text = red + "(" + operand + (axis ? std::string(", axis=") + axis : "") + ")";
    std::vector<const char *> names;
    std::vector<const ck_array *> srcs;
    for (auto &a : args) {
        names.push_back(a.first);
        srcs.push_back(a.second);
    }
    const int n = static_cast<int>(args.size());
    ck_expr *whole = nullptr, *op = nullptr;
    ASSERT_EQ(ck_expr_parse(text.c_str(), &whole), CK_OK) << text;
    ASSERT_EQ(ck_expr_parse(operand, &op), CK_OK);
    ck_array *got = nullptr, *tmp = nullptr, *want = nullptr;
    ASSERT_EQ(ck_expr_eval_new(whole, n, names.data(), srcs.data(), nullptr, &got), CK_OK)
        << text << ": " << ck_last_error();
    ASSERT_EQ(ck_expr_eval_new(op, n, names.data(), srcs.data(), nullptr, &tmp), CK_OK);
    ck_callable *c = nullptr;
    ASSERT_EQ(ck_reduction_lookup(red.c_str(), &c), CK_OK);
    int ax = axis ? std::atoi(axis) : 0;
    ck_reduce_spec spec = {c, axis ? &ax : nullptr, axis ? 1 : 0, 0};
    ASSERT_EQ(ck_reduce_new(&spec, tmp, nullptr, &want), CK_OK) << ck_last_error();
    EXPECT_TRUE(ck_type_equal(ck_array_type(got), ck_array_type(want))) << text;
    EXPECT_EQ(bytes_of(got), bytes_of(want)) << text;
    // ... and into an existing destination of that type
    ck_array *into = nullptr;
    ASSERT_EQ(ck_array_new(ck_array_type(want), &into), CK_OK);
    ASSERT_EQ(ck_expr_eval(whole, into, n, names.data(), srcs.data(), nullptr), CK_OK) << text;
    EXPECT_EQ(bytes_of(into), bytes_of(want)) << text << " (into a destination)";
    ck_array_free(into);
    ck_callable_decref(c);
    ck_array_free(got);
    ck_array_free(tmp);
    ck_array_free(want);
    ck_expr_decref(whole);
    ck_expr_decref(op);
}

} // namespace

TEST(ExprReduce, AtTheRootAPieceAtATimeGivesTheWholeReductionsBits) {
    // 1-d runs just above two chunks of 16384, a few chunks, and with a tail; rows of a 2-d
    // operand longer than a chunk; blocks of short rows, 2-d and 3-d; broadcast operands.
    for (const char *n : {"32769", "81920", "100003", "44768"}) {
        const std::string f = std::string(n) + " * float64", s = std::string(n) + " * float32";
        ck_array *a = filled(f.c_str(), 1), *b = filled(f.c_str(), 2), *g = filled(s.c_str(), 3),
                 *h = filled(f.c_str(), 4, 997);
        for (const char *red : {"sum", "prod", "min", "max"}) {
            expect_as_whole(red, "a * b - 1", nullptr, {{"a", a}, {"b", b}});
            expect_as_whole(red, "g * 2", "0", {{"g", g}});
            expect_as_whole(red, "h + a", nullptr, {{"a", a}, {"h", h}}); // NaNs on the way
        }
        const std::string c = std::string(n) + " * complex128", i = std::string(n) + " * int32";
        ck_array *z = filled(c.c_str(), 5), *k = filled(i.c_str(), 6);
        expect_as_whole("sum", "z * z", nullptr, {{"z", z}});
        // sums of products of two sources run the dot leaf: the fold's bits all the same
        expect_as_whole("sum", "a * b", nullptr, {{"a", a}, {"b", b}});
        expect_as_whole("sum", "h * a", "0", {{"a", a}, {"h", h}}); // NaNs on the way
        expect_as_whole("sum", "g * g", nullptr, {{"g", g}});
        for (const char *red : {"sum", "prod", "min", "max", "any", "all"}) {
            expect_as_whole(red, "k * 3 + 1", nullptr, {{"k", k}}); // int64 accumulators
        }
        ck_array *bits = filled((std::string(n) + " * bool").c_str(), 7);
        expect_as_whole("all", "bits", nullptr, {{"bits", bits}});
        expect_as_whole("any", "~bits", nullptr, {{"bits", bits}});
        for (ck_array *x : {a, b, g, h, z, k, bits}) ck_array_free(x);
    }
    ck_array *m = filled("3 * 40000 * float64", 8), *row = filled("40000 * float64", 9),
             *col = filled("3 * 1 * float64", 10), *w = filled("300 * 1000 * float64", 11),
             *q = filled("40 * 30 * 100 * int32", 12);
    expect_as_whole("sum", "m * row + col", "1", {{"m", m}, {"row", row}, {"col", col}});
    expect_as_whole("max", "m - col", "-1", {{"m", m}, {"col", col}});
    expect_as_whole("sum", "w * w", "1", {{"w", w}});
    expect_as_whole("sum", "m * row", "1", {{"m", m}, {"row", row}}); // row broadcast
    expect_as_whole("sum", "col * m", "-1", {{"m", m}, {"col", col}}); // col broadcast
    expect_as_whole("min", "w", "-1", {{"w", w}});
    expect_as_whole("sum", "q * q", "2", {{"q", q}});
    expect_as_whole("prod", "q % 3 + 1", "-1", {{"q", q}});
    for (ck_array *x : {m, row, col, w, q}) ck_array_free(x);
}

TEST(ExprReduce, APieceAtATimeUnderAllocationFailure) {
    const int64_t points = ckt::for_each_alloc_failure([]() {
        ck_array *a = filled("40000 * float64", 1), *m = filled("4 * 20000 * int32", 2);
        int rc = a != nullptr && m != nullptr ? CK_OK : CK_ERR_NOMEM;
        ck_expr *e = nullptr;
        if (rc == CK_OK) rc = ck_expr_parse("sum(a * a) + sum(m * 2, axis=1)", &e);
        const char *names[] = {"a", "m"};
        const ck_array *src[] = {a, m};
        ck_array *out = nullptr;
        if (rc == CK_OK) rc = ck_expr_eval_new(e, 2, names, src, nullptr, &out);
        ck_array_free(out);
        out = nullptr;
        ck_expr_decref(e);
        ck_expr *r = nullptr;
        if (rc == CK_OK) rc = ck_expr_parse("max(a * 2 - 1)", &r);
        const ck_array *one[] = {a};
        if (rc == CK_OK) rc = ck_expr_eval_new(r, 1, nullptr, one, nullptr, &out);
        ck_array_free(out);
        ck_expr_decref(r);
        ck_array_free(a);
        ck_array_free(m);
        return rc;
    });
    EXPECT_GT(points, 10);
}

TEST(ExprReduce, AtTheRootASumOfProductsIsTheFoldsSignedZerosStridesAndTypes) {
    // Products of -0.0 only (a fold of signed zeros gives +0.0, as NumPy's sum), a strided
    // source (every other element of a 2 * n buffer), and sums of two different sources of
    // each of the four types the dot leaf takes, against the operand reduced whole.
    const size_t n = 40000;
    ck_array *neg = filled("40000 * float64", 1), *one = filled("40000 * float64", 2);
    auto *nz = reinterpret_cast<double *>(ck_array_data(neg));
    auto *on = reinterpret_cast<double *>(ck_array_data(one));
    for (size_t i = 0; i < n; i++) nz[i] = -0.0, on[i] = 1.0 + static_cast<double>(i % 3);
    expect_as_whole("sum", "x * y", nullptr, {{"x", neg}, {"y", one}});
    ck_array *twice = filled("80000 * float64", 3);
    ck_type *t = nullptr;
    ASSERT_EQ(ck_type_parse("40000 * float64", &t), CK_OK);
    const ck_fixed_dim_arrmeta am = {40000, 16};
    ck_array *strided = nullptr;
    ASSERT_EQ(ck_array_wrap(t, reinterpret_cast<const char *>(&am), ck_array_data(twice), nullptr,
                            &strided),
              CK_OK);
    expect_as_whole("sum", "s * y", nullptr, {{"s", strided}, {"y", one}});
    expect_as_whole("sum", "s * s", nullptr, {{"s", strided}});
    for (const char *ty : {"float32", "float64", "complex64", "complex128"}) {
        const std::string tt = std::string("3 * 50000 * ") + ty;
        ck_array *p = filled(tt.c_str(), 4), *q = filled(tt.c_str(), 5);
        expect_as_whole("sum", "p * q", "1", {{"p", p}, {"q", q}});
        ck_array_free(p);
        ck_array_free(q);
    }
    ck_array_free(strided);
    ck_type_decref(t);
    for (ck_array *x : {neg, one, twice}) ck_array_free(x);
}
