/* ckernel/builder.h: ck_builder, the growable buffer a ckernel is built in.
 * It starts with a 128-byte inline buffer (no heap allocation for small kernels), holds no
 * pointer to itself (so it may be moved with memcpy), and hands out zeroed memory only.
 * Sizes are absolute end offsets: reserve(b, end) makes room for bytes [0, end) plus a
 * zeroed child prefix after them; reserve_leaf(b, end) for [0, end) only. */
#ifndef CKERNEL_BUILDER_H
#define CKERNEL_BUILDER_H

#include <stddef.h>

#include "ckernel/export.h"
#include "ckernel/kernel.h"

CK_BEGIN_DECLS

#define CK_BUILDER_INLINE_BYTES 128

#ifdef __cplusplus
#  define CK__ALIGNAS(n) alignas(n)
#else
#  define CK__ALIGNAS(n) _Alignas(n)
#endif

typedef struct ck_builder { /* fields private by convention: use the functions below */
    char *heap;      /* NULL while the inline buffer is in use */
    size_t capacity; /* usable bytes of the buffer in use */
    CK__ALIGNAS(16) char inline_buf[CK_BUILDER_INLINE_BYTES];
} ck_builder;

/* Makes an empty builder (inline, zeroed). Never fails. */
CK_EXTERN void ck_builder_init(ck_builder *b);
/* Runs the root kernel's destructor (which destroys its children), frees the heap buffer,
 * and leaves the builder empty and initialised (so destroy twice is harmless). */
CK_EXTERN void ck_builder_destroy(ck_builder *b);
/* destroy + init: ready to build another kernel; keeps nothing of the old one. */
CK_EXTERN void ck_builder_reset(ck_builder *b);
/* Capacity >= end + sizeof(ck_prefix). On failure (CK_ERR_NOMEM) the builder is unchanged. */
CK_EXTERN int ck_builder_reserve(ck_builder *b, size_t end);
/* Capacity >= end, for a leaf that has no child. */
CK_EXTERN int ck_builder_reserve_leaf(ck_builder *b, size_t end);

static inline char *ck_builder_data(ck_builder *b) {
    return b->heap != NULL ? b->heap : b->inline_buf;
}
/* Pointer to `offset`; valid until the next reserve call (the buffer may move). */
static inline void *ck_builder_at(ck_builder *b, size_t offset) {
    return ck_builder_data(b) + offset;
}
static inline ck_prefix *ck_builder_root(ck_builder *b) {
    return (ck_prefix *)ck_builder_data(b);
}
static inline size_t ck_builder_capacity(const ck_builder *b) {
    return b->capacity;
}
static inline int ck_builder_is_inline(const ck_builder *b) {
    return b->heap == NULL;
}

CK_END_DECLS

#endif
