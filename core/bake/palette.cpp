#include "core/bake/palette.h"

#include <algorithm>
#include <cmath>

#include "core/common.h"

namespace nav {

namespace {

uint32_t hsv(float h, float s, float v) {
    h = h - std::floor(h);
    const float c = v * s;
    const float hp = h * 6.0f;
    const float x = c * (1.0f - std::fabs(std::fmod(hp, 2.0f) - 1.0f));
    float r = 0, g = 0, b = 0;
    switch (static_cast<int>(hp) % 6) {
        case 0: r = c; g = x; break;
        case 1: r = x; g = c; break;
        case 2: g = c; b = x; break;
        case 3: g = x; b = c; break;
        case 4: r = x; b = c; break;
        default: r = c; b = x; break;
    }
    const float m = v - c;
    auto u8 = [](float f) { return std::clamp(static_cast<int>(f * 255.0f + 0.5f), 0, 255); };
    return palette_rgba(u8(r + m), u8(g + m), u8(b + m));
}

uint32_t mix32(uint32_t h) {  // lowbias32: nearby ids get unrelated bits
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

}  // namespace

uint32_t palette_scale(uint32_t c, float k) {
    auto ch = [&](int shift) {
        const float v = static_cast<float>((c >> shift) & 255u) * k + 0.5f;
        return static_cast<uint32_t>(std::clamp(static_cast<int>(v), 0, 255)) << shift;
    };
    return ch(0) | ch(8) | ch(16) | (c & 0xff000000u);
}

float palette_hue_deg(uint32_t c) {
    const float r = static_cast<float>(c & 255u), g = static_cast<float>((c >> 8) & 255u),
                b = static_cast<float>((c >> 16) & 255u);
    const float mx = std::max({r, g, b}), mn = std::min({r, g, b});
    if (mx - mn < 1e-3f) return 0.0f;
    float h;
    if (mx == r) h = std::fmod((g - b) / (mx - mn) + 6.0f, 6.0f);
    else if (mx == g) h = (b - r) / (mx - mn) + 2.0f;
    else h = (r - g) / (mx - mn) + 4.0f;
    return h * 60.0f;
}

uint32_t hash_color(uint32_t id) {
    const uint32_t h = mix32(id + 0x9e3779b9u);
    const float t = std::fmod(static_cast<float>(id) * 0.61803398875f + static_cast<float>(h & 63) / 640.0f, 1.0f);
    // spread over the circle minus the path's band, then step over that band
    constexpr float kGapLo = kPathHueDeg - kPathHueGap, kGapWidth = 2.0f * kPathHueGap;
    float deg = t * (360.0f - kGapWidth);
    if (deg >= kGapLo) deg += kGapWidth;
    const float hue = deg / 360.0f;
    const float sat = 0.50f + static_cast<float>((h >> 8) & 255) / 255.0f * 0.35f;
    const float val = 0.72f + static_cast<float>((h >> 16) & 255) / 255.0f * 0.26f;
    return hsv(hue, sat, val);
}

uint32_t default_area_color(uint8_t area) {
    switch (area) {
        case kNullArea: return kPaletteNullArea;
        case kWalkableArea: return kPaletteWalkable;
        case kAreaWater: return palette_rgba(36, 84, 232);
        case kAreaRoad: return palette_rgba(156, 122, 88);
        case kAreaDoor: return palette_rgba(236, 206, 48);
        case kAreaGrass: return palette_rgba(72, 190, 60);
        case kAreaJump: return palette_rgba(160, 80, 230);  // violet, short of the path's magenta
        default: return hash_color(area * 7919u);
    }
}

uint32_t region_color(uint16_t id) {
    const uint16_t r = static_cast<uint16_t>(id & ~kBorderRegion);
    if (r == 0) return kPaletteRegionNone;
    const uint32_t c = hash_color(r);
    return (id & kBorderRegion) ? palette_scale(c, 0.5f) : c;
}

}  // namespace nav
