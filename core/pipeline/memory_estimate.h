// What a bake needs in memory, estimated from the mesh and the configuration before anything is
// allocated: the pipeline refuses a grid whose estimate exceeds PipelineDef::memory_limit.
#pragma once
#include <cstdint>

#include "core/bake/input.h"
#include "core/bake/rasterize.h"
#include "core/pipeline/tiling.h"

namespace nav {

// Estimated bytes a bake of mesh m with config c needs (Pipeline::estimate_memory, the memory limit);
// lean: intermediates not kept (PipelineDef::keep_intermediates off, a single bake).
uint64_t estimate_bake_memory(const InputMesh& m, const BakeConfig& c, bool lean = false);
// Estimated bytes a tiled bake needs: the input, the triangle bins, every tile's stages when
// keep_all (intermediates kept), else `threads` tiles at once at the largest tile's need (returned
// in *largest_tile when not null), and for the whole bake every tile's state and outputs and the
// navmesh assembled from them (in *kept_bytes when not null), with every tile's obstacle cache when
// obstacle_cache and not keep_all (ObstacleCache::Compressed). The memory limit of a tiled bake is
// checked against this.
uint64_t estimate_tiled_memory(const InputMesh& m, const BakeConfig& c, const TileLayout& L, const TriangleBins& bins,
                               int threads, bool keep_all, uint64_t* largest_tile, uint64_t* kept_bytes = nullptr,
                               bool obstacle_cache = false);
// Estimated bytes every tile of layout L holds whatever it contains, with the input mesh: checked
// against the memory limit before any per-tile state is allocated.
uint64_t estimate_tile_overhead(const InputMesh& m, const TileLayout& L);
}  // namespace nav
