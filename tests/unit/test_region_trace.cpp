// The region trace (RegionTrace, recorded on request by the three partitions for the debugger's
// replay): replaying it to the end gives the final regions, steps are monotone (no span joins a
// region before the region was seeded; the watershed reaches a span only once its level comes
// down to the span's depth), and recording never changes the result.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "core/bake/distance.h"
#include "core/pipeline/pipeline.h"
#include "core/bake/regions.h"
#include "render/replay_draw.h"  // replay_region: header-only, what the debugger's replay draws
#include "test_scenes.h"

namespace {

using nav::CompactHeightfield;
using nav::RegionTrace;
using nav::Regions;

// A single-storey grid from a mask (row strings, '.' empty, '#' walkable, '~' water): one span at
// y = 0 per marked cell, linked to the marked cells beside it.
CompactHeightfield grid_from_mask(const std::vector<std::string>& rows) {
    CompactHeightfield chf;
    chf.height = static_cast<int>(rows.size());
    chf.width = static_cast<int>(rows[0].size());
    chf.walkable_height = 10;
    chf.walkable_climb = 4;
    chf.cells.resize(static_cast<size_t>(chf.width * chf.height));
    auto at = [&](int x, int z) { return rows[static_cast<size_t>(z)][static_cast<size_t>(x)]; };
    for (int z = 0; z < chf.height; ++z)
        for (int x = 0; x < chf.width; ++x) {
            nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * chf.width)];
            c.index = static_cast<uint32_t>(chf.spans.size());
            c.count = at(x, z) == '.' ? 0 : 1;
            if (c.count == 0) continue;
            nav::CompactSpan s;
            s.y = 0;
            s.h = 255;
            s.con = 0xffffff;
            chf.spans.push_back(s);
            chf.areas.push_back(at(x, z) == '~' ? nav::kAreaWater : nav::kWalkableArea);
        }
    for (int z = 0; z < chf.height; ++z)
        for (int x = 0; x < chf.width; ++x) {
            const nav::CompactCell& c = chf.cells[static_cast<size_t>(x + z * chf.width)];
            if (c.count == 0) continue;
            for (int dir = 0; dir < 4; ++dir) {
                const int nx = x + nav::dir_offset_x(dir), nz = z + nav::dir_offset_z(dir);
                if (nx < 0 || nz < 0 || nx >= chf.width || nz >= chf.height || at(nx, nz) == '.') continue;
                nav::set_con(chf.spans[c.index], dir, 0);
            }
        }
    chf.span_count = static_cast<uint32_t>(chf.spans.size());
    return chf;
}

enum class Part { Watershed, Monotone, Layers };
constexpr Part kParts[] = {Part::Watershed, Part::Monotone, Part::Layers};
std::string part_name(Part p) {
    return p == Part::Watershed ? "watershed" : p == Part::Monotone ? "monotone" : "layers";
}

struct Run {
    Regions regions;
    RegionTrace trace;
    nav::DistanceField df;
};

// Partitions with and without a trace; the two results must be identical.
Run partition(Part p, const CompactHeightfield& chf, const std::vector<uint8_t>& areas, int border, int min_area,
              int merge_area) {
    Run run;
    REQUIRE(nav::build_distance_field(chf, areas, run.df).is_ok());
    Regions plain;
    for (int pass = 0; pass < 2; ++pass) {
        RegionTrace* trace = pass == 0 ? nullptr : &run.trace;
        Regions& out = pass == 0 ? plain : run.regions;
        nav::Status st;
        if (p == Part::Watershed)
            st = nav::build_regions_watershed(chf, areas, run.df, border, min_area, merge_area, out, nullptr, trace);
        else if (p == Part::Monotone)
            st = nav::build_regions_monotone(chf, areas, border, min_area, merge_area, out, nullptr, trace);
        else
            st = nav::build_regions_layers(chf, areas, border, min_area, out, nullptr, trace);
        REQUIRE_MESSAGE(st.is_ok(), st.message);
    }
    CHECK(plain.reg == run.regions.reg);  // recording does not change the result
    CHECK(plain.max_region_id == run.regions.max_region_id);
    CHECK(plain.region_count == run.regions.region_count);
    return run;
}

// Ids a replay shows at growth step k: the pre-filter id of every span reached by then.
std::vector<uint16_t> replay_growth(const RegionTrace& t, int k) {
    std::vector<uint16_t> ids(t.pre_reg.size(), 0);
    for (size_t i = 0; i < ids.size(); ++i)
        if (t.span_step[i] != RegionTrace::kNotReached && t.span_step[i] <= static_cast<uint32_t>(k))
            ids[i] = t.pre_reg[i];
    return ids;
}

// Everything the trace promises (regions.h), checked against the partition's result.
void check_trace(Part p, const CompactHeightfield& chf, const std::vector<uint8_t>& areas, int border, const Run& run) {
    const RegionTrace& t = run.trace;
    const Regions& out = run.regions;
    const RegionTrace::Kind want = p == Part::Watershed  ? RegionTrace::Kind::Watershed
                                   : p == Part::Monotone ? RegionTrace::Kind::Monotone
                                                         : RegionTrace::Kind::Layers;
    CHECK(t.kind == want);
    REQUIRE(t.span_step.size() == chf.span_count);
    REQUIRE(t.pre_reg.size() == chf.span_count);
    const size_t nids = t.pre_max_id();
    REQUIRE(nids >= 1);
    REQUIRE(t.removed.size() == nids);
    REQUIRE(t.final_id.size() == nids);
    const int n = t.step_count();

    // The steps: watershed levels walk down 2 at a time to 0, then the final expansion (0);
    // sweeps: one per row inside the border.
    if (p == Part::Watershed) {
        REQUIRE(n >= 1);
        const uint32_t top = static_cast<uint32_t>((run.df.max_dist + 1) & ~1);
        CHECK(n == static_cast<int>(top / 2) + 1);
        for (int k = 0; k + 1 < n; ++k) CHECK(t.step_value[static_cast<size_t>(k)] == top - 2u * (static_cast<uint32_t>(k) + 1u));
        CHECK(t.step_value.back() == 0);
    } else {
        CHECK(n == std::max(0, chf.height - 2 * border));
        for (int k = 0; k < n; ++k) CHECK(t.step_value[static_cast<size_t>(k)] == static_cast<uint32_t>(border + k));
    }

    // Per span: reached within the steps, never before its region's seed, and for the
    // watershed never before the level came down to the span's depth.
    std::vector<int> cell_of(chf.span_count, -1);
    for (int ci = 0; ci < chf.width * chf.height; ++ci) {
        const nav::CompactCell& c = chf.cells[static_cast<size_t>(ci)];
        for (uint32_t i = c.index; i < c.index + c.count; ++i) cell_of[i] = ci;
    }
    std::set<uint16_t> used;
    int bad_step = 0, bad_seed_order = 0, bad_depth = 0, bad_row = 0, not_reached = 0;
    for (uint32_t i = 0; i < chf.span_count; ++i) {
        const uint16_t pre = t.pre_reg[i];
        const uint32_t s = t.span_step[i];
        CHECK(t.final_of(pre) == out.reg[i]);  // the filter and merge map pre ids to the final ids
        if (out.reg[i] != 0 && (pre == 0 || s == RegionTrace::kNotReached)) ++not_reached;
        if (pre == 0) {
            if (s != RegionTrace::kNotReached) ++bad_step;
            continue;
        }
        if (areas[i] == nav::kNullArea) ++bad_step;
        if (pre & nav::kBorderRegion) {
            if (s != 0) ++bad_step;
            continue;
        }
        used.insert(pre);
        if (pre >= nids || s >= static_cast<uint32_t>(n)) {
            ++bad_step;
            continue;
        }
        if (s < t.seeds[pre].step) ++bad_seed_order;
        if (p == Part::Watershed && s + 1 < static_cast<uint32_t>(n) && run.df.dist[i] + 2u < t.step_value[s]) ++bad_depth;
        if (p != Part::Watershed && cell_of[i] / chf.width != border + static_cast<int>(s)) ++bad_row;
    }
    CHECK(bad_step == 0);
    CHECK(bad_seed_order == 0);
    CHECK(bad_depth == 0);
    CHECK(bad_row == 0);
    CHECK(not_reached == 0);  // every span with a final region was reached by the replay

    // Seeds: every region has one, on a span of its own that joined at the seed step; the
    // watershed seeds at least as deep as the level.
    for (uint16_t id : used) {
        CAPTURE(id);
        const RegionTrace::Seed& sd = t.seeds[id];
        REQUIRE(sd.span != RegionTrace::kNoSeedSpan);
        REQUIRE(sd.span < chf.span_count);
        CHECK(t.pre_reg[sd.span] == id);
        CHECK(t.span_step[sd.span] == sd.step);
        if (p == Part::Watershed) CHECK(run.df.dist[sd.span] >= t.step_value[sd.step]);
        // Only the filter sets an id to 0; a removed region ends with no id.
        CHECK((t.removed[id] != 0) == (t.final_id[id] == 0));
    }
    for (size_t id = 0; id < nids; ++id)
        if (t.seeds[id].span != RegionTrace::kNoSeedSpan) CHECK(used.count(static_cast<uint16_t>(id)) == 1);

    // Regions grow over links: a span other than the seed joins when a linked span of its
    // region has joined already (at the same step or before).
    int detached = 0;
    for (uint32_t i = 0; i < chf.span_count; ++i) {
        const uint16_t pre = t.pre_reg[i];
        if (pre == 0 || (pre & nav::kBorderRegion) || t.seeds[pre].span == i) continue;
        const int x = cell_of[i] % chf.width, z = cell_of[i] / chf.width;
        bool linked = false;
        for (int dir = 0; dir < 4 && !linked; ++dir) {
            if (nav::get_con(chf.spans[i], dir) == nav::kNotConnected) continue;
            const uint32_t j = chf.neighbour(x, z, i, dir);
            linked = t.pre_reg[j] == pre && t.span_step[j] <= t.span_step[i];
        }
        detached += !linked;
    }
    CHECK(detached == 0);

    // Replay step by step: the reached spans only grow, and the last growth step, then the
    // filter and the merge, give the final regions exactly.
    size_t prev = 0;
    for (int k = 0; k < n; ++k) {
        const auto ids = replay_growth(t, k);
        const size_t reached = static_cast<size_t>(std::count_if(ids.begin(), ids.end(), [](uint16_t v) { return v != 0; }));
        CHECK(reached >= prev);
        prev = reached;
    }
    std::vector<uint16_t> ids = n > 0 ? replay_growth(t, n - 1) : t.pre_reg;
    CHECK(ids == t.pre_reg);
    for (uint16_t& v : ids)
        if (!(v & nav::kBorderRegion) && v < nids && t.removed[v]) v = 0;  // filter
    for (uint16_t& v : ids) v = t.final_of(v);                             // merge and renumber
    CHECK(ids == out.reg);

    // The debugger's replay (render/replay_draw.h) shows the same: the growth steps, then the
    // filter, then the final regions at its last step and beyond.
    const int total = nav::render::replay_step_count(t);
    CHECK(total == n + 2);
    int growth_mismatch = 0, filter_mismatch = 0, final_mismatch = 0;
    const auto mid = replay_growth(t, n / 2);
    for (uint32_t i = 0; i < chf.span_count; ++i) {
        if (n > 0 && nav::render::replay_region(t, n / 2, i) != mid[i]) ++growth_mismatch;
        const uint16_t pre = t.pre_reg[i];
        const bool dropped = pre != 0 && !(pre & nav::kBorderRegion) && t.removed[pre];
        if (nav::render::replay_region(t, n, i) != (dropped ? 0 : pre)) ++filter_mismatch;
        if (nav::render::replay_region(t, total - 1, i) != out.reg[i]) ++final_mismatch;
        if (nav::render::replay_region(t, total + 5, i) != out.reg[i]) ++final_mismatch;
    }
    CHECK(growth_mismatch == 0);
    CHECK(filter_mismatch == 0);
    CHECK(final_mismatch == 0);
}

// Bakes a multi-level scene through the distance field.
std::shared_ptr<const nav::Bake> bake_scene(nav::Pipeline& pl) {
    nav::InputMesh mesh;
    navtest::add_floor(mesh, 0, 0, 30, 30, 0);
    navtest::add_box(mesh, 5, 0, 5, 10, 3, 12);
    navtest::add_box(mesh, 14, 0, 14, 16, 1.5f, 28);
    navtest::add_box(mesh, 20, 0, 3, 26, 2.5f, 9);
    navtest::add_floor(mesh, 2, 18, 12, 28, 4);  // a mezzanine over the floor
    navtest::add_floor(mesh, 24, 24, 26.5f, 26.5f, 6);  // a speck, too small to keep
    mesh.compute_bounds();
    REQUIRE(pl.set_mesh(mesh).is_ok());
    const nav::Status st = pl.run(nav::Stage::Distance);
    REQUIRE_MESSAGE(st.is_ok(), st.message);
    return pl.snapshot();
}

}  // namespace

TEST_CASE("region trace: one square floor floods from its centre") {
    std::vector<std::string> rows(11, std::string(11, '#'));
    const CompactHeightfield chf = grid_from_mask(rows);
    for (Part p : kParts) {
        CAPTURE(part_name(p));
        const Run run = partition(p, chf, chf.areas, 0, 0, 0);
        check_trace(p, chf, chf.areas, 0, run);
        CHECK(run.regions.region_count == 1);
        const RegionTrace& t = run.trace;
        const uint32_t centre = 5 + 5 * 11, corner = 0;
        if (p == Part::Watershed) {
            // The deepest spans are around the centre: the one region is seeded there at the
            // first step, and the flood reaches the corner last.
            REQUIRE(t.pre_max_id() == 2);
            const uint32_t seed = t.seeds[1].span;
            CHECK(std::abs(static_cast<int>(seed % 11) - 5) <= 1);
            CHECK(std::abs(static_cast<int>(seed / 11) - 5) <= 1);
            CHECK(t.seeds[1].step == 0);
            CHECK(t.span_step[centre] == 0);
            CHECK(t.step_value[t.span_step[corner]] == 0);  // at the boundary: depth 0
            // One region on a plain square: the first flood takes the spans down to 2 below the
            // first level; after it, the region expands into each level's spans at that level
            // (levels are even: a span of depth d joins at level d & ~1).
            int early = 0, late = 0;
            for (uint32_t i = 0; i < chf.span_count; ++i) {
                const uint32_t d = run.df.dist[i], s = t.span_step[i], got = t.step_value[s];
                if (s == 0) {
                    late += d + 2 < got;
                    continue;
                }
                early += got > (d & ~1u);
                late += got < (d & ~1u);
            }
            CHECK(early == 0);
            CHECK(late == 0);
            CHECK(t.span_step[corner] > t.span_step[centre]);
            CHECK(static_cast<int>(t.step_value[0]) == ((run.df.max_dist + 1) & ~1) - 2);
        } else {
            // The sweep starts one region in the first row and carries it up row by row.
            REQUIRE(t.pre_max_id() == 2);
            CHECK(t.seeds[1].span == 0);
            CHECK(t.seeds[1].step == 0);
            for (int z = 0; z < 11; ++z) CHECK(t.span_step[static_cast<size_t>(3 + z * 11)] == static_cast<uint32_t>(z));
        }
    }
}

TEST_CASE("region trace: a small island is seeded, then removed by the filter") {
    const std::vector<std::string> rows = {
        "##########..........",  //
        "##########..........",  //
        "##########......##..",  //
        "##########......##..",  //
        "##########..........",  //
        "##########~~~~~.....",  //
        "##########~~~~~.....",  //
        "##########~~~~~.....",
    };
    const CompactHeightfield chf = grid_from_mask(rows);
    for (Part p : kParts) {
        CAPTURE(part_name(p));
        const Run run = partition(p, chf, chf.areas, 0, 6, 20);
        check_trace(p, chf, chf.areas, 0, run);
        const RegionTrace& t = run.trace;
        const nav::CompactCell& island = chf.cells[16 + 2 * 20];
        REQUIRE(island.count == 1);
        const uint16_t pre = t.pre_reg[island.index];
        REQUIRE(pre != 0);
        CHECK(t.removed[pre] == 1);  // four spans, under the minimum of 6
        CHECK(run.regions.reg[island.index] == 0);
        CHECK(t.seeds[pre].span != RegionTrace::kNoSeedSpan);
        // The water patch is a region of its own (areas never share a region).
        const nav::CompactCell& water = chf.cells[12 + 6 * 20];
        CHECK(run.regions.reg[water.index] != 0);
        CHECK(run.regions.reg[water.index] != run.regions.reg[chf.cells[2].index]);
    }
}

TEST_CASE("region trace: generated multi-level scene, with and without a tile border") {
    nav::Pipeline pl;
    const auto bake = bake_scene(pl);
    REQUIRE(bake->compact);
    const CompactHeightfield& chf = *bake->compact;
    const std::vector<uint8_t>& areas = *bake->areas;
    for (int border : {0, 8}) {
        CAPTURE(border);
        for (Part p : kParts) {
            CAPTURE(part_name(p));
            const Run run = partition(p, chf, areas, border, 64, 400);
            check_trace(p, chf, areas, border, run);
            CHECK(run.regions.region_count >= 2);
            int removed = 0;
            for (uint8_t r : run.trace.removed) removed += r;
            if (border == 0) CHECK(removed >= 1);  // the speck
            if (border > 0) {
                int border_spans = 0;
                for (uint16_t v : run.trace.pre_reg) border_spans += (v & nav::kBorderRegion) != 0;
                CHECK(border_spans > 0);
            }
        }
    }
}

TEST_CASE("region trace: the pipeline records it on request, reuses it and never changes the regions") {
    nav::Pipeline plain, rec;
    bake_scene(plain);
    bake_scene(rec);
    rec.set_record_region_trace(true);
    CHECK(rec.def().record_region_trace);
    for (const char* part : {"watershed", "monotone", "layers"}) {
        CAPTURE(part);
        REQUIRE(plain.set_param("partition", part).is_ok());
        REQUIRE(rec.set_param("partition", part).is_ok());
        REQUIRE(plain.run().is_ok());
        REQUIRE(rec.run().is_ok());
        const auto a = plain.snapshot(), b = rec.snapshot();
        REQUIRE(a->regions);
        REQUIRE(b->regions);
        CHECK(a->region_trace == nullptr);
        REQUIRE(b->region_trace != nullptr);
        CHECK(a->regions->reg == b->regions->reg);
        CHECK(a->regions->region_count == b->regions->region_count);
        CHECK(a->count("polys") == b->count("polys"));
        const RegionTrace& t = *b->region_trace;
        for (uint32_t i = 0; i < t.pre_reg.size(); ++i) CHECK(t.final_of(t.pre_reg[i]) == b->regions->reg[i]);
    }
    // Without a snapshot holding it the trace buffer is reused; a held one stays as it was.
    const RegionTrace* first = rec.snapshot()->region_trace.get();
    const std::vector<uint32_t> held_steps = first->span_step;
    auto keep = rec.snapshot();
    REQUIRE(rec.set_param("partition", "watershed").is_ok());
    REQUIRE(rec.run().is_ok());
    CHECK(rec.snapshot()->region_trace.get() != first);
    CHECK(keep->region_trace->span_step == held_steps);
    CHECK(keep->region_trace->kind == RegionTrace::Kind::Layers);
    CHECK(rec.snapshot()->region_trace->kind == RegionTrace::Kind::Watershed);
    keep.reset();
    const RegionTrace* second = rec.snapshot()->region_trace.get();
    REQUIRE(rec.set_param("partition", "monotone").is_ok());
    REQUIRE(rec.run().is_ok());
    CHECK(rec.snapshot()->region_trace.get() == second);  // no other holder: the same buffer
    // Turning recording off re-runs the regions stage and publishes no trace.
    rec.set_record_region_trace(false);
    CHECK(rec.first_dirty() == nav::Stage::Regions);
    REQUIRE(rec.run().is_ok());
    CHECK(rec.snapshot()->region_trace == nullptr);
}

TEST_CASE("region trace: shared mesh, all partitions") {
    const std::string path = navtest::shared_mesh_or_skip("nav_test.obj");
    if (path.empty()) return;
    nav::Pipeline pl;
    REQUIRE(pl.load_mesh(path).is_ok());
    REQUIRE(pl.run(nav::Stage::Distance).is_ok());
    const auto bake = pl.snapshot();
    const CompactHeightfield& chf = *bake->compact;
    const nav::BakeConfig& c = bake->config;
    for (Part p : kParts) {
        CAPTURE(part_name(p));
        const Run run = partition(p, chf, *bake->areas, c.border_size, c.min_region_area, c.merge_region_area);
        check_trace(p, chf, *bake->areas, c.border_size, run);
        CHECK(run.regions.region_count > 10);
    }
}
