/* bench/baselines.c: the plain C loops the kernels are compared with ("ratio_loop").
 *
 * Each loop does exactly what the kernel does, element for element (tests/bench checks the
 * outputs are bit-identical): the same error mode semantics (docs/design.md §7), the
 * same checks (a fractional float64 -> int32 checks every element and stops at the first
 * failure; a ragged row checks its size; a gather checks for NULL). They are written as a
 * C programmer would write them, with no intrinsics, and this file is compiled without
 * -march flags: they are baseline-target (x86-64, SSE2) code, whatever the compiler makes
 * of them at the project's optimisation level. They are noinline so each call is one real
 * piece of work. They return 0, or 1 where the kernel would return an error. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"

#define CKB_NOINLINE __attribute__((noinline))

/* ---- scalar conversions with the kernel's semantics ---- */

/* float64 -> int32, nocheck: truncate toward zero, saturate, NaN -> 0. */
static inline int32_t f64_to_i32_sat(double v) {
    if (v != v) {
        return 0;
    }
    if (v <= -2147483648.0) {
        return INT32_MIN;
    }
    if (v >= 2147483647.0) {
        return INT32_MAX;
    }
    return (int32_t)v;
}

/* IEEE binary16 from float32, round to nearest even (as F16C's VCVTPS2PH): overflow to
 * +-inf, subnormals, a NaN keeps its sign and top payload bits and comes out quiet. */
static inline uint16_t f32_to_f16(float f) {
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    const uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t a = x & 0x7fffffffu;
    uint16_t h;
    if (a >= 0x7f800000u) { /* inf or NaN */
        h = a == 0x7f800000u ? 0x7c00u : (uint16_t)(0x7e00u | ((a >> 13) & 0x3ffu));
    } else if (a >= 0x47800000u) { /* >= 2^16: beyond the largest half, inf */
        h = 0x7c00u;
    } else if (a < 0x38800000u) { /* below 2^-14: a subnormal half or zero */
        /* Adding 0.5 aligns the 10 mantissa bits at the bottom; the FPU rounds to even. */
        float s;
        memcpy(&s, &a, sizeof s);
        s += 0.5f;
        uint32_t u;
        memcpy(&u, &s, sizeof u);
        h = (uint16_t)(u - 0x3f000000u);
    } else { /* normal: rebias the exponent, round to nearest even (a carry may give inf) */
        const uint32_t odd = (a >> 13) & 1u;
        a += 0xc8000fffu + odd; /* (15 - 127) << 23, plus the rounding bias */
        h = (uint16_t)(a >> 13);
    }
    return (uint16_t)(h | sign);
}

/* float32 from IEEE binary16: exact; a NaN comes out quiet with its payload. */
static inline float f16_to_f32(uint16_t h) {
    const uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    uint32_t u;
    if (e == 0x1fu) {
        u = sign | 0x7f800000u | (m << 13) | (m != 0 ? 0x400000u : 0u);
    } else if (e == 0) {
        float f = (float)m * 0x1p-24f; /* zero or subnormal: exact in float */
        memcpy(&u, &f, sizeof u);
        u |= sign;
    } else {
        u = sign | ((e + 112u) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* ---- contiguous loops: (dst, src, n) ---- */

CKB_NOINLINE int ckb_loop_int32_float64(void *dst, const void *src, size_t n) {
    double *d = (double *)dst;
    const int32_t *s = (const int32_t *)src;
    for (size_t i = 0; i < n; i++) {
        d[i] = (double)s[i];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_int64_float64(void *dst, const void *src, size_t n) {
    double *d = (double *)dst;
    const int64_t *s = (const int64_t *)src;
    for (size_t i = 0; i < n; i++) {
        d[i] = (double)s[i];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_float64_int32_nocheck(void *dst, const void *src, size_t n) {
    int32_t *d = (int32_t *)dst;
    const double *s = (const double *)src;
    for (size_t i = 0; i < n; i++) {
        d[i] = f64_to_i32_sat(s[i]);
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_float64_int32_fractional(void *dst, const void *src, size_t n) {
    int32_t *d = (int32_t *)dst;
    const double *s = (const double *)src;
    for (size_t i = 0; i < n; i++) {
        const double v = s[i];
        if (!(v > -2147483649.0 && v < 2147483648.0)) { /* NaN too */
            return 1;                                    /* overflow */
        }
        const int32_t r = (int32_t)v;
        if ((double)r != v) {
            return 1; /* fractional */
        }
        d[i] = r;
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_float64_float32(void *dst, const void *src, size_t n) {
    float *d = (float *)dst;
    const double *s = (const double *)src;
    for (size_t i = 0; i < n; i++) {
        d[i] = (float)s[i];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_float32_float64(void *dst, const void *src, size_t n) {
    double *d = (double *)dst;
    const float *s = (const float *)src;
    for (size_t i = 0; i < n; i++) {
        d[i] = (double)s[i];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_float32_float16(void *dst, const void *src, size_t n) {
    uint16_t *d = (uint16_t *)dst;
    const float *s = (const float *)src;
    for (size_t i = 0; i < n; i++) {
        d[i] = f32_to_f16(s[i]);
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_float16_float32(void *dst, const void *src, size_t n) {
    float *d = (float *)dst;
    const uint16_t *s = (const uint16_t *)src;
    for (size_t i = 0; i < n; i++) {
        d[i] = f16_to_f32(s[i]);
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_copy_float64(void *dst, const void *src, size_t n) {
    double *d = (double *)dst;
    const double *s = (const double *)src;
    for (size_t i = 0; i < n; i++) {
        d[i] = s[i];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_copy_int32(void *dst, const void *src, size_t n) {
    int32_t *d = (int32_t *)dst;
    const int32_t *s = (const int32_t *)src;
    for (size_t i = 0; i < n; i++) {
        d[i] = s[i];
    }
    return 0;
}

/* ---- shaped loops ---- */

CKB_NOINLINE int ckb_loop_int32_float64_strided(double *dst, const int32_t *src, size_t n,
                                                size_t step) {
    for (size_t i = 0; i < n; i++) {
        dst[i] = (double)src[i * step];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_int32_float64_2d(double *dst, const int32_t *src, size_t rows,
                                           size_t cols) {
    for (size_t i = 0; i < rows; i++) {
        for (size_t j = 0; j < cols; j++) {
            dst[i * cols + j] = (double)src[i * cols + j];
        }
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_int32_float64_transposed(double *dst, const int32_t *src,
                                                   size_t rows, size_t cols) {
    /* src is cols x rows in C order; dst[i][j] = src[j][i]. */
    for (size_t i = 0; i < rows; i++) {
        for (size_t j = 0; j < cols; j++) {
            dst[i * cols + j] = (double)src[j * rows + i];
        }
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_float32_float64_var(const ck_var_data *dst, const ck_var_data *src,
                                              size_t rows) {
    for (size_t r = 0; r < rows; r++) {
        if (src[r].begin == NULL || dst[r].size != src[r].size) {
            return 1; /* the kernel: uninitialised source, or a size that cannot broadcast */
        }
        double *d = (double *)(void *)dst[r].begin;
        const float *s = (const float *)(const void *)src[r].begin;
        for (size_t j = 0; j < src[r].size; j++) {
            d[j] = (double)s[j];
        }
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_gather_float64(double *dst, char *const *ptrs, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (ptrs[i] == NULL) {
            return 1;
        }
        dst[i] = *(const double *)(const void *)ptrs[i];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_int32_float64_unaligned(char *dst, const char *src, size_t n) {
    for (size_t i = 0; i < n; i++) {
        int32_t v;
        memcpy(&v, src + i * sizeof v, sizeof v);
        const double d = (double)v;
        memcpy(dst + i * sizeof d, &d, sizeof d);
    }
    return 0;
}

/* ---- records (the struct/... workloads) ---- */

CKB_NOINLINE int ckb_loop_struct_copy(ckb_rec_copy *dst, const ckb_rec_copy *src, size_t n) {
    for (size_t i = 0; i < n; i++) {
        dst[i].x = src[i].x;
        dst[i].y = src[i].y;
        dst[i].z = src[i].z;
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_struct_cast(ckb_rec_cast_dst *dst, const ckb_rec_cast_src *src,
                                      size_t n) {
    for (size_t i = 0; i < n; i++) {
        dst[i].a = (double)src[i].a;
        dst[i].b = src[i].b;
        dst[i].c = (float)src[i].c; /* round to nearest even, overflow to inf: nocheck */
    }
    return 0;
}

/* ---- elementwise add (the built-in `add` callable) ---- */

CKB_NOINLINE int ckb_loop_add_float64(double *dst, const double *a, const double *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        dst[i] = a[i] + b[i];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_add_float64_option(double *dst, const double *a, const double *b,
                                             size_t n) {
    const uint64_t na = UINT64_C(0x7ff80000000007a2);
    for (size_t i = 0; i < n; i++) {
        uint64_t x, y;
        memcpy(&x, &a[i], 8);
        memcpy(&y, &b[i], 8);
        if (x == na || y == na) {
            memcpy(&dst[i], &na, 8);
        } else {
            dst[i] = a[i] + b[i];
        }
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_add_float64_outer(double *dst, const double *row, const double *col,
                                            size_t rows, size_t cols) {
    for (size_t i = 0; i < rows; i++) {
        for (size_t j = 0; j < cols; j++) {
            dst[i * cols + j] = row[j] + col[i];
        }
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_add_float64_var(const ck_var_data *dst, const ck_var_data *a,
                                          const ck_var_data *b, size_t rows) {
    for (size_t r = 0; r < rows; r++) {
        if (a[r].begin == NULL || b[r].begin == NULL || a[r].size != dst[r].size ||
            b[r].size != dst[r].size) {
            return 1; /* the kernel: an unallocated argument, or sizes that do not broadcast */
        }
        double *d = (double *)(void *)dst[r].begin;
        const double *x = (const double *)(const void *)a[r].begin;
        const double *y = (const double *)(const void *)b[r].begin;
        for (size_t j = 0; j < dst[r].size; j++) {
            d[j] = x[j] + y[j];
        }
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_add_int32_float64(double *dst, const int32_t *a, const double *b,
                                            size_t n) {
    for (size_t i = 0; i < n; i++) {
        dst[i] = (double)a[i] + b[i];
    }
    return 0;
}

/* ---- the expr/... workloads ----
 * Each product is its own statement: a compiler may fuse a multiply and an add of one
 * expression into an FMA where the ISA has one (clang's default -ffp-contract=on), which
 * rounds once where the kernel rounds twice. */

CKB_NOINLINE int ckb_loop_fma3_float64(double *dst, const double *a, const double *b,
                                       const double *c, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const double p = a[i] * b[i];
        dst[i] = p + c[i];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_poly3_float64(double *dst, const double *x, const double k[4],
                                        size_t n) {
    for (size_t i = 0; i < n; i++) {
        double p = k[0] * x[i];
        double s = p + k[1];
        p = s * x[i];
        s = p + k[2];
        p = s * x[i];
        dst[i] = p + k[3];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_mul_add_int32_float64_float32(double *dst, const int32_t *a,
                                                        const double *b, const float *c,
                                                        size_t n) {
    for (size_t i = 0; i < n; i++) {
        const double p = (double)a[i] * b[i];
        dst[i] = p + (double)c[i];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_fma3_float64_var(const ck_var_data *dst, const ck_var_data *a,
                                           const ck_var_data *x, const ck_var_data *b,
                                           size_t rows) {
    for (size_t r = 0; r < rows; r++) {
        if (a[r].size != dst[r].size || x[r].size != dst[r].size || b[r].size != dst[r].size) {
            return 1; /* sizes that do not broadcast */
        }
        if (ckb_loop_fma3_float64((double *)(void *)dst[r].begin,
                                  (const double *)(const void *)a[r].begin,
                                  (const double *)(const void *)x[r].begin,
                                  (const double *)(const void *)b[r].begin, dst[r].size)) {
            return 1;
        }
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_linear_float64(double *dst, const double *a, const double *b,
                                         size_t n) {
    for (size_t i = 0; i < n; i++) {
        const double p = 2.0 * a[i];
        const double q = 3.0 * b[i];
        dst[i] = p + q;
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_trig_float64(double *dst, const double *a, const double *b,
                                       size_t n) {
    for (size_t i = 0; i < n; i++) {
        const double s = sin(a[i]);
        const double c = cos(b[i]);
        const double s2 = s * s;
        const double c2 = c * c;
        dst[i] = s2 + c2;
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_where_float64(double *dst, const double *a, const double *b,
                                        size_t n) {
    for (size_t i = 0; i < n; i++) {
        dst[i] = a[i] > b[i] ? a[i] : b[i];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_gauss_float64(double *dst, const double *a, const double *c,
                                        size_t n) {
    for (size_t i = 0; i < n; i++) {
        const double p = -a[i] * a[i];
        const double e = exp(p / 2.0);
        dst[i] = e * c[i];
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_logic_float64(uint8_t *dst, const double *a, const double *b,
                                        const double *c, size_t n) {
    for (size_t i = 0; i < n; i++) {
        dst[i] = (uint8_t)(((a[i] < 0.5) & (b[i] > 0.0)) | (c[i] > 0.9));
    }
    return 0;
}

/* ---- the jit/... workloads: short padded rows ---- */

CKB_NOINLINE int ckb_loop_int16_float32_rows(float *dst, const int16_t *src, size_t rows,
                                             size_t cols, size_t src_row) {
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < cols; c++) {
            dst[r * cols + c] = (float)src[r * src_row + c];
        }
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_add_int32_float64_rows(double *dst, const int32_t *a, size_t a_row,
                                                 const double *b, size_t rows, size_t cols) {
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < cols; c++) {
            dst[r * cols + c] = (double)a[r * a_row + c] + b[r * cols + c];
        }
    }
    return 0;
}

/* ---- number text ---- */

CKB_NOINLINE size_t ckb_loop_print_float64(char *out, size_t cap, const double *v, size_t n) {
    size_t at = 0;
    if (cap < 3) {
        return 0;
    }
    out[at++] = '[';
    for (size_t i = 0; i < n; i++) {
        if (i > 0) {
            if (cap - at < 3) {
                return 0;
            }
            out[at++] = ',';
            out[at++] = ' ';
        }
        const int w = snprintf(out + at, cap - at, "%.17g", v[i]);
        if (w < 0 || (size_t)w >= cap - at) {
            return 0;
        }
        at += (size_t)w;
    }
    if (cap - at < 2) {
        return 0;
    }
    out[at++] = ']';
    out[at] = '\0';
    return at;
}

CKB_NOINLINE int ckb_loop_parse_float64(double *out, const char *text, size_t n) {
    const char *p = text;
    if (*p++ != '[') {
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        char *end;
        out[i] = strtod(p, &end); /* skips the space after a comma itself */
        if (end == p || *end != (i + 1 < n ? ',' : ']')) {
            return 1;
        }
        p = end + 1;
    }
    return 0;
}

/* ---- text casts ---- */

/* The code points of a U value before its padding as chars (ASCII: number text), NUL
 * ended; 0 when it has more than `cap - 1` or one above 0x7f. */
static size_t narrow_u32(char *buf, size_t cap, const uint32_t *u, size_t units) {
    size_t n = 0;
    while (n < units && u[n] != 0) {
        if (n + 1 >= cap || u[n] > 0x7f) {
            return 0;
        }
        buf[n] = (char)u[n];
        n++;
    }
    buf[n] = '\0';
    return n;
}

/* text (len chars) as a U value of `units`, NUL-padded; 1 when it does not fit. */
static int widen_u32(uint32_t *out, size_t units, const char *text, size_t len) {
    if (len > units) {
        return 1;
    }
    for (size_t k = 0; k < len; k++) {
        out[k] = (unsigned char)text[k];
    }
    for (size_t k = len; k < units; k++) {
        out[k] = 0;
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_u32_float64(double *out, const uint32_t *src, size_t units, size_t n) {
    char buf[64];
    for (size_t i = 0; i < n; i++) {
        char *end;
        const size_t len = narrow_u32(buf, sizeof buf, src + i * units, units);
        out[i] = strtod(buf, &end);
        if (len == 0 || end != buf + len) {
            return 1;
        }
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_float64_u32(uint32_t *out, size_t units, const double *src, size_t n) {
    char buf[64];
    for (size_t i = 0; i < n; i++) {
        const int len = snprintf(buf, sizeof buf, "%.17g", src[i]);
        if (len < 0 || widen_u32(out + i * units, units, buf, (size_t)len)) {
            return 1;
        }
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_int64_u32(uint32_t *out, size_t units, const int64_t *src, size_t n) {
    char buf[24];
    for (size_t i = 0; i < n; i++) {
        /* digits from the end, of the magnitude as uint64 (INT64_MIN included) */
        uint64_t m = src[i] < 0 ? (uint64_t)0 - (uint64_t)src[i] : (uint64_t)src[i];
        size_t at = sizeof buf;
        do {
            buf[--at] = (char)('0' + m % 10);
            m /= 10;
        } while (m != 0);
        if (src[i] < 0) {
            buf[--at] = '-';
        }
        if (widen_u32(out + i * units, units, buf + at, sizeof buf - at)) {
            return 1;
        }
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_u32_int64(int64_t *out, const uint32_t *src, size_t units, size_t n) {
    char buf[32];
    for (size_t i = 0; i < n; i++) {
        char *end;
        const size_t len = narrow_u32(buf, sizeof buf, src + i * units, units);
        errno = 0;
        const long long v = strtoll(buf, &end, 10);
        if (len == 0 || end != buf + len || errno != 0) {
            return 1;
        }
        out[i] = (int64_t)v;
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_string_float64(double *out, const ck_string_data *src, size_t n) {
    char buf[64];
    for (size_t i = 0; i < n; i++) {
        /* strtod wants a NUL after the text, which a {data, size} string has not */
        if (src[i].size == 0 || src[i].size >= sizeof buf) {
            return 1;
        }
        memcpy(buf, src[i].data, src[i].size);
        buf[src[i].size] = '\0';
        char *end;
        out[i] = strtod(buf, &end);
        if (end != buf + src[i].size) {
            return 1;
        }
    }
    return 0;
}

/* ---- reductions and accumulations ---- */

CKB_NOINLINE int ckb_loop_sum_float64(double *out, const double *x, size_t n) {
    double s = 0.0;
    for (size_t i = 0; i < n; i++) {
        s += x[i];
    }
    *out = s;
    return 0;
}

CKB_NOINLINE int ckb_loop_min_float64(double *out, const double *x, size_t n) {
    if (n == 0) {
        return 1; /* the kernel refuses zero elements */
    }
    double m = x[0];
    for (size_t i = 1; i < n; i++) {
        m = (m < x[i] || m != m) ? m : x[i];
    }
    *out = m;
    return 0;
}

CKB_NOINLINE int ckb_loop_sum_float64_axis0(double *out, const double *x, size_t rows,
                                            size_t cols) {
    for (size_t j = 0; j < cols; j++) {
        out[j] = 0.0;
    }
    for (size_t i = 0; i < rows; i++) {
        for (size_t j = 0; j < cols; j++) {
            out[j] += x[i * cols + j];
        }
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_sum_float32_rows(double *out, const ck_var_data *rows, size_t nrows) {
    for (size_t r = 0; r < nrows; r++) {
        const float *x = (const float *)(const void *)rows[r].begin;
        double s = 0.0;
        for (size_t i = 0; i < rows[r].size; i++) {
            s += (double)x[i];
        }
        out[r] = s;
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_cumsum_float64(double *out, const double *x, size_t n) {
    double s = 0.0;
    for (size_t i = 0; i < n; i++) {
        s = i == 0 ? x[0] : s + x[i];
        out[i] = s;
    }
    return 0;
}

CKB_NOINLINE int ckb_loop_dot_float64_rows(double *out, const double *x, const double *y,
                                           size_t rows, size_t cols) {
    for (size_t r = 0; r < rows; r++) {
        double s = 0.0;
        for (size_t i = 0; i < cols; i++) {
            s += x[r * cols + i] * y[r * cols + i];
        }
        out[r] = s;
    }
    return 0;
}
