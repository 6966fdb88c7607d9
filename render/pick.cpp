#include "render/pick.h"

#include <cmath>
#include <cstdio>
#include <limits>

#include "render/layers.h"

namespace nav::render {

bool raycast_mesh(const InputMesh& mesh, const float* o, const float* d, float& t_out) {
    // Moller-Trumbore, two-sided
    float best = std::numeric_limits<float>::infinity();
    const int ntris = mesh.tri_count();
    const float* v = mesh.verts.data();
    for (int t = 0; t < ntris; ++t) {
        const int* tri = &mesh.tris[static_cast<size_t>(t) * 3];
        const float* a = v + static_cast<size_t>(tri[0]) * 3;
        const float* b = v + static_cast<size_t>(tri[1]) * 3;
        const float* c = v + static_cast<size_t>(tri[2]) * 3;
        const float e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        const float e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        const float p[3] = {d[1] * e2[2] - d[2] * e2[1], d[2] * e2[0] - d[0] * e2[2], d[0] * e2[1] - d[1] * e2[0]};
        const float det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
        if (std::fabs(det) < 1e-12f) continue;
        const float inv = 1.0f / det;
        const float s[3] = {o[0] - a[0], o[1] - a[1], o[2] - a[2]};
        const float u = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) * inv;
        if (u < 0.0f || u > 1.0f) continue;
        const float q[3] = {s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]};
        const float w = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) * inv;
        if (w < 0.0f || u + w > 1.0f) continue;
        const float tt = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) * inv;
        if (tt >= 0.0f && tt < best) best = tt;
    }
    if (!std::isfinite(best)) return false;
    t_out = best;
    return true;
}

SpanRef find_compact_span(const CompactHeightfield& chf, const float* p, float max_dy) {
    SpanRef r;
    if (chf.cs <= 0 || chf.width <= 0) return r;
    const int x = static_cast<int>(std::floor((p[0] - chf.bmin[0]) / chf.cs));
    const int z = static_cast<int>(std::floor((p[2] - chf.bmin[2]) / chf.cs));
    if (x < 0 || z < 0 || x >= chf.width || z >= chf.height) return r;
    const CompactCell& cell = chf.cells[static_cast<size_t>(x + z * chf.width)];
    float best = max_dy;
    for (uint32_t i = cell.index, end = cell.index + cell.count; i < end; ++i) {
        const float y = chf.bmin[1] + chf.spans[i].y * chf.ch;
        const float dy = std::fabs(y - p[1]);
        if (dy <= best) {
            best = dy;
            r = {x, z, i};
        }
    }
    return r;
}

std::string describe_span(const Bake& b, const SpanRef& s) {
    if (!b.compact || !s.valid()) return {};
    const CompactHeightfield& chf = *b.compact;
    const CompactSpan& sp = chf.spans[s.index];
    char buf[160];
    std::string out;
    std::snprintf(buf, sizeof buf, "cell (%d, %d)  span %u\nfloor y %d (%.2f m)  clearance %d (%.2f m)\n", s.x, s.z,
                  s.index, sp.y, chf.bmin[1] + sp.y * chf.ch, sp.h, sp.h * chf.ch);
    out += buf;
    out += "links:";
    static constexpr const char* dirs[4] = {"-x", "+z", "+x", "-z"};
    for (int d = 0; d < 4; ++d) {
        const int c = get_con(sp, d);
        std::snprintf(buf, sizeof buf, "  %s %s", dirs[d], c == kNotConnected ? "-" : std::to_string(c).c_str());
        out += buf;
    }
    out += "\n";
    std::snprintf(buf, sizeof buf, "area (compact) %s\n", std::string(area_name(chf.areas[s.index])).c_str());
    out += buf;
    if (b.eroded && s.index < b.eroded->size())
        out += (*b.eroded)[s.index] != kNullArea ? "erosion: kept\n" : "erosion: eroded\n";
    if (b.areas && s.index < b.areas->size()) {
        std::snprintf(buf, sizeof buf, "area (final) %s (%d)\n", std::string(area_name((*b.areas)[s.index])).c_str(),
                      (*b.areas)[s.index]);
        out += buf;
    }
    if (b.distance && s.index < b.distance->dist.size()) {
        std::snprintf(buf, sizeof buf, "distance %d / %d\n", b.distance->dist[s.index], b.distance->max_dist);
        out += buf;
    }
    if (b.regions && s.index < b.regions->reg.size()) {
        const uint16_t r = b.regions->reg[s.index];
        std::snprintf(buf, sizeof buf, "region %d%s\n", r & ~kBorderRegion, (r & kBorderRegion) ? " (border)" : "");
        out += buf;
    }
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

void build_span_overlay(const CompactHeightfield& chf, const SpanRef& s, DrawList& out) {
    if (!s.valid()) return;
    const CompactSpan& sp = chf.spans[s.index];
    const float lift = chf.ch * 0.9f;
    const float x0 = chf.bmin[0] + s.x * chf.cs, z0 = chf.bmin[2] + s.z * chf.cs;
    const float x1 = x0 + chf.cs, z1 = z0 + chf.cs;
    const float y = chf.bmin[1] + sp.y * chf.ch + lift;
    const uint32_t hi = rgba(255, 240, 60), link = rgba(255, 120, 220);
    out.add_line(x0, y, z0, x1, y, z0, hi);
    out.add_line(x1, y, z0, x1, y, z1, hi);
    out.add_line(x1, y, z1, x0, y, z1, hi);
    out.add_line(x0, y, z1, x0, y, z0, hi);
    const float c[3] = {(x0 + x1) * 0.5f, y, (z0 + z1) * 0.5f};
    out.add_point(c, hi);
    for (int d = 0; d < 4; ++d) {
        if (get_con(sp, d) == kNotConnected) continue;
        const int nx = s.x + dir_offset_x(d), nz = s.z + dir_offset_z(d);
        if (nx < 0 || nz < 0 || nx >= chf.width || nz >= chf.height) continue;
        const uint32_t ni = chf.neighbour(s.x, s.z, s.index, d);
        const float ny = chf.bmin[1] + chf.spans[ni].y * chf.ch + lift;
        const float nc[3] = {chf.bmin[0] + (static_cast<float>(nx) + 0.5f) * chf.cs, ny,
                             chf.bmin[2] + (static_cast<float>(nz) + 0.5f) * chf.cs};
        out.add_line(c, nc, link);
        out.add_point(nc, link);
    }
}

}  // namespace nav::render
