/* src/kinds/reduce/reduce_option.c: the accumulate kernel of a reduction whose source is an option
 * (?T): dst = f(dst, src) with missing values (docs/design.md §14). It runs its value child
 * (the accumulate leaf of A, behind the cast of T's values) over runs of elements that are
 * not NA, and decides the others:
 *   propagate (no skipna)  an NA element makes its accumulator NA, which then stays NA; a
 *                          destination that is not an option cannot hold it (CK_ERR_NA);
 *   skipna                 an NA element is left out. With `first` (an operation without
 *                          identity: minimum, maximum) the accumulators start as NA, meaning
 *                          "no element yet": the first element is cast into one (the first
 *                          child) instead of folded, and one that finds none stays NA.
 * With a destination stride of 0 the whole run folds into one accumulator, as the leaf's
 * fold; otherwise element i goes into accumulator i. Into ?A of a float or complex A, an
 * accumulator that comes out with the NA's bits is the default NaN (na_canon.c). */
#include <stddef.h>
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"
#include "types/type_internal.h"

typedef struct ck__reduce_option {
    ck_prefix base;
    uint32_t first_child; /* offset of the cast T -> A for `first`; 0: none */
    uint8_t skipna, first, dst_option, src_size, dst_size;
    uint8_t canon;  /* a value is never NA (na_canon.c): after each run of values */
    uint8_t dst_id; /* A */
    uint8_t pad[1];
    unsigned char src_na[16], dst_na[16];
} ck__reduce_option;

#define CK__REDUCE_OPTION_CHILD CK_ALIGN_OFFSET(sizeof(ck__reduce_option))

static void reduce_option_destroy(ck_prefix *self) {
    const ck__reduce_option *k = (const ck__reduce_option *)self;
    ck_prefix_destroy(ck_child(self, CK__REDUCE_OPTION_CHILD));
    if (k->first_child != 0) {
        ck_prefix_destroy(ck_child(self, k->first_child));
    }
}

static inline int is_na(const char *p, const unsigned char *na, size_t size) {
    return memcmp(p, na, size) == 0;
}

static int na_refused(const ck__reduce_option *k, size_t i) {
    (void)k;
    return ck_set_error(CK_ERR_NA,
                        "NA at element %zu cannot be accumulated into a destination that is "
                        "not an option type (leave NA out with skipna)",
                        i);
}

/* An accumulator that reads as NA: propagated, or with `first` one that holds no element
 * yet. With skipna and an identity nothing makes it NA, so NA bits there are a value (an
 * integer product that wrapped onto them) and fold on as one. */
static inline int acc_is_na(const ck__reduce_option *k, const char *acc) {
    return k->dst_option && (k->first || !k->skipna) && is_na(acc, k->dst_na, k->dst_size);
}

/* n accumulators ds apart that values were just folded or cast into: none of the NA's bits
 * (a value is never NA; an NA the kernel writes itself comes after). */
static inline void canon(const ck__reduce_option *k, char *acc, intptr_t ds, size_t n) {
    if (k->canon) {
        ck__canon_na((ck_type_id)k->dst_id, acc, ds, n);
    }
}

/* The first element of an accumulator that holds none yet: cast into it. */
static int start_with(ck_prefix *self, char *acc, char *x) {
    const ck__reduce_option *k = (const ck__reduce_option *)self;
    static const intptr_t zero = 0;
    return ck_call_strided(ck_child(self, k->first_child), acc, 0, &x, &zero, 1);
}

/* All of x[0..n) into the one accumulator *dst. */
static int fold_run(ck_prefix *self, char *dst, char *x, intptr_t xs, size_t n) {
    if (n == 0) {
        return CK_OK; /* untouched: an empty destination (stride 0) may have no bytes */
    }
    const ck__reduce_option *k = (const ck__reduce_option *)self;
    ck_prefix *value = ck_child(self, CK__REDUCE_OPTION_CHILD);
    ck_strided_fn fn = ck_prefix_strided(value);
    int acc_na = acc_is_na(k, dst);
    if (acc_na && !k->skipna) {
        return CK_OK; /* NA stays NA */
    }
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && !is_na(x + (intptr_t)j * xs, k->src_na, k->src_size)) {
            j++;
        }
        if (j > i && acc_na) {
            CK__RETURN_IF_ERROR(start_with(self, dst, x + (intptr_t)i * xs));
            canon(k, dst, 0, 1);
            acc_na = 0;
            i++;
        }
        if (j > i) {
            char *run = x + (intptr_t)i * xs;
            CK__RETURN_IF_ERROR(fn(value, dst, 0, &run, &xs, j - i));
            canon(k, dst, 0, 1);
        }
        if (j < n && !k->skipna) {
            if (!k->dst_option) {
                return na_refused(k, j);
            }
            memcpy(dst, k->dst_na, k->dst_size);
            return CK_OK;
        }
        i = j + 1;
    }
    return CK_OK;
}

/* Element i into accumulator i, for n of them: runs where neither is NA go to the value
 * child together. */
static int each_run(ck_prefix *self, char *dst, intptr_t ds, char *x, intptr_t xs, size_t n) {
    const ck__reduce_option *k = (const ck__reduce_option *)self;
    ck_prefix *value = ck_child(self, CK__REDUCE_OPTION_CHILD);
    ck_strided_fn fn = ck_prefix_strided(value);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && !is_na(x + (intptr_t)j * xs, k->src_na, k->src_size) &&
               !acc_is_na(k, dst + (intptr_t)j * ds)) {
            j++;
        }
        if (j > i) {
            char *run = x + (intptr_t)i * xs;
            CK__RETURN_IF_ERROR(fn(value, dst + (intptr_t)i * ds, ds, &run, &xs, j - i));
            canon(k, dst + (intptr_t)i * ds, ds, j - i);
        }
        if (j == n) {
            break;
        }
        char *acc = dst + (intptr_t)j * ds, *xj = x + (intptr_t)j * xs;
        const int x_na = is_na(xj, k->src_na, k->src_size);
        if (!x_na) {
            /* the accumulator is NA: propagated (stays), or no element yet (skipna) */
            if (k->skipna) {
                CK__RETURN_IF_ERROR(start_with(self, acc, xj));
                canon(k, acc, 0, 1);
            }
        } else if (!k->skipna) {
            if (!k->dst_option) {
                return na_refused(k, j);
            }
            memcpy(acc, k->dst_na, k->dst_size);
        }
        i = j + 1;
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int reduce_option_strided(ck_prefix *self, char *dst,
                                                  intptr_t dst_stride, char *const *src,
                                                  const intptr_t *src_stride, size_t count) {
    return dst_stride == 0 ? fold_run(self, dst, src[0], src_stride[0], count)
                           : each_run(self, dst, dst_stride, src[0], src_stride[0], count);
}

static CK__KERNEL_ALIGN int reduce_option_single(ck_prefix *self, char *dst, char *const *src) {
    return fold_run(self, dst, src[0], 0, 1);
}

int ck__make_reduce_option(ck_builder *ckb, size_t *offset, const ck__reduce_option_spec *spec,
                           ck_request req, size_t *at) {
    const size_t ss = ck_type_data_size(ck_type_scalar(spec->src_id));
    const size_t ds = ck_type_data_size(ck_type_scalar(spec->dst_id));
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__REDUCE_OPTION_CHILD));
    ck__reduce_option *k = (ck__reduce_option *)ck_builder_at(ckb, *offset);
    k->base.destructor = reduce_option_destroy;
    ck_prefix_set_function(&k->base, req, reduce_option_single, reduce_option_strided);
    k->skipna = (uint8_t)(spec->skipna != 0);
    k->first = (uint8_t)(spec->first != 0);
    k->dst_option = (uint8_t)(spec->dst_option != 0);
    k->src_size = (uint8_t)ss;
    k->dst_size = (uint8_t)ds;
    k->canon = (uint8_t)(spec->canon != 0); /* the builder decided it (reduce.c) */
    k->dst_id = (uint8_t)spec->dst_id;
    memcpy(k->src_na, ck__na_bytes(spec->src_id), ss);
    memcpy(k->dst_na, ck__na_bytes(spec->dst_id), ds);
    *at = *offset;
    *offset += CK__REDUCE_OPTION_CHILD;
    return CK_OK;
}

int ck__reduce_option_set_first(ck_builder *ckb, size_t at, size_t child_offset) {
    return ck__record_child(ckb, at, offsetof(ck__reduce_option, first_child), child_offset,
                            "reduce_option");
}

static void reduce_option_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                                   ck__children *children) {
    const ck__reduce_option *k = (const ck__reduce_option *)self;
    ck__strbuf_printf(out, "%s%s", k->skipna ? "skipna" : "NA propagates",
                      k->first ? ", NA until the first element" : "");
    if (!k->dst_option) {
        ck__strbuf_puts(out, ", destination not an option");
    }
    if (k->canon) {
        ck__strbuf_puts(out, ", a value of the NA's bits becomes NaN");
    }
    *size = sizeof(ck__reduce_option);
    ck__children_add(children, CK__REDUCE_OPTION_CHILD);
    if (k->first_child != 0) {
        ck__children_add(children, k->first_child);
    }
}

const ck__kind ck__reduce_option_kind = {"reduce_option", reduce_option_single,
                                         reduce_option_strided, reduce_option_describe};
