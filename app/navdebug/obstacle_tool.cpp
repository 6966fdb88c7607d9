#include "obstacle_tool.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "list_panel.h"
#include "render/layers.h"

namespace navdebug {

namespace r = nav::render;

namespace {

constexpr float kPi = 3.14159265358979f;
constexpr uint32_t kObstacleLine = r::rgba(255, 120, 60);
constexpr uint32_t kObstacleFill = r::rgba(255, 120, 60, 70);
constexpr uint32_t kSelectedLine = r::rgba(255, 235, 90);
constexpr uint32_t kSelectedFill = r::rgba(255, 235, 90, 90);
constexpr uint32_t kFootprint = r::rgba(255, 120, 60, 150);
constexpr int kSegments = 24;

// Clips [t0, t1] to where the ray is between lo and hi on one axis.
bool slab(float o, float d, float lo, float hi, float& t0, float& t1) {
    if (std::fabs(d) < 1e-12f) return o >= lo && o <= hi;
    float a = (lo - o) / d, b = (hi - o) / d;
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    return t0 <= t1;
}

// The box's corners (8), turned by its yaw.
void box_corners(const nav::Obstacle& ob, float grow, float out[8][3]) {
    for (int k = 0; k < 8; ++k) {
        const float lx = (k & 1 ? 1.0f : -1.0f) * (ob.half[0] + grow);
        const float lz = (k & 4 ? 1.0f : -1.0f) * (ob.half[2] + grow);
        nav::obstacle_to_world(ob, lx, lz, &out[k][0], &out[k][2]);
        out[k][1] = ob.pos[1] + (k & 2 ? 1.0f : -1.0f) * ob.half[1];
    }
}

// Places an obstacle's base on the ground point g.
void set_base(nav::Obstacle& ob, const float* g) {
    ob.pos[0] = g[0];
    ob.pos[2] = g[2];
    ob.pos[1] = ob.shape == nav::ObstacleShape::Cylinder ? g[1] : g[1] + ob.half[1];
}

}  // namespace

int pick_obstacle(const std::vector<nav::Obstacle>& obs, const float* o, const float* d, float* t_hit) {
    int best = -1;
    float best_t = std::numeric_limits<float>::infinity();
    for (size_t i = 0; i < obs.size(); ++i) {
        const nav::Obstacle& ob = obs[i];
        float t0 = 0.0f, t1 = std::numeric_limits<float>::infinity();
        bool hit = false;
        if (ob.shape == nav::ObstacleShape::Cylinder) {
            hit = slab(o[1], d[1], ob.pos[1], ob.pos[1] + ob.height, t0, t1);
            if (hit) {
                const float ox = o[0] - ob.pos[0], oz = o[2] - ob.pos[2];
                const float a = d[0] * d[0] + d[2] * d[2], b = 2.0f * (ox * d[0] + oz * d[2]);
                const float c = ox * ox + oz * oz - ob.radius * ob.radius;
                if (a < 1e-12f) {
                    hit = c <= 0.0f;
                } else {
                    const float disc = b * b - 4.0f * a * c;
                    if (disc < 0.0f) {
                        hit = false;
                    } else {
                        const float q = std::sqrt(disc);
                        t0 = std::max(t0, (-b - q) / (2.0f * a));
                        t1 = std::min(t1, (-b + q) / (2.0f * a));
                        hit = t0 <= t1;
                    }
                }
            }
        } else {
            // the ray in the box's frame
            float lo[3] = {0.0f, o[1] - ob.pos[1], 0.0f}, ld[3] = {0.0f, d[1], 0.0f};
            nav::obstacle_to_local(ob, o[0], o[2], &lo[0], &lo[2]);
            nav::obstacle_to_local(ob, ob.pos[0] + d[0], ob.pos[2] + d[2], &ld[0], &ld[2]);
            hit = true;
            for (int k = 0; k < 3 && hit; ++k) hit = slab(lo[k], ld[k], -ob.half[k], ob.half[k], t0, t1);
        }
        if (hit && t0 < best_t) {
            best_t = t0;
            best = static_cast<int>(i);
        }
    }
    if (t_hit) *t_hit = best_t;
    return best;
}

void draw_obstacles(const std::vector<nav::Obstacle>& obs, int selected, float agent_radius, r::DrawList& out) {
    for (size_t i = 0; i < obs.size(); ++i) {
        const nav::Obstacle& ob = obs[i];
        const bool sel = static_cast<int>(i) == selected;
        const uint32_t line = sel ? kSelectedLine : kObstacleLine, fill = sel ? kSelectedFill : kObstacleFill;
        if (ob.shape == nav::ObstacleShape::Cylinder) {
            const float y0 = ob.pos[1], y1 = ob.pos[1] + ob.height;
            for (int k = 0; k < kSegments; ++k) {
                const float a0 = 2.0f * kPi * static_cast<float>(k) / kSegments;
                const float a1 = 2.0f * kPi * static_cast<float>(k + 1) / kSegments;
                const float x0 = ob.pos[0] + ob.radius * std::cos(a0), z0 = ob.pos[2] + ob.radius * std::sin(a0);
                const float x1 = ob.pos[0] + ob.radius * std::cos(a1), z1 = ob.pos[2] + ob.radius * std::sin(a1);
                const float b0[3] = {x0, y0, z0}, b1[3] = {x1, y0, z1}, t1[3] = {x1, y1, z1}, t0[3] = {x0, y1, z0};
                out.add_quad(b0, b1, t1, t0, fill);
                out.add_line(b0, b1, line);
                out.add_line(t0, t1, line);
                if (k % 6 == 0) out.add_line(b0, t0, line);
                const float g = ob.radius + agent_radius;
                out.add_line(ob.pos[0] + g * std::cos(a0), y0 + 0.02f, ob.pos[2] + g * std::sin(a0),
                             ob.pos[0] + g * std::cos(a1), y0 + 0.02f, ob.pos[2] + g * std::sin(a1), kFootprint);
            }
            const float top[3] = {ob.pos[0], y1, ob.pos[2]};
            for (int k = 0; k < kSegments; ++k) {
                const float a0 = 2.0f * kPi * static_cast<float>(k) / kSegments;
                const float a1 = 2.0f * kPi * static_cast<float>(k + 1) / kSegments;
                const float p0[3] = {ob.pos[0] + ob.radius * std::cos(a0), y1, ob.pos[2] + ob.radius * std::sin(a0)};
                const float p1[3] = {ob.pos[0] + ob.radius * std::cos(a1), y1, ob.pos[2] + ob.radius * std::sin(a1)};
                out.add_triangle(top, p1, p0, fill);
            }
        } else {
            float c[8][3];
            box_corners(ob, 0.0f, c);
            static constexpr int kEdges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                                  {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
            for (const auto& e : kEdges) out.add_line(c[e[0]], c[e[1]], line);
            static constexpr int kFaces[6][4] = {{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1},
                                                 {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
            for (const auto& f : kFaces) out.add_quad(c[f[0]], c[f[1]], c[f[2]], c[f[3]], fill);
            // the grown footprint: the box outline pushed out by the agent radius, corners round
            const float y = ob.pos[1] - ob.half[1] + 0.02f;
            auto world = [&](float lx, float lz, float* w) {
                nav::obstacle_to_world(ob, lx, lz, &w[0], &w[2]);
                w[1] = y;
            };
            const int quarter = kSegments / 4;
            float prev[3];
            bool first = true;
            for (int q = 0; q < 4; ++q) {  // corners (+,+), (-,+), (-,-), (+,-), counter-clockwise in local angle
                const float sx = (q == 0 || q == 3) ? 1.0f : -1.0f, sz = q < 2 ? 1.0f : -1.0f;
                for (int k = 0; k <= quarter; ++k) {
                    const float a = kPi * 0.5f * static_cast<float>(q) + kPi * 0.5f * static_cast<float>(k) / quarter;
                    float w[3];
                    world(sx * ob.half[0] + agent_radius * std::cos(a), sz * ob.half[2] + agent_radius * std::sin(a), w);
                    if (!first) out.add_line(prev, w, kFootprint);
                    std::copy(w, w + 3, prev);
                    first = false;
                }
            }
            float w0[3];
            world(ob.half[0] + agent_radius, ob.half[2], w0);
            out.add_line(prev, w0, kFootprint);
        }
    }
}

bool ObstacleTool::press(std::vector<nav::Obstacle>& obs, const float* o, const float* d, const float* ground) {
    float t = 0.0f;
    const int hit = pick_obstacle(obs, o, d, &t);
    float tg = std::numeric_limits<float>::infinity();
    if (ground) {
        const float dl2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        tg = ((ground[0] - o[0]) * d[0] + (ground[1] - o[1]) * d[1] + (ground[2] - o[2]) * d[2]) / std::max(dl2, 1e-12f);
    }
    if (hit >= 0 && t <= tg + 1e-3f) {
        selected_ = hit;
        dragging_ = ground != nullptr;
        if (ground) {
            grab_[0] = obs[static_cast<size_t>(hit)].pos[0] - ground[0];
            grab_[2] = obs[static_cast<size_t>(hit)].pos[2] - ground[2];
        }
        return false;
    }
    if (!ground) {
        selected_ = -1;
        return false;
    }
    nav::Obstacle ob = proto_;
    set_base(ob, ground);
    obs.push_back(ob);
    selected_ = static_cast<int>(obs.size()) - 1;
    dragging_ = true;
    grab_[0] = grab_[2] = 0.0f;
    return true;
}

bool ObstacleTool::drag_to(std::vector<nav::Obstacle>& obs, const float* ground) {
    if (!dragging_ || selected_ < 0 || selected_ >= static_cast<int>(obs.size())) return false;
    nav::Obstacle& ob = obs[static_cast<size_t>(selected_)];
    const float g[3] = {ground[0] + grab_[0], ground[1], ground[2] + grab_[2]};
    const nav::Obstacle before = ob;
    set_base(ob, g);
    return !(ob == before);
}

bool ObstacleTool::remove_selected(std::vector<nav::Obstacle>& obs) {
    if (!ListSelection::remove_selected(obs)) return false;
    dragging_ = false;
    return true;
}

bool ObstacleTool::panel(std::vector<nav::Obstacle>& obs) {
    static const char* const kShapes[] = {"cylinder", "box", "rotated box"};
    int shape = static_cast<int>(proto_.shape);
    ImGui::SetNextItemWidth(120.0f);
    if (ImGui::Combo("new obstacles##shape", &shape, kShapes, 3)) proto_.shape = static_cast<nav::ObstacleShape>(shape);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The obstacles tool: left click on the level places one (this shape), a press on an\n"
                          "obstacle grabs it and dragging moves it, Delete removes the selected one. Only the\n"
                          "tiles an obstacle touches re-bake; its outline on the floor is what the bake clears\n"
                          "(the shape grown by agent_radius).");
    auto fields = [&](nav::Obstacle& ob) {
        bool c = false;
        if (ob.shape == nav::ObstacleShape::Cylinder) {
            ImGui::SetNextItemWidth(70.0f);
            c |= ImGui::DragFloat("radius", &ob.radius, 0.02f, 0.05f, 100.0f, "%.2f");
            ImGui::SameLine();
            ImGui::SetNextItemWidth(70.0f);
            c |= ImGui::DragFloat("height", &ob.height, 0.05f, 0.05f, 100.0f, "%.2f");
        } else {
            ImGui::SetNextItemWidth(180.0f);
            c |= ImGui::DragFloat3("half", ob.half, 0.02f, 0.05f, 100.0f, "%.2f");
            if (ob.shape == nav::ObstacleShape::RotatedBox) {
                float deg = ob.yaw * 180.0f / kPi;
                ImGui::SetNextItemWidth(120.0f);
                if (ImGui::SliderFloat("yaw", &deg, -180.0f, 180.0f, "%.0f deg")) {
                    ob.yaw = deg * kPi / 180.0f;
                    c = true;
                }
            }
        }
        // keep sizes valid whatever was typed
        ob.radius = std::max(ob.radius, 0.05f);
        ob.height = std::max(ob.height, 0.05f);
        for (float& h : ob.half) h = std::max(h, 0.05f);
        return c;
    };
    ImGui::PushID("proto");
    fields(proto_);
    ImGui::PopID();
    if (obs.empty()) {
        ImGui::TextDisabled("no obstacles: pick the obstacle tool and click on the level");
        return false;
    }
    const ListPanelText text{"obstacle", "obstacles", "Remove this obstacle (or select it and press Delete).", 100.0f};
    auto label = [&](size_t i) { return std::to_string(i) + " " + std::string(nav::obstacle_shape_name(obs[i].shape)); };
    auto pos = [&](size_t i) {
        nav::Obstacle& ob = obs[i];
        ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x - 60.0f, 80.0f));
        const float before[3] = {ob.pos[0], ob.pos[1], ob.pos[2]};
        const bool c = ImGui::DragFloat3("pos", ob.pos, 0.05f, -1e6f, 1e6f, "%.2f");
        for (int k = 0; k < 3; ++k)
            if (!std::isfinite(ob.pos[k])) ob.pos[k] = before[k];
        return c;
    };
    auto below = [&](size_t i) { return selected_ == static_cast<int>(i) && fields(obs[i]); };
    return list_panel(text, obs, *this, label, pos, below);
}

}  // namespace navdebug
