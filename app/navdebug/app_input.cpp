// App: mouse and keyboard in the 3D view: camera drags, the click tools, hover inspection.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "app.h"
#include "input_queue.h"
#include "shortcuts.h"
#include "ui_common.h"

namespace navdebug {

namespace r = nav::render;

void App::handle_camera_input(GLFWwindow* window, float W, float H, float dt) {
    start_camera_drag(W, H);
    click_tools(W, H);
    move_camera(window, W, H, dt);
}

bool App::pick_under_cursor(float W, float H, glm::vec3& hit) const {
    // what the layers draw (pub_.drawn): a hidden layer is not hit (render/pick.h raycast_drawn)
    const nav::Bake* drawn = pub_.drawn ? pub_.drawn.get() : pub_.bake.get();
    if (!drawn) return false;
    const ImGuiIO& io = ImGui::GetIO();
    glm::vec3 o, d;
    view_.cam.ray(view_.view_proj, io.MousePos.x, io.MousePos.y, W, H, o, d);
    float t = 0;
    if (!r::raycast_drawn(*drawn, opts_.layers, &o.x, &d.x, t, view_.pick_visibility(opts_.layers))) return false;
    hit = o + d * t;
    return true;
}

// Starts a look (right button), orbit (middle, Alt+left) or pan (Shift+middle) drag.
void App::start_camera_drag(float W, float H) {
    ImGuiIO& io = ImGui::GetIO();
    const bool mouse_free = !io.WantCaptureMouse;
    const nav::InputMesh* mesh = pub_.bake && pub_.bake->mesh ? pub_.bake->mesh.get() : nullptr;
    auto pick = [&](glm::vec3& hit) { return pick_under_cursor(W, H, hit); };

    // start / end drags
    if (view_.drag == ViewState::Drag::None && mouse_free) {
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Right)) view_.drag = ViewState::Drag::Look;
        const bool alt_left = io.KeyAlt && ImGui::IsMouseClicked(ImGuiMouseButton_Left);
        if (io.KeyShift && ImGui::IsMouseClicked(ImGuiMouseButton_Middle)) {
            // pan (Blender's Shift+MMB): the point under the cursor follows it, at its depth
            view_.drag = ViewState::Drag::Pan;
            if (!pick(view_.pivot)) view_.pivot = view_.cam.eye + view_.cam.forward() * std::max(view_.cam.speed, 1.0f);
        } else if (ImGui::IsMouseClicked(ImGuiMouseButton_Middle) || alt_left) {
            view_.drag = ViewState::Drag::Orbit;
            if (!pick(view_.pivot)) {
                // nothing under the cursor: orbit around the point at the mesh centre's depth
                glm::vec3 c(0.0f);
                if (mesh) c = glm::vec3((mesh->bmin[0] + mesh->bmax[0]) * 0.5f, (mesh->bmin[1] + mesh->bmax[1]) * 0.5f,
                                        (mesh->bmin[2] + mesh->bmax[2]) * 0.5f);
                const float depth = std::max(glm::dot(c - view_.cam.eye, view_.cam.forward()), view_.cam.near_z * 10.0f);
                glm::vec3 o, d;
                view_.cam.ray(view_.view_proj, io.MousePos.x, io.MousePos.y, W, H, o, d);
                view_.pivot = o + d * (depth / std::max(glm::dot(d, view_.cam.forward()), 0.05f));
            }
        }
    }
}

// A left click with the click tool: prune, floor clip, section plane, tile, path end points (and
// dragging a path marker).
void App::click_tools(float W, float H) {
    ImGuiIO& io = ImGui::GetIO();
    const bool mouse_free = !io.WantCaptureMouse;
    auto pick = [&](glm::vec3& hit) { return pick_under_cursor(W, H, hit); };

    // path tool: Shift+left-click sets the start, left-click the end (RecastDemo's habit); a press
    // on a shown marker grabs it instead (with Shift only the start marker) and dragging moves it
    if (sel_.tool == Selection::Tool::Prune && view_.drag == ViewState::Drag::None && mouse_free && !io.KeyAlt &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        glm::vec3 hit;
        if (pick(hit)) {
            edit_.prune_at(hit);
            log_.info("prune: keeping what is reachable from (" + std::to_string(hit.x) + ", " + std::to_string(hit.y) +
                      ", " + std::to_string(hit.z) + ")");
        }
    }
    if (sel_.tool == Selection::Tool::ClipFloor && view_.drag == ViewState::Drag::None && mouse_free && !io.KeyAlt &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        glm::vec3 hit;
        if (pick(hit)) {
            view_.see.clip = floor_clip(hit.y);
            log_.info("clip to the floor at y " + std::to_string(hit.y) + ": heights " + std::to_string(view_.see.clip->first) +
                      " .. " + std::to_string(view_.see.clip->second));
        }
    }
    // section tool: a click puts the plane through the surface under the cursor, facing the
    // camera (the near side is cut away); dragging up / down then moves it away / towards the camera
    if (sel_.tool == Selection::Tool::Section && view_.drag == ViewState::Drag::None && mouse_free && !io.KeyAlt) {
        glm::vec3 hit;
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && pick(hit)) {
            glm::vec3 n = -view_.cam.forward();
            n.y = 0.0f;
            if (glm::length(n) < 1e-3f) n = glm::vec3(0.0f, 1.0f, 0.0f);
            view_.see.section = std::make_pair(hit, glm::normalize(n));
        } else if (view_.see.section && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f) && io.MouseDelta.y != 0.0f) {
            const float dist = glm::length(view_.see.section->first - view_.cam.eye);
            const glm::vec3 n = glm::normalize(view_.see.section->second);
            // one view height of mouse travel moves the plane about the distance to it
            view_.see.section->first -= n * (io.MouseDelta.y * dist / std::max(H, 1.0f));
        }
    }
    if (sel_.tool == Selection::Tool::Tile && view_.drag == ViewState::Drag::None && mouse_free && !io.KeyAlt &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        glm::vec3 hit;
        if (pick(hit) && pub_.bake) {
            if (const auto t = tile_at(*pub_.bake, hit.x, hit.z)) {
                sel_.tile = t;
                log_.info("selected tile " + std::to_string(t->first) + "," + std::to_string(t->second));
            } else {
                log_.info(pub_.bake->tiled() ? "no tile there" : "tile select: the bake is not tiled (set tile_size)");
            }
        }
    }
    if (sel_.tool == Selection::Tool::Why && view_.drag == ViewState::Drag::None && mouse_free && !io.KeyAlt &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        glm::vec3 hit;
        if (pick(hit)) {
            sel_.why.set_point(hit);
            log_.info("why: explaining (" + std::to_string(hit.x) + ", " + std::to_string(hit.y) + ", " +
                      std::to_string(hit.z) + ")");
        }
    }
    if (sel_.tool == Selection::Tool::Path && view_.drag == ViewState::Drag::None && mouse_free && !io.KeyAlt &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        glm::vec3 hit;
        const bool got = pick(hit);
        if (!(path_on() && sel_.path.begin_drag(view_.view_proj, W, H, io.MousePos.x, io.MousePos.y, got ? &hit : nullptr,
                                            io.KeyShift)) &&
            got) {
            if (io.KeyShift) sel_.path.set_start(hit);
            else sel_.path.set_end(hit);
            opts_.layers[static_cast<size_t>(r::Layer::Path)] = true;
        }
    }
    // obstacles tool: a press on an obstacle grabs it, elsewhere on the level places one; dragging
    // moves the grabbed one's base along the level under the cursor
    if (sel_.tool == Selection::Tool::Obstacle && view_.drag == ViewState::Drag::None && mouse_free && !io.KeyAlt &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        glm::vec3 hit, o, d;
        const bool got = pick(hit);
        view_.cam.ray(view_.view_proj, io.MousePos.x, io.MousePos.y, W, H, o, d);
        if (sel_.obstacle.press(edit_.desired.obstacles, &o.x, &d.x, got ? &hit.x : nullptr))
            log_.info("obstacle " + std::to_string(edit_.desired.obstacles.size() - 1) + " placed at (" + std::to_string(hit.x) +
                      ", " + std::to_string(hit.y) + ", " + std::to_string(hit.z) + ")");
    }
    // volume tool: clicks add hull points, close the volume, select one (app_volumes.cpp)
    volume_tool_click(W, H);
    // links tool: a press on a link's end grabs it, elsewhere on the level the first click sets a
    // new link's start and the second its end; dragging moves the grabbed end along the level
    if (sel_.tool == Selection::Tool::Link && view_.drag == ViewState::Drag::None && mouse_free && !io.KeyAlt &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        glm::vec3 hit, o, d;
        const bool got = pick(hit);
        view_.cam.ray(view_.view_proj, io.MousePos.x, io.MousePos.y, W, H, o, d);
        const bool half = sel_.link.pending().has_value();
        if (sel_.link.press(edit_.desired.links, &o.x, &d.x, got ? &hit.x : nullptr, edit_.desired.params.f(nav::ParamId::agent_radius)))
            log_.info("link " + std::to_string(edit_.desired.links.size() - 1) + " placed, end at (" + std::to_string(hit.x) + ", " +
                      std::to_string(hit.y) + ", " + std::to_string(hit.z) + ")");
        else if (!half && sel_.link.pending())
            log_.info("link start at (" + std::to_string(hit.x) + ", " + std::to_string(hit.y) + ", " + std::to_string(hit.z) +
                      "): click the end (Esc cancels)");
    }
    if (sel_.link.dragging()) {
        glm::vec3 hit;
        if (!io.MouseDown[ImGuiMouseButton_Left]) sel_.link.release();
        else if ((io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) && pick(hit)) sel_.link.drag_to(edit_.desired.links, &hit.x);
    }
    if (sel_.volume.dragging()) {
        glm::vec3 hit;
        if (!io.MouseDown[ImGuiMouseButton_Left] || sel_.tool != Selection::Tool::Volume) sel_.volume.release();
        else if ((io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) && pick(hit)) sel_.volume.drag_to(edit_.desired.volumes, &hit.x);
    }
    if (sel_.obstacle.dragging()) {
        glm::vec3 hit;
        if (!io.MouseDown[ImGuiMouseButton_Left]) sel_.obstacle.release();
        else if ((io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) && pick(hit)) sel_.obstacle.drag_to(edit_.desired.obstacles, &hit.x);
    }
    if (sel_.path.dragging()) {
        glm::vec3 hit;
        if (!io.MouseDown[ImGuiMouseButton_Left]) sel_.path.end_drag();
        else if ((io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) && pick(hit)) sel_.path.drag_to(hit);
    }
}

// Ends drags, moves the camera by the drag, the wheel and the fly keys (and Tab, F).
void App::move_camera(GLFWwindow*, float W, float H, float dt) {
    ImGuiIO& io = ImGui::GetIO();
    const bool mouse_free = !io.WantCaptureMouse;
    auto pick = [&](glm::vec3& hit) { return pick_under_cursor(W, H, hit); };

    if (view_.drag == ViewState::Drag::Look && !io.MouseDown[ImGuiMouseButton_Right]) view_.drag = ViewState::Drag::None;
    if (view_.drag == ViewState::Drag::Orbit && !io.MouseDown[ImGuiMouseButton_Middle] && !io.MouseDown[ImGuiMouseButton_Left])
        view_.drag = ViewState::Drag::None;
    if (view_.drag == ViewState::Drag::Pan && !io.MouseDown[ImGuiMouseButton_Middle]) view_.drag = ViewState::Drag::None;
    if (view_.drag == ViewState::Drag::Pan && (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f)) {
        // world metres per pixel at the pivot's depth
        const float depth = std::max(glm::dot(view_.pivot - view_.cam.eye, view_.cam.forward()), view_.cam.near_z);
        const float per_px = 2.0f * depth * std::tan(view_.cam.fov_y * 0.5f) / std::max(view_.rect.h, 1.0f);
        view_.cam.eye -= view_.cam.right() * (io.MouseDelta.x * per_px) - view_.cam.up() * (io.MouseDelta.y * per_px);
    }

    constexpr float kTurn = 0.005f;
    if (view_.drag == ViewState::Drag::Look) view_.cam.rotate(io.MouseDelta.x * kTurn, -io.MouseDelta.y * kTurn);
    if (view_.drag == ViewState::Drag::Orbit) view_.cam.orbit(view_.pivot, io.MouseDelta.x * kTurn, -io.MouseDelta.y * kTurn);

    // wheel: dolly towards the point under the cursor
    if (mouse_free && io.MouseWheel != 0.0f) {
        glm::vec3 hit;
        const float step = io.MouseWheel * (io.KeyShift ? 0.4f : 0.15f);
        if (pick(hit)) {
            const glm::vec3 to = hit - view_.cam.eye;
            const float len = glm::length(to);
            const float move = std::min(len * step, len - view_.cam.near_z * 4.0f);
            if (len > 1e-6f) view_.cam.eye += to / len * move;
        } else {
            view_.cam.fly({0.0f, 0.0f, view_.cam.speed * step * 2.0f});
        }
    }

    // keys: fly while held (the shortcut table's Fly keys, as the input queue has them down);
    // F and Tab are shortcuts of their own (handle_shortcuts)
    bool flying = false;
    const InputQueue* queue = input_queue();
    if (!io.WantCaptureKeyboard && queue) {
        static const glm::vec3 dirs[6] = {{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
        glm::vec3 m(0.0f);
        for (const Shortcut& s : shortcuts())
            if (s.action == ShortcutAction::Fly && queue->frame().key_down(s.key)) m += dirs[s.arg];
        if (m != glm::vec3(0.0f)) {
            float k = view_.cam.speed * std::min(dt, 0.1f);
            if (io.KeyShift) k *= 4.0f;
            if (io.KeyCtrl) k *= 0.25f;
            view_.cam.fly(m * k);
            flying = true;
        }
    }
    view_.animating = view_.animating || flying || view_.drag != ViewState::Drag::None || sel_.path.dragging() ||
                     sel_.obstacle.dragging() || sel_.link.dragging() || sel_.volume.dragging();
}

void App::update_hover(float W, float H) {
    sel_.node_tip.clear();
    const ImGuiIO& io = ImGui::GetIO();
    if (path_on() && sel_.path.show_nodes() && !io.WantCaptureMouse && view_.drag == ViewState::Drag::None && !sel_.path.dragging() && pub_.bake && pub_.bake->mesh &&
        io.MousePos.x >= 0 && io.MousePos.y >= 0) {
        glm::vec3 hit;
        if (pick_under_cursor(W, H, hit)) sel_.node_tip = sel_.path.node_tooltip(hit);
        if (!sel_.node_tip.empty()) {
            sel_.inspector.update(pub_.drawn, opts_.layers, nullptr, false);
            return;
        }
    }
    const bool in_view = io.MousePos.x >= view_.rect.x && io.MousePos.x < view_.rect.x + view_.rect.w && io.MousePos.y >= 0 &&
                         io.MousePos.y < H;
    PickRay ray;
    const bool can_hover = view_.inspect && !io.WantCaptureMouse && view_.drag == ViewState::Drag::None && !sel_.path.dragging() && in_view;
    if (can_hover) view_.cam.ray(view_.view_proj, io.MousePos.x, io.MousePos.y, W, H, ray.o, ray.d);
    const bool click = can_hover && sel_.tool == Selection::Tool::Inspect && !io.KeyAlt && ImGui::IsMouseClicked(ImGuiMouseButton_Left);
    sel_.inspector.update(pub_.drawn, opts_.layers, can_hover ? &ray : nullptr, click);
}

}  // namespace navdebug
