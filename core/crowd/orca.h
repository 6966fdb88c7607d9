// ORCA (van den Berg, Guy, Lin, Manocha: "Reciprocal n-body collision avoidance", 2011): each
// neighbour and each nearby wall becomes a half-plane of allowed velocities; the new velocity is
// the one nearest the preferred velocity inside all of them and inside the speed circle, found by
// an incremental 2D linear program. When the half-planes leave no room, the velocity that least
// violates the agents' half-planes is taken (the walls' stay hard): agents then slow and slide
// instead of stopping dead.
//
// Why ORCA rather than DetourCrowd's velocity sampling: the linear program answers in time linear
// in the constraints (DetourCrowd scores hundreds of sampled velocities against every neighbour
// and wall), it is exact rather than as good as its sample grid, and reciprocity (each agent takes
// its share of the avoidance) is what keeps a symmetric crowd from oscillating.
//
// Vectors are (x, z) of the world. Nothing here allocates.
#pragma once
#include <cstdint>

namespace nav::orca {

struct Vec2 {
    float x = 0, y = 0;
};

// A directed line: allowed velocities lie on its left (det(direction, v - point) <= 0).
struct Line {
    Vec2 point, direction;
};

constexpr int kMaxLines = 40;

// The half-plane that keeps an agent at `pos` moving at `vel` (radius r) clear of a neighbour
// (npos, nvel, nr) for `horizon` seconds, taking `share` of the avoidance (0.5: reciprocal; 1: all
// of it; 0: none). `dt` is the time step (used when they already overlap).
Line agent_line(Vec2 pos, Vec2 vel, float r, Vec2 npos, Vec2 nvel, float nr, float horizon, float dt, float share);

// The half-plane that keeps a point agent at `pos` from reaching the wall segment a-b within
// `horizon` seconds (the navmesh is already eroded by the agent's radius, so walls bound the
// centre). False when the segment is behind the agent (it faces away) and needs no constraint.
bool wall_line(Vec2 pos, Vec2 a, Vec2 b, float horizon, Line* out);

// The velocity nearest `preferred` within |v| <= max_speed and the lines; lines[0, hard) are never
// violated when they leave any room (walls), the rest least violated when infeasible.
Vec2 solve(const Line* lines, int count, int hard, float max_speed, Vec2 preferred);

}  // namespace nav::orca
