// tests/text/text_support.hpp: helpers of the text suites: an assignment from a literal into
// a new array, its printed result or its failure.
#ifndef CK_TEST_TEXT_SUPPORT_HPP
#define CK_TEST_TEXT_SUPPORT_HPP

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "ckt_array.hpp"

namespace txt {

// Every test ends with nothing of ckernel's allocated.
class Leakless : public ::testing::Test {
  protected:
    void TearDown() override { EXPECT_EQ(ckt::live_allocations(), 0) << "a test leaked"; }
};

struct Outcome {
    int status = CK_OK;
    std::string text;  // the destination's literal, or the error message
};

// Parses `literal` as `src`, assigns it into a new `dst` in `mode`, prints the result.
inline Outcome assign(const char *dst, const char *src, const char *literal,
                      ck_errmode mode = CK_ERRMODE_DEFAULT) {
    Outcome o;
    ck_type *dt = nullptr, *st = nullptr;
    ck_array *s = nullptr, *d = nullptr;
    char *out = nullptr;
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = mode;
    int rc = ck_type_parse(dst, &dt);
    if (rc == CK_OK) rc = ck_type_parse(src, &st);
    if (rc == CK_OK) rc = ck_array_parse(st, literal, &s);
    if (rc == CK_OK) rc = ck_array_new(dt, &d);
    if (rc == CK_OK) rc = ck_assign(d, s, &ctx);
    if (rc == CK_OK) rc = ck_array_format(d, &out);
    o.status = rc;
    o.text = rc == CK_OK ? std::string(out) : std::string(ck_last_error());
    ck_free(out);
    ck_array_free(s);
    ck_array_free(d);
    ck_type_decref(dt);
    ck_type_decref(st);
    return o;
}

// The bytes of an array's data (its whole data size).
inline std::vector<unsigned char> data_bytes(const ck_array *a) {
    const size_t n = ck_type_data_size(ck_array_type(a));
    const unsigned char *p = reinterpret_cast<const unsigned char *>(ck_array_data(a));
    return std::vector<unsigned char>(p, p + n);
}

// Code units written little-endian (as the cases spell them), in the host's byte order: each
// unit of `unit` bytes reversed on a big-endian host (s390x), where fixed strings hold their
// UTF-16 and UTF-32 units in native order, as NumPy's U arrays do.
inline std::vector<unsigned char> native_units(std::vector<unsigned char> le, size_t unit) {
    if (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ && unit > 1) {
        for (size_t i = 0; i + unit <= le.size(); i += unit) {
            for (size_t k = 0; k < unit / 2; k++) {
                std::swap(le[i + k], le[i + unit - 1 - k]);
            }
        }
    }
    return le;
}

// The bytes of the string (or bytes) element i of a 1-d array.
inline std::string string_at(const ck_array *a, size_t i) {
    ck_string_data v;
    std::memcpy(&v, ck_array_data(a) + i * sizeof v, sizeof v);
    return v.data == nullptr ? std::string() : std::string(v.data, v.size);
}

inline bool contains(const std::string &s, const std::string &part) {
    return s.find(part) != std::string::npos;
}

// One assignment case of a table: dst <- src's literal in mode, giving status and, when it
// succeeds, the printed result `expect` (else a part of the message).
struct Case {
    const char *dst, *src, *literal;
    ck_errmode mode;
    int status;
    const char *expect;
};

inline void check(const Case &c) {
    const Outcome o = assign(c.dst, c.src, c.literal, c.mode);
    EXPECT_EQ(o.status, c.status) << c.dst << " <- " << c.src << " " << c.literal << " in mode "
                                  << ck_errmode_name(c.mode) << ": " << o.text;
    if (c.status == CK_OK) {
        EXPECT_EQ(o.text, c.expect) << c.dst << " <- " << c.src << " " << c.literal;
    } else {
        EXPECT_TRUE(contains(o.text, c.expect))
            << c.dst << " <- " << c.src << " " << c.literal << ": " << o.text;
    }
}

// Calls `name` on the literal arguments; prints the result (into a new `out` array when
// given, else ck_call_new's; `with_type`: after its type) or returns the failure.
struct Arg {
    const char *type, *literal;
};

inline Outcome call(const char *name, std::vector<Arg> args, const char *out = nullptr,
                    ck_errmode mode = CK_ERRMODE_DEFAULT, bool with_type = false) {
    Outcome o;
    ck_callable *c = nullptr;
    std::vector<ck_type *> types;
    std::vector<ck_array *> arrays;
    ck_type *dt = nullptr;
    ck_array *dst = nullptr;
    char *text = nullptr;
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = mode;
    int rc = ck_lookup(name, &c);
    for (const Arg &a : args) {
        ck_type *t = nullptr;
        ck_array *arr = nullptr;
        if (rc == CK_OK) rc = ck_type_parse(a.type, &t);
        if (rc == CK_OK) rc = ck_array_parse(t, a.literal, &arr);
        types.push_back(t);
        arrays.push_back(arr);
    }
    const int n = static_cast<int>(arrays.size());
    if (rc == CK_OK && out != nullptr) {
        rc = ck_type_parse(out, &dt);
        if (rc == CK_OK) rc = ck_array_new(dt, &dst);
        if (rc == CK_OK) rc = ck_call(c, dst, n, arrays.data(), &ctx);
    } else if (rc == CK_OK) {
        rc = ck_call_new(c, n, arrays.data(), &ctx, &dst);
    }
    char *tt = nullptr;
    if (rc == CK_OK) rc = ck_array_format(dst, &text);
    if (rc == CK_OK) rc = ck_type_format(ck_array_type(dst), &tt);
    o.status = rc;
    o.text = rc != CK_OK ? std::string(ck_last_error())
                         : with_type ? std::string(tt) + " " + text : std::string(text);
    ck_free(tt);
    ck_free(text);
    ck_array_free(dst);
    ck_type_decref(dt);
    for (ck_array *a : arrays) ck_array_free(a);
    for (ck_type *t : types) ck_type_decref(t);
    ck_callable_decref(c);
    return o;
}

}  // namespace txt

#endif
