// What the user edits and undo / redo restores: the desired bake inputs and target stage (the
// worker converges to them), what was last asked of the worker, the Islands panel and the history.
// Plain state with the functions that act on it; App wires it to the worker.
#pragma once
#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "islands.h"
#include "undo.h"

namespace navdebug {

// One step of the undo history: the bake inputs the user edited. The area table is not part of the
// history (the Areas panel's edits apply at once, outside undo): snapshot() leaves it at the
// defaults and restore() keeps the current one.
using EditSnapshot = nav::BakeInputs;

struct EditState {
    // The inputs the user wants: the parameters, the volumes, the Obstacles tool's obstacles, the
    // Links tool's manual off-mesh links, the Areas panel's table and the prune point (the Islands
    // tool's click).
    nav::BakeInputs desired;
    nav::Stage run_to = nav::kLastStage;
    // what was last requested of the worker
    nav::BakeInputs requested;
    nav::Stage requested_to = nav::kLastStage;
    IslandsTool islands;  // the Islands panel
    UndoStack<EditSnapshot> undo;
    bool keep_settings = false;    // Files panel: a new mesh keeps the current settings
    std::string own_settings_for;  // the mesh whose own settings apply when it has loaded
    std::string new_level;         // the level being opened: its picks are forgotten again when it has loaded

    // The prune point (desired.prune) as the view picks it.
    void prune_at(const glm::vec3& p) { desired.prune = std::array<float, 3>{p.x, p.y, p.z}; }
    void clear_prune() { desired.prune.reset(); }
    std::optional<glm::vec3> prune_point() const {
        if (!desired.prune) return std::nullopt;
        return glm::vec3((*desired.prune)[0], (*desired.prune)[1], (*desired.prune)[2]);
    }

    EditSnapshot snapshot() const;
    // Sets the desired state to a step of the history.
    void restore(const EditSnapshot& s);
    // The desired state differs from what the worker was last asked for.
    bool unrequested() const { return !(desired == requested) || run_to != requested_to; }
    // Records the desired state as requested (after the worker was asked for it).
    void mark_requested();
};

}  // namespace navdebug
