/* src/core/leaf_families.c: the table of leaf families (leaf_families.h) and the describe
 * through it (the lookups, which every build makes, are inline in the header). */
#include "core/leaf_families.h"

#include "types/type_internal.h"

_Static_assert(CK_TYPE_TIMEDELTA < 64, "a family's claims hold a bit per type id, the last id "
                                       "(timedelta) included");

#define CK__LEAF_FAMILY_ROW(f) &ck__##f##_family,
const ck__leaf_family *const ck__leaf_families[CK__NUM_LEAF_FAMILIES] = {
    CK__LEAF_FAMILY_LIST(CK__LEAF_FAMILY_ROW)};

int ck__leaf_families_describe(const void *fn, ck__strbuf *out) {
    for (size_t i = 0; i < CK__NUM_LEAF_FAMILIES; i++) {
        const ck__leaf_family *f = ck__leaf_families[i];
        if (f->leaf_describe != NULL && f->leaf_describe(fn, out)) {
            return 1;
        }
    }
    return 0;
}

int ck__cast_of_values_can_give_na(ck_type_id dst, ck_type_id src) {
    return ck__conversion_can_give_na(src, dst);
}
