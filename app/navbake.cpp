// navbake: bakes a mesh headless and prints counts and per-stage timings (JSON with --json).
// Exit codes: 0 success, 2 bad input or parameters (message on stderr), 1 internal failure.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <fstream>
#include <unistd.h>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "core/bake/config_json.h"
#include "core/bake/diagnose.h"
#include "core/bake/obj_export.h"
#include "core/bake/params_json.h"
#include "core/bake/pipeline.h"
#include "core/map2d/map2d.h"
#include "core/map2d/map2d_tile.h"
#include "core/runtime/query.h"

namespace {

using nlohmann::json;

int fail(const nav::Status& st) {
    std::cerr << "navbake: error: " << st.message << "\n";
    return st.code == nav::Status::Code::BadInput ? 2 : 1;
}

// Settings and meshes known to go wrong (the debugger's Warnings panel): on stderr, each with the
// --set flags that fix it; returned for the JSON report.
json report_diagnostics(const nav::Bake& bake) {
    json list = json::array();
    if (!bake.mesh) return list;
    const nav::MeshShape shape = nav::analyze_mesh(*bake.mesh);
    for (const nav::Diagnostic& d : nav::diagnose(bake.params, &bake, &shape)) {
        std::string flags;
        json fix = json::object();
        nav::Params fixed = bake.params;
        nav::apply_fix(d, fixed);
        for (const nav::ParamChange& c : d.fix) {
            const std::string name(nav::param_def(c.id).name);
            flags += " --set " + name + "=" + fixed.to_string(c.id);
            fix[name] = c.value;
        }
        std::cerr << "navbake: warning: " << d.title << ": " << d.reason
                  << (flags.empty() ? std::string() : " Fix:" + flags) << "\n";
        list.push_back({{"name", std::string(nav::warning_name(d.kind))}, {"title", d.title}, {"reason", d.reason}, {"fix", fix}});
    }
    return list;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

json counts_json(const nav::Bake& b) {
    json c = json::object();
    for (const char* k : {"solid_spans", "compact_spans", "walkable_spans", "regions", "contours", "poly_verts",
                          "polys", "detail_verts", "detail_tris"})
        c[k] = b.count(k);
    return c;
}

// Peak resident set size of this process (VmHWM in /proc/self/status), MiB; 0 when unknown.
double peak_rss_mib() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024.0;  // kB
    return 0.0;
}

// The tiles of a tiled bake: grid, how many have polygons, per-tile bake times (of the tiles baked).
json tiles_json(const nav::Bake& b) {
    int built = 0, empty = 0;
    std::vector<double> ms;
    for (const auto& t : b.tiles) {
        if (!t) continue;
        (t->count("polys") > 0 ? built : empty) += 1;
        ms.push_back(t->ms);
    }
    std::sort(ms.begin(), ms.end());
    const double mn = ms.empty() ? 0.0 : ms.front(), mx = ms.empty() ? 0.0 : ms.back();
    const double med = ms.empty() ? 0.0 : (ms.size() % 2 ? ms[ms.size() / 2] : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]));
    return {{"size", b.layout.tile_size}, {"cols", b.layout.cols},   {"rows", b.layout.rows},
            {"border", b.layout.border},  {"built", built},          {"empty", empty},
            {"ms", {{"min", mn}, {"median", med}, {"max", mx}}},      {"peak_rss_mib", peak_rss_mib()}};
}

// One tile's counts (every stage's), bake time and box.
json one_tile_json(const nav::Bake& b, int tx, int tz) {
    json out = {{"x", tx}, {"y", tz}};
    const size_t i = static_cast<size_t>(tx + tz * b.layout.cols);
    if (i >= b.tiles.size() || !b.tiles[i]) return out;
    const nav::TileBake& t = *b.tiles[i];
    json counts = json::object();
    for (const nav::StageStats& s : t.stats)
        for (const nav::StageCount& c : s.counts) counts[std::string(c.name)] = c.value;
    out["counts"] = counts;
    out["ms"] = t.ms;
    out["bmin"] = {t.config.bmin[0], t.config.bmin[1], t.config.bmin[2]};
    out["bmax"] = {t.config.bmax[0], t.config.bmax[1], t.config.bmax[2]};
    return out;
}

struct PathPair {
    float s[3], e[3];
};

// The longest --pairs line read: six coordinates and a comment fit many times over; a longer
// line is not a pairs file (and must not be read whole into memory).
constexpr size_t kMaxPairLineBytes = 4096;

// Reads --pairs: one "sx sy sz ex ey ez" per line (decimal numbers); blank lines and '#' comments
// are skipped. Each pair goes to `sink` as it is read, so the caller decides what to keep. The
// file is at most max_bytes (--max-input) and each line at most kMaxPairLineBytes.
template <class Sink>
nav::Status read_pairs(const std::string& path, uint64_t max_bytes, Sink&& sink) {
    if (nav::Status st = nav::check_input_file(path, "pairs file"); !st) return st;
    const std::string limit = std::to_string(max_bytes) + " bytes (the input size limit, --max-input)";
    std::error_code ec;
    const uintmax_t size = std::filesystem::file_size(path, ec);  // fails for a pipe: counted while reading
    if (!ec && size > max_bytes)
        return nav::Status::bad_input(path + ": " + std::to_string(size) + " bytes is over " + limit);
    std::ifstream f(path, std::ios::binary);
    if (!f) return nav::Status::bad_input(path + ": cannot open pairs file");
    std::string line;
    long line_no = 0, count = 0;
    uint64_t total = 0;
    auto take = [&]() -> nav::Status {
        ++line_no;
        PathPair p{};
        bool has = false;
        if (nav::Status st = nav::parse_pair_line(line, path, line_no, p.s, p.e, has); !st) return st;
        line.clear();
        if (!has) return nav::Status::ok();
        ++count;
        return sink(p);
    };
    char buf[1 << 16];
    while (f.read(buf, sizeof buf), f.gcount() > 0) {
        const auto got = static_cast<size_t>(f.gcount());
        total += got;
        if (total > max_bytes) return nav::Status::bad_input(path + ": more than " + limit);
        for (size_t k = 0; k < got; ++k) {
            if (buf[k] == '\n') {
                if (nav::Status st = take(); !st) return st;
            } else if (line.size() >= kMaxPairLineBytes) {
                return nav::Status::bad_input(path + ":" + std::to_string(line_no + 1) + ": line longer than " +
                                              std::to_string(kMaxPairLineBytes) +
                                              " bytes (expected 'sx sy sz ex ey ez')");
            } else {
                line.push_back(buf[k]);
            }
        }
    }
    if (f.bad()) return nav::Status::bad_input(path + ": read error");
    if (!line.empty())
        if (nav::Status st = take(); !st) return st;
    if (count == 0) return nav::Status::bad_input(path + ": no pairs (expected lines 'sx sy sz ex ey ez')");
    return nav::Status::ok();
}

// Runs NavQuery::find_route for every pair: A* + funnel (path_mode funnel) or Polyanya (optimal);
// items as in the JSON contract. With `compare` both run and each item gets length_funnel and
// length_optimal (3D polyline lengths) and length_funnel_xz and length_optimal_xz (in the xz
// projection, where Polyanya is shortest); `compare` sums them up for the pairs both reached.
nav::Status run_paths(const nav::NavMesh& nm, const std::vector<PathPair>& pairs, nav::PathMode mode, bool compare,
                      json& out) {
    nav::NavQuery q;
    q.init(&nm);
    const nav::QueryFilter filter;
    const float ext[3] = {2.0f, 4.0f, 2.0f};  // search box half extents around each end point, metres
    const bool run_funnel = mode == nav::PathMode::Funnel || compare;
    const bool run_optimal = mode == nav::PathMode::Optimal || compare;
    std::vector<nav::Route> routes(run_funnel ? pairs.size() : 0), optimal(run_optimal ? pairs.size() : 0);
    double secs = 0;
    for (int pass = 0; pass < 2; ++pass) {
        const bool opt = pass == 1;
        if (!(opt ? run_optimal : run_funnel)) continue;
        nav::RouteOptions ro;
        ro.optimal = opt;
        std::vector<nav::Route>& rs = opt ? optimal : routes;
        const auto t0 = std::chrono::steady_clock::now();
        for (size_t i = 0; i < pairs.size(); ++i)
            if (nav::Status st = q.find_route(pairs[i].s, pairs[i].e, ext, filter, ro, rs[i]); !st) return st;
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (opt == (mode == nav::PathMode::Optimal)) secs = s;
        if (compare) out[opt ? "queries_per_sec_optimal" : "queries_per_sec_funnel"] = s > 0 ? double(pairs.size()) / s : 0.0;
    }
    json items = json::array();
    int64_t found = 0, both = 0;
    double sum_f = 0, sum_o = 0, sum_f3 = 0, sum_o3 = 0, ratio_max = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
        const bool optimal_mode = mode == nav::PathMode::Optimal;
        const nav::Route& r = optimal_mode ? optimal[i] : routes[i];
        auto reached = [](const nav::Route& x) { return x.found() && x.path.reached && !x.straight.partial; };
        found += reached(r);
        json pts = json::array();
        const std::vector<float>& p = r.straight.points;
        for (size_t k = 0; k + 2 < p.size(); k += 3) pts.push_back({p[k], p[k + 1], p[k + 2]});
        json item = {{"start", {pairs[i].s[0], pairs[i].s[1], pairs[i].s[2]}},
                     {"end", {pairs[i].e[0], pairs[i].e[1], pairs[i].e[2]}},
                     {"points", pts},
                     {"length", r.found() ? double(r.straight.length()) : 0.0},
                     {"reached", reached(r)}};
        if (!optimal_mode) item["polys"] = r.path.polys.size();
        if (compare) {
            const bool fr = reached(routes[i]), orr = reached(optimal[i]);
            item["length_funnel"] = fr ? double(routes[i].straight.length()) : 0.0;
            item["length_optimal"] = orr ? double(optimal[i].straight.length()) : 0.0;
            item["length_funnel_xz"] = fr ? routes[i].length_xz() : 0.0;
            item["length_optimal_xz"] = orr ? optimal[i].length_xz() : 0.0;
            if (fr && orr) {
                ++both;
                sum_f += routes[i].length_xz(), sum_o += optimal[i].length_xz();
                sum_f3 += routes[i].straight.length(), sum_o3 += optimal[i].straight.length();
                if (optimal[i].length_xz() > 0) ratio_max = std::max(ratio_max, routes[i].length_xz() / optimal[i].length_xz());
            }
        }
        if (r.start.poly == nav::kNoRef) item["error"] = "start is not on the navmesh";
        else if (r.end.poly == nav::kNoRef) item["error"] = "end is not on the navmesh";
        items.push_back(item);
    }
    out["count"] = pairs.size();
    out["found"] = found;
    out["path_mode"] = std::string(nav::kPathModeNames[static_cast<size_t>(mode)]);
    out["queries_per_sec"] = secs > 0 ? static_cast<double>(pairs.size()) / secs : 0.0;
    if (compare)
        out["compare"] = {{"pairs", both},
                          {"length_funnel_xz", sum_f},
                          {"length_optimal_xz", sum_o},
                          {"length_funnel", sum_f3},
                          {"length_optimal", sum_o3},
                          {"ratio_xz_total", sum_o > 0 ? sum_f / sum_o : 1.0},
                          {"ratio_xz_max", ratio_max}};
    out["items"] = items;
    return nav::Status::ok();
}

// Text mode of --compare-optimal: the summed lengths, and per pair for the first few.
void print_compare(const json& paths) {
    if (!paths.contains("compare")) return;
    const json& c = paths["compare"];
    std::printf("compare: %lld pairs reached by both; xz length funnel %.3f m, optimal %.3f m (funnel/optimal %.4f, max "
                "%.4f); 3D length funnel %.3f m, optimal %.3f m; %.0f vs %.0f queries/s\n",
                static_cast<long long>(c["pairs"].get<int64_t>()), c["length_funnel_xz"].get<double>(),
                c["length_optimal_xz"].get<double>(), c["ratio_xz_total"].get<double>(), c["ratio_xz_max"].get<double>(),
                c["length_funnel"].get<double>(), c["length_optimal"].get<double>(),
                paths["queries_per_sec_funnel"].get<double>(), paths["queries_per_sec_optimal"].get<double>());
    const json& items = paths["items"];
    const size_t shown = std::min<size_t>(items.size(), 20);
    for (size_t i = 0; i < shown; ++i)
        std::printf("  pair %zu: xz funnel %.3f m, optimal %.3f m; 3D funnel %.3f m, optimal %.3f m\n", i,
                    items[i]["length_funnel_xz"].get<double>(), items[i]["length_optimal_xz"].get<double>(),
                    items[i]["length_funnel"].get<double>(), items[i]["length_optimal"].get<double>());
    if (items.size() > shown) std::printf("  ... %zu more pairs (--json lists them all)\n", items.size() - shown);
}

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Random pairs (seeded) on a navmesh, for --paths.
nav::Status random_pairs(const nav::NavMesh& nm, int n, uint64_t seed, std::vector<PathPair>& pairs) {
    nav::NavQuery q;
    q.init(&nm);
    nav::Rng rng(seed);
    const nav::QueryFilter filter;
    for (int i = 0; i < n; ++i) {
        nav::RandomPoint a, b;
        if (nav::Status st = q.random_point(filter, rng, a); !st) return st;
        if (nav::Status st = q.random_point(filter, rng, b); !st) return st;
        if (a.poly == nav::kNoRef || b.poly == nav::kNoRef)
            return nav::Status::bad_input("--paths: the navmesh has no polygons to pick points on");
        PathPair p{};
        for (int k = 0; k < 3; ++k) p.s[k] = a.point[k], p.e[k] = b.point[k];
        pairs.push_back(p);
    }
    return nav::Status::ok();
}

// The pairs of --pairs FILE (all of them, for JSON output), else n random ones (--paths).
nav::Status collect_pairs(const nav::NavMesh& nm, const std::string& pairs_path, uint64_t max_bytes, int n,
                          uint64_t seed, std::vector<PathPair>& pairs) {
    if (pairs_path.empty()) return random_pairs(nm, n, seed, pairs);
    return read_pairs(pairs_path, max_bytes, [&](const PathPair& p) {
        pairs.push_back(p);
        return nav::Status::ok();
    });
}

// A 2D map (.json: outline + obstacles, seed 002's bake) or a Polyanya .mesh file: the navmesh
// straight from it (y = 0), then the same path queries as for a bake.
struct Map2DRun {
    std::string pairs_path, mesh_out, obj_out;
    int npaths = 0;
    uint64_t seed = 1, max_bytes = uint64_t(1) << 30;  // --max-input, for the map and the pairs
    bool as_json = false, compare = false;
};

int run_map2d(const std::string& path, const nav::Params& params, const Map2DRun& o) {
    const bool as_json = o.as_json, compare = o.compare;
    const int npaths = o.npaths;
    const uint64_t seed = o.seed;
    const std::string& pairs_path = o.pairs_path;
    const std::string& mesh_out = o.mesh_out;
    namespace m2 = nav::map2d;
    const auto t0 = std::chrono::steady_clock::now();
    m2::PolyMesh2D mesh;
    json counts = json::object();
    if (ends_with(path, ".json")) {
        m2::Map2D map;
        if (nav::Status st = m2::load_map2d(path, map, o.max_bytes); !st) return fail(st);
        m2::Map2DOptions opt;
        opt.max_verts = params.i(nav::ParamId::verts_per_poly);
        m2::Map2DResult r;
        if (nav::Status st = m2::build_map2d(map, opt, r); !st)
            return fail(nav::Status{st.code, path + ": " + st.message});
        mesh = std::move(r.mesh);
        counts = {{"obstacles", map.obstacles.count()},
                  {"free_rings", r.free.count()},
                  {"free_area", m2::rings_area(r.free)},
                  {"triangles", r.cdt.tris.size() / 3}};
    } else if (nav::Status st = m2::read_polyanya_mesh(path, mesh, o.max_bytes); !st) {
        return fail(st);
    }
    if (!mesh_out.empty())
        if (nav::Status st = m2::write_polyanya_mesh(mesh_out, mesh); !st) return fail(st);
    nav::NavMesh nm;
    if (nav::Status st = m2::build_map2d_navmesh(mesh, nm); !st) return fail(nav::Status{st.code, path + ": " + st.message});
    if (!o.obj_out.empty()) {  // the map's navmesh polygons (y = 0), as the runtime tile holds them
        nav::NavTile tile;
        if (nav::Status st = m2::make_map2d_tile(mesh, tile); !st) return fail(nav::Status{st.code, path + ": " + st.message});
        if (nav::Status st = nav::write_tile_obj(o.obj_out, tile); !st) return fail(st);
    }
    const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    counts["polys"] = nm.npolys;
    counts["verts"] = nm.nverts;
    json paths;
    if (npaths > 0 || !pairs_path.empty()) {
        std::vector<PathPair> pairs;
        if (nav::Status st = collect_pairs(nm, pairs_path, o.max_bytes, npaths, seed, pairs); !st) return fail(st);
        if (nav::Status st = run_paths(nm, pairs, params.path_mode(), compare, paths); !st) return fail(st);
    }
    if (as_json) {
        json out;
        out["mesh"] = {{"path", path}, {"kind", ends_with(path, ".json") ? "map2d" : "polyanya_mesh"},
                       {"bmin", {nm.bmin[0], nm.bmin[1], nm.bmin[2]}}, {"bmax", {nm.bmax[0], nm.bmax[1], nm.bmax[2]}}};
        out["config"] = json(nav::config_json(params));
        out["counts"] = counts;
        out["timings_ms"] = {{"total", build_ms}};
        if (!paths.is_null()) out["paths"] = paths;
        std::cout << out.dump(2) << "\n";
    } else {
        std::printf("2D map %s: %d polygons, %d vertices, built in %.3f ms\n", path.c_str(), nm.npolys, nm.nverts, build_ms);
        if (!paths.is_null())
            std::printf("paths: %d of %d reached, %.0f queries/s (%s)\n", paths["found"].get<int>(),
                        paths["count"].get<int>(), paths["queries_per_sec"].get<double>(),
                        paths["path_mode"].get<std::string>().c_str());
        if (!paths.is_null()) print_compare(paths);
    }
    return 0;
}

// Text mode: each pair of the file is read, routed and forgotten (memory stays flat for millions
// of lines); only the totals are kept.
nav::Status stream_pairs(const nav::NavMesh& nm, const std::string& path, uint64_t max_bytes, json& out) {
    nav::NavQuery q;
    q.init(&nm);
    const nav::QueryFilter filter;
    const nav::StraightPathOptions opts;
    const float ext[3] = {2.0f, 4.0f, 2.0f};
    nav::Route r;
    int64_t count = 0, found = 0;
    double secs = 0;
    nav::Status st = read_pairs(path, max_bytes, [&](const PathPair& p) {
        const auto t0 = std::chrono::steady_clock::now();
        if (nav::Status s = q.find_route(p.s, p.e, ext, filter, opts, r); !s) return s;
        secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ++count;
        found += r.found() && r.path.reached && !r.straight.partial;
        return nav::Status::ok();
    });
    if (!st) return st;
    out = {{"count", count}, {"found", found}, {"queries_per_sec", secs > 0 ? static_cast<double>(count) / secs : 0.0}};
    return nav::Status::ok();
}

// This process's peak resident set in bytes (VmHWM: this image only, not the process that started
// it), 0 when /proc is not there.
uint64_t peak_rss() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::strtoull(line.c_str() + 6, nullptr, 10) * 1024;
    return 0;
}

// An output file we will write after the bake: checked before it, so a long bake does not end in
// "cannot write". The file itself is not created here.
nav::Status check_output_path(const std::string& opt, const std::string& path) {
    namespace fs = std::filesystem;
    if (path.empty()) return nav::Status::bad_input(opt + ": empty path (expected a file name to write)");
    std::error_code ec;
    const fs::path p(path);
    if (fs::is_directory(p, ec)) return nav::Status::bad_input(opt + " " + path + ": is a directory, expected a file");
    if (fs::exists(p, ec)) {
        if (::access(path.c_str(), W_OK) != 0) return nav::Status::bad_input(opt + " " + path + ": not writable");
        return nav::Status::ok();
    }
    const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec))
        return nav::Status::bad_input(opt + " " + path + ": directory " + dir.string() + " does not exist");
    if (::access(dir.c_str(), W_OK) != 0)
        return nav::Status::bad_input(opt + " " + path + ": directory " + dir.string() + " is not writable");
    return nav::Status::ok();
}

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

// ---- command line ------------------------------------------------------------------------------

// Every flag as given.
struct Args {
    std::string mesh_path, config_path, incremental, obj_out, pairs_path, mesh_out, only_tile;
    std::vector<std::string> sets;
    bool as_json = false, compare_optimal = false, keep_intermediates = false;
    bool obj_out_given = false, mesh_out_given = false;  // given, even as an empty path
    int reps = 1, npaths = 0;
    uint64_t seed = 1;
    double max_memory_mb = 4096, max_input_mb = 1024;
};

// CLI11 over argv: nullopt to go on, else the exit code (0 after --help, 2 after a parse error,
// both printed).
std::optional<int> parse_args(int argc, char** argv, Args& a) {
    CLI::App app{"navbake: bake a navigation mesh from a triangle mesh, headless"};
    app.add_option("mesh", a.mesh_path,
                   "Wavefront OBJ mesh (Y up, metres), or a 2D map: .json (outline + obstacles) or Polyanya .mesh")
        ->required();
    app.add_option("--config", a.config_path, "JSON config: parameter names as keys, optional \"volumes\"");
    app.add_option("--set", a.sets, "Set a parameter, NAME=VALUE (repeatable; applied after --config)");
    app.add_flag("--json", a.as_json, "Print one JSON object (mesh, config, grid, counts, timings_ms)");
    app.add_option("--reps", a.reps, "Bake N times; timings are medians")->check(CLI::Range(1, 1000));
    auto* paths_opt = app.add_option("--paths", a.npaths, "Find paths between N random point pairs on the navmesh")
                          ->check(CLI::Range(1, 1000000));
    app.add_option("--seed", a.seed, "Seed for --paths (same seed, same pairs)")->needs(paths_opt);
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
                 "Tiled bakes: keep every tile's intermediate results (default: only each tile's polygons and detail)");
    app.add_option("--max-memory", a.max_memory_mb, "Refuse grids estimated to need more than this many MiB")
        ->check(mib_range(1.0, 1048576.0));
    app.add_option("--max-input", a.max_input_mb, "Refuse input files (mesh, 2D map, --pairs) larger than this many MiB (default 1024)")
        ->check(mib_range(1e-6, 1048576.0));
    app.footer(nav::params_help());
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "navbake: error: " << e.what() << "\n(run navbake --help for usage)\n";
        return 2;
    }
    a.obj_out_given = app.count("--obj-out") > 0;
    a.mesh_out_given = app.count("--mesh-out") > 0;
    return std::nullopt;
}

// What the flags ask for, checked before anything is read or baked.
struct Job {
    nav::Params params;
    std::vector<nav::ConvexVolume> volumes;
    std::string inc_name, inc_value;  // --incremental
    int tile_x = -1, tile_y = -1;     // --tile
    uint64_t max_input = 0;           // --max-input, bytes
    bool map2d = false;               // a .json or .mesh 2D map, not an OBJ
};

// --config, then --set, then every other flag that can be checked without the mesh: bad input
// names the flag (or the config file) and what was expected.
nav::Status prepare_job(const Args& a, Job& job) {
    if (!a.config_path.empty())
        if (nav::Status st = nav::load_config_file(a.config_path, job.params, job.volumes); !st) return st;
    if (nav::Status st = nav::apply_assignments("--set", a.sets, job.params); !st) return st;
    if (!a.incremental.empty()) {
        if (nav::Status st = nav::split_assignment("--incremental", a.incremental, job.inc_name, job.inc_value); !st)
            return st;
        nav::Params probe = job.params;  // validate before baking
        if (nav::Status st = nav::apply_assignment("--incremental", a.incremental, probe); !st) return st;
    }
    job.max_input = static_cast<uint64_t>(a.max_input_mb * 1024.0 * 1024.0);
    job.map2d = ends_with(a.mesh_path, ".json") || ends_with(a.mesh_path, ".mesh");
    if (!a.obj_out.empty() || a.obj_out_given)
        if (nav::Status st = check_output_path("--obj-out", a.obj_out); !st) return st;
    if (!a.mesh_out.empty() || a.mesh_out_given) {
        if (!job.map2d)
            return nav::Status::bad_input("--mesh-out writes a 2D map's polygons as a Polyanya .mesh: it needs "
                                          "a .json or .mesh input, not " + a.mesh_path + " (use --obj-out)");
        if (nav::Status st = check_output_path("--mesh-out", a.mesh_out); !st) return st;
    }
    if (!a.pairs_path.empty())
        if (nav::Status st = nav::check_input_file(a.pairs_path, "pairs file"); !st) return st;
    if (!a.only_tile.empty()) {
        char extra = 0;
        if (std::sscanf(a.only_tile.c_str(), "%d,%d%c", &job.tile_x, &job.tile_y, &extra) != 2 || job.tile_x < 0 ||
            job.tile_y < 0)
            return nav::Status::bad_input("--tile " + a.only_tile + ": expected X,Y, two whole numbers >= 0");
        if (job.params.i(nav::ParamId::tile_size) == 0)
            return nav::Status::bad_input("--tile " + a.only_tile + ": needs --set tile_size=N (N > 0)");
    }
    const bool tiled = job.params.i(nav::ParamId::tile_size) > 0;
    if (job.tile_x >= 0 && (a.npaths > 0 || !a.pairs_path.empty()))
        return nav::Status::bad_input("--paths / --pairs need the whole navmesh: not with --tile");
    if (tiled && !a.obj_out.empty())
        return nav::Status::bad_input("--obj-out writes the solo polygon mesh; it needs tile_size 0");
    return nav::Status::ok();
}

// ---- the OBJ bake --------------------------------------------------------------------------------

// Per-stage and total times of every rep, milliseconds.
struct RepTimes {
    std::vector<std::vector<double>> stage_ms = std::vector<std::vector<double>>(nav::kStageCount);
    std::vector<double> total_ms;
};

// Bakes `reps` times from the input stage. A failure reports the diagnostics and the stage that
// failed on stderr, and returns its status.
nav::Status bake_reps(nav::Pipeline& pipe, int reps, RepTimes& times) {
    for (int r = 0; r < reps; ++r) {
        pipe.mark_dirty(nav::Stage::Input);
        const auto t0 = std::chrono::steady_clock::now();
        if (nav::Status st = pipe.run(); !st) {
            const auto b = pipe.snapshot();
            report_diagnostics(*b);
            if (b->error_stage >= 0)
                std::cerr << "navbake: stage " << nav::stage_name(static_cast<nav::Stage>(b->error_stage)) << " failed\n";
            return st;
        }
        times.total_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        const auto b = pipe.snapshot();
        for (int s = 0; s < nav::kStageCount; ++s)
            times.stage_ms[static_cast<size_t>(s)].push_back(b->stats[static_cast<size_t>(s)].ms);
    }
    return nav::Status::ok();
}

// --incremental: sets the parameter, bakes again and reports the stages that re-ran.
nav::Status bake_incremental(nav::Pipeline& pipe, const Job& job, json& inc) {
    if (nav::Status st = pipe.set_param(job.inc_name, job.inc_value); !st) return st;
    const auto t0 = std::chrono::steady_clock::now();
    if (nav::Status st = pipe.run(); !st) return st;
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const auto b2 = pipe.snapshot();
    json names = json::array();
    for (nav::Stage s : b2->stages_run) names.push_back(std::string(nav::stage_name(s)));
    inc = {{"param", job.inc_name}, {"value", job.inc_value}, {"stages_run", names}, {"ms", ms}, {"counts", counts_json(*b2)}};
    return nav::Status::ok();
}

// --paths / --pairs on the bake's navmesh: streamed in text mode with the funnel, else collected.
nav::Status bake_paths(const nav::Bake& bake, const Args& a, const Job& job, json& paths) {
    if (!a.pairs_path.empty() && !a.as_json && !a.compare_optimal && bake.params.path_mode() == nav::PathMode::Funnel) {
        if (nav::Status st = stream_pairs(*bake.navmesh, a.pairs_path, job.max_input, paths); !st) return st;
        paths["path_mode"] = "funnel";
    } else if (a.npaths > 0 || !a.pairs_path.empty()) {
        std::vector<PathPair> pairs;
        if (nav::Status st = collect_pairs(*bake.navmesh, a.pairs_path, job.max_input, a.npaths, a.seed, pairs); !st)
            return st;
        if (nav::Status st = run_paths(*bake.navmesh, pairs, bake.params.path_mode(), a.compare_optimal, paths); !st)
            return st;
    }
    return nav::Status::ok();
}

// What the report prints: the bake, its times and what ran after it.
struct Report {
    const nav::Bake& bake;
    const nav::Pipeline& pipe;
    const RepTimes& times;
    json diagnostics, inc, paths;
};

void print_json_report(const Args& a, const Job& job, const Report& r) {
    const nav::Bake& bake = r.bake;
    const nav::InputMesh& m = *bake.mesh;
    json out;
    out["mesh"] = {{"path", m.path},
                   {"verts", m.vert_count()},
                   {"tris", m.tri_count()},
                   {"bmin", {m.bmin[0], m.bmin[1], m.bmin[2]}},
                   {"bmax", {m.bmax[0], m.bmax[1], m.bmax[2]}}};
    out["config"] = json(nav::config_json(bake.params));
    out["config"]["volumes"] = static_cast<int>(bake.volumes.size());
    out["grid"] = {{"width", bake.config.width}, {"height", bake.config.height}};
    out["memory"] = {{"estimate", r.pipe.estimate_memory()}, {"limit", r.pipe.memory_limit()}, {"peak_rss", peak_rss()}};
    out["counts"] = counts_json(bake);
    out["walkable_area"] = bake.walkable_area();
    out["diagnostics"] = r.diagnostics;
    json t = json::object();
    for (int s = 0; s < nav::kStageCount; ++s)
        t[std::string(nav::stage_name(static_cast<nav::Stage>(s)))] = median(r.times.stage_ms[static_cast<size_t>(s)]);
    t["total"] = median(r.times.total_ms);
    out["timings_ms"] = t;
    out["reps"] = a.reps;
    if (!r.inc.is_null()) out["incremental"] = r.inc;
    if (!r.paths.is_null()) out["paths"] = r.paths;
    out["peak_rss_mib"] = peak_rss_mib();
    if (bake.tiled()) out["tiles"] = tiles_json(bake);
    if (job.tile_x >= 0) out["tile"] = one_tile_json(bake, job.tile_x, job.tile_y);
    std::cout << out.dump(2) << "\n";
}

void print_text_report(const Args& a, const Job& job, const Report& r) {
    const nav::Bake& bake = r.bake;
    const nav::InputMesh& m = *bake.mesh;
    std::printf("mesh %s: %d verts, %d tris, grid %d x %d\n", m.path.c_str(), m.vert_count(), m.tri_count(),
                bake.config.width, bake.config.height);
    std::printf("%-10s %10s  %s\n", "stage", "ms", "counts");
    for (int s = 0; s < nav::kStageCount; ++s) {
        std::string counts;
        for (const nav::StageCount& c : bake.stats[static_cast<size_t>(s)].counts)
            counts += std::string(c.name) + "=" + std::to_string(c.value) + " ";
        std::printf("%-10s %10.3f  %s\n", std::string(nav::stage_name(static_cast<nav::Stage>(s))).c_str(),
                    median(r.times.stage_ms[static_cast<size_t>(s)]), counts.c_str());
    }
    std::printf("%-10s %10.3f  (median of %d)\n", "total", median(r.times.total_ms), a.reps);
    std::printf("walkable area %.2f m^2\n", bake.walkable_area());
    if (bake.tiled()) {
        const json t = tiles_json(bake);
        std::printf("tiles %d x %d of %d cells: %d built, %d empty, ms min %.3f median %.3f max %.3f\n",
                    t["cols"].get<int>(), t["rows"].get<int>(), t["size"].get<int>(), t["built"].get<int>(),
                    t["empty"].get<int>(), t["ms"]["min"].get<double>(), t["ms"]["median"].get<double>(),
                    t["ms"]["max"].get<double>());
    }
    if (job.tile_x >= 0)
        std::printf("tile %d,%d: %s\n", job.tile_x, job.tile_y, one_tile_json(bake, job.tile_x, job.tile_y).dump().c_str());
    std::printf("peak rss %.1f MiB\n", peak_rss_mib());
    if (!r.inc.is_null()) std::printf("incremental: %s\n", r.inc.dump().c_str());
    if (!r.paths.is_null())
        std::printf("paths: %lld of %lld reached, %.0f queries/s (nearest + %s)\n",
                    static_cast<long long>(r.paths["found"].get<int64_t>()),
                    static_cast<long long>(r.paths["count"].get<int64_t>()), r.paths["queries_per_sec"].get<double>(),
                    r.paths["path_mode"].get<std::string>() == "optimal" ? "Polyanya" : "A* + funnel");
    if (!r.paths.is_null()) print_compare(r.paths);
}

// An OBJ mesh: load, bake (--reps times), --incremental, the paths, --obj-out, then the report.
int run_obj(const Args& a, const Job& job) {
    nav::Pipeline pipe;
    pipe.set_keep_intermediates(a.keep_intermediates);
    pipe.set_only_tile(job.tile_x, job.tile_y);
    pipe.set_memory_limit(static_cast<uint64_t>(a.max_memory_mb * 1024.0 * 1024.0));
    {
        nav::ObjReadOptions ropt;
        ropt.max_bytes = job.max_input;
        nav::InputMesh mesh;
        if (nav::Status st = nav::load_obj(a.mesh_path, mesh, ropt); !st) return fail(st);
        for (const std::string& w : mesh.warnings) std::cerr << "navbake: warning: " << w << "\n";
        if (nav::Status st = pipe.set_mesh(std::move(mesh)); !st) return fail(st);
    }
    pipe.set_params(job.params);
    pipe.set_volumes(job.volumes);

    RepTimes times;
    if (nav::Status st = bake_reps(pipe, a.reps, times); !st) return fail(st);
    const auto bake = pipe.snapshot();
    Report report{*bake, pipe, times, {}, {}, {}};
    if (!a.incremental.empty())
        if (nav::Status st = bake_incremental(pipe, job, report.inc); !st) return fail(st);
    if (nav::Status st = bake_paths(*bake, a, job, report.paths); !st) return fail(st);

    for (const std::string& w : bake->warnings()) std::cerr << "navbake: warning: " << w << "\n";
    report.diagnostics = report_diagnostics(*bake);
    if (!a.obj_out.empty())
        if (nav::Status st = nav::write_navmesh_obj(a.obj_out, *bake->polymesh, bake->detail.get()); !st) return fail(st);
    if (a.as_json) print_json_report(a, job, report);
    else print_text_report(a, job, report);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    if (const std::optional<int> code = parse_args(argc, argv, args)) return *code;
    bool tiled = false;  // the out-of-memory advice differs: a tiled bake is told nothing about tiles
    try {
        Job job;
        if (nav::Status st = prepare_job(args, job); !st) return fail(st);
        tiled = !job.map2d && job.params.i(nav::ParamId::tile_size) > 0;
        if (job.map2d) {
            Map2DRun run;
            run.pairs_path = args.pairs_path;
            run.mesh_out = args.mesh_out;
            run.obj_out = args.obj_out;
            run.npaths = args.npaths;
            run.seed = args.seed;
            run.max_bytes = job.max_input;
            run.as_json = args.as_json;
            run.compare = args.compare_optimal;
            return run_map2d(args.mesh_path, job.params, run);
        }
        return run_obj(args, job);
    } catch (const std::bad_alloc&) {  // outside a stage (the stages report it themselves): the same contract
        return fail(nav::out_of_memory("navbake", tiled));
    } catch (const std::exception& e) {
        std::cerr << "navbake: internal error: " << e.what() << "\n";
        return 1;
    }
}
