/* src/leaves/math/ufunc.dispatch.c: the leaves of the LEAF, CHECKED and VMATH loops of
 * ufunc_list.h, single and strided: a LEAF loop applies its element function (math_ops.h)
 * to aligned elements, a CHECKED one tests each element's arguments first, a VMATH one runs
 * its vector kernel (vmath_ops.h) over chunks.
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
#include "leaves/math/vmath_ops.h"
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

/* Two operands, some refused: d = f(a, b) after ck__uf_<name>_<a>_<b>_bad(a, b) said no;
 * the first refused element is CK_ERR_DOMAIN, located (the elements before it written). */
static CK__COLD int ck__uf_refused_at(const char *what, size_t i) {
    const int rc = ck__set_located_error(CK_ERR_DOMAIN, NULL, 0, "%s", what);
    ck__error_at(rc, (intptr_t)i);
    return rc;
}
#define CK__UF_DEF_CHECKED(name, a, b, r)                                                   \
    static int CK__UF_LEAF(name, a, b, r, single)(ck_prefix *self, char *dst,               \
                                                  char *const *src) {                       \
        (void)self;                                                                         \
        const ck__ct_##a x = *(const ck__ct_##a *)(const void *)src[0];                     \
        const ck__ct_##b y = *(const ck__ct_##b *)(const void *)src[1];                     \
        if (CK__UNLIKELY(ck__uf_##name##_##a##_##b##_bad(x, y))) {                          \
            return ck_set_error(CK_ERR_DOMAIN, "%s", CK__UF_REFUSED_##name);                \
        }                                                                                   \
        *(ck__ct_##r *)(void *)dst = CK__UF_FN2(name, a, b)(x, y);                          \
        return CK_OK;                                                                       \
    }                                                                                       \
    static CK__KERNEL_ALIGN int CK__UF_LEAF(name, a, b, r, strided)(                        \
        ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,                  \
        const intptr_t *src_stride, size_t count) {                                         \
        (void)self;                                                                         \
        const char *pa = src[0], *pb = src[1];                                              \
        for (size_t i = 0; i < count; i++, dst += dst_stride, pa += src_stride[0],          \
                    pb += src_stride[1]) {                                                  \
            const ck__ct_##a x = *(const ck__ct_##a *)(const void *)pa;                     \
            const ck__ct_##b y = *(const ck__ct_##b *)(const void *)pb;                     \
            if (CK__UNLIKELY(ck__uf_##name##_##a##_##b##_bad(x, y))) {                      \
                return ck__uf_refused_at(CK__UF_REFUSED_##name, i);                         \
            }                                                                               \
            *(ck__ct_##r *)(void *)dst = CK__UF_FN2(name, a, b)(x, y);                      \
        }                                                                                   \
        return CK_OK;                                                                       \
    }

/* The vector kernels (vmath_ops.h) in chunks: each operand of the compute type and
 * contiguous is read in place, any other gathered (and widened: float16 and bfloat16
 * compute in float32) into a chunk on the stack; the kernel writes a chunk, which is
 * stored (and narrowed) into the destination. The compute type of each float type: */
#define CK__UF_CT_float16 float32
#define CK__UF_CT_bfloat16 float32
#define CK__UF_CT_float32 float32
#define CK__UF_CT_float64 float64
#define CK__UF_CTX(T) CK__UF_CTX_(CK__UF_CT_##T)
#define CK__UF_CTX_(C) CK__UF_CTX__(C)
#define CK__UF_CTX__(C) ck__ct_##C
#define CK__UF_VM_FN(name, T) CK__UF_VM_FN_(name, CK__UF_CT_##T)
#define CK__UF_VM_FN_(name, C) CK__UF_VM_FN__(name, C)
#define CK__UF_VM_FN__(name, C) ck__vm_##name##_##C
/* Operand k's chunk of m elements from p (stride s): in place or into buf. */
#define CK__UF_VM_GATHER(T)                                                                 \
    CK__HOT const CK__UF_CTX(T) *ck__uf_vm_in_##T(const char *p, intptr_t s, size_t m,      \
                                                CK__UF_CTX(T) *buf) {                       \
        if (sizeof(ck__ct_##T) == sizeof(CK__UF_CTX(T)) && s == (intptr_t)sizeof(ck__ct_##T)) { \
            return (const CK__UF_CTX(T) *)(const void *)p;                                  \
        }                                                                                   \
        for (size_t i = 0; i < m; i++, p += s) {                                            \
            buf[i] = CK__UF_WIDEN_##T(*(const ck__ct_##T *)(const void *)p);                \
        }                                                                                   \
        return buf;                                                                         \
    }                                                                                       \
    CK__HOT void ck__uf_vm_out_##T(char *p, intptr_t s, size_t m, const CK__UF_CTX(T) *buf) { \
        for (size_t i = 0; i < m; i++, p += s) {                                            \
            *(ck__ct_##T *)(void *)p = CK__UF_NARROW_##T(buf[i]);                           \
        }                                                                                   \
    }
#define CK__UF_WIDEN_float16(x) ck__widen_float16(x)
#define CK__UF_WIDEN_bfloat16(x) ck__widen_bfloat16(x)
#define CK__UF_WIDEN_float32(x) (x)
#define CK__UF_WIDEN_float64(x) (x)
#define CK__UF_NARROW_float16(x) ck__narrow_float16(x)
#define CK__UF_NARROW_bfloat16(x) ck__narrow_bfloat16(x)
#define CK__UF_NARROW_float32(x) (x)
#define CK__UF_NARROW_float64(x) (x)
CK__UF_VM_GATHER(float16)
CK__UF_VM_GATHER(bfloat16)
CK__UF_VM_GATHER(float32)
CK__UF_VM_GATHER(float64)

#define CK__UF_DEF_VMATH(name, a, b, r, NIN)                                                \
    static CK__KERNEL_ALIGN int CK__UF_LEAF(name, a, b, r, strided)(                        \
        ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,                  \
        const intptr_t *src_stride, size_t count) {                                         \
        (void)self;                                                                         \
        CK__UF_CTX(a) ba[CK__VM_CHUNK], bb[CK__VM_CHUNK], out[CK__VM_CHUNK];                \
        for (size_t done = 0; done < count;) {                                              \
            const size_t m = count - done < CK__VM_CHUNK ? count - done : CK__VM_CHUNK;     \
            const intptr_t at = (intptr_t)done;                                             \
            const CK__UF_CTX(a) *xa =                                                       \
                ck__uf_vm_in_##a(src[0] + at * src_stride[0], src_stride[0], m, ba);        \
            const CK__UF_CTX(a) *xb =                                                       \
                NIN == 2 ? ck__uf_vm_in_##a(src[NIN - 1] + at * src_stride[NIN - 1],        \
                                            src_stride[NIN - 1], m, bb)                     \
                         : xa;                                                              \
            char *d = dst + at * dst_stride;                                                \
            if (sizeof(ck__ct_##r) == sizeof(CK__UF_CTX(r)) &&                              \
                dst_stride == (intptr_t)sizeof(ck__ct_##r)) { /* straight into dst */       \
                CK__UF_VM_FN(name, a)((CK__UF_CTX(r) *)(void *)d, xa, xb, m);               \
            } else {                                                                        \
                CK__UF_VM_FN(name, a)(out, xa, xb, m);                                      \
                ck__uf_vm_out_##r(d, dst_stride, m, out);                                   \
            }                                                                               \
            done += m;                                                                      \
        }                                                                                   \
        return CK_OK;                                                                       \
    }                                                                                       \
    static int CK__UF_LEAF(name, a, b, r, single)(ck_prefix *self, char *dst,               \
                                                  char *const *src) {                       \
        static const intptr_t zero[2] = {0, 0};                                             \
        return CK__UF_LEAF(name, a, b, r, strided)(self, dst, 0, src, zero, 1);             \
    }

/* Two results: the leaf writes the C struct {first; second;} of the loop's two types (the
 * tuple ck__signature_result describes), element by element. */
#define CK__UF_CT_OF(T) CK__UF_CT_OF_(T)
#define CK__UF_CT_OF_(T) ck__ct_##T
#define CK__UF_PAIR_STRUCT(name, a, b, r)                                                   \
    typedef struct {                                                                        \
        ck__ct_##r first;                                                                   \
        CK__UF_CT_OF(CK__UF_SECOND_##name(a)) second;                                       \
    } CK__UF_LEAF(name, a, b, r, pair);
/* The first result of element i at pa (and pb), the second through &d->second. */
#define CK__UF_PAIR_CALL_1(name, a, b, pa, pb, second)                                      \
    CK__UF_FN1(name, a)(*(const ck__ct_##a *)(const void *)(pa), second)
#define CK__UF_PAIR_CALL_2(name, a, b, pa, pb, second)                                      \
    CK__UF_FN2(name, a, b)(*(const ck__ct_##a *)(const void *)(pa),                         \
                           *(const ck__ct_##b *)(const void *)(pb), second)
#define CK__UF_DEF_PAIR(name, a, b, r, NIN)                                                 \
    CK__UF_PAIR_STRUCT(name, a, b, r)                                                       \
    static CK__KERNEL_ALIGN int CK__UF_LEAF(name, a, b, r, strided)(                        \
        ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,                  \
        const intptr_t *src_stride, size_t count) {                                         \
        (void)self;                                                                         \
        const char *pa = src[0], *pb = src[NIN - 1];                                        \
        for (size_t i = 0; i < count; i++, dst += dst_stride, pa += src_stride[0],          \
                    pb += src_stride[NIN - 1]) {                                            \
            CK__UF_LEAF(name, a, b, r, pair) *d = (CK__UF_LEAF(name, a, b, r, pair) *)(void *)dst; \
            d->first = CK__UF_PAIR_CALL_##NIN(name, a, b, pa, pb, &d->second);              \
        }                                                                                   \
        return CK_OK;                                                                       \
    }                                                                                       \
    static int CK__UF_LEAF(name, a, b, r, single)(ck_prefix *self, char *dst,               \
                                                  char *const *src) {                       \
        static const intptr_t zero[2] = {0, 0};                                             \
        return CK__UF_LEAF(name, a, b, r, strided)(self, dst, 0, src, zero, 1);             \
    }
#define CK__UF_DEF_PAIR_1(name, a, b, r) CK__UF_DEF_PAIR(name, a, b, r, 1)
#define CK__UF_DEF_PAIR_2(name, a, b, r) CK__UF_DEF_PAIR(name, a, b, r, 2)

/* Every LEAF, CHECKED, VMATH and PAIR loop of every function; the others have no leaf here. */
#define CK__UF_DEF_LEAF_1 CK__UF_DEF_UNARY
#define CK__UF_DEF_LEAF_2 CK__UF_DEF_BINARY
#define CK__UF_DEF_CHECKED_2 CK__UF_DEF_CHECKED
#define CK__UF_DEF_VMATH_1(name, a, b, r) CK__UF_DEF_VMATH(name, a, b, r, 1)
#define CK__UF_DEF_VMATH_2(name, a, b, r) CK__UF_DEF_VMATH(name, a, b, r, 2)
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
#define CK__UF_ENTRY_CHECKED CK__UF_ENTRY_LEAF
#define CK__UF_ENTRY_VMATH CK__UF_ENTRY_LEAF
#define CK__UF_ENTRY_PAIR CK__UF_ENTRY_LEAF
#define CK__UF_ENTRY_ARITH(...)
#define CK__UF_ENTRY_REFUSE(...)
#define CK__UF_ENTRY(name, I, NIN, a, b, r) CK__UF_ENTRY_##I(name, a, b, r)
#define CK__UF_ENTRIES(name, ...) CK__UFL_##name(CK__UF_ENTRY)
const ck__ufunc_table CK_TARGET_NAME(ck__ufunc_leaves) = {CK__UFUNC_LIST(CK__UF_ENTRIES)};

/* ---- the JIT's chunk calls: a LEAF or VMATH loop over the types the JIT passes to C (the
 * table of jit_scalars.c) as its kernel over contiguous chunks of at most CK__UFUNC_CHUNK
 * elements (out apart from the operands; y is x for one operand): a LEAF loop's element
 * function in a loop this target vectorises, a VMATH loop's vector kernel; the leaf's bits */
#define CK__UF_CHUNK_FN(name, a, b, r) CK__UF_LEAF(name, a, b, r, chunk)
#define CK__UF_CHUNK_DEF_LEAF_1(name, a, b, r)                                              \
    static void CK__UF_CHUNK_FN(name, a, b, r)(void *out, const void *x, const void *y,     \
                                               size_t n) {                                  \
        (void)y;                                                                            \
        CK__UF_LEAF(name, a, b, r, fast)((ck__ct_##r *)out, (const ck__ct_##a *)x, n);      \
    }
#define CK__UF_CHUNK_DEF_LEAF_2(name, a, b, r)                                              \
    static void CK__UF_CHUNK_FN(name, a, b, r)(void *out, const void *x, const void *y,     \
                                               size_t n) {                                  \
        CK__UF_LEAF(name, a, b, r, fast)((ck__ct_##r *)out, (const ck__ct_##a *)x, 1,       \
                                         (const ck__ct_##b *)y, 1, n);                      \
    }
#define CK__UF_CHUNK_DEF_VMATH(name, a, b, r)                                               \
    static void CK__UF_CHUNK_FN(name, a, b, r)(void *out, const void *x, const void *y,     \
                                               size_t n) {                                  \
        CK__UF_VM_FN(name, a)((ck__ct_##r *)out, (const ck__ct_##a *)x,                     \
                              (const ck__ct_##a *)y, n);                                    \
    }
#define CK__UF_CHUNK_DEF_VMATH_1 CK__UF_CHUNK_DEF_VMATH
#define CK__UF_CHUNK_DEF_VMATH_2 CK__UF_CHUNK_DEF_VMATH
#define CK__UF_CHUNK_NONE(...)
#define CK__UF_CHUNK_DEF_CHECKED_2 CK__UF_CHUNK_NONE
#define CK__UF_CHUNK_DEF_PAIR_1 CK__UF_CHUNK_NONE
#define CK__UF_CHUNK_DEF_PAIR_2 CK__UF_CHUNK_NONE
#define CK__UF_CHUNK_DEF_ARITH_2 CK__UF_CHUNK_NONE
#define CK__UF_CHUNK_DEF_REFUSE_1 CK__UF_CHUNK_NONE
#define CK__UF_CHUNK_DEF_REFUSE_2 CK__UF_CHUNK_NONE
#define CK__UF_CHUNK_DEF(name, I, NIN, a, b, r)                                             \
    CK__UF_JIT_WHEN(a, b, r)(CK__UF_CHUNK_DEF_##I##_##NIN, name, a, b, r)
#define CK__UF_CHUNK_DEFS(name, ...) CK__UFL_##name(CK__UF_CHUNK_DEF)
_Static_assert(CK__UFUNC_CHUNK == CK__VM_CHUNK, "the JIT's chunks are the kernels'");
CK__UFUNC_LIST(CK__UF_CHUNK_DEFS)
#define CK__UF_CHUNK_ROW(name, a, b, r)                                                     \
    [CK__UFLOOP_##name##__##a##_##b##__##r] = CK__UF_CHUNK_FN(name, a, b, r),
#define CK__UF_CHUNK_ENTRY_LEAF CK__UF_CHUNK_ROW
#define CK__UF_CHUNK_ENTRY_VMATH CK__UF_CHUNK_ROW
#define CK__UF_CHUNK_ENTRY_CHECKED CK__UF_CHUNK_NONE
#define CK__UF_CHUNK_ENTRY_PAIR CK__UF_CHUNK_NONE
#define CK__UF_CHUNK_ENTRY_ARITH CK__UF_CHUNK_NONE
#define CK__UF_CHUNK_ENTRY_REFUSE CK__UF_CHUNK_NONE
#define CK__UF_CHUNK_ENTRY(name, I, NIN, a, b, r)                                           \
    CK__UF_JIT_WHEN(a, b, r)(CK__UF_CHUNK_ENTRY_##I, name, a, b, r)
#define CK__UF_CHUNK_ENTRIES(name, ...) CK__UFL_##name(CK__UF_CHUNK_ENTRY)
const ck__ufunc_chunk_table CK_TARGET_NAME(ck__ufunc_chunks) = {
    CK__UFUNC_LIST(CK__UF_CHUNK_ENTRIES)};
