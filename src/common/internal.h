/* src/common/internal.h: helpers shared by every ckernel source file (never installed). */
#ifndef CKERNEL_INTERNAL_H
#define CKERNEL_INTERNAL_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>

#include "ckernel/alloc.h"
#include "ckernel/status.h"

/* Every float and double operation rounds to its own type, as the bits promised across hosts
 * assume (an x87 or s390x build in excess precision rounds twice: CMakeLists.txt). */
#if !defined(FLT_EVAL_METHOD) || (FLT_EVAL_METHOD != 0 && FLT_EVAL_METHOD != -1)
#error "ckernel needs FLT_EVAL_METHOD 0: build with SSE2 math or -fexcess-precision=fast"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Forward a failing status to the caller (zstd's FORWARD_IF_ERROR). The callee has already
 * set the thread-local message. */
#define CK__RETURN_IF_ERROR(expr)          \
    do {                                  \
        int ck__rc_ = (expr);             \
        if (ck__rc_ != CK_OK) {           \
            return ck__rc_;               \
        }                                 \
    } while (0)

#if defined(__GNUC__) || defined(__clang__)
#  define CK__LIKELY(x) __builtin_expect(!!(x), 1)
#  define CK__UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#  define CK__LIKELY(x) (x)
#  define CK__UNLIKELY(x) (x)
#endif

#define CK__ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Kernel functions with a loop start on a 64-byte boundary, so where their loops fall
 * relative to the 64-byte fetch blocks of the instruction (op) cache depends on their own
 * code only, not on the size of everything linked before them. A one-element loop that
 * straddles two blocks takes two cycles per element instead of one: editing one leaf made
 * untouched baseline leaves 1.7-2.7x slower in cache by moving them 32 bytes, and editing
 * the tiled kernel made the untouched call_args and strided_dim kernels ~12% slower on
 * elementwise/add-int32+float64 by moving them 16-32 bytes. */
#if defined(__GNUC__) || defined(__clang__)
#  define CK__KERNEL_ALIGN __attribute__((aligned(64)))
#else
#  define CK__KERNEL_ALIGN
#endif

/* ---- allocation (src/common/alloc.c is the only file that knows the backend) ---- */
void *ck__malloc(size_t size);
void *ck__calloc(size_t n, size_t size);
void *ck__realloc(void *ptr, size_t size);
void ck__free(void *ptr);
/* The size the allocator really gives for `size` bytes (>= size). */
size_t ck__good_size(size_t size);
/* Metadata that lives as long as the process may (callables, the registry): the default
 * allocator, never the installed one, not counted in ck_get_alloc_stats. */
void *ck__meta_calloc(size_t n, size_t size);
void ck__meta_free(void *ptr);
/* A copy of s in ckernel memory (freed with ck__free/ck_free); NULL on failure. */
char *ck__strdup(const char *s);

/* ---- overflow-checked size arithmetic: 0 on success, 1 on overflow ---- */
static inline int ck__add_overflow(size_t a, size_t b, size_t *out) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_add_overflow(a, b, out);
#else
    *out = a + b;
    return *out < a;
#endif
}
static inline int ck__mul_overflow(size_t a, size_t b, size_t *out) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_mul_overflow(a, b, out);
#else
    *out = a * b;
    return a != 0 && *out / a != b;
#endif
}

/* Sets the message only (status recorded too); returns status. */
int ck__set_error_str(int status, const char *msg);

/* The allocation limit's refusal (alloc.c): CK_ERR_NOMEM with this message, marked as the
 * limit's until the next error is set. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 1, 2)))
#endif
int ck__set_alloc_limit_error(const char *fmt, ...);
/* alloc.c, on a NULL that is not the limit's (the backend's, an overflowing size): a refusal
 * recorded earlier on this thread is not the reason for this one. */
void ck__clear_alloc_limit_mark(void);
/* For the caller of ck__malloc/ck__calloc/ck__realloc/ck_malloc/ck_calloc that just got
 * NULL: CK_ERR_NOMEM with this message, unless the NULL was the allocation limit's refusal,
 * whose message (the request, the bytes held, the limit and who set it) is more precise and
 * stays. Returns CK_ERR_NOMEM. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 1, 2)))
#endif
int ck__nomem_error(const char *fmt, ...);

/* Located errors: a kernel deep in a tree reports what failed at which dimension, and the
 * loops the failure unwinds through add the indices of the elements they were at, so the
 * message names the row: "var dimension 2 at [3][4]: cannot broadcast ...". Only the
 * failure path pays.
 *   ck__set_located_error  sets status and message "<what> <dim>: <body>" (what: a static
 *                          string) and opens the location; with what NULL (a leaf's failing
 *                          element, dim unused) the message is "<body> at element [i][j]",
 *                          or the body alone at the top
 *   ck__error_at           from a loop whose element `index` failed with status rc:
 *                          prepends [index] when the last error is a located one with that
 *                          status (any other ck_set_error closes it)
 *   ck__error_offset_outer adds delta to the outermost index (a parallel range that started
 *                          at element `delta` of the outer loop) */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
int ck__set_located_error(int status, const char *what, int dim, const char *fmt, ...);
void ck__error_at(int rc, intptr_t index);
/* From a kernel whose part failed with rc: puts the formatted text in front of the last
 * error's message ("field y: " + the leaf's; in front of an element's own failure's body,
 * before "at element [i]"), unless the error is located at a dimension (its loops name the
 * place), is the allocation limit's refusal (kept whole) or is not rc's. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
void ck__error_prefix(int rc, const char *fmt, ...);
void ck__error_offset_outer(int rc, intptr_t delta);

/* CK__RETURN_IF_ERROR for the call on element `index` of a dimension loop: the failing
 * element's index goes into a located error's message (ck__error_at) on the way out. */
#define CK__RETURN_IF_ERROR_AT(index, expr)            \
    do {                                              \
        int ck__rc_ = (expr);                         \
        if (CK__UNLIKELY(ck__rc_ != CK_OK)) {          \
            ck__error_at(ck__rc_, (intptr_t)(index)); \
            return ck__rc_;                           \
        }                                             \
    } while (0)

/* CK__RETURN_IF_ERROR for a call over the part of a run that starts at element `first` (a
 * chunk): a located error's index counts in the whole run, as if the run had been one call. */
#define CK__RETURN_IF_ERROR_FROM(first, expr)                    \
    do {                                                        \
        int ck__rc_ = (expr);                                   \
        if (CK__UNLIKELY(ck__rc_ != CK_OK)) {                    \
            ck__error_offset_outer(ck__rc_, (intptr_t)(first)); \
            return ck__rc_;                                     \
        }                                                       \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif
