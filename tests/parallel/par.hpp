// tests/parallel/par.hpp: helpers for the parallel-evaluation suite: contexts, a leak-checking
// fixture, user kernels (recording, failing, blocking), and builders for the benchmark's
// array shapes (issue 7) with element-wise fill formulas. Expected values are always computed
// here from the formulas, never by the code under test.
#ifndef CK_TEST_PARALLEL_PAR_HPP
#define CK_TEST_PARALLEL_PAR_HPP

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "ckt.hpp"
#include "ckt_array.hpp"
#include "ckernel/parallel.h"

namespace par {

// Every test ends with no ckernel allocation live.
class Leakless : public ::testing::Test {
  protected:
    void TearDown() override {
        EXPECT_EQ(ckt::live_allocations(), 0) << "a test leaked";
        ck_set_num_threads(0);
    }
};

inline ck_eval_ctx ctx(int threads, size_t grain_bytes = 0,
                       ck_errmode mode = CK_ERRMODE_FRACTIONAL, unsigned flags = 0) {
    ck_eval_ctx c = CK_EVAL_CTX_INIT;
    c.errmode = mode;
    c.flags = flags;
    c.max_threads = threads;
    c.grain_bytes = grain_bytes;
    return c;
}

inline bool tbb_backend() {
    return std::strncmp(ck_parallel_backend(), "oneTBB ", 7) == 0;
}

// A strided kernel built by ck_make_assign for two scalar types (no arrmeta) or for element
// types with arrmeta; destroyed with the handle.
class Kernel {
  public:
    Kernel(const char *dst_type, const char *dst_arrmeta, const char *src_type,
           const char *src_arrmeta, const ck_eval_ctx *ectx)
        : dt_(dst_type), st_(src_type) {
        ck_builder_init(&b_);
        size_t off = 0;
        rc_ = ck_make_assign(&b_, &off, dt_.get(), dst_arrmeta, st_.get(), src_arrmeta,
                             CK_REQUEST_STRIDED, ectx);
        EXPECT_EQ(rc_, CK_OK) << dst_type << " <- " << src_type << ": " << ck_last_error();
    }
    // Scalar element types (no arrmeta).
    Kernel(const char *dst_type, const char *src_type, const ck_eval_ctx *ectx = nullptr)
        : Kernel(dst_type, nullptr, src_type, nullptr, ectx) {}
    ~Kernel() { ck_builder_destroy(&b_); }
    Kernel(const Kernel &) = delete;
    Kernel &operator=(const Kernel &) = delete;
    ck_prefix *get() { return ck_builder_root(&b_); }
    bool ok() const { return rc_ == CK_OK; }

  private:
    ckt::Type dt_, st_;
    ck_builder b_;
    int rc_ = CK_ERR_INTERNAL;
};

// A user kernel: its struct starts with a ck_prefix; the strided function gets `self`.
template <class Derived>
struct UserKernel {
    ck_prefix base;
    UserKernel() {
        base.function = nullptr;
        base.destructor = nullptr;
        ck_prefix_set_strided(&base, &Derived::strided);
    }
    ck_prefix *get() { return &base; }
    static Derived *self(ck_prefix *p) { return reinterpret_cast<Derived *>(p); }
};

// Element formulas (exact in every type they are used with).
inline int32_t int_at(size_t i) { return static_cast<int32_t>((i * 7919u) % 200003u) - 100001; }
inline double half_step_at(size_t i) { return (static_cast<double>(i % 2001u) - 1000.0) * 0.125; }

// Bits of an IEEE binary16 for a double that is exactly a normal binary16 or zero (an
// independent oracle for float32 -> float16 on such values).
inline uint16_t f16_bits_exact(double v) {
    if (v == 0) return std::signbit(v) ? 0x8000u : 0u;
    const uint16_t sign = v < 0 ? 0x8000u : 0u;
    int e = 0;
    const double m = std::frexp(std::fabs(v), &e);  // v = m * 2^e, m in [0.5, 1)
    const double frac = (m * 2.0 - 1.0) * 1024.0;
    EXPECT_EQ(frac, std::floor(frac)) << v << " is not exact in float16";
    EXPECT_TRUE(e - 1 >= -14 && e - 1 <= 15) << v << " is not a normal float16";
    return static_cast<uint16_t>(sign | static_cast<uint16_t>((e - 1 + 15) << 10) |
                                 static_cast<uint16_t>(frac));
}

// ---- ragged arrays: `rows * var * T` with rows filled through the array's own arena ----

// Row lengths 0..200 from a seeded generator (the benchmark's var workload, smaller).
inline std::vector<size_t> row_lengths(size_t rows, uint32_t seed, size_t max_len = 200) {
    std::vector<size_t> out(rows);
    uint64_t x = seed * 2654435761u + 1;
    for (auto &n : out) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        n = static_cast<size_t>((x >> 33) % (max_len + 1));
    }
    return out;
}

// Allocates every row of a `rows * var * T` array (T of `elem_size` bytes) with the given
// lengths, zero-filled, from the var level's memory block (an arena).
inline void allocate_rows(const ckt::Array &a, const std::vector<size_t> &lengths,
                          size_t elem_size) {
    char *am = ck_array_arrmeta(a.get());
    const auto *fm = reinterpret_cast<const ck_fixed_dim_arrmeta *>(am);
    const auto *vm = reinterpret_cast<const ck_var_dim_arrmeta *>(am + sizeof(ck_fixed_dim_arrmeta));
    ASSERT_EQ(static_cast<size_t>(fm->dim_size), lengths.size());
    ASSERT_EQ(static_cast<size_t>(vm->stride), elem_size);
    for (size_t r = 0; r < lengths.size(); ++r) {
        char *p = nullptr;
        ASSERT_EQ(ck_arena_alloc(vm->blockref, lengths[r] * elem_size, elem_size, &p), CK_OK)
            << ck_last_error();
        ck_var_data v{p, lengths[r]};
        std::memcpy(ck_array_data(a.get()) + static_cast<intptr_t>(r) * fm->stride, &v, sizeof v);
    }
}

// Element j of row r of a `rows * var * T` array.
template <class T>
inline T *var_elem(const ckt::Array &a, size_t r, size_t j) {
    char *am = ck_array_arrmeta(a.get());
    const auto *fm = reinterpret_cast<const ck_fixed_dim_arrmeta *>(am);
    const auto *vm = reinterpret_cast<const ck_var_dim_arrmeta *>(am + sizeof(ck_fixed_dim_arrmeta));
    ck_var_data v;
    std::memcpy(&v, ck_array_data(a.get()) + static_cast<intptr_t>(r) * fm->stride, sizeof v);
    return reinterpret_cast<T *>(v.begin + vm->offset + static_cast<intptr_t>(j) * vm->stride);
}

template <class T>
inline size_t var_len(const ckt::Array &a, size_t r) {
    const auto *fm = reinterpret_cast<const ck_fixed_dim_arrmeta *>(ck_array_arrmeta(a.get()));
    ck_var_data v;
    std::memcpy(&v, ck_array_data(a.get()) + static_cast<intptr_t>(r) * fm->stride, sizeof v);
    return v.begin == nullptr ? SIZE_MAX : v.size;
}

inline float var_value(size_t r, size_t j) {
    return static_cast<float>(static_cast<double>(r % 4096u) * 0.5 + static_cast<double>(j) * 0.25);
}

// Byte-wise equality of two arrays' fixed-size data.
inline bool same_bytes(const ckt::Array &a, const ckt::Array &b) {
    const size_t n = ck_type_data_size(ck_array_type(a.get()));
    return n == ck_type_data_size(ck_array_type(b.get())) &&
           std::memcmp(a.data(), b.data(), n) == 0;
}

}  // namespace par

#endif
