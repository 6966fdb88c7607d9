// Everything a bake is made from besides the mesh, as one value: what the JSON config holds, what
// a session and a viewer's undo history keep, what a tool reads from its flags and what
// Pipeline::set_inputs diffs against the last inputs to dirty only what changed. A Bake carries the
// inputs it was baked from. Adding an input touches this struct, its JSON (core/formats/
// params_json.cpp, config_json.h) and Pipeline::set_inputs, which fails to compile until it
// handles the new field.
#pragma once
#include <array>
#include <optional>
#include <vector>

#include "core/bake/areas.h"
#include "core/bake/obstacles.h"
#include "core/pipeline/agent_types.h"
#include "core/pipeline/params.h"
#include "core/runtime/tile.h"

namespace nav {

struct BakeInputs {
    Params params;
    // The convex volumes that mark areas, stamped in order in the areas stage (later ones win).
    std::vector<ConvexVolume> volumes;
    // The area types: their flags become the polygons' flags in the navmesh step (names, colours and
    // costs change no bake result).
    AreaTable areas = AreaTable::defaults();
    // Temporary obstacles (obstacles.h), stamped after the volumes in the areas stage.
    std::vector<Obstacle> obstacles;
    // Manual off-mesh links, in the navmesh before the automatic ones: navmesh link i is links[i].
    std::vector<OffMeshLink> links;
    // The island prune point: only the navmesh island nearest it stays enabled (nullopt: none).
    std::optional<std::array<float, 3>> prune;
    // The agent types served by this bake (agent_types.h); empty: the agent_* parameters are the
    // one type. With a list, the agent_* parameters are its base type (apply_agent_types).
    std::vector<AgentType> agent_types;

    bool operator==(const BakeInputs&) const = default;
};

}  // namespace nav
