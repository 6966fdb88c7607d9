#include "bench.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app.h"
#include "core/io/file.h"
#include "stress.h"

namespace navdebug {

nav::Status check_bench_options(const BenchOptions& o) {
    if (o.frames <= 0) return nav::Status::ok();
    if (o.camera != "still" && o.camera != "orbit")
        return nav::Status::bad_input("--bench-camera: expected still or orbit, got '" + o.camera + "'");
    if (o.report.empty()) return nav::Status::bad_input("--bench-frames: --bench-report OUT.json is required (where the report goes)");
    return nav::Status::ok();
}

bool BenchRun::before_frame(App& app) {
    using clock = std::chrono::steady_clock;
    const auto now = clock::now();
    if (wait_start_ == clock::time_point{}) wait_start_ = now;
    switch (phase_) {
        case Phase::Wait:
            // the first bake shown with its layers on the GPU
            if (app.settled() && app.latest_bake() && app.latest_bake()->mesh && !app.layer_cache().uploading()) {
                phase_ = Phase::Warm;
            } else if (std::chrono::duration<double>(now - wait_start_).count() > o_.timeout_s) {
                finish(app, true);
                return true;
            }
            return false;
        case Phase::Warm:
            // a few frames so the panels are laid out and the last layer parts drawn
            if (++warm_ >= 5) {
                phase_ = Phase::Run;
                t0_ = last_frame_ = now;
                draws_at_start_ = last_draws_ = app.scene_draws();
            }
            if (o_.camera == "orbit") app.orbit_level(0.02f);
            return false;
        case Phase::Run:
            frame_ms_.push_back(static_cast<float>(std::chrono::duration<double, std::milli>(now - last_frame_).count()));
            last_frame_ = now;
            if (app.scene_draws() != last_draws_) scene_ms_.push_back(static_cast<float>(app.last_scene_ms()));
            last_draws_ = app.scene_draws();
            if (static_cast<int>(frame_ms_.size()) >= o_.frames) {
                finish(app, false);
                return true;
            }
            if (o_.camera == "orbit") app.orbit_level(0.02f);  // about 5 turns in 1500 frames
            return false;
    }
    return false;
}

void BenchRun::finish(App& app, bool timed_out) {
    nlohmann::ordered_json j;
    j["camera"] = o_.camera;
    j["view_cache"] = app.view_cache();
    if (timed_out) {
        j["error"] = "the first bake was not shown within " + std::to_string(o_.timeout_s) + " s";
        exit_code_ = 1;
    }
    std::vector<float> f = frame_ms_, s = scene_ms_;
    std::sort(f.begin(), f.end());
    std::sort(s.begin(), s.end());
    j["frames"] = f.size();
    j["frame_ms_p50"] = nearest_rank(f, 0.50);
    j["frame_ms_p99"] = nearest_rank(f, 0.99);
    j["frame_ms_max"] = f.empty() ? 0.0 : f.back();
    j["scene_draws"] = app.scene_draws() - draws_at_start_;
    j["scene_ms_p50"] = nearest_rank(s, 0.50);
    j["scene_ms_p99"] = nearest_rank(s, 0.99);
    j["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    if (const auto& b = app.latest_bake()) {
        // the first bake's stage times as the app measured them (compare: navbake MESH --json)
        nlohmann::ordered_json st;
        for (size_t i = 0; i < static_cast<size_t>(nav::kStageCount); ++i)
            if (b->stats[i].ms > 0.0) st[std::string(nav::kStageNames[i])] = b->stats[i].ms;
        j["stage_ms"] = st;
    }
    const nav::Status st = nav::write_output_file(o_.report, j.dump(2) + "\n");
    if (!st) {
        std::fprintf(stderr, "navdebug: cannot write %s\n", st.message.c_str());
        exit_code_ = 1;
    } else {
        std::printf("navdebug: bench: %s camera, %zu frames: p50 %.1f ms, p99 %.1f ms; %s\n", o_.camera.c_str(), f.size(),
                    nearest_rank(f, 0.50), nearest_rank(f, 0.99), o_.report.c_str());
    }
}

}  // namespace navdebug
