// The bake's one palette (core/bake/palette.h): the path's magenta is a hue no region, island or
// area colour takes (issue 23: the path read as one more region), and the A* closed nodes and the
// floor tint bands keep apart from it and from each other.
#include <doctest/doctest.h>

#include <cmath>

#include "core/bake/palette.h"
#include "core/common.h"
#include "render/layers.h"
#include "render/renderer.h"

namespace {

float hue_distance(float a, float b) {
    const float d = std::fabs(a - b);
    return std::min(d, 360.0f - d);
}

float saturation(uint32_t c) {
    const int r = c & 255, g = (c >> 8) & 255, b = (c >> 16) & 255;
    return static_cast<float>(std::max({r, g, b}) - std::min({r, g, b}));
}

uint32_t tint_rgba(int band) {
    float rgb[3];
    nav::render::floor_tint_color(band, rgb);
    return nav::palette_rgba(static_cast<int>(rgb[0] * 255.0f), static_cast<int>(rgb[1] * 255.0f),
                             static_cast<int>(rgb[2] * 255.0f));
}

}  // namespace

TEST_CASE("palette: no region, island or area colour takes the path's hue") {
    const float path = nav::palette_hue_deg(nav::kPalettePath);
    CHECK(hue_distance(path, nav::kPathHueDeg) < 3.0f);
    CHECK(nav::render::colors::kPathLine == nav::kPalettePath);
    float nearest = 360.0f;
    for (uint32_t id = 1; id < 20000; ++id) {
        nearest = std::min(nearest, hue_distance(nav::palette_hue_deg(nav::hash_color(id)), path));
        nearest = std::min(nearest, hue_distance(nav::palette_hue_deg(nav::region_color(static_cast<uint16_t>(id))), path));
    }
    for (int a = 0; a < 64; ++a)
        if (saturation(nav::default_area_color(static_cast<uint8_t>(a))) >= 40.0f)
            nearest = std::min(nearest, hue_distance(nav::palette_hue_deg(nav::default_area_color(static_cast<uint8_t>(a))), path));
    // the gap is kPathHueGap either side; hsv rounding to 8 bits moves a hue by well under a degree
    CHECK(nearest >= nav::kPathHueGap - 1.0f);
    // the ids still spread over the rest of the circle: every 30-degree sector outside the gap is used
    int sectors[12] = {};
    for (uint32_t id = 1; id < 2000; ++id) ++sectors[static_cast<int>(nav::palette_hue_deg(nav::hash_color(id)) / 30.0f) % 12];
    for (int s = 0; s < 12; ++s)
        if (hue_distance(static_cast<float>(s) * 30.0f + 15.0f, path) > nav::kPathHueGap + 15.0f) CHECK(sectors[s] > 0);
}

TEST_CASE("palette: floor tint bands, A* closed nodes and the path keep apart") {
    using namespace nav::render;
    const float path = nav::palette_hue_deg(colors::kPathLine);
    const float closed = nav::palette_hue_deg(colors::kNodeClosed);
    const float navmesh = nav::palette_hue_deg(colors::kCompactWalkable);
    CHECK(hue_distance(closed, path) >= 60.0f);
    CHECK(hue_distance(closed, navmesh) >= 60.0f);
    CHECK(((colors::kNodeClosed >> 24) & 255u) >= 200u);  // nearly opaque: not washed into the floor below
    for (int k = 0; k < 4; ++k) {
        const float hk = nav::palette_hue_deg(tint_rgba(k));
        CHECK(hue_distance(hk, path) >= nav::kPathHueGap);
        CHECK(hue_distance(hk, closed) >= 25.0f);
        for (int j = k + 1; j < 4; ++j) CHECK(hue_distance(hk, nav::palette_hue_deg(tint_rgba(j))) >= 40.0f);
        CHECK(tint_rgba(k) == tint_rgba(k + 4));   // the bands cycle by four
        CHECK(tint_rgba(k) == tint_rgba(k - 4));   // below band 0 too
    }
}
