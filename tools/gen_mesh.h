// A minimal triangle-mesh builder shared by the generated benchmark levels (large_scene.cpp,
// bench_scenes.cpp): vertices and 0-based triangles, axis-aligned boxes with outward faces.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

namespace genmesh {

struct Mesh {
    std::vector<double> v;  // x, y, z
    std::vector<int> t;     // 0-based
    int vert(double x, double y, double z) {
        v.push_back(x);
        v.push_back(y);
        v.push_back(z);
        return static_cast<int>(v.size() / 3) - 1;
    }
    void tri(int a, int b, int c) {
        t.push_back(a);
        t.push_back(b);
        t.push_back(c);
    }
    // An axis-aligned box, every face outward.
    void box(double x0, double y0, double z0, double x1, double y1, double z1) {
        const int b = static_cast<int>(v.size() / 3);
        for (int k = 0; k < 8; ++k) vert(k & 1 ? x1 : x0, k & 4 ? y1 : y0, k & 2 ? z1 : z0);
        // corner index: x bit 1, z bit 2, y bit 4
        auto quad = [&](int a, int bb, int c, int d) {
            tri(b + a, b + bb, b + c);
            tri(b + a, b + c, b + d);
        };
        quad(4, 6, 7, 5);  // top (+y): (x0,z0) (x0,z1) (x1,z1) (x1,z0)
        quad(0, 1, 3, 2);  // bottom (-y)
        quad(0, 4, 5, 1);  // -z
        quad(2, 3, 7, 6);  // +z
        quad(0, 2, 6, 4);  // -x
        quad(1, 5, 7, 3);  // +x
    }
};

// Writes m as Wavefront OBJ with a one-line comment header; prints a summary on success.
inline bool write_mesh_obj(const std::string& path, const Mesh& m, const char* comment) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        std::fprintf(stderr, "gen_scenes: cannot write %s\n", path.c_str());
        return false;
    }
    std::fprintf(f, "# %s\n", comment);
    for (size_t i = 0; i < m.v.size(); i += 3) std::fprintf(f, "v %.3f %.3f %.3f\n", m.v[i], m.v[i + 1], m.v[i + 2]);
    for (size_t i = 0; i < m.t.size(); i += 3) std::fprintf(f, "f %d %d %d\n", m.t[i] + 1, m.t[i + 1] + 1, m.t[i + 2] + 1);
    const bool ok = std::fclose(f) == 0;
    if (!ok) std::fprintf(stderr, "gen_scenes: error writing %s\n", path.c_str());
    else std::printf("%s: %zu vertices, %zu triangles\n", path.c_str(), m.v.size() / 3, m.t.size() / 3);
    return ok;
}

}  // namespace genmesh
