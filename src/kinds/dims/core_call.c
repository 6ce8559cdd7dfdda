/* src/kinds/dims/core_call.c: the argument kernel of a call with core dimensions (docs/design.md
 * §14), when some operand's core block must be converted: arguments whose scalar type is not
 * the signature's (or that may be misaligned) are assigned whole by their cast child into
 * scratch blocks of the signature's type in C order, the factory's leaf runs once per outer
 * element on the blocks (or the caller's data for the others), and a result block in
 * scratch is assigned out by the result's cast child. Scratch is on the stack up to
 * CK__CORE_STACK bytes, else one allocation per call (so the kernel stays immutable and
 * thread-safe). Children: [0] the leaf (single), [1 + k] argument k's cast, [nargs + 1]
 * the result's (0: none). */
#include <string.h>

#include "ckernel/callable.h"
#include "common/internal.h"
#include "core/kinds.h"

#define CK__CORE_STACK 2048 /* with a leaf's 5.1 KiB fold counter under it: within 8 KiB */

typedef struct ck__core_call {
    ck_prefix base;
    uint32_t nargs;
    uint32_t child[CK__MAX_CHILDREN];
    uint64_t at[CK__MAX_CHILDREN]; /* [slot]: where its block is in scratch */
    uint64_t scratch;              /* bytes */
} ck__core_call;

#define CK__CORE_CALL_CHILD CK_ALIGN_OFFSET(sizeof(ck__core_call))

static void core_call_destroy(ck_prefix *self) {
    ck__children_destroy(self, ((const ck__core_call *)self)->child, CK__MAX_CHILDREN);
}

/* One outer element, with scratch at buf. */
static int core_call_one(ck_prefix *self, char *dst, char *const *src, char *buf) {
    const ck__core_call *k = (const ck__core_call *)self;
    const uint32_t na = k->nargs;
    char *args[CK_CALL_MAX_ARGS];
    for (uint32_t j = 0; j < na; j++) {
        args[j] = src[j];
        if (k->child[1 + j] != 0) {
            args[j] = buf + k->at[1 + j];
            CK__RETURN_IF_ERROR(ck_call_single(ck_child(self, k->child[1 + j]), args[j], &src[j]));
        }
    }
    ck_prefix *leaf = ck_child(self, k->child[0]);
    if (k->child[na + 1] == 0) {
        return ck_call_single(leaf, dst, args);
    }
    char *out = buf + k->at[na + 1];
    CK__RETURN_IF_ERROR(ck_call_single(leaf, out, args));
    return ck_call_single(ck_child(self, k->child[na + 1]), dst, &out);
}

static CK__KERNEL_ALIGN int core_call_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                              char *const *src, const intptr_t *src_stride,
                                              size_t count) {
    const ck__core_call *k = (const ck__core_call *)self;
    _Alignas(64) char stack[CK__CORE_STACK];
    char *buf = stack;
    if (k->scratch > sizeof stack) {
        buf = (char *)ck__malloc((size_t)k->scratch);
        if (buf == NULL) {
            return ck__nomem_error("core dimensions: out of memory for %llu bytes of scratch",
                                   (unsigned long long)k->scratch);
        }
    }
    char *s[CK_CALL_MAX_ARGS];
    memcpy(s, src, k->nargs * sizeof s[0]);
    int rc = CK_OK;
    for (size_t i = 0; i < count && rc == CK_OK; i++) {
        rc = core_call_one(self, dst, s, buf);
        if (rc != CK_OK) {
            ck__error_at(rc, (intptr_t)i);
        }
        dst += dst_stride;
        for (uint32_t j = 0; j < k->nargs; j++) {
            s[j] += src_stride[j];
        }
    }
    if (buf != stack) {
        ck__free(buf);
    }
    return rc;
}

static CK__KERNEL_ALIGN int core_call_single(ck_prefix *self, char *dst, char *const *src) {
    static const intptr_t zero[CK_CALL_MAX_ARGS] = {0};
    return core_call_strided(self, dst, 0, src, zero, 1);
}

int ck__make_core_call(ck_builder *ckb, size_t *offset, int nargs, const size_t *block,
                       ck_request req) {
    if (nargs < 1 || nargs > CK_CALL_MAX_ARGS) {
        return ck_set_error(CK_ERR_INTERNAL, "core_call kernel for %d arguments", nargs);
    }
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__CORE_CALL_CHILD));
    ck__core_call *k = (ck__core_call *)ck_builder_at(ckb, *offset);
    k->base.destructor = core_call_destroy;
    ck_prefix_set_function(&k->base, req, core_call_single, core_call_strided);
    k->nargs = (uint32_t)nargs;
    uint64_t used = 0;
    for (int j = 0; j <= nargs; j++) {
        k->at[1 + j] = used;
        used += (block[j] + 63u) & ~(uint64_t)63u; /* each block at a cache line */
    }
    k->scratch = used;
    k->child[0] = (uint32_t)CK__CORE_CALL_CHILD; /* the leaf comes first */
    *offset += CK__CORE_CALL_CHILD;
    return CK_OK;
}

int ck__core_call_set_child(ck_builder *ckb, size_t at, int slot, size_t child_offset) {
    if (slot < 1 || slot >= CK__MAX_CHILDREN) {
        return ck_set_error(CK_ERR_INTERNAL, "core_call: child %d", slot);
    }
    return ck__record_child(ckb, at, offsetof(ck__core_call, child) + 4u * (size_t)slot,
                            child_offset, "core_call");
}

static void core_call_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                               ck__children *children) {
    const ck__core_call *k = (const ck__core_call *)self;
    ck__strbuf_puts(out, "args=[");
    for (uint32_t j = 0; j < k->nargs; j++) {
        ck__strbuf_printf(out, "%s%s", j > 0 ? ", " : "", k->child[1 + j] != 0 ? "cast" : "pass");
    }
    ck__strbuf_printf(out, "] result=%s scratch=%llu",
                      k->child[k->nargs + 1] != 0 ? "cast" : "direct",
                      (unsigned long long)k->scratch);
    *size = sizeof(ck__core_call);
    ck__children_list(children, k->child, CK__MAX_CHILDREN);
}

const ck__kind ck__core_call_kind = {"core_call", core_call_single, core_call_strided,
                                     core_call_describe};
