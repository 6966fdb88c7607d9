// The debugger's panels: what they own (Panels), the state they draw and edit (PanelContext, made
// by App once a frame), what they ask of App (PanelAction) and the panels themselves, free
// functions over those (panels_left.cpp, panels_right.cpp, panels_view.cpp; the Areas panel in
// areas_state.h, the Path tests section in panels_path_tests.h).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/bake/areas.h"
#include "core/bake/stage.h"
#include "core/explain/why.h"
#include "log.h"
#include "open_dialog.h"
#include "render/layer_names.h"
#include "timeline.h"
#include "timings.h"
#include "warnings_panel.h"

struct ImDrawList;

namespace nav {
struct InputMesh;
namespace render {
class LayerCache;
}
}  // namespace nav

namespace navdebug {

class BakeWorker;
class Map2DView;
class RegionReplay;
class ViewCache;
struct AreasState;
struct EditState;
struct GpuScene;
struct PublishedBake;
struct Selection;
struct ViewState;
struct WorkerProgress;

// What the panels own: the text fields, the asset list, the log view, the error banner, the panel
// widths and the panels with their own state (open dialog, warnings, stage timeline, timings).
struct Panels {
    std::string mesh_field, config_field, session_field;
    std::vector<std::string> asset_files;  // the .obj files under assets/, sorted
    std::vector<LogLine> log_lines;
    size_t log_seen = 0;
    bool log_scroll = false;
    std::shared_ptr<const void> regions_legend_of;   // the regions the legend's ids were read from (held)
    std::vector<uint16_t> regions_legend_ids;        // the region ids their spans use, ascending
    std::shared_ptr<const void> prune_shown;  // the pruned bake the Islands panel last showed (held: no reuse of its address)
    std::string banner;  // the error shown over the view
    float left_w = 0, right_w = 0;
    float right_size = 0;  // the right panel's width last frame (it may be resized)
    OpenDialog open_dialog;
    WarningsPanel warnings;
    Timeline timeline;
    Timings timings;
};

// The state the panels draw and edit: App's parts, by reference (a const PanelContext still
// edits them), made by App once a frame.
struct PanelContext {
    ViewState& view;
    EditState& edit;
    AreasState& areas;
    Selection& sel;
    Panels& panels;
    PublishedBake& pub;
    const WorkerProgress& progress;
    GpuScene& scene;
    const ViewCache& cache;
    RegionReplay& replay;
    Map2DView& map2d;
    BakeWorker& worker;
    Log& log;
    nav::render::LayerMask& layers;  // the layers shown (AppOptions::layers)
    bool headless;                   // a screenshot run: the panels log text they cut off (panel_fit.h)
};

// What the user asked for in a panel that App does itself (it reaches past the panels' state: the
// files, the exports, the undo history, the area table's followers, the Why tool's stage and fix).
// A panel returns them in the order they were asked; App applies them right after the panel.
namespace ask {
struct OpenMesh { std::string path; };      // App::open_mesh
struct LoadConfig { std::string path; };    // App::load_config
struct SaveConfig { std::string path; };    // App::save_config
struct LoadSession { std::string path; };   // App::load_session
struct SaveSession { std::string path; };   // App::save_session, its error logged and shown
struct ExportObj {};                        // App::export_obj
struct SaveNavmesh {};                      // App::save_navmesh
struct ExportGltf {};                       // App::export_gltf
struct Undo {};                             // the undo history back one edit (App::apply_edit)
struct Redo {};                             // and forward one
struct SetAreas { nav::AreaTable areas; };  // the Areas panel's valid table (App::set_areas)
struct ShowStage { nav::Stage stage; };     // a stage line of the Why panel (App::show_stage)
struct ApplyFix { nav::WhyFix fix; };       // the Why panel's Apply (App::apply_fix)
}  // namespace ask
using PanelAction = std::variant<ask::OpenMesh, ask::LoadConfig, ask::SaveConfig, ask::LoadSession, ask::SaveSession,
                                 ask::ExportObj, ask::SaveNavmesh, ask::ExportGltf, ask::Undo, ask::Redo, ask::SetAreas,
                                 ask::ShowStage, ask::ApplyFix>;
using PanelActions = std::vector<PanelAction>;

// ---- the left panel (panels_left.cpp): Files, Warnings, 2D map, Layers, Parameters ----
// (W, H) the window's size in screen coordinates, here and below.
PanelActions left_panel(const PanelContext& c, float H);
PanelActions params_section(EditState& edit, const nav::Bake* bake, Log& log);  // undo / redo, the sliders
void layers_section(const PanelContext& c);  // the layer boxes, readability, see inside, the legend
void regions_legend(Panels& panels, const nav::Bake* b);  // every region of b (drawn): a count and a swatch each
void readability_section(const PanelContext& c);  // opacity, span budget, x-ray, stack, change highlight
// The level-of-detail statement when the last frame drew some span layer merged (empty when not);
// `span_budget` the user's (LayerDrawOptions::span_budget). The view's overlay shows it too.
std::string lod_text(const nav::render::LayerCache& layers, size_t span_budget, const ViewCache& cache, bool brief);
void see_inside_section(ViewState& view, const nav::InputMesh* mesh);  // culling, clip, section, floor tint
void floor_tint_section(ViewState& view);  // floor tint: the checkbox, the band height, the bands' legend

// ---- the right panel (panels_right.cpp): Stages, Timings, the tools' panels, Path, Log ----
PanelActions right_panel(const PanelContext& c, float W, float H);
PanelActions why_window(const PanelContext& c, float W, float H);  // the Why panel, over the view's lower left
void tile_section(const nav::Bake& b, Selection& sel, BakeWorker& worker, Log& log);  // the selected tile of b (tiled)

// ---- over the view (panels_view.cpp) ----
void view_overlays(const PanelContext& c, float W, float H);  // banner, status, tile ids, LOD, tooltips, help
// The status line with the stale mark and Cancel / Re-bake, in the view (panel false) or the
// Stages panel.
void bake_status(const PanelContext& c, bool panel);
void tile_labels(const PanelContext& c, ImDrawList* fg, float W, float H);  // tile ids over the tiles layer

}  // namespace navdebug
