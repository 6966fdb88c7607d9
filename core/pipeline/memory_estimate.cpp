// The memory estimates (memory_estimate.h) and the checks of a grid against the memory limit.
#include "core/pipeline/memory_estimate.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include <oneapi/tbb/info.h>

#include "core/pipeline/pipeline_impl.h"

namespace nav {

// Bytes every tile holds for the whole bake whatever it contains: its working state (Unit: its
// bordered config, per-stage stats and their counts), the published TileBake with a copy of them,
// its polygon, detail and runtime tile and its share of the assembled navmesh. Measured: a 1 km
// plane at tile_size 20, 40 and 80 (27 889, 7 056 and 1 764 tiles, one polygon each) peaks at
// 6.6-6.7 KiB a tile above the process's baseline.
constexpr uint64_t kTileStateBytes = 6912;

namespace {

// Columns of grid c the triangle v touches, row by row: in each row of cells it overlaps, the x
// extent of the triangle within the row's strip (its corners there and where its edges cross the
// strip's two sides, both sides included) gives the columns. Where the bound below counts every
// boundary cell twice over, this is near exact: on a level of small triangles (0.1 m quads, 0.3 m
// cells) the bound was 3 times these columns, on the large generated level 1.3.
double touched_columns(const float* const* v, const BakeConfig& c, double inv, int row0, int row1) {
    constexpr double eps = 0.0;  // a margin of even 1e-3 cells doubled the columns of a cell-aligned mesh
    double cols = 0;
    for (int r = row0; r <= row1; ++r) {
        const double s0 = c.bmin[2] + (r - eps) / inv, s1 = c.bmin[2] + (r + 1 + eps) / inv;
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (int k = 0; k < 3; ++k) {
            const double xa = v[k][0], za = v[k][2], xb = v[(k + 1) % 3][0], zb = v[(k + 1) % 3][2];
            if (za >= s0 && za <= s1) {
                lo = std::min(lo, xa);
                hi = std::max(hi, xa);
            }
            if (za == zb) continue;
            for (const double zl : {s0, s1})
                if ((zl - za) * (zl - zb) <= 0.0) {
                    const double x = xa + (zl - za) / (zb - za) * (xb - xa);
                    lo = std::min(lo, x);
                    hi = std::max(hi, x);
                }
        }
        if (!(hi >= lo)) continue;
        const double a = std::max(std::floor((lo - c.bmin[0]) * inv - eps), 0.0);
        const double b = std::min(std::floor((hi - c.bmin[0]) * inv + eps), double(c.width) - 1.0);
        if (b >= a) cols += b - a + 1.0;
    }
    return cols;
}

// Raw spans a grid gets from triangles `tris` of m (all of them when tris is empty): one per column
// a triangle touches. A triangle over at most kExactRows rows of cells: the columns it touches,
// row by row (touched_columns). A larger one (few on any level; counting its rows would let a
// hostile mesh of huge triangles stall the estimate): at most its xz area in cells plus its L1
// perimeter in cells (the partly covered ones) plus its corners, and never more than its bounding
// box clipped to the grid. Computed in double: no overflow on any bounds.
// *merged (when not null): the spans left once a column's overlapping raw spans merge, estimated:
// a flat triangle (|normal.y| >= 0.7) shares its boundary columns with its neighbours at about its
// height (a floor, a terrain), so it adds its area in cells (and one); a steep one half its
// columns (walls are quads: the quad's other triangle covers the same columns, in the same spans).
// The large generated level: 15 M raw spans, about 9 M merged.
double estimate_raw_spans(const InputMesh& m, const BakeConfig& c, std::span<const int> tris, double* merged) {
    constexpr double kExactRows = 64;
    double solid = 0;
    const uint64_t cells = uint64_t(std::max(c.width, 0)) * uint64_t(std::max(c.height, 0));
    double spans = 0;
    const double inv = 1.0 / c.cs;
    const int n = tris.empty() ? m.tri_count() : static_cast<int>(tris.size());
    for (int i = 0; i < n; ++i) {
        const int t = tris.empty() ? i : tris[static_cast<size_t>(i)];
        const float* v[3];
        for (int k = 0; k < 3; ++k) v[k] = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(t * 3 + k)]) * 3];
        const double x0 = std::max<double>(std::min({v[0][0], v[1][0], v[2][0]}), c.bmin[0]);
        const double x1 = std::min<double>(std::max({v[0][0], v[1][0], v[2][0]}), c.bmax[0]);
        const double z0 = std::max<double>(std::min({v[0][2], v[1][2], v[2][2]}), c.bmin[2]);
        const double z1 = std::min<double>(std::max({v[0][2], v[1][2], v[2][2]}), c.bmax[2]);
        if (!(x1 >= x0) || !(z1 >= z0)) continue;
        const double row0 = std::max(std::floor((z0 - c.bmin[2]) * inv), 0.0);
        const double row1 = std::min(std::floor((z1 - c.bmin[2]) * inv), double(c.height) - 1.0);
        const double box = ((x1 - x0) * inv + 2.0) * ((z1 - z0) * inv + 2.0);
        const double area = 0.5 * std::fabs((double(v[1][0]) - v[0][0]) * (double(v[2][2]) - v[0][2]) -
                                            (double(v[2][0]) - v[0][0]) * (double(v[1][2]) - v[0][2])) * inv * inv;
        double perim = 0;
        for (int k = 0; k < 3; ++k)
            perim += std::fabs(double(v[(k + 1) % 3][0]) - v[k][0]) + std::fabs(double(v[(k + 1) % 3][2]) - v[k][2]);
        const double touched = row1 - row0 < kExactRows && c.width > 0
                                   ? (row1 >= row0 ? touched_columns(v, c, inv, static_cast<int>(row0), static_cast<int>(row1)) : 0.0)
                                   : std::min(box, area + perim * inv + 4.0);
        spans += touched;
        if (merged) {
            // |n.y| / |n| >= 0.7, n = cross(v1 - v0, v2 - v0): its y is the xz area's double
            double n[3];
            const double e0[3] = {double(v[1][0]) - v[0][0], double(v[1][1]) - v[0][1], double(v[1][2]) - v[0][2]};
            const double e1[3] = {double(v[2][0]) - v[0][0], double(v[2][1]) - v[0][1], double(v[2][2]) - v[0][2]};
            n[0] = e0[1] * e1[2] - e0[2] * e1[1];
            n[1] = e0[2] * e1[0] - e0[0] * e1[2];
            n[2] = e0[0] * e1[1] - e0[1] * e1[0];
            const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            const bool flat = len > 0.0 && std::fabs(n[1]) >= 0.7 * len;
            solid += flat ? std::min(touched, area + 1.0) : 0.5 * touched;
        }
    }
    if (merged) *merged = std::min(solid, double(cells) * 64.0);
    return std::min(spans, double(cells) * 64.0);
}

// Bytes per cell and per raw span of one grid's stages (see estimate_bake_memory).
double grid_bytes(const BakeConfig& c, double spans) {
    const uint64_t cells = uint64_t(std::max(c.width, 0)) * uint64_t(std::max(c.height, 0));
    return double(cells) * (4 + 4 + 8) + spans * (12 + 12 + 8 + 7 + 25);
}

// What a tile keeps once baked beyond kTileStateBytes (polygon mesh, detail mesh, runtime tile),
// per raw span of its grid: the detail mesh grows with the walkable surface it samples. 2 bytes a
// span covered every tiled bake measured (the shared meshes at mesh_scale 1 and 4, tile_size 16 to
// 64: peak RSS within the estimate plus the process's 7 MiB baseline); a flat plane, whose tiles
// each hold one polygon, is overestimated (a 4 km plane: 1734 MiB estimated, 490 MiB peak).
// Re-measured with the process baseline counted on its own (kProcessBytes) and the raw spans
// counted row by row (touched_columns): 0.3 bytes a span bounds the large generated level's tiled
// bakes (tile_size 32 and 64) within 25%, the 2 bytes before made them 3 times the peak.
constexpr double kOutputBytesPerSpan = 0.3;
// What a baking process holds before it bakes anything (code, libraries, the allocator's and TBB's first
// arenas): 9.9 MiB peak for a one-triangle level, with the margin of the measured levels.
constexpr double kProcessBytes = 10.5 * 1048576.0;
// Each bake thread beyond the first: its stack and allocator arena as touched (measured: 0.3-0.6
// MiB more peak at 2 threads than at 1 on the shared meshes, beside the second tile baking).
constexpr double kThreadBytes = 0.25 * 1048576.0;
// A tiled bake's task arena (oneTBB's market and arena, even on one thread): 1 MiB bounds the
// shared meshes' tiled peaks, which sit 0.3-0.6 MiB above their solo bakes' baseline.
constexpr double kTiledBytes = 1.0 * 1048576.0;
// The navmesh assembled from the tiles' runtime tiles, per byte of the tiles' outputs.
constexpr double kAssemblyPerOutput = 0.5;

uint64_t to_bytes(double bytes) {
    return bytes >= 1.8e19 ? std::numeric_limits<uint64_t>::max() : static_cast<uint64_t>(bytes);
}

// The mesh as loaded and as fixed (mesh_*), and its triangle areas.
double mesh_bytes(const InputMesh& m) {
    return double(m.verts.size()) * 4.0 * 2.0 + double(m.tris.size()) * 4.0 * 2.0 + m.tri_count() * 2.0;
}

// The loading phase's peak, once per process: the mesh and the reader's copy of its text (the OBJ
// reader holds the file while it parses: a vertex line and a face line of about 30 and 22 bytes,
// and its growth: 36 and 28 bound the measured peaks). It can
// be the whole process's peak: 720 k triangles of 0.1 m on a 200 x 200 cell grid peak at 64 MiB in
// the load and far less in the bake.
double load_bytes(const InputMesh& m) {
    return mesh_bytes(m) + double(m.verts.size() / 3) * 36.0 + double(m.tri_count()) * 28.0;
}

}  // namespace

uint64_t estimate_tile_overhead(const InputMesh& m, const TileLayout& L) {
    return to_bytes(mesh_bytes(m) + double(L.count()) * double(kTileStateBytes + sizeof(uint32_t)));
}

uint64_t estimate_tiled_memory(const InputMesh& m, const BakeConfig& c, const TileLayout& L, const TriangleBins& bins,
                               int threads, bool keep_all, uint64_t* largest_tile, uint64_t* kept_bytes,
                               bool obstacle_cache) {
    // Per tile: its grid's stages, and its triangles as the small indexed list it rasterizes
    // (3 vertices and 3 indices each at most). Kept intermediates: every tile's at once (a
    // caller that draws them); otherwise the tiles baking at one time, each at the largest tile's need. For the
    // whole bake: every tile's state and outputs, and the navmesh assembled from them.
    double sum = 0, most = 0, outputs = 0, cache = 0;
    int baked = 0;  // tiles with triangles: no more of them bake at once than there are
    for (int tz = 0; tz < L.rows; ++tz)
        for (int tx = 0; tx < L.cols; ++tx) {
            const BakeConfig tc = tile_config(c, L, tx, tz);
            const std::span<const int> tris = bins.tile(tx, tz);
            if (tris.empty()) continue;
            ++baked;
            const double spans = estimate_raw_spans(m, tc, tris, nullptr);
            // a tile baked lean (no intermediates kept) holds its grid's stages one after another:
            // 40 bytes a raw span and 8 a cell bound the large generated level's tiles at two threads
            const double cells = double(std::max(tc.width, 0)) * double(std::max(tc.height, 0));
            const double b = (keep_all ? grid_bytes(tc, spans) : cells * 8.0 + spans * 40.0) + double(tris.size()) * (36 + 12);
            sum += b;
            most = std::max(most, b);
            outputs += spans * kOutputBytesPerSpan;
            // The obstacle cache (trimmed bakes): 8 bytes a cell and 10 a compact span (at most one
            // a raw span) packed, LZ4 at 3.4 to 8.4 times on the shared meshes and the large level.
            if (obstacle_cache && !keep_all) cache += (cells * 8.0 + spans * 10.0) / 3.0;
        }
    if (largest_tile) *largest_tile = to_bytes(most);
    // The threads that bake at once: no more than the tiles, nor than the cores oneTBB runs on
    // (an arena asked for 63 threads on 2 cores runs 2; threads=63 on 9 tiles made a 3 x 3 demo
    // bake 35 MiB for its 14.5 MiB peak).
    threads = std::min({std::max(threads, 1), std::max(baked, 1), std::max(tbb::info::default_concurrency(), 1)});
    const double baking = keep_all ? sum : std::min(sum, most * std::max(threads, 1));
    const double kept = double(L.count()) * double(kTileStateBytes) + outputs * (1.0 + kAssemblyPerOutput) + cache;
    if (kept_bytes) *kept_bytes = to_bytes(kept);
    const double bake = mesh_bytes(m) + double(bins.memory_bytes()) + baking + kept + kTiledBytes +
                        kThreadBytes * double(std::max(threads, 1) - 1);
    return to_bytes(kProcessBytes + std::max(bake, load_bytes(m)));
}

uint64_t estimate_bake_memory(const InputMesh& m, const BakeConfig& c, bool lean) {
    double merged = 0;
    const double spans = estimate_raw_spans(m, c, {}, &merged);
    const uint64_t cells = uint64_t(std::max(c.width, 0)) * uint64_t(std::max(c.height, 0));
    // Per cell: two column heads (solid, filtered), a compact cell. Per raw span, measured on
    // stacked floors and wide grids (tests/unit/test_hostile.cpp, a lean process's peak): intermediates
    // kept, 88: the rasterized pool 24 (it keeps its sort buffer's capacity for the rebuild: 16
    // bytes per raw span since the 8-byte records, 24 on grids over 2^24 columns; the 24 stays), the
    // filtered copy 12, the compact span 8, three area arrays, distance and region ids 7, the
    // regions / contour stages' scratch about 25 and the watershed's kept working memory about 18.
    // Lean (each intermediate dropped after its last reader, the filter in place, no
    // working memory kept), 38: the peak is the rasterize sort (16-24) and the pool it gives back
    // (12), or the compact stages.
    // Per cell: 16 kept (two column heads and a compact cell), 8 lean (one of them at a time).
    // Lean measured (test_hostile, the process's peak): 40 floors of 60 m 55 MiB, one floor of 600 m
    // 155 MiB, about 36 bytes a span and 5 a cell.
    // Measured against GNU time's peak for a lean bake, raw spans counted row by row
    // (touched_columns), the process's own kProcessBytes on top. Lean, the peak is the rasterize
    // sort (16 bytes a raw span) beside the merged spans' pool (12), or the compact stages, 38 a
    // merged span (stacked floors, where nothing merges); 38 a raw span made the large generated
    // level (15 M raw spans, fewer merged: its terrain's triangles share their boundary columns)
    // 2.2 times its 337 MiB peak. The bake's peak or the load's (load_bytes), whichever is higher.
    const double per_cell = lean ? 8.0 : 16.0;
    const double bake = double(cells) * per_cell + mesh_bytes(m) +
                        (lean ? std::max(16.0 * spans + 12.0 * merged, 38.0 * merged) : 88.0 * spans);
    return to_bytes(kProcessBytes + std::max(bake, load_bytes(m)));
}

// The solo grid a bake may allocate: the one grid every stage must honour (nav::check_grid: its
// sides are polygon-vertex coordinates), then the memory estimate. (A tiled bake's whole grid:
// check_tile_grid, tiling.h.)
Status check_solo_grid(const BakeConfig& c, const Params& params, uint64_t need, uint64_t limit) {
    if (Status st = nav::check_grid(c, params); !st) return st;
    if (need > limit)
        return Status::bad_input("grid of " + std::to_string(c.width) + " x " + std::to_string(c.height) +
                                 " cells needs about " + std::to_string(need >> 20) +
                                 " MiB, over the memory limit of " + std::to_string(limit >> 20) +
                                 " MiB; raise cell_size (now " + params.to_string(ParamId::cell_size) +
                                 " m) or the limit");
    return Status::ok();
}

// What every tile of layout L holds, whatever it contains, against the limit: checked before any
// per-tile state (the tiles' working state, the triangle bins) is allocated.
Status check_tile_overhead(const InputMesh& m, const BakeConfig& c, const TileLayout& L, const Params& params,
                           uint64_t memory_limit) {
    const uint64_t need = estimate_tile_overhead(m, L);
    if (need <= memory_limit) return Status::ok();
    return Status::bad_input("tiled bake of " + std::to_string(L.cols) + " x " + std::to_string(L.rows) + " = " +
                             std::to_string(L.count()) + " tiles needs about " + std::to_string(need >> 20) +
                             " MiB for the tiles' state alone (about " + std::to_string(kTileStateBytes) +
                             " bytes a tile), over the memory limit of " + std::to_string(memory_limit >> 20) +
                             " MiB; raise tile_size (now " + params.to_string(ParamId::tile_size) +
                             " cells) or cell_size (now " + params.to_string(ParamId::cell_size) +
                             " m), or raise the limit; the grid is " + std::to_string(c.width) + " x " +
                             std::to_string(c.height) + " cells");
}

// The memory a tiled bake of the layout needs against the limit (the tiles' memory from the
// triangles each one gets); builds the triangle bins when they are not current.
Status check_tiled_grid(const InputMesh& m, const BakeConfig& c, const TileLayout& L, const Params& params,
                        uint64_t memory_limit, int threads, bool keep_intermediates, bool obstacle_cache,
                        TriangleBins& bins, bool& bins_current) {
    if (!bins_current) {
        bins.build(m, c, L);
        bins_current = true;
    }
    uint64_t largest = 0, kept = 0;
    const uint64_t need = estimate_tiled_memory(m, c, L, bins, threads, keep_intermediates, &largest, &kept, obstacle_cache);
    if (need <= memory_limit) return Status::ok();
    // The advice follows what dominates: many tiles' state and outputs want fewer, larger tiles;
    // the tiles baking at once want smaller tiles or fewer threads.
    const bool many_tiles = !keep_intermediates && kept >= need / 2;
    return Status::bad_input(
        "tiled bake of " + std::to_string(L.cols) + " x " + std::to_string(L.rows) + " tiles needs about " +
        std::to_string(need >> 20) + " MiB (" +
        (keep_intermediates ? std::string("every tile's intermediates kept")
                            : "up to " + std::to_string(std::max(threads, 1)) + " tiles at once, the largest about " +
                                  std::to_string(largest >> 20) + " MiB, and " + std::to_string(kept >> 20) +
                                  " MiB of every tile's state and output and the assembled navmesh") +
        "), over the memory limit of " + std::to_string(memory_limit >> 20) + " MiB; raise cell_size (now " +
        params.to_string(ParamId::cell_size) + " m), " +
        (many_tiles ? "raise tile_size (now " + params.to_string(ParamId::tile_size) + " cells) for fewer tiles"
                    : std::string("lower tile_size or threads")) +
        ", or raise the limit");
}

}  // namespace nav
