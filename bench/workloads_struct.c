/* bench/workloads_struct.c: the struct/... workloads, ck_make_assign of arrays of records
 * (types from ck_type_parse) against a plain loop over the same records as C structs
 * (baselines.h). struct/copy-identical assigns the same struct both sides and must build to
 * one copy_bytes leaf under its dimension (checked when it is built); struct/cast-fields
 * casts every field by name, the fields in another order. */
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

/* Each field of the records at p filled as the contiguous workloads fill its scalar type
 * (ckb_fill_data into a column, from the field's own seed), then scattered to the field's
 * offset in every record. fills: one per field, in the record's field order. */
static int fill_records(char *p, size_t n, const ck_type *rec, const ckb_fill *fills) {
    char *col = (char *)malloc(n * sizeof(double)); /* the widest field */
    if (col == NULL) {
        return ckb_nomem("field column");
    }
    const size_t rs = ck_type_data_size(rec);
    for (size_t f = 0; f < ck_type_field_count(rec); f++) {
        const ck_type_id id = ck_type_get_id(ck_type_field(rec, f));
        const size_t es = ckb_scalar_size(id), off = ck_type_field_offset(rec, f);
        ckb_fill_data(col, n, id, fills[f], SEED ^ (UINT64_C(0x100000001b3) * (f + 1)));
        for (size_t i = 0; i < n; i++) {
            memcpy(p + i * rs + off, col + i * es, es);
        }
    }
    free(col);
    return CK_OK;
}

/* N * the datashape `elem`. */
static int make_records_type(size_t n, const char *elem, ck_type **out) {
    ck_type *e = NULL;
    *out = NULL;
    int rc = ck_type_parse(elem, &e);
    if (rc == CK_OK) rc = ck_type_make_fixed_dim((intptr_t)n, e, out);
    ck_type_decref(e);
    return rc;
}

/* n records each way of the element datashapes dst and src, contiguous, default (C order)
 * arrmeta, the source filled per `fills`; the kernel built. */
static int setup_records(ckb_wl *w, const char *dst, const char *src, const ckb_fill *fills) {
    int rc = make_records_type(w->n, dst, &w->dt);
    if (rc == CK_OK) rc = make_records_type(w->n, src, &w->st);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->dt, NULL, &w->dam);
    if (rc == CK_OK) rc = ckb_make_arrmeta(w->st, NULL, &w->sam);
    if (rc != CK_OK) {
        return rc;
    }
    const ck_type *srec = ck_type_element(w->st);
    const size_t ss = ck_type_data_size(srec), ds = ck_type_data_size(ck_type_element(w->dt));
    w->src_buf = ckb_alloc_buffer(w->n * ss);
    w->dst_buf = ckb_alloc_buffer(w->n * ds);
    w->ref_buf = ckb_alloc_buffer(w->n * ds);
    if (w->src_buf == NULL || w->dst_buf == NULL || w->ref_buf == NULL) {
        return ckb_nomem("record buffers");
    }
    w->ksrc = w->src_buf;
    w->kdst = w->dst_elems = w->dst_buf;
    w->ref_elems = w->ref_buf;
    w->dst_bytes = w->n * ds;
    w->bytes_moved = (double)(w->n * (ss + ds));
    rc = fill_records(w->src_buf, w->n, srec, fills);
    return rc == CK_OK ? ckb_wl_build(w) : rc;
}

/* struct/copy-identical: the kernel is one dimension over one copy_bytes leaf, or the
 * workload would time something else under its name. */
static int check_one_copy(ckb_wl *w) {
    char *tree = NULL;
    int rc = ck_kernel_describe(ck_builder_root(&w->b), &tree);
    if (rc != CK_OK) {
        return rc;
    }
    const char *copy = strstr(tree, "copy_bytes @");
    if (copy == NULL || strstr(copy + 1, "copy_bytes @") != NULL || strstr(tree, "fields @") ||
        strstr(tree, "leaf @")) {
        rc = ck_set_error(CK_ERR_INTERNAL, "bench: %s is not one copy_bytes leaf:\n%s",
                          w->def->name, tree);
    }
    ck_free(tree);
    return rc;
}

/* NaN, inf and zeros of both signs in z: a copy keeps every bit. */
int ckb_struct_setup_copy(ckb_wl *w) {
    static const ckb_fill fills[3] = {F_I32, F_I32, F_F64_WIDE};
    const int rc = setup_records(w, CKB_REC_COPY_DS, CKB_REC_COPY_DS, fills);
    return rc == CK_OK ? check_one_copy(w) : rc;
}

/* c: float64 -> float32 rounds, overflows to inf, flushes to subnormals and zeros. */
int ckb_struct_setup_cast(ckb_wl *w) {
    static const ckb_fill fills[3] = {F_F64_WIDE, F_I16, F_I32};
    return setup_records(w, CKB_REC_CAST_DST_DS, CKB_REC_CAST_SRC_DS, fills);
}

int ckb_struct_loop_copy(const ckb_wl *w, ckb_out out) {
    return ckb_loop_struct_copy((ckb_rec_copy *)(void *)out.elems,
                                (const ckb_rec_copy *)(void *)w->ksrc, w->n);
}

int ckb_struct_loop_cast(const ckb_wl *w, ckb_out out) {
    return ckb_loop_struct_cast((ckb_rec_cast_dst *)(void *)out.elems,
                                (const ckb_rec_cast_src *)(void *)w->ksrc, w->n);
}
