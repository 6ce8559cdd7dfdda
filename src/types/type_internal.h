/* src/types/type_internal.h: the ck_type struct and helpers shared by the types layer and
 * the kernels that walk types (never installed). */
#ifndef CKERNEL_TYPE_INTERNAL_H
#define CKERNEL_TYPE_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ckernel/arrmeta.h"
#include "ckernel/types.h"

struct ck_type {
    atomic_size_t refcount; /* unused (never touched) for static scalars */
    ck_type_id id;
    uint8_t is_static;
    uint8_t has_blockref; /* a var dim or pointer somewhere inside */
    uint8_t depth;        /* dimension + pointer levels, <= CK_TYPE_MAX_DEPTH */
    uint8_t ndim;         /* leading fixed/var dims */
    intptr_t fixed_size;  /* N of N * T, else -1 */
    size_t data_size;     /* always <= INTPTR_MAX */
    size_t data_alignment;
    size_t arrmeta_size;
    const ck_type *element; /* owned reference; NULL for scalars */
};

/* Size of one level's arrmeta struct (0 for scalars). */
static inline size_t ck__level_arrmeta_size(ck_type_id id) {
    switch (id) {
    case CK_TYPE_FIXED_DIM:
        return sizeof(ck_fixed_dim_arrmeta);
    case CK_TYPE_VAR_DIM:
        return sizeof(ck_var_dim_arrmeta);
    case CK_TYPE_POINTER:
        return sizeof(ck_pointer_arrmeta);
    default:
        return 0;
    }
}

static inline int ck__id_is_scalar(ck_type_id id) {
    return (unsigned)id < CK_NUM_SCALAR_TYPES;
}

/* The canonical spelling of a scalar id (also ck_type_id_name). */
const char *ck__scalar_name(ck_type_id id);

#endif
