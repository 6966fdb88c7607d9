// The bake stages in order. Names are the ones used in JSON (timings_ms) and the UI.
#pragma once
#include <array>
#include <optional>
#include <string_view>

namespace nav {

enum class Stage : int {
    Input = 0,
    Rasterize,
    Filter,
    Compact,
    Erode,
    Areas,
    Distance,
    Regions,
    Contours,
    Polymesh,
    Detail,
    Navmesh,
    Count
};

constexpr int kStageCount = static_cast<int>(Stage::Count);
constexpr Stage kLastStage = static_cast<Stage>(kStageCount - 1);

constexpr std::array<std::string_view, kStageCount> kStageNames = {
    "input", "rasterize", "filter", "compact", "erode", "areas", "distance", "regions",
    "contours", "polymesh", "detail", "navmesh"};

constexpr std::string_view stage_name(Stage s) { return kStageNames[static_cast<int>(s)]; }
std::optional<Stage> stage_from_name(std::string_view name);

}  // namespace nav
