/* src/values/text_scalar.h: bool and complex as text, for the text cast (text_cast.c):
 * written as Python's str() writes them (NumPy's astype), read as NumPy 1.24 reads them
 * (docs/design.md §16). */
#ifndef CKERNEL_VALUES_TEXT_SCALAR_H
#define CKERNEL_VALUES_TEXT_SCALAR_H

#include <stddef.h>

#include "ckernel/eval.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes a bool's or complex's text needs: "(" real sign imag "j)", each part at most 24
 * characters ("-1.2345678901234567e-308"), the last written into 32 bytes of room. */
#define CK__BOOL_COMPLEX_TEXT_MAX 64

/* The text of the bool, complex64 or complex128 (type id) at data, any alignment, into buf
 * (CK__BOOL_COMPLEX_TEXT_MAX bytes): "True", "False"; Python's repr of a complex: "(1+2j)",
 * "1j" (a real part of +0 left out), "(-0-0j)", "(inf+nanj)", parts the shortest text of
 * their type without ".0". Returns the length. */
size_t ck__format_bool_complex(int id, const char *data, char *buf);

/* Reads s[0, n) (ASCII, no white space around it, s[n] writable) into the bool or complex at
 * dst. bool: an integer (a sign and digits; nonzero is true, as NumPy's int() reading), or
 * "True" / "False". complex: Python's complex() grammar, the parts as float text
 * (docs/design.md §16), each rounded once to the part's type. Returns CK_OK,
 * CK_ERR_TEXT (*why says what is wrong) or CK_ERR_OVERFLOW (finite text that rounds to
 * infinity, in the checked modes). s is left as it was. */
int ck__read_bool_complex(int id, char *s, size_t n, ck_errmode mode, char *dst,
                          const char **why);

#ifdef __cplusplus
}
#endif

#endif
