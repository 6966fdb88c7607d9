// The tiled bake on a game's own job system (PipelineDef::task_hook, Box2D v3's enqueueTask /
// finishTask): the test's own small thread pool runs the bake workers, and the result is
// byte-identical to the default oneTBB bake.
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "test_scenes.h"

using namespace nav;

namespace {

// A minimal job system: a fixed set of std::threads taking jobs from a queue. A batch (one
// enqueue) counts its jobs down; waiting on its handle blocks until they have all run.
class ThreadPool {
public:
    explicit ThreadPool(int n) {
        for (int i = 0; i < n; ++i) threads_.emplace_back([this] { loop(); });
    }
    ~ThreadPool() {
        {
            std::lock_guard lk(m_);
            stop_ = true;
        }
        cv_.notify_all();
        for (std::thread& t : threads_) t.join();
    }
    struct Batch {
        std::mutex m;
        std::condition_variable cv;
        int left = 0;
    };
    std::shared_ptr<Batch> submit(void (*task)(void*), void* ctx, int count) {
        auto b = std::make_shared<Batch>();
        b->left = count;
        {
            std::lock_guard lk(m_);
            for (int i = 0; i < count; ++i)
                jobs_.push_back([b, task, ctx] {
                    task(ctx);
                    std::lock_guard lk2(b->m);
                    if (--b->left == 0) b->cv.notify_all();
                });
        }
        cv_.notify_all();
        return b;
    }
    static void wait(Batch& b) {
        std::unique_lock lk(b.m);
        b.cv.wait(lk, [&] { return b.left == 0; });
    }
    std::atomic<int> enqueued{0}, waited{0}, tasks_run{0};
    std::mutex ids_m;
    std::vector<std::thread::id> task_threads;  // the threads the tasks ran on

private:
    void loop() {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock lk(m_);
                cv_.wait(lk, [&] { return stop_ || !jobs_.empty(); });
                if (jobs_.empty()) return;
                job = std::move(jobs_.front());
                jobs_.pop_front();
            }
            job();
        }
    }
    std::vector<std::thread> threads_;
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> jobs_;
    bool stop_ = false;
};

// The hook's functions over a ThreadPool (user = the pool); each task records the thread it ran on.
struct Counted {
    void (*task)(void*);
    void* ctx;
    ThreadPool* pool;
};
TaskHook hook_for(ThreadPool& pool) {
    TaskHook h;
    h.user = &pool;
    h.enqueue = [](void (*task)(void*), void* ctx, int count, void* user) -> void* {
        auto& p = *static_cast<ThreadPool*>(user);
        ++p.enqueued;
        // the wrapper context lives as long as the batch (freed by wait)
        auto* c = new Counted{task, ctx, &p};
        auto batch = p.submit(
            [](void* cc) {
                auto& k = *static_cast<Counted*>(cc);
                ++k.pool->tasks_run;
                {
                    std::lock_guard lk(k.pool->ids_m);
                    k.pool->task_threads.push_back(std::this_thread::get_id());
                }
                k.task(k.ctx);
            },
            c, count);
        return new std::pair<std::shared_ptr<ThreadPool::Batch>, Counted*>(std::move(batch), c);
    };
    h.wait = [](void* handle, void* user) {
        auto* pr = static_cast<std::pair<std::shared_ptr<ThreadPool::Batch>, Counted*>*>(handle);
        ThreadPool::wait(*pr->first);
        ++static_cast<ThreadPool*>(user)->waited;
        delete pr->second;
        delete pr;
    };
    return h;
}

template <class T>
void put(std::string& out, const std::vector<T>& v) {
    const size_t n = v.size();
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    if (n) out.append(reinterpret_cast<const char*>(v.data()), n * sizeof(T));
}
template <class T>
void put_value(std::string& out, const T& v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Every tile's polygon mesh, detail mesh and runtime tile as bytes, in tile order, then the
// assembled navmesh's counts.
std::string bytes_of(const Bake& b) {
    std::string out;
    for (const auto& t : b.tiles) {
        REQUIRE(t);
        put_value(out, t->tx);
        put_value(out, t->tz);
        REQUIRE(t->polymesh);
        const PolyMesh& pm = *t->polymesh;
        put(out, pm.verts), put(out, pm.polys), put(out, pm.regs), put(out, pm.flags), put(out, pm.areas);
        put_value(out, pm.nverts), put_value(out, pm.npolys), put_value(out, pm.nvp);
        REQUIRE(t->detail);
        const PolyMeshDetail& dm = *t->detail;
        put(out, dm.meshes), put(out, dm.verts), put(out, dm.tris);
        put_value(out, dm.nmeshes), put_value(out, dm.nverts), put_value(out, dm.ntris);
        if (!t->tile) {
            out += "no tile";
            continue;
        }
        const NavTile& nt = *t->tile;
        put(out, nt.verts), put(out, nt.poly_first), put(out, nt.edge_vert), put(out, nt.edge_nei);
        put(out, nt.areas), put(out, nt.flags), put(out, nt.detail_first), put(out, nt.detail_tris);
        for (const BVNode& n : nt.bvtree) {
            put_value(out, n.bmin), put_value(out, n.bmax), put_value(out, n.index);
        }
    }
    REQUIRE(b.navmesh);
    put_value(out, b.navmesh->npolys);
    put_value(out, b.navmesh->nislands);
    return out;
}

InputMesh scene() {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 40, 34, 0);
    navtest::add_box(m, 4, 0, 4, 9, 3, 8);
    navtest::add_box(m, 18, 0, 10, 21, 0.5f, 24);
    navtest::add_box(m, 26, 0, 3, 33, 2.5f, 6);
    navtest::add_box(m, 10, 0, 22, 14, 1.0f, 30);
    return m;
}

std::shared_ptr<const Bake> bake(const TaskHook* hook) {
    PipelineDef def = default_pipeline_def();
    if (hook) def.task_hook = *hook;
    Pipeline pipe(def);
    REQUIRE(pipe.set_mesh(scene()));
    REQUIRE(pipe.set_param(ParamId::tile_size, 24));
    REQUIRE(pipe.set_param(ParamId::threads, 2));
    REQUIRE(pipe.run());
    return pipe.snapshot();
}

}  // namespace

TEST_CASE("task hook: a tiled bake on the test's own thread pool is byte-identical to oneTBB's") {
    const auto reference = bake(nullptr);
    REQUIRE(reference->tiles.size() > 4);
    REQUIRE(reference->navmesh);
    CHECK(reference->navmesh->npolys > 0);

    ThreadPool pool(2);
    const TaskHook hook = hook_for(pool);
    const auto hooked = bake(&hook);

    CHECK(pool.enqueued.load() == 1);
    CHECK(pool.waited.load() == 1);
    CHECK(pool.tasks_run.load() == 2);  // threads = 2: two copies of the worker
    {
        std::lock_guard lk(pool.ids_m);
        for (const std::thread::id& id : pool.task_threads) CHECK(id != std::this_thread::get_id());
    }
    CHECK(hooked->tiles.size() == reference->tiles.size());
    CHECK(bytes_of(*hooked) == bytes_of(*reference));
    CHECK(hooked->count("polys") == reference->count("polys"));
}

TEST_CASE("task hook: a job system that runs nothing (null handle) leaves the bake to the calling thread") {
    const auto reference = bake(nullptr);
    static std::atomic<int> calls{0};
    calls = 0;
    TaskHook hook;
    hook.enqueue = [](void (*)(void*), void*, int, void*) -> void* {
        ++calls;
        return nullptr;
    };
    hook.wait = [](void*, void*) { FAIL("wait called for a null handle"); };
    const auto hooked = bake(&hook);
    CHECK(calls.load() == 1);
    CHECK(bytes_of(*hooked) == bytes_of(*reference));
}
