// Our Detour file reader (core/runtime/detour_read.cpp) against Detour's own data: tiles made by
// dtCreateNavMeshData from Recast's polygon and detail meshes of the shared meshes (solo and
// tiled), added to a dtNavMesh (which writes its links into the data, as RecastDemo's save then
// stores them), saved as RecastDemo's MSET file (tile references from getTileRef), read back by
// read_detour_tiles and stitched by build_navmesh. The loaded mesh must have Detour's polygons
// and vertices, and NavQuery on it must answer random route queries as Detour does on the same data.
// Also the tiny hand-made mesh whose MSET and single tile are the fuzz seed corpus
// (tests/fuzz/corpus/navmesh/) and the corrupt-file unit tests' input.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "core/runtime/detour_format.h"
#include "core/runtime/detour_load.h"
#include "diff/detour_mset.h"
#include "diff/detour_ref.h"
#include "diff/detour_tiled.h"
#include "diff/recast_ref.h"
#include "test_scenes.h"

namespace {

using navdiff::save_mset;

struct Loaded {
    std::vector<std::shared_ptr<const nav::NavTile>> tiles;
    nav::NavMesh mesh;
};

void load(const std::vector<uint8_t>& bytes, Loaded& l) {
    const nav::Status s = nav::read_detour_tiles(bytes.data(), bytes.size(), "test.bin", l.tiles);
    REQUIRE_MESSAGE(s.is_ok(), s.message);
    const nav::Status b = nav::build_navmesh(l.tiles, nullptr, l.mesh);
    REQUIRE_MESSAGE(b.is_ok(), b.message);
}

// Same polygons and vertices as Detour's tiles, in file order (the MSET lists tiles by index).
void check_same_geometry(const dtNavMesh& dt, const Loaded& l) {
    size_t i = 0;
    int ground = 0;
    for (int ti = 0; ti < dt.getMaxTiles(); ++ti) {
        const dtMeshTile* t = dt.getTile(ti);
        if (!t || !t->header || !t->dataSize) continue;
        REQUIRE(i < l.tiles.size());
        const nav::NavTile& ours = *l.tiles[i++];
        const dtMeshHeader& h = *t->header;
        const int np = h.polyCount - h.offMeshConCount, nv = h.vertCount - 2 * h.offMeshConCount;
        ground += np;
        CHECK(ours.npolys() == np);
        CHECK(ours.nverts() == nv);
        CHECK(ours.x == h.x);
        CHECK(ours.z == h.y);
        CHECK(static_cast<int>(ours.links.size()) == h.offMeshConCount);
        CHECK(std::memcmp(ours.verts.data(), t->verts, sizeof(float) * 3 * static_cast<size_t>(nv)) == 0);
        for (int p = 0; p < np && p < ours.npolys(); ++p) {
            const dtPoly& dp = t->polys[p];
            REQUIRE(ours.poly_vert_count(static_cast<uint32_t>(p)) == dp.vertCount);
            for (int j = 0; j < dp.vertCount; ++j)
                CHECK(ours.edge_vert[ours.poly_first[static_cast<size_t>(p)] + static_cast<size_t>(j)] == dp.verts[j]);
            CHECK(ours.areas[static_cast<size_t>(p)] == dp.getArea());
            CHECK(ours.flags[static_cast<size_t>(p)] == dp.flags);
            CHECK(ours.detail_first[static_cast<size_t>(p) + 1] - ours.detail_first[static_cast<size_t>(p)] ==
                  t->detailMeshes[p].triCount);
        }
    }
    CHECK(i == l.tiles.size());
    CHECK(l.mesh.npolys == ground);
}

// Route queries on Detour (on the saved bytes) and on our loaded mesh. Our A* is not Detour's (it
// costs portal midpoints its own way, tests/diff/test_diff_paths.cpp), so the two may pick other
// corridors; the reader is right when the verdicts agree and, wherever both took the same
// corridor (the same polygons of the same tiles), the funnel gives the same length (1e-3 relative).
struct PathAgreement {
    int compared = 0, verdict_differs = 0, both_reached = 0, same_corridor = 0, length_differs = 0;
    double worst_rel = 0;
};

PathAgreement compare_paths(navdiff::DetourMesh& dt, const nav::NavMesh& ours, int pairs) {
    nav::NavQuery q;
    q.init(&ours, navdiff::kDetourNodes * 4);
    std::vector<float> pts;
    REQUIRE(navdiff::make_pairs(q, 20261128, pairs, pts));
    navdiff::DetourRoutes dr(dt);
    PathAgreement g;
    for (int i = 0; i < pairs; ++i) {
        const float* s = &pts[static_cast<size_t>(i) * 6];
        const float* e = s + 3;
        nav::Route r;
        const nav::Status st = q.find_route(s, e, navdiff::kHalfExtents, nav::QueryFilter{}, {}, r);
        navdiff::RouteOutcome a, b;
        navdiff::our_outcome(st, r, a);
        dr.route(s, e, &b);
        REQUIRE(a.ok);
        REQUIRE(b.ok);
        if (!a.start_found || !a.end_found || !b.start_found || !b.end_found) continue;
        ++g.compared;
        if (a.reached != b.reached) {
            ++g.verdict_differs;
            continue;
        }
        if (!a.reached) continue;
        ++g.both_reached;
        if (a.corridor != b.corridor) continue;
        bool same = true;
        for (int k = 0; k < a.corridor && same; ++k) {
            const nav::PolyRef our_ref = r.path.polys[static_cast<size_t>(k)];
            const nav::NavTile& ot = *ours.slots[nav::ref_slot(our_ref)].tile;
            unsigned int salt = 0, it = 0, ip = 0;
            dt.mesh->decodePolyId(dr.last_refs()[k], salt, it, ip);
            const dtMeshHeader& h = *static_cast<const dtNavMesh*>(dt.mesh)->getTile(static_cast<int>(it))->header;
            same = ot.x == h.x && ot.z == h.y && nav::ref_poly(our_ref) == ip;
        }
        if (!same) continue;
        ++g.same_corridor;
        const double rel = std::fabs(a.length - b.length) / std::max(1e-3, static_cast<double>(b.length));
        g.worst_rel = std::max(g.worst_rel, rel);
        g.length_differs += rel > 1e-3;
        if (rel > 1e-3)
            std::printf("  differs: %g %g %g -> %g %g %g: ours %.4f m (%d corners, corridor %d), Detour %.4f m (%d corners); nearest ours %g %g %g / %g %g %g, Detour %g %g %g / %g %g %g\n",
                        s[0], s[1], s[2], e[0], e[1], e[2], a.length, a.corners, a.corridor, b.length, b.corners,
                        a.start[0], a.start[1], a.start[2], a.end[0], a.end[1], a.end[2], b.start[0], b.start[1], b.start[2], b.end[0], b.end[1], b.end[2]);
    }
    return g;
}

// Detour's navmesh back out of an MSET (as RecastDemo's loadAll), for queries on the very bytes.
void load_into_detour(const std::vector<uint8_t>& mset, navdiff::DetourMesh& dt) {
    dt.release();
    dtNavMeshParams p;
    std::memcpy(&p, &mset[12], sizeof p);
    dt.mesh = dtAllocNavMesh();
    REQUIRE(dtStatusSucceed(dt.mesh->init(&p)));
    int32_t n = 0;
    std::memcpy(&n, &mset[8], 4);
    size_t at = 12 + sizeof p;
    for (int i = 0; i < n; ++i) {
        uint32_t ref = 0;
        int32_t size = 0;
        std::memcpy(&ref, &mset[at], 4);
        std::memcpy(&size, &mset[at + 4], 4);
        at += 8;
        auto* data = static_cast<unsigned char*>(dtAlloc(static_cast<size_t>(size), DT_ALLOC_PERM));
        std::memcpy(data, &mset[at], static_cast<size_t>(size));
        at += static_cast<size_t>(size);
        REQUIRE(dtStatusSucceed(dt.mesh->addTile(data, size, DT_TILE_FREE_DATA, ref, nullptr)));
    }
    dt.query = dtAllocNavMeshQuery();
    REQUIRE(dtStatusSucceed(dt.query->init(dt.mesh, navdiff::kDetourNodes)));
}

void diff_read(navdiff::DetourMesh& built, const std::string& what, bool tiled) {
    const std::vector<uint8_t> mset = save_mset(*built.mesh);
    if (const char* dir = std::getenv("NAVKIT_WRITE_DETOUR_MSETS")) {  // the files, for navbake / navdebug by hand
        std::string name = what;
        for (char& ch : name)
            if (ch == ' ' || ch == '.') ch = '_';
        std::ofstream f(std::string(dir) + "/" + name + ".bin", std::ios::binary);
        f.write(reinterpret_cast<const char*>(mset.data()), static_cast<std::streamsize>(mset.size()));
    }
    Loaded l;
    load(mset, l);
    check_same_geometry(*built.mesh, l);
    navdiff::DetourMesh dt;  // Detour on the saved bytes, as a game would load them
    load_into_detour(mset, dt);
    constexpr int kPairs = 1000;
    const PathAgreement g = compare_paths(dt, l.mesh, kPairs);
    std::printf("detour read %s: %zu bytes, %d tiles, %d polygons, %d islands; %d pairs compared, verdicts differ on %d, both reach %d; "
                "%d on the same corridor, %d of them > 1e-3 apart in length (worst %.2e relative)\n",
                what.c_str(), mset.size(), l.mesh.ntiles, l.mesh.npolys, l.mesh.nislands, g.compared, g.verdict_differs, g.both_reached,
                g.same_corridor, g.length_differs, g.worst_rel);
    CHECK(g.compared >= kPairs * 9 / 10);
    CHECK(g.verdict_differs <= g.compared / 100);   // test_diff_paths' same-mesh tolerance: 99%
    CHECK(g.same_corridor >= g.both_reached / 2);
    // Solo, the same corridor gives the same funnel to rounding. Tiled, a few pairs (3 of 1823 over
    // the three meshes, measured) take the same polygons yet our straight path has one corner more
    // (dungeon, 22.55,15.34,-64.60 -> 22.98,17.05,-80.59: ours reaches the vertex 15 cm from the
    // end, turns back out to 24.48,15.20,-75.64, then ends; Detour's goes on to the end): our funnel
    // on a corridor through four tiles, not the reader (the geometry is Detour's to the bit:
    // check_same_geometry). Listed above as "differs".
    if (tiled) CHECK(g.length_differs <= g.same_corridor / 200);
    else CHECK(g.length_differs == 0);
}

void diff_read_solo(const char* file) {
    const std::string path = navtest::shared_mesh_or_skip(file);
    if (path.empty()) return;
    nav::InputMesh mesh;
    const nav::Status ls = navdiff::load_mesh(path, mesh);
    REQUIRE_MESSAGE(ls.is_ok(), ls.message);
    const nav::BakeConfig cfg = nav::derive_config(nav::Params{}, mesh.bmin, mesh.bmax);
    navdiff::RecastVoxels rv;
    const auto part = static_cast<int>(nav::Partition::Watershed);
    const navdiff::VoxelRun r = navdiff::run_recast(mesh, cfg, rv, navdiff::partition_bit(nav::Partition::Watershed));
    REQUIRE_MESSAGE(r.ok, r.error);
    navdiff::DetourMesh dt;
    std::string err;
    REQUIRE_MESSAGE(navdiff::build_detour(*rv.pmesh[part], *rv.dmesh[part], cfg, dt, err), err);
    diff_read(dt, std::string(file) + " solo", false);
}

void diff_read_tiled(const char* file, int tile_size) {
    const std::string path = navtest::shared_mesh_or_skip(file);
    if (path.empty()) return;
    nav::Pipeline pipe;
    REQUIRE(pipe.load_mesh(path));
    REQUIRE(pipe.set_param(nav::ParamId::tile_size, tile_size));
    REQUIRE(pipe.run());
    const auto bake = pipe.snapshot();
    navdiff::DetourMesh dt;
    std::string err;
    int tiles = 0;
    REQUIRE_MESSAGE(navdiff::build_detour_tiled(*bake->mesh, bake->config, nav::Partition::Watershed, dt, tiles, err), err);
    REQUIRE(tiles > 1);
    diff_read(dt, std::string(file) + " tiled " + std::to_string(tile_size), true);
}

// ---- the tiny mesh of the seed corpus ----------------------------------------------------------

// Two tiles side by side (x), each two quads, 5 m x 10 m a tile; tile 0 with a detail mesh (a
// raised centre vertex per polygon) and an off-mesh connection, tile 1 without (Detour's fan).
bool make_tiny_tile(int tx, std::vector<uint8_t>& out) {
    const float cs = 0.5f, ch = 0.2f;
    const uint16_t verts[] = {0, 0, 0, 0, 0, 20, 10, 0, 20, 10, 0, 0, 20, 0, 20, 20, 0, 0};
    const uint16_t x_minus = tx == 0 ? 0x800f : 0x8000, x_plus = tx == 0 ? 0x8002 : 0x800f;
    const uint16_t polys[] = {0, 1, 2, 3, 0xffff, 0xffff, x_minus, 0x800f, 1, 0x800f, 0xffff, 0xffff,
                              3, 2, 4, 5, 0xffff, 0xffff, 0, 0x800f, x_plus, 0x800f, 0xffff, 0xffff};
    const uint16_t flags[] = {1, 1};
    const uint8_t areas[] = {0, 7};
    const float x0 = static_cast<float>(tx) * 10.0f;
    // detail: the polygon's 4 vertices (world), then its centre 10 cm up; 4 triangles round it
    const float dverts[] = {x0, 0, 0, x0, 0, 10, x0 + 5, 0, 10, x0 + 5, 0, 0, x0 + 2.5f, 0.1f, 5,
                            x0 + 5, 0, 0, x0 + 5, 0, 10, x0 + 10, 0, 10, x0 + 10, 0, 0, x0 + 7.5f, 0.1f, 5};
    const uint32_t dmeshes[] = {0, 5, 0, 4, 5, 5, 4, 4};
    const uint8_t dtris[] = {0, 1, 4, 0, 1, 2, 4, 0, 2, 3, 4, 0, 3, 0, 4, 0, 0, 1, 4, 0, 1, 2, 4, 0, 2, 3, 4, 0, 3, 0, 4, 0};
    const float om_verts[] = {x0 + 1, 0, 1, x0 + 8, 0, 8};
    const float om_rad[] = {0.5f};
    const uint16_t om_flags[] = {1};
    const uint8_t om_areas[] = {5};
    const uint8_t om_dir[] = {DT_OFFMESH_CON_BIDIR};
    const unsigned int om_user[] = {42};
    dtNavMeshCreateParams p{};
    p.verts = verts, p.vertCount = 6, p.polys = polys, p.polyFlags = flags, p.polyAreas = areas, p.polyCount = 2, p.nvp = 6;
    if (tx == 0) {
        p.detailMeshes = dmeshes, p.detailVerts = dverts, p.detailVertsCount = 10, p.detailTris = dtris, p.detailTriCount = 8;
        p.offMeshConVerts = om_verts, p.offMeshConRad = om_rad, p.offMeshConFlags = om_flags, p.offMeshConAreas = om_areas;
        p.offMeshConDir = om_dir, p.offMeshConUserID = om_user, p.offMeshConCount = 1;
    }
    p.walkableHeight = 2.0f, p.walkableRadius = 0.6f, p.walkableClimb = 0.9f;
    p.tileX = tx, p.tileY = 0;
    p.bmin[0] = x0, p.bmin[1] = 0, p.bmin[2] = 0;
    p.bmax[0] = x0 + 10, p.bmax[1] = 1, p.bmax[2] = 10;
    p.cs = cs, p.ch = ch;
    p.buildBvTree = true;
    unsigned char* data = nullptr;
    int size = 0;
    if (!dtCreateNavMeshData(&p, &data, &size)) return false;
    out.assign(data, data + size);
    dtFree(data);
    return true;
}

// The committed corpus file `name` holds `bytes`; with NAVKIT_WRITE_DETOUR_CORPUS=DIR set, writes it there.
void check_corpus(const char* name, const std::vector<uint8_t>& bytes) {
    if (const char* dir = std::getenv("NAVKIT_WRITE_DETOUR_CORPUS")) {
        std::ofstream f(std::string(dir) + "/" + name, std::ios::binary);
        f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        REQUIRE(f.good());
    }
    std::ifstream f(std::string(NAV_SOURCE_DIR) + "/tests/fuzz/corpus/navmesh/" + name, std::ios::binary);
    REQUIRE_MESSAGE(f.good(), "tests/fuzz/corpus/navmesh/" << name << " missing");
    const std::vector<uint8_t> stored((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    CHECK_MESSAGE(stored == bytes, name << " differs from what Detour makes now (regenerate with NAVKIT_WRITE_DETOUR_CORPUS)");
}

}  // namespace

TEST_CASE("detour read: the tiny two-tile mesh, MSET and single tile, is Detour's (the fuzz seeds)") {
    navdiff::DetourMesh dt;
    dtNavMeshParams np{};
    np.tileWidth = np.tileHeight = 10.0f;
    np.maxTiles = 4;
    np.maxPolys = 16;
    dt.mesh = dtAllocNavMesh();
    REQUIRE(dtStatusSucceed(dt.mesh->init(&np)));
    std::vector<uint8_t> tile_bytes[2];
    for (int tx = 0; tx < 2; ++tx) {
        REQUIRE(make_tiny_tile(tx, tile_bytes[tx]));
        auto* data = static_cast<unsigned char*>(dtAlloc(tile_bytes[tx].size(), DT_ALLOC_PERM));
        std::memcpy(data, tile_bytes[tx].data(), tile_bytes[tx].size());
        REQUIRE(dtStatusSucceed(dt.mesh->addTile(data, static_cast<int>(tile_bytes[tx].size()), DT_TILE_FREE_DATA, 0, nullptr)));
    }
    const std::vector<uint8_t> mset = save_mset(*dt.mesh);
    check_corpus("tiny.mset", mset);
    check_corpus("tiny_tile.bin", tile_bytes[0]);

    Loaded l;
    load(mset, l);
    check_same_geometry(*dt.mesh, l);
    CHECK(l.mesh.ntiles == 2);
    CHECK(l.mesh.npolys == 4);
    CHECK(l.mesh.nislands == 1);  // the portal between the tiles is stitched
    REQUIRE(l.tiles[0]->links.size() == 1);
    const nav::OffMeshLink& link = l.tiles[0]->links[0];
    CHECK(link.start[0] == 1.0f);
    CHECK(link.end[2] == 8.0f);
    CHECK(link.radius == 0.5f);
    CHECK(link.area == 5);
    CHECK(link.flags == 1);
    CHECK(link.bidir);
    CHECK(l.tiles[0]->areas[1] == 7);
    CHECK(l.tiles[0]->walkable_climb == 0.9f);
    CHECK(l.tiles[0]->edge_nei[l.tiles[0]->poly_first[1] + 2] == (nav::kTilePortal | 2));  // Detour dir 0 (+x): our side 2
    CHECK(l.tiles[1]->edge_nei[0] == (nav::kTilePortal | 0));                             // Detour dir 4 (-x): our side 0
    // heights come from the detail mesh: the raised centre of tile 0's polygon 0
    float y = -1;
    CHECK(l.mesh.poly_height(0, 2.5f, 5.0f, &y));
    CHECK(y == doctest::Approx(0.1f));
    // one tile alone
    Loaded one;
    load(tile_bytes[0], one);
    CHECK(one.mesh.ntiles == 1);
    CHECK(one.mesh.npolys == 2);
    // a route across the tile border, as Detour answers it
    dt.query = dtAllocNavMeshQuery();
    REQUIRE(dtStatusSucceed(dt.query->init(dt.mesh, 64)));
    nav::NavQuery q;
    q.init(&l.mesh);
    const float s[3] = {1, 0, 1}, e[3] = {19, 0, 9};
    nav::Route r;
    REQUIRE(q.find_route(s, e, navdiff::kHalfExtents, nav::QueryFilter{}, {}, r).is_ok());
    navdiff::RouteOutcome a, b;
    navdiff::our_outcome(nav::Status::ok(), r, a);
    navdiff::DetourRoutes dr(dt);
    dr.route(s, e, &b);
    CHECK(a.reached);
    CHECK(b.reached);
    CHECK(a.length == doctest::Approx(b.length).epsilon(1e-4));
}

TEST_CASE("detour read: dungeon solo, Detour's tile read back") { diff_read_solo("dungeon.obj"); }
TEST_CASE("detour read: nav_test solo, Detour's tile read back") { diff_read_solo("nav_test.obj"); }
TEST_CASE("detour read: undulating solo, Detour's tile read back") { diff_read_solo("undulating.obj"); }
TEST_CASE("detour read: dungeon tiled 32, Detour's tiles read back") { diff_read_tiled("dungeon.obj", 32); }
TEST_CASE("detour read: nav_test tiled 32, Detour's tiles read back") { diff_read_tiled("nav_test.obj", 32); }
TEST_CASE("detour read: undulating tiled 64, Detour's tiles read back") { diff_read_tiled("undulating.obj", 64); }
