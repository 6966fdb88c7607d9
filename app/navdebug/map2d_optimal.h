// The path tool's optimal path: with "optimal" on (the Path panel's checkbox, --path-mode
// optimal), Polyanya (core/runtime/polyanya.h) runs between the path tool's start and end beside
// A* + funnel, its path is drawn over the funnel path, and the panel shows both lengths (in the xz
// projection) and their ratio. The search layer draws Polyanya's trace: the search nodes in
// expansion order up to a step (intervals, their roots, the node at the step with its cone from the
// root), with a step slider (--polyanya-step N).
#pragma once
#include <glm/glm.hpp>

#include <memory>

#include "core/runtime/navmesh.h"
#include "core/runtime/polyanya.h"
#include "core/runtime/query.h"
#include "render/draw_list.h"
#include "render/renderer.h"

namespace navdebug {

class OptimalPath {
public:
    bool enabled() const { return enabled_; }
    void set_enabled(bool on) { enabled_ = on, dirty_ = true; }
    // Shows the search layer at this step (0 = nothing expanded yet; clamped to the trace).
    void set_search_step(int step) { show_search_ = true, step_ = step, redraw_ = true; }

    // Re-runs when the navmesh (identity) or an end point changed; nothing without both ends.
    void update(const std::shared_ptr<const nav::NavMesh>& mesh, bool has_start, const glm::vec3& start, bool has_end,
                const glm::vec3& end);
    // The Path panel's section (inside an open ImGui window).
    void ui();
    void draw(nav::render::Renderer& r);

private:
    void run();
    void rebuild();

    bool enabled_ = false, show_search_ = false;
    int step_ = 0;
    bool dirty_ = true, redraw_ = true;
    std::shared_ptr<const nav::NavMesh> mesh_;
    bool has_start_ = false, has_end_ = false;
    glm::vec3 start_{0.0f}, end_{0.0f};

    // both paths through the query layer (find_route, with and without RouteOptions::optimal);
    // q_ keeps Polyanya's search mesh while the navmesh stays the same
    nav::NavQuery q_;
    std::shared_ptr<const nav::NavMesh> q_for_;  // the navmesh q_ is bound to
    nav::Route path_;   // the optimal route
    nav::PolyanyaTrace trace_;
    nav::Route route_;  // A* + funnel
    double optimal_xz_ = 0, funnel_xz_ = 0;  // lengths in the xz projection
    nav::Status status_;
    bool ran_ = false;

    nav::render::DrawList search_cpu_, path_cpu_;
    nav::render::GpuDrawList search_gpu_, path_gpu_;
};

}  // namespace navdebug
