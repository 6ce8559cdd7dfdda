/* src/arrays/array_internal.h: the ck_array struct and the helpers shared by array.c and the
 * literal parser/printer (never installed). */
#ifndef CKERNEL_ARRAY_INTERNAL_H
#define CKERNEL_ARRAY_INTERNAL_H

#include "ckernel/array.h"
#include "ckernel/memblock.h"
#include "types/type_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ck_array {
    const ck_type *type;     /* owned reference */
    char *arrmeta;           /* type->arrmeta_size bytes, right after this struct */
    char *data;              /* inside data_block */
    ck_memblock *data_block; /* owns the fixed-size part of the data */
};

/* A zero-filled array of type t whose var/pointer arrmeta refers to a fresh arena (sized
 * by arena_hint, 0 for the default). `pointees` allocates targets of the pointers reachable
 * through fixed dims (ck_array_new); the literal parser passes 0 and allocates as it reads. */
int ck__array_create(const ck_type *t, int pointees, size_t arena_hint, ck_array **out);

#ifdef __cplusplus
}
#endif

#endif
