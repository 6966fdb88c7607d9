// navbench: times every stage of the bake, Recast 1.5.1 against ours, on the same meshes with the
// same parameters, for each region partition, and prints markdown tables of medians:
//  1. per mesh and partition, one row per stage (input, rasterize, filter, compact, erode,
//     distance, regions, contours, polymesh, detail) and the total: recast ms | ours ms | ratio;
//  2. a summary of the totals with their spread, the median of the per-repetition ratios, and our
//     whole bake through nav::Pipeline::run();
//  3. the counts both produced (so a fast stage that computes something else is visible);
//  4. path queries per second, Detour 1.5.1 against ours (tests/diff/detour_ref.h): per mesh, the
//     same pairs of random points (NavQuery::random_point on our navmesh, fixed seed), each answered
//     with nearest polygon for both ends + A* + funnel. Detour runs on Recast's navmesh (2048-node
//     pool), ours on ours (default node limit) and, as a control without the bake's differences,
//     on Recast's own polygons. Ratio = ours q/s / Detour q/s: above 1 is faster than Detour.
//
// Method. One repetition runs, for each mesh in turn, Recast's whole bake (voxel stages once, then
// per partition regions, contours, polygon mesh and detail mesh, as recast_ref.h does) and ours, in
// alternating order, then our Pipeline once per partition. Warm-up repetitions are discarded;
// medians are over the rest (default 21); the spread of the totals and the median of the
// back-to-back ratios show how much other processes disturbed the run. Recast allocates its objects afresh every repetition, as it does in use;
// ours reuses its buffers across repetitions, as the pipeline does. Benchmarks never assert on time.
//
// Totals. Watershed: every stage. Monotone and layers do not read the distance field; Recast's
// Sample_SoloMesh skips it for them, so their totals leave the distance row out on both sides
// (the row is still shown, marked "not in total"). Our Pipeline builds the distance field for
// every partition (the debugger draws it); the summary's "Pipeline::run" column includes it.
//
// Queries: one repetition times, per mesh, one pass over all pairs on each of the three sides, in
// rotating order; medians over the same repetitions as the bake (after the same warm-up). The
// navmeshes come from the partition in the parameters (watershed by default).
//
// Usage: navbench [--reps N] [--warmup N] [--pairs N] [--only bake|queries] [--set NAME=VALUE]...
//                 [MESH.obj...]
// Without meshes, runs the shared benchmark meshes (dungeon, nav_test, undulating).
#include <algorithm>
#include <array>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <memory>
#include <thread>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_check.h"
#include "core/formats/params_json.h"
#include "core/pipeline/pipeline.h"
#include "diff/detour_ref.h"
#include "diff/recast_ref.h"

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Quantile q in [0, 1] by linear interpolation.
double quantile(std::vector<double> v, double q) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const double pos = q * static_cast<double>(v.size() - 1);
    const size_t i = static_cast<size_t>(pos);
    const double f = pos - static_cast<double>(i);
    return i + 1 < v.size() ? v[i] * (1.0 - f) + v[i + 1] * f : v[i];
}

constexpr int kPartitions = navdiff::kPartitionCount;
constexpr int kRowCount = 11;  // 10 stages and the total
constexpr int kDistanceRow = 5, kTotalRow = 10;
const char* const kRowNames[kRowCount] = {"input",   "rasterize", "filter",   "compact", "erode", "distance",
                                          "regions", "contours",  "polymesh", "detail",  "total"};

bool in_total(int partition, int row) {
    return row != kTotalRow && (row != kDistanceRow || partition == static_cast<int>(nav::Partition::Watershed));
}

// One value per row for partition p of a run.
std::array<double, kRowCount> rows_of(const navdiff::StageMs& m, int p) {
    std::array<double, kRowCount> r{m.input,       m.rasterize,   m.filter,      m.compact,   m.erode, m.distance,
                                    m.regions[p], m.contours[p], m.polymesh[p], m.detail[p], 0.0};
    for (int k = 0; k < kTotalRow; ++k)
        if (in_total(p, k)) r[kTotalRow] += r[k];
    return r;
}

struct Series {
    std::array<std::vector<double>, kRowCount> recast, ours;
    std::vector<double> ratio_total;  // per repetition: ours total / recast total
    std::vector<double> pipeline;     // our Pipeline::run(), whole bake
};

struct PartResult {
    std::array<double, kRowCount> recast{}, ours{};
    double recast_p25 = 0, recast_p75 = 0, ours_p25 = 0, ours_p75 = 0;
    double ratio_median = 0, pipeline = 0;
    navdiff::MeshCounts recast_counts, ours_counts;
    int recast_regions = 0, ours_regions = 0;
};

struct MeshResult {
    std::string name;
    int width = 0, height = 0, tris = 0;
    std::array<PartResult, kPartitions> part;
};

int usage(const char* msg) {
    std::fprintf(stderr,
                 "navbench: %s\nusage: navbench [--reps N] [--warmup N] [--pairs N] [--only bake|queries] "
                 "[--set NAME=VALUE]... [MESH.obj...]\n",
                 msg);
    return 2;
}

bool parse_int(const char* s, int lo, int& out) {
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (!end || *end != '\0' || v < lo || v > 100000) return false;
    out = static_cast<int>(v);
    return true;
}

std::string base_name(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    std::string n = slash == std::string::npos ? path : path.substr(slash + 1);
    if (n.size() > 4 && n.compare(n.size() - 4, 4, ".obj") == 0) n.resize(n.size() - 4);
    return n;
}

// Our whole bake through the Pipeline for partition p, from the input stage; milliseconds, or a
// negative value on failure (message in err).
double time_pipeline(nav::Pipeline& pipe, int p, std::string& err) {
    nav::Status s = pipe.set_param(nav::ParamId::partition, static_cast<double>(p));
    if (!s) {
        err = s.message;
        return -1.0;
    }
    pipe.mark_dirty(nav::Stage::Input);
    const auto t = navdiff::Clock::now();
    s = pipe.run();
    const double ms = navdiff::ms_since(t);
    if (!s) {
        err = "pipeline (" + std::string(nav::kPartitionNames[p]) + "): " + s.message;
        return -1.0;
    }
    return ms;
}

// The 1-minute load average (Linux), or "?" where /proc/loadavg is absent: other processes
// competing for the cores show up here rather than silently in the numbers.
std::string load_average() {
    std::ifstream f("/proc/loadavg");
    std::string first;
    if (!(f >> first)) return "?";
    return first;
}

std::string ratio_text(double ours, double recast) {
    char buf[32];
    if (recast > 0)
        std::snprintf(buf, sizeof buf, ours / recast < 0.1 ? "%.3f" : "%.2f", ours / recast);
    else
        std::snprintf(buf, sizeof buf, "-");
    return buf;
}


// ---------------------------------------------------------------------------------------------
// Bake memory: minor page faults per bake and peak memory.

long minor_faults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

// Runs fn(values) in a forked child and returns its peak resident set in KiB (ru_maxrss of that
// child alone, through wait4), the values it filled in `values`; -1 when the child failed. A forked
// child starts with the parent's resident pages (and the parent's free heap) as its own, so these
// children are forked before navbench loads or bakes anything: every child starts from the same
// small process and loads its mesh itself (a child that only loads the mesh gives the baseline).
template <class F>
long in_child(F&& fn, std::vector<long>& values) {
    values.clear();
    int fd[2];
    if (pipe(fd) != 0) return -1;
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        std::vector<long> v;
        const bool ok = fn(v);
        const long n = static_cast<long>(v.size());
        bool written = write(fd[1], &n, sizeof n) == static_cast<ssize_t>(sizeof n);
        if (n > 0)
            written = written && write(fd[1], v.data(), sizeof(long) * v.size()) == static_cast<ssize_t>(sizeof(long) * v.size());
        _exit(ok && written ? 0 : 1);
    }
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        return -1;
    }
    long n = 0;
    bool read_ok = read(fd[0], &n, sizeof n) == static_cast<ssize_t>(sizeof n) && n >= 0 && n < 100000;
    if (read_ok && n > 0) {
        values.resize(static_cast<size_t>(n));
        size_t got = 0;
        while (got < sizeof(long) * values.size()) {
            const ssize_t r = read(fd[0], reinterpret_cast<char*>(values.data()) + got, sizeof(long) * values.size() - got);
            if (r <= 0) break;
            got += static_cast<size_t>(r);
        }
        read_ok = got == sizeof(long) * values.size();
    }
    close(fd[0]);
    int status = 0;
    rusage ru{};
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !read_ok) return -1;
    return ru.ru_maxrss;
}

// Minor faults of `runs` bakes through one Pipeline at the same parameters (the first one from
// nothing, the others forced from rasterize with mark_dirty): faults[0] is the first bake's.
// hold: the debugger's pattern, the previous run's snapshot held while the next one runs.
bool pipeline_faults(const nav::InputMesh& mesh, nav::Params params, int tile_size, int threads, bool hold, int runs,
                     std::vector<long>& faults) {
    if (!params.set(nav::ParamId::tile_size, tile_size) || !params.set(nav::ParamId::threads, threads)) return false;
    nav::Pipeline pipe;
    bench_must(pipe.set_input(&nav::BakeInputs::params, params), "set_input");
    if (!pipe.set_mesh(mesh)) return false;
    std::shared_ptr<const nav::Bake> held;
    for (int r = 0; r < runs; ++r) {
        pipe.mark_dirty(nav::Stage::Rasterize);
        const long f0 = minor_faults();
        const nav::Status s = pipe.run();
        faults.push_back(minor_faults() - f0);
        if (!s) return false;
        held = hold ? pipe.snapshot() : nullptr;
    }
    return true;
}

// Minor faults of Recast's bake of partition p (voxel stages, then that partition's regions,
// contours, polygon and detail meshes), `runs` times with the same objects, as navbench times it.
bool recast_faults(const nav::InputMesh& mesh, const nav::BakeConfig& cfg, int p, int runs, std::vector<long>& faults) {
    navdiff::RecastVoxels rv;
    for (int r = 0; r < runs; ++r) {
        const long f0 = minor_faults();
        const navdiff::VoxelRun run = navdiff::run_recast(mesh, cfg, rv, 1u << p);
        faults.push_back(minor_faults() - f0);
        if (!run.ok) return false;
    }
    return true;
}

// Median and maximum of bakes 3.. (index 2 on): the second bake of a held snapshot makes the
// second set of buffers the pipeline alternates with, so the steady state starts at the third.
double median_from_third(const std::vector<long>& v) {
    std::vector<double> d;
    for (size_t i = 2; i < v.size(); ++i) d.push_back(static_cast<double>(v[i]));
    return median(d);
}

long max_from_third(const std::vector<long>& v) {
    long m = 0;
    for (size_t i = 2; i < v.size(); ++i) m = std::max(m, v[i]);
    return m;
}

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

// The memory tables for every mesh, measured in forked children before anything else runs (see
// in_child): peak memory of one solo bake, ours against Recast's; minor faults per bake, Recast's
// and ours solo and tiled. Returns the markdown, or "" with a message on stderr on failure.
std::string measure_bake_memory(const std::vector<std::string>& paths, const nav::Params& params, int runs) {
    const int p = static_cast<int>(params.partition());
    std::string out = format(
        "\nPeak memory of one solo bake (partition %s), each in its own child forked from navbench before it loads "
        "anything: ru_maxrss of the child minus the baseline (a child that loads the mesh and bakes nothing). Ours: "
        "nav::Pipeline::run() through the navmesh, intermediates kept (the default); ours lean: "
        "PipelineDef::keep_intermediates off, as navbake bakes. Recast: rcHeightfield through rcPolyMeshDetail (no "
        "Detour navmesh).\n\n",
        nav::kPartitionNames[p].data());
    out += "| mesh | baseline MiB | recast MiB | ours MiB | ours / recast | ours lean MiB | lean / recast |\n";
    out += "|---|---:|---:|---:|---:|---:|---:|\n";
    std::vector<long> none;
    for (const std::string& path : paths) {
        auto loaded = [&](nav::InputMesh& m) { return navdiff::load_mesh(path, m).is_ok(); };
        const long base = in_child([&](std::vector<long>&) { nav::InputMesh m; return loaded(m); }, none);
        const long rc = in_child([&](std::vector<long>&) {
            nav::InputMesh m;
            if (!loaded(m)) return false;
            navdiff::RecastVoxels rv;
            return navdiff::run_recast(m, nav::derive_config(params, m.bmin, m.bmax), rv, 1u << p).ok;
        }, none);
        auto ours_child = [&](bool keep) {
            return in_child([&](std::vector<long>&) {
                nav::InputMesh m;
                if (!loaded(m)) return false;
                nav::PipelineDef def = nav::default_pipeline_def();
                def.keep_intermediates = keep;
                nav::Pipeline pipe(def);
                bench_must(pipe.set_input(&nav::BakeInputs::params, params), "set_input");
                return pipe.set_mesh(std::move(m)).is_ok() && pipe.run().is_ok();
            }, none);
        };
        const long ours = ours_child(true), lean = ours_child(false);
        if (base < 0 || rc < 0 || ours < 0 || lean < 0) {
            std::fprintf(stderr, "navbench: %s: a memory child failed\n", path.c_str());
            return "";
        }
        const double r = (rc - base) / 1024.0, o = (ours - base) / 1024.0, l = (lean - base) / 1024.0;
        out += format("| %s | %.1f | %.1f | %.1f | %s | %.1f | %s |\n", base_name(path).c_str(), base / 1024.0, r, o,
                      ratio_text(o, r).c_str(), l, ratio_text(l, r).c_str());
    }

    out += format(
        "\nMinor page faults per bake at the same parameters (getrusage ru_minflt of the whole process around the "
        "bake), %d bakes in a fresh child each: the first bake, the second, then the median and maximum of the other %d "
        "(a held snapshot's second bake makes the second set of buffers the pipeline alternates with). "
        "Recast: its bake of partition %s with the same rcContext, its objects allocated afresh each time (as in "
        "use). Ours: nav::Pipeline::run(), rebuilt from rasterize (mark_dirty); \"held\": the previous snapshot "
        "held while the next bake runs (the debugger's live rebuild). Tiled: tile_size 32.\n\n",
        runs, runs - 2, nav::kPartitionNames[p].data());
    out += "| mesh | bake | first | second | median 3rd.. | max 3rd.. |\n|---|---|---:|---:|---:|---:|\n";
    struct Case {
        const char* name;
        int tile_size, threads;
        bool hold;
    };
    const Case cases[] = {{"ours solo", 0, 1, false},         {"ours solo, held", 0, 1, true},
                          {"ours tiled, 1 thread", 32, 1, false}, {"ours tiled, 2 threads", 32, 2, false},
                          {"ours tiled, 2 threads, held", 32, 2, true}};
    for (const std::string& path : paths) {
        const std::string name = base_name(path);
        std::vector<long> f;
        if (in_child([&](std::vector<long>& v) {
                nav::InputMesh m;
                if (!navdiff::load_mesh(path, m)) return false;
                return recast_faults(m, nav::derive_config(params, m.bmin, m.bmax), p, runs, v);
            }, f) < 0 || f.size() < 3) {
            std::fprintf(stderr, "navbench: %s: recast bake failed\n", path.c_str());
            return "";
        }
        out += format("| %s | recast | %ld | %ld | %.0f | %ld |\n", name.c_str(), f[0], f[1], median_from_third(f),
                      max_from_third(f));
        for (const Case& c : cases) {
            if (in_child([&](std::vector<long>& v) {
                    nav::InputMesh m;
                    if (!navdiff::load_mesh(path, m)) return false;
                    return pipeline_faults(m, params, c.tile_size, c.threads, c.hold, runs, v);
                }, f) < 0 || f.size() < 3) {
                std::fprintf(stderr, "navbench: %s: %s failed\n", path.c_str(), c.name);
                return "";
            }
            out += format("| %s | %s | %ld | %ld | %.0f | %ld |\n", name.c_str(), c.name, f[0], f[1],
                          median_from_third(f), max_from_third(f));
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// Path queries.

constexpr uint64_t kPairSeed = 0x6e61766265ull;  // fixed: the same pairs on every run
enum QuerySide { kDetour = 0, kOurs = 1, kOursOnRecast = 2, kQuerySides = 3 };

struct QueryBench {
    navdiff::DetourMesh detour;
    std::unique_ptr<navdiff::DetourRoutes> detour_routes;
    nav::PolyMesh rc_pmesh;           // Recast's polygons in our types (the control)
    nav::PolyMeshDetail rc_dmesh;
    nav::NavMesh ours, ours_on_recast;
    nav::NavQuery query, query_on_recast;
    nav::Route route;
    std::vector<float> pairs;         // start xyz, end xyz per pair
    std::array<std::vector<double>, kQuerySides> qps;
    std::vector<double> ratio;        // per repetition: ours q/s / Detour q/s
    std::array<int, kQuerySides> reached{};
    int verdict_same = 0;             // Detour and ours (on ours) agree on reached / not reached
    int recast_polys = 0, our_polys = 0;
};

// Builds the three navmeshes of partition p from the last bakes and draws the pairs.
bool prepare_queries(QueryBench& qb, navdiff::RecastVoxels& rv, const navdiff::OurVoxels& ov,
                     const nav::BakeConfig& cfg, int p, int npairs, std::string& err) {
    if (!rv.pmesh[p] || !rv.dmesh[p]) {
        err = "no Recast polygon mesh for the query partition";
        return false;
    }
    if (!navdiff::build_detour(*rv.pmesh[p], *rv.dmesh[p], cfg, qb.detour, err)) return false;
    qb.detour_routes = std::make_unique<navdiff::DetourRoutes>(qb.detour);
    if (const nav::Status s = nav::build_navmesh(ov.pmesh[p], ov.dmesh[p], qb.ours); !s) {
        err = "ours: navmesh: " + s.message;
        return false;
    }
    navdiff::to_nav_meshes(*rv.pmesh[p], *rv.dmesh[p], qb.rc_pmesh, qb.rc_dmesh);
    if (const nav::Status s = nav::build_navmesh(qb.rc_pmesh, qb.rc_dmesh, qb.ours_on_recast); !s) {
        err = "ours on Recast's polygons: navmesh: " + s.message;
        return false;
    }
    qb.query.init(&qb.ours);
    qb.query_on_recast.init(&qb.ours_on_recast);
    qb.recast_polys = qb.detour.poly_count();
    qb.our_polys = qb.ours.npolys;
    if (!navdiff::make_pairs(qb.query, kPairSeed, npairs, qb.pairs)) {
        err = "our navmesh has no area to draw query points from";
        return false;
    }
    // Untimed: the verdicts, so that a fast side that answers something else is visible.
    const int n = static_cast<int>(qb.pairs.size() / 6);
    navdiff::RouteOutcome d, o, orc;
    const nav::QueryFilter filter;
    const nav::StraightPathOptions opts;
    for (int i = 0; i < n; ++i) {
        const float* s = &qb.pairs[static_cast<size_t>(i) * 6];
        qb.detour_routes->route(s, s + 3, &d);
        nav::Status st = qb.query.find_route(s, s + 3, navdiff::kHalfExtents, filter, opts, qb.route);
        navdiff::our_outcome(st, qb.route, o);
        st = qb.query_on_recast.find_route(s, s + 3, navdiff::kHalfExtents, filter, opts, qb.route);
        navdiff::our_outcome(st, qb.route, orc);
        qb.reached[kDetour] += d.reached;
        qb.reached[kOurs] += o.reached;
        qb.reached[kOursOnRecast] += orc.reached;
        qb.verdict_same += d.reached == o.reached;
    }
    return true;
}

// One timed pass over all pairs on one side: queries per second. `sink` keeps the answers used.
double query_pass(QueryBench& qb, int side, int64_t& sink) {
    const nav::QueryFilter filter;
    const nav::StraightPathOptions opts;
    const size_t n = qb.pairs.size() / 6;
    const float* pts = qb.pairs.data();
    const auto t = navdiff::Clock::now();
    if (side == kDetour) {
        for (size_t i = 0; i < n; ++i) sink += qb.detour_routes->route(pts + i * 6, pts + i * 6 + 3, nullptr);
    } else {
        nav::NavQuery& q = side == kOurs ? qb.query : qb.query_on_recast;
        for (size_t i = 0; i < n; ++i) {
            (void)q.find_route(pts + i * 6, pts + i * 6 + 3, navdiff::kHalfExtents, filter, opts, qb.route);
            sink += qb.route.straight.size();
        }
    }
    const double sec = std::chrono::duration<double>(navdiff::Clock::now() - t).count();
    return sec > 0 ? static_cast<double>(n) / sec : 0.0;
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 21, warmup = 3, npairs = 1000;
    bool do_bake = true, do_queries = true;
    nav::Params params;
    std::vector<std::string> meshes;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--reps" && i + 1 < argc) {
            if (!parse_int(argv[++i], 1, reps)) return usage("--reps expects an integer >= 1");
        } else if (a == "--warmup" && i + 1 < argc) {
            if (!parse_int(argv[++i], 0, warmup)) return usage("--warmup expects an integer >= 0");
        } else if (a == "--pairs" && i + 1 < argc) {
            if (!parse_int(argv[++i], 1, npairs)) return usage("--pairs expects an integer >= 1");
        } else if (a == "--only" && i + 1 < argc) {
            const std::string_view what = argv[++i];
            if (what != "bake" && what != "queries") return usage("--only expects bake or queries");
            do_bake = what == "bake";
            do_queries = what == "queries";
        } else if (a == "--set" && i + 1 < argc) {
            const nav::Status s = nav::apply_assignment("--set", argv[++i], params);
            if (!s) return usage(s.message.c_str());
        } else if (a == "--help" || a == "-h") {
            usage("per-stage timings of the whole bake against Recast, path queries against Detour");
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            return usage(("unknown option " + std::string(a)).c_str());
        } else {
            meshes.emplace_back(a);
        }
    }
    if (meshes.empty()) {
        for (const char* n : {"dungeon.obj", "nav_test.obj", "undulating.obj"})
            meshes.push_back(std::string(NAV_SHARED_MESHES) + "/" + n);
    }

    // Memory first, in children forked from this still small process (see in_child).
    std::string memory_tables;
    if (do_bake) {
        memory_tables = measure_bake_memory(meshes, params, std::max(reps, 6));
        if (memory_tables.empty()) return 1;
    }

    // Every mesh gets its own buffers, Recast objects and Pipeline, kept across repetitions.
    struct Bench {
        std::string path;
        nav::InputMesh mesh;
        nav::BakeConfig cfg;
        navdiff::RecastVoxels rv;
        navdiff::OurVoxels ov;
        nav::Pipeline pipe;
        std::array<Series, kPartitions> series;
        MeshResult res;
        QueryBench qb;
    };
    std::vector<std::unique_ptr<Bench>> benches;
    for (const std::string& path : meshes) {
        auto b = std::make_unique<Bench>();
        b->path = path;
        const nav::Status ls = navdiff::load_mesh(path, b->mesh);
        if (!ls) {
            std::fprintf(stderr, "navbench: %s\n", ls.message.c_str());
            return 2;
        }
        b->cfg = nav::derive_config(params, b->mesh.bmin, b->mesh.bmax);
        b->res.name = base_name(path);
        b->res.width = b->cfg.width;
        b->res.height = b->cfg.height;
        b->res.tris = b->mesh.tri_count();
        bench_must(b->pipe.set_input(&nav::BakeInputs::params, params), "set_input");
        if (const nav::Status s = b->pipe.set_mesh(b->mesh); !s) {
            std::fprintf(stderr, "navbench: %s: %s\n", path.c_str(), s.message.c_str());
            return 2;
        }
        benches.push_back(std::move(b));
    }

    if (do_bake) {
        // Repetitions outermost, meshes inside: a burst of load from other processes then spreads over
        // every mesh's samples instead of spoiling one mesh's whole series.
        const std::string load_before = load_average();
        for (int rep = 0; rep < warmup + reps; ++rep) {
            for (auto& bp : benches) {
                Bench& b = *bp;
                // Alternate which side runs first so neither always finds the caches warm.
                navdiff::VoxelRun r, o;
                if (rep % 2 == 0) {
                    r = navdiff::run_recast(b.mesh, b.cfg, b.rv);
                    o = navdiff::run_ours(b.mesh, b.cfg, b.ov);
                } else {
                    o = navdiff::run_ours(b.mesh, b.cfg, b.ov);
                    r = navdiff::run_recast(b.mesh, b.cfg, b.rv);
                }
                if (!r.ok || !o.ok) {
                    std::fprintf(stderr, "navbench: %s: %s\n", b.path.c_str(), (!r.ok ? r.error : o.error).c_str());
                    return 1;
                }
                std::array<double, kPartitions> pipe_ms{};
                for (int p = 0; p < kPartitions; ++p) {
                    std::string err;
                    pipe_ms[p] = time_pipeline(b.pipe, p, err);
                    if (pipe_ms[p] < 0) {
                        std::fprintf(stderr, "navbench: %s: %s\n", b.path.c_str(), err.c_str());
                        return 1;
                    }
                }
                for (int p = 0; p < kPartitions; ++p) {
                    PartResult& pr = b.res.part[p];
                    pr.recast_counts = r.mesh[p];
                    pr.ours_counts = o.mesh[p];
                    pr.recast_regions = r.counts.regions[p];
                    pr.ours_regions = o.counts.regions[p];
                    if (rep < warmup) continue;
                    const auto ra = rows_of(r.ms, p), oa = rows_of(o.ms, p);
                    Series& s = b.series[p];
                    for (int k = 0; k < kRowCount; ++k) {
                        s.recast[k].push_back(ra[k]);
                        s.ours[k].push_back(oa[k]);
                    }
                    s.ratio_total.push_back(ra[kTotalRow] > 0 ? oa[kTotalRow] / ra[kTotalRow] : 0.0);
                    s.pipeline.push_back(pipe_ms[p]);
                }
            }
        }

        std::vector<MeshResult> results;
        for (auto& bp : benches) {
            MeshResult& res = bp->res;
            for (int p = 0; p < kPartitions; ++p) {
                PartResult& pr = res.part[p];
                const Series& s = bp->series[p];
                for (int k = 0; k < kRowCount; ++k) {
                    pr.recast[k] = median(s.recast[k]);
                    pr.ours[k] = median(s.ours[k]);
                }
                pr.recast_p25 = quantile(s.recast[kTotalRow], 0.25);
                pr.recast_p75 = quantile(s.recast[kTotalRow], 0.75);
                pr.ours_p25 = quantile(s.ours[kTotalRow], 0.25);
                pr.ours_p75 = quantile(s.ours[kTotalRow], 0.75);
                pr.ratio_median = median(s.ratio_total);
                pr.pipeline = median(s.pipeline);
            }
            results.push_back(std::move(res));
        }

        const std::string load_after = load_average();
        std::printf("Whole bake per stage, median of %d repetitions after %d warm-up, Release build, single thread; "
                    "%u hardware threads, 1-minute load average %s before, %s after.\n"
                    "Parameters: cell_size %s, cell_height %s, agent_radius %s, edge_max_len %s, edge_max_error %s, "
                    "verts_per_poly %s, detail_sample_dist %s, detail_sample_max_error %s (others: see --set).\n"
                    "Total: every row, except distance for monotone and layers (they do not read it; Recast's "
                    "Sample_SoloMesh skips it). Ratio = ours / recast: below 1 is faster than Recast.\n\n",
                    reps, warmup, std::thread::hardware_concurrency(), load_before.c_str(), load_after.c_str(),
                    params.to_string(nav::ParamId::cell_size).c_str(),
                    params.to_string(nav::ParamId::cell_height).c_str(), params.to_string(nav::ParamId::agent_radius).c_str(),
                    params.to_string(nav::ParamId::edge_max_len).c_str(),
                    params.to_string(nav::ParamId::edge_max_error).c_str(),
                    params.to_string(nav::ParamId::verts_per_poly).c_str(),
                    params.to_string(nav::ParamId::detail_sample_dist).c_str(),
                    params.to_string(nav::ParamId::detail_sample_max_error).c_str());
        std::printf("| mesh | partition | stage | recast ms | ours ms | ratio |\n");
        std::printf("|---|---|---|---:|---:|---:|\n");
        for (const MeshResult& m : results) {
            for (int p = 0; p < kPartitions; ++p) {
                const PartResult& pr = m.part[p];
                const char* part = nav::kPartitionNames[p].data();
                for (int k = 0; k < kRowCount; ++k) {
                    const std::string ratio = ratio_text(pr.ours[k], pr.recast[k]);
                    if (k == kTotalRow)
                        std::printf("| %s | %s | **total** | **%.3f** | **%.3f** | **%s** |\n", m.name.c_str(), part,
                                    pr.recast[k], pr.ours[k], ratio.c_str());
                    else
                        std::printf("| %s | %s | %s%s | %.3f | %.3f | %s |\n", m.name.c_str(), part, kRowNames[k],
                                    in_total(p, k) ? "" : " (not in total)", pr.recast[k], pr.ours[k], ratio.c_str());
                }
            }
        }

        std::printf("\nTotals: median [25th-75th percentile] ms; \"ratio of medians\" as above, \"median ratio\" = median "
                    "over repetitions of ours / recast measured back to back; Pipeline::run = our whole bake through "
                    "nav::Pipeline (all stages including distance, heightfield copy for the filter stage, snapshot).\n\n");
        std::printf("| mesh | partition | recast total ms | ours total ms | ratio of medians | median ratio | "
                    "Pipeline::run ms | Pipeline / recast |\n");
        std::printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (const MeshResult& m : results) {
            for (int p = 0; p < kPartitions; ++p) {
                const PartResult& pr = m.part[p];
                std::printf("| %s | %s | %.3f [%.3f-%.3f] | %.3f [%.3f-%.3f] | %s | %.2f | %.3f | %s |\n", m.name.c_str(),
                            nav::kPartitionNames[p].data(), pr.recast[kTotalRow], pr.recast_p25, pr.recast_p75,
                            pr.ours[kTotalRow], pr.ours_p25, pr.ours_p75,
                            ratio_text(pr.ours[kTotalRow], pr.recast[kTotalRow]).c_str(), pr.ratio_median, pr.pipeline,
                            ratio_text(pr.pipeline, pr.recast[kTotalRow]).c_str());
            }
        }

        std::printf("\nCounts (recast / ours):\n\n");
        std::printf("| mesh | grid | tris | partition | regions | contours | contour verts | poly verts | polys | "
                    "detail verts | detail tris | walkable area m2 |\n");
        std::printf("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (const MeshResult& m : results) {
            for (int p = 0; p < kPartitions; ++p) {
                const PartResult& pr = m.part[p];
                const navdiff::MeshCounts& r = pr.recast_counts;
                const navdiff::MeshCounts& o = pr.ours_counts;
                std::printf("| %s | %dx%d | %d | %s | %d / %d | %d / %d | %lld / %lld | %d / %d | %d / %d | %d / %d | "
                            "%d / %d | %.2f / %.2f |\n",
                            m.name.c_str(), m.width, m.height, m.tris, nav::kPartitionNames[p].data(), pr.recast_regions,
                            pr.ours_regions, r.contours, o.contours, static_cast<long long>(r.contour_verts),
                            static_cast<long long>(o.contour_verts), r.poly_verts, o.poly_verts, r.polys, o.polys,
                            r.detail_verts, o.detail_verts, r.detail_tris, o.detail_tris, r.walkable_area, o.walkable_area);
            }
        }

        std::printf("%s", memory_tables.c_str());
    }

    if (do_queries) {
        // The navmeshes of the query partition, from the last bakes (or from one bake of that
        // partition when the bake was not timed).
        const int qp = static_cast<int>(params.partition());
        for (auto& bp : benches) {
            Bench& b = *bp;
            if (!do_bake) {
                const unsigned bit = 1u << qp;
                const navdiff::VoxelRun r = navdiff::run_recast(b.mesh, b.cfg, b.rv, bit);
                const navdiff::VoxelRun o = navdiff::run_ours(b.mesh, b.cfg, b.ov, bit);
                if (!r.ok || !o.ok) {
                    std::fprintf(stderr, "navbench: %s: %s\n", b.path.c_str(), (!r.ok ? r.error : o.error).c_str());
                    return 1;
                }
            }
            std::string err;
            if (!prepare_queries(b.qb, b.rv, b.ov, b.cfg, qp, npairs, err)) {
                std::fprintf(stderr, "navbench: %s: queries: %s\n", b.path.c_str(), err.c_str());
                return 1;
            }
        }
        const std::string qload_before = load_average();
        int64_t sink = 0;
        for (int rep = 0; rep < warmup + reps; ++rep) {
            for (auto& bp : benches) {
                QueryBench& qb = bp->qb;
                std::array<double, kQuerySides> qps{};
                for (int k = 0; k < kQuerySides; ++k) {
                    const int side = (rep + k) % kQuerySides;  // rotate which side runs first
                    qps[side] = query_pass(qb, side, sink);
                }
                if (rep < warmup) continue;
                for (int k = 0; k < kQuerySides; ++k) qb.qps[k].push_back(qps[k]);
                qb.ratio.push_back(qps[kDetour] > 0 ? qps[kOurs] / qps[kDetour] : 0.0);
            }
        }
        const std::string qload_after = load_average();
        if (do_bake) std::printf("\n");
        std::printf("Path queries per second (nearest polygon for both ends + A* + funnel), median of %d passes over "
                    "the pairs after %d warm-up, Release build, single thread; 1-minute load average %s before, %s "
                    "after (answer checksum %lld).\n"
                    "Pairs: random points on our navmesh (NavQuery::random_point, fixed seed), the same for every "
                    "side; half extents 2, 4, 2; partition %s. Detour: Recast's navmesh, 2048-node pool. Ours: our "
                    "navmesh; \"ours on Recast's polys\": our queries on Recast's polygon mesh (no bake "
                    "differences). Ratio = ours / Detour q/s: above 1 is faster than Detour (target >= 1.0, goal 2.0); "
                    "\"median ratio\" = median over passes measured back to back. Reached: pairs whose path reaches "
                    "the end, Detour / ours / ours on Recast's polys.\n\n",
                    reps, warmup, qload_before.c_str(), qload_after.c_str(), static_cast<long long>(sink),
                    nav::kPartitionNames[qp].data());
        std::printf("| mesh | polys recast / ours | pairs | reached | verdicts agree | Detour q/s | ours q/s | "
                    "**ours / Detour** | median ratio | ours on Recast's polys q/s | ratio |\n");
        std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (auto& bp : benches) {
            const QueryBench& qb = bp->qb;
            const int n = static_cast<int>(qb.pairs.size() / 6);
            const double d = median(qb.qps[kDetour]), o = median(qb.qps[kOurs]), orc = median(qb.qps[kOursOnRecast]);
            std::printf("| %s | %d / %d | %d | %d / %d / %d | %.1f%% | %.0f | %.0f | **%.2f** | %.2f | %.0f | %.2f |\n",
                        base_name(bp->path).c_str(), qb.recast_polys, qb.our_polys, n, qb.reached[kDetour], qb.reached[kOurs],
                        qb.reached[kOursOnRecast], 100.0 * qb.verdict_same / std::max(n, 1), d, o,
                        d > 0 ? o / d : 0.0, median(qb.ratio), orc, d > 0 ? orc / d : 0.0);
        }
    }
    return 0;
}
