/* src/callables/registry.c: the process-wide registry of callables (sorted by name, under
 * one mutex; lookups take their own reference), which registers the built-ins on its first
 * use. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "callables/callable_internal.h"
#include "common/internal.h"
#include "common/strbuf.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static ck_callable **registry;  /* sorted by name */
static int registry_n, registry_cap;
static pthread_mutex_t builtins_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int builtins_done;

/* Index of name, or -(insertion point) - 1. Called with registry_lock held. */
static int registry_find(const char *name) {
    int lo = 0, hi = registry_n - 1;
    while (lo <= hi) {
        const int mid = (lo + hi) / 2;
        const int cmp = strcmp(ck_callable_name(registry[mid]), name);
        if (cmp == 0) {
            return mid;
        }
        if (cmp < 0) {
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return -lo - 1;
}

static int registry_insert(ck_callable *c) {
    if (c == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_register: NULL callable");
    }
    pthread_mutex_lock(&registry_lock);
    const int at = registry_find(ck_callable_name(c));
    if (at >= 0) {
        pthread_mutex_unlock(&registry_lock);
        return ck_set_error(CK_ERR_INVALID, "ck_register: a callable named '%s' is registered",
                            ck_callable_name(c));
    }
    if (registry_n == registry_cap) {
        const int cap = registry_cap != 0 ? 2 * registry_cap : 16;
        ck_callable **grown = (ck_callable **)ck__meta_calloc((size_t)cap, sizeof *grown);
        if (grown == NULL) {
            pthread_mutex_unlock(&registry_lock);
            return ck_set_error(CK_ERR_NOMEM, "ck_register: out of memory");
        }
        if (registry_n > 0) {
            memcpy(grown, registry, (size_t)registry_n * sizeof *grown);
        }
        ck__meta_free(registry);
        registry = grown;
        registry_cap = cap;
    }
    const int pos = -at - 1;
    memmove(registry + pos + 1, registry + pos, (size_t)(registry_n - pos) * sizeof *registry);
    ck_callable_incref(c);
    registry[pos] = c;
    registry_n++;
    pthread_mutex_unlock(&registry_lock);
    return CK_OK;
}

int ck__registry_add(ck_callable *c) {
    CK__RETURN_IF_ERROR(registry_insert(c));
    ck__callable_mark_library(c);
    return CK_OK;
}

int ck__registry_has(const char *name) {
    pthread_mutex_lock(&registry_lock);
    const int at = registry_find(name);
    pthread_mutex_unlock(&registry_lock);
    return at >= 0;
}

/* The built-ins are registered on first use of the registry; a failure (out of memory) is
 * reported and tried again next time. */
static int ensure_builtins(void) {
    if (atomic_load_explicit(&builtins_done, memory_order_acquire)) {
        return CK_OK;
    }
    pthread_mutex_lock(&builtins_lock);
    int rc = CK_OK;
    if (!atomic_load_explicit(&builtins_done, memory_order_relaxed)) {
        rc = ck__register_builtins();
        if (rc == CK_OK) {
            atomic_store_explicit(&builtins_done, 1, memory_order_release);
        }
    }
    pthread_mutex_unlock(&builtins_lock);
    return rc;
}

int ck_register(ck_callable *c) {
    CK__RETURN_IF_ERROR(ensure_builtins());
    return registry_insert(c);
}

int ck_unregister(const char *name) {
    CK__RETURN_IF_ERROR(ensure_builtins());
    pthread_mutex_lock(&registry_lock);
    const int at = name != NULL ? registry_find(name) : -1;
    if (at < 0) {
        pthread_mutex_unlock(&registry_lock);
        return ck_set_error(CK_ERR_TYPE, "ck_unregister: no callable named '%s'",
                            name != NULL ? name : "(null)");
    }
    ck_callable *c = registry[at];
    memmove(registry + at, registry + at + 1, (size_t)(registry_n - at - 1) * sizeof *registry);
    registry_n--;
    pthread_mutex_unlock(&registry_lock);
    ck_callable_decref(c); /* lookups hold their own references */
    return CK_OK;
}

int ck_lookup(const char *name, ck_callable **out) {
    if (name == NULL || out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_lookup: NULL argument");
    }
    *out = NULL;
    CK__RETURN_IF_ERROR(ensure_builtins());
    pthread_mutex_lock(&registry_lock);
    const int at = registry_find(name);
    if (at >= 0) {
        ck_callable_incref(registry[at]);
        *out = registry[at];
    }
    pthread_mutex_unlock(&registry_lock);
    if (at < 0) {
        return ck_set_error(CK_ERR_TYPE, "no callable named '%s' (ckernel callables lists them)",
                            name);
    }
    return CK_OK;
}

int ck_registry_names(char **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_registry_names: NULL out");
    }
    *out = NULL;
    CK__RETURN_IF_ERROR(ensure_builtins());
    ck__strbuf b = CK__STRBUF_INIT;
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < registry_n; i++) {
        ck__strbuf_printf(&b, "%s\n", ck_callable_name(registry[i]));
    }
    pthread_mutex_unlock(&registry_lock);
    return ck__strbuf_finish(&b, out);
}
