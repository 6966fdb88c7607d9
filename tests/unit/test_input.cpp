#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/bake/input.h"
#include "test_files.h"
#include "test_scenes.h"

using namespace nav;
using navtest::TempFile;

namespace {
Status load_text(const std::string& text, InputMesh& m, std::string* path = nullptr) {
    TempFile f(".obj", text);
    if (path) *path = f.path();
    return load_obj(f.path(), m);
}
bool has(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }
}  // namespace

TEST_CASE("input: a valid OBJ loads with bounds; quads are triangulated") {
    InputMesh m;
    REQUIRE(load_text("# a quad and a triangle\nv 0 0 0\nv 0 0 2\nv 3 0 2\nv 3 0 0\nv 1 1 1\n"
                      "vn 0 1 0\nf 1//1 2//1 3//1 4//1\nf -5 -4 -1\n",
                      m));
    CHECK(m.vert_count() == 5);
    CHECK(m.tri_count() == 3);
    CHECK(m.bmin[0] == 0.0f);
    CHECK(m.bmax[0] == 3.0f);
    CHECK(m.bmax[1] == 1.0f);
    CHECK(m.bmax[2] == 2.0f);
    for (int i : m.tris) CHECK((i >= 0 && i < 5));
}

TEST_CASE("input: bad files give messages that name the file, line and problem") {
    InputMesh m;
    std::string path;

    Status st = load_obj("/nonexistent/dir/mesh.obj", m);
    CHECK(st.code == Status::Code::BadInput);
    CHECK(has(st.message, "/nonexistent/dir/mesh.obj"));
    CHECK(has(st.message, "not found"));

    st = load_text(std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16), m, &path);
    CHECK_FALSE(st);
    CHECK(has(st.message, path));
    CHECK(has(st.message, "not a Wavefront OBJ"));

    st = load_text("hello world\nthis is not a mesh\n", m);
    CHECK_FALSE(st);
    CHECK(has(st.message, "no faces"));

    st = load_text("v 0 0 0\nv 1 0 0\nv 0 0 1\n", m);
    CHECK_FALSE(st);
    CHECK(has(st.message, "no faces"));

    st = load_text("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 4\n", m, &path);
    CHECK_FALSE(st);
    CHECK(has(st.message, path + ":4:"));
    CHECK(has(st.message, "out of range"));

    st = load_text("v 0 0 0\nv 1 0 0\nf 1 2 -3\nv 0 0 1\n", m);
    CHECK_FALSE(st);
    CHECK(has(st.message, ":3:"));

    st = load_text("v 0 0 0\nv nan 0 0\nv 0 0 1\nf 1 2 3\n", m);
    CHECK_FALSE(st);
    CHECK(has(st.message, ":2:"));
    CHECK(has(st.message, "not a finite number"));

    st = load_text("v 0 0 0\nv inf 0 0\nv 0 0 1\nf 1 2 3\n", m);
    CHECK_FALSE(st);
    CHECK(has(st.message, "finite"));

    st = load_text("v 0 0 0\nv 1 0\nv 0 0 1\nf 1 2 3\n", m);
    CHECK_FALSE(st);
    CHECK(has(st.message, ":2:"));
    CHECK(has(st.message, "3 numeric coordinates"));

    st = load_text("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2\n", m);
    CHECK_FALSE(st);
    CHECK(has(st.message, "at least 3"));

    st = load_text("v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 0 2\n", m);
    CHECK_FALSE(st);
    CHECK(has(st.message, "invalid vertex index"));

    TempFile dir_probe(".none");
    st = load_obj(std::filesystem::temp_directory_path().string(), m);
    CHECK_FALSE(st);
    CHECK(has(st.message, "directory"));
}

TEST_CASE("input: validate_mesh catches what in-memory meshes can get wrong") {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 1, 1, 0);
    CHECK(validate_mesh(m, "mem"));
    InputMesh bad = m;
    bad.tris[4] = 7;
    Status st = validate_mesh(bad, "mem");
    CHECK_FALSE(st);
    CHECK(has(st.message, "triangle 2"));
    bad = m;
    bad.verts[3] = std::nanf("");
    CHECK_FALSE(validate_mesh(bad, "mem"));
    bad = m;
    bad.tris.clear();
    CHECK(has(validate_mesh(bad, "mem").message, "no triangles"));
}

TEST_CASE("input: walkable marking by slope") {
    // Floor (up), a 30-degree ramp, a 60-degree slope, a wall, a floor facing down, degenerate.
    const float s30 = std::tan(30.0f * 3.14159265f / 180.0f), s60 = std::tan(60.0f * 3.14159265f / 180.0f);
    const std::vector<float> v = {
        0, 0, 0, 0, 0, 1, 1, 0, 1,        // floor, normal +y
        0, 0, 0, 0, s30, 1, 1, s30, 1,    // rises along z: 30 deg
        0, 0, 0, 0, s60, 1, 1, s60, 1,    // 60 deg
        0, 0, 0, 0, 1, 0, 1, 1, 0,        // vertical wall
        0, 0, 0, 1, 0, 1, 0, 0, 1,        // floor wound the other way (normal -y)
        0, 0, 0, 1, 0, 0, 2, 0, 0,        // degenerate (collinear)
    };
    const std::vector<int> t = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
    uint8_t areas[6];
    mark_walkable_triangles(45.0f, v.data(), t.data(), 6, areas);
    CHECK(areas[0] == kWalkableArea);
    CHECK(areas[1] == kWalkableArea);
    CHECK(areas[2] == kNullArea);
    CHECK(areas[3] == kNullArea);
    CHECK(areas[4] == kNullArea);
    CHECK(areas[5] == kNullArea);
    mark_walkable_triangles(65.0f, v.data(), t.data(), 6, areas);
    CHECK(areas[2] == kWalkableArea);
    mark_walkable_triangles(25.0f, v.data(), t.data(), 6, areas);
    CHECK(areas[1] == kNullArea);
    CHECK(areas[0] == kWalkableArea);
}
