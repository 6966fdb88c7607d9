// navdebug: the interactive debugger window. Command line:
//   navdebug [MESH.obj | MAP.json | MAP.mesh] [--config FILE.json] [--set NAME=VALUE]... [--draw LAYERS]
//            [--path sx,sy,sz:ex,ey,ez [--path-nodes] [--funnel-step N] [--path-mode path|optimal|raycast|wall]]
//            [--screenshot OUT.png [--size WxH] [--camera ex,ey,ez,tx,ty,tz]]
//            [--session FILE.json] [--save-session FILE.json] [--stage NAME] [--replay KIND=STEP]
//            [--select x,y,z] [--prune x,y,z] [--opacity LAYER=F,...] [--xray] [--lift METRES] [--span-budget N]
//            [--diff-from-set NAME=VALUE]... [--max-memory MB]
//            [--cull on|off] [--hide-ceilings on|off] [--clip YMIN,YMAX | --clip-floor X,Y,Z]
//            [--section PX,PY,PZ,NX,NY,NZ] [--floor-tint [--floor-height M]] [--hold-bake N (test only)]
//            [--stress-sliders N [--seed S] [--stress-per-frame K] [--stress-late | --stress-params A,B,...]
//             [--stress-every-ms T] --stress-report OUT.json]
//            [--top-view] [--wa-step N] [--cdt-step N] (2D maps) [--polyanya-step N]
//            [--tile-select X,Y [--tile-only]] [--hold-tiles N (test only)]
// Exit codes: 0 success, 2 bad input or parameters, 1 no display or internal failure.
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include <CLI/CLI.hpp>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "app.h"
#include "session.h"
#include "stress.h"
#include "core/bake/params_json.h"
#include "core/bake/pipeline.h"
#include "log.h"
#include "render/layers.h"
#include "worker.h"

#ifndef NAV_SOURCE_DIR
#error "NAV_SOURCE_DIR must be defined by the build"
#endif

namespace {

using navdebug::App;

constexpr int kExitBadInput = 2;
constexpr int kExitNoDisplay = 1;

int fail(int code, const std::string& msg) {
    std::fprintf(stderr, "navdebug: %s\n", msg.c_str());
    return code;
}

// The message names the built binaries by their real paths and the demo mesh and config, so the
// commands run as printed.
void print_no_display(const char* why, const std::string& self) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path exe = fs::canonical("/proc/self/exe", ec);
    if (ec) exe = fs::absolute(self, ec);
    const fs::path navbake = exe.parent_path() / "navbake";
    const std::string bake = fs::exists(navbake, ec) ? navbake.string() : "navbake";
    const std::string demo = std::string(NAV_SOURCE_DIR) + "/assets/demo.obj";
    const std::string cfg = std::string(NAV_SOURCE_DIR) + "/assets/demo.json";
    std::fprintf(stderr,
                 "navdebug: no display available (%s).\n"
                 "  navdebug needs a window. Without a display:\n"
                 "    bake headless and print counts/timings:\n"
                 "      %s %s --config %s --json\n"
                 "    render what the debugger draws to a PNG (needs xvfb-run, package xvfb):\n"
                 "      xvfb-run -a %s %s --config %s --draw input,regions --screenshot out.png\n",
                 why, bake.c_str(), demo.c_str(), cfg.c_str(), exe.string().c_str(), demo.c_str(), cfg.c_str());
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

struct Window {
    GLFWwindow* win = nullptr;
    ~Window() {
        if (win) glfwDestroyWindow(win);
        glfwTerminate();
    }
};

// Offscreen target for screenshots: multisampled colour + depth, resolved into a plain FBO.
struct OffscreenTarget {
    GLuint ms_fbo = 0, ms_color = 0, ms_depth = 0, fbo = 0, color = 0;
    int w = 0, h = 0;
    bool create(int width, int height) {
        w = width;
        h = height;
        GLint max_samples = 0;
        glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
        const GLsizei samples = std::min(4, static_cast<int>(max_samples));
        glGenFramebuffers(1, &ms_fbo);
        glGenRenderbuffers(1, &ms_color);
        glGenRenderbuffers(1, &ms_depth);
        glBindRenderbuffer(GL_RENDERBUFFER, ms_color);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, w, h);
        glBindRenderbuffer(GL_RENDERBUFFER, ms_depth);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH24_STENCIL8, w, h);
        glBindFramebuffer(GL_FRAMEBUFFER, ms_fbo);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ms_color);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, ms_depth);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return false;
        glGenFramebuffers(1, &fbo);
        glGenRenderbuffers(1, &color);
        glBindRenderbuffer(GL_RENDERBUFFER, color);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
        const bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        return ok;
    }
    ~OffscreenTarget() {
        const GLuint fbos[2] = {ms_fbo, fbo};
        const GLuint rbs[3] = {ms_color, ms_depth, color};
        if (ms_fbo) glDeleteFramebuffers(2, fbos);
        if (ms_color) glDeleteRenderbuffers(3, rbs);
    }
    // Resolves and reads RGB rows top-down.
    std::vector<unsigned char> read_rgb() const {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, ms_fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
        glBlitFramebuffer(0, 0, w, h, 0, 0, w, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        std::vector<unsigned char> px(static_cast<size_t>(w) * h * 3);
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, px.data());
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        // GL rows go bottom-up, PNG rows top-down
        const size_t row = static_cast<size_t>(w) * 3;
        std::vector<unsigned char> tmp(row);
        for (int y = 0; y < h / 2; ++y) {
            unsigned char* a = px.data() + static_cast<size_t>(y) * row;
            unsigned char* b = px.data() + static_cast<size_t>(h - 1 - y) * row;
            std::copy(a, a + row, tmp.data());
            std::copy(b, b + row, a);
            std::copy(tmp.data(), tmp.data() + row, b);
        }
        return px;
    }
};

void drop_callback(GLFWwindow* w, int count, const char** paths) {
    if (auto* app = static_cast<App*>(glfwGetWindowUserPointer(w))) app->on_drop(count, paths);
}

void glfw_error(int code, const char* msg) { std::fprintf(stderr, "navdebug: GLFW error %d: %s\n", code, msg); }

}  // namespace

int main(int argc, char** argv) {
    // Memory freed on one thread is reused by the others. glibc gives each thread that allocates
    // its own arena: the bake's tile threads and the worker build the stage results and draw lists
    // there, the UI thread and llvmpipe allocate the GL copies in theirs, and what one arena freed
    // stayed resident beside what the others grew. One arena (small allocations still go through
    // each thread's cache): the large level tiled with every layer drawn peaked at 1.53 GiB with
    // the default arenas, 1.25 GiB with one, the bake no slower. Allocations of 1 MiB and more
    // go straight to mmap and back to the system when freed (the draw lists' parts of a few MiB).
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    CLI::App cli{"navdebug: interactive debugger for the navkit bake pipeline"};
    std::string mesh_path, config_path, draw = "input,regions", shot_path, size_text = "1280x800", camera_text, path_text;
    std::vector<std::string> sets;
    cli.add_option("mesh", mesh_path, "OBJ mesh, .json 2D map or Polyanya .mesh file to open (default: assets/demo.obj with assets/demo.json, as scripts/run.sh)");
    cli.add_option("--config", config_path, "JSON config: parameters by name and convex volumes");
    cli.add_option("--set", sets, "NAME=VALUE parameter override, repeatable (see below)");
    cli.add_option("--draw", draw, "comma list of layers to show: input,voxels,filtered,compact,eroded,areas,distance,regions,raw_contours,contours,polymesh,detail,navmesh,islands,path")
        ->capture_default_str();
    auto* shot_opt = cli.add_option("--screenshot", shot_path, "bake, render one frame with the UI into this PNG, exit");
    cli.add_option("--size", size_text, "screenshot size WxH")->capture_default_str()->needs(shot_opt);
    cli.add_option("--path", path_text, "path tool start and end: sx,sy,sz:ex,ey,ez (turns the path layer on)");
    bool path_nodes = false;
    int funnel_step = -1;
    cli.add_flag("--path-nodes", path_nodes, "path tool: colour the polygons A* closed / left open");
    cli.add_option("--funnel-step", funnel_step, "path tool: show the funnel stepper at this step (0 = first)")
        ->check(CLI::NonNegativeNumber);
    std::string path_mode = "path";
    cli.add_option("--path-mode", path_mode, "path tool mode: path, optimal (the path and Polyanya's optimal path, with their length ratio), raycast (start toward end) or wall (distance to wall around the start)")
        ->capture_default_str();
    bool top_view = false;
    int wa_step = 0, cdt_step = 0, polyanya_step = -1;
    cli.add_option("--polyanya-step", polyanya_step, "path tool: show Polyanya's search up to this expanded node (turns --path-mode optimal on)")
        ->check(CLI::NonNegativeNumber);
    cli.add_flag("--top-view", top_view, "2D mode: orthographic view from straight above (on by itself for .json maps and .mesh files)");
    cli.add_option("--wa-step", wa_step, "2D map: show the Weiler-Atherton trace at this step (turns the wa_step layer on; 0 = the split edges)")
        ->check(CLI::NonNegativeNumber);
    cli.add_option("--cdt-step", cdt_step, "2D map: show the triangulation after this CDT step (turns the cdt_step layer on)")
        ->check(CLI::NonNegativeNumber);
    cli.add_option("--camera", camera_text, "camera eye and target: ex,ey,ez,tx,ty,tz (default: frames the mesh)");
    std::string session_path, save_session_path, stage_text, replay_text, select_text, prune_text;
    cli.add_option("--session", session_path,
                   "open a session JSON (mesh, config, volumes, path, camera, layers); other flags override it");
    cli.add_option("--save-session", save_session_path, "after the screenshot, write the session as it is to this file")
        ->needs(shot_opt);
    cli.add_option("--stage", stage_text, "bake only through this stage: input,rasterize,filter,compact,erode,areas,distance,regions,contours,polymesh,detail,navmesh");
    cli.add_option("--replay", replay_text,
                   "show the region replay at a step index: KIND=STEP, KIND watershed, monotone or layers, STEP 0 = the "
                   "first flood level (watershed) or swept row (monotone, layers); the filter and merge steps follow");
    cli.add_option("--select", select_text, "pin the element at x,y,z in the inspector (top visible layer)");
    bool no_ui = false;
    cli.add_flag("--no-ui", no_ui, "start with the panels hidden (Tab shows them): the 3D view only");
    cli.add_option("--prune", prune_text, "keep only the navmesh reachable from the polygon at x,y,z; the rest is disabled");
    std::string opacity_text;
    float lift = 0.0f;
    bool xray = false;
    std::vector<std::string> diff_sets;
    double max_memory_mb = 4096.0;
    cli.add_option("--opacity", opacity_text, "per-layer opacity: LAYER=F[,LAYER=F]... with F in [0, 1]");
    cli.add_flag("--xray", xray, "x-ray edges: the layers' lines also drawn faint through the geometry");
    size_t span_budget = nav::render::LayerDrawOptions::kDefaultSpanBudget;
    cli.add_option("--span-budget", span_budget,
                   "span instances drawn at full detail per frame, shared by the span layers shown; the farther "
                   "chunks are drawn merged beyond it (0: no limit; default 1000000)")
        ->check(CLI::Range(size_t(0), size_t(1) << 32));
    cli.add_option("--lift", lift, "stack offset: each visible layer after the first drawn this many metres higher (0..10)");
    cli.add_option("--diff-from-set", diff_sets,
                   "bake first with NAME=VALUE (repeatable) applied, then with the final parameters, and highlight "
                   "what changed")
        ->needs(shot_opt);
    cli.add_option("--max-memory", max_memory_mb, "refuse grids estimated to need more than this many MiB (as navbake)")
        ->check(CLI::Range(1.0, 1048576.0))
        ->check(CLI::Validator([](std::string& v) { return std::isfinite(std::strtod(v.c_str(), nullptr)) ? std::string() : "expected a finite number of MiB"; }, "finite"));
    std::string cull_text, ceilings_text, clip_text, clip_floor_text, section_text;
    bool floor_tint = false;
    float floor_height = 3.0f;
    cli.add_option("--cull", cull_text, "input layer: back faces culled, on (default) or off");
    cli.add_option("--hide-ceilings", ceilings_text,
                   "input layer: faces pointing down hidden where the camera is above them, on (default) or off");
    cli.add_option("--clip", clip_text, "height clip: draw only between heights YMIN,YMAX (every layer)");
    cli.add_option("--clip-floor", clip_floor_text,
                   "clip to the floor at X,Y,Z: keep heights Y-0.3 .. Y+2.3 (as the floor click tool)");
    cli.add_option("--section", section_text,
                   "section plane through PX,PY,PZ with normal NX,NY,NZ: the side the normal points to is cut away");
    cli.add_flag("--floor-tint", floor_tint, "tint every layer by height band (one colour per floor)");
    cli.add_option("--floor-height", floor_height, "floor tint: height of one band in metres (0.5..100)")
        ->capture_default_str();
    int hold_bake = 0;
    cli.add_option("--hold-bake", hold_bake,
                   "test only: the bake worker stops before its N-th run (1 = the first bake, after the input is "
                   "shown) and the screenshot is taken while it waits: the progress view, or with --diff-from-set "
                   "and 2 the stale mark")
        ->check(CLI::Range(1, 1000))
        ->needs(shot_opt);
    std::string tile_select_text;
    cli.add_option("--tile-select", tile_select_text, "tiled bakes: select tile X,Y (column, row) in the Tile panel");
    bool tile_only = false;
    cli.add_flag("--tile-only", tile_only, "tiled bakes: draw the per-grid layers for the selected tile only");
    int hold_tiles = 0;
    cli.add_option("--hold-tiles", hold_tiles,
                   "test only: the first tiled bake stops once N tiles are done, and the screenshot is taken while "
                   "it waits (the bake half done, its progress shown)")
        ->check(CLI::Range(1, 1000000))
        ->needs(shot_opt);
    navdebug::StressOptions stress_opts;
    auto* stress_opt = cli.add_option("--stress-sliders", stress_opts.moves,
                                      "test mode: move N random sliders (1..100000), one per frame, then write "
                                      "--stress-report and exit")
                           ->check(CLI::Range(1, 100000))
                           ->excludes(shot_opt);
    cli.add_option("--seed", stress_opts.seed, "stress mode: random seed (same seed, same moves)")->needs(stress_opt);
    cli.add_option("--stress-per-frame", stress_opts.per_frame, "stress mode: sliders moved per frame (1..1000)")
        ->check(CLI::Range(1, 1000))
        ->needs(stress_opt);
    cli.add_flag("--stress-late", stress_opts.late,
                 "stress mode: move only the late-stage parameters (stage contours or later), to time how soon a "
                 "late change shows")
        ->needs(stress_opt);
    cli.add_option("--stress-every-ms", stress_opts.every_ms,
                   "stress mode: make the next move once the last move's result is shown (its bake and layers) or T ms "
                   "passed (0..600000; 0, the default: a move every frame)")
        ->check(CLI::Range(0.0, 600000.0))
        ->needs(stress_opt);
    std::string stress_params;
    cli.add_option("--stress-params", stress_params,
                   "stress mode: move only these parameters (comma list of names as in --set)")
        ->needs(stress_opt)
        ->excludes("--stress-late");
    cli.add_option("--stress-report", stress_opts.report,
                   "stress mode: JSON report (final config for navbake --config, counts per stage, RSS, wall time)")
        ->needs(stress_opt);
    cli.footer(nav::params_help());
    try {
        cli.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return cli.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return cli.exit(e);
    } catch (const CLI::ParseError& e) {
        cli.exit(e);
        return kExitBadInput;
    }
    const bool screenshot = !shot_path.empty();

    // ---- everything that can be checked without a window: exit 2 on bad input ----
    navdebug::AppOptions opts;
    opts.headless = screenshot;
    std::string err;
    // a session gives the defaults; flags given on the command line override its keys
    navdebug::Session session;
    if (!session_path.empty()) {
        const nav::Status st = navdebug::load_session_file(session_path, session);
        if (!st) return fail(kExitBadInput, st.message);
        opts.session_path = session_path;
    }
    // 2D maps: their own layers come out of the list first; a map opened without --draw shows
    // the navmesh with the input polygons
    if (navdebug::is_map2d_path(mesh_path) && cli.count("--draw") == 0) draw = "navmesh,map_input";
    navdebug::take_map2d_layers(draw, opts.map2d_layers);
    if (session.layers && cli.count("--draw") == 0) opts.layers = *session.layers;
    else if (draw.empty()) opts.layers.fill(false);
    else if (!nav::render::parse_layer_list(draw, opts.layers, err)) return fail(kExitBadInput, err);
    if (session.camera) opts.camera = session.camera;
    if (session.path) opts.path = session.path;
    if (session.mesh && mesh_path.empty()) mesh_path = *session.mesh;
    opts.hide_ui = no_ui;
    if (!stage_text.empty()) {
        bool found = false;
        for (int s = 0; s < nav::kStageCount; ++s)
            if (nav::kStageNames[static_cast<size_t>(s)] == stage_text) {
                opts.stage = static_cast<nav::Stage>(s);
                found = true;
            }
        if (!found) {
            std::string names;
            for (std::string_view n : nav::kStageNames) names += (names.empty() ? "" : ", ") + std::string(n);
            return fail(kExitBadInput, "--stage: unknown stage '" + stage_text + "' (expected one of: " + names + ")");
        }
    }
    if (!replay_text.empty()) {
        navdebug::RegionReplay probe;
        if (!probe.parse_flag(replay_text, err)) return fail(kExitBadInput, err);
        opts.replay = replay_text;
    }
    for (auto [text, flag, dst] : {std::tuple{&select_text, "--select", &opts.select}, std::tuple{&prune_text, "--prune", &opts.prune}}) {
        if (text->empty()) continue;
        std::vector<float> v;
        if (!parse_floats(*text, v) || v.size() != 3)
            return fail(kExitBadInput, std::string(flag) + ": expected three numbers x,y,z, got '" + *text + "'");
        *dst = glm::vec3(v[0], v[1], v[2]);
    }
    if (!tile_select_text.empty()) {
        std::vector<float> v;
        if (!parse_floats(tile_select_text, v) || v.size() != 2 || v[0] < 0 || v[1] < 0 || v[0] != std::floor(v[0]) ||
            v[1] != std::floor(v[1]))
            return fail(kExitBadInput, "--tile-select: expected a column and a row X,Y (whole numbers from 0), got '" +
                                           tile_select_text + "'");
        opts.tile_select = std::make_pair(static_cast<int>(v[0]), static_cast<int>(v[1]));
    }
    opts.tile_only = tile_only;
    if (opts.tile_only && !opts.tile_select) return fail(kExitBadInput, "--tile-only needs --tile-select X,Y");

    if (!opacity_text.empty()) {
        std::stringstream ss(opacity_text);
        std::string item;
        while (std::getline(ss, item, ',')) {
            const size_t eq = item.find('=');
            const auto layer = eq == std::string::npos ? std::nullopt : nav::render::layer_from_name(item.substr(0, eq));
            if (!layer) {
                std::string names;
                for (std::string_view n : nav::render::kLayerNames) names += (names.empty() ? "" : ", ") + std::string(n);
                return fail(kExitBadInput, "--opacity: '" + item + "': expected LAYER=F with LAYER one of: " + names);
            }
            std::vector<float> v;
            if (!parse_floats(item.substr(eq + 1), v) || v.size() != 1 || v[0] < 0.0f || v[0] > 1.0f)
                return fail(kExitBadInput, "--opacity: '" + item + "': expected an opacity between 0 and 1");
            opts.draw.opacity[static_cast<size_t>(*layer)] = v[0];
        }
    }
    if (!std::isfinite(lift) || lift < 0.0f || lift > 10.0f)
        return fail(kExitBadInput, "--lift: expected metres between 0 and 10, got " + std::to_string(lift));
    opts.draw.lift_step = lift;
    opts.draw.xray = xray;
    opts.draw.span_budget = span_budget;

    // seeing inside: the session's view, then the flags
    if (session.view) opts.view = *session.view;
    if (session.tile_select && !opts.tile_select) opts.tile_select = session.tile_select, opts.tile_only = session.tile_only;
    for (auto [text, flag, dst] : {std::tuple{&cull_text, "--cull", &opts.view.cull},
                                   std::tuple{&ceilings_text, "--hide-ceilings", &opts.view.hide_ceilings}}) {
        if (text->empty()) continue;
        if (*text != "on" && *text != "off") return fail(kExitBadInput, std::string(flag) + ": expected on or off, got '" + *text + "'");
        *dst = *text == "on";
    }
    if (!clip_text.empty() && !clip_floor_text.empty())
        return fail(kExitBadInput, "--clip and --clip-floor both set the height clip: give one");
    if (!clip_text.empty()) {
        std::vector<float> v;
        if (!parse_floats(clip_text, v) || v.size() != 2 || v[0] > v[1])
            return fail(kExitBadInput, "--clip: expected two heights YMIN,YMAX with YMIN <= YMAX, got '" + clip_text + "'");
        opts.view.clip = std::make_pair(v[0], v[1]);
    }
    if (!clip_floor_text.empty()) {
        std::vector<float> v;
        if (!parse_floats(clip_floor_text, v) || v.size() != 3)
            return fail(kExitBadInput, "--clip-floor: expected three numbers x,y,z, got '" + clip_floor_text + "'");
        opts.view.clip = navdebug::floor_clip(v[1]);
    }
    if (!section_text.empty()) {
        std::vector<float> v;
        if (!parse_floats(section_text, v) || v.size() != 6)
            return fail(kExitBadInput, "--section: expected six numbers px,py,pz,nx,ny,nz, got '" + section_text + "'");
        const glm::vec3 n(v[3], v[4], v[5]);
        if (glm::length(n) < 1e-6f) return fail(kExitBadInput, "--section: the normal must not be zero");
        opts.view.section = std::make_pair(glm::vec3(v[0], v[1], v[2]), n);
    }
    if (floor_tint) opts.view.floor_tint = true;
    if (cli.count("--floor-height")) {
        if (!std::isfinite(floor_height) || floor_height < 0.5f || floor_height > 100.0f)
            return fail(kExitBadInput, "--floor-height: expected metres between 0.5 and 100, got " + std::to_string(floor_height));
        opts.view.floor_height = floor_height;
    }
    if (stress_opts.moves > 0 && stress_opts.report.empty())
        return fail(kExitBadInput, "--stress-sliders: --stress-report OUT.json is required (where the report goes)");
    if (cli.count("--stress-params"))
        if (const nav::Status st = navdebug::parse_stress_params(stress_params, stress_opts.only); !st)
            return fail(kExitBadInput, st.message);

    int width = 1280, height = 800;
    if (screenshot) {
        char x = 0;
        char extra = 0;
        if (std::sscanf(size_text.c_str(), "%d%c%d%c", &width, &x, &height, &extra) != 3 || (x != 'x' && x != 'X') ||
            width < 64 || height < 64 || width > 8192 || height > 8192)
            return fail(kExitBadInput, "--size: expected WxH with 64..8192 pixels each, got '" + size_text + "'");
    }
    if (!camera_text.empty()) {
        std::vector<float> v;
        if (!parse_floats(camera_text, v) || v.size() != 6)
            return fail(kExitBadInput, "--camera: expected six numbers ex,ey,ez,tx,ty,tz, got '" + camera_text + "'");
        const glm::vec3 eye(v[0], v[1], v[2]), target(v[3], v[4], v[5]);
        if (glm::length(target - eye) < 1e-6f) return fail(kExitBadInput, "--camera: eye and target are the same point");
        opts.camera = std::make_pair(eye, target);
    }

    if (!path_text.empty()) {
        const size_t colon = path_text.find(':');
        std::vector<float> a, b;
        if (colon == std::string::npos || !parse_floats(path_text.substr(0, colon), a) || a.size() != 3 ||
            !parse_floats(path_text.substr(colon + 1), b) || b.size() != 3)
            return fail(kExitBadInput, "--path: expected sx,sy,sz:ex,ey,ez (six numbers), got '" + path_text + "'");
        opts.path = std::make_pair(glm::vec3(a[0], a[1], a[2]), glm::vec3(b[0], b[1], b[2]));
        opts.layers[static_cast<size_t>(nav::render::Layer::Path)] = true;  // --path draws the path
    }
    if (path_mode == "path") opts.path_mode = navdebug::PathTool::Mode::Path;
    else if (path_mode == "raycast") opts.path_mode = navdebug::PathTool::Mode::Raycast;
    else if (path_mode == "wall") opts.path_mode = navdebug::PathTool::Mode::Wall;
    else if (path_mode == "optimal") opts.optimal = true;  // the path with Polyanya's beside it
    else return fail(kExitBadInput, "--path-mode: expected path, optimal, raycast or wall, got '" + path_mode + "'");
    opts.path_nodes = path_nodes;
    opts.funnel_step = funnel_step;
    opts.top_view = top_view;
    opts.polyanya_step = polyanya_step;
    if (polyanya_step >= 0) opts.optimal = true;
    opts.wa_step = wa_step;
    opts.cdt_step = cdt_step;
    if (cli.count("--wa-step")) opts.map2d_layers[static_cast<size_t>(navdebug::Map2DLayer::WaStep)] = true;
    if (cli.count("--cdt-step")) opts.map2d_layers[static_cast<size_t>(navdebug::Map2DLayer::CdtStep)] = true;

    navdebug::Log log;
    log.set_echo(screenshot);
    auto pipeline = std::make_unique<nav::Pipeline>();
    nav::Params params;
    std::vector<nav::ConvexVolume> volumes;
    if (session.has_config) {
        params = session.params;
        volumes = session.volumes;
    }
    // plain `navdebug` opens the demo as scripts/run.sh does: demo.obj with demo.json
    if (mesh_path.empty() && config_path.empty() && !session.has_config) {
        const std::string def_cfg = std::string(NAV_SOURCE_DIR) + "/assets/demo.json";
        if (std::filesystem::exists(std::string(NAV_SOURCE_DIR) + "/assets/demo.obj") && std::filesystem::exists(def_cfg))
            config_path = def_cfg;
    }
    if (!config_path.empty()) {
        const nav::Status st = nav::load_config_file(config_path, params, volumes);
        if (!st) return fail(kExitBadInput, st.message);
        log.info("loaded config " + config_path);
    }
    if (const nav::Status st = nav::apply_assignments("--set", sets, params); !st) return fail(kExitBadInput, st.message);
    // --diff-from-set: the parameters of the first of the two bakes
    nav::Params first_params = params;
    if (const nav::Status st = nav::apply_assignments("--diff-from-set", diff_sets, first_params); !st)
        return fail(kExitBadInput, st.message);
    opts.highlight_changes = !diff_sets.empty();
    pipeline->set_params(params);
    pipeline->set_volumes(volumes);
    pipeline->set_memory_limit(static_cast<uint64_t>(max_memory_mb * 1024.0 * 1024.0));

    if (mesh_path.empty()) {
        const std::string def = std::string(NAV_SOURCE_DIR) + "/assets/demo.obj";
        if (std::filesystem::exists(def)) mesh_path = def;
        else if (screenshot)
            return fail(kExitBadInput, "no mesh given and the default " + def + " does not exist; pass MESH.obj");
        else
            log.warn("no mesh: " + def + " does not exist; open one with the Files panel or drop it on the window");
    }
    if (navdebug::is_map2d_path(mesh_path)) {  // a 2D map: built here, no bake worker run
        auto scene = std::make_shared<navdebug::Map2DScene>();
        if (const nav::Status st = navdebug::load_map2d_scene(mesh_path, params, *scene); !st)
            return fail(st.code == nav::Status::Code::BadInput ? kExitBadInput : 1, st.message);
        log.info("opened 2D " + std::string(scene->is_map ? "map " : "mesh ") + mesh_path + " (" +
                 std::to_string(scene->mesh.npolys()) + " polygons)");
        opts.map2d = std::move(scene);
    } else if (!mesh_path.empty()) {
        const nav::Status st = pipeline->load_mesh(mesh_path);
        if (!st) return fail(kExitBadInput, st.message);
        log.info("opened " + mesh_path);
    }
    opts.mesh_path = mesh_path;
    opts.config_path = config_path;

    // ---- window ----
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((!display || !*display) && (!wayland || !*wayland)) {
        print_no_display("DISPLAY is not set", argv[0]);
        return kExitNoDisplay;
    }
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) {
        print_no_display("glfwInit failed", argv[0]);
        return kExitNoDisplay;
    }
    Window window;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    if (screenshot) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    else glfwWindowHint(GLFW_SAMPLES, 4);
    window.win = glfwCreateWindow(width, height, "navdebug", nullptr, nullptr);
    if (!window.win) {
        print_no_display("cannot create an OpenGL 3.3 core window", argv[0]);
        return kExitNoDisplay;
    }
    glfwMakeContextCurrent(window.win);
    if (!gladLoadGL(glfwGetProcAddress)) return fail(1, "cannot load OpenGL 3.3 functions (gladLoadGL failed)");
    glfwSwapInterval(screenshot || stress_opts.moves > 0 ? 0 : 1);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    // the panels' widths (they are resizable) are kept in $XDG_CONFIG_HOME/navdebug/imgui.ini (or
    // ~/.config/...) between interactive runs; screenshots and stress runs use the defaults
    static std::string ini_path;
    io.IniFilename = nullptr;
    if (!screenshot && stress_opts.moves == 0) {
        const char* xdg = std::getenv("XDG_CONFIG_HOME");
        const char* home = std::getenv("HOME");
        std::filesystem::path dir = xdg && *xdg ? std::filesystem::path(xdg) : home && *home ? std::filesystem::path(home) / ".config"
                                                                                          : std::filesystem::path();
        std::error_code ec;
        if (!dir.empty()) {
            std::filesystem::create_directories(dir / "navdebug", ec);
            if (!ec) {
                ini_path = (dir / "navdebug" / "imgui.ini").string();
                io.IniFilename = ini_path.c_str();
            }
        }
    }
    ImGui::StyleColorsDark();
    ImGuiStyle& style = ImGui::GetStyle();
    style.WindowRounding = 0.0f;
    style.FrameRounding = 3.0f;
    style.GrabRounding = 3.0f;
    style.WindowBorderSize = 0.0f;
    ImGui_ImplGlfw_InitForOpenGL(window.win, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");

    int exit_code = 0;
    {
        navdebug::BakeWorker worker(std::move(pipeline), log);
        worker.set_wake([] { glfwPostEmptyEvent(); });
        App app(worker, log, params, volumes, opts);
        if (!app.init_gl(err)) {
            ImGui_ImplOpenGL3_Shutdown();
            ImGui_ImplGlfw_Shutdown();
            ImGui::DestroyContext();
            return fail(1, err);
        }
        glfwSetWindowUserPointer(window.win, &app);
        glfwSetDropCallback(window.win, drop_callback);
        worker.set_region_trace(!opts.replay.empty());
        if (hold_bake > 0) worker.hold_before_run(hold_bake);
        if (hold_tiles > 0) worker.hold_after_tiles(hold_tiles);
        worker.start();
        // --hold-bake, --hold-tiles: settle where the worker stops instead of when it is done
        auto settle = [&] {
            if (hold_bake > 0 || hold_tiles > 0) worker.wait_held_or_idle();
            else worker.wait_idle();
        };
        if (opts.map2d) {}  // nothing to bake
        else if (!diff_sets.empty()) worker.request(first_params, volumes, opts.stage.value_or(nav::kLastStage));
        else worker.request(params, volumes, opts.stage.value_or(nav::kLastStage));

        if (screenshot) {
            app.set_layer_upload_budget(0.0);  // the frames saved draw every layer whole
            if (!opts.map2d) settle();
            const auto bake = worker.latest();
            if (bake && !bake->error.is_ok()) {
                exit_code = bake->error.code == nav::Status::Code::BadInput ? kExitBadInput : 1;
                std::fprintf(stderr, "navdebug: bake failed: %s\n", bake->error.message.c_str());
            }
            OffscreenTarget target;
            if (!target.create(width, height)) {
                exit_code = 1;
                std::fprintf(stderr, "navdebug: cannot create a %dx%d offscreen framebuffer\n", width, height);
            } else {
                auto offscreen_frame = [&] {
                    glfwPollEvents();
                    ImGui_ImplOpenGL3_NewFrame();
                    ImGui_ImplGlfw_NewFrame();
                    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
                    io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
                    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
                    ImGui::NewFrame();
                    app.frame(window.win, static_cast<float>(width), static_cast<float>(height), 1.0f / 60.0f);
                    ImGui::Render();
                    glBindFramebuffer(GL_FRAMEBUFFER, target.ms_fbo);
                    app.render_scene(width, height);
                    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
                    glBindFramebuffer(GL_FRAMEBUFFER, 0);
                };
                if (!diff_sets.empty()) {
                    // the app sees the first bake, then the final one arrives and is compared with it
                    offscreen_frame();
                    worker.request(params, volumes, opts.stage.value_or(nav::kLastStage));
                    settle();
                    const auto final_bake = worker.latest();
                    exit_code = 0;  // the screenshot shows the final bake; its failure is what counts
                    if (final_bake && !final_bake->error.is_ok()) {
                        exit_code = final_bake->error.code == nav::Status::Code::BadInput ? kExitBadInput : 1;
                        std::fprintf(stderr, "navdebug: bake failed: %s\n", final_bake->error.message.c_str());
                    }
                }
                // a few frames so ImGui lays its windows out; the last one is saved
                for (int f = 0; f < 4; ++f) offscreen_frame();
                const std::vector<unsigned char> px = target.read_rgb();
                stbi_write_force_png_filter = 0;  // plain rows: smaller decoders in tests stay simple
                if (!stbi_write_png(shot_path.c_str(), width, height, 3, px.data(), width * 3)) {
                    exit_code = 1;
                    std::fprintf(stderr, "navdebug: cannot write %s\n", shot_path.c_str());
                } else {
                    std::printf("navdebug: wrote %s (%dx%d)\n", shot_path.c_str(), width, height);
                }
                worker.release_hold();
                if (!save_session_path.empty()) {
                    if (app.save_session(save_session_path, err)) {
                        std::printf("navdebug: wrote %s\n", save_session_path.c_str());
                    } else {
                        exit_code = 1;
                        std::fprintf(stderr, "navdebug: %s\n", err.c_str());
                    }
                }
            }
        } else {
            std::optional<navdebug::StressRun> stress;
            if (stress_opts.moves > 0) stress.emplace(stress_opts);
            double last = glfwGetTime();
            while (!glfwWindowShouldClose(window.win)) {
                if (stress || app.animating()) glfwPollEvents();
                else glfwWaitEventsTimeout(0.25);
                if (stress && stress->before_frame(app)) {
                    exit_code = stress->exit_code();
                    break;
                }
                const double now = glfwGetTime();
                const float dt = static_cast<float>(now - last);
                last = now;
                ImGui_ImplOpenGL3_NewFrame();
                ImGui_ImplGlfw_NewFrame();
                ImGui::NewFrame();
                int ww = 0, wh = 0, fw = 0, fh = 0;
                glfwGetWindowSize(window.win, &ww, &wh);
                glfwGetFramebufferSize(window.win, &fw, &fh);
                app.frame(window.win, static_cast<float>(std::max(ww, 1)), static_cast<float>(std::max(wh, 1)), dt);
                ImGui::Render();
                if (fw > 0 && fh > 0) {
                    app.render_scene(fw, fh);
                    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
                }
                glfwSwapBuffers(window.win);
            }
        }
        glfwSetWindowUserPointer(window.win, nullptr);
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    return exit_code;
}
