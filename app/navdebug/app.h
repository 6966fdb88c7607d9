// The debugger's frame: App wires the state it owns (ViewState: camera, what is drawn and how;
// EditState: parameters, volumes, prune, undo; AreasState: the area types; Selection: click tool,
// picks, inspector, path; Panels: the panels' own state, their code in panels_*.cpp;
// PublishedBake: what the worker published; WorkerProgress: the status line's timers; GpuScene:
// what is on the GPU; ViewCache: the view's framebuffer) to the bake worker and the renderer.
// main.cpp owns the window and the command line and calls App once a frame.
#pragma once
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "areas_state.h"
#include "camera.h"
#include "core/pipeline/pipeline.h"
#include "edit_state.h"
#include "export_job.h"
#include "gpu_scene.h"
#include "log.h"
#include "map2d_view.h"
#include "panels.h"
#include "panels_path_tests.h"
#include "path_tool.h"
#include "published_bake.h"
#include "render/layers.h"
#include "replay.h"
#include "selection.h"
#include "session.h"
#include "tile_tool.h"
#include "view_cache.h"
#include "view_state.h"
#include "worker.h"
#include "worker_progress.h"

namespace navdebug {
struct Shortcut;
}

namespace navdebug {

struct AppOptions {
    nav::render::LayerMask layers{};
    std::string mesh_path;
    std::string config_path;
    std::optional<std::pair<glm::vec3, glm::vec3>> camera;  // eye, target from --camera
    std::optional<std::pair<glm::vec3, glm::vec3>> path;    // start, end from --path
    bool path_nodes = false;                                // --path-nodes: colour A* open / closed polygons
    std::string agent_type;                                 // --agent-type: the path tool's agent type, by name
    bool path_on_top = true;                                // --path-on-top on|off
    int funnel_step = -1;                                   // --funnel-step N: show the funnel stepper at N
    PathTool::Mode path_mode = PathTool::Mode::Path;        // --path-mode path|raycast|wall
    int tool = 0;                                           // --tool: Selection::Tool's index
    bool headless = false;  // screenshot run: no input handling, no hover
    std::optional<nav::Stage> stage;      // --stage NAME: bake only through this stage
    std::string replay;                   // --replay watershed=LEVEL (checked by RegionReplay::parse_flag)
    std::optional<glm::vec3> select;      // --select x,y,z: pin the element there in the inspector
    std::optional<glm::vec3> prune;       // --prune x,y,z: keep only the navmesh reachable from there
    std::string session_path;             // --session FILE: the session the window opened with
    bool hide_ui = false;                 // --no-ui: start with the panels hidden (Tab shows them)
    nav::render::LayerDrawOptions draw;   // --opacity, --lift, --xray: the Layers panel's readability options
    bool highlight_changes = false;       // --diff-from-set: start with "Highlight changes" on
    ViewSettings view;                    // --cull, --hide-ceilings, --clip, --clip-floor, --section, --floor-tint
    // 2D maps (map2d_view.h): the scene opened from the command line, --draw's 2D layers,
    // --wa-step / --cdt-step, --top-view
    std::shared_ptr<const Map2DScene> map2d;
    Map2DLayerMask map2d_layers{};
    int wa_step = 0, cdt_step = 0;
    bool top_view = false;
    bool optimal = false;    // --path-mode optimal: Polyanya beside A* + funnel
    int polyanya_step = -1;  // --polyanya-step N: Polyanya's search layer at step N
    std::optional<TileXZ> tile_select;  // --tile-select X,Y: the Tile panel's selected tile
    bool tile_only = false;             // --tile-only: per-grid layers for the selected tile only
    std::optional<glm::vec3> why;       // --why x,y,z: the Why tool explains the point there
    std::optional<std::pair<glm::vec3, glm::vec3>> why_path;  // --why-path s:e: ... why s cannot reach e
    std::string path_tests;             // --path-tests FILE: the Path tests panel's file
    std::optional<size_t> path_test;    // --path-test N: case N shown with the path tool (as a click does)
    bool keep_recent = false;  // the Open dialog's recent files kept (interactive runs; not screenshots, stress)
    // --add-volume: volumes the volume tool places after the first bake (the area by name, the points)
    struct CliVolume {
        std::string area;
        std::vector<float> pts;  // x,y,z per point
    };
    std::vector<CliVolume> add_volumes;
    // --move-volume-point: after those, hull point `point` of volume `volume` moved to x, z as the
    // Volumes panel's point field does (the volume is its points' hull again)
    struct CliPointMove {
        size_t volume = 0, point = 0;
        float x = 0.0f, z = 0.0f;
    };
    std::vector<CliPointMove> move_volume_points;
};

class App {
public:
    App(BakeWorker& worker, Log& log, const nav::BakeInputs& inputs, AppOptions opts);

    bool init_gl(std::string& err);
    // Builds the UI and handles input for one frame; (W, H) window size in screen coordinates.
    void frame(GLFWwindow* window, float W, float H, float dt);
    // Draws the 3D scene into the current framebuffer of size (fb_w, fb_h).
    void render_scene(int fb_w, int fb_h);
    void on_drop(int count, const char** paths);
    // Writes the session JSON (mesh, config, volumes, path, camera, layers); false with err on failure.
    bool save_session(const std::string& path, std::string& err) const;
    // The exports run on the worker (export_job.h): these ask for them with the bake shown and
    // return the job's id; the result is logged (and an error shown) when the worker has it.
    // The visible layers as glTF to `path` (empty: NAME.navmesh.glb next to the mesh).
    uint64_t export_gltf(const std::string& path = {});
    uint64_t save_navmesh(const std::string& path = {});  // NAME.navmesh.bin next to the mesh, or `path`
    // The polygon and detail meshes of the bake shown as NAME.navmesh.obj next to the mesh.
    uint64_t export_obj();
    // Blocks until the worker has run export `id` (headless runs: --save-navmesh, --export-gltf),
    // reports it as a frame does; whether it wrote its file.
    bool wait_export(uint64_t id);
    void load_session(const std::string& path);
    // True while something moves (flying, dragging, a bake running): keep frames coming.
    bool animating() const { return view_.animating; }

    // ---- what the stress mode (stress.h) drives, as a slider does ----
    const nav::Params& desired_params() const { return edit_.desired.params; }
    const std::vector<nav::ConvexVolume>& desired_volumes() const { return edit_.desired.volumes; }
    // The area types (Areas panel, config "areas", sessions): the worker's polygon flags, the path
    // filter's costs, the views' area colours (the bake carries the table) follow them.
    const nav::AreaTable& areas() const { return edit_.desired.areas; }
    void set_areas(const nav::AreaTable& areas);
    // Sets one parameter of the desired state (the worker restarts on the next frame).
    nav::Status set_param(nav::ParamId id, double value) { return edit_.desired.params.set(id, value); }
    // The worker has handled the desired state: nothing pending, nothing building.
    bool settled() const;
    // The screen shows the bake the app holds: its layers are all uploaded (a frame may defer the
    // scene's draw, or spread uploads over frames, after settled() is already true).
    bool view_current() const;
    // The latest bake the worker published (not trimmed to the timeline's target stage).
    const std::shared_ptr<const nav::Bake>& latest_bake() const { return pub_.raw; }
    // Bytes the draw layers hold (CPU arrays, GPU buffers), for the stress report.
    size_t layer_cpu_bytes() const { return scene_.layers.cpu_bytes(); }
    size_t layer_gpu_bytes() const { return scene_.layers.gpu_bytes(); }
    // Frames in which the UI thread built a layer itself (no draw list from the worker).
    uint64_t layer_ui_waits() const { return scene_.layers.ui_waits_on_layers(); }
    // Per layer: build (worker) and upload times of its last rebuild, sizes (the benchmark's table).
    const nav::render::LayerCache& layer_cache() const { return scene_.layers; }
    // The Why tool waits for the worker (a fix being verified, a path explained): headless runs
    // wait for it before the frames they save.
    bool why_waiting() const { return sel_.why.waiting(); }
    // A 2D map's prune was asked of the worker and is not shown yet.
    bool scene_prune_waiting() const { return pub_.scene_prune_waiting(); }
    // The Path tests panel has cases not evaluated on the bake shown yet.
    bool path_tests_waiting() const { return sel_.path_tests.pending(); }
    // Time a frame may spend uploading layer parts (the rest go on in the next frames); 0: a bake's
    // layers are uploaded in the frame that first draws it (screenshots).
    void set_layer_upload_budget(double ms) { scene_.upload_budget_ms = ms; }
    static constexpr double kLayerUploadBudgetMs = GpuScene::kLayerUploadBudgetMs;

    // ---- the view's own framebuffer (app_view.cpp, ViewCache in view_cache.h) ----
    // Off (--no-view-cache): the scene is drawn on the window every frame.
    void set_view_cache(bool on) { cache_.on = on; }
    bool view_cache() const { return cache_.on; }
    // After frame(), before ImGui::Render: whether the scene is drawn this frame (what it shows
    // changed) or the last image is shown again. A slow scene (last draw over kSlowSceneMs) that
    // changed without the camera moving shows "drawing..." over the old image for one frame and is
    // drawn on the next, so the panels answer first; a moving camera draws every frame.
    void prepare_view(int fb_w, int fb_h);
    // After ImGui::Render: the scene into the view's framebuffer when prepare_view said so, then
    // the image onto the window's framebuffer (the panels are drawn over it next).
    void present_view(int fb_w, int fb_h);
    double last_scene_ms() const { return cache_.last_scene_ms(); }  // the last scene draw, finished (glFinish)
    uint64_t scene_draws() const { return cache_.scene_draws(); }
    // The benchmark's orbiting camera: yaw by `radians` around the level's centre.
    void orbit_level(float radians);
    static constexpr double kSlowSceneMs = ViewCache::kSlowSceneMs;
    static constexpr double kTargetSceneMs = ViewCache::kTargetSceneMs;

    // ---- test hooks (app_state_dump.cpp; test only: --state-dump) ----
    // A small JSON of what the window shows: visible layers, camera, path ends, the mesh, the left
    // panel's scroll, the Open dialog and the shortcut list; the window tests assert on it.
    std::string state_json() const;
    // --add-volume's volumes are not placed yet (they wait for the first bake).
    bool cli_volumes_pending() const { return !opts_.add_volumes.empty() || !opts_.move_volume_points.empty(); }

private:
    // ---- the frame (app.cpp) ----
    void poll_worker();
    // Called once per newly published bake: timings history.
    void on_new_bake(const std::shared_ptr<const nav::Bake>& prev, const std::shared_ptr<const nav::Bake>& next);
    // A job for the worker: an export of the bake shown.
    ExportJob export_job(ExportJob::Kind kind, const std::string& path) const;
    // An export's result: its line logged, an error also shown in the banner.
    void report_export(const ExportResult& r);
    void update_focus();  // the camera's focus to the worker (tiles nearest it bake first)
    void tile_overlay(nav::render::DrawList& out) const;  // the selected tile's box and its border
    // The Why tool: its story told on the latest bake, its job to the worker, its result taken.
    void update_why();
    // The Why panel's actions: a stage line clicked (that stage driven and drawn), Apply.
    void show_stage(nav::Stage stage);
    void apply_fix(const nav::WhyFix& fix);
    bool any_floor_layer() const;
    bool path_on() const { return opts_.layers[static_cast<size_t>(nav::render::Layer::Path)]; }

    // ---- edits: files, settings, undo / redo (app.cpp) ----
    void apply_edit(const EditSnapshot& s, const char* what);
    void undo_keys_and_commit();
    // ---- keys (app_shortcuts.cpp): the shortcut table (shortcuts.h) on this frame's key presses ----
    void handle_shortcuts();
    void run_shortcut(const Shortcut& s);
    void ui_shortcuts_overlay(float W, float H);  // the F1 / ? list
    // Opens a mesh. With own_settings (a mesh the user opens, not a session's) and "keep settings"
    // off, the loaded mesh starts from its own settings: MESH.json next to it when there is one,
    // else the defaults; no volumes, mesh fixes or prune carried over.
    void open_mesh(const std::string& path, bool own_settings = true);
    void apply_own_settings(const std::string& mesh_path);
    // A new level: forgets what was picked at the old level's coordinates (path points, the
    // inspector's pin, the Why tool's point, the selected tile, the clip and the section).
    void forget_level_picks();
    void load_config(const std::string& path);
    void save_config(const std::string& path);
    void set_error(std::string msg);

    // ---- input in the 3D view (app_input.cpp) ----
    void handle_camera_input(GLFWwindow* window, float W, float H, float dt);
    // The point under the cursor of what the shown layers draw (not hidden ones), if any.
    bool pick_under_cursor(float W, float H, glm::vec3& hit) const;
    void start_camera_drag(float W, float H);
    void click_tools(float W, float H);
    void move_camera(GLFWwindow* window, float W, float H, float dt);
    void update_hover(float W, float H);
    // ---- the Volumes tool (app_volumes.cpp) ----
    void volume_tool_click(float W, float H);
    // The volumes --add-volume gives, placed through the tool once the first bake is in.
    void place_cli_volumes();
    float metres_per_pixel(const glm::vec3& p) const;  // at p's depth in the view
    float volume_close_radius() const;  // metres round the first point in which a click closes the volume
    // metres round the cursor in which a press grabs a hull point of the selected volume
    float volume_grab_radius(const glm::vec3* ground) const;

    // ---- the panels (panels.h; their code in panels_*.cpp): their context and requests (app.cpp) ----
    // The panels' view of App's parts, made once a frame.
    PanelContext panel_context();
    // What the user asked for in a panel, done in order (right after the panel's call).
    void apply(const PanelActions& asked);

    // ---- the view (app_view.cpp) ----
    void build_overlays();  // the scene's overlay_cpu and why_bold_cpu (render_scene; the signature)
    // A hash of everything the scene's picture depends on that can change without an input event.
    uint64_t scene_signature(int fb_w, int fb_h);
    double frame_upload_budget() const { return cache_.upload_budget(scene_.upload_budget_ms); }

    BakeWorker& worker_;
    Log& log_;
    AppOptions opts_;

    // the state App wires together
    ViewState view_;
    EditState edit_;
    AreasState areas_;  // the Areas panel's rows; the applied table is edit_.desired.areas
    Selection sel_;
    bool show_shortcuts_ = false;  // the F1 / ? list is shown
    Panels panels_;
    PublishedBake pub_;         // what the worker published and what is drawn of it
    WorkerProgress progress_;   // the worker's progress (the status line)
    GpuScene scene_;            // the renderer, the layers' cache, the ground and the overlays
    RegionReplay replay_;
    Map2DView map2d_;  // 2D maps and the top view
    ViewCache cache_;  // the view's framebuffer
};

}  // namespace navdebug
