// Islands of the runtime navmesh: the connected components that build_navmesh labels
// (NavMesh::poly_island, polygons joined through portals whatever their flags), measured per
// island, and prune, which keeps one island walkable and flags every other polygon
// kPolyFlagDisabled so that the default QueryFilter skips it.
#pragma once
#include <cstdint>
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

}  // namespace nav
