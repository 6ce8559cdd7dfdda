/* src/types/type_internal.h: the ck_type struct, the per-kind operations every walk over a
 * type uses, and helpers shared by the types layer and the kernels that walk types (never
 * installed). */
#ifndef CKERNEL_TYPE_INTERNAL_H
#define CKERNEL_TYPE_INTERNAL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "ckernel/arrmeta.h"
#include "ckernel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ck__strbuf;

struct ck_type {
    atomic_size_t refcount; /* unused (never touched) for static scalars */
    ck_type_id id;
    uint8_t is_static;
    uint8_t has_blockref; /* a var dim or pointer somewhere inside */
    uint8_t depth;        /* levels (dims, pointers, options, fields), <= CK_TYPE_MAX_DEPTH */
    uint8_t ndim;         /* leading fixed/var dims */
    intptr_t fixed_size;  /* N of N * T, else -1 */
    size_t data_size;     /* always <= INTPTR_MAX */
    size_t data_alignment;
    size_t arrmeta_size;
    const ck_type *element; /* owned reference: dims, pointer, option; else NULL */
    /* Tuples and structs; all in the type's own allocation, freed with it. */
    size_t nfields;
    const ck_type *const *fields;  /* owned references */
    const size_t *offsets;         /* data offsets of the C layout */
    const size_t *arrmeta_offsets; /* field i's arrmeta, from the start of this type's */
    const char *const *names;      /* struct: the names; else NULL */
    /* Structs of more than CK__NAME_INDEX_MIN_FIELDS fields: the hashed index of the names
     * (name_index.h), name_slots slots; else NULL and 0. */
    const uint64_t *name_slots;
    size_t name_nslots;
    /* A kind's parameter beside its layout: the encoding of text types (ck_text_encoding),
     * the unit of datetime64 and timedelta64 (ck_datetime_unit); 0 for the others. */
    uint8_t param;
};

/* The operations of one kind of type (DyND's base_type): every walk over a type goes
 * through these, so a new kind is one table entry, not a case in every file. Each may
 * recurse into element or fields (bounded by CK_TYPE_MAX_DEPTH). */
typedef struct ck__type_kind {
    /* Drops the references t holds (its element or fields), not t itself. */
    void (*release)(ck_type *t);
    /* a and b have this kind and the same id: 1 when structurally equal. */
    int (*equal)(const ck_type *a, const ck_type *b);
    /* Appends the datashape. */
    void (*format)(const ck_type *t, struct ck__strbuf *out);
    /* C-order arrmeta at `arrmeta`, each var and pointer level taking a blockref reference. */
    void (*arrmeta_construct)(const ck_type *t, char *arrmeta, ck_memblock *blockref);
    /* After a byte copy of the arrmeta: takes one more reference to each blockref in it. */
    void (*arrmeta_incref)(const ck_type *t, char *arrmeta);
    /* Drops each blockref reference and sets it to NULL. */
    void (*arrmeta_release)(const ck_type *t, char *arrmeta);
    /* The bytes a value of t with this arrmeta touches, from its start: [*lo, *hi) (empty:
     * lo == hi == 0). A var dim or a pointer is its own slot (its elements live elsewhere).
     * An extent that overflows gives lo = INTPTR_MIN, hi = INTPTR_MAX. */
    void (*extent)(const ck_type *t, const char *arrmeta, intptr_t *lo, intptr_t *hi);
} ck__type_kind;

/* t's extent under its arrmeta (the kind's operation), and the union of two extents (the
 * second shifted by `by`), both in arrmeta.c. */
/* Takes the references t's arrmeta holds (after a byte copy; nothing when it holds none);
 * ck_arrmeta_release drops them. */
void ck__arrmeta_incref(const ck_type *t, char *arrmeta);
void ck__arrmeta_extent(const ck_type *t, const char *arrmeta, intptr_t *lo, intptr_t *hi);
void ck__extent_union(intptr_t *lo, intptr_t *hi, intptr_t a, intptr_t b, intptr_t by);
/* The extent of a value that is its own slot: [0, data_size) (type.c). */
void ck__slot_extent(const ck_type *t, const char *arrmeta, intptr_t *lo, intptr_t *hi);

const ck__type_kind *ck__type_kind_of(ck_type_id id);

/* inner under nd dimensions, size[i] the fixed size of dimension i (the outermost first) or
 * -1 for var; takes over the reference to inner (released on failure too). */
int ck__type_over_dims(ck_type *inner, const intptr_t *size, int nd, ck_type **out);
extern const ck__type_kind ck__scalar_kind_ops, ck__fixed_dim_kind_ops, ck__var_dim_kind_ops,
    ck__pointer_kind_ops, ck__fields_kind_ops, ck__option_kind_ops, ck__text_kind_ops,
    ck__time_kind_ops;

/* The text kinds (type_text.c): string, bytes, fixed_string, fixed_bytes. */
static inline int ck__is_text(ck_type_id id) {
    return id >= CK_TYPE_STRING && id <= CK_TYPE_FIXED_BYTES;
}
/* string and bytes: a ck_string_data slot whose bytes live in an arena. */
static inline int ck__is_var_text(ck_type_id id) {
    return id == CK_TYPE_STRING || id == CK_TYPE_BYTES;
}
/* Bytes of one code unit of an encoding (1, 2 or 4). */
static inline size_t ck__code_unit_size(int enc) {
    return enc == CK_ENCODING_UTF16 ? 2 : enc == CK_ENCODING_UTF32 ? 4 : 1;
}
/* The encoding's name as datashapes spell it ("utf32"); NULL when unknown. */
const char *ck__encoding_name(int enc);

/* The identifier characters of datashapes, field names and literal words: a letter or '_',
 * then letters, digits and '_'. */
static inline int ck__is_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static inline int ck__is_ident(char c) {
    return ck__is_ident_start(c) || (c >= '0' && c <= '9');
}

/* ck_type_field_index, comparing field `hint` first: names written in the type's own order
 * (the usual case, in literals and between structs) are found in one compare, not a scan. */
intptr_t ck__type_field_index_at(const ck_type *t, const char *name, size_t hint);

/* ck_type_make_struct for names already found distinct by an index of them (name_index.h,
 * nslots slots): a type that keeps an index of that size copies it instead of building its
 * own (the datashape parser's, which found the duplicates as it read). */
int ck__type_make_struct_indexed(size_t nfields, const ck_type *const *fields,
                                 const char *const *names, const uint64_t *slots, size_t nslots,
                                 ck_type **out);

/* Appends a field name as the datashape spells it: bare when an identifier, else quoted
 * ('it''s' as 'it\'s', control bytes as \xHH). */
void ck__format_field_name(const char *name, struct ck__strbuf *out);
/* Reads the field name at s[*pos] (an identifier or a quoted name with \\, \', \" and \xHH
 * escapes; datashapes and literals spell names alike) and appends it to `name`. NULL on
 * success, *pos past the name; else what is wrong, *pos where (unchanged when there is no
 * name at all). A failure to grow `name` shows in its status. */
const char *ck__scan_field_name(const char *s, size_t len, size_t *pos, struct ck__strbuf *name);

/* Allocates a type of `id` with `extra` zeroed bytes after the struct (for field tables),
 * refcount 1, not static; NULL (with CK_ERR_NOMEM recorded) when out of memory. */
ck_type *ck__type_alloc(ck_type_id id, size_t extra);
/* CK_OK when out is not NULL (and sets *out = NULL) and t is a usable element/field. */
int ck__type_check_part(const char *what, const ck_type *t, ck_type **out);

static inline int ck__is_fields(ck_type_id id) {
    return id == CK_TYPE_TUPLE || id == CK_TYPE_STRUCT;
}

/* The NA bytes of a scalar id (size of the scalar). */
const void *ck__na_bytes(ck_type_id id);
/* 1 when the scalar of `id` at p is NA, bit for bit. */
int ck__is_na(ck_type_id id, const void *p);
/* Options of text: the NA is every byte of the element 0xff (type_option.c). A text NA
 * of at most CK__TEXT_NA_BYTES bytes has its bytes from ck_option_na_bytes. */
#define CK__TEXT_NA_BYTES 256

int ck__is_text_na(const void *p, size_t size);
/* 1 when the value type's element at p is its NA (scalars, times, text). */
int ck__is_na_of(const ck_type *value, const void *p);
/* Writes the value type's NA at p. */
void ck__write_na(const ck_type *value, void *p);
/* 1 when an in-range value of scalar src can convert to the NA of scalar dst (int64 ->
 * int32: -2147483648; float64 -> float32: a NaN's payload, which is then written as the
 * default NaN, kinds/options/na_canon.c), so a checked assignment into ?dst must look for it; 0
 * when no value can (int8 -> int32, int32 -> float64). */
int ck__conversion_can_give_na(ck_type_id src, ck_type_id dst);

/* Size of one level's arrmeta struct (0 for scalars). */
static inline size_t ck__level_arrmeta_size(ck_type_id id) {
    switch (id) {
    case CK_TYPE_FIXED_DIM:
        return sizeof(ck_fixed_dim_arrmeta);
    case CK_TYPE_VAR_DIM:
        return sizeof(ck_var_dim_arrmeta);
    case CK_TYPE_POINTER:
        return sizeof(ck_pointer_arrmeta);
    case CK_TYPE_STRING:
    case CK_TYPE_BYTES:
        return sizeof(ck_string_arrmeta);
    default:
        return 0;
    }
}

static inline int ck__id_is_scalar(ck_type_id id) {
    return (unsigned)id < CK_NUM_SCALAR_TYPES;
}

/* The canonical spelling of a scalar id (also ck_type_id_name). */
const char *ck__scalar_name(ck_type_id id);

/* A type's datashape as error messages show it (datashape_print.c): whole up to
 * CK__TYPE_SHOWN bytes; a longer one cut at the last space outside a quoted name within
 * its first CK__TYPE_SHOWN bytes (so never inside a token) and marked "..."; "?" when it
 * cannot be formatted. buf holds CK__TYPE_SHOWN_CAP bytes. */
#define CK__TYPE_SHOWN 200
#define CK__TYPE_SHOWN_CAP (CK__TYPE_SHOWN + 4)
void ck__type_text_shown(const ck_type *t, char *buf);

#ifdef __cplusplus
}
#endif

#endif
