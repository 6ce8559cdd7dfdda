/* src/jit/plugin/llvm_jit_internal.h: what the plugin's files share (docs/design.md §11):
 * the host target found at load (llvm_jit.c), the scalar facts the plugin compiles from
 * (the table in llvm_jit_check.c), the state of one compile's IR emission and its entry
 * (llvm_jit_emit.c), and the validation of a nest before it is compiled (llvm_jit_check.c).
 * None of it is exported: the plugin's one symbol is ck_jit_plugin_v1 (llvm_jit.c). */
#ifndef CKERNEL_LLVM_JIT_INTERNAL_H
#define CKERNEL_LLVM_JIT_INTERNAL_H

#include <stddef.h>

#include <llvm-c/Core.h>

#include "jit/jit_plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The host's target triple, CPU name and CPU features (LLVM's strings), set by
 * plugin_init (llvm_jit.c). */
extern char *ck__llvm_triple, *ck__llvm_host_cpu, *ck__llvm_host_features;

/* Writes "what: detail" (or "what" with no detail) into err, if it has room. */
void ck__llvm_put_error(char *err, size_t cap, const char *what, const char *detail);

/* The scalar table's facts the plugin compiles from, by id (ckernel/scalar_types.h). */
enum { JIT_BOOL, JIT_SIGNED, JIT_UNSIGNED, JIT_FLOAT, JIT_COMPLEX };
typedef struct jit_scalar {
    const char *name;
    unsigned char kind, bits, part_size, parts; /* bits: magnitude or significand */
} jit_scalar;
/* llvm_jit_check.c */
extern const jit_scalar ck__llvm_scalars[CK_NUM_SCALAR_TYPES];

static inline int is_int(int id) {
    return ck__llvm_scalars[id].kind == JIT_SIGNED || ck__llvm_scalars[id].kind == JIT_UNSIGNED;
}
static inline int is_signed(int id) {
    return ck__llvm_scalars[id].kind == JIT_SIGNED;
}
static inline int is_bool(int id) {
    return ck__llvm_scalars[id].kind == JIT_BOOL;
}
/* A float the plugin computes in: float32 or float64 (not the 16-bit formats). */
static inline int is_float(int id) {
    return ck__llvm_scalars[id].kind == JIT_FLOAT && ck__llvm_scalars[id].part_size >= 4;
}
static inline unsigned int_bits(int id) {
    return (unsigned)ck__llvm_scalars[id].bits + (unsigned)is_signed(id);
}
/* The significand precision of a float. */
static inline unsigned precision(int id) {
    return ck__llvm_scalars[id].bits;
}
static inline unsigned bytes_of(int id) {
    return (unsigned)ck__llvm_scalars[id].part_size * ck__llvm_scalars[id].parts;
}

/* The IR emission of one compile (llvm_jit_emit.c). */
typedef struct gen {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMBuilderRef b;
    LLVMTypeRef i1, i8, i32, i64, i128, ptr, f32, f64;
    LLVMValueRef fn;      /* the nest function being emitted */
    LLVMBasicBlockRef fail; /* returns the status in the `status` phi */
    LLVMValueRef status_phi;
    LLVMValueRef slow_tmp, slow_args; /* allocas for the slow path */
    LLVMValueRef run_src, run_stride;  /* allocas for a call of the strided leaf */
    LLVMValueRef cast_tmp[CK__JIT_MAX_NODES]; /* an expression's casts: one alloca each */
    int leaf_runs;                     /* the innermost dimension is a strided leaf call */
    LLVMValueRef stream_buf;           /* the streamed runs' block buffer, or NULL */
    int chunked;                       /* some node is a chunk call (vector_fn) */
    LLVMValueRef chunk_in[2];          /* the chunk calls' operands, CK__JIT_CHUNK each */
    LLVMValueRef chunk_out[CK__JIT_MAX_NODES]; /* each chunk call's results */
    const ck__jit_nest *nest;
} gen;

/* i32 nest(ptr d, ptr a0, ...): the whole nest once, in g->mod; NULL on failure. */
LLVMValueRef ck__llvm_emit_nest_fn(gen *g);
/* The host's target-cpu and target-features on fn. */
void ck__llvm_add_target_attributes(gen *g, LLVMValueRef fn);
/* The two exported functions, single and strided, named so, calling the nest. */
void ck__llvm_emit_entry_points(gen *g, LLVMValueRef nest, const char *single_name,
                                const char *strided_name);

/* The validation (llvm_jit_check.c). */
/* 1 when the body converts its types itself; an assignment it cannot convert runs its
 * innermost dimension through the precompiled strided leaf instead (any pair). An
 * expression's conversions are checked by ck__llvm_check_nest. */
int ck__llvm_converts_itself(const ck__jit_nest *n);
/* 0 when the nest is one the plugin compiles exactly, else -1 with the reason in err. */
int ck__llvm_check_nest(const ck__jit_nest *n, char *err, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
