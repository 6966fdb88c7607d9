// Region replay: steps through how the partition grew its regions, from the trace the core
// records on request (nav::RegionTrace): the watershed flood level by level (spans not reached
// yet grey), then the small-region filter and merge; monotone / layers by their sweep order.
// `--replay watershed=LEVEL` shows one moment headless.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "render/draw_list.h"
#include "render/renderer.h"

namespace navdebug {

class RegionReplay {
public:
    // Parses the --replay value: KIND=STEP with KIND watershed, monotone or layers (the partition
    // whose replay is asked for) and STEP a replay step, 0 = the first flood level (or swept row);
    // after the growth steps come the filter step, then the merge step; a STEP beyond the end shows
    // the final regions. Opens the replay. False with `err` naming what was expected.
    bool parse_flag(const std::string& text, std::string& err);
    // Whether the worker must record the region trace (the replay is open or was asked for).
    bool wants_trace() const { return wanted_; }
    // ImGui controls (slider over the steps, play, filter/merge step), inside the Layers panel.
    void panel(const nav::Bake* bake);
    // While active the replay picture replaces the regions layer.
    bool active() const { return wanted_; }
    // Builds (when the bake or the step changed), uploads and draws the replay picture.
    void draw(nav::render::Renderer& r, const std::shared_ptr<const nav::Bake>& bake);

    // The step shown for a trace with `total` replay steps (the asked step clamped to the last).
    int step_for(int total) const;

private:
    // Per-trace counts for the panel text, rebuilt when the trace changes.
    void refresh_stats(const nav::Bake& bake);

    bool wanted_ = false;
    bool kind_given_ = false;  // --replay named the partition (kind_)
    nav::RegionTrace::Kind kind_ = nav::RegionTrace::Kind::Watershed;
    int step_ = 0;            // the replay step asked for (may lie beyond the end: final)
    bool follow_end_ = false; // keep showing the final step when a new trace has more steps
    bool playing_ = false;
    float play_clock_ = 0.0f;
    float steps_per_second_ = 6.0f;

    // panel statistics of stats_trace_
    const nav::RegionTrace* stats_trace_ = nullptr;
    std::shared_ptr<const nav::RegionTrace> stats_hold_;
    std::vector<int64_t> reached_upto_;  // spans in a region after growth step k
    std::vector<int> seeded_upto_;       // regions seeded by growth step k
    int64_t spans_after_filter_ = 0, walkable_spans_ = 0;
    int regions_after_filter_ = 0;

    // the built picture
    std::shared_ptr<const nav::RegionTrace> built_trace_;
    std::shared_ptr<const nav::Regions> built_regions_;
    std::shared_ptr<const nav::CompactHeightfield> built_chf_;
    int built_step_ = -1;
    nav::render::DrawList cpu_, cpu_points_;
    nav::render::GpuDrawList gpu_, gpu_points_;
};

}  // namespace navdebug
