/* src/jit/jit_internal.h: what the composition and describe use of the JIT (src/jit/jit.c). */
#ifndef CKERNEL_JIT_INTERNAL_H
#define CKERNEL_JIT_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "ckernel/builder.h"
#include "common/strbuf.h"
#include "jit/jit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ck__jit_code ck__jit_code;

/* The jit leaf: a prefix whose functions are compiled ones, and the counted reference to
 * their code that its destructor releases (docs/kernels.md §4.3, in practice). */
typedef struct ck__jit_leaf {
    ck_prefix base;
    ck__jit_code *code;
} ck__jit_leaf;

/* Not a status: the JIT was not used for this nest (why: ck_jit_last_decision()). */
#define CK__JIT_DECLINED (-1)

/* Builds the jit leaf for the nest at *offset when the flags or the policy say so and the
 * plugin compiles it (or has it cached): CK_OK; CK__JIT_DECLINED to build the composed
 * kernel instead; or a failure status (CK_ERR_NOMEM). */
int ck__jit_try_leaf(ck_builder *ckb, size_t *offset, const ck__jit_nest *n, unsigned flags,
                     ck_request req);
/* Records that a nest the walk would have tried is not compiled, and `why` (a kernel that
 * cannot be compiled exactly, e.g. an expression with a node the JIT has no form for);
 * CK_EVAL_NO_JIT's reason comes first. Returns CK__JIT_DECLINED. */
int ck__jit_decline(unsigned flags, const char *why);
/* 0 (with the decision recorded) when a nest of these dimensions would be refused anyway
 * and nothing is cached: the caller need not build the nest. */
int ck__jit_worth_a_nest(unsigned flags, int ndim, intptr_t inner_size);
/* Forgets this thread's last decision (a build with no nest to compile says nothing). */
void ck__jit_clear_decision(void);
/* Set once any thread has recorded a decision: until then there is nothing to forget, and a
 * build skips the thread-local access (dynamic TLS costs a call on every build). */
extern atomic_int ck__jit_decided;
/* Called when a top-level kernel build starts, so ck_jit_last_decision() speaks of it. */
static inline void ck__jit_build_starts(void) {
    if (atomic_load_explicit(&ck__jit_decided, memory_order_relaxed)) {
        ck__jit_clear_decision();
    }
}
/* 1 when node is a jit leaf: its description into out, its size into *size. */
int ck__jit_describe(const ck_prefix *node, ck__strbuf *out, size_t *size);
uint64_t ck__jit_fingerprint(const ck__jit_nest *n);

#ifdef __cplusplus
}
#endif

#endif
