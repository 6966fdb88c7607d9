// Stage 11: building the runtime navmesh from hand-made polygon meshes (Recast's conventions):
// world coordinates, portal pairing, flags, islands, detail heights, the BV tree, landmarks, and
// rejection of inconsistent input.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/bake/detail.h"
#include "core/pipeline/tile_builder.h"
#include "core/runtime/navmesh.h"
#include "core/bake/polymesh.h"
#include "poly_loops.h"

using navtest::Loops;
using navtest::strip;

namespace {

bool box_contains(const nav::BVNode& outer, const nav::BVNode& inner) {
    for (int k = 0; k < 3; ++k)
        if (inner.bmin[k] < outer.bmin[k] || inner.bmax[k] > outer.bmax[k]) return false;
    return true;
}

}  // namespace

TEST_CASE("navmesh: world coordinates, edge slots and portal pairing") {
    Loops L = strip(3);
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    L.build(pm, dm);
    nav::NavMesh nm;
    REQUIRE(nav::build_navmesh(pm, dm, nm).is_ok());
    CHECK(nm.npolys == 3);
    CHECK(nm.nverts == 8);
    CHECK(nm.nedges == 12);
    // vertex 2 is (2, 0, 0) in voxels: world x = 10 + 2 * 0.5, y = -2, z = 20.
    CHECK(nm.vert(2)[0] == doctest::Approx(11.0f));
    CHECK(nm.vert(2)[1] == doctest::Approx(-2.0f));
    CHECK(nm.vert(2)[2] == doctest::Approx(20.0f));
    for (uint32_t e = 0; e < static_cast<uint32_t>(nm.nedges); ++e) {
        const uint32_t q = nm.edge_nei[e];
        if (q == nav::kNoPoly) {
            CHECK(nm.edge_opp[e] == nav::kNoEdge);
            continue;
        }
        const uint32_t o = nm.edge_opp[e];
        REQUIRE(o != nav::kNoEdge);
        CHECK(nm.edge_poly[o] == q);
        CHECK(nm.edge_opp[o] == e);
        CHECK(nm.edge_nei[o] == nm.edge_poly[e]);
        // Same portal seen from both sides: endpoints swapped, same midpoint.
        float l0[3], r0[3], l1[3], r1[3];
        nm.edge_points(e, l0, r0);
        nm.edge_points(o, l1, r1);
        for (int k = 0; k < 3; ++k) {
            CHECK(l0[k] == r1[k]);
            CHECK(r0[k] == l1[k]);
            CHECK(nm.edge_mid[e * 3 + static_cast<uint32_t>(k)] == doctest::Approx((l0[k] + r0[k]) * 0.5f));
        }
    }
    CHECK(nm.find_edge(0, 1) != nav::kNoEdge);
    CHECK(nm.find_edge(0, 2) == nav::kNoEdge);
    CHECK(nm.find_edge(1, 0) == nm.edge_opp[nm.find_edge(0, 1)]);
    // Polygon 1 (middle) has 2 portals, the ends are dead ends.
    CHECK(nm.poly_portals[0] == 1);
    CHECK(nm.poly_portals[1] == 2);
    CHECK(nm.poly_portals[2] == 1);
    // Areas: 1 x 1 m squares.
    CHECK(nm.poly_area_cum[2] == doctest::Approx(3.0f));
}

TEST_CASE("navmesh: flags, areas and islands") {
    Loops L = strip(2, 3);
    L.flags[1] = 0x0004;
    L.areas[2] = nav::kAreaWater;
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    L.build(pm, dm);
    nav::NavMesh nm;
    REQUIRE(nav::build_navmesh(pm, dm, nm).is_ok());
    CHECK(nm.flags[0] == nav::kPolyFlagDefault);  // 0 from the bake -> default
    CHECK(nm.flags[1] == 0x0004);                 // user flags kept
    CHECK(nm.areas[2] == nav::kAreaWater);
    REQUIRE(nm.nislands == 2);
    CHECK(nm.poly_island[0] == nm.poly_island[1]);
    CHECK(nm.poly_island[2] == nm.poly_island[3]);
    CHECK(nm.poly_island[3] == nm.poly_island[4]);
    CHECK(nm.poly_island[0] != nm.poly_island[2]);
    // The islands list exactly their portal slots.
    for (int i = 0; i < nm.nislands; ++i)
        for (uint32_t k = nm.island_first[static_cast<size_t>(i)]; k < nm.island_first[static_cast<size_t>(i) + 1]; ++k) {
            const uint32_t e = nm.island_portals[k];
            CHECK(nm.edge_opp[e] != nav::kNoEdge);
            CHECK(nm.poly_island[nm.edge_poly[e]] == static_cast<uint32_t>(i));
        }
    CHECK(nm.island_portals.size() == 2 + 4);
}

TEST_CASE("navmesh: tile-border portals are walls with one tile") {
    Loops L = strip(2);
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    L.build(pm, dm);
    // Polygon 0, edge 0 (the -x side) marked as a tile-border portal (tiles: border_size > 0).
    pm.polys[static_cast<size_t>(pm.nvp) + 0] = 0x8000 | 0;
    pm.border_size = 3;
    nav::NavMesh nm;
    REQUIRE(nav::build_navmesh(pm, dm, nm).is_ok());
    CHECK(nm.edge_nei[0] == nav::kNoPoly);
    CHECK(nm.poly_portals[0] == 1);
}

TEST_CASE("navmesh: detail heights") {
    // One 2 x 2 m square at y 0 whose detail mesh lifts the centre to 1 m.
    Loops L;
    const int a = L.v(0, 0, 0), b = L.v(0, 0, 4), c = L.v(4, 0, 4), d = L.v(4, 0, 0);
    L.poly({a, b, c, d});
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    L.build(pm, dm, 0.5f, 0.25f);
    // Replace the fan by four triangles around a raised centre vertex (local index 4).
    dm.verts.insert(dm.verts.end(), {pm.bmin[0] + 1.0f, pm.bmin[1] + 1.0f, pm.bmin[2] + 1.0f});
    dm.tris = {0, 1, 4, 0, 1, 2, 4, 0, 2, 3, 4, 0, 3, 0, 4, 0};
    dm.meshes = {0, 5, 0, 4};
    dm.nverts = 5;
    dm.ntris = 4;
    nav::NavMesh nm;
    REQUIRE(nav::build_navmesh(pm, dm, nm).is_ok());
    float y = 0;
    CHECK(nm.poly_height(0, pm.bmin[0] + 1.0f, pm.bmin[2] + 1.0f, &y));
    CHECK(y == doctest::Approx(pm.bmin[1] + 1.0f));
    CHECK(nm.poly_height(0, pm.bmin[0] + 0.5f, pm.bmin[2] + 1.0f, &y));
    CHECK(y == doctest::Approx(pm.bmin[1] + 0.5f));
    // Outside the polygon: false, with the height of the nearest detail edge point.
    CHECK_FALSE(nm.poly_height(0, pm.bmin[0] - 1.0f, pm.bmin[2] + 1.0f, &y));
    CHECK(y == doctest::Approx(pm.bmin[1]));
    // The polygon's y bounds include the detail mesh.
    CHECK(nm.poly_bounds[4] == doctest::Approx(pm.bmin[1] + 1.0f));

    // Without a detail mesh the polygon's own fan gives the heights.
    nav::PolyMeshDetail none;
    REQUIRE(nav::build_navmesh(pm, none, nm).is_ok());
    CHECK(nm.poly_height(0, pm.bmin[0] + 1.0f, pm.bmin[2] + 1.0f, &y));
    CHECK(y == doctest::Approx(pm.bmin[1]));
}

TEST_CASE("navmesh: the BV tree holds every polygon once, nested bounds") {
    // A 6 x 5 grid of squares with random heights.
    Loops L;
    const int W = 6, H = 5;
    std::vector<int> id((W + 1) * (H + 1));
    for (int z = 0; z <= H; ++z)
        for (int x = 0; x <= W; ++x) id[static_cast<size_t>(z * (W + 1) + x)] = L.v(2 * x, (x * 7 + z * 3) % 5, 2 * z);
    for (int z = 0; z < H; ++z)
        for (int x = 0; x < W; ++x) {
            auto at = [&](int i, int k) { return id[static_cast<size_t>(k * (W + 1) + i)]; };
            L.poly({at(x, z), at(x, z + 1), at(x + 1, z + 1), at(x + 1, z)});
        }
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    L.build(pm, dm);
    nav::NavMesh nm;
    REQUIRE(nav::build_navmesh(pm, dm, nm).is_ok());
    REQUIRE(nm.bvtree.size() == static_cast<size_t>(2 * nm.npolys - 1));
    std::vector<int> seen(static_cast<size_t>(nm.npolys), 0);
    // Walk the pre-order array: an interior node's subtree is the next -index nodes.
    for (size_t i = 0; i < nm.bvtree.size(); ++i) {
        const nav::BVNode& n = nm.bvtree[i];
        if (n.index >= 0) {
            ++seen[static_cast<size_t>(n.index)];
            const float* b = &nm.poly_bounds[static_cast<size_t>(n.index) * 6];
            for (int k = 0; k < 3; ++k) {
                CHECK(n.bmin[k] == b[k]);
                CHECK(n.bmax[k] == b[3 + k]);
            }
            continue;
        }
        const size_t end = i + static_cast<size_t>(-n.index);
        REQUIRE(end <= nm.bvtree.size());
        for (size_t j = i + 1; j < end; ++j) CHECK(box_contains(n, nm.bvtree[j]));
    }
    for (int s : seen) CHECK(s == 1);
}

TEST_CASE("navmesh: landmark distances are a metric on portals") {
    Loops L;
    const int W = 7, H = 4;
    std::vector<int> id((W + 1) * (H + 1));
    for (int z = 0; z <= H; ++z)
        for (int x = 0; x <= W; ++x) id[static_cast<size_t>(z * (W + 1) + x)] = L.v(2 * x, 0, 2 * z);
    for (int z = 0; z < H; ++z)
        for (int x = 0; x < W; ++x) {
            auto at = [&](int i, int k) { return id[static_cast<size_t>(k * (W + 1) + i)]; };
            L.poly({at(x, z), at(x, z + 1), at(x + 1, z + 1), at(x + 1, z)});
        }
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    L.build(pm, dm);
    nav::NavMesh nm;
    REQUIRE(nav::build_navmesh(pm, dm, nm).is_ok());
    REQUIRE(nm.nislands == 1);
    const int nl = nm.landmarks()->count[0];
    CHECK(nl == nav::NavMesh::kLandmarks);
    constexpr int K = nav::NavMesh::kLandmarks;
    for (uint32_t e = 0; e < static_cast<uint32_t>(nm.nedges); ++e) {
        const float* de = &nm.landmarks()->dist[static_cast<size_t>(e) * K];
        if (nm.edge_opp[e] == nav::kNoEdge) {
            for (int k = 0; k < K; ++k) CHECK(de[k] == 0.0f);
            continue;
        }
        const float* dopp = &nm.landmarks()->dist[static_cast<size_t>(nm.edge_opp[e]) * K];
        for (int k = 0; k < K; ++k) CHECK(de[k] == dopp[k]);
        // 1-Lipschitz along every move through a polygon: |d(L, e) - d(L, f)| <= |mid e - mid f|.
        const uint32_t p = nm.edge_poly[e];
        for (uint32_t f = nm.poly_first[p]; f < nm.poly_first[p + 1]; ++f) {
            if (f == e || nm.edge_opp[f] == nav::kNoEdge) continue;
            const float* df = &nm.landmarks()->dist[static_cast<size_t>(f) * K];
            const float step = std::hypot(nm.edge_mid[e * 3] - nm.edge_mid[f * 3], nm.edge_mid[e * 3 + 2] - nm.edge_mid[f * 3 + 2]);
            for (int k = 0; k < nl; ++k) CHECK(std::fabs(de[k] - df[k]) <= step + 1e-4f);
        }
    }
    // Each landmark is at distance 0 from itself: some slot has 0 in every used column.
    for (int k = 0; k < nl; ++k) {
        float mn = std::numeric_limits<float>::max();
        for (uint32_t e = 0; e < static_cast<uint32_t>(nm.nedges); ++e)
            if (nm.edge_opp[e] != nav::kNoEdge) mn = std::min(mn, nm.landmarks()->dist[static_cast<size_t>(e) * K + static_cast<size_t>(k)]);
        CHECK(mn == 0.0f);
    }
}

TEST_CASE("navmesh: buffers are reused without stale data") {
    nav::NavMesh nm;
    {
        Loops L = strip(6, 4);
        nav::PolyMesh pm;
        nav::PolyMeshDetail dm;
        L.build(pm, dm);
        REQUIRE(nav::build_navmesh(pm, dm, nm).is_ok());
        CHECK(nm.npolys == 10);
    }
    Loops L = strip(2);
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    L.build(pm, dm);
    REQUIRE(nav::build_navmesh(pm, dm, nm).is_ok());
    CHECK(nm.npolys == 2);
    CHECK(nm.nislands == 1);
    CHECK(nm.poly_first.size() == 3);
    CHECK(nm.edge_vert.size() == 8);
    CHECK(nm.bvtree.size() == 3);
    CHECK(nm.areas.size() == 2);
    CHECK(nm.dtri_first.back() == 4);
    CHECK(nm.landmarks()->dist.size() == 8 * static_cast<size_t>(nav::NavMesh::kLandmarks));

    // An empty polygon mesh gives an empty navmesh.
    nav::PolyMesh empty;
    nav::PolyMeshDetail none;
    REQUIRE(nav::build_navmesh(empty, none, nm).is_ok());
    CHECK(nm.empty());
    CHECK(nm.bvtree.empty());
}

TEST_CASE("navmesh: inconsistent input is rejected") {
    Loops L = strip(2);
    nav::PolyMesh pm;
    nav::PolyMeshDetail dm;
    nav::NavMesh nm;
    auto fresh = [&] { L.build(pm, dm); };

    fresh();
    pm.polys[1] = 99;  // vertex index out of range
    CHECK(nav::build_navmesh(pm, dm, nm).code == nav::Status::Code::BadInput);

    fresh();
    pm.polys[static_cast<size_t>(pm.nvp) + 2] = 7;  // neighbour out of range
    CHECK(nav::build_navmesh(pm, dm, nm).code == nav::Status::Code::BadInput);

    fresh();
    // Asymmetric adjacency: polygon 1 no longer lists polygon 0.
    uint16_t* p1 = &pm.polys[2 * static_cast<size_t>(pm.nvp)];
    for (int j = 0; j < pm.nvp; ++j)
        if (p1[pm.nvp + j] == 0) p1[pm.nvp + j] = nav::kMeshNullIdx;
    const nav::Status s = nav::build_navmesh(pm, dm, nm);
    CHECK(s.code == nav::Status::Code::BadInput);
    CHECK(s.message.find("polygon 0") != std::string::npos);

    fresh();
    // Counter-clockwise polygon (reversed loop).
    std::reverse(pm.polys.begin(), pm.polys.begin() + 4);
    CHECK(nav::build_navmesh(pm, dm, nm).code == nav::Status::Code::BadInput);

    fresh();
    pm.nvp = 2;
    CHECK(nav::build_navmesh(pm, dm, nm).code == nav::Status::Code::BadInput);

    fresh();
    dm.nmeshes = 1;  // detail does not match the polygons
    CHECK(nav::build_navmesh(pm, dm, nm).code == nav::Status::Code::BadInput);

    fresh();
    dm.tris[1] = 9;  // detail vertex out of the sub-mesh
    CHECK(nav::build_navmesh(pm, dm, nm).code == nav::Status::Code::BadInput);

    fresh();
    dm.verts[4] = std::numeric_limits<float>::quiet_NaN();
    CHECK(nav::build_navmesh(pm, dm, nm).code == nav::Status::Code::BadInput);

    fresh();
    pm.polys[static_cast<size_t>(pm.nvp)] = 0x8000;  // without tiles this is polygon 32768: out of range
    CHECK(nav::build_navmesh(pm, dm, nm).code == nav::Status::Code::BadInput);
    CHECK(nm.empty());  // a failed build leaves an empty mesh
    CHECK(nm.poly_first.empty());

    fresh();
    pm.areas[0] = 64;
    CHECK(nav::build_navmesh(pm, dm, nm).code == nav::Status::Code::BadInput);

    fresh();
    CHECK(nav::build_navmesh(pm, dm, nm).is_ok());
}
