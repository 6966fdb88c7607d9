#include "render/path_draw.h"

#include <algorithm>
#include <cmath>

#include "render/layers.h"

namespace nav::render {

namespace {

constexpr float kFillLift = 0.08f;   // above the navmesh layer's fill (0.04)
constexpr float kPathLift = 0.25f;   // the straight path floats a little over the surface
constexpr float kMarkerHeight = 1.8f;

// A marker: a thin dark pole (world size: it says where on the floor the point stands) and, at its
// foot, a round point of a fixed size in pixels over a dark one a little larger (its outline). Only
// the point has the marker's colour, so the marker covers the same pixels at any zoom.
void marker(const float* p, uint32_t color, DrawList& outline, DrawList& dot) {
    const float base[3] = {p[0], p[1] + 0.05f, p[2]};
    const float top[3] = {p[0], p[1] + kMarkerHeight, p[2]};
    outline.add_line(base, top, colors::kPathMarkerOutline);
    const float at[3] = {p[0], p[1] + kPathLift, p[2]};
    outline.add_point(at, colors::kPathMarkerOutline);
    dot.add_point(at, color);
}

void dashed(const float* a, const float* b, float on, float off, uint32_t color, DrawList& out) {
    const float d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const float len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (len < 1e-5f) return;
    for (float s = 0; s < len; s += on + off) {
        const float t0 = s / len, t1 = std::min(s + on, len) / len;
        out.add_line(a[0] + d[0] * t0, a[1] + d[1] * t0, a[2] + d[2] * t0, a[0] + d[0] * t1, a[1] + d[1] * t1,
                     a[2] + d[2] * t1, color);
    }
}

}  // namespace

void build_path(const PathDrawInput& in, DrawList& fill, DrawList& path, DrawList& funnel, DrawList& markers_outline,
                DrawList& markers) {
    fill.clear();
    path.clear();
    funnel.clear();
    markers_outline.clear();
    markers.clear();
    fill.depth_test = path.depth_test = !in.on_top;
    markers_outline.depth_test = markers.depth_test = false;
    markers_outline.point_size = kMarkerOutlinePixels;
    markers_outline.line_width = 2.0f;
    markers.point_size = kMarkerPixels;
    fill.line_width = 2.0f;
    path.line_width = 5.0f;
    path.point_size = 11.0f;
    funnel.line_width = 4.0f;  // over the corridor and the path: thicker than both their edges
    funnel.point_size = 12.0f;
    funnel.depth_test = false;
    if (!in.mesh || in.mesh->empty()) return;
    const NavMesh& mesh = *in.mesh;
    const auto npolys = static_cast<uint32_t>(mesh.npolys);

    // A* nodes: closed polygons, then the open set after the last step (a polygon may be both when
    // reached through several portals: closed wins)
    if (in.astar && !in.astar->steps.empty()) {
        const AStarTrace& tr = *in.astar;
        const AStarTrace::Step& last = tr.steps.back();
        const uint32_t nclosed = std::min<uint32_t>(last.closed_count, static_cast<uint32_t>(tr.closed.size()));
        for (uint32_t i = 0; i < last.open_count && last.first_open + i < tr.open.size(); ++i) {
            const uint32_t p = tr.open[last.first_open + i];
            const bool closed = std::find(tr.closed.begin(), tr.closed.begin() + nclosed, p) != tr.closed.begin() + nclosed;
            if (p < npolys && !closed) add_navmesh_poly(mesh, p, colors::kNodeOpen, kFillLift, fill);
        }
        for (uint32_t i = 0; i < nclosed; ++i)
            if (tr.closed[i] < npolys) add_navmesh_poly(mesh, tr.closed[i], colors::kNodeClosed, kFillLift, fill);
    }

    // corridor and its portals
    if (in.path && !in.path->polys.empty()) {
        // the corridor holds references: as dense indices of this mesh (kNoPoly when stale)
        std::vector<uint32_t> c(in.path->polys.size());
        for (size_t i = 0; i < c.size(); ++i) c[i] = mesh.poly_index(in.path->polys[i]);
        if (!in.astar)
            for (uint32_t p : c)
                if (p < npolys) add_navmesh_poly(mesh, p, colors::kPathCorridor, kFillLift, fill);
        for (size_t i = 0; i + 1 < c.size(); ++i) {
            if (c[i] >= npolys) continue;
            const uint32_t e = mesh.find_edge(c[i], c[i + 1]);
            if (e == kNoEdge) continue;
            float a[3], b[3];
            mesh.edge_points(e, a, b);
            a[1] += kFillLift + 0.02f;
            b[1] += kFillLift + 0.02f;
            fill.add_line(a, b, colors::kPathPortal);
        }
    }

    // straight path
    const float* path_end = nullptr;
    float last_pt[3];
    if (in.straight && in.straight->size() > 0) {
        const StraightPath& sp = *in.straight;
        const int n = sp.size();
        for (int i = 0; i < n; ++i) {
            const float* p = &sp.points[static_cast<size_t>(i) * 3];
            const float q[3] = {p[0], p[1] + kPathLift, p[2]};
            if (i + 1 < n) {
                const float* r = &sp.points[static_cast<size_t>(i + 1) * 3];
                path.add_line(q[0], q[1], q[2], r[0], r[1] + kPathLift, r[2], colors::kPathLine);
            }
            path.add_point(q, colors::kPathCorner);
        }
        const float* l = &sp.points[static_cast<size_t>(n - 1) * 3];
        last_pt[0] = l[0];
        last_pt[1] = l[1] + kPathLift;
        last_pt[2] = l[2];
        path_end = last_pt;
    }
    if (in.has_start) marker(in.start, colors::kPathStart, markers_outline, markers);
    if (in.has_end && in.draw_end) marker(in.end, colors::kPathEnd, markers_outline, markers);
    // partial path: dashes from where it stops to the goal it could not reach
    if (path_end && in.has_end && in.path && !in.path->reached) {
        const float goal[3] = {in.end[0], in.end[1] + kPathLift, in.end[2]};
        dashed(path_end, goal, 0.5f, 0.35f, colors::kPathMissing, funnel);
    }

    // raycast: visited polygons, the clear ray, the hit and its normal, the blocked rest dashed
    if (in.ray) {
        const RaycastHit& h = *in.ray;
        for (const PolyRef r : h.polys)
            if (const uint32_t p = mesh.poly_index(r); p < npolys) add_navmesh_poly(mesh, p, colors::kRayVisited, kFillLift, fill);
        const float a[3] = {in.ray_start[0], in.ray_start[1] + kPathLift, in.ray_start[2]};
        const float e[3] = {in.ray_end[0], in.ray_end[1] + kPathLift, in.ray_end[2]};
        if (h.hit) {
            const float q[3] = {in.ray_hit[0], in.ray_hit[1] + kPathLift, in.ray_hit[2]};
            path.add_line(a, q, colors::kRayClear);
            funnel.add_line(a, q, colors::kRayClear);
            dashed(q, e, 0.5f, 0.35f, colors::kRayBlocked, funnel);
            const float n[3] = {q[0] + h.normal[0] * 1.5f, q[1], q[2] + h.normal[2] * 1.5f};
            path.add_line(q, n, colors::kRayNormal);
            funnel.add_point(q, colors::kRayHit);
        } else {
            path.add_line(a, e, colors::kRayClear);
            funnel.add_line(a, e, colors::kRayClear);
        }
    }

    // distance to wall: the circle of the distance and the line to the nearest wall point (along its normal)
    if (in.wall) {
        const WallHit& w = *in.wall;
        const float c[3] = {in.wall_center[0], in.wall_center[1] + kPathLift, in.wall_center[2]};
        constexpr int kSeg = 64;
        const float rad = w.distance;
        for (int i = 0; i < kSeg && rad > 1e-4f; ++i) {
            const float a0 = static_cast<float>(i) * 6.2831853f / kSeg, a1 = static_cast<float>(i + 1) * 6.2831853f / kSeg;
            funnel.add_line(c[0] + std::cos(a0) * rad, c[1], c[2] + std::sin(a0) * rad, c[0] + std::cos(a1) * rad, c[1],
                            c[2] + std::sin(a1) * rad, colors::kWallCircle);
        }
        if (w.found) {
            const float q[3] = {w.point[0], w.point[1] + kPathLift, w.point[2]};
            path.add_line(c, q, colors::kWallLine);
            funnel.add_line(c, q, colors::kWallLine);
            funnel.add_point(q, colors::kWallLine);
        }
    }

    // funnel step
    if (in.funnel && in.funnel_step >= 0 && in.funnel_step < static_cast<int>(in.funnel->steps.size())) {
        const FunnelTrace::Step& s = in.funnel->steps[static_cast<size_t>(in.funnel_step)];
        auto lift = [](const float* p, float* q) {
            q[0] = p[0];
            q[1] = p[1] + kPathLift;
            q[2] = p[2];
        };
        float apex[3], left[3], right[3], pl[3], pr[3];
        lift(s.apex, apex);
        lift(s.left, left);
        lift(s.right, right);
        lift(s.portal_left, pl);
        lift(s.portal_right, pr);
        funnel.add_line(pl, pr, colors::kFunnelPortal);
        funnel.add_line(apex, left, colors::kFunnelLeft);
        funnel.add_line(apex, right, colors::kFunnelRight);
        funnel.add_point(left, colors::kFunnelLeft);
        funnel.add_point(right, colors::kFunnelRight);
        funnel.add_point(apex, colors::kFunnelApex);
    }
}

}  // namespace nav::render
