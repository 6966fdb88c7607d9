#include "app/navbake_farm.h"

#include "app/navbake_args.h"

#include <array>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <system_error>

#include "core/formats/config_json.h"
#include "core/formats/detour_export.h"
#include "core/bake/input.h"
#include "core/formats/level_import.h"
#include "core/pipeline/pipeline.h"
#include "core/pipeline/tiling.h"
#include "core/io/file.h"
#include "core/runtime/detour_layout.h"

namespace navbake {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kFormat = "navbake-split";
constexpr int kFormatVersion = 1;
constexpr uint64_t kManifestMaxBytes = 16u << 20;  // a manifest lists at most every tile: far below

std::string xy(int x, int y) { return std::to_string(x) + "," + std::to_string(y); }
std::string rect_text(const int* r) { return xy(r[0], r[1]) + ":" + xy(r[2], r[3]); }

std::string float_text(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
    return buf;
}

// Whole decimal numbers separated by '_' filling `text` exactly ("3_1"), at most `n`.
bool parse_underscored(std::string_view text, int n, int* out) {
    for (int k = 0; k < n; ++k) {
        const size_t end = k + 1 < n ? text.find('_') : text.size();
        if (end == std::string_view::npos) return false;
        const std::string_view part = text.substr(0, end);
        if (part.empty() || part.front() < '0' || part.front() > '9') return false;
        const auto [p, ec] = std::from_chars(part.data(), part.data() + part.size(), out[k]);
        if (ec != std::errc() || p != part.data() + part.size()) return false;
        text.remove_prefix(k + 1 < n ? end + 1 : end);
    }
    return text.empty();
}

// A name "PREFIX<n numbers>SUFFIX".
bool parse_name(const std::string& name, std::string_view prefix, std::string_view suffix, int n, int* out) {
    if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        !ends_with(name, suffix))
        return false;
    return parse_underscored(std::string_view(name).substr(prefix.size(), name.size() - prefix.size() - suffix.size()),
                             n, out);
}

nav::Status read_json(const std::string& path, json& out) {
    std::string text;
    if (nav::Status st = nav::read_input_file(path, "split bake manifest", kManifestMaxBytes, text); !st) return st;
    out = json::parse(text, nullptr, false);
    if (out.is_discarded() || !out.is_object())
        return nav::Status::bad_input(path + ": not a JSON object (expected a split bake manifest written by navbake --tiles)");
    return nav::Status::ok();
}

// A whole number field in [lo, hi].
nav::Status get_int(const json& j, const std::string& path, const char* key, int lo, int hi, int& out) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer() || it->get<int64_t>() < lo || it->get<int64_t>() > hi)
        return nav::Status::bad_input(path + ": \"" + key + "\": expected a whole number in [" + std::to_string(lo) +
                                      ", " + std::to_string(hi) + "]");
    out = static_cast<int>(it->get<int64_t>());
    return nav::Status::ok();
}

nav::Status get_float(const json& v, const std::string& path, const std::string& key, float& out) {
    if (!v.is_number() || !std::isfinite(v.get<double>()) || std::fabs(v.get<double>()) > nav::kMaxCoordinate)
        return nav::Status::bad_input(path + ": \"" + key + "\": expected a finite number of metres");
    out = static_cast<float>(v.get<double>());
    return nav::Status::ok();
}

nav::Status read_grid(const std::string& path, SplitGrid& g) {
    json j;
    if (nav::Status st = read_json(path, j); !st) return st;
    if (j.value("format", std::string()) != kFormat || j.value("version", 0) != kFormatVersion)
        return nav::Status::bad_input(path + ": expected \"format\": \"" + kFormat + "\", \"version\": " +
                                      std::to_string(kFormatVersion) + " (written by navbake --tiles)");
    const int max_side = static_cast<int>(nav::kMaxTiles);
    if (nav::Status st = get_int(j, path, "cols", 1, max_side, g.cols); !st) return st;
    if (nav::Status st = get_int(j, path, "rows", 1, max_side, g.rows); !st) return st;
    if (nav::Status st = get_int(j, path, "triangles", 0, std::numeric_limits<int>::max(), g.triangles); !st) return st;
    if (int64_t(g.cols) * g.rows > nav::kMaxTiles)
        return nav::Status::bad_input(path + ": " + std::to_string(g.cols) + " x " + std::to_string(g.rows) +
                                      " tiles: more than a navmesh holds (" + std::to_string(nav::kMaxTiles) + ")");
    const auto orig = j.find("orig");
    if (orig == j.end() || !orig->is_array() || orig->size() != 3)
        return nav::Status::bad_input(path + ": \"orig\": expected [x, y, z]");
    for (int k = 0; k < 3; ++k)
        if (nav::Status st = get_float((*orig)[static_cast<size_t>(k)], path, "orig", g.orig[k]); !st) return st;
    const char* sizes[2] = {"tile_width", "tile_height"};
    float* dst[2] = {&g.tile_width, &g.tile_height};
    for (int k = 0; k < 2; ++k) {
        const auto it = j.find(sizes[k]);
        if (it == j.end()) return nav::Status::bad_input(path + ": \"" + sizes[k] + "\" missing");
        if (nav::Status st = get_float(*it, path, sizes[k], *dst[k]); !st) return st;
        if (!(*dst[k] > 0)) return nav::Status::bad_input(path + ": \"" + sizes[k] + "\": expected a size above 0");
    }
    return nav::Status::ok();
}

// One job's manifest.
struct Manifest {
    std::string name;
    int rect[4] = {0, 0, 0, 0};
    std::vector<std::pair<int, int>> empty;
};

nav::Status read_manifest(const std::string& dir, const std::string& name, const int* name_rect, const SplitGrid& g,
                          Manifest& m) {
    const std::string path = dir + "/" + name;
    json j;
    if (nav::Status st = read_json(path, j); !st) return st;
    const auto tiles = j.find("tiles");
    if (tiles == j.end() || !tiles->is_array() || tiles->size() != 4 ||
        !std::all_of(tiles->begin(), tiles->end(), [](const json& v) { return v.is_number_integer(); }))
        return nav::Status::bad_input(path + ": \"tiles\": expected [x0, y0, x1, y1]");
    for (int k = 0; k < 4; ++k) {
        const int64_t v = (*tiles)[static_cast<size_t>(k)].get<int64_t>();
        if (v != name_rect[k])
            return nav::Status::bad_input(path + ": \"tiles\" is not the rectangle its name says (" + rect_text(name_rect) +
                                          ")");
        m.rect[k] = name_rect[k];
    }
    if (m.rect[0] > m.rect[2] || m.rect[1] > m.rect[3] || m.rect[2] >= g.cols || m.rect[3] >= g.rows)
        return nav::Status::bad_input(path + ": rectangle " + rect_text(m.rect) + " is not within the grid of " +
                                      std::to_string(g.cols) + " x " + std::to_string(g.rows) +
                                      " tiles in grid.json (a job of another bake, or a wrong grid)");
    const auto empty = j.find("empty");
    if (empty == j.end() || !empty->is_array()) return nav::Status::bad_input(path + ": \"empty\": expected [[x, y], ...]");
    for (const json& e : *empty) {
        if (!e.is_array() || e.size() != 2 || !e[0].is_number_integer() || !e[1].is_number_integer())
            return nav::Status::bad_input(path + ": \"empty\": expected [[x, y], ...]");
        const int64_t x = e[0].get<int64_t>(), y = e[1].get<int64_t>();
        if (x < m.rect[0] || x > m.rect[2] || y < m.rect[1] || y > m.rect[3])
            return nav::Status::bad_input(path + ": empty tile " + std::to_string(x) + "," + std::to_string(y) +
                                          " is not in its rectangle " + rect_text(m.rect));
        m.empty.emplace_back(static_cast<int>(x), static_cast<int>(y));
    }
    m.name = name;
    return nav::Status::ok();
}

// The Detour tile header fields the merge needs (dtMeshHeader: magic, version, x, y, layer,
// userId, polyCount, ... as 32-bit little-endian words), checked against the file's name.
constexpr size_t kHeaderWords = 7;

namespace L = nav::detour_layout;

int32_t word_at(const std::vector<uint8_t>& d, size_t i) {
    uint32_t v = 0;
    for (int b = 3; b >= 0; --b) v = v << 8 | d[i * 4 + static_cast<size_t>(b)];
    return static_cast<int32_t>(v);
}

nav::Status read_tile_file(const std::string& path, int x, int y, uint64_t max_bytes, std::vector<uint8_t>& data,
                           int& poly_count) {
    std::string bytes;
    if (nav::Status st = nav::read_input_file(path, "Detour tile", max_bytes, bytes); !st) return st;
    if (bytes.size() < kHeaderWords * 4)
        return nav::Status::bad_input(path + ": " + std::to_string(bytes.size()) +
                                      " bytes: too short for a Detour tile header (expected at least " +
                                      std::to_string(kHeaderWords * 4) + ")");
    data.assign(bytes.begin(), bytes.end());
    if (static_cast<uint32_t>(word_at(data, 0)) != L::kTileMagic)
        return nav::Status::bad_input(path + ": not a Detour tile (byte 0: expected the magic 'DNAV')");
    if (word_at(data, 1) != nav::kDetourVersion)
        return nav::Status::bad_input(path + ": byte 4: Detour version " + std::to_string(word_at(data, 1)) +
                                      ", expected " + std::to_string(nav::kDetourVersion));
    if (word_at(data, L::kHeaderX / 4) != x || word_at(data, L::kHeaderY / 4) != y)
        return nav::Status::bad_input(path + ": bytes 8-15: the header says tile " + xy(word_at(data, L::kHeaderX / 4), word_at(data, L::kHeaderY / 4)) +
                                      ", the file name tile " + xy(x, y) + " (a renamed or foreign file)");
    if (word_at(data, L::kHeaderLayer / 4) != 0)
        return nav::Status::bad_input(path + ": byte 16: layer " + std::to_string(word_at(data, L::kHeaderLayer / 4)) + ", expected 0");
    poly_count = word_at(data, L::kHeaderPolyCount / 4);
    if (poly_count <= 0)
        return nav::Status::bad_input(path + ": byte 24: polygon count " + std::to_string(poly_count) +
                                      ", expected above 0 (an empty tile has no file)");
    return nav::Status::ok();
}

}  // namespace

// A job's manifest: tiles_X0_Y0_X1_Y1.json.
static std::string manifest_name(const int* r) {
    return "tiles_" + std::to_string(r[0]) + "_" + std::to_string(r[1]) + "_" + std::to_string(r[2]) + "_" +
           std::to_string(r[3]) + ".json";
}

std::string split_grid_text(const SplitGrid& g) {
    // Written by hand, not json::dump: fixed key order and float text, so every job writes the
    // same bytes and a job can compare grid.json with its own.
    std::string s = "{\n  \"format\": \"" + std::string(kFormat) + "\",\n  \"version\": " + std::to_string(kFormatVersion) +
                    ",\n  \"cols\": " + std::to_string(g.cols) + ",\n  \"rows\": " + std::to_string(g.rows) +
                    ",\n  \"triangles\": " + std::to_string(g.triangles) +
                    ",\n  \"orig\": [" + float_text(g.orig[0]) + ", " + float_text(g.orig[1]) + ", " +
                    float_text(g.orig[2]) + "],\n  \"tile_width\": " + float_text(g.tile_width) +
                    ",\n  \"tile_height\": " + float_text(g.tile_height) + ",\n  \"config\": " + g.config + "\n}\n";
    return s;
}

nav::Status write_split_grid(const std::string& dir, const SplitGrid& g) {
    const std::string path = dir + "/grid.json";
    const std::string text = split_grid_text(g);
    std::error_code ec;
    if (fs::exists(path, ec)) {
        std::string have;
        if (nav::Status st = nav::read_input_file(path, "split bake manifest", kManifestMaxBytes, have); !st) return st;
        if (have == text) return nav::Status::ok();
        SplitGrid other;
        const nav::Status parsed = read_grid(path, other);
        std::string what = "its configuration (the parameters or the mesh's contents)";
        if (!parsed) what = "its contents (" + parsed.message + ")";
        else if (other.cols != g.cols || other.rows != g.rows)
            what = "its grid (" + std::to_string(other.cols) + " x " + std::to_string(other.rows) + " tiles, this bake " +
                   std::to_string(g.cols) + " x " + std::to_string(g.rows) + ")";
        else if (std::memcmp(other.orig, g.orig, sizeof g.orig) != 0 || other.triangles != g.triangles)
            what = "its mesh (origin or triangle count)";
        else if (other.tile_width != g.tile_width || other.tile_height != g.tile_height) what = "its tile size";
        return nav::Status::bad_input(path + ": another bake's split directory: " + what +
                                      " differs from this job's (use an empty directory per bake)");
    }
    return nav::write_output_file(path, text);
}

nav::Status write_split_manifest(const std::string& dir, const int* r, const std::vector<std::pair<int, int>>& empty) {
    std::string s = "{\n  \"tiles\": [" + std::to_string(r[0]) + ", " + std::to_string(r[1]) + ", " + std::to_string(r[2]) +
                    ", " + std::to_string(r[3]) + "],\n  \"empty\": [";
    for (size_t i = 0; i < empty.size(); ++i)
        s += (i ? ", [" : "[") + std::to_string(empty[i].first) + ", " + std::to_string(empty[i].second) + "]";
    s += "]\n}\n";
    return nav::write_output_file(dir + "/" + manifest_name(r), s);
}

nav::Status merge_split(const std::string& dir, uint64_t max_bytes, nav::DetourMeshFile& out) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return nav::Status::bad_input("--merge " + dir + ": not a directory (expected the --tile-out DIR of navbake --tiles jobs)");
    SplitGrid g;
    if (!fs::exists(dir + "/grid.json", ec))
        return nav::Status::bad_input("--merge " + dir + ": no grid.json (expected the --tile-out DIR of navbake --tiles jobs; "
                                      "every job writes grid.json)");
    if (nav::Status st = read_grid(dir + "/grid.json", g); !st) return st;

    // Every entry: the jobs' manifests, the tile files; anything else is refused (a stray file
    // could be a tile of another bake under another name). Hidden files are an interrupted
    // writer's temporaries (OutputFile's .NAME.navkit-tmp-*).
    std::vector<Manifest> manifests;
    std::map<std::pair<int, int>, std::string> files;  // (y, x): grid order
    std::vector<std::string> names;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) names.push_back(it->path().filename().string());
    if (ec) return nav::Status::bad_input("--merge " + dir + ": cannot list the directory: " + ec.message());
    std::sort(names.begin(), names.end());  // messages independent of the directory order
    for (const std::string& name : names) {
        if (name == "grid.json" || name.front() == '.') continue;
        int v[4];
        if (parse_name(name, "tiles_", ".json", 4, v)) {
            Manifest m;
            if (nav::Status st = read_manifest(dir, name, v, g, m); !st) return st;
            manifests.push_back(std::move(m));
        } else if (parse_name(name, "tile_", ".bin", 2, v)) {
            if (v[0] >= g.cols || v[1] >= g.rows)
                return nav::Status::bad_input(dir + "/" + name + ": tile " + xy(v[0], v[1]) + " is outside the grid of " +
                                              std::to_string(g.cols) + " x " + std::to_string(g.rows) +
                                              " tiles in grid.json (a tile of another bake)");
            files[{v[1], v[0]}] = name;
        } else {
            return nav::Status::bad_input(dir + "/" + name +
                                          ": not part of a split bake (expected grid.json, tiles_X0_Y0_X1_Y1.json and "
                                          "tile_X_Y.bin only; keep logs elsewhere)");
        }
    }

    // Each tile covered by exactly one job's rectangle.
    const size_t ntiles = static_cast<size_t>(g.cols) * static_cast<size_t>(g.rows);
    std::vector<int> owner(ntiles, -1);
    std::vector<uint8_t> empty(ntiles, 0);
    for (size_t k = 0; k < manifests.size(); ++k) {
        const Manifest& m = manifests[k];
        for (int y = m.rect[1]; y <= m.rect[3]; ++y)
            for (int x = m.rect[0]; x <= m.rect[2]; ++x) {
                const size_t i = static_cast<size_t>(x) + static_cast<size_t>(y) * static_cast<size_t>(g.cols);
                if (owner[i] >= 0)
                    return nav::Status::bad_input("--merge " + dir + ": duplicate tile " + xy(x, y) + ": in " +
                                                  manifests[static_cast<size_t>(owner[i])].name + " and " + m.name +
                                                  " (the jobs' rectangles overlap)");
                owner[i] = static_cast<int>(k);
            }
        for (const auto& [x, y] : m.empty) empty[static_cast<size_t>(x) + static_cast<size_t>(y) * static_cast<size_t>(g.cols)] = 1;
    }
    for (int y = 0; y < g.rows; ++y)
        for (int x = 0; x < g.cols; ++x) {
            const size_t i = static_cast<size_t>(x) + static_cast<size_t>(y) * static_cast<size_t>(g.cols);
            if (owner[i] < 0) {
                const size_t missing = static_cast<size_t>(std::count(owner.begin(), owner.end(), -1));
                return nav::Status::bad_input(
                    "--merge " + dir + ": missing tile " + xy(x, y) +
                    (missing > 1 ? " (and " + std::to_string(missing - 1) + " more)" : std::string()) +
                    ": no job's manifest (tiles_X0_Y0_X1_Y1.json) covers it; a --tiles job failed, is still running "
                    "or was not run");
            }
            const auto f = files.find({y, x});
            const std::string& job = manifests[static_cast<size_t>(owner[i])].name;
            if (empty[i] && f != files.end())
                return nav::Status::bad_input(dir + "/" + f->second + ": " + job + " found tile " + xy(x, y) +
                                              " empty; the file is not this bake's");
            if (!empty[i] && f == files.end())
                return nav::Status::bad_input("--merge " + dir + ": missing tile " + xy(x, y) + ": " + job +
                                              " baked it but tile_" + std::to_string(x) + "_" + std::to_string(y) +
                                              ".bin is absent");
        }

    // The tiles in grid order (the one-process bake's), the navmesh parameters from all of them.
    int max_polys = 1;  // as make_detour_mesh: at least one polygon bit
    out = nav::DetourMeshFile{};
    for (const auto& [yx, name] : files) {
        nav::DetourTileBytes t;
        int polys = 0;
        if (nav::Status st = read_tile_file(dir + "/" + name, yx.second, yx.first, max_bytes, t.data, polys); !st) return st;
        max_polys = std::max(max_polys, polys);
        out.tiles.push_back(std::move(t));
    }
    out.params = nav::detour_mesh_params(g.orig, g.tile_width, g.tile_height, g.cols * g.rows, max_polys);
    for (size_t i = 0; i < out.tiles.size(); ++i) out.tiles[i].ref = nav::detour_tile_ref(out.params, static_cast<int>(i));
    return nav::Status::ok();
}

namespace {

// The pipeline options of a farm job: navbake's memory limit (--max-memory).
nav::PipelineDef memory_limited(const Args& a) {
    nav::PipelineDef def = nav::default_pipeline_def();
    def.memory_limit = static_cast<uint64_t>(a.max_memory_mb * 1024.0 * 1024.0);
    return def;
}

// The mesh loaded as navbake's bake loads it (warnings on stderr), the parameters, volumes,
// obstacles and area table set (the area table gives the tiles' polygon flags, as in one process).
nav::Status load_pipeline(const Args& a, const Job& job, nav::Pipeline& pipe) {
    nav::ObjReadOptions ropt;
    ropt.max_bytes = job.max_input;
    nav::InputMesh mesh;
    // every level format the one-process bake reads (OBJ, and glTF, FBX, ... through assimp)
    if (nav::Status st = nav::load_level(a.mesh_path, mesh, ropt); !st) return st;
    for (const std::string& w : mesh.warnings) std::fprintf(stderr, "navbake: warning: %s\n", w.c_str());
    if (nav::Status st = pipe.set_mesh(std::move(mesh)); !st) return st;
    return pipe.set_inputs(job.inputs);
}

// The tile grid of the loaded mesh: the mesh-wide stage only (the grid follows from the mesh
// bounds and the parameters), checked as the bake checks it.
nav::Status tile_grid(nav::Pipeline& pipe, const nav::Params& params, nav::BakeConfig& c, nav::TileLayout& L) {
    if (nav::Status st = pipe.run(nav::Stage::Input); !st) return st;
    c = pipe.snapshot()->config;
    return nav::check_tile_grid(c, params, L);
}

}  // namespace

nav::Status run_tile_grid(const Args& a, const Job& job) {
    nav::Pipeline pipe(memory_limited(a));
    if (nav::Status st = load_pipeline(a, job, pipe); !st) return st;
    nav::BakeConfig c;
    nav::TileLayout L;
    if (nav::Status st = tile_grid(pipe, job.inputs.params, c, L); !st) return st;
    std::printf("%d %d\n", L.cols, L.rows);
    return nav::Status::ok();
}

nav::Status run_tiles_job(const Args& a, const Job& job) {
    const int* r = job.tiles;
    const std::string& dir = a.tile_out;
    if (dir.empty()) return nav::Status::bad_input("--tiles needs --tile-out DIR (where the job writes its tiles)");
    nav::PipelineDef def = memory_limited(a);
    def.keep_intermediates = false;  // only each tile's polygons and detail are written
    def.only_tiles = {r[0], r[1], r[2], r[3]};
    nav::Pipeline pipe(std::move(def));
    if (nav::Status st = load_pipeline(a, job, pipe); !st) return st;
    nav::BakeConfig c;
    nav::TileLayout L;
    if (nav::Status st = tile_grid(pipe, job.inputs.params, c, L); !st) return st;
    if (r[2] >= L.cols || r[3] >= L.rows)
        return nav::Status::bad_input("--tiles " + rect_text(r) + ": outside the tile grid of " + std::to_string(L.cols) +
                                      " x " + std::to_string(L.rows) + " tiles (x in 0.." + std::to_string(L.cols - 1) +
                                      ", y in 0.." + std::to_string(L.rows - 1) + "; navbake --tile-grid prints it)");
    std::error_code ec;
    fs::create_directories(dir, ec);  // several jobs may create it at once: an existing directory is fine
    if (!fs::is_directory(dir, ec)) return nav::Status::bad_input("--tile-out " + dir + ": cannot create the directory");
    // grid.json before the bake: a job of another bake in this directory is refused at once.
    SplitGrid g;
    g.cols = L.cols, g.rows = L.rows;
    for (int k = 0; k < 3; ++k) g.orig[k] = c.bmin[k];
    g.tile_width = g.tile_height = static_cast<float>(L.tile_size) * c.cs;  // as make_detour_mesh
    // The parameters that shape the tiles: all but "threads" (a job's own business: each machine
    // has its own core count, and the tiles are the same on any), and the mesh's triangle count.
    nlohmann::ordered_json config = nav::config_json(job.inputs);
    config.erase("threads");
    config.erase("links");  // manual off-mesh links change no tile (they join the assembled navmesh only)
    config.erase("prune");  // nor does the prune (a split bake does not apply it: run_split warns)
    // The mesh's contents, not only its triangle count and bounds: a level edited between two
    // jobs (a wall moved) must not merge with the other job's tiles.
    if (const auto snap = pipe.snapshot(); snap->mesh) {
        uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the vertex and index bytes
        auto mix = [&h](const void* p, size_t n) {
            for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const uint8_t*>(p)[i]) * 0x100000001b3ull;
        };
        mix(snap->mesh->verts.data(), snap->mesh->verts.size() * sizeof(float));
        mix(snap->mesh->tris.data(), snap->mesh->tris.size() * sizeof(snap->mesh->tris[0]));
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
        config["mesh_fnv1a"] = hex;
    }
    g.config = config.dump();
    g.triangles = pipe.snapshot()->mesh ? pipe.snapshot()->mesh->tri_count() : 0;
    if (nav::Status st = write_split_grid(dir, g); !st) return st;
    // A rerun of this rectangle first takes back its manifest: if it dies halfway, the merge sees
    // the rectangle missing rather than the old manifest over a mix of old and new tiles.
    fs::remove(dir + "/" + manifest_name(r), ec);
    if (ec) return nav::Status::bad_input("--tile-out " + dir + ": cannot remove the old manifest " + manifest_name(r) +
                                          " (" + ec.message() + ")");

    // Through the tiles' last stage (their runtime tile) as the whole bake runs: a tile is trimmed to
    // its outputs only once it has run every tile stage (stopping at Detail kept every intermediate
    // of every tile: 13x the peak memory on the large level).
    if (nav::Status st = pipe.run(); !st) return st;
    const auto bake = pipe.snapshot();
    std::vector<std::pair<int, int>> empty;
    int written = 0;
    for (int y = r[1]; y <= r[3]; ++y)
        for (int x = r[0]; x <= r[2]; ++x) {
            const nav::TileBake* tb = bake->tiles[static_cast<size_t>(x + y * L.cols)].get();
            if (!tb || !tb->polymesh || !tb->detail)
                return nav::Status::internal("--tiles: tile " + xy(x, y) + " was not baked");
            if (tb->polymesh->npolys == 0) {  // the one-process file leaves it out too
                empty.emplace_back(x, y);
                continue;
            }
            std::vector<uint8_t> data;
            std::array<uint16_t, nav::kMaxAgentTypes> bit_table{};
            const uint16_t* type_bits = nullptr;
            nav::Status st = nav::detour_type_bits(*bake, bit_table, type_bits);
            if (st)
                st = nav::write_detour_bake_tile(*tb->polymesh, *tb->detail, bake->inputs.params, x, y, data, &bake->area_flags,
                                                 nullptr, type_bits);
            if (!st) return st;
            const std::string path = tile_out_path(dir, x, y);  // the names a whole bake's --tile-out writes
            st = nav::write_output_file(path, std::string_view(reinterpret_cast<const char*>(data.data()), data.size()));
            if (!st) return nav::Status{st.code, "--tile-out " + st.message};
            ++written;
        }
    // last: its presence tells the merge this job finished
    if (nav::Status st = write_split_manifest(dir, r, empty); !st) return nav::Status{st.code, "--tile-out " + st.message};
    for (const std::string& w : bake->warnings()) std::fprintf(stderr, "navbake: warning: %s\n", w.c_str());
    std::printf("tiles %s of %d x %d: %d written, %d empty, in %s\n", rect_text(r).c_str(), L.cols, L.rows, written,
                static_cast<int>(empty.size()), dir.c_str());
    return nav::Status::ok();
}

nav::Status run_merge(const Args& a, const Job& job) {
    if (!a.navmesh_out_given || a.navmesh_out.empty())
        return nav::Status::bad_input("--merge needs --navmesh-out FILE (the merged navmesh to write)");
    if (nav::Status st = nav::check_output_path(a.navmesh_out); !st) return nav::Status::bad_input("--navmesh-out " + st.message);
    {  // the merged file inside DIR would overwrite a tile, or make every later merge of DIR refuse it
        std::string parent = fs::path(a.navmesh_out).parent_path().string();
        if (parent.empty()) parent = ".";
        if (nav::same_file(parent, a.merge_dir))
            return nav::Status::bad_input("--navmesh-out " + a.navmesh_out + ": is inside the --merge directory " + a.merge_dir +
                                          ", which holds only the jobs' tiles and manifests; write it elsewhere");
    }
    nav::DetourMeshFile file;
    if (nav::Status st = merge_split(a.merge_dir, job.max_input, file); !st) return st;
    if (file.tiles.empty()) return nav::Status::bad_input("--merge " + a.merge_dir + ": detour export: the navmesh has no polygons");
    if (nav::Status st = nav::check_detour_mesh_params(file.params); !st) return st;
    std::vector<uint8_t> bytes;
    nav::write_mset(file, bytes);
    if (nav::Status st = nav::write_output_file(a.navmesh_out, std::string_view(reinterpret_cast<const char*>(bytes.data()),
                                                                                  bytes.size()));
        !st)
        return nav::Status{st.code, "--navmesh-out " + st.message};
    std::printf("merged %d tiles from %s into %s (%zu bytes)\n", static_cast<int>(file.tiles.size()), a.merge_dir.c_str(),
                a.navmesh_out.c_str(), bytes.size());
    return nav::Status::ok();
}

}  // namespace navbake
