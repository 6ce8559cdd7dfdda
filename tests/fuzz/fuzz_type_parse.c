/* tests/fuzz/fuzz_type_parse.c: libFuzzer target for ck_type_parse. For any input: no crash,
 * no leak; a failure is CK_ERR_PARSE, CK_ERR_INVALID or CK_ERR_UNSUPPORTED (an option of a
 * non-scalar) with a message that names the column; a success prints canonically, and the
 * canonical string parses to an equal type that prints the same (print(parse(s)) is a fixed
 * point). Tuples and structs also keep their layout promises (fields aligned, inside the
 * value, in order; every name found at its own index; each field's arrmeta inside the
 * parent's), and their default arrmeta holds the C-layout offsets. */
#include "fuzz_common.h"

/* The layout invariants of t and of every type inside it (depth <= CK_TYPE_MAX_DEPTH). */
static void check_layout(const ck_type *t) {
    const size_t n = ck_type_field_count(t);
    const ck_type_id id = ck_type_get_id(t);
    if (id != CK_TYPE_TUPLE && id != CK_TYPE_STRUCT) {
        CKF_CHECK(n == 0, "a %s with %zu fields", ck_type_id_name(id), n);
        const ck_type *e = ck_type_element(t);
        if (e != NULL) {
            CKF_CHECK(ck_type_depth(e) < ck_type_depth(t), "element depth");
            check_layout(e);
        }
        return;
    }
    const size_t size = ck_type_data_size(t), align = ck_type_data_alignment(t);
    const size_t msize = ck_type_arrmeta_size(t);
    CKF_CHECK(align != 0 && size % align == 0, "size %zu, alignment %zu", size, align);
    CKF_CHECK(msize >= n * sizeof(intptr_t), "arrmeta %zu bytes for %zu fields", msize, n);
    size_t end = 0; /* of the previous field: C lays fields out in order */
    for (size_t i = 0; i < n; i++) {
        const ck_type *f = ck_type_field(t, i);
        CKF_CHECK(f != NULL, "field %zu of %zu", i, n);
        const size_t off = ck_type_field_offset(t, i), fa = ck_type_data_alignment(f);
        const size_t fs = ck_type_data_size(f), mo = ck_type_field_arrmeta_offset(t, i);
        CKF_CHECK(fa != 0 && off % fa == 0 && align % fa == 0, "field %zu at %zu, align %zu", i,
                  off, fa);
        CKF_CHECK(off >= end && off - end < fa && off + fs <= size, "field %zu at %zu", i, off);
        CKF_CHECK(mo >= n * sizeof(intptr_t) && mo + ck_type_arrmeta_size(f) <= msize,
                  "field %zu arrmeta at %zu", i, mo);
        CKF_CHECK(ck_type_depth(f) < ck_type_depth(t), "field depth");
        end = off + fs;
        const char *name = ck_type_field_name(t, i);
        CKF_CHECK((name != NULL) == (id == CK_TYPE_STRUCT), "field %zu name", i);
        if (name != NULL) {
            CKF_CHECK(name[0] != '\0' && ck_type_field_index(t, name) == (intptr_t)i,
                      "field %zu '%s' found at %lld", i, name,
                      (long long)ck_type_field_index(t, name));
        }
        check_layout(f);
    }
    CKF_CHECK(ck_type_field(t, n) == NULL, "field past the end");
    CKF_CHECK(size - end < align, "trailing padding %zu, alignment %zu", size - end, align);
}

/* Default arrmeta: a tuple's or struct's offsets table is its C layout (checked at the top
 * level and below leading fixed dimensions, which default-construct contiguous). */
static void check_default_arrmeta(const ck_type *t) {
    const size_t msize = ck_type_arrmeta_size(t);
    char *meta = (char *)calloc(msize != 0 ? msize : 1, 1);
    if (meta == NULL) {
        return;
    }
    CKF_CHECK(ck_arrmeta_default_construct(t, meta, NULL) == CK_OK, "default arrmeta: %s",
              ck_last_error());
    const ck_type *rec = t;
    size_t at = 0;
    while (ck_type_get_id(rec) == CK_TYPE_FIXED_DIM) {
        at += sizeof(ck_fixed_dim_arrmeta);
        rec = ck_type_element(rec);
    }
    for (size_t i = 0; i < ck_type_field_count(rec); i++) {
        intptr_t off;
        memcpy(&off, meta + at + i * sizeof off, sizeof off);
        CKF_CHECK(off == (intptr_t)ck_type_field_offset(rec, i), "offset %zu: %lld", i,
                  (long long)off);
    }
    ck_arrmeta_release(t, meta);
    free(meta);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *s = ckf_string(data, size);
    if (s == NULL) {
        return 0;
    }
    ck_type *t = NULL;
    int rc = ck_type_parse(s, &t);
    if (rc != CK_OK) {
        CKF_CHECK(t == NULL, "out set on failure");
        CKF_CHECK(rc == CK_ERR_PARSE || rc == CK_ERR_INVALID || rc == CK_ERR_UNSUPPORTED ||
                      rc == CK_ERR_NOMEM,
                  "unexpected status %s", ck_status_name(rc));
        CKF_CHECK(rc == CK_ERR_NOMEM || strstr(ck_last_error(), " at column ") != NULL,
                  "message without a column: %s", ck_last_error());
    } else {
        CKF_CHECK(ck_type_depth(t) <= CK_TYPE_MAX_DEPTH, "depth %d", ck_type_depth(t));
        CKF_CHECK(ck_type_data_size(t) <= (size_t)INTPTR_MAX, "data size %zu",
                  ck_type_data_size(t));
        check_layout(t);
        check_default_arrmeta(t);
        char *first = NULL;
        char *second = NULL;
        ck_type *again = NULL;
        CKF_CHECK(ck_type_format(t, &first) == CK_OK, "format: %s", ck_last_error());
        CKF_CHECK(ck_type_parse(first, &again) == CK_OK, "reparse of '%s': %s", first,
                  ck_last_error());
        CKF_CHECK(ck_type_equal(t, again), "'%s' reparsed to a different type", first);
        CKF_CHECK(ck_type_format(again, &second) == CK_OK, "format: %s", ck_last_error());
        CKF_CHECK(strcmp(first, second) == 0, "'%s' printed as '%s'", first, second);
        ck_free(first);
        ck_free(second);
        ck_type_decref(again);
        ck_type_decref(t);
    }
    free(s);
    ckf_check_no_leak();
    return 0;
}
