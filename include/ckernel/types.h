/* ckernel/types.h: type descriptors (scalars, fixed and var dimensions, pointers, tuples,
 * structs, options and text), their queries, and the datashape strings that spell them
 * ("3 * var * int32", "var * {a: int32, b: ?float32}", "fixed_string[8, 'utf32']").
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
#include "ckernel/scalar_types.h"

CK_BEGIN_DECLS

/* The scalars first, in the rows' order (ckernel/scalar_types.h), then the other kinds. */
#define CK__SCALAR_ENUM(ENUM, ...) CK_TYPE_##ENUM,
typedef enum ck_type_id {
    CK_SCALAR_TABLE(CK__SCALAR_ENUM)
    CK_TYPE_FIXED_DIM, /* N * T */
    CK_TYPE_VAR_DIM,   /* var * T: ragged, each element holds its own length */
    CK_TYPE_POINTER,   /* pointer[T] */
    CK_TYPE_TUPLE,     /* (T0, T1, ...): fields by position, laid out as a C struct */
    CK_TYPE_STRUCT,    /* {name: T0, ...}: named fields, laid out as a C struct */
    CK_TYPE_OPTION,    /* ?T: a T or NA (a reserved value of T in the data, see below) */
    CK_TYPE_STRING,    /* string: UTF-8 text of any length, its bytes in an arena (arrmeta.h) */
    CK_TYPE_BYTES,     /* bytes: the same without an encoding */
    CK_TYPE_FIXED_STRING, /* fixed_string[N, enc]: N code units of enc, NUL-padded */
    CK_TYPE_FIXED_BYTES,  /* fixed_bytes[N]: N bytes, NUL-padded */
    CK_TYPE_DATETIME,     /* datetime64[unit]: int64 units since 1970-01-01T00:00, NaT */
    CK_TYPE_TIMEDELTA     /* timedelta64[unit]: an int64 count of units, NaT */
} ck_type_id;

/* The units of datetime64 and timedelta64 (NumPy's), coarsest first: years, months, weeks,
 * days, hours, minutes, seconds, milli-, micro-, nanoseconds. */
typedef enum ck_datetime_unit {
    CK_UNIT_Y,
    CK_UNIT_M,
    CK_UNIT_W,
    CK_UNIT_D,
    CK_UNIT_h,
    CK_UNIT_m,
    CK_UNIT_s,
    CK_UNIT_ms,
    CK_UNIT_us,
    CK_UNIT_ns
} ck_datetime_unit;
#define CK_NUM_DATETIME_UNITS 10
/* Not-a-time, as NumPy stores it: the int64 minimum (also the NA of ?datetime64[unit]). */
#define CK_DATETIME_NAT INT64_MIN

/* The encodings of fixed_string (string is always UTF-8); NONE: bytes and fixed_bytes. A
 * code unit is 1 byte (ascii, utf8, none), 2 (utf16) or 4 (utf32), in the machine's order. */
typedef enum ck_text_encoding {
    CK_ENCODING_ASCII,
    CK_ENCODING_UTF8,
    CK_ENCODING_UTF16,
    CK_ENCODING_UTF32,
    CK_ENCODING_NONE
} ck_text_encoding;

/* Scalar ids are 0 .. CK_NUM_SCALAR_TYPES - 1 (ckernel/scalar_types.h counts them). */
/* Deepest nesting of dimensions, pointers, tuples, structs and options in one type
 * ("pointer[3 * int8]" has depth 2, "{a: 3 * int8}" too). Deeper types are rejected with
 * CK_ERR_INVALID, so every walk over a type is bounded. */
#define CK_TYPE_MAX_DEPTH 64
/* Most fields of one tuple or struct (each field's kernel is a child of the struct's). */
#define CK_TYPE_MAX_FIELDS 65536

typedef struct ck_type ck_type;

/* The static scalar type for `id`; NULL when id is not a scalar id. */
CK_EXTERN const ck_type *ck_type_scalar(ck_type_id id);

/* Parses a datashape string. Grammar (whitespace is free between tokens):
 *     type   := dim '*' type | 'pointer' '[' type ']' | '?' scalar | tuple | struct | scalar
 *     dim    := integer | 'var'
 *     tuple  := '(' [type (',' type)*] ')'
 *     struct := '{' [name ':' type (',' name ':' type)*] '}'
 *     name   := identifier | quoted      identifier: [A-Za-z_][A-Za-z0-9_]*
 *     quoted := "'" ... "'" | '"' ... '"'   (\\, \', \" and \xHH escapes; not empty)
 *     scalar := bool | int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64
 *             | float16 | bfloat16 | float32 | float64 | complex64 | complex128
 *             | 'complex' '[' ('float32' | 'float64') ']' | text | time
 *     text   := 'string' | 'bytes' | 'fixed_bytes' '[' integer ']'
 *             | 'fixed_string' '[' integer [',' encoding] ']'   (encoding: utf8 when absent)
 *     encoding := 'ascii' | 'utf8' | 'utf16' | 'utf32'  (quoted with ' or ", or bare)
 *     time   := ('datetime64' | 'timedelta64') '[' unit ']'
 *     unit   := Y | M | W | D | h | m | s | ms | us | ns     (bare or quoted)
 * Errors: CK_ERR_PARSE for bad syntax and duplicate field names, CK_ERR_INVALID for sizes
 * that overflow or nesting deeper than CK_TYPE_MAX_DEPTH, CK_ERR_UNSUPPORTED for an option
 * of a non-scalar type; the message quotes the input and gives the 1-based byte column
 * ("3 * vra * int32: unknown type 'vra' at column 5"). *out is NULL on failure. */
CK_EXTERN int ck_type_parse(const char *datashape, ck_type **out);

/* Makers: each takes its own reference to `element`/`target` (the caller keeps theirs).
 * CK_ERR_INVALID for a NULL element, a negative size, a data size beyond INTPTR_MAX, or
 * nesting deeper than CK_TYPE_MAX_DEPTH. */
CK_EXTERN int ck_type_make_fixed_dim(intptr_t size, const ck_type *element, ck_type **out);
CK_EXTERN int ck_type_make_var_dim(const ck_type *element, ck_type **out);
CK_EXTERN int ck_type_make_pointer(const ck_type *target, ck_type **out);
/* A tuple of nfields fields (0 is allowed: an empty tuple, 0 bytes) laid out as a C struct:
 * each field at the next offset aligned to its alignment, the size rounded up to the
 * largest alignment. Takes a reference to each field type. CK_ERR_INVALID for a NULL field,
 * more than CK_TYPE_MAX_FIELDS fields, a size beyond INTPTR_MAX or nesting too deep. */
CK_EXTERN int ck_type_make_tuple(size_t nfields, const ck_type *const *fields, ck_type **out);
/* A struct: a tuple whose fields have names (copied; any non-empty bytes but NUL). Also
 * CK_ERR_INVALID for a NULL or empty name and for a name used twice. */
CK_EXTERN int ck_type_make_struct(size_t nfields, const ck_type *const *fields,
                                  const char *const *names, ck_type **out);
/* The text types. string and bytes are static objects, as scalars are. A fixed_string of
 * `length` code units of `enc` (not CK_ENCODING_NONE), a fixed_bytes of `length` bytes:
 * CK_ERR_INVALID for a length below 1, an unknown encoding or a data size beyond
 * INTPTR_MAX. */
CK_EXTERN const ck_type *ck_type_string(void);
CK_EXTERN const ck_type *ck_type_bytes(void);
CK_EXTERN int ck_type_make_fixed_string(intptr_t length, ck_text_encoding enc, ck_type **out);
CK_EXTERN int ck_type_make_fixed_bytes(intptr_t length, ck_type **out);
/* 1 for string, bytes, fixed_string and fixed_bytes. */
CK_EXTERN int ck_type_is_text(const ck_type *t);
/* The encoding of a text type (string: UTF8; bytes kinds: NONE); -1 for other types. */
CK_EXTERN int ck_type_text_encoding(const ck_type *t);
/* N of fixed_string[N, enc] and fixed_bytes[N] (code units); -1 for other types. */
CK_EXTERN intptr_t ck_type_text_length(const ck_type *t);
/* "ascii", "utf8", "utf16", "utf32", "none"; "unknown" for a value outside the enum. */
CK_EXTERN const char *ck_text_encoding_name(ck_text_encoding enc);

/* The static datetime64[unit] and timedelta64[unit] types (int64 data, aligned as int64, no
 * arrmeta); NULL for a unit outside the enum. */
CK_EXTERN const ck_type *ck_type_datetime(ck_datetime_unit unit);
CK_EXTERN const ck_type *ck_type_timedelta(ck_datetime_unit unit);
/* The unit of a datetime64 or timedelta64 type; -1 for other types. */
CK_EXTERN int ck_type_datetime_unit(const ck_type *t);
/* "Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"; "unknown" outside the enum. */
CK_EXTERN const char *ck_datetime_unit_name(ck_datetime_unit unit);

/* ?T for a scalar T, a datetime64 or a timedelta64 (whose NA is NaT) or a text type (whose
 * NA is every byte of the element 0xff); CK_ERR_UNSUPPORTED for any other T, for now. Its
 * data is a T; one
 * value of T is reserved as NA (ck_option_na_bytes), so NA travels inside the data and an
 * option costs no memory beyond the T. */
CK_EXTERN int ck_type_make_option(const ck_type *value, ck_type **out);

/* Reference counting; both accept NULL and do nothing on static scalar types. */
CK_EXTERN void ck_type_incref(const ck_type *t);
CK_EXTERN void ck_type_decref(const ck_type *t);

/* Queries. `t` must not be NULL. */
CK_EXTERN ck_type_id ck_type_get_id(const ck_type *t);
/* Bytes of one value in the data: N * size(T) for a fixed dim, sizeof(ck_var_data) for a
 * var dim, sizeof(char *) for a pointer, sizeof(ck_string_data) for string and bytes, N code
 * units for fixed_string[N, enc] and fixed_bytes[N]. */
CK_EXTERN size_t ck_type_data_size(const ck_type *t);
CK_EXTERN size_t ck_type_data_alignment(const ck_type *t);
/* Bytes of arrmeta: this level's struct (see ckernel/arrmeta.h) plus the element's. */
CK_EXTERN size_t ck_type_arrmeta_size(const ck_type *t);
/* T of N * T, var * T, pointer[T] and ?T; NULL for scalars, tuples, structs and text.
 * Borrowed. */
CK_EXTERN const ck_type *ck_type_element(const ck_type *t);
/* Fields of a tuple or struct (0 for every other type), field i's type (borrowed; NULL when
 * out of range), its name (struct only, else NULL), its data offset in the C layout, and
 * where its arrmeta starts within the tuple's or struct's arrmeta. */
CK_EXTERN size_t ck_type_field_count(const ck_type *t);
CK_EXTERN const ck_type *ck_type_field(const ck_type *t, size_t i);
CK_EXTERN const char *ck_type_field_name(const ck_type *t, size_t i);
CK_EXTERN size_t ck_type_field_offset(const ck_type *t, size_t i);
CK_EXTERN size_t ck_type_field_arrmeta_offset(const ck_type *t, size_t i);
/* The index of the struct field called `name`, or -1: one probe of the struct's hashed name
 * index when it has more than 8 fields, a scan of at most 8 names otherwise. */
CK_EXTERN intptr_t ck_type_field_index(const ck_type *t, const char *name);
/* The NA value of ?T (or of T itself) for a scalar T: its bytes in the data (size of T).
 * Signed integers: their minimum; unsigned: their maximum; bool: 2; float16, bfloat16,
 * float32, float64: the quiet NaN 0x7fa2, 0x7fe2, 0x7fc007a2, 0x7ff80000000007a2 (1954's low
 * payload bits); complex: that NaN in both parts;
 * datetime64 and timedelta64: NaT; text: every byte 0xff (NULL for a fixed text of more
 * than 256 bytes: test it with ck_option_is_na). NULL for other types. */
CK_EXTERN const void *ck_option_na_bytes(const ck_type *t);
/* 1 when the `ck_type_data_size(t)` bytes at data are the NA of t (or of ?t), bit for bit (a NaN that is not the NA value is a value, not NA). */
CK_EXTERN int ck_option_is_na(const ck_type *t, const void *data);
/* N of N * T; -1 when t is not a fixed dimension. */
CK_EXTERN intptr_t ck_type_fixed_size(const ck_type *t);
/* The number of leading fixed/var dimensions (0 for scalars, pointers, tuples, structs and
 * options). */
CK_EXTERN int ck_type_ndim(const ck_type *t);
/* Levels in t (dimensions, pointers, options, and a tuple or struct as one more than its
 * deepest field): 0 for scalars; at most CK_TYPE_MAX_DEPTH. */
CK_EXTERN int ck_type_depth(const ck_type *t);
/* 1 when the two describe the same type (structurally), else 0. NULL equals only NULL. */
CK_EXTERN int ck_type_equal(const ck_type *a, const ck_type *b);
CK_EXTERN int ck_type_is_scalar(const ck_type *t);
/* 1 when the arrmeta of t holds memory-block references (t contains a var dim, a pointer,
 * a string or bytes, fields included), so arrmeta must be released with
 * ck_arrmeta_release. */
CK_EXTERN int ck_type_has_blockref(const ck_type *t);

/* The canonical datashape ("3 * var * int32", "pointer[complex64]"); free with ck_free.
 * Parsing it gives an equal type and printing that gives the same string. */
CK_EXTERN int ck_type_format(const ck_type *t, char **out);
/* "bool", "int32", ..., "complex128", "fixed_dim", "var_dim", "pointer", "tuple",
 * "struct", "option", "string", "bytes", "fixed_string", "fixed_bytes", "datetime64",
 * "timedelta64"; "unknown" for a
 * value outside the enum. */
CK_EXTERN const char *ck_type_id_name(ck_type_id id);

CK_END_DECLS

#endif
