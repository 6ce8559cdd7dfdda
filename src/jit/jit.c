/* src/jit/jit.c: the core's side of the JIT (docs/design.md §11): loading the plugin
 * (src/jit/jit_plugin.h) the first time a kernel wants it, the cache of compiled nests keyed
 * by their whole normalised description (compared in full; the fingerprint only names them),
 * the policy that decides when compiling pays, and the jit leaf: a bare prefix whose
 * functions are the compiled ones and whose destructor releases its counted reference to
 * the code. The code of a nest is freed when the last kernel holding it is destroyed. */
#define _GNU_SOURCE 1 /* dladdr: where this code was loaded from */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ckernel/config.h"
#include "ckernel/jit.h"
#include "common/internal.h"
#include "jit/jit_internal.h"

/* ---- the plugin ---- */

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/* Set once, by load_plugin; read without the once by the cache check (nothing is cached
 * before the plugin loads, and loading is what hosts that never compile must not pay). */
static const ck__jit_plugin *_Atomic plugin;
static char load_status[512] = "not tried";
static char plugin_path[1024];

#ifndef CK_JIT_PLUGIN_NAME
#  define CK_JIT_PLUGIN_NAME "libckernel-jit.so"
#endif

#if CK_WITH_JIT
/* The plugin file: CKERNEL_JIT_PLUGIN, else next to the file that holds this code (the
 * shared library, or a program linked with the archive), else the install directory. */
static void find_plugin(void) {
    const char *env = getenv("CKERNEL_JIT_PLUGIN");
    if (env != NULL && env[0] != '\0') {
        snprintf(plugin_path, sizeof plugin_path, "%s", env);
        return;
    }
    Dl_info info;
    if (dladdr((void *)(uintptr_t)find_plugin, &info) != 0 && info.dli_fname != NULL) {
        const char *slash = strrchr(info.dli_fname, '/');
        if (slash != NULL) {
            snprintf(plugin_path, sizeof plugin_path, "%.*s/%s",
                     (int)(slash - info.dli_fname), info.dli_fname, CK_JIT_PLUGIN_NAME);
            FILE *f = fopen(plugin_path, "rb");
            if (f != NULL) {
                fclose(f);
                return;
            }
        }
    }
#ifdef CK_JIT_PLUGIN_INSTALL_DIR
    snprintf(plugin_path, sizeof plugin_path, "%s/%s", CK_JIT_PLUGIN_INSTALL_DIR,
             CK_JIT_PLUGIN_NAME);
#else
    snprintf(plugin_path, sizeof plugin_path, "%s", CK_JIT_PLUGIN_NAME);
#endif
}
#endif /* CK_WITH_JIT */

static void load_plugin(void) {
    const char *env = getenv("CKERNEL_JIT");
    if (env != NULL && strcmp(env, "0") == 0) {
        snprintf(load_status, sizeof load_status, "disabled by CKERNEL_JIT=0");
        return;
    }
#if !CK_WITH_JIT
    snprintf(load_status, sizeof load_status, "not available: built without LLVM (CK_WITH_JIT)");
#else
    find_plugin();
    void *h = dlopen(plugin_path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        const char *why = dlerror();
        snprintf(load_status, sizeof load_status, "not available: the plugin failed to load: %.400s",
                 why != NULL ? why : plugin_path);
        return;
    }
    ck__jit_plugin_entry entry;
    void *sym = dlsym(h, CK__JIT_PLUGIN_ENTRY);
    memcpy(&entry, &sym, sizeof entry);
    const ck__jit_plugin *p = sym != NULL ? entry() : NULL;
    if (p == NULL || p->abi != CK__JIT_ABI_VERSION) {
        snprintf(load_status, sizeof load_status,
                 "not available: %.400s is not a ckernel JIT plugin of ABI %d", plugin_path,
                 CK__JIT_ABI_VERSION);
        return; /* the handle stays open: unloading code that may have run is not worth it */
    }
    char err[400] = "";
    if (p->init(err, sizeof err) != 0) {
        snprintf(load_status, sizeof load_status, "not available: LLVM failed to start: %s",
                 err);
        return;
    }
    snprintf(load_status, sizeof load_status, "LLVM %s", p->llvm_version());
    atomic_store_explicit(&plugin, p, memory_order_release);
#endif
}

static const ck__jit_plugin *get_plugin(void) {
    pthread_once(&load_once, load_plugin);
    return atomic_load_explicit(&plugin, memory_order_acquire);
}

static const ck__jit_plugin *loaded_plugin(void) {
    return atomic_load_explicit(&plugin, memory_order_acquire);
}

/* ---- decisions, for explain ---- */

/* This thread's last decision: a static text (the common refusals, so a build pays no
 * formatting) or, when `fixed` is NULL, the formatted one. Dynamic TLS: the library loads
 * with dlopen. */
static _Thread_local struct {
    const char *fixed;
    char text[256];
} decision;

const char *ck_jit_last_decision(void) {
    return decision.fixed != NULL ? decision.fixed : decision.text;
}

void ck__jit_clear_decision(void) {
    decision.fixed = "";
}

static void decide_fixed(const char *text) {
    if (!atomic_load_explicit(&ck__jit_decided, memory_order_relaxed)) {
        atomic_store_explicit(&ck__jit_decided, 1, memory_order_relaxed);
    }
    decision.fixed = text;
}

atomic_int ck__jit_decided;

static void decide(const char *text) {
    if (!atomic_load_explicit(&ck__jit_decided, memory_order_relaxed)) {
        atomic_store_explicit(&ck__jit_decided, 1, memory_order_relaxed);
    }
    size_t n = strlen(text);
    n = n < sizeof decision.text ? n : sizeof decision.text - 1; /* cut: only for reading */
    memcpy(decision.text, text, n);
    decision.text[n] = '\0';
    decision.fixed = NULL;
}

/* ---- the code cache ---- */

#define CK__JIT_BUCKETS 256

struct ck__jit_code {
    long refs; /* under cache_lock; 0: retained (on the retained list) */
    struct ck__jit_code *older, *newer; /* the retained list, while refs == 0 */
    uint64_t fingerprint;
    ck__jit_compiled compiled;
    struct ck__jit_code *next;
    size_t key_bytes; /* ck__jit_nest_bytes(&key): the block ends there */
    ck__jit_nest key; /* last: only its used nodes are allocated */
};

/* Codes no kernel holds, kept for a build to come: at most this many, the least recently
 * released freed first (each is a few KiB of machine code and its LLVM session). */
#define CK__JIT_RETAIN 64

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static ck__jit_code *buckets[CK__JIT_BUCKETS];
static ck__jit_code *retained_oldest, *retained_newest;
static size_t live_codes, retained_codes, total_compiles;
/* live_codes, readable without the lock: 0 lets a build skip the cache lookup. */
static atomic_size_t any_codes;
static double total_compile_ms;
static atomic_uint seen[CK__JIT_BUCKETS]; /* policy: builds per fingerprint bucket */

uint64_t ck__jit_fingerprint(const ck__jit_nest *n) {
    /* FNV-1a over 8-byte words (a byte at a time took ~500 ns for the 464-byte nest, more
     * than the rest of a build), then a final avalanche so the low bits pick buckets well. */
    const unsigned char *p = (const unsigned char *)n;
    const size_t bytes = ck__jit_nest_bytes(n);
    uint64_t h = 0xcbf29ce484222325ull;
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
    }
    for (; i < bytes; i++) {
        h = (h ^ p[i]) * 0x100000001b3ull;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

static ck__jit_code *find_locked(const ck__jit_nest *n, uint64_t fp) {
    for (ck__jit_code *c = buckets[fp % CK__JIT_BUCKETS]; c != NULL; c = c->next) {
        if (c->fingerprint == fp && c->key_bytes == ck__jit_nest_bytes(n) &&
            memcmp(&c->key, n, c->key_bytes) == 0) {
            return c;
        }
    }
    return NULL;
}

/* Takes c off the retained list (refs == 0, under the lock). */
static void unretain_locked(ck__jit_code *c) {
    *(c->older != NULL ? &c->older->newer : &retained_oldest) = c->newer;
    *(c->newer != NULL ? &c->newer->older : &retained_newest) = c->older;
    c->older = c->newer = NULL;
    retained_codes--;
}

/* Takes c out of its bucket (under the lock); the caller frees it. */
static void unlink_locked(ck__jit_code *c) {
    ck__jit_code **link = &buckets[c->fingerprint % CK__JIT_BUCKETS];
    while (*link != c) {
        link = &(*link)->next;
    }
    *link = c->next;
    atomic_store_explicit(&any_codes, live_codes + retained_codes, memory_order_relaxed);
}

static void ck__jit_code_release(ck__jit_code *c) {
    if (c == NULL) {
        return;
    }
    pthread_mutex_lock(&cache_lock);
    if (--c->refs > 0) {
        pthread_mutex_unlock(&cache_lock);
        return;
    }
    /* The newest retained; past the cap, the oldest goes. */
    live_codes--;
    c->older = retained_newest;
    *(retained_newest != NULL ? &retained_newest->newer : &retained_oldest) = c;
    retained_newest = c;
    retained_codes++;
    ck__jit_code *evict = NULL;
    if (retained_codes > CK__JIT_RETAIN) {
        evict = retained_oldest;
        unretain_locked(evict);
        unlink_locked(evict);
    }
    pthread_mutex_unlock(&cache_lock);
    if (evict != NULL) {
        loaded_plugin()->release(evict->compiled.handle);
        ck__free(evict);
    }
}

/* A counted reference to the nest's code: from the cache, else compiled now (outside the
 * lock, so different nests compile in parallel; a nest compiled twice at once keeps the
 * first and releases the second). */
static int acquire_code(const ck__jit_nest *n, uint64_t fp, ck__jit_code **out, int *hit) {
    pthread_mutex_lock(&cache_lock);
    ck__jit_code *c = find_locked(n, fp);
    if (c != NULL) {
        if (c->refs++ == 0) {
            unretain_locked(c);
            live_codes++;
        }
        pthread_mutex_unlock(&cache_lock);
        *out = c;
        *hit = 1;
        return CK_OK;
    }
    pthread_mutex_unlock(&cache_lock);
    *hit = 0;
    const size_t key_bytes = ck__jit_nest_bytes(n);
    ck__jit_code *made =
        (ck__jit_code *)ck__calloc(1, offsetof(ck__jit_code, key) + key_bytes);
    if (made == NULL) {
        return ck__nomem_error("jit: out of memory for a compiled nest");
    }
    char err[400] = "";
    if (loaded_plugin()->compile(n, &made->compiled, err, sizeof err) != 0) {
        ck__free(made);
        char text[512];
        snprintf(text, sizeof text, "not used: the compile failed (%.400s); composed kernel", err);
        decide(text);
        return -1;
    }
    made->refs = 1;
    made->fingerprint = fp;
    made->key_bytes = key_bytes;
    memcpy(&made->key, n, key_bytes);
    pthread_mutex_lock(&cache_lock);
    total_compiles++;
    total_compile_ms += made->compiled.compile_ms;
    c = find_locked(n, fp);
    if (c != NULL) { /* another thread won */
        if (c->refs++ == 0) {
            unretain_locked(c);
            live_codes++;
        }
        pthread_mutex_unlock(&cache_lock);
        loaded_plugin()->release(made->compiled.handle);
        ck__free(made);
        *out = c;
        return CK_OK;
    }
    made->next = buckets[fp % CK__JIT_BUCKETS];
    buckets[fp % CK__JIT_BUCKETS] = made;
    live_codes++;
    atomic_store_explicit(&any_codes, live_codes + retained_codes, memory_order_relaxed);
    pthread_mutex_unlock(&cache_lock);
    *out = made;
    return CK_OK;
}

static int cached(const ck__jit_nest *n, uint64_t fp) {
    pthread_mutex_lock(&cache_lock);
    const int yes = find_locked(n, fp) != NULL;
    pthread_mutex_unlock(&cache_lock);
    return yes;
}

/* ---- policy ---- */

/* Automatic compiling (docs/kernels.md §10): a nest already compiled costs nothing; else a
 * compile (10-30 ms) pays only where the composed kernel is slow, i.e. short inner runs (at
 * most CK__JIT_SHORT_RUN elements, one leaf call each), and only once the nest has been
 * built again with enough work in all to earn the compile back: measured on
 * jit/small-inner, compiled code saves about 1 ns per element over the composed kernel, so
 * CK__JIT_PAYBACK elements (16 Mi) cover a 16 ms compile. A kernel built once and run many
 * times is the caller's to mark (CK_EVAL_JIT): the policy sees builds, not runs. */
#define CK__JIT_SHORT_RUN 16
#define CK__JIT_PAYBACK ((uint64_t)1 << 24)

static atomic_uint_fast64_t work_seen[CK__JIT_BUCKETS]; /* elements built per bucket */

int ck__jit_worth_a_nest(unsigned flags, int ndim, intptr_t inner_size) {
    /* Most builds: not asked, nothing compiled yet, long inner runs: decided before the
     * nest is even filled in (hashing it costs more than the rest of a small build). */
    if ((flags & (CK_EVAL_JIT | CK_EVAL_NO_JIT)) == 0 &&
        atomic_load_explicit(&any_codes, memory_order_relaxed) == 0 &&
        (ndim < 2 || inner_size > CK__JIT_SHORT_RUN)) {
        decide_fixed("not used: the composed kernel is as fast here (long inner runs)");
        return 0;
    }
    return 1;
}

static int worth_compiling(const ck__jit_nest *n, uint64_t fp, const char **why) {
    uint64_t elements = 1;
    for (int l = 0; l < n->ndim; l++) {
        if (__builtin_mul_overflow(elements, (uint64_t)n->size[l], &elements)) {
            elements = UINT64_MAX;
        }
    }
    if (n->size[n->ndim - 1] > CK__JIT_SHORT_RUN || n->ndim < 2) {
        *why = "the composed kernel is as fast here (long inner runs)";
        return 0;
    }
    /* Buckets are shared by fingerprints that collide: a heuristic only, never a result. */
    const unsigned times = atomic_fetch_add(&seen[fp % CK__JIT_BUCKETS], 1) + 1;
    const uint64_t before = atomic_fetch_add(&work_seen[fp % CK__JIT_BUCKETS], elements);
    const uint64_t total = before + elements < before ? UINT64_MAX : before + elements;
    if (times < 2) {
        *why = "first build of this nest (it compiles when built again with enough work)";
        return 0;
    }
    if (total < CK__JIT_PAYBACK) {
        *why = "too little work so far to pay for a compile";
        return 0;
    }
    *why = "short inner runs, built again with enough work to pay for the compile";
    return 1;
}

static void jit_leaf_destroy(ck_prefix *self) {
    ck__jit_leaf *k = (ck__jit_leaf *)self;
    ck__jit_code_release(k->code);
}

int ck__jit_decline(unsigned flags, const char *why) {
    if ((flags & CK_EVAL_NO_JIT) != 0) {
        decide_fixed("not used: CK_EVAL_NO_JIT");
    } else {
        char text[256];
        snprintf(text, sizeof text, "not used: %.200s; composed kernel", why);
        decide(text);
    }
    return CK__JIT_DECLINED;
}

int ck__jit_try_leaf(ck_builder *ckb, size_t *offset, const ck__jit_nest *n, unsigned flags,
                     ck_request req) {
    char text[512];
    ck__jit_clear_decision();
    if ((flags & CK_EVAL_NO_JIT) != 0) {
        decide_fixed("not used: CK_EVAL_NO_JIT");
        return CK__JIT_DECLINED;
    }
    if ((flags & CK_EVAL_FP_ERRORS) != 0) {
        /* The composed kernel checks each element's values (callables/fp_errors.c). */
        decide_fixed("not used: CK_EVAL_FP_ERRORS (the composed kernel checks the values)");
        return CK__JIT_DECLINED;
    }
    if (!ck__jit_worth_a_nest(flags, n->ndim, n->size[n->ndim - 1])) {
        return CK__JIT_DECLINED;
    }
    const uint64_t fp = ck__jit_fingerprint(n);
    const char *why = "asked (CK_EVAL_JIT)";
    if ((flags & CK_EVAL_JIT) == 0) {
        why = "already compiled";
        if (!(loaded_plugin() != NULL && cached(n, fp)) && !worth_compiling(n, fp, &why)) {
            snprintf(text, sizeof text, "not used: %s", why);
            decide(text);
            return CK__JIT_DECLINED;
        }
    }
    if (get_plugin() == NULL) {
        snprintf(text, sizeof text, "not used: %.450s; composed kernel", load_status);
        decide(text);
        return CK__JIT_DECLINED;
    }
    /* Reserve and mark the leaf before anything can fail: a zeroed leaf destroys cleanly. */
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__jit_leaf)));
    ck__jit_code *code = NULL;
    int hit = 0;
    const int rc = acquire_code(n, fp, &code, &hit);
    if (rc != CK_OK) {
        return rc == -1 ? CK__JIT_DECLINED : rc;
    }
    ck__jit_leaf *k = (ck__jit_leaf *)ck_builder_at(ckb, *offset);
    k->base.destructor = jit_leaf_destroy;
    k->code = code;
    ck_prefix_set_function(&k->base, req, code->compiled.single, code->compiled.strided);
    *offset += sizeof(ck__jit_leaf);
    if (hit) {
        snprintf(text, sizeof text, "cache hit (%s), fingerprint %016llx", why,
                 (unsigned long long)fp);
    } else {
        snprintf(text, sizeof text, "compiled in %.1f ms (%s), fingerprint %016llx",
                 code->compiled.compile_ms, why, (unsigned long long)fp);
    }
    decide(text);
    return CK_OK;
}

static const char *op_name(int op) {
    static const char *const names[] = {"assign",   "add",     "subtract", "multiply",
                                        "divide",   "native call", "negative", "minimum",
                                        "maximum",  "expression"};
    return op >= 0 && op <= CK__JIT_OP_EXPR ? names[op] : "?";
}

int ck__jit_describe(const ck_prefix *node, ck__strbuf *out, size_t *size) {
    if (node->destructor != jit_leaf_destroy) {
        return 0;
    }
    const ck__jit_leaf *k = (const ck__jit_leaf *)node;
    const ck__jit_nest *n = &k->code->key;
    void *single;
    memcpy(&single, &k->code->compiled.single, sizeof single);
    ck__strbuf_printf(out, "jit_%s  fingerprint=%016llx %s", node->function == single ? "single" : "strided",
                      (unsigned long long)k->code->fingerprint, op_name(n->op));
    if (n->op == CK__JIT_OP_EXPR) {
        int chunked = 0;
        for (int i = 0; i < n->nnodes; i++) {
            chunked += n->node[i].vector_fn != NULL;
        }
        ck__strbuf_printf(out, " of %d nodes", (int)n->nnodes);
        if (chunked > 0) {
            ck__strbuf_printf(out, " (%d call%s in chunks)", chunked, chunked == 1 ? "" : "s");
        }
    }
    for (int a = 0; a < n->nargs; a++) {
        ck__strbuf_printf(out, "%s%s", a == 0 ? " (" : ", ", ck_type_id_name((ck_type_id)n->arg_id[a]));
    }
    ck__strbuf_printf(out, ") -> %s (%s) nest=[", ck_type_id_name((ck_type_id)n->dst_id),
                      ck_errmode_name((ck_errmode)n->mode));
    for (int l = 0; l < n->ndim; l++) {
        ck__strbuf_printf(out, "%s%td", l > 0 ? " x " : "", n->size[l]);
    }
    ck__strbuf_puts(out, "] dst_stride=[");
    for (int l = 0; l < n->ndim; l++) {
        ck__strbuf_printf(out, "%s%td", l > 0 ? ", " : "", n->dst_stride[l]);
    }
    for (int a = 0; a < n->nargs; a++) {
        ck__strbuf_printf(out, "] src%d_stride=[", a);
        for (int l = 0; l < n->ndim; l++) {
            ck__strbuf_printf(out, "%s%td", l > 0 ? ", " : "", n->src_stride[a][l]);
        }
    }
    ck__strbuf_printf(out, "]%s%s [LLVM %s, %s]",
                      k->code->compiled.inner_leaf ? " inner runs: precompiled leaf" : "",
                      n->stream_copy != NULL ? " streamed" : "",
                      loaded_plugin()->llvm_version(), loaded_plugin()->cpu_name());
    *size = sizeof(ck__jit_leaf);
    return 1;
}

void ck_jit_trim(void) {
    for (;;) {
        pthread_mutex_lock(&cache_lock);
        ck__jit_code *c = retained_oldest;
        if (c != NULL) {
            unretain_locked(c);
            unlink_locked(c);
        }
        pthread_mutex_unlock(&cache_lock);
        if (c == NULL) {
            return;
        }
        loaded_plugin()->release(c->compiled.handle);
        ck__free(c);
    }
}

void ck_jit_get_info(ck_jit_info *out) {
    if (out == NULL) {
        return;
    }
    const ck__jit_plugin *p = get_plugin();
    out->available = p != NULL;
    out->status = load_status;
    out->llvm_version = p != NULL ? p->llvm_version() : "";
    out->cpu_name = p != NULL ? p->cpu_name() : "";
    out->cpu_features = p != NULL ? p->cpu_features() : "";
    out->plugin_path = plugin_path;
    pthread_mutex_lock(&cache_lock);
    out->cached_codes = live_codes;
    out->retained_codes = retained_codes;
    out->compiles = total_compiles;
    out->compile_ms = total_compile_ms;
    pthread_mutex_unlock(&cache_lock);
}
