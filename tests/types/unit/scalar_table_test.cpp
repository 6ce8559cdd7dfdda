// tests/types/unit/scalar_table_test.cpp: what the scalar table (ckernel/scalar_types.h)
// generates, against facts written out here by hand from the C types and IEEE 754: each
// scalar's id, name, size, alignment, kind, value and exponent bits, NA bits, signature
// letters and NumPy kind, and the default quiet NaN the NA canonicalization writes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

extern "C" {
#include "ckernel/ckernel.h"
#include "scalar_oracle.h"
#include "common/scalars.h"
}

namespace {

struct Row {
    ck_type_id id;
    const char *name;
    size_t size, align;
    ck__scalar_kind kind;
    int bits, exp_bits;
    uint64_t na; // one part's bits
    int parts;
    const char *letters;
    char numpy;
};

// From the C types (sizeof, alignof) and IEEE 754's binary16/32/64 formats.
const Row kRows[] = {
    {CK_TYPE_BOOL, "bool", 1, 1, CK__SCALAR_KIND_BOOL, 1, 0, 2, 1, "?", 'b'},
    {CK_TYPE_INT8, "int8", 1, 1, CK__SCALAR_KIND_SIGNED, 7, 0, 0x80, 1, "b", 'i'},
    {CK_TYPE_INT16, "int16", 2, alignof(int16_t), CK__SCALAR_KIND_SIGNED, 15, 0, 0x8000, 1, "h", 'i'},
    {CK_TYPE_INT32, "int32", 4, alignof(int32_t), CK__SCALAR_KIND_SIGNED, 31, 0, 0x80000000u, 1, "i", 'i'},
    {CK_TYPE_INT64, "int64", 8, alignof(int64_t), CK__SCALAR_KIND_SIGNED, 63, 0,
     UINT64_C(1) << 63, 1, "q", 'i'},
    {CK_TYPE_UINT8, "uint8", 1, 1, CK__SCALAR_KIND_UNSIGNED, 8, 0, 0xff, 1, "B", 'u'},
    {CK_TYPE_UINT16, "uint16", 2, alignof(uint16_t), CK__SCALAR_KIND_UNSIGNED, 16, 0, 0xffff, 1, "H", 'u'},
    {CK_TYPE_UINT32, "uint32", 4, alignof(uint32_t), CK__SCALAR_KIND_UNSIGNED, 32, 0, 0xffffffffu, 1, "I",
     'u'},
    {CK_TYPE_UINT64, "uint64", 8, alignof(uint64_t), CK__SCALAR_KIND_UNSIGNED, 64, 0, UINT64_MAX, 1, "Q",
     'u'},
    {CK_TYPE_FLOAT16, "float16", 2, 2, CK__SCALAR_KIND_FLOAT, 11, 5, 0x7fa2, 1, "e", 'f'},
    // bfloat16: float32's top half (8 exponent bits, 7 + 1 significand bits); its NA is the
    // quiet NaN with 1954's low 6 bits as payload (0x7f80 | 0x40 | 0x22); NumPy has none
    {CK_TYPE_BFLOAT16, "bfloat16", 2, 2, CK__SCALAR_KIND_FLOAT, 8, 8, 0x7fe2, 1, "E", 0},
    {CK_TYPE_FLOAT32, "float32", 4, alignof(float), CK__SCALAR_KIND_FLOAT, 24, 8, 0x7fc007a2u, 1, "f", 'f'},
    {CK_TYPE_FLOAT64, "float64", 8, alignof(double), CK__SCALAR_KIND_FLOAT, 53, 11,
     UINT64_C(0x7ff80000000007a2), 1, "d", 'f'},
    {CK_TYPE_COMPLEX64, "complex64", 8, alignof(float), CK__SCALAR_KIND_COMPLEX, 24, 8, 0x7fc007a2u, 2,
     "Zf", 'c'},
    {CK_TYPE_COMPLEX128, "complex128", 16, alignof(double), CK__SCALAR_KIND_COMPLEX, 53, 11,
     UINT64_C(0x7ff80000000007a2), 2, "Zd", 'c'},
};

TEST(ScalarTable, EveryRowIsItsTypesFacts) {
    ASSERT_EQ(sizeof kRows / sizeof kRows[0], (size_t)CK_NUM_SCALAR_TYPES);
    for (const Row &r : kRows) {
        SCOPED_TRACE(r.name);
        const ck_type *t = ck_type_scalar(r.id);
        ASSERT_NE(t, nullptr);
        EXPECT_STREQ(ck_type_id_name(r.id), r.name);
        EXPECT_EQ(ck_type_data_size(t), r.size);
        EXPECT_EQ(ck_type_data_alignment(t), r.align);
        const ck__scalar_facts *f = ck__scalar_info(r.id);
        ASSERT_NE(f, nullptr);
        EXPECT_EQ(f->kind, r.kind);
        EXPECT_EQ(f->bits, r.bits);
        EXPECT_EQ(f->exp_bits, r.exp_bits);
        EXPECT_EQ(f->parts, r.parts);
        EXPECT_EQ((size_t)f->part_size * f->parts, r.size);
        EXPECT_STREQ(f->letters, r.letters);
        EXPECT_EQ(f->numpy, r.numpy);
        // The NA ?T stores: each part's bits.
        std::string text = std::string("?") + r.name;
        ck_type *opt = nullptr;
        ASSERT_EQ(ck_type_parse(text.c_str(), &opt), CK_OK);
        const unsigned char *na = (const unsigned char *)ck_option_na_bytes(opt);
        ASSERT_NE(na, nullptr);
        const size_t part = r.size / (size_t)r.parts;
        for (int k = 0; k < r.parts; k++) {
            const uint64_t got = ckt_get_low_bytes(na + k * part, part);
            EXPECT_EQ(got, r.na) << "part " << k;
        }
        ck_type_decref(opt);
        // The predicates agree with the kind.
        EXPECT_EQ(ck__scalar_is_integer(r.id),
                  r.kind == CK__SCALAR_KIND_SIGNED || r.kind == CK__SCALAR_KIND_UNSIGNED);
        EXPECT_EQ(ck__scalar_is_floating(r.id),
                  r.kind == CK__SCALAR_KIND_FLOAT || r.kind == CK__SCALAR_KIND_COMPLEX);
        EXPECT_EQ(ck__scalar_computes_in_float32(r.id),
                  r.id == CK_TYPE_FLOAT16 || r.id == CK_TYPE_BFLOAT16);
    }
    EXPECT_EQ(ck__scalar_info(CK_TYPE_FIXED_DIM), nullptr);
    EXPECT_FALSE(ck__scalar_is_floating(CK_TYPE_DATETIME));
    EXPECT_FALSE(ck__scalar_is_integer(CK_TYPE_DATETIME)); // an int64 inside, not a scalar
}

TEST(ScalarTable, TheQuietNaNOfAFormatIsIEEEs) {
    // Exponent all ones and the top significand bit, written out.
    EXPECT_EQ(CK__SCALAR_QUIET_NAN(uint16_t, 5, 11), 0x7e00u);
    EXPECT_EQ(CK__SCALAR_QUIET_NAN(uint16_t, 8, 8), 0x7fc0u); // bfloat16: float32's top half
    EXPECT_EQ(CK__SCALAR_QUIET_NAN(uint32_t, 8, 24), 0x7fc00000u);
    EXPECT_EQ(CK__SCALAR_QUIET_NAN(uint64_t, 11, 53), UINT64_C(0x7ff8000000000000));
}

} // namespace
