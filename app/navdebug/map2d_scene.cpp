// 2D maps in the debugger; see map2d_scene.h.
#include "map2d_scene.h"

#include "core/bake/input.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/map2d/map2d_tile.h"
#include "core/runtime/detour_load.h"

namespace navdebug {

namespace {

bool ends_with_ci(const std::string& s, const std::string& suffix) {
    if (s.size() < suffix.size()) return false;
    for (size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) return false;
    return true;
}

}  // namespace

bool is_map2d_path(const std::string& path) { return ends_with_ci(path, ".json") || ends_with_ci(path, ".mesh"); }

bool is_detour_path(const std::string& path) { return ends_with_ci(path, ".bin"); }

namespace {

// What a loaded scene (2D map or Detour file) shows as its bake: the input layer, the navmesh,
// nothing of the stages between (built through navmesh, every triangle walkable).
std::shared_ptr<const nav::Bake> loaded_bake(const nav::Params& params, std::shared_ptr<nav::InputMesh> in,
                                             std::shared_ptr<nav::NavMesh> nm) {
    in->compute_bounds();
    auto b = std::make_shared<nav::Bake>();
    b->inputs.params = params;
    b->tri_areas = std::make_shared<const std::vector<uint8_t>>(in->tri_count(), nav::kWalkableArea);
    b->mesh = std::move(in);
    b->navmesh = std::move(nm);
    b->generation = 1;
    b->built_through = static_cast<int>(nav::Stage::Navmesh);
    return b;
}

// A Detour file: the navmesh as loaded, and as the input layer its detail triangles (the surface
// the navmesh stands on; also what frames the camera), every stage before navmesh empty.
nav::Status load_detour_scene(const std::string& path, const nav::Params& params, Map2DScene& out) {
    Map2DScene s;
    s.path = path;
    s.detour = true;
    std::vector<std::shared_ptr<const nav::NavTile>> tiles;
    auto nm = std::make_shared<nav::NavMesh>();
    if (nav::Status st = nav::load_detour_navmesh(path, uint64_t(1) << 30, tiles, *nm); !st) return st;
    auto in = std::make_shared<nav::InputMesh>();
    in->path = path;
    in->verts.assign(nm->dtris.begin(), nm->dtris.end());
    in->tris.resize(nm->dtris.size() / 3);
    for (size_t i = 0; i < in->tris.size(); ++i) in->tris[i] = static_cast<int>(i);
    s.bake = loaded_bake(params, std::move(in), std::move(nm));
    out = std::move(s);
    return nav::Status::ok();
}

}  // namespace

bool json_is_map2d(const std::string& path) {
    // read as every input is (no directory, device or unbounded pipe); a file that cannot be read
    // is not a map, and the config reader then says why
    std::string text;
    if (!nav::read_input_file(path, "JSON file", uint64_t(1) << 30, text)) return false;
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    return j.is_object() && j.contains("outline");
}

nav::Status load_map2d_scene(const std::string& path, const nav::Params& params, Map2DScene& out) {
    if (is_detour_path(path)) return load_detour_scene(path, params, out);
    namespace m2 = nav::map2d;
    Map2DScene s;
    s.path = path;
    s.is_map = ends_with_ci(path, ".json");
    if (s.is_map) {
        if (nav::Status st = m2::load_map2d(path, s.map); !st) return st;
        m2::Map2DOptions opt;
        opt.max_verts = params.i(nav::ParamId::verts_per_poly);
        opt.record = true;
        if (nav::Status st = m2::build_map2d(s.map, opt, s.result); !st)
            return nav::Status{st.code, path + ": " + st.message};
        s.mesh = s.result.mesh;
    } else if (nav::Status st = m2::read_polyanya_mesh(path, s.mesh); !st) {
        return st;
    }
    auto nm = std::make_shared<nav::NavMesh>();
    if (nav::Status st = m2::build_map2d_navmesh(s.mesh, *nm); !st) return nav::Status{st.code, path + ": " + st.message};

    // The input layer: the polygons' fans at y = 0, reversed to the clockwise (in xz) winding whose
    // faces point up, as the runtime's.
    auto in = std::make_shared<nav::InputMesh>();
    in->path = path;
    in->verts.resize(3 * size_t(s.mesh.nverts()));
    for (uint32_t v = 0; v < s.mesh.nverts(); ++v) {
        in->verts[3 * v] = static_cast<float>(s.mesh.xz[2 * v]);
        in->verts[3 * v + 1] = 0.0f;
        in->verts[3 * v + 2] = static_cast<float>(s.mesh.xz[2 * v + 1]);
    }
    for (uint32_t p = 0; p < s.mesh.npolys(); ++p) {
        const uint32_t f = s.mesh.poly_first[p], n = s.mesh.poly_first[p + 1] - f;
        for (uint32_t k = 1; k + 1 < n; ++k) {
            in->tris.push_back(static_cast<int>(s.mesh.poly_verts[f]));
            in->tris.push_back(static_cast<int>(s.mesh.poly_verts[f + k + 1]));
            in->tris.push_back(static_cast<int>(s.mesh.poly_verts[f + k]));
        }
    }
    s.bake = loaded_bake(params, std::move(in), std::move(nm));
    out = std::move(s);
    return nav::Status::ok();
}

std::shared_ptr<const nav::Bake> pruned_scene_bake(const Map2DScene& s, const std::optional<glm::vec3>& point,
                                                   std::shared_ptr<const nav::Bake> last) {
    if (!s.bake || !point) return s.bake;
    const std::array<float, 3> at{point->x, point->y, point->z};
    // the scene's bake made it (same input mesh object) with the same point
    if (last && last->mesh && last->mesh == s.bake->mesh && last->prune.point == at) return last;
    auto b = std::make_shared<nav::Bake>(*s.bake);
    b->navmesh = nav::prune_at(s.bake->navmesh, at, b->prune);
    return b;
}

}  // namespace navdebug
