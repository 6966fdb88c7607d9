// Automatic off-mesh links (core/bake/auto_links.h) on generated scenes with ledges and gaps of
// known sizes: exactly the links the documented sampling rule gives, none longer than the limits,
// none through a wall, and the rejected candidates with their reasons.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "core/bake/auto_links.h"
#include "core/pipeline/pipeline.h"
#include "test_scenes.h"
#ifdef NAV_HAVE_RENDER
#include "render/layers.h"
#include "render/links_draw.h"
#endif

using namespace nav;

namespace {

// Agent for every scene: radius 0.3 m, height 2 m, climb 0.4 m; 0.1 m voxels.
constexpr float kRadius = 0.3f, kHeight = 2.0f, kClimb = 0.4f;

void set_agent(Pipeline& p) {
    REQUIRE(p.set_param(ParamId::cell_size, 0.1));
    REQUIRE(p.set_param(ParamId::cell_height, 0.1));
    REQUIRE(p.set_param(ParamId::agent_radius, kRadius));
    REQUIRE(p.set_param(ParamId::agent_height, kHeight));
    REQUIRE(p.set_param(ParamId::agent_max_climb, kClimb));
}

std::shared_ptr<const Bake> bake(const InputMesh& m, double drop = 0, double jump = 0, int tile_size = 0) {
    Pipeline p;
    REQUIRE(p.set_mesh(m));
    set_agent(p);
    REQUIRE(p.set_param(ParamId::link_drop_height, drop));
    REQUIRE(p.set_param(ParamId::link_jump_distance, jump));
    REQUIRE(p.set_param(ParamId::tile_size, tile_size));
    REQUIRE(p.run());
    auto b = p.snapshot();
    REQUIRE(b->navmesh);
    return b;
}

AutoLinkParams agent(float drop, float jump) {
    AutoLinkParams a;
    a.drop_height = drop;
    a.jump_distance = jump;
    a.agent_height = kHeight;
    a.agent_radius = kRadius;
    a.agent_climb = kClimb;
    a.spacing = 1.0f;  // lattice points at whole metres
    return a;
}

// A 6 x 10 m platform 1.5 m high ([0,6] x [0,10]) on a 12 x 10 m floor: one ledge, at x = 6,
// 10 m long, over the floor; the platform's other sides drop into nothing.
InputMesh ledge_scene() {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 12, 10, 0);
    navtest::add_box(m, 0, 0, 0, 6, 1.5f, 10);
    m.compute_bounds();
    return m;
}

// Two 5 x 6 m platforms 1 m high with a gap of 1.2 m between them in x and nothing below.
// With `wall`, a 0.4 m thick, 3 m high wall stands in the middle of the gap.
InputMesh gap_scene(bool wall) {
    InputMesh m;
    navtest::add_box(m, 0, 0, 0, 5, 1, 6);
    navtest::add_box(m, 6.2f, 0, 0, 11.2f, 1, 6);
    if (wall) navtest::add_box(m, 5.4f, 0, -1, 5.8f, 3, 7);
    m.compute_bounds();
    return m;
}

float hdist(const float* a, const float* b) { return std::hypot(a[0] - b[0], a[2] - b[2]); }

// The segment a-b in xz crosses the box [x0,x1] x [z0,z1] below height ytop (sampled).
bool crosses_box(const float* a, const float* b, float x0, float x1, float z0, float z1, float ytop) {
    for (int i = 0; i <= 100; ++i) {
        const float t = static_cast<float>(i) / 100.0f;
        const float x = a[0] + (b[0] - a[0]) * t, z = a[2] + (b[2] - a[2]) * t, y = a[1] + (b[1] - a[1]) * t;
        if (x > x0 && x < x1 && z > z0 && z < z1 && y < ytop) return true;
    }
    return false;
}

int count_reason(const AutoLinks& l, LinkReject r) {
    int n = 0;
    for (const RejectedLink& k : l.rejected) n += k.reason == r;
    return n;
}

}  // namespace

TEST_CASE("auto links: drop links from a 1.5 m ledge, one per metre of ledge, one-way, down to the floor") {
    const InputMesh m = ledge_scene();
    auto b = bake(m);
    AutoLinks out;
    REQUIRE(generate_auto_links(*b->navmesh, m, agent(2, 0), out));
    // The ledge's navmesh edge lies at x = 5.7 for z in [0.4, 9.6] (the voxel erosion takes 0.4 m at
    // the platform's corners): lattice points z = 1 .. 9.
    CHECK(out.links.size() == 9);
    CHECK(out.rejected.empty());
    std::vector<float> zs;
    for (size_t i = 0; i < out.links.size(); ++i) {
        const OffMeshLink& l = out.links[i];
        CHECK(out.link_is_jump[i] == 0);
        CHECK_FALSE(l.bidir);
        CHECK(l.area == kAreaJump);
        CHECK(l.start[0] == doctest::Approx(6 - kRadius).epsilon(0.02));
        CHECK(l.start[1] == doctest::Approx(1.5).epsilon(0.05));
        CHECK(l.end[1] == doctest::Approx(0).epsilon(0.1));
        CHECK(l.end[0] > 6.0f);
        CHECK(l.start[1] - l.end[1] <= 2.0f);           // not deeper than the limit
        CHECK(hdist(l.start, l.end) <= 2 * kRadius + 0.5f + 1e-4f);  // within drop reach
        zs.push_back(l.start[2]);
    }
    for (size_t i = 0; i < zs.size(); ++i) CHECK(zs[i] == doctest::Approx(1.0 + static_cast<double>(i)).epsilon(1e-4));
}

TEST_CASE("auto links: a drop deeper than the limit gives no link and is rejected DropTooHigh") {
    const InputMesh m = ledge_scene();
    auto b = bake(m);
    AutoLinks out;
    REQUIRE(generate_auto_links(*b->navmesh, m, agent(1, 0), out));
    CHECK(out.links.empty());
    CHECK(out.rejected.size() == 9);
    CHECK(count_reason(out, LinkReject::DropTooHigh) == 9);
    // Beyond twice the limit nothing is recorded.
    REQUIRE(generate_auto_links(*b->navmesh, m, agent(0.5f, 0), out));
    CHECK(out.links.empty());
    CHECK(out.rejected.empty());
}

TEST_CASE("auto links: a 1.2 m gap gives two-way jumps within a 2 m limit, GapTooWide under 1 m") {
    const InputMesh m = gap_scene(false);
    auto b = bake(m);
    AutoLinks out;
    REQUIRE(generate_auto_links(*b->navmesh, m, agent(0, 2), out));
    // The gap's edges run along z in about [0.4, 5.6]: lattice points z = 1 .. 5, one link each (the side
    // whose outward normal points to +x evaluates the two-way candidates).
    CHECK(out.links.size() == 5);
    CHECK(out.rejected.empty());
    for (size_t i = 0; i < out.links.size(); ++i) {
        const OffMeshLink& l = out.links[i];
        CHECK(out.link_is_jump[i] == 1);
        CHECK(l.bidir);
        CHECK(l.start[0] == doctest::Approx(5 - kRadius).epsilon(0.02));
        CHECK(l.end[0] == doctest::Approx(6.2 + kRadius).epsilon(0.02));
        CHECK(l.start[2] == doctest::Approx(1.0 + static_cast<double>(i)).epsilon(1e-4));
        CHECK(hdist(l.start, l.end) - 2 * kRadius <= 2.0f + 1e-4f);  // gap within the limit
        CHECK(std::fabs(l.end[1] - l.start[1]) <= kClimb);
    }
    REQUIRE(generate_auto_links(*b->navmesh, m, agent(0, 1), out));
    CHECK(out.links.empty());
    CHECK(out.rejected.size() == 5);
    CHECK(count_reason(out, LinkReject::GapTooWide) == 5);
    for (const RejectedLink& r : out.rejected) CHECK(r.jump);
    // A gap beyond twice the limit is not recorded.
    REQUIRE(generate_auto_links(*b->navmesh, m, agent(0, 0.5f), out));
    CHECK(out.links.empty());
    CHECK(out.rejected.empty());
}

TEST_CASE("auto links: a wall across the gap blocks every jump, ArcBlocked at the wall") {
    const InputMesh m = gap_scene(true);
    auto b = bake(m);
    AutoLinks out;
    REQUIRE(generate_auto_links(*b->navmesh, m, agent(0, 2), out));
    CHECK(out.links.empty());
    CHECK(out.rejected.size() == 5);
    CHECK(count_reason(out, LinkReject::ArcBlocked) == 5);
    for (const RejectedLink& r : out.rejected) {
        CHECK(r.point[0] >= 5.4f - 1e-3f);  // on the wall
        CHECK(r.point[0] <= 5.8f + 1e-3f);
        CHECK(r.point[1] <= 3.0f + 1e-3f);
        CHECK(r.point[1] >= 1.0f);
    }
}

TEST_CASE("auto links: drops and jumps together; no link is longer than the limits or goes through a wall") {
    // The gap scene over a floor 1.8 m below the platforms' tops, the wall only across half of it.
    InputMesh m;
    navtest::add_floor(m, -2, -2, 13, 8, -0.8f);
    navtest::add_box(m, 0, -0.8f, 0, 5, 1, 6);
    navtest::add_box(m, 6.2f, -0.8f, 0, 11.2f, 1, 6);
    navtest::add_box(m, 5.4f, -0.8f, -1, 5.8f, 3, 3);  // wall over z in [-1, 3]
    m.compute_bounds();
    auto b = bake(m);
    AutoLinks out;
    const AutoLinkParams ap = agent(2, 2);
    REQUIRE(generate_auto_links(*b->navmesh, m, ap, out));
    auto on_gap_edge = [](const float* p) { return std::fabs(p[0] - (5 - kRadius)) < 0.05f && p[2] > 0 && p[2] < 6; };
    int jumps = 0, drops = 0;
    for (size_t i = 0; i < out.links.size(); ++i) {
        const OffMeshLink& l = out.links[i];
        if (out.link_is_jump[i]) {
            jumps += on_gap_edge(l.start);
            CHECK(hdist(l.start, l.end) - 2 * kRadius <= ap.jump_distance + 1e-4f);
            CHECK(l.start[2] > 3.0f);  // only where the wall is not
        } else {
            ++drops;
            CHECK(l.start[1] - l.end[1] <= ap.drop_height + 1e-4f);
            CHECK(hdist(l.start, l.end) <= 2 * kRadius + 0.5f + 1e-4f);
        }
        CHECK_FALSE(crosses_box(l.start, l.end, 5.4f, 5.8f, -1, 3, 3));
    }
    // Jumps at z = 4, 5 (the wall covers z < 3 + radius); the blocked ones at z = 1, 2, 3.
    CHECK(jumps == 2);
    int blocked_jumps = 0;
    for (const RejectedLink& r : out.rejected)
        blocked_jumps += r.jump && r.reason == LinkReject::ArcBlocked && on_gap_edge(r.start);
    CHECK(blocked_jumps == 3);
    CHECK(drops > 0);
}

TEST_CASE("auto links: 0 = off computes nothing; the output is deterministic and reuses its buffers") {
    const InputMesh m = gap_scene(false);
    auto b = bake(m);
    AutoLinks out;
    REQUIRE(generate_auto_links(*b->navmesh, m, agent(0, 2), out));
    REQUIRE(!out.links.empty());
    AutoLinks again;
    REQUIRE(generate_auto_links(*b->navmesh, m, agent(0, 2), again));
    REQUIRE(again.links.size() == out.links.size());
    CHECK(std::memcmp(again.links.data(), out.links.data(), out.links.size() * sizeof(OffMeshLink)) == 0);
    CHECK(again.samples == out.samples);
    REQUIRE(generate_auto_links(*b->navmesh, m, agent(0, 0), out));
    CHECK(out.links.empty());
    CHECK(out.rejected.empty());
    CHECK(out.samples == 0);
    CHECK(b->auto_links == nullptr);  // the bake with both parameters 0 made none
    CHECK(b->count("auto_links") == 0);
}

TEST_CASE("auto links: the pipeline's navmesh step makes them, solo and tiled, and the parameters dirty only it") {
    const InputMesh m = ledge_scene();
    Pipeline p;
    REQUIRE(p.set_mesh(m));
    set_agent(p);
    REQUIRE(p.run());
    CHECK(p.snapshot()->auto_links == nullptr);
    REQUIRE(p.set_param("link_drop_height", "2"));
    CHECK(p.first_dirty() == Stage::Navmesh);
    REQUIRE(p.run());
    auto b = p.snapshot();
    REQUIRE(b->auto_links);
    CHECK(b->stages_run == std::vector<Stage>{Stage::Navmesh});
    const size_t solo = b->auto_links->links.size();
    CHECK(solo == 7);  // spacing max(1 m, 4 * 0.3 m) = 1.2 m: z = 1.2, 2.4, ..., 8.4 on the edge's [0.4, 9.6)
    CHECK(b->count("auto_links") == static_cast<int64_t>(solo));
    CHECK(b->count("links_rejected") == static_cast<int64_t>(b->auto_links->rejected.size()));
    REQUIRE(p.set_param("link_jump_distance", "1"));
    CHECK(p.first_dirty() == Stage::Navmesh);
    REQUIRE(p.set_param("link_jump_distance", "0"));
    REQUIRE(p.set_param("link_drop_height", "0"));
    REQUIRE(p.run());
    CHECK(p.snapshot()->auto_links == nullptr);

    // Tiled: links come from the assembled navmesh, with the same lattice, so the same ones.
    auto t = bake(m, 2, 0, 32);
    REQUIRE(t->tiled());
    REQUIRE(t->auto_links);
    auto s = bake(m, 2, 0, 0);
    REQUIRE(s->auto_links);
    CHECK(t->auto_links->links.size() == s->auto_links->links.size());
    CHECK(t->count("auto_links") == static_cast<int64_t>(t->auto_links->links.size()));
}

#ifdef NAV_HAVE_RENDER
TEST_CASE("auto links: drawn as arcs with arrowheads, the rejected ones dim with a marker each") {
    const InputMesh m = gap_scene(true);
    auto b = bake(m);
    AutoLinks links;
    REQUIRE(generate_auto_links(*b->navmesh, m, agent(0, 2), links));
    REQUIRE(links.rejected.size() == 5);
    render::DrawList lines, points;
    render::build_links_layer(links, lines, points);
    CHECK(lines.line_verts.size() == 2 * 5);  // one dim line per rejected candidate
    CHECK(points.point_verts.size() == 5);
    const InputMesh open = gap_scene(false);
    auto bo = bake(open);
    REQUIRE(generate_auto_links(*bo->navmesh, open, agent(0, 2), links));
    REQUIRE(links.links.size() == 5);
    lines = {};
    points = {};
    render::build_links_layer(links, lines, points);
    CHECK(lines.line_verts.size() == 2 * 5 * (12 + 4));  // 12 arc segments, two-way: two arrowheads
    CHECK(points.point_verts.empty());
    // The debugger's `links` layer: there when the bake made links, drawn by the same builder.
    CHECK_FALSE(render::layer_available(render::Layer::Links, *bo));  // both parameters 0
    auto with = bake(m, 0, 2);
    REQUIRE(with->auto_links);
    CHECK(render::layer_available(render::Layer::Links, *with));
    render::DrawList out, extra;
    REQUIRE(render::build_layer(render::Layer::Links, *with, out, extra));
    CHECK(out.line_verts.size() == 2 * with->auto_links->rejected.size());
    CHECK(extra.point_verts.size() == with->auto_links->rejected.size());
    CHECK(render::layer_name(render::Layer::Links) == "links");
}
#endif

TEST_CASE("auto links: the bake links them into the navmesh graph, so a path across the gap jumps, and one off the ledge drops") {
    for (int tile_size : {0, 40}) {
        CAPTURE(tile_size);
        NavQuery q;
        const float ext[3] = {1, 2, 1};
        Route r;
        // Without links the two platforms are two islands: no path.
        const auto none = bake(gap_scene(false), 0, 0, tile_size);
        q.init(none->navmesh.get());
        const float a[3] = {2, 1, 3}, b[3] = {9, 1, 3};
        REQUIRE(q.find_route(a, b, ext, QueryFilter{}, RouteOptions{}, r));
        CHECK_FALSE(r.path.reached);
        const auto jumps = bake(gap_scene(false), 0, 2, tile_size);
        REQUIRE(jumps->navmesh->nlinks_connected > 0);
        q.init(jumps->navmesh.get());
        for (int dir = 0; dir < 2; ++dir) {
            REQUIRE(q.find_route(dir ? b : a, dir ? a : b, ext, QueryFilter{}, RouteOptions{}, r));
            CHECK(r.path.reached);
            int offmesh = 0;
            for (uint8_t f : r.straight.flags) offmesh += (f & kStraightOffMesh) != 0;
            CHECK(offmesh == 1);
        }
        // Drops are one-way: down off the ledge, not back up.
        const auto drops = bake(ledge_scene(), 2, 0, tile_size);
        q.init(drops->navmesh.get());
        const float top[3] = {3, 1.5f, 5}, floor[3] = {10, 0, 5};
        REQUIRE(q.find_route(top, floor, ext, QueryFilter{}, RouteOptions{}, r));
        CHECK(r.path.reached);
        REQUIRE(q.find_route(floor, top, ext, QueryFilter{}, RouteOptions{}, r));
        CHECK_FALSE(r.path.reached);
    }
}
