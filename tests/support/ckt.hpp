// tests/support/ckt.hpp: C++ helpers shared by the GoogleTest suites.
#ifndef CK_TEST_CKT_HPP
#define CK_TEST_CKT_HPP

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "alloc_hooks.h"
#include "ckt_tree.hpp"
#include "ckernel/ckernel.h"
#include "scalar_oracle.h"

namespace ckt {

// Compiled code no kernel holds is kept for later builds (ck_jit_trim): not a leak, freed
// before counting.
inline int64_t live_allocations() {
    ck_jit_trim();
    ck_alloc_stats st;
    ck_get_alloc_stats(&st);
    return st.live;
}

// `op` under the allocation limit (ckernel/alloc.h), with the hook allocator installed: once
// to record the bytes held as each request reached the allocator, then once with the limit
// one byte below each distinct value, so that the request that reached it (or an earlier
// one) is refused. A refused run must return CK_ERR_NOMEM with the limit's own message,
// which no caller on the way may replace with a vaguer one, and hold nothing afterwards. A
// run may also succeed: threads (a parallel call) can allocate in another order and peak
// lower. Returns the number of limits tried.
inline int64_t for_each_alloc_limit(const std::function<int()> &op_) {
    // Compiled code no kernel holds is kept for the next build (ck_jit_trim): freed around
    // every run, so that each run compiles what it builds and holds nothing after.
    ck_jit_trim();
    const auto op = [&op_] {
        const int rc = op_();
        ck_jit_trim();
        return rc;
    };
    const size_t start = ck_get_alloc_live_bytes();
    const size_t saved = ck_get_alloc_limit();
    ckt_alloc_fail_at(0);
    // A limit that refuses nothing: with one, each request is counted before the allocator
    // sees it (without, after), so the recorded bytes include the request's own.
    ck_set_alloc_limit(SIZE_MAX);
    ckt_alloc_record_live(1);
    EXPECT_EQ(op(), CK_OK) << "the operation must succeed while recording: " << ck_last_error();
    ckt_alloc_record_live(0);
    ck_set_alloc_limit(saved);
    std::vector<size_t> held(CKT_ALLOC_RECORD_MAX);
    held.resize(std::min(ckt_alloc_recorded(held.data(), held.size()), held.size()));
    std::sort(held.begin(), held.end());
    held.erase(std::unique(held.begin(), held.end()), held.end());
    int64_t tried = 0, refused = 0;
    for (size_t h : held) {
        if (h <= start) continue;  // a request that added nothing cannot be refused
        const size_t limit = h - 1;
        ++tried;
        ck_set_alloc_limit(limit);
        const int rc = op();
        ck_set_alloc_limit(saved);
        const std::string msg = ck_last_error();
        EXPECT_EQ(live_allocations(), 0) << "leak under the limit " << limit;
        EXPECT_EQ(ck_get_alloc_live_bytes(), start) << "bytes left under the limit " << limit;
        if (rc == CK_OK) continue;
        ++refused;
        EXPECT_EQ(rc, CK_ERR_NOMEM) << "limit " << limit << ": " << ck_status_name(rc) << " " << msg;
        EXPECT_EQ(msg.rfind("ckernel allocation limit: ", 0), 0u)
            << "limit " << limit << ": the limit's message was replaced by: " << msg;
        EXPECT_NE(msg.find(", above the limit of " + std::to_string(limit) + " (ck_set_alloc_limit)"),
                  std::string::npos)
            << msg;
    }
    EXPECT_TRUE(tried == 0 || refused > 0) << "no limit refused anything";
    return tried;
}

// Runs `op` once with no failure to count its allocation requests, then once more for every
// request n, with the n-th made to fail. Each failing run must return CK_ERR_NOMEM (with a
// message) and hold no allocation afterwards; `op` releases everything it made before it
// returns. `op` returns a ck status. Then the same refusals from the allocation limit
// (for_each_alloc_limit). Returns the number of failure points exercised.
inline int64_t for_each_alloc_failure(const std::function<int()> &op_) {
    ck_jit_trim();  // as for_each_alloc_limit
    const auto op = [&op_] {
        const int rc = op_();
        ck_jit_trim();
        return rc;
    };
    EXPECT_EQ(live_allocations(), 0) << "allocations live before the failure loop";
    EXPECT_EQ(ckt_alloc_install(), CK_OK) << ck_last_error();
    ckt_alloc_fail_at(0);
    EXPECT_EQ(op(), CK_OK) << "the operation must succeed without injected failures: "
                           << ck_last_error();
    const int64_t total = ckt_alloc_requests();
    EXPECT_EQ(live_allocations(), 0) << "the successful run leaked";
    for (int64_t n = 1; n <= total; ++n) {
        ckt_alloc_fail_at(n);
        const int rc = op();
        EXPECT_TRUE(ckt_alloc_failed()) << "request " << n << " was never made";
        EXPECT_EQ(rc, CK_ERR_NOMEM) << "failing request " << n << " of " << total << ": "
                                    << ck_status_name(rc) << " " << ck_last_error();
        EXPECT_EQ(live_allocations(), 0) << "leak after failing request " << n;
    }
    for_each_alloc_limit(op);
    ckt_alloc_fail_at(0);
    EXPECT_EQ(ckt_alloc_uninstall(), CK_OK) << ck_last_error();
    return total;
}

// The best CPU target this machine supports that this build compiled leaves for: what the
// cap goes back to after a test lowered it (a baseline-only build has no other).
// Below CKERNEL_CPU_TARGET when a run of the suite sets it (scripts/test-cross.sh).
inline ck_cpu_target best_compiled_target() {
    for (int t = static_cast<int>(ck_cpu_target_ceiling()); t > 0; --t) {
        if (ck_cpu_target_compiled(static_cast<ck_cpu_target>(t))) {
            return static_cast<ck_cpu_target>(t);
        }
    }
    return CK_CPU_BASELINE;
}

// The name of the target whose bandwidth-bound loops (arithmetic and comparison leaves,
// streaming stores, rows folds) a kernel gets with kernels capped at `capped`: the rule of
// ck_cpu_bandwidth_target worked out here from CKERNEL_VECTOR_WIDTH and /proc/cpuinfo. avx2
// for avx512 where the variable says 256, or where it is unset and the CPU is AMD family 25
// (19h; its only AVX-512 core is Zen 4), when avx2 is compiled.
inline std::string expected_bandwidth_target(ck_cpu_target capped) {
#if defined(__x86_64__) || defined(__i386__)
    if (capped != CK_CPU_AVX512) {
        return ck_cpu_target_name(capped);
    }
    const char *w = std::getenv("CKERNEL_VECTOR_WIDTH");
    bool narrow = w != nullptr && std::string(w) == "256";
    if (w == nullptr || w[0] == '\0') {
        std::ifstream in("/proc/cpuinfo");
        std::string line, vendor, family;
        while (std::getline(in, line) && (vendor.empty() || family.empty())) {
            const auto colon = line.find(':');
            if (colon == std::string::npos) continue;
            const std::string value = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
            if (line.rfind("vendor_id", 0) == 0) vendor = value;
            if (line.rfind("cpu family", 0) == 0) family = value;
        }
        narrow = vendor == "AuthenticAMD" && family == "25";
    }
    return narrow && ck_cpu_target_compiled(CK_CPU_AVX2) ? "avx2" : "avx512";
#else
    return ck_cpu_target_name(capped);
#endif
}

// Whether this architecture has streaming stores at all (x86-64 only: docs/design.md §8);
// elsewhere no threshold, not even one set by a test, gives a streaming kernel.
inline bool streaming_stores_exist() {
    return std::strcmp(ck_streaming_threshold_reason(),
                       "no streaming stores on this architecture") != 0;
}

// The CPU targets this build compiled and this machine runs (within CKERNEL_CPU_TARGET),
// lowest first. Each other target is reported as skipped, with the reason, so a log says
// which targets a test covered.
inline std::vector<ck_cpu_target> runnable_targets() {
    std::vector<ck_cpu_target> out;
    for (int t = 0; t < CK_NUM_CPU_TARGETS; ++t) {
        const auto target = static_cast<ck_cpu_target>(t);
        if (!ck_cpu_target_compiled(target) ||
            static_cast<int>(target) > static_cast<int>(ck_cpu_target_ceiling())) {
            std::printf("[ SKIPPED  ] target %s: %s\n", ck_cpu_target_name(target),
                        !ck_cpu_target_compiled(target) ? "not compiled"
                        : target > ck_cpu_detected_target() ? "this CPU lacks it"
                                                            : "above CKERNEL_CPU_TARGET");
            continue;
        }
        out.push_back(target);
    }
    return out;
}

// 1-D operands "n * T" for a builder: their types, arrmeta (a step in elements; 0 broadcasts
// one element) and data, in the arrays ck_make_call and ck_make_expr take.
class Operands1d {
  public:
    struct One {
        ck_type_id id;
        char *data;
        intptr_t step;
    };
    Operands1d(intptr_t n, const std::vector<One> &ops)
        : types_(ops.size()), meta_(ops.size()), metas_(ops.size()), data_(ops.size()) {
        for (size_t k = 0; k < ops.size(); ++k) {
            const ck_type *el = ck_type_scalar(ops[k].id);
            EXPECT_EQ(ck_type_make_fixed_dim(n, el, &types_[k]), CK_OK);
            meta_[k] = {n, ops[k].step * static_cast<intptr_t>(ck_type_data_size(el))};
            metas_[k] = reinterpret_cast<const char *>(&meta_[k]);
            data_[k] = ops[k].data;
        }
    }
    ~Operands1d() {
        for (ck_type *t : types_) ck_type_decref(t);
    }
    Operands1d(const Operands1d &) = delete;
    Operands1d &operator=(const Operands1d &) = delete;
    int count() const { return static_cast<int>(types_.size()); }
    const ck_type *const *types() const { return types_.data(); }
    const char *const *arrmeta() const { return metas_.data(); }
    char *const *data() const { return data_.data(); }

  private:
    std::vector<ck_type *> types_;
    std::vector<ck_fixed_dim_arrmeta> meta_;
    std::vector<const char *> metas_;
    std::vector<char *> data_;
};

// A kernel just built into b (build_rc: the builder's status) described into *tree and run
// once (single request); the status, and the message into *message when it fails.
inline int describe_and_call_single(ck_builder *b, int build_rc, char *dst, char *const *src,
                                    std::string *tree, std::string *message) {
    int rc = build_rc;
    if (rc == CK_OK) {
        char *text = nullptr;
        if (ck_kernel_describe(ck_builder_root(b), &text) == CK_OK) *tree = text;
        ck_free(text);
        rc = ck_call_single(ck_builder_root(b), dst, src);
    }
    if (rc != CK_OK) *message = ck_last_error();
    return rc;
}

// One scalar dst <- src through the assignment leaf alone (a 0-d kernel) in `mode`: the
// oracle for an element of a bigger kernel. The status, and the message when it fails.
inline int assign_one_scalar(ck_type_id did, char *dst, ck_type_id sid, char *src,
                             ck_errmode mode, std::string *message) {
    ck_eval_ctx ctx = CK_EVAL_CTX_INIT;
    ctx.errmode = mode;
    ck_builder b;
    ck_builder_init(&b);
    size_t off = 0;
    int rc = ck_make_assign(&b, &off, ck_type_scalar(did), nullptr, ck_type_scalar(sid), nullptr,
                            CK_REQUEST_SINGLE, &ctx);
    if (rc == CK_OK) rc = ck_call_single(ck_builder_root(&b), dst, &src);
    if (rc != CK_OK && message != nullptr) *message = ck_last_error();
    ck_builder_destroy(&b);
    return rc;
}

// n elements of scalar type sid as bytes: with `small`, only the values 0 and 1 (every
// pair converts them without an error in any mode); else random bits (bool kept 0/1, as a
// bool must be). Deterministic for a seed.
inline std::vector<unsigned char> scalar_source_bytes(ck_type_id sid, size_t n, bool small, uint32_t seed) {
    const size_t sz = ck_type_data_size(ck_type_scalar(sid));
    std::vector<unsigned char> v(n * sz, 0);
    std::mt19937 rng(seed);
    for (size_t i = 0; i < n; ++i) {
        unsigned char *e = v.data() + i * sz;
        if (sid == CK_TYPE_BOOL || small) {
            const int one = static_cast<int>(rng() & 1u);
            // The value 1 in the source's own representation.
            switch (sid) {
            case CK_TYPE_FLOAT16: if (one) { const uint16_t h = 0x3C00; std::memcpy(e, &h, 2); } break;
            case CK_TYPE_BFLOAT16: if (one) { const uint16_t h = 0x3F80; std::memcpy(e, &h, 2); } break;
            case CK_TYPE_FLOAT32: case CK_TYPE_COMPLEX64: { const float f = static_cast<float>(one); std::memcpy(e, &f, 4); } break;
            case CK_TYPE_FLOAT64: case CK_TYPE_COMPLEX128: { const double d = one; std::memcpy(e, &d, 8); } break;
            default: ckt_put_low_bytes(e, static_cast<uint64_t>(one), sz); break;  // an integer
            }
        } else {
            for (size_t k = 0; k < sz; ++k) e[k] = static_cast<unsigned char>(rng());
        }
    }
    return v;
}

// ---- readable, stable names for value-parameterized tests ----

// Test-name text for a parameter's content: letters and digits kept, '-' as "m" (minus),
// '.' as "p" (point), '+' as "plus", any other run of characters as one '_'; at most 60
// characters; "empty" when nothing is left.
inline std::string test_name_text(const std::string &content) {
    std::string out;
    for (char ch : content) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (std::isalnum(c)) {
            out += ch;
        } else if (ch == '-') {
            out += 'm';
        } else if (ch == '.') {
            out += 'p';
        } else if (ch == '+') {
            out += "plus";
        } else if (!out.empty() && out.back() != '_') {
            out += '_';
        }
    }
    while (!out.empty() && out.back() == '_') out.pop_back();
    if (out.size() > 60) out.resize(60);
    return out.empty() ? std::string("empty") : out;
}

// Names for a whole parameter table, in order: each entry's content made a name, with
// _2, _3, ... appended to the second and later entries whose names would collide. Stable
// for as long as the table's entries are.
inline std::vector<std::string> unique_test_names(const std::vector<std::string> &contents) {
    std::vector<std::string> names;
    std::map<std::string, int> seen;
    for (const std::string &c : contents) {
        std::string n = test_name_text(c);
        const int k = ++seen[n];
        if (k > 1) n += "_" + std::to_string(k);
        names.push_back(n);
    }
    return names;
}

// A name generator for INSTANTIATE_TEST_SUITE_P over a C array `table` of entries, naming
// each entry by describe(entry) (a std::string).
template <class Entry, size_t N, class Describe>
auto name_by_content(const Entry (&table)[N], Describe describe) {
    std::vector<std::string> contents;
    for (const Entry &e : table) contents.push_back(describe(e));
    const std::vector<std::string> names = unique_test_names(contents);
    return [names](const ::testing::TestParamInfo<Entry> &info) { return names[info.index]; };
}

}  // namespace ckt

#endif
