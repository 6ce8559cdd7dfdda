/* src/arrays/memblock.c: reference counting of memory blocks, and the data and external
 * kinds. The arena kind lives in arena.c. */
#include <stdint.h>
#include <string.h>

#include "common/internal.h"
#include "arrays/memblock_internal.h"

/* Header and data share one allocation; the data starts at the first aligned address
 * after the header, whatever alignment the installed allocator gives. */
typedef struct ck__data_block {
    ck_memblock base;
    char *data;
    size_t size;
} ck__data_block;

typedef struct ck__external_block {
    ck_memblock base;
    char *data;
    size_t size;
    void (*release)(void *ctx);
    void *ctx;
} ck__external_block;

void ck_memblock_incref(ck_memblock *b) {
    if (b != NULL) {
        atomic_fetch_add_explicit(&b->refcount, 1, memory_order_relaxed);
    }
}

void ck_memblock_decref(ck_memblock *b) {
    if (b == NULL || atomic_fetch_sub_explicit(&b->refcount, 1, memory_order_release) != 1) {
        return;
    }
    atomic_thread_fence(memory_order_acquire);
    switch (b->kind) {
    case CK_MEMBLOCK_ARENA:
        ck__arena_destroy(b);
        break;
    case CK_MEMBLOCK_EXTERNAL: {
        ck__external_block *e = (ck__external_block *)b;
        if (e->release != NULL) {
            e->release(e->ctx);
        }
        ck__free(e);
        break;
    }
    default:
        ck__free(b);
        break;
    }
}

ck_memblock_kind ck_memblock_get_kind(const ck_memblock *b) {
    return b->kind;
}

int ck_memblock_new_data(size_t size, size_t alignment, ck_memblock **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_memblock_new_data: out is NULL");
    }
    *out = NULL;
    if (!ck__is_pow2(alignment) || alignment > CK_MEMBLOCK_MAX_ALIGNMENT) {
        return ck_set_error(CK_ERR_INVALID,
                            "ck_memblock_new_data: alignment %zu is not a power of two up to %d",
                            alignment, CK_MEMBLOCK_MAX_ALIGNMENT);
    }
    size_t total;
    if (ck__add_overflow(sizeof(ck__data_block) + alignment - 1, size, &total)) {
        return ck_set_error(CK_ERR_NOMEM, "ck_memblock_new_data: %zu bytes cannot be allocated",
                            size);
    }
    ck__data_block *b = (ck__data_block *)ck__calloc(1, total);
    if (b == NULL) {
        return ck__nomem_error("out of memory allocating %zu bytes of array data",
                            size);
    }
    atomic_init(&b->base.refcount, 1);
    b->base.kind = CK_MEMBLOCK_DATA;
    char *first = (char *)(b + 1);
    size_t pad = (size_t)(-(uintptr_t)first & (uintptr_t)(alignment - 1));
    b->data = first + pad;
    b->size = size;
    *out = &b->base;
    return CK_OK;
}

int ck_memblock_new_external(char *data, size_t size, void (*release)(void *ctx), void *ctx,
                             ck_memblock **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_memblock_new_external: out is NULL");
    }
    *out = NULL;
    ck__external_block *b = (ck__external_block *)ck__malloc(sizeof *b);
    if (b == NULL) {
        return ck__nomem_error("out of memory making an external memory block");
    }
    atomic_init(&b->base.refcount, 1);
    b->base.kind = CK_MEMBLOCK_EXTERNAL;
    b->data = data;
    b->size = size;
    b->release = release;
    b->ctx = ctx;
    *out = &b->base;
    return CK_OK;
}

char *ck_memblock_data(const ck_memblock *b) {
    switch (b->kind) {
    case CK_MEMBLOCK_DATA:
        return ((const ck__data_block *)b)->data;
    case CK_MEMBLOCK_EXTERNAL:
        return ((const ck__external_block *)b)->data;
    default:
        return NULL;
    }
}

size_t ck_memblock_size(const ck_memblock *b) {
    switch (b->kind) {
    case CK_MEMBLOCK_DATA:
        return ((const ck__data_block *)b)->size;
    case CK_MEMBLOCK_EXTERNAL:
        return ((const ck__external_block *)b)->size;
    default:
        return 0;
    }
}
