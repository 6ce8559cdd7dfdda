/* ckernel/parallel.h: multithreaded evaluation (on oneTBB; a serial fallback when ckernel is
 * built with CK_WITH_TBB=OFF, with the same API and results).
 *
 * Work is split over the outermost dimension into ranges of at least ck_eval_ctx.grain_bytes
 * of destination (0 = CK_PARALLEL_DEFAULT_GRAIN_BYTES) and run on up to
 * ck_eval_ctx.max_threads threads (0 = ck_get_num_threads()). The calling thread takes part
 * and the call returns when every range is done. Each call runs in its own oneTBB task arena,
 * isolated, so a kernel may itself make parallel calls (nested calls cannot deadlock nor run
 * the outer call's work). Work smaller than two grains, one thread, or a destination stride
 * of 0 runs serially on the calling thread.
 *
 * Errors: the first range that fails wins. The other ranges are cancelled (ranges already
 * running stop at their next grain boundary); the call returns that range's status and the
 * calling thread's ck_last_error() holds the failing thread's message. As with a serial
 * call, elements other than the failing one may or may not have been written.
 *
 * Every thread that runs a range (the caller included) runs it in the IEEE default FP
 * environment and restores its own mode afterwards (ckernel/eval.h, CK_EVAL_HOST_FP_ENV);
 * with CK_EVAL_FLUSH_DENORMALS in ck_eval_ctx.flags, with denormals flushed to zero (x86
 * MXCSR FTZ and DAZ, Arm FZ; nothing on other architectures). */
#ifndef CKERNEL_PARALLEL_H
#define CKERNEL_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/array.h"
#include "ckernel/callable.h"
#include "ckernel/eval.h"
#include "ckernel/export.h"
#include "ckernel/expr.h"
#include "ckernel/kernel.h"

CK_BEGIN_DECLS

/* The grain when ck_eval_ctx.grain_bytes is 0: 64 KiB of destination per task. */
#define CK_PARALLEL_DEFAULT_GRAIN_BYTES ((size_t)65536)

/* Runs the strided function of `kernel` (built with CK_REQUEST_STRIDED) over `count`
 * elements in parallel: element i is at dst + i*dst_stride and src[0] + i*src_stride[0].
 * For kernels with exactly one source (assignment kernels: ck_make_assign, or user kernels
 * with one source); `src` and `src_stride` hold one entry each. The kernel must follow the
 * thread-safety contract (immutable while it runs, disjoint output per element). A task
 * covers ceil(grain_bytes / |dst_stride|) elements or more (with dst_stride 0, the call is
 * serial). ectx NULL means CK_EVAL_CTX_INIT; only max_threads, grain_bytes and the
 * FLUSH_DENORMALS and HOST_FP_ENV flags are read. count 0 does nothing and returns CK_OK. CK_ERR_INVALID for
 * a NULL kernel, function, src or src_stride (with count > 0) or a negative max_threads. */
CK_EXTERN int ck_parallel_strided(ck_prefix *kernel, char *dst, intptr_t dst_stride,
                                  char *const *src, const intptr_t *src_stride, size_t count,
                                  const ck_eval_ctx *ectx);

/* dst <- src like ck_assign, with the outermost dimension split across threads: the kernel
 * for one element of dst's outermost fixed dimension is built once (ck_make_assign on the
 * element types), a missing or size-1 source dimension broadcasts (source stride 0), and the
 * rows run in parallel; var dimensions below allocate from the destination's arena, which
 * is thread-safe. When the destination's outermost level is not a fixed dimension (var,
 * pointer or scalar), the source's outermost level cannot be split likewise (var, pointer,
 * or a size mismatch to report), or the work is small, it runs serially through ck_assign.
 * Results, statuses and messages are those of ck_assign. */
CK_EXTERN int ck_parallel_assign(const ck_array *dst, const ck_array *src,
                                 const ck_eval_ctx *ectx);

/* dst <- c(src[0], ..., src[nsrc-1]) like ck_call, split over dst's outermost fixed
 * dimension as ck_parallel_assign splits it: every source's outermost level is its own fixed
 * dimension of the same size (rows split with it), of size 1 or missing (broadcast to every
 * row); anything else, or small work, runs serially through ck_call. Results, statuses and
 * messages are those of ck_call. */
CK_EXTERN int ck_parallel_call(ck_callable *c, const ck_array *dst, int nsrc,
                               const ck_array *const *src, const ck_eval_ctx *ectx);

/* dst <- e(src[0], ..., src[nargs-1]) like ck_expr_eval (ckernel/expr.h: `names` names the
 * sources, NULL for the expression's order), split over dst's outermost fixed dimension as
 * ck_parallel_call splits it: the kernel of one row (ck_make_expr over the rows' types) is
 * built once and the rows run in parallel; anything else, or small work, runs serially
 * through ck_expr_eval. Results (bit for bit), statuses and messages are ck_expr_eval's; a
 * failing node's message counts elements within its chunk of a run, and a split run is one
 * thread's rows where the serial one may join them all, so that index may differ. */
CK_EXTERN int ck_parallel_expr(const ck_expr *e, const ck_array *dst, int nargs,
                               const char *const *names, const ck_array *const *src,
                               const ck_eval_ctx *ectx);

/* dst <- r(src) like ck_reduce, split across threads with the same result, bit for bit,
 * whatever the number of threads (and CPU target): when the source's outermost dimension is
 * kept (fixed on both sides) its rows run in parallel, each result element folded by one
 * thread as serially; when every dimension is reduced and the source is one contiguous run of
 * the accumulator's type under a built-in operation (sum, prod, min, max, all, any), the run
 * is cut into chunks of 65536 elements whose partial folds run in parallel, and float folds
 * finish their fixed tree (docs/design.md §14) on the calling thread. Anything else, and
 * small work, runs serially through ck_reduce. The grain (ck_eval_ctx.grain_bytes) counts
 * bytes of source per task here (0: 256 KiB). Results, statuses and messages are
 * ck_reduce's. */
CK_EXTERN int ck_parallel_reduce(const ck_reduce_spec *r, const ck_array *dst,
                                 const ck_array *src, const ck_eval_ctx *ectx);

/* Sets the default number of threads of parallel calls (ck_eval_ctx.max_threads 0):
 * n > 0 uses n threads at most, 0 goes back to all hardware threads. Negative n is
 * CK_ERR_INVALID. More threads than the machine has are allowed but oneTBB's worker pool
 * (one per hardware thread) caps what runs at once. The serial backend accepts the call and
 * keeps running on one thread. Thread-safe; calls already running are not affected. */
CK_EXTERN int ck_set_num_threads(int n);
/* The default number of threads of parallel calls: the last ck_set_num_threads value, or
 * when none (or 0) the hardware threads available to the process. Always 1 with the serial
 * backend. */
CK_EXTERN int ck_get_num_threads(void);
/* From inside a kernel that a parallel call is running: 1 once another range of the same
 * call has failed (the call is cancelled and will return that failure), else 0. A kernel
 * with long blocks may poll it and return early; what it returns then is ignored. Once it
 * has returned 1 on a thread, that thread starts no further block of the call, so after a
 * failure each thread starts at most one block that sees 1 on entry. Nested calls see their
 * own state. 0 outside a parallel call and always with the serial backend. */
CK_EXTERN int ck_parallel_cancelled(void);
/* "oneTBB 2021.8" (the runtime's version) or "serial". A static string. */
CK_EXTERN const char *ck_parallel_backend(void);

CK_END_DECLS

#endif
