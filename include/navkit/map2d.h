// navkit map2d: navmeshes from 2D maps (navkit::map2d, pkg-config navkit). Links the runtime, not
// the bake; everything is in namespace nav.
//
// Include this header, not the ones it gathers: those are installed as <navkit/detail/core/...>
// (core/... in the source tree) and are no interface of their own.
//
//   Map2D                  an outline and obstacle polygons in the xz plane (load_map2d reads the
//                          JSON form {"outline": [[x,z],...], "obstacles": [...], "agent_radius"}).
//   build_map2d            obstacles inflated by the agent radius, clipped (Weiler-Atherton),
//                          a constrained Delaunay triangulation, merged into convex polygons.
//   read_polyanya_mesh     a Polyanya .mesh file (version 2) as a 2D polygon mesh.
//   build_map2d_navmesh    the runtime NavMesh of a 2D polygon mesh (make_map2d_tile for one tile).
#pragma once

#include <navkit/runtime.h>

#include "core/map2d/map2d.h"
#include "core/map2d/map2d_tile.h"
#include "core/map2d/mesh_file.h"
