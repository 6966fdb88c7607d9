// The Areas panel: the area types (nav::AreaTable) as a table of rows: colour, name, id, cost,
// flags; add / remove. A valid edit applies at once (the caller: App::set_areas): the worker
// re-makes the navmesh tiles when flags changed, else republishes the bake with the new table (its
// area-coloured layers redrawn); the path filter's costs follow the table's costs. An edit that
// makes the table invalid (a duplicate name, ...) stays in the panel with the error under it until
// fixed.
#include "areas_state.h"
#include "ui_common.h"

#include <imgui.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "core/bake/palette.h"

namespace navdebug {

bool areas_panel(AreasState& areas) {
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
        for (size_t i = 0; i < areas.edit.types.size(); ++i) {
            nav::AreaType& a = areas.edit.types[i];
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
        areas.edit.types.erase(areas.edit.types.begin() + remove);
        changed = true;
    }
    const uint8_t next_id = areas.edit.free_id();
    ImGui::BeginDisabled(next_id == 0);
    if (ImGui::SmallButton("Add area")) {
        std::string n = "area" + std::to_string(next_id);
        areas.edit.types.push_back({n, next_id, nav::default_area_color(next_id), 1.0f, nav::kPolyFlagWalk});
        changed = true;
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::SmallButton("Defaults")) {
        areas.edit = nav::AreaTable::defaults();
        changed = true;
    }
    bool apply = false;
    if (changed) {
        const nav::Status st = areas.edit.validate("areas");
        if (st) apply = true;
        else areas.error = st.message;
    }
    if (!areas.error.empty()) ImGui::TextColored(kErrorColor, "%s", areas.error.c_str());
    return apply;
}

}  // namespace navdebug
