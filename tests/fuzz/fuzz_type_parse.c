/* tests/fuzz/fuzz_type_parse.c: libFuzzer target for ck_type_parse. For any input: no crash,
 * no leak; a failure is CK_ERR_PARSE or CK_ERR_INVALID with a message that names the column;
 * a success prints canonically, and the canonical string parses to an equal type that prints
 * the same (print(parse(s)) is a fixed point). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *s = ckf_string(data, size);
    if (s == NULL) {
        return 0;
    }
    ck_type *t = NULL;
    int rc = ck_type_parse(s, &t);
    if (rc != CK_OK) {
        CKF_CHECK(t == NULL, "out set on failure");
        CKF_CHECK(rc == CK_ERR_PARSE || rc == CK_ERR_INVALID || rc == CK_ERR_NOMEM,
                  "unexpected status %s", ck_status_name(rc));
        CKF_CHECK(rc == CK_ERR_NOMEM || strstr(ck_last_error(), " at column ") != NULL,
                  "message without a column: %s", ck_last_error());
    } else {
        CKF_CHECK(ck_type_depth(t) <= CK_TYPE_MAX_DEPTH, "depth %d", ck_type_depth(t));
        CKF_CHECK(ck_type_data_size(t) <= (size_t)INTPTR_MAX, "data size %zu",
                  ck_type_data_size(t));
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
