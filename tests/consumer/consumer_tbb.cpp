// tests/consumer/consumer_tbb.cpp: a C++ program with oneTBB and the installed ckernel.
// Worker threads allocate with new, malloc and ckernel at once, build kernels, and free each
// other's blocks; glibc's heap checks (MALLOC_CHECK_) and the counters must stay clean.
#include <ckernel/ckernel.h>
#include <dlfcn.h>
#include <tbb/concurrent_queue.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Blocks {
    void *ck;
    void *host;
    std::string *obj;
};

int ok_single(ck_prefix *, char *dst, char *const *) {
    *dst = 1;
    return CK_OK;
}

}  // namespace

int main() {
    constexpr int kN = 200000;
    tbb::concurrent_queue<Blocks> queue;
    std::atomic<int> failures{0};

    tbb::parallel_for(0, kN, [&](int i) {
        size_t n = static_cast<size_t>(16 + (i * 7919) % 4000);
        Blocks b{ck_malloc(n), std::malloc(n), new std::string(n % 64, 'x')};
        if (b.ck == nullptr || b.host == nullptr) {
            failures++;
            return;
        }
        std::memset(b.ck, 0xC0, n);
        std::memset(b.host, 0x40, n);
        // A builder that moves to the heap on this worker.
        ck_builder kb;
        ck_builder_init(&kb);
        if (ck_builder_reserve_leaf(&kb, 300 + static_cast<size_t>(i % 1000)) != CK_OK) failures++;
        ck_prefix_set_single(ck_builder_root(&kb), ok_single);
        char out = 0;
        char *src = nullptr;
        if (ck_call_single(ck_builder_root(&kb), &out, &src) != CK_OK || out != 1) failures++;
        ck_builder_destroy(&kb);
        queue.push(b);
        // Free someone else's blocks (pushed by any worker) half the time.
        Blocks other;
        if (i % 2 == 0 && queue.try_pop(other)) {
            ck_free(other.ck);
            std::free(other.host);
            delete other.obj;
        }
    });
    Blocks rest;
    while (queue.try_pop(rest)) {
        ck_free(rest.ck);
        std::free(rest.host);
        delete rest.obj;
    }

    ck_alloc_stats st;
    ck_get_alloc_stats(&st);
    Dl_info info;
    void *m = dlsym(RTLD_DEFAULT, "malloc");
    bool libc_malloc = m != nullptr && dladdr(m, &info) != 0 && info.dli_fname != nullptr &&
                       std::strstr(info.dli_fname, "libc.so") != nullptr;
    bool ok = failures.load() == 0 && st.live == 0 && st.allocations >= 2 * kN && libc_malloc;
    std::printf("consumer_tbb: %s (live %lld, allocations %llu, failures %d, malloc in %s)\n",
                ok ? "ok" : "FAILED", static_cast<long long>(st.live),
                static_cast<unsigned long long>(st.allocations), failures.load(),
                m != nullptr && info.dli_fname ? info.dli_fname : "?");
    return ok ? 0 : 1;
}
