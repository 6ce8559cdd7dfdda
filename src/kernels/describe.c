/* src/kernels/describe.c: ck_kernel_describe, the text form of a built kernel tree (what
 * `ckernel explain` prints). Nodes are recognised by their function pointer. */
#include <string.h>

#include "ckernel/assign.h"
#include "common/internal.h"
#include "kernels/arith_leaves.h"
#include "kernels/kinds.h"

static const ck__kind *const ck__kinds[] = {
    &ck__strided_dim_kind, &ck__var_dim_kind,   &ck__pointer_src_kind,
    &ck__pointer_dst_kind, &ck__pointer_gather_kind, &ck__unaligned_kind, &ck__tiled_2d_kind,
};

/* Deeper than any kernel ckernel builds (types nest at most CK_TYPE_MAX_DEPTH levels). */
#define CK__DESCRIBE_MAX_DEPTH 256

static void describe_node(const ck_prefix *node, const char *base, int depth, ck__strbuf *out) {
    void *fn = node->function;
    ck__strbuf_printf(out, "%*s", 2 * depth, "");
    if (depth >= CK__DESCRIBE_MAX_DEPTH) {
        ck__strbuf_puts(out, "... (deeper levels not shown)\n");
        return;
    }
    const size_t at = (size_t)((const char *)node - base);
    for (size_t i = 0; i < CK_ARRAY_SIZE(ck__kinds); i++) {
        const ck__kind *k = ck__kinds[i];
        void *single, *strided;
        memcpy(&single, &k->single, sizeof single);
        memcpy(&strided, &k->strided, sizeof strided);
        if (fn != single && fn != strided) {
            continue;
        }
        ck__strbuf tail = CK__STRBUF_INIT;
        size_t size = 0, children[4];
        int nchildren = 0;
        k->describe(node, &tail, &size, children, &nchildren);
        ck__strbuf_printf(out, "%s @%zu +%zu  %s_%s  %s\n", k->name, at, size, k->name,
                          fn == single ? "single" : "strided", tail.s != NULL ? tail.s : "");
        if (tail.status != CK_OK) {
            out->status = tail.status;
        }
        ck__strbuf_free(&tail);
        for (int c = 0; c < nchildren; c++) {
            describe_node(ck_child((ck_prefix *)(uintptr_t)node, children[c]), base, depth + 1,
                          out);
        }
        return;
    }
    ck__strbuf leaf = CK__STRBUF_INIT;
    if (ck__scalar_leaf_describe(fn, &leaf) || ck__arith_leaf_describe(fn, &leaf)) {
        ck__strbuf_printf(out, "leaf @%zu +%zu  %s\n", at, sizeof(ck_prefix),
                          leaf.s != NULL ? leaf.s : "");
        if (leaf.status != CK_OK) {
            out->status = leaf.status;
        }
    } else {
        /* A user kernel: its size and children are its own business. */
        ck__strbuf_printf(out, "user @%zu  function %p (size and children unknown)\n", at, fn);
    }
    ck__strbuf_free(&leaf);
}

int ck_kernel_describe(const ck_prefix *root, char **out) {
    if (root == NULL || out == NULL) {
        return ck_set_error(CK_ERR_INVALID, "ck_kernel_describe: NULL argument");
    }
    ck__strbuf b = CK__STRBUF_INIT;
    describe_node(root, (const char *)root, 0, &b);
    return ck__strbuf_finish(&b, out);
}
