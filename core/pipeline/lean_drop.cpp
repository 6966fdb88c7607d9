// The lean-drop policy: what a solo bake that keeps no intermediates drops after each stage.
#include "core/pipeline/pipeline_impl.h"

namespace nav {

namespace {

// Lean solo bakes (PipelineDef::keep_intermediates off, navbake): the last stage that reads each result
// of `owner`, after which it is dropped; -1: kept (the input's triangle areas, which every bake
// reads; the contours, which hold the bake's warnings; the polygon and detail meshes and navmesh,
// the output). The region trace is never dropped (only recorded on request).
int last_reader(Stage owner) {
    switch (owner) {
        case Stage::Rasterize: return static_cast<int>(Stage::Filter);
        case Stage::Filter: return static_cast<int>(Stage::Compact);
        case Stage::Compact: return static_cast<int>(Stage::Detail);
        case Stage::Erode: return static_cast<int>(Stage::Areas);
        case Stage::Areas: return static_cast<int>(Stage::Contours);
        case Stage::Distance: return static_cast<int>(Stage::Regions);
        case Stage::Regions: return static_cast<int>(Stage::Detail);
        default: return -1;
    }
}

}  // namespace

void drop_consumed(Unit& u, int ran) {
    for_each_result(
        [&](Stage owner, auto& p, auto& spare) {
            if constexpr (std::is_same_v<std::decay_t<decltype(*p)>, RegionTrace>) return;
            if (last_reader(owner) != ran) return;
            p.reset();
            spare.reset();
            u.trimmed = true;
        },
        u, u.spare);
}

int solo_start(const Unit& u) {
    if (u.trimmed && u.dirty_from > kStageRasterize && u.dirty_from < static_cast<int>(Stage::Navmesh))
        return kStageRasterize;
    return u.dirty_from;
}

}  // namespace nav
