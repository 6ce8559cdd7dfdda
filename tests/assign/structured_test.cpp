// tests/assign/structured_test.cpp: assignment of tuples, structs and options. Expected values
// are hand-computed, or the scalar leaf's own result for one element assigned alone (every
// scalar pair inside a field); NA values are the documented bits; byte copies are checked
// with guard bytes around the destination; the kernel trees are checked where the issue
// fixes their shape (one copy for a bit-identical struct, three children for an option).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"
#include "ckt_array.hpp"

namespace {

struct Outcome {
    int rc = CK_OK;
    std::string message, text, tree;
};

// dst_type <- src literal, through ck_make_assign on a new destination, with the tree.
Outcome assign_literal(const char *dst_type, const char *src_type, const char *literal,
                       ck_errmode mode = CK_ERRMODE_FRACTIONAL, unsigned flags = 0) {
    Outcome o;
    ckt::Array src(src_type, literal), dst(dst_type);
    if (src.get() == nullptr || dst.get() == nullptr) {
        o.rc = -1;
        return o;
    }
    ck_eval_ctx ctx = ckt::ctx(mode, flags);
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    o.rc = ck_make_assign(&b, &off, ck_array_type(dst.get()), ck_array_arrmeta(dst.get()),
                          ck_array_type(src.get()), ck_array_arrmeta(src.get()),
                          CK_REQUEST_SINGLE, &ctx);
    if (o.rc == CK_OK) {
        char *t = nullptr;
        if (ck_kernel_describe(ck_builder_root(&b), &t) == CK_OK) o.tree = t;
        ck_free(t);
        char *s = src.data();
        o.rc = ck_call_single(ck_builder_root(&b), dst.data(), &s);
    }
    if (o.rc != CK_OK) {
        o.message = ck_last_error();
    } else {
        o.text = dst.str();
    }
    ck_builder_destroy(&b);
    return o;
}

// A piece of a kernel tree (offsets compared on 64-bit hosts: ckt::tree_text).
bool has(const std::string &s, const std::string &part) { return ckt::tree_has(s, part); }

TEST(Structs, ByNameIsTheDefaultAndByPositionIsAsked) {
    Outcome o = assign_literal("{y: float64, x: int64}", "{x: int32, y: int32}", "{x: 1, y: 2}");
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.text, "{y: 2, x: 1}");
    o = assign_literal("{y: float64, x: int64}", "{x: int32, y: int32}", "{x: 1, y: 2}",
                       CK_ERRMODE_FRACTIONAL, CK_EVAL_FIELDS_BY_POSITION);
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.text, "{y: 1, x: 2}");
    // Tuples go by position, into and out of structs.
    o = assign_literal("{a: int16, b: float32}", "(int8, float64)", "(-3, 0.5)");
    EXPECT_EQ(o.text, "{a: -3, b: 0.5}") << o.message;
    o = assign_literal("(float64, float32)", "{q: int64, p: float32}", "{p: 1.5, q: 9}");
    EXPECT_EQ(o.text, "(9, 1.5)") << o.message;
    o = assign_literal("(int32, (int8, float64))", "(int64, (uint8, int16))", "(7, (200, -4))",
                       CK_ERRMODE_OVERFLOW);
    EXPECT_EQ(o.rc, CK_ERR_OVERFLOW);
    EXPECT_EQ(o.message, "field 1: field 0: uint8 value 200 is out of range for int8");
}

TEST(Structs, MismatchedFieldsListWhatIsMissingAndWhatIsExtra) {
    Outcome o = assign_literal("{a: int32, b: int8, c: int8}", "{b: int32, d: int8, e: int8}",
                               "{b: 1, d: 2, e: 3}");
    EXPECT_EQ(o.rc, CK_ERR_TYPE);
    EXPECT_EQ(o.message,
              "cannot assign {b: int32, d: int8, e: int8} into {a: int32, b: int8, c: int8} by "
              "name (CK_EVAL_FIELDS_BY_POSITION matches by position): the source has no fields "
              "a, c; the destination has no fields d, e");
    o = assign_literal("{a: int32}", "{a: int32, b: int8}", "{a: 1, b: 2}");
    EXPECT_EQ(o.message,
              "cannot assign {a: int32, b: int8} into {a: int32} by name (CK_EVAL_FIELDS_BY_POSITION "
              "matches by position): the destination has no field b");
    o = assign_literal("(int32, int8)", "(int32, int8, int8)", "(1, 2, 3)");
    EXPECT_EQ(o.rc, CK_ERR_TYPE);
    EXPECT_EQ(o.message,
              "cannot assign (int32, int8, int8) into (int32, int8) by position: 3 fields into 2");
    o = assign_literal("{a: int32}", "int32", "1");
    EXPECT_EQ(o.rc, CK_ERR_TYPE);
    EXPECT_TRUE(has(o.message, "a tuple or struct takes a tuple or struct")) << o.message;
    o = assign_literal("int32", "(int32)", "(1)");
    EXPECT_EQ(o.rc, CK_ERR_TYPE);
    EXPECT_TRUE(has(o.message, "only a tuple or struct assigns to one")) << o.message;
}

TEST(Structs, EveryScalarPairInsideAFieldIsTheLeafsCast) {
    // 5 * {a: int8, v: D, z: uint16} <- 5 * {z: uint16, v: S, a: int8}, by name, every mode:
    // field v of each element is what the scalar leaf makes of it; a and z are copied; a
    // failure is the leaf's status with "field v: " before its message.
    const ck_errmode modes[] = {CK_ERRMODE_NOCHECK, CK_ERRMODE_OVERFLOW, CK_ERRMODE_FRACTIONAL,
                                CK_ERRMODE_INEXACT};
    uint32_t seed = 7;
    for (int d = 0; d < CK_NUM_SCALAR_TYPES; ++d) {
        for (int s = 0; s < CK_NUM_SCALAR_TYPES; ++s) {
            for (ck_errmode mode : modes) {
                const auto did = static_cast<ck_type_id>(d), sid = static_cast<ck_type_id>(s);
                const std::string dn = ck_type_id_name(did), sn = ck_type_id_name(sid);
                const std::string dts = "5 * {a: int8, v: " + dn + ", z: uint16}";
                const std::string sts = "5 * {z: uint16, v: " + sn + ", a: int8}";
                ckt::Type dt(dts.c_str()), st(sts.c_str());
                ckt::Array dst(dts.c_str()), src(sts.c_str());
                const size_t dsize = ck_type_data_size(dt.get()) / 5, ssize = ck_type_data_size(st.get()) / 5;
                const size_t dv = ck_type_field_offset(ck_type_element(dt.get()), 1);
                const size_t sv = ck_type_field_offset(ck_type_element(st.get()), 1);
                const size_t vsz = ck_type_data_size(ck_type_scalar(sid));
                const size_t dvsz = ck_type_data_size(ck_type_scalar(did));
                auto values = ckt::scalar_source_bytes(sid, 5, mode != CK_ERRMODE_NOCHECK, seed++);
                for (size_t i = 0; i < 5; ++i) {
                    char *e = src.data() + i * ssize;
                    const uint16_t z = static_cast<uint16_t>(1000 + i);
                    const int8_t a = static_cast<int8_t>(-10 - static_cast<int>(i));
                    std::memcpy(e, &z, 2);
                    std::memcpy(e + sv, values.data() + i * vsz, vsz);
                    std::memcpy(e + ck_type_field_offset(ck_type_element(st.get()), 2), &a, 1);
                }
                // The expected destination, element by element with the leaf alone.
                std::vector<char> want(ck_type_data_size(dt.get()), 0);
                Outcome first_failure;
                size_t failing = 5;
                for (size_t i = 0; i < 5 && failing == 5; ++i) {
                    char *w = want.data() + i * dsize;
                    first_failure.rc = ckt::assign_one_scalar(did, w + dv, sid, src.data() + i * ssize + sv,
                                                              mode, &first_failure.message);
                    if (first_failure.rc != CK_OK) {
                        failing = i;
                    }
                }
                ck_eval_ctx ctx = ckt::ctx(mode);
                const int rc = ck_assign(dst.get(), src.get(), &ctx);
                const std::string what = dn + " <- " + sn + " mode " + std::to_string(mode);
                if (failing < 5) {
                    ASSERT_EQ(rc, first_failure.rc) << what;
                    EXPECT_EQ(std::string(ck_last_error()), "field v: " + first_failure.message) << what;
                    continue;
                }
                ASSERT_EQ(rc, CK_OK) << what << ": " << ck_last_error();
                for (size_t i = 0; i < 5; ++i) {
                    const char *g = dst.data() + i * dsize;
                    EXPECT_EQ(std::memcmp(g + dv, want.data() + i * dsize + dv, dvsz), 0) << what << " [" << i << "]";
                    int8_t a;
                    uint16_t z;
                    std::memcpy(&a, g, 1);
                    std::memcpy(&z, g + ck_type_field_offset(ck_type_element(dt.get()), 2), 2);
                    EXPECT_EQ(a, -10 - static_cast<int>(i)) << what;
                    EXPECT_EQ(z, 1000 + i) << what;
                }
            }
            if (::testing::Test::HasFailure()) return;
        }
    }
}

TEST(Structs, RaggedRowsOfStructsWithRaggedFields) {
    Outcome o = assign_literal(
        "2 * var * {a: int32, b: var * ?float32}", "2 * var * {b: var * ?int16, a: int64}",
        "[[{b: [1, NA, -3], a: 10}, {b: [], a: 11}], [{b: [NA], a: -12}]]");
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.text, "[[{a: 10, b: [1, NA, -3]}, {a: 11, b: []}], [{a: -12, b: [NA]}]]");
    // A failure deep inside names the field; a var row's failure keeps its location.
    o = assign_literal("2 * var * {a: int8, b: var * ?float32}", "2 * var * {b: var * ?int16, a: int64}",
                       "[[{b: [1], a: 10}], [{b: [NA], a: 300}]]");
    EXPECT_EQ(o.rc, CK_ERR_OVERFLOW);
    EXPECT_EQ(o.message, "field a: int64 value 300 is out of range for int8");
    o = assign_literal("{v: 2 * var * int8}", "{v: 2 * var * int16}", "{v: [[1, 2], null]}");
    EXPECT_EQ(o.rc, CK_ERR_UNINITIALIZED);
    EXPECT_TRUE(has(o.message, "at [1]")) << o.message;
}

TEST(Structs, ABitIdenticalStructIsOneByteCopy) {
    // Same type, C layout on both sides: the whole array is one copy_bytes leaf under one
    // dimension, which copies contiguous elements with one memcpy.
    Outcome o = assign_literal("3 * {x: int32, y: float64, z: 2 * int16}",
                               "3 * {x: int32, y: float64, z: 2 * int16}",
                               "[{x: 1, y: 2.5, z: [3, 4]}, {x: 5, y: 6, z: [7, 8]}, {x: 9, y: 10, z: [11, 12]}]");
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.text, "[{x: 1, y: 2.5, z: [3, 4]}, {x: 5, y: 6, z: [7, 8]}, {x: 9, y: 10, z: [11, 12]}]");
    EXPECT_TRUE(ckt::tree_starts_with(o.tree, "strided_dim @0 +40  strided_dim_single  size=3 dst_stride=24 src_stride=24\n"
                           "  copy_bytes @40 +32  copy_bytes_strided  bytes=20\n"))
        << o.tree;
    // Fields that line up on both sides copy as one run; the others cast.
    o = assign_literal("{a: int8, b: int16, c: int32, d: float64}",
                       "{a: int8, b: int16, c: int32, d: float32}", "{a: 1, b: 2, c: 3, d: 4.5}");
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.text, "{a: 1, b: 2, c: 3, d: 4.5}");
    EXPECT_TRUE(has(o.tree, "fields=2 [3 fields as bytes @0 <- @0, d @8 <- @8]")) << o.tree;
    EXPECT_TRUE(has(o.tree, "copy_bytes @")) << o.tree;
    EXPECT_TRUE(has(o.tree, "bytes=8")) << o.tree;
    // Reordered fields do not line up: each is its own copy.
    o = assign_literal("{a: int32, b: int32}", "{b: int32, a: int32}", "{a: 1, b: 2}");
    EXPECT_EQ(o.text, "{a: 1, b: 2}");
    EXPECT_TRUE(has(o.tree, "fields=2 [a @0 <- @4, b @4 <- @0]")) << o.tree;
    // Options copy as bits (NA included).
    o = assign_literal("2 * {a: ?int16, b: ?float64}", "2 * {a: ?int16, b: ?float64}",
                       "[{a: NA, b: 1}, {a: 2, b: NA}]");
    EXPECT_EQ(o.text, "[{a: NA, b: 1}, {a: 2, b: NA}]");
    EXPECT_TRUE(has(o.tree, "copy_bytes")) << o.tree;
}

// A record's tail padding is not written: a row the kernel allocates ends at the last
// field's data (design.md §7), so a copy that reached into it would write past the row. The
// last field here is a tuple of 9 data bytes in 12: the whole-record copy and a run of
// fields both stop at its int8. Found by the composition fuzzer (a 3-byte write past an
// allocated row).
// dst <- src through one kernel built for the arrays and run once; the kernel's tree.
std::string assign_described(const ckt::Array &dst, const ckt::Array &src) {
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    const int built = ck_make_assign(&b, &off, ck_array_type(dst.get()), ck_array_arrmeta(dst.get()),
                                     ck_array_type(src.get()), ck_array_arrmeta(src.get()),
                                     CK_REQUEST_SINGLE, nullptr);
    std::string tree, message;
    char *s = src.data();
    EXPECT_EQ(ckt::describe_and_call_single(&b, built, dst.data(), &s, &tree, &message), CK_OK)
        << message;
    ck_builder_destroy(&b);
    return tree;
}

TEST(Structs, AByteCopyStopsBeforeATrailingRecordsPadding) {
    struct Case {
        const char *dst, *src, *tree;
        size_t size;  // the record's bytes; the tuple at size - 8, its padding the last 3
    } cases[] = {
        {"2 * {a: int64, b: (int32, int8)}", "2 * {a: int64, b: (int32, int8)}", "bytes=13", 16},
        {"2 * {a: float64, b: (int32, int8)}", "2 * {a: int32, b: (int32, int8)}", "bytes=5", 16},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.dst);
        ckt::Array src(c.src, "[{a: 1, b: (2, 3)}, {a: 4, b: (5, 6)}]"), dst(c.dst);
        unsigned char *sb = reinterpret_cast<unsigned char *>(src.data());
        unsigned char *db = reinterpret_cast<unsigned char *>(dst.data());
        const size_t ssize = ck_type_data_size(ck_array_type(src.get())) / 2;
        for (size_t e = 0; e < 2; e++) {
            std::memset(sb + e * ssize + ssize - 3, 0x55, 3);  // the source's padding
        }
        std::memset(db, 0xaa, 2 * c.size);
        const std::string tree = assign_described(dst, src);
        EXPECT_TRUE(has(tree, c.tree)) << tree;
        EXPECT_EQ(dst.str(), "[{a: 1, b: (2, 3)}, {a: 4, b: (5, 6)}]");
        for (size_t e = 0; e < 2; e++) {
            for (size_t k = c.size - 3; k < c.size; k++) {
                EXPECT_EQ(db[e * c.size + k], 0xaa) << "element " << e << " byte " << k;
            }
        }
    }
}

TEST(Structs, AByteCopyStopsBeforeATrailingEmptyField) {
    // {a: int32, z: 0 * int64}: z sits at offset 8 and holds nothing, so the record's bytes
    // end at a's (4 of its 8): the copy writes 4 bytes per record, whole records bit
    // identical or a run of fields behind a cast one; a row the kernel allocates is 12 bytes
    // for 2 records and the copy stays inside it (ASan: the composition fuzzer's finding).
    // Where int64 aligns to 4 in structs (i386) z is at 4 and there is no padding.
    struct a_z {
        int32_t a;
        int64_t z;
    };
    struct b_a_z {
        double b;
        int32_t a;
        int64_t z;
    };
    struct Case {
        const char *dst, *src, *tree;
        size_t size, reach;
    } cases[] = {
        {"2 * {a: int32, z: 0 * int64}", "2 * {a: int32, z: 0 * int64}", "bytes=4",
         offsetof(a_z, z), 4},
        {"2 * {b: float64, a: int32, z: 0 * int64}", "2 * {b: int8, a: int32, z: 0 * int64}",
         "bytes=4", offsetof(b_a_z, z), 12},
        {"2 * {a: int32, y: {}, z: 0 * int64}", "2 * {a: int32, y: {}, z: 0 * int64}", "bytes=4",
         offsetof(a_z, z), 4},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.dst);
        ckt::Array src(c.src), dst(c.dst);
        unsigned char *db = reinterpret_cast<unsigned char *>(dst.data());
        ASSERT_EQ(ck_type_data_size(ck_array_type(dst.get())), 2 * c.size);
        std::memset(src.data(), 0x11, ck_type_data_size(ck_array_type(src.get())));
        std::memset(db, 0xaa, 2 * c.size);
        const std::string tree = assign_described(dst, src);
        EXPECT_TRUE(has(tree, c.tree)) << tree;
        for (size_t e = 0; e < 2; e++) {
            for (size_t k = c.reach; k < c.size; k++) {
                EXPECT_EQ(db[e * c.size + k], 0xaa) << "element " << e << " byte " << k;
            }
        }
    }
    // a ragged destination's rows are allocated to the reach: the copy must stay inside them
    ckt::Array src("2 * var * {a: int32, z: 0 * int64}", "[[{a: 1, z: []}, {a: 2, z: []}], []]");
    ckt::Array dst("2 * var * {a: int32, z: 0 * int64}");
    ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(dst.str(), "[[{a: 1, z: []}, {a: 2, z: []}], []]");
}

TEST(Structs, ManyBlocksOfRecordsEachAssignedOnceInEitherDirection) {
    // The fields kernel runs its children over blocks of records (1 KiB of the wider side:
    // 64 of these 16-byte records): 1000 records are 15 whole blocks and a part. Every
    // record gets its three casts, in C order and from a reversed source (stride -16), with
    // guards after the destination; a failure in a late block is the leaf's, named.
    const int n = 1000;
    ckt::Type st("1000 * {c: float64, b: int16, a: int32}"), dt("1000 * {a: float64, b: int32, c: float32}");
    std::vector<unsigned char> src(16 * n), dst(16 * n + 64, 0xA5);
    auto fill = [&](int bad) {
        for (int i = 0; i < n; ++i) {
            const double c = i == bad ? 1e300 : i + 0.25;
            const int16_t b = static_cast<int16_t>(i - 500);
            const int32_t a = 3 * i - 1700;
            std::memcpy(&src[16 * i], &c, 8);
            std::memcpy(&src[16 * i + 8], &b, 2);
            std::memcpy(&src[16 * i + 12], &a, 4);
        }
    };
    auto check = [&](bool reversed) {
        for (int i = 0; i < n; ++i) {
            const int k = reversed ? n - 1 - i : i; // the source record
            double a;
            int32_t b;
            float c;
            std::memcpy(&a, &dst[16 * i], 8);
            std::memcpy(&b, &dst[16 * i + 8], 4);
            std::memcpy(&c, &dst[16 * i + 12], 4);
            ASSERT_EQ(a, 3.0 * k - 1700) << i << (reversed ? " reversed" : "");
            ASSERT_EQ(b, k - 500) << i;
            ASSERT_EQ(c, static_cast<float>(k) + 0.25f) << i;
        }
        for (int g = 0; g < 64; ++g) {
            ASSERT_EQ(dst[16 * n + g], 0xA5) << "a write past the last record";
        }
    };
    struct Meta {
        intptr_t dim[2];
        intptr_t off[3];
    } c_order = {{n, 16}, {0, 8, 12}}, reversed = {{n, -16}, {0, 8, 12}};
    ck_array *d = nullptr, *sc = nullptr, *sr = nullptr;
    ASSERT_EQ(ck_array_wrap(dt.get(), nullptr, reinterpret_cast<char *>(dst.data()), nullptr, &d), CK_OK)
        << ck_last_error();
    ASSERT_EQ(ck_array_wrap(st.get(), reinterpret_cast<const char *>(&c_order),
                            reinterpret_cast<char *>(src.data()), nullptr, &sc), CK_OK) << ck_last_error();
    ASSERT_EQ(ck_array_wrap(st.get(), reinterpret_cast<const char *>(&reversed),
                            reinterpret_cast<char *>(&src[16 * (n - 1)]), nullptr, &sr), CK_OK)
        << ck_last_error();
    fill(-1);
    ck_eval_ctx ctx = ckt::ctx(CK_ERRMODE_OVERFLOW);
    EXPECT_EQ(ck_assign(d, sc, &ctx), CK_OK) << ck_last_error();
    check(false);
    std::fill(dst.begin(), dst.end(), 0xA5);
    EXPECT_EQ(ck_assign(d, sr, &ctx), CK_OK) << ck_last_error();
    check(true);
    fill(937);
    EXPECT_EQ(ck_assign(d, sc, &ctx), CK_ERR_OVERFLOW);
    EXPECT_EQ(std::string(ck_last_error()).rfind("field c: ", 0), 0u) << ck_last_error();
    ck_array_free(d);
    ck_array_free(sc);
    ck_array_free(sr);
}

TEST(Structs, AHostsPackedRecordsAreReadAndWrittenAtTheirOffsets) {
    // NumPy's packed dtype [('x', '<i4'), ('y', '<f8')]: y at byte 4, records of 12 bytes.
    // Wrapped as {x: int32, y: float64} with the offsets in the arrmeta: C-layout <-> packed,
    // and packed -> packed (one copy of the 12-byte span), with guards around everything.
    ckt::Type t("4 * {x: int32, y: float64}");
    struct Packed {
        intptr_t dim[2];
        intptr_t off[2];
    } packed = {{4, 12}, {0, 4}};
    std::vector<unsigned char> a(16 + 48 + 16, 0xA5), b(16 + 48 + 16, 0xA5);
    for (int i = 0; i < 4; ++i) {
        const int32_t x = 10 * i;
        const double y = 0.5 + i;
        std::memcpy(&a[16 + 12 * i], &x, 4);
        std::memcpy(&a[16 + 12 * i + 4], &y, 8);
    }
    ck_array *pa = nullptr, *pb = nullptr;
    ASSERT_EQ(ck_array_wrap(t.get(), reinterpret_cast<const char *>(&packed),
                            reinterpret_cast<char *>(&a[16]), nullptr, &pa), CK_OK) << ck_last_error();
    ASSERT_EQ(ck_array_wrap(t.get(), reinterpret_cast<const char *>(&packed),
                            reinterpret_cast<char *>(&b[16]), nullptr, &pb), CK_OK) << ck_last_error();
    char *text = nullptr;
    ASSERT_EQ(ck_array_format(pa, &text), CK_OK);
    EXPECT_STREQ(text, "[{x: 0, y: 0.5}, {x: 10, y: 1.5}, {x: 20, y: 2.5}, {x: 30, y: 3.5}]");
    ck_free(text);
    ASSERT_EQ(ck_assign(pb, pa, nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(std::memcmp(&a[16], &b[16], 48), 0);
    for (int g = 0; g < 16; ++g) {
        EXPECT_EQ(b[g], 0xA5);
        EXPECT_EQ(b[16 + 48 + g], 0xA5) << "a write past the last packed record";
    }
    ckt::Array c("4 * {x: int32, y: float64}");
    ASSERT_EQ(ck_assign(c.get(), pa, nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(c.str(), "[{x: 0, y: 0.5}, {x: 10, y: 1.5}, {x: 20, y: 2.5}, {x: 30, y: 3.5}]");
    std::fill(b.begin(), b.end(), 0xA5);
    ASSERT_EQ(ck_assign(pb, c.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(std::memcmp(&a[16], &b[16], 48), 0);
    EXPECT_EQ(b[16 + 48], 0xA5);
    ck_array_free(pa);
    ck_array_free(pb);
}

TEST(Options, TheFourCasesOfTheIssue) {
    // T -> ?T: a copy, always valid (the reserved value reads back as NA).
    Outcome o = assign_literal("3 * ?int32", "3 * int32", "[1, -2147483648, 3]", CK_ERRMODE_INEXACT);
    ASSERT_EQ(o.rc, CK_OK) << o.message;
    EXPECT_EQ(o.text, "[1, NA, 3]");
    // ?S -> ?T: NA stays NA, values cast with the error mode.
    o = assign_literal("3 * ?float64", "3 * ?int32", "[1, NA, 3]");
    EXPECT_EQ(o.text, "[1, NA, 3]") << o.message;
    o = assign_literal("3 * ?int8", "3 * ?int32", "[1, NA, 300]");
    EXPECT_EQ(o.rc, CK_ERR_OVERFLOW);
    EXPECT_EQ(o.message, "int32 value 300 is out of range for int8");
    o = assign_literal("3 * ?int8", "3 * ?int32", "[1, NA, 300]", CK_ERRMODE_NOCHECK);
    EXPECT_EQ(o.text, "[1, NA, 44]");
    // ... and a value equal to the destination's NA is an overflow in checked modes only.
    for (ck_errmode m : {CK_ERRMODE_OVERFLOW, CK_ERRMODE_FRACTIONAL, CK_ERRMODE_INEXACT}) {
        o = assign_literal("3 * ?int8", "3 * ?int64", "[1, -128, NA]", m);
        EXPECT_EQ(o.rc, CK_ERR_OVERFLOW) << m;
        EXPECT_EQ(o.message, "the value at element 1 converts to the NA of ?int8 (its reserved value)");
    }
    o = assign_literal("3 * ?int8", "3 * ?int64", "[1, -128, NA]", CK_ERRMODE_NOCHECK);
    EXPECT_EQ(o.text, "[1, NA, NA]");
    // ?T -> T: NA is CK_ERR_NA in every mode.
    for (ck_errmode m : {CK_ERRMODE_NOCHECK, CK_ERRMODE_OVERFLOW, CK_ERRMODE_FRACTIONAL,
                         CK_ERRMODE_INEXACT}) {
        o = assign_literal("3 * float32", "3 * ?int16", "[1, 2, NA]", m);
        EXPECT_EQ(o.rc, CK_ERR_NA) << m;
        EXPECT_EQ(o.message, "NA at element 2 cannot be assigned to float32, which is not an option type");
    }
    o = assign_literal("3 * float32", "3 * ?int16", "[1, 2, -3]");
    EXPECT_EQ(o.text, "[1, 2, -3]");
    // The option kernel has its three children.
    o = assign_literal("?float64", "?int32", "NA");
    EXPECT_EQ(o.text, "NA");
    EXPECT_TRUE(ckt::tree_starts_with(o.tree, "option @0 +32  option_single  dst=?float64 (a value of the NA's bits "
                           "becomes NaN)\n"
                           "  is_na @32 +40  is_na_strided  sources=[?int32]\n")) << o.tree;
    EXPECT_TRUE(has(o.tree, "  leaf @")) << o.tree;
    EXPECT_TRUE(has(o.tree, "  assign_na @72 +24  assign_na_strided  dst=?float64")) << o.tree;
}

TEST(Options, NaSurvivesEveryScalarPairAndChunkBoundaries) {
    // 600 elements (crossing the option kernel's 256-element chunks) with NA at 0, 255, 256,
    // 599 and a run 300..340: NA lands where NA was; the other elements are the cast.
    for (int d = 0; d < CK_NUM_SCALAR_TYPES; ++d) {
        for (int s = 0; s < CK_NUM_SCALAR_TYPES; ++s) {
            const auto did = static_cast<ck_type_id>(d), sid = static_cast<ck_type_id>(s);
            const std::string dts = std::string("600 * ?") + ck_type_id_name(did);
            const std::string sts = std::string("600 * ?") + ck_type_id_name(sid);
            ckt::Array dst(dts.c_str()), src(sts.c_str());
            const size_t ss = ck_type_data_size(ck_type_scalar(sid)), ds = ck_type_data_size(ck_type_scalar(did));
            const void *sna = ck_option_na_bytes(ck_type_scalar(sid));
            const void *dna = ck_option_na_bytes(ck_type_scalar(did));
            for (size_t i = 0; i < 600; ++i) {
                const bool na = i == 0 || i == 255 || i == 256 || i == 599 || (i >= 300 && i <= 340);
                if (na) {
                    std::memcpy(src.data() + i * ss, sna, ss);
                } else {
                    // 1 as the source type: exact everywhere (true for bool).
                    ckt::Array one(ck_type_id_name(sid), sid == CK_TYPE_BOOL ? "true" : "1");
                    std::memcpy(src.data() + i * ss, one.data(), ss);
                }
            }
            ASSERT_EQ(ck_assign(dst.get(), src.get(), nullptr), CK_OK)
                << ck_type_id_name(did) << " <- " << ck_type_id_name(sid) << ": " << ck_last_error();
            ckt::Array one_d(ck_type_id_name(did), did == CK_TYPE_BOOL ? "true" : "1");
            for (size_t i = 0; i < 600; ++i) {
                const bool na = i == 0 || i == 255 || i == 256 || i == 599 || (i >= 300 && i <= 340);
                ASSERT_EQ(std::memcmp(dst.data() + i * ds, na ? dna : one_d.data(), ds), 0)
                    << ck_type_id_name(did) << " <- " << ck_type_id_name(sid) << " [" << i << "]";
            }
        }
    }
}

TEST(Options, ACheckedAssignmentLooksForTheNaExactlyWhereACastCanGiveIt) {
    // For every pair of integer types, by hand: can some in-range S value equal T's NA
    // (the signed minimum, the unsigned maximum)? Then OVERFLOW mode must refuse that value,
    // and the tree says it checks; else no value can, and the tree does not check.
    struct Int {
        ck_type_id id;
        bool is_signed;
        int bits;
    };
    const Int ints[] = {{CK_TYPE_INT8, true, 8},   {CK_TYPE_INT16, true, 16},  {CK_TYPE_INT32, true, 32},
                        {CK_TYPE_INT64, true, 64}, {CK_TYPE_UINT8, false, 8}, {CK_TYPE_UINT16, false, 16},
                        {CK_TYPE_UINT32, false, 32}, {CK_TYPE_UINT64, false, 64}};
    for (const Int &t : ints) {
        for (const Int &s : ints) {
            if (t.id == s.id) continue;  // a copy: NA stays NA, T -> ?T is always valid
            // T's NA as a decimal, and whether S holds it.
            const std::string na = t.is_signed ? (t.bits == 64 ? "-9223372036854775808"
                                                               : std::to_string(-(int64_t{1} << (t.bits - 1))))
                                               : (t.bits == 64 ? "18446744073709551615"
                                                               : std::to_string((uint64_t{1} << t.bits) - 1));
            const bool s_holds = t.is_signed ? (s.is_signed && s.bits >= t.bits)
                                             : (s.is_signed ? s.bits > t.bits : s.bits >= t.bits);
            const std::string dts = std::string("2 * ?") + ck_type_id_name(t.id);
            const std::string sts = std::string("2 * ") + ck_type_id_name(s.id);
            const std::string what = dts + " <- " + sts;
            Outcome o = assign_literal(dts.c_str(), sts.c_str(), "[1, 2]", CK_ERRMODE_OVERFLOW);
            ASSERT_EQ(o.rc, CK_OK) << what << o.message;
            EXPECT_EQ(has(o.tree, "(a value converting to NA is an overflow)"), s_holds) << what << "\n" << o.tree;
            if (s_holds) {
                o = assign_literal(dts.c_str(), sts.c_str(), ("[1, " + na + "]").c_str(), CK_ERRMODE_OVERFLOW);
                EXPECT_EQ(o.rc, CK_ERR_OVERFLOW) << what;
            }
        }
    }
    // float64 -> ?float32: the float64 NaN that narrows to float32's NA bits is a value, in
    // every mode: the default quiet NaN (docs/design.md §14), never NA and never refused.
    const uint64_t bits = 0x7ff800f440000000ull;
    double nan_in;
    std::memcpy(&nan_in, &bits, 8);
    ckt::Array src("2 * float64"), dst("2 * ?float32");
    std::memcpy(src.data() + 8, &nan_in, 8);
    for (ck_errmode m : {CK_ERRMODE_NOCHECK, CK_ERRMODE_OVERFLOW, CK_ERRMODE_INEXACT}) {
        ck_eval_ctx ctx = ckt::ctx(m);
        ASSERT_EQ(ck_assign(dst.get(), src.get(), &ctx), CK_OK) << m << ck_last_error();
        uint32_t got = 0;
        std::memcpy(&got, dst.data() + 4, 4);
        EXPECT_EQ(got, 0x7fc00000u) << m;
        EXPECT_EQ(dst.str(), "[0, nan]") << m;
    }
    Outcome q = assign_literal("2 * ?float32", "2 * float64", "[1, 2]", CK_ERRMODE_INEXACT);
    EXPECT_FALSE(has(q.tree, "converting to NA")) << q.tree;
    // Integers never make a NaN: no check.
    Outcome o = assign_literal("2 * ?float32", "2 * int64", "[1, 2]", CK_ERRMODE_INEXACT);
    EXPECT_FALSE(has(o.tree, "converting to NA")) << o.tree;
}

TEST(Options, CallablesLiftOverOptionsWithNoNewLeaves) {
    ck_callable *add = nullptr;
    ASSERT_EQ(ck_lookup("add", &add), CK_OK);
    ckt::Array a("4 * ?int32", "[1, NA, 3, 2147483647]"), b("int32", "10");
    const ck_array *srcs[2] = {a.get(), b.get()};
    ck_array *out = nullptr;
    ck_eval_ctx nocheck = ckt::ctx(CK_ERRMODE_NOCHECK);
    ASSERT_EQ(ck_call_new(add, 2, srcs, &nocheck, &out), CK_OK) << ck_last_error();
    char *text = nullptr;
    ASSERT_EQ(ck_array_format(out, &text), CK_OK);
    // 2147483647 + 10 wraps to -2147483639: a value, not NA.
    EXPECT_STREQ(text, "[11, NA, 13, -2147483639]");
    ck_free(text);
    char *rt = nullptr;
    ASSERT_EQ(ck_type_format(ck_array_type(out), &rt), CK_OK);
    EXPECT_STREQ(rt, "4 * ?int32");
    ck_free(rt);
    ck_array_free(out);
    // NA in either argument, broadcast; a result equal to the NA is refused when checking.
    ckt::Array c("2 * 1 * ?float64", "[[NA], [0.5]]"), d("3 * ?float32", "[1, NA, 2]");
    const ck_array *cd[2] = {c.get(), d.get()};
    ASSERT_EQ(ck_call_new(add, 2, cd, nullptr, &out), CK_OK) << ck_last_error();
    ASSERT_EQ(ck_array_format(out, &text), CK_OK);
    EXPECT_STREQ(text, "[[NA, NA, NA], [1.5, NA, 2.5]]");
    ck_free(text);
    ck_array_free(out);
    ckt::Array e("?int32", "-2147483647"), f("int32", "-1");
    const ck_array *ef[2] = {e.get(), f.get()};
    EXPECT_EQ(ck_call_new(add, 2, ef, nullptr, &out), CK_ERR_OVERFLOW);
    EXPECT_EQ(out, nullptr);
    // A struct argument is refused with a message.
    ckt::Array g("{x: int32}", "{x: 1}");
    const ck_array *gf[2] = {g.get(), f.get()};
    EXPECT_EQ(ck_call_new(add, 2, gf, nullptr, &out), CK_ERR_TYPE);
    EXPECT_TRUE(has(ck_last_error(), "argument 0 is {x: int32}")) << ck_last_error();
    ck_callable_decref(add);
}

TEST(Structs, AllocationFailureAtEveryPointOfATwentyFieldKernel) {
    // 20 fields, every other one cast (a heap kernel of 20 children), types parsed, arrays
    // made from literals, the kernel built and run and described.
    std::string dts = "{", sts = "{", lit = "{";
    for (int i = 0; i < 20; ++i) {
        const std::string n = "f" + std::to_string(i);
        dts += (i ? ", " : "") + n + (i % 2 ? ": float64" : ": int16");
        sts += (i ? ", " : "") + n + (i % 2 ? ": int32" : ": int16");
        lit += (i ? ", " : "") + n + ": " + std::to_string(i);
    }
    dts += "}";
    sts += "}";
    lit += "}";
    const int64_t points = ckt::for_each_alloc_failure([&] {
        ck_type *dt = nullptr, *st = nullptr;
        ck_array *src = nullptr, *dst = nullptr;
        int rc = ck_type_parse(dts.c_str(), &dt);
        if (rc == CK_OK) rc = ck_type_parse(sts.c_str(), &st);
        if (rc == CK_OK) rc = ck_array_parse(st, lit.c_str(), &src);
        if (rc == CK_OK) rc = ck_array_new(dt, &dst);
        ck_builder b;
        ck_builder_init(&b);
        if (rc == CK_OK) {
            size_t off = 0;
            rc = ck_make_assign(&b, &off, dt, ck_array_arrmeta(dst), st, ck_array_arrmeta(src),
                                CK_REQUEST_SINGLE, nullptr);
        }
        if (rc == CK_OK) {
            char *s = ck_array_data(src);
            rc = ck_call_single(ck_builder_root(&b), ck_array_data(dst), &s);
        }
        char *tree = nullptr;
        if (rc == CK_OK) rc = ck_kernel_describe(ck_builder_root(&b), &tree);
        if (rc == CK_OK && std::string(tree).find("fields=20") == std::string::npos) rc = CK_ERR_INTERNAL;
        ck_free(tree);
        char *text = nullptr;
        if (rc == CK_OK) rc = ck_array_format(dst, &text);
        if (rc == CK_OK && std::string(text) != lit) rc = CK_ERR_INTERNAL;
        ck_free(text);
        ck_builder_destroy(&b);
        ck_array_free(src);
        ck_array_free(dst);
        ck_type_decref(dt);
        ck_type_decref(st);
        return rc;
    });
    EXPECT_GT(points, 8);
}

TEST(Structs, AParallelAssignmentOfRecordsMatchesTheSerialOne) {
    std::string lit = "[";
    for (int i = 0; i < 5000; ++i) {
        lit += (i ? ", " : "") + std::string("{b: ") + (i % 7 == 0 ? "NA" : std::to_string(i)) +
               ", a: " + std::to_string(i % 100) + "}";
    }
    lit += "]";
    ckt::Array src("5000 * {b: ?int32, a: int8}", lit.c_str());
    ckt::Array p("5000 * {a: float32, b: ?float64}"), s("5000 * {a: float32, b: ?float64}");
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.max_threads = 2;
    ctx.grain_bytes = 4096;
    ASSERT_EQ(ck_parallel_assign(p.get(), src.get(), &ctx), CK_OK) << ck_last_error();
    ASSERT_EQ(ck_assign(s.get(), src.get(), nullptr), CK_OK) << ck_last_error();
    EXPECT_EQ(std::memcmp(p.data(), s.data(), ck_type_data_size(ck_array_type(p.get()))), 0);
    EXPECT_EQ(s.str().substr(0, 40), "[{a: 0, b: NA}, {a: 1, b: 1}, {a: 2, b: ");
}

}  // namespace
