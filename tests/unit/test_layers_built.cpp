// Draw layers built off the UI thread (render/layers.h build_layers, BuiltLayers) and the span
// layers as instances (one SpanInstance per span, no triangles).
#ifdef NAV_HAVE_RENDER
#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <string_view>
#include <vector>

#include "core/pipeline/pipeline.h"
#include "render/layers.h"
#include "test_scenes.h"

using namespace nav;
using namespace nav::render;

namespace {
void scene(Pipeline& pipe) {
    InputMesh m;
    navtest::add_floor(m, 0, 0, 12, 12, 0);
    navtest::add_box(m, 5, 0, 5, 7, 3, 7);
    navtest::add_box(m, 8, 3.0f, 8, 11, 3.4f, 11);
    REQUIRE(pipe.set_mesh(std::move(m)));
}
LayerMask mask(std::initializer_list<Layer> ls) {
    LayerMask m{};
    for (Layer l : ls) m[static_cast<size_t>(l)] = true;
    return m;
}
}  // namespace

TEST_CASE("build_layers: the shown layers, span layers as one instance per span") {
    Pipeline pipe;
    scene(pipe);
    REQUIRE(pipe.run(kLastStage));
    const auto b = pipe.snapshot();
    const auto set = build_layers(*b, mask({Layer::Voxels, Layer::Compact, Layer::Regions, Layer::Navmesh, Layer::Path}),
                                  nullptr);
    REQUIRE(set);
    const BuiltLayer* vox = set->find(Layer::Voxels, *b);
    REQUIRE(vox);
    CHECK(vox->ok);
    CHECK(vox->parts.at(0)->cpu.tri_indices.empty());
    CHECK(vox->parts.at(0)->cpu.span_shape == SpanShape::Box);
    // the full-resolution spans first (level of detail: render/span_lod.h), then the coarse levels
    REQUIRE(vox->parts.at(0)->cpu.span_count() == b->solid->span_count);
    REQUIRE_FALSE(vox->parts.at(0)->cpu.span_chunks.empty());
    CHECK(vox->parts.at(0)->cpu.span_pos.size() > vox->parts.at(0)->cpu.span_count());
    REQUIRE(vox->parts.at(0)->cpu.span_color.size() == vox->parts.at(0)->cpu.span_pos.size());
    for (size_t i = 0; i < vox->parts.at(0)->cpu.span_count(); ++i) {
        const SpanPos& s = vox->parts.at(0)->cpu.span_pos[i];
        const uint32_t color = vox->parts.at(0)->cpu.span_color[i];
        CHECK(s.y0 < s.y1);
        CHECK((color == colors::kSolidWalkable || color == colors::kSolidBlocked));
        CHECK(s.x < static_cast<uint32_t>(b->solid->width));
        CHECK((s.z & kSpanCellMask) < static_cast<uint32_t>(b->solid->height));
    }
    const BuiltLayer* compact = set->find(Layer::Compact, *b);
    REQUIRE(compact);
    CHECK(compact->parts.at(0)->cpu.span_shape == SpanShape::Floor);
    CHECK(compact->parts.at(0)->cpu.span_count() == static_cast<size_t>(b->compact->span_count));
    CHECK(compact->parts.at(0)->cpu.span_lift == doctest::Approx(floor_lift(*b->compact, Layer::Compact)));
    const BuiltLayer* regions = set->find(Layer::Regions, *b);
    REQUIRE(regions);
    CHECK_FALSE(regions->parts.at(0)->cpu.line_verts.empty());  // region outlines stay lines
    REQUIRE(set->find(Layer::Navmesh, *b));
    CHECK_FALSE(set->find(Layer::Navmesh, *b)->parts.at(0)->cpu.tri_indices.empty());
    // not shown, or not drawn from the bake: not built
    CHECK(set->find(Layer::Input, *b) == nullptr);
    CHECK(set->find(Layer::Path, *b) == nullptr);

    // the same bake again: every entry shared, nothing rebuilt
    const auto again = build_layers(*b, mask({Layer::Voxels, Layer::Compact, Layer::Regions, Layer::Navmesh}), set.get());
    CHECK(again->layers[static_cast<size_t>(Layer::Voxels)] == set->layers[static_cast<size_t>(Layer::Voxels)]);
    CHECK(again->layers[static_cast<size_t>(Layer::Regions)] == set->layers[static_cast<size_t>(Layer::Regions)]);

    // a region parameter: the voxel and compact layers are shared, the regions layer rebuilt
    Params p = pipe.params();
    REQUIRE(p.set(ParamId::region_min_size, p.get(ParamId::region_min_size) + 3));
    REQUIRE(pipe.set_input(&nav::BakeInputs::params, p));
    REQUIRE(pipe.run(kLastStage));
    const auto b2 = pipe.snapshot();
    REQUIRE(b2->regions != b->regions);
    const auto next = build_layers(*b2, mask({Layer::Voxels, Layer::Compact, Layer::Regions}), again.get());
    CHECK(next->layers[static_cast<size_t>(Layer::Voxels)] == set->layers[static_cast<size_t>(Layer::Voxels)]);
    CHECK(next->layers[static_cast<size_t>(Layer::Compact)] == set->layers[static_cast<size_t>(Layer::Compact)]);
    REQUIRE(next->find(Layer::Regions, *b2));
    CHECK(next->layers[static_cast<size_t>(Layer::Regions)] != set->layers[static_cast<size_t>(Layer::Regions)]);
    CHECK(next->find(Layer::Regions, *b) == nullptr);  // built from other data: not used for the old bake
    CHECK(next->find(Layer::Navmesh, *b2) == nullptr);  // hidden now: dropped
}

namespace {
// The labels of the legend entries a built layer marks present.
std::vector<std::string_view> present(Layer l, const BuiltLayer& e) {
    std::vector<std::string_view> out;
    const auto legend = layer_legend(l, AreaColors(nav::AreaTable::defaults()));
    for (size_t k = 0; k < legend.size(); ++k)
        if (e.legend_present & (1u << k)) out.push_back(legend[k].label);
    return out;
}
bool has(const std::vector<std::string_view>& v, std::string_view s) { return std::find(v.begin(), v.end(), s) != v.end(); }
}  // namespace

TEST_CASE("build_layers: the legend lists only what the layer draws") {
    Pipeline pipe;
    scene(pipe);
    const LayerMask shown = mask({Layer::Areas, Layer::Polymesh, Layer::Navmesh, Layer::Islands, Layer::Regions});
    REQUIRE(pipe.run(kLastStage));
    auto b = pipe.snapshot();
    auto set = build_layers(*b, shown, nullptr);
    // no volume: the areas are ground (and null spans under the box top's edge, maybe), no water
    std::vector<std::string_view> areas = present(Layer::Areas, *set->find(Layer::Areas, *b));
    CHECK(has(areas, "ground"));
    CHECK(!has(areas, "water"));
    CHECK(!has(areas, "road"));
    CHECK(!has(areas, "grass"));
    CHECK(!has(present(Layer::Navmesh, *set->find(Layer::Navmesh, *b)), "water"));
    // nothing pruned: no "disabled" entry
    CHECK(!has(present(Layer::Navmesh, *set->find(Layer::Navmesh, *b)), "pruned (hatched)"));
    CHECK(!has(present(Layer::Islands, *set->find(Layer::Islands, *b)), "pruned (hatched)"));
    CHECK(has(present(Layer::Islands, *set->find(Layer::Islands, *b)), "island 0"));

    // a water volume over part of the floor: water is listed, in the areas, polygon and navmesh layers
    ConvexVolume water;
    water.verts = {1, 0, 1, 4, 0, 1, 4, 0, 4, 1, 0, 4};
    water.hmin = -1;
    water.hmax = 1;
    REQUIRE(pipe.set_input(&nav::BakeInputs::volumes, {water}));
    REQUIRE(pipe.run(kLastStage));
    b = pipe.snapshot();
    set = build_layers(*b, shown, set.get());
    CHECK(has(present(Layer::Areas, *set->find(Layer::Areas, *b)), "water"));
    CHECK(has(present(Layer::Polymesh, *set->find(Layer::Polymesh, *b)), "water"));
    CHECK(has(present(Layer::Navmesh, *set->find(Layer::Navmesh, *b)), "water"));
    CHECK(!has(present(Layer::Areas, *set->find(Layer::Areas, *b)), "road"));

    // one polygon disabled (as a prune leaves it): listed as disabled
    auto pruned = std::make_shared<Bake>(*b);
    auto nm = std::make_shared<NavMesh>(*b->navmesh);
    REQUIRE(nm->npolys > 1);
    nm->flags[0] |= kPolyFlagDisabled;
    pruned->navmesh = nm;
    const auto pset = build_layers(*pruned, shown, nullptr);
    CHECK(has(present(Layer::Navmesh, *pset->find(Layer::Navmesh, *pruned)), "pruned (hatched)"));
    CHECK(has(present(Layer::Islands, *pset->find(Layer::Islands, *pruned)), "pruned (hatched)"));
}

TEST_CASE("build_layers: a released part keeps its counts and is still shared") {
    Pipeline pipe;
    scene(pipe);
    REQUIRE(pipe.run(kLastStage));
    const auto b = pipe.snapshot();
    const LayerMask shown = mask({Layer::Regions, Layer::Navmesh});
    const auto set = build_layers(*b, shown, nullptr);
    const BuiltLayer* regions = set->find(Layer::Regions, *b);
    REQUIRE(regions);
    REQUIRE(regions->parts.size() == 1);  // a solo bake: one part
    const BuiltPart& part = *regions->parts[0];
    const size_t bytes = part.cpu_bytes;
    const uint32_t legend = part.legend_present;
    CHECK(bytes >= part.cpu.line_verts.size() * sizeof(Vertex));
    CHECK(bytes > 0);
    CHECK(regions->cpu_bytes == bytes);
    CHECK(regions->legend_present == legend);
    part.release_cpu();  // as the cache does once uploaded
    CHECK(part.released.load());
    CHECK(part.cpu.empty());
    CHECK(part.cpu.line_verts.capacity() == 0);
    CHECK(part.cpu_bytes == bytes);
    CHECK(part.legend_present == legend);
    // still found (a cache without its picture builds the released part itself: LayerCache::update)
    CHECK(set->find(Layer::Regions, *b) == regions);
    // the next build for the same data shares it (the cache that released it holds its picture)
    const auto again = build_layers(*b, shown, set.get());
    CHECK(again->layers[static_cast<size_t>(Layer::Regions)] == set->layers[static_cast<size_t>(Layer::Regions)]);
}

TEST_CASE("build_layers: an entry of the same data split into other parts is not shared") {
    // the input's blocks of cells follow the grid: after a cell_size change the mesh is the same
    // (the same sources) but its parts' keys are not, and the shared entry had none of them (the UI
    // thread built them itself: the stress test's 'UI layer builds')
    Pipeline pipe;
    InputMesh m;
    navtest::add_floor(m, 0, 0, 110, 110, 0);  // over 2^20 cells at 0.1 m: the input in blocks of cells
    navtest::add_box(m, 50, 0, 50, 53, 3, 54);
    REQUIRE(pipe.set_mesh(std::move(m)));
    REQUIRE(pipe.set_param(ParamId::cell_size, 0.1f));
    REQUIRE(pipe.run(kLastStage));
    const auto b1 = pipe.snapshot();
    const LayerMask all = mask({Layer::Input, Layer::Navmesh, Layer::Polymesh});
    const auto set1 = build_layers(*b1, all, nullptr);
    REQUIRE(pipe.set_param(ParamId::cell_size, 0.09f));
    REQUIRE(pipe.run(kLastStage));
    const auto b2 = pipe.snapshot();
    const auto set2 = build_layers(*b2, all, set1.get());
    int checked = 0;
    for (int i = 0; i < kLayerCount; ++i) {
        const auto l = static_cast<Layer>(i);
        if (!all[static_cast<size_t>(i)] || !layer_available(l, *b2)) continue;
        CAPTURE(i);
        const BuiltLayer* e = set2->find(l, *b2);
        REQUIRE(e);
        for (const uint64_t k : layer_part_keys(l, *b2)) CHECK(e->part(k));
        ++checked;
    }
    CHECK(checked == 3);
    // the input's keys did change with the grid (else this test would prove nothing)
    CHECK(layer_part_keys(Layer::Input, *b1) != layer_part_keys(Layer::Input, *b2));
}

TEST_CASE("layer parts: blocks of tiles, at most kMaxLayerParts") {
    TileLayout L;
    CHECK(layer_part_block(L) == 1);  // solo
    L.tile_size = 64;
    L.cols = L.rows = 8;
    CHECK(layer_part_block(L) == 1);  // 64 tiles: one part each
    L.cols = 9;
    CHECK(layer_part_block(L) == 2);  // 5 x 4 blocks of 2 x 2
    L.cols = L.rows = 35;             // the large generated level at tile_size 64
    CHECK(layer_part_block(L) == 5);  // 7 x 7 blocks
}

TEST_CASE("layer parts: a tiled bake draws per block of tiles; a re-baked tile rebuilds its block only") {
    Pipeline pipe;
    InputMesh m;
    navtest::add_floor(m, 0, 0, 40, 30, 0);
    navtest::add_box(m, 5, 0, 5, 8, 3, 9);
    navtest::add_box(m, 20, 0, 12, 23, 3, 14);
    navtest::add_box(m, 30, 0, 20, 36, 0.4f, 26);
    REQUIRE(pipe.set_mesh(std::move(m)));
    REQUIRE(pipe.set_param(ParamId::tile_size, 16));
    REQUIRE(pipe.run(kLastStage));
    const auto b = pipe.snapshot();
    REQUIRE(b->tiled());
    const int ntiles = b->layout.count();
    REQUIRE(ntiles > 4);
    REQUIRE(ntiles <= kMaxLayerParts);  // one part per tile
    const LayerMask shown = mask({Layer::Voxels, Layer::Compact, Layer::Regions, Layer::Contours, Layer::Navmesh});
    const auto set = build_layers(*b, shown, nullptr);
    const BuiltLayer* vox = set->find(Layer::Voxels, *b);
    REQUIRE(vox);
    REQUIRE(vox->parts.size() == static_cast<size_t>(ntiles));
    CHECK(vox->parts_built == vox->parts.size());
    // the parts hold what the merged layer draws: every tile's own cells once
    DrawList merged, merged_extra;
    REQUIRE(build_layer(Layer::Voxels, *b, merged, merged_extra));
    size_t in_parts = 0;
    for (const auto& p : vox->parts) in_parts += p->cpu.span_count();
    CHECK(in_parts == merged.spans.size());
    // the layers drawn from the same spans share each part's positions (compact and regions)
    const BuiltLayer* compact = set->find(Layer::Compact, *b);
    const BuiltLayer* regions = set->find(Layer::Regions, *b);
    REQUIRE((compact && regions));
    for (size_t j = 0; j < compact->parts.size(); ++j)
        if (!compact->parts[j]->cpu.span_pos.empty())
            CHECK(regions->parts[j]->cpu.span_pos.shares(compact->parts[j]->cpu.span_pos));
    // the navmesh is the whole level's: one part
    REQUIRE(set->find(Layer::Navmesh, *b));
    CHECK(set->find(Layer::Navmesh, *b)->parts.size() == 1);

    // re-bake one tile: its part is rebuilt, every other part shared
    const int tx = 1, tz = 1, idx = tx + tz * b->layout.cols;
    REQUIRE(pipe.mark_tile_dirty(tx, tz));
    REQUIRE(pipe.run(kLastStage));
    const auto b2 = pipe.snapshot();
    REQUIRE(b2->tiles_rebaked == std::vector<int>{idx});
    const auto next = build_layers(*b2, shown, set.get());
    for (Layer l : {Layer::Voxels, Layer::Compact, Layer::Regions, Layer::Contours}) {
        CAPTURE(layer_name(l));
        const BuiltLayer* was = set->find(l, *b);
        const BuiltLayer* now = next->find(l, *b2);
        REQUIRE((was && now));
        REQUIRE(now != was);
        REQUIRE(now->parts.size() == was->parts.size());
        CHECK(now->parts_built == 1u);
        for (size_t j = 0; j < now->parts.size(); ++j) {
            if (static_cast<int>(j) == idx) CHECK(now->parts[j] != was->parts[j]);
            else CHECK(now->parts[j] == was->parts[j]);
        }
    }
    // the keys say the same without building anything
    const auto k1 = layer_part_keys(Layer::Regions, *b), k2 = layer_part_keys(Layer::Regions, *b2);
    REQUIRE(k1.size() == k2.size());
    for (size_t j = 0; j < k1.size(); ++j) CHECK((k1[j] == k2[j]) == (static_cast<int>(j) != idx));
}

TEST_CASE("layer parts: a tile's region colours do not depend on the other tiles") {
    Pipeline pipe;
    InputMesh m;
    navtest::add_floor(m, 0, 0, 40, 30, 0);
    navtest::add_box(m, 20, 0, 12, 23, 3, 14);
    REQUIRE(pipe.set_mesh(std::move(m)));
    REQUIRE(pipe.set_param(ParamId::tile_size, 16));
    REQUIRE(pipe.run(kLastStage));
    const auto b = pipe.snapshot();
    const LayerMask shown = mask({Layer::Regions});
    const auto set = build_layers(*b, shown, nullptr);
    // the same bake without tile 0 (as while a bake is still publishing): tile 1's part is drawn alike
    auto partial = std::make_shared<Bake>(*b);
    partial->tiles[0] = nullptr;
    const auto pset = build_layers(*partial, shown, nullptr);
    const BuiltLayer* full = set->find(Layer::Regions, *b);
    const BuiltLayer* part = pset->find(Layer::Regions, *partial);
    REQUIRE((full && part));
    REQUIRE(full->parts.size() == part->parts.size());
    CHECK(part->parts[1]->cpu.span_color == full->parts[1]->cpu.span_color);
    // and neighbouring tiles' regions take different colours
    const auto region_colors = [](const DrawList& d) {
        std::vector<uint32_t> c;
        for (size_t i = 0; i < d.span_count(); ++i)
            if (d.span_color[i] != colors::kRegionNone) c.push_back(d.span_color[i]);
        std::sort(c.begin(), c.end());
        c.erase(std::unique(c.begin(), c.end()), c.end());
        return c;
    };
    const auto c1 = region_colors(full->parts[1]->cpu), c2 = region_colors(full->parts[2]->cpu);
    REQUIRE_FALSE(c1.empty());
    REQUIRE_FALSE(c2.empty());
    std::vector<uint32_t> both;
    std::set_intersection(c1.begin(), c1.end(), c2.begin(), c2.end(), std::back_inserter(both));
    CHECK(both.empty());
}
TEST_CASE("layer parts: a solo bake of a big grid draws in blocks of cells, the same picture") {
    Pipeline pipe;
    InputMesh m;
    navtest::add_floor(m, 0, 0, 330, 330, 0);  // 1100 x 1100 cells: over 1 M, so split
    navtest::add_box(m, 100, 0, 100, 140, 3, 130);
    navtest::add_box(m, 200, 0, 50, 205, 2, 300);
    REQUIRE(pipe.set_mesh(std::move(m)));
    REQUIRE(pipe.run(kLastStage));
    const auto b = pipe.snapshot();
    REQUIRE_FALSE(b->tiled());
    const LayerMask shown = mask({Layer::Input, Layer::Compact, Layer::Regions, Layer::Detail});
    const auto set = build_layers(*b, shown, nullptr);
    for (Layer l : {Layer::Input, Layer::Compact, Layer::Regions, Layer::Detail}) {
        CAPTURE(layer_name(l));
        const BuiltLayer* e = set->find(l, *b);
        REQUIRE(e);
        CHECK(e->parts.size() == 36u);  // 6 x 6 blocks of 192 cells
        CHECK(e->parts.size() == layer_part_keys(l, *b).size());
        // the same triangles, lines and spans as the layer built whole
        DrawList whole, extra;
        REQUIRE(build_layer(l, *b, whole, extra));
        size_t tris = 0, lines = 0, spans = 0, nonempty = 0, outside = 0;
        for (const auto& p : e->parts) {
            tris += p->cpu.tri_indices.size() / 3 + p->cpu_extra.tri_indices.size() / 3;
            lines += p->cpu.line_verts.size() / 2 + p->cpu_extra.line_verts.size() / 2;
            spans += p->cpu.span_count() + p->cpu_extra.span_count();
            nonempty += !p->cpu.empty();
            // a part's spans are on its own block's grid (cells within the block)
            for (size_t k = 0; k < p->cpu.span_count(); ++k)
                outside += p->cpu.span_pos[k].x >= 192u || (p->cpu.span_pos[k].z & kSpanCellMask) >= 192u;
        }
        CHECK(tris == whole.tri_indices.size() / 3 + extra.tri_indices.size() / 3);
        CHECK(lines == whole.line_verts.size() / 2 + extra.line_verts.size() / 2);
        CHECK(spans == whole.spans.size() + extra.spans.size());
        CHECK(nonempty > 1);
        CHECK(outside == 0u);
        // a span keeps its world position: the first span of a middle part lies inside that part's block
        const auto& mid = e->parts[7]->cpu;  // block (1, 1)
        if (mid.span_count()) {
            const float x = mid.span_origin[0] + static_cast<float>(mid.span_pos[0].x) * mid.span_cs;
            CHECK(x >= b->config.bmin[0] + 192 * b->config.cs - 1e-3f);
            CHECK(x < b->config.bmin[0] + 2 * 192 * b->config.cs + 1e-3f);
        }
    }
    // the same bake again: shared
    const auto again = build_layers(*b, shown, set.get());
    CHECK(again->layers[static_cast<size_t>(Layer::Regions)] == set->layers[static_cast<size_t>(Layer::Regions)]);

    // tiled: the per-grid layers in parts by tile, the whole-level ones (input, navmesh) by cells
    REQUIRE(pipe.set_param(ParamId::tile_size, 256));
    REQUIRE(pipe.run(kLastStage));
    const auto t = pipe.snapshot();
    REQUIRE(t->tiled());
    const auto tset = build_layers(*t, mask({Layer::Input, Layer::Regions, Layer::Navmesh}), nullptr);
    CHECK(tset->find(Layer::Regions, *t)->parts.size() == static_cast<size_t>(t->layout.count()));
    CHECK(tset->find(Layer::Input, *t)->parts.size() == 36u);
    CHECK(tset->find(Layer::Navmesh, *t)->parts.size() == 36u);
}
#endif  // NAV_HAVE_RENDER
