#include "link_tool.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "list_panel.h"

namespace navdebug {

int pick_link_end(const std::vector<nav::OffMeshLink>& links, const float* o, const float* d, float grab, float* t_hit) {
    const float dl2 = std::max(d[0] * d[0] + d[1] * d[1] + d[2] * d[2], 1e-12f);
    int best = -1;
    float best_t = std::numeric_limits<float>::infinity();
    for (size_t i = 0; i < links.size(); ++i)
        for (int e = 0; e < 2; ++e) {
            const float* p = e ? links[i].end : links[i].start;
            const float v[3] = {p[0] - o[0], p[1] - o[1], p[2] - o[2]};
            const float t = (v[0] * d[0] + v[1] * d[1] + v[2] * d[2]) / dl2;
            if (t < 0) continue;
            float dist2 = 0;
            for (int k = 0; k < 3; ++k) {
                const float w = v[k] - t * d[k];
                dist2 += w * w;
            }
            if (dist2 <= grab * grab && t < best_t) {
                best_t = t;
                best = static_cast<int>(i) * 2 + e;
            }
        }
    if (t_hit) *t_hit = best_t;
    return best;
}

bool LinkTool::press(std::vector<nav::OffMeshLink>& links, const float* o, const float* d, const float* ground, float radius) {
    float t = 0.0f;
    // an end is grabbed within the larger of its link's radius and 0.25 m of the ray
    float grab = 0.25f;
    for (const nav::OffMeshLink& l : links) grab = std::max(grab, std::min(l.radius, 1.0f));
    const int hit = pick_link_end(links, o, d, grab, &t);
    float tg = std::numeric_limits<float>::infinity();
    if (ground) {
        const float dl2 = std::max(d[0] * d[0] + d[1] * d[1] + d[2] * d[2], 1e-12f);
        tg = ((ground[0] - o[0]) * d[0] + (ground[1] - o[1]) * d[1] + (ground[2] - o[2]) * d[2]) / dl2;
    }
    if (hit >= 0 && !pending_ && t <= tg + grab) {
        selected_ = hit / 2;
        grabbed_end_ = hit % 2;
        dragging_ = ground != nullptr;
        return false;
    }
    if (!ground) {
        selected_ = -1;
        return false;
    }
    if (!pending_) {
        pending_ = std::array<float, 3>{ground[0], ground[1], ground[2]};
        selected_ = -1;
        return false;
    }
    nav::OffMeshLink l;
    std::copy(pending_->begin(), pending_->end(), l.start);
    std::copy(ground, ground + 3, l.end);
    l.radius = radius;
    l.bidir = true;
    l.area = nav::kAreaJump;
    l.flags = nav::kPolyFlagWalk;
    links.push_back(l);
    pending_.reset();
    selected_ = static_cast<int>(links.size()) - 1;
    return true;
}

bool LinkTool::drag_to(std::vector<nav::OffMeshLink>& links, const float* ground) {
    if (!dragging_ || selected_ < 0 || selected_ >= static_cast<int>(links.size())) return false;
    float* p = grabbed_end_ ? links[static_cast<size_t>(selected_)].end : links[static_cast<size_t>(selected_)].start;
    if (p[0] == ground[0] && p[1] == ground[1] && p[2] == ground[2]) return false;
    std::copy(ground, ground + 3, p);
    return true;
}

bool LinkTool::cancel() {
    const bool had = pending_.has_value();
    pending_.reset();
    return had;
}

bool LinkTool::remove_selected(std::vector<nav::OffMeshLink>& links) {
    if (!ListSelection::remove_selected(links)) return false;
    dragging_ = false;
    return true;
}

bool LinkTool::panel(std::vector<nav::OffMeshLink>& links, const nav::AreaTable& areas, float agent_radius) {
    ImGui::TextDisabled("new links: radius %.2f m (agent radius), two-way, area jump", agent_radius);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The link tool: left click on the level sets a new link's start, a second click its end\n"
                          "(Esc cancels). A press on a link's end grabs it and dragging moves it; Delete removes\n"
                          "the selected link. Links change no tile: the bake only relinks the navmesh.");
    if (pending_) ImGui::Text("start at (%.2f, %.2f, %.2f): click the end (Esc cancels)", (*pending_)[0], (*pending_)[1], (*pending_)[2]);
    if (links.empty()) {
        ImGui::TextDisabled("no links: pick the link tool and click start and end on the level");
        return false;
    }
    const ListPanelText text{"link", "links", "Remove this link (or select it and press Delete)."};
    auto area_name = [&](uint8_t a) { return areas.name_of(a).empty() ? std::to_string(a) : std::string(areas.name_of(a)); };
    auto label = [&](size_t i) {
        return std::to_string(i) + (links[i].bidir ? " two-way " : " one-way ") + area_name(links[i].area);
    };
    auto below = [&](size_t i) {
        bool changed = false;
        nav::OffMeshLink& l = links[i];
        const float w = std::max(ImGui::GetContentRegionAvail().x - 70.0f, 120.0f);
        for (int e = 0; e < 2; ++e) {
            float* p = e ? l.end : l.start;
            const float before[3] = {p[0], p[1], p[2]};
            ImGui::SetNextItemWidth(w);
            if (ImGui::DragFloat3(e ? "end" : "start", p, 0.05f, -1e6f, 1e6f, "%.2f")) changed = true;
            for (int k = 0; k < 3; ++k)
                if (!std::isfinite(p[k])) p[k] = before[k];
        }
        ImGui::SetNextItemWidth(70.0f);
        if (ImGui::DragFloat("radius", &l.radius, 0.01f, 0.0f, 100.0f, "%.2f")) changed = true;
        if (!std::isfinite(l.radius) || l.radius < 0) l.radius = 0;
        ImGui::SameLine();
        if (ImGui::Checkbox("two-way", &l.bidir)) changed = true;
        ImGui::SetNextItemWidth(110.0f);
        if (ImGui::BeginCombo("area", area_name(l.area).c_str())) {
            for (const nav::AreaType& a : areas.types)
                if (ImGui::Selectable(a.name.c_str(), a.id == l.area)) {
                    changed = changed || l.area != a.id;
                    l.area = a.id;
                }
            ImGui::EndCombo();
        }
        ImGui::SameLine();
        int flags = l.flags;
        ImGui::SetNextItemWidth(80.0f);
        if (ImGui::InputInt("flags", &flags, 0, 0)) {
            l.flags = static_cast<uint16_t>(std::clamp(flags, 0, 65535));
            changed = true;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", nav::flags_to_string(l.flags).c_str());
        ImGui::SetNextItemWidth(110.0f);
        if (ImGui::InputScalar("user id", ImGuiDataType_U32, &l.user_id)) changed = true;
        ImGui::Separator();
        return changed;
    };
    return list_panel(text, links, *this, label, nullptr, below);
}

}  // namespace navdebug
