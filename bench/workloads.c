/* bench/workloads.c: the workloads of `ckernel bench` (issue 7). Each one owns its buffers
 * (allocated once, page-faulted in and filled before anything is timed), builds its kernel
 * through the public API (ck_make_assign, or ck_make_call of the built-in `add` for the
 * elementwise/add/... workloads, with arrmeta constructed here), and is measured against two
 * baselines in the same run: memcpy of the same number of destination bytes, and the plain C
 * loop of bench/baselines.c doing the same conversion or addition. After timing, the
 * kernel's output is compared bit for bit with the plain loop's. The struct/... workloads
 * assign arrays of records (structs, types from ck_type_parse) against a plain loop over the
 * same records as C structs (bench/baselines.h); struct/copy-identical must build to one
 * copy_bytes leaf under its dimension (checked when it is built). The select/... workloads
 * time ck_callable_select alone, per operation (as build/3-level times a build), and check
 * the signature it selects. The jit/... workloads (ckernel/jit.h) time each case twice, the
 * kernel built with CK_EVAL_NO_JIT (composed) and with CK_EVAL_JIT (compiled before timing;
 * its compile time and its ratio to the composed kernel are reported beside it), and time
 * JIT kernel builds (jit/compile/...); without a JIT those that need it are skipped.
 * The expr/... workloads (ckernel/expr.h) time one expression kernel (ck_make_expr) over 10 Mi
 * elements per argument, or the var rows, against one plain loop doing the same operations
 * in the same order; expr/<case>/jit is built with CK_EVAL_JIT and skipped, with the JIT's
 * own reason, when the JIT does not compile it.
 * The text/... workloads time number text through the literals: ck_array_format of a
 * million float64 values (text/print/float64) and ck_array_parse of that text
 * (text/parse/float64), against the C library's snprintf("%.17g") and strtod. The
 * text/cast/... workloads time the text cast kernel (ck_make_assign) between numbers and
 * NumPy's U (fixed_string[N, 'utf32']) or string over 1 Mi values, against plain loops of
 * strtod, strtoll, snprintf("%.17g") and a decimal loop over the same buffers;
 * text/cast/datetime64[s]->U32 and back against gmtime_r with snprintf and sscanf with a day
 * count (bench/baselines_time.c).
 *
 * Source data comes from a fixed-seed xorshift generator and exercises the semantics the
 * loops must match: NaN, infinities, overflow, subnormals, values that round. */
#define _POSIX_C_SOURCE 200809L /* fork, pipe, waitpid: jit/compile/first */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "baselines.h"
#include "bench.h"

#define MI ((size_t)10 * 1024 * 1024) /* the issue's "10 Mi elements" */
#define INCACHE ((size_t)16 * 1024)
#define ROWS_2D 1000
#define COLS_2D 10000
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
#define TEXT_N 1000000 /* text/...: the issue's "a million values" */
#define TEXT_CAST_N ((size_t)1024 * 1024) /* text/cast/...: issue 27's "1 Mi values" */
/* text/print/...: the bytes of its destination and reference, the room its plain loop has
 * for the "%.17g" text of n values (at most 24 characters each, ", " between them). */
#define TEXT_PRINT_BYTES(n) (32 * (n) + 64)

typedef enum wl_kind {
    K_CONTIG,     /* N * S -> N * D, both contiguous */
    K_STRIDED,    /* source every second element */
    K_2D_C,       /* ROWS_2D * COLS_2D, both C order */
    K_2D_T,       /* the same, source strides swapped */
    K_VAR,        /* VAR_ROWS * var * S -> VAR_ROWS * var * D */
    K_POINTER,    /* POINTER_N * pointer[float64] -> POINTER_N * float64 */
    K_UNALIGNED,  /* contiguous, both at byte offset 1 */
    K_SMALL,      /* build + run + destroy of N * int32 -> N * float64 */
    K_BUILD,      /* build (+ destroy) of 100 * 100 * int32 -> float64 */
    /* N records -> N records, both contiguous; element types and source fills in
     * struct_defs, the plain loops' C structs in baselines.h. */
    K_STRUCT_COPY, /* the same struct both sides: one copy_bytes leaf */
    K_STRUCT_CAST, /* by name, every field cast, the fields in another order */
    /* The built-in `add` through ck_make_call; the first argument is `src`, the second is
     * always float64, the result `dst`. */
    K_ADD_CONTIG, /* N * src + N * float64 -> N * dst */
    K_ADD_BCAST,  /* 1 * COLS_2D + ROWS_2D * 1 -> ROWS_2D * COLS_2D (float64) */
    K_ADD_VAR,    /* VAR_ROWS * var + VAR_ROWS * var -> VAR_ROWS * var (float64) */
    K_ADD_OPTION, /* N * ?float64 + N * ?float64 -> N * ?float64, NA in each (option_na) */
    /* ck_callable_select of `add` for (src, float64), per operation. */
    K_SELECT_WARM, /* the built-in add: a hit in its selection cache */
    K_SELECT_COLD, /* add's signatures, never served by the cache (see setup_select) */
    /* The JIT (ckernel/jit.h), each case twice: the kernel built with CK_EVAL_NO_JIT
     * (composed) and with CK_EVAL_JIT (compiled, before timing). */
    K_JIT_ROWS_COMPOSED, /* JIT_ROWS * JIT_COLS int16 -> float32, source rows padded */
    K_JIT_ROWS,
    K_JIT_ADD_COMPOSED, /* add: JIT_ROWS * JIT_COLS int32 (rows padded) + float64 */
    K_JIT_ADD,
    /* Builds of a JIT_COMPILE_ROWS * JIT_COLS K_JIT_ROWS nest, per operation. */
    K_JIT_FIRST,  /* the first compile of the process (ckb_prepare) */
    K_JIT_STEADY, /* a nest never seen before: a compile every time */
    K_JIT_HIT,    /* a nest a live kernel holds: a cache hit */
    /* Number text, TEXT_N float64 values: ck_array_format of an array over the source, and
     * ck_array_parse of the literal it gives. */
    K_TEXT_PRINT,
    K_TEXT_PARSE,
    /* A number <-> text cast through ck_make_assign: the text side is U32 with float64 and
     * U21 with int64 (fixed_string[N, 'utf32'], NumPy's U), or string. */
    K_TEXT_CAST,
    /* datetime64[s] <-> U32 through ck_make_assign (setup_text_time). */
    K_TEXT_TIME,
    /* text/equal/string: the built-in `equal` through ck_make_call on two TEXT_CAST_N *
     * string arrays of short strings, into bool. */
    K_TEXT_EQUAL,
    /* Reductions (ck_make_reduce) and accumulations (ck_make_accumulate) of float64, and a
     * call of the core-dimension callable dot (not built: reported as skipped). */
    K_RED_SUM,    /* sum of N * float64 -> float64 */
    K_RED_MIN,    /* min of N * float64 -> float64 */
    K_RED_AXIS0,  /* sum over axis 0 of ROWS_2D * COLS_2D -> COLS_2D */
    K_RED_VAR,    /* sum of each row of VAR_ROWS * var * float32 -> VAR_ROWS * float64 */
    K_ACC_CUMSUM, /* cumsum of N * float64 -> N * float64 */
    K_DOT,
    /* Expressions through ck_make_expr (expr_defs: the text and the arguments), float64
     * results; the composed ones built with CK_EVAL_NO_JIT, the jit ones with CK_EVAL_JIT. */
    K_EXPR_FMA3_COMPOSED, /* a * b + c over N * float64 each */
    K_EXPR_FMA3_JIT,
    K_EXPR_POLY_JIT,      /* ((a * x + b) * x + c) * x + d: x N * float64, a..d scalars */
    K_EXPR_MIXED,         /* i32 * f64 + f32 over N * int32, N * float64, N * float32 */
    K_EXPR_VAR            /* a * x + b over VAR_ROWS * var * float64 each */
} wl_kind;

typedef enum wl_fill {
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
    F_RECORDS       /* struct/...: field by field, per struct_defs (fill_records) */
} wl_fill;

typedef struct wl_def {
    const char *name;
    wl_kind kind;
    int per_target;
    ck_type_id dst, src;
    ck_errmode mode;
    wl_fill fill;
    size_t n; /* elements; 0 for "as many as the var workload" */
    ckb_loop_fn loop;
    const char *note;
} wl_def;

#define I16 CK_TYPE_INT16
#define I32 CK_TYPE_INT32
#define I64 CK_TYPE_INT64
#define F16 CK_TYPE_FLOAT16
#define F32 CK_TYPE_FLOAT32
#define F64 CK_TYPE_FLOAT64
#define NOCHECK CK_ERRMODE_NOCHECK
#define FRACTIONAL CK_ERRMODE_FRACTIONAL

static const char incache_note[] = "16 Ki elements (in cache), calls batched per sample";

/* Unsuffixed names run in nocheck mode; "/fractional" in the checked default mode. */
static const wl_def defs[] = {
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
     "changes every build), LLVM started: one compile; + ck_builder_destroy (frees the code)"},
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

/* ---- data ---- */

static uint64_t rng_next(uint64_t *s) {
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}
/* [0, 1) with 53 random bits. */
static double rng_unit(uint64_t *s) {
    return (double)(rng_next(s) >> 11) * 0x1p-53;
}

/* Row lengths 0..VAR_MAX_LEN from the fixed seed; returns their sum. */
static size_t var_lengths(size_t *lens) {
    uint64_t s = SEED ^ 0x5bd1e995u;
    size_t total = 0;
    for (size_t r = 0; r < VAR_ROWS; r++) {
        size_t len = (size_t)(rng_next(&s) % (VAR_MAX_LEN + 1));
        if (lens != NULL) {
            lens[r] = len;
        }
        total += len;
    }
    return total;
}

/* Special values every so often, for the fills that must exercise the semantics. */
static int special_double(size_t i, double *v) {
    switch (i % 1024) {
    case 7: *v = NAN; return 1;
    case 13: *v = INFINITY; return 1;
    case 17: *v = -INFINITY; return 1;
    case 19: *v = 0.0; return 1;
    case 23: *v = -0.0; return 1;
    default: return 0;
    }
}

/* Fills n elements at p (any alignment) of type `id` per `fill`. */
static void fill_data(char *p, size_t n, ck_type_id id, wl_fill fill, uint64_t seed) {
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        const uint64_t u = rng_next(&s);
        double v = 0;
        switch (fill) {
        case F_I16: {
            int16_t x = (int16_t)(uint16_t)(u >> 48);
            memcpy(p + i * sizeof x, &x, sizeof x);
            continue;
        }
        case F_I32: {
            int32_t x = (int32_t)(uint32_t)(u >> 32);
            memcpy(p + i * sizeof x, &x, sizeof x);
            continue;
        }
        case F_I64: {
            int64_t x = (int64_t)u;
            memcpy(p + i * sizeof x, &x, sizeof x);
            continue;
        }
        case F_F16_BITS: {
            uint16_t x = (uint16_t)(u >> 48);
            memcpy(p + i * sizeof x, &x, sizeof x);
            continue;
        }
        case F_RECORDS: /* not a scalar fill: fill_records fills each field */
            continue;
        case F_F64_INTRANGE:
            if (!special_double(i, &v)) {
                v = (rng_unit(&s) * 2.0 - 1.0) * 3e9; /* ~30% outside the int32 range */
            }
            break;
        case F_F64_INTEGRAL:
            v = (double)(int32_t)(uint32_t)(u >> 32);
            break;
        case F_F64_WIDE:
            if (!special_double(i, &v)) {
                int e = (int)(u % 320) - 160; /* float32: overflow, subnormal, zero */
                v = ldexp(1.0 + rng_unit(&s), e) * ((u >> 40) & 1 ? -1.0 : 1.0);
            }
            break;
        case F_F64_PLAIN:
            v = (rng_unit(&s) * 2.0 - 1.0) * 1e6;
            break;
        case F_F32_HALF:
            if (!special_double(i, &v)) {
                int e = (int)(u % 48) - 28; /* float16: overflow, subnormal, zero */
                v = ldexp(1.0 + rng_unit(&s), e) * ((u >> 40) & 1 ? -1.0 : 1.0);
            }
            break;
        case F_F32_PLAIN:
            v = (rng_unit(&s) * 2.0 - 1.0) * 1e6;
            break;
        case F_F64_TEXT:
            if (!special_double(i, &v)) {
                int e = (int)(u % 121) - 60; /* fixed layout, and exponents both ways */
                v = ldexp(1.0 + rng_unit(&s), e) * ((u >> 40) & 1 ? -1.0 : 1.0);
            }
            break;
        }
        if (id == CK_TYPE_FLOAT32) {
            float f = (float)v;
            memcpy(p + i * sizeof f, &f, sizeof f);
        } else {
            memcpy(p + i * sizeof v, &v, sizeof v);
        }
    }
}

/* ---- expressions ---- */

#define EXPR_ARGS 5

/* expr/...: the text and each argument's scalar type, in the order of ck_expr_arg_name (its
 * first appearance); a scalar argument is 0-d with the value given, the others arrays of the
 * workload's shape filled from their own seeds. */
typedef struct wl_expr_def {
    const char *text;
    int nargs;
    ck_type_id type[EXPR_ARGS];
    int scalar[EXPR_ARGS];
    double value[EXPR_ARGS];
} wl_expr_def;

static const wl_expr_def expr_fma3 = {"a * b + c", 3, {F64, F64, F64}, {0, 0, 0}, {0}};
static const wl_expr_def expr_poly = {"((a * x + b) * x + c) * x + d", 5,
                                      {F64, F64, F64, F64, F64}, {1, 0, 1, 1, 1},
                                      {0.5, 0, -1.25, 3.0, 0.75}};
static const wl_expr_def expr_mixed = {"i32 * f64 + f32", 3, {I32, F64, F32}, {0, 0, 0}, {0}};
static const wl_expr_def expr_var = {"a * x + b", 3, {F64, F64, F64}, {0, 0, 0}, {0}};

/* The expression of an expr/... kind, NULL for the others. */
static const wl_expr_def *expr_def(wl_kind k) {
    switch (k) {
    case K_EXPR_FMA3_COMPOSED:
    case K_EXPR_FMA3_JIT: return &expr_fma3;
    case K_EXPR_POLY_JIT: return &expr_poly;
    case K_EXPR_MIXED: return &expr_mixed;
    case K_EXPR_VAR: return &expr_var;
    default: return NULL;
    }
}
static int expr_jit_kind(wl_kind k) {
    return k == K_EXPR_FMA3_JIT || k == K_EXPR_POLY_JIT;
}

/* ---- the state of one workload ---- */

typedef struct wl {
    const wl_def *def;
    size_t n; /* elements per operation */
    ck_type *dt, *st;
    char *dam, *sam;
    ck_memblock *arena;
    ck_eval_ctx ctx;
    ck_builder b;
    int built;
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
} wl;

static int is_jit_kind(wl_kind k) {
    return k >= K_JIT_ROWS_COMPOSED && k <= K_JIT_HIT;
}
/* Kernels built with CK_EVAL_JIT (all the jit kinds but the composed ones, and the
 * expr/<case>/jit ones). */
static int jit_compiled_kind(wl_kind k) {
    return (is_jit_kind(k) && k != K_JIT_ROWS_COMPOSED && k != K_JIT_ADD_COMPOSED) ||
           expr_jit_kind(k);
}
/* Timed alongside their CK_EVAL_NO_JIT kernel (ratio_composed). */
static int jit_pair_kind(wl_kind k) {
    return k == K_JIT_ROWS || k == K_JIT_ADD || expr_jit_kind(k);
}
static int jit_compile_kind(wl_kind k) {
    return k == K_JIT_FIRST || k == K_JIT_STEADY || k == K_JIT_HIT;
}
static int text_kind(wl_kind k) {
    return k == K_TEXT_PRINT || k == K_TEXT_PARSE;
}
static int add_kind(wl_kind k) {
    return k == K_ADD_CONTIG || k == K_ADD_BCAST || k == K_ADD_VAR || k == K_ADD_OPTION ||
           k == K_JIT_ADD_COMPOSED ||
           k == K_JIT_ADD || k == K_DOT || k == K_TEXT_EQUAL;
}

static size_t scalar_size(ck_type_id id) {
    return ck_type_data_size(ck_type_scalar(id));
}

/* 64-byte aligned, page-faulted (zeroed) memory; NULL on failure. Large buffers get the
 * transparent-huge-page advice a host such as NumPy gives its arrays (ck_advise_hugepages,
 * before the first touch), so the figures are what a host's buffers get. */
static char *alloc_buffer(size_t bytes) {
    size_t rounded = (bytes + 64) / 64 * 64; /* room for a byte offset, never 0 */
    char *p = (char *)aligned_alloc(64, rounded);
    if (p != NULL) {
        ck_advise_hugepages(p, rounded);
        memset(p, 0, rounded);
    }
    return p;
}

/* dims (outer first) over the scalar `id`; *out is NULL on failure. */
static int make_type(const intptr_t *dims, int ndims, int var_inner, int pointer_inner,
                     ck_type_id id, ck_type **out) {
    ck_type *t = NULL;
    const ck_type *cur = ck_type_scalar(id);
    int rc = CK_OK;
    *out = NULL;
    if (pointer_inner) {
        rc = ck_type_make_pointer(cur, &t);
        cur = t;
    }
    if (rc == CK_OK && var_inner) {
        ck_type *v = NULL;
        rc = ck_type_make_var_dim(cur, &v);
        ck_type_decref(t);
        t = v;
        cur = t;
    }
    for (int d = ndims - 1; rc == CK_OK && d >= 0; d--) {
        ck_type *f = NULL;
        rc = ck_type_make_fixed_dim(dims[d], cur, &f);
        ck_type_decref(t);
        t = f;
        cur = t;
    }
    if (rc != CK_OK) {
        ck_type_decref(t);
        return rc;
    }
    *out = t;
    return CK_OK;
}

static int make_arrmeta(const ck_type *t, ck_memblock *blockref, char **out) {
    size_t n = ck_type_arrmeta_size(t);
    *out = (char *)calloc(n != 0 ? n : 1, 1);
    if (*out == NULL) {
        return ck_set_error(CK_ERR_NOMEM, "bench: cannot allocate %zu bytes of arrmeta", n);
    }
    return ck_arrmeta_default_construct(t, *out, blockref);
}

static void wl_free(wl *w) {
    ck_builder_destroy(&w->b);
    if (w->cbuilt) {
        ck_builder_destroy(&w->cb);
    }
    if (w->pbuilt) {
        ck_builder_destroy(&w->pb);
    }
    if (w->dam != NULL) ck_arrmeta_release(w->dt, w->dam);
    if (w->sam != NULL) ck_arrmeta_release(w->st, w->sam);
    free(w->dam);
    free(w->sam);
    ck_type_decref(w->dt);
    ck_type_decref(w->st);
    ck_memblock_decref(w->arena);
    free(w->src_buf);
    free(w->dst_buf);
    free(w->ref_buf);
    free(w->aux_buf);
    free(w->src_rows);
    free(w->dst_rows);
    free(w->ref_rows);
    if (w->sam2 != NULL) ck_arrmeta_release(w->st2, w->sam2);
    free(w->sam2);
    ck_type_decref(w->st2);
    free(w->src2_buf);
    free(w->src2_rows);
    ck_callable_decref(w->callable);
    ck_callable_decref(w->red);
    ck_array_free(w->src_array);
    ck_array_free(w->src2_array);
    ck_array_free(w->dst_array);
    for (int k = 0; k < EXPR_ARGS; k++) {
        ck_array_free(w->xarrays[k]);
    }
    ck_array_free(w->text_array);
    ck_free(w->text);
    for (int k = 0; k < w->nx; k++) {
        if (w->xam[k] != NULL) ck_arrmeta_release(w->xt[k], w->xam[k]);
        free(w->xam[k]);
        ck_type_decref(w->xt[k]);
        free(w->xbuf[k]);
        free(w->xrows[k]);
    }
    ck_expr_decref(w->expr);
    memset(w, 0, sizeof *w);
}

static int nomem(const char *what) {
    return ck_set_error(CK_ERR_NOMEM, "bench: cannot allocate the %s", what);
}

/* Builds the workload's kernel at the current CPU target (not for small/build: they build
 * inside the timed operation). */
static int red_kind(wl_kind k) {
    return k == K_RED_SUM || k == K_RED_MIN || k == K_RED_AXIS0 || k == K_RED_VAR ||
           k == K_ACC_CUMSUM;
}

static int build_into(wl *w, ck_builder *b, const ck_eval_ctx *ctx) {
    ck_builder_init(b);
    size_t off = 0;
    if (w->red != NULL) { /* reduce/..., accumulate/... */
        const ck_reduce_spec r = {w->red, w->axes, w->naxes, 0};
        return w->def->kind == K_ACC_CUMSUM
                   ? ck_make_accumulate(b, &off, &r, w->dt, w->dam, w->st, w->sam,
                                        CK_REQUEST_SINGLE, ctx)
                   : ck_make_reduce(b, &off, &r, w->dt, w->dam, w->st, w->sam,
                                    CK_REQUEST_SINGLE, ctx);
    }
    if (w->expr != NULL) { /* expr/... */
        return ck_make_expr(b, &off, w->expr, w->dt, w->dam, w->nx, NULL,
                            (const ck_type *const *)w->xt, (const char *const *)w->xam,
                            CK_REQUEST_SINGLE, ctx);
    }
    if (w->callable != NULL) { /* elementwise/add/..., jit/add-... */
        const ck_type *const st[2] = {w->st, w->st2};
        const char *const sam[2] = {w->sam, w->sam2};
        return ck_make_call(b, &off, w->callable, w->dt, w->dam, 2, st, sam, CK_REQUEST_SINGLE,
                            ctx);
    }
    return ck_make_assign(b, &off, w->dt, w->dam, w->st, w->sam, CK_REQUEST_SINGLE, ctx);
}

/* After a CK_EVAL_JIT build: the kernel must really be compiled code (a compile, or a cache
 * hit when `hit_ok`), or the jit figures would time the composed kernel under a jit name. */
static int check_jit_used(const wl *w, int hit_ok) {
    const char *d = ck_jit_last_decision();
    if (strncmp(d, "compiled", 8) == 0 || (hit_ok && strncmp(d, "cache hit", 9) == 0)) {
        return CK_OK;
    }
    return ck_set_error(CK_ERR_INTERNAL, "bench: %s: the JIT did not %s the nest: %s",
                        w->def->name, hit_ok ? "provide" : "compile", d);
}

static int build_kernel(wl *w) {
    int rc;
    if (jit_compiled_kind(w->def->kind)) {
        ck_jit_info before, after;
        ck_jit_get_info(&before);
        rc = build_into(w, &w->b, &w->ctx);
        ck_jit_get_info(&after);
        w->built = rc == CK_OK;
        if (rc == CK_OK) rc = check_jit_used(w, 1);
        w->compile_ms =
            after.compiles == before.compiles + 1 ? after.compile_ms - before.compile_ms : -1.0;
        return rc;
    }
    rc = build_into(w, &w->b, &w->ctx);
    w->built = rc == CK_OK;
    return rc;
}

/* Contiguous-style buffers: src n elements of `s_elems_per` * size, dst and ref n. */
static int alloc_plain(wl *w, size_t src_elems, size_t offset) {
    const wl_def *d = w->def;
    const size_t ss = scalar_size(d->src), ds = scalar_size(d->dst);
    w->src_buf = alloc_buffer(src_elems * ss + offset);
    w->dst_buf = alloc_buffer(w->n * ds + offset);
    w->ref_buf = alloc_buffer(w->n * ds + offset);
    if (w->src_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return nomem("data buffers");
    }
    w->ksrc = w->src_buf + offset;
    w->kdst = w->dst_buf + offset;
    w->dst_elems = w->kdst;
    w->ref_elems = w->ref_buf + offset;
    w->dst_bytes = w->n * ds;
    w->bytes_moved = (double)(w->n * (ss + ds));
    fill_data(w->ksrc, src_elems, d->src, d->fill, SEED);
    return CK_OK;
}

static int setup_var(wl *w) {
    const size_t rows = VAR_ROWS;
    size_t *lens = (size_t *)malloc(rows * sizeof *lens);
    if (lens == NULL) {
        return nomem("row lengths");
    }
    w->n = var_lengths(lens);
    const size_t ss = scalar_size(w->def->src), ds = scalar_size(w->def->dst);
    w->src_buf = alloc_buffer(w->n * ss);
    w->dst_buf = alloc_buffer(w->n * ds);
    w->ref_buf = alloc_buffer(w->n * ds);
    w->src_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    w->dst_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    w->ref_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    if (w->src_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL || w->src_rows == NULL ||
        w->dst_rows == NULL || w->ref_rows == NULL) {
        free(lens);
        return nomem("var rows");
    }
    /* Rows one after another in buffers owned here; the destination rows are allocated
     * (begin != NULL, size set), so the kernel only assigns. */
    size_t at = 0;
    for (size_t r = 0; r < rows; r++) {
        w->src_rows[r].begin = w->src_buf + at * ss;
        w->dst_rows[r].begin = w->dst_buf + at * ds;
        w->ref_rows[r].begin = w->ref_buf + at * ds;
        w->src_rows[r].size = w->dst_rows[r].size = w->ref_rows[r].size = lens[r];
        at += lens[r];
    }
    free(lens);
    fill_data(w->src_buf, w->n, w->def->src, w->def->fill, SEED);
    w->ksrc = (char *)w->src_rows;
    w->kdst = (char *)w->dst_rows;
    w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = w->n * ds;
    w->bytes_moved = (double)(w->n * (ss + ds) + 2 * rows * sizeof(ck_var_data));
    /* The arrmeta's blockref is an arena, as for any var array (unused: rows are set). */
    int rc = ck_arena_new(0, &w->arena);
    const intptr_t dims[1] = {(intptr_t)rows};
    if (rc == CK_OK) rc = make_type(dims, 1, 1, 0, w->def->dst, &w->dt);
    if (rc == CK_OK) rc = make_type(dims, 1, 1, 0, w->def->src, &w->st);
    if (rc == CK_OK) rc = make_arrmeta(w->dt, w->arena, &w->dam);
    if (rc == CK_OK) rc = make_arrmeta(w->st, w->arena, &w->sam);
    return rc;
}

/* reduce/..., accumulate/...: the source (plain, 2-d, or the var workload's rows), a small
 * destination, the callable and the arrays ck_parallel_reduce takes. */
static int setup_reduce(wl *w) {
    const wl_def *d = w->def;
    const wl_kind k = d->kind;
    int rc;
    if (k == K_RED_VAR) {
        rc = setup_var(w); /* the rows; its var destination is replaced below */
        if (rc != CK_OK) {
            return rc;
        }
        free(w->dst_buf);
        free(w->ref_buf);
        if (w->dam != NULL) ck_arrmeta_release(w->dt, w->dam);
        free(w->dam);
        w->dam = NULL;
        ck_type_decref(w->dt);
        w->dt = NULL;
        w->dst_buf = alloc_buffer(VAR_ROWS * sizeof(double));
        w->ref_buf = alloc_buffer(VAR_ROWS * sizeof(double));
        if (w->dst_buf == NULL || w->ref_buf == NULL) {
            return nomem("sums");
        }
        w->kdst = w->dst_elems = w->dst_buf;
        w->ref_elems = w->ref_buf;
        w->dst_bytes = VAR_ROWS * sizeof(double);
        w->bytes_moved = (double)(w->n * sizeof(float) + VAR_ROWS * (sizeof(ck_var_data) + 8));
        const intptr_t rows[1] = {VAR_ROWS};
        rc = make_type(rows, 1, 0, 0, F64, &w->dt);
        if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
        w->axes[0] = 1;
        w->naxes = 1;
    } else {
        const int two = k == K_RED_AXIS0;
        const size_t dn = k == K_ACC_CUMSUM ? w->n : two ? COLS_2D : 1;
        w->src_buf = alloc_buffer(w->n * sizeof(double));
        w->dst_buf = alloc_buffer(dn * sizeof(double));
        w->ref_buf = alloc_buffer(dn * sizeof(double));
        if (w->src_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
            return nomem("data buffers");
        }
        fill_data(w->src_buf, w->n, F64, d->fill, SEED);
        w->ksrc = w->src_buf;
        w->kdst = w->dst_elems = w->dst_buf;
        w->ref_elems = w->ref_buf;
        w->dst_bytes = dn * sizeof(double);
        w->bytes_moved = (double)((w->n + dn) * sizeof(double));
        const intptr_t sdims[2] = {two ? ROWS_2D : (intptr_t)w->n, COLS_2D};
        const intptr_t ddims[1] = {(intptr_t)dn};
        rc = make_type(sdims, two ? 2 : 1, 0, 0, F64, &w->st);
        if (rc == CK_OK && dn > 1) {
            rc = make_type(ddims, 1, 0, 0, F64, &w->dt);
        } else if (rc == CK_OK) {
            w->dt = (ck_type *)(uintptr_t)ck_type_scalar(F64); /* static: decref is a no-op */
        }
        if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
        if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
        w->axes[0] = 0;
        w->naxes = 1;
    }
    if (rc == CK_OK) {
        rc = k == K_ACC_CUMSUM ? ck_accumulation_lookup("cumsum", &w->red)
                               : ck_reduction_lookup(k == K_RED_MIN ? "min" : "sum", &w->red);
    }
    if (rc == CK_OK) rc = ck_array_wrap(w->st, w->sam, w->ksrc, NULL, &w->src_array);
    if (rc == CK_OK) rc = ck_array_wrap(w->dt, w->dam, w->kdst, NULL, &w->dst_array);
    return rc;
}

/* call/dot/float64: two ROWS_2D * ROWS_2D * float64 in C order, dot of each pair of rows. */
static int setup_dot(wl *w) {
    const size_t rows = ROWS_2D;
    w->src_buf = alloc_buffer(w->n * sizeof(double));
    w->src2_buf = alloc_buffer(w->n * sizeof(double));
    w->dst_buf = alloc_buffer(rows * sizeof(double));
    w->ref_buf = alloc_buffer(rows * sizeof(double));
    if (w->src_buf == NULL || w->src2_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return nomem("data buffers");
    }
    fill_data(w->src_buf, w->n, F64, w->def->fill, SEED);
    fill_data(w->src2_buf, w->n, F64, w->def->fill, SEED ^ 0x2545f4914f6cdd1du);
    w->kargs[0] = w->src_buf;
    w->kargs[1] = w->src2_buf;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = rows * sizeof(double);
    w->bytes_moved = (double)((2 * w->n + rows) * sizeof(double));
    const intptr_t sdims[2] = {ROWS_2D, ROWS_2D}, ddims[1] = {ROWS_2D};
    int rc = make_type(sdims, 2, 0, 0, F64, &w->st);
    if (rc == CK_OK) rc = make_type(sdims, 2, 0, 0, F64, &w->st2);
    if (rc == CK_OK) rc = make_type(ddims, 1, 0, 0, F64, &w->dt);
    if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
    if (rc == CK_OK) rc = make_arrmeta(w->st2, NULL, &w->sam2);
    if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = ck_lookup("dot", &w->callable);
    if (rc == CK_OK) rc = ck_array_wrap(w->st, w->sam, w->src_buf, NULL, &w->src_array);
    if (rc == CK_OK) rc = ck_array_wrap(w->st2, w->sam2, w->src2_buf, NULL, &w->src2_array);
    if (rc == CK_OK) rc = ck_array_wrap(w->dt, w->dam, w->dst_buf, NULL, &w->dst_array);
    return rc;
}

static int setup_pointer(wl *w) {
    const size_t n = w->n;
    w->aux_buf = alloc_buffer(n * sizeof(double)); /* the targets */
    w->src_buf = alloc_buffer(n * sizeof(char *));
    w->dst_buf = alloc_buffer(n * sizeof(double));
    w->ref_buf = alloc_buffer(n * sizeof(double));
    size_t *perm = (size_t *)malloc(n * sizeof *perm);
    if (w->aux_buf == NULL || w->src_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL ||
        perm == NULL) {
        free(perm);
        return nomem("pointer buffers");
    }
    fill_data(w->aux_buf, n, CK_TYPE_FLOAT64, w->def->fill, SEED);
    uint64_t s = SEED ^ 0xabcdefu;
    for (size_t i = 0; i < n; i++) {
        perm[i] = i;
    }
    for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
        size_t j = (size_t)(rng_next(&s) % (i + 1));
        size_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < n; i++) {
        char *p = w->aux_buf + perm[i] * sizeof(double);
        memcpy(w->src_buf + i * sizeof p, &p, sizeof p);
    }
    free(perm);
    w->ksrc = w->src_buf;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = n * sizeof(double);
    w->bytes_moved = (double)(n * (sizeof(char *) + 2 * sizeof(double)));
    const intptr_t dims[1] = {(intptr_t)n};
    int rc = make_type(dims, 1, 0, 0, CK_TYPE_FLOAT64, &w->dt);
    if (rc == CK_OK) rc = make_type(dims, 1, 0, 1, CK_TYPE_FLOAT64, &w->st);
    /* blockref NULL: the targets are memory this arrmeta does not own. */
    if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
    return rc;
}

/* The elementwise/add workloads other than var: contiguous (N * src + N * float64) and
 * broadcast (a row 1 * COLS_2D + a column ROWS_2D * 1 into ROWS_2D * COLS_2D). */
/* n * ?id. */
static int make_option_type(size_t n, ck_type_id id, ck_type **out) {
    ck_type *o = NULL;
    int rc = ck_type_make_option(ck_type_scalar(id), &o);
    if (rc == CK_OK) rc = ck_type_make_fixed_dim((intptr_t)n, o, out);
    ck_type_decref(o);
    return rc;
}

/* NA over every `every`-th float64 of p (from element every / 2). */
static void option_na(char *p, size_t n, size_t every) {
    const void *na = ck_option_na_bytes(ck_type_scalar(CK_TYPE_FLOAT64));
    for (size_t i = every / 2; i < n; i += every) {
        memcpy(p + i * sizeof(double), na, sizeof(double));
    }
}

static int setup_add(wl *w) {
    const wl_def *d = w->def;
    const int bcast = d->kind == K_ADD_BCAST;
    const size_t n1 = bcast ? COLS_2D : w->n, n2 = bcast ? ROWS_2D : w->n;
    const size_t ss = scalar_size(d->src), ds = scalar_size(d->dst);
    w->src_buf = alloc_buffer(n1 * ss);
    w->src2_buf = alloc_buffer(n2 * sizeof(double));
    w->dst_buf = alloc_buffer(w->n * ds);
    w->ref_buf = alloc_buffer(w->n * ds);
    if (w->src_buf == NULL || w->src2_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return nomem("data buffers");
    }
    fill_data(w->src_buf, n1, d->src, d->fill, SEED);
    fill_data(w->src2_buf, n2, CK_TYPE_FLOAT64, F_F64_PLAIN, SEED ^ 0x2545f4914f6cdd1du);
    w->kargs[0] = w->src_buf;
    w->kargs[1] = w->src2_buf;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = w->n * ds;
    w->bytes_moved = (double)(n1 * ss + n2 * sizeof(double) + w->n * ds);
    int rc;
    if (bcast) {
        const intptr_t dd[2] = {ROWS_2D, COLS_2D}, d1[2] = {1, COLS_2D}, d2[2] = {ROWS_2D, 1};
        rc = make_type(dd, 2, 0, 0, d->dst, &w->dt);
        if (rc == CK_OK) rc = make_type(d1, 2, 0, 0, d->src, &w->st);
        if (rc == CK_OK) rc = make_type(d2, 2, 0, 0, CK_TYPE_FLOAT64, &w->st2);
    } else if (d->kind == K_ADD_OPTION) {
        option_na(w->src_buf, w->n, 61);
        option_na(w->src2_buf, w->n, 67);
        rc = make_option_type(w->n, d->dst, &w->dt);
        if (rc == CK_OK) rc = make_option_type(w->n, d->src, &w->st);
        if (rc == CK_OK) rc = make_option_type(w->n, CK_TYPE_FLOAT64, &w->st2);
    } else {
        const intptr_t dims[1] = {(intptr_t)w->n};
        rc = make_type(dims, 1, 0, 0, d->dst, &w->dt);
        if (rc == CK_OK) rc = make_type(dims, 1, 0, 0, d->src, &w->st);
        if (rc == CK_OK) rc = make_type(dims, 1, 0, 0, CK_TYPE_FLOAT64, &w->st2);
    }
    if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
    if (rc == CK_OK) rc = make_arrmeta(w->st2, NULL, &w->sam2);
    return rc;
}

/* elementwise/add/float64/var: VAR_ROWS * var * float64 + the same shape, the row lengths of
 * the var workload, every row laid out one after another; destination rows preallocated. */
static int setup_add_var(wl *w) {
    const size_t rows = VAR_ROWS;
    size_t *lens = (size_t *)malloc(rows * sizeof *lens);
    if (lens == NULL) {
        return nomem("row lengths");
    }
    w->n = var_lengths(lens);
    const size_t es = sizeof(double);
    w->src_buf = alloc_buffer(w->n * es);
    w->src2_buf = alloc_buffer(w->n * es);
    w->dst_buf = alloc_buffer(w->n * es);
    w->ref_buf = alloc_buffer(w->n * es);
    w->src_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    w->src2_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    w->dst_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    w->ref_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    if (w->src_buf == NULL || w->src2_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL ||
        w->src_rows == NULL || w->src2_rows == NULL || w->dst_rows == NULL ||
        w->ref_rows == NULL) {
        free(lens);
        return nomem("var rows");
    }
    size_t at = 0;
    for (size_t r = 0; r < rows; r++) {
        w->src_rows[r].begin = w->src_buf + at * es;
        w->src2_rows[r].begin = w->src2_buf + at * es;
        w->dst_rows[r].begin = w->dst_buf + at * es;
        w->ref_rows[r].begin = w->ref_buf + at * es;
        w->src_rows[r].size = w->src2_rows[r].size = lens[r];
        w->dst_rows[r].size = w->ref_rows[r].size = lens[r];
        at += lens[r];
    }
    free(lens);
    fill_data(w->src_buf, w->n, CK_TYPE_FLOAT64, F_F64_PLAIN, SEED);
    fill_data(w->src2_buf, w->n, CK_TYPE_FLOAT64, F_F64_PLAIN, SEED ^ 0x2545f4914f6cdd1du);
    w->kargs[0] = (char *)w->src_rows;
    w->kargs[1] = (char *)w->src2_rows;
    w->kdst = (char *)w->dst_rows;
    w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = w->n * es;
    w->bytes_moved = (double)(3 * w->n * es + 3 * rows * sizeof(ck_var_data));
    int rc = ck_arena_new(0, &w->arena);
    const intptr_t dims[1] = {(intptr_t)rows};
    if (rc == CK_OK) rc = make_type(dims, 1, 1, 0, CK_TYPE_FLOAT64, &w->dt);
    if (rc == CK_OK) rc = make_type(dims, 1, 1, 0, CK_TYPE_FLOAT64, &w->st);
    if (rc == CK_OK) rc = make_type(dims, 1, 1, 0, CK_TYPE_FLOAT64, &w->st2);
    if (rc == CK_OK) rc = make_arrmeta(w->dt, w->arena, &w->dam);
    if (rc == CK_OK) rc = make_arrmeta(w->st, w->arena, &w->sam);
    if (rc == CK_OK) rc = make_arrmeta(w->st2, w->arena, &w->sam2);
    return rc;
}

/* text/print/float64 and text/parse/float64: TEXT_N float64 values in src_buf, an array over
 * them, and their literal as ckernel prints it (kept for both, with its length). print: its
 * loop writes "%.17g" text (longer) into dst or ref, and memcpy copies as many bytes as
 * ckernel's text has. parse: destination and reference are TEXT_N doubles. */
static int setup_text(wl *w) {
    const size_t n = w->n;
    w->src_buf = alloc_buffer(n * sizeof(double));
    if (w->src_buf == NULL) {
        return nomem("source values");
    }
    fill_data(w->src_buf, n, CK_TYPE_FLOAT64, w->def->fill, SEED);
    const intptr_t dims[1] = {(intptr_t)n};
    int rc = make_type(dims, 1, 0, 0, CK_TYPE_FLOAT64, &w->st);
    if (rc == CK_OK) rc = ck_array_wrap(w->st, NULL, w->src_buf, NULL, &w->text_array);
    if (rc == CK_OK) rc = ck_array_format(w->text_array, &w->text);
    if (rc != CK_OK) {
        return rc;
    }
    w->text_len = strlen(w->text);
    w->ksrc = w->src_buf;
    const size_t out_bytes =
        w->def->kind == K_TEXT_PRINT ? TEXT_PRINT_BYTES(n) : n * sizeof(double);
    w->dst_buf = alloc_buffer(out_bytes);
    w->ref_buf = alloc_buffer(out_bytes);
    if (w->dst_buf == NULL || w->ref_buf == NULL) {
        return nomem("text buffers");
    }
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->bytes_moved = (double)(w->text_len + n * sizeof(double));
    w->dst_bytes = w->def->kind == K_TEXT_PRINT ? w->text_len : n * sizeof(double);
    return CK_OK;
}

/* text/cast/...: the number side's values in aux_buf (numbers -> text: also the source);
 * the text side n * fixed_string[units, 'utf32'] over a buffer of ours, or n * string
 * (ck_array_new, so its bytes have an arena; as the source, its text is written before
 * timing by ckernel's own number -> text cast, which is what NumPy's astype(U) gives). */
static size_t text_cast_units(ck_type_id number) {
    return number == CK_TYPE_FLOAT64 ? 32 : 21;
}

static int text_cast_type(ck_type_id id, ck_type_id number, size_t n, ck_type **out) {
    ck_type *el = NULL;
    int rc = CK_OK;
    const ck_type *e = id == CK_TYPE_STRING ? ck_type_string() : ck_type_scalar(id);
    if (id == CK_TYPE_FIXED_STRING) {
        rc = ck_type_make_fixed_string((intptr_t)text_cast_units(number), CK_ENCODING_UTF32,
                                       &el);
        e = el;
    }
    if (rc == CK_OK) rc = ck_type_make_fixed_dim((intptr_t)n, e, out);
    ck_type_decref(el);
    return rc;
}

static int setup_text_cast(wl *w) {
    const wl_def *d = w->def;
    const size_t n = w->n;
    const int into_text = d->dst == CK_TYPE_FIXED_STRING || d->dst == CK_TYPE_STRING;
    const ck_type_id number = into_text ? d->src : d->dst;
    const ck_type_id text = into_text ? d->dst : d->src;
    const size_t text_bytes = text == CK_TYPE_STRING ? n * sizeof(ck_string_data)
                                                      : n * 4 * text_cast_units(number);
    w->aux_buf = alloc_buffer(n * 8);
    if (w->aux_buf == NULL) {
        return nomem("number values");
    }
    fill_data(w->aux_buf, n, number, d->fill, SEED);
    int rc = text_cast_type(d->dst, number, n, &w->dt);
    if (rc == CK_OK) rc = text_cast_type(d->src, number, n, &w->st);
    if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
    if (rc != CK_OK) {
        return rc;
    }
    const size_t dst_bytes = into_text ? text_bytes : n * 8;
    w->dst_buf = alloc_buffer(dst_bytes);
    w->ref_buf = alloc_buffer(dst_bytes);
    if (w->dst_buf == NULL || w->ref_buf == NULL) {
        return nomem("text cast buffers");
    }
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = dst_bytes;
    if (into_text) {
        w->ksrc = w->aux_buf;
        w->bytes_moved = (double)(n * 8 + text_bytes);
        return CK_OK;
    }
    /* The source text, by ckernel's number -> text cast (setup, not timed). */
    ck_array *numbers = NULL;
    const intptr_t dims[1] = {(intptr_t)n};
    ck_type *nt = NULL;
    rc = make_type(dims, 1, 0, 0, number, &nt);
    if (rc == CK_OK) rc = ck_array_wrap(nt, NULL, w->aux_buf, NULL, &numbers);
    if (rc == CK_OK && text == CK_TYPE_STRING) {
        rc = ck_array_new(w->st, &w->src_array);
    } else if (rc == CK_OK) {
        w->src_buf = alloc_buffer(text_bytes);
        rc = w->src_buf == NULL ? nomem("source text")
                                : ck_array_wrap(w->st, NULL, w->src_buf, NULL, &w->src_array);
    }
    if (rc == CK_OK) rc = ck_assign(w->src_array, numbers, NULL);
    ck_array_free(numbers);
    ck_type_decref(nt);
    if (rc != CK_OK) {
        return rc;
    }
    w->ksrc = ck_array_data(w->src_array);
    double moved = (double)(n * 8 + text_bytes);
    if (text == CK_TYPE_STRING) { /* the bytes behind the slots are read too */
        const ck_string_data *sd = (const ck_string_data *)(const void *)w->ksrc;
        for (size_t i = 0; i < n; i++) {
            moved += (double)sd[i].size;
        }
    }
    w->bytes_moved = moved;
    return CK_OK;
}

/* text/cast/datetime64[s]<->U32: seconds from 1800-01-01 to 2200-01-01 (400 years) in
 * aux_buf; the text side n * U32 (fixed_string[32, 'utf32']), as the source written before
 * timing by the plain loop (NumPy's astype("U32") text). */
#define TEXT_TIME_UNITS 32
static int setup_text_time(wl *w) {
    const size_t n = w->n, text_bytes = n * 4 * TEXT_TIME_UNITS;
    const int into_text = w->def->dst == CK_TYPE_FIXED_STRING;
    w->aux_buf = alloc_buffer(n * 8);
    if (w->aux_buf == NULL) {
        return nomem("datetime values");
    }
    int64_t *v = (int64_t *)(void *)w->aux_buf;
    uint64_t seed = SEED;
    const int64_t from = INT64_C(-5364662400), span = INT64_C(146097) * 86400;
    for (size_t i = 0; i < n; i++) {
        v[i] = from + (int64_t)(rng_next(&seed) % (uint64_t)span);
    }
    ck_type *u = NULL, *text = NULL, *time = NULL;
    int rc = ck_type_make_fixed_string(TEXT_TIME_UNITS, CK_ENCODING_UTF32, &u);
    if (rc == CK_OK) rc = ck_type_make_fixed_dim((intptr_t)n, u, &text);
    if (rc == CK_OK) rc = ck_type_make_fixed_dim((intptr_t)n, ck_type_datetime(CK_UNIT_s), &time);
    ck_type_decref(u);
    w->dt = into_text ? text : time;
    w->st = into_text ? time : text;
    if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
    if (rc != CK_OK) {
        return rc;
    }
    w->dst_bytes = into_text ? text_bytes : n * 8;
    w->dst_buf = alloc_buffer(w->dst_bytes);
    w->ref_buf = alloc_buffer(w->dst_bytes);
    if (w->dst_buf == NULL || w->ref_buf == NULL) {
        return nomem("datetime text buffers");
    }
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->bytes_moved = (double)(n * 8 + text_bytes);
    if (into_text) {
        w->ksrc = w->aux_buf;
        return CK_OK;
    }
    w->src_buf = alloc_buffer(text_bytes);
    if (w->src_buf == NULL) {
        return nomem("datetime source text");
    }
    w->ksrc = w->src_buf;
    return ckb_loop_datetime_s_u32((uint32_t *)(void *)w->src_buf, TEXT_TIME_UNITS, v, n) == 0
               ? CK_OK
               : ck_set_error(CK_ERR_INTERNAL, "bench: the datetime source text");
}

/* text/equal/string: two n * string arrays (ck_array_new, their bytes in their own arenas)
 * of the decimal text of int64 values of 1 to 12 digits, written before timing by ckernel's
 * int64 -> string cast; the second equals the first at about half the elements and
 * differs elsewhere in the last digit (same length) or in length. */
static int text_equal_strings(wl *w, size_t n, uint64_t seed, const int64_t *like,
                              int64_t *vals, ck_array **out) {
    uint64_t r = seed;
    for (size_t i = 0; i < n; i++) {
        const uint64_t u = rng_next(&r);
        if (like == NULL) {
            int64_t m = 10;
            for (unsigned d = (unsigned)(u % 12); d > 0; d--) {
                m *= 10;
            }
            vals[i] = (int64_t)((u >> 8) % (uint64_t)m);
        } else {
            vals[i] = (u & 3) < 2 ? like[i] : (u & 3) == 2 ? like[i] ^ 1 : like[i] * 10 + 1;
        }
    }
    const intptr_t dims[1] = {(intptr_t)n};
    ck_type *it = NULL;
    ck_array *ints = NULL;
    int rc = make_type(dims, 1, 0, 0, CK_TYPE_INT64, &it);
    if (rc == CK_OK) rc = ck_array_wrap(it, NULL, (char *)vals, NULL, &ints);
    if (rc == CK_OK) rc = ck_array_new(w->st, out);
    if (rc == CK_OK) rc = ck_assign(*out, ints, NULL);
    ck_array_free(ints);
    ck_type_decref(it);
    return rc;
}

static int setup_text_equal(wl *w) {
    const size_t n = w->n;
    w->aux_buf = alloc_buffer(2 * n * sizeof(int64_t));
    w->dst_buf = alloc_buffer(n);
    w->ref_buf = alloc_buffer(n);
    if (w->aux_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return nomem("text/equal buffers");
    }
    int64_t *v1 = (int64_t *)(void *)w->aux_buf, *v2 = v1 + n;
    const intptr_t dims[1] = {(intptr_t)n};
    int rc = ck_type_make_fixed_dim((intptr_t)n, ck_type_string(), &w->st);
    if (rc == CK_OK) rc = ck_type_make_fixed_dim((intptr_t)n, ck_type_string(), &w->st2);
    if (rc == CK_OK) rc = make_type(dims, 1, 0, 0, CK_TYPE_BOOL, &w->dt);
    if (rc == CK_OK) rc = text_equal_strings(w, n, SEED, NULL, v1, &w->src_array);
    if (rc == CK_OK) rc = text_equal_strings(w, n, SEED ^ 0x51ed270b27u, v1, v2, &w->src2_array);
    /* Readers need no arena: arrmeta without blockrefs. */
    if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
    if (rc == CK_OK) rc = make_arrmeta(w->st2, NULL, &w->sam2);
    if (rc != CK_OK) {
        return rc;
    }
    w->kargs[0] = ck_array_data(w->src_array);
    w->kargs[1] = ck_array_data(w->src2_array);
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = n;
    double moved = (double)(2 * n * sizeof(ck_string_data) + n);
    for (int k = 0; k < 2; k++) { /* the bytes behind the slots are read too */
        const ck_string_data *sd = (const ck_string_data *)(const void *)w->kargs[k];
        for (size_t i = 0; i < n; i++) {
            moved += (double)sd[i].size;
        }
    }
    w->bytes_moved = moved;
    return CK_OK;
}

/* text/equal/string's plain loop: equal sizes and bytes. */
static int text_equal_loop(unsigned char *out, const ck_string_data *a, const ck_string_data *b,
                           size_t n) {
    for (size_t i = 0; i < n; i++) {
        out[i] = a[i].size == b[i].size &&
                 (a[i].size == 0 || memcmp(a[i].data, b[i].data, a[i].size) == 0);
    }
    return 0;
}

/* A factory that is never instantiated: select/cold's callable only selects. */
static int no_instantiate(void *data, ck_builder *ckb, size_t *offset,
                          const ck_leaf_info *info) {
    (void)data;
    (void)ckb;
    (void)offset;
    return ck_set_error(CK_ERR_INTERNAL, "bench: %s is for selection only", info->name);
}

/* Keys select/cold selects before timing so that its callable's cache is full: at least
 * twice the keys one cache table holds (CK__CACHE_MAX, 32, in src/callables/callable.c). */
#define SELECT_COLD_MIN_FILL 64

/* select/warm and select/cold. The selection is add's for (int32, float64): 14 signatures,
 * "(float64, float64) -> float64" chosen with one safe conversion; *expected is its index in
 * the sorted signature list (ck_callable_select's contract), found by text here.
 *
 * warm: the built-in add itself, warmed before timing: the cache-hit path (build key,
 * probe, copy the entry out).
 *
 * cold: what a first selection costs, repeatably. A fresh callable per operation cannot be
 * separated from its setup (14 ck_callable_add, each a copy-on-write snapshot and a sort),
 * and the built-in add's own cache is process-wide state the other workloads use. So a
 * private, unregistered callable gets a copy of add's signatures (read from add, so it
 * follows add), then every other key that selects successfully, (a, b) for every scalar a
 * and b, with and without CK_EVAL_ALLOW_UNSAFE, is selected once: far more keys than a cache
 * table holds, so the table is full and stays full, and the timed key ((int32, float64),
 * safe only), left out of the fill, is never cached. Each timed call then does what a first
 * selection does: build the key, miss in the table, rate every signature (ck__select, with
 * the conversion-kind table), rank them, and go to cache the result (the callable's mutex,
 * the table found full). The one part of a real first selection it leaves out is publishing
 * a new cache table (a calloc of one table and a copy of its slots), paid once per key. */
static int setup_select(wl *w) {
    w->sel_args[0] = w->def->src;
    w->sel_args[1] = CK_TYPE_FLOAT64;
    ck_callable *add = NULL;
    char *sigs = NULL;
    int rc = ck_lookup("add", &add);
    if (rc == CK_OK) rc = ck_callable_signatures(add, &sigs);
    if (rc != CK_OK) {
        ck_callable_decref(add);
        return rc;
    }
    /* One signature a line, sorted: the expected index is the wanted line's number. */
    static const char want[] = "(float64, float64) -> float64";
    w->sel_expected = -1;
    int nsig = 0;
    for (const char *line = sigs; *line != '\0'; nsig++) {
        const size_t len = strcspn(line, "\n");
        if (len == sizeof want - 1 && memcmp(line, want, len) == 0) {
            w->sel_expected = nsig;
        }
        line += len + (line[len] == '\n');
    }
    w->n = (size_t)nsig;
    if (w->def->kind == K_SELECT_WARM) {
        ck_free(sigs);
        w->callable = add;
        int index;
        return ck_callable_select(add, 2, w->sel_args, &w->ctx, &index, NULL);
    }
    ck_callable_decref(add);
    rc = ck_callable_new("ckb_add_uncached", &w->callable);
    for (char *line = sigs; rc == CK_OK && *line != '\0';) {
        const size_t len = strcspn(line, "\n");
        const char keep = line[len];
        line[len] = '\0';
        const ck_factory f = {no_instantiate, NULL, NULL, NULL};
        rc = ck_callable_add(w->callable, line, &f);
        line[len] = keep;
        line += len + (keep == '\n');
    }
    ck_free(sigs);
    int filled = 0;
    for (int unsafe = 0; rc == CK_OK && unsafe < 2; unsafe++) {
        ck_eval_ctx c = w->ctx;
        c.flags = unsafe ? c.flags | CK_EVAL_ALLOW_UNSAFE : c.flags & ~CK_EVAL_ALLOW_UNSAFE;
        for (int a = 0; a < CK_NUM_SCALAR_TYPES; a++) {
            for (int b = 0; b < CK_NUM_SCALAR_TYPES; b++) {
                const ck_type_id args[2] = {(ck_type_id)a, (ck_type_id)b};
                if (!unsafe && args[0] == w->sel_args[0] && args[1] == w->sel_args[1]) {
                    continue; /* the timed key */
                }
                int index;
                filled += ck_callable_select(w->callable, 2, args, &c, &index, NULL) == CK_OK;
            }
        }
    }
    ck_clear_error(); /* pairs that match nothing, or several */
    if (rc == CK_OK && filled < SELECT_COLD_MIN_FILL) {
        rc = ck_set_error(CK_ERR_INTERNAL,
                          "bench: select/cold filled the cache with %d keys, fewer than %d",
                          filled, SELECT_COLD_MIN_FILL);
    }
    return rc;
}

/* jit/small-inner/... and jit/compile/...: rows * JIT_COLS int16 -> float32, the source
 * rows JIT_I16_ROW elements apart, the destination C order. */
static int setup_jit_rows(wl *w, size_t rows) {
    w->n = rows * JIT_COLS;
    int rc = alloc_plain(w, rows * JIT_I16_ROW, 0);
    const intptr_t dims[2] = {(intptr_t)rows, JIT_COLS};
    if (rc == CK_OK) rc = make_type(dims, 2, 0, 0, w->def->dst, &w->dt);
    if (rc == CK_OK) rc = make_type(dims, 2, 0, 0, w->def->src, &w->st);
    if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
    if (rc == CK_OK) {
        ck_fixed_dim_arrmeta *m = (ck_fixed_dim_arrmeta *)(void *)w->sam;
        m[0].stride = JIT_I16_ROW * (intptr_t)scalar_size(w->def->src);
    }
    return rc;
}

/* jit/add-int32+float64/...: JIT_ROWS * JIT_COLS int32 whose rows are JIT_I32_ROW elements
 * apart, plus JIT_ROWS * JIT_COLS float64 (C order), into float64 (C order). */
static int setup_jit_add(wl *w) {
    const size_t rows = JIT_ROWS, cols = JIT_COLS;
    w->n = rows * cols;
    w->src_buf = alloc_buffer(rows * JIT_I32_ROW * sizeof(int32_t));
    w->src2_buf = alloc_buffer(w->n * sizeof(double));
    w->dst_buf = alloc_buffer(w->n * sizeof(double));
    w->ref_buf = alloc_buffer(w->n * sizeof(double));
    if (w->src_buf == NULL || w->src2_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return nomem("data buffers");
    }
    fill_data(w->src_buf, rows * JIT_I32_ROW, CK_TYPE_INT32, F_I32, SEED);
    fill_data(w->src2_buf, w->n, CK_TYPE_FLOAT64, F_F64_PLAIN, SEED ^ 0x2545f4914f6cdd1du);
    w->kargs[0] = w->src_buf;
    w->kargs[1] = w->src2_buf;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = w->n * sizeof(double);
    w->bytes_moved = (double)(w->n * (sizeof(int32_t) + 2 * sizeof(double)));
    const intptr_t dims[2] = {(intptr_t)rows, (intptr_t)cols};
    int rc = make_type(dims, 2, 0, 0, CK_TYPE_FLOAT64, &w->dt);
    if (rc == CK_OK) rc = make_type(dims, 2, 0, 0, CK_TYPE_INT32, &w->st);
    if (rc == CK_OK) rc = make_type(dims, 2, 0, 0, CK_TYPE_FLOAT64, &w->st2);
    if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
    if (rc == CK_OK) rc = make_arrmeta(w->st2, NULL, &w->sam2);
    if (rc == CK_OK) {
        ck_fixed_dim_arrmeta *m = (ck_fixed_dim_arrmeta *)(void *)w->sam;
        m[0].stride = JIT_I32_ROW * (intptr_t)sizeof(int32_t);
    }
    if (rc == CK_OK) rc = ck_lookup("add", &w->callable);
    return rc;
}

/* struct/...: each workload's element datashapes (destination, source) and the fill of each
 * source field, in the source's field order. */
typedef struct wl_struct_def {
    wl_kind kind;
    const char *dst, *src;
    wl_fill fills[3];
} wl_struct_def;

static const wl_struct_def struct_defs[] = {
    /* NaN, inf and zeros of both signs in z: a copy keeps every bit. */
    {K_STRUCT_COPY, CKB_REC_COPY_DS, CKB_REC_COPY_DS, {F_I32, F_I32, F_F64_WIDE}},
    /* c: float64 -> float32 rounds, overflows to inf, flushes to subnormals and zeros. */
    {K_STRUCT_CAST, CKB_REC_CAST_DST_DS, CKB_REC_CAST_SRC_DS, {F_F64_WIDE, F_I16, F_I32}},
};

/* Each field of the records at p filled as the contiguous workloads fill its scalar type
 * (fill_data into a column, from the field's own seed), then scattered to the field's
 * offset in every record. */
static int fill_records(char *p, size_t n, const ck_type *rec, const wl_fill *fills) {
    char *col = (char *)malloc(n * sizeof(double)); /* the widest field */
    if (col == NULL) {
        return nomem("field column");
    }
    const size_t rs = ck_type_data_size(rec);
    for (size_t f = 0; f < ck_type_field_count(rec); f++) {
        const ck_type_id id = ck_type_get_id(ck_type_field(rec, f));
        const size_t es = scalar_size(id), off = ck_type_field_offset(rec, f);
        fill_data(col, n, id, fills[f], SEED ^ (UINT64_C(0x100000001b3) * (f + 1)));
        for (size_t i = 0; i < n; i++) {
            memcpy(p + i * rs + off, col + i * es, es);
        }
    }
    free(col);
    return CK_OK;
}

/* N * the datashape `elem`. */
static int make_records_type(size_t n, const char *elem, ck_type **out) {
    ck_type *e = NULL;
    *out = NULL;
    int rc = ck_type_parse(elem, &e);
    if (rc == CK_OK) rc = ck_type_make_fixed_dim((intptr_t)n, e, out);
    ck_type_decref(e);
    return rc;
}

/* struct/...: n records each way, contiguous, default (C order) arrmeta. */
static int setup_struct(wl *w) {
    const wl_struct_def *sd = NULL;
    for (size_t k = 0; k < sizeof struct_defs / sizeof struct_defs[0]; k++) {
        if (struct_defs[k].kind == w->def->kind) {
            sd = &struct_defs[k];
        }
    }
    if (sd == NULL) {
        return ck_set_error(CK_ERR_INTERNAL, "bench: %s has no record types", w->def->name);
    }
    int rc = make_records_type(w->n, sd->dst, &w->dt);
    if (rc == CK_OK) rc = make_records_type(w->n, sd->src, &w->st);
    if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
    if (rc != CK_OK) {
        return rc;
    }
    const ck_type *srec = ck_type_element(w->st);
    const size_t ss = ck_type_data_size(srec), ds = ck_type_data_size(ck_type_element(w->dt));
    w->src_buf = alloc_buffer(w->n * ss);
    w->dst_buf = alloc_buffer(w->n * ds);
    w->ref_buf = alloc_buffer(w->n * ds);
    if (w->src_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return nomem("record buffers");
    }
    w->ksrc = w->src_buf;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = w->n * ds;
    w->bytes_moved = (double)(w->n * (ss + ds));
    return fill_records(w->src_buf, w->n, srec, sd->fills);
}

/* struct/copy-identical: the kernel is one dimension over one copy_bytes leaf, or the
 * workload would time something else under its name. */
static int check_one_copy(wl *w) {
    char *tree = NULL;
    int rc = ck_kernel_describe(ck_builder_root(&w->b), &tree);
    if (rc != CK_OK) {
        return rc;
    }
    const char *copy = strstr(tree, "copy_bytes @");
    if (copy == NULL || strstr(copy + 1, "copy_bytes @") != NULL || strstr(tree, "fields @") ||
        strstr(tree, "leaf @")) {
        rc = ck_set_error(CK_ERR_INTERNAL, "bench: %s is not one copy_bytes leaf:\n%s",
                          w->def->name, tree);
    }
    ck_free(tree);
    return rc;
}

/* expr/...: the expression and the types and arrmeta of its arguments and destination
 * (w->n elements each, or rows of the lengths `lens` of a var workload), no data. */
static int expr_types(wl *w, const size_t *lens) {
    const wl_expr_def *x = expr_def(w->def->kind);
    const int var = lens != NULL;
    const intptr_t dims[1] = {var ? (intptr_t)VAR_ROWS : (intptr_t)w->n};
    int rc = ck_expr_parse(x->text, &w->expr);
    if (rc == CK_OK && var) rc = ck_arena_new(0, &w->arena);
    if (rc == CK_OK) rc = make_type(dims, 1, var, 0, F64, &w->dt);
    if (rc == CK_OK) rc = make_arrmeta(w->dt, w->arena, &w->dam);
    for (int k = 0; rc == CK_OK && k < x->nargs; k++) {
        w->nx = k + 1;
        if (x->scalar[k]) {
            w->xt[k] = (ck_type *)(uintptr_t)ck_type_scalar(x->type[k]); /* static */
        } else {
            rc = make_type(dims, 1, var, 0, x->type[k], &w->xt[k]);
        }
        if (rc == CK_OK) rc = make_arrmeta(w->xt[k], w->arena, &w->xam[k]);
    }
    return rc;
}

/* expr/...: the types, then each argument's data (var: rows one after another), the
 * destination's and the reference's. */
static int setup_expr(wl *w) {
    const wl_expr_def *x = expr_def(w->def->kind);
    const int var = w->def->kind == K_EXPR_VAR;
    const size_t rows = VAR_ROWS;
    size_t *lens = NULL;
    if (var && (lens = (size_t *)malloc(rows * sizeof *lens)) == NULL) {
        return nomem("row lengths");
    }
    if (var) w->n = var_lengths(lens);
    int rc = expr_types(w, lens);
    const size_t n = w->n, ds = sizeof(double);
    w->dst_buf = alloc_buffer(n * ds);
    w->ref_buf = alloc_buffer(n * ds);
    if (var) {
        w->dst_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
        w->ref_rows = (ck_var_data *)calloc(rows, sizeof(ck_var_data));
    }
    if (rc == CK_OK && (w->dst_buf == NULL || w->ref_buf == NULL ||
                        (var && (w->dst_rows == NULL || w->ref_rows == NULL)))) {
        rc = nomem("destination");
    }
    w->bytes_moved = (double)(n * ds);
    for (int k = 0; rc == CK_OK && k < x->nargs; k++) {
        const size_t es = scalar_size(x->type[k]);
        if (x->scalar[k]) {
            if ((w->xbuf[k] = alloc_buffer(ds)) == NULL) {
                rc = nomem("scalar argument");
                break;
            }
            memcpy(w->xbuf[k], &x->value[k], ds);
            w->xargs[k] = w->xbuf[k];
            continue;
        }
        w->xbuf[k] = alloc_buffer(n * es);
        if (w->xbuf[k] == NULL) {
            rc = nomem("argument");
            break;
        }
        const wl_fill f = x->type[k] == I32 ? F_I32 : x->type[k] == F32 ? F_F32_PLAIN : F_F64_PLAIN;
        fill_data(w->xbuf[k], n, x->type[k], f, SEED ^ (UINT64_C(0x2545f4914f6cdd1d) * (uint64_t)k));
        w->xargs[k] = w->xbuf[k];
        w->bytes_moved += (double)(n * es);
        if (var) {
            if ((w->xrows[k] = (ck_var_data *)calloc(rows, sizeof(ck_var_data))) == NULL) {
                rc = nomem("var rows");
                break;
            }
            w->xargs[k] = (char *)w->xrows[k];
            w->bytes_moved += (double)(rows * sizeof(ck_var_data));
        }
    }
    if (rc == CK_OK && var) {
        size_t at = 0;
        for (size_t r = 0; r < rows; r++) {
            for (int k = 0; k < x->nargs; k++) {
                w->xrows[k][r].begin = w->xbuf[k] + at * scalar_size(x->type[k]);
                w->xrows[k][r].size = lens[r];
            }
            w->dst_rows[r].begin = w->dst_buf + at * ds;
            w->ref_rows[r].begin = w->ref_buf + at * ds;
            w->dst_rows[r].size = w->ref_rows[r].size = lens[r];
            at += lens[r];
        }
        w->bytes_moved += (double)(rows * sizeof(ck_var_data));
    }
    free(lens);
    w->kdst = var ? (char *)w->dst_rows : w->dst_buf;
    w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = n * ds;
    return rc;
}

static int wl_setup(wl *w, const wl_def *d) {
    memset(w, 0, sizeof *w);
    w->def = d;
    ck_builder_init(&w->b);
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    w->ctx = init;
    w->ctx.errmode = d->mode;
    w->n = d->n != 0 ? d->n : var_lengths(NULL);
    int rc = CK_OK;
    switch (d->kind) {
    case K_CONTIG:
    case K_SMALL: {
        rc = alloc_plain(w, w->n, 0);
        const intptr_t dims[1] = {(intptr_t)w->n};
        if (rc == CK_OK) rc = make_type(dims, 1, 0, 0, d->dst, &w->dt);
        if (rc == CK_OK) rc = make_type(dims, 1, 0, 0, d->src, &w->st);
        if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
        if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
        break;
    }
    case K_UNALIGNED: {
        rc = alloc_plain(w, w->n, 1);
        w->ctx.flags |= CK_EVAL_SRC_UNALIGNED | CK_EVAL_DST_UNALIGNED;
        const intptr_t dims[1] = {(intptr_t)w->n};
        if (rc == CK_OK) rc = make_type(dims, 1, 0, 0, d->dst, &w->dt);
        if (rc == CK_OK) rc = make_type(dims, 1, 0, 0, d->src, &w->st);
        if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
        if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
        break;
    }
    case K_STRIDED: {
        rc = alloc_plain(w, 2 * w->n, 0);
        const intptr_t dims[1] = {(intptr_t)w->n};
        if (rc == CK_OK) rc = make_type(dims, 1, 0, 0, d->dst, &w->dt);
        if (rc == CK_OK) rc = make_type(dims, 1, 0, 0, d->src, &w->st);
        if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
        if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
        if (rc == CK_OK) {
            ck_fixed_dim_arrmeta *m = (ck_fixed_dim_arrmeta *)(void *)w->sam;
            m->stride = 2 * (intptr_t)scalar_size(d->src);
        }
        break;
    }
    case K_2D_C:
    case K_2D_T:
    case K_BUILD: {
        const intptr_t rows = d->kind == K_BUILD ? 100 : ROWS_2D;
        const intptr_t cols = d->kind == K_BUILD ? 100 : COLS_2D;
        rc = alloc_plain(w, w->n, 0);
        const intptr_t dims[2] = {rows, cols};
        if (rc == CK_OK) rc = make_type(dims, 2, 0, 0, d->dst, &w->dt);
        if (rc == CK_OK) rc = make_type(dims, 2, 0, 0, d->src, &w->st);
        if (rc == CK_OK) rc = make_arrmeta(w->dt, NULL, &w->dam);
        if (rc == CK_OK) rc = make_arrmeta(w->st, NULL, &w->sam);
        if (rc == CK_OK && d->kind == K_2D_T) {
            /* The source buffer is cols x rows in C order, seen transposed. */
            ck_fixed_dim_arrmeta *m = (ck_fixed_dim_arrmeta *)(void *)w->sam;
            const intptr_t es = (intptr_t)scalar_size(d->src);
            m[0].stride = es;
            m[1].stride = rows * es;
        }
        break;
    }
    case K_VAR:
        rc = setup_var(w);
        break;
    case K_STRUCT_COPY:
    case K_STRUCT_CAST:
        rc = setup_struct(w);
        break;
    case K_POINTER:
        rc = setup_pointer(w);
        break;
    case K_ADD_CONTIG:
    case K_ADD_BCAST:
    case K_ADD_VAR:
    case K_ADD_OPTION:
        rc = ck_lookup("add", &w->callable);
        if (rc == CK_OK) rc = d->kind == K_ADD_VAR ? setup_add_var(w) : setup_add(w);
        break;
    case K_SELECT_WARM:
    case K_SELECT_COLD:
        return setup_select(w);
    case K_JIT_ROWS_COMPOSED:
    case K_JIT_ROWS:
        rc = setup_jit_rows(w, JIT_ROWS);
        break;
    case K_JIT_ADD_COMPOSED:
    case K_JIT_ADD:
        rc = setup_jit_add(w);
        break;
    case K_JIT_FIRST:
    case K_JIT_STEADY:
    case K_JIT_HIT:
        rc = setup_jit_rows(w, JIT_COMPILE_ROWS);
        break;
    case K_TEXT_PRINT:
    case K_TEXT_PARSE:
        return setup_text(w); /* no kernel: the literals' functions are timed */
    case K_TEXT_CAST:
        rc = setup_text_cast(w);
        break;
    case K_TEXT_TIME:
        rc = setup_text_time(w);
        break;
    case K_TEXT_EQUAL:
        rc = ck_lookup("equal", &w->callable);
        if (rc == CK_OK) rc = setup_text_equal(w);
        break;
    case K_RED_SUM:
    case K_RED_MIN:
    case K_RED_AXIS0:
    case K_RED_VAR:
    case K_ACC_CUMSUM:
        rc = setup_reduce(w);
        break;
    case K_DOT:
        rc = setup_dot(w);
        break;
    case K_EXPR_FMA3_COMPOSED:
    case K_EXPR_FMA3_JIT:
    case K_EXPR_POLY_JIT:
    case K_EXPR_MIXED:
    case K_EXPR_VAR:
        rc = setup_expr(w);
        break;
    }
    if (is_jit_kind(d->kind) || expr_def(d->kind) != NULL) {
        w->ctx.flags |= jit_compiled_kind(d->kind) ? CK_EVAL_JIT : CK_EVAL_NO_JIT;
    }
    w->compile_ms = -1.0;
    /* small/build and the compile workloads build inside the timed operation (jit/compile/
     * cache-hit builds here the kernel that keeps its nest's code alive). */
    if (rc == CK_OK && d->kind != K_SMALL && d->kind != K_BUILD && d->kind != K_JIT_FIRST &&
        d->kind != K_JIT_STEADY) {
        rc = build_kernel(w);
    }
    if (rc == CK_OK && d->kind == K_STRUCT_COPY) {
        rc = check_one_copy(w);
    }
    if (rc == CK_OK && jit_pair_kind(d->kind)) {
        /* The composed kernel, timed alongside for ratio_composed. */
        ck_eval_ctx c = w->ctx;
        c.flags = (c.flags & ~CK_EVAL_JIT) | CK_EVAL_NO_JIT;
        rc = build_into(w, &w->cb, &c);
        w->cbuilt = 1;
    }
    return rc;
}

/* The element kernel for the parallel runs of a contiguous workload. */
static int build_parallel(wl *w) {
    ck_builder_init(&w->pb);
    w->pbuilt = 1;
    if (red_kind(w->def->kind) || w->def->kind == K_DOT) {
        return CK_OK; /* ck_parallel_reduce and ck_parallel_call build their own */
    }
    if (w->expr != NULL) { /* ck_parallel_expr builds its own, over these arrays */
        int rc = ck_array_wrap(w->dt, w->dam, w->kdst, NULL, &w->dst_array);
        for (int k = 0; rc == CK_OK && k < w->nx; k++) {
            rc = ck_array_wrap(w->xt[k], w->xam[k], w->xargs[k], NULL, &w->xarrays[k]);
        }
        return rc;
    }
    size_t off = 0;
    return ck_make_assign(&w->pb, &off, ck_type_scalar(w->def->dst), NULL,
                          ck_type_scalar(w->def->src), NULL, CK_REQUEST_STRIDED, &w->ctx);
}

/* ---- the three timed operations ---- */

static int run_kernel(wl *w) {
    if (w->threads > 1 && red_kind(w->def->kind)) {
        ck_eval_ctx c = w->ctx;
        c.max_threads = w->threads;
        const ck_reduce_spec r = {w->red, w->axes, w->naxes, 0};
        return ck_parallel_reduce(&r, w->dst_array, w->src_array, &c);
    }
    if (w->threads > 1 && w->def->kind == K_DOT) {
        ck_eval_ctx c = w->ctx;
        c.max_threads = w->threads;
        const ck_array *const src[2] = {w->src_array, w->src2_array};
        return ck_parallel_call(w->callable, w->dst_array, 2, src, &c);
    }
    if (w->threads > 1 && w->expr != NULL) {
        ck_eval_ctx c = w->ctx;
        c.max_threads = w->threads;
        return ck_parallel_expr(w->expr, w->dst_array, w->nx, NULL,
                                (const ck_array *const *)w->xarrays, &c);
    }
    if (w->threads > 1) {
        ck_eval_ctx c = w->ctx;
        c.max_threads = w->threads;
        const intptr_t ds = (intptr_t)scalar_size(w->def->dst);
        const intptr_t ss = (intptr_t)scalar_size(w->def->src);
        return ck_parallel_strided(ck_builder_root(&w->pb), w->kdst, ds, &w->ksrc, &ss, w->n, &c);
    }
    if (w->def->kind == K_SMALL) {
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        int rc = ck_make_assign(&b, &off, w->dt, w->dam, w->st, w->sam, CK_REQUEST_SINGLE,
                                &w->ctx);
        if (rc == CK_OK) {
            rc = ck_call_single(ck_builder_root(&b), w->kdst, &w->ksrc);
        }
        ck_builder_destroy(&b);
        return rc;
    }
    if (w->def->kind == K_SELECT_WARM || w->def->kind == K_SELECT_COLD) {
        int index = -1;
        int rc = ck_callable_select(w->callable, 2, w->sel_args, &w->ctx, &index, NULL);
        ckb_sink ^= (uint64_t)(unsigned)index;
        return rc;
    }
    if (add_kind(w->def->kind)) {
        return ck_call_single(ck_builder_root(&w->b), w->kdst, w->kargs);
    }
    if (w->expr != NULL) {
        return ck_call_single(ck_builder_root(&w->b), w->kdst, w->xargs);
    }
    if (w->def->kind == K_TEXT_PRINT) {
        char *text = NULL;
        const int rc = ck_array_format(w->text_array, &text);
        if (rc == CK_OK) {
            ckb_touch(text, w->text_len);
        }
        ck_free(text);
        return rc;
    }
    if (w->def->kind == K_TEXT_PARSE) {
        ck_array *a = NULL;
        const int rc = ck_array_parse(w->st, w->text, &a);
        if (rc == CK_OK) {
            ckb_touch(ck_array_data(a), w->dst_bytes);
        }
        ck_array_free(a);
        return rc;
    }
    return ck_call_single(ck_builder_root(&w->b), w->kdst, &w->ksrc);
}

/* text/cast/...: the plain loop of the workload's pair. */
static int text_cast_loop(const wl *w, char *out) {
    const wl_def *d = w->def;
    const size_t n = w->n;
    if (d->src == CK_TYPE_STRING) {
        return ckb_loop_string_float64((double *)(void *)out,
                                       (const ck_string_data *)(const void *)w->ksrc, n);
    }
    if (d->dst == CK_TYPE_FIXED_STRING) {
        const size_t units = text_cast_units(d->src);
        return d->src == F64 ? ckb_loop_float64_u32((uint32_t *)(void *)out, units,
                                                    (const double *)(const void *)w->ksrc, n)
                             : ckb_loop_int64_u32((uint32_t *)(void *)out, units,
                                                  (const int64_t *)(const void *)w->ksrc, n);
    }
    const size_t units = text_cast_units(d->dst);
    const uint32_t *src = (const uint32_t *)(const void *)w->ksrc;
    return d->dst == F64 ? ckb_loop_u32_float64((double *)(void *)out, src, units, n)
                         : ckb_loop_u32_int64((int64_t *)(void *)out, src, units, n);
}

/* The plain loop, writing into the kernel's destination (out_is_ref 0) or the reference. */
static int run_loop(wl *w, int out_is_ref) {
    char *out = out_is_ref ? w->ref_elems : w->dst_elems;
    switch (w->def->kind) {
    case K_CONTIG:
        return w->def->loop(out, w->ksrc, w->n);
    case K_SMALL:
        return ckb_loop_int32_float64(out, w->ksrc, w->n);
    case K_STRIDED:
        return ckb_loop_int32_float64_strided((double *)(void *)out,
                                              (const int32_t *)(void *)w->ksrc, w->n, 2);
    case K_2D_C:
        return ckb_loop_int32_float64_2d((double *)(void *)out, (const int32_t *)(void *)w->ksrc,
                                         ROWS_2D, COLS_2D);
    case K_BUILD:
        return ckb_loop_int32_float64_2d((double *)(void *)out, (const int32_t *)(void *)w->ksrc,
                                         100, 100);
    case K_2D_T:
        return ckb_loop_int32_float64_transposed(
            (double *)(void *)out, (const int32_t *)(void *)w->ksrc, ROWS_2D, COLS_2D);
    case K_VAR:
        return ckb_loop_float32_float64_var(out_is_ref ? w->ref_rows : w->dst_rows, w->src_rows,
                                            VAR_ROWS);
    case K_POINTER:
        return ckb_loop_gather_float64((double *)(void *)out, (char *const *)(void *)w->ksrc,
                                       w->n);
    case K_UNALIGNED:
        return ckb_loop_int32_float64_unaligned(out, w->ksrc, w->n);
    case K_STRUCT_COPY:
        return ckb_loop_struct_copy((ckb_rec_copy *)(void *)out,
                                    (const ckb_rec_copy *)(void *)w->ksrc, w->n);
    case K_STRUCT_CAST:
        return ckb_loop_struct_cast((ckb_rec_cast_dst *)(void *)out,
                                    (const ckb_rec_cast_src *)(void *)w->ksrc, w->n);
    case K_ADD_CONTIG:
        if (w->def->src == CK_TYPE_INT32) {
            return ckb_loop_add_int32_float64((double *)(void *)out,
                                              (const int32_t *)(void *)w->kargs[0],
                                              (const double *)(void *)w->kargs[1], w->n);
        }
        return ckb_loop_add_float64((double *)(void *)out, (const double *)(void *)w->kargs[0],
                                    (const double *)(void *)w->kargs[1], w->n);
    case K_ADD_OPTION:
        return ckb_loop_add_float64_option((double *)(void *)out,
                                           (const double *)(void *)w->kargs[0],
                                           (const double *)(void *)w->kargs[1], w->n);
    case K_ADD_BCAST:
        return ckb_loop_add_float64_outer((double *)(void *)out,
                                          (const double *)(void *)w->kargs[0],
                                          (const double *)(void *)w->kargs[1], ROWS_2D, COLS_2D);
    case K_ADD_VAR:
        return ckb_loop_add_float64_var(out_is_ref ? w->ref_rows : w->dst_rows, w->src_rows,
                                        w->src2_rows, VAR_ROWS);
    case K_SELECT_WARM:
    case K_SELECT_COLD:
        break; /* no loop: nothing to compare with */
    case K_JIT_ROWS_COMPOSED:
    case K_JIT_ROWS:
    case K_JIT_FIRST:
    case K_JIT_STEADY:
    case K_JIT_HIT:
        return ckb_loop_int16_float32_rows((float *)(void *)out, (const int16_t *)(void *)w->ksrc,
                                           w->n / JIT_COLS, JIT_COLS, JIT_I16_ROW);
    case K_JIT_ADD_COMPOSED:
    case K_JIT_ADD:
        return ckb_loop_add_int32_float64_rows(
            (double *)(void *)out, (const int32_t *)(void *)w->kargs[0], JIT_I32_ROW,
            (const double *)(void *)w->kargs[1], w->n / JIT_COLS, JIT_COLS);
    case K_TEXT_PRINT:
        return ckb_loop_print_float64(out, TEXT_PRINT_BYTES(w->n),
                                      (const double *)(void *)w->ksrc, w->n) == 0;
    case K_TEXT_PARSE:
        return ckb_loop_parse_float64((double *)(void *)out, w->text, w->n);
    case K_TEXT_CAST:
        return text_cast_loop(w, out);
    case K_TEXT_TIME:
        return w->def->dst == CK_TYPE_FIXED_STRING
                   ? ckb_loop_datetime_s_u32((uint32_t *)(void *)out, TEXT_TIME_UNITS,
                                             (const int64_t *)(const void *)w->ksrc, w->n)
                   : ckb_loop_u32_datetime_s((int64_t *)(void *)out,
                                             (const uint32_t *)(const void *)w->ksrc,
                                             TEXT_TIME_UNITS, w->n);
    case K_TEXT_EQUAL:
        return text_equal_loop((unsigned char *)out, (const ck_string_data *)(void *)w->kargs[0],
                               (const ck_string_data *)(void *)w->kargs[1], w->n);
    case K_RED_SUM:
        return ckb_loop_sum_float64((double *)(void *)out, (const double *)(void *)w->ksrc,
                                    w->n);
    case K_RED_MIN:
        return ckb_loop_min_float64((double *)(void *)out, (const double *)(void *)w->ksrc,
                                    w->n);
    case K_RED_AXIS0:
        return ckb_loop_sum_float64_axis0((double *)(void *)out,
                                          (const double *)(void *)w->ksrc, ROWS_2D, COLS_2D);
    case K_RED_VAR:
        return ckb_loop_sum_float32_rows((double *)(void *)out, w->src_rows, VAR_ROWS);
    case K_ACC_CUMSUM:
        return ckb_loop_cumsum_float64((double *)(void *)out, (const double *)(void *)w->ksrc,
                                       w->n);
    case K_DOT:
        return ckb_loop_dot_float64_rows((double *)(void *)out,
                                         (const double *)(void *)w->kargs[0],
                                         (const double *)(void *)w->kargs[1], ROWS_2D, ROWS_2D);
    case K_EXPR_FMA3_COMPOSED:
    case K_EXPR_FMA3_JIT:
        return ckb_loop_fma3_float64((double *)(void *)out, (const double *)(void *)w->xbuf[0],
                                     (const double *)(void *)w->xbuf[1],
                                     (const double *)(void *)w->xbuf[2], w->n);
    case K_EXPR_POLY_JIT: {
        const double k[4] = {expr_poly.value[0], expr_poly.value[2], expr_poly.value[3],
                             expr_poly.value[4]};
        return ckb_loop_poly3_float64((double *)(void *)out, (const double *)(void *)w->xbuf[1],
                                      k, w->n);
    }
    case K_EXPR_MIXED:
        return ckb_loop_mul_add_int32_float64_float32(
            (double *)(void *)out, (const int32_t *)(void *)w->xbuf[0],
            (const double *)(void *)w->xbuf[1], (const float *)(void *)w->xbuf[2], w->n);
    case K_EXPR_VAR:
        return ckb_loop_fma3_float64_var(out_is_ref ? w->ref_rows : w->dst_rows, w->xrows[0],
                                         w->xrows[1], w->xrows[2], VAR_ROWS);
    }
    return 1;
}

static int timed_kernel(void *ctx) {
    wl *w = (wl *)ctx;
    int rc = run_kernel(w);
    ckb_touch(w->dst_elems, w->dst_bytes);
    return rc;
}

static int timed_memcpy(void *ctx) {
    wl *w = (wl *)ctx;
    memcpy(w->dst_elems, w->ref_elems, w->dst_bytes);
    ckb_touch(w->dst_elems, w->dst_bytes);
    return CK_OK;
}

static int timed_loop(void *ctx) {
    wl *w = (wl *)ctx;
    int rc = run_loop(w, 0);
    ckb_touch(w->dst_elems, w->dst_bytes);
    return rc == 0 ? CK_OK
                   : ck_set_error(CK_ERR_INTERNAL, "bench: the plain loop of %s failed",
                                  w->def->name);
}

/* jit/<case>/jit: the CK_EVAL_NO_JIT kernel of the same workload. */
static int timed_composed(void *ctx) {
    wl *w = (wl *)ctx;
    char *const *src = add_kind(w->def->kind) ? w->kargs : w->expr != NULL ? w->xargs : &w->ksrc;
    int rc = ck_call_single(ck_builder_root(&w->cb), w->kdst, src);
    ckb_touch(w->dst_elems, w->dst_bytes);
    return rc;
}

/* jit/compile/steady: every build's nest is new to the process (the source row stride is
 * 8 + 2 * k bytes for a k never used before; the kernel is never run), so
 * every build compiles; the code is freed with the kernel. */
static intptr_t steady_seq;
static int timed_jit_steady(void *ctx) {
    wl *w = (wl *)ctx;
    ck_fixed_dim_arrmeta *m = (ck_fixed_dim_arrmeta *)(void *)w->sam;
    const intptr_t keep = m[0].stride;
    m[0].stride = keep + 2 * ++steady_seq;
    ck_builder b;
    int rc = build_into(w, &b, &w->ctx);
    if (rc == CK_OK) rc = check_jit_used(w, 0);
    ck_builder_destroy(&b);
    m[0].stride = keep;
    return rc;
}

/* jit/compile/cache-hit: the nest of the kernel built in setup (alive): a cache hit. */
static int timed_jit_hit(void *ctx) {
    wl *w = (wl *)ctx;
    ck_builder b;
    int rc = build_into(w, &b, &w->ctx);
    if (rc == CK_OK && strncmp(ck_jit_last_decision(), "cache hit", 9) != 0) {
        rc = ck_set_error(CK_ERR_INTERNAL, "bench: %s: not a cache hit: %s", w->def->name,
                          ck_jit_last_decision());
    }
    ck_builder_destroy(&b);
    return rc;
}

static int timed_build(void *ctx) {
    wl *w = (wl *)ctx;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    int rc = ck_make_assign(&b, &off, w->dt, w->dam, w->st, w->sam, CK_REQUEST_SINGLE, &w->ctx);
    ckb_sink ^= (uint64_t)off;
    ck_builder_destroy(&b);
    return rc;
}

/* select/...: the selected index is the expected signature's. */
static int compare_selection(wl *w, int *equal, char *msg, size_t msg_size) {
    int index = -1;
    const int rc = ck_callable_select(w->callable, 2, w->sel_args, &w->ctx, &index, NULL);
    if (rc != CK_OK) {
        return rc;
    }
    *equal = w->sel_expected >= 0 && index == w->sel_expected;
    if (msg_size != 0) {
        msg[0] = '\0';
        if (!*equal) {
            snprintf(msg, msg_size,
                     "%s: selected signature %d, expected %d ((float64, float64) -> float64)",
                     w->def->name, index, w->sel_expected);
        }
    }
    return CK_OK;
}

/* text/print: ckernel's text (setup_text's), read back by the plain loop's strtod, is the
 * source bit for bit. text/parse: ck_array_parse's values are strtod's of the same text, bit
 * for bit. */
static int compare_text(wl *w, int *equal, char *msg, size_t msg_size) {
    const size_t bytes = w->n * sizeof(double);
    memset(w->dst_elems, 0x5a, bytes);
    memset(w->ref_elems, 0x5a, bytes);
    int rc;
    const char *want_what;
    if (w->def->kind == K_TEXT_PRINT) {
        rc = CK_OK;
        if (ckb_loop_parse_float64((double *)(void *)w->dst_elems, w->text, w->n)) {
            rc = ck_set_error(CK_ERR_INTERNAL, "bench: %s: strtod cannot read ckernel's text",
                              w->def->name);
        }
        memcpy(w->ref_elems, w->ksrc, bytes);
        want_what = "the source";
    } else {
        ck_array *a = NULL;
        rc = ck_array_parse(w->st, w->text, &a);
        if (rc == CK_OK) {
            memcpy(w->dst_elems, ck_array_data(a), bytes);
        }
        ck_array_free(a);
        if (rc == CK_OK && run_loop(w, 1) != 0) {
            rc = ck_set_error(CK_ERR_INTERNAL, "bench: the plain loop of %s failed",
                              w->def->name);
        }
        want_what = "strtod's";
    }
    if (rc != CK_OK) {
        return rc;
    }
    *equal = memcmp(w->dst_elems, w->ref_elems, bytes) == 0;
    if (msg_size != 0) {
        msg[0] = '\0';
        if (!*equal) {
            size_t k = 0;
            while (k < w->n && memcmp(w->dst_elems + k * 8, w->ref_elems + k * 8, 8) == 0) {
                k++;
            }
            double got, want;
            memcpy(&got, w->dst_elems + k * 8, sizeof got);
            memcpy(&want, w->ref_elems + k * 8, sizeof want);
            snprintf(msg, msg_size, "%s: value %zu is %.17g, %s is %.17g", w->def->name, k,
                     got, want_what, want);
        }
    }
    return CK_OK;
}

/* Kernel into dst, plain loop into ref, compare. For build/3-level the kernel is built
 * here and run once. */
/* reduce/sum/...: the kernel's pairwise sums and the loop's running sums round differently;
 * they agree when every result is within 2^-40 of the sum of its elements' magnitudes
 * (about 2^13 roundings of a running sum of 10 Mi elements). */
static int sums_agree(const wl *w) {
    const double *got = (const double *)(const void *)w->dst_elems;
    const double *want = (const double *)(const void *)w->ref_elems;
    const size_t n = w->dst_bytes / sizeof(double);
    for (size_t r = 0; r < n; r++) {
        double mag = 0.0;
        if (w->def->kind == K_RED_VAR) {
            const float *x = (const float *)(const void *)w->src_rows[r].begin;
            for (size_t i = 0; i < w->src_rows[r].size; i++) mag += fabs((double)x[i]);
        } else if (w->def->kind == K_DOT) {
            const double *x = (const double *)(const void *)w->kargs[0] + r * ROWS_2D;
            const double *y = (const double *)(const void *)w->kargs[1] + r * ROWS_2D;
            for (size_t i = 0; i < ROWS_2D; i++) mag += fabs(x[i] * y[i]);
        } else {
            const double *x = (const double *)(const void *)w->ksrc;
            for (size_t i = 0; i < w->n; i++) mag += fabs(x[i]);
        }
        if (!(fabs(got[r] - want[r]) <= ldexp(mag, -40))) {
            return 0;
        }
    }
    return 1;
}

static int compare_outputs(wl *w, int *equal, char *msg, size_t msg_size) {
    int rc;
    if (w->def->kind == K_SELECT_WARM || w->def->kind == K_SELECT_COLD) {
        return compare_selection(w, equal, msg, msg_size);
    }
    if (text_kind(w->def->kind)) {
        return compare_text(w, equal, msg, msg_size);
    }
    if (w->def->kind == K_BUILD || w->def->kind == K_JIT_FIRST ||
        w->def->kind == K_JIT_STEADY) {
        rc = build_kernel(w); /* jit/compile/...: checks that it compiled */
        if (rc != CK_OK) {
            return rc;
        }
    }
    memset(w->dst_elems, 0x5a, w->dst_bytes); /* so a kernel that writes nothing fails */
    rc = run_kernel(w);
    if (rc != CK_OK) {
        return rc;
    }
    if (w->def->kind == K_TEXT_CAST && w->def->dst == CK_TYPE_FIXED_STRING &&
        w->def->src == F64) {
        /* The loop's "%.17g" is not the shortest text: ckernel's text read back (the loop's
         * own strtod) must be the source, and the text no longer than "%.17g"'s. */
        const size_t units = text_cast_units(F64);
        if (ckb_loop_u32_float64((double *)(void *)w->ref_elems,
                                 (const uint32_t *)(const void *)w->dst_elems, units, w->n)) {
            *equal = 0;
            if (msg_size != 0) {
                snprintf(msg, msg_size, "%s: strtod cannot read ckernel's text", w->def->name);
            }
            return CK_OK;
        }
        *equal = memcmp(w->ref_elems, w->ksrc, w->n * sizeof(double)) == 0;
        if (msg_size != 0) {
            snprintf(msg, msg_size, "%s", *equal ? "" : "ckernel's text does not read back");
        }
        return CK_OK;
    }
    if (run_loop(w, 1) != 0) {
        return ck_set_error(CK_ERR_INTERNAL, "bench: the plain loop of %s failed", w->def->name);
    }
    *equal = memcmp(w->dst_elems, w->ref_elems, w->dst_bytes) == 0;
    if (!*equal &&
        (w->def->kind == K_RED_SUM || w->def->kind == K_RED_VAR || w->def->kind == K_DOT)) {
        *equal = sums_agree(w);
    }
    if (msg_size != 0) {
        msg[0] = '\0';
    }
    if (!*equal && msg_size != 0) {
        size_t i = 0;
        while (i < w->dst_bytes && w->dst_elems[i] == w->ref_elems[i]) {
            i++;
        }
        snprintf(msg, msg_size,
                 "%s: kernel and plain loop differ at byte %zu of %zu (0x%02x vs 0x%02x)",
                 w->def->name, i, w->dst_bytes, (unsigned)(unsigned char)w->dst_elems[i],
                 (unsigned)(unsigned char)w->ref_elems[i]);
    }
    return CK_OK;
}

int ckb_workload_verify(size_t i, int *equal, char *msg, size_t msg_size) {
    *equal = 0;
    if (i >= NDEFS) {
        return ck_set_error(CK_ERR_INVALID, "bench: no workload %zu", i);
    }
    wl w;
    int rc = wl_setup(&w, &defs[i]);
    if (rc == CK_OK) {
        rc = compare_outputs(&w, equal, msg, msg_size);
    }
    wl_free(&w);
    return rc;
}

/* Heap allocations (ckernel's allocator) per build, over `n` builds. */
static double allocs_per_build(wl *w, int n) {
    ck_alloc_stats before, after;
    ck_get_alloc_stats(&before);
    for (int k = 0; k < n; k++) {
        if (timed_build(w) != CK_OK) {
            return -1.0;
        }
    }
    ck_get_alloc_stats(&after);
    return (double)(after.allocations - before.allocations) / (double)n;
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
    return i < NDEFS && jit_compiled_kind(defs[i].kind);
}

/* ---- jit/compile/first ----
 *
 * The first compile of a process is a one-off: it loads the plugin and libLLVM, initialises
 * LLVM's native target and creates the LLJIT, and none of that happens again in the
 * process, so it cannot be sampled like the other figures. ckb_prepare (called by ckb_run
 * before any workload, so the bench's first JIT kernel build is the process's) measures it
 * once per process: the wall time of the first ck_make_assign with CK_EVAL_JIT, of the
 * jit/compile/first nest. For a median, the same first build is also run in --repeat - 1
 * fresh child processes (fork() before this process has touched the JIT, each child does
 * its first build and reports its time through a pipe, then _exit()s); the figure is the
 * median of the children's and this process's times. A sample counts only when that build
 * was the process's first compile (ck_jit_info.compiles == 1 afterwards): when something
 * compiled before (a host that used the JIT earlier), there is no first compile left to
 * time and the workload is skipped with that reason. */

typedef struct first_sample {
    double ns;
    int available; /* ck_jit_info.available after the build */
    size_t compiles;
    int rc;
} first_sample;

static struct {
    int done;
    int available;
    char why[256]; /* set: jit/compile/first is skipped for this reason */
    double median_ns, spread;
    int nsamples;
} first;

static const wl_def *find_def(wl_kind k) {
    for (size_t i = 0; i < NDEFS; i++) {
        if (defs[i].kind == k) {
            return &defs[i];
        }
    }
    return NULL;
}

static void first_build(first_sample *out) {
    memset(out, 0, sizeof *out);
    wl w;
    out->rc = wl_setup(&w, find_def(K_JIT_FIRST)); /* types and buffers: not timed */
    if (out->rc == CK_OK) {
        const uint64_t t0 = ckb_now_ns();
        out->rc = build_into(&w, &w.b, &w.ctx);
        const uint64_t t1 = ckb_now_ns();
        out->ns = (double)(t1 - t0);
        w.built = out->rc == CK_OK;
    }
    ck_jit_info info;
    ck_jit_get_info(&info);
    out->available = info.available;
    out->compiles = info.compiles;
    if (out->rc == CK_OK && info.available) {
        out->rc = check_jit_used(&w, 0);
    }
    wl_free(&w);
}

/* One first build in a forked child; 0 when the child did not report one. */
static int first_build_forked(first_sample *out) {
    int fds[2];
    fflush(stdout);
    fflush(stderr);
    if (pipe(fds) != 0) {
        return 0;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return 0;
    }
    if (pid == 0) {
        close(fds[0]);
        first_sample s;
        first_build(&s);
        const ssize_t wr = write(fds[1], &s, sizeof s);
        _exit(wr == (ssize_t)sizeof s ? 0 : 1);
    }
    close(fds[1]);
    size_t got = 0;
    while (got < sizeof *out) {
        const ssize_t r = read(fds[0], (char *)out + got, sizeof *out - got);
        if (r <= 0) {
            break;
        }
        got += (size_t)r;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return got == sizeof *out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void measure_first(const ckb_settings *s) {
    if (first.done) {
        return;
    }
    first.done = 1;
    const int n = s->repeats > 0 ? s->repeats : 1;
    double *v = (double *)malloc(sizeof(double) * (size_t)n);
    int nv = 0;
    first_sample fs;
    for (int k = 0; v != NULL && k + 1 < n; k++) {
        if (!first_build_forked(&fs) || !fs.available) {
            break; /* no fork, or no JIT: this process's own build says why */
        }
        if (fs.rc == CK_OK && fs.compiles == 1) {
            v[nv++] = fs.ns;
        }
    }
    first_build(&fs); /* this process's own, last: the JIT stays loaded for the others */
    ck_clear_error();
    first.available = fs.available;
    if (!fs.available) {
        free(v);
        return; /* ckb_workload_skip reports the JIT's status */
    }
    if (fs.rc != CK_OK) {
        snprintf(first.why, sizeof first.why, "the first JIT build failed: %s: %s",
                 ck_status_name(fs.rc), ck_last_error());
    } else if (fs.compiles != 1) {
        snprintf(first.why, sizeof first.why,
                 "%zu kernels were compiled in this process before the bench's first JIT "
                 "build: its first compile cannot be timed any more",
                 fs.compiles - 1);
    } else if (v != NULL) {
        v[nv++] = fs.ns;
    }
    if (nv > 0) {
        first.nsamples = nv;
        first.median_ns = ckb_median(v, (size_t)nv); /* sorts v */
        first.spread = first.median_ns > 0 ? (v[nv - 1] - v[0]) / first.median_ns : 0.0;
    } else if (first.why[0] == '\0') {
        snprintf(first.why, sizeof first.why, "no first JIT build could be timed");
    }
    free(v);
}

/* expr/<case>/jit with a JIT: skipped when the JIT does not compile the expression's kernel
 * (the kernel over the workload's types, no data, built with CK_EVAL_JIT), with the JIT's
 * reason (ck_jit_last_decision). */
static int expr_not_compiled(const wl_def *d, char *why, size_t why_size) {
    wl w;
    memset(&w, 0, sizeof w);
    w.def = d;
    w.n = d->n;
    ck_builder_init(&w.b);
    const ck_eval_ctx init = CK_EVAL_CTX_INIT;
    w.ctx = init;
    w.ctx.flags |= CK_EVAL_JIT;
    int rc = expr_types(&w, NULL);
    if (rc == CK_OK) rc = build_into(&w, &w.b, &w.ctx);
    const char *decision = ck_jit_last_decision();
    int skip = 0;
    if (rc != CK_OK) {
        /* The run reports it (a failure, not a skip). */
    } else if (strncmp(decision, "compiled", 8) != 0 && strncmp(decision, "cache hit", 9) != 0) {
        snprintf(why, why_size, "the JIT did not compile the expression: %s",
                 decision[0] != '\0' ? decision : "no nest was offered to it");
        skip = 1;
    }
    wl_free(&w);
    return skip;
}

void ckb_prepare(const char *filter, const ckb_settings *s) {
    const wl_def *d = find_def(K_JIT_FIRST);
    if (d != NULL && (filter == NULL || strstr(d->name, filter) != NULL)) {
        measure_first(s);
    }
}

int ckb_workload_skip(size_t i, char *why, size_t why_size) {
    if (i >= NDEFS || !jit_compiled_kind(defs[i].kind)) {
        return 0;
    }
    ck_jit_info info;
    ck_jit_get_info(&info);
    if (!info.available) {
        snprintf(why, why_size, "JIT: %s", info.status);
        return 1;
    }
    if (expr_jit_kind(defs[i].kind)) {
        return expr_not_compiled(&defs[i], why, why_size);
    }
    if (defs[i].kind == K_JIT_FIRST && first.done && first.why[0] != '\0') {
        snprintf(why, why_size, "%s", first.why);
        return 1;
    }
    return 0;
}

int ckb_workload_run(size_t i, const ckb_settings *s, ckb_result *out) {
    memset(out, 0, sizeof *out);
    if (i >= NDEFS) {
        return ck_set_error(CK_ERR_INVALID, "bench: no workload %zu", i);
    }
    const wl_def *d = &defs[i];
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
    if (d->kind == K_JIT_FIRST) {
        measure_first(s); /* nothing when ckb_prepare did it */
    }
    if (ckb_workload_skip(i, why, sizeof why)) {
        return ck_set_error(CK_ERR_UNSUPPORTED, "bench: %s: %s", d->name, why);
    }
    wl w;
    int rc = wl_setup(&w, d);
    if (rc == CK_OK && s->threads > 1) {
        if (!ckb_workload_threaded(i)) {
            rc = ck_set_error(CK_ERR_INVALID, "bench: %s has no parallel run", d->name);
        } else {
            w.threads = s->threads;
            rc = build_parallel(&w);
        }
    }
    if (rc != CK_OK) {
        wl_free(&w);
        return rc;
    }
    out->elements = (uint64_t)w.n;
    const int select = d->kind == K_SELECT_WARM || d->kind == K_SELECT_COLD;
    const int compile = jit_compile_kind(d->kind);
    const int per_op = d->kind == K_SMALL || d->kind == K_BUILD || select || compile;
    out->unit = d->kind == K_JIT_FIRST || d->kind == K_JIT_STEADY ? CKB_MS_PER_OP
                : per_op                                          ? CKB_PER_OP
                                                                  : CKB_PER_ELEM;
    const double per = per_op ? 1.0 : (double)w.n;
    double t[4] = {0, 0, 0, 0}, spread[4] = {0, 0, 0, 0};
    if (d->kind == K_JIT_FIRST) {
        /* Measured once per process by measure_first: a median over fresh processes. */
        out->ns = first.median_ns;
        spread[0] = first.spread;
    } else if (d->kind == K_JIT_STEADY || d->kind == K_JIT_HIT) {
        /* As build/3-level: per operation, no data moved, so no bandwidth or ratios. */
        const ckb_timed_fn fns[1] = {d->kind == K_JIT_STEADY ? timed_jit_steady : timed_jit_hit};
        rc = ckb_measure(fns, 1, &w, s, t, spread);
        if (rc == CK_OK) {
            out->ns = t[0];
        }
    } else if (jit_pair_kind(d->kind)) {
        /* The composed kernel sampled in the same interleaved rounds: ratio_composed. */
        const ckb_timed_fn fns[4] = {timed_kernel, timed_memcpy, timed_loop, timed_composed};
        rc = ckb_measure(fns, 4, &w, s, t, spread);
        if (rc == CK_OK) {
            out->ns = t[0] / per;
            out->gb_per_s = w.bytes_moved / t[0];
            out->ratio_memcpy = t[0] / t[1];
            out->ratio_loop = t[0] / t[2];
            out->memcpy_gb_per_s = 2.0 * (double)w.dst_bytes / t[1];
            out->loop_ns = t[2] / per;
            out->ratio_composed = t[0] / t[3];
            out->compile_ms = w.compile_ms;
        }
    } else if (d->kind == K_BUILD) {
        const ckb_timed_fn fns[1] = {timed_build};
        rc = ckb_measure(fns, 1, &w, s, t, spread);
        if (rc == CK_OK) {
            out->ns = t[0];
            out->heap_allocs = allocs_per_build(&w, 1000);
        }
    } else if (select) {
        /* As build/3-level: ns per operation, no data moved, so no bandwidth or ratios. */
        const ckb_timed_fn fns[1] = {timed_kernel};
        rc = ckb_measure(fns, 1, &w, s, t, spread);
        if (rc == CK_OK) {
            out->ns = t[0];
        }
    } else {
        const ckb_timed_fn fns[3] = {timed_kernel, timed_memcpy, timed_loop};
        rc = ckb_measure(fns, 3, &w, s, t, spread);
        if (rc == CK_OK) {
            out->ns = t[0] / per;
            out->gb_per_s = w.bytes_moved / t[0];
            out->ratio_memcpy = t[0] / t[1];
            out->ratio_loop = t[0] / t[2];
            out->memcpy_gb_per_s = 2.0 * (double)w.dst_bytes / t[1];
            out->loop_ns = t[2] / per;
        }
    }
    out->spread = spread[0];
    if (rc == CK_OK) {
        rc = compare_outputs(&w, &out->verified, NULL, 0);
    }
    wl_free(&w);
    return rc;
}
