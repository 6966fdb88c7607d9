// Drawing of the path tool's query (navdebug's `path` layer): the corridor, its portals, the
// straight path with its corners, start and end markers, optionally the A* search (polygons
// coloured open / closed) and one step of the funnel. Colours are colors::kPath* / kNode* /
// kFunnel* in render/layers.h. CPU only, like the layer builders.
#pragma once
#include <cstdint>

#include "core/runtime/navmesh.h"
#include "core/runtime/query.h"
#include "render/draw_list.h"
#include "render/layers.h"

namespace nav::render {

// Colours of the raycast and distance-to-wall modes (the path mode uses colors:: in layers.h).
namespace colors {
constexpr uint32_t kRayVisited = rgba(170, 90, 255, 120);    // polygons the ray walked, violet
constexpr uint32_t kRayClear = rgba(255, 220, 0);            // ray from the start up to the hit, yellow
constexpr uint32_t kRayBlocked = rgba(255, 120, 0, 220);     // the rest toward the end, dashed orange
constexpr uint32_t kRayHit = rgba(255, 255, 255);            // hit point, white
constexpr uint32_t kRayNormal = rgba(255, 70, 255);          // wall normal at the hit, magenta
constexpr uint32_t kWallCircle = rgba(190, 110, 255);        // circle of the wall distance, violet
constexpr uint32_t kWallLine = rgba(255, 140, 20);           // centre -> nearest wall point, orange
}  // namespace colors

struct PathDrawInput {
    const NavMesh* mesh = nullptr;
    bool has_start = false, has_end = false;
    float start[3] = {0, 0, 0}, end[3] = {0, 0, 0};  // the points as picked (markers stand here)
    const PathResult* path = nullptr;                // corridor; null or empty: none
    const StraightPath* straight = nullptr;
    const AStarTrace* astar = nullptr;               // non-null: fill open / closed polygons
    const FunnelTrace* funnel = nullptr;             // non-null with funnel_step in range: draw that step
    int funnel_step = -1;
    // raycast mode (path null): the ray from ray_start (on the start polygon) toward ray_end, the
    // hit point on the surface when ray->hit
    const RaycastHit* ray = nullptr;
    float ray_start[3] = {0, 0, 0}, ray_end[3] = {0, 0, 0}, ray_hit[3] = {0, 0, 0};
    // distance-to-wall mode (path null): the search centre (on the start polygon)
    const WallHit* wall = nullptr;
    float wall_center[3] = {0, 0, 0};
    bool draw_end = true;  // false: no end marker (distance-to-wall uses the start only)
    // Path on top: fill and path drawn without depth test, over every layer and the input's walls
    // and upper floors (the app draws them after the layers). Off: depth-tested, hidden by what is
    // in front of them.
    bool on_top = true;
};

// Start / end markers: a thin dark pole 1.8 m high and a round point kMarkerPixels across
// (screen pixels, the same at any zoom) with the point shader's dark rim, over a dark point a few
// pixels larger (the outline), at the pole's foot.
constexpr float kMarkerPixels = 18.0f;
constexpr float kMarkerOutlinePixels = 24.0f;

// Fills four batches (each cleared first):
//   fill   - depth-tested unless on_top: corridor (or A* node) polygons over their detail surface,
//            portal lines;
//   path   - depth-tested unless on_top, thick: straight path polyline, its corner points;
//   funnel - drawn without depth test: a dashed line from a partial path's end to the goal (often
//            inside the geometry that makes it unreachable) and the funnel step (portal, apex,
//            apex->left, apex->right).
// Raycast: fill gets the visited polygons, path the clear part of the ray and the wall normal,
// funnel the hit point, the blocked rest dashed and the clear part again (thin, so it shows
// through slopes). Distance to wall: path gets the line to the nearest wall point, funnel the
// point, the line again and the circle (drawn over the geometry: it spans heights).
//   markers_outline, markers - never depth-tested, drawn last in this order: the markers' dark
//            poles and outlines (kMarkerOutlinePixels), then the points (kMarkerPixels).
void build_path(const PathDrawInput& in, DrawList& fill, DrawList& path, DrawList& funnel, DrawList& markers_outline,
                DrawList& markers);

}  // namespace nav::render
