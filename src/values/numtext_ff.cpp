// src/values/numtext_ff.cpp: float32 and float64 decimals read through fast_float (Debian's
// libfast-float-dev, header-only, compiled in here), correctly rounded to nearest even. An
// extern "C" shim like numtext_dc.cpp: plain C types in and out, and no exception ever
// leaves this file. numtext.c decides what comes here: strtod's decimals only.
//
// Text goes to fast_float::from_chars. The literal parser's numbers come already split
// (ck__decimal_parts): those of at most 19 significant digits skip from_chars's second scan
// of the text and go straight to the Eisel-Lemire product from_chars itself uses for them
// (fast_float::compute_float, one 64 x 128-bit product with its table of powers of five),
// the digits gathered eight at a time by its parse_eight_digits_unrolled: from_chars on
// the literal's text took 310 instructions a value against 185, and text/parse/float64 7%
// longer (docs/design.md §6). These are not the API fast_float documents but the functions
// from_chars is made of; a fast_float that renamed them would fail to compile here, not
// read differently.
//
// Neither needs a guard of the floating-point environment, unlike double-conversion
// (numtext_dc.cpp): compute_float is integer arithmetic, and from_chars takes Clinger's
// path (an integer below 2^53, or 2^24, times or over an exact power of ten up to 10^22, or
// 10^10: one IEEE operation on exact operands, with a normal result) only after checking
// that the FPU rounds to nearest, and is otherwise integer arithmetic too. So neither a
// directed rounding mode nor flush-to-zero or denormals-are-zero reach the result
// (tests/types/unit/numtext_test.cpp reads under each).
#include <fast_float/fast_float.h>

#include <cstddef>
#include <cstdint>
#include <system_error>

#include "values/numtext_ff.h"

namespace {

bool digit_or_point(char c) {
    return (c >= '0' && c <= '9') || c == '.';
}

// from_chars reads C++'s grammar, which is strtod's for decimals but for a leading '+' (and
// reads inf and nan its own way: never given here). So a '+' is stepped over, and the digits
// or the point must follow the sign: "+-1", "-+1" and "- 1" are no number here.
template <typename T> int read_text(const char *s, std::size_t len, T *out) noexcept {
    try {
        const char *const last = s + len;
        const char *body = s;
        if (body != last && (*body == '+' || *body == '-')) {
            body++;
        }
        if (body == last || !digit_or_point(*body)) {
            return 0;
        }
        T v;
        // fast_float 3.9.0 reports no range error (1e999 is infinity, 1e-999 zero, as strtod
        // gives them); a version that did would leave v unset, and the caller reads the text.
        const fast_float::from_chars_result r = fast_float::from_chars(
            *s == '+' ? body : s, last, v, fast_float::chars_format::general);
        if (r.ec != std::errc() || r.ptr != last) {
            return 0;
        }
        *out = v;
        return 1;
    } catch (...) {
        return 0;
    }
}

std::uint64_t append_digits(std::uint64_t w, const char *p, std::size_t n) {
    for (; n >= 8; p += 8, n -= 8) {
        w = w * 100000000 + fast_float::parse_eight_digits_unrolled(p);
    }
    for (; n > 0; p++, n--) {
        w = w * 10 + static_cast<std::uint64_t>(*p - '0');
    }
    return w;
}

template <typename T>
int read_digits(const char *a, std::size_t na, const char *b, std::size_t nb, std::int64_t q,
                int negative, T *out) noexcept {
    try {
        if (na + nb == 0 || na + nb > CK__FF_SHORT_DIGITS) {
            return 0;
        }
        const std::uint64_t w = append_digits(append_digits(0, a, na), b, nb);
        const fast_float::adjusted_mantissa am =
            fast_float::compute_float<fast_float::binary_format<T>>(q, w);
        if (am.power2 < 0) {
            return 0; // too close to a halfway point for one product: from_chars decides
        }
        T v;
        fast_float::to_float(negative != 0, am, v);
        *out = v;
        return 1;
    } catch (...) {
        return 0;
    }
}

} // namespace

extern "C" int ck__ff_text_to_double(const char *s, std::size_t len, double *out) {
    return read_text(s, len, out);
}

extern "C" int ck__ff_text_to_float(const char *s, std::size_t len, float *out) {
    return read_text(s, len, out);
}

extern "C" int ck__ff_digits_to_double(const char *a, std::size_t na, const char *b,
                                       std::size_t nb, std::int64_t q, int negative,
                                       double *out) {
    return read_digits(a, na, b, nb, q, negative, out);
}

extern "C" int ck__ff_digits_to_float(const char *a, std::size_t na, const char *b,
                                      std::size_t nb, std::int64_t q, int negative, float *out) {
    return read_digits(a, na, b, nb, q, negative, out);
}
