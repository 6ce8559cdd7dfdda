// tests/expr/expr_random.hpp: random expression trees for the expression suites: the tree
// generator (depth <= 6, 1-5 arguments of chosen scalar types, broadcast scalars, rows and
// columns, fixed and var inner dimensions, casts, literals of every integer width and
// float64, + - * /, unary -, minimum and maximum, and Python's comparisons, & | ^ ~ // % **
// and where), the arrays it evaluates on, and bit-for-bit
// comparison of results. Used by tests/expr/expr_random_test.cpp (against node-by-node
// evaluation) and tests/jit/expr_jit_test.cpp (the JIT against the composed leaf).
#ifndef CK_TEST_EXPR_RANDOM_HPP
#define CK_TEST_EXPR_RANDOM_HPP

#include <gtest/gtest.h>

#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"

namespace ckt_expr {

struct Node {
    enum Kind { ARG, LIT, CAST, CALL } kind;
    int arg = -1;
    std::string text;        // LIT: its text
    ck_type_id type = CK_TYPE_BOOL; // LIT: the type the rule gives; CAST: the target
    const char *fn = nullptr; // CALL
    std::vector<int> kids;
    std::string expr;         // the text of the subtree it roots, as it appears in the whole
};

const ck_type_id kTypes[] = {CK_TYPE_BOOL,      CK_TYPE_INT8,      CK_TYPE_INT16,
                             CK_TYPE_INT32,     CK_TYPE_INT64,     CK_TYPE_UINT8,
                             CK_TYPE_UINT16,    CK_TYPE_UINT32,    CK_TYPE_UINT64,
                             CK_TYPE_FLOAT16,   CK_TYPE_BFLOAT16,  CK_TYPE_FLOAT32,
                             CK_TYPE_FLOAT64,   CK_TYPE_COMPLEX64, CK_TYPE_COMPLEX128};

class Gen {
  public:
    // casts: the target types a cast node picks from (every scalar type by default).
    // Which operators trees use: the arithmetic ones (+ - * /, unary -, minimum, maximum and
    // casts) or also the comparisons, & | ^ ~, // %, ** and where.
    enum class Ops { ARITHMETIC, ALL };
    explicit Gen(uint32_t seed, std::vector<ck_type_id> casts = {std::begin(kTypes), std::end(kTypes)},
                 Ops ops = Ops::ALL)
        : rng_(seed), casts_(std::move(casts)), ops_(ops) {}
    int pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }

    // A literal: its text and its own type, Python's (int64, float64).
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
            n.type = CK_TYPE_INT64; // Python's int; typed by value beside arrays
        }
        n.expr = n.text;
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
                    n.expr = text;
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
        } else if (r < 80 && ops_ == Ops::ALL) {
            // Python's other operators and where, fully parenthesized (no chains): the
            // comparisons, & | ^ ~, // %, ** by a literal outside NumPy's rewritten exponents
            // (-1, 0, 0.5, 1, 2: those are square, sqrt, ... here and power node by node)
            static const char *syms[] = {"<", "<=", "==", "!=", ">", ">=", "&", "|", "^",
                                         "//", "%", "**"};
            static const char *names[] = {"less", "less_equal", "equal", "not_equal",
                                          "greater", "greater_equal", "bitwise_and",
                                          "bitwise_or", "bitwise_xor", "floor_divide",
                                          "remainder", "power"};
            const int o = pick(15);
            if (o < 12) {
                n.fn = names[o];
                n.kids.push_back(tree(nodes, depth - 1, nargs, a));
                if (o == 11) { // a literal exponent: 3, -3 or 1.5
                    Node lit;
                    lit.kind = Node::LIT;
                    static const char *exps[] = {"3", "-3", "1.5"};
                    lit.text = exps[pick(3)];
                    lit.type = lit.text == std::string("1.5") ? CK_TYPE_FLOAT64 : CK_TYPE_INT64;
                    lit.expr = lit.text;
                    nodes.push_back(lit);
                    n.kids.push_back(static_cast<int>(nodes.size()) - 1);
                    b = lit.text;
                } else {
                    n.kids.push_back(tree(nodes, depth - 1, nargs, b));
                }
                // ** binds tighter than a literal's minus: its base in parentheses
                text = o == 11 ? "((" + a + ") ** " + b + ")" : "(" + a + " " + syms[o] + " " + b + ")";
            } else if (o == 12) {
                n.fn = "invert";
                n.kids.push_back(tree(nodes, depth - 1, nargs, a));
                text = "(~(" + a + "))";
            } else {
                // where(x < y, a, b): the condition a comparison, so a bool
                Node c;
                c.kind = Node::CALL;
                c.fn = o == 13 ? "less" : "greater_equal";
                std::string x, y;
                c.kids.push_back(tree(nodes, depth - 1, nargs, x));
                c.kids.push_back(tree(nodes, depth - 1, nargs, y));
                c.expr = "(" + x + (o == 13 ? " < " : " >= ") + y + ")";
                nodes.push_back(c);
                n.fn = "where";
                n.kids.push_back(static_cast<int>(nodes.size()) - 1);
                n.kids.push_back(tree(nodes, depth - 1, nargs, a));
                n.kids.push_back(tree(nodes, depth - 1, nargs, b));
                text = "where(" + c.expr + ", " + a + ", " + b + ")";
            }
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
            n.type = casts_[static_cast<size_t>(pick(static_cast<int>(casts_.size())))];
            n.kids.push_back(tree(nodes, depth - 1, nargs, a));
            text = std::string(ck_type_id_name(n.type)) + "(" + a + ")";
        }
        n.expr = text;
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
    std::vector<ck_type_id> casts_;
    Ops ops_;
};

// The literal of an array of `dims` ("3", "var", "1", ...: outermost first) over values.
inline std::string array_literal(Gen &g, ck_type_id id, const std::vector<long long> &dims,
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
// any_nan: two float32 or float64 NaNs are the same whatever their sign and payload.
inline bool same_bytes(const ck_type *t, const char *am, const char *a, const char *bm, const char *b,
                       bool any_nan = false) {
    const ck_type_id id = ck_type_get_id(t);
    if (any_nan && id == CK_TYPE_FLOAT64) {
        double x, y;
        std::memcpy(&x, a, sizeof x);
        std::memcpy(&y, b, sizeof y);
        if (x != x && y != y) return true;
    }
    if (any_nan && id == CK_TYPE_FLOAT32) {
        float x, y;
        std::memcpy(&x, a, sizeof x);
        std::memcpy(&y, b, sizeof y);
        if (x != x && y != y) return true;
    }
    if (ck_type_is_scalar(t)) return std::memcmp(a, b, ck_type_data_size(t)) == 0;
    if (id == CK_TYPE_OPTION) return same_bytes(ck_type_element(t), am, a, bm, b, any_nan);
    if (id == CK_TYPE_FIXED_DIM) {
        ck_fixed_dim_arrmeta ma, mb;
        std::memcpy(&ma, am, sizeof ma);
        std::memcpy(&mb, bm, sizeof mb);
        for (intptr_t i = 0; i < ma.dim_size; i++) {
            if (!same_bytes(ck_type_element(t), am + sizeof ma, a + i * ma.stride, bm + sizeof mb,
                            b + i * mb.stride, any_nan))
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
                            db.begin + mb.offset + static_cast<intptr_t>(i) * mb.stride, any_nan))
                return false;
        }
        return true;
    }
    ADD_FAILURE() << "unexpected type id " << id;
    return false;
}

// One random case: a tree, its text, and arrays for the arguments it uses.
struct Case {
    int nargs = 0, root = -1;
    std::vector<Node> nodes;
    std::string text, desc;
    long long m = 0, inner = 0;
    bool var = false;
    std::vector<ck_type *> types;
    std::vector<ck_array *> arrays;
    std::vector<const char *> names;
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    Case() = default;
    Case(const Case &) = delete;
    Case &operator=(const Case &) = delete;
    ~Case() {
        for (auto *a : arrays) ck_array_free(a);
        for (auto *t : types) ck_type_decref(t);
    }
    // The sources' arrmeta and data, in the order of names.
    std::vector<const char *> arrmeta() const {
        std::vector<const char *> v;
        for (auto *a : arrays) v.push_back(ck_array_arrmeta(a));
        return v;
    }
    std::vector<char *> data() const {
        std::vector<char *> v;
        for (auto *a : arrays) v.push_back(ck_array_data(a));
        return v;
    }
};

// Fills c from g: argument types from `arg_types`, var rows only when allow_var. c->arrays
// stays empty when the tree has literals only (nothing gives a shape).
inline void make_case(Gen &g, const std::vector<ck_type_id> &arg_types, bool allow_var, Case *c) {
    c->nargs = 1 + g.pick(5);
    const int nargs = c->nargs;
    c->root = g.tree(c->nodes, 1 + g.pick(6), nargs, c->text);
    ASSERT_EQ(c->root, static_cast<int>(c->nodes.size()) - 1);
    std::vector<bool> used(static_cast<size_t>(nargs), false);
    for (const Node &n : c->nodes) {
        if (n.kind == Node::ARG) used[static_cast<size_t>(n.arg)] = true;
    }
    // The shape: m rows, inner fixed n or var rows.
    const long long m = c->m = 1 + g.pick(3);
    const bool var = c->var = g.pick(3) == 0 && allow_var;
    static const long long inners[] = {1, 5, 37, 1100};
    const long long inner = c->inner = inners[g.pick(4)];
    std::vector<std::vector<long long>> rows(1);
    long long total = 0;
    for (long long r = 0; r < m; r++) {
        rows[0].push_back(g.pick(10) == 0 ? 1200 : g.pick(41));
        total += rows[0].back();
    }
    if (var && total == 0) rows[0][0] = 3;
    static const char *const letters[] = {"a", "b", "c", "d", "e"};
    for (int k = 0; k < nargs; k++) {
        if (!used[static_cast<size_t>(k)]) continue;
        const ck_type_id id = arg_types[static_cast<size_t>(g.pick(static_cast<int>(arg_types.size())))];
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
        c->types.push_back(t);
        const std::string lit = array_literal(g, id, dims, rows, 0, 0);
        ck_array *a = nullptr;
        ASSERT_EQ(ck_array_parse(t, lit.c_str(), &a), CK_OK) << ts << " " << lit << ": " << ck_last_error();
        c->arrays.push_back(a);
        c->names.push_back(letters[k]);
        c->desc += std::string(" ") + letters[k] + ": " + ts;
    }
    if (c->arrays.empty()) return; // literals only: nothing gives a shape
    c->ctx.errmode = g.pick(2) ? CK_ERRMODE_NOCHECK : CK_ERRMODE_FRACTIONAL;
    if (g.pick(5) == 0) c->ctx.flags |= CK_EVAL_ALLOW_UNSAFE;
}

}  // namespace ckt_expr

#endif
