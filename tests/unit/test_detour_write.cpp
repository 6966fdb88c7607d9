// Detour's navmesh files as written by core/runtime/detour_write.cpp, checked field by field on
// hand-made tiles (the byte-for-byte comparison with Detour itself is tests/diff/
// test_diff_detour_write.cpp), the reference and parameter rules RecastDemo uses, the MSET layout,
// and navbake's --navmesh-out / --tile-out.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/formats/detour_export.h"
#include "core/runtime/detour_format.h"
#include "detour_tiles.h"
#include "test_files.h"
#include "test_scenes.h"

namespace {

template <class T>
T get(const std::vector<uint8_t>& d, size_t off) {
    REQUIRE(off + sizeof(T) <= d.size());
    T v;
    std::memcpy(&v, d.data() + off, sizeof(T));
    return v;
}

// Section offsets from the header counts (dtCreateNavMeshData's layout).
struct Sections {
    size_t verts, polys, links, dmeshes, dverts, dtris, bv, offmesh, end;
};
Sections sections(const std::vector<uint8_t>& d) {
    auto a4 = [](size_t n) { return (n + 3) & ~size_t(3); };
    Sections s{};
    s.verts = 100;
    s.polys = s.verts + a4(12 * size_t(get<int32_t>(d, 28)));
    s.links = s.polys + a4(32 * size_t(get<int32_t>(d, 24)));
    s.dmeshes = s.links + a4(12 * size_t(get<int32_t>(d, 32)));
    s.dverts = s.dmeshes + a4(12 * size_t(get<int32_t>(d, 36)));
    s.dtris = s.dverts + a4(12 * size_t(get<int32_t>(d, 40)));
    s.bv = s.dtris + a4(4 * size_t(get<int32_t>(d, 44)));
    s.offmesh = s.bv + a4(16 * size_t(get<int32_t>(d, 48)));
    s.end = s.offmesh + a4(36 * size_t(get<int32_t>(d, 52)));
    return s;
}

std::string navbake_exe() { return std::string("'") + NAVBAKE_EXE + "'"; }

std::vector<uint8_t> read_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("detour write: a hand-made tile, field by field") {
    navtest::TwoQuads q;
    std::vector<uint8_t> d;
    const nav::Status st = nav::write_detour_tile(q.src, d);
    REQUIRE_MESSAGE(st, st.message);
    // header
    CHECK(std::memcmp(d.data(), "VAND", 4) == 0);  // 'DNAV' as a little-endian int
    CHECK(get<int32_t>(d, 4) == 7);
    CHECK(get<int32_t>(d, 8) == 3);   // x
    CHECK(get<int32_t>(d, 12) == 4);  // y
    CHECK(get<int32_t>(d, 24) == 2);  // polygons
    CHECK(get<int32_t>(d, 28) == 6);  // vertices
    CHECK(get<int32_t>(d, 32) == 8 + 2);  // links: 8 edges + 2 per portal edge
    CHECK(get<int32_t>(d, 36) == 2);  // detail sub-meshes
    CHECK(get<int32_t>(d, 40) == 1);  // detail vertices beyond the polygons' own
    CHECK(get<int32_t>(d, 44) == 6);  // detail triangles
    CHECK(get<int32_t>(d, 48) == 4);  // BV nodes: 2 per polygon
    CHECK(get<int32_t>(d, 52) == 0);  // off-mesh connections
    CHECK(get<int32_t>(d, 56) == 2);  // off-mesh base
    CHECK(get<float>(d, 64) == 0.6f);
    CHECK(get<float>(d, 72) == 10.0f);
    CHECK(get<float>(d, 92) == 21.0f);
    CHECK(get<float>(d, 96) == 2.0f);  // 1 / cs
    const Sections s = sections(d);
    CHECK(s.end == d.size());
    // vertex 4 = (4, 3, 2) cells -> (12, 2.75, 21) m
    CHECK(get<float>(d, s.verts + 4 * 12) == 12.0f);
    CHECK(get<float>(d, s.verts + 4 * 12 + 4) == 2.75f);
    CHECK(get<float>(d, s.verts + 4 * 12 + 8) == 21.0f);
    // polygon 0: vertices, neighbour across edge 2 = polygon 1 (stored + 1), borders 0
    CHECK(get<uint32_t>(d, s.polys) == 0);  // firstLink: filled by Detour on load
    CHECK(get<uint16_t>(d, s.polys + 4 + 2 * 2) == 2);
    CHECK(get<uint16_t>(d, s.polys + 16 + 2 * 0) == 0);
    CHECK(get<uint16_t>(d, s.polys + 16 + 2 * 2) == 2);
    CHECK(get<uint16_t>(d, s.polys + 28) == 1);  // flags
    CHECK(d[s.polys + 30] == 4);                 // vertex count
    CHECK(d[s.polys + 31] == 63);                // area 63, type ground
    // polygon 1: edge 0 -> polygon 0 (1), edge 2 a portal to x+ (DT_EXT_LINK | 0)
    CHECK(get<uint16_t>(d, s.polys + 32 + 16) == 1);
    CHECK(get<uint16_t>(d, s.polys + 32 + 16 + 4) == 0x8000);
    CHECK(get<uint16_t>(d, s.polys + 32 + 28) == 5);
    CHECK(d[s.polys + 32 + 31] == 7);
    // links are left zero
    for (size_t i = s.links; i < s.dmeshes; ++i) REQUIRE(d[i] == 0);
    // detail: poly 0 has 1 own vertex at base 0, triangles 0..3; poly 1 none, triangles 4..5
    CHECK(get<uint32_t>(d, s.dmeshes) == 0);
    CHECK(get<uint32_t>(d, s.dmeshes + 4) == 0);
    CHECK(d[s.dmeshes + 8] == 1);
    CHECK(d[s.dmeshes + 9] == 4);
    CHECK(get<uint32_t>(d, s.dmeshes + 12) == 1);
    CHECK(get<uint32_t>(d, s.dmeshes + 12 + 4) == 4);
    CHECK(d[s.dmeshes + 12 + 8] == 0);
    CHECK(d[s.dmeshes + 12 + 9] == 2);
    CHECK(get<float>(d, s.dverts + 4) == 3.0f);
    CHECK(d[s.dtris + 5 * 4 + 3] == 20);
    // BV tree: the root covers both (x 0..4 quantized from the detail vertices), escape -3
    CHECK(get<uint16_t>(d, s.bv) == 0);
    CHECK(get<uint16_t>(d, s.bv + 6) == 4);
    CHECK(get<int32_t>(d, s.bv + 12) == -3);
    CHECK(get<int32_t>(d, s.bv + 16 + 12) == 0);  // first leaf: polygon 0 (smaller x)
    CHECK(get<int32_t>(d, s.bv + 32 + 12) == 1);
    for (size_t i = s.bv + 48; i < s.offmesh; ++i) REQUIRE(d[i] == 0);  // the 4th node is unused
}

TEST_CASE("detour write: off-mesh connections and the polygon fan without a detail mesh") {
    navtest::TwoQuads q;
    q.src.detail_meshes = nullptr;
    q.src.detail_verts = nullptr;
    q.src.detail_tris = nullptr;
    navtest::TwoConnections con;  // connection 0 stored (its end outside, x+), connection 1 dropped
    con.attach(q.src);
    std::vector<uint8_t> d;
    const nav::Status st = nav::write_detour_tile(q.src, d);
    REQUIRE_MESSAGE(st, st.message);
    CHECK(get<int32_t>(d, 24) == 3);             // 2 polygons + 1 connection
    CHECK(get<int32_t>(d, 28) == 8);             // 6 + its 2 ends
    CHECK(get<int32_t>(d, 32) == 8 + 2 + 2 * 2); // connection 0's start and connection 1's end lie inside
    CHECK(get<int32_t>(d, 40) == 0);
    CHECK(get<int32_t>(d, 44) == 4);  // fans: 2 + 2
    CHECK(get<int32_t>(d, 52) == 1);
    const Sections s = sections(d);
    CHECK(s.end == d.size());
    CHECK(get<float>(d, s.verts + 7 * 12) == 13.0f);
    const size_t p2 = s.polys + 2 * 32;
    CHECK(get<uint16_t>(d, p2 + 4) == 6);
    CHECK(get<uint16_t>(d, p2 + 6) == 7);
    CHECK(get<uint16_t>(d, p2 + 28) == 8);
    CHECK(d[p2 + 30] == 2);
    CHECK(d[p2 + 31] == (5 | 1 << 6));  // area 5, type off-mesh connection
    // fan of polygon 0: (0 1 2) flags edges 0 and 1, (0 2 3) edges 1 and 2
    CHECK(d[s.dtris + 3] == (1 | 4));
    CHECK(d[s.dtris + 4 + 1] == 2);
    CHECK(d[s.dtris + 4 + 3] == (4 | 16));
    CHECK(get<uint32_t>(d, s.dmeshes + 12 + 4) == 2);  // polygon 1's triangles start at 2
    // the stored connection
    CHECK(get<float>(d, s.offmesh + 12) == 13.0f);
    CHECK(get<float>(d, s.offmesh + 24) == 0.5f);
    CHECK(get<uint16_t>(d, s.offmesh + 28) == 2);
    CHECK(d[s.offmesh + 30] == 1);  // bidirectional
    CHECK(d[s.offmesh + 31] == 0);  // end towards x+
    CHECK(get<uint32_t>(d, s.offmesh + 32) == 77);
}

TEST_CASE("detour write: what Detour cannot hold is bad input, named") {
    navtest::TwoQuads q;
    std::vector<uint8_t> d;
    q.src.nvp = 7;
    nav::Status st = nav::write_detour_tile(q.src, d);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(st.message.find("at most 6") != std::string::npos);
    CHECK(d.empty());
    navtest::TwoQuads q2;
    q2.polys[2] = 9;  // polygon 0, vertex 2 out of range
    st = nav::write_detour_tile(q2.src, d);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(st.message.find("polygon 0 vertex 2 is 9") != std::string::npos);
    navtest::TwoQuads q3;
    q3.dmeshes[1] = 3;  // fewer detail vertices than the polygon has
    st = nav::write_detour_tile(q3.src, d);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(st.message.find("detail sub-mesh 0") != std::string::npos);
    navtest::TwoQuads q4;
    q4.dtris[2] = 5;  // detail triangle 0 uses vertex 5 of a 5-vertex sub-mesh
    st = nav::write_detour_tile(q4.src, d);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(st.message.find("detail triangle 0 vertex 2 is 5") != std::string::npos);
    navtest::TwoQuads q5;
    q5.src.poly_count = 0;
    CHECK(nav::write_detour_tile(q5.src, d).code == nav::Status::Code::BadInput);
    // 0x8000 polygons: neighbour 0x7fff would be stored as 0x8000, a portal to +x. Refused
    // whatever the tile's border (the count is checked before any polygon is read).
    navtest::TwoQuads q6;
    q6.src.poly_count = 0x8000;
    st = nav::write_detour_tile(q6.src, d);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(st.message.find("at most 32767 polygons") != std::string::npos);
    // the bake side refuses verts_per_poly over 6 by name
    nav::PolyMesh pm;
    pm.nvp = 8;
    nav::PolyMeshDetail dm;
    std::vector<uint16_t> flags;
    nav::DetourTileSource src;
    st = nav::detour_tile_source(pm, dm, nav::Params{}, 0, 0, flags, src);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(st.message.find("verts_per_poly is 8") != std::string::npos);
}

TEST_CASE("detour write: damaged sources are refused or written, never read out of bounds") {
    // Every index, count and neighbour of the hand-made tile set to values around its limits, one
    // at a time: the writer must answer ok or bad_input (an out-of-bounds read would be caught by
    // the sanitizer builds; here the answer and the size are checked).
    const uint32_t values[] = {0, 1, 2, 3, 4, 5, 6, 8, 9, 255, 256, 0x7fff, 0x8000, 0x8003, 0xfffe, 0xffff, 0x10000, 0xffffffffu};
    int refused = 0, written = 0;
    for (int field = 0; field < 24 + 8 + 24; ++field)
        for (uint32_t v : values) {
            navtest::TwoQuads q;
            if (field < 24) q.polys[static_cast<size_t>(field)] = static_cast<uint16_t>(v);
            else if (field < 32) q.dmeshes[static_cast<size_t>(field - 24)] = v;
            else q.dtris[static_cast<size_t>(field - 32)] = static_cast<uint8_t>(v);
            std::vector<uint8_t> d;
            const nav::Status st = nav::write_detour_tile(q.src, d);
            if (st) {
                ++written;
                CHECK(sections(d).end == d.size());
            } else {
                ++refused;
                CHECK(st.code == nav::Status::Code::BadInput);
                CHECK(d.empty());
            }
        }
    CHECK(refused > 0);
    CHECK(written > 0);
    // Without a detail mesh the BV heights come from voxel y * ch / cs: extreme ratios and
    // infinities must be written (as x86-64 Detour converts them) without an undefined cast,
    // which the sanitizer builds' float-cast-overflow check would abort on.
    for (float ch : {1e-30f, 0.2f, 1e30f, INFINITY})
        for (float cs : {1e-30f, 0.3f, 1e30f}) {
            navtest::TwoQuads q;
            q.src.detail_meshes = nullptr;
            q.src.ch = ch;
            q.src.cs = cs;
            q.verts[1] = 0xfffe;
            std::vector<uint8_t> d;
            const nav::Status st = nav::write_detour_tile(q.src, d);
            CHECK(st.is_ok());
            if (st) CHECK(sections(d).end == d.size());
        }
}

TEST_CASE("detour write: tile references and navmesh parameters as RecastDemo makes them") {
    const float orig[3] = {1, 2, 3};
    // 41 tiles: 6 tile bits, 16 polygon bits (Sample_TileMesh), salt 1 above both
    const nav::DetourMeshParams p = nav::detour_mesh_params(orig, 9.6f, 9.6f, 41, 200);
    CHECK(p.max_tiles == 64);
    CHECK(p.max_polys == 1 << 16);
    CHECK(p.orig[2] == 3.0f);
    CHECK(p.tile_width == 9.6f);
    CHECK(nav::detour_tile_ref(p, 0) == (1u << 22));
    CHECK(nav::detour_tile_ref(p, 3) == ((1u << 22) | (3u << 16)));
    // one tile of 300 polygons (dtNavMesh::init(data)'s parameters): 9 polygon bits
    nav::DetourMeshParams solo;
    solo.max_tiles = 1;
    solo.max_polys = 300;
    CHECK(nav::detour_tile_ref(solo, 0) == (1u << 9));
    // a tile with more polygons than RecastDemo's bits allow gets the bits it needs
    const nav::DetourMeshParams big = nav::detour_mesh_params(orig, 10, 10, 1000, 5000);
    CHECK(big.max_tiles == 1024);
    CHECK(big.max_polys == 8192);
    // past RecastDemo's 14 tile bits the polygons get what is left of the 22
    const nav::DetourMeshParams many = nav::detour_mesh_params(orig, 10, 10, 40000, 20);
    CHECK(many.max_tiles == 1 << 16);
    CHECK(many.max_polys == 1 << 6);
    CHECK(nav::detour_tile_ref(many, 39999) == ((1u << 22) | (39999u << 6)));
    // no reference outside the navmesh or past the 22 bits
    CHECK(nav::detour_tile_ref(many, 1 << 16) == 0);
    CHECK(nav::detour_tile_ref(many, -1) == 0);
    nav::DetourMeshParams huge;
    huge.max_tiles = 1 << 12;
    huge.max_polys = 1 << 20;
    CHECK(nav::detour_tile_ref(huge, 0) == 0);
}

TEST_CASE("detour write: the MSET layout") {
    nav::DetourMeshFile f;
    f.params.orig[0] = -5;
    f.params.tile_width = 9.6f;
    f.params.tile_height = 4.8f;
    f.params.max_tiles = 4;
    f.params.max_polys = 1024;
    f.tiles.push_back({0x123u, {1, 2, 3, 4}});
    f.tiles.push_back({0x456u, {9, 9, 9, 9, 9, 9, 9, 9}});
    std::vector<uint8_t> d;
    nav::write_mset(f, d);
    REQUIRE(d.size() == 40 + 8 + 4 + 8 + 8);
    CHECK(std::memcmp(d.data(), "TESM", 4) == 0);  // 'MSET' as a little-endian int
    CHECK(get<int32_t>(d, 4) == 1);
    CHECK(get<int32_t>(d, 8) == 2);
    CHECK(get<float>(d, 12) == -5.0f);
    CHECK(get<float>(d, 24) == 9.6f);
    CHECK(get<float>(d, 28) == 4.8f);
    CHECK(get<int32_t>(d, 32) == 4);
    CHECK(get<int32_t>(d, 36) == 1024);
    CHECK(get<uint32_t>(d, 40) == 0x123u);
    CHECK(get<int32_t>(d, 44) == 4);
    CHECK(d[48] == 1);
    CHECK(get<uint32_t>(d, 52) == 0x456u);
    CHECK(get<int32_t>(d, 56) == 8);
    CHECK(d[60] == 9);
}

TEST_CASE("detour write: navbake --navmesh-out and --tile-out write the files; bad paths exit 2") {
    nav::InputMesh m;
    navtest::add_floor(m, 0, 0, 30, 20, 0);
    navtest::add_box(m, 10, 0, 5, 14, 3, 12);
    navtest::TempFile obj(".obj", navtest::to_obj(m));
    navtest::TempFile mset(".bin");
    navtest::TempFile dir(".none");
    const std::string base = navbake_exe() + " '" + obj.path() + "'";

    // solo: one tile, tile_0_0.bin; the MSET holds it after its 40 + 8 bytes of headers
    auto r = navtest::run_cmd(base + " --navmesh-out '" + mset.path() + "' --tile-out '" + dir.path() + "'");
    REQUIRE_MESSAGE(r.code == 0, r.out);
    std::vector<uint8_t> file = read_bytes(mset.path());
    const std::vector<uint8_t> tile = read_bytes(dir.path() + "/tile_0_0.bin");
    REQUIRE(file.size() > 48);
    CHECK(std::memcmp(file.data(), "TESM", 4) == 0);
    CHECK(get<int32_t>(file, 8) == 1);
    CHECK(std::memcmp(tile.data(), "VAND", 4) == 0);
    CHECK(get<int32_t>(file, 44) == static_cast<int32_t>(tile.size()));
    CHECK(std::equal(tile.begin(), tile.end(), file.begin() + 48));

    // tiled: one file per tile with polygons, as many as the MSET holds
    std::filesystem::remove_all(dir.path());
    r = navtest::run_cmd(base + " --set tile_size=32 --navmesh-out '" + mset.path() + "' --tile-out '" + dir.path() + "'");
    REQUIRE_MESSAGE(r.code == 0, r.out);
    file = read_bytes(mset.path());
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
        ++files;
        CHECK(e.path().filename().string().rfind("tile_", 0) == 0);
    }
    CHECK(files > 1);
    CHECK(get<int32_t>(file, 8) == files);
    CHECK(std::filesystem::exists(dir.path() + "/tile_1_0.bin"));
    std::filesystem::remove_all(dir.path());

    // bad outputs: exit 2, the flag named
    r = navtest::run_cmd(base + " --navmesh-out /nonexistent-dir/x.bin");
    CHECK(r.code == 2);
    CHECK(r.out.find("--navmesh-out") != std::string::npos);
    r = navtest::run_cmd(base + " --tile-out /nonexistent-dir/tiles");
    CHECK(r.code == 2);
    CHECK(r.out.find("--tile-out") != std::string::npos);
    r = navtest::run_cmd(base + " --tile-out '" + obj.path() + "'");
    CHECK(r.code == 2);
    CHECK(r.out.find("not a directory") != std::string::npos);
    r = navtest::run_cmd(base + " --navmesh-out /dev/full");
    CHECK(r.code == 2);
    // another output inside the tile directory could be a tile file, or be taken for one
    std::filesystem::create_directory(dir.path());
    r = navtest::run_cmd(base + " --navmesh-out '" + dir.path() + "/tile_0_0.bin' --tile-out '" + dir.path() + "'");
    CHECK(r.code == 2);
    CHECK(r.out.find("inside the --tile-out directory") != std::string::npos);
    CHECK(std::filesystem::is_empty(dir.path()));
    std::filesystem::remove_all(dir.path());
    r = navtest::run_cmd(base + " --set verts_per_poly=8 --navmesh-out '" + mset.path() + "'");
    CHECK(r.code == 2);
    CHECK(r.out.find("verts_per_poly is 8") != std::string::npos);
    r = navtest::run_cmd(base + " --set tile_size=32 --tile 0,0 --navmesh-out '" + mset.path() + "'");
    CHECK(r.code == 2);
    CHECK(r.out.find("not with --tile") != std::string::npos);
    // a 2D map (a Polyanya .mesh: two triangles) has no voxel bake to write
    navtest::TempFile map(".mesh", "mesh\n2\n4 2\n0 0 3 0 1 -1\n1 0 2 0 -1\n1 1 3 0 1 -1\n0 1 2 1 -1\n3 0 1 2 1 -1 -1\n3 0 2 3 -1 0 -1\n");
    r = navtest::run_cmd(navbake_exe() + " '" + map.path() + "' --tile-out '" + dir.path() + "'");
    CHECK(r.code == 2);
    CHECK(r.out.find("--tile-out does not apply to a 2D map") != std::string::npos);
    CHECK(!std::filesystem::exists(dir.path()));
}
