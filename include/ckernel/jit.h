/* ckernel/jit.h: the JIT leaf (docs/design.md §11): loop nests compiled by LLVM when a kernel
 * is built, in a plugin (libckernel-jit) loaded the first time a kernel wants it, so the
 * library itself never links LLVM. A compiled nest replaces the fixed dimensions and the leaf
 * of an assignment (or of a built-in elementwise call) with one function whose sizes and
 * strides are constants; its result and status are those of the composed kernel, bit for
 * bit. Kernels hold a counted reference to their code, shared by every kernel and thread
 * with the same nest and freed with the last one.
 *
 * When: with CK_EVAL_JIT in ck_eval_ctx.flags whenever the nest can be compiled; otherwise
 * automatically when it pays (docs/kernels.md §10: a nest already compiled, or small inner
 * runs under a large outer count seen again); never with CK_EVAL_NO_JIT, with
 * CKERNEL_JIT=0 in the environment, or when the build has no LLVM or the plugin does not
 * load (CKERNEL_JIT_PLUGIN=PATH names another plugin file). Any failure to compile falls
 * back to the composed kernel. */
#ifndef CKERNEL_JIT_H
#define CKERNEL_JIT_H

#include <stddef.h>

#include "ckernel/export.h"

CK_BEGIN_DECLS

typedef struct ck_jit_info {
    int available;            /* 1 when kernels can be compiled in this process */
    const char *status;       /* "LLVM 15.0.6", or why not ("disabled by CKERNEL_JIT=0",
                                 "built without LLVM", "the plugin failed to load: ...") */
    const char *llvm_version; /* "15.0.6"; "" when not available */
    const char *cpu_name;     /* the host CPU LLVM compiles for ("znver4"); "" likewise */
    const char *cpu_features; /* "+avx2,+avx512f,..." */
    const char *plugin_path;  /* the plugin file tried */
    size_t cached_codes;      /* compiled nests alive now (held by kernels) */
    size_t compiles;          /* compiles since the process started */
    double compile_ms;        /* their total time */
    size_t retained_codes;    /* compiled nests no kernel holds, kept for the next build of
                                 the same nest (the 64 most recently released) */
} ck_jit_info;

/* Loads the plugin if it was not tried yet, and describes the JIT. The strings are static. */
CK_EXTERN void ck_jit_get_info(ck_jit_info *out);
/* What the last kernel build on this thread decided about the JIT, for explain: "compiled
 * in 11.8 ms, fingerprint ...", "cache hit, fingerprint ...", "not used: ..." ; "" when the
 * last build had no nest to compile. */
CK_EXTERN const char *ck_jit_last_decision(void);
/* Frees the compiled nests no kernel holds (ck_jit_info.retained_codes): the next build of
 * such a nest compiles it again. For a host short of memory, and for leak checks. */
CK_EXTERN void ck_jit_trim(void);

CK_END_DECLS

#endif
