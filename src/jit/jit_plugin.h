/* src/jit/jit_plugin.h: the C ABI between libckernel and its JIT plugin, libckernel-jit
 * (src/jit/plugin/, the only code that links LLVM). The core loads the plugin with
 * dlopen the first time a kernel wants it (src/jit/jit.c) and asks it for one table,
 * ck_jit_plugin_v1(); everything crosses this boundary as plain C data, and the plugin
 * reports failures as text in a caller's buffer, never through the core's symbols.
 *
 * What the plugin compiles: a loop nest over fixed dimensions with sizes and strides baked
 * in, around an elementwise body:
 *     r = op(cast(src[0]), ...)      op: assign (r = the one argument), add/subtract/
 *                                    multiply/divide in the type `op_id`, or a direct call
 *                                    of a native C function; argument k is first cast
 *                                    losslessly to param_id[k]
 *     dst = convert(r)               op_id -> dst_id; where the fast conversion cannot be
 *                                    sure to give ckernel's result and status (a checked
 *                                    mode, NaN, out of range), the element goes through
 *                                    `slow`, a precompiled leaf, with r in memory.
 * or, for an expression (CK__JIT_OP_EXPR), a program of nodes in evaluation order, each a
 * load of a source, a constant, a cast, or one of the operations above applied to earlier
 * nodes (the same lowering, node by node), the last node's value converted into dst.
 * The compiled functions have the kernel ABI (ckernel/kernel.h): the strided one runs the
 * whole nest once per outer element (count, dst_stride, src_stride[k]). A destination too
 * large for the cache may be written with streaming stores (stream_copy below). */
#ifndef CKERNEL_JIT_PLUGIN_H
#define CKERNEL_JIT_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "ckernel/builder.h" /* CK__ALIGNAS */
#include "ckernel/eval.h"
#include "ckernel/kernel.h"
#include "ckernel/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CK__JIT_ABI_VERSION 7
#define CK__JIT_MAX_DIMS 8
#define CK__JIT_MAX_ARGS 8
/* An expression's nodes (loads, constants, casts and operations together). */
#define CK__JIT_MAX_NODES 64

typedef enum ck__jit_op {
    CK__JIT_OP_ASSIGN,
    CK__JIT_OP_ADD,
    CK__JIT_OP_SUBTRACT,
    CK__JIT_OP_MULTIPLY,
    CK__JIT_OP_DIVIDE,
    CK__JIT_OP_NATIVE, /* r = native_fn(args...): a direct call, with the C ABI */
    CK__JIT_OP_NEGATIVE, /* r = -a: integers wrap, floats flip the sign bit */
    CK__JIT_OP_MINIMUM,  /* NumPy 1.24's, as leaves/numeric/arith_ops.h (a NaN operand wins) */
    CK__JIT_OP_MAXIMUM,
    CK__JIT_OP_EXPR,  /* the nest's program (node[0 .. nnodes-1]) */
    CK__JIT_OP_LOAD,  /* expression node: source arg[0] */
    CK__JIT_OP_CONST, /* expression node: `value` */
    /* The comparisons, in ck__compare_op's order: a bool of two operands of one type (NaN
     * compares false, but not equal). */
    CK__JIT_OP_EQUAL,
    CK__JIT_OP_NOT_EQUAL,
    CK__JIT_OP_LESS,
    CK__JIT_OP_LESS_EQUAL,
    CK__JIT_OP_GREATER,
    CK__JIT_OP_GREATER_EQUAL,
    CK__JIT_OP_WHERE,       /* arg[0] (bool) ? arg[1] : arg[2], a select (no branch) */
    CK__JIT_OP_LOGICAL_AND, /* the operands' truth values (a NaN is true), a bool */
    CK__JIT_OP_LOGICAL_OR,
    CK__JIT_OP_LOGICAL_XOR,
    CK__JIT_OP_LOGICAL_NOT,
    CK__JIT_OP_BIT_AND, /* integers' bits, bool's truth values (NumPy's & | ^ ~) */
    CK__JIT_OP_BIT_OR,
    CK__JIT_OP_BIT_XOR,
    CK__JIT_OP_INVERT,
    CK__JIT_NUM_OPS
} ck__jit_op;

/* One node of an expression's program. Its value has type `type`; an operation's operands
 * are earlier nodes arg[0 .. nargs-1], each first cast losslessly to param_id[k]. A cast
 * (CK__JIT_OP_ASSIGN) converts node arg[0] as ASSIGN's body does, in NOCHECK mode (casts
 * that can fail are not compiled): `slow` is the precompiled single leaf of the pair. */
typedef struct ck__jit_node {
    int32_t op;   /* ck__jit_op: LOAD, CONST, ASSIGN, or any operation but EXPR */
    int32_t type; /* ck_type_id of its value */
    int32_t nargs;
    int32_t pad;
    int32_t arg[CK__JIT_MAX_ARGS];
    int32_t param_id[CK__JIT_MAX_ARGS];
    void (*native_fn)(void);
    /* NATIVE of one or two operands: NULL, or the same function over a chunk, void (void
     * *out, const void *x, const void *y, size_t n), n <= CK__JIT_CHUNK contiguous elements
     * of its parameter and result types, out apart from x and y (y is x for one operand),
     * each element native_fn's bits. The innermost runs of a nest with such nodes
     * go in blocks of CK__JIT_CHUNK: the operands of each such node computed for the block
     * into buffers, the call, then the rest of the program per element. */
    void (*vector_fn)(void);
    ck_single_fn slow;
    CK__ALIGNAS(16) unsigned char value[16]; /* CONST: as the type stores it */
} ck__jit_node;

#define CK__JIT_CHUNK 256

/* A nest, normalised: every byte is part of the fingerprint (zero what is unused). */
typedef struct ck__jit_nest {
    int32_t op;       /* ck__jit_op */
    int32_t ndim;     /* 1 .. CK__JIT_MAX_DIMS, outermost first, after coalescing */
    int32_t nargs;    /* the sources: 1 (assign) .. CK__JIT_MAX_ARGS */
    int32_t mode;     /* ck_errmode of the result conversion (concrete) */
    int32_t dst_id;   /* ck_type_id */
    int32_t op_id;
    int32_t arg_id[CK__JIT_MAX_ARGS];   /* the sources' types */
    int32_t param_id[CK__JIT_MAX_ARGS]; /* what each is cast to (losslessly) first */
    intptr_t size[CK__JIT_MAX_DIMS];
    intptr_t dst_stride[CK__JIT_MAX_DIMS];
    intptr_t src_stride[CK__JIT_MAX_ARGS][CK__JIT_MAX_DIMS];
    /* dst_id <- op_id in `mode`, single function of the precompiled leaf table of the CPU
     * target in use (the call ignores self). Part of the fingerprint: it names the target. */
    ck_single_fn slow;
    /* The strided function of the same precompiled leaf: an assignment whose types the
     * plugin does not convert itself (bool, float16, complex) runs its innermost dimension
     * through it, with every outer loop compiled. */
    ck_strided_fn slow_strided;
    void (*native_fn)(void); /* CK__JIT_OP_NATIVE: the C function (op_id is its result) */
    /* NULL, or the destination is above the streaming threshold and contiguous innermost
     * (dst_stride[ndim - 1] its element's size, which divides 64): the innermost runs write
     * blocks into a stack buffer that this streaming copy (core/streaming_loops.h:
     * void (char *dst, const char *src, size_t bytes), dst 64-byte aligned, whole lines)
     * sends out, the lines before the first boundary and after the last written directly;
     * the nest ends with a store fence. */
    void (*stream_copy)(void);
    /* CK__JIT_OP_EXPR: the program; op_id is the last node's type. Last, so that only the
     * nodes used are part of the fingerprint and the cache's key (ck__jit_nest_bytes). */
    int32_t nnodes;
    int32_t pad;
    ck__jit_node node[CK__JIT_MAX_NODES];
} ck__jit_nest;

/* The bytes of a nest that mean something: all but the unused nodes. */
static inline size_t ck__jit_nest_bytes(const ck__jit_nest *n) {
    return offsetof(ck__jit_nest, node) + (size_t)n->nnodes * sizeof(ck__jit_node);
}

/* The compiled code of one nest. */
typedef struct ck__jit_compiled {
    void *handle;          /* the plugin's, for release */
    ck_single_fn single;
    ck_strided_fn strided;
    double compile_ms;     /* IR, optimisation, object code and linking */
    size_t code_bytes;     /* the object file's size */
    int inner_leaf;        /* 1: the innermost runs call the precompiled slow_strided leaf
                            * (a cast the plugin does not generate); only the outer loops
                            * are compiled */
} ck__jit_compiled;

typedef struct ck__jit_plugin {
    int abi; /* CK__JIT_ABI_VERSION */
    /* Once, before anything else: sets up LLVM's native target and the JIT. 0 or -1 with a
     * message in err. */
    int (*init)(char *err, size_t errcap);
    const char *(*llvm_version)(void); /* "15.0.6" */
    const char *(*cpu_name)(void);     /* "znver4" */
    const char *(*cpu_features)(void); /* "+avx2,+avx512f,..." */
    /* 0 with *out filled, -1 with a message in err (the IR failed verification, LLVM
     * reported an error, ...). Thread-safe: compiles run in parallel, each with its own
     * context and target machine; adding the object to the JIT is serialised. */
    int (*compile)(const ck__jit_nest *nest, ck__jit_compiled *out, char *err, size_t errcap);
    /* Frees the code of a compile (every function of it becomes invalid). Thread-safe. */
    void (*release)(void *handle);
} ck__jit_plugin;

/* The plugin's one exported symbol. */
typedef const ck__jit_plugin *(*ck__jit_plugin_entry)(void);
#define CK__JIT_PLUGIN_ENTRY "ck_jit_plugin_v1"

#ifdef __cplusplus
}
#endif

#endif
