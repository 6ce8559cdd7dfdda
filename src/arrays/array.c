/* src/arrays/array.c: the ck_array container: construction (C order, zero-filled, one arena
 * for var dims and pointers), accessors and release. */
#include <string.h>

#include "common/internal.h"
#include "arrays/array_internal.h"

/* The header is padded so the arrmeta after it is aligned for intptr_t and pointers. */
#define CK__ARRAY_HEAD ((sizeof(struct ck_array) + 15) & ~(size_t)15)

/* Whether a pointer is reachable from t through fixed dims and fields only (its targets
 * then belong to the fixed shape and ck_array_new allocates them). */
static int ck__pointer_through_fixed(const ck_type *t) {
    while (t->id == CK_TYPE_FIXED_DIM) {
        t = t->element;
    }
    if (ck__is_fields(t->id)) {
        for (size_t i = 0; i < t->nfields; i++) {
            if (ck__pointer_through_fixed(t->fields[i])) {
                return 1;
            }
        }
        return 0;
    }
    return t->id == CK_TYPE_POINTER;
}

static int ck__alloc_pointees(const ck_type *t, const char *arrmeta, char *data) {
    if (t->id == CK_TYPE_FIXED_DIM) {
        const ck_fixed_dim_arrmeta *m = (const ck_fixed_dim_arrmeta *)(const void *)arrmeta;
        for (intptr_t i = 0; i < m->dim_size; i++) {
            CK__RETURN_IF_ERROR(
                ck__alloc_pointees(t->element, arrmeta + sizeof *m, data + i * m->stride));
        }
        return CK_OK;
    }
    if (ck__is_fields(t->id)) {
        for (size_t i = 0; i < t->nfields; i++) {
            if (ck__pointer_through_fixed(t->fields[i])) {
                intptr_t off;
                memcpy(&off, arrmeta + i * sizeof off, sizeof off);
                CK__RETURN_IF_ERROR(ck__alloc_pointees(t->fields[i],
                                                      arrmeta + t->arrmeta_offsets[i], data + off));
            }
        }
        return CK_OK;
    }
    if (t->id != CK_TYPE_POINTER) {
        return CK_OK;
    }
    const ck_pointer_arrmeta *m = (const ck_pointer_arrmeta *)(const void *)arrmeta;
    const ck_type *target = t->element;
    char *p;
    CK__RETURN_IF_ERROR(ck_arena_alloc(m->blockref, target->data_size, target->data_alignment, &p));
    memcpy(data, &p, sizeof p); /* offset is 0 in default-constructed arrmeta */
    if (!ck__pointer_through_fixed(target)) {
        return CK_OK;
    }
    return ck__alloc_pointees(target, arrmeta + sizeof *m, p);
}

/* A zeroed container for t with its own reference to t, its arrmeta right behind it, no
 * data yet; NULL (message set) when out of memory. */
static ck_array *ck__array_alloc(const ck_type *t) {
    ck_array *a = (ck_array *)ck__calloc(1, CK__ARRAY_HEAD + t->arrmeta_size);
    if (a == NULL) {
        ck__nomem_error("out of memory making an array");
        return NULL;
    }
    ck_type_incref(t);
    a->type = t;
    a->arrmeta = (char *)a + CK__ARRAY_HEAD;
    return a;
}

int ck__array_create(const ck_type *t, int pointees, size_t arena_hint, ck_array **out) {
    *out = NULL;
    ck_array *a = ck__array_alloc(t);
    if (a == NULL) {
        return CK_ERR_NOMEM;
    }
    int rc = CK_OK;
    ck_memblock *arena = NULL;
    if (t->has_blockref) {
        rc = ck_arena_new(arena_hint, &arena);
    }
    if (rc == CK_OK) {
        /* The arrmeta takes its own references; ours goes right after. */
        rc = ck_arrmeta_default_construct(t, a->arrmeta, arena);
        ck_memblock_decref(arena);
    }
    if (rc == CK_OK) {
        rc = ck_memblock_new_data(t->data_size, t->data_alignment, &a->data_block);
    }
    if (rc == CK_OK) {
        a->data = ck_memblock_data(a->data_block);
        if (pointees && t->has_blockref && ck__pointer_through_fixed(t)) {
            rc = ck__alloc_pointees(t, a->arrmeta, a->data);
        }
    }
    if (rc != CK_OK) {
        ck_array_free(a);
        return rc;
    }
    *out = a;
    return CK_OK;
}

int ck_array_new(const ck_type *t, ck_array **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_array_new: out is NULL");
    }
    *out = NULL;
    if (t == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_array_new: the type is NULL");
    }
    return ck__array_create(t, 1, 0, out);
}

/* The fixed dims of host arrmeta must agree with the type, as in ck_make_assign; checked here
 * too so that a wrong view is refused when it is made, not when it is first used. */
static int ck__check_host_arrmeta(const ck_type *t, const char *arrmeta) {
    for (int dim = 0; t->id == CK_TYPE_FIXED_DIM; dim++, t = t->element) {
        const ck_fixed_dim_arrmeta *m = (const ck_fixed_dim_arrmeta *)(const void *)arrmeta;
        if (m->dim_size != t->fixed_size) {
            return ck_set_error(CK_ERR_INVALID,
                                "ck_array_wrap: dimension %d of the arrmeta has size %td, the "
                                "type says %td",
                                dim, m->dim_size, t->fixed_size);
        }
        arrmeta += sizeof *m;
    }
    return CK_OK;
}

int ck_array_wrap(const ck_type *t, const char *arrmeta, char *data, ck_memblock *owner,
                  ck_array **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_array_wrap: out is NULL");
    }
    *out = NULL;
    if (t == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_array_wrap: the type is NULL");
    }
    if (data == NULL && t->data_size != 0) {
        return ck_set_error(CK_ERR_INVALID,
                            "ck_array_wrap: NULL data for a type of %zu bytes", t->data_size);
    }
    if (arrmeta != NULL) {
        CK__RETURN_IF_ERROR(ck__check_host_arrmeta(t, arrmeta));
    }
    ck_array *a = ck__array_alloc(t);
    if (a == NULL) {
        return CK_ERR_NOMEM;
    }
    if (arrmeta != NULL) {
        ck_arrmeta_copy(t, a->arrmeta, arrmeta);
    } else {
        const int rc = ck_arrmeta_default_construct(t, a->arrmeta, NULL);
        if (rc != CK_OK) {
            ck_array_free(a);
            return rc;
        }
    }
    ck_memblock_incref(owner);
    a->data_block = owner;
    a->data = data;
    *out = a;
    return CK_OK;
}

void ck_array_free(ck_array *a) {
    if (a == NULL) {
        return;
    }
    ck_arrmeta_release(a->type, a->arrmeta);
    ck_memblock_decref(a->data_block);
    ck_type_decref(a->type);
    ck__free(a);
}

const ck_type *ck_array_type(const ck_array *a) {
    return a->type;
}

char *ck_array_arrmeta(const ck_array *a) {
    return a->arrmeta;
}

char *ck_array_data(const ck_array *a) {
    return a->data;
}
