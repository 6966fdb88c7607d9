#include "inspector.h"

#include <imgui.h>

#include <string>

namespace navdebug {

namespace r = nav::render;

void Inspector::repick_pin() {
    pin_dirty_ = false;
    pinned_ = {};
    pin_text_ = {};
    if (!pin_point_ || !bake_ || !layer_) return;
    pinned_ = r::pick_point(*bake_, *layer_, &pin_point_->x);
    if (pinned_.valid()) pin_text_ = r::describe_element(*bake_, pinned_);
}

void Inspector::update(const std::shared_ptr<const nav::Bake>& bake, const r::LayerMask& layers, const PickRay* hover,
                       bool click) {
    const std::optional<r::Layer> top = bake ? r::top_pick_layer(*bake, layers) : std::nullopt;
    if (bake != bake_ || top != layer_) {
        bake_ = bake;
        layer_ = top;
        have_ray_ = false;
        hovered_ = {};
        hover_text_ = {};
        pin_dirty_ = true;
    }
    if (pin_dirty_) repick_pin();

    if (!hover || !bake_ || !layer_) {
        hovered_ = {};
        hover_text_ = {};
        have_ray_ = false;
    } else if (!have_ray_ || hover->o != last_ray_.o || hover->d != last_ray_.d) {
        last_ray_ = *hover;
        have_ray_ = true;
        hovered_ = r::pick_ray(*bake_, *layer_, &hover->o.x, &hover->d.x);
        hover_text_ = hovered_.valid() ? r::describe_element(*bake_, hovered_) : r::ElementText{};
    }
    if (click && hovered_.valid()) {
        glm::vec3 p;
        r::element_anchor(*bake_, hovered_, &p.x);
        pin_point_ = p;
        pin_dirty_ = false;
        pinned_ = hovered_;
        pin_text_ = hover_text_;
    }
}

void Inspector::tooltip() const {
    if (!hovered_.valid() || hover_text_.title.empty()) return;
    ImGui::BeginTooltip();
    ImGui::TextColored(ImVec4(0.47f, 1.0f, 1.0f, 1.0f), "%s", hover_text_.title.c_str());
    for (const std::string& l : hover_text_.lines) ImGui::TextUnformatted(l.c_str());
    if (pinned_.valid() && pinned_.same(hovered_)) ImGui::TextDisabled("(pinned)");
    ImGui::EndTooltip();
}

void Inspector::panel() {
    if (layer_) ImGui::Text("Layer: %s (top visible)", std::string(r::layer_name(*layer_)).c_str());
    else ImGui::TextDisabled("No layer to inspect: show a layer the bake has.");
    if (pin_point_) {
        const glm::vec3 at = *pin_point_;
        const bool clear = ImGui::SmallButton("clear");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Unpin the element.");
        if (pinned_.valid()) {
            ImGui::SameLine();
            if (ImGui::SmallButton("copy")) ImGui::SetClipboardText(r::element_text(pin_text_).c_str());
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("Copy the description to the clipboard.");
        }
        ImGui::SameLine();
        ImGui::TextDisabled("at (%.2f, %.2f, %.2f)", at.x, at.y, at.z);
        if (clear) clear_pin();
    }
    if (pinned_.valid() && !pin_text_.title.empty()) {
        ImGui::TextColored(ImVec4(1.0f, 1.0f, 0.0f, 1.0f), "%s", pin_text_.title.c_str());
        for (const std::string& l : pin_text_.lines) ImGui::TextWrapped("%s", l.c_str());
    } else if (pin_point_) {
        ImGui::TextWrapped("Nothing at the pinned point in this layer (it is kept: a later bake or another layer may "
                           "show an element there).");
    } else {
        ImGui::TextWrapped("Hover the view with Click: inspect (or hold Alt with any tool) for a tooltip. With Click: inspect, a "
                           "click pins the element here.");
    }
}

bool Inspector::has_pin() const { return pinned_.valid(); }

void Inspector::clear_pin() {
    pin_point_.reset();
    pin_dirty_ = false;
    pinned_ = {};
    pin_text_ = {};
}

void Inspector::draw_overlay(r::DrawList& out) const {
    if (!bake_) return;
    if (hovered_.valid() && !(pinned_.valid() && pinned_.same(hovered_)))
        r::build_element_overlay(*bake_, hovered_, false, out);
    if (pinned_.valid()) r::build_element_overlay(*bake_, pinned_, true, out);
}

}  // namespace navdebug
