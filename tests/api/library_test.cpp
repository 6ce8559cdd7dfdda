// tests/api/library_test.cpp: the shared library as a user sees it: version, exported
// symbols, and that ckernel's allocator stays private to it.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "ckernel/ckernel.h"
#include "ckt.hpp"

namespace {

TEST(Library, VersionMatchesWhatCMakeReadFromTheHeader) {
    // CK_TEST_PROJECT_VERSION comes from CMake's own parse of version.h (project()).
    EXPECT_STREQ(ck_version_string(), CK_TEST_PROJECT_VERSION);
    EXPECT_STREQ(ck_version_string(), CK_VERSION_STRING);
    EXPECT_EQ(ck_version_number(),
              static_cast<unsigned>(CK_VERSION_MAJOR * 10000 + CK_VERSION_MINOR * 100 +
                                    CK_VERSION_PATCH));
    EXPECT_NE(std::strstr(ck_build_options(), "build="), nullptr);
}

TEST(Library, OnlyThePublicApiIsExported) {
    void *self = dlopen(nullptr, RTLD_NOW);
    ASSERT_NE(self, nullptr);
    EXPECT_NE(dlsym(self, "ck_builder_init"), nullptr);
    EXPECT_NE(dlsym(self, "ck_last_error"), nullptr);
    // Internals are hidden, and nothing of jemalloc leaks out of libckernel.
    EXPECT_EQ(dlsym(self, "ck__malloc"), nullptr);
    EXPECT_EQ(dlsym(self, "mallocx"), nullptr);
    EXPECT_EQ(dlsym(self, "je_malloc"), nullptr);
    EXPECT_EQ(dlsym(self, "malloc_stats_print"), nullptr);
    dlclose(self);
}

TEST(Library, TheProcessMallocIsStillTheCLibrarys) {
    Dl_info info;
    void *(*process_malloc)(size_t) = &std::malloc;
    ASSERT_NE(dladdr(reinterpret_cast<void *>(process_malloc), &info), 0);
    ASSERT_NE(info.dli_fname, nullptr);
    std::string where = info.dli_fname;
    // Sanitizer builds interpose malloc in the test executable itself; never in libckernel.
    EXPECT_EQ(where.find("libckernel"), std::string::npos) << where;
    void *next = dlsym(RTLD_DEFAULT, "malloc");
    ASSERT_NE(next, nullptr);
    ASSERT_NE(dladdr(next, &info), 0);
    EXPECT_EQ(std::string(info.dli_fname).find("libckernel"), std::string::npos)
        << info.dli_fname;
}

// The host's heap and ckernel's are separate, and both stay sound when used together from
// many threads: malloc/new blocks and ckernel blocks interleaved, freed on other threads.
TEST(Library, HostAndCkernelHeapsInterleaveAcrossThreads) {
    constexpr int kThreads = 8, kPer = 3000;
    std::vector<std::vector<void *>> mine(kThreads), host(kThreads);
    std::vector<std::vector<std::string *>> objs(kThreads);
    std::vector<std::thread> ts;
    for (int t = 0; t < kThreads; ++t)
        ts.emplace_back([&, t] {
            for (int i = 0; i < kPer; ++i) {
                size_t n = static_cast<size_t>(8 + (i * 131 + t * 7) % 3000);
                void *a = ck_malloc(n);
                void *b = std::malloc(n);
                ASSERT_NE(a, nullptr);
                ASSERT_NE(b, nullptr);
                std::memset(a, 1, n);
                std::memset(b, 2, n);
                mine[t].push_back(a);
                host[t].push_back(b);
                objs[t].push_back(new std::string(n % 100, 'q'));
            }
        });
    for (auto &t : ts) t.join();
    ts.clear();
    for (int t = 0; t < kThreads; ++t)
        ts.emplace_back([&, t] {
            int o = (t + 3) % kThreads;
            for (void *p : mine[o]) ck_free(p);
            for (void *p : host[o]) std::free(p);
            for (std::string *s : objs[o]) delete s;
        });
    for (auto &t : ts) t.join();
    EXPECT_EQ(ckt::live_allocations(), 0);
}

}  // namespace
