#include "worker.h"

#include <chrono>
#include <cstdio>
#include <exception>
#include <new>

namespace navdebug {

namespace {

std::string fmt_ms(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ms < 10 ? "%.2f ms" : "%.1f ms", ms);
    return buf;
}
}  // namespace

std::string describe_run(const nav::Bake& b) {
    std::string s;
    double total = 0;
    for (nav::Stage st : b.stages_run) {
        const auto& stats = b.stats[static_cast<size_t>(st)];
        if (!s.empty()) s += ", ";
        s += std::string(nav::stage_name(st)) + " " + fmt_ms(stats.ms);
        total += stats.ms;
    }
    if (s.empty()) return "nothing to rebuild";
    return s + " (total " + fmt_ms(total) + ")";
}

BakeWorker::BakeWorker(Log& log, nav::PipelineDef def) : log_(log) {
    def.progress = &building_;
    def.on_tile = [this](std::shared_ptr<const nav::Bake> b) { on_tile(std::move(b)); };
    // the bake behind the UI: the tile threads at background priority (start() lowers this one),
    // so frames keep drawing while a bake takes both cores
    def.background_threads = true;
    // an edit's navmesh reaches the view before the landmarks of its A* heuristic (computed right
    // after each publish, in loop()): on a large level they are most of the time from edit to navmesh
    def.defer_landmarks = true;
    pipe_ = std::make_unique<nav::Pipeline>(std::move(def));
    inputs_ = pipe_->inputs();
    latest_ = pipe_->snapshot();
}

BakeWorker::~BakeWorker() {
    {
        std::lock_guard lk(m_);
        stop_ = true;
    }
    cancel_.store(true);
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void BakeWorker::start() {
    thread_ = std::thread([this] {
        nav::lower_thread_priority();
        loop();
    });
}

void BakeWorker::request(const nav::BakeInputs& inputs, nav::Stage to) {
    {
        std::lock_guard lk(m_);
        nav::BakeInputs names_only = inputs;
        names_only.areas = inputs_.areas;
        const bool same_bake = names_only == inputs_ && inputs.areas.flag_table() == inputs_.areas.flag_table() && to == to_;
        // names, colours, costs change no stage result: the bake is republished with the table (its
        // area-coloured layers redrawn) without cancelling a bake that is running
        const bool areas_only = same_bake && !(inputs.areas == inputs_.areas);
        inputs_ = inputs;
        to_ = to;
        ++requested_;
        if (working_ && !areas_only) cancel_.store(true);
    }
    cv_.notify_all();
}

void BakeWorker::request_mesh(const std::string& path) {
    {
        std::lock_guard lk(m_);
        mesh_path_ = path;
        ++requested_;
        if (working_) cancel_.store(true);
    }
    cv_.notify_all();
}

void BakeWorker::set_region_trace(bool on) {
    {
        std::lock_guard lk(m_);
        if (region_trace_ == on) return;
        region_trace_ = on;
        ++requested_;
        if (working_) cancel_.store(true);
    }
    cv_.notify_all();
}

void BakeWorker::set_layers(const nav::render::LayerMask& shown) {
    {
        std::lock_guard lk(m_);
        if (layers_ == shown) return;
        bool added = false;
        for (size_t i = 0; i < shown.size(); ++i) added = added || (shown[i] && !layers_[i]);
        layers_ = shown;
        if (!added) return;
        // a run with nothing dirty builds the new layers for the latest bake and republishes it
        ++requested_;
    }
    cv_.notify_all();
}

void BakeWorker::init_layers(const nav::render::LayerMask& shown) {
    std::lock_guard lk(m_);
    layers_ = shown;
}

void BakeWorker::set_focus(float x, float z) {
    std::lock_guard lk(m_);
    focus_[0] = x;
    focus_[1] = z;
}

void BakeWorker::rebuild_tile(TileXZ tile) {
    {
        std::lock_guard lk(m_);
        rebuild_.push_back(tile);
        ++requested_;
        if (working_) cancel_.store(true);
    }
    cv_.notify_all();
}

void BakeWorker::set_tile_only(std::optional<TileXZ> tile) {
    {
        std::lock_guard lk(m_);
        if (tile_only_ == tile) return;
        tile_only_ = tile;
        ++requested_;  // a run with nothing dirty re-publishes the latest bake with the new view
    }
    cv_.notify_all();
}


void BakeWorker::set_highlight_changes(bool on) {
    std::lock_guard lk(m_);
    highlight_on_ = on;
    if (!on) latest_highlight_.reset();
}

BakeWorker::Published BakeWorker::latest_published() const {
    std::lock_guard lk(m_);
    return {latest_, latest_view_, latest_layers_, latest_view_ != latest_ ? view_tile_only_ : std::nullopt,
            latest_highlight_};
}

void BakeWorker::hold_after_tiles(int n) {
    std::lock_guard lk(m_);
    hold_tiles_ = n;
}

void BakeWorker::on_tile(std::shared_ptr<const nav::Bake> partial) {
    // At most every kPartialMs, and, as a partial publish builds every shown layer from all the
    // tiles done (on the thread of the tile that finished, while the other tiles wait to report),
    // no sooner than 4x its last duration after it: partial publishes take at most a fifth of a
    // tiled bake's time (on a 1225-tile level a publish of every layer takes seconds).
    constexpr double kPartialMs = 50.0;
    if (cancel_.load()) return;  // a newer request: its own run publishes
    const auto now = std::chrono::steady_clock::now();
    bool hold = false;
    {
        std::lock_guard lk(m_);
        ++run_tiles_;
        hold = hold_tiles_ > 0 && run_tiles_ >= hold_tiles_;
        const double since = std::chrono::duration<double, std::milli>(now - last_partial_).count();
        if (!hold && since < std::max(kPartialMs, 4.0 * partial_ms_)) return;
    }
    publish(std::move(partial));
    {
        std::lock_guard lk(m_);
        last_partial_ = std::chrono::steady_clock::now();
        partial_ms_ = std::chrono::duration<double, std::milli>(last_partial_ - now).count();
    }
    if (!hold) return;
    std::unique_lock lk(m_);
    held_ = true;
    idle_cv_.notify_all();
    cv_.wait(lk, [&] { return stop_ || !held_; });
}

std::shared_ptr<const nav::Bake> BakeWorker::latest() const {
    std::lock_guard lk(m_);
    return latest_;
}

std::pair<std::shared_ptr<const nav::Bake>, std::shared_ptr<const nav::render::BuiltLayers>>
BakeWorker::latest_with_layers() const {
    std::lock_guard lk(m_);
    return {latest_, latest_layers_};
}

bool BakeWorker::busy() const {
    std::lock_guard lk(m_);
    return (working_ && !why_running_ && !jobs_running_) || requested_ != handled_;
}

void BakeWorker::request_why(WhyJob job) {
    {
        std::lock_guard lk(m_);
        why_job_ = std::move(job);
        ++requested_;  // a run with nothing dirty takes the job
        if (why_running_) cancel_.store(true);  // the job running answers a question no longer asked
    }
    cv_.notify_all();
}

std::shared_ptr<const WhyResult> BakeWorker::latest_why() const {
    std::lock_guard lk(m_);
    return why_result_;
}

bool BakeWorker::why_running() const {
    std::lock_guard lk(m_);
    return why_running_;
}

void BakeWorker::run_why(WhyJob job) {
    WhyResult r;
    bool stale = false;
    {
        std::lock_guard lk(m_);
        // a newer question queued meanwhile replaces this one: do not run it
        stale = job.bake != latest_ || why_job_.has_value();
        if (!stale) why_running_ = true;
    }
    if (stale) {
        // the bake just handled replaced the one the job was asked on: the UI asks again on it
        r.id = job.id;
        r.kind = job.kind;
        r.cancelled = true;
    } else {
        r = run_why_job(job, &cancel_);
        if (r.cancelled) log_.info("why: verification cancelled by a newer request");
        else if (r.error.empty())
            log_.info(std::string("why: ") + (job.kind == WhyJob::Kind::Fix ? "fix search" : "path explained") + " in " +
                      fmt_ms(r.ms));
        else log_.warn("why: " + r.error);
    }
    job.bake.reset();  // the snapshot is released here, not with the result
    {
        std::lock_guard lk(m_);
        why_running_ = false;
        why_result_ = std::make_shared<const WhyResult>(std::move(r));
    }
    if (wake_) wake_();
}

uint64_t BakeWorker::request_export(ExportJob job) {
    uint64_t id = 0;
    {
        std::lock_guard lk(m_);
        id = job.id = ++export_ids_;
        exports_.push_back(std::move(job));
        ++requested_;  // a run with nothing dirty takes the job
    }
    cv_.notify_all();
    return id;
}

std::vector<ExportResult> BakeWorker::take_exports() {
    std::lock_guard lk(m_);
    std::vector<ExportResult> out;
    out.swap(export_results_);
    return out;
}

void BakeWorker::request_scene_prune(std::shared_ptr<const Map2DScene> scene, const std::optional<glm::vec3>& point) {
    {
        std::lock_guard lk(m_);
        scene_prune_job_ = ScenePrune{std::move(scene), point, nullptr};
        ++requested_;
    }
    cv_.notify_all();
}

BakeWorker::ScenePrune BakeWorker::scene_prune() const {
    std::lock_guard lk(m_);
    return scene_prune_;
}

void BakeWorker::run_jobs() {
    std::vector<ExportJob> exports;
    std::optional<ScenePrune> prune;
    std::shared_ptr<const nav::Bake> last;
    {
        std::lock_guard lk(m_);
        exports.swap(exports_);
        prune.swap(scene_prune_job_);
        if (exports.empty() && !prune) return;
        if (prune && scene_prune_.scene == prune->scene) last = scene_prune_.bake;
        jobs_running_ = true;
    }
    if (prune && prune->scene) {
        try {
            prune->bake = pruned_scene_bake(*prune->scene, prune->point, std::move(last));
        } catch (const std::bad_alloc&) {
            log_.error("prune: out of memory");
            prune->bake = prune->scene->bake;
        }
    }
    std::vector<ExportResult> results;
    for (const ExportJob& job : exports) results.push_back(run_export_job(job));
    exports.clear();  // the snapshots are released here, not with the results
    {
        std::lock_guard lk(m_);
        jobs_running_ = false;
        if (prune) scene_prune_ = std::move(*prune);
        for (ExportResult& r : results) export_results_.push_back(std::move(r));
    }
    if (wake_) wake_();
}

void BakeWorker::wait_idle() {
    std::unique_lock lk(m_);
    idle_cv_.wait(lk, [&] { return stop_ || (!working_ && requested_ == handled_); });
}

std::vector<WorkerEvent> BakeWorker::take_events() {
    std::lock_guard lk(m_);
    std::vector<WorkerEvent> out;
    out.swap(events_);
    return out;
}

void BakeWorker::cancel() {
    std::lock_guard lk(m_);
    if (working_) cancel_.store(true);
}

void BakeWorker::hold_before_run(int n) {
    std::lock_guard lk(m_);
    hold_at_ = n;
}

void BakeWorker::release_hold() {
    {
        std::lock_guard lk(m_);
        hold_at_ = 0;
        hold_tiles_ = 0;
        held_ = false;
    }
    cv_.notify_all();
}

void BakeWorker::wait_held_or_idle() {
    std::unique_lock lk(m_);
    idle_cv_.wait(lk, [&] { return stop_ || held_ || (!working_ && requested_ == handled_); });
}

void BakeWorker::event(WorkerEvent::Kind kind, std::string text) {
    std::lock_guard lk(m_);
    events_.push_back({kind, std::move(text)});
}

std::shared_ptr<const BakeHighlight> BakeWorker::highlight(const nav::Bake& prev, const nav::Bake& next, bool& keep) {
    keep = false;
    auto h = std::make_shared<BakeHighlight>();
    double build_ms = 0.0;
    try {
        h->changes = nav::render::diff_bakes(prev, next);
        if (!h->changes.have_regions && !h->changes.have_polys) {
            keep = true;  // e.g. stopped before regions: the last highlight stays
            return nullptr;
        }
        const auto t0 = std::chrono::steady_clock::now();
        nav::render::build_diff_overlay(h->changes, prev, next, h->overlay);
        build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        h->text = nav::render::diff_summary(h->changes);
    } catch (const std::bad_alloc&) {
        // a bake that ran out of memory leaves little for comparing it: no highlight, no crash
        h.reset();
        log_.warn("changes: not highlighted, out of memory comparing bake #" + std::to_string(prev.generation) +
                  " with #" + std::to_string(next.generation));
        return nullptr;
    }
    char buf[96];
    std::snprintf(buf, sizeof buf, " (diff %.2f ms, overlay %.2f ms)", h->changes.ms, build_ms);
    log_.info("changes bake #" + std::to_string(h->changes.from_generation) + " -> #" +
              std::to_string(h->changes.to_generation) + ": " + h->text + buf);
    return h;
}

void BakeWorker::publish(std::shared_ptr<const nav::Bake> bake) {
    publishing_.store(true, std::memory_order_relaxed);
    struct Done {
        std::atomic<bool>& flag;
        ~Done() { flag.store(false, std::memory_order_relaxed); }
    } done{publishing_};
    nav::render::LayerMask shown;
    std::shared_ptr<const nav::render::BuiltLayers> prev;
    std::optional<TileXZ> only;
    std::shared_ptr<const nav::Bake> before;
    bool highlight_on = false;
    {
        std::lock_guard lk(m_);
        shown = layers_;
        prev = latest_layers_;
        only = tile_only_;
        before = latest_;
        highlight_on = highlight_on_;
    }
    // everything the view derives from the bake is computed here, off the UI thread: the change
    // highlight against the bake published before (finished bakes only: tiles still filling in
    // are compared once they are done). A run that only pruned again (the pipeline's prune: no
    // stage ran, the same links) changed no region or polygon: the last highlight stays.
    bool new_highlight = false, keep = true;
    std::shared_ptr<const BakeHighlight> changes;
    const bool prune_only = before && bake && bake->stages_run.empty() && before->prune.point != bake->prune.point &&
                            before->inputs.links == bake->inputs.links;
    if (highlight_on && before && bake && before != bake && !bake->partial && !prune_only) {
        changes = highlight(*before, *bake, keep);
        new_highlight = !keep;
    }
    before.reset();
    // the draw lists, from the bake (from its "only selected tile" view while that is on)
    const std::shared_ptr<const nav::Bake>& drawn = bake;
    std::shared_ptr<const nav::Bake> view = drawn && only && drawn->tiled() ? tile_view_.make(drawn, *only) : drawn;
    std::shared_ptr<const nav::render::BuiltLayers> built;
    if (view) built = nav::render::build_layers(*view, shown, prev.get());
    prev.reset();
    {
        std::lock_guard lk(m_);
        latest_ = std::move(bake);
        latest_view_ = std::move(view);
        view_tile_only_ = only;
        latest_layers_ = std::move(built);
        if (new_highlight) latest_highlight_ = std::move(changes);
        if (!highlight_on_) latest_highlight_.reset();
    }
    if (wake_) wake_();
}

void BakeWorker::loop() {
    for (;;) {
        nav::BakeInputs inputs;
        nav::Stage to;
        std::string mesh_path;
        bool trace = false;
        uint64_t seq;
        std::vector<TileXZ> rebuild;
        std::optional<WhyJob> why;
        {
            std::unique_lock lk(m_);
            cv_.wait(lk, [&] { return stop_ || requested_ != handled_; });
            if (stop_) break;
            inputs = inputs_;
            to = to_;
            mesh_path.swap(mesh_path_);
            trace = region_trace_;
            seq = requested_;
            working_ = true;
            cancel_.store(false);
            rebuild.swap(rebuild_);
            why.swap(why_job_);
            pipe_->set_focus(focus_[0], focus_[1]);
            run_tiles_ = 0;
            last_partial_ = std::chrono::steady_clock::now();
        }
        rebuilding_ = rebuild;
        for (const TileXZ& t : rebuild)
            if (!pipe_->mark_tile_dirty(t.first, t.second))
                log_.warn("rebuild tile " + std::to_string(t.first) + "," + std::to_string(t.second) +
                          ": no such tile in the current bake");

        try {
            handle(inputs, to, mesh_path, trace);
        } catch (const std::exception& e) {
            // Out of memory (or any other exception) inside a stage: the failed bake is shown with
            // the last good results kept, never an abort.
            fail_run(dynamic_cast<const std::bad_alloc*>(&e) ? "out of memory" : std::string("internal error: ") + e.what(),
                     dynamic_cast<const std::bad_alloc*>(&e) != nullptr);
        } catch (...) {
            fail_run("internal error: unknown exception", false);
        }
        // the landmarks of the navmesh just published (a newer request cancels: its run recomputes
        // what is still pending; queries meanwhile use the straight-line bound, still optimal)
        if (!cancel_.load()) pipe_->complete_landmarks(&cancel_);
        // the Why job after the bake it may be about (run_why_job catches what the core throws);
        // the requests so far count as handled while it runs, so busy() says no bake is running
        if (why) {
            {
                std::lock_guard lk(m_);
                handled_ = seq;
            }
            run_why(std::move(*why));
        }
        // the exports and the 2D scene prune, as the Why job (busy() does not count them as a bake)
        {
            std::lock_guard lk(m_);
            handled_ = seq;
        }
        run_jobs();

        {
            std::lock_guard lk(m_);
            handled_ = seq;
            working_ = false;
        }
        idle_cv_.notify_all();
        if (wake_) wake_();
    }
}

void BakeWorker::fail_run(const std::string& what, bool out_of_memory) {
    const int stage = building_.exchange(-1, std::memory_order_relaxed);
    const std::string where = stage >= 0 ? std::string(nav::kStageNames[static_cast<size_t>(stage)]) : "bake";
    const std::string msg = where + " failed: " + what +
                            (what == "out of memory" ? " (raise cell_size, or lower the memory limit so the estimate "
                                                       "refuses such grids before allocating)"
                                                     : "");
    log_.error(msg + " - keeping the last good bake");
    event(WorkerEvent::Kind::BakeFailed, msg);
    // The stage that threw left its buffer half-written: rebuild from it next time.
    if (stage >= 0) pipe_->mark_dirty(static_cast<nav::Stage>(stage));
    auto failed = std::make_shared<nav::Bake>();
    {
        std::lock_guard lk(m_);
        if (latest_) *failed = *latest_;  // the last good results stay on screen
    }
    // out of memory is bad input by the contract (README: exit codes), as the pipeline reports it
    failed->error = out_of_memory ? nav::Status::bad_input(msg) : nav::Status::internal(what);
    failed->error_stage = stage >= 0 ? stage : 0;
    failed->stages_run.clear();
    publish(std::move(failed));
}

void BakeWorker::handle(const nav::BakeInputs& inputs, nav::Stage to, const std::string& mesh_path, bool trace) {
    {
        bool mesh_changed = false;
        if (!mesh_path.empty()) {
            const auto t0 = std::chrono::steady_clock::now();
            const nav::Status st = pipe_->load_mesh(mesh_path);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (st) {
                mesh_changed = true;
                first_of_mesh_ = true;
                log_.info("opened " + mesh_path + " (" + fmt_ms(ms) + ")");
                event(WorkerEvent::Kind::MeshLoaded, mesh_path);
            } else {
                log_.error(st.message + (pipe_->has_mesh() ? " - keeping the previous mesh" : ""));
                event(WorkerEvent::Kind::MeshFailed, st.message);
            }
        }
        // a parameter change may dirty nothing (every derived voxel value unchanged): it still runs,
        // re-running no stage, so the published bake carries the new parameters and the log says so
        const bool params_changed = !(inputs.params == pipe_->params());
        // area names, colours or costs: a run re-runs no stage and publishes the bake with them
        const bool areas_changed = !(inputs.areas == pipe_->inputs().areas);
        pipe_->set_record_region_trace(trace);
        const std::optional<std::array<float, 3>> pruned_before = pipe_->snapshot()->prune.point;
        const bool links_differ = inputs.links != pipe_->inputs().links;
        if (const nav::Status st = pipe_->set_inputs(inputs); !st) {
            // a link or the prune point refused: the rest applies, the old links and point stay
            log_.error(st.message);
            nav::BakeInputs kept = inputs;
            kept.links = pipe_->inputs().links;
            kept.prune = pipe_->inputs().prune;
            (void)pipe_->set_inputs(kept);
        }
        const bool links_changed = links_differ && pipe_->inputs().links == inputs.links;

        if (pipe_->has_mesh() && (pipe_->first_dirty() <= to || mesh_changed || params_changed || areas_changed)) {
            // the first bake of a mesh shows its input at once, the later stages as they come
            if (first_of_mesh_ && to > nav::Stage::Input && pipe_->first_dirty() == nav::Stage::Input &&
                pipe_->run(nav::Stage::Input, &cancel_))
                publish(pipe_->snapshot());
            first_of_mesh_ = false;
            {
                std::unique_lock lk(m_);
                if (++runs_ == hold_at_) {  // test only: stop here until released
                    held_ = true;
                    building_.store(static_cast<int>(pipe_->first_dirty()), std::memory_order_relaxed);
                    idle_cv_.notify_all();
                    cv_.wait(lk, [&] { return stop_ || !held_; });
                }
            }
            const nav::Status st = pipe_->run(to, &cancel_);
            building_.store(-1, std::memory_order_relaxed);
            auto snap = pipe_->snapshot();
            if (st.code == nav::Status::Code::Cancelled) {
                // a newer request is waiting; its run publishes
            } else {
                if (st) {
                    log_.info("bake #" + std::to_string(snap->generation) + ": " + describe_run(*snap) +
                              (snap->stages_run.empty() && params_changed
                                   ? " - the parameter change leaves every derived voxel value unchanged"
                                   : "") +
                              (snap->stages_run.empty() && links_changed
                                   ? " - " + std::to_string(snap->inputs.links.size()) + " manual links relinked, no tile re-baked"
                                   : "") +
                              (snap->stages_run.empty() && snap->prune.point != pruned_before
                                   ? std::string(" - pruned again, no tile re-baked")
                                   : "") +
                              (snap->stages_run.empty() && areas_changed ? " - the area table changed" : ""));
                    event(WorkerEvent::Kind::BakeDone, {});
                } else {
                    const std::string where =
                        snap->error_stage >= 0 ? std::string(nav::kStageNames[static_cast<size_t>(snap->error_stage)]) : "bake";
                    log_.error(where + " failed: " + st.message);
                    event(WorkerEvent::Kind::BakeFailed, where + " failed: " + st.message);
                }
                if (!rebuilding_.empty() && snap->tiled())
                    for (const TileXZ& t : rebuilding_)
                        if (const int i = tile_index(*snap, t); i >= 0 && snap->tiles[static_cast<size_t>(i)])
                            log_.info("rebuilt tile " + std::to_string(t.first) + "," + std::to_string(t.second) +
                                      " in " + fmt_ms(snap->tiles[static_cast<size_t>(i)]->ms));
                publish(std::move(snap));
            }
        } else if (mesh_changed) {
            publish(pipe_->snapshot());
        } else {
            // nothing to bake: a layer was shown (set_layers) that the latest set lacks
            std::shared_ptr<const nav::Bake> b;
            nav::render::LayerMask shown;
            bool missing = false;
            {
                std::lock_guard lk(m_);
                b = latest_;
                shown = layers_;
                // "only selected tile" switched or moved: the layers must be built from the new view
                missing = b && b->tiled() && tile_only_ != view_tile_only_;
                for (int li = 0; b && li < nav::render::kLayerCount; ++li) {
                    const auto l = static_cast<nav::render::Layer>(li);
                    missing = missing || (shown[static_cast<size_t>(li)] && nav::render::layer_from_bake(l) &&
                                          nav::render::layer_available(l, *b) &&
                                          !(latest_layers_ && latest_view_ && latest_layers_->find(l, *latest_view_)));
                }
            }
            if (missing) publish(std::move(b));
        }
    }
}

}  // namespace navdebug
