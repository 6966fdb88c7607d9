// Stage 4: erosion of the walkable area by the agent radius, on hand-made compact heightfields.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/erode.h"

namespace {

// One floor of a hand-made compact heightfield: a map with one string per z row and one char
// per x: '.' no span, '#' ground (63), 'w' water (1), 'x' null area; all its spans sit at floor y.
struct Layer {
    int y;
    std::vector<std::string> map;
};

uint8_t area_of(char c) { return c == '#' ? nav::kWalkableArea : c == 'w' ? nav::kAreaWater : nav::kNullArea; }
char char_of(uint8_t a) { return a == nav::kWalkableArea ? '#' : a == nav::kAreaWater ? 'w' : a == nav::kNullArea ? 'x' : '?'; }

// Builds the compact heightfield of the layers (all maps the same size). A cell's spans are in
// layer order; two spans of the same layer in adjacent cells are linked, nothing else is.
nav::CompactHeightfield make_chf(const std::vector<Layer>& layers) {
    nav::CompactHeightfield chf;
    chf.height = static_cast<int>(layers[0].map.size());
    chf.width = static_cast<int>(layers[0].map[0].size());
    const int w = chf.width, h = chf.height, nl = static_cast<int>(layers.size());
    chf.cells.resize(static_cast<size_t>(w * h));
    std::vector<int> slot(static_cast<size_t>(w * h * nl), -1);  // layer index within the cell, or -1
    for (int z = 0; z < h; ++z) {
        for (int x = 0; x < w; ++x) {
            nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * w)];
            c.index = static_cast<uint32_t>(chf.spans.size());
            for (int l = 0; l < nl; ++l) {
                const char ch = layers[static_cast<size_t>(l)].map[static_cast<size_t>(z)][static_cast<size_t>(x)];
                if (ch == '.') continue;
                slot[static_cast<size_t>((x + z * w) * nl + l)] = static_cast<int>(c.count);
                nav::CompactSpan s;
                s.y = static_cast<uint16_t>(layers[static_cast<size_t>(l)].y);
                s.h = 255;
                s.con = 0xffffff;
                chf.spans.push_back(s);
                chf.areas.push_back(area_of(ch));
                ++c.count;
            }
        }
    }
    for (int z = 0; z < h; ++z)
        for (int x = 0; x < w; ++x)
            for (int l = 0; l < nl; ++l) {
                const int k = slot[static_cast<size_t>((x + z * w) * nl + l)];
                if (k < 0) continue;
                nav::CompactSpan& s = chf.spans[chf.cells[static_cast<size_t>(x + z * w)].index + static_cast<uint32_t>(k)];
                for (int dir = 0; dir < 4; ++dir) {
                    const int nx = x + nav::dir_offset_x(dir), nz = z + nav::dir_offset_z(dir);
                    if (nx < 0 || nz < 0 || nx >= w || nz >= h) continue;
                    const int nk = slot[static_cast<size_t>((nx + nz * w) * nl + l)];
                    if (nk >= 0) nav::set_con(s, dir, nk);
                }
            }
    chf.span_count = static_cast<uint32_t>(chf.spans.size());
    return chf;
}

// The areas of one layer drawn like the input maps.
std::vector<std::string> draw(const nav::CompactHeightfield& chf, const std::vector<uint8_t>& areas, int y) {
    std::vector<std::string> rows(static_cast<size_t>(chf.height), std::string(static_cast<size_t>(chf.width), '.'));
    for (int z = 0; z < chf.height; ++z)
        for (int x = 0; x < chf.width; ++x) {
            const nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * chf.width)];
            for (uint32_t i = c.index; i < c.index + c.count; ++i)
                if (chf.spans[i].y == y) rows[static_cast<size_t>(z)][static_cast<size_t>(x)] = char_of(areas[i]);
        }
    return rows;
}

std::vector<std::string> eroded(const std::vector<Layer>& layers, int radius, int draw_y) {
    const nav::CompactHeightfield chf = make_chf(layers);
    std::vector<uint8_t> areas = chf.areas, scratch;
    const nav::Status st = nav::erode_walkable_area(radius, chf, areas, scratch);
    REQUIRE(st.is_ok());
    return draw(chf, areas, draw_y);
}

const std::vector<std::string> kFloor7 = {
    ".........",
    ".#######.",
    ".#######.",
    ".#######.",
    ".#######.",
    ".#######.",
    ".#######.",
    ".#######.",
    ".........",
};

}  // namespace

TEST_CASE("erode: 7x7 floor, radius 0 to 4") {
    CHECK(eroded({{0, kFloor7}}, 0, 0) == kFloor7);
    CHECK(eroded({{0, kFloor7}}, 1, 0) == std::vector<std::string>{
                                              ".........",
                                              ".xxxxxxx.",
                                              ".x#####x.",
                                              ".x#####x.",
                                              ".x#####x.",
                                              ".x#####x.",
                                              ".x#####x.",
                                              ".xxxxxxx.",
                                              ".........",
                                          });
    CHECK(eroded({{0, kFloor7}}, 2, 0) == std::vector<std::string>{
                                              ".........",
                                              ".xxxxxxx.",
                                              ".xxxxxxx.",
                                              ".xx###xx.",
                                              ".xx###xx.",
                                              ".xx###xx.",
                                              ".xxxxxxx.",
                                              ".xxxxxxx.",
                                              ".........",
                                          });
    // The centre is at distance 6 (three +2 steps) from the rim: radius 3 keeps it (6 < 6 fails).
    CHECK(eroded({{0, kFloor7}}, 3, 0) == std::vector<std::string>{
                                              ".........",
                                              ".xxxxxxx.",
                                              ".xxxxxxx.",
                                              ".xxxxxxx.",
                                              ".xxx#xxx.",
                                              ".xxxxxxx.",
                                              ".xxxxxxx.",
                                              ".xxxxxxx.",
                                              ".........",
                                          });
    const std::vector<std::string> none = {
        ".........", ".xxxxxxx.", ".xxxxxxx.", ".xxxxxxx.", ".xxxxxxx.",
        ".xxxxxxx.", ".xxxxxxx.", ".xxxxxxx.", ".........",
    };
    CHECK(eroded({{0, kFloor7}}, 4, 0) == none);
    CHECK(eroded({{0, kFloor7}}, 200, 0) == none);  // beyond the 8-bit distance range: still all gone
}

TEST_CASE("erode: spans on the grid edge are boundaries too") {
    const std::vector<std::string> full = {"#####", "#####", "#####", "#####", "#####"};
    CHECK(eroded({{0, full}}, 1, 0) == std::vector<std::string>{"xxxxx", "x###x", "x###x", "x###x", "xxxxx"});
}

TEST_CASE("erode: island with a hole, radius 2") {
    // 11x11 floor covering the whole grid with one cell missing in the middle. The hole's four
    // side neighbours are boundaries; everything within chamfer distance < 4 of them (side +2,
    // corner +3) is eroded, which cuts a plus-shaped patch out of the ring that survives the rim.
    std::vector<std::string> floor(11, std::string(11, '#'));
    const std::vector<std::string> expect = {
        "xxxxxxxxxxx",
        "xxxxxxxxxxx",
        "xx#######xx",
        "xx##xxx##xx",
        "xx#xxxxx#xx",
        "xx#xx.xx#xx",
        "xx#xxxxx#xx",
        "xx##xxx##xx",
        "xx#######xx",
        "xxxxxxxxxxx",
        "xxxxxxxxxxx",
    };
    SUBCASE("hole without a span") {
        floor[5][5] = '.';
        CHECK(eroded({{0, floor}}, 2, 0) == expect);
    }
    SUBCASE("hole as a linked span of null area") {
        floor[5][5] = 'x';
        std::vector<std::string> e = expect;
        e[5][5] = 'x';
        CHECK(eroded({{0, floor}}, 2, 0) == e);
    }
}

TEST_CASE("erode: only null areas and missing links are boundaries, not other area ids") {
    // Left part water, right part ground: the border between them does not erode.
    std::vector<std::string> map = kFloor7;
    for (size_t z = 1; z <= 7; ++z)
        for (size_t x = 1; x <= 3; ++x) map[z][x] = 'w';
    CHECK(eroded({{0, map}}, 1, 0) == std::vector<std::string>{
                                          ".........",
                                          ".xxxxxxx.",
                                          ".xww###x.",
                                          ".xww###x.",
                                          ".xww###x.",
                                          ".xww###x.",
                                          ".xww###x.",
                                          ".xxxxxxx.",
                                          ".........",
                                      });
}

TEST_CASE("erode: stacked floors erode separately (neighbours found through layer links)") {
    // A 7x7 ground floor at y 0 and a 5x5 floor at y 40 over its middle: cells under the upper
    // floor hold two spans, so the upper floor's links point at layer 1.
    const std::vector<std::string> upper = {
        ".........",
        ".........",
        "..#####..",
        "..#####..",
        "..#####..",
        "..#####..",
        "..#####..",
        ".........",
        ".........",
    };
    const std::vector<Layer> layers = {{0, kFloor7}, {40, upper}};
    CHECK(eroded(layers, 1, 0) == std::vector<std::string>{
                                      ".........",
                                      ".xxxxxxx.",
                                      ".x#####x.",
                                      ".x#####x.",
                                      ".x#####x.",
                                      ".x#####x.",
                                      ".x#####x.",
                                      ".xxxxxxx.",
                                      ".........",
                                  });
    CHECK(eroded(layers, 1, 40) == std::vector<std::string>{
                                       ".........",
                                       ".........",
                                       "..xxxxx..",
                                       "..x###x..",
                                       "..x###x..",
                                       "..x###x..",
                                       "..xxxxx..",
                                       ".........",
                                       ".........",
                                   });
}

TEST_CASE("erode: diagonal steps cost 3") {
    // A lone null span at (4,4) of a 9x9 floor: it and its four side neighbours are boundaries.
    // (3,3) is next to two of them (2); (2,3) is a diagonal step from (3,4) (3, where two side
    // steps would give 4); (2,2) is two side steps from the rim (4) and three from (3,4) through
    // a diagonal (5). Radius 2 (threshold 4) keeps the 4s and erodes the rest.
    std::vector<std::string> floor(9, std::string(9, '#'));
    floor[4][4] = 'x';
    CHECK(eroded({{0, floor}}, 2, 0) == std::vector<std::string>{
                                            "xxxxxxxxx",
                                            "xxxxxxxxx",
                                            "xx#xxx#xx",
                                            "xxxxxxxxx",
                                            "xxxxxxxxx",
                                            "xxxxxxxxx",
                                            "xx#xxx#xx",
                                            "xxxxxxxxx",
                                            "xxxxxxxxx",
                                        });
}

TEST_CASE("erode: bad input") {
    const nav::CompactHeightfield chf = make_chf({{0, kFloor7}});
    std::vector<uint8_t> areas = chf.areas, scratch;
    nav::Status st = nav::erode_walkable_area(-1, chf, areas, scratch);
    CHECK(st.code == nav::Status::Code::BadInput);
    CHECK(st.message.find("radius") != std::string::npos);
    CHECK(areas == chf.areas);
    std::vector<uint8_t> short_areas(3, nav::kWalkableArea);
    st = nav::erode_walkable_area(1, chf, short_areas, scratch);
    CHECK_FALSE(st.is_ok());
    CHECK(short_areas == std::vector<uint8_t>(3, nav::kWalkableArea));
}

TEST_CASE("erode: empty heightfield") {
    nav::CompactHeightfield chf;
    std::vector<uint8_t> areas, scratch;
    CHECK(nav::erode_walkable_area(2, chf, areas, scratch).is_ok());
    CHECK(areas.empty());
}
