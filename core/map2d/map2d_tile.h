// 2D maps, last stage: the polygon mesh of a 2D map as the runtime tile type (core/runtime/tile.h),
// flat at y = 0, so every query, the path tool, islands and export work on it unchanged. Polygons
// are reversed to the runtime's clockwise winding; the detail mesh is left empty (heights come
// from the polygons themselves); area kWalkableArea, flags kPolyFlagDefault; the BV tree built.
#pragma once
#include "core/common.h"
#include "core/map2d/mesh_file.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/tile.h"

namespace nav::map2d {

// Fails (BadInput) when a polygon has more than kMaxPolyEdges vertices or the tile does not pass
// validate_tile (e.g. a polygon no longer convex after rounding to float).
Status make_map2d_tile(const PolyMesh2D& m, NavTile& out);

// A solo navmesh from one 2D-map tile.
Status build_map2d_navmesh(const PolyMesh2D& m, NavMesh& out);

}  // namespace nav::map2d
