/* src/kinds/reduce/fold_rows.c: the innermost kept dimension of a reduction's fold, when it is
 * contiguous on both sides and every dimension between it and the first reduced one is
 * reduced too (a sum over axis 0 of a C-order matrix: reduce_dim calls it with a destination
 * stride of 0 and one row per element of the reduced dimension). It folds the rows it is
 * given through the rows form of the built-in's accumulate leaf (reduce_ops.h: four rows a
 * pass, every element's operations in row order), so the result is bit for bit the one of
 * the leaf applied row by row. The rows loops are the bandwidth target's
 * (ck_cpu_bandwidth_target: memory-bound, and each column is its own lane, so every target
 * gives the same bits). Called for one row, or with a destination that moves between rows,
 * it calls its child, that accumulate leaf, row by row. */
#include <string.h>

#include "common/internal.h"
#include "core/kinds.h"
#include "leaves/reduce/reduce_ops.h"
#include "types/type_internal.h"

typedef struct ck__fold_rows {
    ck_prefix base;
    ck__rows_fn rows;
    intptr_t size;      /* elements of a row */
    uint32_t elem_size; /* the accumulator's bytes: the row's stride on both sides */
    uint8_t op, id;     /* ck__arith_op, ck_type_id: for describe */
} ck__fold_rows;

#define CK__FOLD_ROWS_CHILD CK_ALIGN_OFFSET(sizeof(ck__fold_rows))

static void fold_rows_destroy(ck_prefix *self) {
    ck_prefix_destroy(ck_child(self, CK__FOLD_ROWS_CHILD));
}

/* One row through the accumulate leaf, in place. */
static int fold_one_row(ck_prefix *self, char *dst, char *src) {
    const ck__fold_rows *k = (const ck__fold_rows *)self;
    const intptr_t es = (intptr_t)k->elem_size;
    return ck_call_strided(ck_child(self, CK__FOLD_ROWS_CHILD), dst, es, &src, &es,
                           (size_t)k->size);
}

static CK__KERNEL_ALIGN int fold_rows_single(ck_prefix *self, char *dst, char *const *src) {
    return fold_one_row(self, dst, src[0]);
}

static CK__KERNEL_ALIGN int fold_rows_strided(ck_prefix *self, char *dst, intptr_t dst_stride,
                                              char *const *src, const intptr_t *src_stride,
                                              size_t count) {
    const ck__fold_rows *k = (const ck__fold_rows *)self;
    if (dst_stride == 0) {
        k->rows(dst, src[0], src_stride[0], count, (size_t)k->size); /* never fails */
        return CK_OK;
    }
    char *s = src[0];
    for (size_t i = 0; i < count; i++, dst += dst_stride, s += src_stride[0]) {
        CK__RETURN_IF_ERROR_AT(i, fold_one_row(self, dst, s));
    }
    return CK_OK;
}

int ck__make_fold_rows(ck_builder *ckb, size_t *offset, ck__arith_op op, ck_type_id id,
                       intptr_t size, ck_request req) {
    ck__rows_fn rows = NULL;
    CK__RETURN_IF_ERROR(ck__rows_fn_for(op, id, &rows));
    CK__RETURN_IF_ERROR(ck_builder_reserve(ckb, *offset + CK__FOLD_ROWS_CHILD));
    ck__fold_rows *k = (ck__fold_rows *)ck_builder_at(ckb, *offset);
    k->base.destructor = fold_rows_destroy;
    ck_prefix_set_function(&k->base, req, fold_rows_single, fold_rows_strided);
    k->rows = rows;
    k->size = size;
    k->elem_size = (uint32_t)ck_type_scalar(id)->data_size;
    k->op = (uint8_t)op;
    k->id = (uint8_t)id;
    *offset += CK__FOLD_ROWS_CHILD;
    return ck__make_acc_leaf(ckb, offset, op, id);
}

static void fold_rows_describe(const ck_prefix *self, ck__strbuf *out, size_t *size,
                               ck__children *children) {
    const ck__fold_rows *k = (const ck__fold_rows *)self;
    ck__strbuf_printf(out, "size=%td %s %s, four rows a pass [%s]", k->size,
                      ck__arith_op_name((ck__arith_op)k->op), ck_type_id_name((ck_type_id)k->id),
                      ck__rows_fn_target(k->rows));
    *size = sizeof(ck__fold_rows);
    ck__children_add(children, CK__FOLD_ROWS_CHILD);
}

const ck__kind ck__fold_rows_kind = {"fold_rows", fold_rows_single, fold_rows_strided,
                                     fold_rows_describe};
