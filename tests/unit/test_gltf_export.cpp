// glTF export (core/bake/gltf_export, navbake --gltf-out): files read back with tinygltf have the
// expected named nodes, and per node the vertex and index counts the bake's own data give.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "core/formats/gltf_export.h"
#include "core/pipeline/pipeline.h"
#include "core/runtime/query.h"
#include "gltf_read.h"
#include "test_files.h"
#include "test_scenes.h"
#include "tile_scene.h"

using navtest::GltfNodeInfo;

namespace {

struct Expect {
    int mode;
    size_t vertices, indices;
};

void add_grid(const nav::StageResults<true>& r, std::map<std::string, Expect>& e) {
    if (r.compact && r.regions) {
        size_t spans = 0;
        for (uint16_t reg : r.regions->reg) spans += reg != 0 && !(reg & nav::kBorderRegion);
        e["regions"].vertices += 4 * spans, e["regions"].indices += 6 * spans;
    }
    if (r.contours)
        for (const nav::Contour& c : r.contours->contours)
            if (c.nverts >= 2) e["contours"].vertices += c.nverts, e["contours"].indices += 2 * size_t(c.nverts);
    if (r.polymesh)
        for (int i = 0; i < r.polymesh->npolys; ++i) {
            const int n = r.polymesh->poly_vert_count(i);
            if (n >= 3) e["polymesh"].vertices += size_t(n), e["polymesh"].indices += 3 * size_t(n - 2);
        }
    if (r.detail)
        e["detail"].vertices += size_t(r.detail->nverts), e["detail"].indices += 3 * size_t(r.detail->ntris);
}

// What each node must hold, from the bake's own arrays (counted here, not by the exporter).
std::map<std::string, Expect> expected(const nav::Bake& b, const std::vector<float>* path) {
    std::map<std::string, Expect> e = {{"input", {TINYGLTF_MODE_TRIANGLES, 0, 0}},   {"regions", {TINYGLTF_MODE_TRIANGLES, 0, 0}},
                                       {"contours", {TINYGLTF_MODE_LINE, 0, 0}},      {"polymesh", {TINYGLTF_MODE_TRIANGLES, 0, 0}},
                                       {"detail", {TINYGLTF_MODE_TRIANGLES, 0, 0}},   {"path", {TINYGLTF_MODE_LINE, 0, 0}}};
    e["input"].vertices = e["input"].indices = 3 * size_t(b.mesh->tri_count());
    if (b.tiled()) {
        for (const auto& t : b.tiles) add_grid(*t, e);
    } else {
        add_grid(b, e);
    }
    if (path && path->size() >= 6) e["path"].vertices = path->size() / 3, e["path"].indices = 2 * (path->size() / 3 - 1);
    for (auto it = e.begin(); it != e.end();) it = it->second.indices == 0 ? e.erase(it) : std::next(it);
    return e;
}

// Encodes the bake's layers both ways, reads them back and compares node by node.
void check_round_trip(const nav::Bake& b, const std::vector<float>* path, const std::vector<std::string>& names) {
    nav::GltfBakeLayers which;
    which.path = path;
    std::vector<nav::GltfLayer> layers;
    REQUIRE(nav::gltf_bake_layers(b, which, layers));
    // the size estimate (what the 4 GiB check reads) covers what was built
    uint64_t built = 0;
    for (const nav::GltfLayer& l : layers) built += (l.positions.size() + l.colors.size() + l.indices.size()) * 4;
    CHECK(nav::gltf_bake_bytes(b, which) >= built);
    const std::map<std::string, Expect> want = expected(b, path);
    for (bool binary : {true, false}) {
        CAPTURE(binary);
        std::string bytes;
        REQUIRE(nav::encode_gltf(layers, binary, bytes));
        CHECK((bytes.compare(0, 4, "glTF") == 0) == binary);
        const std::vector<GltfNodeInfo> nodes = navtest::read_gltf_nodes(bytes, binary);
        std::vector<std::string> got;
        for (const GltfNodeInfo& n : nodes) got.push_back(n.name);
        CHECK(got == names);
        for (const GltfNodeInfo& n : nodes) {
            CAPTURE(n.name);
            REQUIRE(want.count(n.name) == 1);
            const Expect& w = want.at(n.name);
            CHECK(n.mode == w.mode);
            CHECK(n.vertices == w.vertices);
            CHECK(n.indices == w.indices);
            CHECK(n.colors_per_vertex);
            for (uint32_t i : n.index_values) REQUIRE(i < n.vertices);
            // every layer lies in the mesh's bounds (one cell of slack: the grid rounds outwards)
            for (int k = 0; k < 3; ++k) {
                CHECK(n.min[k] >= double(b.mesh->bmin[k]) - 1.0);
                CHECK(n.max[k] <= double(b.mesh->bmax[k]) + 1.0);
            }
        }
    }
}

nav::InputMesh small_scene() {
    nav::InputMesh m;
    navtest::add_floor(m, 0, 0, 12, 10, 0);
    navtest::add_box(m, 4, 0, 3, 6, 2, 6);
    navtest::add_box(m, 8, 0, 6, 11, 0.3f, 9);  // a step: a second floor height
    return m;
}

// A route across the navmesh from near (x0, z0) to near (x1, z1): the path node's points.
std::vector<float> route(const nav::NavMesh& nm, float x0, float z0, float x1, float z1) {
    nav::NavQuery q;
    q.init(&nm);
    nav::Route r;
    const float s[3] = {x0, 0, z0}, e[3] = {x1, 0, z1}, ext[3] = {2, 4, 2};
    REQUIRE(q.find_route(s, e, ext, nav::QueryFilter{}, nav::RouteOptions{}, r));
    return r.straight.points;
}

std::string read_all(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

std::string navbake() { return std::string("'") + NAVBAKE_EXE + "'"; }

}  // namespace

TEST_CASE("gltf export: a solo bake's layers read back as named nodes with the bake's counts") {
    nav::Pipeline p;
    REQUIRE(p.set_mesh(small_scene()));
    REQUIRE(p.run());
    const auto b = p.snapshot();
    REQUIRE(b->navmesh);
    const std::vector<float> path = route(*b->navmesh, 1, 1, 11, 1.5f);
    REQUIRE(path.size() >= 6);
    check_round_trip(*b, &path, {"input", "regions", "contours", "polymesh", "detail", "path"});
    check_round_trip(*b, nullptr, {"input", "regions", "contours", "polymesh", "detail"});

    // only the layers asked for (the debugger's visible ones), in the same order
    nav::GltfBakeLayers which;
    which.input = which.contours = false;
    std::vector<std::string> names;
    std::vector<nav::GltfLayer> layers;
    REQUIRE(nav::gltf_bake_layers(*b, which, layers));
    for (const nav::GltfLayer& l : layers) names.push_back(l.name);
    CHECK(names == std::vector<std::string>{"regions", "polymesh", "detail"});

    // the raw contours (the debugger's raw-contour layer) are their own node, from raw_verts
    which = nav::GltfBakeLayers{};
    which.input = which.regions = which.contours = which.polymesh = which.detail = false;
    which.raw_contours = true;
    REQUIRE(nav::gltf_bake_layers(*b, which, layers));
    REQUIRE(layers.size() == 1);
    CHECK(layers[0].name == "raw_contours");
    CHECK(layers[0].lines);
    size_t raw = 0;
    for (const nav::Contour& c : b->contours->contours) raw += c.nraw >= 2 ? c.nraw : 0;
    CHECK(raw > 0);
    CHECK(layers[0].indices.size() == 2 * raw);
}

TEST_CASE("gltf export: a tiled bake gives every tile's results in one node per layer") {
    nav::Pipeline p;
    REQUIRE(p.set_mesh(navtest::tile_scene()));
    REQUIRE(p.set_param(nav::ParamId::tile_size, 32));
    REQUIRE(p.run());
    const auto b = p.snapshot();
    REQUIRE(b->tiled());
    REQUIRE(b->tiles.size() > 1);
    check_round_trip(*b, nullptr, {"input", "regions", "contours", "polymesh", "detail"});
}

TEST_CASE("gltf export: a shared mesh round-trips with the bake's counts") {
    const std::string path = navtest::shared_mesh_or_skip("nav_test.obj");
    if (path.empty()) return;
    nav::Pipeline p;
    REQUIRE(p.load_mesh(path));
    REQUIRE(p.run());
    const auto b = p.snapshot();
    check_round_trip(*b, nullptr, {"input", "regions", "contours", "polymesh", "detail"});
}

TEST_CASE("gltf export: nothing to write and bad paths are refused with a message") {
    std::string bytes;
    const nav::Status none = nav::encode_gltf({}, true, bytes);
    CHECK(none.code == nav::Status::Code::BadInput);
    CHECK(none.message.find("nothing to export") != std::string::npos);
    nav::GltfLayer bad;
    bad.name = "broken";
    bad.positions = {0, 0, 0};
    bad.colors = {0};
    bad.indices = {0, 1, 0};  // past the one vertex
    const nav::Status st = nav::encode_gltf({bad}, true, bytes);
    CHECK(!st);
    CHECK(st.message.find("broken") != std::string::npos);
    nav::GltfLayer one;
    one.name = "tri";
    one.positions = {0, 0, 0, 1, 0, 0, 0, 0, 1};
    one.colors = {0xff0000ffu, 0xff00ff00u, 0xffff0000u};
    one.indices = {0, 1, 2};
    const nav::Status w = nav::write_gltf("/no/such/dir/x.glb", {one});
    CHECK(!w);
    CHECK(w.message.find("/no/such/dir") != std::string::npos);
}

TEST_CASE("navbake: --gltf-out writes the layers and the first path; bad paths exit 2") {
    navtest::TempFile obj(".obj", navtest::to_obj(small_scene()));
    for (const char* ext : {".glb", ".gltf"}) {
        CAPTURE(ext);
        navtest::TempFile out(ext);
        const auto r = navtest::run_cmd(navbake() + " '" + obj.path() + "' --paths 3 --gltf-out '" + out.path() + "'");
        INFO(r.out);
        REQUIRE(r.code == 0);
        const std::string bytes = read_all(out.path());
        REQUIRE(!bytes.empty());
        std::vector<std::string> names;
        for (const GltfNodeInfo& n : navtest::read_gltf_nodes(bytes, std::string(ext) == ".glb")) names.push_back(n.name);
        CHECK(names == std::vector<std::string>{"input", "regions", "contours", "polymesh", "detail", "path"});
    }
    {  // tiled, no paths: no path node
        navtest::TempFile out(".glb");
        const auto r = navtest::run_cmd(navbake() + " '" + obj.path() + "' --set tile_size=16 --gltf-out '" + out.path() + "'");
        INFO(r.out);
        REQUIRE(r.code == 0);
        std::vector<std::string> names;
        for (const GltfNodeInfo& n : navtest::read_gltf_nodes(read_all(out.path()), true)) names.push_back(n.name);
        CHECK(names == std::vector<std::string>{"input", "regions", "contours", "polymesh", "detail"});
    }
    const auto bad = navtest::run_cmd(navbake() + " '" + obj.path() + "' --gltf-out /no/such/dir/x.glb");
    CHECK(bad.code == 2);
    CHECK(bad.out.find("--gltf-out /no/such/dir") != std::string::npos);
    CHECK(navtest::run_cmd(navbake() + " '" + obj.path() + "' --gltf-out ''").code == 2);
    const auto full = navtest::run_cmd(navbake() + " '" + obj.path() + "' --gltf-out /dev/full");
    CHECK(full.code == 2);
    CHECK(full.out.find("--gltf-out /dev/full: write failed") != std::string::npos);
    navtest::TempFile both(".glb");
    const auto same = navtest::run_cmd(navbake() + " '" + obj.path() + "' --gltf-out '" + both.path() + "' --obj-out '" + both.path() + "'");
    CHECK(same.code == 2);
    CHECK(same.out.find("one would overwrite the other") != std::string::npos);
    CHECK(navtest::run_cmd(navbake() + " '" + obj.path() + "' --gltf-out '" + obj.path() + "'").code == 2);  // the input
    navtest::TempFile out(".glb");  // a 2D map has no bake layers: refused, nothing written
    CHECK(navtest::run_cmd(navbake() + " '" + NAV_SOURCE_DIR + "/assets/map2d_rooms.json' --gltf-out '" + out.path() + "'").code == 2);
}
