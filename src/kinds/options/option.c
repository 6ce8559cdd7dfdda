/* src/kinds/options/option.c: the option kernel, DyND's forward-NA pattern. Its three children:
 *   is_na      reads the sources and writes one byte per element: 1 when any source that
 *              is an option holds NA (a byte compare with the NA value, type_option.c);
 *   value      the kernel of the value types (a cast, or a callable's leaf), run over each
 *              run of elements with no NA;
 *   assign_na  writes the destination's NA over each run of NA elements.
 * A destination that is not an option cannot hold NA: an NA element is CK_ERR_NA. In checked
 * modes, a converted value that comes out equal to the destination's NA (its reserved value)
 * is CK_ERR_OVERFLOW: such values go through a stack buffer first, so the failing element is
 * never written (a text destination is not checked here: the text cast refuses to write its
 * NA itself). A float or complex value never becomes NA: one that comes out with the NA's
 * bits is written as the default NaN (na_canon.c), in the checked modes in that buffer (so a
 * failing run writes nothing), in nocheck once a chunk, over the values it wrote. is_na and
 * assign_na are leaves of this file's own kinds. */
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"
#include "types/type_internal.h"

/* Elements per chunk: a 256-byte mask and, when checking, 4 KiB of converted values. */
#define CK__OPTION_CHUNK 256
#define CK__OPTION_MAX_ELEM 16

typedef struct ck__option {
    ck_prefix base;
    uint32_t is_na, value, assign_na; /* children, from the kernel; is_na 0: no option source,
                                       * assign_na 0: the destination holds no NA */
    uint8_t dst_id;                   /* the destination's value type */
    uint8_t check;                    /* a value that converts to the NA is an overflow */
    uint8_t nsrc;
    uint8_t canon; /* ?float or ?complex: a value of the NA's bits becomes NaN (na_canon.c) */
} ck__option;

typedef struct ck__is_na_leaf {
    ck_prefix base;
    uint32_t nsrc;
    uint8_t src_id[CK__MAX_OPTION_SRC]; /* a source's value type, or CK__NOT_OPTION */
    uint8_t text; /* 1: nsrc size_t follow the leaf, each text source's element size */
} ck__is_na_leaf;

#define CK__NOT_OPTION 0xffu

typedef struct ck__assign_na {
    ck_prefix base;
    uint32_t dst_id; /* a text kind: its element's size (a size_t) follows the leaf */
} ck__assign_na;

/* The sizes behind an is_na or assign_na leaf of text (numbers need none: their kernels
 * stay as small as before text had options). */
static const size_t *sizes_after(const void *leaf, size_t leaf_size) {
    return (const size_t *)(const void *)((const char *)leaf + leaf_size);
}

#define CK__OPTION_FIRST_CHILD CK_ALIGN_OFFSET(sizeof(ck__option))

/* ---- is_na and assign_na ---- */

/* mask[i] |= (the `size` bytes at p + i * stride equal na), for n elements. */
#define CK__MARK_NA(T)                                                                          \
    do {                                                                                      \
        T v_na;                                                                               \
        memcpy(&v_na, na, sizeof v_na);                                                       \
        for (size_t i = 0; i < n; i++) {                                                      \
            T v;                                                                              \
            memcpy(&v, p + (intptr_t)i * stride, sizeof v);                                   \
            mask[i] |= (char)(v == v_na);                                                     \
        }                                                                                     \
    } while (0)

static void mark_na(char *mask, const char *p, intptr_t stride, size_t n, ck_type_id id,
                    size_t size) {
    if (ck__is_text(id)) {
        for (size_t i = 0; i < n; i++) {
            mask[i] |= (char)ck__is_text_na(p + (intptr_t)i * stride, size);
        }
        return;
    }
    const void *na = ck__na_bytes(id);
    switch (ck_type_data_size(ck_type_scalar(id))) {
    case 1: CK__MARK_NA(uint8_t); break;
    case 2: CK__MARK_NA(uint16_t); break;
    case 4: CK__MARK_NA(uint32_t); break;
    case 8: CK__MARK_NA(uint64_t); break;
    default:
        for (size_t i = 0; i < n; i++) {
            mask[i] |= (char)(memcmp(p + (intptr_t)i * stride, na, 16) == 0);
        }
        break;
    }
}

static CK__KERNEL_ALIGN int is_na_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                          char *const *src, const intptr_t *src_stride,
                                          size_t count) {
    const ck__is_na_leaf *k = (const ck__is_na_leaf *)self;
    (void)dst_stride; /* always a byte mask, stride 1 */
    memset(dst, 0, count);
    for (uint32_t s = 0; s < k->nsrc; s++) {
        if (k->src_id[s] != CK__NOT_OPTION) {
            mark_na(dst, src[s], src_stride[s], count, (ck_type_id)k->src_id[s],
                    k->text ? sizes_after(k, sizeof *k)[s] : 0);
        }
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int is_na_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zeros[CK__MAX_OPTION_SRC];
    return is_na_strided(self, dst, 1, src, zeros, 1);
}

static CK__KERNEL_ALIGN int assign_na_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                              char *const *src, const intptr_t *src_stride,
                                              size_t count) {
    (void)src;
    (void)src_stride;
    const ck__assign_na *a = (const ck__assign_na *)self;
    const ck_type_id id = (ck_type_id)a->dst_id;
    if (ck__is_text(id)) {
        const size_t size = *sizes_after(a, sizeof *a);
        for (size_t i = 0; i < count; i++, dst += dst_stride) {
            memset(dst, 0xff, size);
        }
        return CK_OK;
    }
    const void *na = ck__na_bytes(id);
    const size_t size = ck_type_data_size(ck_type_scalar(id));
    for (size_t i = 0; i < count; i++, dst += dst_stride) {
        ck__copy_scalar(dst, (const char *)na, size);
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int assign_na_single(ck_prefix *self, char *dst, char *const *src) {
    const intptr_t zero = 0;
    return assign_na_strided(self, dst, 0, src, &zero, 1);
}

/* The leaves' sizes with the element sizes of text behind them. */
static size_t is_na_size(int text, int nsrc) {
    return sizeof(ck__is_na_leaf) + (text ? (size_t)nsrc * sizeof(size_t) : 0);
}

static size_t assign_na_size(ck_type_id dst) {
    return sizeof(ck__assign_na) + (ck__is_text(dst) ? sizeof(size_t) : 0);
}

/* ---- the option kernel ---- */

static void option_destroy(ck_prefix *self) {
    const ck__option *k = (const ck__option *)self;
    const uint32_t children[3] = {k->is_na, k->value, k->assign_na};
    for (int i = 0; i < 3; i++) {
        if (children[i] != 0) {
            ck_prefix_destroy(ck_child(self, children[i]));
        }
    }
}

/* The value child over [0, n): straight into the destination, or (checking) through buf,
 * scanning for the NA before anything is written. */
static int run_values(const ck__option *k, ck_prefix *value, char *dst, intptr_t dst_stride,
                      char *const *src, const intptr_t *src_stride, size_t n, size_t first) {
    ck_strided_fn fn = ck_prefix_strided(value);
    if (!k->check) { /* a float's NaN for the NA's bits: the chunk's, option_strided */
        const int rc = fn(value, dst, dst_stride, src, src_stride, n);
        /* A leaf that names its failing element counts within this run. */
        ck__error_offset_outer(rc, (intptr_t)first);
        return rc;
    }
    const ck_type_id id = (ck_type_id)k->dst_id;
    const size_t size = ck_type_data_size(ck_type_scalar(id));
    _Alignas(16) char buf[CK__OPTION_CHUNK * CK__OPTION_MAX_ELEM];
    const int rc = fn(value, buf, (intptr_t)size, src, src_stride, n);
    if (rc != CK_OK) {
        ck__error_offset_outer(rc, (intptr_t)first);
        return rc;
    }
    size_t good = n;
    if (k->canon) { /* a float or complex: the NA's bits are NaN, nothing is refused */
        ck__canon_na(id, buf, (intptr_t)size, n);
    } else {
        char hit[CK__OPTION_CHUNK];
        memset(hit, 0, n);
        mark_na(hit, buf, (intptr_t)size, n, id, size);
        const char *na_at = memchr(hit, 1, n);
        good = na_at != NULL ? (size_t)(na_at - hit) : n;
    }
    for (size_t i = 0; i < good; i++) {
        ck__copy_scalar(dst + (intptr_t)i * dst_stride, buf + i * size, size);
    }
    if (good < n) {
        return ck_set_error(CK_ERR_OVERFLOW,
                            "the value at element %zu converts to the NA of ?%s (its reserved "
                            "value)",
                            first + good, ck_type_id_name(id));
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int option_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                           char *const *src, const intptr_t *src_stride,
                                           size_t count) {
    const ck__option *k = (const ck__option *)self;
    ck_prefix *is_na = k->is_na != 0 ? ck_child(self, k->is_na) : NULL;
    ck_prefix *value = ck_child(self, k->value);
    ck_prefix *assign_na = k->assign_na != 0 ? ck_child(self, k->assign_na) : NULL;
    const int nsrc = k->nsrc;
    char mask[CK__OPTION_CHUNK];
    char *s[CK__MAX_OPTION_SRC];
    for (int j = 0; j < nsrc; j++) {
        s[j] = src[j];
    }
    /* Straight into the destination, a float's values of the NA's bits are made NaN once a
     * chunk, after its runs (the NA runs skipped by the mask): once a run would cost a call
     * per run between NAs. A failing run's chunk has its completed runs made NaN first. */
    const int canon_chunk = k->canon && !k->check;
    const ck_type_id id = (ck_type_id)k->dst_id;
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < CK__OPTION_CHUNK ? count - done : CK__OPTION_CHUNK;
        if (is_na == NULL) {
            CK__RETURN_IF_ERROR(run_values(k, value, dst, dst_stride, s, src_stride, n, done));
            if (canon_chunk) {
                ck__canon_na(id, dst, dst_stride, n);
            }
        } else {
            CK__RETURN_IF_ERROR(ck_prefix_strided(is_na)(is_na, mask, 1, s, src_stride, n));
            for (size_t i = 0; i < n;) {
                size_t j = i;
                while (j < n && mask[j] == 0) {
                    j++;
                }
                if (j > i) {
                    char *rs[CK__MAX_OPTION_SRC];
                    for (int q = 0; q < nsrc; q++) {
                        rs[q] = s[q] + (intptr_t)i * src_stride[q];
                    }
                    const int rc = run_values(k, value, dst + (intptr_t)i * dst_stride,
                                              dst_stride, rs, src_stride, j - i, done + i);
                    if (rc != CK_OK) {
                        if (canon_chunk) {
                            ck__canon_na_masked(id, dst, dst_stride, i, mask);
                        }
                        return rc;
                    }
                }
                size_t e = j;
                while (e < n && mask[e] != 0) {
                    e++;
                }
                if (e > j) {
                    if (assign_na == NULL) {
                        return ck_set_error(CK_ERR_NA,
                                            "NA at element %zu cannot be assigned to %s, which "
                                            "is not an option type",
                                            done + j, ck_type_id_name((ck_type_id)k->dst_id));
                    }
                    CK__RETURN_IF_ERROR(ck_prefix_strided(assign_na)(
                        assign_na, dst + (intptr_t)j * dst_stride, dst_stride, s, src_stride,
                        e - j));
                }
                i = e;
            }
            if (canon_chunk) {
                ck__canon_na_masked(id, dst, dst_stride, n, mask);
            }
        }
        for (int q = 0; q < nsrc; q++) {
            s[q] += (intptr_t)n * src_stride[q];
        }
        dst += (intptr_t)n * dst_stride;
        done += n;
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int option_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zeros[CK__MAX_OPTION_SRC];
    return option_strided(self, dst, 0, src, zeros, 1);
}

int ck__make_option(ck_builder *ckb, size_t *offset, const ck__option_spec *spec,
                    ck_request req, size_t *at) {
    if (spec->nsrc < 1 || spec->nsrc > CK__MAX_OPTION_SRC ||
        (spec->check && (ck__is_text(spec->dst_id) ||
                         ck_type_data_size(ck_type_scalar(spec->dst_id)) > CK__OPTION_MAX_ELEM))) {
        return ck_set_error(CK_ERR_INTERNAL, "option kernel: %d sources", spec->nsrc);
    }
    *at = *offset;
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__OPTION_FIRST_CHILD));
    ck__option *k = (ck__option *)ck_builder_at(ckb, *offset);
    k->base.destructor = option_destroy;
    ck_prefix_set_function(&k->base, req, option_single, option_strided);
    k->dst_id = (uint8_t)spec->dst_id;
    k->check = (uint8_t)(spec->check != 0);
    k->nsrc = (uint8_t)spec->nsrc;
    k->canon = (uint8_t)(spec->dst_option && ck__na_needs_canon(spec->dst_id));
    *offset += CK__OPTION_FIRST_CHILD;
    int any = 0;
    for (int j = 0; j < spec->nsrc; j++) {
        any |= spec->src_option[j];
    }
    if (any) {
        /* is_na: the first child, right behind the kernel. */
        int text = 0;
        for (int j = 0; j < spec->nsrc; j++) {
            text |= spec->src_option[j] && ck__is_text(spec->src_id[j]);
        }
        const size_t size = is_na_size(text, spec->nsrc);
        CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + size));
        ck__is_na_leaf *m = (ck__is_na_leaf *)ck_builder_at(ckb, *offset);
        ck_prefix_set_function(&m->base, CK_REQUEST_STRIDED, is_na_single, is_na_strided);
        m->nsrc = (uint32_t)spec->nsrc;
        m->text = (uint8_t)text;
        for (int j = 0; j < spec->nsrc; j++) {
            m->src_id[j] = spec->src_option[j] ? (uint8_t)spec->src_id[j] : CK__NOT_OPTION;
            if (text) {
                memcpy((char *)m + sizeof *m + (size_t)j * sizeof(size_t), &spec->src_size[j],
                       sizeof(size_t));
            }
        }
        ((ck__option *)ck_builder_at(ckb, *at))->is_na = (uint32_t)(*offset - *at);
        *offset = CK_ALIGN_OFFSET(*offset + size);
    }
    if (spec->dst_option) {
        const size_t size = assign_na_size(spec->dst_id);
        CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + size));
        ck__assign_na *a = (ck__assign_na *)ck_builder_at(ckb, *offset);
        ck_prefix_set_function(&a->base, CK_REQUEST_STRIDED, assign_na_single,
                               assign_na_strided);
        a->dst_id = (uint32_t)spec->dst_id;
        if (ck__is_text(spec->dst_id)) {
            memcpy((char *)a + sizeof *a, &spec->dst_size, sizeof(size_t));
        }
        ((ck__option *)ck_builder_at(ckb, *at))->assign_na = (uint32_t)(*offset - *at);
        *offset = CK_ALIGN_OFFSET(*offset + size);
    }
    /* The value child comes last: the caller builds it at *offset (strided request). */
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset));
    ((ck__option *)ck_builder_at(ckb, *at))->value = (uint32_t)(*offset - *at);
    return CK_OK;
}

static void option_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                            ck__children *children) {
    const ck__option *k = (const ck__option *)self;
    ck__strbuf_printf(out, "%s%s%s", k->assign_na != 0 ? "dst=?" : "dst=",
                      ck_type_id_name((ck_type_id)k->dst_id),
                      k->canon   ? " (a value of the NA's bits becomes NaN)"
                      : k->check ? " (a value converting to NA is an overflow)"
                                 : "");
    *size = sizeof(ck__option);
    if (k->is_na != 0) {
        ck__children_add(children, k->is_na);
    }
    ck__children_add(children, k->value);
    if (k->assign_na != 0) {
        ck__children_add(children, k->assign_na);
    }
}

static void is_na_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                           ck__children *children) {
    (void)children;
    const ck__is_na_leaf *k = (const ck__is_na_leaf *)self;
    ck__strbuf_puts(out, "sources=[");
    for (uint32_t j = 0; j < k->nsrc; j++) {
        ck__strbuf_printf(out, "%s%s%s", j > 0 ? ", " : "",
                          k->src_id[j] == CK__NOT_OPTION ? "" : "?",
                          k->src_id[j] == CK__NOT_OPTION
                              ? "value"
                              : ck_type_id_name((ck_type_id)k->src_id[j]));
    }
    ck__strbuf_puts(out, "]");
    *size = is_na_size(k->text, (int)k->nsrc);
}

static void assign_na_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                               ck__children *children) {
    (void)children;
    const ck_type_id id = (ck_type_id)((const ck__assign_na *)self)->dst_id;
    ck__strbuf_printf(out, "dst=?%s", ck_type_id_name(id));
    *size = assign_na_size(id);
}

const ck__kind ck__option_kind = {"option", option_single, option_strided, option_describe};
const ck__kind ck__is_na_kind = {"is_na", is_na_single, is_na_strided, is_na_describe};
const ck__kind ck__assign_na_kind = {"assign_na", assign_na_single, assign_na_strided,
                                     assign_na_describe};
