/* ckernel/alloc.h: the allocator ckernel uses for everything it allocates.
 * By default that is a private copy of jemalloc linked inside ckernel (it never replaces the
 * host process's malloc/free/new). A host can install its own allocator. Anything ckernel
 * hands out to be freed by the caller is freed with ck_free. */
#ifndef CKERNEL_ALLOC_H
#define CKERNEL_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/export.h"

CK_BEGIN_DECLS

/* All callbacks receive `ctx`. malloc/calloc/realloc return NULL on failure (calloc must
 * check n * size for overflow); free accepts NULL. good_size may be NULL; when set it
 * returns the usable size the allocator would really give for a request of n bytes, so that
 * growing buffers can use the whole size class. Callbacks must be thread-safe. Each request
 * is alignof(max_align_t) bytes larger than ckernel's caller asked for (the block starts with
 * a record of its size, for ck_get_alloc_live_bytes), and calloc is called with n = 1. */
typedef struct ck_allocator {
    void *(*malloc)(void *ctx, size_t size);
    void *(*calloc)(void *ctx, size_t n, size_t size);
    void *(*realloc)(void *ctx, void *ptr, size_t size);
    void (*free)(void *ctx, void *ptr);
    size_t (*good_size)(void *ctx, size_t size);
    void *ctx;
} ck_allocator;

/* Installs `a` (copied), or the default allocator when `a` is NULL. Memory must be freed by
 * the allocator that gave it, so this fails with CK_ERR_INVALID while any ckernel allocation
 * is live (see ck_alloc_stats). Not safe to call while other threads use ckernel. */
CK_EXTERN int ck_set_allocator(const ck_allocator *a);
/* The allocator in use, and the default one (useful to wrap it: count, fail, trace). */
CK_EXTERN ck_allocator ck_get_allocator(void);
CK_EXTERN ck_allocator ck_default_allocator(void);
/* "jemalloc 5.3.0-0-g54eaed1d8b56 (private)", "system malloc" or "user allocator". */
CK_EXTERN const char *ck_allocator_name(void);

/* Frees memory that ckernel handed out (formatted strings, arrays' buffers). NULL is fine. */
CK_EXTERN void ck_free(void *ptr);
/* ckernel's allocator for resources a user kernel owns (freed with ck_free), so that they are
 * counted by ck_get_alloc_stats, held to the allocation limit and take part in
 * allocation-failure tests. NULL on failure (ck_calloc also when n * size overflows), with
 * CK_ERR_NOMEM and a message set (ck_last_error): the allocation limit's when it refused the
 * request, else "ck_malloc: out of memory allocating N bytes". A kernel that gets NULL
 * returns CK_ERR_NOMEM and leaves the message as it is. */
CK_EXTERN void *ck_malloc(size_t size);
CK_EXTERN void *ck_calloc(size_t n, size_t size);

typedef struct ck_alloc_stats {
    uint64_t allocations;   /* successful malloc/calloc/realloc-from-NULL calls so far */
    uint64_t frees;         /* frees of non-NULL pointers so far */
    uint64_t failures;      /* requests that returned NULL */
    int64_t live;           /* allocations - frees: blocks currently held by ckernel */
} ck_alloc_stats;
/* Transparent huge pages for large blocks. The default allocators (jemalloc or the C
 * library's) advise the kernel with madvise(MADV_HUGEPAGE) to back every block of at least
 * CK_HUGEPAGE_MIN_BYTES with huge pages, as NumPy does for its array data: streaming over
 * such a block then takes far fewer TLB misses where the system's THP mode is "madvise". A
 * host may do the same for its own buffers with ck_advise_hugepages (the benchmark does, to
 * measure what a host gets). Nothing happens below the threshold, off Linux, or when the
 * environment variable CKERNEL_MADVISE_HUGEPAGE is "0" (read once); a host's own allocator
 * (ck_set_allocator) decides for its memory. ck_hugepages_advised() says whether advice is
 * on. The advice covers the whole 4 KiB pages inside [p, p + size). */
#define CK_HUGEPAGE_MIN_BYTES ((size_t)4 << 20)
CK_EXTERN void ck_advise_hugepages(void *p, size_t size);
CK_EXTERN int ck_hugepages_advised(void);

/* Counters of ckernel's own allocations (all threads); a test's leak check. */
CK_EXTERN void ck_get_alloc_stats(ck_alloc_stats *out);
/* Bytes ckernel holds now (all threads): the sizes requested of every live counted block,
 * ck_malloc'ed ones included. Not counted: the allocator's own rounding and bookkeeping, the
 * process metadata of callables and the registry, and memory a host wraps (ck_array_wrap). */
CK_EXTERN size_t ck_get_alloc_live_bytes(void);

/* The allocation limit: an opt-in ceiling on ck_get_alloc_live_bytes, so that a huge
 * request ("1000000000000 * int8") fails at once with CK_ERR_NOMEM instead of paging the
 * machine into the OOM killer. A request that would take the live bytes above the limit is
 * refused before the allocator sees it: ck_malloc/ck_calloc return NULL and every ckernel
 * call that needed the memory returns CK_ERR_NOMEM, with the message
 *   "ckernel allocation limit: a request of R bytes would hold H bytes, above the limit of
 *    L (SOURCE)"
 * (a growing block says "growing a block from A to B bytes"). Growth counts only what it
 * adds; frees always succeed. It holds whatever allocator is installed (ck_set_allocator).
 * The check-and-add is atomic: threads racing for the last bytes cannot both pass it.
 *
 * ck_set_alloc_limit sets it for the process (0: no limit), replacing the environment's; a
 * limit below the bytes already live only refuses further growth. Otherwise the
 * environment variable CKERNEL_ALLOC_LIMIT, read once at first use, gives it: a byte count,
 * optionally with a binary suffix K, M, G or T (also KiB ... TiB; 24G is 24 << 30 bytes),
 * or "0"/"off" for none; a malformed value is ignored (ck_alloc_limit_reason says so).
 * With neither there is no limit. The ckernel program sets the machine's physical memory
 * unless CKERNEL_ALLOC_LIMIT decides. */
CK_EXTERN void ck_set_alloc_limit(size_t bytes);
/* The limit in effect; 0 when there is none. */
CK_EXTERN size_t ck_get_alloc_limit(void);
/* Who decided the limit in effect. */
typedef enum ck_alloc_limit_source {
    CK_ALLOC_LIMIT_UNSET = 0, /* nobody: no limit (CKERNEL_ALLOC_LIMIT unset or malformed) */
    CK_ALLOC_LIMIT_ENV = 1,   /* CKERNEL_ALLOC_LIMIT, a limit or "0"/"off" for none */
    CK_ALLOC_LIMIT_API = 2    /* ck_set_alloc_limit */
} ck_alloc_limit_source;
CK_EXTERN ck_alloc_limit_source ck_get_alloc_limit_source(void);
/* The same in words, for `ckernel info` and the refusal's message: "CKERNEL_ALLOC_LIMIT",
 * "CKERNEL_ALLOC_LIMIT=off", "ck_set_alloc_limit", "CKERNEL_ALLOC_LIMIT is not set",
 * "CKERNEL_ALLOC_LIMIT='12Q' is malformed and ignored" (printable characters only, no quote
 * or backslash: safe in JSON). */
CK_EXTERN const char *ck_alloc_limit_reason(void);

CK_END_DECLS

#endif
