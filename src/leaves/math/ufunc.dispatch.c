/* src/leaves/math/ufunc.dispatch.c: the leaves of the LEAF loops of ufunc_list.h, single and
 * strided, each applying its element function (math_ops.h) to aligned elements.
 *
 * Compiled once per CPU target with CK_CPU_TARGET_CURRENT defined, like arith.dispatch.c: the
 * one exported symbol is the table ck__ufunc_leaves_<target>, indexed by loop. The strided
 * function has a fast path for contiguous operands and, with two operands, one for each
 * broadcast one (stride 0), written as one loop indexed by i * step with the step a
 * constant 0 or 1, which the compiler vectorizes for the target where the element function
 * allows; then the general loop (any strides). No a*b+c is fused into an FMA
 * (-ffp-contract=off, src/leaves/math/CMakeLists.txt): the results are the same bits on
 * every target. */
#include <stdint.h>

#include "common/internal.h"
#include "leaves/math/math_ops.h"
#include "leaves/math/ufunc_list.h"
#include "targets/dispatch_target.h"

#define CK__UF_FN1(name, a) ck__uf_##name##_##a
#define CK__UF_FN2(name, a, b) ck__uf_##name##_##a##_##b
#define CK__UF_LEAF(name, a, b, r, what) ck__ufl_##name##__##a##_##b##__##r##_##what

/* One operand: d = f(a). */
#define CK__UF_DEF_UNARY(name, a, b, r)                                                     \
    static int CK__UF_LEAF(name, a, b, r, single)(ck_prefix *self, char *dst,               \
                                                  char *const *src) {                       \
        (void)self;                                                                         \
        *(ck__ct_##r *)(void *)dst =                                                        \
            CK__UF_FN1(name, a)(*(const ck__ct_##a *)(const void *)src[0]);                 \
        return CK_OK;                                                                       \
    }                                                                                       \
    CK__HOT void CK__UF_LEAF(name, a, b, r, fast)(ck__ct_##r *d, const ck__ct_##a *p,       \
                                                  size_t n) {                               \
        for (size_t i = 0; i < n; i++) {                                                    \
            d[i] = CK__UF_FN1(name, a)(p[i]);                                               \
        }                                                                                   \
    }                                                                                       \
    static CK__KERNEL_ALIGN int CK__UF_LEAF(name, a, b, r, strided)(                        \
        ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,                  \
        const intptr_t *src_stride, size_t count) {                                         \
        (void)self;                                                                         \
        const char *s = src[0];                                                             \
        const intptr_t ss = src_stride[0];                                                  \
        const intptr_t ea = (intptr_t)sizeof(ck__ct_##a);                                   \
        if (dst_stride == (intptr_t)sizeof(ck__ct_##r) && ss == ea) {                       \
            CK__UF_LEAF(name, a, b, r, fast)((ck__ct_##r *)(void *)dst,                     \
                                             (const ck__ct_##a *)(const void *)s, count);   \
            return CK_OK;                                                                   \
        }                                                                                   \
        for (size_t i = 0; i < count; i++, dst += dst_stride, s += ss) {                    \
            const ck__ct_##a x = *(const ck__ct_##a *)(const void *)s;                      \
            *(ck__ct_##r *)(void *)dst = CK__UF_FN1(name, a)(x);                            \
        }                                                                                   \
        return CK_OK;                                                                       \
    }

/* Two operands: d = f(a, b). */
#define CK__UF_DEF_BINARY(name, a, b, r)                                                    \
    static int CK__UF_LEAF(name, a, b, r, single)(ck_prefix *self, char *dst,               \
                                                  char *const *src) {                       \
        (void)self;                                                                         \
        *(ck__ct_##r *)(void *)dst =                                                        \
            CK__UF_FN2(name, a, b)(*(const ck__ct_##a *)(const void *)src[0],               \
                                   *(const ck__ct_##b *)(const void *)src[1]);              \
        return CK_OK;                                                                       \
    }                                                                                       \
    CK__HOT void CK__UF_LEAF(name, a, b, r, fast)(ck__ct_##r *d, const ck__ct_##a *pa,      \
                                                  size_t as, const ck__ct_##b *pb, size_t bs, \
                                                  size_t n) {                               \
        for (size_t i = 0; i < n; i++) {                                                    \
            d[i] = CK__UF_FN2(name, a, b)(pa[i * as], pb[i * bs]);                          \
        }                                                                                   \
    }                                                                                       \
    static CK__KERNEL_ALIGN int CK__UF_LEAF(name, a, b, r, strided)(                        \
        ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,                  \
        const intptr_t *src_stride, size_t count) {                                         \
        (void)self;                                                                         \
        const char *pa = src[0], *pb = src[1];                                              \
        const intptr_t as = src_stride[0], bs = src_stride[1];                              \
        const intptr_t ea = (intptr_t)sizeof(ck__ct_##a), eb = (intptr_t)sizeof(ck__ct_##b); \
        if (dst_stride == (intptr_t)sizeof(ck__ct_##r) && (as == ea || as == 0) &&          \
            (bs == eb || bs == 0) && !(as == 0 && bs == 0)) {                               \
            ck__ct_##r *d = (ck__ct_##r *)(void *)dst;                                      \
            const ck__ct_##a *xa = (const ck__ct_##a *)(const void *)pa;                    \
            const ck__ct_##b *xb = (const ck__ct_##b *)(const void *)pb;                    \
            if (as == 0) {                                                                  \
                CK__UF_LEAF(name, a, b, r, fast)(d, xa, 0, xb, 1, count);                   \
            } else if (bs == 0) {                                                           \
                CK__UF_LEAF(name, a, b, r, fast)(d, xa, 1, xb, 0, count);                   \
            } else {                                                                        \
                CK__UF_LEAF(name, a, b, r, fast)(d, xa, 1, xb, 1, count);                   \
            }                                                                               \
            return CK_OK;                                                                   \
        }                                                                                   \
        for (size_t i = 0; i < count; i++, dst += dst_stride, pa += as, pb += bs) {         \
            *(ck__ct_##r *)(void *)dst =                                                    \
                CK__UF_FN2(name, a, b)(*(const ck__ct_##a *)(const void *)pa,               \
                                       *(const ck__ct_##b *)(const void *)pb);              \
        }                                                                                   \
        return CK_OK;                                                                       \
    }

/* Every LEAF loop of every function; the others have no leaf here. */
#define CK__UF_DEF_LEAF_1 CK__UF_DEF_UNARY
#define CK__UF_DEF_LEAF_2 CK__UF_DEF_BINARY
#define CK__UF_DEF_ARITH_2(...)
#define CK__UF_DEF_REFUSE_1(...)
#define CK__UF_DEF_REFUSE_2(...)
#define CK__UF_DEF_LOOP(name, I, NIN, a, b, r) CK__UF_DEF_##I##_##NIN(name, a, b, r)
#define CK__UF_DEF_LOOPS(name, ...) CK__UFL_##name(CK__UF_DEF_LOOP)
CK__UFUNC_LIST(CK__UF_DEF_LOOPS)

/* ---- the table ---- */
#define CK__UF_ENTRY_LEAF(name, a, b, r)                                                    \
    [CK__UFLOOP_##name##__##a##_##b##__##r] = {CK__UF_LEAF(name, a, b, r, single),          \
                                               CK__UF_LEAF(name, a, b, r, strided)},
#define CK__UF_ENTRY_ARITH(...)
#define CK__UF_ENTRY_REFUSE(...)
#define CK__UF_ENTRY(name, I, NIN, a, b, r) CK__UF_ENTRY_##I(name, a, b, r)
#define CK__UF_ENTRIES(name, ...) CK__UFL_##name(CK__UF_ENTRY)
const ck__ufunc_table CK_TARGET_NAME(ck__ufunc_leaves) = {CK__UFUNC_LIST(CK__UF_ENTRIES)};
