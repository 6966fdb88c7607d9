#include "stress.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <vector>
#include <nlohmann/json.hpp>

#include "app.h"
#include "core/formats/config_json.h"
#include "core/io/file.h"
#include "session.h"

namespace navdebug {

uint64_t StressRng::next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double StressRng::uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }

int StressRng::below(int n) { return n <= 1 ? 0 : static_cast<int>(next() % static_cast<uint64_t>(n)); }

double random_slider_value(const nav::ParamDef& d, StressRng& rng) {
    switch (d.kind) {
        case nav::ParamKind::Bool: return static_cast<double>(rng.below(2));
        case nav::ParamKind::Enum: {
            const int n = std::max(1, static_cast<int>(d.enum_names.size()));
            return static_cast<double>(std::clamp(rng.below(n), static_cast<int>(d.min), static_cast<int>(d.max)));
        }
        case nav::ParamKind::Int: {
            const int lo = static_cast<int>(std::ceil(d.min)), hi = static_cast<int>(std::floor(d.max));
            return static_cast<double>(lo + rng.below(hi - lo + 1));
        }
        case nav::ParamKind::Float: break;
    }
    // the debugger's float sliders: "%.1f" and linear for degrees, "%.2f" and logarithmic otherwise
    const bool deg = d.unit == "deg";
    const int decimals = deg ? 1 : 2;
    const double t = rng.uniform();
    double v;
    if (deg) {
        v = d.min + (d.max - d.min) * t;
    } else {
        // logarithmic; a range starting at 0 maps the bottom of the slider to 0 (as ImGui does with its
        // epsilon at the display precision) and the rest logarithmically from that epsilon
        const double eps = std::pow(10.0, -decimals);
        const double lo = std::max(d.min, eps);
        if (d.min <= 0.0 && t < 0.03) v = d.min;
        else v = lo * std::pow(d.max / lo, d.min <= 0.0 ? (t - 0.03) / 0.97 : t);
    }
    const double scale = std::pow(10.0, decimals);
    v = std::round(v * scale) / scale;
    // the slider holds a float; the debugger clamps it back into the range in double (panels_left.cpp, params_section)
    return std::clamp(static_cast<double>(static_cast<float>(v)), d.min, d.max);
}

int64_t resident_kib() {
    std::ifstream f("/proc/self/statm");
    int64_t size = 0, resident = 0;
    if (!(f >> size >> resident)) return 0;
    return resident * static_cast<int64_t>(sysconf(_SC_PAGESIZE)) / 1024;
}

std::vector<const nav::ParamDef*> stress_sliders(bool late_only, const std::vector<nav::ParamId>& only) {
    // the tuning parameters; the mesh fixes (Z-up, winding, scale) are one-off corrections of an
    // export, and a random one leaves a Y-up scene with nothing walkable; path_mode is read by the
    // queries only
    std::vector<const nav::ParamDef*> out;
    for (const nav::ParamDef& d : nav::param_table()) {
        if (nav::is_mesh_fix(d.id) || nav::is_query_param(d.id)) continue;
        if (late_only && (nav::dirties_no_stage(d.id) || static_cast<int>(d.stage) < static_cast<int>(nav::Stage::Contours)))
            continue;
        if (!only.empty() && std::find(only.begin(), only.end(), d.id) == only.end()) continue;
        out.push_back(&d);
    }
    return out;
}

nav::Status parse_stress_params(const std::string& list, std::vector<nav::ParamId>& out) {
    out.clear();
    size_t at = 0;
    while (at <= list.size()) {
        const size_t comma = std::min(list.find(',', at), list.size());
        const std::string name = list.substr(at, comma - at);
        const nav::ParamDef* d = nav::find_param(name);
        if (!d) return nav::Status::bad_input("--stress-params: unknown parameter '" + name + "'");
        if (nav::is_mesh_fix(d->id) || nav::is_query_param(d->id))
            return nav::Status::bad_input("--stress-params: " + name + " is not a tuning parameter stress mode moves");
        if (std::find(out.begin(), out.end(), d->id) == out.end()) out.push_back(d->id);
        at = comma + 1;
    }
    return nav::Status::ok();
}

double nearest_rank(const std::vector<float>& sorted, double p) {
    if (sorted.empty()) return 0.0;
    const auto k = static_cast<size_t>(std::max(1.0, std::ceil(p * static_cast<double>(sorted.size())))) - 1;
    return sorted[std::min(k, sorted.size() - 1)];
}

void StressRun::check_shown(const App& app) {
    // What this frame sees was drawn by the last one: App::frame took the worker's latest bake (and
    // the draw lists the worker built with it) and render_scene uploaded its layers (LayerCache
    // records the generation it last updated from). A bake shows the move's result when it is
    // finished (not a tiled bake's partial picture), of exactly the move's parameters, and its
    // layers are the ones uploaded. A refused bake (grid over the memory limit) is a result too.
    if (!pending_) return;
    const auto& b = app.latest_bake();
    if (!b || b->partial || !(b->inputs.params == pending_->target) || app.layer_cache().generation() != b->generation) return;
    latency_ms_.push_back(static_cast<float>(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pending_->t).count()));
    if (!b->error.is_ok()) {
        ++failed_results_;
        const std::string stage =
            b->error_stage >= 0 ? std::string(nav::kStageNames[static_cast<size_t>(b->error_stage)]) : "bake";
        const std::string what = stage + ": " + b->error.message;
        if (failures_.size() < 20 || failures_.count(what)) {
            if (!failures_.count(what)) {
                nav::BakeInputs in = b->inputs;
                in.areas = nav::AreaTable::defaults();
                failure_configs_[what] = config_json(in);
            }
            ++failures_[what];
        }
    }
    pending_.reset();
}

bool StressRun::before_frame(App& app) {
    using clock = std::chrono::steady_clock;
    ++frames_;
    app_ = &app;
    // frame time: from one frame's start to the next, while sliders move and bakes run (from the
    // first move until the run ends)
    const auto now_frame = clock::now();
    if (phase_ != Phase::WaitFirst && phase_ != Phase::Done && last_frame_ != clock::time_point{}) {
        frame_ms_.push_back(static_cast<float>(std::chrono::duration<double, std::milli>(now_frame - last_frame_).count()));
        // of that frame, the layer work on the UI thread (uploads; builds when it had to)
        layer_ms_.push_back(static_cast<float>(app.layer_cache().last_update_ms()));
    }
    last_frame_ = now_frame;
    if (const auto& b = app.latest_bake(); b && b->generation != last_generation_) {
        last_generation_ = b->generation;
        ++bakes_seen_;
    }
    rss_peak_ = std::max(rss_peak_, resident_kib());
    ui_waits_ = app.layer_ui_waits();
    check_shown(app);
    switch (phase_) {
        case Phase::WaitFirst:
            if (app.settled() && app.latest_bake() && app.latest_bake()->mesh) {
                rss_start_ = resident_kib();
                report_["heap_in_use_start_kib"] = static_cast<int64_t>((mallinfo2().uordblks + mallinfo2().hblkhd) / 1024);
                start_params_ = app.desired_params();
                start_polys_ = app.latest_bake()->count("polys");
                t_start_ = clock::now();
                phase_ = Phase::Moving;
                std::printf("navdebug: stress: first bake done, RSS %lld KiB; %d moves, seed %llu\n",
                            static_cast<long long>(rss_start_), o_.moves, static_cast<unsigned long long>(o_.seed));
            }
            return false;
        case Phase::Moving: {
            const std::vector<const nav::ParamDef*> sliders = stress_sliders(o_.late, o_.only);
            // --stress-every-ms: the next move waits for the last one's result (or T ms)
            if (o_.every_ms > 0 && pending_ &&
                std::chrono::duration<double, std::milli>(clock::now() - last_move_).count() < o_.every_ms)
                return false;
            for (int k = 0; k < o_.per_frame && done_ < o_.moves; ++k, ++done_) {
                const nav::ParamDef& d = *sliders[static_cast<size_t>(rng_.below(static_cast<int>(sliders.size())))];
                const double v = random_slider_value(d, rng_);
                const nav::Params before = app.desired_params();
                if (const nav::Status st = app.set_param(d.id, v); !st) {
                    ++rejected_;
                    std::fprintf(stderr, "navdebug: stress: move %d rejected: %s\n", done_ + 1, st.message.c_str());
                    continue;
                }
                if (app.desired_params() == before) {
                    ++unchanged_;  // the slider landed on its value: no bake to wait for
                    continue;
                }
                if (pending_) ++superseded_;  // its bake never showed: this move replaces it
                last_move_ = clock::now();
                pending_ = Pending{app.desired_params(), last_move_};
            }
            if (done_ >= o_.moves) {
                t_moves_done_ = clock::now();
                phase_ = Phase::WaitFinal;
            }
            return false;
        }
        case Phase::WaitFinal: {
            const double waited = std::chrono::duration<double>(clock::now() - t_moves_done_).count();
            // settled() also needs the last moves to have reached the worker (App::frame requests them);
            // the last bake may reach the screen a frame or more later (a slow scene's draw is deferred
            // a frame, uploads spread over frames): the move is unresolved only if it never does
            if (app.settled() && app.view_current()) {
                capture_final(app);
                // settled and checked above: a move still pending never got a bake of its own
                if (pending_) ++unresolved_;
                pending_.reset();
                // back to the starting parameters: memory should come back near where it started
                for (const nav::ParamDef& d : nav::param_table()) (void)app.set_param(d.id, start_params_.get(d.id));
                t_restore_ = clock::now();
                phase_ = Phase::Restore;
            } else if (waited > o_.timeout_s) {
                capture_final(app);
                if (pending_) ++unresolved_;
                pending_.reset();
                finish(true);
            }
            return phase_ == Phase::Done;
        }
        case Phase::Restore: {
            const double waited = std::chrono::duration<double>(clock::now() - t_restore_).count();
            if (app.settled()) {
                rss_end_ = resident_kib();
                report_["rss_end_before_trim_kib"] = rss_end_;
                malloc_trim(0);  // hand freed heap pages back to the system before measuring
                rss_end_ = resident_kib();
                const struct mallinfo2 mi = mallinfo2();
                report_["heap_in_use_end_kib"] = static_cast<int64_t>((mi.uordblks + mi.hblkhd) / 1024);
                report_["layers_cpu_end_kib"] = static_cast<int64_t>(app.layer_cpu_bytes() / 1024);
                report_["layers_gpu_end_kib"] = static_cast<int64_t>(app.layer_gpu_bytes() / 1024);
                report_["restored_bake_matches_first"] =
                    app.latest_bake() && app.latest_bake()->inputs.params == start_params_ &&
                    app.latest_bake()->count("polys") == start_polys_;
                finish(false);
            } else if (waited > o_.timeout_s) {
                finish(true);
            }
            return phase_ == Phase::Done;
        }
        case Phase::Done: return true;
    }
    return true;
}

void StressRun::capture_final(App& app) {
    using clock = std::chrono::steady_clock;
    const auto now = clock::now();
    const auto& b = app.latest_bake();
    nlohmann::ordered_json& j = report_;
    j["moves"] = done_;
    j["moves_rejected"] = rejected_;
    j["seed"] = o_.seed;
    j["per_frame"] = o_.per_frame;
    j["late_only"] = o_.late;
    j["every_ms"] = o_.every_ms;
    nlohmann::ordered_json moved = nlohmann::ordered_json::array();
    for (const nav::ParamDef* d : stress_sliders(o_.late, o_.only)) moved.push_back(std::string(d->name));
    j["sliders"] = moved;  // the parameters the moves chose from
    j["bakes_published"] = bakes_seen_;
    j["wall_ms"] = std::chrono::duration<double, std::milli>(now - t_start_).count();
    j["final_wait_ms"] = std::chrono::duration<double, std::milli>(now - t_moves_done_).count();
    j["rss_start_kib"] = rss_start_;
    j["rss_final_bake_kib"] = resident_kib();
    j["mesh"] = b && b->mesh ? b->mesh->path : "";
    j["config"] = config_json(nav::BakeInputs{app.desired_params(), app.desired_volumes(), nav::AreaTable::defaults(), {}, {}, {}, {}});
    nlohmann::ordered_json bake;
    if (b) {
        bake["generation"] = b->generation;
        bake["params_match"] = b->inputs.params == app.desired_params();
        bake["ok"] = b->error.is_ok() && b->built_through == nav::kStageCount - 1;
        bake["error"] = b->error.is_ok() ? "" : b->error.message;
        bake["error_stage"] = b->error_stage >= 0 ? std::string(nav::kStageNames[static_cast<size_t>(b->error_stage)]) : "";
        bake["built_through"] =
            b->built_through >= 0 ? std::string(nav::kStageNames[static_cast<size_t>(b->built_through)]) : "";
        nlohmann::ordered_json stages = nlohmann::ordered_json::object();
        for (int s = 0; s <= b->built_through && s < nav::kStageCount; ++s) {
            nlohmann::ordered_json c = nlohmann::ordered_json::object();
            for (const nav::StageCount& sc : b->stats[static_cast<size_t>(s)].counts) c[std::string(sc.name)] = sc.value;
            stages[std::string(nav::kStageNames[static_cast<size_t>(s)])] = c;
        }
        bake["stages"] = stages;
        // the navbake --json counts, for a bake that went through (a failed one keeps stale counts)
        if (bake["ok"].get<bool>()) {
            nlohmann::ordered_json counts = nlohmann::ordered_json::object();
            for (const char* k : {"solid_spans", "compact_spans", "walkable_spans", "regions", "contours", "poly_verts",
                                  "polys", "detail_verts", "detail_tris"})
                counts[k] = b->count(k);
            if (b->auto_links)  // as navbake --json: only when automatic links are on
                for (const char* k : {"auto_links", "links_rejected"}) counts[k] = b->count(k);
            bake["counts"] = counts;
        }
    }
    j["bake"] = bake;
}

void StressRun::finish(bool timed_out) {
    using clock = std::chrono::steady_clock;
    phase_ = Phase::Done;
    nlohmann::ordered_json& j = report_;
    j["timed_out"] = timed_out;
    j["restore_ms"] = std::chrono::duration<double, std::milli>(clock::now() - t_restore_).count();
    j["rss_end_kib"] = rss_end_;
    j["rss_peak_kib"] = rss_peak_;
    // UI frame times (nearest-rank percentiles) and the frames in which the UI thread built a draw
    // layer itself instead of uploading the worker's
    std::vector<float> ms = frame_ms_;
    std::sort(ms.begin(), ms.end());
    const auto pct = [&](double p) { return nearest_rank(ms, p); };
    nlohmann::ordered_json fr;
    fr["count"] = frames_;
    fr["timed"] = ms.size();
    fr["p50_ms"] = pct(0.50);
    fr["p99_ms"] = pct(0.99);
    fr["max_ms"] = ms.empty() ? 0.0 : static_cast<double>(ms.back());
    fr["ui_waits_on_layers"] = ui_waits_;
    // the layer work in those frames: the UI thread's share of a frame spent on draw layers
    std::vector<float> lw = layer_ms_;
    std::sort(lw.begin(), lw.end());
    fr["layer_work_p50_ms"] = nearest_rank(lw, 0.50);
    fr["layer_work_p99_ms"] = nearest_rank(lw, 0.99);
    fr["layer_work_max_ms"] = lw.empty() ? 0.0 : static_cast<double>(lw.back());
    fr["layer_work_over_33ms"] = std::count_if(lw.begin(), lw.end(), [](float v) { return v > 33.0f; });
    // the layers' GPU parts (one per block of tiles, render/layers.h) over the run: uploaded, and
    // kept because their tiles were not re-baked
    if (app_) {
        fr["layer_parts_uploaded"] = app_->layer_cache().part_counts().uploaded;
        fr["layer_parts_kept"] = app_->layer_cache().part_counts().kept;
    }
    j["frames"] = fr;
    // result latency: move -> first frame showing a finished bake of its parameters, layers uploaded
    std::vector<float> lat = latency_ms_;
    std::sort(lat.begin(), lat.end());
    nlohmann::ordered_json la;
    la["late_only"] = o_.late;
    la["every_ms"] = o_.every_ms;
    la["count"] = lat.size();              // moves timed
    la["superseded"] = superseded_;        // a later move came before their bake showed
    la["unchanged"] = unchanged_;          // the slider landed on its current value
    la["unresolved"] = unresolved_;        // still pending when the worker settled or timed out
    la["failed_results"] = failed_results_;  // timed results that were a refused or failed bake
    la["p50_ms"] = nearest_rank(lat, 0.50);
    la["p99_ms"] = nearest_rank(lat, 0.99);
    la["max_ms"] = lat.empty() ? 0.0 : static_cast<double>(lat.back());
    nlohmann::ordered_json fails = nlohmann::ordered_json::object();
    nlohmann::ordered_json fail_cfgs = nlohmann::ordered_json::object();
    for (const auto& [what, n] : failures_) fails[what] = n;
    for (const auto& [what, c] : failure_configs_) fail_cfgs[what] = c;
    la["failures"] = fails;  // the failed results' errors (the first 20 distinct ones) and how often
    la["failure_configs"] = fail_cfgs;  // the first config each failed with, for navbake --config
    j["latency"] = la;
    nlohmann::ordered_json layers = nlohmann::ordered_json::object();
    if (app_) {
        for (int li = 0; li < nav::render::kLayerCount; ++li) {
            const auto l = static_cast<nav::render::Layer>(li);
            const auto& in = app_->layer_cache().info(l);
            if (!in.built) continue;
            nlohmann::ordered_json e;
            e["build_ms"] = in.build_ms;
            e["built_on"] = in.on_ui ? "ui" : "worker";
            e["upload_ms"] = in.upload_ms;
            e["spans"] = in.spans;
            e["triangles"] = in.triangles;
            e["lines"] = in.lines;
            e["gpu_kib"] = in.gpu_bytes / 1024;
            e["parts"] = in.parts;
            e["parts_uploaded"] = in.parts_uploaded;
            layers[std::string(nav::render::layer_name(l))] = e;
        }
    }
    j["layers"] = layers;  // the last rebuild of each shown layer (the bake at the starting parameters)
    j["layers_cpu_kib"] = app_ ? static_cast<int64_t>(app_->layer_cpu_bytes() / 1024) : 0;
    if (const nav::Status st = nav::write_output_file(o_.report, j.dump(2) + "\n"); !st) {
        std::fprintf(stderr, "navdebug: --stress-report %s\n", st.message.c_str());
        exit_code_ = 1;
        return;
    }
    std::printf("navdebug: stress: result latency p50 %.1f ms, p99 %.1f ms over %zu moves (%d superseded, %d unchanged)\n",
                nearest_rank(lat, 0.50), nearest_rank(lat, 0.99), lat.size(), superseded_, unchanged_);
    std::printf("navdebug: stress: %d moves in %lld frames (p50 %.1f ms, p99 %.1f ms, %llu UI layer builds), %llu bakes "
                "published; RSS start %lld, final bake %lld, back at the starting parameters %lld KiB (peak %lld); wrote %s\n",
                done_, static_cast<long long>(frames_), pct(0.50), pct(0.99), static_cast<unsigned long long>(ui_waits_), static_cast<unsigned long long>(bakes_seen_),
                static_cast<long long>(rss_start_), static_cast<long long>(j.value("rss_final_bake_kib", int64_t(0))),
                static_cast<long long>(rss_end_), static_cast<long long>(rss_peak_), o_.report.c_str());
    if (timed_out) {
        std::fprintf(stderr, "navdebug: stress: a bake did not finish within %.0f s\n", o_.timeout_s);
        exit_code_ = 1;
    }
}

}  // namespace navdebug
