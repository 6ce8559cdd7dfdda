/* src/callables/native.c: plain C functions as callables' leaves, called through libffi
 * (docs/design.md §10, "Native functions").
 *
 * ck_callable_add_native checks that libffi can express the signature faithfully and adds a
 * factory whose data is a small block {fn, signature} (process metadata, like the callable
 * that holds it; freed by the factory's release). Its instantiate builds a leaf with a
 * dynamic resource (docs/kernels.md §4.3): the leaf is {prefix, call}, where `call` is a
 * ck_malloc'ed block holding the prepared ffi_cif, its argument type array and the function,
 * prepared once per kernel, never per element. The leaf's strided function passes libffi
 * pointers straight into the source elements (the call composition has already cast and
 * aligned every argument to the signature's type) and stores the result at the right width.
 *
 * Types: the fixed-width integers map to libffi's sintN/uintN; bool to uint8 (C _Bool on the
 * SysV x86-64 and AArch64 ABIs is passed and returned as an unsigned byte; CPython's ctypes
 * uses ffi_type_uint8 for c_bool too); float32/float64 to float/double; complex64/complex128
 * to ffi_type_complex_float/double when libffi has complex support
 * (FFI_TARGET_HAS_COMPLEX_TYPE). float16 and bfloat16 are refused: libffi has no type for
 * them, and passing one as a float would put the wrong bits in the register. */
#include <stdint.h>
#include <string.h>

#include "callables/callable_internal.h"
#include "ckernel/alloc.h"
#include "ckernel/config.h"
#include "common/internal.h"
#include "common/scalars.h"

#if CK_WITH_FFI

#include <ffi.h>

/* The factory's data: what ck_callable_add_native was given. */
typedef struct ck__native_def {
    void (*fn)(void);
    ck__signature sig;
} ck__native_def;

/* How the leaf stores a result of each type out of libffi's return buffer. */
typedef union ck__native_ret {
    ffi_arg u;
    ffi_sarg s;
    int64_t s64; /* 64-bit integers whole: ffi_arg is 32 bits on 32-bit hosts */
    uint64_t u64;
    float f;
    double d;
    unsigned char bytes[16];
    long double align; /* 16-byte alignment, for complex results */
} ck__native_ret;

/* The kernel's resource: prepared once when the kernel is built. Never changed afterwards,
 * so any number of threads may run the kernel at once. */
typedef struct ck__native_call {
    ffi_cif cif;
    ffi_type *arg_types[CK__SIG_MAX_ARGS];
    void (*fn)(void);
    int nargs;
    ck_type_id ret;
    char compact[3 * CK__SIG_MAX_ARGS + 4]; /* "dd)d", for describe */
} ck__native_call;

typedef struct ck__native_leaf {
    ck_prefix base;
    ck__native_call *call; /* owned (ck_malloc); NULL until allocated */
} ck__native_leaf;

/* libffi's type for a scalar, or NULL when libffi cannot pass it faithfully. */
static ffi_type *ffi_type_of(ck_type_id id) {
    switch (id) {
    case CK_TYPE_BOOL: return &ffi_type_uint8;
    case CK_TYPE_INT8: return &ffi_type_sint8;
    case CK_TYPE_INT16: return &ffi_type_sint16;
    case CK_TYPE_INT32: return &ffi_type_sint32;
    case CK_TYPE_INT64: return &ffi_type_sint64;
    case CK_TYPE_UINT8: return &ffi_type_uint8;
    case CK_TYPE_UINT16: return &ffi_type_uint16;
    case CK_TYPE_UINT32: return &ffi_type_uint32;
    case CK_TYPE_UINT64: return &ffi_type_uint64;
    case CK_TYPE_FLOAT32: return &ffi_type_float;
    case CK_TYPE_FLOAT64: return &ffi_type_double;
#ifdef FFI_TARGET_HAS_COMPLEX_TYPE
    case CK_TYPE_COMPLEX64: return &ffi_type_complex_float;
    case CK_TYPE_COMPLEX128: return &ffi_type_complex_double;
#endif
    default: return NULL;
    }
}

/* Why a scalar cannot be passed (for the message), NULL when it can. */
static const char *unsupported_reason(ck_type_id id) {
    if (ck__scalar_computes_in_float32(id)) { /* float16, bfloat16 */
        return id == CK_TYPE_FLOAT16
                   ? "float16 has no libffi type (C _Float16 is passed in the low half of an SSE "
                     "register, which no libffi type describes)"
                   : "bfloat16 has no libffi type (C __bf16 is passed in the low half of an SSE "
                     "register, which no libffi type describes)";
    }
    if ((id == CK_TYPE_COMPLEX64 || id == CK_TYPE_COMPLEX128) && ffi_type_of(id) == NULL) {
        return "this libffi was built without complex types (FFI_TARGET_HAS_COMPLEX_TYPE)";
    }
    return ffi_type_of(id) == NULL ? "no libffi type" : NULL;
}

/* Stores the result of one call at dst, at the signature's width. Integral results narrower
 * than ffi_arg come back widened to a full ffi_arg (libffi's rule). */
static inline void store_result(ck_type_id ret, char *dst, const ck__native_ret *r) {
    switch (ret) {
    case CK_TYPE_BOOL: {
        const uint8_t v = (uint8_t)r->u != 0;
        memcpy(dst, &v, 1);
        return;
    }
    case CK_TYPE_INT8: {
        const int8_t v = (int8_t)r->s;
        memcpy(dst, &v, 1);
        return;
    }
    case CK_TYPE_INT16: {
        const int16_t v = (int16_t)r->s;
        memcpy(dst, &v, 2);
        return;
    }
    case CK_TYPE_INT32: {
        const int32_t v = (int32_t)r->s;
        memcpy(dst, &v, 4);
        return;
    }
    case CK_TYPE_INT64: {
        memcpy(dst, &r->s64, 8);
        return;
    }
    case CK_TYPE_UINT8: {
        const uint8_t v = (uint8_t)r->u;
        memcpy(dst, &v, 1);
        return;
    }
    case CK_TYPE_UINT16: {
        const uint16_t v = (uint16_t)r->u;
        memcpy(dst, &v, 2);
        return;
    }
    case CK_TYPE_UINT32: {
        const uint32_t v = (uint32_t)r->u;
        memcpy(dst, &v, 4);
        return;
    }
    case CK_TYPE_UINT64: {
        memcpy(dst, &r->u64, 8);
        return;
    }
    case CK_TYPE_FLOAT32: memcpy(dst, &r->f, 4); return;
    case CK_TYPE_FLOAT64: memcpy(dst, &r->d, 8); return;
    case CK_TYPE_COMPLEX64: memcpy(dst, r->bytes, 8); return;
    default: memcpy(dst, r->bytes, 16); return; /* complex128 */
    }
}

static CK__KERNEL_ALIGN int native_strided(ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,
                          const intptr_t *src_stride, size_t count) {
    const ck__native_call *call = ((const ck__native_leaf *)self)->call;
    const int nargs = call->nargs;
    void *avalue[CK__SIG_MAX_ARGS];
    for (int k = 0; k < nargs; k++) {
        avalue[k] = src[k];
    }
    ck__native_ret r;
    for (size_t i = 0; i < count; i++, dst += dst_stride) {
        memset(&r, 0, sizeof r);
        /* ffi_call does not write the cif; the cast only drops the const its prototype lacks. */
        ffi_call((ffi_cif *)(uintptr_t)&call->cif, call->fn, &r, avalue);
        store_result(call->ret, dst, &r);
        for (int k = 0; k < nargs; k++) {
            avalue[k] = (char *)avalue[k] + src_stride[k];
        }
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int native_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero[CK__SIG_MAX_ARGS];
    return native_strided(self, dst, 0, src, zero, 1);
}

static void native_destroy(ck_prefix *self) {
    ck_free(((ck__native_leaf *)self)->call); /* NULL when building failed before it */
}

static void native_describe(const ck_prefix *self, ck_describer *d) {
    const ck__native_call *call = ((const ck__native_leaf *)self)->call;
    if (call == NULL) {
        ck_describe_printf(d, "(not built)");
        return;
    }
    void *fn;
    memcpy(&fn, &call->fn, sizeof fn);
    ck_describe_printf(d, "%s fn=%p", call->compact, fn);
}

static const ck_kernel_kind native_kind = {"native", native_single, native_strided,
                                           sizeof(ck__native_leaf), native_describe};

static int native_instantiate(void *data, ck_builder *ckb, size_t *offset,
                              const ck_leaf_info *info) {
    const ck__native_def *def = (const ck__native_def *)data;
    const ck__signature *sig = &def->sig;
    if (info->nargs != sig->nargs || info->ret != sig->ret) {
        return ck_set_error(CK_ERR_INTERNAL, "%s: native leaf asked for another signature",
                            info->name);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve_leaf(ckb, *offset + sizeof(ck__native_leaf)));
    ck__native_leaf *k = (ck__native_leaf *)ck_builder_at(ckb, *offset);
    k->base.destructor = native_destroy; /* first: from here on destroy is always safe */
    ck__native_call *call = (ck__native_call *)ck_calloc(1, sizeof *call);
    if (call == NULL) {
        return ck__nomem_error("%s: cannot allocate the native call interface",
                            info->name);
    }
    k->call = call;
    call->fn = def->fn;
    call->nargs = sig->nargs;
    call->ret = sig->ret;
    ck__signature_format_compact(sig, call->compact, sizeof call->compact);
    for (int a = 0; a < sig->nargs; a++) {
        call->arg_types[a] = ffi_type_of(sig->args[a]);
    }
    const ffi_status st = ffi_prep_cif(&call->cif, FFI_DEFAULT_ABI, (unsigned)sig->nargs,
                                       ffi_type_of(sig->ret), call->arg_types);
    if (st != FFI_OK) {
        return ck_set_error(CK_ERR_UNSUPPORTED, "%s: libffi cannot prepare a call of %s (%d)",
                            info->name, call->compact, (int)st);
    }
    ck_prefix_set_function(&k->base, info->req, native_single, native_strided);
    *offset += sizeof(ck__native_leaf);
    return CK_OK;
}

static void native_release(void *data) {
    ck__meta_free(data);
}

int ck__native_function(const ck_factory *f, void (**fn)(void), void (**chunk)(void)) {
    if (f->instantiate != native_instantiate) {
        return ck__ufunc_jit_function(f, fn, chunk);
    }
    *fn = ((const ck__native_def *)f->data)->fn;
    *chunk = NULL;
    return 1;
}

int ck_callable_add_native(ck_callable *c, const char *signature, void (*fn)(void)) {
    if (c == NULL || signature == NULL || fn == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_callable_add_native: NULL argument");
    }
    ck__signature sig;
    CK__RETURN_IF_ERROR(ck__signature_parse(signature, &sig));
    if (sig.nret == 2) {
        return ck_set_error(CK_ERR_UNSUPPORTED,
                            "ck_callable_add_native: '%.200s': a C function returns one value, "
                            "not two",
                            signature);
    }
    for (int a = 0; a <= sig.nargs; a++) {
        const ck_type_id id = a < sig.nargs ? sig.args[a] : sig.ret;
        const char *why = unsupported_reason(id);
        if (why != NULL) {
            char text[3 * CK__SIG_MAX_ARGS + 4];
            ck__signature_format_compact(&sig, text, sizeof text);
            return ck_set_error(CK_ERR_UNSUPPORTED,
                                "ck_callable_add_native: %s: %s %s cannot be passed to a C "
                                "function: %s",
                                text, a < sig.nargs ? "argument of type" : "result of type",
                                ck_type_id_name(id), why);
        }
    }
    CK__RETURN_IF_ERROR(ck_kernel_kind_register(&native_kind));
    ck__native_def *def = (ck__native_def *)ck__meta_calloc(1, sizeof *def);
    if (def == NULL) {
        return ck_set_error(CK_ERR_NOMEM, "ck_callable_add_native: out of memory");
    }
    def->fn = fn;
    def->sig = sig;
    const ck_factory f = {native_instantiate, NULL, def, native_release};
    return ck_callable_add(c, signature, &f); /* releases def on failure */
}

#else /* !CK_WITH_FFI */

int ck__native_function(const ck_factory *f, void (**fn)(void), void (**chunk)(void)) {
    return ck__ufunc_jit_function(f, fn, chunk);
}

int ck_callable_add_native(ck_callable *c, const char *signature, void (*fn)(void)) {
    (void)c;
    (void)signature;
    (void)fn;
    return ck_set_error(CK_ERR_UNSUPPORTED,
                        "ck_callable_add_native: this build of ckernel has no libffi "
                        "(configured with CK_WITH_FFI=OFF or libffi not found)");
}

#endif
