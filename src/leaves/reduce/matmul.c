/* src/leaves/reduce/matmul.c: the leaf of the built-in matmul, (N * K * T, K * M * T) ->
 * N * M * T (core dimensions, docs/design.md §14; NumPy's 1-d operands are the matmul route's,
 * callables/matmul_call.c). Each element of the result is the sum over k of a[n, k] * b[k, m]
 * in order from k = 0, computed as NumPy's loop without BLAS computes it: integers in their
 * own type (wrapping), float32 and float64 in their type, float16 and bfloat16 in float32
 * rounded once at the end, complex numbers by the textbook product, bool as any of the ands.
 * With no FMA contraction (CMakeLists.txt), so the bits are NumPy's on its non-BLAS path and
 * the same on every CPU. One version for every target: the sums' order is fixed, and the
 * strided walk keeps it scalar. */
#include <string.h>

#include "common/bfloat16.h"
#include "common/float16.h"
#include "common/internal.h"
#include "common/scalars.h"
#include "core/kinds.h"

typedef void (*ck__matmul_fn)(char *dst, const char *a, const char *b, const ck_core_dim *d);

/* d[0..1] a's (n, k), d[2..3] b's (k, m), d[4..5] the result's (n, m). */
#define CK__MATMUL_LOOP(name, T, ACC, ZERO, LOAD, STEP, STORE)                              \
    static void name(char *dst, const char *a, const char *b, const ck_core_dim *d) {       \
        for (intptr_t n = 0; n < d[0].size; n++) {                                          \
            for (intptr_t m = 0; m < d[3].size; m++) {                                      \
                ACC acc = ZERO;                                                             \
                const char *x = a + n * d[0].stride, *y = b + m * d[3].stride;              \
                for (intptr_t k = 0; k < d[1].size; k++, x += d[1].stride, y += d[2].stride) { \
                    T u, v;                                                                 \
                    memcpy(&u, x, sizeof u);                                                \
                    memcpy(&v, y, sizeof v);                                                \
                    STEP(ACC, acc, LOAD(u), LOAD(v));                                            \
                }                                                                           \
                T r = STORE(acc);                                                           \
                memcpy(dst + n * d[4].stride + m * d[5].stride, &r, sizeof r);              \
            }                                                                               \
        }                                                                                   \
    }

#define CK__MM_SAME(x) (x)
#define CK__MM_MULADD(ACC, acc, u, v) (acc) += (u) * (v)
/* Integers: unsigned arithmetic, which wraps as NumPy's C loop does (signed overflow is not
 * defined in C); the bits are the signed type's. */
#define CK__MM_INT(n, T, UT)                                                                \
    static UT ck__mm_load_##n(T x) {                                                        \
        return (UT)x;                                                                       \
    }                                                                                       \
    static T ck__mm_store_##n(UT x) {                                                       \
        T r;                                                                                \
        memcpy(&r, &x, sizeof r);                                                           \
        return r;                                                                           \
    }                                                                                       \
    CK__MATMUL_LOOP(ck__matmul_##n, T, UT, (UT)0, ck__mm_load_##n, CK__MM_INT_MULADD,       \
                    ck__mm_store_##n)
#define CK__MM_INT_MULADD(ACC, acc, u, v) (acc) = (ACC)((acc) + (uint64_t)(u) * (uint64_t)(v))
CK__MM_INT(int8, int8_t, uint8_t)
CK__MM_INT(uint8, uint8_t, uint8_t)
CK__MM_INT(int16, int16_t, uint16_t)
CK__MM_INT(uint16, uint16_t, uint16_t)
CK__MM_INT(int32, int32_t, uint32_t)
CK__MM_INT(uint32, uint32_t, uint32_t)
CK__MM_INT(int64, int64_t, uint64_t)
CK__MM_INT(uint64, uint64_t, uint64_t)

CK__MATMUL_LOOP(ck__matmul_float32, float, float, 0.0f, CK__MM_SAME, CK__MM_MULADD, CK__MM_SAME)
CK__MATMUL_LOOP(ck__matmul_float64, double, double, 0.0, CK__MM_SAME, CK__MM_MULADD, CK__MM_SAME)
CK__MATMUL_LOOP(ck__matmul_float16, uint16_t, float, 0.0f, ck__half_to_float, CK__MM_MULADD,
                ck__float_to_half)
CK__MATMUL_LOOP(ck__matmul_bfloat16, uint16_t, float, 0.0f, ck__bfloat16_to_float,
                CK__MM_MULADD, ck__float_to_bfloat16)

/* bool: true when some a[n, k] and b[k, m] both are (any non-zero byte is true). */
#define CK__MM_BOOL_LOAD(x) ((x) != 0)
#define CK__MM_BOOL_STEP(ACC, acc, u, v) (acc) |= (u) & (v)
#define CK__MM_BOOL_STORE(x) ((uint8_t)(x))
CK__MATMUL_LOOP(ck__matmul_bool, uint8_t, int, 0, CK__MM_BOOL_LOAD, CK__MM_BOOL_STEP,
                CK__MM_BOOL_STORE)

/* complex: re += ur * vr - ui * vi, im += ur * vi + ui * vr, each product rounded. */
#define CK__MM_COMPLEX(n, FT)                                                               \
    typedef struct {                                                                        \
        FT v[2];                                                                            \
    } ck__mm_##n;                                                                           \
    static ck__mm_##n ck__mm_zero_##n(void) {                                               \
        ck__mm_##n z = {{0, 0}};                                                            \
        return z;                                                                           \
    }                                                                                       \
    CK__MATMUL_LOOP(ck__matmul_##n, ck__mm_##n, ck__mm_##n, ck__mm_zero_##n(), CK__MM_SAME,   \
                    CK__MM_COMPLEX_STEP, CK__MM_SAME)
#define CK__MM_COMPLEX_STEP(ACC, acc, x, y)                                                 \
    do {                                                                                    \
        (acc).v[0] += (x).v[0] * (y).v[0] - (x).v[1] * (y).v[1];                            \
        (acc).v[1] += (x).v[0] * (y).v[1] + (x).v[1] * (y).v[0];                            \
    } while (0)
CK__MM_COMPLEX(complex64, float)
CK__MM_COMPLEX(complex128, double)

static ck__matmul_fn matmul_fn(ck_type_id id) {
    switch (id) {
#define CK__MM_CASE(E, n, ...)                                                              \
    case CK_TYPE_##E:                                                                       \
        return ck__matmul_##n;
        CK_SCALAR_TABLE(CK__MM_CASE)
#undef CK__MM_CASE
    default:
        return NULL;
    }
}

typedef struct ck__matmul {
    ck_prefix base;
    ck__matmul_fn fn;
    ck_core_dim dim[6]; /* a's (n, k), b's (k, m), the result's (n, m) */
    int32_t id;
} ck__matmul;

static CK__KERNEL_ALIGN int matmul_single(ck_prefix *self, char *dst, char *const *src) {
    const ck__matmul *k = (const ck__matmul *)self;
    k->fn(dst, src[0], src[1], k->dim);
    return CK_OK;
}

static CK__KERNEL_ALIGN int matmul_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                           char *const *src, const intptr_t *src_stride,
                                           size_t count) {
    const ck__matmul *k = (const ck__matmul *)self;
    const char *a = src[0], *b = src[1];
    for (size_t i = 0; i < count; i++, dst += dst_stride, a += src_stride[0], b += src_stride[1]) {
        k->fn(dst, a, b, k->dim);
    }
    return CK_OK;
}

int ck__make_matmul_leaf(ck_builder *ckb, size_t *offset, ck_type_id id,
                         const ck_core_dims *core, ck_request req) {
    if (core == NULL || core->arg_ndim[0] != 2 || core->arg_ndim[1] != 2 ||
        core->ret_ndim != 2) {
        return ck_set_error(CK_ERR_INTERNAL, "matmul: a leaf without two core dimensions per "
                                             "operand");
    }
    const ck_core_dim *const dims[6] = {&core->arg[0][0], &core->arg[0][1], &core->arg[1][0],
                                        &core->arg[1][1], &core->ret[0],    &core->ret[1]};
    for (int d = 0; d < 4; d++) {
        if (dims[d]->size < 0) {
            return ck_set_error(CK_ERR_UNSUPPORTED,
                                "matmul: argument %d's core dimension %d is var; matmul takes "
                                "fixed dimensions",
                                d / 2, d % 2);
        }
    }
    ck__matmul_fn fn = matmul_fn(id);
    if (fn == NULL) {
        return ck_set_error(CK_ERR_INTERNAL, "matmul: no loop for %s", ck_type_id_name(id));
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__matmul)));
    ck__matmul *k = (ck__matmul *)ck_builder_at(ckb, *offset);
    ck_prefix_set_function(&k->base, req, matmul_single, matmul_strided);
    k->fn = fn;
    for (int d = 0; d < 6; d++) {
        k->dim[d] = *dims[d];
    }
    k->id = (int32_t)id;
    *offset += sizeof(ck__matmul);
    return CK_OK;
}

static void matmul_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                            ck__children *children) {
    (void)children;
    const ck__matmul *k = (const ck__matmul *)self;
    ck__strbuf_printf(out,
                      "matmul %s (%td x %td) @ (%td x %td): strides a (%td, %td), b (%td, %td), "
                      "out (%td, %td)",
                      ck_type_id_name((ck_type_id)k->id), k->dim[0].size, k->dim[1].size,
                      k->dim[2].size, k->dim[3].size, k->dim[0].stride, k->dim[1].stride,
                      k->dim[2].stride, k->dim[3].stride, k->dim[4].stride, k->dim[5].stride);
    *size = sizeof(ck__matmul);
}

const ck__kind ck__matmul_kind = {"matmul", matmul_single, matmul_strided, matmul_describe};
