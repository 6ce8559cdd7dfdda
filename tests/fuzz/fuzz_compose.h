/* tests/fuzz/fuzz_compose.h: what the composition fuzzer's parts share. The generator
 * (fuzz_compose_gen.c) decodes an input into a case: types, arrmeta, data, context; the
 * reference (fuzz_compose_ref*.c) says what the kernel must do with it; the target
 * (fuzz_compose.c) builds and runs the kernel and compares. */
#ifndef CK_FUZZ_COMPOSE_H
#define CK_FUZZ_COMPOSE_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/ckernel.h"
#include "scalar_oracle.h"

/* Every arrmeta field is one word (a pointer, an intptr_t or a size_t): fixed {size, stride},
 * var {blockref, stride, offset}, pointer {blockref, offset}, a record's field offsets; a
 * child's arrmeta follows its parent's. 8 bytes on 64-bit hosts, 4 on 32-bit ones. */
#define FZ_W ((size_t)sizeof(intptr_t))

#define FZ_MAX_SRC 3
#define FZ_MAX_FIELDS 4
/* Messages are compared whole; a ckernel message is at most 1024 bytes. */
#define FZ_MSG 1100
/* Stands for any decimal number in an expected message: the element numbers that count
 * within a kernel's own run (docs/design.md §10, §12), which depend on coalescing and
 * chunking, not on the data. */
#define FZ_ANY_NUMBER '\x01'
/* Stands for one or more "[i]": a failing element's index as the loops above it numbered it
 * (one index for a coalesced run, one per dimension otherwise). */
#define FZ_ANY_INDEX '\x02'

/* ---- the input ---- */
typedef struct fz_in {
    const uint8_t *p;
    size_t n, i;
    uint64_t rng; /* bulk data comes from a generator seeded by the input */
} fz_in;

unsigned fz_u8(fz_in *in);
unsigned fz_pick(fz_in *in, unsigned n);
uint64_t fz_rand(fz_in *in);

/* A cursor over the bytes of an input that the expression and text modes decode, and a
 * number below n from it (0 once the input runs out). */
typedef struct fz_bytes {
    const uint8_t *p;
    size_t n, at;
} fz_bytes;

static inline unsigned fz_take(fz_bytes *in, unsigned n) {
    const unsigned b = in->at < in->n ? in->p[in->at++] : 0u;
    return n <= 1 ? 0u : b % n;
}

/* ---- the real float formats by their widths (fuzz_compose_ref_scalar.c), so that one piece of
 * code serves float16, bfloat16, float32 and float64 where only the widths differ ---- */
typedef struct fz_float_format {
    int bits;      /* storage: the sign, then the exponent, then the fraction */
    int exp_bits;
    int frac_bits; /* the stored fraction (no hidden bit) */
} fz_float_format;

/* The format of a real float kind ('H', 'G', 'F', 'D' of ckt_scalar_info), else NULL. */
const fz_float_format *fz_float_format_of(int kind);
/* The value of the element at p, exactly (every float16 and bfloat16 is a float; a NaN
 * keeps its sign and the top of its payload, quieted). */
double fz_float_value(const fz_float_format *f, const unsigned char *p);
/* v rounded once to nearest, ties to even, subnormals and overflow to infinity included; a
 * NaN keeps its sign and the top of its payload, quieted (as x86 converts). */
void fz_float_round(const fz_float_format *f, double v, unsigned char *out);
/* 1 when the element at p is a NaN; the default quiet NaN (positive, only the quiet bit). */
int fz_float_is_nan(const fz_float_format *f, const unsigned char *p);
void fz_float_default_nan(const fz_float_format *f, unsigned char *out);

/* ---- types, as the fuzzer builds them (independent of ck_type) ---- */
typedef enum fz_kind {
    FZ_SCALAR,
    FZ_OPTION,
    FZ_FIXED,
    FZ_VAR,
    FZ_POINTER,
    FZ_TUPLE,
    FZ_STRUCT
} fz_kind;

typedef struct fz_type {
    fz_kind kind;
    ck_type_id id;         /* scalar and option: the value type */
    intptr_t n;            /* fixed: the size */
    struct fz_type *el;    /* fixed, var, pointer */
    int nf;                /* tuple, struct */
    struct fz_type *f[FZ_MAX_FIELDS];
    char name[FZ_MAX_FIELDS][4];
    /* derived, by the C layout rules of docs/design.md §6 */
    size_t size, align, amsize;
    size_t foff[FZ_MAX_FIELDS]; /* the C layout's field offsets */
    size_t fam[FZ_MAX_FIELDS];  /* where each field's arrmeta starts in the record's */
    int dims;                   /* fixed and var dimensions, through pointers */
    int blockref;               /* holds a var dim or a pointer */
} fz_type;

/* ---- memory the fuzzer owns: every buffer between guard bytes ---- */
#define FZ_GUARD 32
typedef struct fz_region {
    unsigned char *raw; /* FZ_GUARD + size + FZ_GUARD bytes */
    size_t size;
    int dst;            /* written by the kernel (the destination's) or only read */
    unsigned char *snap;
} fz_region;

/* One operand: its type, arrmeta and data pointer. */
typedef struct fz_operand {
    fz_type *t;
    ck_type *ck;
    char *am;   /* amsize bytes, 16-aligned (fz_case owns it) */
    char *data; /* the element's root */
} fz_operand;

typedef enum fz_op {
    FZ_OP_ASSIGN,    /* ck_make_assign */
    FZ_OP_CALL,      /* ck_make_call */
    FZ_OP_REDUCE,    /* ck_make_reduce (the reduction mode, below) */
    FZ_OP_ACCUMULATE /* ck_make_accumulate */
} fz_op;

/* The reduction mode: an input that starts with these bytes describes a reduction or an
 * accumulation (no earlier input starts with them, so the corpus keeps its meaning). */
#define FZ_REDUCE_MAGIC "CKRD"
/* The expression mode (fuzz_expr.c): an input that starts with these bytes is a random
 * expression over random arguments, built as one kernel and held against its evaluation
 * node by node; fz_expr_one takes the bytes after them. */
#define FZ_EXPR_MAGIC "CKEX"
int fz_expr_one(const uint8_t *data, size_t size);
/* The text mode (fuzz_text.c): an input that starts with these bytes is a text cast (text
 * <-> text, numbers <-> text) held against the reference of docs/design.md §16 there. */
#define FZ_TEXT_MAGIC "CKTX"
int fz_text_one(const uint8_t *data, size_t size);
/* The two-result and matmul mode (fuzz_ufunc.c): divmod, modf, frexp and matmul against
 * values computed there. */
#define FZ_UFUNC_MAGIC "CKUF"
int fz_ufunc_one(const uint8_t *data, size_t size);

/* The built-in operations a reduction folds with: sum prod min max all any, and the
 * accumulations cumsum cumprod cummin cummax (the first four). */
#define FZ_ROP_ADD 0
#define FZ_ROP_MULTIPLY 1
#define FZ_ROP_MINIMUM 2
#define FZ_ROP_MAXIMUM 3
#define FZ_ROP_AND 4
#define FZ_ROP_OR 5

/* A callable's signature, parsed from ck_callable_signatures. */
typedef struct fz_sig {
    int nargs;
    ck_type_id args[FZ_MAX_SRC];
    ck_type_id ret;
} fz_sig;

/* The fuzzer's own three-argument callable: sum3(a, b, c) = (a + b) + c. */
#define FZ_ARITH_ADD 0
#define FZ_ARITH_SUBTRACT 1
#define FZ_ARITH_MULTIPLY 2
#define FZ_ARITH_DIVIDE 3
#define FZ_ARITH_ASSIGN 4
#define FZ_ARITH_SUM3 5

typedef struct fz_case {
    fz_op op;
    int arith;            /* FZ_ARITH_* for calls */
    ck_callable *callable;
    int nsrc;
    fz_operand dst, src[FZ_MAX_SRC];
    ck_eval_ctx ctx;
    ck_errmode mode;      /* the concrete mode */
    ck_request req;       /* how the root is called */
    intptr_t root_count;  /* strided root: elements, and their strides */
    intptr_t root_dst_stride, root_src_stride[FZ_MAX_SRC];
    int cap;              /* CPU target cap, or -1 */
    size_t stream_threshold;
    int sig_status;       /* calls: what selection says */
    char sig_message[FZ_MSG];
    fz_sig sig;           /* the selected signature when sig_status is CK_OK */
    /* reductions and accumulations */
    int rop;              /* FZ_ROP_* */
    int axes[4];
    int naxes;            /* -1: every axis (axes NULL) */
    unsigned rflags;      /* CK_REDUCE_KEEPDIMS, CK_REDUCE_SKIPNA */
    int natural;          /* the destination is the result type ck_reduce_result_type gives */
    int tame;             /* float sources hold finite values of moderate size, so that sums
                             are not inf or NaN and their bits show the association */
    /* memory */
    fz_region *regions;
    size_t nregions, cap_regions;
    fz_type pool[160];
    int npool;
    _Alignas(16) char ambuf[FZ_MAX_SRC + 1][1024]; /* arrmeta is read as intptr_t */
} fz_case;

/* The reduction's (or accumulation's) name, as ck_reduction_lookup knows it. */
const char *fz_reduce_name(const fz_case *c);

/* ---- the generator ---- */
/* Decodes the input into c: 0 when the input describes nothing usable (too large, ...). */
int fz_generate(fz_case *c, fz_in *in);
void fz_case_free(fz_case *c);
/* The datashape of t in ckernel's canonical spelling. */
void fz_type_text(const fz_type *t, char *buf, size_t cap);
int fz_type_equal(const fz_type *a, const fz_type *b);
/* 1 when the arrmeta at am is t's default (C order, no var dims or pointers). */
int fz_arrmeta_is_default(const fz_type *t, const char *am);
void fz_default_arrmeta(const fz_type *t, char *am);

/* ---- what the reference expects ---- */
/* A place in the destination: an address in the fuzzer's memory (row < 0), or an offset in
 * a row the kernel is to allocate (row: index in fz_expect.rows). */
typedef struct fz_loc {
    int row;
    uintptr_t at;
} fz_loc;

typedef enum fz_write_kind {
    FZ_W_VALUE, /* the element must hold `e` (of type `id`) */
    FZ_W_KEEP,  /* a failing element: never written */
    FZ_W_BYTES  /* a byte copy of `bytes` (a record run, docs/design.md §12) */
} fz_write_kind;

typedef struct fz_write {
    fz_loc loc;
    uint32_t size;
    uint32_t seq; /* position in the reference's C order */
    fz_write_kind kind;
    ck_type_id id;
    ckt_expect e;
    int not_na; /* FZ_W_VALUE into an option: a NaN it may be must not have the NA's bits */
    const unsigned char *bytes;
} fz_write;

/* A destination row the kernel allocates: its ck_var_data is at `slot`. */
typedef struct fz_vrow {
    fz_loc slot;
    intptr_t n, stride;
    size_t elem_size;
    uint32_t seq;
    /* after the run */
    int allocated;
    char *begin;
} fz_vrow;

/* A failure the kernel may report: its status and message (or how to get the message: the
 * failing value's text comes from the scalar leaf itself, see fuzz_compose_ref_expect.c). */
typedef struct fz_fail {
    int status;
    uint32_t seq;
    char prefix[256];     /* "field a: " ... */
    char text[2][FZ_MSG]; /* the message (after the prefix); two spellings at most */
    int ntext;
    int leaf;             /* the text is the scalar leaf's for this conversion: */
    ck_type_id leaf_dst, leaf_src;
    ckt_elem leaf_value;
} fz_fail;

typedef struct fz_expect {
    int build_status; /* CK_OK when the kernel must build */
    char build_message[FZ_MSG];
    fz_write *writes;
    size_t nwrites, cap_writes;
    fz_vrow *rows;
    size_t nrows, cap_rows;
    fz_fail *fails;
    size_t nfails, cap_fails;
    uint32_t seq;
    int strict;       /* the kernel runs in the reference's C order (fuzz_compose.c) */
    int too_big;      /* the reference gave up (more work than an input may take) */
    int loose;        /* a failing reduction leaves partial accumulators: after a failure
                         only the bytes outside the destination's elements are compared */
} fz_expect;

/* Computes what building and running c must give. */
void fz_reference(const fz_case *c, fz_expect *x);
void fz_expect_free(fz_expect *x);
/* The full message of a failure: 1 when `msg` is what it says (FZ_ANY_NUMBER matching any
 * decimal number). */
int fz_fail_matches(const fz_case *c, fz_fail *f, const char *msg);

#endif
