/* src/arrays/memblock_internal.h: the memory block header shared by the block kinds (never
 * installed). Each kind's struct starts with a ck_memblock. */
#ifndef CKERNEL_MEMBLOCK_INTERNAL_H
#define CKERNEL_MEMBLOCK_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>

#include "ckernel/memblock.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ck_memblock {
    atomic_size_t refcount;
    ck_memblock_kind kind;
};

/* Frees an arena whose count reached zero (arena.c). */
void ck__arena_destroy(ck_memblock *arena);

static inline int ck__is_pow2(size_t x) {
    return x != 0 && (x & (x - 1)) == 0;
}

#ifdef __cplusplus
}
#endif

#endif
