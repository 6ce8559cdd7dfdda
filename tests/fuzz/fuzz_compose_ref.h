/* tests/fuzz/fuzz_compose_ref.h: what the parts of the composition fuzzer's reference share
 * (internal to them; the rest of the fuzzer sees fuzz_compose.h). The reference is:
 *   fuzz_compose_ref.c          the assignment and call reference: what building refuses,
 *                               and the element-by-element walk of the run; fz_reference
 *   fuzz_compose_ref_reduce.c   the reduction and accumulation reference
 *   fuzz_compose_ref_fold.c     the association of a float fold and the start values
 *   fuzz_compose_ref_scalar.c   scalars: NA, the float formats, conversions, arithmetic
 *   fuzz_compose_ref_expect.c   the expectation it records, and matching a kernel's message */
#ifndef CK_FUZZ_COMPOSE_REF_H
#define CK_FUZZ_COMPOSE_REF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz_compose.h"

#if defined(__GNUC__) || defined(__clang__)
#define REF_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define REF_PRINTF(fmt, args)
#endif

/* ---- walking state ---- */

typedef struct ref_ctx {
    intptr_t idx[64]; /* the index of every enclosing dimension, outermost first */
    int nidx;
    int dim;          /* destination dimensions above (var dimensions are named by it) */
    intptr_t call;    /* the element's index in the strided call that reaches it; -1: single */
    char prefix[256]; /* "field a: " for every record on the way */
} ref_ctx;

typedef struct ref_state {
    const fz_case *c;
    fz_expect *x;
} ref_state;

/* ---- the expectation (fuzz_compose_ref_expect.c) ---- */

/* The intptr_t of arrmeta at p. */
intptr_t ref_get_ip(const char *p);
/* The bytes [lo, hi) an element of t reaches from its start under its arrmeta am. */
void ref_alloc_extent(const fz_type *t, const char *am, intptr_t *lo, intptr_t *hi);
/* p with room for n + 1 elements of `elem` bytes (*cap of them). */
void *ref_grow(void *p, size_t *cap, size_t n, size_t elem);
fz_write *ref_add_write(fz_expect *x, fz_loc at, uint32_t size, fz_write_kind kind);
fz_fail *ref_add_fail(fz_expect *x, int status, const char *prefix);
/* Spelling i of a failure's message. */
REF_PRINTF(3, 4) void ref_set_text(fz_fail *f, int i, const char *fmt, ...);
fz_loc ref_loc_add(fz_loc l, intptr_t off);
fz_loc ref_real_loc(const void *p);
void ref_push_index(ref_ctx *ctx, intptr_t i);
/* "WHAT D at [i][j]: body", a located failure. */
REF_PRINTF(5, 0)
void ref_located_v(ref_state *r, const ref_ctx *ctx, int status, const char *what,
                   const char *fmt, va_list ap);
/* A type as the library's build errors show it (cut after FZ_SHOWN bytes). */
#define FZ_SHOWN 200
void ref_shown_text(const fz_type *t, char *buf, size_t cap);
/* A failing conversion, its message the scalar leaf's own. */
void ref_fail_leaf(ref_state *r, const ref_ctx *ctx, int status, ck_type_id d, ck_type_id s,
                   const unsigned char *value);
void ref_write_value(ref_state *r, fz_loc dl, ck_type_id id, const ckt_expect *e);
void ref_write_option_value(ref_state *r, fz_loc dl, ck_type_id id, const ckt_expect *e);

/* ---- scalars (fuzz_compose_ref_scalar.c) ---- */

int ref_is_na(ck_type_id id, const unsigned char *p);
/* The n low bytes at p, unsigned. */
uint64_t ref_load_u(const unsigned char *p, size_t n);
/* The format of a float that computes in float32 (float16, bfloat16), else NULL. */
const fz_float_format *ref_narrow_format(ck_type_id id);
float ref_narrow_to_float(const fz_float_format *f, const unsigned char *p);
void ref_float_to_narrow(const fz_float_format *f, float v, unsigned char *out);
/* The oracle's conversion, its NaN parts filled in as x86 converts. */
ckt_expect ref_convert(ck_type_id d, ck_type_id s, int mode, const unsigned char *src);
/* e's NaN parts marked free. */
void ref_mark_nan(ckt_expect *e, ck_type_id id);
/* Each float part of the option's NA bits made the default quiet NaN. */
void ref_canon_na(ck_type_id id, unsigned char *p);
/* out = a op b (FZ_ARITH_*) in type id: CK_OK, or CK_ERR_ZERO_DIVISION. */
int ref_arith2(int op, ck_type_id id, const unsigned char *a, const unsigned char *b,
               ckt_expect *out);
/* out = a op b (FZ_ROP_*) in type id, as a reduction's element operation. */
void ref_elem_op(int rop, ck_type_id id, const unsigned char *a, const unsigned char *b,
                 unsigned char *out);

/* ---- folds (fuzz_compose_ref_fold.c) ---- */

/* acc = op(acc, F(x[0..n))) with §14's association of a float or complex fold. */
void ref_fold_tree(int rop, ck_type_id id, unsigned char *acc, const ckt_elem *x, size_t n);
/* The accumulator's start value of op in type id. */
void ref_start_value(int rop, ck_type_id id, unsigned char *out);

/* ---- reductions and accumulations (fuzz_compose_ref_reduce.c) ---- */

void ref_reduce(const fz_case *c, fz_expect *x);

#endif
