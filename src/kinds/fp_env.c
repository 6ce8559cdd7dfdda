/* src/kinds/fp_env.c: the guard at the root of every kernel the public makers build
 * (ck_make_assign, _call, _expr, _reduce, _accumulate): each call of the root runs in the
 * IEEE default floating-point environment (with denormals flushed under
 * CK_EVAL_FLUSH_DENORMALS), whatever mode the calling thread holds, and gives the caller its
 * mode back with the work's exception flags added to its own (common/fp_env.h).
 * CK_EVAL_HOST_FP_ENV builds no guard.
 *
 * The guard costs no bytes where it can: a root of one of the library's kinds gets its kind's
 * guarded function in its prefix, which sets the mode and calls the kind's own function (so a
 * kernel that fits the builder's inline buffer still does). Any other root (a bare leaf, a
 * compiled nest, a user's kind) moves 16 bytes down behind an fp_env kernel, which calls it
 * as its child. ck_kernel_describe shows the tree under the guard (docs/design.md §8). */
#include <string.h>

#include "ckernel/eval.h"
#include "common/fp_env.h"
#include "common/internal.h"
#include "core/kinds.h"

#define CK__FP_ENV_CHILD CK_ALIGN_OFFSET(sizeof(ck_prefix))

/* ---- the guarded functions of each kind: [0] the IEEE default, [1] denormals flushed ----
 * (Not 64-byte aligned as kernels are: 200 aligned functions more moved the library's hot
 * build code so that a build of "1 * float64" took 30 ns longer on a Zen 4.) */
#define CK__DEF_GUARDED_AS(name, M, FLUSH)                                                   \
    static int guarded_##M##_##name##_single(ck_prefix *self, char *dst, char *const *src) {   \
        ck__fp_env e;                                                                         \
        ck__fp_env_enter(&e, FLUSH);                                                          \
        const int rc = ck__##name##_kind.single(self, dst, src);                              \
        ck__fp_env_leave(&e);                                                                 \
        return rc;                                                                            \
    }                                                                                         \
    static int guarded_##M##_##name##_strided(ck_prefix *self, char *dst, intptr_t ds,         \
                                              char *const *src, const intptr_t *ss,           \
                                              size_t count) {                                 \
        ck__fp_env e;                                                                         \
        ck__fp_env_enter(&e, FLUSH);                                                          \
        const int rc = ck__##name##_kind.strided(self, dst, ds, src, ss, count);              \
        ck__fp_env_leave(&e);                                                                 \
        return rc;                                                                            \
    }
#define CK__DEF_GUARDED(name) CK__DEF_GUARDED_AS(name, ieee, 0) CK__DEF_GUARDED_AS(name, flush, 1)
CK__KIND_LIST(CK__DEF_GUARDED)

typedef struct guarded_kind {
    const ck__kind *kind;
    ck_single_fn single[2];
    ck_strided_fn strided[2];
} guarded_kind;

#define CK__GUARDED_ROW(name)                                                                  \
    {&ck__##name##_kind,                                                                       \
     {guarded_ieee_##name##_single, guarded_flush_##name##_single},                            \
     {guarded_ieee_##name##_strided, guarded_flush_##name##_strided}},
static const guarded_kind guarded_kinds[] = {CK__KIND_LIST(CK__GUARDED_ROW)};

static void *fn_bits_single(ck_single_fn f) {
    void *p;
    memcpy(&p, &f, sizeof p);
    return p;
}
static void *fn_bits_strided(ck_strided_fn f) {
    void *p;
    memcpy(&p, &f, sizeof p);
    return p;
}

/* ---- the fp_env kernel: a root of no kind of the library, as its child ---- */
#define CK__DEF_FP_ENV(NAME, FLUSH)                                                          \
    static CK__KERNEL_ALIGN int NAME##_single(ck_prefix *self, char *dst, char *const *src) { \
        ck__fp_env e;                                                                         \
        ck__fp_env_enter(&e, FLUSH);                                                          \
        const int rc = ck_call_single(ck_child(self, CK__FP_ENV_CHILD), dst, src);            \
        ck__fp_env_leave(&e);                                                                 \
        return rc;                                                                            \
    }                                                                                         \
    static CK__KERNEL_ALIGN int NAME##_strided(ck_prefix *self, char *dst, intptr_t ds,        \
                                               char *const *src, const intptr_t *ss,          \
                                               size_t count) {                                \
        ck__fp_env e;                                                                         \
        ck__fp_env_enter(&e, FLUSH);                                                          \
        const int rc =                                                                        \
            ck_call_strided(ck_child(self, CK__FP_ENV_CHILD), dst, ds, src, ss, count);       \
        ck__fp_env_leave(&e);                                                                 \
        return rc;                                                                            \
    }
CK__DEF_FP_ENV(fp_env, 0)
CK__DEF_FP_ENV(fp_flush, 1)

static void fp_env_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__FP_ENV_CHILD));
}

static const ck_single_fn env_single[2] = {fp_env_single, fp_flush_single};
static const ck_strided_fn env_strided[2] = {fp_env_strided, fp_flush_strided};

/* The kinds' functions by address, in a table built once (a build looks its root up in it: a
 * scan of the kind list cost a 0-d build 30 ns on a Zen 4), filled when the library loads:
 * 256 slots for the 2 functions of each of the ~50 kinds, open addressing. */
typedef struct guarded_slot {
    const void *fn;
    unsigned short kind; /* index in guarded_kinds */
    unsigned char strided;
} guarded_slot;
#define CK__GUARD_SLOTS 256u
static guarded_slot guard_slots[CK__GUARD_SLOTS];

static unsigned slot_of(const void *fn) {
    return (unsigned)((((uintptr_t)fn >> 4) * UINT64_C(0x9E3779B97F4A7C15)) >> 56) &
           (CK__GUARD_SLOTS - 1u);
}

static void slot_put(const void *fn, size_t kind, int strided) {
    unsigned h = slot_of(fn);
    while (guard_slots[h].fn != NULL && guard_slots[h].fn != fn) {
        h = (h + 1u) & (CK__GUARD_SLOTS - 1u);
    }
    guard_slots[h].fn = fn;
    guard_slots[h].kind = (unsigned short)kind;
    guard_slots[h].strided = (unsigned char)strided;
}

/* At load (a constructor runs at dlopen too): before any build can look a root up. */
__attribute__((constructor)) static void build_slots(void) {
    typedef char fits[CK__ARRAY_SIZE(guarded_kinds) * 2 < CK__GUARD_SLOTS / 2 ? 1 : -1];
    (void)sizeof(fits);
    for (size_t i = 0; i < CK__ARRAY_SIZE(guarded_kinds); i++) {
        const ck__kind *k = guarded_kinds[i].kind;
        /* (The pointer kinds' descriptions read their own function: they go behind fp_env.) */
        if (k == &ck__pointer_src_kind || k == &ck__pointer_dst_kind) {
            continue;
        }
        if (k->single != NULL) slot_put(fn_bits_single(k->single), i, 0);
        if (k->strided != NULL) slot_put(fn_bits_strided(k->strided), i, 1);
    }
}

static const guarded_slot *lookup(const void *fn) {
    for (unsigned h = slot_of(fn);; h = (h + 1u) & (CK__GUARD_SLOTS - 1u)) {
        if (guard_slots[h].fn == fn) return &guard_slots[h];
        if (guard_slots[h].fn == NULL) return NULL;
    }
}

int ck__fp_env_guard(ck_builder *ckb, size_t start, size_t *end, unsigned flags,
                     ck_request req) {
    if (start != 0 || (flags & CK_EVAL_HOST_FP_ENV) != 0) {
        return CK_OK; /* a child of the caller's kernel, or the host's mode wanted */
    }
    const int m = (flags & CK_EVAL_FLUSH_DENORMALS) != 0;
    ck_prefix *root = ck_builder_root(ckb);
    void *fn = root->function;
    if (fn == NULL) {
        return CK_OK;
    }
    const guarded_slot *g = lookup(fn);
    if (g != NULL) {
        const guarded_kind *k = &guarded_kinds[g->kind];
        if (g->strided) {
            ck_prefix_set_strided(root, k->strided[m]);
        } else {
            ck_prefix_set_single(root, k->single[m]);
        }
        return CK_OK;
    }
    /* Move the tree, [0, *end) as every factory advances *offset past what it built, behind
     * an fp_env kernel (the buffer is memmove-safe by design). */
    const size_t n = *end;
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, n + CK__FP_ENV_CHILD));
    char *data = ck_builder_data(ckb);
    memmove(data + CK__FP_ENV_CHILD, data, n);
    ck_prefix *k = (ck_prefix *)(void *)data;
    ck_prefix_set_function(k, req, env_single[m], env_strided[m]);
    k->destructor = fp_env_destroy;
    *end = n + CK__FP_ENV_CHILD;
    return CK_OK;
}

const ck_prefix *ck__fp_env_unguarded(const ck_prefix *root, const void **fn) {
    *fn = root->function;
    for (int m = 0; m < 2; m++) {
        if (*fn == fn_bits_single(env_single[m]) || *fn == fn_bits_strided(env_strided[m])) {
            const ck_prefix *child = ck_child((ck_prefix *)(uintptr_t)root, CK__FP_ENV_CHILD);
            *fn = child->function;
            return child;
        }
    }
    for (size_t i = 0; i < CK__ARRAY_SIZE(guarded_kinds); i++) {
        const guarded_kind *g = &guarded_kinds[i];
        for (int m = 0; m < 2; m++) {
            if (*fn == fn_bits_single(g->single[m])) {
                *fn = fn_bits_single(g->kind->single);
                return root;
            }
            if (*fn == fn_bits_strided(g->strided[m])) {
                *fn = fn_bits_strided(g->kind->strided);
                return root;
            }
        }
    }
    return root;
}
