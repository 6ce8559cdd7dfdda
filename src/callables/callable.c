/* src/callables/callable.c: callables (a name, signatures with their factories) and their
 * selection cache; the process-wide registry is registry.c.
 *
 * Concurrency (docs/design.md §10): a callable's signatures are an immutable snapshot,
 * replaced whole (copy on write, under the callable's mutex) when one is added; the
 * selection cache is an immutable open-addressing table per snapshot, replaced whole when a
 * key is added. Readers only load the current pointers (acquire) and never lock. Reclamation
 * rule: a replaced snapshot or table is not freed until the callable is (readers may still
 * hold it); growth is bounded because adds are rare and a table stops growing at
 * CK__CACHE_MAX keys. Adding a signature publishes a new snapshot with an empty cache, so no
 * stale selection survives it. Keys are compared in full, never by hash alone. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callables/callable_internal.h"
#include "common/internal.h"
#include "common/strbuf.h"

#define CK__CACHE_MAX 32   /* keys per snapshot; further selections are computed, not kept */
#define CK__CACHE_SLOTS 64 /* power of two, >= 2 * CK__CACHE_MAX */

typedef struct ck__cache_slot {
    uint64_t key[3]; /* argument ids 0..7, 8..15, then nargs | flags << 8; key[2] == 0: empty */
    int index;
    ck__rating rating;
} ck__cache_slot;

typedef struct ck__cache {
    int count;
    struct ck__cache *retired_next;
    ck__cache_slot slots[CK__CACHE_SLOTS];
} ck__cache;

struct ck__snapshot {
    int n;
    ck__entry *entries;   /* sorted by text */
    ck__signature *sigs;  /* entries[i].sig, for ck__select */
    int *order;           /* entries[i]'s place in the order of adds (CK_SELECT_FIRST_SAFE) */
    ck_selection rule;
    _Atomic(ck__cache *) cache;
    struct ck__snapshot *retired_next;
};

struct ck_callable {
    atomic_long refs;
    char name[64];
    /* The identity's literal (reductions), written once under the lock before has_identity
     * is published (release), so readers need no lock. */
    char identity[64];
    atomic_int has_identity;
    /* The signatures the library itself added (order below it): pure functions of their
     * arguments, which an expression may compute once when it is planned. */
    atomic_int library_entries;
    _Atomic(ck__snapshot *) snap;
    ck_selection rule;    /* copied into each snapshot; set before the first add */
    pthread_mutex_t lock; /* writers only */
    ck__snapshot *retired;
    ck__cache *retired_caches;
};

static int valid_name(const char *name) {
    if (name == NULL || name[0] == '\0' || strlen(name) > 63) {
        return 0;
    }
    for (const char *p = name; *p != '\0'; p++) {
        const char ch = *p;
        const int alpha = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
        if (!alpha && !(p != name && ch >= '0' && ch <= '9')) {
            return 0;
        }
    }
    return 1;
}

int ck_callable_new(const char *name, ck_callable **out) {
    if (out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_callable_new: NULL out");
    }
    *out = NULL;
    if (!valid_name(name)) {
        return ck_set_error(CK_ERR_INVALID,
                            "ck_callable_new: '%s' is not a callable name (a letter or '_', then "
                            "letters, digits or '_', at most 63 bytes)",
                            name != NULL ? name : "(null)");
    }
    ck_callable *c = (ck_callable *)ck__meta_calloc(1, sizeof *c);
    ck__snapshot *s = (ck__snapshot *)ck__meta_calloc(1, sizeof *s);
    if (c == NULL || s == NULL || pthread_mutex_init(&c->lock, NULL) != 0) {
        ck__meta_free(c);
        ck__meta_free(s);
        return ck_set_error(CK_ERR_NOMEM, "ck_callable_new: out of memory");
    }
    atomic_init(&c->refs, 1);
    atomic_init(&c->has_identity, 0);
    atomic_init(&c->library_entries, 0);
    strcpy(c->name, name);
    atomic_init(&c->snap, s);
    *out = c;
    return CK_OK;
}

static void free_snapshot(ck__snapshot *s) {
    ck__meta_free(atomic_load_explicit(&s->cache, memory_order_relaxed));
    ck__meta_free(s->entries);
    ck__meta_free(s->sigs);
    ck__meta_free(s->order);
    ck__meta_free(s);
}

void ck_callable_incref(ck_callable *c) {
    if (c != NULL) {
        atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
    }
}

void ck_callable_decref(ck_callable *c) {
    if (c == NULL || atomic_fetch_sub_explicit(&c->refs, 1, memory_order_acq_rel) != 1) {
        return;
    }
    ck__snapshot *s = atomic_load_explicit(&c->snap, memory_order_acquire);
    for (int i = 0; i < s->n; i++) { /* every factory is in the last snapshot, once */
        if (s->entries[i].factory.release != NULL) {
            s->entries[i].factory.release(s->entries[i].factory.data);
        }
    }
    free_snapshot(s);
    while (c->retired != NULL) {
        ck__snapshot *next = c->retired->retired_next;
        free_snapshot(c->retired);
        c->retired = next;
    }
    while (c->retired_caches != NULL) {
        ck__cache *next = c->retired_caches->retired_next;
        ck__meta_free(c->retired_caches);
        c->retired_caches = next;
    }
    pthread_mutex_destroy(&c->lock);
    ck__meta_free(c);
}

const char *ck_callable_name(const ck_callable *c) {
    return c != NULL ? c->name : NULL;
}

int ck_callable_result_count(const ck_callable *c) {
    if (c == NULL) {
        return 0;
    }
    const ck__snapshot *s = ck__callable_snapshot(c);
    return s->n == 0 ? 0 : s->entries[0].sig.nret == 2 ? 2 : 1;
}

int ck_callable_set_selection(ck_callable *c, ck_selection rule) {
    if (c == NULL || (rule != CK_SELECT_BEST && rule != CK_SELECT_FIRST_SAFE)) {
        return ck_set_error(CK_ERR_INVALID, "ck_callable_set_selection: %s",
                            c == NULL ? "NULL callable" : "unknown rule");
    }
    pthread_mutex_lock(&c->lock);
    const int n = atomic_load_explicit(&c->snap, memory_order_relaxed)->n;
    if (n == 0) {
        c->rule = rule;
    }
    pthread_mutex_unlock(&c->lock);
    if (n != 0) {
        return ck_set_error(CK_ERR_INVALID,
                            "ck_callable_set_selection: %s has signatures already; set the "
                            "rule before the first",
                            c->name);
    }
    return CK_OK;
}

ck_selection ck_callable_selection(const ck_callable *c) {
    if (c == NULL) {
        return CK_SELECT_BEST;
    }
    pthread_mutex_lock(&((ck_callable *)(uintptr_t)c)->lock);
    const ck_selection r = c->rule;
    pthread_mutex_unlock(&((ck_callable *)(uintptr_t)c)->lock);
    return r;
}

int ck_callable_set_identity(ck_callable *c, const char *literal) {
    if (c == NULL || literal == NULL || literal[0] == '\0' ||
        strlen(literal) >= sizeof c->identity) {
        return ck_set_error(CK_ERR_INVALID,
                            "ck_callable_set_identity: a callable and a literal of 1 to %zu "
                            "bytes are needed",
                            sizeof c->identity - 1);
    }
    pthread_mutex_lock(&c->lock);
    const int had = atomic_load_explicit(&c->has_identity, memory_order_relaxed);
    if (!had) {
        strcpy(c->identity, literal);
        atomic_store_explicit(&c->has_identity, 1, memory_order_release);
    }
    pthread_mutex_unlock(&c->lock);
    if (had) {
        return ck_set_error(CK_ERR_INVALID, "%s already has the identity '%s'", c->name,
                            c->identity);
    }
    return CK_OK;
}

const char *ck_callable_identity(const ck_callable *c) {
    if (c == NULL) {
        return NULL;
    }
    ck_callable *m = (ck_callable *)(uintptr_t)c;
    return atomic_load_explicit(&m->has_identity, memory_order_acquire) ? c->identity : NULL;
}

ck__snapshot *ck__callable_snapshot(const ck_callable *c) {
    return atomic_load_explicit(&((ck_callable *)(uintptr_t)c)->snap, memory_order_acquire);
}

void ck__callable_mark_library(ck_callable *c) {
    const ck__snapshot *s = ck__callable_snapshot(c);
    atomic_store_explicit(&c->library_entries, s != NULL ? s->n : 0, memory_order_release);
}

int ck__callable_entry_is_library(const ck_callable *c, const ck__entry *e) {
    ck_callable *m = (ck_callable *)(uintptr_t)c;
    return e->order < atomic_load_explicit(&m->library_entries, memory_order_acquire);
}

const ck__entry *ck__snapshot_entry(const ck__snapshot *s, int i) {
    return &s->entries[i];
}

int ck__snapshot_size(const ck__snapshot *s) {
    return s->n;
}

static int release_and_fail(const ck_factory *f, int rc) {
    if (f != NULL && f->release != NULL) {
        f->release(f->data);
    }
    return rc;
}

static int compare_entries(const void *a, const void *b) {
    return strcmp(((const ck__entry *)a)->text, ((const ck__entry *)b)->text);
}

int ck_callable_add(ck_callable *c, const char *signature, const ck_factory *factory) {
    if (factory == NULL || factory->instantiate == NULL) {
        return release_and_fail(factory, ck_set_error(CK_ERR_INVALID,
                                                      "ck_callable_add: the factory has no "
                                                      "instantiate function"));
    }
    if (c == NULL || signature == NULL) {
        return release_and_fail(factory,
                                ck_set_error(CK_ERR_INVALID, "ck_callable_add: NULL argument"));
    }
    ck__entry e;
    memset(&e, 0, sizeof e);
    int rc = ck__signature_parse_core(signature, &e.sig, &e.core);
    if (rc != CK_OK) {
        return release_and_fail(factory, rc);
    }
    if (e.sig.nargs == 0) {
        return release_and_fail(factory, ck_set_error(CK_ERR_INVALID,
                                                      "ck_callable_add: signature '%s' takes no "
                                                      "arguments; a callable takes 1 to %d",
                                                      signature, CK_CALL_MAX_ARGS));
    }
    /* (A scalar signature's text is cut at 159 bytes, as it always was: 16 complex128s.) */
    if (ck__signature_format_core(&e.sig, &e.core, e.text, sizeof e.text) >= sizeof e.text &&
        e.core.any) {
        return release_and_fail(factory, ck_set_error(CK_ERR_INVALID,
                                                      "ck_callable_add: signature '%.200s' is "
                                                      "longer than %zu bytes when printed",
                                                      signature, sizeof e.text - 1));
    }
    e.factory = *factory;

    pthread_mutex_lock(&c->lock);
    ck__snapshot *old = atomic_load_explicit(&c->snap, memory_order_relaxed);
    if (old->n > 0 && !ck__core_sig_same(&old->entries[0].core, &e.core)) {
        pthread_mutex_unlock(&c->lock);
        return release_and_fail(
            factory, ck_set_error(CK_ERR_INVALID,
                                  "ck_callable_add: %s's signatures have other core dimensions "
                                  "(%s); every signature of a callable has the same",
                                  c->name, old->entries[0].text));
    }
    if (old->n > 0 && (old->entries[0].sig.nret == 2) != (e.sig.nret == 2)) {
        pthread_mutex_unlock(&c->lock);
        return release_and_fail(
            factory, ck_set_error(CK_ERR_INVALID,
                                  "ck_callable_add: %s's signatures have %s (%s); every "
                                  "signature of a callable has as many",
                                  c->name, e.sig.nret == 2 ? "one result" : "two results",
                                  old->entries[0].text));
    }
    for (int i = 0; i < old->n; i++) {
        const ck__signature *o = &old->entries[i].sig;
        if (o->nargs == e.sig.nargs &&
            memcmp(o->args, e.sig.args, (size_t)o->nargs * sizeof o->args[0]) == 0) {
            pthread_mutex_unlock(&c->lock);
            return release_and_fail(
                factory, ck_set_error(CK_ERR_INVALID,
                                      "ck_callable_add: %s already has a signature for these "
                                      "arguments: %s",
                                      c->name, old->entries[i].text));
        }
    }
    ck__snapshot *s = (ck__snapshot *)ck__meta_calloc(1, sizeof *s);
    const size_t n = (size_t)old->n + 1;
    if (s != NULL) {
        s->entries = (ck__entry *)ck__meta_calloc(n, sizeof *s->entries);
        s->sigs = (ck__signature *)ck__meta_calloc(n, sizeof *s->sigs);
        s->order = (int *)ck__meta_calloc(n, sizeof *s->order);
    }
    if (s == NULL || s->entries == NULL || s->sigs == NULL || s->order == NULL) {
        pthread_mutex_unlock(&c->lock);
        if (s != NULL) {
            free_snapshot(s);
        }
        return release_and_fail(factory,
                                ck_set_error(CK_ERR_NOMEM, "ck_callable_add: out of memory"));
    }
    if (old->n > 0) {
        memcpy(s->entries, old->entries, (size_t)old->n * sizeof *s->entries);
    }
    e.order = old->n;
    s->entries[old->n] = e;
    s->n = (int)n;
    s->rule = c->rule;
    /* Sorted by text: indices and listings never depend on the order of adds (nor does
     * selection, but CK_SELECT_FIRST_SAFE's, which is that order's by definition). */
    qsort(s->entries, n, sizeof *s->entries, compare_entries);
    for (size_t i = 0; i < n; i++) {
        s->sigs[i] = s->entries[i].sig;
        s->order[i] = s->entries[i].order;
    }
    atomic_store_explicit(&s->cache, NULL, memory_order_relaxed);
    atomic_store_explicit(&c->snap, s, memory_order_release);
    old->retired_next = c->retired;
    c->retired = old;
    pthread_mutex_unlock(&c->lock);
    return CK_OK;
}

int ck_callable_signatures(const ck_callable *c, char **out) {
    if (c == NULL || out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_callable_signatures: NULL argument");
    }
    const ck__snapshot *s = ck__callable_snapshot(c);
    ck__strbuf b = CK__STRBUF_INIT;
    for (int i = 0; i < s->n; i++) {
        ck__strbuf_printf(&b, "%s\n", s->entries[i].text);
    }
    return ck__strbuf_finish(&b, out);
}

/* ---- selection and its cache ---- */

static void make_key(const ck_type_id *args, int nargs, int allow_unsafe, uint64_t key[3]) {
    key[0] = key[1] = 0;
    for (int i = 0; i < nargs; i++) {
        key[i / 8] |= (uint64_t)(unsigned)args[i] << (8 * (i % 8));
    }
    key[2] = (uint64_t)(unsigned)nargs | (uint64_t)(allow_unsafe ? 1 : 0) << 8;
}

static unsigned slot_of(const uint64_t key[3]) {
    uint64_t h = key[0] * 0x9E3779B97F4A7C15ull ^ key[1] * 0xC2B2AE3D27D4EB4Full ^ key[2];
    h ^= h >> 29;
    return (unsigned)(h * 0xBF58476D1CE4E5B9ull >> 58) & (CK__CACHE_SLOTS - 1);
}

static const ck__cache_slot *cache_find(const ck__cache *t, const uint64_t key[3]) {
    if (t == NULL) {
        return NULL;
    }
    for (unsigned i = slot_of(key), probes = 0; probes < CK__CACHE_SLOTS;
         i = (i + 1) & (CK__CACHE_SLOTS - 1), probes++) {
        const ck__cache_slot *s = &t->slots[i];
        if (s->key[2] == 0) {
            return NULL;
        }
        if (s->key[0] == key[0] && s->key[1] == key[1] && s->key[2] == key[2]) {
            return s;
        }
    }
    return NULL;
}

/* Publishes a table with one key more (a failure to allocate only loses the caching). */
static void cache_insert(ck_callable *c, ck__snapshot *s, const uint64_t key[3], int index,
                         const ck__rating *rating) {
    pthread_mutex_lock(&c->lock);
    ck__cache *old = atomic_load_explicit(&s->cache, memory_order_relaxed);
    if ((old != NULL && old->count >= CK__CACHE_MAX) || cache_find(old, key) != NULL) {
        pthread_mutex_unlock(&c->lock);
        return;
    }
    ck__cache *t = (ck__cache *)ck__meta_calloc(1, sizeof *t);
    if (t == NULL) {
        pthread_mutex_unlock(&c->lock);
        return;
    }
    if (old != NULL) {
        memcpy(t->slots, old->slots, sizeof t->slots);
        t->count = old->count;
    }
    unsigned i = slot_of(key);
    while (t->slots[i].key[2] != 0) {
        i = (i + 1) & (CK__CACHE_SLOTS - 1);
    }
    memcpy(t->slots[i].key, key, sizeof t->slots[i].key);
    t->slots[i].index = index;
    t->slots[i].rating = *rating;
    t->count++;
    atomic_store_explicit(&s->cache, t, memory_order_release);
    if (old != NULL) {
        old->retired_next = c->retired_caches;
        c->retired_caches = old;
    }
    pthread_mutex_unlock(&c->lock);
}

int ck__callable_choose(const ck_callable *cc, int nargs, const ck_type_id *args,
                        int allow_unsafe, const ck__snapshot **snap, int *index,
                        ck__rating *rating) {
    ck_callable *c = (ck_callable *)(uintptr_t)cc;
    if (nargs < 1 || nargs > CK_CALL_MAX_ARGS) {
        return ck_set_error(CK_ERR_INVALID, "%s: %d arguments; a call takes 1 to %d", c->name,
                            nargs, CK_CALL_MAX_ARGS);
    }
    for (int i = 0; i < nargs; i++) {
        if ((unsigned)args[i] >= CK_NUM_SCALAR_TYPES) {
            return ck_set_error(CK_ERR_TYPE, "%s: argument %d is not a scalar type (%s)",
                                c->name, i, ck_type_id_name(args[i]));
        }
    }
    ck__snapshot *s = atomic_load_explicit(&c->snap, memory_order_acquire);
    uint64_t key[3];
    make_key(args, nargs, allow_unsafe, key);
    const ck__cache_slot *hit =
        cache_find(atomic_load_explicit(&s->cache, memory_order_acquire), key);
    *snap = s;
    if (hit != NULL) {
        *index = hit->index;
        *rating = hit->rating;
        return CK_OK;
    }
    CK__RETURN_IF_ERROR(s->rule == CK_SELECT_FIRST_SAFE
                            ? ck__select_first_safe(c->name, s->sigs, s->order, s->n, args,
                                                    nargs, allow_unsafe, index, rating)
                            : ck__select(c->name, s->sigs, s->n, args, nargs, allow_unsafe,
                                         index, rating));
    cache_insert(c, s, key, *index, rating);
    return CK_OK;
}

int ck_callable_select(const ck_callable *c, int nargs, const ck_type_id *args,
                       const ck_eval_ctx *ectx, int *index, char **why) {
    if (c == NULL || args == NULL || index == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_callable_select: NULL argument");
    }
    if (why != NULL) {
        *why = NULL;
    }
    const int allow_unsafe = ectx != NULL && (ectx->flags & CK_EVAL_ALLOW_UNSAFE) != 0;
    const ck__snapshot *s;
    ck__rating r;
    CK__RETURN_IF_ERROR(ck__callable_choose(c, nargs, args, allow_unsafe, &s, index, &r));
    if (why == NULL) {
        return CK_OK;
    }
    char rating[96];
    ck__rating_format(&r, rating, sizeof rating);
    ck__strbuf b = CK__STRBUF_INIT;
    ck__strbuf_printf(&b, "%s: %s", s->entries[*index].text, rating);
    return ck__strbuf_finish(&b, why);
}
