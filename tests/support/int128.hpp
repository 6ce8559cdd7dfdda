// tests/support/int128.hpp: ckt::i128 and ckt::u128, the tests' exact integers beyond 64 bits
// (the references of integer arithmetic and of integer text). The compiler's __int128 where it
// has one; on 32-bit hosts (i386, armhf), which have none, a two's-complement pair of 64-bit
// words with the few operations the tests use (+ - * / % << >> & | ~, comparisons, casts).
#ifndef CKT_INT128_HPP
#define CKT_INT128_HPP

#include <cstdint>
#include <type_traits>

namespace ckt {

#if defined(__SIZEOF_INT128__) && !defined(CKT_INT128_PORTABLE) /* (defined: the words, tested) */
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;
#else

class u128;
class i128;

template <class T>
T words_add(T a, T b) {
    const uint64_t lo = a.lo + b.lo;
    return T::from_words(a.hi + b.hi + (lo < a.lo ? 1 : 0), lo);
}
template <class T>
T words_neg(T a) {
    return words_add(T::from_words(~a.hi, ~a.lo), T::from_words(0, 1));
}
// The low 128 bits of a product (the same for signed and unsigned operands).
template <class T>
T words_mul(T a, T b) {
    const uint64_t a0 = a.lo & 0xffffffffu, a1 = a.lo >> 32, b0 = b.lo & 0xffffffffu,
                   b1 = b.lo >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    const uint64_t lo = (p00 & 0xffffffffu) | (mid << 32);
    const uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) + a.hi * b.lo + a.lo * b.hi;
    return T::from_words(hi, lo);
}
inline bool words_less(uint64_t ah, uint64_t al, uint64_t bh, uint64_t bl) {
    return ah < bh || (ah == bh && al < bl);
}
// Unsigned division by shift and subtract: q = n / d, r = n % d (d != 0).
inline void words_divmod(uint64_t nh, uint64_t nl, uint64_t dh, uint64_t dl, uint64_t *qh,
                         uint64_t *ql, uint64_t *rh, uint64_t *rl) {
    uint64_t q_hi = 0, q_lo = 0, r_hi = 0, r_lo = 0;
    for (int bit = 127; bit >= 0; bit--) {
        r_hi = (r_hi << 1) | (r_lo >> 63);
        r_lo = (r_lo << 1) | ((bit >= 64 ? nh >> (bit - 64) : nl >> bit) & 1);
        if (!words_less(r_hi, r_lo, dh, dl)) {
            const uint64_t lo = r_lo - dl;
            r_hi = r_hi - dh - (r_lo < dl ? 1 : 0);
            r_lo = lo;
            if (bit >= 64) {
                q_hi |= uint64_t{1} << (bit - 64);
            } else {
                q_lo |= uint64_t{1} << bit;
            }
        }
    }
    *qh = q_hi, *ql = q_lo, *rh = r_hi, *rl = r_lo;
}

#define CKT_INT128_CLASS(NAME, OTHER, SIGNED)                                                        \
    class NAME {                                                                                \
    public:                                                                                     \
        uint64_t hi = 0, lo = 0;                                                                \
        constexpr NAME() = default;                                                             \
        constexpr NAME(int v) : hi(v < 0 ? ~uint64_t{0} : 0), lo(static_cast<uint64_t>(v)) {}  \
        constexpr NAME(long long v)                                                             \
            : hi(v < 0 ? ~uint64_t{0} : 0), lo(static_cast<uint64_t>(v)) {}                     \
        constexpr NAME(long v) : NAME(static_cast<long long>(v)) {}                             \
        constexpr NAME(unsigned v) : hi(0), lo(v) {}                                            \
        constexpr NAME(unsigned long v) : hi(0), lo(v) {}                                       \
        constexpr NAME(unsigned long long v) : hi(0), lo(v) {}                                  \
        NAME(const OTHER &o); /* the same bits */                                               \
        static NAME from_words(uint64_t h, uint64_t l) {                                        \
            NAME r;                                                                             \
            r.hi = h;                                                                           \
            r.lo = l;                                                                           \
            return r;                                                                           \
        }                                                                                       \
        bool negative() const { return SIGNED && (hi >> 63) != 0; }                             \
        explicit operator bool() const { return hi != 0 || lo != 0; }                           \
        template <class T, class = typename std::enable_if<std::is_arithmetic<T>::value>::type> \
        explicit operator T() const {                                                           \
            if (std::is_floating_point<T>::value) {                                             \
                const NAME m = negative() ? -*this : *this;                                     \
                const long double v = static_cast<long double>(m.hi) * 18446744073709551616.0L + \
                                      static_cast<long double>(m.lo);                           \
                return static_cast<T>(negative() ? -v : v);                                     \
            }                                                                                   \
            return static_cast<T>(lo);                                                          \
        }                                                                                       \
        NAME operator-() const { return words_neg(*this); }                                     \
        NAME operator~() const { return from_words(~hi, ~lo); }                                 \
        friend NAME operator+(NAME a, NAME b) { return words_add(a, b); }                       \
        friend NAME operator-(NAME a, NAME b) { return words_add(a, words_neg(b)); }            \
        friend NAME operator*(NAME a, NAME b) { return words_mul(a, b); }                       \
        friend NAME operator&(NAME a, NAME b) { return from_words(a.hi & b.hi, a.lo & b.lo); } \
        friend NAME operator|(NAME a, NAME b) { return from_words(a.hi | b.hi, a.lo | b.lo); } \
        friend NAME operator<<(NAME a, int s) {                                                 \
            if (s == 0) return a;                                                               \
            if (s >= 64) return from_words(a.lo << (s - 64), 0);                                \
            return from_words((a.hi << s) | (a.lo >> (64 - s)), a.lo << s);                     \
        }                                                                                       \
        friend NAME operator>>(NAME a, int s) {                                                 \
            const uint64_t fill = a.negative() ? ~uint64_t{0} : 0;                              \
            if (s == 0) return a;                                                               \
            if (s >= 64)                                                                        \
                return from_words(fill, s == 64 ? a.hi                                          \
                                                : (a.hi >> (s - 64)) | (fill << (128 - s)));    \
            return from_words((a.hi >> s) | (fill << (64 - s)), (a.lo >> s) | (a.hi << (64 - s))); \
        }                                                                                       \
        friend bool operator==(NAME a, NAME b) { return a.hi == b.hi && a.lo == b.lo; }         \
        friend bool operator!=(NAME a, NAME b) { return !(a == b); }                            \
        friend bool operator<(NAME a, NAME b) {                                                 \
            if (a.negative() != b.negative()) return a.negative();                              \
            return words_less(a.hi, a.lo, b.hi, b.lo);                                          \
        }                                                                                       \
        friend bool operator>(NAME a, NAME b) { return b < a; }                                 \
        friend bool operator<=(NAME a, NAME b) { return !(b < a); }                             \
        friend bool operator>=(NAME a, NAME b) { return !(a < b); }                             \
        /* C's division: the quotient truncated toward zero, the remainder the dividend's sign */ \
        friend NAME operator/(NAME a, NAME b) { return divmod(a, b, false); }                   \
        friend NAME operator%(NAME a, NAME b) { return divmod(a, b, true); }                    \
        NAME &operator+=(NAME b) { return *this = *this + b; }                                  \
        NAME &operator-=(NAME b) { return *this = *this - b; }                                  \
        NAME &operator*=(NAME b) { return *this = *this * b; }                                  \
        NAME &operator/=(NAME b) { return *this = *this / b; }                                  \
        NAME &operator%=(NAME b) { return *this = *this % b; }                                  \
        NAME &operator<<=(int s) { return *this = *this << s; }                                 \
        NAME &operator>>=(int s) { return *this = *this >> s; }                                 \
                                                                                                \
    private:                                                                                    \
        static NAME divmod(NAME a, NAME b, bool remainder) {                                    \
            const bool na = a.negative(), nb = b.negative();                                    \
            const NAME ma = na ? -a : a, mb = nb ? -b : b;                                      \
            uint64_t qh, ql, rh, rl;                                                            \
            words_divmod(ma.hi, ma.lo, mb.hi, mb.lo, &qh, &ql, &rh, &rl);                       \
            const NAME q = from_words(qh, ql), r = from_words(rh, rl);                          \
            if (remainder) return na ? -r : r;                                                  \
            return na != nb ? -q : q;                                                           \
        }                                                                                       \
    };

CKT_INT128_CLASS(u128, i128, false)
CKT_INT128_CLASS(i128, u128, true)
#undef CKT_INT128_CLASS
inline u128::u128(const i128 &o) : hi(o.hi), lo(o.lo) {}
inline i128::i128(const u128 &o) : hi(o.hi), lo(o.lo) {}

#endif

}  // namespace ckt

#endif
