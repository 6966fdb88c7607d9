// Temporary obstacles (DetourTileCache's, Unity's carving NavMeshObstacle): shapes that make the
// walkable spans inside them not walkable, as an input of the areas stage (after the convex
// volumes), so adding, moving or removing one re-runs areas -> navmesh only for the tiles it
// touches, from the tile's compact heightfield and eroded areas as they were before any obstacle.
//
// An obstacle is grown by the agent radius before it is stamped (as erosion grows the walls), so
// the polygons stop where the agent's centre must stop and a path round an obstacle never clips
// it. A span is inside when its cell centre is inside the grown shape in xz and its floor lies
// between the shape's bottom less walkable_climb (an obstacle set down on a floor covers that floor,
// whatever rounding put the voxel floor a little below) and its top.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/bake/compact.h"
#include "core/common.h"

namespace nav {

enum class ObstacleShape : uint8_t {
    Cylinder,    // pos = centre of its base, radius, height
    Box,         // axis-aligned: pos = centre of the box, half = half extents
    RotatedBox,  // pos = centre, half = half extents in its own frame, turned by yaw about +y
};

struct Obstacle {
    ObstacleShape shape = ObstacleShape::Cylinder;
    float pos[3] = {0, 0, 0};
    float radius = 0.5f, height = 2.0f;    // cylinder
    float half[3] = {0.5f, 1.0f, 0.5f};    // boxes
    float yaw = 0.0f;                      // rotated box, radians (counter-clockwise seen from +y)
    bool operator==(const Obstacle& o) const;
};

std::string_view obstacle_shape_name(ObstacleShape s);  // "cylinder", "box", "rotated_box"
bool obstacle_shape_from_name(std::string_view name, ObstacleShape& out);

// The shape's own frame in xz: origin at pos, axes turned by yaw for a RotatedBox (only moved for
// the other shapes). obstacle_to_world is its inverse. A direction turns as the point pos + d does.
void obstacle_to_local(const Obstacle& o, float x, float z, float* lx, float* lz);
void obstacle_to_world(const Obstacle& o, float lx, float lz, float* x, float* z);

// The obstacle's xz bounds (x0, z0, x1, z1) and y range (y0, y1), grown by `grow` metres in xz.
void obstacle_bounds(const Obstacle& o, float grow, float* box4, float* y0, float* y1);
// True when (x, z) is within `grow` metres of the shape in xz (its Minkowski sum with a disc: a box's
// corners grow round).
bool obstacle_contains_xz(const Obstacle& o, float grow, float x, float z);

// Sets areas[i] = kNullArea for every span of chf inside o grown by `grow` (see above); `climb` in
// metres. Returns the number of spans it cleared.
int64_t mark_obstacle(const CompactHeightfield& chf, const Obstacle& o, float grow, float climb,
                      std::vector<uint8_t>& areas);

// Clears `bits` in types[i] (per span, clearance.h) for every span inside o grown by `grow`, the
// test mark_obstacle uses: an agent type with a larger radius keeps its own distance. Returns the
// number of spans it changed.
int64_t clear_obstacle_types(const CompactHeightfield& chf, const Obstacle& o, float grow, float climb, uint16_t bits,
                             std::vector<uint16_t>& types);

// Checks an obstacle: finite numbers, radius / height / half extents > 0. The message starts
// with `what` ("obstacles[2]") and names the field.
Status validate_obstacle(const Obstacle& o, const std::string& what);

}  // namespace nav
