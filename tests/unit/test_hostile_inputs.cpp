// Hostile input to navbake beyond OBJ meshes (issue 12's audit): the 2D map readers (JSON maps and
// Polyanya .mesh files) under the input size cap and with counts bounded before allocating;
// --mesh-out and --obj-out checked before the bake and never silently ignored; --pairs capped in
// size and line length; out of memory reported as bad input (exit 2, the contract in README).
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/bake/input.h"
#include "core/map2d/map2d.h"
#include "core/map2d/mesh_file.h"
#include "test_files.h"
#include "test_scenes.h"

using navtest::run_cmd;
using navtest::TempFile;

namespace {

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
std::string navbake() { return std::string("'") + NAVBAKE_EXE + "'"; }
const char* kMap = R"({"outline": [[0,0],[20,0],[20,20],[0,20]], "obstacles": [[[5,5],[15,5],[15,15],[5,15]]]})";
const char* kSquareObj = "v 0 0 0\nv 0 0 10\nv 10 0 10\nv 10 0 0\nf 1 2 3 4\n";

}  // namespace

TEST_CASE("hostile 2D: .mesh counts beyond what the file holds allocate nothing and fail at the missing line") {
    nav::map2d::PolyMesh2D m;
    // 2^28 vertices would be 4 GiB of coordinates: nothing is allocated for the count itself
    nav::Status st = nav::map2d::parse_polyanya_mesh("mesh\n2\n268435456 1\n", "big.mesh", m);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(has(st.message, "big.mesh:3: file ends after 0 of 268435456 vertex lines"));
    CHECK(m.xz.capacity() < 16);
    st = nav::map2d::parse_polyanya_mesh("mesh\n2\n4 100000000\n0 0 0\n", "p.mesh", m);
    CHECK(has(st.message, "p.mesh:4: file ends after 1 of 4 vertex lines"));
    // the bound is not too tight: the smallest lines a real file has pass it (the 2-triangle square)
    st = nav::map2d::parse_polyanya_mesh(
        "mesh\n2\n4 2\n0 0 3 0 1 -1\n1 0 2 0 -1\n1 1 3 0 1 -1\n0 1 2 1 -1\n3 0 1 2 1 -1 -1\n3 0 2 3 -1 0 -1", "ok.mesh", m);
    CHECK_MESSAGE(st.is_ok(), st.message);
    // a per-line count that would overflow the token arithmetic
    st = nav::map2d::parse_polyanya_mesh("mesh\n2\n3 1\n0 0 9223372036854775807\n1 0 0\n0 1 0\n3 0 1 2 -1 -1 -1\n",
                                         "n.mesh", m);
    CHECK(has(st.message, "n.mesh:4: vertex 0"));
    // coordinates beyond the mesh bound (the navmesh converts them to float)
    st = nav::map2d::parse_polyanya_mesh("mesh\n2\n3 1\n0 0 1 0\n1e300 0 1 0\n0 1 1 0\n3 0 1 2 -1 -1 -1\n", "c.mesh", m);
    CHECK(has(st.message, "c.mesh:5: vertex 1"));
}

TEST_CASE("hostile 2D: JSON maps: numbers beyond double and far coordinates are bad input naming the file") {
    nav::map2d::Map2D m;
    nav::Status st;
    CHECK_NOTHROW(st = nav::map2d::parse_map2d_json(R"({"outline": [[0,0],[1e400,0],[0,1]]})", "m.json", m));
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(has(st.message, "m.json: not valid JSON"));
    st = nav::map2d::parse_map2d_json(R"({"outline": [[0,0],[1e300,0],[0,1]]})", "m.json", m);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(has(st.message, "m.json: outline: point 1"));
    // files: directories and devices refused as for every input
    st = nav::map2d::load_map2d("/dev/zero", m);
    CHECK(has(st.message, "not a regular file or a pipe"));
    nav::map2d::PolyMesh2D pm;
    st = nav::map2d::read_polyanya_mesh("/tmp", pm);
    CHECK(has(st.message, "is a directory, expected a Polyanya .mesh file"));
}

TEST_CASE("hostile navbake: --max-input caps 2D maps, .mesh files and --pairs; --pairs lines are bounded") {
    TempFile map(".json", kMap);
    auto r = run_cmd(navbake() + " '" + map.path() + "' --max-input 0.00001");  // 10 bytes
    CHECK(r.code == 2);
    CHECK(has(r.out, map.path() + ": "));
    CHECK(has(r.out, "input size limit"));
    TempFile mesh(".mesh", "mesh\n2\n4 2\n0 0 3 0 1 -1\n1 0 2 0 -1\n1 1 3 0 1 -1\n0 1 2 1 -1\n3 0 1 2 1 -1 -1\n3 0 2 3 -1 0 -1\n");
    r = run_cmd(navbake() + " '" + mesh.path() + "' --max-input 0.00001");
    CHECK(r.code == 2);
    CHECK(has(r.out, "input size limit"));
    r = run_cmd(navbake() + " '" + mesh.path() + "'");  // and without the cap it reads
    CHECK(r.code == 0);

    TempFile obj(".obj", kSquareObj);
    std::string lines;
    for (int i = 0; i < 100; ++i) lines += "2 0 2 8 0 8\n";
    TempFile pairs(".txt", lines);  // 1200 bytes
    r = run_cmd(navbake() + " '" + obj.path() + "' --pairs '" + pairs.path() + "' --max-input 0.001");  // 1048 bytes
    CHECK(r.code == 2);
    CHECK(has(r.out, pairs.path() + ": 1200 bytes is over"));
    r = run_cmd(navbake() + " '" + obj.path() + "' --pairs '" + pairs.path() + "'");
    CHECK(r.code == 0);
    CHECK(has(r.out, "paths: 100 of 100 reached"));
    // one line of 10 000 spaces then a pair: refused at line 1 without reading it whole
    TempFile longline(".txt", std::string(10000, ' ') + "2 0 2 8 0 8\n");
    r = run_cmd(navbake() + " '" + obj.path() + "' --pairs '" + longline.path() + "'");
    CHECK(r.code == 2);
    CHECK(has(r.out, longline.path() + ":1: line longer than 4096 bytes"));
    // the same with a pipe (no file size to check first)
    r = run_cmd("head -c 3000000 /dev/zero | tr '\\0' ' ' | " + navbake() + " '" + obj.path() +
                "' --pairs /dev/stdin --max-input 1");
    CHECK(r.code == 2);
    CHECK(has(r.out, "line longer than 4096 bytes"));
}

TEST_CASE("hostile navbake: --mesh-out is checked before the bake and refused where it does not apply") {
    TempFile map(".json", kMap);
    TempFile obj(".obj", kSquareObj);
    struct Case {
        std::string args, expect;
    };
    const std::vector<Case> cases = {
        {" '" + map.path() + "' --mesh-out ''", "--mesh-out: empty path"},
        {" '" + map.path() + "' --mesh-out /no/such/dir/x.mesh", "does not exist"},
        {" '" + map.path() + "' --mesh-out /tmp", "is a directory"},
        {" '" + map.path() + "' --obj-out ''", "--obj-out: empty path"},
        // an OBJ bake has no 2D polygons: refused, never silently ignored
        {" '" + obj.path() + "' --mesh-out /tmp/navtest_never.mesh", "needs a .json or .mesh input"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.args);
        const auto r = run_cmd(navbake() + c.args);
        CHECK(r.code == 2);
        CHECK(has(r.out, c.expect));
        CHECK_FALSE(has(r.out, "2D map "));  // nothing was built
    }
}

TEST_CASE("hostile navbake: --obj-out on a 2D map writes its navmesh polygons") {
    TempFile map(".json", kMap);
    TempFile out(".obj");
    const auto r = run_cmd(navbake() + " '" + map.path() + "' --json --obj-out '" + out.path() + "'", false);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    std::ifstream f(out.path());
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string text = ss.str();
    int faces = 0, verts = 0;
    std::istringstream lines(text);
    for (std::string l; std::getline(lines, l);) {
        faces += l.rfind("f ", 0) == 0;
        verts += l.rfind("v ", 0) == 0;
    }
    CHECK(has(text, "g navmesh"));
    CHECK(faces == j["counts"]["polys"].get<int>());
    CHECK(verts == j["counts"]["verts"].get<int>());
    // it is an OBJ our reader takes: the free space (20 x 20 minus the 10 x 10 obstacle) at y = 0
    nav::InputMesh m;
    const nav::Status st = nav::parse_obj(text, out.path(), m);
    REQUIRE_MESSAGE(st.is_ok(), st.message);
    double area = 0;
    for (int t = 0; t < m.tri_count(); ++t) {
        const float* a = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(t) * 3]) * 3];
        const float* b = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(t) * 3 + 1]) * 3];
        const float* c = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(t) * 3 + 2]) * 3];
        area += 0.5 * std::abs((double(b[0]) - a[0]) * (double(c[2]) - a[2]) - (double(c[0]) - a[0]) * (double(b[2]) - a[2]));
    }
    CHECK(area == doctest::Approx(300.0).epsilon(0.01));
    CHECK(m.bmin[1] == 0.0f);
    CHECK(m.bmax[1] == 0.0f);
}

#if !defined(__SANITIZE_ADDRESS__)  // ASan cannot run under an address-space limit
TEST_CASE("hostile navbake: a .mesh header promising 2^28 vertices is refused in 200 MB of address space") {
    TempFile mesh(".mesh", "mesh\n2\n268435456 1\n");
    const auto r = run_cmd("bash -c \"ulimit -v 200000; exec " + navbake() + " '" + mesh.path() + "'\"");
    CHECK(r.code == 2);
    CHECK(has(r.out, mesh.path() + ":3: file ends after 0 of 268435456 vertex lines"));
}

TEST_CASE("hostile navbake: out of memory is bad input, exit 2, naming the stage and what to change") {
    // A 1500 m floor at 0.3 m cells (25 M cells) with the estimate check off, in 1 GB of address space.
    TempFile obj(".obj", "v 0 0 0\nv 0 0 1500\nv 1500 0 1500\nv 1500 0 0\nf 1 2 3 4\n");
    const auto r = run_cmd("bash -c \"ulimit -v 1000000; exec " + navbake() + " '" + obj.path() +
                           "' --max-memory 1000000\"");
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK(has(r.out, "out of memory"));
    CHECK(has(r.out, "raise cell_size"));
    CHECK_FALSE(has(r.out, "internal error"));
    CHECK_FALSE(has(r.out, "terminate called"));
}
#endif
