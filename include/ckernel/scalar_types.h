/* ckernel/scalar_types.h: the one table of scalar types (docs/design.md §1). ckernel/types.h
 * makes the scalar part of the ck_type_id enum from it; inside the library it generates the
 * static types and their names, the C element types of the per-target leaves, the cast
 * pairs, the signature letters and conversion ranks of selection, the NA values, the JIT's
 * names and the Python package's dtype map. Code asks the table: no list of scalar types is
 * kept anywhere else, and no code tests a range of scalar ids.
 *
 * A row: X(C, ENUM, name, part, part_size, parts, kind, bits, exp_bits, na, letters, numpy)
 *   C          the context argument of CK_SCALAR_TABLE_WITH, handed to every row
 *   ENUM       CK_TYPE_<ENUM> is the id; ids are the rows' positions, 0 .. CK_NUM_SCALAR_TYPES-1
 *   name       the datashape name
 *   part       the C type of one stored part (a float16 or bfloat16 is its bits, a bool a byte)
 *   part_size  sizeof(part), as a literal
 *   parts      1, or 2 for a complex number (real, imaginary): size = parts * part_size,
 *              alignment = the part's
 *   kind       BOOL, SIGNED, UNSIGNED, FLOAT or COMPLEX
 *   bits       an integer's magnitude bits (a signed type's sign bit not counted); a float's
 *              or complex component's significand precision (the implicit bit counted)
 *   exp_bits   a float's or complex component's exponent bits; 0 for the others
 *   na         the NA of ?name (type_option.c): each part's bits, as an unsigned integer
 *   letters    the compact signature spelling ("(ii)->d", docs/kernels.md)
 *   numpy      NumPy's dtype kind ('b', 'i', 'u', 'f', 'c'; with the size it names the dtype),
 *              or 0 for a type NumPy lacks
 * The ids are ABI (the non-scalar ids follow the last row): a new row changes them, and with
 * them the library's version. Adding a scalar type: one row here, its reading and storing in
 * leaves/numeric/scalar_assign.dispatch.c, its text in arrays/literal_*.c. */
#ifndef CKERNEL_SCALAR_TYPES_H
#define CKERNEL_SCALAR_TYPES_H

#include <stdint.h>

/* clang-format off */
#define CK_SCALAR_TABLE_WITH(X, C) \
    X(C, BOOL,       bool,       uint8_t,  1, 1, BOOL,     1,  0,  0x02,                  "?",  'b') \
    X(C, INT8,       int8,       int8_t,   1, 1, SIGNED,   7,  0,  0x80,                  "b",  'i') \
    X(C, INT16,      int16,      int16_t,  2, 1, SIGNED,   15, 0,  0x8000,                "h",  'i') \
    X(C, INT32,      int32,      int32_t,  4, 1, SIGNED,   31, 0,  0x80000000,            "i",  'i') \
    X(C, INT64,      int64,      int64_t,  8, 1, SIGNED,   63, 0,  0x8000000000000000,    "q",  'i') \
    X(C, UINT8,      uint8,      uint8_t,  1, 1, UNSIGNED, 8,  0,  0xff,                  "B",  'u') \
    X(C, UINT16,     uint16,     uint16_t, 2, 1, UNSIGNED, 16, 0,  0xffff,                "H",  'u') \
    X(C, UINT32,     uint32,     uint32_t, 4, 1, UNSIGNED, 32, 0,  0xffffffff,            "I",  'u') \
    X(C, UINT64,     uint64,     uint64_t, 8, 1, UNSIGNED, 64, 0,  0xffffffffffffffff,    "Q",  'u') \
    X(C, FLOAT16,    float16,    uint16_t, 2, 1, FLOAT,    11, 5,  0x7fa2,                "e",  'f') \
    X(C, BFLOAT16,   bfloat16,   uint16_t, 2, 1, FLOAT,    8,  8,  0x7fe2,                "E",  0)   \
    X(C, FLOAT32,    float32,    float,    4, 1, FLOAT,    24, 8,  0x7fc007a2,            "f",  'f') \
    X(C, FLOAT64,    float64,    double,   8, 1, FLOAT,    53, 11, 0x7ff80000000007a2,    "d",  'f') \
    X(C, COMPLEX64,  complex64,  float,    4, 2, COMPLEX,  24, 8,  0x7fc007a2,            "Zf", 'c') \
    X(C, COMPLEX128, complex128, double,   8, 2, COMPLEX,  53, 11, 0x7ff80000000007a2,    "Zd", 'c')
/* clang-format on */

/* The rows without the context argument: X(ENUM, name, part, ...). */
#define CK__SCALAR_ROW_CALL(X, ...) X(__VA_ARGS__)
#define CK_SCALAR_TABLE(X) CK_SCALAR_TABLE_WITH(CK__SCALAR_ROW_CALL, X)

/* The number of scalar types, counted from the rows. */
#define CK__SCALAR_ROW_ONE(...) +1
#define CK_NUM_SCALAR_TYPES (0 CK_SCALAR_TABLE(CK__SCALAR_ROW_ONE))

#endif
