// Tiled bakes in the debugger: the tile under a point, the "only selected tile" view of a bake
// (every tile but the selected one reduced to what the tiles layer reads, so the per-grid layers
// draw that tile alone), and the per-tile timing summary of the Stages panel.
#pragma once
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "core/pipeline/pipeline.h"

namespace navdebug {

using TileXZ = std::pair<int, int>;  // column, row

// The tile index (tx + tz * cols) of (tx, tz) in the bake's layout, -1 when the bake is not tiled
// or the tile lies outside its grid.
int tile_index(const nav::Bake& b, TileXZ t);
// The tile whose own box holds (x, z), if any.
std::optional<TileXZ> tile_at(const nav::Bake& b, float x, float z);

// Makes the "only selected tile" view: a shallow copy of the bake whose other tiles are shells
// (grid position, config, stats, time, runtime tile; their polygon mesh only when it is empty, so
// the tiles layer still tells empty tiles apart) and draw no per-grid layer. Shells are kept per
// source tile, so a view of an unchanged bake holds the same objects (the draw layers, keyed by
// the tiles' addresses, are not rebuilt). Thread-safe.
class TileOnlyView {
public:
    std::shared_ptr<const nav::Bake> make(const std::shared_ptr<const nav::Bake>& bake, TileXZ tile);

private:
    std::mutex m_;
    std::vector<std::pair<std::shared_ptr<const nav::TileBake>, std::shared_ptr<const nav::TileBake>>> shells_;
};

// Per-tile bake times of the tiles present: min / median / max ms and the slowest tile.
struct TileTimes {
    int count = 0;
    double min_ms = 0, median_ms = 0, max_ms = 0, sum_ms = 0;
    TileXZ slowest{-1, -1};
};
TileTimes tile_times(const nav::Bake& b);
// Tiles present (baked in a complete bake, done so far in a partial one) of all.
int tiles_present(const nav::Bake& b);

}  // namespace navdebug
