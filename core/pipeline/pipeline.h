// The Pipeline owns the input, the parameters and the result of every stage. Setting a parameter
// marks the earliest stage that reads it dirty; run() rebuilds only from the earliest dirty stage.
// Each run publishes an immutable snapshot (Bake) that another thread may draw while the next
// build runs; stage buffers are reused when no snapshot holds them any more.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <functional>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/bake/areas.h"
#include "core/bake/auto_links.h"
#include "core/common.h"
#include "core/bake/compact.h"
#include "core/bake/contours.h"
#include "core/bake/detail.h"
#include "core/bake/distance.h"
#include "core/bake/input.h"
#include "core/bake/obstacles.h"
#include "core/runtime/navmesh.h"
#include "core/pipeline/params.h"
#include "core/formats/params_json.h"  // the JSON config (parse_config_json, load_config_file)
#include "core/bake/polymesh.h"
#include "core/bake/rasterize.h"
#include "core/bake/regions.h"
#include "core/bake/stage.h"
#include "core/pipeline/tile_builder.h"
#include "core/pipeline/tiling.h"
#include "core/runtime/islands.h"

namespace nav {

struct StageCount {
    std::string_view name;
    int64_t value = 0;
};

struct StageStats {
    bool built = false;  // result present and up to date
    double ms = 0.0;     // wall time of the last build of this stage
    std::vector<StageCount> counts;
};

// The results of every stage for one grid (the solo bake's, or one tile's): the RESULT rows of
// NAV_STAGES (stage.h). Ptr is shared_ptr to const in a snapshot and to mutable in the pipeline's
// own state; ConstPtr results (a tile's runtime tile) are new objects every build, never reused.
// tri_areas: per triangle (solo / whole mesh only); compact: areas before erosion; eroded, areas:
// per compact span; region_trace: when recording was asked for; navmesh: the whole mesh's graph;
// tile: a tile's runtime tile (tiled bakes).
template <bool Const>
struct StageResults {
    template <class T>
    using Ptr = std::shared_ptr<std::conditional_t<Const, const T, T>>;
    template <class T>
    using ConstPtr = std::shared_ptr<const T>;
#define NAV_STAGE_RESULT_MEMBER(stage, ptr, Type, member) ptr<Type> member;
    NAV_STAGES(NAV_STAGE_SKIP, NAV_STAGE_RESULT_MEMBER)
#undef NAV_STAGE_RESULT_MEMBER
};

// Calls fn(stage, result...) for each stage result, the same field of every argument together
// (pipeline.cpp's stage table uses it to drop, publish and count them).
template <class F, class... R>
void for_each_result(F&& fn, R&... r) {
#define NAV_STAGE_RESULT_CALL(stage, ptr, Type, member) fn(Stage::stage, r.member...);
    NAV_STAGES(NAV_STAGE_SKIP, NAV_STAGE_RESULT_CALL)
#undef NAV_STAGE_RESULT_CALL
}

// One tile of a tiled bake as published: its grid position, its bordered configuration, its
// stage results (null where dropped: navbake keeps only polymesh, detail and the runtime tile)
// and its stats. `tile` is the same object as long as the tile is not re-baked, so the NavMesh
// keeps references into it valid.
struct TileBake : StageResults<true> {
    int tx = 0, tz = 0;
    BakeConfig config;  // bordered box, border_size = the tile border
    std::array<StageStats, kStageCount> stats;
    int built_through = -1;
    double ms = 0.0;  // wall time of this tile's last bake (all stages it ran)
    std::vector<std::string> warnings;  // its contour / polygon warnings ("tile x,z: ..."), kept when trimmed
    int64_t count(std::string_view name) const;
};

// One immutable bake snapshot. Pointers are null for stages not built. A solo bake (tile_size 0)
// fills the stage fields; a tiled bake fills `tiles` (tile order, x fastest; null for a tile not
// baked yet while a bake is still publishing), `navmesh` (assembled from every tile's NavTile by
// build_navmesh once all are baked) and leaves the other per-grid fields null.
struct Bake : StageResults<true> {
    uint64_t generation = 0;
    Params params;
    BakeConfig config;
    std::vector<ConvexVolume> volumes;
    std::vector<Obstacle> obstacles;
    std::vector<OffMeshLink> links;  // the manual off-mesh links (Pipeline::set_links)
    AreaFlagTable area_flags = default_area_flags();  // polygon flags per area id (Pipeline::set_areas)
    // The island prune (Pipeline::set_prune) as applied to `navmesh`: its point, whether `navmesh`
    // is pruned (then a copy of the unpruned navmesh, sharing its tiles, whose polygons off the
    // kept island carry kPolyFlagDisabled), the stats, the kept polygon, or why it is not applied.
    PruneOutcome prune;

    std::shared_ptr<const InputMesh> mesh;
    // The navmesh's automatic off-mesh links and the candidates rejected (core/bake/auto_links.h),
    // made by the navmesh step when link_drop_height or link_jump_distance is above 0; null
    // otherwise and whenever navmesh is. In the runtime navmesh after the manual links: navmesh link
    // index links.size() + i is auto_links->links[i].
    std::shared_ptr<const AutoLinks> auto_links;

    TileLayout layout;                                  // cols x rows; solo: 1 x 1, tile_size 0
    std::vector<std::shared_ptr<const TileBake>> tiles; // tiled bakes only
    std::vector<int> tiles_rebaked;  // tiles (index tx + tz * cols) the last run baked, ascending
    int tiles_done = 0;              // tiles with a current result (== tiles.size() when complete)
    bool partial = false;            // published while the bake was still running

    std::array<StageStats, kStageCount> stats;  // tiled: counts summed over tiles, ms summed
    int built_through = -1;        // index of the last stage with a current result, -1 none
    Status error;                  // the failure of the last run, if any
    int error_stage = -1;          // where it failed, -1 none
    int error_tile = -1;           // which tile failed (tiled bakes), -1 none
    std::vector<Stage> stages_run; // stages the last run() executed, in order

    bool tiled() const { return layout.tiled(); }
    // Releases the results of the stages after `stage` (-1: all) and lowers built_through to it.
    void drop_after(int stage);
    int64_t count(std::string_view name) const;  // looks through every stage's counts, 0 if absent
    double walkable_area() const;                // xz-projected area of all polygons, m^2 (0 before polymesh)
    std::vector<std::string> warnings() const;   // stage warnings (contours dropped, polygons not triangulated)
};

// A game's own job system for the tiled bake, as Box2D v3's enqueueTask / finishTask. The bake
// calls enqueue(task, ctx, count, user) once per run with count = the threads parameter (0: all
// cores): the job system runs task(ctx) `count` times, in parallel where it can (each call is a bake
// worker taking tiles from a shared queue until none is left), and returns a handle that the bake
// passes to wait(handle, user), which returns once every call has returned. A null handle means
// enqueue ran nothing: the bake then runs the task itself on the calling thread and calls no wait.
// The task never throws into the job system. Unset (enqueue or wait null): oneTBB. The result is
// byte-identical either way.
struct TaskHook {
    void* (*enqueue)(void (*task)(void* ctx), void* ctx, int count, void* user) = nullptr;
    void (*wait)(void* handle, void* user) = nullptr;
    void* user = nullptr;
    bool set() const { return enqueue != nullptr && wait != nullptr; }
};

// Lowers the calling thread's scheduling priority (Linux: nice 10 for this thread only; elsewhere
// nothing). For threads that bake behind an interactive one.
void lower_thread_priority();

// One tile of a tiled bake seen as a solo bake: the tile's stage results on its bordered grid
// (config = the tile's), with the whole bake's mesh and parameters. What draws, picks or inspects
// one grid's results works on a tile through it.
Bake tile_view(const Bake& b, const TileBake& t);

// What a trimmed tiled bake (set_keep_intermediates(false)) keeps per tile for the obstacles
// (set_obstacles, set_volumes and the areas-stage parameters): None, nothing, and a touched tile
// re-bakes from rasterize; Compressed, the tile's compact heightfield and eroded areas as they stand
// before the areas stage, LZ4-compressed (core/pipeline/chf_cache.h), made when the tile's erode stage
// runs, and a touched tile unpacks it and re-bakes from the areas stage (the same result byte for
// byte). A bake that keeps its intermediates needs none (its tiles keep them uncompressed).
enum class ObstacleCache : uint8_t { None, Compressed };

class Pipeline {
public:
    Pipeline();
    ~Pipeline();
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

    Status load_mesh(const std::string& path);  // keeps the previous mesh on failure
    Status set_mesh(InputMesh mesh);            // validates; keeps the previous mesh on failure
    bool has_mesh() const;

    Status set_param(ParamId id, double value);
    Status set_param(std::string_view name, std::string_view value);
    void set_params(const Params& p);  // dirties only what changed
    const Params& params() const { return params_; }
    void set_volumes(std::vector<ConvexVolume> volumes);
    // The area types (default AreaTable::defaults()): their flags become the polygons' flags when
    // the tiles are made. A change of some area's flags re-runs only the navmesh step (every tile's);
    // names, colours and costs change no bake result.
    void set_areas(AreaTable areas);
    const AreaTable& areas() const { return areas_; }
    // Record how the regions stage grew its regions (Bake::region_trace); changing it re-runs regions.
    void set_record_region_trace(bool on);
    bool record_region_trace() const { return record_trace_; }
    const std::vector<ConvexVolume>& volumes() const { return volumes_; }
    // Temporary obstacles (obstacles.h), stamped after the volumes in the areas stage. Tiled: only
    // the tiles whose bordered box meets an obstacle that was added, removed or moved (its old or
    // new place, grown by the agent radius) re-run, from the areas stage when the tile kept its
    // intermediates (the debugger) or its obstacle cache (set_obstacle_cache), and from rasterize
    // when it did neither (navbake); the navmesh keeps
    // every other tile (and its salt). Solo: the areas stage onward re-runs. Validate first
    // (validate_obstacle): an invalid obstacle marks nothing.
    void set_obstacles(std::vector<Obstacle> obstacles);
    const std::vector<Obstacle>& obstacles() const { return obstacles_; }
    // Manual off-mesh links (the runtime's OffMeshLink), in the navmesh before the automatic ones:
    // navmesh link i is links[i]. A change re-bakes no tile: the next run() only relinks the
    // navmesh (relink_navmesh on a copy that shares every tile; solo and tiled alike, salts and
    // tile objects kept), unless something else made the navmesh step re-run anyway. BadInput
    // naming the link ("links[2]: start is not finite", check_offmesh_link) keeps the old links.
    Status set_links(std::vector<OffMeshLink> links);
    const std::vector<OffMeshLink>& links() const { return links_; }
    // The island prune: keep only the navmesh island of the polygon nearest `point` (within
    // kPickHalfExtents, whatever its flags), every other polygon flagged kPolyFlagDisabled in the
    // navmesh published (prune_at on the unpruned navmesh, which the pipeline keeps: a new point
    // prunes from the unpruned flags, nullopt publishes them as they are). Applied after the links,
    // solo and tiled; Bake::prune says how. A change re-bakes no tile and relinks nothing: the next
    // run() only prunes again (tile objects and salts kept). BadInput for a point not finite or
    // beyond +-1e6 m keeps the old point.
    Status set_prune(std::optional<std::array<float, 3>> point);
    const std::optional<std::array<float, 3>>& prune() const { return prune_; }

    // Tiled bakes: run() publishes the navmesh before the landmarks of its A* heuristic (the
    // islands touching a re-baked tile are left pending: their searches use the straight-line
    // bound, so paths stay optimal) and complete_landmarks() computes them (the debugger's worker
    // calls it after handing the bake to the view). Off (default): run() computes them.
    void set_defer_landmarks(bool on) { defer_landmarks_ = on; }
    // Computes the pending landmarks of the latest snapshot's navmesh (every copy sharing its
    // graph sees them from its next query on). False when `cancel` stopped it first.
    bool complete_landmarks(const CancelFlag* cancel = nullptr);

    // Grids whose estimated memory exceeds this are refused before allocating (default 4 GiB).
    void set_memory_limit(uint64_t bytes) { memory_limit_ = bytes; }
    uint64_t memory_limit() const { return memory_limit_; }
    // Estimated bytes a bake with the current mesh and parameters needs: a tiled bake's is
    // estimate_tiled_memory (0 when its tile grid is refused).
    uint64_t estimate_memory() const;

    // The earliest stage that must be rebuilt, or Stage::Count when every stage is current.
    Stage first_dirty() const;
    void mark_dirty(Stage from);
    // Tiled bakes: marks tile (tx, tz) dirty from `from` (at least rasterize), so the next run()
    // re-bakes that tile only (the debugger's "Rebuild tile"). False when no such tile is laid out.
    bool mark_tile_dirty(int tx, int tz, Stage from = Stage::Rasterize);

    // Builds from the earliest dirty stage through `to`. On failure or cancel the stages before
    // the failing one keep their results; the snapshot records the error and the failing stage.
    Status run(Stage to = kLastStage, const CancelFlag* cancel = nullptr);
    // Optional progress report: run() stores the index of each stage as it starts it, so another
    // thread (the debugger's timeline) can show which stage is building. Null: none.
    void set_progress(std::atomic<int>* stage) { progress_ = stage; }
    // Tiled bakes: tiles are baked nearest (x, z) first (the camera's focus).
    void set_focus(float x, float z) { focus_[0] = x; focus_[1] = z; }
    // Tiled bakes: called (from a bake thread, one call at a time, outside the snapshot lock, so it
    // may build draw lists while other tiles bake) each time a tile finishes, with a snapshot
    // holding the tiles done so far (Bake::partial set; the input stage's results and stats, no
    // navmesh). Null: none.
    void set_on_tile(std::function<void(std::shared_ptr<const Bake>)> fn) { on_tile_ = std::move(fn); }
    // Keep every intermediate result (the default: the debugger draws them). Off (navbake): a tile
    // keeps only its polymesh and detail once done, so the peak is about threads x one tile; the
    // solo bake drops each intermediate as soon as the last stage that reads it has run (the
    // filter works in the rasterized heightfield instead of a copy), keeping the triangle areas,
    // the contours (they hold the warnings), the polygon and detail meshes and the navmesh. A
    // trimmed bake rebuilds from rasterize whatever changed before the navmesh (a tiled one with
    // the obstacle cache on: from the areas stage what changed there or later), and a rebuild
    // allocates the dropped buffers again: keep them for repeated bakes (live rebuilds, --reps).
    void set_keep_intermediates(bool on) { keep_intermediates_ = on; }
    // Trimmed tiled bakes: the per-tile obstacle cache (ObstacleCache above; default None: packing
    // costs 5 to 18% of the tiles' stage time and memory of a quarter to a tenth of the compact
    // heightfields (README), worth it only where obstacles or volumes change after the bake). Off drops every tile's cache at the next run; on makes each tile's at its next
    // erode. The erode stage counts obstacle_cache_bytes and obstacle_cache_raw_bytes (its size
    // compressed and not). A cache that does not unpack (corrupt memory) makes the tile re-bake
    // from rasterize instead, counted as obstacle_cache_fallbacks in the rasterize stage.
    void set_obstacle_cache(ObstacleCache c) { obstacle_cache_ = c; }
    ObstacleCache obstacle_cache() const { return obstacle_cache_; }
    // Test hook: flips the bits of byte `offset` of tile (tx, tz)'s cache; false when it has none
    // or is shorter.
    bool corrupt_obstacle_cache_for_test(int tx, int tz, size_t offset);
    // Bake threads at background priority (Linux: nice 10, per thread): an interactive caller (the
    // debugger) keeps its UI and renderer threads ahead of a bake on a machine with few cores. The
    // calling thread of run() is not changed (lower_thread_priority).
    void set_background_threads(bool on) { background_threads_ = on; }
    // Tiled bakes: bake only tile (tx, tz) (navbake --tile); the others stay unbaked. -1: all.
    void set_only_tile(int tx, int tz) { set_only_tiles(tx, tz, tx, tz); }
    // Tiled bakes: bake only the tiles with x0 <= tx <= x1 and z0 <= tz <= z1 (navbake --tiles, one
    // job of a split bake); the others stay unbaked. A tile bakes the same whichever others do
    // (each reads only its own bordered box of the mesh). All -1: every tile.
    void set_only_tiles(int x0, int z0, int x1, int z1) {
        only_tiles_[0] = x0, only_tiles_[1] = z0, only_tiles_[2] = x1, only_tiles_[3] = z1;
    }
    // Tiled bakes: run the bake workers on the caller's job system (TaskHook) instead of oneTBB.
    // Background priority (set_background_threads) is not applied to the job system's threads.
    void set_task_hook(const TaskHook& hook) { task_hook_ = hook; }
    const TaskHook& task_hook() const { return task_hook_; }

    // The latest published snapshot (never null once constructed).
    std::shared_ptr<const Bake> snapshot() const;

private:
    void refresh_mesh();  // the stages' mesh from the loaded one and the mesh_* parameters
    // The tiled part of run(): lays out the tiles and bakes the dirty ones in parallel.
    Status run_tiles(Stage to, const CancelFlag* cancel, int& error_stage, int& error_tile);
    // The tiled navmesh from every tile's NavTile (previous slots and salts carried over).
    Status assemble_navmesh(int& error_stage);
    struct Impl;
    std::unique_ptr<Impl> impl_;
    Params params_;
    std::vector<ConvexVolume> volumes_;
    std::vector<Obstacle> obstacles_;
    std::vector<OffMeshLink> links_;
    bool links_changed_ = false;  // set_links since the navmesh last took them
    bool defer_landmarks_ = false;
    // Relinks the current navmesh with links_ (and the automatic links) when links_changed_.
    void relink_current();
    std::optional<std::array<float, 3>> prune_;
    bool prune_changed_ = false;  // set_prune since the navmesh was last pruned
    // Replaces b.navmesh (the unpruned navmesh) by the one pruned at prune_ and fills b.prune; the
    // prune is redone only when the point or the unpruned navmesh changed.
    void publish_prune(Bake& b);
    // Tiled: marks the tiles whose bordered box overlaps one of the xz boxes dirty from the areas stage.
    void dirty_tiles_in(const std::vector<std::array<float, 4>>& boxes);
    AreaTable areas_ = AreaTable::defaults();
    AreaFlagTable area_flags_ = AreaTable::defaults().flag_table();
    uint64_t memory_limit_ = uint64_t(4) << 30;
    bool record_trace_ = false;
    std::atomic<int>* progress_ = nullptr;
    float focus_[2] = {0, 0};
    bool background_threads_ = false;
    std::function<void(std::shared_ptr<const Bake>)> on_tile_;
    std::mutex on_tile_mutex_;  // one on_tile_ call at a time
    bool keep_intermediates_ = true;
    ObstacleCache obstacle_cache_ = ObstacleCache::None;
    int only_tiles_[4] = {-1, -1, -1, -1};  // x0, z0, x1, z1
    TaskHook task_hook_;
};

// The failure for std::bad_alloc at `where` (a stage name): bad input, with what to change. Out
// of memory is exit 2 by the contract: what the bake needs follows from what the user gave.
// A tiled bake's (tiled) names what a tiled bake can change instead of telling it to bake in tiles.
Status out_of_memory(const std::string& where, bool tiled = false);
// Estimated bytes a bake of mesh m with config c needs (Pipeline::estimate_memory, the memory limit);
// lean: intermediates not kept (set_keep_intermediates(false), navbake's single bake).
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
// The mesh fix the mesh_* parameters ask for.
MeshFix mesh_fix(const Params& p);

}  // namespace nav
