// Draw layers built off the UI thread (render/layers.h build_layers, BuiltLayers) and the span
// layers as instances (one SpanInstance per span, no triangles).
#ifdef NAV_HAVE_RENDER
#include <doctest/doctest.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "core/build/pipeline.h"
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
    CHECK(vox->cpu.tri_indices.empty());
    CHECK(vox->cpu.span_shape == SpanShape::Box);
    // the full-resolution spans first (level of detail: render/span_lod.h), then the coarse levels
    REQUIRE(vox->cpu.span_count() == b->solid->span_count);
    REQUIRE_FALSE(vox->cpu.span_chunks.empty());
    CHECK(vox->cpu.span_pos.size() > vox->cpu.span_count());
    REQUIRE(vox->cpu.span_color.size() == vox->cpu.span_pos.size());
    for (size_t i = 0; i < vox->cpu.span_count(); ++i) {
        const SpanPos& s = vox->cpu.span_pos[i];
        const uint32_t color = vox->cpu.span_color[i];
        CHECK(s.y0 < s.y1);
        CHECK((color == colors::kSolidWalkable || color == colors::kSolidBlocked));
        CHECK(s.x < static_cast<uint32_t>(b->solid->width));
        CHECK((s.z & kSpanCellMask) < static_cast<uint32_t>(b->solid->height));
    }
    const BuiltLayer* compact = set->find(Layer::Compact, *b);
    REQUIRE(compact);
    CHECK(compact->cpu.span_shape == SpanShape::Floor);
    CHECK(compact->cpu.span_count() == static_cast<size_t>(b->compact->span_count));
    CHECK(compact->cpu.span_lift == doctest::Approx(floor_lift(*b->compact, Layer::Compact)));
    const BuiltLayer* regions = set->find(Layer::Regions, *b);
    REQUIRE(regions);
    CHECK_FALSE(regions->cpu.line_verts.empty());  // region outlines stay lines
    REQUIRE(set->find(Layer::Navmesh, *b));
    CHECK_FALSE(set->find(Layer::Navmesh, *b)->cpu.tri_indices.empty());
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
    pipe.set_params(p);
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
    const auto legend = layer_legend(l);
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
    pipe.set_volumes({water});
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

TEST_CASE("build_layers: a released entry keeps its counts, is not found, and is still shared") {
    Pipeline pipe;
    scene(pipe);
    REQUIRE(pipe.run(kLastStage));
    const auto b = pipe.snapshot();
    const LayerMask shown = mask({Layer::Regions, Layer::Navmesh});
    const auto set = build_layers(*b, shown, nullptr);
    const BuiltLayer* regions = set->find(Layer::Regions, *b);
    REQUIRE(regions);
    const size_t bytes = regions->cpu_bytes;
    const uint32_t legend = regions->legend_present;
    CHECK(bytes >= regions->cpu.line_verts.size() * sizeof(Vertex));
    CHECK(bytes > 0);
    regions->release_cpu();  // as the cache does once uploaded
    CHECK(regions->cpu.empty());
    CHECK(regions->cpu.line_verts.capacity() == 0);
    CHECK(regions->cpu_bytes == bytes);
    CHECK(regions->legend_present == legend);
    CHECK(set->find(Layer::Regions, *b) == nullptr);  // a cache without it builds it itself
    CHECK(set->find(Layer::Navmesh, *b) != nullptr);
    // the next build for the same data shares it (the cache that released it holds its picture)
    const auto again = build_layers(*b, shown, set.get());
    CHECK(again->layers[static_cast<size_t>(Layer::Regions)] == set->layers[static_cast<size_t>(Layer::Regions)]);
}

#endif  // NAV_HAVE_RENDER
