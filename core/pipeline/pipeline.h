// The Pipeline owns the input, the parameters and the result of every stage. Changing an input
// (set_inputs) marks the earliest stage that reads it dirty; run() rebuilds only from the earliest
// dirty stage.
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
#include "core/bake/clearance.h"
#include "core/common.h"
#include "core/bake/compact.h"
#include "core/bake/contours.h"
#include "core/bake/detail.h"
#include "core/bake/distance.h"
#include "core/bake/input.h"
#include "core/bake/obstacles.h"
#include "core/runtime/navmesh.h"
#include "core/pipeline/bake_inputs.h"
#include "core/pipeline/memory_estimate.h"
#include "core/pipeline/params.h"
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
// per compact span; clearance: the agent types per span and the split keys (null without a list of
// at least two agent types); region_trace: when recording was asked for; navmesh: the whole mesh's graph;
// tile: a tile's runtime tile (tiled bakes).
template <bool Const>
struct StageResults {
    template <class T>
    using Ptr = std::shared_ptr<std::conditional_t<Const, const T, T>>;
    template <class T>
    using ConstPtr = std::shared_ptr<const T>;
#define NAV_STAGE_RESULT_MEMBER(stage, ptr, Type, member, last) ptr<Type> member;
    NAV_STAGES(NAV_STAGE_SKIP, NAV_STAGE_RESULT_MEMBER)
#undef NAV_STAGE_RESULT_MEMBER
};

// Calls fn(stage, last_reader, result...) for each stage result (its RESULT row in NAV_STAGES), the
// same field of every argument together: the pipeline uses it to drop, publish and count them.
// last_reader is the row's last column (Stage::Count: never dropped).
template <class F, class... R>
void for_each_result(F&& fn, R&... r) {
#define NAV_STAGE_RESULT_CALL(stage, ptr, Type, member, last) fn(Stage::stage, Stage::last, r.member...);
    NAV_STAGES(NAV_STAGE_SKIP, NAV_STAGE_RESULT_CALL)
#undef NAV_STAGE_RESULT_CALL
}

// One tile of a tiled bake as published: its grid position, its bordered configuration, its
// stage results (null where dropped: a lean bake keeps only polymesh, detail and the runtime tile)
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
    BakeInputs inputs;  // what it was baked from (Pipeline::set_inputs)
    BakeConfig config;
    AreaFlagTable area_flags = default_area_flags();  // polygon flags per area id: inputs.areas's flag table
    // The island prune (BakeInputs::prune) as applied to `navmesh`: its point, whether `navmesh`
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

// What a trimmed tiled bake (PipelineDef::keep_intermediates off) keeps per tile for the obstacles
// (BakeInputs::obstacles, volumes and the areas-stage parameters): None, nothing, and a touched tile
// re-bakes from rasterize; Compressed, the tile's compact heightfield and eroded areas as they stand
// before the areas stage, LZ4-compressed (core/pipeline/chf_cache.h), made when the tile's erode stage
// runs, and a touched tile unpacks it and re-bakes from the areas stage (the same result byte for
// byte). A bake that keeps its intermediates needs none (its tiles keep them uncompressed).
enum class ObstacleCache : uint8_t { None, Compressed };

// The options of a Pipeline (Box2D v3's b2WorldDef): how it bakes, not what. Given once, to the
// constructor; default_pipeline_def() keeps every intermediate (for a caller that draws them), oneTBB, 4 GiB.
struct PipelineDef {
    // Grids whose estimated memory exceeds this are refused before allocating.
    uint64_t memory_limit = uint64_t(4) << 30;
    // Keep every intermediate result (for a caller that draws them). Off (a lean bake): a tile keeps only its
    // polymesh and detail once done, so the peak is about threads x one tile; the solo bake drops
    // each intermediate as soon as the last stage that reads it has run (the filter works in the
    // rasterized heightfield instead of a copy), keeping the triangle areas, the contours (they hold
    // the warnings), the polygon and detail meshes and the navmesh. A trimmed bake rebuilds from
    // rasterize whatever changed before the navmesh (a tiled one with the obstacle cache on: from
    // the areas stage what changed there or later), and a rebuild allocates the dropped buffers
    // again: keep them for repeated bakes (live rebuilds, --reps).
    bool keep_intermediates = true;
    // Trimmed tiled bakes: the per-tile obstacle cache (ObstacleCache above; packing costs 5 to 18%
    // of the tiles' stage time and memory of a quarter to a tenth of the compact heightfields, worth
    // it only where obstacles or volumes change after the bake): each tile's is made at its erode.
    // The erode stage counts obstacle_cache_bytes and obstacle_cache_raw_bytes (its size compressed
    // and not). A cache that does not unpack (corrupt memory) makes the tile re-bake from rasterize
    // instead, counted as obstacle_cache_fallbacks in the rasterize stage.
    ObstacleCache obstacle_cache = ObstacleCache::None;
    // Tiled bakes: run() publishes the navmesh before the landmarks of its A* heuristic (the islands
    // touching a re-baked tile are left pending: their searches use the straight-line bound, so
    // paths stay optimal) and complete_landmarks() computes them. Off: run() computes them.
    bool defer_landmarks = false;
    // Bake threads at background priority (Linux: nice 10, per thread): an interactive caller keeps
    // its UI and renderer threads ahead of a bake on a machine with few cores. The calling thread of
    // run() is not changed (lower_thread_priority), nor the threads of a task hook's job system.
    bool background_threads = false;
    // Tiled bakes: bake only the tiles with x0 <= tx <= x1 and z0 <= tz <= z1 (one job of a split
    // bake; x0 = x1, z0 = z1: one tile); the others stay unbaked. A tile bakes the same whichever
    // others do (each reads only its own bordered box of the mesh). All -1: every tile.
    std::array<int, 4> only_tiles{-1, -1, -1, -1};  // x0, z0, x1, z1
    // Tiled bakes: run the bake workers on the caller's job system instead of oneTBB.
    TaskHook task_hook;
    // Record how the regions stage grew its regions (Bake::region_trace). The one option a caller may
    // change between runs (Pipeline::set_record_region_trace: a replay view turns it on and off on
    // a live pipeline, and a change re-runs the regions stage).
    bool record_region_trace = false;
    // Progress report: run() stores the index of each stage as it starts it, so another thread can
    // show which stage is building. Null: none.
    std::atomic<int>* progress = nullptr;
    // Tiled bakes: called (from a bake thread, one call at a time, outside the snapshot lock, so it
    // may build draw lists while other tiles bake) each time a tile finishes, with a snapshot
    // holding the tiles done so far (Bake::partial set; the input stage's results and stats, no
    // navmesh). Null: none.
    std::function<void(std::shared_ptr<const Bake>)> on_tile;
};

// Every option at its default: intermediates kept, no obstacle cache, oneTBB, 4 GiB, no trace.
PipelineDef default_pipeline_def();

class Pipeline {
public:
    explicit Pipeline(PipelineDef def = default_pipeline_def());
    ~Pipeline();
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

    const PipelineDef& def() const;

    Status load_mesh(const std::string& path);  // keeps the previous mesh on failure
    Status set_mesh(InputMesh mesh);            // validates; keeps the previous mesh on failure
    bool has_mesh() const;

    // The inputs of the next run. Diffs them field by field against the current ones and dirties
    // only what changed, from the earliest stage that reads it:
    //  - params: each changed parameter from its stage (ParamDef::stage); a change that leaves
    //    every derived voxel value equal (agent_radius 0.6 -> 0.5 m at 0.3 m cells) dirties nothing;
    //  - volumes, obstacles: the areas stage onward. Tiled: only the tiles whose bordered box meets
    //    a volume or obstacle that was added, removed or moved (its old and its new place, grown by
    //    the agent radius) re-run, from the areas stage when the tile kept its intermediates or its
    //    obstacle cache (PipelineDef), from rasterize when it did neither; the navmesh keeps every
    //    other tile (and its salt);
    //  - areas: a change of some area's flags re-runs only the navmesh step (every tile's); names,
    //    colours and costs change no bake result;
    //  - links: no tile re-bakes: the next run() only relinks the navmesh (a copy sharing every tile;
    //    salts and tile objects kept), unless something else made the navmesh step re-run anyway;
    //  - prune: keep only the navmesh island of the polygon nearest the point (within
    //    kPickHalfExtents, whatever its flags), every other polygon flagged kPolyFlagDisabled in the
    //    navmesh published (prune_at on the unpruned navmesh, which the pipeline keeps). Applied
    //    after the links; Bake::prune says how. A change only prunes again (tile objects and salts
    //    kept).
    // BadInput, and nothing changes, for a link that check_offmesh_link refuses ("links[2]: start is
    // not finite") or a prune point not finite or beyond +-1e6 m. Obstacles are validated by the
    // caller (validate_obstacle).
    Status set_inputs(const BakeInputs& in);
    const BakeInputs& inputs() const;
    // One input changed, the others as they are: set_input(&BakeInputs::obstacles, obs).
    template <class T>
    Status set_input(T BakeInputs::*field, std::type_identity_t<T> value) {
        BakeInputs in = inputs();
        in.*field = std::move(value);
        return set_inputs(in);
    }
    // One parameter, validated (Params::set, Params::set_from_string), the other inputs as they are.
    Status set_param(ParamId id, double value);
    Status set_param(std::string_view name, std::string_view value);
    const Params& params() const { return inputs().params; }

    // PipelineDef::record_region_trace, changed between runs (a replay view); a change
    // re-runs the regions stage.
    void set_record_region_trace(bool on);
    // Tiled bakes: tiles are baked nearest (x, z) first. May change between runs (a viewer passes
    // its camera focus): the one set when the run starts counts.
    void set_focus(float x, float z);

    // Computes the pending landmarks of the latest snapshot's navmesh (PipelineDef::defer_landmarks;
    // every copy sharing its graph sees them from its next query on). False when `cancel` stopped it.
    bool complete_landmarks(const CancelFlag* cancel = nullptr);

    // Estimated bytes a bake with the current mesh and parameters needs: a tiled bake's is
    // estimate_tiled_memory (0 when its tile grid is refused).
    uint64_t estimate_memory() const;

    // The earliest stage that must be rebuilt, or Stage::Count when every stage is current.
    Stage first_dirty() const;
    void mark_dirty(Stage from);
    // Tiled bakes: marks tile (tx, tz) dirty from `from` (at least rasterize), so the next run()
    // re-bakes that tile only (a viewer's "Rebuild tile"). False when no such tile is laid out.
    bool mark_tile_dirty(int tx, int tz, Stage from = Stage::Rasterize);

    // Builds from the earliest dirty stage through `to`. On failure or cancel the stages before
    // the failing one keep their results; the snapshot records the error and the failing stage.
    Status run(Stage to = kLastStage, const CancelFlag* cancel = nullptr);

    // Test hook: flips the bits of byte `offset` of tile (tx, tz)'s obstacle cache; false when it
    // has none or is shorter.
    bool corrupt_obstacle_cache_for_test(int tx, int tz, size_t offset);

    // The latest published snapshot (never null once constructed).
    std::shared_ptr<const Bake> snapshot() const;

private:
    struct Impl;  // every piece of the pipeline's state (pipeline_impl.h)
    std::unique_ptr<Impl> impl_;
};

// The failure for std::bad_alloc at `where` (a stage name): bad input, with what to change. Out
// of memory is exit 2 by the contract: what the bake needs follows from what the user gave.
// A tiled bake's (tiled) names what a tiled bake can change instead of telling it to bake in tiles.
Status out_of_memory(const std::string& where, bool tiled = false);
// The mesh fix the mesh_* parameters ask for.
MeshFix mesh_fix(const Params& p);

}  // namespace nav
