// The colours of the bake's results, written once for every view of them: the render library's
// layers (render/layers.cpp) and the glTF export (core/formats/gltf_export.cpp) colour regions
// and polygons with these functions, so a file opened in Blender shows what a viewer showed. An
// area is drawn in its area table's colour (AreaTable::color_of, core/bake/areas.h), which starts
// from default_area_color. Pure functions, no state: RGBA8 packed in memory order r, g, b, a.
#pragma once
#include <cstdint>

namespace nav {

constexpr uint32_t palette_rgba(int r, int g, int b, int a = 255) {
    return static_cast<uint32_t>(r & 255) | (static_cast<uint32_t>(g & 255) << 8) |
           (static_cast<uint32_t>(b & 255) << 16) | (static_cast<uint32_t>(a & 255) << 24);
}

constexpr uint32_t kPaletteWalkable = palette_rgba(0, 192, 255);    // ground area (kWalkableArea)
constexpr uint32_t kPaletteNullArea = palette_rgba(72, 72, 80);     // not walkable (kNullArea)
constexpr uint32_t kPaletteRegionNone = palette_rgba(52, 52, 58);   // region 0
// The path tool's straight path: a magenta whose hue (about 315 degrees) no region, island, area
// or polygon colour takes (hash_color leaves kPathHueGap out), so the path never reads as a region.
constexpr uint32_t kPalettePath = palette_rgba(255, 30, 200);
constexpr float kPathHueDeg = 315.0f;
// Hues within this many degrees of kPathHueDeg are never produced by hash_color / default_area_color.
constexpr float kPathHueGap = 30.0f;

// A stable, well-spread colour per id: golden-ratio hue steps keep neighbouring ids apart, an
// integer hash varies saturation and value. The hue skips the path's (kPathHueDeg +- kPathHueGap).
uint32_t hash_color(uint32_t id);
// The built-in colour of an area id (the area table's default): ground light blue, water blue,
// road brown, door yellow, grass green, jump purple, other user ids a stable hash colour, null
// dark grey.
uint32_t default_area_color(uint8_t area);
// Per region id: 0 dark grey, tile-border regions (kBorderRegion) at half brightness.
uint32_t region_color(uint16_t id);
// r, g, b times k (rounded, clamped), alpha kept.
uint32_t palette_scale(uint32_t c, float k);
// The hue of c in degrees [0, 360) (0 for a grey).
float palette_hue_deg(uint32_t c);

}  // namespace nav
