// The pipeline's internals, shared by its sources (pipeline.cpp: the public methods, the inputs and
// the snapshot; pipeline_stages.cpp: one function per stage; tile_run.cpp: the tiled bake;
// lean_drop.cpp: what a trimmed solo bake drops; memory_estimate.cpp; task_schedule.cpp). Not part
// of the library's interface.
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/pipeline/pipeline.h"

namespace nav {

using clock_type = std::chrono::steady_clock;

// The buffer a stage writes this run. Reused when no published snapshot holds it any more; when one
// does (a viewer draws the last bake while the next one runs), the spare is taken if no snapshot
// holds it any more, else a fresh one is made, and the held buffer becomes the spare: the old one
// lives on, unchanged, inside the snapshot, and comes back to the pipeline once that lets it go. A
// live rebuild then alternates between two buffers instead of freeing one and faulting in another
// every run. use_count() is a relaxed
// load, so reading 1 alone does not order our writes after the last other holder's reads of the
// buffer: that holder's release of its reference is a release RMW on the count, and the acquire
// fence after our load of the value it wrote makes its reads happen before our writes.
// ThreadSanitizer does not model fences (GCC warns and ignores them), so under it the same edge
// comes from copying the pointer: libstdc++'s count increment is an acq_rel RMW, which reads the
// holder's release.
template <class T>
bool sole_owner(const std::shared_ptr<T>& p) {
    if (!p || p.use_count() > 1) return false;
#if defined(__SANITIZE_THREAD__)
    { const std::shared_ptr<T> sync = p; }
#else
    std::atomic_thread_fence(std::memory_order_acquire);
#endif
    return true;
}

template <class T>
T& writable(std::shared_ptr<T>& p, std::shared_ptr<T>& spare) {
    if (sole_owner(p)) return *p;
    std::shared_ptr<T> held = std::move(p);
    if (sole_owner(spare)) p = std::move(spare);
    else p = std::make_shared<T>();
    if (held) spare = std::move(held);
    return *p;
}

inline int64_t count_if_not_null(const std::vector<uint8_t>& areas) {
    int64_t n = 0;
    for (uint8_t a : areas) n += a != kNullArea;
    return n;
}

// The warnings of one grid's contour and polygon stages, each prefixed with `where`.
template <bool C>
std::vector<std::string> stage_warnings(const StageResults<C>& r, const std::string& where) {
    std::vector<std::string> w;
    if (r.contours)
        for (int reg : r.contours->warnings)
            w.push_back(where + "contours: region " + std::to_string(reg) +
                        " has a contour that was dropped or a hole that could not be merged");
    if (r.polymesh)
        for (const std::string& s : r.polymesh->warnings) w.push_back(where + s);  // already say "polymesh: ..."
    return w;
}


template <class Dst, class Src>
void copy_results(Dst& dst, const Src& src, bool with_trace) {
    for_each_result([](Stage, Stage, auto& d, auto& s) { d = s; }, dst, src);
    if (!with_trace) dst.region_trace.reset();
}

template <class R>
void drop_results_after(R& r, int stage) {
    for_each_result([stage](Stage s, Stage, auto& p) { if (static_cast<int>(s) > stage) p.reset(); }, r);
}


// Working memory of the stages that is no result: kept between bakes so a rebuild reuses it
// instead of allocating and faulting it in again. The solo bake has one; a tiled bake
// one per bake thread, taken by a thread for all the tiles it bakes in a run (Pipeline::Impl's
// pool). Passed to the stages as an explicit argument, not a thread_local: the pipeline decides
// who owns it and how long it lives, and a stage called from elsewhere (tests, navdiff) works
// without one.
struct BakeScratch {
    std::vector<int> tile_tris;        // a tile's triangles as a small indexed list (rasterize)
    std::vector<uint8_t> tile_areas;   // and their areas
    std::vector<uint8_t> erode;        // erode_walkable_area's distances (and mark_clearance's)
    SpanPool span_pool;                // a tile's rasterize pool (run_rasterize)
    RegionScratch regions;             // the watershed's
    std::vector<uint32_t> clearance;   // make_clearance_keys's
    std::vector<uint8_t> cache_raw, cache_packed;  // the obstacle cache's packing (chf_cache.h)
};

// One grid's working state: the solo bake's, or one tile's.
struct Unit : StageResults<false> {
    int tx = 0, tz = 0;
    BakeConfig config;
    std::array<StageStats, kStageCount> stats;
    bool stats_changed = true;  // tiles: stats changed since the tile's block last summed them (StatsBlocks)
    int dirty_from = 0;         // first stage without a current result
    bool trimmed = false;       // intermediates dropped (lean bake): a rebake starts at rasterize
    bool ran = false;           // baked something in the current run
    int ran_from = 0;           // the first stage it baked then
    int error_stage = -1;
    Status error;
    double ms = 0.0;
    BakeScratch* scratch = nullptr;  // the working memory of whoever bakes it now (never null then)
    // Buffers a held snapshot had when the stage last ran (see writable): reused once it lets go.
    StageResults<false> spare;
    std::vector<std::string> warnings;          // tiles: the stage warnings of its last bake
    std::shared_ptr<const TileBake> published;  // the tile as last published, while unchanged
    // Solo bakes: the automatic links of the navmesh (null when both link parameters are 0), and
    // the buffer a held snapshot had (see writable).
    std::shared_ptr<AutoLinks> auto_links, auto_links_spare;
    // Trimmed tiles with the obstacle cache on: the compact heightfield and eroded areas as the
    // erode stage left them, compressed (chf_cache.h); empty when none.
    std::vector<uint8_t> chf_cache;
};

struct Ctx {
    const InputMesh& m;
    const Params& params;
    const std::vector<ConvexVolume>& volumes;
    const std::vector<Obstacle>& obstacles;
    const std::vector<OffMeshLink>& links;  // the manual off-mesh links
    const std::vector<AgentType>& agent_types;  // BakeInputs::agent_types
    const AreaFlagTable& area_flags;  // polygon flags per area id (BakeInputs::areas)
    const Unit& solo;                // holds tri_areas
    const TriangleBins* bins;        // tiled bakes: triangles per tile
    bool tiled;
    bool record_trace;
    uint64_t memory_limit;
    const CancelFlag* cancel;
    bool lean = false;  // solo, intermediates not kept: a stage may take the buffer of a result it is the last to read
    bool obstacle_cache = false;  // tiles: the erode stage packs the tile's obstacle cache (ObstacleCache::Compressed)
};

// The first and the last stage a tiled bake builds per tile.
constexpr int kFirstTileStage = static_cast<int>(Stage::Rasterize);
constexpr int kLastTileStage = static_cast<int>(Stage::Navmesh);
constexpr int kStageRasterize = static_cast<int>(Stage::Rasterize);

// ---- pipeline_stages.cpp -------------------------------------------------------------------------

// Runs one stage of one grid, turning an exception (out of memory, anything) into a failure.
Status run_one(Stage s, Unit& u, const Ctx& x);
// Links `manual` (BakeInputs::links) and then the automatic links (`autos`, may be null) into
// nm's graph (relink_navmesh: no tile changes), with the count "manual_links" when there are any.
Status link_all(NavMesh& nm, const std::vector<OffMeshLink>& manual, const AutoLinks* autos, std::vector<StageCount>& counts);
// The off-mesh links of a finished navmesh (solo: the navmesh stage; tiled: the assembly): the
// automatic ones generated into `links` (null when link_drop_height and link_jump_distance are
// both 0), with the counts "auto_links" and "links_rejected" appended to the navmesh step's, then
// the manual ones and the automatic ones linked into its graph (link_all: no tile changes, A* may
// take them).
Status make_auto_links(NavMesh& nm, const InputMesh& level, const Params& params, const std::vector<OffMeshLink>& manual,
                       std::shared_ptr<AutoLinks>& links, std::shared_ptr<AutoLinks>& spare, std::vector<StageCount>& counts,
                       const CancelFlag* cancel);

// ---- lean_drop.cpp -------------------------------------------------------------------------------

// Drops the results (and their spares) whose last reader is stage `ran`, and marks the unit trimmed.
void drop_consumed(Unit& u, int ran);
// The first stage the next solo run builds: a trimmed unit lost the intermediates every stage
// before the navmesh reads, so a change at any of them re-bakes it from rasterize.
int solo_start(const Unit& u);

// ---- memory_estimate.cpp -------------------------------------------------------------------------

// The solo grid a bake may allocate: the one grid every stage must honour (nav::check_grid: its
// sides are polygon-vertex coordinates), then the memory estimate. (A tiled bake's whole grid:
// check_tile_grid, tiling.h.)
Status check_solo_grid(const BakeConfig& c, const Params& params, uint64_t need, uint64_t limit);
// What every tile of layout L holds, whatever it contains, against the limit: checked before any
// per-tile state (the tiles' working state, the triangle bins) is allocated.
Status check_tile_overhead(const InputMesh& m, const BakeConfig& c, const TileLayout& L, const Params& params,
                           uint64_t memory_limit);
// The memory a tiled bake of the layout needs against the limit (the tiles' memory from the
// triangles each one gets); builds the triangle bins when they are not current.
Status check_tiled_grid(const InputMesh& m, const BakeConfig& c, const TileLayout& L, const Params& params,
                        uint64_t memory_limit, int threads, bool keep_intermediates, bool obstacle_cache,
                        TriangleBins& bins, bool& bins_current);

// ---- task_schedule.cpp ---------------------------------------------------------------------------

// Runs `threads` copies of worker at once: on the hook's job system when it is set, else on a
// oneTBB arena of that many threads (plain threads under ThreadSanitizer). The first exception a
// copy throws is rethrown here once all have returned.
void run_workers(const TaskHook& hook, int threads, const std::function<void()>& worker);

// ---- tile_run.cpp --------------------------------------------------------------------------------

// A tile's results as published (a TileBake sharing its buffers).
std::shared_ptr<const TileBake> publish_tile(const Unit& t, bool with_trace);

// Per-stage stats of a tiled bake: built when every tile is, counts summed, ms summed. Summed per
// block of kTiles tiles, and a block again only when the stats of one of its tiles changed
// (Unit::stats_changed): a run that re-bakes a few tiles of thousands (an obstacle) reads their
// blocks and the block sums, not every tile's stats (a cache miss each: 5 ms on 4 761 tiles).
// The counts' order is that of their first appearance in tile order either way.
struct StatsBlocks {
    static constexpr size_t kTiles = 64;
    std::vector<std::array<StageStats, kStageCount>> blocks;

    void aggregate(const std::vector<std::unique_ptr<Unit>>& tiles, const BakeConfig& c, const TileLayout& L,
                   std::array<StageStats, kStageCount>& out);
};

// Every piece of a Pipeline's state: its options, its inputs, the loaded mesh and every grid's
// working state, and the snapshot last published. The Pipeline's methods are its public face.
struct Pipeline::Impl {
    PipelineDef def;
    BakeInputs in;
    AreaFlagTable area_flags = AreaTable::defaults().flag_table();  // in.areas's, compared on set_inputs
    bool links_changed = false;  // in.links changed since the navmesh last took them
    bool prune_changed = false;  // in.prune changed since the navmesh was last pruned
    float focus[2] = {0, 0};     // Pipeline::set_focus
    std::mutex on_tile_mutex;    // one def.on_tile call at a time

    std::shared_ptr<const InputMesh> source;  // as loaded
    std::shared_ptr<const InputMesh> mesh;    // what the stages read: source with the mesh_* fixes
    Unit solo;                                // the solo bake, and tri_areas for every bake
    BakeScratch solo_scratch;                 // the solo bake's working memory
    // The bake threads' working memory, one per thread that baked tiles at once, kept across runs.
    std::vector<std::unique_ptr<BakeScratch>> tile_scratch;
    std::mutex tile_scratch_mutex;
    std::vector<std::unique_ptr<Unit>> tiles; // tiled bakes, tile order
    StatsBlocks stats_blocks;                 // their stats summed per block
    TileLayout layout;                        // of `tiles`
    BakeConfig tiles_config;                  // the whole-grid config `tiles` were laid out for
    TriangleBins bins;
    bool bins_current = false;
    std::shared_ptr<const NavMesh> tiled_navmesh;  // assembled from the tiles (previous for the next)
    // The one assembled before it: its buffers are reused by the next assembly once no snapshot
    // holds it (a large level's navmesh is tens of MB, else freed and faulted in on every edit).
    std::shared_ptr<const NavMesh> navmesh_spare;
    StageStats assembly;                           // the last assembly's time and counts
    std::shared_ptr<AutoLinks> tiled_links, tiled_links_spare;  // the assembled navmesh's automatic links
    // The prune last published (publish_prune): the unpruned navmesh it was made from (stale: that
    // navmesh was rebuilt or relinked since), the pruned copy (null when not applied), the outcome.
    std::weak_ptr<const NavMesh> prune_src;
    bool prune_stale = true;
    std::shared_ptr<const NavMesh> pruned;
    PruneOutcome prune;

    BakeConfig config;
    std::vector<Stage> stages_run;
    std::vector<int> rebaked;
    uint64_t generation = 0;
    std::mutex snap_mutex;  // guards snap and every Unit::published while tiles bake
    std::shared_ptr<const Bake> snap;

    // pipeline.cpp
    void refresh_mesh();  // the stages' mesh from the loaded one and the mesh_* parameters
    void set_params(const Params& p);  // dirties only what changed (set_inputs)
    void mark_dirty(Stage from);
    // Tiled: marks the tiles whose bordered box overlaps one of the xz boxes dirty from the areas stage.
    void dirty_tiles_in(const std::vector<std::array<float, 4>>& boxes);
    // Relinks the current navmesh with in.links (and the automatic links) when links_changed.
    void relink_current();
    // Replaces b.navmesh (the unpruned navmesh) by the one pruned at in.prune and fills b.prune; the
    // prune is redone only when the point or the unpruned navmesh changed.
    void publish_prune(Bake& b);
    // The tiled navmesh from every tile's NavTile (previous slots and salts carried over).
    Status assemble_navmesh(int& error_stage);

    // tile_run.cpp: the tiled part of run(): lays out the tiles and bakes the dirty ones in parallel.
    Status run_tiles(Stage to, const CancelFlag* cancel, int& error_stage, int& error_tile);
    // Its steps. The tile layout for config c checked against the memory limit and laid out (the
    // tiles kept when the grid is the same), the triangle bins when something re-bakes from rasterize,
    // the only_tiles rectangle checked against it.
    Status prepare_tiles(const BakeConfig& c, int threads, bool cache_on, TileLayout& L, int& error_stage);
    void lay_out_tiles(const BakeConfig& c, const TileLayout& L, bool cache_on, int& first);
    std::vector<int> bake_order(const BakeConfig& c, const TileLayout& L, int last, bool only_some, const int* only,
                                const float* focus) const;
    // Bakes tile t through stage `last` (run on a bake thread), then publishes it and, when
    // def.on_tile is set, a partial snapshot to it.
    void bake_tile(Unit& t, const Ctx& ctx, int last, const TileLayout& L);
    // A trimmed tile re-baking from the areas stage: its compact heightfield and eroded areas from
    // the obstacle cache; false (and the tile dirty from rasterize) when the cache does not unpack.
    bool unpack_obstacle_cache(Unit& t);
    // The snapshot def.on_tile gets while the tiles bake (call under snap_mutex).
    std::shared_ptr<Bake> partial_snapshot(const BakeConfig& c, const TileLayout& L) const;
    // Bakes the tiles of `order` on `threads` bake threads (or the task hook's job system).
    Status bake_tiles(const std::vector<int>& order, const Ctx& ctx, int last, const TileLayout& L, int threads,
                      int& error_stage);
    Status collect_tile_results(int last, int& error_stage, int& error_tile);
};


}  // namespace nav
