// The stages of one grid, one function each (run_<name>), and the table that names them in Stage
// order: what run() and the tiled bake call through run_one.
#include "core/pipeline/pipeline_impl.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <chrono>
#include <exception>
#include <new>

#include "core/bake/erode.h"
#include "core/bake/filter.h"
#include "core/pipeline/chf_cache.h"
#include "core/pipeline/memory_estimate.h"

namespace nav {

namespace {

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
    // parameters sorts in it again instead of faulting a new pool in (most of a rebuild's page
    // faults otherwise; docs/benchmarks.md). A lean bake (one run, no rebuild) gives it back: a lower peak.
    if (x.lean && hf.pool.capacity() > hf.pool.size() + hf.pool.size() / 4 + 1024) hf.pool.shrink_to_fit();
    return st;
}

Status run_filter(Unit& u, const Ctx& x, StageStats& stats) {
    const BakeConfig& c = u.config;
    auto& hf = writable(u.filtered, u.spare.filtered);
    // Lean (a solo bake, no intermediates kept): the filter is the last stage to read the rasterized heightfield,
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

// The obstacle cache is packed here, by the stage just before the one an edit re-bakes from.
static_assert(static_cast<int>(kEditStage) == static_cast<int>(Stage::Erode) + 1,
              "run_erode packs the obstacle cache for kEditStage: move the packing with it");

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

// The areas stage's second half (clearance.h): with two or more agent types, the types each span
// fits (an obstacle keeps each type's own radius away) and the split keys the later stages follow.
Status mark_agent_types(Unit& u, const Ctx& x, StageStats& stats) {
    if (x.agent_types.size() < 2) {
        u.clearance.reset();
        return Status::ok();
    }
    const BakeConfig& c = u.config;
    std::array<ClearanceType, kMaxAgentTypes> ct{};
    const size_t n = std::min(x.agent_types.size(), ct.size());
    for (size_t t = 0; t < n; ++t) {  // derive_config's rounding
        ct[t].radius = static_cast<int>(std::ceil(x.agent_types[t].radius / c.cs));
        ct[t].height = static_cast<int>(std::ceil(x.agent_types[t].height / c.ch));
    }
    auto& cl = writable(u.clearance, u.spare.clearance);
    if (Status st = mark_clearance(*u.compact, u.compact->areas, std::span(ct.data(), n), c.filter_low_height, cl,
                                   u.scratch->erode, x.cancel); !st)
        return st;
    const float base_radius = x.params.f(ParamId::agent_radius), climb = x.params.f(ParamId::agent_max_climb);
    for (const Obstacle& o : x.obstacles)
        for (size_t t = 0; t < n; ++t)
            if (x.agent_types[t].radius > base_radius)
                clear_obstacle_types(*u.compact, o, x.agent_types[t].radius, climb, static_cast<uint16_t>(1u << t), cl.types);
    if (Status st = make_clearance_keys(*u.compact, *u.areas, c.min_region_area, cl, u.scratch->clearance); !st) return st;
    stats.counts.push_back({"agent_type_keys", static_cast<int64_t>(cl.key_area.size()) - 1});
    return Status::ok();
}

// What regions, contours and polygons split on: the areas, or with agent types the split keys.
const std::vector<uint8_t>& split_areas(const Unit& u) { return u.clearance ? u.clearance->keys : *u.areas; }

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
    return mark_agent_types(u, x, stats);
}

Status run_distance(Unit& u, const Ctx& x, StageStats& stats) {
    auto& df = writable(u.distance, u.spare.distance);
    Status st = build_distance_field(*u.compact, split_areas(u), df, x.cancel);
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
            st = build_regions_watershed(*u.compact, split_areas(u), *u.distance, c.border_size, c.min_region_area,
                                         c.merge_region_area, r, x.cancel, trace,
                                         x.lean ? nullptr : &u.scratch->regions);  // lean: freed on return
            break;
        case Partition::Monotone:
            st = build_regions_monotone(*u.compact, split_areas(u), c.border_size, c.min_region_area, c.merge_region_area, r,
                                        x.cancel, trace);
            break;
        case Partition::Layers:
            st = build_regions_layers(*u.compact, split_areas(u), c.border_size, c.min_region_area, r, x.cancel, trace);
            break;
    }
    stats.counts = {{"regions", r.region_count}};
    return st;
}

Status run_contours(Unit& u, const Ctx& x, StageStats& stats) {
    const BakeConfig& c = u.config;
    auto& cs = writable(u.contours, u.spare.contours);
    Status st = build_contours(*u.compact, split_areas(u), *u.regions, c.max_simplification_error, c.max_edge_len,
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
    pm.types.clear();
    if (st && u.clearance) {  // the split keys back to areas, and each polygon's agent types
        const Clearance& cl = *u.clearance;
        pm.types.resize(pm.areas.size());
        for (size_t p = 0; p < pm.areas.size(); ++p) {
            const uint8_t k = pm.areas[p] < cl.key_area.size() ? pm.areas[p] : 0;
            pm.areas[p] = cl.key_area[k];
            pm.types[p] = cl.key_types[k];
        }
    }
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

}  // namespace

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

namespace {

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


}  // namespace nav
