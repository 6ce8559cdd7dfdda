// tests/callables/fp_errors_test.cpp: CK_EVAL_FP_ERRORS through the C API: the status and
// message of each kind of error (invalid value, division by zero, overflow, the integer
// divisions), the element's index at every chunk edge of every CPU target's leaves (the
// check reads values, so every target and vector width reports the same element), the
// in-place form a reduction's fold uses, no check and no cost without the flag (the kernel
// has no fp_check), and allocation failure at every point of a checked kernel's build.
// NumPy's errstate comparison is python/tests/test_fp_errors.py's.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "target_fixture.hpp"

namespace {

struct Outcome {
    int rc;
    std::string message;
};

// name(a[, b]) over float64 (or int64) arrays of n elements, into a new result.
template <typename T>
Outcome call(const char *name, const std::vector<T> &a, const std::vector<T> *b, unsigned flags) {
    const char *scalar = std::is_same<T, double>::value ? "float64" : "int64";
    ck_callable *c = nullptr;
    ck_type *t = nullptr;
    ck_array *x = nullptr, *y = nullptr, *r = nullptr;
    const std::string ts = std::to_string(a.size()) + " * " + scalar;
    ck_fixed_dim_arrmeta am;
    am.dim_size = static_cast<intptr_t>(a.size());
    am.stride = sizeof(T);
    const char *meta = reinterpret_cast<const char *>(&am);
    // every step's failure is the outcome (allocation failure may strike anywhere)
    int rc = ck_lookup(name, &c);
    if (rc == CK_OK) rc = ck_type_parse(ts.c_str(), &t);
    if (rc == CK_OK) {
        rc = ck_array_wrap(t, meta, const_cast<char *>(reinterpret_cast<const char *>(a.data())),
                           nullptr, &x);
    }
    if (rc == CK_OK && b != nullptr) {
        rc = ck_array_wrap(t, meta, const_cast<char *>(reinterpret_cast<const char *>(b->data())),
                           nullptr, &y);
    }
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = flags;
    const ck_array *args[2] = {x, y};
    if (rc == CK_OK) rc = ck_call_new(c, b != nullptr ? 2 : 1, args, &ctx, &r);
    Outcome o;
    o.rc = rc;
    o.message = rc == CK_OK ? "" : ck_last_error();
    ck_array_free(r);
    ck_array_free(x);
    ck_array_free(y);
    ck_type_decref(t);
    ck_callable_decref(c);
    return o;
}

TEST(FpErrors, EachKindOfErrorIsItsStatusNamingTheValues) {
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> one = {-1.0}, zero = {0.0}, big = {1000.0}, two = {2.0, 0.0};
    const std::vector<double> infs = {inf};
    Outcome o = call("sqrt", one, static_cast<const std::vector<double> *>(nullptr), CK_EVAL_FP_ERRORS);
    EXPECT_EQ(o.rc, CK_ERR_DOMAIN);
    EXPECT_EQ(o.message, "sqrt: invalid value: sqrt(-1) = nan at element [0]");
    o = call("log", zero, static_cast<const std::vector<double> *>(nullptr), CK_EVAL_FP_ERRORS);
    EXPECT_EQ(o.rc, CK_ERR_ZERO_DIVISION);
    EXPECT_EQ(o.message, "log: division by zero: log(0) = -inf at element [0]");
    o = call("exp", big, static_cast<const std::vector<double> *>(nullptr), CK_EVAL_FP_ERRORS);
    EXPECT_EQ(o.rc, CK_ERR_OVERFLOW);
    EXPECT_EQ(o.message, "exp: overflow: exp(1000) = inf at element [0]");
    o = call("subtract", infs, &infs, CK_EVAL_FP_ERRORS);
    EXPECT_EQ(o.rc, CK_ERR_DOMAIN);
    EXPECT_EQ(o.message, "subtract: invalid value: subtract(inf, inf) = nan at element [0]");
    const std::vector<double> num = {1.0, 1.0};
    o = call("divide", num, &two, CK_EVAL_FP_ERRORS);
    EXPECT_EQ(o.rc, CK_ERR_ZERO_DIVISION);
    EXPECT_EQ(o.message, "divide: division by zero: divide(1, 0) = inf at element [1]");
    // integers: floor_divide, remainder and fmod by zero, floor_divide's MIN / -1
    const std::vector<int64_t> seven = {7, 7}, divisors = {2, 0};
    Outcome i = call("remainder", seven, &divisors, CK_EVAL_FP_ERRORS);
    EXPECT_EQ(i.rc, CK_ERR_ZERO_DIVISION);
    EXPECT_EQ(i.message, "remainder: division by zero: remainder(7, 0) at element [1]");
    const std::vector<int64_t> low = {INT64_MIN}, minus = {-1};
    i = call("floor_divide", low, &minus, CK_EVAL_FP_ERRORS);
    EXPECT_EQ(i.rc, CK_ERR_OVERFLOW);
    EXPECT_EQ(i.message,
              "floor_divide: overflow: floor_divide(-9223372036854775808, -1) at element [0]");
    // without the flag: NumPy's values, no error
    EXPECT_EQ(call("remainder", seven, &divisors, 0).rc, CK_OK);
    EXPECT_EQ(call("exp", big, static_cast<const std::vector<double> *>(nullptr), 0).rc, CK_OK);
    // NaN arguments and exact infinities are no error
    const std::vector<double> nan = {std::nan("")};
    EXPECT_EQ(call("sqrt", nan, static_cast<const std::vector<double> *>(nullptr), CK_EVAL_FP_ERRORS).rc,
              CK_OK);
    EXPECT_EQ(call("exp", infs, static_cast<const std::vector<double> *>(nullptr), CK_EVAL_FP_ERRORS).rc,
              CK_OK);
}

class FpErrorsTargets : public ckt::TargetCapped {};

TEST_P(FpErrorsTargets, TheFirstBadElementAtEveryChunkEdge) {
    for (size_t n : {size_t{1}, size_t{7}, size_t{255}, size_t{256}, size_t{257}, size_t{1024},
                     size_t{1025}, size_t{4099}}) {
        for (size_t bad : {size_t{0}, n / 2, n - 1}) {
            std::vector<double> x(n, 1.0);
            x[bad] = 800.0;  // exp overflows there only
            if (bad + 1 < n) x[n - 1] = 900.0;  // a later one is not the first
            const Outcome o = call("exp", x, static_cast<const std::vector<double> *>(nullptr),
                                   CK_EVAL_FP_ERRORS);
            EXPECT_EQ(o.rc, CK_ERR_OVERFLOW) << n << " " << bad;
            EXPECT_EQ(o.message, "exp: overflow: exp(800) = inf at element [" +
                                     std::to_string(bad) + "]")
                << n << " " << bad;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Targets, FpErrorsTargets, ::testing::ValuesIn(ckt::kTargets),
                         ckt::name_by_content(ckt::kTargets, [](const ckt::Target &tg) {
                             return std::string(tg.name);
                         }));

// The kernel of a checked call holds fp_check above the leaf; one without the flag does not.
std::string describe(const char *name, unsigned flags) {
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_lookup(name, &c), CK_OK);
    const ck_type *st[1] = {ck_type_scalar(CK_TYPE_FLOAT64)};
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = flags;
    std::string out;
    int rc = ck_make_call(&b, &off, c, st[0], nullptr, 1, st, nullptr, CK_REQUEST_STRIDED, &ctx);
    char *text = nullptr;
    if (rc == CK_OK) rc = ck_kernel_describe(ck_builder_root(&b), &text);
    if (rc == CK_OK) out = text;
    ck_free(text);
    ck_builder_destroy(&b);
    ck_callable_decref(c);
    return rc == CK_OK ? out : std::string("error: ") + ck_last_error();
}

TEST(FpErrors, OnlyAskedForAndOnlyWhereValuesCanRaise) {
    EXPECT_NE(describe("exp", CK_EVAL_FP_ERRORS).find("fp_check"), std::string::npos);
    EXPECT_EQ(describe("exp", 0).find("fp_check"), std::string::npos);
    EXPECT_EQ(describe("isnan", CK_EVAL_FP_ERRORS).find("fp_check"), std::string::npos);  // bool
}

TEST(FpErrors, AllocationFailureAtEveryPoint) {
    const int64_t points = ckt::for_each_alloc_failure([]() {
        const std::vector<double> a = {1.0, 2.0, 3.0}, b = {1.0, 0.0, 2.0};
        const Outcome o = call("divide", a, &b, CK_EVAL_FP_ERRORS);
        return o.rc == CK_ERR_ZERO_DIVISION ? CK_OK : o.rc;
    });
    EXPECT_GT(points, 2);
}

// sum(x) of float64 values through ck_reduce_new, flags in the context.
Outcome sum(const std::vector<double> &x, unsigned flags) {
    ck_callable *c = nullptr;
    ck_type *t = nullptr;
    ck_array *a = nullptr, *r = nullptr;
    const std::string ts = std::to_string(x.size()) + " * float64";
    ck_fixed_dim_arrmeta am;
    am.dim_size = static_cast<intptr_t>(x.size());
    am.stride = sizeof(double);
    int rc = ck_reduction_lookup("sum", &c);
    if (rc == CK_OK) rc = ck_type_parse(ts.c_str(), &t);
    if (rc == CK_OK) {
        rc = ck_array_wrap(t, reinterpret_cast<const char *>(&am),
                           const_cast<char *>(reinterpret_cast<const char *>(x.data())), nullptr,
                           &a);
    }
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = flags;
    ck_reduce_spec spec = {c, nullptr, 0, 0};
    if (rc == CK_OK) rc = ck_reduce_new(&spec, a, &ctx, &r);
    Outcome o{rc, rc == CK_OK ? "" : ck_last_error()};
    ck_array_free(r);
    ck_array_free(a);
    ck_type_decref(t);
    ck_callable_decref(c);
    return o;
}

TEST(FpErrors, ABuiltInSumReadsItsOwnFlagsAndGivesTheCallersBack) {
    const std::vector<double> big = {1e308, 1e308}, fine = {1.0, 2.0};
    std::feclearexcept(FE_ALL_EXCEPT);
    std::feraiseexcept(FE_UNDERFLOW);  // the caller's, before the call
    Outcome o = sum(big, CK_EVAL_FP_ERRORS);
    EXPECT_EQ(o.rc, CK_ERR_OVERFLOW);
    EXPECT_EQ(o.message, "add: overflow: a partial sum of the float64 values is past the type's "
                         "range");
    EXPECT_TRUE(std::fetestexcept(FE_UNDERFLOW));  // still the caller's
    EXPECT_FALSE(std::fetestexcept(FE_OVERFLOW));  // the kernel's became the status
    std::feraiseexcept(FE_OVERFLOW);  // a caller's earlier overflow is no error of the sum's
    EXPECT_EQ(sum(fine, CK_EVAL_FP_ERRORS).rc, CK_OK);
    EXPECT_TRUE(std::fetestexcept(FE_OVERFLOW));
    std::feclearexcept(FE_ALL_EXCEPT);
    EXPECT_EQ(sum(big, 0).rc, CK_OK);  // silent without the flag
}

TEST(FpErrors, ABuiltInSumsCheckFailsCleanlyAtEveryAllocation) {
    const int64_t points = ckt::for_each_alloc_failure([]() {
        const Outcome o = sum({1e308, 1e308, 1.0}, CK_EVAL_FP_ERRORS);
        return o.rc == CK_ERR_OVERFLOW ? CK_OK : o.rc;
    });
    EXPECT_GT(points, 2);
}

}  // namespace
