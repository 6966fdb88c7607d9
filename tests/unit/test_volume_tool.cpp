// navdebug's volume tool (app/navdebug/volume_tool.h) without a window: clicks as the view gives
// them (a ray and the level point under the cursor) add points, a click on the first point or
// close() makes the hull a volume, Esc drops the points, a click on a volume selects it, Delete
// removes it; picking the prisms; the selected volume's hull points dragged (the volume its points'
// hull again), the whole volume dragged, points edited and removed as the panel does, each drag one
// undo step; and a volume the tool made (or one whose point was dragged) re-bakes only the tiles it
// touches, its spans getting its area.
#include <doctest/doctest.h>

#ifdef NAV_HAVE_RENDER
#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "app/navdebug/undo.h"
#include "app/navdebug/volume_tool.h"
#include "core/pipeline/pipeline.h"
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

// The volume's points as (x, z) pairs, in its order.
std::vector<std::pair<float, float>> xz_of(const nav::ConvexVolume& v) {
    std::vector<std::pair<float, float>> out;
    for (size_t k = 0; k + 2 < v.verts.size(); k += 3) out.emplace_back(v.verts[k], v.verts[k + 2]);
    return out;
}

bool has_xz(const nav::ConvexVolume& v, float x, float z) {
    const auto pts = xz_of(v);
    return std::find(pts.begin(), pts.end(), std::pair{x, z}) != pts.end();
}

// A drag from straight above: the level point under the cursor.
bool drag(VolumeTool& t, std::vector<nav::ConvexVolume>& vols, float x, float y, float z) {
    const float g[3] = {x, y, z};
    return t.drag_to(vols, g);
}

// Four clicks on the tile scene's floor (y 0) round (15, 15) and Enter: volume 0, selected.
void place_round_15(VolumeTool& t, std::vector<nav::ConvexVolume>& vols) {
    for (const auto& xz : {std::pair{13.5f, 13.5f}, std::pair{16.5f, 13.0f}, std::pair{17.0f, 16.5f}, std::pair{13.0f, 16.0f}})
        REQUIRE(click(t, vols, xz.first, 0.0f, xz.second) == Press::Point);
    REQUIRE(t.close(vols));
}

// The volume's xz box: min x, min z, max x, max z.
std::array<float, 4> box_of(const nav::ConvexVolume& v) {
    std::array<float, 4> bx = {1e30f, 1e30f, -1e30f, -1e30f};
    for (size_t k = 0; k + 2 < v.verts.size(); k += 3) {
        bx[0] = std::min(bx[0], v.verts[k]), bx[2] = std::max(bx[2], v.verts[k]);
        bx[1] = std::min(bx[1], v.verts[k + 2]), bx[3] = std::max(bx[3], v.verts[k + 2]);
    }
    return bx;
}

bool box_meets_tile(const std::array<float, 4>& bx, const nav::BakeConfig& c) {
    return !(bx[2] < c.bmin[0] || bx[0] > c.bmax[0] || bx[3] < c.bmin[2] || bx[1] > c.bmax[2]);
}

// The area of the navmesh polygon nearest (x, 0, z).
uint8_t area_at(const nav::NavMesh* nm, float x, float z) {
    nav::NavQuery q;
    q.init(nm);
    const float c[3] = {x, 0.0f, z}, ext[3] = {0.5f, 2.0f, 0.5f};
    nav::NearestPoly np;
    REQUIRE(q.find_nearest_poly(c, ext, nav::QueryFilter{}, np));
    REQUIRE(np.poly != nav::kNoRef);
    return nm->areas[nm->poly_index(np.poly)];
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

TEST_CASE("list selection (the obstacle, volume and link tools'): removals keep it on its item") {
    navdebug::ListSelection sel;
    std::vector<int> items = {10, 11, 12, 13};
    sel.select(2);
    sel.remove(items, 0);  // before it: it follows its item
    CHECK(sel.selected() == 1);
    CHECK(items[static_cast<size_t>(sel.selected())] == 12);
    sel.remove(items, 2);  // after it: unchanged
    CHECK(sel.selected() == 1);
    CHECK(items == std::vector<int>{11, 12});
    sel.remove(items, 1);  // itself: dropped
    CHECK(sel.selected() == -1);
    CHECK(items == std::vector<int>{11});
    CHECK_FALSE(sel.remove_selected(items));
    items = {20, 21, 22};
    sel.select(1);
    CHECK(sel.has_selection(items));
    CHECK(sel.remove_selected(items));
    CHECK(items == std::vector<int>{20, 22});
    CHECK(sel.selected() == -1);
    sel.select(4);
    CHECK(sel.clamp(items));
    CHECK(sel.selected() == -1);
    sel.select(1);
    CHECK_FALSE(sel.clamp(items));
    CHECK(sel.selected() == 1);
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
    VolumeTool t;
    std::vector<nav::ConvexVolume> vols;
    place_round_15(t, vols);
    REQUIRE(p.set_input(&nav::BakeInputs::volumes, vols));
    REQUIRE(p.run());
    const auto with = p.snapshot();
    REQUIRE(with->navmesh);
    CHECK(with->stages_run.front() == nav::Stage::Areas);
    int touched = 0;
    const std::array<float, 4> bx = box_of(vols[0]);
    for (size_t i = 0; i < with->tiles.size(); ++i) {
        const bool meets = box_meets_tile(bx, with->tiles[i]->config);
        touched += meets;
        CHECK((with->tiles[i]->tile != before->tiles[i]->tile) == meets);
    }
    CHECK(touched >= 1);
    CHECK(touched < static_cast<int>(with->tiles.size()));
    CHECK(with->tiles_rebaked.size() == static_cast<size_t>(touched));
    // the polygon under the volume's middle is water, one well outside it is not
    CHECK(area_at(with->navmesh.get(), 15.0f, 15.0f) == nav::kAreaWater);
    CHECK(area_at(with->navmesh.get(), 3.0f, 20.0f) == nav::kWalkableArea);
    // removing it (Delete) gives the areas back
    REQUIRE(t.remove_selected(vols));
    REQUIRE(p.set_input(&nav::BakeInputs::volumes, vols));
    REQUIRE(p.run());
    CHECK(area_at(p.snapshot()->navmesh.get(), 15.0f, 15.0f) == nav::kWalkableArea);
}

TEST_CASE("volume tool: pick_volume_point takes the nearest hull point's edge within the grab radius") {
    const nav::ConvexVolume v = square(0, 0, 4, 4, -1, 2);
    const float down[3] = {0, -1, 0};
    const float near1[3] = {4.2f, 20, 0.1f}, middle[3] = {2, 20, 2}, far1[3] = {4.5f, 20, 0};
    CHECK(navdebug::pick_volume_point(v, near1, down, 0.3f) == 1);
    CHECK(navdebug::pick_volume_point(v, middle, down, 0.3f) == -1);
    CHECK(navdebug::pick_volume_point(v, far1, down, 0.3f) == -1);
    CHECK(navdebug::pick_volume_point(v, far1, down, 0.6f) == 1);
    // from the side along z = 4 through two edges: the first along the ray
    const float side[3] = {-6, 0, 4}, east[3] = {3, 0, 0}, west_side[3] = {10, 0, 4}, west[3] = {-1, 0, 0};
    CHECK(navdebug::pick_volume_point(v, side, east, 0.3f) == 3);
    CHECK(navdebug::pick_volume_point(v, west_side, west, 0.3f) == 2);
    // above hmax (2) by 1 m, the edge ends below the ray: out of a 0.3 m reach, within 1.2 m
    const float over[3] = {-6, 3, 4};
    CHECK(navdebug::pick_volume_point(v, over, east, 0.3f) == -1);
    CHECK(navdebug::pick_volume_point(v, over, east, 1.2f) == 3);
    // behind the ray's origin: not picked
    const float past[3] = {6, 0, 4};
    CHECK(navdebug::pick_volume_point(v, past, east, 0.3f) == -1);
}

TEST_CASE("volume tool: move_volume_point and remove_volume_point re-hull the points") {
    const nav::ConvexVolume v = square(0, 0, 4, 4, -1, 2, nav::kAreaGrass);
    nav::ConvexVolume out;
    REQUIRE(navdebug::move_volume_point(v, 2, 6, 5, out));
    CHECK(xz_of(out).size() == 4);
    CHECK(has_xz(out, 6, 5));
    CHECK_FALSE(has_xz(out, 4, 4));
    CHECK(out.hmin == v.hmin);
    CHECK(out.hmax == v.hmax);
    CHECK(out.area == v.area);
    for (size_t k = 1; k < out.verts.size(); k += 3) CHECK(out.verts[k] == v.hmin);
    CHECK(nav::validate_volume(out, "moved"));
    // inside the others' hull: the point drops out
    REQUIRE(navdebug::move_volume_point(v, 2, 1, 1, out));
    CHECK(xz_of(out).size() == 3);
    CHECK_FALSE(has_xz(out, 1, 1));
    CHECK(nav::validate_volume(out, "moved in"));
    // a triangle's point onto the line of the others: no polygon, `out` as it was
    const nav::ConvexVolume tri = out;
    nav::ConvexVolume kept = v;
    const nav::Status st = navdebug::move_volume_point(tri, 1, 0, 2, kept);
    CHECK_FALSE(st);
    CHECK(st.message.find("line") != std::string::npos);
    CHECK(kept == v);
    CHECK(navdebug::move_volume_point(v, 4, 0, 0, out).message.find("no point 4") != std::string::npos);
    CHECK_FALSE(navdebug::move_volume_point(v, 0, std::numeric_limits<float>::quiet_NaN(), 0, out));
    // removing: the hull of the rest, never below 3 points
    REQUIRE(navdebug::remove_volume_point(v, 0, out));
    CHECK(xz_of(out).size() == 3);
    CHECK_FALSE(has_xz(out, 0, 0));
    CHECK(nav::validate_volume(out, "removed"));
    CHECK(navdebug::remove_volume_point(out, 0, out).message.find("at least 3 points") != std::string::npos);
}

TEST_CASE("volume tool: dragging a hull point of the selected volume moves it, the hull follows") {
    VolumeTool t;
    std::vector<nav::ConvexVolume> vols = {square(0, 0, 4, 4, -1, 2), square(10, 0, 14, 4, -1, 2, nav::kAreaGrass)};
    // nothing selected: a press at a corner only selects
    CHECK(click(t, vols, 3.9f, 0, 3.9f, 0.3f) == Press::Selected);
    CHECK_FALSE(t.dragging());
    CHECK(click(t, vols, 3.9f, 0, 4.1f, 0.3f) == Press::Grabbed);
    CHECK(t.dragging());
    CHECK(t.selected() == 0);
    REQUIRE(t.dragged_point());
    CHECK(drag(t, vols, 6, 0, 6));
    CHECK(has_xz(vols[0], 6, 6));
    CHECK_FALSE(has_xz(vols[0], 4, 4));
    CHECK(xz_of(vols[0]).size() == 4);
    // the same point again: no change
    CHECK_FALSE(drag(t, vols, 6, 0, 6));
    // inside the others' hull: dropped while it is there, the dragged point still shown
    CHECK(drag(t, vols, 1, 0.5f, 1));
    CHECK(xz_of(vols[0]).size() == 3);
    CHECK(t.dragged_point()[0] == 1.0f);
    CHECK(t.dragged_point()[1] == 0.5f);
    // and out again: back in the hull (the drag works on the volume as it was grabbed)
    CHECK(drag(t, vols, 5, 0, 5));
    CHECK(xz_of(vols[0]).size() == 4);
    CHECK(has_xz(vols[0], 5, 5));
    t.release();
    CHECK_FALSE(t.dragging());
    CHECK_FALSE(t.dragged_point());
    CHECK_FALSE(drag(t, vols, 7, 0, 7));
    CHECK(has_xz(vols[0], 5, 5));
    CHECK(vols[0].hmin == -1.0f);
    CHECK(vols[0].hmax == 2.0f);
    CHECK(nav::validate_volume(vols[0], "dragged"));
    CHECK(vols[1] == square(10, 0, 14, 4, -1, 2, nav::kAreaGrass));
    // a triangle's point dragged onto the line of the others: the last polygon stays
    std::vector<nav::ConvexVolume> tri = {square(0, 0, 4, 4, -1, 2)};
    tri[0].verts = {0, -1, 0, 4, -1, 0, 0, -1, 4};
    VolumeTool u;
    u.select(0);
    REQUIRE(click(u, tri, 4, 0, 0.1f, 0.3f) == Press::Grabbed);
    CHECK(drag(u, tri, 5, 0, 0));
    const nav::ConvexVolume before = tri[0];
    CHECK_FALSE(drag(u, tri, 0, 0, 2));
    CHECK(tri[0] == before);
}

TEST_CASE("volume tool: dragging inside the selected volume moves it in xz; another volume is only selected") {
    VolumeTool t;
    std::vector<nav::ConvexVolume> vols = {square(0, 0, 4, 4, -1, 2), square(10, 0, 14, 4, -1, 2, nav::kAreaGrass)};
    t.select(0);
    CHECK(click(t, vols, 2, 0, 2, 0.3f) == Press::Moving);
    CHECK(t.dragging());
    CHECK_FALSE(t.dragged_point());
    CHECK(drag(t, vols, 3, 0.7f, 1));
    CHECK(vols[0].verts == square(1, -1, 5, 3, -1, 2).verts);  // y (hmin) kept, x +1, z -1
    CHECK(vols[0].hmin == -1.0f);
    CHECK(drag(t, vols, 2.5f, 0, 2));
    CHECK(vols[0].verts == square(0.5f, 0, 4.5f, 4, -1, 2).verts);
    t.release();
    // a press on the other volume selects it and does not drag it
    CHECK(click(t, vols, 12, 0, 2, 0.3f) == Press::Selected);
    CHECK(t.selected() == 1);
    CHECK_FALSE(t.dragging());
    CHECK_FALSE(drag(t, vols, 13, 0, 2));
    CHECK(vols[1] == square(10, 0, 14, 4, -1, 2, nav::kAreaGrass));
    // on the level outside both: a new volume's first point, as before
    CHECK(click(t, vols, 7, 0, 2, 0.3f) == Press::Point);
    CHECK(t.selected() == -1);
    CHECK_FALSE(t.dragging());
    // a selection dropped (after undo) ends a drag
    t.cancel();
    t.select(1);
    REQUIRE(click(t, vols, 12, 0, 2, 0.3f) == Press::Moving);
    vols.pop_back();
    t.clamp(vols);
    CHECK(t.selected() == -1);
    CHECK_FALSE(t.dragging());
}

TEST_CASE("volume tool: the panel's point edits keep their rows while the hull changes, remove keeps 3") {
    VolumeTool t;
    std::vector<nav::ConvexVolume> vols = {square(0, 0, 4, 4, -1, 2)};
    CHECK(t.listed_points(vols).empty());  // nothing selected
    t.select(0);
    CHECK(t.listed_points(vols) == vols[0].verts);
    t.begin_point_edit(vols, 1);  // (4, 0)
    CHECK_FALSE(t.dragging());    // the panel's edit is no mouse drag in the view
    CHECK(t.set_point_xz(vols, 6, -2));
    CHECK(has_xz(vols[0], 6, -2));
    // through the inside: the volume loses the point, the list keeps its row at the field's value
    CHECK(t.set_point_xz(vols, 2, 2));
    CHECK(xz_of(vols[0]).size() == 3);
    std::vector<float> listed = t.listed_points(vols);
    REQUIRE(listed.size() == 12);
    CHECK(listed[3] == 2.0f);
    CHECK(listed[5] == 2.0f);
    CHECK(t.set_point_xz(vols, 5, -1));
    t.release();  // a mouse release in the view does not end the panel's edit
    CHECK(t.dragged_point());
    t.end_point_edit();
    CHECK_FALSE(t.dragged_point());
    CHECK(t.listed_points(vols) == vols[0].verts);
    CHECK(has_xz(vols[0], 5, -1));
    CHECK_FALSE(t.set_point_xz(vols, 9, 9));  // no edit on
    // remove points down to 3, then refused with the reason
    CHECK(t.remove_point(vols, 0));
    CHECK(xz_of(vols[0]).size() == 3);
    CHECK(nav::validate_volume(vols[0], "removed"));
    CHECK_FALSE(t.remove_point(vols, 0));
    CHECK(t.error().find("at least 3 points") != std::string::npos);
    CHECK(xz_of(vols[0]).size() == 3);
}

TEST_CASE("volume tool: a drag is one undo step, as the app commits once the button is up") {
    VolumeTool t;
    std::vector<nav::ConvexVolume> vols = {square(0, 0, 4, 4, -1, 2)};
    const std::vector<nav::ConvexVolume> start = vols;
    navdebug::UndoStack<std::vector<nav::ConvexVolume>> undo;
    undo.reset(vols);
    t.select(0);
    REQUIRE(click(t, vols, 4, 0, 4, 0.3f) == Press::Grabbed);
    for (float x = 4.5f; x <= 7.0f; x += 0.5f) CHECK(drag(t, vols, x, 0, x));  // a frame each, the button held
    t.release();
    undo.commit(vols);  // the button is up
    REQUIRE(click(t, vols, 2, 0, 2, 0.3f) == Press::Moving);
    for (float dx = 0.5f; dx <= 2.0f; dx += 0.5f) CHECK(drag(t, vols, 2 + dx, 0, 2));
    t.release();
    undo.commit(vols);
    CHECK(undo.undo_steps() == 2);
    const std::vector<nav::ConvexVolume> moved = undo.undo();
    CHECK(has_xz(moved[0], 7, 7));
    CHECK(has_xz(moved[0], 0, 0));
    CHECK(undo.undo() == start);
}

TEST_CASE("volume tool: a dragged hull point re-bakes only the tiles the old and new volume touch") {
    nav::Pipeline p;
    REQUIRE(p.set_mesh(navtest::tile_scene()));
    REQUIRE(p.set_param(nav::ParamId::tile_size, 32));
    VolumeTool t;
    std::vector<nav::ConvexVolume> vols;
    place_round_15(t, vols);
    REQUIRE(p.set_input(&nav::BakeInputs::volumes, vols));
    REQUIRE(p.run());
    const auto before = p.snapshot();
    REQUIRE(before->navmesh);
    const nav::ConvexVolume old = vols[0];
    // grab (17, 16.5) from above and drag it to (20, 19)
    REQUIRE(click(t, vols, 17.0f, 0.0f, 16.6f, 0.3f) == Press::Grabbed);
    REQUIRE(drag(t, vols, 20.0f, 0.0f, 19.0f));
    t.release();
    REQUIRE(has_xz(vols[0], 20.0f, 19.0f));
    REQUIRE(p.set_input(&nav::BakeInputs::volumes, vols));
    REQUIRE(p.run());
    const auto with = p.snapshot();
    REQUIRE(with->navmesh);
    CHECK(with->stages_run.front() == nav::Stage::Areas);
    const std::array<float, 4> b0 = box_of(old), b1 = box_of(vols[0]);
    int changed = 0;
    for (size_t i = 0; i < with->tiles.size(); ++i) {
        const nav::BakeConfig& c = with->tiles[i]->config;
        const bool tile_changed = with->tiles[i]->tile != before->tiles[i]->tile;
        changed += tile_changed;
        if (!box_meets_tile(b0, c) && !box_meets_tile(b1, c)) CHECK_FALSE(tile_changed);
    }
    CHECK(changed >= 1);
    CHECK(changed < static_cast<int>(with->tiles.size()));
    // (18, 17) was outside the volume and is inside now
    CHECK(area_at(before->navmesh.get(), 18.0f, 17.0f) == nav::kWalkableArea);
    CHECK(area_at(with->navmesh.get(), 18.0f, 17.0f) == nav::kAreaWater);
    CHECK(area_at(with->navmesh.get(), 15.0f, 15.0f) == nav::kAreaWater);
}

#endif
