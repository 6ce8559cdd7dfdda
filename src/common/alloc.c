/* src/common/alloc.c: the only file that knows which allocator backs ckernel.
 * Default: a private jemalloc built with the symbol prefix ck__je_ (cmake/CkJemalloc.cmake),
 * used through its extended API (ck__je_mallocx/rallocx/dallocx/nallocx), so it never
 * replaces the host process's malloc. Without jemalloc: the C library's malloc.
 * A host may install its own allocator; counters track every block ckernel holds and the
 * bytes they hold, which the allocation limit (alloc.h) caps. */
#define _DEFAULT_SOURCE 1 /* madvise */
#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
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

/* ---- the allocation limit (alloc.h) ---- */

/* Bytes requested by the live counted blocks, and the ceiling on them (0: none). */
static atomic_size_t ck__live_bytes;
static atomic_size_t ck__limit;
static atomic_int ck__limit_source; /* ck_alloc_limit_source of ck__limit */
/* CKERNEL_ALLOC_LIMIT is read once, before the first counted request is checked: 1 once
 * ck__limit holds the environment's value (or a later ck_set_alloc_limit's). */
static atomic_int ck__limit_ready;
static pthread_once_t ck__limit_once = PTHREAD_ONCE_INIT;
static char ck__limit_env_reason[128]; /* written once, under ck__limit_once */

/* A byte count with an optional binary suffix: "25769803776", "24G", "24GiB", "512k".
 * 1 and *out when well-formed and representable; 2 when well-formed and below 2^64 but more
 * than size_t holds (a 32-bit process); 0 when malformed. */
static int ck__parse_bytes(const char *s, size_t *out) {
    if (*s < '0' || *s > '9') {
        return 0;
    }
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        const uint64_t digit = (uint64_t)(*s - '0');
        if (v > (UINT64_MAX - digit) / 10) {
            return 0;
        }
        v = v * 10 + digit;
    }
    unsigned shift = 0;
    switch (*s) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: break;
    }
    if (shift != 0) {
        s++;
        if (s[0] == 'i' && s[1] == 'B') {
            s += 2;
        }
    }
    if (*s != '\0' || v > (UINT64_MAX >> shift)) {
        return 0;
    }
    v <<= shift;
#if SIZE_MAX < UINT64_MAX
    if (v > SIZE_MAX) {
        return 2;
    }
#endif
    *out = (size_t)v;
    return 1;
}

static void ck__limit_init(void) {
    const char *env = getenv("CKERNEL_ALLOC_LIMIT");
    char *r = ck__limit_env_reason;
    const size_t cap = sizeof ck__limit_env_reason;
    size_t v = 0;
    int parsed = 0; /* ck__parse_bytes's verdict, read once */
    ck_alloc_limit_source src = CK_ALLOC_LIMIT_ENV;
    if (env == NULL || env[0] == '\0') {
        src = CK_ALLOC_LIMIT_UNSET;
        snprintf(r, cap, "CKERNEL_ALLOC_LIMIT is %s", env == NULL ? "not set" : "empty");
    } else if (strcmp(env, "off") == 0 || ((parsed = ck__parse_bytes(env, &v)) == 1 && v == 0)) {
        v = 0;
        snprintf(r, cap, "CKERNEL_ALLOC_LIMIT=%s", env); /* "off" or zeros: nothing to escape */
    } else if (parsed == 1) {
        snprintf(r, cap, "CKERNEL_ALLOC_LIMIT");
    } else {
        /* A malformed limit is ignored: refusing to run over a typo would be worse than the
         * default; so is one no allocation of this process can reach. The value is quoted,
         * cut short and kept JSON-safe for `ckernel info`. */
        const int too_large = parsed == 2;
        char shown[41];
        size_t n = 0;
        for (; env[n] != '\0' && n + 1 < sizeof shown; n++) {
            const unsigned char c = (unsigned char)env[n];
            shown[n] = (c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '\'') ? '?'
                                                                                   : (char)c;
        }
        shown[n] = '\0';
        src = CK_ALLOC_LIMIT_UNSET;
        v = 0;
        snprintf(r, cap, "CKERNEL_ALLOC_LIMIT='%s%s' is %s and ignored", shown,
                 env[n] != '\0' ? "..." : "",
                 too_large ? "more than this process can address" : "malformed");
    }
    atomic_store_explicit(&ck__limit, v, memory_order_relaxed);
    atomic_store_explicit(&ck__limit_source, (int)src, memory_order_relaxed);
    atomic_store_explicit(&ck__limit_ready, 1, memory_order_release);
}

/* The limit in effect (0: none); the environment read on first use. */
static inline size_t ck__limit_now(void) {
    if (CK__UNLIKELY(!atomic_load_explicit(&ck__limit_ready, memory_order_acquire))) {
        pthread_once(&ck__limit_once, ck__limit_init);
    }
    return atomic_load_explicit(&ck__limit, memory_order_relaxed);
}

void ck_set_alloc_limit(size_t bytes) {
    pthread_once(&ck__limit_once, ck__limit_init); /* the environment must not win later */
    atomic_store_explicit(&ck__limit, bytes, memory_order_relaxed);
    atomic_store_explicit(&ck__limit_source, (int)CK_ALLOC_LIMIT_API, memory_order_relaxed);
}

size_t ck_get_alloc_limit(void) {
    return ck__limit_now();
}

ck_alloc_limit_source ck_get_alloc_limit_source(void) {
    pthread_once(&ck__limit_once, ck__limit_init);
    return (ck_alloc_limit_source)atomic_load_explicit(&ck__limit_source, memory_order_relaxed);
}

const char *ck_alloc_limit_reason(void) {
    return ck_get_alloc_limit_source() == CK_ALLOC_LIMIT_API ? "ck_set_alloc_limit"
                                                              : ck__limit_env_reason;
}

size_t ck_get_alloc_live_bytes(void) {
    return atomic_load_explicit(&ck__live_bytes, memory_order_relaxed);
}

/* Adds n bytes to the live bytes when `limit` (not 0) allows, atomically: two threads
 * cannot both take the last bytes under it. When refused: 0, and the message, which names
 * the block being grown from `from` bytes (`growing`) or the new request. */
static int ck__reserve(size_t n, size_t limit, int growing, size_t from) {
    size_t live = atomic_load_explicit(&ck__live_bytes, memory_order_relaxed);
    size_t held;
    int wraps = 0;
    for (;;) {
        if (ck__add_overflow(live, n, &held)) {
            held = SIZE_MAX;
            wraps = 1;
            break;
        }
        if (held > limit) {
            break;
        }
        if (atomic_compare_exchange_weak_explicit(&ck__live_bytes, &live, held,
                                                  memory_order_relaxed, memory_order_relaxed)) {
            return 1;
        }
    }
    const char *more = wraps ? "more than " : "";
    if (growing) { /* from + n is the size asked for: it cannot wrap */
        ck__set_alloc_limit_error("ckernel allocation limit: growing a block from %zu to %zu "
                                  "bytes would hold %s%zu bytes, above the limit of %zu (%s)",
                                  from, from + n, more, held, limit, ck_alloc_limit_reason());
    } else {
        ck__set_alloc_limit_error("ckernel allocation limit: a request of %zu byte%s would "
                                  "hold %s%zu bytes, above the limit of %zu (%s)",
                                  n, n == 1 ? "" : "s", more, held, limit,
                                  ck_alloc_limit_reason());
    }
    return 0;
}

/* ---- the counted path ---- */

/* Every counted block starts with the size its caller asked for, so that a free or a realloc
 * knows how many live bytes it gives back or adds: the allocator interface has no size
 * query, and a host's allocator may be installed. One max_align_t keeps the caller's pointer
 * as aligned as the allocator's own; the limit and the live bytes count requests only. */
#define CK__RECORD ((size_t)alignof(max_align_t))
_Static_assert(alignof(max_align_t) >= sizeof(size_t), "the size record must fit");

static inline void *ck__user(void *block, size_t size) {
    *(size_t *)block = size;
    return (char *)block + CK__RECORD;
}

static inline char *ck__block(void *user) {
    return (char *)user - CK__RECORD;
}

static inline size_t ck__block_size(const void *user) {
    return *(const size_t *)(const void *)((const char *)user - CK__RECORD);
}

/* A request that returns NULL: counted, and whatever this thread's last refusal was, it is
 * not this one's reason unless ck__reserve just said so. */
static inline void *ck__failed(int by_limit) {
    atomic_fetch_add_explicit(&ck__n_fail, 1, memory_order_relaxed);
    if (!by_limit) {
        ck__clear_alloc_limit_mark();
    }
    return NULL;
}

/* A new block of `size` bytes (zeroed when `zero`): the limit checked before the allocator
 * is asked, so a refused request costs nothing. */
static void *ck__new_block(size_t size, int zero) {
    size_t total;
    if (ck__add_overflow(size, CK__RECORD, &total)) {
        return ck__failed(0);
    }
    const size_t limit = ck__limit_now();
    if (limit != 0 && !ck__reserve(size, limit, 0, 0)) {
        return ck__failed(1);
    }
    const ck_allocator *a = ck__alloc();
    void *p = zero ? a->calloc(a->ctx, 1, total) : a->malloc(a->ctx, total);
    if (p == NULL) {
        if (limit != 0) {
            atomic_fetch_sub_explicit(&ck__live_bytes, size, memory_order_relaxed);
        }
        return ck__failed(0);
    }
    if (limit == 0) {
        /* Counted once it exists: a failing request never shows in the live bytes. */
        atomic_fetch_add_explicit(&ck__live_bytes, size, memory_order_relaxed);
    }
    atomic_fetch_add_explicit(&ck__n_alloc, 1, memory_order_relaxed);
    return ck__user(p, size);
}

void *ck__malloc(size_t size) {
    return ck__new_block(size, 0);
}

void *ck__calloc(size_t n, size_t size) {
    size_t total;
    if (ck__mul_overflow(n, size, &total)) {
        return ck__failed(0);
    }
    return ck__new_block(total, 1);
}

void *ck__realloc(void *ptr, size_t size) {
    if (ptr == NULL) {
        return ck__malloc(size);
    }
    const size_t old = ck__block_size(ptr);
    size_t total;
    if (ck__add_overflow(size, CK__RECORD, &total)) {
        return ck__failed(0);
    }
    /* Only growth is checked and reserved; a shrink gives its bytes back once done. */
    const size_t growth = size > old ? size - old : 0;
    const size_t limit = growth != 0 ? ck__limit_now() : 0;
    if (limit != 0 && !ck__reserve(growth, limit, 1, old)) {
        return ck__failed(1);
    }
    const ck_allocator *a = ck__alloc();
    void *p = a->realloc(a->ctx, ck__block(ptr), total);
    if (p == NULL) {
        if (limit != 0) {
            atomic_fetch_sub_explicit(&ck__live_bytes, growth, memory_order_relaxed);
        }
        return ck__failed(0); /* the block count is unchanged either way */
    }
    if (growth != 0 && limit == 0) {
        atomic_fetch_add_explicit(&ck__live_bytes, growth, memory_order_relaxed);
    } else if (size < old) {
        atomic_fetch_sub_explicit(&ck__live_bytes, old - size, memory_order_relaxed);
    }
    return ck__user(p, size);
}

void ck__free(void *ptr) {
    if (ptr == NULL) {
        return;
    }
    atomic_fetch_add_explicit(&ck__n_free, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&ck__live_bytes, ck__block_size(ptr), memory_order_relaxed);
    const ck_allocator *a = ck__alloc();
    a->free(a->ctx, ck__block(ptr));
}

size_t ck__good_size(size_t size) {
    const ck_allocator *a = ck__alloc();
    size_t total;
    if (a->good_size == NULL || ck__add_overflow(size, CK__RECORD, &total)) {
        return size;
    }
    const size_t real = a->good_size(a->ctx, total); /* the size record shares the class */
    return real >= total ? real - CK__RECORD : size;
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

/* The public allocators always say why they return NULL, so that a user kernel can just
 * return CK_ERR_NOMEM and the allocation limit's message reaches the caller intact. */
void *ck_malloc(size_t size) {
    void *p = ck__malloc(size);
    if (p == NULL) {
        ck__nomem_error("ck_malloc: out of memory allocating %zu bytes", size);
    }
    return p;
}

void *ck_calloc(size_t n, size_t size) {
    void *p = ck__calloc(n, size);
    if (p == NULL) {
        ck__nomem_error("ck_calloc: out of memory allocating %zu x %zu bytes", n, size);
    }
    return p;
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
