// Regions lost between stages (core/explain/diagnose.h, region_loss): a region the partition made
// that reached no contour (a sliver simplified below 3 vertices) or no polygon (triangulation
// failed), counted per grid and explained in Warnings. Known answers on hand-made stage results;
// on real bakes, solo and tiled, the counts agree with the Stages table's.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "core/explain/diagnose.h"
#include "core/pipeline/pipeline.h"
#include "test_scenes.h"

using namespace nav;

namespace {
Contour outline(uint16_t reg) {
    Contour c;
    c.reg = reg;
    c.nverts = 4;
    return c;
}
}  // namespace

TEST_CASE("region loss: known answers on hand-made stage results") {
    Regions r;
    r.region_count = 4;
    ContourSet cs;
    cs.contours = {outline(1), outline(2), outline(4)};
    Contour hole = outline(1);
    hole.nverts = 0;  // a merged hole stays with no vertices: not an outline
    cs.contours.push_back(hole);
    cs.warnings = {3};  // region 3's contour was dropped
    PolyMesh pm;
    pm.npolys = 3;
    pm.regs = {1, 1, 4};  // region 2: a contour, no polygon

    RegionLoss l = region_loss(r, cs, &pm);
    CHECK(l.regions == 4);
    CHECK(l.sliver == 1);
    CHECK(l.no_polygon == 1);
    CHECK(l.single_cell == 0);
    CHECK(l.lost() == 2);

    // before the polymesh stage: only what the contours lost
    l = region_loss(r, cs, nullptr);
    CHECK(l.sliver == 1);
    CHECK(l.no_polygon == 0);

    // a region with no contour and no warning: single cells, where no walk starts
    cs.warnings.clear();
    l = region_loss(r, cs, &pm);
    CHECK(l.sliver == 0);
    CHECK(l.single_cell == 1);
}

TEST_CASE("region loss: agrees with the Stages table on real bakes, solo and tiled, and Warnings says so") {
    const std::string path = navtest::shared_mesh_or_skip("dungeon.obj");
    if (path.empty()) return;
    for (int tile : {0, 32}) {
        CAPTURE(tile);
        Pipeline pipe;
        REQUIRE(pipe.load_mesh(path));
        Params p;
        REQUIRE(p.set(ParamId::tile_size, tile));
        REQUIRE(pipe.set_input(&nav::BakeInputs::params, p));
        REQUIRE(pipe.run());
        const auto bake = pipe.snapshot();
        const RegionLoss l = region_loss(*bake);
        CHECK(l.grids_without == 0);
        CHECK(l.grids == (tile ? static_cast<int>(bake->tiles.size()) : 1));
        CHECK(l.regions == bake->count("regions"));
        // the regions with an outline are the contour stage's, one outline each unless a region
        // split; the lost ones are exactly the difference from the partition's count
        int64_t with_outline = 0;
        const auto count_grid = [&](const auto& g) {
            std::set<int> regs;
            for (const Contour& k : g.contours->contours)
                if (k.nverts > 0) regs.insert(k.reg);
            with_outline += static_cast<int64_t>(regs.size());
        };
        if (tile == 0) count_grid(*bake);
        else
            for (const auto& t : bake->tiles) count_grid(*t);
        CHECK(with_outline == l.regions - l.sliver - l.single_cell);
        const MeshShape shape = analyze_mesh(*bake->mesh);
        const std::vector<Diagnostic> w = diagnose(p, bake.get(), &shape);
        const bool listed = std::any_of(w.begin(), w.end(), [](const Diagnostic& d) { return d.kind == WarningKind::RegionsLost; });
        CHECK(listed == (l.lost() > 0));
        MESSAGE("dungeon tile " << tile << ": " << l.regions << " regions, " << l.sliver << " slivers, " << l.no_polygon
                                << " without polygon, " << l.single_cell << " single cells");
    }
}
