// Level formats through assimp (core/formats/level_import.h): a small level written as OBJ, exported
// by assimp to every format it both writes and reads, read back by load_level and baked: the same
// counts as the OBJ. Node transforms, units, mesh names and hostile files.
#include <doctest/doctest.h>

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/bake/input.h"
#include "core/formats/level_import.h"
#include "core/pipeline/pipeline.h"
#include "test_files.h"
#include "test_scenes.h"
#ifdef NAV_HAVE_RENDER
#include "render/inspect.h"
#include "render/pick.h"
#endif

using namespace nav;
using navtest::TempFile;

namespace {

bool has(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

// A floor, a box standing on it and a flight of stairs, as one OBJ with an `o` line per part;
// z_up writes (x, y, z) as (x, -z, y), the level as a Z-up tool would save it.
std::string level_obj(bool z_up = false) {
    std::string text;
    int base = 0;
    auto part = [&](const char* name, const InputMesh& m) {
        text += std::string("o ") + name + "\n";
        char buf[128];
        for (int i = 0; i < m.vert_count(); ++i) {
            const double x = m.verts[size_t(i) * 3], y = m.verts[size_t(i) * 3 + 1], z = m.verts[size_t(i) * 3 + 2];
            std::snprintf(buf, sizeof buf, "v %g %g %g\n", x, z_up ? -z : y, z_up ? y : z);
            text += buf;
        }
        for (int t = 0; t < m.tri_count(); ++t) {
            std::snprintf(buf, sizeof buf, "f %d %d %d\n", base + m.tris[size_t(t) * 3] + 1, base + m.tris[size_t(t) * 3 + 1] + 1,
                          base + m.tris[size_t(t) * 3 + 2] + 1);
            text += buf;
        }
        base += m.vert_count();
    };
    InputMesh floor, box, stairs;
    navtest::add_floor(floor, 0, 0, 20, 20, 0);
    navtest::add_box(box, 4, 0, 4, 8, 2, 8);
    for (int i = 0; i < 5; ++i) navtest::add_box(stairs, 12, 0, 10 + i * 0.6f, 16, 0.2f * float(i + 1), 10.6f + i * 0.6f);
    part("floor", floor);
    part("box", box);
    part("stairs", stairs);
    return text;
}

struct Counts {
    int64_t tris = 0, polys = 0, poly_verts = 0, regions = 0;
    bool operator==(const Counts&) const = default;
};

std::ostream& operator<<(std::ostream& o, const Counts& c) {
    return o << "tris " << c.tris << ", polys " << c.polys << ", poly_verts " << c.poly_verts << ", regions " << c.regions;
}

Counts bake_counts(InputMesh m) {
    Counts c;
    c.tris = m.tri_count();
    Pipeline p;
    REQUIRE(p.set_mesh(std::move(m)));
    REQUIRE(p.run());
    const auto b = p.snapshot();
    c.polys = b->count("polys");
    c.poly_verts = b->count("poly_verts");
    c.regions = b->count("regions");
    return c;
}

std::string read_all(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// A directory under the temp dir, removed with everything in it.
struct TempDir {
    std::filesystem::path dir;
    TempDir() {
        static int n = 0;
        dir = std::filesystem::temp_directory_path() / ("navtest_level_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        std::filesystem::create_directories(dir);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    std::string file(const std::string& name) const { return (dir / name).string(); }
};

// The level through assimp's OBJ importer, exported as `id` into `path`.
void export_level(const std::string& id, const std::string& path, const std::string& obj = level_obj()) {
    Assimp::Importer imp;
    const aiScene* s = imp.ReadFileFromMemory(obj.data(), obj.size(), aiProcess_Triangulate, "obj");
    REQUIRE_MESSAGE(s, imp.GetErrorString());
    Assimp::Exporter ex;
    REQUIRE_MESSAGE(ex.Export(s, id, path) == AI_SUCCESS, id << ": " << ex.GetErrorString());
}

}  // namespace

TEST_CASE("level import: every format assimp writes bakes the same navmesh as the OBJ") {
    InputMesh ref_mesh;
    REQUIRE(parse_obj(level_obj(), "level.obj", ref_mesh));
    CHECK(ref_mesh.mesh_names.empty());  // the OBJ reader keeps no names
    const Counts ref = bake_counts(ref_mesh);
    REQUIRE(ref.polys > 0);
    REQUIRE(ref.regions > 1);

    // assimp 5.2.5's binary FBX writer makes files its own reader refuses ("block offset is out
    // of range"), so FBX is tested through its ASCII writer (fbxa); the reader is the same.
    struct Case {
        const char* id;
        const char* file;
    };
    const Case cases[] = {{"collada", "level.dae"}, {"stl", "level.stl"},   {"stlb", "level_b.stl"}, {"ply", "level.ply"},
                          {"plyb", "level_b.ply"},  {"3ds", "level.3ds"},   {"gltf2", "level.gltf"}, {"glb2", "level.glb"},
                          {"fbxa", "level.fbx"}};
    TempDir dir;
    for (const Case& c : cases) {
        const std::string id = c.id;
        CAPTURE(id);
        const std::string path = dir.file(c.file);
        // 3DS is Z-up (3ds Max): assimp's reader turns it to Y-up, but its writer writes the
        // scene's coordinates as they are, so the level is handed to it Z-up, as a 3DS holds it.
        export_level(c.id, path, level_obj(id == "3ds"));
        if (std::string(c.id) == "fbxa") {
            // assimp writes UnitScaleFactor 1 (FBX: centimetres) for a scene in metres; say metres
            std::string text = read_all(path);
            const std::string key = "\"UnitScaleFactor\", \"double\", \"Number\", \"\", 1\n";
            REQUIRE(has(text, key));
            text.replace(text.find(key), key.size(), "\"UnitScaleFactor\", \"double\", \"Number\", \"\", 100\n");
            std::ofstream(path, std::ios::binary) << text;
        }
        InputMesh m;
        const Status st = load_level(path, m);
        REQUIRE_MESSAGE(st, st.message);
        CHECK(m.path == path);
        for (int k = 0; k < 3; ++k) {
            CHECK(m.bmin[k] == doctest::Approx(ref_mesh.bmin[k]).epsilon(1e-5));
            CHECK(m.bmax[k] == doctest::Approx(ref_mesh.bmax[k]).epsilon(1e-5));
        }
        CHECK(bake_counts(std::move(m)) == ref);
    }
}

TEST_CASE("level import: node transforms are applied, instances repeat, mirrors keep triangles facing up") {
    // One 10 x 10 quad placed by three nodes: as it is, scaled by 2 and moved +30 in x, and
    // mirrored in x (scale -1) and moved -5: its triangles would face down unless turned over.
    auto scene = std::make_unique<aiScene>();
    scene->mNumMaterials = 1;
    scene->mMaterials = new aiMaterial*[1]{new aiMaterial()};
    scene->mNumMeshes = 1;
    scene->mMeshes = new aiMesh*[1]{new aiMesh()};
    aiMesh& q = *scene->mMeshes[0];
    q.mName = "quad";
    q.mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    q.mNumVertices = 4;
    q.mVertices = new aiVector3D[4]{{0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {10, 0, 0}};
    q.mNumFaces = 2;
    q.mFaces = new aiFace[2];
    const unsigned idx[2][3] = {{0, 1, 2}, {0, 2, 3}};
    for (int f = 0; f < 2; ++f) {
        q.mFaces[f].mNumIndices = 3;
        q.mFaces[f].mIndices = new unsigned[3]{idx[f][0], idx[f][1], idx[f][2]};
    }
    scene->mRootNode = new aiNode("root");
    aiNode* kids[3] = {new aiNode("plain"), new aiNode("big"), new aiNode("mirror")};
    aiMatrix4x4 s2, t30, sm, tm5;
    aiMatrix4x4::Scaling(aiVector3D(2, 2, 2), s2);
    aiMatrix4x4::Translation(aiVector3D(30, 0, 0), t30);
    aiMatrix4x4::Scaling(aiVector3D(-1, 1, 1), sm);
    aiMatrix4x4::Translation(aiVector3D(-5, 0, 0), tm5);
    kids[1]->mTransformation = t30 * s2;
    kids[2]->mTransformation = tm5 * sm;
    for (aiNode* k : kids) {
        k->mParent = scene->mRootNode;
        k->mNumMeshes = 1;
        k->mMeshes = new unsigned[1]{0};
    }
    scene->mRootNode->mNumChildren = 3;
    scene->mRootNode->mChildren = new aiNode*[3]{kids[0], kids[1], kids[2]};

    TempDir dir;
    for (const char* id : {"glb2", "collada"}) {
        CAPTURE(id);
        const std::string path = dir.file(std::string("nodes.") + (std::string(id) == "glb2" ? "glb" : "dae"));
        Assimp::Exporter ex;
        REQUIRE_MESSAGE(ex.Export(scene.get(), id, path) == AI_SUCCESS, ex.GetErrorString());
        InputMesh m;
        const Status st = load_level(path, m);
        REQUIRE_MESSAGE(st, st.message);
        CHECK(m.tri_count() == 6);
        CHECK(m.bmin[0] == doctest::Approx(-15.0));  // the mirror: x in -15..-5
        CHECK(m.bmax[0] == doctest::Approx(50.0));   // the big one: x in 30..50
        CHECK(m.bmax[2] == doctest::Approx(20.0));
        CHECK(m.bmin[1] == doctest::Approx(0.0));
        CHECK(m.bmax[1] == doctest::Approx(0.0));
        for (int t = 0; t < m.tri_count(); ++t) {
            const float* a = &m.verts[size_t(m.tris[size_t(t) * 3]) * 3];
            const float* b = &m.verts[size_t(m.tris[size_t(t) * 3 + 1]) * 3];
            const float* c = &m.verts[size_t(m.tris[size_t(t) * 3 + 2]) * 3];
            const float ny = (c[0] - a[0]) * (b[2] - a[2]) - (c[2] - a[2]) * (b[0] - a[0]);
            CHECK_MESSAGE(ny > 0.0f, "triangle " << t << " faces down");  // ((b-a) x (c-a)).y
        }
        Pipeline p;
        REQUIRE(p.set_mesh(std::move(m)));
        REQUIRE(p.run());
        CHECK(p.snapshot()->count("regions") == 3);  // three separate floors, all walkable
    }
}

TEST_CASE("level import: a Collada or FBX file in centimetres or Z-up is read as Y-up metres") {
    InputMesh ref;
    REQUIRE(parse_obj(level_obj(), "level.obj", ref));
    TempDir dir;
    SUBCASE("Collada <unit meter=\"0.01\"> and <up_axis>Z_UP") {
        const std::string path = dir.file("cm.dae");
        // the same numbers, now read as centimetres with z up: (x, y, z) -> 0.01 (x, z, -y)
        std::string obj = level_obj();
        export_level("collada", path, obj);
        std::string text = read_all(path);
        REQUIRE(has(text, "meter=\"1\""));
        REQUIRE(has(text, "Y_UP"));
        text.replace(text.find("meter=\"1\""), 9, "meter=\"0.01\"");
        text.replace(text.find("Y_UP"), 4, "Z_UP");
        std::ofstream(path, std::ios::binary) << text;
        InputMesh m;
        const Status st = load_level(path, m);
        REQUIRE_MESSAGE(st, st.message);
        CHECK(m.bmin[0] == doctest::Approx(ref.bmin[0] * 0.01));
        CHECK(m.bmax[0] == doctest::Approx(ref.bmax[0] * 0.01));
        CHECK(m.bmax[1] == doctest::Approx(ref.bmax[2] * 0.01));  // z became up
        CHECK(m.bmin[2] == doctest::Approx(-ref.bmax[1] * 0.01));
    }
    SUBCASE("FBX UnitScaleFactor 1 (centimetres), Y up") {
        const std::string path = dir.file("cm.fbx");
        export_level("fbxa", path);  // assimp states UnitScaleFactor 1: centimetres by the FBX convention
        InputMesh m;
        const Status st = load_level(path, m);
        REQUIRE_MESSAGE(st, st.message);
        for (int k = 0; k < 3; ++k) {
            CHECK(m.bmin[k] == doctest::Approx(ref.bmin[k] * 0.01));
            CHECK(m.bmax[k] == doctest::Approx(ref.bmax[k] * 0.01));
        }
        REQUIRE(m.warnings.size() == 1);
        CHECK(has(m.warnings[0], "scaled by 0.01"));
    }
    SUBCASE("FBX UpAxis 2 (Z up), metres") {
        const std::string path = dir.file("zup.fbx");
        export_level("fbxa", path);
        std::string text = read_all(path);
        for (auto [from, to] : {std::pair<std::string, std::string>{"\"UnitScaleFactor\", \"double\", \"Number\", \"\", 1\n",
                                                                     "\"UnitScaleFactor\", \"double\", \"Number\", \"\", 100\n"},
                                {"\"UpAxis\", \"int\", \"Integer\", \"\", 1\n", "\"UpAxis\", \"int\", \"Integer\", \"\", 2\n"}}) {
            REQUIRE_MESSAGE(has(text, from), from);
            text.replace(text.find(from), from.size(), to);
        }
        std::ofstream(path, std::ios::binary) << text;
        InputMesh m;
        const Status st = load_level(path, m);
        REQUIRE_MESSAGE(st, st.message);
        CHECK(m.bmax[1] == doctest::Approx(ref.bmax[2]));  // z became up
        CHECK(m.bmin[2] == doctest::Approx(-ref.bmax[1]));
        CHECK(m.bmax[0] == doctest::Approx(ref.bmax[0]));
    }
}

TEST_CASE("level import: each triangle keeps its mesh name") {
    TempDir dir;
    const std::string path = dir.file("names.glb");
    export_level("glb2", path);
    InputMesh m;
    const Status st = load_level(path, m);
    REQUIRE_MESSAGE(st, st.message);
    CHECK(m.mesh_names == std::vector<std::string>{"floor", "box", "stairs"});
    REQUIRE(m.tri_mesh.size() == size_t(m.tri_count()));
    int in_mesh = -1;
    REQUIRE(m.tri_mesh_name(0, &in_mesh));
    CHECK(*m.tri_mesh_name(0, &in_mesh) == "floor");
    CHECK(in_mesh == 0);
    const int last = m.tri_count() - 1;
    CHECK(*m.tri_mesh_name(last, &in_mesh) == "stairs");
    CHECK(in_mesh == 5 * 12 - 1);  // five boxes of 12 triangles
    CHECK(m.tri_mesh_name(m.tri_count()) == nullptr);
    // the names survive the mesh_* fixes (the stages read the fixed copy)
    InputMesh fixed;
    apply_mesh_fix(m, MeshFix{0.5f, true, true}, fixed);
    CHECK(fixed.mesh_names == m.mesh_names);
    CHECK(fixed.tri_mesh == m.tri_mesh);
    // an OBJ keeps none
    InputMesh obj;
    REQUIRE(parse_obj(level_obj(), "level.obj", obj));
    CHECK(obj.tri_mesh_name(0) == nullptr);
}

#ifdef NAV_HAVE_RENDER
TEST_CASE("level import: the inspector names a picked input triangle's mesh") {
    TempDir dir;
    const std::string path = dir.file("names.gltf");  // .gltf: its buffer is a .bin beside it
    export_level("gltf2", path);
    Pipeline p;
    REQUIRE(p.load_mesh(path));
    REQUIRE(p.run());
    const auto b = p.snapshot();
    // straight down onto the second step of the stairs (x 12..16, z 10.6..11.2, top y 0.4)
    const float o[3] = {14.0f, 20.0f, 10.9f}, d[3] = {0.0f, -1.0f, 0.0f};
    const render::Element e = render::pick_ray(*b, render::Layer::Input, o, d);
    REQUIRE(e.kind == render::ElementKind::InputTri);
    const render::ElementText t = render::describe_element(*b, e);
    int in_mesh = -1;
    REQUIRE(b->mesh->tri_mesh_name(static_cast<int>(e.index), &in_mesh));
    CHECK(*b->mesh->tri_mesh_name(static_cast<int>(e.index)) == "stairs");
    CHECK(in_mesh >= 12);  // not the first step's box
    CHECK(in_mesh < 24);
    bool named = false;
    for (const std::string& l : t.lines) named |= l == "triangle " + std::to_string(in_mesh) + " of mesh `stairs`";
    CHECK_MESSAGE(named, render::element_text(t));
}
#endif

TEST_CASE("level import: hostile files give a message naming the file, navbake exits 2") {
    TempDir dir;
    const std::string glb = dir.file("level.glb");
    export_level("glb2", glb);
    const std::string bytes = read_all(glb);
    REQUIRE(bytes.size() > 100);
    auto refused = [&](const std::string& name, const std::string& content, const std::string& want) {
        CAPTURE(name);
        const std::string path = dir.file(name);
        std::ofstream(path, std::ios::binary) << content;
        InputMesh m;
        const Status st = load_level(path, m);
        REQUIRE_FALSE(st);
        CHECK(st.code == Status::Code::BadInput);
        CHECK_MESSAGE(has(st.message, path), st.message);
        CHECK_MESSAGE(has(st.message, want), st.message);
    };
    refused("truncated.glb", bytes.substr(0, bytes.size() / 2), "cannot read it as glb");
    refused("garbage.fbx", std::string(4096, '\x5a') + "not an fbx", "cannot read it as fbx");
    refused("garbage.glb", "glTF\x02\0\0\0garbage", "cannot read it as glb");
    refused("empty.dae", "", "empty");
    // assimp guesses the format from the bytes when the named reader turns a file down: a ".glb"
    // holding a PLY header without end_header would reach the PLY reader's endless loop
    refused("ply_inside.glb", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n", "not a PLY file");
    refused("text.glb", "solid x\nendsolid x\n", "not a glb file");
    refused("text.gltf", "ply\nformat ascii 1.0\nend_header\n", "not a gltf file");
    refused("text.dae", "solid x\nendsolid x\n", "not a dae file");
    refused("text.3ds", "solid x\nendsolid x\n", "not a 3ds file");
    {  // a NaN in a binary PLY (the ASCII reader reads "nan" as 0)
        std::string ply = "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                          "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n";
        const float v[9] = {0, 0, 0, 1, 0, std::numeric_limits<float>::quiet_NaN(), 0, 0, 1};
        ply.append(reinterpret_cast<const char*>(v), sizeof v);
        ply += '\x03';
        const int32_t f[3] = {0, 1, 2};
        ply.append(reinterpret_cast<const char*>(f), sizeof f);
        refused("nan.ply", ply, "mesh `");
        refused("nan2.ply", ply, "not a finite number");
    }
    refused("far.ply",
            "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
            "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 3e7\n0 0 1\n3 0 1 2\n",
            "beyond");
    // assimp's PLY reader loops for ever on a header without end_header (found by fuzz_level)
    refused("hang.ply",
            "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
            "element face 1\nproperty list uchar int vertex_indices\n#end_header\n0 0 0\n1 0 0\n0 0 1\n3 0 1 2\n",
            "end_header");
    refused("hang2.ply",
            "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
            "element face 1\nproperty list uchar int vertex_indices\nend_headerxyz\n0 0 0\n1 0 0\n0 0 1\n3 0 1 2\n",
            "end_header");
    refused("lines.ply",
            "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
            "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 0 1\n2 0 1\n",
            "");
    // navbake: exit code 2 and the file named
    const std::string bad = dir.file("bad.glb");
    std::ofstream(bad, std::ios::binary) << bytes.substr(0, 40);
    const navtest::RunResult r = navtest::run_cmd(std::string(NAVBAKE_EXE) + " '" + bad + "'");
    CHECK(r.code == 2);
    CHECK_MESSAGE(has(r.out, bad), r.out);
    // and bakes the good one
    const navtest::RunResult ok = navtest::run_cmd(std::string(NAVBAKE_EXE) + " '" + glb + "'");
    CHECK_MESSAGE(ok.code == 0, ok.out);
}
