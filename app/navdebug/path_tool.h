// The path tool: start / end points picked in the view, the path query run on the UI thread
// against the current snapshot's navmesh (re-run when the navmesh or an option changes), the
// "Path" panel with its read-outs, and the batches of the `path` draw layer.
#pragma once
#include <glm/glm.hpp>

#include <memory>
#include <string>

#include "core/navmesh.h"
#include "core/query.h"
#include "render/draw_list.h"
#include "render/renderer.h"

namespace navdebug {

class PathTool {
public:
    PathTool();

    void set_start(const glm::vec3& p);
    void set_end(const glm::vec3& p);
    // Re-runs the query when the navmesh (identity) or an input changed since the last run.
    void update(const std::shared_ptr<const nav::NavMesh>& mesh);
    // Panel contents (inside an open ImGui window).
    void ui();
    // Rebuilds and uploads the draw batches when the result changed; draws them.
    void draw(nav::render::Renderer& r);
    // A* node under a world point (when "show A* nodes" is on): text for a tooltip, empty if none.
    std::string node_tooltip(const glm::vec3& p);
    bool show_nodes() const { return show_nodes_; }
    void set_show_nodes(bool on) { show_nodes_ = on, redraw_ = true; }
    // Shows the funnel stepper at step `step` (clamped to the steps of the query).
    void set_funnel_step(int step) { stepper_ = true, funnel_step_ = step, redraw_ = true; }

private:
    void run();

    std::shared_ptr<const nav::NavMesh> mesh_;
    nav::NavQuery query_;
    nav::QueryFilter filter_;
    nav::StraightPathOptions options_;
    nav::Rng rng_{0x5eed};

    bool has_start_ = false, has_end_ = false;
    glm::vec3 start_{0.0f}, end_{0.0f};
    bool dirty_ = true;     // inputs changed: re-run
    bool redraw_ = true;    // results changed: rebuild the batches

    // results
    nav::Route route_;
    nav::PathResult traced_path_;
    nav::StraightPath traced_straight_;
    nav::AStarTrace astar_;
    nav::FunnelTrace funnel_;
    nav::Status status_;
    double query_us_ = 0;
    int timing_reps_ = 0;

    // view options
    bool show_nodes_ = false;
    bool stepper_ = false;
    int funnel_step_ = 0;
    int crossings_ = 0;
    float shrink_ = 0.0f;

    nav::render::DrawList fill_cpu_, path_cpu_, funnel_cpu_;
    nav::render::GpuDrawList fill_gpu_, path_gpu_, funnel_gpu_;
};

}  // namespace navdebug
