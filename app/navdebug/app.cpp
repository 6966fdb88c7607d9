#include "app.h"
#include "ui_common.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <new>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/bake/obj_export.h"
#include "session.h"

#ifndef NAV_SOURCE_DIR
#error "NAV_SOURCE_DIR must be defined by the build"
#endif

namespace navdebug {

namespace r = nav::render;

namespace {

std::string escape_percent(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '%') out += '%';
        out += c;
    }
    return out;
}

bool ends_with_ci(const std::string& s, std::string_view suffix) {
    if (s.size() < suffix.size()) return false;
    for (size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) return false;
    return true;
}

}  // namespace

App::App(BakeWorker& worker, Log& log, const nav::Params& params, std::vector<nav::ConvexVolume> volumes,
         AppOptions opts)
    : worker_(worker), log_(log), opts_(std::move(opts)), desired_(params), volumes_(std::move(volumes)) {
    requested_ = desired_;
    requested_volumes_ = volumes_;
    worker_.init_layers(opts_.layers);  // the worker builds these layers' draw lists with its bakes
    mesh_field_ = opts_.mesh_path;
    config_field_ = opts_.config_path;
    std::error_code ec;
    const std::filesystem::path assets = std::filesystem::path(NAV_SOURCE_DIR) / "assets";
    for (const auto& e : std::filesystem::directory_iterator(assets, ec))
        if (e.is_regular_file() && ends_with_ci(e.path().string(), ".obj")) asset_files_.push_back(e.path().string());
    std::sort(asset_files_.begin(), asset_files_.end());
    if (opts_.path) {
        path_.set_start(opts_.path->first);
        path_.set_end(opts_.path->second);
    }
    path_.set_mode(opts_.path_mode);
    if (opts_.path_nodes) path_.set_show_nodes(true);
    if (opts_.funnel_step >= 0) path_.set_funnel_step(opts_.funnel_step);
    if (opts_.camera) {
        cam_.look_at(opts_.camera->first, opts_.camera->second);
        camera_placed_ = true;
    }
    if (opts_.stage) {
        run_to_ = *opts_.stage;
        requested_to_ = run_to_;
    }
    if (opts_.select) {
        inspector_.set_pin_point(*opts_.select);
        tool_ = Tool::Inspect;
    }
    if (opts_.prune) islands_.prune_at(*opts_.prune);
    if (opts_.tile_select) {
        sel_tile_ = opts_.tile_select;
        tool_ = Tool::Tile;
    }
    tile_only_ = opts_.tile_only && sel_tile_;
    worker_.set_tile_only(tile_only_ ? sel_tile_ : std::nullopt);
    if (!opts_.replay.empty()) {
        std::string err;
        if (!replay_.parse_flag(opts_.replay, err)) log_.error(err);
    }
    session_field_ = opts_.session_path;
    show_ui_ = !opts_.hide_ui;
    draw_opts_ = opts_.draw;
    see_ = opts_.view;
    highlight_changes_ = opts_.highlight_changes;
    // the worker applies the prune and computes the change highlight with its bakes
    worker_.set_prune(islands_.prune_point());
    worker_.set_highlight_changes(highlight_changes_);
    if (opts_.map2d) map2d_.set_scene(opts_.map2d);
    if (opts_.top_view) map2d_.set_top_view(true);
    map2d_.set_layers(opts_.map2d_layers);
    map2d_.set_wa_step(opts_.wa_step);
    map2d_.set_cdt_step(opts_.cdt_step);
    if (opts_.optimal) optimal_.set_enabled(true);
    if (opts_.polyanya_step >= 0) optimal_.set_search_step(opts_.polyanya_step);
}

bool App::init_gl(std::string& err) { return renderer_.init(err); }

void App::set_error(std::string msg) { banner_ = std::move(msg); }

void App::open_mesh(const std::string& path, bool own_settings) {
    if (path.empty()) return;
    own_settings_for_ = own_settings && !keep_settings_ ? path : std::string();
    mesh_field_ = path;
    if (is_map2d_path(path)) {  // built here at once: no bake stages to run
        auto scene = std::make_shared<Map2DScene>();
        if (const nav::Status st = load_map2d_scene(path, desired_, *scene); !st) {
            log_.error(st.message);
            set_error(st.message);
            return;
        }
        log_.info("opened 2D " + std::string(scene->is_map ? "map " : "mesh ") + path + " (" +
                  std::to_string(scene->mesh.npolys()) + " polygons)");
        banner_.clear();
        map2d_.set_scene(std::move(scene));
        return;
    }
    map2d_.clear_scene();
    mesh_pending_ = true;
    log_.info("opening " + path);
    worker_.request_mesh(path);
}

void App::load_config(const std::string& path) {
    if (path.empty()) return;
    nav::Params p = desired_;
    std::vector<nav::ConvexVolume> vols;
    const nav::Status st = nav::load_config_file(path, p, vols);
    if (!st) {
        log_.error(st.message);
        set_error(st.message);
        return;
    }
    desired_ = p;
    volumes_ = std::move(vols);
    config_field_ = path;
    log_.info("loaded config " + path + " (" + std::to_string(volumes_.size()) + " volumes)");
    banner_.clear();
}

void App::save_config(const std::string& path) {
    if (path.empty()) return;
    const nlohmann::ordered_json j = config_json(desired_, volumes_);
    std::ofstream f(path);
    f << j.dump(2) << "\n";
    if (!f) {
        log_.error("cannot write config " + path);
        set_error("cannot write config " + path);
        return;
    }
    config_field_ = path;
    log_.info("saved config " + path);
}

void App::export_obj() {
    const nav::Bake* b = bake_.get();
    if (!b || !b->polymesh || !b->mesh) {
        const std::string msg = "export OBJ: no polygon mesh yet (bake through the polymesh stage first)";
        log_.error(msg);
        set_error(msg);
        return;
    }
    std::filesystem::path out = b->mesh->path.empty() ? std::filesystem::path("mesh.obj") : std::filesystem::path(b->mesh->path);
    out.replace_extension(".navmesh.obj");
    const nav::PolyMeshDetail* dm = b->detail && b->detail->nmeshes == b->polymesh->npolys ? b->detail.get() : nullptr;
    const nav::Status st = nav::write_navmesh_obj(out.string(), *b->polymesh, dm);
    if (!st) {
        log_.error("export OBJ: " + st.message);
        set_error("export OBJ: " + st.message);
        return;
    }
    log_.info("exported " + out.string() + " (" + std::to_string(b->polymesh->npolys) + " polygons" +
              (dm ? ", " + std::to_string(dm->ntris) + " detail triangles)" : ", no detail mesh)"));
}

void App::on_drop(int count, const char** paths) {
    for (int i = 0; i < count; ++i) {
        const std::string p = paths[i];
        if (ends_with_ci(p, ".json") && !json_is_map2d(p)) load_config(p);
        else open_mesh(p);
    }
}

bool App::any_floor_layer() const {
    for (int i = static_cast<int>(r::Layer::Compact); i < r::kLayerCount; ++i)
        if (opts_.layers[static_cast<size_t>(i)]) return true;
    return false;
}

bool App::settled() const {
    // raw_bake_ must also be the worker's latest: it is picked up by the frame after the publish
    return !worker_.busy() && worker_.latest() == raw_bake_ && desired_ == requested_ && volumes_ == requested_volumes_ &&
           run_to_ == requested_to_ && !mesh_pending_;
}

std::shared_ptr<const nav::Bake> App::trimmed(const std::shared_ptr<const nav::Bake>& bake) {
    if (!bake || bake->built_through <= static_cast<int>(run_to_)) return bake;
    if (bake == trim_src_ && run_to_ == trim_to_) return trim_out_;
    // A shallow copy without the results after the target stage: stepping back with Previous shows
    // the pipeline as it was after that stage, and Next shows the kept result again at once.
    auto t = std::make_shared<nav::Bake>(*bake);
    t->drop_after(static_cast<int>(run_to_));
    trim_src_ = bake;
    trim_to_ = run_to_;
    trim_out_ = std::move(t);
    return trim_out_;
}

void App::on_new_bake(const std::shared_ptr<const nav::Bake>&, const std::shared_ptr<const nav::Bake>& next) {
    if (next->partial) return;  // tiles still filling in: timings count finished bakes
    timings_.record(*next);
}

void App::poll_worker() {
    for (WorkerEvent& e : worker_.take_events()) {
        switch (e.kind) {
            case WorkerEvent::Kind::MeshLoaded:
                banner_.clear();
                mesh_pending_ = false;
                if (!own_settings_for_.empty() && own_settings_for_ == e.text) apply_own_settings(e.text);
                own_settings_for_.clear();
                break;
            case WorkerEvent::Kind::MeshFailed:
                set_error(e.text);
                mesh_pending_ = false;
                break;
            case WorkerEvent::Kind::BakeFailed: set_error(e.text); break;
            case WorkerEvent::Kind::BakeDone: break;
        }
    }
    worker_.set_region_trace(replay_.wants_trace());
    // the bake and the draw lists the worker built for it, taken together (a 2D map: its own bake,
    // drawn from layers built here)
    // and what it derived from it (the prune, the change highlight)
    worker_.set_prune(islands_.prune_point());
    auto [latest, view, built, view_tile, prune, highlight] = worker_.latest_published();
    if (map2d_.scene()) {
        // a 2D scene is built here when opened, not by the worker: its prune is applied here too
        latest = map2d_.scene()->bake, view = latest, built = nullptr, view_tile.reset(), highlight = highlight_;
        if (!map2d_prune_ || map2d_prune_->src != latest || map2d_prune_->point != islands_.prune_point())
            map2d_prune_ = std::make_shared<const PruneResult>(prune_bake(latest, islands_.prune_point()));
        prune = map2d_prune_;
        view = prune->bake;
    }
    if (latest) {
        raw_layers_ = std::move(built);
        raw_view_ = std::move(view);
        raw_view_tile_ = view_tile;
        prune_ = prune && prune->src == latest ? std::move(prune) : nullptr;
    }
    if (latest && latest != raw_bake_) {
        on_new_bake(raw_bake_, latest);
        raw_bake_ = std::move(latest);
    }
    // the change highlight the worker published (while the highlight is on): uploaded when it changes
    if (!highlight_changes_) highlight = nullptr;
    if (highlight != highlight_) {
        highlight_ = std::move(highlight);
        diff_upload_ = true;
    }
    bake_ = trimmed(prune_ ? prune_->bake : raw_bake_);
    // what the layers draw: the whole bake, or its "only selected tile" view (the worker's when it
    // is of this very bake and tile, so its draw lists fit)
    worker_.set_tile_only(tile_only_ ? sel_tile_ : std::nullopt);
    if (tile_only_ && sel_tile_ && bake_ && bake_->tiled())
        draw_bake_ = prune_ && bake_ == prune_->bake && raw_view_tile_ == sel_tile_ ? raw_view_
                                                                                   : ui_tile_view_.make(bake_, *sel_tile_);
    else
        draw_bake_ = bake_;
    warnings_.update(bake_.get(), desired_, log_);
    // the newest desired state goes to the worker whenever it differs from what was asked last
    const bool vol_changed = volumes_ != requested_volumes_;
    if (!(desired_ == requested_) || vol_changed || run_to_ != requested_to_) {
        cancelled_ = false;
        worker_.request(desired_, volumes_, run_to_);
        requested_ = desired_;
        requested_volumes_ = volumes_;
        requested_to_ = run_to_;
    }
}

void App::frame(GLFWwindow* window, float W, float H, float dt) {
    win_w_ = W;
    win_h_ = H;
    poll_worker();
    track_worker_state();
    path_.update(bake_ ? bake_->navmesh : nullptr);
    optimal_.update(bake_ && path_.mode() == PathTool::Mode::Path ? bake_->navmesh : nullptr, path_.has_start(),
                    path_.start(), path_.has_end(), path_.end());
    animating_ = worker_.busy();

    if (show_ui_) {
        ui_left_panel(W, H);
        ui_right_panel(W, H);
    }
    view_ = {left_w_, 0.0f, std::max(W - left_w_ - right_w_, 64.0f), H};

    const nav::InputMesh* mesh = bake_ && bake_->mesh ? bake_->mesh.get() : nullptr;
    if (mesh && bake_->mesh != framed_mesh_) {
        const glm::vec3 bmin(mesh->bmin[0], mesh->bmin[1], mesh->bmin[2]);
        const glm::vec3 bmax(mesh->bmax[0], mesh->bmax[1], mesh->bmax[2]);
        if (camera_placed_ && !framed_mesh_) cam_.set_scene_scale(glm::length(bmax - bmin));  // keep --camera
        else cam_.frame_default(bmin, bmax, view_);
        framed_mesh_ = bake_->mesh;
        camera_placed_ = true;
    }

    // 2D mode: the orthographic top view over the mesh bounds
    auto projection = [&] {
        if (map2d_.top_view() && mesh)
            return map2d_.view_proj(cam_, glm::vec3(mesh->bmin[0], mesh->bmin[1], mesh->bmin[2]),
                                    glm::vec3(mesh->bmax[0], mesh->bmax[1], mesh->bmax[2]), view_, W, H);
        return cam_.projection(view_, W, H) * cam_.view();
    };
    view_proj_ = projection();
    if (!opts_.headless) {
        handle_camera_input(window, W, H, dt);
        view_proj_ = projection();
        update_hover(W, H);
    } else {
        inspector_.update(draw_bake_, opts_.layers, nullptr, false);
    }
    update_focus();
    if (!opts_.headless) handle_shortcuts();
    undo_keys_and_commit();
    ui_overlays(W, H);
}

void App::handle_camera_input(GLFWwindow* window, float W, float H, float dt) {
    ImGuiIO& io = ImGui::GetIO();
    const bool mouse_free = !io.WantCaptureMouse;
    const nav::InputMesh* mesh = bake_ && bake_->mesh ? bake_->mesh.get() : nullptr;

    auto pick = [&](glm::vec3& hit) {
        if (!mesh) return false;
        glm::vec3 o, d;
        cam_.ray(view_proj_, io.MousePos.x, io.MousePos.y, W, H, o, d);
        float t = 0;
        if (!r::raycast_mesh(*mesh, &o.x, &d.x, t, pick_visibility())) return false;
        hit = o + d * t;
        return true;
    };

    // start / end drags
    if (drag_ == Drag::None && mouse_free) {
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Right)) drag_ = Drag::Look;
        const bool alt_left = io.KeyAlt && ImGui::IsMouseClicked(ImGuiMouseButton_Left);
        if (io.KeyShift && ImGui::IsMouseClicked(ImGuiMouseButton_Middle)) {
            // pan (Blender's Shift+MMB): the point under the cursor follows it, at its depth
            drag_ = Drag::Pan;
            if (!pick(pivot_)) pivot_ = cam_.eye + cam_.forward() * std::max(cam_.speed, 1.0f);
        } else if (ImGui::IsMouseClicked(ImGuiMouseButton_Middle) || alt_left) {
            drag_ = Drag::Orbit;
            if (!pick(pivot_)) {
                // nothing under the cursor: orbit around the point at the mesh centre's depth
                glm::vec3 c(0.0f);
                if (mesh) c = glm::vec3((mesh->bmin[0] + mesh->bmax[0]) * 0.5f, (mesh->bmin[1] + mesh->bmax[1]) * 0.5f,
                                        (mesh->bmin[2] + mesh->bmax[2]) * 0.5f);
                const float depth = std::max(glm::dot(c - cam_.eye, cam_.forward()), cam_.near_z * 10.0f);
                glm::vec3 o, d;
                cam_.ray(view_proj_, io.MousePos.x, io.MousePos.y, W, H, o, d);
                pivot_ = o + d * (depth / std::max(glm::dot(d, cam_.forward()), 0.05f));
            }
        }
    }
    // path tool: Shift+left-click sets the start, left-click the end (RecastDemo's habit); a press
    // on a shown marker grabs it instead (with Shift only the start marker) and dragging moves it
    if (tool_ == Tool::Prune && drag_ == Drag::None && mouse_free && !io.KeyAlt &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        glm::vec3 hit;
        if (pick(hit)) {
            islands_.prune_at(hit);
            log_.info("prune: keeping what is reachable from (" + std::to_string(hit.x) + ", " + std::to_string(hit.y) +
                      ", " + std::to_string(hit.z) + ")");
        }
    }
    if (tool_ == Tool::ClipFloor && drag_ == Drag::None && mouse_free && !io.KeyAlt &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        glm::vec3 hit;
        if (pick(hit)) {
            see_.clip = floor_clip(hit.y);
            log_.info("clip to the floor at y " + std::to_string(hit.y) + ": heights " + std::to_string(see_.clip->first) +
                      " .. " + std::to_string(see_.clip->second));
        }
    }
    // section tool: a click puts the plane through the surface under the cursor, facing the
    // camera (the near side is cut away); dragging up / down then moves it away / towards the camera
    if (tool_ == Tool::Section && drag_ == Drag::None && mouse_free && !io.KeyAlt) {
        glm::vec3 hit;
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && pick(hit)) {
            glm::vec3 n = -cam_.forward();
            n.y = 0.0f;
            if (glm::length(n) < 1e-3f) n = glm::vec3(0.0f, 1.0f, 0.0f);
            see_.section = std::make_pair(hit, glm::normalize(n));
        } else if (see_.section && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f) && io.MouseDelta.y != 0.0f) {
            const float dist = glm::length(see_.section->first - cam_.eye);
            const glm::vec3 n = glm::normalize(see_.section->second);
            // one view height of mouse travel moves the plane about the distance to it
            see_.section->first -= n * (io.MouseDelta.y * dist / std::max(H, 1.0f));
        }
    }
    if (tool_ == Tool::Tile && drag_ == Drag::None && mouse_free && !io.KeyAlt &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        glm::vec3 hit;
        if (pick(hit) && bake_) {
            if (const auto t = tile_at(*bake_, hit.x, hit.z)) {
                sel_tile_ = t;
                log_.info("selected tile " + std::to_string(t->first) + "," + std::to_string(t->second));
            } else {
                log_.info(bake_->tiled() ? "no tile there" : "tile select: the bake is not tiled (set tile_size)");
            }
        }
    }
    if (tool_ == Tool::Path && drag_ == Drag::None && mouse_free && !io.KeyAlt &&
        ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        glm::vec3 hit;
        const bool got = pick(hit);
        if (!(path_on() && path_.begin_drag(view_proj_, W, H, io.MousePos.x, io.MousePos.y, got ? &hit : nullptr,
                                            io.KeyShift)) &&
            got) {
            if (io.KeyShift) path_.set_start(hit);
            else path_.set_end(hit);
            opts_.layers[static_cast<size_t>(r::Layer::Path)] = true;
        }
    }
    if (path_.dragging()) {
        glm::vec3 hit;
        if (!io.MouseDown[ImGuiMouseButton_Left]) path_.end_drag();
        else if ((io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) && pick(hit)) path_.drag_to(hit);
    }
    if (drag_ == Drag::Look && !io.MouseDown[ImGuiMouseButton_Right]) drag_ = Drag::None;
    if (drag_ == Drag::Orbit && !io.MouseDown[ImGuiMouseButton_Middle] && !io.MouseDown[ImGuiMouseButton_Left])
        drag_ = Drag::None;
    if (drag_ == Drag::Pan && !io.MouseDown[ImGuiMouseButton_Middle]) drag_ = Drag::None;
    if (drag_ == Drag::Pan && (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f)) {
        // world metres per pixel at the pivot's depth
        const float depth = std::max(glm::dot(pivot_ - cam_.eye, cam_.forward()), cam_.near_z);
        const float per_px = 2.0f * depth * std::tan(cam_.fov_y * 0.5f) / std::max(view_.h, 1.0f);
        cam_.eye -= cam_.right() * (io.MouseDelta.x * per_px) - cam_.up() * (io.MouseDelta.y * per_px);
    }

    constexpr float kTurn = 0.005f;
    if (drag_ == Drag::Look) cam_.rotate(io.MouseDelta.x * kTurn, -io.MouseDelta.y * kTurn);
    if (drag_ == Drag::Orbit) cam_.orbit(pivot_, io.MouseDelta.x * kTurn, -io.MouseDelta.y * kTurn);

    // wheel: dolly towards the point under the cursor
    if (mouse_free && io.MouseWheel != 0.0f) {
        glm::vec3 hit;
        const float step = io.MouseWheel * (io.KeyShift ? 0.4f : 0.15f);
        if (pick(hit)) {
            const glm::vec3 to = hit - cam_.eye;
            const float len = glm::length(to);
            const float move = std::min(len * step, len - cam_.near_z * 4.0f);
            if (len > 1e-6f) cam_.eye += to / len * move;
        } else {
            cam_.fly({0.0f, 0.0f, cam_.speed * step * 2.0f});
        }
    }

    // keys: fly
    bool flying = false;
    if (!io.WantCaptureKeyboard) {
        glm::vec3 m(0.0f);
        if (glfwGetKey(window, GLFW_KEY_W) == GLFW_PRESS) m.z += 1;
        if (glfwGetKey(window, GLFW_KEY_S) == GLFW_PRESS) m.z -= 1;
        if (glfwGetKey(window, GLFW_KEY_D) == GLFW_PRESS) m.x += 1;
        if (glfwGetKey(window, GLFW_KEY_A) == GLFW_PRESS) m.x -= 1;
        if (glfwGetKey(window, GLFW_KEY_E) == GLFW_PRESS) m.y += 1;
        if (glfwGetKey(window, GLFW_KEY_Q) == GLFW_PRESS) m.y -= 1;
        if (m != glm::vec3(0.0f)) {
            float k = cam_.speed * std::min(dt, 0.1f);
            if (io.KeyShift) k *= 4.0f;
            if (io.KeyCtrl) k *= 0.25f;
            cam_.fly(m * k);
            flying = true;
        }
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Tab), false)) show_ui_ = !show_ui_;
        if (glfwGetKey(window, GLFW_KEY_F) == GLFW_PRESS && mesh) {
            if (const auto& pin = inspector_.pin_point()) {
                // the selection: a box of a few metres around the pinned element
                const glm::vec3 half(3.0f);
                cam_.frame(*pin - half, *pin + half, view_);
            } else {
                cam_.frame(glm::vec3(mesh->bmin[0], mesh->bmin[1], mesh->bmin[2]),
                           glm::vec3(mesh->bmax[0], mesh->bmax[1], mesh->bmax[2]), view_);
            }
        }
    }
    animating_ = animating_ || flying || drag_ != Drag::None || path_.dragging();
}

void App::update_hover(float W, float H) {
    node_tip_.clear();
    const ImGuiIO& io = ImGui::GetIO();
    if (path_on() && path_.show_nodes() && !io.WantCaptureMouse && drag_ == Drag::None && !path_.dragging() && bake_ && bake_->mesh &&
        io.MousePos.x >= 0 && io.MousePos.y >= 0) {
        glm::vec3 o, d;
        cam_.ray(view_proj_, io.MousePos.x, io.MousePos.y, W, H, o, d);
        float t = 0;
        if (r::raycast_mesh(*bake_->mesh, &o.x, &d.x, t, pick_visibility())) node_tip_ = path_.node_tooltip(o + d * t);
        if (!node_tip_.empty()) {
            inspector_.update(draw_bake_, opts_.layers, nullptr, false);
            return;
        }
    }
    const bool in_view = io.MousePos.x >= view_.x && io.MousePos.x < view_.x + view_.w && io.MousePos.y >= 0 &&
                         io.MousePos.y < H;
    PickRay ray;
    const bool can_hover = inspect_ && !io.WantCaptureMouse && drag_ == Drag::None && !path_.dragging() && in_view;
    if (can_hover) cam_.ray(view_proj_, io.MousePos.x, io.MousePos.y, W, H, ray.o, ray.d);
    const bool click = can_hover && tool_ == Tool::Inspect && !io.KeyAlt && ImGui::IsMouseClicked(ImGuiMouseButton_Left);
    inspector_.update(draw_bake_, opts_.layers, can_hover ? &ray : nullptr, click);
}

void App::ui_layers() {
    const nav::Bake* b = bake_.get();
    for (int i = 0; i < r::kLayerCount; ++i) {
        const auto l = static_cast<r::Layer>(i);
        if (i % 2) ImGui::SameLine(150.0f);
        bool on = opts_.layers[static_cast<size_t>(i)];
        const bool avail = b && r::layer_available(l, *b);
        if (!avail) ImGui::PushStyleColor(ImGuiCol_Text, kDimColor);
        if (ImGui::Checkbox(std::string(r::layer_name(l)).c_str(), &on)) opts_.layers[static_cast<size_t>(i)] = on;
        if (!avail) ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) {
            const auto& info = layers_.info(l);
            // a tiled level's per-grid layers are drawn in parts (blocks of tiles): a re-bake
            // re-uploads the parts whose tiles changed
            const std::string parts = info.parts > 1 ? ", " + std::to_string(info.parts_uploaded) + " of its " +
                                                           std::to_string(info.parts) + " tile parts" : "";
            ImGui::SetTooltip("%s\nstage: %s%s\n%s triangles, %s lines, %s spans\nlast rebuild: built in %.1f ms (%s), "
                              "uploaded in %.2f ms%s",
                              std::string(r::layer_help(l)).c_str(),
                              std::string(nav::stage_name(r::layer_stage(l))).c_str(), avail ? "" : " (not built)",
                              fmt_count(static_cast<int64_t>(info.triangles)).c_str(),
                              fmt_count(static_cast<int64_t>(info.lines)).c_str(),
                              fmt_count(static_cast<int64_t>(info.spans)).c_str(), info.build_ms,
                              info.on_ui ? "UI thread" : "worker", info.upload_ms, parts.c_str());
        }
    }
    ImGui::Checkbox("ground grid", &show_ground_);
    ImGui::SameLine(150.0f);
    ImGui::Checkbox("inspect spans", &inspect_);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Hover a span (with a floor layer shown) to see its links and values.");
    ui_readability();
    ui_see_inside();

    // legend of the visible layers
    for (int i = 0; i < r::kLayerCount; ++i) {
        if (!opts_.layers[static_cast<size_t>(i)]) continue;
        const auto l = static_cast<r::Layer>(i);
        ImGui::TextColored(kDimColor, "%s", std::string(r::layer_name(l)).c_str());
        int n = 0;
        for (const r::LegendEntry& e : layers_.legend(l)) {  // only what the layer draws now
            if (n++ % 2) ImGui::SameLine(160.0f);
            ImGui::ColorButton(("##lg" + std::to_string(i) + "_" + std::to_string(n)).c_str(), to_imvec(e.color),
                               ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker, ImVec2(12, 12));
            ImGui::SameLine();
            ImGui::TextUnformatted(std::string(e.label).c_str());
        }
    }
}

void App::apply_own_settings(const std::string& mesh_path) {
    const std::string cfg = std::filesystem::path(mesh_path).replace_extension(".json").string();
    nav::Params p;
    std::vector<nav::ConvexVolume> vols;
    std::error_code ec;
    if (std::filesystem::exists(cfg, ec) && nav::load_config_file(cfg, p, vols)) {
        config_field_ = cfg;
        log_.info("settings of " + mesh_path + " from " + cfg + " (" + std::to_string(vols.size()) + " volumes)");
    } else {
        p = nav::Params{};
        vols.clear();
        config_field_.clear();
        log_.info("default settings for " + mesh_path + " (no " + cfg + "; Files: keep settings carries them over)");
    }
    desired_ = p;
    volumes_ = std::move(vols);
    islands_.clear();
    undo_.reset(edit_state());  // a new mesh starts a new history
}

void App::apply_edit(const EditState& st, const char* what) {
    desired_ = st.params;
    volumes_ = st.volumes;
    if (st.prune) islands_.prune_at(*st.prune);
    else islands_.clear();
    log_.info(std::string(what) + ": " + std::to_string(undo_.undo_steps()) + " more to undo, " +
              std::to_string(undo_.redo_steps()) + " to redo");
}

void App::undo_keys_and_commit() {
    const ImGuiIO& io = ImGui::GetIO();
    if (!io.WantTextInput && io.KeyCtrl && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Z), false)) {
        if (io.KeyShift) {
            if (undo_.can_redo()) apply_edit(undo_.redo(), "redo");
        } else if (undo_.can_undo()) {
            apply_edit(undo_.undo(), "undo");
        }
    } else if (!io.WantTextInput && io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Y, false) && undo_.can_redo()) {
        apply_edit(undo_.redo(), "redo");
    }
    // an edit is one step once it has settled: no slider or field held, no button down
    if (!ImGui::IsAnyItemActive() && !ImGui::IsMouseDown(ImGuiMouseButton_Left)) undo_.commit(edit_state());
}

void App::handle_shortcuts() {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantCaptureKeyboard || io.KeyCtrl) return;
    // number keys: 1..9, 0 toggle the first ten layers in panel order, Shift+1..5 the next five
    // (ImGui 1.86 with the GLFW backend: key indices are GLFW key codes)
    static const int digits[10] = {GLFW_KEY_1, GLFW_KEY_2, GLFW_KEY_3, GLFW_KEY_4, GLFW_KEY_5,
                                   GLFW_KEY_6, GLFW_KEY_7, GLFW_KEY_8, GLFW_KEY_9, GLFW_KEY_0};
    for (int k = 0; k < 10; ++k) {
        if (!ImGui::IsKeyPressed(digits[k], false)) continue;
        const int li = io.KeyShift ? 10 + k : k;
        if (li < r::kLayerCount) opts_.layers[static_cast<size_t>(li)] = !opts_.layers[static_cast<size_t>(li)];
    }
    // PgUp / PgDn: the stage driver one stage back / forward
    const int t = static_cast<int>(run_to_);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageUp)) && t > 0) run_to_ = static_cast<nav::Stage>(t - 1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_PageDown)) && t + 1 < nav::kStageCount) run_to_ = static_cast<nav::Stage>(t + 1);
}

void App::track_worker_state() {
    const bool busy = worker_.busy();
    const int st = worker_.building_stage();
    const Clock::time_point now = Clock::now();
    if (busy && !was_busy_) {
        busy_since_ = now;
        run_first_stage_ = -1;
    }
    if (st != seen_stage_) {
        stage_since_ = now;
        if (st >= 0 && (run_first_stage_ < 0 || st < run_first_stage_)) run_first_stage_ = st;
        seen_stage_ = st;
    }
    was_busy_ = busy;
}

bool App::view_stale() const {
    // an earlier result is on screen (more than the input) while a newer one is wanted
    // (or a tiled bake's partial snapshot is left on screen by a cancel)
    return raw_bake_ && ((raw_bake_->built_through > 0 && (worker_.busy() || cancelled_)) ||
                         (raw_bake_->partial && cancelled_ && !worker_.busy()));
}

void App::ui_bake_status(bool panel) {
    const bool busy = worker_.busy(), stale = view_stale();
    if (!busy && !stale) {
        // the bake is done and its layers are going to the GPU a few parts a frame
        if (layers_.uploading()) {
            char line[128];
            std::snprintf(line, sizeof line, "uploading the new layers: %zu tile parts left", layers_.parts_pending());
            if (panel) ImGui::TextWrapped("%s", line);
            else ImGui::TextUnformatted(line);
        }
        return;
    }
    const Clock::time_point now = Clock::now();
    auto secs = [&](Clock::time_point since) { return std::chrono::duration<double>(now - since).count(); };
    const char* head = nullptr;
    if (stale) head = cancelled_ && !busy ? (raw_bake_->partial ? "STALE - bake cancelled: only the tiles done by then are shown"
                                                                 : "STALE - bake cancelled: the view shows the last bake")
                                          : "STALE, re-baking: the view shows the last bake";
    else if (raw_bake_ && raw_bake_->partial) head = "tiled bake: the tiles done so far are shown, the rest fill in";
    else if (raw_bake_ && raw_bake_->built_through == 0) head = "first bake: the input is shown, the rest is being built";
    if (head) {
        ImGui::PushStyleColor(ImGuiCol_Text, kWarnColor);
        if (panel) ImGui::TextWrapped("%s", head);
        else ImGui::TextUnformatted(head);
        ImGui::PopStyleColor();
    }
    if (busy) {
        if (ImGui::SmallButton(panel ? "Cancel##panel" : "Cancel##view")) {
            worker_.cancel();
            cancelled_ = true;
            log_.warn("bake cancelled: the view shows the last bake; Re-bake or change a parameter to build again");
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Stop this bake. The last finished bake stays on screen, marked stale.");
        ImGui::SameLine();
        const int st = worker_.building_stage();
        char line[256];
        const nav::Bake* pb = raw_bake_ && raw_bake_->partial ? raw_bake_.get() : nullptr;
        if (pb && st >= static_cast<int>(nav::Stage::Rasterize)) {
            // tiles publish as they finish: tiles done of all, and the time so far
            const int done = tiles_present(*pb), all = pb->layout.count();
            std::snprintf(line, sizeof line, "tiles %d / %d", done, all);
            ImGui::ProgressBar(static_cast<float>(done) / static_cast<float>(std::max(all, 1)), ImVec2(panel ? -1.0f : 180.0f, 0.0f),
                               line);
            if (!panel) ImGui::SameLine();
            std::snprintf(line, sizeof line, "baking tiles, nearest the camera first  %.1f s", secs(busy_since_));
        } else if (st >= 0) {
            // stage-level progress: no stage reports progress within itself yet
            const int first = std::max(run_first_stage_, 0), last = std::max(static_cast<int>(run_to_), st);
            const int n = last - first + 1, k = st - first + 1;
            std::snprintf(line, sizeof line, "%s: stage %d/%d (%d%% of the stages done)  %.1f s, total %.1f s",
                          std::string(nav::kStageNames[static_cast<size_t>(st)]).c_str(), k, n, (k - 1) * 100 / std::max(n, 1),
                          secs(stage_since_), secs(busy_since_));
        } else {
            std::snprintf(line, sizeof line, "%s %.1f s", mesh_pending_ ? "loading the mesh" : "preparing the bake",
                          secs(busy_since_));
        }
        if (panel) ImGui::TextWrapped("%s", line);
        else ImGui::TextUnformatted(line);
    } else if (cancelled_) {
        if (ImGui::SmallButton(panel ? "Re-bake##panel" : "Re-bake##view")) {
            cancelled_ = false;
            worker_.request(desired_, volumes_, run_to_);
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Build with the current parameters again.");
    }
}

r::PickVisibility App::pick_visibility() const {
    r::PickVisibility v;
    const bool input_shown = opts_.layers[static_cast<size_t>(r::Layer::Input)];
    v.cull_back = see_.cull && input_shown;
    v.hide_ceilings = see_.hide_ceilings && input_shown;
    if (see_.clip) {
        v.clip = true;
        v.clip_min = std::min(see_.clip->first, see_.clip->second);
        v.clip_max = std::max(see_.clip->first, see_.clip->second);
    }
    if (see_.section) {
        v.section = true;
        for (int i = 0; i < 3; ++i) {
            v.point[i] = see_.section->first[i];
            v.normal[i] = see_.section->second[i];
        }
    }
    return v;
}

r::ViewCut App::view_cut() const {
    r::ViewCut c;
    if (see_.clip) {
        c.clip = true;
        c.clip_min = see_.clip->first;
        c.clip_max = see_.clip->second;
    }
    if (see_.section) {
        c.section = true;
        for (int i = 0; i < 3; ++i) {
            c.point[i] = see_.section->first[i];
            c.normal[i] = see_.section->second[i];
        }
    }
    c.floor_tint = see_.floor_tint;
    c.tint_band = see_.floor_height;
    // band 0 starts a little under the lowest point, so the lowest floor is band 0 whatever rounding
    c.tint_origin = bake_ && bake_->mesh ? bake_->mesh->bmin[1] - 0.25f : 0.0f;
    return c;
}

void App::ui_see_inside() {
    if (!ImGui::TreeNodeEx("See inside", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::Checkbox("cull back faces", &see_.cull);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Input triangles seen from behind are not drawn: rooms whose walls face inward\n"
                          "open up when seen from outside (--cull on|off).");
    ImGui::SameLine(170.0f);
    ImGui::Checkbox("hide ceilings", &see_.hide_ceilings);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Input triangles facing down are not drawn where the camera is above them\n"
                          "(--hide-ceilings on|off).");
    const nav::InputMesh* mesh = bake_ && bake_->mesh ? bake_->mesh.get() : nullptr;
    const float lo = mesh ? mesh->bmin[1] - 1.0f : -10.0f, hi = mesh ? mesh->bmax[1] + 1.0f : 10.0f;
    bool clip = see_.clip.has_value();
    if (ImGui::Checkbox("height clip", &clip)) {
        if (clip) see_.clip = std::make_pair(lo, hi);
        else see_.clip.reset();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Draw only what lies between two heights (every layer). The floor click tool sets\n"
                          "the range around the floor you click (--clip YMIN,YMAX, --clip-floor X,Y,Z).");
    if (see_.clip) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 8.0f);
        ImGui::DragFloatRange2("##clip", &see_.clip->first, &see_.clip->second, 0.05f, lo, hi, "min %.2f m",
                               "max %.2f m", ImGuiSliderFlags_AlwaysClamp);
    }
    bool section = see_.section.has_value();
    if (ImGui::Checkbox("section plane", &section)) {
        if (section) {
            glm::vec3 c(0.0f);
            if (mesh) c = glm::vec3((mesh->bmin[0] + mesh->bmax[0]) * 0.5f, (mesh->bmin[1] + mesh->bmax[1]) * 0.5f,
                                    (mesh->bmin[2] + mesh->bmax[2]) * 0.5f);
            see_.section = std::make_pair(c, glm::vec3(0.0f, 0.0f, 1.0f));
        } else {
            see_.section.reset();
        }
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Cut away everything on the side the plane's normal points to. The section click tool\n"
                          "places it facing the camera; drag the numbers or the tool to move it\n"
                          "(--section PX,PY,PZ,NX,NY,NZ).");
    if (see_.section) {
        ImGui::DragFloat3("point", &see_.section->first.x, 0.05f);
        glm::vec3 n = see_.section->second;
        if (ImGui::DragFloat3("normal", &n.x, 0.01f, -1.0f, 1.0f) && glm::length(n) > 1e-3f) see_.section->second = n;
    }
    ImGui::Checkbox("floor tint", &see_.floor_tint);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Tint every layer by height band so stacked floors read apart: one colour per band of\n"
                          "the given height from the bottom of the mesh (--floor-tint, --floor-height M).");
    if (see_.floor_tint) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 8.0f);
        ImGui::SliderFloat("##band", &see_.floor_height, 0.5f, 20.0f, "band %.2f m", ImGuiSliderFlags_AlwaysClamp);
    }
    ImGui::TreePop();
}

std::string App::lod_text(bool brief) const {
    size_t total = 0, full = 0, merged = 0;
    std::string names;
    for (int i = 0; i < r::kLayerCount; ++i) {
        const r::SpanPlanStats& st = layers_.lod(static_cast<r::Layer>(i));
        if (!st.merged) continue;
        names += (names.empty() ? "" : ", ") + std::string(r::layer_name(static_cast<r::Layer>(i)));
        total += st.visible;
        full += st.drawn[0];
        merged += st.visible - st.drawn[0];
    }
    if (names.empty()) return {};
    auto millions = [](size_t v) {
        char b[32];
        std::snprintf(b, sizeof b, v >= 100000 ? "%.1f M" : "%.0f k", v >= 100000 ? static_cast<double>(v) / 1e6 : static_cast<double>(v) / 1e3);
        return std::string(b);
    };
    if (brief)
        return "level of detail: " + millions(full) + " of " + millions(total) + " spans in view at full detail, the farther merged " +
               "4 x 4 or 16 x 16 (" + names + "; span budget: Layers > Readability)";
    return "Level of detail on " + names + ": " + millions(full) + " of the " + millions(total) +
           " spans in view drawn at full detail (nearest the camera); the farther " + millions(merged) +
           " drawn merged, 4 x 4 or 16 x 16 cells as one column. Raise the span budget or move closer for full detail.";
}

void App::ui_readability() {
    if (!ImGui::TreeNodeEx("Readability", ImGuiTreeNodeFlags_DefaultOpen)) return;
    // per-layer opacity: one compact slider per visible layer
    const float sw = ImGui::GetContentRegionAvail().x * 0.55f;
    for (int i = 0; i < r::kLayerCount; ++i) {
        const auto l = static_cast<r::Layer>(i);
        if (!opts_.layers[static_cast<size_t>(i)] || !r::layer_from_bake(l)) continue;
        ImGui::PushID(i);
        ImGui::SetNextItemWidth(sw);
        ImGui::SliderFloat(std::string(r::layer_name(l)).c_str(), &draw_opts_.opacity[static_cast<size_t>(i)], 0.0f, 1.0f,
                           "opacity %.2f", ImGuiSliderFlags_AlwaysClamp);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("How opaque this layer is drawn. Right-click: back to 1.");
        if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) draw_opts_.opacity[static_cast<size_t>(i)] = 1.0f;
        ImGui::PopID();
    }
    {
        // the span budget in thousands (0: no limit)
        int k = static_cast<int>(draw_opts_.span_budget / 1000);
        ImGui::SetNextItemWidth(sw);
        if (ImGui::SliderInt("span budget", &k, 0, 20000, k ? "%d k a frame" : "no limit", ImGuiSliderFlags_AlwaysClamp))
            draw_opts_.span_budget = static_cast<size_t>(k) * 1000;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Spans drawn at full detail per frame, shared by the span layers shown (voxels, filtered,\n"
                              "compact ... regions). Beyond it the chunks farthest from the camera are drawn merged:\n"
                              "each 4 x 4 or 16 x 16 block of cells as its most layered column. Chunks outside the view\n"
                              "are never drawn. 0: no limit. Right-click: back to %d k.",
                              static_cast<int>(r::LayerDrawOptions::kDefaultSpanBudget / 1000));
        if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) draw_opts_.span_budget = r::LayerDrawOptions::kDefaultSpanBudget;
        const std::string lod = lod_text(false);
        if (!lod.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, kWarnColor);
            ImGui::TextWrapped("%s", lod.c_str());
            ImGui::PopStyleColor();
        }
    }
    ImGui::Checkbox("x-ray edges", &draw_opts_.xray);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Draw the layers' lines a second time, faint, through the geometry in front.");
    ImGui::SameLine(150.0f);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 60.0f);
    ImGui::SliderFloat("stack", &draw_opts_.lift_step, 0.0f, 1.0f, "%.2f m", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Stack offset: each visible layer after the first is drawn this much higher than the one\n"
                          "before, so layers shown together do not hide each other.");
    if (ImGui::Checkbox("Highlight changes", &highlight_changes_)) {
        worker_.set_highlight_changes(highlight_changes_);
        if (!highlight_changes_ && highlight_) {
            highlight_.reset();
            diff_upload_ = true;
        }
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("After a re-bake, show which regions and polygons it added, removed or reshaped\n"
                          "(kept until the next bake).");
    if (highlight_changes_) {
        auto swatch = [](const char* id, uint32_t c) {
            ImGui::ColorButton(id, to_imvec(c), ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker, ImVec2(12, 12));
            ImGui::SameLine();
        };
        swatch("##dadd", r::colors::kDiffAdded);
        ImGui::TextUnformatted("added");
        ImGui::SameLine();
        swatch("##dresh", r::colors::kDiffReshaped);
        ImGui::TextUnformatted("reshaped");
        ImGui::SameLine();
        swatch("##drem", r::colors::kDiffRemoved);
        ImGui::TextUnformatted("removed");
        if (highlight_) {
            ImGui::TextWrapped("#%llu -> #%llu: %s", static_cast<unsigned long long>(highlight_->changes.from_generation),
                               static_cast<unsigned long long>(highlight_->changes.to_generation), highlight_->text.c_str());
            ImGui::TextColored(kDimColor, "diff %.2f ms", highlight_->changes.ms);
        } else {
            ImGui::TextColored(kDimColor, "move a slider: the next bake is compared with this one");
        }
    }
    ImGui::TreePop();
}

void App::ui_params() {
    // undo / redo of parameter changes, fixes and prunes (Ctrl+Z, Ctrl+Shift+Z)
    ImGui::BeginDisabled(!undo_.can_undo());
    if (ImGui::SmallButton(("Undo (" + std::to_string(undo_.undo_steps()) + ")").c_str())) apply_edit(undo_.undo(), "undo");
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("Ctrl+Z: back one edit (a parameter, a fix, a prune, volumes)");
    ImGui::SameLine();
    ImGui::BeginDisabled(!undo_.can_redo());
    if (ImGui::SmallButton(("Redo (" + std::to_string(undo_.redo_steps()) + ")").c_str())) apply_edit(undo_.redo(), "redo");
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("Ctrl+Shift+Z or Ctrl+Y: forward one edit");
    const float slider_w = ImGui::GetContentRegionAvail().x * 0.60f;
    // once per stage, in pipeline order, whatever the order of the parameter table
    std::vector<const nav::ParamDef*> ordered;
    for (const nav::ParamDef& d : nav::param_table()) ordered.push_back(&d);
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const nav::ParamDef* a, const nav::ParamDef* b) { return a->stage < b->stage; });
    nav::Stage group = nav::Stage::Count;
    for (const nav::ParamDef* dp : ordered) {
        const nav::ParamDef& d = *dp;
        if (d.stage != group) {
            group = d.stage;
            ImGui::TextColored(kDimColor, "%s", std::string(nav::stage_name(group)).c_str());
        }
        ImGui::PushID(static_cast<int>(d.id));
        const std::string label(d.label);
        const nav::InputMesh* mesh = bake_ && bake_->mesh ? bake_->mesh.get() : nullptr;
        const std::string hint = nav::voxel_hint(d.id, desired_, mesh ? mesh->bmin : nullptr, mesh ? mesh->bmax : nullptr);
        std::string unit = d.unit.empty() || d.unit == "cells" ? "" : " " + std::string(d.unit);
        bool changed = false;
        double value = desired_.get(d.id);
        ImGui::SetNextItemWidth(slider_w);
        switch (d.kind) {
            case nav::ParamKind::Float: {
                float v = static_cast<float>(value);
                const bool deg = d.unit == "deg";
                // degrees to a tenth; ranges reaching below 0.01 (mesh_scale) to a thousandth
                const char* prec = deg ? "%.1f" : d.min < 0.01 && d.min > 0.0 ? "%.3f" : "%.2f";
                const std::string fmt = prec + escape_percent(unit) +
                                        (hint.empty() ? "" : "  " + escape_percent(hint));
                const ImGuiSliderFlags flags = deg ? ImGuiSliderFlags_None : ImGuiSliderFlags_Logarithmic;
                changed = ImGui::SliderFloat(label.c_str(), &v, static_cast<float>(d.min), static_cast<float>(d.max),
                                             fmt.c_str(), flags | ImGuiSliderFlags_AlwaysClamp);
                // float(0.02) is a hair below the double 0.02: clamp in double so the ends are accepted
                value = std::clamp(static_cast<double>(v), d.min, d.max);
                break;
            }
            case nav::ParamKind::Int: {
                int v = static_cast<int>(value);
                const std::string fmt = "%d" + escape_percent(unit) + (hint.empty() ? "" : "  " + escape_percent(hint));
                changed = ImGui::SliderInt(label.c_str(), &v, static_cast<int>(d.min), static_cast<int>(d.max),
                                           fmt.c_str(), ImGuiSliderFlags_AlwaysClamp);
                value = v;
                break;
            }
            case nav::ParamKind::Bool: {
                bool v = value != 0.0;
                changed = ImGui::Checkbox(label.c_str(), &v);
                value = v ? 1.0 : 0.0;
                break;
            }
            case nav::ParamKind::Enum: {
                int v = static_cast<int>(value);
                const std::string cur(v >= 0 && v < static_cast<int>(d.enum_names.size()) ? d.enum_names[static_cast<size_t>(v)] : "");
                if (ImGui::BeginCombo(label.c_str(), cur.c_str())) {
                    for (size_t k = 0; k < d.enum_names.size(); ++k) {
                        const bool sel = static_cast<int>(k) == v;
                        if (ImGui::Selectable(std::string(d.enum_names[k]).c_str(), sel)) {
                            v = static_cast<int>(k);
                            changed = true;
                        }
                    }
                    ImGui::EndCombo();
                }
                value = v;
                break;
            }
        }
        if (ImGui::IsItemHovered()) {
            nav::Params defaults;
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(360.0f);
            ImGui::Text("%s (%s)", std::string(d.name).c_str(), label.c_str());
            ImGui::TextUnformatted(std::string(d.help).c_str());
            ImGui::TextColored(kDimColor, "default %s, range %g..%g%s; rebuilds from %s. Right-click: reset.",
                               defaults.to_string(d.id).c_str(), d.min, d.max, unit.c_str(),
                               std::string(nav::stage_name(d.stage)).c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
        if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) {
            value = nav::Params().get(d.id);
            changed = true;
        }
        if (changed) {
            const nav::Status st = desired_.set(d.id, value);
            if (!st) log_.warn(st.message);
        }
        ImGui::PopID();
    }
    if (ImGui::Button("Reset all")) desired_ = nav::Params();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Every parameter back to its default (the Stages timeline steps the bake).");
}

void App::ui_left_panel(float, float H) {
    // resizable by its right edge (full height, 220 px to 45% of the window); the width is kept in
    // ImGui's ini file between runs
    const float w = std::clamp(win_w_ * 0.27f, 300.0f, 380.0f);
    ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, H), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSizeConstraints(ImVec2(220.0f, H), ImVec2(std::max(win_w_ * 0.45f, 220.0f), H));
    ImGui::SetNextWindowBgAlpha(0.90f);
    ImGui::Begin("navdebug", nullptr, ImGuiWindowFlags_NoMove);
    left_w_ = ImGui::IsWindowCollapsed() ? 0.0f : ImGui::GetWindowWidth();

    if (ImGui::CollapsingHeader("Files", ImGuiTreeNodeFlags_DefaultOpen)) {
        const float bw = 52.0f;
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - bw - ImGui::GetStyle().ItemSpacing.x);
        const bool enter = ImGui::InputTextWithHint("##mesh", "mesh.obj (or drop a file)", &mesh_field_,
                                                    ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::SameLine();
        if (ImGui::Button("Open", ImVec2(bw, 0)) || enter) open_mesh(mesh_field_);
        ImGui::Checkbox("keep settings", &keep_settings_);
        ImGui::SameLine();
        if (ImGui::Button("Browse...")) {
            std::error_code ec;
            const std::filesystem::path cur(mesh_field_);
            const std::string dir = !mesh_field_.empty() && std::filesystem::is_directory(cur.parent_path(), ec)
                                        ? std::filesystem::absolute(cur.parent_path(), ec).string()
                                        : std::string();
            open_dialog_.open(dir);
        }
        if (ImGui::IsItemHovered()) {
            const std::string tool = OpenDialog::desktop_tool();
            ImGui::SetTooltip("%s", tool.empty() ? "Choose an .obj in a file browser (install zenity or kdialog for the desktop's own)"
                                                 : ("Choose an .obj with " + tool).c_str());
        }
        if (const auto chosen = open_dialog_.poll()) open_mesh(*chosen);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Off: a mesh you open starts from its own settings (MESH.json next to it, else the\n"
                              "defaults), without the volumes, mesh fixes or prune of the last one. On: they carry over.");
        if (!asset_files_.empty()) {
            ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - bw - ImGui::GetStyle().ItemSpacing.x);
            if (ImGui::BeginCombo("assets", "demo scenes")) {
                for (const std::string& a : asset_files_)
                    if (ImGui::Selectable(std::filesystem::path(a).filename().string().c_str())) open_mesh(a);
                ImGui::EndCombo();
            }
        }
        const float cw = (bw - ImGui::GetStyle().ItemSpacing.x) * 0.5f + 14.0f;
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 2 * cw - 2 * ImGui::GetStyle().ItemSpacing.x);
        const bool cfg_enter = ImGui::InputTextWithHint("##config", "config.json", &config_field_,
                                                        ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::SameLine();
        if (ImGui::Button("Load", ImVec2(cw, 0)) || cfg_enter) load_config(config_field_);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Load parameters and convex volumes from a JSON config.");
        ImGui::SameLine();
        if (ImGui::Button("Save", ImVec2(cw, 0))) save_config(config_field_);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Write the current parameters and volumes as a JSON config.");
        {
            ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 2 * cw - 2 * ImGui::GetStyle().ItemSpacing.x);
            const bool ses_enter = ImGui::InputTextWithHint("##session", "session.json", &session_field_,
                                                            ImGuiInputTextFlags_EnterReturnsTrue);
            ImGui::SameLine();
            if (ImGui::Button("Load##session", ImVec2(cw, 0)) || ses_enter) load_session(session_field_);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("Load a session: mesh, parameters, volumes, path, camera and layers.");
            ImGui::SameLine();
            if (ImGui::Button("Save##session", ImVec2(cw, 0)) && !session_field_.empty()) {
                std::string err;
                if (save_session(session_field_, err)) log_.info("saved session " + session_field_);
                else {
                    log_.error(err);
                    set_error(err);
                }
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("Write the session (mesh, parameters, volumes, path, camera, layers) as JSON.");
        }
        const bool can_export = bake_ && bake_->polymesh && bake_->mesh;
        ImGui::BeginDisabled(!can_export);
        if (ImGui::Button("Export OBJ")) export_obj();
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip(can_export ? "Write the polygon mesh (group polymesh) and detail mesh (group detail)\n"
                                           "as NAME.navmesh.obj next to the mesh."
                                         : "Bake through the polymesh stage to export.");
        if (bake_ && bake_->mesh) {
            const nav::InputMesh& m = *bake_->mesh;
            ImGui::TextColored(kDimColor, "%s", std::filesystem::path(m.path).filename().string().c_str());
            ImGui::SameLine();
            ImGui::TextColored(kDimColor, "%s verts, %s tris", fmt_count(m.vert_count()).c_str(),
                               fmt_count(m.tri_count()).c_str());
        }
    }
    // warnings first: a setting known to go wrong should be seen before the picture is trusted
    {
        const int nw = warnings_.count();
        const std::string title = nw > 0 ? "Warnings (" + std::to_string(nw) + ")###warnings" : "Warnings###warnings";
        if (nw > 0) ImGui::PushStyleColor(ImGuiCol_Text, kWarnColor);
        const bool open = ImGui::CollapsingHeader(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen);
        if (nw > 0) ImGui::PopStyleColor();
        if (open) {
            ImGui::PushID("warnings");
            warnings_.panel(desired_, log_);
            ImGui::PopID();
        }
    }
    if (ImGui::CollapsingHeader("2D map", map2d_.scene() ? ImGuiTreeNodeFlags_DefaultOpen : 0)) map2d_.ui();
    if (ImGui::CollapsingHeader("Layers", ImGuiTreeNodeFlags_DefaultOpen)) {
        ui_layers();
        ImGui::PushID("replay");
        replay_.panel(bake_.get());
        ImGui::PopID();
    }
    if (ImGui::CollapsingHeader("Parameters", ImGuiTreeNodeFlags_DefaultOpen)) ui_params();
    ImGui::End();
}

void App::ui_right_panel(float W, float H) {
    // resizable by its left edge; kept against the window's right edge at last frame's width
    const float w = std::clamp(W * 0.25f, 280.0f, 380.0f);
    const float cur = right_size_ > 0.0f ? right_size_ : w;
    ImGui::SetNextWindowPos(ImVec2(W - cur, 0), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, H), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSizeConstraints(ImVec2(220.0f, H), ImVec2(std::max(W * 0.45f, 220.0f), H));
    ImGui::SetNextWindowBgAlpha(0.90f);
    ImGui::Begin("Bake", nullptr, ImGuiWindowFlags_NoMove);
    right_size_ = ImGui::GetWindowWidth();
    right_w_ = ImGui::IsWindowCollapsed() ? 0.0f : right_size_;

    const nav::Bake* b = bake_.get();
    if (worker_.busy()) {
        const char spin[4] = {'|', '/', '-', '\\'};
        ImGui::TextColored(kWarnColor, "baking %c", spin[static_cast<int>(ImGui::GetTime() * 8.0) & 3]);
    } else if (b) {
        double total = 0;
        for (nav::Stage s : b->stages_run) total += b->stats[static_cast<size_t>(s)].ms;
        ImGui::Text("bake #%llu  %.1f ms", static_cast<unsigned long long>(b->generation), total);
    }
    if (b && b->config.width > 0) {
        ImGui::SameLine();
        ImGui::TextColored(kDimColor, " grid %d x %d", b->config.width, b->config.height);
    }

    if (ImGui::CollapsingHeader("Stages", ImGuiTreeNodeFlags_DefaultOpen)) {
        TimelineInput in;
        in.bake = raw_bake_.get();
        in.desired = &desired_;
        in.volumes_changed = raw_bake_ && volumes_ != raw_bake_->volumes;
        in.mesh_pending = mesh_pending_;
        in.busy = worker_.busy();
        in.building = worker_.building_stage();
        in.target = run_to_;
        ui_bake_status(true);
        ImGui::PushID("timeline");
        timeline_.panel(in, run_to_);
        ImGui::PopID();
        if (raw_bake_ && raw_bake_->tiled()) {
            const TileTimes tt = tile_times(*raw_bake_);
            if (tt.count > 0) {
                ImGui::Text("per tile (%d / %d tiles):", tt.count, raw_bake_->layout.count());
                ImGui::Text("  min %.2f  median %.2f  max %.2f ms", tt.min_ms, tt.median_ms, tt.max_ms);
                ImGui::TextColored(kDimColor, "slowest tile %d,%d; sum of tile times %.1f ms", tt.slowest.first,
                                   tt.slowest.second, tt.sum_ms);
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("Each tile's wall time for the stages it ran in its last bake; tiles bake in\n"
                                      "parallel (threads), so the sum exceeds the bake's wall time.");
            }
        }
    }
    if (ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("timings");
        timings_.panel(raw_bake_.get());
        ImGui::PopID();
    }

    {
        int t = static_cast<int>(tool_);
        ImGui::TextUnformatted("Click:");
        ImGui::SameLine();
        ImGui::RadioButton("path", &t, static_cast<int>(Tool::Path));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Left click sets the path end, Shift+click the start.");
        ImGui::SameLine();
        ImGui::RadioButton("inspect", &t, static_cast<int>(Tool::Inspect));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Left click pins the element under the cursor in the inspector.");
        ImGui::SameLine();
        ImGui::RadioButton("prune", &t, static_cast<int>(Tool::Prune));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Left click keeps only the navmesh reachable from there; the rest is disabled.");
        ImGui::TextUnformatted("      ");
        ImGui::SameLine();
        ImGui::RadioButton("clip to floor", &t, static_cast<int>(Tool::ClipFloor));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Clip to this floor: left click on a floor keeps only the heights from %.1f m below it\n"
                              "to %.1f m above it (Layers panel, See inside).", kFloorClipBelow, kFloorClipAbove);
        ImGui::SameLine();
        ImGui::RadioButton("section", &t, static_cast<int>(Tool::Section));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Left click puts a section plane through the surface there, facing you: what is in\n"
                              "front of it is cut away. Drag up / down to move it away / closer.");
        ImGui::TextUnformatted("      ");
        ImGui::SameLine();
        ImGui::RadioButton("tile", &t, static_cast<int>(Tool::Tile));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Tiled bakes: left click selects the tile under the cursor (Tile panel).");
        tool_ = static_cast<Tool>(t);
    }
    if (raw_bake_ && raw_bake_->tiled() &&
        ImGui::CollapsingHeader("Tile", sel_tile_ ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
        ImGui::PushID("tile");
        ui_tile_panel();
        ImGui::PopID();
    }
    if (ImGui::CollapsingHeader("Inspector", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("inspector");
        inspector_.panel();
        ImGui::PopID();
    }
    // open while a prune is set or the islands layer is shown, until the user folds it
    const bool islands_open = islands_.pruned() || opts_.layers[static_cast<size_t>(r::Layer::Islands)];
    if (ImGui::CollapsingHeader("Islands", islands_open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
        ImGui::PushID("islands");
        islands_.panel(bake_.get(), prune_.get());
        ImGui::PopID();
    }
    if (ImGui::CollapsingHeader("Path", ImGuiTreeNodeFlags_DefaultOpen)) {
        ImGui::PushID("pathtool");
        path_.ui();
        if (path_.mode() == PathTool::Mode::Path) optimal_.ui();
        ImGui::PopID();
    }

    ImGui::Separator();
    ImGui::Text("Log");
    ImGui::SameLine(ImGui::GetContentRegionAvail().x - 40.0f);
    if (ImGui::SmallButton("clear")) log_lines_.clear();
    const size_t before = log_lines_.size();
    log_.fetch(log_seen_, log_lines_);
    if (log_lines_.size() != before) log_scroll_ = true;
    // the rest of the panel, never less than ten lines: the panel scrolls instead of squeezing it
    const float log_h = std::max(ImGui::GetContentRegionAvail().y, 10.0f * ImGui::GetTextLineHeightWithSpacing());
    ImGui::BeginChild("log", ImVec2(0, log_h), true, ImGuiWindowFlags_HorizontalScrollbar);
    for (const LogLine& l : log_lines_) {
        ImGui::TextColored(kDimColor, "%s", l.stamp.c_str() + 3);  // mm:ss.mmm keeps the panel narrow
        ImGui::SameLine();
        const ImVec4 c = l.level == LogLevel::Error ? kErrorColor
                         : l.level == LogLevel::Warn ? kWarnColor
                                                     : ImGui::GetStyleColorVec4(ImGuiCol_Text);
        ImGui::PushStyleColor(ImGuiCol_Text, c);
        ImGui::TextWrapped("%s", l.text.c_str());
        ImGui::PopStyleColor();
    }
    if (log_scroll_) {
        ImGui::SetScrollHereY(1.0f);
        log_scroll_ = false;
    }
    ImGui::EndChild();
    ImGui::End();
}

void App::ui_overlays(float W, float H) {
    ImDrawList* fg = ImGui::GetForegroundDrawList();
    // error banner across the top of the 3D view
    if (!banner_.empty()) {
        const float bw = std::min(view_.w - 24.0f, 620.0f);
        ImGui::SetNextWindowPos(ImVec2(view_.x + view_.w * 0.5f, 12.0f), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
        ImGui::SetNextWindowSize(ImVec2(bw, 0.0f), ImGuiCond_Always);
        ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.55f, 0.08f, 0.08f, 0.94f));
        ImGui::PushStyleColor(ImGuiCol_Border, ImVec4(1.0f, 0.4f, 0.4f, 1.0f));
        ImGui::Begin("##error", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize |
                         ImGuiWindowFlags_NoSavedSettings);
        ImGui::PushTextWrapPos(bw - 70.0f);
        ImGui::TextUnformatted(banner_.c_str());
        ImGui::PopTextWrapPos();
        ImGui::SameLine(bw - 54.0f);
        if (ImGui::Button("close")) banner_.clear();
        ImGui::End();
        ImGui::PopStyleColor(2);
    }
    // what the worker is doing, and whether the view is stale, across the top of the view
    if (worker_.busy() || view_stale() || layers_.uploading()) {
        ImGui::SetNextWindowPos(ImVec2(view_.x + view_.w * 0.5f, banner_.empty() ? 12.0f : 96.0f), ImGuiCond_Always,
                                ImVec2(0.5f, 0.0f));
        ImGui::SetNextWindowSizeConstraints(ImVec2(0.0f, 0.0f), ImVec2(std::max(view_.w - 24.0f, 100.0f), 400.0f));
        const bool stale = view_stale();
        ImGui::PushStyleColor(ImGuiCol_WindowBg, stale ? ImVec4(0.30f, 0.22f, 0.02f, 0.92f) : ImVec4(0.05f, 0.07f, 0.10f, 0.88f));
        ImGui::PushStyleColor(ImGuiCol_Border, stale ? kWarnColor : ImVec4(0.4f, 0.45f, 0.55f, 1.0f));
        ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 2.0f);
        ImGui::Begin("##bake_status", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize |
                         ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing);
        ui_bake_status(false);
        ImGui::End();
        ImGui::PopStyleVar();
        ImGui::PopStyleColor(2);
    }
    tile_labels(fg, W, H);
    // the level of detail, when it applies, in the view's top-left corner
    if (const std::string lod = lod_text(true); !lod.empty() && bake_ && bake_->mesh) {
        const ImVec2 at(view_.x + 10.0f, 10.0f);
        const float wrap = std::max(view_.w - 28.0f, 120.0f);
        const ImVec2 sz = ImGui::CalcTextSize(lod.c_str(), nullptr, false, wrap);
        fg->AddRectFilled(ImVec2(at.x - 4.0f, at.y - 2.0f), ImVec2(at.x + sz.x + 4.0f, at.y + sz.y + 2.0f), IM_COL32(30, 24, 4, 210), 3.0f);
        fg->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at, ImGui::GetColorU32(kWarnColor), lod.c_str(), nullptr, wrap);
    }
    // hover inspection tooltip
    if (!node_tip_.empty()) {
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(node_tip_.c_str());
        ImGui::EndTooltip();
    } else {
        inspector_.tooltip();
    }
    // orbit pivot marker
    if (drag_ == Drag::Orbit || drag_ == Drag::Pan) {
        const glm::vec4 c = view_proj_ * glm::vec4(pivot_, 1.0f);
        if (c.w > 0) {
            const ImVec2 p((c.x / c.w * 0.5f + 0.5f) * W, (0.5f - c.y / c.w * 0.5f) * H);
            fg->AddCircle(p, 7.0f, IM_COL32(255, 230, 80, 255), 16, 2.0f);
            fg->AddCircleFilled(p, 2.5f, IM_COL32(255, 230, 80, 255));
        }
    }
    // controls help at the bottom of the view: the camera, then what a left click does with the
    // chosen tool; two lines when one does not fit between the panels
    const bool have = bake_ && bake_->mesh;
    const std::string camera = "RMB look  WASD QE fly  MMB/Alt+LMB orbit  Shift+MMB pan  wheel dolly  F frame  Tab panels";
    const std::string click = tool_ == Tool::Inspect ? "LMB pin the element under the cursor"
                              : tool_ == Tool::Prune ? "LMB keep only the island under the cursor"
                              : tool_ == Tool::ClipFloor ? "LMB clip to the floor under the cursor"
                              : tool_ == Tool::Section ? "LMB section plane here  drag up/down to move it"
                              : tool_ == Tool::Tile ? "LMB select the tile under the cursor"
                                                     : "LMB path end  Shift+LMB start  drag markers";
    std::vector<std::string> lines;
    if (!have) {
        lines = {"Open a mesh: type a path and press Open, or drop an .obj on the window"};
    } else {
        // as many "  "-separated items per line as fit between the panels
        const std::string all = camera + "  " + click;
        size_t at = 0;
        std::string line;
        while (at <= all.size()) {
            size_t next = all.find("  ", at);
            if (next == std::string::npos) next = all.size();
            const std::string item = all.substr(at, next - at);
            const std::string joined = line.empty() ? item : line + "  " + item;
            if (!line.empty() && ImGui::CalcTextSize(joined.c_str()).x + 24.0f > view_.w) {
                lines.push_back(line);
                line = item;
            } else {
                line = joined;
            }
            at = next + 2;
        }
        if (!line.empty()) lines.push_back(line);
    }
    float y = H - 10.0f;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
        const ImVec2 ts = ImGui::CalcTextSize(it->c_str());
        y -= ts.y + 8.0f;
        const ImVec2 pos(view_.x + std::max((view_.w - ts.x) * 0.5f, 8.0f), y);
        fg->AddRectFilled(ImVec2(pos.x - 8, pos.y - 4), ImVec2(pos.x + ts.x + 8, pos.y + ts.y + 4), IM_COL32(0, 0, 0, 120), 4.0f);
        fg->AddText(pos, IM_COL32(220, 224, 232, 230), it->c_str());
    }
}

void App::render_scene(int fb_w, int fb_h) {
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.165f, 0.180f, 0.215f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

    // while the region replay is shown it replaces the regions layer
    r::LayerMask shown = opts_.layers;
    if (replay_.active()) shown[static_cast<size_t>(r::Layer::Regions)] = false;
    worker_.set_layers(shown);
    layers_.update(draw_bake_, shown, raw_layers_.get(), layer_upload_budget_ms_);

    if (bake_ && bake_->mesh != ground_mesh_) {
        ground_mesh_ = bake_->mesh;
        ground_cpu_.clear();
        if (ground_mesh_) r::build_ground(ground_mesh_->bmin, ground_mesh_->bmax, ground_cpu_);
        ground_gpu_.upload(ground_cpu_);
    }
    overlay_cpu_.clear();
    overlay_cpu_.line_width = 2.5f;
    overlay_cpu_.point_size = 9.0f;
    overlay_cpu_.depth_test = false;
    inspector_.draw_overlay(overlay_cpu_);
    tile_overlay(overlay_cpu_);
    overlay_gpu_.upload(overlay_cpu_);

    r::FrameParams fp{};
    const float* m = &view_proj_[0][0];
    std::copy(m, m + 16, fp.view_proj);
    fp.eye[0] = cam_.eye.x;
    fp.eye[1] = cam_.eye.y;
    fp.eye[2] = cam_.eye.z;
    fp.light_dir[0] = 0.35f;
    fp.light_dir[1] = 0.85f;
    fp.light_dir[2] = 0.40f;
    fp.viewport_w = fb_w;
    fp.viewport_h = fb_h;
    fp.cut = view_cut();
    draw_opts_.cull_input = see_.cull;
    draw_opts_.hide_ceilings = see_.hide_ceilings;
    // under the change highlight the layers turn grey: its colours then mean "changed", never a region
    draw_opts_.grey_base = highlight_changes_ && highlight_ && !highlight_->overlay.empty();
    renderer_.begin(fp);
    if (show_ground_) {
        // The grid lies under everything: clearing depth after it keeps its lines (which carry a
        // depth bias towards the viewer) from showing through floors at the bottom of the bounds.
        renderer_.draw(ground_gpu_);
        glClear(GL_DEPTH_BUFFER_BIT);
    }
    layers_.draw(renderer_, shown, draw_opts_);
    map2d_.draw(renderer_);
    if (diff_upload_) {
        diff_gpu_.upload(highlight_ ? highlight_->overlay : r::DrawList{});
        diff_upload_ = false;
    }
    if (highlight_changes_ && highlight_ && !diff_gpu_.empty()) {
        // on top of the stack of visible layers
        float top = 0.0f;
        for (float v : draw_opts_.lifts(shown)) top = std::max(top, v);
        r::DrawStyle st = renderer_.style();
        st.lift = top;
        st.xray = draw_opts_.xray;
        renderer_.set_style(st);
        renderer_.draw(diff_gpu_);
        renderer_.set_style(r::DrawStyle{});
    }
    if (replay_.active()) replay_.draw(renderer_, bake_);
    if (path_on()) {
        path_.update(bake_ ? bake_->navmesh : nullptr);
        path_.draw(renderer_);
        optimal_.update(bake_ && path_.mode() == PathTool::Mode::Path ? bake_->navmesh : nullptr, path_.has_start(),
                        path_.start(), path_.has_end(), path_.end());
        optimal_.draw(renderer_);
    }
    renderer_.draw(overlay_gpu_);
    renderer_.end();
}

// ---- tiles ----------------------------------------------------------------------------------

void App::update_focus() {
    // where the view looks: the centre ray met with the level's mid height, else the eye
    const nav::InputMesh* mesh = bake_ && bake_->mesh ? bake_->mesh.get() : nullptr;
    if (!mesh) return;
    const float y = 0.5f * (mesh->bmin[1] + mesh->bmax[1]);
    const glm::vec3 f = cam_.forward();
    glm::vec3 p = cam_.eye;
    if (std::fabs(f.y) > 1e-3f) {
        const float t = (y - cam_.eye.y) / f.y;
        if (t > 0.0f) p = cam_.eye + f * t;
    }
    p.x = std::clamp(p.x, mesh->bmin[0], mesh->bmax[0]);
    p.z = std::clamp(p.z, mesh->bmin[2], mesh->bmax[2]);
    worker_.set_focus(p.x, p.z);
}

void App::ui_tile_panel() {
    const nav::Bake& b = *raw_bake_;
    const int idx = sel_tile_ ? tile_index(b, *sel_tile_) : -1;
    if (ImGui::Checkbox("only selected tile", &tile_only_) && tile_only_ && idx < 0)
        log_.warn("only selected tile: select a tile first (Click: tile)");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Draw every per-grid layer (voxels .. detail) for the selected tile only, on its\n"
                          "bordered grid; the input, navmesh, islands and tiles layers stay whole.");
    if (idx < 0) {
        ImGui::TextWrapped(sel_tile_ ? "The selected tile is outside this bake's %d x %d tiles."
                                     : "No tile selected: choose Click: tile and click the level (%d x %d tiles).",
                           b.layout.cols, b.layout.rows);
        return;
    }
    const nav::TileBake* t = b.tiles[static_cast<size_t>(idx)].get();
    ImGui::Text("tile %d,%d  (index %d of %d x %d)", sel_tile_->first, sel_tile_->second, idx, b.layout.cols, b.layout.rows);
    float box[4];
    nav::tile_box(b.config, b.layout, sel_tile_->first, sel_tile_->second, box);
    ImGui::TextColored(kDimColor, "box x %.1f..%.1f  z %.1f..%.1f m, border %d cells", box[0], box[2], box[1], box[3],
                       b.layout.border);
    const bool busy = worker_.busy();
    if (ImGui::Button("Rebuild tile")) {
        worker_.rebuild_tile(*sel_tile_);
        log_.info("rebuilding tile " + std::to_string(sel_tile_->first) + "," + std::to_string(sel_tile_->second));
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Re-bake this tile alone, every stage from rasterize on.");
    if (!t) {
        ImGui::TextColored(kWarnColor, "%s", busy ? "not baked yet (baking)" : "not baked");
        return;
    }
    ImGui::SameLine();
    ImGui::Text("last bake %.2f ms", t->ms);
    ImGui::Text("spans %lld  regions %lld  polys %lld", static_cast<long long>(t->count("solid_spans")),
                static_cast<long long>(t->count("regions")), static_cast<long long>(t->count("polys")));
    ImGui::TextColored(kDimColor, "compact spans %lld  contours %lld  detail tris %lld",
                       static_cast<long long>(t->count("compact_spans")), static_cast<long long>(t->count("contours")),
                       static_cast<long long>(t->count("detail_tris")));
    if (b.error_tile == idx) ImGui::TextColored(kErrorColor, "this tile failed: %s", b.error.message.c_str());
    if (ImGui::BeginTable("tile_stages", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
        for (int s = static_cast<int>(nav::Stage::Rasterize); s <= static_cast<int>(nav::kLastStage); ++s) {
            const nav::StageStats& st = t->stats[static_cast<size_t>(s)];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(std::string(nav::kStageNames[static_cast<size_t>(s)]).c_str());
            ImGui::TableNextColumn();
            if (st.built) ImGui::Text("%.2f ms", st.ms);
            else ImGui::TextColored(kDimColor, "-");
        }
        ImGui::EndTable();
    }
}

void App::tile_overlay(r::DrawList& out) const {
    if (!sel_tile_ || !bake_ || !bake_->tiled()) return;
    const nav::Bake& b = *bake_;
    if (tile_index(b, *sel_tile_) < 0) return;
    const nav::BakeConfig& c = b.config;
    const float y0 = c.bmin[1], y1 = c.bmax[1] + 0.02f * std::max(1.0f, c.bmax[1] - c.bmin[1]);
    auto rect = [&](float x0, float z0, float x1, float z1, float y, uint32_t col) {
        out.add_line(x0, y, z0, x1, y, z0, col);
        out.add_line(x1, y, z0, x1, y, z1, col);
        out.add_line(x1, y, z1, x0, y, z1, col);
        out.add_line(x0, y, z1, x0, y, z0, col);
    };
    float box[4];
    nav::tile_box(c, b.layout, sel_tile_->first, sel_tile_->second, box);
    const uint32_t own = r::rgba(255, 200, 40), border = r::rgba(255, 200, 40, 120);
    // the tile's own box (top, bottom and the corners between) and its bordered box at the top
    rect(box[0], box[1], box[2], box[3], y1, own);
    rect(box[0], box[1], box[2], box[3], y0, own);
    for (const float x : {box[0], box[2]})
        for (const float z : {box[1], box[3]}) out.add_line(x, y0, z, x, y1, z, own);
    const nav::BakeConfig tc = nav::tile_config(c, b.layout, sel_tile_->first, sel_tile_->second);
    rect(tc.bmin[0], tc.bmin[2], tc.bmax[0], tc.bmax[2], y1, border);
}

void App::tile_labels(ImDrawList* fg, float W, float H) const {
    // tile ids over the tiles layer, where a tile is wide enough on screen to hold its label
    if (!opts_.layers[static_cast<size_t>(r::Layer::Tiles)] || !bake_ || !bake_->tiled()) return;
    const nav::Bake& b = *bake_;
    const nav::BakeConfig& c = b.config;
    const float y = c.bmax[1] + 0.02f * std::max(1.0f, c.bmax[1] - c.bmin[1]);
    auto screen = [&](float x, float z, ImVec2& p) {
        const glm::vec4 q = view_proj_ * glm::vec4(x, y, z, 1.0f);
        if (q.w <= 0.0f) return false;
        p = ImVec2((q.x / q.w * 0.5f + 0.5f) * W, (0.5f - q.y / q.w * 0.5f) * H);
        return true;
    };
    for (int tz = 0; tz < b.layout.rows; ++tz)
        for (int tx = 0; tx < b.layout.cols; ++tx) {
            float box[4];
            nav::tile_box(c, b.layout, tx, tz, box);
            ImVec2 a, e, m;
            if (!screen(box[0], box[1], a) || !screen(box[2], box[3], e) ||
                !screen(0.5f * (box[0] + box[2]), 0.5f * (box[1] + box[3]), m))
                continue;
            char id[24];
            std::snprintf(id, sizeof id, "%d,%d", tx, tz);
            const ImVec2 ts = ImGui::CalcTextSize(id);
            if (std::hypot(e.x - a.x, e.y - a.y) < 2.0f * ts.x || m.x < view_.x || m.x > view_.x + view_.w) continue;
            const bool sel = sel_tile_ && sel_tile_->first == tx && sel_tile_->second == tz;
            fg->AddText(ImVec2(m.x - ts.x * 0.5f + 1, m.y - ts.y * 0.5f + 1), IM_COL32(0, 0, 0, 200), id);
            fg->AddText(ImVec2(m.x - ts.x * 0.5f, m.y - ts.y * 0.5f), sel ? IM_COL32(255, 200, 40, 255) : IM_COL32(240, 240, 248, 230), id);
        }
}

}  // namespace navdebug
