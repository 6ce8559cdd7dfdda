/* src/values/datetime.h: the values of datetime64[unit] and timedelta64[unit] (never
 * installed): the proleptic Gregorian calendar, conversion between units, and ISO 8601 text
 * (datetime.c), shared by the literals, the datetime cast leaf and the text cast. */
#ifndef CKERNEL_DATETIME_H
#define CKERNEL_DATETIME_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* datetime64 and timedelta64. */
static inline int ck__is_time(ck_type_id id) {
    return id == CK_TYPE_DATETIME || id == CK_TYPE_TIMEDELTA;
}

/* Y and M have no fixed length: a timedelta in them does not convert to the other units. */
static inline int ck__unit_is_calendar(int unit) {
    return unit == CK_UNIT_Y || unit == CK_UNIT_M;
}

/* The unit's name ("ms"); NULL outside the enum. */
const char *ck__unit_name(int unit);

/* Longest text of a datetime (a year of 20 digits and a sign, "-MM-DDTHH:MM:SS.nnnnnnnnn")
 * and of a timedelta (an int64), with room for the NUL. */
#define CK__DATETIME_TEXT_MAX 48

/* How a conversion between units ends. */
enum { CK__TIME_OK = 0, CK__TIME_OVERFLOW = 1 };

/* v (in unit su) into unit du: to a coarser unit floored (toward the past, as NumPy), to a
 * finer one multiplied. Datetimes convert between any units through the calendar; a
 * timedelta only between Y and M or between the fixed units (the caller refuses the rest).
 * NaT stays NaT. CK__TIME_OVERFLOW when the result is beyond int64 or is the NaT value
 * itself; *out is then the product modulo 2^64 (what NumPy's astype gives) or NaT where
 * the calendar has no such day. */
int ck__time_convert(int64_t v, int su, int du, int is_delta, int64_t *out);

/* The ISO 8601 text of a datetime at its unit's precision, as NumPy's str() writes it
 * ("2026-11-25T20:31:42", "2026-11" for M, "2026" for Y, a date for W and D, "-001-01-01"
 * for year -1, "NaT"); of a timedelta, its integer ("-5", "NaT"). Returns the length
 * (< CK__DATETIME_TEXT_MAX); buf is NUL-terminated. */
size_t ck__time_format(int64_t v, int unit, int is_delta, char *buf);

/* Reads ASCII text s[0..n) as a value of the unit (grammar: docs/design.md §17). CK_OK;
 * CK_ERR_TEXT when the text is not one, *why saying what (a static string); CK_ERR_OVERFLOW
 * when the value is beyond the unit's range. Records no error: the caller names the text. */
int ck__time_parse(const char *s, size_t n, int unit, int is_delta, int64_t *out,
                   const char **why);

#ifdef __cplusplus
}
#endif

#endif
