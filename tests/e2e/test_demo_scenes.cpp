// End-to-end: navbake on the project's own demo scenes gives the golden counts (checked against a
// Recast 1.5.1 bake when the scenes were made; see assets/README.md), and each scene feature does
// what the scene promises at the default parameters.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "tests/config_inputs.h"
#include "core/pipeline/pipeline.h"
#include "test_files.h"

namespace {

std::string asset(const char* name) { return std::string(NAV_SOURCE_DIR) + "/assets/" + name; }

nlohmann::json bake(const std::string& args) {
    const auto r = navtest::run_cmd(std::string("'") + NAVBAKE_EXE + "' " + args + " --json", false);
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(r.out);
}

// The walkable compact span at world (x, z) whose floor is nearest to y, or -1.
long span_at(const nav::Bake& b, float x, float y, float z) {
    const nav::CompactHeightfield& chf = *b.compact;
    const int cx = static_cast<int>((x - chf.bmin[0]) / chf.cs), cz = static_cast<int>((z - chf.bmin[2]) / chf.cs);
    if (cx < 0 || cz < 0 || cx >= chf.width || cz >= chf.height) return -1;
    const nav::CompactCell& c = chf.cells[static_cast<size_t>(cx + cz * chf.width)];
    long best = -1;
    float bestd = 0.5f;
    for (uint32_t i = c.index; i < c.index + c.count; ++i) {
        const float fy = chf.bmin[1] + static_cast<float>(chf.spans[i].y) * chf.ch;
        if (std::abs(fy - y) < bestd) {
            bestd = std::abs(fy - y);
            best = static_cast<long>(i);
        }
    }
    return best;
}

}  // namespace

TEST_CASE("demo scenes: golden counts with the default parameters") {
    struct Golden {
        const char* scene;
        const char* extra;
        int solid, compact, walkable, regions_ws, regions_mono, regions_layers;
    };
    const Golden golden[] = {
        {"demo.obj", "--config assets/demo.json", 21185, 16925, 12581, 15, 17, 4},
        {"stairs.obj", "", 3980, 2380, 1237, 3, -1, -1},
        {"islands.obj", "", 3337, 1553, 913, 5, -1, -1},
    };
    for (const Golden& g : golden) {
        CAPTURE(g.scene);
        std::string extra = g.extra;
        if (!extra.empty()) extra = "--config '" + asset("demo.json") + "'";
        const auto j = bake("'" + asset(g.scene) + "' " + extra);
        CHECK(j["counts"]["solid_spans"] == g.solid);
        CHECK(j["counts"]["compact_spans"] == g.compact);
        CHECK(j["counts"]["walkable_spans"] == g.walkable);
        CHECK(j["counts"]["regions"] == g.regions_ws);
        if (g.regions_mono >= 0)
            CHECK(bake("'" + asset(g.scene) + "' " + extra + " --set partition=monotone")["counts"]["regions"] ==
                  g.regions_mono);
        if (g.regions_layers >= 0)
            CHECK(bake("'" + asset(g.scene) + "' " + extra + " --set partition=layers")["counts"]["regions"] ==
                  g.regions_layers);
    }
}

// Walkable spans reachable over links from span `from` (areas after erosion and volumes).
static std::vector<char> reachable(const nav::Bake& b, long from) {
    const nav::CompactHeightfield& chf = *b.compact;
    const auto& areas = *b.areas;
    std::vector<char> seen(chf.spans.size(), 0);
    std::vector<std::pair<int, uint32_t>> stack;  // (cell index, span)
    for (int z = 0; z < chf.height; ++z)
        for (int x = 0; x < chf.width; ++x) {
            const nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * chf.width)];
            if (from >= c.index && from < static_cast<long>(c.index + c.count)) stack.push_back({x + z * chf.width, static_cast<uint32_t>(from)});
        }
    if (!stack.empty()) seen[static_cast<size_t>(from)] = 1;
    while (!stack.empty()) {
        const auto [ci, i] = stack.back();
        stack.pop_back();
        const int x = ci % chf.width, z = ci / chf.width;
        for (int d = 0; d < 4; ++d) {
            if (nav::get_con(chf.spans[i], d) == nav::kNotConnected) continue;
            const uint32_t n = chf.neighbour(x, z, i, d);
            if (seen[n] || areas[n] == nav::kNullArea) continue;
            seen[n] = 1;
            stack.push_back({(x + nav::dir_offset_x(d)) + (z + nav::dir_offset_z(d)) * chf.width, n});
        }
    }
    return seen;
}

TEST_CASE("demo scene: each feature behaves as assets/README.md promises") {
    nav::Pipeline p;
    REQUIRE(p.load_mesh(asset("demo.obj")));
    nav::Params params;
    std::vector<nav::ConvexVolume> vols;
    REQUIRE(navtest::load_config(asset("demo.json"), params, vols));
    REQUIRE(p.set_input(&nav::BakeInputs::params, params));
    REQUIRE(p.set_input(&nav::BakeInputs::volumes, vols));
    REQUIRE(p.run());
    const auto b = p.snapshot();
    const auto& areas = *b->areas;
    const auto& reg = b->regions->reg;
    const auto& compact_areas = b->compact->areas;
    const long plaza = span_at(*b, 0.0f, 0.2f, 0.0f);
    REQUIRE(plaza >= 0);
    const std::vector<char> reach = reachable(*b, plaza);
    auto walk = [&](float x, float y, float z) {
        const long s = span_at(*b, x, y, z);
        return s >= 0 && areas[static_cast<size_t>(s)] != nav::kNullArea && reg[static_cast<size_t>(s)] != 0;
    };
    auto reached = [&](float x, float y, float z) {
        const long s = span_at(*b, x, y, z);
        return s >= 0 && reach[static_cast<size_t>(s)] && reg[static_cast<size_t>(s)] != 0;
    };
    CHECK(reached(-17.1f, 0.9f, -2.7f));   // 0.8 m stair, step 1
    CHECK(reached(-17.1f, 3.3f, -7.2f));   // 0.8 m stair, step 4
    CHECK(reached(-14.1f, 4.1f, -13.2f));  // upper floor west
    {                                      // 1.0 m stair: walkable after filters, eroded away
        const long s = span_at(*b, -12.6f, 2.1f, -5.7f);
        REQUIRE(s >= 0);
        CHECK(compact_areas[static_cast<size_t>(s)] != nav::kNullArea);
        CHECK(areas[static_cast<size_t>(s)] == nav::kNullArea);
    }
    CHECK(reached(-8.1f, 0.2f, -12.9f));   // corridor under the bridge
    CHECK(reached(-8.1f, 4.1f, -12.9f));   // bridge deck
    CHECK(reached(-3.9f, 4.1f, -15.0f));   // upper floor east, only via the bridge
    {                                      // narrow doorway: open before erosion, closed after
        const long s = span_at(*b, 6.0f, 0.2f, -6.0f);
        REQUIRE(s >= 0);
        CHECK(compact_areas[static_cast<size_t>(s)] != nav::kNullArea);
        CHECK(areas[static_cast<size_t>(s)] == nav::kNullArea);
    }
    CHECK(reached(14.1f, 0.2f, -6.0f));    // wide doorway
    CHECK(reached(10.2f, 0.2f, -12.0f));   // inside the hall
    CHECK_FALSE(walk(-14.1f, 0.2f, 15.0f));  // floor under the low table
    CHECK(reached(-14.1f, 0.9f, 15.0f));   // table top (a climbable step)
    CHECK(reached(-14.1f, 1.45f, 8.1f));   // ramp
    CHECK(reached(-7.2f, 2.9f, 8.1f));     // mid platform
    CHECK_FALSE(walk(-3.3f, 2.0f, 8.1f));  // steep slope
    CHECK(reached(0.0f, 0.8f, 3.0f));      // hurdle beam, made walkable by the low-hanging filter
    CHECK_FALSE(walk(0.0f, 0.2f, 3.0f));   // floor under the hurdle
    CHECK(reached(6.9f, 4.85f, 11.4f));    // spiral staircase, high step
    CHECK(reached(9.9f, 5.35f, 11.7f));    // spiral landing
    CHECK(walk(16.5f, 6.1f, 16.2f));       // unreachable platform: walkable...
    CHECK_FALSE(reached(16.5f, 6.1f, 16.2f));  // ...but not reachable
    const long pool = span_at(*b, 15.0f, 0.2f, 5.1f);
    REQUIRE(pool >= 0);
    CHECK(areas[static_cast<size_t>(pool)] == nav::kAreaWater);
    CHECK(reach[static_cast<size_t>(pool)]);
}
