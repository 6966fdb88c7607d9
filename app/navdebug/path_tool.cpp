#include "path_tool.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "render/layers.h"
#include "render/path_draw.h"

namespace navdebug {

namespace r = nav::render;

namespace {

// Search box around a picked point (Detour sample's extents): picks land on the input surface,
// up to a few metres above or below the polygon's detail surface.
constexpr float kHalfExtents[3] = {2.0f, 4.0f, 2.0f};
const ImVec4 kBad(1.0f, 0.42f, 0.38f, 1.0f);
const ImVec4 kWarn(1.0f, 0.8f, 0.3f, 1.0f);
const ImVec4 kGood(0.45f, 0.9f, 0.5f, 1.0f);
const ImVec4 kDim(0.55f, 0.57f, 0.62f, 1.0f);

ImVec4 imcol(uint32_t c) {
    return {r::color_r(c) / 255.0f, r::color_g(c) / 255.0f, r::color_b(c) / 255.0f, 1.0f};
}

}  // namespace

PathTool::PathTool() = default;

void PathTool::set_start(const glm::vec3& p) {
    start_ = p;
    has_start_ = true;
    dirty_ = true;
}

void PathTool::set_end(const glm::vec3& p) {
    end_ = p;
    has_end_ = true;
    dirty_ = true;
}

void PathTool::update(const std::shared_ptr<const nav::NavMesh>& mesh) {
    if (mesh != mesh_) {
        mesh_ = mesh;
        if (mesh_) query_.init(mesh_.get());
        dirty_ = true;
    }
    if (dirty_) run();
}

void PathTool::run() {
    dirty_ = false;
    redraw_ = true;
    status_ = nav::Status::ok();
    route_.start = {};
    route_.end = {};
    route_.path.polys.clear();
    route_.path.reached = false;
    route_.straight.points.clear();
    route_.straight.flags.clear();
    route_.straight.polys.clear();
    traced_path_.polys.clear();
    traced_path_.reached = false;
    traced_straight_.points.clear();
    traced_straight_.flags.clear();
    traced_straight_.polys.clear();
    astar_.clear();
    funnel_.clear();
    query_us_ = 0;
    timing_reps_ = 0;
    if (!mesh_ || mesh_->empty() || !has_start_ || !has_end_) return;

    options_.crossings = static_cast<nav::Crossings>(crossings_);
    options_.shrink_fraction = shrink_;
    // the untraced query, repeated for a stable time (at most 64 runs or 2 ms)
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    double elapsed = 0;
    do {
        status_ = query_.find_route(&start_.x, &end_.x, kHalfExtents, filter_, options_, route_);
        ++timing_reps_;
        elapsed = std::chrono::duration<double, std::micro>(clock::now() - t0).count();
    } while (status_ && timing_reps_ < 64 && elapsed < 2000.0);
    query_us_ = elapsed / timing_reps_;
    if (!status_ || !route_.found()) return;

    // again with traces, for the A* nodes and the funnel stepper
    status_ = query_.find_path(route_.start.poly, route_.end.poly, route_.start.point, route_.end.point, filter_,
                               traced_path_, &astar_);
    if (!status_) return;
    status_ = query_.find_straight_path(route_.start.point, route_.end.point, traced_path_.polys, options_,
                                        traced_straight_, &funnel_);
    funnel_step_ = std::clamp(funnel_step_, 0, std::max(static_cast<int>(funnel_.steps.size()) - 1, 0));
}

void PathTool::ui() {
    ImGui::TextColored(kDim, "Shift+click: start   click: end");
    auto swatch = [](uint32_t c) {
        ImGui::ColorButton("##sw", imcol(c), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker, ImVec2(10, 10));
        ImGui::SameLine();
    };
    ImGui::PushID("start");
    swatch(r::colors::kPathStart);
    ImGui::PopID();
    if (has_start_) ImGui::Text("start %.2f, %.2f, %.2f", start_.x, start_.y, start_.z);
    else ImGui::TextColored(kDim, "start not set");
    ImGui::PushID("end");
    swatch(r::colors::kPathEnd);
    ImGui::PopID();
    if (has_end_) ImGui::Text("end   %.2f, %.2f, %.2f", end_.x, end_.y, end_.z);
    else ImGui::TextColored(kDim, "end not set");

    const bool have_mesh = mesh_ && !mesh_->empty();
    ImGui::BeginDisabled(!have_mesh);
    auto random_point = [&](bool start) {
        nav::RandomPoint rp;
        if (query_.random_point(filter_, rng_, rp) && rp.poly != nav::kNoPoly) {
            const glm::vec3 p(rp.point[0], rp.point[1], rp.point[2]);
            if (start) set_start(p);
            else set_end(p);
        }
    };
    if (ImGui::Button("Random start")) random_point(true);
    ImGui::SameLine();
    if (ImGui::Button("Random end")) random_point(false);
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Clear")) {
        has_start_ = has_end_ = false;
        dirty_ = true;
    }

    // state and read-outs
    if (!have_mesh) {
        ImGui::TextColored(kDim, "no navmesh: bake through the navmesh stage");
    } else if (!has_start_ || !has_end_) {
        ImGui::TextColored(kDim, "set both points to query");
    } else if (!status_) {
        ImGui::TextColored(kBad, "query failed: %s", status_.message.c_str());
    } else if (route_.start.poly == nav::kNoPoly || route_.end.poly == nav::kNoPoly) {
        const bool s = route_.start.poly == nav::kNoPoly, e = route_.end.poly == nav::kNoPoly;
        ImGui::TextColored(kBad, "%s off the mesh", s && e ? "start and end" : (s ? "start" : "end"));
    } else {
        const nav::PathResult& p = route_.path;
        if (p.reached) ImGui::TextColored(kGood, "path found");
        else if (p.out_of_nodes) ImGui::TextColored(kWarn, "partial: A* node limit hit");
        else ImGui::TextColored(kWarn, "partial: end unreachable");
        ImGui::Text("corridor %d polygons", static_cast<int>(p.polys.size()));
        ImGui::Text("straight path %d points", route_.straight.size());
        ImGui::Text("length %.2f m   cost %.2f", route_.straight.length(), p.cost);
        ImGui::Text("query %.1f us   expanded %d", query_us_, p.expanded);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("find_route (nearest polygons, A*, funnel) without traces, mean of %d runs", timing_reps_);
    }

    // options
    ImGui::SetNextItemWidth(150.0f);
    if (ImGui::SliderFloat("portal shrink", &shrink_, 0.0f, 0.45f, "%.2f", ImGuiSliderFlags_AlwaysClamp)) dirty_ = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Shrink each portal towards its middle by this fraction of its length (keeps corners off walls).");
    const char* crossings[] = {"corners only", "area changes", "every edge"};
    ImGui::SetNextItemWidth(150.0f);
    if (ImGui::Combo("crossing vertices", &crossings_, crossings, 3)) dirty_ = true;
    if (ImGui::Checkbox("show A* nodes", &show_nodes_)) redraw_ = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Polygons closed (orange) and still open (cyan) when the search ended; hover one for g and f.");
    if (show_nodes_ && !astar_.steps.empty()) {
        ImGui::SameLine();
        ImGui::TextColored(kDim, "%d closed", static_cast<int>(astar_.steps.back().closed_count));
    }

    // funnel stepper
    if (ImGui::Checkbox("funnel stepper", &stepper_)) redraw_ = true;
    const int nsteps = static_cast<int>(funnel_.steps.size());
    if (stepper_ && nsteps > 0) {
        const int before = funnel_step_;
        if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) --funnel_step_;
        ImGui::SameLine();
        if (ImGui::ArrowButton("##next", ImGuiDir_Right)) ++funnel_step_;
        ImGui::SameLine();
        ImGui::SetNextItemWidth(-1.0f);
        ImGui::SliderInt("##step", &funnel_step_, 0, nsteps - 1, "step %d");
        funnel_step_ = std::clamp(funnel_step_, 0, nsteps - 1);
        if (funnel_step_ != before) redraw_ = true;
        const nav::FunnelTrace::Step& s = funnel_.steps[static_cast<size_t>(funnel_step_)];
        std::string ev;
        if (s.events & nav::FunnelTrace::kSkip) ev += " skip";
        if (s.events & nav::FunnelTrace::kTightenLeft) ev += " tighten-left";
        if (s.events & nav::FunnelTrace::kTightenRight) ev += " tighten-right";
        if (s.events & nav::FunnelTrace::kCornerLeft) ev += " corner-left";
        if (s.events & nav::FunnelTrace::kCornerRight) ev += " corner-right";
        if (ev.empty()) ev = " no change";
        const bool is_end = s.portal + 1 >= traced_path_.polys.size();
        ImGui::Text("%s %u:%s", is_end ? "end point" : "portal", s.portal, ev.c_str());
        ImGui::TextColored(imcol(r::colors::kFunnelApex), "apex");
        ImGui::SameLine();
        ImGui::TextColored(imcol(r::colors::kFunnelLeft), "left");
        ImGui::SameLine();
        ImGui::TextColored(imcol(r::colors::kFunnelRight), "right");
        ImGui::SameLine();
        ImGui::TextColored(imcol(r::colors::kFunnelPortal), "portal");
    } else if (stepper_) {
        ImGui::TextColored(kDim, "no funnel steps (no corridor)");
    }
}

void PathTool::draw(r::Renderer& rend) {
    if (redraw_) {
        redraw_ = false;
        r::PathDrawInput in;
        in.mesh = mesh_.get();
        in.has_start = has_start_;
        in.has_end = has_end_;
        std::copy(&start_.x, &start_.x + 3, in.start);
        std::copy(&end_.x, &end_.x + 3, in.end);
        const bool traced = !traced_path_.polys.empty();
        in.path = traced ? &traced_path_ : &route_.path;
        in.straight = traced ? &traced_straight_ : &route_.straight;
        in.astar = show_nodes_ && traced ? &astar_ : nullptr;
        in.funnel = stepper_ ? &funnel_ : nullptr;
        in.funnel_step = funnel_step_;
        r::build_path(in, fill_cpu_, path_cpu_, funnel_cpu_);
        fill_gpu_.upload(fill_cpu_);
        path_gpu_.upload(path_cpu_);
        funnel_gpu_.upload(funnel_cpu_);
    }
    rend.draw(fill_gpu_);
    rend.draw(path_gpu_);
    rend.draw(funnel_gpu_);
}

std::string PathTool::node_tooltip(const glm::vec3& p) {
    if (!show_nodes_ || !mesh_ || astar_.steps.empty()) return {};
    nav::NearestPoly np;
    const float ext[3] = {0.1f, 1.0f, 0.1f};
    if (!query_.find_nearest_poly(&p.x, ext, filter_, np) || np.poly == nav::kNoPoly) return {};
    // the lowest-g popped state of the polygon (closed), else its lowest-g discovered state (open)
    const nav::AStarTrace::Step* best = nullptr;
    for (const auto& s : astar_.steps)
        if (s.poly == np.poly && (!best || s.g < best->g)) best = &s;
    char buf[160];
    if (best) {
        std::snprintf(buf, sizeof buf, "polygon %u (closed)\ng %.2f   f %.2f   h %.2f", np.poly, best->g, best->f,
                      best->f - best->g);
        return buf;
    }
    const nav::AStarTrace::Neighbour* nb = nullptr;
    for (const auto& u : astar_.updates)
        if (u.poly == np.poly && (!nb || u.g < nb->g)) nb = &u;
    if (!nb) {
        std::snprintf(buf, sizeof buf, "polygon %u (not reached)", np.poly);
        return buf;
    }
    std::snprintf(buf, sizeof buf, "polygon %u (discovered, not expanded)\ng %.2f   f %.2f   h %.2f", np.poly, nb->g, nb->f, nb->f - nb->g);
    return buf;
}

}  // namespace navdebug
