// tests/support/ckt_tree.hpp: comparing kernel trees (describe, explain) across hosts.
#ifndef CK_TEST_CKT_TREE_HPP
#define CK_TEST_CKT_TREE_HPP

#include <cctype>
#include <string>

namespace ckt {

// Kernel trees (describe, explain) and layouts are written as a 64-bit host prints them.
// Where pointers are 4 bytes, a tree's offsets and sizes and every pointer-sized stride
// differ: there a tree is compared with each run of digits as '#', so its kinds, names and
// order are checked on every host and its numbers on 64-bit ones, and where the builder's
// bytes are (inline or on the heap, which depends on the sizes) is not compared.
constexpr bool lp64 = sizeof(void *) == 8;
inline std::string tree_text(const std::string &s) {
    if (lp64) {
        return s;
    }
    std::string r;
    for (size_t i = 0; i < s.size(); i++) {
        if (std::isdigit(static_cast<unsigned char>(s[i]))) {
            if (r.empty() || r.back() != '#') {
                r += '#';
            }
        } else {
            r += s[i];
        }
    }
    for (const char *where : {"builder inline, no heap allocation (capacity #)",
                              "builder on the heap (capacity #)", "builder on the heap (capacity ?)"}) {
        for (size_t at = r.find(where); at != std::string::npos; at = r.find(where)) {
            r.replace(at, std::string(where).size(), "builder (#)");
        }
    }
    return r;
}
// Whether `tree` holds `piece` (at `at`, or anywhere with npos), numbers as above.
inline bool tree_has(const std::string &tree, const std::string &piece) {
    return tree_text(tree).find(tree_text(piece)) != std::string::npos;
}
inline bool tree_starts_with(const std::string &tree, const std::string &piece) {
    return tree_text(tree).rfind(tree_text(piece), 0) == 0;
}

}  // namespace ckt

#endif
