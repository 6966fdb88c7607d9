// The draw layers' names and the --draw list parser, without OpenGL: the session reader
// (app/navdebug/session.cpp) and its fuzz target use them in builds that have no GL.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/bake/stage.h"

namespace nav::render {

// The debugger's draw layers in draw order, each as LAYER(stage, Id, name): the stage whose result
// it draws (or follows), its enum value Layer::Id and its --draw name. Every stage has at least one
// layer (the static_assert below); what each draws is its row in render/layers.cpp's kLayerTable.
#define NAV_LAYER_ROWS(LAYER)                  \
    LAYER(Input, Input, input)                 \
    LAYER(Rasterize, Voxels, voxels)           \
    LAYER(Filter, Filtered, filtered)          \
    LAYER(Compact, Compact, compact)           \
    LAYER(Erode, Eroded, eroded)               \
    LAYER(Areas, Areas, areas)                 \
    LAYER(Distance, Distance, distance)        \
    LAYER(Regions, Regions, regions)           \
    LAYER(Contours, RawContours, raw_contours) \
    LAYER(Contours, Contours, contours)        \
    LAYER(Polymesh, Polymesh, polymesh)        \
    LAYER(Detail, Detail, detail)              \
    LAYER(Navmesh, Navmesh, navmesh)           \
    LAYER(Navmesh, Islands, islands)           \
    LAYER(Navmesh, AgentTypes, agent_types)    \
    LAYER(Rasterize, Tiles, tiles)             \
    LAYER(Navmesh, Path, path)                 \
    LAYER(Navmesh, Links, links)

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
// Every stage is drawn: a stage added to NAV_STAGES without a layer row here fails to compile.
constexpr bool every_stage_has_a_layer() {
    for (int s = 0; s < kStageCount; ++s) {
        bool found = false;
        for (Stage ls : kLayerStages) found = found || static_cast<int>(ls) == s;
        if (!found) return false;
    }
    return true;
}
static_assert(every_stage_has_a_layer(), "a stage in NAV_STAGES (core/bake/stage.h) has no draw layer in NAV_LAYER_ROWS");

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
