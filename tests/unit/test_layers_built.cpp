// Draw layers built off the UI thread (render/layers.h build_layers, BuiltLayers) and the span
// layers as instances (one SpanInstance per span, no triangles).
#ifdef NAV_HAVE_RENDER
#include <doctest/doctest.h>

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
    REQUIRE(vox->cpu.spans.size() == b->solid->span_count);
    for (const SpanInstance& s : vox->cpu.spans) {
        CHECK(s.y0 < s.y1);
        CHECK((s.color == colors::kSolidWalkable || s.color == colors::kSolidBlocked));
        CHECK(s.x < static_cast<uint32_t>(b->solid->width));
        CHECK(s.z < static_cast<uint32_t>(b->solid->height));
    }
    const BuiltLayer* compact = set->find(Layer::Compact, *b);
    REQUIRE(compact);
    CHECK(compact->cpu.span_shape == SpanShape::Floor);
    CHECK(compact->cpu.spans.size() == static_cast<size_t>(b->compact->span_count));
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

#endif  // NAV_HAVE_RENDER
