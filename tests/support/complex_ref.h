/* tests/support/complex_ref.h: the reference complex multiply and divide, as NumPy writes
 * them, in C so that the arithmetic leaf tests (C++, tests/callables) and the composition
 * fuzzer's reference (C, tests/fuzz) share one copy.
 *
 * Multiply is the plain formula, re = ar*br - ai*bi, im = ar*bi + ai*br; divide is Smith's
 * algorithm (the branch of the divisor's larger part; a divisor of ±0 ± 0i divides each part
 * by |br|). Every operation is rounded on its own in the type, in statement order, never
 * fused into an FMA (complex_ref.c says how). a, b and r are {real, imaginary}. */
#ifndef CK_TEST_COMPLEX_REF_H
#define CK_TEST_COMPLEX_REF_H

#ifdef __cplusplus
extern "C" {
#endif

void ckt_complex_mul_f(const float *a, const float *b, float *r);
void ckt_complex_mul_d(const double *a, const double *b, double *r);
void ckt_complex_div_f(const float *a, const float *b, float *r);
void ckt_complex_div_d(const double *a, const double *b, double *r);

#ifdef __cplusplus
}
#endif

#endif
