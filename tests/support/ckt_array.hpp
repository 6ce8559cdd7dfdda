// tests/support/ckt_array.hpp: RAII handles for types and arrays, and assignment helpers,
// for suites that use the public types/array API.
#ifndef CK_TEST_CKT_ARRAY_HPP
#define CK_TEST_CKT_ARRAY_HPP

#include <gtest/gtest.h>

#include <string>

#include "ckernel/alloc.h"
#include "ckernel/array.h"
#include "ckernel/assign.h"
#include "ckernel/types.h"

namespace ckt {

class Type {
  public:
    explicit Type(const char *ds) {
        EXPECT_EQ(ck_type_parse(ds, &t_), CK_OK) << ds << ": " << ck_last_error();
    }
    ~Type() { ck_type_decref(t_); }
    Type(const Type &) = delete;
    Type &operator=(const Type &) = delete;
    const ck_type *get() const { return t_; }

  private:
    ck_type *t_ = nullptr;
};

class Array {
  public:
    Array() = default;
    // A new (zeroed, var dims unallocated) array of the type.
    explicit Array(const char *type) {
        Type t(type);
        EXPECT_EQ(ck_array_new(t.get(), &a_), CK_OK) << type << ": " << ck_last_error();
    }
    // An array holding the literal.
    Array(const char *type, const char *literal) {
        Type t(type);
        EXPECT_EQ(ck_array_parse(t.get(), literal, &a_), CK_OK)
            << type << " " << literal << ": " << ck_last_error();
    }
    ~Array() { ck_array_free(a_); }
    Array(const Array &) = delete;
    Array &operator=(const Array &) = delete;
    ck_array *get() const { return a_; }
    char *data() const { return ck_array_data(a_); }
    std::string str() const {
        char *s = nullptr;
        if (ck_array_format(a_, &s) != CK_OK) return std::string("<format failed: ") + ck_last_error() + ">";
        std::string r = s;
        ck_free(s);
        return r;
    }

  private:
    ck_array *a_ = nullptr;
};

inline ck_eval_ctx ctx(ck_errmode mode, unsigned flags = 0) {
    ck_eval_ctx c = CK_EVAL_CTX_INIT;
    c.errmode = mode;
    c.flags = flags;
    return c;
}

}  // namespace ckt

#endif
