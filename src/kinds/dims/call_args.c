/* src/kinds/dims/call_args.c: the argument kernel of a call. When some arguments of a callable's
 * leaf (or its result) do not have the signature's type, or may be misaligned, this kernel
 * runs over chunks: each such argument is converted by its cast child into an aligned stack
 * scratch of the signature's type, the leaf runs over the chunk (scratch or the caller's data
 * for the others), and a result cast child writes the result out. Scratch is bounded
 * (CK__CALL_SCRATCH bytes of stack; chunks of at most CK__CALL_MAX_CHUNK elements), so the kernel stays immutable and thread-safe.
 * Children: [0] the leaf, [1 + k] argument k's cast (none: passed through), [nargs + 1]
 * the result's cast (none: the leaf writes the destination). */
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"
#include "core/call_chunk.h"

typedef struct ck__call_args {
    ck_prefix base;
    uint32_t nargs, chunk;
    uint32_t out_size; /* bytes of a result element in scratch; 0: no result cast */
    uint32_t pad;
    uint32_t child[CK__MAX_CHILDREN]; /* offsets relative to this kernel; 0: none */
    uint16_t arg_size[16];            /* bytes of a converted argument element; 0: passed */
} ck__call_args;

#define CK__CALL_ARGS_CHILD CK_ALIGN_OFFSET(sizeof(ck__call_args))

static void call_args_destroy(ck_prefix *self) {
    const ck__call_args *k = (const ck__call_args *)self;
    for (int i = 0; i < CK__MAX_CHILDREN; i++) {
        if (k->child[i] != 0) {
            ck_prefix_destroy(ck_child(self, k->child[i]));
        }
    }
}

static CK__KERNEL_ALIGN int call_args_strided(ck_prefix *self, char *dst, intptr_t dst_stride, char *const *src,
                             const intptr_t *src_stride, size_t count) {
    const ck__call_args *k = (const ck__call_args *)self;
    _Alignas(64) char scratch[CK__CALL_SCRATCH];
    const uint32_t na = k->nargs;
    char *s[16], *p[16], *buf[16];
    intptr_t ps[16];
    size_t used = 0;
    for (uint32_t j = 0; j < na; j++) {
        s[j] = src[j];
        buf[j] = scratch + used;
        used += CK_ALIGN_OFFSET(k->chunk * k->arg_size[j]);
        /* Passed-through arguments keep their strides; converted ones are contiguous. */
        ps[j] = k->arg_size[j] != 0 ? (intptr_t)k->arg_size[j] : src_stride[j];
    }
    char *out = scratch + used;
    const intptr_t out_stride = (intptr_t)k->out_size;
    ck_prefix *leaf = ck_child(self, k->child[0]);
    ck_strided_fn leaf_fn = ck_prefix_strided(leaf);
    for (size_t done = 0; done < count;) {
        const size_t n = count - done < k->chunk ? count - done : k->chunk;
        for (uint32_t j = 0; j < na; j++) {
            if (k->child[1 + j] != 0) {
                CK__RETURN_IF_ERROR_FROM(done, ck_call_strided(ck_child(self, k->child[1 + j]), buf[j],
                                                   ps[j], &s[j], &src_stride[j], n));
                p[j] = buf[j];
            } else {
                p[j] = s[j];
            }
        }
        if (k->out_size != 0) {
            CK__RETURN_IF_ERROR_FROM(done, leaf_fn(leaf, out, out_stride, p, ps, n));
            CK__RETURN_IF_ERROR_FROM(done, ck_call_strided(ck_child(self, k->child[na + 1]), dst, dst_stride,
                                               &out, &out_stride, n));
        } else {
            CK__RETURN_IF_ERROR_FROM(done, leaf_fn(leaf, dst, dst_stride, p, ps, n));
        }
        for (uint32_t j = 0; j < na; j++) {
            s[j] += (intptr_t)n * src_stride[j];
        }
        dst += (intptr_t)n * dst_stride;
        done += n;
    }
    return CK_OK;
}

static CK__KERNEL_ALIGN int call_args_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero[16] = {0};
    return call_args_strided(self, dst, 0, src, zero, 1);
}

int ck__make_call_args(ck_builder *ckb, size_t *offset, int nargs, const size_t *arg_size,
                       size_t out_size, ck_request req) {
    if (nargs < 1 || nargs > 16) {
        return ck_set_error(CK_ERR_INTERNAL, "call_args kernel for %d arguments", nargs);
    }
    size_t per = out_size;
    for (int j = 0; j < nargs; j++) {
        if (arg_size[j] > 16 || out_size > 16) {
            return ck_set_error(CK_ERR_INTERNAL, "call_args: elements of more than 16 bytes");
        }
        per += arg_size[j];
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__CALL_ARGS_CHILD));
    ck__call_args *k = (ck__call_args *)ck_builder_at(ckb, *offset);
    k->base.destructor = call_args_destroy;
    ck_prefix_set_function(&k->base, req, call_args_single, call_args_strided);
    k->nargs = (uint32_t)nargs;
    k->chunk = (uint32_t)ck__call_args_chunk((size_t)nargs, per);
    k->out_size = (uint32_t)out_size;
    for (int j = 0; j < nargs; j++) {
        k->arg_size[j] = (uint16_t)arg_size[j];
    }
    k->child[0] = (uint32_t)CK__CALL_ARGS_CHILD; /* the leaf comes first */
    *offset += CK__CALL_ARGS_CHILD;
    return CK_OK;
}

int ck__call_args_set_child(ck_builder *ckb, size_t at, int slot, size_t child_offset) {
    if (slot < 0 || slot >= CK__MAX_CHILDREN || child_offset <= at ||
        child_offset - at > UINT32_MAX) {
        return ck_set_error(CK_ERR_INTERNAL, "call_args: child %d at %zu", slot, child_offset);
    }
    ck__call_args *k = (ck__call_args *)ck_builder_at(ckb, at);
    k->child[slot] = (uint32_t)(child_offset - at);
    return CK_OK;
}

static void call_args_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                               ck__children *children) {
    const ck__call_args *k = (const ck__call_args *)self;
    ck__strbuf_puts(out, "args=[");
    for (uint32_t j = 0; j < k->nargs; j++) {
        ck__strbuf_printf(out, "%s%s", j > 0 ? ", " : "", k->child[1 + j] != 0 ? "cast" : "pass");
    }
    ck__strbuf_printf(out, "] result=%s chunk=%u", k->out_size != 0 ? "cast" : "direct",
                      k->chunk);
    *size = sizeof(ck__call_args);
    for (int i = 0; i < CK__MAX_CHILDREN; i++) {
        if (k->child[i] != 0) {
            ck__children_add(children, k->child[i]);
        }
    }
}

const ck__kind ck__call_args_kind = {"call_args", call_args_single, call_args_strided,
                                     call_args_describe};
