// tests/bench/cli_bench_test.cpp: `ckernel bench` as a user runs it: options, exit statuses
// 0/1/2, --filter, --target, and the JSON (parsed here, minimally but strictly: any text
// that is not JSON, or a NaN/inf token, fails). Runs are filtered to short workloads with
// --repeat 1; nothing about the figures' values is asserted, only their presence and kind.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <utility>
#include <sstream>
#include <string>
#include <vector>

#include "ckt_process.hpp"
#include "bench.h"
#include "ckernel/jit.h"

#ifdef CK_CLI_PATH  // only when the program is built (CK_BUILD_TOOLS)
namespace {

// ---- a minimal JSON reader ----
struct Json {
    enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
    bool b = false;
    double num = 0;
    std::string str;
    std::vector<Json> items;
    std::map<std::string, Json> fields;
    bool has(const std::string &k) const { return kind == Object && fields.count(k) != 0; }
    const Json &operator[](const std::string &k) const { return fields.at(k); }
};

class JsonParser {
  public:
    // Owns its text: a parser of f.read()'s temporary must not read a destroyed string.
    explicit JsonParser(std::string s) : s_(std::move(s)) {}
    bool parse(Json &out) {
        if (!value(out)) return false;
        ws();
        return i_ == s_.size();
    }
    size_t where() const { return i_; }

  private:
    const std::string s_;
    size_t i_ = 0;
    void ws() {
        while (i_ < s_.size() && std::string(" \n\t\r").find(s_[i_]) != std::string::npos) i_++;
    }
    bool lit(const char *w) {
        size_t n = std::char_traits<char>::length(w);
        if (s_.compare(i_, n, w) != 0) return false;
        i_ += n;
        return true;
    }
    bool string(std::string &out) {
        if (i_ >= s_.size() || s_[i_] != '"') return false;
        i_++;
        while (i_ < s_.size() && s_[i_] != '"') {
            unsigned char c = static_cast<unsigned char>(s_[i_]);
            if (c < 0x20) return false;  // control characters must be escaped
            if (c == '\\') {
                if (++i_ >= s_.size()) return false;
                char e = s_[i_];
                if (e == 'u') {
                    if (i_ + 4 >= s_.size()) return false;
                    for (int k = 1; k <= 4; k++)
                        if (!isxdigit(static_cast<unsigned char>(s_[i_ + k]))) return false;
                    out += '?';
                    i_ += 4;
                } else if (std::string("\"\\/bfnrt").find(e) != std::string::npos) {
                    out += e;
                } else {
                    return false;
                }
            } else {
                out += static_cast<char>(c);
            }
            i_++;
        }
        if (i_ >= s_.size()) return false;
        i_++;
        return true;
    }
    bool number(double &out) {
        size_t start = i_;
        if (i_ < s_.size() && s_[i_] == '-') i_++;
        if (i_ >= s_.size() || !isdigit(static_cast<unsigned char>(s_[i_]))) return false;
        if (s_[i_] == '0' && i_ + 1 < s_.size() && isdigit(static_cast<unsigned char>(s_[i_ + 1])))
            return false;
        while (i_ < s_.size() && isdigit(static_cast<unsigned char>(s_[i_]))) i_++;
        if (i_ < s_.size() && s_[i_] == '.') {
            i_++;
            if (i_ >= s_.size() || !isdigit(static_cast<unsigned char>(s_[i_]))) return false;
            while (i_ < s_.size() && isdigit(static_cast<unsigned char>(s_[i_]))) i_++;
        }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            i_++;
            if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) i_++;
            if (i_ >= s_.size() || !isdigit(static_cast<unsigned char>(s_[i_]))) return false;
            while (i_ < s_.size() && isdigit(static_cast<unsigned char>(s_[i_]))) i_++;
        }
        out = std::strtod(s_.substr(start, i_ - start).c_str(), nullptr);
        return std::isfinite(out);
    }
    bool value(Json &out) {
        ws();
        if (i_ >= s_.size()) return false;
        char c = s_[i_];
        if (c == '{') {
            out.kind = Json::Object;
            i_++;
            ws();
            if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
            for (;;) {
                ws();
                std::string k;
                if (!string(k)) return false;
                if (out.fields.count(k)) return false;  // duplicate key
                ws();
                if (i_ >= s_.size() || s_[i_++] != ':') return false;
                if (!value(out.fields[k])) return false;
                ws();
                if (i_ < s_.size() && s_[i_] == ',') { i_++; continue; }
                if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
                return false;
            }
        }
        if (c == '[') {
            out.kind = Json::Array;
            i_++;
            ws();
            if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
            for (;;) {
                out.items.emplace_back();
                if (!value(out.items.back())) return false;
                ws();
                if (i_ < s_.size() && s_[i_] == ',') { i_++; continue; }
                if (i_ < s_.size() && s_[i_] == ']') return ++i_, true;
                return false;
            }
        }
        if (c == '"') return out.kind = Json::String, string(out.str);
        if (lit("true")) return out.kind = Json::Bool, out.b = true, true;
        if (lit("false")) return out.kind = Json::Bool, out.b = false, true;
        if (lit("null")) return out.kind = Json::Null, true;
        out.kind = Json::Number;
        return number(out.num);
    }
};

// ---- running the program ----
using ckt::Result;

Result ckernel(const std::string &args, const std::string &env = "") {
    return ckt::run_shell(env + (env.empty() ? "" : " ") + CK_CLI_PATH + " " + args);
}

struct TempFile {
    std::string path;
    TempFile() {
        char tmpl[] = "/tmp/ck_bench_test_XXXXXX";
        int fd = mkstemp(tmpl);
        if (fd >= 0) close(fd);
        path = tmpl;
    }
    ~TempFile() { std::remove(path.c_str()); }
    std::string read() const {
        std::ifstream f(path);
        std::stringstream ss;
        ss << f.rdbuf();
        return ss.str();
    }
};

// Runs bench with `args` and --json, expects status 0, and parses the JSON.
Json run_json(const std::string &args, Result *res = nullptr) {
    TempFile f;
    Result r = ckernel("bench " + args + " --json " + f.path);
    EXPECT_EQ(r.status, 0) << r.out;
    if (res) *res = r;
    std::string text = f.read();
    Json j;
    JsonParser p(text);
    EXPECT_TRUE(p.parse(j)) << "invalid JSON near byte " << p.where() << ":\n" << text;
    return j;
}

bool is_number_or_null(const Json &j) { return j.kind == Json::Number || j.kind == Json::Null; }

// Every result carries the fields with the right kinds; a `threaded` workload's
// rows run on 1 or 2 threads, every other on 1.
void check_result(const Json &r, bool threaded = false) {
    ASSERT_EQ(r.kind, Json::Object);
    for (const char *k : {"workload", "target", "threads", "elements", "gb_per_s",
                          "ratio_memcpy", "ratio_loop", "verified"}) {
        ASSERT_TRUE(r.has(k)) << "missing " << k;
    }
    const std::string w = r["workload"].str;
    EXPECT_EQ(r["workload"].kind, Json::String);
    EXPECT_EQ(r["target"].kind, Json::String);
    ck_cpu_target parsed;
    EXPECT_EQ(ck_cpu_target_parse(r["target"].str.c_str(), &parsed), CK_OK) << r["target"].str;
    EXPECT_EQ(r["threads"].kind, Json::Number);
    if (threaded) {
        EXPECT_TRUE(r["threads"].num == 1.0 || r["threads"].num == 2.0) << r["threads"].num;
    } else {
        EXPECT_EQ(r["threads"].num, 1.0);
    }
    EXPECT_EQ(r["elements"].kind, Json::Number);
    EXPECT_GT(r["elements"].num, 0.0);
    const bool select = w.rfind("select/", 0) == 0;
    const bool compile = w.rfind("jit/compile/", 0) == 0;  // JIT kernel builds
    const bool ms = w == "jit/compile/first" || w == "jit/compile/steady";
    const bool per_op =
        w.rfind("small/", 0) == 0 || w.rfind("build/", 0) == 0 || select || compile;
    const char *time_key = ms ? "ms_per_op" : per_op ? "ns_per_op" : "ns_per_elem";
    ASSERT_TRUE(r.has(time_key)) << w << " lacks " << time_key;
    for (const char *other : {"ns_per_elem", "ns_per_op", "ms_per_op"}) {
        if (std::string(other) != time_key) {
            EXPECT_FALSE(r.has(other)) << w << " " << other;
        }
    }
    EXPECT_EQ(r[time_key].kind, Json::Number) << w;
    EXPECT_GE(r[time_key].num, 0.0);
    EXPECT_TRUE(is_number_or_null(r["gb_per_s"]));
    EXPECT_TRUE(is_number_or_null(r["ratio_memcpy"]));
    EXPECT_TRUE(is_number_or_null(r["ratio_loop"]));
    const bool build = w.rfind("build/", 0) == 0;
    EXPECT_EQ(r.has("heap_allocs"), build) << w;
    // jit/<case>/jit and expr/<case>/jit: the ratio to the composed kernel and its compile,
    // nowhere else.
    const bool jit_pair = (w.rfind("jit/", 0) == 0 || w.rfind("expr/", 0) == 0) && !compile &&
                          ((w.size() > 4 && w.compare(w.size() - 4, 4, "/jit") == 0) ||
                           w.find("/jit/") != std::string::npos);
    // (expr/dotsum/jit's sum of products is the dot leaf: nothing is compiled)
    const bool compiles = jit_pair && w != "expr/dotsum/jit";
    EXPECT_EQ(r.has("ratio_composed"), jit_pair) << w;
    EXPECT_EQ(r.has("compile_ms"), compiles) << w;
    if (jit_pair) {
        EXPECT_EQ(r["ratio_composed"].kind, Json::Number) << w;
        EXPECT_GT(r["ratio_composed"].num, 0.0) << w;
    }
    if (compiles && r.has("compile_ms")) {
        EXPECT_EQ(r["compile_ms"].kind, Json::Number) << w;
        EXPECT_GE(r["compile_ms"].num, 0.0) << w;
    }
    if (build || select || compile) {  // no data moved: no bandwidth, no ratios
        EXPECT_EQ(r["gb_per_s"].kind, Json::Null) << w;
        EXPECT_EQ(r["ratio_memcpy"].kind, Json::Null) << w;
        EXPECT_EQ(r["ratio_loop"].kind, Json::Null) << w;
    } else {  // everything that moves data has all three figures
        EXPECT_EQ(r["gb_per_s"].kind, Json::Number) << w;
        EXPECT_EQ(r["ratio_memcpy"].kind, Json::Number) << w;
        EXPECT_EQ(r["ratio_loop"].kind, Json::Number) << w;
    }
    EXPECT_EQ(r["verified"].kind, Json::Bool);
    EXPECT_TRUE(r["verified"].b) << w;
}

TEST(BenchCli, Help) {
    Result r = ckernel("bench --help");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("usage: ckernel bench [--quick] [--json FILE] [--filter SUBSTR] "
                          "[--target T] [--repeat N]\n",
                          0),
              0u)
        << r.out;
    r = ckernel("--help");
    EXPECT_NE(r.out.find("  bench "), std::string::npos) << r.out;
}

TEST(BenchCli, UsageErrorsExitWithStatus2) {
    for (const char *args :
         {"--bogus", "--quick extra", "--repeat 0", "--repeat 1001", "--repeat x", "--repeat",
          "--repeat=-3", "--target sse9", "--target", "--json", "--filter",
          "--filter no-such-workload-name", "-q", "--clock", "--clock gpu", "--clock=CPU"}) {
        Result r = ckernel(std::string("bench ") + args);
        EXPECT_EQ(r.status, 2) << args << ": " << r.out;
        EXPECT_NE(r.out.find("ckernel: usage error: "), std::string::npos) << args << r.out;
        EXPECT_NE(r.out.find("Try 'ckernel bench --help'."), std::string::npos) << args;
    }
}

TEST(BenchCli, UnwritableJsonIsAnError) {
    Result r = ckernel("bench --filter small/1 --repeat 1 --json /nonexistent-dir/x.json");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("cannot write /nonexistent-dir/x.json"), std::string::npos) << r.out;
}

TEST(BenchCli, JsonHasMachineBuildAndEveryField) {
    Result r;
    Json j = run_json("--filter small/ --repeat 1", &r);
    ASSERT_EQ(j.kind, Json::Object);
    for (const char *k : {"version", "machine", "build", "results"}) {
        ASSERT_TRUE(j.has(k)) << k;
    }
    EXPECT_EQ(j["version"].str, ck_version_string());
    EXPECT_EQ(j["machine"].kind, Json::Object);
    for (const char *k : {"cpu", "cores", "detected_target", "compiled_targets"}) {
        EXPECT_TRUE(j["machine"].has(k)) << k;
    }
    EXPECT_EQ(j["machine"]["detected_target"].str,
              ck_cpu_target_name(ck_cpu_detected_target()));
    // The bench process reads the same threshold (environment and cache) as this one.
    ASSERT_TRUE(j["machine"].has("streaming_min_bytes"));
    if (ck_get_streaming_threshold() == SIZE_MAX) {
        EXPECT_EQ(j["machine"]["streaming_min_bytes"].kind, Json::Null);
    } else {
        EXPECT_EQ(j["machine"]["streaming_min_bytes"].num,
                  static_cast<double>(ck_get_streaming_threshold()));
    }
    EXPECT_EQ(j["build"].kind, Json::Object);
    EXPECT_EQ(j["build"]["options"].str, ck_build_options());
    EXPECT_EQ(j["build"]["version"].str, ck_version_string());
    ASSERT_EQ(j["results"].kind, Json::Array);
    ASSERT_EQ(j["results"].items.size(), 3u);  // small/1, small/10, small/100
    for (const Json &res : j["results"].items) {
        check_result(res);
        EXPECT_EQ(res["workload"].str.rfind("small/", 0), 0u);
    }
    // The table says the same.
    EXPECT_NE(r.out.find("small/100"), std::string::npos);
    EXPECT_NE(r.out.find("machine: "), std::string::npos);
}

// --clock cpu is said in the table's header and the JSON's settings; wall is the default.
TEST(BenchCli, TheClockIsChosenAndSaid) {
    Result r;
    Json j = run_json("--filter small/1 --repeat 1 --clock cpu", &r);
    ASSERT_TRUE(j.has("settings"));
    EXPECT_EQ(j["settings"]["clock"].str, "cpu");
    EXPECT_NE(r.out.find("of the thread's CPU time (--clock cpu"), std::string::npos) << r.out;
    ASSERT_EQ(j["results"].kind, Json::Array);
    EXPECT_EQ(j["results"].items.size(), 3u);
    j = run_json("--filter small/1 --repeat 1", &r);
    EXPECT_EQ(j["settings"]["clock"].str, "wall");
    EXPECT_EQ(r.out.find("--clock cpu"), std::string::npos) << r.out;
    j = run_json("--filter small/1 --repeat 1 --clock=wall", &r);
    EXPECT_EQ(j["settings"]["clock"].str, "wall");
}

TEST(BenchCli, FilterSelectsByName) {
    Json j = run_json("--filter small/1 --repeat 1");
    ASSERT_EQ(j["results"].kind, Json::Array);
    std::vector<std::string> names;
    for (const Json &r : j["results"].items) names.push_back(r["workload"].str);
    EXPECT_EQ(names, (std::vector<std::string>{"small/1", "small/10", "small/100"}));
    j = run_json("--filter=small/10 --repeat 1");
    names.clear();
    for (const Json &r : j["results"].items) names.push_back(r["workload"].str);
    EXPECT_EQ(names, (std::vector<std::string>{"small/10", "small/100"}));
}

TEST(BenchCli, BuildReportsHeapAllocationsPerBuild) {
    Json j = run_json("--filter build/3-level --repeat 1");
    ASSERT_EQ(j["results"].items.size(), 1u);
    const Json &r = j["results"].items[0];
    check_result(r);
    ASSERT_TRUE(r.has("heap_allocs"));
    EXPECT_EQ(r["heap_allocs"].num, 0.0);  // docs/design.md §9: inline builds allocate nothing
    EXPECT_EQ(r["gb_per_s"].kind, Json::Null);
    EXPECT_TRUE(r.has("ns_per_op"));
}

TEST(BenchCli, SelectionIsTimedPerOperation) {
    Json j = run_json("--filter select/ --repeat 1");
    ASSERT_EQ(j["results"].kind, Json::Array);
    std::vector<std::string> names;
    for (const Json &r : j["results"].items) {
        check_result(r);  // ns_per_op, no ratios, verified: the expected signature
        names.push_back(r["workload"].str);
        EXPECT_EQ(r["loop_ns_per_op"].kind, Json::Null);
        EXPECT_EQ(r["memcpy_gb_per_s"].kind, Json::Null);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"select/warm", "select/cold"}));
}

TEST(BenchCli, NumberTextIsTimedPerValueAgainstTheCLibrary) {
    Json j = run_json("--filter text/p --repeat 1");
    ASSERT_EQ(j["results"].kind, Json::Array);
    std::vector<std::string> names;
    for (const Json &r : j["results"].items) {
        check_result(r);  // ns_per_elem (per value), GB/s, both ratios, verified
        names.push_back(r["workload"].str);
        EXPECT_EQ(r["elements"].num, 1000000.0);
        EXPECT_EQ(r["loop_ns_per_elem"].kind, Json::Number);  // snprintf("%.17g") / strtod
    }
    EXPECT_EQ(names, (std::vector<std::string>{"text/print/float64", "text/parse/float64"}));
}

TEST(BenchCli, TextCastsAreTimedPerValueAgainstPlainLoops) {
    Json j = run_json("--filter text/cast/ --repeat 1");
    ASSERT_EQ(j["results"].kind, Json::Array);
    std::vector<std::string> names;
    for (const Json &r : j["results"].items) {
        check_result(r);  // ns_per_elem (per value), GB/s, both ratios, verified
        names.push_back(r["workload"].str);
        EXPECT_EQ(r["elements"].num, 1048576.0);  // issue 27's 1 Mi values
        EXPECT_EQ(r["loop_ns_per_elem"].kind, Json::Number);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"text/cast/U32->float64", "text/cast/float64->U32",
                                               "text/cast/int64->U21", "text/cast/U21->int64",
                                               "text/cast/string->float64",
                                               "text/cast/datetime64[s]->U32",
                                               "text/cast/U32->datetime64[s]"}));
}

TEST(BenchCli, ElementwiseAddHasEveryFigure) {
    Json j = run_json("--filter elementwise/add/ --repeat 1");
    ASSERT_EQ(j["results"].kind, Json::Array);
    std::vector<std::string> names;
    for (const Json &r : j["results"].items) {
        check_result(r);  // ns_per_elem, GB/s, both ratios, verified against the plain loop
        names.push_back(r["workload"].str);
        EXPECT_EQ(r["threads"].num, 1.0);
        EXPECT_EQ(r["loop_ns_per_elem"].kind, Json::Number);
        EXPECT_EQ(r["memcpy_gb_per_s"].kind, Json::Number);
    }
    EXPECT_EQ(names, (std::vector<std::string>{
                         "elementwise/add/float64/contiguous", "elementwise/add/float64/broadcast",
                         "elementwise/add/float64/var", "elementwise/add/int32+float64"}));
}

TEST(BenchCli, StructWorkloadsHaveEveryFigure) {
    Json j = run_json("--filter struct/ --repeat 1");
    ASSERT_EQ(j["results"].kind, Json::Array);
    std::vector<std::string> names;
    for (const Json &r : j["results"].items) {
        check_result(r);  // ns_per_elem, GB/s, both ratios, verified against the plain loop
        names.push_back(r["workload"].str);
        EXPECT_EQ(r["elements"].num, 10.0 * 1024 * 1024);
        EXPECT_EQ(r["loop_ns_per_elem"].kind, Json::Number);
        EXPECT_EQ(r["memcpy_gb_per_s"].kind, Json::Number);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"struct/copy-identical", "struct/cast-fields"}));
    EXPECT_EQ(j["errors"].items.size(), 0u);
}

// The expr/... workloads: the composed ones always run (expr/fma3/composed on 1 and 2
// threads), each verified against its plain loop; the jit ones run, or are skipped with the reason (no JIT, or the JIT does not
// compile the expression), never failed.
TEST(BenchCli, ExprWorkloadsRunOrAreSkipped) {
    Result r;
    Json j = run_json("--filter expr/ --quick --repeat 1", &r);
    ASSERT_EQ(j["results"].kind, Json::Array);
    std::vector<std::string> names, skipped;
    for (const Json &res : j["results"].items) {
        check_result(res, res["workload"].str == "expr/fma3/composed");
        names.push_back(res["workload"].str);
    }
    for (const Json &s : j["skipped"].items) {
        skipped.push_back(s["workload"].str);
        EXPECT_TRUE(s["reason"].str.rfind("JIT: ", 0) == 0 ||
                    s["reason"].str.rfind("the JIT did not compile the expression: ", 0) == 0)
            << s["reason"].str;
        EXPECT_NE(r.out.find("skipped: " + s["reason"].str), std::string::npos) << r.out;
    }
    for (const char *w : {"expr/mixed/composed", "expr/var/composed", "expr/linear/composed",
                          "expr/trig/composed", "expr/where/composed", "expr/gauss/composed",
                          "expr/logic/composed"}) {
        EXPECT_EQ(std::count(names.begin(), names.end(), w), 1) << w;
    }
    // expr/fma3/composed runs on 1 and 2 threads (ck_parallel_expr), both verified.
    std::vector<double> fma3_threads;
    for (const Json &res : j["results"].items) {
        if (res["workload"].str == "expr/fma3/composed") fma3_threads.push_back(res["threads"].num);
    }
    EXPECT_EQ(fma3_threads, (std::vector<double>{1.0, 2.0}));
    for (const char *w : {"expr/fma3/jit", "expr/poly/jit", "expr/linear/jit", "expr/trig/jit",
                          "expr/trig/jit/2threads", "expr/where/jit", "expr/gauss/jit",
                          "expr/logic/jit", "expr/dotsum/jit"}) {
        EXPECT_EQ(std::count(names.begin(), names.end(), w) +
                      std::count(skipped.begin(), skipped.end(), w),
                  1)
            << w;
    }
    EXPECT_EQ(names.size() + skipped.size(), 18u);
    EXPECT_EQ(j["errors"].items.size(), 0u);
}

// The jit/... workloads: every result checked, and with no JIT (a build without LLVM, or
// CKERNEL_JIT=0) the ones that need it are skipped with the reason, the run still succeeds.
const std::vector<std::string> kJitComposed = {"jit/small-inner/composed",
                                               "jit/add-int32+float64/composed"};
const std::vector<std::string> kJitNeeding = {"jit/small-inner/jit", "jit/add-int32+float64/jit",
                                              "jit/compile/first", "jit/compile/steady",
                                              "jit/compile/cache-hit"};

void check_jit_run(const Json &j, const Result &r, bool available, const std::string &status) {
    ASSERT_EQ(j["results"].kind, Json::Array);
    // The filter "jit/" also matches expr/trig/jit/2threads: the expr/ rows are
    // ExprWorkloadsRunOrAreSkipped's.
    std::vector<std::string> names;
    for (const Json &res : j["results"].items) {
        check_result(res);
        if (res["workload"].str.rfind("expr/", 0) != 0) names.push_back(res["workload"].str);
    }
    std::vector<std::string> skipped;
    for (const Json &s : j["skipped"].items) {
        if (s["workload"].str.rfind("expr/", 0) == 0) continue;
        skipped.push_back(s["workload"].str);
        EXPECT_EQ(s["reason"].str, "JIT: " + status) << s["workload"].str;
        EXPECT_NE(r.out.find(s["workload"].str + " "), std::string::npos) << r.out;
    }
    if (available) {
        EXPECT_EQ(names, (std::vector<std::string>{
                             "jit/small-inner/composed", "jit/small-inner/jit",
                             "jit/add-int32+float64/composed", "jit/add-int32+float64/jit",
                             "jit/compile/first", "jit/compile/steady", "jit/compile/cache-hit"}));
        EXPECT_TRUE(skipped.empty());
    } else {
        EXPECT_EQ(names, kJitComposed);
        EXPECT_EQ(skipped, kJitNeeding);
        EXPECT_NE(r.out.find("skipped: JIT: " + status), std::string::npos) << r.out;
    }
    EXPECT_EQ(j["errors"].items.size(), 0u);
}

TEST(BenchCli, JitPairsAndCompileTimesOrSkippedWithoutAJit) {
    ck_jit_info info;
    ck_jit_get_info(&info);
    Result r;
    Json j = run_json("--filter jit/ --quick --repeat 1", &r);
    check_jit_run(j, r, info.available != 0, info.status);
}

TEST(BenchCli, JitDisabledByTheEnvironmentIsSkippedNotFailed) {
    TempFile f;
    Result r = ckernel("bench --filter jit/ --quick --repeat 1 --json " + f.path, "CKERNEL_JIT=0");
    EXPECT_EQ(r.status, 0) << r.out;
    std::string text = f.read();
    Json j;
    JsonParser p(text);
    ASSERT_TRUE(p.parse(j)) << text;
    check_jit_run(j, r, false, "disabled by CKERNEL_JIT=0");
}

TEST(BenchCli, InCacheRunsOncePerRunnableTargetAndSkipsTheOthers) {
    ck_cpu_target t[CK_NUM_CPU_TARGETS];
    const int n = ckb_runnable_targets(t, CK_NUM_CPU_TARGETS);
    Json j = run_json("--filter 'incache/int32->int32' --repeat 1");
    ASSERT_EQ(j["results"].kind, Json::Array);
    ASSERT_EQ(j["results"].items.size(), static_cast<size_t>(n));
    for (int k = 0; k < n; k++) {
        check_result(j["results"].items[k]);
        EXPECT_EQ(j["results"].items[k]["target"].str, ck_cpu_target_name(t[k]));
    }
    size_t compiled_unsupported = 0;
    for (int k = 0; k < CK_NUM_CPU_TARGETS; k++) {
        compiled_unsupported += ck_cpu_target_compiled(static_cast<ck_cpu_target>(k)) &&
                                k > static_cast<int>(ck_cpu_target_ceiling());
    }
    ASSERT_TRUE(j.has("skipped"));
    EXPECT_EQ(j["skipped"].items.size(), compiled_unsupported);
}

// CKERNEL_CPU_TARGET=baseline is a ceiling for the per-target rows too: every other compiled
// target is skipped, saying why (above the variable, or missing from this CPU), none is run
// at baseline under another target's name.
TEST(BenchCli, TheEnvironmentCapsThePerTargetRows) {
    TempFile f;
    Result r = ckernel("bench --filter 'incache/int32->int32' --repeat 1 --json " + f.path,
                       "CKERNEL_CPU_TARGET=baseline");
    ASSERT_EQ(r.status, 0) << r.out;
    Json j;
    JsonParser p(f.read());
    ASSERT_TRUE(p.parse(j));
    ASSERT_EQ(j["results"].items.size(), 1u);
    EXPECT_EQ(j["results"].items[0]["target"].str, "baseline");
    std::vector<std::string> expect, got;
    for (int k = 1; k < CK_NUM_CPU_TARGETS; k++) {
        const auto t = static_cast<ck_cpu_target>(k);
        if (!ck_cpu_target_compiled(t)) continue;
        expect.push_back(std::string(ck_cpu_target_name(t)) + ": " +
                         (t > ck_cpu_detected_target()
                              ? std::string("compiled, but this CPU lacks it (detected ") +
                                    ck_cpu_target_name(ck_cpu_detected_target()) + ")"
                              : "above CKERNEL_CPU_TARGET=baseline"));
    }
    for (const Json &s : j["skipped"].items) {
        got.push_back(s["target"].str + ": " + s["reason"].str);
    }
    EXPECT_EQ(got, expect);
}

TEST(BenchCli, TargetRunsThereOnly) {
    Json j = run_json("--filter 'incache/int32->float64' --target baseline --repeat 1");
    ASSERT_EQ(j["results"].items.size(), 1u);
    EXPECT_EQ(j["results"].items[0]["target"].str, "baseline");
    // A threaded workload: one result per thread count (1 and 2), both at the target and
    // both checked against the plain loop.
    j = run_json("--filter 'contig/int32->float64' --target baseline --repeat 1");
    ASSERT_EQ(j["results"].items.size(), 2u);
    for (size_t k = 0; k < 2; ++k) {
        EXPECT_EQ(j["results"].items[k]["target"].str, "baseline");
        EXPECT_EQ(j["results"].items[k]["threads"].num, static_cast<double>(k + 1));
        EXPECT_TRUE(j["results"].items[k]["verified"].b);
    }
}

TEST(BenchCli, UnsupportedTargetIsAnError) {
    for (int k = 0; k < CK_NUM_CPU_TARGETS; k++) {
        const auto t = static_cast<ck_cpu_target>(k);
        if (ck_cpu_target_compiled(t) && t <= ck_cpu_detected_target()) continue;
        Result r = ckernel(std::string("bench --filter small/1 --target ") + ck_cpu_target_name(t));
        EXPECT_EQ(r.status, 1) << r.out;
        EXPECT_NE(r.out.find("ckernel: error: CK_ERR_UNSUPPORTED"), std::string::npos) << r.out;
        return;
    }
    GTEST_SKIP() << "every target is compiled and supported here";
}

}  // namespace
#endif
