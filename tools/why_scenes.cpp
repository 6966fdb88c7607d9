// The scenes of why_scenes.h. Each comment gives the numbers the scene is built for at the
// default parameters: cell_size 0.3, cell_height 0.2, agent_height 2.0 (10 cells high),
// agent_radius 0.6 (2 cells), agent_max_climb 0.9 (4 cells), agent_max_slope 45, region_min_size 8
// (64 cells), edge_max_error 1.3 cells.
#include "why_scenes.h"

#include <cmath>
#include <cstdio>

namespace whyscene {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr float kHalf = 9.15f;  // the ground's half size: cell borders at 0.15 + 0.3k
constexpr float kGround = 0.1f; // the ground's top

void add_quad(Scene& s, const float* a, const float* b, const float* c, const float* d) {
    const int base = static_cast<int>(s.verts.size() / 3);
    for (const float* p : {a, b, c, d}) s.verts.insert(s.verts.end(), p, p + 3);
    const int t[] = {0, 1, 2, 0, 2, 3};
    for (int i : t) s.tris.push_back(base + i);
}

// A horizontal quad at height y over [x0,x1] x [z0,z1], facing up.
void add_floor(Scene& s, float x0, float z0, float x1, float z1, float y) {
    const float a[] = {x0, y, z0}, b[] = {x0, y, z1}, c[] = {x1, y, z1}, d[] = {x1, y, z0};
    add_quad(s, a, b, c, d);
}

// A closed box with outward faces.
void add_box(Scene& s, float x0, float y0, float z0, float x1, float y1, float z1) {
    const int base = static_cast<int>(s.verts.size() / 3);
    const float v[] = {x0, y0, z0, x1, y0, z0, x1, y0, z1, x0, y0, z1,
                       x0, y1, z0, x1, y1, z0, x1, y1, z1, x0, y1, z1};
    s.verts.insert(s.verts.end(), v, v + 24);
    const int t[] = {0, 1, 2, 0, 2, 3, 4, 7, 6, 4, 6, 5, 0, 4, 5, 0, 5, 1,
                     3, 2, 6, 3, 6, 7, 0, 3, 7, 0, 7, 4, 1, 5, 6, 1, 6, 2};
    for (int i : t) s.tris.push_back(base + i);
}

Scene base(const char* name, const char* about, const char* stage, const char* cause, const char* param) {
    Scene s;
    s.name = name;
    s.about = about;
    s.stage = stage;
    s.cause = cause;
    s.param = param;
    add_floor(s, -kHalf, -kHalf, kHalf, kHalf, kGround);
    return s;
}

void set(float* p, float x, float y, float z) {
    p[0] = x;
    p[1] = y;
    p[2] = z;
}

}  // namespace

std::vector<Scene> why_scenes() {
    std::vector<Scene> out;

    {   // A ramp of 47 degrees (2 over agent_max_slope), 4 m long in x and 6 m wide, rising from
        // the ground at x = 1 to 4.39 m at x = 5; the point is on its middle. Lost at input.
        Scene s = base("slope", "a ramp of 47 degrees, 2 over agent_max_slope 45", "input", "slope",
                       "agent_max_slope");
        const float t = static_cast<float>(std::tan(47.0 * kPi / 180.0));
        const float top = kGround + 4.0f * t;
        const float a[] = {1.0f, kGround, -3.0f}, b[] = {1.0f, kGround, 3.0f}, c[] = {5.0f, top, 3.0f},
                    d[] = {5.0f, top, -3.0f};
        add_quad(s, a, b, c, d);
        set(s.point, 3.0f, kGround + 2.0f * t, 0.0f);
        out.push_back(std::move(s));
    }
    {   // A slab 6 x 6 m whose underside is at 2.45 m, 2.35 m over the ground. The ground is the
        // grid's bottom (y = 0.1), so in voxels the floor's span is [0, 1) and the ceiling starts at
        // floor(2.35 / 0.2) = 11: a clearance of 10 cells = 2.0 m. The low-height
        // filter keeps a floor only when its clearance is more than agent_height's 10 cells
        // (Recast's rule), so the ceiling is one cell, 0.2 m, too low. The point is on the ground
        // under its middle. Lost at filter (low height); agent_height 1.8 (9 cells) keeps it.
        Scene s = base("low_height", "a ceiling 0.2 m too low: 10 cells of clearance, agent_height 2.0 needs 11",
                       "filter", "low_height", "agent_height");
        add_box(s, -3.0f, 2.45f, -3.0f, 3.0f, 2.85f, 3.0f);
        set(s.point, 0.0f, kGround, 0.0f);
        out.push_back(std::move(s));
    }
    {   // A platform 6 x 6 m with its top 1.0 m over the ground: a drop of 5 cells > agent_max_climb
        // 4 cells. The point is on its outermost cell (x in [2.85, 3.15], the edge at x = 3): the
        // ledge filter removes that cell. Lost at filter (ledge).
        Scene s = base("ledge", "a platform edge with a drop of 1.0 m, 0.1 m over agent_max_climb 0.9", "filter",
                       "ledge", "agent_max_climb");
        add_box(s, -3.0f, 0.0f, -3.0f, 3.0f, kGround + 1.0f, 3.0f);
        set(s.point, 2.95f, kGround + 1.0f, 0.0f);
        out.push_back(std::move(s));
    }
    {   // Two walls leave a corridor 1.0 m wide (x in [-0.5, 0.5], 3 free cells), 6 m long, joining
        // the open ground at both ends: narrower than 2 x agent_radius 0.6, so erosion removes all
        // three cells. The point is in its middle. Lost at erode.
        Scene s = base("erosion", "a corridor 1.0 m wide, under 2 x agent_radius 0.6", "erode", "erosion",
                       "agent_radius");
        add_box(s, -2.5f, 0.0f, -3.0f, -0.5f, kGround + 2.0f, 3.0f);
        add_box(s, 0.5f, 0.0f, -3.0f, 2.5f, kGround + 2.0f, 3.0f);
        set(s.point, 0.0f, kGround, 0.0f);
        out.push_back(std::move(s));
    }
    {   // A platform 3.8 x 3.8 m (13 x 13 cells) with its top 1.4 m over the ground: the ledge
        // filter takes its outer ring and erosion two more, leaving 7 x 7 = 49 cells, fewer than
        // region_min_size^2 = 64. The point is on its middle. Lost at regions.
        Scene s = base("small_region", "a raised platform whose walkable top is 49 cells, under 8 x 8", "regions",
                       "small_region", "region_min_size");
        add_box(s, -1.9f, 0.0f, -1.9f, 1.9f, kGround + 1.4f, 1.9f);
        set(s.point, 0.0f, kGround + 1.4f, 0.0f);
        out.push_back(std::move(s));
    }
    {   // A convex volume of area 0 (not walkable) over [-1, 1] x [-1, 1] on open ground. The point
        // is at its centre. Lost at areas.
        Scene s = base("volume", "a not_walkable convex volume on open ground", "areas", "volume", "volume");
        Volume v;
        v.verts = {-1.0f, 0.0f, -1.0f, 1.0f, 0.0f, -1.0f, 1.0f, 0.0f, 1.0f, -1.0f, 0.0f, 1.0f};
        v.hmin = -1.0f;
        v.hmax = 1.0f;
        v.area = 0;
        s.volumes.push_back(v);
        set(s.point, 0.0f, kGround, 0.0f);
        out.push_back(std::move(s));
    }
    {   // A straight wall (south face at z = 2.0) with an alcove 2 m wide and 0.3 m deep (x in
        // [3, 5], back at z = 2.3). After erosion the walkable edge runs along z = 1.35 with a bump
        // of one cell (z in [1.35, 1.65]) in front of the alcove, 3 cells wide: its corners lie 1.0
        // cell off the straight edge, under edge_max_error 1.3, so the simplified outline cuts the
        // bump off. (The alcove is off the wall's middle: edge_max_len splits the 17 m edge there,
        // and the split would keep the bump.) The point is in the bump. Lost at contours.
        Scene s = base("simplified", "a one-cell bump of the walkable edge, cut by edge_max_error 1.3", "contours",
                       "simplified", "edge_max_error");
        add_box(s, -6.0f, 0.0f, 2.0f, 3.0f, kGround + 2.0f, 3.0f);
        add_box(s, 5.0f, 0.0f, 2.0f, 8.0f, kGround + 2.0f, 3.0f);
        add_box(s, 3.0f, 0.0f, 2.3f, 5.0f, kGround + 2.0f, 3.0f);
        set(s.point, 3.9f, kGround, 1.5f);
        out.push_back(std::move(s));
    }
    {   // Two rooms: the ground (x < 0) and a platform over the whole east half (x in [0, 9.15])
        // whose top is 1.0 m higher: a step 0.1 m over agent_max_climb 0.9, the only way between
        // them. From the ground to the platform: no path; the gap crosses the step, lost at filter
        // (ledge); agent_max_climb 1.0 joins them.
        Scene s = base("step", "two rooms joined by a step 1.0 m high, 0.1 m over agent_max_climb 0.9", "filter",
                       "ledge", "agent_max_climb");
        add_box(s, 0.0f, 0.0f, -kHalf, kHalf, kGround + 1.0f, kHalf);
        s.path = true;
        set(s.point, -5.0f, kGround, 0.0f);
        set(s.end, 4.0f, kGround + 1.0f, 0.0f);
        out.push_back(std::move(s));
    }
    {   // A wall across the level (x in [-0.5, 0.5]) from the south edge to z = 6, with a door 1.0 m
        // wide (z in [-0.5, 0.5]): narrower than 2 x agent_radius 0.6, so the path from one side to
        // the other (6 m straight) goes round the wall's north end, more than twice as long. The
        // door's cells are lost at erode; agent_radius 0.3 opens it.
        Scene s = base("detour", "a door 1.0 m wide, under 2 x agent_radius 0.6, forcing a detour round the wall",
                       "erode", "erosion", "agent_radius");
        add_box(s, -0.5f, 0.0f, -kHalf, 0.5f, kGround + 2.0f, -0.5f);
        add_box(s, -0.5f, 0.0f, 0.5f, 0.5f, kGround + 2.0f, 6.0f);
        s.path = true;
        set(s.point, -3.0f, kGround, 0.0f);
        set(s.end, 3.0f, kGround, 0.0f);
        out.push_back(std::move(s));
    }
    return out;
}

std::string scene_obj(const Scene& s) {
    std::string out = "# " + s.name + ": " + s.about + "\n";
    char buf[96];
    for (size_t i = 0; i + 2 < s.verts.size(); i += 3) {
        std::snprintf(buf, sizeof buf, "v %.6g %.6g %.6g\n", s.verts[i], s.verts[i + 1], s.verts[i + 2]);
        out += buf;
    }
    for (size_t i = 0; i + 2 < s.tris.size(); i += 3) {
        std::snprintf(buf, sizeof buf, "f %d %d %d\n", s.tris[i] + 1, s.tris[i + 1] + 1, s.tris[i + 2] + 1);
        out += buf;
    }
    return out;
}

std::string scene_config_json(const Scene& s) {
    if (s.volumes.empty()) return "{}\n";
    std::string out = "{\"volumes\": [";
    char buf[96];
    for (size_t k = 0; k < s.volumes.size(); ++k) {
        const Volume& v = s.volumes[k];
        out += k ? ", {\"verts\": [" : "{\"verts\": [";
        for (size_t i = 0; i + 2 < v.verts.size(); i += 3) {
            std::snprintf(buf, sizeof buf, "%s[%.6g, %.6g, %.6g]", i ? ", " : "", v.verts[i], v.verts[i + 1],
                          v.verts[i + 2]);
            out += buf;
        }
        std::snprintf(buf, sizeof buf, "], \"hmin\": %.6g, \"hmax\": %.6g, \"area\": %d}", v.hmin, v.hmax, v.area);
        out += buf;
    }
    return out + "]}\n";
}

}  // namespace whyscene
