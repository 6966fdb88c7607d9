// Differential tests of the voxel stages (input marking through regions) against Debian's
// Recast 1.5.1 on the shared benchmark meshes, with identical voxel parameters (both sides use
// nav::derive_config).
//
// Tolerances:
//  - solid spans, compact spans and walkable spans after erosion: within 0.1% of Recast;
//  - cells of the compact heightfield whose span count differs: at most 0.1% of the cells;
//  - distinct regions per partition: within max(2, 10%) of Recast (region ids may be numbered
//    differently, so only counts are compared; the id-by-id agreement is reported);
//  - maximum of the distance field: equal.
//
// Intentional differences from Recast 1.5.1, named here and checked where they could matter:
//  - Span heights: Recast packs smin/smax in 13 bits (RC_SPAN_MAX_HEIGHT = 8191), ours are
//    16-bit (kSpanMaxHeight = 65535), so ours does not clip tall scenes. The comparison is only
//    meaningful when the mesh's height fits in 8191 cells, which every case asserts first
//    ("height fits Recast's 13-bit spans").
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>

#include "diff/recast_ref.h"
#include "test_scenes.h"

namespace {

using navdiff::VoxelCounts;

constexpr double kSpanTolerance = 0.001;   // 0.1%
constexpr double kRegionTolerance = 0.10;  // 10%
constexpr int kRegionSlack = 2;

bool within_rel(int64_t ours, int64_t recast, double rel) {
    const double diff = static_cast<double>(ours > recast ? ours - recast : recast - ours);
    return diff <= rel * static_cast<double>(recast > 0 ? recast : 1);
}

bool regions_close(int ours, int recast) {
    const int diff = ours > recast ? ours - recast : recast - ours;
    const double allowed = std::max(static_cast<double>(kRegionSlack), kRegionTolerance * recast);
    return diff <= allowed;
}

std::string row(const char* what, int64_t recast, int64_t ours) {
    char buf[160];
    const int64_t d = ours - recast;
    const double pct = recast != 0 ? 100.0 * static_cast<double>(d) / static_cast<double>(recast) : 0.0;
    std::snprintf(buf, sizeof buf, "  %-26s recast %10lld  ours %10lld  diff %+8lld (%+.3f%%)\n", what,
                  static_cast<long long>(recast), static_cast<long long>(ours), static_cast<long long>(d), pct);
    return buf;
}

std::string counts_report(const VoxelCounts& r, const VoxelCounts& o) {
    std::string s;
    s += row("walkable triangles", r.walkable_tris, o.walkable_tris);
    s += row("solid spans", r.solid_spans, o.solid_spans);
    s += row("walkable after rasterize", r.solid_walkable, o.solid_walkable);
    s += row("walkable after filters", r.filtered_walkable, o.filtered_walkable);
    s += row("compact spans", r.compact_spans, o.compact_spans);
    s += row("walkable after erosion", r.walkable_spans, o.walkable_spans);
    s += row("max distance", r.max_dist, o.max_dist);
    for (int p = 0; p < navdiff::kPartitionCount; ++p) {
        const std::string what = "regions " + std::string(nav::kPartitionNames[p]);
        s += row(what.c_str(), r.regions[p], o.regions[p]);
    }
    return s;
}

std::string cells_report(const navdiff::SolidDiff& sd, const navdiff::CompactDiff& cd) {
    char buf[1024];
    char first_solid[64] = "", first_compact[96] = "";
    if (sd.columns_count_differs > 0)
        std::snprintf(first_solid, sizeof first_solid, " (first at x=%d z=%d)", sd.first_bad_x, sd.first_bad_z);
    if (cd.cells_count_differs > 0)
        std::snprintf(first_compact, sizeof first_compact, " (first at x=%d z=%d: ours %d, recast %d)",
                      cd.first_bad_x, cd.first_bad_z, cd.first_bad_ours, cd.first_bad_recast);
    std::snprintf(buf, sizeof buf,
                  "  solid columns with a different span count: %lld%s\n"
                  "  solid spans compared %lld: smin/smax differ %lld, area after filters differs %lld\n"
                  "  compact cells %lld, span count differs in %lld%s\n"
                  "  compact spans compared %lld: y differs %lld, h differs %lld, links differ %lld,\n"
                  "    eroded area differs %lld, distance differs %lld,\n"
                  "    region id differs: watershed %lld, monotone %lld, layers %lld\n",
                  static_cast<long long>(sd.columns_count_differs), first_solid,
                  static_cast<long long>(sd.spans_compared), static_cast<long long>(sd.bounds_differ),
                  static_cast<long long>(sd.area_differs), static_cast<long long>(cd.cells),
                  static_cast<long long>(cd.cells_count_differs), first_compact,
                  static_cast<long long>(cd.spans_compared), static_cast<long long>(cd.y_differs),
                  static_cast<long long>(cd.h_differs), static_cast<long long>(cd.con_differs),
                  static_cast<long long>(cd.area_differs), static_cast<long long>(cd.dist_differs),
                  static_cast<long long>(cd.reg_differs[0]), static_cast<long long>(cd.reg_differs[1]),
                  static_cast<long long>(cd.reg_differs[2]));
    return buf;
}

// Runs both pipelines on one mesh and parameter set and checks the agreement.
void diff_mesh(const char* file_name, const nav::Params& params, const std::string& label) {
    const std::string file = file_name;  // doctest streams a const char* as a pointer
    const std::string path = navtest::shared_mesh_or_skip(file_name);
    if (path.empty()) return;
    INFO("mesh " << file << ", " << label);

    nav::InputMesh mesh;
    const nav::Status ls = navdiff::load_mesh(path, mesh);
    REQUIRE_MESSAGE(ls.is_ok(), ls.message);
    const nav::BakeConfig cfg = nav::derive_config(params, mesh.bmin, mesh.bmax);
    REQUIRE(cfg.width > 0);
    REQUIRE(cfg.height > 0);

    // Our derived grid is Recast's.
    int gw = 0, gh = 0;
    rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &gw, &gh);
    CHECK(gw == cfg.width);
    CHECK(gh == cfg.height);
    // Intentional difference (span height bits): only comparable when Recast does not clip.
    REQUIRE_MESSAGE((cfg.bmax[1] - cfg.bmin[1]) / cfg.ch < static_cast<float>(RC_SPAN_MAX_HEIGHT),
                    "mesh height must fit Recast's 13-bit spans for the comparison to be meaningful");

    navdiff::RecastVoxels rv;
    navdiff::OurVoxels ov;
    const navdiff::VoxelRun r = navdiff::run_recast(mesh, cfg, rv, navdiff::kAllPartitions, true);
    REQUIRE_MESSAGE(r.ok, r.error);
    const navdiff::VoxelRun o = navdiff::run_ours(mesh, cfg, ov, navdiff::kAllPartitions, true);
    REQUIRE_MESSAGE(o.ok, o.error);

    const navdiff::SolidDiff sd = navdiff::compare_solid(rv, ov);
    const navdiff::CompactDiff cd = navdiff::compare_compact(rv, ov);
    MESSAGE(file << " [" << label << "] grid " << cfg.width << " x " << cfg.height << ", " << mesh.tri_count()
                 << " triangles\n"
                 << counts_report(r.counts, o.counts) << cells_report(sd, cd));

    const VoxelCounts& rc = r.counts;
    const VoxelCounts& oc = o.counts;
    CHECK(oc.walkable_tris == rc.walkable_tris);
    CHECK(within_rel(oc.solid_spans, rc.solid_spans, kSpanTolerance));
    CHECK(within_rel(oc.compact_spans, rc.compact_spans, kSpanTolerance));
    CHECK(within_rel(oc.walkable_spans, rc.walkable_spans, kSpanTolerance));
    CHECK(oc.max_dist == rc.max_dist);
    for (int p = 0; p < navdiff::kPartitionCount; ++p) {
        INFO("partition " << nav::kPartitionNames[p] << ": recast " << rc.regions[p] << ", ours " << oc.regions[p]);
        CHECK(regions_close(oc.regions[p], rc.regions[p]));
    }
    REQUIRE(cd.same_grid);
    REQUIRE(sd.same_grid);
    CHECK(static_cast<double>(cd.cells_count_differs) <= kSpanTolerance * static_cast<double>(cd.cells));

    // Erosion and the distance field are deterministic functions of the compact heightfield's
    // structure (spans, links, areas). Where that structure is identical to Recast's, their
    // results must be identical span by span, not merely close.
    if (cd.cells_count_differs == 0 && cd.y_differs == 0 && cd.h_differs == 0 && cd.con_differs == 0 &&
        sd.columns_count_differs == 0 && sd.area_differs == 0) {
        CHECK(cd.area_differs == 0);
        if (cd.area_differs == 0) CHECK(cd.dist_differs == 0);
    }

    // Our own bookkeeping agrees with what is on the spans.
    CHECK(ov.hf.span_count == static_cast<uint32_t>(oc.solid_spans));
    for (int p = 0; p < navdiff::kPartitionCount; ++p) {
        INFO("partition " << nav::kPartitionNames[p]);
        const nav::Regions& reg = ov.regions[p];
        CHECK(reg.reg.size() == ov.chf.span_count);
        CHECK(reg.region_count == oc.regions[p]);
        bool ids_below_max = true;
        for (uint16_t id : reg.reg)
            if ((id & ~nav::kBorderRegion) >= reg.max_region_id && id != 0) ids_below_max = false;
        CHECK(ids_below_max);
    }
}

nav::Params make_params(std::initializer_list<std::pair<nav::ParamId, double>> values) {
    nav::Params p;
    for (const auto& [id, v] : values) {
        const nav::Status s = p.set(id, v);
        REQUIRE_MESSAGE(s.is_ok(), s.message);
    }
    return p;
}

}  // namespace

TEST_CASE("diff voxel: dungeon, default parameters") { diff_mesh("dungeon.obj", nav::Params{}, "defaults"); }

TEST_CASE("diff voxel: nav_test, default parameters") { diff_mesh("nav_test.obj", nav::Params{}, "defaults"); }

TEST_CASE("diff voxel: undulating, default parameters") { diff_mesh("undulating.obj", nav::Params{}, "defaults"); }

TEST_CASE("diff voxel: nav_test, fine voxels (cs 0.2, ch 0.1)") {
    using nav::ParamId;
    diff_mesh("nav_test.obj", make_params({{ParamId::cell_size, 0.2}, {ParamId::cell_height, 0.1}}), "cs 0.2 ch 0.1");
}

TEST_CASE("diff voxel: nav_test, agent radius 0 (no erosion)") {
    using nav::ParamId;
    diff_mesh("nav_test.obj", make_params({{ParamId::agent_radius, 0.0}}), "radius 0");
}

TEST_CASE("diff voxel: nav_test, filters off") {
    using nav::ParamId;
    diff_mesh("nav_test.obj",
              make_params({{ParamId::filter_low_hanging, 0}, {ParamId::filter_ledge, 0}, {ParamId::filter_low_height, 0}}),
              "filters off");
}

TEST_CASE("diff voxel: dungeon, steep short agent, no region merging") {
    using nav::ParamId;
    diff_mesh("dungeon.obj",
              make_params({{ParamId::agent_max_slope, 60.0},
                           {ParamId::agent_height, 1.0},
                           {ParamId::agent_max_climb, 0.4},
                           {ParamId::agent_radius, 1.0},
                           {ParamId::region_min_size, 0},
                           {ParamId::region_merge_size, 0}}),
              "slope 60, height 1, climb 0.4, radius 1, regions 0/0");
}

// The bench and the pipeline reuse one set of buffers from bake to bake: results on buffers last
// used for another mesh and another grid must equal results on fresh buffers (no stale spans,
// free-list entries, links or region ids leak through).
TEST_CASE("diff voxel: our stages give the same result on reused buffers") {
    const std::string first = navtest::shared_mesh_or_skip("dungeon.obj");
    const std::string second = navtest::shared_mesh_or_skip("nav_test.obj");
    if (first.empty() || second.empty()) return;
    nav::InputMesh m1, m2;
    REQUIRE(navdiff::load_mesh(first, m1).is_ok());
    REQUIRE(navdiff::load_mesh(second, m2).is_ok());
    const nav::Params fine = make_params({{nav::ParamId::cell_size, 0.2}, {nav::ParamId::cell_height, 0.1}});
    const nav::BakeConfig c1 = nav::derive_config(fine, m1.bmin, m1.bmax);
    const nav::BakeConfig c2 = nav::derive_config(nav::Params{}, m2.bmin, m2.bmax);

    navdiff::OurVoxels fresh, reused;
    const navdiff::VoxelRun a = navdiff::run_ours(m2, c2, fresh);
    REQUIRE_MESSAGE(a.ok, a.error);
    for (int i = 0; i < 2; ++i) {
        const navdiff::VoxelRun w = navdiff::run_ours(m1, c1, reused);
        REQUIRE_MESSAGE(w.ok, w.error);
    }
    const navdiff::VoxelRun b = navdiff::run_ours(m2, c2, reused);
    REQUIRE_MESSAGE(b.ok, b.error);

    CHECK(b.counts.solid_spans == a.counts.solid_spans);
    CHECK(b.counts.filtered_walkable == a.counts.filtered_walkable);
    CHECK(b.counts.compact_spans == a.counts.compact_spans);
    CHECK(b.counts.walkable_spans == a.counts.walkable_spans);
    CHECK(b.counts.max_dist == a.counts.max_dist);
    CHECK(b.counts.regions == a.counts.regions);
    CHECK(reused.hf.span_count == fresh.hf.span_count);

    const size_t n = fresh.chf.span_count;
    REQUIRE(reused.chf.span_count == n);
    bool spans_equal = true;
    for (size_t i = 0; i < n; ++i) {
        const nav::CompactSpan& x = fresh.chf.spans[i];
        const nav::CompactSpan& y = reused.chf.spans[i];
        if (x.y != y.y || x.h != y.h || x.con != y.con) spans_equal = false;
    }
    CHECK(spans_equal);
    CHECK(std::equal(fresh.eroded.begin(), fresh.eroded.begin() + static_cast<std::ptrdiff_t>(n),
                     reused.eroded.begin()));
    CHECK(std::equal(fresh.df.dist.begin(), fresh.df.dist.begin() + static_cast<std::ptrdiff_t>(n),
                     reused.df.dist.begin()));
    for (int p = 0; p < navdiff::kPartitionCount; ++p) {
        INFO("partition " << nav::kPartitionNames[p]);
        REQUIRE(fresh.regions[p].reg.size() >= n);
        REQUIRE(reused.regions[p].reg.size() >= n);
        CHECK(std::equal(fresh.regions[p].reg.begin(), fresh.regions[p].reg.begin() + static_cast<std::ptrdiff_t>(n),
                         reused.regions[p].reg.begin()));
    }
}
