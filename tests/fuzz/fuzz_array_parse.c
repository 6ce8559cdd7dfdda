/* tests/fuzz/fuzz_array_parse.c: libFuzzer target for ck_array_parse. The input is a
 * datashape, a newline, and a literal. For any input: no crash, no leak, no allocation
 * larger than the input warrants; a failure has a status from the literal rules and a
 * message; a success formats, the formatted text parses again, and formats the same. A
 * parsed array is also assigned (ck_assign) into a new array of its own type, once with
 * fields matched by name and once by position: the kernels (structs, tuples and options
 * included) copy it exactly, so the copy formats the same, or the source holds an
 * unallocated row or a NULL pointer and the assignment says so. Text under fixed dimensions
 * also goes through string and back (the text cast, docs/design.md §16): the same text, or
 * bytes that are not UTF-8 (CK_ERR_TEXT); an option of text (?string, ?fixed_bytes[N], ...)
 * through ?string and back, NA staying NA (the option kernel over the text cast). */
#include "fuzz_common.h"

/* An upper bound of the bytes ck_array_new(t) allocates, saturating at `cap`: the data, and
 * a target for every pointer reachable through fixed dims and fields, even where the literal
 * has null (so a short input can ask for a huge one, which is not the copy's concern). */
static size_t new_bytes(const ck_type *t, size_t cap) {
    const size_t own = ck_type_data_size(t);
    switch (ck_type_get_id(t)) {
    case CK_TYPE_FIXED_DIM: {
        const size_t n = (size_t)ck_type_fixed_size(t);
        const size_t e = new_bytes(ck_type_element(t), cap);
        return n == 0 ? 0 : e > cap / n ? cap : n * e;
    }
    case CK_TYPE_POINTER: {
        const size_t e = new_bytes(ck_type_element(t), cap);
        return e >= cap - own ? cap : own + e;
    }
    case CK_TYPE_TUPLE:
    case CK_TYPE_STRUCT: {
        size_t sum = own;
        for (size_t i = 0; i < ck_type_field_count(t) && sum < cap; i++) {
            const size_t f = new_bytes(ck_type_field(t, i), cap);
            sum = f >= cap - sum ? cap : sum + f;
        }
        return sum;
    }
    default: /* scalars, options, var dims (their rows start unallocated) */
        return own < cap ? own : cap;
    }
}

/* 0 when t has a var dim whose elements are over UINT32_MAX bytes: the var kernel refuses
 * to be built for those (CK_ERR_INVALID, "elements of N bytes are too large"), empty rows
 * or not. */
static int var_elements_fit(const ck_type *t) {
    if (ck_type_get_id(t) == CK_TYPE_VAR_DIM &&
        ck_type_data_size(ck_type_element(t)) > UINT32_MAX) {
        return 0;
    }
    if (ck_type_element(t) != NULL) {
        return var_elements_fit(ck_type_element(t));
    }
    for (size_t i = 0; i < ck_type_field_count(t); i++) {
        if (!var_elements_fit(ck_type_field(t, i))) {
            return 0;
        }
    }
    return 1;
}

/* a into a new array of its type; its text must be `text`. */
static void check_copy(const ck_type *t, const ck_array *a, const char *text, unsigned flags) {
    ck_array *c = NULL;
    int rc = ck_array_new(t, &c);
    if (rc != CK_OK) {
        CKF_CHECK(rc == CK_ERR_NOMEM, "ck_array_new: %s: %s", ck_status_name(rc),
                  ck_last_error());
        return;
    }
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = flags;
    rc = ck_assign(c, a, &ctx);
    /* UNINITIALIZED: a null in the literal (an unallocated var row or a NULL pointer), or a
     * pointer inside a var row, which a new array leaves NULL. */
    CKF_CHECK(rc == CK_OK || rc == CK_ERR_UNINITIALIZED || rc == CK_ERR_NOMEM,
              "assign '%s' (flags 0x%x): %s: %s", text, flags, ck_status_name(rc),
              ck_last_error());
    if (rc == CK_OK) {
        char *copied = NULL;
        CKF_CHECK(ck_array_format(c, &copied) == CK_OK, "format: %s", ck_last_error());
        CKF_CHECK(strcmp(copied, text) == 0, "'%s' assigned (flags 0x%x) as '%s'", text, flags,
                  copied);
        ck_free(copied);
    } else {
        CKF_CHECK(ck_last_error()[0] != '\0', "no message for %s", ck_status_name(rc));
    }
    ck_array_free(c);
}

/* dims (fixed, outer first) of t over el: a new type. */
static const ck_type *same_dims(const ck_type *t, const ck_type *el) {
    if (ck_type_get_id(t) != CK_TYPE_FIXED_DIM) {
        ck_type_incref(el);
        return el;
    }
    const ck_type *inner = same_dims(ck_type_element(t), el);
    ck_type *out = NULL;
    if (inner != NULL && ck_type_make_fixed_dim(ck_type_fixed_size(t), inner, &out) != CK_OK) {
        out = NULL;
    }
    ck_type_decref(inner);
    return out;
}

/* a (text or an option of text under fixed dims, formatted as `text`) into string (?string)
 * and back into its own type. */
static void check_text_round_trip(const ck_type *t, const ck_array *a, const char *text) {
    const ck_type *el = t;
    while (ck_type_get_id(el) == CK_TYPE_FIXED_DIM) {
        el = ck_type_element(el);
    }
    const int option = ck_type_get_id(el) == CK_TYPE_OPTION;
    if (option) {
        el = ck_type_element(el);
    }
    if (!ck_type_is_text(el)) {
        return;
    }
    const int bytes = ck_type_text_encoding(el) == CK_ENCODING_NONE;
    ck_type *ostr = NULL;
    if (option && ck_type_make_option(ck_type_string(), &ostr) != CK_OK) {
        return; /* no memory for the type */
    }
    const ck_type *st = same_dims(t, option ? ostr : ck_type_string());
    ck_type_decref(ostr);
    ck_array *mid = NULL, *back = NULL;
    int rc = st == NULL ? CK_ERR_NOMEM : ck_array_new(st, &mid);
    if (rc == CK_OK) rc = ck_assign(mid, a, NULL);
    if (rc == CK_OK) rc = ck_array_new(t, &back);
    if (rc == CK_OK) rc = ck_assign(back, mid, NULL);
    CKF_CHECK(rc == CK_OK || rc == CK_ERR_NOMEM || (bytes && rc == CK_ERR_TEXT),
              "'%s' through string: %s: %s", text, ck_status_name(rc), ck_last_error());
    if (rc == CK_OK) {
        char *again = NULL;
        CKF_CHECK(ck_array_format(back, &again) == CK_OK, "format: %s", ck_last_error());
        CKF_CHECK(strcmp(again, text) == 0, "'%s' through string came back as '%s'", text, again);
        ck_free(again);
    }
    ck_array_free(back);
    ck_array_free(mid);
    ck_type_decref(st);
}

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
    /* A fixed text's N is not bounded by the literal ("fixed_string[903937777, 'utf32']" of
     * "" is 3.6 GB of data), as a fixed dimension's is (the literal holds every element):
     * such types are legal and their parse allocates what they ask for, which is not what
     * this target tests. */
    if (ck_type_parse(s, &t) != CK_OK) {
        t = NULL;
    } else if (ck_type_data_size(t) > ((size_t)1 << 26)) {
        ck_type_decref(t);
        t = NULL;
    }
    if (t != NULL) {
        ck_array *a = NULL;
        int rc = ck_array_parse(t, literal, &a);
        if (rc != CK_OK) {
            CKF_CHECK(a == NULL, "out set on failure");
            /* NA: written for a type that is not an option; TEXT: a code point an ascii
             * field cannot hold. */
            CKF_CHECK(rc == CK_ERR_PARSE || rc == CK_ERR_OVERFLOW || rc == CK_ERR_FRACTIONAL ||
                          rc == CK_ERR_IMAGINARY || rc == CK_ERR_NA || rc == CK_ERR_NOMEM ||
                          rc == CK_ERR_TEXT,
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
            if (new_bytes(t, (size_t)1 << 20) < ((size_t)1 << 20) && var_elements_fit(t)) {
                check_copy(t, a, first, 0);
                check_copy(t, a, first, CK_EVAL_FIELDS_BY_POSITION);
                check_text_round_trip(t, a, first);
            }
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
