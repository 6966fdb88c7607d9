// Stress mode (navdebug --stress-sliders N): drives the real frame loop and, each frame, moves
// random tuning parameters of the table (all but the mesh fixes, nav::is_mesh_fix) to random valid values the way a slider does (through App's
// desired parameters, so the worker is cancelled and restarted as with a real drag). After N
// moves it waits for the worker to settle and writes a JSON report: the final parameters as a
// config navbake --config reads, the final bake's counts per stage (or its error), resident memory
// after the first bake, after the final bake and after going back to the starting parameters
// (memory must come back near where it started), wall time and moves done, and the frames: UI
// frame time p50 / p99 while sliders move and bakes run, and how many frames the UI thread built a
// draw layer itself (the worker builds them with each bake: expected 0); and the result latency of
// each move: from the move to the first frame that shows a bake of exactly the parameters it left,
// with its draw layers uploaded (moves a later move superseded before their bake showed are counted,
// not timed). --stress-late moves only the parameters of the late stages (contours on), and
// --stress-every-ms T makes the next move wait until the previous one's result showed or T ms
// passed, so each move can complete.
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/pipeline/params.h"

namespace navdebug {

class App;

struct StressOptions {
    int moves = 0;           // --stress-sliders N (0: off)
    uint64_t seed = 1;       // --seed S
    int per_frame = 1;       // --stress-per-frame K: moves per frame
    std::string report;      // --stress-report OUT.json
    double timeout_s = 300;  // give up waiting for the final bake after this long
    bool late = false;       // --stress-late: only parameters whose stage is contours or later
    double every_ms = 0;     // --stress-every-ms T: next move once the last result showed or T ms passed (0: every frame)
    std::vector<nav::ParamId> only;  // --stress-params A,B,...: only these (empty: every tuning parameter)
};

// The parameters stress mode moves: the tuning parameters (not the mesh fixes, not the query-only
// path_mode); with late_only, those whose stage is contours or later; with `only` not empty, those.
std::vector<const nav::ParamDef*> stress_sliders(bool late_only, const std::vector<nav::ParamId>& only = {});
// --stress-params: a comma list of tuning parameter names (as in --set); bad input names the culprit.
nav::Status parse_stress_params(const std::string& list, std::vector<nav::ParamId>& out);

// Nearest-rank percentile (p in (0, 1]) of sorted values; 0 when empty.
double nearest_rank(const std::vector<float>& sorted, double p);

// A small deterministic generator (splitmix64), the same sequence on every platform.
class StressRng {
public:
    explicit StressRng(uint64_t seed) : s_(seed) {}
    uint64_t next();
    double uniform();              // [0, 1)
    int below(int n);              // [0, n)

private:
    uint64_t s_;
};

// A value for parameter `d` as a slider could leave it: floats through the slider's mapping
// (logarithmic unless in degrees) and rounded to its display precision, ints, bools and enums
// uniformly over the table range. Always accepted by Params::set.
double random_slider_value(const nav::ParamDef& d, StressRng& rng);

// Resident set size of this process in KiB (/proc/self/statm), 0 if unavailable.
int64_t resident_kib();

class StressRun {
public:
    explicit StressRun(StressOptions o) : o_(std::move(o)), rng_(o_.seed) {}
    // Before each App::frame: moves sliders or waits. True once the run is over (report written or
    // failed); exit_code() then says how it went.
    bool before_frame(App& app);
    int exit_code() const { return exit_code_; }

private:
    void capture_final(App& app);  // the final bake's part of the report
    void finish(bool timed_out);   // writes the report

    // WaitFirst: the first bake; Moving: N moves; WaitFinal: the bake of the final parameters;
    // Restore: back to the starting parameters, to see memory come back.
    enum class Phase { WaitFirst, Moving, WaitFinal, Restore, Done } phase_ = Phase::WaitFirst;
    StressOptions o_;
    StressRng rng_;
    int done_ = 0, rejected_ = 0;
    int64_t frames_ = 0;
    std::vector<float> frame_ms_;  // frame-to-frame times from the first move on
    std::vector<float> layer_ms_;  // of each, LayerCache::last_update_ms (the UI thread's layer uploads)
    std::chrono::steady_clock::time_point last_frame_{};
    uint64_t ui_waits_ = 0;
    const App* app_ = nullptr;     // the app of the last frame (the report reads its layer table)        // App::layer_ui_waits(): frames the UI thread built a layer itself
    int64_t rss_start_ = 0, rss_peak_ = 0, rss_end_ = 0;
    nav::Params start_params_;
    int64_t start_polys_ = 0;
    nlohmann::ordered_json report_;
    uint64_t bakes_seen_ = 0, last_generation_ = 0;
    std::chrono::steady_clock::time_point t_start_, t_moves_done_, t_restore_;
    int exit_code_ = 0;
    // result latency: the last move whose result has not shown yet (its parameters, when it was made)
    void check_shown(const App& app);
    struct Pending {
        nav::Params target;
        std::chrono::steady_clock::time_point t;
    };
    std::optional<Pending> pending_;
    std::chrono::steady_clock::time_point last_move_{};
    std::vector<float> latency_ms_;
    int superseded_ = 0, unchanged_ = 0, failed_results_ = 0, unresolved_ = 0;
    std::map<std::string, int> failures_;  // the failed results' errors ("stage: message"), counted
    std::map<std::string, nlohmann::ordered_json> failure_configs_;  // the first config of each (navbake --config)
};

}  // namespace navdebug
