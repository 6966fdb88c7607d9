// The pipeline driven from a second thread, as the debugger's bake worker does: rapid parameter
// changes and cancels while tiles bake on several threads and publish partial snapshots that a
// third party reads. Runs under ThreadSanitizer in scripts/test.sh (preset tsan).
#include <doctest/doctest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "test_scenes.h"

using namespace nav;

namespace {

InputMesh stress_scene() {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 36, 30, 0);
    navtest::add_box(m, 4, 0, 4, 9, 3, 8);
    navtest::add_box(m, 18, 0, 10, 21, 0.5f, 24);
    navtest::add_box(m, 26, 0, 3, 33, 2.5f, 6);
    return m;
}

// Every polygon of every tile, for comparing two bakes.
std::vector<uint16_t> polys_of(const Bake& b) {
    std::vector<uint16_t> out;
    for (const auto& t : b.tiles) {
        REQUIRE(t);
        REQUIRE(t->polymesh);
        out.insert(out.end(), t->polymesh->polys.begin(), t->polymesh->polys.end());
        out.insert(out.end(), t->polymesh->verts.begin(), t->polymesh->verts.end());
    }
    return out;
}

}  // namespace

TEST_CASE("tiles threads: a bake thread under rapid parameter changes and cancels ends on the last request") {
    std::mutex m;
    std::condition_variable cv;
    std::shared_ptr<const Bake> latest;  // what a UI thread would draw
    std::atomic<int> partials{0};
    PipelineDef def = default_pipeline_def();
    def.on_tile = [&](std::shared_ptr<const Bake> b) {
        ++partials;
        std::lock_guard lk(m);
        latest = std::move(b);
    };
    Pipeline pipe(def);
    REQUIRE(pipe.set_mesh(stress_scene()));
    REQUIRE(pipe.set_param(ParamId::tile_size, 24));
    REQUIRE(pipe.set_param(ParamId::threads, 2));

    Params wanted = pipe.params();
    std::vector<ConvexVolume> wanted_volumes;
    uint64_t requested = 1, handled = 0;
    bool quit = false;
    CancelFlag cancel{false};
    std::thread worker([&] {
        for (;;) {
            Params p;
            std::vector<ConvexVolume> vols;
            uint64_t seq;
            {
                std::unique_lock lk(m);
                cv.wait(lk, [&] { return quit || requested != handled; });
                if (quit) return;
                p = wanted;
                vols = wanted_volumes;
                seq = requested;
                cancel.store(false);
            }
            CHECK(pipe.set_input(&nav::BakeInputs::params, p));
            if (vols != pipe.inputs().volumes) CHECK(pipe.set_input(&nav::BakeInputs::volumes, vols));
            pipe.set_focus(static_cast<float>(seq % 36), 15.0f);
            const Status st = pipe.run(kLastStage, &cancel);
            auto snap = pipe.snapshot();
            {
                std::lock_guard lk(m);
                if (st.code != Status::Code::Cancelled) latest = snap;
                handled = seq;
            }
            cv.notify_all();
        }
    });

    // A UI thread: reads the latest snapshot and walks its tiles while bakes run.
    std::atomic<bool> stop_reader{false};
    std::atomic<int64_t> seen_polys{0};
    std::thread reader([&] {
        while (!stop_reader.load()) {
            std::shared_ptr<const Bake> b;
            {
                std::lock_guard lk(m);
                b = latest;
            }
            if (!b) continue;
            int64_t n = 0;
            for (const auto& t : b->tiles)
                if (t && t->polymesh) n += t->polymesh->npolys;
            seen_polys.store(n);
        }
    });

    const double radii[] = {0.3, 0.6, 0.9};
    const int sizes[] = {16, 24, 32};
    for (int i = 0; i < 40; ++i) {
        {
            std::lock_guard lk(m);
            REQUIRE(wanted.set(ParamId::agent_radius, radii[i % 3]));
            REQUIRE(wanted.set(ParamId::region_min_size, 2 + i % 7));
            if (i % 5 == 0) REQUIRE(wanted.set(ParamId::tile_size, sizes[(i / 5) % 3]));
            if (i % 4 == 0) REQUIRE(wanted.set(ParamId::threads, 1 + i % 3));
            if (i % 6 == 0) {
                ConvexVolume v;
                const float x = static_cast<float>(2 + i % 20);
                v.verts = {x, 0, 2, x + 3, 0, 2, x + 3, 0, 6, x, 0, 6};
                v.hmin = -1;
                v.hmax = 1;
                wanted_volumes = {v};
            }
            ++requested;
            cancel.store(true);  // a newer change cancels the rest of the older bake
        }
        cv.notify_all();
        if (i % 3 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    {
        std::unique_lock lk(m);
        cv.wait(lk, [&] { return handled == requested; });
        quit = true;
    }
    cv.notify_all();
    worker.join();
    stop_reader.store(true);
    reader.join();

    const auto last = pipe.snapshot();
    REQUIRE(last->error.is_ok());
    CHECK(last->tiles_done == static_cast<int>(last->tiles.size()));
    CHECK(last->inputs.params == wanted);

    // The same parameters baked fresh, on one thread, give the same polygons.
    Pipeline fresh;
    REQUIRE(fresh.set_mesh(stress_scene()));
    Params p1 = wanted;
    REQUIRE(p1.set(ParamId::threads, 1));
    REQUIRE(fresh.set_input(&nav::BakeInputs::params, p1));
    REQUIRE(fresh.set_input(&nav::BakeInputs::volumes, wanted_volumes));
    REQUIRE(fresh.run());
    CHECK(polys_of(*fresh.snapshot()) == polys_of(*last));
    CHECK(partials.load() > 0);
}
