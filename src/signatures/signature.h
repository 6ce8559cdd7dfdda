/* src/signatures/signature.h: signatures of callables' leaves, the conversion kinds that
 * selection ranks them by, and the selection (docs/design.md §10). Internal: the callables
 * (src/callables) select through it.
 *
 * A signature is N argument scalar types and one result scalar type, or two (NumPy's
 * divmod, modf, frexp: the leaf writes both into a C struct of the two, the tuple type of
 * ck__signature_result), written either way:
 *   (float64, float64) -> float64    datashape style: scalar names, whitespace free
 *   (float64) -> (float64, int32)    two results: a tuple of two scalars
 *   dd)d, d)di                       compact: argument letters, ')', the result letter(s)
 * Letters (fixed widths, as on LP64): ? bool; b h i l q int8 int16 int32 int64 int64;
 * B H I L Q the unsigned ones; e f d float16 float32 float64; E bfloat16 (ckernel's own: NumPy
 * has none); Zf Zd complex64 complex128 (the letters are the scalar table's).
 * Both parse to one ck__signature; errors are CK_ERR_PARSE with the 1-based column. */
#ifndef CKERNEL_SIGNATURE_H
#define CKERNEL_SIGNATURE_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/eval.h"
#include "ckernel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CK__SIG_MAX_ARGS 16

typedef struct ck__signature {
    int nargs;
    ck_type_id args[CK__SIG_MAX_ARGS];
    ck_type_id ret;  /* the result, or the first of two */
    int nret;        /* 1, or 2 (ret2 the second) */
    ck_type_id ret2;
} ck__signature;

/* The type a signature's leaf writes: its scalar (borrowed: the caller decrefs it as
 * usual, which scalars ignore), or the tuple of its two results (a new reference). */
int ck__signature_result(const ck__signature *sig, ck_type **out);

/* Core dimensions of a datashape-style signature ("(N * float64, N * float64) -> float64"):
 * per argument (ndim[k], dim[k]) and, at index CK__SIG_MAX_ARGS, the result's, outermost
 * first. A dimension is a fixed size (>= 0), CK__CORE_VAR, or CK__CORE_SYM(s) for symbol s
 * (the names in order of first appearance). The compact form has none. */
#define CK__CORE_MAX_DIMS 4
#define CK__CORE_MAX_SYMS 8
#define CK__CORE_VAR (-1)
#define CK__CORE_SYM(s) (-2 - (s))
#define CK__CORE_SYM_INDEX(d) (-2 - (d))
typedef struct ck__core_sig {
    int any; /* 0: every operand is a scalar (the rest is zero) */
    int nsyms;
    uint8_t ndim[CK__SIG_MAX_ARGS + 1];
    int32_t dim[CK__SIG_MAX_ARGS + 1][CK__CORE_MAX_DIMS];
    char sym[CK__CORE_MAX_SYMS][16];
} ck__core_sig;

/* Parses either form (datashape style when the first non-blank character is '('). Core
 * dimensions are CK_ERR_PARSE ("... takes scalars only"). */
int ck__signature_parse(const char *text, ck__signature *out);
/* The same, taking core dimensions into *core (zeroed first). The result's may not be var,
 * and its symbols must appear in an argument (CK_ERR_PARSE at their column otherwise); two
 * results take none. */
int ck__signature_parse_core(const char *text, ck__signature *out, ck__core_sig *core);
/* 1 when a and b have the same core dimensions (symbols compared by their order). */
int ck__core_sig_same(const ck__core_sig *a, const ck__core_sig *b);
/* "(float64, float64) -> float64" / "dd)d" (int64 as q, uint64 as Q) into buf; the length
 * written, or the length needed when it does not fit (like snprintf). */
size_t ck__signature_format(const ck__signature *sig, char *buf, size_t cap);
/* The datashape style with core dimensions ("(N * float64, N * float64) -> float64"); core
 * NULL or without any: as ck__signature_format. */
size_t ck__signature_format_core(const ck__signature *sig, const ck__core_sig *core, char *buf,
                                 size_t cap);
size_t ck__signature_format_compact(const ck__signature *sig, char *buf, size_t cap);

/* How a value of one scalar type goes to another, best first (Numba's kinds, and one more):
 *   EXACT    the same type
 *   PROMOTE  the same kind (signed, unsigned, float, complex), wider: lossless
 *   SAFE     another kind, lossless for every value (bool -> any, uint8 -> int16,
 *            int16 -> float32, int32 -> float64, float32 -> complex64, ...)
 *   INEXACT  an integer to float64 or complex128 that the 53-bit significand cannot hold
 *            (int64, uint64): always in range, may round (only the INEXACT error mode can
 *            fail it). Numba calls int64 -> float64 safe so that int64 + float64 types as
 *            float64; a kind of its own keeps SAFE lossless and still ranks it above UNSAFE
 *   UNSAFE   may lose a value (narrowing, int64 -> float32, float -> int, complex -> real,
 *            signed <-> unsigned of no greater width, anything but bool -> bool)
 *   NONE     no conversion; never the case between two scalars, which all
 *            convert (kept for non-scalar arguments) */
typedef enum ck__conversion {
    CK__CONV_EXACT,
    CK__CONV_PROMOTE,
    CK__CONV_SAFE,
    CK__CONV_INEXACT,
    CK__CONV_UNSAFE,
    CK__CONV_NONE
} ck__conversion;

ck__conversion ck__conversion_kind(ck_type_id from, ck_type_id to);
/* "exact", "promote", "safe", "inexact", "unsafe", "none". */
const char *ck__conversion_name(ck__conversion c);
/* 1 when a conversion of kind c may fail in the (concrete) error mode: an unsafe one in any
 * mode, an inexact one in INEXACT only (it never leaves the range), a lossless one never. A
 * kernel whose conversion cannot fail is the same code in every mode (NOCHECK's). */
static inline int ck__conversion_can_fail(ck__conversion c, ck_errmode mode) {
    return c >= CK__CONV_UNSAFE || (c == CK__CONV_INEXACT && mode == CK_ERRMODE_INEXACT);
}

/* ---- best-match selection (Numba's rule) ---- */

/* How well argument types fit a signature: counts of conversions of each kind, then the
 * bytes the promote, safe and inexact conversions widen by in all. Ranked by (unsafe,
 * inexact, safe, promote, widen), lexicographically, lowest first: Numba's counts with the
 * inexact ones between unsafe and safe, then the narrowest fit (so add(int8, uint8) picks
 * (int16, int16) over (int32, int32), and add(int64, uint64) (float64, float64) over
 * (complex128, complex128), as NumPy's promotion does). */
typedef struct ck__rating {
    int unsafe, inexact, safe, promote, widen;
} ck__rating;

/* The rating packed in one integer, which compares as the rating does: 12-bit fields, from
 * the top, unsafe, inexact, safe and promote counts and the bytes of widening (at most 16
 * arguments and 16 x 15 bytes: no field overflows), so rating a signature is a sum of its
 * arguments' shares, ck__rating_steps[from][to] (computed by the compiler from the same
 * rules as the kinds). */
#define CK__RATING_PROMOTE_SHIFT 12
#define CK__RATING_SAFE_SHIFT 24
#define CK__RATING_INEXACT_SHIFT 36
#define CK__RATING_UNSAFE_SHIFT 48
extern const uint64_t ck__rating_steps[CK_NUM_SCALAR_TYPES][CK_NUM_SCALAR_TYPES];

/* Rates `args` against sig: 1 and *out when the arity agrees and no argument is NONE,
 * else 0. */
int ck__rate(const ck__signature *sig, const ck_type_id *args, int nargs, ck__rating *out);
/* <0, 0, >0 as a ranks better than, equal to, worse than b. */
int ck__rating_compare(const ck__rating *a, const ck__rating *b);
/* "exact", or "0 unsafe, 1 inexact, 1 safe, 0 promote, 7 bytes wider", into buf (cap bytes,
 * truncated like snprintf). */
void ck__rating_format(const ck__rating *r, char *buf, size_t cap);

/* Picks the best of `n` candidate signatures of the callable `name` for `args`: *best is its
 * index, *rating its rating. Candidates needing an unsafe conversion are dropped unless
 * allow_unsafe. The choice depends only on the set of candidates, never on their order.
 * No candidate left: CK_ERR_TYPE, listing every candidate and why it does not fit. A tie for
 * best: CK_ERR_AMBIGUOUS, listing the tied signatures and their rating. */
int ck__select(const char *name, const ck__signature *cands, int n, const ck_type_id *args,
               int nargs, int allow_unsafe, int *best, ck__rating *rating);

/* NumPy's safe casting of one scalar type to another (np.can_cast(from, to, "safe") for the
 * types NumPy has; bfloat16 by the same rules): the same type; from bool; an integer to one
 * of its kind that holds it, an unsigned one to a wider signed one; an integer to a float or
 * complex whose component is wider than it (or float64, the widest: int64 and uint64 cast to
 * it "safely" in NumPy); a float to a float or complex whose format holds it; a complex to a
 * wider complex. 1 or 0 (0 for ids that are no scalars). */
int ck__numpy_safe(ck_type_id from, ck_type_id to);
/* Selection by NumPy's ufunc rule (CK_SELECT_FIRST_SAFE): the candidate lowest in `order`
 * (the order of registration) to which every argument casts safely (ck__numpy_safe). None:
 * with allow_unsafe, ck__select's best-rated choice; without, CK_ERR_TYPE listing the
 * candidates. *rating as ck__select's. */
int ck__select_first_safe(const char *name, const ck__signature *cands, const int *order, int n,
                          const ck_type_id *args, int nargs, int allow_unsafe, int *best,
                          ck__rating *rating);

#ifdef __cplusplus
}
#endif

#endif
