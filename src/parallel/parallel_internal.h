/* src/parallel/parallel_internal.h: what the backend-independent front end (parallel.c, C)
 * and a backend (tbb_backend.cpp, the only C++ in the library, or serial_backend.c) share.
 * Included from C and from C++; plain C types only.
 *
 * The front end validates arguments, resolves the context, decides what runs serially, and
 * plans the split: a job of `count` elements cut into blocks of `grain` elements (the last
 * one shorter). A backend runs the blocks on up to `threads` threads through
 * ck__par_run_piece inside a ck__par_fpenv_enter/leave pair per task, and reports the first
 * failure: its status is returned and its message set on the calling thread. */
#ifndef CKERNEL_PARALLEL_INTERNAL_H
#define CKERNEL_PARALLEL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/kernel.h"
#include "common/fp_env.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ck__par_job {
    ck_prefix *kernel;
    ck_strided_fn fn;
    char *dst;
    intptr_t dst_stride;
    int nsrc; /* 1 .. 16 */
    char *src[16];
    intptr_t src_stride[16];
    size_t count;  /* elements, >= 2 */
    size_t grain;  /* elements per block, 1 <= grain <= count / 2 */
    int threads;   /* >= 2: the task arena's concurrency */
    unsigned flags; /* the context's CK_EVAL_* flags */
    unsigned long long fp_mode; /* the FP mode every task runs in (ck__par_fp_mode) */
} ck__par_job;

/* Runs elements [begin, end) of the job: one call of its strided function. */
int ck__par_run_piece(const ck__par_job *job, size_t begin, size_t end);

/* The status of a failed serial run, with the status's fixed message set when the kernel
 * failed without recording a message of its own (as a parallel run reports it). */
int ck__par_serial_status(int rc);

/* Floating-point environment of a task (common/fp_env.h, out of line for the C++ backend):
 * enter sets the job's mode in this thread and returns what to restore; leave restores the
 * mode, keeping the flags the task raised. */
ck__fp_env ck__par_fpenv_enter(unsigned long long mode);
/* The mode tasks run in: the IEEE default (denormals flushed under CK_EVAL_FLUSH_DENORMALS),
 * or under CK_EVAL_HOST_FP_ENV the calling thread's, which the workers then take too. */
unsigned long long ck__par_fp_mode(unsigned flags);
void ck__par_fpenv_leave(ck__fp_env env);

/* ---- the backend ---- */

/* Runs the whole job; returns CK_OK or the first failure's status, with its message set on
 * the calling thread. Never lets a C++ exception out. */
int ck__par_backend_run(const ck__par_job *job);
/* 1 when the calling thread runs a range of a parallel call in which a range has failed. */
int ck__par_backend_cancelled(void);
/* Threads the hardware (and the process's affinity mask) offers; 1 for the serial backend. */
int ck__par_backend_hardware_threads(void);
/* 1 when the backend really runs on several threads. */
int ck__par_backend_is_parallel(void);
/* "oneTBB 2021.8" or "serial"; a static string. */
const char *ck__par_backend_name(void);

/* Capacity of a message copied from a worker: ck_last_error()'s own capacity. */
#define CK__PAR_MESSAGE_BYTES 1024

/* ThreadSanitizer does not see the synchronisation inside an uninstrumented libtbb: these
 * annotate the happens-before edges that the task scheduler really provides (the caller's
 * writes before a parallel call -> every task; every task -> the caller after the call).
 * They add no edge between tasks, so races between ranges stay visible. */
#if defined(__SANITIZE_THREAD__)
#  define CK__PAR_TSAN 1
#elif defined(__has_feature)
#  if __has_feature(thread_sanitizer)
#    define CK__PAR_TSAN 1
#  endif
#endif
#ifdef CK__PAR_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#  define CK__PAR_HB_RELEASE(addr) __tsan_release((void *)(addr))
#  define CK__PAR_HB_ACQUIRE(addr) __tsan_acquire((void *)(addr))
#else
#  define CK__PAR_HB_RELEASE(addr) ((void)0)
#  define CK__PAR_HB_ACQUIRE(addr) ((void)0)
#endif

#ifdef __cplusplus
}
#endif

#endif
