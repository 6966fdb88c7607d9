// Debian's DetourTileCache (librecast-dev 1.5.1) as the reference for our temporary obstacles
// (core/bake/obstacles.h): the differential test (test_diff_tilecache.cpp) and the benchmark
// (tests/bench/obstaclebench.cpp) build it here. Test and benchmark only; nothing in core/
// includes this header.
//
// The cache is built as RecastDemo's Sample_TempObstacles does: per tile, Recast's voxel stages on
// the tile's bordered box (recast_ref.h's run_recast through erosion, with the triangles our
// spatial index gives the tile and the columns of the solo grid only, as the tiled differential
// tests do), rcBuildHeightfieldLayers, one dtBuildTileCacheLayer per layer, dtTileCache::addTile,
// then buildNavMeshTilesAt for every tile. The parameters are ours (cell size and height, tile
// size, agent, edge error): DetourTileCache builds a tile's polygons from its layers with its own
// region, contour and polygon steps and no detail mesh.
//
// The "compressor" is a pass-through copy (RecastDemo's FastLZ is not packaged by Debian); the
// allocator is a linear arena reset per tile build, as RecastDemo's LinearAllocator, growing by
// plain allocations when the arena is full (RecastDemo's fails then).
//
// Obstacle shapes. Ours grow every obstacle by the agent radius and clear the spans whose floor is
// within [bottom - agent_max_climb, top]; DetourTileCache marks the layer cells inside the shape as
// given (the layer is already eroded, so RecastDemo's obstacles are not grown by the agent) and
// whose floor lies in [bottom, top]. The equivalent shape given to it (to_tilecache below) is ours
// grown by agent_radius in x and z and extended agent_max_climb below:
//  - cylinder: radius + agent_radius, base lowered by the climb, height + climb;
//  - box (axis-aligned): bmin - (agent_radius, climb, agent_radius), bmax + (agent_radius, 0, agent_radius);
//    its grown corners are square where ours are round (a (4 - pi) r^2 difference per box);
//  - rotated box: half extents + agent_radius in x and z, same yaw (DetourTileCache's rotation
//    convention is ours: counter-clockwise seen from +y), bottom lowered by the climb; corners square.
// What stays different is DetourTileCache's own rounding: a cylinder marks the cells whose centre
// lies within radius + half a cell, a box the cells whose index range meets the box's
// (floor(min)..floor(max)), a rotated box tests the cell's corner, not its centre.
#pragma once
#include <DetourCommon.h>
#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourNavMeshQuery.h>
#include <DetourTileCache.h>
#include <DetourTileCacheBuilder.h>
#include <Recast.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/bake/obstacles.h"
#include "core/pipeline/tiling.h"
#include "diff/recast_ref.h"

namespace navdiff {

// Copies the layer as it is (dtBuildTileCacheLayer compresses, buildNavMeshTile decompresses).
struct PassThroughCompressor : dtTileCacheCompressor {
    int maxCompressedSize(const int bufferSize) override { return bufferSize; }
    dtStatus compress(const unsigned char* buffer, const int bufferSize, unsigned char* compressed,
                      const int maxCompressedSize, int* compressedSize) override {
        if (bufferSize > maxCompressedSize) return DT_FAILURE | DT_BUFFER_TOO_SMALL;
        std::memcpy(compressed, buffer, static_cast<size_t>(bufferSize));
        *compressedSize = bufferSize;
        return DT_SUCCESS;
    }
    dtStatus decompress(const unsigned char* compressed, const int compressedSize, unsigned char* buffer,
                        const int maxBufferSize, int* bufferSize) override {
        if (compressedSize > maxBufferSize) return DT_FAILURE | DT_BUFFER_TOO_SMALL;
        std::memcpy(buffer, compressed, static_cast<size_t>(compressedSize));
        *bufferSize = compressedSize;
        return DT_SUCCESS;
    }
};

// A bump arena, reset by the tile cache before each tile build (free does nothing). Requests that
// do not fit go to malloc and are released at the next reset.
class ArenaAlloc : public dtTileCacheAlloc {
public:
    explicit ArenaAlloc(size_t capacity) : buf_(capacity) {}
    ~ArenaAlloc() override { release_overflow(); }
    ArenaAlloc(const ArenaAlloc&) = delete;
    ArenaAlloc& operator=(const ArenaAlloc&) = delete;
    void reset() override {
        top_ = 0;
        release_overflow();
    }
    void* alloc(const size_t size) override {
        const size_t n = (size + 15) & ~size_t(15);
        if (top_ + n <= buf_.size()) {
            void* p = buf_.data() + top_;
            top_ += n;
            return p;
        }
        void* p = std::malloc(size);
        if (p) overflow_.push_back(p);
        return p;
    }
    void free(void*) override {}

private:
    void release_overflow() {
        for (void* p : overflow_) std::free(p);
        overflow_.clear();
    }
    std::vector<unsigned char> buf_;
    size_t top_ = 0;
    std::vector<void*> overflow_;
};

// Every polygon gets the walk flag both sides' default filters need.
struct WalkFlagProcess : dtTileCacheMeshProcess {
    void process(dtNavMeshCreateParams* params, unsigned char* polyAreas, unsigned short* polyFlags) override {
        for (int i = 0; i < params->polyCount; ++i) {
            if (polyAreas[i] == DT_TILECACHE_WALKABLE_AREA) polyAreas[i] = 0;
            polyFlags[i] = 1;
        }
    }
};

// The tile cache, the navmesh it keeps current and a query on it. Owns all.
struct TileCacheRef {
    PassThroughCompressor comp;
    ArenaAlloc alloc{1 << 20};
    WalkFlagProcess proc;
    dtTileCache* cache = nullptr;
    dtNavMesh* mesh = nullptr;
    dtNavMeshQuery* query = nullptr;
    nav::TileLayout layout;
    float agent_radius = 0, agent_climb = 0;
    int layers = 0;  // tile cache layers added

    TileCacheRef() = default;
    TileCacheRef(const TileCacheRef&) = delete;
    TileCacheRef& operator=(const TileCacheRef&) = delete;
    ~TileCacheRef() { release(); }
    void release() {
        if (query) dtFreeNavMeshQuery(query);
        if (mesh) dtFreeNavMesh(mesh);
        if (cache) dtFreeTileCache(cache);
        query = nullptr;
        mesh = nullptr;
        cache = nullptr;
        layers = 0;
    }
};

inline int ilog2_ceil(unsigned v) {
    int b = 0;
    while ((1u << b) < v) ++b;
    return b;
}

// Builds the tile cache and its navmesh for `mesh` with our bake configuration `c` (tiled:
// c.tile_size > 0) and the agent's radius and climb in metres (the obstacle growth, see above).
// False with err set on failure.
inline bool build_tilecache(const nav::InputMesh& mesh, const nav::BakeConfig& c, float agent_height,
                            float agent_radius, float agent_climb, TileCacheRef& out, std::string& err,
                            int max_obstacles = 256) {
    out.release();
    out.agent_radius = agent_radius;
    out.agent_climb = agent_climb;
    nav::TileLayout& L = out.layout;
    if (!nav::make_tile_layout(c, L) || !L.tiled() || L.tile_size > 255) {
        err = "tile layout (tile_size 1..255 wanted)";
        return false;
    }
    nav::TriangleBins bins;
    bins.build(mesh, c, L);

    // Recast's layers of every tile first: the cache and navmesh are sized by the layer count.
    struct LayerData {
        int tx, tz;
        unsigned char* data;
        int size;
    };
    std::vector<LayerData> datas;
    auto free_datas = [&datas] {
        for (LayerData& d : datas) dtFree(d.data);
        datas.clear();
    };
    RecastVoxels rv;
    nav::InputMesh sub;
    sub.verts = mesh.verts;
    int max_layers = 1;
    for (int tz = 0; tz < L.rows; ++tz)
        for (int tx = 0; tx < L.cols; ++tx) {
            sub.tris.clear();
            for (int i : bins.tile(tx, tz))
                for (int k = 0; k < 3; ++k) sub.tris.push_back(mesh.tris[static_cast<size_t>(i) * 3 + k]);
            if (sub.tris.empty()) continue;
            const nav::BakeConfig tc = nav::tile_config(c, L, tx, tz);
            const VoxelRun run = run_recast(sub, tc, rv, 0u, false, false, tile_keep_cells(c, L, tx, tz).data());
            if (!run.ok) {
                free_datas();
                err = run.error;
                return false;
            }
            rcHeightfieldLayerSet* lset = rcAllocHeightfieldLayerSet();
            if (!lset || !rcBuildHeightfieldLayers(&rv.ctx, *rv.chf, tc.border_size, tc.walkable_height, *lset)) {
                rcFreeHeightfieldLayerSet(lset);
                free_datas();
                err = "rcBuildHeightfieldLayers failed for tile " + std::to_string(tx) + "," + std::to_string(tz);
                return false;
            }
            max_layers = std::max(max_layers, lset->nlayers);
            for (int i = 0; i < lset->nlayers; ++i) {
                const rcHeightfieldLayer& layer = lset->layers[i];
                dtTileCacheLayerHeader h{};
                h.magic = DT_TILECACHE_MAGIC;
                h.version = DT_TILECACHE_VERSION;
                h.tx = tx, h.ty = tz, h.tlayer = i;
                dtVcopy(h.bmin, layer.bmin);
                dtVcopy(h.bmax, layer.bmax);
                h.width = static_cast<unsigned char>(layer.width);
                h.height = static_cast<unsigned char>(layer.height);
                h.minx = static_cast<unsigned char>(layer.minx);
                h.maxx = static_cast<unsigned char>(layer.maxx);
                h.miny = static_cast<unsigned char>(layer.miny);
                h.maxy = static_cast<unsigned char>(layer.maxy);
                h.hmin = static_cast<unsigned short>(layer.hmin);
                h.hmax = static_cast<unsigned short>(layer.hmax);
                LayerData d{tx, tz, nullptr, 0};
                if (dtStatusFailed(dtBuildTileCacheLayer(&out.comp, &h, layer.heights, layer.areas, layer.cons, &d.data,
                                                         &d.size))) {
                    rcFreeHeightfieldLayerSet(lset);
                    free_datas();
                    err = "dtBuildTileCacheLayer failed for tile " + std::to_string(tx) + "," + std::to_string(tz);
                    return false;
                }
                datas.push_back(d);
            }
            rcFreeHeightfieldLayerSet(lset);
        }

    dtTileCacheParams tp{};
    dtVcopy(tp.orig, c.bmin);
    tp.cs = c.cs, tp.ch = c.ch;
    tp.width = tp.height = L.tile_size;
    tp.walkableHeight = agent_height;
    tp.walkableRadius = agent_radius;
    // buildNavMeshTile takes (int)(walkableClimb / ch) cells: half a cell over ours gives our
    // walkable_climb whatever the float rounding of the division.
    tp.walkableClimb = (static_cast<float>(c.walkable_climb) + 0.5f) * c.ch;
    tp.maxSimplificationError = c.max_simplification_error;
    tp.maxTiles = L.count() * max_layers;
    tp.maxObstacles = max_obstacles;
    out.cache = dtAllocTileCache();
    if (!out.cache || dtStatusFailed(out.cache->init(&tp, &out.alloc, &out.comp, &out.proc))) {
        free_datas();
        err = "dtTileCache::init failed";
        return false;
    }
    const int tile_bits = ilog2_ceil(static_cast<unsigned>(tp.maxTiles));
    if (tile_bits > 20) {
        free_datas();
        err = "too many tile layers for 32-bit polygon references: " + std::to_string(tp.maxTiles);
        return false;
    }
    dtNavMeshParams np{};
    dtVcopy(np.orig, c.bmin);
    np.tileWidth = np.tileHeight = static_cast<float>(L.tile_size) * c.cs;
    np.maxTiles = 1 << tile_bits;
    np.maxPolys = 1 << (22 - tile_bits);
    out.mesh = dtAllocNavMesh();
    if (!out.mesh || dtStatusFailed(out.mesh->init(&np))) {
        free_datas();
        err = "dtNavMesh::init failed";
        return false;
    }
    for (size_t i = 0; i < datas.size(); ++i) {
        if (dtStatusFailed(out.cache->addTile(datas[i].data, datas[i].size, DT_COMPRESSEDTILE_FREE_DATA, nullptr))) {
            for (size_t k = i; k < datas.size(); ++k) dtFree(datas[k].data);
            datas.clear();
            err = "dtTileCache::addTile failed";
            return false;
        }
        ++out.layers;
    }
    datas.clear();  // the cache owns them
    for (int tz = 0; tz < L.rows; ++tz)
        for (int tx = 0; tx < L.cols; ++tx)
            if (dtStatusFailed(out.cache->buildNavMeshTilesAt(tx, tz, out.mesh))) {
                err = "buildNavMeshTilesAt failed for tile " + std::to_string(tx) + "," + std::to_string(tz);
                return false;
            }
    out.query = dtAllocNavMeshQuery();
    if (!out.query || dtStatusFailed(out.query->init(out.mesh, 65535))) {
        err = "dtNavMeshQuery::init failed";
        return false;
    }
    return true;
}

// Adds our obstacle to the cache as its equivalent shape (see the top of this file). The request
// is queued: dtTileCache::update applies it.
inline dtStatus add_tilecache_obstacle(TileCacheRef& t, const nav::Obstacle& o, dtObstacleRef* ref) {
    const float r = t.agent_radius, climb = t.agent_climb;
    switch (o.shape) {
        case nav::ObstacleShape::Cylinder: {
            const float pos[3] = {o.pos[0], o.pos[1] - climb, o.pos[2]};
            return t.cache->addObstacle(pos, o.radius + r, o.height + climb, ref);
        }
        case nav::ObstacleShape::Box: {
            const float bmin[3] = {o.pos[0] - o.half[0] - r, o.pos[1] - o.half[1] - climb, o.pos[2] - o.half[2] - r};
            const float bmax[3] = {o.pos[0] + o.half[0] + r, o.pos[1] + o.half[1], o.pos[2] + o.half[2] + r};
            return t.cache->addBoxObstacle(bmin, bmax, ref);
        }
        case nav::ObstacleShape::RotatedBox: {
            const float centre[3] = {o.pos[0], o.pos[1] - 0.5f * climb, o.pos[2]};
            const float half[3] = {o.half[0] + r, o.half[1] + 0.5f * climb, o.half[2] + r};
            return t.cache->addBoxObstacle(centre, half, o.yaw, ref);
        }
    }
    return DT_FAILURE | DT_INVALID_PARAM;
}

// Runs dtTileCache::update until the cache is up to date (every queued obstacle applied and its
// tiles rebuilt into the navmesh). False when an update fails or it does not settle.
inline bool update_tilecache(TileCacheRef& t, int* rounds = nullptr) {
    bool done = false;
    int n = 0;
    while (!done) {
        if (dtStatusFailed(t.cache->update(0.0f, t.mesh, &done)) || ++n > 100000) return false;
    }
    if (rounds) *rounds = n;
    return true;
}

// Sum of the xz-projected areas of the ground polygons of every tile of a Detour navmesh, m^2.
inline double detour_walkable_area(const dtNavMesh& nm) {
    double area = 0;
    for (int i = 0; i < nm.getMaxTiles(); ++i) {
        const dtMeshTile* tile = nm.getTile(i);
        if (!tile || !tile->header) continue;
        for (int p = 0; p < tile->header->polyCount; ++p) {
            const dtPoly& poly = tile->polys[p];
            if (poly.getType() != DT_POLYTYPE_GROUND) continue;
            double a2 = 0;
            for (int k = 0; k < poly.vertCount; ++k) {
                const float* va = &tile->verts[poly.verts[k] * 3];
                const float* vb = &tile->verts[poly.verts[(k + 1) % poly.vertCount] * 3];
                a2 += static_cast<double>(va[0]) * vb[2] - static_cast<double>(vb[0]) * va[2];
            }
            area += std::abs(a2) * 0.5;
        }
    }
    return area;
}

}  // namespace navdiff
