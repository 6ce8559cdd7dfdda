/* src/values/text_codec.h: one code point at a time between the text encodings (ascii, utf8,
 * utf16, utf32 in the machine's byte order; NONE, the bytes kinds, is read and written as
 * utf8), strictly: an overlong or truncated UTF-8 sequence, an encoded surrogate, a lone
 * UTF-16 surrogate, a code point above U+10FFFF and a byte above 0x7f in ascii are invalid.
 * Shared by the literals (types) and the text casts (kernels); never installed. */
#ifndef CKERNEL_TEXT_CODEC_H
#define CKERNEL_TEXT_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ckernel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ck__strbuf;

/* Appends the text p[0, n) of enc quoted as a literal: JSON's escapes (\" \\ \b \f \n \r
 * \t, \u00XX for other control characters), other code points as UTF-8; bytes (NONE) other
 * than printable ASCII (and those escapes) as \xHH. At most `limit` units are shown ("..." marks the cut). A
 * unit that is not valid in enc is shown as its value (\xHH, \uXXXX, \UXXXXXXXX) and the
 * first one's index is *bad (SIZE_MAX when all are valid). literal_format.c. */
int ck__text_quote(struct ck__strbuf *b, int enc, const char *p, size_t n, size_t limit,
                   size_t *bad);

/* Code unit i of a text in enc (any alignment). */
static inline uint32_t ck__text_unit(int enc, const char *p, size_t i) {
    if (enc == CK_ENCODING_UTF16) {
        uint16_t u;
        memcpy(&u, p + 2 * i, 2);
        return u;
    }
    if (enc == CK_ENCODING_UTF32) {
        uint32_t u;
        memcpy(&u, p + 4 * i, 4);
        return u;
    }
    return (unsigned char)p[i];
}

/* The code point at unit i of a text of n units (i < n): the units it takes (1..4), or 0
 * when the units at i are not a valid code point of enc. */
static inline size_t ck__text_decode(int enc, const char *p, size_t i, size_t n, uint32_t *cp) {
    const uint32_t u = ck__text_unit(enc, p, i);
    if (u < 0x80) {
        *cp = u;
        return 1;
    }
    switch (enc) {
    case CK_ENCODING_ASCII:
        return 0;
    case CK_ENCODING_UTF16:
        if (u >= 0xd800 && u < 0xdc00 && i + 1 < n) {
            const uint32_t lo = ck__text_unit(enc, p, i + 1);
            if (lo >= 0xdc00 && lo < 0xe000) {
                *cp = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                return 2;
            }
        }
        if (u >= 0xd800 && u < 0xe000) {
            return 0;
        }
        *cp = u;
        return 1;
    case CK_ENCODING_UTF32:
        if (u > 0x10ffff || (u >= 0xd800 && u < 0xe000)) {
            return 0;
        }
        *cp = u;
        return 1;
    default: { /* utf8, none */
        const unsigned char *b = (const unsigned char *)p + i;
        const size_t left = n - i;
        uint32_t lo = 0x80, hi = 0xbf;
        size_t len;
        if (u < 0xc2) {
            return 0; /* a continuation byte, or the overlong C0 and C1 */
        } else if (u < 0xe0) {
            len = 2;
        } else if (u < 0xf0) {
            len = 3;
            lo = u == 0xe0 ? 0xa0 : 0x80; /* E0 80..9F: overlong */
            hi = u == 0xed ? 0x9f : 0xbf; /* ED A0..BF: surrogates */
        } else if (u < 0xf5) {
            len = 4;
            lo = u == 0xf0 ? 0x90 : 0x80; /* F0 80..8F: overlong */
            hi = u == 0xf4 ? 0x8f : 0xbf; /* F4 90..: above U+10FFFF */
        } else {
            return 0;
        }
        if (left < len || b[1] < lo || b[1] > hi) {
            return 0;
        }
        uint32_t c = u & (0x7fu >> len);
        for (size_t k = 1; k < len; k++) {
            if (k > 1 && (b[k] & 0xc0) != 0x80) {
                return 0;
            }
            c = (c << 6) | (b[k] & 0x3fu);
        }
        *cp = c;
        return len;
    }
    }
}

/* Units cp takes in enc; 0 when enc cannot hold it (ascii above 0x7f). */
static inline size_t ck__text_units_of(int enc, uint32_t cp) {
    switch (enc) {
    case CK_ENCODING_ASCII: return cp < 0x80 ? 1 : 0;
    case CK_ENCODING_UTF16: return cp < 0x10000 ? 1 : 2;
    case CK_ENCODING_UTF32: return 1;
    default: return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }
}

/* Writes cp (which enc can hold) at p; returns the units written. */
static inline size_t ck__text_encode(int enc, uint32_t cp, char *p) {
    if (enc == CK_ENCODING_UTF32) {
        memcpy(p, &cp, 4);
        return 1;
    }
    if (enc == CK_ENCODING_UTF16) {
        if (cp < 0x10000) {
            const uint16_t u = (uint16_t)cp;
            memcpy(p, &u, 2);
            return 1;
        }
        const uint16_t pair[2] = {(uint16_t)(0xd800 + ((cp - 0x10000) >> 10)),
                                  (uint16_t)(0xdc00 + ((cp - 0x10000) & 0x3ff))};
        memcpy(p, pair, 4);
        return 2;
    }
    unsigned char *b = (unsigned char *)p;
    if (cp < 0x80) {
        b[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        b[0] = (unsigned char)(0xc0 | (cp >> 6));
        b[1] = (unsigned char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        b[0] = (unsigned char)(0xe0 | (cp >> 12));
        b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        b[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    b[0] = (unsigned char)(0xf0 | (cp >> 18));
    b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
    b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
    b[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

/* The units of a fixed text of n units without its NUL padding (trailing zero units). */
static inline size_t ck__text_unpadded(int enc, const char *p, size_t n) {
    while (n > 0 && ck__text_unit(enc, p, n - 1) == 0) {
        n--;
    }
    return n;
}

/* ASCII chars s[0..n) into n code units of `unit` bytes (1, 2 or 4) at dst, then NUL units
 * up to `units` (a fixed text's padding); memcpy per unit: dst at any alignment. */
static inline void ck__text_widen_ascii(char *dst, const char *s, size_t n, size_t units,
                                        size_t unit) {
    if (unit == 1) {
        memcpy(dst, s, n);
    } else if (unit == 2) {
        for (size_t i = 0; i < n; i++) {
            const uint16_t u = (unsigned char)s[i];
            memcpy(dst + 2 * i, &u, 2);
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            const uint32_t u = (unsigned char)s[i];
            memcpy(dst + 4 * i, &u, 4);
        }
    }
    memset(dst + n * unit, 0, (units - n) * unit);
}

#ifdef __cplusplus
}
#endif

#endif
