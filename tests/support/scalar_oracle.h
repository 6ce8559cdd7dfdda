/* tests/support/scalar_oracle.h: the scalar assignment oracle (docs/design.md §7), in C so
 * that the cast tests (C++) and the composition fuzzer (C) share one copy.
 *
 * It shares nothing with the code under test: every source value is held exactly, an
 * integer as its sign and magnitude, a float as a long double (which holds every float and
 * double on every host; long double may be no wider than double); the rules of the error
 * modes are applied with exact comparisons; an integer becomes a float by rounding its
 * magnitude to the format's significant bits by the definition (nearest, ties to even), a
 * float becomes float32/float64 by C's own long double -> float/double conversion (one
 * rounding), float16 and bfloat16 results come from a definitional rounding (values by
 * ldexpl, rounding by comparison with the exact midpoint), and integer wrap-around takes the
 * low bytes of the two's complement value. A NaN result is "any NaN": its payload is left
 * free. */
#ifndef CK_TEST_SCALAR_ORACLE_H
#define CK_TEST_SCALAR_ORACLE_H

#include <stddef.h>
#include <float.h>
#include <stdint.h>

#include "ckernel/types.h"

#ifdef __cplusplus
extern "C" {
#define CKT_ALIGN16 alignas(16)
#else
#define CKT_ALIGN16 _Alignas(16)
#endif

/* kind: 'B' bool, 'S' signed, 'U' unsigned, 'H' float16, 'G' bfloat16, 'F' float32, 'D' float64,
 * 'C' complex. bits: integers their width; floats their storage width; complex the
 * component's width. component: a complex's component type, else the type itself. */
typedef struct ckt_scalar_info {
    ck_type_id id;
    const char *name;
    size_t size;
    size_t align;
    char kind;
    int bits;
    ck_type_id component;
} ckt_scalar_info;

/* The table entry of scalar id (0 .. CK_NUM_SCALAR_TYPES - 1). */
const ckt_scalar_info *ckt_scalar(int id);

/* One element, with room and alignment for any scalar. */
typedef struct ckt_elem {
    CKT_ALIGN16 unsigned char b[16];
} ckt_elem;

/* What the oracle expects of one conversion: a status and, when it is CK_OK, the destination
 * element; nan[k] says that part k (the real or imaginary part of a float or complex) must
 * merely be a NaN, whatever its payload. */
typedef struct ckt_expect {
    int status;
    ckt_elem out;
    int nan[2];
} ckt_expect;

/* The conversion of the scalar at src (type s) to type d in error mode `mode` (0..3). */
ckt_expect ckt_oracle(ck_type_id d, ck_type_id s, int mode, const unsigned char *src);
/* 1 when `got` (an element of d) is what e expects: bit for bit, except where e says NaN. */
int ckt_oracle_matches(ck_type_id d, const ckt_expect *e, const unsigned char *got);
/* 1 when the bits at p are a NaN of the real type c (float16, float32 or float64). */
int ckt_bits_are_nan(ck_type_id c, const unsigned char *p);

/* binary16 by its definition: the value of a bit pattern, the value of a positive half with
 * 0x7c00 standing for 2^16 (the upper neighbour of 65504), and rounding to nearest, ties to
 * even (NaN gives the default quiet NaN 0x7e00). */
long double ckt_half_value(uint16_t h);
long double ckt_half_pos(uint16_t h);
uint16_t ckt_round_to_half(long double v);
/* bfloat16 the same way. */
long double ckt_bf16_value(uint16_t h);
uint16_t ckt_round_to_bf16(long double v);

/* Integers, exactly on every host: a value as sign and magnitude; the least and greatest of
 * an integer type (bool: 0 and 1) as two's complement bits; whether a value is in a type's
 * range; a value's two's complement bits; the bits of an integral long double t in
 * [-2^63, 2^64). */
typedef struct ckt_int {
    int negative;
    uint64_t magnitude;
} ckt_int;
uint64_t ckt_int_min_bits(const ckt_scalar_info *t);
uint64_t ckt_int_max_bits(const ckt_scalar_info *t);
int ckt_int_fits(const ckt_scalar_info *t, ckt_int v);
uint64_t ckt_int_bits(ckt_int v);
uint64_t ckt_bits_of_integer(long double t);
/* 1 on a big-endian host; the byte of an integer of `size` bytes that holds its sign bit. */
#define CKT_BIG_ENDIAN (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
#define CKT_SIGN_BYTE(size) (CKT_BIG_ENDIAN ? 0 : (size) - 1)
/* An integer of `size` bytes (1, 2, 4, 8) at out: the low bytes of bits, in the host's byte
 * order; ckt_get_low_bytes reads one back, zero-extended. */
void ckt_put_low_bytes(unsigned char *out, uint64_t bits, size_t size);
uint64_t ckt_get_low_bytes(const unsigned char *in, size_t size);

#ifdef __cplusplus
}
#endif

#endif
