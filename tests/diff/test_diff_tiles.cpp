// Differential test of the tiled bake against Debian's Recast 1.5.1, tile by tile: each tile is
// built by Recast's own functions (rcMarkWalkableTriangles, rcRasterizeTriangles, the filters,
// rcBuildCompactHeightfield, rcErodeWalkableArea, rcBuildDistanceField, the region partition,
// rcBuildContours, rcBuildPolyMesh, rcBuildPolyMeshDetail: recast_ref.h's run_recast, as
// RecastDemo's Sample_TileMesh::buildTileMesh does) on the same bordered box, with the same border
// size and the triangles our spatial index gives the tile (Recast's chunky mesh would add more
// triangles that lie outside the box; they rasterize to nothing). Our tiles keep only the cells of
// the solo grid (Recast's rounding of the mesh extent, so solo and tiled bake the same cells); the
// reference empties the same columns right after rcRasterizeTriangles (recast_ref.h, keep_cells).
//
// On the three shared meshes, at tile sizes 32 and 64 and for every partition, per tile:
//  - solid spans outside column 0 and row 0 of the bordered grid: equal. Named difference: Recast
//    1.5.1 clamps geometry left of / below the grid into column / row 0 (fixed in later Recast);
//    ours cuts it off at the grid edge (rasterize.cpp). A solo grid has no such geometry (its
//    bounds are the mesh's), a tile has it on every inner edge; column and row 0 lie in the tile
//    border (at least 3 cells), which the later stages drop, so regions and polygons do not see it.
//    The span totals including column / row 0 are printed;
//  - regions (distinct non-zero ids, border regions included, as recast_ref.h counts them): equal,
//    or within the solo differential test's tolerance of max(2, 10%) - every tile that differs is
//    printed by name (mesh, tile size, partition, tile x,z, both counts);
//  - polygons: equal, or within max(2, 10%), printed likewise.
// The totals of differing tiles are printed so the report can name them. At the last run every
// tile agreed exactly on spans (outside column / row 0), regions and polygons except one:
// undulating, tile_size 64, watershed, tile 3,1: 11 polygons against Recast's 12 with equal spans
// and regions (a difference in the vector stages, not investigated yet; within tolerance).
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "core/pipeline/tiling.h"
#include "diff/recast_ref.h"
#include "test_scenes.h"

namespace {

// Spans in the columns with x >= 1 and z >= 1 (see the named difference above).
int64_t rc_spans_inner(const rcHeightfield& hf) {
    int64_t n = 0;
    for (int z = 1; z < hf.height; ++z)
        for (int x = 1; x < hf.width; ++x)
            for (const rcSpan* s = hf.spans[x + z * hf.width]; s; s = s->next) ++n;
    return n;
}
int64_t our_spans_inner(const nav::Heightfield& hf) {
    int64_t n = 0;
    for (int z = 1; z < hf.height; ++z)
        for (int x = 1; x < hf.width; ++x)
            for (uint32_t i = hf.columns[static_cast<size_t>(x + z * hf.width)]; i != nav::kNullSpan; i = hf.pool[i].next) ++n;
    return n;
}

bool close_enough(int64_t ours, int64_t recast) {
    const int64_t d = std::llabs(ours - recast);
    return d <= 2 || static_cast<double>(d) <= 0.10 * static_cast<double>(recast);
}

struct TileDiffSummary {
    int tiles = 0, span_diff = 0, region_diff = 0, poly_diff = 0;
    int64_t edge_spans = 0;  // |ours - recast| of all spans, summed over tiles (column / row 0)
};

TileDiffSummary diff_tiles(const std::string& name, const std::string& path, int tile_size, nav::Partition part) {
    TileDiffSummary sum;
    nav::Pipeline pipe;
    REQUIRE(pipe.load_mesh(path));
    REQUIRE(pipe.set_param(nav::ParamId::tile_size, tile_size));
    REQUIRE(pipe.set_param(nav::ParamId::partition, static_cast<double>(static_cast<int>(part))));
    REQUIRE(pipe.run());
    const auto bake = pipe.snapshot();
    const nav::InputMesh& mesh = *bake->mesh;
    const nav::BakeConfig& c = bake->config;
    nav::TileLayout L;
    REQUIRE(nav::make_tile_layout(c, L));
    nav::TriangleBins bins;
    bins.build(mesh, c, L);
    REQUIRE(bake->tiles.size() == static_cast<size_t>(L.count()));

    navdiff::RecastVoxels rv;
    std::vector<uint8_t> seen;
    nav::InputMesh sub;
    sub.verts = mesh.verts;
    for (const auto& t : bake->tiles) {
        REQUIRE(t);
        const auto tris = bins.tile(t->tx, t->tz);
        sub.tris.clear();
        for (int i : tris)
            for (int k = 0; k < 3; ++k) sub.tris.push_back(mesh.tris[static_cast<size_t>(i) * 3 + k]);
        const nav::BakeConfig tc = nav::tile_config(c, L, t->tx, t->tz);
        REQUIRE(tc.border_size == t->config.border_size);
        REQUIRE(tc.width == t->config.width);
        const int64_t our_spans = our_spans_inner(*t->solid), our_all = t->solid->span_count;
        const int our_regions = navdiff::count_distinct_regions(t->regions->reg.data(), t->regions->reg.size(), seen);
        const int our_polys = t->polymesh->npolys;
        int64_t rc_spans = 0, rc_all = 0;
        int rc_regions = 0, rc_polys = 0;
        if (!sub.tris.empty()) {
            const navdiff::VoxelRun run = navdiff::run_recast(sub, tc, rv, navdiff::partition_bit(part), false, true,
                                                                navdiff::tile_keep_cells(c, L, t->tx, t->tz).data());
            REQUIRE_MESSAGE(run.ok, run.error);
            rc_spans = rc_spans_inner(*rv.hf);
            rc_all = run.counts.solid_spans;
            rc_regions = run.counts.regions[static_cast<int>(part)];
            rc_polys = run.mesh[static_cast<int>(part)].polys;
        }
        ++sum.tiles;
        sum.edge_spans += std::llabs(our_all - rc_all);
        const bool sd = our_spans != rc_spans, rd = our_regions != rc_regions, pd = our_polys != rc_polys;
        sum.span_diff += sd;
        sum.region_diff += rd;
        sum.poly_diff += pd;
        if (sd || rd || pd)
            std::printf("tile diff %s ts=%d %s tile %d,%d: spans %lld/%lld regions %d/%d polys %d/%d (ours/recast)\n",
                        name.c_str(), tile_size, std::string(nav::kPartitionNames[static_cast<int>(part)]).c_str(),
                        t->tx, t->tz, static_cast<long long>(our_spans), static_cast<long long>(rc_spans), our_regions,
                        rc_regions, our_polys, rc_polys);
        CAPTURE(name);
        CAPTURE(tile_size);
        CAPTURE(t->tx);
        CAPTURE(t->tz);
        CHECK(our_spans == rc_spans);
        CHECK(close_enough(our_regions, rc_regions));
        CHECK(close_enough(our_polys, rc_polys));
    }
    std::printf("tiles %s ts=%d %s: %d tiles, differing: spans %d, regions %d, polys %d (column/row 0 span "
                "difference %lld)\n",
                name.c_str(), tile_size, std::string(nav::kPartitionNames[static_cast<int>(part)]).c_str(), sum.tiles,
                sum.span_diff, sum.region_diff, sum.poly_diff, static_cast<long long>(sum.edge_spans));
    return sum;
}

}  // namespace

TEST_CASE("diff tiles: per-tile spans, regions and polygons against Recast's tile build") {
    for (const char* name : {"dungeon", "nav_test", "undulating"}) {
        const std::string path = navtest::shared_mesh_or_skip(std::string(name) + ".obj");
        if (path.empty()) continue;
        for (int ts : {32, 64})
            for (int p = 0; p < navdiff::kPartitionCount; ++p) {
                CAPTURE(name);
                CAPTURE(ts);
                CAPTURE(p);
                diff_tiles(name, path, ts, static_cast<nav::Partition>(p));
            }
    }
}
