/* src/common/scalars.h (private): what the library asks of a scalar type, generated from the
 * one table (ckernel/scalar_types.h). By name, as constant expressions for the per-target
 * leaves and static tables: ck__id_<name>, ck__kind_<name>, ck__bits_<name>,
 * ck__exp_bits_<name>, ck__size_<name>, ck__part_size_<name>. By id, for the rest:
 * ck__scalar_info(id) and the kind predicates, which take any id (a non-scalar id is of no
 * kind). */
#ifndef CKERNEL_COMMON_SCALARS_H
#define CKERNEL_COMMON_SCALARS_H

#include <stdint.h>
#include <string.h>

#include "ckernel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ck__scalar_kind {
    CK__SCALAR_KIND_BOOL,
    CK__SCALAR_KIND_SIGNED,
    CK__SCALAR_KIND_UNSIGNED,
    CK__SCALAR_KIND_FLOAT,
    CK__SCALAR_KIND_COMPLEX
} ck__scalar_kind;

/* clang-format off */
#define CK__SCALAR_BY_NAME(E, n, part, psize, parts, kind, bits, exp, na, letters, npk)         \
    ck__id_##n = CK_TYPE_##E, ck__kind_##n = CK__SCALAR_KIND_##kind, ck__bits_##n = (bits),     \
    ck__exp_bits_##n = (exp), ck__size_##n = (psize) * (parts), ck__part_size_##n = (psize),
enum { CK_SCALAR_TABLE(CK__SCALAR_BY_NAME) };
/* clang-format on */

/* Loops over the rows by name: CK__SCALAR_EACH(X) is X(n) for each scalar, and
 * CK__SCALAR_EACH_WITH(X, D) is X(D, n). A pair loop nests the second in an X of the first,
 * where the table's macro is not expanded again (a macro never expands inside itself): it
 * is spelled CK__SCALAR_EACH_WITH_LATER(X, D) there, and the outer loop is wrapped in
 * CK__SCALAR_EXPAND(...), which expands the inner loops once the outer one is done. */
#define CK__SCALAR_EACH_ROW(X, E, n, ...) X(n)
#define CK__SCALAR_EACH(X) CK_SCALAR_TABLE_WITH(CK__SCALAR_EACH_ROW, X)
#define CK__SCALAR_UNPAREN(...) __VA_ARGS__
#define CK__SCALAR_APPLY(...) CK__SCALAR_APPLY_(__VA_ARGS__)
#define CK__SCALAR_APPLY_(X, D, S) X(D, S)
#define CK__SCALAR_EACH_WITH_ROW(XD, E, n, ...) CK__SCALAR_APPLY(CK__SCALAR_UNPAREN XD, n)
#define CK__SCALAR_EACH_WITH(X, D) CK_SCALAR_TABLE_WITH(CK__SCALAR_EACH_WITH_ROW, (X, D))
#define CK__SCALAR_EMPTY()
#define CK__SCALAR_EACH_WITH_INDIRECT() CK__SCALAR_EACH_WITH
#define CK__SCALAR_EACH_WITH_LATER(X, D)                                                    \
    CK__SCALAR_EACH_WITH_INDIRECT CK__SCALAR_EMPTY()()(X, D)
#define CK__SCALAR_EXPAND(...) __VA_ARGS__

/* The unsigned integer of a part's size, to hold its bits: CK__SCALAR_UINT_##part_size. */
#define CK__SCALAR_UINT_1 uint8_t
#define CK__SCALAR_UINT_2 uint16_t
#define CK__SCALAR_UINT_4 uint32_t
#define CK__SCALAR_UINT_8 uint64_t
/* The C float type of a complex part's size: CK__SCALAR_FLOAT_##part_size. */
#define CK__SCALAR_FLOAT_4 float
#define CK__SCALAR_FLOAT_8 double
/* The default quiet NaN of a float format: exponent all ones, the top significand bit. */
#define CK__SCALAR_QUIET_NAN(T, exp_bits, bits)                                             \
    ((T)(((((T)1 << (exp_bits)) - 1u) << ((bits) - 1)) | ((T)1 << ((bits) - 2))))

/* The NA bits are not here: ck__na_bytes (type_option.c) holds every NA as stored. */
typedef struct ck__scalar_facts {
    const char *letters;       /* its compact signature letters */
    unsigned char kind;        /* ck__scalar_kind */
    unsigned char bits;        /* magnitude bits or significand precision (the table's) */
    unsigned char exp_bits;    /* a float's or complex component's exponent bits, else 0 */
    unsigned char parts;       /* 1, or 2 for a complex */
    unsigned char part_size;   /* bytes of one part */
    char numpy;                /* NumPy's dtype kind, or 0 */
} ck__scalar_facts;

/* One row per scalar id (types/type.c). */
extern const ck__scalar_facts ck__scalar_facts_table[CK_NUM_SCALAR_TYPES];

static inline const ck__scalar_facts *ck__scalar_info(ck_type_id id) {
    return (unsigned)id < CK_NUM_SCALAR_TYPES ? &ck__scalar_facts_table[id] : (const ck__scalar_facts *)0;
}
static inline int ck__scalar_is(ck_type_id id, ck__scalar_kind kind) {
    return (unsigned)id < CK_NUM_SCALAR_TYPES && ck__scalar_facts_table[id].kind == kind;
}
/* A signed or unsigned integer (not bool). */
static inline int ck__scalar_is_integer(ck_type_id id) {
    return ck__scalar_is(id, CK__SCALAR_KIND_SIGNED) || ck__scalar_is(id, CK__SCALAR_KIND_UNSIGNED);
}
/* A real float (float16, float32, float64, ...). */
static inline int ck__scalar_is_float(ck_type_id id) {
    return ck__scalar_is(id, CK__SCALAR_KIND_FLOAT);
}
static inline int ck__scalar_is_complex(ck_type_id id) {
    return ck__scalar_is(id, CK__SCALAR_KIND_COMPLEX);
}
/* A float of 2-byte parts (float16, bfloat16): its arithmetic widens both operands to
 * float32 and rounds the result once, and its folds keep float32 lanes, so even a selected
 * value comes back converted (a signalling NaN quieted). */
static inline int ck__scalar_computes_in_float32(ck_type_id id) {
    return ck__scalar_is_float(id) && ck__scalar_facts_table[id].part_size < 4;
}
/* A real float or a complex: a type with NaN and infinities. */
static inline int ck__scalar_is_floating(ck_type_id id) {
    return ck__scalar_is_float(id) || ck__scalar_is_complex(id);
}

/* The low `size` bytes' worth of v (size 1, 2, 4 or 8) at dst as an integer of that width, in
 * the host's byte order: any integer (or bool) value, wrapped to its type's width. */
static inline void ck__store_int_bits(void *dst, uint64_t v, size_t size) {
    switch (size) {
    case 1: { const uint8_t x = (uint8_t)v; memcpy(dst, &x, 1); break; }
    case 2: { const uint16_t x = (uint16_t)v; memcpy(dst, &x, 2); break; }
    case 4: { const uint32_t x = (uint32_t)v; memcpy(dst, &x, 4); break; }
    default: memcpy(dst, &v, 8); break;
    }
}

/* Its inverse: the integer of `size` bytes at src, in the host's order, zero-extended. */
static inline uint64_t ck__load_int_bits(const void *src, size_t size) {
    switch (size) {
    case 1: { uint8_t x; memcpy(&x, src, 1); return x; }
    case 2: { uint16_t x; memcpy(&x, src, 2); return x; }
    case 4: { uint32_t x; memcpy(&x, src, 4); return x; }
    default: { uint64_t x; memcpy(&x, src, 8); return x; }
    }
}

#ifdef __cplusplus
}
#endif

#endif
