/* tests/support/alloc_hooks.h: a counting, failure-injecting allocator for tests, built
 * only on the public ck_set_allocator API around ck_default_allocator(). */
#ifndef CK_TEST_ALLOC_HOOKS_H
#define CK_TEST_ALLOC_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Installs the hook allocator (requires no live ckernel allocation). Returns a ck status. */
int ckt_alloc_install(void);
/* Restores the default allocator (requires no live ckernel allocation). */
int ckt_alloc_uninstall(void);
/* The n-th allocation request (malloc, calloc or realloc; 1-based) after this call fails;
 * 0 disables failure. Resets the request counter. */
void ckt_alloc_fail_at(int64_t n);
/* Requests (malloc/calloc/realloc) since the last ckt_alloc_fail_at/install. */
int64_t ckt_alloc_requests(void);
/* Whether the injected failure was reached since the last ckt_alloc_fail_at. */
int ckt_alloc_failed(void);
/* With `on`, clears the record and from then on records ck_get_alloc_live_bytes() as each
 * request reaches the hook. Under a limit (any, even SIZE_MAX) a new block or a growth has
 * been counted by then: the value is the bytes the request holds. At most
 * CKT_ALLOC_RECORD_MAX requests are recorded; 0 stops recording. */
#define CKT_ALLOC_RECORD_MAX 65536
void ckt_alloc_record_live(int on);
/* The recorded values in request order (at most cap of them copied); returns how many. */
size_t ckt_alloc_recorded(size_t *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
