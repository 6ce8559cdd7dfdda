/* src/types/type.c: the static scalar types, allocation and reference counting of the
 * others, the kinds table (type_internal.h) and the queries of ckernel/types.h. The makers
 * and operations of each kind live in their own files: type_dims.c (fixed, var, pointer),
 * type_fields.c (tuple, struct), type_option.c (option and the NA values), type_text.c
 * (string, bytes, fixed_string, fixed_bytes), type_datetime.c (datetime64, timedelta64). */
#include <stdalign.h>
#include <string.h>

#include "common/internal.h"
#include "common/strbuf.h"
#include "types/name_index.h"
#include "common/scalars.h"
#include "types/type_internal.h"

/* The static scalar types: size parts * part, the part's alignment (a complex's is its
 * component's, as in C's _Complex and NumPy). */
#define CK__SCALAR_TYPE(E, n, part, psize, parts, ...)                                        \
    {0, CK_TYPE_##E, 1, 0, 0, 0, -1, (psize) * (parts), alignof(part), 0, NULL, 0, NULL, NULL, \
     NULL, NULL, NULL, 0, 0},
static ck_type ck__scalars[CK_NUM_SCALAR_TYPES] = {CK_SCALAR_TABLE(CK__SCALAR_TYPE)};

#define CK__SCALAR_FACTS(E, n, part, psize, parts, kind, bits, exp, na, letters, npk)         \
    {letters, CK__SCALAR_KIND_##kind, bits, exp, parts, psize, npk},
const ck__scalar_facts ck__scalar_facts_table[CK_NUM_SCALAR_TYPES] = {
    CK_SCALAR_TABLE(CK__SCALAR_FACTS)};

#define CK__SCALAR_PART_SIZE_OK(E, n, part, psize, ...)                                       \
    _Static_assert(sizeof(part) == (psize), "the part_size of " #n " is sizeof its part");
CK_SCALAR_TABLE(CK__SCALAR_PART_SIZE_OK)

#define CK__SCALAR_NAME(E, n, ...) #n,
static const char *const ck__names[] = {
    CK_SCALAR_TABLE(CK__SCALAR_NAME) "fixed_dim", "var_dim", "pointer", "tuple", "struct",
    "option", "string", "bytes", "fixed_string", "fixed_bytes", "datetime64", "timedelta64"};
_Static_assert(sizeof ck__names / sizeof ck__names[0] == CK_TYPE_TIMEDELTA + 1,
               "one name per type id");

const char *ck__scalar_name(ck_type_id id) {
    return ck__id_is_scalar(id) ? ck__names[id] : NULL;
}

const char *ck_type_id_name(ck_type_id id) {
    return (unsigned)id < CK__ARRAY_SIZE(ck__names) ? ck__names[id] : "unknown";
}

const ck_type *ck_type_scalar(ck_type_id id) {
    return ck__id_is_scalar(id) ? &ck__scalars[id] : NULL;
}

/* ---- the kinds ---- */

static void scalar_release(ck_type *t) {
    (void)t;
}
static int scalar_equal(const ck_type *a, const ck_type *b) {
    (void)a;
    (void)b;
    return 1; /* same id */
}
static void scalar_format(const ck_type *t, ck__strbuf *out) {
    ck__strbuf_puts(out, ck__scalar_name(t->id));
}
static void scalar_arrmeta_construct(const ck_type *t, char *arrmeta, ck_memblock *blockref) {
    (void)t;
    (void)arrmeta;
    (void)blockref;
}
static void scalar_arrmeta_nothing(const ck_type *t, char *arrmeta) {
    (void)t;
    (void)arrmeta;
}

/* Scalars (and options, var dims and pointers: their own slot): the data size from 0. */
void ck__slot_extent(const ck_type *t, const char *arrmeta, intptr_t *lo, intptr_t *hi) {
    (void)arrmeta;
    *lo = 0;
    *hi = (intptr_t)t->data_size;
}

const ck__type_kind ck__scalar_kind_ops = {scalar_release,         scalar_equal,
                                           scalar_format,          scalar_arrmeta_construct,
                                           scalar_arrmeta_nothing, scalar_arrmeta_nothing,
                                           ck__slot_extent};

const ck__type_kind *ck__type_kind_of(ck_type_id id) {
    switch (id) {
    case CK_TYPE_FIXED_DIM: return &ck__fixed_dim_kind_ops;
    case CK_TYPE_VAR_DIM: return &ck__var_dim_kind_ops;
    case CK_TYPE_POINTER: return &ck__pointer_kind_ops;
    case CK_TYPE_TUPLE:
    case CK_TYPE_STRUCT: return &ck__fields_kind_ops;
    case CK_TYPE_OPTION: return &ck__option_kind_ops;
    case CK_TYPE_STRING:
    case CK_TYPE_BYTES:
    case CK_TYPE_FIXED_STRING:
    case CK_TYPE_FIXED_BYTES: return &ck__text_kind_ops;
    case CK_TYPE_DATETIME:
    case CK_TYPE_TIMEDELTA: return &ck__time_kind_ops;
    default: return &ck__scalar_kind_ops;
    }
}

/* ---- allocation and reference counting ---- */

ck_type *ck__type_alloc(ck_type_id id, size_t extra) {
    ck_type *t = (ck_type *)ck__calloc(1, sizeof *t + extra);
    if (t == NULL) {
        ck__nomem_error("out of memory making a %s type", ck_type_id_name(id));
        return NULL;
    }
    atomic_init(&t->refcount, 1);
    t->id = id;
    t->fixed_size = -1;
    return t;
}

int ck__type_check_part(const char *what, const ck_type *t, ck_type **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "%s: out is NULL", what);
    }
    *out = NULL;
    if (t == NULL) {
        return ck_set_error(CK_ERR_INVALID, "%s: a part type is NULL", what);
    }
    if (t->depth >= CK_TYPE_MAX_DEPTH) {
        return ck_set_error(CK_ERR_INVALID, "%s: nesting deeper than %d levels", what,
                            CK_TYPE_MAX_DEPTH);
    }
    return CK_OK;
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
    if (t == NULL || t->is_static) {
        return;
    }
    ck_type *m = ck__type_mut(t);
    if (atomic_fetch_sub_explicit(&m->refcount, 1, memory_order_release) != 1) {
        return;
    }
    atomic_thread_fence(memory_order_acquire);
    ck__type_kind_of(m->id)->release(m); /* recursion bounded by CK_TYPE_MAX_DEPTH */
    ck__free(m);
}

/* ---- queries ---- */

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

size_t ck_type_field_count(const ck_type *t) {
    return t->nfields;
}

const ck_type *ck_type_field(const ck_type *t, size_t i) {
    return i < t->nfields ? t->fields[i] : NULL;
}

const char *ck_type_field_name(const ck_type *t, size_t i) {
    return i < t->nfields && t->names != NULL ? t->names[i] : NULL;
}

size_t ck_type_field_offset(const ck_type *t, size_t i) {
    return i < t->nfields ? t->offsets[i] : 0;
}

size_t ck_type_field_arrmeta_offset(const ck_type *t, size_t i) {
    return i < t->nfields ? t->arrmeta_offsets[i] : 0;
}

intptr_t ck_type_field_index(const ck_type *t, const char *name) {
    if (t->names == NULL || name == NULL) {
        return -1;
    }
    if (t->name_slots != NULL) {
        const ck__name_list view = {t->names, NULL, NULL};
        return ck__name_index_find(t->name_slots, t->name_nslots, &view, name,
                                   ck__name_hash(name));
    }
    for (size_t i = 0; i < t->nfields; i++) {
        if (strcmp(t->names[i], name) == 0) {
            return (intptr_t)i;
        }
    }
    return -1;
}

intptr_t ck__type_field_index_at(const ck_type *t, const char *name, size_t hint) {
    if (t->names != NULL && name != NULL && hint < t->nfields &&
        strcmp(t->names[hint], name) == 0) {
        return (intptr_t)hint;
    }
    return ck_type_field_index(t, name);
}

int ck_type_equal(const ck_type *a, const ck_type *b) {
    if (a == b) {
        return 1;
    }
    if (a == NULL || b == NULL || a->id != b->id) {
        return 0;
    }
    return ck__type_kind_of(a->id)->equal(a, b);
}
