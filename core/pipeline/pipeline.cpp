#include "core/pipeline/pipeline.h"

#include "core/formats/level_import.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <filesystem>
#include <fstream>
#include <limits>
#include <new>
#include <thread>

#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>
#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "core/pipeline/chf_cache.h"
#include "core/bake/erode.h"
#include "core/bake/filter.h"
#include "core/pipeline/voxel_values.h"

namespace nav {

namespace {

using clock_type = std::chrono::steady_clock;

// The buffer a stage writes this run. Reused when no published snapshot holds it any more; when one
// does (the debugger draws the last bake while the next one runs), the spare is taken if no snapshot
// holds it any more, else a fresh one is made, and the held buffer becomes the spare: the old one
// lives on, unchanged, inside the snapshot, and comes back to the pipeline once that lets it go. A
// live rebuild then alternates between two buffers instead of freeing one and faulting in another
// every run (issue 24). use_count() is a relaxed
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

int64_t count_if_not_null(const std::vector<uint8_t>& areas) {
    int64_t n = 0;
    for (uint8_t a : areas) n += a != kNullArea;
    return n;
}

double polymesh_area(const PolyMesh& pm) {
    double area = 0.0;
    for (int i = 0; i < pm.npolys; ++i) {
        const uint16_t* p = pm.poly(i);
        const int n = pm.poly_vert_count(i);
        double a2 = 0.0;  // shoelace in voxel units
        for (int k = 0; k < n; ++k) {
            const uint16_t* va = &pm.verts[static_cast<size_t>(p[k]) * 3];
            const uint16_t* vb = &pm.verts[static_cast<size_t>(p[(k + 1) % n]) * 3];
            a2 += static_cast<double>(va[0]) * vb[2] - static_cast<double>(vb[0]) * va[2];
        }
        area += std::abs(a2) * 0.5;
    }
    return area * static_cast<double>(pm.cs) * static_cast<double>(pm.cs);
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

// Working memory of the stages that is no result: kept between bakes so a rebuild reuses it
// instead of allocating and faulting it in again (issue 24). The solo bake has one; a tiled bake
// one per bake thread, taken by a thread for all the tiles it bakes in a run (Pipeline::Impl's
// pool). Passed to the stages as an explicit argument, not a thread_local: the pipeline decides
// who owns it and how long it lives, and a stage called from elsewhere (tests, navdiff) works
// without one.
struct BakeScratch {
    std::vector<int> tile_tris;        // a tile's triangles as a small indexed list (rasterize)
    std::vector<uint8_t> tile_areas;   // and their areas
    std::vector<uint8_t> erode;        // erode_walkable_area's distances
    SpanPool span_pool;                // a tile's rasterize pool (run_rasterize)
    RegionScratch regions;             // the watershed's
    std::vector<uint8_t> cache_raw, cache_packed;  // the obstacle cache's packing (chf_cache.h)
};

// One grid's working state: the solo bake's, or one tile's.
struct Unit : StageResults<false> {
    int tx = 0, tz = 0;
    BakeConfig config;
    std::array<StageStats, kStageCount> stats;
    bool stats_changed = true;  // tiles: stats changed since the tile's block last summed them (StatsBlocks)
    int dirty_from = 0;         // first stage without a current result
    bool trimmed = false;       // intermediates dropped (navbake): a rebake starts at rasterize
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
    const AreaFlagTable& area_flags;  // polygon flags per area id (Pipeline::set_areas)
    const Unit& solo;                // holds tri_areas
    const TriangleBins* bins;        // tiled bakes: triangles per tile
    bool tiled;
    bool record_trace;
    uint64_t memory_limit;
    const CancelFlag* cancel;
    bool lean = false;  // solo, intermediates not kept: a stage may take the buffer of a result it is the last to read
    bool obstacle_cache = false;  // tiles: the erode stage packs the tile's obstacle cache (ObstacleCache::Compressed)
};

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

// ---- the stages: one function each, over one grid ---------------------------------------------

Status run_input(Unit& u, const Ctx& x, StageStats& stats) {
    const InputMesh& m = x.m;
    if (Status st = check_fixed_mesh(m, x.params.f(ParamId::mesh_scale)); !st) return st;
    auto& ta = writable(u.tri_areas, u.spare.tri_areas);
    ta.resize(static_cast<size_t>(m.tri_count()));
    mark_walkable_triangles(u.config.walkable_slope_deg, m.verts.data(), m.tris.data(), m.tri_count(), ta.data());
    const int64_t walkable = count_if_not_null(ta);
    stats.counts = {{"verts", m.vert_count()}, {"tris", m.tri_count()}, {"walkable_tris", walkable}};
    if (walkable == 0)
        return Status::bad_input("nothing walkable: none of the " + std::to_string(m.tri_count()) +
                                 " triangles is flatter than agent_max_slope = " +
                                 x.params.to_string(ParamId::agent_max_slope) +
                                 " deg (is the mesh Y-up, and are its triangles wound counter-clockwise seen from above?)");
    return Status::ok();
}

// A tile sees only the cells of the solo grid (Recast's rcCalcGridSize: w = (int)(extent / cs +
// 0.5), so the last partial cell of the mesh bounds is in the grid or not by rounding): the
// columns of tile (tx, tz) outside it are emptied. The tiles then bake what the solo bake bakes,
// whatever the extent (tiles cover whole tiles, up to tile_size - 1 cells past the solo grid, and
// the mesh's last partial cell when the solo grid rounds it away); the grid edge is an edge of the
// level in both, as it is in Recast.
void clip_to_solo_grid(Heightfield& hf, const BakeConfig& solo, int tx, int tz) {
    const int64_t x0 = int64_t(tx) * solo.tile_size - hf.border_size;  // grid cell of the tile's column 0
    const int64_t z0 = int64_t(tz) * solo.tile_size - hf.border_size;
    for (int z = 0; z < hf.height; ++z)
        for (int x = 0; x < hf.width; ++x) {
            const int64_t gx = x0 + x, gz = z0 + z;
            if (gx >= 0 && gx < solo.width && gz >= 0 && gz < solo.height) continue;
            uint32_t& col = hf.columns[static_cast<size_t>(x + z * hf.width)];
            while (col != kNullSpan) {
                const uint32_t next = hf.pool[col].next;
                hf.pool[col].next = hf.free_list;
                hf.free_list = col;
                --hf.span_count;
                col = next;
            }
        }
}

Status run_rasterize(Unit& u, const Ctx& x, StageStats& stats) {
    const BakeConfig& c = u.config;
    const InputMesh& m = x.m;
    if (!x.tiled) {
        if (Status st = check_solo_grid(c, x.params, estimate_bake_memory(m, c, x.lean), x.memory_limit); !st) return st;
    }
    auto& hf = writable(u.solid, u.spare.solid);
    hf.reset(c.width, c.height, c.bmin, c.bmax, c.cs, c.ch, c.border_size);
    const std::vector<uint8_t>& ta = *x.solo.tri_areas;
    Status st;
    if (!x.tiled) {
        st = rasterize_triangles(m.verts.data(), m.vert_count(), m.tris.data(), ta.data(), m.tri_count(), hf,
                                 c.walkable_climb, x.cancel);
        stats.counts = {{"grid_width", c.width}, {"grid_height", c.height}, {"solid_spans", hf.span_count}};
    } else {
        // The tile's triangles (from the spatial index) as a small indexed list over the shared vertices.
        const std::span<const int> tris = x.bins->tile(u.tx, u.tz);
        std::vector<int>& local = u.scratch->tile_tris;
        std::vector<uint8_t>& local_areas = u.scratch->tile_areas;
        local.resize(tris.size() * 3);  // every entry written below
        local_areas.resize(tris.size());
        for (size_t i = 0; i < tris.size(); ++i) {
            const size_t t = static_cast<size_t>(tris[i]);
            local[i * 3 + 0] = m.tris[t * 3 + 0];
            local[i * 3 + 1] = m.tris[t * 3 + 1];
            local[i * 3 + 2] = m.tris[t * 3 + 2];
            local_areas[i] = ta[t];
        }
        // The tile rasterizes in the bake thread's pool, whose capacity (the sort's raw span
        // records: 16 bytes per raw span, 24 on grids over 2^24 columns) stays with the thread for its next tile and run, and keeps in its own pool only the
        // spans it holds (into the capacity its last result had: no new pages at the same size).
        SpanPool& big = u.scratch->span_pool;
        hf.pool.swap(big);  // hf was reset: the pool's contents mean nothing
        st = rasterize_triangles(m.verts.data(), m.vert_count(), local.data(), local_areas.data(),
                                 static_cast<int>(tris.size()), hf, c.walkable_climb, x.cancel);
        hf.pool.swap(big);
        hf.pool.assign(big.begin(), big.end());  // rasterize_triangles left exactly the pool's spans
        clip_to_solo_grid(hf, x.solo.config, u.tx, u.tz);
        stats.counts = {{"tile_tris", static_cast<int64_t>(tris.size())}, {"solid_spans", hf.span_count}};
    }
    // rasterize_triangles' sort grew the pool to hold the raw span records (16 bytes per raw span,
    // 24 on grids over 2^24 columns; with 24 a tiled bake of 9.7 M spans held 431 MB of pools for
    // 116 MB of spans); a tile
    // sorted in its thread's pool above. The solo grid keeps that capacity when its intermediates
    // are kept: it is one grid, the sort needed it at the peak anyway, and a rebuild at the same
    // parameters sorts in it again instead of faulting a new pool in (issue 24: 1500 of the 1600
    // faults of a dungeon rebuild). A lean bake (navbake's, once) gives it back: a lower peak.
    if (x.lean && hf.pool.capacity() > hf.pool.size() + hf.pool.size() / 4 + 1024) hf.pool.shrink_to_fit();
    return st;
}

Status run_filter(Unit& u, const Ctx& x, StageStats& stats) {
    const BakeConfig& c = u.config;
    auto& hf = writable(u.filtered, u.spare.filtered);
    // Lean (navbake's solo bake): the filter is the last stage to read the rasterized heightfield,
    // which is dropped after it, so it filters that one in place instead of a copy (one grid of
    // spans less at the peak). Otherwise copy-assign, which keeps hf's capacity.
    const bool moved = x.lean && sole_owner(u.solid);
    if (moved) hf = std::move(*u.solid);
    else hf = *u.solid;
    if (c.filter_low_hanging) filter_low_hanging_obstacles(c.walkable_climb, hf, x.cancel);
    if (c.filter_ledge) filter_ledge_spans(c.walkable_height, c.walkable_climb, hf, x.cancel);
    if (c.filter_low_height) filter_walkable_low_height_spans(c.walkable_height, hf, x.cancel);
    if (is_cancelled(x.cancel)) {
        // The rasterized heightfield was moved out: drop what is left of it and mark the unit
        // trimmed, so the next run starts at rasterize (solo_start) instead of filtering nothing.
        if (moved) {
            u.solid.reset();
            u.trimmed = true;
        }
        return Status::cancelled();
    }
    int64_t walkable = 0, ledge = 0, low = 0;
    for (uint32_t col : hf.columns)
        for (uint32_t i = col; i != kNullSpan; i = hf.pool[i].next) {
            walkable += hf.pool[i].area != kNullArea;
            ledge += (hf.pool[i].filtered_by & kFilteredLedge) != 0;
            low += (hf.pool[i].filtered_by & kFilteredLowHeight) != 0;
        }
    stats.counts = {{"walkable_solid_spans", walkable}, {"ledge_removed", ledge}, {"low_height_removed", low}};
    return Status::ok();
}

Status run_compact(Unit& u, const Ctx& x, StageStats& stats) {
    auto& chf = writable(u.compact, u.spare.compact);
    Status st = build_compact_heightfield(u.config.walkable_height, u.config.walkable_climb, *u.filtered, chf, x.cancel);
    stats.counts = {{"compact_spans", chf.span_count}};
    return st;
}

Status run_erode(Unit& u, const Ctx& x, StageStats& stats) {
    auto& a = writable(u.eroded, u.spare.eroded);
    a = u.compact->areas;
    Status st = erode_walkable_area(u.config.walkable_radius, *u.compact, a, u.scratch->erode, x.cancel);
    if (x.lean) std::vector<uint8_t>().swap(u.scratch->erode);  // a lean bake keeps no working memory
    stats.counts = {{"walkable_spans", count_if_not_null(a)}};
    u.chf_cache.clear();
    u.chf_cache.shrink_to_fit();
    if (!st || !x.obstacle_cache) return st;
    // What the areas stage reads, packed for a later re-bake from there. A tile too large for one
    // LZ4 block keeps none and re-bakes from rasterize.
    if (compress_chf(*u.compact, a, u.chf_cache, u.scratch->cache_raw, u.scratch->cache_packed)) {
        stats.counts.push_back({"obstacle_cache_bytes", static_cast<int64_t>(u.chf_cache.size())});
        stats.counts.push_back({"obstacle_cache_raw_bytes", static_cast<int64_t>(chf_cache_raw_bytes(*u.compact))});
    } else {
        u.chf_cache.clear();
    }
    return st;
}

Status run_areas(Unit& u, const Ctx& x, StageStats& stats) {
    auto& a = writable(u.areas, u.spare.areas);
    a = *u.eroded;
    for (const ConvexVolume& v : x.volumes) {
        if (is_cancelled(x.cancel)) return Status::cancelled();
        mark_convex_volume(*u.compact, v, a);
    }
    int64_t marked = 0;
    for (uint8_t v : a) marked += v != kNullArea && v != kWalkableArea;
    int64_t blocked = 0;
    for (const Obstacle& o : x.obstacles)
        blocked += mark_obstacle(*u.compact, o, x.params.f(ParamId::agent_radius), x.params.f(ParamId::agent_max_climb), a);
    stats.counts = {{"volumes", static_cast<int64_t>(x.volumes.size())}, {"volume_spans", marked}};
    if (!x.obstacles.empty())
        stats.counts.push_back({"obstacle_spans", blocked});
    return Status::ok();
}

Status run_distance(Unit& u, const Ctx& x, StageStats& stats) {
    auto& df = writable(u.distance, u.spare.distance);
    Status st = build_distance_field(*u.compact, *u.areas, df, x.cancel);
    stats.counts = {{"max_distance", df.max_dist}};
    return st;
}

Status run_regions(Unit& u, const Ctx& x, StageStats& stats) {
    const BakeConfig& c = u.config;
    auto& r = writable(u.regions, u.spare.regions);
    if (!x.record_trace) {  // no stale trace kept while off
        u.region_trace.reset();
        u.spare.region_trace.reset();
    }
    RegionTrace* trace = x.record_trace ? &writable(u.region_trace, u.spare.region_trace) : nullptr;
    Status st;
    switch (c.partition) {
        case Partition::Watershed:
            st = build_regions_watershed(*u.compact, *u.areas, *u.distance, c.border_size, c.min_region_area,
                                         c.merge_region_area, r, x.cancel, trace,
                                         x.lean ? nullptr : &u.scratch->regions);  // lean: freed on return
            break;
        case Partition::Monotone:
            st = build_regions_monotone(*u.compact, *u.areas, c.border_size, c.min_region_area, c.merge_region_area, r,
                                        x.cancel, trace);
            break;
        case Partition::Layers:
            st = build_regions_layers(*u.compact, *u.areas, c.border_size, c.min_region_area, r, x.cancel, trace);
            break;
    }
    stats.counts = {{"regions", r.region_count}};
    return st;
}

Status run_contours(Unit& u, const Ctx& x, StageStats& stats) {
    const BakeConfig& c = u.config;
    auto& cs = writable(u.contours, u.spare.contours);
    Status st = build_contours(*u.compact, *u.areas, *u.regions, c.max_simplification_error, c.max_edge_len,
                               kTessWallEdges, cs, x.cancel);
    int64_t nv = 0, outlines = 0;  // holes merged into an outline stay behind with no vertices
    for (const Contour& k : cs.contours) {
        nv += k.nverts;
        outlines += k.nverts > 0;
    }
    stats.counts = {{"contours", outlines}, {"contour_verts", nv}};
    return st;
}

Status run_polymesh(Unit& u, const Ctx& x, StageStats& stats) {
    auto& pm = writable(u.polymesh, u.spare.polymesh);
    Status st = build_poly_mesh(*u.contours, u.config.verts_per_poly, pm, x.cancel);
    stats.counts = {{"poly_verts", pm.nverts}, {"polys", pm.npolys}};
    return st;
}

Status run_detail(Unit& u, const Ctx& x, StageStats& stats) {
    const BakeConfig& c = u.config;
    auto& dm = writable(u.detail, u.spare.detail);
    Status st = build_poly_mesh_detail(*u.polymesh, *u.compact, *u.regions, c.detail_sample_dist,
                                       c.detail_sample_max_error, dm, x.cancel);
    stats.counts = {{"detail_verts", dm.nverts}, {"detail_tris", dm.ntris}};
    return st;
}

AutoLinkParams auto_link_params(const Params& p) {
    AutoLinkParams a;
    a.drop_height = p.f(ParamId::link_drop_height);
    a.jump_distance = p.f(ParamId::link_jump_distance);
    a.agent_height = p.f(ParamId::agent_height);
    a.agent_radius = p.f(ParamId::agent_radius);
    a.agent_climb = p.f(ParamId::agent_max_climb);
    return a;
}

// Sets count `name` in `counts` (appended when absent).
void set_count(std::vector<StageCount>& counts, std::string_view name, int64_t value) {
    for (StageCount& c : counts)
        if (c.name == name) {
            c.value = value;
            return;
        }
    counts.push_back({name, value});
}

// Links `manual` (Pipeline::set_links) and then the automatic links (`autos`, may be null) into
// nm's graph (relink_navmesh: no tile changes), with the count "manual_links" when there are any.
Status link_all(NavMesh& nm, const std::vector<OffMeshLink>& manual, const AutoLinks* autos, std::vector<StageCount>& counts) {
    const size_t nauto = autos ? autos->links.size() : 0;
    if (!manual.empty() || std::find_if(counts.begin(), counts.end(), [](const StageCount& c) { return c.name == "manual_links"; }) != counts.end())
        set_count(counts, "manual_links", static_cast<int64_t>(manual.size()));
    if (manual.empty() && nauto == 0 && nm.nlinks == 0) return Status::ok();
    if (nauto == 0) return relink_navmesh(nm, manual);
    if (manual.empty()) return relink_navmesh(nm, autos->links);
    std::vector<OffMeshLink> all;
    all.reserve(manual.size() + nauto);
    all.insert(all.end(), manual.begin(), manual.end());
    all.insert(all.end(), autos->links.begin(), autos->links.end());
    return relink_navmesh(nm, all);
}

// The off-mesh links of a finished navmesh (solo: run_navmesh; tiled: the assembly): the
// automatic ones generated into `links` (null when link_drop_height and link_jump_distance are
// both 0), with the counts "auto_links" and "links_rejected" appended to the navmesh step's, then
// the manual ones and the automatic ones linked into its graph (link_all: no tile changes, A* may
// take them).
Status make_auto_links(NavMesh& nm, const InputMesh& level, const Params& params, const std::vector<OffMeshLink>& manual,
                       std::shared_ptr<AutoLinks>& links, std::shared_ptr<AutoLinks>& spare, std::vector<StageCount>& counts,
                       const CancelFlag* cancel) {
    const AutoLinkParams ap = auto_link_params(params);
    if (!ap.enabled()) {
        links.reset();
        spare.reset();
        return link_all(nm, manual, nullptr, counts);
    }
    const auto t0 = clock_type::now();
    AutoLinks& out = writable(links, spare);
    Status st = generate_auto_links(nm, level, ap, out, cancel);
    out.ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
    counts.push_back({"auto_links", static_cast<int64_t>(out.links.size())});
    counts.push_back({"links_rejected", static_cast<int64_t>(out.rejected.size())});
    if (!st) return st;
    return link_all(nm, manual, &out, counts);
}

Status run_navmesh(Unit& u, const Ctx& x, StageStats& stats) {
    if (x.tiled) {  // the tile's runtime tile; the pipeline assembles the NavMesh from all of them
        auto t = std::make_shared<NavTile>();  // always a new object: the NavMesh tells tiles apart by identity
        Status st = make_nav_tile(*u.polymesh, *u.detail, *t, u.tx, u.tz, &x.area_flags);  // its errors name the tile
        t->layer = 0;
        t->walkable_height = x.params.f(ParamId::agent_height);
        t->walkable_radius = x.params.f(ParamId::agent_radius);
        t->walkable_climb = x.params.f(ParamId::agent_max_climb);
        stats.counts = {{"tile_polys", t->npolys()}};
        u.tile = std::move(t);
        return st;
    }
    auto& nm = writable(u.navmesh, u.spare.navmesh);
    Status st = build_navmesh(*u.polymesh, *u.detail, nm, &x.area_flags);
    stats.counts = {{"navmesh_polys", nm.npolys}, {"islands", nm.nislands}};
    if (!st) return st;
    return make_auto_links(nm, x.m, x.params, x.links, u.auto_links, u.auto_links_spare, stats.counts, x.cancel);
}

// What a stage is: where it runs and the function that builds its result (run_<name> above),
// from the STAGE rows of NAV_STAGES (stage.h); the results it owns are its RESULT rows there, the
// parameters it reads the ParamDefs whose stage it is (params.cpp).
enum class Scope : uint8_t {
    Mesh,  // once for the whole mesh (a tiled bake too)
    Grid,  // once per grid: the solo grid, or every tile
    GridThenMesh,  // per grid, then once for the whole mesh (navmesh: each tile, then the assembly)
};
struct StageDef {
    Stage stage;
    Scope scope;
    Status (*run)(Unit&, const Ctx&, StageStats&);
};
constexpr StageDef kStageTable[kStageCount] = {
#define NAV_STAGE_DEF(id, name, scope, key) {Stage::id, Scope::scope, run_##name},
    NAV_STAGES(NAV_STAGE_DEF, NAV_STAGE_SKIP)
#undef NAV_STAGE_DEF
};
constexpr bool table_in_order() {
    for (int s = 0; s < kStageCount; ++s)
        if (static_cast<int>(kStageTable[s].stage) != s) return false;
    return true;
}
static_assert(table_in_order(), "kStageTable lists the stages in Stage order");
// The last stage a tiled bake builds per tile.
constexpr int kLastTileStage = static_cast<int>(Stage::Navmesh);

}  // namespace

// Out of memory is bad input (exit 2): the memory a bake needs follows from the level and the
// parameters the user gave, and the process's memory from the limits they set (ulimit, cgroups).
Status out_of_memory(const std::string& where, bool tiled) {
    if (tiled)
        return Status::bad_input(where + ": out of memory (the tiled bake at these parameters needs more memory than "
                                         "this process may use: raise cell_size, lower threads or tile_size, or "
                                         "lower the memory limit so the estimate refuses such bakes before allocating)");
    return Status::bad_input(where + ": out of memory (the level at these parameters needs more memory than this "
                                     "process may use: raise cell_size, bake in tiles with tile_size, or lower the "
                                     "memory limit so the estimate refuses such grids before allocating)");
}

namespace {

// Runs one stage of one grid, turning an exception (out of memory, anything) into a failure.
Status run_one(Stage s, Unit& u, const Ctx& x) {
    StageStats& stats = u.stats[static_cast<size_t>(s)];
    stats.counts.clear();
    const auto t0 = clock_type::now();
    Status st;
    try {
        st = kStageTable[static_cast<int>(s)].run(u, x, stats);
    } catch (const std::bad_alloc&) {
        st = out_of_memory(std::string(stage_name(s)), x.tiled);
    } catch (const std::exception& e) {
        st = Status::internal(std::string(stage_name(s)) + ": " + e.what());
    }
    stats.ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
    stats.built = st.is_ok();
    u.stats_changed = true;
    return st;
}

template <class Dst, class Src>
void copy_results(Dst& dst, const Src& src, bool with_trace) {
    for_each_result([](Stage, auto& d, auto& s) { d = s; }, dst, src);
    if (!with_trace) dst.region_trace.reset();
}

template <class R>
void drop_results_after(R& r, int stage) {
    for_each_result([stage](Stage s, auto& p) { if (static_cast<int>(s) > stage) p.reset(); }, r);
}

// Counts of one stage summed over tiles (max_* counts: the maximum).
// Every tile lists a stage's counts in the same order under the same literals: try the count at
// the same position, by pointer, before searching by name (this runs tiles x stages times per run).
void add_counts(std::vector<StageCount>& into, const std::vector<StageCount>& from) {
    for (size_t i = 0; i < from.size(); ++i) {
        const StageCount& c = from[i];
        auto it = i < into.size() && into[i].name.data() == c.name.data() && into[i].name.size() == c.name.size()
                      ? into.begin() + static_cast<ptrdiff_t>(i)
                      : std::find_if(into.begin(), into.end(), [&](const StageCount& k) { return k.name == c.name; });
        if (it == into.end()) into.push_back(c);
        else if (c.name.starts_with("max_")) it->value = std::max(it->value, c.value);
        else it->value += c.value;
    }
}

}  // namespace

namespace {

// Lean solo bakes (set_keep_intermediates(false), navbake): the last stage that reads each result
// of `owner`, after which it is dropped; -1: kept (the input's triangle areas, which every bake
// reads; the contours, which hold the bake's warnings; the polygon and detail meshes and navmesh,
// the output). The region trace is never dropped (only recorded on request).
constexpr int kStageRasterize = static_cast<int>(Stage::Rasterize);
int last_reader(Stage owner) {
    switch (owner) {
        case Stage::Rasterize: return static_cast<int>(Stage::Filter);
        case Stage::Filter: return static_cast<int>(Stage::Compact);
        case Stage::Compact: return static_cast<int>(Stage::Detail);
        case Stage::Erode: return static_cast<int>(Stage::Areas);
        case Stage::Areas: return static_cast<int>(Stage::Contours);
        case Stage::Distance: return static_cast<int>(Stage::Regions);
        case Stage::Regions: return static_cast<int>(Stage::Detail);
        default: return -1;
    }
}

// Drops the results (and their spares) whose last reader is stage `ran`, and marks the unit trimmed.
void drop_consumed(Unit& u, int ran) {
    for_each_result(
        [&](Stage owner, auto& p, auto& spare) {
            if constexpr (std::is_same_v<std::decay_t<decltype(*p)>, RegionTrace>) return;
            if (last_reader(owner) != ran) return;
            p.reset();
            spare.reset();
            u.trimmed = true;
        },
        u, u.spare);
}

// The first stage the next solo run builds: a trimmed unit lost the intermediates every stage
// before the navmesh reads, so a change at any of them re-bakes it from rasterize.
int solo_start(const Unit& u) {
    if (u.trimmed && u.dirty_from > kStageRasterize && u.dirty_from < static_cast<int>(Stage::Navmesh))
        return kStageRasterize;
    return u.dirty_from;
}

constexpr int kFirstTileStage = static_cast<int>(Stage::Rasterize);

// Adds the tile stages' stats of `from` into `into`: built when both are, ms and counts summed.
void add_stats(std::array<StageStats, kStageCount>& into, const std::array<StageStats, kStageCount>& from) {
    for (int s = kFirstTileStage; s < kStageCount; ++s) {
        StageStats& st = into[static_cast<size_t>(s)];
        const StageStats& ts = from[static_cast<size_t>(s)];
        st.built = st.built && ts.built;
        st.ms += ts.ms;
        add_counts(st.counts, ts.counts);
    }
}

void clear_stats(std::array<StageStats, kStageCount>& st) {
    for (int s = kFirstTileStage; s < kStageCount; ++s) st[static_cast<size_t>(s)] = StageStats{true, 0.0, {}};
}

// Per-stage stats of a tiled bake: built when every tile is, counts summed, ms summed. Summed per
// block of kTiles tiles, and a block again only when the stats of one of its tiles changed
// (Unit::stats_changed): a run that re-bakes a few tiles of thousands (an obstacle) reads their
// blocks and the block sums, not every tile's stats (a cache miss each: 5 ms on 4 761 tiles).
// The counts' order is that of their first appearance in tile order either way.
struct StatsBlocks {
    static constexpr size_t kTiles = 64;
    std::vector<std::array<StageStats, kStageCount>> blocks;

    void aggregate(const std::vector<std::unique_ptr<Unit>>& tiles, const BakeConfig& c, const TileLayout& L,
                   std::array<StageStats, kStageCount>& out) {
        const size_t nb = (tiles.size() + kTiles - 1) / kTiles;
        const bool fresh = blocks.size() != nb;
        blocks.resize(nb);
        for (size_t b = 0; b < nb; ++b) {
            const size_t t0 = b * kTiles, t1 = std::min(tiles.size(), t0 + kTiles);
            bool changed = fresh;
            for (size_t t = t0; t < t1; ++t) changed = changed || tiles[t]->stats_changed;
            if (!changed) continue;
            clear_stats(blocks[b]);
            for (size_t t = t0; t < t1; ++t) {
                add_stats(blocks[b], tiles[t]->stats);
                tiles[t]->stats_changed = false;
            }
        }
        clear_stats(out);
        for (int s = kFirstTileStage; s < kStageCount; ++s) out[static_cast<size_t>(s)].built = !tiles.empty();
        out[static_cast<size_t>(kFirstTileStage)].counts = {{"grid_width", c.width}, {"grid_height", c.height}, {"tiles", L.count()}};
        for (const auto& b : blocks) add_stats(out, b);
    }
};

}  // namespace

struct Pipeline::Impl {
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

    // Parts of Pipeline::run_tiles (below it).
    void lay_out_tiles(const BakeConfig& c, const TileLayout& L, bool cache_on, int& first);
    std::vector<int> bake_order(const BakeConfig& c, const TileLayout& L, int last, bool only_some, const int* only,
                                const float* focus) const;
    Status collect_tile_results(int last, int& error_stage, int& error_tile);
};

// Bytes every tile holds for the whole bake whatever it contains: its working state (Unit: its
// bordered config, per-stage stats and their counts), the published TileBake with a copy of them,
// its polygon, detail and runtime tile and its share of the assembled navmesh. Measured: a 1 km
// plane at tile_size 20, 40 and 80 (27 889, 7 056 and 1 764 tiles, one polygon each) peaks at
// 6.6-6.7 KiB a tile above the process's baseline.
constexpr uint64_t kTileStateBytes = 6912;

// ---- Bake ---------------------------------------------------------------------------------------

int64_t TileBake::count(std::string_view name) const {
    for (const StageStats& s : stats)
        for (const StageCount& c : s.counts)
            if (c.name == name) return c.value;
    return 0;
}

void lower_thread_priority() {
#if defined(__linux__)
    // per thread on Linux (the nice value belongs to the thread id); raising it needs no privilege
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    const int now = getpriority(PRIO_PROCESS, tid);
    if (now < 10) setpriority(PRIO_PROCESS, tid, 10);
#endif
}

Bake tile_view(const Bake& b, const TileBake& t) {
    Bake v;
    static_cast<StageResults<true>&>(v) = static_cast<const StageResults<true>&>(t);
    v.mesh = b.mesh;
    v.params = b.params;
    v.config = t.config;
    v.generation = b.generation;
    v.stats = t.stats;
    v.built_through = t.built_through;
    return v;
}

void Bake::drop_after(int stage) {
    drop_results_after(*this, stage);
    if (stage < static_cast<int>(Stage::Navmesh)) auto_links.reset();
    for (auto& t : tiles) {
        if (!t || t->built_through <= stage) continue;
        auto trimmed = std::make_shared<TileBake>(*t);
        drop_results_after(*trimmed, stage);
        if (trimmed->contours || stage < static_cast<int>(Stage::Contours))  // the warnings of what is left
            trimmed->warnings = stage_warnings(*trimmed, "tile " + std::to_string(t->tx) + "," + std::to_string(t->tz) + ": ");
        trimmed->built_through = stage;
        t = std::move(trimmed);
    }
    built_through = std::min(built_through, stage);
}

int64_t Bake::count(std::string_view name) const {
    for (const StageStats& s : stats)
        for (const StageCount& c : s.counts)
            if (c.name == name) return c.value;
    return 0;
}

double Bake::walkable_area() const {
    double a = polymesh ? polymesh_area(*polymesh) : 0.0;
    for (const auto& t : tiles)
        if (t && t->polymesh) a += polymesh_area(*t->polymesh);
    return a;
}

std::vector<std::string> Bake::warnings() const {
    std::vector<std::string> w = stage_warnings(*this, "");
    // A tile's warnings were taken when it finished baking: navbake drops its contours right after.
    for (const auto& t : tiles)
        if (t) w.insert(w.end(), t->warnings.begin(), t->warnings.end());
    return w;
}

// ---- Pipeline -----------------------------------------------------------------------------------

Pipeline::Pipeline() : impl_(std::make_unique<Impl>()) { impl_->snap = std::make_shared<Bake>(); }
Pipeline::~Pipeline() = default;

bool Pipeline::has_mesh() const { return impl_->mesh != nullptr; }

Status Pipeline::load_mesh(const std::string& path) {
    InputMesh m;
    if (Status st = load_level(path, m); !st) return st;  // OBJ, or a format assimp reads
    return set_mesh(std::move(m));
}

Status Pipeline::set_mesh(InputMesh mesh) {
    if (Status st = validate_mesh(mesh, mesh.path.empty() ? std::string("mesh") : mesh.path); !st) return st;
    mesh.compute_bounds();
    impl_->source = std::make_shared<const InputMesh>(std::move(mesh));
    refresh_mesh();
    mark_dirty(Stage::Input);
    return Status::ok();
}

MeshFix mesh_fix(const Params& p) {
    MeshFix f;
    f.scale = p.f(ParamId::mesh_scale);
    f.z_up = p.b(ParamId::mesh_z_up);
    f.flip_winding = p.b(ParamId::mesh_flip_winding);
    return f;
}

void Pipeline::refresh_mesh() {
    Impl& I = *impl_;
    if (!I.source) return;
    const MeshFix fix = mesh_fix(params_);
    if (fix.identity()) {
        I.mesh = I.source;
        return;
    }
    // a fresh copy each time: a published snapshot may still hold the previous one
    auto m = std::make_shared<InputMesh>();
    apply_mesh_fix(*I.source, fix, *m);
    I.mesh = std::move(m);
}

Status Pipeline::set_param(ParamId id, double value) {
    Params p = params_;
    if (Status st = p.set(id, value); !st) return st;
    set_params(p);
    return Status::ok();
}

Status Pipeline::set_param(std::string_view name, std::string_view value) {
    Params p = params_;
    if (Status st = p.set_from_string(name, value); !st) return st;
    set_params(p);
    return Status::ok();
}

void Pipeline::set_params(const Params& p) {
    // A change of such parameters that leaves every derived voxel value equal (agent_radius 0.6 ->
    // 0.5 m at 0.3 m cells: 2 cells either way) dirties nothing; the next run re-runs no stage.
    const InputMesh* mesh = impl_->mesh.get();
    const bool same_voxels =
        mesh && same_voxel_values(derive_config(params_, mesh->bmin, mesh->bmax), derive_config(p, mesh->bmin, mesh->bmax));
    for (const ParamDef& d : param_table())
        if (!dirties_no_stage(d.id) && p.get(d.id) != params_.get(d.id) && !(same_voxels && rounded_to_voxels(d.voxel)))
            mark_dirty(d.stage);  // threads, path_mode: same bake
    const bool refix = !(mesh_fix(p) == mesh_fix(params_));
    params_ = p;
    if (refix) refresh_mesh();
}

void Pipeline::set_volumes(std::vector<ConvexVolume> volumes) {
    Impl& I = *impl_;
    if (I.tiles.empty()) {
        volumes_ = std::move(volumes);
        mark_dirty(Stage::Areas);
        return;
    }
    // Tiled: only the tiles whose bordered box meets a volume that was added, removed or changed.
    std::vector<const ConvexVolume*> changed;
    for (const ConvexVolume& v : volumes_)
        if (std::find(volumes.begin(), volumes.end(), v) == volumes.end()) changed.push_back(&v);
    for (const ConvexVolume& v : volumes)
        if (std::find(volumes_.begin(), volumes_.end(), v) == volumes_.end()) changed.push_back(&v);
    // Same volumes in another order: later volumes win, so every tile under two of them may change.
    if (changed.empty() && volumes != volumes_)
        for (const ConvexVolume& v : volumes) changed.push_back(&v);
    std::vector<std::array<float, 4>> boxes;
    for (const ConvexVolume* v : changed) {
        std::array<float, 4> b{1e30f, 1e30f, -1e30f, -1e30f};
        for (size_t k = 0; k + 2 < v->verts.size(); k += 3) {
            b[0] = std::min(b[0], v->verts[k]);
            b[2] = std::max(b[2], v->verts[k]);
            b[1] = std::min(b[1], v->verts[k + 2]);
            b[3] = std::max(b[3], v->verts[k + 2]);
        }
        boxes.push_back(b);
    }
    dirty_tiles_in(boxes);
    volumes_ = std::move(volumes);
}

void Pipeline::set_obstacles(std::vector<Obstacle> obstacles) {
    Impl& I = *impl_;
    if (I.tiles.empty()) {
        if (obstacles != obstacles_) mark_dirty(Stage::Areas);
        obstacles_ = std::move(obstacles);
        return;
    }
    // Obstacles only clear spans and clearing is order-free: only the added, removed or moved
    // ones matter, at their old and their new place.
    std::vector<std::array<float, 4>> boxes;
    auto add = [&](const Obstacle& o) {
        std::array<float, 4> b;
        float y0, y1;
        obstacle_bounds(o, params_.f(ParamId::agent_radius), b.data(), &y0, &y1);
        boxes.push_back(b);
    };
    for (const Obstacle& o : obstacles_)
        if (std::find(obstacles.begin(), obstacles.end(), o) == obstacles.end()) add(o);
    for (const Obstacle& o : obstacles)
        if (std::find(obstacles_.begin(), obstacles_.end(), o) == obstacles_.end()) add(o);
    dirty_tiles_in(boxes);
    obstacles_ = std::move(obstacles);
}

Status Pipeline::set_links(std::vector<OffMeshLink> links) {
    for (size_t i = 0; i < links.size(); ++i)
        if (Status st = check_offmesh_link(links[i], "links[" + std::to_string(i) + "]"); !st) return st;
    if (links != links_) links_changed_ = true;
    links_ = std::move(links);
    return Status::ok();
}

void Pipeline::relink_current() {
    Impl& I = *impl_;
    if (!links_changed_) return;
    const bool tiled = I.config.tile_size > 0;
    if (!tiled) {
        // A navmesh the stage built in this run took links_ already; one not built yet will.
        if (!I.solo.navmesh || I.solo.dirty_from <= static_cast<int>(Stage::Navmesh)) return;
        links_changed_ = false;
        if (std::find(I.stages_run.begin(), I.stages_run.end(), Stage::Navmesh) != I.stages_run.end()) return;
        // A new navmesh object (a snapshot still held keeps its own, and whoever caches by the
        // navmesh's identity sees the change): a copy, sharing every tile, relinked.
        I.solo.navmesh = std::make_shared<NavMesh>(*I.solo.navmesh);
        I.prune_stale = true;
        const Status st = link_all(*I.solo.navmesh, links_, I.solo.auto_links.get(),
                                   I.solo.stats[static_cast<size_t>(Stage::Navmesh)].counts);
        (void)st;  // set_links validated every link: relinking cannot fail
        return;
    }
    if (!I.tiled_navmesh) return;
    links_changed_ = false;
    const auto t0 = clock_type::now();
    auto nm = std::make_shared<NavMesh>(*I.tiled_navmesh);  // the tiles are shared, not copied
    const Status st = link_all(*nm, links_, I.tiled_links.get(), I.assembly.counts);
    (void)st;  // set_links validated every link
    I.assembly.ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
    I.tiled_navmesh = std::move(nm);
    I.prune_stale = true;
}

Status Pipeline::set_prune(std::optional<std::array<float, 3>> point) {
    if (point)
        for (float v : *point)
            if (!(std::fabs(v) <= kMaxCoordinate))
                return Status::bad_input("prune: the point must be 3 finite numbers within +-1e6 m");
    if (point != prune_) prune_changed_ = true;
    prune_ = point;
    return Status::ok();
}

void Pipeline::publish_prune(Bake& b) {
    Impl& I = *impl_;
    const std::weak_ptr<const NavMesh>& src = I.prune_src;
    const bool same_src = !src.owner_before(b.navmesh) && !b.navmesh.owner_before(src) && (b.navmesh || !src.expired());
    const bool rebuilt = std::find(I.stages_run.begin(), I.stages_run.end(), Stage::Navmesh) != I.stages_run.end();
    if (prune_changed_ || I.prune_stale || rebuilt || !same_src) {
        I.prune_src = b.navmesh;
        I.prune_stale = false;
        prune_changed_ = false;
        std::shared_ptr<const NavMesh> out = prune_at(b.navmesh, prune_, I.prune);
        I.pruned = I.prune.applied ? std::move(out) : nullptr;
    }
    b.prune = I.prune;
    if (I.pruned) b.navmesh = I.pruned;
}

void Pipeline::dirty_tiles_in(const std::vector<std::array<float, 4>>& boxes) {
    for (auto& t : impl_->tiles) {
        const BakeConfig& c = t->config;
        for (const std::array<float, 4>& b : boxes) {
            if (b[2] < c.bmin[0] || b[0] > c.bmax[0] || b[3] < c.bmin[2] || b[1] > c.bmax[2]) continue;
            t->dirty_from = std::min(t->dirty_from, static_cast<int>(Stage::Areas));
            for (int k = t->dirty_from; k < kStageCount; ++k) t->stats[static_cast<size_t>(k)].built = false;
            t->stats_changed = true;
            break;
        }
    }
}

void Pipeline::set_areas(AreaTable areas) {
    const AreaFlagTable flags = areas.flag_table();
    if (flags != area_flags_) {
        area_flags_ = flags;
        mark_dirty(Stage::Navmesh);  // only the tiles' last step reads the flags
    }
    areas_ = std::move(areas);
}

void Pipeline::set_record_region_trace(bool on) {
    if (on == record_trace_) return;
    record_trace_ = on;
    mark_dirty(Stage::Regions);
}

void Pipeline::mark_dirty(Stage from) {
    Impl& I = *impl_;
    const int s = static_cast<int>(from);
    auto lower = [](Unit& u, int first) {
        if (first < u.dirty_from) u.dirty_from = first;
        for (int k = u.dirty_from; k < kStageCount; ++k) u.stats[static_cast<size_t>(k)].built = false;
        u.stats_changed = true;
    };
    lower(I.solo, s);
    // A tile's stages start at rasterize: the input stage reads the whole mesh and runs once, on
    // the solo unit (run per tile it repeated the whole mesh's work once for every tile).
    for (auto& t : I.tiles) lower(*t, std::max(s, static_cast<int>(Stage::Rasterize)));
}

bool Pipeline::mark_tile_dirty(int tx, int tz, Stage from) {
    Impl& I = *impl_;
    const int s = std::max(static_cast<int>(from), static_cast<int>(Stage::Rasterize));
    for (auto& t : I.tiles) {
        if (t->tx != tx || t->tz != tz) continue;
        if (t->trimmed) t->dirty_from = static_cast<int>(Stage::Rasterize);  // its inputs were dropped
        t->dirty_from = std::min(t->dirty_from, s);
        for (int k = t->dirty_from; k < kStageCount; ++k) t->stats[static_cast<size_t>(k)].built = false;
            t->stats_changed = true;
        return true;
    }
    return false;
}

bool Pipeline::corrupt_obstacle_cache_for_test(int tx, int tz, size_t offset) {
    for (auto& t : impl_->tiles)
        if (t->tx == tx && t->tz == tz && offset < t->chf_cache.size()) {
            t->chf_cache[offset] ^= 0xff;
            return true;
        }
    return false;
}

Stage Pipeline::first_dirty() const {
    const Impl& I = *impl_;
    int d = solo_start(I.solo);
    if (params_.i(ParamId::tile_size) > 0 && !I.tiles.empty()) {
        // Tiled: the solo grid only does the input stage (dirty_from stays at rasterize after it);
        // every other stage is the tiles'. A change at rasterize or later marks every tile.
        if (d > static_cast<int>(Stage::Input)) d = kStageCount;
        for (const auto& t : I.tiles)
            if (t->dirty_from <= kLastTileStage) d = std::min(d, t->dirty_from);
    }
    if (links_changed_) d = std::min(d, static_cast<int>(Stage::Navmesh));  // the relink (no tile re-bakes)
    if (prune_changed_) d = std::min(d, static_cast<int>(Stage::Navmesh));  // the prune (no tile re-bakes)
    return static_cast<Stage>(d);
}

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
// What navbake holds before it bakes anything (code, libraries, the allocator's and TBB's first
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
    // (3 vertices and 3 indices each at most). Kept intermediates: every tile's at once (the
    // debugger); otherwise the tiles baking at one time, each at the largest tile's need. For the
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
            // a tile baked lean (navbake: nothing kept) holds its grid's stages one after another:
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
    // stacked floors and wide grids (tests/unit/test_hostile.cpp, navbake's peak): intermediates
    // kept, 88: the rasterized pool 24 (it keeps its sort buffer's capacity for the rebuild: 16
    // bytes per raw span since the 8-byte records, 24 on grids over 2^24 columns; the 24 stays), the
    // filtered copy 12, the compact span 8, three area arrays, distance and region ids 7, the
    // regions / contour stages' scratch about 25 and the watershed's kept working memory about 18.
    // Lean (navbake: each intermediate dropped after its last reader, the filter in place, no
    // working memory kept), 38: the peak is the rasterize sort (16-24) and the pool it gives back
    // (12), or the compact stages.
    // Per cell: 16 kept (two column heads and a compact cell), 8 lean (one of them at a time).
    // Lean measured (test_hostile, navbake's peak): 40 floors of 60 m 55 MiB, one floor of 600 m
    // 155 MiB, about 36 bytes a span and 5 a cell.
    // Re-measured (issue 23) against GNU time's peak for navbake, raw spans counted row by row
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

uint64_t Pipeline::estimate_memory() const {
    const Impl& I = *impl_;
    if (!I.mesh) return 0;
    const BakeConfig c = derive_config(params_, I.mesh->bmin, I.mesh->bmax);
    if (c.tile_size <= 0) return estimate_bake_memory(*I.mesh, c, !keep_intermediates_);
    // Tiled: the estimate the tiled bake checks against the limit (the tiles' stages, state and
    // outputs, the assembled navmesh), never the solo grid's.
    TileLayout L;
    if (!make_tile_layout(c, L)) return 0;  // no tile grid: the bake refuses it
    const int threads = c.threads > 0 ? c.threads : tbb::info::default_concurrency();
    TriangleBins bins;
    bins.build(*I.mesh, c, L);
    return estimate_tiled_memory(*I.mesh, c, L, bins, threads, keep_intermediates_, nullptr, nullptr,
                                 obstacle_cache_ == ObstacleCache::Compressed);
}

std::shared_ptr<const Bake> Pipeline::snapshot() const {
    std::lock_guard lk(impl_->snap_mutex);
    return impl_->snap;
}

namespace {

std::shared_ptr<const TileBake> publish_tile(const Unit& t, bool with_trace) {
    auto tb = std::make_shared<TileBake>();
    tb->tx = t.tx;
    tb->tz = t.tz;
    tb->config = t.config;
    tb->stats = t.stats;
    tb->built_through = t.dirty_from - 1;
    tb->ms = t.ms;
    tb->warnings = t.warnings;
    copy_results(*tb, t, with_trace);
    drop_results_after(*tb, tb->built_through);
    tb->tri_areas.reset();
    tb->navmesh.reset();
    return tb;
}


}  // namespace

Status Pipeline::run(Stage to, const CancelFlag* cancel) {
    Impl& I = *impl_;
    I.stages_run.clear();
    I.rebaked.clear();
    Status result;
    int error_stage = -1, error_tile = -1;
    bool tiled = false;
    if (!I.mesh) {
        result = Status::bad_input("no mesh loaded");
        error_stage = 0;
    } else {
        {
            std::lock_guard lk(I.snap_mutex);
            I.snap.reset();  // our own hold must not keep stage buffers from being reused
        }
        I.config = derive_config(params_, I.mesh->bmin, I.mesh->bmax);
        I.solo.config = I.config;
        I.solo.scratch = &I.solo_scratch;
        const InputMesh& m = *I.mesh;
        const bool lean = !keep_intermediates_ && I.config.tile_size <= 0;
        I.solo.dirty_from = solo_start(I.solo);
        // Rebuilt from rasterize below (re-trimmed as it goes when lean), or the tiles' bake now.
        if (I.solo.dirty_from <= kStageRasterize || I.config.tile_size > 0) I.solo.trimmed = false;
        const Ctx solo_ctx{m,     params_,       volumes_, obstacles_, links_, area_flags_, I.solo, nullptr, false, record_trace_, memory_limit_,
                           cancel, lean};
        tiled = I.config.tile_size > 0;
        // Stages of the solo grid (all of them), or only the mesh-wide ones before the tiles.
        const int solo_to = tiled ? static_cast<int>(Stage::Input) : static_cast<int>(to);
        for (int s = I.solo.dirty_from; s <= solo_to; ++s) {
            if (is_cancelled(cancel)) {
                result = Status::cancelled();
                break;
            }
            if (progress_) progress_->store(s, std::memory_order_relaxed);
            const Status st = run_one(static_cast<Stage>(s), I.solo, solo_ctx);
            if (!st) {
                result = st;
                error_stage = s;
                break;
            }
            I.solo.dirty_from = s + 1;
            I.stages_run.push_back(static_cast<Stage>(s));
            if (lean) drop_consumed(I.solo, s);
        }
        if (!tiled) {
            I.tiles.clear();
            I.bins_current = false;
            if (result) relink_current();
        } else if (result && static_cast<int>(to) >= static_cast<int>(Stage::Rasterize)) {
            result = run_tiles(to, cancel, error_stage, error_tile);
            if (result && to == Stage::Navmesh) result = assemble_navmesh(error_stage);
        }
        if (!tiled) I.tiled_navmesh.reset(), I.navmesh_spare.reset();
    }

    auto b = std::make_shared<Bake>();
    b->generation = ++I.generation;
    b->params = params_;
    b->config = I.config;
    b->volumes = volumes_;
    b->obstacles = obstacles_;
    b->links = links_;
    b->area_flags = area_flags_;
    b->stats = I.solo.stats;
    b->error = result;
    b->error_stage = error_stage;
    b->error_tile = error_tile;
    b->stages_run = I.stages_run;
    b->mesh = I.mesh;
    b->tri_areas = I.solo.tri_areas;
    if (!tiled) {
        b->built_through = I.solo.dirty_from - 1;
        copy_results(*b, I.solo, record_trace_);
        b->drop_after(b->built_through);  // results past the last current stage are stale
        if (b->navmesh) b->auto_links = I.solo.auto_links;
    } else {
        b->layout = I.layout;
        b->built_through = std::min(I.solo.dirty_from - 1, static_cast<int>(Stage::Input));
        if (!I.tiles.empty() && b->built_through >= static_cast<int>(Stage::Input)) {
            int through = kLastTileStage;
            for (const auto& t : I.tiles) through = std::min(through, t->dirty_from - 1);
            b->built_through = through;
        }
        I.stats_blocks.aggregate(I.tiles, I.config, I.layout, b->stats);
        const bool assembled = I.tiled_navmesh && !I.tiles.empty() && b->built_through >= static_cast<int>(Stage::Navmesh);
        StageStats& ns = b->stats[static_cast<size_t>(Stage::Navmesh)];
        if (assembled) {
            b->navmesh = I.tiled_navmesh;
            b->auto_links = I.tiled_links;
            ns.ms += I.assembly.ms;
            for (const StageCount& k : I.assembly.counts) ns.counts.push_back(k);
        } else {
            ns.built = false;
            b->built_through = std::min(b->built_through, static_cast<int>(Stage::Detail));
        }
        std::lock_guard lk(I.snap_mutex);
        for (auto& t : I.tiles) {
            if (!t->published && t->dirty_from > static_cast<int>(Stage::Rasterize))
                t->published = publish_tile(*t, record_trace_);
            b->tiles.push_back(t->published);
            b->tiles_done += t->dirty_from > kLastTileStage;
        }
        b->tiles_rebaked = I.rebaked;
    }
    publish_prune(*b);
    std::lock_guard lk(I.snap_mutex);
    I.snap = std::move(b);
    return result;
}

bool Pipeline::complete_landmarks(const CancelFlag* cancel) {
    const std::shared_ptr<const Bake> b = snapshot();
    return !b || !b->navmesh || nav::complete_landmarks(*b->navmesh, cancel);
}

Status Pipeline::assemble_navmesh(int& error_stage) {
    Impl& I = *impl_;
    bool all = !I.tiles.empty(), changed = !I.tiled_navmesh || !I.rebaked.empty();
    std::vector<std::shared_ptr<const NavTile>> tiles;
    for (const auto& t : I.tiles) {
        all = all && t->dirty_from > kLastTileStage && t->tile;
        if (t->tile && t->tile->npolys() > 0) tiles.push_back(t->tile);
    }
    if (!all) return Status::ok();  // some tile is not baked (navbake --tile): no navmesh
    if (!changed) {
        relink_current();  // only the manual links changed, if anything
        return Status::ok();
    }
    const auto t0 = clock_type::now();
    // Only we hold the spare: nothing reads it, so it may be written (it was made mutable).
    auto nm = sole_owner(I.navmesh_spare) ? std::const_pointer_cast<NavMesh>(std::move(I.navmesh_spare)) : std::make_shared<NavMesh>();
    I.navmesh_spare.reset();
    Status st;
    try {
        st = build_navmesh(tiles, I.tiled_navmesh.get(), *nm, {}, defer_landmarks_);
    } catch (const std::bad_alloc&) {
        st = out_of_memory("navmesh assembly", true);
    }
    I.assembly.ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
    if (!st) {
        error_stage = static_cast<int>(Stage::Navmesh);
        I.tiled_navmesh.reset();
        return st;
    }
    I.assembly.counts = {{"navmesh_polys", nm->npolys}, {"islands", nm->nislands}};
    try {
        st = make_auto_links(*nm, *I.mesh, params_, links_, I.tiled_links, I.tiled_links_spare, I.assembly.counts, nullptr);
    } catch (const std::bad_alloc&) {
        st = out_of_memory("automatic links", true);
    }
    I.assembly.ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
    if (!st) {
        error_stage = static_cast<int>(Stage::Navmesh);
        I.tiled_navmesh.reset();
        I.tiled_links.reset();
        return st;
    }
    I.navmesh_spare = std::move(I.tiled_navmesh);
    I.tiled_navmesh = std::move(nm);
    links_changed_ = false;  // the assembly linked links_
    if (std::find(I.stages_run.begin(), I.stages_run.end(), Stage::Navmesh) == I.stages_run.end())
        I.stages_run.push_back(Stage::Navmesh);
    return Status::ok();
}

namespace {
// Runs `count` copies of worker on the caller's job system (TaskHook). An exception stays on our
// side of the hook: the first one a copy throws is kept and rethrown here once all have returned.
template <class W>
void run_on_hook(const TaskHook& hook, int count, W& worker) {
    struct Job {
        W* worker = nullptr;
        std::mutex m;
        std::exception_ptr error;
    } job;
    job.worker = &worker;
    void (*task)(void*) = [](void* ctx) {
        Job& j = *static_cast<Job*>(ctx);
        try {
            (*j.worker)();
        } catch (...) {
            std::lock_guard lk(j.m);
            if (!j.error) j.error = std::current_exception();
        }
    };
    if (void* handle = hook.enqueue(task, &job, count, hook.user)) hook.wait(handle, hook.user);
    else task(&job);  // the job system ran nothing: run the worker here (it empties the queue)
    if (job.error) std::rethrow_exception(job.error);
}

// Runs `threads` copies of worker at once: on the hook's job system when it is set, else on a
// oneTBB arena of that many threads (plain threads under ThreadSanitizer).
template <class W>
void run_workers(const TaskHook& hook, int threads, W& worker) {
    if (hook.set()) {
        run_on_hook(hook, std::max(1, threads), worker);
        return;
    }
#if defined(__SANITIZE_THREAD__)
    // ThreadSanitizer cannot see inside the uninstrumented libtbb (its task pool recycles
    // memory and hands tasks over unseen, so every tiled bake reports false races). Under it
    // the same work queue runs on plain threads, so the reports left are about our code.
    std::vector<std::thread> pool;
    for (int k = 1; k < std::max(1, threads); ++k) pool.emplace_back(worker);
    worker();
    for (std::thread& th : pool) th.join();
#else
    tbb::task_arena arena(std::max(1, threads));
    arena.execute([&] { tbb::parallel_for(0, arena.max_concurrency(), [&](int) { worker(); }); });
#endif
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
}  // namespace

// Lays out the tiles for config c (kept when the grid is the same, else made anew, dirty from
// rasterize) and gives each its current bordered config; first: the earliest dirty stage of any.
void Pipeline::Impl::lay_out_tiles(const BakeConfig& c, const TileLayout& L, bool cache_on, int& first) {
    const bool same_grid = !tiles.empty() && layout.tile_size == L.tile_size && layout.border == L.border &&
                           layout.cols == L.cols && layout.rows == L.rows && tiles_config.cs == c.cs &&
                           std::equal(c.bmin, c.bmin + 3, tiles_config.bmin) &&
                           std::equal(c.bmax, c.bmax + 3, tiles_config.bmax);
    if (!same_grid) {
        tiles.clear();
        for (int tz = 0; tz < L.rows; ++tz)
            for (int tx = 0; tx < L.cols; ++tx) {
                auto u = std::make_unique<Unit>();
                u->tx = tx;
                u->tz = tz;
                u->dirty_from = static_cast<int>(Stage::Rasterize);
                tiles.push_back(std::move(u));
            }
        layout = L;
        tiles_config = c;
        bins_current = false;
    }
    first = kStageCount;
    for (auto& t : tiles) {
        t->config = tile_config(c, L, t->tx, t->tz);  // the parameters may have changed
        // A trimmed tile keeps only polymesh, detail and its runtime tile: every stage before the
        // navmesh reads a dropped result (polymesh the contours, detail the compact heightfield and
        // regions, ...), so a change at any of them re-bakes the tile from rasterize; with its
        // obstacle cache, a change at the areas stage or later re-bakes it from there (bake_tile
        // unpacks the cache first). The cache is current whenever dirty_from is past erode: every
        // change before it lowers dirty_from, and the erode stage remakes the cache.
        if (!cache_on) {
            t->chf_cache.clear();
            t->chf_cache.shrink_to_fit();
        }
        if (t->trimmed && t->dirty_from < static_cast<int>(Stage::Navmesh))
            t->dirty_from = !t->chf_cache.empty() && t->dirty_from >= static_cast<int>(Stage::Areas)
                                ? static_cast<int>(Stage::Areas)
                                : static_cast<int>(Stage::Rasterize);
        first = std::min(first, t->dirty_from);
    }
}

// The tiles to bake through stage `last` (only those in the rectangle only[0..3] = x0, z0, x1, z1
// when only_some), nearest the focus first (ties in tile order).
std::vector<int> Pipeline::Impl::bake_order(const BakeConfig& c, const TileLayout& L, int last, bool only_some,
                                            const int* only, const float* focus) const {
    std::vector<int> order;
    for (size_t i = 0; i < tiles.size(); ++i)
        if (tiles[i]->dirty_from <= last &&
            (!only_some || (tiles[i]->tx >= only[0] && tiles[i]->tx <= only[2] && tiles[i]->tz >= only[1] &&
                            tiles[i]->tz <= only[3])))
            order.push_back(static_cast<int>(i));
    std::vector<float> dist(tiles.size(), 0.0f);
    for (int i : order) {
        float box[4];
        tile_box(c, L, tiles[static_cast<size_t>(i)]->tx, tiles[static_cast<size_t>(i)]->tz, box);
        const float dx = 0.5f * (box[0] + box[2]) - focus[0], dz = 0.5f * (box[1] + box[3]) - focus[1];
        dist[static_cast<size_t>(i)] = dx * dx + dz * dz;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return dist[static_cast<size_t>(a)] < dist[static_cast<size_t>(b)]; });
    return order;
}

// The tiled run's result from the tiles it baked, in tile order whatever order they finished in:
// the first failure that is not a cancel (naming its tile), else a cancel; the stages it ran.
Status Pipeline::Impl::collect_tile_results(int last, int& error_stage, int& error_tile) {
    Status result;
    bool ran_stage[kStageCount] = {};
    for (size_t i = 0; i < tiles.size(); ++i) {
        Unit& t = *tiles[i];
        if (!t.ran) continue;
        rebaked.push_back(static_cast<int>(i));
        if (!t.error.is_ok() && (result.is_ok() || result.code == Status::Code::Cancelled) &&
            t.error.code != Status::Code::Cancelled) {
            result = Status{t.error.code, "tile " + std::to_string(t.tx) + "," + std::to_string(t.tz) + ": " +
                                              t.error.message};
            error_stage = t.error_stage;
            error_tile = static_cast<int>(i);
        } else if (!t.error.is_ok() && result.is_ok()) {
            result = t.error;
        }
    }
    for (const auto& t : tiles)
        if (t->ran)
            for (int s = t->ran_from; s < t->dirty_from; ++s) ran_stage[s] = true;
    for (int s = static_cast<int>(Stage::Rasterize); s <= last; ++s)
        if (ran_stage[s]) stages_run.push_back(static_cast<Stage>(s));
    return result;
}

Status Pipeline::run_tiles(Stage to, const CancelFlag* cancel, int& error_stage, int& error_tile) {
    Impl& I = *impl_;
    const BakeConfig& c = I.config;
    const InputMesh& m = *I.mesh;
    // Solo results are stale once tiled: free them (tri_areas stays, the tiles read it).
    drop_results_after(I.solo, static_cast<int>(Stage::Input));
    drop_results_after(I.solo.spare, static_cast<int>(Stage::Input));
    // Before any per-tile state exists: the whole grid (its sides and height), the tile count and
    // what every tile holds whatever it contains (a failed check leaves no tiles behind).
    const int threads = c.threads > 0 ? c.threads : tbb::info::default_concurrency();
    TileLayout L;
    Status layout_ok = check_tile_grid(c, params_, L);
    if (layout_ok) layout_ok = check_tile_overhead(*I.mesh, c, L, params_, memory_limit_);
    if (!layout_ok) {
        I.tiles.clear();
        I.layout = TileLayout{};
        I.bins_current = false;
        I.tiled_navmesh.reset(), I.navmesh_spare.reset();
        error_stage = static_cast<int>(Stage::Rasterize);
        return layout_ok;
    }
    int first = kStageCount;
    const bool cache_on = obstacle_cache_ == ObstacleCache::Compressed && !keep_intermediates_;
    I.lay_out_tiles(c, L, cache_on, first);
    if (first <= static_cast<int>(Stage::Rasterize)) {
        if (Status st = check_tiled_grid(m, c, L, params_, memory_limit_, threads, keep_intermediates_, cache_on, I.bins,
                                         I.bins_current);
            !st) {
            error_stage = static_cast<int>(Stage::Rasterize);
            return st;
        }
    }
    const int last = std::min(static_cast<int>(to), kLastTileStage);
    const int* R = only_tiles_;
    const bool only_some = R[0] >= 0 || R[1] >= 0 || R[2] >= 0 || R[3] >= 0;
    if (only_some && (R[0] < 0 || R[1] < 0 || R[2] >= L.cols || R[3] >= L.rows || R[0] > R[2] || R[1] > R[3])) {
        error_stage = static_cast<int>(Stage::Rasterize);
        const bool one = R[0] == R[2] && R[1] == R[3];
        return Status::bad_input((one ? "tile " + std::to_string(R[0]) + "," + std::to_string(R[1])
                                      : "tiles " + std::to_string(R[0]) + "," + std::to_string(R[1]) + ":" +
                                            std::to_string(R[2]) + "," + std::to_string(R[3])) +
                                 " is outside the tile grid of " + std::to_string(L.cols) + " x " +
                                 std::to_string(L.rows) + " tiles (x in 0.." + std::to_string(L.cols - 1) +
                                 ", z in 0.." + std::to_string(L.rows - 1) + ")");
    }

    const std::vector<int> order = I.bake_order(c, L, last, only_some, only_tiles_, focus_);
    for (auto& t : I.tiles) {
        t->ran = false;
        t->error = Status::ok();
        t->error_stage = -1;
    }
    {
        std::lock_guard lk(I.snap_mutex);
        for (int i : order) I.tiles[static_cast<size_t>(i)]->published.reset();  // its buffers may be reused
    }
    if (progress_) progress_->store(static_cast<int>(Stage::Rasterize), std::memory_order_relaxed);

    const Ctx ctx{m, params_, volumes_, obstacles_, links_, area_flags_, I.solo, &I.bins, true, record_trace_, memory_limit_,
                  cancel, false, cache_on};
    const bool keep = keep_intermediates_;
    const bool trace = record_trace_;
    std::atomic<size_t> next{0};
    auto bake_tile = [&](Unit& t) {
        const auto t0 = clock_type::now();
        t.ran = true;
        // A trimmed tile re-baking from the areas stage: its compact heightfield and eroded areas
        // from the obstacle cache. One that does not unpack re-bakes from rasterize (and makes a
        // new cache at its erode).
        double unpack_ms = 0;
        bool fell_back = false;
        if (t.dirty_from == static_cast<int>(Stage::Areas) && t.trimmed && !t.compact) {
            const auto u0 = clock_type::now();
            Status st = t.chf_cache.empty() ? Status::bad_input("obstacle cache: none") : Status::ok();
            try {
                if (st) st = decompress_chf(t.chf_cache, writable(t.compact, t.spare.compact),
                                            writable(t.eroded, t.spare.eroded), t.scratch->cache_raw);
            } catch (const std::bad_alloc&) {
                st = out_of_memory("obstacle cache", true);
            }
            if (st && (t.compact->width != t.config.width || t.compact->height != t.config.height ||
                       t.compact->border_size != t.config.border_size))
                st = Status::bad_input("obstacle cache: made for another grid");
            if (!st) {
                t.compact.reset();
                t.eroded.reset();
                t.chf_cache.clear();
                t.dirty_from = static_cast<int>(Stage::Rasterize);
                fell_back = true;
            }
            unpack_ms = std::chrono::duration<double, std::milli>(clock_type::now() - u0).count();
        }
        t.ran_from = t.dirty_from;
        for (int s = t.dirty_from; s <= last; ++s) {
            if (is_cancelled(cancel)) {
                t.error = Status::cancelled();
                break;
            }
            const Status st = run_one(static_cast<Stage>(s), t, ctx);
            if (!st) {
                t.error = st;
                t.error_stage = s;
                break;
            }
            t.dirty_from = s + 1;
            // the unpacking is the areas stage's time; a fallback is counted where the re-bake began
            if (s == static_cast<int>(Stage::Areas) && !fell_back) t.stats[static_cast<size_t>(s)].ms += unpack_ms;
            if (s == kStageRasterize && fell_back)
                t.stats[static_cast<size_t>(s)].counts.push_back({"obstacle_cache_fallbacks", 1});
        }
        t.ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
        // The tile's warnings, taken while its contours are still there (a trimmed tile that only
        // re-ran its navmesh has no contours and keeps the warnings it had).
        if (t.contours) t.warnings = stage_warnings(t, "tile " + std::to_string(t.tx) + "," + std::to_string(t.tz) + ": ");
        if (!keep && t.dirty_from > kLastTileStage) {  // keep only the tile's output
            for_each_result([](Stage s, auto& p, auto& spare) {
                if (s < Stage::Polymesh) {
                    p.reset();
                    spare.reset();
                }
            }, t, t.spare);
            t.trimmed = true;
        } else if (keep && t.ran_from <= static_cast<int>(Stage::Rasterize) && t.dirty_from > kLastTileStage) {
            t.trimmed = false;  // rebuilt from rasterize with every intermediate kept
        }
        if (!t.error.is_ok()) return;
        std::shared_ptr<Bake> b;
        {
            std::lock_guard lk(I.snap_mutex);
            t.published = publish_tile(t, trace);
            if (on_tile_) {
                b = std::make_shared<Bake>();
                b->params = params_;
                b->config = c;
                b->volumes = volumes_;
                b->obstacles = obstacles_;
                b->links = links_;
                b->area_flags = area_flags_;
                b->mesh = I.mesh;
                b->tri_areas = I.solo.tri_areas;  // the input stays drawn while the tiles fill in
                b->stats[static_cast<size_t>(Stage::Input)] = I.solo.stats[static_cast<size_t>(Stage::Input)];
                b->layout = L;
                b->partial = true;
                b->generation = I.generation + 1;
                b->built_through = I.solo.tri_areas ? static_cast<int>(Stage::Input) : -1;
                for (auto& u : I.tiles) {
                    b->tiles.push_back(u->published);
                    b->tiles_done += u->published != nullptr && u->published->built_through >= kLastTileStage;
                }
            }
        }
        // outside the snapshot lock: the callback may take its time (draw lists) while the other
        // tiles go on baking and publishing
        if (b) {
            std::lock_guard lk(on_tile_mutex_);
            on_tile_(std::move(b));
        }
    };
    // The hand-over to and from the bake threads goes through our own atomics as well as through
    // oneTBB's join: the tiles' state is written here, read there and back.
    std::atomic<int> workers_done{0};
    next.store(0, std::memory_order_release);
    const bool background = background_threads_ && !task_hook_.set();  // not the game's threads
    auto worker = [&] {
        if (background) lower_thread_priority();
        // This thread's working memory for every tile it bakes: one from the pool (kept across
        // runs), returned when the queue is empty.
        std::unique_ptr<BakeScratch> scratch;
        {
            std::lock_guard lk(I.tile_scratch_mutex);
            if (!I.tile_scratch.empty()) {
                scratch = std::move(I.tile_scratch.back());
                I.tile_scratch.pop_back();
            }
        }
        if (!scratch) scratch = std::make_unique<BakeScratch>();
        for (size_t k; (k = next.fetch_add(1, std::memory_order_acq_rel)) < order.size();) {
            Unit& t = *I.tiles[static_cast<size_t>(order[k])];
            t.scratch = scratch.get();
            bake_tile(t);
            t.scratch = nullptr;
        }
        {
            std::lock_guard lk(I.tile_scratch_mutex);
            I.tile_scratch.push_back(std::move(scratch));
        }
        workers_done.fetch_add(1, std::memory_order_release);
    };
    try {
        run_workers(task_hook_, threads, worker);
        (void)workers_done.load(std::memory_order_acquire);
    } catch (const std::bad_alloc&) {  // out of memory while publishing
        error_stage = static_cast<int>(Stage::Rasterize);
        return out_of_memory("tiled bake", true);
    } catch (const std::exception& e) {  // the on_tile callback
        error_stage = static_cast<int>(Stage::Rasterize);
        return Status::internal(std::string("tiled bake: ") + e.what());
    }

    return I.collect_tile_results(last, error_stage, error_tile);
}

}  // namespace nav
