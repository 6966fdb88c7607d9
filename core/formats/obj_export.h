// Writes the baked navigation mesh as Wavefront OBJ so other tools can open it: group `polymesh`
// (one face per polygon, in stored order, which faces up) and, when given, group `detail` (its
// triangles). World coordinates, at the floor height. Used by a tool's --obj-out and a
// viewer's export.
#pragma once
#include <string>

#include "core/common.h"
#include "core/bake/detail.h"
#include "core/bake/polymesh.h"
#include "core/runtime/tile.h"

namespace nav {

Status write_navmesh_obj(const std::string& path, const PolyMesh& pm, const PolyMeshDetail* dm);
// A runtime tile's polygons as OBJ (group `navmesh`, one face per polygon in stored order, world
// coordinates): a tool's --obj-out for 2D maps, whose navmesh is one such tile.
Status write_tile_obj(const std::string& path, const NavTile& t);

}  // namespace nav
