#!/usr/bin/env python3
"""scripts/gen_pow5_table.py: writes src/types/numtext_pow5.h, the 128-bit powers of five
that numtext.c reads short decimals with (w x 10^q from one 64 x 128-bit product). Exact
integer arithmetic; run it again only to change the table:

    /usr/bin/python3 scripts/gen_pow5_table.py > src/types/numtext_pow5.h

Entry q (CK__POW5_MIN_Q <= q <= CK__POW5_MAX_Q) is 5^q scaled by a power of two into
[2^127, 2^128), as (high 64 bits, low 64 bits): for q >= 0 truncated (exact up to 5^55),
for q < 0 the reciprocal one unit above its floor, from 128 bits (q >= -27, where 5^-q has
at most 64 bits) or from twice the divisor's bits truncated to 128.
"""

MIN_Q, MAX_Q = -342, 308


def entry(q):
    if q >= 0:
        p = 5**q
        n = p.bit_length()
        v = p << (128 - n) if n <= 128 else p >> (n - 128)
    else:
        p = 5**-q
        z = p.bit_length()  # 2^(z-1) < p < 2^z: p is odd and above 1
        if q >= -27:
            v = (1 << (z + 127)) // p + 1
        else:
            v = (1 << (2 * z + 128)) // p + 1
            v >>= v.bit_length() - 128
    assert (1 << 127) <= v < (1 << 128)
    return v >> 64, v & ((1 << 64) - 1)


def floor_log2_pow10(q):
    """floor(log2(10^q)), exactly."""
    return (10**q).bit_length() - 1 if q >= 0 else -((10**-q).bit_length())


def main():
    # numtext.c computes floor(log2(10^q)) as (217706 q) >> 16 rounded toward minus
    # infinity; it must be exact over the whole table.
    for q in range(MIN_Q, MAX_Q + 1):
        assert (217706 * q) // 65536 == floor_log2_pow10(q), q
    print("/* src/types/numtext_pow5.h: 5^q for CK__POW5_MIN_Q <= q <= CK__POW5_MAX_Q, scaled")
    print(" * into [2^127, 2^128) (high and low 64 bits), for numtext.c's reading of short")
    print(" * decimals. Written by scripts/gen_pow5_table.py (see there how each is rounded);")
    print(" * regenerate rather than edit. */")
    print("#ifndef CKERNEL_NUMTEXT_POW5_H")
    print("#define CKERNEL_NUMTEXT_POW5_H")
    print()
    print("#include <stdint.h>")
    print()
    print("#define CK__POW5_MIN_Q (%d)" % MIN_Q)
    print("#define CK__POW5_MAX_Q %d" % MAX_Q)
    print()
    print("static const uint64_t ck__pow5_128[CK__POW5_MAX_Q - CK__POW5_MIN_Q + 1][2] = {")
    for q in range(MIN_Q, MAX_Q + 1):
        hi, lo = entry(q)
        print("    {0x%016xu, 0x%016xu}, /* %d */" % (hi, lo, q))
    print("};")
    print()
    print("#endif")


if __name__ == "__main__":
    main()
