/* src/jit/plugin/llvm_jit_check.c: the plugin's validation of the nests it is asked to
 * compile (src/jit/jit_plugin.h): well formed, and of operations, types and conversions the
 * emitted code computes exactly (llvm_jit_emit.c), else the reason as an error; and the
 * scalar facts it decides from, by id. */
#include <stdint.h>
#include <stdio.h>

#include "jit/jit_plugin.h"
#include "jit/plugin/llvm_jit_internal.h"

#define JIT_SCALAR(E, n, part, psize, parts, kind, bits, ...) {#n, JIT_##kind, bits, psize, parts},
const jit_scalar ck__llvm_scalars[CK_NUM_SCALAR_TYPES] = {CK_SCALAR_TABLE(JIT_SCALAR)};

static int supported_conversion(int from, int to) {
    return (is_int(from) || is_float(from)) && (is_int(to) || is_float(to));
}

int ck__llvm_converts_itself(const ck__jit_nest *n) {
    if ((n->op == CK__JIT_OP_ASSIGN && n->arg_id[0] == n->dst_id) || n->op == CK__JIT_OP_EXPR) {
        return 1;
    }
    return (is_int(n->op_id) || is_float(n->op_id)) && supported_conversion(n->op_id, n->dst_id) &&
           (is_int(n->arg_id[0]) || is_float(n->arg_id[0]));
}

static const char *type_name(int id) {
    return ck__llvm_scalars[id].name;
}

static int numeric(int id) {
    return is_int(id) || is_float(id);
}

/* A value the body computes with: an integer, float32, float64, or a bool (held as 0 or 1 in
 * a byte). */
static int computed(int id) {
    return numeric(id) || is_bool(id);
}

/* Operands cast losslessly to param_id: numbers widen, a bool to any (0 or 1); nothing
 * narrows into a bool. */
static int operands_ok(int nargs, const int32_t *arg_id, const int32_t *param_id) {
    for (int k = 0; k < nargs; k++) {
        const int a = arg_id[k], p = param_id[k];
        if (!computed(a) || !computed(p) || (is_bool(p) && !is_bool(a))) {
            return 0;
        }
    }
    return 1;
}

/* The bool and bitwise operations: their types, 0 when compiled exactly, else -1 with why. */
static int check_logic(int op, int op_id, int nargs, const int32_t *arg_id,
                       const int32_t *param_id, char *what, size_t cap) {
    int ok = operands_ok(nargs, arg_id, param_id);
    if (op >= CK__JIT_OP_EQUAL && op <= CK__JIT_OP_GREATER_EQUAL) {
        ok = ok && is_bool(op_id) && param_id[0] == param_id[1];
    } else if (op == CK__JIT_OP_WHERE) {
        ok = ok && computed(op_id) && is_bool(param_id[0]) && param_id[1] == op_id &&
             param_id[2] == op_id;
    } else if (op >= CK__JIT_OP_LOGICAL_AND && op <= CK__JIT_OP_LOGICAL_NOT) {
        ok = ok && is_bool(op_id);
    } else { /* bitwise: of integers or bools, in their own type */
        ok = ok && (is_int(op_id) || is_bool(op_id));
        for (int k = 0; ok && k < nargs; k++) {
            ok = param_id[k] == op_id;
        }
    }
    if (!ok) {
        snprintf(what, cap, "a comparison, select or logical operation in %s is not compiled "
                            "(of bool, integers, float32 and float64 it is)",
                 type_name(nargs > 0 && !computed(arg_id[nargs - 1]) ? arg_id[nargs - 1] : op_id));
        return -1;
    }
    return 0;
}

/* 0 when the operation `op` in op_id on arguments of types arg_id, cast to param_id, is
 * compiled exactly, else -1 with the reason in what: a nest's one operation, or a node of an
 * expression. The types are valid scalar ids. */
static int check_op(int op, int op_id, int nargs, const int32_t *arg_id, const int32_t *param_id,
                    void (*native_fn)(void), char *what, size_t cap) {
    static const int arity[CK__JIT_NUM_OPS] = {
        [CK__JIT_OP_ASSIGN] = 1,       [CK__JIT_OP_ADD] = 2,          [CK__JIT_OP_SUBTRACT] = 2,
        [CK__JIT_OP_MULTIPLY] = 2,     [CK__JIT_OP_DIVIDE] = 2,       [CK__JIT_OP_NATIVE] = -1,
        [CK__JIT_OP_NEGATIVE] = 1,     [CK__JIT_OP_MINIMUM] = 2,      [CK__JIT_OP_MAXIMUM] = 2,
        [CK__JIT_OP_EXPR] = 0,         [CK__JIT_OP_LOAD] = 0,         [CK__JIT_OP_CONST] = 0,
        [CK__JIT_OP_EQUAL] = 2,        [CK__JIT_OP_NOT_EQUAL] = 2,    [CK__JIT_OP_LESS] = 2,
        [CK__JIT_OP_LESS_EQUAL] = 2,   [CK__JIT_OP_GREATER] = 2,      [CK__JIT_OP_GREATER_EQUAL] = 2,
        [CK__JIT_OP_WHERE] = 3,        [CK__JIT_OP_LOGICAL_AND] = 2,  [CK__JIT_OP_LOGICAL_OR] = 2,
        [CK__JIT_OP_LOGICAL_XOR] = 2,  [CK__JIT_OP_LOGICAL_NOT] = 1,  [CK__JIT_OP_BIT_AND] = 2,
        [CK__JIT_OP_BIT_OR] = 2,       [CK__JIT_OP_BIT_XOR] = 2,      [CK__JIT_OP_INVERT] = 1};
    const int bad_op = op < CK__JIT_OP_ASSIGN || op >= CK__JIT_NUM_OPS ||
                       op == CK__JIT_OP_EXPR || op == CK__JIT_OP_LOAD || op == CK__JIT_OP_CONST;
    if (bad_op || (arity[op] >= 0 ? nargs != arity[op] : (nargs < 0 || nargs > CK__JIT_MAX_ARGS))) {
        snprintf(what, cap, "malformed nest");
        return -1;
    }
    if (op >= CK__JIT_OP_EQUAL) {
        return check_logic(op, op_id, nargs, arg_id, param_id, what, cap);
    }
    int ok = numeric(op_id);
    for (int k = 0; ok && k < nargs; k++) {
        ok = computed(arg_id[k]) && numeric(param_id[k]);
    }
    if (!ok) {
        snprintf(what, cap, "arithmetic in %s is not compiled (integers, float32 and float64 are)",
                 type_name(op == CK__JIT_OP_ASSIGN || !numeric(op_id) ? arg_id[0] : op_id));
        for (int k = 0; k < nargs && op != CK__JIT_OP_ASSIGN && numeric(op_id); k++) {
            if (!numeric(arg_id[k])) {
                snprintf(what, cap, "an operand of %s is not compiled (integers, float32 and "
                                    "float64 are)", type_name(arg_id[k]));
            }
        }
        return -1;
    }
    if (op == CK__JIT_OP_DIVIDE && !is_float(op_id)) {
        snprintf(what, cap, "integer divide is not compiled (a zero divisor needs its status "
                            "from the precompiled leaf)");
        return -1;
    }
    if (op == CK__JIT_OP_NATIVE) {
        /* Narrow integers need the ABI's extension attributes: left to libffi. */
        ok = native_fn != NULL && (is_float(op_id) || int_bits(op_id) >= 32);
        for (int k = 0; ok && k < nargs; k++) {
            ok = is_float(param_id[k]) || int_bits(param_id[k]) >= 32;
        }
        if (!ok) {
            snprintf(what, cap, "a native call with an argument or result narrower than 32 "
                                "bits, bool, float16 or complex is not compiled");
            return -1;
        }
    }
    return 0;
}

/* An expression's program: every node's operands come before it, every type is one the
 * body computes in, every cast one it converts. */
static int check_program(const ck__jit_nest *n, char *what, size_t cap) {
    if (n->nnodes < 1 || n->nnodes > CK__JIT_MAX_NODES ||
        n->node[n->nnodes - 1].type != n->op_id) {
        snprintf(what, cap, "malformed nest");
        return -1;
    }
    for (int i = 0; i < n->nnodes; i++) {
        const ck__jit_node *nd = &n->node[i];
        int32_t arg_id[CK__JIT_MAX_ARGS];
        if ((unsigned)nd->type >= CK_NUM_SCALAR_TYPES || nd->nargs < 0 ||
            nd->nargs > CK__JIT_MAX_ARGS) {
            snprintf(what, cap, "malformed nest");
            return -1;
        }
        for (int k = 0; k < nd->nargs; k++) {
            const int limit = nd->op == CK__JIT_OP_LOAD ? n->nargs : i;
            if (nd->arg[k] < 0 || nd->arg[k] >= limit ||
                (unsigned)nd->param_id[k] >= CK_NUM_SCALAR_TYPES) {
                snprintf(what, cap, "malformed nest");
                return -1;
            }
            arg_id[k] = nd->op == CK__JIT_OP_LOAD ? n->arg_id[nd->arg[k]] : n->node[nd->arg[k]].type;
        }
        if (nd->op == CK__JIT_OP_LOAD || nd->op == CK__JIT_OP_CONST) {
            if ((nd->op == CK__JIT_OP_LOAD) != (nd->nargs == 1) ||
                (nd->op == CK__JIT_OP_LOAD && arg_id[0] != nd->type)) {
                snprintf(what, cap, "malformed nest");
                return -1;
            }
            if (!computed(nd->type)) {
                snprintf(what, cap, "%s values are not compiled (bool, integers, float32 and "
                                    "float64 are)", type_name(nd->type));
                return -1;
            }
        } else if (nd->op == CK__JIT_OP_ASSIGN) {
            if (nd->nargs != 1 || nd->slow == NULL) {
                snprintf(what, cap, "malformed nest");
                return -1;
            }
            if (!supported_conversion(arg_id[0], nd->type)) {
                snprintf(what, cap, "a cast %s -> %s is not compiled (integers, float32 and "
                                    "float64 are)", type_name(arg_id[0]), type_name(nd->type));
                return -1;
            }
        } else if (check_op(nd->op, nd->type, nd->nargs, arg_id, nd->param_id, nd->native_fn,
                            what, cap) != 0) {
            return -1;
        }
        if (nd->vector_fn != NULL) {
            /* A chunk call: a native call (its types checked above) of one or two operands. */
            if (nd->op != CK__JIT_OP_NATIVE || nd->nargs < 1 || nd->nargs > 2) {
                snprintf(what, cap, "malformed nest");
                return -1;
            }
        }
    }
    return 0;
}

int ck__llvm_check_nest(const ck__jit_nest *n, char *err, size_t cap) {
    char what[160];
    if (n->ndim < 1 || n->ndim > CK__JIT_MAX_DIMS || n->nargs < 1 ||
        n->nargs > CK__JIT_MAX_ARGS || n->mode < 0 || n->mode > CK_ERRMODE_INEXACT) {
        ck__llvm_put_error(err, cap, "malformed nest", NULL);
        return -1;
    }
    for (int k = 0; k < n->nargs; k++) {
        if ((unsigned)n->arg_id[k] >= CK_NUM_SCALAR_TYPES ||
            (unsigned)n->param_id[k] >= CK_NUM_SCALAR_TYPES) {
            ck__llvm_put_error(err, cap, "malformed nest", NULL);
            return -1;
        }
    }
    if ((unsigned)n->dst_id >= CK_NUM_SCALAR_TYPES || (unsigned)n->op_id >= CK_NUM_SCALAR_TYPES) {
        ck__llvm_put_error(err, cap, "malformed nest", NULL);
        return -1;
    }
    if (n->op == CK__JIT_OP_ASSIGN && n->arg_id[0] == n->dst_id) {
        return 0; /* a copy of any type */
    }
    if (n->op == CK__JIT_OP_ASSIGN && !ck__llvm_converts_itself(n)) {
        return n->slow_strided != NULL ? 0 : -1; /* leaf runs */
    }
    int rc = n->op == CK__JIT_OP_EXPR
                 ? check_program(n, what, sizeof what)
                 : check_op(n->op, n->op_id, n->nargs, n->arg_id, n->param_id, n->native_fn, what,
                            sizeof what);
    if (rc == 0 && n->op_id != n->dst_id && !supported_conversion(n->op_id, n->dst_id)) {
        snprintf(what, sizeof what, "the result's conversion %s -> %s is not compiled "
                                    "(integers, float32 and float64 are)",
                 type_name(n->op_id), type_name(n->dst_id));
        rc = -1;
    }
    if (rc != 0) {
        ck__llvm_put_error(err, cap, what, NULL);
    }
    return rc;
}
