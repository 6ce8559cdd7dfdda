// tests/expr/expr_random_test.cpp: random expression trees (depth <= 6, 1-5 arguments of mixed
// scalar types, broadcast scalars, rows and columns, fixed and var inner dimensions, casts,
// literals of every integer width and float64, + - * /, unary -, minimum and maximum) built as
// ONE kernel with ck_make_expr, against an independent reference: the same tree evaluated node
// by node with ck_call_new (and ck_assign for casts) into full temporaries. Results must agree
// in type and bit for bit; a failure of one must be a failure of the other, with the same
// status where both run the nodes in the same order over one chunk.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "expr_random.hpp"
#include "numpy_scalars.h"

namespace {

using namespace ckt_expr;

// The reference: node by node into full temporaries. Returns a status; *out a new array
// (arguments are returned as borrowed: *owned 0).
// A call of fn over ops whose constants (scal[k] 1: 0-d values; 2: 0-d of unknown value) are
// typed as NumPy 1.24 types scalars beside arrays (numpy_scalars.h): each constant is
// converted to that type first, and to its alternative when no signature takes the first.
int call_typed_by_value(const char *fn, std::vector<ck_array *> &ops, std::vector<bool> &own,
                        const std::vector<int> &scal, const ck_eval_ctx &ctx,
                        ck_array **out) {
    const int n = static_cast<int>(ops.size());
    std::vector<ck_type_id> id(ops.size()), want(ops.size());
    std::vector<int> scalar(ops.size()), alt(ops.size());
    for (int k = 0; k < n; k++) {
        const ck_type *t = ck_array_type(ops[static_cast<size_t>(k)]);
        while (ck_type_element(t) != nullptr) t = ck_type_element(t);
        id[static_cast<size_t>(k)] = ck_type_get_id(t);
        scalar[static_cast<size_t>(k)] = scal[static_cast<size_t>(k)];
    }
    int rc = ckt_numpy_operand_types(fn, n, id.data(), scalar.data(), ops.data(), want.data(),
                                     alt.data());
    ck_callable *c = nullptr;
    if (rc == CK_OK) rc = ck_lookup(fn, &c);
    for (int attempt = 0; rc == CK_OK && attempt < 2; attempt++) {
        std::vector<ck_array *> typed(ops);
        std::vector<ck_array *> made;
        bool any_alt = false;
        for (int k = 0; rc == CK_OK && k < n; k++) {
            const size_t u = static_cast<size_t>(k);
            any_alt = any_alt || alt[u] >= 0;
            const ck_type_id to = attempt == 1 && alt[u] >= 0 ? static_cast<ck_type_id>(alt[u])
                                                              : want[u];
            if (scalar[u] != 1 || to == id[u]) continue;
            ck_array *v = nullptr;
            ck_eval_ctx nocheck = ctx;
            nocheck.errmode = CK_ERRMODE_NOCHECK; // the type holds the value
            rc = ck_array_new(ck_type_scalar(to), &v);
            if (rc == CK_OK) rc = ck_assign(v, ops[u], &nocheck);
            made.push_back(v);
            typed[u] = v;
        }
        if (attempt == 1 && !any_alt) break;
        if (rc == CK_OK) rc = ck_call_new(c, n, typed.data(), &ctx, out);
        for (ck_array *v : made) ck_array_free(v);
        if (rc != CK_ERR_TYPE || !any_alt || attempt == 1) break;
        rc = CK_OK; // try the alternatives
    }
    ck_callable_decref(c);
    (void)own;
    return rc;
}

std::string type_text(const ck_type *t) {
    char *ts = nullptr;
    if (ck_type_format(t, &ts) != CK_OK) return "?";
    std::string s = ts;
    ck_free(ts);
    return s;
}

int reference(const std::vector<Node> &nodes, int i, const std::vector<ck_array *> &args,
              const ck_eval_ctx &ctx, ck_array **out, bool *owned, int *scal) {
    const Node &n = nodes[static_cast<size_t>(i)];
    *owned = true;
    *scal = n.kind == Node::LIT ? 1 : 0;
    if (n.kind == Node::ARG) {
        *out = args[static_cast<size_t>(n.arg)];
        *owned = false;
        const ck_type *t = ck_array_type(*out);
        if (ck_type_get_id(t) == CK_TYPE_OPTION) t = ck_type_element(t);
        *scal = ck_type_is_scalar(t) ? 2 : 0; // a 0-d argument: a scalar of unknown value
        return CK_OK;
    }
    if (n.kind == Node::LIT) {
        return ck_array_parse(ck_type_scalar(n.type), n.text.c_str(), out);
    }
    std::vector<ck_array *> ops;
    std::vector<bool> own;
    std::vector<int> consts;
    int rc = CK_OK;
    int least = 1; // 1 while every kid is a constant, 2 while every kid is 0-d
    for (int k : n.kids) {
        ck_array *a = nullptr;
        bool o = false;
        int cst = 0;
        rc = reference(nodes, k, args, ctx, &a, &o, &cst);
        if (rc != CK_OK) break;
        ops.push_back(a);
        own.push_back(o);
        consts.push_back(cst);
        least = cst == 0 ? 0 : least == 0 ? 0 : cst > least ? cst : least;
    }
    *scal = least;
    if (rc == CK_OK && n.kind == Node::CALL) {
        rc = call_typed_by_value(n.fn, ops, own, consts, ctx, out);
    } else if (rc == CK_OK) {
        // The operand's type with the target scalar in place of its own.
        char *ts = nullptr;
        rc = ck_type_format(ck_array_type(ops[0]), &ts);
        std::string s = rc == CK_OK ? ts : "";
        ck_free(ts);
        size_t end = s.size(), start = end;
        while (start > 0 && (std::isalnum(static_cast<unsigned char>(s[start - 1])) != 0)) start--;
        s = s.substr(0, start) + ck_type_id_name(n.type);
        ck_type *t = nullptr;
        if (rc == CK_OK) rc = ck_type_parse(s.c_str(), &t);
        if (rc == CK_OK) rc = ck_array_new(t, out);
        if (rc == CK_OK) rc = ck_assign(*out, ops[0], &ctx);
        ck_type_decref(t);
    }
    if (rc != CK_OK && *out != nullptr) {
        ck_array_free(*out);
        *out = nullptr;
    }
    for (size_t k = 0; k < ops.size(); k++) {
        if (own[k]) ck_array_free(ops[k]);
    }
    return rc;
}

TEST(ExprRandom, TreesAgreeWithNodeByNodeEvaluation) {
    int agreed = 0, failed_both = 0, statuses_compared = 0;
    for (uint32_t seed = 1; seed <= 2000; seed++) {
        Gen g(seed);
        const std::vector<ck_type_id> all(std::begin(kTypes), std::end(kTypes));
        Case cs;
        ASSERT_NO_FATAL_FAILURE(make_case(g, all, true, &cs));
        if (cs.arrays.empty()) continue; // literals only: nothing gives a shape
        const int nargs = cs.nargs, root = cs.root;
        const std::vector<Node> &nodes = cs.nodes;
        const std::string &text = cs.text, &desc = cs.desc;
        const long long m = cs.m, inner = cs.inner;
        const bool var = cs.var;
        std::vector<ck_type *> &types = cs.types;
        std::vector<ck_array *> &arrays = cs.arrays;
        std::vector<const char *> &names = cs.names;
        const ck_eval_ctx ctx = cs.ctx;
        // The reference's arguments in the tree's numbering.
        std::vector<ck_array *> by_arg(static_cast<size_t>(nargs), nullptr);
        for (size_t j = 0; j < names.size(); j++) by_arg[static_cast<size_t>(names[j][0] - 'a')] = arrays[j];
        ck_array *ref = nullptr;
        bool owned = false;
        int root_const = 0;
        const int ref_rc = reference(nodes, root, by_arg, ctx, &ref, &owned, &root_const);
        const std::string ref_msg = ck_last_error();
        // Ours: one kernel.
        ck_expr *e = nullptr;
        ASSERT_EQ(ck_expr_parse(text.c_str(), &e), CK_OK) << text << ": " << ck_last_error();
        const int n = static_cast<int>(arrays.size());
        ck_type *rt = nullptr;
        ck_array *got = nullptr;
        int phase = 0; // 0 build, 1 run
        int rc = ck_expr_result_type(e, n, names.data(), types.data(), &ctx, &rt);
        if (rc == CK_OK) rc = ck_array_new(rt, &got);
        ck_builder b;
        ck_builder_init(&b);
        size_t off = 0;
        std::vector<const char *> sam;
        std::vector<char *> sd;
        for (auto *a : arrays) {
            sam.push_back(ck_array_arrmeta(a));
            sd.push_back(ck_array_data(a));
        }
        if (rc == CK_OK) {
            rc = ck_make_expr(&b, &off, e, rt, ck_array_arrmeta(got), n, names.data(),
                              types.data(), sam.data(), CK_REQUEST_SINGLE, &ctx);
        }
        if (rc == CK_OK) {
            phase = 1;
            rc = ck_call_single(ck_builder_root(&b), ck_array_data(got), sd.data());
        }
        const std::string msg = ck_last_error();
        const std::string what = "seed " + std::to_string(seed) + ": " + text + " with" + desc +
                                 (var ? " (var rows)" : "") + " mode " + std::to_string(ctx.errmode);
        EXPECT_EQ(rc == CK_OK, ref_rc == CK_OK)
            << what << "\nours: " << ck_status_name(rc) << " " << msg
            << "\nreference: " << ck_status_name(ref_rc) << " " << ref_msg;
        if (rc == CK_OK && ref_rc == CK_OK) {
            ASSERT_TRUE(ck_type_equal(ck_array_type(ref), rt))
                << what << "\nours: " << type_text(rt) << "\nreference: " << type_text(ck_array_type(ref));
            EXPECT_TRUE(same_bytes(rt, ck_array_arrmeta(got), ck_array_data(got),
                                   ck_array_arrmeta(ref), ck_array_data(ref)))
                << what;
            agreed++;
        } else if (rc != CK_OK && ref_rc != CK_OK) {
            failed_both++;
            // One run of at most one chunk: the nodes fail in the same order.
            if (phase == 1 && m == 1 && !var && inner <= 1000) {
                statuses_compared++;
                EXPECT_EQ(ck_status_name(rc), std::string(ck_status_name(ref_rc)))
                    << what << "\nours: " << msg << "\nreference: " << ref_msg;
            }
        }
        ck_builder_destroy(&b);
        ck_array_free(got);
        ck_type_decref(rt);
        ck_expr_decref(e);
        if (owned) ck_array_free(ref);
    }
    // Most trees must evaluate: the comparison is of results, not of refusals.
    EXPECT_GT(agreed, 1000);
    RecordProperty("agreed", agreed);
    RecordProperty("failed_both", failed_both);
    std::printf("random trees: %d agreed bit for bit, %d failed in both (%d statuses compared)\n",
                agreed, failed_both, statuses_compared);
}

}  // namespace
