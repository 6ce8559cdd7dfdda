/* ckernel/eval.h: the evaluation context: how checked assignments are, what the data may
 * look like, and (for later fields) how evaluation runs. A plain struct: initialise it with
 * CK_EVAL_CTX_INIT and change the fields you need; NULL where a context is taken means
 * CK_EVAL_CTX_INIT. */
#ifndef CKERNEL_EVAL_H
#define CKERNEL_EVAL_H

#include <stddef.h>

#include "ckernel/export.h"

CK_BEGIN_DECLS

/* Error modes of assignments (docs/design.md §7). Each checked mode includes the checks of
 * the modes before it: OVERFLOW (range, NaN to integer, finite to inf, non-0/1 to bool,
 * non-zero imaginary parts), FRACTIONAL (+ dropped fractional parts), INEXACT (+ any value
 * that does not round-trip). DEFAULT means "the context's mode". */
typedef enum ck_errmode {
    CK_ERRMODE_NOCHECK = 0,
    CK_ERRMODE_OVERFLOW = 1,
    CK_ERRMODE_FRACTIONAL = 2,
    CK_ERRMODE_INEXACT = 3,
    CK_ERRMODE_DEFAULT = 4
} ck_errmode;
#define CK_NUM_ERRMODES 4 /* the concrete modes, NOCHECK .. INEXACT */

/* Flags. The unaligned ones say the data pointers handed to a kernel may not be aligned to
 * their element types (ck_assign sets them itself from the actual pointers). FLUSH_DENORMALS
 * runs kernels with denormals flushed to zero (x86 FTZ and DAZ, Arm FZ), serially and on
 * every thread of a parallel evaluation, the caller's mode restored afterwards. */
#define CK_EVAL_SRC_UNALIGNED 0x1u
#define CK_EVAL_DST_UNALIGNED 0x2u
#define CK_EVAL_FLUSH_DENORMALS 0x4u
/* Callables: selection may use signatures that need an unsafe argument conversion. */
#define CK_EVAL_ALLOW_UNSAFE 0x8u
/* The JIT leaf (ckernel/jit.h): compile every nest that can be compiled / never compile. */
#define CK_EVAL_JIT 0x10u
#define CK_EVAL_NO_JIT 0x20u
/* Struct <- struct matches fields by position instead of by name (the default). The
 * caller's explicit choice: NumPy changed its default between releases, and code that
 * relied on the other one broke silently. */
#define CK_EVAL_FIELDS_BY_POSITION 0x40u
/* Floating-point errors are statuses, as np.errstate(all="raise") makes them exceptions
 * (underflow aside): an invalid operation (a NaN result of non-NaN arguments) is
 * CK_ERR_DOMAIN, a division by zero (integer floor_divide, remainder and fmod too)
 * CK_ERR_ZERO_DIVISION, an overflow CK_ERR_OVERFLOW; the message names the function, the
 * values and the element. Without it math is silent: IEEE's results, NumPy's values. */
#define CK_EVAL_FP_ERRORS 0x80u
/* Kernels run in the IEEE default floating-point environment whatever the calling thread's
 * mode (round to nearest even, no flush to zero, no denormals as zero: the root of every
 * kernel the makers build sets it per call and gives the caller its mode back, with the
 * exception flags the work raised added to the caller's). HOST_FP_ENV runs them in the
 * caller's mode instead, for a host that sets a rounding direction on purpose; the results
 * then are that mode's, and the JIT's and the reductions' equalities are not promised. */
#define CK_EVAL_HOST_FP_ENV 0x100u

typedef struct ck_eval_ctx {
    ck_errmode errmode; /* CK_ERRMODE_DEFAULT here means FRACTIONAL */
    unsigned flags;     /* CK_EVAL_* */
    int max_threads;    /* parallel evaluation: 0 = ck_get_num_threads() */
    int reserved_int[5];
    size_t grain_bytes; /* parallel evaluation: minimum bytes per task; 0 = the default */
    size_t reserved_size[3];
} ck_eval_ctx;

#define CK_EVAL_CTX_INIT {CK_ERRMODE_FRACTIONAL, 0u, 0, {0, 0, 0, 0, 0}, 0, {0, 0, 0}}

/* "nocheck", "overflow", "fractional", "inexact", "default"; NULL for other values. */
CK_EXTERN const char *ck_errmode_name(ck_errmode mode);
/* Parses those names; CK_ERR_INVALID (with a message listing them) for anything else. */
CK_EXTERN int ck_errmode_parse(const char *name, ck_errmode *out);

CK_END_DECLS

#endif
