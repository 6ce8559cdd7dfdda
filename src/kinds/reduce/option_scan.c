/* src/kinds/reduce/option_scan.c: the option_scan kernel, an accumulation's scan over a row of
 * ?A that its cast child has already written into the destination (values cast, NA kept).
 * It works in place, run by run of values, through the scan leaf of A (its child): the
 * first run from its own first element (out[0] = x[0], as without options), a later one
 * from the value before it, which the leaf reads as its own first element. Without skipna
 * the first NA ends the row: every element from there on is NA. With skipna an NA element
 * repeats the value before it (the identity where there is none yet and the operation has
 * one, else it stays NA), so NA elements are left out.
 * Its sibling option_fill starts an accumulation of ?A along an outer dimension with skipna
 * and an identity: its child casts row 0 into the destination (NA kept), then each NA there
 * becomes the identity, as option_scan does for a row's leading NA. */
#include <stdint.h>
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"
#include "types/type_internal.h"

typedef struct ck__option_scan {
    ck_prefix base;
    uint32_t size;               /* bytes of A */
    uint8_t skipna, has_identity;
    unsigned char na[16];        /* ?A's NA */
    unsigned char identity[16];  /* with has_identity */
} ck__option_scan;

#define CK__OPTION_SCAN_CHILD CK_ALIGN_OFFSET(sizeof(ck__option_scan))

static void option_scan_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__OPTION_SCAN_CHILD));
}

static inline int is_na(const ck__option_scan *k, const char *p) {
    return memcmp(p, k->na, k->size) == 0;
}

static CK__KERNEL_ALIGN int option_scan_strided(ck_prefix *self, char *dst, intptr_t ds,
                                                char *const *src, const intptr_t *src_stride,
                                                size_t n) {
    (void)src, (void)src_stride; /* the row is in dst already */
    const ck__option_scan *k = (const ck__option_scan *)self;
    ck_prefix *leaf = ck_child(self, CK__OPTION_SCAN_CHILD);
    const ck_strided_fn fn = ck_prefix_strided(leaf);
    int have = 0; /* the element before p holds the running value */
    size_t p = 0;
    while (p < n) {
        char *at = dst + (intptr_t)p * ds;
        if (is_na(k, at)) {
            if (!k->skipna) {
                for (size_t i = p + 1; i < n; i++) {
                    memcpy(dst + (intptr_t)i * ds, k->na, k->size);
                }
                return CK_OK;
            }
            if (have) {
                memmove(at, at - ds, k->size);
            } else if (k->has_identity) {
                memcpy(at, k->identity, k->size);
                have = 1;
            }
            p++;
            continue;
        }
        size_t q = p + 1;
        while (q < n && !is_na(k, dst + (intptr_t)q * ds)) {
            q++;
        }
        char *from = have ? at - ds : at;
        const size_t count = q - p + (have ? 1u : 0u);
        CK__RETURN_IF_ERROR_AT(p, fn(leaf, from, ds, &from, &ds, count));
        have = 1;
        p = q;
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int option_scan_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero = 0;
    return option_scan_strided(self, dst, 0, src, &zero, 1);
}

static CK__KERNEL_ALIGN int option_fill_strided(ck_prefix *self, char *dst, intptr_t ds,
                                                char *const *src, const intptr_t *src_stride,
                                                size_t n) {
    const ck__option_scan *k = (const ck__option_scan *)self;
    ck_prefix *cast = ck_child(self, CK__OPTION_SCAN_CHILD);
    CK__RETURN_IF_ERROR(ck_prefix_strided(cast)(cast, dst, ds, src, src_stride, n));
    for (size_t i = 0; i < n; i++) {
        char *at = dst + (intptr_t)i * ds;
        if (is_na(k, at)) {
            memcpy(at, k->identity, k->size);
        }
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int option_fill_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero = 0;
    return option_fill_strided(self, dst, 0, src, &zero, 1);
}

static int make_option_kernel(ck_builder *ckb, size_t *offset, ck_type_id id, int skipna,
                              const unsigned char *identity, ck_request req, int fill) {
    const size_t size = ck_type_data_size(ck_type_scalar(id));
    if (size == 0 || size > 16 || (fill && identity == NULL)) {
        return ck_set_error(CK_ERR_INTERNAL, "option_scan: elements of %zu bytes", size);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__OPTION_SCAN_CHILD));
    ck__option_scan *k = (ck__option_scan *)ck_builder_at(ckb, *offset);
    k->base.destructor = option_scan_destroy;
    if (fill) {
        ck_prefix_set_function(&k->base, req, option_fill_single, option_fill_strided);
    } else {
        ck_prefix_set_function(&k->base, req, option_scan_single, option_scan_strided);
    }
    k->size = (uint32_t)size;
    k->skipna = (uint8_t)(skipna != 0);
    k->has_identity = (uint8_t)(identity != NULL);
    memcpy(k->na, ck__na_bytes(id), size);
    if (identity != NULL) {
        memcpy(k->identity, identity, size);
    }
    *offset += CK__OPTION_SCAN_CHILD;
    return CK_OK;
}

int ck__make_option_scan(ck_builder *ckb, size_t *offset, ck_type_id id, int skipna,
                         const unsigned char *identity, ck_request req) {
    return make_option_kernel(ckb, offset, id, skipna, identity, req, 0);
}

int ck__make_option_fill(ck_builder *ckb, size_t *offset, ck_type_id id,
                         const unsigned char *identity, ck_request req) {
    return make_option_kernel(ckb, offset, id, 1, identity, req, 1);
}

static void option_scan_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                 ck__children *children) {
    const ck__option_scan *k = (const ck__option_scan *)self;
    ck__strbuf_printf(out, "%s", k->skipna ? (k->has_identity ? "skipna, NA from the identity"
                                                               : "skipna")
                                           : "NA propagates");
    *size = sizeof(ck__option_scan);
    ck__children_add(children, CK__OPTION_SCAN_CHILD);
}

const ck__kind ck__option_scan_kind = {"option_scan", option_scan_single, option_scan_strided,
                                       option_scan_describe};

static void option_fill_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                 ck__children *children) {
    (void)self;
    ck__strbuf_puts(out, "the cast, then NA from the identity");
    *size = sizeof(ck__option_scan);
    ck__children_add(children, CK__OPTION_SCAN_CHILD);
}

const ck__kind ck__option_fill_kind = {"option_fill", option_fill_single, option_fill_strided,
                                       option_fill_describe};
