/* bench/workloads.c: the workloads of `ckernel bench` (issue 7) behind two tables. The
 * workload table gives each workload's name, kind, types, size and note, in the order they
 * run and print. The kind table gives each kind's functions, from its family's file
 * (workloads.h lists them): setup (data, types, the kernel built), run (one operation of
 * ckernel), loop (the plain C loop doing the same work), verify (the two compared after
 * timing), measure (what is timed against what), and, for the kinds that need the JIT, a
 * skip test and work to prepare before any workload runs. The public functions below go
 * through a workload's kind row only. */
#include <stdio.h>
#include <string.h>

#include "workloads.h"

/* The 2-d shape (2d/, the broadcast add, reduce/sum/float64/axis0; call/dot: ROWS_2D
 * square), here beside the rows that use it: tests/host/compare_tool_test.py reads these
 * two lines to check that bench/compare_numpy.py's 2-d shape is bench's. */
#define MATH_N ((size_t)1024 * 1024) /* the math/ rows: 1 Mi, as workloads_math.c */
#define ROWS_2D 1000
#define COLS_2D 10000
const size_t ckb_rows_2d = ROWS_2D, ckb_cols_2d = COLS_2D;

/* The kinds: X(kind, setup, run, loop, verify, measure, eval, skip, prepare). eval: how the
 * kernel is built (CKB_NO_JIT, composed; CKB_JIT, needs the JIT; CKB_PLAIN, neither). */
/* clang-format off */
#define CKB_KINDS(X) \
    /* ck_make_assign over array layouts (workloads_assign.c) */ \
    X(K_CONTIG,     ckb_assign_setup_contig,     ckb_assign_run_contig, ckb_assign_loop_contig,     ckb_verify_equal, ckb_measure_vs_loop,        CKB_PLAIN, NULL, NULL) \
    X(K_STRIDED,    ckb_assign_setup_strided,    ckb_run_kernel,        ckb_assign_loop_strided,    ckb_verify_equal, ckb_measure_vs_loop,        CKB_PLAIN, NULL, NULL) \
    X(K_2D_C,       ckb_assign_setup_2d,         ckb_run_kernel,        ckb_assign_loop_2d,         ckb_verify_equal, ckb_measure_vs_loop,        CKB_PLAIN, NULL, NULL) \
    X(K_2D_T,       ckb_assign_setup_transposed, ckb_run_kernel,        ckb_assign_loop_transposed, ckb_verify_equal, ckb_measure_vs_loop,        CKB_PLAIN, NULL, NULL) \
    X(K_VAR,        ckb_assign_setup_var,        ckb_run_kernel,        ckb_assign_loop_var,        ckb_verify_equal, ckb_measure_vs_loop,        CKB_PLAIN, NULL, NULL) \
    X(K_POINTER,    ckb_assign_setup_pointer,    ckb_run_kernel,        ckb_assign_loop_pointer,    ckb_verify_equal, ckb_measure_vs_loop,        CKB_PLAIN, NULL, NULL) \
    X(K_UNALIGNED,  ckb_assign_setup_unaligned,  ckb_run_kernel,        ckb_assign_loop_unaligned,  ckb_verify_equal, ckb_measure_vs_loop,        CKB_PLAIN, NULL, NULL) \
    X(K_SMALL,      ckb_assign_setup_small,      ckb_assign_run_small,  ckb_assign_loop_small,      ckb_verify_equal, ckb_measure_vs_loop_per_op, CKB_PLAIN, NULL, NULL) \
    X(K_BUILD,      ckb_assign_setup_build,      ckb_run_kernel,        ckb_assign_loop_build,      ckb_verify_built, ckb_assign_measure_build,   CKB_PLAIN, NULL, NULL) \
    /* records (workloads_struct.c) */ \
    X(K_STRUCT_COPY, ckb_struct_setup_copy, ckb_run_kernel, ckb_struct_loop_copy, ckb_verify_equal, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_STRUCT_CAST, ckb_struct_setup_cast, ckb_run_kernel, ckb_struct_loop_cast, ckb_verify_equal, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    /* the built-in add (workloads_elementwise.c) */ \
    X(K_ADD_CONTIG, ckb_add_setup_contig,    ckb_run_kernel, ckb_add_loop_contig,    ckb_verify_equal, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_ADD_BCAST,  ckb_add_setup_broadcast, ckb_run_kernel, ckb_add_loop_broadcast, ckb_verify_equal, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_ADD_VAR,    ckb_add_setup_var,       ckb_run_kernel, ckb_add_loop_var,       ckb_verify_equal, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_ADD_OPTION, ckb_add_setup_option,    ckb_run_kernel, ckb_add_loop_option,    ckb_verify_equal, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    /* NumPy's functions (workloads_math.c) */ \
    X(K_MATH,          ckb_math_setup,          ckb_math_run, ckb_math_loop, ckb_math_verify, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_MATH_2THREADS, ckb_math_setup_2threads, ckb_math_run, ckb_math_loop, ckb_math_verify, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    /* ck_callable_select alone (workloads_select.c): no loop */ \
    X(K_SELECT_WARM, ckb_select_setup_warm, ckb_select_run, NULL, ckb_select_verify, ckb_measure_alone, CKB_PLAIN, NULL, NULL) \
    X(K_SELECT_COLD, ckb_select_setup_cold, ckb_select_run, NULL, ckb_select_verify, ckb_measure_alone, CKB_PLAIN, NULL, NULL) \
    /* the JIT (workloads_jit.c) */ \
    X(K_JIT_ROWS_COMPOSED, ckb_jit_setup_rows,        ckb_run_kernel, ckb_jit_loop_rows, ckb_verify_equal, ckb_measure_vs_loop,       CKB_NO_JIT, NULL, NULL) \
    X(K_JIT_ROWS,          ckb_jit_setup_rows_paired, ckb_run_kernel, ckb_jit_loop_rows, ckb_verify_equal, ckb_measure_vs_composed,   CKB_JIT,    NULL, NULL) \
    X(K_JIT_ADD_COMPOSED,  ckb_jit_setup_add,         ckb_run_kernel, ckb_jit_loop_add,  ckb_verify_equal, ckb_measure_vs_loop,       CKB_NO_JIT, NULL, NULL) \
    X(K_JIT_ADD,           ckb_jit_setup_add_paired,  ckb_run_kernel, ckb_jit_loop_add,  ckb_verify_equal, ckb_measure_vs_composed,   CKB_JIT,    NULL, NULL) \
    X(K_JIT_FIRST,         ckb_jit_setup_compile,     ckb_run_kernel, ckb_jit_loop_rows, ckb_verify_built, ckb_jit_measure_first,     CKB_JIT,    ckb_jit_skip_first, ckb_jit_prepare_first) \
    X(K_JIT_STEADY,        ckb_jit_setup_compile,     ckb_run_kernel, ckb_jit_loop_rows, ckb_verify_built, ckb_jit_measure_steady,    CKB_JIT,    NULL, NULL) \
    X(K_JIT_HIT,           ckb_jit_setup_cache_hit,   ckb_run_kernel, ckb_jit_loop_rows, ckb_verify_equal, ckb_jit_measure_cache_hit, CKB_JIT,    NULL, NULL) \
    /* text (workloads_text.c) */ \
    X(K_TEXT_PRINT, ckb_text_setup_print,    ckb_text_run_print, ckb_text_loop_print,    ckb_text_verify_print, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_TEXT_PARSE, ckb_text_setup_parse,    ckb_text_run_parse, ckb_text_loop_parse,    ckb_text_verify_parse, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_TEXT_CAST,  ckb_text_setup_cast,     ckb_run_kernel,     ckb_text_loop_cast,     ckb_text_verify_cast,  ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_TEXT_TIME,  ckb_text_setup_datetime, ckb_run_kernel,     ckb_text_loop_datetime, ckb_verify_equal,      ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_TEXT_EQUAL, ckb_text_setup_equal,    ckb_run_kernel,     ckb_text_loop_equal,    ckb_verify_equal,      ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    /* reductions, accumulations, dot (workloads_reduce.c) */ \
    X(K_RED_SUM,    ckb_reduce_setup_sum,    ckb_reduce_run,     ckb_reduce_loop_sum,    ckb_reduce_verify_sum, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_RED_MIN,    ckb_reduce_setup_min,    ckb_reduce_run,     ckb_reduce_loop_min,    ckb_verify_equal,      ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_RED_AXIS0,  ckb_reduce_setup_axis0,  ckb_reduce_run,     ckb_reduce_loop_axis0,  ckb_verify_equal,      ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_RED_VAR,    ckb_reduce_setup_var,    ckb_reduce_run,     ckb_reduce_loop_var,    ckb_reduce_verify_var, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_ACC_CUMSUM, ckb_reduce_setup_cumsum, ckb_reduce_run,     ckb_reduce_loop_cumsum, ckb_verify_equal,      ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    X(K_DOT,        ckb_reduce_setup_dot,    ckb_reduce_run_dot, ckb_reduce_loop_dot,    ckb_reduce_verify_dot, ckb_measure_vs_loop, CKB_PLAIN, NULL, NULL) \
    /* expressions (workloads_expr.c) */ \
    X(K_EXPR_FMA3_COMPOSED, ckb_expr_setup_fma3,        ckb_expr_run, ckb_expr_loop_fma3,  ckb_verify_equal, ckb_measure_vs_loop,     CKB_NO_JIT, NULL, NULL) \
    X(K_EXPR_FMA3_JIT,      ckb_expr_setup_fma3_paired, ckb_expr_run, ckb_expr_loop_fma3,  ckb_verify_equal, ckb_measure_vs_composed, CKB_JIT,    ckb_expr_skip_fma3, NULL) \
    X(K_EXPR_POLY_JIT,      ckb_expr_setup_poly_paired, ckb_expr_run, ckb_expr_loop_poly,  ckb_verify_equal, ckb_measure_vs_composed, CKB_JIT,    ckb_expr_skip_poly, NULL) \
    X(K_EXPR_MIXED,         ckb_expr_setup_mixed,       ckb_expr_run, ckb_expr_loop_mixed, ckb_verify_equal, ckb_measure_vs_loop,     CKB_NO_JIT, NULL, NULL) \
    X(K_EXPR_VAR,           ckb_expr_setup_var,         ckb_expr_run, ckb_expr_loop_var,   ckb_verify_equal, ckb_measure_vs_loop,     CKB_NO_JIT, NULL, NULL) \
    X(K_EXPR_LINEAR_COMPOSED, ckb_expr_setup_linear,        ckb_expr_run, ckb_expr_loop_linear, ckb_verify_equal,      ckb_measure_vs_loop,     CKB_NO_JIT, NULL, NULL) \
    X(K_EXPR_LINEAR_JIT,      ckb_expr_setup_linear_paired, ckb_expr_run, ckb_expr_loop_linear, ckb_verify_equal,      ckb_measure_vs_composed, CKB_JIT,    ckb_expr_skip_linear, NULL) \
    X(K_EXPR_TRIG_COMPOSED,   ckb_expr_setup_trig,          ckb_expr_run, ckb_expr_loop_trig,   ckb_expr_verify_ulps,  ckb_measure_vs_loop,     CKB_NO_JIT, NULL, NULL) \
    X(K_EXPR_TRIG_JIT,        ckb_expr_setup_trig_paired,   ckb_expr_run, ckb_expr_loop_trig,   ckb_expr_verify_ulps,  ckb_measure_vs_composed, CKB_JIT,    ckb_expr_skip_trig, NULL) \
    X(K_EXPR_TRIG_JIT_2THR,   ckb_expr_setup_trig_2threads, ckb_expr_run, ckb_expr_loop_trig,   ckb_expr_verify_ulps,  ckb_measure_vs_composed, CKB_JIT,    ckb_expr_skip_trig_2threads, NULL) \
    X(K_EXPR_WHERE_COMPOSED,  ckb_expr_setup_where,         ckb_expr_run, ckb_expr_loop_where,  ckb_verify_equal,      ckb_measure_vs_loop,     CKB_NO_JIT, NULL, NULL) \
    X(K_EXPR_WHERE_JIT,       ckb_expr_setup_where_paired,  ckb_expr_run, ckb_expr_loop_where,  ckb_verify_equal,      ckb_measure_vs_composed, CKB_JIT,    ckb_expr_skip_where, NULL) \
    X(K_EXPR_GAUSS_COMPOSED,  ckb_expr_setup_gauss,         ckb_expr_run, ckb_expr_loop_gauss,  ckb_expr_verify_ulps,  ckb_measure_vs_loop,     CKB_NO_JIT, NULL, NULL) \
    X(K_EXPR_GAUSS_JIT,       ckb_expr_setup_gauss_paired,  ckb_expr_run, ckb_expr_loop_gauss,  ckb_expr_verify_ulps,  ckb_measure_vs_composed, CKB_JIT,    ckb_expr_skip_gauss, NULL) \
    X(K_EXPR_LOGIC_COMPOSED,  ckb_expr_setup_logic,         ckb_expr_run, ckb_expr_loop_logic,  ckb_verify_equal,      ckb_measure_vs_loop,     CKB_NO_JIT, NULL, NULL) \
    X(K_EXPR_LOGIC_JIT,       ckb_expr_setup_logic_paired,  ckb_expr_run, ckb_expr_loop_logic,  ckb_verify_equal,      ckb_measure_vs_composed, CKB_JIT,    ckb_expr_skip_logic, NULL) \
    X(K_EXPR_DOTSUM_JIT,      ckb_expr_setup_dotsum_paired, ckb_expr_run, ckb_expr_loop_dotsum, ckb_expr_verify_sum,  ckb_measure_vs_composed, CKB_JIT,    NULL,                 NULL)
/* clang-format on */

/* K_<kind>: the kind's row of kinds[] (ckb_def.kind). */
enum {
#define KIND_ENUM(k, ...) k,
    CKB_KINDS(KIND_ENUM)
#undef KIND_ENUM
};

static const ckb_kind kinds[] = {
#define KIND_ROW(k, s, r, l, v, m, e, sk, p)                                                   \
    {.setup = s, .run = r, .loop = l, .verify = v, .measure = m, .eval = e, .skip = sk,       \
     .prepare = p},
    CKB_KINDS(KIND_ROW)
#undef KIND_ROW
};

static const char incache_note[] = "16 Ki elements (in cache), calls batched per sample";

/* The workloads, in the order they run and print (scripts parse the names and notes).
 * Unsuffixed names run in nocheck mode; "/fractional" in the checked default mode. */
static const ckb_def defs[] = {
    {"contig/int32->float64", K_CONTIG, 0, F64, I32, NOCHECK, F_I32, MI,
     ckb_loop_int32_float64, ""},
    {"contig/float64->int32", K_CONTIG, 0, I32, F64, NOCHECK, F_F64_INTRANGE, MI,
     ckb_loop_float64_int32_nocheck, "truncate, saturate, NaN -> 0"},
    {"contig/float64->int32/fractional", K_CONTIG, 0, I32, F64, FRACTIONAL, F_F64_INTEGRAL, MI,
     ckb_loop_float64_int32_fractional, "integral values: every element checked, none fails"},
    {"contig/float64->float32", K_CONTIG, 0, F32, F64, NOCHECK, F_F64_WIDE, MI,
     ckb_loop_float64_float32, ""},
    {"contig/float32->float16", K_CONTIG, 0, F16, F32, NOCHECK, F_F32_HALF, MI,
     ckb_loop_float32_float16, "plain loop: bit manipulation (no F16C at baseline)"},
    {"contig/float64->float64", K_CONTIG, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI,
     ckb_loop_copy_float64, ""},
    {"strided/int32->float64", K_STRIDED, 0, F64, I32, NOCHECK, F_I32, MI, NULL,
     "source stride 8 bytes (every second int32); bytes count the elements used"},
    {"2d/c-order/int32->float64", K_2D_C, 0, F64, I32, NOCHECK, F_I32,
     (size_t)ROWS_2D * COLS_2D, NULL, "1000 * 10000, both C order"},
    {"2d/transposed/int32->float64", K_2D_T, 0, F64, I32, NOCHECK, F_I32,
     (size_t)ROWS_2D * COLS_2D, NULL, "1000 * 10000, source strides swapped (4, 4000)"},
    {"var/float32->float64", K_VAR, 0, F64, F32, NOCHECK, F_F32_PLAIN, 0, NULL,
     "100000 rows, lengths 0..200 (xorshift, fixed seed); destination rows preallocated "
     "before timing, so the kernel assigns and never allocates"},
    {"flat/float32->float64", K_CONTIG, 0, F64, F32, NOCHECK, F_F32_PLAIN, 0,
     ckb_loop_float32_float64, "as many elements as var/float32->float64, flat"},
    {"pointer/float64", K_POINTER, 0, F64, F64, NOCHECK, F_F64_PLAIN, POINTER_N, NULL,
     "pointers to a shuffled permutation of 100000 float64 targets (800 KB); bytes count "
     "pointer + target + destination"},
    {"unaligned/int32->float64", K_UNALIGNED, 0, F64, I32, NOCHECK, F_I32, MI, NULL,
     "source and destination at byte offset 1"},
    {"struct/copy-identical", K_STRUCT_COPY, 0, CK_TYPE_STRUCT, CK_TYPE_STRUCT, NOCHECK,
     F_RECORDS, MI, NULL,
     "10 Mi * " CKB_REC_COPY_DS " (16 bytes, no padding) both sides: one copy_bytes leaf; "
     "plain loop: field by field over C structs"},
    {"struct/cast-fields", K_STRUCT_CAST, 0, CK_TYPE_STRUCT, CK_TYPE_STRUCT, NOCHECK,
     F_RECORDS, MI, NULL,
     "10 Mi * " CKB_REC_CAST_DST_DS " <- " CKB_REC_CAST_SRC_DS
     " by name: every field cast, order changed; plain loop: the same casts over C structs"},
    {"elementwise/add/float64/contiguous", K_ADD_CONTIG, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI,
     NULL, "built-in add through ck_make_call, 10 Mi float64 + 10 Mi float64"},
    {"elementwise/add/float64/broadcast", K_ADD_BCAST, 0, F64, F64, NOCHECK, F_F64_PLAIN,
     (size_t)ROWS_2D * COLS_2D, NULL,
     "a row (1 * 10000) + a column (1000 * 1) into 1000 * 10000; bytes count each argument "
     "once"},
    {"option/add/float64", K_ADD_OPTION, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "?float64 + ?float64 through ck_make_call, 10 Mi each, NA at every 61st element of the "
     "first and every 67th of the second (the option kernel: the NA mask, the runs of values, "
     "NaN for the NA's bits); plain loop: NA where either is, else the sum"},
    {"elementwise/add/float64/var", K_ADD_VAR, 0, F64, F64, NOCHECK, F_F64_PLAIN, 0, NULL,
     "100000 * var * float64 twice, the rows of var/float32->float64; destination rows "
     "preallocated before timing"},
    {"elementwise/add/int32+float64", K_ADD_CONTIG, 0, F64, I32, NOCHECK, F_I32, MI, NULL,
     "selects (float64, float64) -> float64: the int32 argument is cast in the same kernel "
     "(call_args: chunks through stack scratch)"},
    {"math/exp/float64", K_MATH, 0, F64, F64, NOCHECK, F_F64_PLAIN, MATH_N, NULL,
     "1 Mi in [-700, 700); plain loop: glibc's exp"},
    {"math/exp/float64/2threads", K_MATH_2THREADS, 0, F64, F64, NOCHECK, F_F64_PLAIN, MATH_N,
     NULL, "as math/exp/float64, ck_parallel_strided on 2 threads; plain loop on one"},
    {"math/sin/float64", K_MATH, 0, F64, F64, NOCHECK, F_F64_PLAIN, MATH_N, NULL,
     "1 Mi in [-100, 100); plain loop: glibc's sin"},
    {"math/cos/float64", K_MATH, 0, F64, F64, NOCHECK, F_F64_PLAIN, MATH_N, NULL,
     "1 Mi in [-100, 100); plain loop: glibc's cos"},
    {"math/log/float64", K_MATH, 0, F64, F64, NOCHECK, F_F64_PLAIN, MATH_N, NULL,
     "1 Mi in [0.001, 1e6); plain loop: glibc's log"},
    {"math/power/float64", K_MATH, 0, F64, F64, NOCHECK, F_F64_PLAIN, MATH_N, NULL,
     "1 Mi bases in [0.001, 10), exponents in [-10, 10); plain loop: glibc's pow"},
    {"math/exp/float32", K_MATH, 0, F32, F32, NOCHECK, F_F32_PLAIN, MATH_N, NULL,
     "1 Mi in [-80, 80); plain loop: glibc's expf"},
    {"math/sin/float32", K_MATH, 0, F32, F32, NOCHECK, F_F32_PLAIN, MATH_N, NULL,
     "1 Mi in [-100, 100); plain loop: glibc's sinf"},
    {"math/sqrt/float64", K_MATH, 0, F64, F64, NOCHECK, F_F64_PLAIN, MATH_N, NULL,
     "1 Mi in [0.001, 1e6); plain loop: sqrt (the instruction)"},
    {"math/floor/float64", K_MATH, 0, F64, F64, NOCHECK, F_F64_PLAIN, MATH_N, NULL,
     "1 Mi in [-1e6, 1e6); plain loop: floor"},
    {"math/isnan/float64", K_MATH, 0, CK_TYPE_BOOL, F64, NOCHECK, F_F64_PLAIN, MATH_N, NULL,
     "1 Mi in [-1e6, 1e6), every 7th NaN; bool results"},
    {"small/1", K_SMALL, 0, F64, I32, NOCHECK, F_I32, 1, NULL,
     "ck_builder_init + ck_make_assign + 1 call + ck_builder_destroy, per op"},
    {"small/10", K_SMALL, 0, F64, I32, NOCHECK, F_I32, 10, NULL,
     "ck_builder_init + ck_make_assign + 1 call + ck_builder_destroy, per op"},
    {"small/100", K_SMALL, 0, F64, I32, NOCHECK, F_I32, 100, NULL,
     "ck_builder_init + ck_make_assign + 1 call + ck_builder_destroy, per op"},
    {"build/3-level", K_BUILD, 0, F64, I32, FRACTIONAL, F_I32, (size_t)100 * 100, NULL,
     "100 * 100 * int32 -> float64: ck_builder_init + ck_make_assign + ck_builder_destroy"},
    {"select/warm", K_SELECT_WARM, 0, F64, I32, NOCHECK, F_I32, 0, NULL,
     "ck_callable_select of the built-in add for (int32, float64): a selection cache hit; "
     "elements: add's signatures"},
    {"select/cold", K_SELECT_COLD, 0, F64, I32, NOCHECK, F_I32, 0, NULL,
     "the same selection never served by the cache (a copy of add's signatures whose cache "
     "is full of other keys): every signature rated each time"},
    {"jit/small-inner/composed", K_JIT_ROWS_COMPOSED, 0, F32, I16, NOCHECK, F_I16,
     (size_t)JIT_ROWS * JIT_COLS, NULL,
     "1000000 * 3 int16 -> float32, source rows 8 bytes apart (padded), destination C order: "
     "built with CK_EVAL_NO_JIT, one leaf call per row of 3; bytes count the elements used"},
    {"jit/small-inner/jit", K_JIT_ROWS, 0, F32, I16, NOCHECK, F_I16, (size_t)JIT_ROWS * JIT_COLS,
     NULL,
     "the same, built with CK_EVAL_JIT before timing (its compile is compile_ms, not in the "
     "time); x composed: time / the CK_EVAL_NO_JIT kernel's, sampled interleaved"},
    {"jit/add-int32+float64/composed", K_JIT_ADD_COMPOSED, 0, F64, I32, NOCHECK, F_I32,
     (size_t)JIT_ROWS * JIT_COLS, NULL,
     "built-in add through ck_make_call: 1000000 * 3 int32 (rows 16 bytes apart, padded) + "
     "1000000 * 3 float64 -> float64, built with CK_EVAL_NO_JIT (one call_args leaf call per "
     "row of 3)"},
    {"jit/add-int32+float64/jit", K_JIT_ADD, 0, F64, I32, NOCHECK, F_I32,
     (size_t)JIT_ROWS * JIT_COLS, NULL,
     "the same, built with CK_EVAL_JIT before timing: the int32 -> float64 cast fused into the "
     "compiled loop (compile in compile_ms); x composed as for jit/small-inner/jit"},
    {"jit/compile/first", K_JIT_FIRST, 0, F32, I16, NOCHECK, F_I16,
     (size_t)JIT_COMPILE_ROWS * JIT_COLS, NULL,
     "the first CK_EVAL_JIT kernel build of a process: loads the plugin and libLLVM, starts "
     "LLVM and compiles a 1000 * 3 int16 -> float32 nest (rows padded); median of --repeat "
     "first builds, each but the last in a fresh fork()ed child process"},
    {"jit/compile/steady", K_JIT_STEADY, 0, F32, I16, NOCHECK, F_I16,
     (size_t)JIT_COMPILE_ROWS * JIT_COLS, NULL,
     "ck_make_assign with CK_EVAL_JIT of a nest never seen before (the source row stride "
     "changes every build), LLVM started: one compile; + ck_builder_destroy (the code retained, the oldest past 64 freed)"},
    {"jit/compile/cache-hit", K_JIT_HIT, 0, F32, I16, NOCHECK, F_I16,
     (size_t)JIT_COMPILE_ROWS * JIT_COLS, NULL,
     "ck_make_assign with CK_EVAL_JIT of a nest a live kernel holds: the JIT code cache's hit "
     "path; + ck_builder_destroy"},
    {"text/print/float64", K_TEXT_PRINT, 0, F64, F64, NOCHECK, F_F64_TEXT, TEXT_N, NULL,
     "ck_array_format of 1000000 float64 (random 53-bit significands, magnitudes 2^-60 to "
     "2^60, 1 in 1024 a nan, inf or zero) into \"[v, ...]\", shortest round-trip text; "
     "plain loop: snprintf(\"%.17g\") of each (reads back, not the shortest); verified: "
     "ckernel's text read back by strtod is the source, bit for bit"},
    {"text/parse/float64", K_TEXT_PARSE, 0, F64, F64, NOCHECK, F_F64_TEXT, TEXT_N, NULL,
     "ck_array_parse of text/print/float64's literal (ckernel's own text, about 20 bytes a "
     "value) into 1000000 * float64, its checking pass included; plain loop: strtod of each "
     "number of the same text; verified: both give the same values, bit for bit"},
    {"text/cast/U32->float64", K_TEXT_CAST, 0, F64, CK_TYPE_FIXED_STRING, NOCHECK, F_F64_TEXT,
     TEXT_CAST_N, NULL,
     "1 Mi U32 (fixed_string[32, 'utf32']) of the shortest text of text/print's values "
     "(ckernel's own float64 -> U32, as NumPy's astype writes it); plain loop: each value "
     "narrowed to chars, strtod; verified bit for bit"},
    {"text/cast/float64->U32", K_TEXT_CAST, 0, CK_TYPE_FIXED_STRING, F64, NOCHECK, F_F64_TEXT,
     TEXT_CAST_N, NULL,
     "1 Mi float64 (text/print's values) into U32, shortest round-trip text; plain loop: "
     "snprintf(\"%.17g\") widened to UTF-32 (not the shortest); verified: ckernel's text read "
     "back by strtod is the source, bit for bit"},
    {"text/cast/int64->U21", K_TEXT_CAST, 0, CK_TYPE_FIXED_STRING, I64, NOCHECK, F_I64,
     TEXT_CAST_N, NULL,
     "1 Mi int64 (any) into U21; plain loop: decimal digits by division, widened; verified "
     "byte for byte"},
    {"text/cast/U21->int64", K_TEXT_CAST, 0, I64, CK_TYPE_FIXED_STRING, NOCHECK, F_I64,
     TEXT_CAST_N, NULL,
     "1 Mi U21 of int64 text (any int64); plain loop: narrowed, strtoll; verified"},
    {"text/cast/string->float64", K_TEXT_CAST, 0, F64, CK_TYPE_STRING, NOCHECK, F_F64_TEXT,
     TEXT_CAST_N, NULL,
     "1 Mi string (UTF-8 in an arena) of the shortest text of text/print's values; plain "
     "loop: each {data, size} copied to a NUL-ended buffer, strtod; verified bit for bit"},
    {"text/cast/datetime64[s]->U32", K_TEXT_TIME, 0, CK_TYPE_FIXED_STRING, CK_TYPE_DATETIME,
     NOCHECK, F_I64, TEXT_CAST_N, NULL,
     "1 Mi datetime64[s] (seconds from 1800 to 2200, xorshift) into U32, NumPy's ISO text "
     "\"2026-11-25T20:31:42\"; plain loop: gmtime_r, snprintf, widened; verified byte for "
     "byte"},
    {"text/cast/U32->datetime64[s]", K_TEXT_TIME, 0, CK_TYPE_DATETIME, CK_TYPE_FIXED_STRING,
     NOCHECK, F_I64, TEXT_CAST_N, NULL,
     "1 Mi U32 of the ISO text of text/cast/datetime64[s]->U32's values into datetime64[s]; "
     "plain loop: narrowed, sscanf, days by the month table; verified"},
    /* issue 27 stage 3: equal on text */
    {"text/equal/string", K_TEXT_EQUAL, 0, CK_TYPE_BOOL, CK_TYPE_STRING, NOCHECK, F_I64,
     TEXT_CAST_N, NULL,
     "equal(string, string) -> bool through ck_make_call: 1 Mi pairs of decimal strings of 1 "
     "to 12 characters (half equal; the others differ in the last digit or the length); "
     "plain loop: sizes then memcmp"},
    {"reduce/sum/float64", K_RED_SUM, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "sum of 10 Mi float64 (pairwise, fixed association); plain loop: a running sum (other "
     "rounding: verified within 2^-40 of the sum of magnitudes)"},
    {"reduce/min/float64", K_RED_MIN, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "min of 10 Mi float64; plain loop: NaN-propagating running minimum"},
    {"reduce/sum/float64/axis0", K_RED_AXIS0, 0, F64, F64, NOCHECK, F_F64_PLAIN,
     (size_t)ROWS_2D * COLS_2D, NULL,
     "1000 * 10000 C order over axis 0: each row added into the 10000 results; plain loop: "
     "the same row after row"},
    {"reduce/sum/float64/var", K_RED_VAR, 0, F64, F32, NOCHECK, F_F32_PLAIN, 0, NULL,
     "the rows of var/float32->float64, each summed into a float64 (100000 results); plain "
     "loop: a running sum per row (other rounding: verified within a bound)"},
    {"accumulate/cumsum/float64", K_ACC_CUMSUM, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "cumsum of 10 Mi float64 (in order, NumPy's operations); plain loop: the running sum "
     "written out"},
    {"call/dot/float64", K_DOT, 0, F64, F64, NOCHECK, F_F64_PLAIN, (size_t)ROWS_2D * ROWS_2D,
     NULL, "dot of two 1000 * 1000 * float64 row by row (core dimensions: 1000 results); "
           "plain loop: a running sum of the products per row (other rounding: verified "
           "within a bound)"},
    {"expr/fma3/composed", K_EXPR_FMA3_COMPOSED, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "a * b + c, 10 Mi float64 each, one ck_make_expr kernel built with CK_EVAL_NO_JIT (chunks "
     "of 1024 through stack scratch); plain loop: the product, then the sum (no FMA)"},
    {"expr/fma3/jit", K_EXPR_FMA3_JIT, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "the same built with CK_EVAL_JIT (compile in compile_ms); x composed: time / the "
     "CK_EVAL_NO_JIT kernel's, sampled interleaved"},
    {"expr/poly/jit", K_EXPR_POLY_JIT, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "((a * x + b) * x + c) * x + d, x 10 Mi float64, a..d float64 scalars (0-d), built with "
     "CK_EVAL_JIT; x composed as for expr/fma3/jit"},
    {"expr/mixed/composed", K_EXPR_MIXED, 0, F64, I32, NOCHECK, F_I32, MI, NULL,
     "i32 * f64 + f32 over 10 Mi int32, float64 and float32: the int32 and float32 arguments "
     "cast to float64 in the kernel, CK_EVAL_NO_JIT"},
    {"expr/var/composed", K_EXPR_VAR, 0, F64, F64, NOCHECK, F_F64_PLAIN, 0, NULL,
     "a * x + b over three 100000 * var * float64, the rows of var/float32->float64, "
     "CK_EVAL_NO_JIT; destination rows preallocated before timing"},
    /* issue 41: numexpr's language */
    {"expr/linear/composed", K_EXPR_LINEAR_COMPOSED, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI,
     NULL, "2*a + 3*b, 10 Mi float64 each, CK_EVAL_NO_JIT (the literals int64 typed by value: "
           "float64 beside the arrays); plain loop: 2.0 * a, 3.0 * b, the sum"},
    {"expr/linear/jit", K_EXPR_LINEAR_JIT, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "the same built with CK_EVAL_JIT; x composed as for expr/fma3/jit"},
    {"expr/trig/composed", K_EXPR_TRIG_COMPOSED, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "sin(a)**2 + cos(b)**2, 10 Mi float64 each uniform in [-100, 100), CK_EVAL_NO_JIT (**2 "
     "as square); plain loop: the C library's sin and cos, squared, summed (verified within 4 "
     "ULP)"},
    {"expr/trig/jit", K_EXPR_TRIG_JIT, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "the same built with CK_EVAL_JIT; x composed as for expr/fma3/jit"},
    {"expr/trig/jit/2threads", K_EXPR_TRIG_JIT_2THR, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI,
     NULL, "the same through ck_parallel_expr on 2 threads with CK_EVAL_JIT (the kernels "
           "built in each timed call); x composed: the same call with CK_EVAL_NO_JIT"},
    {"expr/where/composed", K_EXPR_WHERE_COMPOSED, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI,
     NULL, "where(a > b, a, b), 10 Mi float64 each, CK_EVAL_NO_JIT; plain loop: a > b ? a : b"},
    {"expr/where/jit", K_EXPR_WHERE_JIT, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "the same built with CK_EVAL_JIT; x composed as for expr/fma3/jit"},
    {"expr/gauss/composed", K_EXPR_GAUSS_COMPOSED, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI,
     NULL, "exp(-a*a/2) * c, 10 Mi float64 each uniform in [-10, 10), CK_EVAL_NO_JIT; plain "
           "loop: the C library's exp (verified within 4 ULP)"},
    {"expr/gauss/jit", K_EXPR_GAUSS_JIT, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "the same built with CK_EVAL_JIT; x composed as for expr/fma3/jit"},
    {"expr/logic/composed", K_EXPR_LOGIC_COMPOSED, 0, CK_TYPE_BOOL, F64, NOCHECK, F_F64_PLAIN,
     MI, NULL, "(a < 0.5) & (b > 0) | (c > 0.9), 10 Mi float64 each uniform in [-1, 1), into "
               "bool, CK_EVAL_NO_JIT; plain loop: the same comparisons as 0 or 1 bytes"},
    {"expr/logic/jit", K_EXPR_LOGIC_JIT, 0, CK_TYPE_BOOL, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "the same built with CK_EVAL_JIT; x composed as for expr/fma3/jit"},
    {"expr/dotsum/jit", K_EXPR_DOTSUM_JIT, 0, F64, F64, NOCHECK, F_F64_PLAIN, MI, NULL,
     "sum(a * b), 10 Mi float64 each, into a 0-d float64 through ck_expr_eval with CK_EVAL_JIT "
     "(a reduction at the root: no temporary; kernels built in each timed call; a sum of two "
     "sources' products is the dot leaf, compiled or not); x composed: the same call with "
     "CK_EVAL_NO_JIT; plain loop: a running sum of the products (verified "
     "within 2^-40 of the sum of magnitudes)"},
    {"incache/int32->float64", K_CONTIG, 1, F64, I32, NOCHECK, F_I32, INCACHE,
     ckb_loop_int32_float64, incache_note},
    {"incache/int64->float64", K_CONTIG, 1, F64, I64, NOCHECK, F_I64, INCACHE,
     ckb_loop_int64_float64, incache_note},
    {"incache/float64->int32", K_CONTIG, 1, I32, F64, NOCHECK, F_F64_INTRANGE, INCACHE,
     ckb_loop_float64_int32_nocheck, incache_note},
    {"incache/float64->int32/fractional", K_CONTIG, 1, I32, F64, FRACTIONAL, F_F64_INTEGRAL,
     INCACHE, ckb_loop_float64_int32_fractional, incache_note},
    {"incache/float64->float32", K_CONTIG, 1, F32, F64, NOCHECK, F_F64_WIDE, INCACHE,
     ckb_loop_float64_float32, incache_note},
    {"incache/float32->float64", K_CONTIG, 1, F64, F32, NOCHECK, F_F32_PLAIN, INCACHE,
     ckb_loop_float32_float64, incache_note},
    {"incache/float32->float16", K_CONTIG, 1, F16, F32, NOCHECK, F_F32_HALF, INCACHE,
     ckb_loop_float32_float16, incache_note},
    {"incache/float16->float32", K_CONTIG, 1, F32, F16, NOCHECK, F_F16_BITS, INCACHE,
     ckb_loop_float16_float32, incache_note},
    {"incache/float64->float64", K_CONTIG, 1, F64, F64, NOCHECK, F_F64_PLAIN, INCACHE,
     ckb_loop_copy_float64, incache_note},
    {"incache/int32->int32", K_CONTIG, 1, I32, I32, NOCHECK, F_I32, INCACHE,
     ckb_loop_copy_int32, incache_note},
};
#define NDEFS (sizeof defs / sizeof defs[0])

size_t ckb_workload_count(void) {
    return NDEFS;
}
const char *ckb_workload_name(size_t i) {
    return i < NDEFS ? defs[i].name : NULL;
}
int ckb_workload_per_target(size_t i) {
    return i < NDEFS ? defs[i].per_target : 0;
}

int ckb_workload_threaded(size_t i) {
    /* Compute-bound (float32 -> float16, checked float64 -> int32) and memory-bound (a cast
     * and a copy at memory speed) contiguous workloads: issue 8's 1 vs 2 threads; the
     * reductions, dot, and expr/fma3/composed through ck_parallel_expr (not the jit cases:
     * the split of one dimension leaves the JIT no nest to compile, docs/design.md §15). */
    static const char *const threaded[] = {"contig/float32->float16",
                                           "contig/float64->int32/fractional",
                                           "contig/int32->float64", "contig/float64->float64",
                                           "reduce/sum/float64", "reduce/min/float64",
                                           "reduce/sum/float64/axis0",
                                           "reduce/sum/float64/var", "call/dot/float64",
                                           "expr/fma3/composed"};
    for (size_t k = 0; i < NDEFS && k < sizeof threaded / sizeof threaded[0]; k++) {
        if (strcmp(defs[i].name, threaded[k]) == 0) {
            return 1;
        }
    }
    return 0;
}

int ckb_workload_needs_jit(size_t i) {
    return i < NDEFS && kinds[defs[i].kind].eval == CKB_JIT;
}

int ckb_workload_skip(size_t i, char *why, size_t why_size) {
    if (i >= NDEFS || kinds[defs[i].kind].eval != CKB_JIT) {
        return 0;
    }
    ck_jit_info info;
    ck_jit_get_info(&info);
    if (!info.available) {
        snprintf(why, why_size, "JIT: %s", info.status);
        return 1;
    }
    const ckb_kind *k = &kinds[defs[i].kind];
    return k->skip != NULL ? k->skip(&defs[i], why, why_size) : 0;
}

void ckb_prepare(const char *filter, const ckb_settings *s) {
    for (size_t i = 0; i < NDEFS; i++) {
        const ckb_def *d = &defs[i];
        if (kinds[d->kind].prepare != NULL && (filter == NULL || strstr(d->name, filter) != NULL)) {
            kinds[d->kind].prepare(d, s);
        }
    }
}

int ckb_wl_setup(ckb_wl *w, const ckb_def *d, int threads) {
    memset(w, 0, sizeof *w);
    w->def = d;
    w->kind = &kinds[d->kind];
    ck_builder_init(&w->b);
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    w->ctx = init;
    w->ctx.errmode = d->mode;
    if (w->kind->eval != CKB_PLAIN) {
        w->ctx.flags |= w->kind->eval == CKB_JIT ? CK_EVAL_JIT : CK_EVAL_NO_JIT;
    }
    w->n = d->n != 0 ? d->n : ckb_var_lengths(NULL);
    w->threads = threads;
    w->compile_ms = -1.0;
    if (w->kind->eval == CKB_JIT) {
        ck_jit_trim(); /* an earlier run's code kept for later builds: compile_ms is a compile */
    }
    return w->kind->setup(w);
}

int ckb_workload_verify(size_t i, int *equal, char *msg, size_t msg_size) {
    *equal = 0;
    if (i >= NDEFS) {
        return ck_set_error(CK_ERR_INVALID, "bench: no workload %zu", i);
    }
    ckb_wl w;
    int rc = ckb_wl_setup(&w, &defs[i], 0);
    if (rc == CK_OK) {
        rc = w.kind->verify(&w, equal, msg, msg_size);
    }
    ckb_wl_free(&w);
    return rc;
}

int ckb_workload_run(size_t i, const ckb_settings *s, ckb_result *out) {
    memset(out, 0, sizeof *out);
    if (i >= NDEFS) {
        return ck_set_error(CK_ERR_INVALID, "bench: no workload %zu", i);
    }
    const ckb_def *d = &defs[i];
    const ckb_kind *k = &kinds[d->kind];
    snprintf(out->workload, sizeof out->workload, "%s", d->name);
    snprintf(out->target, sizeof out->target, "%s", ck_cpu_target_name(ck_cpu_best_target()));
    out->threads = s->threads;
    out->errmode = ck_errmode_name(d->mode);
    out->note = d->note;
    out->gb_per_s = out->ratio_memcpy = out->ratio_loop = -1.0;
    out->memcpy_gb_per_s = out->loop_ns = out->heap_allocs = -1.0;
    out->spread = 0.0;
    out->ratio_composed = out->compile_ms = -1.0;
    char why[256];
    if (k->prepare != NULL) {
        k->prepare(d, s); /* nothing when ckb_prepare did it */
    }
    if (ckb_workload_skip(i, why, sizeof why)) {
        return ck_set_error(CK_ERR_UNSUPPORTED, "bench: %s: %s", d->name, why);
    }
    if (s->threads > 1 && !ckb_workload_threaded(i)) {
        return ck_set_error(CK_ERR_INVALID, "bench: %s has no parallel run", d->name);
    }
    ckb_wl w;
    int rc = ckb_wl_setup(&w, d, s->threads > 1 ? s->threads : 0);
    if (rc == CK_OK) {
        out->elements = (uint64_t)w.n;
        rc = k->measure(&w, s, out);
    }
    if (rc == CK_OK) {
        rc = k->verify(&w, &out->verified, NULL, 0);
    }
    ckb_wl_free(&w);
    return rc;
}
