// tests/callables/reduce_support.hpp: what the reduction and accumulation suites share: run a
// reduction (or accumulation) of a literal and take its result's literal and type, describe
// the kernel for C-order data, and fail every allocation of a whole reduction.
#ifndef CK_TEST_REDUCE_SUPPORT_HPP
#define CK_TEST_REDUCE_SUPPORT_HPP

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "ckt_array.hpp"

namespace rs {

enum class Kind { reduce, accumulate };

struct Outcome {
    int rc;
    std::string value, type, message;
};

// The spec of `axes`: {99} means every axis (NULL), an empty list no axis (a non-NULL
// pointer with naxes 0).
inline ck_reduce_spec spec(ck_callable *c, const std::vector<int> &axes, unsigned flags) {
    static const int none = 0;
    const bool all = axes.size() == 1 && axes[0] == 99;
    ck_reduce_spec r = {c, all ? nullptr : axes.empty() ? &none : axes.data(),
                        all ? 0 : static_cast<int>(axes.size()), flags};
    return r;
}

// The outcome of an operation that returned o->rc into `out` (freed here): the result's
// literal and type, or the message.
inline void finish(Outcome *o, ck_array *out) {
    if (o->rc == CK_OK) {
        char *s = nullptr, *t = nullptr;
        EXPECT_EQ(ck_array_format(out, &s), CK_OK);
        EXPECT_EQ(ck_type_format(ck_array_type(out), &t), CK_OK);
        o->value = s;
        o->type = t;
        ck_free(s);
        ck_free(t);
    } else {
        o->message = ck_last_error();
    }
    ck_array_free(out);
}

inline ck_callable *lookup(Kind k, const char *name) {
    ck_callable *c = nullptr;
    EXPECT_EQ(k == Kind::accumulate ? ck_accumulation_lookup(name, &c) : ck_reduction_lookup(name, &c),
              CK_OK)
        << name << ": " << ck_last_error();
    return c;
}

// name over `axes` of the literal: into a new array, or into a new array of dst_type.
inline Outcome run(Kind k, const char *name, const char *type, const char *literal,
                   const std::vector<int> &axes, unsigned flags = 0,
                   const char *dst_type = nullptr, const ck_eval_ctx *ctx = nullptr) {
    ck_callable *c = lookup(k, name);
    ckt::Array a(type, literal);
    const ck_reduce_spec r = spec(c, axes, flags);
    ck_array *out = nullptr;
    Outcome o;
    if (dst_type != nullptr) {
        ckt::Type dt(dst_type);
        o.rc = ck_array_new(dt.get(), &out);
        if (o.rc == CK_OK) {
            o.rc = k == Kind::accumulate ? ck_accumulate(&r, out, a.get(), ctx)
                                         : ck_reduce(&r, out, a.get(), ctx);
        }
    } else {
        o.rc = k == Kind::accumulate ? ck_accumulate_new(&r, a.get(), ctx, &out)
                                     : ck_reduce_new(&r, a.get(), ctx, &out);
    }
    finish(&o, out);
    ck_callable_decref(c);
    return o;
}

// The kernel's tree for C-order data of `src` (var rows in an arena) into `dst` (the result
// type when NULL), or "error: ..." when it does not build.
inline std::string tree(Kind k, const char *name, const char *src, const std::vector<int> &axes,
                        unsigned flags = 0, const char *dst = nullptr) {
    ck_callable *c = lookup(k, name);
    ckt::Type st(src);
    const ck_reduce_spec r = spec(c, axes, flags);
    ck_type *dt = nullptr;
    if (dst != nullptr) {
        EXPECT_EQ(ck_type_parse(dst, &dt), CK_OK);
    } else {
        EXPECT_EQ(k == Kind::accumulate ? ck_accumulate_result_type(&r, st.get(), nullptr, &dt)
                                        : ck_reduce_result_type(&r, st.get(), nullptr, &dt),
                  CK_OK)
            << ck_last_error();
    }
    ck_memblock *arena = nullptr;
    EXPECT_EQ(ck_arena_new(0, &arena), CK_OK);
    std::vector<char> sam(ck_type_arrmeta_size(st.get()) + 8), dam(ck_type_arrmeta_size(dt) + 8);
    EXPECT_EQ(ck_arrmeta_default_construct(st.get(), sam.data(), arena), CK_OK);
    EXPECT_EQ(ck_arrmeta_default_construct(dt, dam.data(), arena), CK_OK);
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    std::string out;
    const int rc = k == Kind::accumulate
                       ? ck_make_accumulate(&b, &off, &r, dt, dam.data(), st.get(), sam.data(),
                                            CK_REQUEST_SINGLE, nullptr)
                       : ck_make_reduce(&b, &off, &r, dt, dam.data(), st.get(), sam.data(),
                                        CK_REQUEST_SINGLE, nullptr);
    if (rc == CK_OK) {
        char *s = nullptr;
        EXPECT_EQ(ck_kernel_describe(ck_builder_root(&b), &s), CK_OK);
        out = s != nullptr ? s : "";
        ck_free(s);
    } else {
        out = std::string("error: ") + ck_last_error();
    }
    ck_builder_destroy(&b);
    ck_arrmeta_release(st.get(), sam.data());
    ck_arrmeta_release(dt, dam.data());
    ck_type_decref(dt);
    ck_memblock_decref(arena);
    ck_callable_decref(c);
    return out;
}

// Every allocation of a whole reduction of a literal (parse, build, run, format) made to fail
// in turn (ckt::for_each_alloc_failure); the number of points.
inline int64_t alloc_failure_points(Kind k, const char *name, const char *type, const char *literal,
                                    const std::vector<int> &axes, unsigned flags = 0) {
    return ckt::for_each_alloc_failure([&]() {
        ck_callable *f = lookup(k, name);
        ck_type *t = nullptr;
        ck_array *a = nullptr, *out = nullptr;
        int rc = ck_type_parse(type, &t);
        if (rc == CK_OK) rc = ck_array_parse(t, literal, &a);
        const ck_reduce_spec r = spec(f, axes, flags);
        if (rc == CK_OK) {
            rc = k == Kind::accumulate ? ck_accumulate_new(&r, a, nullptr, &out)
                                       : ck_reduce_new(&r, a, nullptr, &out);
        }
        char *s = nullptr;
        if (rc == CK_OK) rc = ck_array_format(out, &s);
        ck_free(s);
        ck_array_free(out);
        ck_array_free(a);
        ck_type_decref(t);
        ck_callable_decref(f);
        return rc;
    });
}

// A user's leaf for tests of callables the library does not know: the greatest common divisor
// of two int64 (signature "qq)q"), one element at a time through its own strided function.
inline int64_t gcd64(int64_t a, int64_t b) {
    uint64_t x = a < 0 ? 0u - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
    uint64_t y = b < 0 ? 0u - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
    while (y != 0) {
        const uint64_t t = x % y;
        x = y;
        y = t;
    }
    return static_cast<int64_t>(x);
}
inline int gcd_strided(ck_prefix *, char *dst, intptr_t ds, char *const *src, const intptr_t *ss,
                       size_t n) {
    const char *a = src[0], *b = src[1];
    for (size_t i = 0; i < n; i++, dst += ds, a += ss[0], b += ss[1]) {
        int64_t x, y;
        std::memcpy(&x, a, 8);
        std::memcpy(&y, b, 8);
        const int64_t r = gcd64(x, y);
        std::memcpy(dst, &r, 8);
    }
    return CK_OK;
}
inline int gcd_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero[2] = {0, 0};
    return gcd_strided(self, dst, 0, src, zero, 1);
}
inline int gcd_instantiate(void *, ck_builder *ckb, size_t *offset, const ck_leaf_info *info) {
    const int rc = ck_builder_reserve_leaf(ckb, *offset + sizeof(ck_prefix));
    if (rc != CK_OK) return rc;
    ck_prefix_set_function(static_cast<ck_prefix *>(static_cast<void *>(ck_builder_at(ckb, *offset))),
                           info->req, gcd_single, gcd_strided);
    *offset += sizeof(ck_prefix);
    return CK_OK;
}
inline ck_factory gcd_factory() {
    ck_factory f = {gcd_instantiate, nullptr, nullptr, nullptr};
    return f;
}

}  // namespace rs

#endif
