// Settings and meshes known to go wrong, each with the reason (in this scene's numbers) and a
// one-click fix: the parameter values that make the warning go away. A viewer's Warnings
// panel lists them; they are plain data, so tests check that each fires on a scene built to
// trigger it, that its fix clears it, and that none fires on the default scene.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/bake/input.h"
#include "core/pipeline/params.h"

namespace nav {

struct Bake;
struct Regions;
struct ContourSet;
struct PolyMesh;

enum class WarningKind : uint8_t {
    RadiusUnderTwoCells,      // erosion rounds to whole cells: 1.x cells cuts corners coarsely
    CellSizeOverRadius,       // a cell wider than the agent: erosion keeps a whole cell off walls
    CellHeightOverHalfClimb,  // climb < 2 cell heights: steps merge with walls (seed 000)
    HugeGrid,                 // slow to bake, heavy on memory
    MeshZUp,                  // floors face +-z: modelled Z-up
    MeshCentimetres,          // extents in the thousands, walls hundreds of units tall
    MeshWoundWrong,           // floors face down: read as ceilings
    NoWalkableTriangles,      // nothing flatter than agent_max_slope
    NoPolygons,               // the bake went through and made no polygon
    GridRefused,              // check_grid refuses the grid: the bake stops before rasterizing
    RegionsLost,              // regions that made no contour or no polygon (the counts differ between stages)
    Count
};
// Stable snake_case name ("radius_under_two_cells"), for logs and tests.
std::string_view warning_name(WarningKind k);

struct ParamChange {
    ParamId id;
    double value;
};

struct Diagnostic {
    WarningKind kind;
    std::string title;              // one line
    std::string reason;             // why it goes wrong here, with the numbers
    std::vector<ParamChange> fix;   // empty: no automatic fix (the reason says what to do)
    std::string fix_text;           // "cell_size 0.3 -> 0.25 m"
    // Offered instead of `fix` when `fix` would raise another warning (diagnose's no-ping-pong
    // pass): a huge grid's cell_size raise puts the agent radius under two cells, tiles do not.
    std::vector<ParamChange> fallback;
};

// Regions lost between stages, over every grid whose results are held (the solo grid, or each
// tile's): the Stages table's region count is the partition's, its contour count the outlines
// that survived simplification, and the two differ by what is counted here.
struct RegionLoss {
    int64_t regions = 0;     // regions the partition made
    int64_t sliver = 0;      // no contour: the boundary simplified to fewer than 3 vertices (dropped, as Recast does)
    int64_t single_cell = 0; // no contour: single cells walled off on all four sides, where no walk starts (as in
                             // Recast; tiles keep small regions that touch their border, so they occur there)
    int64_t no_polygon = 0;  // a contour but no polygon: triangulation failed (the polymesh warnings say where)
    int grids = 0;           // grids counted
    int grids_without = 0;   // grids whose regions or contours were dropped (a lean bake's tiles)
    int64_t lost() const { return sliver + single_cell + no_polygon; }
};
// One grid: `polymesh` may be null (the bake stopped before it: no_polygon stays 0).
RegionLoss region_loss(const Regions& regions, const ContourSet& contours, const PolyMesh* polymesh);
RegionLoss region_loss(const Bake& bake);  // every grid of the bake

// What diagnose reads of a mesh's shape, computed once per mesh in O(triangles). Facing uses the
// normal of Recast's winding (cross(v1 - v0, v2 - v0)); |n.y| >= 0.7 is "horizontal".
struct MeshShape {
    int tris = 0;
    double area_total = 0, area_up = 0, area_down = 0;  // horizontal triangles facing up / down
    double area_facing_z = 0;                            // |n.z| >= 0.7: a Z-up mesh's floors
    float extent[3] = {0, 0, 0};
    float median_wall_height = 0;                        // median y extent of steep triangles (|n.y| < 0.3), 0 none
    float min_slope_up = 90, min_slope_down = 90;        // flattest triangle as wound / reversed, degrees
};
MeshShape analyze_mesh(const InputMesh& m);

// Warnings for parameters `p` (the values the fixes change: a viewer's desired ones) and,
// when given, a bake (its mesh is the one the stages read, mesh_* fixes applied) with `shape` =
// analyze_mesh(*bake->mesh). Mesh warnings are left out while p asks for other mesh fixes than
// the bake was made with (their result is not known yet). A fix is offered only when the
// warnings on the fixed parameters (the same bake) lose its own and gain none not listed now:
// applying offered fixes one after another never brings back a warning an earlier one cleared.
std::vector<Diagnostic> diagnose(const Params& p, const Bake* bake, const MeshShape* shape);

// Whether the change `fix` to `p` changes the bake: a parameter the stages read only through its
// rounded voxel value (agent_radius, agent_height, agent_max_climb, region sizes, edge_max_len)
// matters only when a derived voxel value moves (agent_radius 0.6 -> 0.5 m at 0.3 m cells is 2
// cells either way: too small to matter); any other changed value matters.
bool fix_matters(const Params& p, const std::vector<ParamChange>& fix);

// The post-pass diagnose() ends with, over the whole list (so a new warning needs no change here):
// - a fix too small to matter (fix_matters false) is not offered;
// - two fixes moving one parameter the same way get the same value, the farther one (it satisfies
//   both: cell_size raised to 0.45 and to 0.6 both become 0.6);
// - two fixes moving one parameter opposite ways: the warning that ranks first keeps its fix (the
//   mesh's own warnings, then those that stop or swamp the bake, then quality hints; ties by
//   order in the list), the other offers none and its reason names the one it yields to.
// Afterwards every parameter has at most one value among the offered fixes.
void reconcile_fixes(std::vector<Diagnostic>& list, const Params& p);

// Applies a diagnostic's fix to p; false (p unchanged) when it has none or a value is refused.
bool apply_fix(const Diagnostic& d, Params& p);

}  // namespace nav
