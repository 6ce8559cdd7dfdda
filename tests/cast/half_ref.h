/* tests/cast/half_ref.h: the C compiler's own _Float16 conversions, used to validate the
 * test's definitional float16 oracle (C only: g++ 12 has no _Float16 in C++). */
#ifndef CK_TEST_CAST_HALF_REF_H
#define CK_TEST_CAST_HALF_REF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the functions below use _Float16; 0 when the C compiler has none. */
int ckt_cast_have_float16(void);
uint16_t ckt_cast_ld_to_half(long double v);
uint16_t ckt_cast_double_to_half(double v);
double ckt_cast_half_to_double(uint16_t h);

#ifdef __cplusplus
}
#endif

#endif
