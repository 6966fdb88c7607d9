// Islands of the runtime navmesh: the connected components that build_navmesh labels
// (NavMesh::poly_island, polygons joined through portals whatever their flags), measured per
// island, and prune, which keeps one island walkable and flags every other polygon
// kPolyFlagDisabled so that the default QueryFilter skips it.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/common.h"
#include "core/runtime/navmesh.h"

namespace nav {

struct IslandStats {
    uint32_t polys = 0;     // polygons on the island
    uint32_t disabled = 0;  // of which flagged kPolyFlagDisabled
    double area = 0.0;      // xz-projected area, square metres
};

// One entry per island (index = island id, out.size() == nislands). Fails (BadInput) when the
// island labels do not match the polygons (a mesh not made by build_navmesh); out is then empty.
Status island_stats(const NavMesh& mesh, std::vector<IslandStats>& out);

// What one agent type can use of a navmesh: the polygons whose types mask has its bit
// (QueryFilter::agent_type; -1: every polygon), their xz area in square metres, and the islands
// they fall into when joined only through portals between two such polygons (links not counted).
struct AgentTypeUse {
    uint32_t polys = 0;
    double area = 0;
    uint32_t islands = 0;
};
AgentTypeUse agent_type_use(const NavMesh& mesh, int agent_type);

struct PruneStats {
    uint32_t island = 0;    // the island kept (that of `keep`)
    uint32_t kept = 0;      // polygons left enabled
    uint32_t disabled = 0;  // polygons flagged kPolyFlagDisabled
};

// Keeps what is reachable through portals from polygon `keep`: clears kPolyFlagDisabled on those
// polygons and sets it on every other one. Reachability ignores flags (a second prune from another
// island re-enables that island), so the kept set is exactly keep's island. Other flag bits
// are left alone. Fails (BadInput, mesh unchanged) when `keep` is stale or names no polygon, or
// the island labels do not match the polygons.
Status prune_unreachable(NavMesh& mesh, PolyRef keep, PruneStats* stats = nullptr);

// Half extents of the box around a picked point in which the nearest navmesh polygon is searched
// (Detour sample's): picks land on the input surface, and erosion keeps the navmesh up to an agent
// radius from walls and ledges, a few metres above or below. The prune point's box (prune_at) and
// a viewer's picks (path tool, path tests).
constexpr float kPickHalfExtents[3] = {2.0f, 4.0f, 2.0f};

// What a navmesh carries about the prune asked of it (prune_at; the pipeline's BakeInputs::prune,
// published on Bake::prune).
struct PruneOutcome {
    std::optional<std::array<float, 3>> point;  // the prune point asked for (nullopt: no prune)
    bool applied = false;      // the navmesh is pruned: the polygons off the kept island are disabled
    PruneStats stats{};        // when applied
    uint32_t kept_poly = kNoPoly;  // when applied: the dense polygon nearest the point, whose island is kept
    double ms = 0.0;           // time the prune took (copy, search and flags)
    std::string message;       // why a prune asked for is not applied (empty when applied or none asked)
};

// The island prune at a point, on a navmesh that is never pruned itself: the polygon nearest
// `point` within kPickHalfExtents (whatever its flags, kPolyFlagDisabled included, so a second
// prune elsewhere picks from the unpruned polygons) names the island kept; every other polygon
// gets kPolyFlagDisabled (prune_unreachable). Returns the navmesh to use: `unpruned` itself when
// no prune is asked (point nullopt) or it cannot apply (no navmesh or an empty one, no polygon
// within the box: `out.message` says which), else a new copy (sharing every tile, salts and
// references kept) whose flags are the unpruned ones with the prune applied. `out` is filled.
std::shared_ptr<const NavMesh> prune_at(const std::shared_ptr<const NavMesh>& unpruned,
                                        const std::optional<std::array<float, 3>>& point, PruneOutcome& out);

}  // namespace nav
