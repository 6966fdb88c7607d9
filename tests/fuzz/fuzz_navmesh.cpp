// A Detour navmesh file (RecastDemo's MSET or one tile's data) as navbake --navmesh-in and navdebug
// load it: read_detour_tiles, build_navmesh, then a query on what loaded. Seeds in
// corpus/navmesh/ (Detour's own bytes, made by tests/diff/test_diff_detour_read.cpp).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "core/runtime/detour_load.h"
#include "core/runtime/query.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<std::shared_ptr<const nav::NavTile>> tiles;
    const nav::Status s = nav::read_detour_tiles(data, size, "fuzz.bin", tiles);
    if (!s) {
        if (s.code != nav::Status::Code::BadInput || s.message.empty()) std::abort();
        return 0;
    }
    // what the reader accepts never costs more than the file: every array is bounded by its bytes
    size_t floats = 0;
    for (const auto& t : tiles) floats += t->verts.size() + t->detail_tris.size();
    if (floats > 16 * size + 64) std::abort();
    nav::NavMesh mesh;
    if (!nav::build_navmesh(tiles, nullptr, mesh)) return 0;
    nav::NavQuery q;
    q.init(&mesh);
    nav::Rng rng(1);
    nav::RandomPoint a, b;
    if (!q.random_point(nav::QueryFilter{}, rng, a) || !q.random_point(nav::QueryFilter{}, rng, b)) return 0;
    if (a.poly == nav::kNoRef || b.poly == nav::kNoRef) return 0;
    const float ext[3] = {2, 4, 2};
    nav::Route r;
    (void)q.find_route(a.point, b.point, ext, nav::QueryFilter{}, {}, r);
    return 0;
}
