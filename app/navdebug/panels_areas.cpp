// The Areas panel: the area types (nav::AreaTable) as a table of rows: colour, name, id, cost,
// flags; add / remove. A valid edit applies at once (App::set_areas): the worker re-makes the
// navmesh tiles when flags changed, the path filter's costs follow the table's costs, the views'
// area colours follow (nav::set_area_colors). An edit that makes the table invalid (a duplicate
// name, ...) stays in the panel with the error under it until fixed.
#include "app.h"
#include "ui_common.h"

#include <imgui.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "core/bake/palette.h"

namespace navdebug {

void App::set_areas(const nav::AreaTable& areas) {
    edit_.desired.areas = areas;
    areas_edit_ = areas;
    areas_error_.clear();
    uint32_t colors[64] = {};
    for (const nav::AreaType& a : areas.types)
        if (a.id < 64) colors[a.id] = a.color | 0xff000000u;  // alpha 0 would mean "built-in"
    nav::set_area_colors(colors);
    sel_.path.set_areas(areas);
    if (!(areas == nav::AreaTable::defaults())) areas_open_ = true;
}

void App::ui_areas() {
    bool changed = false;
    int remove = -1;
    const ImGuiTableFlags tf = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg;
    if (ImGui::BeginTable("##areas", 5, tf)) {
        ImGui::TableSetupColumn("colour");
        ImGui::TableSetupColumn("name");
        ImGui::TableSetupColumn("cost");
        ImGui::TableSetupColumn("flags");
        ImGui::TableSetupColumn("");
        ImGui::TableHeadersRow();
        for (size_t i = 0; i < areas_edit_.types.size(); ++i) {
            nav::AreaType& a = areas_edit_.types[i];
            ImGui::PushID(static_cast<int>(i));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            float col[3] = {static_cast<float>(a.color & 255u) / 255.0f, static_cast<float>((a.color >> 8) & 255u) / 255.0f,
                            static_cast<float>((a.color >> 16) & 255u) / 255.0f};
            if (ImGui::ColorEdit3("##c", col, ImGuiColorEditFlags_NoInputs | ImGuiColorEditFlags_NoLabel)) {
                auto u8 = [](float v) { return static_cast<int>(v * 255.0f + 0.5f); };
                a.color = nav::palette_rgba(u8(col[0]), u8(col[1]), u8(col[2]));
                changed = true;
            }
            ImGui::TableNextColumn();
            char name[64];
            std::snprintf(name, sizeof name, "%s", a.name.c_str());
            ImGui::SetNextItemWidth(52.0f);
            if (ImGui::InputText("##n", name, sizeof name)) {
                a.name = name;
                changed = true;
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("area id %d", a.id);
            ImGui::TableNextColumn();
            ImGui::SetNextItemWidth(42.0f);
            if (ImGui::DragFloat("##cost", &a.cost, 0.05f, 0.0f, 1000.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp)) changed = true;
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("traversal cost per metre (the path filter's default)");
            ImGui::TableNextColumn();
            ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(1.0f, 1.0f));  // four boxes in a narrow panel
            for (const nav::PolyFlagName& f : nav::poly_flag_names()) {
                if (f.bit == nav::kPolyFlagDisabled) continue;
                bool on = (a.flags & f.bit) != 0;
                ImGui::PushID(f.bit);
                if (ImGui::Checkbox("##f", &on)) {
                    a.flags = static_cast<uint16_t>(on ? a.flags | f.bit : a.flags & ~f.bit);
                    changed = true;
                }
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", std::string(f.name).c_str());
                ImGui::PopID();
                ImGui::SameLine(0.0f, 2.0f);
            }
            ImGui::PopStyleVar();
            ImGui::NewLine();
            ImGui::TableNextColumn();
            if (ImGui::SmallButton("x")) remove = static_cast<int>(i);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("remove (its polygons then walk, cost 1, built-in colour)");
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
    ImGui::TextColored(kDimColor, "flags: walk swim door jump");
    if (remove >= 0) {
        areas_edit_.types.erase(areas_edit_.types.begin() + remove);
        changed = true;
    }
    const uint8_t next_id = areas_edit_.free_id();
    ImGui::BeginDisabled(next_id == 0);
    if (ImGui::SmallButton("Add area")) {
        std::string n = "area" + std::to_string(next_id);
        areas_edit_.types.push_back({n, next_id, nav::default_area_color(next_id), 1.0f, nav::kPolyFlagWalk});
        changed = true;
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::SmallButton("Defaults")) {
        areas_edit_ = nav::AreaTable::defaults();
        changed = true;
    }
    if (changed) {
        const nav::Status st = areas_edit_.validate("areas");
        if (st) {
            const nav::AreaTable t = areas_edit_;
            set_areas(t);
        } else {
            areas_error_ = st.message;
        }
    }
    if (!areas_error_.empty()) ImGui::TextColored(kErrorColor, "%s", areas_error_.c_str());
}

}  // namespace navdebug
