#include "list_panel.h"

#include <imgui.h>

#include <algorithm>

namespace navdebug {

ListRowsResult list_rows(const ListPanelText& text, size_t count, ListSelection& sel, const ListRowLabel& label,
                         const ListRowFields& inline_fields, const ListRowFields& below_fields) {
    ListRowsResult r;
    ImGui::Text("%zu %s", count, count == 1 ? text.singular : text.plural);
    ImGui::SameLine();
    if (ImGui::SmallButton("remove all")) {
        r.remove_all = true;
        return r;
    }
    for (size_t i = 0; i < count; ++i) {
        ImGui::PushID(static_cast<int>(i));
        const float w = text.label_width > 0 ? text.label_width : std::max(ImGui::GetContentRegionAvail().x - 30.0f, 80.0f);
        if (ImGui::Selectable(label(i).c_str(), sel.selected() == static_cast<int>(i), 0, ImVec2(w, 0.0f)))
            sel.select(static_cast<int>(i));
        ImGui::SameLine();
        if (inline_fields) {
            r.changed |= inline_fields(i);
            ImGui::SameLine();
        }
        if (ImGui::SmallButton("x")) r.remove = static_cast<int>(i);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text.remove_tip);
        if (below_fields) r.changed |= below_fields(i);
        ImGui::PopID();
    }
    return r;
}

}  // namespace navdebug
