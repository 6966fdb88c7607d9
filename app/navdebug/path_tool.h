// The path tool: start / end points picked in the view, the path query run on the UI thread
// against the current snapshot's navmesh (re-run when the navmesh or an option changes), the
// "Path" panel with its read-outs, and the batches of the `path` draw layer. Three modes: the path
// (A* corridor and straight path), a raycast from the start toward the end along the surface, and
// the distance to the nearest wall around the start. The markers can be dragged.
#pragma once
#include <glm/glm.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/bake/areas.h"
#include "core/pipeline/agent_types.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"
#include "render/draw_list.h"
#include "render/renderer.h"

namespace navdebug {

class PathTool {
public:
    enum class Mode { Path = 0, Raycast = 1, Wall = 2 };
    static constexpr const char* kModeNames[3] = {"path", "raycast", "distance to wall"};

    PathTool();

    Mode mode() const { return mode_; }
    void set_mode(Mode m) { mode_ = m, dirty_ = true; }

    void set_start(const glm::vec3& p);
    void set_end(const glm::vec3& p);
    // No start, no end (Clear; a new level: the old points are off it).
    void clear_points() { has_start_ = has_end_ = false, drag_ = 0, dirty_ = true; }
    bool has_start() const { return has_start_; }
    bool has_end() const { return has_end_; }
    const glm::vec3& start() const { return start_; }
    const glm::vec3& end() const { return end_; }
    // The area types (the Areas panel's table): names and colours for the filter's rows, and the
    // seed of its costs: each area's cost in the filter follows the table's whenever the table's
    // cost of that area changes (the first call seeds them all); the Path panel's sliders then
    // change the filter's cost alone (a per-query override, "Reset costs" goes back to the table's).
    // Re-runs the query when a cost it seeds changed.
    void set_areas(const nav::AreaTable& areas);
    // The filter the queries use: per-area costs, include / exclude flags (kPolyFlagDisabled is
    // always excluded).
    const nav::QueryFilter& filter() const { return filter_; }
    void set_area_cost(uint8_t area, float cost);
    void set_filter_flags(uint16_t include_flags, uint16_t exclude_flags);
    // The bake's agent types (BakeInputs::agent_types): with two or more the Filter offers them and
    // the queries run for the one chosen (QueryFilter::agent_type; -1: any polygon). A name asked
    // for before the bake had it (navdebug --agent-type) is picked once the list holds it.
    void set_agent_types(const std::vector<nav::AgentType>& types);
    void choose_agent_type(const std::string& name) { wanted_type_ = name, set_agent_types(types_); }
    int agent_type() const { return filter_.agent_type; }
    // Re-runs the query when the navmesh (identity) or an input changed since the last run.
    void update(const std::shared_ptr<const nav::NavMesh>& mesh);
    // Panel contents (inside an open ImGui window).
    void ui();
    // Rebuilds and uploads the draw batches when the result changed; draws them.
    void draw(nav::render::Renderer& r);
    // A* node under a world point (when "show A* nodes" is on): text for a tooltip, empty if none.
    std::string node_tooltip(const glm::vec3& p);
    // Path mode with both points set, and the last query left the start or the end off the mesh or
    // stopped short of the end, or (detour) reached it by a path over `detour` times the straight
    // line (the Path panel then offers Why?).
    bool failed(float detour) const {
        if (mode_ != Mode::Path || !has_start_ || !has_end_ || !mesh_ || mesh_->empty() || !status_) return false;
        if (route_.start.poly == nav::kNoRef || route_.end.poly == nav::kNoRef || !route_.path.reached) return true;
        const float straight = std::hypot(end_.x - start_.x, end_.z - start_.z);
        return straight > 0.0f && route_.straight.length() > detour * straight;
    }
    // The current path (Path mode, both points set): its straight path's points, x, y, z each;
    // empty otherwise. Export glTF writes it as the path node.
    std::vector<float> path_points() const {
        if (mode_ != Mode::Path || !has_start_ || !has_end_ || !mesh_ || !status_) return {};
        return route_.straight.points;
    }
    // Its corners' flags (nav::kStraightOffMesh: an off-mesh link starts there), as path_points.
    std::vector<uint8_t> path_flags() const {
        if (mode_ != Mode::Path || !has_start_ || !has_end_ || !mesh_ || !status_) return {};
        return route_.straight.flags;
    }
    bool path_reached() const { return !path_points().empty() && route_.path.reached; }
    bool show_nodes() const { return show_nodes_; }
    void set_show_nodes(bool on) { show_nodes_ = on, redraw_ = true; }
    // Path on top (render/path_draw.h PathDrawInput::on_top): default on.
    bool on_top() const { return on_top_; }
    void set_on_top(bool on) { on_top_ = on, redraw_ = true; }
    // Shows the funnel stepper at step `step` (clamped to the steps of the query).
    void set_funnel_step(int step) { stepper_ = true, funnel_step_ = step, redraw_ = true; }

    // Marker dragging. begin_drag grabs the start or end marker when the mouse (mx, my in pixels of
    // a W x H view) is within a few pixels of its pole on screen, or `hit` (the surface point under
    // the cursor, null if none) lies within half a metre of it; start_only: only the start marker.
    // Returns whether a marker was grabbed; drag_to then moves it, end_drag lets it go.
    bool begin_drag(const glm::mat4& view_proj, float W, float H, float mx, float my, const glm::vec3* hit,
                    bool start_only);
    void drag_to(const glm::vec3& p);
    void end_drag() { drag_ = 0; }
    bool dragging() const { return drag_ != 0; }

private:
    // the parts of ui()
    void ui_points();
    void ui_readouts();
    void ui_options();
    void ui_funnel_stepper();
    void ui_filter();  // include / exclude flags, per-area cost sliders
    void run();
    void run_path();
    void run_raycast();
    void run_wall();
    bool end_marker_shown() const { return mode_ != Mode::Wall; }

    std::shared_ptr<const nav::NavMesh> mesh_;
    nav::NavQuery query_;
    nav::QueryFilter filter_;
    std::vector<nav::AgentType> types_;
    std::string wanted_type_;  // --agent-type, until the list has it
    nav::AreaTable areas_ = nav::AreaTable::defaults();
    bool areas_seeded_ = false;
    nav::StraightPathOptions options_;
    nav::Rng rng_{0x5eed};

    Mode mode_ = Mode::Path;
    int drag_ = 0;  // 0 none, 1 start, 2 end
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
    nav::NearestPoly start_np_;      // raycast / wall: the start on the mesh
    nav::RaycastHit ray_;
    float ray_end_[3] = {0, 0, 0};   // hit point (or the end) on the surface
    nav::WallHit wall_;
    nav::Status status_;
    double query_us_ = 0;
    int timing_reps_ = 0;

    // view options
    bool show_nodes_ = false;
    bool on_top_ = true;
    bool stepper_ = false;
    int funnel_step_ = 0;
    int crossings_ = 0;
    float shrink_ = 0.0f;
    float wall_radius_ = 10.0f;

    nav::render::DrawList fill_cpu_, path_cpu_, funnel_cpu_, outline_cpu_, marker_cpu_;
    nav::render::GpuDrawList fill_gpu_, path_gpu_, funnel_gpu_, outline_gpu_, marker_gpu_;
};

}  // namespace navdebug
