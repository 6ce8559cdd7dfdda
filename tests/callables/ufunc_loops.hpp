// tests/callables/ufunc_loops.hpp: what the tests of NumPy's functions' leaves share
// (ufunc_leaves_test.cpp, ufunc_digest_test.cpp): every LEAF, CHECKED and VMATH loop of
// leaves/math/ufunc_list.h with its types, deterministic inputs (each type's special values,
// then random bits), and a loop's leaf function built under the current target cap.
#ifndef CKT_UFUNC_LOOPS_HPP
#define CKT_UFUNC_LOOPS_HPP

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "scalar_oracle.h"
extern "C" {
#include "common/scalars.h"
#include "leaves/math/ufunc_list.h"
}

namespace ckt_ufunc {

enum { ck__id_none = -1 };

struct Loop {
    ck__ufunc_loop id;
    const char *text;
    int nin;
    int in[2];
    int out;
    bool checked;  // negative second operands are refused: the test gives none
    int out2;      // a PAIR loop's second result (the leaf writes a C struct of both), else -1
};
#define KT_ID(T) KT_ID_(T)
#define KT_ID_(T) ck__id_##T
#define KT_LOOP_ROW(name, NIN, a, b, r, checked, r2)                                               \
  {CK__UFLOOP_##name##__##a##_##b##__##r,                                                          \
   #name "(" #a ", " #b ") -> " #r,                                                                \
   NIN,                                                                                            \
   {ck__id_##a, ck__id_##b},                                                                       \
   ck__id_##r,                                                                                     \
   checked,                                                                                        \
   r2},
#define KT_LOOP_LEAF(name, NIN, a, b, r) KT_LOOP_ROW(name, NIN, a, b, r, false, -1)
#define KT_LOOP_VMATH(name, NIN, a, b, r) KT_LOOP_ROW(name, NIN, a, b, r, false, -1)
#define KT_LOOP_CHECKED(name, NIN, a, b, r) KT_LOOP_ROW(name, NIN, a, b, r, true, -1)
#define KT_LOOP_PAIR(name, NIN, a, b, r)                                                           \
  KT_LOOP_ROW(name, NIN, a, b, r, false, KT_ID(CK__UF_SECOND_##name(a)))
#define KT_LOOP_ARITH(...)
#define KT_LOOP_REFUSE(...)
#define KT_LOOP(name, I, NIN, a, b, r) KT_LOOP_##I(name, NIN, a, b, r)
#define KT_LOOPS(name, ...) CK__UFL_##name(KT_LOOP)
inline const Loop kLoops[] = {CK__UFUNC_LIST(KT_LOOPS)};

inline size_t size_of(int id) {
    const ck__scalar_facts *f = ck__scalar_info(static_cast<ck_type_id>(id));
    return size_t{f->part_size} * f->parts;
}

// xorshift64*: the same bits in every run.
struct Bits {
    uint64_t s = 0x9E3779B97F4A7C15ull;
    uint64_t next() {
        s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
};

// The fields of a loop's result element: its one scalar at offset 0, or a PAIR loop's two at
// their C struct offsets; and the element's size (the struct's, padding included).
struct Field {
    int id;
    size_t offset;
};
inline std::vector<Field> result_fields(const Loop &l) {
    if (l.out2 < 0) return {{l.out, 0}};
    const size_t a2 = ck__scalar_info(static_cast<ck_type_id>(l.out2))->part_size;
    return {{l.out, 0}, {l.out2, (size_of(l.out) + a2 - 1) / a2 * a2}};
}
inline size_t result_size(const Loop &l) {
    if (l.out2 < 0) return size_of(l.out);
    const size_t a = std::max<size_t>(ck__scalar_info(static_cast<ck_type_id>(l.out))->part_size,
                                      ck__scalar_info(static_cast<ck_type_id>(l.out2))->part_size);
    const size_t end = result_fields(l)[1].offset + size_of(l.out2);
    return (end + a - 1) / a * a;
}

// n elements of type id: its special values first (as bits), then random bits.
inline std::vector<unsigned char> values(int id, size_t n, Bits &r) {
    const size_t es = size_of(id);
    std::vector<unsigned char> v(n * es);
    std::vector<uint64_t> special;
    const int k = ck__scalar_info(static_cast<ck_type_id>(id))->kind;
    const size_t part = k == CK__SCALAR_KIND_COMPLEX ? es / 2 : es;
    if (k == CK__SCALAR_KIND_FLOAT || k == CK__SCALAR_KIND_COMPLEX) {
        // 0, -0, 1, -1, inf, -inf, quiet NaN, -NaN, the smallest subnormal, the largest value
        const int m = part == 2 ? (id == CK_TYPE_BFLOAT16 ? 7 : 10) : part == 4 ? 23 : 52;
        const int w = static_cast<int>(part) * 8;
        const uint64_t sign = uint64_t{1} << (w - 1), expo = (sign - 1) & ~((uint64_t{1} << m) - 1);
        const uint64_t one = (expo >> 1) & expo;
        special = {0,
                   sign,
                   one,
                   one | sign,
                   expo,
                   expo | sign,
                   expo | (uint64_t{1} << (m - 1)),
                   expo | sign | (uint64_t{1} << (m - 1)),
                   1,
                   expo - 1,
                   (expo - 1) | sign};
    } else {
        special = {0, 1, 2, ~uint64_t{0}, uint64_t{1} << (part * 8 - 1), 7, 64};
    }
    // The first elements special (a complex's parts two of them), the rest random bits.
    const size_t ns = special.size();
    for (size_t i = 0; i < n; i++) {
        for (size_t p = 0; p < es; p += part) {
            const uint64_t x = i < ns ? special[(i + (p / part) * (i / 2 + 1)) % ns] : r.next();
            ckt_put_low_bytes(&v[i * es + p], x, part);
        }
    }
    return v;
}

// The bytes of a value, most significant first.
inline std::string hex(const void *p, size_t n) {
    std::string s;
    static const char digits[] = "0123456789abcdef";
    for (size_t i = n; i-- > 0;) {
        const unsigned char c = static_cast<const unsigned char *>(p)[i];
        s += digits[c >> 4];
        s += digits[c & 15];
    }
    return s;
}

inline void *leaf_fn(ck__ufunc_loop loop, ck_request req) {
    ck_builder b;
    ck_builder_init(&b);
    size_t offset = 0;
    void *fn = nullptr;
    const int rc = ck__make_ufunc_leaf(&b, &offset, loop, req);
    EXPECT_EQ(rc, CK_OK) << ck_last_error();
    if (rc == CK_OK) {
        EXPECT_EQ(offset, sizeof(ck_prefix));
        fn = ck_builder_root(&b)->function;
    }
    ck_builder_destroy(&b);
    return fn;
}


// A complex loop of a function whose complex form is the host libm's (C99's cexp, csqrt,
// clog, csin, ...), as NumPy's are.
inline bool uses_host_libm(const Loop &l) {
    static const char *const kLibm[] = {
        "absolute", "sqrt",    "exp",    "exp2",   "expm1",   "log",     "log2",    "log10",
        "log1p",    "sin",     "cos",    "tan",    "arcsin",  "arccos",  "arctan",  "sinh",
        "cosh",     "tanh",    "arcsinh", "arccosh", "arctanh", "power", "float_power"};
    if (ck__scalar_info(static_cast<ck_type_id>(l.in[0]))->kind != CK__SCALAR_KIND_COMPLEX) {
        return false;
    }
    const std::string name(l.text, std::strchr(l.text, '(') - l.text);
    for (const char *f : kLibm) {
        if (name == f) return true;
    }
    return false;
}

// Whether this host's libm runs its complex functions: probed once in a child process,
// since glibc's cexp dies with SIGILL under qemu's POWER8 model.
inline bool host_complex_libm_runs() {
    static const bool runs = [] {
        const pid_t pid = fork();
        if (pid == 0) {
            volatile double re = 0.5, im = 1.0;
            const std::complex<double> z = std::exp(std::complex<double>(re, im));  // cexp
            _exit(z.real() > 0.89 && z.real() < 0.9 ? 0 : 1);
        }
        int status = 0;
        return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
               WEXITSTATUS(status) == 0;
    }();
    return runs;
}

}  // namespace ckt_ufunc

#endif
