/* src/types/numtext_dc.h: the C side of numtext_dc.cpp, the shim over double-conversion
 * that numtext.c uses for float32 and float64 (shortest digits, correctly rounded reading).
 * Plain C types only: no C++ type and no exception crosses it (never installed). */
#ifndef CKERNEL_NUMTEXT_DC_H
#define CKERNEL_NUMTEXT_DC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest digit count ck__dc_shortest writes (a double's 17), plus room for a NUL. */
#define CK__DC_DIGITS 18

/* The shortest digits that read back to v, a finite value > 0 (single: to the float v, which
 * must be a float's value): v ~ 0.D1D2...Dn x 10^point, digits[0, n) with no leading or
 * trailing zero; of several, the nearest to v, and of two equally near (v halfway), the one
 * whose last digit is even, as Python's repr and NumPy choose (tests/types/unit/
 * numtext_test.cpp and tests/host/numtext_test.py hold the library to it). Returns n, or 0
 * when the library failed (not expected; the caller has a slow path). */
int ck__dc_shortest(double v, int single, char *digits, int *point);

/* A decimal given as its significant digits, digits[0, ndigits) (ndigits >= 1, the first not
 * '0', any count), and a power of ten: the value digits x 10^exponent, correctly rounded to
 * nearest even. Returns 1 with *out set, or 0 when the library failed (not expected). */
int ck__dc_digits_to_double(const char *digits, int ndigits, int exponent, double *out);
int ck__dc_digits_to_float(const char *digits, int ndigits, int exponent, float *out);

/* The same from the text s[0, len) of one decimal number as strtod reads it (an optional
 * sign, digits with an optional point, at least one digit, an optional exponent with
 * digits; no white space, no hexadecimal, no inf or nan): for text too long to split.
 * Returns 1 with *out set, or 0 when the library did not read exactly those characters. */
int ck__dc_strtod(const char *s, size_t len, double *out);
int ck__dc_strtof(const char *s, size_t len, float *out);

#ifdef __cplusplus
}
#endif

#endif
