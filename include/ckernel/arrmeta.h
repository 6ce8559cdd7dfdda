/* ckernel/arrmeta.h: arrmeta, the per-array metadata that goes with a type: the shape and
 * strides of its fixed dims and the memory blocks its var dims and pointers point into.
 *
 * The arrmeta of a type is the struct of its outermost level, followed immediately by the
 * arrmeta of its element, down to the scalar (which has none). For "3 * var * int32":
 *     offset  0: ck_fixed_dim_arrmeta {dim_size = 3, stride = 16}
 *     offset 16: ck_var_dim_arrmeta   {blockref, stride = 4, offset = 0}
 * ck_type_arrmeta_size() gives the total. Arrmeta buffers must be aligned to
 * alignof(intptr_t).
 *
 * Data layout per level:
 *   N * T      N elements of T, element i at data + i * stride (stride may be any value,
 *              0 broadcasts, negative reverses).
 *   var * T    a ck_var_data; element i at begin + offset + i * stride, i < size.
 *              begin == NULL means "not allocated yet"; the elements live in (and are
 *              allocated from) the memory block `blockref`, normally an arena.
 *   pointer[T] a char *; the target T is at that pointer + offset, NULL means "no target".
 *              The targets live in `blockref` (normally an arena) or, when blockref is NULL,
 *              in memory that the arrmeta does not own.
 *   string,    a ck_string_data: `size` bytes at `data` ({NULL, 0}, zero-filled data, is
 *   bytes      the empty value; NULL with a size is not allocated). A destination allocates
 *              its bytes from the arena `blockref`; a string always holds valid UTF-8.
 *   fixed_string[N, enc], fixed_bytes[N]: N code units in the element itself, NUL-padded
 *              (trailing NUL units are padding, as in NumPy's U and S); no arrmeta. */
#ifndef CKERNEL_ARRMETA_H
#define CKERNEL_ARRMETA_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/export.h"
#include "ckernel/memblock.h"
#include "ckernel/types.h"

CK_BEGIN_DECLS

typedef struct ck_fixed_dim_arrmeta {
    intptr_t dim_size;
    intptr_t stride;
} ck_fixed_dim_arrmeta;

typedef struct ck_var_dim_arrmeta {
    ck_memblock *blockref; /* owns the element storage (a counted reference) */
    intptr_t stride;
    intptr_t offset;
} ck_var_dim_arrmeta;

typedef struct ck_pointer_arrmeta {
    ck_memblock *blockref; /* owns the targets, or NULL for memory owned elsewhere */
    intptr_t offset;
} ck_pointer_arrmeta;

typedef struct ck_string_arrmeta {
    ck_memblock *blockref; /* the arena a destination allocates bytes from (counted), or NULL */
} ck_string_arrmeta;

/* The data of one string or bytes value. */
typedef struct ck_string_data {
    const char *data;
    size_t size; /* bytes */
} ck_string_data;

/* The data of one var-dim value. */
typedef struct ck_var_data {
    char *begin; /* NULL: not allocated */
    size_t size; /* number of elements */
} ck_var_data;

/* Fills `arrmeta` (ck_type_arrmeta_size(t) bytes) for t in C order: fixed strides are the
 * element's data size, var strides likewise with offset 0, pointer offsets 0. Every var and
 * pointer level gets `blockref` (one reference each, taken here; NULL leaves them NULL).
 * CK_ERR_INVALID for a NULL t or arrmeta. */
CK_EXTERN int ck_arrmeta_default_construct(const ck_type *t, char *arrmeta,
                                           ck_memblock *blockref);
/* Copies arrmeta of t from src to dst, taking a reference to each blockref. */
CK_EXTERN void ck_arrmeta_copy(const ck_type *t, char *dst, const char *src);
/* Drops the blockref references of arrmeta of t and sets them to NULL (so releasing twice
 * is harmless). NULL arrmeta is fine. */
CK_EXTERN void ck_arrmeta_release(const ck_type *t, char *arrmeta);

CK_END_DECLS

#endif
