// The bake's last step (Recast's dtCreateNavMeshData): a tile's polygon mesh (voxel units) and
// detail mesh become a NavTile in world units, the type the runtime reads (core/runtime/tile.h).
#pragma once
#include "core/bake/areas.h"
#include "core/bake/detail.h"
#include "core/bake/polymesh.h"
#include "core/common.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/tile.h"

namespace nav {

// Converts, validating: index out of range, a detail mesh that does not match the polygons,
// polygons wound the wrong way, area ids over 63. Polygon flags 0 (the bake leaves them 0) become
// the polygon's area type's flags, area_flags[area] (AreaTable::flag_table; an area whose flags are
// 0 gives polygons no filter passes), or kPolyFlagDefault without a table.
// Neighbour entries 0x8000 | side are tile-border portals (kTilePortal | side) only when
// mesh.border_size > 0; without a border they are plain polygon indices, so a solo tile may hold
// more than 32767 polygons. The detail mesh follows rcPolyMeshDetail (sub-mesh p's first vertices
// copy polygon p's, triangle indices local to the sub-mesh); an empty one (nmeshes == 0) is
// allowed: heights then come from the polygons. (tx, tz) is the tile's grid position, set first so
// that the runtime's check names the tile in its errors; the caller sets layer and the walkable_*
// fields. The tile's BV tree is built. On failure `out` is left empty (at its position).
Status make_nav_tile(const PolyMesh& mesh, const PolyMeshDetail& detail, NavTile& out, int tx = 0, int tz = 0,
                     const AreaFlagTable* area_flags = nullptr);

// A solo navmesh: one tile at (0, 0) made from the mesh, then build_navmesh on it.
Status build_navmesh(const PolyMesh& mesh, const PolyMeshDetail& detail, NavMesh& out,
                     const AreaFlagTable* area_flags = nullptr);

}  // namespace nav
