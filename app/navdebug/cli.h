// navdebug's command line: every flag as given (CliOptions, parsed by CLI11 in parse_cli), then
// checked and turned into what the window opens with (resolve_cli). Everything here runs before a
// window exists: bad input is exit 2 with a message naming the flag, display or not.
//   navdebug [MESH.obj | MAP.json | MAP.mesh] [--config FILE.json] [--set NAME=VALUE]... [--draw LAYERS]
//            [--path sx,sy,sz:ex,ey,ez [--path-nodes] [--funnel-step N] [--path-mode path|optimal|raycast|wall]]
//            [--screenshot OUT.png [--size WxH] [--camera ex,ey,ez,tx,ty,tz]]
//            [--session FILE.json] [--save-session FILE.json] [--stage NAME] [--replay KIND=STEP]
//            [--select x,y,z] [--prune x,y,z] [--add-volume AREA:x,y,z:x,y,z:x,y,z]... [--why x,y,z | --why-path sx,sy,sz:ex,ey,ez] [--opacity LAYER=F,...] [--xray] [--lift METRES] [--span-budget N]
//            [--diff-from-set NAME=VALUE]... [--max-memory MB]
//            [--cull on|off] [--hide-ceilings on|off] [--clip YMIN,YMAX | --clip-floor X,Y,Z]
//            [--section PX,PY,PZ,NX,NY,NZ] [--floor-tint [--floor-height M]] [--hold-bake N (test only)]
//            [--stress-sliders N [--seed S] [--stress-per-frame K] [--stress-late | --stress-params A,B,...]
//             [--stress-every-ms T] --stress-report OUT.json]
//            [--top-view] [--wa-step N] [--cdt-step N] (2D maps) [--polyanya-step N]
//            [--tile-select X,Y [--tile-only]] [--hold-tiles N (test only)] [--then-open LEVEL (test only)]
//            [--test-frame-ms N (test only)] [--state-dump FILE (test only)] [--print-shortcuts]
//            [--no-view-cache] [--bench-frames N [--bench-camera still|orbit] --bench-report OUT.json (test only)]
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "app.h"
#include "bench.h"
#include "core/common.h"
#include "render/layers.h"
#include "session.h"
#include "stress.h"

namespace navdebug {

// Exit codes: 0 success, 2 bad input or parameters, 1 no display or internal failure.
constexpr int kExitBadInput = 2;
constexpr int kExitNoDisplay = 1;

// Every flag as given on the command line; text values are checked by resolve_cli.
struct CliOptions {
    std::string mesh_path, config_path;
    std::vector<std::string> sets;       // --set NAME=VALUE
    std::vector<std::string> diff_sets;  // --diff-from-set NAME=VALUE
    std::string draw = "input,navmesh";
    std::string shot_path, size_text = "1280x800", camera_text;
    // path tool
    std::string path_text, path_mode = "path";
    std::string tool;  // --tool
    bool path_nodes = false;
    std::string agent_type;  // --agent-type: the path tool's agent type, by name
    int funnel_step = -1, polyanya_step = -1;
    // 2D maps
    bool top_view = false;
    int wa_step = 0, cdt_step = 0;
    // session, stage, replay, picks
    std::string session_path, save_session_path, stage_text, replay_text, select_text, prune_text;
    std::string save_navmesh_path;  // --save-navmesh: after the screenshot, the bake as Detour's MSET (Files > Save navmesh)
    std::string export_gltf_path;  // --export-gltf: after the screenshot, the visible layers as glTF
    std::string why_text, why_path_text;  // --why x,y,z, --why-path s:e
    std::string path_tests_path;          // --path-tests FILE (the Path tests panel)
    int path_test = -1;                   // --path-test N
    std::vector<std::string> add_volume_texts;  // --add-volume AREA:x,y,z:x,y,z:x,y,z...
    std::vector<std::string> move_volume_point_texts;  // --move-volume-point VOLUME:POINT:x,z
    bool no_ui = false;
    // drawing
    std::string opacity_text;
    float lift = 0.0f;
    bool xray = false;
    size_t span_budget = nav::render::LayerDrawOptions::kDefaultSpanBudget;
    double max_memory_mb = 4096.0;
    // seeing inside
    std::string cull_text, ceilings_text, clip_text, clip_floor_text, section_text;
    bool floor_tint = false;
    std::string floor_tint_auto_text, path_on_top_text;  // --floor-tint-auto, --path-on-top: on | off
    float floor_height = 3.0f;
    // tiles
    std::string tile_select_text;
    bool tile_only = false;
    // test only
    int hold_bake = 0, hold_tiles = 0;
    std::string then_open;  // --then-open FILE: a second level dropped on the window after the first bake
    // test only (tests/e2e/window_input.sh): each frame takes at least test_frame_ms; the window's
    // state (App::state_json) written to state_dump_path after each frame that changed it
    int test_frame_ms = 0;
    std::string state_dump_path;
    bool print_shortcuts = false;  // --print-shortcuts: the key map as Markdown, then exit
    StressOptions stress;
    std::string stress_params;
    // the view's framebuffer and the panel benchmark (bench.h)
    bool no_view_cache = false;
    BenchOptions bench;
    // flags whose absence differs from their default
    bool draw_given = false, wa_step_given = false, cdt_step_given = false, floor_height_given = false,
         stress_params_given = false;

    bool screenshot() const { return !shot_path.empty(); }
};

// CLI11 over argv. No options when navdebug should exit at once with exit_code: 0 after --help
// printed the usage, kExitBadInput after a parse error was printed.
struct CliParse {
    std::optional<CliOptions> options;
    int exit_code = 0;
};
CliParse parse_cli(int argc, char** argv);

// What the checked flags give: the App's options (mesh_path: the command line's, else the
// session's; config_path: the command line's), the session the flags override, the window size.
struct StartOptions {
    AppOptions app;
    Session session;
    StressOptions stress;  // --stress-*, with --stress-params' list
    BenchOptions bench;    // --bench-*
    int width = 1280, height = 800;  // --size (screenshots)
};
// Checks every flag that needs neither the mesh nor a window, over the --session file's values
// (flags given win). Bad input names the flag and what was expected.
nav::Status resolve_cli(const CliOptions& cli, StartOptions& out);

}  // namespace navdebug
