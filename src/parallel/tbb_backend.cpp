// src/parallel/tbb_backend.cpp: the oneTBB backend of parallel evaluation, the library's only
// C++. A thin extern "C" shim: the front end (parallel.c) has planned the job; this runs its
// blocks with tbb::parallel_for in a task arena of its own, isolated, and turns the first
// failure (or any C++ exception) into a ck status with its message on the calling thread.
// No exception ever leaves this file.
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>
#include <oneapi/tbb/version.h>

#include <atomic>
#include <cfenv>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "ckernel/status.h"
#include "parallel/parallel_internal.h"

namespace {

// What the tasks of one call share. Lives on the calling thread's stack for the call.
struct run_state {
    const ck__par_job *job = nullptr;
    tbb::task_group_context *group = nullptr;
    std::atomic<int> status{CK_OK};
    // Written once, by the task that won the compare-exchange on `status`; read by the
    // caller after parallel_for has returned (which waits for every task).
    char message[CK__PAR_MESSAGE_BYTES] = {};
    char done = 0; // the address tasks release to (ThreadSanitizer annotations only)
    // The exception flags the ranges raised (FE_*), for the caller's: a task keeps its
    // thread's own flags as they were.
    std::atomic<int> raised{0};
};

// First error wins: the winner copies its thread-local message out and cancels the group.
void record_failure(run_state &st, int rc) {
    int expected = CK_OK;
    if (!st.status.compare_exchange_strong(expected, rc, std::memory_order_acq_rel)) {
        return; // another range failed first
    }
    const char *msg = ck_last_status() == rc ? ck_last_error() : "";
    if (msg[0] == '\0') {
        msg = ck_status_message(rc); // the kernel set no message of its own
    }
    std::snprintf(st.message, sizeof st.message, "%s", msg);
    st.group->cancel_group_execution();
}

// The call whose range this thread is running, for ck_parallel_cancelled(); null outside a
// range. Saved and restored around each range, so a nested call sees its own state.
// (A thread_local of a shared library: dynamic TLS, nothing reserved at load time.)
thread_local run_state *current_run = nullptr;

// One task: blocks [r.begin(), r.end()) of the job, one kernel call per block so that a
// failure elsewhere stops this range at the next block boundary.
struct range_body {
    run_state *st;

    void operator()(const tbb::blocked_range<std::size_t> &r) const {
        CK__PAR_HB_ACQUIRE(st);
        run_state *const outer = current_run;
        current_run = st;
        if (st->status.load(std::memory_order_relaxed) == CK_OK) {
            const ck__par_job &job = *st->job;
            const std::size_t begin = r.begin() * job.grain;
            const std::size_t end =
                r.end() > job.count / job.grain ? job.count : r.end() * job.grain;
            std::fexcept_t held;
            std::fegetexceptflag(&held, FE_ALL_EXCEPT);
            std::feclearexcept(FE_ALL_EXCEPT);
            const ck__fp_env env = ck__par_fpenv_enter(job.fp_mode);
            for (std::size_t pos = begin; pos < end;) {
                const std::size_t stop = end - pos > job.grain ? pos + job.grain : end;
                const int rc = ck__par_run_piece(&job, pos, stop);
                if (rc != CK_OK) {
                    record_failure(*st, rc);
                    break;
                }
                if (st->status.load(std::memory_order_relaxed) != CK_OK) {
                    break;
                }
                pos = stop;
            }
            ck__par_fpenv_leave(env);
            const int raised = std::fetestexcept(FE_ALL_EXCEPT);
            std::fesetexceptflag(&held, FE_ALL_EXCEPT);
            if (raised != 0) st->raised.fetch_or(raised, std::memory_order_relaxed);
        }
        current_run = outer;
        CK__PAR_HB_RELEASE(&st->done);
    }
};

// Idle task arenas, by concurrency. A call takes an arena for itself alone and gives it
// back when it returns, so every call (a nested one too) still runs in an arena of its own,
// but arenas are not created and destroyed per call: oneTBB moves its workers out of a
// destroyed arena lazily, and back-to-back calls on fresh arenas were measured to get no
// worker help for up to ~0.8 s on a loaded 2-core machine (a reused arena: ~20 ms). The
// mutex is taken twice per call, never per block. The pool is never destroyed (arenas must
// not be torn down during static destruction, after oneTBB's own state may be gone); it is
// reachable from a static, so leak checkers do not report it.
class arena_pool {
  public:
    static arena_pool &get() {
        static arena_pool *const pool = new arena_pool;
        return *pool;
    }
    // An idle arena of `n` threads, or a new one. May throw (bad_alloc).
    tbb::task_arena *take(int n) {
        {
            std::lock_guard<std::mutex> lock(mu_);
            for (std::size_t i = idle_.size(); i-- > 0;) {
                if (idle_[i].first == n) {
                    tbb::task_arena *a = idle_[i].second;
                    idle_.erase(idle_.begin() + static_cast<std::ptrdiff_t>(i));
                    return a;
                }
            }
        }
        return new tbb::task_arena(n);
    }
    void give(tbb::task_arena *a, int n) noexcept {
        try {
            std::lock_guard<std::mutex> lock(mu_);
            if (idle_.size() < kMaxIdle) {
                idle_.emplace_back(n, a);
                return;
            }
        } catch (...) {
            // no room to keep it: destroy it below
        }
        delete a;
    }

  private:
    static constexpr std::size_t kMaxIdle = 16;
    std::mutex mu_;
    std::vector<std::pair<int, tbb::task_arena *>> idle_;
};

// Gives the arena back however the call ends.
class arena_lease {
  public:
    explicit arena_lease(int n) : n_(n), a_(arena_pool::get().take(n)) {}
    ~arena_lease() { arena_pool::get().give(a_, n_); }
    arena_lease(const arena_lease &) = delete;
    arena_lease &operator=(const arena_lease &) = delete;
    tbb::task_arena &arena() { return *a_; }

  private:
    int n_;
    tbb::task_arena *a_;
};

int run(const ck__par_job *job) {
    run_state st;
    st.job = job;
    // Isolated: cancelling this call never reaches an enclosing call's group, nor the reverse,
    // so a nested call always finishes its own work and reports its own status.
    // fp_settings: the group captures the calling thread's floating-point settings and oneTBB
    // applies them on every worker that runs its tasks, restoring the worker's own
    // afterwards; each task then enters the job's mode (the IEEE default, or the caller's
    // under CK_EVAL_HOST_FP_ENV), so results do not depend on which thread ran a range.
    tbb::task_group_context group(tbb::task_group_context::isolated,
                                  tbb::task_group_context::default_traits |
                                      tbb::task_group_context::fp_settings);
    st.group = &group;
    const std::size_t blocks = job->count / job->grain + (job->count % job->grain != 0 ? 1 : 0);

    // An arena of its own, limited to job->threads (the calling thread plus up to
    // job->threads - 1 workers) and to what oneTBB allows at all (more would only make it
    // print a warning), and isolation inside it: while this thread waits for the blocks, it
    // only ever runs tasks of this call. A kernel that itself calls ck_parallel_* from a task
    // therefore cannot pick up (and block under) outer work.
    int threads = job->threads;
    const std::size_t allowed =
        tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
    if (allowed >= 1 && static_cast<std::size_t>(threads) > allowed) {
        threads = static_cast<int>(allowed);
    }
    arena_lease lease(threads);
    CK__PAR_HB_RELEASE(&st);
    lease.arena().execute([&] {
        tbb::this_task_arena::isolate([&] {
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, blocks, 1), range_body{&st},
                              tbb::auto_partitioner(), group);
        });
    });
    CK__PAR_HB_ACQUIRE(&st.done);
    // The flags the work raised, on whichever thread, are the caller's (as after a serial
    // call).
    const int raised = st.raised.load(std::memory_order_relaxed);
    if (raised != 0) std::feraiseexcept(raised);

    const int rc = st.status.load(std::memory_order_acquire);
    if (rc != CK_OK) {
        return ck_set_error(rc, "%s", st.message);
    }
    if (group.is_group_execution_cancelled()) {
        return ck_set_error(CK_ERR_INTERNAL, "parallel evaluation: oneTBB cancelled the work "
                                             "without a failing range");
    }
    return CK_OK;
}

} // namespace

extern "C" int ck__par_backend_run(const ck__par_job *job) {
    try {
        return run(job);
    } catch (const std::bad_alloc &) {
        return ck_set_error(CK_ERR_NOMEM, "parallel evaluation: oneTBB ran out of memory");
    } catch (const std::exception &e) {
        return ck_set_error(CK_ERR_INTERNAL, "parallel evaluation: oneTBB raised an exception: %s",
                            e.what());
    } catch (...) {
        return ck_set_error(CK_ERR_INTERNAL, "parallel evaluation: oneTBB raised an unknown "
                                             "exception");
    }
}

extern "C" int ck__par_backend_cancelled(void) {
    // Acquire: a kernel that sees the failure here sees it in every later check of its
    // thread too, so its range stops at the next block boundary.
    const run_state *st = current_run;
    return st != nullptr && st->status.load(std::memory_order_acquire) != CK_OK;
}

extern "C" int ck__par_backend_hardware_threads(void) {
    try {
        return tbb::info::default_concurrency();
    } catch (...) {
        return 1;
    }
}

extern "C" int ck__par_backend_is_parallel(void) {
    return 1;
}

extern "C" const char *ck__par_backend_name(void) {
    // The version of the libtbb loaded at run time, which may differ from the headers'.
    static const struct name_buf {
        char text[64];
        name_buf() noexcept : text() {
            const char *v = TBB_runtime_version();
            std::snprintf(text, sizeof text, "oneTBB %s", v != nullptr ? v : TBB_VERSION_STRING);
        }
    } name;
    return name.text;
}
