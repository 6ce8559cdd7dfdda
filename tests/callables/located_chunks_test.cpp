// tests/callables/located_chunks_test.cpp: a leaf's failing element named by its index in
// the whole run when a kernel above runs the leaf in pieces: call_args converting an
// argument (chunks of about 1000), a struct's fields (blocks of records), an expression
// (chunks of 1024). The failing element is put past the
// first piece, at indices computed here, so a kernel that forgot its piece's offset names
// another element.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "call_literals.hpp"
#include "ckernel/ckernel.h"

namespace {

// "[v, v, ..., bad at `at`, v, ...]" of n elements.
std::string list_with(int n, const std::string &v, int at, const std::string &bad) {
    std::string s = "[";
    for (int i = 0; i < n; i++) s += (i > 0 ? ", " : "") + (i == at ? bad : v);
    return s + "]";
}

struct Callable {
    ck_callable *c = nullptr;
    explicit Callable(const char *name) { EXPECT_EQ(ck_lookup(name, &c), CK_OK); }
    ~Callable() { ck_callable_decref(c); }
};

TEST(LocatedChunks, DivideThroughArgumentCastsNamesTheElementInTheRun) {
    // int32 / int64: the int32 argument is cast in chunks by call_args.
    Callable div("trunc_divide");
    const std::string n = "3000 * int32", d = "3000 * int64";
    for (int at : {5, 1500, 2999}) {
        SCOPED_TRACE(at);
        EXPECT_EQ(ckt::call(div.c, {{n.c_str(), list_with(3000, "7", -1, "")},
                                    {d.c_str(), list_with(3000, "2", at, "0")}}),
                  "CK_ERR_ZERO_DIVISION: trunc_divide: integer division by zero at element [" +
                      std::to_string(at) + "]");
    }
    // Two dimensions, coalesced into one run: row 2, element 700 of rows of 1000 is [2700].
    std::string sevens = "[", rows = "[";
    for (int r = 0; r < 3; r++) {
        sevens += (r > 0 ? ", " : "") + list_with(1000, "7", -1, "");
        rows += (r > 0 ? ", " : "") + list_with(1000, "2", r == 2 ? 700 : -1, "0");
    }
    sevens += "]";
    rows += "]";
    EXPECT_EQ(ckt::call(div.c, {{"3 * 1000 * int32", sevens}, {"3 * 1000 * int64", rows}}),
              "CK_ERR_ZERO_DIVISION: trunc_divide: integer division by zero at element [2700]");
}

TEST(LocatedChunks, ExpressionNodesNameTheElementInTheRun) {
    ck_expr *e = nullptr;
    ASSERT_EQ(ck_expr_parse("a + trunc_divide(a, b)", &e), CK_OK);
    ck_type *t = nullptr;
    ASSERT_EQ(ck_type_parse("2500 * int32", &t), CK_OK);
    ck_array *a = nullptr, *b = nullptr, *out = nullptr;
    ASSERT_EQ(ck_array_parse(t, list_with(2500, "9", -1, "").c_str(), &a), CK_OK);
    ASSERT_EQ(ck_array_parse(t, list_with(2500, "3", 2100, "0").c_str(), &b), CK_OK);
    const char *names[] = {"a", "b"};
    const ck_array *src[] = {a, b};
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.flags = CK_EVAL_NO_JIT;
    EXPECT_EQ(ck_expr_eval_new(e, 2, names, src, &ctx, &out), CK_ERR_ZERO_DIVISION);
    EXPECT_STREQ(ck_last_error(),
                 "expression column 5: trunc_divide: integer division by zero at element [2100]");
    ck_array_free(out);
    ck_array_free(a);
    ck_array_free(b);
    ck_type_decref(t);
    ck_expr_decref(e);
}

TEST(LocatedChunks, StructFieldsNameTheRecordInTheRun) {
    // Records of a string and an int32 into float64 fields: blocks of about 1 KiB of
    // records; the text of record 1300 does not read.
    std::string recs = "[";
    for (int i = 0; i < 2000; i++) {
        recs += std::string(i > 0 ? ", " : "") + "{x: " + (i == 1300 ? "\"x1\"" : "\"1.5\"") +
                ", y: 2}";
    }
    recs += "]";
    ck_type *st = nullptr, *dt = nullptr;
    ASSERT_EQ(ck_type_parse("2000 * {x: string, y: int32}", &st), CK_OK);
    ASSERT_EQ(ck_type_parse("2000 * {x: float64, y: float64}", &dt), CK_OK);
    ck_array *s = nullptr, *d = nullptr;
    ASSERT_EQ(ck_array_parse(st, recs.c_str(), &s), CK_OK) << ck_last_error();
    ASSERT_EQ(ck_array_new(dt, &d), CK_OK);
    EXPECT_EQ(ck_assign(d, s, nullptr), CK_ERR_TEXT);
    EXPECT_STREQ(ck_last_error(),
                 "field x: cannot read the text \"x1\" as float64 at element [1300]");
    ck_array_free(s);
    ck_array_free(d);
    ck_type_decref(st);
    ck_type_decref(dt);
}

}  // namespace
