/* src/core/leaf_families.h: the leaf families, one row per family of leaves (numbers, text,
 * datetimes, the reductions' steps): which value types each claims, the cast it makes where
 * the composition walk reaches a pair of them, and how its leaves are described. The walk
 * (builders/compose.c) and ck_kernel_describe (kinds/describe.c) consult the table instead
 * of testing type ids; each family's row lives in its folder's family.c. */
#ifndef CKERNEL_CORE_LEAF_FAMILIES_H
#define CKERNEL_CORE_LEAF_FAMILIES_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/builder.h"
#include "ckernel/eval.h"
#include "ckernel/kernel.h"
#include "ckernel/types.h"
#include "common/strbuf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The operands of a cast dst <- src where the walk reaches them. */
typedef struct ck__cast_operands {
    const ck_type *dst, *src;
    /* Their arrmeta, given to a pair where a family reads it (CK__FAMILY_READS_ARRMETA), else
     * NULL. */
    const char *dst_arrmeta, *src_arrmeta;
    ck_errmode mode;
    int refuse_na; /* the value of a checked ?dst: a value whose bits are the NA is refused */
} ck__cast_operands;

/* What the walk must know of a family's values. */
enum {
    /* Its leaves read their operands' arrmeta (a string's arena): the walk hands it to them,
     * never runs such values together into bytes, and never copies them as they are. */
    CK__FAMILY_READS_ARRMETA = 1u << 0,
    /* An option of its values has int64's NA (NaT is int64's minimum). */
    CK__FAMILY_NA_OF_INT64 = 1u << 1,
    /* A checked option of its values is checked by the family's leaf (refuse_na), not by the
     * option kernel. */
    CK__FAMILY_LEAF_REFUSES_NA = 1u << 2,
    /* Its errors name an element by the index of each enclosing dimension, so the walk does
     * not merge the dimensions above its values into one. */
    CK__FAMILY_NAMES_EACH_INDEX = 1u << 3
};

typedef struct ck__leaf_family {
    const char *name;
    unsigned traits; /* CK__FAMILY_* */
    /* The type ids of its values, one bit per id (CK__TYPE_ID_BIT); 0: it has none (the
     * reductions'). The lookups use the constants of CK__CLAIMS_<family>, its source. */
    uint64_t claims;
    /* The cast leaf dst <- src for a pair it claims (one side, at least, is its own). */
    int (*make_cast)(ck_builder *ckb, size_t *offset, const ck__cast_operands *ops,
                     ck_request req);
    /* 1 when its cast dst <- src can give the bits of dst's NA from a value (the option
     * kernel then checks the result). */
    int (*cast_can_give_na)(ck_type_id dst, ck_type_id src);
    /* As ck__<kind>_describe for a leaf (a bare prefix): writes what fn is and returns 1 when
     * it is one of the family's, else 0. NULL: its leaves are kernel kinds. */
    int (*leaf_describe)(const void *fn, ck__strbuf *out);
} ck__leaf_family;

/* The bit of a type id in a family's claims. */
#define CK__TYPE_ID_BIT(id) ((uint64_t)1 << (id))

/* Each family's traits and claims, as constants: the lookups below run at every level of
 * every build, and with constants they fold to a test of one immediate mask (a loop over
 * the rows cost the 1-element build 3 ns). A family's row takes them by
 * CK__LEAF_FAMILY_HEAD. */
#define CK__TRAITS_datetime CK__FAMILY_NA_OF_INT64
#define CK__CLAIMS_datetime (CK__TYPE_ID_BIT(CK_TYPE_DATETIME) | CK__TYPE_ID_BIT(CK_TYPE_TIMEDELTA))
#define CK__TRAITS_text                                                                     \
    (CK__FAMILY_READS_ARRMETA | CK__FAMILY_LEAF_REFUSES_NA | CK__FAMILY_NAMES_EACH_INDEX)
#define CK__CLAIMS_text                                                                     \
    (CK__TYPE_ID_BIT(CK_TYPE_STRING) | CK__TYPE_ID_BIT(CK_TYPE_BYTES) |                     \
     CK__TYPE_ID_BIT(CK_TYPE_FIXED_STRING) | CK__TYPE_ID_BIT(CK_TYPE_FIXED_BYTES))
#define CK__TRAITS_numeric 0u
#define CK__CLAIMS_numeric (CK__TYPE_ID_BIT(CK_NUM_SCALAR_TYPES) - 1) /* the scalar table */
#define CK__TRAITS_reduce 0u
#define CK__CLAIMS_reduce ((uint64_t)0) /* no values of its own */
#define CK__TRAITS_math 0u
#define CK__CLAIMS_math ((uint64_t)0) /* no values of its own */

/* The start of family f's row: its name, traits and claims. */
#define CK__LEAF_FAMILY_HEAD(f) #f, CK__TRAITS_##f, CK__CLAIMS_##f

/* The families, in the order a pair is claimed: the first that claims either type casts it
 * (a datetime beside text is the datetime family's: its fast leaf over the text cast). */
/* clang-format off */
#define CK__LEAF_FAMILY_LIST(X)                                                             \
    X(datetime) /* datetime64, timedelta64: leaves/datetime */                             \
    X(text)     /* string, bytes and their fixed kinds: leaves/text */                     \
    X(numeric)  /* the scalar table's types: leaves/numeric */                             \
    X(reduce)   /* the reductions' steps, no values of their own: leaves/reduce */       \
    X(math)     /* NumPy's other functions, no values of their own: leaves/math */
/* clang-format on */
#define CK__LEAF_FAMILY_DECLARE(f) extern const ck__leaf_family ck__##f##_family;
CK__LEAF_FAMILY_LIST(CK__LEAF_FAMILY_DECLARE)

/* The families in the list's order (leaf_families.c). */
#define CK__LEAF_FAMILY_COUNT(f) +1
#define CK__NUM_LEAF_FAMILIES (0 CK__LEAF_FAMILY_LIST(CK__LEAF_FAMILY_COUNT))
extern const ck__leaf_family *const ck__leaf_families[CK__NUM_LEAF_FAMILIES];

/* Every type id is below 64 (leaf_families.c asserts it), so the mask only keeps the shift
 * defined, at no test. */
static inline uint64_t ck__type_id_bit(ck_type_id id) {
    return CK__TYPE_ID_BIT((unsigned)id & 63u);
}
/* The family that casts dst <- src; NULL when no family claims either. */
#define CK__LEAF_FAMILY_IF_CLAIMED(f)                                                       \
    if ((bits & CK__CLAIMS_##f) != 0) {                                                     \
        return &ck__##f##_family;                                                           \
    }
static inline const ck__leaf_family *ck__leaf_family_of_pair(ck_type_id dst, ck_type_id src) {
    const uint64_t bits = ck__type_id_bit(dst) | ck__type_id_bit(src);
    CK__LEAF_FAMILY_LIST(CK__LEAF_FAMILY_IF_CLAIMED)
    return NULL;
}
/* The family whose value types include id; NULL for none (a dimension, a record, an
 * option, a pointer). */
static inline const ck__leaf_family *ck__leaf_family_of(ck_type_id id) {
    return ck__leaf_family_of_pair(id, id);
}
/* 1 when id's family has every trait of `traits` (a constant where it is called). */
#define CK__LEAF_FAMILY_IDS_WITH(f) | ((CK__TRAITS_##f & traits) == traits ? CK__CLAIMS_##f : 0)
static inline int ck__leaf_family_has(ck_type_id id, unsigned traits) {
    const uint64_t ids = (uint64_t)0 CK__LEAF_FAMILY_LIST(CK__LEAF_FAMILY_IDS_WITH);
    return (ids & ck__type_id_bit(id)) != 0;
}
/* Asks each family that describes leaves whether fn is one of its (as leaf_describe). */
int ck__leaf_families_describe(const void *fn, ck__strbuf *out);
/* ck__conversion_can_give_na(src, dst) in a family's argument order: a shared
 * cast_can_give_na. */
int ck__cast_of_values_can_give_na(ck_type_id dst, ck_type_id src);

#ifdef __cplusplus
}
#endif

#endif
