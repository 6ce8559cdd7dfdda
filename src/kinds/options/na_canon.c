/* src/kinds/options/na_canon.c: arithmetic never creates an NA (docs/design.md §14). A float or
 * complex value computed into an option can come out with the NA's bits: which operand's
 * payload a NaN result carries is the hardware's and the compiler's choice (clang's complex
 * product takes the other operand's NaN for one part), so whether such a result read as NA
 * would depend on the compiler, the CPU target and the operand order. Such a result is
 * written as the default quiet NaN instead, part by part for complex (a part of the NA's bits
 * in a value would make the element half NA). ck__canon_na does it over a run; the na_canon
 * kernel runs its child (an accumulate or scan leaf of ?A) and then does it over what the
 * child wrote. Integers need none of this: their wrap onto the NA's bits is the same on every
 * target, and reads as NA (§14). */
#include <stdint.h>
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"
#include "common/scalars.h"
#include "types/type_internal.h"

/* Each of the parts parts of n elements at p, stride apart, that the mask does not skip
 * (mask[i] != 0: an NA the kernel wrote; no mask: none): the NA's part becomes `quiet`. A
 * contiguous aligned run is first counted in branch-free loops that vectorize (the run is in
 * cache, having just been written): its parts whose low 32 bits are the NA's (every NA
 * part's are; 32-bit compares are in every target's vectors), and the skipped elements,
 * which are NA; it is gone through exactly only when more parts than theirs can be;
 * unaligned data (CK_EVAL_DST_UNALIGNED) and strided runs go element by element. */
#define CK__CANON_PARTS(T, quiet, parts)                                                      \
    do {                                                                                      \
        T na_part;                                                                            \
        memcpy(&na_part, ck__na_bytes(id), sizeof na_part);                                   \
        const T q = (quiet);                                                                  \
        if (stride == (intptr_t)(sizeof(T) * (parts)) && (uintptr_t)p % _Alignof(T) == 0) {  \
            T *v = (T *)(void *)p;                                                            \
            size_t na_parts = 0, skipped = 0; /* a skipped element is all NA's bits */       \
            for (size_t i = 0; i < n * (parts); i++) {                                        \
                na_parts += (uint32_t)v[i] == (uint32_t)na_part; /* a low word: SSE2 has */  \
            }                                                                                 \
            for (size_t i = 0; mask != NULL && i < n; i++) {                                  \
                skipped += mask[i] != 0;                                                      \
            }                                                                                 \
            for (size_t i = 0; na_parts > skipped * (parts) && i < n * (parts); i++) {        \
                if (v[i] == na_part && (mask == NULL || mask[i / (parts)] == 0)) {            \
                    v[i] = q;                                                                 \
                }                                                                             \
            }                                                                                 \
            break;                                                                            \
        }                                                                                     \
        for (size_t i = 0; i < n; i++) {                                                      \
            for (int k = 0; k < (parts) && (mask == NULL || mask[i] == 0); k++) {             \
                char *at = p + (intptr_t)i * stride + k * (intptr_t)sizeof(T);                \
                T v;                                                                          \
                memcpy(&v, at, sizeof v);                                                     \
                if (v == na_part) {                                                           \
                    memcpy(at, &q, sizeof q);                                                 \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    } while (0)

int ck__na_needs_canon(ck_type_id id) {
    return ck__scalar_is_floating(id);
}

_Static_assert(CK__SCALAR_QUIET_NAN(uint16_t, 5, 11) == 0x7e00u &&
                   CK__SCALAR_QUIET_NAN(uint32_t, 8, 24) == 0x7fc00000u &&
                   CK__SCALAR_QUIET_NAN(uint64_t, 11, 53) == UINT64_C(0x7ff8000000000000),
               "the default quiet NaNs of binary16, binary32 and binary64");

/* One case per float and complex row of the scalar table: its parts' bits and quiet NaN. */
#define CK__CANON_CASE_BOOL(E, psize, parts, exp, bits)
#define CK__CANON_CASE_SIGNED(E, psize, parts, exp, bits)
#define CK__CANON_CASE_UNSIGNED(E, psize, parts, exp, bits)
#define CK__CANON_CASE_FLOAT(E, psize, parts, exp, bits)                                      \
    case CK_TYPE_##E:                                                                         \
        CK__CANON_PARTS(CK__SCALAR_UINT_##psize,                                              \
                        CK__SCALAR_QUIET_NAN(CK__SCALAR_UINT_##psize, exp, bits), parts);     \
        break;
#define CK__CANON_CASE_COMPLEX CK__CANON_CASE_FLOAT
#define CK__CANON_CASE(E, n, part, psize, parts, kind, bits, exp, ...)                        \
    CK__CANON_CASE_##kind(E, psize, parts, exp, bits)

void ck__canon_na_masked(ck_type_id id, char *p, intptr_t stride, size_t n, const char *mask) {
    switch (id) {
    CK_SCALAR_TABLE(CK__CANON_CASE)
    default: break;
    }
}

void ck__canon_na(ck_type_id id, char *p, intptr_t stride, size_t n) {
    ck__canon_na_masked(id, p, stride, n, NULL);
}

typedef struct ck__na_canon {
    ck_prefix base;
    uint32_t id; /* the value type of ?A */
} ck__na_canon;

#define CK__NA_CANON_CHILD CK_ALIGN_OFFSET(sizeof(ck__na_canon))

static void na_canon_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__NA_CANON_CHILD));
}

static CK__KERNEL_ALIGN int na_canon_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                             char *const *src, const intptr_t *src_stride,
                                             size_t count) {
    ck_prefix *child = ck_child(self, CK__NA_CANON_CHILD);
    CK__RETURN_IF_ERROR(ck_prefix_strided(child)(child, dst, dst_stride, src, src_stride, count));
    if (count > 0) { /* an empty destination (stride 0) may have no bytes */
        /* a fold into one accumulator (stride 0) leaves one element */
        ck__canon_na((ck_type_id)((const ck__na_canon *)self)->id, dst, dst_stride,
                     dst_stride == 0 ? 1 : count);
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int na_canon_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zeros[CK__MAX_OPTION_SRC];
    return na_canon_strided(self, dst, 0, src, zeros, 1);
}

int ck__make_na_canon(ck_builder *ckb, size_t *offset, ck_type_id id, ck_request req) {
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__NA_CANON_CHILD));
    ck__na_canon *k = (ck__na_canon *)ck_builder_at(ckb, *offset);
    k->base.destructor = na_canon_destroy;
    ck_prefix_set_function(&k->base, req, na_canon_single, na_canon_strided);
    k->id = (uint32_t)id;
    *offset += CK__NA_CANON_CHILD;
    return CK_OK;
}

static void na_canon_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                              ck__children *children) {
    ck__strbuf_printf(out, "?%s: a value of the NA's bits becomes NaN",
                      ck_type_id_name((ck_type_id)((const ck__na_canon *)self)->id));
    *size = sizeof(ck__na_canon);
    ck__children_add(children, CK__NA_CANON_CHILD);
}

const ck__kind ck__na_canon_kind = {"na_canon", na_canon_single, na_canon_strided,
                                    na_canon_describe};
