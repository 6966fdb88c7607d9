// The keyboard shortcuts: one table (key, modifiers, description, action) that the key handling
// reads (App::handle_shortcuts, the fly keys in app_input.cpp), the on-screen list shows (F1
// or ?) and `navdebug --print-shortcuts` prints as the README's key map (tests/e2e/shortcuts_readme.sh
// fails when README.md's marked block differs from it).
#pragma once
#include <string>
#include <vector>

#include <GLFW/glfw3.h>

namespace navdebug {

enum class ShortcutAction {
    ToggleLayer,   // arg: the layer's index (render/layer_names.h order, the Layers panel's)
    StageBack,     // the stage driver one stage back (Prev)
    StageForward,  // ... one stage forward (Next)
    TogglePanels,  // Tab: the panels hidden / shown
    Frame,         // F: frame the pinned element, else the mesh
    Fly,           // held: arg 0..5 = forward, back, right, left, up, down
    Undo,
    Redo,
    Help,  // the shortcut list on screen
    DeleteSelected,  // the current tool's selection: the obstacle tool's obstacle, the volume tool's volume, the link tool's link
    CloseVolume,     // Enter: the volume tool's points become a volume
    CancelPlacing,   // Esc: the volume tool's points, the link tool's half-placed link, dropped
};

struct Shortcut {
    int key = 0;   // GLFW key code
    int mods = 0;  // GLFW_MOD_SHIFT / GLFW_MOD_CONTROL that must be held (and no other of the two)
    std::string keys;         // as written: "Shift+1", "PgDn"
    std::string description;  // what it does
    ShortcutAction action;
    int arg = 0;
    bool held = false;  // acts while held (fly), not once per press
    bool repeats = false;  // a held key's auto-repeat presses it again (PgUp / PgDn)
};

// Every shortcut, in the order the list shows them.
const std::vector<Shortcut>& shortcuts();
// The Markdown key map (a table) as README.md carries it between its shortcut markers.
std::string shortcuts_markdown();
// Does the Shift / Ctrl state `mods` match the shortcut's (Alt and Super are ignored)?
inline bool shortcut_mods_match(const Shortcut& s, int mods) {
    constexpr int kMask = GLFW_MOD_SHIFT | GLFW_MOD_CONTROL;
    return (mods & kMask) == (s.mods & kMask);
}

}  // namespace navdebug
