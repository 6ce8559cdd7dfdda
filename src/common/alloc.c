/* src/common/alloc.c: the only file that knows which allocator backs ckernel.
 * Default: a private jemalloc built with the symbol prefix ck__je_ (cmake/CkJemalloc.cmake),
 * used through its extended API (ck__je_mallocx/rallocx/dallocx/nallocx), so it never
 * replaces the host process's malloc. Without jemalloc: the C library's malloc.
 * A host may install its own allocator; counters track every block ckernel holds. */
#define _DEFAULT_SOURCE 1 /* madvise */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#  include <sys/mman.h>
#endif

#include "ckernel/config.h"
#include "common/internal.h"

/* ---- transparent huge pages ---- */

/* -1 unknown yet, 0 off, 1 on: CKERNEL_MADVISE_HUGEPAGE read on first use. A race between two
 * first uses only reads the same environment twice. */
static atomic_int ck__thp_state = -1;

int ck_hugepages_advised(void) {
    int s = atomic_load_explicit(&ck__thp_state, memory_order_relaxed);
    if (s < 0) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        const char *env = getenv("CKERNEL_MADVISE_HUGEPAGE");
        s = !(env != NULL && strcmp(env, "0") == 0);
#else
        s = 0;
#endif
        atomic_store_explicit(&ck__thp_state, s, memory_order_relaxed);
    }
    return s;
}

void ck_advise_hugepages(void *p, size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p == NULL || size < CK_HUGEPAGE_MIN_BYTES || !ck_hugepages_advised()) {
        return;
    }
    const uintptr_t page = 4096u;
    const uintptr_t begin = ((uintptr_t)p + page - 1u) & ~(page - 1u);
    const uintptr_t end = ((uintptr_t)p + size) & ~(page - 1u);
    if (end > begin) {
        (void)madvise((void *)begin, end - begin, MADV_HUGEPAGE); /* advice: failure is harmless */
    }
#else
    (void)p;
    (void)size;
#endif
}

/* A default allocator's block of `size` bytes at p (NULL passes through). */
static inline void *ck__big(void *p, size_t size) {
    if (size >= CK_HUGEPAGE_MIN_BYTES) {
        ck_advise_hugepages(p, size);
    }
    return p;
}

#if CK_WITH_JEMALLOC
#  include <jemalloc/jemalloc.h>

/* jemalloc's mallocx/rallocx have undefined behaviour for size 0: ask for 1 byte instead. */
static void *ck__jem_malloc(void *ctx, size_t size) {
    (void)ctx;
    return ck__big(ck__je_mallocx(size != 0 ? size : 1, 0), size);
}
static void *ck__jem_calloc(void *ctx, size_t n, size_t size) {
    (void)ctx;
    size_t total;
    if (ck__mul_overflow(n, size, &total)) {
        return NULL;
    }
    return ck__big(ck__je_mallocx(total != 0 ? total : 1, MALLOCX_ZERO), total);
}
static void *ck__jem_realloc(void *ctx, void *ptr, size_t size) {
    (void)ctx;
    if (ptr == NULL) {
        return ck__big(ck__je_mallocx(size != 0 ? size : 1, 0), size);
    }
    /* rallocx grows in place when the size class allows and moves otherwise. */
    return ck__big(ck__je_rallocx(ptr, size != 0 ? size : 1, 0), size);
}
static void ck__jem_free(void *ctx, void *ptr) {
    (void)ctx;
    if (ptr != NULL) {
        ck__je_dallocx(ptr, 0);
    }
}
static size_t ck__jem_good_size(void *ctx, size_t size) {
    (void)ctx;
    size_t real = ck__je_nallocx(size != 0 ? size : 1, 0);
    return real >= size ? real : size; /* nallocx returns 0 for sizes it cannot serve */
}
static const ck_allocator ck__default = {
    ck__jem_malloc, ck__jem_calloc, ck__jem_realloc, ck__jem_free, ck__jem_good_size, NULL};
#  define CK__DEFAULT_NAME "jemalloc " JEMALLOC_VERSION " (private)"
#else
static void *ck__sys_malloc(void *ctx, size_t size) {
    (void)ctx;
    return ck__big(malloc(size != 0 ? size : 1), size);
}
static void *ck__sys_calloc(void *ctx, size_t n, size_t size) {
    (void)ctx;
    size_t total;
    if (ck__mul_overflow(n, size, &total)) {
        return NULL;
    }
    return ck__big(calloc(n != 0 ? n : 1, size != 0 ? size : 1), total);
}
static void *ck__sys_realloc(void *ctx, void *ptr, size_t size) {
    (void)ctx;
    return ck__big(realloc(ptr, size != 0 ? size : 1), size);
}
static void ck__sys_free(void *ctx, void *ptr) {
    (void)ctx;
    free(ptr);
}
static const ck_allocator ck__default = {
    ck__sys_malloc, ck__sys_calloc, ck__sys_realloc, ck__sys_free, NULL, NULL};
#  define CK__DEFAULT_NAME "system malloc"
#endif

static ck_allocator ck__current = {0};
static int ck__current_is_user = 0;

static atomic_uint_fast64_t ck__n_alloc;
static atomic_uint_fast64_t ck__n_free;
static atomic_uint_fast64_t ck__n_fail;

/* The installed allocator, or the default when none was installed. */
static inline const ck_allocator *ck__alloc(void) {
    return ck__current_is_user ? &ck__current : &ck__default;
}

static inline void *ck__count(void *p) {
    atomic_fetch_add_explicit(p != NULL ? &ck__n_alloc : &ck__n_fail, 1, memory_order_relaxed);
    return p;
}

void *ck__malloc(size_t size) {
    const ck_allocator *a = ck__alloc();
    return ck__count(a->malloc(a->ctx, size));
}

void *ck__calloc(size_t n, size_t size) {
    const ck_allocator *a = ck__alloc();
    return ck__count(a->calloc(a->ctx, n, size));
}

void *ck__realloc(void *ptr, size_t size) {
    if (ptr == NULL) {
        return ck__malloc(size);
    }
    const ck_allocator *a = ck__alloc();
    void *p = a->realloc(a->ctx, ptr, size);
    if (p == NULL) {
        atomic_fetch_add_explicit(&ck__n_fail, 1, memory_order_relaxed);
    }
    return p; /* the block count is unchanged either way */
}

void ck__free(void *ptr) {
    if (ptr == NULL) {
        return;
    }
    atomic_fetch_add_explicit(&ck__n_free, 1, memory_order_relaxed);
    const ck_allocator *a = ck__alloc();
    a->free(a->ctx, ptr);
}

size_t ck__good_size(size_t size) {
    const ck_allocator *a = ck__alloc();
    return a->good_size != NULL ? a->good_size(a->ctx, size) : size;
}

/* Process-lifetime metadata (callables, their selection caches, the registry) comes from the
 * default allocator, uncounted: a registered callable outlives any allocator a host installs
 * and removes later, and must not keep ck_set_allocator refusing. */
void *ck__meta_calloc(size_t n, size_t size) {
    return ck__default.calloc(ck__default.ctx, n, size);
}

void ck__meta_free(void *ptr) {
    if (ptr != NULL) {
        ck__default.free(ck__default.ctx, ptr);
    }
}

char *ck__strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = (char *)ck__malloc(n);
    if (p != NULL) {
        memcpy(p, s, n);
    }
    return p;
}

void ck_free(void *ptr) {
    ck__free(ptr);
}

void *ck_malloc(size_t size) {
    return ck__malloc(size);
}

void *ck_calloc(size_t n, size_t size) {
    return ck__calloc(n, size);
}

void ck_get_alloc_stats(ck_alloc_stats *out) {
    uint64_t na = atomic_load_explicit(&ck__n_alloc, memory_order_relaxed);
    uint64_t nf = atomic_load_explicit(&ck__n_free, memory_order_relaxed);
    out->allocations = na;
    out->frees = nf;
    out->failures = atomic_load_explicit(&ck__n_fail, memory_order_relaxed);
    out->live = (int64_t)(na - nf);
}

int ck_set_allocator(const ck_allocator *a) {
    ck_alloc_stats st;
    ck_get_alloc_stats(&st);
    if (st.live != 0) {
        return ck_set_error(CK_ERR_INVALID,
                            "ck_set_allocator: %lld ckernel allocation(s) are still live; free "
                            "them before switching allocators",
                            (long long)st.live);
    }
    if (a == NULL) {
        ck__current_is_user = 0;
        return CK_OK;
    }
    if (a->malloc == NULL || a->calloc == NULL || a->realloc == NULL || a->free == NULL) {
        return ck_set_error(CK_ERR_INVALID,
                            "ck_set_allocator: malloc, calloc, realloc and free are required");
    }
    ck__current = *a;
    ck__current_is_user = 1;
    return CK_OK;
}

ck_allocator ck_get_allocator(void) {
    return *ck__alloc();
}

ck_allocator ck_default_allocator(void) {
    return ck__default;
}

const char *ck_allocator_name(void) {
    return ck__current_is_user ? "user allocator" : CK__DEFAULT_NAME;
}
