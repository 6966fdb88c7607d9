// The path tool's optimal path and Polyanya's search layer; see map2d_optimal.h.
#include "map2d_optimal.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui_common.h"

namespace navdebug {

namespace r = nav::render;

namespace {

constexpr uint32_t kOptimalLine = r::rgba(20, 255, 120);         // optimal path, spring green (funnel path stays magenta)
constexpr uint32_t kOptimalCorner = r::rgba(255, 255, 255);
constexpr uint32_t kInterval = r::rgba(250, 250, 40);            // expanded intervals, yellow
constexpr uint32_t kRoot = r::rgba(255, 200, 40);                // their roots, amber
constexpr uint32_t kCurrent = r::rgba(255, 90, 40);              // the node at the step, orange-red
constexpr uint32_t kCone = r::rgba(255, 120, 60, 90);            // its cone from the root
constexpr float kLift = 0.12f;                                   // above the navmesh and the path layer

}  // namespace

void OptimalPath::update(const std::shared_ptr<const nav::NavMesh>& mesh, bool has_start, const glm::vec3& start,
                         bool has_end, const glm::vec3& end) {
    if (mesh != mesh_ || has_start != has_start_ || has_end != has_end_ || start != start_ || end != end_) {
        mesh_ = mesh;
        has_start_ = has_start;
        has_end_ = has_end;
        start_ = start;
        end_ = end;
        dirty_ = true;
    }
    if (dirty_ && enabled_) run();
}

void OptimalPath::run() {
    dirty_ = false;
    redraw_ = true;
    ran_ = false;
    path_ = {};
    trace_.clear();
    funnel_xz_ = optimal_xz_ = 0;
    status_ = nav::Status::ok();
    if (!mesh_ || !has_start_ || !has_end_) return;
    if (q_for_ != mesh_) {
        q_.init(mesh_.get());
        q_for_ = mesh_;
    }
    const nav::QueryFilter filter;
    status_ = q_.find_route(&start_.x, &end_.x, kPickHalfExtents, filter, nav::StraightPathOptions{}, route_);
    if (!status_) return;
    ran_ = true;
    if (!route_.found()) return;
    funnel_xz_ = route_.length_xz();
    nav::RouteOptions ro;
    ro.optimal = true;
    status_ = q_.find_route(&start_.x, &end_.x, kPickHalfExtents, filter, ro, path_, &trace_);
    optimal_xz_ = path_.path.reached ? path_.length_xz() : 0.0;
}

void OptimalPath::ui() {
    if (ImGui::Checkbox("optimal path (Polyanya)", &enabled_)) dirty_ = redraw_ = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Also run Polyanya (the Euclidean-shortest path over the navmesh) and draw it in green "
                          "over the A* + funnel path (magenta)");
    if (!enabled_) return;
    if (!status_) {
        ImGui::TextColored(kErrorColor, "%s", status_.message.c_str());
        return;
    }
    if (!ran_) {
        ImGui::TextDisabled("set both points to compare");
        return;
    }
    if (!path_.path.reached) {
        if (path_.path.out_of_nodes)
            ImGui::TextColored(kWarnColor, "Polyanya: out of nodes (stopped at its cap after %d expanded), no path shown",
                               path_.path.expanded);
        else
            ImGui::TextDisabled("Polyanya: no path (%d nodes expanded)", path_.path.expanded);
        return;
    }
    ImGui::Text("optimal %.3f m, A*+funnel %.3f m (xz)", optimal_xz_, funnel_xz_);
    if (funnel_xz_ > 0 && optimal_xz_ > 0)
        ImGui::Text("funnel / optimal = %.4f", funnel_xz_ / optimal_xz_);
    ImGui::Text("expanded %d search nodes", path_.path.expanded);
    if (ImGui::Checkbox("show search", &show_search_)) redraw_ = true;
    if (show_search_) {
        const int n = static_cast<int>(trace_.expanded.size());
        if (ImGui::SliderInt("search step", &step_, 0, n)) redraw_ = true;
        if (step_ > 0 && step_ <= n) {
            const nav::PolyanyaNode& nd = trace_.expanded[static_cast<size_t>(step_ - 1)];
            ImGui::TextDisabled("node %d: polygon %u, g %.3f, f %.3f", step_, nd.poly, nd.g, nd.f);
        }
    }
}

void OptimalPath::rebuild() {
    redraw_ = false;
    search_cpu_.clear();
    path_cpu_.clear();
    path_cpu_.line_width = 4.0f;
    path_cpu_.point_size = 8.0f;
    path_cpu_.depth_test = false;
    search_cpu_.line_width = 2.0f;
    search_cpu_.point_size = 7.0f;
    search_cpu_.depth_test = false;
    if (!enabled_ || !path_.path.reached) return;
    const std::vector<float>& p = path_.straight.points;
    for (size_t i = 0; i + 2 < p.size(); i += 3) {
        const float a[3] = {p[i], p[i + 1] + kLift, p[i + 2]};
        if (i + 5 < p.size()) {
            const float b[3] = {p[i + 3], p[i + 4] + kLift, p[i + 5]};
            path_cpu_.add_line(a, b, kOptimalLine);
        }
        path_cpu_.add_point(a, kOptimalCorner);
    }
    if (!show_search_) return;
    step_ = std::clamp(step_, 0, static_cast<int>(trace_.expanded.size()));
    // the trace is in xz; the height of the start stands in (2D maps are flat)
    const float y = route_.start.point[1] + kLift;
    for (int k = 0; k < step_; ++k) {
        const nav::PolyanyaNode& nd = trace_.expanded[static_cast<size_t>(k)];
        const float l[3] = {float(nd.left[0]), y, float(nd.left[1])}, rr[3] = {float(nd.right[0]), y, float(nd.right[1])};
        const float root[3] = {float(nd.root[0]), y, float(nd.root[1])};
        const bool cur = k + 1 == step_;
        search_cpu_.add_line(l, rr, cur ? kCurrent : kInterval);
        search_cpu_.add_point(root, cur ? kCurrent : kRoot);
        if (cur) {
            search_cpu_.add_triangle(root, rr, l, kCone);
            search_cpu_.add_triangle(root, l, rr, kCone);  // both windings: seen whatever the side
            search_cpu_.add_line(root, l, kCurrent);
            search_cpu_.add_line(root, rr, kCurrent);
        }
    }
}

void OptimalPath::draw(nav::render::Renderer& rr) {
    if (!enabled_) return;
    if (redraw_) {
        rebuild();
        search_gpu_.upload(search_cpu_);
        path_gpu_.upload(path_cpu_);
    }
    if (show_search_ && !search_cpu_.empty()) rr.draw(search_gpu_);
    if (!path_cpu_.empty()) rr.draw(path_gpu_);
}

}  // namespace navdebug
