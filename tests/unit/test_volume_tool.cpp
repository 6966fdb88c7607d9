// navdebug's volume tool (app/navdebug/volume_tool.h) without a window: clicks as the view gives
// them (a ray and the level point under the cursor) add points, a click on the first point or
// close() makes the hull a volume, Esc drops the points, a click on a volume selects it, Delete
// removes it; picking the prisms; and a volume the tool made re-bakes only the tiles it touches,
// its spans getting its area.
#include <doctest/doctest.h>

#ifdef NAV_HAVE_RENDER
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "app/navdebug/volume_tool.h"
#include "core/bake/pipeline.h"
#include "core/runtime/query.h"
#include "tile_scene.h"

using navdebug::VolumeTool;
using Press = VolumeTool::Press;

namespace {

// A click from straight above the level point g (the view's ray, the pick's point).
Press click(VolumeTool& t, std::vector<nav::ConvexVolume>& vols, float x, float y, float z, float close_radius = 0.5f,
            bool shift = false) {
    const float o[3] = {x, y + 20.0f, z}, d[3] = {0.0f, -1.0f, 0.0f}, g[3] = {x, y, z};
    return t.press(vols, o, d, g, close_radius, shift);
}

nav::ConvexVolume square(float x0, float z0, float x1, float z1, float hmin, float hmax, uint8_t area = nav::kAreaWater) {
    nav::ConvexVolume v;
    v.verts = {x0, hmin, z0, x1, hmin, z0, x1, hmin, z1, x0, hmin, z1};
    v.hmin = hmin;
    v.hmax = hmax;
    v.area = area;
    return v;
}

}  // namespace

TEST_CASE("volume tool: make_volume takes the hull, hmin below the lowest point, hmax height above") {
    const std::vector<float> pts = {0, 1.0f, 0, 4, 0.5f, 0, 2, 2.0f, 1, 4, 3.0f, 3, 0, 1.0f, 3};
    nav::ConvexVolume v;
    REQUIRE(navdebug::make_volume(pts, 6.0f, 1.0f, nav::kAreaGrass, v));
    CHECK(v.verts.size() == 4 * 3);  // (2,1) is inside
    CHECK(v.hmin == doctest::Approx(-0.5f));
    CHECK(v.hmax == doctest::Approx(5.5f));
    CHECK(v.area == nav::kAreaGrass);
    for (size_t k = 1; k < v.verts.size(); k += 3) CHECK(v.verts[k] == v.hmin);
    CHECK(nav::validate_volume(v, "tool"));
    CHECK_FALSE(navdebug::make_volume(pts, 0.0f, 1.0f, 1, v));
    CHECK_FALSE(navdebug::make_volume(pts, 2.0f, -1.0f, 1, v));
    const nav::Status st = navdebug::make_volume(std::vector<float>{0, 0, 0, 1, 0, 1}, 2.0f, 1.0f, 1, v);
    CHECK(st.message.find("at least 3 points") != std::string::npos);
}

TEST_CASE("volume tool: clicks add points, a click on the first point closes the hull as a volume") {
    VolumeTool t;
    t.set_area(nav::kAreaRoad);
    t.set_height(3.0f);
    std::vector<nav::ConvexVolume> vols;
    CHECK(click(t, vols, 0, 0, 0) == Press::Point);
    CHECK(click(t, vols, 5, 0.2f, 0) == Press::Point);
    // near the first point with only 2 points: no volume yet, a third point
    CHECK(click(t, vols, 0.1f, 0, 0.1f) == Press::Point);
    CHECK(click(t, vols, 5, 0, 5) == Press::Point);
    CHECK(click(t, vols, 0, 0, 5) == Press::Point);
    CHECK(t.points().size() == 5 * 3);
    CHECK(vols.empty());
    // within the close radius of the first point: closed
    CHECK(click(t, vols, 0.3f, 0, -0.2f) == Press::Closed);
    REQUIRE(vols.size() == 1);
    CHECK(t.points().empty());
    CHECK(t.selected() == 0);
    const nav::ConvexVolume& v = vols[0];
    CHECK(v.area == nav::kAreaRoad);
    CHECK(v.verts.size() == 4 * 3);  // (0.1, 0.1) is inside the square
    CHECK(v.hmin == doctest::Approx(-1.0f));
    CHECK(v.hmax == doctest::Approx(2.0f));
    CHECK(nav::validate_volume(v, "tool"));
    // Shift+click next to the first point is a point, never a close
    CHECK(click(t, vols, 20, 0, 20) == Press::Point);
    CHECK(click(t, vols, 25, 0, 20) == Press::Point);
    CHECK(click(t, vols, 25, 0, 25) == Press::Point);
    CHECK(click(t, vols, 20.1f, 0, 20, 0.5f, true) == Press::Point);
    CHECK(t.points().size() == 4 * 3);
    CHECK(t.close(vols));  // Enter
    CHECK(vols.size() == 2);
    CHECK(t.selected() == 1);
}

TEST_CASE("volume tool: points on a line are refused and kept, Esc drops them") {
    VolumeTool t;
    std::vector<nav::ConvexVolume> vols;
    click(t, vols, 0, 0, 0);
    click(t, vols, 1, 0, 1);
    click(t, vols, 2, 0, 2);
    CHECK(click(t, vols, 0, 0, 0.1f) == Press::Refused);
    CHECK(t.error().find("one line") != std::string::npos);
    CHECK(t.points().size() == 3 * 3);
    CHECK_FALSE(t.close(vols));
    CHECK(vols.empty());
    // a fourth point off the line makes a triangle
    CHECK(click(t, vols, 2, 0, 0) == Press::Point);
    CHECK(t.error().empty());
    CHECK(t.cancel());
    CHECK(t.points().empty());
    CHECK_FALSE(t.cancel());
    CHECK_FALSE(t.close(vols));  // nothing to close
    CHECK(vols.empty());
    // no level under the cursor: nothing happens to the points
    click(t, vols, 0, 0, 0);
    const float o[3] = {0, 10, 0}, d[3] = {1, 0, 0};
    CHECK(t.press(vols, o, d, nullptr, 0.5f, false) == Press::None);
    CHECK(t.points().size() == 3);
}

TEST_CASE("volume tool: a click on a volume selects it, Delete removes it, Shift+click starts a point inside") {
    VolumeTool t;
    std::vector<nav::ConvexVolume> vols = {square(0, 0, 4, 4, -1, 2), square(10, 0, 14, 4, -1, 2, nav::kAreaGrass)};
    CHECK(click(t, vols, 12, 0, 2) == Press::Selected);
    CHECK(t.selected() == 1);
    CHECK(t.points().empty());
    CHECK(click(t, vols, 2, 0, 2) == Press::Selected);
    CHECK(t.selected() == 0);
    // on the level outside every volume: a new volume's first point, the selection dropped
    CHECK(click(t, vols, 7, 0, 2) == Press::Point);
    CHECK(t.selected() == -1);
    t.cancel();
    CHECK(click(t, vols, 2, 0, 2, 0.5f, true) == Press::Point);
    t.cancel();
    CHECK(click(t, vols, 12, 0, 2) == Press::Selected);
    CHECK(t.remove_selected(vols));
    REQUIRE(vols.size() == 1);
    CHECK(vols[0].area == nav::kAreaWater);
    CHECK(t.selected() == -1);
    CHECK_FALSE(t.remove_selected(vols));
    // a selection that no longer names a volume (after undo) is dropped
    t.select(3);
    t.clamp(vols);
    CHECK(t.selected() == -1);
}

TEST_CASE("volume tool: pick_volume hits the prism, nearest first, either winding") {
    std::vector<nav::ConvexVolume> vols = {square(0, 0, 4, 4, 0, 2), square(0, 0, 4, 4, 5, 8)};
    float t = 0;
    // from above: the upper prism first (its top at 8)
    const float o[3] = {2, 20, 2}, down[3] = {0, -1, 0};
    CHECK(navdebug::pick_volume(vols, o, down, &t) == 1);
    CHECK(t == doctest::Approx(12.0f));
    // from the side at height 1: the lower one, entering its face x = 0
    const float side[3] = {-6, 1, 2}, east[3] = {2, 0, 0};
    CHECK(navdebug::pick_volume(vols, side, east, &t) == 0);
    CHECK(t == doctest::Approx(3.0f));
    // between them (height 3.5) and beside them: nothing
    const float gap[3] = {-6, 3.5f, 2};
    CHECK(navdebug::pick_volume(vols, gap, east, &t) == -1);
    const float beside[3] = {-6, 1, 5};
    CHECK(navdebug::pick_volume(vols, beside, east, &t) == -1);
    // clockwise outline, ray starting inside
    nav::ConvexVolume cw = square(0, 0, 4, 4, 0, 2);
    cw.verts = {0, 0, 0, 0, 0, 4, 4, 0, 4, 4, 0, 0};
    const float inside[3] = {1, 1, 1};
    CHECK(navdebug::pick_volume({cw}, inside, east, &t) == 0);
    CHECK(t == 0.0f);
    // a slanted ray through the triangle's corner region misses outside the hypotenuse
    nav::ConvexVolume tri;
    tri.verts = {0, 0, 0, 4, 0, 0, 0, 0, 4};
    tri.hmin = 0, tri.hmax = 2;
    const float over_out[3] = {3, 10, 3}, over_in[3] = {1, 10, 1};
    CHECK(navdebug::pick_volume({tri}, over_out, down, &t) == -1);
    CHECK(navdebug::pick_volume({tri}, over_in, down, &t) == 0);
}

TEST_CASE("volume tool: a volume it makes re-bakes only the tiles it touches and stamps its area") {
    nav::Pipeline p;
    REQUIRE(p.set_mesh(navtest::tile_scene()));
    REQUIRE(p.set_param(nav::ParamId::tile_size, 32));
    REQUIRE(p.run());
    const auto before = p.snapshot();
    REQUIRE(before->navmesh);
    // four clicks on the floor (y 0) round (15, 15) and Enter
    VolumeTool t;
    std::vector<nav::ConvexVolume> vols;
    for (const auto& xz : {std::pair{13.5f, 13.5f}, std::pair{16.5f, 13.0f}, std::pair{17.0f, 16.5f}, std::pair{13.0f, 16.0f}})
        REQUIRE(click(t, vols, xz.first, 0.0f, xz.second) == Press::Point);
    REQUIRE(t.close(vols));
    p.set_volumes(vols);
    REQUIRE(p.run());
    const auto with = p.snapshot();
    REQUIRE(with->navmesh);
    CHECK(with->stages_run.front() == nav::Stage::Areas);
    int touched = 0;
    float bx[4] = {1e30f, 1e30f, -1e30f, -1e30f};
    for (size_t k = 0; k + 2 < vols[0].verts.size(); k += 3) {
        bx[0] = std::min(bx[0], vols[0].verts[k]), bx[2] = std::max(bx[2], vols[0].verts[k]);
        bx[1] = std::min(bx[1], vols[0].verts[k + 2]), bx[3] = std::max(bx[3], vols[0].verts[k + 2]);
    }
    for (size_t i = 0; i < with->tiles.size(); ++i) {
        const nav::BakeConfig& c = with->tiles[i]->config;
        const bool meets = !(bx[2] < c.bmin[0] || bx[0] > c.bmax[0] || bx[3] < c.bmin[2] || bx[1] > c.bmax[2]);
        touched += meets;
        CHECK((with->tiles[i]->tile != before->tiles[i]->tile) == meets);
    }
    CHECK(touched >= 1);
    CHECK(touched < static_cast<int>(with->tiles.size()));
    CHECK(with->tiles_rebaked.size() == static_cast<size_t>(touched));
    // the polygon under the volume's middle is water, one well outside it is not
    nav::NavQuery q;
    q.init(with->navmesh.get());
    const float ext[3] = {0.5f, 2.0f, 0.5f};
    auto area_at = [&](float x, float z) {
        const float c[3] = {x, 0.0f, z};
        nav::NearestPoly np;
        REQUIRE(q.find_nearest_poly(c, ext, nav::QueryFilter{}, np));
        REQUIRE(np.poly != nav::kNoRef);
        return with->navmesh->areas[with->navmesh->poly_index(np.poly)];
    };
    CHECK(area_at(15.0f, 15.0f) == nav::kAreaWater);
    CHECK(area_at(3.0f, 20.0f) == nav::kWalkableArea);
    // removing it (Delete) gives the areas back
    REQUIRE(t.remove_selected(vols));
    p.set_volumes(vols);
    REQUIRE(p.run());
    q.init(p.snapshot()->navmesh.get());
    const float c[3] = {15.0f, 0.0f, 15.0f};
    nav::NearestPoly np;
    REQUIRE(q.find_nearest_poly(c, ext, nav::QueryFilter{}, np));
    REQUIRE(np.poly != nav::kNoRef);
    CHECK(p.snapshot()->navmesh->areas[p.snapshot()->navmesh->poly_index(np.poly)] == nav::kWalkableArea);
}

#endif
