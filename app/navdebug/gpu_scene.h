// What the 3D scene keeps on the GPU: the renderer, the draw layers' cache, the ground grid, the
// overlays (picks, tools, the Why tool's marks) and the change highlight.
#pragma once
#include <memory>
#include <string>

#include "core/bake/input.h"
#include "render/layers.h"
#include "render/renderer.h"
#include "worker.h"

namespace navdebug {

struct GpuScene {
    // Time a frame may spend uploading layer parts by default (App::set_layer_upload_budget).
    static constexpr double kLayerUploadBudgetMs = 12.0;

    nav::render::Renderer renderer;
    nav::render::LayerCache layers;
    double upload_budget_ms = kLayerUploadBudgetMs;  // 0: a bake's layers at once (screenshots)
    nav::render::DrawList ground_cpu, overlay_cpu;
    nav::render::DrawList why_bold_cpu;  // the Why tool's losing culprit, point and gap: thicker
    nav::render::GpuDrawList ground_gpu, overlay_gpu, diff_gpu, why_bold_gpu;
    std::shared_ptr<const nav::InputMesh> ground_mesh;  // what ground_gpu was built for
    bool diff_upload = false;  // a new change highlight waits for its upload

    // The ground grid under the bounds of `mesh`, rebuilt when the mesh is another one.
    void update_ground(const std::shared_ptr<const nav::InputMesh>& mesh);
    // overlay_cpu and why_bold_cpu to the GPU.
    void upload_overlays();
    // The grid under everything: depth cleared after it, so its lines (which carry a depth bias
    // towards the viewer) never show through floors at the bottom of the bounds.
    void draw_ground();
    // The change highlight `h` (uploaded first when it changed) on top of the visible layers, at
    // lift `top`.
    void draw_highlight(const BakeHighlight* h, bool shown, float top, bool xray);
    void draw_overlays();
};

}  // namespace navdebug
