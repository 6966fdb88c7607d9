// Element picking and inspection (render/pick.h, render/inspect.h) on small hand-made bakes.
#ifdef NAV_HAVE_RENDER
#include <doctest/doctest.h>

#include <cmath>
#include <initializer_list>
#include <string>

#include "core/bake/filter.h"
#include "core/pipeline/pipeline.h"
#include "render/inspect.h"
#include "render/pick.h"
#include "test_scenes.h"

using namespace nav;
using namespace nav::render;

namespace {

// A 12 x 12 m floor, a 2 x 2 x 3 m box (its top is cut away by the ledge filter at the rim) and a
// deck 3 m above the floor at x, z in [8, 11] (the floor below stays walkable).
std::shared_ptr<const Bake> bake_scene(Stage to = kLastStage) {
    Pipeline pipe;
    InputMesh m;
    navtest::add_floor(m, 0, 0, 12, 12, 0);
    navtest::add_box(m, 5, 0, 5, 7, 3, 7);
    navtest::add_box(m, 8, 3.0f, 8, 11, 3.4f, 11);
    REQUIRE(pipe.set_mesh(std::move(m)));
    REQUIRE(pipe.run(to));
    return pipe.snapshot();
}

Element down(const Bake& b, Layer l, float x, float z) {
    const float o[3] = {x, 20.0f, z}, d[3] = {0.0f, -1.0f, 0.0f};
    return pick_ray(b, l, o, d);
}

bool has_line(const ElementText& t, const std::string& s) {
    for (const std::string& l : t.lines)
        if (l.find(s) != std::string::npos) return true;
    return t.title.find(s) != std::string::npos;
}

// xz point in polygon (convex, either winding)
bool inside(const float (*v)[3], int n, float x, float z) {
    int pos = 0, neg = 0;
    for (int i = 0; i < n; ++i) {
        const float* a = v[i];
        const float* b = v[(i + 1) % n];
        const float c = (b[0] - a[0]) * (z - a[2]) - (b[2] - a[2]) * (x - a[0]);
        if (c > 1e-5f) ++pos;
        if (c < -1e-5f) ++neg;
    }
    return pos == 0 || neg == 0;
}

size_t count_color(const std::vector<Vertex>& v, uint32_t c) {
    size_t n = 0;
    for (const Vertex& x : v) n += x.color == c;
    return n;
}

}  // namespace

TEST_CASE("pick: top_pick_layer is the highest enabled layer the bake has, ignoring path") {
    const auto b = bake_scene();
    LayerMask m{};
    CHECK_FALSE(top_pick_layer(*b, m).has_value());
    m[static_cast<size_t>(Layer::Path)] = true;
    CHECK_FALSE(top_pick_layer(*b, m).has_value());
    m[static_cast<size_t>(Layer::Compact)] = true;
    CHECK(top_pick_layer(*b, m) == Layer::Compact);
    m[static_cast<size_t>(Layer::Polymesh)] = true;
    CHECK(top_pick_layer(*b, m) == Layer::Polymesh);
    m[static_cast<size_t>(Layer::Islands)] = true;
    CHECK(top_pick_layer(*b, m) == Layer::Islands);
    // a bake that stopped at the regions: the polygon layers are not there
    const auto partial = bake_scene(Stage::Regions);
    CHECK(top_pick_layer(*partial, m) == Layer::Compact);
}

TEST_CASE("pick: a ray straight down picks the compact span of the cell, at the height the layer draws it") {
    const auto b = bake_scene();
    const CompactHeightfield& chf = *b->compact;
    const float x = 3.15f, z = 9.15f;  // cell (10, 30), plain floor
    for (Layer l : {Layer::Compact, Layer::Regions}) {
        const Element e = down(*b, l, x, z);
        REQUIRE(e.kind == ElementKind::CompactSpan);
        CHECK(e.layer == l);
        CHECK(e.x == 10);
        CHECK(e.z == 30);
        const CompactCell& cell = chf.cells[static_cast<size_t>(e.x + e.z * chf.width)];
        REQUIRE(cell.count == 1);
        CHECK(e.index == cell.index);
        const int k = static_cast<int>(l) - static_cast<int>(Layer::Compact);
        CHECK(e.point[1] == doctest::Approx(chf.bmin[1] + chf.spans[e.index].y * chf.ch + chf.ch * (0.12f + 0.12f * k)));
        CHECK(e.point[0] == doctest::Approx(x));
    }
    const Element e = down(*b, Layer::Regions, x, z);
    const ElementText t = describe_element(*b, e);
    CHECK(t.title == "compact span " + std::to_string(e.index) + ", cell (10, 30)");
    const CompactSpan& sp = chf.spans[e.index];
    CHECK(has_line(t, "floor y " + std::to_string(sp.y)));
    // every link of a floor cell in the open leads to the span of the next cell
    const uint32_t west = chf.neighbour(10, 30, e.index, 0);
    CHECK(has_line(t, "link -x: span " + std::to_string(west)));
    CHECK(has_line(t, "distance " + std::to_string(b->distance->dist[e.index]) + " / "));
    CHECK(has_line(t, "region " + std::to_string(b->regions->reg[e.index])));
    CHECK(has_line(t, "erosion: kept"));
    CHECK(has_line(t, "area (final) ground (63)"));
}

TEST_CASE("pick: stacked floors: the ray takes the upper one, a point the one nearest its height") {
    const auto b = bake_scene();
    const CompactHeightfield& chf = *b->compact;
    const float x = 9.45f, z = 9.45f;  // under / on the deck
    const Element top = down(*b, Layer::Compact, x, z);
    REQUIRE(top.valid());
    CHECK(chf.bmin[1] + chf.spans[top.index].y * chf.ch == doctest::Approx(3.4f).epsilon(0.07));
    const float lo[3] = {x, 0.2f, z}, hi[3] = {x, 3.4f, z};
    const Element a = pick_point(*b, Layer::Compact, lo), c = pick_point(*b, Layer::Compact, hi);
    REQUIRE(a.valid());
    REQUIRE(c.valid());
    CHECK(a.index != c.index);
    CHECK(c.same(top));
    CHECK(chf.spans[a.index].y < chf.spans[c.index].y);
    CHECK(a.x == top.x);
}

TEST_CASE("pick: span boxes: down onto the floor, sideways into the box; filters named") {
    const auto b = bake_scene();
    const Heightfield& hf = *b->solid;
    const Element e = down(*b, Layer::Voxels, 3.15f, 9.15f);
    REQUIRE(e.kind == ElementKind::Span);
    CHECK(e.x == 10);
    CHECK(e.z == 30);
    CHECK(e.sub == 0);
    CHECK(e.index == hf.columns[static_cast<size_t>(10 + 30 * hf.width)]);
    CHECK(e.point[1] == doctest::Approx(hf.bmin[1] + hf.pool[e.index].smax * hf.ch));
    // a horizontal ray at 1 m flies over the floor spans and enters the box at x = 5: cell 16
    const float o[3] = {-1.0f, 1.0f, 6.05f}, d[3] = {1.0f, 0.0f, 0.0f};
    const Element side = pick_ray(*b, Layer::Voxels, o, d);
    REQUIRE(side.kind == ElementKind::Span);
    CHECK(side.x == 16);
    CHECK(side.z == static_cast<int>(std::floor(6.05f / hf.cs)));
    CHECK(hf.pool[side.index].smax >= 15);
    CHECK(side.point[0] == doctest::Approx(16 * hf.cs));
    // the box top's rim is a ledge: the filtered layer says which filter removed it
    const Element rim = down(*b, Layer::Filtered, 5.05f, 6.05f);
    REQUIRE(rim.kind == ElementKind::Span);
    CHECK((b->filtered->pool[rim.index].filtered_by & kFilteredLedge) != 0);
    const ElementText t = describe_element(*b, rim);
    CHECK(has_line(t, "removed by the ledge filter"));
    CHECK(has_line(t, "y 0 .. " + std::to_string(b->filtered->pool[rim.index].smax) + " voxels"));
    CHECK(has_line(t, "area (rasterized): ground (63)"));
    const ElementText floor = describe_element(*b, down(*b, Layer::Voxels, 3.15f, 9.15f));
    CHECK(has_line(floor, "kept by every filter"));
    CHECK(floor.title == "solid span, cell (10, 30)");
}

TEST_CASE("pick: polygons, detail triangles and navmesh polygons under a downward ray") {
    const auto b = bake_scene();
    const PolyMesh& pm = *b->polymesh;
    const float x = 3.0f, z = 9.0f;
    const Element e = down(*b, Layer::Polymesh, x, z);
    REQUIRE(e.kind == ElementKind::Polygon);
    const uint16_t* p = pm.poly(static_cast<int>(e.index));
    const int n = pm.poly_vert_count(static_cast<int>(e.index));
    float v[kMaxVertsPerPoly][3];
    for (int k = 0; k < n; ++k)
        for (int a = 0; a < 3; ++a)
            v[k][a] = pm.bmin[a] + pm.verts[static_cast<size_t>(p[k]) * 3 + static_cast<size_t>(a)] * (a == 1 ? pm.ch : pm.cs);
    CHECK(inside(v, n, x, z));
    CHECK(e.point[1] == doctest::Approx(v[0][1] + pm.ch));  // drawn one cell height up, flat floor
    const ElementText t = describe_element(*b, e);
    CHECK(t.title == "polygon " + std::to_string(e.index));
    CHECK(has_line(t, std::to_string(n) + " vertices"));
    CHECK(has_line(t, "region " + std::to_string(pm.regs[e.index])));
    for (int k = 0; k < n; ++k) {
        const uint16_t nei = p[pm.nvp + k];
        const std::string what = nei == kMeshNullIdx ? "wall" : "polygon " + std::to_string(nei);
        CHECK(has_line(t, "edge v" + std::to_string(k) + "-v" + std::to_string((k + 1) % n) + ": " + what));
    }

    const Element dt = down(*b, Layer::Detail, x, z);
    REQUIRE(dt.kind == ElementKind::DetailTri);
    CHECK(dt.index == e.index);
    const PolyMeshDetail& d = *b->detail;
    const uint32_t* md = &d.meshes[static_cast<size_t>(dt.index) * 4];
    REQUIRE(dt.sub < md[3]);
    const uint8_t* tri = &d.tris[static_cast<size_t>(md[2] + dt.sub) * 4];
    float tv[3][3];
    for (int k = 0; k < 3; ++k)
        for (int a = 0; a < 3; ++a) tv[k][a] = d.verts[static_cast<size_t>(md[0] + tri[k]) * 3 + static_cast<size_t>(a)];
    CHECK(inside(tv, 3, x, z));
    char heights[64];
    std::snprintf(heights, sizeof heights, "heights %.3f, %.3f, %.3f m", tv[0][1], tv[1][1], tv[2][1]);
    const ElementText dtt = describe_element(*b, dt);
    CHECK(has_line(dtt, heights));
    CHECK(dtt.title == "detail triangle " + std::to_string(dt.sub) + " of polygon " + std::to_string(dt.index));

    for (Layer l : {Layer::Navmesh, Layer::Islands}) {
        const Element np = down(*b, l, x, z);
        REQUIRE(np.kind == ElementKind::NavPoly);
        CHECK(np.layer == l);
        CHECK(np.index == e.index);  // the navmesh keeps the polygon order
        const ElementText nt = describe_element(*b, np);
        CHECK(has_line(nt, "island " + std::to_string(b->navmesh->poly_island[np.index])));
        CHECK(has_line(nt, "flags 0x0001"));
        CHECK(has_line(nt, "area ground (63)"));
    }
}

TEST_CASE("pick: contour vertices near the ray (within a cell), nothing away from them") {
    const auto b = bake_scene();
    const ContourSet& cs = *b->contours;
    REQUIRE(!cs.contours.empty());
    const Contour& c = cs.contours[0];
    REQUIRE(c.nverts >= 3);
    const int32_t* v = &cs.verts[static_cast<size_t>(c.vert_start) * 4 + 4];  // vertex 1
    const float wx = cs.bmin[0] + v[0] * cs.cs, wz = cs.bmin[2] + v[2] * cs.cs;
    const Element e = down(*b, Layer::Contours, wx + 0.1f, wz - 0.1f);
    REQUIRE(e.kind == ElementKind::ContourVertex);
    const Contour& ec = cs.contours[e.index];
    const int32_t* ev = &cs.verts[(static_cast<size_t>(ec.vert_start) + e.sub) * 4];
    CHECK(ev[0] == v[0]);
    CHECK(ev[2] == v[2]);
    CHECK(e.point[1] == doctest::Approx(cs.bmin[1] + (ev[1] + 1) * cs.ch));
    const ElementText t = describe_element(*b, e);
    char pos[64];
    std::snprintf(pos, sizeof pos, "voxel (%d, %d, %d)", ev[0], ev[1], ev[2]);
    CHECK(has_line(t, pos));
    CHECK(has_line(t, "flags 0x"));
    CHECK(has_line(t, (ev[3] & kContourRegMask) ? "neighbour region" : "wall"));
    CHECK(has_line(t, "contour " + std::to_string(e.index) + ": region"));
    // the raw layer picks from the raw loops
    const Element raw = down(*b, Layer::RawContours, wx, wz);
    REQUIRE(raw.kind == ElementKind::ContourVertex);
    CHECK(raw.sub < cs.contours[raw.index].nraw);
    // a point further than a cell from every vertex: nothing
    float qx = 0.0f, qz = 0.0f;
    bool found = false;
    for (float tx = 0.5f; tx < 12.0f && !found; tx += 0.35f)
        for (float tz = 0.5f; tz < 12.0f && !found; tz += 0.35f) {
            bool near = false;
            for (size_t i = 0; i + 3 < cs.verts.size(); i += 4) {
                const float dx = cs.bmin[0] + cs.verts[i] * cs.cs - tx, dz = cs.bmin[2] + cs.verts[i + 2] * cs.cs - tz;
                near = near || dx * dx + dz * dz < 4.0f * cs.cs * cs.cs;
            }
            if (!near) {
                qx = tx;
                qz = tz;
                found = true;
            }
        }
    REQUIRE(found);
    CHECK_FALSE(down(*b, Layer::Contours, qx, qz).valid());
}

TEST_CASE("pick: rays that miss everything pick nothing") {
    const auto b = bake_scene();
    const float up_o[3] = {3.0f, 5.0f, 9.0f}, up_d[3] = {0.0f, 1.0f, 0.0f};
    const float out_o[3] = {30.0f, 20.0f, 30.0f}, out_d[3] = {0.0f, -1.0f, 0.0f};
    const float away_o[3] = {-5.0f, 1.0f, 3.0f}, away_d[3] = {-1.0f, 0.2f, 0.0f};
    for (int i = 0; i < kLayerCount; ++i) {
        const auto l = static_cast<Layer>(i);
        CAPTURE(layer_name(l));
        CHECK_FALSE(pick_ray(*b, l, up_o, up_d).valid());
        CHECK_FALSE(pick_ray(*b, l, out_o, out_d).valid());
        CHECK_FALSE(pick_ray(*b, l, away_o, away_d).valid());
        const float far[3] = {40.0f, 0.2f, 40.0f};
        CHECK_FALSE(pick_point(*b, l, far).valid());
    }
}

TEST_CASE("inspect: the pinned overlay is yellow with the neighbours, the hovered one is not") {
    const auto b = bake_scene();
    const Element e = down(*b, Layer::Polymesh, 3.0f, 9.0f);
    REQUIRE(e.valid());
    DrawList hover, pin;
    build_element_overlay(*b, e, false, hover);
    build_element_overlay(*b, e, true, pin);
    const int n = b->polymesh->poly_vert_count(static_cast<int>(e.index));
    CHECK(count_color(hover.line_verts, colors::kInspectHover) == static_cast<size_t>(2 * n));
    CHECK(count_color(hover.line_verts, colors::kInspectPinned) == 0);
    CHECK(hover.tri_indices.empty());
    CHECK(count_color(pin.line_verts, colors::kInspectPinned) >= static_cast<size_t>(2 * n));
    CHECK(count_color(pin.tri_verts, colors::kInspectPinned) >= static_cast<size_t>(4 * n));  // ribbons: thicker
    bool has_neighbour = false;
    const uint16_t* p = b->polymesh->poly(static_cast<int>(e.index));
    for (int k = 0; k < n; ++k) has_neighbour = has_neighbour || p[b->polymesh->nvp + k] != kMeshNullIdx;
    CHECK((count_color(pin.line_verts, colors::kInspectNeighbour) > 0) == has_neighbour);
    // a compact span pinned shows its four links
    const Element s = down(*b, Layer::Compact, 3.15f, 9.15f);
    DrawList sp;
    build_element_overlay(*b, s, true, sp);
    CHECK(count_color(sp.line_verts, colors::kInspectNeighbour) == 4 * 5 * 2);  // per link: a line and a cell outline
    // an element of another bake (index out of range) draws nothing
    Element bogus = e;
    bogus.index = 1u << 30;
    DrawList none;
    build_element_overlay(*b, bogus, true, none);
    CHECK(none.empty());
    CHECK(describe_element(*b, bogus).title.empty());
}

TEST_CASE("inspect: element_anchor picks the same element again from its point") {
    const auto b = bake_scene();
    const float o[3] = {1.0f, 6.0f, 2.0f}, d[3] = {0.4f, -1.0f, 0.5f};  // slanted, like a camera ray
    for (Layer l : {Layer::Voxels, Layer::Filtered, Layer::Compact, Layer::Distance, Layer::Polymesh, Layer::Detail,
                    Layer::Navmesh, Layer::Contours, Layer::Input}) {
        CAPTURE(layer_name(l));
        const Element e = pick_ray(*b, l, o, d);
        if (l == Layer::Contours) {
            if (!e.valid()) continue;  // the slanted ray need not pass a vertex
        }
        REQUIRE(e.valid());
        float a[3];
        element_anchor(*b, e, a);
        const Element again = pick_point(*b, l, a);
        CHECK(again.same(e));
    }
}

TEST_CASE("pick: a tiled bake picks the per-grid layers through its tiles, and inspects them") {
    // the same scene in 16-cell tiles (3 x 3 of them over the 40 x 40 cell grid)
    Pipeline pipe;
    InputMesh m;
    navtest::add_floor(m, 0, 0, 12, 12, 0);
    navtest::add_box(m, 5, 0, 5, 7, 3, 7);
    navtest::add_box(m, 8, 3.0f, 8, 11, 3.4f, 11);
    REQUIRE(pipe.set_mesh(std::move(m)));
    REQUIRE(pipe.set_param("tile_size", "16"));
    REQUIRE(pipe.run());
    const auto b = pipe.snapshot();
    REQUIRE(b->tiled());
    REQUIRE(b->layout.count() > 1);
    REQUIRE(b->solid == nullptr);  // the solo fields stay null: picking must go through the tiles
    REQUIRE(b->polymesh == nullptr);
    const float x = 2.0f, z = 9.5f;  // on the floor, in the tile at column 0, row 2
    for (Layer l : {Layer::Voxels, Layer::Filtered, Layer::Compact, Layer::Eroded, Layer::Areas, Layer::Distance,
                    Layer::Regions, Layer::Polymesh, Layer::Detail}) {
        CAPTURE(layer_name(l));
        const Element e = down(*b, l, x, z);
        REQUIRE(e.valid());
        REQUIRE(e.tile >= 0);
        const TileBake& t = *b->tiles[static_cast<size_t>(e.tile)];
        float box[4];
        tile_box(b->config, b->layout, t.tx, t.tz, box);
        CHECK(x >= box[0]);  // the tile whose own box holds the point, not a neighbour's border
        CHECK(x <= box[2]);
        CHECK(z >= box[1]);
        CHECK(z <= box[3]);
        CHECK(std::fabs(e.point[1]) < 1.0f);  // on the floor, not the deck or the box
        CHECK(element_exists(*b, e));
        const ElementText text = describe_element(*b, e);
        CHECK(text.title.rfind("tile " + std::to_string(t.tx) + "," + std::to_string(t.tz) + ": ", 0) == 0);
        // the element in the tile's own grid, described as in a solo bake of that tile
        const Bake v = tile_view(*b, t);
        Element solo = e;
        solo.tile = -1;
        CHECK(describe_element(v, solo).lines == text.lines);
        DrawList hi;
        build_element_overlay(*b, e, true, hi);
        CHECK_FALSE(hi.empty());
        float a[3];
        element_anchor(*b, e, a);
        CHECK(pick_point(*b, l, a).same(e));
    }
    // the polygon under the point lies around it in world units
    const Element pe = down(*b, Layer::Polymesh, x, z);
    REQUIRE(pe.kind == ElementKind::Polygon);
    const PolyMesh& pm = *b->tiles[static_cast<size_t>(pe.tile)]->polymesh;
    const uint16_t* p = pm.poly(static_cast<int>(pe.index));
    const int n = pm.poly_vert_count(static_cast<int>(pe.index));
    float v[kMaxVertsPerPoly][3];
    for (int k = 0; k < n; ++k)
        for (int ax = 0; ax < 3; ++ax)
            v[k][ax] = pm.bmin[ax] + pm.verts[static_cast<size_t>(p[k]) * 3 + static_cast<size_t>(ax)] * (ax == 1 ? pm.ch : pm.cs);
    CHECK(inside(v, n, x, z));
    // the whole-mesh layers keep no tile
    const Element nav = down(*b, Layer::Navmesh, x, z);
    REQUIRE(nav.valid());
    CHECK(nav.tile == -1);
    // an element whose tile is gone is not there
    Element gone = pe;
    gone.tile = b->layout.count();
    CHECK_FALSE(element_exists(*b, gone));
    CHECK(describe_element(*b, gone).title.empty());
}

TEST_CASE("pick: clicks go through what the view does not draw (culled, ceilings, clip, section)") {
    // indoor.obj from above the roof, straight down at x = 6.5, z = -6 (the east ring slabs): the
    // roof (faces down, into the room) first, then floor 3 at 7.3, floor 2 at 3.7, the ground floor
    nav::InputMesh mesh;
    REQUIRE(nav::load_obj(std::string(NAV_SOURCE_DIR) + "/assets/indoor.obj", mesh));
    const float o[3] = {6.5f, 20.0f, -6.0f}, d[3] = {0.0f, -1.0f, 0.0f};
    auto hit_y = [&](const nav::render::PickVisibility& vis) {
        float t = 0.0f;
        return nav::render::raycast_mesh(mesh, o, d, t, vis) ? o[1] - t : -100.0f;
    };
    nav::render::PickVisibility all;
    CHECK(hit_y(all) == doctest::Approx(10.5f));  // two-sided: the roof
    float t = 0.0f;
    REQUIRE(nav::render::raycast_mesh(mesh, o, d, t));
    CHECK(o[1] - t == doctest::Approx(10.5f));   // the plain overload is the same as no filter
    nav::render::PickVisibility cull;
    cull.cull_back = true;  // the roof faces down into the room: from above it is its back
    CHECK(hit_y(cull) == doctest::Approx(7.3f));
    nav::render::PickVisibility ceilings;
    ceilings.hide_ceilings = true;  // the roof is a ceiling below the eye
    CHECK(hit_y(ceilings) == doctest::Approx(7.3f));
    nav::render::PickVisibility clip = cull;
    clip.clip = true;
    clip.clip_min = 3.4f;
    clip.clip_max = 6.0f;  // floor 2 only (--clip-floor at 3.7)
    CHECK(hit_y(clip) == doctest::Approx(3.7f));
    nav::render::PickVisibility section = cull;
    section.section = true;  // cut away x > 0: the ray at x = 6.5 meets nothing
    section.normal[0] = 1.0f;
    CHECK(hit_y(section) == doctest::Approx(-100.0f));
    section.normal[0] = -1.0f;  // cut away x < 0 instead: the ray keeps its hits
    CHECK(hit_y(section) == doctest::Approx(7.3f));
}

TEST_CASE("pick: raycast_drawn hits only what the shown layers draw (a hidden input is not hit)") {
    const auto b = bake_scene();
    const PickVisibility vis;
    auto hit_y = [&](const LayerMask& shown, float x, float z, const PickVisibility& v) {
        const float o[3] = {x, 20.0f, z}, d[3] = {0.0f, -1.0f, 0.0f};
        float t = 0.0f;
        return raycast_drawn(*b, shown, o, d, t, v) ? o[1] - t : -100.0f;
    };
    auto only = [](std::initializer_list<Layer> ls) {
        LayerMask m{};
        for (Layer l : ls) m[static_cast<size_t>(l)] = true;
        return m;
    };
    // the input shown: its triangles, as raycast_mesh hits them (the box top at 3 m, the floor)
    CHECK(hit_y(only({Layer::Input}), 6.0f, 6.0f, vis) == doctest::Approx(3.0f));
    CHECK(hit_y(only({Layer::Input}), 2.0f, 2.0f, vis) == doctest::Approx(0.0f));
    // nothing pickable shown (no layer, or only the path and the tiles overlay): no hit
    CHECK(hit_y(only({}), 2.0f, 2.0f, vis) == -100.0f);
    CHECK(hit_y(only({Layer::Path, Layer::Tiles}), 2.0f, 2.0f, vis) == -100.0f);
    // the input hidden, the navmesh shown: the navmesh's surface, lifted as layers.cpp draws it;
    // over the box (no navmesh on its top, none under it) the hidden box is not hit
    const LayerMask nav = only({Layer::Navmesh});
    const Element floor = down(*b, Layer::Navmesh, 2.0f, 2.0f);
    REQUIRE(floor.valid());
    CHECK(hit_y(nav, 2.0f, 2.0f, vis) == doctest::Approx(floor.point[1]));
    CHECK(floor.point[1] > 0.0f);
    CHECK(floor.point[1] < 0.5f);
    const Element top = down(*b, Layer::Navmesh, 6.0f, 6.0f);
    CHECK_FALSE(top.valid());
    CHECK(hit_y(nav, 6.0f, 6.0f, vis) == -100.0f);
    // under the deck: the input hits the deck's top at 3.4 m; with the input hidden the pick goes
    // through it to the navmesh drawn there (the floor's under the deck, as pick_ray finds it)
    CHECK(hit_y(only({Layer::Input}), 9.5f, 9.5f, vis) == doctest::Approx(3.4f));
    const Element under = down(*b, Layer::Navmesh, 9.5f, 9.5f);
    REQUIRE(under.valid());
    CHECK(hit_y(nav, 9.5f, 9.5f, vis) == doctest::Approx(under.point[1]));
    CHECK(under.point[1] < 3.0f);
    // detail and polygon layers hit at their own heights; the nearest shown layer wins
    const float detail_y = hit_y(only({Layer::Detail}), 2.0f, 2.0f, vis);
    CHECK(detail_y > 0.0f);
    CHECK(detail_y < 0.5f);
    CHECK(hit_y(only({Layer::Detail, Layer::Input}), 2.0f, 2.0f, vis) == doctest::Approx(detail_y));
    CHECK(hit_y(only({Layer::Regions}), 2.0f, 2.0f, vis) > 0.0f);
    // the clip cuts the layers as it cuts the view: between 2 and 5 m the floor's navmesh is gone,
    // between -1 and 1 m it stays
    PickVisibility clip;
    clip.clip = true;
    clip.clip_min = 2.0f;
    clip.clip_max = 5.0f;
    CHECK(hit_y(nav, 2.0f, 2.0f, clip) == -100.0f);
    clip.clip_min = -1.0f;
    clip.clip_max = 1.0f;
    CHECK(hit_y(nav, 2.0f, 2.0f, clip) == doctest::Approx(floor.point[1]));
    // a clipped upper floor does not hide the lower one the view shows through it: the deck's
    // spans (3.4 m) are hit first, cut away by the clip, and the ray goes on to the floor's (the
    // deck is too small for a navmesh polygon of its own)
    for (Layer l : {Layer::Compact, Layer::Regions}) {
        CAPTURE(static_cast<int>(l));
        const float upper = hit_y(only({l}), 9.5f, 9.5f, vis);
        CHECK(upper > 3.0f);
        const float lower = hit_y(only({l}), 9.5f, 9.5f, clip);
        CHECK(lower > -0.5f);
        CHECK(lower < 1.0f);
    }
}

#endif  // NAV_HAVE_RENDER
