/* src/leaves/numeric/scalar_error.c: the messages of the scalar casts' failing elements
 * ("int64 value 300 is out of range for int8" and friends), compiled once rather than per
 * CPU target: the path is cold, and its text must not differ between targets. */
#include <stdint.h>
#include <stdio.h>

#include "common/internal.h"
#include "common/scalars.h"
#include "leaves/numeric/scalar_leaves.h"
#include "values/numtext.h"

/* The value of one element of scalar type `id` at p (aligned), as literals print it
 * (arrays/literal_format.c): floats with the fewest digits that identify them in their own
 * type, or, when `exact`, in double: a float32 0.1f then prints as 0.10000000149011612,
 * which shows why it is inexact. Complex values in Python's spelling, "(-10.25+0.125j)". */
#define VALUE_TEXT 96
static void format_element(char buf[VALUE_TEXT], int id, const char *p, int exact) {
    const size_t cap = VALUE_TEXT;
    char text[40];
    if (id == CK_TYPE_BOOL) {
        snprintf(buf, cap, "%s", *(const uint8_t *)p != 0 ? "true" : "false");
        return;
    }
    if (!ck__scalar_is_floating((ck_type_id)id)) {
        (void)ck__format_number(id, p, 0, text);
        snprintf(buf, cap, "%s", text);
        return;
    }
    const ck__fkind k = ck__fkind_of(id), shown = exact ? CK__F64 : k;
    if (!ck__scalar_is_complex((ck_type_id)id)) {
        (void)ck__format_float(ck__fkind_load(k, p), shown, 0, text);
        snprintf(buf, cap, "%s", text);
        return;
    }
    char im[40];
    (void)ck__format_float(ck__fkind_load(k, p), shown, 0, text);
    (void)ck__format_float(ck__fkind_load(k, p + ck__scalar_info((ck_type_id)id)->part_size),
                           shown, 0, im);
    snprintf(buf, cap, "(%s%s%sj)", text, im[0] == '-' ? "" : "+", im);
}

/* Records the message for a failed element and returns `status`. `nocheck` is the pair's
 * nocheck single leaf, which gives what the value would have become (it is passed in,
 * rather than looked up in the table, so that the table is not reachable from every leaf:
 * that made clang's inliner iterate over one call-graph cycle of all 3136 functions). */
int ck__scalar_leaf_error(int status, int dst_id, int src_id, char *src_elem,
                          ck_single_fn nocheck) {
    const char *dn = ck_type_id_name((ck_type_id)dst_id);
    const char *sn = ck_type_id_name((ck_type_id)src_id);
    char value[VALUE_TEXT];
    format_element(value, src_id, src_elem, 0);
    switch (status) {
    case CK_ERR_OVERFLOW:
        return ck_set_error(status, "%s value %s is out of range for %s", sn, value, dn);
    case CK_ERR_FRACTIONAL:
        return ck_set_error(status, "%s value %s has a fractional part (%s)", sn, value, dn);
    case CK_ERR_IMAGINARY:
        return ck_set_error(status, "%s value %s has a non-zero imaginary part (%s)", sn,
                            value, dn);
    case CK_ERR_INEXACT: {
        _Alignas(16) char result[16];
        char result_text[VALUE_TEXT];
        nocheck(NULL, result, &src_elem);
        format_element(result_text, dst_id, result, 1);
        return ck_set_error(status, "%s value %s is not exact in %s (%s)", sn, value, dn,
                            result_text);
    }
    default:
        return ck_set_error(status, "%s value %s cannot be assigned to %s", sn, value, dn);
    }
}
