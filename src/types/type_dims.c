/* src/types/type_dims.c: the dimension kinds (fixed `N * T`, ragged `var * T`) and the
 * pointer kind (`pointer[T]`): their makers and their operations (type_internal.h). Each
 * has one element; its arrmeta is this level's struct followed by the element's. */
#include <stdalign.h>
#include <string.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "types/type_internal.h"

/* A level of kind `id` over `element` with the given data layout. */
static int make_level(ck_type_id id, const ck_type *element, intptr_t fixed_size,
                      size_t data_size, size_t data_alignment, ck_type **out) {
    ck_type *t = ck__type_alloc(id, 0);
    if (t == NULL) {
        return CK_ERR_NOMEM;
    }
    t->has_blockref = (uint8_t)(id != CK_TYPE_FIXED_DIM || element->has_blockref);
    t->depth = (uint8_t)(element->depth + 1);
    t->ndim = (uint8_t)(id == CK_TYPE_POINTER ? 0 : element->ndim + 1);
    t->fixed_size = fixed_size;
    t->data_size = data_size;
    t->data_alignment = data_alignment;
    t->arrmeta_size = ck__level_arrmeta_size(id) + element->arrmeta_size;
    ck_type_incref(element);
    t->element = element;
    *out = t;
    return CK_OK;
}

int ck_type_make_fixed_dim(intptr_t size, const ck_type *element, ck_type **out) {
    CK__RETURN_IF_ERROR(ck__type_check_part("ck_type_make_fixed_dim", element, out));
    if (size < 0) {
        return ck_set_error(CK_ERR_INVALID, "ck_type_make_fixed_dim: negative size %lld",
                            (long long)size);
    }
    size_t bytes;
    /* Strides and offsets are intptr_t: a value must be addressable by one. */
    if (ck__mul_overflow((size_t)size, element->data_size, &bytes) || bytes > INTPTR_MAX) {
        return ck_set_error(CK_ERR_INVALID,
                            "ck_type_make_fixed_dim: %lld elements of %zu bytes overflow the "
                            "largest data size (%lld bytes)",
                            (long long)size, element->data_size, (long long)INTPTR_MAX);
    }
    return make_level(CK_TYPE_FIXED_DIM, element, size, bytes, element->data_alignment, out);
}

int ck__type_over_dims(ck_type *inner, const intptr_t *size, int nd, ck_type **out) {
    ck_type *t = inner;
    for (int i = nd - 1; i >= 0; i--) {
        ck_type *outer = NULL;
        const int rc = size[i] < 0 ? ck_type_make_var_dim(t, &outer)
                                   : ck_type_make_fixed_dim(size[i], t, &outer);
        ck_type_decref(t);
        CK__RETURN_IF_ERROR(rc);
        t = outer;
    }
    *out = t;
    return CK_OK;
}

int ck_type_make_var_dim(const ck_type *element, ck_type **out) {
    CK__RETURN_IF_ERROR(ck__type_check_part("ck_type_make_var_dim", element, out));
    return make_level(CK_TYPE_VAR_DIM, element, -1, sizeof(ck_var_data), alignof(ck_var_data),
                      out);
}

int ck_type_make_pointer(const ck_type *target, ck_type **out) {
    CK__RETURN_IF_ERROR(ck__type_check_part("ck_type_make_pointer", target, out));
    return make_level(CK_TYPE_POINTER, target, -1, sizeof(char *), alignof(char *), out);
}

/* ---- operations ---- */

static void level_release(ck_type *t) {
    ck_type_decref(t->element);
}

static int level_equal(const ck_type *a, const ck_type *b) {
    return a->fixed_size == b->fixed_size && ck_type_equal(a->element, b->element);
}

static void fixed_format(const ck_type *t, ck__strbuf *out) {
    ck__strbuf_printf(out, "%lld * ", (long long)t->fixed_size);
    ck__type_kind_of(t->element->id)->format(t->element, out);
}

static void var_format(const ck_type *t, ck__strbuf *out) {
    ck__strbuf_puts(out, "var * ");
    ck__type_kind_of(t->element->id)->format(t->element, out);
}

static void pointer_format(const ck_type *t, ck__strbuf *out) {
    ck__strbuf_puts(out, "pointer[");
    ck__type_kind_of(t->element->id)->format(t->element, out);
    ck__strbuf_puts(out, "]");
}

static void element_construct(const ck_type *t, char *arrmeta, ck_memblock *blockref) {
    const ck_type *e = t->element;
    ck__type_kind_of(e->id)->arrmeta_construct(e, arrmeta + ck__level_arrmeta_size(t->id),
                                                blockref);
}

static void fixed_construct(const ck_type *t, char *arrmeta, ck_memblock *blockref) {
    const ck_fixed_dim_arrmeta m = {t->fixed_size, (intptr_t)t->element->data_size};
    memcpy(arrmeta, &m, sizeof m);
    element_construct(t, arrmeta, blockref);
}

static void var_construct(const ck_type *t, char *arrmeta, ck_memblock *blockref) {
    const ck_var_dim_arrmeta m = {blockref, (intptr_t)t->element->data_size, 0};
    ck_memblock_incref(blockref);
    memcpy(arrmeta, &m, sizeof m);
    element_construct(t, arrmeta, blockref);
}

static void pointer_construct(const ck_type *t, char *arrmeta, ck_memblock *blockref) {
    const ck_pointer_arrmeta m = {blockref, 0};
    ck_memblock_incref(blockref);
    memcpy(arrmeta, &m, sizeof m);
    element_construct(t, arrmeta, blockref);
}

/* The blockref of a var or pointer level's arrmeta, which both start with it. */
static ck_memblock **blockref_slot(char *arrmeta) {
    return &((ck_var_dim_arrmeta *)(void *)arrmeta)->blockref;
}

/* A fixed level holds no references of its own: only its element's. */
static void element_incref(const ck_type *t, char *arrmeta) {
    ck__arrmeta_incref(t->element, arrmeta + ck__level_arrmeta_size(t->id));
}

static void element_release(const ck_type *t, char *arrmeta) {
    ck_arrmeta_release(t->element, arrmeta + ck__level_arrmeta_size(t->id));
}

static void ref_incref(const ck_type *t, char *arrmeta) {
    ck_memblock_incref(*blockref_slot(arrmeta));
    element_incref(t, arrmeta);
}

static void ref_release_arrmeta(const ck_type *t, char *arrmeta) {
    ck_memblock **slot = blockref_slot(arrmeta);
    ck_memblock *b = *slot;
    *slot = NULL;
    ck_memblock_decref(b);
    element_release(t, arrmeta);
}

/* The first and the last element's extents: strides of any sign, elements of any shape. */
static void fixed_extent(const ck_type *t, const char *arrmeta, intptr_t *lo, intptr_t *hi) {
    ck_fixed_dim_arrmeta m;
    memcpy(&m, arrmeta, sizeof m);
    *lo = *hi = 0;
    if (m.dim_size <= 0) {
        return;
    }
    intptr_t elo, ehi, last;
    ck__arrmeta_extent(t->element, arrmeta + sizeof m, &elo, &ehi);
    ck__extent_union(lo, hi, elo, ehi, 0);
    if (__builtin_mul_overflow(m.dim_size - 1, m.stride, &last)) {
        *lo = INTPTR_MIN;
        *hi = INTPTR_MAX;
        return;
    }
    ck__extent_union(lo, hi, elo, ehi, last);
}

const ck__type_kind ck__fixed_dim_kind_ops = {level_release,         level_equal,
                                              fixed_format,          fixed_construct,
                                              element_incref,        element_release,
                                              fixed_extent};
const ck__type_kind ck__var_dim_kind_ops = {level_release, level_equal,         var_format,
                                            var_construct, ref_incref,          ref_release_arrmeta,
                                            ck__slot_extent};
const ck__type_kind ck__pointer_kind_ops = {level_release,     level_equal, pointer_format,
                                            pointer_construct, ref_incref,  ref_release_arrmeta,
                                            ck__slot_extent};
