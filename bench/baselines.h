/* bench/baselines.h: the plain C loops of bench/baselines.c (private to bench/). */
#ifndef CKERNEL_BENCH_BASELINES_H
#define CKERNEL_BENCH_BASELINES_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/arrmeta.h"

/* Contiguous n elements, dst <- src; 0, or 1 where the kernel reports an error. */
typedef int (*ckb_loop_fn)(void *dst, const void *src, size_t n);

int ckb_loop_int32_float64(void *dst, const void *src, size_t n);
int ckb_loop_int64_float64(void *dst, const void *src, size_t n);
int ckb_loop_float64_int32_nocheck(void *dst, const void *src, size_t n);
int ckb_loop_float64_int32_fractional(void *dst, const void *src, size_t n);
int ckb_loop_float64_float32(void *dst, const void *src, size_t n);
int ckb_loop_float32_float64(void *dst, const void *src, size_t n);
int ckb_loop_float32_float16(void *dst, const void *src, size_t n);
int ckb_loop_float16_float32(void *dst, const void *src, size_t n);
int ckb_loop_copy_float64(void *dst, const void *src, size_t n);
int ckb_loop_copy_int32(void *dst, const void *src, size_t n);

/* dst[i] = src[i * step]. */
int ckb_loop_int32_float64_strided(double *dst, const int32_t *src, size_t n, size_t step);
/* rows x cols, both C order. */
int ckb_loop_int32_float64_2d(double *dst, const int32_t *src, size_t rows, size_t cols);
/* dst rows x cols C order, src cols x rows C order: dst[i][j] = src[j][i]. */
int ckb_loop_int32_float64_transposed(double *dst, const int32_t *src, size_t rows,
                                      size_t cols);
/* Row by row; sizes must match (1 otherwise). */
int ckb_loop_float32_float64_var(const ck_var_data *dst, const ck_var_data *src, size_t rows);
/* dst[i] = *ptrs[i] (1 for a NULL pointer). */
int ckb_loop_gather_float64(double *dst, char *const *ptrs, size_t n);
/* Byte-addressed int32 -> float64 with no alignment assumption. */
int ckb_loop_int32_float64_unaligned(char *dst, const char *src, size_t n);

/* Reductions and accumulations, as a C programmer writes them: a running sum (which rounds
 * differently from the kernel's pairwise sum: compared within a bound), the NaN-propagating
 * minimum, column sums of a C-order matrix row after row, per-row sums of float32 rows in
 * float64, and the running sum written out (the last two orders are the kernel's: equal bit
 * for bit). */
int ckb_loop_sum_float64(double *out, const double *x, size_t n);
int ckb_loop_min_float64(double *out, const double *x, size_t n);
int ckb_loop_sum_float64_axis0(double *out, const double *x, size_t rows, size_t cols);
int ckb_loop_sum_float32_rows(double *out, const ck_var_data *rows, size_t nrows);
int ckb_loop_cumsum_float64(double *out, const double *x, size_t n);
int ckb_loop_dot_float64_rows(double *out, const double *x, const double *y, size_t rows,
                              size_t cols);

/* The struct/... workloads: records as C lays them out, which is ckernel's layout of the
 * datashape beside each (fields at their aligned offsets, no padding in these three), so the
 * kernel and the loop read and write the same bytes. */
#define CKB_REC_COPY_DS "{x: int32, y: int32, z: float64}"
typedef struct ckb_rec_copy {
    int32_t x;
    int32_t y;
    double z;
} ckb_rec_copy;
#define CKB_REC_CAST_DST_DS "{a: float64, b: int32, c: float32}"
typedef struct ckb_rec_cast_dst {
    double a;
    int32_t b;
    float c;
} ckb_rec_cast_dst;
#define CKB_REC_CAST_SRC_DS "{c: float64, b: int16, a: int32}"
typedef struct ckb_rec_cast_src {
    double c;
    int16_t b;
    int32_t a;
} ckb_rec_cast_src;
/* dst[i] = src[i], field by field. */
int ckb_loop_struct_copy(ckb_rec_copy *dst, const ckb_rec_copy *src, size_t n);
/* By name, nocheck: dst[i].a = (double)src[i].a, .b = src[i].b, .c = (float)src[i].c. */
int ckb_loop_struct_cast(ckb_rec_cast_dst *dst, const ckb_rec_cast_src *src, size_t n);

/* Elementwise add, as the built-in `add` callable computes it (IEEE, round to nearest). */
/* dst[i] = a[i] + b[i]. */
int ckb_loop_add_float64(double *dst, const double *a, const double *b, size_t n);
/* ?float64: dst[i] = NA where a[i] or b[i] is NA (the bits 0x7ff80000000007a2), else
 * a[i] + b[i]. */
int ckb_loop_add_float64_option(double *dst, const double *a, const double *b, size_t n);
/* A row (1, cols) plus a column (rows, 1) into rows x cols: dst[i][j] = row[j] + col[i]. */
int ckb_loop_add_float64_outer(double *dst, const double *row, const double *col, size_t rows,
                               size_t cols);
/* Row by row, dst[r][j] = a[r][j] + b[r][j]; every row's sizes must match (1 otherwise). */
int ckb_loop_add_float64_var(const ck_var_data *dst, const ck_var_data *a, const ck_var_data *b,
                             size_t rows);
/* dst[i] = (double)a[i] + b[i]: the argument cast and the add in one loop. */
int ckb_loop_add_int32_float64(double *dst, const int32_t *a, const double *b, size_t n);

/* The expr/... workloads: the expression's operations in its order, each rounded (IEEE,
 * round to nearest, never contracted into a fused multiply-add), as its kernel computes. */
/* dst[i] = a[i] * b[i] + c[i]. */
int ckb_loop_fma3_float64(double *dst, const double *a, const double *b, const double *c,
                          size_t n);
/* dst[i] = ((k[0] * x[i] + k[1]) * x[i] + k[2]) * x[i] + k[3]. */
int ckb_loop_poly3_float64(double *dst, const double *x, const double k[4], size_t n);
/* dst[i] = (double)a[i] * b[i] + (double)c[i]. */
int ckb_loop_mul_add_int32_float64_float32(double *dst, const int32_t *a, const double *b,
                                           const float *c, size_t n);
/* Row by row, dst[r][j] = a[r][j] * x[r][j] + b[r][j]; every row's sizes must match. */
int ckb_loop_fma3_float64_var(const ck_var_data *dst, const ck_var_data *a,
                              const ck_var_data *x, const ck_var_data *b, size_t rows);

/* dst[i] = 2.0 * a[i] + 3.0 * b[i] (the int literals as float64, exact). */
int ckb_loop_linear_float64(double *dst, const double *a, const double *b, size_t n);
/* dst[i] = s * s + c * c with s = sin(a[i]), c = cos(b[i]): the C library's sin and cos,
 * which are not ckernel's (SLEEF's): compared within a few ULP. */
int ckb_loop_trig_float64(double *dst, const double *a, const double *b, size_t n);
/* dst[i] = a[i] > b[i] ? a[i] : b[i]. */
int ckb_loop_where_float64(double *dst, const double *a, const double *b, size_t n);
/* dst[i] = exp((-a[i] * a[i]) / 2.0) * c[i]: the C library's exp (compared within a few
 * ULP). */
int ckb_loop_gauss_float64(double *dst, const double *a, const double *c, size_t n);
/* dst[i] = ((a[i] < 0.5) & (b[i] > 0)) | (c[i] > 0.9), a bool as one byte 0 or 1. */
int ckb_loop_logic_float64(uint8_t *dst, const double *a, const double *b, const double *c,
                           size_t n);

/* The jit/... workloads: rows x cols, the destination C order, the source rows `src_row`
 * (resp. `a_row`) elements apart (padded). */
int ckb_loop_int16_float32_rows(float *dst, const int16_t *src, size_t rows, size_t cols,
                                size_t src_row);
/* dst[r][c] = (double)a[r * a_row + c] + b[r][c]. */
int ckb_loop_add_int32_float64_rows(double *dst, const int32_t *a, size_t a_row,
                                    const double *b, size_t rows, size_t cols);

/* Number text (text/...): the C library's way. The literal "[v0, v1, ...]" of n float64
 * values, each printed with "%.17g" (17 significant digits always read back, but are not
 * the shortest that do: 0.1 prints as 0.10000000000000001); returns its length (NUL
 * written after it), or 0 when cap is too small. */
size_t ckb_loop_print_float64(char *out, size_t cap, const double *v, size_t n);
/* n values read with strtod from such a literal ('[', numbers separated by ", ", ']');
 * 1 when it does not hold them. */
int ckb_loop_parse_float64(double *out, const char *text, size_t n);

/* Text casts (text/cast/...), as a C programmer writes them over NumPy's U<units> (UTF-32
 * code points, NUL-padded) and over {data, size} strings: each value narrowed to a char
 * buffer and read with strtod / strtoll, or printed with snprintf("%.17g") (not the
 * shortest text) / a decimal loop and widened. 1 when a value is not read whole (or does
 * not fit). */
int ckb_loop_u32_float64(double *out, const uint32_t *src, size_t units, size_t n);
int ckb_loop_float64_u32(uint32_t *out, size_t units, const double *src, size_t n);
int ckb_loop_int64_u32(uint32_t *out, size_t units, const int64_t *src, size_t n);
int ckb_loop_u32_int64(int64_t *out, const uint32_t *src, size_t units, size_t n);
int ckb_loop_string_float64(double *out, const ck_string_data *src, size_t n);
/* text/cast/datetime64[s]->U32 and back (baselines_time.c): seconds since 1970 as NumPy's
 * ISO text "YYYY-MM-DDTHH:MM:SS" in U values of `units`, years 1 to 9999. */
int ckb_loop_datetime_s_u32(uint32_t *out, size_t units, const int64_t *src, size_t n);
int ckb_loop_u32_datetime_s(int64_t *out, const uint32_t *src, size_t units, size_t n);

#endif
