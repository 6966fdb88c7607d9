// 2D maps in the debugger: a `.json` 2D map (outline + obstacles, core/map2d/map2d.h) or a
// Polyanya `.mesh` file, loaded and built as navbake's run_map2d does, with every trace recorded
// (Weiler-Atherton, CDT), and dressed as a finished Bake (an InputMesh of the free space's
// triangles at y = 0 and the navmesh) so the navmesh, islands and path layers and the path tool
// work on it unchanged. No bake worker runs for it: the pipeline's stages before navmesh are empty.
#pragma once
#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <string>

#include "core/pipeline/pipeline.h"
#include "core/common.h"
#include "core/map2d/map2d.h"

namespace navdebug {

// A Detour navmesh file (.bin: RecastDemo's MSET or one tile) rides the same way: loaded, not
// baked (detour set, `mesh` empty, the input layer is the navmesh's own detail triangles).
struct Map2DScene {
    std::string path;
    bool is_map = false;  // a .json map (traces and rings below); false: a .mesh file (mesh only)
    bool detour = false;  // a Detour navmesh file (.bin): bake->navmesh only, in 3D
    nav::map2d::Map2D map;
    nav::map2d::Map2DResult result;  // recorded traces, the free rings, the CDT (is_map only)
    nav::map2d::PolyMesh2D mesh;     // the polygons the navmesh is built from
    std::shared_ptr<const nav::Bake> bake;  // mesh (free-space triangles), tri_areas, navmesh (never pruned)
};

// The scene's bake with the Islands prune at `point`, made as the pipeline makes its own
// (nav::prune_at on the scene's unpruned navmesh, the outcome in Bake::prune): the scene's bake
// itself without a point, else a copy sharing everything but the navmesh. `last` (this function's
// previous result, may be null) is returned when it is already the scene's bake with that point.
std::shared_ptr<const nav::Bake> pruned_scene_bake(const Map2DScene& s, const std::optional<glm::vec3>& point,
                                                   std::shared_ptr<const nav::Bake> last);

// True for the file names the debugger opens as 2D maps: *.json maps and *.mesh files (any case).
bool is_map2d_path(const std::string& path);
// True for Detour navmesh files (*.bin, any case): opened as a finished navmesh, no bake stages.
bool is_detour_path(const std::string& path);
// What the debugger opens without a bake: 2D maps, .mesh files and Detour navmeshes.
inline bool opens_without_bake(const std::string& path) { return is_map2d_path(path) || is_detour_path(path); }
// A dropped .json is a 2D map when it is an object with an "outline" key (else a config).
bool json_is_map2d(const std::string& path);

// Loads and builds (a Detour file: load_detour_navmesh); `max_verts` as navbake's verts_per_poly. Errors name the file (BadInput for
// anything in the file).
nav::Status load_map2d_scene(const std::string& path, const nav::Params& params, Map2DScene& out);

}  // namespace navdebug
