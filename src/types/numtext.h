/* src/types/numtext.h: locale-independent conversions between decimal text and floating
 * point values, correctly rounded for float16/float32/float64, and shortest round-trip
 * formatting (never installed). float32 and float64 go through double-conversion
 * (numtext_dc.cpp); float16 is ours. None of them depends on the locale or on the caller's
 * floating-point settings (rounding mode, flush-to-zero). */
#ifndef CKERNEL_NUMTEXT_H
#define CKERNEL_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>

/* The floating formats a text can be rounded to. */
typedef enum ck__fkind { CK__F16, CK__F32, CK__F64 } ck__fkind;

/* strtod/strtof in the "C" locale (whatever the process or thread locale): the longest
 * prefix of s that strtod reads (leading white space, a sign, a decimal number, or
 * hexadecimal, inf, infinity, nan, nan(...) in any case), the same value, correctly rounded
 * to nearest even, and *end set as strtod sets it (s when nothing is read). errno says
 * nothing (decimals never set it). */
double ck__strtod_c(const char *s, const char **end);
float ck__strtof_c(const char *s, const char **end);
/* Decimal text to binary16, rounded once to nearest even from the exact decimal value. */
uint16_t ck__strtoh_c(const char *s, const char **end);

/* Writes the shortest decimal that reads back (with the functions above) to the same value
 * of kind k (of several, the nearest; of two equally near, the one whose last digit is
 * even), in Python repr layout: "0.1", "100.0", "1e+16", "1.5e-07", "nan", "-inf".
 * `point` adds ".0" to integral values in fixed layout (so they read as floats); complex
 * components are written without it ("1+2j"). `v` must be a value of kind k. Returns the
 * length; buf needs 32 bytes. */
size_t ck__format_float(double v, ck__fkind k, int point, char *buf);

#endif
