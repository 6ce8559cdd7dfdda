/* src/values/numtext_dc.h: the C side of numtext_dc.cpp, the shim over double-conversion
 * that numtext.c prints float32 and float64 with (shortest digits).
 * Plain C types only: no C++ type and no exception crosses it (never installed). */
#ifndef CKERNEL_NUMTEXT_DC_H
#define CKERNEL_NUMTEXT_DC_H

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

#ifdef __cplusplus
}
#endif

#endif
