// The debugger's UI state and panels (Dear ImGui), camera input and scene drawing. main.cpp owns
// the window, the command line and the frame loop; App draws one frame at a time.
#pragma once
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "camera.h"
#include "core/bake/pipeline.h"
#include "inspector.h"
#include "islands.h"
#include "log.h"
#include "map2d_optimal.h"
#include "map2d_view.h"
#include "open_dialog.h"
#include "path_tool.h"
#include "render/layers.h"
#include "render/pick.h"
#include "render/renderer.h"
#include "render/diff_draw.h"
#include "replay.h"
#include "session.h"
#include "timeline.h"
#include "undo.h"
#include "tile_tool.h"
#include "timings.h"
#include "warnings_panel.h"
#include "worker.h"

struct ImDrawList;

namespace navdebug {

struct AppOptions {
    nav::render::LayerMask layers{};
    std::string mesh_path;
    std::string config_path;
    std::optional<std::pair<glm::vec3, glm::vec3>> camera;  // eye, target from --camera
    std::optional<std::pair<glm::vec3, glm::vec3>> path;    // start, end from --path
    bool path_nodes = false;                                // --path-nodes: colour A* open / closed polygons
    int funnel_step = -1;                                   // --funnel-step N: show the funnel stepper at N
    PathTool::Mode path_mode = PathTool::Mode::Path;        // --path-mode path|raycast|wall
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
};

// What undo / redo restores: the edits that change the bake or what is drawn of it.
struct EditState {
    nav::Params params;
    std::vector<nav::ConvexVolume> volumes;
    std::optional<glm::vec3> prune;
    bool operator==(const EditState&) const = default;
};

class App {
public:
    App(BakeWorker& worker, Log& log, const nav::Params& params, std::vector<nav::ConvexVolume> volumes,
        AppOptions opts);

    bool init_gl(std::string& err);
    // Builds the UI and handles input for one frame; (W, H) window size in screen coordinates.
    void frame(GLFWwindow* window, float W, float H, float dt);
    // Draws the 3D scene into the current framebuffer of size (fb_w, fb_h).
    void render_scene(int fb_w, int fb_h);
    void on_drop(int count, const char** paths);
    // Writes the session JSON (mesh, config, volumes, path, camera, layers); false with err on failure.
    bool save_session(const std::string& path, std::string& err) const;
    void load_session(const std::string& path);
    // True while something moves (flying, dragging, a bake running): keep frames coming.
    bool animating() const { return animating_; }

    // ---- what the stress mode (stress.h) drives, as a slider does ----
    const nav::Params& desired_params() const { return desired_; }
    const std::vector<nav::ConvexVolume>& desired_volumes() const { return volumes_; }
    // Sets one parameter of the desired state (the worker restarts on the next frame).
    nav::Status set_param(nav::ParamId id, double value) { return desired_.set(id, value); }
    // The worker has handled the desired state: nothing pending, nothing building.
    bool settled() const;
    // The latest bake the worker published (not trimmed to the timeline's target stage).
    const std::shared_ptr<const nav::Bake>& latest_bake() const { return raw_bake_; }
    // Bytes the draw layers hold (CPU arrays, GPU buffers), for the stress report.
    size_t layer_cpu_bytes() const { return layers_.cpu_bytes(); }
    size_t layer_gpu_bytes() const { return layers_.gpu_bytes(); }
    // Frames in which the UI thread built a layer itself (no draw list from the worker).
    uint64_t layer_ui_waits() const { return layers_.ui_waits_on_layers(); }
    // Per layer: build (worker) and upload times of its last rebuild, sizes (the benchmark's table).
    const nav::render::LayerCache& layer_cache() const { return layers_; }
    // Time a frame may spend uploading layer parts (the rest go on in the next frames); 0: a bake's
    // layers are uploaded in the frame that first draws it (screenshots).
    void set_layer_upload_budget(double ms) { layer_upload_budget_ms_ = ms; }
    static constexpr double kLayerUploadBudgetMs = 12.0;

private:
    void poll_worker();
    void handle_camera_input(GLFWwindow* window, float W, float H, float dt);
    void update_hover(float W, float H);
    void ui_left_panel(float W, float H);
    void ui_right_panel(float W, float H);
    void ui_params();
    void ui_layers();
    void ui_readability();
    // The level-of-detail statement when the last frame drew some span layer merged (empty when not).
    std::string lod_text(bool brief) const;
    void ui_see_inside();
    // The shaders' view cut for this frame (clip, section, floor tint) from see_.
    nav::render::ViewCut view_cut() const;
    // What clicks and hovers go through: what the view does not draw (culled, ceilings, cut).
    nav::render::PickVisibility pick_visibility() const;
    // Called once per newly published bake: timings history.
    void on_new_bake(const std::shared_ptr<const nav::Bake>& prev, const std::shared_ptr<const nav::Bake>& next);
    // The bake as seen at the timeline's target stage: stages after run_to_ dropped (cached).
    std::shared_ptr<const nav::Bake> trimmed(const std::shared_ptr<const nav::Bake>& bake);
    void ui_overlays(float W, float H);
    // Honest state: follows the worker (since when it is busy, which stage it builds); the status
    // line with the stale mark and Cancel / Re-bake, in the view (panel false) or the Stages panel.
    void track_worker_state();
    // Undo / redo: the current edits, applying a state from the history, the keys and buttons.
    EditState edit_state() const { return {desired_, volumes_, islands_.prune_point()}; }
    void apply_edit(const EditState& s, const char* what);
    void undo_keys_and_commit();
    void handle_shortcuts();
    bool view_stale() const;
    void ui_bake_status(bool panel);
    // Opens a mesh. With own_settings (a mesh the user opens, not a session's) and "keep settings"
    // off, the loaded mesh starts from its own settings: MESH.json next to it when there is one,
    // else the defaults; no volumes, mesh fixes or prune carried over.
    void open_mesh(const std::string& path, bool own_settings = true);
    void apply_own_settings(const std::string& mesh_path);
    void load_config(const std::string& path);
    void save_config(const std::string& path);
    // Writes the polygon and detail meshes of the current bake as NAME.navmesh.obj next to the mesh.
    void export_obj();
    void set_error(std::string msg);
    bool any_floor_layer() const;

    BakeWorker& worker_;
    Log& log_;
    AppOptions opts_;

    // desired state (the worker converges to it)
    nav::Params desired_;
    std::vector<nav::ConvexVolume> volumes_;
    nav::Stage run_to_ = nav::kLastStage;
    nav::Params requested_;
    std::vector<nav::ConvexVolume> requested_volumes_;
    nav::Stage requested_to_ = nav::kLastStage;

    std::shared_ptr<const nav::Bake> bake_;      // what is drawn: pruned, trimmed to run_to_
    std::shared_ptr<const nav::Bake> raw_bake_;  // the worker's latest, as published
    std::shared_ptr<const PruneResult> prune_;   // published with it: raw_bake_ with the prune applied
    std::shared_ptr<const PruneResult> map2d_prune_;  // the same for a 2D scene (built here, not by the worker)
    std::shared_ptr<const nav::render::BuiltLayers> raw_layers_;  // published with it: drawn by upload only
    std::shared_ptr<const nav::Bake> trim_src_, trim_out_;
    nav::Stage trim_to_ = nav::kLastStage;
    bool mesh_pending_ = false;  // a mesh was asked for and has not loaded or failed yet
    std::shared_ptr<const nav::InputMesh> framed_mesh_;  // the mesh the camera was last framed on
    bool camera_placed_ = false;

    // rendering
    nav::render::Renderer renderer_;
    nav::render::LayerCache layers_;
    double layer_upload_budget_ms_ = kLayerUploadBudgetMs;
    nav::render::DrawList ground_cpu_, overlay_cpu_;
    nav::render::GpuDrawList ground_gpu_, overlay_gpu_;
    std::shared_ptr<const nav::InputMesh> ground_mesh_;
    bool show_ground_ = true;
    bool inspect_ = true;
    bool show_ui_ = true;

    // camera and view
    Camera cam_;
    ViewRect view_{};
    glm::mat4 view_proj_{1.0f};
    float win_w_ = 1, win_h_ = 1;
    enum class Drag { None, Look, Orbit, Pan } drag_ = Drag::None;
    glm::vec3 pivot_{0.0f};
    bool animating_ = false;

    // hover inspection
    std::string node_tip_;  // A* node under the cursor (path tool, "show A* nodes")

    // What a left click in the view does.
    enum class Tool { Path, Inspect, Prune, ClipFloor, Section, Tile } tool_ = Tool::Path;
    // Tiles (tile_tool.h): the selected tile, "only selected tile", the panel and its overlays.
    std::optional<TileXZ> sel_tile_;
    bool tile_only_ = false;
    TileOnlyView ui_tile_view_;  // the view made here when the worker's does not fit (prune, trim)
    std::shared_ptr<const nav::Bake> draw_bake_;  // what the layers draw: bake_ or its tile-only view
    std::shared_ptr<const nav::Bake> raw_view_;   // the worker's view of raw_bake_ (published with it)
    std::optional<TileXZ> raw_view_tile_;
    void ui_tile_panel();
    void tile_overlay(nav::render::DrawList& out) const;  // the selected tile's box and its border
    void tile_labels(ImDrawList* fg, float W, float H) const;  // tile ids over the tiles layer
    void update_focus();  // the camera's focus to the worker (tiles nearest it bake first)
    using Clock = std::chrono::steady_clock;
    Clock::time_point busy_since_{}, stage_since_{};
    bool was_busy_ = false;
    int seen_stage_ = -1, run_first_stage_ = -1;
    UndoStack<EditState> undo_;
    OpenDialog open_dialog_;
    bool keep_settings_ = false;         // Files panel: a new mesh keeps the current settings
    std::string own_settings_for_;       // the mesh whose own settings apply when it has loaded
    bool cancelled_ = false;  // the user cancelled the last bake: the view shows an older one
    ViewSettings see_;  // seeing inside: culling, ceilings, clip, section, floor tint
    Inspector inspector_;
    RegionReplay replay_;
    IslandsTool islands_;
    WarningsPanel warnings_;
    std::string session_field_;

    PathTool path_;
    Map2DView map2d_;  // 2D maps and the top view
    OptimalPath optimal_;  // the path tool's Polyanya path and search layer
    bool path_on() const { return opts_.layers[static_cast<size_t>(nav::render::Layer::Path)]; }

    // stage timeline, timings, readability and the change highlight
    Timeline timeline_;
    Timings timings_;
    nav::render::LayerDrawOptions draw_opts_;
    bool highlight_changes_ = false;
    std::shared_ptr<const BakeHighlight> highlight_;  // the worker's, while highlight_changes_ is on
    nav::render::GpuDrawList diff_gpu_;
    bool diff_upload_ = false;

    // panels
    std::string mesh_field_, config_field_;
    std::vector<std::string> asset_files_;
    std::vector<LogLine> log_lines_;
    size_t log_seen_ = 0;
    bool log_scroll_ = false;
    std::string banner_;
    float left_w_ = 0, right_w_ = 0;
    float right_size_ = 0;  // the right panel's width last frame (it may be resized)
};

}  // namespace navdebug
