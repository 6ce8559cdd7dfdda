/* src/core/leaf_families.c: the table of leaf families (leaf_families.h) and the lookups the
 * composition walk and ck_kernel_describe make in it. */
#include "core/leaf_families.h"

#include "types/type_internal.h"

#define CK__LEAF_FAMILY_ROW(f) &ck__##f##_family,
static const ck__leaf_family *const families[] = {CK__LEAF_FAMILY_LIST(CK__LEAF_FAMILY_ROW)};
#define CK__NUM_FAMILIES (sizeof families / sizeof families[0])

const ck__leaf_family *ck__leaf_family_of(ck_type_id id) {
    for (size_t i = 0; i < CK__NUM_FAMILIES; i++) {
        if (families[i]->claims != NULL && families[i]->claims(id)) {
            return families[i];
        }
    }
    return NULL;
}

const ck__leaf_family *ck__leaf_family_of_pair(ck_type_id dst, ck_type_id src) {
    for (size_t i = 0; i < CK__NUM_FAMILIES; i++) {
        if (families[i]->claims != NULL && (families[i]->claims(dst) || families[i]->claims(src))) {
            return families[i];
        }
    }
    return NULL;
}

int ck__leaf_family_has(ck_type_id id, unsigned traits) {
    const ck__leaf_family *f = ck__leaf_family_of(id);
    return f != NULL && (f->traits & traits) == traits;
}

int ck__leaf_families_describe(const void *fn, ck__strbuf *out) {
    for (size_t i = 0; i < CK__NUM_FAMILIES; i++) {
        if (families[i]->leaf_describe != NULL && families[i]->leaf_describe(fn, out)) {
            return 1;
        }
    }
    return 0;
}

int ck__cast_of_values_can_give_na(ck_type_id dst, ck_type_id src) {
    return ck__conversion_can_give_na(src, dst);
}
