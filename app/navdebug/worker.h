// The bake worker: a thread that owns the Pipeline. The UI posts the newest desired state (the
// bake inputs, target stage, a mesh to load); the worker applies it (Pipeline::set_inputs dirties
// only what changed), runs with a cancel flag that a newer request raises, and publishes the
// snapshot of every run that was not cancelled, with what the view derives from it (draw lists,
// the change highlight). The island prune is an input of the pipeline (BakeInputs::prune): every
// bake published is pruned already. The UI reads latest() and never blocks.
#pragma once
#include <atomic>
#include <chrono>
#include <optional>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "core/pipeline/pipeline.h"
#include "export_job.h"
#include "log.h"
#include "map2d_scene.h"
#include "render/diff_draw.h"
#include "render/layers.h"
#include "tile_tool.h"
#include "why_job.h"

namespace navdebug {

struct WorkerEvent {
    enum class Kind { MeshLoaded, MeshFailed, BakeDone, BakeFailed };
    Kind kind;
    std::string text;
};

// The change highlight the worker computed for a published bake against the one published before
// it (render/diff_draw.h): the diff, its summary and the overlay the UI uploads as is.
struct BakeHighlight {
    nav::render::BakeChanges changes;
    std::string text;  // diff_summary(changes)
    nav::render::DrawList overlay;
};

class BakeWorker {
public:
    // The worker's pipeline gets `def` with its own progress report and tile callback, its bake
    // threads at background priority and the landmarks deferred (computed after each publish).
    explicit BakeWorker(Log& log, nav::PipelineDef def = nav::default_pipeline_def());
    ~BakeWorker();
    BakeWorker(const BakeWorker&) = delete;
    BakeWorker& operator=(const BakeWorker&) = delete;

    // Called from the worker thread after each publish (e.g. glfwPostEmptyEvent to wake the UI).
    void set_wake(std::function<void()> wake) { wake_ = std::move(wake); }
    void start();

    // The pipeline, before start() only: the first mesh and inputs (main, tests).
    nav::Pipeline& pipeline() { return *pipe_; }
    // The newest desired inputs and target stage; cancels a build in progress. A request that
    // changes only the names, colours or costs of area types (no flags: no bake result changes) is
    // kept for the next run and starts none.
    void request(const nav::BakeInputs& inputs, nav::Stage to);
    // Loads a mesh before the next build (the pipeline keeps the old mesh if it fails).
    void request_mesh(const std::string& path);
    // Whether bakes record the region trace (replay); a change re-runs the regions stage.
    void set_region_trace(bool on);

    // The layers the view shows: after each bake (and when this adds a layer) the worker builds
    // their draw lists and publishes them with the snapshot, so the UI thread only uploads.
    void set_layers(const nav::render::LayerMask& shown);
    // The same before start(), without a request of its own (the first bake builds them).
    void init_layers(const nav::render::LayerMask& shown);

    // Tiled bakes: tiles nearest (x, z) (the camera's focus) bake first, from the next run on.
    void set_focus(float x, float z);
    // Tiled bakes: re-bake tile (tx, tz) alone (the Tile panel's Rebuild tile).
    void rebuild_tile(TileXZ tile);
    // "Only selected tile": the per-grid layers are built for that tile alone (nullopt: all
    // tiles); a change re-publishes the latest bake with its layers.
    void set_tile_only(std::optional<TileXZ> tile);

    // The change highlight: while on, each finished bake published is compared with the bake
    // published before it and the result (or the last one, when the two have nothing to compare)
    // is published with it; off drops it.
    void set_highlight_changes(bool on);

    // The Why tool's job (why_job.h): run on this thread once the bake in hand is done; a newer
    // job replaces one not started yet and cancels one running, and so does a newer bake request. A job for a bake
    // that is no longer the latest is dropped (the UI explains the new bake and asks again).
    void request_why(WhyJob job);
    // The last job's result, null before the first.
    std::shared_ptr<const WhyResult> latest_why() const;
    // A Why job is running (the UI says "verifying..."; busy() does not count it as a bake).
    bool why_running() const;

    // An export (export_job.h) of the bake the job carries: run on this thread after the bake in
    // hand, in the order asked; returns the job's id, its result comes with take_exports().
    uint64_t request_export(ExportJob job);
    // The exports finished since the last call.
    std::vector<ExportResult> take_exports();
    // A 2D scene's bake with the Islands prune at `point` (pruned_scene_bake), made on this thread
    // as the pipeline's prune is for a level; scene_prune() is the last one made (null bake before).
    struct ScenePrune {
        std::shared_ptr<const Map2DScene> scene;
        std::optional<glm::vec3> point;
        std::shared_ptr<const nav::Bake> bake;
    };
    void request_scene_prune(std::shared_ptr<const Map2DScene> scene, const std::optional<glm::vec3>& point);
    ScenePrune scene_prune() const;

    std::shared_ptr<const nav::Bake> latest() const;
    // The bake the published layers were built from: latest() itself, or its "only selected
    // tile" view (TileOnlyView) while set_tile_only is on; taken with latest() and the layers.
    struct Published {
        std::shared_ptr<const nav::Bake> bake, view;
        std::shared_ptr<const nav::render::BuiltLayers> layers;
        std::optional<TileXZ> view_tile;  // the tile `view` keeps alone, nullopt: view == bake
        std::shared_ptr<const BakeHighlight> highlight;  // the change highlight, null when none
    };
    Published latest_published() const;
    // latest() and the draw lists built for it, taken together as they were published (entries
    // are matched to the drawn bake by the identity of the stage data they were built from).
    std::pair<std::shared_ptr<const nav::Bake>, std::shared_ptr<const nav::render::BuiltLayers>> latest_with_layers() const;
    bool busy() const;
    // The stage the worker is building right now, -1 when it is idle (the timeline's "building").
    int building_stage() const { return building_.load(std::memory_order_relaxed); }
    // The worker is deriving what the view draws from a bake (change highlight, the layers'
    // draw lists): after the last stage this is the "building layers" the status line names.
    bool publishing() const { return publishing_.load(std::memory_order_relaxed); }
    // Blocks until every request so far has been handled (headless screenshots).
    void wait_idle();
    // Events (mesh loaded or failed, bake done or failed) since the last call.
    std::vector<WorkerEvent> take_events();
    // Cancels the build in progress; the last published bake stays. A later request builds again.
    void cancel();
    // Test only (navdebug --hold-bake N): the worker stops before its N-th run (1 = the first bake,
    // after the input is published) until release_hold(); wait_held_or_idle() blocks until it
    // stopped there or has nothing to do.
    void hold_before_run(int n);
    // Test only (navdebug --hold-tiles N): in the next tiled run the worker publishes the bake as
    // it is after N tiles are done and stops there until release_hold() (wait_held_or_idle() as
    // for hold_before_run). With threads > 1 a tile or so more may finish meanwhile, unpublished.
    void hold_after_tiles(int n);
    void release_hold();
    void wait_held_or_idle();

private:
    void loop();
    // Runs the Why job taken with the request just handled, publishes its result.
    void run_why(WhyJob job);
    // Runs the exports and the 2D scene prune asked for, after the request just handled.
    void run_jobs();
    // One request: load the mesh if asked, apply the state, run and publish. May throw
    // (std::bad_alloc in a stage); loop() catches and reports through fail_run.
    void handle(const nav::BakeInputs& inputs, nav::Stage to, const std::string& mesh_path, bool trace);
    // Publishes the last good bake marked failed with `what` at the stage that was building.
    void fail_run(const std::string& what, bool out_of_memory);  // out of memory: bad input (exit 2)
    // Computes the change highlight and builds the shown layers' draw lists for
    // `bake` (reusing the last set's unchanged entries), then publishes them together.
    void publish(std::shared_ptr<const nav::Bake> bake);
    void event(WorkerEvent::Kind kind, std::string text);
    // PipelineDef::on_tile: a tile finished (a bake thread); publishes the partial bake now and
    // then (at most every kPartialMs), or holds there (hold_after_tiles).
    void on_tile(std::shared_ptr<const nav::Bake> partial);
    // The change highlight of prev -> next; `keep` when the two bakes have nothing to compare (the
    // last highlight stays), null when comparing them ran out of memory.
    std::shared_ptr<const BakeHighlight> highlight(const nav::Bake& prev, const nav::Bake& next, bool& keep);

    std::unique_ptr<nav::Pipeline> pipe_;
    Log& log_;
    std::function<void()> wake_;
    std::thread thread_;
    nav::CancelFlag cancel_{false};
    std::atomic<int> building_{-1};  // set by Pipeline::run through set_progress
    std::atomic<bool> publishing_{false};  // publish() is running (publishing())

    mutable std::mutex m_;
    std::condition_variable cv_, idle_cv_;
    bool stop_ = false;
    bool working_ = false;
    uint64_t requested_ = 0, handled_ = 0;
    nav::BakeInputs inputs_;
    nav::Stage to_ = nav::kLastStage;
    std::string mesh_path_;
    bool region_trace_ = false;
    bool first_of_mesh_ = true;  // the next run is the first on this mesh: publish its input at once
    int runs_ = 0, hold_at_ = 0;
    bool held_ = false;
    std::shared_ptr<const nav::Bake> latest_;
    nav::render::LayerMask layers_{};  // what the view shows (set_layers)
    std::shared_ptr<const nav::render::BuiltLayers> latest_layers_;
    std::shared_ptr<const nav::Bake> latest_view_;  // what latest_layers_ were built from
    std::vector<WorkerEvent> events_;
    float focus_[2] = {0, 0};
    std::vector<TileXZ> rebuild_;           // tiles to re-bake alone before the next run
    std::vector<TileXZ> rebuilding_;        // those of the current run (worker thread only)
    std::optional<TileXZ> tile_only_;       // set_tile_only
    std::optional<TileXZ> view_tile_only_;  // what latest_view_ was made with
    TileOnlyView tile_view_;
    bool highlight_on_ = false;                        // set_highlight_changes
    std::optional<WhyJob> why_job_;                    // request_why, not started yet
    bool why_running_ = false;
    std::shared_ptr<const WhyResult> why_result_;
    std::vector<ExportJob> exports_;           // request_export, not run yet
    std::vector<ExportResult> export_results_;  // take_exports
    uint64_t export_ids_ = 0;
    std::optional<ScenePrune> scene_prune_job_;  // request_scene_prune, not run yet
    ScenePrune scene_prune_;                     // the last one made
    bool jobs_running_ = false;                  // run_jobs (busy() does not count it as a bake)
    std::shared_ptr<const BakeHighlight> latest_highlight_;
    int hold_tiles_ = 0;     // hold_after_tiles
    int run_tiles_ = 0;      // tiles published by on_tile in the current run
    std::chrono::steady_clock::time_point last_partial_{};  // when the last partial publish ended
    double partial_ms_ = 0.0;                                // how long it took
};

// "input 0.4 ms, rasterize 12.1 ms, ..." for the stages a run executed.
std::string describe_run(const nav::Bake& bake);

}  // namespace navdebug
