// src/values/numtext_dc.cpp: float32 and float64 printed through double-conversion (Debian's
// libdouble-conversion, linked in as a private static archive): shortest round-trip digits.
// An extern "C" shim like the oneTBB backend: plain C types in and out, and no exception
// ever leaves this file. numtext.c does everything around it: the layout, float16; reading
// is fast_float's (numtext_ff.cpp).
#include <double-conversion/double-to-string.h>

#if defined(__x86_64__) || defined(_M_X64) || (defined(__i386__) && defined(__SSE__))
#  include <xmmintrin.h>
#  define CK__DC_HAVE_MXCSR 1
#else
#  include <cfenv>
#endif

#include "values/numtext_dc.h"

namespace {

namespace dc = double_conversion;

// double-conversion computes a few results with the FPU (a double -> float cast, comparisons
// with zero, which denormals-are-zero would make true of a subnormal), so the caller's
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
