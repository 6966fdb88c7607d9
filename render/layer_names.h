// The draw layers' names and the --draw list parser, without OpenGL: the session reader
// (app/navdebug/session.cpp) and its fuzz target use them in builds that have no GL.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/bake/stage.h"

namespace nav::render {

// The layers in draw order: each stage's layers (the LAYER rows of NAV_STAGES, core/bake/stage.h),
// then the layers no one stage owns, as LAYER(stage, Id, name) rows (the stage whose result it draws
// or follows). What each draws is its row in render/layers.cpp's kLayerTable.
#define NAV_EXTRA_LAYERS(LAYER)    \
    LAYER(Rasterize, Tiles, tiles) \
    LAYER(Navmesh, Path, path)     \
    LAYER(Navmesh, Links, links)

#define NAV_LAYER_ROWS(LAYER) NAV_STAGES(NAV_STAGE_SKIP, NAV_STAGE_SKIP, LAYER) NAV_EXTRA_LAYERS(LAYER)

enum class Layer : int {
#define NAV_LAYER_ENUM(stage, id, name) id,
    NAV_LAYER_ROWS(NAV_LAYER_ENUM)
#undef NAV_LAYER_ENUM
    Count
};
constexpr int kLayerCount = static_cast<int>(Layer::Count);

// The names of --draw and of the UI toggles.
constexpr std::array<std::string_view, kLayerCount> kLayerNames = {
#define NAV_LAYER_NAME(stage, id, name) #name,
    NAV_LAYER_ROWS(NAV_LAYER_NAME)
#undef NAV_LAYER_NAME
};
// The stage whose result each layer draws.
constexpr std::array<Stage, kLayerCount> kLayerStages = {
#define NAV_LAYER_STAGE(stage, id, name) Stage::stage,
    NAV_LAYER_ROWS(NAV_LAYER_STAGE)
#undef NAV_LAYER_STAGE
};
constexpr std::string_view layer_name(Layer l) { return kLayerNames[static_cast<int>(l)]; }
inline std::optional<Layer> layer_from_name(std::string_view name) {
    for (int i = 0; i < kLayerCount; ++i)
        if (kLayerNames[static_cast<size_t>(i)] == name) return static_cast<Layer>(i);
    return std::nullopt;
}

using LayerMask = std::array<bool, kLayerCount>;
// Parses a comma list of layer names; on failure err names the bad entry and lists the valid ones.
inline bool parse_layer_list(std::string_view list, LayerMask& out, std::string& err) {
    out.fill(false);
    size_t pos = 0;
    bool any = false;
    while (pos <= list.size()) {
        size_t comma = list.find(',', pos);
        if (comma == std::string_view::npos) comma = list.size();
        std::string_view item = list.substr(pos, comma - pos);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        if (!item.empty()) {
            const auto l = layer_from_name(item);
            if (!l) {
                err = "unknown draw layer '" + std::string(item) + "' (layers: ";
                for (int i = 0; i < kLayerCount; ++i) {
                    if (i) err += ", ";
                    err += kLayerNames[static_cast<size_t>(i)];
                }
                err += ")";
                return false;
            }
            out[static_cast<size_t>(*l)] = true;
            any = true;
        }
        pos = comma + 1;
    }
    if (!any) {
        err = "--draw needs at least one layer name";
        return false;
    }
    return true;
}

}  // namespace nav::render
