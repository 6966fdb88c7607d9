#include "islands.h"
#include "ui_common.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/runtime/query.h"
#include "render/islands_draw.h"

namespace navdebug {

void IslandsTool::update_rows(const std::shared_ptr<const nav::NavMesh>& mesh) {
    if (mesh == rows_mesh_) return;
    rows_mesh_ = mesh;
    rows_.clear();
    rows_error_.clear();
    total_area_ = 0.0;
    if (!mesh) return;
    std::vector<nav::IslandStats> stats;
    if (nav::Status st = nav::island_stats(*mesh, stats); !st) {
        rows_error_ = st.message;
        return;
    }
    rows_.reserve(stats.size());
    for (size_t i = 0; i < stats.size(); ++i) {
        rows_.push_back({static_cast<uint32_t>(i), stats[i]});
        total_area_ += stats[i].area;
    }
    std::sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
        return a.stats.area != b.stats.area ? a.stats.area > b.stats.area : a.island < b.island;
    });
}

void IslandsTool::panel(const nav::Bake* bake, std::optional<std::array<float, 3>>& prune) {
    const std::shared_ptr<const nav::NavMesh> mesh = bake ? bake->navmesh : nullptr;
    update_rows(mesh && !mesh->empty() ? mesh : nullptr);
    if (!rows_mesh_) {
        ImGui::TextDisabled("No navmesh: islands are labelled by the navmesh stage.");
    } else if (!rows_error_.empty()) {
        ImGui::TextColored(kWarnColor, "%s", rows_error_.c_str());
    } else {
        ImGui::Text("%d islands, %d polygons, %.1f m^2", rows_mesh_->nislands, rows_mesh_->npolys, total_area_);
        const float line = ImGui::GetTextLineHeightWithSpacing();
        const int shown = std::min(static_cast<int>(rows_.size()), 8);
        const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                      ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
        if (ImGui::BeginTable("islands", 4, flags, ImVec2(0.0f, line * static_cast<float>(shown + 1) + 4.0f))) {
            ImGui::TableSetupScrollFreeze(0, 1);
            ImGui::TableSetupColumn("island");
            ImGui::TableSetupColumn("polygons");
            ImGui::TableSetupColumn("area m^2");
            ImGui::TableSetupColumn("share", ImGuiTableColumnFlags_WidthStretch);
            ImGui::TableHeadersRow();
            // big meshes can have thousands of islands: lay out only the visible rows
            ImGuiListClipper clipper;
            clipper.Begin(static_cast<int>(rows_.size()));
            while (clipper.Step()) {
                for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
                    const Row& r = rows_[static_cast<size_t>(i)];
                    const bool off = r.stats.disabled == r.stats.polys;
                    ImGui::PushID(i);
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::ColorButton("##swatch", to_imvec(nav::render::island_color(r.island)),
                                       ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker,
                                       ImVec2(ImGui::GetTextLineHeight(), ImGui::GetTextLineHeight()));
                    ImGui::SameLine();
                    if (off) ImGui::TextDisabled("%u", r.island);
                    else ImGui::Text("%u", r.island);
                    ImGui::TableNextColumn();
                    if (off) ImGui::TextDisabled("%u disabled", r.stats.polys);
                    else if (r.stats.disabled > 0) ImGui::Text("%u (%u disabled)", r.stats.polys, r.stats.disabled);
                    else ImGui::Text("%u", r.stats.polys);
                    ImGui::TableNextColumn();
                    ImGui::Text("%.1f", r.stats.area);
                    ImGui::TableNextColumn();
                    ImGui::Text("%.1f%%", total_area_ > 0.0 ? 100.0 * r.stats.area / total_area_ : 0.0);
                    ImGui::PopID();
                }
            }
            ImGui::EndTable();
        }
    }

    // prune state (the bake's, made with the current prune point; none while it is on its way)
    const nav::PruneOutcome* result = bake && bake->prune.point ? &bake->prune : nullptr;
    if (result && result->point != prune) result = nullptr;
    if (result && result->applied) {
        ImGui::Text("kept island %u: %u polygons, %u disabled", result->stats.island, result->stats.kept,
                    result->stats.disabled);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Only what is reachable from polygon %u is walkable; the disabled polygons are drawn dark\n"
                              "and skipped by the path queries. Part of every bake (%.2f ms).",
                              result->kept_poly, result->ms);
    } else if (result && !result->message.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(kWarnColor, "%s", result->message.c_str());
        ImGui::PopTextWrapPos();
    }
    if (prune) {
        const std::array<float, 3> at = *prune;
        if (ImGui::SmallButton("Clear")) prune.reset();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Undo the prune: every polygon walkable again.");
        ImGui::SameLine();
        ImGui::TextDisabled("from (%.2f, %.2f, %.2f)", at[0], at[1], at[2]);
    } else {
        ImGui::TextWrapped("To prune: choose Click: prune above, then click the navmesh. What the clicked polygon "
                           "cannot reach is disabled.");
    }
}

}  // namespace navdebug
