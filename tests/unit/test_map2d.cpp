// 2D maps: Weiler-Atherton clipping, constrained Delaunay triangulation, convex merge, the
// .mesh format and the JSON map loader (bad input included).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>
#include <unistd.h>

#include "core/map2d/convex_merge.h"
#include "core/map2d/map2d.h"
#include "core/map2d/map2d_tile.h"

namespace {

using namespace nav::map2d;

Rings rings(std::vector<std::vector<double>> rs) {
    Rings r;
    for (auto& p : rs) r.add(p.data(), p.size() / 2);
    return r;
}

std::vector<double> square(double x0, double z0, double x1, double z1) { return {x0, z0, x1, z0, x1, z1, x0, z1}; }

double tri_area(const CdtResult& c, uint32_t t) {
    const uint32_t a = c.tris[3 * t], b = c.tris[3 * t + 1], d = c.tris[3 * t + 2];
    return 0.5 * orient2d(c.xz[2 * a], c.xz[2 * a + 1], c.xz[2 * b], c.xz[2 * b + 1], c.xz[2 * d], c.xz[2 * d + 1]);
}

// Every unconstrained interior edge is locally Delaunay (equivalent to the CDT property), every
// triangle is counter-clockwise, the neighbour links are mutual.
void check_cdt(const CdtResult& c) {
    const uint32_t nt = uint32_t(c.tris.size() / 3);
    for (uint32_t t = 0; t < nt; ++t) {
        CHECK(tri_area(c, t) > 0);
        for (uint32_t i = 0; i < 3; ++i) {
            const uint32_t o = c.nei[3 * t + i];
            if (o == UINT32_MAX) continue;
            const uint32_t a = c.tris[3 * t + i], b = c.tris[3 * t + (i + 1) % 3], p = c.tris[3 * t + (i + 2) % 3];
            uint32_t q = UINT32_MAX;
            bool back = false;
            for (uint32_t k = 0; k < 3; ++k) {
                if (c.tris[3 * o + k] != a && c.tris[3 * o + k] != b) q = c.tris[3 * o + k];
                if (c.nei[3 * o + k] == t) back = true;
            }
            CHECK(back);
            if (c.constrained[3 * t + i]) continue;
            CHECK(incircle(c.xz[2 * a], c.xz[2 * a + 1], c.xz[2 * b], c.xz[2 * b + 1], c.xz[2 * p], c.xz[2 * p + 1],
                           c.xz[2 * q], c.xz[2 * q + 1]) <= 1e-9);
        }
    }
}

double cdt_area(const CdtResult& c) {
    double a = 0;
    for (uint32_t t = 0; t < c.tris.size() / 3; ++t) a += tri_area(c, t);
    return a;
}

}  // namespace

TEST_CASE("map2d clip: overlapping, edge-sharing and corner-touching squares") {
    Rings out;
    // overlap
    REQUIRE(clip_polygons(rings({square(0, 0, 2, 2)}), rings({square(1, 1, 3, 3)}), ClipOp::Union, FillRule::NonZero, out));
    CHECK(out.count() == 1);
    CHECK(rings_area(out) == doctest::Approx(7.0));
    CHECK(out.size(0) == 8);
    REQUIRE(clip_polygons(rings({square(0, 0, 2, 2)}), rings({square(1, 1, 3, 3)}), ClipOp::Intersection, FillRule::NonZero, out));
    CHECK(out.count() == 1);
    CHECK(rings_area(out) == doctest::Approx(1.0));
    REQUIRE(clip_polygons(rings({square(0, 0, 2, 2)}), rings({square(1, 1, 3, 3)}), ClipOp::Difference, FillRule::NonZero, out));
    CHECK(rings_area(out) == doctest::Approx(3.0));
    // shared edge: one ring, collinear vertices removed
    REQUIRE(clip_polygons(rings({square(0, 0, 1, 1)}), rings({square(1, 0, 2, 1)}), ClipOp::Union, FillRule::NonZero, out));
    CHECK(out.count() == 1);
    CHECK(out.size(0) == 4);
    CHECK(rings_area(out) == doctest::Approx(2.0));
    // partial collinear overlap along an edge
    REQUIRE(clip_polygons(rings({square(0, 0, 2, 1)}), rings({square(1, 1, 3, 2)}), ClipOp::Union, FillRule::NonZero, out));
    CHECK(out.count() == 1);
    CHECK(rings_area(out) == doctest::Approx(4.0));
    // corner touch: two separate rings
    REQUIRE(clip_polygons(rings({square(0, 0, 1, 1)}), rings({square(1, 1, 2, 2)}), ClipOp::Union, FillRule::NonZero, out));
    CHECK(out.count() == 2);
    // identical squares
    REQUIRE(clip_polygons(rings({square(0, 0, 1, 1)}), rings({square(0, 0, 1, 1)}), ClipOp::Xor, FillRule::NonZero, out));
    CHECK(out.count() == 0);
    // hole: difference of a small square inside a big one
    REQUIRE(clip_polygons(rings({square(0, 0, 4, 4)}), rings({square(1, 1, 2, 2)}), ClipOp::Difference, FillRule::NonZero, out));
    REQUIRE(out.count() == 2);
    CHECK(rings_area(out) == doctest::Approx(15.0));
    CHECK(std::min(ring_area(out.ring(0), 4), ring_area(out.ring(1), 4)) == doctest::Approx(-1.0));
}

TEST_CASE("map2d clip: trace records Weiler-Atherton's entering and leaving lists") {
    Rings out;
    ClipTrace tr;
    REQUIRE(clip_polygons(rings({square(0, 0, 2, 2)}), rings({square(1, 1, 3, 3)}), ClipOp::Union, FillRule::NonZero, out, &tr));
    // each square crosses the other's boundary twice: one entering, one leaving per ring
    int enter[2] = {0, 0}, leave[2] = {0, 0};
    for (const auto& c : tr.crossings) {
        if (c.kind == ClipCrossing::Entering) ++enter[c.operand];
        if (c.kind == ClipCrossing::Leaving) ++leave[c.operand];
    }
    CHECK(enter[0] == 1);
    CHECK(leave[0] == 1);
    CHECK(enter[1] == 1);
    CHECK(leave[1] == 1);
    CHECK(tr.edges.size() / 2 == tr.edge_kept.size());
    CHECK(rings_area(tr.result) == doctest::Approx(7.0));
}

TEST_CASE("map2d inflate: a square grows by the radius, corners by the polygonal disc") {
    Rings out;
    REQUIRE(inflate_polygons(rings({square(0, 0, 2, 2)}), 0.5, 8, out));
    REQUIRE(out.count() == 1);
    const double a = rings_area(out);
    // between the exact Minkowski sum with the disc and with the circumscribed octagon
    CHECK(a >= 4 + 4 * 2 * 0.5 + 3.14159265358979 * 0.25 - 1e-9);
    CHECK(a <= 4 + 4 * 2 * 0.5 + 8 * std::tan(3.14159265358979 / 8) * 0.25 + 1e-9);
    CHECK(out.size(0) == 8);  // the octagon's edges at 0 and 90 degrees continue the square's sides
}

TEST_CASE("map2d cdt: square with a hole, constrained Delaunay, area equals the free area") {
    Rings free;
    REQUIRE(clip_polygons(rings({square(0, 0, 10, 10)}), rings({square(3, 3, 6, 5)}), ClipOp::Difference, FillRule::NonZero, free));
    CdtResult c;
    CdtTrace tr;
    REQUIRE(cdt_build(cdt_input_from_rings(free), c, &tr));
    check_cdt(c);
    CHECK(cdt_area(c) == doctest::Approx(94.0));
    CHECK(c.tris.size() / 3 == 8);  // 8 vertices, 2 rings: 8 + 2 * 0 - 2 + 2 * 1 ... = n + 2h - 2 = 8
    // stop early: the triangulation at step 5 still has the enclosing triangle
    CdtResult part;
    CdtTrace tr2;
    REQUIRE(cdt_build(cdt_input_from_rings(free), part, &tr2, 5));
    CHECK(tr2.steps.size() == 5);
    CHECK(part.xz.size() / 2 == 8 + 3);
}

TEST_CASE("map2d cdt: random free spaces on a grid, vertices on constraints, duplicates") {
    std::mt19937 rng(1234);
    std::uniform_int_distribution<int> coord(1, 38);
    for (int iter = 0; iter < 200; ++iter) {
        Rings obs;
        const int nobs = 1 + iter % 6;
        for (int k = 0; k < nobs; ++k) {
            int x = coord(rng), z = coord(rng);
            obs.append(rings({square(x, z, x + 1 + coord(rng) % 8, z + 1 + coord(rng) % 8)}));
        }
        Rings blocked, free;
        REQUIRE(clip_polygons(obs, Rings{}, ClipOp::Union, FillRule::NonZero, blocked));
        REQUIRE(clip_polygons(rings({square(0, 0, 40, 40)}), blocked, ClipOp::Difference, FillRule::NonZero, free));
        CdtResult c;
        REQUIRE(cdt_build(cdt_input_from_rings(free), c));
        check_cdt(c);
        CHECK(cdt_area(c) == doctest::Approx(rings_area(free)).epsilon(1e-12));
        PolyMesh2D m;
        REQUIRE(triangles_to_polygons(c, 6, m));
        double a = 0;
        for (uint32_t p = 0; p < m.npolys(); ++p) {
            std::vector<double> pts;
            for (uint32_t s = m.poly_first[p]; s < m.poly_first[p + 1]; ++s) {
                pts.push_back(m.xz[2 * m.poly_verts[s]]);
                pts.push_back(m.xz[2 * m.poly_verts[s] + 1]);
            }
            const size_t n = pts.size() / 2;
            CHECK(n <= 6);
            for (size_t i = 0; i < n; ++i)
                CHECK(orient2d(pts[2 * i], pts[2 * i + 1], pts[2 * ((i + 1) % n)], pts[2 * ((i + 1) % n) + 1],
                               pts[2 * ((i + 2) % n)], pts[2 * ((i + 2) % n) + 1]) > 0);
            a += ring_area(pts.data(), n);
        }
        CHECK(a == doctest::Approx(rings_area(free)).epsilon(1e-12));
        CHECK(m.npolys() <= c.tris.size() / 3);
    }
}

TEST_CASE("map2d cdt: bad input") {
    CdtResult c;
    CdtInput in;
    in.xz = {0, 0, 1, 0};
    CHECK(cdt_build(in, c).code == nav::Status::Code::BadInput);
    in.xz = {0, 0, 1, 0, 0, 1};
    in.constraints = {0, 7};
    CHECK(cdt_build(in, c).code == nav::Status::Code::BadInput);
    in.xz = {0, 0, 1, 0, 0, 1, 1, 1};
    in.constraints = {0, 3, 1, 2};  // crossing constraints
    const nav::Status st = cdt_build(in, c);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(st.message.find("cross") != std::string::npos);
    in.xz = {0, 0, 1, 0, 0, 1, 0, 0};  // a duplicate point
    in.constraints = {0, 1, 1, 2, 2, 3};
    REQUIRE(cdt_build(in, c));
    CHECK(c.point_map[3] == 0);
}

TEST_CASE("map2d mesh file: round trip and malformed files") {
    Map2D m;
    REQUIRE(parse_map2d_json(R"({"outline": [[0,0],[10,0],[10,10],[0,10]], "obstacles": [[[2,2],[4,2],[4,4],[2,4]]]})",
                             "m.json", m));
    Map2DResult r;
    REQUIRE(build_map2d(m, Map2DOptions{}, r));
    const std::string text = format_polyanya_mesh(r.mesh);
    PolyMesh2D back;
    REQUIRE(parse_polyanya_mesh(text, "x.mesh", back));
    CHECK(back.xz == r.mesh.xz);
    CHECK(back.poly_verts == r.mesh.poly_verts);
    CHECK(back.poly_nei == r.mesh.poly_nei);
    CHECK(format_polyanya_mesh(back) == text);
    // written through nav::OutputFile: read back the same; a write error is seen, not swallowed
    const std::string path = std::filesystem::temp_directory_path() / ("navtest_mesh_" + std::to_string(::getpid()) + ".mesh");
    REQUIRE(write_polyanya_mesh(path, r.mesh));
    PolyMesh2D disk;
    REQUIRE(read_polyanya_mesh(path, disk));
    CHECK(format_polyanya_mesh(disk) == text);
    std::filesystem::remove(path);
    const nav::Status full = write_polyanya_mesh("/dev/full", r.mesh);
    CHECK(full.code == nav::Status::Code::BadInput);
    CHECK(full.message.find("No space left on device") != std::string::npos);

    auto err = [](const std::string& t) {
        PolyMesh2D x;
        const nav::Status st = parse_polyanya_mesh(t, "bad.mesh", x);
        CHECK(st.code == nav::Status::Code::BadInput);
        return st.message;
    };
    CHECK(err("").find("bad.mesh:") == 0);
    CHECK(err("mash\n2\n").find("bad.mesh:1: expected the header") == 0);
    CHECK(err("mesh\n1\n").find("bad.mesh:2: unsupported version 1") == 0);
    CHECK(err("mesh\n2\n3 x\n").find("bad.mesh:3:") == 0);
    CHECK(err("mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\n").find("bad.mesh:5: file ends") == 0);
    CHECK(err("mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\n0 1 1 0\n3 0 1 9 -1 -1 -1\n").find("bad.mesh:7: polygon 0: vertex index '9'") == 0);
    CHECK(err("mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\n0 1 1 0\n3 0 2 1 -1 -1 -1\n").find("not counter-clockwise") != std::string::npos);
    CHECK(err("mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\n0 1 1 0\n3 0 1 2 -1 0 -1\n").find("bad.mesh:7: polygon 0: neighbour") == 0);
    CHECK(err("mesh\n2\n3 1\n0 0 1 0\n1 0 1 0\n0 1 1 0\n3 0 1 2 -1 -1 -1\nextra\n").find("bad.mesh:8: unexpected") == 0);
    CHECK(err("mesh\n2\n3 1\n0 nan 1 0\n1 0 1 0\n0 1 1 0\n3 0 1 2 -1 -1 -1\n").find("bad.mesh:4: vertex 0") == 0);
    PolyMesh2D ok;
    CHECK(parse_polyanya_mesh("mesh\n2\n3 1\n0 0 2 0 -1\n1 0 2 0 -1\n0 1 2 0 -1\n3 0 1 2 -1 -1 -1\n", "ok.mesh", ok));
}

TEST_CASE("map2d json: bad maps give clear errors") {
    auto err = [](const std::string& t) {
        Map2D m;
        const nav::Status st = parse_map2d_json(t, "map.json", m);
        CHECK(st.code == nav::Status::Code::BadInput);
        return st.message;
    };
    CHECK(err(R"({"outline": [[0,0],[1,0]]})").find("needs at least 3") != std::string::npos);
    CHECK(err(R"({"outline": [[0,0],[1,0],[1,1],)").find("map.json: not valid JSON") == 0);  // as configs say it
    CHECK(err(R"({"outline": [[0,0],[1,0],[1,1],)").find("column 32") != std::string::npos);
    CHECK(err(R"({"outline": [[0,0],[2,0],[0,2],[2,2]]})").find("map.json: outline is self-intersecting") == 0);
    CHECK(err(R"({"outline": [[0,0],[1,1],[2,2]]})").find("zero area") != std::string::npos);
    CHECK(err(R"({"outline": [[0,0],[4,0],[4,4],[0,4]], "obstacles": [[[5,5],[6,5],[6,6]]]})")
              .find("map.json: obstacle 0 lies entirely outside the outline") == 0);
    CHECK(err(R"({"outline": [[0,0],[4,0],[4,4],[0,4]], "obstacles": [[[1,1],[2,1],[3,1]]]})")
              .find("map.json: obstacle 0 has zero area") == 0);
    CHECK(err(R"({"outline": [[0,0],[4,0],[4,4],[0,4]], "agent_radius": -1})").find("agent_radius") != std::string::npos);
    CHECK(err(R"({"outline": [[0,0],[4,0],[4,4],[0,4]], "agent_radius": "big"})").find("agent_radius") != std::string::npos);
    CHECK(err(R"({"outline": [[0,0],[4,0],[4,4],[0,"a"]]})").find("point 3") != std::string::npos);
    CHECK(err(R"({"outline": [[0,0],[4,0],[4,4],[0,4]], "obstacle": []})").find("unknown key") != std::string::npos);
    CHECK(err(R"([1,2])").find("expected a JSON object") != std::string::npos);
    CHECK(err(R"({"outline": [[0,0],[4,0],[4,4],[2,0],[0,4]]})").find("self-intersecting") != std::string::npos);
    // repairs: closing point repeated, duplicate points; clockwise outline
    Map2D m;
    REQUIRE(parse_map2d_json(R"({"outline": [[0,0],[0,4],[4,4],[4,4],[4,0],[0,0]]})", "map.json", m));
    CHECK(m.outline.size(0) == 4);
    CHECK(ring_area(m.outline.ring(0), 4) == doctest::Approx(16.0));
    // everything covered
    Map2DResult r;
    REQUIRE(parse_map2d_json(R"({"outline": [[0,0],[4,0],[4,4],[0,4]], "obstacles": [[[-1,-1],[5,-1],[5,5],[-1,5]]]})", "map.json", m));
    CHECK(build_map2d(m, Map2DOptions{}, r).code == nav::Status::Code::BadInput);
}

TEST_CASE("map2d build: agent radius shrinks the free space") {
    Map2D m;
    REQUIRE(parse_map2d_json(R"({"outline": [[0,0],[10,0],[10,10],[0,10]], "obstacles": [[[4,4],[6,4],[6,6],[4,6]], [[5,5],[7,5],[7,7],[5,7]]], "agent_radius": 0.5})",
                             "m.json", m));
    Map2DResult r0, r1;
    Map2DOptions o;
    o.inflate = false;
    o.record = true;
    REQUIRE(build_map2d(m, o, r0));
    CHECK(rings_area(r0.free) == doctest::Approx(100.0 - 7.0));
    CHECK(!r0.union_trace.crossings.empty());
    CHECK(!r0.cdt_trace.steps.empty());
    o.inflate = true;
    REQUIRE(build_map2d(m, o, r1));
    CHECK(rings_area(r1.free) < 81.0 - 7.0);
    CHECK(rings_area(r1.free) > 81.0 - 7.0 - 4 * 0.5 * 4 - 2.0);
    check_cdt(r1.cdt);
    CHECK(cdt_area(r1.cdt) == doctest::Approx(rings_area(r1.free)).epsilon(1e-9));
}

TEST_CASE("map2d assets: the generated 2D maps bake to their known free space; the maze is one island") {
    struct Expect {
        const char* name;
        double area;
        size_t rings;
    };
    for (const Expect& e : {Expect{"map2d_rooms.json", 1176.0, 2}, Expect{"map2d_maze.json", 925.25, 1},
                            Expect{"map2d_obstacles.json", 3181.0482, 26}, Expect{"map2d_grid.json", 808.0, 14}}) {
        Map2D m;
        const std::string path = std::string(NAV_SOURCE_DIR) + "/assets/" + e.name;
        const nav::Status ls = load_map2d(path, m);
        INFO(path << ": " << ls.message);
        REQUIRE(ls);
        Map2DResult r;
        REQUIRE(build_map2d(m, Map2DOptions{}, r));
        CHECK(rings_area(r.free) == doctest::Approx(e.area).epsilon(1e-6));
        CHECK(r.free.count() == e.rings);
        CHECK(cdt_area(r.cdt) == doctest::Approx(rings_area(r.free)).epsilon(1e-9));
        check_cdt(r.cdt);
        nav::NavMesh nm;
        REQUIRE(build_map2d_navmesh(r.mesh, nm));
        if (std::string(e.name) == "map2d_maze.json") CHECK(nm.nislands == 1);
    }
}
