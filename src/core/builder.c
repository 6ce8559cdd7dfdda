/* src/core/builder.c: ck_builder, the growable zero-initialised kernel buffer. */
#include <string.h>

#include "ckernel/builder.h"
#include "common/internal.h"

void ck_builder_init(ck_builder *b) {
    b->heap = NULL;
    b->capacity = CK_BUILDER_INLINE_BYTES;
    memset(b->inline_buf, 0, sizeof b->inline_buf);
}

void ck_builder_destroy(ck_builder *b) {
    /* The root destructor tears down the whole tree; an unbuilt root is all zeros. */
    ck_prefix_destroy(ck_builder_root(b));
    ck__free(b->heap);
    ck_builder_init(b);
}

void ck_builder_reset(ck_builder *b) {
    ck_builder_destroy(b);
}

/* Grows to at least `need` bytes: 1.5x steps, rounded to the allocator's size class so the
 * slack of the class is used, new tail zeroed. Leaves the builder unchanged on failure. */
static int ck__builder_grow(ck_builder *b, size_t need) {
    if (need <= b->capacity) {
        return CK_OK;
    }
    size_t want = b->capacity + b->capacity / 2;
    if (want < need) {
        want = need;
    }
    if (want > SIZE_MAX - 15) {
        return ck_set_error(CK_ERR_NOMEM, "ck_builder: a kernel of %zu bytes cannot be allocated",
                            need);
    }
    want = ck__good_size((want + 15) & ~(size_t)15);
    char *p;
    if (b->heap == NULL) {
        p = (char *)ck__malloc(want);
        if (p != NULL) {
            memcpy(p, b->inline_buf, CK_BUILDER_INLINE_BYTES);
        }
    } else {
        p = (char *)ck__realloc(b->heap, want);
    }
    if (p == NULL) {
        return ck__nomem_error("ck_builder: cannot grow the kernel buffer to %zu bytes",
                            want);
    }
    memset(p + b->capacity, 0, want - b->capacity);
    b->heap = p;
    b->capacity = want;
    return CK_OK;
}

int ck_builder_reserve(ck_builder *b, size_t end) {
    size_t need;
    if (ck__add_overflow(end, sizeof(ck_prefix), &need)) {
        return ck_set_error(CK_ERR_NOMEM, "ck_builder: a kernel of %zu bytes cannot be allocated",
                            end);
    }
    return ck__builder_grow(b, need);
}

int ck_builder_reserve_leaf(ck_builder *b, size_t end) {
    return ck__builder_grow(b, end);
}
