// The Detour file reader (core/runtime/detour_read.cpp) on bad files: the tiny MSET and tile of the
// fuzz seed corpus (tests/fuzz/corpus/navmesh/, made by Detour's dtCreateNavMeshData in
// tests/diff/test_diff_detour_read.cpp) with every header field set out of range, truncated at
// every 64th byte, and a few hundred random byte flips (fixed seed). Each out-of-range field and
// each truncation gives bad_input naming the file and a byte offset; a flip gives bad_input or a
// mesh that builds (a flip in bytes the reader skips, such as Detour's run-time links, changes
// nothing), never a crash. navbake --navmesh-in exits 2 on a bad file and prints the counts of a good one.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/detour_format.h"
#include "core/runtime/detour_load.h"
#include "core/runtime/query.h"
#include "test_files.h"

namespace {

std::vector<uint8_t> corpus(const char* name) {
    std::ifstream f(std::string(NAV_SOURCE_DIR) + "/tests/fuzz/corpus/navmesh/" + name, std::ios::binary);
    REQUIRE_MESSAGE(f.good(), name << " missing");
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Reads and stitches; the status of whichever step failed.
nav::Status load(const std::vector<uint8_t>& bytes, nav::NavMesh& mesh) {
    std::vector<std::shared_ptr<const nav::NavTile>> tiles;
    if (nav::Status s = nav::read_detour_tiles(bytes.data(), bytes.size(), "bad.bin", tiles); !s) return s;
    // as load_detour_navmesh: the stitching's message (a polygon wound the wrong way) names the file
    if (nav::Status s = nav::build_navmesh(tiles, nullptr, mesh); !s) return nav::Status{s.code, "bad.bin: " + s.message};
    return nav::Status::ok();
}

template <typename T>
std::vector<uint8_t> with(std::vector<uint8_t> b, size_t at, T v) {
    std::memcpy(&b[at], &v, sizeof v);
    return b;
}

void expect_bad(const std::vector<uint8_t>& b, const std::string& what) {
    nav::NavMesh mesh;
    const nav::Status s = load(b, mesh);
    CHECK_MESSAGE(s.code == nav::Status::Code::BadInput, what);
    CHECK_MESSAGE(s.message.find("bad.bin") != std::string::npos, what << ": " << s.message);
    CHECK_MESSAGE(s.message.find("byte ") != std::string::npos, what << ": " << s.message);
    CHECK(mesh.npolys == 0);
}

constexpr size_t kTile0 = 48;  // tiny.mset: the 40-byte header, tile 0's reference and size, its data
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN(), kInf = std::numeric_limits<float>::infinity();

}  // namespace

TEST_CASE("detour read: the seed files load") {
    nav::NavMesh mesh;
    const nav::Status s = load(corpus("tiny.mset"), mesh);
    REQUIRE_MESSAGE(s.is_ok(), s.message);
    CHECK(mesh.ntiles == 2);
    CHECK(mesh.npolys == 4);
    CHECK(mesh.nislands == 1);
    nav::NavMesh one;
    const nav::Status s1 = load(corpus("tiny_tile.bin"), one);
    REQUIRE_MESSAGE(s1.is_ok(), s1.message);
    CHECK(one.npolys == 2);
    nav::DetourMeshFile f;
    const std::vector<uint8_t> t = corpus("tiny_tile.bin");
    REQUIRE(nav::read_detour_file(t.data(), t.size(), "t", f).is_ok());
    CHECK(f.params.orig[0] == 0.0f);
    CHECK(f.params.tile_width == 10.0f);
    CHECK(f.params.tile_height == 10.0f);
}

TEST_CASE("detour read: every MSET header field out of range is bad input with its byte offset") {
    const std::vector<uint8_t> m = corpus("tiny.mset");
    expect_bad(with<uint32_t>(m, 0, 0x12345678), "magic");
    expect_bad(with<int32_t>(m, 4, 2), "version 2");
    expect_bad(with<int32_t>(m, 8, -1), "numTiles -1");
    expect_bad(with<int32_t>(m, 8, 3), "numTiles 3");
    expect_bad(with<int32_t>(m, 8, 1), "numTiles 1 (a tile left over)");
    expect_bad(with<int32_t>(m, 8, std::numeric_limits<int32_t>::max()), "numTiles max");
    for (size_t k = 0; k < 5; ++k) {
        expect_bad(with<float>(m, 12 + k * 4, kNaN), "params float NaN " + std::to_string(k));
        expect_bad(with<float>(m, 12 + k * 4, kInf), "params float inf " + std::to_string(k));
    }
    expect_bad(with<float>(m, 24, 0.0f), "tileWidth 0");
    expect_bad(with<float>(m, 28, -10.0f), "tileHeight -10");
    expect_bad(with<int32_t>(m, 32, 1), "maxTiles 1 < 2 tiles");
    expect_bad(with<int32_t>(m, 36, 0), "maxPolys 0");
    expect_bad(with<uint32_t>(m, 40, 0), "tile 0 ref 0");
    expect_bad(with<int32_t>(m, 44, -1), "tile 0 dataSize -1");
    expect_bad(with<int32_t>(m, 44, 0), "tile 0 dataSize 0");
    expect_bad(with<int32_t>(m, 44, std::numeric_limits<int32_t>::max()), "tile 0 dataSize max");
    expect_bad(with<int32_t>(m, 44, 600), "tile 0 dataSize short");
    std::vector<uint8_t> longer = m;
    longer.push_back(0);
    expect_bad(longer, "a byte after the last tile");
}

TEST_CASE("detour read: every tile header field out of range is bad input with its byte offset") {
    const std::vector<uint8_t> m = corpus("tiny.mset");
    const size_t h = kTile0;
    expect_bad(with<uint32_t>(m, h + 0, 0x4e415644), "tile magic");
    expect_bad(with<int32_t>(m, h + 4, 6), "tile version 6");
    expect_bad(with<int32_t>(m, h + 4, 8), "tile version 8");
    for (size_t k = 0; k < 9; ++k) {  // polyCount .. offMeshBase
        const size_t at = h + 24 + k * 4;
        int32_t v = 0;
        std::memcpy(&v, &m[at], 4);
        expect_bad(with<int32_t>(m, at, -1), "count " + std::to_string(k) + " = -1");
        expect_bad(with<int32_t>(m, at, v + 1), "count " + std::to_string(k) + " + 1");
        expect_bad(with<int32_t>(m, at, std::numeric_limits<int32_t>::max()), "count " + std::to_string(k) + " = max");
        expect_bad(with<int32_t>(m, at, std::numeric_limits<int32_t>::min()), "count " + std::to_string(k) + " = min");
        if (v > 0) expect_bad(with<int32_t>(m, at, v - 1), "count " + std::to_string(k) + " - 1");
    }
    for (size_t k = 0; k < 10; ++k) {  // walkable height, radius, climb, bmin, bmax, bvQuantFactor
        const size_t at = h + 60 + k * 4;
        expect_bad(with<float>(m, at, kNaN), "float NaN " + std::to_string(k));
        expect_bad(with<float>(m, at, -kInf), "float -inf " + std::to_string(k));
        expect_bad(with<float>(m, at, 1e30f), "float 1e30 " + std::to_string(k));
    }
    for (size_t k = 0; k < 3; ++k) expect_bad(with<float>(m, h + 60 + k * 4, -1.0f), "walkable -1 " + std::to_string(k));
    expect_bad(with<float>(m, h + 84, -5.0f), "bmax x below bmin x");
    expect_bad(with<float>(m, h + 96, 0.0f), "bvQuantFactor 0 with BV nodes");
}

TEST_CASE("detour read: truncation at every 64th byte is bad input") {
    for (const char* name : {"tiny.mset", "tiny_tile.bin"}) {
        const std::vector<uint8_t> m = corpus(name);
        for (size_t n = 0; n < m.size(); n += 64) expect_bad(std::vector<uint8_t>(m.begin(), m.begin() + static_cast<long>(n)), std::string(name) + " cut at " + std::to_string(n));
        expect_bad(std::vector<uint8_t>(m.begin(), m.end() - 1), std::string(name) + " one byte short");
    }
}

TEST_CASE("detour read: random byte flips give bad input or a mesh that builds, never a crash") {
    uint64_t state = 0x44455455524e4156ull;  // fixed seed: the same flips every run
    auto next = [&] {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        return state;
    };
    int bad = 0, fine = 0;
    for (const char* name : {"tiny.mset", "tiny_tile.bin"}) {
        const std::vector<uint8_t> m = corpus(name);
        for (int i = 0; i < 200; ++i) {
            std::vector<uint8_t> b = m;
            const int flips = 1 + static_cast<int>(next() % 3);
            for (int f = 0; f < flips; ++f) b[next() % b.size()] ^= static_cast<uint8_t>(1u << (next() % 8));
            nav::NavMesh mesh;
            const nav::Status s = load(b, mesh);
            if (s.is_ok()) {
                ++fine;
                // what loads answers queries
                nav::NavQuery q;
                q.init(&mesh);
                nav::Rng rng(1);
                nav::RandomPoint p;
                CHECK(q.random_point(nav::QueryFilter{}, rng, p).is_ok());
            } else {
                ++bad;
                CHECK(s.code == nav::Status::Code::BadInput);
                CHECK(s.message.find("bad.bin") != std::string::npos);
            }
        }
    }
    MESSAGE("byte flips: " << bad << " bad input, " << fine << " loaded");
    // many flips land in bytes the reader skips: Detour's run-time links (a third of tile 0), userId
    CHECK(bad >= 100);
}

TEST_CASE("detour read: navbake --navmesh-in prints the counts, exits 2 on a bad file") {
    const std::string exe = std::string("'") + NAVBAKE_EXE + "'";
    const std::string good = std::string(NAV_SOURCE_DIR) + "/tests/fuzz/corpus/navmesh/tiny.mset";
    const navtest::RunResult r = navtest::run_cmd(exe + " --navmesh-in '" + good + "' --paths 20");
    CHECK_MESSAGE(r.code == 0, r.out);
    CHECK_MESSAGE(r.out.find("2 tiles, 4 polygons") != std::string::npos, r.out);
    CHECK_MESSAGE(r.out.find("paths: 20 of 20 reached") != std::string::npos, r.out);
    const navtest::RunResult j = navtest::run_cmd(exe + " --navmesh-in '" + good + "' --json", false);
    CHECK_MESSAGE(j.code == 0, j.out);
    CHECK_MESSAGE(j.out.find("\"islands\": 1") != std::string::npos, j.out);
    std::vector<uint8_t> bad = corpus("tiny.mset");
    bad[kTile0 + 24] = 0xff;
    navtest::TempFile f(".bin", std::string(bad.begin(), bad.end()));
    const navtest::RunResult b = navtest::run_cmd(exe + " --navmesh-in '" + f.path() + "'");
    CHECK(b.code == 2);
    CHECK_MESSAGE(b.out.find("byte 72 (tile header counts)") != std::string::npos, b.out);
    const navtest::RunResult both = navtest::run_cmd(exe + " some.obj --navmesh-in '" + good + "'");
    CHECK(both.code == 2);
    const navtest::RunResult set = navtest::run_cmd(exe + " --navmesh-in '" + good + "' --set cell_size=0.2");
    CHECK(set.code == 2);
    CHECK_MESSAGE(set.out.find("only the query parameters apply") != std::string::npos, set.out);
}

TEST_CASE("detour read: tile coordinates at the ends of int are bad input (fuzz_navmesh found the overflow)") {
    const std::vector<uint8_t> m = corpus("tiny_tile.bin");
    expect_bad(with<int32_t>(m, 8, std::numeric_limits<int32_t>::min()), "x = INT_MIN");
    expect_bad(with<int32_t>(m, 12, std::numeric_limits<int32_t>::max()), "y = INT_MAX");
    expect_bad(with<int32_t>(m, 16, -(1 << 25)), "layer far out");
    // and any producer's tile, at the NavMesh
    nav::NavTile t;
    t.x = std::numeric_limits<int32_t>::min();
    CHECK(nav::validate_tile(t).code == nav::Status::Code::BadInput);
}
