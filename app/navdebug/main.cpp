// navdebug: the interactive debugger window. The command line (every flag, and what each is
// checked against) is cli.h; this file opens the window and runs it: a screenshot (--screenshot),
// the stress mode (--stress-sliders) or the interactive loop.
// Exit codes: 0 success, 2 bad input or parameters, 1 no display or internal failure.
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app.h"
#include "assets_dir.h"
#include "bench.h"
#include "cli.h"
#include "input_queue.h"
#include "shortcuts.h"
#include "session.h"
#include "stress.h"
#include "core/formats/params_json.h"
#include "core/pipeline/pipeline.h"
#include "core/io/file.h"
#include "log.h"
#include "render/layers.h"
#include "worker.h"


namespace {

using navdebug::App;
using navdebug::assets_dir;
using navdebug::kExitBadInput;
using navdebug::kExitNoDisplay;

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
    const std::string demo = assets_dir() + "/demo.obj";
    const std::string cfg = assets_dir() + "/demo.json";
    std::fprintf(stderr,
                 "navdebug: no display available (%s).\n"
                 "  navdebug needs a window. Without a display:\n"
                 "    bake headless and print counts/timings:\n"
                 "      %s %s --config %s --json\n"
                 "    render what the debugger draws to a PNG (needs xvfb-run, package xvfb):\n"
                 "      xvfb-run -a %s %s --config %s --draw input,regions --screenshot out.png\n",
                 why, bake.c_str(), demo.c_str(), cfg.c_str(), exe.string().c_str(), demo.c_str(), cfg.c_str());
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

// ---- the inputs: config, parameters, mesh -------------------------------------------------------

// What the first bake starts from.
struct FirstBake {
    std::unique_ptr<navdebug::BakeWorker> worker;  // its pipeline has the first mesh and inputs
    nav::BakeInputs inputs;    // the session's, the config's, --set; the prune point: --prune, else the config's
    nav::Params first_params;  // --diff-from-set: the parameters of the first of the two bakes
};

// The session's config, then --config (plain `navdebug`: the demo's, as scripts/run.sh opens it),
// --set, --diff-from-set; then the mesh or 2D map. Fills start.app's mesh_path, config_path,
// highlight_changes and map2d. nullopt to go on, else the exit code (the message printed).
std::optional<int> load_inputs(const navdebug::CliOptions& cli, navdebug::StartOptions& start, navdebug::Log& log,
                               FirstBake& in) {
    navdebug::AppOptions& opts = start.app;
    const navdebug::Session& session = start.session;
    std::string mesh_path = opts.mesh_path, config_path = opts.config_path;
    if (session.has_config) in.inputs = session.inputs;
    // plain `navdebug` opens the demo as scripts/run.sh does: demo.obj with demo.json
    if (mesh_path.empty() && config_path.empty() && !session.has_config) {
        const std::string def_cfg = assets_dir() + "/demo.json";
        if (std::filesystem::exists(assets_dir() + "/demo.obj") && std::filesystem::exists(def_cfg))
            config_path = def_cfg;
    }
    if (!config_path.empty()) {
        const nav::Status st = nav::load_config_file(config_path, in.inputs);
        if (!st) return fail(kExitBadInput, st.message);
        log.info("loaded config " + config_path);
    }
    for (const navdebug::AppOptions::CliVolume& v : opts.add_volumes) {
        uint8_t id = 0;
        if (!in.inputs.areas.id_of(v.area, id))
            return fail(kExitBadInput, "--add-volume: unknown area '" + v.area + "' (expected " + in.inputs.areas.names() +
                                           " or not_walkable)");
    }
    {
        // --move-volume-point: the volume and its point must exist once the --add-volume ones are in
        std::vector<size_t> npoints;
        for (const nav::ConvexVolume& v : in.inputs.volumes) npoints.push_back(v.verts.size() / 3);
        for (const navdebug::AppOptions::CliVolume& v : opts.add_volumes) {
            std::vector<float> hull;
            npoints.push_back(nav::convex_hull_xz(v.pts, hull) ? hull.size() / 3 : 0);
        }
        for (const navdebug::AppOptions::CliPointMove& m : opts.move_volume_points) {
            const std::string what = "--move-volume-point " + std::to_string(m.volume) + ":" + std::to_string(m.point);
            if (m.volume >= npoints.size())
                return fail(kExitBadInput, what + ": no volume " + std::to_string(m.volume) + " (there are " +
                                               std::to_string(npoints.size()) + ": the config's, then --add-volume's)");
            if (m.point >= npoints[m.volume])
                return fail(kExitBadInput, what + ": volume " + std::to_string(m.volume) + " has " +
                                               std::to_string(npoints[m.volume]) + " hull points");
        }
    }
    if (const nav::Status st = nav::apply_assignments("--set", cli.sets, in.inputs.params); !st)
        return fail(kExitBadInput, st.message);
    in.first_params = in.inputs.params;
    if (const nav::Status st = nav::apply_assignments("--diff-from-set", cli.diff_sets, in.first_params); !st)
        return fail(kExitBadInput, st.message);
    opts.highlight_changes = !cli.diff_sets.empty();
    if (!opts.prune && in.inputs.prune)
        opts.prune = glm::vec3((*in.inputs.prune)[0], (*in.inputs.prune)[1], (*in.inputs.prune)[2]);
    if (opts.prune) in.inputs.prune = std::array<float, 3>{opts.prune->x, opts.prune->y, opts.prune->z};
    nav::PipelineDef def = nav::default_pipeline_def();
    def.memory_limit = static_cast<uint64_t>(cli.max_memory_mb * 1024.0 * 1024.0);
    in.worker = std::make_unique<navdebug::BakeWorker>(log, std::move(def));
    if (const nav::Status st = in.worker->pipeline().set_inputs(in.inputs); !st) return fail(kExitBadInput, st.message);

    if (mesh_path.empty()) {
        const std::string def = assets_dir() + "/demo.obj";
        if (std::filesystem::exists(def)) mesh_path = def;
        else if (cli.screenshot())
            return fail(kExitBadInput, "no mesh given and the default " + def + " does not exist; pass MESH.obj");
        else
            log.warn("no mesh: " + def + " does not exist; open one with the Files panel or drop it on the window");
    }
    if (navdebug::opens_without_bake(mesh_path)) {  // a 2D map or a Detour file: built here, no bake worker run
        auto scene = std::make_shared<navdebug::Map2DScene>();
        if (const nav::Status st = navdebug::load_map2d_scene(mesh_path, in.inputs.params, *scene); !st)
            return fail(st.code == nav::Status::Code::BadInput ? kExitBadInput : 1, st.message);
        log.info("opened " + std::string(scene->detour ? "Detour navmesh " : scene->is_map ? "2D map " : "2D mesh ") + mesh_path + " (" +
                 std::to_string(scene->bake->navmesh->npolys) + " polygons)");
        opts.map2d = std::move(scene);
    } else if (!mesh_path.empty()) {
        const nav::Status st = in.worker->pipeline().load_mesh(mesh_path);
        if (!st) return fail(kExitBadInput, st.message);
        log.info("opened " + mesh_path);
    }
    opts.mesh_path = mesh_path;
    opts.config_path = config_path;
    return std::nullopt;
}

// ---- the window --------------------------------------------------------------------------------

// A display, GLFW, an OpenGL 3.3 core window (hidden for screenshots) and its functions. nullopt
// when the window is up, else the exit code (the message printed: no display is exit 1).
// view_cache: the scene is drawn into the view's own multisampled framebuffer and blitted onto
// the window's, which must then be single sampled.
std::optional<int> open_window(Window& window, int width, int height, bool screenshot, bool stress, bool view_cache,
                               const char* self) {
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((!display || !*display) && (!wayland || !*wayland)) {
        print_no_display("DISPLAY is not set", self);
        return kExitNoDisplay;
    }
    glfwSetErrorCallback(glfw_error);
    if (!glfwInit()) {
        print_no_display("glfwInit failed", self);
        return kExitNoDisplay;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    if (screenshot) glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    else glfwWindowHint(GLFW_SAMPLES, view_cache ? 0 : 4);
    window.win = glfwCreateWindow(width, height, "navdebug", nullptr, nullptr);
    if (!window.win) {
        print_no_display("cannot create an OpenGL 3.3 core window", self);
        return kExitNoDisplay;
    }
    glfwMakeContextCurrent(window.win);
    if (!gladLoadGL(glfwGetProcAddress)) return fail(1, "cannot load OpenGL 3.3 functions (gladLoadGL failed)");
    glfwSwapInterval(screenshot || stress ? 0 : 1);
    return std::nullopt;
}

// ImGui on the window. keep_layout: the panels' widths (they are resizable) are kept in
// $XDG_CONFIG_HOME/navdebug/imgui.ini (or ~/.config/...) between interactive runs; screenshots and
// stress runs use the defaults.
void init_imgui(GLFWwindow* win, bool keep_layout) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    static std::string ini_path;  // ImGui keeps the pointer
    io.IniFilename = nullptr;
    if (keep_layout) {
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
    // no backend callbacks: the input queue (input_queue.h) takes GLFW's events and feeds io
    ImGui_ImplGlfw_InitForOpenGL(win, false);
    ImGui_ImplOpenGL3_Init("#version 330 core");
}

void shutdown_imgui() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
}

// ---- running -----------------------------------------------------------------------------------

// Waits for the bake: until it is done, or with --hold-bake / --hold-tiles until the worker stops
// where it was told to.
void settle(navdebug::BakeWorker& worker, const navdebug::CliOptions& cli) {
    if (cli.hold_bake > 0 || cli.hold_tiles > 0) worker.wait_held_or_idle();
    else worker.wait_idle();
}

// The exit code a failed bake gives (0 when it did not fail), printed.
int bake_exit_code(const std::shared_ptr<const nav::Bake>& bake) {
    if (!bake || bake->error.is_ok()) return 0;
    std::fprintf(stderr, "navdebug: bake failed: %s\n", bake->error.message.c_str());
    return bake->error.code == nav::Status::Code::BadInput ? kExitBadInput : 1;
}

// --screenshot: waits for the bake (with --diff-from-set the second one too), renders a few frames
// offscreen, writes the last as a PNG, then --save-session.
int take_screenshot(App& app, navdebug::BakeWorker& worker, GLFWwindow* win, const navdebug::CliOptions& cli,
                    const navdebug::StartOptions& start, const FirstBake& in) {
    const navdebug::AppOptions& opts = start.app;
    const int width = start.width, height = start.height;
    app.set_layer_upload_budget(0.0);  // the frames saved draw every layer whole
    if (!opts.map2d) settle(worker, cli);
    int exit_code = bake_exit_code(worker.latest());
    OffscreenTarget target;
    if (!target.create(width, height)) {
        std::fprintf(stderr, "navdebug: cannot create a %dx%d offscreen framebuffer\n", width, height);
        return 1;
    }
    ImGuiIO& io = ImGui::GetIO();
    auto offscreen_frame = [&] {
        glfwPollEvents();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
        io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
        io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
        ImGui::NewFrame();
        app.frame(win, static_cast<float>(width), static_cast<float>(height), 1.0f / 60.0f);
        ImGui::Render();
        glBindFramebuffer(GL_FRAMEBUFFER, target.ms_fbo);
        app.render_scene(width, height);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
    };
    if (!cli.diff_sets.empty()) {
        // the app sees the first bake, then the final one arrives and is compared with it
        offscreen_frame();
        worker.request(in.inputs, opts.stage.value_or(nav::kLastStage));
        settle(worker, cli);
        exit_code = bake_exit_code(worker.latest());  // the screenshot shows the final bake: its failure counts
    }
    if (!cli.then_open.empty()) {
        // --then-open: the app takes the first bake (and the picks made on it), then the second
        // level is dropped on the window; frames until its own settings' bake is drawn
        offscreen_frame();
        const char* drop[1] = {cli.then_open.c_str()};
        app.on_drop(1, drop);
        for (int f = 0; f < 20 && (f == 0 || !app.settled()); ++f) {
            offscreen_frame();
            settle(worker, cli);
        }
        exit_code = bake_exit_code(worker.latest());
    }
    // --why / --why-path: a frame tells the story on the bake and asks the worker for the fix (or
    // the path's explanation); the frames saved show its answer
    if (opts.why || opts.why_path) {
        offscreen_frame();
        for (int tries = 0; tries < 3 && app.why_waiting(); ++tries) {
            worker.wait_idle();
            offscreen_frame();
        }
    }
    // --add-volume: the tool places the volumes on the first bake (a frame), the next frame asks
    // the worker for the bake with them (only the tiles they touch when tiled)
    if (app.cli_volumes_pending()) {
        for (int f = 0; f < 10 && app.cli_volumes_pending(); ++f) {
            offscreen_frame();
            settle(worker, cli);
        }
        offscreen_frame();
        settle(worker, cli);
        exit_code = std::max(exit_code, bake_exit_code(worker.latest()));
    }
    // a few frames so ImGui lays its windows out; the last one is saved
    for (int f = 0; f < 4; ++f) {
        offscreen_frame();
        if (app.scene_prune_waiting()) worker.wait_idle();  // a 2D map's prune, made by the worker
    }
    if (!cli.state_dump_path.empty()) {  // --state-dump with --screenshot: the state of the frame saved
        if (const nav::Status st = nav::write_output_file(cli.state_dump_path, app.state_json() + "\n"); !st) {
            std::fprintf(stderr, "navdebug: --state-dump: %s\n", st.message.c_str());
            exit_code = 1;
        }
    }
    const std::vector<unsigned char> px = target.read_rgb();
    stbi_write_force_png_filter = 0;  // plain rows: smaller decoders in tests stay simple
    // encoded in memory, then through nav::OutputFile: a failed write leaves no half PNG
    std::string png;
    const auto append = [](void* ctx, void* data, int size) {
        static_cast<std::string*>(ctx)->append(static_cast<const char*>(data), static_cast<size_t>(size));
    };
    const nav::Status written = stbi_write_png_to_func(append, &png, width, height, 3, px.data(), width * 3)
                                    ? nav::write_output_file(cli.shot_path, png)
                                    : nav::Status::bad_input(cli.shot_path + ": cannot encode the PNG");
    if (!written) {
        exit_code = 1;
        std::fprintf(stderr, "navdebug: cannot write %s\n", written.message.c_str());
    } else {
        std::printf("navdebug: wrote %s (%dx%d)\n", cli.shot_path.c_str(), width, height);
    }
    if (!cli.state_dump_path.empty())  // --state-dump: what the screenshot shows, once
        if (const nav::Status st = nav::write_output_file(cli.state_dump_path, app.state_json() + "\n"); !st) {
            exit_code = 1;
            std::fprintf(stderr, "navdebug: --state-dump: %s\n", st.message.c_str());
        }
    worker.release_hold();
    if (!cli.save_session_path.empty()) {
        std::string err;
        if (app.save_session(cli.save_session_path, err)) {
            std::printf("navdebug: wrote %s\n", cli.save_session_path.c_str());
        } else {
            exit_code = 1;
            std::fprintf(stderr, "navdebug: %s\n", err.c_str());
        }
    }
    if (!cli.save_navmesh_path.empty()) {
        if (app.wait_export(app.save_navmesh(cli.save_navmesh_path))) std::printf("navdebug: wrote %s\n", cli.save_navmesh_path.c_str());
        else exit_code = 1;  // the reason is in the log (stderr)
    }
    if (!cli.export_gltf_path.empty()) {
        if (app.wait_export(app.export_gltf(cli.export_gltf_path))) std::printf("navdebug: wrote %s\n", cli.export_gltf_path.c_str());
        else exit_code = 1;  // the reason is in the log (stderr)
    }
    return exit_code;
}

// ---- test hooks (test only: --test-frame-ms, --state-dump; tests/e2e/window_input.sh) ----

// --state-dump: the window's state (App::state_json) written whole after each frame that changed it.
struct StateDump {
    std::string path, last;
    void after_frame(const App& app) {
        if (path.empty()) return;
        std::string now = app.state_json();
        if (now == last) return;
        if (const nav::Status st = nav::write_output_file(path, now + "\n"); !st) {
            std::fprintf(stderr, "navdebug: --state-dump: %s\n", st.message.c_str());
            return;
        }
        last = std::move(now);
    }
};

// --test-frame-ms: the frame begun at `frame_start` (glfwGetTime) sleeps until it has taken `ms`.
void pad_frame(double frame_start, int ms) {
    if (ms <= 0) return;
    const double left = ms / 1000.0 - (glfwGetTime() - frame_start);
    if (left > 0) std::this_thread::sleep_for(std::chrono::duration<double>(left));
}

// The window's loop until it is closed, or until the stress run (--stress-sliders) or the panel
// benchmark (--bench-frames) is done.
// Input goes through the queue: every GLFW event applied in order, at most one change per key and
// button a frame (input_queue.h); while events wait, the loop does not sleep.
int run_interactive(App& app, GLFWwindow* win, const navdebug::StressOptions& stress_opts,
                    const navdebug::BenchOptions& bench_opts, const navdebug::CliOptions& cli) {
    std::optional<navdebug::StressRun> stress;
    if (stress_opts.moves > 0) stress.emplace(stress_opts);
    std::optional<navdebug::BenchRun> bench;
    if (bench_opts.frames > 0) bench.emplace(bench_opts);
    navdebug::InputQueue queue;
    queue.install(win);
    StateDump dump{cli.state_dump_path, {}};
    double last = glfwGetTime();
    while (!glfwWindowShouldClose(win)) {
        const double frame_start = glfwGetTime();
        // --test-frame-ms: frames one after another, as while a slow level's view moves
        const bool poll =
            stress || (bench && !bench->waiting()) || app.animating() || queue.pending() || cli.test_frame_ms > 0;
        // Idle, the events that came while the last frame drew are first collected without waiting,
        // stamped as after that frame's poll; a wait's events are stamped as they come. Waiting at
        // once stamped the first click of a double-click late, by up to a frame, and the pair was
        // seen as two clicks.
        queue.before_poll(false);
        glfwPollEvents();
        if (!poll && !queue.pending()) {
            queue.before_poll(true);
            glfwWaitEventsTimeout(0.25);
        }
        queue.after_poll();
        if (stress && stress->before_frame(app)) return stress->exit_code();
        if (bench && bench->before_frame(app)) return bench->exit_code();
        const double now = glfwGetTime();
        const float dt = static_cast<float>(now - last);
        last = now;
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        queue.apply(ImGui::GetIO());
        ImGui::NewFrame();
        int ww = 0, wh = 0, fw = 0, fh = 0;
        glfwGetWindowSize(win, &ww, &wh);
        glfwGetFramebufferSize(win, &fw, &fh);
        app.frame(win, static_cast<float>(std::max(ww, 1)), static_cast<float>(std::max(wh, 1)), dt);
        app.prepare_view(fw, fh);  // the scene drawn this frame or its last image shown (app_view.cpp)
        ImGui::Render();
        if (fw > 0 && fh > 0) {
            app.present_view(fw, fh);
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        }
        glfwSwapBuffers(win);
        dump.after_frame(app);
        pad_frame(frame_start, cli.test_frame_ms);
    }
    return 0;
}

// The bake worker and the App on the open window: the first bake requested, then the screenshot
// or the interactive loop.
int run_app(GLFWwindow* win, const navdebug::CliOptions& cli, const navdebug::StartOptions& start, FirstBake& in,
            navdebug::Log& log) {
    const navdebug::AppOptions& opts = start.app;
    navdebug::BakeWorker& worker = *in.worker;
    worker.set_wake([] { glfwPostEmptyEvent(); });
    App app(worker, log, in.inputs, opts);
    app.set_areas(in.inputs.areas);
    std::string err;
    if (!app.init_gl(err)) return fail(1, err);
    glfwSetWindowUserPointer(win, &app);
    glfwSetDropCallback(win, drop_callback);
    worker.set_region_trace(!opts.replay.empty());
    if (cli.hold_bake > 0) worker.hold_before_run(cli.hold_bake);
    if (cli.hold_tiles > 0) worker.hold_after_tiles(cli.hold_tiles);
    worker.start();
    if (opts.map2d) {}  // nothing to bake
    else if (!cli.diff_sets.empty()) {
        nav::BakeInputs first = in.inputs;
        first.params = in.first_params;
        worker.request(first, opts.stage.value_or(nav::kLastStage));
    } else {
        worker.request(in.inputs, opts.stage.value_or(nav::kLastStage));
    }
    app.set_view_cache(!cli.no_view_cache);
    const int exit_code = cli.screenshot() ? take_screenshot(app, worker, win, cli, start, in)
                                           : run_interactive(app, win, start.stress, start.bench, cli);
    glfwSetWindowUserPointer(win, nullptr);
    return exit_code;
}

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
    navdebug::CliParse parsed = navdebug::parse_cli(argc, argv);
    if (!parsed.options) return parsed.exit_code;
    const navdebug::CliOptions& cli = *parsed.options;
    if (cli.print_shortcuts) {  // the key map: no window, no mesh
        std::fputs(navdebug::shortcuts_markdown().c_str(), stdout);
        return 0;
    }

    // ---- everything that can be checked without a window: exit 2 on bad input ----
    navdebug::StartOptions start;
    if (const nav::Status st = navdebug::resolve_cli(cli, start); !st) return fail(kExitBadInput, st.message);
    navdebug::Log log;
    log.set_echo(cli.screenshot());
    FirstBake in;
    if (const std::optional<int> code = load_inputs(cli, start, log, in)) return *code;

    // ---- the window ----
    Window window;
    const bool stress = start.stress.moves > 0 || start.bench.frames > 0;
    start.app.keep_recent = !cli.screenshot() && !stress;  // the Open dialog's recent files
    if (const std::optional<int> code =
            open_window(window, start.width, start.height, cli.screenshot(), stress, !cli.no_view_cache, argv[0]))
        return *code;
    init_imgui(window.win, !cli.screenshot() && !stress);
    const int exit_code = run_app(window.win, cli, start, in, log);
    shutdown_imgui();
    return exit_code;
}
