#include "path_tool.h"
#include "ui_common.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "render/layers.h"
#include "render/path_draw.h"

namespace navdebug {

namespace r = nav::render;

namespace {


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

void PathTool::set_areas(const nav::AreaTable& areas) {
    if (areas_seeded_ && areas == areas_) return;
    for (const nav::AreaType& a : areas.types) {
        if (a.id >= nav::kMaxAreas) continue;
        const nav::AreaType* before = areas_.find(a.id);
        // seeded: the table's cost of this area changed (or the area is new): it wins again
        if (!areas_seeded_ || !before || before->cost != a.cost) {
            if (filter_.area_cost[a.id] != a.cost) dirty_ = true;
            filter_.area_cost[a.id] = a.cost;
        }
    }
    // an area taken out of the table costs 1 again (as make_query_filter gives it)
    for (const nav::AreaType& a : areas_.types)
        if (a.id < nav::kMaxAreas && !areas.find(a.id) && filter_.area_cost[a.id] != 1.0f) {
            filter_.area_cost[a.id] = 1.0f;
            dirty_ = true;
        }
    areas_ = areas;
    areas_seeded_ = true;
}

void PathTool::set_agent_types(const std::vector<nav::AgentType>& types) {
    int t = filter_.agent_type;
    if (!wanted_type_.empty()) {
        const int w = nav::find_agent_type(types, wanted_type_);
        if (w >= 0) t = w, wanted_type_.clear();
    }
    if (types.size() < 2 || t >= static_cast<int>(types.size())) t = -1;  // the list shrank: any polygon
    if (t != filter_.agent_type) filter_.agent_type = t, dirty_ = true;
    if (!(types == types_)) types_ = types;
}

void PathTool::set_area_cost(uint8_t area, float cost) {
    if (area >= nav::kMaxAreas || !std::isfinite(cost) || cost < 0.0f || filter_.area_cost[area] == cost) return;
    filter_.area_cost[area] = cost;
    dirty_ = true;  // re-planned on the next update (this frame)
}

void PathTool::set_filter_flags(uint16_t include_flags, uint16_t exclude_flags) {
    exclude_flags = static_cast<uint16_t>(exclude_flags | nav::kPolyFlagDisabled);
    if (include_flags == filter_.include_flags && exclude_flags == filter_.exclude_flags) return;
    filter_.include_flags = include_flags;
    filter_.exclude_flags = exclude_flags;
    dirty_ = true;
}

void PathTool::ui_filter() {
    if (!ImGui::TreeNodeEx("Filter", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (types_.size() >= 2) {  // the bake's agent types: the queries see the polygons the chosen one fits
        const int t = filter_.agent_type;
        const std::string shown = t < 0 ? std::string("any (every polygon)") : types_[static_cast<size_t>(t)].name;
        if (ImGui::BeginCombo("agent type", shown.c_str())) {
            if (ImGui::Selectable("any (every polygon)", t < 0) && t >= 0) filter_.agent_type = -1, dirty_ = true;
            for (size_t k = 0; k < types_.size(); ++k) {
                const nav::AgentType& a = types_[k];
                char label[160];
                std::snprintf(label, sizeof label, "%s (radius %.2f m, height %.2f m)", a.name.c_str(), a.radius, a.height);
                if (ImGui::Selectable(label, t == static_cast<int>(k)) && t != static_cast<int>(k))
                    filter_.agent_type = static_cast<int>(k), dirty_ = true;
            }
            ImGui::EndCombo();
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("The agent type the path is for: A*, the funnel, raycast and wall distance see only the\n"
                              "polygons it fits (the agent_types layer colours them).");
    }
    // include / exclude per named flag (not "disabled": pruned polygons are always excluded)
    uint16_t inc = filter_.include_flags, exc = filter_.exclude_flags;
    if (ImGui::BeginTable("##flags", 3, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(kDimColor, "flag");
        ImGui::TableNextColumn();
        ImGui::TextColored(kDimColor, "include");
        ImGui::TableNextColumn();
        ImGui::TextColored(kDimColor, "exclude");
        for (const nav::PolyFlagName& f : nav::poly_flag_names()) {
            if (f.bit == nav::kPolyFlagDisabled) continue;
            ImGui::PushID(f.bit);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(std::string(f.name).c_str());
            ImGui::TableNextColumn();
            bool in = (inc & f.bit) != 0, ex = (exc & f.bit) != 0;
            if (ImGui::Checkbox("##in", &in)) inc = static_cast<uint16_t>(in ? inc | f.bit : inc & ~f.bit);
            ImGui::TableNextColumn();
            if (ImGui::Checkbox("##ex", &ex)) exc = static_cast<uint16_t>(ex ? exc | f.bit : exc & ~f.bit);
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    set_filter_flags(inc, exc);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("A polygon passes with at least one included flag and no excluded one.");
    // per-area costs: moving a slider re-plans the path at once
    for (const nav::AreaType& a : areas_.types) {
        if (a.id >= nav::kMaxAreas) continue;
        ImGui::PushID(a.id);
        ImGui::ColorButton("##sw", to_imvec(a.color, true), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker,
                           ImVec2(10, 10));
        ImGui::SameLine();
        float c = filter_.area_cost[a.id];
        ImGui::SetNextItemWidth(120.0f);
        if (ImGui::SliderFloat(a.name.c_str(), &c, 0.0f, 100.0f, "%.2f", ImGuiSliderFlags_Logarithmic)) set_area_cost(a.id, c);
        ImGui::PopID();
    }
    if (ImGui::SmallButton("Reset costs")) {
        for (const nav::AreaType& a : areas_.types) set_area_cost(a.id, a.cost);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back to the Areas panel's costs.");
    ImGui::TreePop();
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
    start_np_ = {};
    ray_.hit = false;
    ray_.t = 1;
    ray_.polys.clear();
    wall_ = {};
    query_us_ = 0;
    timing_reps_ = 0;
    if (!mesh_ || mesh_->empty() || !has_start_) return;
    if (mode_ == Mode::Wall) return run_wall();
    if (!has_end_) return;
    if (mode_ == Mode::Raycast) return run_raycast();
    run_path();
}

// Runs `q` repeatedly for a stable time (at most 64 runs or 2 ms) into query_us_ / timing_reps_.
template <class Q>
static nav::Status timed(Q&& q, double& us, int& reps) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    double elapsed = 0;
    nav::Status st;
    reps = 0;
    do {
        st = q();
        ++reps;
        elapsed = std::chrono::duration<double, std::micro>(clock::now() - t0).count();
    } while (st && reps < 64 && elapsed < 2000.0);
    us = elapsed / reps;
    return st;
}

void PathTool::run_path() {
    options_.crossings = static_cast<nav::Crossings>(crossings_);
    options_.shrink_fraction = shrink_;
    // the untraced query, timed
    status_ = timed([&] { return query_.find_route(&start_.x, &end_.x, kPickHalfExtents, filter_, options_, route_); },
                    query_us_, timing_reps_);
    if (!status_ || !route_.found()) return;

    // again with traces, for the A* nodes and the funnel stepper
    status_ = query_.find_path(route_.start.poly, route_.end.poly, route_.start.point, route_.end.point, filter_,
                               traced_path_, &astar_);
    if (!status_) return;
    status_ = query_.find_straight_path(route_.start.point, route_.end.point, traced_path_.polys, traced_path_.links,
                                        options_, traced_straight_, &funnel_);
    funnel_step_ = std::clamp(funnel_step_, 0, std::max(static_cast<int>(funnel_.steps.size()) - 1, 0));
}

void PathTool::run_raycast() {
    status_ = query_.find_nearest_poly(&start_.x, kPickHalfExtents, filter_, start_np_);
    if (!status_ || start_np_.poly == nav::kNoRef) return;
    status_ = timed([&] { return query_.raycast(start_np_.poly, start_np_.point, &end_.x, filter_, ray_); }, query_us_,
                    timing_reps_);
    if (!status_ || ray_.polys.empty()) return;
    // where the ray stops (the hit, or the end), on the surface of the last polygon walked
    const float* a = start_np_.point;
    const float stop[3] = {a[0] + (end_.x - a[0]) * ray_.t, a[1] + (end_.y - a[1]) * ray_.t,
                           a[2] + (end_.z - a[2]) * ray_.t};
    if (!query_.closest_point_on_poly(ray_.polys.back(), stop, ray_end_)) std::copy(stop, stop + 3, ray_end_);
}

void PathTool::run_wall() {
    status_ = query_.find_nearest_poly(&start_.x, kPickHalfExtents, filter_, start_np_);
    if (!status_ || start_np_.poly == nav::kNoRef) return;
    status_ = timed([&] { return query_.find_distance_to_wall(start_np_.poly, start_np_.point, wall_radius_, filter_, wall_); },
                    query_us_, timing_reps_);
}

bool PathTool::begin_drag(const glm::mat4& view_proj, float W, float H, float mx, float my, const glm::vec3* hit,
                          bool start_only) {
    constexpr float kPixels = 8.0f;    // grab radius around the marker's pole on screen
    constexpr float kMetres = 0.5f;    // or around the marker's foot in the world
    constexpr float kPole = 1.8f;      // marker height (render/path_draw.cpp)
    auto to_screen = [&](const glm::vec3& p, glm::vec2& s) {
        const glm::vec4 c = view_proj * glm::vec4(p, 1.0f);
        if (c.w <= 1e-6f) return false;
        s = glm::vec2((c.x / c.w * 0.5f + 0.5f) * W, (0.5f - c.y / c.w * 0.5f) * H);
        return true;
    };
    // pixel distance from the mouse to the marker's pole (a huge value when behind the camera)
    auto score = [&](const glm::vec3& p) {
        float best = 1e30f;
        glm::vec2 a, b;
        if (to_screen(p, a) && to_screen(p + glm::vec3(0.0f, kPole, 0.0f), b)) {
            const glm::vec2 m(mx, my), ab = b - a;
            const float len2 = glm::dot(ab, ab);
            const float t = len2 > 1e-6f ? std::clamp(glm::dot(m - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
            best = glm::length(m - (a + ab * t));
        }
        if (best > kPixels && hit && glm::length(*hit - p) <= kMetres) best = kPixels;
        return best;
    };
    const float s = has_start_ ? score(start_) : 1e30f;
    const float e = has_end_ && !start_only && end_marker_shown() ? score(end_) : 1e30f;
    if (std::min(s, e) > kPixels) return false;
    drag_ = s <= e ? 1 : 2;
    return true;
}

void PathTool::drag_to(const glm::vec3& p) {
    if (drag_ == 1) set_start(p);
    else if (drag_ == 2) set_end(p);
}

void PathTool::ui() {
    ui_points();
    ui_readouts();
    ui_options();
    ui_filter();
}

// The mode, the end points and the buttons that set or clear them.
void PathTool::ui_points() {
    int mode = static_cast<int>(mode_);
    ImGui::SetNextItemWidth(150.0f);
    if (ImGui::Combo("mode", &mode, kModeNames, 3)) set_mode(static_cast<Mode>(mode));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("path: A* corridor and straight path\nraycast: walk the surface from start toward end until a wall\n"
                          "distance to wall: nearest wall around the start");
    ImGui::TextColored(kDimColor, mode_ == Mode::Wall ? "Shift+click: centre   drag: move it" : "Shift+click: start   click: end");
    if (mode_ != Mode::Wall && ImGui::IsItemHovered()) ImGui::SetTooltip("Drag a marker to move it.");
    auto swatch = [](uint32_t c) {
        ImGui::ColorButton("##sw", to_imvec(c, true), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker, ImVec2(10, 10));
        ImGui::SameLine();
    };
    ImGui::PushID("start");
    swatch(r::colors::kPathStart);
    ImGui::PopID();
    if (has_start_) ImGui::Text("start %.2f, %.2f, %.2f", start_.x, start_.y, start_.z);
    else ImGui::TextColored(kDimColor, "start not set");
    ImGui::PushID("end");
    swatch(r::colors::kPathEnd);
    ImGui::PopID();
    if (has_end_) ImGui::Text("end   %.2f, %.2f, %.2f", end_.x, end_.y, end_.z);
    else ImGui::TextColored(kDimColor, "end not set");

    const bool have_mesh = mesh_ && !mesh_->empty();
    ImGui::BeginDisabled(!have_mesh);
    auto random_point = [&](bool start) {
        nav::RandomPoint rp;
        if (query_.random_point(filter_, rng_, rp) && rp.poly != nav::kNoRef) {
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
    if (ImGui::Button("Clear")) clear_points();
}

// What the last query found (or why there is none).
void PathTool::ui_readouts() {
    const bool have_mesh = mesh_ && !mesh_->empty();
    // state and read-outs
    const bool need_end = mode_ != Mode::Wall;
    if (!have_mesh) {
        ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);  // wrapped: wider than a 1280 x 800 panel
        ImGui::TextWrapped("no navmesh: bake through the navmesh stage");
        ImGui::PopStyleColor();
    } else if (!has_start_ || (need_end && !has_end_)) {
        ImGui::TextColored(kDimColor, need_end ? "set both points to query" : "set the start to query");
    } else if (!status_) {
        ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);  // a message of any length
        ImGui::TextWrapped("query failed: %s", status_.message.c_str());
        ImGui::PopStyleColor();
    } else if (mode_ != Mode::Path) {
        if (start_np_.poly == nav::kNoRef) {
            ImGui::TextColored(kErrorColor, "start off the mesh");
        } else if (mode_ == Mode::Raycast) {
            const float* a = start_np_.point;
            const float len = std::hypot(end_.x - a[0], end_.z - a[2]);
            if (ray_.hit) ImGui::TextColored(kWarnColor, "hit: yes");
            else ImGui::TextColored(kGoodColor, "hit: no (end reached)");
            ImGui::Text("t %.3f   distance %.2f m", ray_.t, ray_.t * len);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("distance along the ray in xz, of %.2f m to the end", len);
            if (ray_.hit) ImGui::Text("normal %.2f, %.2f   edge %d", ray_.normal[0], ray_.normal[2], ray_.edge);
            ImGui::Text("polygons visited %d", static_cast<int>(ray_.polys.size()));
            ImGui::Text("query %.2f us", query_us_);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("nearest polygon once, then raycast: mean of %d runs", timing_reps_);
        } else {
            if (wall_.found) ImGui::Text("distance %.2f m", wall_.distance);
            else ImGui::TextColored(kWarnColor, "no wall within %.1f m", wall_radius_);
            if (wall_.found)
                ImGui::Text("wall point %.2f, %.2f, %.2f", wall_.point[0], wall_.point[1], wall_.point[2]);
            ImGui::Text("query %.2f us", query_us_);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("find_distance_to_wall (without the nearest polygon): mean of %d runs", timing_reps_);
        }
    } else if (route_.start.poly == nav::kNoRef || route_.end.poly == nav::kNoRef) {
        const bool s = route_.start.poly == nav::kNoRef, e = route_.end.poly == nav::kNoRef;
        ImGui::TextColored(kErrorColor, "%s off the mesh", s && e ? "start and end" : (s ? "start" : "end"));
    } else {
        const nav::PathResult& p = route_.path;
        if (p.reached) ImGui::TextColored(kGoodColor, "path found");
        else if (p.out_of_nodes) ImGui::TextColored(kWarnColor, "partial: A* node limit hit");
        else ImGui::TextColored(kWarnColor, "partial: end unreachable");
        ImGui::Text("corridor %d polygons", static_cast<int>(p.polys.size()));
        ImGui::Text("straight path %d points", route_.straight.size());
        ImGui::Text("length %.2f m   cost %.2f", route_.straight.length(), p.cost);
        ImGui::Text("query %.1f us   expanded %d", query_us_, p.expanded);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("find_route (nearest polygons, A*, funnel) without traces, mean of %d runs", timing_reps_);
    }
}

// The mode's legend and options; the funnel stepper of path mode.
void PathTool::ui_options() {
    if (mode_ == Mode::Raycast) {
        auto legend = [](uint32_t c, const char* text) {
            ImGui::TextColored(to_imvec(c, true), "%s", text);
            ImGui::SameLine();
        };
        legend(r::colors::kRayClear, "ray");
        legend(r::colors::kRayBlocked, "blocked");
        legend(r::colors::kRayNormal, "normal");
        ImGui::TextColored(to_imvec(r::colors::kRayVisited, true), "visited");
        return;
    }
    if (mode_ == Mode::Wall) {
        ImGui::SetNextItemWidth(150.0f);
        if (ImGui::SliderFloat("max radius", &wall_radius_, 0.5f, 50.0f, "%.1f m", ImGuiSliderFlags_AlwaysClamp))
            dirty_ = true;
        ImGui::TextColored(to_imvec(r::colors::kWallCircle, true), "distance circle");
        ImGui::SameLine();
        ImGui::TextColored(to_imvec(r::colors::kWallLine, true), "nearest wall point");
        return;
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
        ImGui::SetTooltip("Polygons closed (orange) and still open (violet) when the search ended; hover one for g and f.");
    ImGui::SameLine();
    if (ImGui::Checkbox("on top", &on_top_)) redraw_ = true;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Path on top: the path, its markers and the A* nodes drawn over every layer, walls and\n"
                          "upper floors included. Off: hidden by what stands in front of them.");
    if (show_nodes_ && !astar_.steps.empty()) {
        ImGui::SameLine();
        ImGui::TextColored(kDimColor, "%d closed", static_cast<int>(astar_.steps.back().closed_count));
    }

    ui_funnel_stepper();
}

void PathTool::ui_funnel_stepper() {
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
        ImGui::TextColored(to_imvec(r::colors::kFunnelApex, true), "apex");
        ImGui::SameLine();
        ImGui::TextColored(to_imvec(r::colors::kFunnelLeft, true), "left");
        ImGui::SameLine();
        ImGui::TextColored(to_imvec(r::colors::kFunnelRight, true), "right");
        ImGui::SameLine();
        ImGui::TextColored(to_imvec(r::colors::kFunnelPortal, true), "portal");
    } else if (stepper_) {
        ImGui::TextColored(kDimColor, "no funnel steps (no corridor)");
    }
}

void PathTool::draw(r::Renderer& rend) {
    if (redraw_) {
        redraw_ = false;
        r::PathDrawInput in;
        in.mesh = mesh_.get();
        in.has_start = has_start_;
        in.has_end = has_end_;
        in.draw_end = end_marker_shown();
        std::copy(&start_.x, &start_.x + 3, in.start);
        std::copy(&end_.x, &end_.x + 3, in.end);
        const bool on_mesh = start_np_.poly != nav::kNoRef;
        if (mode_ == Mode::Path) {
            const bool traced = !traced_path_.polys.empty();
            in.path = traced ? &traced_path_ : &route_.path;
            in.straight = traced ? &traced_straight_ : &route_.straight;
            in.astar = show_nodes_ && traced ? &astar_ : nullptr;
            in.funnel = stepper_ ? &funnel_ : nullptr;
            in.funnel_step = funnel_step_;
        } else if (mode_ == Mode::Raycast && on_mesh && !ray_.polys.empty()) {
            in.ray = &ray_;
            std::copy(start_np_.point, start_np_.point + 3, in.ray_start);
            std::copy(&end_.x, &end_.x + 3, in.ray_end);
            std::copy(ray_end_, ray_end_ + 3, ray_.hit ? in.ray_hit : in.ray_end);
        } else if (mode_ == Mode::Wall && on_mesh) {
            in.wall = &wall_;
            std::copy(start_np_.point, start_np_.point + 3, in.wall_center);
        }
        in.on_top = on_top_;
        r::build_path(in, fill_cpu_, path_cpu_, funnel_cpu_, outline_cpu_, marker_cpu_);
        fill_gpu_.upload(fill_cpu_);
        path_gpu_.upload(path_cpu_);
        funnel_gpu_.upload(funnel_cpu_);
        outline_gpu_.upload(outline_cpu_);
        marker_gpu_.upload(marker_cpu_);
    }
    // the path keeps its own colours under the floor tint (its magenta is the hue nothing else has)
    const r::DrawStyle before = rend.style();
    r::DrawStyle st = before;
    st.no_tint = true;
    rend.set_style(st);
    rend.draw(fill_gpu_);
    rend.draw(path_gpu_);
    rend.draw(funnel_gpu_);
    rend.draw(outline_gpu_);
    rend.draw(marker_gpu_);
    rend.set_style(before);
}

std::string PathTool::node_tooltip(const glm::vec3& p) {
    if (!show_nodes_ || !mesh_ || astar_.steps.empty()) return {};
    nav::NearestPoly np;
    const float ext[3] = {0.1f, 1.0f, 0.1f};
    if (!query_.find_nearest_poly(&p.x, ext, filter_, np) || np.poly == nav::kNoRef) return {};
    const uint32_t poly = query_.mesh()->poly_index(np.poly);  // traces name dense indices
    // the lowest-g popped state of the polygon (closed), else its lowest-g discovered state (open)
    const nav::AStarTrace::Step* best = nullptr;
    for (const auto& s : astar_.steps)
        if (s.poly == poly && (!best || s.g < best->g)) best = &s;
    char buf[160];
    if (best) {
        std::snprintf(buf, sizeof buf, "polygon %u (closed)\ng %.2f   f %.2f   h %.2f", poly, best->g, best->f,
                      best->f - best->g);
        return buf;
    }
    const nav::AStarTrace::Neighbour* nb = nullptr;
    for (const auto& u : astar_.updates)
        if (u.poly == poly && (!nb || u.g < nb->g)) nb = &u;
    if (!nb) {
        std::snprintf(buf, sizeof buf, "polygon %u (not reached)", poly);
        return buf;
    }
    std::snprintf(buf, sizeof buf, "polygon %u (discovered, not expanded)\ng %.2f   f %.2f   h %.2f", poly, nb->g, nb->f, nb->f - nb->g);
    return buf;
}

}  // namespace navdebug
