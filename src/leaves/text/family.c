/* src/leaves/text/family.c: the text leaf family's row (core/leaf_families.h): string, bytes,
 * fixed_string and fixed_bytes, whose cast (text_cast.c) reads the operands' arrmeta for a
 * string's arena and checks a text NA itself; and the text cast's spec from the operands,
 * which the datetime family's text leaf takes too. */
#include <string.h>

#include "ckernel/arrmeta.h"
#include "common/internal.h"
#include "core/kinds.h"
#include "core/leaf_families.h"
#include "types/type_internal.h"
#include "values/datetime.h"

/* The arena of a string or bytes operand's arrmeta (NULL for the other kinds). */
static ck_memblock *text_arena(const ck_type *t, const char *arrmeta) {
    if (!ck__is_var_text(t->id)) {
        return NULL;
    }
    ck_string_arrmeta m;
    memcpy(&m, arrmeta, sizeof m);
    return m.blockref;
}

int ck__text_cast_spec_of(const ck__cast_operands *ops, ck__text_cast_spec *spec) {
    const ck_type *dt = ops->dst, *st = ops->src;
    if ((ck__is_var_text(dt->id) && ops->dst_arrmeta == NULL) ||
        (ck__is_var_text(st->id) && ops->src_arrmeta == NULL)) {
        return ck_set_error(CK_ERR_INTERNAL, "a text cast without its operands' arrmeta");
    }
    memset(spec, 0, sizeof *spec);
    spec->dst_id = dt->id;
    spec->src_id = st->id;
    spec->dst_enc = dt->param;
    spec->src_enc = st->param;
    spec->dst_units = ck_type_text_length(dt) > 0 ? (size_t)ck_type_text_length(dt) : 0;
    spec->src_units = ck_type_text_length(st) > 0 ? (size_t)ck_type_text_length(st) : 0;
    spec->dst_arena = text_arena(dt, ops->dst_arrmeta);
    /* Bytes already in the destination's arena need no copy, unless bytes become a string
     * (which must be checked to be UTF-8). */
    spec->share = spec->dst_arena != NULL &&
                  spec->dst_arena == text_arena(st, ops->src_arrmeta) &&
                  !(dt->id == CK_TYPE_STRING && st->id == CK_TYPE_BYTES);
    spec->mode = ops->mode;
    spec->dst_unit = ck__is_time(dt->id) ? dt->param : 0;
    spec->src_unit = ck__is_time(st->id) ? st->param : 0;
    spec->refuse_na = ops->refuse_na;
    return CK_OK;
}

static int make_cast(ck_builder *ckb, size_t *offset, const ck__cast_operands *ops,
                     ck_request req) {
    ck__text_cast_spec spec;
    CK__RETURN_IF_ERROR(ck__text_cast_spec_of(ops, &spec));
    return ck__make_text_cast(ckb, offset, &spec, req);
}

const ck__leaf_family ck__text_family = {
    CK__LEAF_FAMILY_HEAD(text),
    make_cast,
    ck__cast_of_values_can_give_na,
    NULL, /* its leaves are kinds (text_cast, text_number, text_compare) */
};
