#include "volume_tool.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/bake/palette.h"
#include "list_panel.h"

namespace navdebug {

namespace r = nav::render;

namespace {

constexpr float kPi = 3.14159265358979f;
constexpr uint32_t kSelectedLine = r::rgba(255, 235, 90);
constexpr uint32_t kHandle = r::rgba(250, 250, 250);
constexpr int kFillAlpha = 60, kSelectedFillAlpha = 110;
constexpr float kLift = 0.05f;  // the points' outline just above the level they were picked on

// +1 when the polygon's xz outline turns counter-clockwise (x right, z up), -1 otherwise.
float winding(const std::vector<float>& v) {
    const size_t n = v.size() / 3;
    double a = 0.0;
    for (size_t i = 0, j = n - 1; i < n; j = i++) a += double(v[3 * j]) * v[3 * i + 2] - double(v[3 * i]) * v[3 * j + 2];
    return a >= 0.0 ? 1.0f : -1.0f;
}

// A colour's r, g, b pushed halfway to white: the selected volume's fill.
uint32_t brighter(uint32_t c) {
    return r::rgba((r::color_r(c) + 255) / 2, (r::color_g(c) + 255) / 2, (r::color_b(c) + 255) / 2, r::color_a(c));
}

}  // namespace

int pick_volume(const std::vector<nav::ConvexVolume>& vols, const float* o, const float* d, float* t_hit) {
    int best = -1;
    float best_t = std::numeric_limits<float>::infinity();
    for (size_t i = 0; i < vols.size(); ++i) {
        const nav::ConvexVolume& v = vols[i];
        const size_t n = v.verts.size() / 3;
        if (n < 3) continue;
        double t0 = 0.0, t1 = std::numeric_limits<double>::infinity();
        // the height slab
        if (std::fabs(d[1]) < 1e-12f) {
            if (o[1] < v.hmin || o[1] > v.hmax) continue;
        } else {
            double a = (double(v.hmin) - o[1]) / d[1], b = (double(v.hmax) - o[1]) / d[1];
            if (a > b) std::swap(a, b);
            t0 = std::max(t0, a);
            t1 = std::min(t1, b);
        }
        // each edge's inner half-plane: s * cross(b - a, p(t) - a) >= 0, linear in t
        const double s = winding(v.verts);
        bool hit = t0 <= t1;
        for (size_t k = 0, j = n - 1; k < n && hit; j = k++) {
            const float* a = &v.verts[3 * j];
            const float* b = &v.verts[3 * k];
            const double ex = double(b[0]) - a[0], ez = double(b[2]) - a[2];
            const double f0 = s * (ex * (double(o[2]) - a[2]) - ez * (double(o[0]) - a[0]));
            const double fd = s * (ex * d[2] - ez * d[0]);
            if (fd == 0.0) {
                hit = f0 >= 0.0;
            } else if (fd > 0.0) {
                t0 = std::max(t0, -f0 / fd);
            } else {
                t1 = std::min(t1, -f0 / fd);
            }
            hit = hit && t0 <= t1;
        }
        if (hit && t0 < best_t) {
            best_t = static_cast<float>(t0);
            best = static_cast<int>(i);
        }
    }
    if (t_hit) *t_hit = best_t;
    return best;
}

nav::Status make_volume(std::span<const float> pts, float height, float descent, uint8_t area, nav::ConvexVolume& out) {
    if (!std::isfinite(height) || !(height > 0.0f))
        return nav::Status::bad_input("volume: height must be above 0 m, got " + std::to_string(height));
    if (!std::isfinite(descent) || descent < 0.0f)
        return nav::Status::bad_input("volume: descent must be 0 m or more, got " + std::to_string(descent));
    std::vector<float> hull;
    if (const nav::Status st = nav::convex_hull_xz(pts, hull); !st) return st;
    float lowest = std::numeric_limits<float>::infinity();
    for (size_t k = 1; k < pts.size(); k += 3) lowest = std::min(lowest, pts[k]);
    nav::ConvexVolume v;
    v.hmin = lowest - descent;
    v.hmax = v.hmin + height;
    v.area = area;
    v.verts = std::move(hull);
    for (size_t k = 1; k < v.verts.size(); k += 3) v.verts[k] = v.hmin;
    out = std::move(v);
    return nav::Status::ok();
}

void draw_volumes(const std::vector<nav::ConvexVolume>& vols, int selected, const r::AreaColors& area_rgb, r::DrawList& out) {
    for (size_t i = 0; i < vols.size(); ++i) {
        const nav::ConvexVolume& v = vols[i];
        const size_t n = v.verts.size() / 3;
        if (n < 3) continue;
        const bool sel = static_cast<int>(i) == selected;
        const uint32_t base = area_rgb(v.area);
        const uint32_t line = sel ? kSelectedLine : r::color_with_alpha(base, 255);
        const uint32_t fill = sel ? r::color_with_alpha(brighter(base), kSelectedFillAlpha) : r::color_with_alpha(base, kFillAlpha);
        auto at = [&](size_t k, float y, float* p) {
            p[0] = v.verts[3 * k];
            p[1] = y;
            p[2] = v.verts[3 * k + 2];
        };
        for (size_t k = 0, j = n - 1; k < n; j = k++) {
            float b0[3], b1[3], t0[3], t1[3];
            at(j, v.hmin, b0);
            at(k, v.hmin, b1);
            at(j, v.hmax, t0);
            at(k, v.hmax, t1);
            out.add_quad(b0, b1, t1, t0, fill);
            out.add_line(b0, b1, line);
            out.add_line(t0, t1, line);
            out.add_line(b0, t0, line);
        }
        // top and bottom as fans from the first vertex
        for (size_t k = 1; k + 1 < n; ++k) {
            float a[3], b[3], c[3];
            at(0, v.hmax, a);
            at(k, v.hmax, b);
            at(k + 1, v.hmax, c);
            out.add_triangle(a, b, c, fill);
            at(0, v.hmin, a);
            at(k, v.hmin, b);
            at(k + 1, v.hmin, c);
            out.add_triangle(a, c, b, fill);
        }
    }
}

void draw_volume_points(std::span<const float> pts, uint8_t area, const r::AreaColors& area_rgb, float close_radius,
                        r::DrawList& out) {
    const size_t n = pts.size() / 3;
    if (n == 0) return;
    const uint32_t color = r::color_with_alpha(area_rgb(area), 255);
    for (size_t k = 0; k < n; ++k) {
        const float p[3] = {pts[3 * k], pts[3 * k + 1] + kLift, pts[3 * k + 2]};
        out.add_point(p, color);
    }
    // the ring a click closes the volume in
    constexpr int kRing = 24;
    for (int k = 0; k < kRing; ++k) {
        const float a0 = 2.0f * kPi * static_cast<float>(k) / kRing, a1 = 2.0f * kPi * static_cast<float>(k + 1) / kRing;
        out.add_line(pts[0] + close_radius * std::cos(a0), pts[1] + kLift, pts[2] + close_radius * std::sin(a0),
                     pts[0] + close_radius * std::cos(a1), pts[1] + kLift, pts[2] + close_radius * std::sin(a1), kSelectedLine);
    }
    std::vector<float> hull;
    if (nav::convex_hull_xz(pts, hull)) {
        const size_t h = hull.size() / 3;
        for (size_t k = 0, j = h - 1; k < h; j = k++)
            out.add_line(hull[3 * j], hull[3 * j + 1] + kLift, hull[3 * j + 2], hull[3 * k], hull[3 * k + 1] + kLift,
                         hull[3 * k + 2], color);
    } else {
        for (size_t k = 1; k < n; ++k)
            out.add_line(pts[3 * k - 3], pts[3 * k - 2] + kLift, pts[3 * k - 1], pts[3 * k], pts[3 * k + 1] + kLift, pts[3 * k + 2],
                         color);
    }
}

int pick_volume_point(const nav::ConvexVolume& vol, const float* o, const float* d, float grab) {
    const double a = std::max(double(d[0]) * d[0] + double(d[1]) * d[1] + double(d[2]) * d[2], 1e-12);
    const double h = std::max(double(vol.hmax) - vol.hmin, 0.0);
    int best = -1;
    double best_d2 = double(grab) * grab, best_t = std::numeric_limits<double>::infinity();
    for (size_t k = 0; k + 2 < vol.verts.size(); k += 3) {
        // the closest points of the ray o + t d and the edge p + s (0, 1, 0), s in [0, h]
        const double p[3] = {vol.verts[k], vol.hmin, vol.verts[k + 2]};
        const double w[3] = {o[0] - p[0], o[1] - p[1], o[2] - p[2]};
        const double b = d[1], dw = d[0] * w[0] + d[1] * w[1] + d[2] * w[2];
        const double denom = a - b * b;  // 0: a vertical ray, every s as near
        double s = denom > 1e-9 * a ? (a * w[1] - b * dw) / denom : w[1];
        s = std::clamp(s, 0.0, h);
        const double t = std::max(0.0, (d[0] * -w[0] + d[1] * (s - w[1]) + d[2] * -w[2]) / a);
        s = std::clamp(w[1] + t * d[1], 0.0, h);
        double d2 = 0.0;
        for (int i = 0; i < 3; ++i) {
            const double e = w[i] + t * d[i] - (i == 1 ? s : 0.0);
            d2 += e * e;
        }
        // the nearest edge to the ray; of edges as near (a ray along a side), the first along it
        constexpr double kSame = 1e-6;
        if (d2 <= double(grab) * grab && (best < 0 || d2 < best_d2 - kSame || (d2 <= best_d2 + kSame && t < best_t))) {
            best_d2 = d2;
            best_t = t;
            best = static_cast<int>(k / 3);
        }
    }
    return best;
}

namespace {

// `vol` with its vertices replaced by the hull of `pts` (y = hmin each).
nav::Status rehull(const nav::ConvexVolume& vol, std::vector<float>& pts, nav::ConvexVolume& out) {
    for (size_t i = 1; i < pts.size(); i += 3) pts[i] = vol.hmin;
    std::vector<float> hull;
    if (const nav::Status st = nav::convex_hull_xz(pts, hull); !st) return st;
    nav::ConvexVolume v = vol;
    v.verts = std::move(hull);
    out = std::move(v);
    return nav::Status::ok();
}

}  // namespace

nav::Status move_volume_point(const nav::ConvexVolume& vol, size_t k, float x, float z, nav::ConvexVolume& out) {
    if (3 * k + 2 >= vol.verts.size())
        return nav::Status::bad_input("volume: no point " + std::to_string(k) + " (it has " + std::to_string(vol.verts.size() / 3) + ")");
    std::vector<float> pts = vol.verts;
    pts[3 * k] = x;
    pts[3 * k + 2] = z;
    return rehull(vol, pts, out);
}

nav::Status remove_volume_point(const nav::ConvexVolume& vol, size_t k, nav::ConvexVolume& out) {
    const size_t n = vol.verts.size() / 3;
    if (k >= n) return nav::Status::bad_input("volume: no point " + std::to_string(k) + " (it has " + std::to_string(n) + ")");
    if (n <= 3) return nav::Status::bad_input("volume: a volume keeps at least 3 points");
    std::vector<float> pts = vol.verts;
    pts.erase(pts.begin() + static_cast<std::ptrdiff_t>(3 * k), pts.begin() + static_cast<std::ptrdiff_t>(3 * k + 3));
    return rehull(vol, pts, out);
}

void draw_volume_handles(const nav::ConvexVolume& vol, const float* dragged, r::DrawList& out) {
    for (size_t k = 0; k + 2 < vol.verts.size(); k += 3) {
        const float top[3] = {vol.verts[k], vol.hmax, vol.verts[k + 2]}, bottom[3] = {vol.verts[k], vol.hmin, vol.verts[k + 2]};
        out.add_point(top, kHandle);
        out.add_point(bottom, kHandle);
    }
    if (!dragged) return;
    // the point being moved, where it is (inside the hull it is no hull point), on its edge
    out.add_point(dragged, kSelectedLine);
    out.add_line(dragged[0], vol.hmin, dragged[2], dragged[0], vol.hmax, dragged[2], kSelectedLine);
}

VolumeTool::Press VolumeTool::press(std::vector<nav::ConvexVolume>& vols, const float* o, const float* d, const float* ground,
                                    float radius, bool add_point) {
    drag_ = Drag::None;
    panel_edit_ = false;
    if (!pts_.empty()) {
        if (!ground) return Press::None;
        const float dx = ground[0] - pts_[0], dz = ground[2] - pts_[2];
        if (!add_point && pts_.size() >= 9 && dx * dx + dz * dz <= radius * radius)
            return close(vols) ? Press::Closed : Press::Refused;
        pts_.insert(pts_.end(), ground, ground + 3);
        error_.clear();
        return Press::Point;
    }
    if (!add_point) {
        float t = 0.0f;
        const int hit = pick_volume(vols, o, d, &t);
        float tg = std::numeric_limits<float>::infinity();
        if (ground) {
            const float dl2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            tg = ((ground[0] - o[0]) * d[0] + (ground[1] - o[1]) * d[1] + (ground[2] - o[2]) * d[2]) / std::max(dl2, 1e-12f);
        }
        if (selected_ >= 0 && selected_ < static_cast<int>(vols.size())) {
            const int k = pick_volume_point(vols[static_cast<size_t>(selected_)], o, d, radius);
            if (k >= 0) {
                grabbed_ = vols[static_cast<size_t>(selected_)];
                grabbed_point_ = static_cast<size_t>(k);
                drag_pos_[0] = grabbed_.verts[3 * grabbed_point_];
                drag_pos_[1] = ground ? ground[1] : grabbed_.hmin;
                drag_pos_[2] = grabbed_.verts[3 * grabbed_point_ + 2];
                drag_ = Drag::Point;
                return Press::Grabbed;
            }
        }
        if (hit >= 0 && t <= tg + 1e-3f) {
            if (hit == selected_ && ground) {
                grabbed_ = vols[static_cast<size_t>(hit)];
                std::copy(ground, ground + 3, grab_ground_);
                drag_ = Drag::Volume;
                return Press::Moving;
            }
            selected_ = hit;
            return Press::Selected;
        }
    }
    if (!ground) {
        selected_ = -1;
        return Press::None;
    }
    selected_ = -1;
    pts_.assign(ground, ground + 3);
    error_.clear();
    return Press::Point;
}

bool VolumeTool::close(std::vector<nav::ConvexVolume>& vols) {
    nav::ConvexVolume v;
    if (const nav::Status st = make_volume(pts_, height_, descent_, area_, v); !st) {
        error_ = st.message;
        return false;
    }
    vols.push_back(std::move(v));
    selected_ = static_cast<int>(vols.size()) - 1;
    pts_.clear();
    error_.clear();
    return true;
}

bool VolumeTool::cancel() {
    const bool had = !pts_.empty();
    pts_.clear();
    error_.clear();
    return had;
}

bool VolumeTool::remove_selected(std::vector<nav::ConvexVolume>& vols) {
    if (!ListSelection::remove_selected(vols)) return false;
    drag_ = Drag::None;
    panel_edit_ = false;
    return true;
}

void VolumeTool::clamp(const std::vector<nav::ConvexVolume>& vols) {
    if (!ListSelection::clamp(vols)) return;
    drag_ = Drag::None;
    panel_edit_ = false;
}

bool VolumeTool::drag_to(std::vector<nav::ConvexVolume>& vols, const float* ground) {
    if (drag_ == Drag::None || selected_ < 0 || selected_ >= static_cast<int>(vols.size())) return false;
    nav::ConvexVolume& cur = vols[static_cast<size_t>(selected_)];
    nav::ConvexVolume next;
    if (drag_ == Drag::Point) {
        std::copy(ground, ground + 3, drag_pos_);
        if (!move_volume_point(grabbed_, grabbed_point_, ground[0], ground[2], next)) return false;
    } else {
        next = grabbed_;
        const float dx = ground[0] - grab_ground_[0], dz = ground[2] - grab_ground_[2];
        for (size_t k = 0; k + 2 < next.verts.size(); k += 3) {
            next.verts[k] += dx;
            next.verts[k + 2] += dz;
        }
    }
    if (next == cur) return false;
    cur = std::move(next);
    return true;
}

void VolumeTool::begin_point_edit(const std::vector<nav::ConvexVolume>& vols, size_t k) {
    if (selected_ < 0 || selected_ >= static_cast<int>(vols.size())) return;
    const nav::ConvexVolume& v = vols[static_cast<size_t>(selected_)];
    if (3 * k + 2 >= v.verts.size()) return;
    grabbed_ = v;
    grabbed_point_ = k;
    std::copy(&v.verts[3 * k], &v.verts[3 * k] + 3, drag_pos_);
    drag_ = Drag::Point;
    panel_edit_ = true;
}

bool VolumeTool::set_point_xz(std::vector<nav::ConvexVolume>& vols, float x, float z) {
    if (drag_ != Drag::Point) return false;
    const float g[3] = {x, drag_pos_[1], z};
    return drag_to(vols, g);
}

std::vector<float> VolumeTool::listed_points(const std::vector<nav::ConvexVolume>& vols) const {
    if (selected_ < 0 || selected_ >= static_cast<int>(vols.size())) return {};
    if (drag_ != Drag::Point) return vols[static_cast<size_t>(selected_)].verts;
    std::vector<float> pts = grabbed_.verts;
    pts[3 * grabbed_point_] = drag_pos_[0];
    pts[3 * grabbed_point_ + 2] = drag_pos_[2];
    return pts;
}

bool VolumeTool::remove_point(std::vector<nav::ConvexVolume>& vols, size_t k) {
    if (selected_ < 0 || selected_ >= static_cast<int>(vols.size())) return false;
    nav::ConvexVolume& v = vols[static_cast<size_t>(selected_)];
    if (const nav::Status st = remove_volume_point(v, k, v); !st) {
        error_ = st.message;
        return false;
    }
    error_.clear();
    drag_ = Drag::None;
    panel_edit_ = false;
    return true;
}

namespace {

// The area's name in the table ("not_walkable" for 0, "id N" for an id the table lacks).
std::string area_label(const nav::AreaTable& areas, uint8_t id) {
    if (id == nav::kNullArea) return "not_walkable";
    const std::string_view n = areas.name_of(id);
    return n.empty() ? "id " + std::to_string(id) : std::string(n);
}

// A combo of the table's areas and not_walkable; true when `id` changed.
bool area_combo(const char* label, const nav::AreaTable& areas, uint8_t& id) {
    bool changed = false;
    if (ImGui::BeginCombo(label, area_label(areas, id).c_str())) {
        auto item = [&](uint8_t a, const std::string& name) {
            ImGui::PushID(a);
            const uint32_t c = areas.color_of(a);
            ImGui::ColorButton("##c", ImVec4(r::color_r(c) / 255.0f, r::color_g(c) / 255.0f, r::color_b(c) / 255.0f, 1.0f),
                               ImGuiColorEditFlags_NoTooltip, ImVec2(12.0f, 12.0f));
            ImGui::SameLine();
            if (ImGui::Selectable(name.c_str(), a == id)) {
                changed = a != id;
                id = a;
            }
            ImGui::PopID();
        };
        for (const nav::AreaType& t : areas.types) item(t.id, t.name);
        item(nav::kNullArea, "not_walkable");
        ImGui::EndCombo();
    }
    return changed;
}

}  // namespace

bool VolumeTool::points_panel(std::vector<nav::ConvexVolume>& vols) {
    bool changed = false;
    const std::vector<float> pts = listed_points(vols);
    const size_t n = pts.size() / 3;
    int drop = -1;
    for (size_t k = 0; k < n; ++k) {
        ImGui::PushID(static_cast<int>(1000 + k));
        float xz[2] = {pts[3 * k], pts[3 * k + 2]};
        char label[32];
        std::snprintf(label, sizeof label, "p%zu x,z", k);
        ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x - 90.0f, 100.0f));
        if (ImGui::DragFloat2(label, xz, 0.05f, -1e6f, 1e6f, "%.2f") && std::isfinite(xz[0]) && std::isfinite(xz[1])) {
            if (!(panel_edit_ && drag_ == Drag::Point && grabbed_point_ == k)) begin_point_edit(vols, k);
            changed |= set_point_xz(vols, xz[0], xz[1]);
        }
        if (ImGui::IsItemDeactivated() && panel_edit_ && grabbed_point_ == k) end_point_edit();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("This hull point's x and z (or drag its handle in the view). The volume is the convex\n"
                              "hull of its points: a point moved inside the others' hull drops out of it.");
        ImGui::SameLine();
        ImGui::BeginDisabled(n <= 3);
        if (ImGui::SmallButton("-")) drop = static_cast<int>(k);
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip(n <= 3 ? "A volume keeps at least 3 points" : "Remove this point (the hull of the others)");
        ImGui::PopID();
    }
    if (drop >= 0) changed |= remove_point(vols, static_cast<size_t>(drop));
    return changed;
}

bool VolumeTool::panel(std::vector<nav::ConvexVolume>& vols, const nav::AreaTable& areas) {
    bool changed = false;
    ImGui::SetNextItemWidth(110.0f);
    area_combo("new volume area", areas, area_);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The volume tool: left clicks on the level add points, Enter (or Close, or a click on\n"
                          "the first point) makes their convex hull a volume of this area, Esc drops the points.\n"
                          "A click on a volume selects it, Delete removes it; Shift+click always adds a point.\n"
                          "The selected volume's hull points are handles: drag one to move that point (the volume\n"
                          "is the hull again on the way: a point dragged inside the others' hull drops out), drag\n"
                          "inside the volume to move it; the list below it edits its points.\n"
                          "Spans whose floor is inside get the area (later volumes win); only the tiles a\n"
                          "changed volume touches re-bake, from the areas stage.");
    ImGui::SetNextItemWidth(70.0f);
    ImGui::DragFloat("height", &height_, 0.05f, 0.1f, 1000.0f, "%.2f m", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("hmax - hmin of a new volume");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(60.0f);
    ImGui::DragFloat("below", &descent_, 0.05f, 0.0f, 100.0f, "%.2f m", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("hmin lies this far below the lowest point clicked");
    if (!pts_.empty()) {
        ImGui::Text("%zu point%s", pts_.size() / 3, pts_.size() == 3 ? "" : "s");
        ImGui::SameLine();
        ImGui::BeginDisabled(pts_.size() < 9);
        if (ImGui::SmallButton("Close")) changed |= close(vols);
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Enter: the convex hull of the points becomes a volume");
        ImGui::SameLine();
        if (ImGui::SmallButton("Cancel")) cancel();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Esc: drop the points");
    }
    if (!error_.empty()) ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", error_.c_str());
    if (vols.empty()) {
        ImGui::TextDisabled("no volumes: click points on the level");
        return changed;
    }
    const ListPanelText text{"volume", "volumes", "Remove this volume (or select it and press Delete).", 70.0f};
    auto label = [&](size_t i) { return std::to_string(i) + " (" + std::to_string(vols[i].verts.size() / 3) + " pts)"; };
    auto area = [&](size_t i) {
        ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x - 30.0f, 60.0f));
        return area_combo("##area", areas, vols[i].area);
    };
    auto below = [&](size_t i) {
        bool changed = false;
        nav::ConvexVolume& v = vols[i];
        // the height range: hmin <= hmax whatever is typed
        ImGui::Indent(12.0f);
        ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x - 30.0f, 100.0f));
        float h[2] = {v.hmin, v.hmax};
        if (ImGui::DragFloat2("y", h, 0.05f, -1e6f, 1e6f, "%.2f") && std::isfinite(h[0]) && std::isfinite(h[1])) {
            if (h[0] != v.hmin) h[0] = std::min(h[0], v.hmax);
            if (h[1] != v.hmax) h[1] = std::max(h[1], v.hmin);
            if (h[0] != v.hmin || h[1] != v.hmax) {
                v.hmin = h[0];
                v.hmax = h[1];
                changed = true;
            }
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("hmin, hmax: spans whose floor lies in this range get the area");
        if (selected_ == static_cast<int>(i)) changed |= points_panel(vols);
        ImGui::Unindent(12.0f);
        return changed;
    };
    return list_panel(text, vols, *this, label, area, below) || changed;
}

}  // namespace navdebug
