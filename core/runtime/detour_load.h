// Loading a Detour navmesh file (RecastDemo's MSET file or one tile's data, detour_format.h) into
// our NavMesh: what a tool or viewer that opens a .bin file calls, and what a game that ships
// Detour files calls. Runtime only (no bake).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/common.h"
#include "core/runtime/navmesh.h"
#include "core/runtime/tile.h"

namespace nav {

// An MSET file's tiles or a single tile (read_detour_file, then read_detour_tile on each with its
// byte offset in the file), in file order. Detour tiles carry their own grid position (x, y -> z,
// layer), so they go to build_navmesh as they are.
Status read_detour_tiles(const uint8_t* data, size_t size, const std::string& what,
                         std::vector<std::shared_ptr<const NavTile>>& tiles);
// read_input_file (at most max_bytes), read_detour_tiles, build_navmesh. On failure both outputs
// are empty and the message names the file.
Status load_detour_navmesh(const std::string& path, uint64_t max_bytes, std::vector<std::shared_ptr<const NavTile>>& tiles,
                           NavMesh& mesh);

}  // namespace nav
