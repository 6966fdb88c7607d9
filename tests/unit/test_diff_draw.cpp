// The change highlight's CPU side (render/diff_draw.h): which spans and polygon edges the overlay
// draws, in which colour, and the summary line.
#ifdef NAV_HAVE_RENDER
#include <doctest/doctest.h>

#include <map>
#include <memory>

#include "core/pipeline/pipeline.h"
#include "render/diff_draw.h"
#include "test_scenes.h"

using namespace nav;
using namespace nav::render;

namespace {

// A w x 1 strip of single-span cells on a 1 m grid; reg gives each cell's region.
void strip(const std::vector<uint16_t>& reg, Bake& b) {
    auto chf = std::make_shared<CompactHeightfield>();
    chf->width = static_cast<int>(reg.size());
    chf->height = 1;
    chf->cs = 1.0f;
    chf->ch = 0.5f;
    chf->span_count = static_cast<uint32_t>(reg.size());
    chf->cells.resize(reg.size());
    chf->spans.resize(reg.size());
    chf->areas.assign(reg.size(), 63);
    for (size_t i = 0; i < reg.size(); ++i) chf->cells[i] = {static_cast<uint32_t>(i), 1};
    auto r = std::make_shared<Regions>();
    r->reg = reg;
    for (uint16_t id : reg) r->max_region_id = std::max<uint16_t>(r->max_region_id, static_cast<uint16_t>((id & 0x7fff) + 1));
    b.compact = chf;
    b.regions = r;
}

// Unit squares (cs = ch = 1) at the given x offsets along z = 0.
std::shared_ptr<PolyMesh> squares(const std::vector<int>& xs) {
    auto m = std::make_shared<PolyMesh>();
    m->nvp = 6;
    m->cs = 1.0f;
    m->ch = 1.0f;
    for (int x : xs) {
        const auto base = static_cast<uint16_t>(m->nverts);
        const uint16_t pts[4][3] = {{uint16_t(x), 0, 0}, {uint16_t(x), 0, 1}, {uint16_t(x + 1), 0, 1}, {uint16_t(x + 1), 0, 0}};
        for (const auto& p : pts) m->verts.insert(m->verts.end(), p, p + 3);
        m->nverts += 4;
        std::vector<uint16_t> poly(12, kMeshNullIdx);
        for (int k = 0; k < 4; ++k) poly[static_cast<size_t>(k)] = static_cast<uint16_t>(base + k);
        m->polys.insert(m->polys.end(), poly.begin(), poly.end());
        m->regs.push_back(1);
        m->flags.push_back(0);
        m->areas.push_back(63);
        ++m->npolys;
    }
    return m;
}

// Triangles per colour (alpha ignored) and lines per colour.
std::map<uint32_t, size_t> tris_by_color(const DrawList& d) {
    std::map<uint32_t, size_t> n;
    for (size_t t = 0; t + 2 < d.tri_indices.size(); t += 3) ++n[d.tri_verts[d.tri_indices[t]].color & 0xffffffu];
    return n;
}
std::map<uint32_t, size_t> lines_by_color(const DrawList& d) {
    std::map<uint32_t, size_t> n;
    for (size_t i = 0; i + 1 < d.line_verts.size(); i += 2) ++n[d.line_verts[i].color & 0xffffffu];
    return n;
}
constexpr uint32_t rgb(uint32_t c) { return c & 0xffffffu; }

}  // namespace

TEST_CASE("diff_draw: added, reshaped and removed regions tint their spans; polygons are outlined") {
    Bake a, b;
    a.generation = 4;
    b.generation = 5;
    strip({1, 1, 2, 2, 0, 3, 3}, a);
    strip({1, 1, 1, 2, 0, 4, 0}, b);  // 1 grows (3 spans), 2 shrinks (1), 3 gone (2 old spans), 4 new (1)
    a.polymesh = squares({0, 2, 4});
    b.polymesh = squares({0, 4, 6, 8});  // x=2 removed, x=6 and x=8 added

    const BakeChanges c = diff_bakes(a, b);
    REQUIRE(c.have_regions);
    REQUIRE(c.have_polys);
    CHECK(c.from_generation == 4);
    CHECK(c.to_generation == 5);
    CHECK(c.regions.reshaped == std::vector<uint16_t>{1, 2});
    CHECK(c.regions.added == std::vector<uint16_t>{4});
    CHECK(c.regions.removed == std::vector<uint16_t>{3});
    CHECK(c.polys.added == std::vector<int>{2, 3});
    CHECK(c.polys.removed == std::vector<int>{1});
    CHECK(c.any());
    CHECK(diff_summary(c) == "regions +1 ~2 -1, polygons +2 -1");

    DrawList d;
    build_diff_overlay(c, a, b, d);
    const auto tris = tris_by_color(d);
    // two triangles per span: reshaped 1 (3 spans) + 2 (1 span), added 4 (1 span), removed 3 (2 old spans)
    CHECK(tris.at(rgb(colors::kDiffReshaped)) == 2 * 4);
    CHECK(tris.at(rgb(colors::kDiffAdded)) == 2 * 1);
    CHECK(tris.at(rgb(colors::kDiffRemoved)) == 2 * 2);
    CHECK(tris.size() == 3);
    // four edges per square: two added, one removed
    const auto lines = lines_by_color(d);
    CHECK(lines.at(rgb(colors::kDiffAdded)) == 4 * 2);
    CHECK(lines.at(rgb(colors::kDiffRemoved)) == 4 * 1);
    // the removed square is drawn where the old mesh had it (x in [2, 3])
    for (size_t i = 0; i < d.line_verts.size(); ++i)
        if (rgb(d.line_verts[i].color) == rgb(colors::kDiffRemoved)) {
            CHECK(d.line_verts[i].x >= 2.0f);
            CHECK(d.line_verts[i].x <= 3.0f);
        }
}

TEST_CASE("diff_draw: identical bakes draw nothing; missing stages are not compared") {
    Bake a, b;
    strip({1, 1, 2, 2}, a);
    strip({2, 2, 1, 1}, b);  // renumbered only
    a.polymesh = squares({0, 2});
    b.polymesh = squares({0, 2});
    BakeChanges c = diff_bakes(a, b);
    CHECK_FALSE(c.any());
    CHECK(diff_summary(c).rfind("no change", 0) == 0);
    DrawList d;
    build_diff_overlay(c, a, b, d);
    CHECK(d.empty());

    Bake partial;  // e.g. a bake stopped before regions
    c = diff_bakes(a, partial);
    CHECK_FALSE(c.have_regions);
    CHECK_FALSE(c.have_polys);
    CHECK_FALSE(c.any());
    build_diff_overlay(c, a, partial, d);
    CHECK(d.empty());
}

TEST_CASE("diff_draw: a slider move on a real bake highlights what moved") {
    Pipeline pipe;
    InputMesh m;
    navtest::add_floor(m, 0, 0, 12, 12, 0);
    navtest::add_box(m, 5, 0, 5, 7, 3, 7);
    REQUIRE(pipe.set_mesh(std::move(m)));
    REQUIRE(pipe.run());
    const auto before = pipe.snapshot();
    REQUIRE(pipe.set_param(ParamId::agent_radius, 1.5));
    REQUIRE(pipe.run());
    const auto after = pipe.snapshot();
    const BakeChanges c = diff_bakes(*before, *after);
    REQUIRE(c.have_regions);
    REQUIRE(c.have_polys);
    CHECK(c.any());  // a wider erosion changes every region touching a wall
    CHECK(c.polys.added.size() + c.polys.removed.size() > 0);
    DrawList d;
    build_diff_overlay(c, *before, *after, d);
    CHECK_FALSE(d.empty());
    size_t region_spans = 0;
    for (uint16_t id : c.regions.added)
        for (uint16_t r : after->regions->reg) region_spans += r == id;
    for (uint16_t id : c.regions.reshaped)
        for (uint16_t r : after->regions->reg) region_spans += r == id;
    for (uint16_t id : c.regions.removed)
        for (uint16_t r : before->regions->reg) region_spans += r == id;
    CHECK(d.tri_indices.size() == region_spans * 6);
    // the same bake against itself: nothing
    const BakeChanges same = diff_bakes(*after, *after);
    CHECK_FALSE(same.any());
}

#endif
