// What the bake worker published and what the view draws of it: the App takes it once a frame
// (App::poll_worker), trims it to the timeline's target stage and picks what the layers draw.
// No GL, no ImGui.
#pragma once
#include <memory>
#include <optional>

#include <glm/glm.hpp>

#include "core/pipeline/pipeline.h"
#include "map2d_scene.h"
#include "render/layers.h"
#include "tile_tool.h"
#include "worker.h"

namespace navdebug {

struct PublishedBake {
    std::shared_ptr<const nav::Bake> bake;   // what is drawn: raw trimmed to the target stage (trim)
    std::shared_ptr<const nav::Bake> raw;    // the worker's latest, as published (pruned by the pipeline)
    std::shared_ptr<const nav::Bake> map2d;  // a 2D scene's bake with the prune (take_scene_prune)
    std::shared_ptr<const nav::render::BuiltLayers> layers;  // published with raw: drawn by upload only
    std::shared_ptr<const nav::Bake> drawn;  // what the layers draw: bake or its tile-only view (pick_drawn)
    std::shared_ptr<const nav::Bake> view;   // the worker's view of raw (published with it)
    std::optional<TileXZ> view_tile;         // the tile `view` keeps alone
    std::shared_ptr<const BakeHighlight> highlight;  // the worker's, while the highlight is on
    bool mesh_pending = false;  // a mesh was asked for and has not loaded or failed yet
    bool cancelled = false;     // the user cancelled the last bake: the view shows an older one

    // bake = raw as seen at the target stage: the stages after `to` dropped (a cached shallow copy).
    void trim(nav::Stage to);
    // drawn = bake, or its "only selected tile" view (the worker's when it is of this very bake
    // and tile, so its draw lists fit; else one made here).
    void pick_drawn(const std::optional<TileXZ>& tile_only);
    // An earlier result is on screen (more than the input) while a newer one is wanted, or a tiled
    // bake's partial snapshot is left on screen by a cancel.
    bool stale(bool worker_busy) const;
    // map2d = the 2D scene's bake with the Islands prune at `point`: without a point the scene's own
    // bake; else the worker's (BakeWorker::request_scene_prune, asked once per scene and point),
    // the last one of this scene shown until it comes.
    void take_scene_prune(BakeWorker& worker, const std::shared_ptr<const Map2DScene>& scene,
                          const std::optional<glm::vec3>& point);
    // No 2D scene shown: its bake and what was asked for it dropped.
    void forget_scene();
    // take_scene_prune asked the worker for a prune it has not made yet.
    bool scene_prune_waiting() const { return waiting_; }

private:
    std::shared_ptr<const nav::Bake> trim_src_, trim_out_;
    nav::Stage trim_to_ = nav::kLastStage;
    TileOnlyView tile_view_;  // the view made here when the worker's does not fit
    std::shared_ptr<const Map2DScene> asked_scene_;  // the scene prune last asked of the worker (request_scene_prune)
    std::optional<glm::vec3> asked_point_;
    bool waiting_ = false;
};

}  // namespace navdebug
