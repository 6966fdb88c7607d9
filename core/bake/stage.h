// The bake stages in order, in one list (NAV_STAGES) from which everything per stage follows: the
// Stage enum and names (JSON timings_ms, the UI), the results each stage owns (StageResults and
// for_each_result, pipeline.h) and the pipeline's stage table (pipeline.cpp: scope, run_<name>).
#pragma once
#include <array>
#include <optional>
#include <string_view>

namespace nav {

// NAV_STAGES(STAGE, RESULT) expands, for each stage in order:
//   STAGE(Id, name, scope, key_count)  the enum value Stage::Id, its name "name", where it runs
//       (Mesh: once for the whole mesh; Grid: per grid, the solo grid or every tile; GridThenMesh:
//       per grid, then once for the whole mesh) and the count its timeline row shows;
//   RESULT(Id, ptr, Type, member, last) a result the stage owns: StageResults::member, a ptr<Type>
//       (Ptr: shared, reused when no snapshot holds it; ConstPtr: a new object every build), and
//       the last stage that reads it, after which a lean bake (no intermediates kept) drops it;
//       Count: never dropped (the triangle areas every bake reads, the contours that hold the
//       bake's warnings, the outputs, the region trace recorded on request).
// How a stage is drawn is not core's business: render/layer_names.h keys its layers by Stage.
// Pass NAV_STAGE_SKIP for the kinds a use does not need.
// Adding a stage: its rows here, its run_<name> function in the pipeline, its story_<name> in
// core/explain/why.cpp (the why story of a point at that stage), its layer rows in
// render/layer_names.h and their builders in render/layers.cpp's kLayerTable. Each of those is
// generated from or checked against this list: a stage missing one fails to compile.
#define NAV_STAGES(STAGE, RESULT)                                        \
    STAGE(Input, input, Mesh, walkable_tris)                             \
    RESULT(Input, Ptr, std::vector<uint8_t>, tri_areas, Count)                  \
    STAGE(Rasterize, rasterize, Grid, solid_spans)                       \
    RESULT(Rasterize, Ptr, Heightfield, solid, Filter)                           \
    STAGE(Filter, filter, Grid, walkable_solid_spans)                    \
    RESULT(Filter, Ptr, Heightfield, filtered, Compact)                           \
    STAGE(Compact, compact, Grid, compact_spans)                         \
    RESULT(Compact, Ptr, CompactHeightfield, compact, Detail)                    \
    STAGE(Erode, erode, Grid, walkable_spans)                            \
    RESULT(Erode, Ptr, std::vector<uint8_t>, eroded, Areas)                     \
    STAGE(Areas, areas, Grid, volume_spans)                              \
    RESULT(Areas, Ptr, std::vector<uint8_t>, areas, Contours)                      \
    RESULT(Areas, Ptr, Clearance, clearance, Polymesh)                            \
    STAGE(Distance, distance, Grid, max_distance)                        \
    RESULT(Distance, Ptr, DistanceField, distance, Regions)                       \
    STAGE(Regions, regions, Grid, regions)                               \
    RESULT(Regions, Ptr, Regions, regions, Detail)                               \
    RESULT(Regions, Ptr, RegionTrace, region_trace, Count)                      \
    STAGE(Contours, contours, Grid, contours)                            \
    RESULT(Contours, Ptr, ContourSet, contours, Count)                          \
    STAGE(Polymesh, polymesh, Grid, polys)                               \
    RESULT(Polymesh, Ptr, PolyMesh, polymesh, Count)                            \
    STAGE(Detail, detail, Grid, detail_tris)                             \
    RESULT(Detail, Ptr, PolyMeshDetail, detail, Count)                          \
    STAGE(Navmesh, navmesh, GridThenMesh, navmesh_polys)                 \
    RESULT(Navmesh, Ptr, NavMesh, navmesh, Count)                               \
    RESULT(Navmesh, ConstPtr, NavTile, tile, Count)

#define NAV_STAGE_SKIP(...)

enum class Stage : int {
#define NAV_STAGE_ENUM(id, name, scope, key) id,
    NAV_STAGES(NAV_STAGE_ENUM, NAV_STAGE_SKIP)
#undef NAV_STAGE_ENUM
    Count
};

constexpr int kStageCount = static_cast<int>(Stage::Count);
constexpr Stage kLastStage = static_cast<Stage>(kStageCount - 1);

constexpr std::array<std::string_view, kStageCount> kStageNames = {
#define NAV_STAGE_NAME(id, name, scope, key) #name,
    NAV_STAGES(NAV_STAGE_NAME, NAV_STAGE_SKIP)
#undef NAV_STAGE_NAME
};
// The key count of each stage (what a timeline shows on the stage's row).
constexpr std::array<std::string_view, kStageCount> kStageKeyCounts = {
#define NAV_STAGE_KEY(id, name, scope, key) #key,
    NAV_STAGES(NAV_STAGE_KEY, NAV_STAGE_SKIP)
#undef NAV_STAGE_KEY
};

// The first stage that reads the bake's volumes and obstacles (the areas stage stamps them into the
// eroded areas): an edit of either re-bakes from here, and a trimmed tile's obstacle cache keeps
// what this stage reads, packed by the stage just before it.
constexpr Stage kEditStage = Stage::Areas;

constexpr std::string_view stage_name(Stage s) { return kStageNames[static_cast<int>(s)]; }
std::optional<Stage> stage_from_name(std::string_view name);

}  // namespace nav
