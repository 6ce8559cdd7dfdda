// tests/parallel/nested_test.cpp: parallel calls made from inside a kernel that itself runs
// in a parallel call (each in its own isolated arena: no deadlock, no outer work stolen), a
// failure deep inside, and ckernel called from inside a user's own oneTBB parallel loop.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#if CKT_WITH_TBB
#include <oneapi/tbb/parallel_for.h>
#endif

#include "par.hpp"

namespace {

using par::Leakless;

// Each outer element is a row of `cols` values: the kernel converts the row with an inner
// parallel call of `inner`. With depth > 1 the inner kernel is another RowsThroughInnerCall.
struct Rows : par::UserKernel<Rows> {
    ck_prefix *inner;
    size_t cols;
    intptr_t inner_dst_stride, inner_src_stride;
    ck_eval_ctx inner_ctx;
    std::atomic<int> *calls;
    static int strided(ck_prefix *p, char *dst, intptr_t ds, char *const *src, const intptr_t *ss,
                       size_t n) {
        Rows *k = self(p);
        char *s = src[0];
        for (size_t i = 0; i < n; ++i, dst += ds, s += ss[0]) {
            k->calls->fetch_add(1, std::memory_order_relaxed);
            const int rc = ck_parallel_strided(k->inner, dst, k->inner_dst_stride, &s,
                                               &k->inner_src_stride, k->cols, &k->inner_ctx);
            if (rc != CK_OK) return rc;
        }
        return CK_OK;
    }
};

TEST_F(Leakless, NestedCallsFromInsideAKernel) {
    constexpr size_t rows = 96, cols = 5003;
    std::vector<int32_t> in(rows * cols);
    for (size_t i = 0; i < in.size(); ++i) in[i] = par::int_at(i);
    par::Kernel leaf("float64", "int32");
    ASSERT_TRUE(leaf.ok());
    for (int outer_threads : {2, 3})
        for (int inner_threads : {2, 4}) {
            SCOPED_TRACE(std::to_string(outer_threads) + " outer, " + std::to_string(inner_threads) +
                         " inner threads");
            std::atomic<int> calls{0};
            Rows k;
            k.inner = leaf.get();
            k.cols = cols;
            k.inner_dst_stride = 8;
            k.inner_src_stride = 4;
            k.inner_ctx = par::ctx(inner_threads, 256);
            k.calls = &calls;
            std::vector<double> out(rows * cols, -1.0);
            char *src = reinterpret_cast<char *>(in.data());
            const intptr_t ss = 4 * static_cast<intptr_t>(cols);
            ck_eval_ctx c = par::ctx(outer_threads, 8 * cols);  // one row per block
            ASSERT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(out.data()),
                                          8 * static_cast<intptr_t>(cols), &src, &ss, rows, &c),
                      CK_OK) << ck_last_error();
            EXPECT_EQ(calls.load(), static_cast<int>(rows));
            for (size_t i = 0; i < out.size(); ++i)
                ASSERT_EQ(out[i], static_cast<double>(par::int_at(i))) << i;
        }
}

TEST_F(Leakless, ThreeLevelsOfNestingAndAFailureAtTheBottom) {
    // 8 planes x 16 rows x 1009 columns of float64 -> int32 (fractional mode).
    constexpr size_t planes = 8, rows = 16, cols = 1009;
    std::vector<double> in(planes * rows * cols);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<double>(par::int_at(i));
    par::Kernel leaf("int32", "float64");
    ASSERT_TRUE(leaf.ok());
    std::atomic<int> calls{0};
    Rows mid;
    mid.inner = leaf.get();
    mid.cols = cols;
    mid.inner_dst_stride = 4;
    mid.inner_src_stride = 8;
    mid.inner_ctx = par::ctx(2, 64);
    mid.calls = &calls;
    Rows top;
    top.inner = mid.get();
    top.cols = rows;
    top.inner_dst_stride = 4 * static_cast<intptr_t>(cols);
    top.inner_src_stride = 8 * static_cast<intptr_t>(cols);
    top.inner_ctx = par::ctx(2, 1);
    top.calls = &calls;
    char *src = reinterpret_cast<char *>(in.data());
    const intptr_t ss = 8 * static_cast<intptr_t>(rows * cols);
    ck_eval_ctx c = par::ctx(2, 1);

    std::vector<int32_t> out(in.size(), -1);
    ASSERT_EQ(ck_parallel_strided(top.get(), reinterpret_cast<char *>(out.data()),
                                  4 * static_cast<intptr_t>(rows * cols), &src, &ss, planes, &c),
              CK_OK) << ck_last_error();
    for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], par::int_at(i)) << i;

    // One fractional value in plane 5, row 11: its message comes out of three levels.
    const size_t bad = (5 * rows + 11) * cols + 777;
    in[bad] = 2.25;
    par::Kernel ref("int32", "float64");
    int32_t dummy;
    char *bad_src = reinterpret_cast<char *>(&in[bad]);
    const intptr_t zero = 0;
    ASSERT_EQ(ck_call_strided(ref.get(), reinterpret_cast<char *>(&dummy), 0, &bad_src, &zero, 1),
              CK_ERR_FRACTIONAL);
    const std::string want = ck_last_error();
    EXPECT_NE(want.find("2.25"), std::string::npos) << want;
    ck_clear_error();
    EXPECT_EQ(ck_parallel_strided(top.get(), reinterpret_cast<char *>(out.data()),
                                  4 * static_cast<intptr_t>(rows * cols), &src, &ss, planes, &c),
              CK_ERR_FRACTIONAL);
    EXPECT_EQ(std::string(ck_last_error()), want);
}

TEST_F(Leakless, NestedAssignFromInsideAKernel) {
    // Each outer element holds a pair of array handles; the kernel runs ck_parallel_assign.
    struct Pair {
        ck_array *dst, *src;
    };
    struct AssignEach : par::UserKernel<AssignEach> {
        ck_eval_ctx inner;
        static int strided(ck_prefix *p, char *dst, intptr_t ds, char *const *, const intptr_t *,
                           size_t n) {
            for (size_t i = 0; i < n; ++i, dst += ds) {
                Pair pr;
                std::memcpy(&pr, dst, sizeof pr);
                const int rc = ck_parallel_assign(pr.dst, pr.src, &self(p)->inner);
                if (rc != CK_OK) return rc;
            }
            return CK_OK;
        }
    };
    constexpr int jobs = 12;
    std::vector<std::unique_ptr<ckt::Array>> dsts, srcs;
    std::vector<Pair> pairs;
    for (int j = 0; j < jobs; ++j) {
        srcs.push_back(std::make_unique<ckt::Array>("20011 * int32"));
        dsts.push_back(std::make_unique<ckt::Array>("20011 * float64"));
        for (size_t i = 0; i < 20011; ++i)
            reinterpret_cast<int32_t *>(srcs.back()->data())[i] = par::int_at(i + static_cast<size_t>(j));
        pairs.push_back({dsts.back()->get(), srcs.back()->get()});
    }
    AssignEach k;
    k.inner = par::ctx(2, 1024);
    char *none = nullptr;
    const intptr_t zero = 0;
    ck_eval_ctx c = par::ctx(2, 1);
    ASSERT_EQ(ck_parallel_strided(k.get(), reinterpret_cast<char *>(pairs.data()), sizeof(Pair), &none,
                                  &zero, pairs.size(), &c),
              CK_OK) << ck_last_error();
    for (int j = 0; j < jobs; ++j)
        for (size_t i = 0; i < 20011; ++i)
            ASSERT_EQ(reinterpret_cast<double *>(dsts[static_cast<size_t>(j)]->data())[i],
                      static_cast<double>(par::int_at(i + static_cast<size_t>(j))));
}

#if CKT_WITH_TBB
// The user's own tbb::parallel_for hands its body to oneTBB's workers through libtbb, whose
// synchronisation ThreadSanitizer does not see (an uninstrumented library). The body below
// therefore captures nothing (a closure on this thread's stack would be read by a worker
// before any annotation could order it) and reaches its state through a static, ordered by
// the same happens-before annotations the library puts around its own parallel calls.
#  if defined(__SANITIZE_THREAD__)
#    define CKT_TSAN 1
#  elif defined(__has_feature)
#    if __has_feature(thread_sanitizer)
#      define CKT_TSAN 1
#    endif
#  endif
#  ifdef CKT_TSAN
extern "C" void __tsan_acquire(void *addr);
extern "C" void __tsan_release(void *addr);
#  else
inline void __tsan_acquire(void *) {}
inline void __tsan_release(void *) {}
#  endif

struct UserLoopState {
    static constexpr size_t chunks = 16, per = 40009;
    int32_t *in;
    double *out;
    ck_prefix *leaf;
    std::atomic<int> failures;
    std::atomic<size_t> done;
};
UserLoopState user_loop;

TEST_F(Leakless, CalledFromInsideTheUsersOwnTbbLoop) {
    constexpr size_t chunks = UserLoopState::chunks, per = UserLoopState::per;
    std::vector<int32_t> in(chunks * per);
    for (size_t i = 0; i < in.size(); ++i) in[i] = par::int_at(i);
    std::vector<double> out(in.size(), -1.0);
    par::Kernel leaf("float64", "int32");
    ASSERT_TRUE(leaf.ok());
    user_loop.in = in.data();
    user_loop.out = out.data();
    user_loop.leaf = leaf.get();
    user_loop.failures.store(0);
    user_loop.done.store(0);
    __tsan_release(&user_loop);  // this thread's setup -> every task of the loop
    tbb::parallel_for(size_t{0}, chunks, [](size_t ch) {
        __tsan_acquire(&user_loop);
        UserLoopState &st = user_loop;
        char *src = reinterpret_cast<char *>(st.in + ch * UserLoopState::per);
        const intptr_t ss = 4;
        ck_eval_ctx c = par::ctx(2, 4096);
        if (ck_parallel_strided(st.leaf, reinterpret_cast<char *>(st.out + ch * UserLoopState::per), 8,
                                &src, &ss, UserLoopState::per, &c) != CK_OK)
            st.failures.fetch_add(1);
        st.done.fetch_add(1, std::memory_order_release);
        __tsan_release(&user_loop);  // every task -> this thread after the loop
    });
    __tsan_acquire(&user_loop);
    EXPECT_EQ(user_loop.done.load(std::memory_order_acquire), chunks);
    EXPECT_EQ(user_loop.failures.load(), 0);
    for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], static_cast<double>(par::int_at(i))) << i;
}
#endif

}  // namespace
