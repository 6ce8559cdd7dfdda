/* tests/types/unit/float16_ref.h: the C compiler's own _Float16 conversions, as a reference
 * for src/common/float16.h (C only: g++ 12 has no _Float16). */
#ifndef CK_TEST_FLOAT16_REF_H
#define CK_TEST_FLOAT16_REF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the reference functions below use _Float16; 0 when the compiler has none. */
int ckt_ref_have_float16(void);
uint16_t ckt_ref_float_to_half(float f);
uint16_t ckt_ref_double_to_half(double d);
float ckt_ref_half_to_float(uint16_t h);

#ifdef __cplusplus
}
#endif

#endif
