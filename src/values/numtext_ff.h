/* src/values/numtext_ff.h: the C side of numtext_ff.cpp, the shim over fast_float that
 * numtext.c reads float32 and float64 decimals with (correctly rounded to nearest even).
 * Plain C types only: no C++ type and no exception crosses it (never installed). */
#ifndef CKERNEL_NUMTEXT_FF_H
#define CKERNEL_NUMTEXT_FF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Most significant digits ck__ff_digits_to_double/float take: exact in a uint64_t. */
#define CK__FF_SHORT_DIGITS 19

/* The text s[0, len) of one decimal number in strtod's grammar (an optional sign, digits
 * with an optional point and at least one digit, an optional exponent with digits; no white
 * space, hexadecimal, inf or nan), any number of digits: 1 with *out set, or 0 when
 * s[0, len) is not exactly such a number. */
int ck__ff_text_to_double(const char *s, size_t len, double *out);
int ck__ff_text_to_float(const char *s, size_t len, float *out);

/* The digits a[0, na) followed by b[0, nb) (1 to CK__FF_SHORT_DIGITS together, the first not
 * '0') times 10^q, negated when `negative`: 1 with *out set, or 0 when fast_float's product
 * cannot decide the rounding (rare: the caller then reads the text). */
int ck__ff_digits_to_double(const char *a, size_t na, const char *b, size_t nb, int64_t q,
                            int negative, double *out);
int ck__ff_digits_to_float(const char *a, size_t na, const char *b, size_t nb, int64_t q,
                           int negative, float *out);

#ifdef __cplusplus
}
#endif

#endif
