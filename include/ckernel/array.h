/* ckernel/array.h: ck_array, a small array container (a type, its arrmeta, its data) with a
 * literal syntax, for tests, the command-line tool and users who need a quick container.
 *
 * Storage: the fixed-size part of the data (ck_type_data_size bytes) is one owned,
 * zero-filled block. When the type contains var dims or pointers, the array owns an arena
 * (see ckernel/memblock.h) and every var and pointer level of its arrmeta refers to it:
 * var-dim elements and pointer targets are allocated from it and live as long as anything
 * refers to the arena.
 *
 * Literals (ck_array_parse / ck_array_format), whitespace free between tokens:
 *   dims       [a, b, c]   a fixed dim needs exactly N elements; a var dim takes any number
 *   bool       true false  (numbers 0 and 1 are accepted too)
 *   integers   -12  300    out of range for the type: CK_ERR_OVERFLOW
 *   floats     1.5  -2e-3  nan  inf  -inf   correctly rounded to the type from the decimal
 *   complex    1+2j  -0.5-1e3j  2j  nan+infj
 *   null       an unallocated var dim or a NULL pointer
 *   pointer[T] is transparent: the literal of its target (or null).
 *   tuples     (1, 2.5)              one value per field, in order
 *   structs    {x: 1, 'a b': [2, 3]} every field once, in any order (printed in the
 *                                    type's order); names as in datashapes
 *   NA         a missing value of an option type ?T; a T value equal to the NA of ?T is
 *              refused (CK_ERR_OVERFLOW: write NA); NA for a non-option is CK_ERR_NA
 * Floats print in their shortest round-trip text, integral ones without a point ("2").
 * Values convert like an assignment in the default error mode: an integral float may go to
 * an integer type, 2.5 may not (CK_ERR_FRACTIONAL); a finite value that overflows a float
 * type is CK_ERR_OVERFLOW; a complex with a non-zero imaginary part cannot go to a real
 * type (CK_ERR_IMAGINARY). Errors name the element path and column:
 * "ck_array_parse: at [1][3] (column 12): value 300 is out of range for uint8", with fields
 * as ".name" (struct) or ".i" (tuple): "at [2].y[0]". */
#ifndef CKERNEL_ARRAY_H
#define CKERNEL_ARRAY_H

#include "ckernel/arrmeta.h"
#include "ckernel/export.h"
#include "ckernel/types.h"

CK_BEGIN_DECLS

typedef struct ck_array ck_array;

/* A new array of type t (t is incref'd): C-order arrmeta (C-layout field offsets),
 * zero-filled data (an option starts as 0, not NA), var dims unallocated. Pointers reachable
 * through fixed dims and fields get zero-filled targets from the array's arena, so every
 * element the type's fixed shape determines exists; pointers inside var-dim elements start
 * NULL. */
CK_EXTERN int ck_array_new(const ck_type *t, ck_array **out);
/* A new array of type t holding the literal. The whole literal is checked before anything
 * is allocated for its data, so a wrong literal costs no large allocation. */
CK_EXTERN int ck_array_parse(const ck_type *t, const char *literal, ck_array **out);
/* The literal of a (free with ck_free): floats in the shortest text that reads back to the
 * same value, so ck_array_parse(format(a)) equals a (NaN payloads and signs excepted). */
CK_EXTERN int ck_array_format(const ck_array *a, char **out);
/* An array over memory the host owns (a NumPy buffer, an Arrow column, a mapped file): type
 * t (incref'd), a copy of `arrmeta` (its blockrefs incref'd; NULL for C order with no
 * blockrefs), and `data` itself, never copied: ck_assign and ck_parallel_assign on the array
 * read or write the host's bytes in place. `owner` (may be NULL) is referenced until the
 * array is freed; an external block (ck_memblock_new_external) over the host's buffer lets
 * the host learn when ckernel is done with it. With a NULL owner the host keeps `data`
 * alive while the array is used. Fixed dimensions of the arrmeta must have their type's
 * sizes; strides are the host's (0 broadcasts, negative reverses); ckernel never checks
 * that they stay inside the host's buffer. A var dimension that has no arena in its arrmeta
 * cannot be a destination that allocates. CK_ERR_INVALID for a NULL t or out, a NULL data
 * with a non-zero data size, or arrmeta that contradicts t. */
CK_EXTERN int ck_array_wrap(const ck_type *t, const char *arrmeta, char *data, ck_memblock *owner,
                            ck_array **out);
/* NULL is fine. Storage shared through blockrefs lives on while referenced. */
CK_EXTERN void ck_array_free(ck_array *a);

/* Accessors. The container is a handle: the arrmeta and data it hands out are writable even
 * through a const ck_array (kernels write into a destination array's data). */
CK_EXTERN const ck_type *ck_array_type(const ck_array *a);
CK_EXTERN char *ck_array_arrmeta(const ck_array *a);
CK_EXTERN char *ck_array_data(const ck_array *a);

CK_END_DECLS

#endif
