// App: the keyboard shortcuts (shortcuts.h's table) on this frame's key presses, as the input
// queue (input_queue.h) applied them, and the on-screen list of them (F1 or ?).
#include <imgui.h>

#include <algorithm>
#include <string>

#include "app.h"
#include "input_queue.h"
#include "shortcuts.h"

namespace navdebug {

namespace r = nav::render;

void App::handle_shortcuts() {
    const InputQueue* queue = input_queue();
    if (!queue) return;
    const FrameInput& in = queue->frame();
    const ImGuiIO& io = ImGui::GetIO();
    for (const Shortcut& s : shortcuts()) {
        if (s.held) continue;
        const bool hit = in.key_pressed(s.key) || (s.repeats && in.key_repeated(s.key));
        // the modifiers held when the key went down, not when the frame ran
        if (!hit || !shortcut_mods_match(s, in.key_mods[s.key])) continue;
        // undo / redo work over the panels too, only not while typing in a field
        const bool ctrl = s.action == ShortcutAction::Undo || s.action == ShortcutAction::Redo;
        if (ctrl ? io.WantTextInput : io.WantCaptureKeyboard) continue;
        run_shortcut(s);
    }
}

void App::run_shortcut(const Shortcut& s) {
    switch (s.action) {
    case ShortcutAction::ToggleLayer:
        if (s.arg < r::kLayerCount) opts_.layers[static_cast<size_t>(s.arg)] = !opts_.layers[static_cast<size_t>(s.arg)];
        break;
    case ShortcutAction::StageBack:
        if (const int t = static_cast<int>(edit_.run_to); t > 0) edit_.run_to = static_cast<nav::Stage>(t - 1);
        break;
    case ShortcutAction::StageForward:
        if (const int t = static_cast<int>(edit_.run_to); t + 1 < nav::kStageCount) edit_.run_to = static_cast<nav::Stage>(t + 1);
        break;
    case ShortcutAction::TogglePanels:
        view_.show_ui = !view_.show_ui;
        break;
    case ShortcutAction::Frame: {
        const nav::InputMesh* mesh = pub_.bake && pub_.bake->mesh ? pub_.bake->mesh.get() : nullptr;
        if (!mesh) break;
        if (const auto& pin = sel_.inspector.pin_point()) {
            // the selection: a box of a few metres around the pinned element
            const glm::vec3 half(3.0f);
            view_.cam.frame(*pin - half, *pin + half, view_.rect);
        } else {
            view_.cam.frame(glm::vec3(mesh->bmin[0], mesh->bmin[1], mesh->bmin[2]),
                            glm::vec3(mesh->bmax[0], mesh->bmax[1], mesh->bmax[2]), view_.rect);
        }
        break;
    }
    case ShortcutAction::Undo:
        if (edit_.undo.can_undo()) apply_edit(edit_.undo.undo(), "undo");
        break;
    case ShortcutAction::Redo:
        if (edit_.undo.can_redo()) apply_edit(edit_.undo.redo(), "redo");
        break;
    case ShortcutAction::Help:
        show_shortcuts_ = !show_shortcuts_;
        break;
    case ShortcutAction::DeleteSelected:
        if (sel_.tool == Selection::Tool::Obstacle && sel_.obstacle.remove_selected(edit_.desired.obstacles))
            log_.info("obstacle removed (" + std::to_string(edit_.desired.obstacles.size()) + " left)");
        else if (sel_.tool == Selection::Tool::Volume && sel_.volume.remove_selected(edit_.desired.volumes))
            log_.info("volume removed (" + std::to_string(edit_.desired.volumes.size()) + " left)");
        else if (sel_.tool == Selection::Tool::Link && sel_.link.remove_selected(edit_.desired.links))
            log_.info("link removed (" + std::to_string(edit_.desired.links.size()) + " left)");
        break;
    case ShortcutAction::CloseVolume:
        if (sel_.tool != Selection::Tool::Volume || sel_.volume.points().empty()) break;
        if (sel_.volume.close(edit_.desired.volumes))
            log_.info("volume " + std::to_string(edit_.desired.volumes.size() - 1) + " added (" +
                      std::to_string(edit_.desired.volumes.back().verts.size() / 3) + " hull points)");
        else
            log_.warn("volume: " + sel_.volume.error());
        break;
    case ShortcutAction::CancelPlacing:
        if (sel_.tool == Selection::Tool::Volume && sel_.volume.cancel()) log_.info("volume: points dropped");
        else if (sel_.tool == Selection::Tool::Link && sel_.link.cancel()) log_.info("link cancelled");
        break;
    case ShortcutAction::Fly:
        break;  // held keys: move_camera
    }
}

void App::ui_shortcuts_overlay(float W, float H) {
    // over the 3D view's middle, every row of the table, then the mouse
    const float w = std::min(520.0f, std::max(W - 40.0f, 200.0f));
    ImGui::SetNextWindowPos(ImVec2(view_.rect.x + std::max((view_.rect.w - w) * 0.5f, 0.0f), 20.0f), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, std::max(H - 40.0f, 120.0f)), ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.94f);
    if (ImGui::Begin("Shortcuts (F1 or ? closes)", &show_shortcuts_, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove)) {
        if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
            ImGui::TableSetupColumn("Key", ImGuiTableColumnFlags_WidthFixed, 110.0f);
            ImGui::TableSetupColumn("Action");
            ImGui::TableHeadersRow();
            for (const Shortcut& s : shortcuts()) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(s.keys.c_str());
                ImGui::TableNextColumn();
                ImGui::TextWrapped("%s", s.description.c_str());
            }
            ImGui::EndTable();
        }
        ImGui::Separator();
        ImGui::TextWrapped(
            "Mouse: right-drag looks, middle-drag (or Alt+left) orbits, Shift+middle-drag pans, the wheel zooms "
            "the view (over a panel it scrolls the panel). Path tool: Shift+click sets the start, click the end.");
    }
    ImGui::End();
}

}  // namespace navdebug
