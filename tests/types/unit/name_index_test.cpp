// tests/types/unit/name_index_test.cpp: the hashed index of field names (src/types/
// name_index.h), white-box. SipHash against its authors' published SipHash-2-4 vectors (key
// 00..0f, messages 00, 00 01, ... : the first, second and sixteenth); names whose hashes are
// all equal (the hash is the caller's argument here) still found, missed and refused by
// their bytes; the growing set of the parser across its growths, with a failed growth
// leaving it usable; and the hash spreading 65536 field-like names over distinct values.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "ckt.hpp"

extern "C" {
#include "types/name_index.h"
}

namespace {

class NameIndex : public ::testing::Test {
protected:
    void TearDown() override { EXPECT_EQ(ckt::live_allocations(), 0); }
};

TEST_F(NameIndex, SipHash24MatchesThePublishedVectors) {
    const uint64_t key[2] = {0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull};
    unsigned char msg[15];
    for (int i = 0; i < 15; i++) msg[i] = static_cast<unsigned char>(i);
    EXPECT_EQ(ck__siphash(key, msg, 0, 2, 4), 0x726fdb47dd0e0e31ull);
    EXPECT_EQ(ck__siphash(key, msg, 1, 2, 4), 0x74f839c593dc67fdull);
    EXPECT_EQ(ck__siphash(key, msg, 15, 2, 4), 0xa129ca6149be45e5ull);
}

TEST_F(NameIndex, EqualHashesAreToldApartByTheirBytes) {
    // 200 names, every one given the hash 7: one cluster, so each look-up compares names.
    std::vector<std::string> text;
    for (int i = 0; i < 200; i++) text.push_back("n" + std::to_string(i));
    text.push_back("n1");  // a duplicate of name 1, last
    std::vector<const char *> ptrs;
    for (const std::string &s : text) ptrs.push_back(s.c_str());
    const ck__name_list names = {ptrs.data(), nullptr, nullptr};
    const size_t nslots = ck__name_index_slots(200);
    EXPECT_EQ(nslots, 512u);  // the power of two at least 2n
    std::vector<uint64_t> slots(nslots, 0);
    for (size_t i = 0; i < 200; i++) {
        ASSERT_EQ(ck__name_index_add(slots.data(), nslots, &names, i, 7), -1) << text[i];
    }
    EXPECT_EQ(ck__name_index_add(slots.data(), nslots, &names, 200, 7), 1);
    for (size_t i = 0; i < 200; i++) {
        EXPECT_EQ(ck__name_index_find(slots.data(), nslots, &names, text[i].c_str(), 7),
                  static_cast<intptr_t>(i));
    }
    for (const char *absent : {"n200", "n", "n01", "n1 ", "N1", ""}) {
        EXPECT_EQ(ck__name_index_find(slots.data(), nslots, &names, absent, 7), -1) << absent;
    }
    // The same name under another hash is not looked for in this cluster.
    EXPECT_EQ(ck__name_index_find(slots.data(), nslots, &names, "n5", 8), -1);
    EXPECT_EQ(ck__name_index_slots(0), 2u);
    EXPECT_EQ(ck__name_index_slots(8), 16u);
    EXPECT_EQ(ck__name_index_slots(9), 32u);
}

TEST_F(NameIndex, TheParsersSetGrowsAndStillFindsDuplicates) {
    // Names in one buffer at offsets, as the parser keeps them.
    std::string buf;
    std::vector<size_t> at;
    for (int i = 0; i < 1000; i++) {
        at.push_back(buf.size());
        buf += "field_" + std::to_string(i * 7919 % 1000);
        buf.push_back('\0');
    }
    at.push_back(buf.size());
    buf += "field_0";  // name 0 again (0 * 7919 % 1000)
    buf.push_back('\0');
    const ck__name_list names = {nullptr, buf.c_str(), at.data()};
    ckt_alloc_install();
    ckt_alloc_fail_at(0);
    ck__name_set s;
    ck__name_set_init(&s);
    intptr_t dup = 0;
    for (size_t i = 0; i < 1000; i++) {
        ASSERT_EQ(ck__name_set_add(&s, &names, i, &dup), CK_OK);
        ASSERT_EQ(dup, -1) << i;
        // Its size is the one a struct of as many names keeps, so the struct can copy it.
        ASSERT_EQ(s.nslots, ck__name_index_slots(i + 1 > 8 ? i + 1 : 8)) << i;
    }
    ASSERT_EQ(ck__name_set_add(&s, &names, 1000, &dup), CK_OK);
    EXPECT_EQ(dup, 0);
    for (size_t i = 0; i < 1000; i++) {
        const intptr_t k = ck__name_index_find(s.slots, s.nslots, &names, buf.c_str() + at[i],
                                               ck__name_hash(buf.c_str() + at[i]));
        EXPECT_EQ(k, static_cast<intptr_t>(i));
    }
    ck__name_set_free(&s);

    // A growth that fails: CK_ERR_NOMEM, and the set keeps what it had.
    ck__name_set_init(&s);
    for (size_t i = 0; i < 8; i++) ASSERT_EQ(ck__name_set_add(&s, &names, i, &dup), CK_OK);
    ckt_alloc_fail_at(1);
    EXPECT_EQ(ck__name_set_add(&s, &names, 8, &dup), CK_ERR_NOMEM);
    EXPECT_TRUE(ckt_alloc_failed());
    ckt_alloc_fail_at(0);
    EXPECT_EQ(s.n, 8u);
    ASSERT_EQ(ck__name_set_add(&s, &names, 8, &dup), CK_OK);
    EXPECT_EQ(dup, -1);
    ASSERT_EQ(ck__name_set_add(&s, &names, 1000, &dup), CK_OK);
    EXPECT_EQ(dup, 0);
    ck__name_set_free(&s);
    EXPECT_EQ(ckt_alloc_uninstall(), CK_OK);
}

TEST_F(NameIndex, TheHashSpreadsFieldLikeNames) {
    // A degenerate hash (a constant, a few bits) would make every table one cluster, which a
    // look-up's result cannot show: the values themselves must be almost all distinct (of
    // 65536 random 32-bit values, about 0.5 collide on average).
    std::set<uint32_t> seen;
    for (int i = 0; i < 65536; i++) seen.insert(ck__name_hash(("f" + std::to_string(i)).c_str()));
    EXPECT_GE(seen.size(), 65530u);
    std::set<uint32_t> low;
    for (uint32_t h : seen) low.insert(h & 0xffff);
    EXPECT_GE(low.size(), 40000u);  // 65536 draws of 16 bits: 41427 distinct expected
}

}  // namespace
