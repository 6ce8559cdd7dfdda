// tests/unit/leaf_families_test.cpp: the leaf-family table (src/core/leaf_families.h) against
// the families docs/design.md §1 names, written out by hand: which family each type id
// belongs to, which family casts a pair, each family's traits, and that the describe
// through the table still names a family's leaf (a datetime beside fixed text is the
// datetime family's fast leaf over the text cast, not the text cast alone).
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "core/leaf_families.h"

namespace {

std::string family_name(const ck__leaf_family *f) {
    return f != nullptr ? f->name : "(none)";
}

TEST(LeafFamilies, EveryTypeIdHasTheFamilyOfItsValues) {
    for (int id = 0; id < CK_NUM_SCALAR_TYPES; ++id) {
        EXPECT_EQ(family_name(ck__leaf_family_of(static_cast<ck_type_id>(id))), "numeric")
            << ck_type_id_name(static_cast<ck_type_id>(id));
    }
    const struct {
        ck_type_id id;
        const char *family;
    } others[] = {
        {CK_TYPE_FIXED_DIM, "(none)"},   {CK_TYPE_VAR_DIM, "(none)"},
        {CK_TYPE_POINTER, "(none)"},     {CK_TYPE_TUPLE, "(none)"},
        {CK_TYPE_STRUCT, "(none)"},      {CK_TYPE_OPTION, "(none)"},
        {CK_TYPE_STRING, "text"},        {CK_TYPE_BYTES, "text"},
        {CK_TYPE_FIXED_STRING, "text"},  {CK_TYPE_FIXED_BYTES, "text"},
        {CK_TYPE_DATETIME, "datetime"},  {CK_TYPE_TIMEDELTA, "datetime"},
    };
    for (const auto &o : others) {
        EXPECT_EQ(family_name(ck__leaf_family_of(o.id)), o.family) << ck_type_id_name(o.id);
    }
}

TEST(LeafFamilies, APairIsCastByTheFirstFamilyThatClaimsEither) {
    const struct {
        ck_type_id dst, src;
        const char *family;
    } pairs[] = {
        {CK_TYPE_STRING, CK_TYPE_DATETIME, "datetime"},
        {CK_TYPE_TIMEDELTA, CK_TYPE_FIXED_STRING, "datetime"},
        {CK_TYPE_INT64, CK_TYPE_DATETIME, "datetime"},
        {CK_TYPE_FIXED_BYTES, CK_TYPE_INT32, "text"},
        {CK_TYPE_FLOAT64, CK_TYPE_STRING, "text"},
        {CK_TYPE_BFLOAT16, CK_TYPE_COMPLEX128, "numeric"},
        {CK_TYPE_STRUCT, CK_TYPE_TUPLE, "(none)"},
    };
    for (const auto &p : pairs) {
        EXPECT_EQ(family_name(ck__leaf_family_of_pair(p.dst, p.src)), p.family)
            << ck_type_id_name(p.dst) << " <- " << ck_type_id_name(p.src);
    }
}

TEST(LeafFamilies, TraitsSayWhatTheWalkMustKnow) {
    EXPECT_EQ(ck__text_family.traits, unsigned{CK__FAMILY_READS_ARRMETA |
                                               CK__FAMILY_LEAF_REFUSES_NA |
                                               CK__FAMILY_NAMES_EACH_INDEX});
    EXPECT_EQ(ck__datetime_family.traits, unsigned{CK__FAMILY_NA_OF_INT64});
    EXPECT_EQ(ck__numeric_family.traits, 0u);
    EXPECT_TRUE(ck__leaf_family_has(CK_TYPE_STRING, CK__FAMILY_READS_ARRMETA));
    EXPECT_FALSE(ck__leaf_family_has(CK_TYPE_INT64, CK__FAMILY_READS_ARRMETA));
    EXPECT_FALSE(ck__leaf_family_has(CK_TYPE_OPTION, 0)); // no family at all
    // A checked cast into a datetime never gives NaT from a value; out of one it may give
    // int64's NA; float64 -> int32 may land on int32's minimum.
    EXPECT_FALSE(ck__datetime_family.cast_can_give_na(CK_TYPE_DATETIME, CK_TYPE_INT64));
    EXPECT_TRUE(ck__datetime_family.cast_can_give_na(CK_TYPE_INT64, CK_TYPE_DATETIME));
    EXPECT_TRUE(ck__numeric_family.cast_can_give_na(CK_TYPE_INT32, CK_TYPE_FLOAT64));
    EXPECT_FALSE(ck__numeric_family.cast_can_give_na(CK_TYPE_INT32, CK_TYPE_INT32));
    EXPECT_EQ(ck__reduce_family.claims, uint64_t{0});
}

// The kernel's description, for the assignment dst <- src.
std::string explain(const char *dst, const char *src) {
    ck_type *dt = nullptr, *st = nullptr;
    ck_array *a = nullptr, *b = nullptr;
    ck_builder ckb;
    ck_builder_init(&ckb);
    char *text = nullptr;
    size_t off = 0;
    int rc = ck_type_parse(dst, &dt);
    if (rc == CK_OK) rc = ck_type_parse(src, &st);
    if (rc == CK_OK) rc = ck_array_new(dt, &a);
    if (rc == CK_OK) rc = ck_array_new(st, &b);
    if (rc == CK_OK) {
        rc = ck_make_assign(&ckb, &off, dt, ck_array_arrmeta(a), st, ck_array_arrmeta(b),
                            CK_REQUEST_SINGLE, nullptr);
    }
    if (rc == CK_OK) rc = ck_kernel_describe(ck_builder_root(&ckb), &text);
    const std::string r = rc == CK_OK ? std::string(text) : std::string(ck_last_error());
    ck_free(text);
    ck_builder_destroy(&ckb);
    ck_array_free(a);
    ck_array_free(b);
    ck_type_decref(dt);
    ck_type_decref(st);
    return r;
}

TEST(LeafFamilies, DescribeNamesEachFamilysLeaf) {
    EXPECT_NE(explain("datetime64[s]", "fixed_string[24, 'ascii']").find("datetime_text"),
              std::string::npos);
    EXPECT_NE(explain("string", "int32").find("text_cast"), std::string::npos);
    const std::string cast = explain("float64", "int32");
    EXPECT_TRUE(ckt::tree_has(cast, "leaf @0")) << cast;
    EXPECT_NE(cast.find("cast int32 -> float64"), std::string::npos) << cast;
    // Through the table directly: a function no family made is no family's leaf.
    ck__strbuf out = CK__STRBUF_INIT;
    EXPECT_EQ(ck__leaf_families_describe(reinterpret_cast<const void *>(&family_name), &out), 0);
    ck__strbuf_free(&out);
}

}  // namespace
