#include "warnings_panel.h"
#include "ui_common.h"

#include <imgui.h>

#include <algorithm>
#include <string>

namespace navdebug {

void WarningsPanel::update(const nav::Bake* bake, const nav::Params& desired, Log& log) {
    const std::shared_ptr<const nav::InputMesh> mesh = bake ? bake->mesh : nullptr;
    const uint64_t gen = bake ? bake->generation : 0;
    const int through = bake ? bake->built_through : -2;
    if (have_key_ && mesh == shape_of_ && gen == key_generation_ && through == key_built_through_ &&
        desired == key_params_)
        return;
    if (mesh != shape_of_) {
        shape_of_ = mesh;
        shape_ = mesh ? nav::analyze_mesh(*mesh) : nav::MeshShape{};
    }
    have_key_ = true;
    key_generation_ = gen;
    key_built_through_ = through;
    key_params_ = desired;
    std::vector<nav::Diagnostic> next = nav::diagnose(desired, bake, mesh ? &shape_ : nullptr);
    for (const nav::Diagnostic& d : next) {
        const bool known = std::any_of(list_.begin(), list_.end(), [&](const nav::Diagnostic& o) { return o.kind == d.kind; });
        if (!known) log.warn(d.title + (d.fix.empty() ? "" : " (fix: " + d.fix_text + ")"));
    }
    list_ = std::move(next);
}

void WarningsPanel::panel(nav::Params& desired, Log& log) const {
    const std::vector<nav::Diagnostic>& list = list_;  // update() replaces it next frame, not now
    if (list.empty()) {
        ImGui::TextDisabled("None: the parameters and the mesh look sane.");
        return;
    }
    for (size_t i = 0; i < list.size(); ++i) {
        const nav::Diagnostic& d = list[i];
        ImGui::PushID(static_cast<int>(i));
        ImGui::TextColored(kWarnColor, "! %s", d.title.c_str());
        ImGui::Indent(12.0f);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(d.reason.c_str());
        ImGui::PopTextWrapPos();
        if (d.fix.empty()) {
            ImGui::TextDisabled("no automatic fix");
        } else {
            if (ImGui::Button(("Fix: " + d.fix_text).c_str())) {
                if (nav::apply_fix(d, desired)) log.info("fix '" + d.title + "': " + d.fix_text);
                else log.warn("fix '" + d.title + "' refused: " + d.fix_text);
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("Sets the parameters and re-bakes.");
        }
        ImGui::Unindent(12.0f);
        ImGui::PopID();
    }
}

}  // namespace navdebug
