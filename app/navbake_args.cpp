#include "app/navbake_args.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <system_error>
#include <utility>

#include "core/formats/params_json.h"
#include "core/runtime/detour_format.h"

namespace navbake {

namespace {

// A memory or size option: a finite, positive number of MiB within [lo, hi].
CLI::Validator mib_range(double lo, double hi) {
    return CLI::Validator(
        [lo, hi](std::string& s) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(s.c_str(), &end);
            if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v) || v < lo || v > hi) {
                char buf[160];
                std::snprintf(buf, sizeof buf, "expected a finite number of MiB in [%g, %g], got '%s'", lo, hi,
                              s.substr(0, 40).c_str());
                return buf;
            }
            return {};
        },
        "MiB", "finite MiB");
}

// Text from the command line in a message: at most 40 bytes, control bytes and non-ASCII as \xNN
// (an invisible or terminal-changing byte must show as what it is).
std::string shown(std::string_view s) {
    std::string out = "'";
    for (size_t i = 0; i < s.size() && i < 40; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        }
    }
    return out + (s.size() > 40 ? "...'" : "'");
}

// A whole decimal number, digits only, in [0, max]; false for anything else (sign, space, junk,
// overflow).
template <class T>
bool parse_whole(std::string_view s, T max, T& out) {
    if (s.empty() || s.front() < '0' || s.front() > '9') return false;  // from_chars takes '-' for signed T
    T v{};
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || v > max) return false;
    out = v;
    return true;
}

}  // namespace

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::optional<int> parse_args(int argc, const char* const* argv, Args& a, std::ostream& out, std::ostream& err) {
    CLI::App app{"navbake: bake a navigation mesh from a triangle mesh, headless"};
    // required unless --merge or --navmesh-in (checked below: CLI11 cannot make a positional conditional)
    auto* mesh_opt = app.add_option("mesh", a.mesh_path,
                                    "Level mesh: Wavefront OBJ (Y up, metres) or, through assimp, .gltf .glb .fbx .dae .ply "
                                    ".stl .3ds (unit and up axis from the file where it states them); or a 2D map: .json "
                                    "(outline + obstacles) or Polyanya .mesh");
    app.add_option("--config", a.config_path, "JSON config: parameter names as keys, optional \"volumes\"");
    app.add_option("--set", a.sets, "Set a parameter, NAME=VALUE (repeatable; applied after --config)");
    app.add_flag("--json", a.as_json, "Print one JSON object (mesh, config, grid, counts, timings_ms)");
    app.add_option("--reps", a.reps, "Bake N times; timings are medians")->check(CLI::Range(1, 1000));
    auto* paths_opt = app.add_option("--paths", a.npaths, "Find paths between N random point pairs on the navmesh")
                          ->check(CLI::Range(1, 1000000));
    app.add_option("--seed", a.seed_text,
                   "Seed for --paths or --crowd, a whole number in [0, 2^64) (same seed, same pairs, same scenario)");
    app.add_option_function<std::string>(
           "--crowd", [&a](const std::string& v) { a.crowd = v, a.crowd_given = true; },
           "Walk agents on the navmesh: circle (swap across a circle), corridor (two groups crossing), doorway (all "
           "through the tightest squeeze) or random; prints reached, time to goal, overlaps, stuck agents by reason "
           "and ms per tick (\"crowd\" in --json)")
        ->type_name("SCENARIO");
    app.add_option("--agents", a.crowd_agents, "With --crowd: how many agents (default 32)")->type_name("N");
    app.add_option("--ticks", a.crowd_ticks, "With --crowd: how many ticks of 1/30 s at most (default 600; ends early when every agent arrived)")
        ->type_name("T");
    app.add_option("--pairs", a.pairs_path, "Find paths for the pairs in FILE, one 'sx sy sz ex ey ez' per line")
        ->excludes(paths_opt);
    app.add_option_function<std::string>(
           "--agent-type",
           [&a](const std::string& v) {
               a.agent_type = v;
               a.agent_type_given = true;
           },
           "With --paths/--pairs: find the paths of the config's agent type NAME (its \"agent_types\"), on the part of "
           "the navmesh it fits")
        ->type_name("NAME");
    app.add_option("--mesh-out", a.mesh_out, "For a 2D map (.json / .mesh): write its polygons as a Polyanya .mesh (version 2)");
    app.add_flag("--compare-optimal", a.compare_optimal,
                 "With --paths/--pairs: run both A* + funnel and Polyanya, report length_funnel and length_optimal per item");
    app.add_option("--obj-out", a.obj_out,
                   "Write the polygon mesh (group polymesh) and detail mesh (group detail) as OBJ; for a 2D map its "
                   "navmesh polygons (group navmesh, y = 0)");
    // --gltf-out: one block (the callback records that it was given, even as an empty string)
    app.add_option_function<std::string>(
           "--gltf-out", [&a](const std::string& path) { a.gltf_out = path, a.gltf_out_given = true; },
           "Write the bake's layers as glTF nodes with vertex colours: input, regions, contours, polymesh, detail and "
           "the first path of --paths/--pairs (.glb: binary, otherwise JSON with the buffer embedded); keeps the "
           "intermediates so every layer is there")
        ->type_name("FILE");
    app.add_option("--incremental", a.incremental,
                   "After the bake, set NAME=VALUE and bake again, reporting the stages that re-ran");
    app.add_option("--tile", a.only_tile, "With tile_size > 0: bake only tile X,Y (column, row) and print its counts");
    app.add_flag("--keep-intermediates", a.keep_intermediates,
                 "Keep every intermediate result (default: a tiled bake keeps only each tile's polygons and detail; a "
                 "solo bake drops each stage's result once the last stage reading it has run, unless --reps or "
                 "--incremental bake again)");
    auto* why_opt = app.add_option("--why", a.why_text,
                                   "Why is there no navmesh at X,Y,Z? Bakes, then tells the point's story stage by stage, "
                                   "the stage that lost it and the smallest verified fix (\"why\" in --json)")
                       ->type_name("X,Y,Z");
    auto* why_path_opt = app.add_option("--why-path", a.why_path_text,
                                        "Why can't the start reach the end? The two islands, the gap between them, its "
                                        "story and verified fix (\"why_path\" in --json)")
                            ->type_name("SX,SY,SZ:EX,EY,EZ");
    app.add_option("--max-memory", a.max_memory_mb, "Refuse grids estimated to need more than this many MiB")
        ->check(mib_range(1.0, 1048576.0));
    app.add_option("--max-input", a.max_input_mb, "Refuse input files (mesh, 2D map, --pairs) larger than this many MiB (default 1024)")
        ->check(mib_range(1e-6, 1048576.0));
    // ---- Detour files (issue 20)
    app.add_option("--navmesh-out", a.navmesh_out,
                   "Write the navmesh (solo or tiled) as RecastDemo's all-tiles file (MSET), Detour 1.5.1 tile data")
        ->type_name("FILE");
    app.add_option("--tile-out", a.tile_out,
                   "Write each tile's Detour data to DIR/tile_X_Y.bin (X, Y = column, row; solo: tile_0_0.bin); DIR "
                   "is created if its parent exists")
        ->type_name("DIR");
    // ---- end of the Detour files
    // A bake split over machines (navbake_farm.h, README "Baking on a farm").
    auto* tiles_opt = app.add_option("--tiles", a.tiles_text,
                                     "With tile_size > 0: bake only the tiles in columns X0..X1, rows Y0..Y1 (one job of a "
                                     "split bake) into --tile-out DIR, with DIR/grid.json and the job's manifest")
                          ->type_name("X0,Y0:X1,Y1");
    auto* merge_opt = app.add_option("--merge", a.merge_dir,
                                     "Assemble the tiles the --tiles jobs wrote into DIR (checked: every tile once) into "
                                     "--navmesh-out FILE, the file a one-process bake writes; no mesh argument")
                          ->type_name("DIR");
    app.add_flag("--tile-grid", a.tile_grid,
                 "With tile_size > 0: print the tile grid, \"COLS ROWS\", and exit (no bake; for a split bake's submitter)");
    // ---- Detour navmesh in (issue 20) ----
    auto* navmesh_in_opt =
        app.add_option("--navmesh-in", a.navmesh_in,
                       "Load a Detour navmesh (RecastDemo's MSET file or one tile's data) instead of baking a mesh: "
                       "prints its counts; --paths / --pairs / --json work on it")
            ->excludes(mesh_opt);
    // ---- end Detour navmesh in ----
    auto* path_tests_opt =
        app.add_option("--path-tests", a.path_tests_path,
                       "Run the path cases in FILE (JSON: start, end, filter, expectation) on the navmesh: a table "
                       "of results (\"path_tests\" in --json); exit 1 when a case fails");
    app.footer([] { return nav::params_help(); });  // built only for --help
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e, out, err);
    } catch (const CLI::ParseError& e) {
        err << "navbake: error: " << e.what() << "\n(run navbake --help for usage)\n";
        return 2;
    }
    a.obj_out_given = app.count("--obj-out") > 0;
    a.mesh_out_given = app.count("--mesh-out") > 0;
    a.tile_given = app.count("--tile") > 0;
    a.seed_given = app.count("--seed") > 0;
    a.agents_given = app.count("--agents") > 0;
    a.ticks_given = app.count("--ticks") > 0;
    a.reps_given = app.count("--reps") > 0;
    a.max_memory_given = app.count("--max-memory") > 0;
    a.incremental_given = app.count("--incremental") > 0;
    a.why_given = why_opt->count() > 0;
    a.why_path_given = why_path_opt->count() > 0;
    a.navmesh_out_given = app.count("--navmesh-out") > 0;  // Detour files (issue 20)
    a.tile_out_given = app.count("--tile-out") > 0;
    a.tiles_given = tiles_opt->count() > 0;
    a.merge_given = merge_opt->count() > 0;
    a.navmesh_in_given = navmesh_in_opt->count() > 0;
    a.path_tests_given = path_tests_opt->count() > 0;
    if (a.mesh_path.empty() && !a.merge_given && !a.navmesh_in_given) {
        err << "navbake: error: mesh is required (an OBJ or 2D map to bake; only --merge DIR and --navmesh-in FILE take "
               "none)\n(run navbake --help for usage)\n";
        return 2;
    }
    return std::nullopt;
}

nav::Status parse_tile(std::string_view text, int& x, int& y) {
    const auto bad = [&] {
        return nav::Status::bad_input("--tile " + shown(text) + ": expected X,Y, two whole numbers in [0, " +
                                      std::to_string(std::numeric_limits<int>::max()) + "] (column, row)");
    };
    const size_t comma = text.find(',');
    if (comma == std::string_view::npos) return bad();
    int tx = 0, ty = 0;
    if (!parse_whole(text.substr(0, comma), std::numeric_limits<int>::max(), tx) ||
        !parse_whole(text.substr(comma + 1), std::numeric_limits<int>::max(), ty))
        return bad();
    x = tx, y = ty;
    return nav::Status::ok();
}

nav::Status parse_tile_rect(std::string_view text, int* rect) {
    const auto bad = [&](const std::string& why) {
        return nav::Status::bad_input("--tiles " + shown(text) + ": expected X0,Y0:X1,Y1, the first and last column and "
                                      "row of the rectangle, whole numbers in [0, " +
                                      std::to_string(std::numeric_limits<int>::max()) + "]" + why);
    };
    const size_t colon = text.find(':');
    if (colon == std::string_view::npos) return bad("");
    int r[4];
    if (!parse_tile(text.substr(0, colon), r[0], r[1]) || !parse_tile(text.substr(colon + 1), r[2], r[3])) return bad("");
    if (r[0] > r[2] || r[1] > r[3]) return bad(" with X0 <= X1 and Y0 <= Y1");
    for (int k = 0; k < 4; ++k) rect[k] = r[k];
    return nav::Status::ok();
}

nav::Status parse_seed(std::string_view text, uint64_t& seed) {
    if (!parse_whole(text, std::numeric_limits<uint64_t>::max(), seed))
        return nav::Status::bad_input("--seed " + shown(text) + ": expected a whole number in [0, " +
                                      std::to_string(std::numeric_limits<uint64_t>::max()) + "]");
    return nav::Status::ok();
}

namespace {

// One coordinate of a point: a finite decimal number that fits a float, nothing else. from_chars
// takes no '+', space or "0x" prefix; it takes "nan" and "inf", refused here.
bool parse_coord(std::string_view s, float& out) {
    float v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
    if (s.empty() || ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(v)) return false;
    out = v;
    return true;
}

// "X,Y,Z" as parse_point reads it; `what` gets the first bad part ("" when the count is wrong).
bool parse_xyz(std::string_view text, float* p, std::string& what) {
    float v[3];
    size_t start = 0;
    for (int k = 0; k < 3; ++k) {
        const size_t comma = text.find(',', start);
        if ((k < 2) != (comma != std::string_view::npos)) return false;  // fewer or more than 3 numbers
        const std::string_view part = text.substr(start, k < 2 ? comma - start : std::string_view::npos);
        if (!parse_coord(part, v[k])) {
            what = shown(part);
            return false;
        }
        start = comma + 1;
    }
    for (int k = 0; k < 3; ++k) p[k] = v[k];
    return true;
}

std::string bad_number(const std::string& what) {
    return what.empty() ? std::string() : " (" + what + " is not a finite decimal number within float range)";
}

}  // namespace

nav::Status parse_point(std::string_view flag, std::string_view text, float* p) {
    std::string what;
    if (parse_xyz(text, p, what)) return nav::Status::ok();
    return nav::Status::bad_input(std::string(flag) + " " + shown(text) +
                                  ": expected X,Y,Z, three finite decimal numbers (metres, Y up)" + bad_number(what));
}

nav::Status parse_point_pair(std::string_view text, float* start, float* end) {
    const size_t colon = text.find(':');
    std::string what;
    if (colon != std::string_view::npos && parse_xyz(text.substr(0, colon), start, what) &&
        parse_xyz(text.substr(colon + 1), end, what))
        return nav::Status::ok();
    return nav::Status::bad_input("--why-path " + shown(text) +
                                  ": expected SX,SY,SZ:EX,EY,EZ, the start and end points, three finite decimal "
                                  "numbers each (metres, Y up)" + bad_number(what));
}

namespace {

// A 2D map is built from its own polygons (a .json map's outline, obstacles and "agent_radius"; a
// .mesh's polygons as they are): the voxel bake's flags and parameters do not apply, and taking
// them without a word would let a user believe they did. The ones that apply: the query
// parameters, and verts_per_poly for a .json map (its convex partition).
nav::Status refuse_for_map2d(const Args& a, const Job& job) {
    const bool json_map = ends_with(a.mesh_path, ".json");
    const std::string what = "does not apply to a 2D map (" + a.mesh_path + ")";
    if (a.incremental_given) return nav::Status::bad_input("--incremental " + what + ": it re-runs voxel bake stages");
    if (a.tile_given) return nav::Status::bad_input("--tile " + what + ": a 2D map is not baked in tiles");
    if (a.keep_intermediates) return nav::Status::bad_input("--keep-intermediates " + what + ": it has no bake stages");
    if (a.reps_given) return nav::Status::bad_input("--reps " + what + ": it is built once");
    if (a.why_given || a.why_path_given)
        return nav::Status::bad_input(std::string(a.why_given ? "--why " : "--why-path ") + what +
                                      ": it follows points through the voxel bake stages");
    if (a.max_memory_given)
        return nav::Status::bad_input("--max-memory " + what + ": it limits the voxel grid (--max-input limits the map)");
    auto applies = [&](nav::ParamId id) { return nav::is_query_param(id) || (json_map && id == nav::ParamId::verts_per_poly); };
    std::string allowed;
    for (const nav::ParamDef& d : nav::param_table())
        if (applies(d.id)) allowed += (allowed.empty() ? "" : ", ") + std::string(d.name);
    const std::string why = std::string(json_map ? "; its agent radius is the map's \"agent_radius\" field"
                                                 : "; a .mesh holds its polygons as they are") +
                            " (parameters that apply: " + allowed + ")";
    for (const std::string& s : a.sets) {
        std::string name, value;
        if (!nav::split_assignment("--set", s, name, value)) continue;  // apply_assignments has refused it already
        if (const nav::ParamDef* d = nav::find_param(name); d && !applies(d->id))
            return nav::Status::bad_input("--set " + name + " " + what + why);
    }
    // the rest came from --config: any parameter it moved off its default
    const nav::Params defaults;
    for (const nav::ParamDef& d : nav::param_table())
        if (!applies(d.id) && job.inputs.params.to_string(d.id) != defaults.to_string(d.id))
            return nav::Status::bad_input("--config " + a.config_path + ": " + std::string(d.name) + "=" +
                                          job.inputs.params.to_string(d.id) + " " + what + why);
    if (!job.inputs.volumes.empty())
        return nav::Status::bad_input("--config " + a.config_path + ": \"volumes\" " + what +
                                      ": they mark voxel areas (a 2D map's obstacles are in the map)");
    return nav::Status::ok();
}

}  // namespace

namespace {

// --tiles, --merge, --tile-grid (a bake split over machines): what they need and what they do
// not combine with.
nav::Status apply_split_args(const Args& a, Job& job) {
    if (a.merge_given) {
        if (a.merge_dir.empty()) return nav::Status::bad_input("--merge: empty path (expected the --tile-out DIR of the --tiles jobs)");
        // the merge reads only DIR: a flag of the bake would be ignored, so it is refused
        const std::pair<const char*, bool> bake_flags[] = {
            {"a mesh argument", !a.mesh_path.empty()}, {"--config", !a.config_path.empty()}, {"--set", !a.sets.empty()},
            {"--tiles", a.tiles_given}, {"--tile", a.tile_given}, {"--tile-grid", a.tile_grid},
            {"--incremental", a.incremental_given}, {"--reps", a.reps_given}, {"--paths", a.npaths > 0},
            {"--pairs", !a.pairs_path.empty()}, {"--obj-out", a.obj_out_given}, {"--mesh-out", a.mesh_out_given},
            {"--why", a.why_given}, {"--why-path", a.why_path_given}, {"--keep-intermediates", a.keep_intermediates},
            {"--max-memory", a.max_memory_given}, {"--json", a.as_json}, {"--gltf-out", a.gltf_out_given},
            {"--tile-out", a.tile_out_given}, {"--compare-optimal", a.compare_optimal}, {"--path-tests", a.path_tests_given}};
        for (const auto& [flag, given] : bake_flags)
            if (given)
                return nav::Status::bad_input(std::string("--merge assembles tiles baked already: not with ") + flag +
                                              " (give the bake's mesh and parameters to the --tiles jobs)");
        return nav::Status::ok();
    }
    if (!a.tiles_given && !a.tile_grid) return nav::Status::ok();
    const char* flag = a.tiles_given ? "--tiles" : "--tile-grid";
    if (a.tiles_given && a.tile_grid) return nav::Status::bad_input("--tile-grid prints the grid and bakes nothing: not with --tiles");
    if (job.map2d) return nav::Status::bad_input(std::string(flag) + " does not apply to a 2D map (" + a.mesh_path + "): it is not baked in tiles");
    if (a.tiles_given)
        if (nav::Status st = parse_tile_rect(a.tiles_text, job.tiles); !st) return st;
    if (job.inputs.params.i(nav::ParamId::tile_size) == 0)
        return nav::Status::bad_input(std::string(flag) + ": needs --set tile_size=N (N > 0)");
    const std::pair<const char*, bool> others[] = {
        {"--tile", a.tile_given}, {"--incremental", a.incremental_given}, {"--paths", a.npaths > 0},
        {"--pairs", !a.pairs_path.empty()}, {"--why", a.why_given}, {"--why-path", a.why_path_given},
        {"--reps", a.reps_given}, {"--navmesh-out (navbake --merge writes it)", a.navmesh_out_given},
        {"--gltf-out", a.gltf_out_given}, {"--json", a.as_json}, {"--keep-intermediates", a.keep_intermediates},
        {"--compare-optimal", a.compare_optimal}, {"--obj-out", a.obj_out_given}, {"--path-tests", a.path_tests_given},
        {"--tile-out (--tile-grid writes nothing)", a.tile_grid && a.tile_out_given}};
    for (const auto& [other, given] : others)
        if (given)
            return nav::Status::bad_input(std::string(flag) + (a.tiles_given ? " bakes one job's tiles of a split bake"
                                                                              : " prints the tile grid") +
                                          ": not with " + other);
    return nav::Status::ok();
}

}  // namespace

// --crowd SCENARIO [--agents N] [--ticks T]: checked before anything is read or baked.
static nav::Status apply_crowd_args(const Args& a, Job& job) {
    if (!a.crowd_given) {
        if (a.agents_given) return nav::Status::bad_input("--agents: needs --crowd (the scenario the agents walk)");
        if (a.ticks_given) return nav::Status::bad_input("--ticks: needs --crowd (the scenario it runs)");
        return nav::Status::ok();
    }
    if (nav::Status st = nav::parse_crowd_scenario(a.crowd, &job.crowd_kind); !st) return st;
    if (a.crowd_agents < 1 || a.crowd_agents > nav::kMaxCrowdAgents)
        return nav::Status::bad_input("--agents: " + std::to_string(a.crowd_agents) + " agents, expected 1.." +
                                      std::to_string(nav::kMaxCrowdAgents));
    if (a.crowd_ticks < 1 || a.crowd_ticks > 1000000)
        return nav::Status::bad_input("--ticks: " + std::to_string(a.crowd_ticks) + ", expected 1..1000000");
    if (a.navmesh_in_given) return nav::Status::bad_input("--crowd: not with --navmesh-in yet (bake the level, or give the OBJ)");
    if (job.map2d) return nav::Status::bad_input("--crowd: not on a 2D map (" + a.mesh_path + ") yet: give a level mesh");
    if (a.tile_given) return nav::Status::bad_input("--crowd: needs the whole navmesh, not with --tile");
    job.crowd = true;
    job.crowd_agents = static_cast<int>(a.crowd_agents);
    job.crowd_ticks = static_cast<int>(a.crowd_ticks);
    return nav::Status::ok();
}

// --agent-type NAME: one of the config's agent types, for --paths / --pairs / --crowd.
static nav::Status apply_agent_type_arg(const Args& a, Job& job) {
    const std::string flag = "--agent-type " + shown(a.agent_type);
    if (a.navmesh_in_given)
        return nav::Status::bad_input(flag + ": a Detour file (--navmesh-in) carries no agent types");
    if (job.map2d) return nav::Status::bad_input(flag + ": a 2D map (" + a.mesh_path + ") has no agent types");
    const std::vector<nav::AgentType>& types = job.inputs.agent_types;
    if (types.empty())
        return nav::Status::bad_input(flag + ": the bake has no agent types (give \"agent_types\" in --config)");
    job.agent_type = nav::find_agent_type(types, a.agent_type);
    if (job.agent_type < 0)
        return nav::Status::bad_input(flag + ": no such agent type (known: " + nav::agent_type_names(types) + ")");
    if (a.npaths <= 0 && a.pairs_path.empty() && !a.crowd_given)
        return nav::Status::bad_input(flag + ": needs --paths, --pairs or --crowd (what it picks the type's navmesh for)");
    const std::pair<const char*, bool> later[] = {
        {"--why", a.why_given}, {"--why-path", a.why_path_given}, {"--path-tests", a.path_tests_given}};
    for (const auto& [other, given] : later)
        if (given)
            return nav::Status::bad_input(flag + ": not with " + other + " yet (it explains the base type's navmesh); "
                                          "run it without --agent-type");
    return nav::Status::ok();
}

nav::Status apply_args(const Args& a, Job& job) {
    if (nav::Status st = nav::apply_assignments("--set", a.sets, job.inputs.params); !st) return st;
    if (a.incremental_given) {
        if (nav::Status st = nav::split_assignment("--incremental", a.incremental, job.inc_name, job.inc_value); !st)
            return st;
        nav::Params probe = job.inputs.params;  // validate before baking
        if (nav::Status st = nav::apply_assignment("--incremental", a.incremental, probe); !st) return st;
    }
    job.max_input = static_cast<uint64_t>(a.max_input_mb * 1024.0 * 1024.0);
    job.map2d = ends_with(a.mesh_path, ".json") || ends_with(a.mesh_path, ".mesh");
    if (a.tile_given)
        if (nav::Status st = parse_tile(a.only_tile, job.tile_x, job.tile_y); !st) return st;
    if (a.seed_given) {
        if (a.npaths <= 0 && !a.crowd_given) return nav::Status::bad_input("--seed: needs --paths or --crowd (what it seeds)");
        if (nav::Status st = parse_seed(a.seed_text, job.seed); !st) return st;
    }
    if (nav::Status st = apply_crowd_args(a, job); !st) return st;
    if (a.why_given) {
        if (nav::Status st = parse_point("--why", a.why_text, job.why_point); !st) return st;
        job.why = true;
    }
    if (a.why_path_given) {
        if (nav::Status st = parse_point_pair(a.why_path_text, job.why_start, job.why_end); !st) return st;
        job.why_path = true;
    }
    if (a.agent_type_given)
        if (nav::Status st = apply_agent_type_arg(a, job); !st) return st;
    if (a.navmesh_in_given) return refuse_for_navmesh_in(a, job);
    if (nav::Status st = apply_detour_args(a, job); !st) return st;
    if (nav::Status st = apply_split_args(a, job); !st) return st;
    if (a.gltf_out_given && a.tile_given)
        return nav::Status::bad_input("--gltf-out writes the whole bake's layers: not with --tile");
    if (job.map2d) return refuse_for_map2d(a, job);
    const std::pair<const char*, bool> whys[] = {{"--why", a.why_given}, {"--why-path", a.why_path_given}};
    for (const auto& [flag, given] : whys) {
        if (!given) continue;
        if (a.tile_given)
            return nav::Status::bad_input(std::string(flag) + " needs the whole bake (every tile, the stitched navmesh): "
                                          "not with --tile");
        if (a.incremental_given)
            return nav::Status::bad_input(std::string(flag) + " explains one bake: not with --incremental (give the "
                                          "parameter with --set instead)");
    }
    if (a.tile_given && job.inputs.params.i(nav::ParamId::tile_size) == 0)
        return nav::Status::bad_input("--tile " + shown(a.only_tile) + ": needs --set tile_size=N (N > 0)");
    if (job.tile_x >= 0 && (a.npaths > 0 || !a.pairs_path.empty()))
        return nav::Status::bad_input("--paths / --pairs need the whole navmesh: not with --tile");
    return nav::Status::ok();
}

// ---- Detour files (issue 20) -------------------------------------------------------------------

nav::Status apply_detour_args(const Args& a, const Job& job) {
    const std::pair<const char*, bool> flags[] = {{"--navmesh-out", a.navmesh_out_given}, {"--tile-out", a.tile_out_given}};
    for (const auto& [flag, given] : flags) {
        if (!given) continue;
        if (job.map2d)
            return nav::Status::bad_input(std::string(flag) + " does not apply to a 2D map (" + a.mesh_path +
                                          "): it writes a voxel bake's polygon and detail meshes as Detour data");
        if (a.tile_given)
            return nav::Status::bad_input(std::string(flag) + " writes the whole bake (every tile): not with --tile");
        // refused before the bake rather than after it
        if (const int nvp = job.inputs.params.i(nav::ParamId::verts_per_poly); nvp > nav::kDetourVertsPerPoly)
            return nav::Status::bad_input(std::string(flag) + ": verts_per_poly is " + std::to_string(nvp) +
                                          "; Detour's polygons have at most " +
                                          std::to_string(nav::kDetourVertsPerPoly) +
                                          " vertices (--set verts_per_poly=6)");
    }
    if (a.tile_out_given && a.tile_out.empty())
        return nav::Status::bad_input("--tile-out: empty path (expected a directory to write the tiles into)");
    return nav::Status::ok();
}

std::string tile_out_path(const std::string& dir, int x, int y) {
    std::string p = dir;
    if (!p.empty() && p.back() != '/') p += '/';
    return p + "tile_" + std::to_string(x) + "_" + std::to_string(y) + ".bin";
}


nav::Status refuse_for_navmesh_in(const Args& a, const Job& job) {
    if (a.navmesh_in.empty()) return nav::Status::bad_input("--navmesh-in: empty path (expected a Detour navmesh file)");
    const std::string what = "does not apply to --navmesh-in (a navmesh loaded, not baked)";
    const std::pair<const char*, bool> flags[] = {
        {"--incremental", a.incremental_given}, {"--tile", a.tile_given},      {"--keep-intermediates", a.keep_intermediates},
        {"--reps", a.reps_given},               {"--why", a.why_given},        {"--why-path", a.why_path_given},
        {"--max-memory", a.max_memory_given},   {"--obj-out", a.obj_out_given}, {"--mesh-out", a.mesh_out_given},
        {"--navmesh-out", a.navmesh_out_given}, {"--tile-out", a.tile_out_given}, {"--gltf-out", a.gltf_out_given},
        {"--tiles", a.tiles_given},             {"--merge", a.merge_given},    {"--tile-grid", a.tile_grid}};
    for (const auto& [flag, given] : flags)
        if (given) return nav::Status::bad_input(std::string(flag) + " " + what);
    const nav::Params defaults;
    for (const nav::ParamDef& d : nav::param_table())
        if (!nav::is_query_param(d.id) && job.inputs.params.to_string(d.id) != defaults.to_string(d.id))
            return nav::Status::bad_input(std::string(d.name) + "=" + job.inputs.params.to_string(d.id) + " " + what +
                                          ": only the query parameters apply");
    if (!job.inputs.volumes.empty()) return nav::Status::bad_input("--config " + a.config_path + ": \"volumes\" " + what);
    return nav::Status::ok();
}

}  // namespace navbake
