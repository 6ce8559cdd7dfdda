/* src/values/numtext.h: locale-independent conversions between decimal text and floating
 * point values, correctly rounded for float16/float32/float64, and shortest round-trip
 * formatting (never installed). float32 and float64 are read through fast_float
 * (numtext_ff.cpp) and printed through double-conversion (numtext_dc.cpp); float16 is ours.
 * None of them depends on the locale or on the caller's floating-point settings (rounding
 * mode, flush-to-zero). */
#ifndef CKERNEL_NUMTEXT_H
#define CKERNEL_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The floating formats a text can be rounded to: each float row of the scalar table (and
 * a complex row's parts) is one of them, by its significand bits (ck__fkind_of). A new
 * float format adds one here, with its load, store and rounding in numtext.c. */
typedef enum ck__fkind { CK__F16, CK__BF16, CK__F32, CK__F64 } ck__fkind;
/* The format of a float or complex type id's parts (F64 for any other id). */
ck__fkind ck__fkind_of(int id);
/* A value of format k at p (any alignment), exactly, as a double. */
double ck__fkind_load(ck__fkind k, const char *p);
/* Stores v, a value of format k already (exact), at p (any alignment). */
void ck__fkind_store(ck__fkind k, double v, char *p);
/* v rounded once to format k (nearest even), as a double. */
double ck__fkind_round(ck__fkind k, double v);

/* strtod/strtof in the "C" locale (whatever the process or thread locale): the longest
 * prefix of s that strtod reads (leading white space, a sign, a decimal number, or
 * hexadecimal, inf, infinity, nan, nan(...) in any case), the same value, correctly rounded
 * to nearest even, and *end set as strtod sets it (s when nothing is read). errno says
 * nothing (decimals never set it). */
double ck__strtod_c(const char *s, const char **end);
float ck__strtof_c(const char *s, const char **end);
/* A decimal number already split by a caller's scanner (the literal parser): the digits
 * before the point and after it (leading zeros allowed; not both empty), the exponent's
 * value (saturated at +-CK__EXP10_SATURATED is exact enough: no text is that long), and the
 * sign. */
#define CK__EXP10_SATURATED ((int64_t)1 << 40)
typedef struct ck__decimal_parts {
    const char *int_digits;
    size_t nint;
    const char *frac_digits;
    size_t nfrac;
    int64_t exp10;
    int negative;
} ck__decimal_parts;
/* Reads the decimal number strtod would read at s (NUL-terminated; no white space before
 * it) into its parts: an optional sign, digits with an optional point and at least one
 * digit, and an exponent when digits follow its 'e' and optional sign. Returns its length,
 * or 0 when there is none, or when strtod would read something else there ("0x":
 * hexadecimal). Its text is Python's float() decimal when the length is the whole text. */
size_t ck__scan_decimal(const char *s, ck__decimal_parts *d);
/* Its value correctly rounded to nearest even, as ck__strtod_c/ck__strtof_c read the same
 * text: 1, or 0 for more than 19 significant digits, and rarely when fast_float's one
 * product cannot decide (the caller then reads the text). */
int ck__decimal_to_double(const ck__decimal_parts *d, double *out);
int ck__decimal_to_float(const ck__decimal_parts *d, float *out);
/* Decimal text to binary16, rounded once to nearest even from the exact decimal value. */
uint16_t ck__strtoh_c(const char *s, const char **end);
/* Decimal text to a format narrower than float32 (F16, BF16), rounded once to nearest even
 * from the exact decimal value, as a double. */
double ck__strto_narrow_c(const char *s, const char **end, ck__fkind k);
/* Text to format k, rounded once (ck__strtod_c, ck__strtof_c or ck__strto_narrow_c), as a
 * double. */
double ck__strto_fkind_c(const char *s, const char **end, ck__fkind k);

/* Writes the shortest decimal that reads back (with the functions above) to the same value
 * of kind k (of several, the nearest; of two equally near, the one whose last digit is
 * even), in Python repr layout: "0.1", "100.0", "1e+16", "1.5e-07", "nan", "-inf".
 * `point` adds ".0" to integral values in fixed layout (so they read as floats); complex
 * components are written without it ("1+2j"). `v` must be a value of kind k. Returns the
 * length; buf needs 32 bytes. */
size_t ck__format_float(double v, ck__fkind k, int point, char *buf);

/* The decimal digits of v (no sign) at buf (20 bytes; no NUL written); returns their
 * count. Two digits at a time from a table of the hundred pairs: a division by 100 is a
 * multiplication, half as many as by 10 (int64 -> text was five times slower than a plain
 * digit loop through snprintf). */
size_t ck__format_uint64(uint64_t v, char *buf);
/* A complex's literal text "re+imj" (the imaginary part's sign always shown, "+nan"), parts
 * as ck__format_float writes them without ".0", into buf (64 bytes). Returns the length
 * (literal_format.c). */
size_t ck__format_complex_text(double re, double im, ck__fkind k, char *buf);

/* The text of the integer or float (type id, not bool or complex) at data (any alignment)
 * into buf (48 bytes, NUL-terminated): integers in decimal (ck__format_uint64), floats by
 * ck__format_float with `point`. Returns the length (literal_format.c). */
size_t ck__format_number(int id, const char *data, int point, char *buf);

/* The end of the run of decimal digits at p, looking no further than limit. Eight bytes at
 * a time while eight remain (a float64's text has about 17 digits, and byte by byte this
 * scan was a fifth of reading one): a byte is a digit when its high nibble is 3 both as it
 * is and plus 6. A carry out of a byte (>= 0xfa: not a digit) can only spoil the bytes
 * after it, and the first non-digit is what counts. */
static inline const char *ck__digit_run(const char *p, const char *limit) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (limit - p >= 8) {
        uint64_t x;
        memcpy(&x, p, sizeof x);
        const uint64_t nibbles = UINT64_C(0xf0f0f0f0f0f0f0f0);
        const uint64_t threes = UINT64_C(0x3030303030303030);
        const uint64_t off = ((x & nibbles) ^ threes) |
                             (((x + UINT64_C(0x0606060606060606)) & nibbles) ^ threes);
        if (off != 0) {
            return p + __builtin_ctzll(off) / 8;
        }
        p += 8;
    }
#endif
    while (p < limit && *p >= '0' && *p <= '9') {
        p++;
    }
    return p;
}

#ifdef __cplusplus
}
#endif

#endif
