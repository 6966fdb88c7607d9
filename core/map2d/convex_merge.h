// 2D maps, stage 3: from the constrained Delaunay triangles to the polygon mesh, optionally
// merging triangles into convex polygons (Hertel-Mehlhorn: remove diagonals, longest first,
// while both ends stay convex and the polygon has at most max_verts vertices). Hertel-Mehlhorn
// keeps at most 4 times the minimum number of convex pieces.
#pragma once
#include <cstdint>

#include "core/common.h"
#include "core/map2d/cdt.h"
#include "core/map2d/mesh_file.h"

namespace nav::map2d {

// The triangles of `cdt` (domain only) as a polygon mesh; unused points are dropped. With
// max_verts >= 4 the triangles are merged into convex polygons of at most max_verts vertices;
// max_verts = 3 keeps the triangles. Fails on max_verts < 3 or > 64.
Status triangles_to_polygons(const CdtResult& cdt, int max_verts, PolyMesh2D& out);

}  // namespace nav::map2d
