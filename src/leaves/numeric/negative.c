/* src/leaves/numeric/negative.c: the leaves of the built-in `negative` (unary minus of expressions,
 * src/expr): dst = -src for every scalar type but bool, as NumPy 1.24's np.negative: integers
 * wrap (computed unsigned, so -INT_MIN is INT_MIN and -1 of uint8 is 255), floats and
 * float16 flip the sign bit (NaN payloads kept), complex numbers negate both parts. A leaf is
 * a bare ck_prefix; one plain loop per type (a sign flip or a wrapped negation needs no
 * per-target code: the compiler vectorizes these loops on the baseline target). */
#include <string.h>

#include "common/internal.h"
#include "leaves/numeric/scalar_leaves.h"
#include "leaves/numeric/unary_leaves.h"

/* -x of an element of `bits` bits held as an unsigned integer: two's complement negation for
 * the integers, the sign bit flipped for floats. */
#define CK__NEG_INT(x) ((0u - (x)))
#define CK__NEG_SIGN(T, x) ((T)((x) ^ ((T)1 << (sizeof(T) * 8 - 1))))

#define CK__DEF_NEG(name, T, OP, parts)                                                       \
    static CK__KERNEL_ALIGN int neg_##name##_strided(ck_prefix *self, char *dst,               \
                                                     intptr_t dst_stride, char *const *src,    \
                                                     const intptr_t *src_stride,               \
                                                     size_t count) {                           \
        (void)self;                                                                            \
        const char *s = src[0];                                                                \
        const intptr_t ss = src_stride[0];                                                     \
        for (size_t i = 0; i < count; i++) {                                                   \
            T v[parts];                                                                        \
            memcpy(v, s + (intptr_t)i * ss, sizeof v);                                         \
            for (int p = 0; p < (parts); p++) {                                                \
                v[p] = (T)OP;                                                                  \
            }                                                                                  \
            memcpy(dst + (intptr_t)i * dst_stride, v, sizeof v);                               \
        }                                                                                      \
        return CK_OK;                                                                          \
    }                                                                                          \
    static CK__KERNEL_ALIGN int neg_##name##_single(ck_prefix *self, char *dst,                \
                                                    char *const *src) {                        \
        static const intptr_t zero[1] = {0};                                                   \
        return neg_##name##_strided(self, dst, 0, src, zero, 1);                               \
    }

/* One loop per shape: integers wrap by size; floats and complex flip each part's sign bit. */
CK__DEF_NEG(int_1, uint8_t, CK__NEG_INT(v[p]), 1)
CK__DEF_NEG(int_2, uint16_t, CK__NEG_INT(v[p]), 1)
CK__DEF_NEG(int_4, uint32_t, CK__NEG_INT(v[p]), 1)
CK__DEF_NEG(int_8, uint64_t, CK__NEG_INT(v[p]), 1)
CK__DEF_NEG(sign_2_1, uint16_t, CK__NEG_SIGN(uint16_t, v[p]), 1)
CK__DEF_NEG(sign_4_1, uint32_t, CK__NEG_SIGN(uint32_t, v[p]), 1)
CK__DEF_NEG(sign_8_1, uint64_t, CK__NEG_SIGN(uint64_t, v[p]), 1)
CK__DEF_NEG(sign_4_2, uint32_t, CK__NEG_SIGN(uint32_t, v[p]), 2)
CK__DEF_NEG(sign_8_2, uint64_t, CK__NEG_SIGN(uint64_t, v[p]), 2)

#define CK__NEG_FNS(name) {neg_##name##_single, neg_##name##_strided}
/* [type id], from the scalar table by kind and shape; bool has none (NumPy refuses -bool). */
#define CK__NEG_BOOL(E, psize, parts)
#define CK__NEG_SIGNED(E, psize, parts) [CK_TYPE_##E] = CK__NEG_FNS(int_##psize),
#define CK__NEG_UNSIGNED(E, psize, parts) [CK_TYPE_##E] = CK__NEG_FNS(int_##psize),
#define CK__NEG_FLOAT(E, psize, parts) [CK_TYPE_##E] = CK__NEG_FNS(sign_##psize##_##parts),
#define CK__NEG_COMPLEX CK__NEG_FLOAT
#define CK__NEG_ROW(E, n, part, psize, parts, kind, ...) CK__NEG_##kind(E, psize, parts)
static const ck__leaf_fns neg_leaves[CK_NUM_SCALAR_TYPES] = {CK_SCALAR_TABLE(CK__NEG_ROW)};

int ck__negative_has_leaf(ck_type_id id) {
    return (unsigned)id < CK_NUM_SCALAR_TYPES && neg_leaves[id].single != NULL;
}

int ck__make_negative_leaf(ck_builder *ckb, size_t *offset, ck_type_id id, ck_request req) {
    if (!ck__negative_has_leaf(id)) {
        const char *type = ck_type_id_name(id);
        return ck_set_error(CK_ERR_INTERNAL, "no negative leaf for type %s",
                            type != NULL ? type : "?");
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck_prefix)));
    ck_prefix *p = (ck_prefix *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(p, req, neg_leaves[id].single, neg_leaves[id].strided);
    *offset += sizeof(ck_prefix);
    return CK_OK;
}

int ck__negative_leaf_describe(const void *fn, ck__strbuf *out) {
    /* Types that share a loop (the same bits: int8 and uint8, float16 and bfloat16) are all
     * named: "negative int8|uint8 strided". */
    int found = 0, single = 0;
    for (int id = 0; fn != NULL && id < CK_NUM_SCALAR_TYPES; id++) {
        void *one, *many;
        memcpy(&one, &neg_leaves[id].single, sizeof one);
        memcpy(&many, &neg_leaves[id].strided, sizeof many);
        if (one != NULL && (fn == one || fn == many)) {
            ck__strbuf_printf(out, "%s%s", found ? "|" : "negative ",
                              ck_type_id_name((ck_type_id)id));
            found = 1;
            single = fn == one;
        }
    }
    if (found) {
        ck__strbuf_printf(out, " %s", single ? "single" : "strided");
    }
    return found;
}
