// The colour each area id is drawn in, taken from the area table the bake carries (BakeInputs::areas)
// rather than from any program-wide state: the layers, their legends and the volume tool read it.
#pragma once
#include <array>
#include <cstdint>

#include "core/bake/areas.h"

namespace nav::render {

// The area table's colour of every id (opaque); the built-in colour (default_area_color) for ids
// the table lacks. Layers drawn in these colours are rebuilt when they change (layer_colors_key).
struct AreaColors {
    std::array<uint32_t, 256> rgba{};
    explicit AreaColors(const AreaTable& areas) {
        for (size_t id = 0; id < rgba.size(); ++id) rgba[id] = areas.color_of(static_cast<uint8_t>(id)) | 0xff000000u;
    }
    uint32_t operator()(uint8_t area) const { return rgba[area]; }
    // FNV-1a of the colours; never 0 (the key of a layer drawn in no area colour).
    uint64_t hash() const {
        uint64_t h = 1469598103934665603ull;
        for (const uint32_t c : rgba) h = (h ^ c) * 1099511628211ull;
        return h | 1;
    }
};

}  // namespace nav::render
