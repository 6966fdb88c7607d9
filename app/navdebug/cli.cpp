#include "cli.h"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/bake/areas.h"
#include "core/bake/stage.h"
#include "core/io/file.h"
#include "map2d_scene.h"
#include "map2d_view.h"
#include "replay.h"

namespace navdebug {

namespace {

// The flags are added in the order --help lists them.

// The mesh, the parameters, the layers, the screenshot and the path tool. Returns --screenshot
// (other flags need it).
CLI::Option* add_scene_flags(CLI::App& cli, CliOptions& o) {
    cli.add_option("mesh", o.mesh_path, "Level mesh (.obj, or .gltf .glb .fbx .dae .ply .stl .3ds through assimp), .json 2D map, Polyanya .mesh file or Detour navmesh .bin (MSET or one tile) to open (default: assets/demo.obj with assets/demo.json, as scripts/run.sh)");
    cli.add_option("--config", o.config_path, "JSON config: parameters by name and convex volumes");
    cli.add_option("--set", o.sets, "NAME=VALUE parameter override, repeatable (see below)");
    cli.add_option("--draw", o.draw, "comma list of layers to show: input,voxels,filtered,compact,eroded,areas,distance,regions,raw_contours,contours,polymesh,detail,navmesh,islands,agent_types,path")
        ->capture_default_str();
    auto* shot_opt = cli.add_option("--screenshot", o.shot_path, "bake, render one frame with the UI into this PNG, exit");
    cli.add_option("--size", o.size_text, "screenshot size WxH")->capture_default_str()->needs(shot_opt);
    cli.add_option("--path", o.path_text, "path tool start and end: sx,sy,sz:ex,ey,ez (turns the path layer on)");
    cli.add_flag("--path-nodes", o.path_nodes, "path tool: colour the polygons A* closed / left open");
    cli.add_option("--agent-type", o.agent_type,
                   "path tool: the config's agent type NAME (its \"agent_types\") the paths are for");
    cli.add_option("--funnel-step", o.funnel_step, "path tool: show the funnel stepper at this step (0 = first)")
        ->check(CLI::NonNegativeNumber);
    cli.add_option("--tool", o.tool, "what a left click in the view does at start: path (default), inspect, prune, clip, section, tile, why, obstacle, volume or link")
        ->check(CLI::IsMember({"path", "inspect", "prune", "clip", "section", "tile", "why", "obstacle", "volume", "link"}));
    cli.add_option("--path-mode", o.path_mode, "path tool mode: path, optimal (the path and Polyanya's optimal path, with their length ratio), raycast (start toward end) or wall (distance to wall around the start)")
        ->capture_default_str();
    cli.add_option("--polyanya-step", o.polyanya_step, "path tool: show Polyanya's search up to this expanded node (turns --path-mode optimal on)")
        ->check(CLI::NonNegativeNumber);
    cli.add_flag("--top-view", o.top_view, "2D mode: orthographic view from straight above (on by itself for .json maps and .mesh files)");
    cli.add_option("--wa-step", o.wa_step, "2D map: show the Weiler-Atherton trace at this step (turns the wa_step layer on; 0 = the split edges)")
        ->check(CLI::NonNegativeNumber);
    cli.add_option("--cdt-step", o.cdt_step, "2D map: show the triangulation after this CDT step (turns the cdt_step layer on)")
        ->check(CLI::NonNegativeNumber);
    cli.add_option("--camera", o.camera_text, "camera eye and target: ex,ey,ez,tx,ty,tz (default: frames the mesh)");
    return shot_opt;
}

// The session, the stage, replay and picks, and how the layers are drawn.
void add_session_and_draw_flags(CLI::App& cli, CliOptions& o, CLI::Option* shot_opt) {
    cli.add_option("--session", o.session_path,
                   "open a session JSON (mesh, config, volumes, path, camera, layers); other flags override it");
    cli.add_option("--save-session", o.save_session_path, "after the screenshot, write the session as it is to this file")
        ->needs(shot_opt);
    cli.add_option("--save-navmesh", o.save_navmesh_path,
                   "after the screenshot, write the bake as a Detour navmesh, RecastDemo's MSET (Files > Save navmesh), to this file")
        ->needs(shot_opt);
    cli.add_option("--export-gltf", o.export_gltf_path,
                   "after the screenshot, write the visible layers as glTF (Files > Export glTF) to this file (.glb binary, else JSON)")
        ->needs(shot_opt);
    cli.add_option("--stage", o.stage_text, "bake only through this stage: input,rasterize,filter,compact,erode,areas,distance,regions,contours,polymesh,detail,navmesh");
    cli.add_option("--replay", o.replay_text,
                   "show the region replay at a step index: KIND=STEP, KIND watershed, monotone or layers, STEP 0 = the "
                   "first flood level (watershed) or swept row (monotone, layers); the filter and merge steps follow");
    cli.add_option("--select", o.select_text, "pin the element at x,y,z in the inspector (top visible layer)");
    cli.add_option("--why", o.why_text,
                   "the Why tool: why is there (no) navmesh at x,y,z - its story through the stages, the culprits "
                   "drawn, the verified fix");
    cli.add_option("--why-path", o.why_path_text,
                   "the Why tool on a path sx,sy,sz:ex,ey,ez (set as the path tool's too): the islands, the gap "
                   "between them, its story and fix")
        ->excludes("--why");
    cli.add_option("--path-tests", o.path_tests_path,
                   "a path test file (JSON cases: start, end, filter, expectation) listed in the Path tests panel "
                   "with pass / fail against the bake");
    cli.add_option("--path-test", o.path_test, "show case N of --path-tests with the path tool, as a click on it does")
        ->check(CLI::Range(0, 1000000))
        ->needs("--path-tests");
    cli.add_flag("--no-ui", o.no_ui, "start with the panels hidden (Tab shows them): the 3D view only");
    cli.add_option("--prune", o.prune_text, "keep only the navmesh reachable from the polygon at x,y,z; the rest is disabled");
    cli.add_option("--add-volume", o.add_volume_texts,
                   "after the first bake, the volume tool places a convex volume: AREA:x,y,z:x,y,z:x,y,z[:...] (an area "
                   "name of the table, then level points, as clicks followed by Enter: their convex hull, 1 m below the "
                   "lowest to 6 m above that); repeatable");
    cli.add_option("--move-volume-point", o.move_volume_point_texts,
                   "after the --add-volume volumes are placed, moves a volume's hull point as the Volumes panel does: "
                   "VOLUME:POINT:x,z (indices from 0; the volume becomes its points' convex hull again); repeatable");
    cli.add_option("--opacity", o.opacity_text, "per-layer opacity: LAYER=F[,LAYER=F]... with F in [0, 1]");
    cli.add_flag("--xray", o.xray, "x-ray edges: the layers' lines also drawn faint through the geometry");
    cli.add_option("--span-budget", o.span_budget,
                   "span instances drawn at full detail per frame, shared by the span layers shown; the farther "
                   "chunks are drawn merged beyond it (0: no limit; default 1000000)")
        ->check(CLI::Range(size_t(0), size_t(1) << 32));
    cli.add_option("--lift", o.lift, "stack offset: each visible layer after the first drawn this many metres higher (0..10)");
    cli.add_option("--diff-from-set", o.diff_sets,
                   "bake first with NAME=VALUE (repeatable) applied, then with the final parameters, and highlight "
                   "what changed")
        ->needs(shot_opt);
    cli.add_option("--max-memory", o.max_memory_mb, "refuse grids estimated to need more than this many MiB (as navbake)")
        ->check(CLI::Range(1.0, 1048576.0))
        ->check(CLI::Validator([](std::string& v) { return std::isfinite(std::strtod(v.c_str(), nullptr)) ? std::string() : "expected a finite number of MiB"; }, "finite"));
}

// Seeing inside, the tiles, and the test-only hold and stress modes.
void add_view_and_test_flags(CLI::App& cli, CliOptions& o, CLI::Option* shot_opt) {
    cli.add_option("--cull", o.cull_text, "input layer: back faces culled, on (default) or off");
    cli.add_option("--hide-ceilings", o.ceilings_text,
                   "input layer: faces pointing down hidden where the camera is above them, on (default) or off");
    cli.add_option("--clip", o.clip_text, "height clip: draw only between heights YMIN,YMAX (every layer)");
    cli.add_option("--clip-floor", o.clip_floor_text,
                   "clip to the floor at X,Y,Z: keep heights Y-0.3 .. Y+2.3 (as the floor click tool)");
    cli.add_option("--section", o.section_text,
                   "section plane through PX,PY,PZ with normal NX,NY,NZ: the side the normal points to is cut away");
    cli.add_flag("--floor-tint", o.floor_tint, "tint every layer by height band (one colour per floor)");
    cli.add_option("--floor-tint-auto", o.floor_tint_auto_text,
                   "floor tint on by itself where the navmesh has several floors: on (default) or off (then only --floor-tint tints)");
    cli.add_option("--path-on-top", o.path_on_top_text,
                   "path tool: the path, its markers and the A* nodes drawn over every layer, on (default) or off");
    cli.add_option("--floor-height", o.floor_height, "floor tint: height of one band in metres (0.5..100)")
        ->capture_default_str();
    cli.add_option("--hold-bake", o.hold_bake,
                   "test only: the bake worker stops before its N-th run (1 = the first bake, after the input is "
                   "shown) and the screenshot is taken while it waits: the progress view, or with --diff-from-set "
                   "and 2 the stale mark")
        ->check(CLI::Range(1, 1000))
        ->needs(shot_opt);
    cli.add_option("--tile-select", o.tile_select_text, "tiled bakes: select tile X,Y (column, row) in the Tile panel");
    cli.add_flag("--tile-only", o.tile_only, "tiled bakes: draw the per-grid layers for the selected tile only");
    cli.add_option("--hold-tiles", o.hold_tiles,
                   "test only: the first tiled bake stops once N tiles are done, and the screenshot is taken while "
                   "it waits (the bake half done, its progress shown)")
        ->check(CLI::Range(1, 1000000))
        ->needs(shot_opt);
    cli.add_option("--then-open", o.then_open,
                   "test only: once the first level's bake is done, open LEVEL as a drop on the window does, and "
                   "take the screenshot (and --save-session) of it")
        ->check(CLI::ExistingFile)
        ->needs(shot_opt);
    auto* stress_opt = cli.add_option("--stress-sliders", o.stress.moves,
                                      "test mode: move N random sliders (1..100000), one per frame, then write "
                                      "--stress-report and exit")
                           ->check(CLI::Range(1, 100000))
                           ->excludes(shot_opt);
    cli.add_option("--seed", o.stress.seed, "stress mode: random seed (same seed, same moves)")->needs(stress_opt);
    cli.add_option("--stress-per-frame", o.stress.per_frame, "stress mode: sliders moved per frame (1..1000)")
        ->check(CLI::Range(1, 1000))
        ->needs(stress_opt);
    cli.add_flag("--stress-late", o.stress.late,
                 "stress mode: move only the late-stage parameters (stage contours or later), to time how soon a "
                 "late change shows")
        ->needs(stress_opt);
    cli.add_option("--stress-every-ms", o.stress.every_ms,
                   "stress mode: make the next move once the last move's result is shown (its bake and layers) or T ms "
                   "passed (0..600000; 0, the default: a move every frame)")
        ->check(CLI::Range(0.0, 600000.0))
        ->needs(stress_opt);
    cli.add_option("--stress-params", o.stress_params,
                   "stress mode: move only these parameters (comma list of names as in --set)")
        ->needs(stress_opt)
        ->excludes("--stress-late");
    cli.add_option("--stress-report", o.stress.report,
                   "stress mode: JSON report (final config for navbake --config, counts per stage, RSS, wall time)")
        ->needs(stress_opt);
}

// The view's own framebuffer (--no-view-cache) and the panel benchmark (bench.h).
void add_view_cache_flags(CLI::App& cli, CliOptions& o, CLI::Option* shot_opt) {
    cli.add_flag("--no-view-cache", o.no_view_cache,
                 "draw the 3D scene on the window every frame instead of into the view's own framebuffer "
                 "(redrawn only when it changes); the panel benchmark's \"before\"");
    auto* bench_opt = cli.add_option("--bench-frames", o.bench.frames,
                                     "test mode: once the first bake is shown, time N frames (1..100000), write "
                                     "--bench-report and exit")
                          ->check(CLI::Range(1, 100000))
                          ->excludes(shot_opt)
                          ->excludes("--stress-sliders");
    cli.add_option("--bench-camera", o.bench.camera, "benchmark: the camera still (default) or orbiting the level")
        ->needs(bench_opt);
    cli.add_option("--bench-report", o.bench.report, "benchmark: JSON report (frame time p50 / p99, scene draws)")
        ->needs(bench_opt);
}

bool parse_floats(const std::string& s, std::vector<float>& out) {
    out.clear();
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        char* end = nullptr;
        const float v = std::strtof(item.c_str(), &end);
        if (item.empty() || end == item.c_str() || *end != '\0' || !std::isfinite(v)) return false;
        out.push_back(v);
    }
    return true;
}

// The --session file (its keys are the defaults the flags override), --draw, and what the session
// gives that no flag below changes.
nav::Status resolve_session_and_layers(const CliOptions& o, StartOptions& out) {
    AppOptions& opts = out.app;
    Session& session = out.session;
    if (!o.session_path.empty()) {
        if (nav::Status st = load_session_file(o.session_path, session); !st) return st;
        opts.session_path = o.session_path;
    }
    // 2D maps: their own layers come out of the list first; a map opened without --draw shows
    // the navmesh with the input polygons
    std::string draw = o.draw;
    if (is_map2d_path(o.mesh_path) && !o.draw_given) draw = "navmesh,map_input";
    take_map2d_layers(draw, opts.map2d_layers);
    std::string err;
    if (session.layers && !o.draw_given) opts.layers = *session.layers;
    else if (draw.empty()) opts.layers.fill(false);
    else if (!nav::render::parse_layer_list(draw, opts.layers, err)) return nav::Status::bad_input(err);
    if (session.camera) opts.camera = session.camera;
    if (session.path) opts.path = session.path;
    if (session.why_point) opts.why = session.why_point;
    if (session.why_path) opts.why_path = session.why_path;
    opts.mesh_path = session.mesh && o.mesh_path.empty() ? *session.mesh : o.mesh_path;
    opts.config_path = o.config_path;
    opts.hide_ui = o.no_ui;
    return nav::Status::ok();
}

// --stage, --replay, --select, --prune, --tile-select, --tile-only.
nav::Status resolve_stage_and_picks(const CliOptions& o, AppOptions& opts) {
    if (!o.stage_text.empty()) {
        bool found = false;
        for (int s = 0; s < nav::kStageCount; ++s)
            if (nav::kStageNames[static_cast<size_t>(s)] == o.stage_text) {
                opts.stage = static_cast<nav::Stage>(s);
                found = true;
            }
        if (!found) {
            std::string names;
            for (std::string_view n : nav::kStageNames) names += (names.empty() ? "" : ", ") + std::string(n);
            return nav::Status::bad_input("--stage: unknown stage '" + o.stage_text + "' (expected one of: " + names + ")");
        }
    }
    if (!o.replay_text.empty()) {
        RegionReplay probe;
        std::string err;
        if (!probe.parse_flag(o.replay_text, err)) return nav::Status::bad_input(err);
        opts.replay = o.replay_text;
    }
    for (auto [text, flag, dst] : {std::tuple{&o.select_text, "--select", &opts.select}, std::tuple{&o.prune_text, "--prune", &opts.prune},
                                   std::tuple{&o.why_text, "--why", &opts.why}}) {
        if (text->empty()) continue;
        std::vector<float> v;
        if (!parse_floats(*text, v) || v.size() != 3)
            return nav::Status::bad_input(std::string(flag) + ": expected three numbers x,y,z, got '" + *text + "'");
        *dst = glm::vec3(v[0], v[1], v[2]);
    }
    if (!o.why_text.empty()) opts.why_path.reset();  // the flag wins over the session's path
    if (!o.path_tests_path.empty()) {
        if (nav::Status st = nav::check_input_file(o.path_tests_path, "path test file"); !st)
            return nav::Status::bad_input("--path-tests " + st.message);
        opts.path_tests = o.path_tests_path;
        if (o.path_test >= 0) opts.path_test = static_cast<size_t>(o.path_test);
    }
    for (const std::string& text : o.add_volume_texts) {
        // AREA:x,y,z:x,y,z:... (the area name is checked against the table once the config is read)
        const std::string what = "--add-volume '" + text + "'";
        std::stringstream ss(text);
        std::string item;
        AppOptions::CliVolume v;
        if (!std::getline(ss, v.area, ':') || v.area.empty())
            return nav::Status::bad_input(what + ": expected AREA:x,y,z:x,y,z:x,y,z (an area name first)");
        while (std::getline(ss, item, ':')) {
            std::vector<float> p;
            if (!parse_floats(item, p) || p.size() != 3)
                return nav::Status::bad_input(what + ": point " + std::to_string(v.pts.size() / 3) +
                                              ": expected three numbers x,y,z, got '" + item + "'");
            v.pts.insert(v.pts.end(), p.begin(), p.end());
        }
        std::vector<float> hull;
        if (const nav::Status st = nav::convex_hull_xz(v.pts, hull); !st) return nav::Status::bad_input(what + ": " + st.message);
        opts.add_volumes.push_back(std::move(v));
    }
    for (const std::string& text : o.move_volume_point_texts) {
        const std::string what = "--move-volume-point '" + text + "'";
        std::vector<std::string> parts;
        std::stringstream ss(text);
        for (std::string item; std::getline(ss, item, ':');) parts.push_back(item);
        std::vector<float> idx, xz;
        AppOptions::CliPointMove m;
        if (parts.size() != 3 || !parse_floats(parts[0] + "," + parts[1], idx) || idx.size() != 2 || idx[0] < 0 || idx[1] < 0 ||
            idx[0] != std::floor(idx[0]) || idx[1] != std::floor(idx[1]) || !parse_floats(parts[2], xz) || xz.size() != 2 ||
            !std::isfinite(xz[0]) || !std::isfinite(xz[1]))
            return nav::Status::bad_input(what + ": expected VOLUME:POINT:x,z (two indices from 0, then two finite numbers)");
        m.volume = static_cast<size_t>(idx[0]);
        m.point = static_cast<size_t>(idx[1]);
        m.x = xz[0];
        m.z = xz[1];
        opts.move_volume_points.push_back(m);
    }
    if (!o.tile_select_text.empty()) {
        std::vector<float> v;
        if (!parse_floats(o.tile_select_text, v) || v.size() != 2 || v[0] < 0 || v[1] < 0 || v[0] != std::floor(v[0]) ||
            v[1] != std::floor(v[1]))
            return nav::Status::bad_input("--tile-select: expected a column and a row X,Y (whole numbers from 0), got '" +
                                          o.tile_select_text + "'");
        opts.tile_select = std::make_pair(static_cast<int>(v[0]), static_cast<int>(v[1]));
    }
    opts.tile_only = o.tile_only;
    if (opts.tile_only && !opts.tile_select) return nav::Status::bad_input("--tile-only needs --tile-select X,Y");
    return nav::Status::ok();
}

// --opacity, --lift, --xray, --span-budget.
nav::Status resolve_draw(const CliOptions& o, AppOptions& opts) {
    if (!o.opacity_text.empty()) {
        std::stringstream ss(o.opacity_text);
        std::string item;
        while (std::getline(ss, item, ',')) {
            const size_t eq = item.find('=');
            const auto layer = eq == std::string::npos ? std::nullopt : nav::render::layer_from_name(item.substr(0, eq));
            if (!layer) {
                std::string names;
                for (std::string_view n : nav::render::kLayerNames) names += (names.empty() ? "" : ", ") + std::string(n);
                return nav::Status::bad_input("--opacity: '" + item + "': expected LAYER=F with LAYER one of: " + names);
            }
            std::vector<float> v;
            if (!parse_floats(item.substr(eq + 1), v) || v.size() != 1 || v[0] < 0.0f || v[0] > 1.0f)
                return nav::Status::bad_input("--opacity: '" + item + "': expected an opacity between 0 and 1");
            opts.draw.opacity[static_cast<size_t>(*layer)] = v[0];
        }
    }
    if (!std::isfinite(o.lift) || o.lift < 0.0f || o.lift > 10.0f)
        return nav::Status::bad_input("--lift: expected metres between 0 and 10, got " + std::to_string(o.lift));
    opts.draw.lift_step = o.lift;
    opts.draw.xray = o.xray;
    opts.draw.span_budget = o.span_budget;
    return nav::Status::ok();
}

// Seeing inside: the session's view and tile, then --cull, --hide-ceilings, --clip, --clip-floor,
// --section, --floor-tint, --floor-height.
nav::Status resolve_view(const CliOptions& o, const Session& session, AppOptions& opts) {
    if (session.view) opts.view = *session.view;
    if (session.tile_select && !opts.tile_select) opts.tile_select = session.tile_select, opts.tile_only = session.tile_only;
    for (auto [text, flag, dst] : {std::tuple{&o.cull_text, "--cull", &opts.view.cull},
                                   std::tuple{&o.ceilings_text, "--hide-ceilings", &opts.view.hide_ceilings}}) {
        if (text->empty()) continue;
        if (*text != "on" && *text != "off") return nav::Status::bad_input(std::string(flag) + ": expected on or off, got '" + *text + "'");
        *dst = *text == "on";
    }
    if (!o.clip_text.empty() && !o.clip_floor_text.empty())
        return nav::Status::bad_input("--clip and --clip-floor both set the height clip: give one");
    if (!o.clip_text.empty()) {
        std::vector<float> v;
        if (!parse_floats(o.clip_text, v) || v.size() != 2 || v[0] > v[1])
            return nav::Status::bad_input("--clip: expected two heights YMIN,YMAX with YMIN <= YMAX, got '" + o.clip_text + "'");
        opts.view.clip = std::make_pair(v[0], v[1]);
    }
    if (!o.clip_floor_text.empty()) {
        std::vector<float> v;
        if (!parse_floats(o.clip_floor_text, v) || v.size() != 3)
            return nav::Status::bad_input("--clip-floor: expected three numbers x,y,z, got '" + o.clip_floor_text + "'");
        opts.view.clip = floor_clip(v[1]);
    }
    if (!o.section_text.empty()) {
        std::vector<float> v;
        if (!parse_floats(o.section_text, v) || v.size() != 6)
            return nav::Status::bad_input("--section: expected six numbers px,py,pz,nx,ny,nz, got '" + o.section_text + "'");
        const glm::vec3 n(v[3], v[4], v[5]);
        if (glm::length(n) < 1e-6f) return nav::Status::bad_input("--section: the normal must not be zero");
        opts.view.section = std::make_pair(glm::vec3(v[0], v[1], v[2]), n);
    }
    if (o.floor_tint) opts.view.floor_tint = true, opts.view.floor_tint_auto = false;
    if (!o.floor_tint_auto_text.empty()) {
        if (o.floor_tint_auto_text != "on" && o.floor_tint_auto_text != "off")
            return nav::Status::bad_input("--floor-tint-auto: expected on or off, got '" + o.floor_tint_auto_text + "'");
        if (o.floor_tint && o.floor_tint_auto_text == "on")
            return nav::Status::bad_input("--floor-tint sets the tint on: give --floor-tint-auto on without it");
        if (o.floor_tint_auto_text == "off") opts.view.floor_tint_auto = false;
        else opts.view.floor_tint_auto = true;
    }
    if (o.floor_height_given) {
        if (!std::isfinite(o.floor_height) || o.floor_height < 0.5f || o.floor_height > 100.0f)
            return nav::Status::bad_input("--floor-height: expected metres between 0.5 and 100, got " + std::to_string(o.floor_height));
        opts.view.floor_height = o.floor_height;
    }
    return nav::Status::ok();
}

// --stress-report (needed with --stress-sliders), --stress-params.
nav::Status resolve_stress(const CliOptions& o, StressOptions& stress) {
    stress = o.stress;
    if (stress.moves > 0 && stress.report.empty())
        return nav::Status::bad_input("--stress-sliders: --stress-report OUT.json is required (where the report goes)");
    if (o.stress_params_given)
        if (nav::Status st = parse_stress_params(o.stress_params, stress.only); !st) return st;
    return nav::Status::ok();
}

// --size (screenshots), --camera, and the path tool: --path, --path-mode, --path-nodes,
// --funnel-step, --polyanya-step; the 2D map's --top-view, --wa-step, --cdt-step.
nav::Status resolve_camera_and_path(const CliOptions& o, StartOptions& out) {
    AppOptions& opts = out.app;
    if (o.screenshot()) {
        char x = 0;
        char extra = 0;
        if (std::sscanf(o.size_text.c_str(), "%d%c%d%c", &out.width, &x, &out.height, &extra) != 3 ||
            (x != 'x' && x != 'X') || out.width < 64 || out.height < 64 || out.width > 8192 || out.height > 8192)
            return nav::Status::bad_input("--size: expected WxH with 64..8192 pixels each, got '" + o.size_text + "'");
    }
    if (!o.camera_text.empty()) {
        std::vector<float> v;
        if (!parse_floats(o.camera_text, v) || v.size() != 6)
            return nav::Status::bad_input("--camera: expected six numbers ex,ey,ez,tx,ty,tz, got '" + o.camera_text + "'");
        const glm::vec3 eye(v[0], v[1], v[2]), target(v[3], v[4], v[5]);
        if (glm::length(target - eye) < 1e-6f) return nav::Status::bad_input("--camera: eye and target are the same point");
        opts.camera = std::make_pair(eye, target);
    }
    if (!o.path_text.empty()) {
        const size_t colon = o.path_text.find(':');
        std::vector<float> a, b;
        if (colon == std::string::npos || !parse_floats(o.path_text.substr(0, colon), a) || a.size() != 3 ||
            !parse_floats(o.path_text.substr(colon + 1), b) || b.size() != 3)
            return nav::Status::bad_input("--path: expected sx,sy,sz:ex,ey,ez (six numbers), got '" + o.path_text + "'");
        opts.path = std::make_pair(glm::vec3(a[0], a[1], a[2]), glm::vec3(b[0], b[1], b[2]));
        opts.layers[static_cast<size_t>(nav::render::Layer::Path)] = true;  // --path draws the path
    }
    if (!o.why_path_text.empty()) {
        const size_t colon = o.why_path_text.find(':');
        std::vector<float> a, b;
        if (colon == std::string::npos || !parse_floats(o.why_path_text.substr(0, colon), a) || a.size() != 3 ||
            !parse_floats(o.why_path_text.substr(colon + 1), b) || b.size() != 3)
            return nav::Status::bad_input("--why-path: expected sx,sy,sz:ex,ey,ez (six numbers), got '" + o.why_path_text + "'");
        opts.why_path = std::make_pair(glm::vec3(a[0], a[1], a[2]), glm::vec3(b[0], b[1], b[2]));
        opts.why.reset();
        opts.path = opts.why_path;  // the path tool shows the path that failed
        opts.layers[static_cast<size_t>(nav::render::Layer::Path)] = true;
    }
    {
        static const char* const kTools[] = {"path", "inspect", "prune", "clip", "section", "tile", "why", "obstacle", "volume", "link"};
        for (int k = 0; k < static_cast<int>(std::size(kTools)); ++k)
            if (o.tool == kTools[k]) opts.tool = k;  // Selection::Tool's order
    }
    if (o.path_mode == "path") opts.path_mode = PathTool::Mode::Path;
    else if (o.path_mode == "raycast") opts.path_mode = PathTool::Mode::Raycast;
    else if (o.path_mode == "wall") opts.path_mode = PathTool::Mode::Wall;
    else if (o.path_mode == "optimal") opts.optimal = true;  // the path with Polyanya's beside it
    else return nav::Status::bad_input("--path-mode: expected path, optimal, raycast or wall, got '" + o.path_mode + "'");
    opts.path_nodes = o.path_nodes;
    opts.agent_type = o.agent_type;
    if (!o.path_on_top_text.empty()) {
        if (o.path_on_top_text != "on" && o.path_on_top_text != "off")
            return nav::Status::bad_input("--path-on-top: expected on or off, got '" + o.path_on_top_text + "'");
        opts.path_on_top = o.path_on_top_text == "on";
    }
    opts.funnel_step = o.funnel_step;
    opts.top_view = o.top_view;
    opts.polyanya_step = o.polyanya_step;
    if (o.polyanya_step >= 0) opts.optimal = true;
    opts.wa_step = o.wa_step;
    opts.cdt_step = o.cdt_step;
    if (o.wa_step_given) opts.map2d_layers[static_cast<size_t>(Map2DLayer::WaStep)] = true;
    if (o.cdt_step_given) opts.map2d_layers[static_cast<size_t>(Map2DLayer::CdtStep)] = true;
    return nav::Status::ok();
}

// The window tests' hooks (tests/e2e/window_input.sh) and the key map: test only, except
// --print-shortcuts.
void add_window_test_flags(CLI::App& cli, CliOptions& o, CLI::Option* shot_opt) {
    cli.add_option("--test-frame-ms", o.test_frame_ms,
                   "test only: every frame of the window takes at least N ms (0..10000; it sleeps the rest), to "
                   "drive the window as a slow level would")
        ->check(CLI::Range(0, 10000))
        ->excludes(shot_opt);
    cli.add_option("--state-dump", o.state_dump_path,
                   "test only: after each frame in which it changed, write what the window shows (layers, camera, "
                   "path ends, mesh, the left panel's scroll, the Open dialog, obstacles, volumes, links, the tiles re-baked) "
                   "as JSON to FILE (replaced whole); with --screenshot once, for the frame saved");
    cli.add_flag("--print-shortcuts", o.print_shortcuts,
                 "print the keyboard shortcuts (the README's key map, the F1 list) as Markdown and exit");
}

}  // namespace

CliParse parse_cli(int argc, char** argv) {
    CLI::App cli{"navdebug: interactive debugger for the navkit bake pipeline"};
    CliOptions o;
    CLI::Option* shot_opt = add_scene_flags(cli, o);
    add_session_and_draw_flags(cli, o, shot_opt);
    add_view_and_test_flags(cli, o, shot_opt);
    add_view_cache_flags(cli, o, shot_opt);
    add_window_test_flags(cli, o, shot_opt);
    cli.footer(nav::params_help());
    try {
        cli.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return {std::nullopt, cli.exit(e)};
    } catch (const CLI::CallForAllHelp& e) {
        return {std::nullopt, cli.exit(e)};
    } catch (const CLI::ParseError& e) {
        cli.exit(e);
        return {std::nullopt, kExitBadInput};
    }
    o.draw_given = cli.count("--draw") > 0;
    o.wa_step_given = cli.count("--wa-step") > 0;
    o.cdt_step_given = cli.count("--cdt-step") > 0;
    o.floor_height_given = cli.count("--floor-height") > 0;
    o.stress_params_given = cli.count("--stress-params") > 0;
    return {std::move(o), 0};
}

nav::Status resolve_cli(const CliOptions& o, StartOptions& out) {
    out.app.headless = o.screenshot();
    if (nav::Status st = resolve_session_and_layers(o, out); !st) return st;
    if (nav::Status st = resolve_stage_and_picks(o, out.app); !st) return st;
    if (nav::Status st = resolve_draw(o, out.app); !st) return st;
    if (nav::Status st = resolve_view(o, out.session, out.app); !st) return st;
    if (nav::Status st = resolve_stress(o, out.stress); !st) return st;
    if (nav::Status st = check_bench_options(o.bench); !st) return st;
    out.bench = o.bench;
    return resolve_camera_and_path(o, out);
}

}  // namespace navdebug
