#include "shortcuts.h"

#include "render/layer_names.h"

namespace navdebug {

namespace r = nav::render;

const std::vector<Shortcut>& shortcuts() {
    static const std::vector<Shortcut> table = [] {
        std::vector<Shortcut> t;
        // number keys: 1..9, 0 toggle the first ten layers in the Layers panel's order,
        // Shift+1..9, 0 the next ones (as many as there are layers)
        static const int digits[10] = {GLFW_KEY_1, GLFW_KEY_2, GLFW_KEY_3, GLFW_KEY_4, GLFW_KEY_5,
                                       GLFW_KEY_6, GLFW_KEY_7, GLFW_KEY_8, GLFW_KEY_9, GLFW_KEY_0};
        for (int li = 0; li < r::kLayerCount && li < 20; ++li) {
            const int k = li % 10;
            const bool shift = li >= 10;
            const std::string digit(1, static_cast<char>(k == 9 ? '0' : '1' + k));
            t.push_back({digits[k], shift ? GLFW_MOD_SHIFT : 0, (shift ? "Shift+" : "") + digit,
                         "toggle the " + std::string(r::kLayerNames[static_cast<size_t>(li)]) + " layer",
                         ShortcutAction::ToggleLayer, li});
        }
        t.push_back({GLFW_KEY_PAGE_UP, 0, "PgUp", "stage driver one stage back (Prev)", ShortcutAction::StageBack, 0, false, true});
        t.push_back({GLFW_KEY_PAGE_DOWN, 0, "PgDn", "stage driver one stage forward (Next)", ShortcutAction::StageForward, 0, false,
                     true});
        t.push_back({GLFW_KEY_W, 0, "W", "fly forward (held; Shift faster)", ShortcutAction::Fly, 0, true});
        t.push_back({GLFW_KEY_S, 0, "S", "fly back (held)", ShortcutAction::Fly, 1, true});
        t.push_back({GLFW_KEY_D, 0, "D", "fly right (held)", ShortcutAction::Fly, 2, true});
        t.push_back({GLFW_KEY_A, 0, "A", "fly left (held)", ShortcutAction::Fly, 3, true});
        t.push_back({GLFW_KEY_E, 0, "E", "fly up (held)", ShortcutAction::Fly, 4, true});
        t.push_back({GLFW_KEY_Q, 0, "Q", "fly down (held)", ShortcutAction::Fly, 5, true});
        t.push_back({GLFW_KEY_F, 0, "F", "frame the pinned element (inspector), else the mesh", ShortcutAction::Frame});
        t.push_back({GLFW_KEY_TAB, 0, "Tab", "hide / show the panels", ShortcutAction::TogglePanels});
        t.push_back({GLFW_KEY_Z, GLFW_MOD_CONTROL, "Ctrl+Z", "undo the last edit", ShortcutAction::Undo});
        t.push_back({GLFW_KEY_Z, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT, "Ctrl+Shift+Z", "redo", ShortcutAction::Redo});
        t.push_back({GLFW_KEY_Y, GLFW_MOD_CONTROL, "Ctrl+Y", "redo", ShortcutAction::Redo});
        t.push_back({GLFW_KEY_DELETE, 0, "Delete", "remove the selected obstacle (obstacle tool), volume (volume tool) or link (link tool)",
                     ShortcutAction::DeleteSelected});
        t.push_back({GLFW_KEY_ENTER, 0, "Enter", "close the volume being drawn: the hull of its points (volume tool)",
                     ShortcutAction::CloseVolume});
        t.push_back({GLFW_KEY_ESCAPE, 0, "Esc", "drop the volume's points (volume tool) or the half-placed link (link tool)",
                     ShortcutAction::CancelPlacing});
        t.push_back({GLFW_KEY_F1, 0, "F1", "show / hide this list of shortcuts", ShortcutAction::Help});
        t.push_back({GLFW_KEY_SLASH, GLFW_MOD_SHIFT, "?", "show / hide this list of shortcuts", ShortcutAction::Help});
        return t;
    }();
    return table;
}

std::string shortcuts_markdown() {
    std::string out = "| Key | Action |\n|---|---|\n";
    for (const Shortcut& s : shortcuts()) out += "| " + s.keys + " | " + s.description + " |\n";
    return out;
}

}  // namespace navdebug
