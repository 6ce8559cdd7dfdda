/* tests/support/alloc_hooks.c: see alloc_hooks.h. */
#include "alloc_hooks.h"

#include <stdatomic.h>
#include <stddef.h>

#include "ckernel/alloc.h"
#include "ckernel/status.h"

static ck_allocator base;
static atomic_int_fast64_t requests;
static atomic_int_fast64_t fail_at;
static atomic_int failed;
static atomic_int recording;
static atomic_size_t recorded;
static atomic_size_t record[CKT_ALLOC_RECORD_MAX];

/* Counts a request (recording the live bytes when asked); 1 when this one must fail. */
static int hook_should_fail(void) {
    if (atomic_load(&recording)) {
        size_t i = atomic_fetch_add(&recorded, 1);
        if (i < CKT_ALLOC_RECORD_MAX) {
            atomic_store_explicit(&record[i], ck_get_alloc_live_bytes(), memory_order_relaxed);
        }
    }
    int64_t n = atomic_fetch_add(&requests, 1) + 1;
    int64_t f = atomic_load(&fail_at);
    if (f != 0 && n == f) {
        atomic_store(&failed, 1);
        return 1;
    }
    return 0;
}

static void *hook_malloc(void *ctx, size_t size) {
    (void)ctx;
    return hook_should_fail() ? NULL : base.malloc(base.ctx, size);
}
static void *hook_calloc(void *ctx, size_t n, size_t size) {
    (void)ctx;
    return hook_should_fail() ? NULL : base.calloc(base.ctx, n, size);
}
static void *hook_realloc(void *ctx, void *ptr, size_t size) {
    (void)ctx;
    return hook_should_fail() ? NULL : base.realloc(base.ctx, ptr, size);
}
static void hook_free(void *ctx, void *ptr) {
    (void)ctx;
    base.free(base.ctx, ptr);
}
static size_t hook_good_size(void *ctx, size_t size) {
    (void)ctx;
    return base.good_size != NULL ? base.good_size(base.ctx, size) : size;
}

int ckt_alloc_install(void) {
    base = ck_default_allocator();
    ck_allocator hook = {hook_malloc, hook_calloc, hook_realloc, hook_free, hook_good_size, NULL};
    ckt_alloc_fail_at(0);
    return ck_set_allocator(&hook);
}

int ckt_alloc_uninstall(void) {
    return ck_set_allocator(NULL);
}

void ckt_alloc_fail_at(int64_t n) {
    atomic_store(&fail_at, n);
    atomic_store(&requests, 0);
    atomic_store(&failed, 0);
}

int64_t ckt_alloc_requests(void) {
    return atomic_load(&requests);
}

int ckt_alloc_failed(void) {
    return atomic_load(&failed);
}

void ckt_alloc_record_live(int on) {
    if (on) {
        atomic_store(&recorded, 0);
    }
    atomic_store(&recording, on);
}

size_t ckt_alloc_recorded(size_t *out, size_t cap) {
    size_t n = atomic_load(&recorded);
    if (n > CKT_ALLOC_RECORD_MAX) {
        n = CKT_ALLOC_RECORD_MAX;
    }
    for (size_t i = 0; i < n && i < cap; i++) {
        out[i] = atomic_load_explicit(&record[i], memory_order_relaxed);
    }
    return n;
}
