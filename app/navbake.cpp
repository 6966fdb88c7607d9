// navbake: bakes a mesh headless and prints counts and per-stage timings (JSON with --json).
// Exit codes: 0 success, 2 bad input or parameters (message on stderr), 1 internal failure.
#include <array>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <fstream>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "app/navbake_args.h"
#include "app/navbake_crowd.h"
#include "app/navbake_farm.h"
#include "core/formats/config_json.h"
#include "core/formats/detour_export.h"
#include "core/explain/diagnose.h"
#include "core/formats/gltf_export.h"
#include "core/runtime/detour_layout.h"
#include "core/formats/level_import.h"
#include "core/formats/obj_export.h"
#include "core/formats/params_json.h"
#include "core/formats/path_tests_json.h"
#include "core/pipeline/pipeline.h"
#include "core/explain/why.h"
#include "core/io/file.h"
#include "core/map2d/map2d.h"
#include "core/map2d/map2d_tile.h"
#include "core/map2d/mesh_file.h"
#include "core/runtime/detour_load.h"
#include "core/runtime/query.h"

namespace {

using navbake::CrowdRun;
using navbake::crowd_json;
using navbake::print_crowd_text;
using navbake::run_crowd;
using navbake::Args;
using navbake::ends_with;
using navbake::Job;
using nlohmann::json;

// A message for the terminal: control bytes, and the invisible code points a file may carry (a
// byte order mark, zero-width spaces), as escapes, so what is wrong is visible; other UTF-8 (file
// names in any language) as it is.
std::string visible(std::string_view s) {
    std::string out;
    char buf[16];
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if ((c < 0x20 && c != '\n') || c == 0x7f) {
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
            continue;
        }
        if ((c == 0xef || c == 0xe2) && i + 2 < s.size()) {  // U+FEFF, U+200B-U+200F, U+2060
            const auto c1 = static_cast<unsigned char>(s[i + 1]), c2 = static_cast<unsigned char>(s[i + 2]);
            unsigned cp = ((c & 0x0fu) << 12) | ((c1 & 0x3fu) << 6) | (c2 & 0x3fu);
            if ((c1 & 0xc0) == 0x80 && (c2 & 0xc0) == 0x80 &&
                (cp == 0xfeff || (cp >= 0x200b && cp <= 0x200f) || cp == 0x2060)) {
                std::snprintf(buf, sizeof buf, "\\u{%04X}", cp);
                out += buf;
                out += cp == 0xfeff ? " (a byte order mark)" : " (an invisible character)";
                i += 2;
                continue;
            }
        }
        out += static_cast<char>(c);
    }
    return out;
}

int fail(const nav::Status& st) {
    std::cerr << "navbake: error: " << visible(st.message) << "\n";
    return st.code == nav::Status::Code::BadInput ? 2 : 1;
}

// Settings and meshes known to go wrong (the debugger's Warnings panel): on stderr, each with the
// --set flags that fix it; returned for the JSON report.
json report_diagnostics(const nav::Bake& bake) {
    json list = json::array();
    if (!bake.mesh) return list;
    const nav::MeshShape shape = nav::analyze_mesh(*bake.mesh);
    for (const nav::Diagnostic& d : nav::diagnose(bake.inputs.params, &bake, &shape)) {
        std::string flags;
        json fix = json::object();
        nav::Params fixed = bake.inputs.params;
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
    if (b.auto_links)  // only with link_drop_height or link_jump_distance set: other reports stay as they were
        for (const char* k : {"auto_links", "links_rejected"}) c[k] = b.count(k);
    if (!b.inputs.links.empty()) c["manual_links"] = b.count("manual_links");  // only with the config's "links"
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
// are skipped, a UTF-8 byte order mark at the start is skipped (as the OBJ reader does). Each
// pair goes to `sink` as it is read, so the caller decides what to keep. The file is at most
// max_bytes (--max-input) and each line at most kMaxPairLineBytes.
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
        if (line_no == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a BOM
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

// The routes of --paths / --pairs, one pair at a time: NavQuery::find_route with A* + funnel
// (path_mode funnel) or Polyanya (optimal); with `compare` both, and each item gets
// length_funnel and length_optimal (3D polyline lengths) and length_funnel_xz and
// length_optimal_xz (in the xz projection, where Polyanya is shortest). Only the totals are kept,
// so a million pairs take the memory of one: the caller streams or drops each item.
// max_nodes: A*'s limit (the max_nodes parameter, 0 = none). An item not reached carries
// "partial" (its points lead toward the end, not to it) and "out_of_nodes" (the search stopped at
// its node limit: A*'s max_nodes, or Polyanya's cap); "out_of_nodes" in the totals counts them.
// The default filter, for one agent type (-1: any).
nav::QueryFilter type_filter(int agent_type) {
    nav::QueryFilter f;
    f.agent_type = agent_type;
    return f;
}

class PathRunner {
public:
    PathRunner(const nav::NavMesh& nm, nav::PathMode mode, bool compare, int max_nodes, int agent_type)
        : filter_(type_filter(agent_type)), mode_(mode), compare_(compare), run_funnel_(mode == nav::PathMode::Funnel || compare),
          run_optimal_(mode == nav::PathMode::Optimal || compare) {
        q_.init(&nm, max_nodes);
    }

    // Routes one pair; item() describes it until the next call.
    nav::Status route(const PathPair& p) {
        pair_ = p;
        for (int pass = 0; pass < 2; ++pass) {
            const bool opt = pass == 1;
            if (!(opt ? run_optimal_ : run_funnel_)) continue;
            nav::RouteOptions ro;
            ro.optimal = opt;
            const auto t0 = std::chrono::steady_clock::now();
            if (nav::Status st = q_.find_route(p.s, p.e, ext_, filter_, ro, opt ? optimal_ : funnel_); !st) return st;
            (opt ? secs_optimal_ : secs_funnel_) += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        }
        ++count_;
        found_ += reached(route_of_mode());
        out_of_nodes_ += route_of_mode().path.out_of_nodes;
        if (compare_ && reached(funnel_) && reached(optimal_)) {
            ++both_;
            sum_f_ += funnel_.length_xz(), sum_o_ += optimal_.length_xz();
            sum_f3_ += funnel_.straight.length(), sum_o3_ += optimal_.straight.length();
            if (optimal_.length_xz() > 0) ratio_max_ = std::max(ratio_max_, funnel_.length_xz() / optimal_.length_xz());
        }
        return nav::Status::ok();
    }

    // The last pair's straight path (x, y, z per point) until the next call.
    const std::vector<float>& points() const { return route_of_mode().straight.points; }

    // The last pair's item, as in the JSON contract.
    json item() const {
        const nav::Route& r = route_of_mode();
        json pts = json::array();
        const std::vector<float>& p = r.straight.points;
        for (size_t k = 0; k + 2 < p.size(); k += 3) pts.push_back({p[k], p[k + 1], p[k + 2]});
        json item = {{"start", {pair_.s[0], pair_.s[1], pair_.s[2]}},
                     {"end", {pair_.e[0], pair_.e[1], pair_.e[2]}},
                     {"points", pts},
                     {"length", r.found() ? double(r.straight.length()) : 0.0},
                     {"reached", reached(r)},
                     {"partial", !reached(r) && r.straight.size() > 0},
                     {"out_of_nodes", r.path.out_of_nodes}};
        if (mode_ != nav::PathMode::Optimal) item["polys"] = r.path.polys.size();
        if (compare_) {
            const bool fr = reached(funnel_), orr = reached(optimal_);
            item["length_funnel"] = fr ? double(funnel_.straight.length()) : 0.0;
            item["length_optimal"] = orr ? double(optimal_.straight.length()) : 0.0;
            item["length_funnel_xz"] = fr ? funnel_.length_xz() : 0.0;
            item["length_optimal_xz"] = orr ? optimal_.length_xz() : 0.0;
        }
        if (r.start.poly == nav::kNoRef) item["error"] = "start is not on the navmesh";
        else if (r.end.poly == nav::kNoRef) item["error"] = "end is not on the navmesh";
        return item;
    }

    // The totals: count, found, path_mode, queries_per_sec (and compare's).
    json summary() const {
        json out = json::object();
        const double secs = mode_ == nav::PathMode::Optimal ? secs_optimal_ : secs_funnel_;
        out["count"] = count_;
        out["found"] = found_;
        out["out_of_nodes"] = out_of_nodes_;
        out["path_mode"] = std::string(nav::kPathModeNames[static_cast<size_t>(mode_)]);
        out["queries_per_sec"] = secs > 0 ? static_cast<double>(count_) / secs : 0.0;
        if (compare_) {
            out["queries_per_sec_funnel"] = secs_funnel_ > 0 ? static_cast<double>(count_) / secs_funnel_ : 0.0;
            out["queries_per_sec_optimal"] = secs_optimal_ > 0 ? static_cast<double>(count_) / secs_optimal_ : 0.0;
            out["compare"] = {{"pairs", both_},
                              {"length_funnel_xz", sum_f_},
                              {"length_optimal_xz", sum_o_},
                              {"length_funnel", sum_f3_},
                              {"length_optimal", sum_o3_},
                              {"ratio_xz_total", sum_o_ > 0 ? sum_f_ / sum_o_ : 1.0},
                              {"ratio_xz_max", ratio_max_}};
        }
        return out;
    }

private:
    static bool reached(const nav::Route& x) { return x.found() && x.path.reached && !x.straight.partial; }
    const nav::Route& route_of_mode() const { return mode_ == nav::PathMode::Optimal ? optimal_ : funnel_; }

    nav::NavQuery q_;
    const nav::QueryFilter filter_;
    const float ext_[3] = {2.0f, 4.0f, 2.0f};  // search box half extents around each end point, metres
    nav::PathMode mode_;
    bool compare_, run_funnel_, run_optimal_;
    nav::Route funnel_, optimal_;
    PathPair pair_{};
    int64_t count_ = 0, found_ = 0, both_ = 0, out_of_nodes_ = 0;
    double secs_funnel_ = 0, secs_optimal_ = 0, sum_f_ = 0, sum_o_ = 0, sum_f3_ = 0, sum_o3_ = 0, ratio_max_ = 0;
};

// The JSON report with its path items streamed: everything but "paths" and "peak_rss_mib" first
// (pretty, 2 spaces, as before), then "paths" with "items" one compact object a line as each pair
// is routed, then the paths' totals, then "peak_rss_mib" (the whole run's). Memory stays flat for
// a million items. Nothing is printed before begin(), so an error found before it (a bad pairs
// file, a navmesh with no area) leaves stdout empty.
class JsonReport {
public:
    explicit JsonReport(json head) : head_(std::move(head)) {}
    void begin() {
        std::string h = head_.dump(2);
        if (h.size() >= 2 && h.compare(h.size() - 2, 2, "\n}") == 0) h.resize(h.size() - 2);
        else if (h == "{}") h = "{";
        std::fputs(h.c_str(), stdout);
        std::fputs(h == "{" ? "\n  \"paths\": {\n    \"items\": [" : ",\n  \"paths\": {\n    \"items\": [", stdout);
        begun_ = true;
    }
    void item(const json& it) {
        std::fputs(first_ ? "\n      " : ",\n      ", stdout);
        std::fputs(it.dump().c_str(), stdout);
        first_ = false;
    }
    void finish(const json& paths_summary) {
        std::fputs(first_ ? "]" : "\n    ]", stdout);
        for (auto it = paths_summary.begin(); it != paths_summary.end(); ++it)
            std::printf(",\n    \"%s\": %s", it.key().c_str(), it.value().dump().c_str());
        std::printf("\n  },\n  \"peak_rss_mib\": %s\n}\n", json(peak_rss_mib()).dump().c_str());
    }
    // No paths: the whole report at once.
    void print_whole() {
        head_["peak_rss_mib"] = peak_rss_mib();
        std::cout << head_.dump(2) << "\n";
    }
    bool begun() const { return begun_; }

private:
    json head_;
    bool begun_ = false, first_ = true;
};

// Text mode of --compare-optimal: the summed lengths, and per pair for the first few.
constexpr size_t kCompareItemsShown = 20;
void print_compare(const json& paths, const std::vector<json>& first_items) {
    if (!paths.contains("compare")) return;
    const json& c = paths["compare"];
    std::printf("compare: %lld pairs reached by both; xz length funnel %.3f m, optimal %.3f m (funnel/optimal %.4f, max "
                "%.4f); 3D length funnel %.3f m, optimal %.3f m; %.0f vs %.0f queries/s\n",
                static_cast<long long>(c["pairs"].get<int64_t>()), c["length_funnel_xz"].get<double>(),
                c["length_optimal_xz"].get<double>(), c["ratio_xz_total"].get<double>(), c["ratio_xz_max"].get<double>(),
                c["length_funnel"].get<double>(), c["length_optimal"].get<double>(),
                paths["queries_per_sec_funnel"].get<double>(), paths["queries_per_sec_optimal"].get<double>());
    for (size_t i = 0; i < first_items.size(); ++i)
        std::printf("  pair %zu: xz funnel %.3f m, optimal %.3f m; 3D funnel %.3f m, optimal %.3f m\n", i,
                    first_items[i]["length_funnel_xz"].get<double>(), first_items[i]["length_optimal_xz"].get<double>(),
                    first_items[i]["length_funnel"].get<double>(), first_items[i]["length_optimal"].get<double>());
    const int64_t count = paths["count"].get<int64_t>();
    if (count > static_cast<int64_t>(first_items.size()))
        std::printf("  ... %lld more pairs (--json lists them all)\n",
                    static_cast<long long>(count - static_cast<int64_t>(first_items.size())));
}

// What --paths / --pairs gave: the totals, and in text mode the first items --compare-optimal shows.
struct PathsResult {
    json summary;  // null when no paths were asked for
    std::vector<json> first_items;
    std::vector<float> first_path;  // the first route with two points or more (--gltf-out's path node)
};

// --paths N (random pairs, seeded) or --pairs FILE on a navmesh, one pair at a time: each item
// goes to `report` when streaming JSON, else only the first few are kept (text --compare-optimal).
// Everything that can be refused is checked before the report begins.
nav::Status run_paths(const nav::NavMesh& nm, const Args& a, const Job& job, nav::PathMode mode, int max_nodes,
                      JsonReport* report, PathsResult& out) {
    if (a.npaths <= 0 && a.pairs_path.empty()) return nav::Status::ok();
    PathRunner runner(nm, mode, a.compare_optimal, max_nodes, job.agent_type);
    auto take = [&](const PathPair& p) -> nav::Status {
        if (nav::Status st = runner.route(p); !st) return st;
        if (out.first_path.empty() && runner.points().size() >= 6) out.first_path = runner.points();
        if (report) report->item(runner.item());
        else if (a.compare_optimal && out.first_items.size() < kCompareItemsShown) out.first_items.push_back(runner.item());
        return nav::Status::ok();
    };
    if (!a.pairs_path.empty()) {
        // JSON: a regular file is checked whole first (constant memory), so a bad line never cuts
        // the report short; a pipe can be read once only: a bad line then ends it unfinished (exit 2).
        std::error_code ec;
        if (report && std::filesystem::is_regular_file(a.pairs_path, ec))
            if (nav::Status st = read_pairs(a.pairs_path, job.max_input, [](const PathPair&) { return nav::Status::ok(); });
                !st)
                return st;
        if (report) report->begin();
        if (nav::Status st = read_pairs(a.pairs_path, job.max_input, take); !st) return st;
    } else {
        nav::NavQuery q;
        q.init(&nm);
        const nav::QueryFilter filter = type_filter(job.agent_type);
        nav::Rng rng(job.seed);
        auto pick = [&](nav::RandomPoint& pt) -> nav::Status {
            if (nav::Status st = q.random_point(filter, rng, pt); !st) return st;
            if (pt.poly != nav::kNoRef) return nav::Status::ok();
            if (nm.npolys == 0) return nav::Status::bad_input("--paths: the navmesh has no polygons to pick points on");
            if (job.agent_type >= 0 && nav::agent_type_use(nm, job.agent_type).polys == 0)
                return nav::Status::bad_input("--paths: agent type \"" + a.agent_type +
                                              "\" fits on no polygon of the navmesh (its radius or height is larger than "
                                              "every walkable place)");
            char area[32];
            std::snprintf(area, sizeof area, "%g", nm.poly_area_cum.empty() ? 0.0 : double(nm.poly_area_cum.back()));
            return nav::Status::bad_input("--paths: the navmesh has " + std::to_string(nm.npolys) +
                                          (nm.npolys == 1 ? " polygon" : " polygons") + ", but its area (" + area +
                                          " m^2 in single precision) is too small to pick random points on; give "
                                          "the pairs with --pairs FILE");
        };
        {  // the first point, then the generator back: a navmesh with nothing to pick is refused
            const nav::Rng saved = rng;  // before the report begins
            nav::RandomPoint pt;
            const nav::Status st = pick(pt);
            rng = saved;
            if (!st) return st;
        }
        if (report) report->begin();
        for (int i = 0; i < a.npaths; ++i) {
            nav::RandomPoint s, e;
            if (nav::Status st = pick(s); !st) return st;
            if (nav::Status st = pick(e); !st) return st;
            PathPair p{};
            for (int k = 0; k < 3; ++k) p.s[k] = s.point[k], p.e[k] = e.point[k];
            if (nav::Status st = take(p); !st) return st;
        }
    }
    out.summary = runner.summary();
    return nav::Status::ok();
}

// Text mode: the searches stopped at their node limit, after "N of M reached" ("" when none).
std::string out_of_nodes_note(const json& paths) {
    const int64_t n = paths.value("out_of_nodes", int64_t(0));
    if (n == 0) return {};
    return "; " + std::to_string(n) + " OUT OF NODES (partial paths: the search stopped at its node limit" +
           (paths["path_mode"] == "optimal" ? std::string(", Polyanya's cap") : std::string("; raise --set max_nodes")) + ")";
}

// The text line of the paths' totals, then --compare-optimal's.
// A 2D map's line names the mode as path_mode does (funnel, optimal), an OBJ bake's the searches.
void print_paths_text(const PathsResult& p, bool map2d) {
    if (p.summary.is_null()) return;
    const std::string mode = p.summary["path_mode"].get<std::string>();
    std::printf("paths: %lld of %lld reached, %.0f queries/s (%s)%s\n", static_cast<long long>(p.summary["found"].get<int64_t>()),
                static_cast<long long>(p.summary["count"].get<int64_t>()), p.summary["queries_per_sec"].get<double>(),
                map2d ? mode.c_str() : mode == "optimal" ? "nearest + Polyanya" : "nearest + A* + funnel",
                out_of_nodes_note(p.summary).c_str());
    print_compare(p.summary, p.first_items);
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

// ---- files -------------------------------------------------------------------------------------

// ---- Detour files (issue 20): --navmesh-out, --tile-out ----------------------------------------

// --tile-out DIR, checked before the bake: an existing directory we may write into, or a new one
// whose parent is such a directory (created when the tiles are written).
nav::Status check_tile_out_dir(const Args& a) {
    namespace fs = std::filesystem;
    if (!a.tile_out_given) return nav::Status::ok();
    std::string d = a.tile_out;
    while (d.size() > 1 && d.back() == '/') d.pop_back();
    std::error_code ec;
    const fs::file_status s = fs::status(d, ec);
    if (fs::exists(s)) {
        if (!fs::is_directory(s)) return nav::Status::bad_input("--tile-out " + a.tile_out + ": not a directory");
        if (::access(d.c_str(), W_OK | X_OK) != 0)
            return nav::Status::bad_input("--tile-out " + a.tile_out + ": directory not writable (" + std::strerror(errno) + ")");
        return nav::Status::ok();
    }
    std::string parent = fs::path(d).parent_path().string();
    if (parent.empty()) parent = ".";
    if (!fs::is_directory(parent, ec))
        return nav::Status::bad_input("--tile-out " + a.tile_out + ": its parent directory " + parent + " does not exist");
    if (::access(parent.c_str(), W_OK | X_OK) != 0)
        return nav::Status::bad_input("--tile-out " + a.tile_out + ": cannot create it in " + parent + " (" +
                                      std::strerror(errno) + ")");
    return nav::Status::ok();
}

// The bake as Detour data: the MSET file (--navmesh-out) and one file per tile (--tile-out), each
// through nav::OutputFile. Bad input (verts_per_poly over 6, a bake Detour cannot address) names
// the flag; exit 2.
nav::Status write_detour_outputs(const Args& a, const nav::Bake& bake) {
    if (!a.navmesh_out_given && !a.tile_out_given) return nav::Status::ok();
    const std::string flags = a.navmesh_out_given && a.tile_out_given ? "--navmesh-out / --tile-out"
                              : a.navmesh_out_given                   ? "--navmesh-out"
                                                                      : "--tile-out";
    nav::DetourMeshFile f;
    if (nav::Status st = nav::make_detour_mesh(bake, f); !st) return nav::Status{st.code, flags + ": " + st.message};
    if (a.navmesh_out_given) {
        std::vector<uint8_t> bytes;
        nav::write_mset(f, bytes);
        const std::string_view view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        if (nav::Status st = nav::write_output_file(a.navmesh_out, view); !st)
            return nav::Status{st.code, "--navmesh-out " + st.message};
    }
    if (a.tile_out_given) {
        std::error_code ec;
        std::filesystem::create_directory(a.tile_out, ec);  // check_tile_out_dir allowed it; a failure shows below
        for (const nav::DetourTileBytes& t : f.tiles) {
            int32_t xy[2];  // the tile header's x and y, as write_detour_tile wrote them
            std::memcpy(xy, t.data.data() + nav::detour_layout::kHeaderX, sizeof xy);
            const std::string_view view(reinterpret_cast<const char*>(t.data.data()), t.data.size());
            if (nav::Status st = nav::write_output_file(navbake::tile_out_path(a.tile_out, xy[0], xy[1]), view); !st)
                return nav::Status{st.code, "--tile-out " + st.message};
        }
    }
    return nav::Status::ok();
}

// The files a run reads and writes, by flag. Checked before anything is read: every output can be
// written, and no output is an input or another output (the same path, a symlink or a hard link
// to it: nav::same_file), since writing it would destroy the input or lose the other output.
struct NamedPath {
    std::string flag, what, path;
};

nav::Status check_files(const Args& a, const Job& job) {
    std::vector<NamedPath> inputs, outputs;
    inputs.push_back({"", job.map2d ? "the input map" : "the input level", a.navmesh_in_given ? a.navmesh_in : a.mesh_path});
    if (!a.config_path.empty()) inputs.push_back({"--config", "the --config file", a.config_path});
    if (!a.pairs_path.empty()) inputs.push_back({"--pairs", "the --pairs file", a.pairs_path});
    if (a.path_tests_given) inputs.push_back({"--path-tests", "the --path-tests file", a.path_tests_path});
    if (a.obj_out_given) outputs.push_back({"--obj-out", "", a.obj_out});
    if (a.navmesh_out_given) outputs.push_back({"--navmesh-out", "", a.navmesh_out});
    if (a.gltf_out_given) {
        if (job.map2d) return nav::Status::bad_input("--gltf-out writes a bake's layers: it needs an OBJ input, not " + a.mesh_path);
        outputs.push_back({"--gltf-out", "", a.gltf_out});
    }
    if (a.mesh_out_given) {
        if (!job.map2d)
            return nav::Status::bad_input("--mesh-out writes a 2D map's polygons as a Polyanya .mesh: it needs "
                                          "a .json or .mesh input, not " + a.mesh_path + " (use --obj-out)");
        outputs.push_back({"--mesh-out", "", a.mesh_out});
    }
    if (a.obj_out_given && job.inputs.params.i(nav::ParamId::tile_size) > 0 && !job.map2d)
        return nav::Status::bad_input("--obj-out writes the solo polygon mesh; it needs tile_size 0");
    for (size_t i = 0; i < outputs.size(); ++i) {
        const NamedPath& o = outputs[i];
        if (o.path.empty()) return nav::Status::bad_input(o.flag + ": empty path (expected a file name to write)");
        if (nav::Status st = nav::check_output_path(o.path); !st) return nav::Status::bad_input(o.flag + " " + st.message);
        for (const NamedPath& in : inputs)
            if (nav::same_file(o.path, in.path))
                return nav::Status::bad_input(o.flag + " " + o.path + ": is " + in.what + " (" + in.path +
                                              "); refusing to overwrite an input");
        for (size_t j = 0; j < i; ++j)
            if (nav::same_file(o.path, outputs[j].path))
                return nav::Status::bad_input(o.flag + " " + o.path + ": is the same file as " + outputs[j].flag + " " +
                                              outputs[j].path + "; one would overwrite the other");
    }
    // --tile-out DIR owns DIR's tile_X_Y.bin files (and a split job's manifests): another output
    // there could be one of them and be overwritten by it, or be taken for a tile by --merge.
    if (a.tile_out_given && !a.tile_out.empty())
        for (const NamedPath& o : outputs) {
            std::string dir = std::filesystem::path(o.path).parent_path().string();
            if (dir.empty()) dir = ".";
            if (nav::same_file(dir, a.tile_out))
                return nav::Status::bad_input(o.flag + " " + o.path + ": is inside the --tile-out directory " + a.tile_out +
                                              ", where the tile files go; write it elsewhere");
        }
    if (!a.pairs_path.empty())
        if (nav::Status st = nav::check_input_file(a.pairs_path, "pairs file"); !st) return st;
    return check_tile_out_dir(a);
}

// Writes an output through nav::OutputFile (a temporary file renamed into place, every write and
// the close checked); the message starts with the flag.
nav::Status write_output(const std::string& flag, const nav::Status& st) {
    if (st) return st;
    return nav::Status{st.code, flag + " " + st.message};
}

// --config, then the flags (navbake_args), then the files: bad input names the flag (or the
// config file) and what was expected. Nothing is written before every input has been read.
nav::Status prepare_job(const Args& a, Job& job) {
    if (!a.config_path.empty()) {
        if (nav::Status st = nav::load_config_file(a.config_path, job.inputs); !st) return st;
    }
    if (nav::Status st = navbake::apply_args(a, job); !st) return st;
    if (nav::Status st = check_files(a, job); !st) return st;
    if (a.path_tests_given) {  // read before the bake: a bad file is exit 2 at once
        if (a.path_tests_path.empty()) return nav::Status::bad_input("--path-tests: empty path (expected a JSON file of path cases)");
        if (a.tile_given) return nav::Status::bad_input("--path-tests runs on the whole navmesh: not with --tile");
        if (nav::Status st = nav::load_path_tests(a.path_tests_path, job.inputs.areas, job.path_tests); !st)
            return nav::Status{st.code, "--path-tests " + st.message};
    }
    return nav::Status::ok();
}

// ---- --path-tests ---------------------------------------------------------------------------------

// The cases of --path-tests run on a navmesh: the "path_tests" JSON and the count that failed.
struct PathTestsRun {
    json report;
    int failed = 0;
    bool ran = false;
};

// What a case expects, in a few words for the table ("reached, <= 25.0 m, avoid water").
std::string expect_text(const nav::PathTestExpect& e, const nav::AreaTable& areas) {
    std::string t = e.reached ? "reached" : "unreached";
    char buf[48];
    if (e.max_length >= 0) {
        std::snprintf(buf, sizeof buf, ", <= %.1f m", double(e.max_length));
        t += buf;
    }
    auto names = [&](const std::vector<uint8_t>& v) {
        std::string n;
        for (uint8_t a : v) {
            const std::string_view nm = areas.name_of(a);
            n += (n.empty() ? "" : "+") + (nm.empty() ? std::to_string(a) : std::string(nm));
        }
        return n;
    };
    if (!e.through_areas.empty()) t += ", through " + names(e.through_areas);
    if (!e.avoid_areas.empty()) t += ", avoid " + names(e.avoid_areas);
    switch (e.through_link) {
        case nav::PathTestExpect::Link::Any: break;
        case nav::PathTestExpect::Link::Some: t += ", a link"; break;
        case nav::PathTestExpect::Link::None: t += ", no link"; break;
        case nav::PathTestExpect::Link::UserId: t += ", link " + std::to_string(e.through_link_id); break;
    }
    for (uint32_t id : e.avoid_links) t += ", not link " + std::to_string(id);
    return t;
}

nav::Status run_path_tests(const nav::NavMesh& nm, const Args& a, const Job& job, PathTestsRun& out) {
    if (!a.path_tests_given) return nav::Status::ok();
    out.ran = true;
    nav::NavQuery q;
    q.init(&nm);
    nav::PathTestOptions opt;  // the --pairs search box
    opt.area_name = nav::area_table_namer;
    opt.area_name_ctx = &job.inputs.areas;
    json items = json::array();
    int passed = 0;
    for (const nav::PathTestCase& c : job.path_tests) {
        nav::PathTestResult r;
        if (nav::Status st = nav::evaluate_path_test(q, c, opt, r); !st) return nav::Status{st.code, "--path-tests " + st.message};
        json areas = json::array();
        for (uint8_t id : r.areas) {
            const std::string_view n = job.inputs.areas.name_of(id);
            areas.push_back(n.empty() ? json(id) : json(std::string(n)));
        }
        items.push_back({{"name", c.name},
                         {"pass", r.pass},
                         {"start", {c.start[0], c.start[1], c.start[2]}},
                         {"end", {c.end[0], c.end[1], c.end[2]}},
                         {"reached", r.reached},
                         {"length", r.length},
                         {"expected", expect_text(c.expect, job.inputs.areas)},
                         {"areas", areas},
                         {"links", r.links},
                         {"failures", r.failures}});
        ++(r.pass ? passed : out.failed);
    }
    out.report = {{"file", a.path_tests_path},
                  {"count", job.path_tests.size()},
                  {"passed", passed},
                  {"failed", out.failed},
                  {"items", items}};
    return nav::Status::ok();
}

// The table of results (text mode).
void print_path_tests_text(const PathTestsRun& run) {
    if (!run.ran) return;
    const json& r = run.report;
    std::printf("path tests %s: %d cases, %d passed, %d failed\n", r["file"].get<std::string>().c_str(),
                r["count"].get<int>(), r["passed"].get<int>(), r["failed"].get<int>());
    size_t w = 4;
    for (const json& it : r["items"]) w = std::max(w, it["name"].get<std::string>().size());
    w = std::min<size_t>(w, 40);
    std::printf("  %-*s  %-7s  %9s  %-32s  %s\n", static_cast<int>(w), "case", "reached", "length", "expected", "result");
    for (const json& it : r["items"]) {
        std::string result = it["pass"].get<bool>() ? "PASS" : "FAIL";
        std::string sep = ": ";
        for (const json& f : it["failures"]) result += sep + f.get<std::string>(), sep = "; ";
        std::printf("  %-*s  %-7s  %7.2f m  %-32s  %s\n", static_cast<int>(w), it["name"].get<std::string>().c_str(),
                    it["reached"].get<bool>() ? "yes" : "no", it["length"].get<double>(),
                    it["expected"].get<std::string>().c_str(), result.c_str());
    }
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

// The island prune's outcome (config "prune"): the point, applied or not and why, what it kept.
json prune_json(const nav::PruneOutcome& p) {
    json j;
    j["point"] = {(*p.point)[0], (*p.point)[1], (*p.point)[2]};
    j["applied"] = p.applied;
    if (p.applied) {
        j["kept_poly"] = p.kept_poly;
        j["island"] = p.stats.island;
        j["kept"] = p.stats.kept;
        j["disabled"] = p.stats.disabled;
        j["ms"] = p.ms;
    } else {
        j["message"] = p.message;
    }
    return j;
}

// The report's head: everything but the paths (print_json_report's fields before issue 19).
// "agent_types": per type of the config, what it can use of the navmesh. Every type shares the
// one bake (bake 0): types that climb or slope differently are refused, not baked apart.
json agent_types_json(const nav::Bake& bake) {
    json out = json::array();
    const auto& types = bake.inputs.agent_types;
    std::array<uint16_t, nav::kMaxAgentTypes> bits{};
    const bool flagged = types.size() > 1 && nav::agent_type_flag_bits(types, bake.inputs.areas, bits);
    for (size_t t = 0; t < types.size(); ++t) {
        const nav::AgentTypeUse u =
            bake.navmesh ? nav::agent_type_use(*bake.navmesh, types.size() > 1 ? static_cast<int>(t) : -1) : nav::AgentTypeUse{};
        out.push_back({{"name", types[t].name},
                       {"radius", nav::short_decimal(types[t].radius)},
                       {"height", nav::short_decimal(types[t].height)},
                       {"max_climb", nav::short_decimal(types[t].max_climb)},
                       {"max_slope", nav::short_decimal(types[t].max_slope)},
                       {"bake", 0},
                       {"polys", u.polys},
                       {"walkable_area", u.area},
                       {"islands", u.islands}});
        if (flagged) out.back()["detour_flag"] = bits[t];
    }
    return out;
}

json json_report_head(const Args& a, const Job& job, const nav::Bake& bake, const nav::Pipeline& pipe,
                      const RepTimes& times, const json& diagnostics, const json& inc) {
    const nav::InputMesh& m = *bake.mesh;
    json out;
    out["mesh"] = {{"path", m.path},
                   {"verts", m.vert_count()},
                   {"tris", m.tri_count()},
                   {"bmin", {m.bmin[0], m.bmin[1], m.bmin[2]}},
                   {"bmax", {m.bmax[0], m.bmax[1], m.bmax[2]}}};
    out["config"] = json(nav::config_json(bake.inputs.params));
    out["config"]["volumes"] = static_cast<int>(bake.inputs.volumes.size());
    out["config"]["obstacles"] = static_cast<int>(bake.inputs.obstacles.size());
    out["config"]["links"] = static_cast<int>(bake.inputs.links.size());
    if (bake.prune.point) out["prune"] = prune_json(bake.prune);
    out["grid"] = {{"width", bake.config.width}, {"height", bake.config.height}};
    out["memory"] = {{"estimate", pipe.estimate_memory()}, {"limit", pipe.def().memory_limit}, {"peak_rss", peak_rss()}};
    out["counts"] = counts_json(bake);
    out["walkable_area"] = bake.walkable_area();
    out["diagnostics"] = diagnostics;
    json t = json::object();
    for (int s = 0; s < nav::kStageCount; ++s)
        t[std::string(nav::stage_name(static_cast<nav::Stage>(s)))] = median(times.stage_ms[static_cast<size_t>(s)]);
    t["total"] = median(times.total_ms);
    out["timings_ms"] = t;
    out["reps"] = a.reps;
    if (!inc.is_null()) out["incremental"] = inc;
    if (bake.tiled()) out["tiles"] = tiles_json(bake);
    if (job.tile_x >= 0) out["tile"] = one_tile_json(bake, job.tile_x, job.tile_y);
    if (!bake.inputs.agent_types.empty()) out["agent_types"] = agent_types_json(bake);
    return out;
}

void print_text_report(const Args& a, const Job& job, const nav::Bake& bake, const RepTimes& times, const json& inc,
                       const PathsResult& paths) {
    const nav::InputMesh& m = *bake.mesh;
    std::printf("mesh %s: %d verts, %d tris, grid %d x %d\n", m.path.c_str(), m.vert_count(), m.tri_count(),
                bake.config.width, bake.config.height);
    std::printf("%-10s %10s  %s\n", "stage", "ms", "counts");
    for (int s = 0; s < nav::kStageCount; ++s) {
        std::string counts;
        for (const nav::StageCount& c : bake.stats[static_cast<size_t>(s)].counts)
            counts += std::string(c.name) + "=" + std::to_string(c.value) + " ";
        std::printf("%-10s %10.3f  %s\n", std::string(nav::stage_name(static_cast<nav::Stage>(s))).c_str(),
                    median(times.stage_ms[static_cast<size_t>(s)]), counts.c_str());
    }
    std::printf("%-10s %10.3f  (median of %d)\n", "total", median(times.total_ms), a.reps);
    std::printf("walkable area %.2f m^2\n", bake.walkable_area());
    if (bake.prune.point && bake.prune.applied)
        std::printf("prune: kept island %u (%u polygons), %u polygons disabled\n", bake.prune.stats.island,
                    bake.prune.stats.kept, bake.prune.stats.disabled);
    else if (bake.prune.point)
        std::printf("prune: %s\n", bake.prune.message.c_str());
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
    if (!inc.is_null()) std::printf("incremental: %s\n", inc.dump().c_str());
    print_paths_text(paths, false);
}

// ---- --why and --why-path -----------------------------------------------------------------------

json point_json(const float* p) { return {p[0], p[1], p[2]}; }

std::string point_text(const float* p) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.2f,%.2f,%.2f", double(p[0]), double(p[1]), double(p[2]));
    return buf;
}

// A parameter's value as JSON, in its kind (a number, a whole number, true / false, an enum's
// name), so that `--set NAME=VALUE` with the value as printed reads it back exactly.
json param_value_json(nav::ParamId id, double v) {
    const nav::ParamDef& d = nav::param_def(id);
    switch (d.kind) {
        case nav::ParamKind::Float: return v;
        case nav::ParamKind::Int: return static_cast<int64_t>(std::llround(v));
        case nav::ParamKind::Bool: return v != 0;
        case nav::ParamKind::Enum: {
            const auto k = static_cast<size_t>(std::llround(v));
            if (k < d.enum_names.size()) return std::string(d.enum_names[k]);
            return static_cast<int64_t>(k);
        }
    }
    return v;
}

// How to apply a fix: the `--set NAME=VALUE` of a parameter, formatted as Params reads it, or the
// volume to take out of the config.
std::string fix_set_flag(const nav::WhyFix& fix, const nav::Bake& bake) {
    if (!fix.param) return "drop volume " + std::to_string(fix.remove_volume) + " from the --config \"volumes\"";
    nav::Params p = bake.inputs.params;
    std::vector<nav::ConvexVolume> volumes = bake.inputs.volumes;
    nav::apply_why_fix(fix, p, volumes);
    return "--set " + std::string(nav::param_def(*fix.param).name) + "=" + p.to_string(*fix.param);
}

json why_fix_json(const std::optional<nav::WhyFix>& fix) {
    if (!fix) return nullptr;
    const nav::WhyEffects& e = fix->effects;
    json out;
    if (fix->param) {
        out["param"] = std::string(nav::param_def(*fix->param).name);
        out["from"] = param_value_json(*fix->param, fix->from);
        out["to"] = param_value_json(*fix->param, fix->to);
    } else {
        out["param"] = "volume";
        out["from"] = fix->from;
        out["to"] = fix->to;
        out["remove_volume"] = fix->remove_volume;
    }
    out["verified"] = fix->verified;
    out["bakes"] = fix->bakes;
    out["ms"] = fix->ms;
    out["text"] = fix->text;
    out["effects"] = {{"area_before", e.area_before},     {"area_after", e.area_after},
                      {"polys_before", e.polys_before},   {"polys_after", e.polys_after},
                      {"islands_before", e.islands_before}, {"islands_after", e.islands_after}};
    if (!e.tiles.empty()) out["effects"]["tiles"] = e.tiles;
    return out;
}

json optional_stage_json(const std::optional<nav::Stage>& s) {
    if (!s) return nullptr;
    return std::string(nav::stage_name(*s));
}

json why_stages_json(const nav::WhyStory& story) {
    json stages = json::array();
    for (const nav::WhyStage& st : story.stages)
        stages.push_back({{"stage", std::string(nav::stage_name(st.stage))}, {"kept", st.kept}, {"text", st.text}});
    return stages;
}

// "why": the story of one point and its fix (null when on the navmesh or nothing decides it).
json why_json(const nav::WhyStory& story, const std::optional<nav::WhyFix>& fix) {
    json out = {{"point", point_json(story.point)},
                {"on_navmesh", story.on_navmesh},
                {"lost_at", optional_stage_json(story.lost_at)},
                {"cause", story.cause_text},
                {"cause_kind", std::string(nav::why_cause_name(story.cause))},
                {"stages", why_stages_json(story)},
                {"tile", story.tile_x >= 0 ? json{story.tile_x, story.tile_z} : json(nullptr)}};
    if (story.on_navmesh) {
        out["polygon"] = nav::ref_poly(story.poly);
        out["poly_ref"] = story.poly.value();
        out["island"] = story.island;
        out["pruned"] = story.pruned;
    }
    out["fix"] = why_fix_json(fix);
    return out;
}

// The story explain_path tells: for a path not reached, the start's or the end's when that point
// is off the navmesh, else the gap's; for a reached path, the detour's when it is more than
// WhyPath::kDetourRatio times the straight line. Null (and which "") for a direct path.
const nav::WhyStory* path_story(const nav::WhyPath& w, std::string& which) {
    if (w.reached) return w.detour ? (which = "detour", &w.gap_story) : nullptr;
    if (w.island_start < 0) return which = "start", &w.start_story;
    if (w.island_end < 0) return which = "end", &w.end_story;
    return which = "gap", &w.gap_story;
}

json why_path_json(const nav::WhyPath& w, const float* start, const float* end) {
    std::string which;
    const nav::WhyStory* story = path_story(w, which);
    json out = {{"start", point_json(start)},
                {"end", point_json(end)},
                {"reached", w.reached},
                {"partial", w.partial},
                {"islands", {w.island_start, w.island_end}},
                {"gap", w.has_gap ? json{{"a", point_json(w.gap_a)}, {"b", point_json(w.gap_b)}, {"length", w.gap_length}}
                                  : json(nullptr)},
                {"story_of", story ? json(which) : json(nullptr)},
                {"lost_at", story ? optional_stage_json(story->lost_at) : json(nullptr)},
                {"cause", story ? json(story->cause_text) : json(nullptr)},
                {"cause_kind", story ? json(std::string(nav::why_cause_name(story->cause))) : json(nullptr)},
                {"stages", story ? why_stages_json(*story) : json::array()},
                {"fix", why_fix_json(w.fix)}};
    out["detour"] = w.detour;
    out["detour_point"] = w.detour ? point_json(w.detour_point) : json(nullptr);
    if (w.reached) out["path_length"] = w.path_length, out["straight_length"] = w.straight_length;
    return out;
}

// Text: the fix line, or why there is none.
void print_fix_text(const nav::WhyStory& story, const std::optional<nav::WhyFix>& fix, const nav::Bake& bake,
                    const char* indent) {
    if (!fix) {
        std::string why;
        if (story.decider)
            why = "no value of " + std::string(nav::param_def(*story.decider).name) +
                  " tried puts the point on the navmesh";
        else if (story.cause == nav::WhyCause::Volume && story.volume >= 0)
            why = "removing volume " + std::to_string(story.volume) + " does not put the point on the navmesh";
        else
            why = "no parameter or volume decides " + std::string(nav::why_cause_name(story.cause));
        std::printf("%sfix: none (%s)\n", indent, why.c_str());
        return;
    }
    const nav::WhyEffects& e = fix->effects;
    std::string islands;
    if (e.islands_before >= 0 && e.islands_after >= 0)
        islands = ", islands " + std::to_string(e.islands_before) + " -> " + std::to_string(e.islands_after);
    const std::string set = fix_set_flag(*fix, bake);
    std::printf("%sfix: %s (%s by %d bake%s in %.0f ms; walkable area%s %.1f -> %.1f m2, polygons %lld -> %lld%s)%s%s\n",
                indent, fix->text.c_str(), fix->verified ? "verified" : "NOT verified", fix->bakes,
                fix->bakes == 1 ? "" : "s", fix->ms, e.tiles.empty() ? "" : " of the tiles re-baked", e.area_before,
                e.area_after, static_cast<long long>(e.polys_before), static_cast<long long>(e.polys_after),
                islands.c_str(), ": ", set.c_str());
}

// Text: the stages, then where it was lost (or its polygon), then the fix.
void print_story_text(const nav::WhyStory& story, const std::optional<nav::WhyFix>& fix, const nav::Bake& bake,
                      const char* indent) {
    if (story.tile_x >= 0) std::printf("%stile %d,%d\n", indent, story.tile_x, story.tile_z);
    for (const nav::WhyStage& st : story.stages)
        std::printf("%s%s: %s%s\n", indent, std::string(nav::stage_name(st.stage)).c_str(), st.text.c_str(),
                    st.kept ? "" : " (lost)");
    if (story.on_navmesh) {
        const std::string of_tile =
            story.tile_x >= 0 ? " of tile " + std::to_string(story.tile_x) + "," + std::to_string(story.tile_z) : "";
        std::printf("%son the navmesh: polygon %u%s, island %d%s\n", indent, nav::ref_poly(story.poly), of_tile.c_str(),
                    story.island, story.pruned ? " (disabled by prune)" : "");
        return;
    }
    if (story.lost_at)
        std::printf("%slost at %s: %s\n", indent, std::string(nav::stage_name(*story.lost_at)).c_str(),
                    story.cause_text.c_str());
    else
        std::printf("%snot on the navmesh (%s): %s\n", indent, std::string(nav::why_cause_name(story.cause)).c_str(),
                    story.cause_text.c_str());
    print_fix_text(story, fix, bake, indent);
}

void print_why_path_text(const nav::WhyPath& w, const float* start, const float* end, const nav::Bake& bake) {
    std::printf("why-path %s -> %s: %s\n", point_text(start).c_str(), point_text(end).c_str(),
                w.reached ? "reached" : w.partial ? "not reached (the path ends at the polygon nearest to the end)"
                                                  : "not reached");
    if (w.reached) {
        std::printf("  path %.2f m (straight line %.2f m)\n", double(w.path_length), double(w.straight_length));
        if (w.detour)
            std::printf("  a detour: %.1f x the straight line, forced at %s\n",
                        w.straight_length > 0 ? double(w.path_length / w.straight_length) : 0.0,
                        point_text(w.detour_point).c_str());
    } else {
        std::printf("  islands: start %d, end %d\n", w.island_start, w.island_end);
        if (w.has_gap)
            std::printf("  gap: %s to %s, %.2f m\n", point_text(w.gap_a).c_str(), point_text(w.gap_b).c_str(),
                        double(w.gap_length));
    }
    std::string which;
    const nav::WhyStory* story = path_story(w, which);
    if (!story) return;
    std::printf("  the %s's story (%s):\n", which.c_str(), point_text(story->point).c_str());
    print_story_text(*story, w.fix, bake, "    ");
}

// What --why and --why-path found on the finished bake (find_fix re-bakes its mesh with each
// candidate change).
struct WhyResult {
    std::optional<nav::WhyStory> story;
    std::optional<nav::WhyFix> fix;
    std::optional<nav::WhyPath> path;
};

WhyResult run_why(const Job& job, const nav::Bake& bake) {
    WhyResult r;
    if (job.why) {
        r.story = nav::explain_point(bake, job.why_point);
        if (!r.story->on_navmesh) r.fix = nav::find_fix(bake, *r.story);
    }
    if (job.why_path) r.path = nav::explain_path(bake, job.why_start, job.why_end);
    return r;
}

void print_why_text(const Job& job, const WhyResult& r, const nav::Bake& bake) {
    if (r.story) {
        std::printf("why %s:\n", point_text(job.why_point).c_str());
        print_story_text(*r.story, r.fix, bake, "  ");
    }
    if (r.path) print_why_path_text(*r.path, job.why_start, job.why_end, bake);
}

// --gltf-out: every layer the bake holds (navbake keeps the intermediates when it is given), and
// the first path of --paths / --pairs when there is one.
nav::Status write_gltf_out(const Args& a, const nav::Bake& bake, const PathsResult& paths) {
    nav::GltfBakeLayers which;
    if (!paths.first_path.empty()) which.path = &paths.first_path;
    std::vector<nav::GltfLayer> layers;
    if (nav::Status st = nav::gltf_bake_layers(bake, which, layers); !st)
        return nav::Status{st.code, "--gltf-out " + a.gltf_out + ": " + st.message};
    return write_output("--gltf-out", nav::write_gltf(a.gltf_out, layers));
}

// An OBJ mesh: load, bake (--reps times), --incremental, the paths (reading --pairs), then
// --obj-out (every input read by then), then the report.
int run_obj(const Args& a, const Job& job) {
    // --why reads every stage of the point's tile: a tiled bake keeps them. A solo bake is lean
    // (each intermediate dropped once its last reader has run: a lower peak) when it bakes once;
    // --reps and --incremental bake again, so there it keeps its buffers and rebuilds in them.
    const bool solo = job.inputs.params.i(nav::ParamId::tile_size) <= 0;
    nav::PipelineDef def = nav::default_pipeline_def();
    def.keep_intermediates = a.keep_intermediates || job.why || job.why_path || a.gltf_out_given ||
                             (solo && (a.reps > 1 || a.incremental_given));
    def.only_tiles = {job.tile_x, job.tile_y, job.tile_x, job.tile_y};
    def.memory_limit = static_cast<uint64_t>(a.max_memory_mb * 1024.0 * 1024.0);
    nav::Pipeline pipe(std::move(def));
    {
        nav::ObjReadOptions ropt;
        ropt.max_bytes = job.max_input;
        nav::InputMesh mesh;
        if (nav::Status st = nav::load_level(a.mesh_path, mesh, ropt); !st) return fail(st);
        for (const std::string& w : mesh.warnings) std::cerr << "navbake: warning: " << w << "\n";
        if (nav::Status st = pipe.set_mesh(std::move(mesh)); !st) return fail(st);
    }
    if (nav::Status st = pipe.set_inputs(job.inputs); !st) return fail(st);

    RepTimes times;
    if (nav::Status st = bake_reps(pipe, a.reps, times); !st) return fail(st);
    const auto bake = pipe.snapshot();
    json inc;
    if (a.incremental_given)
        if (nav::Status st = bake_incremental(pipe, job, inc); !st) return fail(st);
    for (const std::string& w : bake->warnings()) std::cerr << "navbake: warning: " << w << "\n";
    if (bake->prune.point && !bake->prune.applied) std::cerr << "navbake: warning: prune: " << bake->prune.message << "\n";
    const json diagnostics = report_diagnostics(*bake);

    const WhyResult why = run_why(job, *bake);
    PathTestsRun tests;  // before the report begins: its items go in the head
    if (bake->navmesh)
        if (nav::Status st = run_path_tests(*bake->navmesh, a, job, tests); !st) return fail(st);
    CrowdRun crowd;
    if (job.crowd) {
        if (!bake->navmesh || bake->navmesh->empty()) return fail(nav::Status::bad_input("--crowd: the bake made no navmesh to walk on"));
        if (nav::Status st = run_crowd(*bake->navmesh, job, bake->inputs.params, bake->inputs.agent_types, crowd); !st) return fail(st);
    }
    std::optional<JsonReport> report;
    if (a.as_json) {
        json head = json_report_head(a, job, *bake, pipe, times, diagnostics, inc);
        if (tests.ran) head["path_tests"] = tests.report;
        if (crowd.ran) head["crowd"] = crowd_json(job, crowd);
        if (why.story) head["why"] = why_json(*why.story, why.fix);
        if (why.path) head["why_path"] = why_path_json(*why.path, job.why_start, job.why_end);
        report.emplace(std::move(head));
    }
    PathsResult paths;  // --paths / --pairs need the whole navmesh: prepare_job refuses them with --tile
    if (bake->navmesh)
        if (nav::Status st = run_paths(*bake->navmesh, a, job, bake->inputs.params.path_mode(), bake->inputs.params.max_nodes(),
                                       report ? &*report : nullptr, paths);
            !st)
            return fail(st);
    if (a.obj_out_given)
        if (nav::Status st = write_output("--obj-out", nav::write_navmesh_obj(a.obj_out, *bake->polymesh, bake->detail.get()));
            !st)
            return fail(st);
    if (nav::Status st = write_detour_outputs(a, *bake); !st) return fail(st);
    if (a.gltf_out_given)
        if (nav::Status st = write_gltf_out(a, *bake, paths); !st) return fail(st);
    if (!report) {
        print_text_report(a, job, *bake, times, inc, paths);
        print_why_text(job, why, *bake);
        print_path_tests_text(tests);
        print_crowd_text(job, crowd);
    } else if (report->begun()) report->finish(paths.summary);
    else report->print_whole();
    return tests.failed > 0 ? 1 : 0;  // a failing path case fails the run
}

// A 2D map (.json: outline + obstacles, seed 002's bake) or a Polyanya .mesh file: the navmesh
// straight from it (y = 0), then the same path queries as for a bake (reading --pairs), then the
// outputs (--mesh-out, --obj-out: every input read by then), then the report.
int run_map2d(const Args& a, const Job& job) {
    const std::string& path = a.mesh_path;
    const nav::Params& params = job.inputs.params;
    namespace m2 = nav::map2d;
    const auto t0 = std::chrono::steady_clock::now();
    m2::PolyMesh2D mesh;
    json counts = json::object();
    if (ends_with(path, ".json")) {
        m2::Map2D map;
        if (nav::Status st = m2::load_map2d(path, map, job.max_input); !st) return fail(st);
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
    } else if (nav::Status st = m2::read_polyanya_mesh(path, mesh, job.max_input); !st) {
        return fail(st);
    }
    nav::NavMesh nm;
    if (nav::Status st = m2::build_map2d_navmesh(mesh, nm); !st) return fail(nav::Status{st.code, path + ": " + st.message});
    nav::NavTile tile;  // --obj-out: the map's navmesh polygons (y = 0), as the runtime tile holds them
    if (a.obj_out_given)
        if (nav::Status st = m2::make_map2d_tile(mesh, tile); !st) return fail(nav::Status{st.code, path + ": " + st.message});
    const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    counts["polys"] = nm.npolys;
    counts["verts"] = nm.nverts;

    PathTestsRun tests;
    if (nav::Status st = run_path_tests(nm, a, job, tests); !st) return fail(st);
    std::optional<JsonReport> report;
    if (a.as_json) {
        json out;
        if (tests.ran) out["path_tests"] = tests.report;
        out["mesh"] = {{"path", path}, {"kind", ends_with(path, ".json") ? "map2d" : "polyanya_mesh"},
                       {"bmin", {nm.bmin[0], nm.bmin[1], nm.bmin[2]}}, {"bmax", {nm.bmax[0], nm.bmax[1], nm.bmax[2]}}};
        out["config"] = json(nav::config_json(params));
        out["counts"] = counts;
        out["timings_ms"] = {{"total", build_ms}};
        report.emplace(std::move(out));
    }
    PathsResult paths;
    if (nav::Status st = run_paths(nm, a, job, params.path_mode(), params.max_nodes(), report ? &*report : nullptr, paths); !st) return fail(st);
    if (a.mesh_out_given)
        if (nav::Status st = write_output("--mesh-out", nav::write_output_file(a.mesh_out, m2::format_polyanya_mesh(mesh)));
            !st)
            return fail(st);
    if (a.obj_out_given)
        if (nav::Status st = write_output("--obj-out", nav::write_tile_obj(a.obj_out, tile)); !st) return fail(st);
    if (report) {
        if (report->begun()) report->finish(paths.summary);
        else report->print_whole();
    } else {
        std::printf("2D map %s: %d polygons, %d vertices, built in %.3f ms\n", path.c_str(), nm.npolys, nm.nverts, build_ms);
        print_paths_text(paths, true);
        print_path_tests_text(tests);
    }
    return tests.failed > 0 ? 1 : 0;
}

// --navmesh-in: a Detour navmesh file (MSET or one tile) read into our NavMesh, no bake; its counts,
// then the same path queries as for a bake (reading --pairs), then the report.
int run_navmesh_in(const Args& a, const Job& job) {
    const std::string& path = a.navmesh_in;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::shared_ptr<const nav::NavTile>> tiles;
    nav::NavMesh nm;
    if (nav::Status st = nav::load_detour_navmesh(path, job.max_input, tiles, nm); !st) return fail(st);
    const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    size_t links = 0;
    for (const auto& t : tiles) links += t->links.size();
    const json counts = {{"tiles", nm.ntiles}, {"polys", nm.npolys}, {"verts", nm.nverts},
                         {"islands", nm.nislands}, {"offmesh_links", links}, {"split_edges", nm.split_edges}};
    PathTestsRun tests;
    if (nav::Status st = run_path_tests(nm, a, job, tests); !st) return fail(st);
    std::optional<JsonReport> report;
    if (a.as_json) {
        json out;
        if (tests.ran) out["path_tests"] = tests.report;
        out["mesh"] = {{"path", path}, {"kind", "detour"},
                       {"bmin", {nm.bmin[0], nm.bmin[1], nm.bmin[2]}}, {"bmax", {nm.bmax[0], nm.bmax[1], nm.bmax[2]}}};
        out["config"] = json(nav::config_json(job.inputs.params));
        out["counts"] = counts;
        out["timings_ms"] = {{"total", load_ms}};
        report.emplace(std::move(out));
    }
    PathsResult paths;
    if (nav::Status st = run_paths(nm, a, job, job.inputs.params.path_mode(), job.inputs.params.max_nodes(), report ? &*report : nullptr, paths); !st)
        return fail(st);
    if (report) {
        if (report->begun()) report->finish(paths.summary);
        else report->print_whole();
    } else {
        std::printf("Detour navmesh %s: %d tiles, %d polygons, %d vertices, %d islands, %zu off-mesh links (%d connected), "
                    "loaded in %.3f ms\n",
                    path.c_str(), nm.ntiles, nm.npolys, nm.nverts, nm.nislands, links, nm.nlinks_connected, load_ms);
        print_paths_text(paths, false);
        print_path_tests_text(tests);
    }
    return tests.failed > 0 ? 1 : 0;
}

// The report goes to stdout: a write error there (a full disk, /dev/full) is an error too.
int check_stdout(int code) {
    std::cout.flush();
    if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
        const int err = errno;
        std::cerr << "navbake: error: standard output: write failed" << (err ? std::string(": ") + std::strerror(err) : "")
                  << "\n";
        return code == 0 ? 2 : code;
    }
    return code;
}

// A bake split over machines (navbake_farm.h): --merge (no mesh), --tiles, --tile-grid; nullopt
// for every other run.
std::optional<int> run_split(const Args& a) {
    if (!a.merge_given && !a.tiles_given && !a.tile_grid) return std::nullopt;
    Job job;
    if (a.merge_given) {
        if (nav::Status st = navbake::apply_args(a, job); !st) return fail(st);
        if (nav::Status st = navbake::run_merge(a, job); !st) return fail(st);
        return 0;
    }
    if (nav::Status st = prepare_job(a, job); !st) return fail(st);
    if (job.inputs.prune && !a.tile_grid)  // the prune needs the whole navmesh, which only --merge assembles
        std::cerr << "navbake: warning: prune: not applied by a split bake (its files carry no disabled flags); "
                     "bake in one process to prune\n";
    const nav::Status st = a.tile_grid ? navbake::run_tile_grid(a, job) : navbake::run_tiles_job(a, job);
    return st ? 0 : fail(st);
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    if (const std::optional<int> code = navbake::parse_args(argc, argv, args, std::cout, std::cerr)) return check_stdout(*code);
    bool tiled = false;  // the out-of-memory advice differs: a tiled bake is told nothing about tiles
    try {
        if (const std::optional<int> code = run_split(args)) return check_stdout(*code);
        Job job;
        if (nav::Status st = prepare_job(args, job); !st) return fail(st);
        tiled = !job.map2d && job.inputs.params.i(nav::ParamId::tile_size) > 0;
        return check_stdout(args.navmesh_in_given ? run_navmesh_in(args, job) : job.map2d ? run_map2d(args, job) : run_obj(args, job));
    } catch (const std::bad_alloc&) {  // outside a stage (the stages report it themselves): the same contract
        return fail(nav::out_of_memory("navbake", tiled));
    } catch (const std::exception& e) {
        std::cerr << "navbake: internal error: " << e.what() << "\n";
        return 1;
    }
}
