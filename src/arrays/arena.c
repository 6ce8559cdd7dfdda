/* src/arrays/arena.c: the arena memory block, storage for var-dim elements and pointer
 * targets. Allocation is a lock-free bump pointer: a compare-and-swap on the current chunk's
 * `used` offset. Only adding a chunk takes the mutex, so threads filling ragged rows in
 * parallel contend on one atomic, not on a lock. Chunks are zero-filled when made and never
 * reused, so everything handed out is zero. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "common/internal.h"
#include "arrays/memblock_internal.h"

#define CK__ARENA_DEFAULT_CHUNK ((size_t)4096)
#define CK__ARENA_MAX_CHUNK ((size_t)1 << 20)

typedef struct ck__chunk {
    struct ck__chunk *next; /* every chunk of the arena, newest first */
    size_t capacity;
    atomic_size_t used;     /* bytes of data consumed, padding included */
    /* data follows */
} ck__chunk;

typedef struct ck__arena {
    ck_memblock base;
    _Atomic(ck__chunk *) current; /* the chunk being bumped; NULL before the first */
    pthread_mutex_t lock;         /* held to add a chunk; guards the fields below */
    ck__chunk *chunks;
    size_t next_chunk;            /* capacity of the next bump chunk */
} ck__arena;

static inline char *ck__chunk_data(ck__chunk *c) {
    return (char *)(c + 1);
}

/* Claims `size` bytes aligned to `alignment` in c; 0 when they do not fit. */
static int ck__chunk_try(ck__chunk *c, size_t size, size_t alignment, char **out) {
    char *data = ck__chunk_data(c);
    size_t used = atomic_load_explicit(&c->used, memory_order_relaxed);
    for (;;) {
        size_t pad = (size_t)(-((uintptr_t)data + used) & (uintptr_t)(alignment - 1));
        if (pad > c->capacity - used || size > c->capacity - used - pad) {
            return 0;
        }
        size_t begin = used + pad;
        /* Relaxed is enough: claims are disjoint, and the zeroed memory was published by
         * the release store of `current` that the caller acquired. */
        if (atomic_compare_exchange_weak_explicit(&c->used, &used, begin + size,
                                                  memory_order_relaxed, memory_order_relaxed)) {
            *out = data + begin;
            return 1;
        }
    }
}

static ck__chunk *ck__chunk_new(ck__arena *a, size_t capacity) {
    if (capacity > SIZE_MAX - sizeof(ck__chunk)) {
        return NULL;
    }
    ck__chunk *c = (ck__chunk *)ck__calloc(1, sizeof(ck__chunk) + capacity);
    if (c == NULL) {
        return NULL;
    }
    c->capacity = capacity;
    atomic_init(&c->used, 0);
    c->next = a->chunks;
    a->chunks = c;
    return c;
}

int ck_arena_new(size_t chunk_bytes, ck_memblock **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_arena_new: out is NULL");
    }
    *out = NULL;
    ck__arena *a = (ck__arena *)ck__calloc(1, sizeof *a);
    if (a == NULL) {
        return ck__nomem_error("out of memory making an arena");
    }
    if (pthread_mutex_init(&a->lock, NULL) != 0) {
        ck__free(a);
        return ck_set_error(CK_ERR_NOMEM, "ck_arena_new: cannot initialise a mutex");
    }
    atomic_init(&a->base.refcount, 1);
    a->base.kind = CK_MEMBLOCK_ARENA;
    atomic_init(&a->current, NULL);
    a->next_chunk = chunk_bytes != 0 ? chunk_bytes : CK__ARENA_DEFAULT_CHUNK;
    *out = &a->base;
    return CK_OK;
}

void ck__arena_destroy(ck_memblock *arena) {
    ck__arena *a = (ck__arena *)arena;
    ck__chunk *c = a->chunks;
    while (c != NULL) {
        ck__chunk *next = c->next;
        ck__free(c);
        c = next;
    }
    pthread_mutex_destroy(&a->lock);
    ck__free(a);
}

/* Under the lock: retry the current chunk (another thread may have replaced it), else give
 * a large request a chunk of its own (so it does not waste the current chunk's tail), else
 * start a new bump chunk, claim from it, and only then publish it. */
static int ck__arena_alloc_slow(ck__arena *a, size_t size, size_t alignment, char **out) {
    size_t need;
    if (ck__add_overflow(size, alignment - 1, &need) ||
        need > SIZE_MAX - sizeof(ck__chunk)) {
        return ck_set_error(CK_ERR_NOMEM, "ck_arena_alloc: %zu bytes cannot be allocated", size);
    }
    pthread_mutex_lock(&a->lock);
    ck__chunk *c = atomic_load_explicit(&a->current, memory_order_acquire);
    if (c != NULL && ck__chunk_try(c, size, alignment, out)) {
        pthread_mutex_unlock(&a->lock);
        return CK_OK;
    }
    int rc = CK_OK;
    if (need > a->next_chunk / 4) {
        ck__chunk *big = ck__chunk_new(a, need);
        if (big == NULL) {
            rc = ck__nomem_error("out of memory allocating %zu bytes from an arena",
                              size);
        } else {
            ck__chunk_try(big, size, alignment, out); /* fits by construction */
        }
    } else {
        ck__chunk *fresh = ck__chunk_new(a, a->next_chunk);
        if (fresh == NULL) {
            rc = ck__nomem_error("out of memory adding a %zu-byte arena chunk",
                              a->next_chunk);
        } else {
            ck__chunk_try(fresh, size, alignment, out); /* need <= next_chunk / 4 */
            atomic_store_explicit(&a->current, fresh, memory_order_release);
            if (a->next_chunk < CK__ARENA_MAX_CHUNK) {
                a->next_chunk *= 2;
            }
        }
    }
    pthread_mutex_unlock(&a->lock);
    return rc;
}

int ck_arena_alloc(ck_memblock *arena, size_t size, size_t alignment, char **out) {
    if (arena == NULL || out == NULL || arena->kind != CK_MEMBLOCK_ARENA) {
        return ck_set_error(CK_ERR_INVALID, "ck_arena_alloc: %s",
                            arena == NULL ? "the arena is NULL"
                            : out == NULL ? "out is NULL"
                                          : "the memory block is not an arena");
    }
    if (!ck__is_pow2(alignment) || alignment > CK_MEMBLOCK_MAX_ALIGNMENT) {
        return ck_set_error(CK_ERR_INVALID,
                            "ck_arena_alloc: alignment %zu is not a power of two up to %d",
                            alignment, CK_MEMBLOCK_MAX_ALIGNMENT);
    }
    ck__arena *a = (ck__arena *)arena;
    ck__chunk *c = atomic_load_explicit(&a->current, memory_order_acquire);
    if (CK__LIKELY(c != NULL) && ck__chunk_try(c, size, alignment, out)) {
        return CK_OK;
    }
    return ck__arena_alloc_slow(a, size, alignment, out);
}

size_t ck_arena_bytes_used(const ck_memblock *arena) {
    if (arena == NULL || arena->kind != CK_MEMBLOCK_ARENA) {
        return 0;
    }
    ck__arena *a = (ck__arena *)(uintptr_t)arena;
    size_t total = 0;
    pthread_mutex_lock(&a->lock);
    for (ck__chunk *c = a->chunks; c != NULL; c = c->next) {
        total += atomic_load_explicit(&c->used, memory_order_relaxed);
    }
    pthread_mutex_unlock(&a->lock);
    return total;
}
