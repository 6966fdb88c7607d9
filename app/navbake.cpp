// navbake: bakes a mesh headless and prints counts and per-stage timings (JSON with --json).
// Exit codes: 0 success, 2 bad input or parameters (message on stderr), 1 internal failure.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "core/build/diagnose.h"
#include "core/build/obj_export.h"
#include "core/build/pipeline.h"
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

bool split_assignment(const std::string& s, std::string& name, std::string& value) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) return false;
    name = s.substr(0, eq);
    value = s.substr(eq + 1);
    return true;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

json config_json(const nav::Params& p) {
    json c = json::object();
    for (const nav::ParamDef& d : nav::param_table()) {
        switch (d.kind) {
            case nav::ParamKind::Float: c[std::string(d.name)] = p.get(d.id); break;
            case nav::ParamKind::Int: c[std::string(d.name)] = p.i(d.id); break;
            case nav::ParamKind::Bool: c[std::string(d.name)] = p.b(d.id); break;
            case nav::ParamKind::Enum: c[std::string(d.name)] = p.to_string(d.id); break;
        }
    }
    return c;
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

// Reads --pairs: one "sx sy sz ex ey ez" per line; blank lines and '#' comments are skipped.
nav::Status read_pairs(const std::string& path, std::vector<PathPair>& out) {
    std::ifstream f(path);
    if (!f) return nav::Status::bad_input(path + ": cannot open pairs file");
    std::string line;
    int line_no = 0;
    while (std::getline(f, line)) {
        ++line_no;
        const size_t c = line.find('#');
        if (c != std::string::npos) line.resize(c);
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        PathPair p{};
        const char* q = line.c_str();
        for (int k = 0; k < 6; ++k) {
            char* e = nullptr;
            const double v = std::strtod(q, &e);
            if (e == q)
                return nav::Status::bad_input(path + ":" + std::to_string(line_no) +
                                              ": expected 6 numbers 'sx sy sz ex ey ez'");
            if (!std::isfinite(v))
                return nav::Status::bad_input(path + ":" + std::to_string(line_no) + ": coordinate " +
                                              std::to_string(k + 1) + " is not a finite number");
            (k < 3 ? p.s[k] : p.e[k - 3]) = static_cast<float>(v);
            q = e;
        }
        while (*q == ' ' || *q == '\t' || *q == '\r') ++q;
        if (*q) return nav::Status::bad_input(path + ":" + std::to_string(line_no) + ": extra text after 6 numbers");
        out.push_back(p);
    }
    if (out.empty()) return nav::Status::bad_input(path + ": no pairs (expected lines 'sx sy sz ex ey ez')");
    return nav::Status::ok();
}

// Runs nearest polygon + A* + funnel for every pair; items as in the JSON contract.
nav::Status run_paths(const nav::NavMesh& nm, const std::vector<PathPair>& pairs, json& out) {
    nav::NavQuery q;
    q.init(&nm);
    const nav::QueryFilter filter;
    const nav::StraightPathOptions opts;
    const float ext[3] = {2.0f, 4.0f, 2.0f};  // search box half extents around each end point, metres
    std::vector<nav::Route> routes(pairs.size());
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < pairs.size(); ++i)
        if (nav::Status st = q.find_route(pairs[i].s, pairs[i].e, ext, filter, opts, routes[i]); !st) return st;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    json items = json::array();
    int found = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
        const nav::Route& r = routes[i];
        json pts = json::array();
        for (int k = 0; k < r.straight.size(); ++k)
            pts.push_back({r.straight.points[static_cast<size_t>(k) * 3], r.straight.points[static_cast<size_t>(k) * 3 + 1],
                           r.straight.points[static_cast<size_t>(k) * 3 + 2]});
        const bool reached = r.found() && r.path.reached && !r.straight.partial;
        found += reached;
        json item = {{"start", {pairs[i].s[0], pairs[i].s[1], pairs[i].s[2]}},
                     {"end", {pairs[i].e[0], pairs[i].e[1], pairs[i].e[2]}},
                     {"polys", r.path.polys.size()},
                     {"points", pts},
                     {"length", r.found() ? r.straight.length() : 0.0f},
                     {"reached", reached}};
        if (r.start.poly == nav::kNoPoly) item["error"] = "start is not on the navmesh";
        else if (r.end.poly == nav::kNoPoly) item["error"] = "end is not on the navmesh";
        items.push_back(item);
    }
    out = {{"count", pairs.size()},
           {"found", found},
           {"queries_per_sec", secs > 0 ? static_cast<double>(pairs.size()) / secs : 0.0},
           {"items", items}};
    return nav::Status::ok();
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"navbake: bake a navigation mesh from a triangle mesh, headless"};
    std::string mesh_path, config_path, incremental;
    std::vector<std::string> sets;
    bool as_json = false;
    int reps = 1;
    double max_memory_mb = 4096;
    app.add_option("mesh", mesh_path, "Wavefront OBJ mesh (Y up, metres)")->required();
    app.add_option("--config", config_path, "JSON config: parameter names as keys, optional \"volumes\"");
    app.add_option("--set", sets, "Set a parameter, NAME=VALUE (repeatable; applied after --config)");
    app.add_flag("--json", as_json, "Print one JSON object (mesh, config, grid, counts, timings_ms)");
    app.add_option("--reps", reps, "Bake N times; timings are medians")->check(CLI::Range(1, 1000));
    std::string obj_out, pairs_path;
    int npaths = 0;
    uint64_t seed = 1;
    auto* paths_opt = app.add_option("--paths", npaths, "Find paths between N random point pairs on the navmesh")
                          ->check(CLI::Range(1, 1000000));
    app.add_option("--seed", seed, "Seed for --paths (same seed, same pairs)")->needs(paths_opt);
    app.add_option("--pairs", pairs_path, "Find paths for the pairs in FILE, one 'sx sy sz ex ey ez' per line")
        ->excludes(paths_opt);
    app.add_option("--obj-out", obj_out, "Write the polygon mesh (group polymesh) and detail mesh (group detail) as OBJ");
    app.add_option("--incremental", incremental,
                   "After the bake, set NAME=VALUE and bake again, reporting the stages that re-ran");
    std::string only_tile;
    bool keep_intermediates = false;
    app.add_option("--tile", only_tile, "With tile_size > 0: bake only tile X,Y (column, row) and print its counts");
    app.add_flag("--keep-intermediates", keep_intermediates,
                 "Tiled bakes: keep every tile's intermediate results (default: only each tile's polygons and detail)");
    app.add_option("--max-memory", max_memory_mb, "Refuse grids estimated to need more than this many MiB")
        ->check(CLI::Range(1.0, 1048576.0));
    app.footer(nav::params_help());
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "navbake: error: " << e.what() << "\n(run navbake --help for usage)\n";
        return 2;
    }

    try {
        nav::Params params;
        std::vector<nav::ConvexVolume> volumes;
        if (!config_path.empty())
            if (nav::Status st = nav::load_config_file(config_path, params, volumes); !st) return fail(st);
        for (const std::string& s : sets) {
            std::string name, value;
            if (!split_assignment(s, name, value))
                return fail(nav::Status::bad_input("--set " + s + ": expected NAME=VALUE"));
            if (nav::Status st = params.set_from_string(name, value); !st)
                return fail(nav::Status::bad_input("--set " + s + ": " + st.message));
        }
        std::string inc_name, inc_value;
        if (!incremental.empty()) {
            if (!split_assignment(incremental, inc_name, inc_value))
                return fail(nav::Status::bad_input("--incremental " + incremental + ": expected NAME=VALUE"));
            nav::Params probe = params;  // validate before baking
            if (nav::Status st = probe.set_from_string(inc_name, inc_value); !st)
                return fail(nav::Status::bad_input("--incremental " + incremental + ": " + st.message));
        }

        int tile_x = -1, tile_y = -1;
        if (!only_tile.empty()) {
            char extra = 0;
            if (std::sscanf(only_tile.c_str(), "%d,%d%c", &tile_x, &tile_y, &extra) != 2 || tile_x < 0 || tile_y < 0)
                return fail(nav::Status::bad_input("--tile " + only_tile + ": expected X,Y, two whole numbers >= 0"));
            if (params.i(nav::ParamId::tile_size) == 0)
                return fail(nav::Status::bad_input("--tile " + only_tile + ": needs --set tile_size=N (N > 0)"));
        }
        const bool tiled = params.i(nav::ParamId::tile_size) > 0;
        if (tile_x >= 0 && (npaths > 0 || !pairs_path.empty()))
            return fail(nav::Status::bad_input("--paths / --pairs need the whole navmesh: not with --tile"));
        if (tiled && !obj_out.empty())
            return fail(nav::Status::bad_input("--obj-out writes the solo polygon mesh; it needs tile_size 0"));

        nav::Pipeline pipe;
        pipe.set_keep_intermediates(keep_intermediates);
        pipe.set_only_tile(tile_x, tile_y);
        pipe.set_memory_limit(static_cast<uint64_t>(max_memory_mb * 1024.0 * 1024.0));
        if (nav::Status st = pipe.load_mesh(mesh_path); !st) return fail(st);
        pipe.set_params(params);
        pipe.set_volumes(volumes);

        std::vector<std::vector<double>> stage_ms(nav::kStageCount);
        std::vector<double> total_ms;
        for (int r = 0; r < reps; ++r) {
            pipe.mark_dirty(nav::Stage::Input);
            const auto t0 = std::chrono::steady_clock::now();
            if (nav::Status st = pipe.run(); !st) {
                const auto b = pipe.snapshot();
                report_diagnostics(*b);
                if (b->error_stage >= 0)
                    std::cerr << "navbake: stage " << nav::stage_name(static_cast<nav::Stage>(b->error_stage))
                              << " failed\n";
                return fail(st);
            }
            total_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            const auto b = pipe.snapshot();
            for (int s = 0; s < nav::kStageCount; ++s) stage_ms[static_cast<size_t>(s)].push_back(b->stats[static_cast<size_t>(s)].ms);
        }
        const auto bake = pipe.snapshot();

        json inc;
        if (!incremental.empty()) {
            if (nav::Status st = pipe.set_param(inc_name, inc_value); !st) return fail(st);
            const auto t0 = std::chrono::steady_clock::now();
            if (nav::Status st = pipe.run(); !st) return fail(st);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            const auto b2 = pipe.snapshot();
            json names = json::array();
            for (nav::Stage s : b2->stages_run) names.push_back(std::string(nav::stage_name(s)));
            inc = {{"param", inc_name}, {"value", inc_value}, {"stages_run", names}, {"ms", ms},
                   {"counts", counts_json(*b2)}};
        }

        json paths;
        if (npaths > 0 || !pairs_path.empty()) {
            std::vector<PathPair> pairs;
            if (!pairs_path.empty()) {
                if (nav::Status st = read_pairs(pairs_path, pairs); !st) return fail(st);
            } else {
                nav::NavQuery q;
                q.init(bake->navmesh.get());
                nav::Rng rng(seed);
                const nav::QueryFilter filter;
                for (int i = 0; i < npaths; ++i) {
                    nav::RandomPoint a, b;
                    if (nav::Status st = q.random_point(filter, rng, a); !st) return fail(st);
                    if (nav::Status st = q.random_point(filter, rng, b); !st) return fail(st);
                    if (a.poly == nav::kNoPoly || b.poly == nav::kNoPoly)
                        return fail(nav::Status::bad_input("--paths: the navmesh has no polygons to pick points on"));
                    PathPair p{};
                    for (int k = 0; k < 3; ++k) p.s[k] = a.point[k], p.e[k] = b.point[k];
                    pairs.push_back(p);
                }
            }
            if (nav::Status st = run_paths(*bake->navmesh, pairs, paths); !st) return fail(st);
        }

        const nav::InputMesh& m = *bake->mesh;
        for (const std::string& w : bake->warnings()) std::cerr << "navbake: warning: " << w << "\n";
        const json diagnostics = report_diagnostics(*bake);
        if (!obj_out.empty())
            if (nav::Status st = nav::write_navmesh_obj(obj_out, *bake->polymesh, bake->detail.get()); !st) return fail(st);
        if (as_json) {
            json out;
            out["mesh"] = {{"path", m.path},
                           {"verts", m.vert_count()},
                           {"tris", m.tri_count()},
                           {"bmin", {m.bmin[0], m.bmin[1], m.bmin[2]}},
                           {"bmax", {m.bmax[0], m.bmax[1], m.bmax[2]}}};
            out["config"] = config_json(bake->params);
            out["config"]["volumes"] = static_cast<int>(bake->volumes.size());
            out["grid"] = {{"width", bake->config.width}, {"height", bake->config.height}};
            out["counts"] = counts_json(*bake);
            out["walkable_area"] = bake->walkable_area();
            out["diagnostics"] = diagnostics;
            json t = json::object();
            for (int s = 0; s < nav::kStageCount; ++s)
                t[std::string(nav::stage_name(static_cast<nav::Stage>(s)))] = median(stage_ms[static_cast<size_t>(s)]);
            t["total"] = median(total_ms);
            out["timings_ms"] = t;
            out["reps"] = reps;
            if (!inc.is_null()) out["incremental"] = inc;
            if (!paths.is_null()) out["paths"] = paths;
            out["peak_rss_mib"] = peak_rss_mib();
            if (bake->tiled()) out["tiles"] = tiles_json(*bake);
            if (tile_x >= 0) out["tile"] = one_tile_json(*bake, tile_x, tile_y);
            std::cout << out.dump(2) << "\n";
        } else {
            std::printf("mesh %s: %d verts, %d tris, grid %d x %d\n", m.path.c_str(), m.vert_count(), m.tri_count(),
                        bake->config.width, bake->config.height);
            std::printf("%-10s %10s  %s\n", "stage", "ms", "counts");
            for (int s = 0; s < nav::kStageCount; ++s) {
                std::string counts;
                for (const nav::StageCount& c : bake->stats[static_cast<size_t>(s)].counts)
                    counts += std::string(c.name) + "=" + std::to_string(c.value) + " ";
                std::printf("%-10s %10.3f  %s\n", std::string(nav::stage_name(static_cast<nav::Stage>(s))).c_str(),
                            median(stage_ms[static_cast<size_t>(s)]), counts.c_str());
            }
            std::printf("%-10s %10.3f  (median of %d)\n", "total", median(total_ms), reps);
            std::printf("walkable area %.2f m^2\n", bake->walkable_area());
            if (bake->tiled()) {
                const json t = tiles_json(*bake);
                std::printf("tiles %d x %d of %d cells: %d built, %d empty, ms min %.3f median %.3f max %.3f\n",
                            t["cols"].get<int>(), t["rows"].get<int>(), t["size"].get<int>(), t["built"].get<int>(),
                            t["empty"].get<int>(), t["ms"]["min"].get<double>(), t["ms"]["median"].get<double>(),
                            t["ms"]["max"].get<double>());
            }
            if (tile_x >= 0) std::printf("tile %d,%d: %s\n", tile_x, tile_y, one_tile_json(*bake, tile_x, tile_y).dump().c_str());
            std::printf("peak rss %.1f MiB\n", peak_rss_mib());
            if (!inc.is_null()) std::printf("incremental: %s\n", inc.dump().c_str());
            if (!paths.is_null())
                std::printf("paths: %d of %d reached, %.0f queries/s (nearest + A* + funnel)\n", paths["found"].get<int>(),
                            paths["count"].get<int>(), paths["queries_per_sec"].get<double>());
        }
        return 0;
    } catch (const std::bad_alloc&) {
        std::cerr << "navbake: error: out of memory\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "navbake: internal error: " << e.what() << "\n";
        return 1;
    }
}
