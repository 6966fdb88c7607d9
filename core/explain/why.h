// Why is there no navmesh here? explain_point follows the column under a world point through
// every stage of a bake and says, stage by stage and in this level's numbers, what happened to it
// and the first stage that lost it. find_fix turns the cause into the smallest change of the one
// parameter (or convex volume) that decides it, and offers it only after a bake with the change
// has put the point on the navmesh. explain_path does the same for "why can't A reach B": the two
// islands, the gap between them, the story of the gap and its verified fix.
// Plain data over a finished Bake snapshot: a tool prints it, a viewer draws it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/pipeline/params.h"
#include "core/pipeline/pipeline.h"
#include "core/bake/stage.h"
#include "core/common.h"
#include "core/runtime/navmesh.h"

namespace nav {

// What lost the point (stable snake_case names: why_cause_name, the JSON "cause_kind").
enum class WhyCause : uint8_t {
    None,            // on the navmesh
    BadPoint,        // NaN / infinite coordinates
    OutsideBounds,   // outside the level's grid in x or z
    NoGeometry,      // no triangle and no span under the point (empty air, a hole)
    Slope,           // the triangle under it is steeper than agent_max_slope
    NotRasterized,   // a triangle is there but left no span (thinner than a cell, above the grid)
    LowHeight,       // low-height filter: clearance above the floor < agent_height
    Ledge,           // ledge filter: a drop on one side > agent_max_climb
    Erosion,         // nearer to a wall / ledge / low ceiling than agent_radius
    Volume,          // a convex volume marked it not walkable (area 0)
    SmallRegion,     // its region (island of connected spans) is smaller than region_min_size^2
    Simplified,      // its region's simplified outline leaves it out (edge_max_error)
    PolygonLost,     // the region's outline made no polygon over it (triangulation, vertex limit)
    NotInBake,       // the bake has not reached the stage that would answer (stopped, failed)
    Count
};
std::string_view why_cause_name(WhyCause c);

// What to draw for a stage's culprit, in world coordinates: segments (x,y,z pairs of points),
// a point and a box (the span or cell). Empty when the stage has nothing to show.
struct WhyShape {
    std::vector<float> lines;    // 6 floats a segment
    std::vector<float> points;   // 3 floats a point
    bool has_box = false;
    float box_min[3] = {0, 0, 0}, box_max[3] = {0, 0, 0};
    bool empty() const { return lines.empty() && points.empty() && !has_box; }
};

// One stage's line of the story.
struct WhyStage {
    Stage stage = Stage::Input;
    bool kept = true;     // the point's span / cell survived this stage
    std::string text;     // "span 1.20..1.40 m, clearance 1.80 m >= agent_height 2.00 m"
    WhyShape culprit;     // what decided it (the low ceiling's span, the ledge, the nearest wall cell...)
};

struct WhyStory {
    float point[3] = {0, 0, 0};   // as asked
    float floor_y = 0;            // the floor the story follows: the highest input surface at or below
                                  // point.y + 2 cell heights, else the lowest above
    bool on_navmesh = false;
    std::optional<Stage> lost_at; // the first stage that lost it; none when on the navmesh or no stage applies
    WhyCause cause = WhyCause::None;
    std::string cause_text;       // one line with the numbers: "clearance 1.80 m < agent_height 2.00 m"
    std::vector<WhyStage> stages; // the stages it went through, in order, up to and including lost_at
    int tile_x = -1, tile_z = -1; // tiled bakes: the tile the point lies in
    int cell_x = -1, cell_z = -1; // its column in that grid (the tile's grid when tiled, border included)
    // On the navmesh: its polygon, island, whether prune disabled it, the detail surface's height there.
    PolyRef poly = kNoRef;
    int island = -1;
    bool pruned = false;
    float detail_y = 0;
    // What decides the cause: the parameter and the value it would need (the fix starts there);
    // for WhyCause::Volume the volume's index instead. No decider: no fix (NoGeometry, ...).
    std::optional<ParamId> decider;
    double needed = 0;            // the value (world units, as in the parameter table) that would keep it
    int volume = -1;
};

// The story of `point` in `bake` (any snapshot; stages not built are reported as such). O(cells
// around the point + triangles): no re-bake.
WhyStory explain_point(const Bake& bake, const float* point);

// Whether a finished bake has the point on its navmesh: explain_point's verdict (on_navmesh, its
// polygon and island when given), so the two never disagree.
bool point_on_navmesh(const Bake& bake, const float* point, PolyRef* poly = nullptr, int* island = nullptr);

struct WhyEffects {
    double area_before = 0, area_after = 0;    // walkable area, m^2 (tiled: of the tiles re-baked)
    int64_t polys_before = 0, polys_after = 0;
    int islands_before = -1, islands_after = -1;  // -1: not known (tiled verification bakes tiles only)
    std::vector<int> tiles;                    // tiled: the tiles re-baked (tx + tz * cols)
};

struct WhyFix {
    std::optional<ParamId> param;  // the parameter changed, or none when a volume is removed
    double from = 0, to = 0;
    int remove_volume = -1;        // index of the convex volume removed
    bool verified = false;         // a bake with the change puts the point on the navmesh
    int bakes = 0;                 // verification bakes tried
    double ms = 0;                 // time spent verifying
    WhyEffects effects;
    std::string text;              // "agent_height 2.00 -> 1.75 m"
};

// The smallest verified change for a lost point (story = explain_point(bake, point)): candidate
// values from story.needed outwards, each checked by a bake of the bake's own mesh (Bake::mesh,
// the mesh_* corrections already applied, so they are not applied again) with the change: the
// whole level for a solo bake, only the point's tile when tiled. None when the cause has no
// decider or no candidate puts the point on the navmesh.
std::optional<WhyFix> find_fix(const Bake& bake, const WhyStory& story, const CancelFlag* cancel = nullptr);

// Applies a fix to parameters and volumes (a viewer's "apply", a tool's --set param=to).
void apply_why_fix(const WhyFix& fix, Params& p, std::vector<ConvexVolume>& volumes);

// Why can't A reach B.
struct WhyPath {
    bool reached = false;         // a full path exists from start to end
    bool partial = false;         // the search ended at the polygon nearest to the end
    WhyStory start_story, end_story;  // when start or end is itself off the navmesh
    int island_start = -1, island_end = -1;
    // The gap: the closest pair of points on the boundaries of the two islands.
    bool has_gap = false;
    float gap_a[3] = {0, 0, 0}, gap_b[3] = {0, 0, 0};
    float gap_length = 0;
    WhyStory gap_story;           // the story of the gap's cell that was lost first in the pipeline (or the detour's)
    std::optional<WhyFix> fix;    // verified: with it, a path reaches (a detour: gets shorter)
    // A reached path: its length (A* + funnel, xz) and the straight line's.
    float path_length = 0, straight_length = 0;
    // A reached path more than kDetourRatio times the straight line: the place on the straight
    // line that forced the detour (gap_story: the sample lost earliest in the pipeline, a fixable
    // one first) and a fix verified when the path then gets at least 10% shorter.
    static constexpr float kDetourRatio = 1.5f;
    bool detour = false;
    float detour_point[3] = {0, 0, 0};
};

// Verification bakes as find_fix's, of the whole level (the path needs the assembled navmesh).
WhyPath explain_path(const Bake& bake, const float* start, const float* end, bool want_fix = true,
                     const CancelFlag* cancel = nullptr);

}  // namespace nav
