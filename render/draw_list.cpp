#include "render/draw_list.h"

#include <algorithm>

namespace nav::render {

uint32_t color_scale(uint32_t c, float k) {
    auto ch = [k](int v) { return std::clamp(static_cast<int>(static_cast<float>(v) * k + 0.5f), 0, 255); };
    return rgba(ch(color_r(c)), ch(color_g(c)), ch(color_b(c)), color_a(c));
}

uint32_t color_with_alpha(uint32_t c, int a) { return (c & 0x00ffffffu) | (static_cast<uint32_t>(a & 255) << 24); }

void DrawList::clear() {
    tri_verts.clear();
    tri_indices.clear();
    line_verts.clear();
    point_verts.clear();
    spans.clear();
    span_pos.clear();
    span_color.clear();
    span_pos_hash = 0;
    span_chunks.clear();
    span_full = 0;
}

void DrawList::add_triangle(const float* a, const float* b, const float* c, uint32_t color) {
    const auto base = static_cast<uint32_t>(tri_verts.size());
    tri_verts.push_back({a[0], a[1], a[2], color});
    tri_verts.push_back({b[0], b[1], b[2], color});
    tri_verts.push_back({c[0], c[1], c[2], color});
    tri_indices.push_back(base);
    tri_indices.push_back(base + 1);
    tri_indices.push_back(base + 2);
}

void DrawList::add_quad(const float* a, const float* b, const float* c, const float* d, uint32_t color) {
    const auto base = static_cast<uint32_t>(tri_verts.size());
    tri_verts.push_back({a[0], a[1], a[2], color});
    tri_verts.push_back({b[0], b[1], b[2], color});
    tri_verts.push_back({c[0], c[1], c[2], color});
    tri_verts.push_back({d[0], d[1], d[2], color});
    const uint32_t idx[6] = {base, base + 1, base + 2, base, base + 2, base + 3};
    tri_indices.insert(tri_indices.end(), idx, idx + 6);
}

void DrawList::add_floor_quad(float x0, float z0, float x1, float z1, float y, uint32_t color) {
    const float a[3] = {x0, y, z0}, b[3] = {x0, y, z1}, c[3] = {x1, y, z1}, d[3] = {x1, y, z0};
    add_quad(a, b, c, d, color);
}

void DrawList::add_line(const float* a, const float* b, uint32_t color) {
    line_verts.push_back({a[0], a[1], a[2], color});
    line_verts.push_back({b[0], b[1], b[2], color});
}

void DrawList::add_line(float ax, float ay, float az, float bx, float by, float bz, uint32_t color) {
    line_verts.push_back({ax, ay, az, color});
    line_verts.push_back({bx, by, bz, color});
}

void DrawList::add_point(const float* p, uint32_t color) { point_verts.push_back({p[0], p[1], p[2], color}); }

void DrawList::add_box_lines(const float* bmin, const float* bmax, uint32_t color) {
    const float x[2] = {bmin[0], bmax[0]}, y[2] = {bmin[1], bmax[1]}, z[2] = {bmin[2], bmax[2]};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            add_line(x[0], y[i], z[j], x[1], y[i], z[j], color);  // along x
            add_line(x[i], y[0], z[j], x[i], y[1], z[j], color);  // along y
            add_line(x[i], y[j], z[0], x[i], y[j], z[1], color);  // along z
        }
}

}  // namespace nav::render
