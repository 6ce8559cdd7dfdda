// tests/types/api/tt.hpp: small helpers for the types API tests (public headers only).
#ifndef CK_TEST_TYPES_TT_HPP
#define CK_TEST_TYPES_TT_HPP

#include <gtest/gtest.h>

#include <string>

#include "ckt.hpp"

namespace tt {

// The layouts' sizes, from the public structs (the comments give them at 64 bits; a 32-bit
// host has half of each).
constexpr size_t kFixedAm = sizeof(ck_fixed_dim_arrmeta);  // 16: size, stride
constexpr size_t kVarAm = sizeof(ck_var_dim_arrmeta);      // 24: blockref, stride, offset
constexpr size_t kPointerAm = sizeof(ck_pointer_arrmeta);  // 16: blockref, offset
constexpr size_t kVarData = sizeof(ck_var_data);           // 16: begin, size
constexpr size_t kFieldOffset = sizeof(uintptr_t);         // 8: one field's data offset
static_assert(!ckt::lp64 || (kFixedAm == 16 && kVarAm == 24 && kPointerAm == 16 &&
                             kVarData == 16 && kFieldOffset == 8),
              "the 64-bit layout the comments give");

// Every test ends with no ckernel allocation live: types, arrays and blocks all released.
class TypesLeakless : public ::testing::Test {
protected:
    void TearDown() override { EXPECT_EQ(ckt::live_allocations(), 0) << "a test leaked"; }
};

// Owning handles, so a failing assertion does not leak into the next test's leak check.
struct Type {
    ck_type *t = nullptr;
    Type() = default;
    explicit Type(const char *s) { EXPECT_EQ(ck_type_parse(s, &t), CK_OK) << s << ": " << ck_last_error(); }
    Type(const Type &) = delete;
    Type &operator=(const Type &) = delete;
    ~Type() { ck_type_decref(t); }
    operator const ck_type *() const { return t; }
};

struct Array {
    ck_array *a = nullptr;
    Array() = default;
    Array(const Array &) = delete;
    Array &operator=(const Array &) = delete;
    ~Array() { ck_array_free(a); }
};

inline std::string format(const ck_type *t) {
    char *s = nullptr;
    EXPECT_EQ(ck_type_format(t, &s), CK_OK) << ck_last_error();
    std::string r = s != nullptr ? s : "<null>";
    ck_free(s);
    return r;
}

inline std::string format(const ck_array *a) {
    char *s = nullptr;
    EXPECT_EQ(ck_array_format(a, &s), CK_OK) << ck_last_error();
    std::string r = s != nullptr ? s : "<null>";
    ck_free(s);
    return r;
}

inline bool contains(const std::string &haystack, const std::string &needle) {
    return haystack.find(needle) != std::string::npos;
}

} // namespace tt

#endif
