/* src/types/type.c: the static scalar types, the makers of dimension and pointer types,
 * reference counting and the queries of ckernel/types.h. */
#include <stdalign.h>
#include <string.h>

#include "common/internal.h"
#include "types/type_internal.h"

#define CK__SCALAR(id_, size_, align_)                                                  \
    { 0, id_, 1, 0, 0, 0, -1, size_, align_, 0, NULL }

/* Complex alignment is the component's, as in C's _Complex and NumPy. */
static ck_type ck__scalars[CK_NUM_SCALAR_TYPES] = {
    CK__SCALAR(CK_TYPE_BOOL, 1, 1),
    CK__SCALAR(CK_TYPE_INT8, 1, 1),
    CK__SCALAR(CK_TYPE_INT16, 2, alignof(int16_t)),
    CK__SCALAR(CK_TYPE_INT32, 4, alignof(int32_t)),
    CK__SCALAR(CK_TYPE_INT64, 8, alignof(int64_t)),
    CK__SCALAR(CK_TYPE_UINT8, 1, 1),
    CK__SCALAR(CK_TYPE_UINT16, 2, alignof(uint16_t)),
    CK__SCALAR(CK_TYPE_UINT32, 4, alignof(uint32_t)),
    CK__SCALAR(CK_TYPE_UINT64, 8, alignof(uint64_t)),
    CK__SCALAR(CK_TYPE_FLOAT16, 2, alignof(uint16_t)),
    CK__SCALAR(CK_TYPE_FLOAT32, 4, alignof(float)),
    CK__SCALAR(CK_TYPE_FLOAT64, 8, alignof(double)),
    CK__SCALAR(CK_TYPE_COMPLEX64, 8, alignof(float)),
    CK__SCALAR(CK_TYPE_COMPLEX128, 16, alignof(double)),
};

static const char *const ck__names[] = {
    "bool",    "int8",    "int16",   "int32",     "int64",      "uint8",     "uint16",
    "uint32",  "uint64",  "float16", "float32",   "float64",    "complex64", "complex128",
    "fixed_dim", "var_dim", "pointer"};

const char *ck__scalar_name(ck_type_id id) {
    return ck__id_is_scalar(id) ? ck__names[id] : NULL;
}

const char *ck_type_id_name(ck_type_id id) {
    return (unsigned)id < CK_ARRAY_SIZE(ck__names) ? ck__names[id] : "unknown";
}

const ck_type *ck_type_scalar(ck_type_id id) {
    return ck__id_is_scalar(id) ? &ck__scalars[id] : NULL;
}

/* Reference counts are mutable state of an otherwise immutable object. */
static inline ck_type *ck__type_mut(const ck_type *t) {
    return (ck_type *)(uintptr_t)t;
}

void ck_type_incref(const ck_type *t) {
    if (t != NULL && !t->is_static) {
        atomic_fetch_add_explicit(&ck__type_mut(t)->refcount, 1, memory_order_relaxed);
    }
}

void ck_type_decref(const ck_type *t) {
    /* A loop, not recursion: the chain of elements is released one level at a time. */
    while (t != NULL && !t->is_static) {
        ck_type *m = ck__type_mut(t);
        if (atomic_fetch_sub_explicit(&m->refcount, 1, memory_order_release) != 1) {
            return;
        }
        atomic_thread_fence(memory_order_acquire);
        const ck_type *next = m->element;
        ck__free(m);
        t = next;
    }
}

/* Allocates a level of kind `id` over `element` with the given data layout. */
static int ck__make_level(ck_type_id id, const ck_type *element, intptr_t fixed_size,
                          size_t data_size, size_t data_alignment, ck_type **out) {
    ck_type *t = (ck_type *)ck__malloc(sizeof *t);
    if (t == NULL) {
        return ck__nomem_error("out of memory making a %s type", ck_type_id_name(id));
    }
    atomic_init(&t->refcount, 1);
    t->id = id;
    t->is_static = 0;
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

static int ck__check_element(const char *what, const ck_type *element, ck_type **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "%s: out is NULL", what);
    }
    *out = NULL;
    if (element == NULL) {
        return ck_set_error(CK_ERR_INVALID, "%s: the element type is NULL", what);
    }
    if (element->depth >= CK_TYPE_MAX_DEPTH) {
        return ck_set_error(CK_ERR_INVALID, "%s: nesting deeper than %d levels", what,
                            CK_TYPE_MAX_DEPTH);
    }
    return CK_OK;
}

int ck_type_make_fixed_dim(intptr_t size, const ck_type *element, ck_type **out) {
    CK_RETURN_IF_ERROR(ck__check_element("ck_type_make_fixed_dim", element, out));
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
    return ck__make_level(CK_TYPE_FIXED_DIM, element, size, bytes, element->data_alignment,
                          out);
}

int ck_type_make_var_dim(const ck_type *element, ck_type **out) {
    CK_RETURN_IF_ERROR(ck__check_element("ck_type_make_var_dim", element, out));
    return ck__make_level(CK_TYPE_VAR_DIM, element, -1, sizeof(ck_var_data),
                          alignof(ck_var_data), out);
}

int ck_type_make_pointer(const ck_type *target, ck_type **out) {
    CK_RETURN_IF_ERROR(ck__check_element("ck_type_make_pointer", target, out));
    return ck__make_level(CK_TYPE_POINTER, target, -1, sizeof(char *), alignof(char *), out);
}

ck_type_id ck_type_get_id(const ck_type *t) {
    return t->id;
}

size_t ck_type_data_size(const ck_type *t) {
    return t->data_size;
}

size_t ck_type_data_alignment(const ck_type *t) {
    return t->data_alignment;
}

size_t ck_type_arrmeta_size(const ck_type *t) {
    return t->arrmeta_size;
}

const ck_type *ck_type_element(const ck_type *t) {
    return t->element;
}

intptr_t ck_type_fixed_size(const ck_type *t) {
    return t->fixed_size;
}

int ck_type_ndim(const ck_type *t) {
    return t->ndim;
}

int ck_type_depth(const ck_type *t) {
    return t->depth;
}

int ck_type_is_scalar(const ck_type *t) {
    return ck__id_is_scalar(t->id);
}

int ck_type_has_blockref(const ck_type *t) {
    return t->has_blockref;
}

int ck_type_equal(const ck_type *a, const ck_type *b) {
    while (a != b) {
        if (a == NULL || b == NULL || a->id != b->id || a->fixed_size != b->fixed_size) {
            return 0;
        }
        a = a->element;
        b = b->element;
    }
    return 1;
}
