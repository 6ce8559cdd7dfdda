/* tests/support/float16_ref.c: see float16_ref.h. */
#include "float16_ref.h"

#include <string.h>

#if defined(__FLT16_MAX__)
/* __extension__: _Float16 is an ISO/IEC TS 18661-3 type, not ISO C11 (-Wpedantic). */
__extension__ typedef _Float16 ckt_f16;

/* volatile: the conversion happens at run time, not folded by the compiler. */
#define CKT_TO_HALF(value)            \
    volatile ckt_f16 h = (ckt_f16)(value); \
    ckt_f16 v = h;                    \
    uint16_t u;                       \
    memcpy(&u, &v, sizeof u);         \
    return u

int ckt_ref_have_float16(void) {
    return 1;
}
uint16_t ckt_ref_float_to_half(float f) {
    CKT_TO_HALF(f);
}
uint16_t ckt_ref_double_to_half(double d) {
    CKT_TO_HALF(d);
}
uint16_t ckt_ref_ld_to_half(long double d) {
    CKT_TO_HALF(d);
}
float ckt_ref_half_to_float(uint16_t u) {
    ckt_f16 h;
    memcpy(&h, &u, sizeof h);
    volatile float f = (float)h;
    return f;
}
double ckt_ref_half_to_double(uint16_t u) {
    ckt_f16 h;
    memcpy(&h, &u, sizeof h);
    volatile double d = (double)h;
    return d;
}
#else
int ckt_ref_have_float16(void) {
    return 0;
}
uint16_t ckt_ref_float_to_half(float f) {
    (void)f;
    return 0;
}
uint16_t ckt_ref_double_to_half(double d) {
    (void)d;
    return 0;
}
uint16_t ckt_ref_ld_to_half(long double d) {
    (void)d;
    return 0;
}
float ckt_ref_half_to_float(uint16_t u) {
    (void)u;
    return 0.0f;
}
double ckt_ref_half_to_double(uint16_t u) {
    (void)u;
    return 0.0;
}
#endif
