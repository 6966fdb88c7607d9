// Stage 3 (compact heightfield): open spans, neighbour links (climb and clearance rules, layer
// indices, too many layers), and properties on a generated scene (sorted cells, links valid,
// first-match, symmetric).
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <vector>

#include "core/bake/compact.h"
#include "core/bake/filter.h"
#include "core/bake/rasterize.h"
#include "test_scenes.h"

namespace {

using nav::CompactHeightfield;
using nav::Heightfield;

constexpr int kHeight = 4;  // walkable_height
constexpr int kClimb = 2;   // walkable_climb

Heightfield grid(int w, int h) {
    Heightfield hf;
    const float bmin[3] = {0, 0, 0}, bmax[3] = {static_cast<float>(w), 100.0f, static_cast<float>(h)};
    hf.reset(w, h, bmin, bmax, 1.0f, 0.5f, 0);
    return hf;
}

void add_column(Heightfield& hf, int x, int z, std::initializer_list<std::array<int, 3>> spans) {
    for (const auto& s : spans)
        nav::add_span(hf, x, z, static_cast<uint16_t>(s[0]), static_cast<uint16_t>(s[1]), static_cast<uint8_t>(s[2]),
                      1);
}

const nav::CompactSpan& cspan(const CompactHeightfield& chf, int x, int z, int layer = 0) {
    const nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * chf.width)];
    REQUIRE(static_cast<uint32_t>(layer) < c.count);
    return chf.spans[c.index + static_cast<uint32_t>(layer)];
}

// Two columns side by side (x = 0 and x = 1); returns the compact heightfield.
CompactHeightfield pair(std::initializer_list<std::array<int, 3>> left, std::initializer_list<std::array<int, 3>> right) {
    Heightfield hf = grid(2, 1);
    add_column(hf, 0, 0, left);
    add_column(hf, 1, 0, right);
    CompactHeightfield chf;
    REQUIRE(nav::build_compact_heightfield(kHeight, kClimb, hf, chf).is_ok());
    return chf;
}

}  // namespace

TEST_CASE("compact: open spans start on walkable tops and reach the next solid span") {
    Heightfield hf = grid(3, 1);
    add_column(hf, 0, 0, {{0, 10, 63}, {15, 20, 4}});
    add_column(hf, 1, 0, {{0, 10, 0}});  // not walkable: no open span
    CompactHeightfield chf;
    REQUIRE(nav::build_compact_heightfield(kHeight, kClimb, hf, chf).is_ok());
    CHECK(chf.width == 3);
    CHECK(chf.height == 1);
    CHECK(chf.span_count == 2);
    CHECK(chf.spans.size() == 2);
    CHECK(chf.areas == std::vector<uint8_t>{63, 4});
    CHECK(chf.cells[0].index == 0);
    CHECK(chf.cells[0].count == 2);
    CHECK(chf.cells[1].count == 0);
    CHECK(chf.cells[2].count == 0);
    CHECK(cspan(chf, 0, 0, 0).y == 10);
    CHECK(cspan(chf, 0, 0, 0).h == 5);
    CHECK(cspan(chf, 0, 0, 1).y == 20);
    CHECK(cspan(chf, 0, 0, 1).h == 255);  // open sky, clamped
    CHECK(chf.walkable_height == kHeight);
    CHECK(chf.walkable_climb == kClimb);
    CHECK(chf.bmax[1] == doctest::Approx(100.0f + kHeight * 0.5f));  // room for an agent on top
    for (int dir = 0; dir < 4; ++dir) CHECK(nav::get_con(cspan(chf, 0, 0), dir) == nav::kNotConnected);
}

TEST_CASE("compact: floors a climb apart link, one more do not") {
    SUBCASE("exactly a climb") {
        const CompactHeightfield chf = pair({{0, 10, 63}}, {{0, 10 + kClimb, 63}});
        CHECK(nav::get_con(cspan(chf, 0, 0), 2) == 0);  // +x
        CHECK(nav::get_con(cspan(chf, 1, 0), 0) == 0);  // -x
        for (int dir : {0, 1, 3}) CHECK(nav::get_con(cspan(chf, 0, 0), dir) == nav::kNotConnected);
        CHECK(chf.neighbour(0, 0, 0, 2) == 1);
    }
    SUBCASE("a climb + 1") {
        const CompactHeightfield chf = pair({{0, 10, 63}}, {{0, 10 + kClimb + 1, 63}});
        CHECK(nav::get_con(cspan(chf, 0, 0), 2) == nav::kNotConnected);
        CHECK(nav::get_con(cspan(chf, 1, 0), 0) == nav::kNotConnected);
    }
}

TEST_CASE("compact: links need walkable_height of shared clearance") {
    SUBCASE("one cell short") {
        const CompactHeightfield chf = pair({{0, 10, 63}}, {{0, 10, 63}, {10 + kHeight - 1, 30, 0}});
        CHECK(nav::get_con(cspan(chf, 0, 0), 2) == nav::kNotConnected);
        CHECK(nav::get_con(cspan(chf, 1, 0), 0) == nav::kNotConnected);
    }
    SUBCASE("exactly walkable_height") {
        const CompactHeightfield chf = pair({{0, 10, 63}}, {{0, 10, 63}, {10 + kHeight, 30, 0}});
        CHECK(nav::get_con(cspan(chf, 0, 0), 2) == 0);
        CHECK(nav::get_con(cspan(chf, 1, 0), 0) == 0);
    }
    SUBCASE("the gap is shared: a step up under a ceiling") {
        // Floors 10 and 12 (within a climb); the right one's ceiling at 15 leaves 10..15 shared
        // from 12 up: 3 cells, less than walkable_height.
        const CompactHeightfield chf = pair({{0, 10, 63}}, {{0, 12, 63}, {15, 30, 0}});
        CHECK(nav::get_con(cspan(chf, 0, 0), 2) == nav::kNotConnected);
    }
}

TEST_CASE("compact: links name the neighbour's layer") {
    // Right column: a low floor (top 2, roof at 8) and an upper floor (top 10).
    const CompactHeightfield chf = pair({{0, 10, 63}}, {{0, 2, 63}, {8, 10, 63}});
    REQUIRE(chf.cells[1].count == 2);
    CHECK(nav::get_con(cspan(chf, 0, 0), 2) == 1);
    CHECK(nav::get_con(cspan(chf, 1, 0, 1), 0) == 0);
    CHECK(nav::get_con(cspan(chf, 1, 0, 0), 0) == nav::kNotConnected);
    CHECK(chf.neighbour(0, 0, 0, 2) == chf.cells[1].index + 1);
}

TEST_CASE("compact: a link beyond layer 62 is an error; tall columns without one are fine") {
    SUBCASE("70 matching floors on both sides") {
        Heightfield hf = grid(2, 1);
        for (int x = 0; x < 2; ++x)
            for (int k = 0; k < 70; ++k)
                nav::add_span(hf, x, 0, static_cast<uint16_t>(k * 20), static_cast<uint16_t>(k * 20 + 1), 63, 1);
        CompactHeightfield chf;
        const nav::Status st = nav::build_compact_heightfield(kHeight, kClimb, hf, chf);
        CHECK(st.code == nav::Status::Code::BadInput);
        CHECK(st.message.find("layer 63") != std::string::npos);
    }
    SUBCASE("70 floors next to one") {
        Heightfield hf = grid(2, 1);
        for (int k = 0; k < 70; ++k)
            nav::add_span(hf, 0, 0, static_cast<uint16_t>(k * 20), static_cast<uint16_t>(k * 20 + 1), 63, 1);
        nav::add_span(hf, 1, 0, 0, 1, 63, 1);
        CompactHeightfield chf;
        REQUIRE(nav::build_compact_heightfield(kHeight, kClimb, hf, chf).is_ok());
        CHECK(chf.cells[0].count == 70);
        CHECK(nav::get_con(cspan(chf, 1, 0), 0) == 0);
    }
}

TEST_CASE("compact: properties on a generated scene") {
    nav::InputMesh m;
    navtest::add_floor(m, 0, 0, 16, 16, 0.0f);
    for (int i = 0; i < 6; ++i)  // stairs: steps of 0.3 m (1.5 cells of 0.2 m)
        navtest::add_box(m, 2.0f + 0.6f * static_cast<float>(i), 0, 2, 2.6f + 0.6f * static_cast<float>(i),
                         0.3f * static_cast<float>(i + 1), 6);
    navtest::add_box(m, 9, 0, 2, 14, 1.0f, 7);      // a platform with a drop
    navtest::add_box(m, 2, 1.2f, 9, 7, 1.5f, 14);   // a table too low to pass under
    navtest::add_box(m, 9, 2.6f, 9, 14, 3.0f, 14);  // a table high enough to walk under
    navtest::add_floor(m, 0, 9, 16, 16, 6.0f);      // an upper storey over part of the scene
    {
        // A ramp rising 2 m over 6 m along x.
        const int b = m.vert_count();
        const float v[] = {2, 0, 7.5f, 2, 0, 8.5f, 8, 2, 8.5f, 8, 2, 7.5f};
        m.verts.insert(m.verts.end(), v, v + 12);
        for (int k : {0, 1, 2, 0, 2, 3}) m.tris.push_back(b + k);
    }
    // Walkable where the normal is within 45 degrees of +y.
    std::vector<uint8_t> areas(static_cast<size_t>(m.tri_count()));
    for (int t = 0; t < m.tri_count(); ++t) {
        const float* a = &m.verts[static_cast<size_t>(m.tris[t * 3]) * 3];
        const float* b = &m.verts[static_cast<size_t>(m.tris[t * 3 + 1]) * 3];
        const float* c = &m.verts[static_cast<size_t>(m.tris[t * 3 + 2]) * 3];
        const float e0[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e1[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        const float n[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0]};
        const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        areas[static_cast<size_t>(t)] = len > 0 && n[1] / len > std::cos(45.0f / 180.0f * 3.14159265f) ? 63 : 0;
    }
    const int wh = 10, climb = 4;  // 2 m and 0.8 m at ch = 0.2
    Heightfield hf;
    const float bmin[3] = {0, 0, 0}, bmax[3] = {16, 7, 16};
    hf.reset(54, 54, bmin, bmax, 0.3f, 0.2f, 0);
    REQUIRE(nav::rasterize_triangles(m.verts.data(), m.vert_count(), m.tris.data(), areas.data(), m.tri_count(), hf,
                                     climb)
                .is_ok());
    nav::filter_low_hanging_obstacles(climb, hf);
    nav::filter_ledge_spans(wh, climb, hf);
    nav::filter_walkable_low_height_spans(wh, hf);
    CompactHeightfield chf;
    REQUIRE(nav::build_compact_heightfield(wh, climb, hf, chf).is_ok());

    uint32_t walkable = 0;
    for (const nav::Span& s : hf.pool) walkable += s.area != nav::kNullArea;  // the pool is all live here
    REQUIRE(hf.pool.size() == hf.span_count);
    CHECK(chf.span_count == walkable);
    CHECK(chf.span_count > 1000);

    int links = 0;
    for (int z = 0; z < chf.height; ++z)
        for (int x = 0; x < chf.width; ++x) {
            const nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * chf.width)];
            for (uint32_t i = c.index; i < c.index + c.count; ++i) {
                const nav::CompactSpan& s = chf.spans[i];
                if (i > c.index) CHECK(chf.spans[i - 1].y + chf.spans[i - 1].h <= s.y);  // sorted, apart
                CHECK(chf.areas[i] != nav::kNullArea);
                for (int dir = 0; dir < 4; ++dir) {
                    const int nx = x + nav::dir_offset_x(dir), nz = z + nav::dir_offset_z(dir);
                    const bool inside = nx >= 0 && nz >= 0 && nx < chf.width && nz < chf.height;
                    // The first neighbour span (bottom up) that qualifies, by brute force.
                    int expect = nav::kNotConnected;
                    if (inside) {
                        const nav::CompactCell& nc = chf.cells[static_cast<size_t>(nx + nz * chf.width)];
                        for (uint32_t k = 0; k < nc.count; ++k) {
                            const nav::CompactSpan& ns = chf.spans[nc.index + k];
                            const int gap = std::min(s.y + s.h, ns.y + ns.h) - std::max(s.y, ns.y);
                            if (std::abs(ns.y - s.y) <= climb && gap >= wh) {
                                expect = static_cast<int>(k);
                                break;
                            }
                        }
                    }
                    CHECK(nav::get_con(s, dir) == expect);
                    if (expect == nav::kNotConnected) continue;
                    ++links;
                    // Symmetric: the neighbour links back to this span (walkable_height > climb).
                    const uint32_t n = chf.neighbour(x, z, i, dir);
                    const int back = nav::get_con(chf.spans[n], (dir + 2) & 3);
                    CHECK(back == static_cast<int>(i - c.index));
                }
            }
        }
    CHECK(links > 3000);
    // The stairs (steps of 1.5 cells) are connected along x; the low table's top is not walkable.
    const int stair_z = static_cast<int>(4.0f / 0.3f);
    const int stair_x = static_cast<int>(3.5f / 0.3f);
    const nav::CompactCell& sc = chf.cells[static_cast<size_t>(stair_x + stair_z * chf.width)];
    REQUIRE(sc.count >= 1);
    CHECK(nav::get_con(chf.spans[sc.index + sc.count - 1], 2) != nav::kNotConnected);
}
