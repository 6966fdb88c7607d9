// navkit runtime: what a game links (navkit::runtime, pkg-config navkit-runtime). Standard library
// only: no oneTBB, no JSON, no OpenGL. Everything is in namespace nav.
//
// Include this header, not the ones it gathers: those are installed as <navkit/detail/core/...>
// (core/... in the source tree, as named below) and are no interface of their own.
//
// Data
//   NavTile          one navmesh tile in world units: vertices, convex polygons (clockwise in xz),
//                    neighbours and tile-border portals, areas, flags, detail triangles, BV tree.
//                    The bake (navkit::bake), the 2D-map front end (navkit::map2d) and a game's own
//                    data all make tiles. validate_tile checks one.
//   NavMesh          a set of tiles stitched into one graph. build_navmesh(tiles, previous, out)
//                    assembles it; a rebuilt tile bumps its slot's salt.
//   PolyRef          a polygon reference {salt, tile slot, polygon}: a reference into a rebuilt tile
//                    is detected as stale by every query. make_poly_ref, ref_slot, ref_poly, ref_salt.
//
// Queries (NavQuery: init(&mesh) once; reuses its buffers, allocates nothing after the first query)
//   find_nearest_poly       the polygon nearest a point within a box, and the point on it
//   find_path               A* over polygons with area costs (QueryFilter); partial paths flagged
//   find_straight_path      the funnel over a corridor, optional portal shrink
//   find_route              all of the above in one call; RouteOptions::optimal = Polyanya instead
//   raycast, find_distance_to_wall, find_polys_around_circle, random_point, query_polygons
//
// Detour's files (core/runtime/detour_format.h, detour_load.h)
//   write_detour_tile, write_mset   Detour 1.5.1's tile data (dtCreateNavMeshData's exact bytes) and
//                    RecastDemo's all-tiles MSET file; detour_tile_ref, detour_mesh_params
//   read_detour_file, read_detour_tile   an MSET file or one tile's data into NavTiles (every
//                    count, index and coordinate checked); load_detour_navmesh: a file into a NavMesh
//
// Also: polyanya_find_path (the exact Euclidean-shortest path), island_stats and
// prune_unreachable (connected components), read_input_file (the checked file reader).
#pragma once

#include "core/common.h"
#include "core/io/file.h"
#include "core/runtime/detour_format.h"
#include "core/runtime/detour_load.h"
#include "core/runtime/islands.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/polyanya.h"
#include "core/runtime/query.h"
#include "core/runtime/tile.h"
