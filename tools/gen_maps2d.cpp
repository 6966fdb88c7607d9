// gen_scenes' 2D maps: {"outline": [[x,z],...], "obstacles": [[[x,z],...],...]} (core/map2d/map2d.h).
// Deterministic (own LCG), standard library only. assets/README.md lists what each map holds.
//   map2d_rooms.json      40 x 30, four rooms: a wall x in [19.8, 20.2] with a door at z 13..17, a
//                         wall z in [14.8, 15.2] with doors at x 8..11 and 29..32; free area 1176
//   map2d_maze.json       a perfect maze of 8 x 8 cells of 4 m, walls 0.5 m thick (overlapping
//                         rectangles at the junctions: the union merges them), one island
//   map2d_obstacles.json  60 x 60 with 24 convex (regular polygons) and 12 concave (L and star)
//                         obstacles, some overlapping
//   map2d_grid.json       a 16 x 16 occupancy grid of 2 m cells, blocked cells as squares (the
//                         union turns the grid into polygons); 54 blocked (4 m2 each), free area 1024 - 216 = 808
#include "gen_maps2d.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Lcg {
    uint64_t s;
    uint32_t next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return uint32_t(s >> 33);
    }
    double uniform(double a, double b) { return a + (b - a) * (next() / 2147483648.0); }
};

using Ring = std::vector<std::pair<double, double>>;

Ring rect(double x0, double z0, double x1, double z1) { return {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}}; }

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string ring_json(const Ring& r) {
    std::string s = "[";
    for (size_t i = 0; i < r.size(); ++i) s += (i ? ", [" : "[") + num(r[i].first) + ", " + num(r[i].second) + "]";
    return s + "]";
}

bool write_map(const std::string& path, const Ring& outline, const std::vector<Ring>& obstacles) {
    std::string s = "{\n  \"outline\": " + ring_json(outline) + ",\n  \"obstacles\": [\n";
    for (size_t k = 0; k < obstacles.size(); ++k) s += "    " + ring_json(obstacles[k]) + (k + 1 < obstacles.size() ? ",\n" : "\n");
    s += "  ]\n}\n";
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(s.data(), 1, s.size(), f) != s.size()) {
        if (f) std::fclose(f);
        std::fprintf(stderr, "gen_scenes: cannot write %s\n", path.c_str());
        return false;
    }
    std::fclose(f);
    std::printf("%s: %zu obstacles\n", path.c_str(), obstacles.size());
    return true;
}

std::vector<Ring> rooms() {
    return {rect(19.8, 0, 20.2, 13), rect(19.8, 17, 20.2, 30), rect(0, 14.8, 8, 15.2), rect(11, 14.8, 29, 15.2),
            rect(32, 14.8, 40, 15.2)};
}

std::vector<Ring> maze() {
    constexpr int n = 8;
    constexpr double c = 4, t = 0.25;
    // walls[cell][dir]: 0 = east, 1 = north (the cell's own east / north side)
    std::vector<int> east(n * n, 1), north(n * n, 1), seen(n * n, 0);
    Lcg rng{7};
    std::vector<int> stack = {0};
    seen[0] = 1;
    while (!stack.empty()) {
        const int cell = stack.back(), x = cell % n, z = cell / n;
        int cand[4], m = 0;
        if (x + 1 < n && !seen[cell + 1]) cand[m++] = 0;
        if (z + 1 < n && !seen[cell + n]) cand[m++] = 1;
        if (x > 0 && !seen[cell - 1]) cand[m++] = 2;
        if (z > 0 && !seen[cell - n]) cand[m++] = 3;
        if (m == 0) {
            stack.pop_back();
            continue;
        }
        const int d = cand[rng.next() % uint32_t(m)];
        const int next = d == 0 ? cell + 1 : d == 1 ? cell + n : d == 2 ? cell - 1 : cell - n;
        if (d == 0) east[cell] = 0;
        if (d == 1) north[cell] = 0;
        if (d == 2) east[next] = 0;
        if (d == 3) north[next] = 0;
        seen[next] = 1;
        stack.push_back(next);
    }
    std::vector<Ring> out;
    for (int z = 0; z < n; ++z)
        for (int x = 0; x < n; ++x) {
            const int cell = z * n + x;
            if (x + 1 < n && east[cell]) out.push_back(rect((x + 1) * c - t, z * c - t, (x + 1) * c + t, (z + 1) * c + t));
            if (z + 1 < n && north[cell]) out.push_back(rect(x * c - t, (z + 1) * c - t, (x + 1) * c + t, (z + 1) * c + t));
        }
    // walls reaching the outline are clipped to it by the bake
    return out;
}

std::vector<Ring> obstacles() {
    Lcg rng{2024};
    std::vector<Ring> out;
    constexpr double kPi = 3.14159265358979323846;
    for (int k = 0; k < 24; ++k) {  // convex: regular polygons, 3..8 sides
        const double cx = rng.uniform(5, 55), cz = rng.uniform(5, 55), r = rng.uniform(1, 3.5);
        const int sides = 3 + k % 6;
        const double a0 = rng.uniform(0, 2 * kPi);
        Ring p;
        for (int i = 0; i < sides; ++i)
            p.push_back({cx + r * std::cos(a0 + 2 * kPi * i / sides), cz + r * std::sin(a0 + 2 * kPi * i / sides)});
        out.push_back(p);
    }
    for (int k = 0; k < 12; ++k) {  // concave: L shapes and 5-pointed stars
        const double cx = rng.uniform(6, 54), cz = rng.uniform(6, 54);
        if (k % 2 == 0) {
            const double w = rng.uniform(3, 6), h = rng.uniform(3, 6), th = 1.2;
            out.push_back({{cx, cz}, {cx + w, cz}, {cx + w, cz + th}, {cx + th, cz + th}, {cx + th, cz + h}, {cx, cz + h}});
        } else {
            const double r = rng.uniform(2, 4);
            Ring p;
            for (int i = 0; i < 10; ++i) {
                const double rr = i % 2 ? r * 0.45 : r;
                p.push_back({cx + rr * std::cos(kPi / 2 + kPi * i / 5), cz + rr * std::sin(kPi / 2 + kPi * i / 5)});
            }
            out.push_back(p);
        }
    }
    return out;
}

std::vector<Ring> grid() {
    // 16 x 16 cells of 2 m; '#' is a blocked cell (54 cells)
    static const char* rows[16] = {
        "................", ".##.....###.....", ".##.......#..##.", "..........#..##.",
        "....####..#.....", "....#.....#.....", "....#..####..#..", "..............#.",
        ".###.....#....#.", "...#.....#......", "...#..####...##.", "..........#..##.",
        ".....##.........", "..#..##...####..", "..#.............", "................"};
    std::vector<Ring> out;
    for (int z = 0; z < 16; ++z)
        for (int x = 0; x < 16; ++x)
            if (rows[z][x] == '#') out.push_back(rect(2.0 * x, 2.0 * z, 2.0 * x + 2, 2.0 * z + 2));
    return out;
}

}  // namespace

bool write_2d_maps(const std::string& dir) {
    bool ok = write_map(dir + "/map2d_rooms.json", rect(0, 0, 40, 30), rooms());
    ok = write_map(dir + "/map2d_maze.json", rect(0, 0, 32, 32), maze()) && ok;
    ok = write_map(dir + "/map2d_obstacles.json", rect(0, 0, 60, 60), obstacles()) && ok;
    ok = write_map(dir + "/map2d_grid.json", rect(0, 0, 32, 32), grid()) && ok;
    return ok;
}
