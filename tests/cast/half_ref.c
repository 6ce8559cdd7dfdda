/* tests/cast/half_ref.c: see half_ref.h. */
#include "half_ref.h"

#include <string.h>

#if defined(__FLT16_MAX__)
/* __extension__: _Float16 is not ISO C11, and the suite builds with -Wpedantic -Werror. */
__extension__ typedef _Float16 ckt_half;

int ckt_cast_have_float16(void) {
    return 1;
}
uint16_t ckt_cast_ld_to_half(long double v) {
    volatile ckt_half h = (ckt_half)v; /* volatile: no constant folding */
    ckt_half r = h;
    uint16_t u;
    memcpy(&u, &r, sizeof u);
    return u;
}
uint16_t ckt_cast_double_to_half(double v) {
    volatile ckt_half h = (ckt_half)v;
    ckt_half r = h;
    uint16_t u;
    memcpy(&u, &r, sizeof u);
    return u;
}
double ckt_cast_half_to_double(uint16_t u) {
    ckt_half h;
    memcpy(&h, &u, sizeof h);
    volatile double d = (double)h;
    return d;
}
#else
int ckt_cast_have_float16(void) {
    return 0;
}
uint16_t ckt_cast_ld_to_half(long double v) {
    (void)v;
    return 0;
}
uint16_t ckt_cast_double_to_half(double v) {
    (void)v;
    return 0;
}
double ckt_cast_half_to_double(uint16_t u) {
    (void)u;
    return 0.0;
}
#endif
