/* tests/fuzz/fuzz_array_parse.c: libFuzzer target for ck_array_parse. The input is a
 * datashape, a newline, and a literal. For any input: no crash, no leak, no allocation
 * larger than the input warrants; a failure has a status from the literal rules and a
 * message; a success formats, the formatted text parses again, and formats the same. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *s = ckf_string(data, size);
    if (s == NULL) {
        return 0;
    }
    char *nl = strchr(s, '\n');
    if (nl == NULL) {
        free(s);
        return 0;
    }
    *nl = '\0';
    const char *literal = nl + 1;
    ck_type *t = NULL;
    if (ck_type_parse(s, &t) == CK_OK) {
        ck_array *a = NULL;
        int rc = ck_array_parse(t, literal, &a);
        if (rc != CK_OK) {
            CKF_CHECK(a == NULL, "out set on failure");
            CKF_CHECK(rc == CK_ERR_PARSE || rc == CK_ERR_OVERFLOW || rc == CK_ERR_FRACTIONAL ||
                          rc == CK_ERR_IMAGINARY || rc == CK_ERR_NOMEM,
                      "unexpected status %s: %s", ck_status_name(rc), ck_last_error());
            CKF_CHECK(ck_last_error()[0] != '\0', "no message for %s", ck_status_name(rc));
        } else {
            char *first = NULL;
            char *second = NULL;
            ck_array *b = NULL;
            CKF_CHECK(ck_array_format(a, &first) == CK_OK, "format: %s", ck_last_error());
            CKF_CHECK(ck_array_parse(t, first, &b) == CK_OK, "reparse of '%s': %s", first,
                      ck_last_error());
            CKF_CHECK(ck_array_format(b, &second) == CK_OK, "format: %s", ck_last_error());
            CKF_CHECK(strcmp(first, second) == 0, "'%s' came back as '%s'", first, second);
            ck_free(first);
            ck_free(second);
            ck_array_free(b);
            ck_array_free(a);
        }
        ck_type_decref(t);
    }
    free(s);
    ckf_check_no_leak();
    return 0;
}
