// The 2D map readers on arbitrary bytes: the first byte picks the JSON map parser
// (core/map2d/map2d.h: outline + obstacles) or the Polyanya .mesh reader (core/map2d/mesh_file.h),
// the second the polygon size (verts_per_poly 3..12). When the input parses, the whole 2D build
// runs (Weiler-Atherton, the CDT, the convex merge, the runtime tile), then one A* + funnel and one
// optimal (Polyanya) path between two points on the navmesh. Any input must end in a Status: no
// exception, no sanitizer report, no runaway allocation (-rss_limit_mb).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/map2d/map2d.h"
#include "core/map2d/map2d_tile.h"
#include "core/runtime/polyanya.h"
#include "core/runtime/query.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    const bool as_json = (data[0] & 1) == 0;
    const int max_verts = 3 + data[1] % 10;
    const std::string text(reinterpret_cast<const char*>(data + 2), size - 2);
    namespace m2 = nav::map2d;
    m2::PolyMesh2D mesh;
    if (as_json) {
        m2::Map2D map;
        if (!m2::parse_map2d_json(text, "fuzz.json", map)) return 0;
        m2::Map2DOptions opt;
        opt.max_verts = max_verts;
        m2::Map2DResult r;
        if (!m2::build_map2d(map, opt, r)) return 0;
        mesh = std::move(r.mesh);
    } else if (!m2::parse_polyanya_mesh(text, "fuzz.mesh", mesh)) {
        return 0;
    }
    nav::NavMesh nm;
    if (!m2::build_map2d_navmesh(mesh, nm)) return 0;
    if (nm.npolys <= 0) return 0;
    nav::NavQuery q;
    q.init(&nm);
    const nav::QueryFilter filter;
    uint64_t seed = 1469598103934665603ull;  // FNV-1a of the input: the same points for the same bytes
    for (size_t i = 0; i < size; ++i) seed = (seed ^ data[i]) * 1099511628211ull;
    nav::Rng rng(seed);
    nav::RandomPoint a, b;
    if (!q.random_point(filter, rng, a) || !q.random_point(filter, rng, b)) return 0;
    if (a.poly == nav::kNoRef || b.poly == nav::kNoRef) return 0;
    const float ext[3] = {2.0f, 4.0f, 2.0f};
    nav::Route route;
    (void)q.find_route(a.point, b.point, ext, filter, nav::StraightPathOptions{}, route);
    nav::PolyanyaMesh pm;
    if (!nav::polyanya_mesh_from_navmesh(nm, pm)) return 0;
    nav::PolyanyaPath path;
    (void)nav::polyanya_find_path(pm, nm.poly_index(a.poly), a.point, nm.poly_index(b.poly), b.point, path);
    return 0;
}
