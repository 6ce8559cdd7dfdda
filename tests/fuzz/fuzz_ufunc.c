/* tests/fuzz/fuzz_ufunc.c: the composition fuzzer's mode for the calls whose results are not
 * one scalar per element (inputs that start with FZ_UFUNC_MAGIC; docs/design.md §10, §14):
 * NumPy's two-result functions and matmul, on arrays the input shapes and fills, each held
 * against values computed here independently:
 *   - divmod(a, b) of every integer and float type, b whole or one broadcast element: its
 *     tuple's fields equal floor_divide(a, b) and remainder(a, b), byte for byte (NaNs as
 *     NaN);
 *   - modf(x), frexp(x) of float32 and float64: C's modf, modff, frexp, frexpf;
 *   - matmul(A, B) of the integers (wrapping) and float64, (n, k) @ (k, m) with either
 *     operand 1-d now and then: a naive loop over k from 0, one rounding per operation;
 *   - or both refuse cleanly, and nothing leaks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "fuzz_compose.h"
#include "scalar_oracle.h"

static uint64_t uf_next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The callables, looked up once (a reference each, held for the process, as the leak check
 * counts only what an input leaves behind). */
static ck_callable *uf_lookup(const char *name) {
    static const char *const names[] = {"divmod", "floor_divide", "remainder", "modf", "frexp",
                                        "matmul"};
    static ck_callable *cache[6];
    for (int i = 0; i < 6; i++) {
        if (strcmp(names[i], name) == 0) {
            if (cache[i] == NULL) {
                CKF_CHECK(ck_lookup(name, &cache[i]) == CK_OK, "%s", ck_last_error());
            }
            return cache[i];
        }
    }
    CKF_CHECK(0, "no callable %s in the mode's list", name);
    return NULL;
}

/* A new C-order array of the datashape, filled with the generator's bytes (floats: now and
 * then a special value). */
static ck_array *uf_array(const char *shape, int is_float, size_t width, uint64_t *s) {
    ck_type *t = NULL;
    CKF_CHECK(ck_type_parse(shape, &t) == CK_OK, "%s: %s", shape, ck_last_error());
    ck_array *a = NULL;
    CKF_CHECK(ck_array_new(t, &a) == CK_OK, "%s", ck_last_error());
    ck_type_decref(t);
    const size_t size = ck_type_data_size(ck_array_type(a));
    unsigned char *d = (unsigned char *)ck_array_data(a);
    for (size_t i = 0; i < size; i += width) {
        uint64_t v = uf_next(s);
        if (is_float && (v & 7) != 0) { /* mostly ordinary values of a modest range */
            const double x = (double)(int64_t)(v >> 20) / (double)(1 << 20) / 64.0;
            const unsigned pick = (unsigned)(v >> 3) & 31;
            const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-310, -1e300};
            const double y = pick < 7 ? special[pick] : x;
            if (width == 4) {
                const float f = (float)y;
                memcpy(d + i, &f, 4);
            } else {
                memcpy(d + i, &y, 8);
            }
        } else {
            memcpy(d + i, &v, width);
        }
    }
    return a;
}

static int uf_same(const unsigned char *x, const unsigned char *y, size_t width, int is_float) {
    if (is_float && width == 8) {
        double a, b;
        memcpy(&a, x, 8);
        memcpy(&b, y, 8);
        if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    } else if (is_float) {
        float a, b;
        memcpy(&a, x, 4);
        memcpy(&b, y, 4);
        if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    }
    return memcmp(x, y, width) == 0;
}

typedef struct uf_scalar {
    const char *name;
    size_t width;
    int is_float, is_signed;
} uf_scalar;

static const uf_scalar uf_scalars[] = {
    {"int8", 1, 0, 1},   {"uint8", 1, 0, 0},  {"int16", 2, 0, 1},   {"uint16", 2, 0, 0},
    {"int32", 4, 0, 1},  {"uint32", 4, 0, 0}, {"int64", 8, 0, 1},   {"uint64", 8, 0, 0},
    {"float32", 4, 1, 1}, {"float64", 8, 1, 1}};

static void uf_divmod(const uf_scalar *t, size_t n, int broadcast, uint64_t *s) {
    char shape[64];
    snprintf(shape, sizeof shape, "%zu * %s", n, t->name);
    ck_array *a = uf_array(shape, t->is_float, t->width, s);
    ck_array *b = uf_array(broadcast ? t->name : shape, t->is_float, t->width, s);
    const ck_array *src[2] = {a, b};
    ck_array *pair = NULL, *q = NULL, *r = NULL;
    const int rc = ck_call_new(uf_lookup("divmod"), 2, src, NULL, &pair);
    const int rq = ck_call_new(uf_lookup("floor_divide"), 2, src, NULL, &q);
    const int rr = ck_call_new(uf_lookup("remainder"), 2, src, NULL, &r);
    CKF_CHECK((rc == CK_OK) == (rq == CK_OK && rr == CK_OK), "divmod %s: %d, parts %d %d (%s)",
              shape, rc, rq, rr, ck_last_error());
    if (rc == CK_OK) {
        const unsigned char *p = (const unsigned char *)ck_array_data(pair);
        const unsigned char *pq = (const unsigned char *)ck_array_data(q);
        const unsigned char *pr = (const unsigned char *)ck_array_data(r);
        CKF_CHECK(ck_type_data_size(ck_array_type(pair)) == 2 * n * t->width,
                  "divmod %s: a result of %zu bytes", shape,
                  ck_type_data_size(ck_array_type(pair)));
        for (size_t i = 0; i < n; i++) {
            CKF_CHECK(uf_same(p + 2 * i * t->width, pq + i * t->width, t->width, t->is_float),
                      "divmod %s: quotient [%zu] is not floor_divide's", shape, i);
            CKF_CHECK(uf_same(p + (2 * i + 1) * t->width, pr + i * t->width, t->width,
                              t->is_float),
                      "divmod %s: remainder [%zu] is not remainder's", shape, i);
        }
    }
    ck_array_free(pair);
    ck_array_free(q);
    ck_array_free(r);
    ck_array_free(a);
    ck_array_free(b);
}

/* modf and frexp of float32 (f32) or float64: the C library's values. */
static void uf_modf_frexp(int frexp_not_modf, int f32, size_t n, uint64_t *s) {
    char shape[64];
    snprintf(shape, sizeof shape, "%zu * %s", n, f32 ? "float32" : "float64");
    const size_t w = f32 ? 4 : 8;
    ck_array *x = uf_array(shape, 1, w, s);
    const ck_array *src[1] = {x};
    ck_array *out = NULL;
    const char *name = frexp_not_modf ? "frexp" : "modf";
    CKF_CHECK(ck_call_new(uf_lookup(name), 1, src, NULL, &out) == CK_OK, "%s %s: %s", name,
              shape, ck_last_error());
    const unsigned char *px = (const unsigned char *)ck_array_data(x);
    const unsigned char *po = (const unsigned char *)ck_array_data(out);
    /* (F, int32) padded as a C struct: 12 bytes for float64 where it aligns to 4 (i386) */
    struct f64_int32 {
        double m;
        int32_t e;
    };
    const size_t pair = frexp_not_modf ? (f32 ? 8 : sizeof(struct f64_int32)) : 2 * w;
    CKF_CHECK(ck_type_data_size(ck_array_type(out)) == n * pair, "%s %s: %zu bytes", name,
              shape, ck_type_data_size(ck_array_type(out)));
    for (size_t i = 0; i < n; i++) {
        unsigned char want[16] = {0};
        if (f32) {
            float v, m;
            memcpy(&v, px + i * 4, 4);
            if (frexp_not_modf) {
                int e = 0;
                m = frexpf(v, &e);
                memcpy(want, &m, 4);
                memcpy(want + 4, &e, 4);
            } else {
                float ip;
                m = modff(v, &ip);
                memcpy(want, &m, 4);
                memcpy(want + 4, &ip, 4);
            }
        } else {
            double v, m;
            memcpy(&v, px + i * 8, 8);
            if (frexp_not_modf) {
                int e = 0;
                m = frexp(v, &e);
                memcpy(want, &m, 8);
                memcpy(want + 8, &e, 4);
            } else {
                double ip;
                m = modf(v, &ip);
                memcpy(want, &m, 8);
                memcpy(want + 8, &ip, 8);
            }
        }
        const unsigned char *got = po + i * pair;
        CKF_CHECK(uf_same(got, want, w, 1), "%s %s: first field [%zu]", name, shape, i);
        if (frexp_not_modf) {
            double v = 0;
            if (f32) {
                float fv;
                memcpy(&fv, px + i * 4, 4);
                v = fv;
            } else {
                memcpy(&v, px + i * 8, 8);
            }
            if (isfinite(v)) { /* C leaves the exponent of inf and NaN unspecified */
                CKF_CHECK(memcmp(got + w, want + w, 4) == 0, "frexp %s: exponent [%zu]", shape,
                          i);
            }
        } else {
            CKF_CHECK(uf_same(got + w, want + w, w, 1), "modf %s: integral part [%zu]", shape, i);
        }
    }
    ck_array_free(out);
    ck_array_free(x);
}

/* An element as an integer of its width (sign-extended), or as a double. */
static uint64_t uf_int(const unsigned char *p, const uf_scalar *t) {
    uint64_t v = ckt_get_low_bytes(p, t->width); /* the host's byte order */
    if (t->is_signed && t->width < 8 && (v >> (t->width * 8 - 1)) != 0) {
        v |= ~UINT64_C(0) << (t->width * 8);
    }
    return v;
}

static void uf_matmul(const uf_scalar *t, size_t n, size_t k, size_t m, int a_row, int b_col,
                      uint64_t *s) {
    char sa[64], sb[64];
    if (a_row) {
        snprintf(sa, sizeof sa, "%zu * %s", k, t->name);
    } else {
        snprintf(sa, sizeof sa, "%zu * %zu * %s", n, k, t->name);
    }
    if (b_col) {
        snprintf(sb, sizeof sb, "%zu * %s", k, t->name);
    } else {
        snprintf(sb, sizeof sb, "%zu * %zu * %s", k, m, t->name);
    }
    const size_t rows = a_row ? 1 : n, cols = b_col ? 1 : m;
    ck_array *a = uf_array(sa, t->is_float, t->width, s);
    ck_array *b = uf_array(sb, t->is_float, t->width, s);
    const ck_array *src[2] = {a, b};
    ck_array *out = NULL;
    CKF_CHECK(ck_call_new(uf_lookup("matmul"), 2, src, NULL, &out) == CK_OK, "matmul %s @ %s: %s",
              sa, sb, ck_last_error());
    CKF_CHECK(ck_type_data_size(ck_array_type(out)) == rows * cols * t->width,
              "matmul %s @ %s: %zu bytes", sa, sb, ck_type_data_size(ck_array_type(out)));
    const unsigned char *pa = (const unsigned char *)ck_array_data(a);
    const unsigned char *pb = (const unsigned char *)ck_array_data(b);
    const unsigned char *po = (const unsigned char *)ck_array_data(out);
    for (size_t i = 0; i < rows; i++) {
        for (size_t j = 0; j < cols; j++) {
            unsigned char want[8];
            if (t->is_float) {
                volatile double acc = 0.0; /* one rounding per operation, never fused */
                for (size_t q = 0; q < k; q++) {
                    double x, y;
                    memcpy(&x, pa + (i * k + q) * 8, 8);
                    memcpy(&y, pb + (q * cols + j) * 8, 8);
                    volatile double p = x * y;
                    acc = acc + p;
                }
                const double v = acc;
                memcpy(want, &v, 8);
            } else {
                uint64_t acc = 0; /* wrapping: the result's low bytes */
                for (size_t q = 0; q < k; q++) {
                    acc += uf_int(pa + (i * k + q) * t->width, t) *
                           uf_int(pb + (q * cols + j) * t->width, t);
                }
                ckt_put_low_bytes(want, acc, t->width);
            }
            CKF_CHECK(uf_same(po + (i * cols + j) * t->width, want, t->width, t->is_float),
                      "matmul %s @ %s: [%zu, %zu]", sa, sb, i, j);
        }
    }
    ck_array_free(out);
    ck_array_free(a);
    ck_array_free(b);
}

int fz_ufunc_one(const uint8_t *data, size_t size) {
    fz_bytes in = {data, size, 0};
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < size; i++) {
        seed = (seed ^ data[i]) * 0x100000001b3ull;
    }
    uint64_t *s = &seed;
    if (*s == 0) *s = 1;
    /* Each choice taken in its own statement: a function's arguments have no order. */
    const unsigned what = fz_take(&in, 4);
    if (what == 0) {
        const uf_scalar *t = &uf_scalars[fz_take(&in, 10)];
        const size_t n = fz_take(&in, 70);
        const int broadcast = (int)fz_take(&in, 2);
        uf_divmod(t, n, broadcast, s);
    } else if (what == 1 || what == 2) {
        const int f32 = (int)fz_take(&in, 2);
        const size_t n = fz_take(&in, 70);
        uf_modf_frexp(what == 2, f32, n, s);
    } else {
        /* float64 and the 64-bit and narrower integers (matmul of float32 sums in float32,
         * which the reference above does not model) */
        static const int types[] = {0, 1, 2, 3, 4, 5, 6, 7, 9};
        const uf_scalar *t = &uf_scalars[types[fz_take(&in, 9)]];
        const size_t n = 1 + fz_take(&in, 6);
        const size_t k = fz_take(&in, 7);
        const size_t m = 1 + fz_take(&in, 6);
        const int a_row = fz_take(&in, 4) == 0;
        const int b_col = fz_take(&in, 4) == 0;
        uf_matmul(t, n, k, m, a_row, b_col, s);
    }
    return 0;
}
