#include "app.h"
#include "ui_common.h"
#include "assets_dir.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <variant>

#include "core/formats/config_json.h"
#include "core/explain/why.h"
#include "core/formats/level_import.h"
#include "core/io/file.h"
#include "render/links_draw.h"
#include "session.h"


namespace navdebug {

namespace r = nav::render;

namespace {

// std::visit over a panel's actions: one lambda per kind
template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};

bool ends_with_ci(const std::string& s, std::string_view suffix) {
    if (s.size() < suffix.size()) return false;
    for (size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i]) return false;
    return true;
}

}  // namespace

App::App(BakeWorker& worker, Log& log, const nav::BakeInputs& inputs, AppOptions opts)
    : worker_(worker), log_(log), opts_(std::move(opts)) {
    edit_.desired = inputs;
    edit_.mark_requested();
    worker_.init_layers(opts_.layers);  // the worker builds these layers' draw lists with its bakes
    panels_.mesh_field = opts_.mesh_path;
    if (opts_.keep_recent && !OpenDialog::config_dir().empty())
        panels_.open_dialog.set_recent_file(OpenDialog::config_dir() / "recent.txt");
    panels_.config_field = opts_.config_path;
    std::error_code ec;
    const std::filesystem::path assets = std::filesystem::path(assets_dir());
    for (const auto& e : std::filesystem::directory_iterator(assets, ec))
        if (e.is_regular_file())
            for (std::string_view ext : nav::level_extensions())
                if (ends_with_ci(e.path().string(), ext)) panels_.asset_files.push_back(e.path().string());
    std::sort(panels_.asset_files.begin(), panels_.asset_files.end());
    if (opts_.path) {
        sel_.path.set_start(opts_.path->first);
        sel_.path.set_end(opts_.path->second);
    }
    sel_.path.set_mode(opts_.path_mode);
    sel_.tool = static_cast<Selection::Tool>(opts_.tool);
    if (opts_.path_nodes) sel_.path.set_show_nodes(true);
    if (!opts_.agent_type.empty()) sel_.path.choose_agent_type(opts_.agent_type);
    sel_.path.set_on_top(opts_.path_on_top);
    if (opts_.funnel_step >= 0) sel_.path.set_funnel_step(opts_.funnel_step);
    if (!opts_.path_tests.empty()) {
        if (opts_.headless) sel_.path_tests.set_budget_ms(0.0);  // the frame saved shows every case evaluated
        sel_.path_tests.open_later(opts_.path_tests);  // read on the first frame, with the config's area table
    }
    if (opts_.camera) {
        view_.cam.look_at(opts_.camera->first, opts_.camera->second);
        view_.camera_placed = true;
    }
    if (opts_.stage) {
        edit_.run_to = *opts_.stage;
        edit_.requested_to = edit_.run_to;
    }
    if (opts_.select) {
        sel_.inspector.set_pin_point(*opts_.select);
        sel_.tool = Selection::Tool::Inspect;
    }
    if (opts_.prune) edit_.prune_at(*opts_.prune);
    edit_.requested.prune = edit_.desired.prune;  // main's first request carries it
    if (opts_.tile_select) {
        sel_.tile = opts_.tile_select;
        sel_.tool = Selection::Tool::Tile;
    }
    sel_.tile_only = opts_.tile_only && sel_.tile;
    if (opts_.why) {
        sel_.why.set_point(*opts_.why);
        sel_.tool = Selection::Tool::Why;
    }
    if (opts_.why_path) sel_.why.set_path(opts_.why_path->first, opts_.why_path->second);
    worker_.set_tile_only(sel_.tile_only ? sel_.tile : std::nullopt);
    if (!opts_.replay.empty()) {
        std::string err;
        if (!replay_.parse_flag(opts_.replay, err)) log_.error(err);
    }
    panels_.session_field = opts_.session_path;
    view_.show_ui = !opts_.hide_ui;
    view_.draw_opts = opts_.draw;
    view_.see = opts_.view;
    view_.highlight_changes = opts_.highlight_changes;
    // the worker computes the change highlight with its bakes
    worker_.set_highlight_changes(view_.highlight_changes);
    if (opts_.map2d) map2d_.set_scene(opts_.map2d);
    if (opts_.top_view) map2d_.set_top_view(true);
    map2d_.set_layers(opts_.map2d_layers);
    map2d_.set_wa_step(opts_.wa_step);
    map2d_.set_cdt_step(opts_.cdt_step);
    if (opts_.optimal) sel_.optimal.set_enabled(true);
    if (opts_.polyanya_step >= 0) sel_.optimal.set_search_step(opts_.polyanya_step);
}

bool App::init_gl(std::string& err) { return scene_.renderer.init(err); }

void App::set_error(std::string msg) { panels_.banner = std::move(msg); }

void App::open_mesh(const std::string& path, bool own_settings) {
    if (path.empty()) return;
    edit_.own_settings_for = own_settings && !edit_.keep_settings ? path : std::string();
    panels_.mesh_field = path;
    panels_.open_dialog.add_recent(path);
    if (opens_without_bake(path)) {  // built here at once: no bake stages to run
        auto scene = std::make_shared<Map2DScene>();
        if (const nav::Status st = load_map2d_scene(path, edit_.desired.params, *scene); !st) {
            log_.error(st.message);
            set_error(st.message);
            return;
        }
        log_.info("opened " + std::string(scene->detour ? "Detour navmesh " : scene->is_map ? "2D map " : "2D mesh ") + path + " (" +
                  std::to_string(scene->bake->navmesh->npolys) + " polygons)");
        panels_.banner.clear();
        // a session sets its own picks (load_session forgets the old ones before it sets them)
        if (own_settings) forget_level_picks();
        map2d_.set_scene(std::move(scene));
        return;
    }
    // a level the worker loads: its picks go with the request, and those made while it loads
    // (on the old level, still shown) when it has loaded
    if (own_settings) forget_level_picks();
    edit_.new_level = own_settings ? path : std::string();
    map2d_.clear_scene();
    pub_.mesh_pending = true;
    log_.info("opening " + path);
    worker_.request_mesh(path);
}

void App::forget_level_picks() {
    edit_.clear_prune();  // the prune point is a pick on the old level too, "keep settings" or not
    sel_.path.clear_points();
    sel_.inspector.clear_pin();
    sel_.why.clear();
    sel_.tile.reset();
    sel_.tile_only = false;
    sel_.node_tip.clear();
    sel_.volume.cancel();
    sel_.volume.select(-1);
    view_.see.clip.reset();
    view_.see.section.reset();
}

void App::load_config(const std::string& path) {
    if (path.empty()) return;
    nav::BakeInputs in;
    in.params = edit_.desired.params;
    in.areas = edit_.desired.areas;
    in.prune = edit_.desired.prune;  // kept unless the config has "prune"
    const nav::Status st = nav::load_config_file(path, in);
    if (!st) {
        log_.error(st.message);
        set_error(st.message);
        return;
    }
    set_areas(in.areas);
    edit_.desired = std::move(in);
    panels_.config_field = path;
    log_.info("loaded config " + path + " (" + std::to_string(edit_.desired.volumes.size()) + " volumes, " +
              std::to_string(edit_.desired.obstacles.size()) + " obstacles, " + std::to_string(edit_.desired.links.size()) + " links)");
    panels_.banner.clear();
}

void App::save_config(const std::string& path) {
    if (path.empty()) return;
    const nlohmann::ordered_json j = config_json(edit_.desired);
    if (const nav::Status st = nav::write_output_file(path, j.dump(2) + "\n"); !st) {
        log_.error("cannot write config " + st.message);
        set_error("cannot write config " + st.message);
        return;
    }
    panels_.config_field = path;
    log_.info("saved config " + path);
}

ExportJob App::export_job(ExportJob::Kind kind, const std::string& path) const {
    ExportJob job;
    job.kind = kind;
    job.bake = pub_.bake;
    job.map2d = map2d_.scene() != nullptr;
    job.path = path;
    return job;
}

uint64_t App::export_obj() { return worker_.request_export(export_job(ExportJob::Kind::Obj, {})); }

uint64_t App::save_navmesh(const std::string& path) {
    return worker_.request_export(export_job(ExportJob::Kind::Detour, path));
}

// The visible layers of the bake (input, regions, contours raw or simplified, polygon mesh,
// detail mesh) and the current path when the path layer is on.
uint64_t App::export_gltf(const std::string& path) {
    ExportJob job = export_job(ExportJob::Kind::Gltf, path);
    auto on = [this](r::Layer l) { return opts_.layers[static_cast<size_t>(l)]; };
    job.which.input = on(r::Layer::Input);
    job.which.regions = on(r::Layer::Regions);
    job.which.contours = on(r::Layer::Contours);
    job.which.raw_contours = on(r::Layer::RawContours);
    job.which.polymesh = on(r::Layer::Polymesh);
    job.which.detail = on(r::Layer::Detail);
    if (path_on()) job.route = sel_.path.path_points();
    return worker_.request_export(std::move(job));
}

void App::report_export(const ExportResult& r) {
    if (r.ok) {
        log_.info(r.text);
        return;
    }
    log_.error(r.text);
    set_error(r.text);
}

bool App::wait_export(uint64_t id) {
    worker_.wait_idle();
    bool ok = false;
    for (const ExportResult& r : worker_.take_exports()) {
        report_export(r);
        if (r.id == id) ok = r.ok;
    }
    return ok;
}

void App::set_areas(const nav::AreaTable& areas) {
    edit_.desired.areas = areas;
    areas_.edit = areas;
    areas_.error.clear();
    sel_.path.set_areas(areas);
    if (!(areas == nav::AreaTable::defaults())) areas_.open = true;
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
    // pub_.raw must also be the worker's latest: it is picked up by the frame after the publish
    return !worker_.busy() && worker_.latest() == pub_.raw && !edit_.unrequested() && !pub_.mesh_pending;
}

bool App::view_current() const {
    return !pub_.drawn || (!scene_.layers.uploading() && scene_.layers.generation() == pub_.drawn->generation && !cache_.deferred());
}

void App::on_new_bake(const std::shared_ptr<const nav::Bake>&, const std::shared_ptr<const nav::Bake>& next) {
    if (next->partial) return;  // tiles still filling in: timings count finished bakes
    panels_.timings.record(*next);
}

void App::poll_worker() {
    for (WorkerEvent& e : worker_.take_events()) {
        switch (e.kind) {
            case WorkerEvent::Kind::MeshLoaded:
                panels_.banner.clear();
                pub_.mesh_pending = false;
                if (!edit_.own_settings_for.empty() && edit_.own_settings_for == e.text) apply_own_settings(e.text);
                edit_.own_settings_for.clear();
                if (!edit_.new_level.empty() && edit_.new_level == e.text) forget_level_picks();
                edit_.new_level.clear();
                break;
            case WorkerEvent::Kind::MeshFailed:
                set_error(e.text);
                pub_.mesh_pending = false;
                break;
            case WorkerEvent::Kind::BakeFailed: set_error(e.text); break;
            case WorkerEvent::Kind::BakeDone: break;
        }
    }
    for (const ExportResult& r : worker_.take_exports()) report_export(r);
    worker_.set_region_trace(replay_.wants_trace());
    // the bake and the draw lists the worker built for it, taken together, and the change
    // highlight (a 2D map: its own bake, drawn from layers built here). The prune point is an input
    // of the pipeline (EditState::desired): the bake comes pruned.
    auto [latest, view, built, view_tile, highlight] = worker_.latest_published();
    if (map2d_.scene()) {
        // a 2D scene is built when opened, not by the worker: its bake with the prune is made by the
        // pipeline's prune (nav::prune_at) on the worker when the point changes
        pub_.take_scene_prune(worker_, map2d_.scene(), edit_.prune_point());
        latest = pub_.map2d, view = latest, built = nullptr, view_tile.reset(), highlight = pub_.highlight;
    } else {
        pub_.forget_scene();
    }
    if (latest) {
        pub_.layers = std::move(built);
        pub_.view = std::move(view);
        pub_.view_tile = view_tile;
    }
    if (latest && latest != pub_.raw) {
        on_new_bake(pub_.raw, latest);
        pub_.raw = std::move(latest);
    }
    // the change highlight the worker published (while the highlight is on): uploaded when it changes
    if (!view_.highlight_changes) highlight = nullptr;
    if (highlight != pub_.highlight) {
        pub_.highlight = std::move(highlight);
        scene_.diff_upload = true;
    }
    pub_.trim(edit_.run_to);
    // what the layers draw: the whole bake, or its "only selected tile" view (the worker's when it
    // is of this very bake and tile, so its draw lists fit)
    worker_.set_tile_only(sel_.tile_only ? sel_.tile : std::nullopt);
    pub_.pick_drawn(sel_.tile_only ? sel_.tile : std::nullopt);
    panels_.warnings.update(pub_.bake.get(), edit_.desired.params, log_);
    // the newest desired state goes to the worker whenever it differs from what was asked last
    if (edit_.unrequested()) {
        pub_.cancelled = false;
        worker_.request(edit_.desired, edit_.run_to);
        edit_.mark_requested();
    }
}

void App::frame(GLFWwindow* window, float W, float H, float dt) {
    const PanelContext ui = panel_context();
    view_.win_w = W;
    view_.win_h = H;
    poll_worker();
    place_cli_volumes();
    if (sel_.tool != Selection::Tool::Volume) sel_.volume.cancel();  // points are the tool's, while it is on
    if (!ImGui::IsAnyItemActive()) sel_.volume.end_point_edit();       // the panel's point field let go
    update_why();
    progress_.track(worker_, scene_.layers.uploading());
    update_path_tests(sel_, opts_.layers, opts_.path_test, pub_.bake ? pub_.bake->navmesh : nullptr, edit_.desired.areas, log_);
    if (pub_.bake) sel_.path.set_agent_types(pub_.bake->inputs.agent_types);
    sel_.path.update(pub_.bake ? pub_.bake->navmesh : nullptr);
    sel_.optimal.update(pub_.bake && sel_.path.mode() == PathTool::Mode::Path ? pub_.bake->navmesh : nullptr, sel_.path.has_start(),
                    sel_.path.start(), sel_.path.has_end(), sel_.path.end());
    // A running bake needs no frames of its own: the worker wakes the loop when it publishes, and
    // the status line's timers tick with the loop's idle wait (0.25 s). A loop spinning frames
    // through a bake took the cores the bake runs on (software GL draws on every core): the app's
    // stage times were 10x navbake's. Without the view's framebuffer, as before. The new layers'
    // upload goes on frame after frame.
    view_.animating = (worker_.busy() && !cache_.on) || scene_.layers.uploading();

    if (view_.show_ui) {
        apply(left_panel(ui, H));
        apply(right_panel(ui, W, H));
    }
    view_.rect = {panels_.left_w, 0.0f, std::max(W - panels_.left_w - panels_.right_w, 64.0f), H};
    if (view_.show_ui) apply(why_window(ui, W, H));

    const nav::InputMesh* mesh = pub_.bake && pub_.bake->mesh ? pub_.bake->mesh.get() : nullptr;
    if (mesh && pub_.bake->mesh != view_.framed_mesh) {
        const glm::vec3 bmin(mesh->bmin[0], mesh->bmin[1], mesh->bmin[2]);
        const glm::vec3 bmax(mesh->bmax[0], mesh->bmax[1], mesh->bmax[2]);
        glm::vec3 wmin = bmin, wmax = bmax;  // the walkable part, framed by default
        ViewState::walkable_bounds(*mesh, pub_.bake->tri_areas.get(), wmin, wmax);
        if (view_.camera_placed && !view_.framed_mesh) view_.cam.set_scene_scale(glm::length(bmax - bmin));  // keep --camera
        else view_.cam.frame_default(wmin, wmax, view_.rect);
        view_.framed_mesh = pub_.bake->mesh;
        view_.camera_placed = true;
    }

    // 2D mode: the orthographic top view over the mesh bounds
    auto projection = [&] {
        if (map2d_.top_view() && mesh)
            return map2d_.view_proj(view_.cam, glm::vec3(mesh->bmin[0], mesh->bmin[1], mesh->bmin[2]),
                                    glm::vec3(mesh->bmax[0], mesh->bmax[1], mesh->bmax[2]), view_.rect, W, H);
        return view_.cam.projection(view_.rect, W, H) * view_.cam.view();
    };
    view_.view_proj = projection();
    if (!opts_.headless) {
        handle_camera_input(window, W, H, dt);
        view_.view_proj = projection();
        update_hover(W, H);
    } else {
        sel_.inspector.update(pub_.drawn, opts_.layers, nullptr, false);
    }
    update_focus();
    if (!opts_.headless) handle_shortcuts();
    undo_keys_and_commit();
    view_overlays(ui, W, H);
    if (show_shortcuts_) ui_shortcuts_overlay(W, H);
}

PanelContext App::panel_context() {
    return {.view = view_, .edit = edit_, .areas = areas_, .sel = sel_, .panels = panels_, .pub = pub_, .progress = progress_,
            .scene = scene_, .cache = cache_, .replay = replay_, .map2d = map2d_, .worker = worker_, .log = log_,
            .layers = opts_.layers, .headless = opts_.headless};
}

void App::apply(const PanelActions& asked) {
    for (const PanelAction& a : asked)
        std::visit(Overloaded{[&](const ask::OpenMesh& x) { open_mesh(x.path); },
                              [&](const ask::LoadConfig& x) { load_config(x.path); },
                              [&](const ask::SaveConfig& x) { save_config(x.path); },
                              [&](const ask::LoadSession& x) { load_session(x.path); },
                              [&](const ask::SaveSession& x) {
                                  std::string err;
                                  if (save_session(x.path, err)) {
                                      log_.info("saved session " + x.path);
                                  } else {
                                      log_.error(err);
                                      set_error(err);
                                  }
                              },
                              [&](const ask::ExportObj&) { export_obj(); },
                              [&](const ask::SaveNavmesh&) { save_navmesh(); },
                              [&](const ask::ExportGltf&) { export_gltf(); },
                              [&](const ask::Undo&) { apply_edit(edit_.undo.undo(), "undo"); },
                              [&](const ask::Redo&) { apply_edit(edit_.undo.redo(), "redo"); },
                              [&](const ask::SetAreas& x) { set_areas(x.areas); },
                              [&](const ask::ShowStage& x) { show_stage(x.stage); },
                              [&](const ask::ApplyFix& x) { apply_fix(x.fix); }},
                   a);
}

void App::apply_own_settings(const std::string& mesh_path) {
    const std::string cfg = std::filesystem::path(mesh_path).replace_extension(".json").string();
    nav::BakeInputs in;
    std::error_code ec;
    if (std::filesystem::exists(cfg, ec) && nav::load_config_file(cfg, in)) {
        panels_.config_field = cfg;
        log_.info("settings of " + mesh_path + " from " + cfg + " (" + std::to_string(in.volumes.size()) + " volumes)");
    } else {
        in = nav::BakeInputs{};
        panels_.config_field.clear();
        log_.info("default settings for " + mesh_path + " (no " + cfg + "; Files: keep settings carries them over)");
    }
    set_areas(in.areas);
    edit_.desired = std::move(in);  // the prune point too: the level's own config's, else none
    edit_.undo.reset(edit_.snapshot());  // a new mesh starts a new history
}

void App::apply_edit(const EditSnapshot& st, const char* what) {
    edit_.restore(st);
    log_.info(std::string(what) + ": " + std::to_string(edit_.undo.undo_steps()) + " more to undo, " +
              std::to_string(edit_.undo.redo_steps()) + " to redo");
}

void App::undo_keys_and_commit() {
    // Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y are in the shortcut table (handle_shortcuts)
    // an edit is one step once it has settled: no slider or field held, no button down
    if (!ImGui::IsAnyItemActive() && !ImGui::IsMouseDown(ImGuiMouseButton_Left)) edit_.undo.commit(edit_.snapshot());
}

void App::build_overlays() {
    scene_.overlay_cpu.clear();
    scene_.overlay_cpu.line_width = 2.5f;
    scene_.overlay_cpu.point_size = 9.0f;
    scene_.overlay_cpu.depth_test = false;
    sel_.inspector.draw_overlay(scene_.overlay_cpu);
    tile_overlay(scene_.overlay_cpu);
    sel_.obstacle.clamp(edit_.desired.obstacles);
    if (!map2d_.scene())
        draw_obstacles(edit_.desired.obstacles, sel_.tool == Selection::Tool::Obstacle ? sel_.obstacle.selected() : -1,
                       edit_.desired.params.f(nav::ParamId::agent_radius), scene_.overlay_cpu);
    // the volumes while their tool is on (the areas layer and the navmesh show what they stamp)
    sel_.volume.clamp(edit_.desired.volumes);
    if (!map2d_.scene() && sel_.tool == Selection::Tool::Volume) {
        const nav::render::AreaColors area_rgb(edit_.desired.areas);
        draw_volumes(edit_.desired.volumes, sel_.volume.selected(), area_rgb, scene_.overlay_cpu);
        draw_volume_points(sel_.volume.points(), sel_.volume.area(), area_rgb, volume_close_radius(), scene_.overlay_cpu);
        if (sel_.volume.selected() >= 0)
            draw_volume_handles(edit_.desired.volumes[static_cast<size_t>(sel_.volume.selected())], sel_.volume.dragged_point(), scene_.overlay_cpu);
    }
    // the manual links: while the link tool is on or the links layer is shown (the automatic ones
    // are the layer's), the selected one white; a half-placed link's start as a point
    sel_.link.clamp(edit_.desired.links);
    const bool link_tool = sel_.tool == Selection::Tool::Link;
    if (!map2d_.scene() && (link_tool || opts_.layers[static_cast<size_t>(r::Layer::Links)])) {
        r::build_manual_links(edit_.desired.links, link_tool ? sel_.link.selected() : -1, scene_.overlay_cpu, scene_.overlay_cpu);
        if (link_tool && sel_.link.pending()) scene_.overlay_cpu.add_point(sel_.link.pending()->data(), r::colors::kLinkManual);
    }
    scene_.why_bold_cpu.clear();
    scene_.why_bold_cpu.line_width = 5.0f;
    scene_.why_bold_cpu.point_size = 15.0f;
    scene_.why_bold_cpu.depth_test = false;
    if (!map2d_.scene()) sel_.why.draw_overlay(scene_.overlay_cpu, scene_.why_bold_cpu);
}

void App::render_scene(int fb_w, int fb_h) {
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.165f, 0.180f, 0.215f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

    // while the region replay is shown it replaces the regions layer
    r::LayerMask shown = opts_.layers;
    if (replay_.active()) shown[static_cast<size_t>(r::Layer::Regions)] = false;
    worker_.set_layers(shown);
    scene_.layers.update(pub_.drawn, shown, pub_.layers.get(), frame_upload_budget());

    if (pub_.bake) scene_.update_ground(pub_.bake->mesh);
    build_overlays();
    scene_.upload_overlays();

    r::FrameParams fp{};
    const float* m = &view_.view_proj[0][0];
    std::copy(m, m + 16, fp.view_proj);
    fp.eye[0] = view_.cam.eye.x;
    fp.eye[1] = view_.cam.eye.y;
    fp.eye[2] = view_.cam.eye.z;
    fp.light_dir[0] = 0.35f;
    fp.light_dir[1] = 0.85f;
    fp.light_dir[2] = 0.40f;
    fp.viewport_w = fb_w;
    fp.viewport_h = fb_h;
    view_.update_floors(pub_.bake ? pub_.bake->navmesh : nullptr, pub_.bake && pub_.bake->mesh ? pub_.bake->mesh.get() : nullptr);
    fp.cut = view_.view_cut(pub_.bake && pub_.bake->mesh ? pub_.bake->mesh.get() : nullptr);
    view_.draw_opts.cull_input = view_.see.cull;
    view_.draw_opts.hide_ceilings = view_.see.hide_ceilings;
    // under the change highlight the layers turn grey: its colours then mean "changed", never a region
    view_.draw_opts.grey_base = view_.highlight_changes && pub_.highlight && !pub_.highlight->overlay.empty();
    scene_.renderer.begin(fp);
    if (view_.show_ground) scene_.draw_ground();  // under everything
    scene_.layers.draw(scene_.renderer, shown, view_.draw_opts);
    map2d_.draw(scene_.renderer);
    // the change highlight on top of the stack of visible layers
    float top = 0.0f;
    for (float v : view_.draw_opts.lifts(shown)) top = std::max(top, v);
    scene_.draw_highlight(pub_.highlight.get(), view_.highlight_changes, top, view_.draw_opts.xray);
    if (replay_.active()) replay_.draw(scene_.renderer, pub_.bake);
    if (path_on()) {
        sel_.path.update(pub_.bake ? pub_.bake->navmesh : nullptr);
        sel_.path.draw(scene_.renderer);
        sel_.optimal.update(pub_.bake && sel_.path.mode() == PathTool::Mode::Path ? pub_.bake->navmesh : nullptr, sel_.path.has_start(),
                        sel_.path.start(), sel_.path.has_end(), sel_.path.end());
        sel_.optimal.draw(scene_.renderer);
    }
    scene_.draw_overlays();
    scene_.renderer.end();
}

// ---- the Why tool ---------------------------------------------------------------------------

void App::update_why() {
    sel_.why.take(worker_.latest_why());
    if (map2d_.scene()) return;  // 2D maps have no bake stages to explain
    // the worker's bake as published (pruned by the pipeline, the Islands prune point), not trimmed
    const bool idle = !worker_.busy() && !worker_.why_running();
    if (std::optional<WhyJob> job = sel_.why.update(pub_.raw, idle)) worker_.request_why(std::move(*job));
    for (const std::string& m : sel_.why.take_messages()) log_.info(m);
}

void App::show_stage(nav::Stage stage) {
    // the stage driver there (later results are hidden, not dropped: Next shows them again) and
    // that stage's layers drawn instead of the other stages'
    edit_.run_to = stage;
    for (int i = 0; i < r::kLayerCount; ++i) {
        const auto l = static_cast<r::Layer>(i);
        if (l == r::Layer::Path || l == r::Layer::Tiles || (l == r::Layer::Input && stage != nav::Stage::Input)) continue;
        opts_.layers[static_cast<size_t>(i)] = r::kLayerStages[static_cast<size_t>(i)] == stage;
    }
    log_.info("why: showing the " + std::string(nav::stage_name(stage)) + " stage");
}

void App::apply_fix(const nav::WhyFix& fix) {
    const std::string text = fix.text;
    // The fix was verified on the bake shown: applied over other edits made since, it would be
    // another change than the one verified (and a volume index would name another volume).
    const bool same = fix.remove_volume >= 0 ? pub_.bake && edit_.desired.volumes == pub_.bake->inputs.volumes
                                             : fix.param && edit_.desired.params.get(*fix.param) == fix.from;
    if (!same) {
        log_.warn("why: not applied: the parameters or volumes changed since " + text +
                  " was verified; click the point again");
        return;
    }
    edit_.undo.commit(edit_.snapshot());  // the state before it, if not recorded yet
    nav::apply_why_fix(fix, edit_.desired.params, edit_.desired.volumes);
    edit_.undo.commit(edit_.snapshot());  // one step: Ctrl+Z undoes the whole fix
    edit_.run_to = nav::kLastStage;       // the fix shows on the whole bake
    log_.info("why: applied " + text + " (Ctrl+Z undoes it)");
}

// ---- tiles ----------------------------------------------------------------------------------

void App::update_focus() {
    // where the view looks: the centre ray met with the level's mid height, else the eye
    const nav::InputMesh* mesh = pub_.bake && pub_.bake->mesh ? pub_.bake->mesh.get() : nullptr;
    if (!mesh) return;
    const float y = 0.5f * (mesh->bmin[1] + mesh->bmax[1]);
    const glm::vec3 f = view_.cam.forward();
    glm::vec3 p = view_.cam.eye;
    if (std::fabs(f.y) > 1e-3f) {
        const float t = (y - view_.cam.eye.y) / f.y;
        if (t > 0.0f) p = view_.cam.eye + f * t;
    }
    p.x = std::clamp(p.x, mesh->bmin[0], mesh->bmax[0]);
    p.z = std::clamp(p.z, mesh->bmin[2], mesh->bmax[2]);
    worker_.set_focus(p.x, p.z);
}

void App::tile_overlay(r::DrawList& out) const {
    if (!sel_.tile || !pub_.bake || !pub_.bake->tiled()) return;
    const nav::Bake& b = *pub_.bake;
    if (tile_index(b, *sel_.tile) < 0) return;
    const nav::BakeConfig& c = b.config;
    const float y0 = c.bmin[1], y1 = c.bmax[1] + 0.02f * std::max(1.0f, c.bmax[1] - c.bmin[1]);
    auto rect = [&](float x0, float z0, float x1, float z1, float y, uint32_t col) {
        out.add_line(x0, y, z0, x1, y, z0, col);
        out.add_line(x1, y, z0, x1, y, z1, col);
        out.add_line(x1, y, z1, x0, y, z1, col);
        out.add_line(x0, y, z1, x0, y, z0, col);
    };
    float box[4];
    nav::tile_box(c, b.layout, sel_.tile->first, sel_.tile->second, box);
    const uint32_t own = r::rgba(255, 200, 40), border = r::rgba(255, 200, 40, 120);
    // the tile's own box (top, bottom and the corners between) and its bordered box at the top
    rect(box[0], box[1], box[2], box[3], y1, own);
    rect(box[0], box[1], box[2], box[3], y0, own);
    for (const float x : {box[0], box[2]})
        for (const float z : {box[1], box[3]}) out.add_line(x, y0, z, x, y1, z, own);
    const nav::BakeConfig tc = nav::tile_config(c, b.layout, sel_.tile->first, sel_.tile->second);
    rect(tc.bmin[0], tc.bmin[2], tc.bmax[0], tc.bmax[2], y1, border);
}

}  // namespace navdebug
