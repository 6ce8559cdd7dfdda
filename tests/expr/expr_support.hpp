// tests/expr/expr_support.hpp: evaluating an expression on literals for the expression
// suites: the result's literal, or its status and message.
#ifndef CK_TEST_EXPR_SUPPORT_HPP
#define CK_TEST_EXPR_SUPPORT_HPP

#include <string>
#include <vector>

#include "ckernel/ckernel.h"

namespace ckt {

struct ExprArg {
    const char *name;
    const char *type;
    std::string literal;
};

inline std::string failure(int rc) {
    return std::string(ck_status_name(rc)) + ": " + ck_last_error();
}

// Parses `text` and evaluates it on the arguments (into `out` when given), as `ckernel eval`.
inline std::string eval(const char *text, const std::vector<ExprArg> &args,
                        const char *out = nullptr, ck_eval_ctx ctx = CK_EVAL_CTX_INIT) {
    ck_expr *e = nullptr;
    int rc = ck_expr_parse(text, &e);
    std::vector<ck_type *> types;
    std::vector<ck_array *> arrays;
    std::vector<const char *> names;
    for (size_t k = 0; rc == CK_OK && k < args.size(); k++) {
        ck_type *t = nullptr;
        ck_array *a = nullptr;
        rc = ck_type_parse(args[k].type, &t);
        if (rc == CK_OK) rc = ck_array_parse(t, args[k].literal.c_str(), &a);
        types.push_back(t);
        arrays.push_back(a);
        names.push_back(args[k].name);
    }
    ck_array *dst = nullptr;
    const int n = static_cast<int>(arrays.size());
    if (rc == CK_OK && out != nullptr) {
        ck_type *dt = nullptr;
        rc = ck_type_parse(out, &dt);
        if (rc == CK_OK) rc = ck_array_new(dt, &dst);
        ck_type_decref(dt);
        if (rc == CK_OK) rc = ck_expr_eval(e, dst, n, names.data(), arrays.data(), &ctx);
    } else if (rc == CK_OK) {
        rc = ck_expr_eval_new(e, n, names.data(), arrays.data(), &ctx, &dst);
    }
    std::string result;
    if (rc == CK_OK) {
        char *s = nullptr;
        rc = ck_array_format(dst, &s);
        if (rc == CK_OK) result = s;
        ck_free(s);
    }
    if (rc != CK_OK) result = failure(rc);
    ck_array_free(dst);
    for (auto *a : arrays) ck_array_free(a);
    for (auto *t : types) ck_type_decref(t);
    ck_expr_decref(e);
    return result;
}

// The printed form of a parsed expression, or its status and message.
inline std::string parsed(const char *text) {
    ck_expr *e = nullptr;
    int rc = ck_expr_parse(text, &e);
    std::string result;
    char *s = nullptr;
    if (rc == CK_OK) rc = ck_expr_format(e, &s);
    result = rc == CK_OK ? std::string(s) : failure(rc);
    ck_free(s);
    ck_expr_decref(e);
    return result;
}

// The type of `text`'s result over the arguments (ck_expr_result_type), or the failure.
inline std::string result_type(const char *text, const std::vector<ExprArg> &args) {
    ck_expr *e = nullptr;
    int rc = ck_expr_parse(text, &e);
    std::vector<ck_type *> types;
    std::vector<const char *> names;
    for (size_t k = 0; rc == CK_OK && k < args.size(); k++) {
        ck_type *t = nullptr;
        rc = ck_type_parse(args[k].type, &t);
        types.push_back(t);
        names.push_back(args[k].name);
    }
    ck_type *rt = nullptr;
    if (rc == CK_OK) {
        std::vector<const ck_type *> st(types.begin(), types.end());
        rc = ck_expr_result_type(e, static_cast<int>(st.size()), names.data(), st.data(), nullptr,
                                 &rt);
    }
    std::string result;
    char *s = nullptr;
    if (rc == CK_OK) rc = ck_type_format(rt, &s);
    result = rc == CK_OK ? std::string(s) : failure(rc);
    ck_free(s);
    ck_type_decref(rt);
    for (auto *t : types) ck_type_decref(t);
    ck_expr_decref(e);
    return result;
}

}  // namespace ckt

#endif
