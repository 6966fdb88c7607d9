// What the navdebug panels share: their text colours, the conversion of a render colour for ImGui,
// the count format, and (core/runtime/islands.h) the box a picked point is searched in for a
// navmesh polygon.
#pragma once
#include <imgui.h>

#include <cstdint>
#include <string>

#include "core/runtime/islands.h"  // kPickHalfExtents
#include "render/draw_list.h"

namespace navdebug {

using nav::kPickHalfExtents;

inline const ImVec4 kErrorColor(1.0f, 0.42f, 0.38f, 1.0f);
inline const ImVec4 kWarnColor(1.0f, 0.8f, 0.3f, 1.0f);
inline const ImVec4 kGoodColor(0.45f, 0.9f, 0.5f, 1.0f);
inline const ImVec4 kDimColor(0.55f, 0.57f, 0.62f, 1.0f);

// A render colour (render/draw_list.h rgba) for ImGui; `opaque` drops its alpha (text, swatches of
// translucent fills).
inline ImVec4 to_imvec(uint32_t c, bool opaque = false) {
    namespace r = nav::render;
    return {static_cast<float>(r::color_r(c)) / 255.0f, static_cast<float>(r::color_g(c)) / 255.0f,
            static_cast<float>(r::color_b(c)) / 255.0f, opaque ? 1.0f : static_cast<float>(r::color_a(c)) / 255.0f};
}

// 1234567 -> "1,234,567"
inline std::string fmt_count(int64_t v) {
    std::string s = std::to_string(v < 0 ? -v : v);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), ",");
    return v < 0 ? "-" + s : s;
}

}  // namespace navdebug
