/* ckernel/memblock.h: memory blocks, the reference-counted owners of array storage.
 * Arrmeta of var dims and pointers refers to a memory block (its blockref) so that the
 * storage it points into stays alive as long as any arrmeta refers to it.
 *
 * Three kinds:
 *   data      one owned, zero-filled, aligned buffer (an array's fixed-size data).
 *   arena     storage for var-dim elements and pointer targets: many small zero-filled
 *             allocations, all freed together when the block dies. ck_arena_alloc is
 *             thread-safe and lock-free on its fast path (an atomic bump pointer; a lock
 *             is taken only to add a chunk), so parallel kernels may call it per row.
 *   external  memory owned by someone else (a host array library's buffer); a callback
 *             runs when the last reference goes away. */
#ifndef CKERNEL_MEMBLOCK_H
#define CKERNEL_MEMBLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/export.h"

CK_BEGIN_DECLS

typedef struct ck_memblock ck_memblock;

typedef enum ck_memblock_kind {
    CK_MEMBLOCK_DATA,
    CK_MEMBLOCK_ARENA,
    CK_MEMBLOCK_EXTERNAL
} ck_memblock_kind;

/* The largest alignment the data and arena kinds accept (a power of two). */
#define CK_MEMBLOCK_MAX_ALIGNMENT 4096

/* Reference counting (atomic); both accept NULL. The block is freed when the count drops
 * to zero. */
CK_EXTERN void ck_memblock_incref(ck_memblock *b);
CK_EXTERN void ck_memblock_decref(ck_memblock *b);
CK_EXTERN ck_memblock_kind ck_memblock_get_kind(const ck_memblock *b);

/* A data block of `size` zero-filled bytes aligned to `alignment` (a power of two up to
 * CK_MEMBLOCK_MAX_ALIGNMENT). Size 0 is fine: the data pointer is still valid and unique. */
CK_EXTERN int ck_memblock_new_data(size_t size, size_t alignment, ck_memblock **out);
/* Data pointer and size of a data or external block; NULL and 0 for an arena. */
CK_EXTERN char *ck_memblock_data(const ck_memblock *b);
CK_EXTERN size_t ck_memblock_size(const ck_memblock *b);

/* An external block over `data` (`size` bytes, not copied); `release(ctx)` is called once,
 * from whichever thread drops the last reference. release may be NULL. */
CK_EXTERN int ck_memblock_new_external(char *data, size_t size, void (*release)(void *ctx),
                                       void *ctx, ck_memblock **out);

/* An empty arena. `chunk_bytes` is the size of its first chunk (0 for the default, 4 KiB);
 * later chunks grow geometrically up to 1 MiB, and a request larger than a chunk gets a
 * chunk of its own. */
CK_EXTERN int ck_arena_new(size_t chunk_bytes, ck_memblock **out);
/* `size` zero-filled bytes aligned to `alignment` (a power of two up to
 * CK_MEMBLOCK_MAX_ALIGNMENT), valid until the arena is freed. Size 0 gives a valid,
 * aligned, non-NULL pointer (an empty var-dim row is allocated, not NULL). Safe to call from
 * many threads at once. CK_ERR_INVALID when `arena` is not an arena. */
CK_EXTERN int ck_arena_alloc(ck_memblock *arena, size_t size, size_t alignment, char **out);
/* Chunk bytes consumed by ck_arena_alloc so far, alignment padding included (a snapshot
 * when other threads are allocating). */
CK_EXTERN size_t ck_arena_bytes_used(const ck_memblock *arena);

CK_END_DECLS

#endif
