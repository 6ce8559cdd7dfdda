// tests/callables/sig.hpp: helpers shared by the callables suites: signatures from text and
// back.
#ifndef CK_TEST_CALLABLES_SIG_HPP
#define CK_TEST_CALLABLES_SIG_HPP

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "ckt.hpp"
#include "signatures/signature.h"

namespace sig {

inline std::string datashape_form(const ck__signature &s) {
    char buf[512];
    ck__signature_format(&s, buf, sizeof buf);
    return buf;
}

inline std::string compact_form(const ck__signature &s) {
    char buf[64];
    ck__signature_format_compact(&s, buf, sizeof buf);
    return buf;
}

// Parsed signatures, in the order given (a parse failure fails the test).
inline std::vector<ck__signature> parse_all(std::initializer_list<const char *> texts) {
    std::vector<ck__signature> out;
    for (const char *t : texts) {
        ck__signature s;
        EXPECT_EQ(ck__signature_parse(t, &s), CK_OK) << t << ": " << ck_last_error();
        out.push_back(s);
    }
    return out;
}

}  // namespace sig

#endif
