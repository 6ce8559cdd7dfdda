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

namespace {

struct Node {
    enum Kind { ARG, LIT, CAST, CALL } kind;
    int arg = -1;
    std::string text;        // LIT: its text
    ck_type_id type = CK_TYPE_BOOL; // LIT: the type the rule gives; CAST: the target
    const char *fn = nullptr; // CALL
    std::vector<int> kids;
};

const ck_type_id kTypes[] = {CK_TYPE_BOOL,    CK_TYPE_INT8,    CK_TYPE_INT16,  CK_TYPE_INT32,
                             CK_TYPE_INT64,   CK_TYPE_UINT8,   CK_TYPE_UINT16, CK_TYPE_UINT32,
                             CK_TYPE_UINT64,  CK_TYPE_FLOAT16, CK_TYPE_FLOAT32, CK_TYPE_FLOAT64,
                             CK_TYPE_COMPLEX64, CK_TYPE_COMPLEX128};

class Gen {
  public:
    explicit Gen(uint32_t seed) : rng_(seed) {}
    int pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }

    // A literal: its text and the type the expression's rule gives it, computed here by range.
    int literal(std::vector<Node> &nodes) {
        Node n;
        n.kind = Node::LIT;
        static const long long mags[] = {0, 1, 7, 100, 127, 128, 200, 300, 32767, 32768,
                                         70000, 2147483647, 2147483648LL, 5000000000LL};
        if (pick(4) == 0) {
            static const char *floats[] = {"2.5", "0.1", "-1e-3", "3.0", "-0.0", ".75", "1e2"};
            n.text = floats[pick(7)];
            n.type = CK_TYPE_FLOAT64;
        } else {
            long long v = mags[pick(14)];
            if (pick(2) == 0) v = -v;
            if (pick(3) == 0) v = v == 0 ? 0 : v - 1;
            n.text = std::to_string(v);
            n.type = v >= -128 && v <= 127           ? CK_TYPE_INT8
                     : v >= -32768 && v <= 32767     ? CK_TYPE_INT16
                     : v >= -2147483648LL && v <= 2147483647LL ? CK_TYPE_INT32
                                                     : CK_TYPE_INT64;
        }
        nodes.push_back(n);
        return static_cast<int>(nodes.size()) - 1;
    }

    // A tree of at most `depth` more levels; its text in text.
    int tree(std::vector<Node> &nodes, int depth, int nargs, std::string &text) {
        const int r = pick(100);
        if (depth == 0 || r < 25) {
            if (pick(10) < 7 || depth == 0) {
                if (pick(10) < 7) {
                    Node n;
                    n.kind = Node::ARG;
                    n.arg = pick(nargs);
                    text = std::string(1, static_cast<char>('a' + n.arg));
                    nodes.push_back(n);
                    return static_cast<int>(nodes.size()) - 1;
                }
            }
            const int i = literal(nodes);
            text = nodes[static_cast<size_t>(i)].text;
            return i;
        }
        Node n;
        n.kind = Node::CALL;
        std::string a, b;
        if (r < 75) {
            static const char ops[] = {'+', '-', '*', '/'};
            static const char *fns[] = {"add", "subtract", "multiply", "divide"};
            const int o = pick(4);
            n.fn = fns[o];
            n.kids.push_back(tree(nodes, depth - 1, nargs, a));
            n.kids.push_back(tree(nodes, depth - 1, nargs, b));
            text = "(" + a + " " + ops[o] + " " + b + ")";
        } else if (r < 82) {
            n.fn = "negative";
            n.kids.push_back(tree(nodes, depth - 1, nargs, a));
            text = "(-(" + a + "))";
        } else if (r < 90) {
            n.fn = pick(2) ? "minimum" : "maximum";
            n.kids.push_back(tree(nodes, depth - 1, nargs, a));
            n.kids.push_back(tree(nodes, depth - 1, nargs, b));
            text = std::string(n.fn) + "(" + a + ", " + b + ")";
        } else {
            n.kind = Node::CAST;
            n.type = kTypes[pick(14)];
            n.kids.push_back(tree(nodes, depth - 1, nargs, a));
            text = std::string(ck_type_id_name(n.type)) + "(" + a + ")";
        }
        nodes.push_back(n);
        return static_cast<int>(nodes.size()) - 1;
    }

    // A value of scalar type id as literal text: small, rarely zero (integer division).
    std::string value(ck_type_id id) {
        auto real = [&]() -> std::string {
            const int s = pick(60);
            if (s == 0) return "nan";
            if (s == 1) return "-inf";
            if (s == 2) return "-0";
            const int k = pick(161) - 80;
            return std::to_string(k / 4) + (k % 4 != 0 ? (k % 4 == 2 || k % 4 == -2 ? ".5" : (k > 0) == (k % 4 == 1) ? ".25" : ".75") : "");
        };
        switch (id) {
        case CK_TYPE_BOOL: return pick(2) ? "true" : "false";
        case CK_TYPE_INT8: case CK_TYPE_INT16: case CK_TYPE_INT32: case CK_TYPE_INT64: {
            if (pick(40) == 0) return "0";
            const int v = 1 + pick(20);
            return std::to_string(pick(2) ? v : -v);
        }
        case CK_TYPE_UINT8: case CK_TYPE_UINT16: case CK_TYPE_UINT32: case CK_TYPE_UINT64:
            return pick(40) == 0 ? "0" : std::to_string(1 + pick(40));
        case CK_TYPE_COMPLEX64: case CK_TYPE_COMPLEX128: {
            const int re = pick(41) - 20, im = pick(41) - 20;
            return std::to_string(re) + (im < 0 ? "-" : "+") + std::to_string(im < 0 ? -im : im) + "j";
        }
        default: {
            std::string v = real();
            return v;
        }
        }
    }

  private:
    std::mt19937 rng_;
};

// The literal of an array of `dims` ("3", "var", "1", ...: outermost first) over values.
std::string array_literal(Gen &g, ck_type_id id, const std::vector<long long> &dims,
                          const std::vector<std::vector<long long>> &rows, size_t level, size_t row) {
    if (level == dims.size()) return g.value(id);
    long long n = dims[level];
    if (n < 0) n = rows[0][row]; // var: this row's length
    std::string s = "[";
    for (long long i = 0; i < n; i++) {
        if (i > 0) s += ", ";
        s += array_literal(g, id, dims, rows, level + 1, level == 0 ? static_cast<size_t>(i) : row);
    }
    return s + "]";
}

// Bit-for-bit equality of two arrays of one type (their own arrmeta).
bool same_bytes(const ck_type *t, const char *am, const char *a, const char *bm, const char *b) {
    const ck_type_id id = ck_type_get_id(t);
    if (ck_type_is_scalar(t)) return std::memcmp(a, b, ck_type_data_size(t)) == 0;
    if (id == CK_TYPE_OPTION) return same_bytes(ck_type_element(t), am, a, bm, b);
    if (id == CK_TYPE_FIXED_DIM) {
        ck_fixed_dim_arrmeta ma, mb;
        std::memcpy(&ma, am, sizeof ma);
        std::memcpy(&mb, bm, sizeof mb);
        for (intptr_t i = 0; i < ma.dim_size; i++) {
            if (!same_bytes(ck_type_element(t), am + sizeof ma, a + i * ma.stride, bm + sizeof mb,
                            b + i * mb.stride))
                return false;
        }
        return true;
    }
    if (id == CK_TYPE_VAR_DIM) {
        ck_var_dim_arrmeta ma, mb;
        ck_var_data da, db;
        std::memcpy(&ma, am, sizeof ma);
        std::memcpy(&mb, bm, sizeof mb);
        std::memcpy(&da, a, sizeof da);
        std::memcpy(&db, b, sizeof db);
        if (da.size != db.size) return false;
        for (size_t i = 0; i < da.size; i++) {
            if (!same_bytes(ck_type_element(t), am + sizeof ma,
                            da.begin + ma.offset + static_cast<intptr_t>(i) * ma.stride,
                            bm + sizeof mb,
                            db.begin + mb.offset + static_cast<intptr_t>(i) * mb.stride))
                return false;
        }
        return true;
    }
    ADD_FAILURE() << "unexpected type id " << id;
    return false;
}

// The reference: node by node into full temporaries. Returns a status; *out a new array
// (arguments are returned as borrowed: *owned 0).
int reference(const std::vector<Node> &nodes, int i, const std::vector<ck_array *> &args,
              const ck_eval_ctx &ctx, ck_array **out, bool *owned) {
    const Node &n = nodes[static_cast<size_t>(i)];
    *owned = true;
    if (n.kind == Node::ARG) {
        *out = args[static_cast<size_t>(n.arg)];
        *owned = false;
        return CK_OK;
    }
    if (n.kind == Node::LIT) {
        return ck_array_parse(ck_type_scalar(n.type), n.text.c_str(), out);
    }
    std::vector<ck_array *> ops;
    std::vector<bool> own;
    int rc = CK_OK;
    for (int k : n.kids) {
        ck_array *a = nullptr;
        bool o = false;
        rc = reference(nodes, k, args, ctx, &a, &o);
        if (rc != CK_OK) break;
        ops.push_back(a);
        own.push_back(o);
    }
    if (rc == CK_OK && n.kind == Node::CALL) {
        ck_callable *c = nullptr;
        rc = ck_lookup(n.fn, &c);
        if (rc == CK_OK) rc = ck_call_new(c, static_cast<int>(ops.size()), ops.data(), &ctx, out);
        ck_callable_decref(c);
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
        const int nargs = 1 + g.pick(5);
        std::vector<Node> nodes;
        std::string text;
        const int root = g.tree(nodes, 1 + g.pick(6), nargs, text);
        ASSERT_EQ(root, static_cast<int>(nodes.size()) - 1);
        std::vector<bool> used(static_cast<size_t>(nargs), false);
        for (const Node &n : nodes) {
            if (n.kind == Node::ARG) used[static_cast<size_t>(n.arg)] = true;
        }
        // The shape: m rows, inner fixed n or var rows.
        const long long m = 1 + g.pick(3);
        const bool var = g.pick(3) == 0;
        static const long long inners[] = {1, 5, 37, 1100};
        const long long inner = inners[g.pick(4)];
        std::vector<std::vector<long long>> rows(1);
        long long total = 0;
        for (long long r = 0; r < m; r++) {
            rows[0].push_back(g.pick(10) == 0 ? 1200 : g.pick(41));
            total += rows[0].back();
        }
        if (var && total == 0) rows[0][0] = 3;
        std::vector<ck_type *> types;
        std::vector<ck_array *> arrays;
        std::vector<const char *> names;
        static const char *const letters[] = {"a", "b", "c", "d", "e"};
        std::string desc;
        for (int k = 0; k < nargs; k++) {
            if (!used[static_cast<size_t>(k)]) continue;
            const ck_type_id id = kTypes[g.pick(14)];
            std::vector<long long> dims;
            switch (g.pick(var ? 3 : 5)) {
            case 0: break;                                   // a scalar
            case 1: dims = {m, 1}; break;                    // a column
            case 2: dims = {m, var ? -1 : inner}; break;     // the whole
            case 3: dims = {inner}; break;                   // a row
            default: dims = {1, inner}; break;               // a row with a leading 1
            }
            std::string ts;
            for (long long d : dims) ts += (d < 0 ? std::string("var") : std::to_string(d)) + " * ";
            ts += ck_type_id_name(id);
            ck_type *t = nullptr;
            ASSERT_EQ(ck_type_parse(ts.c_str(), &t), CK_OK) << ts;
            const std::string lit = array_literal(g, id, dims, rows, 0, 0);
            ck_array *a = nullptr;
            ASSERT_EQ(ck_array_parse(t, lit.c_str(), &a), CK_OK) << ts << " " << lit << ": " << ck_last_error();
            types.push_back(t);
            arrays.push_back(a);
            names.push_back(letters[k]);
            desc += std::string(" ") + letters[k] + ": " + ts;
        }
        if (arrays.empty()) continue; // literals only: nothing gives a shape
        ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
        ctx.errmode = g.pick(2) ? CK_ERRMODE_NOCHECK : CK_ERRMODE_FRACTIONAL;
        if (g.pick(5) == 0) ctx.flags |= CK_EVAL_ALLOW_UNSAFE;
        // The reference's arguments in the tree's numbering.
        std::vector<ck_array *> by_arg(static_cast<size_t>(nargs), nullptr);
        for (size_t j = 0; j < names.size(); j++) by_arg[static_cast<size_t>(names[j][0] - 'a')] = arrays[j];
        ck_array *ref = nullptr;
        bool owned = false;
        const int ref_rc = reference(nodes, root, by_arg, ctx, &ref, &owned);
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
            ASSERT_TRUE(ck_type_equal(ck_array_type(ref), rt)) << what;
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
        for (auto *a : arrays) ck_array_free(a);
        for (auto *t : types) ck_type_decref(t);
    }
    // Most trees must evaluate: the comparison is of results, not of refusals.
    EXPECT_GT(agreed, 1000);
    RecordProperty("agreed", agreed);
    RecordProperty("failed_both", failed_both);
    std::printf("random trees: %d agreed bit for bit, %d failed in both (%d statuses compared)\n",
                agreed, failed_both, statuses_compared);
}

}  // namespace
