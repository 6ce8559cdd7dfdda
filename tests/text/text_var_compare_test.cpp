// tests/text/text_var_compare_test.cpp: the comparisons of string with string and bytes with
// bytes over arrays (docs/design.md §16: the leaf's loop of two slots, read in place, short
// texts compared a word at a time). Every pair of a table of texts of 0 to 24 bytes (each
// length, and each with one byte raised or lowered at each position, so that every prefix
// length and every word boundary of the short compares is the first difference), every
// comparison, against std::lexicographical_compare on unsigned bytes. Each text is its own
// heap block of exactly its size, so a read past its end is ASan's report; the second
// argument broadcasts along a dimension of 1 (a stride of 0) and the result is a matrix.
// Also: an unallocated slot (NULL data with a size) in either argument of either loop.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "text_support.hpp"

namespace {

class TextVarCompare : public txt::Leakless {};

// Texts of 0 to 24 bytes over `base`, and the same with one byte at each position replaced
// by `low` and by `high` (below and above `base`).
std::vector<std::string> table(char base, char low, char high) {
    std::vector<std::string> t;
    for (size_t n = 0; n <= 24; ++n) {
        const std::string s(n, base);
        t.push_back(s);
        for (size_t k = 0; k < n; ++k) {
            std::string a = s, b = s;
            a[k] = low;
            b[k] = high;
            t.push_back(a);
            t.push_back(b);
        }
    }
    return t;
}

// The sign of a's order against b's: the first differing byte as unsigned, else the shorter
// first.
int order(const std::string &a, const std::string &b) {
    const size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i) {
        const unsigned x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
        if (x != y) return x < y ? -1 : 1;
    }
    return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

// Heap copies of exactly each text's size and their slots (an empty text: {NULL, 0}).
struct Slots {
    std::vector<std::unique_ptr<char[]>> blocks;
    std::vector<ck_string_data> slots;
    explicit Slots(const std::vector<std::string> &t) {
        for (const std::string &s : t) {
            if (s.empty()) {
                slots.push_back({nullptr, 0});
                continue;
            }
            blocks.emplace_back(new char[s.size()]);
            std::memcpy(blocks.back().get(), s.data(), s.size());
            slots.push_back({blocks.back().get(), s.size()});
        }
    }
};

void every_pair(const char *kind, const std::vector<std::string> &t) {
    Slots s(t);
    const size_t n = t.size();
    const std::string ta = std::to_string(n) + " * 1 * " + kind;
    const std::string tb = std::to_string(n) + " * " + kind;
    ckt::Type at(ta.c_str()), bt(tb.c_str());
    ck_array *a = nullptr, *b = nullptr;
    ASSERT_EQ(ck_array_wrap(at.get(), nullptr, reinterpret_cast<char *>(s.slots.data()), nullptr,
                            &a),
              CK_OK);
    ASSERT_EQ(ck_array_wrap(bt.get(), nullptr, reinterpret_cast<char *>(s.slots.data()), nullptr,
                            &b),
              CK_OK);
    std::vector<signed char> o(n * n);
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < n; ++j) o[i * n + j] = static_cast<signed char>(order(t[i], t[j]));
    }
    const char *ops[] = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"};
    for (int op = 0; op < 6; ++op) {
        ck_callable *c = nullptr;
        ck_array *out = nullptr;
        ASSERT_EQ(ck_lookup(ops[op], &c), CK_OK);
        const ck_array *args[] = {a, b};
        ASSERT_EQ(ck_call_new(c, 2, args, nullptr, &out), CK_OK) << ck_last_error();
        const unsigned char *r = reinterpret_cast<const unsigned char *>(ck_array_data(out));
        size_t wrong = 0;
        for (size_t i = 0; i < n; ++i) {
            for (size_t j = 0; j < n; ++j) {
                const int w = o[i * n + j];
                const bool want[] = {w == 0, w != 0, w < 0, w <= 0, w > 0, w >= 0};
                if (r[i * n + j] != (want[op] ? 1 : 0) && ++wrong <= 5) {
                    ADD_FAILURE() << kind << " " << ops[op] << " of " << i << " (size "
                                  << t[i].size() << ") and " << j << " (size " << t[j].size()
                                  << ") gave " << int(r[i * n + j]);
                }
            }
        }
        EXPECT_EQ(wrong, 0u) << kind << " " << ops[op];
        ck_array_free(out);
        ck_callable_decref(c);
    }
    ck_array_free(a);
    ck_array_free(b);
}

TEST_F(TextVarCompare, StringsEveryPairEveryComparison) {
    every_pair("string", table('m', '0', '~'));
}

// Unsigned bytes: 0x80 and 0xff above 0x7f, NUL below everything.
TEST_F(TextVarCompare, BytesEveryPairEveryComparison) {
    every_pair("bytes", table('\x7f', '\0', '\xff'));
    every_pair("bytes", table('\x80', '\x7f', '\xff'));
}

// NULL data with a size is refused in either argument of the equality and the order loops,
// naming the element.
TEST_F(TextVarCompare, UnallocatedSlotIsRefusedWithItsElement) {
    ck_string_data good[3] = {{"ab", 2}, {"c", 1}, {"d", 1}};
    ck_string_data bad[3] = {{"ab", 2}, {"c", 1}, {nullptr, 2}};
    ckt::Type t("3 * string");
    for (int side = 0; side < 2; ++side) {
        for (const char *op : {"equal", "not_equal", "less", "greater_equal"}) {
            ck_array *a = nullptr, *b = nullptr, *out = nullptr;
            ASSERT_EQ(ck_array_wrap(t.get(), nullptr,
                                    reinterpret_cast<char *>(side == 0 ? bad : good), nullptr,
                                    &a),
                      CK_OK);
            ASSERT_EQ(ck_array_wrap(t.get(), nullptr,
                                    reinterpret_cast<char *>(side == 0 ? good : bad), nullptr,
                                    &b),
                      CK_OK);
            ck_callable *c = nullptr;
            ASSERT_EQ(ck_lookup(op, &c), CK_OK);
            const ck_array *args[] = {a, b};
            EXPECT_EQ(ck_call_new(c, 2, args, nullptr, &out), CK_ERR_UNINITIALIZED) << op;
            EXPECT_TRUE(txt::contains(ck_last_error(), "the argument string is not allocated (its "
                                                       "data is NULL) at element [2]"))
                << op << " side " << side << ": " << ck_last_error();
            ck_array_free(out);
            ck_callable_decref(c);
            ck_array_free(a);
            ck_array_free(b);
        }
    }
}

}  // namespace
