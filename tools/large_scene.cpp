// gen_scenes --large OUT.obj: a large level for the tiled bake and its benchmark, generated at test
// or bench time (never committed). Deterministic. At the default parameters (cell_size 0.3,
// cell_height 0.2) it gives well over 5 M solid spans:
//  - rolling terrain, 660 x 660 m, 2 m quads (walkable everywhere, slopes under 20 deg);
//  - a 9 x 9 grid of three-storey buildings (20 x 20 m: floors, walls with door gaps, a roof),
//    each with an outside staircase up to its roof;
//  - bridges from roof to roof along every row of buildings;
//  - mesas: tall plateaus with sheer sides, their tops not connected to anything.
// Triangles are counter-clockwise seen from outside (tops face up).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gen_mesh.h"

namespace {

using genmesh::Mesh;

constexpr double kSize = 660.0;

double terrain(double x, double z) {
    return 3.0 * std::sin(x / 37.0) * std::cos(z / 53.0) + 1.5 * std::sin(x / 11.0 + z / 17.0);
}

void add_terrain(Mesh& m) {
    const int n = 330;
    const double step = kSize / n;
    const int base = static_cast<int>(m.v.size() / 3);
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) m.vert(i * step, terrain(i * step, j * step), j * step);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const int a = base + i + j * (n + 1), b = a + (n + 1), c = b + 1, d = a + 1;
            m.tri(a, b, c);  // up: (x0,z0) (x0,z1) (x1,z1)
            m.tri(a, c, d);
        }
}

void add_building(Mesh& m, double x0, double z0) {
    const double w = 20.0, storey = 3.6, slab = 0.3, wall = 0.4;
    const double ground = terrain(x0 + w / 2, z0 + w / 2) - 1.0;  // sunk into the slope
    const int floors = 3;
    const double top = ground + 1.0 + floors * storey;
    for (int f = 0; f <= floors; ++f) {  // floors and the roof
        const double y = ground + 1.0 + f * storey;
        m.box(x0, y - slab, z0, x0 + w, y, z0 + w);
    }
    m.box(x0, ground, z0, x0 + w, ground + 1.0 - slab, z0 + w);  // plinth under the ground floor
    for (int f = 0; f < floors; ++f) {
        const double y0 = ground + 1.0 + f * storey, y1 = y0 + storey - slab;
        // walls with a 2 m door gap in the middle of the -z and +x walls
        m.box(x0, y0, z0, x0 + 9, y1, z0 + wall);
        m.box(x0 + 11, y0, z0, x0 + w, y1, z0 + wall);
        m.box(x0, y0, z0 + w - wall, x0 + w, y1, z0 + w);
        m.box(x0, y0, z0 + wall, x0 + wall, y1, z0 + w - wall);
        m.box(x0 + w - wall, y0, z0 + wall, x0 + w, y1, z0 + 9);
        m.box(x0 + w - wall, y0, z0 + 11, x0 + w, y1, z0 + w - wall);
        // inner partition
        m.box(x0 + 10 - wall / 2, y0, z0 + wall, x0 + 10 + wall / 2, y1, z0 + 7);
    }
    // outside staircase along the -x wall: 0.3 m steps, 0.35 m deep, from the terrain to the roof
    const double rise = 0.3, run = 0.35;
    const double start_y = terrain(x0 - 2, z0 - 3) - 0.5;
    const int steps = static_cast<int>(std::ceil((top - start_y) / rise));
    for (int s = 0; s < steps; ++s) {
        const double zs = z0 - 3 + s * run;
        if (zs + run > z0 + w + 6) break;
        m.box(x0 - 3, start_y, zs, x0 - 0.5, start_y + (s + 1) * rise, zs + run);
    }
}

void add_mesa(Mesh& m, double x0, double z0, double w, double h) {
    const double y0 = terrain(x0, z0) - 2.0;
    m.box(x0, y0, z0, x0 + w, y0 + h, z0 + w);
}

}  // namespace

// Writes the large scene; returns false (with a message) when the file cannot be written.
bool write_large_scene(const std::string& path) {
    Mesh m;
    add_terrain(m);
    const int grid = 9;
    const double pitch = 70.0, origin = 25.0;
    for (int j = 0; j < grid; ++j)
        for (int i = 0; i < grid; ++i) add_building(m, origin + i * pitch, origin + j * pitch);
    // bridges from roof to roof along each row (+x), 3 m wide
    for (int j = 0; j < grid; ++j)
        for (int i = 0; i + 1 < grid; ++i) {
            const double xa = origin + i * pitch + 20, xb = origin + (i + 1) * pitch;
            const double za = origin + j * pitch + 14;
            const double ya = terrain(xa - 10, za - 4) - 1.0 + 1.0 + 3 * 3.6;
            const double yb = terrain(xb + 10, za - 4) - 1.0 + 1.0 + 3 * 3.6;
            const double y = std::min(ya, yb);
            m.box(xa, y - 0.4, za, xb, y, za + 3);
            m.box(xa, y, za - 0.2, xb, y + 1.0, za);  // railings
            m.box(xa, y, za + 3, xb, y + 1.0, za + 3.2);
        }
    // mesas between the buildings: 12 to 20 m high, unreachable tops
    for (int j = 0; j < grid - 1; ++j)
        for (int i = 0; i < grid - 1; i += 2) {
            const double w = 10.0 + ((i * 7 + j * 3) % 5) * 2.0;
            add_mesa(m, origin + i * pitch + 35, origin + j * pitch + 42, w, 12.0 + ((i + j) % 5) * 2.0);
        }

    return genmesh::write_mesh_obj(path, m,
                                   "navkit large scene (gen_scenes --large): terrain, buildings, stairs, bridges, mesas");
}
