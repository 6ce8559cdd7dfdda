/* bench/workloads.h: what the workload files of `ckernel bench` share (private to bench/).
 *
 * workloads.c holds the two tables: the workloads (name, kind, types, size, note), in the
 * order they run and print, and the kinds, one row each giving its {setup, run, loop,
 * verify} and how it is timed. The generic code there only goes through the kind's row.
 * Each family file holds the functions of its kinds, declared below under its name:
 *
 *   workloads_assign.c       contig/, strided/, 2d/, var/, flat/, pointer/, unaligned/,
 *                            small/, build/, incache/: ck_make_assign over array layouts
 *   workloads_struct.c       struct/: assignment of records
 *   workloads_elementwise.c  elementwise/add/..., option/add/...: the built-in add
 *   workloads_math.c         math/: NumPy's functions (exp, sin, power, sqrt, ...)
 *   workloads_select.c       select/: ck_callable_select alone
 *   workloads_jit.c          jit/: kernels composed and compiled, and JIT kernel builds
 *   workloads_text.c         text/: the literals, text casts, equal on strings
 *   workloads_reduce.c       reduce/, accumulate/, call/dot
 *   workloads_expr.c         expr/: expression kernels (ck_make_expr)
 *   workloads_common.c       what they share: data, types, buffers, kernel builds, the
 *                            kernel-versus-loop comparison and the timings */
#ifndef CKERNEL_BENCH_WORKLOADS_H
#define CKERNEL_BENCH_WORKLOADS_H

#include <stddef.h>
#include <stdint.h>

#include "baselines.h"
#include "bench.h"

#define MI ((size_t)10 * 1024 * 1024) /* the "10 Mi elements" */
/* The 2-d shape, rows x cols: ROWS_2D and COLS_2D of workloads.c (defined there, where
 * tests/host/compare_tool_test.py reads them). */
extern const size_t ckb_rows_2d, ckb_cols_2d;
#define INCACHE ((size_t)16 * 1024)
#define VAR_ROWS 100000
#define VAR_MAX_LEN 200
#define POINTER_N 100000
#define SEED UINT64_C(0x9e3779b97f4a7c15)
/* jit/...: rows of 3 elements whose source rows are padded, so the composed kernel cannot
 * merge the two dimensions and calls its leaf once per row. */
#define JIT_ROWS 1000000
#define JIT_COLS 3
#define JIT_I16_ROW 4 /* int16 source row: 8 bytes */
#define JIT_I32_ROW 4 /* int32 argument row of jit/add-...: 16 bytes */
#define JIT_COMPILE_ROWS 1000
#define TEXT_N 1000000 /* text/...: the "a million values" */
#define TEXT_CAST_N ((size_t)1024 * 1024) /* text/cast/...: issue 27's "1 Mi values" */
/* text/print/...: the bytes of its destination and reference, the room its plain loop has
 * for the "%.17g" text of n values (at most 24 characters each, ", " between them). */
#define TEXT_PRINT_BYTES(n) (32 * (n) + 64)
#define EXPR_ARGS 5 /* expr/...: the most arguments an expression has */

#define I16 CK_TYPE_INT16
#define I32 CK_TYPE_INT32
#define I64 CK_TYPE_INT64
#define F16 CK_TYPE_FLOAT16
#define F32 CK_TYPE_FLOAT32
#define F64 CK_TYPE_FLOAT64
#define NOCHECK CK_ERRMODE_NOCHECK
#define FRACTIONAL CK_ERRMODE_FRACTIONAL

/* How source data is filled (ckb_fill_data). */
typedef enum ckb_fill {
    F_I16,          /* any int16 */
    F_I32,          /* any int32 */
    F_I64,          /* any int64 */
    F_F64_INTRANGE, /* around the int32 range, fractional; NaN, inf, out of range */
    F_F64_INTEGRAL, /* integral values in the int32 range */
    F_F64_WIDE,     /* exponents beyond float32's both ways; NaN, inf, zeros */
    F_F64_PLAIN,    /* ordinary finite doubles */
    F_F32_HALF,     /* exponents around float16's range; NaN, inf, zeros */
    F_F32_PLAIN,    /* ordinary finite floats */
    F_F64_TEXT,     /* full-precision magnitudes 2^-60..2^60 (both text layouts); NaN, inf */
    F_F16_BITS,     /* every binary16 bit pattern, random */
    F_RECORDS       /* struct/...: field by field (workloads_struct.c) */
} ckb_fill;

/* One workload: a row of workloads.c's table. */
typedef struct ckb_def {
    const char *name;
    int kind; /* its row in the kinds table */
    int per_target;
    ck_type_id dst, src;
    ck_errmode mode;
    ckb_fill fill;
    size_t n; /* elements; 0 for "as many as the var workload" */
    ckb_loop_fn loop; /* contiguous casts: the plain loop */
    const char *note;
} ckb_def;

typedef struct ckb_kind ckb_kind;
typedef struct ckb_wl ckb_wl;

/* Builds w's kernel into b (the builder initialised): ck_make_assign when NULL. */
typedef int (*ckb_make_fn)(const ckb_wl *w, ck_builder *b, size_t *off, const ck_eval_ctx *ctx);

/* The state of one workload. */
struct ckb_wl {
    const ckb_def *def;
    const ckb_kind *kind;
    size_t n; /* elements per operation */
    ck_type *dt, *st;
    char *dam, *sam;
    ck_memblock *arena;
    ck_eval_ctx ctx;
    ck_builder b;
    int built;
    ckb_make_fn make; /* how the kernel is built; NULL: ck_make_assign of dt <- st */
    /* threads > 1 (contiguous workloads): the element kernel, strided request, run by
     * ck_parallel_strided over the n elements (the reductions, dot and expressions: their
     * ck_parallel_* call builds its own). */
    int threads;
    ck_builder pb;
    int pbuilt;
    /* Raw allocations (freed at the end); NULL when unused. */
    char *src_buf, *dst_buf, *ref_buf, *aux_buf;
    /* What the kernel gets, and the destination element storage (kernel and reference). */
    char *ksrc, *kdst;
    char *const *args; /* the kernel's sources when not &ksrc: kargs or xargs */
    char *dst_elems, *ref_elems;
    size_t dst_bytes;   /* destination element bytes: compared, and memcpy'd as baseline */
    double bytes_moved; /* read + written per operation */
    /* var: row descriptors of the source, the destination and the reference */
    ck_var_data *src_rows, *dst_rows, *ref_rows;
    /* elementwise/add: the second argument (type, arrmeta, data, var rows) and both
     * arguments as the kernel gets them */
    ck_type *st2;
    char *sam2;
    char *src2_buf;
    ck_var_data *src2_rows;
    char *kargs[2];
    /* add, and select: the callable (one reference), the arguments of the selection and the
     * index the selection must give */
    ck_callable *callable;
    ck_type_id sel_args[2];
    int sel_expected;
    /* jit/<case>/jit: the same kernel built with CK_EVAL_NO_JIT, timed alongside; and the
     * compile of the JIT kernel (ms, < 0 when it was not a compile) */
    ck_builder cb;
    int cbuilt;
    double compile_ms;
    /* an evaluated expr/<case>/jit (no kernel built before timing): its CK_EVAL_NO_JIT twin
     * as one call, timed in place of the kernel in cb */
    int (*run_composed)(ckb_wl *w);
    /* text/...: the array over the source values, their literal (ckernel's printing of
     * them, ck_free'd: parse reads it, print's comparison reads it back) and its length */
    ck_array *text_array;
    char *text;
    size_t text_len;
    /* reduce/..., accumulate/...: the callable, the axes, and arrays over the source and the
     * destination for ck_parallel_reduce */
    ck_callable *red;
    int axes[2], naxes;
    ck_array *src_array, *src2_array, *dst_array; /* src2: dot's second argument */
    /* expr/...: the expression, its arguments in the order of ck_expr_arg_name (type,
     * arrmeta, data, and var rows) and what the kernel gets of each */
    ck_expr *expr;
    int nx;
    ck_type *xt[EXPR_ARGS];
    char *xam[EXPR_ARGS];
    char *xbuf[EXPR_ARGS];
    ck_var_data *xrows[EXPR_ARGS];
    char *xargs[EXPR_ARGS];
    ck_array *xarrays[EXPR_ARGS]; /* threads > 1: the arguments as arrays (ck_parallel_expr) */
};

/* Where a plain loop writes: the kernel's destination or the reference, elements and (var
 * workloads) their rows. */
typedef struct ckb_out {
    char *elems;
    const ck_var_data *rows;
} ckb_out;

/* How a kind's kernel is built: the default context, or CK_EVAL_NO_JIT (composed), or
 * CK_EVAL_JIT (needs the JIT). */
typedef enum ckb_eval { CKB_PLAIN, CKB_NO_JIT, CKB_JIT } ckb_eval;

/* A row of the kinds table. */
struct ckb_kind {
    /* Everything before timing: buffers page-faulted and filled, types, arrmeta, and the
     * kernel built when the kind builds it outside the timed operation (w->threads > 1:
     * also what the parallel run needs). */
    int (*setup)(ckb_wl *w);
    /* One operation of ckernel into the destination (w->threads > 1: the parallel run). */
    int (*run)(ckb_wl *w);
    /* The plain C loop doing the same work into `out`: 0, or 1 where the kernel reports an
     * error; NULL when there is none. */
    int (*loop)(const ckb_wl *w, ckb_out out);
    /* Runs both once and compares (ckb_workload_verify): CK_OK with *equal set, or a status;
     * msg (msg_size 0: none) says what differs. */
    int (*verify)(ckb_wl *w, int *equal, char *msg, size_t msg_size);
    /* Times the workload into out (ns, unit, the ratios that apply, spread). */
    int (*measure)(ckb_wl *w, const ckb_settings *s, ckb_result *out);
    ckb_eval eval;
    /* CKB_JIT kinds, with the JIT available: 1 (why set) when the workload still cannot run
     * in this process; NULL: it can. */
    int (*skip)(const ckb_def *d, char *why, size_t why_size);
    /* Work before any workload runs (ckb_prepare), and before this one; NULL: none. */
    void (*prepare)(const ckb_def *d, const ckb_settings *s);
};

/* ---------------------------------------------------------------- workloads.c */

/* Zeroes w, sets up workload d through its kind's setup (w->threads = threads first). */
int ckb_wl_setup(ckb_wl *w, const ckb_def *d, int threads);

/* ---------------------------------------------------------------- workloads_common.c */

/* Data from a fixed-seed xorshift generator. */
uint64_t ckb_rng_next(uint64_t *s);
/* Row lengths 0..VAR_MAX_LEN of the var workloads from the fixed seed (lens: VAR_ROWS of
 * them, or NULL); returns their sum. */
size_t ckb_var_lengths(size_t *lens);
/* rows[r] over buf (elements of es bytes), the rows one after another, of the lengths lens. */
void ckb_var_rows(ck_var_data *rows, char *buf, size_t es, const size_t *lens, size_t nrows);
/* Fills n elements at p (any alignment) of type `id` per `fill`. */
void ckb_fill_data(char *p, size_t n, ck_type_id id, ckb_fill fill, uint64_t seed);

size_t ckb_scalar_size(ck_type_id id);
/* 64-byte aligned, page-faulted (zeroed) memory; NULL on failure. */
char *ckb_alloc_buffer(size_t bytes);
/* dims (outer first) over the scalar `id`, through a var dim and/or a pointer. */
int ckb_make_type(const intptr_t *dims, int ndims, int var_inner, int pointer_inner,
                  ck_type_id id, ck_type **out);
int ckb_make_arrmeta(const ck_type *t, ck_memblock *blockref, char **out);
/* CK_ERR_NOMEM with "bench: cannot allocate the <what>". */
int ckb_nomem(const char *what);
void ckb_wl_free(ckb_wl *w);

/* Contiguous-style buffers: src src_elems elements, dst and ref w->n, at byte `offset`;
 * the source filled. */
int ckb_wl_alloc_plain(ckb_wl *w, size_t src_elems, size_t offset);
/* w->dt and w->st: dims over the workload's dst and src types, default arrmeta. */
int ckb_wl_types(ckb_wl *w, const intptr_t *dims, int ndims);
/* VAR_ROWS * var rows of the workload's src and dst types, one after another in buffers
 * owned here, the destination rows allocated; var arrmeta over an arena. */
int ckb_wl_setup_var(ckb_wl *w);

/* The kernel into b with ctx (w->make's, or ck_make_assign). */
int ckb_wl_build_into(ckb_wl *w, ck_builder *b, const ck_eval_ctx *ctx);
/* The kernel into w->b at the current CPU target (CKB_JIT kinds: checked compiled, and
 * w->compile_ms). */
int ckb_wl_build(ckb_wl *w);
/* Its CK_EVAL_NO_JIT twin into w->cb (ckb_measure_vs_composed). */
int ckb_wl_build_composed(ckb_wl *w);
/* After a CK_EVAL_JIT build: CK_OK when the kernel is compiled code (or a cache hit when
 * hit_ok). */
int ckb_wl_check_jit_used(const ckb_wl *w, int hit_ok);
/* A ckb_make_fn: the callable w->callable on (st, sam) and (st2, sam2). */
int ckb_make_call(const ckb_wl *w, ck_builder *b, size_t *off, const ck_eval_ctx *ctx);
/* The same with one argument, (st, sam). */
int ckb_make_call_1(const ckb_wl *w, ck_builder *b, size_t *off, const ck_eval_ctx *ctx);

/* run: the kernel built in w->b, once. */
int ckb_run_kernel(ckb_wl *w);
/* The kind's plain loop into the destination (into_ref 0) or the reference. */
int ckb_wl_loop(const ckb_wl *w, int into_ref);

/* The kernel's output (written by the caller) against the plain loop's, run now into the
 * reference: equal bytes, or when `agree` (may be NULL) accepts them. */
int ckb_wl_check_loop(ckb_wl *w, int (*agree)(const ckb_wl *w), int *equal, char *msg,
                      size_t msg_size);
/* Runs the kind's run once into the destination filled with 0x5a (so that a kernel that
 * writes nothing fails). */
int ckb_wl_run_fresh(ckb_wl *w);
/* verify: run once, then ckb_wl_check_loop. */
int ckb_verify_equal(ckb_wl *w, int *equal, char *msg, size_t msg_size);
/* verify for kinds whose kernel is built in the timed operation: built here, then
 * ckb_verify_equal. */
int ckb_verify_built(ckb_wl *w, int *equal, char *msg, size_t msg_size);

/* measure: run, memcpy and the loop interleaved; ns per element or (per_op) per
 * operation. */
int ckb_measure_vs_loop(ckb_wl *w, const ckb_settings *s, ckb_result *out);
int ckb_measure_vs_loop_per_op(ckb_wl *w, const ckb_settings *s, ckb_result *out);
/* measure: the same and the CK_EVAL_NO_JIT twin (ratio_composed, compile_ms). */
int ckb_measure_vs_composed(ckb_wl *w, const ckb_settings *s, ckb_result *out);
/* measure: run alone, per operation: no data moved, so no bandwidth or ratios. */
int ckb_measure_alone(ckb_wl *w, const ckb_settings *s, ckb_result *out);
/* fn timed alone, its figure in `unit`: what ckb_measure_alone and the build and JIT kinds'
 * measures share. */
int ckb_measure_one(ckb_wl *w, const ckb_settings *s, ckb_result *out, ckb_timed_fn fn,
                    ckb_unit unit);

/* ---------------------------------------------------------------- workloads_assign.c */

int ckb_assign_setup_contig(ckb_wl *w);
int ckb_assign_setup_small(ckb_wl *w);
int ckb_assign_setup_unaligned(ckb_wl *w);
int ckb_assign_setup_strided(ckb_wl *w);
int ckb_assign_setup_2d(ckb_wl *w);
int ckb_assign_setup_transposed(ckb_wl *w);
int ckb_assign_setup_build(ckb_wl *w);
int ckb_assign_setup_var(ckb_wl *w);
int ckb_assign_setup_pointer(ckb_wl *w);
int ckb_assign_run_contig(ckb_wl *w);
int ckb_assign_run_small(ckb_wl *w);
int ckb_assign_loop_contig(const ckb_wl *w, ckb_out out);
int ckb_assign_loop_small(const ckb_wl *w, ckb_out out);
int ckb_assign_loop_strided(const ckb_wl *w, ckb_out out);
int ckb_assign_loop_2d(const ckb_wl *w, ckb_out out);
int ckb_assign_loop_transposed(const ckb_wl *w, ckb_out out);
int ckb_assign_loop_build(const ckb_wl *w, ckb_out out);
int ckb_assign_loop_var(const ckb_wl *w, ckb_out out);
int ckb_assign_loop_pointer(const ckb_wl *w, ckb_out out);
int ckb_assign_loop_unaligned(const ckb_wl *w, ckb_out out);
int ckb_assign_measure_build(ckb_wl *w, const ckb_settings *s, ckb_result *out);

/* ---------------------------------------------------------------- workloads_struct.c */

int ckb_struct_setup_copy(ckb_wl *w);
int ckb_struct_setup_cast(ckb_wl *w);
int ckb_struct_loop_copy(const ckb_wl *w, ckb_out out);
int ckb_struct_loop_cast(const ckb_wl *w, ckb_out out);

/* ---------------------------------------------------------------- workloads_math.c */

int ckb_math_setup(ckb_wl *w);
int ckb_math_setup_2threads(ckb_wl *w);
int ckb_math_run(ckb_wl *w);
int ckb_math_loop(const ckb_wl *w, ckb_out out);
int ckb_math_verify(ckb_wl *w, int *equal, char *msg, size_t msg_size);

/* ---------------------------------------------------------------- workloads_elementwise.c */

int ckb_add_setup_contig(ckb_wl *w);
int ckb_add_setup_broadcast(ckb_wl *w);
int ckb_add_setup_option(ckb_wl *w);
int ckb_add_setup_var(ckb_wl *w);
int ckb_add_loop_contig(const ckb_wl *w, ckb_out out);
int ckb_add_loop_broadcast(const ckb_wl *w, ckb_out out);
int ckb_add_loop_option(const ckb_wl *w, ckb_out out);
int ckb_add_loop_var(const ckb_wl *w, ckb_out out);

/* ---------------------------------------------------------------- workloads_select.c */

int ckb_select_setup_warm(ckb_wl *w);
int ckb_select_setup_cold(ckb_wl *w);
int ckb_select_run(ckb_wl *w);
int ckb_select_verify(ckb_wl *w, int *equal, char *msg, size_t msg_size);

/* ---------------------------------------------------------------- workloads_jit.c */

int ckb_jit_setup_rows(ckb_wl *w);
int ckb_jit_setup_rows_paired(ckb_wl *w);
int ckb_jit_setup_add(ckb_wl *w);
int ckb_jit_setup_add_paired(ckb_wl *w);
int ckb_jit_setup_compile(ckb_wl *w);
int ckb_jit_setup_cache_hit(ckb_wl *w);
int ckb_jit_loop_rows(const ckb_wl *w, ckb_out out);
int ckb_jit_loop_add(const ckb_wl *w, ckb_out out);
int ckb_jit_measure_first(ckb_wl *w, const ckb_settings *s, ckb_result *out);
int ckb_jit_measure_steady(ckb_wl *w, const ckb_settings *s, ckb_result *out);
int ckb_jit_measure_cache_hit(ckb_wl *w, const ckb_settings *s, ckb_result *out);
int ckb_jit_skip_first(const ckb_def *d, char *why, size_t why_size);
void ckb_jit_prepare_first(const ckb_def *d, const ckb_settings *s);

/* ---------------------------------------------------------------- workloads_text.c */

int ckb_text_setup_print(ckb_wl *w);
int ckb_text_setup_parse(ckb_wl *w);
int ckb_text_setup_cast(ckb_wl *w);
int ckb_text_setup_datetime(ckb_wl *w);
int ckb_text_setup_equal(ckb_wl *w);
int ckb_text_run_print(ckb_wl *w);
int ckb_text_run_parse(ckb_wl *w);
int ckb_text_loop_print(const ckb_wl *w, ckb_out out);
int ckb_text_loop_parse(const ckb_wl *w, ckb_out out);
int ckb_text_loop_cast(const ckb_wl *w, ckb_out out);
int ckb_text_loop_datetime(const ckb_wl *w, ckb_out out);
int ckb_text_loop_equal(const ckb_wl *w, ckb_out out);
int ckb_text_verify_print(ckb_wl *w, int *equal, char *msg, size_t msg_size);
int ckb_text_verify_parse(ckb_wl *w, int *equal, char *msg, size_t msg_size);
int ckb_text_verify_cast(ckb_wl *w, int *equal, char *msg, size_t msg_size);

/* ---------------------------------------------------------------- workloads_reduce.c */

int ckb_reduce_setup_sum(ckb_wl *w);
int ckb_reduce_setup_min(ckb_wl *w);
int ckb_reduce_setup_axis0(ckb_wl *w);
int ckb_reduce_setup_var(ckb_wl *w);
int ckb_reduce_setup_cumsum(ckb_wl *w);
int ckb_reduce_setup_dot(ckb_wl *w);
int ckb_reduce_run(ckb_wl *w);
int ckb_reduce_run_dot(ckb_wl *w);
int ckb_reduce_loop_sum(const ckb_wl *w, ckb_out out);
int ckb_reduce_loop_min(const ckb_wl *w, ckb_out out);
int ckb_reduce_loop_axis0(const ckb_wl *w, ckb_out out);
int ckb_reduce_loop_var(const ckb_wl *w, ckb_out out);
int ckb_reduce_loop_cumsum(const ckb_wl *w, ckb_out out);
int ckb_reduce_loop_dot(const ckb_wl *w, ckb_out out);
int ckb_reduce_verify_sum(ckb_wl *w, int *equal, char *msg, size_t msg_size);
int ckb_reduce_verify_var(ckb_wl *w, int *equal, char *msg, size_t msg_size);
int ckb_reduce_verify_dot(ckb_wl *w, int *equal, char *msg, size_t msg_size);

/* ---------------------------------------------------------------- workloads_expr.c */

int ckb_expr_setup_fma3(ckb_wl *w);
int ckb_expr_setup_fma3_paired(ckb_wl *w);
int ckb_expr_setup_poly_paired(ckb_wl *w);
int ckb_expr_setup_mixed(ckb_wl *w);
int ckb_expr_setup_var(ckb_wl *w);
int ckb_expr_run(ckb_wl *w);
int ckb_expr_loop_fma3(const ckb_wl *w, ckb_out out);
int ckb_expr_loop_poly(const ckb_wl *w, ckb_out out);
int ckb_expr_loop_mixed(const ckb_wl *w, ckb_out out);
int ckb_expr_loop_var(const ckb_wl *w, ckb_out out);
int ckb_expr_setup_linear(ckb_wl *w);
int ckb_expr_setup_linear_paired(ckb_wl *w);
int ckb_expr_setup_trig(ckb_wl *w);
int ckb_expr_setup_trig_paired(ckb_wl *w);
int ckb_expr_setup_trig_2threads(ckb_wl *w);
int ckb_expr_setup_where(ckb_wl *w);
int ckb_expr_setup_where_paired(ckb_wl *w);
int ckb_expr_setup_gauss(ckb_wl *w);
int ckb_expr_setup_gauss_paired(ckb_wl *w);
int ckb_expr_setup_logic(ckb_wl *w);
int ckb_expr_setup_logic_paired(ckb_wl *w);
int ckb_expr_setup_dotsum_paired(ckb_wl *w);
int ckb_expr_loop_linear(const ckb_wl *w, ckb_out out);
int ckb_expr_loop_trig(const ckb_wl *w, ckb_out out);
int ckb_expr_loop_where(const ckb_wl *w, ckb_out out);
int ckb_expr_loop_gauss(const ckb_wl *w, ckb_out out);
int ckb_expr_loop_logic(const ckb_wl *w, ckb_out out);
int ckb_expr_loop_dotsum(const ckb_wl *w, ckb_out out);
int ckb_expr_verify_ulps(ckb_wl *w, int *equal, char *msg, size_t msg_size);
int ckb_expr_verify_sum(ckb_wl *w, int *equal, char *msg, size_t msg_size);
int ckb_expr_skip_fma3(const ckb_def *d, char *why, size_t why_size);
int ckb_expr_skip_poly(const ckb_def *d, char *why, size_t why_size);
int ckb_expr_skip_linear(const ckb_def *d, char *why, size_t why_size);
int ckb_expr_skip_trig(const ckb_def *d, char *why, size_t why_size);
int ckb_expr_skip_trig_2threads(const ckb_def *d, char *why, size_t why_size);
int ckb_expr_skip_where(const ckb_def *d, char *why, size_t why_size);
int ckb_expr_skip_gauss(const ckb_def *d, char *why, size_t why_size);
int ckb_expr_skip_logic(const ckb_def *d, char *why, size_t why_size);

#endif
