/* src/jit/plugin/llvm_jit_emit.c: the plugin's IR emission: a nest (src/jit/jit_plugin.h)
 * as LLVM IR in one compile's own context and module: the loops with the strides baked in,
 * the element's loads, operations and conversions (where a fast conversion cannot be sure of
 * ckernel's result, a call of the precompiled leaf), the streamed runs, and the two entry
 * points with the kernel ABI. The nests it is given are validated (llvm_jit_check.c). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "jit/jit_plugin.h"
#include "jit/plugin/llvm_jit_internal.h"

static LLVMTypeRef type_of(gen *g, int id) {
    if (is_bool(id)) {
        return g->i8; /* 0 or 1 */
    }
    if (is_int(id)) {
        return LLVMIntTypeInContext(g->ctx, int_bits(id));
    }
    return ck__llvm_scalars[id].part_size == 4 ? g->f32 : g->f64;
}

static LLVMValueRef const_i64(gen *g, long long v) {
    return LLVMConstInt(g->i64, (unsigned long long)v, 1);
}

static LLVMValueRef gep(gen *g, LLVMValueRef base, LLVMValueRef offset) {
    return LLVMBuildGEP2(g->b, g->i8, base, &offset, 1, "");
}

static LLVMValueRef load_aligned(gen *g, LLVMTypeRef t, LLVMValueRef p, unsigned align) {
    LLVMValueRef v = LLVMBuildLoad2(g->b, t, p, "");
    LLVMSetAlignment(v, align);
    return v;
}
/* An operand of type id at p: a bool's byte read as its truth value (0 or 1), as the
 * precompiled leaves read it. */
static LLVMValueRef load_value(gen *g, int id, LLVMValueRef p);

static void store_aligned(gen *g, LLVMValueRef v, LLVMValueRef p, unsigned align) {
    LLVMValueRef s = LLVMBuildStore(g->b, v, p);
    LLVMSetAlignment(s, align);
}

static LLVMValueRef call_intrinsic1(gen *g, const char *name, LLVMTypeRef t, LLVMValueRef x) {
    const unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(g->mod, id, &t, 1);
    LLVMTypeRef fty = LLVMIntrinsicGetType(g->ctx, id, &t, 1);
    return LLVMBuildCall2(g->b, fty, fn, &x, 1, "");
}

/* x with mask_bits xor'ed into its bits, the mask loaded from a constant global the optimiser
 * does not know the value of (externally initialized: the load is hoisted out of the loops,
 * the xor stays one vector instruction). The value is opaque to the folds that would change
 * a NaN's bits: with the sign bit, -x cannot be moved into or out of products, quotients and
 * sums (-(a / b) -> -a / b, -a * -b -> a * b, a + -b -> a - b flip a NaN's sign); with 0, a
 * float32 widened to float64 cannot be narrowed again without its conversion
 * (fptrunc(fpext x) -> x, or a select or an operation narrowed over fpext'd operands, skip
 * the cvtss2sd that quiets a signalling NaN in the composed leaf). A visible xor of the sign
 * bit is no better than fneg (once vectorised it is recognised as one and folded), and
 * llvm.arithmetic.fence keeps the loop from being vectorised (LLVM 15). */
static LLVMValueRef opaque_xor(gen *g, LLVMValueRef x, unsigned long long mask_bits) {
    LLVMTypeRef ft = LLVMTypeOf(x);
    LLVMTypeRef it = ft == g->f64 ? g->i64 : g->i32;
    LLVMValueRef gv = LLVMAddGlobal(g->mod, it, "");
    LLVMSetInitializer(gv, LLVMConstInt(it, mask_bits, 0));
    LLVMSetGlobalConstant(gv, 1);
    LLVMSetExternallyInitialized(gv, 1);
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    LLVMValueRef mask = load_aligned(g, it, gv, it == g->i64 ? 8 : 4);
    LLVMValueRef bits = LLVMBuildXor(g->b, LLVMBuildBitCast(g->b, x, it, ""), mask, "");
    return LLVMBuildBitCast(g->b, bits, ft, "");
}

/* float32 -> float64, kept as a conversion (above). */
static LLVMValueRef fpext_kept(gen *g, LLVMValueRef v) {
    return opaque_xor(g, LLVMBuildFPExt(g->b, v, g->f64, ""), 0);
}

/* -x for a float: the sign bit flipped, as the composed leaf does, where no fold moves it. */
static LLVMValueRef flip_sign(gen *g, LLVMValueRef x) {
    return opaque_xor(g, x, LLVMTypeOf(x) == g->f64 ? 1ull << 63 : 1ull << 31);
}

/* A lossless conversion of an argument into the op's type (selection guarantees it). */
static LLVMValueRef load_value(gen *g, int id, LLVMValueRef p) {
    LLVMValueRef v = load_aligned(g, type_of(g, id), p, bytes_of(id));
    if (!is_bool(id)) {
        return v;
    }
    return LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntNE, v, LLVMConstInt(g->i8, 0, 0), ""),
                         g->i8, "");
}

/* A bool (i8, 0 or 1) of an i1. */
static LLVMValueRef to_bool(gen *g, LLVMValueRef bit) {
    return LLVMBuildZExt(g->b, bit, g->i8, "");
}

/* The truth value (i1) of x of type id: nonzero, and for floats NaN too (C's x != 0). */
static LLVMValueRef truth(gen *g, LLVMValueRef x, int id) {
    if (is_float(id)) {
        return LLVMBuildFCmp(g->b, LLVMRealUNE, x, LLVMConstReal(type_of(g, id), 0.0), "");
    }
    return LLVMBuildICmp(g->b, LLVMIntNE, x, LLVMConstInt(type_of(g, id), 0, 0), "");
}

/* The comparisons, bool-valued: floats ordered (a NaN compares false) but not_equal
 * (unordered: true with a NaN), integers signed or unsigned by type, bool as unsigned. */
static LLVMValueRef emit_compare(gen *g, int op, int id, LLVMValueRef x, LLVMValueRef y) {
    const int k = op - CK__JIT_OP_EQUAL;
    if (is_float(id)) {
        static const LLVMRealPredicate fp[6] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                                LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
        return to_bool(g, LLVMBuildFCmp(g->b, fp[k], x, y, ""));
    }
    static const LLVMIntPredicate sp[6] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT,
                                           LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
    static const LLVMIntPredicate up[6] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT,
                                           LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
    return to_bool(g, LLVMBuildICmp(g->b, is_signed(id) ? sp[k] : up[k], x, y, ""));
}

static LLVMValueRef widen(gen *g, LLVMValueRef v, int from, int to) {
    if (from == to) {
        return v;
    }
    if (is_bool(from)) { /* 0 or 1 */
        return is_int(to) ? LLVMBuildZExt(g->b, v, type_of(g, to), "")
                          : LLVMBuildUIToFP(g->b, v, type_of(g, to), "");
    }
    if (is_int(from) && is_int(to)) {
        return is_signed(from) ? LLVMBuildSExt(g->b, v, type_of(g, to), "")
                               : LLVMBuildZExt(g->b, v, type_of(g, to), "");
    }
    if (is_int(from)) {
        return is_signed(from) ? LLVMBuildSIToFP(g->b, v, type_of(g, to), "")
                               : LLVMBuildUIToFP(g->b, v, type_of(g, to), "");
    }
    return fpext_kept(g, v);
}

/* sign * 2^k as a float constant of type t (exact: k <= 64). No constant expressions: the
 * integer ones (LLVMConstNeg) are not valid on floats, and the verifier does not see it. */
static LLVMValueRef pow2(LLVMTypeRef t, unsigned k, double sign) {
    return LLVMConstReal(t, sign * ldexp(1.0, (int)k));
}

/* The fast conversion of r (type `from`) to `to`, and in *guard the condition under which it
 * is ckernel's exact result with no error (NULL: always). */
static LLVMValueRef convert(gen *g, LLVMValueRef r, int from, int to, int mode,
                            LLVMValueRef *guard) {
    LLVMTypeRef tt = type_of(g, to);
    *guard = NULL;
    if (is_int(from) && is_int(to)) {
        const unsigned fb = int_bits(from), tb = int_bits(to);
        LLVMValueRef v = fb > tb   ? LLVMBuildTrunc(g->b, r, tt, "")
                         : fb < tb ? (is_signed(from) ? LLVMBuildSExt(g->b, r, tt, "")
                                                      : LLVMBuildZExt(g->b, r, tt, ""))
                                   : r;
        if (mode != CK_ERRMODE_NOCHECK) {
            /* In range: compare as 128-bit integers with the destination's limits. */
            LLVMValueRef w = is_signed(from) ? LLVMBuildSExt(g->b, r, g->i128, "")
                                             : LLVMBuildZExt(g->b, r, g->i128, "");
            long long lo = is_signed(to) ? -(long long)(1ull << (tb - 1)) : 0;
            unsigned long long hi = is_signed(to) ? (1ull << (tb - 1)) - 1
                                                  : (tb == 64 ? ~0ull : (1ull << tb) - 1);
            LLVMValueRef ge = LLVMBuildICmp(g->b, LLVMIntSGE, w,
                                            LLVMConstInt(g->i128, (unsigned long long)lo, 1), "");
            LLVMValueRef le =
                LLVMBuildICmp(g->b, LLVMIntSLE, w, LLVMConstInt(g->i128, hi, 0), "");
            *guard = LLVMBuildAnd(g->b, ge, le, "");
        }
        return v;
    }
    if (is_int(from) && is_float(to)) {
        LLVMValueRef v = is_signed(from) ? LLVMBuildSIToFP(g->b, r, tt, "")
                                         : LLVMBuildUIToFP(g->b, r, tt, "");
        if (mode == CK_ERRMODE_INEXACT) {
            /* Exact when |r| <= 2^precision. */
            const unsigned p = precision(to);
            LLVMTypeRef rt = LLVMTypeOf(r);
            if (int_bits(from) > p) {
                LLVMValueRef lim = LLVMConstInt(rt, 1ull << p, 0);
                LLVMValueRef le = LLVMBuildICmp(g->b, is_signed(from) ? LLVMIntSLE : LLVMIntULE,
                                                r, lim, "");
                if (is_signed(from)) {
                    LLVMValueRef neg = LLVMConstInt(rt, (unsigned long long)-(long long)(1ull << p), 1);
                    LLVMValueRef ge = LLVMBuildICmp(g->b, LLVMIntSGE, r, neg, "");
                    le = LLVMBuildAnd(g->b, le, ge, "");
                }
                *guard = le;
            }
        }
        return v;
    }
    if (is_float(from) && is_float(to)) {
        if (precision(from) < precision(to)) {
            return fpext_kept(g, r); /* exact */
        }
        LLVMValueRef v = LLVMBuildFPTrunc(g->b, r, tt, "");
        if (mode != CK_ERRMODE_NOCHECK) {
            LLVMValueRef a = call_intrinsic1(g, "llvm.fabs", g->f64, r);
            *guard = LLVMBuildFCmp(g->b, LLVMRealOLE, a, LLVMConstReal(g->f64, 3.4028234663852886e38),
                                   "");
            if (mode == CK_ERRMODE_INEXACT) {
                LLVMValueRef back = LLVMBuildFPExt(g->b, v, g->f64, "");
                *guard = LLVMBuildAnd(g->b, *guard, LLVMBuildFCmp(g->b, LLVMRealOEQ, back, r, ""),
                                      "");
            }
        }
        return v;
    }
    /* float -> int: in range (NaN fails an ordered compare), and integral when checked. */
    LLVMTypeRef ft = type_of(g, from);
    const unsigned tb = int_bits(to);
    LLVMValueRef lo = is_signed(to) ? pow2(ft, tb - 1, -1.0) : LLVMConstReal(ft, 0.0);
    LLVMValueRef hi = pow2(ft, is_signed(to) ? tb - 1 : tb, 1.0);
    LLVMValueRef ok = LLVMBuildAnd(g->b, LLVMBuildFCmp(g->b, LLVMRealOGE, r, lo, ""),
                                   LLVMBuildFCmp(g->b, LLVMRealOLT, r, hi, ""), "");
    if (mode == CK_ERRMODE_FRACTIONAL || mode == CK_ERRMODE_INEXACT) {
        LLVMValueRef t = call_intrinsic1(g, "llvm.trunc", ft, r);
        ok = LLVMBuildAnd(g->b, ok, LLVMBuildFCmp(g->b, LLVMRealOEQ, t, r, ""), "");
    }
    *guard = ok;
    /* In range the conversion is defined; out of it the value is not used (the slow path
     * stores). A select keeps the fast value well defined for the vectorizer. */
    LLVMValueRef safe = LLVMBuildSelect(g->b, ok, r, LLVMConstReal(ft, 0.0), "");
    return is_signed(to) ? LLVMBuildFPToSI(g->b, safe, tt, "") : LLVMBuildFPToUI(g->b, safe, tt, "");
}

/* r = op(c[0 .. nargs-1]) computed in op_id, the operands already in their parameter types:
 * the one lowering of an operation, for a nest's body and for each node of an expression.
 * Integers wrap (no nsw/nuw), floats are IEEE operations without fast-math flags (no
 * contraction into FMA, no reassociation), as the precompiled leaves compute them. */
static LLVMValueRef emit_op(gen *g, int op, int op_id, int nargs, const int32_t *param_id,
                            void (*native_fn)(void), const LLVMValueRef *c) {
    const int fl = is_float(op_id);
    LLVMValueRef pick;
    switch (op) {
    case CK__JIT_OP_ADD: return fl ? LLVMBuildFAdd(g->b, c[0], c[1], "") : LLVMBuildAdd(g->b, c[0], c[1], "");
    case CK__JIT_OP_SUBTRACT: return fl ? LLVMBuildFSub(g->b, c[0], c[1], "") : LLVMBuildSub(g->b, c[0], c[1], "");
    case CK__JIT_OP_MULTIPLY: return fl ? LLVMBuildFMul(g->b, c[0], c[1], "") : LLVMBuildMul(g->b, c[0], c[1], "");
    case CK__JIT_OP_DIVIDE: return LLVMBuildFDiv(g->b, c[0], c[1], "");
    case CK__JIT_OP_NEGATIVE: return fl ? flip_sign(g, c[0]) : LLVMBuildNeg(g->b, c[0], "");
    case CK__JIT_OP_MINIMUM:
    case CK__JIT_OP_MAXIMUM: {
        /* (a < b || a is NaN) ? a : b, and > for maximum (leaves/numeric/arith_ops.h) */
        const int lo = op == CK__JIT_OP_MINIMUM;
        if (fl) {
            pick = LLVMBuildOr(
                g->b, LLVMBuildFCmp(g->b, lo ? LLVMRealOLT : LLVMRealOGT, c[0], c[1], ""),
                LLVMBuildFCmp(g->b, LLVMRealUNO, c[0], c[0], ""), "");
        } else {
            const int sg = is_signed(op_id);
            pick = LLVMBuildICmp(g->b, lo ? (sg ? LLVMIntSLT : LLVMIntULT) : (sg ? LLVMIntSGT : LLVMIntUGT),
                                 c[0], c[1], "");
        }
        return LLVMBuildSelect(g->b, pick, c[0], c[1], "");
    }
    case CK__JIT_OP_NATIVE: {
        /* A direct call with the C ABI: 32- and 64-bit integers and floats pass as they are
         * (narrower integers, bool and complex are declined by check_op). */
        LLVMTypeRef pt[CK__JIT_MAX_ARGS];
        for (int k = 0; k < nargs; k++) {
            pt[k] = type_of(g, param_id[k]);
        }
        LLVMTypeRef fty = LLVMFunctionType(type_of(g, op_id), pt, (unsigned)nargs, 0);
        uintptr_t addr;
        memcpy(&addr, &native_fn, sizeof addr);
        LLVMValueRef fp =
            LLVMBuildIntToPtr(g->b, LLVMConstInt(g->i64, (unsigned long long)addr, 0), g->ptr, "");
        return LLVMBuildCall2(g->b, fty, fp, (LLVMValueRef *)(uintptr_t)c, (unsigned)nargs, "");
    }
    case CK__JIT_OP_EQUAL:
    case CK__JIT_OP_NOT_EQUAL:
    case CK__JIT_OP_LESS:
    case CK__JIT_OP_LESS_EQUAL:
    case CK__JIT_OP_GREATER:
    case CK__JIT_OP_GREATER_EQUAL: return emit_compare(g, op, param_id[0], c[0], c[1]);
    case CK__JIT_OP_WHERE:
        return LLVMBuildSelect(g->b, truth(g, c[0], CK_TYPE_BOOL), c[1], c[2], "");
    case CK__JIT_OP_LOGICAL_AND:
    case CK__JIT_OP_LOGICAL_OR:
    case CK__JIT_OP_LOGICAL_XOR: {
        LLVMValueRef x = truth(g, c[0], param_id[0]), y = truth(g, c[1], param_id[1]);
        return to_bool(g, op == CK__JIT_OP_LOGICAL_AND ? LLVMBuildAnd(g->b, x, y, "")
                          : op == CK__JIT_OP_LOGICAL_OR ? LLVMBuildOr(g->b, x, y, "")
                                                        : LLVMBuildXor(g->b, x, y, ""));
    }
    case CK__JIT_OP_LOGICAL_NOT:
        return to_bool(g, LLVMBuildNot(g->b, truth(g, c[0], param_id[0]), ""));
    case CK__JIT_OP_BIT_AND: return LLVMBuildAnd(g->b, c[0], c[1], "");
    case CK__JIT_OP_BIT_OR: return LLVMBuildOr(g->b, c[0], c[1], "");
    case CK__JIT_OP_BIT_XOR: return LLVMBuildXor(g->b, c[0], c[1], "");
    case CK__JIT_OP_INVERT: /* a bool's: not (0 and 1 stay bools) */
        return is_bool(op_id) ? LLVMBuildXor(g->b, c[0], LLVMConstInt(g->i8, 1, 0), "")
                              : LLVMBuildNot(g->b, c[0], "");
    default: return c[0]; /* assign: the conversion follows */
    }
}

/* Stores r (type `from`) at d as type `to` in `mode`: the fast conversion where its guard
 * holds, else the precompiled single leaf `slow` with r in memory (its status ends the
 * nest when it fails). */
static void emit_store_converted(gen *g, LLVMValueRef r, int from, int to, int mode,
                                 ck_single_fn slow_fn, LLVMValueRef d) {
    if (from == to) {
        store_aligned(g, r, d, bytes_of(to));
        return;
    }
    LLVMValueRef guard;
    LLVMValueRef v = convert(g, r, from, to, mode, &guard);
    if (guard == NULL) {
        store_aligned(g, v, d, bytes_of(to));
        return;
    }
    /* Where the guard fails, the precompiled leaf converts r (in memory) and reports. */
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "fast");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "slow");
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "cont");
    LLVMBuildCondBr(g->b, guard, fast, slow);
    LLVMPositionBuilderAtEnd(g->b, fast);
    store_aligned(g, v, d, bytes_of(to));
    LLVMBuildBr(g->b, cont);
    LLVMPositionBuilderAtEnd(g->b, slow);
    store_aligned(g, r, g->slow_tmp, 16);
    LLVMBuildStore(g->b, g->slow_tmp, g->slow_args);
    LLVMTypeRef params[3] = {g->ptr, g->ptr, g->ptr};
    LLVMTypeRef fty = LLVMFunctionType(g->i32, params, 3, 0);
    uintptr_t addr;
    memcpy(&addr, &slow_fn, sizeof addr);
    LLVMValueRef fp =
        LLVMBuildIntToPtr(g->b, LLVMConstInt(g->i64, (unsigned long long)addr, 0), g->ptr, "");
    LLVMValueRef args[3] = {LLVMConstNull(g->ptr), d, g->slow_args};
    LLVMValueRef rc = LLVMBuildCall2(g->b, fty, fp, args, 3, "");
    LLVMValueRef bad = LLVMBuildICmp(g->b, LLVMIntNE, rc, LLVMConstInt(g->i32, 0, 0), "");
    LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
    LLVMAddIncoming(g->status_phi, &rc, &here, 1);
    LLVMBuildCondBr(g->b, bad, g->fail, cont);
    LLVMPositionBuilderAtEnd(g->b, cont);
}

/* A constant of scalar type id from its bytes, as a constant global loaded: exact for every
 * value. An integer is folded by the optimiser; a float's value is hidden from it (externally
 * initialized: the load stays, hoisted out of the loops), since its folds skip or move
 * operations that set a NaN's bits (x * 1.0 -> x keeps a signalling NaN, x * -1.0 -> -x flips
 * a quiet one's sign). */
static LLVMValueRef const_value(gen *g, int id, const unsigned char *bytes) {
    LLVMValueRef gv = LLVMAddGlobal(g->mod, LLVMArrayType(g->i8, 16), "");
    LLVMSetInitializer(gv, LLVMConstStringInContext(g->ctx, (const char *)bytes, 16, 1));
    LLVMSetGlobalConstant(gv, 1);
    LLVMSetExternallyInitialized(gv, is_float(id));
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    LLVMSetAlignment(gv, 16);
    return load_aligned(g, type_of(g, id), gv, 16);
}

/* 1 when node nd divides by a constant power of two 2^k whose reciprocal 2^-k is a normal
 * number of the type, with 2^-k in r: then x * 2^-k is x / 2^k for every x (both the correctly
 * rounded x * 2^-k; a NaN x comes out quieted from either). The fold the optimiser would make
 * if the constant were visible to it, done here since it is not (const_value). */
static int reciprocal_divisor(const ck__jit_nest *n, const ck__jit_node *nd, unsigned char *r) {
    const ck__jit_node *d = nd->op == CK__JIT_OP_DIVIDE ? &n->node[nd->arg[1]] : NULL;
    if (d == NULL || d->op != CK__JIT_OP_CONST || !is_float(nd->type) || d->type != nd->type ||
        nd->param_id[1] != nd->type) {
        return 0;
    }
    memset(r, 0, 16);
    int e;
    if (nd->type == CK_TYPE_FLOAT64) {
        double x;
        memcpy(&x, d->value, sizeof x);
        if (!isfinite(x) || fabs(frexp(x, &e)) != 0.5 || fabs(1.0 / x) < DBL_MIN ||
            !isfinite(1.0 / x)) {
            return 0;
        }
        x = 1.0 / x; /* exact */
        memcpy(r, &x, sizeof x);
    } else {
        float x;
        memcpy(&x, d->value, sizeof x);
        if (!isfinite(x) || fabsf(frexpf(x, &e)) != 0.5f || fabsf(1.0f / x) < FLT_MIN ||
            !isfinite(1.0f / x)) {
            return 0;
        }
        x = 1.0f / x;
        memcpy(r, &x, sizeof x);
    }
    return 1;
}

/* The value of an expression's program at one element (a[k]: the sources' elements):
 * node by node, each operation through emit_op, each cast through emit_store_converted into
 * its own stack slot (promoted to a register by the optimiser). */
/* The values of the program's nodes marked in need (all of them when need is NULL) for the
 * element at a[k], into v. In a chunked run (j: the element's index in its chunk) a chunk
 * call's value is its result in its buffer, computed before. */
static void emit_values(gen *g, const LLVMValueRef *a, const unsigned char *need, LLVMValueRef j,
                        LLVMValueRef *v) {
    const ck__jit_nest *n = g->nest;
    for (int i = 0; i < n->nnodes; i++) {
        const ck__jit_node *nd = &n->node[i];
        LLVMTypeRef t = type_of(g, nd->type);
        if (need != NULL && !need[i]) {
            v[i] = NULL;
        } else if (j != NULL && nd->vector_fn != NULL) {
            LLVMValueRef at = LLVMBuildMul(g->b, j, const_i64(g, bytes_of(nd->type)), "");
            v[i] = load_aligned(g, t, gep(g, g->chunk_out[i], at), bytes_of(nd->type));
        } else if (nd->op == CK__JIT_OP_LOAD) {
            v[i] = load_value(g, nd->type, a[nd->arg[0]]);
        } else if (nd->op == CK__JIT_OP_CONST) {
            v[i] = const_value(g, nd->type, nd->value);
        } else if (nd->op == CK__JIT_OP_ASSIGN) {
            const int from = n->node[nd->arg[0]].type;
            emit_store_converted(g, v[nd->arg[0]], from, nd->type, CK_ERRMODE_NOCHECK, nd->slow,
                                 g->cast_tmp[i]);
            v[i] = load_aligned(g, t, g->cast_tmp[i], 16);
        } else {
            LLVMValueRef c[CK__JIT_MAX_ARGS];
            for (int k = 0; k < nd->nargs; k++) {
                c[k] = widen(g, v[nd->arg[k]], n->node[nd->arg[k]].type, nd->param_id[k]);
            }
            _Alignas(16) unsigned char r[16];
            if (reciprocal_divisor(n, nd, r)) {
                v[i] = LLVMBuildFMul(g->b, c[0], const_value(g, nd->type, r), "");
            } else {
                v[i] = emit_op(g, nd->op, nd->type, nd->nargs, nd->param_id, nd->native_fn, c);
            }
        }
    }
}

static LLVMValueRef emit_program(gen *g, const LLVMValueRef *a) {
    LLVMValueRef v[CK__JIT_MAX_NODES];
    emit_values(g, a, NULL, NULL, v);
    return v[g->nest->nnodes - 1];
}

/* The element at d (destination) and a[k] (arguments). */
static int emit_element(gen *g, LLVMValueRef d, const LLVMValueRef *a) {
    const ck__jit_nest *n = g->nest;
    if (n->op == CK__JIT_OP_ASSIGN && n->arg_id[0] == n->dst_id) {
        /* The same type: a bit-exact copy (NaN payloads, bool bytes, complex). */
        const unsigned bytes = bytes_of(n->dst_id);
        LLVMTypeRef t = LLVMIntTypeInContext(g->ctx, 8 * bytes);
        const unsigned align = ck__llvm_scalars[n->dst_id].part_size; /* a complex's: a part's */
        store_aligned(g, load_aligned(g, t, a[0], align), d, align);
        return 0;
    }
    LLVMValueRef r;
    if (n->op == CK__JIT_OP_EXPR) {
        r = emit_program(g, a);
    } else {
        LLVMValueRef c[CK__JIT_MAX_ARGS];
        for (int k = 0; k < n->nargs; k++) {
            LLVMValueRef v = load_value(g, n->arg_id[k], a[k]);
            c[k] = widen(g, v, n->arg_id[k], n->param_id[k]);
        }
        r = emit_op(g, n->op, n->op_id, n->nargs, n->param_id, n->native_fn, c);
    }
    emit_store_converted(g, r, n->op_id, n->dst_id, n->mode, n->slow, d);
    return 0;
}

/* Level l of the nest over d and a[]: a counted loop with the strides baked in. */
/* The innermost dimension as one call of the precompiled strided leaf (its status out). */
static void emit_leaf_run(gen *g, LLVMValueRef d, const LLVMValueRef *a) {
    const ck__jit_nest *n = g->nest;
    const int l = n->ndim - 1;
    LLVMBuildStore(g->b, a[0], g->run_src);
    LLVMBuildStore(g->b, const_i64(g, n->src_stride[0][l]), g->run_stride);
    LLVMTypeRef params[6] = {g->ptr, g->ptr, g->i64, g->ptr, g->ptr, g->i64};
    LLVMTypeRef fty = LLVMFunctionType(g->i32, params, 6, 0);
    uintptr_t addr;
    memcpy(&addr, &n->slow_strided, sizeof addr);
    LLVMValueRef fp =
        LLVMBuildIntToPtr(g->b, LLVMConstInt(g->i64, (unsigned long long)addr, 0), g->ptr, "");
    LLVMValueRef args[6] = {LLVMConstNull(g->ptr), d,           const_i64(g, n->dst_stride[l]),
                            g->run_src,            g->run_stride, const_i64(g, n->size[l])};
    LLVMValueRef rc = LLVMBuildCall2(g->b, fty, fp, args, 6, "");
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "cont");
    LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
    LLVMAddIncoming(g->status_phi, &rc, &here, 1);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, rc, LLVMConstInt(g->i32, 0, 0), ""),
                    g->fail, cont);
    LLVMPositionBuilderAtEnd(g->b, cont);
}

static void emit_chunked_range(gen *g, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef first,
                               intptr_t ds, const LLVMValueRef *a);

/* Elements [lo, hi) of the innermost dimension (lo, hi: i64 values), element i written at
 * first + (i - lo) * ds: into the destination, or into the stream buffer. */
static int emit_range(gen *g, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef first,
                      intptr_t ds, const LLVMValueRef *a) {
    const ck__jit_nest *n = g->nest;
    if (g->chunked) {
        emit_chunked_range(g, lo, hi, first, ds, a);
        return 0;
    }
    const int l = n->ndim - 1;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "run");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "run_done");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, lo, hi, ""), body, done);
    LLVMPositionBuilderAtEnd(g->b, body);
    LLVMValueRef i = LLVMBuildPhi(g->b, g->i64, "i");
    LLVMAddIncoming(i, &lo, &pre, 1);
    LLVMValueRef dl =
        gep(g, first, LLVMBuildMul(g->b, LLVMBuildSub(g->b, i, lo, ""), const_i64(g, ds), ""));
    LLVMValueRef al[CK__JIT_MAX_ARGS];
    for (int k = 0; k < n->nargs; k++) {
        al[k] = gep(g, a[k], LLVMBuildMul(g->b, i, const_i64(g, n->src_stride[k][l]), ""));
    }
    if (emit_element(g, dl, al) != 0) {
        return -1;
    }
    LLVMValueRef next = LLVMBuildAdd(g->b, i, const_i64(g, 1), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
    LLVMAddIncoming(i, &next, &latch, 1);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, next, hi, ""), body, done);
    LLVMPositionBuilderAtEnd(g->b, done);
    return 0;
}

static LLVMValueRef umin(gen *g, LLVMValueRef x, LLVMValueRef y) {
    return LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, x, y, ""), x, y, "");
}

/* The stream buffer's bytes: 4 KiB, as the streaming kernel's chunks (L1-resident). */
#define STREAM_BUF_BYTES 4096

/* The innermost dimension, streamed (ck__jit_nest.stream_copy): the elements before d's
 * first 64-byte boundary directly, then whole lines in blocks of the buffer computed into it
 * and streamed out by the copy, then the rest directly. A destination that is not aligned
 * to its element's size has no line of whole elements: all of it goes directly. */
static int emit_streamed_run(gen *g, LLVMValueRef d, const LLVMValueRef *a) {
    const ck__jit_nest *n = g->nest;
    const int l = n->ndim - 1;
    const long long es = (long long)n->dst_stride[l], per_line = 64 / es;
    LLVMValueRef size = const_i64(g, n->size[l]), zero = const_i64(g, 0);
    LLVMValueRef to_line = LLVMBuildAnd(
        g->b,
        LLVMBuildSub(g->b, zero, LLVMBuildPtrToInt(g->b, d, g->i64, ""), ""), const_i64(g, 63),
        "");
    LLVMValueRef whole = LLVMBuildICmp(
        g->b, LLVMIntEQ, LLVMBuildURem(g->b, to_line, const_i64(g, es), ""), zero, "");
    LLVMValueRef head = umin(
        g, LLVMBuildSelect(g->b, whole, LLVMBuildUDiv(g->b, to_line, const_i64(g, es), ""), size, ""),
        size);
    if (emit_range(g, zero, head, d, es, a) != 0) {
        return -1;
    }
    LLVMValueRef lines_end = LLVMBuildAdd(
        g->b, head,
        LLVMBuildAnd(g->b, LLVMBuildSub(g->b, size, head, ""), const_i64(g, -per_line), ""), "");
    /* Blocks of the buffer over [head, lines_end). */
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef block = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "block");
    LLVMBasicBlockRef blocks_done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "blocks_done");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, head, lines_end, ""), block,
                    blocks_done);
    LLVMPositionBuilderAtEnd(g->b, block);
    LLVMValueRef at = LLVMBuildPhi(g->b, g->i64, "at");
    LLVMAddIncoming(at, &head, &pre, 1);
    LLVMValueRef m = umin(g, const_i64(g, STREAM_BUF_BYTES / es),
                          LLVMBuildSub(g->b, lines_end, at, ""));
    LLVMValueRef end = LLVMBuildAdd(g->b, at, m, "");
    if (emit_range(g, at, end, g->stream_buf, es, a) != 0) {
        return -1;
    }
    LLVMTypeRef params[3] = {g->ptr, g->ptr, g->i64};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 3, 0);
    uintptr_t addr;
    memcpy(&addr, &n->stream_copy, sizeof addr);
    LLVMValueRef fp =
        LLVMBuildIntToPtr(g->b, LLVMConstInt(g->i64, (unsigned long long)addr, 0), g->ptr, "");
    LLVMValueRef args[3] = {gep(g, d, LLVMBuildMul(g->b, at, const_i64(g, es), "")),
                            g->stream_buf, LLVMBuildMul(g->b, m, const_i64(g, es), "")};
    LLVMBuildCall2(g->b, fty, fp, args, 3, "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
    LLVMAddIncoming(at, &end, &latch, 1);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, end, lines_end, ""), block,
                    blocks_done);
    LLVMPositionBuilderAtEnd(g->b, blocks_done);
    return emit_range(g, lines_end, size,
                      gep(g, d, LLVMBuildMul(g->b, lines_end, const_i64(g, es), "")), es, a);
}

/* Orders the streamed runs' stores before the nest returns (sfence). */
static void emit_stream_fence(gen *g) {
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), NULL, 0, 0);
    LLVMValueRef f = LLVMGetNamedFunction(g->mod, "llvm.x86.sse.sfence");
    if (f == NULL) {
        f = LLVMAddFunction(g->mod, "llvm.x86.sse.sfence", fty);
    }
    LLVMBuildCall2(g->b, fty, f, NULL, 0, "");
}

/* Streams only where the plugin can fence (x86) and the innermost run is the compiled
 * loop over whole elements of a size that divides a line. */
static int streams(const ck__jit_nest *n, int leaf_runs) {
    const intptr_t es = n->dst_stride[n->ndim - 1];
    return n->stream_copy != NULL && !leaf_runs && strncmp(ck__llvm_triple, "x86_64", 6) == 0 &&
           es == (intptr_t)bytes_of(n->dst_id) && es <= 16 && 64 % es == 0;
}

/* A chunk buffer: CK__JIT_CHUNK of the widest element, and a few lines more, so that the
 * buffers on the stack are never a multiple of 4 KiB apart (a load from one and a store to
 * another at the same 4 KiB offset stall: 4K aliasing). */
#define CHUNK_BUF_BYTES (8 * CK__JIT_CHUNK + 320)

/* Marks in need what the values of the nodes `roots` take in a chunked run: their operands
 * back to the loads and constants, a chunk call's value being read from its buffer. */
static void mark_needed(const ck__jit_nest *n, const int32_t *roots, int nroots,
                        unsigned char *need) {
    memset(need, 0, CK__JIT_MAX_NODES);
    int top = 0;
    for (int r = 0; r < nroots; r++) {
        need[roots[r]] = 1;
        top = roots[r] > top ? roots[r] : top;
    }
    for (int i = top; i >= 0; i--) {
        const ck__jit_node *nd = &n->node[i];
        if (!need[i] || nd->vector_fn != NULL || nd->op == CK__JIT_OP_LOAD) {
            continue;
        }
        for (int k = 0; k < nd->nargs; k++) {
            need[nd->arg[k]] = 1;
        }
    }
}

/* The source a call's operand k reads in place (a load of a contiguous source of the
 * parameter's type), or -1. */
static int direct_operand(const ck__jit_nest *n, const ck__jit_node *call, int k) {
    const ck__jit_node *x = &n->node[call->arg[k]];
    const int src = x->arg[0];
    return x->op == CK__JIT_OP_LOAD && x->type == call->param_id[k] &&
                   n->src_stride[src][n->ndim - 1] == (intptr_t)bytes_of(x->type)
               ? src
               : -1;
}

/* Elements [at, at + m) of the innermost dimension, j from 0: for phase >= 0, the operands of
 * chunk call `phase` into the operand buffers; for phase < 0, the program's value of element i
 * stored (converted) at first + (i - lo) * ds. */
static void emit_chunk_pass(gen *g, int phase, LLVMValueRef at, LLVMValueRef m, LLVMValueRef lo,
                            LLVMValueRef first, intptr_t ds, const LLVMValueRef *a) {
    const ck__jit_nest *n = g->nest;
    const int l = n->ndim - 1, root = n->nnodes - 1;
    const ck__jit_node *call = phase >= 0 ? &n->node[phase] : NULL;
    unsigned char need[CK__JIT_MAX_NODES];
    int32_t roots[CK__JIT_MAX_ARGS] = {root};
    int nroots = call != NULL ? 0 : 1;
    for (int k = 0; call != NULL && k < call->nargs; k++) {
        if (direct_operand(n, call, k) < 0) {
            roots[nroots++] = call->arg[k];
        }
    }
    if (nroots == 0) {
        return; /* every operand read in place */
    }
    mark_needed(n, roots, nroots, need);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "pass");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "pass_done");
    LLVMBuildBr(g->b, body); /* m >= 1 */
    LLVMPositionBuilderAtEnd(g->b, body);
    LLVMValueRef j = LLVMBuildPhi(g->b, g->i64, "j");
    LLVMValueRef zero = const_i64(g, 0);
    LLVMAddIncoming(j, &zero, &pre, 1);
    LLVMValueRef i = LLVMBuildAdd(g->b, at, j, "");
    LLVMValueRef al[CK__JIT_MAX_ARGS];
    for (int k = 0; k < n->nargs; k++) {
        al[k] = gep(g, a[k], LLVMBuildMul(g->b, i, const_i64(g, n->src_stride[k][l]), ""));
    }
    LLVMValueRef v[CK__JIT_MAX_NODES];
    emit_values(g, al, need, j, v);
    if (call != NULL) {
        for (int k = 0; k < call->nargs; k++) {
            if (direct_operand(n, call, k) >= 0) {
                continue;
            }
            const unsigned es = bytes_of(call->param_id[k]);
            LLVMValueRef off = LLVMBuildMul(g->b, j, const_i64(g, es), "");
            LLVMValueRef x = widen(g, v[call->arg[k]], n->node[call->arg[k]].type, call->param_id[k]);
            store_aligned(g, x, gep(g, g->chunk_in[k], off), es);
        }
    } else {
        LLVMValueRef off = LLVMBuildMul(g->b, LLVMBuildSub(g->b, i, lo, ""), const_i64(g, ds), "");
        emit_store_converted(g, v[root], n->op_id, n->dst_id, n->mode, n->slow, gep(g, first, off));
    }
    LLVMValueRef next = LLVMBuildAdd(g->b, j, const_i64(g, 1), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
    LLVMAddIncoming(j, &next, &latch, 1);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, next, m, ""), body, done);
    LLVMPositionBuilderAtEnd(g->b, done);
}

/* Elements [lo, hi) of the innermost dimension of a program with chunk calls (written as
 * emit_range writes them), CK__JIT_CHUNK at a time: each chunk call's operands computed for
 * the chunk, the call, then the program's values stored. The calls' operands and results
 * stay in L1; the elementwise passes vectorise. */
static void emit_chunked_range(gen *g, LLVMValueRef lo, LLVMValueRef hi, LLVMValueRef first,
                               intptr_t ds, const LLVMValueRef *a) {
    const ck__jit_nest *n = g->nest;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef block = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "chunk");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "chunks_done");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, lo, hi, ""), block, done);
    LLVMPositionBuilderAtEnd(g->b, block);
    LLVMValueRef at = LLVMBuildPhi(g->b, g->i64, "at");
    LLVMAddIncoming(at, &lo, &pre, 1);
    LLVMValueRef m = umin(g, const_i64(g, CK__JIT_CHUNK), LLVMBuildSub(g->b, hi, at, ""));
    LLVMTypeRef params[4] = {g->ptr, g->ptr, g->ptr, g->i64};
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(g->ctx), params, 4, 0);
    for (int i = 0; i < n->nnodes; i++) {
        const ck__jit_node *nd = &n->node[i];
        if (nd->vector_fn == NULL) {
            continue;
        }
        emit_chunk_pass(g, i, at, m, lo, first, ds, a);
        uintptr_t addr;
        memcpy(&addr, &nd->vector_fn, sizeof addr);
        LLVMValueRef fp =
            LLVMBuildIntToPtr(g->b, LLVMConstInt(g->i64, (unsigned long long)addr, 0), g->ptr, "");
        LLVMValueRef in[2];
        for (int k = 0; k < nd->nargs; k++) {
            const int src = direct_operand(n, nd, k);
            in[k] = src < 0 ? g->chunk_in[k]
                            : gep(g, a[src], LLVMBuildMul(g->b, at,
                                                         const_i64(g, n->src_stride[src][n->ndim - 1]), ""));
        }
        LLVMValueRef args[4] = {g->chunk_out[i], in[0], in[nd->nargs == 2 ? 1 : 0], m};
        LLVMBuildCall2(g->b, fty, fp, args, 4, "");
    }
    emit_chunk_pass(g, -1, at, m, lo, first, ds, a);
    LLVMValueRef next = LLVMBuildAdd(g->b, at, m, "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
    LLVMAddIncoming(at, &next, &latch, 1);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, next, hi, ""), block, done);
    LLVMPositionBuilderAtEnd(g->b, done);
}

static int emit_level(gen *g, int l, LLVMValueRef d, const LLVMValueRef *a) {
    const ck__jit_nest *n = g->nest;
    if (g->leaf_runs && l == n->ndim - 1) {
        emit_leaf_run(g, d, a);
        return 0;
    }
    if (g->stream_buf != NULL && l == n->ndim - 1) {
        return emit_streamed_run(g, d, a);
    }
    if (g->chunked && l == n->ndim - 1) {
        return emit_range(g, const_i64(g, 0), const_i64(g, n->size[l]), d, n->dst_stride[l], a);
    }
    if (l == n->ndim) {
        return emit_element(g, d, a);
    }
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "loop");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(g->ctx, g->fn, "done");
    LLVMBuildBr(g->b, body);
    LLVMPositionBuilderAtEnd(g->b, body);
    LLVMValueRef i = LLVMBuildPhi(g->b, g->i64, "i");
    LLVMValueRef zero = const_i64(g, 0);
    LLVMAddIncoming(i, &zero, &pre, 1);
    LLVMValueRef dl = gep(g, d, LLVMBuildMul(g->b, i, const_i64(g, n->dst_stride[l]), ""));
    LLVMValueRef al[CK__JIT_MAX_ARGS];
    for (int k = 0; k < n->nargs; k++) {
        al[k] = gep(g, a[k], LLVMBuildMul(g->b, i, const_i64(g, n->src_stride[k][l]), ""));
    }
    if (emit_level(g, l + 1, dl, al) != 0) {
        return -1;
    }
    LLVMValueRef next = LLVMBuildAdd(g->b, i, const_i64(g, 1), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->b);
    LLVMAddIncoming(i, &next, &latch, 1);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLT, next, const_i64(g, n->size[l]), ""),
                    body, done);
    LLVMPositionBuilderAtEnd(g->b, done);
    return 0;
}

/* i32 nest(ptr d, ptr a0, ptr a1): the whole nest once; internal and never inlined, so it
 * is optimised (and vectorised) once, not once per entry point: a call per whole nest
 * costs nothing next to the nest, and the compile time halves. */
LLVMValueRef ck__llvm_emit_nest_fn(gen *g) {
    LLVMTypeRef params[1 + CK__JIT_MAX_ARGS];
    for (int k = 0; k <= CK__JIT_MAX_ARGS; k++) {
        params[k] = g->ptr;
    }
    LLVMTypeRef fty = LLVMFunctionType(g->i32, params, 1 + CK__JIT_MAX_ARGS, 0);
    LLVMValueRef fn = LLVMAddFunction(g->mod, "nest", fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    const unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(g->ctx, noinline, 0));
    g->fn = fn;
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->ctx, fn, "entry");
    LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(g->ctx, fn, "start");
    g->fail = LLVMAppendBasicBlockInContext(g->ctx, fn, "fail");
    LLVMPositionBuilderAtEnd(g->b, g->fail);
    g->status_phi = LLVMBuildPhi(g->b, g->i32, "status");
    for (int i = 0; g->nest->op == CK__JIT_OP_EXPR && i < g->nest->nnodes; i++) {
        g->chunked |= g->nest->node[i].vector_fn != NULL;
    }
    const int stream = streams(g->nest, g->leaf_runs);
    if (stream) {
        emit_stream_fence(g);
    }
    LLVMBuildRet(g->b, g->status_phi);
    LLVMPositionBuilderAtEnd(g->b, entry);
    if (stream) {
        g->stream_buf = LLVMBuildAlloca(g->b, LLVMArrayType(g->i8, STREAM_BUF_BYTES), "buf");
        LLVMSetAlignment(g->stream_buf, 64);
    }
    g->slow_tmp = LLVMBuildAlloca(g->b, LLVMArrayType(g->i8, 16), "tmp");
    LLVMSetAlignment(g->slow_tmp, 16);
    g->slow_args = LLVMBuildAlloca(g->b, g->ptr, "args");
    g->run_src = LLVMBuildAlloca(g->b, g->ptr, "run_src");
    g->run_stride = LLVMBuildAlloca(g->b, g->i64, "run_stride");
    for (int k = 0; g->chunked && k < 2; k++) {
        g->chunk_in[k] = LLVMBuildAlloca(g->b, LLVMArrayType(g->i8, CHUNK_BUF_BYTES), "in");
        LLVMSetAlignment(g->chunk_in[k], 64);
    }
    for (int i = 0; g->nest->op == CK__JIT_OP_EXPR && i < g->nest->nnodes; i++) {
        if (g->nest->node[i].vector_fn != NULL) {
            g->chunk_out[i] = LLVMBuildAlloca(g->b, LLVMArrayType(g->i8, CHUNK_BUF_BYTES), "out");
            LLVMSetAlignment(g->chunk_out[i], 64);
        }
        if (g->nest->node[i].op == CK__JIT_OP_ASSIGN) {
            g->cast_tmp[i] = LLVMBuildAlloca(g->b, LLVMArrayType(g->i8, 16), "cast");
            LLVMSetAlignment(g->cast_tmp[i], 16);
        }
    }
    LLVMBuildBr(g->b, start);
    LLVMPositionBuilderAtEnd(g->b, start);
    LLVMValueRef d = LLVMGetParam(fn, 0);
    LLVMValueRef a[CK__JIT_MAX_ARGS];
    for (int k = 0; k < CK__JIT_MAX_ARGS; k++) {
        a[k] = LLVMGetParam(fn, (unsigned)(1 + k));
    }
    int empty = 0;
    for (int l = 0; l < g->nest->ndim; l++) {
        empty |= g->nest->size[l] <= 0;
    }
    if (!empty && emit_level(g, 0, d, a) != 0) {
        return NULL;
    }
    if (stream) {
        emit_stream_fence(g);
    }
    LLVMBuildRet(g->b, LLVMConstInt(g->i32, 0, 0));
    if (LLVMCountIncoming(g->status_phi) == 0) { /* no slow path: the block is unreachable */
        /* Its instructions, last first: the ret, the fence, the phi. */
        while (LLVMGetLastInstruction(g->fail) != NULL) {
            LLVMInstructionEraseFromParent(LLVMGetLastInstruction(g->fail));
        }
        LLVMPositionBuilderAtEnd(g->b, g->fail);
        LLVMBuildUnreachable(g->b);
    }
    return fn;
}

void ck__llvm_add_target_attributes(gen *g, LLVMValueRef fn) {
    LLVMAttributeRef cpu = LLVMCreateStringAttribute(g->ctx, "target-cpu", 10, ck__llvm_host_cpu,
                                                     (unsigned)strlen(ck__llvm_host_cpu));
    LLVMAttributeRef feat = LLVMCreateStringAttribute(g->ctx, "target-features", 15,
                                                      ck__llvm_host_features,
                                                      (unsigned)strlen(ck__llvm_host_features));
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, cpu);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, feat);
}

/* The two exported functions: single(self, dst, src) and strided(self, dst, dst_stride, src,
 * src_stride, count), both calling the nest. */
void ck__llvm_emit_entry_points(gen *g, LLVMValueRef nest, const char *single_name,
                              const char *strided_name) {
    const ck__jit_nest *n = g->nest;
    LLVMTypeRef nest_params[1 + CK__JIT_MAX_ARGS];
    for (int k = 0; k <= CK__JIT_MAX_ARGS; k++) {
        nest_params[k] = g->ptr;
    }
    LLVMTypeRef nest_ty = LLVMFunctionType(g->i32, nest_params, 1 + CK__JIT_MAX_ARGS, 0);

    LLVMTypeRef sp[3] = {g->ptr, g->ptr, g->ptr};
    LLVMValueRef single = LLVMAddFunction(g->mod, single_name, LLVMFunctionType(g->i32, sp, 3, 0));
    ck__llvm_add_target_attributes(g, single);
    LLVMPositionBuilderAtEnd(g->b, LLVMAppendBasicBlockInContext(g->ctx, single, "entry"));
    LLVMValueRef args[1 + CK__JIT_MAX_ARGS];
    args[0] = LLVMGetParam(single, 1);
    for (int k = 0; k < CK__JIT_MAX_ARGS; k++) {
        args[1 + k] = LLVMConstNull(g->ptr);
    }
    for (int k = 0; k < n->nargs; k++) {
        LLVMValueRef idx = const_i64(g, k);
        LLVMValueRef slot = LLVMBuildGEP2(g->b, g->ptr, LLVMGetParam(single, 2), &idx, 1, "");
        args[1 + k] = LLVMBuildLoad2(g->b, g->ptr, slot, "");
    }
    LLVMBuildRet(g->b, LLVMBuildCall2(g->b, nest_ty, nest, args, 1 + CK__JIT_MAX_ARGS, ""));

    LLVMTypeRef tp[6] = {g->ptr, g->ptr, g->i64, g->ptr, g->ptr, g->i64};
    LLVMValueRef strided =
        LLVMAddFunction(g->mod, strided_name, LLVMFunctionType(g->i32, tp, 6, 0));
    ck__llvm_add_target_attributes(g, strided);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(g->ctx, strided, "entry");
    LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(g->ctx, strided, "loop");
    LLVMBasicBlockRef next_bb = LLVMAppendBasicBlockInContext(g->ctx, strided, "next");
    LLVMBasicBlockRef out = LLVMAppendBasicBlockInContext(g->ctx, strided, "out");
    LLVMBasicBlockRef failed = LLVMAppendBasicBlockInContext(g->ctx, strided, "failed");
    LLVMPositionBuilderAtEnd(g->b, entry);
    LLVMValueRef base[CK__JIT_MAX_ARGS], step[CK__JIT_MAX_ARGS];
    for (int k = 0; k < n->nargs; k++) {
        LLVMValueRef idx = const_i64(g, k);
        base[k] = LLVMBuildLoad2(
            g->b, g->ptr, LLVMBuildGEP2(g->b, g->ptr, LLVMGetParam(strided, 3), &idx, 1, ""), "");
        step[k] = LLVMBuildLoad2(
            g->b, g->i64, LLVMBuildGEP2(g->b, g->i64, LLVMGetParam(strided, 4), &idx, 1, ""), "");
    }
    LLVMValueRef count = LLVMGetParam(strided, 5);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, count, const_i64(g, 0), ""), out, loop);
    LLVMPositionBuilderAtEnd(g->b, loop);
    LLVMValueRef i = LLVMBuildPhi(g->b, g->i64, "o");
    LLVMValueRef zero = const_i64(g, 0);
    LLVMAddIncoming(i, &zero, &entry, 1);
    LLVMValueRef cargs[1 + CK__JIT_MAX_ARGS];
    cargs[0] = gep(g, LLVMGetParam(strided, 1), LLVMBuildMul(g->b, i, LLVMGetParam(strided, 2), ""));
    for (int k = 0; k < CK__JIT_MAX_ARGS; k++) {
        cargs[1 + k] = LLVMConstNull(g->ptr);
    }
    for (int k = 0; k < n->nargs; k++) {
        cargs[1 + k] = gep(g, base[k], LLVMBuildMul(g->b, i, step[k], ""));
    }
    LLVMValueRef rc = LLVMBuildCall2(g->b, nest_ty, nest, cargs, 1 + CK__JIT_MAX_ARGS, "");
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, rc, LLVMConstInt(g->i32, 0, 0), ""),
                    failed, next_bb);
    LLVMPositionBuilderAtEnd(g->b, next_bb);
    LLVMValueRef inext = LLVMBuildAdd(g->b, i, const_i64(g, 1), "");
    LLVMAddIncoming(i, &inext, &next_bb, 1);
    LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, inext, count, ""), loop, out);
    LLVMPositionBuilderAtEnd(g->b, out);
    LLVMBuildRet(g->b, LLVMConstInt(g->i32, 0, 0));
    LLVMPositionBuilderAtEnd(g->b, failed);
    LLVMBuildRet(g->b, rc);
}
