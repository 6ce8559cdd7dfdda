/* src/leaves/numeric/where.c: the leaves of the built-in `where` (callables/builtins.c):
 * dst = cond ? a : b for (bool, T, T) -> T, every scalar type T. A select copies bits, so
 * one loop per element size serves every type of that size (NaN payloads, NA bits and
 * complex parts kept); any non-zero condition byte is true, as NumPy reads a bool. A leaf is
 * a bare ck_prefix; the compiler vectorizes these loops on the baseline target (a blend,
 * no branch). */
#include <string.h>

#include "common/internal.h"
#include "leaves/numeric/scalar_leaves.h"
#include "leaves/numeric/where_leaf.h"

#define CK__DEF_WHERE(size, T, parts)                                                          \
    static CK__KERNEL_ALIGN int where_##size##_strided(ck_prefix *self, char *dst,             \
                                                       intptr_t dst_stride, char *const *src,  \
                                                       const intptr_t *src_stride,             \
                                                       size_t count) {                         \
        (void)self;                                                                            \
        const char *c = src[0], *a = src[1], *b = src[2];                                      \
        const intptr_t cs = src_stride[0], as = src_stride[1], bs = src_stride[2];             \
        for (size_t i = 0; i < count; i++) {                                                   \
            T x[parts], y[parts];                                                              \
            memcpy(x, a + (intptr_t)i * as, sizeof x);                                         \
            memcpy(y, b + (intptr_t)i * bs, sizeof y);                                         \
            const int take_a = c[(intptr_t)i * cs] != 0;                                       \
            for (int p = 0; p < (parts); p++) {                                                \
                x[p] = take_a ? x[p] : y[p];                                                   \
            }                                                                                  \
            memcpy(dst + (intptr_t)i * dst_stride, x, sizeof x);                               \
        }                                                                                      \
        return CK_OK;                                                                          \
    }                                                                                          \
    static CK__KERNEL_ALIGN int where_##size##_single(ck_prefix *self, char *dst,              \
                                                      char *const *src) {                      \
        static const intptr_t zero[3] = {0, 0, 0};                                             \
        return where_##size##_strided(self, dst, 0, src, zero, 1);                             \
    }

CK__DEF_WHERE(1, uint8_t, 1)
CK__DEF_WHERE(2, uint16_t, 1)
CK__DEF_WHERE(4, uint32_t, 1)
CK__DEF_WHERE(8, uint64_t, 1)
CK__DEF_WHERE(16, uint64_t, 2)

#define CK__WHERE_FNS(size) {where_##size##_single, where_##size##_strided}
/* [type id], by the element's size (part size times parts). */
#define CK__WHERE_SIZE_1_1 1
#define CK__WHERE_SIZE_2_1 2
#define CK__WHERE_SIZE_4_1 4
#define CK__WHERE_SIZE_8_1 8
#define CK__WHERE_SIZE_4_2 8
#define CK__WHERE_SIZE_8_2 16
#define CK__WHERE_ENTRY(E, size) [CK_TYPE_##E] = CK__WHERE_FNS_(size),
#define CK__WHERE_FNS_(size) CK__WHERE_FNS(size)
#define CK__WHERE_ROW(E, n, part, psize, parts, ...)                                           \
    CK__WHERE_ENTRY(E, CK__WHERE_SIZE_##psize##_##parts)
static const ck__leaf_fns where_leaves[CK_NUM_SCALAR_TYPES] = {CK_SCALAR_TABLE(CK__WHERE_ROW)};

int ck__make_where_leaf(ck_builder *ckb, size_t *offset, ck_type_id id, ck_request req) {
    if ((unsigned)id >= CK_NUM_SCALAR_TYPES) {
        return ck_set_error(CK_ERR_INTERNAL, "no where leaf for type id %d", (int)id);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck_prefix)));
    ck_prefix *p = (ck_prefix *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(p, req, where_leaves[id].single, where_leaves[id].strided);
    *offset += sizeof(ck_prefix);
    return CK_OK;
}

int ck__where_leaf_describe(const void *fn, ck__strbuf *out) {
    /* Types that share a loop are all named: "where int32|uint32|float32 strided". */
    int found = 0, single = 0;
    for (int id = 0; fn != NULL && id < CK_NUM_SCALAR_TYPES; id++) {
        void *one, *many;
        memcpy(&one, &where_leaves[id].single, sizeof one);
        memcpy(&many, &where_leaves[id].strided, sizeof many);
        if (fn == one || fn == many) {
            ck__strbuf_printf(out, "%s%s", found ? "|" : "where ", ck_type_id_name((ck_type_id)id));
            found = 1;
            single = fn == one;
        }
    }
    if (found) {
        ck__strbuf_printf(out, " %s", single ? "single" : "strided");
    }
    return found;
}
