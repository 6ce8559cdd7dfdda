// tests/callables/call_literals.hpp: a call of a callable on literals, for the callables'
// suites: the result's literal, or its status and message.
#ifndef CK_TEST_CALL_LITERALS_HPP
#define CK_TEST_CALL_LITERALS_HPP

#include <string>
#include <utility>
#include <vector>

#include "ckernel/ckernel.h"

namespace ckt {

// Calls c on literals and returns the result's literal (or the status and message).
inline std::string call(ck_callable *c, std::vector<std::pair<const char *, std::string>> args,
                 const char *out = nullptr, ck_eval_ctx ctx = CK_EVAL_CTX_INIT) {
    std::vector<ck_type *> types;
    std::vector<ck_array *> arrays;
    std::string result;
    int rc = CK_OK;
    for (auto &a : args) {
        ck_type *t = nullptr;
        ck_array *arr = nullptr;
        rc = ck_type_parse(a.first, &t);
        if (rc == CK_OK) rc = ck_array_parse(t, a.second.c_str(), &arr);
        types.push_back(t);
        arrays.push_back(arr);
        if (rc != CK_OK) break;
    }
    ck_array *dst = nullptr;
    if (rc == CK_OK) {
        if (out != nullptr) {
            ck_type *dt = nullptr;
            rc = ck_type_parse(out, &dt);
            if (rc == CK_OK) rc = ck_array_new(dt, &dst);
            ck_type_decref(dt);
            if (rc == CK_OK)
                rc = ck_call(c, dst, static_cast<int>(arrays.size()), arrays.data(), &ctx);
        } else {
            rc = ck_call_new(c, static_cast<int>(arrays.size()), arrays.data(), &ctx, &dst);
        }
    }
    if (rc == CK_OK) {
        char *s = nullptr;
        rc = ck_array_format(dst, &s);
        if (rc == CK_OK) result = s;
        ck_free(s);
    }
    if (rc != CK_OK) result = std::string(ck_status_name(rc)) + ": " + ck_last_error();
    ck_array_free(dst);
    for (auto *a : arrays) ck_array_free(a);
    for (auto *t : types) ck_type_decref(t);
    return result;
}

}  // namespace ckt

#endif
