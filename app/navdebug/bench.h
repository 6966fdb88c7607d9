// Panel frame benchmark (navdebug --bench-frames N, test only): the real window loop, once the
// first bake is shown with its layers uploaded, runs N frames with the camera still or orbiting
// the level (--bench-camera still|orbit) and writes a JSON report (--bench-report): the frame
// times (frame start to frame start, so the panels, the scene when drawn, and the swap) p50 / p99
// / max, how many frames drew the scene and their times, the span budget the scene drew with.
// --no-view-cache draws the scene on the window every frame, as navdebug did before the view had
// its own framebuffer: the benchmark's "before".
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/common.h"

namespace navdebug {

class App;

struct BenchOptions {
    int frames = 0;               // --bench-frames N (0: off)
    std::string camera = "still";  // --bench-camera still|orbit
    std::string report;           // --bench-report OUT.json
    double timeout_s = 600;       // give up waiting for the first bake after this long
};
// --bench-camera's value and --bench-report (required with --bench-frames).
nav::Status check_bench_options(const BenchOptions& o);

class BenchRun {
public:
    explicit BenchRun(BenchOptions o) : o_(std::move(o)) {}
    // Before each App::frame: waits for the first bake, then times frames (orbiting the camera
    // with --bench-camera orbit). True once the report is written (or failed): exit_code().
    bool before_frame(App& app);
    int exit_code() const { return exit_code_; }
    // Still waiting for the first bake: the loop runs as a user's would (no frames forced), so the
    // bake's stage times are those of a user's window.
    bool waiting() const { return phase_ == Phase::Wait; }

private:
    void finish(App& app, bool timed_out);
    BenchOptions o_;
    enum class Phase { Wait, Warm, Run } phase_ = Phase::Wait;
    int warm_ = 0;
    std::vector<float> frame_ms_, scene_ms_;
    uint64_t draws_at_start_ = 0, last_draws_ = 0;
    std::chrono::steady_clock::time_point t0_, last_frame_{}, wait_start_{};
    int exit_code_ = 0;
};

}  // namespace navdebug
