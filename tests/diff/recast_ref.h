// Shared harness of the differential tests (tests/diff) and the benchmark (tests/bench): runs
// Debian Recast 1.5.1's whole bake and ours on the same triangles with the same configuration
// (both derived by nav::derive_config), stage by stage, timing each stage and reporting the counts
// the two must agree on. The voxel stages (input marking through the distance field) run once;
// then, for each requested partition, the regions and the vector stages built on them (contours,
// polygon mesh, detail mesh) run as one chain, so that Recast's spans carry that partition's
// region ids while its contours and detail mesh read them.
//
// Recast is a reference for tests and benchmarks only; nothing in core/ includes this header.
#pragma once
#include <Recast.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/bake/compact.h"
#include "core/bake/contours.h"
#include "core/bake/detail.h"
#include "core/bake/distance.h"
#include "core/bake/erode.h"
#include "core/bake/filter.h"
#include "core/bake/input.h"
#include "core/pipeline/params.h"
#include "core/bake/polymesh.h"
#include "core/bake/rasterize.h"
#include "core/pipeline/tiling.h"
#include "core/bake/regions.h"

namespace navdiff {

constexpr int kPartitionCount = 3;  // index = static_cast<int>(nav::Partition)

// Bit mask of partitions to build: bit i for nav::Partition(i).
constexpr unsigned kAllPartitions = 0x7u;
inline unsigned partition_bit(nav::Partition p) { return 1u << static_cast<int>(p); }

// Wall time of each stage, milliseconds. "input" is the walkable-slope marking of triangles;
// "rasterize" includes (re)initialising the heightfield; "erode" includes copying the compact
// areas into the eroded buffer on our side (the pipeline keeps both). Regions and the vector
// stages are per partition; Recast's include allocating their result objects.
struct StageMs {
    double input = 0, rasterize = 0, filter = 0, compact = 0, erode = 0, distance = 0;
    std::array<double, kPartitionCount> regions{};
    std::array<double, kPartitionCount> contours{}, polymesh{}, detail{};
};

// Counts of the vector stages for one partition.
struct MeshCounts {
    int contours = 0;       // simplified contours with vertices (holes merged into an outline have none)
    int64_t contour_verts = 0;
    int poly_verts = 0, polys = 0;
    int detail_verts = 0, detail_tris = 0;
    double walkable_area = 0;  // xz-projected area of all polygons, m^2 (poly_mesh_area)
    int warnings = 0;          // ours only: contour and polymesh warnings (dropped contours, ...)
};

// What both implementations must agree on.
struct VoxelCounts {
    int walkable_tris = 0;          // triangles marked walkable by slope
    int64_t solid_spans = 0;        // spans in the solid heightfield after rasterization
    int64_t solid_walkable = 0;     // solid spans with a walkable area after rasterization
    int64_t filtered_walkable = 0;  // solid spans with a walkable area after the filters
    int64_t compact_spans = 0;      // spans in the compact heightfield
    int64_t walkable_spans = 0;     // compact spans whose area is not null after erosion
    int max_dist = 0;               // maximum of the distance field
    std::array<int, kPartitionCount> regions{};  // distinct non-zero region ids per partition
};

struct VoxelRun {
    StageMs ms;
    VoxelCounts counts;
    std::array<MeshCounts, kPartitionCount> mesh{};  // per partition, when the vector stages ran
    bool ok = false;
    std::string error;  // which stage failed and why, when !ok
};

using Clock = std::chrono::steady_clock;
inline double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Loads an OBJ into our InputMesh; the same triangles feed both implementations.
inline nav::Status load_mesh(const std::string& path, nav::InputMesh& mesh) { return nav::load_obj(path, mesh); }

// Distinct non-zero ids in a region-id array (the kBorderRegion flag is kept: border regions
// are distinct regions, and with border_size 0 there are none).
inline int count_distinct_regions(const uint16_t* reg, size_t n, std::vector<uint8_t>& seen) {
    seen.assign(65536, 0);
    int count = 0;
    for (size_t i = 0; i < n; ++i) {
        const uint16_t r = reg[i];
        if (r != 0 && !seen[r]) {
            seen[r] = 1;
            ++count;
        }
    }
    return count;
}

// Sum of the xz-projected areas of the polygons of a polygon mesh in Recast's layout (nvp vertex
// indices then nvp neighbours per polygon, unused = 0xffff; vertices x, y, z in voxel units), in
// square metres: the shoelace formula in cell units, times cs^2. Both meshes go through this one
// function, so the comparison measures the polygons and not two formulas.
inline double poly_mesh_area(const uint16_t* verts, const uint16_t* polys, int npolys, int nvp, float cs) {
    double area = 0.0;
    for (int i = 0; i < npolys; ++i) {
        const uint16_t* p = polys + static_cast<size_t>(i) * 2 * static_cast<size_t>(nvp);
        int n = 0;
        while (n < nvp && p[n] != 0xffff) ++n;
        double a2 = 0.0;
        for (int k = 0; k < n; ++k) {
            const uint16_t* va = verts + static_cast<size_t>(p[k]) * 3;
            const uint16_t* vb = verts + static_cast<size_t>(p[(k + 1) % n]) * 3;
            a2 += static_cast<double>(va[0]) * vb[2] - static_cast<double>(vb[0]) * va[2];
        }
        area += std::abs(a2) * 0.5;
    }
    return area * static_cast<double>(cs) * static_cast<double>(cs);
}

// Recast's configuration for the voxel stages, copied from our derived configuration so that both
// use identical voxel units and grid.
inline rcConfig to_rc_config(const nav::BakeConfig& c) {
    rcConfig rc;
    std::memset(&rc, 0, sizeof(rc));
    rc.width = c.width;
    rc.height = c.height;
    rc.borderSize = c.border_size;
    rc.cs = c.cs;
    rc.ch = c.ch;
    for (int i = 0; i < 3; ++i) {
        rc.bmin[i] = c.bmin[i];
        rc.bmax[i] = c.bmax[i];
    }
    rc.walkableSlopeAngle = c.walkable_slope_deg;
    rc.walkableHeight = c.walkable_height;
    rc.walkableClimb = c.walkable_climb;
    rc.walkableRadius = c.walkable_radius;
    rc.minRegionArea = c.min_region_area;
    rc.mergeRegionArea = c.merge_region_area;
    rc.maxEdgeLen = c.max_edge_len;
    rc.maxSimplificationError = c.max_simplification_error;
    rc.maxVertsPerPoly = c.verts_per_poly;
    rc.detailSampleDist = c.detail_sample_dist;
    rc.detailSampleMaxError = c.detail_sample_max_error;
    return rc;
}

// ---------------------------------------------------------------------------------------------
// Recast side. Owns the Recast objects of the last run; frees them on destruction or re-run.
struct RecastVoxels {
    rcContext ctx{false};  // logging and timers disabled
    rcHeightfield* hf = nullptr;
    rcCompactHeightfield* chf = nullptr;
    std::vector<unsigned char> tri_areas;
    std::vector<uint16_t> dist;                                  // copy of chf->dist
    std::array<std::vector<uint16_t>, kPartitionCount> regions;  // copy of spans[].reg per partition
    std::array<rcContourSet*, kPartitionCount> cset{};           // per partition, when built
    std::array<rcPolyMesh*, kPartitionCount> pmesh{};
    std::array<rcPolyMeshDetail*, kPartitionCount> dmesh{};
    std::vector<uint8_t> seen;

    RecastVoxels() = default;
    RecastVoxels(const RecastVoxels&) = delete;
    RecastVoxels& operator=(const RecastVoxels&) = delete;
    ~RecastVoxels() { release(); }
    void release() {
        if (hf) rcFreeHeightField(hf);
        if (chf) rcFreeCompactHeightfield(chf);
        hf = nullptr;
        chf = nullptr;
        for (int p = 0; p < kPartitionCount; ++p) {
            if (cset[p]) rcFreeContourSet(cset[p]);
            if (pmesh[p]) rcFreePolyMesh(pmesh[p]);
            if (dmesh[p]) rcFreePolyMeshDetail(dmesh[p]);
            cset[p] = nullptr;
            pmesh[p] = nullptr;
            dmesh[p] = nullptr;
        }
    }
};

// Recast's vector stages on the regions now on rv.chf's spans (partition p), as Sample_SoloMesh
// runs them: contours with wall-edge tessellation, the polygon mesh, the detail mesh.
inline bool run_recast_mesh(const rcConfig& rc, RecastVoxels& rv, int p, VoxelRun& run) {
    rcContext* ctx = &rv.ctx;
    rcCompactHeightfield& chf = *rv.chf;
    const std::string part(nav::kPartitionNames[p]);

    auto t = Clock::now();
    rv.cset[p] = rcAllocContourSet();
    if (!rv.cset[p] ||
        !rcBuildContours(ctx, chf, rc.maxSimplificationError, rc.maxEdgeLen, *rv.cset[p], RC_CONTOUR_TESS_WALL_EDGES)) {
        run.error = "recast: rcBuildContours (" + part + ") failed";
        return false;
    }
    run.ms.contours[p] = ms_since(t);

    t = Clock::now();
    rv.pmesh[p] = rcAllocPolyMesh();
    if (!rv.pmesh[p] || !rcBuildPolyMesh(ctx, *rv.cset[p], rc.maxVertsPerPoly, *rv.pmesh[p])) {
        run.error = "recast: rcBuildPolyMesh (" + part + ") failed";
        return false;
    }
    run.ms.polymesh[p] = ms_since(t);

    t = Clock::now();
    rv.dmesh[p] = rcAllocPolyMeshDetail();
    if (!rv.dmesh[p] ||
        !rcBuildPolyMeshDetail(ctx, *rv.pmesh[p], chf, rc.detailSampleDist, rc.detailSampleMaxError, *rv.dmesh[p])) {
        run.error = "recast: rcBuildPolyMeshDetail (" + part + ") failed";
        return false;
    }
    run.ms.detail[p] = ms_since(t);

    MeshCounts& m = run.mesh[p];
    const rcContourSet& cs = *rv.cset[p];
    for (int i = 0; i < cs.nconts; ++i) {
        m.contours += cs.conts[i].nverts > 0;
        m.contour_verts += cs.conts[i].nverts;
    }
    const rcPolyMesh& pm = *rv.pmesh[p];
    m.poly_verts = pm.nverts;
    m.polys = pm.npolys;
    m.detail_verts = rv.dmesh[p]->nverts;
    m.detail_tris = rv.dmesh[p]->ntris;
    m.walkable_area = poly_mesh_area(pm.verts, pm.polys, pm.npolys, pm.nvp, pm.cs);
    return true;
}

inline int64_t rc_count_spans(const rcHeightfield& hf, bool walkable_only) {
    int64_t n = 0;
    for (int i = 0; i < hf.width * hf.height; ++i)
        for (const rcSpan* s = hf.spans[i]; s; s = s->next)
            if (!walkable_only || s->area != RC_NULL_AREA) ++n;
    return n;
}

// Runs Recast's pipeline (as Sample_SoloMesh does, minus the debug draw) and builds the regions of
// every partition in `partitions` from the same eroded compact heightfield, each followed by the
// vector stages when `mesh_stages` is set. When `count_after_rasterize` is set, the walkable solid
// spans right after rasterization are counted (untimed) before the filters run.
//
// keep_cells (tiles): x0, z0, x1, z1 in the heightfield's cells; columns outside [x0, x1) x [z0, z1)
// are emptied after rasterizing. Our tiles see only the cells of the solo grid (pipeline.cpp,
// clip_to_solo_grid), where RecastDemo's Sample_TileMesh rasterizes the whole tile; the reference
// applies the same window (tile_keep_cells) so every later stage is still compared with Recast's.
inline VoxelRun run_recast(const nav::InputMesh& mesh, const nav::BakeConfig& cfg, RecastVoxels& rv,
                           unsigned partitions = kAllPartitions, bool count_after_rasterize = false,
                           bool mesh_stages = true, const int* keep_cells = nullptr) {
    VoxelRun run;
    rv.release();
    const rcConfig rc = to_rc_config(cfg);
    const int nv = mesh.vert_count(), nt = mesh.tri_count();
    rcContext* ctx = &rv.ctx;

    auto t = Clock::now();
    rv.tri_areas.assign(static_cast<size_t>(nt), RC_NULL_AREA);
    rcMarkWalkableTriangles(ctx, rc.walkableSlopeAngle, mesh.verts.data(), nv, mesh.tris.data(), nt,
                            rv.tri_areas.data());
    run.ms.input = ms_since(t);

    t = Clock::now();
    rv.hf = rcAllocHeightfield();
    if (!rv.hf || !rcCreateHeightfield(ctx, *rv.hf, rc.width, rc.height, rc.bmin, rc.bmax, rc.cs, rc.ch)) {
        run.error = "recast: rcCreateHeightfield failed";
        return run;
    }
    if (!rcRasterizeTriangles(ctx, mesh.verts.data(), nv, mesh.tris.data(), rv.tri_areas.data(), nt, *rv.hf,
                              rc.walkableClimb)) {
        run.error = "recast: rcRasterizeTriangles failed";
        return run;
    }
    if (keep_cells)
        for (int z = 0; z < rv.hf->height; ++z)
            for (int x = 0; x < rv.hf->width; ++x)
                if (x < keep_cells[0] || z < keep_cells[1] || x >= keep_cells[2] || z >= keep_cells[3])
                    rv.hf->spans[x + z * rv.hf->width] = nullptr;  // the spans stay in the pool it frees
    run.ms.rasterize = ms_since(t);
    if (count_after_rasterize) run.counts.solid_walkable = rc_count_spans(*rv.hf, true);

    t = Clock::now();
    if (cfg.filter_low_hanging) rcFilterLowHangingWalkableObstacles(ctx, rc.walkableClimb, *rv.hf);
    if (cfg.filter_ledge) rcFilterLedgeSpans(ctx, rc.walkableHeight, rc.walkableClimb, *rv.hf);
    if (cfg.filter_low_height) rcFilterWalkableLowHeightSpans(ctx, rc.walkableHeight, *rv.hf);
    run.ms.filter = ms_since(t);

    t = Clock::now();
    rv.chf = rcAllocCompactHeightfield();
    if (!rv.chf || !rcBuildCompactHeightfield(ctx, rc.walkableHeight, rc.walkableClimb, *rv.hf, *rv.chf)) {
        run.error = "recast: rcBuildCompactHeightfield failed";
        return run;
    }
    run.ms.compact = ms_since(t);

    t = Clock::now();
    if (!rcErodeWalkableArea(ctx, rc.walkableRadius, *rv.chf)) {
        run.error = "recast: rcErodeWalkableArea failed";
        return run;
    }
    run.ms.erode = ms_since(t);

    t = Clock::now();
    if (!rcBuildDistanceField(ctx, *rv.chf)) {
        run.error = "recast: rcBuildDistanceField failed";
        return run;
    }
    run.ms.distance = ms_since(t);

    rcCompactHeightfield& chf = *rv.chf;
    const size_t ns = static_cast<size_t>(chf.spanCount);
    for (int p = 0; p < kPartitionCount; ++p) {
        rv.regions[p].clear();
        if (!(partitions & (1u << p))) continue;
        bool built = false;
        t = Clock::now();
        switch (static_cast<nav::Partition>(p)) {
            case nav::Partition::Watershed:
                built = rcBuildRegions(ctx, chf, rc.borderSize, rc.minRegionArea, rc.mergeRegionArea);
                break;
            case nav::Partition::Monotone:
                built = rcBuildRegionsMonotone(ctx, chf, rc.borderSize, rc.minRegionArea, rc.mergeRegionArea);
                break;
            case nav::Partition::Layers:
                built = rcBuildLayerRegions(ctx, chf, rc.borderSize, rc.minRegionArea);
                break;
        }
        run.ms.regions[p] = ms_since(t);
        if (!built) {
            run.error = std::string("recast: regions (") + std::string(nav::kPartitionNames[p]) + ") failed";
            return run;
        }
        // Untimed: keep this partition's ids (the next partition overwrites them on the spans).
        rv.regions[p].resize(ns);
        for (size_t i = 0; i < ns; ++i) rv.regions[p][i] = chf.spans[i].reg;
        run.counts.regions[p] = count_distinct_regions(rv.regions[p].data(), ns, rv.seen);
        if (mesh_stages && !run_recast_mesh(rc, rv, p, run)) return run;
    }

    // Counts, outside the timed sections.
    VoxelCounts& c = run.counts;
    c.walkable_tris = static_cast<int>(std::count_if(rv.tri_areas.begin(), rv.tri_areas.end(),
                                                     [](unsigned char a) { return a != RC_NULL_AREA; }));
    c.filtered_walkable = rc_count_spans(*rv.hf, true);
    c.solid_spans = rc_count_spans(*rv.hf, false);  // the filters never remove spans
    c.compact_spans = chf.spanCount;
    c.walkable_spans = std::count_if(chf.areas, chf.areas + ns, [](unsigned char a) { return a != RC_NULL_AREA; });
    c.max_dist = chf.maxDistance;
    rv.dist.assign(chf.dist, chf.dist + ns);
    run.ok = true;
    return run;
}

// ---------------------------------------------------------------------------------------------
// Our side, calling the core stage functions directly. Buffers live here and are reused from one
// run to the next, as the pipeline reuses them.
struct OurVoxels {
    std::vector<uint8_t> tri_areas;
    nav::Heightfield hf;
    nav::CompactHeightfield chf;
    std::vector<uint8_t> eroded;
    std::vector<uint8_t> scratch;
    nav::DistanceField df;
    std::array<nav::Regions, kPartitionCount> regions;
    std::array<nav::ContourSet, kPartitionCount> cset;
    std::array<nav::PolyMesh, kPartitionCount> pmesh;
    std::array<nav::PolyMeshDetail, kPartitionCount> dmesh;
    std::vector<uint8_t> seen;
};

// Our vector stages on partition p's regions, with the pipeline's arguments.
// The cells of tile (tx, tz)'s bordered grid that lie in the solo grid of c (run_recast's keep_cells).
inline std::array<int, 4> tile_keep_cells(const nav::BakeConfig& c, const nav::TileLayout& L, int tx, int tz) {
    const int x0 = tx * L.tile_size - L.border, z0 = tz * L.tile_size - L.border;
    return {std::max(0, -x0), std::max(0, -z0), c.width - x0, c.height - z0};
}

inline bool run_ours_mesh(const nav::BakeConfig& cfg, OurVoxels& ov, int p, VoxelRun& run) {
    const std::string part(nav::kPartitionNames[p]);
    auto t = Clock::now();
    nav::Status st = nav::build_contours(ov.chf, ov.eroded, ov.regions[p], cfg.max_simplification_error,
                                         cfg.max_edge_len, nav::kTessWallEdges, ov.cset[p]);
    run.ms.contours[p] = ms_since(t);
    if (!st) {
        run.error = "ours: contours (" + part + "): " + st.message;
        return false;
    }

    t = Clock::now();
    st = nav::build_poly_mesh(ov.cset[p], cfg.verts_per_poly, ov.pmesh[p]);
    run.ms.polymesh[p] = ms_since(t);
    if (!st) {
        run.error = "ours: polymesh (" + part + "): " + st.message;
        return false;
    }

    t = Clock::now();
    st = nav::build_poly_mesh_detail(ov.pmesh[p], ov.chf, ov.regions[p], cfg.detail_sample_dist,
                                     cfg.detail_sample_max_error, ov.dmesh[p]);
    run.ms.detail[p] = ms_since(t);
    if (!st) {
        run.error = "ours: detail (" + part + "): " + st.message;
        return false;
    }

    MeshCounts& m = run.mesh[p];
    for (const nav::Contour& c : ov.cset[p].contours) {
        m.contours += c.nverts > 0;
        m.contour_verts += c.nverts;
    }
    const nav::PolyMesh& pm = ov.pmesh[p];
    m.poly_verts = pm.nverts;
    m.polys = pm.npolys;
    m.detail_verts = ov.dmesh[p].nverts;
    m.detail_tris = ov.dmesh[p].ntris;
    m.walkable_area = poly_mesh_area(pm.verts.data(), pm.polys.data(), pm.npolys, pm.nvp, pm.cs);
    m.warnings = static_cast<int>(ov.cset[p].warnings.size() + pm.warnings.size());
    return true;
}

inline int64_t our_count_spans(const nav::Heightfield& hf, bool walkable_only) {
    int64_t n = 0;
    for (uint32_t first : hf.columns)
        for (uint32_t s = first; s != nav::kNullSpan; s = hf.pool[s].next)
            if (!walkable_only || hf.pool[s].area != nav::kNullArea) ++n;
    return n;
}

// Runs our stages: the voxel stages, then per partition in `partitions` the regions and, when
// `mesh_stages` is set, the vector stages. When `count_after_rasterize` is set, the walkable solid
// spans right after rasterization are counted (untimed) before the filters run.
inline VoxelRun run_ours(const nav::InputMesh& mesh, const nav::BakeConfig& cfg, OurVoxels& ov,
                         unsigned partitions = kAllPartitions, bool count_after_rasterize = false,
                         bool mesh_stages = true) {
    VoxelRun run;
    const int nv = mesh.vert_count(), nt = mesh.tri_count();

    auto t = Clock::now();
    ov.tri_areas.resize(static_cast<size_t>(nt));
    nav::mark_walkable_triangles(cfg.walkable_slope_deg, mesh.verts.data(), mesh.tris.data(), nt, ov.tri_areas.data());
    run.ms.input = ms_since(t);

    t = Clock::now();
    ov.hf.reset(cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch, cfg.border_size);
    nav::Status st = nav::rasterize_triangles(mesh.verts.data(), nv, mesh.tris.data(), ov.tri_areas.data(), nt,
                                              ov.hf, cfg.walkable_climb);
    run.ms.rasterize = ms_since(t);
    if (!st) {
        run.error = "ours: rasterize: " + st.message;
        return run;
    }
    if (count_after_rasterize) run.counts.solid_walkable = our_count_spans(ov.hf, true);

    t = Clock::now();
    if (cfg.filter_low_hanging) nav::filter_low_hanging_obstacles(cfg.walkable_climb, ov.hf);
    if (cfg.filter_ledge) nav::filter_ledge_spans(cfg.walkable_height, cfg.walkable_climb, ov.hf);
    if (cfg.filter_low_height) nav::filter_walkable_low_height_spans(cfg.walkable_height, ov.hf);
    run.ms.filter = ms_since(t);

    t = Clock::now();
    st = nav::build_compact_heightfield(cfg.walkable_height, cfg.walkable_climb, ov.hf, ov.chf);
    run.ms.compact = ms_since(t);
    if (!st) {
        run.error = "ours: compact: " + st.message;
        return run;
    }

    t = Clock::now();
    ov.eroded.assign(ov.chf.areas.begin(), ov.chf.areas.end());
    st = nav::erode_walkable_area(cfg.walkable_radius, ov.chf, ov.eroded, ov.scratch);
    run.ms.erode = ms_since(t);
    if (!st) {
        run.error = "ours: erode: " + st.message;
        return run;
    }

    t = Clock::now();
    st = nav::build_distance_field(ov.chf, ov.eroded, ov.df);
    run.ms.distance = ms_since(t);
    if (!st) {
        run.error = "ours: distance: " + st.message;
        return run;
    }

    for (int p = 0; p < kPartitionCount; ++p) {
        if (!(partitions & (1u << p))) continue;
        nav::Regions& r = ov.regions[p];
        t = Clock::now();
        switch (static_cast<nav::Partition>(p)) {
            case nav::Partition::Watershed:
                st = nav::build_regions_watershed(ov.chf, ov.eroded, ov.df, cfg.border_size, cfg.min_region_area,
                                                  cfg.merge_region_area, r);
                break;
            case nav::Partition::Monotone:
                st = nav::build_regions_monotone(ov.chf, ov.eroded, cfg.border_size, cfg.min_region_area,
                                                 cfg.merge_region_area, r);
                break;
            case nav::Partition::Layers:
                st = nav::build_regions_layers(ov.chf, ov.eroded, cfg.border_size, cfg.min_region_area, r);
                break;
        }
        run.ms.regions[p] = ms_since(t);
        if (!st) {
            run.error = "ours: regions (" + std::string(nav::kPartitionNames[p]) + "): " + st.message;
            return run;
        }
        if (mesh_stages && !run_ours_mesh(cfg, ov, p, run)) return run;
        run.counts.regions[p] = count_distinct_regions(r.reg.data(), r.reg.size(), ov.seen);
    }

    VoxelCounts& c = run.counts;
    c.walkable_tris = static_cast<int>(std::count_if(ov.tri_areas.begin(), ov.tri_areas.end(),
                                                     [](uint8_t a) { return a != nav::kNullArea; }));
    c.solid_spans = our_count_spans(ov.hf, false);
    c.filtered_walkable = our_count_spans(ov.hf, true);
    c.compact_spans = ov.chf.span_count;
    c.walkable_spans = std::count_if(ov.eroded.begin(), ov.eroded.end(), [](uint8_t a) { return a != nav::kNullArea; });
    c.max_dist = ov.df.max_dist;
    run.ok = true;
    return run;
}

// ---------------------------------------------------------------------------------------------
// Cell-by-cell comparison of the two compact heightfields (and of what was computed on them).
struct CompactDiff {
    bool same_grid = false;
    int64_t cells = 0;
    int64_t cells_count_differs = 0;  // cells whose span count differs
    // Over the cells with equal span counts, span by span in column order:
    int64_t spans_compared = 0;
    int64_t y_differs = 0, h_differs = 0, con_differs = 0;
    int64_t area_differs = 0;  // after erosion
    int64_t dist_differs = 0;
    std::array<int64_t, kPartitionCount> reg_differs{};  // region id differs (ids compared as-is)
    int first_bad_x = -1, first_bad_z = -1;             // first cell whose span count differs
    int first_bad_ours = 0, first_bad_recast = 0;
};

inline CompactDiff compare_compact(const RecastVoxels& rv, const OurVoxels& ov) {
    CompactDiff d;
    const rcCompactHeightfield& rc = *rv.chf;
    const nav::CompactHeightfield& ch = ov.chf;
    d.same_grid = rc.width == ch.width && rc.height == ch.height;
    if (!d.same_grid) return d;
    d.cells = static_cast<int64_t>(ch.width) * ch.height;
    const bool have_dist = rv.dist.size() == ov.df.dist.size();
    for (int z = 0; z < ch.height; ++z) {
        for (int x = 0; x < ch.width; ++x) {
            const size_t ci = static_cast<size_t>(x + z * ch.width);
            const rcCompactCell& rcell = rc.cells[ci];
            const nav::CompactCell& ocell = ch.cells[ci];
            if (rcell.count != ocell.count) {
                if (d.cells_count_differs == 0) {
                    d.first_bad_x = x;
                    d.first_bad_z = z;
                    d.first_bad_ours = static_cast<int>(ocell.count);
                    d.first_bad_recast = static_cast<int>(rcell.count);
                }
                ++d.cells_count_differs;
                continue;
            }
            for (uint32_t k = 0; k < ocell.count; ++k) {
                const size_t ri = rcell.index + k, oi = ocell.index + k;
                const rcCompactSpan& rs = rc.spans[ri];
                const nav::CompactSpan& os = ch.spans[oi];
                ++d.spans_compared;
                if (rs.y != os.y) ++d.y_differs;
                if (static_cast<int>(rs.h) != static_cast<int>(os.h)) ++d.h_differs;
                bool con_same = true;
                for (int dir = 0; dir < 4; ++dir)
                    if (rcGetCon(rs, dir) != nav::get_con(os, dir)) con_same = false;
                if (!con_same) ++d.con_differs;
                if (rc.areas[ri] != ov.eroded[oi]) ++d.area_differs;
                if (have_dist && rv.dist[ri] != ov.df.dist[oi]) ++d.dist_differs;
                for (int p = 0; p < kPartitionCount; ++p) {
                    const auto& rr = rv.regions[p];
                    const auto& orr = ov.regions[p].reg;
                    if (rr.empty() || orr.size() < ov.chf.span_count) continue;
                    if (rr[ri] != orr[oi]) ++d.reg_differs[p];
                }
            }
        }
    }
    return d;
}

// Column-by-column comparison of the two solid heightfields after the filters.
struct SolidDiff {
    bool same_grid = false;
    int64_t columns_count_differs = 0;  // columns whose span count differs
    int64_t spans_compared = 0;         // over columns with equal span counts, bottom to top
    int64_t bounds_differ = 0;          // smin or smax differs
    int64_t area_differs = 0;           // area after the filters differs
    int first_bad_x = -1, first_bad_z = -1;
};

inline SolidDiff compare_solid(const RecastVoxels& rv, const OurVoxels& ov) {
    SolidDiff d;
    const rcHeightfield& rc = *rv.hf;
    const nav::Heightfield& hf = ov.hf;
    d.same_grid = rc.width == hf.width && rc.height == hf.height;
    if (!d.same_grid) return d;
    for (int z = 0; z < hf.height; ++z) {
        for (int x = 0; x < hf.width; ++x) {
            const size_t ci = static_cast<size_t>(x + z * hf.width);
            int nr = 0, no = 0;
            for (const rcSpan* s = rc.spans[ci]; s; s = s->next) ++nr;
            for (uint32_t s = hf.columns[ci]; s != nav::kNullSpan; s = hf.pool[s].next) ++no;
            if (nr != no) {
                if (d.columns_count_differs == 0) {
                    d.first_bad_x = x;
                    d.first_bad_z = z;
                }
                ++d.columns_count_differs;
                continue;
            }
            const rcSpan* r = rc.spans[ci];
            for (uint32_t s = hf.columns[ci]; s != nav::kNullSpan; s = hf.pool[s].next, r = r->next) {
                const nav::Span& o = hf.pool[s];
                ++d.spans_compared;
                if (r->smin != o.smin || r->smax != o.smax) ++d.bounds_differ;
                if (r->area != o.area) ++d.area_differs;
            }
        }
    }
    return d;
}

// Relative difference |a - b| / max(|b|, 1).
inline double rel_diff(double a, double b) {
    const double den = std::max(std::abs(b), 1.0);
    return std::abs(a - b) / den;
}

}  // namespace navdiff
