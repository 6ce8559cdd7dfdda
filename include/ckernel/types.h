/* ckernel/types.h: type descriptors (scalars, fixed and var dimensions, pointers), their
 * queries, and the datashape strings that spell them ("3 * var * int32").
 *
 * A ck_type is immutable and reference counted (atomically: share it between threads
 * freely). Scalar types are static objects: incref/decref on them do nothing, and
 * ck_type_scalar() never fails. Functions that make a type give the caller one reference
 * (release it with ck_type_decref); functions that take a `const ck_type *` borrow it. */
#ifndef CKERNEL_TYPES_H
#define CKERNEL_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/export.h"

CK_BEGIN_DECLS

typedef enum ck_type_id {
    CK_TYPE_BOOL,
    CK_TYPE_INT8,
    CK_TYPE_INT16,
    CK_TYPE_INT32,
    CK_TYPE_INT64,
    CK_TYPE_UINT8,
    CK_TYPE_UINT16,
    CK_TYPE_UINT32,
    CK_TYPE_UINT64,
    CK_TYPE_FLOAT16,
    CK_TYPE_FLOAT32,
    CK_TYPE_FLOAT64,
    CK_TYPE_COMPLEX64,
    CK_TYPE_COMPLEX128,
    CK_TYPE_FIXED_DIM, /* N * T */
    CK_TYPE_VAR_DIM,   /* var * T: ragged, each element holds its own length */
    CK_TYPE_POINTER    /* pointer[T] */
} ck_type_id;

/* Scalar ids are 0 .. CK_NUM_SCALAR_TYPES - 1. */
#define CK_NUM_SCALAR_TYPES 14
/* Deepest nesting of dimensions and pointers in one type ("pointer[3 * int8]" has depth 2).
 * Deeper types are rejected with CK_ERR_INVALID, so every walk over a type is bounded. */
#define CK_TYPE_MAX_DEPTH 64

typedef struct ck_type ck_type;

/* The static scalar type for `id`; NULL when id is not a scalar id. */
CK_EXTERN const ck_type *ck_type_scalar(ck_type_id id);

/* Parses a datashape string. Grammar (whitespace is free between tokens):
 *     type := dim '*' type | 'pointer' '[' type ']' | scalar
 *     dim  := integer | 'var'
 *     scalar := bool | int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64
 *             | float16 | float32 | float64 | complex64 | complex128
 *             | 'complex' '[' ('float32' | 'float64') ']'
 * Errors: CK_ERR_PARSE for bad syntax, CK_ERR_INVALID for sizes that overflow or nesting
 * deeper than CK_TYPE_MAX_DEPTH; the message quotes the input and gives the 1-based byte
 * column ("3 * vra * int32: unknown type 'vra' at column 5"). *out is NULL on failure. */
CK_EXTERN int ck_type_parse(const char *datashape, ck_type **out);

/* Makers: each takes its own reference to `element`/`target` (the caller keeps theirs).
 * CK_ERR_INVALID for a NULL element, a negative size, a data size beyond INTPTR_MAX, or
 * nesting deeper than CK_TYPE_MAX_DEPTH. */
CK_EXTERN int ck_type_make_fixed_dim(intptr_t size, const ck_type *element, ck_type **out);
CK_EXTERN int ck_type_make_var_dim(const ck_type *element, ck_type **out);
CK_EXTERN int ck_type_make_pointer(const ck_type *target, ck_type **out);

/* Reference counting; both accept NULL and do nothing on static scalar types. */
CK_EXTERN void ck_type_incref(const ck_type *t);
CK_EXTERN void ck_type_decref(const ck_type *t);

/* Queries. `t` must not be NULL. */
CK_EXTERN ck_type_id ck_type_get_id(const ck_type *t);
/* Bytes of one value in the data: N * size(T) for a fixed dim, sizeof(ck_var_data) for a
 * var dim, sizeof(char *) for a pointer. */
CK_EXTERN size_t ck_type_data_size(const ck_type *t);
CK_EXTERN size_t ck_type_data_alignment(const ck_type *t);
/* Bytes of arrmeta: this level's struct (see ckernel/arrmeta.h) plus the element's. */
CK_EXTERN size_t ck_type_arrmeta_size(const ck_type *t);
/* T of N * T, var * T and pointer[T]; NULL for scalars. Borrowed. */
CK_EXTERN const ck_type *ck_type_element(const ck_type *t);
/* N of N * T; -1 when t is not a fixed dimension. */
CK_EXTERN intptr_t ck_type_fixed_size(const ck_type *t);
/* The number of leading fixed/var dimensions (0 for scalars and pointers). */
CK_EXTERN int ck_type_ndim(const ck_type *t);
/* Dimension and pointer levels in t: 0 for scalars; at most CK_TYPE_MAX_DEPTH. */
CK_EXTERN int ck_type_depth(const ck_type *t);
/* 1 when the two describe the same type (structurally), else 0. NULL equals only NULL. */
CK_EXTERN int ck_type_equal(const ck_type *a, const ck_type *b);
CK_EXTERN int ck_type_is_scalar(const ck_type *t);
/* 1 when the arrmeta of t holds memory-block references (t contains a var dim or a
 * pointer), so arrmeta must be released with ck_arrmeta_release. */
CK_EXTERN int ck_type_has_blockref(const ck_type *t);

/* The canonical datashape ("3 * var * int32", "pointer[complex64]"); free with ck_free.
 * Parsing it gives an equal type and printing that gives the same string. */
CK_EXTERN int ck_type_format(const ck_type *t, char **out);
/* "bool", "int32", ..., "complex128", "fixed_dim", "var_dim", "pointer"; "unknown" for a
 * value outside the enum. */
CK_EXTERN const char *ck_type_id_name(ck_type_id id);

CK_END_DECLS

#endif
