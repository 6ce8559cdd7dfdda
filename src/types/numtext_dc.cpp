// src/types/numtext_dc.cpp: float32 and float64 number text through double-conversion
// (Debian's libdouble-conversion, linked in as a private static archive): shortest
// round-trip digits, and correctly rounded decimal reading. An extern "C" shim like the
// oneTBB backend: plain C types in and out, and no exception ever leaves this file.
// numtext.c does everything around it: the grammar, the layout, float16.
#include <double-conversion/double-to-string.h>
#include <double-conversion/string-to-double.h>
#include <double-conversion/strtod.h>

#include <climits>
#include <cstddef>

#if defined(__x86_64__) || defined(_M_X64) || (defined(__i386__) && defined(__SSE__))
#  include <xmmintrin.h>
#  define CK__DC_HAVE_MXCSR 1
#else
#  include <cfenv>
#endif

#include "types/numtext_dc.h"

namespace {

namespace dc = double_conversion;

// double-conversion computes a few results with the FPU (a product by an exact power of ten
// on its fast reading path, a double -> float cast, comparisons with zero), so the caller's
// floating-point settings would reach them: a directed rounding mode, or flush-to-zero and
// denormals-are-zero (a host built with -ffast-math sets both). Each conversion runs under
// the default settings and gives the caller's back, with any exception flag the conversion
// raised left raised, as a C library call leaves them.
#ifdef CK__DC_HAVE_MXCSR
class default_fp_env {
  public:
    default_fp_env() noexcept : saved_(_mm_getcsr()) {
        if ((saved_ & ~kFlags) != kDefault) {
            _mm_setcsr(kDefault | (saved_ & kFlags));
        }
    }
    ~default_fp_env() {
        if ((saved_ & ~kFlags) != kDefault) {
            _mm_setcsr(saved_ | (_mm_getcsr() & kFlags));
        }
    }
    default_fp_env(const default_fp_env &) = delete;
    default_fp_env &operator=(const default_fp_env &) = delete;

  private:
    static constexpr unsigned kFlags = 0x3fu;     // the sticky exception flags
    static constexpr unsigned kDefault = 0x1f80u; // all masked, to nearest, no FTZ/DAZ
    unsigned saved_;
};
#else
class default_fp_env { // the rounding mode only: other FPUs' flush modes are left alone
  public:
    default_fp_env() noexcept : saved_(std::fegetround()) {
        if (saved_ != FE_TONEAREST) {
            std::fesetround(FE_TONEAREST);
        }
    }
    ~default_fp_env() {
        if (saved_ != FE_TONEAREST) {
            std::fesetround(saved_);
        }
    }
    default_fp_env(const default_fp_env &) = delete;
    default_fp_env &operator=(const default_fp_env &) = delete;

  private:
    int saved_;
};
#endif

// Text that numtext.c could not split (more digits than its buffer): no flags (no spaces,
// junk, hex or octal), no inf or nan symbols.
dc::StringToDoubleConverter decimal_reader() {
    return dc::StringToDoubleConverter(dc::StringToDoubleConverter::NO_FLAGS, 0.0, 0.0,
                                       nullptr, nullptr);
}

double read_as(const dc::StringToDoubleConverter &r, const char *s, int len, int *used,
               double *) {
    return r.StringToDouble(s, len, used);
}
float read_as(const dc::StringToDoubleConverter &r, const char *s, int len, int *used,
              float *) {
    return r.StringToFloat(s, len, used); // rounded once, directly to float
}

template <typename T> int read_text(const char *s, std::size_t len, T *out) noexcept {
    try {
        if (len == 0 || len > static_cast<std::size_t>(INT_MAX)) {
            return 0;
        }
        const default_fp_env env;
        const dc::StringToDoubleConverter reader = decimal_reader();
        int used = 0;
        const T v = read_as(reader, s, static_cast<int>(len), &used, out);
        if (used != static_cast<int>(len)) {
            return 0;
        }
        *out = v;
        return 1;
    } catch (...) {
        return 0;
    }
}

double from_digits(dc::Vector<const char> digits, int exponent, double *) {
    return dc::Strtod(digits, exponent);
}
float from_digits(dc::Vector<const char> digits, int exponent, float *) {
    return dc::Strtof(digits, exponent); // rounded once, directly to float
}

template <typename T>
int read_digits(const char *digits, int ndigits, int exponent, T *out) noexcept {
    try {
        if (ndigits <= 0 || digits[0] == '0') {
            return 0;
        }
        const default_fp_env env;
        *out = from_digits(dc::Vector<const char>(digits, ndigits), exponent, out);
        return 1;
    } catch (...) {
        return 0;
    }
}

} // namespace

extern "C" int ck__dc_shortest(double v, int single, char *digits, int *point) {
    try {
        const default_fp_env env;
        bool negative = false;
        int length = 0;
        dc::DoubleToStringConverter::DoubleToAscii(
            v,
            single != 0 ? dc::DoubleToStringConverter::SHORTEST_SINGLE
                        : dc::DoubleToStringConverter::SHORTEST,
            0, digits, CK__DC_DIGITS, &negative, &length, point);
        return length > 0 && length < CK__DC_DIGITS && !negative ? length : 0;
    } catch (...) {
        return 0;
    }
}

extern "C" int ck__dc_digits_to_double(const char *digits, int ndigits, int exponent,
                                       double *out) {
    return read_digits(digits, ndigits, exponent, out);
}

extern "C" int ck__dc_digits_to_float(const char *digits, int ndigits, int exponent,
                                      float *out) {
    return read_digits(digits, ndigits, exponent, out);
}

extern "C" int ck__dc_strtod(const char *s, std::size_t len, double *out) {
    return read_text(s, len, out);
}

extern "C" int ck__dc_strtof(const char *s, std::size_t len, float *out) {
    return read_text(s, len, out);
}
