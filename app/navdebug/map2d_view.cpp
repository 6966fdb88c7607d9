// The debugger's 2D mode; see map2d_view.h.
#include "map2d_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "render/map2d_draw.h"

namespace navdebug {

namespace r = nav::render;
namespace m2 = nav::map2d;

void take_map2d_layers(std::string& list, Map2DLayerMask& out) {
    std::string rest;
    size_t pos = 0;
    while (pos <= list.size()) {
        const size_t comma = std::min(list.find(',', pos), list.size());
        const std::string item = list.substr(pos, comma - pos);
        bool mine = false;
        for (int i = 0; i < kMap2DLayerCount; ++i)
            if (item == kMap2DLayerNames[static_cast<size_t>(i)]) out[static_cast<size_t>(i)] = mine = true;
        if (!mine && !item.empty()) rest += (rest.empty() ? "" : ",") + item;
        pos = comma + 1;
    }
    list = rest;
}

void Map2DView::set_scene(std::shared_ptr<const Map2DScene> scene) {
    top_view_ = !(scene && scene->detour);  // a Detour navmesh is 3D: the perspective view
    scene_ = std::move(scene);
    framed_ = false;
    dirty_ = true;
}

void Map2DView::clear_scene() {
    if (scene_) top_view_ = false;  // back to the perspective view for a 3D mesh
    scene_.reset();
    dirty_ = true;
}

int Map2DView::wa_steps() const {
    if (!scene_ || !scene_->is_map) return 0;
    return static_cast<int>(r::clip_steps(scene_->result.union_trace) + r::clip_steps(scene_->result.clip_trace));
}

int Map2DView::cdt_steps() const {
    return scene_ && scene_->is_map ? static_cast<int>(scene_->result.cdt_trace.steps.size()) : 0;
}

glm::mat4 Map2DView::view_proj(Camera& cam, const glm::vec3& bmin, const glm::vec3& bmax, const ViewRect& rect,
                               float W, float H) {
    const float t = std::tan(cam.fov_y * 0.5f);
    if (!framed_) {
        const glm::vec3 c = (bmin + bmax) * 0.5f;
        const float aspect = rect.w / std::max(rect.h, 1.0f);
        const float half = 1.06f * std::max(0.5f * (bmax.z - bmin.z), 0.5f * (bmax.x - bmin.x) / aspect);
        cam.set_scene_scale(glm::length(bmax - bmin));
        cam.look_at(glm::vec3(c.x, bmax.y + std::max(half, 1e-3f) / t, c.z + 1e-4f), glm::vec3(c.x, bmin.y, c.z));
        framed_ = true;
    }
    // straight down whatever the camera's orientation: x to the right, +z down the screen
    const float height = std::max(cam.eye.y - bmin.y, 1e-3f);
    const float half_h = height * t, half_w = half_h * rect.w / std::max(rect.h, 1.0f);
    const glm::vec3 eye = cam.eye;
    const glm::mat4 view = glm::lookAt(eye, glm::vec3(eye.x, eye.y - 1.0f, eye.z), glm::vec3(0.0f, 0.0f, -1.0f));
    const float depth = std::max(bmax.y - bmin.y, 1.0f) + height;
    const glm::mat4 p = glm::ortho(-half_w, half_w, -half_h, half_h, -depth, depth * 2.0f + 1.0f);
    const float sx = rect.w / W, sy = rect.h / H;
    const float cx = (rect.x + rect.w * 0.5f) / W * 2.0f - 1.0f;
    const float cy = 1.0f - (rect.y + rect.h * 0.5f) / H * 2.0f;
    glm::mat4 m(1.0f);
    m[0][0] = sx;
    m[1][1] = sy;
    m[3][0] = cx;
    m[3][1] = cy;
    return m * p * view;
}

void Map2DView::ui() {
    if (ImGui::Checkbox("2D top view", &top_view_)) framed_ = false;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Orthographic view from straight above (on by itself for .json maps and .mesh files); "
                          "wheel / W,S zoom, drag pans");
    if (!scene_) return;
    if (scene_->detour) {
        const nav::NavMesh& m = *scene_->bake->navmesh;
        ImGui::Text("Detour navmesh: %d tiles, %d polygons, %d islands", m.ntiles, m.npolys, m.nislands);
        ImGui::TextDisabled("Loaded, not baked: the bake stages are not available and the parameters do not re-bake it.");
        return;
    }
    ImGui::Text("%s: %u polygons", scene_->is_map ? "2D map" : ".mesh file", scene_->mesh.npolys());
    if (!scene_->is_map) return;
    static constexpr const char* kHelp[kMap2DLayerCount] = {
        "the map as given: outline (white), obstacles (orange)",
        "the free space after Weiler-Atherton: outer rings (green), holes (red)",
        "the constrained Delaunay triangulation (constraint edges yellow)",
        "the triangles merged into convex polygons",
        "the Weiler-Atherton trace at the step below: split sub-edges, intersection lists "
        "(entering green, leaving red, shared yellow), kept edges and result rings (cyan)",
        "the CDT as it is after the step below; what the step did in magenta"};
    for (int i = 0; i < kMap2DLayerCount; ++i) {
        const std::string name(kMap2DLayerNames[static_cast<size_t>(i)]);
        if (ImGui::Checkbox(name.c_str(), &layers_[static_cast<size_t>(i)])) dirty_ = true;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kHelp[i]);
    }
    const int nu = static_cast<int>(r::clip_steps(scene_->result.union_trace));
    if (ImGui::SliderInt("WA step", &wa_step_, 0, wa_steps())) dirty_ = true, layers_[static_cast<size_t>(Map2DLayer::WaStep)] = true;
    ImGui::TextDisabled("%s", wa_step_ <= nu ? "union of the obstacles" : "outline minus the union");
    if (ImGui::SliderInt("CDT step", &cdt_step_, 0, cdt_steps())) dirty_ = true, layers_[static_cast<size_t>(Map2DLayer::CdtStep)] = true;
    if (cdt_step_ > 0 && cdt_step_ <= cdt_steps()) {
        static constexpr const char* kKinds[4] = {"insert point", "flip", "insert constraint", "remove outside"};
        const m2::CdtStep& s = scene_->result.cdt_trace.steps[static_cast<size_t>(cdt_step_ - 1)];
        ImGui::TextDisabled("%s", kKinds[std::min<int>(s.kind, 3)]);
    }
}

void Map2DView::rebuild() {
    for (auto& l : cpu_) l.clear();
    if (scene_ && scene_->is_map) {
        const m2::Map2DResult& res = scene_->result;
        auto& c = cpu_;
        constexpr size_t kX = kMap2DLayerCount;  // the second batch of layer i is cpu_[kX + i]
        if (layers_[0]) r::build_map2d_input(scene_->map, c[0]);
        if (layers_[1]) r::build_map2d_clipped(res.free, c[1]);
        if (layers_[2]) r::build_map2d_cdt(res.cdt, static_cast<uint32_t>(res.cdt.xz.size() / 2), c[2], c[kX + 2]);
        if (layers_[3]) r::build_map2d_merged(res.mesh, c[3], c[kX + 3]);
        if (layers_[4]) {
            wa_step_ = std::clamp(wa_step_, 0, wa_steps());
            const int nu = static_cast<int>(r::clip_steps(res.union_trace));
            if (wa_step_ <= nu) r::build_clip_step(res.union_trace, static_cast<size_t>(wa_step_), c[4]);
            else r::build_clip_step(res.clip_trace, static_cast<size_t>(wa_step_ - nu), c[4]);
        }
        if (layers_[5]) {
            cdt_step_ = std::clamp(cdt_step_, 0, cdt_steps());
            // the state after step N: the CDT run again, stopped there (step 0: nothing inserted yet
            // is shown as the final result's input points)
            m2::CdtResult state;
            m2::CdtTrace tr;
            const m2::CdtInput in = m2::cdt_input_from_rings(res.free);
            if (cdt_step_ > 0 && cdt_step_ < cdt_steps() &&
                m2::cdt_build(in, state, &tr, static_cast<uint32_t>(cdt_step_)).is_ok()) {
                r::build_map2d_cdt(state, static_cast<uint32_t>(in.xz.size() / 2), c[5], c[kX + 5]);
                r::DrawList mark;
                r::build_cdt_step_mark(state, tr, static_cast<size_t>(cdt_step_), mark);
                c[kX + 5].line_width = mark.line_width;
                c[kX + 5].line_verts.insert(c[kX + 5].line_verts.end(), mark.line_verts.begin(), mark.line_verts.end());
                c[5].point_size = mark.point_size;
                c[5].depth_test = false;
                c[5].point_verts = mark.point_verts;
            } else if (cdt_step_ == 0) {
                c[5].point_size = 5.0f;
                c[5].depth_test = false;
                for (size_t i = 0; i + 1 < in.xz.size(); i += 2) {
                    const float p[3] = {static_cast<float>(in.xz[i]), r::kMap2DLiftStep, static_cast<float>(in.xz[i + 1])};
                    c[5].add_point(p, r::map2d_colors::kConstraint);
                }
            } else {
                r::build_map2d_cdt(res.cdt, static_cast<uint32_t>(res.cdt.xz.size() / 2), c[5], c[kX + 5]);
            }
        }
    }
    for (size_t i = 0; i < cpu_.size(); ++i) gpu_[i].upload(cpu_[i]);
    dirty_ = false;
}

void Map2DView::draw(nav::render::Renderer& rr) {
    if (dirty_) rebuild();
    // the fills and thin lines, the thick batches, the clipped and input outlines, the WA step on top
    constexpr size_t kOrder[2 * kMap2DLayerCount] = {2, 3, 5, 8, 9, 11, 1, 7, 0, 6, 4, 10};
    for (size_t i : kOrder)
        if (!cpu_[i].empty()) rr.draw(gpu_[i]);
}

}  // namespace navdebug
