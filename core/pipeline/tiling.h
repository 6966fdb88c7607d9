// The tile grid of a tiled bake (Recast's Sample_TileMesh layout): tiles of tile_size x tile_size
// cells over the mesh bounds, each baked on its own grid grown by a border of
// ceil(agent_radius / cell_size) + 3 cells on every side, so erosion, regions and contours near a
// tile edge see the same voxels as their neighbour does. The stages drop what lies in the border
// (contours are offset out of it, polymesh removes the border vertices and marks open edges on
// the tile edge as portals 0x8000 | side).
//
// TriangleBins is the spatial index of the input: per tile, the triangles whose xz bounds overlap
// the tile's bordered box, so no tile scans the whole mesh.
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/bake/input.h"
#include "core/pipeline/params.h"
#include "core/common.h"
#include "core/runtime/navmesh.h"

namespace nav {

struct TileLayout {
    int tile_size = 0;    // cells per side; 0 = solo (one grid, no border)
    int border = 0;       // cells around each tile
    int cols = 1, rows = 1;
    int count() const { return cols * rows; }
    bool tiled() const { return tile_size > 0; }
};

// The most tiles a tiled bake lays out: the navmesh's tile slots (a polygon reference holds the
// slot in kRefSlotBits bits).
constexpr int64_t kMaxTiles = kMaxTileSlots;

// Border cells for config c: walkable_radius + 3 (Recast's rule).
inline int tile_border(const BakeConfig& c) { return std::max(c.walkable_radius, c.clearance_radius) + 3; }

// The tile grid for config c (c.tile_size, the grid c.width x c.height). Fails (BadInput, naming
// tile_size) when the tile is smaller than its border or when it makes more than kMaxTiles tiles.
// A tile_size above the grid lays out one tile of the grid's side (at least the border's).
Status make_tile_layout(const BakeConfig& c, TileLayout& out);

// The whole grid of a tiled bake (at least one cell, sides below 2^31 cells, a height the 16-bit
// spans hold: no solo grid limit, a tiled bake never holds it) and then make_tile_layout. The one
// check before anything per tile is allocated (the pipeline) or called sane (diagnose).
Status check_tile_grid(const BakeConfig& c, const Params& p, TileLayout& out);

// The configuration a tile is baked with: bordered bounds (the whole-mesh y range), a grid of
// tile_size + 2 * border cells and border_size = border. Solo layout: c itself.
BakeConfig tile_config(const BakeConfig& c, const TileLayout& L, int tx, int tz);

// The tile's own box (without border) in xz: x0, z0, x1, z1 in metres.
void tile_box(const BakeConfig& c, const TileLayout& L, int tx, int tz, float* box4);

class TriangleBins {
public:
    // Bins every triangle of m into each tile whose bordered box its xz bounds overlap. Triangles
    // in a bin keep the mesh order.
    void build(const InputMesh& m, const BakeConfig& c, const TileLayout& L);
    std::span<const int> tile(int tx, int tz) const {
        const size_t b = static_cast<size_t>(tx + tz * cols_);
        return {tris_.data() + first_[b], first_[b + 1] - first_[b]};
    }
    size_t memory_bytes() const { return first_.capacity() * sizeof(uint32_t) + tris_.capacity() * sizeof(int); }

private:
    int cols_ = 0, rows_ = 0;
    std::vector<uint32_t> first_;  // cols * rows + 1
    std::vector<int> tris_;
};

}  // namespace nav
