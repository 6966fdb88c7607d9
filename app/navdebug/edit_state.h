// What the user edits and undo / redo restores: the desired parameters, volumes and target stage
// (the worker converges to them), what was last asked of the worker, the prune point (the Islands
// tool) and the history. Plain state with the functions that act on it; App wires it to the worker.
#pragma once
#include <glm/glm.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "islands.h"
#include "undo.h"

namespace navdebug {

// One step of the undo history: the edits that change the bake or what is drawn of it.
struct EditSnapshot {
    nav::Params params;
    std::vector<nav::ConvexVolume> volumes;
    std::vector<nav::Obstacle> obstacles;
    std::vector<nav::OffMeshLink> links;
    std::optional<glm::vec3> prune;
    bool operator==(const EditSnapshot&) const = default;
};

struct EditState {
    nav::Params desired;
    std::vector<nav::ConvexVolume> volumes;
    std::vector<nav::Obstacle> obstacles;  // the Obstacles tool's (Pipeline::set_obstacles)
    std::vector<nav::OffMeshLink> links;   // the Links tool's manual off-mesh links (Pipeline::set_links)
    nav::Stage run_to = nav::kLastStage;
    // what was last requested of the worker
    nav::Params requested;
    std::vector<nav::ConvexVolume> requested_volumes;
    std::vector<nav::Obstacle> requested_obstacles;
    std::vector<nav::OffMeshLink> requested_links;
    nav::Stage requested_to = nav::kLastStage;
    IslandsTool islands;  // the prune point and the Islands panel
    UndoStack<EditSnapshot> undo;
    bool keep_settings = false;    // Files panel: a new mesh keeps the current settings
    std::string own_settings_for;  // the mesh whose own settings apply when it has loaded
    std::string new_level;         // the level being opened: its picks are forgotten again when it has loaded

    EditSnapshot snapshot() const { return {desired, volumes, obstacles, links, islands.prune_point()}; }
    // Sets the desired state to a step of the history.
    void restore(const EditSnapshot& s);
    // The desired state differs from what the worker was last asked for.
    bool unrequested() const { return !(desired == requested) || volumes != requested_volumes || obstacles != requested_obstacles || links != requested_links || run_to != requested_to; }
    // Records the desired state as requested (after the worker was asked for it).
    void mark_requested();
};

}  // namespace navdebug
