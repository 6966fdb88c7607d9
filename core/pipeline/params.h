// The parameter table: the single source of truth for every bake parameter. A viewer's
// sliders, a tool's --set flags, the JSON config files and the help text are generated from it.
// Users work in world units (metres, degrees); derive_config() is the one place that converts
// to voxel units.
#pragma once
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/common.h"
#include "core/bake/stage.h"

namespace nav {

enum class ParamId : int {
    mesh_scale,
    mesh_z_up,
    mesh_flip_winding,
    cell_size,
    cell_height,
    agent_height,
    agent_radius,
    agent_max_climb,
    agent_max_slope,
    region_min_size,
    region_merge_size,
    partition,
    filter_low_hanging,
    filter_ledge,
    filter_low_height,
    edge_max_len,
    edge_max_error,
    verts_per_poly,
    detail_sample_dist,
    detail_sample_max_error,
    tile_size,
    threads,
    link_drop_height,
    link_jump_distance,
    path_mode,
    max_nodes,
    Count
};
constexpr int kParamCount = static_cast<int>(ParamId::Count);

enum class ParamKind : uint8_t { Float, Int, Bool, Enum };

// How a world value maps to voxels, for the "0.60 m = 2 vx" read-out.
enum class VoxelRule : uint8_t {
    None,
    GridCells,          // cell_size: "= 135 x 135 cells" (needs the mesh bounds)
    GridLayers,         // cell_height: "= 36 layers" (needs the mesh bounds)
    CeilByCellHeight,   // agent_height: "= 10 vx"
    FloorByCellHeight,  // agent_max_climb: "= 4 vx"
    CeilByCellSize,     // agent_radius: "= 2 vx"
    FloorByCellSize,    // edge_max_len: "= 40 cells"
    SquareCells,        // region sizes: "= 64 cells = 5.76 m2"
    TimesCellSize,      // edge_max_error, detail_sample_dist (given in cells): "= 1.80 m"
    TimesCellHeight,    // detail_sample_max_error (given in cell heights): "= 0.20 m"
};

enum class Partition : int { Watershed = 0, Monotone = 1, Layers = 2 };
constexpr std::array<std::string_view, 3> kPartitionNames = {"watershed", "monotone", "layers"};
// How path queries (a tool's --paths / --pairs) find a path: A* over polygons + funnel, or the
// Euclidean-shortest path (Polyanya, core/runtime/polyanya.h). Read by the queries, not the bake.
enum class PathMode : int { Funnel = 0, Optimal = 1 };
constexpr std::array<std::string_view, 2> kPathModeNames = {"funnel", "optimal"};

struct ParamDef {
    ParamId id;
    std::string_view name;   // snake_case, as in --set, JSON and the UI
    std::string_view label;  // for the UI
    std::string_view unit;   // "m", "deg", "cells", ""
    ParamKind kind;
    double def, min, max;
    Stage stage;  // the earliest stage that reads it (for dirties_no_stage(id): its UI group only)
    VoxelRule voxel;
    std::string_view help;
    std::span<const std::string_view> enum_names;  // for ParamKind::Enum
};

std::span<const ParamDef> param_table();
// mesh_scale, mesh_z_up, mesh_flip_winding: corrections for how the mesh was exported, set once
// per mesh (the warnings' fixes), not tuning knobs.
constexpr bool is_mesh_fix(ParamId id) {
    return id == ParamId::mesh_scale || id == ParamId::mesh_z_up || id == ParamId::mesh_flip_winding;
}
// Parameters read by the path queries only (a tool's --paths / --pairs), not by the bake.
constexpr bool is_query_param(ParamId id) { return id == ParamId::path_mode || id == ParamId::max_nodes; }
// Parameters that change no bake result, so setting them dirties no stage: threads (how many tiles
// bake at once) and the query parameters. Their `stage` in the table only groups them in the UI.
constexpr bool dirties_no_stage(ParamId id) { return id == ParamId::threads || is_query_param(id); }
const ParamDef& param_def(ParamId id);
const ParamDef* find_param(std::string_view name);

// Parameter values, indexed by ParamId. Always within range once set through set().
class Params {
public:
    Params();  // defaults from the table
    double get(ParamId id) const { return v_[static_cast<int>(id)]; }
    float f(ParamId id) const { return static_cast<float>(get(id)); }
    int i(ParamId id) const { return static_cast<int>(get(id)); }
    bool b(ParamId id) const { return get(id) != 0.0; }
    Partition partition() const { return static_cast<Partition>(i(ParamId::partition)); }
    PathMode path_mode() const { return static_cast<PathMode>(i(ParamId::path_mode)); }
    int max_nodes() const { return i(ParamId::max_nodes); }

    // Checks type and range; the message names the parameter and what was expected.
    Status set(ParamId id, double value);
    // Parses "0.4", "true"/"false"/"1"/"0", or an enum name ("monotone").
    Status set_from_string(std::string_view name, std::string_view value);
    // Formats a value the way set_from_string reads it.
    std::string to_string(ParamId id) const;

    bool operator==(const Params&) const = default;

private:
    std::array<double, kParamCount> v_{};
};

// "= 2 vx" style hint for the UI and help: the other unit of each parameter (voxels for metres,
// metres for cells). With the mesh bounds, cell_size and cell_height show the grid they make
// ("= 135 x 135 cells", "= 36 layers"). Empty when the parameter has no voxel meaning.
std::string voxel_hint(ParamId id, const Params& p, const float* bmin = nullptr, const float* bmax = nullptr);
// The range a viewer's slider offers for parameter `id`: the table's, except tile_size with
// the mesh bounds, whose top is the grid's longer side (at least the tile border): a larger tile is
// one tile over the grid, the same bake. Without bounds, the table's range.
struct ParamRange {
    double min, max;
};
ParamRange slider_range(ParamId id, const Params& p, const float* bmin = nullptr, const float* bmax = nullptr);
// Multi-line help text listing every parameter with unit, default, range and stage.
std::string params_help();

// Voxel-unit configuration derived from Params and the mesh bounds (Recast's rounding rules).
struct BakeConfig {
    float cs = 0.3f, ch = 0.2f;
    float walkable_slope_deg = 45.0f;
    int walkable_height = 0;   // ceil(agent_height / ch)
    int walkable_climb = 0;    // floor(agent_max_climb / ch)
    int walkable_radius = 0;   // ceil(agent_radius / cs)
    int clearance_radius = 0;  // cells: the largest agent type's radius (BakeInputs::agent_types), for the tile border
    int min_region_area = 0;   // region_min_size^2
    int merge_region_area = 0; // region_merge_size^2
    Partition partition = Partition::Watershed;
    bool filter_low_hanging = true, filter_ledge = true, filter_low_height = true;
    int max_edge_len = 0;            // edge_max_len / cs, cells (0 = edges are not split)
    float max_simplification_error = 1.3f;  // edge_max_error, in cells
    int verts_per_poly = 6;
    float detail_sample_dist = 0;     // cs * detail_sample_dist, metres; 0 below 0.9 (no sampling)
    float detail_sample_max_error = 0;  // ch * detail_sample_max_error, metres
    int border_size = 0;       // cells of border around the grid (a tile's; 0 for the solo bake)
    int tile_size = 0;         // cells per tile side, 0 = one solo grid over the bounds
    int threads = 0;           // worker threads for a tiled bake, 0 = all cores
    float bmin[3] = {0, 0, 0}, bmax[3] = {0, 0, 0};
    int width = 0, height = 0; // grid cells in x and z (saturated to INT_MAX; grid_x/z hold the exact size)
    double grid_x = 0, grid_z = 0;  // the grid size before conversion, for check_grid's message
};
// Every float -> int conversion is range-checked: a value beyond int saturates (and check_grid
// refuses it) instead of being undefined behaviour.
BakeConfig derive_config(const Params& p, const float* bmin, const float* bmax);

// The one grid limit every stage honours, checked before rasterizing. Polygon-mesh vertices store
// cell coordinates in 16 bits (a contour corner lies in 0..width), so a side may have at most
// 65535 cells; cell indices x + z * width are ints and span indices 32-bit, so the grid has at most
// 2^30 cells in total; span heights are 16-bit, so the mesh is at most 65535 cell heights tall.
constexpr int kMaxGridSide = 65535;
constexpr int64_t kMaxGridCells = int64_t(1) << 30;
constexpr int kMaxGridLayers = kSpanMaxHeight;
// Less than one cell, a side or the total over the limit, or too tall: the message states the
// grid, the limit and why; ok otherwise.
Status check_grid(const BakeConfig& c, const Params& p);

}  // namespace nav
