// gen_scenes --bench DIR: the generated benchmark levels of issue 24 (never committed; written at
// bench time), deterministic:
//  - DIR/arena.obj: an indoor arena (~25 k triangles): a tessellated floor, outer walls with gates,
//    a grid of 16-sided pillars, raised platforms reached by ramps, a walkable roof;
//  - DIR/house.obj: a two-storey house (~2.7 k triangles) on a tessellated yard: outer walls with
//    doors, rooms with inner doors, a straight staircase to the upper floor (with its stairwell),
//    furniture, a gable roof;
//  - DIR/terrain.obj: a 255 x 255-quad heightfield terrain (130 050 triangles), rolling hills and
//    a few steep ridges.
// Triangles are counter-clockwise seen from outside (tops face up).
#include <cmath>
#include <string>

#include "gen_mesh.h"

namespace {

using genmesh::Mesh;

constexpr double kPi = 3.14159265358979323846;

// A grid of nx x nz quads over [x0, x1] x [z0, z1] at height y(x, z), normals up.
template <class F>
void grid(Mesh& m, double x0, double z0, double x1, double z1, int nx, int nz, F y) {
    const int base = static_cast<int>(m.v.size() / 3);
    for (int j = 0; j <= nz; ++j)
        for (int i = 0; i <= nx; ++i) {
            const double x = x0 + (x1 - x0) * i / nx, z = z0 + (z1 - z0) * j / nz;
            m.vert(x, y(x, z), z);
        }
    for (int j = 0; j < nz; ++j)
        for (int i = 0; i < nx; ++i) {
            const int a = base + i + j * (nx + 1), b = a + (nx + 1), c = b + 1, d = a + 1;
            m.tri(a, b, c);  // (x0,z0) (x0,z1) (x1,z1): normal +y
            m.tri(a, c, d);
        }
}

// A vertical n-sided cylinder around (cx, cz) from y0 to y1, faces outward.
void cylinder(Mesh& m, double cx, double cz, double r, int n, double y0, double y1) {
    const int base = static_cast<int>(m.v.size() / 3);
    for (int i = 0; i < n; ++i) {
        const double a = 2.0 * kPi * i / n;
        m.vert(cx + r * std::cos(a), y0, cz + r * std::sin(a));
        m.vert(cx + r * std::cos(a), y1, cz + r * std::sin(a));
    }
    // Angles grow from +x towards +z: seen from above (+y, x right, z down) that is clockwise,
    // so the top cap fans backwards.
    for (int i = 1; i + 1 < n; ++i) {
        m.tri(base + 1, base + 2 * (i + 1) + 1, base + 2 * i + 1);  // top
        m.tri(base, base + 2 * i, base + 2 * (i + 1));              // bottom
    }
    for (int i = 0; i < n; ++i) {
        const int j = (i + 1) % n;
        const int a0 = base + 2 * i, a1 = a0 + 1, b0 = base + 2 * j, b1 = b0 + 1;
        m.tri(a0, a1, b1);
        m.tri(a0, b1, b0);
    }
}

// A ramp along +x: rises from y0 at x0 to y1 at x1 over [z0, z1] (a closed wedge on y0).
void ramp_x(Mesh& m, double x0, double x1, double y0, double y1, double z0, double z1) {
    const int b = static_cast<int>(m.v.size() / 3);
    m.vert(x0, y0, z0);  // 0
    m.vert(x1, y0, z0);  // 1
    m.vert(x1, y1, z0);  // 2
    m.vert(x0, y0, z1);  // 3
    m.vert(x1, y0, z1);  // 4
    m.vert(x1, y1, z1);  // 5
    m.tri(b + 0, b + 2, b + 1);  // -z side
    m.tri(b + 3, b + 4, b + 5);  // +z side
    m.tri(b + 0, b + 3, b + 5);  // slope (up)
    m.tri(b + 0, b + 5, b + 2);
    m.tri(b + 1, b + 2, b + 5);  // +x face
    m.tri(b + 1, b + 5, b + 4);
    m.tri(b + 0, b + 1, b + 4);  // bottom
    m.tri(b + 0, b + 4, b + 3);
}

// ~25 k triangles: a 60 x 60 m hall.
Mesh arena() {
    Mesh m;
    const double s = 60.0, wall = 0.5, hgt = 9.0;
    grid(m, 0, 0, s, s, 60, 60, [](double, double) { return 0.0; });  // 7 200
    // outer walls, a 4 m gate in the middle of each
    const double g0 = s / 2 - 2, g1 = s / 2 + 2;
    m.box(0, 0, -wall, g0, hgt, 0);
    m.box(g1, 0, -wall, s, hgt, 0);
    m.box(0, 0, s, g0, hgt, s + wall);
    m.box(g1, 0, s, s, hgt, s + wall);
    m.box(-wall, 0, 0, 0, hgt, g0);
    m.box(-wall, 0, g1, 0, hgt, s);
    m.box(s, 0, 0, s + wall, hgt, g0);
    m.box(s, 0, g1, s + wall, hgt, s);
    // 12 x 12 pillars of 16 sides (60 triangles each): 8 640
    for (int j = 0; j < 12; ++j)
        for (int i = 0; i < 12; ++i) cylinder(m, 2.6 + i * 5.0, 2.6 + j * 5.0, 0.45, 16, 0, hgt);
    // raised platforms (tessellated tops on a box) with a ramp up to each
    for (int k = 0; k < 4; ++k) {
        const double x0 = 6 + (k % 2) * 30, z0 = 6 + (k / 2) * 30, top = 1.6 + 0.4 * k;
        m.box(x0, 0, z0, x0 + 14, top - 0.05, z0 + 14);
        grid(m, x0, z0, x0 + 14, z0 + 14, 14, 14, [top](double, double) { return top; });  // 392 each
        ramp_x(m, x0 - 8, x0, 0, top, z0 + 5, z0 + 8);
        for (int r = 0; r < 3; ++r) m.box(x0 + 2 + 4 * r, top, z0 + 10, x0 + 3 + 4 * r, top + 1.0, z0 + 11);  // crates
    }
    // the roof: a slab whose top is tessellated (walkable, unreachable)
    m.box(-wall, hgt, -wall, s + wall, hgt + 0.45, s + wall);
    grid(m, -wall, -wall, s + wall, s + wall, 61, 61, [hgt](double, double) { return hgt + 0.5; });  // 7 442
    return m;
}

// ~2.7 k triangles: a 16 x 12 m two-storey house on a 30 x 30 m yard.
Mesh house() {
    Mesh m;
    const double x0 = 7, z0 = 9, x1 = 23, z1 = 21, wall = 0.25, storey = 3.0, slab = 0.3;
    grid(m, 0, 0, 30, 30, 30, 30, [](double x, double z) { return 0.05 * std::sin(x * 0.4) * std::cos(z * 0.3); });  // 1 800
    for (int f = 0; f < 2; ++f) {
        const double y0 = 0.2 + f * storey, y1 = y0 + storey - slab;
        if (f == 0)
            m.box(x0, -0.2, z0, x1, y0, z1);  // ground slab
        else {  // upper slab around the stairwell (x in [8, 12], z in [10, 11.5])
            m.box(x0, y0 - slab, z0, 8, y0, z1);
            m.box(12, y0 - slab, z0, x1, y0, z1);
            m.box(8, y0 - slab, z0, 12, y0, 10);
            m.box(8, y0 - slab, 11.5, 12, y0, z1);
        }
        // outer walls: a 1 m door in the -z wall (ground floor), windows gaps upstairs
        m.box(x0, y0, z0, 14, y1, z0 + wall);
        m.box(15, y0, z0, x1, y1, z0 + wall);
        m.box(x0, y0, z1 - wall, x1, y1, z1);
        m.box(x0, y0, z0 + wall, x0 + wall, y1, z1 - wall);
        m.box(x1 - wall, y0, z0 + wall, x1, y1, 14);
        m.box(x1 - wall, y0, 15.2, x1, y1, z1 - wall);
        // rooms: a wall along x = 15 and one along z = 15, each with a 0.9 m door
        m.box(15, y0, z0 + wall, 15 + wall, y1, 12);
        m.box(15, y0, 12.9, 15 + wall, y1, z1 - wall);
        m.box(x0 + wall, y0, 15, 10, y1, 15 + wall);
        m.box(10.9, y0, 15, 15, y1, 15 + wall);
        m.box(15 + wall, y0, 16, 19, y1, 16 + wall);
        m.box(19.9, y0, 16, x1 - wall, y1, 16 + wall);
        // furniture
        m.box(17, y0, z0 + 1, 19, y0 + 0.8, z0 + 2);  // table
        m.box(20, y0, 18, 22.5, y0 + 0.5, 20.5);      // bed / sofa
        m.box(x0 + 0.5, y0, 18, x0 + 1.1, y0 + 2.0, 20);  // wardrobe
    }
    // stairs: 14 steps of 0.2 m, 0.28 m deep, climbing +x from x = 8 in the stairwell's band
    for (int i = 0; i < 14; ++i) m.box(8 + 0.28 * i, 0.2, 10, 8 + 0.28 * (i + 1), 0.2 + 0.2 * (i + 1), 11.5);
    // gable roof: a triangular prism along x over the walls, on a ceiling slab
    const double ry = 0.2 + 2 * storey;
    m.box(x0 - 0.3, ry - slab, z0 - 0.3, x1 + 0.3, ry, z1 + 0.3);
    const int b = static_cast<int>(m.v.size() / 3);
    const double zc = (z0 + z1) / 2, ridge = ry + 2.5;
    m.vert(x0 - 0.3, ry, z0 - 0.3);  // 0
    m.vert(x0 - 0.3, ry, z1 + 0.3);  // 1
    m.vert(x0 - 0.3, ridge, zc);     // 2
    m.vert(x1 + 0.3, ry, z0 - 0.3);  // 3
    m.vert(x1 + 0.3, ry, z1 + 0.3);  // 4
    m.vert(x1 + 0.3, ridge, zc);     // 5
    m.tri(b + 0, b + 1, b + 2);  // -x gable
    m.tri(b + 3, b + 5, b + 4);  // +x gable
    m.tri(b + 0, b + 2, b + 5);  // -z slope
    m.tri(b + 0, b + 5, b + 3);
    m.tri(b + 1, b + 4, b + 5);  // +z slope
    m.tri(b + 1, b + 5, b + 2);
    // a garden: low walls, a shed and 12 posts round the yard
    m.box(1, 0, 1, 29, 0.8, 1.3);
    m.box(1, 0, 28.7, 29, 0.8, 29);
    m.box(25, 0, 3, 28, 2.4, 6);
    for (int i = 0; i < 12; ++i) cylinder(m, 2 + 2.3 * i, 26, 0.1, 6, 0, 1.2);
    return m;
}

double terrain_height(double x, double z) {
    double y = 6.0 * std::sin(x / 31.0) * std::cos(z / 43.0) + 2.0 * std::sin(x / 9.0 + z / 13.0) +
               0.6 * std::cos(x / 3.1 - z / 4.3);
    // a few steep ridges (not walkable on their sides)
    const double r = std::fmod(x * 0.7 + z * 0.3, 60.0);
    if (r > 50.0 && r < 53.0) y += 4.0 * (r - 50.0);
    else if (r >= 53.0 && r < 56.0) y += 4.0 * (56.0 - r);
    return y;
}

// 130 050 triangles: 255 x 255 quads of 1 m.
Mesh terrain() {
    Mesh m;
    grid(m, 0, 0, 255, 255, 255, 255, terrain_height);
    return m;
}

}  // namespace

// Writes DIR/{arena,house,terrain}.obj; false (with a message) when a file cannot be written.
bool write_bench_scenes(const std::string& dir) {
    bool ok = genmesh::write_mesh_obj(dir + "/arena.obj", arena(),
                                      "navkit bench level (gen_scenes --bench): indoor arena, pillars, ramps, roof");
    ok = genmesh::write_mesh_obj(dir + "/house.obj", house(),
                                 "navkit bench level (gen_scenes --bench): two-storey house, rooms, stairs, roof") &&
         ok;
    ok = genmesh::write_mesh_obj(dir + "/terrain.obj", terrain(),
                                 "navkit bench level (gen_scenes --bench): heightfield terrain") &&
         ok;
    return ok;
}
