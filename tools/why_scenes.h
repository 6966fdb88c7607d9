// Scenes built to lose one floor point for one known reason, for issue 21's "why is there no
// navmesh here" tests: each scene is a small level (y up, metres, the default parameters), the
// point it loses, and what --why must say about it (the stage, the cause, the parameter its fix
// changes). Two more are for --why-path: "step", two rooms joined by a step 0.1 m higher than the
// default agent_max_climb, and "detour", a door too narrow for the agent that sends the path round. Standard library only: the tests and gen_scenes use it.
//
// Coordinates follow gen_scenes.cpp's rules for the default grid (cell_size 0.3, cell_height 0.2):
// the ground spans [-9.15, 9.15] in x and z, so cell borders lie at 0.15 + 0.3k and cell centres at
// multiples of 0.3; walls and edges sit on multiples of 0.1 (never on a cell border) and walkable
// tops at 0.1 + 0.2k. The numbers each scene is built for are in its comment in why_scenes.cpp.
#pragma once
#include <string>
#include <vector>

namespace whyscene {

struct Volume {
    std::vector<float> verts;  // x, y, z per vertex (y ignored), convex
    float hmin = 0, hmax = 0;
    int area = 0;              // 0: not walkable
};

struct Scene {
    std::string name;          // "low_height": also the file name gen_scenes --why writes
    std::string about;         // one line: what the scene is built to show
    std::vector<float> verts;  // x, y, z per vertex
    std::vector<int> tris;     // 3 vertex indices per triangle, counter-clockwise seen from outside
    std::vector<Volume> volumes;
    float point[3] = {0, 0, 0};  // the point lost (for a path scene: the start)
    bool path = false;           // a --why-path scene: point -> end
    float end[3] = {0, 0, 0};
    std::string stage;           // the stage that must be named as losing it (timings_ms name)
    std::string cause;           // why_cause_name of the cause
    std::string param;           // the parameter the fix changes, "volume" for removing a volume
};

// Every scene, in a fixed order (slope, low_height, ledge, erosion, small_region, volume,
// simplified, step, detour). Deterministic.
std::vector<Scene> why_scenes();

// The scene as Wavefront OBJ text, and its config JSON ({"volumes": [...]}, "{}" without volumes).
std::string scene_obj(const Scene& s);
std::string scene_config_json(const Scene& s);

}  // namespace whyscene
