/* tests/support/float16_ref.h: the C compiler's own _Float16 conversions, the independent
 * reference that float16 code is checked against (C only: g++ 12 has no _Float16 in C++). */
#ifndef CK_TEST_FLOAT16_REF_H
#define CK_TEST_FLOAT16_REF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the functions below use _Float16; 0 when the C compiler has none (clang 14): the
 * conversions then return 0 and tests that need them skip. */
int ckt_ref_have_float16(void);
uint16_t ckt_ref_float_to_half(float f);
uint16_t ckt_ref_double_to_half(double d);
uint16_t ckt_ref_ld_to_half(long double v);
float ckt_ref_half_to_float(uint16_t h);
double ckt_ref_half_to_double(uint16_t h);

#ifdef __cplusplus
}
#endif

#endif
