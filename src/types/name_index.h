/* src/types/name_index.h: the hashed index of a struct's field names (never installed): an
 * open-addressing table, linear probing, built once with the type (so threads read it
 * without locks) and, growing, by the datashape parser to find a duplicate name as it
 * reads. Names are NUL-terminated byte strings; the hash is SipHash-1-3 under a key drawn
 * once per process, so a datashape cannot be written to make names collide, and names whose
 * hashes are equal are still compared in full.
 *
 * A slot is 0 when empty, else (index + 1) << 32 | hash: the stored hash (32 bits) picks the
 * home slot and is compared before the name, and lets a table grow without rehashing. */
#ifndef CKERNEL_NAME_INDEX_H
#define CKERNEL_NAME_INDEX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Structs of more fields than this carry an index; smaller ones are scanned (a scan of up to
 * this many names is as fast as hashing one: docs/design.md §12). Their duplicates are found
 * with an index of 2 * this many slots on the stack. */
#define CK__NAME_INDEX_MIN_FIELDS 8

/* Where name i is: ptrs[i] when ptrs is set, else base + at[i] (the parser's names, one
 * buffer that moves as it grows). */
typedef struct ck__name_list {
    const char *const *ptrs;
    const char *base;
    const size_t *at;
} ck__name_list;

/* SipHash-c-d of len bytes under a 128-bit key (c rounds per word, d at the end); the
 * index uses c = 1, d = 3. */
uint64_t ck__siphash(const uint64_t key[2], const void *data, size_t len, int c, int d);
/* The index's hash of a name (its bytes before the NUL) under the process's key. */
uint32_t ck__name_hash(const char *name);

/* Slots of a table holding n names: a power of two at least 2n (load at most one half). */
size_t ck__name_index_slots(size_t n);
/* Index of the name equal to `name` (whose ck__name_hash is `hash`) in a table of `nslots`
 * slots over `names`, or -1. */
intptr_t ck__name_index_find(const uint64_t *slots, size_t nslots, const ck__name_list *names,
                             const char *name, uint32_t hash);
/* Adds name i (hash: its ck__name_hash) to a table with room for it: -1, or the index of an
 * equal name already there (and nothing is added). */
intptr_t ck__name_index_add(uint64_t *slots, size_t nslots, const ck__name_list *names, size_t i,
                            uint32_t hash);

/* A table that grows as names come (the parser's): in the struct up to
 * CK__NAME_INDEX_MIN_FIELDS names, then in ckernel memory, each size the one a struct of as
 * many names keeps (ck__name_index_slots), so the struct can take a copy. */
#define CK__NAME_SET_INLINE (2 * CK__NAME_INDEX_MIN_FIELDS)
typedef struct ck__name_set {
    uint64_t *slots;
    size_t nslots, n;
    uint64_t inline_slots[CK__NAME_SET_INLINE];
} ck__name_set;

void ck__name_set_init(ck__name_set *s);
/* Adds name i as ck__name_index_add does (*dup: -1 or the equal name's index), growing the
 * table first when it is half full; CK_ERR_NOMEM (message set) when it cannot grow. */
int ck__name_set_add(ck__name_set *s, const ck__name_list *names, size_t i, intptr_t *dup);
void ck__name_set_free(ck__name_set *s);

#ifdef __cplusplus
}
#endif

#endif
