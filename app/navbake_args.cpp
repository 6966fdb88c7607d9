#include "app/navbake_args.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <system_error>
#include <utility>

#include "core/bake/params_json.h"

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
    app.add_option("mesh", a.mesh_path,
                   "Level mesh: Wavefront OBJ (Y up, metres) or, through assimp, .gltf .glb .fbx .dae .ply .stl .3ds "
                   "(unit and up axis from the file where it states them); or a 2D map: .json (outline + "
                   "obstacles) or Polyanya .mesh")
        ->required();
    app.add_option("--config", a.config_path, "JSON config: parameter names as keys, optional \"volumes\"");
    app.add_option("--set", a.sets, "Set a parameter, NAME=VALUE (repeatable; applied after --config)");
    app.add_flag("--json", a.as_json, "Print one JSON object (mesh, config, grid, counts, timings_ms)");
    app.add_option("--reps", a.reps, "Bake N times; timings are medians")->check(CLI::Range(1, 1000));
    auto* paths_opt = app.add_option("--paths", a.npaths, "Find paths between N random point pairs on the navmesh")
                          ->check(CLI::Range(1, 1000000));
    app.add_option("--seed", a.seed_text, "Seed for --paths, a whole number in [0, 2^64) (same seed, same pairs)")
        ->needs(paths_opt);
    app.add_option("--pairs", a.pairs_path, "Find paths for the pairs in FILE, one 'sx sy sz ex ey ez' per line")
        ->excludes(paths_opt);
    app.add_option("--mesh-out", a.mesh_out, "For a 2D map (.json / .mesh): write its polygons as a Polyanya .mesh (version 2)");
    app.add_flag("--compare-optimal", a.compare_optimal,
                 "With --paths/--pairs: run both A* + funnel and Polyanya, report length_funnel and length_optimal per item");
    app.add_option("--obj-out", a.obj_out,
                   "Write the polygon mesh (group polymesh) and detail mesh (group detail) as OBJ; for a 2D map its "
                   "navmesh polygons (group navmesh, y = 0)");
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
    a.reps_given = app.count("--reps") > 0;
    a.max_memory_given = app.count("--max-memory") > 0;
    a.incremental_given = app.count("--incremental") > 0;
    a.why_given = why_opt->count() > 0;
    a.why_path_given = why_path_opt->count() > 0;
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
        if (!applies(d.id) && job.params.to_string(d.id) != defaults.to_string(d.id))
            return nav::Status::bad_input("--config " + a.config_path + ": " + std::string(d.name) + "=" +
                                          job.params.to_string(d.id) + " " + what + why);
    if (!job.volumes.empty())
        return nav::Status::bad_input("--config " + a.config_path + ": \"volumes\" " + what +
                                      ": they mark voxel areas (a 2D map's obstacles are in the map)");
    return nav::Status::ok();
}

}  // namespace

nav::Status apply_args(const Args& a, Job& job) {
    if (nav::Status st = nav::apply_assignments("--set", a.sets, job.params); !st) return st;
    if (a.incremental_given) {
        if (nav::Status st = nav::split_assignment("--incremental", a.incremental, job.inc_name, job.inc_value); !st)
            return st;
        nav::Params probe = job.params;  // validate before baking
        if (nav::Status st = nav::apply_assignment("--incremental", a.incremental, probe); !st) return st;
    }
    job.max_input = static_cast<uint64_t>(a.max_input_mb * 1024.0 * 1024.0);
    job.map2d = ends_with(a.mesh_path, ".json") || ends_with(a.mesh_path, ".mesh");
    if (a.tile_given)
        if (nav::Status st = parse_tile(a.only_tile, job.tile_x, job.tile_y); !st) return st;
    if (a.seed_given)
        if (nav::Status st = parse_seed(a.seed_text, job.seed); !st) return st;
    if (a.why_given) {
        if (nav::Status st = parse_point("--why", a.why_text, job.why_point); !st) return st;
        job.why = true;
    }
    if (a.why_path_given) {
        if (nav::Status st = parse_point_pair(a.why_path_text, job.why_start, job.why_end); !st) return st;
        job.why_path = true;
    }
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
    if (a.tile_given && job.params.i(nav::ParamId::tile_size) == 0)
        return nav::Status::bad_input("--tile " + shown(a.only_tile) + ": needs --set tile_size=N (N > 0)");
    if (job.tile_x >= 0 && (a.npaths > 0 || !a.pairs_path.empty()))
        return nav::Status::bad_input("--paths / --pairs need the whole navmesh: not with --tile");
    return nav::Status::ok();
}

}  // namespace navbake
