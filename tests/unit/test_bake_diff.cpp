// bake_diff: regions compared by span sets, polygons by vertex coordinates.
#include <doctest/doctest.h>

#include "core/explain/bake_diff.h"
#include "core/pipeline/pipeline.h"
#include "test_scenes.h"

namespace {

// A w x 1 strip of single-span cells on a 1 m grid; reg gives each cell's region.
void strip(const std::vector<uint16_t>& reg, nav::CompactHeightfield& chf, nav::Regions& r) {
    chf = {};
    chf.width = static_cast<int>(reg.size());
    chf.height = 1;
    chf.cs = 1.0f;
    chf.ch = 0.5f;
    chf.span_count = static_cast<uint32_t>(reg.size());
    chf.cells.resize(reg.size());
    chf.spans.resize(reg.size());
    chf.areas.assign(reg.size(), 63);
    for (size_t i = 0; i < reg.size(); ++i) chf.cells[i] = {static_cast<uint32_t>(i), 1};
    r = {};
    r.reg = reg;
    for (uint16_t id : reg) r.max_region_id = std::max<uint16_t>(r.max_region_id, static_cast<uint16_t>((id & 0x7fff) + 1));
}

// A mesh of unit squares (cs = 1) at the given x offsets along z = 0.
nav::PolyMesh squares(const std::vector<int>& xs, bool rotate_first = false) {
    nav::PolyMesh m;
    m.nvp = 6;
    m.cs = 1.0f;
    m.ch = 1.0f;
    for (int x : xs) {
        const uint16_t base = static_cast<uint16_t>(m.nverts);
        const uint16_t pts[4][3] = {{uint16_t(x), 0, 0}, {uint16_t(x), 0, 1}, {uint16_t(x + 1), 0, 1}, {uint16_t(x + 1), 0, 0}};
        for (const auto& p : pts) m.verts.insert(m.verts.end(), p, p + 3);
        m.nverts += 4;
        std::vector<uint16_t> poly(12, nav::kMeshNullIdx);
        for (int k = 0; k < 4; ++k) poly[static_cast<size_t>(k)] = static_cast<uint16_t>(base + (rotate_first ? (k + 2) % 4 : k));
        m.polys.insert(m.polys.end(), poly.begin(), poly.end());
        m.regs.push_back(1);
        m.flags.push_back(0);
        m.areas.push_back(63);
        ++m.npolys;
    }
    return m;
}

}  // namespace

TEST_CASE("bake_diff: identical regions are unchanged, renumbered ones too") {
    nav::CompactHeightfield ca, cb;
    nav::Regions ra, rb;
    strip({1, 1, 2, 2, 0, 3}, ca, ra);
    strip({1, 1, 2, 2, 0, 3}, cb, rb);
    nav::RegionDiff d = nav::diff_regions(ca, ra, cb, rb);
    CHECK(d.empty());
    CHECK(d.unchanged == 3);
    strip({2, 2, 1, 1, 0, 3}, cb, rb);  // ids swapped, same sets
    d = nav::diff_regions(ca, ra, cb, rb);
    CHECK(d.empty());
    CHECK(d.unchanged == 3);
}

TEST_CASE("bake_diff: reshaped, added and removed regions") {
    nav::CompactHeightfield ca, cb;
    nav::Regions ra, rb;
    strip({1, 1, 2, 2, 0, 3, 3}, ca, ra);
    strip({1, 1, 1, 2, 0, 4, 4}, cb, rb);  // 1 grows, 2 shrinks, 3 gone, 4 new (same cells as 3 had!)
    nav::RegionDiff d = nav::diff_regions(ca, ra, cb, rb);
    // 4 covers exactly the spans 3 covered: a renumbering, unchanged
    CHECK(d.unchanged == 1);
    CHECK(d.reshaped == std::vector<uint16_t>{1, 2});
    CHECK(d.added.empty());
    CHECK(d.removed.empty());
    strip({1, 1, 1, 2, 0, 4, 0}, cb, rb);  // now 4 is a new shape and 3 is gone
    d = nav::diff_regions(ca, ra, cb, rb);
    CHECK(d.unchanged == 0);
    CHECK(d.reshaped == std::vector<uint16_t>{1, 2});
    CHECK(d.added == std::vector<uint16_t>{4});
    CHECK(d.removed == std::vector<uint16_t>{3});
}

TEST_CASE("bake_diff: border-flagged spans are ignored; spans compare in world units") {
    nav::CompactHeightfield ca, cb;
    nav::Regions ra, rb;
    strip({1, 1, nav::kBorderRegion | 2}, ca, ra);
    strip({1, 1, 0}, cb, rb);
    CHECK(nav::diff_regions(ca, ra, cb, rb).empty());
    // the same cells shifted by one cell in world space are a different set
    strip({1, 1, 0}, cb, rb);
    cb.bmin[0] = 1.0f;
    const nav::RegionDiff d = nav::diff_regions(ca, ra, cb, rb);
    CHECK(d.reshaped == std::vector<uint16_t>{1});
    // a span raised by one cell height changes its region's set
    strip({1, 1, 0}, cb, rb);
    cb.spans[1].y = 1;
    CHECK(nav::diff_regions(ca, ra, cb, rb).reshaped == std::vector<uint16_t>{1});
}

TEST_CASE("bake_diff: polygons match by vertex coordinates, any start vertex") {
    const nav::PolyMesh a = squares({0, 2, 4});
    CHECK(nav::diff_polymeshes(a, a).empty());
    CHECK(nav::diff_polymeshes(a, a).unchanged == 3);
    // same squares, listed in another order and starting at another vertex
    const nav::PolyMesh b = squares({4, 0, 2}, true);
    nav::PolyDiff d = nav::diff_polymeshes(a, b);
    CHECK(d.empty());
    CHECK(d.unchanged == 3);
    // one moved, one added
    const nav::PolyMesh c = squares({0, 3, 4, 6});
    d = nav::diff_polymeshes(a, c);
    CHECK(d.unchanged == 2);
    CHECK(d.removed == std::vector<int>{1});
    CHECK(d.added == std::vector<int>{1, 3});
    // everything removed
    d = nav::diff_polymeshes(a, nav::PolyMesh{});
    CHECK(d.removed == std::vector<int>{0, 1, 2});
    CHECK(d.added.empty());
}

TEST_CASE("bake_diff: real re-bakes: the same bake is unchanged, a polygon-only change leaves the regions") {
    nav::InputMesh m;
    navtest::add_floor(m, 0, 0, 12, 12, 0);
    navtest::add_box(m, 3, 0, 3, 5, 2, 9);
    navtest::add_box(m, 7, 0, 2, 8, 2, 4);
    nav::Pipeline p;
    REQUIRE(p.set_mesh(m));
    REQUIRE(p.run());
    const auto b1 = p.snapshot();
    // the same bake twice is unchanged
    REQUIRE(p.set_param("cell_size", "0.3"));
    p.mark_dirty(nav::Stage::Rasterize);
    REQUIRE(p.run());
    const auto b2 = p.snapshot();
    CHECK(nav::diff_regions(*b1->compact, *b1->regions, *b2->compact, *b2->regions).empty());
    CHECK(nav::diff_polymeshes(*b1->polymesh, *b2->polymesh).empty());
    // a coarser max edge length changes polygons but not regions
    REQUIRE(p.set_param("edge_max_len", "2"));
    REQUIRE(p.run());
    const auto b3 = p.snapshot();
    CHECK(nav::diff_regions(*b2->compact, *b2->regions, *b3->compact, *b3->regions).empty());
    const nav::PolyDiff pd = nav::diff_polymeshes(*b2->polymesh, *b3->polymesh);
    CHECK(!pd.added.empty());
    CHECK(!pd.removed.empty());
    CHECK(pd.unchanged + static_cast<int>(pd.added.size()) == b3->polymesh->npolys);
    CHECK(pd.unchanged + static_cast<int>(pd.removed.size()) == b2->polymesh->npolys);
}
