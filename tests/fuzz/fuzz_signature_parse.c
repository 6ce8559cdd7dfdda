/* tests/fuzz/fuzz_signature_parse.c: libFuzzer target for leaf signatures (internal parser,
 * src/signatures/signature.c). For any input: no crash; a failure is CK_ERR_PARSE with a
 * message that names the column; a success prints in both spellings, and each printed form
 * parses back to the same signature; likewise with core dimensions ("(N * float64) -> ..."). */
#include "signatures/signature.h"
#include "fuzz_common.h"

static int same(const ck__signature *a, const ck__signature *b) {
    if (a->nargs != b->nargs || a->ret != b->ret) {
        return 0;
    }
    for (int i = 0; i < a->nargs; i++) {
        if (a->args[i] != b->args[i]) {
            return 0;
        }
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *s = ckf_string(data, size);
    if (s == NULL) {
        return 0;
    }
    ck__signature sig;
    const int rc = ck__signature_parse(s, &sig);
    if (rc != CK_OK) {
        CKF_CHECK(rc == CK_ERR_PARSE, "unexpected status %s", ck_status_name(rc));
        CKF_CHECK(strstr(ck_last_error(), " at column ") != NULL, "message without a column: %s",
                  ck_last_error());
    } else {
        CKF_CHECK(sig.nargs >= 0 && sig.nargs <= CK__SIG_MAX_ARGS, "%d arguments", sig.nargs);
        char text[512], compact[64];
        CKF_CHECK(ck__signature_format(&sig, text, sizeof text) < sizeof text, "long form");
        CKF_CHECK(ck__signature_format_compact(&sig, compact, sizeof compact) < sizeof compact,
                  "long compact form");
        ck__signature again;
        CKF_CHECK(ck__signature_parse(text, &again) == CK_OK && same(&sig, &again),
                  "'%s' does not parse back: %s", text, ck_last_error());
        CKF_CHECK(ck__signature_parse(compact, &again) == CK_OK && same(&sig, &again),
                  "'%s' does not parse back: %s", compact, ck_last_error());
    }
    /* With core dimensions: a failure names the column too; a success prints and parses
     * back to the same signature and core dimensions; without any it is the plain parse's. */
    ck__core_sig core;
    const int crc = ck__signature_parse_core(s, &sig, &core);
    if (crc != CK_OK) {
        CKF_CHECK(crc == CK_ERR_PARSE, "unexpected status %s", ck_status_name(crc));
        CKF_CHECK(strstr(ck_last_error(), " at column ") != NULL, "message without a column: %s",
                  ck_last_error());
        CKF_CHECK(rc != CK_OK, "the plain parse takes what the core parse refuses");
    } else {
        CKF_CHECK(core.any || rc == CK_OK, "no core dimensions, yet the plain parse refuses");
        char text[1024];
        CKF_CHECK(ck__signature_format_core(&sig, &core, text, sizeof text) < sizeof text,
                  "long form with core dimensions");
        ck__signature again;
        ck__core_sig again_core;
        CKF_CHECK(ck__signature_parse_core(text, &again, &again_core) == CK_OK &&
                      same(&sig, &again) && ck__core_sig_same(&core, &again_core),
                  "'%s' does not parse back: %s", text, ck_last_error());
    }
    free(s);
    ckf_check_no_leak();
    return 0;
}
