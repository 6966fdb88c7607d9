#include "core/pipeline/tiling.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace nav {

Status make_tile_layout(const BakeConfig& c, TileLayout& out) {
    out = TileLayout{};
    if (c.tile_size <= 0) return Status::ok();
    const int border = tile_border(c);
    if (c.tile_size < border)
        return Status::bad_input("parameter tile_size: got " + std::to_string(c.tile_size) +
                                 " cells, expected 0 (no tiles) or at least the tile border of " + std::to_string(border) +
                                 " cells (ceil(agent_radius / cell_size) + 3)");
    if (c.width < 1 || c.height < 1)
        return Status::bad_input("parameter tile_size: the grid of " + std::to_string(c.width) + " x " +
                                 std::to_string(c.height) + " cells has no cell to tile");
    // A tile larger than the grid is one tile over the whole grid, as in Recast (its tile count is
    // ceil(grid / tile_size) = 1). It is laid out at the grid's size (at least the border), not at
    // tile_size: the cells past the grid are emptied anyway (clip_to_solo_grid), and a 4096-cell
    // tile over a 60-cell level would allocate a grid 4600 times the level's for nothing.
    const int grid = std::max(c.width, c.height);
    const int tile = std::min(c.tile_size, std::max(grid, border));
    // In 64 bits: the grid's sides go up to INT_MAX (derive_config saturates), where
    // width + tile_size - 1 overflowed int into a negative tile count.
    const int64_t cols = (int64_t(c.width) + tile - 1) / tile;
    const int64_t rows = (int64_t(c.height) + tile - 1) / tile;
    char cs[32];
    std::snprintf(cs, sizeof cs, "%g", static_cast<double>(c.cs));
    if (cols * rows > kMaxTiles)
        return Status::bad_input("parameter tile_size: " + std::to_string(tile) + " cells makes " +
                                 std::to_string(cols) + " x " + std::to_string(rows) + " = " +
                                 std::to_string(cols * rows) + " tiles over the grid of " + std::to_string(c.width) +
                                 " x " + std::to_string(c.height) + " cells, more than the " +
                                 std::to_string(kMaxTiles) +
                                 " a navmesh holds; raise tile_size or cell_size (now " + cs + " m)");
    out.tile_size = tile;
    out.border = border;
    out.cols = static_cast<int>(cols);
    out.rows = static_cast<int>(rows);
    return Status::ok();
}

Status check_tile_grid(const BakeConfig& c, const Params& p, TileLayout& out) {
    out = TileLayout{};
    // A tiled bake never holds the whole grid: it needs at least one cell, sides an int holds (tile
    // and cell indices) and a height the 16-bit spans hold; then the tile grid itself.
    if (!(c.grid_x >= 1.0) || !(c.grid_z >= 1.0))
        return Status::bad_input("the mesh bounds are " + std::to_string(c.bmax[0] - c.bmin[0]) + " x " +
                                 std::to_string(c.bmax[2] - c.bmin[2]) + " m in x and z: less than one cell of cell_size = " +
                                 p.to_string(ParamId::cell_size) + " m");
    if (c.grid_x >= 2147483647.0 || c.grid_z >= 2147483647.0)
        return Status::bad_input("grid of more than 2^31 cells a side: raise cell_size (now " +
                                 p.to_string(ParamId::cell_size) + " m)");
    if (!((static_cast<double>(c.bmax[1]) - c.bmin[1]) / c.ch < kMaxGridLayers))
        return Status::bad_input("the mesh is " + std::to_string(c.bmax[1] - c.bmin[1]) + " m tall: more than " +
                                 std::to_string(kMaxGridLayers) + " cells of cell_height = " +
                                 p.to_string(ParamId::cell_height) + " m (span heights are 16-bit); raise cell_height");
    return make_tile_layout(c, out);
}

void tile_box(const BakeConfig& c, const TileLayout& L, int tx, int tz, float* box4) {
    if (!L.tiled()) {
        box4[0] = c.bmin[0];
        box4[1] = c.bmin[2];
        box4[2] = c.bmax[0];
        box4[3] = c.bmax[2];
        return;
    }
    // Recast's float arithmetic (Sample_TileMesh::buildTile), so the boxes match its tiles exactly.
    const float tcs = static_cast<float>(L.tile_size) * c.cs;
    box4[0] = c.bmin[0] + static_cast<float>(tx) * tcs;
    box4[1] = c.bmin[2] + static_cast<float>(tz) * tcs;
    box4[2] = c.bmin[0] + static_cast<float>(tx + 1) * tcs;
    box4[3] = c.bmin[2] + static_cast<float>(tz + 1) * tcs;
}

BakeConfig tile_config(const BakeConfig& c, const TileLayout& L, int tx, int tz) {
    if (!L.tiled()) return c;
    BakeConfig t = c;
    float box[4];
    tile_box(c, L, tx, tz, box);
    const float pad = static_cast<float>(L.border) * c.cs;
    t.bmin[0] = box[0] - pad;
    t.bmin[2] = box[1] - pad;
    t.bmax[0] = box[2] + pad;
    t.bmax[2] = box[3] + pad;
    t.border_size = L.border;
    t.width = t.height = L.tile_size + 2 * L.border;
    return t;
}

void TriangleBins::build(const InputMesh& m, const BakeConfig& c, const TileLayout& L) {
    cols_ = L.cols;
    rows_ = L.rows;
    const size_t nbins = static_cast<size_t>(cols_) * static_cast<size_t>(rows_);
    first_.assign(nbins + 1, 0);
    tris_.clear();
    const int ntris = m.tri_count();
    if (!L.tiled()) {  // one bin with every triangle
        tris_.resize(static_cast<size_t>(ntris));
        for (int t = 0; t < ntris; ++t) tris_[static_cast<size_t>(t)] = t;
        first_[1] = static_cast<uint32_t>(ntris);
        return;
    }
    const float tcs = static_cast<float>(L.tile_size) * c.cs;
    const float pad = static_cast<float>(L.border) * c.cs;
    // Visits the tiles whose bordered box overlaps triangle t's xz bounds: a candidate range from
    // the division, one wider each way, then the exact test against the box tile_config uses.
    auto for_tiles = [&](int t, auto&& fn) {
        float x0 = 1e30f, x1 = -1e30f, z0 = 1e30f, z1 = -1e30f;
        for (int k = 0; k < 3; ++k) {
            const float* v = &m.verts[static_cast<size_t>(m.tris[static_cast<size_t>(t) * 3 + k]) * 3];
            x0 = std::min(x0, v[0]);
            x1 = std::max(x1, v[0]);
            z0 = std::min(z0, v[2]);
            z1 = std::max(z1, v[2]);
        }
        const int ax = std::max(0, static_cast<int>(std::floor((x0 - c.bmin[0] - pad) / tcs)) - 1);
        const int bx = std::min(cols_ - 1, static_cast<int>(std::floor((x1 - c.bmin[0] + pad) / tcs)) + 1);
        const int az = std::max(0, static_cast<int>(std::floor((z0 - c.bmin[2] - pad) / tcs)) - 1);
        const int bz = std::min(rows_ - 1, static_cast<int>(std::floor((z1 - c.bmin[2] + pad) / tcs)) + 1);
        for (int tz = az; tz <= bz; ++tz)
            for (int tx = ax; tx <= bx; ++tx) {
                float box[4];
                tile_box(c, L, tx, tz, box);
                if (x1 < box[0] - pad || x0 > box[2] + pad || z1 < box[1] - pad || z0 > box[3] + pad) continue;
                fn(static_cast<size_t>(tx + tz * cols_));
            }
    };
    for (int t = 0; t < ntris; ++t) for_tiles(t, [&](size_t b) { ++first_[b + 1]; });
    for (size_t b = 0; b < nbins; ++b) first_[b + 1] += first_[b];
    tris_.resize(first_[nbins]);
    std::vector<uint32_t> fill(first_.begin(), first_.end() - 1);
    for (int t = 0; t < ntris; ++t) for_tiles(t, [&](size_t b) { tris_[fill[b]++] = t; });
}

}  // namespace nav
