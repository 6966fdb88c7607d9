// App's 3D view: what its picture depends on (the scene signature), when it is drawn into the
// view's framebuffer (ViewCache, view_cache.h) and the benchmark's orbiting camera.
#include "app.h"

#include <imgui.h>


namespace navdebug {

namespace r = nav::render;

uint64_t App::scene_signature(int fb_w, int fb_h) {
    SceneHasher h;
    h.add(fb_w);
    h.add(fb_h);
    h.add(view_.view_proj);
    h.add(view_.cam.eye);
    r::LayerMask shown = opts_.layers;
    if (replay_.active()) shown[static_cast<size_t>(r::Layer::Regions)] = false;
    for (int i = 0; i < r::kLayerCount; ++i) h.add(static_cast<bool>(shown[static_cast<size_t>(i)]));
    const r::LayerDrawOptions& o = view_.draw_opts;
    h.add(o.opacity);
    h.add(o.lift_step);
    h.add(o.xray);
    h.add(view_.see.cull);
    h.add(view_.see.hide_ceilings);
    h.add(cache_.span_budget(view_.draw_opts.span_budget));
    const r::ViewCut cut = view_.view_cut(pub_.bake && pub_.bake->mesh ? pub_.bake->mesh.get() : nullptr);
    h.add(cut.clip);
    h.add(cut.clip_min);
    h.add(cut.clip_max);
    h.add(cut.section);
    h.add(cut.point);
    h.add(cut.normal);
    h.add(cut.floor_tint);
    h.add(cut.tint_origin);
    h.add(cut.tint_band);
    // the data: new bakes, layers, highlights arrive as new objects; uploads advance part by part
    h.add(pub_.bake.get());
    h.add(pub_.drawn.get());
    h.add(pub_.layers.get());
    h.add(pub_.highlight.get());
    h.add(scene_.layers.generation());
    h.add(scene_.layers.parts_pending());
    h.add(scene_.diff_upload);
    h.add(view_.show_ground);
    h.add(view_.highlight_changes);
    // the path's ends (its route follows from them and the navmesh)
    h.add(path_on());
    h.add(sel_.path.has_start());
    h.add(sel_.path.has_end());
    h.add(sel_.path.start());
    h.add(sel_.path.end());
    // and the filter (a cost slider, a flag checkbox re-plans it)
    h.add(sel_.path.filter().area_cost);
    h.add(sel_.path.filter().include_flags);
    h.add(sel_.path.filter().exclude_flags);
    // the area colours the volumes are drawn in (the layers take theirs from the bake)
    h.add(nav::render::AreaColors(edit_.desired.areas).hash());
    // hover highlight, pins, the selected tile, the Why tool's marks
    build_overlays();
    h.list(scene_.overlay_cpu);
    h.list(scene_.why_bold_cpu);
    return h.h;
}

void App::prepare_view(int fb_w, int fb_h) {
    // a 2D scene and the region replay step on their own: drawn every frame (both are small)
    const bool always = map2d_.scene() || replay_.active();
    if (!cache_.prepare(fb_w, fb_h, view_.view_proj, [&] { return scene_signature(fb_w, fb_h); }, always)) return;
    view_.animating = true;  // the next frame comes at once
    const char* text = "drawing...";
    const ImVec2 ts = ImGui::CalcTextSize(text);
    const ImVec2 at(view_.rect.x + view_.rect.w - ts.x - 14.0f, 10.0f);
    ImDrawList* fg = ImGui::GetForegroundDrawList();
    fg->AddRectFilled(ImVec2(at.x - 6.0f, at.y - 3.0f), ImVec2(at.x + ts.x + 6.0f, at.y + ts.y + 3.0f), IM_COL32(0, 0, 0, 170), 4.0f);
    fg->AddText(at, IM_COL32(235, 235, 245, 255), text);
}

void App::present_view(int fb_w, int fb_h) {
    cache_.present(fb_w, fb_h, view_.view_proj, view_.draw_opts.span_budget, [&] { render_scene(fb_w, fb_h); });
}

void App::orbit_level(float radians) {
    const nav::InputMesh* mesh = pub_.bake && pub_.bake->mesh ? pub_.bake->mesh.get() : nullptr;
    if (!mesh) return;
    const glm::vec3 c(0.5f * (mesh->bmin[0] + mesh->bmax[0]), 0.5f * (mesh->bmin[1] + mesh->bmax[1]),
                      0.5f * (mesh->bmin[2] + mesh->bmax[2]));
    view_.cam.orbit(c, radians, 0.0f);
    view_.view_proj = view_.cam.projection(view_.rect, view_.win_w, view_.win_h) * view_.cam.view();
}

}  // namespace navdebug
