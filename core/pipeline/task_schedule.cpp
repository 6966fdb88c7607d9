// The task scheduling of the tiled bake: its bake threads on oneTBB, plain threads (under
// ThreadSanitizer) or the game's job system (TaskHook), and their priority.
#include "core/pipeline/pipeline_impl.h"

#include <algorithm>
#include <exception>
#include <thread>

#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace nav {

void lower_thread_priority() {
#if defined(__linux__)
    // per thread on Linux (the nice value belongs to the thread id); raising it needs no privilege
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    const int now = getpriority(PRIO_PROCESS, tid);
    if (now < 10) setpriority(PRIO_PROCESS, tid, 10);
#endif
}

namespace {

// Runs `count` copies of worker on the caller's job system (TaskHook). An exception stays on our
// side of the hook: the first one a copy throws is kept and rethrown here once all have returned.
void run_on_hook(const TaskHook& hook, int count, const std::function<void()>& worker) {
    struct Job {
        const std::function<void()>* worker = nullptr;
        std::mutex m;
        std::exception_ptr error;
    } job;
    job.worker = &worker;
    void (*task)(void*) = [](void* ctx) {
        Job& j = *static_cast<Job*>(ctx);
        try {
            (*j.worker)();
        } catch (...) {
            std::lock_guard lk(j.m);
            if (!j.error) j.error = std::current_exception();
        }
    };
    if (void* handle = hook.enqueue(task, &job, count, hook.user)) hook.wait(handle, hook.user);
    else task(&job);  // the job system ran nothing: run the worker here (it empties the queue)
    if (job.error) std::rethrow_exception(job.error);
}

}  // namespace

void run_workers(const TaskHook& hook, int threads, const std::function<void()>& worker) {
    if (hook.set()) {
        run_on_hook(hook, std::max(1, threads), worker);
        return;
    }
#if defined(__SANITIZE_THREAD__)
    // ThreadSanitizer cannot see inside the uninstrumented libtbb (its task pool recycles
    // memory and hands tasks over unseen, so every tiled bake reports false races). Under it
    // the same work queue runs on plain threads, so the reports left are about our code.
    std::vector<std::thread> pool;
    for (int k = 1; k < std::max(1, threads); ++k) pool.emplace_back(worker);
    worker();
    for (std::thread& th : pool) th.join();
#else
    tbb::task_arena arena(std::max(1, threads));
    arena.execute([&] { tbb::parallel_for(0, arena.max_concurrency(), [&](int) { worker(); }); });
#endif
}

}  // namespace nav
