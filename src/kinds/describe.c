/* src/kinds/describe.c: ck_kernel_describe, the text form of a built kernel tree (what
 * `ckernel explain` prints). Nodes are recognised by their function pointer: ckernel's own
 * kinds, its leaves, and the kinds users register (ck_kernel_kind_register), kept in an
 * append-only table that readers scan without a lock. */
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>

#include "ckernel/assign.h"
#include "ckernel/callable.h"
#include "common/internal.h"
#include "jit/jit_internal.h"
#include "core/kinds.h"

#define CK__MAX_USER_KINDS 1024

static ck_kernel_kind user_kinds[CK__MAX_USER_KINDS];
static atomic_int user_kinds_n;
static pthread_mutex_t user_kinds_lock = PTHREAD_MUTEX_INITIALIZER;

struct ck_describer {
    ck__strbuf *out;
    ck__children children;
};

void ck__children_init(ck__children *c) {
    c->offsets = c->inline_offsets;
    c->n = 0;
    c->cap = CK__CHILDREN_INLINE;
    c->status = CK_OK;
}

void ck__children_add(ck__children *c, size_t rel_offset) {
    if (c->status != CK_OK) {
        return;
    }
    if (c->n == c->cap) {
        const size_t cap = c->cap * 2;
        size_t *grown = (size_t *)ck__malloc(cap * sizeof *grown);
        if (grown == NULL) {
            c->status = CK_ERR_NOMEM;
            return;
        }
        memcpy(grown, c->offsets, c->n * sizeof *grown);
        if (c->offsets != c->inline_offsets) {
            ck__free(c->offsets);
        }
        c->offsets = grown;
        c->cap = cap;
    }
    c->offsets[c->n++] = rel_offset;
}

void ck__children_free(ck__children *c) {
    if (c->offsets != c->inline_offsets) {
        ck__free(c->offsets);
    }
    ck__children_init(c);
}

void ck_describe_printf(ck_describer *d, const char *fmt, ...) {
    if (d == NULL || fmt == NULL) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    ck__strbuf_vprintf(d->out, fmt, ap);
    va_end(ap);
}

void ck_describe_child(ck_describer *d, size_t rel_offset) {
    if (d != NULL && rel_offset > 0) {
        ck__children_add(&d->children, rel_offset);
    }
}

static int same_fn(const void *fn, ck_single_fn single, ck_strided_fn strided) {
    void *a, *b;
    memcpy(&a, &single, sizeof a);
    memcpy(&b, &strided, sizeof b);
    return fn != NULL && (fn == a || fn == b);
}

int ck_kernel_kind_register(const ck_kernel_kind *kind) {
    if (kind == NULL || kind->name == NULL || (kind->single == NULL && kind->strided == NULL)) {
        return ck_set_error(CK_ERR_INVALID,
                            "ck_kernel_kind_register: a kind needs a name and a function");
    }
    pthread_mutex_lock(&user_kinds_lock);
    const int n = atomic_load_explicit(&user_kinds_n, memory_order_relaxed);
    for (int i = 0; i < n; i++) {
        if (user_kinds[i].single == kind->single && user_kinds[i].strided == kind->strided) {
            pthread_mutex_unlock(&user_kinds_lock);
            return CK_OK;
        }
    }
    if (n == CK__MAX_USER_KINDS) {
        pthread_mutex_unlock(&user_kinds_lock);
        return ck_set_error(CK_ERR_NOMEM, "ck_kernel_kind_register: %d kinds are registered",
                            CK__MAX_USER_KINDS);
    }
    user_kinds[n] = *kind;
    atomic_store_explicit(&user_kinds_n, n + 1, memory_order_release); /* publishes the entry */
    pthread_mutex_unlock(&user_kinds_lock);
    return CK_OK;
}

#define CK__KIND_ENTRY(name) &ck__##name##_kind,
static const ck__kind *const ck__kinds[] = {CK__KIND_LIST(CK__KIND_ENTRY)};

/* Deeper than any kernel ckernel builds (types nest at most CK_TYPE_MAX_DEPTH levels). */
#define CK__DESCRIBE_MAX_DEPTH 256

/* fn: node's function, or the one a guarded root stands for (kinds/fp_env.c). */
static void describe_node(const ck_prefix *node, const void *fn, const char *base, int depth,
                          ck__strbuf *out) {
    ck__strbuf_printf(out, "%*s", 2 * depth, "");
    if (depth >= CK__DESCRIBE_MAX_DEPTH) {
        ck__strbuf_puts(out, "... (deeper levels not shown)\n");
        return;
    }
    const size_t at = (size_t)((const char *)node - base);
    for (size_t i = 0; i < CK__ARRAY_SIZE(ck__kinds); i++) {
        const ck__kind *k = ck__kinds[i];
        void *single, *strided;
        memcpy(&single, &k->single, sizeof single);
        memcpy(&strided, &k->strided, sizeof strided);
        if (fn != single && fn != strided) {
            continue;
        }
        ck__strbuf tail = CK__STRBUF_INIT;
        size_t size = 0;
        ck__children children;
        ck__children_init(&children);
        k->describe(node, &tail, &size, &children);
        ck__strbuf_printf(out, "%s @%zu +%zu  %s_%s  %s\n", k->name, at, size, k->name,
                          fn == single ? "single" : "strided", tail.s != NULL ? tail.s : "");
        if (tail.status != CK_OK) {
            out->status = tail.status;
        }
        if (children.status != CK_OK) {
            out->status = children.status;
        }
        ck__strbuf_free(&tail);
        for (size_t c = 0; c < children.n; c++) {
            const ck_prefix *ch = ck_child((ck_prefix *)(uintptr_t)node, children.offsets[c]);
            describe_node(ch, ch->function, base, depth + 1, out);
        }
        ck__children_free(&children);
        return;
    }
    size_t jit_size = 0;
    ck__strbuf jit = CK__STRBUF_INIT;
    if (ck__jit_describe(node, &jit, &jit_size)) {
        ck__strbuf_printf(out, "jit @%zu +%zu  %s\n", at, jit_size, jit.s != NULL ? jit.s : "");
        if (jit.status != CK_OK) {
            out->status = jit.status;
        }
        ck__strbuf_free(&jit);
        return;
    }
    const int nuser = atomic_load_explicit(&user_kinds_n, memory_order_acquire);
    for (int i = 0; i < nuser; i++) {
        const ck_kernel_kind *k = &user_kinds[i];
        if (!same_fn(fn, k->single, k->strided)) {
            continue;
        }
        ck__strbuf tail = CK__STRBUF_INIT;
        ck_describer d;
        d.out = &tail;
        ck__children_init(&d.children);
        if (k->describe != NULL) {
            k->describe(node, &d);
        }
        if (d.children.status != CK_OK) {
            out->status = d.children.status;
        }
        void *single;
        memcpy(&single, &k->single, sizeof single);
        ck__strbuf_printf(out, "%s @%zu +%zu  %s_%s  %s\n", k->name, at, k->size, k->name,
                          fn == single ? "single" : "strided", tail.s != NULL ? tail.s : "");
        if (tail.status != CK_OK) {
            out->status = tail.status;
        }
        ck__strbuf_free(&tail);
        for (size_t c = 0; c < d.children.n; c++) {
            const ck_prefix *ch = ck_child((ck_prefix *)(uintptr_t)node, d.children.offsets[c]);
            describe_node(ch, ch->function, base, depth + 1, out);
        }
        ck__children_free(&d.children);
        return;
    }
    ck__strbuf leaf = CK__STRBUF_INIT;
    if (ck__leaf_families_describe(fn, &leaf)) {
        ck__strbuf_printf(out, "leaf @%zu +%zu  %s\n", at, sizeof(ck_prefix),
                          leaf.s != NULL ? leaf.s : "");
        if (leaf.status != CK_OK) {
            out->status = leaf.status;
        }
    } else {
        /* A user kernel of no registered kind: its size and children are its own business. */
        ck__strbuf_printf(out, "user @%zu  function %p (size and children unknown; register "
                               "its kind to describe it)\n",
                          at, fn);
    }
    ck__strbuf_free(&leaf);
}

int ck_kernel_describe(const ck_prefix *root, char **out) {
    if (root == NULL || out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_kernel_describe: NULL argument");
    }
    ck__strbuf b = CK__STRBUF_INIT;
    const void *fn = NULL;
    root = ck__fp_env_unguarded(root, &fn); /* the tree under the guard, offsets from there */
    describe_node(root, fn, (const char *)root, 0, &b);
    return ck__strbuf_finish(&b, out);
}
