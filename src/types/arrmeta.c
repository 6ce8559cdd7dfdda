/* src/types/arrmeta.c: default construction (C order), copy and release of arrmeta, through
 * each kind's operations (type_internal.h): a level's arrmeta is followed by its element's,
 * a tuple's or struct's is its field offsets followed by each field's. */
#include <string.h>

#include "common/internal.h"
#include "types/type_internal.h"

int ck_arrmeta_default_construct(const ck_type *t, char *arrmeta, ck_memblock *blockref) {
    if (t == NULL || (arrmeta == NULL && t->arrmeta_size != 0)) {
        return ck_set_error(CK_ERR_INVALID, "ck_arrmeta_default_construct: %s is NULL",
                            t == NULL ? "the type" : "arrmeta");
    }
    ck__type_kind_of(t->id)->arrmeta_construct(t, arrmeta, blockref);
    return CK_OK;
}

void ck_arrmeta_copy(const ck_type *t, char *dst, const char *src) {
    if (t == NULL || t->arrmeta_size == 0) {
        return;
    }
    memcpy(dst, src, t->arrmeta_size);
    ck__arrmeta_incref(t, dst);
}

void ck__arrmeta_incref(const ck_type *t, char *arrmeta) {
    if (t->has_blockref) {
        ck__type_kind_of(t->id)->arrmeta_incref(t, arrmeta);
    }
}

void ck_arrmeta_release(const ck_type *t, char *arrmeta) {
    if (t == NULL || arrmeta == NULL || !t->has_blockref) {
        return;
    }
    ck__type_kind_of(t->id)->arrmeta_release(t, arrmeta);
}

void ck__arrmeta_extent(const ck_type *t, const char *arrmeta, intptr_t *lo, intptr_t *hi) {
    ck__type_kind_of(t->id)->extent(t, arrmeta, lo, hi);
}

/* [lo, hi) widened to take in [a, b) shifted by `by`; saturated when it overflows. */
void ck__extent_union(intptr_t *lo, intptr_t *hi, intptr_t a, intptr_t b, intptr_t by) {
    if (a == b) {
        return; /* nothing there */
    }
    intptr_t sa, sb;
    if (__builtin_add_overflow(a, by, &sa) || __builtin_add_overflow(b, by, &sb)) {
        *lo = INTPTR_MIN;
        *hi = INTPTR_MAX;
        return;
    }
    if (*lo == *hi) {
        *lo = sa;
        *hi = sb;
        return;
    }
    *lo = sa < *lo ? sa : *lo;
    *hi = sb > *hi ? sb : *hi;
}
