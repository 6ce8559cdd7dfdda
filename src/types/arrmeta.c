/* src/types/arrmeta.c: default construction (C order), copy and release of arrmeta. Each
 * walks the type level by level; the arrmeta of a level is followed by its element's. */
#include <string.h>

#include "common/internal.h"
#include "types/type_internal.h"

int ck_arrmeta_default_construct(const ck_type *t, char *arrmeta, ck_memblock *blockref) {
    if (t == NULL || (arrmeta == NULL && t->arrmeta_size != 0)) {
        return ck_set_error(CK_ERR_INVALID, "ck_arrmeta_default_construct: %s is NULL",
                            t == NULL ? "the type" : "arrmeta");
    }
    for (; !ck__id_is_scalar(t->id); t = t->element) {
        const ck_type *e = t->element;
        switch (t->id) {
        case CK_TYPE_FIXED_DIM: {
            ck_fixed_dim_arrmeta m = {t->fixed_size, (intptr_t)e->data_size};
            memcpy(arrmeta, &m, sizeof m);
            break;
        }
        case CK_TYPE_VAR_DIM: {
            ck_var_dim_arrmeta m = {blockref, (intptr_t)e->data_size, 0};
            ck_memblock_incref(blockref);
            memcpy(arrmeta, &m, sizeof m);
            break;
        }
        default: {
            ck_pointer_arrmeta m = {blockref, 0};
            ck_memblock_incref(blockref);
            memcpy(arrmeta, &m, sizeof m);
            break;
        }
        }
        arrmeta += ck__level_arrmeta_size(t->id);
    }
    return CK_OK;
}

/* The blockref of a var or pointer level's arrmeta, which both start with it. */
static ck_memblock **ck__blockref_slot(char *arrmeta) {
    return &((ck_var_dim_arrmeta *)(void *)arrmeta)->blockref;
}

void ck_arrmeta_copy(const ck_type *t, char *dst, const char *src) {
    if (t == NULL || t->arrmeta_size == 0) {
        return;
    }
    memcpy(dst, src, t->arrmeta_size);
    if (!t->has_blockref) {
        return;
    }
    for (; !ck__id_is_scalar(t->id); t = t->element) {
        if (t->id != CK_TYPE_FIXED_DIM) {
            ck_memblock_incref(*ck__blockref_slot(dst));
        }
        dst += ck__level_arrmeta_size(t->id);
    }
}

void ck_arrmeta_release(const ck_type *t, char *arrmeta) {
    if (t == NULL || arrmeta == NULL || !t->has_blockref) {
        return;
    }
    for (; !ck__id_is_scalar(t->id); t = t->element) {
        if (t->id != CK_TYPE_FIXED_DIM) {
            ck_memblock **slot = ck__blockref_slot(arrmeta);
            ck_memblock *b = *slot;
            *slot = NULL;
            ck_memblock_decref(b);
        }
        arrmeta += ck__level_arrmeta_size(t->id);
    }
}
