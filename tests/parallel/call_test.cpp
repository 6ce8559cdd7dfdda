// tests/parallel/call_test.cpp: ck_parallel_call, N sources split over the destination's
// outermost dimension: values computed here from fill formulas, broadcasting of size-1 and
// missing outer dimensions, errors reported with the same status and message as the serial
// ck_call, and the serial fallbacks (var outer level, small work).
#include <cstring>

#include "par.hpp"

namespace {

using par::Leakless;

ck_callable *builtin(const char *name) {
    ck_callable *c = nullptr;
    EXPECT_EQ(ck_lookup(name, &c), CK_OK) << ck_last_error();
    return c;
}

TEST_F(Leakless, ParallelAddOfARowAndAColumnWithACast) {
    // (m, 1) int32 + (n,) float64 -> (m, n) float64: element (i, j) = i + 0.5 * j.
    const int m = 3000, n = 64;
    ckt::Array a((std::to_string(m) + " * 1 * int32").c_str());
    ckt::Array b((std::to_string(n) + " * float64").c_str());
    ckt::Array out((std::to_string(m) + " * " + std::to_string(n) + " * float64").c_str());
    for (int i = 0; i < m; ++i) reinterpret_cast<int32_t *>(a.data())[i] = i;
    for (int j = 0; j < n; ++j) reinterpret_cast<double *>(b.data())[j] = 0.5 * j;
    ck_callable *add = builtin("add");
    const ck_array *src[] = {a.get(), b.get()};
    const ck_eval_ctx ctx = par::ctx(2, 4096);
    ASSERT_EQ(ck_parallel_call(add, out.get(), 2, src, &ctx), CK_OK) << ck_last_error();
    const double *o = reinterpret_cast<const double *>(out.data());
    int wrong = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) wrong += o[i * n + j] != i + 0.5 * j;
    EXPECT_EQ(wrong, 0);
    ck_callable_decref(add);
}

TEST_F(Leakless, ParallelCallErrorsMatchTheSerialCall) {
    // int32 divide with a zero divisor in row 2345 of 4000: the same status as ck_call, and
    // the same element: serially the C-order rows are coalesced into one run (flat index
    // 2345 * 8 + 3); split across workers, the row's index and the element in it.
    const int m = 4000, n = 8;
    const std::string shape = std::to_string(m) + " * " + std::to_string(n) + " * int32";
    ckt::Array a(shape.c_str()), b(shape.c_str()), out1(shape.c_str()), out2(shape.c_str());
    int32_t *pa = reinterpret_cast<int32_t *>(a.data()), *pb = reinterpret_cast<int32_t *>(b.data());
    for (int k = 0; k < m * n; ++k) {
        pa[k] = k;
        pb[k] = 1 + k % 5;
    }
    pb[2345 * n + 3] = 0;
    ck_callable *div = builtin("trunc_divide");
    const ck_array *src[] = {a.get(), b.get()};
    ASSERT_EQ(ck_call(div, out1.get(), 2, src, nullptr), CK_ERR_ZERO_DIVISION);
    const std::string serial = ck_last_error();
    const ck_eval_ctx ctx = par::ctx(2, 1024);
    ASSERT_EQ(ck_parallel_call(div, out2.get(), 2, src, &ctx), CK_ERR_ZERO_DIVISION);
    EXPECT_EQ(serial, "trunc_divide: integer division by zero at element [18763]");
    // Without oneTBB (CK_WITH_TBB=OFF) ck_parallel_call is the serial call, message included.
    EXPECT_EQ(std::string(ck_last_error()),
              par::tbb_backend() ? "trunc_divide: integer division by zero at element [2345][3]"
                                 : serial);
    // Which other rows ran is the scheduler's business (the failure cancels the rest); the
    // serial call wrote every row before the failing element.
    const int32_t *o = reinterpret_cast<const int32_t *>(out1.data());
    EXPECT_EQ(o[0], 0);
    EXPECT_EQ(o[7], 7 / 3);
    EXPECT_EQ(o[2345 * n + 2], (2345 * n + 2) / (1 + (2345 * n + 2) % 5));
    ck_callable_decref(div);
}

TEST_F(Leakless, ParallelCallFallsBackToSerialForVarOuterLevels) {
    ckt::Array a("var * float64", "[1, 2, 3]"), b("float64", "10");
    ck_callable *mul = builtin("multiply");
    const ck_array *src[] = {a.get(), b.get()};
    ck_array *out = nullptr;
    ASSERT_EQ(ck_call_new(mul, 2, src, nullptr, &out), CK_OK) << ck_last_error();
    ck_array_free(out);
    ckt::Array dst("3 * float64");
    const ck_eval_ctx ctx = par::ctx(2, 8);
    ASSERT_EQ(ck_parallel_call(mul, dst.get(), 2, src, &ctx), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[10, 20, 30]");
    ck_callable_decref(mul);
}

}  // namespace
