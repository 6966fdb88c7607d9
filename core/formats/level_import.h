// Level files in the formats artists export (glTF/GLB, FBX, Collada, PLY, STL, 3DS), read through
// assimp into the one triangle soup the bake reads. OBJ stays on our own reader (input.h).
// assimp is linked privately to navkit_bake: no assimp header is included here.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/bake/input.h"
#include "core/common.h"

namespace nav {

// More vertices or triangles than this (after node instancing) are refused before they are copied:
// 64 Mi, about what a 1 GiB OBJ can hold.
constexpr int64_t kMaxLevelVertices = int64_t(1) << 26;
constexpr int64_t kMaxLevelTriangles = int64_t(1) << 26;

// Every extension load_level reads, lower case with the dot, ".obj" first (the Open dialog's list).
std::span<const std::string_view> level_extensions();
// True when `path` ends (case-insensitively) with one of the extensions read through assimp.
bool is_assimp_level_path(std::string_view path);

// Loads a level mesh: assimp formats by extension, anything else through load_obj (as before).
// The file is read whole through read_input_file (opt.max_bytes, regular files and pipes only);
// the external buffers a .gltf names are opened next to it under the same limit.
Status load_level(const std::string& path, InputMesh& out, const ObjReadOptions& opt = {});

// The assimp reader on bytes in memory. `format` is the extension without the dot ("glb", "fbx",
// ...) telling assimp what to expect; `path` names the file in messages and is where a .gltf's
// external buffers are looked for (next to it). Rules:
//  - every mesh the node tree places is taken with the node's accumulated transform (instances
//    repeat); points and lines are dropped; polygons are triangulated; degenerate triangles are
//    kept (never walkable), as in OBJ;
//  - unit and up axis from the file where it states them: FBX UnitScaleFactor (centimetres per
//    unit, the FBX convention: 100 = metres) and UpAxis / UpAxisSign; Collada <unit> and
//    <up_axis> (assimp's loader puts them in the root transform); glTF is Y-up metres by its
//    spec; 3DS is Z-up (assimp's loader rotates it). PLY and STL state nothing: taken as they are,
//    and the bake's "looks Z-up" / "looks like centimetres" warnings judge them as they do OBJ;
//  - each triangle keeps its mesh's name (the node's when the mesh has none, else "mesh N");
//  - NaN / inf or coordinates beyond kMaxCoordinate are refused naming the file and the mesh.
Status parse_level(std::string_view bytes, std::string_view format, const std::string& path, InputMesh& out,
                   uint64_t max_bytes = uint64_t(1) << 30);

}  // namespace nav
