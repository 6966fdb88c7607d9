// gen_scenes: writes the demo scenes the project ships under assets/ (Wavefront OBJ, y up, metres,
// triangles counter-clockwise seen from outside) and the demo config. Deterministic output.
//
//   gen_scenes OUT_DIR     writes OUT_DIR/{demo.obj, demo.json, stairs.obj, islands.obj, indoor.obj, map2d_*.json}
//   gen_scenes --large OUT.obj   writes the large benchmark level (large_scene.cpp; not committed)
//   gen_scenes --bench OUT_DIR   writes the benchmark levels (bench_scenes.cpp): arena.obj, house.obj, terrain.obj
//   gen_scenes --why OUT_DIR     writes the "why" scenes (why_scenes.h): NAME.obj and NAME.json each
//
// Every object except the ground is a closed solid; each solid is checked before writing (every
// directed edge has exactly one reverse twin, positive volume, no degenerate triangle).
// (indoor.obj's shell is a closed room whose faces point inward: checked the same way, negative volume.)
// Coordinates are chosen against the default grid (cell_size 0.3, cell_height 0.2): the ground
// spans [-20.25, 20.25], so cell borders lie at 0.15 + 0.3k and cell centres at multiples of 0.3;
// feature edges sit on multiples of 0.1 (never on a cell border), and walkable tops sit at
// 0.1 + 0.2k (half a voxel, so their voxel height never depends on float rounding).
// assets/README.md lists the coordinates of every feature; keep it in sync with this file.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gen_maps2d.h"
#include "why_scenes.h"

namespace {

constexpr double kPi = 3.14159265358979323846;

struct V3 {
    double x, y, z;
};
V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V3 cross(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

struct P2 {  // a point in the xz plane
    double x, z;
};

struct Object {
    std::string name;
    bool closed = true;  // false only for the ground
    bool inward = false; // a closed room shell whose faces point into the room (indoor.obj)
    std::vector<V3> v;
    std::vector<std::array<int, 3>> f;  // local vertex indices
};

struct Rect {
    double x0, z0, x1, z1;
};

struct Scene {
    std::string title;
    std::vector<Object> objects;
    std::vector<Rect> footprints;  // ground holes: under axis-aligned solids standing on the ground
    std::vector<std::string> errors;
};

void add(Scene& s, Object o) { s.objects.push_back(std::move(o)); }

// Adds an axis-aligned solid standing on the ground and cuts its footprint out of the ground.
void add_on_ground(Scene& s, Object o) {
    Rect r{1e30, 1e30, -1e30, -1e30};
    for (const V3& p : o.v) {
        r.x0 = std::min(r.x0, p.x), r.z0 = std::min(r.z0, p.z);
        r.x1 = std::max(r.x1, p.x), r.z1 = std::max(r.z1, p.z);
    }
    s.footprints.push_back(r);
    add(s, std::move(o));
}

// A prism: the convex polygon `base` (in any plane, either winding) swept by `d`. Faces are wound
// so the normals point out of the solid.
Object prism(std::string name, const std::vector<V3>& base, V3 d) {
    Object o;
    o.name = std::move(name);
    const int n = static_cast<int>(base.size());
    for (const V3& p : base) o.v.push_back(p);
    for (const V3& p : base) o.v.push_back(p + d);
    for (int i = 1; i + 1 < n; ++i) {
        o.f.push_back({0, i + 1, i});          // base cap
        o.f.push_back({n, n + i, n + i + 1});  // swept cap
    }
    for (int i = 0; i < n; ++i) {
        const int j = (i + 1) % n;
        o.f.push_back({i, j, n + j});
        o.f.push_back({i, n + j, n + i});
    }
    // Orientation: flip everything if the signed volume came out negative.
    double vol6 = 0;
    for (const auto& t : o.f) vol6 += dot(o.v[static_cast<size_t>(t[0])], cross(o.v[static_cast<size_t>(t[1])], o.v[static_cast<size_t>(t[2])]));
    if (vol6 < 0)
        for (auto& t : o.f) std::swap(t[1], t[2]);
    return o;
}

// A vertical prism over a convex polygon in xz, from y0 to y1.
Object column(std::string name, const std::vector<P2>& poly, double y0, double y1) {
    std::vector<V3> base;
    for (const P2& p : poly) base.push_back({p.x, y0, p.z});
    return prism(std::move(name), base, {0, y1 - y0, 0});
}

Object box(std::string name, double x0, double y0, double z0, double x1, double y1, double z1) {
    return column(std::move(name), {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}}, y0, y1);
}

// A regular n-gon cylinder around (cx, cz).
Object cylinder(std::string name, double cx, double cz, double r, int n, double y0, double y1) {
    std::vector<P2> poly;
    for (int i = 0; i < n; ++i) {
        const double a = 2.0 * kPi * i / n;
        poly.push_back({cx + r * std::cos(a), cz + r * std::sin(a)});
    }
    return column(std::move(name), poly, y0, y1);
}

// A wedge rising along +x or -x: the triangle (xlow, 0), (xhigh, 0), (xhigh, h) in xy, swept
// over [z0, z1]. The sloped face rises from y = 0 at xlow to y = h at xhigh.
Object wedge_x(std::string name, double xlow, double xhigh, double h, double z0, double z1) {
    return prism(std::move(name), {{xlow, 0, z0}, {xhigh, 0, z0}, {xhigh, h, z0}}, {0, 0, z1 - z0});
}

// The open ground at y = 0, normals up: a grid over [x0,x1] x [z0,z1] with lines every `step`
// metres plus the edges of every hole, leaving out the cells inside a hole. Holes go under the
// footprints of solids standing on the ground, so no walkable floor is left inside a solid (Recast
// voxelises surfaces only: a floor enclosed by a tall box would become an unreachable region).
// One grid for the whole ground, so there are no T-junctions.
Object ground(const Rect& r, double step, const std::vector<Rect>& holes) {
    auto lines = [&](double lo, double hi, bool along_x) {
        std::vector<double> v;
        const int n = static_cast<int>(std::lround((hi - lo) / step));
        for (int i = 0; i <= n; ++i) v.push_back(i == n ? hi : lo + step * i);
        for (const Rect& h : holes)
            for (double c : along_x ? std::array<double, 2>{h.x0, h.x1} : std::array<double, 2>{h.z0, h.z1})
                if (c > lo && c < hi) v.push_back(c);
        std::sort(v.begin(), v.end());
        std::vector<double> out;
        for (double c : v)
            if (out.empty() || c - out.back() > 1e-6) out.push_back(c);
        return out;
    };
    const std::vector<double> xs = lines(r.x0, r.x1, true), zs = lines(r.z0, r.z1, false);
    const int nx = static_cast<int>(xs.size()), nz = static_cast<int>(zs.size());
    Object o;
    o.name = "ground";
    o.closed = false;
    std::vector<int> id(static_cast<size_t>(nx * nz), -1);  // grid vertex -> object vertex
    auto vert = [&](int i, int j) {
        int& k = id[static_cast<size_t>(j * nx + i)];
        if (k < 0) {
            k = static_cast<int>(o.v.size());
            o.v.push_back({xs[static_cast<size_t>(i)], 0.0, zs[static_cast<size_t>(j)]});
        }
        return k;
    };
    for (int j = 0; j + 1 < nz; ++j)
        for (int i = 0; i + 1 < nx; ++i) {
            const double cx = 0.5 * (xs[static_cast<size_t>(i)] + xs[static_cast<size_t>(i + 1)]);
            const double cz = 0.5 * (zs[static_cast<size_t>(j)] + zs[static_cast<size_t>(j + 1)]);
            bool hole = false;
            for (const Rect& h : holes) hole = hole || (cx > h.x0 && cx < h.x1 && cz > h.z0 && cz < h.z1);
            if (hole) continue;
            const int a = vert(i, j), b = vert(i + 1, j), c = vert(i, j + 1), d = vert(i + 1, j + 1);
            o.f.push_back({a, c, d});  // (x0,z0) -> (x0,z1) -> (x1,z1): normal +y
            o.f.push_back({a, d, b});
        }
    return o;
}

void check(Scene& s) {
    for (const Object& o : s.objects) {
        for (const auto& t : o.f) {
            const V3 a = o.v[static_cast<size_t>(t[0])], b = o.v[static_cast<size_t>(t[1])], c = o.v[static_cast<size_t>(t[2])];
            const V3 nrm = cross(b - a, c - a);
            if (dot(nrm, nrm) < 1e-12) s.errors.push_back(s.title + ": " + o.name + ": degenerate triangle");
            if (!o.closed && nrm.y <= 0) s.errors.push_back(s.title + ": " + o.name + ": normal not pointing up");
        }
        if (!o.closed) continue;
        std::map<std::pair<int, int>, int> edges;
        for (const auto& t : o.f)
            for (int k = 0; k < 3; ++k) ++edges[{t[static_cast<size_t>(k)], t[static_cast<size_t>((k + 1) % 3)]}];
        for (const auto& [e, count] : edges) {
            const auto twin = edges.find({e.second, e.first});
            if (count != 1 || twin == edges.end() || twin->second != 1) {
                s.errors.push_back(s.title + ": " + o.name + ": not a closed, consistently wound solid");
                break;
            }
        }
        double vol6 = 0;
        for (const auto& t : o.f)
            vol6 += dot(o.v[static_cast<size_t>(t[0])], cross(o.v[static_cast<size_t>(t[1])], o.v[static_cast<size_t>(t[2])]));
        if (!o.inward && vol6 <= 0) s.errors.push_back(s.title + ": " + o.name + ": faces point inward");
        if (o.inward && vol6 >= 0) s.errors.push_back(s.title + ": " + o.name + ": room shell faces point outward");
    }
}

std::string num(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", x);
    std::string s = buf;
    if (s == "-0.0000") s = "0.0000";
    return s;
}

bool write_file(const std::string& path, const std::string& text) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        std::fprintf(stderr, "gen_scenes: cannot write %s\n", path.c_str());
        return false;
    }
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (std::fclose(f) != 0 || !ok) {
        std::fprintf(stderr, "gen_scenes: error writing %s\n", path.c_str());
        return false;
    }
    return true;
}

bool write_obj(const std::string& path, const Scene& s) {
    size_t nv = 0, nt = 0;
    for (const Object& o : s.objects) {
        nv += o.v.size();
        nt += o.f.size();
    }
    std::string out;
    out += "# " + s.title + " - written by tools/gen_scenes (do not edit; see assets/README.md)\n";
    out += "# y up, metres, counter-clockwise triangles seen from outside\n";
    out += "# " + std::to_string(nv) + " vertices, " + std::to_string(nt) + " triangles, " +
           std::to_string(s.objects.size()) + " objects\n";
    size_t base = 1;
    for (const Object& o : s.objects) {
        out += "# " + o.name + "\n";
        for (const V3& p : o.v) out += "v " + num(p.x) + " " + num(p.y) + " " + num(p.z) + "\n";
        for (const auto& t : o.f)
            out += "f " + std::to_string(base + static_cast<size_t>(t[0])) + " " + std::to_string(base + static_cast<size_t>(t[1])) +
                   " " + std::to_string(base + static_cast<size_t>(t[2])) + "\n";
        base += o.v.size();
    }
    if (!write_file(path, out)) return false;
    std::printf("%s: %zu vertices, %zu triangles, %zu objects\n", path.c_str(), nv, nt, s.objects.size());
    return true;
}

// ---- The features. Coordinates are documented in assets/README.md. ----

constexpr double kGroundMin = -20.25, kGroundMax = 20.25;

// Upper floors joined by the two staircases and the bridge (north-west).
constexpr double kUpperTop = 4.1;
void add_upper_west(Scene& s) { add_on_ground(s, box("upper_floor_west", -19, 0, -18, -10, kUpperTop, -8)); }

// Two straight staircases climbing north (-z) onto upper_floor_west (south face at z = -8), each
// step a solid block from the ground, 1.5 m deep and 3 m wide. Step tops at 0.1 + rise * i.
void add_staircases(Scene& s) {
    for (int i = 1; i <= 4; ++i) {  // rise 0.8 m: 4 steps, the 5th rise is the floor itself
        const double zs = -8.0 + 1.5 * (5 - i);
        add_on_ground(s, box("stair_0.8m_step" + std::to_string(i), -18.5, 0, zs - 1.5, -15.5, 0.1 + 0.8 * i, zs));
    }
    for (int i = 1; i <= 3; ++i) {  // rise 1.0 m: 3 steps, the 4th rise is the floor
        const double zs = -8.0 + 1.5 * (4 - i);
        add_on_ground(s, box("stair_1.0m_step" + std::to_string(i), -14, 0, zs - 1.5, -11, 0.1 + 1.0 * i, zs));
    }
}

// A second upper floor east of a north-south corridor, joined to the west one by a bridge.
void add_bridge(Scene& s) {
    add_on_ground(s, box("upper_floor_east", -6, 0, -18, -2, kUpperTop, -8));
    add(s, box("bridge_deck", -10, 3.7, -14.5, -6, kUpperTop, -11.5));
    add(s, box("bridge_rail_north", -10, kUpperTop, -14.5, -6, kUpperTop + 1.0, -14.3));
    add(s, box("bridge_rail_south", -10, kUpperTop, -11.7, -6, kUpperTop + 1.0, -11.5));
}

// A walled hall (north-east) with pillars; its south wall has a 0.9 m and a 2 m doorway.
void add_hall(Scene& s) {
    const double h = 3.0, lintel = 2.5;
    add(s, box("hall_wall_north", 2, 0, -18, 18, h, -17.7));
    add(s, box("hall_wall_west", 2, 0, -17.7, 2.3, h, -6.3));
    add(s, box("hall_wall_east", 17.7, 0, -17.7, 18, h, -6.3));
    add(s, box("hall_wall_south_a", 2, 0, -6.3, 5.6, h, -6));
    add(s, box("hall_door_narrow_lintel", 5.6, lintel, -6.3, 6.5, h, -6));
    add(s, box("hall_wall_south_b", 6.5, 0, -6.3, 13, h, -6));
    add(s, box("hall_door_wide_lintel", 13, lintel, -6.3, 15, h, -6));
    add(s, box("hall_wall_south_c", 15, 0, -6.3, 18, h, -6));
    const double px[] = {6, 10, 14}, pz[] = {-15, -9};
    for (double z : pz)
        for (double x : px)
            add(s, cylinder("pillar_" + num(x) + "_" + num(z), x, z, 0.4, 16, 0, 4));
}

// A platform (south-west) reached by a 20 degree ramp from the west; a 60 degree slope on its east.
constexpr double kMidTop = 2.9;
void add_ramp_and_slope(Scene& s) {
    add_on_ground(s, box("mid_platform", -10, 0, 5, -4, kMidTop, 11));
    add_on_ground(s, wedge_x("ramp_20deg", -18, -10, kMidTop, 6, 10));
    const double run = kMidTop / std::tan(60.0 * kPi / 180.0);
    add_on_ground(s, wedge_x("steep_slope_60deg", -4 + run, -4, kMidTop, 6, 10));
}

// A table too low to walk under: 1.2 x 2 m top from y 0.8 to 0.9 on four legs.
void add_table(Scene& s) {
    const double x0 = -14.6, x1 = -13.4, z0 = 14, z1 = 16;
    add(s, box("table_top", x0, 0.8, z0, x1, 0.9, z1));
    const double lx[] = {x0 + 0.05, x1 - 0.15}, lz[] = {z0 + 0.05, z1 - 0.15};
    int k = 0;
    for (double z : lz)
        for (double x : lx) add(s, box("table_leg" + std::to_string(++k), x, 0, z, x + 0.1, 0.8, z + 0.1));
}

// Spiral staircase around a column at (6, 13): 20 solid steps of 16 degrees and 0.25 m rise,
// climbing with the angle measured from +x towards +z (step 1 at 0..16 degrees), then a landing.
constexpr double kSpiralX = 6, kSpiralZ = 13, kSpiralR0 = 0.5, kSpiralR1 = 3.0;
constexpr int kSpiralSteps = 20;
constexpr double kSpiralStepDeg = 16, kSpiralRise = 0.25;
void add_spiral(Scene& s) {
    auto at = [](double r, double deg) {
        const double a = deg * kPi / 180.0;
        return P2{kSpiralX + r * std::cos(a), kSpiralZ + r * std::sin(a)};
    };
    add(s, cylinder("spiral_column", kSpiralX, kSpiralZ, kSpiralR0, 16, 0, 7.1));
    for (int i = 1; i <= kSpiralSteps; ++i) {
        const double a0 = kSpiralStepDeg * (i - 1), a1 = kSpiralStepDeg * i;
        add(s, column("spiral_step" + std::to_string(i),
                                   {at(kSpiralR0, a0), at(kSpiralR1, a0), at(kSpiralR1, a1), at(kSpiralR0, a1)}, 0,
                                   0.1 + kSpiralRise * i));
    }
    // The landing fills the last 40 degrees and reaches out east: one step above the last step.
    const double end = kSpiralStepDeg * kSpiralSteps;  // 320
    const P2 b = at(4.0, end);
    add(s, column("spiral_landing",
                               {at(kSpiralR0, end), b, {kSpiralX + 5.5, b.z}, {kSpiralX + 5.5, kSpiralZ - 0.1},
                                {kSpiralX + kSpiralR0, kSpiralZ - 0.1}},
                               0, 0.1 + kSpiralRise * (kSpiralSteps + 1)));
}

// A hurdle on the plaza: a beam along x with a steep (60 degree) roof, bottom at 0.5 m, apex at
// 0.76 m, on two posts. Under it the ground is walkable and the beam is a separate, unwalkable span
// just above it: the low-hanging-obstacle filter makes the beam walkable (the agent steps over it)
// and the low-height filter removes the floor under it.
void add_hurdle(Scene& s) {
    const double x0 = -1.5, x1 = 1.5, z0 = 2.9, z1 = 3.2, y0 = 0.5;
    const double apex = y0 + 0.5 * (z1 - z0) * std::tan(60.0 * kPi / 180.0);
    add(s, prism("hurdle_beam", {{x0, y0, z0}, {x0, y0, z1}, {x0, apex, 0.5 * (z0 + z1)}}, {x1 - x0, 0, 0}));
    add(s, box("hurdle_post_west", x0, 0, z0, x0 + 0.2, y0, z1));
    add(s, box("hurdle_post_east", x1 - 0.2, 0, z0, x1, y0, z1));
}

// A high platform with no way up.
void add_unreachable(Scene& s) { add_on_ground(s, box("unreachable_platform", 14, 0, 13, 19, 6.1, 19)); }

// The pool: flat ground [12.1, 17.9] x [2.1, 7.9] inside a 0.3 m kerb (the water volume).
constexpr double kPoolX0 = 12.1, kPoolX1 = 17.9, kPoolZ0 = 2.1, kPoolZ1 = 7.9, kKerb = 0.3, kKerbH = 0.3;
void add_pool(Scene& s) {
    add(s, box("pool_kerb_north", kPoolX0 - kKerb, 0, kPoolZ0 - kKerb, kPoolX1 + kKerb, kKerbH, kPoolZ0));
    add(s, box("pool_kerb_south", kPoolX0 - kKerb, 0, kPoolZ1, kPoolX1 + kKerb, kKerbH, kPoolZ1 + kKerb));
    add(s, box("pool_kerb_west", kPoolX0 - kKerb, 0, kPoolZ0, kPoolX0, kKerbH, kPoolZ1));
    add(s, box("pool_kerb_east", kPoolX1, 0, kPoolZ0, kPoolX1 + kKerb, kKerbH, kPoolZ1));
}

std::string demo_json() {
    std::string out = "{\n  \"volumes\": [\n    {\n      \"verts\": [";
    const double vx[] = {kPoolX0, kPoolX1, kPoolX1, kPoolX0}, vz[] = {kPoolZ0, kPoolZ0, kPoolZ1, kPoolZ1};
    for (int i = 0; i < 4; ++i)
        out += std::string(i ? ", " : "") + "[" + num(vx[i]) + ", 0.0000, " + num(vz[i]) + "]";
    out += "],\n      \"hmin\": -1.0000,\n      \"hmax\": 1.0000,\n      \"area\": \"water\"\n    }\n  ]\n}\n";
    return out;
}

Scene demo_scene() {
    Scene s;
    s.title = "demo.obj";
    add_upper_west(s);
    add_staircases(s);
    add_bridge(s);
    add_hall(s);
    add_ramp_and_slope(s);
    add_table(s);
    add_spiral(s);
    add_unreachable(s);
    add_pool(s);
    add_hurdle(s);
    s.objects.insert(s.objects.begin(), ground({kGroundMin, kGroundMin, kGroundMax, kGroundMax}, 1.5, s.footprints));
    return s;
}

// The two staircases and the floors they join, at the same coordinates as in demo.obj.
Scene stairs_scene() {
    Scene s;
    s.title = "stairs.obj";
    add_upper_west(s);
    add_staircases(s);
    s.objects.insert(s.objects.begin(), ground({kGroundMin, kGroundMin, -8.25, 0.75}, 1.5, s.footprints));
    return s;
}

// Disconnected platforms standing on nothing (no ground), plus a slab floating over one of them.
Scene islands_scene() {
    Scene s;
    s.title = "islands.obj";
    add(s, box("island_a", -8.25, 0, -8.25, -2.2, 1.1, -2.2));
    add(s, box("island_b", 1, 0, -8, 8, 2.1, -3));
    add(s, box("island_c", -7, 0, 1, -1, 0.5, 8));
    add(s, box("island_d", 3, 0, 2, 7.5, 3.1, 6.5));
    add(s, box("island_e_small", 5.5, 0, -1, 7.5, 1.5, 1));
    add(s, box("island_f_floating", -7.5, 3.9, -7.5, -3, 4.1, -3));
    return s;
}

// ---- indoor.obj: a closed three-storey building (issue 11, seeing inside) ----
//
// The building is modelled as game levels model interiors: its shell (walls, ground floor, roof)
// is one closed room whose faces point INTO the room, so from outside every shell face is a back
// face and back-face culling shows the inside, while a viewer inside sees the walls. The upper
// floors are ring-shaped slabs (solid boxes) around a central atrium, x, z in [-5, 5], through
// which the ground floor is seen from above; the roof spans the whole building.
constexpr double kInX0 = -12, kInX1 = 12, kInZ0 = -8, kInZ1 = 8;  // the shell's inside
constexpr double kInFloor[3] = {0.1, 3.7, 7.3};                  // walkable tops of the storeys
constexpr double kInSlab = 0.4;                                   // upper slabs' thickness
constexpr double kInRoof = 10.5;
constexpr double kAtrium = 5.0;  // the atrium: x, z in [-5, 5]

// An upper storey's slab: four boxes around the atrium, top at `top`.
void add_ring_slab(Scene& s, const std::string& name, double top) {
    const double b = top - kInSlab, a = kAtrium;
    add(s, box(name + "_west", kInX0, b, kInZ0, -a, top, kInZ1));
    add(s, box(name + "_east", a, b, kInZ0, kInX1, top, kInZ1));
    add(s, box(name + "_south", -a, b, a, a, top, kInZ1));
    add(s, box(name + "_north", -a, b, kInZ0, a, top, -a));
}

Scene indoor_scene() {
    Scene s;
    s.title = "indoor.obj";
    Object shell = box("shell", kInX0, kInFloor[0], kInZ0, kInX1, kInRoof, kInZ1);
    for (auto& t : shell.f) std::swap(t[1], t[2]);  // faces into the room
    shell.inward = true;
    add(s, std::move(shell));
    add_ring_slab(s, "floor2", kInFloor[1]);
    add_ring_slab(s, "floor3", kInFloor[2]);
    // Ground floor -> floor 2: eight 0.4 m steps, 0.8 m deep, 3 m wide, climbing west along the
    // atrium's north side (z in [-5, -2]) from x = 1.4 to the west slab at x = -5 (the 9th rise is
    // the floor). 3 m: the ledges on both sides and the agent's radius leave a walkable strip.
    for (int i = 1; i <= 8; ++i) {
        const double x1 = -kAtrium + 0.8 * (9 - i);
        add(s, box("stair1_step" + std::to_string(i), x1 - 0.8, kInFloor[0], -kAtrium, x1, kInFloor[0] + 0.4 * i, -2.0));
    }
    // Floor 2 -> floor 3: a flight over the atrium's south side (z in [2, 5]) from the east slab
    // (x = 5) climbing west, eight 0.4 m steps, then a landing at floor 3's height to the west slab.
    const double under = kInFloor[1] - kInSlab;
    for (int i = 1; i <= 8; ++i) {
        const double x1 = kAtrium - 0.8 * (i - 1);
        add(s, box("stair2_step" + std::to_string(i), x1 - 0.8, under, 2.0, x1, kInFloor[1] + 0.4 * i, kAtrium));
    }
    add(s, box("stair2_landing", -kAtrium, under, 2.0, kAtrium - 6.4, kInFloor[2], kAtrium));
    // Furniture, standing on each storey's floor.
    const double f0 = kInFloor[0], f1 = kInFloor[1], f2 = kInFloor[2];
    add(s, box("ground_table", -9.5, f0, -1.0, -7.5, f0 + 0.8, 1.0));
    add(s, box("ground_shelf", 8.0, f0, -7.9, 11.9, f0 + 2.2, -7.3));
    add(s, box("ground_counter", 6.0, f0, 2.0, 7.0, f0 + 1.0, 6.0));
    add(s, box("ground_partition", 8.0, f0, -0.2, 11.9, f0 + 3.1, 0.2));  // up to floor 2's slab
    add(s, box("floor2_desk_a", -10.5, f1, -6.5, -8.5, f1 + 0.8, -5.5));
    add(s, box("floor2_desk_b", -10.5, f1, 5.5, -8.5, f1 + 0.8, 6.5));
    add(s, box("floor2_cabinet", 9.0, f1, -2.0, 11.9, f1 + 1.9, -1.0));
    add(s, box("floor3_bed", 8.0, f2, -6.5, 10.0, f2 + 0.6, -3.5));
    add(s, box("floor3_wardrobe", -11.9, f2, -2.0, -11.3, f2 + 2.1, 2.0));
    add(s, box("floor3_table", 7.0, f2, 3.0, 9.0, f2 + 0.8, 5.0));
    return s;
}

}  // namespace

bool write_large_scene(const std::string& path);  // large_scene.cpp
bool write_bench_scenes(const std::string& dir);   // bench_scenes.cpp

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--large") return write_large_scene(argv[2]) ? 0 : 1;
    if (argc == 3 && std::string(argv[1]) == "--bench") return write_bench_scenes(argv[2]) ? 0 : 1;
    if (argc == 3 && std::string(argv[1]) == "--why") {
        bool ok = true;
        for (const whyscene::Scene& s : whyscene::why_scenes()) {
            const std::string stem = std::string(argv[2]) + "/" + s.name;
            ok = write_file(stem + ".obj", whyscene::scene_obj(s)) && write_file(stem + ".json", whyscene::scene_config_json(s)) && ok;
            if (s.path)
                std::printf("%s.obj: %s; --why-path %g,%g,%g:%g,%g,%g\n", stem.c_str(), s.about.c_str(), s.point[0],
                            s.point[1], s.point[2], s.end[0], s.end[1], s.end[2]);
            else
                std::printf("%s.obj: %s; --why %g,%g,%g\n", stem.c_str(), s.about.c_str(), s.point[0], s.point[1],
                            s.point[2]);
        }
        return ok ? 0 : 1;
    }
    if (argc != 2) {
        std::fprintf(stderr, "usage: gen_scenes OUT_DIR\n  writes demo.obj, demo.json, stairs.obj, islands.obj, indoor.obj and the 2D maps map2d_*.json into OUT_DIR\n"
                             "       gen_scenes --large OUT.obj\n  writes the large level (over 5 M solid spans)\n"
                             "       gen_scenes --bench OUT_DIR\n  writes the benchmark levels arena.obj, house.obj and terrain.obj (issue 24)\n"
                             "       gen_scenes --why OUT_DIR\n  writes the scenes that each lose a point for one known reason (NAME.obj, NAME.json)\n");
        return 2;
    }
    const std::string dir = argv[1];
    Scene scenes[] = {demo_scene(), stairs_scene(), islands_scene(), indoor_scene()};
    bool ok = true;
    for (Scene& s : scenes) {
        check(s);
        for (const std::string& e : s.errors) std::fprintf(stderr, "gen_scenes: %s\n", e.c_str());
        ok = ok && s.errors.empty();
    }
    if (!ok) return 1;
    for (const Scene& s : scenes) ok = write_obj(dir + "/" + s.title, s) && ok;
    ok = write_file(dir + "/demo.json", demo_json()) && ok;
    if (ok) std::printf("%s/demo.json: 1 water volume\n", dir.c_str());
    ok = write_2d_maps(dir) && ok;
    return ok ? 0 : 1;
}
